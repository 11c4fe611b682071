/* tournaments: events run by a director (Chinese Rules 2002, Art. 25-28; docs/rules.md §4).
 *
 * A tournament's settings, field, byes and withdrawals are one JSON document in the store
 * (tournaments.state); its games are ordinary games with tournament_id and round. Pairing and
 * standings are computed by common/pairing.c and common/standings.c from a struct event built
 * from those two sources (svc/tour.h), so a changed result changes standings and later
 * pairings at once. The commands (parse, call, reply) are in cmd/tournament_cmds.c and, read-only,
 * cmd/tournament_views.c.
 */
#ifndef TENGEN_TOURNAMENTS_H
#define TENGEN_TOURNAMENTS_H

#include "server.h"
#include "standings.h"

/* The settings of a new tournament, as checked by its command (cmd/tournament_cmds.c): name
 * (1..STORE_TOURNAMENT_NAME_MAX bytes), system (enum event_system, an index of event_system_names, common/event.h),
 * rounds, board size, komi and handicap_komi (whole or half points), handicap_max
 * (0..PAIRING_HANDICAP_CAP, capped here at what the board holds), the clock, rated, rules,
 * lateness_limit_s (seconds), tiebreaks (names standings_tiebreak_parse knows, borrowed),
 * bye points, the McMahon bar and floor (ranks), handicap pairing, double elimination. */
struct tournament_settings {
	const char *name;
	int system, rounds, size, handicap_max, lateness_limit_s, bye, mcmahon_bar, mcmahon_floor;
	double komi, handicap_komi;
	struct proto_time time;
	struct rules rules;
	bool rated, handicap, double_elimination;
	const char *tiebreaks[STANDINGS_MAX_TIEBREAKS];
	int ntiebreaks;
	/* Team events and match forms (docs/teams.md): team_system -1 (an individual event) or
	 * an enum team_system (common/team.h; system is then the one its teams pair by), boards
	 * (players a match), lineup_per_round; individual events: match_games (0, or 3, 5, 7:
	 * best-of-N pairings) and elimination_losses (0, or k: out after k losses). */
	int team_system, boards, match_games, elimination_losses;
	bool lineup_per_round;
};

/* What registering a player gave: the player's stored name, the field's size after. */
struct tournament_entry {
	char player[PROTO_NAME_MAX + 1];
	int players;
};

/* A round started (or, in a knockout, the replays of the current one): its number, the start
 * time (Unix seconds; 0 for replays), replay, pairings [{game, black, white, handicap,
 * handicap_wanted?}] and byes [name] (new references, the caller's). */
struct tournament_round {
	int round;
	double start_at;
	bool replay;
	bool continued; /* best-of-N: the next games of the round's matches (svc/matches.h) */
	json_t *pairings, *byes;
};

/* Every service below returns 0, or -1 with *e filled (the code and message the reply
 * carries: svc_error.h); a failed store write after a change stops the server (panic.h). */

/* Create a tournament directed by `director` (a player's name): *id, *handicap_max (the cap
 * in force). Errors: conflict (the name exists), internal. */
int tournaments_create(struct server *srv, const struct tournament_settings *set,
		       const char *director, int64_t *id, int *handicap_max, struct proto_error *e);
/* Add player `name` to tournament `tournament`'s field before round 1 (again, if withdrawn
 * before the start). Errors: not found (tournament, player), conflict (started, registered,
 * full: EVENT_MAX_PLAYERS). */
int tournaments_register(struct server *srv, int64_t tournament, const char *name,
			 struct tournament_entry *out, struct proto_error *e);
/* Withdraw player `name` (Art. 28): before round 1 it leaves the field, later its unfinished
 * games are forfeits; *after_round: the current round (0: before the start). Errors: not
 * found (tournament, not in the field). */
int tournaments_withdraw(struct server *srv, int64_t tournament, const char *name,
			 int *after_round, struct proto_error *e);
/* Pair and start the next round at start_at (Unix seconds, 0: now), or schedule a knockout's
 * replays; the games' and byes' events go to the players. Errors: not found, conflict (round
 * not finished, too few players, cannot pair), internal. */
int tournaments_start_round(struct server *srv, int64_t tournament, double start_at,
			    struct tournament_round *out, struct proto_error *e);
/* Set game `game`'s result as typed (`given`: ruleset_result_normalise; `reason` or NULL) by
 * director or admin `by`; a casual game's only if `admin`. result: the result stored.
 * Errors: bad request (result, reason), not found, forbidden. */
int tournaments_result(struct server *srv, const char *by, bool admin, int64_t game,
		       const char *given, const char *reason, char result[STORE_RESULT_SIZE],
		       struct proto_error *e);
/* A director's warning to `color` in live game `game` (games_warn). Errors: conflict (not
 * live). */
int tournaments_warn(struct server *srv, int64_t game, enum color color, const char *reason,
		     struct proto_error *e);
/* The events player `player_id` entered: [{id, name, system, round, place, points, wins,
 * losses}], standings as of now (for the `player` profile). */
json_t *tournaments_of_player(struct server *srv, int64_t player_id);

#endif
