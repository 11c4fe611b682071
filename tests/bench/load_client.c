/* load_bench's clients (load_bench.h): connecting, requests, the moves of each pair's game
 * (kept on a common/board), and the replies and events that drive them. */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <uv.h>
#include "board.h"
#include "framing.h"
#include "load_bench.h"
#include "vertex.h"

/* ---- output ---- */

static void on_write(uv_write_t *w, int status)
{
	free(w->data);
	free(w);
}

static void send_bytes(struct client *c, const char *buf, size_t len);

/* --ws: a line (its "\n" dropped) as one masked text frame (RFC 6455, 5.2-5.3). */
static void send_frame(struct client *c, const char *line, size_t len)
{
	if (len && line[len - 1] == '\n')
		len--;
	char frame[BENCH_LINE_MAX + 16];
	size_t h = 0;
	frame[h++] = (char)0x81;
	if (len < 126) {
		frame[h++] = (char)(0x80 | len);
	} else {
		frame[h++] = (char)(0x80 | 126);
		frame[h++] = (char)(len >> 8);
		frame[h++] = (char)len;
	}
	uint32_t key = (uint32_t)rnd();
	unsigned char mask[4] = {key >> 24, key >> 16, key >> 8, key};
	memcpy(frame + h, mask, 4);
	h += 4;
	for (size_t i = 0; i < len; i++)
		frame[h + i] = (char)(line[i] ^ mask[i % 4]);
	send_bytes(c, frame, h + len);
}

static void send_raw(struct client *c, const char *buf, size_t len)
{
	if (O.ws && !echo_run)
		send_frame(c, buf, len);
	else
		send_bytes(c, buf, len);
}

static void send_bytes(struct client *c, const char *buf, size_t len)
{
	if (c->closed)
		return;
	uv_buf_t b = uv_buf_init((char *)buf, (unsigned)len);
	int n = uv_try_write((uv_stream_t *)&c->tcp, &b, 1);
	if (n == (int)len)
		return;
	if (n < 0 && n != UV_EAGAIN) {
		note_error("write failed");
		return;
	}
	size_t off = n > 0 ? (size_t)n : 0;
	uv_write_t *w = malloc(sizeof *w);
	char *copy = malloc(len - off);
	if (!w || !copy)
		die("out of memory");
	memcpy(copy, buf + off, len - off);
	w->data = copy;
	b = uv_buf_init(copy, (unsigned)(len - off));
	if (uv_write(w, (uv_stream_t *)&c->tcp, &b, 1, on_write) < 0) {
		free(copy);
		free(w);
		note_error("write failed");
	}
}

/* Send one request: fmt is the JSON object's fields after "cmd" and "id". */
void request(struct client *c, enum pend kind, const char *cmd, const char *fmt, ...)
{
	if (c->pn == BENCH_PENDING_MAX) {
		note_error("too many outstanding requests");
		return;
	}
	char line[BENCH_LINE_MAX];
	int n = snprintf(line, sizeof line, "{\"cmd\":\"%s\",\"id\":%d", cmd, ++c->next_id);
	if (fmt && *fmt) {
		line[n++] = ',';
		va_list ap;
		va_start(ap, fmt);
		n += vsnprintf(line + n, sizeof line - (size_t)n - 2, fmt, ap);
		va_end(ap);
	}
	line[n++] = '}';
	line[n++] = '\n';
	int slot = (c->phead + c->pn) % BENCH_PENDING_MAX;
	c->pend[slot] = kind;
	c->sent[slot] = uv_hrtime();
	c->pn++;
	send_raw(c, line, (size_t)n);
}

/* ---- play ---- */

static bool measuring(void) { return phase == PH_MEASURE; }

void board_reset(struct pair *p)
{
	if (p->has_board)
		board_free(&p->board);
	if (board_init(&p->board, O.size, KO_SITUATIONAL) < 0)
		die("board_init failed");
	p->has_board = true;
}

/* A single-point eye of colour c: every neighbour is c or off the board. */
static bool own_eye(const struct board *b, enum color c, int pt)
{
	const int d[4] = {1, -1, b->stride, -b->stride};
	for (int i = 0; i < 4; i++) {
		enum color n = board_at(b, pt + d[i]);
		if (n != c && n != BORDER)
			return false;
	}
	return true;
}

