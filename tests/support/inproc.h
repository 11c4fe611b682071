/* inproc: a server in this process, for tests of the game layer without sockets or sleeping.
 *
 * The server runs on an in-memory store with the real hooks (ratings), on a fake time source
 * (fairclock_set_source): time moves only by ip_advance, which fires the game timers that
 * fall due (games_fire_due) as the loop would. Connections have no socket (as in
 * tests/fuzz/fuzz_proto.c): a request goes straight to dispatch_line, the iteration's
 * transaction commits after it, and the queued output lines are parsed into the connection's
 * inbox. */
#ifndef TENGEN_TEST_INPROC_H
#define TENGEN_TEST_INPROC_H

#include <jansson.h>
#include <stdint.h>
#include "dispatch.h"
#include "server.h"

#define IP_CONNS_MAX 8
#define IP_WALL0 1700000000.0 /* the fake wall clock's start (Unix seconds) */

struct ip_conn {
	struct conn *c;
	json_t *inbox;            /* messages received and not taken yet (array) */
};

struct inproc {
	struct server srv;
	struct dispatch disp;
	uv_loop_t loop;
	uint64_t ms;              /* the fake monotonic clock; wall = IP_WALL0 + (ms - ms0) / 1000 */
	uint64_t ms0;
	struct ip_conn conns[IP_CONNS_MAX];
	int nconns;
	int64_t rtt_ms;           /* every connection's round-trip time (conn_ops.rtt_ms); -1: unknown */
};

/* Start: store, hooks, games_load, the fake clock (the stall meter off). Aborts on failure. */
void ip_start(struct inproc *ip);
/* Tear everything down (as server_stop and main do) and restore the real clocks. */
void ip_stop(struct inproc *ip);
/* A player `name` in the store with `role` ("player", "td", "admin"), logged in on a new
 * connection. */
struct ip_conn *ip_login(struct inproc *ip, const char *name, const char *role);
/* The player of `as` logged in again on a new connection, with what a login sends (the
 * state of each of its live games, its pending challenges: games_player_login) in its inbox. */
struct ip_conn *ip_login_again(struct inproc *ip, const struct ip_conn *as);
/* Send a request (a JSON object, stolen) from c; returns c's reply (new reference). */
json_t *ip_req(struct inproc *ip, struct ip_conn *c, json_t *req);
/* The first message in c's inbox that is event `name` (for game `game` unless 0: its `game`,
 * or `game.id` where `game` is the whole game), taken out; NULL if there is none. */
json_t *ip_event(struct ip_conn *c, const char *name, int64_t game);
/* Advance the fake clock by `ms`, a millisecond at a time, firing every game timer as it
 * falls due (games_fire_due), as the loop would. */
void ip_advance(struct inproc *ip, uint64_t ms);
/* The fake Unix time now. */
double ip_wall(const struct inproc *ip);
/* Integer at a dotted path ("move.clocks.B.main_ms", "pairings.0.game") of o; -999999 if
 * absent. String likewise (NULL if absent). */
long long ip_int(const json_t *o, const char *path);
const char *ip_str(const json_t *o, const char *path);

#endif
