/* Unit tests for common/board and common/vertex: handicap placement (GTP 2 §4.1.1), vertices
 * (GTP 2 §2.11), diagrams, and random play checked against a naive reference board (captures,
 * suicide, positional and situational superko). The rules' cases are in test_board.c. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "board.h"
#include "board_util.h"
#include "vertex.h"

/* ================================ handicap ================================ */

static void assert_handicap(int size, int n, const char *list)
{
	struct board b;
	int pts[BOARD_POINTS_MAX];
	ck_assert_int_eq(board_init(&b, size, KO_SIMPLE), 0);
	for (int i = 0; i < BOARD_POINTS_MAX; i++)
		pts[i] = -7;
	int k = board_fixed_handicap(size, n, pts, b.stride);
	ck_assert_msg(k == n, "%dx%d handicap %d: returned %d", size, size, n, k);
	ck_assert_int_eq(pts[n], -7); /* nothing written past n */
	char got[256] = "", v[VERTEX_MAX_LEN];
	for (int i = 0; i < n; i++) {
		strcat(got, vertex_format(&b, pts[i], v));
		strcat(got, " ");
	}
	int want[BOARD_POINTS_MAX], sorted[BOARD_POINTS_MAX];
	int nw = vertex_set(&b, list, want);
	memcpy(sorted, pts, (size_t)n * sizeof *pts);
	qsort(sorted, (size_t)n, sizeof *sorted, cmp_int);
	ck_assert_msg(nw == n, "%s", list);
	for (int i = 0; i < n; i++)
		ck_assert_msg(sorted[i] == want[i], "%dx%d handicap %d: got %s, want %s", size, size, n,
			      got, list);
	/* The placement can be set up. */
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(board_setup(&b, BLACK, pts[i]), 0);
	ck_assert_int_eq(board_count(&b, BLACK), n);
	board_free(&b);
}

START_TEST(test_fixed_handicap_19)
{
	assert_handicap(19, 2, "D4 Q16");
	assert_handicap(19, 3, "D4 Q16 D16"); /* GTP 2 §4.1.1, GNU Go: the third in the upper left */
	assert_handicap(19, 4, "D4 Q16 D16 Q4");
	assert_handicap(19, 5, "D4 Q16 D16 Q4 K10");
	assert_handicap(19, 6, "D4 Q16 D16 Q4 D10 Q10");
	assert_handicap(19, 7, "D4 Q16 D16 Q4 D10 Q10 K10");
	assert_handicap(19, 8, "D4 Q16 D16 Q4 D10 Q10 K4 K16");
	assert_handicap(19, 9, "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10");
}
END_TEST

START_TEST(test_fixed_handicap_first_two)
{
	/* The first two stones, in GTP order, for every n. */
	int pts[9], stride = 21;
	for (int n = 2; n <= 9; n++) {
		ck_assert_int_eq(board_fixed_handicap(19, n, pts, stride), n);
		ck_assert_int_eq(pts[0], (3 + 1) * stride + 3 + 1);   /* D4 */
		ck_assert_int_eq(pts[1], (15 + 1) * stride + 15 + 1); /* Q16 */
	}
}
END_TEST

START_TEST(test_fixed_handicap_9_13)
{
	assert_handicap(9, 2, "C3 G7");
	assert_handicap(9, 3, "C3 G7 C7");
	assert_handicap(9, 4, "C3 G7 C7 G3");
	assert_handicap(9, 5, "C3 G7 C7 G3 E5");
	assert_handicap(9, 9, "C3 G7 C7 G3 C5 G5 E3 E7 E5");
	assert_handicap(13, 2, "D4 K10");
	assert_handicap(13, 4, "D4 K10 D10 K4");
	assert_handicap(13, 5, "D4 K10 D10 K4 G7");
	assert_handicap(13, 8, "D4 K10 D10 K4 D7 K7 G4 G10");
	assert_handicap(25, 9, "D4 W22 D22 W4 D13 W13 N4 N22 N13");
	assert_handicap(10, 4, "C3 H8 C8 H3"); /* even: four at most */
	assert_handicap(7, 4, "C3 E5 C5 E3");
}
END_TEST

START_TEST(test_fixed_handicap_invalid)
{
	int pts[BOARD_POINTS_MAX];
	const int bad[][2] = {{19, 0}, {19, 1}, {19, -1}, {19, 10}, {9, 10}, {10, 5}, {12, 9},
			      {7, 5}, {6, 2}, {5, 2}, {2, 2}};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		pts[0] = -7;
		ck_assert_msg(board_fixed_handicap(bad[i][0], bad[i][1], pts, bad[i][0] + 2) == -1,
			      "%dx%d handicap %d", bad[i][0], bad[i][0], bad[i][1]);
		ck_assert_int_eq(pts[0], -7);
	}
}
END_TEST