/* A random legal point for c that does not fill an own eye; BOARD_PASS if none. */
static int pick_move(const struct board *b, enum color c)
{
	int n = b->size;
	for (int t = 0; t < BENCH_RANDOM_TRIES; t++) {
		int pt = board_pt(b, (int)(rnd() % (unsigned)n), (int)(rnd() % (unsigned)n));
		if (board_at(b, pt) == EMPTY && !own_eye(b, c, pt) && board_check(b, c, pt) == BOARD_OK)
			return pt;
	}
	int start = (int)(rnd() % (unsigned)(n * n));
	for (int k = 0; k < n * n; k++) {
		int i = (start + k) % (n * n);
		int pt = board_pt(b, i % n, i / n);
		if (board_at(b, pt) == EMPTY && !own_eye(b, c, pt) && board_check(b, c, pt) == BOARD_OK)
			return pt;
	}
	return BOARD_PASS;
}

/* An occupied point, or BOARD_PASS if the board is empty. */
static int pick_occupied(const struct board *b)
{
	int n = b->size;
	int start = (int)(rnd() % (unsigned)(n * n));
	for (int k = 0; k < n * n; k++) {
		int i = (start + k) % (n * n);
		int pt = board_pt(b, i % n, i / n);
		if (board_at(b, pt) != EMPTY)
			return pt;
	}
	return BOARD_PASS;
}

static void challenge(struct pair *p);

/* Timers mode: set games up a few at a time, so each accept is answered at once and its round
 * trip bounds the clock's start tightly (see report_timers). */
void start_setups(void)
{
	while (setup_inflight < BENCH_SETUP_IN_FLIGHT && next_setup_pair < npairs) {
		setup_inflight++;
		challenge(&pairs[next_setup_pair++]);
	}
}

static void challenge(struct pair *p)
{
	char tj[160] = "";
	if (O.time)
		snprintf(tj, sizeof tj, ",\"time\":%s", O.time);
	board_reset(p);
	p->game = 0;
	p->live = p->ended = false;
	p->end_seen = 0;
	request(p->c[0], P_CHALLENGE, "challenge", "\"opponent\":\"bench-%06d\",\"size\":%d,"
		"\"rated\":%s,\"color\":\"black\"%s", p->c[1]->idx, O.size, O.rated ? "true" : "false", tj);
}

static void make_move(struct client *c)
{
	struct pair *p = c->pair;
	if (!p->live || p->board.to_move != c->color || phase >= PH_DRAIN || c->closed)
		return;
	if (echo_run && (int)board_moves(&p->board) >= O.moves_per_game)
		board_reset(p);
	bool resign = !echo_run && (int)board_moves(&p->board) >= O.moves_per_game;
	int pt = BOARD_PASS;
	c->intend_illegal = false;
	if (!resign) {
		if (O.illegal > 0 && p->board.passes == 0 && board_moves(&p->board) > 0 &&
		    (double)(rnd() % 1000000) < O.illegal * 1e6) {
			pt = pick_occupied(&p->board);
			c->intend_illegal = pt != BOARD_PASS;
		}
		if (!c->intend_illegal)
			pt = pick_move(&p->board, c->color);
		if (pt == BOARD_PASS)
			resign = !echo_run;
	}
	if (resign) {
		p->live = false;
		request(c, P_RESIGN, "resign", "\"game\":%lld", (long long)p->game);
		return;
	}
	char v[VERTEX_MAX_LEN];
	vertex_format(&p->board, pt, v);
	request(c, P_PLAY, "play", "\"game\":%lld,\"vertex\":\"%s\"", (long long)p->game, v);
}

static void on_think(uv_timer_t *t)
{
	make_move(t->data);
}

static void send_register(struct client *c)
{
	request(c, P_REGISTER, "register", "\"name\":\"bench-%06d\",\"password\":\"" BENCH_PASSWORD "\"",
		c->idx);
}

/* A registration the server asked to retry (rate_limited: its hashing queue is full, issue
 * 20 item 9): again after BENCH_REGISTER_RETRY_MS + up to BENCH_REGISTER_JITTER_MS, on the
 * client's think timer (idle until its game starts). */
static void on_register_retry(uv_timer_t *t)
{
	send_register(t->data);
}

static void my_turn(struct client *c)
{
	if (O.think_ms <= 0) {
		make_move(c);
		return;
	}
	/* Think time: --think ms, uniformly jittered by +-10% so the games do not move in step. */
	double ms = O.think_ms * (0.9 + 0.2 * (double)(rnd() % 1000) / 1000.0);
	uv_timer_start(&c->think, on_think, (uint64_t)ms, 0);
}

/* Apply a move seen in game.move (or, in echo mode, the mover's own echo) to the pair's board. */
static void apply_move(struct pair *p, enum color col, const char *vertex)
{
	int pt = vertex_parse(&p->board, vertex);
	if (pt < 0 || board_play(&p->board, col, pt, NULL, NULL) != BOARD_OK) {
		note_error("board out of step with the server");
		p->live = false;
		return;
	}
}

