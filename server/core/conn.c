/* conn: a connection's life in the server. See conn.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conn.h"
#include "log.h"

/* ---- per-address counters ---- */

static unsigned host_hash(const char *addr)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (; *addr; addr++)
		h = (h ^ (unsigned char)*addr) * 16777619u;
	return h % SERVER_HOST_BUCKETS;
}

/* The counters of `addr`, or NULL if none are kept (no connection from it). */
static struct host *host_find(struct server *srv, const char *addr)
{
	if (!srv->hosts)
		return NULL;
	struct host *h = srv->hosts[host_hash(addr)];
	while (h && strcmp(h->addr, addr) != 0)
		h = h->hnext;
	return h;
}

/* The counters of `addr`, made if new, with one more reference. NULL when out of memory. */
static struct host *host_get(struct server *srv, const char *addr)
{
	if (!srv->hosts && !(srv->hosts = calloc(SERVER_HOST_BUCKETS, sizeof *srv->hosts)))
		return NULL;
	struct host **b = &srv->hosts[host_hash(addr)], *h = host_find(srv, addr);
	if (!h) {
		if (!(h = calloc(1, sizeof *h)))
			return NULL;
		snprintf(h->addr, sizeof h->addr, "%s", addr);
		h->hnext = *b;
		*b = h;
	}
	h->refs++;
	return h;
}

static void host_put(struct server *srv, struct host *h)
{
	if (--h->refs > 0)
		return;
	for (struct host **pp = &srv->hosts[host_hash(h->addr)]; *pp; pp = &(*pp)->hnext)
		if (*pp == h) {
			*pp = h->hnext;
			break;
		}
	free(h);
}

void conn_free_hosts(struct server *srv)
{
	free(srv->hosts); /* every connection, so every host, is gone by now */
	srv->hosts = NULL;
}

/* ---- life ---- */

void conn_init(struct conn *c, struct server *srv, const struct conn_ops *ops, const char *addr)
{
	c->ops = ops;
	c->srv = srv;
	c->refs = 1;
	c->serial = ++srv->serial;
	snprintf(c->addr, sizeof c->addr, "%s", addr);
	framing_init(&c->fr);
	c->last_line_ms = uv_now(srv->loop);
	c->heavy = true; /* light once a request of it was (a flood of new connections is not) */
}

/* Put c (its host set) on srv's list of connections. */
static void link_conn(struct conn *c)
{
	struct server *srv = c->srv;
	c->next = srv->conns;
	if (srv->conns)
		srv->conns->prev = c;
	srv->conns = c;
	srv->nconns++;
}

const char *conn_add(struct conn *c)
{
	struct server *srv = c->srv;
	if (!(c->host = host_get(srv, c->addr)))
		return "out of memory";
	const char *refuse = NULL;
	if (srv->nconns + srv->nhttp >= srv->set.max_connections)
		refuse = "too many connections";
	else if (c->host->nconns >= srv->set.max_per_address)
		refuse = "too many connections from this address";
	link_conn(c);
	c->host->nconns++;
	return refuse;
}

const char *conn_add_pending(struct conn *c, unsigned max_pending)
{
	struct server *srv = c->srv;
	if (!(c->host = host_get(srv, c->addr)))
		return "out of memory";
	const char *refuse = NULL;
	if (srv->nconns + srv->nhttp >= srv->set.max_connections)
		refuse = "too many connections";
	else if (c->host->pending >= max_pending)
		refuse = "too many connections waiting for a PROXY header";
	link_conn(c);
	c->host->pending++;
	c->pending = true;
	return refuse;
}

const char *conn_http_refusal(struct server *srv, const char *addr, bool per_address)
{
	if (srv->nconns + srv->nhttp >= srv->set.max_connections)
		return "too many connections";
	if (srv->nhttp >= srv->set.max_http)
		return "too many HTTP connections";
	struct host *h = per_address ? host_find(srv, addr) : NULL;
	if (h && h->http >= srv->set.max_http_per_address)
		return "too many HTTP connections from this address";
	return NULL;
}

