/* session: the client's connection to tengend (see session.h).
 *
 * States: RESOLVING (uv_getaddrinfo) -> CONNECTING (uv_tcp_connect, bounded by
 * SESSION_CONNECT_TIMEOUT_MS) -> LOGIN (our login request is out) -> READY. A failure in any of
 * them goes to WAITING (backoff timer, then RESOLVING again) when `reconnect` is set, else to
 * DEAD. A refused login always goes to DEAD.
 *
 * Each connection attempt gets its own heap `struct conn` (the uv_tcp_t and its connect
 * request); a dropped connection is detached from the session at once and frees itself in its
 * close callback, so callbacks of an old connection can never touch a newer one. The session
 * itself is freed once session_close was called and every libuv callback it is owed (the
 * timer's close, an outstanding getaddrinfo, the connections' closes) has come back.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "framing.h"
#include "proto.h"
#include "session.h"

#define SESSION_READ_CHUNK 65536     /* bytes per read buffer */
#define SESSION_ERROR_MAX 512         /* bytes of an error message */
#define SESSION_HOST_MAX 256          /* bytes of a host name */
#define SESSION_PASSWORD_FILE_MAX 4096 /* bytes read from a password file */

enum session_state {
	ST_RESOLVING,
	ST_CONNECTING,
	ST_LOGIN,
	ST_READY,
	ST_WAITING,
	ST_DEAD
};

struct pending {
	int64_t id;
	session_reply_cb cb;
	void *arg;
	struct pending *next;
};

struct conn {
	uv_tcp_t tcp;
	uv_connect_t req;
	struct session *s;   /* NULL once detached from the session */
	bool connected;
};

struct write_req {
	uv_write_t req;
	char *data;
};

struct session {
	uv_loop_t *loop;
	struct session_options opt;
	char *server;          /* "HOST:PORT" as given (for messages) */
	char host[SESSION_HOST_MAX];
	char port[16];
	char *user, *password;

	enum session_state state;
	bool closing;
	int owed;              /* libuv callbacks still to come back (handles, getaddrinfo) */

	uv_timer_t timer;      /* connect timeout, then backoff */
	uv_getaddrinfo_t *gai; /* the outstanding resolution of this attempt, or NULL */
	struct conn *conn;     /* the current connection, or NULL */
	struct framing fr;

	int64_t next_id;
	struct pending *pending, *pending_tail;
	unsigned backoff_ms;
	bool was_ready;        /* on_ready was called at least once */
	char *logged_in;       /* the logged-in name, or NULL */
	enum session_failure failure; /* the kind of the last failure reported */
};

static void start_attempt(struct session *s);
static void fail(struct session *s, enum session_failure kind, const char *msg, bool allow_retry);

static void maybe_free(struct session *s)
{
	if (!s->closing || s->owed > 0)
		return;
	framing_free(&s->fr);
	free(s->server);
	free(s->user);
	if (s->password) {
		memset(s->password, 0, strlen(s->password));
		free(s->password);
	}
	free(s->logged_in);
	free(s);
}

/* ---- pending replies ---- */

static int pending_add(struct session *s, int64_t id, session_reply_cb cb, void *arg)
{
	struct pending *p = calloc(1, sizeof *p);
	if (!p)
		return -1;
	p->id = id;
	p->cb = cb;
	p->arg = arg;
	if (s->pending_tail)
		s->pending_tail->next = p;
	else
		s->pending = p;
	s->pending_tail = p;
	return 0;
}

/* Unlink and return the pending entry with this id, or NULL. */
static struct pending *pending_take(struct session *s, int64_t id)
{
	struct pending *prev = NULL;
	for (struct pending *p = s->pending; p; prev = p, p = p->next) {
		if (p->id != id)
			continue;
		if (prev)
			prev->next = p->next;
		else
			s->pending = p->next;
		if (s->pending_tail == p)
			s->pending_tail = prev;
		p->next = NULL;
		return p;
	}
	return NULL;
}

/* Call every pending callback with NULL (the connection dropped). Callbacks may send new
 * requests (which fail, not being connected) or close the session. */
