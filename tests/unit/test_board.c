/* Unit tests for common/board and common/vertex: captures, suicide, ko and superko (Chinese
 * Rules 2002 Art. 3-6, docs/rules.md §1), chains and liberties, copies. Handicap placement,
 * vertices, diagrams and random play are in test_board_random.c. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "board.h"
#include "board_util.h"
#include "vertex.h"



START_TEST(test_init)
{
	struct board b;
	ck_assert_int_eq(board_init(&b, 1, KO_SIMPLE), -1);
	ck_assert_int_eq(board_init(&b, 26, KO_SIMPLE), -1);
	ck_assert_int_eq(board_init(&b, 0, KO_SIMPLE), -1);
	for (int size = BOARD_MIN_SIZE; size <= BOARD_MAX_SIZE; size++) {
		ck_assert_int_eq(board_init(&b, size, KO_POSITIONAL), 0);
		ck_assert_int_eq(b.size, size);
		ck_assert_int_eq(b.ko_rule, KO_POSITIONAL);
		ck_assert_int_eq(b.to_move, BLACK);
		ck_assert_uint_eq(board_moves(&b), 0);
		ck_assert_int_eq(board_count(&b, EMPTY), size * size);
		ck_assert_int_eq(board_count(&b, BLACK), 0);
		ck_assert(board_on(&b, board_pt(&b, 0, 0)));
		ck_assert(board_on(&b, board_pt(&b, size - 1, size - 1)));
		ck_assert(!board_on(&b, board_pt(&b, size, 0)));
		ck_assert(!board_on(&b, board_pt(&b, 0, size)));
		ck_assert(!board_on(&b, board_pt(&b, -1, 0)));
		ck_assert(!board_on(&b, BOARD_PASS));
		ck_assert(board_selfcheck(&b));
		board_free(&b);
	}
}
END_TEST

START_TEST(test_setup)
{
	struct board b;
	from_diagram(&b, 5, KO_SIMPLE,
		     ". . . . ."
		     ". X O . ."
		     ". . . . ."
		     ". . . . ."
		     ". . . . X");
	ck_assert_int_eq(board_count(&b, BLACK), 2);
	ck_assert_int_eq(board_count(&b, WHITE), 1);
	ck_assert_uint_eq(board_moves(&b), 0);
	ck_assert_uint_eq(b.nsetup, 3);
	/* Occupied, off the board, not a colour: refused. */
	ck_assert_int_eq(board_setup(&b, WHITE, V(&b, "B4")), -1);
	ck_assert_int_eq(board_setup(&b, BLACK, board_pt(&b, 5, 0)), -1);
	ck_assert_int_eq(board_setup(&b, EMPTY, V(&b, "A1")), -1);
	ck_assert_uint_eq(b.nsetup, 3);
	board_set_to_move(&b, WHITE);
	ck_assert_int_eq(b.to_move, WHITE);
	ck_assert_int_eq(board_play(&b, WHITE, V(&b, "A1"), NULL, NULL), BOARD_OK);
	ck_assert_int_eq(b.to_move, BLACK);
	/* After the first move: no more setup. */
	ck_assert_int_eq(board_setup(&b, BLACK, V(&b, "E5")), -1);
	ck_assert_int_eq(board_count(&b, BLACK), 2);
	ck_assert(board_selfcheck(&b));
	board_free(&b);
}
END_TEST

/* A setup stone that would leave a chain without liberties is refused and changes nothing,
 * also when it joins existing stones. */
START_TEST(test_setup_refused_changes_nothing)
{
	struct board b;
	struct snap s;
	from_diagram(&b, 2, KO_SIMPLE,
		     "X ."
		     "X X");
	take(&b, &s);
	ck_assert_int_eq(board_setup(&b, BLACK, V(&b, "B2")), -1); /* fills the last liberty */
	assert_unchanged(&b, &s);
	ck_assert_int_eq(board_count(&b, BLACK), 3);
	ck_assert_uint_eq(b.nsetup, 3);
	ck_assert_int_eq(board_setup(&b, WHITE, V(&b, "B2")), -1); /* no liberty, captures */
	assert_unchanged(&b, &s);
	board_free(&b);

	/* A joining stone that takes an opponent's last liberty. */
	from_diagram(&b, 3, KO_SIMPLE,
		     ". . ."
		     "X X ."
		     "O . .");
	take(&b, &s);
	ck_assert_int_eq(board_setup(&b, BLACK, V(&b, "B1")), -1);
	assert_unchanged(&b, &s);
	ck_assert_int_eq(board_count(&b, BLACK), 2);
	ck_assert_int_eq(board_count(&b, WHITE), 1);
	board_free(&b);
}
END_TEST