/* board_handicap_max (issue 15): 9 on odd sizes from 9x9, 4 on 7x7 and even sizes from 8x8,
 * 1 (no stones) below 7x7; checked against board_fixed_handicap on every size: the maximum
 * has a placement (2 stones and up) and one more stone has none. */
START_TEST(test_handicap_max)
{
	int pts[9];
	ck_assert_int_eq(board_handicap_max(BOARD_MIN_SIZE - 1), -1);
	ck_assert_int_eq(board_handicap_max(BOARD_MAX_SIZE + 1), -1);
	ck_assert_int_eq(board_handicap_max(5), 1);
	ck_assert_int_eq(board_handicap_max(6), 1);
	ck_assert_int_eq(board_handicap_max(7), 4);
	ck_assert_int_eq(board_handicap_max(8), 4);
	ck_assert_int_eq(board_handicap_max(9), 9);
	ck_assert_int_eq(board_handicap_max(10), 4);
	ck_assert_int_eq(board_handicap_max(19), 9);
	for (int size = BOARD_MIN_SIZE; size <= BOARD_MAX_SIZE; size++) {
		int max = board_handicap_max(size);
		ck_assert_msg(max >= 1 && max <= 9, "%dx%d: %d", size, size, max);
		for (int n = 2; n <= max; n++)
			ck_assert_msg(board_fixed_handicap(size, n, pts, size + 2) == n,
				      "%dx%d holds %d but has no placement for %d", size, size, max, n);
		if (max < 9)
			ck_assert_msg(board_fixed_handicap(size, max < 2 ? 2 : max + 1, pts, size + 2) == -1,
				      "%dx%d holds more than %d", size, size, max);
	}
}
END_TEST

/* ================================ vertices ================================ */

