/* arena: the arena team match (擂台赛, Chinese Weiqi Rules 2002, Art. 26.6; docs/teams.md).
 * Pure: no I/O, no chance (the nigiri of the first game is the caller's).
 *
 * Two teams, each in an order set before the match (the sizes agreed in advance, not
 * necessarily equal); the first players meet; the winner of each game stays on and meets the
 * next player of the other team; the loser is out. The team whose players are all beaten
 * loses the match. A forfeit win counts as a win. A drawn game or a double loss is handled
 * as the event says:
 *   ARENA_DRAW_BOTH_OUT (default): both players are out (the next of each team come on; if
 *     that beats both teams' last players together, the match is drawn);
 *   ARENA_DRAW_REPLAY: the same two players play again (a double loss: both out, as above).
 * A void game is replayed. Colours (decided): they alternate between the two teams game by
 * game from the first game's, so the player who stays on changes colour each game.
 * At most ARENA_MAX_GAMES games (replays included).
 */
#ifndef TENGEN_ARENA_H
#define TENGEN_ARENA_H

#include <stdbool.h>

#include "event.h"

#define ARENA_MAX_PLAYERS 16
#define ARENA_MAX_GAMES (4 * ARENA_MAX_PLAYERS)

enum arena_err {
	ARENA_OK = 0,
	ARENA_EINVAL = -1,   /* sizes out of 1..ARENA_MAX_PLAYERS, a NULL pointer, bad rule */
	ARENA_EOVER = -2,    /* the match is decided */
	ARENA_ELIMIT = -3,   /* ARENA_MAX_GAMES games played */
	ARENA_EPENDING = -4  /* RESULT_NONE recorded */
};

enum arena_draw {
	ARENA_DRAW_BOTH_OUT = 0,
	ARENA_DRAW_REPLAY
};

struct arena {
	int size[2];            /* players of team 0 and team 1 */
	enum arena_draw draw;
	bool t0_black_first;    /* team 0 has Black in game 1 */
	int next[2];            /* the index (in its team's order) of each team's player on */
	int games;
	int wins[2][ARENA_MAX_PLAYERS]; /* games won by each player */
	int winner;             /* -1 undecided, 0 or 1: the team; 2: drawn (both beaten at once) */
};

/* A new arena match between teams of size0 and size1 players. ARENA_EINVAL. */
int arena_init(struct arena *a, int size0, int size1, enum arena_draw draw, bool t0_black_first);

/* The next game: the players on (indices in their teams' orders) and whether team 0 has
 * Black. ARENA_EOVER when decided, ARENA_EINVAL. */
int arena_next(const struct arena *a, int *player0, int *player1, bool *t0_black);

/* Records the next game's result (from Black's side, colours as arena_next gives them).
 * ARENA_EOVER, ARENA_ELIMIT, ARENA_EPENDING, ARENA_EINVAL; nothing changes on an error. */
int arena_record(struct arena *a, enum event_result r);

/* A short English text for an enum arena_err value. */
const char *arena_strerror(int err);

#endif