const char *conn_http_add(struct server *srv, const char *addr, bool per_address,
			  struct host **hp)
{
	*hp = NULL;
	const char *refuse = conn_http_refusal(srv, addr, per_address);
	if (refuse)
		return refuse;
	struct host *h = host_get(srv, addr);
	if (!h)
		return "out of memory";
	h->http++;
	srv->nhttp++;
	*hp = h;
	return NULL;
}

void conn_http_done(struct server *srv, struct host *h)
{
	h->http--;
	srv->nhttp--;
	host_put(srv, h);
}

const char *conn_set_addr(struct conn *c, const char *addr)
{
	struct server *srv = c->srv;
	struct host *old = c->host, *h = host_get(srv, addr);
	if (!h)
		return "out of memory";
	const char *refuse = NULL;
	if (h->nconns >= srv->set.max_per_address)
		refuse = "too many connections from this address";
	h->nconns++;
	old->pending--;
	c->pending = false;
	old->queued -= c->acct;
	h->queued += c->acct;
	c->host = h;
	host_put(srv, old);
	if (addr != c->addr)
		snprintf(c->addr, sizeof c->addr, "%s", addr);
	return refuse;
}

void conn_acct(struct conn *c)
{
	size_t now = c->outlen + c->laterlen + c->inflight;
	c->host->queued = c->host->queued - c->acct + now;
	c->srv->queued_total = c->srv->queued_total - c->acct + now;
	c->acct = now;
	/* Backpressure: past SERVER_CONN_BACKPRESSURE unsent (SERVER_CONN_BACKPRESSURE_LOW while
	 * all connections hold more than SERVER_QUEUED_SOFT), the connection's lines wait (a
	 * client asking for big replies and not reading them used the loop's turns and memory
	 * until --max-queued cut it off); below half of it they are handled again. */
	size_t limit = c->srv->queued_total > SERVER_QUEUED_SOFT ? SERVER_CONN_BACKPRESSURE_LOW :
		       SERVER_CONN_BACKPRESSURE;
	if (!c->out_full && now > limit) {
		c->out_full = true;
	} else if (c->out_full && now <= limit / 2) {
		c->out_full = false;
		if (!c->closing)
			conn_backlog_add(c);
	}
}

void conn_ref(struct conn *c)
{
	c->refs++;
}

void conn_unref(struct conn *c)
{
	if (--c->refs > 0)
		return;
	if (c->host) {
		c->host->queued -= c->acct;
		c->srv->queued_total -= c->acct;
		host_put(c->srv, c->host);
	}
	framing_free(&c->fr);
	free(c->out);
	free(c->later);
	free(c->observing);
	if (c->ops && c->ops->free)
		c->ops->free(c);
	else
		free(c);
}

static void unlink_conn(struct conn *c)
{
	struct server *srv = c->srv;
	if (c->prev)
		c->prev->next = c->next;
	else
		srv->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	srv->nconns--;
	if (c->pending)
		c->host->pending--;
	else
		c->host->nconns--;
	if (c->in_backlog) {
		struct conn **pp = &srv->backlog;
		srv->backlog_tail = NULL;
		while (*pp) {
			if (*pp == c)
				*pp = c->bl_next;
			else {
				srv->backlog_tail = *pp;
				pp = &(*pp)->bl_next;
			}
		}
		c->in_backlog = false;
	}
	if (c->dirty) {
		for (struct conn **pp = &srv->dirty; *pp; pp = &(*pp)->dnext)
			if (*pp == c) {
				*pp = c->dnext;
				break;
			}
		c->dirty = false;
	}
	if (c->in_later) {
		for (struct conn **pp = &srv->later; *pp; pp = &(*pp)->lnext)
			if (*pp == c) {
				*pp = c->lnext;
				break;
			}
		c->in_later = false;
	}
}