static void pending_fail_all(struct session *s)
{
	struct pending *list = s->pending;
	s->pending = s->pending_tail = NULL;
	while (list) {
		struct pending *p = list;
		list = p->next;
		if (p->cb)
			p->cb(s, NULL, p->arg);
		free(p);
	}
}

/* ---- connection teardown ---- */

static void conn_close_cb(uv_handle_t *h)
{
	struct conn *c = h->data;
	struct session *s = c->s;
	free(c);
	if (s) {
		s->owed--;
		maybe_free(s);
	}
}

/* Detach and close the current connection (if any). */
static void drop_conn(struct session *s)
{
	struct conn *c = s->conn;
	if (!c)
		return;
	s->conn = NULL;
	/* The close callback still decrements s->owed; keep c->s for it. */
	if (!uv_is_closing((uv_handle_t *)&c->tcp))
		uv_close((uv_handle_t *)&c->tcp, conn_close_cb);
	framing_free(&s->fr);
	framing_init(&s->fr);
	framing_set_max(&s->fr, FRAMING_MAX_SEND_LINE);
}

static void timer_backoff_cb(uv_timer_t *t)
{
	struct session *s = t->data;
	if (s->closing || s->state != ST_WAITING)
		return;
	start_attempt(s);
}

/* The attempt or the connection failed: report, then retry or die. */
static void fail(struct session *s, enum session_failure kind, const char *msg, bool allow_retry)
{
	s->failure = kind;
	bool was = s->state == ST_READY;
	uv_timer_stop(&s->timer);
	drop_conn(s);
	free(s->logged_in);
	s->logged_in = NULL;
	bool retry = allow_retry && s->opt.reconnect && !s->closing;
	s->state = retry ? ST_WAITING : ST_DEAD;
	if (retry) {
		if (was)
			s->backoff_ms = SESSION_BACKOFF_MIN_MS;
		uv_timer_start(&s->timer, timer_backoff_cb, s->backoff_ms, 0);
		s->backoff_ms = s->backoff_ms * 2 > SESSION_BACKOFF_MAX_MS ? SESSION_BACKOFF_MAX_MS
									    : s->backoff_ms * 2;
	}
	pending_fail_all(s);
	if (!s->closing && s->opt.on_error)
		s->opt.on_error(s, msg, !retry, s->opt.ctx);
}

static void fail_unreachable(struct session *s, const char *why)
{
	char msg[SESSION_ERROR_MAX];
	bool hint = strcmp(why, "connection refused") == 0 || strcmp(why, "timed out") == 0;
	snprintf(msg, sizeof msg, "cannot reach the server at %s: %s%s", s->server, why,
		 hint ? " (is tengend running?)" : "");
	fail(s, SESSION_FAIL_UNREACHABLE, msg, true);
}

/* libuv's error text, in the lower case of the messages ("connection refused"). */
static const char *uv_why(int status)
{
	switch (status) {
	case UV_ECONNREFUSED: return "connection refused";
	case UV_ETIMEDOUT: return "timed out";
	case UV_EHOSTUNREACH: return "host unreachable";
	case UV_ENETUNREACH: return "network unreachable";
	case UV_ECONNRESET: return "connection reset";
	case UV_EOF: return "the server closed the connection";
	case UV_EAI_NONAME: return "unknown host";
	case UV_EAI_AGAIN: return "temporary failure in name resolution";
	case UV_EADDRNOTAVAIL: return "address not available";
	default: return uv_strerror(status);
	}
}

/* ---- writing ---- */

static void write_cb(uv_write_t *req, int status)
{
	struct write_req *w = (struct write_req *)req;
	(void)status; /* a failed write shows up as a read error / EOF */
	free(w->data);
	free(w);
}

