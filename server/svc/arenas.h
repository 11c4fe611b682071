/* arenas: the arena match (擂台赛, Chinese Rules 2002, Art. 26.6; docs/teams.md) on the
 * server: a team event of system "arena" between two teams, each in the order given at
 * team.create (`boards` players). The pure rules are common/arena.h. Each
 * tournament.start_round creates the next game (its round number is the game's number) from
 * the results so far: the winner stays on and meets the other team's next player; the team
 * whose players are all beaten loses. Decided: the first team created has Black in game 1,
 * then the colours alternate between the teams; a drawn game puts both players out; a
 * withdrawn player on turn loses without a game. The games are kept in the state document as
 * one-board matches (svc/teams.h).
 */
#ifndef TENGEN_ARENAS_H
#define TENGEN_ARENAS_H

#include "server.h"
#include "tour.h"
#include "tournaments.h"

/* Is t an arena match? */
bool arenas_is_arena(const struct tour *t);

/* Is arena t (its event b) decided: every game has a result and a team's players are all
 * beaten (no game is to come)? */
bool arenas_decided(const struct tour *t, const struct ev_build *b);
/* The next game of arena t (its event b) at start_at (0: now): out->pairings [{match, home,
 * away, games: [{board: 1, game, black, white}], home_player, away_player}] (the players'
 * places in their teams' orders, from 1). Errors: conflict (not two teams, a game without a
 * result, the match decided), internal. */
int arenas_start_game(struct server *srv, struct tour *t, struct ev_build *b, double start_at,
		      struct tournament_round *out, struct proto_error *e);

/* The arena's standings: [{rank, team, match_points, board_points, boards: [board points of
 * each player, in order], sos: 0, won, drawn, lost, byes: 0, players_left}], the winner first;
 * NULL with *e (internal). */
json_t *arenas_standings(const struct tour *t, const struct ev_build *b, struct proto_error *e);

#endif