/* ================================ captures ================================ */

START_TEST(test_capture_single)
{
	struct board b;
	int cap[BOARD_POINTS_MAX], ncap = -1;
	ck_assert_int_eq(board_init(&b, 9, KO_SITUATIONAL), 0);
	play_seq(&b, "E5 E6 pass D5 pass F5");
	ck_assert_int_eq(board_liberties(&b, V(&b, "E5")), 1);
	ck_assert_int_eq(board_play(&b, BLACK, BOARD_PASS, cap, &ncap), BOARD_OK);
	ck_assert_int_eq(ncap, 0);
	ck_assert_int_eq(board_play(&b, WHITE, V(&b, "E4"), cap, &ncap), BOARD_OK);
	ck_assert_int_eq(ncap, 1);
	ck_assert_int_eq(cap[0], V(&b, "E5"));
	ck_assert_int_eq(board_at(&b, V(&b, "E5")), EMPTY);
	ck_assert_int_eq(b.captures[WHITE], 1);
	ck_assert_int_eq(b.captures[BLACK], 0);
	ck_assert_int_eq(board_count(&b, BLACK), 0);
	ck_assert_int_eq(board_count(&b, WHITE), 4);
	ck_assert_int_eq(board_liberties(&b, V(&b, "E4")), 4);
	ck_assert_int_eq(b.to_move, BLACK);
	ck_assert_uint_eq(board_moves(&b), 8);
	/* Not a ko: White's capturing stone has four liberties. */
	ck_assert_int_eq(b.ko_point, BOARD_PASS);
	expect_play(&b, BLACK, "E5", BOARD_SUICIDE);
	ck_assert(board_selfcheck(&b));
	board_free(&b);
}
END_TEST

/* One move captures two separate chains (Art. 4: all the opponent's liberty-less chains). */
START_TEST(test_capture_two_chains)
{
	struct board b;
	int cap[BOARD_POINTS_MAX], ncap = 0;
	from_diagram(&b, 5, KO_SITUATIONAL,
		     ". O O . O"
		     "O X X . X"
		     ". O O . O"
		     ". . . . ."
		     ". . . . .");
	board_set_to_move(&b, WHITE);
	ck_assert_int_eq(board_liberties(&b, V(&b, "B4")), 1);
	ck_assert_int_eq(board_liberties(&b, V(&b, "E4")), 1);
	ck_assert_int_eq(board_play(&b, WHITE, V(&b, "D4"), cap, &ncap), BOARD_OK);
	ck_assert_int_eq(ncap, 3);
	assert_points(&b, cap, ncap, "B4 C4 E4");
	ck_assert_int_eq(b.captures[WHITE], 3);
	assert_diagram(&b,
		       ". O O . O\n"
		       "O . . O .\n"
		       ". O O . O\n"
		       ". . . . .\n"
		       ". . . . .\n");
	ck_assert_int_eq(b.ko_point, BOARD_PASS);
	ck_assert(board_selfcheck(&b));
	board_free(&b);
}
END_TEST

/* Four chains around one point, all captured at once. */
START_TEST(test_capture_three_chains_and_merge)
{
	struct board b;
	int cap[BOARD_POINTS_MAX], ncap = 0;
	from_diagram(&b, 5, KO_SIMPLE,
		     ". . O . ."
		     ". O X O ."
		     "O X . X O"
		     ". O X O ."
		     ". . O . .");
	board_set_to_move(&b, WHITE);
	/* C3 is the last liberty of four single Black stones. */
	ck_assert_int_eq(board_play(&b, WHITE, V(&b, "C3"), cap, &ncap), BOARD_OK);
	ck_assert_int_eq(ncap, 4);
	assert_points(&b, cap, ncap, "C4 B3 D3 C2");
	ck_assert_int_eq(board_liberties(&b, V(&b, "C3")), 4);
	ck_assert_int_eq(b.captures[WHITE], 4);
	ck_assert(board_selfcheck(&b));
	board_free(&b);
}
END_TEST

