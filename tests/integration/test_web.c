/* test_web: tengend's HTTP listener (--http; docs/protocol.md, "Web"): static pages from the
 * web root (the repository's web/), `..` and other methods refused, and the protocol over a
 * WebSocket at /ws: hello, register, login, a challenge to a player on TCP, a move, the same
 * bytes as the TCP transport's lines, the line limit, the Origin check. The WebSocket client is
 * written here (RFC 6455, client side: masked frames), so nothing of the server's library
 * checks the server. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sodium.h>
#include "framing.h"
#include "srvtest.h"

#define WEB_BUF 262144

static struct hd D;
static int http_port;
static char web_root[HARNESS_PATH_MAX];
static char port_file[HARNESS_PATH_MAX]; /* --http-port-file, in a directory of the test's */

/* Start D with --http on a free port and the repository's web/ (more: extra arguments,
 * NULL-terminated, at most 8; may be NULL), and read that port. */
static void start_http(const char *const *more)
{
	static char dir[] = "/tmp/tengen-web-XXXXXX";
	if (!port_file[0]) {
		ck_assert_ptr_nonnull(mkdtemp(dir));
		snprintf(port_file, sizeof port_file, "%s/http.port", dir);
	}
	unlink(port_file);
	const char *args[16] = {"--http", "127.0.0.1:0", "--web-root", web_root,
				"--http-port-file", port_file};
	size_t n = 6;
	for (; more && *more; more++) {
		ck_assert_uint_lt(n, sizeof args / sizeof *args - 1);
		args[n++] = *more;
	}
	ck_assert_int_eq(hd_start(&D, args), 0);
	FILE *f = fopen(port_file, "r"); /* written before the TCP port file */
	ck_assert_msg(f != NULL, "no HTTP port file");
	ck_assert_int_eq(fscanf(f, "%d", &http_port), 1);
	fclose(f);
	unlink(port_file);
	ck_assert_int_gt(http_port, 0);
}

/* ---- raw sockets ---- */

/* A connection to 127.0.0.1:port from src (a loopback address; NULL: the kernel's choice). */
static int tcp_connect_from(int port, const char *src)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	if (src) {
		struct sockaddr_in s = {.sin_family = AF_INET};
		ck_assert_int_eq(inet_pton(AF_INET, src, &s.sin_addr), 1);
		ck_assert_int_eq(bind(fd, (struct sockaddr *)&s, sizeof s), 0);
	}
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_msg(connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "connect: %s",
		      strerror(errno));
	return fd;
}

static int tcp_connect(int port)
{
	return tcp_connect_from(port, NULL);
}

static void send_all(int fd, const void *p, size_t n)
{
	const char *b = p;
	while (n) {
		ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
		ck_assert_msg(w > 0, "send: %s", strerror(errno));
		b += w;
		n -= (size_t)w;
	}
}

/* Read exactly n bytes within T ms each. Returns 0, or -1 at a close or timeout. */
static int recv_n(int fd, void *p, size_t n)
{
	char *b = p;
	while (n) {
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		if (poll(&pf, 1, T) <= 0)
			return -1;
		ssize_t r = recv(fd, b, n, 0);
		if (r <= 0)
			return -1;
		b += r;
		n -= (size_t)r;
	}
	return 0;
}

