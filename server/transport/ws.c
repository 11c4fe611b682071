/* ws: HTTP and WebSocket on libwebsockets, on the server's loop. See ws.h. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <libwebsockets.h>
#include "conn.h"
#include "fairclock.h"
#include "log.h"
#include "tcp.h" /* tcp_keepalive */
#include "ws.h"

/* A WebSocket connection: the server's connection and its lws handle. */
struct ws_conn {
	struct conn c;            /* first: conn_unref frees it through ops->free */
	struct ws_server *w;
	struct lws *wsi;          /* NULL once lws closed it */
	char *pend;               /* lines handed over by the flush, not yet sent */
	size_t plen, pcap, poff;  /* ... their length, capacity, and what is sent of them */
	bool send_then_close;     /* closed with a reply still to send (a refusal) */
	bool in_string, escaped;  /* where the message so far ends: inside a JSON string, just
	                             after its backslash (ws_receive) */
};

/* What lws keeps per connection for us. */
struct ws_pss {
	struct ws_conn *wc;
};

static struct ws_conn *ws_of(struct conn *c)
{
	return (struct ws_conn *)((char *)c - offsetof(struct ws_conn, c));
}

/* ---- the conn_ops of a WebSocket connection ---- */

static void op_close(struct conn *c)
{
	struct ws_conn *wc = ws_of(c);
	if (!wc->wsi)
		return; /* lws closed it already (ws_cb, LWS_CALLBACK_CLOSED) */
	if (wc->send_then_close && wc->plen > wc->poff) {
		lws_callback_on_writable(wc->wsi);
		lws_set_timeout(wc->wsi, PENDING_TIMEOUT_CLOSE_SEND, WS_CLOSE_GRACE_S);
		return;
	}
	/* Closed at its next writable callback (ws_cb returns -1 for a closing connection): on
	 * our loop lws ran the timeout alone only at its next service pass, 18-30 s later on an
	 * idle server (a trial of --anon-idle-timeout), the socket held meanwhile. */
	lws_callback_on_writable(wc->wsi);
	lws_set_timeout(wc->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
}

static void op_reading(struct conn *c, bool on)
{
	struct ws_conn *wc = ws_of(c);
	if (wc->wsi)
		lws_rx_flow_control(wc->wsi, on ? 1 : 0);
}

static void op_free(struct conn *c)
{
	struct ws_conn *wc = ws_of(c);
	free(wc->pend);
	free(wc);
}

/* The kernel's smoothed round-trip time of the connection's socket, as TCP's (issue 4: the
 * server's own measure), in whole milliseconds; -1 if it cannot be read. */
static int64_t op_rtt_ms(struct conn *c)
{
	struct ws_conn *wc = ws_of(c);
	struct tcp_info ti;
	socklen_t len = sizeof ti;
	int fd = wc->wsi ? lws_get_socket_fd(wc->wsi) : -1;
	if (fd < 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
		return -1;
	return ti.tcpi_rtt / 1000;
}

static const struct conn_ops ws_ops = {
	.close = op_close, .reading = op_reading, .rtt_ms = op_rtt_ms, .free = op_free,
};

static bool ws_owns(const struct conn *c)
{
	return c->ops == &ws_ops;
}

/* ---- output ---- */

/* Hand c's queued bytes to wc->pend (sent from LWS_CALLBACK_SERVER_WRITEABLE). Returns 0 or
 * -1 (out of memory: c closed). */
static int hand_over(struct ws_conn *wc)
{
	struct conn *c = &wc->c;
	if (!c->outlen)
		return 0;
	if (wc->poff == wc->plen && !wc->pend) {
		wc->pend = c->out; /* the common case: no copy */
		wc->pcap = c->outcap;
		wc->plen = c->outlen;
		wc->poff = 0;
		c->out = NULL;
		c->outcap = 0;
	} else {
		if (wc->poff) { /* what was sent goes */
			memmove(wc->pend, wc->pend + wc->poff, wc->plen - wc->poff);
			wc->plen -= wc->poff;
			wc->poff = 0;
		}
		if (wc->plen + c->outlen > wc->pcap) {
			size_t cap = (wc->plen + c->outlen) * 2;
			char *p = realloc(wc->pend, cap);
			if (!p) {
				conn_close(c, "out of memory");
				return -1;
			}
			wc->pend = p;
			wc->pcap = cap;
		}
		memcpy(wc->pend + wc->plen, c->out, c->outlen);
		wc->plen += c->outlen;
	}
	c->inflight += c->outlen;
	c->outlen = 0;
	conn_acct(c);
	return 0;
}

static int send_pending(struct ws_conn *wc);

/* After the commit: wc's lines go out now when lws holds nothing of it (the common case: one
 * write, no wait for the socket's writability and its two epoll changes), else when the
 * socket takes more (LWS_CALLBACK_SERVER_WRITEABLE). */
static void flush_one(struct ws_conn *wc)
{
	if (hand_over(wc) < 0 || !wc->wsi || wc->poff == wc->plen)
		return;
	if (lws_partial_buffered(wc->wsi) || wc->send_then_close) {
		lws_callback_on_writable(wc->wsi);
		return;
	}
	if (send_pending(wc) < 0)
		conn_close(&wc->c, "write failed");
}

/* The scratch buffer holds len bytes after LWS_PRE. Returns it, or NULL (out of memory). */
static unsigned char *scratch(struct ws_server *w, size_t len)
{
	if (LWS_PRE + len > w->scratch_cap) {
		size_t cap = (LWS_PRE + len) * 2;
		char *p = realloc(w->scratch, cap);
		if (!p)
			return NULL;
		w->scratch = p;
		w->scratch_cap = cap;
	}
	return (unsigned char *)w->scratch + LWS_PRE;
}

/* Write the frame header of a final text message of len bytes (server frames are not masked,
 * RFC 6455, 5.2) at p; returns its length (2, 4 or 10). */
static size_t frame_header(unsigned char *p, size_t len)
{
	p[0] = 0x81;
	if (len < 126) {
		p[1] = (unsigned char)len;
		return 2;
	}
	if (len < 65536) {
		p[1] = 126;
		p[2] = (unsigned char)(len >> 8);
		p[3] = (unsigned char)len;
		return 4;
	}
	p[1] = 127;
	for (int i = 0; i < 8; i++)
		p[2 + i] = (unsigned char)((uint64_t)len >> (56 - 8 * i));
	return 10;
}

/* The socket takes more: send wc's pending lines, each one text message. The messages are
 * framed here and go out together, up to WS_SEND_CHUNK bytes a write (one write per
 * connection per flush, as on TCP, instead of one per message), while the socket is not
 * choked. Returns 0, or -1 to close (lws then closes the connection). */
static int send_pending(struct ws_conn *wc)
{
	struct conn *c = &wc->c;
	size_t sent = 0;
	while (wc->poff < wc->plen) {
		/* the lines that fit in one chunk (at least one) */
		size_t take = 0, flen = 0;
		while (wc->poff + take < wc->plen) {
			const char *line = wc->pend + wc->poff + take;
			const char *nl = memchr(line, '\n', wc->plen - wc->poff - take);
			size_t len = nl ? (size_t)(nl - line) : wc->plen - wc->poff - take;
			if (take && flen + len + 10 > WS_SEND_CHUNK)
				break;
			flen += len + (len < 126 ? 2 : len < 65536 ? 4 : 10);
			take += len + (nl ? 1 : 0);
		}
		unsigned char *buf = scratch(wc->w, flen), *q = buf;
		if (!buf)
			return -1;
		for (size_t off = 0; off < take;) {
			const char *line = wc->pend + wc->poff + off;
			const char *nl = memchr(line, '\n', take - off);
			size_t len = nl ? (size_t)(nl - line) : take - off;
			q += frame_header(q, len);
			memcpy(q, line, len);
			q += len;
			off += len + (nl ? 1 : 0);
		}
		/* already framed: lws writes the bytes as they are (and keeps what the socket did
		 * not take, reporting the pipe choked until it is out) */
		if (lws_write(wc->wsi, buf, flen, LWS_WRITE_RAW) < (int)flen)
			return -1;
		wc->poff += take;
		sent += take;
		if (wc->poff < wc->plen && lws_send_pipe_choked(wc->wsi))
			break;
	}
	c->inflight -= sent;
	conn_acct(c);
	if (wc->poff < wc->plen) {
		lws_callback_on_writable(wc->wsi);
		return 0;
	}
	wc->poff = wc->plen = 0;
	if (wc->pcap > SERVER_OUT_KEEP) {
		free(wc->pend);
		wc->pend = NULL;
		wc->pcap = 0;
	}
	return wc->send_then_close ? -1 : 0;
}

void ws_flush(void *ctx)
{
	struct ws_server *w = ctx;
	struct server *srv = w->srv;
	/* Take this transport's connections off srv->dirty; the others stay for their own flush.
	 * Bytes queued meanwhile (a close's hooks may send) are taken in the next round. */
	for (int round = 0; round < 2 && srv->dirty; round++) {
		struct conn *mine = NULL, **rest = &srv->dirty;
		for (struct conn *c = srv->dirty, *n; c; c = n) {
			n = c->dnext;
			if (ws_owns(c)) {
				c->dnext = mine;
				mine = c;
			} else {
				*rest = c;
				rest = &c->dnext;
			}
		}
		*rest = NULL;
		while (mine) {
			struct conn *c = mine;
			mine = c->dnext;
			c->dirty = false;
			if (!c->closing)
				flush_one(ws_of(c));
		}
	}
}

/* ---- addresses and origins ---- */

/* Is the peer of socket fd one of ws_settings.proxy_from (whose X-Forwarded-For is read)? */
static bool from_proxy(struct ws_server *w, int fd)
{
	if (!w->trust_xff)
		return false;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	return fd >= 0 && getpeername(fd, (struct sockaddr *)&ss, &sl) == 0 &&
	       proxy_from_has(&w->from, (struct sockaddr *)&ss);
}

/* The client's address of wsi into addr (n bytes): the peer's, or a trusted proxy's
 * X-Forwarded-For's last entry. */
static void client_addr(struct ws_server *w, struct lws *wsi, char *addr, size_t n)
{
	snprintf(addr, n, "?");
	lws_get_peer_simple(wsi, addr, n);
	if (!from_proxy(w, lws_get_socket_fd(wsi)))
		return;
	char xff[512];
	if (lws_hdr_copy(wsi, xff, sizeof xff, WSI_TOKEN_X_FORWARDED_FOR) <= 0)
		return;
	char *last = strrchr(xff, ',');
	last = last ? last + 1 : xff;
	while (*last == ' ')
		last++;
	size_t len = strcspn(last, " ");
	if (len && len < n) {
		memcpy(addr, last, len);
		addr[len] = '\0';
	}
}

/* May this upgrade go on? Its path is /ws and its Origin is allowed (ws.h). */
static bool upgrade_allowed(struct ws_server *w, struct lws *wsi)
{
	char uri[16], origin[WS_ORIGIN_LEN], host[WS_ORIGIN_LEN];
	if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0 || strcmp(uri, "/ws") != 0)
		return false;
	int ol = lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN);
	if (ol <= 0)
		return lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) == 0; /* not a browser */
	if (w->norigins) {
		for (unsigned i = 0; i < w->norigins; i++)
			if (strcmp(origin, w->origins[i]) == 0)
				return true;
		return false;
	}
	const char *sep = strstr(origin, "://");
	return sep && lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) > 0 &&
	       strcmp(sep + 3, host) == 0;
}

