/* fuzz_proto: request lines through parsing, validation and dispatch, against a real server
 * state (server/) on an in-memory SQLite database, without sockets.
 *
 * Each input is a fresh server: store_open(":memory:"), games_load, three players made
 * directly in the store (alice and bob: players; root: admin; password "password1"), and four
 * connections without a transport (conn_ops without close: the driver holds them):
 * conn 0 is not logged in, conn 1 is alice, conn 2 bob, conn 3 root. Outputs are only queued
 * (server_send_raw appends to conn->out); this driver takes them instead of the flush hook.
 *
 * The input is split at '\n' into lines. A line starting "@N" (N = 0..3) goes to conn N
 * (the two bytes are dropped), any other line to conn 1. Like conn.c, blank lines are skipped,
 * and a connection's next line waits until its password-hashing job is done (the loop runs
 * until then). After each line the iteration's transaction commits (as on_prepare does).
 *
 * Checked after each line: every queued output line is one JSON object ending in '\n'; the
 * sender got exactly one reply (an object without "event") unless it was cut off; nothing
 * leaks (LeakSanitizer) and no handle is left on the loop after teardown.
 *
 * Also on every line: proto_parse, and on the parsed object each proto_get_* validator over
 * every key present, proto_vertex_check on every string for each board size, proto_get_time
 * and proto_get_rules, so the validators see shapes the handlers never reach.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include <uv.h>
#include "accounts.h"
#include "conn.h"
#include "dispatch.h"
#include "games.h"
#include "log.h"
#include "proto.h"
#include "ratings.h"
#include "server.h"
#include "store.h"

#define FUZZ_CONNS 4
#define FUZZ_MAX_LINES 64          /* lines dispatched per input */
#define FUZZ_PASSWORD "password1"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

#define REQUIRE(cond)                                                                     \
	do {                                                                              \
		if (!(cond)) {                                                            \
			fprintf(stderr, "fuzz_proto: invariant failed: %s (line %d)\n", #cond, \
				__LINE__);                                                \
			abort();                                                          \
		}                                                                         \
	} while (0)

static uv_loop_t loop;
static char pwhash[STORE_PWHASH_SIZE];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (sodium_init() < 0)
		abort();
	log_set_level(LOGL_ERROR);
	if (uv_loop_init(&loop) != 0)
		abort();
	if (accounts_hash(FUZZ_PASSWORD, true, pwhash) != 0)
		abort();
	return 0;
}

/* The validators on one parsed object: none may crash, each returns -1, 0 or 1. */
static void exercise_validators(const json_t *root)
{
	static const char *const choices[] = {"a", "nigiri", "black", "white"};
	struct proto_error err;
	const char *key;
	json_t *val;
	json_object_foreach((json_t *)root, key, val) {
		const char *s;
		int64_t i;
		double x;
		bool b;
		enum color col;
		int ch;
		const json_t *arr;
		struct proto_time t;
		struct rules r;
		int rc[13];
		rc[0] = proto_get_string(root, key, false, 64, &s, &err);
		rc[1] = proto_get_int(root, key, false, -1000, 1000, &i, &err);
		rc[2] = proto_get_number(root, key, false, -1e6, 1e6, &x, &err);
		rc[3] = proto_get_bool(root, key, false, &b, &err);
		rc[4] = proto_get_id(root, key, false, &i, &err);
		rc[5] = proto_get_name(root, key, false, &s, &err);
		rc[6] = proto_get_password(root, key, false, &s, &err);
		rc[7] = proto_get_color(root, key, false, &col, &err);
		rc[8] = proto_get_choice(root, key, false, choices, 4, &ch, &err);
		rc[9] = proto_get_vertex(root, key, false, &s, &err);
		rc[10] = proto_get_vertices(root, key, false, PROTO_VERTICES_MAX, &arr, &err);
		rc[11] = proto_get_time(root, key, false, &t, &err);
		rules_default(&r);
		rc[12] = proto_get_rules(root, key, false, &r, &err);
		for (int k = 0; k < 13; k++) {
			REQUIRE(rc[k] >= -1 && rc[k] <= 1);
			if (rc[k] < 0)
				REQUIRE(memchr(err.message, '\0', sizeof err.message) != NULL);
		}
		if (rc[11] == 1) {
			json_t *tj = proto_time_to_json(&t);
			REQUIRE(tj != NULL);
			json_t *wrap = json_pack("{sO}", "time", tj);
			struct proto_time t2;
			REQUIRE(proto_get_time(wrap, "time", true, &t2, &err) == 1);
			REQUIRE(t2.system == t.system && t2.main_ms == t.main_ms);
			json_decref(wrap);
			json_decref(tj);
		}
		if (rc[12] == 1) {
			json_t *rj = proto_rules_to_json(&r);
			REQUIRE(rj != NULL);
			json_decref(rj);
		}
		if (json_is_string(val)) {
			const char *v = json_string_value(val);
			for (int size = 0; size <= BOARD_MAX_SIZE + 1; size++) {
				int vx = -1, vy = -1;
				int k = proto_vertex_check(key, v, size, &vx, &vy, &err);
				REQUIRE(k >= -1 && k <= 1);
				if (k == 1)
					REQUIRE(vx >= 0 && vy >= 0 && vx < BOARD_MAX_SIZE && vy < BOARD_MAX_SIZE &&
						(size == 0 || (vx < size && vy < size)));
			}
		}
	}
}

static struct conn *conn_new(struct server *srv, int64_t player, const char *name,
			     enum proto_role role)
{
	static const struct conn_ops no_socket = {0}; /* closing leaves the reference to us */
	struct conn *c = calloc(1, sizeof *c);
	REQUIRE(c != NULL);
	conn_init(c, srv, &no_socket, "127.0.0.1");
	REQUIRE(conn_add(c) == NULL);
	if (player) {
		c->player_id = player;
		snprintf(c->name, sizeof c->name, "%s", name);
		c->role = role;
		server_session_add(srv, c);
	}
	return c;
}

