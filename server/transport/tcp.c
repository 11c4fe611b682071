/* tcp: connections on libuv. See tcp.h. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include "conn.h"
#include "games.h"
#include "log.h"
#include "proxy.h"
#include "tcp.h"
#include "writer.h"

static char read_buffer[SERVER_READ_BUFFER]; /* one loop thread: fed to framing at once */

/* A TCP connection: the server's connection and its socket. */
struct tcp_conn {
	struct conn c;            /* first: conn_unref frees the tcp_conn through ops->free */
	uv_tcp_t tcp;
	bool in_writer;           /* bytes of it are with the writer thread */
	bool close_deferred;      /* closed while in_writer: the handle closes when they return */
	struct tcp_server *t;
	/* From a listed proxy (set.proxy_protocol), before its PROXY header (proxy.h): */
	bool proxy_wait;          /* the header is still to come; on t->waiting */
	uint64_t proxy_since;     /* uv_now of the accept */
	char *hdr;                /* the header's bytes so far when it came in pieces
	                             (PROXY_HEADER_MAX allocated), else NULL */
	size_t hdrlen;
	struct tcp_conn *wnext, *wprev; /* t->waiting */
};

struct write_req {
	uv_write_t req;
	struct conn *c;
	char *data;
	size_t len;
};

static struct tcp_conn *tcp_of(struct conn *c)
{
	return (struct tcp_conn *)((char *)c - offsetof(struct tcp_conn, c));
}

static void on_close(uv_handle_t *h)
{
	conn_unref(&((struct tcp_conn *)h->data)->c);
}

/* tc no longer waits for a PROXY header (it came, or tc closes): off t->waiting. */
static void wait_drop(struct tcp_conn *tc)
{
	if (!tc->proxy_wait)
		return;
	tc->proxy_wait = false;
	if (tc->wprev)
		tc->wprev->wnext = tc->wnext;
	else
		tc->t->waiting = tc->wnext;
	if (tc->wnext)
		tc->wnext->wprev = tc->wprev;
	tc->wnext = tc->wprev = NULL;
	free(tc->hdr);
	tc->hdr = NULL;
	tc->hdrlen = 0;
}

/* ---- the conn_ops of a TCP connection ---- */

static void op_close(struct conn *c)
{
	struct tcp_conn *tc = tcp_of(c);
	wait_drop(tc);
	if (tc->in_writer) {
		/* The writer thread may be writing to its descriptor: close once it is done. */
		uv_read_stop((uv_stream_t *)&tc->tcp);
		tc->close_deferred = true;
		return;
	}
	uv_close((uv_handle_t *)&tc->tcp, on_close);
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf);
static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf);

static void op_reading(struct conn *c, bool on)
{
	if (on)
		uv_read_start((uv_stream_t *)&tcp_of(c)->tcp, on_alloc, on_read);
	else
		uv_read_stop((uv_stream_t *)&tcp_of(c)->tcp);
}

/* The kernel's smoothed round-trip time of the connection (issue 4: our own measure, never
 * the client's word), in whole milliseconds; -1 if it cannot be read. */
