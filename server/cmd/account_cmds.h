/* account_cmds: register, login, hello, ping, logout and the player queries (players,
 * player): parse, call the services (accounts, ratings, tournaments), reply. Errors are
 * replies. */
#ifndef TENGEN_ACCOUNT_CMDS_H
#define TENGEN_ACCOUNT_CMDS_H

#include "server.h"

/* register and login: parse, start the password work (svc/accounts.h), reply when it is done
 * (a callback accounts calls) or at once with its refusal. */
void account_cmds_register(struct conn *c, const struct proto_request *req);
void account_cmds_login(struct conn *c, const struct proto_request *req);
void account_cmds_hello(struct conn *c, const struct proto_request *req);
void account_cmds_ping(struct conn *c, const struct proto_request *req);
void account_cmds_logout(struct conn *c, const struct proto_request *req);
/* The leaderboard (ratings_leaderboard): `limit` 1..1000 (default SERVER_GAMES_LIMIT), `sort`
 * rating, name, games or last_played. */
void account_cmds_players(struct conn *c, const struct proto_request *req);
/* A player's profile: accounts_player_json, ratings_profile and tournaments_of_player. */
void account_cmds_player(struct conn *c, const struct proto_request *req);

#endif
