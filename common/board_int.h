/* board_int: the board's internals that another module of common/ builds a rule on (today
 * common/capture: the prediction ruleset's removal of the mover's own chains). Not for code
 * outside common/. See board.h for the representation. */
#ifndef TENGEN_BOARD_INT_H
#define TENGEN_BOARD_INT_H

#include "board.h"

/* Append a history entry for a move of `c` at `pt` (the position now on the board, b->to_move
 * after it; its captures are the capture log from the entry's cap0, which the caller sets).
 * Returns 0 or -1 (no memory). */
int board_int_hist_push(struct board *b, int pt, enum color c);
/* Room for `need` entries in the capture log. Returns 0 or -1 (no memory; nothing changed). */
int board_int_caplog_reserve(struct board *b, size_t need);
/* Remove the chain with head h (its neighbours gain the liberties); its points to out (if not
 * NULL). Returns its size. */
int board_int_chain_remove(struct board *b, int h, int *out);
/* The Zobrist key of a stone of `c` at `pt`. */
uint64_t board_int_zobrist(enum color c, int pt);
/* Was the position `after` (a stone array like b->stone, hash h) on the board before, under
 * `rule` (KO_SITUATIONAL: with `next` to move)? Confirmed on real boards, never by hash alone. */
bool board_int_seen(const struct board *b, uint64_t h, const uint8_t *after, enum color next,
		    enum ko_rule rule);

#endif
