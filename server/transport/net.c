/* net: connections on libuv. See net.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "games.h"
#include "log.h"
#include "net.h"
#include "writer.h"

static char read_buffer[SERVER_READ_BUFFER]; /* one loop thread: fed to framing at once */

struct write_req {
	uv_write_t req;
	struct conn *c;
	char *data;
	size_t len;
};

static void on_close(uv_handle_t *h)
{
	net_unref((struct conn *)h->data);
}

/* ---- per-address counters ---- */

static unsigned host_hash(const char *addr)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (; *addr; addr++)
		h = (h ^ (unsigned char)*addr) * 16777619u;
	return h % SERVER_HOST_BUCKETS;
}

/* The counters of `addr`, made if new, with one more reference. NULL when out of memory. */
static struct host *host_get(struct server *srv, const char *addr)
{
	if (!srv->hosts && !(srv->hosts = calloc(SERVER_HOST_BUCKETS, sizeof *srv->hosts)))
		return NULL;
	struct host **b = &srv->hosts[host_hash(addr)], *h;
	for (h = *b; h; h = h->hnext)
		if (strcmp(h->addr, addr) == 0)
			break;
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

int net_host_attach(struct conn *c)
{
	if (!(c->host = host_get(c->srv, c->addr)))
		return -1;
	c->host->nconns++;
	return 0;
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

void net_free(struct server *srv)
{
	free(srv->hosts); /* every connection, so every host, is gone by now */
	srv->hosts = NULL;
}

/* After c's outlen or inflight changed: its address's count of unsent bytes follows. */
static void acct(struct conn *c)
{
	size_t now = c->outlen + c->inflight;
	c->host->queued = c->host->queued - c->acct + now;
	c->acct = now;
}

void net_unref(struct conn *c)
{
	if (--c->refs > 0)
		return;
	if (c->host) {
		c->host->queued -= c->acct;
		host_put(c->srv, c->host);
	}
	framing_free(&c->fr);
	free(c->out);
	free(c->observing);
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
}

void net_close(struct conn *c, const char *why)
{
	if (c->closing)
		return;
	c->closing = true;
	log_msg(LOGL_INFO, "disconnect", "conn=%llu addr=%s player=%s why=%s",
		(unsigned long long)c->serial, c->addr, c->player_id ? c->name : "-", why);
	server_session_del(c->srv, c);
	unlink_conn(c);
	if (c->in_writer) {
		/* The writer thread may be writing to its descriptor: close once it is done. */
		uv_read_stop((uv_stream_t *)&c->tcp);
		c->close_deferred = true;
		return;
	}
	uv_close((uv_handle_t *)&c->tcp, on_close);
}

static void on_write(uv_write_t *req, int status)
{
	struct write_req *w = (struct write_req *)req;
	w->c->inflight -= w->len;
	acct(w->c);
	if (status < 0 && status != UV_ECANCELED && !w->c->closing)
		net_close(w->c, uv_strerror(status));
	net_unref(w->c);
	free(w->data);
	free(w);
}

/* Hand `len` bytes at the start of buf (malloc'd) to uv_write, behind whatever of c it holds. */
static void queue_rest(struct conn *c, char *buf, size_t len)
{
	struct write_req *w = malloc(sizeof *w);
	if (!w) {
		free(buf);
		net_close(c, "out of memory");
		return;
	}
	w->c = c;
	w->data = buf;
	w->len = len;
	c->inflight += len;
	acct(c);
	c->refs++;
	uv_buf_t b = uv_buf_init(buf, (unsigned)len);
	int r = uv_write(&w->req, (uv_stream_t *)&c->tcp, &b, 1, on_write);
	if (r < 0) {
		c->inflight -= len;
		acct(c);
		free(buf);
		free(w);
		net_unref(c);
		net_close(c, uv_strerror(r));
	}
}

/* After c's buffer was emptied: a big reply's buffer is not kept. */
static void trim_out(struct conn *c)
{
	if (c->outcap > SERVER_OUT_KEEP) {
		free(c->out);
		c->out = NULL;
		c->outcap = 0;
	}
}

static void write_out(struct conn *c)
{
	if (!c->outlen || c->closing)
		return;
	size_t off = 0;
	if (!c->inflight) {
		/* Nothing of c is queued in libuv, so a direct write keeps the order. Most complete
		 * at once: no write request, no copy, no epoll change, and the buffer is kept. */
		uv_buf_t tb = uv_buf_init(c->out, (unsigned)c->outlen);
		int n = uv_try_write((uv_stream_t *)&c->tcp, &tb, 1);
		if (n < 0 && n != UV_EAGAIN) {
			net_close(c, uv_strerror(n));
			return;
		}
		off = n > 0 ? (size_t)n : 0;
		if (off == c->outlen) {
			c->outlen = 0;
			acct(c);
			trim_out(c);
			return;
		}
	}
	/* The rest goes to uv_write, which keeps it in order behind earlier writes. */
	size_t len = c->outlen - off;
	char *buf;
	if (off) {
		if (!(buf = malloc(len))) {
			net_close(c, "out of memory");
			return;
		}
		memcpy(buf, c->out + off, len);
		c->outlen = 0;
		trim_out(c);
	} else {
		buf = c->out;
		c->out = NULL;
		c->outlen = c->outcap = 0;
	}
	acct(c);
	queue_rest(c, buf, len);
}

/* A batch is back from the writer thread (loop thread). */
static void on_written(void *ctx, struct writer_item *items, size_t n)
{
	(void)ctx;
	for (size_t i = 0; i < n; i++) {
		struct writer_item *it = &items[i];
		struct conn *c = it->ctx;
		c->in_writer = false;
		c->inflight -= it->len;
		acct(c);
		if (c->close_deferred) { /* closed while with the writer (net_close) */
			c->close_deferred = false;
			free(it->buf);
			uv_close((uv_handle_t *)&c->tcp, on_close);
		} else if (it->err && it->err != EAGAIN && it->err != EWOULDBLOCK) {
			free(it->buf);
			net_close(c, strerror(it->err));
		} else if (it->done < it->len) {
			/* The socket was full: the rest waits in libuv, ahead of anything newer. */
			memmove(it->buf, it->buf + it->done, it->len - it->done);
			queue_rest(c, it->buf, it->len - it->done);
		} else if (!c->out && it->cap <= SERVER_OUT_KEEP) {
			c->out = it->buf; /* reused for the next replies */
			c->outcap = it->cap;
		} else {
			free(it->buf);
		}
		net_unref(c);
	}
}

void net_flush(struct server *srv)
{
	struct writer *wr = srv->writer;
	srv->turn++; /* the turn ends with its commit and its replies: new budgets */
	srv->turn_used = 0;
	if (wr && writer_busy(wr)) {
		/* The batch in flight (maybe a flood's big replies) goes on; connections with
		 * nothing in it are written here, so their replies do not wait for it. Those with
		 * bytes in it stay dirty for the next iteration (their order is kept). */
		struct conn *keep = NULL;
		while (srv->dirty) {
			struct conn *c = srv->dirty;
			srv->dirty = c->dnext;
			if (c->in_writer) {
				c->dnext = keep;
				keep = c;
				continue;
			}
			c->dirty = false;
			write_out(c);
		}
		srv->dirty = keep;
		return;
	}
	size_t n = 0;
	for (struct conn *c = srv->dirty; c; c = c->dnext)
		n++;
	struct writer_item *items = wr && n >= srv->set.writer_min ? writer_items(wr, n) : NULL;
	size_t k = 0;
	while (srv->dirty) {
		struct conn *c = srv->dirty;
		srv->dirty = c->dnext;
		c->dirty = false;
		int fd;
		/* Many connections: the writer thread takes those with nothing queued in libuv. */
		if (items && k < n && c->outlen && !c->closing && !c->inflight &&
		    uv_fileno((uv_handle_t *)&c->tcp, &fd) == 0) {
			items[k++] = (struct writer_item){ .ctx = c, .fd = fd, .buf = c->out,
							   .len = c->outlen, .cap = c->outcap };
			c->inflight += c->outlen;
			c->out = NULL;
			c->outlen = c->outcap = 0;
			c->in_writer = true;
			c->refs++;
			continue;
		}
		write_out(c);
	}
	if (k)
		writer_submit(wr, k);
}

void server_send_raw(struct conn *c, const char *line, size_t len)
{
	if (c->closing)
		return;
	if (c->outlen + c->inflight + len > c->srv->set.max_queued) {
		/* A client that does not read its replies and events is cut off; nobody waits. */
		net_close(c, "slow reader: too many unsent bytes");
		return;
	}
	if (c->host->queued + len > c->srv->set.max_queued_per_address) {
		/* Nor do many such clients from one address hold more than this in all. */
		net_close(c, "slow reader: too many unsent bytes from this address");
		return;
	}
	if (c->outlen + len > c->outcap) {
		size_t ncap = c->outcap ? c->outcap : SERVER_OUT_START;
		while (ncap < c->outlen + len)
			ncap *= 2;
		char *n = realloc(c->out, ncap);
		if (!n) {
			net_close(c, "out of memory");
			return;
		}
		c->out = n;
		c->outcap = ncap;
	}
	memcpy(c->out + c->outlen, line, len);
	c->outlen += len;
	acct(c);
	if (!c->dirty) {
		c->dirty = true;
		c->dnext = c->srv->dirty;
		c->srv->dirty = c;
	}
}

static void on_idle(uv_idle_t *h)
{
	net_run_backlog(h->data);
}

void net_backlog_add(struct conn *c)
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

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf);
static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf);

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
}

