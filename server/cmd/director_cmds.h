/* director_cmds: a director's commands on a tournament's field and pairing, and the profile
 * command of accounts (issue 16): tournament.absent, tournament.pair_edit, player.update, and
 * the entrant form of tournament.register (director_cmds_entrant, called by
 * tournament_cmds_register). They parse and reply; the services are svc/tour_field.c,
 * svc/tour_pairedit.c and svc/profiles.c. Wire: docs/protocol.md. */
#ifndef TENGEN_DIRECTOR_CMDS_H
#define TENGEN_DIRECTOR_CMDS_H

#include "server.h"

void tournament_cmds_absent(struct conn *c, const struct proto_request *req);
void tournament_cmds_pair_edit(struct conn *c, const struct proto_request *req);
void tournament_cmds_unpair(struct conn *c, const struct proto_request *req);
void account_cmds_player_update(struct conn *c, const struct proto_request *req);
/* tournament.register with `entrant` (an object) instead of `player`: parse, register, reply. */
void director_cmds_entrant(struct conn *c, const struct proto_request *req, int64_t tournament);

#endif
