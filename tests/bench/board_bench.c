/* board_bench: how fast common/board plays legal moves.
 *
 * Plays random legal games on 19x19 under situational superko (every move checked by
 * board_play, repetitions included) and prints the legal moves played per second of CPU time
 * on one core:
 *   board_bench: 19x19 random games: N games, M moves, X moves/s (superko situational)
 *
 * A move is a random empty point that does not fill one of the mover's own one-point eyes
 * (so games end); up to BENCH_TRIES random points are tried with board_play, then every
 * empty point from a random start; a side with no legal move passes. A game ends after two
 * passes or BENCH_MOVE_CAP moves.
 *
 * Usage: board_bench [--games N] [--seed S] [--size N] [--ko situational|positional|simple]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "board.h"

#define BENCH_DEFAULT_GAMES 2000
#define BENCH_DEFAULT_SEED 1
#define BENCH_DEFAULT_SIZE 19
#define BENCH_TRIES 8                              /* random tries before a full scan */
#define BENCH_MOVE_CAP(size) (3 * (size) * (size)) /* moves per game at most */

static uint64_t rng_state;

/* xorshift64*: cheap and good enough to pick points. */
static uint32_t rnd32(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545f4914f6cdd1dULL) >> 32);
}

static uint32_t rnd_below(uint32_t n) { return (uint32_t)(((uint64_t)rnd32() * n) >> 32); }

/* The empty points of the board, for picking one at random in O(1). */
struct empties {
	int pt[BOARD_POINTS_MAX];
	int idx[BOARD_POINTS_MAX]; /* position of a point in pt[], or -1 */
	int n;
};

static void empties_add(struct empties *e, int pt)
{
	e->idx[pt] = e->n;
	e->pt[e->n++] = pt;
}

static void empties_del(struct empties *e, int pt)
{
	int i = e->idx[pt], last = e->pt[--e->n];
	e->pt[i] = last;
	e->idx[last] = i;
	e->idx[pt] = -1;
}

/* Would c at pt fill one of c's own one-point eyes (all four neighbours c or off the board)? */
static int own_eye(const struct board *b, enum color c, int pt)
{
	const int nb[4] = {pt - 1, pt + 1, pt - b->stride, pt + b->stride};
	for (int k = 0; k < 4; k++) {
		enum color s = board_at(b, nb[k]);
		if (s != c && s != BORDER)
			return 0;
	}
	return 1;
}

static int try_play(struct board *b, struct empties *e, enum color c, int pt, int *captured)
{
	int ncap = 0;
	if (own_eye(b, c, pt) || board_play(b, c, pt, captured, &ncap) != BOARD_OK)
		return 0;
	empties_del(e, pt);
	for (int i = 0; i < ncap; i++)
		empties_add(e, captured[i]);
	return 1;
}

/* Play one random game; returns the number of stones played (passes not counted). */
static long play_game(int size, enum ko_rule ko, long *passes)
{
	static struct board b;
	static struct empties e;
	static int captured[BOARD_POINTS_MAX];
	long moves = 0;
	if (board_init(&b, size, ko) < 0) {
		fprintf(stderr, "board_bench: board_init failed\n");
		exit(1);
	}
	e.n = 0;
	for (int p = 0; p < BOARD_POINTS_MAX; p++)
		e.idx[p] = -1;
	for (int y = 0; y < size; y++)
		for (int x = 0; x < size; x++)
			empties_add(&e, board_pt(&b, x, y));
	for (int m = 0; m < BENCH_MOVE_CAP(size) && b.passes < 2; m++) {
		enum color c = b.to_move;
		int played = 0;
		for (int t = 0; t < BENCH_TRIES && !played && e.n > 0; t++)
			played = try_play(&b, &e, c, e.pt[rnd_below((uint32_t)e.n)], captured);
		if (!played && e.n > 0) {
			/* Every empty point once, from a random start (the list changes only on success). */
			int n = e.n, start = (int)rnd_below((uint32_t)n);
			for (int i = 0; i < n && !played; i++)
				played = try_play(&b, &e, c, e.pt[(start + i) % n], captured);
		}
		if (played) {
			moves++;
		} else {
			board_play(&b, c, BOARD_PASS, NULL, NULL);
			(*passes)++;
		}
	}
	board_free(&b);
	return moves;
}

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int usage(void)
{
	fprintf(stderr, "usage: board_bench [--games N] [--seed S] [--size %d..%d] "
			"[--ko situational|positional|simple]\n", BOARD_MIN_SIZE, BOARD_MAX_SIZE);
	return 2;
}

int main(int argc, char **argv)
{
	long games = BENCH_DEFAULT_GAMES;
	unsigned long long seed = BENCH_DEFAULT_SEED;
	int size = BENCH_DEFAULT_SIZE;
	enum ko_rule ko = KO_SITUATIONAL;
	const char *ko_name = "situational";
	for (int i = 1; i < argc; i++) {
		char *end;
		if (i + 1 >= argc)
			return usage();
		if (strcmp(argv[i], "--games") == 0) {
			games = strtol(argv[++i], &end, 10);
			if (*end || games < 1)
				return usage();
		} else if (strcmp(argv[i], "--seed") == 0) {
			seed = strtoull(argv[++i], &end, 10);
			if (*end)
				return usage();
		} else if (strcmp(argv[i], "--size") == 0) {
			size = (int)strtol(argv[++i], &end, 10);
			if (*end || size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE)
				return usage();
		} else if (strcmp(argv[i], "--ko") == 0) {
			ko_name = argv[++i];
			if (strcmp(ko_name, "situational") == 0)
				ko = KO_SITUATIONAL;
			else if (strcmp(ko_name, "positional") == 0)
				ko = KO_POSITIONAL;
			else if (strcmp(ko_name, "simple") == 0)
				ko = KO_SIMPLE;
			else
				return usage();
		} else {
			return usage();
		}
	}
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 0x74656e67656eULL;
	if (!rng_state)
		rng_state = 1;
	long moves = 0, passes = 0;
	double c0 = cpu_seconds(), w0 = wall_seconds();
	for (long g = 0; g < games; g++)
		moves += play_game(size, ko, &passes);
	double cpu = cpu_seconds() - c0, wall = wall_seconds() - w0;
	if (cpu <= 0)
		cpu = 1e-9;
	printf("board_bench: %dx%d random games: %ld games, %ld moves, %.0f moves/s (superko %s)\n", size,
	       size, games, moves, (double)moves / cpu, ko_name);
	printf("board_bench: %.2f s CPU, %.2f s wall, %.1f moves and %.1f passes per game, seed %llu\n", cpu,
	       wall, (double)moves / (double)games, (double)passes / (double)games, seed);
	return 0;
}