/* Serialize and send msg. Returns 0 or -1. */
static int send_msg(struct session *s, const json_t *msg)
{
	if (!s->conn)
		return -1;
	size_t len;
	char *line = proto_serialize(msg, &len);
	if (!line)
		return -1;
	struct write_req *w = calloc(1, sizeof *w);
	if (!w) {
		free(line);
		return -1;
	}
	w->data = line;
	uv_buf_t buf = uv_buf_init(line, (unsigned)len);
	if (uv_write(&w->req, (uv_stream_t *)&s->conn->tcp, &buf, 1, write_cb) != 0) {
		free(line);
		free(w);
		return -1;
	}
	return 0;
}

/* Send with a fresh id and a pending entry. Returns 0 or -1 (nothing pending then). */
static int send_request(struct session *s, json_t *req, session_reply_cb cb, void *arg)
{
	int64_t id = ++s->next_id;
	json_t *jid = json_integer(id);
	if (!jid || json_object_set_new(req, "id", jid) != 0)
		return -1;
	if (pending_add(s, id, cb, arg) != 0)
		return -1;
	if (send_msg(s, req) != 0) {
		free(pending_take(s, id));
		return -1;
	}
	return 0;
}

/* ---- reading ---- */

static void became_ready(struct session *s)
{
	bool first = !s->was_ready;
	uv_timer_stop(&s->timer);
	s->state = ST_READY;
	s->was_ready = true;
	s->backoff_ms = SESSION_BACKOFF_MIN_MS;
	if (s->opt.on_ready)
		s->opt.on_ready(s, first, s->opt.ctx);
}

static void login_cb(struct session *s, json_t *reply, void *arg)
{
	(void)arg;
	if (!reply || s->closing || s->state != ST_LOGIN)
		return; /* the drop was reported already */
	json_t *ok = json_object_get(reply, "ok");
	if (json_is_true(ok)) {
		const char *name = json_string_value(json_object_get(
			json_object_get(reply, "player"), "name"));
		free(s->logged_in);
		s->logged_in = strdup(name ? name : s->user);
		became_ready(s);
		return;
	}
	json_t *err = json_object_get(reply, "error");
	const char *code = json_string_value(json_object_get(err, "code"));
	const char *message = json_string_value(json_object_get(err, "message"));
	char msg[SESSION_ERROR_MAX];
	snprintf(msg, sizeof msg, "login failed: %s", message ? message : "refused");
	/* A rate limit passes with time; anything else (wrong password) will not. */
	fail(s, SESSION_FAIL_LOGIN, msg, code && strcmp(code, "rate_limited") == 0);
}

static void handle_line(struct session *s, const char *line, size_t len)
{
	json_error_t jerr;
	json_t *msg = json_loadb(line, len, JSON_ALLOW_NUL, &jerr);
	if (!json_is_object(msg)) {
		json_decref(msg);
		return; /* not ours to judge: ignore a line that is not an object */
	}
	if (json_object_get(msg, "event")) {
		if (s->opt.on_event && !s->closing)
			s->opt.on_event(s, msg, s->opt.ctx);
		json_decref(msg);
		return;
	}
	json_t *jid = json_object_get(msg, "id");
	if (json_is_integer(jid)) {
		struct pending *p = pending_take(s, json_integer_value(jid));
		if (p) {
			if (p->cb)
				p->cb(s, msg, p->arg);
			free(p);
		}
	}
	json_decref(msg);
}

static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	(void)h;
	(void)suggested;
	char *b = malloc(SESSION_READ_CHUNK);
	*buf = uv_buf_init(b, b ? SESSION_READ_CHUNK : 0);
}

