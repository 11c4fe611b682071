/* accounts: register and login (their commands, the session commands without password work
 * and the player queries are in cmd/account_cmds.c).
 * Passwords are hashed with libsodium's crypto_pwhash_str (Argon2id) on libuv's thread pool,
 * so hashing never stalls the loop; the connection's later requests wait for it (replies stay
 * in request order). Failed logins are rate-limited per name and per address. */
#ifndef TENGEN_ACCOUNTS_H
#define TENGEN_ACCOUNTS_H

#include "server.h"

/* The reply to a register or login whose password work is done, called on the loop with the
 * request's id: e (the refusal's code and message) or p (the player registered or logged in;
 * borrowed for the call). Not called if the connection closed meanwhile. A login's session is
 * set before the call; the player's games hear of the login after it (games_player_login). */
typedef void (*accounts_done_fn)(struct conn *c, const json_t *id, const struct proto_error *e,
				 const struct store_player *p);

/* Register player `name` with `password` (both checked by proto_get_name/_password) and an
 * optional declared rank (`rank`, NULL: none; 15k..9d) for connection c. Returns 0: the
 * password is being hashed, c waits (busy, held) and `done` replies with the new player; or -1
 * with *e filled: bad request (rank), conflict (name taken), rate limited (per address, or
 * too many waiting), internal. */
int accounts_register(struct conn *c, const json_t *id, const char *name, const char *password,
		      const char *rank, accounts_done_fn done, struct proto_error *e);
/* Log connection c in as `name` with `password`. Returns 0: the password is being checked, c
 * waits and `done` replies (unauthenticated: "wrong name or password", counted against the
 * name and c's address); or -1 with *e filled: rate limited (too many failed logins),
 * internal. `exclusive` (docs/protocol.md login): once logged in, c replaces the player's
 * other exclusive connections, which get `session.replaced` and are logged out. */
int accounts_login(struct conn *c, const json_t *id, const char *name, const char *password,
		   bool exclusive, accounts_done_fn done, struct proto_error *e);
/* The public view of a player: {id, name, role, rating, rd, rank}. */
json_t *accounts_player_json(const struct store_player *p);
/* Hash a password at the server's cost (blocking; for `tengend` tools). Returns 0 or -1. */
int accounts_hash(const char *password, bool fast, char out[STORE_PWHASH_SIZE]);
/* Free accounts' own state (the limiter's table, registrations still waiting for a thread,
 * dropping their connections). After the loop ended; srv is unused. */
void accounts_free(struct server *srv);

#endif