/* ---- incoming lines ---- */

/* The echo of a play request (echo mode): committed, as far as an echo server goes. */
static void on_echo(struct client *c, json_t *msg, uint64_t rtt)
{
	struct pair *p = c->pair;
	if (measuring()) {
		S.moves++;
		lat_add(rtt);
	}
	const char *v = json_string_value(json_object_get(msg, "vertex"));
	enum color col = c->color;
	if (c->intend_illegal)
		v = "pass";
	if (v)
		apply_move(p, col, v);
	my_turn(p->c[c == p->c[0] ? 1 : 0]);
}

/* Restart mode: the ping after the restart is answered: the time to serve again, then the
 * first account logs in (to count its games' game.state events). */
static void on_restart_ping(struct client *c, uint64_t now)
{
	double dt = (double)(now - restart_t0) / 1e9;
	printf("restart: served again (ping answered) %.3f s after the start of tengend\n", dt);
	fflush(stdout);
	printf("result mode=restart games=%d restart_s=%.3f target_s=2 met=%s\n",
	       npairs * O.games_per_pair, dt, dt < 2 ? "yes" : "no");
	long rss = proc_kb(server_pid, "VmRSS:");
	printf("restart: server RSS after loading %ld KiB\n", rss);
	restart_pinged = now;
	request(c, P_LOGIN, "login", "\"name\":\"bench-000000\",\"password\":\"" BENCH_PASSWORD "\"");
}

static void on_reply(struct client *c, json_t *msg)
{
	if (!c->pn) {
		note_error("reply without a request");
		return;
	}
	enum pend kind = c->pend[c->phead];
	uint64_t sent = c->sent[c->phead];
	c->phead = (c->phead + 1) % BENCH_PENDING_MAX;
	c->pn--;
	uint64_t now = uv_hrtime();
	struct pair *p = c->pair;
	if (echo_run) {
		on_echo(c, msg, now - sent);
		return;
	}
	bool ok = json_is_true(json_object_get(msg, "ok"));
	const char *code = json_string_value(json_object_get(json_object_get(msg, "error"), "code"));
	/* After the window the live games are resigned: a move or resignation still in flight in
	 * such a game gets `conflict`, as it should. */
	if (!ok && phase >= PH_DRAIN && code && strcmp(code, "conflict") == 0)
		return;
	switch (kind) {
	case P_REGISTER:
		if (ok || (code && strcmp(code, "conflict") == 0)) {
			char name[16];
			snprintf(name, sizeof name, "bench-%06d", c->idx);
			request(c, P_LOGIN, "login", "\"name\":\"%s\",\"password\":\"" BENCH_PASSWORD "\"", name);
		} else if (code && strcmp(code, "rate_limited") == 0 && !O.attack) {
			uv_timer_start(&c->think, on_register_retry,
				       BENCH_REGISTER_RETRY_MS + rnd() % (BENCH_REGISTER_JITTER_MS + 1), 0);
		} else {
			note_error("register failed");
		}
		break;
	case P_LOGIN:
		if (!ok) {
			note_error("login failed");
			break;
		}
		c->logged_in = true;
		nlogged++;
		if (!p)
			break;
		if (p->c[0]->logged_in && p->c[1]->logged_in && !O.restart && !O.timers)
			challenge(p);
		if (O.restart && p->c[0]->logged_in && p->c[1]->logged_in)
			challenge(p);
		break;
	case P_CHALLENGE:
		if (!ok) {
			note_error("challenge failed");
			break;
		}
		p->game = json_integer_value(json_object_get(msg, "game"));
		break;
	case P_ACCEPT:
		if (!ok) {
			note_error("accept failed");
			break;
		}
		p->accept_acked = now;
		if (O.timers) {
			setup_inflight--;
			start_setups();
		}
		break;
	case P_PLAY:
		if (measuring()) {
			S.moves++;
			lat_add(now - sent);
		}
		if (!ok) {
			if (code && strcmp(code, "illegal_move") == 0 && c->intend_illegal)
				S.illegal_replies += measuring();
			else
				note_error(code ? code : "play failed");
		}
		if (O.restart) {
			p->created++;
			if (p->created < O.games_per_pair)
				challenge(p);
		}
		break;
	case P_RESIGN:
		if (!ok)
			note_error("resign failed");
		break;
	case P_PING:
		if (restart_phase2)
			on_restart_ping(c, now);
		break;
	default:
		break;
	}
}