int ws_origins_check(const char *list)
{
	unsigned n = 0;
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		if (!len || len >= WS_ORIGIN_LEN || ++n > WS_ORIGINS_MAX)
			return -1;
		p += len;
		if (*p)
			p++;
	}
	return n ? 0 : -1;
}

static void origins_parse(struct ws_server *w, const char *list)
{
	for (const char *p = list; *p && w->norigins < WS_ORIGINS_MAX;) {
		size_t len = strcspn(p, ",");
		if (len && len < WS_ORIGIN_LEN) {
			memcpy(w->origins[w->norigins], p, len);
			w->origins[w->norigins++][len] = '\0';
		}
		p += len;
		if (*p)
			p++;
	}
}

/* ---- static files ---- */

static const char *mime_of(const char *path)
{
	static const struct {
		const char *ext, *mime;
	} types[] = {
		{".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
		{".css", "text/css; charset=utf-8"}, {".svg", "image/svg+xml"},
		{".png", "image/png"}, {".ico", "image/x-icon"}, {".json", "application/json"},
		{".txt", "text/plain; charset=utf-8"},
	};
	const char *dot = strrchr(path, '.');
	for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
		if (strcmp(dot, types[i].ext) == 0)
			return types[i].mime;
	return "application/octet-stream";
}

/* The file the request path `uri` names, into out (WS_PATH_MAX bytes). Returns 0, or -1
 * (404: `..`, outside the root, not a regular file, too long, not there). */
static int file_of(struct ws_server *w, const char *uri, char *out)
{
	static const struct {
		const char *prefix, *page;
	} pages[] = {
		{"/game/", "/game.html"}, {"/tournament/", "/tournament.html"},
		{"/player/", "/player.html"},
	};
	const char *rel = uri;
	if (!w->root[0])
		return -1;
	if (strcmp(uri, "/") == 0)
		rel = "/index.html";
	for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++)
		if (strncmp(uri, pages[i].prefix, strlen(pages[i].prefix)) == 0 &&
		    uri[strlen(pages[i].prefix)] && !strchr(uri + strlen(pages[i].prefix), '/'))
			rel = pages[i].page;
	if (rel[0] != '/' || strstr(rel, "..") || strchr(rel, '\\'))
		return -1;
	char joined[WS_PATH_MAX];
	if ((size_t)snprintf(joined, sizeof joined, "%s%s", w->root, rel) >= sizeof joined)
		return -1;
	char real[PATH_MAX];
	struct stat sb;
	size_t rl = strlen(w->root);
	if (!realpath(joined, real) || strncmp(real, w->root, rl) != 0 || real[rl] != '/' ||
	    stat(real, &sb) != 0 || !S_ISREG(sb.st_mode) || strlen(real) >= WS_PATH_MAX)
		return -1;
	strcpy(out, real);
	return 0;
}

