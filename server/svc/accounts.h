/* accounts: register and login (the session commands without password work and the player
 * queries are in cmd/account_cmds.c).
 * Passwords are hashed with libsodium's crypto_pwhash_str (Argon2id) on libuv's thread pool,
 * so hashing never stalls the loop; the connection's later requests wait for it (replies stay
 * in request order). Failed logins are rate-limited per name and per address. */
#ifndef TENGEN_ACCOUNTS_H
#define TENGEN_ACCOUNTS_H

#include "server.h"

void accounts_register(struct conn *c, const struct proto_request *req);
void accounts_login(struct conn *c, const struct proto_request *req);
/* The public view of a player: {id, name, role, rating, rd, rank}. */
json_t *accounts_player_json(const struct store_player *p);
/* Hash a password at the server's cost (blocking; for `tengend` tools). Returns 0 or -1. */
int accounts_hash(const char *password, bool fast, char out[STORE_PWHASH_SIZE]);
/* Free accounts' own state (the limiter's table, registrations still waiting for a thread,
 * dropping their connections). After the loop ended; srv is unused. */
void accounts_free(struct server *srv);

#endif
