/* board_util: helpers of the unit tests of common/board (test_board.c, test_board_random.c):
 * boards from diagrams, moves by GTP vertex, snapshots showing that a refused move changed
 * nothing, vertex sets. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_util.h"
#include "vertex.h"

/* Set up `b` (size, ko rule) from a diagram: rows top first, 'X' Black, 'O' White, '.' empty;
 * spaces and newlines are ignored. Black is to move. */
void from_diagram(struct board *b, int size, enum ko_rule ko, const char *d)
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
void normalise(const char *d, char *out)
{
	char *o = out;
	for (const char *p = d; *p; p++)
		if (*p != ' ' && !(*p == '\n' && (o == out || o[-1] == '\n')))
			*o++ = *p;
	if (o > out && o[-1] != '\n')
		*o++ = '\n';
	*o = '\0';
}

void assert_diagram(const struct board *b, const char *want)
{
	char got[BOARD_MAX_SIZE * (BOARD_MAX_SIZE + 1) + 1], exp[2048];
	board_diagram(b, got);
	normalise(want, exp);
	ck_assert_msg(strcmp(got, exp) == 0, "board is\n%s\nexpected\n%s", got, exp);
}

/* The point of a GTP vertex on `b`; fails the test if it does not parse. */
int V(const struct board *b, const char *s)
{
	int pt = vertex_parse(b, s);
	ck_assert_msg(pt >= 0, "vertex %s does not parse", s);
	return pt;
}

/* Play a sequence of GTP vertices ("D4 Q16 pass ..."), each by the colour to move; every move
 * must be legal. */
void play_seq(struct board *b, const char *seq)
{
	char buf[4096], *save = NULL;
	snprintf(buf, sizeof buf, "%s", seq);
	for (char *t = strtok_r(buf, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
		enum board_status st = board_play(b, b->to_move, V(b, t), NULL, NULL);
		ck_assert_msg(st == BOARD_OK, "move %s refused: status %d", t, (int)st);
	}
}

void take(const struct board *b, struct snap *s)
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

void assert_unchanged(const struct board *b, const struct snap *s)
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
void expect_play(struct board *b, enum color c, const char *v, enum board_status want)
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

int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The points of a space-separated vertex list, sorted. Returns their count. */
int vertex_set(const struct board *b, const char *list, int *out)
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
void assert_points(const struct board *b, const int *points, int n, const char *list)
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