void conn_close(struct conn *c, const char *why)
{
	if (c->closing)
		return;
	c->closing = true;
	log_msg(LOGL_INFO, "disconnect", "conn=%llu addr=%s player=%s why=%s",
		(unsigned long long)c->serial, c->addr, c->player_id ? c->name : "-", why);
	server_session_del(c->srv, c);
	unlink_conn(c);
	if (c->ops && c->ops->close)
		c->ops->close(c);
}

void conn_peer_eof(struct conn *c)
{
	if (c->closing)
		return;
	c->peer_eof = true;
	if (c->ops && c->ops->reading)
		c->ops->reading(c, false);
	conn_eof_check(c);
}

void conn_eof_check(struct conn *c)
{
	if (c->peer_eof && !c->closing && !c->busy && !c->in_backlog && !c->outlen &&
	    !c->laterlen && !c->inflight)
		conn_close(c, c->fr.partial ? "\"closed by peer; its unfinished last line (no newline) "
				"was dropped\"" : "closed by peer");
}

int64_t conn_rtt_ms(struct conn *c)
{
	return c && c->ops && c->ops->rtt_ms ? c->ops->rtt_ms(c) : -1;
}

int64_t conn_lag_credit_ms(struct conn *c, int64_t allowance_ms)
{
	int64_t rtt = conn_rtt_ms(c); /* the transport's measure (conn_ops.rtt_ms) */
	if (rtt < 0)
		return 0;
	return rtt < allowance_ms ? rtt : allowance_ms;
}

int64_t server_player_lag_ms(struct server *srv, int64_t player_id)
{
	int64_t most = 0;
	for (struct conn *c = idmap_get(&srv->sessions, player_id); c; c = c->pnext) {
		int64_t l = conn_lag_credit_ms(c, srv->set.lag_allowance_ms);
		if (l > most)
			most = l;
	}
	return most;
}

/* ---- output ---- */

/* Append len bytes to a growing buffer; false when out of memory. */
static bool buf_add(char **buf, size_t *n, size_t *cap, const char *data, size_t len)
{
	if (*n + len > *cap) {
		size_t ncap = *cap ? *cap : SERVER_OUT_START;
		while (ncap < *n + len)
			ncap *= 2;
		char *b = realloc(*buf, ncap);
		if (!b)
			return false;
		*buf = b;
		*cap = ncap;
	}
	memcpy(*buf + *n, data, len);
	*n += len;
	return true;
}

void server_send_raw(struct conn *c, const char *line, size_t len)
{
	if (c->closing)
		return;
	if (c->outlen + c->laterlen + c->inflight + len > c->srv->set.max_queued) {
		/* A client that does not read its replies and events is cut off; nobody waits. */
		conn_close(c, "slow reader: too many unsent bytes");
		return;
	}
	if (c->host->queued + len > c->srv->set.max_queued_per_address) {
		/* Nor do many such clients from one address hold more than this in all. */
		conn_close(c, "slow reader: too many unsent bytes from this address");
		return;
	}
	struct server *srv = c->srv;
	if (conn_held(c)) {
		/* A sync is under way for what `out` holds: these bytes may tell of a change it does
		 * not cover, so they wait for the next (server.c, sync_done). */
		if (!buf_add(&c->later, &c->laterlen, &c->latercap, line, len)) {
			conn_close(c, "out of memory");
			return;
		}
		conn_acct(c);
		if (!c->in_later) {
			c->in_later = true;
			c->lnext = srv->later;
			srv->later = c;
		}
		return;
	}
	if (!buf_add(&c->out, &c->outlen, &c->outcap, line, len)) {
		conn_close(c, "out of memory");
		return;
	}
	conn_acct(c);
	if (!c->dirty) {
		c->dirty = true;
		c->dnext = srv->dirty;
		srv->dirty = c;
	}
}

