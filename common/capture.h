/* capture: a move under the prediction ruleset's removal rule (seed 000, Art. 4 and 5.4;
 * docs/rules.md "Prediction rules"). Pure.
 *
 * After a stone is placed: if only the opponent has chains without liberties they are removed;
 * if only the mover has (a suicide), the mover's are removed, and suicide is legal; if both
 * have, the mover chooses which side's are removed, and the other side's chains keep their
 * stones (they regain the liberty the removed chain left: Art. 4, note 1). A move on an
 * occupied point is refused. A move whose resulting whole-board position appeared before
 * (whoever was to move: positional) is a repetition (Art. 5.4), which the referee turns into
 * a loss. Works on common/board (its chains, history and repetition look-ups), so a board
 * played through this module is still one that score, sgf and the views read as usual.
 */
#ifndef TENGEN_CAPTURE_H
#define TENGEN_CAPTURE_H

#include "board.h"

/* Which side's chains a move removes when both sides have chains without liberties. */
enum capture_choice { CAPTURE_OPPONENT = 0, CAPTURE_OWN };

/* What a move removed. */
struct capture_move {
	enum board_status status;  /* BOARD_OK, BOARD_OCCUPIED, BOARD_SUPERKO (a repetition),
				    * BOARD_BADPOINT */
	bool opp_dead, own_dead;   /* after the stone was placed, before any removal */
	enum color removed;        /* the colour whose chains were removed, EMPTY for none */
	int captured[BOARD_POINTS_MAX]; /* every stone removed (an own removal lists the placed
					 * stone first) */
	int ncaptured;
};

/* Judge `c` at the point `pt` of `b` (not a pass) with `choice`, without changing anything:
 * out->status and the flags; out->removed names what the move would remove. */
void capture_check(const struct board *b, enum color c, int pt, enum capture_choice choice,
		   struct capture_move *out);

/* Play `c` at `pt` (a point, or BOARD_PASS) under the rule above. On BOARD_OK the move is made
 * and recorded in the board's history (the other colour to move); otherwise nothing changes.
 * Returns out->status. */
enum board_status capture_play(struct board *b, enum color c, int pt, enum capture_choice choice,
			       struct capture_move *out);

/* The comment a record (SGF) gives a move that removed the mover's own chains where both sides
 * had chains without liberties (Art. 4.3), so that a replay (tengen score) takes the same
 * choice: the move node's C[] starts with it. */
#define CAPTURE_SGF_OWN "Removed: own chains (the mover's choice, Art. 4.3)"

/* Names on the wire (docs/protocol.md `remove`): "opponent", "own". Parse returns 0 or -1. */
int capture_choice_parse(const char *s, enum capture_choice *out);
const char *capture_choice_name(enum capture_choice c);

#endif