/* Answer an HTTP request for `uri`. Returns what the lws callback returns. */
static int http_request(struct ws_server *w, struct lws *wsi, const char *uri)
{
	bool head = lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0;
	if (!head && lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0) {
		lws_return_http_status(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, NULL);
		return -1; /* a body may follow: hang up after the status */
	}
	char path[WS_PATH_MAX];
	if (file_of(w, uri, path) < 0) { /* a way back, not a bare "404" */
		lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, WS_NOT_FOUND_HTML);
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	}
	const char *mime = mime_of(path);
	if (head) {
		struct stat sb;
		unsigned char hdr[LWS_PRE + 512], *p = hdr + LWS_PRE, *end = hdr + sizeof hdr;
		if (stat(path, &sb) != 0 ||
		    lws_add_http_common_headers(wsi, HTTP_STATUS_OK, mime, (lws_filepos_t)sb.st_size,
						&p, end) ||
		    lws_finalize_write_http_header(wsi, hdr + LWS_PRE, &p, end))
			return -1;
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	}
	int r = lws_serve_http_file(wsi, path, mime, "cache-control: no-cache\r\n", 25);
	if (r < 0 || (r > 0 && lws_http_transaction_completed(wsi)))
		return -1;
	return 0;
}

/* ---- counting HTTP connections ---- */