void conn_release_later(struct server *srv)
{
	struct conn *c = srv->later;
	srv->later = NULL;
	while (c) {
		struct conn *n = c->lnext;
		c->in_later = false;
		c->lnext = NULL;
		if (!c->closing && c->laterlen) {
			if (!c->outlen) { /* the usual case: no copy */
				char *t = c->out;
				size_t tc = c->outcap;
				c->out = c->later;
				c->outlen = c->laterlen;
				c->outcap = c->latercap;
				c->later = t;
				c->latercap = tc;
			} else if (!buf_add(&c->out, &c->outlen, &c->outcap, c->later, c->laterlen)) {
				c->laterlen = 0;
				conn_close(c, "out of memory");
				c = n;
				continue;
			}
			c->laterlen = 0;
			if (c->latercap > SERVER_OUT_KEEP) {
				free(c->later);
				c->later = NULL;
				c->latercap = 0;
			}
			conn_acct(c);
			if (!c->dirty) {
				c->dirty = true;
				c->dnext = srv->dirty;
				srv->dirty = c;
			}
		}
		c = n;
	}
}

/* Is this line (its "\n" included) longer than any line the server sends? */
static bool line_too_long(size_t len)
{
	return len > (size_t)FRAMING_MAX_SEND_LINE + 1;
}

