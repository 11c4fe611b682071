/* server: state, transaction, group commit, sending, sessions. See server.h. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conn.h"
#include "fairclock.h"
#include "log.h"
#include "panic.h"
#include "syncer.h"
#include "upkeep.h"
#include "server.h"

double server_now(void)
{
	return fairclock_wall_s(); /* the injectable source: a test's fake clock governs it too */
}

/* Open the iteration's transaction if none is open (server_txn without marking cached
 * replies stale). */
static void txn_open(struct server *srv)
{
	if (srv->txn)
		return;
	uint64_t t0 = uv_hrtime();
	if (store_begin(srv->store) != STORE_OK)
		CORE_PANIC(srv->store, "what=store_begin");
	loopstat_begin(&srv->loopstat, uv_hrtime() - t0);
	srv->txn = true;
}

void server_txn(struct server *srv)
{
	srv->data_gen++; /* every change starts here: cached replies (reply_cached) are stale */
	txn_open(srv);
}

void server_commit_now(struct server *srv)
{
	if (!srv->txn)
		return;
	srv->txn = false;
	/* Before any reply reports it: a failed commit must not be reported as done. */
	if (store_commit(srv->store) != STORE_OK)
		CORE_PANIC(srv->store, "what=store_commit");
	srv->unsynced = srv->syncer != NULL;
}

/* The database's files deleted or replaced under the daemon: what it commits would go to a
 * file nobody finds again (and the next start would not find the games). Stop at once, loudly,
 * with nothing of this iteration reported. */
static void check_files(struct server *srv)
{
	enum store_rc r = store_files_check(srv->store);
	if (r == STORE_NOT_FOUND)
		CORE_PANIC(srv->store, "what=database_gone path=%s", srv->set.db_path);
	if (r != STORE_OK)
		log_msg(LOGL_WARN, "database_check", "error=\"%s\"", store_errmsg(srv->store));
}

static void on_dbcheck(uv_timer_t *t)
{
	check_files(t->data);
}

/* The daemon runs now: written in this iteration's transaction (migration 0008). No reply
 * reads it, so cached replies stay fresh (txn_open, not server_txn). */
static void mark_alive(struct server *srv)
{
	txn_open(srv);
	if (store_alive_set(srv->store, fairclock_wall_s()) != STORE_OK)
		CORE_PANIC(srv->store, "what=alive");
}

static void on_alive(uv_timer_t *t)
{
	mark_alive(t->data);
}

static void flush_all(struct server *srv)
{
	for (unsigned i = 0; i < srv->nflush; i++)
		srv->flush[i].fn(srv->flush[i].ctx);
}

/* Begin a sync of everything committed so far: until it ends, what the connections hold
 * (`out`) waits, and what they are sent goes to `later`. */
static void sync_begin(struct server *srv)
{
	srv->syncing = true;
	srv->unsynced = false;
	syncer_request(srv->syncer);
}

/* The syncer reports: what waited is on the disk and goes out. What came while it synced
 * joins the queues and waits for the next on_prepare, which commits the transaction it may
 * belong to (still open now) and syncs it, or writes it out if nothing was committed. */
static void sync_done(void *ctx, bool ok, int err)
{
	struct server *srv = ctx;
	if (!ok) /* as a failed commit: what the clients would be told may not be on the disk */
		CORE_PANIC(srv->store, "what=wal_sync error=\"%s\"", strerror(err));
	srv->syncing = false;
	flush_all(srv);
	conn_release_later(srv);
}

/* Once per iteration, before the loop waits: commit, then release replies and events (with a
 * syncer: once the commit is on the disk, see sync_done). With a syncer too each iteration
 * commits: holding the transaction open while a sync ran (one commit per sync) gained
 * nothing measurable and kept SQLite's write lock through every sync, so another process
 * (tengend grant) waited for it, or timed out on a slow disk (docs/benchmarks.md, "Ninth
 * round"). */
static void on_prepare(uv_prepare_t *h)
{
	struct server *srv = h->data;
	uint64_t t0 = uv_hrtime(), t1 = t0;
	if (srv->txn) {
		srv->txn = false;
		check_files(srv);
		/* Memory is ahead of the database if this fails; nothing was reported yet. Stop
		 * at once: a restart rebuilds every game from what did commit. */
		if (store_commit(srv->store) != STORE_OK)
			CORE_PANIC(srv->store, "what=store_commit");
		t1 = uv_hrtime();
		srv->unsynced = srv->syncer != NULL;
		upkeep_after_commit(&srv->upkeep, srv->stopping);
	}
	srv->turn++; /* the turn ends with its commit and its replies: new budgets */
	srv->turn_used = 0;
	uint64_t t2 = uv_hrtime();
	if (!srv->syncing) { /* else the output waits for the sync under way */
		if (srv->unsynced)
			sync_begin(srv);
		else
			flush_all(srv);
	}
	uint64_t t3 = uv_hrtime();
	upkeep_fold(&srv->upkeep, srv->txn || srv->stopping);
	char line[UPKEEP_LINE_MAX];
	bool due = loopstat_due(&srv->loopstat);
	if (due) {
		upkeep_stats_line(&srv->upkeep, line, sizeof line);
		if (srv->syncer) {
			uint64_t mx, n;
			size_t k = strlen(line);
			syncer_stats(srv->syncer, &mx, &n);
			snprintf(line + k, sizeof line - k, " syncs=%llu sync_max_ms=%.3f",
				 (unsigned long long)n, mx / 1e6);
		}
	}
	loopstat_step(&srv->loopstat, t1 - t0, t3 - t2, due ? line : NULL);
}

