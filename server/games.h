/* games: live games in memory (struct game, one referee each), their commands and events, and
 * their rebuilding from the store after a restart. Every change is written to the store in the
 * iteration's transaction before its reply and events are queued. */
#ifndef TENGEN_GAMES_H
#define TENGEN_GAMES_H

#include "server.h"

/* Load every unfinished game from the store (restart). Returns 0 or -1. */
int games_load(struct server *srv);
void games_free(struct server *srv);
/* A connection closes or logs out: forget it as an observer. */
void games_conn_gone(struct server *srv, struct conn *c);
/* A player logged in on c: send the state of each of the player's live games. */
void games_player_login(struct conn *c);

void games_challenge(struct conn *c, const struct proto_request *req);
void games_accept(struct conn *c, const struct proto_request *req);
void games_decline(struct conn *c, const struct proto_request *req);
void games_play(struct conn *c, const struct proto_request *req);
void games_join(struct conn *c, const struct proto_request *req);
void games_pause(struct conn *c, const struct proto_request *req);
void games_resume(struct conn *c, const struct proto_request *req);
/* Close every game's timer (the server is stopping). */
void games_stop(struct server *srv);
void games_resign(struct conn *c, const struct proto_request *req);
void games_dead(struct conn *c, const struct proto_request *req);
void games_game(struct conn *c, const struct proto_request *req);
void games_games(struct conn *c, const struct proto_request *req);
void games_sgf(struct conn *c, const struct proto_request *req);
void games_observe(struct conn *c, const struct proto_request *req);
void games_unobserve(struct conn *c, const struct proto_request *req);

#endif
