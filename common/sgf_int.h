/* sgf_int: what the reader (sgf_read.c) and the record helpers and writer (sgf.c) share.
 * Internal to common/sgf*.c: the interface is sgf.h. */
#ifndef TENGEN_SGF_INT_H
#define TENGEN_SGF_INT_H

#include <stdbool.h>
#include "board.h" /* BOARD_MIN_SIZE, BOARD_MAX_SIZE only */
#include "sgf.h"

/* Is size a board size we read and write (BOARD_MIN_SIZE..BOARD_MAX_SIZE)? */
static inline bool size_ok(int size)
{
	return size >= BOARD_MIN_SIZE && size <= BOARD_MAX_SIZE;
}

/* Is (x, y) on a board of that size (0-based)? */
static inline bool on_board(int size, int x, int y)
{
	return x >= 0 && y >= 0 && x < size && y < size;
}

/* Make room in g->moves for one more move. SGF_OK, SGF_ELIMIT at SGF_MAX_MOVES moves,
 * SGF_ENOMEM. */
int sgf_moves_reserve(struct sgf_game *g);

#endif