static void on_event(struct client *c, const char *ev, json_t *msg)
{
	struct pair *p = c->pair;
	if (restart_phase2 && (strcmp(ev, "game.state") == 0 || strcmp(ev, "challenge.pending") == 0))
		restart_states++;
	if (!p)
		return;
	uint64_t now = uv_hrtime();
	if (strcmp(ev, "challenge") == 0) {
		/* only the partner's (an --attack challenge comes from a spam-N account) */
		const char *from = json_string_value(json_object_get(msg, "from"));
		if (c == p->c[1] && !(from && strncmp(from, "spam-", 5) == 0)) {
			int64_t g = json_integer_value(json_object_get(msg, "game"));
			p->accept_sent = uv_hrtime();
			request(c, P_ACCEPT, "accept", "\"game\":%lld", (long long)g);
		}
	} else if (strcmp(ev, "game.start") == 0) {
		const char *col = json_string_value(json_object_get(msg, "color"));
		c->color = col && col[0] == 'W' ? WHITE : BLACK;
		if (c != p->c[0])
			return;
		p->game = json_integer_value(json_object_get(msg, "game"));
		p->live = true;
		S.games_started++;
		if (O.timers)
			return;
		if (O.restart) {
			char v[VERTEX_MAX_LEN];
			int pt = pick_move(&p->board, BLACK);
			vertex_format(&p->board, pt, v);
			request(c, P_PLAY, "play", "\"game\":%lld,\"vertex\":\"%s\"", (long long)p->game, v);
			return;
		}
		if (c->color == BLACK)
			my_turn(c);
	} else if (strcmp(ev, "game.move") == 0) {
		const char *col = json_string_value(json_object_get(msg, "color"));
		enum color mover = col && col[0] == 'W' ? WHITE : BLACK;
		if (mover == c->color || !p->live || O.restart)
			return;
		const char *v = json_string_value(json_object_get(msg, "vertex"));
		apply_move(p, mover, v ? v : "?");
		if (p->live)
			my_turn(c);
	} else if (strcmp(ev, "game.end") == 0) {
		if (!p->ended) {
			p->ended = true;
			p->end_seen = now;
			S.games_ended++;
			const char *why = json_string_value(json_object_get(msg, "reason"));
			if (!O.timers && why && strcmp(why, "time") == 0)
				S.time_losses++;
			if (O.timers && p->accept_sent) {
				const char *reason = json_string_value(json_object_get(msg, "reason"));
				if (!reason || strcmp(reason, "time") != 0)
					note_error("a timers-mode game ended other than on time");
			}
		}
		p->live = false;
		if (c == p->c[0] && !O.timers && !O.restart && phase < PH_DRAIN)
			challenge(p);
	} else if (strcmp(ev, "game.counting") == 0) {
		/* Two passes in a row should not happen (no pass after a forfeited turn): resign. */
		if (c == p->c[0]) {
			p->live = false;
			request(c, P_RESIGN, "resign", "\"game\":%lld", (long long)p->game);
		}
	}
}

static void on_line(struct client *c, const char *line, size_t len)
{
	json_error_t je;
	json_t *msg = json_loadb(line, len, 0, &je);
	if (!msg) {
		note_error("unparsable line");
		return;
	}
	const char *ev = json_string_value(json_object_get(msg, "event"));
	if (ev && !echo_run)
		on_event(c, ev, msg);
	else
		on_reply(c, msg);
	json_decref(msg);
}

static char read_buf[65536];

void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	buf->base = read_buf;
	buf->len = sizeof read_buf;
}

void on_closed(uv_handle_t *h) { }

void client_close(struct client *c)
{
	if (c->closed)
		return;
	c->closed = true;
	uv_timer_stop(&c->think);
	uv_close((uv_handle_t *)&c->tcp, on_closed);
	uv_close((uv_handle_t *)&c->think, on_closed);
}

static void client_ready(struct client *c);

void client_ws_free(struct client *c)
{
	free(c->wsbuf);
	c->wsbuf = NULL;
	c->wslen = c->wscap = 0;
}

/* --ws: n bytes from the server: the upgrade's answer first, then frames (never masked), each
 * text message one line for on_line. */