static void on_signal(uv_signal_t *h, int signum)
{
	struct server *srv = h->data;
	log_msg(LOGL_INFO, "signal", "signum=%d", signum);
	server_stop(srv);
}

void server_settings_defaults(struct server_settings *set)
{
	if (!set->max_queued_per_address)
		set->max_queued_per_address = SERVER_MAX_QUEUED_PER_ADDRESS;
	if (!set->address_units)
		set->address_units = SERVER_ADDR_UNITS;
	if (!set->turn_units)
		set->turn_units = SERVER_TURN_UNITS;
	if (!set->register_per_address)
		set->register_per_address = SERVER_REGISTER_PER_ADDRESS;
	if (!set->login_fails_per_address)
		set->login_fails_per_address = SERVER_LOGIN_ADDR_FAILS;
	if (!set->login_hashing_per_address)
		set->login_hashing_per_address = SERVER_LOGIN_HASHING_PER_ADDRESS;
	if (!set->max_http_per_address)
		set->max_http_per_address = SERVER_MAX_HTTP_PER_ADDRESS;
	if (!set->max_http) /* at least one, whatever --max-connections is */
		set->max_http = set->max_connections >= SERVER_HTTP_SHARE ?
				set->max_connections / SERVER_HTTP_SHARE : 1;
}

int server_open(struct server *srv, uv_loop_t *loop, const struct server_settings *set)
{
	char err[STORE_ERR_MAX];
	memset(srv, 0, sizeof *srv);
	srv->loop = loop;
	srv->set = *set;
	server_settings_defaults(&srv->set);
	struct store_options so = set->store;
	so.write_check = true;
	so.manual_checkpoints = true; /* the upkeep thread's (upkeep_start), or on again there */
	enum store_rc r = store_open_ex(set->db_path, &so, &srv->store, err, sizeof err);
	if (r != STORE_OK) {
		log_msg(LOGL_ERROR, "store_open", "path=%s error=\"%s%s\"", set->db_path, err,
			r == STORE_NOT_FOUND ? "; make a new one there with `tengend init --db PATH` (or start "
			"once with --create)" : "");
		return -1;
	}
	log_msg(LOGL_INFO, "store_open", "path=%s sync=%s", set->db_path,
		so.sync == STORE_SYNC_LOSE_ON_POWER_CUT ? "lose-on-power-cut" : "power-safe");
	/* when the daemon last ran: games_load credits the downtime since to lateness */
	if (store_alive_get(srv->store, &srv->down_since) != STORE_OK) {
		log_msg(LOGL_WARN, "alive", "error=\"%s\"", store_errmsg(srv->store));
		srv->down_since = 0;
	}
	return 0;
}

/* --sync power-safe-thread: the WAL's fsync on the syncer thread, if the database has a file
 * and the thread starts; else (logged) the commit syncs, as with power-safe. */
static void syncer_open(struct server *srv)
{
	char wal[SERVER_WAL_PATH_MAX];
	int err = 0;
	if (srv->set.store.sync != STORE_SYNC_POWER_SAFE || !srv->set.sync_thread)
		return;
	if (store_wal_path(srv->store, wal, sizeof wal) != STORE_OK) {
		log_msg(LOGL_INFO, "syncer", "mode=in_commit reason=\"%s\"", store_errmsg(srv->store));
		return;
	}
	srv->syncer = syncer_start(srv->loop, wal, srv->set.sync_test_delay_ms, sync_done, srv, &err);
	if (!srv->syncer) {
		log_msg(LOGL_WARN, "syncer", "mode=in_commit reason=\"%s\"", strerror(err));
		return;
	}
	if (store_sync_detach(srv->store) != STORE_OK) {
		log_msg(LOGL_WARN, "syncer", "mode=in_commit reason=\"%s\"", store_errmsg(srv->store));
		syncer_stop(srv->syncer);
		srv->syncer = NULL;
		return;
	}
	log_msg(LOGL_INFO, "syncer", "mode=thread wal=%s", wal);
}

