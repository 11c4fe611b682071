/* Unit tests for common/board and common/vertex: captures, suicide, ko and superko (Chinese
 * Rules 2002 Art. 3-6, docs/rules.md §1), chains and liberties, handicap placement (GTP 2 §4.1.1),
 * vertices (GTP 2 §2.11), diagrams, and random play checked against a naive reference board. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "board.h"
#include "vertex.h"

/* ================================ helpers ================================ */

/* An assertion for hot loops: Check's ck_assert records every passing check (a write per
 * assertion), far too slow for thousands of random moves. */
#define REQUIRE(cond, ...)                         \
	do {                                       \
		if (!(cond))                       \
			ck_abort_msg(__VA_ARGS__); \
	} while (0)

/* Set up `b` (size, ko rule) from a diagram: rows top first, 'X' Black, 'O' White, '.' empty;
 * spaces and newlines are ignored. Black is to move. */
static void from_diagram(struct board *b, int size, enum ko_rule ko, const char *d)
{
	ck_assert_int_eq(board_init(b, size, ko), 0);
	int x = 0, y = size - 1;
	for (const char *p = d; *p; p++) {
		if (*p == ' ' || *p == '\n')
			continue;
		ck_assert_msg(y >= 0, "diagram has more than %d rows", size);
		if (*p == 'X' || *p == 'O')
			ck_assert_msg(board_setup(b, *p == 'X' ? BLACK : WHITE, board_pt(b, x, y)) == 0,
				      "setup refused at (%d,%d)", x, y);
		else
			ck_assert_msg(*p == '.', "bad diagram character '%c'", *p);
		if (++x == size) {
			x = 0;
			y--;
		}
	}
	ck_assert_msg(x == 0 && y == -1, "diagram is not %dx%d", size, size);
}

/* The diagram `d` (spaces ignored, rows separated by newlines) in board_diagram's form. */
static void normalise(const char *d, char *out)
{
	char *o = out;
	for (const char *p = d; *p; p++)
		if (*p != ' ' && !(*p == '\n' && (o == out || o[-1] == '\n')))
			*o++ = *p;
	if (o > out && o[-1] != '\n')
		*o++ = '\n';
	*o = '\0';
}

static void assert_diagram(const struct board *b, const char *want)
{
	char got[BOARD_MAX_SIZE * (BOARD_MAX_SIZE + 1) + 1], exp[2048];
	board_diagram(b, got);
	normalise(want, exp);
	ck_assert_msg(strcmp(got, exp) == 0, "board is\n%s\nexpected\n%s", got, exp);
}

/* The point of a GTP vertex on `b`; fails the test if it does not parse. */
static int V(const struct board *b, const char *s)
{
	int pt = vertex_parse(b, s);
	ck_assert_msg(pt >= 0, "vertex %s does not parse", s);
	return pt;
}

/* Play a sequence of GTP vertices ("D4 Q16 pass ..."), each by the colour to move; every move
 * must be legal. */
static void play_seq(struct board *b, const char *seq)
{
	char buf[4096], *save = NULL;
	snprintf(buf, sizeof buf, "%s", seq);
	for (char *t = strtok_r(buf, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
		enum board_status st = board_play(b, b->to_move, V(b, t), NULL, NULL);
		ck_assert_msg(st == BOARD_OK, "move %s refused: status %d", t, (int)st);
	}
}

/* A snapshot to show that a refused move changed nothing. */
struct snap {
	char diagram[BOARD_MAX_SIZE * (BOARD_MAX_SIZE + 1) + 1];
	uint64_t hash;
	size_t nhist;
	enum color to_move;
	int ko_point, captures_b, captures_w, passes;
};

static void take(const struct board *b, struct snap *s)
{
	board_diagram(b, s->diagram);
	s->hash = b->hash;
	s->nhist = b->nhist;
	s->to_move = b->to_move;
	s->ko_point = b->ko_point;
	s->captures_b = b->captures[BLACK];
	s->captures_w = b->captures[WHITE];
	s->passes = b->passes;
}

static void assert_unchanged(const struct board *b, const struct snap *s)
{
	struct snap now;
	take(b, &now);
	REQUIRE(strcmp(now.diagram, s->diagram) == 0, "board changed:\n%s\nwas\n%s", now.diagram,
		s->diagram);
	REQUIRE(now.hash == s->hash, "hash changed");
	REQUIRE(now.nhist == s->nhist, "history changed: %zu, was %zu", now.nhist, s->nhist);
	REQUIRE(now.to_move == s->to_move, "to_move changed");
	REQUIRE(now.ko_point == s->ko_point, "ko point changed");
	REQUIRE(now.captures_b == s->captures_b && now.captures_w == s->captures_w,
		"captures changed");
	REQUIRE(now.passes == s->passes, "passes changed");
	REQUIRE(board_selfcheck(b), "selfcheck failed");
}

/* Play `c` at vertex `v` expecting `want`; an illegal move must change nothing. */
static void expect_play(struct board *b, enum color c, const char *v, enum board_status want)
{
	struct snap s;
	take(b, &s);
	int pt = V(b, v);
	ck_assert_int_eq(board_check(b, c, pt), want);
	enum board_status st = board_play(b, c, pt, NULL, NULL);
	ck_assert_msg(st == want, "%s: got status %d, want %d", v, (int)st, (int)want);
	if (want != BOARD_OK)
		assert_unchanged(b, &s);
	ck_assert(board_selfcheck(b));
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The points of a space-separated vertex list, sorted. Returns their count. */
static int vertex_set(const struct board *b, const char *list, int *out)
{
	char buf[1024], *save = NULL;
	int n = 0;
	snprintf(buf, sizeof buf, "%s", list);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		out[n++] = V(b, t);
	qsort(out, (size_t)n, sizeof *out, cmp_int);
	return n;
}

/* points[0..n-1] (any order) must be exactly the vertices of `list`. */
static void assert_points(const struct board *b, const int *points, int n, const char *list)
{
	int want[BOARD_POINTS_MAX], got[BOARD_POINTS_MAX];
	int nw = vertex_set(b, list, want);
	memcpy(got, points, (size_t)n * sizeof *got);
	qsort(got, (size_t)n, sizeof *got, cmp_int);
	ck_assert_msg(n == nw, "got %d points, want %d (%s)", n, nw, list);
	for (int i = 0; i < n; i++)
		ck_assert_msg(got[i] == want[i], "point set differs from %s", list);
}

/* ================================ init, setup ================================ */

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

/* ================================ main ================================ */

static Suite *board_suite(void)
{
	Suite *s = suite_create("board");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, test_init);
	tcase_add_test(tc, test_handicap_max);
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

	TCase *tv = tcase_create("handicap_vertex");
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
	SRunner *sr = srunner_create(board_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
