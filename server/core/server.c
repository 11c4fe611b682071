/* server: state, dispatch, group commit. See server.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include "accounts.h"
#include "cmd_games.h"
#include "games.h"
#include "jsonout.h"
#include "log.h"
#include "net.h"
#include "tournaments.h"
#include "server.h"

double server_now(void)
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

int server_txn(struct server *srv)
{
	srv->data_gen++; /* every change starts here: cached replies (reply_cached) are stale */
	if (srv->txn)
		return 0;
	if (store_begin(srv->store) != STORE_OK) {
		log_msg(LOGL_ERROR, "store_begin", "error=\"%s\"", store_errmsg(srv->store));
		return -1;
	}
	srv->txn = true;
	return 0;
}

/* The worker thread: a passive checkpoint on the second connection (its fsyncs happen here,
 * not on the loop). */
static void ckpt_work(uv_work_t *w)
{
	struct server *srv = w->data;
	srv->ckpt_rc = store_ckpt_run(srv->ckpt, NULL, NULL);
}

static void ckpt_done(uv_work_t *w, int status)
{
	struct server *srv = w->data;
	srv->ckpt_busy = false;
	if (status == 0 && srv->ckpt_rc != STORE_OK)
		log_msg(LOGL_WARN, "checkpoint", "error=\"%s\"", store_ckpt_errmsg(srv->ckpt));
}

/* After a commit: start a checkpoint off the loop once SERVER_CKPT_FRAMES frames were added
 * since the last one. A passive checkpoint beside steady commits rarely copies the whole WAL,
 * which only then starts over from its beginning: past SERVER_WAL_MAX_FRAMES the loop copies
 * the rest itself (one stall, instead of one every 1000 pages). */
static void maybe_checkpoint(struct server *srv)
{
	int frames = store_wal_frames(srv->store);
	if (frames < srv->ckpt_from)
		srv->ckpt_from = 0; /* the WAL started over */
	if (srv->ckpt_busy || srv->stopping)
		return;
	if (frames >= SERVER_WAL_MAX_FRAMES) {
		int copied = 0;
		if (store_checkpoint(srv->store, NULL, &copied) != STORE_OK)
			log_msg(LOGL_WARN, "checkpoint", "error=\"%s\"", store_errmsg(srv->store));
		else
			log_msg(LOGL_INFO, "checkpoint", "on_loop=1 frames=%d copied=%d", frames, copied);
		srv->ckpt_from = frames;
		return;
	}
	if (frames - srv->ckpt_from < SERVER_CKPT_FRAMES)
		return;
	srv->ckpt_from = frames;
	srv->ckpt_work.data = srv;
	if (uv_queue_work(srv->loop, &srv->ckpt_work, ckpt_work, ckpt_done) == 0)
		srv->ckpt_busy = true;
}

/* After the iteration's commit and flush: fold the move journal into moves (store.h,
 * store_journal_fold) once it holds --fold-rows moves or its oldest move is SERVER_FOLD_MS
 * old. A fold that fails leaves the moves in the journal, where they are read as well, and is
 * retried after a wait that doubles up to SERVER_FOLD_RETRY_MAX_MS. */
static void maybe_fold(struct server *srv)
{
	size_t rows = store_journal_rows(srv->store);
	uint64_t now = uv_now(srv->loop);
	if (!rows) {
		srv->fold_due = 0;
		return;
	}
	if (!srv->fold_due)
		srv->fold_due = now + SERVER_FOLD_MS;
	if (srv->txn || srv->stopping || now < srv->fold_retry_at ||
	    (rows < srv->set.fold_rows && now < srv->fold_due))
		return;
	uint64_t t0 = uv_hrtime();
	int folded = 0;
	if (store_journal_fold(srv->store, &folded) != STORE_OK) {
		srv->fold_backoff = srv->fold_backoff ? 2 * srv->fold_backoff : SERVER_FOLD_MS;
		if (srv->fold_backoff > SERVER_FOLD_RETRY_MAX_MS)
			srv->fold_backoff = SERVER_FOLD_RETRY_MAX_MS;
		srv->fold_retry_at = now + srv->fold_backoff;
		log_msg(LOGL_WARN, "fold", "moves=%zu retry_ms=%llu error=\"%s\"", rows,
			(unsigned long long)srv->fold_backoff, store_errmsg(srv->store));
		return;
	}
	srv->fold_due = srv->fold_retry_at = srv->fold_backoff = 0;
	log_msg(LOGL_DEBUG, "fold", "moves=%d ms=%.1f", folded, (double)(uv_hrtime() - t0) / 1e6);
}

