/* fuzz_board: a sequence of moves (and setup stones) against the rules engine (common/board),
 * with its invariants checked after each step:
 *   - board_selfcheck: chains and liberties agree with a from-scratch recount;
 *   - board_check predicts board_play's verdict exactly;
 *   - an illegal move changes nothing (stones, hash, history, colour to move);
 *   - a legal stone lands on its point with at least one liberty, the captured stones are
 *     gone and are the opponent's, the stone count changes by 1 - captures, the other colour
 *     is to move; a pass changes no stone;
 *   - a deep copy (board_copy) is an equal board.
 *
 * Input: byte 0 picks the size (2..25), byte 1 the ko rule; then steps of 3 bytes:
 * op (bit 0: colour, bit 1: a setup stone instead of a move), then a little-endian point index
 * (mod N*N+1; N*N is a pass). Any crash or failed invariant aborts (libFuzzer reports it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "board.h"

#define FUZZ_BOARD_MAX_STEPS 2000 /* steps per input: keeps each run fast */

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

#define REQUIRE(cond)                                                                     \
	do {                                                                              \
		if (!(cond)) {                                                            \
			fprintf(stderr, "fuzz_board: invariant failed: %s (line %d)\n", #cond, \
				__LINE__);                                                \
			abort();                                                          \
		}                                                                         \
	} while (0)

static void check_copy(const struct board *b)
{
	struct board c;
	REQUIRE(board_copy(&c, b) == 0);
	REQUIRE(c.size == b->size && c.hash == b->hash && c.to_move == b->to_move);
	REQUIRE(memcmp(c.stone, b->stone, sizeof c.stone) == 0);
	REQUIRE(board_moves(&c) == board_moves(b));
	REQUIRE(board_selfcheck(&c));
	board_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	if (n < 2)
		return 0;
	int size = BOARD_MIN_SIZE + d[0] % (BOARD_MAX_SIZE - BOARD_MIN_SIZE + 1);
	enum ko_rule ko = (enum ko_rule)(d[1] % 3);
	static struct board b; /* large: keep it off the stack */
	REQUIRE(board_init(&b, size, ko) == 0);
	REQUIRE(board_selfcheck(&b));
	static uint8_t before[BOARD_POINTS_MAX];
	static int captured[BOARD_POINTS_MAX];
	int steps = 0;
	for (size_t i = 2; i + 3 <= n && steps < FUZZ_BOARD_MAX_STEPS; i += 3, steps++) {
		enum color c = (d[i] & 1) ? WHITE : BLACK;
		bool setup = d[i] & 2;
		int idx = (d[i + 1] | d[i + 2] << 8) % (size * size + 1);
		int pt = idx == size * size ? BOARD_PASS : board_pt(&b, idx % size, idx / size);
		memcpy(before, b.stone, sizeof before);
		uint64_t hash = b.hash;
		size_t moves = board_moves(&b);
		enum color to_move = b.to_move;
		int black = board_count(&b, BLACK), white = board_count(&b, WHITE);
		if (setup) {
			bool could = pt != BOARD_PASS && moves == 0 && b.stone[pt] == EMPTY;
			int r = board_setup(&b, c, pt);
			if (r != 0) {
				REQUIRE(memcmp(before, b.stone, sizeof before) == 0 && b.hash == hash);
			} else {
				REQUIRE(could);
				REQUIRE(b.stone[pt] == c);
				REQUIRE(board_liberties(&b, pt) > 0);
			}
			REQUIRE(board_selfcheck(&b));
			continue;
		}
		enum board_status predicted = board_check(&b, c, pt);
		int ncap = -1;
		enum board_status st = board_play(&b, c, pt, captured, &ncap);
		REQUIRE(st == predicted);
		REQUIRE(board_selfcheck(&b));
		if (st != BOARD_OK) {
			REQUIRE(pt != BOARD_PASS);
			REQUIRE(memcmp(before, b.stone, sizeof before) == 0);
			REQUIRE(b.hash == hash && board_moves(&b) == moves && b.to_move == to_move);
			if (st == BOARD_OCCUPIED)
				REQUIRE(before[pt] != EMPTY);
			continue;
		}
		REQUIRE(board_moves(&b) == moves + 1);
		REQUIRE(b.to_move == color_other(c));
		if (pt == BOARD_PASS) {
			REQUIRE(memcmp(before, b.stone, sizeof before) == 0 && b.hash == hash);
			continue;
		}
		REQUIRE(before[pt] == EMPTY && b.stone[pt] == c);
		REQUIRE(board_liberties(&b, pt) > 0);
		REQUIRE(ncap >= 0);
		for (int k = 0; k < ncap; k++) {
			REQUIRE(before[captured[k]] == color_other(c));
			REQUIRE(b.stone[captured[k]] == EMPTY);
		}
		int nb = board_count(&b, BLACK), nw = board_count(&b, WHITE);
		if (c == BLACK)
			REQUIRE(nb == black + 1 && nw == white - ncap);
		else
			REQUIRE(nw == white + 1 && nb == black - ncap);
		if (steps % 64 == 0)
			check_copy(&b);
	}
	check_copy(&b);
	board_free(&b);
	return 0;
}