START_TEST(test_vertex_parse)
{
	struct board b, b25;
	ck_assert_int_eq(board_init(&b, 19, KO_SIMPLE), 0);
	ck_assert_int_eq(board_init(&b25, 25, KO_SIMPLE), 0);
	ck_assert_int_eq(vertex_parse(&b, "A1"), board_pt(&b, 0, 0));
	ck_assert_int_eq(vertex_parse(&b, "a1"), board_pt(&b, 0, 0));
	ck_assert_int_eq(vertex_parse(&b, "T19"), board_pt(&b, 18, 18));
	ck_assert_int_eq(vertex_parse(&b, "j10"), board_pt(&b, 8, 9));
	ck_assert_int_eq(vertex_parse(&b, "J10"), board_pt(&b, 8, 9));
	ck_assert_int_eq(vertex_parse(&b, "H8"), board_pt(&b, 7, 7));
	ck_assert_int_eq(vertex_parse(&b, "K10"), board_pt(&b, 9, 9));
	ck_assert_int_eq(vertex_parse(&b, "D16"), board_pt(&b, 3, 15));
	ck_assert_int_eq(vertex_parse(&b, "pass"), BOARD_PASS);
	ck_assert_int_eq(vertex_parse(&b, "PASS"), BOARD_PASS);
	ck_assert_int_eq(vertex_parse(&b, "Pass"), BOARD_PASS);
	const char *bad[] = {"I5", "i5", "A0", "A20", "U1", "Z25", "", "A", "1", "A1x", "AA1",
			     " A1", "A1 ", "A-1", "A01", "A100", "A+1", "passs", "pas", "@1", "T20"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ck_assert_msg(vertex_parse(&b, bad[i]) == -1, "'%s' parsed on 19x19", bad[i]);
	ck_assert_int_eq(vertex_parse(&b25, "Z25"), board_pt(&b25, 24, 24));
	ck_assert_int_eq(vertex_parse(&b25, "z25"), board_pt(&b25, 24, 24));
	ck_assert_int_eq(vertex_parse(&b25, "A20"), board_pt(&b25, 0, 19));
	ck_assert_int_eq(vertex_parse(&b25, "Z26"), -1);
	ck_assert_int_eq(vertex_parse(&b25, "I5"), -1);

	int x = -5, y = -5;
	ck_assert_int_eq(vertex_parse_xy(19, "Q4", &x, &y), 1);
	ck_assert_int_eq(x, 15);
	ck_assert_int_eq(y, 3);
	x = y = -5;
	ck_assert_int_eq(vertex_parse_xy(19, "pass", &x, &y), 0);
	ck_assert_int_eq(vertex_parse_xy(19, "I5", &x, &y), -1);
	ck_assert_int_eq(vertex_parse_xy(19, NULL, &x, &y), -1);
	ck_assert_int_eq(x, -5); /* untouched on a pass or an error */
	ck_assert_int_eq(y, -5);
	ck_assert_int_eq(vertex_parse_xy(2, "B2", &x, &y), 1);
	ck_assert_int_eq(vertex_parse_xy(2, "C1", &x, &y), -1);
	ck_assert_int_eq(vertex_parse_xy(2, "A3", &x, &y), -1);
	board_free(&b);
	board_free(&b25);
}
END_TEST

START_TEST(test_vertex_format)
{
	struct board b;
	char out[VERTEX_MAX_LEN];
	ck_assert_int_eq(board_init(&b, 19, KO_SIMPLE), 0);
	ck_assert_str_eq(vertex_format(&b, board_pt(&b, 0, 0), out), "A1");
	ck_assert_str_eq(vertex_format(&b, board_pt(&b, 18, 18), out), "T19");
	ck_assert_str_eq(vertex_format(&b, board_pt(&b, 8, 9), out), "J10");
	ck_assert_str_eq(vertex_format(&b, board_pt(&b, 7, 0), out), "H1");
	ck_assert_str_eq(vertex_format(&b, BOARD_PASS, out), "pass");
	ck_assert_str_eq(vertex_format_xy(25, 24, 24, out), "Z25");
	ck_assert_str_eq(vertex_format_xy(25, 8, 24, out), "J25");
	ck_assert_str_eq(vertex_format_xy(19, 19, 0, out), "pass");
	ck_assert_str_eq(vertex_format_xy(19, -1, -1, out), "pass");
	ck_assert(vertex_format(&b, BOARD_PASS, out) == out);
	board_free(&b);
	/* Every point of every size round-trips, and no two points share a name. */
	for (int size = BOARD_MIN_SIZE; size <= BOARD_MAX_SIZE; size++) {
		ck_assert_int_eq(board_init(&b, size, KO_SIMPLE), 0);
		for (int y = 0; y < size; y++)
			for (int x = 0; x < size; x++) {
				int pt = board_pt(&b, x, y);
				vertex_format(&b, pt, out);
				ck_assert_msg(out[0] != 'I' && strlen(out) <= 3, "%s", out);
				ck_assert_msg(vertex_parse(&b, out) == pt, "%dx%d: %s", size, size, out);
				int px, py;
				ck_assert_int_eq(vertex_parse_xy(size, out, &px, &py), 1);
				ck_assert_int_eq(px, x);
				ck_assert_int_eq(py, y);
			}
		board_free(&b);
	}
}
END_TEST

START_TEST(test_diagram)
{
	struct board b;
	char out[BOARD_MAX_SIZE * (BOARD_MAX_SIZE + 1) + 1];
	ck_assert_int_eq(board_init(&b, 2, KO_SIMPLE), 0);
	board_diagram(&b, out);
	ck_assert_str_eq(out, "..\n..\n");
	play_seq(&b, "A2 B1");
	board_diagram(&b, out);
	ck_assert_str_eq(out, "X.\n.O\n");
	board_free(&b);
	ck_assert_int_eq(board_init(&b, 3, KO_SIMPLE), 0);
	play_seq(&b, "A1 C3 B2");
	board_diagram(&b, out);
	ck_assert_str_eq(out, "..O\n.X.\nX..\n");
	board_free(&b);
	ck_assert_int_eq(board_init(&b, 25, KO_SIMPLE), 0);
	play_seq(&b, "Z25 A1");
	board_diagram(&b, out);
	ck_assert_uint_eq(strlen(out), 25 * 26);
	ck_assert_int_eq(out[24], 'X');
	ck_assert_int_eq(out[24 * 26], 'O');
	ck_assert_int_eq(out[25], '\n');
	board_free(&b);
}
END_TEST

/* ================================ random play ================================ */

/* A naive reference board: flood fills, no incremental state. Index y * n + x. */
struct ref {
	int n;
	uint8_t s[BOARD_MAX_SIZE * BOARD_MAX_SIZE];
	int ko, ko_color; /* simple-ko point (index) or -1, and who may not retake there */
};

static int ref_libs(const struct ref *r, int p, bool *mark)
{
	int stack[BOARD_MAX_SIZE * BOARD_MAX_SIZE], sp = 0, libs = 0;
	bool lib[BOARD_MAX_SIZE * BOARD_MAX_SIZE] = {false};
	uint8_t c = r->s[p];
	memset(mark, 0, (size_t)(r->n * r->n));
	stack[sp++] = p;
	mark[p] = true;
	while (sp) {
		int q = stack[--sp], x = q % r->n, y = q / r->n;
		const int nx[4] = {x - 1, x + 1, x, x}, ny[4] = {y, y, y - 1, y + 1};
		for (int k = 0; k < 4; k++) {
			if (nx[k] < 0 || ny[k] < 0 || nx[k] >= r->n || ny[k] >= r->n)
				continue;
			int m = ny[k] * r->n + nx[k];
			if (r->s[m] == EMPTY && !lib[m]) {
				lib[m] = true;
				libs++;
			} else if (r->s[m] == c && !mark[m]) {
				mark[m] = true;
				stack[sp++] = m;
			}
		}
	}
	return libs;
}

/* Play c at index p (or -1 pass) under simple ko; returns the status, *after set. */
static enum board_status ref_play(const struct ref *r, int c, int p, struct ref *after, int *ncap)
{
	*after = *r;
	*ncap = 0;
	if (p < 0) {
		after->ko = -1;
		return BOARD_OK;
	}
	if (r->s[p] != EMPTY)
		return BOARD_OCCUPIED;
	if (p == r->ko && c == r->ko_color)
		return BOARD_KO;
	bool mark[BOARD_MAX_SIZE * BOARD_MAX_SIZE];
	after->s[p] = (uint8_t)c;
	int x = p % r->n, y = p / r->n, last = -1;
	const int nx[4] = {x - 1, x + 1, x, x}, ny[4] = {y, y, y - 1, y + 1};
	for (int k = 0; k < 4; k++) {
		if (nx[k] < 0 || ny[k] < 0 || nx[k] >= r->n || ny[k] >= r->n)
			continue;
		int m = ny[k] * r->n + nx[k];
		if (after->s[m] == 3 - c && ref_libs(after, m, mark) == 0)
			for (int q = 0; q < r->n * r->n; q++)
				if (mark[q]) {
					after->s[q] = EMPTY;
					(*ncap)++;
					last = q;
				}
	}
	int own = ref_libs(after, p, mark);
	if (own == 0)
		return BOARD_SUICIDE;
	int size = 0;
	for (int q = 0; q < r->n * r->n; q++)
		size += mark[q];
	after->ko = *ncap == 1 && size == 1 && own == 1 ? last : -1;
	after->ko_color = 3 - c;
	return BOARD_OK;
}

static uint64_t ref_hash(const struct ref *r)
{
	uint64_t h = 1469598103934665603ULL;
	for (int i = 0; i < r->n * r->n; i++)
		h = (h ^ r->s[i]) * 1099511628211ULL;
	return h;
}

static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(rng_state >> 33) % n;
}

