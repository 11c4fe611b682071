/* team_cmds: the team-event commands (docs/teams.md, docs/protocol.md "Teams and matches"):
 * team.create and team.lineup (parse, call svc/teams.h, reply), and the team forms of
 * tournament.pairings and tournament.standings (called by cmd/tournament_views.c). */
#ifndef TENGEN_TEAM_CMDS_H
#define TENGEN_TEAM_CMDS_H

#include "server.h"
#include "tour.h"

void team_cmds_create(struct conn *c, const struct proto_request *req);
void team_cmds_lineup(struct conn *c, const struct proto_request *req);

/* Reply to tournament.pairings / tournament.standings for team event t (its event b) and
 * round `round` (standings: 0 = all), then free t and b. */
void team_views_pairings(struct conn *c, const struct proto_request *req, struct tour *t,
			 struct ev_build *b, int round);
void team_views_standings(struct conn *c, const struct proto_request *req, struct tour *t,
			  struct ev_build *b, int round);

#endif
