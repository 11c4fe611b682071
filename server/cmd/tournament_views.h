/* tournament_views: the read-only tournament commands (pairings, standings, list, get,
 * export): parse, read the tournament (svc/tour.h, through tournament_cmds_load), reply. Errors are replies. */
#ifndef TENGEN_TOURNAMENT_VIEWS_H
#define TENGEN_TOURNAMENT_VIEWS_H

#include "server.h"

void tournaments_pairings(struct conn *c, const struct proto_request *req);
void tournaments_standings(struct conn *c, const struct proto_request *req);
void tournaments_list(struct conn *c, const struct proto_request *req);
void tournaments_get(struct conn *c, const struct proto_request *req);
void tournaments_export(struct conn *c, const struct proto_request *req);

#endif
