/* board_util: helpers of the unit tests of common/board and common/score (test_board.c,
 * test_board_random.c, test_score.c). */
#ifndef TENGEN_TESTS_BOARD_UTIL_H
#define TENGEN_TESTS_BOARD_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include "board.h"

/* An assertion for hot loops: Check's ck_assert records every passing check (a write per
 * assertion), far too slow for thousands of random moves. */
#define REQUIRE(cond, ...)                         \
	do {                                       \
		if (!(cond))                       \
			ck_abort_msg(__VA_ARGS__); \
	} while (0)

/* A snapshot to show that a refused move changed nothing. */
struct snap {
	char diagram[BOARD_MAX_SIZE * (BOARD_MAX_SIZE + 1) + 1];
	uint64_t hash;
	size_t nhist;
	enum color to_move;
	int ko_point, captures_b, captures_w, passes;
};

/* Set up `b` (size, ko rule) from a diagram: rows top first, 'X' Black, 'O' White, '.' empty;
 * spaces and newlines are ignored. Black is to move. */
void from_diagram(struct board *b, int size, enum ko_rule ko, const char *d);

/* The diagram `d` (spaces ignored, rows separated by newlines) in board_diagram's form. */
void normalise(const char *d, char *out);

/* The board must show the diagram `want` (as from_diagram reads it). */
void assert_diagram(const struct board *b, const char *want);

/* The point of a GTP vertex on `b`; fails the test if it does not parse. */
int V(const struct board *b, const char *s);

/* Play a sequence of GTP vertices ("D4 Q16 pass ..."), each by the colour to move; every move
 * must be legal. */
void play_seq(struct board *b, const char *seq);

/* Take a snapshot of b. */
void take(const struct board *b, struct snap *s);

/* b must be as in the snapshot s, and pass board_selfcheck. */
void assert_unchanged(const struct board *b, const struct snap *s);

/* Play `c` at vertex `v` expecting `want`; an illegal move must change nothing. */
void expect_play(struct board *b, enum color c, const char *v, enum board_status want);

/* qsort order of ints. */
int cmp_int(const void *a, const void *b);

/* The points of a space-separated vertex list, sorted. Returns their count. */
int vertex_set(const struct board *b, const char *list, int *out);

/* points[0..n-1] (any order) must be exactly the vertices of `list`. */
void assert_points(const struct board *b, const int *points, int n, const char *list);

#endif
