/* teams: team events on the server (Chinese Rules 2002, Art. 25.2, 26, 27.2, 28.4;
 * docs/teams.md). The pure rules are common/team.h; this keeps a team event's teams, lineups
 * and matches in the tournament's state document (svc/tour.h) and its board games as ordinary
 * tournament games:
 *   state.teams:   [{name, players:[index into state.players…] (board order, then reserves),
 *                    boards}]  (teams are seeded in the order they are created)
 *   state.lineups: [{team, round, players:[index…]}]  (lineup "per_round"; never shown)
 *   state.matches: [{round, home, away, games:[game id, or 0 for a board forfeited without a
 *                    game], forfeits:[0 none, 1 home, 2 away, 3 both]}]  (home = White on
 *                    boards 1, 3, …)
 *   state.team_byes: [{round, team}]
 * Every service returns 0, or -1 with *e filled (svc_error.h).
 */
#ifndef TENGEN_TEAMS_H
#define TENGEN_TEAMS_H

#include "server.h"
#include "tour.h"
#include "tournaments.h"

/* Is t a team event (its system one of common/team.h's team_system_names)? */
bool teams_is_team(const struct tour *t);

/* The rounds a team event (`system`, its state document `state`) plays, from its teams: a
 * team round robin the Berger table's rounds of its teams (every pair of teams meets once,
 * Chinese Rules 2002, Art. 25.2); a team knockout ceil(log2(teams)), the rounds until one team
 * is left; a team Swiss its `rounds` setting (default TOURNAMENT_ROUNDS_DEFAULT; also with
 * fewer than two teams). -1 for the arena (its games, not rounds, decide: docs/teams.md) and
 * for a system that is not a team system. */
int teams_rounds_planned(const char *system, json_t *state);

/* Create team `name` in tournament `tournament` with `players` (exactly the event's boards,
 * board order) and `reserves` (NULL or up to TEAM_MAX_RESERVES), all registered players'
 * names; they join the field. *team: the team's number (1-based). Errors: bad request
 * (counts, a name twice), not found (tournament, player), conflict (not a team event,
 * started, a team of that name, a player in another team, full). */
int teams_create(struct server *srv, int64_t tournament, const char *name, const json_t *players,
		 const json_t *reserves, int *team, struct proto_error *e);

/* Name team `team`'s players (`team`: its name, a string, or its number as teams_create gave
 * it, an integer) for round `round` (lineup "per_round"): `players` is `boards`
 * names of the team's players and reserves, in board order. `by` must be a director (td) or
 * the team's captain (its first player). Sealed: no view shows it; it is used when the round
 * starts. Errors: bad request, not found, forbidden, conflict (fixed lineups, the round
 * started). */
int teams_lineup(struct server *srv, int64_t tournament, const char *by, bool td,
		 const json_t *team, int round, const json_t *players, struct proto_error *e);

/* Pair and start the next round of team event t (b: its event): pairs the teams
 * (common/team.h), creates each match's board games at start_at (Unix seconds; 0: now), a
 * board without a player is a forfeit without a game. out->pairings: [{match, home, away,
 * games:[{board, game, black, white}]}], out->byes: [team name]. Errors: conflict (round not
 * finished, too few teams, cannot pair), internal. */
int teams_start_round(struct server *srv, struct tour *t, struct ev_build *b, double start_at,
		      struct tournament_round *out, struct proto_error *e);

/* Is team event t (its event b) over: round 1 paired, every game with a result, and no round
 * to pair after the current one (teams_start_round would answer "the event is over"; an
 * arena: decided)? */
bool teams_over(const struct tour *t, const struct ev_build *b);
/* The matches of round `round` of t as pairings (with each board game's result, when it has
 * one): a new array. */
json_t *teams_pairings(const struct tour *t, const struct ev_build *b, int round);
/* The byes of round `round`: [team name], a new array. */
json_t *teams_byes(const struct tour *t, int round);

/* The team standings after round `round` (0: all): [{rank, team, match_points, board_points,
 * boards:[…], sos, won, drawn, lost, byes}] in Art. 27.2's order, a new array; NULL with *e
 * on an error (internal). */
json_t *teams_standings(const struct tour *t, const struct ev_build *b, int round,
			struct proto_error *e);

/* Team event t's teams for tournament.get: [{team, name, players: [name…] (board order),
 * reserves: [name…]}], a new array (empty for an individual event). */
json_t *teams_list(const struct tour *t);

/* Before an export of team event t (h9, CSV, JSON carry the individual games, as the EGD
 * takes them): players who played no game (reserves never used) are left out of b, as if
 * they had withdrawn before the start. Does nothing to an individual event. */
void teams_export_prepare(const struct tour *t, struct ev_build *b);

#endif
