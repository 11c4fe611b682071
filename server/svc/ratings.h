/* ratings: Glicko-2 ratings of players (common/rating.c) applied by the server: a rated game
 * that ended with a result on the board re-rates both players in the same transaction as the
 * result; a changed result re-rates everyone from that game on; the leaderboard and profiles.
 *
 * Which games count (issue 7): rated games that ended with a win, loss or draw decided on the
 * board: reason resignation, time, score, warnings, illegal or adjudicated, and a result
 * "B+...", "W+..." or "0". Forfeits by no-show (lateness), double forfeits, cycles (no
 * result), declined challenges and Void results do not move ratings.
 *
 * Rating order: games in (ended_at, id) order. Before each counted game, each player's RD
 * grows for the idle time since their previous counted game (rating_idle, one period per
 * RATING_IDLE_PERIOD_SECONDS, from players.last_rated_at; none before a player's first game),
 * then the game is one Glicko-2 rating period for both (rating_update_handicap; handicap
 * 0 and 1 are even games, more than RATING_HANDICAP_MAX stones count as that many). Each
 * change is a row of rating_history (store_rating_change_add).
 *
 * Errors: functions returning int return 0 or -1 (a store read or rating error, logged),
 * unless said otherwise; a failed store write stops the server (CORE_PANIC, panic.h).
 */
#ifndef TENGEN_RATINGS_H
#define TENGEN_RATINGS_H

#include "server.h"

#define RATINGS_RECENT_GAMES 20     /* games in a profile's recent_games */
#define RATINGS_HISTORY_MAX 1000    /* most recent rating changes in a profile's history */

/* Game `game_id` has just ended (its row is written in the open transaction). If it counts
 * for ratings, update both players and their history, and add
 * "ratings": {"B": {"before", "after", "rd_before", "rd", "rank"}, "W": {...}} to `end_event`
 * (game.end; `rank` is the new rank as rating_to_rank writes it, "5k?" while provisional).
 * If the game already has rating changes (its result was changed), every rating from that
 * game on is recomputed (ratings_recompute) and the game's new changes, if any, are added.
 * end_event may be NULL. Returns 0 or -1 (store error, logged). */
int ratings_game_ended(struct server *srv, int64_t game_id, json_t *end_event);

/* A result was changed by a director: recompute every rating from the first affected game
 * on, in game order, so ratings end where they would have been. Rewinds the history to the
 * game's place in rating order (store_ratings_rewind: the affected players get back the
 * values they had before it) and replays every rated ended game from there. from_game_id 0
 * recomputes everything from the starting values. Cost: every rated game from that place on
 * is read at once and rated (2 player reads, 2 player writes, 2 history rows each), inside
 * the caller's iteration transaction (opened with server_txn if none is): proportional to
 * the games played since the changed one; it blocks the event loop for that long. */
int ratings_recompute(struct server *srv, int64_t from_game_id);

/* Whether game row *g counts for ratings (see the top of this file); if so and score_black
 * is not NULL, *score_black is Black's score (1, 0.5 or 0). */
bool ratings_game_counts(const struct store_game *g, double *score_black);

/* Check a declared rank (rank_parse, within RANK_DECLARED_MIN..RANK_MAX, i.e. 30k..9d) and
 * write its canonical form ("3k", "2d") into out. Returns 0, or -1 (out untouched). */
int ratings_rank_check(const char *rank, char out[STORE_RANK_SIZE]);

/* Player `player_id` declared `rank` (as ratings_rank_check accepts) at registration: store
 * it and start their rating from it (rating_init_rank; also the start of a recompute), in
 * the iteration's transaction. Returns 0, -1 for a player with rated games or no such player,
 * -2 for a rank ratings_rank_check refuses (nothing written either way). */
int ratings_declare_rank(struct server *srv, int64_t player_id, const char *rank);

/* {name, rating, rd, rank} of a player (rank as in ratings_game_ended), for game.start;
 * NULL if there is no such player or on a store error (logged). New reference. */
json_t *ratings_player_brief(struct server *srv, int64_t player_id);

/* The leaderboard: at most `limit` rows {name, rank, rating, rd, games, last_played}
 * (games: rated games; last_played: ended_at of the last game decided on the board, null
 * for none) in `sort` order. NULL on a store error (logged). New reference. */
json_t *ratings_leaderboard(struct server *srv, enum store_leaderboard_sort sort, int limit);

/* Profile parts of player *p, set on `profile`: "games" (rated games) on profile's "player"
 * object if it has one, "history": [{game, at, rating_before, rating, rd_before, rd}] (the
 * last RATINGS_HISTORY_MAX changes, oldest first), "recent_games": [{id, opponent, color,
 * result, reason, rated, ended_at}] (the last RATINGS_RECENT_GAMES ended games, newest
 * first), "tournaments": [] (the caller fills it in place with tournaments_of_player: ratings
 * does not call the tournament module). Returns 0 or -1. */
int ratings_profile(struct server *srv, const struct store_player *p, json_t *profile);

#endif