/* Handle c's lines while the budgets last (budget_left). Returns true if lines remain. */
static bool handle_lines(struct conn *c)
{
	for (;;) {
		if (c->closing || c->busy || c->srv->stopping)
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
			c->last_line_ms = uv_now(c->srv->loop);
			if (len > 0) /* blank lines are ignored (but counted) */
				server_handle_line(c, line, len);
		}
		charge(c, uv_hrtime() - t0, c->outlen > out0 ? c->outlen - out0 : 0);
	}
	if (c->closing)
		return false;
	size_t pending = framing_pending(&c->fr);
	if (c->paused && pending <= FRAMING_MAX_LINE) {
		c->paused = false;
		uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
	}
	return !c->busy && pending > c->fr.partial;
}

void net_run_backlog(struct server *srv)
{
	struct conn *list = srv->backlog, *wait = NULL, **wait_end = &wait;
	srv->backlog = srv->backlog_tail = NULL;
	while (list) {
		struct conn *c = list;
		list = c->bl_next;
		if (c->closing) {
			c->in_backlog = false;
			continue;
		}
		if (!budget_left(c)) {
			/* Its budget, its address's or the turn's is spent: it keeps its place. */
			*wait_end = c;
			wait_end = &c->bl_next;
			continue;
		}
		c->in_backlog = false;
		if (handle_lines(c))
			net_backlog_add(c);
	}
	*wait_end = NULL;
	/* Those that waited go first next time; any closed meanwhile leave the list. */
	struct conn *front = NULL, **fe = &front, *last = NULL;
	for (struct conn *c = wait, *n; c; c = n) {
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

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	buf->base = read_buffer;
	buf->len = sizeof read_buffer;
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct conn *c = s->data;
	if (nread < 0) {
		net_close(c, nread == UV_EOF ? "closed by peer" : uv_strerror((int)nread));
		return;
	}
	if (nread == 0 || c->closing)
		return;
	c->read_ms = fairclock_fair_ms(c->srv); /* the time a move arrived, stalls not counted */
	if (framing_feed(&c->fr, buf->base, (size_t)nread) < 0) {
		net_close(c, "out of memory");
		return;
	}
	if (handle_lines(c))
		net_backlog_add(c);
	/* Bound what one client can make us buffer: stop reading until its lines are handled. */
	if (!c->closing && !c->paused && framing_pending(&c->fr) > FRAMING_MAX_LINE) {
		c->paused = true;
		uv_read_stop(s);
	}
}

static void on_connection(uv_stream_t *l, int status)
{
	struct server *srv = l->data;
	if (status < 0 || srv->stopping)
		return;
	struct conn *c = calloc(1, sizeof *c);
	if (!c)
		return;
	c->srv = srv;
	c->refs = 1;
	c->serial = ++srv->serial;
	framing_init(&c->fr);
	uv_tcp_init(srv->loop, &c->tcp);
	c->tcp.data = c;
	if (uv_accept(l, (uv_stream_t *)&c->tcp) < 0) {
		c->closing = true;
		uv_close((uv_handle_t *)&c->tcp, on_close);
		return;
	}
	struct sockaddr_storage ss;
	int sl = sizeof ss;
	snprintf(c->addr, sizeof c->addr, "?");
	if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&ss, &sl) == 0) {
		if (ss.ss_family == AF_INET6)
			uv_ip6_name((struct sockaddr_in6 *)&ss, c->addr, sizeof c->addr);
		else
			uv_ip4_name((struct sockaddr_in *)&ss, c->addr, sizeof c->addr);
	}
	uv_tcp_nodelay(&c->tcp, 1);
	c->last_line_ms = uv_now(srv->loop);
	if (!(c->host = host_get(srv, c->addr))) {
		c->closing = true;
		uv_close((uv_handle_t *)&c->tcp, on_close);
		return;
	}
	const char *refuse = NULL;
	if (srv->nconns >= srv->set.max_connections)
		refuse = "too many connections";
	else if (c->host->nconns >= srv->set.max_per_address)
		refuse = "too many connections from this address";
	c->next = srv->conns;
	if (srv->conns)
		srv->conns->prev = c;
	srv->conns = c;
	srv->nconns++;
	c->host->nconns++;
	log_msg(LOGL_DEBUG, "connect", "conn=%llu addr=%s", (unsigned long long)c->serial, c->addr);
	if (refuse) {
		/* Say why, then hang up once the line is written. */
		server_reply_error(c, NULL, PROTO_ERR_RATE_LIMITED, "%s", refuse);
		write_out(c);
		net_close(c, refuse);
		return;
	}
	uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
}