void server_start(struct server *srv)
{
	uv_loop_t *loop = srv->loop;
	loopstat_start(&srv->loopstat, loop, srv->set.loop_stats_s);
	upkeep_start(&srv->upkeep, loop, srv->store, srv->set.fold_rows,
		     srv->set.fold_ms ? srv->set.fold_ms : SERVER_FOLD_MS);
	syncer_open(srv);
	uv_prepare_init(loop, &srv->prepare);
	srv->prepare.data = srv;
	uv_prepare_start(&srv->prepare, on_prepare);
	uv_timer_init(loop, &srv->dbcheck);
	srv->dbcheck.data = srv;
	uv_timer_start(&srv->dbcheck, on_dbcheck, SERVER_DB_CHECK_MS, SERVER_DB_CHECK_MS);
	uv_timer_init(loop, &srv->alive);
	srv->alive.data = srv;
	uv_timer_start(&srv->alive, on_alive, SERVER_ALIVE_MS, SERVER_ALIVE_MS);
	mark_alive(srv); /* games_load has read the last mark */
	uv_idle_init(loop, &srv->idle);
	srv->idle.data = srv;
	uv_timer_init(loop, &srv->sweep);
	srv->sweep.data = srv;
	conn_sweep_start(srv);
	uv_signal_init(loop, &srv->sigint);
	uv_signal_init(loop, &srv->sigterm);
	srv->sigint.data = srv->sigterm.data = srv;
	uv_signal_start(&srv->sigint, on_signal, SIGINT);
	uv_signal_start(&srv->sigterm, on_signal, SIGTERM);
	srv->started = true;
}

void server_set_line(struct server *srv, server_line_fn line, void *ctx)
{
	srv->line = line;
	srv->line_ctx = ctx;
}

int server_add_flush(struct server *srv, server_hook_fn flush, void *ctx)
{
	if (srv->nflush >= SERVER_FLUSH_HOOKS)
		return -1;
	srv->flush[srv->nflush++] = (struct server_hook){flush, ctx};
	return 0;
}

int server_add_stop(struct server *srv, server_hook_fn stop, void *ctx)
{
	if (srv->nstop >= SERVER_STOP_HOOKS)
		return -1;
	srv->stop[srv->nstop++] = (struct server_hook){stop, ctx};
	return 0;
}

void server_set_conn_gone(struct server *srv, server_conn_fn gone)
{
	srv->conn_gone = gone;
}

static void on_last_close(uv_handle_t *h)
{
	(void)h;
}

void server_set_last_writes(struct server *srv, server_hook_fn fn, void *ctx)
{
	srv->last_writes = (struct server_hook){fn, ctx};
}

void server_stop(struct server *srv)
{
	if (srv->stopping)
		return;
	srv->stopping = true;
	if (srv->started && srv->last_writes.fn)
		srv->last_writes.fn(srv->last_writes.ctx);
	if (srv->started) /* a clean stop: the downtime starts now */
		mark_alive(srv);
	/* Commit what this iteration did (before the transport flushes the replies: they must
	 * not report a change that did not commit), then flush and close every connection. */
	server_commit_now(srv);
	if (srv->syncer) {
		/* Everything on the disk before the stop hooks write what the connections hold. */
		int e = syncer_sync_now(srv->syncer);
		if (e)
			CORE_PANIC(srv->store, "what=wal_sync error=\"%s\"", strerror(e));
		srv->syncing = srv->unsynced = false;
		conn_release_later(srv);
	}
	for (unsigned i = 0; i < srv->nstop; i++)
		srv->stop[i].fn(srv->stop[i].ctx);
	if (!srv->started)
		return;
	upkeep_stop(&srv->upkeep); /* the upkeep thread ends; its async handle closes */
	if (srv->syncer) {
		syncer_stop(srv->syncer);
		srv->syncer = NULL;
	}
	uv_close((uv_handle_t *)&srv->sweep, on_last_close);
	uv_close((uv_handle_t *)&srv->prepare, on_last_close);
	uv_close((uv_handle_t *)&srv->dbcheck, on_last_close);
	uv_close((uv_handle_t *)&srv->alive, on_last_close);
	uv_close((uv_handle_t *)&srv->idle, on_last_close);
	uv_close((uv_handle_t *)&srv->sigint, on_last_close);
	uv_close((uv_handle_t *)&srv->sigterm, on_last_close);
}

void server_free(struct server *srv)
{
	idmap_free(&srv->sessions);
	conn_free_hosts(srv);
	/* Leave the moves folded (a restart would fold them too); not after a failed start. */
	upkeep_close(&srv->upkeep, srv->started);
	store_close(srv->store);
	srv->store = NULL;
}
