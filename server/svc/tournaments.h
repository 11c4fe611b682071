/* tournaments: events run by a director (Chinese Rules 2002, Art. 25-28; docs/rules.md §4).
 *
 * A tournament's settings, field, byes and withdrawals are one JSON document in the store
 * (tournaments.state); its games are ordinary games with tournament_id and round. Pairing and
 * standings are computed by common/pairing.c and common/standings.c from a struct event built
 * from those two sources (svc/tour.h), so a changed result changes standings and later
 * pairings at once. The read-only commands are in cmd/tournament_views.c.
 */
#ifndef TENGEN_TOURNAMENTS_H
#define TENGEN_TOURNAMENTS_H

#include "server.h"

void tournaments_create(struct conn *c, const struct proto_request *req);
void tournaments_register(struct conn *c, const struct proto_request *req);
void tournaments_join(struct conn *c, const struct proto_request *req);
void tournaments_withdraw(struct conn *c, const struct proto_request *req);
void tournaments_start_round(struct conn *c, const struct proto_request *req);
void tournaments_result(struct conn *c, const struct proto_request *req);
void tournaments_warn(struct conn *c, const struct proto_request *req);
/* The events player `player_id` entered: [{id, name, system, round, place, points, wins,
 * losses}], standings as of now (for the `player` profile). */
json_t *tournaments_of_player(struct server *srv, int64_t player_id);

#endif