static void read_cb(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
	struct conn *c = stream->data;
	struct session *s = c->s;
	if (!s || s->conn != c || s->closing) {
		free(buf->base);
		return;
	}
	if (nread < 0) {
		free(buf->base);
		char msg[SESSION_ERROR_MAX];
		snprintf(msg, sizeof msg, "connection to the server at %s lost: %s", s->server,
			 uv_why((int)nread));
		fail(s, SESSION_FAIL_LOST, msg, true);
		return;
	}
	if (nread == 0) {
		free(buf->base);
		return;
	}
	if (framing_feed(&s->fr, buf->base, (size_t)nread) != 0) {
		free(buf->base);
		fail(s, SESSION_FAIL_OTHER, "out of memory", true);
		return;
	}
	free(buf->base);
	/* Callbacks may close the session or drop the connection: re-check after each line. */
	for (;;) {
		if (s->closing || s->conn != c)
			return;
		const char *line;
		size_t len;
		enum framing_result r = framing_next(&s->fr, &line, &len);
		if (r == FRAMING_NONE)
			return;
		if (r == FRAMING_TOO_LONG) {
			/* Never sent by a tengend of this protocol: its reply would never come, so
			 * waiting for it is pointless. Drop the connection (replies owed get NULL). */
			char msg[SESSION_ERROR_MAX];
			snprintf(msg, sizeof msg, "the server at %s sent a line over %u bytes",
				 s->server, FRAMING_MAX_SEND_LINE);
			fail(s, SESSION_FAIL_PROTOCOL, msg, true);
			return;
		}
		/* The line lives in the framing buffer, which a callback may reset: copy it. */
		char *copy = malloc(len + 1);
		if (!copy) {
			fail(s, SESSION_FAIL_OTHER, "out of memory", true);
			return;
		}
		memcpy(copy, line, len);
		copy[len] = '\0';
		handle_line(s, copy, len);
		free(copy);
	}
}

/* ---- connecting ---- */

static void timer_connect_cb(uv_timer_t *t)
{
	struct session *s = t->data;
	if (s->closing)
		return;
	if (s->state == ST_RESOLVING) {
		if (s->gai)
			uv_cancel((uv_req_t *)s->gai);
		s->gai = NULL; /* its callback still comes, and is ignored */
		fail_unreachable(s, "timed out");
	} else if (s->state == ST_CONNECTING || s->state == ST_LOGIN) {
		fail_unreachable(s, "timed out");
	}
}

static void connect_cb(uv_connect_t *req, int status)
{
	struct conn *c = req->data;
	struct session *s = c->s;
	if (!s || s->conn != c || s->closing)
		return;
	if (status < 0) {
		fail_unreachable(s, uv_why(status));
		return;
	}
	c->connected = true;
	int rc = uv_read_start((uv_stream_t *)&c->tcp, alloc_cb, read_cb);
	if (rc != 0) {
		fail_unreachable(s, uv_why(rc));
		return;
	}
	if (!s->user) {
		became_ready(s);
		return;
	}
	s->state = ST_LOGIN;
	json_t *req_login = json_pack("{s:s, s:s, s:s?}", "cmd", "login", "name", s->user,
				      "password", s->password);
	if (req_login && s->opt.exclusive)
		json_object_set_new(req_login, "exclusive", json_true());
	if (!req_login || send_request(s, req_login, login_cb, NULL) != 0) {
		json_decref(req_login);
		fail(s, SESSION_FAIL_OTHER, "out of memory", true);
		return;
	}
	json_decref(req_login);
	/* The login reply is still bounded by the connect timer. */
}

static void connect_addr(struct session *s, const struct sockaddr *addr)
{
	struct conn *c = calloc(1, sizeof *c);
	if (!c) {
		fail(s, SESSION_FAIL_OTHER, "out of memory", true);
		return;
	}
	c->s = s;
	if (uv_tcp_init(s->loop, &c->tcp) != 0) {
		free(c);
		fail(s, SESSION_FAIL_OTHER, "cannot create a socket", true);
		return;
	}
	c->tcp.data = c;
	c->req.data = c;
	s->owed++;
	s->conn = c;
	s->state = ST_CONNECTING;
	uv_tcp_nodelay(&c->tcp, 1);
	int rc = uv_tcp_connect(&c->req, &c->tcp, addr, connect_cb);
	if (rc != 0)
		fail_unreachable(s, uv_why(rc));
}

static void gai_cb(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
	struct session *s = req->data;
	bool current = s->gai == req;
	free(req);
	s->owed--;
	if (current)
		s->gai = NULL;
	if (!current || s->closing || s->state != ST_RESOLVING) {
		uv_freeaddrinfo(res);
		maybe_free(s);
		return;
	}
	if (status < 0 || !res) {
		uv_freeaddrinfo(res);
		fail_unreachable(s, status < 0 ? uv_why(status) : "unknown host");
		return;
	}
	connect_addr(s, res->ai_addr);
	uv_freeaddrinfo(res);
}