/* A connection from addr refused (why): logged as a warning, at most one line every
 * WS_REFUSED_LOG_MS with the count since the last (a flood is thousands a second). */
static void http_refused(struct ws_server *w, const char *addr, const char *why)
{
	w->refused++;
	uint64_t now = uv_now(w->srv->loop);
	if (w->refused_log_ms && now - w->refused_log_ms < WS_REFUSED_LOG_MS)
		return;
	log_msg(LOGL_WARN, "http_refused", "count=%llu addr=%s reason=\"%s\"", w->refused, addr, why);
	w->refused = 0;
	w->refused_log_ms = now ? now : 1;
}

/* A connection just accepted on the HTTP port, socket fd: refused at once (a non-zero return:
 * lws closes it before it allocates anything for it) if conn_http_add would refuse it; a
 * flood of refused connections costs an accept and a close each. Returns 0 or 1. */
static int http_filter(struct ws_server *w, int fd)
{
	char addr[sizeof ((struct host *)0)->addr] = "?";
	lws_get_peer_simple_fd(fd, addr, sizeof addr);
	const char *refuse = conn_http_refusal(w->srv, addr, !from_proxy(w, fd));
	if (refuse) {
		http_refused(w, addr, refuse);
		return 1;
	}
	return 0;
}

/* A new connection on the HTTP port (before any byte of it is read; http_filter let it in):
 * counted by conn_http_add, its counters kept as the wsi's opaque user data, or refused (lws
 * closes it). A listed proxy's is not held to --max-http-per-address (it carries many
 * clients). Returns 0 or -1. */
