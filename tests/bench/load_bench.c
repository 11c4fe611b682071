/* load_bench: a load generator for tengend (issue 8).
 *
 * Opens C client connections on one libuv loop to a running tengend (--server HOST:PORT) or to
 * one it starts itself (--spawn PATH: a temporary database unless --db, `--pwhash-cost fast`,
 * connection limits raised, port 0 and --port-file). Bot accounts bench-NNNNNN register (or log
 * in if they exist, so a kept --db skips the hashing) and play G concurrent games in pairs.
 * Each game's board is kept here with common/board, so every move is legal unless --illegal
 * asks for a share of occupied-point moves (Art. 19: the server forfeits the turn). A player
 * answers as soon as its turn comes (game.move event), after --think ms. A game that reaches
 * --moves-per-game moves (or has no sensible move) is resigned and the pair challenges again.
 *
 * Modes:
 *   play (default)  throughput and latency: moves per second committed (a move counts once its
 *                   reply arrives), round trip per move p50/p99/p99.9/max, server CPU seconds and
 *                   peak RSS (/proc/PID), errors and disconnects.
 *   --echo          the same traffic against a bare line-echo server (a forked child on libuv
 *                   using proto/framing: each line read is written back, one uv_write per read):
 *                   the ceiling any server reaches on this machine. The partner's turn comes
 *                   when the mover's echo arrives.
 *   --with-echo     run --echo first, then the server, and print the ratio.
 *   --timers        games under --time (default byoyomi 0 s main, 3 x 1 s periods) and no moves;
 *                   each flag's lateness is measured (see docs/benchmarks.md for the method).
 *   --restart       G unfinished games (K per pair, --games-per-pair, one move each), kill -9
 *                   the spawned server, start it again and time until a `ping` is answered.
 *   --attack KIND   play (the honest players, from 127.0.0.1) while a forked attacker hits the
 *                   server from BENCH_ATTACK_ADDR with BENCH_ATTACK_CONNS connections for the
 *                   warm-up and the measured time (and stops by itself then): `listing` (each
 *                   keeps BENCH_ATTACK_DEPTH `games limit=1000` in flight over 1000 ended games,
 *                   reading the replies), `silent` (the same requests, never read), `register`
 *                   (registrations; the server hashes at the interactive cost), `login` (failed
 *                   logins for the honest players' names), `challenge` (BENCH_ATTACK_ACCOUNTS
 *                   accounts challenge the honest players). Loopback only; the round trips
 *                   printed are the honest players' moves, and `time_losses` counts their
 *                   games lost on time (issue 20).
 *
 * The last line of output is "result key=value ..." for scripts/bench.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>
#include <uv.h>
#include "board.h"
#include "framing.h"
#include "vertex.h"

#define BENCH_UNITS_MANY "1000000" /* --address-units for a bench of many players */
#define BENCH_REGISTER_RETRY_MS 20 /* a registration refused as rate_limited is sent again */
#define BENCH_PASSWORD "bench-password"
#define BENCH_CONNECTS_IN_FLIGHT 256   /* connection attempts at once */
#define BENCH_PENDING_MAX 8            /* requests a client has outstanding */
#define BENCH_LINE_MAX 512             /* bytes of a request line */
#define BENCH_TICK_MS 100              /* phase checks */
#define BENCH_SPAWN_WAIT_MS 30000      /* wait for a spawned server's port file */
#define BENCH_SETUP_TIMEOUT_S 600      /* connect, log in and start every game */
#define BENCH_DRAIN_MS 3000            /* wait for resignations at the end */
#define BENCH_RANDOM_TRIES 64          /* random points tried before a scan */
#define BENCH_TIMERS_SLACK_S 10        /* timers mode: wait past the last due time */
#define BENCH_SETUP_IN_FLIGHT 32       /* timers mode: games being set up at once */
#define BENCH_ATTACK_ADDR "127.0.0.66" /* --attack: the attacker's source address */
#define BENCH_ATTACK_CONNS 64          /* ... its connections (tengend's default per address) */
#define BENCH_ATTACK_DEPTH 16          /* ... requests each keeps in flight */
#define BENCH_ATTACK_ACCOUNTS 8        /* ... accounts of the challenge attack */
#define BENCH_ATTACK_GAMES 1000        /* ... ended games put in the database for `listing` */

enum mode { MODE_PLAY, MODE_TIMERS, MODE_RESTART };
enum pend { P_NONE, P_REGISTER, P_LOGIN, P_CHALLENGE, P_ACCEPT, P_PLAY, P_RESIGN, P_PING };
enum phase { PH_SETUP, PH_WARMUP, PH_MEASURE, PH_DRAIN, PH_DONE };

struct opts {
	const char *server, *spawn, *db, *time, *log_level, *sync, *attack;
	int games, size, moves_per_game, games_per_pair;
	double duration, warmup, think_ms, illegal;
	bool echo, with_echo, timers, restart, rated;
	unsigned seed;
	int server_pid;
};

struct client;

struct pair {
	struct client *c[2]; /* [0] challenger, Black; [1] the challenged, White */
	int64_t game;
	struct board board;
	bool has_board, live, ended;
	int created;            /* restart mode: games made */
	uint64_t accept_sent, accept_acked, end_seen; /* timers mode, ns */
};

