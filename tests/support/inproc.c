/* inproc: a server in this process on a fake clock. See inproc.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "accounts.h"
#include "conn.h"
#include "fairclock.h"
#include "games.h"
#include "log.h"
#include "ratings.h"
#include "store.h"
#include "inproc.h"

#define REQUIRE(cond)                                                                     \
	do {                                                                              \
		if (!(cond)) {                                                            \
			fprintf(stderr, "inproc: failed: %s (line %d)\n", #cond, __LINE__); \
			abort();                                                          \
		}                                                                         \
	} while (0)

static struct inproc *current; /* for the connections' rtt_ms */

static int64_t fake_rtt(struct conn *c)
{
	(void)c;
	return current ? current->rtt_ms : -1;
}

/* No socket: closing leaves the transport's reference to ip_stop; the lag is ip->rtt_ms. */
static const struct conn_ops no_socket = {.rtt_ms = fake_rtt};

static uint64_t fake_mono(void *ctx)
{
	return ((struct inproc *)ctx)->ms;
}

static double fake_wall(void *ctx)
{
	return ip_wall(ctx);
}

double ip_wall(const struct inproc *ip)
{
	return IP_WALL0 + (double)(ip->ms - ip->ms0) / 1000.0;
}

/* Commit the iteration's transaction (as on_prepare does) and move every queued line into
 * its connection's inbox. */
static void settle(struct inproc *ip)
{
	struct server *srv = &ip->srv;
	if (srv->txn) {
		srv->txn = false;
		REQUIRE(store_commit(srv->store) == STORE_OK);
	}
	for (int k = 0; k < ip->nconns; k++) {
		struct conn *c = ip->conns[k].c;
		size_t i = 0;
		while (i < c->outlen) {
			char *nl = memchr(c->out + i, '\n', c->outlen - i);
			REQUIRE(nl != NULL);
			size_t len = (size_t)(nl - (c->out + i));
			json_t *m = json_loadb(c->out + i, len, 0, NULL);
			REQUIRE(m != NULL);
			json_array_append_new(ip->conns[k].inbox, m);
			i += len + 1;
		}
		c->outlen = 0;
	}
	for (struct conn *c = srv->dirty; c; c = c->dnext)
		c->dirty = false;
	srv->dirty = NULL;
}

void ip_start(struct inproc *ip)
{
	char err[STORE_ERR_MAX];
	memset(ip, 0, sizeof *ip);
	log_set_level(LOGL_ERROR);
	ip->ms = ip->ms0 = 5000000;
	ip->rtt_ms = -1;
	current = ip;
	fairclock_set_source(&(struct fairclock_source){fake_mono, fake_wall, ip});
	REQUIRE(uv_loop_init(&ip->loop) == 0);
	struct server *srv = &ip->srv;
	srv->loop = &ip->loop;
	srv->set.host = "127.0.0.1";
	srv->set.db_path = ":memory:";
	srv->set.max_connections = SERVER_MAX_CONNECTIONS;
	srv->set.max_per_address = SERVER_MAX_PER_ADDRESS;
	srv->set.max_queued = SERVER_MAX_QUEUED_BYTES;
	srv->set.max_queued_per_address = SERVER_MAX_QUEUED_PER_ADDRESS;
	srv->set.pwhash_fast = true;
	srv->set.lag_allowance_ms = SERVER_LAG_ALLOWANCE_MS;
	REQUIRE(store_open(":memory:", &srv->store, err, sizeof err) == STORE_OK);
	games_set_hooks(&(struct games_hooks){ratings_game_ended, ratings_player_brief});
	REQUIRE(games_load(srv) == 0);
	server_set_conn_gone(srv, games_conn_gone);
	fairclock_stop(srv); /* no poll ever ends a turn of work here: no stalls on a fake clock */
	uv_idle_init(&ip->loop, &srv->idle);
	srv->idle.data = srv;
}

static struct ip_conn *login_as(struct inproc *ip, int64_t id, const char *name, const char *role);

struct ip_conn *ip_login(struct inproc *ip, const char *name, const char *role)
{
	int64_t id = 0;
	REQUIRE(store_player_create(ip->srv.store, name, "x", role, &id) == STORE_OK);
	return login_as(ip, id, name, role);
}

