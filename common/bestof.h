/* bestof: best-of-N matches (多局决胜制, Chinese Weiqi Rules 2002, Art. 26.5; docs/teams.md).
 * Pure: no I/O, no chance (the nigiri of the first game is the caller's).
 *
 * Two players a and b play games until one has the majority of N (N = 3, 5 or 7: 2, 3 or 4
 * wins). Colours alternate game by game; the first game's are given (by nigiri). A forfeit
 * win counts as a win. A drawn game (jigo) or a double loss is handled as the event says:
 *   BESTOF_DRAW_REPLAY (default): it does not count; the match goes on (the next game, with
 *     the colours alternating as always, replaces it);
 *   BESTOF_DRAW_HALF: it counts half a win to each (a double loss nothing to either); the
 *     match ends when one side has more than N/2, or after N counted games when one leads;
 *     level after N: further games until one side leads (sudden death).
 * A void game (RESULT_VOID) is replayed under both. At most N + BESTOF_MAX_EXTRA games.
 */
#ifndef TENGEN_BESTOF_H
#define TENGEN_BESTOF_H

#include <stdbool.h>

#include "event.h"

#define BESTOF_MIN_GAMES 3
#define BESTOF_MAX_GAMES 7
#define BESTOF_MAX_EXTRA 8   /* replayed or extra games a match may add to its N */

enum bestof_err {
	BESTOF_OK = 0,
	BESTOF_EINVAL = -1,  /* N not 3, 5 or 7; a NULL pointer; an unknown draw rule or result */
	BESTOF_EOVER = -2,   /* the match is already decided */
	BESTOF_ELIMIT = -3,  /* N + BESTOF_MAX_EXTRA games played without a decision */
	BESTOF_EPENDING = -4 /* RESULT_NONE recorded */
};

enum bestof_draw {
	BESTOF_DRAW_REPLAY = 0,
	BESTOF_DRAW_HALF
};

struct bestof {
	int n;                  /* N */
	enum bestof_draw draw;
	bool a_black_first;     /* a has Black in game 1 */
	int games;              /* games recorded (all of them: draws and voids included) */
	int counted;            /* games that counted (decisive; draws and double losses: HALF) */
	int score_a, score_b;   /* half wins: a win 2, a draw (HALF) 1 */
	int winner;             /* -1 undecided, 0 a, 1 b */
};

/* A new match of n games between a and b. BESTOF_EINVAL. */
int bestof_init(struct bestof *m, int n, enum bestof_draw draw, bool a_black_first);

/* Does a have Black in the next game (game m->games + 1)? Colours alternate from game 1. */
bool bestof_a_black_next(const struct bestof *m);

/* Records the next game's result (from Black's side; the colours are bestof_a_black_next's).
 * BESTOF_EOVER (decided), BESTOF_ELIMIT, BESTOF_EPENDING, BESTOF_EINVAL; nothing changes on
 * an error. */
int bestof_record(struct bestof *m, enum event_result r);

/* The games between players a and b in round `round` of ev (either colour), in array order,
 * as a match: *m is initialised with a_black_first from the first game and each game recorded
 * in turn (RESULT_NONE ones stop the replay). A game whose colours are not the alternation's
 * is BESTOF_EINVAL. Errors as bestof_init and bestof_record. */
int bestof_replay(const struct event *ev, int round, int a, int b, int n,
		enum bestof_draw draw, struct bestof *m);

/* The event with each round's best-of-n matches reduced to one game each, for pairing and
 * standings: for each pair of players of a round (in order of their first game), one game
 * with that first game's colours and the match's result (RESULT_NONE while undecided; the
 * winner's side as a win, a forfeit win when the winner won no game at the board, e.g. the
 * other withdrew after winning game 1). out has room for ev->ngames games; *nout is set.
 * BESTOF_EINVAL (bad event or n) or an error of bestof_replay. */
int bestof_reduce(const struct event *ev, int n, enum bestof_draw draw, struct event_game *out,
		int *nout);

/* A short English text for an enum bestof_err value. */
const char *bestof_strerror(int err);

#endif