/* Slowloris: close connections that hold an unfinished line (or are inside an over-long
 * one) and sent no complete line for idle_timeout_s. Quiet connections with nothing pending
 * are kept: a player may think for hours. */
static void on_sweep(uv_timer_t *t)
{
	struct server *srv = t->data;
	uint64_t now = uv_now(srv->loop), limit = (uint64_t)srv->set.idle_timeout_s * 1000;
	for (struct conn *c = srv->conns, *n; c; c = n) {
		n = c->next;
		if (!c->closing && (c->fr.partial > 0 || c->fr.discarding) &&
		    now - c->last_line_ms >= limit)
			net_close(c, "idle timeout: partial line");
	}
}

int net_listen(struct server *srv)
{
	struct sockaddr_storage addr;
	int r;
	if (strchr(srv->set.host, ':'))
		r = uv_ip6_addr(srv->set.host, srv->set.port, (struct sockaddr_in6 *)&addr);
	else
		r = uv_ip4_addr(srv->set.host, srv->set.port, (struct sockaddr_in *)&addr);
	if (r < 0) {
		log_msg(LOGL_ERROR, "listen", "host=%s error=\"%s\"", srv->set.host, uv_strerror(r));
		return -1;
	}
	if (!srv->set.max_queued_per_address)
		srv->set.max_queued_per_address = SERVER_MAX_QUEUED_PER_ADDRESS;
	if (!srv->set.address_units)
		srv->set.address_units = SERVER_ADDR_UNITS;
	if (!srv->set.turn_units)
		srv->set.turn_units = SERVER_TURN_UNITS;
	if (!srv->set.register_per_address)
		srv->set.register_per_address = SERVER_REGISTER_PER_ADDRESS;
	if (!srv->set.login_fails_per_address)
		srv->set.login_fails_per_address = SERVER_LOGIN_ADDR_FAILS;
	uv_tcp_init(srv->loop, &srv->listener);
	srv->listener.data = srv;
	uv_timer_init(srv->loop, &srv->sweep); /* closed with the listener (net_shutdown) */
	srv->sweep.data = srv;
	if ((r = uv_tcp_bind(&srv->listener, (struct sockaddr *)&addr, 0)) < 0 ||
	    (r = uv_listen((uv_stream_t *)&srv->listener, 511, on_connection)) < 0) {
		log_msg(LOGL_ERROR, "listen", "host=%s port=%d error=\"%s\"", srv->set.host,
			srv->set.port, uv_strerror(r));
		return -1;
	}
	struct sockaddr_storage bound;
	int bl = sizeof bound;
	uv_tcp_getsockname(&srv->listener, (struct sockaddr *)&bound, &bl);
	int port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
						   : ((struct sockaddr_in *)&bound)->sin_port);
	log_msg(LOGL_INFO, "listening", "host=%s port=%d", srv->set.host, port);
	srv->writer = srv->set.writer_min ? writer_start(srv->loop, on_written, srv) : NULL;
	if (srv->set.writer_min && !srv->writer)
		log_msg(LOGL_WARN, "writer", "error=\"no output thread: writing on the loop\"");
	if (srv->set.idle_timeout_s)
		uv_timer_start(&srv->sweep, on_sweep, SERVER_IDLE_SWEEP_MS, SERVER_IDLE_SWEEP_MS);
	if (srv->set.port_file) {
		char tmp[4096];
		snprintf(tmp, sizeof tmp, "%s.tmp", srv->set.port_file);
		FILE *f = fopen(tmp, "w");
		if (!f || fprintf(f, "%d\n", port) < 0 || fclose(f) != 0 || rename(tmp, srv->set.port_file) < 0) {
			log_msg(LOGL_ERROR, "port_file", "path=%s", srv->set.port_file);
			return -1;
		}
	}
	return 0;
}