static int http_open(struct ws_server *w, struct lws *wsi)
{
	char addr[sizeof ((struct host *)0)->addr] = "?";
	lws_get_peer_simple(wsi, addr, sizeof addr);
	struct host *h;
	int fd = lws_get_socket_fd(wsi);
	const char *refuse = conn_http_add(w->srv, addr, !from_proxy(w, fd), &h);
	if (refuse) {
		http_refused(w, addr, refuse);
		return -1;
	}
	lws_set_opaque_user_data(wsi, h);
	return 0;
}

/* The HTTP connection wsi is closed or became a WebSocket one (counted by conn_add then):
 * uncount it, once. */
static void http_done(struct ws_server *w, struct lws *wsi)
{
	struct host *h = lws_get_opaque_user_data(wsi);
	if (!h)
		return;
	lws_set_opaque_user_data(wsi, NULL);
	conn_http_done(w->srv, h);
}

/* ---- WebSocket connections ---- */

/* A new WebSocket connection: a struct conn, counted (or refused with an error message).
 * Returns 0 or -1 (lws closes it). */
static int ws_open(struct ws_server *w, struct lws *wsi, struct ws_pss *pss)
{
	struct ws_conn *wc = calloc(1, sizeof *wc);
	if (!wc)
		return -1;
	char addr[sizeof wc->c.addr];
	client_addr(w, wsi, addr, sizeof addr);
	struct conn *c = &wc->c;
	conn_init(c, w->srv, &ws_ops, addr);
	wc->w = w;
	wc->wsi = wsi;
	pss->wc = wc;
	const char *refuse = conn_add(c);
	if (refuse && !c->host) { /* out of memory: not counted */
		pss->wc = NULL;
		wc->wsi = NULL;
		conn_unref(c);
		return -1;
	}
	int fd = lws_get_socket_fd(wsi);
	if (w->srv->set.keepalive_s && (fd < 0 || tcp_keepalive(fd, w->srv->set.keepalive_s) != 0))
		log_msg(LOGL_WARN, "keepalive", "addr=%s transport=ws error=\"%s\"", c->addr,
			fd < 0 ? "no socket" : strerror(errno));
	log_msg(LOGL_DEBUG, "connect", "conn=%llu addr=%s transport=ws",
		(unsigned long long)c->serial, c->addr);
	if (refuse) {
		c->unheld = true; /* no sync to wait for: nothing of the store is told */
		server_reply_error(c, NULL, PROTO_ERR_RATE_LIMITED, "%s", refuse);
		wc->send_then_close = true; /* the refusal is sent, then lws closes (op_close) */
		hand_over(wc);
		lws_callback_on_writable(wsi);
		conn_close(c, refuse);
	}
	return 0;
}

