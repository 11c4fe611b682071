/* lean_load's protocol (lean_load.h): the requests, the replies and events that drive them,
 * and the moves. A line is not parsed: each is scanned for the few members it needs
 * ("event":, "id":, "ok":true, "code":, "game":, "number":, "color":), which the server
 * writes with no spaces (docs/protocol.md). Moves come from LEAN_SEQS sequences computed at
 * start with common/board (random legal points, own one-point eyes left alone, situational
 * superko as the server's default rules); each game replays one of them, so no board logic
 * runs per move and the server referees. */
#define _GNU_SOURCE
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "board.h"
#include "lean_load.h"
#include "vertex.h"

#define KEY(s) s, sizeof s - 1

char (*lean_seq[LEAN_SEQS])[5];
int lean_seqlen[LEAN_SEQS];

/* ---- the move sequences (at start only) ---- */

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

static bool good_point(const struct board *b, enum color c, int pt)
{
	return board_at(b, pt) == EMPTY && !own_eye(b, c, pt) && board_check(b, c, pt) == BOARD_OK;
}

/* A random legal point for c that does not fill an own eye; BOARD_PASS if none. */
static int pick_move(const struct board *b, enum color c)
{
	int n = b->size;
	for (int t = 0; t < LEAN_RANDOM_TRIES; t++) {
		int pt = board_pt(b, (int)(lean_rnd() % (unsigned)n), (int)(lean_rnd() % (unsigned)n));
		if (good_point(b, c, pt))
			return pt;
	}
	int start = (int)(lean_rnd() % (unsigned)(n * n));
	for (int k = 0; k < n * n; k++) {
		int i = (start + k) % (n * n);
		int pt = board_pt(b, i % n, i / n);
		if (good_point(b, c, pt))
			return pt;
	}
	return BOARD_PASS;
}

void play_make_sequences(void)
{
	for (int s = 0; s < LEAN_SEQS; s++) {
		struct board b;
		if (board_init(&b, L.size, KO_SITUATIONAL) < 0)
			lean_die("board_init failed");
		lean_seq[s] = malloc((size_t)L.moves_per_game * sizeof *lean_seq[s]);
		if (!lean_seq[s])
			lean_die("out of memory");
		enum color c = BLACK;
		int k = 0;
		for (; k < L.moves_per_game; k++) {
			int pt = pick_move(&b, c);
			if (pt == BOARD_PASS || board_play(&b, c, pt, NULL, NULL) != BOARD_OK)
				break; /* no sensible move left: the sequence ends (Black resigns) */
			char v[VERTEX_MAX_LEN];
			vertex_format(&b, pt, v);
			memcpy(lean_seq[s][k], v, sizeof lean_seq[s][k]); /* "Z25" and its NUL fit */
			lean_seq[s][k][sizeof lean_seq[s][k] - 1] = '\0';
			c = color_other(c);
		}
		lean_seqlen[s] = k;
		board_free(&b);
	}
}

/* ---- scanning a line ---- */

/* The bytes after the first `key` in the line, or NULL. */
static const char *scan(const char *l, size_t len, const char *key, size_t klen)
{
	const char *p = memmem(l, len, key, klen);
	return p ? p + klen : NULL;
}