struct client {
	uv_tcp_t tcp;
	uv_timer_t think;
	uv_connect_t creq;
	struct pair *pair;
	int idx;
	enum color color;
	struct framing fr;
	bool connected, logged_in, closed;
	enum pend pend[BENCH_PENDING_MAX];
	uint64_t sent[BENCH_PENDING_MAX];
	int phead, pn;
	bool intend_illegal;
	int next_id;
};

struct stats {
	uint64_t moves, illegal_replies, errors, disconnects, games_started, games_ended;
	uint64_t time_losses; /* games that ended on time (not in timers mode) */
	uint32_t *lat; /* us */
	size_t nlat, caplat;
	double *late_hi, *late_lo; /* timers mode, ms */
	size_t nlate;
};

static struct opts O = {
	.games = 100, .size = 19, .moves_per_game = 250, .games_per_pair = 10, .duration = 10,
	.warmup = 1, .log_level = "warn",
};
static uv_loop_t *loop;
static struct client *clients;
static struct pair *pairs;
static int nclients, npairs;
static int next_connect, connecting, nconnected, nlogged;
static struct sockaddr_in target;
static enum phase phase;
static uint64_t phase_start, measure_start, measure_end;
static struct stats S;
static uv_timer_t tick;
static pid_t server_pid;
static char tmpdir[256], dbpath[512], portfile[600], logfile[600];
static double cpu0, cpu1, last_mps;
static struct client *extra; /* restart mode: the client after the restart */
static uint64_t restart_pinged;
static long rss_base_kb;
static bool echo_run;
static uint64_t rng_state;
static const char *last_error = "";
static bool restart_phase2;
static uint64_t restart_t0;
static int restart_states;
static int setup_inflight, next_setup_pair; /* timers mode: paced game set-up */

/* ---- small helpers ---- */

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(2685821657736338717);
}

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "load_bench: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	if (server_pid > 0)
		kill(server_pid, SIGKILL);
	exit(1);
}

static void note_error(const char *what)
{
	S.errors++;
	if (S.errors <= 10)
		fprintf(stderr, "load_bench: error: %s\n", what);
	last_error = what;
}