static int64_t op_rtt_ms(struct conn *c)
{
	uv_os_fd_t fd;
	struct tcp_info ti;
	socklen_t len = sizeof ti;
	if (uv_fileno((uv_handle_t *)&tcp_of(c)->tcp, &fd) != 0 ||
	    getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
		return -1;
	return ti.tcpi_rtt / 1000;
}

static void op_free(struct conn *c)
{
	free(tcp_of(c)->hdr); /* NULL unless never closed through op_close */
	free(tcp_of(c));
}

static const struct conn_ops tcp_ops = {
	.close = op_close, .reading = op_reading, .rtt_ms = op_rtt_ms, .free = op_free,
};

/* Is c one of this transport's connections? Another transport's (srv->conns and srv->dirty
 * hold every transport's) is never cast to a tcp_conn. */
static bool tcp_owns(const struct conn *c)
{
	return c->ops == &tcp_ops;
}

/* Take this transport's connections off srv->dirty, in their order; the others stay there
 * for their own transport's flush. */
static struct conn *take_dirty(struct server *srv)
{
	struct conn *mine = NULL, **mt = &mine, **rest = &srv->dirty;
	for (struct conn *c = srv->dirty, *n; c; c = n) {
		n = c->dnext;
		if (tcp_owns(c)) {
			*mt = c;
			mt = &c->dnext;
		} else {
			*rest = c;
			rest = &c->dnext;
		}
	}
	*mt = NULL;
	*rest = NULL;
	return mine;
}

/* Put back on srv->dirty what this flush kept for the next iteration: the connections still
 * dirty and open. One closed meanwhile (its handle closes once the writer gives its bytes
 * back, and is then freed) is not put back, so no later flush reads it. */
static void keep_dirty(struct server *srv, struct conn *keep)
{
	struct conn **end = &srv->dirty;
	while (*end)
		end = &(*end)->dnext;
	for (struct conn *c = keep, *n; c; c = n) {
		n = c->dnext;
		if (!c->dirty || c->closing) {
			c->dirty = false;
			continue;
		}
		*end = c;
		end = &c->dnext;
	}
	*end = NULL;
}

/* ---- output ---- */

static void on_write(uv_write_t *req, int status)
{
	struct write_req *w = (struct write_req *)req;
	w->c->inflight -= w->len;
	conn_acct(w->c);
	if (status < 0 && status != UV_ECANCELED && !w->c->closing)
		conn_close(w->c, uv_strerror(status));
	else
		conn_eof_check(w->c);
	conn_unref(w->c);
	free(w->data);
	free(w);
}

/* Hand `len` bytes at the start of buf (malloc'd) to uv_write, behind whatever of c it holds. */
static void queue_rest(struct conn *c, char *buf, size_t len)
{
	struct write_req *w = malloc(sizeof *w);
	if (!w) {
		free(buf);
		conn_close(c, "out of memory");
		return;
	}
	w->c = c;
	w->data = buf;
	w->len = len;
	c->inflight += len;
	conn_acct(c);
	c->refs++;
	uv_buf_t b = uv_buf_init(buf, (unsigned)len);
	int r = uv_write(&w->req, (uv_stream_t *)&tcp_of(c)->tcp, &b, 1, on_write);
	if (r < 0) {
		c->inflight -= len;
		conn_acct(c);
		free(buf);
		free(w);
		conn_unref(c);
		conn_close(c, uv_strerror(r));
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
		int n = uv_try_write((uv_stream_t *)&tcp_of(c)->tcp, &tb, 1);
		if (n < 0 && n != UV_EAGAIN) {
			conn_close(c, uv_strerror(n));
			return;
		}
		off = n > 0 ? (size_t)n : 0;
		if (off == c->outlen) {
			c->outlen = 0;
			conn_acct(c);
			trim_out(c);
			conn_eof_check(c);
			return;
		}
	}
	/* The rest goes to uv_write, which keeps it in order behind earlier writes. */
	size_t len = c->outlen - off;
	char *buf;
	if (off) {
		if (!(buf = malloc(len))) {
			conn_close(c, "out of memory");
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
	conn_acct(c);
	queue_rest(c, buf, len);
}

/* A batch is back from the writer thread (loop thread). */
static void on_written(void *ctx, struct writer_item *items, size_t n)
{
	(void)ctx;
	for (size_t i = 0; i < n; i++) {
		struct writer_item *it = &items[i];
		struct conn *c = it->ctx;
		struct tcp_conn *tc = tcp_of(c);
		tc->in_writer = false;
		c->inflight -= it->len;
		conn_acct(c);
		if (tc->close_deferred) { /* closed while with the writer (op_close) */
			tc->close_deferred = false;
			free(it->buf);
			uv_close((uv_handle_t *)&tc->tcp, on_close);
		} else if (it->err && it->err != EAGAIN && it->err != EWOULDBLOCK) {
			free(it->buf);
			conn_close(c, strerror(it->err));
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
		if (!tc->close_deferred)
			conn_eof_check(c);
		conn_unref(c);
	}
}

/* The writer's batch is in flight (maybe a flood's big replies) and goes on; connections with
 * nothing in it are written here, so their replies do not wait for it. Those with bytes in it
 * stay dirty for the next iteration (their order is kept). */
static struct conn *write_beside_writer(struct conn *mine, struct conn *keep)
{
	while (mine) {
		struct conn *c = mine;
		mine = c->dnext;
		if (tcp_of(c)->in_writer) {
			c->dnext = keep;
			keep = c;
			continue;
		}
		c->dirty = false;
		write_out(c);
	}
	return keep;
}

void tcp_flush(void *ctx)
{
	struct tcp_server *t = ctx;
	struct server *srv = t->srv;
	struct writer *wr = t->writer;
	struct conn *mine = take_dirty(srv), *keep = NULL;
	if (wr && writer_busy(wr)) {
		keep = write_beside_writer(mine, NULL);
		mine = NULL;
	}
	size_t n = 0;
	for (struct conn *c = mine; c; c = c->dnext)
		n++;
	struct writer_item *items = wr && n && n >= srv->set.writer_min ? writer_items(wr, n) : NULL;
	size_t k = 0;
	while (mine) {
		struct conn *c = mine;
		struct tcp_conn *tc = tcp_of(c);
		mine = c->dnext;
		c->dirty = false;
		int fd;
		/* Many connections: the writer thread takes those with nothing queued in libuv. */
		if (items && k < n && c->outlen && !c->closing && !c->inflight &&
		    uv_fileno((uv_handle_t *)&tc->tcp, &fd) == 0) {
			items[k++] = (struct writer_item){ .ctx = c, .fd = fd, .buf = c->out,
							   .len = c->outlen, .cap = c->outcap };
			c->inflight += c->outlen;
			c->out = NULL;
			c->outlen = c->outcap = 0;
			tc->in_writer = true;
			c->refs++;
			continue;
		}
		write_out(c);
	}
	if (k)
		writer_submit(wr, k);
	/* Bytes queued while this flush ran (a close's hooks may send) go out in it too, as the
	 * whole dirty list did before the flush took only its own connections. */
	while ((mine = take_dirty(srv)) != NULL)
		keep = write_beside_writer(mine, keep);
	keep_dirty(srv, keep);
}

/* ---- input ---- */

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	buf->base = read_buffer;
	buf->len = sizeof read_buffer;
}

/* ---- the PROXY header (proxy.h) ---- */

/* Every SERVER_PROXY_SWEEP_MS while connections wait for their header: close those waiting
 * longer than set.proxy_timeout_ms. */
static void on_proxy_sweep(uv_timer_t *timer)
{
	struct tcp_server *t = timer->data;
	uint64_t now = uv_now(t->srv->loop), limit = t->srv->set.proxy_timeout_ms;
	if (!limit)
		limit = SERVER_PROXY_TIMEOUT_MS;
	for (struct tcp_conn *tc = t->waiting, *n; tc; tc = n) {
		n = tc->wnext;
		if (now - tc->proxy_since < limit)
			continue;
		log_msg(LOGL_WARN, "proxy_header", "conn=%llu addr=%s error=\"none within %llu ms\"",
			(unsigned long long)tc->c.serial, tc->c.addr, (unsigned long long)limit);
		conn_close(&tc->c, "no PROXY header in time");
	}
	if (!t->waiting)
		uv_timer_stop(timer);
}

/* Accepted tc from a listed proxy: wait for its header (the sweep's deadline runs). */
static void wait_add(struct tcp_server *t, struct tcp_conn *tc)
{
	tc->proxy_wait = true;
	tc->proxy_since = uv_now(t->srv->loop);
	tc->wprev = NULL;
	tc->wnext = t->waiting;
	if (t->waiting)
		t->waiting->wprev = tc;
	t->waiting = tc;
	if (!uv_is_active((uv_handle_t *)&t->proxy_timer))
		uv_timer_start(&t->proxy_timer, on_proxy_sweep, SERVER_PROXY_SWEEP_MS,
			       SERVER_PROXY_SWEEP_MS);
}

/* The header's end is in the bytes of h: tc counts as its client from now (conn_set_addr).
 * Returns 0, or -1 if tc was refused and closed. */
static int proxy_done(struct tcp_conn *tc, const struct proxy_header *h)
{
	struct conn *c = &tc->c;
	char proxy[sizeof c->addr];
	snprintf(proxy, sizeof proxy, "%s", c->addr);
	wait_drop(tc);
	const char *refuse = conn_set_addr(c, h->local ? c->addr : h->addr);
	log_msg(LOGL_DEBUG, "proxy", "conn=%llu proxy=%s addr=%s version=%d",
		(unsigned long long)c->serial, proxy, c->addr, h->version);
	if (!refuse)
		return 0;
	if (!c->pending) { /* counted on the client's address: say why, as at an accept */
		c->unheld = true; /* no sync to wait for: nothing of the store is told */
		server_reply_error(c, NULL, PROTO_ERR_RATE_LIMITED, "%s", refuse);
		write_out(c);
	}
	conn_close(c, refuse);
	return -1;
}

/* Waiting tc read the n bytes at *data: take its PROXY header from them (with what came
 * before, tc->hdr). Returns 1 with *data and *n what follows the header (for the framing), 0
 * when the header needs more bytes, -1 when tc was closed (a bad header, refused, out of
 * memory). */
static int proxy_take(struct tcp_conn *tc, const char **data, size_t *n)
{
	struct conn *c = &tc->c;
	const char *p = *data;
	size_t len = *n, old = tc->hdrlen;
	if (old) {
		size_t add = len < PROXY_HEADER_MAX - old ? len : PROXY_HEADER_MAX - old;
		memcpy(tc->hdr + old, *data, add);
		tc->hdrlen += add;
		p = tc->hdr;
		len = tc->hdrlen;
	}
	struct proxy_header h;
	enum proxy_rc r = proxy_parse(p, len, &h);
	if (r == PROXY_MORE && len < PROXY_HEADER_MAX) {
		if (!old) {
			if (!(tc->hdr = malloc(PROXY_HEADER_MAX))) {
				conn_close(c, "out of memory");
				return -1;
			}
			memcpy(tc->hdr, p, len);
			tc->hdrlen = len;
		}
		return 0;
	}
	if (r != PROXY_DONE || h.len <= old) { /* the second: cannot be (those bytes were short) */
		log_msg(LOGL_WARN, "proxy_header", "conn=%llu addr=%s error=\"%s\"",
			(unsigned long long)c->serial, c->addr, r == PROXY_BAD ? h.why : "too long");
		conn_close(c, "bad PROXY header");
		return -1;
	}
	*data += h.len - old;
	*n -= h.len - old;
	return proxy_done(tc, &h) < 0 ? -1 : 1;
}

/* ---- reading ---- */

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct tcp_conn *tc = s->data;
	struct conn *c = &tc->c;
	if (nread < 0) {
		if (nread == UV_EOF) /* a half-close: its lines are still answered */
			conn_peer_eof(c);
		else
			conn_close(c, uv_strerror((int)nread));
		return;
	}
	if (nread == 0 || c->closing)
		return;
	c->read_ms = fairclock_fair_ms(c->srv); /* the time a move arrived, stalls not counted */
	const char *data = buf->base;
	size_t n = (size_t)nread;
	if (tc->proxy_wait && (proxy_take(tc, &data, &n) <= 0 || n == 0))
		return; /* the header's bytes are not the client's lines */
	if (framing_feed(&c->fr, data, n) < 0) {
		conn_close(c, "out of memory");
		return;
	}
	conn_lines(c);
	/* Bound what one client can make us buffer: stop reading until its lines are handled. */
	if (!c->closing && !c->paused && framing_pending(&c->fr) > FRAMING_MAX_PARTIAL) {
		c->paused = true;
		uv_read_stop(s);
	}
}

/* The peer's address of tc into *ss (family AF_UNSPEC if unknown) and as text, no port, or
 * "?" (the `peer` of a connection). */
static void peer_name(struct tcp_conn *tc, struct sockaddr_storage *ss, char *addr, size_t n)
{
	int sl = sizeof *ss;
	memset(ss, 0, sizeof *ss);
	snprintf(addr, n, "?");
	if (uv_tcp_getpeername(&tc->tcp, (struct sockaddr *)ss, &sl) == 0) {
		if (ss->ss_family == AF_INET6)
			uv_ip6_name((struct sockaddr_in6 *)ss, addr, n);
		else
			uv_ip4_name((struct sockaddr_in *)ss, addr, n);
	} else {
		ss->ss_family = AF_UNSPEC;
	}
}

static void on_connection(uv_stream_t *l, int status);

/* The next iteration after a turn's accepts ran out: take the connection libuv holds (which
 * starts watching the listener again). */
static void on_accept_idle(uv_idle_t *h)
{
	struct tcp_server *t = h->data;
	uv_idle_stop(h);
	if (!t->srv->stopping)
		on_connection((uv_stream_t *)&t->listener, 0);
}

static void on_connection(uv_stream_t *l, int status)
{
	struct tcp_server *t = l->data;
	struct server *srv = t->srv;
	if (status < 0 || srv->stopping)
		return;
	if (t->accept_turn != srv->turn) {
		t->accept_turn = srv->turn;
		t->accepted = 0;
	}
	if (t->accepted >= SERVER_ACCEPTS_PER_TURN) {
		/* Not accepted: libuv stops watching the listener until uv_accept (next turn). */
		uv_idle_start(&t->accept_idle, on_accept_idle);
		return;
	}
	t->accepted++;
	struct tcp_conn *tc = calloc(1, sizeof *tc);
	if (!tc) { /* not accepted: try again next iteration (libuv holds it, not watching) */
		uv_idle_start(&t->accept_idle, on_accept_idle);
		return;
	}
	struct conn *c = &tc->c;
	conn_init(c, srv, &tcp_ops, "?");
	uv_tcp_init(srv->loop, &tc->tcp);
	tc->tcp.data = tc;
	tc->t = t;
	if (uv_accept(l, (uv_stream_t *)&tc->tcp) < 0) {
		c->closing = true;
		uv_close((uv_handle_t *)&tc->tcp, on_close);
		return;
	}
	struct sockaddr_storage ss;
	peer_name(tc, &ss, c->addr, sizeof c->addr);
	uv_tcp_nodelay(&tc->tcp, 1);
	if (srv->set.keepalive_s) {
		uv_os_fd_t fd;
		int frc = uv_fileno((uv_handle_t *)&tc->tcp, &fd);
		if (frc != 0 || tcp_keepalive(fd, srv->set.keepalive_s) != 0)
			log_msg(LOGL_WARN, "keepalive", "addr=%s error=\"%s\"", c->addr,
				frc ? uv_strerror(frc) : strerror(errno));
	}
	/* A listed proxy's connection counts on the client its header names (proxy_done). */
	bool proxied = srv->set.proxy_protocol && proxy_from_has(&t->from, (struct sockaddr *)&ss);
	const char *refuse = proxied ? conn_add_pending(c, SERVER_PROXY_PENDING_MAX) : conn_add(c);
	if (refuse && !c->host) { /* out of memory: not counted */
		c->closing = true;
		uv_close((uv_handle_t *)&tc->tcp, on_close);
		return;
	}
	log_msg(LOGL_DEBUG, "connect", "conn=%llu addr=%s", (unsigned long long)c->serial, c->addr);
	if (refuse) {
		/* Say why, then hang up once the line is written (no sync to wait for). */
		c->unheld = true;
		server_reply_error(c, NULL, PROTO_ERR_RATE_LIMITED, "%s", refuse);
		write_out(c);
		conn_close(c, refuse);
		return;
	}
	if (proxied)
		wait_add(t, tc);
	uv_read_start((uv_stream_t *)&tc->tcp, on_alloc, on_read);
}

/* ---- listening and stopping ---- */

/* Write the bound port to set.port_file (through a renamed temporary). Returns 0 or -1. */
static int write_port_file(const char *path, int port)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", port) < 0 || fclose(f) != 0 || rename(tmp, path) < 0) {
		log_msg(LOGL_ERROR, "port_file", "path=%s", path);
		return -1;
	}
	return 0;
}