static void start_attempt(struct session *s)
{
	s->state = ST_RESOLVING;
	uv_timer_start(&s->timer, timer_connect_cb, SESSION_CONNECT_TIMEOUT_MS, 0);
	/* Numeric addresses need no resolver. */
	struct sockaddr_storage ss;
	int port = atoi(s->port);
	if (uv_ip4_addr(s->host, port, (struct sockaddr_in *)&ss) == 0 ||
	    uv_ip6_addr(s->host, port, (struct sockaddr_in6 *)&ss) == 0) {
		connect_addr(s, (const struct sockaddr *)&ss);
		return;
	}
	struct addrinfo hints;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	uv_getaddrinfo_t *gai = calloc(1, sizeof *gai);
	if (!gai) {
		fail(s, SESSION_FAIL_OTHER, "out of memory", true);
		return;
	}
	gai->data = s;
	int rc = uv_getaddrinfo(s->loop, gai, gai_cb, s->host, s->port, &hints);
	if (rc != 0) {
		free(gai);
		fail_unreachable(s, uv_why(rc));
		return;
	}
	s->gai = gai;
	s->owed++;
}

/* ---- public ---- */

/* Split "HOST:PORT" (IPv6 as "[::1]:PORT"). Returns 0 or -1. */
static int split_server(struct session *s, const char *server)
{
	const char *colon = strrchr(server, ':');
	if (!colon || colon == server || colon[1] == '\0')
		return -1;
	const char *h = server;
	size_t hlen = (size_t)(colon - server);
	if (h[0] == '[' && hlen >= 2 && h[hlen - 1] == ']') {
		h++;
		hlen -= 2;
	}
	if (hlen == 0 || hlen >= sizeof s->host)
		return -1;
	char *end;
	errno = 0;
	long port = strtol(colon + 1, &end, 10);
	if (errno || *end || port < 1 || port > 65535)
		return -1;
	memcpy(s->host, h, hlen);
	s->host[hlen] = '\0';
	snprintf(s->port, sizeof s->port, "%ld", port);
	return 0;
}

/* The config file's path into out[n]: $TENGEN_CONFIG, else $XDG_CONFIG_HOME/tengen/config,
 * else $HOME/.config/tengen/config. False if there is none to look at. */
static bool config_path(char *out, size_t n)
{
	const char *env = getenv(SESSION_CONFIG_ENV), *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	int w;
	if (env && *env)
		w = snprintf(out, n, "%s", env);
	else if (xdg && *xdg)
		w = snprintf(out, n, "%s/tengen/config", xdg);
	else if (home && *home)
		w = snprintf(out, n, "%s/.config/tengen/config", home);
	else
		return false;
	return w > 0 && (size_t)w < n;
}

/* The `server HOST:PORT` line of the config file, or NULL (no file, no such line). */
static const char *config_server(void)
{
	static char server[SESSION_HOST_MAX + 16];
	char path[4096], line[SESSION_HOST_MAX + 64];
	if (!config_path(path, sizeof path))
		return NULL;
	FILE *f = fopen(path, "r");
	if (!f) {
		/* a file named on purpose that is not there is said; the default path need not exist */
		const char *env = getenv(SESSION_CONFIG_ENV);
		if (env && *env)
			cli_errorf("note: %s=%s: %s (the file is not read)", SESSION_CONFIG_ENV, env,
				   strerror(errno));
		return NULL;
	}
	const char *found = NULL;
	int lineno = 0;
	while (!found && fgets(line, sizeof line, f)) {
		/* "server HOST:PORT" or "server = HOST:PORT"; '#' starts a comment line */
		char *p = line + strspn(line, " \t");
		lineno++;
		if (strncmp(p, "server", 6) != 0 || !strchr(" \t=", p[6])) {
			if (*p && *p != '#' && *p != '\r' && *p != '\n') /* a line read as nothing: say so */
				cli_errorf("note: %s:%d: not understood (the file takes 'server HOST:PORT')",
					   path, lineno);
			continue;
		}
		p += 6 + strspn(p + 6, " \t=");
		size_t n = strcspn(p, " \t\r\n#");
		if (n > 0 && n < sizeof server) {
			memcpy(server, p, n);
			server[n] = '\0';
			found = server;
		}
	}
	fclose(f);
	return found;
}