static void on_shutdown(uv_shutdown_t *req, int status)
{
	struct conn *c = req->data;
	free(req);
	net_close(c, "server stopping");
	net_unref(c);
}

/* The grace period after a stop is over: hang up on clients whose replies did not drain. */
static void on_grace(uv_timer_t *t)
{
	struct server *srv = t->data;
	for (struct conn *c = srv->conns, *n; c; c = n) {
		n = c->next;
		net_close(c, "server stopping: output not drained");
	}
	uv_close((uv_handle_t *)t, NULL);
}

bool net_after_loop(struct server *srv)
{
	if (!srv->grace.loop || uv_is_closing((uv_handle_t *)&srv->grace))
		return false;
	uv_close((uv_handle_t *)&srv->grace, NULL);
	return true;
}

void net_shutdown(struct server *srv)
{
	if (srv->writer) {
		/* Its last batch comes back (and any deferred close happens) before the rest. */
		writer_stop(srv->writer);
		srv->writer = NULL;
	}
	uv_close((uv_handle_t *)&srv->listener, NULL);
	uv_close((uv_handle_t *)&srv->sweep, NULL);
	uv_timer_init(srv->loop, &srv->grace);
	srv->grace.data = srv;
	uv_timer_start(&srv->grace, on_grace, SERVER_SHUTDOWN_GRACE_MS, 0);
	uv_unref((uv_handle_t *)&srv->grace); /* the loop may end before it fires */
	for (struct conn *c = srv->conns, *n; c; c = n) {
		n = c->next;
		uv_read_stop((uv_stream_t *)&c->tcp); /* no request is handled after a stop */
		write_out(c);
		uv_shutdown_t *req = malloc(sizeof *req);
		if (req) {
			req->data = c;
			c->refs++;
			if (uv_shutdown(req, (uv_stream_t *)&c->tcp, on_shutdown) == 0)
				continue;
			free(req);
			c->refs--;
		}
		net_close(c, "server stopping");
	}
}