START_TEST(test_capture_edge_and_corner)
{
	struct board b;
	int cap[BOARD_POINTS_MAX], ncap = 0;
	ck_assert_int_eq(board_init(&b, 9, KO_SITUATIONAL), 0);
	/* Corner: A1 has two liberties. */
	play_seq(&b, "A1 A2");
	ck_assert_int_eq(board_liberties(&b, V(&b, "A1")), 1);
	ck_assert_int_eq(board_play(&b, BLACK, BOARD_PASS, NULL, NULL), BOARD_OK);
	ck_assert_int_eq(board_play(&b, WHITE, V(&b, "B1"), cap, &ncap), BOARD_OK);
	ck_assert_int_eq(ncap, 1);
	ck_assert_int_eq(cap[0], V(&b, "A1"));
	/* Edge: a two-stone chain on the top edge. */
	play_seq(&b, "E9 F9 D9 C9 pass E8 pass D8");
	ck_assert_int_eq(board_at(&b, V(&b, "E9")), EMPTY);
	ck_assert_int_eq(board_at(&b, V(&b, "D9")), EMPTY);
	ck_assert_int_eq(b.captures[WHITE], 3);
	/* Top-right corner chain of three. */
	play_seq(&b, "J9 pass J8 pass H8 H9 pass J7 pass G8 pass");
	ck_assert_int_eq(board_count(&b, BLACK), 3);
	ck_assert_int_eq(board_liberties(&b, V(&b, "J8")), 1);
	ck_assert_int_eq(board_play(&b, WHITE, V(&b, "H7"), cap, &ncap), BOARD_OK);
	ck_assert_int_eq(ncap, 3);
	assert_points(&b, cap, ncap, "J9 J8 H8");
	ck_assert_int_eq(b.captures[WHITE], 6);
	ck_assert_int_eq(b.captures[BLACK], 0);
	ck_assert_int_eq(board_count(&b, BLACK), 0);
	ck_assert(board_selfcheck(&b));
	board_free(&b);
}
END_TEST

/* ================================ suicide ================================ */

START_TEST(test_suicide_single)
{
	struct board b;
	from_diagram(&b, 5, KO_SITUATIONAL,
		     ". O . . ."
		     "O . O . ."
		     ". O . . ."
		     ". . . . ."
		     ". . . . O");
	expect_play(&b, BLACK, "B4", BOARD_SUICIDE);
	expect_play(&b, BLACK, "A5", BOARD_SUICIDE); /* corner */
	ck_assert_int_eq(board_check(&b, WHITE, V(&b, "B4")), BOARD_OK); /* own eye: legal */
	expect_play(&b, BLACK, "E2", BOARD_OK);
	expect_play(&b, WHITE, "pass", BOARD_OK);
	expect_play(&b, BLACK, "D1", BOARD_OK); /* captures E1 */
	ck_assert_int_eq(b.captures[BLACK], 1);
	ck_assert_int_eq(board_at(&b, V(&b, "E1")), EMPTY);
	board_free(&b);
}
END_TEST

START_TEST(test_suicide_multi)
{
	struct board b;
	from_diagram(&b, 5, KO_SIMPLE,
		     ". O O . ."
		     "O X . O ."
		     ". O O . ."
		     ". . . . ."
		     ". . . . .");
	/* C4 joins B4: the chain of two has no liberty and captures nothing. */
	expect_play(&b, BLACK, "C4", BOARD_SUICIDE);
	ck_assert_int_eq(board_at(&b, V(&b, "B4")), BLACK);
	ck_assert_int_eq(board_count(&b, WHITE), 6);
	board_free(&b);

	/* White A1 fills the last liberty of its chain of three in the corner: four stones. */
	from_diagram(&b, 4, KO_SIMPLE,
		     ". . . ."
		     "X X X ."
		     "O O X ."
		     ". O X .");
	board_set_to_move(&b, WHITE);
	expect_play(&b, WHITE, "A1", BOARD_SUICIDE);
	ck_assert_int_eq(board_count(&b, WHITE), 3);
	ck_assert_int_eq(board_liberties(&b, V(&b, "B1")), 1);
	/* Black A1 is the capture. */
	expect_play(&b, WHITE, "pass", BOARD_OK);
	expect_play(&b, BLACK, "A1", BOARD_OK);
	ck_assert_int_eq(board_count(&b, WHITE), 0);
	ck_assert_int_eq(b.captures[BLACK], 3);
	board_free(&b);
}
END_TEST