int tcp_keepalive(int fd, unsigned idle_s)
{
	int on = idle_s > 0, idle = (int)idle_s, intvl = SERVER_KEEPALIVE_INTERVAL_S,
	    cnt = SERVER_KEEPALIVE_PROBES;
	unsigned user_ms = (idle_s + SERVER_KEEPALIVE_INTERVAL_S * SERVER_KEEPALIVE_PROBES) * 1000u;
	if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on) != 0)
		return -1;
	if (!on)
		return 0;
	if (setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle) != 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl) != 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt) != 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_ms, sizeof user_ms) != 0)
		return -1;
	return 0;
}

int tcp_backlog_default(void)
{
	int n = 0;
	FILE *f = fopen(TCP_SOMAXCONN_PATH, "r");
	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = 0;
		fclose(f);
	}
	if (n < 1)
		n = SOMAXCONN;
	return n > SERVER_BACKLOG_MAX ? SERVER_BACKLOG_MAX : n;
}

int tcp_listen(struct tcp_server *t, struct server *srv)
{
	struct sockaddr_storage addr;
	int r;
	t->srv = srv;
	if (strchr(srv->set.host, ':'))
		r = uv_ip6_addr(srv->set.host, srv->set.port, (struct sockaddr_in6 *)&addr);
	else
		r = uv_ip4_addr(srv->set.host, srv->set.port, (struct sockaddr_in *)&addr);
	if (r < 0) {
		log_msg(LOGL_ERROR, "listen", "host=%s error=\"%s\"", srv->set.host, uv_strerror(r));
		t->srv = NULL; /* nothing opened: tcp_stop has nothing to close */
		return -1;
	}
	uv_tcp_init(srv->loop, &t->listener);
	t->listener.data = t;
	uv_idle_init(srv->loop, &t->accept_idle);
	t->accept_idle.data = t;
	if (srv->set.proxy_protocol) {
		const char *from = srv->set.proxy_from ? srv->set.proxy_from : PROXY_FROM_DEFAULT;
		uv_timer_init(srv->loop, &t->proxy_timer);
		t->proxy_timer.data = t;
		if (proxy_from_parse(from, &t->from) < 0) {
			log_msg(LOGL_ERROR, "listen", "proxy_from=%s error=\"not a list of addresses\"",
				from);
			return -1;
		}
		log_msg(LOGL_INFO, "proxy_protocol", "from=%s", from);
	}
	int backlog = srv->set.backlog > 0 ? srv->set.backlog : tcp_backlog_default();
	if ((r = uv_tcp_bind(&t->listener, (struct sockaddr *)&addr, 0)) < 0 ||
	    (r = uv_listen((uv_stream_t *)&t->listener, backlog, on_connection)) < 0) {
		log_msg(LOGL_ERROR, "listen", "host=%s port=%d error=\"%s\"", srv->set.host,
			srv->set.port, uv_strerror(r));
		return -1;
	}
	struct sockaddr_storage bound;
	int bl = sizeof bound;
	uv_tcp_getsockname(&t->listener, (struct sockaddr *)&bound, &bl);
	int port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
						   : ((struct sockaddr_in *)&bound)->sin_port);
	log_msg(LOGL_INFO, "listening", "host=%s port=%d", srv->set.host, port);
	t->writer = srv->set.writer_min ? writer_start(srv->loop, on_written, t) : NULL;
	if (srv->set.writer_min && !t->writer)
		log_msg(LOGL_WARN, "writer", "error=\"no output thread: writing on the loop\"");
	if (srv->set.port_file && write_port_file(srv->set.port_file, port) < 0)
		return -1;
	return 0;
}