/* The database's files deleted or replaced under the daemon: what it commits would go to a
 * file nobody finds again (and the next start would not find the games). Stop at once, loudly,
 * with nothing of this iteration reported. */
static void check_files(struct server *srv)
{
	enum store_rc r = store_files_check(srv->store);
	if (r == STORE_NOT_FOUND) {
		log_msg(LOGL_ERROR, "database_gone", "path=%s error=\"%s; stopping, nothing more is "
			"acknowledged\"", srv->set.db_path, store_errmsg(srv->store));
		exit(1);
	}
	if (r != STORE_OK)
		log_msg(LOGL_WARN, "database_check", "error=\"%s\"", store_errmsg(srv->store));
}

static void on_dbcheck(uv_timer_t *t)
{
	check_files(t->data);
}

/* Once per iteration, before the loop waits: commit, then release replies and events. */
static void on_prepare(uv_prepare_t *h)
{
	struct server *srv = h->data;
	if (srv->txn) {
		srv->txn = false;
		check_files(srv);
		if (store_commit(srv->store) != STORE_OK) {
			/* Memory is ahead of the database; nothing was reported yet. Stop at once:
			 * a restart rebuilds every game from what did commit. */
			log_msg(LOGL_ERROR, "store_commit", "error=\"%s\"", store_errmsg(srv->store));
			exit(1);
		}
		if (srv->ckpt)
			maybe_checkpoint(srv);
	}
	net_flush(srv);
	maybe_fold(srv);
}

void server_send(struct conn *c, const json_t *msg)
{
	size_t len;
	char *line = proto_serialize(msg, &len);
	if (!line) {
		log_msg(LOGL_ERROR, "serialize", "conn=%llu", (unsigned long long)c->serial);
		return;
	}
	server_send_raw(c, line, len);
	free(line);
}

void server_send_player_raw(struct server *srv, int64_t player_id, const char *line, size_t len)
{
	for (struct conn *c = idmap_get(&srv->sessions, player_id), *n; c; c = n) {
		n = c->pnext; /* server_send_raw may cut c off */
		server_send_raw(c, line, len);
	}
}

void server_send_player(struct server *srv, int64_t player_id, const json_t *msg)
{
	if (!idmap_get(&srv->sessions, player_id))
		return;
	size_t len;
	char *line = proto_serialize(msg, &len);
	if (!line)
		return;
	server_send_player_raw(srv, player_id, line, len);
	free(line);
}

void server_reply(struct conn *c, json_t *reply)
{
	if (reply)
		server_send(c, reply);
	json_decref(reply);
}

int server_reply_error(struct conn *c, const json_t *id, enum proto_errcode code, const char *fmt, ...)
{
	struct proto_error err = {.code = code};
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err.message, sizeof err.message, fmt, ap);
	va_end(ap);
	server_reply(c, proto_reply_error_from(id, &err));
	return -1;
}

void server_session_add(struct server *srv, struct conn *c)
{
	c->pnext = idmap_get(&srv->sessions, c->player_id);
	idmap_put(&srv->sessions, c->player_id, c);
}