/* No empty neighbour, but it captures: legal (Art. 4 before Art. 5). */
START_TEST(test_not_suicide_when_capturing)
{
	struct board b;
	int cap[BOARD_POINTS_MAX], ncap = 0;
	from_diagram(&b, 3, KO_SIMPLE,
		     "X X ."
		     "X O O"
		     "X O .");
	/* Black C1: no empty neighbour, the White chain has only C3 and C1 ... C3 is left. */
	ck_assert_int_eq(board_check(&b, BLACK, V(&b, "C1")), BOARD_SUICIDE);
	board_free(&b);

	/* Black A1 has no empty neighbour but captures two chains. */
	from_diagram(&b, 3, KO_SIMPLE,
		     "X . ."
		     "O X ."
		     ". O X");
	ck_assert_int_eq(board_check(&b, BLACK, V(&b, "A1")), BOARD_OK);
	ck_assert_int_eq(board_play(&b, BLACK, V(&b, "A1"), cap, &ncap), BOARD_OK);
	ck_assert_int_eq(ncap, 2);
	assert_points(&b, cap, ncap, "A2 B1");
	assert_diagram(&b, "X..\n.X.\nX.X\n");
	ck_assert_int_eq(b.captures[BLACK], 2);
	ck_assert_int_eq(board_liberties(&b, V(&b, "A1")), 2);
	ck_assert(board_selfcheck(&b));
	board_free(&b);

	/* Mid-board: the capture that starts a ko. */
	from_diagram(&b, 5, KO_SIMPLE,
		     ". . . . ."
		     ". . X O ."
		     ". X O . O"
		     ". . X O ."
		     ". . . . .");
	ck_assert_int_eq(board_play(&b, BLACK, V(&b, "D3"), cap, &ncap), BOARD_OK);
	ck_assert_int_eq(ncap, 1);
	ck_assert_int_eq(cap[0], V(&b, "C3"));
	ck_assert_int_eq(board_liberties(&b, V(&b, "D3")), 1);
	board_free(&b);
}
END_TEST

/* ================================ ko ================================ */

static const char *const KO_7 =
	". . . . . . ."
	". . . . . . ."
	". . . . . . ."
	". . X O . . ."
	". X O . O . ."
	". . X O . . ."
	". . . . . . .";

START_TEST(test_simple_ko)
{
	for (int rule = KO_SITUATIONAL; rule <= KO_SIMPLE; rule++) {
		struct board b;
		from_diagram(&b, 7, (enum ko_rule)rule, KO_7);
		expect_play(&b, BLACK, "D3", BOARD_OK); /* takes the ko */
		ck_assert_int_eq(b.ko_point, V(&b, "C3"));
		ck_assert_int_eq(b.ko_color, WHITE);
		expect_play(&b, WHITE, "C3", BOARD_KO); /* immediate retake */
		ck_assert(board_repeats(&b, WHITE, V(&b, "C3"), KO_SITUATIONAL));
		ck_assert(board_repeats(&b, WHITE, V(&b, "C3"), KO_POSITIONAL));
		/* A ko threat and its answer. */
		expect_play(&b, WHITE, "G7", BOARD_OK);
		expect_play(&b, BLACK, "G6", BOARD_OK);
		ck_assert_int_eq(b.ko_point, BOARD_PASS);
		expect_play(&b, WHITE, "C3", BOARD_OK); /* retake: a new position */
		ck_assert_int_eq(board_at(&b, V(&b, "D3")), EMPTY);
		ck_assert_int_eq(b.captures[WHITE], 1);
		ck_assert_int_eq(b.captures[BLACK], 1);
		expect_play(&b, BLACK, "D3", BOARD_KO); /* and now Black needs a threat */
		expect_play(&b, BLACK, "A1", BOARD_OK);
		expect_play(&b, WHITE, "A2", BOARD_OK);
		expect_play(&b, BLACK, "D3", BOARD_OK);
		board_free(&b);
	}
}
END_TEST

/* Passes lift a simple ko, but under superko the retake after two passes recreates the board
 * with the same player to move. */
START_TEST(test_ko_after_passes)
{
	struct board b;
	from_diagram(&b, 7, KO_SIMPLE, KO_7);
	expect_play(&b, BLACK, "D3", BOARD_OK);
	expect_play(&b, WHITE, "pass", BOARD_OK);
	expect_play(&b, BLACK, "pass", BOARD_OK);
	expect_play(&b, WHITE, "C3", BOARD_OK); /* simple ko: only the immediate retake */
	board_free(&b);

	from_diagram(&b, 7, KO_SITUATIONAL, KO_7);
	expect_play(&b, BLACK, "D3", BOARD_OK);
	expect_play(&b, WHITE, "pass", BOARD_OK);
	expect_play(&b, BLACK, "pass", BOARD_OK);
	/* The board before D3, Black to move: seen at the start. */
	expect_play(&b, WHITE, "C3", BOARD_SUPERKO);
	board_free(&b);
}
END_TEST

