/* ws: the HTTP and WebSocket transport (docs/protocol.md, "Web"), on libwebsockets running on
 * the server's own libuv loop (a foreign loop: no thread, no loop of its own).
 *
 * `GET /ws` with an Upgrade becomes a WebSocket connection: a struct conn (conn.h) behind its
 * own conn_ops, like a TCP one. One text message is one request line (its bytes fed to the
 * connection's framing, then a "\n"; a "\r" or "\n" inside a message is read as a space
 * between JSON tokens and as a NUL, which proto refuses, inside a string), so the limits,
 * sessions, budgets and the line limit are the TCP transport's; each queued reply or event
 * line goes out as one text message without its "\n", after the commit (ws_flush, the flush
 * hook). Binary messages close the connection (1003).
 *
 * Other requests: GET or HEAD of a static file from the web root (a web root that is not there
 * is logged and every page is then a 404) (`/` is index.html;
 * `/game/ID`, `/tournament/ID`, `/player/NAME` are game.html, tournament.html, player.html: the
 * page reads the id from its address); a path with `..`, outside the root after symlinks, not a
 * regular file or not found: 404; other methods: 405.
 *
 * Origin: a WebSocket upgrade with an Origin header must name one of ws_settings.origins
 * (comma-separated, exact "scheme://host[:port]"); without that list the Origin's host[:port]
 * must equal the Host header (same origin). No Origin header (not a browser): accepted.
 *
 * Client address: the peer's, or, when the peer is one of ws_settings.proxy_from (a
 * TLS-terminating proxy, docs/deploy.md), the last address of its X-Forwarded-For header. */
#ifndef TENGEN_WS_H
#define TENGEN_WS_H

#include <stdbool.h>
#include "proxy.h"
#include "server.h"

#define WS_ORIGINS_MAX 16         /* --http-origin: allowed origins, at most */
#define WS_ORIGIN_LEN 256         /* ... each this long at most, bytes */
#define WS_PATH_MAX 4096          /* a static file's path, web root included */
#define WS_CLOSE_GRACE_S 2        /* a connection closed with a last reply: time to send it */
#define WS_RX_CHUNK 16384         /* bytes of a message handed over at a time */
#define WS_SEND_CHUNK 262144      /* bytes of framed messages written at a time */
#define WS_REFUSED_LOG_MS 10000   /* refused HTTP connections: a warn line at most this often */
/* The body of a 404 (lws wraps it in a page; under its 1 KiB) */
#define WS_NOT_FOUND_HTML "<p>There is no page at this address.</p><p><a href=\"/\">The lobby</a>, " \
	"<code>/game/N</code>, <code>/tournament/N</code>, <code>/player/NAME</code>.</p>"

/* What main.c sets (from --http, --web-root, --http-origin, --http-port-file,
 * --http-proxy-from). */
struct ws_settings {
	const char *host;         /* NULL: no HTTP listener */
	int port;                 /* 0: any free port */
	const char *web_root;     /* the pages' folder */
	const char *origins;      /* NULL: same origin only */
	const char *port_file;    /* write the bound port here (tests) */
	const char *proxy_from;   /* NULL: X-Forwarded-For is never read */
};

/* The transport's state (zeroed to start; main.c owns it). */
struct ws_server {
	struct server *srv;
	struct ws_settings set;
	struct lws_context *ctx;
	char origins[WS_ORIGINS_MAX][WS_ORIGIN_LEN];
	unsigned norigins;
	struct proxy_from from;
	bool trust_xff;
	char root[WS_PATH_MAX];   /* the web root, realpath'd */
	unsigned long long refused; /* HTTP connections refused since the last http_refused line */
	uint64_t refused_log_ms;  /* uv_now of that line (0: none yet) */
	char *scratch;            /* one outgoing message with LWS_PRE bytes before it */
	size_t scratch_cap;
};

/* Check `list` (--http-origin: origins separated by commas, each at most WS_ORIGIN_LEN - 1
 * bytes, at most WS_ORIGINS_MAX). Returns 0 or -1. */
int ws_origins_check(const char *list);
/* Start the listener on srv's loop with *set (copied). Writes the bound port to
 * set->port_file if given. Returns 0 or -1 (logged; ws_stop frees what was made). */
int ws_listen(struct ws_server *w, struct server *srv, const struct ws_settings *set);
/* The flush hook (ctx: the struct ws_server): each of its dirty connections' queued lines go
 * out, one message each, as the socket takes them. */
void ws_flush(void *ctx);
/* The stop hook (ctx: the struct ws_server): close its connections and the listener (lws
 * closes its handles on the loop, which then ends). Does nothing if ws_listen was never
 * called. */
void ws_stop(void *ctx);
/* After the loop ended: free what remains. */
void ws_free(struct ws_server *w);

#endif