/* Check and drop c's queued output; returns the number of replies in it. */
static int take_output(struct conn *c)
{
	int replies = 0;
	size_t i = 0;
	while (i < c->outlen) {
		char *nl = memchr(c->out + i, '\n', c->outlen - i);
		REQUIRE(nl != NULL);
		size_t len = (size_t)(nl - (c->out + i));
		json_error_t je;
		json_t *m = json_loadb(c->out + i, len, 0, &je);
		REQUIRE(m != NULL && json_is_object(m));
		if (!json_object_get(m, "event")) {
			replies++;
			REQUIRE(json_is_boolean(json_object_get(m, "ok")));
		}
		json_decref(m);
		i += len + 1;
	}
	c->outlen = 0;
	return replies;
}

static void take_all(struct server *srv, int *counts, struct conn **conns)
{
	for (int k = 0; k < FUZZ_CONNS; k++)
		if (conns[k] && !conns[k]->closing)
			counts[k] += take_output(conns[k]);
	for (struct conn *c = srv->dirty; c; c = c->dnext)
		c->dirty = false;
	srv->dirty = NULL;
}

static void commit(struct server *srv)
{
	if (srv->txn) {
		srv->txn = false;
		REQUIRE(store_commit(srv->store) == STORE_OK);
	}
}

static int64_t make_player(struct server *srv, const char *name, const char *role)
{
	int64_t id = 0;
	REQUIRE(store_player_create(srv->store, name, pwhash, role, &id) == STORE_OK);
	return id;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static struct server srv;
	static struct dispatch disp;
	char err[STORE_ERR_MAX];
	memset(&srv, 0, sizeof srv);
	srv.loop = &loop;
	srv.set.host = "127.0.0.1";
	srv.set.db_path = ":memory:";
	srv.set.max_connections = SERVER_MAX_CONNECTIONS;
	srv.set.max_per_address = SERVER_MAX_PER_ADDRESS;
	srv.set.max_queued = SERVER_MAX_QUEUED_BYTES;
	srv.set.max_queued_per_address = SERVER_MAX_QUEUED_PER_ADDRESS;
	srv.set.pwhash_fast = true;
	srv.set.lag_allowance_ms = SERVER_LAG_ALLOWANCE_MS;
	server_settings_defaults(&srv.set); /* every limit left 0 above gets its default */
	REQUIRE(store_open(":memory:", &srv.store, err, sizeof err) == STORE_OK);
	games_set_hooks(&(struct games_hooks){ratings_game_ended, ratings_player_brief});
	REQUIRE(games_load(&srv) == 0);
	uv_idle_init(&loop, &srv.idle);
	srv.idle.data = &srv;

	struct conn *conns[FUZZ_CONNS];
	conns[0] = conn_new(&srv, 0, "", PROTO_ROLE_PLAYER);
	conns[1] = conn_new(&srv, make_player(&srv, "alice", "player"), "alice", PROTO_ROLE_PLAYER);
	conns[2] = conn_new(&srv, make_player(&srv, "bob", "player"), "bob", PROTO_ROLE_PLAYER);
	conns[3] = conn_new(&srv, make_player(&srv, "root", "admin"), "root", PROTO_ROLE_ADMIN);
	for (int k = 0; k < FUZZ_CONNS; k++)
		conns[k]->refs++; /* keep the memory readable after a cut-off, to check `closing` */

	const char *p = (const char *)d, *end = p + n;
	int lines = 0;
	while (p < end && lines < FUZZ_MAX_LINES) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *line = p;
		p = nl ? nl + 1 : end;
		int who = 1;
		if (le - line >= 2 && line[0] == '@' && line[1] >= '0' && line[1] < '0' + FUZZ_CONNS) {
			who = line[1] - '0';
			line += 2;
		}
		size_t len = (size_t)(le - line);
		if (len && line[len - 1] == '\r')
			len--;
		if (len == 0 || len > FRAMING_MAX_LINE)
			continue;
		lines++;

		struct proto_request req;
		struct proto_error perr = {0};
		if (proto_parse(line, len, &req, &perr) == 0 && req.root)
			exercise_validators(req.root);
		else
			REQUIRE(perr.code != PROTO_OK);
		proto_request_free(&req);

		struct conn *c = conns[who];
		if (c->closing)
			continue;
		int counts[FUZZ_CONNS] = {0};
		dispatch_line(&disp, c, line, len);
		commit(&srv);
		take_all(&srv, counts, conns);
		/* A password job holds the connection's turn (conn.c): wait for it. */
		for (int spins = 0; c->busy && spins < 100000; spins++) {
			uv_run(&loop, UV_RUN_ONCE);
			commit(&srv);
			take_all(&srv, counts, conns);
		}
		REQUIRE(!c->busy);
		if (!c->closing)
			REQUIRE(counts[who] == 1);
	}

	/* Teardown, as server_stop and main do. */
	for (int k = 0; k < FUZZ_CONNS; k++)
		conn_close(conns[k], "fuzz input done");
	games_stop(&srv);
	uv_close((uv_handle_t *)&srv.idle, NULL);
	commit(&srv);
	uv_run(&loop, UV_RUN_DEFAULT);
	for (int k = 0; k < FUZZ_CONNS; k++) {
		conn_unref(conns[k]); /* the transport's reference (no_socket leaves it) */
		conn_unref(conns[k]); /* ours */
	}
	games_free(&srv);
	accounts_free(&srv);
	dispatch_free(&disp);
	server_free(&srv);
	REQUIRE(!uv_loop_alive(&loop));
	return 0;
}