/* A ko is one stone captured by one stone left with one liberty; two captured is no ko. */
START_TEST(test_not_ko)
{
	struct board b;
	from_diagram(&b, 5, KO_SIMPLE,
		     ". . . . ."
		     ". X O . ."
		     "X O . O ."
		     "X O . O ."
		     ". X O . .");
	/* Black C3 captures nothing; C2 captures B2+B3? B3-B2 chain libs: C3, C2. */
	expect_play(&b, BLACK, "C3", BOARD_OK);
	expect_play(&b, WHITE, "pass", BOARD_OK);
	int cap[BOARD_POINTS_MAX], ncap = 0;
	ck_assert_int_eq(board_play(&b, BLACK, V(&b, "C2"), cap, &ncap), BOARD_OK);
	ck_assert_int_eq(ncap, 2);
	ck_assert_int_eq(b.ko_point, BOARD_PASS);
	ck_assert(board_selfcheck(&b));
	board_free(&b);
}
END_TEST

/* ================================ superko ================================ */

/* "Sending two, returning one" in the corner: Black throws in at A1, White captures two at C1,
 * Black retakes one at B1, and the board is the starting one with White to move. */
static const char *const SEND_TWO =
	". . . . ."
	". . . . ."
	". . . . ."
	"O O X . ."
	". X . X .";

START_TEST(test_positional_vs_situational)
{
	struct board b;
	int cap[BOARD_POINTS_MAX], ncap = 0;
	for (int rule = KO_SITUATIONAL; rule <= KO_SIMPLE; rule++) {
		from_diagram(&b, 5, (enum ko_rule)rule, SEND_TWO);
		expect_play(&b, BLACK, "A1", BOARD_OK);
		ck_assert_int_eq(board_play(&b, WHITE, V(&b, "C1"), cap, &ncap), BOARD_OK);
		ck_assert_int_eq(ncap, 2);
		ck_assert_int_eq(b.ko_point, BOARD_PASS);
		/* B1 recreates the starting board, now with White to move. */
		ck_assert(board_repeats(&b, BLACK, V(&b, "B1"), KO_POSITIONAL));
		ck_assert(!board_repeats(&b, BLACK, V(&b, "B1"), KO_SITUATIONAL));
		expect_play(&b, BLACK, "B1", rule == KO_POSITIONAL ? BOARD_SUPERKO : BOARD_OK);
		if (rule != KO_POSITIONAL)
			assert_diagram(&b, ".....\n.....\n.....\nOOX..\n.X.X.\n");
		board_free(&b);
	}
}
END_TEST

/* Two kos and a pass: a board recurs with the other player to move (positional: illegal;
 * situational: legal). */
static const char *const TWO_KOS =
	"X . X O . . . . ."
	". X O . . . . . ."
	". . . . . . . . ."
	". . . . . . . . ."
	". . . . . . . . ."
	". . . . . . . . ."
	". . . . . . . . ."
	". X O . . . . . ."
	"X O . O . . . . .";

START_TEST(test_positional_vs_situational_pass)
{
	for (int rule = KO_SITUATIONAL; rule <= KO_SIMPLE; rule++) {
		struct board b;
		from_diagram(&b, 9, (enum ko_rule)rule, TWO_KOS);
		board_set_to_move(&b, WHITE);
		/* Start: W holds the bottom ko, B the top one, White to move. */
		expect_play(&b, WHITE, "B9", BOARD_OK);  /* W takes the top ko */
		expect_play(&b, BLACK, "C1", BOARD_OK);  /* B takes the bottom ko */
		expect_play(&b, WHITE, "pass", BOARD_OK);
		expect_play(&b, BLACK, "C9", BOARD_OK);  /* B retakes the top ko */
		/* W retakes the bottom ko: the starting board, but Black to move (it was White). */
		ck_assert(board_repeats(&b, WHITE, V(&b, "B1"), KO_POSITIONAL));
		ck_assert(!board_repeats(&b, WHITE, V(&b, "B1"), KO_SITUATIONAL));
		expect_play(&b, WHITE, "B1", rule == KO_POSITIONAL ? BOARD_SUPERKO : BOARD_OK);
		board_free(&b);
	}
}
END_TEST

/* A triple ko: six captures, each legal under simple ko, and the sixth repeats the start. */
static const char *const TRIPLE_KO =
	"X O . O . . . . ."
	". X O . . . . . ."
	". . . . . . . . ."
	". . . . . . . . ."
	". . . . . . . . ."
	". . . . . . . . ."
	". . . . . . . . ."
	". X O . . . X O ."
	"X O . O . X . X O";
static const char *const TRIPLE_KO_MOVES[] = {"C1", "G1", "C9", "B1", "H1"};
#define TRIPLE_KO_LAST "B9"