/* All the server sends until it closes (or T ms of silence): into buf (WEB_BUF), NUL-ended. */
static size_t recv_all(int fd, char *buf)
{
	size_t len = 0;
	for (;;) {
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		if (poll(&pf, 1, T) <= 0)
			break;
		ssize_t r = recv(fd, buf + len, WEB_BUF - 1 - len, 0);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	return len;
}

/* One HTTP/1.1 request (raw: the path goes as it is) with Connection: close; the status code,
 * the response in buf. */
static int http(const char *method, const char *path, char *buf)
{
	int fd = tcp_connect(http_port);
	char req[1024];
	snprintf(req, sizeof req, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n"
		 "%s\r\n", method, path, http_port,
		 strcmp(method, "POST") == 0 ? "Content-Length: 3\r\n\r\nabc" : "");
	send_all(fd, req, strlen(req) - (strcmp(method, "POST") == 0 ? 2 : 0));
	recv_all(fd, buf);
	close(fd);
	int code = 0;
	sscanf(buf, "HTTP/1.1 %d", &code);
	return code;
}

/* ---- a WebSocket client ---- */

/* Open /ws (path) with an Origin header when origin is not NULL. Returns the socket after a
 * 101, or -1 (the status line in status, 128 bytes). */
static const char *ws_extra_header = ""; /* added to the upgrade request ("Name: v\r\n") */

static int ws_open(const char *path, const char *origin, char *status)
{
	int fd = tcp_connect(http_port);
	unsigned char key[16];
	char key64[32], req[1024], ohdr[300] = "";
	randombytes_buf(key, sizeof key);
	sodium_bin2base64(key64, sizeof key64, key, sizeof key, sodium_base64_VARIANT_ORIGINAL);
	if (origin)
		snprintf(ohdr, sizeof ohdr, "Origin: %s\r\n", origin);
	snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
		 "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s%s\r\n",
		 path, http_port, key64, ohdr, ws_extra_header);
	send_all(fd, req, strlen(req));
	char resp[2048];
	size_t n = 0;
	while (n < sizeof resp - 1 && (n < 4 || memcmp(resp + n - 4, "\r\n\r\n", 4) != 0)) {
		if (recv_n(fd, resp + n, 1) < 0)
			break;
		n++;
	}
	resp[n] = '\0';
	snprintf(status, 128, "%.*s", (int)strcspn(resp, "\r\n"), resp);
	if (strncmp(resp, "HTTP/1.1 101", 12) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Send one frame (fin set) of opcode op, masked as a client must. */
static void ws_send_op(int fd, int op, const char *data, size_t n)
{
	unsigned char hdr[14];
	size_t h = 0;
	hdr[h++] = (unsigned char)(0x80 | op);
	if (n < 126) {
		hdr[h++] = (unsigned char)(0x80 | n);
	} else if (n < 65536) {
		hdr[h++] = 0x80 | 126;
		hdr[h++] = (unsigned char)(n >> 8);
		hdr[h++] = (unsigned char)n;
	} else {
		hdr[h++] = 0x80 | 127;
		for (int i = 7; i >= 0; i--)
			hdr[h++] = (unsigned char)((uint64_t)n >> (8 * i));
	}
	unsigned char mask[4];
	randombytes_buf(mask, sizeof mask);
	memcpy(hdr + h, mask, 4);
	h += 4;
	unsigned char *m = malloc(n + 1);
	ck_assert_ptr_nonnull(m);
	for (size_t i = 0; i < n; i++)
		m[i] = (unsigned char)data[i] ^ mask[i % 4];
	send_all(fd, hdr, h);
	send_all(fd, m, n);
	free(m);
}

static void ws_send(int fd, const char *text)
{
	ws_send_op(fd, 1, text, strlen(text));
}

/* The next text message (malloc'd, NUL-ended), or NULL at a close or after T ms. Server
 * frames are never masked; each message is one frame here. */
static char *ws_recv(int fd)
{
	unsigned char h[2];
	if (recv_n(fd, h, 2) < 0)
		return NULL;
	ck_assert_msg(!(h[1] & 0x80), "a server frame must not be masked");
	uint64_t n = h[1] & 0x7f;
	unsigned char ext[8];
	if (n == 126) {
		ck_assert_int_eq(recv_n(fd, ext, 2), 0);
		n = (uint64_t)ext[0] << 8 | ext[1];
	} else if (n == 127) {
		ck_assert_int_eq(recv_n(fd, ext, 8), 0);
		n = 0;
		for (int i = 0; i < 8; i++)
			n = n << 8 | ext[i];
	}
	char *m = malloc(n + 1);
	ck_assert_ptr_nonnull(m);
	if (recv_n(fd, m, n) < 0) {
		free(m);
		return NULL;
	}
	m[n] = '\0';
	if ((h[0] & 0x0f) == 8) { /* close */
		free(m);
		return NULL;
	}
	ck_assert_msg((h[0] & 0x8f) == 0x81, "expected one final text frame, got 0x%02x", h[0]);
	return m;
}

/* The next message parsed, checked to be in the server's one form (the bytes of a TCP line:
 * json_dumps compact of what it parses to) and without a newline. */
static json_t *ws_next(int fd)
{
	char *m = ws_recv(fd);
	ck_assert_msg(m != NULL, "no WebSocket message");
	ck_assert_msg(!strchr(m, '\n'), "a message with a newline: %s", m);
	json_t *j = json_loads(m, 0, NULL);
	ck_assert_msg(j != NULL, "not JSON: %s", m);
	char *again = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	ck_assert_msg(strcmp(again, m) == 0, "not the TCP line's bytes: %s", m);
	free(again);
	free(m);
	return j;
}

/* The next message that is the reply with integer id `id` (events before it are dropped, or
 * kept in *ev when ev is not NULL and it is the first event). */
static json_t *ws_reply(int fd, long long id, json_t **ev)
{
	for (;;) {
		json_t *j = ws_next(fd);
		if (!json_object_get(j, "event") && hj_int(j, "id") == id)
			return j;
		if (ev && !*ev && json_object_get(j, "event"))
			*ev = json_incref(j);
		json_decref(j);
	}
}

/* The next event called `name`, others dropped. */
static json_t *ws_event(int fd, const char *name)
{
	for (;;) {
		json_t *j = ws_next(fd);
		if (hj_str(j, "event") && strcmp(hj_str(j, "event"), name) == 0)
			return j;
		json_decref(j);
	}
}

/* ---- fixture ---- */

static void setup(void)
{
	const char *data = getenv("TENGEN_TESTDATA");
	snprintf(web_root, sizeof web_root, "%s/../../web", data ? data : "tests/data");
	start_http(NULL);
}

static void teardown(void)
{
	st_finish(&D);
	char *slash = strrchr(port_file, '/');
	if (slash) {
		*slash = '\0';
		rmdir(port_file);
	}
}

/* ---- HTTP ---- */

START_TEST(pages_are_served)
{
	static char buf[WEB_BUF];
	ck_assert_int_eq(http("GET", "/", buf), 200);
	ck_assert_msg(strstr(buf, "data-page=\"lobby\""), "/ is not the lobby: %.300s", buf);
	ck_assert_msg(strstr(buf, "text/html"), "no html type: %.300s", buf);
	ck_assert_int_eq(http("GET", "/game/17", buf), 200);
	ck_assert_msg(strstr(buf, "data-page=\"game\""), "/game/17 is not the game page");
	ck_assert_int_eq(http("GET", "/tournament/3", buf), 200);
	ck_assert_msg(strstr(buf, "data-page=\"tournament\""), "not the tournament page");
	ck_assert_int_eq(http("GET", "/player/alice", buf), 200);
	ck_assert_msg(strstr(buf, "data-page=\"player\""), "not the player page");
	ck_assert_int_eq(http("GET", "/js/board.js", buf), 200);
	ck_assert_msg(strstr(buf, "text/javascript"), "a module is not JavaScript: %.300s", buf);
	/* HEAD: the headers and no body */
	ck_assert_int_eq(http("HEAD", "/", buf), 200);
	ck_assert_msg(!strstr(buf, "data-page"), "HEAD sent a body: %.300s", buf);
}
END_TEST

START_TEST(what_is_not_a_page_is_refused)
{
	static char buf[WEB_BUF];
	ck_assert_int_eq(http("GET", "/no-such-page.html", buf), 404);
	/* with a way back (it was a bare "404") */
	ck_assert_msg(strstr(buf, "<a href=\"/\">The lobby</a>"), "the 404 page: %.600s", buf);
	ck_assert_int_eq(http("GET", "/game/1/x", buf), 404);
	ck_assert_int_eq(http("GET", "/ws", buf), 404); /* without an Upgrade */
	static const char *const escapes[] = {"/../../../../etc/passwd", "/js/../../../etc/passwd",
		"/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc/passwd", "/../Makefile.am"};
	for (size_t i = 0; i < sizeof escapes / sizeof *escapes; i++) {
		int code = http("GET", escapes[i], buf);
		ck_assert_msg(code == 404 || code == 400 || code == 403, "%s: %d", escapes[i], code);
		ck_assert_msg(!strstr(buf, "root:") && !strstr(buf, "ACLOCAL"), "%s leaked a file",
			      escapes[i]);
	}
	ck_assert_int_eq(http("POST", "/", buf), 405);
	ck_assert_int_eq(http("DELETE", "/", buf), 405);
	ck_assert_int_eq(http("PUT", "/index.html", buf), 405);
	/* and the listener still serves */
	ck_assert_int_eq(http("GET", "/", buf), 200);
}
END_TEST

/* ---- WebSocket ---- */

START_TEST(ws_plays_with_a_tcp_player)
{
	char st[128];
	int ws = ws_open("/ws", NULL, st);
	ck_assert_msg(ws >= 0, "no upgrade: %s", st);
	ws_send(ws, "{\"cmd\":\"hello\",\"id\":1,\"protocol\":1,\"client\":\"webtest\"}");
	json_t *r = ws_reply(ws, 1, NULL);
	OK(r);
	json_decref(r);
	/* register and login, the password in a message, never in a URL */
	ws_send(ws, "{\"cmd\":\"register\",\"id\":2,\"name\":\"wendy\",\"password\":\"wendy-pw-123\"}");
	r = ws_reply(ws, 2, NULL);
	OK(r);
	json_decref(r);
	ws_send(ws, "{\"cmd\":\"login\",\"id\":3,\"name\":\"wendy\",\"password\":\"wendy-pw-123\"}");
	r = ws_reply(ws, 3, NULL);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "player.name"), "wendy");
	json_decref(r);
	/* a newline inside a message is whitespace, not a second line */
	ws_send(ws, "{\"cmd\":\"ping\",\n\"id\":4}");
	r = ws_reply(ws, 4, NULL);
	OK(r);
	json_decref(r);
	/* ... but inside a string a raw control character, which JSON forbids there: refused (it
	 * was read as a space, and the request taken with another string) */
	ws_send(ws, "{\"cmd\":\"ping\",\"id\":\"a\nb\"}");
	r = ws_next(ws);
	ck_assert_msg(hj_err(r) && strcmp(hj_err(r), "bad_request") == 0 &&
			      json_is_null(json_object_get(r, "id")),
		      "a raw line break inside a string: %s", hj_text(r));
	json_decref(r);
	ws_send(ws, "{\"cmd\":\"ping\",\"x\":\"q\\\"\\\\\",\r\n\"id\":41}"); /* "q\"\\" then CRLF */
	r = ws_reply(ws, 41, NULL);
	OK(r);
	json_decref(r);

	struct hc *t = st_login(&D, "tobias");
	ws_send(ws, "{\"cmd\":\"challenge\",\"id\":5,\"opponent\":\"tobias\",\"size\":9,"
		    "\"color\":\"black\"}");
	r = ws_reply(ws, 5, NULL);
	OK(r);
	long long g = hj_int(r, "game");
	ck_assert_int_gt(g, 0);
	json_decref(r);
	json_t *e = hc_event(t, "challenge", g, T);
	ck_assert_msg(e != NULL, "the TCP player got no challenge");
	ck_assert_pstr_eq(hj_str(e, "from"), "wendy");
	json_decref(e);
	r = hc_req(t, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
	e = ws_event(ws, "game.start");
	ck_assert_int_eq(hj_int(e, "game"), g);
	ck_assert_pstr_eq(hj_str(e, "color"), "B");
	json_decref(e);

	char play[200];
	snprintf(play, sizeof play, "{\"cmd\":\"play\",\"id\":6,\"game\":%lld,\"vertex\":\"D4\"}", g);
	ws_send(ws, play);
	json_t *ev = NULL;
	r = ws_reply(ws, 6, &ev);
	OK(r);
	ck_assert_int_eq(hj_int(r, "move.number"), 1);
	json_decref(r);
	if (!ev)
		ev = ws_event(ws, "game.move");
	ck_assert_pstr_eq(hj_str(ev, "event"), "game.move");
	json_t *te = hc_event(t, "game.move", g, T);
	ck_assert_msg(te != NULL, "the TCP player got no game.move");
	/* the same event over both transports */
	ck_assert_msg(json_equal(ev, te), "ws %s / tcp %s", hj_text(ev), hj_text(te));
	json_decref(ev);
	json_decref(te);
	/* the TCP player answers: the WebSocket one sees it */
	json_decref(st_play(t, g, "E5"));
	e = ws_event(ws, "game.move");
	ck_assert_pstr_eq(hj_str(e, "vertex"), "E5");
	json_decref(e);
	hc_close(t);
	close(ws);
}
END_TEST

START_TEST(ws_line_limit_and_binary)
{
	char st[128];
	int ws = ws_open("/ws", NULL, st);
	ck_assert_msg(ws >= 0, "no upgrade: %s", st);
	size_t n = FRAMING_MAX_LINE + 100;
	char *big = malloc(n);
	memset(big, 'x', n);
	ws_send_op(ws, 1, big, n);
	free(big);
	json_t *r = ws_next(ws);
	ERR(r, "line_too_long");
	json_decref(r);
	ws_send(ws, "{\"cmd\":\"ping\",\"id\":9}"); /* the connection goes on */
	r = ws_reply(ws, 9, NULL);
	OK(r);
	json_decref(r);
	ws_send_op(ws, 2, "\x01\x02", 2); /* binary: closed */
	ck_assert_ptr_null(ws_recv(ws));
	close(ws);
}
END_TEST

START_TEST(ws_origin_and_path)
{
	char st[128];
	int ws = ws_open("/ws", "http://evil.example", st);
	ck_assert_msg(ws < 0, "a foreign origin was let in");
	ws = ws_open("/other", NULL, st);
	ck_assert_msg(ws < 0, "an upgrade outside /ws was let in");
	char same[64];
	snprintf(same, sizeof same, "http://127.0.0.1:%d", http_port);
	ws = ws_open("/ws", same, st);
	ck_assert_msg(ws >= 0, "the page's own origin was refused: %s", st);
	close(ws);
}
END_TEST

START_TEST(ws_allowed_origins_setting)
{
	/* a second daemon with --http-origin: only the listed origins */
	st_finish(&D);
	start_http((const char *const[]){"--http-origin", "https://go.example.org,http://x.test:8080",
					 NULL});
	char st[128], same[64];
	snprintf(same, sizeof same, "http://127.0.0.1:%d", http_port);
	int ws = ws_open("/ws", same, st);
	ck_assert_msg(ws < 0, "an origin not listed was let in");
	ws = ws_open("/ws", "http://x.test:8080", st);
	ck_assert_msg(ws >= 0, "a listed origin was refused: %s", st);
	ws_send(ws, "{\"cmd\":\"ping\",\"id\":1}");
	json_t *r = ws_reply(ws, 1, NULL);
	OK(r);
	json_decref(r);
	close(ws);
}
END_TEST

/* A WebSocket connection to /ws whose ping was answered. */
static int ws_pinged(void)
{
	char st[128];
	int ws = ws_open("/ws", NULL, st);
	ck_assert_msg(ws >= 0, "no upgrade: %s", st);
	ws_send(ws, "{\"cmd\":\"ping\",\"id\":1}");
	json_t *r = ws_reply(ws, 1, NULL);
	OK(r);
	json_decref(r);
	return ws;
}

/* Open, ping and close a WebSocket connection (ws_forwarded_for_only_from_a_listed_proxy: a
 * connection's address is the peer's, or X-Forwarded-For's last entry from a listed proxy). */
static void ws_connect_ping(void)
{
	close(ws_pinged());
}

/* TCP keepalive on WebSocket connections too (--keepalive-s; docs/deploy.md): the daemon's
 * side of an upgraded connection has the kernel's keepalive timer, due within the setting. */
START_TEST(ws_keepalive)
{
	const char *const more[] = {"--keepalive-s", "5", NULL};
	st_finish(&D); /* a second daemon with --keepalive-s 5 (teardown stops it) */
	start_http(more);
	int ws = ws_pinged();
	int tr = -1;
	long when = -1;
	ck_assert_msg(hc_server_timer(ws, http_port, &tr, &when), "the daemon's socket is not listed");
	ck_assert_msg(tr == 2, "no keepalive timer on the WebSocket (timer kind %d)", tr);
	ck_assert_msg(when >= 0 && when <= 5000, "keepalive due in %ld ms, not within 5 s", when);
	close(ws);
}
END_TEST

/* --anon-idle-timeout on a WebSocket: a connection that sends nothing is closed, the socket
 * too, within about the timeout and a sweep (a trial: lws let the socket go only at its next
 * service pass, 18-30 s later on a quiet server, holding the descriptor meanwhile). */
START_TEST(ws_anon_idle_closes_the_socket)
{
	const char *const more[] = {"--anon-idle-timeout", "2", NULL};
	st_finish(&D); /* a second daemon (teardown stops it) */
	start_http(more);
	char st[128];
	long long t0 = st_now_ms();
	int ws = ws_open("/ws", NULL, st);
	ck_assert_msg(ws >= 0, "no upgrade: %s", st);
	char b[256];
	ssize_t r = 1;
	while (r > 0 && st_now_ms() - t0 < 10000) { /* a close frame may come first */
		struct pollfd pf = {.fd = ws, .events = POLLIN};
		if (poll(&pf, 1, 500) > 0)
			r = recv(ws, b, sizeof b, 0);
	}
	long long ms = st_now_ms() - t0;
	ck_assert_msg(r <= 0, "the socket was still open after %lld ms", ms);
	ck_assert_msg(ms >= 1900 && ms <= 5000, "closed after %lld ms, not about 2-3 s", ms);
	close(ws);
}
END_TEST

START_TEST(ws_forwarded_for_only_from_a_listed_proxy)
{
	ws_extra_header = "X-Forwarded-For: 198.51.100.7, 203.0.113.9\r\n";
	ws_connect_ping(); /* not listed: the header is ignored */
	ck_assert(hd_log_has(&D, "addr=127.0.0.1 transport=ws"));
	ck_assert(!hd_log_has(&D, "addr=203.0.113.9"));
	st_finish(&D);
	start_http((const char *const[]){"--http-proxy-from", "127.0.0.1", NULL});
	ws_connect_ping();
	ck_assert_msg(hd_log_has(&D, "addr=203.0.113.9 transport=ws"), "the proxy's client address");
	ws_extra_header = "";
}
END_TEST

/* ---- limits on HTTP connections ---- */

/* Did the server close fd (a connection to the HTTP port) without a byte of reply? */
static bool closed_unanswered(int fd)
{
	struct pollfd pf = {.fd = fd, .events = POLLIN};
	char b;
	return poll(&pf, 1, T) == 1 && recv(fd, &b, 1, 0) <= 0;
}

/* GET / until it is served (the server sees a client's close a little later), within T ms. */
static int http_get_soon(char *buf)
{
	int code = 0;
	for (long long end = st_now_ms() + T; (code = http("GET", "/", buf)) != 200 &&
					      st_now_ms() < end;)
		usleep(20 * 1000);
	return code;
}

/* HTTP connections before a WebSocket upgrade (or without one) count: --max-http-per-address
 * from one address, and with the protocol's connections in --max-connections (the unit test
 * test_core's test_http_counted has --max-http-connections). They counted
 * against nothing: 15,000-20,000 of them held open by one client used up the descriptors
 * (docs/deploy.md). */
START_TEST(http_connections_are_limited)
{
	static char buf[WEB_BUF];
	st_finish(&D);
	start_http((const char *const[]){"--max-http-per-address", "3", "--max-http-connections",
					 "4", "--max-connections", "8", NULL});
	int idle[3]; /* connections that send nothing (a page's, or a slow client's) */
	for (int i = 0; i < 3; i++)
		idle[i] = tcp_connect(http_port);
	int fd = tcp_connect(http_port);
	ck_assert_msg(closed_unanswered(fd), "a fourth HTTP connection from one address was kept");
	close(fd);
	/* said to the operator (a warning, at most one line in WS_REFUSED_LOG_MS with a count) */
	ck_assert(hd_log_has(&D, "warn http_refused count=1 addr=127.0.0.1 reason=\"too many HTTP "
			     "connections from this address\""));
	fd = tcp_connect_from(http_port, "127.0.0.2"); /* another address is not affected */
	const char *get = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	send_all(fd, get, strlen(get));
	recv_all(fd, buf);
	close(fd);
	ck_assert_msg(strncmp(buf, "HTTP/1.1 200", 12) == 0, "from 127.0.0.2: %.100s", buf);
	close(idle[0]); /* room for one again */
	ck_assert_int_eq(http_get_soon(buf), 200);
	/* WebSocket connections are the protocol's, not HTTP ones: three of them and the two
	 * idle ones leave the address room for one more HTTP connection. */
	int ws[3];
	char st[128];
	for (int i = 0; i < 3; i++) {
		ws[i] = ws_open("/ws", NULL, st);
		ck_assert_msg(ws[i] >= 0, "upgrade %d: %s", i, st);
	}
	ws_send(ws[2], "{\"cmd\":\"ping\",\"id\":1}");
	json_t *r = ws_reply(ws[2], 1, NULL);
	OK(r);
	json_decref(r);
	fd = tcp_connect(http_port);
	/* 2 + 1 HTTP, 3 WebSocket and 2 TCP connections: --max-connections (8) is reached, for
	 * a TCP client and another address's HTTP connection too. */
	struct hc *tcp[2];
	for (int i = 0; i < 2; i++) {
		tcp[i] = hc_open(D.port);
		ck_assert_ptr_nonnull(tcp[i]);
		st_ping_ok(tcp[i]);
	}
	struct hc *c = hc_open(D.port);
	ck_assert_ptr_nonnull(c);
	r = hc_next(c, T);
	ck_assert_msg(r && hj_err(r) && strcmp(hj_err(r), "rate_limited") == 0 &&
			      strstr(hj_str(r, "error.message"), "too many connections"),
		      "a TCP client past --max-connections: %s", hj_text(r));
	json_decref(r);
	hc_close(c);
	int other = tcp_connect_from(http_port, "127.0.0.3");
	ck_assert_msg(closed_unanswered(other), "an HTTP connection past --max-connections was kept");
	close(other);
	/* A WebSocket closes: a TCP client is served again. */
	close(ws[0]);
	long long end = st_now_ms() + T;
	for (;;) {
		c = hc_open(D.port);
		ck_assert_ptr_nonnull(c);
		r = hc_req(c, "{ss}", "cmd", "ping");
		if ((r && hj_ok(r)) || st_now_ms() > end)
			break;
		json_decref(r);
		hc_close(c);
		usleep(20 * 1000);
	}
	OK(r);
	json_decref(r);
	hc_close(c);
	close(fd);
	hc_close(tcp[0]);
	hc_close(tcp[1]);
	close(ws[1]);
	close(ws[2]);
	close(idle[1]);
	close(idle[2]);
	/* A listed proxy carries many clients: not held to --max-http-per-address. */
	st_finish(&D);
	start_http((const char *const[]){"--max-http-per-address", "1", "--http-proxy-from",
					 "127.0.0.1", NULL});
	for (int i = 0; i < 3; i++)
		idle[i] = tcp_connect(http_port);
	ck_assert_int_eq(http("GET", "/", buf), 200);
	other = tcp_connect_from(http_port, "127.0.0.2"); /* not the proxy: held to one */
	fd = tcp_connect_from(http_port, "127.0.0.2");
	ck_assert_msg(closed_unanswered(fd), "a second HTTP connection from 127.0.0.2 was kept");
	close(fd);
	close(other);
	for (int i = 0; i < 3; i++)
		close(idle[i]);
}
END_TEST

int main(void)
{
	if (sodium_init() < 0)
		return 1;
	Suite *s = suite_create("web");
	TCase *tc = tcase_create("http_ws");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, pages_are_served);
	tcase_add_test(tc, what_is_not_a_page_is_refused);
	tcase_add_test(tc, ws_plays_with_a_tcp_player);
	tcase_add_test(tc, ws_line_limit_and_binary);
	tcase_add_test(tc, ws_origin_and_path);
	tcase_add_test(tc, ws_allowed_origins_setting);
	tcase_add_test(tc, ws_forwarded_for_only_from_a_listed_proxy);
	tcase_add_test(tc, ws_keepalive);
	tcase_add_test(tc, ws_anon_idle_closes_the_socket);
	tcase_add_test(tc, http_connections_are_limited);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