static void ws_input(struct client *c, const char *data, size_t n)
{
	if (c->wslen + n > c->wscap) {
		size_t cap = (c->wslen + n) * 2;
		char *p = realloc(c->wsbuf, cap);
		if (!p)
			die("out of memory");
		c->wsbuf = p;
		c->wscap = cap;
	}
	memcpy(c->wsbuf + c->wslen, data, n);
	c->wslen += n;
	size_t off = 0;
	if (!c->ws_open) {
		char *end = NULL;
		for (size_t i = 3; i < c->wslen && !end; i++)
			if (memcmp(c->wsbuf + i - 3, "\r\n\r\n", 4) == 0)
				end = c->wsbuf + i - 3;
		if (!end)
			return;
		if (c->wslen < 12 || memcmp(c->wsbuf, "HTTP/1.1 101", 12) != 0)
			die("the WebSocket upgrade was refused: %.*s", (int)(end - c->wsbuf), c->wsbuf);
		off = (size_t)(end - c->wsbuf) + 4;
		c->ws_open = true;
		client_ready(c);
	}
	while (c->wslen - off >= 2 && !c->closed) {
		const unsigned char *h = (const unsigned char *)c->wsbuf + off;
		size_t hl = 2, len = h[1] & 0x7f;
		if (len == 126) {
			if (c->wslen - off < 4)
				break;
			len = (size_t)h[2] << 8 | h[3];
			hl = 4;
		} else if (len == 127) {
			if (c->wslen - off < 10)
				break;
			len = 0;
			for (int i = 0; i < 8; i++)
				len = len << 8 | h[2 + i];
			hl = 10;
		}
		if (c->wslen - off < hl + len)
			break;
		if ((h[0] & 0x0f) == 1 && len)
			on_line(c, c->wsbuf + off + hl, len);
		else if ((h[0] & 0x0f) == 8 && phase < PH_DONE)
			note_error("closed by the server");
		off += hl + len;
	}
	memmove(c->wsbuf, c->wsbuf + off, c->wslen - off);
	c->wslen -= off;
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct client *c = s->data;
	if (nread < 0) {
		if (phase < PH_DONE) {
			S.disconnects++;
			note_error("disconnected by the server");
		}
		client_close(c);
		return;
	}
	if (O.ws && !echo_run) {
		ws_input(c, buf->base, (size_t)nread);
		return;
	}
	if (framing_feed(&c->fr, buf->base, (size_t)nread) < 0)
		die("out of memory");
	const char *line;
	size_t len;
	enum framing_result r;
	while ((r = framing_next(&c->fr, &line, &len)) != FRAMING_NONE) {
		if (r == FRAMING_TOO_LONG) {
			note_error("line too long");
			continue;
		}
		if (len)
			on_line(c, line, len);
		if (c->closed)
			return;
	}
}

/* ---- connecting ---- */

void on_connect(uv_connect_t *req, int status)
{
	struct client *c = req->data;
	connecting--;
	if (status < 0) {
		note_error("connect failed");
		fprintf(stderr, "load_bench: connect: %s\n", uv_strerror(status));
		c->closed = true;
		uv_close((uv_handle_t *)&c->tcp, on_closed);
		uv_close((uv_handle_t *)&c->think, on_closed);
		connect_more();
		return;
	}
	c->connected = true;
	nconnected++;
	uv_tcp_nodelay(&c->tcp, 1);
	uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
	if (O.ws && !echo_run) {
		static const char up[] = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
			"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
			"Sec-WebSocket-Version: 13\r\n\r\n";
		send_bytes(c, up, sizeof up - 1); /* client_ready once it is answered (ws_input) */
	} else {
		client_ready(c);
	}
	connect_more();
}

/* c is connected (and, with --ws, upgraded): its first requests. */
static void client_ready(struct client *c)
{
	if (restart_phase2) {
		request(c, P_PING, "ping", NULL);
	} else if (echo_run) {
		struct pair *p = c->pair;
		if (p->c[0]->connected && p->c[1]->connected) {
			board_reset(p);
			p->live = true;
			p->c[0]->color = BLACK;
			p->c[1]->color = WHITE;
			S.games_started++;
			my_turn(p->c[0]);
		}
	} else {
		send_register(c);
	}
}

void client_init(struct client *c, int idx)
{
	memset(c, 0, sizeof *c);
	c->idx = idx;
	framing_init(&c->fr);
	uv_tcp_init(loop, &c->tcp);
	uv_timer_init(loop, &c->think);
	c->tcp.data = c;
	c->think.data = c;
	c->creq.data = c;
}

void connect_more(void)
{
	while (connecting < BENCH_CONNECTS_IN_FLIGHT && next_connect < nclients) {
		struct client *c = &clients[next_connect++];
		connecting++;
		int r = uv_tcp_connect(&c->creq, &c->tcp, (struct sockaddr *)&target, on_connect);
		if (r < 0)
			die("connect: %s", uv_strerror(r));
	}
}