START_TEST(test_triple_ko)
{
	for (int rule = KO_SITUATIONAL; rule <= KO_SIMPLE; rule++) {
		struct board b;
		from_diagram(&b, 9, (enum ko_rule)rule, TRIPLE_KO);
		for (int i = 0; i < 5; i++) {
			ck_assert(!board_repeats(&b, b.to_move, V(&b, TRIPLE_KO_MOVES[i]), KO_POSITIONAL));
			expect_play(&b, b.to_move, TRIPLE_KO_MOVES[i], BOARD_OK);
		}
		ck_assert_int_eq(b.to_move, WHITE);
		ck_assert(board_repeats(&b, WHITE, V(&b, TRIPLE_KO_LAST), KO_SITUATIONAL));
		ck_assert(board_repeats(&b, WHITE, V(&b, TRIPLE_KO_LAST), KO_POSITIONAL));
		expect_play(&b, WHITE, TRIPLE_KO_LAST, rule == KO_SIMPLE ? BOARD_OK : BOARD_SUPERKO);
		if (rule == KO_SIMPLE) {
			/* The cycle goes on under simple ko. */
			ck_assert_int_eq(b.captures[BLACK], 3);
			ck_assert_int_eq(b.captures[WHITE], 3);
			expect_play(&b, BLACK, TRIPLE_KO_MOVES[0], BOARD_OK);
		}
		board_free(&b);
	}
}
END_TEST

/* Art. 6: any move, not only a capture, may not recreate an earlier position. After "sending
 * two, returning one" and a White pass, Black's throw-in at A1 recreates the position after
 * move 1 with White to move: illegal under situational superko. */
START_TEST(test_superko_without_capture)
{
	struct board b;
	from_diagram(&b, 5, KO_SITUATIONAL, SEND_TWO);
	play_seq(&b, "A1 C1 B1 pass");
	ck_assert_int_eq(b.to_move, BLACK);
	ck_assert(board_repeats(&b, BLACK, V(&b, "A1"), KO_SITUATIONAL));
	ck_assert(board_repeats(&b, BLACK, V(&b, "A1"), KO_POSITIONAL));
	expect_play(&b, BLACK, "A1", BOARD_SUPERKO);
	board_free(&b);

	/* Positional: the start position itself is recreated by a stone that captures nothing. */
	from_diagram(&b, 5, KO_POSITIONAL,
		     ". . . . ."
		     ". . . . ."
		     ". . . . ."
		     "O O X . ."
		     "X X . X .");
	board_set_to_move(&b, WHITE);
	play_seq(&b, "C1 B1 pass");
	ck_assert(board_repeats(&b, BLACK, V(&b, "A1"), KO_POSITIONAL));
	expect_play(&b, BLACK, "A1", BOARD_SUPERKO);
	board_free(&b);
}
END_TEST

/* ================================ bad moves ================================ */

START_TEST(test_occupied_and_badpoint)
{
	struct board b;
	struct snap s;
	ck_assert_int_eq(board_init(&b, 9, KO_SITUATIONAL), 0);
	play_seq(&b, "E5 D5");
	expect_play(&b, BLACK, "E5", BOARD_OCCUPIED);
	expect_play(&b, BLACK, "D5", BOARD_OCCUPIED);
	expect_play(&b, WHITE, "E5", BOARD_OCCUPIED);
	take(&b, &s);
	const int bad[] = {-1, 1, b.stride - 1, board_pt(&b, 9, 0), board_pt(&b, 0, 9),
			   board_pt(&b, -1, 4), b.stride * b.stride, BOARD_POINTS_MAX + 5};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		ck_assert_int_eq(board_check(&b, BLACK, bad[i]), BOARD_BADPOINT);
		ck_assert_int_eq(board_play(&b, BLACK, bad[i], NULL, NULL), BOARD_BADPOINT);
		ck_assert(!board_repeats(&b, BLACK, bad[i], KO_POSITIONAL));
		ck_assert_int_eq(board_chain(&b, bad[i], (int[BOARD_POINTS_MAX]){0}), 0);
		ck_assert_int_eq(board_liberties(&b, bad[i]), 0);
	}
	/* Not a colour. */
	ck_assert_int_eq(board_check(&b, EMPTY, V(&b, "A1")), BOARD_BADPOINT);
	ck_assert_int_eq(board_play(&b, BORDER, V(&b, "A1"), NULL, NULL), BOARD_BADPOINT);
	int n = 7;
	ck_assert_int_eq(board_play(&b, EMPTY, V(&b, "A1"), NULL, &n), BOARD_BADPOINT);
	ck_assert_int_eq(n, 0);
	assert_unchanged(&b, &s);
	/* A pass is always legal, even for the player not to move. */
	ck_assert_int_eq(board_check(&b, WHITE, BOARD_PASS), BOARD_OK);
	ck_assert_int_eq(board_play(&b, BLACK, BOARD_PASS, NULL, NULL), BOARD_OK);
	ck_assert_int_eq(b.passes, 1);
	ck_assert_int_eq(board_play(&b, WHITE, BOARD_PASS, NULL, NULL), BOARD_OK);
	ck_assert_int_eq(b.passes, 2);
	ck_assert_uint_eq(board_moves(&b), 4);
	ck_assert_int_eq(b.hist[4].pt, BOARD_PASS);
	ck_assert_int_eq(b.hist[4].color, WHITE);
	ck_assert_int_eq(board_play(&b, BLACK, V(&b, "A1"), NULL, NULL), BOARD_OK);
	ck_assert_int_eq(b.passes, 0);
	board_free(&b);
}
END_TEST

