/* tournament_cmds: the tournament commands that change things (create, register, join,
 * withdraw, start_round, result, warn): parse the request, call the tournament service
 * (svc/tournaments.h), reply. Errors are replies (the service words them). */
#ifndef TENGEN_TOURNAMENT_CMDS_H
#define TENGEN_TOURNAMENT_CMDS_H

#include "server.h"
#include "tour.h"

void tournament_cmds_create(struct conn *c, const struct proto_request *req);
/* tournament.update {tournament, <settings of tournament.create>} (td): new settings before
 * round 1 is paired (docs/protocol.md). */
void tournament_cmds_update(struct conn *c, const struct proto_request *req);
/* tournament.delete {tournament} (td): an event with no games, and its entrants' records
 * (tournaments_delete) -> {tournament, name, entrants}. */
void tournament_cmds_delete(struct conn *c, const struct proto_request *req);
void tournament_cmds_register(struct conn *c, const struct proto_request *req);
void tournament_cmds_join(struct conn *c, const struct proto_request *req);
void tournament_cmds_withdraw(struct conn *c, const struct proto_request *req);
void tournament_cmds_start_round(struct conn *c, const struct proto_request *req);
void tournament_cmds_result(struct conn *c, const struct proto_request *req);
void tournament_cmds_warn(struct conn *c, const struct proto_request *req);

/* Load the tournament whose id is the request's field `field` into *t (tour_get). Returns 0,
 * or -1 after replying (bad request: the field; not found). */
int tournament_cmds_load(struct conn *c, const struct proto_request *req, const char *field,
			 struct tour *t);
/* Load the request's "tournament" and build its event (tour_event_get). Returns 0, or -1
 * after replying (bad request, not found, internal). */
int tournament_cmds_event(struct conn *c, const struct proto_request *req, struct tour *t,
			  struct ev_build *b);

#endif