void server_send(struct conn *c, const json_t *msg)
{
	size_t len;
	char *line = proto_serialize(msg, &len);
	if (!line) {
		log_msg(LOGL_ERROR, "serialize", "conn=%llu", (unsigned long long)c->serial);
		return;
	}
	if (line_too_long(len)) {
		/* Clients read lines of up to FRAMING_MAX_SEND_LINE bytes: a reply that would be
		 * longer becomes an error reply (an event is dropped) so nobody waits forever. */
		free(line);
		log_msg(LOGL_ERROR, "serialize", "conn=%llu too_long=%zu", (unsigned long long)c->serial,
			len - 1);
		const json_t *id = json_object_get(msg, "id");
		if (json_object_get(msg, "event") || !json_object_get(msg, "ok"))
			return;
		struct proto_error err = {.code = PROTO_ERR_INTERNAL};
		snprintf(err.message, sizeof err.message,
			 "the reply would be %zu bytes, more than the %u a line may hold: ask for less",
			 len - 1, FRAMING_MAX_SEND_LINE);
		json_t *r = proto_reply_error_from(id, &err);
		line = r ? proto_serialize(r, &len) : NULL;
		json_decref(r);
		if (!line)
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
	int n = vsnprintf(err.message, sizeof err.message, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof err.message) /* cut short: PROTO_ERROR_MESSAGE_MAX is too small */
		log_msg(LOGL_WARN, "error_message_cut", "bytes=%d max=%zu start=\"%.60s\"", n,
			sizeof err.message - 1, err.message);
	server_reply(c, proto_reply_error_from(id, &err));
	return -1;
}

/* ---- sessions ---- */

void server_session_add(struct server *srv, struct conn *c)
{
	c->pnext = idmap_get(&srv->sessions, c->player_id);
	idmap_put(&srv->sessions, c->player_id, c);
}

void server_session_del(struct server *srv, struct conn *c)
{
	if (srv->conn_gone)
		srv->conn_gone(srv, c);
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

/* ---- lines, within the turn's budgets ---- */

static void on_idle(uv_idle_t *h)
{
	conn_run_backlog(h->data);
}

void conn_backlog_add(struct conn *c)
{
	struct server *srv = c->srv;
	if (c->in_backlog || c->closing)
		return;
	c->in_backlog = true;
	c->bl_next = NULL;
	if (srv->backlog_tail)
		srv->backlog_tail->bl_next = c;
	else
		srv->backlog = c;
	srv->backlog_tail = c;
	uv_idle_start(&srv->idle, on_idle);
}

void conn_resume(struct conn *c)
{
	c->busy = false;
	conn_backlog_add(c);
}

/* May c start a request in this turn: has it, its address and the turn budget left? */
static bool budget_left(struct conn *c)
{
	struct server *srv = c->srv;
	struct host *h = c->host;
	if (c->turn != srv->turn) {
		c->turn = srv->turn;
		c->used = 0;
	}
	if (h->turn != srv->turn) {
		h->turn = srv->turn;
		h->used = 0;
	}
	return c->used < SERVER_CONN_UNITS && h->used < srv->set.address_units &&
	       srv->turn_used < srv->set.turn_units;
}

/* Charge a request that took `ns` of the loop and queued `bytes` of reply (server.h). */
static void charge(struct conn *c, uint64_t ns, size_t bytes)
{
	uint64_t u = 1 + ns / (SERVER_UNIT_US * 1000u) + bytes / SERVER_UNIT_BYTES;
	unsigned units = u > SERVER_UNITS_MAX ? SERVER_UNITS_MAX : (unsigned)u;
	c->used += units;
	c->host->used += units;
	c->srv->turn_used += units;
	c->heavy = units > SERVER_LIGHT_UNITS && !c->urgent;
	c->urgent = false;
}

/* Handle c's lines while the budgets last (budget_left). Returns true if lines remain. */
static bool handle_lines(struct conn *c)
{
	struct server *srv = c->srv;
	for (;;) {
		/* out_full: its lines wait for its replies to drain (conn_acct puts it back) */
		if (c->closing || c->busy || c->out_full || srv->stopping)
			return false;
		if (!budget_left(c))
			break;
		const char *line;
		size_t len;
		enum framing_result r = framing_next(&c->fr, &line, &len);
		if (r == FRAMING_NONE)
			break;
		uint64_t t0 = uv_hrtime();
		size_t out0 = c->outlen;
		if (r == FRAMING_TOO_LONG) {
			server_reply_error(c, NULL, PROTO_ERR_LINE_TOO_LONG,
					   "a line may hold at most %d bytes", FRAMING_MAX_LINE);
		} else {
			c->last_line_ms = uv_now(srv->loop);
			if (len > 0 && srv->line) /* blank lines are ignored (but counted) */
				srv->line(srv->line_ctx, c, line, len);
		}
		charge(c, uv_hrtime() - t0, c->outlen > out0 ? c->outlen - out0 : 0);
	}
	if (c->closing)
		return false;
	size_t pending = framing_pending(&c->fr);
	if (c->paused && pending <= FRAMING_MAX_PARTIAL) {
		c->paused = false;
		if (c->ops && c->ops->reading && !c->peer_eof)
			c->ops->reading(c, true);
	}
	return !c->busy && pending > c->fr.partial;
}

void conn_lines(struct conn *c)
{
	/* While others wait in the backlog, c joins them (light ones are served first there):
	 * handled at once, the connections read first in each turn spent its budget before the
	 * backlog's turn came, and a ping queued behind a flood waited half a second. */
	if (c->in_backlog)
		return; /* its lines are handled in its place there */
	if (c->srv->backlog) {
		conn_backlog_add(c);
		return;
	}
	if (handle_lines(c))
		conn_backlog_add(c);
	else
		conn_eof_check(c);
}

/* One pass over the backlog `list` (its order kept): each connection is served while the
 * budgets last, and one it could not serve goes to *wait. With skip_end, only the light
 * ones are served and the heavy ones go to *skip. Served ones with lines left join
 * srv->backlog. */
static void backlog_pass(struct server *srv, struct conn *list, struct conn ***wait_end,
			 struct conn ***skip_end)
{
	while (list) {
		struct conn *c = list;
		list = c->bl_next;
		if (c->closing) {
			c->in_backlog = false;
			continue;
		}
		if (skip_end && c->heavy) {
			**skip_end = c;
			*skip_end = &c->bl_next;
			continue;
		}
		if (!budget_left(c)) {
			/* Its budget, its address's or the turn's is spent: it keeps its place. */
			**wait_end = c;
			*wait_end = &c->bl_next;
			continue;
		}
		c->in_backlog = false;
		if (handle_lines(c))
			conn_backlog_add(c);
		else
			conn_eof_check(c);
	}
	**wait_end = NULL;
	if (skip_end)
		**skip_end = NULL;
}

void conn_run_backlog(struct server *srv)
{
	/* The connections whose last request was light (a move, a ping) first, then the heavy
	 * ones (a big listing, a record): one heavy client's queued requests delayed another
	 * client's ping by a turn per ~20 of them ahead of it (hundreds of ms). */
	struct conn *list = srv->backlog;
	srv->backlog = srv->backlog_tail = NULL;
	struct conn *wait_light = NULL, **wl = &wait_light, *heavy = NULL, **he = &heavy;
	backlog_pass(srv, list, &wl, &he);
	struct conn *wait_heavy = NULL, **wh = &wait_heavy;
	backlog_pass(srv, heavy, &wh, NULL);
	/* Those that waited go first next time, the light ones before the heavy ones; any
	 * closed meanwhile leave the list. */
	*wl = wait_heavy;
	struct conn *front = NULL, **fe = &front, *last = NULL;
	for (struct conn *c = wait_light, *n; c; c = n) {
		n = c->bl_next;
		if (c->closing) {
			c->in_backlog = false;
			continue;
		}
		*fe = c;
		fe = &c->bl_next;
		last = c;
	}
	if (last) {
		last->bl_next = srv->backlog;
		if (!srv->backlog)
			srv->backlog_tail = last;
		srv->backlog = front;
	}
	if (!srv->backlog)
		uv_idle_stop(&srv->idle);
}

/* ---- idle timeout ---- */

/* Does c have a reason to stay open however quiet it is? A session (a player may think for
 * hours, or wait for challenges), an observed game, a login's hashing or a PROXY header
 * awaited. Lines waiting their turn and unsent bytes are not one: a client that stops reading
 * holds its last requests back (backpressure) for as long as it likes. */
static bool has_reason_to_stay(const struct conn *c)
{
	return c->player_id || c->nobs || c->pending || c->busy;
}

/* Close c if it has waited too long: a partial line (slowloris: it holds an unfinished line,
 * or is inside an over-long one, and sent no complete line for idle_timeout_s), or nothing to
 * wait for (no reason to stay, has_reason_to_stay, for anon_idle_s, counted from its last
 * complete line or the last sweep that found a reason, and one sweep more, whichever came
 * later: a connection that never sends a line, or sent a `ping` once, holds a descriptor and
 * a place within --max-connections for nothing; one whose game ended, or whose session was
 * replaced, gets the whole timeout from then). Returns true if closed. */
static bool idle_close(struct conn *c, uint64_t now)
{
	const struct server_settings *set = &c->srv->set;
	if (c->closing || c->peer_eof)
		return false;
	if (set->idle_timeout_s && (c->fr.partial > 0 || c->fr.discarding) &&
	    now - c->last_line_ms >= (uint64_t)set->idle_timeout_s * 1000) {
		conn_close(c, "idle timeout: partial line");
		return true;
	}
	if (!set->anon_idle_s)
		return false;
	if (has_reason_to_stay(c)) {
		c->kept_ms = now;
		return false;
	}
	/* kept_ms is the sweep before the reason went (a game's end, a replacement): a sweep
	 * later, so that it gets the whole timeout from then, its last events long written. */
	uint64_t limit = (uint64_t)set->anon_idle_s * 1000, since = c->last_line_ms;
	if (c->kept_ms > c->last_line_ms) {
		since = c->kept_ms;
		limit += SERVER_IDLE_SWEEP_MS;
	}
	if (now - since >= limit) {
		conn_close(c, "\"idle timeout: not logged in, observing no game\"");
		return true;
	}
	return false;
}

static void on_sweep(uv_timer_t *t)
{
	struct server *srv = t->data;
	uint64_t now = uv_now(srv->loop);
	for (struct conn *c = srv->conns, *n; c; c = n) {
		n = c->next;
		if (!idle_close(c, now))
			conn_eof_check(c); /* a half-closed client whose last line made no write */
	}
}

void conn_sweep_start(struct server *srv)
{
	if (srv->set.idle_timeout_s || srv->set.anon_idle_s)
		uv_timer_start(&srv->sweep, on_sweep, SERVER_IDLE_SWEEP_MS, SERVER_IDLE_SWEEP_MS);
}
