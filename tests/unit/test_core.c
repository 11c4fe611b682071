/* Tests for server/core without a socket: connections behind a fake transport (conn_ops),
 * lines through framing to the line sink within the turn's budgets, sending and sessions,
 * closing and freeing through the ops, the dispatcher (cmd/dispatch.c) on an in-memory
 * store, and CORE_PANIC's exit. Each test has its own loop and server. Also (no server):
 * idmap_ref and heap_reserve. */
#include <check.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "conn.h"
#include "dispatch.h"
#include "heap.h"
#if HEAP_RESERVE_WORKS
#include <malloc.h>
#endif
#include "idmap.h"
#include "log.h"
#include "panic.h"
#include "server.h"

#define LINES_MAX 64
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 (as in server/core/heap.c) */
#endif

/* This process's resident memory in KiB (/proc/self/statm), or -1. */
static long rss_kib(void)
{
	long pages = -1, resident = -1;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static uv_loop_t loop;
static struct server srv;

/* What the fake transport and the hooks saw. */
static int closes, frees, gone, lines;
static char seen[LINES_MAX][64];
static bool reading_on;

static void fake_close(struct conn *c)
{
	(void)c;
	closes++;
}

static void fake_reading(struct conn *c, bool on)
{
	(void)c;
	reading_on = on;
}

static int64_t fake_rtt(struct conn *c)
{
	(void)c;
	return 42;
}

static void fake_free(struct conn *c)
{
	frees++;
	free(c);
}

static const struct conn_ops fake_ops = {
	.close = fake_close, .reading = fake_reading, .rtt_ms = fake_rtt, .free = fake_free,
};

/* Bytes of reply the sink queues for each line of a connection from this address (0: none). */
static const char *reply_addr;
static size_t reply_bytes;

static void sink(void *ctx, struct conn *c, const char *line, size_t len)
{
	(void)ctx;
	if (lines < LINES_MAX)
		snprintf(seen[lines], sizeof seen[lines], "%.*s", (int)len, line);
	lines++;
	c->urgent = len > 0 && line[0] == 'u'; /* as the dispatcher marks a move */
	if (reply_addr && strcmp(c->addr, reply_addr) == 0) {
		static char big[256 << 10];
		memset(big, 'r', sizeof big);
		server_send_raw(c, big, reply_bytes < sizeof big ? reply_bytes : sizeof big);
	}
}

static void on_gone(struct server *s, struct conn *c)
{
	(void)s;
	(void)c;
	gone++;
}

static void setup(void)
{
	char err[STORE_ERR_MAX] = "";
	log_set_level(LOGL_ERROR);
	ck_assert_int_eq(uv_loop_init(&loop), 0);
	memset(&srv, 0, sizeof srv);
	srv.loop = &loop;
	srv.set.max_connections = SERVER_MAX_CONNECTIONS;
	srv.set.max_per_address = SERVER_MAX_PER_ADDRESS;
	srv.set.max_queued = SERVER_MAX_QUEUED_BYTES;
	server_settings_defaults(&srv.set);
	ck_assert_msg(store_open(":memory:", &srv.store, err, sizeof err) == STORE_OK, "%s", err);
	uv_idle_init(&loop, &srv.idle);
	srv.idle.data = &srv;
	server_set_line(&srv, sink, NULL);
	server_set_conn_gone(&srv, on_gone);
	closes = frees = gone = lines = 0;
	reading_on = false;
	reply_addr = NULL;
	reply_bytes = 0;
}

static void teardown(void)
{
	uv_close((uv_handle_t *)&srv.idle, NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	server_free(&srv);
	ck_assert_int_eq(uv_loop_close(&loop), 0);
}

static struct conn *fake_conn(const char *addr)
{
	struct conn *c = calloc(1, sizeof *c);
	ck_assert_ptr_nonnull(c);
	conn_init(c, &srv, &fake_ops, addr);
	ck_assert_ptr_null(conn_add(c));
	return c;
}

/* Feed bytes as a transport does after a read. */
static void feed(struct conn *c, const char *bytes)
{
	ck_assert_int_eq(framing_feed(&c->fr, bytes, strlen(bytes)), 0);
	conn_lines(c);
}

START_TEST(test_lines_to_sink)
{
	struct conn *c = fake_conn("10.0.0.1");
	feed(c, "one\n\ntwo\r\nthr");
	ck_assert_int_eq(lines, 2); /* the blank line is not a request */
	ck_assert_str_eq(seen[0], "one");
	ck_assert_str_eq(seen[1], "two");
	feed(c, "ee\n");
	ck_assert_int_eq(lines, 3);
	ck_assert_str_eq(seen[2], "three");
	ck_assert_int_eq(conn_rtt_ms(c), 42);
	conn_close(c, "test");
	ck_assert_int_eq(closes, 1);
	ck_assert_int_eq(gone, 1);
	conn_close(c, "again"); /* idempotent */
	ck_assert_int_eq(closes, 1);
	ck_assert_int_eq(frees, 0);
	conn_unref(c); /* the transport's reference */
	ck_assert_int_eq(frees, 1);
}
END_TEST

START_TEST(test_budget_backlog)
{
	struct conn *c = fake_conn("10.0.0.2");
	char buf[SERVER_CONN_UNITS * 4 + 64] = "";
	for (int i = 0; i < SERVER_CONN_UNITS + 3; i++)
		strcat(buf, "x\n");
	feed(c, buf);
	/* One unit a line at least: the connection's budget for the turn stops it. */
	ck_assert_int_le(lines, SERVER_CONN_UNITS);
	ck_assert(c->in_backlog);
	srv.turn++; /* the next turn (on_prepare does this after the commit) */
	conn_run_backlog(&srv);
	ck_assert_int_eq(lines, SERVER_CONN_UNITS + 3);
	ck_assert(!c->in_backlog);
	conn_close(c, "test");
	conn_unref(c);
}
END_TEST

/* The next turn's budgets, as on_prepare gives them after the commit. */
static void next_turn(void)
{
	srv.turn++;
	srv.turn_used = 0;
}

/* The backlog serves light connections first: a connection whose requests are big replies
 * (heavy) and has lines waiting does not make a light one (a ping, a move) wait for whole
 * turns; and new lines of a connection in the backlog wait there, in its place (handled on
 * arrival, they took each turn's budget before the backlog's turn: a ping waited 0.5 s). */
START_TEST(test_backlog_light_first)
{
	srv.set.turn_units = 2 * SERVER_CONN_UNITS;
	reply_addr = "10.0.0.9";
	reply_bytes = 3 * SERVER_UNIT_BYTES; /* 4 units a line: heavy (18 of them stay under
						  * SERVER_CONN_BACKPRESSURE) */
	struct conn *p = fake_conn("10.0.0.8"), *h = fake_conn("10.0.0.9");
	feed(p, "p0\n"); /* light from now on */
	ck_assert(!p->heavy);
	char buf[256] = "";
	for (int i = 0; i < 16; i++)
		strcat(buf, "h\n");
	feed(h, buf); /* a few lines, then its budget is spent: in the backlog */
	ck_assert(h->in_backlog);
	ck_assert(h->heavy);
	int before = lines;
	next_turn();
	feed(h, "h\nh\n"); /* more of it, in a new turn: waits in its place, not handled now */
	ck_assert_int_eq(lines, before);
	feed(p, "p1\n"); /* others wait in the backlog: p joins them */
	ck_assert_int_eq(lines, before);
	ck_assert(p->in_backlog);
	conn_run_backlog(&srv);
	ck_assert_int_gt(lines, before);
	ck_assert_str_eq(seen[before], "p1"); /* first, though it came after h's lines */
	while (h->in_backlog) { /* h's lines all come, a turn's budget at a time */
		next_turn();
		conn_run_backlog(&srv);
	}
	ck_assert_int_eq(lines, 1 + 18 + 1);
	/* a request a game waits on (a move) keeps its connection light however much it cost */
	next_turn();
	feed(h, "u\n");
	ck_assert(!h->heavy);
	next_turn();
	feed(h, "h\n");
	ck_assert(h->heavy);
	conn_close(p, "test");
	conn_unref(p);
	conn_close(h, "test");
	conn_unref(h);
}
END_TEST

/* Backpressure: past SERVER_CONN_BACKPRESSURE unsent bytes a connection's further lines wait
 * (not handled, whatever its budgets), and are handled once its unsent bytes are down to half
 * (the transport wrote them); it is not cut off. */
START_TEST(test_backpressure)
{
	reply_addr = "10.0.0.11";
	reply_bytes = SERVER_CONN_BACKPRESSURE / 3 + 1;
	struct conn *c = fake_conn("10.0.0.11");
	feed(c, "a\nb\nc\nd\ne\n");
	for (int t = 0; t < 10; t++) { /* a line a turn (its units): then the third reply passes
					* the mark, and d and e wait however many turns go by */
		next_turn();
		conn_run_backlog(&srv);
	}
	ck_assert_int_eq(lines, 3);
	ck_assert(c->out_full);
	ck_assert(!c->closing);
	ck_assert(!c->in_backlog);
	/* the transport wrote all but a little: the lines go on */
	c->outlen = SERVER_CONN_BACKPRESSURE / 2;
	conn_acct(c);
	ck_assert(!c->out_full);
	ck_assert(c->in_backlog);
	for (int t = 0; t < 3; t++) {
		next_turn();
		conn_run_backlog(&srv);
	}
	ck_assert_int_eq(lines, 5);
	conn_close(c, "test");
	conn_unref(c);
	/* all connections together past SERVER_QUEUED_SOFT (the others' bytes stood in for):
	 * a connection's lines wait past SERVER_CONN_BACKPRESSURE_LOW already */
	srv.queued_total += SERVER_QUEUED_SOFT;
	reply_addr = "10.0.0.12";
	reply_bytes = SERVER_CONN_BACKPRESSURE_LOW + 1;
	struct conn *d = fake_conn("10.0.0.12");
	feed(d, "a\nb\n");
	next_turn();
	conn_run_backlog(&srv);
	ck_assert_int_eq(lines, 6);
	ck_assert(d->out_full);
	d->outlen = 0; /* written */
	conn_acct(d);
	ck_assert(!d->out_full);
	srv.queued_total -= SERVER_QUEUED_SOFT;
	conn_close(d, "test");
	conn_unref(d);
	ck_assert_uint_eq(srv.queued_total, 0);
}
END_TEST

START_TEST(test_send_and_sessions)
{
	struct conn *a = fake_conn("10.0.0.3"), *b = fake_conn("10.0.0.3");
	ck_assert_ptr_eq(a->host, b->host);
	ck_assert_uint_eq(a->host->nconns, 2);
	a->player_id = b->player_id = 7;
	server_session_add(&srv, a);
	server_session_add(&srv, b);
	json_t *m = json_pack("{s:s}", "event", "x");
	server_send_player(&srv, 7, m);
	json_decref(m);
	ck_assert_uint_eq(a->outlen, strlen("{\"event\":\"x\"}\n"));
	ck_assert_uint_eq(b->outlen, a->outlen);
	ck_assert_uint_eq(a->host->queued, 2 * a->outlen);
	ck_assert(srv.dirty != NULL);
	conn_ref(a); /* an async job */
	conn_close(a, "test");
	ck_assert_int_eq(a->player_id, 0);
	ck_assert_ptr_eq(idmap_get(&srv.sessions, 7), b);
	ck_assert_uint_eq(b->host->nconns, 1);
	conn_unref(a);
	ck_assert_int_eq(frees, 0);
	conn_unref(a);
	ck_assert_int_eq(frees, 1);
	ck_assert_uint_eq(b->host->queued, b->outlen);
	conn_close(b, "test");
	conn_unref(b);
	ck_assert(srv.dirty == NULL);
}
END_TEST

START_TEST(test_slow_reader_cut_off)
{
	struct conn *c = fake_conn("10.0.0.4");
	srv.set.max_queued = 10;
	server_send_raw(c, "0123456789A", 11);
	ck_assert(c->closing);
	ck_assert_int_eq(closes, 1);
	ck_assert_uint_eq(c->outlen, 0);
	conn_unref(c);
}
END_TEST

/* A connection from a proxy before its PROXY header (transport/proxy.h): counted as pending on
 * the proxy's address, not its connections; then moved to the client's address, with its
 * unsent bytes, refused there past --max-per-address. */
static struct conn *pending_conn(const char *addr, unsigned max_pending, const char **refuse)
{
	struct conn *c = calloc(1, sizeof *c);
	ck_assert_ptr_nonnull(c);
	conn_init(c, &srv, &fake_ops, addr);
	*refuse = conn_add_pending(c, max_pending);
	ck_assert(c->pending);
	return c;
}

START_TEST(test_proxy_pending)
{
	srv.set.max_per_address = 2;
	struct conn *d1 = fake_conn("10.0.0.9"), *d2 = fake_conn("10.0.0.9");
	const char *refuse;
	struct conn *p1 = pending_conn("127.0.0.1", 2, &refuse);
	ck_assert_ptr_null(refuse);
	struct conn *p2 = pending_conn("127.0.0.1", 2, &refuse);
	ck_assert_ptr_null(refuse);
	struct host *proxy = p1->host;
	ck_assert_uint_eq(proxy->pending, 2);
	ck_assert_uint_eq(proxy->nconns, 0);
	struct conn *p3 = pending_conn("127.0.0.1", 2, &refuse);
	ck_assert_ptr_nonnull(refuse); /* past max_pending: refused, counted all the same */
	ck_assert_uint_eq(proxy->pending, 3);
	conn_close(p3, refuse);
	ck_assert_uint_eq(proxy->pending, 2);
	ck_assert_uint_eq(srv.nconns, 4);
	/* The header names 10.0.0.1: p1 counts there now. */
	ck_assert_ptr_null(conn_set_addr(p1, "10.0.0.1"));
	ck_assert(!p1->pending);
	ck_assert_str_eq(p1->addr, "10.0.0.1");
	ck_assert_uint_eq(p1->host->nconns, 1);
	ck_assert_uint_eq(proxy->pending, 1);
	/* p2 has unsent bytes; its header names 10.0.0.9, which has its two already. */
	server_send_raw(p2, "hello\n", 6);
	ck_assert_uint_eq(proxy->queued, 6);
	refuse = conn_set_addr(p2, "10.0.0.9");
	ck_assert_ptr_nonnull(refuse);
	ck_assert_ptr_eq(p2->host, d1->host);
	ck_assert_uint_eq(d1->host->nconns, 3);
	ck_assert_uint_eq(d1->host->queued, 6);
	conn_close(p2, refuse);
	ck_assert_uint_eq(d1->host->nconns, 2);
	/* UNKNOWN or LOCAL: the proxy's own address, as a connection of it. */
	struct conn *p4 = pending_conn("127.0.0.1", 2, &refuse);
	ck_assert_ptr_null(conn_set_addr(p4, p4->addr));
	ck_assert_str_eq(p4->addr, "127.0.0.1");
	ck_assert_uint_eq(p4->host->nconns, 1);
	ck_assert_uint_eq(p4->host->pending, 0);
	struct conn *all[] = {d1, d2, p1, p2, p3, p4};
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		conn_close(all[i], "test");
		conn_unref(all[i]);
	}
	ck_assert_int_eq(frees, 6);
	ck_assert_uint_eq(srv.nconns, 0);
}
END_TEST

/* HTTP connections before a WebSocket upgrade (transport/ws.c): their own limit per address,
 * none for a listed proxy, --max-http-connections in all, and one total with the protocol's
 * connections (--max-connections: the descriptors they share). */
START_TEST(test_http_counted)
{
	srv.set.max_connections = 8;
	srv.set.max_per_address = 8;
	srv.set.max_http_per_address = 2;
	srv.set.max_http = 4;
	struct host *h1, *h2, *h3, *hp, *hx;
	ck_assert_ptr_null(conn_http_add(&srv, "10.0.0.1", true, &h1));
	ck_assert_ptr_null(conn_http_add(&srv, "10.0.0.1", true, &h2));
	ck_assert_ptr_eq(h1, h2);
	ck_assert_uint_eq(h1->http, 2);
	ck_assert_uint_eq(h1->nconns, 0); /* not the protocol's connections */
	ck_assert_str_eq(conn_http_add(&srv, "10.0.0.1", true, &h3),
			 "too many HTTP connections from this address");
	ck_assert_ptr_null(h3);
	ck_assert_uint_eq(h1->http, 2); /* refused: nothing counted */
	ck_assert_ptr_null(conn_http_add(&srv, "10.0.0.2", true, &h3));
	/* A listed proxy's: not held to the address's limit. */
	ck_assert_ptr_null(conn_http_add(&srv, "10.0.0.1", false, &hp));
	ck_assert_uint_eq(h1->http, 3);
	ck_assert_uint_eq(srv.nhttp, 4);
	/* --max-http-connections: all of them. */
	ck_assert_str_eq(conn_http_add(&srv, "10.0.0.4", true, &hx), "too many HTTP connections");
	conn_http_done(&srv, h2);
	ck_assert_uint_eq(h1->http, 2);
	ck_assert_uint_eq(srv.nhttp, 3);
	/* Three HTTP and five protocol connections fill --max-connections, for both kinds. */
	struct conn *cs[5];
	for (int i = 0; i < 5; i++)
		cs[i] = fake_conn("10.0.0.3");
	struct conn *d = calloc(1, sizeof *d);
	ck_assert_ptr_nonnull(d);
	conn_init(d, &srv, &fake_ops, "10.0.0.5");
	const char *refuse = conn_add(d);
	ck_assert_str_eq(refuse, "too many connections");
	conn_close(d, refuse);
	conn_unref(d);
	ck_assert_str_eq(conn_http_add(&srv, "10.0.0.4", true, &hx), "too many connections");
	/* One closes: room again. */
	conn_close(cs[4], "test");
	conn_unref(cs[4]);
	ck_assert_ptr_null(conn_http_add(&srv, "10.0.0.4", true, &hx));
	conn_http_done(&srv, hx);
	conn_http_done(&srv, hp);
	conn_http_done(&srv, h1);
	conn_http_done(&srv, h3);
	ck_assert_uint_eq(srv.nhttp, 0);
	for (int i = 0; i < 4; i++) {
		conn_close(cs[i], "test");
		conn_unref(cs[i]);
	}
	ck_assert_uint_eq(srv.nconns, 0);
	/* the default share: a quarter, and at least one whatever --max-connections is */
	struct server_settings set = {.max_connections = 3};
	server_settings_defaults(&set);
	ck_assert_uint_eq(set.max_http, 1);
	set = (struct server_settings){.max_connections = 19936};
	server_settings_defaults(&set);
	ck_assert_uint_eq(set.max_http, 4984);
}
END_TEST

START_TEST(test_dispatch_ping)
{
	struct dispatch d = {0};
	struct conn *c = fake_conn("10.0.0.5");
	server_set_line(&srv, dispatch_line, &d);
	feed(c, "{\"cmd\":\"ping\",\"id\":3}\n{\"cmd\":\"nonsense\",\"id\":\"x\"}\n");
	while (c->in_backlog) { /* a slow build may spend the turn's budget on the first line */
		srv.turn++;
		conn_run_backlog(&srv);
	}
	ck_assert_ptr_nonnull(c->out);
	char *nl = memchr(c->out, '\n', c->outlen);
	ck_assert_ptr_nonnull(nl);
	json_t *r1 = json_loadb(c->out, (size_t)(nl - c->out), 0, NULL);
	json_t *r2 = json_loadb(nl + 1, c->outlen - (size_t)(nl + 1 - c->out) - 1, 0, NULL);
	ck_assert_ptr_nonnull(r1);
	ck_assert_ptr_nonnull(r2);
	ck_assert_int_eq(json_integer_value(json_object_get(r1, "id")), 3);
	ck_assert(json_is_true(json_object_get(r1, "ok")));
	ck_assert_str_eq(json_string_value(json_object_get(r2, "id")), "x");
	ck_assert(json_is_false(json_object_get(r2, "ok")));
	json_decref(r1);
	json_decref(r2);
	conn_close(c, "test");
	conn_unref(c);
	dispatch_free(&d);
}
END_TEST

/* idmap_ref: the slot of a present key, replaced in place; NULL for an absent one. */
START_TEST(test_idmap_ref)
{
	struct idmap m = {0};
	int a = 1, b = 2;
	ck_assert_ptr_null(idmap_ref(&m, 5)); /* empty map */
	ck_assert_int_eq(idmap_put(&m, 5, &a), 0);
	for (int64_t k = 100; k < 200; k++) /* grow it: slots move */
		ck_assert_int_eq(idmap_put(&m, k, &b), 0);
	void **ref = idmap_ref(&m, 5);
	ck_assert_ptr_nonnull(ref);
	ck_assert_ptr_eq(*ref, &a);
	*ref = &b;
	ck_assert_ptr_eq(idmap_get(&m, 5), &b);
	ck_assert_ptr_null(idmap_ref(&m, 6));
	idmap_del(&m, 5);
	ck_assert_ptr_null(idmap_ref(&m, 5));
	idmap_free(&m);
}
END_TEST

/* ---- log ---- */

#define LOG_THREADS 4
#define LOG_LINES 2000
#define LOG_PAD 200

static void *log_lines(void *arg)
{
	int t = (int)(intptr_t)arg;
	char pad[LOG_PAD + 1];
	memset(pad, 'a' + t, LOG_PAD);
	pad[LOG_PAD] = '\0';
	for (int i = 0; i < LOG_LINES; i++)
		log_msg(LOGL_INFO, "test_line", "t=%d n=%d pad=%s", t, i, pad);
	return NULL;
}

/* Each log line is written whole: lines logged by several threads at once (the loop, the
 * upkeep thread, the syncer) never interleave, and a line longer than LOG_LINE_BUF is kept
 * whole too. (A line was three writes to the unbuffered stderr.) */
START_TEST(test_log_lines_whole)
{
	char path[] = "/tmp/tengen-log-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	int saved = dup(2);
	ck_assert_int_ge(saved, 0);
	ck_assert_int_ge(dup2(fd, 2), 0);
	log_set_level(LOGL_INFO);
	pthread_t th[LOG_THREADS];
	for (int t = 0; t < LOG_THREADS; t++)
		ck_assert_int_eq(pthread_create(&th[t], NULL, log_lines, (void *)(intptr_t)t), 0);
	static char big[3 * LOG_LINE_BUF];
	memset(big, 'z', sizeof big - 1);
	log_msg(LOGL_INFO, "test_long", "pad=%s", big);
	for (int t = 0; t < LOG_THREADS; t++)
		pthread_join(th[t], NULL);
	log_set_level(LOGL_ERROR);
	fflush(stderr);
	ck_assert_int_ge(dup2(saved, 2), 0);
	close(saved);
	FILE *f = fdopen(fd, "r");
	ck_assert_ptr_nonnull(f);
	rewind(f);
	static char line[4 * LOG_LINE_BUF];
	int seen[LOG_THREADS] = {0}, longs = 0, lines = 0;
	while (fgets(line, sizeof line, f)) {
		lines++;
		int t, n, at = -1;
		char *ev = strstr(line, " info ");
		ck_assert_msg(ev && line[23] == 'Z', "not a log line: %.80s", line);
		if (strncmp(ev, " info test_long pad=", 20) == 0) {
			ck_assert_uint_eq(strspn(ev + 20, "z"), sizeof big - 1);
			ck_assert_str_eq(ev + 20 + sizeof big - 1, "\n");
			longs++;
			continue;
		}
		ck_assert_msg(sscanf(ev, " info test_line t=%d n=%d pad=%n", &t, &n, &at) == 2 &&
				      at > 0 && t >= 0 && t < LOG_THREADS && n == seen[t],
			      "a line cut or mixed: %.120s", line);
		ck_assert_uint_eq(strspn(ev + at, (char[]){(char)('a' + t), 0}), LOG_PAD);
		ck_assert_str_eq(ev + at + LOG_PAD, "\n");
		seen[t]++;
	}
	fclose(f);
	unlink(path);
	ck_assert_int_eq(longs, 1);
	ck_assert_int_eq(lines, LOG_THREADS * LOG_LINES + 1);
}
END_TEST

/* Can this kernel populate memory in one call (MADV_POPULATE_WRITE, Linux 5.14)? */
static bool kernel_populates(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return false;
	bool ok = madvise(p, (size_t)pg, MADV_POPULATE_WRITE) == 0;
	munmap(p, (size_t)pg);
	return ok;
}

/* heap_reserve: the heap's free top holds at least what was asked, already resident (the
 * populating thread waited for), and it is still there after a small block is taken and freed
 * (not given back at the first free); heap_reserve_done gives it back down to HEAP_KEEP_TOP.
 * Where the C library or the kernel
 * cannot, it reserves nothing and says so (0). */
START_TEST(test_heap_reserve)
{
	const size_t ask = (size_t)128 << 20; /* past HEAP_KEEP_TOP, so that a trim shows */
	long rss0 = rss_kib();
#if HEAP_RESERVE_WORKS
	void *volatile probe = malloc(64);
	bool glibc_malloc = mallinfo2().arena > 0; /* not under valgrind or a preloaded malloc */
	free(probe);
	size_t got = heap_reserve(ask);
	if (!kernel_populates() || !glibc_malloc) {
		ck_assert_uint_eq(got, 0);
		heap_reserve_done();
		return;
	}
	ck_assert_uint_ge(got, ask);
	heap_reserve_wait(false); /* the populating thread's part too */
	ck_assert_int_ge(rss_kib() - rss0, (long)(ask >> 10) * 9 / 10); /* resident now */
	ck_assert_uint_ge(mallinfo2().keepcost, ask);
	free(malloc(4096));
	ck_assert_uint_ge(mallinfo2().keepcost, ask - 8192); /* not trimmed */
	heap_reserve_done();
	ck_assert_uint_le(mallinfo2().keepcost, HEAP_KEEP_TOP + ((size_t)1 << 20)); /* given back */
	ck_assert_uint_ge(mallinfo2().keepcost, HEAP_KEEP_TOP / 2); /* ... down to what is kept */
	ck_assert_uint_eq(heap_reserve(0), 0);
	heap_reserve_done();
#else
	(void)rss0;
	(void)kernel_populates;
	ck_assert_uint_eq(heap_reserve(ask), 0);
	heap_reserve_done();
#endif
}
END_TEST

START_TEST(test_panic_exits)
{
	CORE_PANIC(NULL, "what=test");
}
END_TEST

static Suite *core_suite(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_lines_to_sink);
	tcase_add_test(tc, test_budget_backlog);
	tcase_add_test(tc, test_backlog_light_first);
	tcase_add_test(tc, test_backpressure);
	tcase_add_test(tc, test_send_and_sessions);
	tcase_add_test(tc, test_slow_reader_cut_off);
	tcase_add_test(tc, test_proxy_pending);
	tcase_add_test(tc, test_http_counted);
	tcase_add_test(tc, test_log_lines_whole);
	tcase_add_test(tc, test_dispatch_ping);
	tcase_add_exit_test(tc, test_panic_exits, 1);
	suite_add_tcase(s, tc);
	TCase *tm = tcase_create("memory");
	tcase_add_test(tm, test_idmap_ref);
	tcase_add_test(tm, test_heap_reserve);
	suite_add_tcase(s, tm);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(core_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