void server_session_del(struct server *srv, struct conn *c)
{
	games_conn_gone(srv, c);
	if (!c->player_id)
		return;
	struct conn *first = idmap_get(&srv->sessions, c->player_id);
	if (first == c) {
		if (c->pnext)
			idmap_put(&srv->sessions, c->player_id, c->pnext);
		else
			idmap_del(&srv->sessions, c->player_id);
	} else {
		for (struct conn *p = first; p; p = p->pnext)
			if (p->pnext == c) {
				p->pnext = c->pnext;
				break;
			}
	}
	c->pnext = NULL;
	c->player_id = 0;
}

/* ---- cached replies: reading the same listing again costs a copy ---- */

/* The key of a cacheable request (the `games` listing: no live clocks in it, it changes only
 * through a store change): the request without its id, or NULL. */
static char *cache_key(const struct proto_request *req)
{
	if (req->cmd->id != PROTO_CMD_GAMES)
		return NULL;
	json_t *k = json_copy(req->root);
	if (!k)
		return NULL;
	json_object_del(k, "id");
	char *key = json_dumps(k, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(k);
	return key;
}

/* Reply to c from the cache if an entry for `key` is current. */
static bool reply_cached(struct conn *c, const struct proto_request *req, const char *key)
{
	struct server *srv = c->srv;
	for (int i = 0; i < SERVER_CACHE_ENTRIES; i++) {
		struct reply_cache *e = &srv->cache[i];
		if (!e->key || e->gen != srv->data_gen || strcmp(e->key, key) != 0)
			continue;
		size_t idlen;
		char *id = jsonout_dumps(req->id ? req->id : json_null(), 0, &idlen);
		char *line = id ? malloc(6 + idlen + e->len) : NULL;
		if (!line) {
			free(id);
			return false;
		}
		memcpy(line, "{\"id\":", 6);
		memcpy(line + 6, id, idlen);
		memcpy(line + 6 + idlen, e->suffix, e->len);
		server_send_raw(c, line, 6 + idlen + e->len);
		free(line);
		free(id);
		e->used = ++srv->cache_clock;
		return true;
	}
	return false;
}

/* Keep the reply just queued on c (bytes from `from`) for `key`: a success, one line. Returns
 * true if it took `key`. */
static bool cache_put(struct conn *c, char *key, size_t from)
{
	struct server *srv = c->srv;
	if (c->closing || c->outlen <= from)
		return false;
	const char *line = c->out + from, *end = c->out + c->outlen;
	size_t len = c->outlen - from;
	/* {"id":ID,"ok":true,... : ID is a scalar, so the first ,"ok":true, is after it */
	static const char okm[] = ",\"ok\":true,";
	const char *ok = NULL;
	if (len > 6 && memcmp(line, "{\"id\":", 6) == 0)
		for (const char *p = line + 6; !ok && p + sizeof okm - 1 <= end; p++)
			if (*p == ',' && memcmp(p, okm, sizeof okm - 1) == 0)
				ok = p;
	if (!ok || memchr(line, '\n', len) != end - 1)
		return false;
	struct reply_cache *e = &srv->cache[0];
	for (int i = 0; i < SERVER_CACHE_ENTRIES; i++) {
		struct reply_cache *x = &srv->cache[i];
		if (!x->key || x->gen != srv->data_gen) {
			e = x;
			break;
		}
		if (x->used < e->used)
			e = x;
	}
	char *suffix = malloc((size_t)(end - ok));
	if (!suffix)
		return false;
	memcpy(suffix, ok, (size_t)(end - ok));
	free(e->key);
	free(e->suffix);
	e->key = key; /* taken */
	e->suffix = suffix;
	e->len = (size_t)(end - ok);
	e->gen = srv->data_gen;
	e->used = ++srv->cache_clock;
	return true;
}

static void cache_free(struct server *srv)
{
	for (int i = 0; i < SERVER_CACHE_ENTRIES; i++) {
		free(srv->cache[i].key);
		free(srv->cache[i].suffix);
		srv->cache[i] = (struct reply_cache){0};
	}
}

typedef void (*handler_fn)(struct conn *c, const struct proto_request *req);

static const handler_fn handlers[PROTO_CMD_COUNT] = {
	[PROTO_CMD_HELLO] = accounts_hello,
	[PROTO_CMD_PING] = accounts_ping,
	[PROTO_CMD_REGISTER] = accounts_register,
	[PROTO_CMD_LOGIN] = accounts_login,
	[PROTO_CMD_LOGOUT] = accounts_logout,
	[PROTO_CMD_PLAYERS] = accounts_players,
	[PROTO_CMD_PLAYER] = accounts_player,
	[PROTO_CMD_CHALLENGE] = games_challenge,
	[PROTO_CMD_ACCEPT] = games_accept,
	[PROTO_CMD_DECLINE] = games_decline,
	[PROTO_CMD_CHALLENGES] = games_challenges,
	[PROTO_CMD_PLAY] = games_play,
	[PROTO_CMD_JOIN] = games_join,
	[PROTO_CMD_GAME_PAUSE] = games_pause,
	[PROTO_CMD_GAME_RESUME] = games_resume,
	[PROTO_CMD_RESIGN] = games_resign,
	[PROTO_CMD_DEAD] = games_dead,
	[PROTO_CMD_GAME] = games_game,
	[PROTO_CMD_GAMES] = games_games,
	[PROTO_CMD_SGF] = games_sgf,
	[PROTO_CMD_OBSERVE] = games_observe,
	[PROTO_CMD_UNOBSERVE] = games_unobserve,
	[PROTO_CMD_TOURNAMENT_CREATE] = tournaments_create,
	[PROTO_CMD_TOURNAMENT_REGISTER] = tournaments_register,
	[PROTO_CMD_TOURNAMENT_JOIN] = tournaments_join,
	[PROTO_CMD_TOURNAMENT_WITHDRAW] = tournaments_withdraw,
	[PROTO_CMD_TOURNAMENT_START_ROUND] = tournaments_start_round,
	[PROTO_CMD_TOURNAMENT_RESULT] = tournaments_result,
	[PROTO_CMD_TOURNAMENT_WARN] = tournaments_warn,
	[PROTO_CMD_TOURNAMENT_PAIRINGS] = tournaments_pairings,
	[PROTO_CMD_TOURNAMENT_STANDINGS] = tournaments_standings,
	[PROTO_CMD_TOURNAMENT_LIST] = tournaments_list,
	[PROTO_CMD_TOURNAMENT_GET] = tournaments_get,
	[PROTO_CMD_TOURNAMENT_EXPORT] = tournaments_export,
};

void server_handle_line(struct conn *c, const char *line, size_t len)
{
	struct proto_request req;
	struct proto_error err = {0};
	if (proto_parse(line, len, &req, &err) < 0) {
		server_reply(c, proto_reply_error_from(req.id, &err));
		proto_request_free(&req);
		return;
	}
	if (proto_command_allowed(req.cmd, c->player_id != 0, c->role, &err) < 0) {
		server_reply(c, proto_reply_error_from(req.id, &err));
	} else if (!handlers[req.cmd->id]) {
		server_reply_error(c, req.id, PROTO_ERR_UNKNOWN_COMMAND,
				   "command '%s' is not available on this server yet", req.cmd->name);
	} else {
		char *key = cache_key(&req);
		size_t from = c->outlen;
		if (!key || !reply_cached(c, &req, key)) {
			uint64_t gen = c->srv->data_gen;
			handlers[req.cmd->id](c, &req);
			if (key && gen == c->srv->data_gen && cache_put(c, key, from))
				key = NULL;
		}
		free(key);
	}
	proto_request_free(&req);
}

static void on_signal(uv_signal_t *h, int signum)
{
	struct server *srv = h->data;
	log_msg(LOGL_INFO, "signal", "signum=%d", signum);
	server_stop(srv);
}

int server_start(struct server *srv, uv_loop_t *loop, const struct server_settings *set)
{
	char err[STORE_ERR_MAX];
	memset(srv, 0, sizeof *srv);
	srv->loop = loop;
	srv->set = *set;
	struct store_options so = set->store;
	so.write_check = true;
	enum store_rc r = store_open_ex(set->db_path, &so, &srv->store, err, sizeof err);
	if (r != STORE_OK) {
		log_msg(LOGL_ERROR, "store_open", "path=%s error=\"%s%s\"", set->db_path, err,
			r == STORE_NOT_FOUND ? "; make a new one there with `tengend init --db PATH` (or start "
			"once with --create)" : "");
		return -1;
	}
	log_msg(LOGL_INFO, "store_open", "path=%s sync=%s", set->db_path,
		so.sync == STORE_SYNC_LOSE_ON_POWER_CUT ? "lose-on-power-cut" : "power-safe");
	if (games_load(srv) < 0) {
		games_stop(srv); /* the games loaded so far: no timer may fire without a store */
		store_close(srv->store);
		srv->store = NULL;
		return -1;
	}
	/* Checkpoints off the loop; without the second connection SQLite's own ones stay on. */
	if (store_ckpt_open(srv->store, &srv->ckpt, err, sizeof err) == STORE_OK)
		store_wal_manual(srv->store);
	else
		log_msg(LOGL_INFO, "checkpoint", "mode=automatic reason=\"%s\"", err);
	uv_prepare_init(loop, &srv->prepare);
	srv->prepare.data = srv;
	uv_prepare_start(&srv->prepare, on_prepare);
	uv_timer_init(loop, &srv->dbcheck);
	srv->dbcheck.data = srv;
	uv_timer_start(&srv->dbcheck, on_dbcheck, SERVER_DB_CHECK_MS, SERVER_DB_CHECK_MS);
	uv_idle_init(loop, &srv->idle);
	srv->idle.data = srv;
	uv_signal_init(loop, &srv->sigint);
	uv_signal_init(loop, &srv->sigterm);
	srv->sigint.data = srv->sigterm.data = srv;
	uv_signal_start(&srv->sigint, on_signal, SIGINT);
	uv_signal_start(&srv->sigterm, on_signal, SIGTERM);
	if (net_listen(srv) < 0) {
		server_stop(srv);
		return -1;
	}
	return 0;
}

static void on_last_close(uv_handle_t *h)
{
	(void)h;
}

void server_stop(struct server *srv)
{
	if (srv->stopping)
		return;
	srv->stopping = true;
	/* Commit what this iteration did, then flush and close every connection. */
	if (srv->txn) {
		srv->txn = false;
		if (store_commit(srv->store) != STORE_OK)
			log_msg(LOGL_ERROR, "store_commit", "error=\"%s\"", store_errmsg(srv->store));
	}
	if (srv->listener.loop)
		net_shutdown(srv);
	games_stop(srv);
	uv_close((uv_handle_t *)&srv->prepare, on_last_close);
	uv_close((uv_handle_t *)&srv->dbcheck, on_last_close);
	uv_close((uv_handle_t *)&srv->idle, on_last_close);
	uv_close((uv_handle_t *)&srv->sigint, on_last_close);
	uv_close((uv_handle_t *)&srv->sigterm, on_last_close);
}

void server_free(struct server *srv)
{
	games_free(srv);
	idmap_free(&srv->sessions);
	accounts_free(srv);
	cache_free(srv);
	net_free(srv);
	store_ckpt_close(srv->ckpt);
	srv->ckpt = NULL;
	/* Leave the moves folded (a restart would fold them too). */
	if (srv->store && store_journal_rows(srv->store) &&
	    store_journal_fold(srv->store, NULL) != STORE_OK)
		log_msg(LOGL_WARN, "fold", "error=\"%s\"", store_errmsg(srv->store));
	store_close(srv->store);
	srv->store = NULL;
}