/* Bytes of a text message from wc: into its framing, a "\n" at the message's end. A "\r" or
 * "\n" of the message is a space between JSON tokens (white space there), and a NUL inside a
 * string (which JSON forbids raw there, as proto_parse does a NUL: the request stays
 * invalid, as it was; read as a space it was taken, a different string). Returns 0 or -1
 * (close). */
static int ws_receive(struct ws_conn *wc, char *in, size_t len, bool end)
{
	struct conn *c = &wc->c;
	if (c->closing)
		return 0;
	c->read_ms = fairclock_fair_ms(c->srv); /* the time a move arrived, stalls not counted */
	for (size_t i = 0; i < len; i++) {
		if (wc->escaped)
			wc->escaped = false;
		else if (in[i] == '"')
			wc->in_string = !wc->in_string;
		else if (in[i] == '\\' && wc->in_string)
			wc->escaped = true;
		if (in[i] == '\n' || in[i] == '\r')
			in[i] = wc->in_string ? '\0' : ' ';
	}
	if (end)
		wc->in_string = wc->escaped = false;
	if (framing_feed(&c->fr, in, len) < 0 || (end && framing_feed(&c->fr, "\n", 1) < 0)) {
		conn_close(c, "out of memory");
		return 0;
	}
	if (end)
		conn_lines(c);
	if (!c->closing && !c->paused && framing_pending(&c->fr) > FRAMING_MAX_PARTIAL) {
		c->paused = true;
		lws_rx_flow_control(wc->wsi, 0);
	}
	return 0;
}

static int ws_cb(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
		 size_t len)
{
	struct ws_server *w = lws_context_user(lws_get_context(wsi));
	if (reason == LWS_CALLBACK_FILTER_NETWORK_CONNECTION) /* user: not a ws_pss */
		return http_filter(w, ((struct lws_filter_network_conn_args *)user)->accept_fd);
	struct ws_pss *pss = user;
	struct ws_conn *wc = pss ? pss->wc : NULL;
	switch (reason) {
	case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
		return http_open(w, wsi);
	case LWS_CALLBACK_WSI_DESTROY:
		http_done(w, wsi);
		return 0;
	case LWS_CALLBACK_HTTP:
		return http_request(w, wsi, in ? in : "/");
	case LWS_CALLBACK_HTTP_FILE_COMPLETION:
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
		if (w->srv->stopping || !upgrade_allowed(w, wsi)) {
			log_msg(LOGL_DEBUG, "ws_refused", "reason=\"path or origin\"");
			return 1;
		}
		return 0;
	case LWS_CALLBACK_ESTABLISHED:
		http_done(w, wsi); /* a WebSocket connection now: conn_add counts it */
		return ws_open(w, wsi, pss);
	case LWS_CALLBACK_RECEIVE:
		if (!wc)
			return -1;
		if (lws_frame_is_binary(wsi)) {
			lws_close_reason(wsi, LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE, NULL, 0);
			return -1;
		}
		return ws_receive(wc, in, len,
				  lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi));
	case LWS_CALLBACK_SERVER_WRITEABLE:
		if (!wc)
			return 0;
		if (wc->c.closing && !wc->send_then_close)
			return -1;
		return send_pending(wc);
	case LWS_CALLBACK_CLOSED:
		if (!wc)
			return 0;
		pss->wc = NULL;
		wc->wsi = NULL;
		if (!wc->c.closing)
			conn_close(&wc->c, "closed by peer");
		wc->c.inflight -= wc->plen - wc->poff; /* never to be sent */
		wc->plen = wc->poff = 0;
		conn_acct(&wc->c);
		conn_unref(&wc->c); /* the transport's reference */
		return 0;
	default:
		break;
	}
	return 0;
}

