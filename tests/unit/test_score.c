/* Unit tests for common/score: area counting (Chinese Rules 2002 Art. 9), dame and seki,
 * dead stones (Art. 8), komi and draws (Art. 11), warnings (Art. 24.1), handicap
 * compensation, and results in points and in stones. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "board.h"
#include "board_util.h"
#include "rules.h"
#include "score.h"
#include "vertex.h"

/* ================================ helpers ================================ */

#define EPS 1e-9
#define ck_assert_points(got, want) \
	ck_assert_msg(fabs((got) - (want)) < EPS, "%s = %g, want %g", #got, (double)(got), (double)(want))

/* Count and check both areas, komi and the SGF result. */
static void expect_count(const struct board *b, const bool *dead, double komi, int handicap,
			 const int warnings[3], double black, double white, const char *result)
{
	struct score s;
	char res[SCORE_RESULT_MAX];
	memset(&s, 0x55, sizeof s);
	score_area(b, dead, komi, handicap, warnings, &s);
	ck_assert_points(s.black, black);
	ck_assert_points(s.white, white);
	ck_assert_points(s.komi, komi + score_handicap_compensation(handicap));
	ck_assert_points(score_margin(&s), black - white - s.komi);
	ck_assert_str_eq(score_result(score_margin(&s), res), result);
}

/* ================================ area ================================ */

START_TEST(test_empty_board)
{
	struct board b;
	ck_assert_int_eq(board_init(&b, 9, KO_SIMPLE), 0);
	/* No living stone borders the board: it is nobody's. */
	expect_count(&b, NULL, 7.5, 0, NULL, 0, 0, "W+7.5");
	expect_count(&b, NULL, 0, 0, NULL, 0, 0, "0");
	board_free(&b);
}
END_TEST

START_TEST(test_one_stone_owns_the_board)
{
	struct board b;
	ck_assert_int_eq(board_init(&b, 9, KO_SIMPLE), 0);
	ck_assert_int_eq(board_play(&b, BLACK, V(&b, "E5"), NULL, NULL), BOARD_OK);
	expect_count(&b, NULL, 7.5, 0, NULL, 81, 0, "B+73.5");
	board_free(&b);
}
END_TEST

/* Stones plus the empty points they alone surround. */
START_TEST(test_simple_areas)
{
	struct board b;
	from_diagram(&b, 5, KO_SITUATIONAL,
		     ". X O . ."
		     ". X O . ."
		     ". X O . ."
		     ". X O . ."
		     ". X O . .");
	expect_count(&b, NULL, 0, 0, NULL, 10, 15, "W+5");
	expect_count(&b, NULL, 0.5, 0, NULL, 10, 15, "W+5.5");
	expect_count(&b, NULL, -5, 0, NULL, 10, 15, "0");
	board_free(&b);
}
END_TEST

/* Art. 9: empty points between both sides' stones are split half each. */
START_TEST(test_dame_split)
{
	struct board b;
	from_diagram(&b, 5, KO_SITUATIONAL,
		     ". X . O ."
		     ". X . O ."
		     ". X . O ."
		     ". X . O ."
		     ". X . O .");
	expect_count(&b, NULL, 0, 0, NULL, 12.5, 12.5, "0");
	expect_count(&b, NULL, 0.5, 0, NULL, 12.5, 12.5, "W+0.5");
	board_free(&b);

	/* One dame point: an odd half. */
	from_diagram(&b, 5, KO_SITUATIONAL,
		     "X X X O O"
		     "X . X O ."
		     "X X . O O"
		     ". X X O ."
		     ". . X O .");
	/* Black: 10 stones + B4, A2, A1, B1 = 14; the dame C3 touches both: 14.5.
	 * White: 7 stones + E4, E2, E1 = 10, + 0.5 = 10.5. */
	expect_count(&b, NULL, 0, 0, NULL, 14.5, 10.5, "B+4");
	expect_count(&b, NULL, 7.5, 0, NULL, 14.5, 10.5, "W+3.5");
	board_free(&b);
}
END_TEST

/* A seki: each side has one eye and they share one liberty; neither can fill it. The stones
 * are alive, the shared liberty is split, each eye is its owner's. */
START_TEST(test_seki)
{
	struct board b;
	from_diagram(&b, 4, KO_SITUATIONAL,
		     ". X O ."
		     "X X O O"
		     "X . O O"
		     "X X O O");
	/* It is a seki: filling the shared point is self-atari, the other's eye is suicide. */
	ck_assert_int_eq(board_check(&b, BLACK, V(&b, "D4")), BOARD_SUICIDE);
	ck_assert_int_eq(board_check(&b, WHITE, V(&b, "A4")), BOARD_SUICIDE);
	ck_assert_int_eq(board_liberties(&b, V(&b, "A1")), 2);
	ck_assert_int_eq(board_liberties(&b, V(&b, "D1")), 2);
	/* Black 6 stones + A4 + half of B2; White 7 stones + D4 + half of B2. */
	expect_count(&b, NULL, 0, 0, NULL, 7.5, 8.5, "W+1");
	bool dead[BOARD_POINTS_MAX];
	ck_assert_int_eq(score_mark_dead(&b, NULL, 0, dead), 0);
	expect_count(&b, dead, 0, 0, NULL, 7.5, 8.5, "W+1");
	board_free(&b);
}
END_TEST

/* A seki without eyes: two inner chains share two liberties (A1, B2), each enclosed by the
 * other side's living wall. */
START_TEST(test_seki_two_shared)
{
	struct board b, t;
	int cap[BOARD_POINTS_MAX], ncap = 0;
	from_diagram(&b, 7, KO_SITUATIONAL,
		     ". . . O X . ."
		     ". . . O X . ."
		     ". . . O X . ."
		     "O O O O X . ."
		     "X X X O X . ."
		     "X . O X X . ."
		     ". O O X . . .");
	ck_assert_int_eq(board_liberties(&b, V(&b, "A2")), 2);
	ck_assert_int_eq(board_liberties(&b, V(&b, "B1")), 2);
	/* Whoever fills a shared liberty is captured at the other. */
	ck_assert_int_eq(board_copy(&t, &b), 0);
	ck_assert_int_eq(board_play(&t, BLACK, V(&t, "A1"), NULL, NULL), BOARD_OK);
	ck_assert_int_eq(board_play(&t, WHITE, V(&t, "B2"), cap, &ncap), BOARD_OK);
	ck_assert_int_eq(ncap, 5);
	board_free(&t);
	ck_assert_int_eq(board_copy(&t, &b), 0);
	ck_assert_int_eq(board_play(&t, WHITE, V(&t, "B2"), NULL, NULL), BOARD_OK);
	ck_assert_int_eq(board_play(&t, BLACK, V(&t, "A1"), cap, &ncap), BOARD_OK);
	ck_assert_int_eq(ncap, 4);
	board_free(&t);
	/* Black: 12 stones + E1 and the F, G columns (15) + half of A1 and B2 = 28.
	 * White: 11 stones + A5..C7 (9) + 1 = 21. The seki stones count as alive. */
	expect_count(&b, NULL, 0, 0, NULL, 28, 21, "B+7");
	expect_count(&b, NULL, 7, 0, NULL, 28, 21, "0");
	bool dead[BOARD_POINTS_MAX];
	ck_assert_int_eq(score_mark_dead(&b, NULL, 0, dead), 0);
	expect_count(&b, dead, 7.5, 0, NULL, 28, 21, "W+0.5");
	board_free(&b);
}
END_TEST

/* ================================ dead stones ================================ */

START_TEST(test_mark_dead)
{
	struct board b;
	bool dead[BOARD_POINTS_MAX];
	from_diagram(&b, 5, KO_SITUATIONAL,
		     ". X O . ."
		     "O X O X ."
		     "O X O . ."
		     ". X O . ."
		     ". X O . .");
	/* One stone names its chain. */
	int pts[] = {V(&b, "A4")};
	ck_assert_int_eq(score_mark_dead(&b, pts, 1, dead), 0);
	ck_assert(dead[V(&b, "A4")]);
	ck_assert(dead[V(&b, "A3")]);
	int ndead = 0;
	for (int p = 0; p < BOARD_POINTS_MAX; p++)
		ndead += dead[p];
	ck_assert_int_eq(ndead, 2);
	/* Two points of the same chain, and another chain. */
	int pts2[] = {V(&b, "A3"), V(&b, "D4"), V(&b, "A4")};
	ck_assert_int_eq(score_mark_dead(&b, pts2, 3, dead), 0);
	ndead = 0;
	for (int p = 0; p < BOARD_POINTS_MAX; p++)
		ndead += dead[p];
	ck_assert_int_eq(ndead, 3);
	ck_assert(dead[V(&b, "D4")]);
	ck_assert(!dead[V(&b, "B4")]);
	/* Black: 5 stones + the A column (dead A4, A3 included) = 10; White: 5 + the D and E
	 * columns (dead D4 included) = 15. */
	expect_count(&b, dead, 0, 0, NULL, 10, 15, "W+5");
	/* All alive (Tromp-Taylor): A5 and A2-A1 touch both colours, and so do the nine empty
	 * points on the right (D4 is Black): all shared. */
	expect_count(&b, NULL, 0, 0, NULL, 6 + 0.5 + 1 + 4.5, 7 + 0.5 + 1 + 4.5, "W+1");
	board_free(&b);
}
END_TEST

START_TEST(test_mark_dead_invalid)
{
	struct board b;
	bool dead[BOARD_POINTS_MAX];
	from_diagram(&b, 5, KO_SITUATIONAL,
		     ". X O . ."
		     ". X O . ."
		     ". X O . ."
		     ". X O . ."
		     ". X O . .");
	/* "Cleared first": a stale flag does not survive. */
	memset(dead, 1, sizeof dead);
	ck_assert_int_eq(score_mark_dead(&b, NULL, 0, dead), 0);
	for (int p = 0; p < BOARD_POINTS_MAX; p++)
		ck_assert(!dead[p]);
	/* An empty point second: index 2 returned, nothing marked. */
	int pts[] = {V(&b, "B1"), V(&b, "A1"), V(&b, "C1")};
	memset(dead, 1, sizeof dead);
	ck_assert_int_eq(score_mark_dead(&b, pts, 3, dead), 2);
	for (int p = 0; p < BOARD_POINTS_MAX; p++)
		ck_assert_msg(!dead[p], "point %d marked after an error", p);
	/* Off the board, a pass, a border point. */
	int off[] = {V(&b, "C1"), -3};
	ck_assert_int_eq(score_mark_dead(&b, off, 2, dead), 2);
	int pass[] = {BOARD_PASS};
	ck_assert_int_eq(score_mark_dead(&b, pass, 1, dead), 1);
	int border[] = {V(&b, "C1"), V(&b, "C2"), board_pt(&b, 5, 2)};
	ck_assert_int_eq(score_mark_dead(&b, border, 3, dead), 3);
	int far[] = {BOARD_POINTS_MAX - 1};
	ck_assert_int_eq(score_mark_dead(&b, far, 1, dead), 1);
	for (int p = 0; p < BOARD_POINTS_MAX; p++)
		ck_assert(!dead[p]);
	board_free(&b);
}
END_TEST

/* A 9x9 finished game: walls, a dame column, a dead stone on each side. */
static const char *const GAME_9 =
	". . . X . O . . ."
	". . . X . O . . ."
	". . . X . O . . ."
	". . . X . O . . ."
	". O . X . O . X ."
	". . . X . O . . ."
	". . . X . O . . ."
	". . . X . O . . ."
	". . . X . O . . .";

START_TEST(test_dead_stones_game)
{
	struct board b;
	bool dead[BOARD_POINTS_MAX];
	from_diagram(&b, 9, KO_SITUATIONAL, GAME_9);
	int pts[] = {V(&b, "B5"), V(&b, "H5")};
	ck_assert_int_eq(score_mark_dead(&b, pts, 2, dead), 0);
	/* Black 27 + 9, White 27 + 9, the E column split. */
	expect_count(&b, dead, 0, 0, NULL, 40.5, 40.5, "0");
	expect_count(&b, dead, 7.5, 0, NULL, 40.5, 40.5, "W+7.5");
	/* Only White's stone dead: Black's H5 lives, so White's area (26 empty) is shared. */
	int one[] = {V(&b, "B5")};
	ck_assert_int_eq(score_mark_dead(&b, one, 1, dead), 0);
	expect_count(&b, dead, 0, 0, NULL, 36 + 4.5 + 1 + 13, 9 + 4.5 + 13, "B+28");
	/* All alive: both areas shared. */
	expect_count(&b, NULL, 0, 0, NULL, 9 + 1 + 4.5 + 13 + 13, 9 + 1 + 4.5 + 13 + 13, "0");
	board_free(&b);
}
END_TEST

/* A region of dead stones only, bordered by nobody alive, counts for nobody. */
START_TEST(test_dead_region_nobody)
{
	struct board b;
	bool dead[BOARD_POINTS_MAX];
	from_diagram(&b, 3, KO_SITUATIONAL,
		     ". . ."
		     ". X ."
		     ". . .");
	int pts[] = {V(&b, "B2")};
	ck_assert_int_eq(score_mark_dead(&b, pts, 1, dead), 0);
	expect_count(&b, dead, 0, 0, NULL, 0, 0, "0");
	expect_count(&b, NULL, 0, 0, NULL, 9, 0, "B+9");
	board_free(&b);
}
END_TEST

/* ================================ komi, warnings, handicap ================================ */

START_TEST(test_integer_komi_draw)
{
	struct board b;
	from_diagram(&b, 9, KO_SITUATIONAL,
		     ". . . . X O . . ."
		     ". . . . X O . . ."
		     ". . . . X O . . ."
		     ". . . . X O . . ."
		     ". . . . X O . . ."
		     ". . . . X O . . ."
		     ". . . . X O . . ."
		     ". . . . X O . . ."
		     ". . . . X O . . .");
	expect_count(&b, NULL, 9, 0, NULL, 45, 36, "0");
	expect_count(&b, NULL, 7, 0, NULL, 45, 36, "B+2");
	expect_count(&b, NULL, 10, 0, NULL, 45, 36, "W+1");
	expect_count(&b, NULL, 8.5, 0, NULL, 45, 36, "B+0.5");
	board_free(&b);
}
END_TEST

/* Art. 24.1: each warning takes one point from the warned side and gives it to the other
 * (the margin moves by two). */
START_TEST(test_warnings)
{
	struct board b;
	from_diagram(&b, 9, KO_SITUATIONAL, GAME_9);
	bool dead[BOARD_POINTS_MAX];
	int pts[] = {V(&b, "B5"), V(&b, "H5")};
	ck_assert_int_eq(score_mark_dead(&b, pts, 2, dead), 0);
	const int none[3] = {0, 0, 0}, wb[3] = {0, 1, 0}, ww[3] = {0, 0, 1}, both[3] = {0, 1, 1},
		  wb2[3] = {0, 2, 0};
	expect_count(&b, dead, 0, 0, none, 40.5, 40.5, "0");
	expect_count(&b, dead, 0, 0, wb, 39.5, 41.5, "W+2");
	expect_count(&b, dead, 0, 0, ww, 41.5, 39.5, "B+2");
	expect_count(&b, dead, 0, 0, both, 40.5, 40.5, "0");
	expect_count(&b, dead, 0, 0, wb2, 38.5, 42.5, "W+4");
	expect_count(&b, dead, 7.5, 0, ww, 41.5, 39.5, "W+5.5");
	/* warnings[EMPTY] means nothing. */
	const int junk[3] = {5, 0, 0};
	expect_count(&b, dead, 0, 0, junk, 40.5, 40.5, "0");
	board_free(&b);
}
END_TEST

START_TEST(test_handicap_compensation)
{
	ck_assert_points(score_handicap_compensation(0), 0);
	ck_assert_points(score_handicap_compensation(1), 0);
	ck_assert_points(score_handicap_compensation(-3), 0);
	ck_assert_points(score_handicap_compensation(2), 2);
	ck_assert_points(score_handicap_compensation(4), 4);
	ck_assert_points(score_handicap_compensation(9), 9);
	/* The komi in force (KM, the engine's komi, the count; issue 15): komi + compensation. */
	ck_assert_points(score_effective_komi(0.5, 0), 0.5);
	ck_assert_points(score_effective_komi(0.5, 1), 0.5);
	ck_assert_points(score_effective_komi(0.5, 2), 2.5);
	ck_assert_points(score_effective_komi(7.5, 9), 16.5);
	ck_assert_points(score_effective_komi(-3, 4), 1);

	struct board b;
	from_diagram(&b, 9, KO_SITUATIONAL, GAME_9);
	bool dead[BOARD_POINTS_MAX];
	int pts[] = {V(&b, "B5"), V(&b, "H5")};
	ck_assert_int_eq(score_mark_dead(&b, pts, 2, dead), 0);
	/* One point of komi per handicap stone goes to White. */
	expect_count(&b, dead, 0.5, 2, NULL, 40.5, 40.5, "W+2.5");
	expect_count(&b, dead, 0, 9, NULL, 40.5, 40.5, "W+9");
	expect_count(&b, dead, 0.5, 1, NULL, 40.5, 40.5, "W+0.5");
	const int ww[3] = {0, 0, 1};
	expect_count(&b, dead, 0, 3, ww, 41.5, 39.5, "W+1");
	board_free(&b);
}
END_TEST

/* ================================ results ================================ */

START_TEST(test_result_points)
{
	char out[SCORE_RESULT_MAX];
	ck_assert_str_eq(score_result(0.5, out), "B+0.5");
	ck_assert_str_eq(score_result(-0.5, out), "W+0.5");
	ck_assert_str_eq(score_result(-3, out), "W+3");
	ck_assert_str_eq(score_result(3, out), "B+3");
	ck_assert_str_eq(score_result(0, out), "0");
	ck_assert_str_eq(score_result(-0.0, out), "0");
	ck_assert_str_eq(score_result(1.5, out), "B+1.5");
	ck_assert_str_eq(score_result(180.5, out), "B+180.5");
	ck_assert_str_eq(score_result(-625, out), "W+625");
	/* A margin that rounds to a whole number at two decimals (odd komi from an SGF file). */
	ck_assert_str_eq(score_result(80.999, out), "B+81");
	ck_assert_str_eq(score_result(-80.9996, out), "W+81");
	ck_assert_str_eq(score_result(-999.5, out), "W+999.5");
	ck_assert(score_result(2, out) == out);
}
END_TEST

START_TEST(test_result_stones)
{
	char out[32];
	ck_assert_str_eq(score_result_stones(0.5, out), "B+¼");
	ck_assert_str_eq(score_result_stones(-0.5, out), "W+¼");
	ck_assert_str_eq(score_result_stones(1, out), "B+½");
	ck_assert_str_eq(score_result_stones(-1, out), "W+½");
	ck_assert_str_eq(score_result_stones(1.5, out), "B+¾");
	ck_assert_str_eq(score_result_stones(2, out), "B+1");
	ck_assert_str_eq(score_result_stones(-7.5, out), "W+3¾");
	ck_assert_str_eq(score_result_stones(7.5, out), "B+3¾");
	ck_assert_str_eq(score_result_stones(3, out), "B+1½");
	ck_assert_str_eq(score_result_stones(-8, out), "W+4");
	ck_assert_str_eq(score_result_stones(0, out), "0");
	ck_assert(score_result_stones(2, out) == out);
}
END_TEST

/* Art. 11 with real 19x19 boards: Black's wall on J, White's on L, and the K column holds n
 * Black stones from the bottom; the rest of K is shared. Black = 180.5 + n/2. */
static void art11_board(struct board *b, int n)
{
	char d[19 * 19 + 1];
	for (int row = 0; row < 19; row++) /* row 0 is the top (y = 18) */
		for (int col = 0; col < 19; col++) {
			int y = 18 - row;
			char c = '.';
			if (col == 8 || (col == 9 && y < n))
				c = 'X';
			else if (col == 10)
				c = 'O';
			d[row * 19 + col] = c;
		}
	d[19 * 19] = '\0';
	from_diagram(b, 19, KO_SITUATIONAL, d);
}

START_TEST(test_art11_examples)
{
	static const struct {
		int n;
		double black, white;
		const char *points, *stones;
	} ex[] = {
		{9, 185, 176, "B+1.5", "B+¾"},  /* 185 wins by ¾ stone */
		{7, 184, 177, "W+0.5", "W+¼"},  /* 184 loses by ¼ */
		{8, 184.5, 176.5, "B+0.5", "B+¼"}, /* 184.5 wins by ¼ */
		{0, 180.5, 180.5, "W+7.5", "W+3¾"}, /* par: komi 3¾ stones */
	};
	for (size_t i = 0; i < sizeof ex / sizeof *ex; i++) {
		struct board b;
		struct score s;
		char out[32];
		art11_board(&b, ex[i].n);
		score_area(&b, NULL, RULES_DEFAULT_KOMI, 0, NULL, &s);
		ck_assert_points(s.black, ex[i].black);
		ck_assert_points(s.white, ex[i].white);
		ck_assert_points(s.black + s.white, 361);
		ck_assert_str_eq(score_result(score_margin(&s), out), ex[i].points);
		ck_assert_str_eq(score_result_stones(score_margin(&s), out), ex[i].stones);
		board_free(&b);
	}
}
END_TEST

/* ================================ main ================================ */

static Suite *score_suite(void)
{
	Suite *s = suite_create("score");
	TCase *tc = tcase_create("area");
	tcase_add_test(tc, test_empty_board);
	tcase_add_test(tc, test_one_stone_owns_the_board);
	tcase_add_test(tc, test_simple_areas);
	tcase_add_test(tc, test_dame_split);
	tcase_add_test(tc, test_seki);
	tcase_add_test(tc, test_seki_two_shared);
	tcase_add_test(tc, test_mark_dead);
	tcase_add_test(tc, test_mark_dead_invalid);
	tcase_add_test(tc, test_dead_stones_game);
	tcase_add_test(tc, test_dead_region_nobody);
	suite_add_tcase(s, tc);
	TCase *tk = tcase_create("komi_results");
	tcase_add_test(tk, test_integer_komi_draw);
	tcase_add_test(tk, test_warnings);
	tcase_add_test(tk, test_handicap_compensation);
	tcase_add_test(tk, test_result_points);
	tcase_add_test(tk, test_result_stones);
	tcase_add_test(tk, test_art11_examples);
	suite_add_tcase(s, tk);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(score_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