/* The reference history of one game, to judge superko. */
#define REF_HIST_MAX 4096
struct ref_hist {
	uint64_t hash[REF_HIST_MAX];
	uint8_t to_move[REF_HIST_MAX];
	uint8_t s[REF_HIST_MAX][BOARD_MAX_SIZE * BOARD_MAX_SIZE];
	int n;
};

static bool ref_seen(const struct ref_hist *h, const struct ref *r, int to_move, enum ko_rule rule)
{
	uint64_t key = ref_hash(r);
	for (int i = 0; i < h->n; i++)
		if (h->hash[i] == key && (rule == KO_POSITIONAL || h->to_move[i] == to_move) &&
		    memcmp(h->s[i], r->s, (size_t)(r->n * r->n)) == 0)
			return true;
	return false;
}

static void ref_record(struct ref_hist *h, const struct ref *r, int to_move)
{
	REQUIRE(h->n < REF_HIST_MAX, "reference history full");
	h->hash[h->n] = ref_hash(r);
	h->to_move[h->n] = (uint8_t)to_move;
	memcpy(h->s[h->n], r->s, (size_t)(r->n * r->n));
	h->n++;
}

static void assert_same_stones(const struct board *b, const struct ref *r)
{
	for (int y = 0; y < r->n; y++)
		for (int x = 0; x < r->n; x++)
			REQUIRE(board_at(b, board_pt(b, x, y)) == r->s[y * r->n + x],
				      "%dx%d: point (%d,%d) differs from the reference", r->n, r->n, x, y);
}

/* Random games on `size` under `rule`, checking the engine against the reference after every
 * attempt. strict: every superko verdict must match (the engine must also ban every repeat);
 * otherwise a SUPERKO must at least be a real repeat. Returns the number of legal moves. */