/* CPU seconds (user + system) of process pid from /proc/PID/stat; -1 if unreadable. */
static double proc_cpu(int pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	if (!p)
		return -1;
	unsigned long ut = 0, st = 0;
	/* after ")": state(3) ... utime is field 14, stime 15 */
	if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* A "VmHWM:" / "VmRSS:" figure of /proc/PID/status in KiB; -1 if unreadable. */
static long proc_kb(int pid, const char *key)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	long v = -1;
	size_t kl = strlen(key);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, kl) == 0) {
			v = strtol(line + kl, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

static void lat_add(uint64_t ns)
{
	if (S.nlat == S.caplat) {
		S.caplat = S.caplat ? S.caplat * 2 : 65536;
		S.lat = realloc(S.lat, S.caplat * sizeof *S.lat);
		if (!S.lat)
			die("out of memory");
	}
	uint64_t us = ns / 1000;
	S.lat[S.nlat++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double pct_u32(const uint32_t *v, size_t n, double p)
{
	if (!n)
		return 0;
	size_t i = (size_t)(p * (double)(n - 1) + 0.5);
	return v[i] / 1000.0;
}

static double pct_dbl(const double *v, size_t n, double p)
{
	if (!n)
		return 0;
	return v[(size_t)(p * (double)(n - 1) + 0.5)];
}

/* ---- output ---- */

static void on_write(uv_write_t *w, int status)
{
	free(w->data);
	free(w);
}

static void send_raw(struct client *c, const char *buf, size_t len)
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
static void request(struct client *c, enum pend kind, const char *cmd, const char *fmt, ...)
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

static void board_reset(struct pair *p)
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
static void start_setups(void)
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
 * 20 item 9): again after BENCH_REGISTER_RETRY_MS, on the client's think timer (idle until
 * its game starts). */
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

/* ---- the restart measurement ---- */

static void restart_begin(void);

/* ---- incoming lines ---- */

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
		/* The echo of a play request: committed, as far as an echo server goes. */
		if (measuring()) {
			S.moves++;
			lat_add(now - sent);
		}
		const char *v = json_string_value(json_object_get(msg, "vertex"));
		enum color col = c->color;
		if (c->intend_illegal)
			v = "pass";
		if (v)
			apply_move(p, col, v);
		my_turn(p->c[c == p->c[0] ? 1 : 0]);
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
			uv_timer_start(&c->think, on_register_retry, BENCH_REGISTER_RETRY_MS, 0);
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
		if (restart_phase2) {
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

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	buf->base = read_buf;
	buf->len = sizeof read_buf;
}

static void on_closed(uv_handle_t *h) { }

static void client_close(struct client *c)
{
	if (c->closed)
		return;
	c->closed = true;
	uv_timer_stop(&c->think);
	uv_close((uv_handle_t *)&c->tcp, on_closed);
	uv_close((uv_handle_t *)&c->think, on_closed);
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

static void connect_more(void);

static void on_connect(uv_connect_t *req, int status)
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
	connect_more();
}

static void client_init(struct client *c, int idx)
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

static void connect_more(void)
{
	while (connecting < BENCH_CONNECTS_IN_FLIGHT && next_connect < nclients) {
		struct client *c = &clients[next_connect++];
		connecting++;
		int r = uv_tcp_connect(&c->creq, &c->tcp, (struct sockaddr *)&target, on_connect);
		if (r < 0)
			die("connect: %s", uv_strerror(r));
	}
}

/* ---- servers ---- */

/* The bare echo server: a child process on libuv, the same framing code, one uv_write per read. */
struct echo_conn {
	uv_tcp_t tcp;
	struct framing fr;
};

static void echo_closed(uv_handle_t *h)
{
	struct echo_conn *e = h->data;
	framing_free(&e->fr);
	free(e);
}

static void echo_write_done(uv_write_t *w, int status)
{
	free(w->data);
	free(w);
}

static void echo_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct echo_conn *e = s->data;
	if (nread < 0) {
		uv_close((uv_handle_t *)s, echo_closed);
		return;
	}
	if (framing_feed(&e->fr, buf->base, (size_t)nread) < 0)
		exit(1);
	char *out = NULL;
	size_t outlen = 0, outcap = 0;
	const char *line;
	size_t len;
	enum framing_result r;
	while ((r = framing_next(&e->fr, &line, &len)) != FRAMING_NONE) {
		if (r != FRAMING_LINE)
			continue;
		if (outlen + len + 1 > outcap) {
			outcap = (outlen + len + 1) * 2;
			out = realloc(out, outcap);
			if (!out)
				exit(1);
		}
		memcpy(out + outlen, line, len);
		out[outlen + len] = '\n';
		outlen += len + 1;
	}
	if (!outlen)
		return;
	uv_write_t *w = malloc(sizeof *w);
	if (!w)
		exit(1);
	w->data = out;
	uv_buf_t b = uv_buf_init(out, (unsigned)outlen);
	if (uv_write(w, s, &b, 1, echo_write_done) < 0) {
		free(out);
		free(w);
	}
}

static void echo_accept(uv_stream_t *l, int status)
{
	if (status < 0)
		return;
	struct echo_conn *e = calloc(1, sizeof *e);
	if (!e)
		exit(1);
	framing_init(&e->fr);
	uv_tcp_init(l->loop, &e->tcp);
	e->tcp.data = e;
	if (uv_accept(l, (uv_stream_t *)&e->tcp) < 0) {
		uv_close((uv_handle_t *)&e->tcp, echo_closed);
		return;
	}
	uv_tcp_nodelay(&e->tcp, 1);
	uv_read_start((uv_stream_t *)&e->tcp, on_alloc, echo_read);
}

/* Fork the echo server; returns its port. */
static int spawn_echo(void)
{
	int fds[2];
	if (pipe(fds) < 0)
		die("pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		uv_loop_t el;
		uv_loop_init(&el);
		uv_tcp_t l;
		uv_tcp_init(&el, &l);
		struct sockaddr_in a;
		uv_ip4_addr("127.0.0.1", 0, &a);
		if (uv_tcp_bind(&l, (struct sockaddr *)&a, 0) < 0 ||
		    uv_listen((uv_stream_t *)&l, 511, echo_accept) < 0)
			_exit(1);
		struct sockaddr_in b;
		int bl = sizeof b;
		uv_tcp_getsockname(&l, (struct sockaddr *)&b, &bl);
		int port = ntohs(b.sin_port);
		if (write(fds[1], &port, sizeof port) != sizeof port)
			_exit(1);
		close(fds[1]);
		uv_run(&el, UV_RUN_DEFAULT);
		_exit(0);
	}
	close(fds[1]);
	int port = 0;
	if (read(fds[0], &port, sizeof port) != sizeof port)
		die("the echo server did not start");
	close(fds[0]);
	server_pid = pid;
	return port;
}

/* Start tengend on port 0 with the bench's settings; returns its port. */
/* ---- the attacker (--attack) ---- */

static pid_t attack_pid;

static bool attack_hashes(void)
{
	return O.attack && (strcmp(O.attack, "register") == 0 || strcmp(O.attack, "login") == 0);
}

/* A blocking connection from BENCH_ATTACK_ADDR to the target; -1 on failure. */
static int attack_dial(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET};
	inet_pton(AF_INET, BENCH_ATTACK_ADDR, &a.sin_addr);
	if (fd < 0)
		return -1;
	if (strcmp(O.attack, "silent") == 0) {
		int small = 2048;
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
	}
	if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0 ||
	    connect(fd, (struct sockaddr *)&target, sizeof target) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void attack_send(int fd, const char *line)
{
	size_t len = strlen(line), done = 0;
	while (done < len) {
		ssize_t w = write(fd, line + done, len - done);
		if (w > 0)
			done += (size_t)w;
		else if (w < 0 && errno != EAGAIN && errno != EINTR)
			return;
	}
}

/* The attacker's next request on connection i. */
static void attack_line(int i, unsigned seq, char *buf, size_t n)
{
	if (strcmp(O.attack, "register") == 0)
		snprintf(buf, n, "{\"cmd\":\"register\",\"name\":\"atk%d-%u\",\"password\":\"attack-password\"}\n",
			 i, seq);
	else if (strcmp(O.attack, "login") == 0)
		snprintf(buf, n, "{\"cmd\":\"login\",\"name\":\"bench-%06d\",\"password\":\"wrong-password\"}\n",
			 (int)((unsigned)i * 7919u + seq) % nclients);
	else if (strcmp(O.attack, "challenge") == 0)
		snprintf(buf, n, "{\"cmd\":\"challenge\",\"opponent\":\"bench-%06d\",\"size\":19}\n",
			 (int)((unsigned)i * 7919u + seq) % nclients);
	else
		snprintf(buf, n, "{\"cmd\":\"games\",\"limit\":1000}\n");
}

/* The attacker process: BENCH_ATTACK_CONNS connections, BENCH_ATTACK_DEPTH requests in flight
 * each (replies read and dropped; `silent` sends once and never reads), for `secs` seconds. */
static void attack_run(double secs)
{
	int n = BENCH_ATTACK_CONNS, fds[BENCH_ATTACK_CONNS], out[BENCH_ATTACK_CONNS];
	unsigned seq[BENCH_ATTACK_CONNS];
	bool silent = strcmp(O.attack, "silent") == 0, chal = strcmp(O.attack, "challenge") == 0;
	char line[256];
	static char buf[1 << 16];
	uint64_t end = uv_hrtime() + (uint64_t)(secs * 1e9);
	if (chal) { /* the accounts, one after another on one connection */
		int fd = attack_dial();
		for (int a = 0; fd >= 0 && a < BENCH_ATTACK_ACCOUNTS; a++) {
			snprintf(line, sizeof line, "{\"cmd\":\"register\",\"name\":\"spam-%d\","
				 "\"password\":\"attack-password\"}\n", a);
			attack_send(fd, line);
			if (read(fd, buf, sizeof buf) <= 0)
				break;
		}
		if (fd >= 0)
			close(fd);
	}
	for (int i = 0; i < n; i++) {
		fds[i] = attack_dial();
		out[i] = 0;
		seq[i] = 0;
		if (fds[i] < 0)
			continue;
		if (chal) {
			snprintf(line, sizeof line, "{\"cmd\":\"login\",\"name\":\"spam-%d\","
				 "\"password\":\"attack-password\"}\n", i % BENCH_ATTACK_ACCOUNTS);
			attack_send(fds[i], line);
			out[i]++;
		}
		fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
		if (silent)
			for (int k = 0; k < 4 * BENCH_ATTACK_DEPTH; k++) {
				attack_line(i, seq[i]++, line, sizeof line);
				attack_send(fds[i], line);
			}
	}
	while (uv_hrtime() < end) {
		if (silent) {
			usleep(100 * 1000);
			continue;
		}
		struct pollfd p[BENCH_ATTACK_CONNS];
		for (int i = 0; i < n; i++)
			p[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
		poll(p, (nfds_t)n, 50);
		for (int i = 0; i < n; i++) {
			if (fds[i] < 0)
				continue;
			if (p[i].revents & (POLLIN | POLLHUP | POLLERR)) {
				ssize_t r = read(fds[i], buf, sizeof buf);
				if (r == 0 || (r < 0 && errno != EAGAIN)) {
					close(fds[i]);
					fds[i] = -1; /* cut off: the attacker does not come back */
					continue;
				}
				for (ssize_t k = 0; k < r; k++)
					out[i] -= buf[k] == '\n';
				if (out[i] < 0)
					out[i] = 0;
			}
			for (; out[i] < BENCH_ATTACK_DEPTH; out[i]++) {
				attack_line(i, seq[i]++, line, sizeof line);
				attack_send(fds[i], line);
			}
		}
	}
	_exit(0);
}

/* Start the attacker for the warm-up and the measured time (plus a second). */
static void attack_start(void)
{
	if (strcmp(O.attack, "listing") == 0 || strcmp(O.attack, "silent") == 0) {
		if (!dbpath[0] || !O.spawn)
			die("--attack %s needs --spawn (it adds games to the database)", O.attack);
		char cmd[1024];
		snprintf(cmd, sizeof cmd,
			 "sqlite3 '%s' '.timeout 10000' \"WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL "
			 "SELECT i + 1 FROM k WHERE i < %d) INSERT INTO games (black_id, white_id, size, komi, "
			 "phase, result, reason, created_at, ended_at, rated) SELECT 1, 2, 19, 7.5, 'ended', "
			 "'B+R', 'resignation', 1e9, 1e9, 0 FROM k\"", dbpath, BENCH_ATTACK_GAMES);
		if (system(cmd) != 0)
			die("could not add games with sqlite3");
	}
	fflush(stdout);
	attack_pid = fork();
	if (attack_pid < 0)
		die("fork: %s", strerror(errno));
	if (attack_pid == 0)
		attack_run(O.warmup + O.duration + 1);
	fprintf(stderr, "load_bench: attack %s started (pid %d)\n", O.attack, (int)attack_pid);
}

static void attack_stop(void)
{
	if (attack_pid <= 0)
		return;
	kill(attack_pid, SIGKILL);
	waitpid(attack_pid, NULL, 0);
	attack_pid = 0;
}

static int spawn_tengend(void)
{
	unlink(portfile);
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = open(logfile, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd >= 0) {
			dup2(fd, 2);
			dup2(fd, 1);
			close(fd);
		}
		const char *argv[32] = {O.spawn, "--listen", "127.0.0.1:0", "--db", dbpath, "--port-file",
			portfile, "--pwhash-cost", attack_hashes() ? "interactive" : "fast",
			"--max-per-address", "1000000", "--max-connections", "1000000",
			"--log-level", O.log_level};
		int k = 15;
		if (!O.attack) {
			/* the bench's clients stand for many players at many addresses, but all come
			 * from 127.0.0.1: no per-address limits (an attack run keeps the defaults) */
			const char *many[] = {"--register-per-address", "1000000",
				"--login-fails-per-address", "1000000", "--address-units", BENCH_UNITS_MANY};
			for (size_t i = 0; i < sizeof many / sizeof many[0]; i++)
				argv[k++] = many[i];
		}
		if (O.sync) {
			argv[k++] = "--sync";
			argv[k++] = O.sync;
		}
		/* --create on a first start only: a restart must find the database it left. */
		if (access(dbpath, F_OK) != 0)
			argv[k++] = "--create";
		argv[k] = NULL;
		execv(O.spawn, (char *const *)argv);
		_exit(127);
	}
	server_pid = pid;
	for (int i = 0; i < BENCH_SPAWN_WAIT_MS; i++) {
		FILE *f = fopen(portfile, "r");
		if (f) {
			int port = 0;
			int n = fscanf(f, "%d", &port);
			fclose(f);
			if (n == 1 && port > 0)
				return port;
		}
		int st;
		if (waitpid(pid, &st, WNOHANG) == pid)
			die("tengend exited at start (see %s)", logfile);
		usleep(1000);
	}
	die("tengend did not write its port file");
	return -1;
}

/* ---- phases ---- */

static void stop_all(void)
{
	for (int i = 0; i < nclients; i++)
		client_close(&clients[i]);
	if (extra)
		client_close(extra);
	uv_close((uv_handle_t *)&tick, on_closed);
}

static void report_play(void)
{
	double secs = (double)(measure_end - measure_start) / 1e9;
	qsort(S.lat, S.nlat, sizeof *S.lat, cmp_u32);
	double mps = secs > 0 ? (double)S.moves / secs : 0;
	last_mps = mps;
	double cpu = cpu1 - cpu0;
	long hwm = server_pid > 0 ? proc_kb(server_pid, "VmHWM:") : -1;
	long rss = server_pid > 0 ? proc_kb(server_pid, "VmRSS:") : -1;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double bench_cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
			   (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	printf("%s: %d games (%d clients connected, %d logged in), think %.0f ms, illegal %.3f, %.1f s measured\n",
	       echo_run ? "echo" : "server", npairs, nconnected, nlogged, O.think_ms, O.illegal, secs);
	printf("  moves committed: %llu (%.0f/s); illegal answered: %llu; games started %llu, ended %llu\n",
	       (unsigned long long)S.moves, mps, (unsigned long long)S.illegal_replies,
	       (unsigned long long)S.games_started, (unsigned long long)S.games_ended);
	printf("  round trip ms: p50 %.3f  p99 %.3f  p99.9 %.3f  max %.3f\n", pct_u32(S.lat, S.nlat, 0.5),
	       pct_u32(S.lat, S.nlat, 0.99), pct_u32(S.lat, S.nlat, 0.999),
	       S.nlat ? S.lat[S.nlat - 1] / 1000.0 : 0);
	printf("  server: cpu %.2f s in the window (%.0f%% of a core), peak RSS %ld KiB, RSS now %ld KiB, at start %ld KiB",
	       cpu, secs > 0 ? 100 * cpu / secs : 0, hwm, rss, rss_base_kb);
	if (nconnected && hwm > 0)
		printf(", %.1f KiB per connection (peak / connections), %.1f KiB (growth / connections)",
		       (double)hwm / nconnected, (double)(hwm - rss_base_kb) / nconnected);
	printf("\n  load generator cpu %.2f s in all; errors %llu, disconnects %llu%s%s\n", bench_cpu,
	       (unsigned long long)S.errors, (unsigned long long)S.disconnects,
	       S.errors ? ", last: " : "", S.errors ? last_error : "");
	if (O.attack)
		printf("  attack %s from %s: honest games lost on time %llu\n", O.attack,
		       BENCH_ATTACK_ADDR, (unsigned long long)S.time_losses);
	printf("result mode=%s games=%d clients=%d think_ms=%.0f illegal=%.3f secs=%.1f moves=%llu moves_per_s=%.0f "
	       "p50_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f server_cpu_s=%.2f server_peak_rss_kb=%ld "
	       "server_rss_kb=%ld rss_base_kb=%ld kb_per_conn=%.1f errors=%llu disconnects=%llu\n",
	       echo_run ? "echo" : "play", npairs, nconnected, O.think_ms, O.illegal, secs,
	       (unsigned long long)S.moves, mps, pct_u32(S.lat, S.nlat, 0.5), pct_u32(S.lat, S.nlat, 0.99),
	       pct_u32(S.lat, S.nlat, 0.999), S.nlat ? S.lat[S.nlat - 1] / 1000.0 : 0, cpu, hwm, rss,
	       rss_base_kb, nconnected && hwm > 0 ? (double)hwm / nconnected : 0,
	       (unsigned long long)S.errors, (unsigned long long)S.disconnects);
	fflush(stdout);
}

static void report_timers(void)
{
	double D = 0;
	/* the due time of Black's flag with no move: main + periods x period */
	json_t *t = json_loads(O.time, 0, NULL);
	if (t) {
		D = json_number_value(json_object_get(t, "main_s")) +
		    json_number_value(json_object_get(t, "periods")) *
		    json_number_value(json_object_get(t, "period_s"));
		json_decref(t);
	}
	size_t n = 0, missing = 0;
	S.late_hi = calloc((size_t)npairs + 1, sizeof(double));
	S.late_lo = calloc((size_t)npairs + 1, sizeof(double));
	for (int i = 0; i < npairs; i++) {
		struct pair *p = &pairs[i];
		if (!p->accept_sent)
			continue;
		if (!p->end_seen) {
			missing++;
			continue;
		}
		S.late_hi[n] = ((double)(p->end_seen - p->accept_sent) / 1e9 - D) * 1000;
		S.late_lo[n] = ((double)(p->end_seen - p->accept_acked) / 1e9 - D) * 1000;
		n++;
	}
	qsort(S.late_hi, n, sizeof(double), cmp_dbl);
	qsort(S.late_lo, n, sizeof(double), cmp_dbl);
	double mx = n ? S.late_hi[n - 1] : 0;
	long hwm = proc_kb(server_pid, "VmHWM:");
	printf("timers: %d games, %s, due %.1f s after accept; %zu flags seen, %zu missing\n", npairs,
	       O.time, D, n, missing);
	printf("  lateness ms (upper bound: end event arrival - accept sent - due): p50 %.1f  p99 %.1f  max %.1f\n",
	       pct_dbl(S.late_hi, n, 0.5), pct_dbl(S.late_hi, n, 0.99), mx);
	printf("  lower bound (end arrival - accept reply arrival - due): min %.1f  p50 %.1f\n",
	       n ? S.late_lo[0] : 0, pct_dbl(S.late_lo, n, 0.5));
	printf("  server peak RSS %ld KiB; errors %llu, disconnects %llu\n", hwm,
	       (unsigned long long)S.errors, (unsigned long long)S.disconnects);
	printf("result mode=timers games=%d flags=%zu missing=%zu late_p50_ms=%.1f late_p99_ms=%.1f "
	       "late_max_ms=%.1f early_min_ms=%.1f errors=%llu met=%s\n", npairs, n, missing,
	       pct_dbl(S.late_hi, n, 0.5), pct_dbl(S.late_hi, n, 0.99), mx, n ? S.late_lo[0] : 0,
	       (unsigned long long)S.errors, !missing && n && mx <= 50 ? "yes" : "no");
	fflush(stdout);
}

static bool all_started(void)
{
	for (int i = 0; i < npairs; i++)
		if (!pairs[i].live && !pairs[i].ended)
			return false;
	return true;
}

static void on_tick(uv_timer_t *t)
{
	uint64_t now = uv_hrtime();
	double in_phase = (double)(now - phase_start) / 1e9;
	switch (phase) {
	case PH_SETUP:
		if (O.timers && nlogged == nclients && next_setup_pair == 0)
			start_setups();
		if (O.restart) {
			int made = 0;
			for (int i = 0; i < npairs; i++)
				made += pairs[i].created;
			if (made >= npairs * O.games_per_pair) {
				printf("restart: %d unfinished games made in %.1f s\n", made, in_phase);
				fflush(stdout);
				restart_begin();
			} else if (in_phase > BENCH_SETUP_TIMEOUT_S) {
				die("setup timed out: %d games made", made);
			}
			return;
		}
		if (all_started() && (O.timers || nlogged == nclients || echo_run)) {
			fprintf(stderr, "load_bench: setup done in %.1f s (%d connected, %d logged in)\n",
				in_phase, nconnected, nlogged);
			phase = O.timers ? PH_MEASURE : PH_WARMUP;
			phase_start = now;
			if (O.attack && !echo_run)
				attack_start();
			if (O.timers)
				break;
		} else if (in_phase > BENCH_SETUP_TIMEOUT_S) {
			die("setup timed out: %d connected, %d logged in", nconnected, nlogged);
		}
		break;
	case PH_WARMUP:
		if (in_phase >= O.warmup) {
			phase = PH_MEASURE;
			phase_start = measure_start = now;
			if (server_pid > 0)
				cpu0 = proc_cpu(server_pid);
		}
		break;
	case PH_MEASURE:
		if (O.timers) {
			bool all = true;
			for (int i = 0; i < npairs; i++)
				all &= pairs[i].ended;
			if (all || in_phase > O.duration + BENCH_TIMERS_SLACK_S) {
				report_timers();
				phase = PH_DONE;
				stop_all();
			}
			break;
		}
		if (in_phase >= O.duration) {
			measure_end = now;
			if (server_pid > 0)
				cpu1 = proc_cpu(server_pid);
			phase = PH_DRAIN;
			phase_start = now;
			report_play();
			/* Resign the live games so a kept database holds no unfinished ones. */
			if (!echo_run)
				for (int i = 0; i < npairs; i++)
					if (pairs[i].live && pairs[i].game && !pairs[i].c[0]->closed) {
						pairs[i].live = false;
						request(pairs[i].c[0], P_RESIGN, "resign", "\"game\":%lld",
							(long long)pairs[i].game);
					}
		}
		break;
	case PH_DRAIN: {
		attack_stop();
		bool idle = true;
		for (int i = 0; i < nclients && idle; i++)
			idle = clients[i].closed || clients[i].pn == 0;
		if (idle || in_phase * 1000 > BENCH_DRAIN_MS) {
			phase = PH_DONE;
			stop_all();
		}
		break;
	}
	case PH_DONE:
		/* Restart: a second after the ping, the first account's login has listed its games. */
		if (restart_phase2 && restart_pinged && (now - restart_pinged) / 1000000 > 1000) {
			printf("restart: bench-000000 logged in and got %d game.state events (%d expected)\n",
			       restart_states, O.games_per_pair);
			if (restart_states != O.games_per_pair)
				note_error("games missing after the restart");
			restart_pinged = 0;
			stop_all();
		}
		break;
	}
}

static void restart_begin(void)
{
	/* Kill the server hard, close our side, start it again and time until a ping answers. */
	kill(server_pid, SIGKILL);
	int st;
	waitpid(server_pid, &st, 0);
	for (int i = 0; i < nclients; i++)
		client_close(&clients[i]);
	restart_phase2 = true;
	restart_t0 = uv_hrtime();
	int port = spawn_tengend();
	double up = (double)(uv_hrtime() - restart_t0) / 1e9;
	printf("restart: port file written %.3f s after the start\n", up);
	uv_ip4_addr("127.0.0.1", port, &target);
	/* One more client (the first challenger's account) pings, then logs in to count game.state. */
	struct client *c = calloc(1, sizeof *c);
	if (!c)
		die("out of memory");
	client_init(c, 0);
	c->pair = NULL;
	extra = c;
	int r = uv_tcp_connect(&c->creq, &c->tcp, (struct sockaddr *)&target, on_connect);
	if (r < 0)
		die("connect: %s", uv_strerror(r));
	phase = PH_DONE;
}

/* ---- main ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: load_bench (--spawn PATH-TO-TENGEND | --server HOST:PORT) [options]\n"
		"  --games G           concurrent games (2G clients; default 100)\n"
		"  --duration S        seconds measured (default 10), after --warmup S (default 1)\n"
		"  --think MS          think time per move, +-10%% jitter (default 0)\n"
		"  --illegal F         share of moves played on an occupied point (default 0)\n"
		"  --size N            board size (default 19); --moves-per-game N (default 250)\n"
		"  --time JSON         time control object for the games (default none)\n"
		"  --rated             rated games (default unrated)\n"
		"  --echo              the same traffic against a bare line-echo server (the ceiling)\n"
		"  --with-echo         measure --echo first, then the server, and print the ratio\n"
		"  --timers            games under --time and no moves: flag-fall lateness\n"
		"  --restart           G unfinished games, kill -9, restart: time to a ping answer\n"
		"  --games-per-pair K  --restart: games per pair of accounts (default 10)\n"
		"  --db PATH           keep the spawned server's database here (accounts are reused)\n"
		"  --server-pid PID    with --server: read CPU and RSS of this process\n"
		"  --log-level L       the spawned server's log level (default warn)\n"
		"  --sync MODE         the spawned server's --sync (power-safe, lose-on-power-cut)\n"
		"  --seed N            random seed\n"
		"  --attack KIND       play while an attacker (127.0.0.66) floods: listing, silent,\n"
		"                      register, login or challenge (loopback only; issue 20)\n");
}

static void one_run(bool echo)
{
	memset(&S, 0, sizeof S);
	echo_run = echo;
	phase = PH_SETUP;
	next_connect = connecting = nconnected = nlogged = 0;
	setup_inflight = next_setup_pair = 0;
	loop = uv_default_loop();
	int port;
	if (echo) {
		port = spawn_echo();
	} else if (O.spawn) {
		port = spawn_tengend();
	} else {
		char host[256];
		const char *colon = strrchr(O.server, ':');
		if (!colon || (size_t)(colon - O.server) >= sizeof host)
			die("--server takes HOST:PORT");
		memcpy(host, O.server, (size_t)(colon - O.server));
		host[colon - O.server] = '\0';
		port = atoi(colon + 1);
		server_pid = O.server_pid;
		if (uv_ip4_addr(host, port, &target) < 0)
			die("bad --server address");
	}
	if (echo || O.spawn)
		uv_ip4_addr("127.0.0.1", port, &target);
	rss_base_kb = server_pid > 0 ? proc_kb(server_pid, "VmRSS:") : -1;
	npairs = O.restart ? (O.games + O.games_per_pair - 1) / O.games_per_pair : O.games;
	nclients = 2 * npairs;
	clients = calloc((size_t)nclients, sizeof *clients);
	pairs = calloc((size_t)npairs, sizeof *pairs);
	if (!clients || !pairs)
		die("out of memory");
	for (int i = 0; i < npairs; i++) {
		struct pair *p = &pairs[i];
		for (int k = 0; k < 2; k++) {
			struct client *c = &clients[2 * i + k];
			client_init(c, 2 * i + k);
			c->pair = p;
			p->c[k] = c;
		}
		board_reset(p);
	}
	uv_timer_init(loop, &tick);
	uv_timer_start(&tick, on_tick, BENCH_TICK_MS, BENCH_TICK_MS);
	phase_start = uv_hrtime();
	connect_more();
	uv_run(loop, UV_RUN_DEFAULT);
	if (server_pid > 0 && (echo || O.spawn)) {
		kill(server_pid, echo ? SIGKILL : SIGTERM);
		int st;
		waitpid(server_pid, &st, 0);
		server_pid = 0;
	}
	for (int i = 0; i < nclients; i++)
		framing_free(&clients[i].fr);
	for (int i = 0; i < npairs; i++)
		if (pairs[i].has_board)
			board_free(&pairs[i].board);
	free(clients);
	free(pairs);
	free(S.lat);
	free(S.late_hi);
	free(S.late_lo);
	if (extra) {
		framing_free(&extra->fr);
		free(extra);
		extra = NULL;
	}
	restart_phase2 = false;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{"spawn", required_argument, NULL, 's'}, {"server", required_argument, NULL, 'S'},
		{"games", required_argument, NULL, 'g'}, {"duration", required_argument, NULL, 'd'},
		{"warmup", required_argument, NULL, 'w'}, {"think", required_argument, NULL, 't'},
		{"illegal", required_argument, NULL, 'i'}, {"size", required_argument, NULL, 'z'},
		{"moves-per-game", required_argument, NULL, 'm'}, {"time", required_argument, NULL, 'T'},
		{"rated", no_argument, NULL, 'r'}, {"echo", no_argument, NULL, 'e'},
		{"with-echo", no_argument, NULL, 'E'}, {"timers", no_argument, NULL, 'F'},
		{"restart", no_argument, NULL, 'R'}, {"games-per-pair", required_argument, NULL, 'k'},
		{"db", required_argument, NULL, 'D'}, {"server-pid", required_argument, NULL, 'p'},
		{"log-level", required_argument, NULL, 'L'}, {"seed", required_argument, NULL, 'x'},
		{"sync", required_argument, NULL, 'Y'}, {"attack", required_argument, NULL, 'A'},
		{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	int o;
	while ((o = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (o) {
		case 's': O.spawn = optarg; break;
		case 'S': O.server = optarg; break;
		case 'g': O.games = atoi(optarg); break;
		case 'd': O.duration = atof(optarg); break;
		case 'w': O.warmup = atof(optarg); break;
		case 't': O.think_ms = atof(optarg); break;
		case 'i': O.illegal = atof(optarg); break;
		case 'z': O.size = atoi(optarg); break;
		case 'm': O.moves_per_game = atoi(optarg); break;
		case 'T': O.time = optarg; break;
		case 'r': O.rated = true; break;
		case 'e': O.echo = true; break;
		case 'E': O.with_echo = true; break;
		case 'F': O.timers = true; break;
		case 'R': O.restart = true; break;
		case 'k': O.games_per_pair = atoi(optarg); break;
		case 'D': O.db = optarg; break;
		case 'p': O.server_pid = atoi(optarg); break;
		case 'L': O.log_level = optarg; break;
		case 'Y': O.sync = optarg; break;
		case 'A': O.attack = optarg; break;
		case 'x': O.seed = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc || O.games < 1 || O.size < 2 || O.size > BOARD_MAX_SIZE || O.duration <= 0 ||
	    O.illegal < 0 || O.illegal > 0.5 || O.games_per_pair < 1 || O.moves_per_game < 1) {
		usage(stderr);
		return 2;
	}
	if (!O.echo && !O.spawn && !O.server) {
		fprintf(stderr, "load_bench: give --spawn PATH or --server HOST:PORT (or --echo)\n");
		return 2;
	}
	if (O.attack && strcmp(O.attack, "listing") != 0 && strcmp(O.attack, "silent") != 0 &&
	    strcmp(O.attack, "register") != 0 && strcmp(O.attack, "login") != 0 &&
	    strcmp(O.attack, "challenge") != 0) {
		fprintf(stderr, "load_bench: --attack takes listing, silent, register, login or challenge\n");
		return 2;
	}
	if (O.restart && !O.spawn) {
		fprintf(stderr, "load_bench: --restart needs --spawn\n");
		return 2;
	}
	if (O.timers && !O.time)
		O.time = "{\"system\":\"byoyomi\",\"main_s\":0,\"periods\":3,\"period_s\":1}";
	if (O.timers)
		O.duration = 0;
	rng_state = O.seed ? O.seed : (uint64_t)uv_hrtime() | 1;
	signal(SIGPIPE, SIG_IGN);
	/* As many descriptors as the hard limit allows (10,000 clients need them). */
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (O.spawn) {
		snprintf(tmpdir, sizeof tmpdir, "/tmp/load_bench.XXXXXX");
		if (!mkdtemp(tmpdir))
			die("mkdtemp: %s", strerror(errno));
		snprintf(dbpath, sizeof dbpath, "%s", O.db ? O.db : "");
		if (!O.db)
			snprintf(dbpath, sizeof dbpath, "%s/bench.db", tmpdir);
		snprintf(portfile, sizeof portfile, "%s/port", tmpdir);
		snprintf(logfile, sizeof logfile, "%s/tengend.log", tmpdir);
	}
	int rc = 0;
	double echo_mps = 0;
	if (O.echo || O.with_echo) {
		one_run(true);
		echo_mps = last_mps;
		rc |= S.errors > 0;
	}
	if (!O.echo) {
		one_run(false);
		rc |= S.errors > 0 || S.disconnects > 0;
		if (O.with_echo && echo_mps > 0) {
			double mps = last_mps;
			printf("ratio: server %.0f moves/s / echo %.0f moves/s = %.2f (target >= 0.50: %s)\n",
			       mps, echo_mps, mps / echo_mps, mps / echo_mps >= 0.5 ? "met" : "not met");
			printf("result mode=ratio games=%d server_moves_per_s=%.0f echo_moves_per_s=%.0f ratio=%.3f\n",
			       O.games, mps, echo_mps, mps / echo_mps);
		}
	}
	if (O.spawn && !O.db) {
		unlink(dbpath);
		char p[700];
		snprintf(p, sizeof p, "%s-wal", dbpath);
		unlink(p);
		snprintf(p, sizeof p, "%s-shm", dbpath);
		unlink(p);
		snprintf(p, sizeof p, "%s.lock", dbpath);
		unlink(p);
	}
	if (O.spawn) {
		if (rc)
			fprintf(stderr, "load_bench: the server's log is kept in %s\n", logfile);
		else {
			unlink(logfile);
			unlink(portfile);
			rmdir(tmpdir);
		}
	}
	return rc;
}