START_TEST(test_captures_counters)
{
	struct board b;
	from_diagram(&b, 7, KO_SIMPLE, KO_7);
	expect_play(&b, BLACK, "D3", BOARD_OK);
	ck_assert_int_eq(b.captures[BLACK], 1);
	expect_play(&b, WHITE, "G7", BOARD_OK);
	expect_play(&b, BLACK, "G6", BOARD_OK);
	expect_play(&b, WHITE, "C3", BOARD_OK);
	ck_assert_int_eq(b.captures[WHITE], 1);
	expect_play(&b, BLACK, "F7", BOARD_OK); /* captures G7 (G6, F7) */
	ck_assert_int_eq(b.captures[BLACK], 2);
	ck_assert_int_eq(b.captures[WHITE], 1);
	ck_assert_int_eq(board_at(&b, V(&b, "G7")), EMPTY);
	/* An illegal move counts nothing. */
	expect_play(&b, WHITE, "G7", BOARD_SUICIDE);
	ck_assert_int_eq(b.captures[WHITE], 1);
	board_free(&b);
}
END_TEST

/* ================================ chains, liberties ================================ */

START_TEST(test_chain_liberties)
{
	struct board b;
	int chain[BOARD_POINTS_MAX];
	from_diagram(&b, 5, KO_SIMPLE,
		     ". . . . ."
		     ". X X X ."
		     ". X . O ."
		     ". X X O ."
		     ". . . O O");
	int n = board_chain(&b, V(&b, "B2"), chain);
	assert_points(&b, chain, n, "B4 C4 D4 B3 B2 C2");
	n = board_chain(&b, V(&b, "D4"), chain);
	ck_assert_int_eq(n, 6);
	/* C3 touches three stones of the chain but is one liberty. */
	ck_assert_int_eq(board_liberties(&b, V(&b, "C4")), 10);
	n = board_chain(&b, V(&b, "E1"), chain);
	assert_points(&b, chain, n, "D3 D2 D1 E1");
	ck_assert_int_eq(board_liberties(&b, V(&b, "D1")), 4); /* C3 E3 E2 C1 */
	ck_assert_int_eq(board_chain(&b, V(&b, "C3"), chain), 0);
	ck_assert_int_eq(board_liberties(&b, V(&b, "C3")), 0);
	ck_assert_int_eq(board_count(&b, BLACK), 6);
	ck_assert_int_eq(board_count(&b, WHITE), 4);
	ck_assert_int_eq(board_count(&b, EMPTY), 15);
	/* Black C3 joins three of its stones and takes one of White's liberties. */
	ck_assert_int_eq(board_play(&b, BLACK, V(&b, "C3"), NULL, NULL), BOARD_OK);
	ck_assert_int_eq(board_liberties(&b, V(&b, "C3")), 9);
	ck_assert_int_eq(board_liberties(&b, V(&b, "D3")), 3);
	n = board_chain(&b, V(&b, "C3"), chain);
	ck_assert_int_eq(n, 7);
	ck_assert(board_selfcheck(&b));
	board_free(&b);
}
END_TEST

/* Merging two large chains and a ring of stones around an empty point. */
START_TEST(test_chain_merge_ring)
{
	struct board b;
	int chain[BOARD_POINTS_MAX];
	ck_assert_int_eq(board_init(&b, 9, KO_SIMPLE), 0);
	play_seq(&b, "C3 pass D3 pass E3 pass C4 pass C5 pass D5 pass E5 pass E4");
	ck_assert_int_eq(board_chain(&b, V(&b, "C3"), chain), 8);
	ck_assert_int_eq(board_liberties(&b, V(&b, "E4")), 13); /* 12 outside + D4 */
	expect_play(&b, WHITE, "D4", BOARD_SUICIDE);
	play_seq(&b, "pass D4");
	ck_assert_int_eq(board_liberties(&b, V(&b, "E4")), 12);
	ck_assert_int_eq(board_liberties(&b, V(&b, "D4")), 12);
	ck_assert_int_eq(board_count(&b, BLACK), 9);
	ck_assert_int_eq(board_chain(&b, V(&b, "D4"), chain), 9);
	ck_assert(board_selfcheck(&b));
	board_free(&b);
}
END_TEST