const char *session_default_server(void)
{
	const char *env = getenv(SESSION_SERVER_ENV);
	if (env && *env)
		return env;
	const char *conf = config_server();
	return conf ? conf : SESSION_DEFAULT_SERVER;
}

enum session_failure session_failure(const struct session *s)
{
	return s->failure;
}

struct session *session_open(uv_loop_t *loop, const struct session_options *opt)
{
	const char *server = opt->server ? opt->server : session_default_server();
	struct session *s = calloc(1, sizeof *s);
	if (!s) {
		cli_errorf("out of memory");
		return NULL;
	}
	if (split_server(s, server) != 0) {
		cli_errorf("bad server address '%s' (expected HOST:PORT, e.g. %s)", server,
			   SESSION_DEFAULT_SERVER);
		free(s);
		return NULL;
	}
	if (opt->user && !opt->password) {
		cli_errorf("no password for %s (use --password-file FILE or set TENGEN_PASSWORD)",
			   opt->user);
		free(s);
		return NULL;
	}
	s->loop = loop;
	s->opt = *opt;
	s->server = strdup(server);
	s->user = opt->user ? strdup(opt->user) : NULL;
	s->password = opt->password ? strdup(opt->password) : NULL;
	if (!s->server || (opt->user && !s->user) || (opt->password && !s->password)) {
		free(s->server);
		free(s->user);
		free(s->password);
		free(s);
		cli_errorf("out of memory");
		return NULL;
	}
	s->opt.server = s->server;
	s->opt.user = s->user;
	s->opt.password = NULL; /* only s->password holds it */
	framing_init(&s->fr);
	framing_set_max(&s->fr, FRAMING_MAX_SEND_LINE); /* every line the server may send */
	s->backoff_ms = SESSION_BACKOFF_MIN_MS;
	uv_timer_init(loop, &s->timer);
	s->timer.data = s;
	s->owed++;
	start_attempt(s);
	return s;
}

int session_request(struct session *s, json_t *req, session_reply_cb cb, void *arg)
{
	if (!s || s->closing || s->state != ST_READY || !json_is_object(req))
		return -1;
	return send_request(s, req, cb, arg);
}

static void timer_close_cb(uv_handle_t *h)
{
	struct session *s = h->data;
	s->owed--;
	maybe_free(s);
}

void session_close(struct session *s)
{
	if (!s || s->closing)
		return;
	s->closing = true;
	s->state = ST_DEAD;
	uv_timer_stop(&s->timer);
	if (s->gai)
		uv_cancel((uv_req_t *)s->gai);
	s->gai = NULL;
	drop_conn(s);
	pending_fail_all(s);
	uv_close((uv_handle_t *)&s->timer, timer_close_cb);
}

const char *session_server(const struct session *s)
{
	return s ? s->server : NULL;
}

char *session_password(const char *file)
{
	if (file) {
		FILE *f = fopen(file, "r");
		if (!f) {
			cli_errorf("cannot read the password file %s: %s", file, strerror(errno));
			return NULL;
		}
		char buf[SESSION_PASSWORD_FILE_MAX];
		char *line = fgets(buf, sizeof buf, f);
		fclose(f);
		if (!line) {
			cli_errorf("the password file %s is empty", file);
			return NULL;
		}
		buf[strcspn(buf, "\r\n")] = '\0';
		char *p = strdup(buf);
		memset(buf, 0, sizeof buf);
		return p;
	}
	const char *env = getenv("TENGEN_PASSWORD");
	return env ? strdup(env) : NULL;
}