static void on_shutdown(uv_shutdown_t *req, int status)
{
	struct conn *c = req->data;
	free(req);
	conn_close(c, "server stopping");
	conn_unref(c);
}

/* The grace period after a stop is over: hang up on clients whose replies did not drain. */
static void on_grace(uv_timer_t *timer)
{
	struct tcp_server *t = timer->data;
	for (struct conn *c = t->srv->conns, *n; c; c = n) {
		n = c->next;
		if (tcp_owns(c))
			conn_close(c, "server stopping: output not drained");
	}
	uv_close((uv_handle_t *)timer, NULL);
}

bool tcp_after_loop(struct tcp_server *t)
{
	if (!t->grace.loop || uv_is_closing((uv_handle_t *)&t->grace))
		return false;
	uv_close((uv_handle_t *)&t->grace, NULL);
	return true;
}

void tcp_stop(void *ctx)
{
	struct tcp_server *t = ctx;
	struct server *srv = t->srv;
	if (!srv)
		return;
	if (t->writer) {
		/* Its last batch comes back (and any deferred close happens) before the rest. */
		writer_stop(t->writer);
		t->writer = NULL;
	}
	uv_close((uv_handle_t *)&t->listener, NULL);
	uv_close((uv_handle_t *)&t->accept_idle, NULL);
	if (t->proxy_timer.loop)
		uv_close((uv_handle_t *)&t->proxy_timer, NULL);
	uv_timer_init(srv->loop, &t->grace);
	t->grace.data = t;
	uv_timer_start(&t->grace, on_grace, SERVER_SHUTDOWN_GRACE_MS, 0);
	uv_unref((uv_handle_t *)&t->grace); /* the loop may end before it fires */
	for (struct conn *c = srv->conns, *n; c; c = n) {
		n = c->next;
		if (!tcp_owns(c))
			continue; /* another transport's: its own stop hook closes it */
		uv_read_stop((uv_stream_t *)&tcp_of(c)->tcp); /* no request is handled after a stop */
		write_out(c);
		uv_shutdown_t *req = malloc(sizeof *req);
		if (req) {
			req->data = c;
			c->refs++;
			if (uv_shutdown(req, (uv_stream_t *)&tcp_of(c)->tcp, on_shutdown) == 0)
				continue;
			free(req);
			c->refs--;
		}
		conn_close(c, "server stopping");
	}
}