/* ================================ copy ================================ */

START_TEST(test_copy_independent)
{
	struct board a, c;
	from_diagram(&a, 7, KO_SITUATIONAL, KO_7);
	expect_play(&a, BLACK, "D3", BOARD_OK);
	ck_assert_int_eq(board_copy(&c, &a), 0);
	ck_assert(c.hist != a.hist && c.seen != a.seen);
	/* The copy keeps the history: the retake is still a ko there. */
	ck_assert_int_eq(board_check(&c, WHITE, V(&c, "C3")), BOARD_KO);
	ck_assert_int_eq(board_play(&c, WHITE, V(&c, "A1"), NULL, NULL), BOARD_OK);
	ck_assert_int_eq(board_play(&c, BLACK, V(&c, "A2"), NULL, NULL), BOARD_OK);
	ck_assert_int_eq(board_play(&c, WHITE, V(&c, "C3"), NULL, NULL), BOARD_OK);
	ck_assert_int_eq(board_at(&a, V(&a, "A1")), EMPTY);
	ck_assert_int_eq(board_at(&a, V(&a, "D3")), BLACK);
	ck_assert_uint_eq(board_moves(&a), 1);
	ck_assert_uint_eq(board_moves(&c), 4);
	ck_assert_int_eq(a.captures[WHITE], 0);
	ck_assert_int_eq(board_check(&a, WHITE, V(&a, "C3")), BOARD_KO);
	/* And the other way round. */
	ck_assert_int_eq(board_play(&a, WHITE, V(&a, "G1"), NULL, NULL), BOARD_OK);
	ck_assert_int_eq(board_at(&c, V(&c, "G1")), EMPTY);
	ck_assert(board_selfcheck(&a));
	ck_assert(board_selfcheck(&c));
	/* A long history in the copy (grows its arrays) leaves the original alone. */
	for (int i = 0; i < 300; i++)
		ck_assert_int_eq(board_play(&c, c.to_move, BOARD_PASS, NULL, NULL), BOARD_OK);
	ck_assert_uint_eq(board_moves(&a), 2);
	board_free(&c);
	ck_assert_int_eq(board_play(&a, BLACK, V(&a, "G2"), NULL, NULL), BOARD_OK);
	board_free(&a);
}
END_TEST

/* Superko in a copy taken in the middle of a triple ko. */
START_TEST(test_copy_superko)
{
	struct board a, c;
	from_diagram(&a, 9, KO_SITUATIONAL, TRIPLE_KO);
	for (int i = 0; i < 5; i++)
		expect_play(&a, a.to_move, TRIPLE_KO_MOVES[i], BOARD_OK);
	ck_assert_int_eq(board_copy(&c, &a), 0);
	board_free(&a);
	ck_assert_int_eq(board_check(&c, WHITE, V(&c, TRIPLE_KO_LAST)), BOARD_SUPERKO);
	board_free(&c);
}
END_TEST

static Suite *board_suite(void)
{
	Suite *s = suite_create("board");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, test_init);
	tcase_add_test(tc, test_setup);
	tcase_add_test(tc, test_setup_refused_changes_nothing);
	tcase_add_test(tc, test_capture_single);
	tcase_add_test(tc, test_capture_two_chains);
	tcase_add_test(tc, test_capture_three_chains_and_merge);
	tcase_add_test(tc, test_capture_edge_and_corner);
	tcase_add_test(tc, test_suicide_single);
	tcase_add_test(tc, test_suicide_multi);
	tcase_add_test(tc, test_not_suicide_when_capturing);
	tcase_add_test(tc, test_simple_ko);
	tcase_add_test(tc, test_ko_after_passes);
	tcase_add_test(tc, test_not_ko);
	tcase_add_test(tc, test_positional_vs_situational);
	tcase_add_test(tc, test_positional_vs_situational_pass);
	tcase_add_test(tc, test_triple_ko);
	tcase_add_test(tc, test_superko_without_capture);
	tcase_add_test(tc, test_occupied_and_badpoint);
	tcase_add_test(tc, test_captures_counters);
	tcase_add_test(tc, test_chain_liberties);
	tcase_add_test(tc, test_chain_merge_ring);
	tcase_add_test(tc, test_copy_independent);
	tcase_add_test(tc, test_copy_superko);
	suite_add_tcase(s, tc);

	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(board_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
