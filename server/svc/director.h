/* director: a tournament director's actions on games (docs/rules.md §3, §4), above the game
 * layer because a changed result moves ratings (svc/ratings.h). They keep the games_ names they had
 * before the game code was split into layers (issue 14; svc/tournaments.c calls them). */
#ifndef TENGEN_DIRECTOR_H
#define TENGEN_DIRECTOR_H

#include "games.h"

/* Whether a result set by games_set_result moves ratings. */
enum games_rating {
	GAMES_RATING_KEEP = 0, /* as the game is */
	GAMES_UNRATED,         /* a forfeit without play (withdrawal, absence, a director's B+F) */
	GAMES_RATED            /* a played game of a rated event: rated again if a forfeit was not */
};

/* A director sets or overrides game `id`'s result (SGF form, e.g. "B+R", "0", "Void") with a
 * reason (default "adjudicated"): a live game ends now; an ended game's result is replaced and
 * ratings are recomputed (from it on, if it counted before or counts now). `rating`: see
 * enum games_rating. Returns 0, -1 (no such game), -2 (not a result of the game's ruleset in its
 * stored form, ruleset_result_check: give ruleset_result_normalise's form) or -3 (not a reason a director may give: none of
 * referee_reason_name's but "declined", or "double_forfeit" with a result other than Void,
 * docs/rules.md §4) or -4 (a margin an area count cannot give with the game's komi:
 * ruleset_margin_fits) or -5 (a margin larger than any count on the game's board gives:
 * ruleset_margin_possible) or -6 (a reason the result contradicts, W+R with score:
 * referee_reason_fits). The reason is read in any case (referee_reason_parse). */
int games_set_result(struct server *srv, int64_t id, const char *result, const char *reason,
		     enum games_rating rating);
/* The tournament game `id` belongs to: *tournament_id, 0 for a casual game (a director may set
 * only a tournament's results; an admin any, docs/protocol.md tournament.result), and its
 * *round (0 for a casual game); and, unless `result` is NULL, its result as it stands (""
 * for none) and, unless `reason` is NULL, its reason ("" for none); *called_off: it was called
 * off, never played (tour_called_off: its round taken back, a challenge declined or lapsed).
 * Returns 0, or -1 (no such game). */
int games_tournament_of(struct server *srv, int64_t id, int64_t *tournament_id, int *round,
			char result[STORE_RESULT_SIZE], char reason[STORE_REASON_SIZE],
			bool *called_off);
/* Call off tournament game `id` before it began (games_is_unstarted): it ends without a result,
 * reason `declined` (a game called off before play; no event of its own: the caller tells
 * the players). Returns 0, or -1 when it is not live or has begun. */
int games_call_off(struct server *srv, int64_t id);
/* A director warns `c` in live game `id` (Art. 23; docs/rules.md §3: a second warning loses).
 * Returns 0, -1 (no such live game). */
int games_warn(struct server *srv, int64_t id, enum color c, const char *reason);
/* Is game `id` a live game still `scheduled` (not begun: no move, no clock, no result)? A
 * director may change its pairing then (games_repair). */
bool games_is_unstarted(struct server *srv, int64_t id);
/* A director changes scheduled game `id` (games_is_unstarted): its players (black_id,
 * white_id), its handicap (0, 1 or 2-9: games_schedule_check) and komi (points; ignored
 * under the prediction ruleset, whose bar replaces it: docs/rules.md §5, Art. 5.3). The board is
 * set up again for the handicap, presence is cleared, the row written in the iteration's
 * transaction, and game.start goes to both players as at the round's start. Returns 0, -1 (not
 * a scheduled live game), -2 (a handicap the board refuses, or a player not in the store:
 * nothing changed). */
int games_repair(struct server *srv, int64_t id, int64_t black_id, int64_t white_id, int handicap,
		 double komi);

#endif