/* The integer after `key` (-1 if absent or not a number). */
static long long scan_int(const char *l, size_t len, const char *key, size_t klen)
{
	const char *p = scan(l, len, key, klen), *end = l + len;
	if (!p || p == end || *p < '0' || *p > '9')
		return -1;
	long long v = 0;
	while (p < end && *p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	return v;
}

/* Whether the bytes at p (before end) begin with the string s. */
static bool starts(const char *p, const char *end, const char *s, size_t n)
{
	return (size_t)(end - p) >= n && memcmp(p, s, n) == 0;
}

/* ---- requests ---- */

void play_request(struct lean_client *c, enum lean_req kind, const char *cmd, const char *fields)
{
	if (c->pn == LEAN_PENDING_MAX) {
		lean_error(c, "too many outstanding requests", NULL, 0);
		return;
	}
	char line[LEAN_REQ_MAX];
	uint32_t id = ++c->next_id;
	int n = snprintf(line, sizeof line, "{\"cmd\":\"%s\",\"id\":%u%s%s}\n", cmd, (unsigned)id,
			 *fields ? "," : "", fields);
	if (n < 0 || n >= (int)sizeof line)
		lean_die("request too long");
	int slot = (c->phead + c->pn) % LEAN_PENDING_MAX;
	c->pend[slot] = (struct lean_pend){.kind = (uint8_t)kind, .id = id, .sent = lean_now()};
	c->pn++;
	net_send(c, line, (size_t)n);
}

static void send_register(struct lean_client *c)
{
	char f[128];
	snprintf(f, sizeof f, "\"name\":\"" LEAN_NAME_FMT "\",\"password\":\"" LEAN_PASSWORD "\"", c->idx);
	play_request(c, R_REGISTER, "register", f);
}

static void send_login(struct lean_client *c)
{
	char f[128];
	snprintf(f, sizeof f, "\"name\":\"" LEAN_NAME_FMT "\",\"password\":\"" LEAN_PASSWORD "\"", c->idx);
	play_request(c, R_LOGIN, "login", f);
}

static void send_game(struct lean_client *c, enum lean_req kind, const char *cmd, long long game)
{
	char f[64];
	snprintf(f, sizeof f, "\"game\":%lld", game);
	play_request(c, kind, cmd, f);
}

/* The challenger (Black) challenges its partner again. */
static void challenge(struct lean_pair *p)
{
	struct lean_client *c = &lean_clients[2 * (p - lean_pairs)];
	char f[LEAN_REQ_MAX - 64];
	int n = snprintf(f, sizeof f, "\"opponent\":\"" LEAN_NAME_FMT "\",\"size\":%d,\"rated\":false,"
			 "\"color\":\"black\"%s%s", c[1].idx, L.size, L.time ? ",\"time\":" : "",
			 L.time ? L.time : "");
	if (n < 0 || n >= (int)sizeof f)
		lean_die("--time too long");
	p->live = false;
	p->game = 0;
	play_request(c, R_CHALLENGE, "challenge", f);
}

/* ---- moves ---- */

/* c's move number `next` (0-based) of its pair's sequence, now. */
static void make_move(struct lean_client *c, int next)
{
	struct lean_pair *p = &lean_pairs[c->pair];
	if (!p->live || lean_phase >= PH_DRAIN || c->conn != C_OPEN || next >= lean_seqlen[p->seq])
		return;
	char f[64];
	snprintf(f, sizeof f, "\"game\":%lld,\"vertex\":\"%s\"", (long long)p->game, lean_seq[p->seq][next]);
	play_request(c, R_PLAY, "play", f);
}

/* c is to make move `next`: after --think ms (+-10 %), or at once. */
static void my_turn(struct lean_client *c, int next)
{
	struct lean_pair *p = &lean_pairs[c->pair];
	p->moves = next;
	if (L.think_ms <= 0 || L.restart) {
		make_move(c, next);
		return;
	}
	double ms = L.think_ms * (0.9 + 0.2 * (double)(lean_rnd() % 1000) / 1000.0);
	net_timer(c, T_MOVE, lean_now() + (uint64_t)(ms * 1e6));
}

void play_timer(struct lean_client *c, enum lean_timer k)
{
	switch (k) {
	case T_MOVE: make_move(c, lean_pairs[c->pair].moves); break;
	case T_REGISTER: send_register(c); break;
	case T_RECONNECT: net_queue(c); break;
	default: break;
	}
}

/* --echo: the mover's echo came back; the turn passes (a new sequence after the last move). */
static void on_echo(struct lean_client *c)
{
	struct lean_pair *p = &lean_pairs[c->pair];
	int next = p->moves + 1;
	if (next >= lean_seqlen[p->seq]) {
		p->seq = (int)(lean_rnd() % LEAN_SEQS);
		next = 0;
	}
	struct lean_client *other = &lean_clients[2 * c->pair + (next % 2)];
	my_turn(other, next);
}

/* ---- replies ---- */

static bool expected_refusal(enum lean_req kind, const char *code, size_t n)
{
	/* After the window the live games are resigned: a move or resignation still in flight
	 * in such a game gets `conflict`, as it should. */
	return lean_phase >= PH_DRAIN && n == 8 && memcmp(code, "conflict", 8) == 0 &&
	       (kind == R_PLAY || kind == R_RESIGN || kind == R_ACCEPT || kind == R_CHALLENGE);
}

static void on_login(struct lean_client *c)
{
	c->logged_in = true;
	lean_nlogged++;
	net_landed(c);
	if (lean_phase == PH_BACK)
		return; /* its game.state follows */
	struct lean_pair *p = &lean_pairs[c->pair];
	struct lean_client *b = &lean_clients[2 * c->pair];
	if (b[0].logged_in && b[1].logged_in && lean_phase < PH_DRAIN)
		challenge(p);
}

static void on_reply(struct lean_client *c, const char *l, size_t len, uint64_t now)
{
	if (!c->pn) {
		lean_error(c, "reply without a request", l, len);
		return;
	}
	struct lean_pend pd = c->pend[c->phead];
	c->phead = (uint8_t)((c->phead + 1) % LEAN_PENDING_MAX);
	c->pn--;
	if (scan_int(l, len, KEY("\"id\":")) != (long long)pd.id) {
		lean_error(c, "reply to another request", l, len);
		return;
	}
	if (pd.kind == R_PLAY && lean_phase == PH_MEASURE) {
		LS.moves++;
		lean_lat_add(now - pd.sent);
	}
	if (L.echo) {
		on_echo(c);
		return;
	}
	bool ok = scan(l, len, KEY("\"ok\":true")) != NULL;
	const char *code = ok ? NULL : scan(l, len, KEY("\"code\":\""));
	const char *q = code ? memchr(code, '"', len - (size_t)(code - l)) : NULL;
	size_t cn = q ? (size_t)(q - code) : 0;
	if (!ok && (!q || !expected_refusal(pd.kind, code, cn))) {
		if (pd.kind == R_REGISTER && cn == 8 && memcmp(code, "conflict", 8) == 0) {
			send_login(c); /* the account exists (a kept --db) */
		} else if (pd.kind == R_REGISTER && cn == 12 && memcmp(code, "rate_limited", 12) == 0) {
			uint64_t ms = LEAN_REGISTER_RETRY_MIN_MS +
				      lean_rnd() % (LEAN_REGISTER_RETRY_MAX_MS - LEAN_REGISTER_RETRY_MIN_MS + 1);
			net_timer(c, T_REGISTER, now + ms * 1000000);
		} else {
			lean_error(c, "refused", l, len);
		}
		return;
	}
	if (!ok)
		return;
	switch (pd.kind) {
	case R_REGISTER: send_login(c); break;
	case R_LOGIN: on_login(c); break;
	case R_PING:
		if (lean_phase == PH_BACK && !lean_ping_at)
			lean_ping_at = now;
		net_landed(c);
		break;
	default: break;
	}
}

/* ---- events ---- */

static void on_game_move(struct lean_client *c, const char *l, size_t len)
{
	struct lean_pair *p = &lean_pairs[c->pair];
	long long g = scan_int(l, len, KEY("\"game\":")), n = scan_int(l, len, KEY("\"number\":"));
	const char *col = scan(l, len, KEY("\"color\":\""));
	/* Another game's: the pair's previous one (the partner may have moved on first). */
	if (g != p->game)
		return;
	if (n < 1 || !col || col >= l + len) {
		lean_error(c, "game.move without number or color", l, len);
		return;
	}
	bool mine = *col == (c->role == 0 ? 'B' : 'W');
	if (L.restart) {
		if (c->role == 0 && n == LEAN_RESTART_MOVES && p->restart_moves < n) {
			p->games[p->ngames++] = p->game; /* live: the next one, or done */
			if (p->ngames == L.games_per_pair)
				lean_nready++;
			else
				challenge(p);
		}
		if (c->role == 0 && n > p->restart_moves)
			p->restart_moves = (int)n;
		if (!mine && n < LEAN_RESTART_MOVES)
			my_turn(c, (int)n);
		return;
	}
	if (n >= lean_seqlen[p->seq]) {
		/* the sequence is played out: Black resigns, the pair plays again (on game.end) */
		if (c->role == 0 && p->live && lean_phase < PH_DRAIN) {
			p->live = false;
			send_game(c, R_RESIGN, "resign", p->game);
		}
		return;
	}
	if (!mine && p->live)
		my_turn(c, (int)n);
}

static void on_event(struct lean_client *c, const char *ev, const char *l, size_t len)
{
	struct lean_pair *p = &lean_pairs[c->pair];
	const char *end = l + len;
	if (starts(ev, end, KEY("game.move\""))) {
		on_game_move(c, l, len);
	} else if (starts(ev, end, KEY("challenge\""))) {
		if (c->role == 1) /* also while draining: the game starts and is resigned */
			send_game(c, R_ACCEPT, "accept", scan_int(l, len, KEY("\"game\":")));
	} else if (starts(ev, end, KEY("game.start\""))) {
		if (c->role != 0)
			return;
		p->game = scan_int(l, len, KEY("\"game\":"));
		p->live = true;
		p->restart_moves = 0;
		p->seq = (int)(lean_rnd() % LEAN_SEQS);
		if (!p->started) {
			p->started = true;
			lean_nstarted++;
		}
		/* During the set-up only --restart moves (the others start together: play_kickoff);
		 * after the window a game that starts is resigned (a kept --db keeps none live) */
		if (lean_phase >= PH_DRAIN) {
			p->live = false;
			send_game(c, R_RESIGN, "resign", p->game);
		} else if (lean_phase != PH_SETUP || L.restart) {
			my_turn(c, 0);
		}
	} else if (starts(ev, end, KEY("game.end\""))) {
		if (c->role != 0 || scan_int(l, len, KEY("\"game\":")) != p->game)
			return;
		p->live = false;
		if (lean_phase < PH_DRAIN && !L.restart)
			challenge(p);
	} else if (starts(ev, end, KEY("game.state\""))) {
		const char *g = scan(l, len, KEY("\"game\":{"));
		long long id = g ? scan_int(g, (size_t)(end - g), KEY("\"id\":")) : -1;
		if (lean_phase != PH_BACK || c->back)
			return;
		int k = 0;
		while (k < p->ngames && p->games[k] != id)
			k++;
		if (k == p->ngames || (c->back_mask >> k & 1)) {
			lean_error(c, "game.state of another game, or twice", l, len);
			return;
		}
		c->back_mask |= UINT64_C(1) << k;
		if (c->back_mask != (p->ngames == 64 ? UINT64_MAX : (UINT64_C(1) << p->ngames) - 1))
			return;
		c->back = true;
		if (++lean_nback == lean_nclients)
			lean_back_at = lean_now();
	} else if (starts(ev, end, KEY("game.counting\""))) {
		lean_error(c, "a game reached counting", l, len); /* no passes are played */
	}
}

void play_line(struct lean_client *c, const char *l, size_t len, uint64_t now)
{
	const char *ev = L.echo ? NULL : scan(l, len, KEY("\"event\":\""));
	if (ev)
		on_event(c, ev, l, len);
	else
		on_reply(c, l, len, now);
}

/* ---- connections ---- */

void play_connected(struct lean_client *c)
{
	if (lean_phase == PH_BACK) {
		/* the ping's answer says the server took the connection (it lands: net_landed) */
		play_request(c, R_PING, "ping", "");
		send_login(c);
	} else if (L.echo) {
		net_landed(c);
		struct lean_pair *p = &lean_pairs[c->pair];
		struct lean_client *b = &lean_clients[2 * c->pair];
		if (b[0].conn == C_OPEN && b[1].conn == C_OPEN) {
			p->live = p->started = true;
			p->game = c->pair + 1;
			p->seq = (int)(lean_rnd() % LEAN_SEQS);
			lean_nstarted++;
		}
	} else {
		send_register(c);
	}
}

void play_lost(struct lean_client *c)
{
	if (lean_phase < PH_DONE) {
		LS.disconnects++;
		lean_error(c, "disconnected", NULL, 0);
	}
}

void play_refused(struct lean_client *c)
{
	if (lean_phase != PH_BACK)
		lean_error(c, "connection refused", NULL, 0);
	net_timer(c, T_RECONNECT, lean_now() + LEAN_RECONNECT_MS * 1000000ull);
}

void play_kickoff(void)
{
	for (int i = 0; i < lean_npairs; i++) {
		struct lean_client *b = &lean_clients[2 * i];
		if (!lean_pairs[i].live || b->conn != C_OPEN)
			continue;
		lean_pairs[i].moves = 0;
		if (L.think_ms <= 0)
			make_move(b, 0);
		else /* spread over one think time, so the games do not move in step */
			net_timer(b, T_MOVE, lean_now() + lean_rnd() % (uint64_t)(L.think_ms * 1e6 + 1));
	}
}

void play_resign_all(void)
{
	if (L.echo)
		return;
	for (int i = 0; i < lean_npairs; i++) {
		struct lean_pair *p = &lean_pairs[i];
		struct lean_client *c = &lean_clients[2 * i];
		if (p->live && p->game > 0 && c->conn == C_OPEN) {
			p->live = false;
			send_game(c, R_RESIGN, "resign", p->game);
		}
	}
}

int play_outstanding(void)
{
	int n = 0;
	for (int i = 0; i < lean_nclients; i++)
		n += lean_clients[i].conn == C_OPEN ? lean_clients[i].pn : 0;
	return n;
}

void play_restart_reset(void)
{
	for (int i = 0; i < lean_nclients; i++) {
		lean_clients[i].back = false;
		lean_clients[i].back_mask = 0;
	}
}