struct ip_conn *ip_login_again(struct inproc *ip, const struct ip_conn *as)
{
	const char *role = as->c->role == PROTO_ROLE_ADMIN ? "admin"
			   : as->c->role == PROTO_ROLE_TD ? "td" : "player";
	struct ip_conn *ic = login_as(ip, as->c->player_id, as->c->name, role);
	games_player_login(ic->c);
	settle(ip);
	return ic;
}

static struct ip_conn *login_as(struct inproc *ip, int64_t id, const char *name, const char *role)
{
	struct server *srv = &ip->srv;
	REQUIRE(ip->nconns < IP_CONNS_MAX);
	struct conn *c = calloc(1, sizeof *c);
	REQUIRE(c != NULL);
	conn_init(c, srv, &no_socket, "127.0.0.1");
	REQUIRE(conn_add(c) == NULL);
	c->refs++; /* ours: the memory stays until ip_stop */
	c->player_id = id;
	snprintf(c->name, sizeof c->name, "%s", name);
	c->role = strcmp(role, "admin") == 0 ? PROTO_ROLE_ADMIN
		  : strcmp(role, "td") == 0 ? PROTO_ROLE_TD : PROTO_ROLE_PLAYER;
	server_session_add(srv, c);
	struct ip_conn *ic = &ip->conns[ip->nconns++];
	ic->c = c;
	ic->inbox = json_array();
	return ic;
}

json_t *ip_req(struct inproc *ip, struct ip_conn *c, json_t *req)
{
	static int serial;
	json_object_set_new(req, "id", json_integer(++serial));
	char *line = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	REQUIRE(line != NULL);
	dispatch_line(&ip->disp, c->c, line, strlen(line));
	free(line);
	settle(ip);
	size_t i;
	json_t *m;
	json_array_foreach(c->inbox, i, m) {
		if (!json_object_get(m, "event") && json_integer_value(json_object_get(m, "id")) == serial) {
			json_incref(m);
			json_array_remove(c->inbox, i);
			return m;
		}
	}
	REQUIRE(!"no reply");
	return NULL;
}

json_t *ip_event(struct ip_conn *c, const char *name, int64_t game)
{
	size_t i;
	json_t *m;
	json_array_foreach(c->inbox, i, m) {
		const char *ev = json_string_value(json_object_get(m, "event"));
		json_t *gm = json_object_get(m, "game");
		if (json_is_object(gm)) /* game.state, challenge.pending: the whole game */
			gm = json_object_get(gm, "id");
		if (ev && strcmp(ev, name) == 0 && (!game || json_integer_value(gm) == game)) {
			json_incref(m);
			json_array_remove(c->inbox, i);
			return m;
		}
	}
	return NULL;
}

void ip_advance(struct inproc *ip, uint64_t ms)
{
	/* 1 ms at a time, so that each timer fires at its own due time, not at the end. */
	for (uint64_t end = ip->ms + ms; ip->ms < end;) {
		ip->ms++;
		if (games_fire_due(&ip->srv) > 0)
			settle(ip);
	}
	settle(ip);
}

static const json_t *at_path(const json_t *o, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", path);
	const json_t *v = o;
	for (char *save, *k = strtok_r(buf, ".", &save); k && v; k = strtok_r(NULL, ".", &save)) {
		char *end;
		long idx = strtol(k, &end, 10);
		v = *end == '\0' && json_is_array(v) ? json_array_get(v, (size_t)idx) : json_object_get(v, k);
	}
	return v;
}

long long ip_int(const json_t *o, const char *path)
{
	const json_t *v = at_path(o, path);
	return json_is_integer(v) ? (long long)json_integer_value(v) : -999999;
}

const char *ip_str(const json_t *o, const char *path)
{
	return json_string_value(at_path(o, path));
}

void ip_stop(struct inproc *ip)
{
	struct server *srv = &ip->srv;
	for (int k = 0; k < ip->nconns; k++)
		conn_close(ip->conns[k].c, "test done");
	games_stop(srv);
	uv_close((uv_handle_t *)&srv->idle, NULL);
	settle(ip);
	uv_run(&ip->loop, UV_RUN_DEFAULT);
	for (int k = 0; k < ip->nconns; k++) {
		json_decref(ip->conns[k].inbox);
		conn_unref(ip->conns[k].c); /* the transport's reference (no_socket leaves it) */
		conn_unref(ip->conns[k].c); /* ours */
	}
	games_free(srv);
	accounts_free(srv);
	dispatch_free(&ip->disp);
	server_free(srv);
	REQUIRE(uv_loop_close(&ip->loop) == 0);
	fairclock_set_source(NULL);
	current = NULL;
}
