/* ratings: Glicko-2 ratings of players (common/rating.c) applied by the server: a rated game
 * that ended with a result on the board re-rates both players in the same transaction as the
 * result; a changed result re-rates everyone from that game on; the leaderboard and profiles. */
#ifndef TENGEN_RATINGS_H
#define TENGEN_RATINGS_H

#include "server.h"

/* Game `game_id` has just ended (its row is written in the open transaction). If it counts
 * for ratings, update both players and their history, and add
 * "ratings": {"B": {"before", "after", "rd", "rank"}, "W": {...}} to `end_event` (game.end).
 * Returns 0 or -1 (store error, logged). */
int ratings_game_ended(struct server *srv, int64_t game_id, json_t *end_event);
/* A result was changed by a director: recompute every rating from the first affected game
 * on, in game order, so ratings end where they would have been. Returns 0 or -1. */
int ratings_recompute(struct server *srv, int64_t from_game_id);

#endif