static int random_games(int size, enum ko_rule rule, int moves, uint64_t seed, bool strict)
{
	static struct ref_hist h;
	struct board b;
	struct ref r, after;
	int legal = 0, attempts = 0;
	rng_state = seed;
	while (legal < moves && attempts < moves * 20) {
		REQUIRE(board_init(&b, size, rule) == 0, "board_init");
		memset(&r, 0, sizeof r);
		r.n = size;
		r.ko = -1;
		h.n = 0;
		ref_record(&h, &r, BLACK);
		int game_moves = 0, limit = 20 + (int)rnd((unsigned)(size * size * 3));
		while (b.passes < 2 && game_moves < limit && legal < moves) {
			enum color c = b.to_move;
			int x = (int)rnd((unsigned)size), y = (int)rnd((unsigned)size);
			bool pass = rnd(100) < 4;
			int pt = pass ? BOARD_PASS : board_pt(&b, x, y), ncap_ref = 0;
			attempts++;
			enum board_status want = ref_play(&r, c, pass ? -1 : y * size + x, &after, &ncap_ref);
			bool repeat = !pass && want == BOARD_OK && rule != KO_SIMPLE &&
				      ref_seen(&h, &after, 3 - c, rule);
			if (repeat && strict)
				want = BOARD_SUPERKO;
			struct snap s;
			take(&b, &s);
			int cap[BOARD_POINTS_MAX], ncap = -1;
			enum board_status st = board_play(&b, c, pt, cap, &ncap);
			if (st == BOARD_SUPERKO && !strict) {
				REQUIRE(repeat, "%dx%d move %d: SUPERKO but no repeat", size, size,
					      game_moves);
				want = BOARD_SUPERKO;
			}
			REQUIRE(st == want, "%dx%d rule %d, move %d of a game, (%d,%d)%s by %d: "
				      "status %d, reference %d", size, size, (int)rule, game_moves, x, y,
				      pass ? " pass" : "", (int)c, (int)st, (int)want);
			if (st != BOARD_OK) {
				assert_unchanged(&b, &s);
				REQUIRE(ncap == 0, "ncaptured %d on a refused move", ncap);
				continue;
			}
			r = after;
			ref_record(&h, &r, 3 - c);
			REQUIRE(ncap == ncap_ref, "captured %d, reference %d", ncap, ncap_ref);
			REQUIRE(board_selfcheck(&b), "%dx%d: selfcheck after move %d", size, size,
				      game_moves);
			assert_same_stones(&b, &r);
			REQUIRE(board_count(&b, EMPTY) + board_count(&b, BLACK) + board_count(&b, WHITE) ==
				size * size, "stone counts do not add up");
			legal++;
			game_moves++;
		}
		board_free(&b);
	}
	ck_assert_int_ge(legal, moves);
	return legal;
}

START_TEST(test_random_selfcheck)
{
	static const int sizes[] = {2, 3, 4, 5, 7, 9, 13, 19, 25};
	int total = 0;
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
		for (int rule = KO_SITUATIONAL; rule <= KO_SIMPLE; rule++)
			total += random_games(sizes[i], (enum ko_rule)rule, 3000,
					      0x1234 + (uint64_t)sizes[i] * 7 + (uint64_t)rule, false);
	ck_assert_int_ge(total, 9 * 3 * 3000);
}
END_TEST

/* The engine's superko verdicts against the definition (every repeat is banned). */
START_TEST(test_random_superko_oracle)
{
	static const int sizes[] = {2, 3, 4, 5};
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		random_games(sizes[i], KO_SITUATIONAL, 3000, 0xbeef + (uint64_t)sizes[i], true);
		random_games(sizes[i], KO_POSITIONAL, 3000, 0xfeed + (uint64_t)sizes[i], true);
	}
}
END_TEST

static Suite *board_random_suite(void)
{
	Suite *s = suite_create("board_random");
	TCase *tv = tcase_create("handicap_vertex");
	tcase_add_test(tv, test_handicap_max);
	tcase_add_test(tv, test_fixed_handicap_19);
	tcase_add_test(tv, test_fixed_handicap_first_two);
	tcase_add_test(tv, test_fixed_handicap_9_13);
	tcase_add_test(tv, test_fixed_handicap_invalid);
	tcase_add_test(tv, test_vertex_parse);
	tcase_add_test(tv, test_vertex_format);
	tcase_add_test(tv, test_diagram);
	suite_add_tcase(s, tv);

	TCase *tr = tcase_create("random");
	tcase_set_timeout(tr, 300);
	tcase_add_test(tr, test_random_selfcheck);
	tcase_add_test(tr, test_random_superko_oracle);
	suite_add_tcase(s, tr);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(board_random_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