static const struct lws_protocols protocols[] = {
	{"tengen", ws_cb, sizeof(struct ws_pss), WS_RX_CHUNK, 0, NULL, 0},
	{NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ---- listening and stopping ---- */

static void lws_log(int level, const char *line)
{
	char msg[256];
	size_t n = strcspn(line, "\n");
	if (n >= sizeof msg)
		n = sizeof msg - 1;
	memcpy(msg, line, n);
	msg[n] = '\0';
	for (char *p = msg; *p; p++)
		if (*p == '"')
			*p = '\'';
	log_msg(level == LLL_ERR ? LOGL_ERROR : LOGL_WARN, "lws", "msg=\"%s\"", msg);
}

int ws_listen(struct ws_server *w, struct server *srv, const struct ws_settings *set)
{
	w->srv = srv;
	w->set = *set;
	if (set->origins)
		origins_parse(w, set->origins);
	if (set->proxy_from) {
		if (proxy_from_parse(set->proxy_from, &w->from) < 0) {
			log_msg(LOGL_ERROR, "http", "proxy_from=%s error=\"not a list of addresses\"",
				set->proxy_from);
			return -1;
		}
		w->trust_xff = true;
	}
	char real[PATH_MAX];
	if (!realpath(set->web_root, real) || strlen(real) >= sizeof w->root) {
		/* /ws still serves; every page is a 404 until the pages are installed */
		log_msg(LOGL_WARN, "http", "web_root=%s error=\"%s: no pages served\"", set->web_root,
			strerror(errno));
		w->root[0] = '\0';
	} else {
		strcpy(w->root, real);
	}
	lws_set_log_level(LLL_ERR | LLL_WARN, lws_log);
	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	static void *loops[1];
	loops[0] = srv->loop;
	info.foreign_loops = loops;
	info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_VALIDATE_UTF8;
	if (!strchr(set->host, ':'))
		info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
	info.port = set->port;
	info.iface = set->host;
	info.protocols = protocols;
	info.user = w;
	info.pcontext = &w->ctx; /* lws sets it NULL when its destruction is complete */
	w->ctx = lws_create_context(&info);
	if (!w->ctx) {
		log_msg(LOGL_ERROR, "http", "host=%s port=%d error=\"cannot listen (libwebsockets)\"",
			set->host, set->port);
		return -1;
	}
	struct lws_vhost *vh = lws_get_vhost_by_name(w->ctx, "default");
	int port = vh ? lws_get_vhost_listen_port(vh) : -1;
	if (port <= 0) {
		log_msg(LOGL_ERROR, "http", "host=%s port=%d error=\"not listening\"", set->host,
			set->port);
		return -1;
	}
	log_msg(LOGL_INFO, "http_listening", "host=%s port=%d web_root=%s", set->host, port,
		w->root);
	if (set->port_file) {
		char tmp[4096];
		snprintf(tmp, sizeof tmp, "%s.tmp", set->port_file);
		FILE *f = fopen(tmp, "w");
		if (!f || fprintf(f, "%d\n", port) < 0 || fclose(f) != 0 ||
		    rename(tmp, set->port_file) < 0) {
			log_msg(LOGL_ERROR, "port_file", "path=%s", set->port_file);
			return -1;
		}
	}
	return 0;
}

void ws_stop(void *ctx)
{
	struct ws_server *w = ctx;
	if (!w->srv)
		return;
	for (struct conn *c = w->srv->conns, *n; c; c = n) {
		n = c->next;
		if (!ws_owns(c))
			continue;
		if (c->outlen && !c->closing)
			flush_one(ws_of(c)); /* what the last iteration queued, as far as the socket takes it */
		conn_close(c, "server stopping");
	}
	if (w->ctx)
		lws_context_destroy(w->ctx); /* its handles close on the loop */
}

void ws_free(struct ws_server *w)
{
	if (w->ctx)
		lws_context_destroy(w->ctx);
	w->ctx = NULL;
	free(w->scratch);
	w->scratch = NULL;
}
