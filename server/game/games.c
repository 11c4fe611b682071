/* games: live games, their commands and events. See games.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sodium.h>
#include "clock.h"
#include "games.h"
#include "jsonout.h"
#include "log.h"
#include "ratings.h"
#include "referee.h"
#include "sgf.h"
#include "vertex.h"


/* What a game row's extra text says, but the move it is current as of (game_save_as): equal
 * keys, equal texts. */
struct extra_key {
	bool valid;              /* the row was written from this key */
	bool complex;            /* claims or a score: never compared */
	int passes;
	enum color first_passer;
	enum color to_move;      /* EMPTY: not written */
	bool paused;
	int64_t turn_used;
	bool present[2];
	int lateness_limit_s;
};

struct game {
	int64_t id;
	struct store_game row;   /* the persisted row; its JSON strings are owned */
	struct referee ref;      /* valid once started (playing, counting, ended) */
	bool started;
	struct rules rules;
	struct proto_time time;
	char black[PROTO_NAME_MAX + 1], white[PROTO_NAME_MAX + 1];
	struct conn **obs;       /* observers */
	size_t nobs, capobs;
	/* Clocks (docs/rules.md §2). clk[] are the clocks as of the last committed move; the clock
	 * of the player to move has run turn_used ms before turn_start, and since then. */
	struct server *srv;
	struct clock_control cc;
	struct clock_state clk[3];
	uint64_t turn_start;     /* ms (monotonic) the running turn was last (re)started */
	int64_t turn_used;       /* ms of the running turn before turn_start (pauses) */
	bool paused;             /* Art. 14: a director's pause */
	bool present[3];         /* scheduled games: the player has joined (Art. 22) */
	int lateness_limit_s;    /* Art. 22.1 */
	int64_t expires_at;      /* a pending challenge lapses then (Unix seconds) */
	enum color replay_to_move; /* the turn that replaying the stored moves gives */
	struct extra_key saved;  /* what the row's extra was written from (game_save_as) */
	uv_timer_t timer;        /* due at the next flag fall, start or lateness limit */
	bool has_timer;
};

static void game_release(struct game *g)
{
	if (g->started)
		referee_free(&g->ref);
	store_game_clear(&g->row);
	free(g->obs);
	free(g);
}

static void on_timer_closed(uv_handle_t *h)
{
	game_release(h->data);
}

/* Free a game; one with a timer goes once the timer's handle has closed. */
static void game_free(struct game *g)
{
	if (!g)
		return;
	if (g->has_timer) {
		g->has_timer = false;
		uv_close((uv_handle_t *)&g->timer, on_timer_closed);
	} else {
		game_release(g);
	}
}

/* A store write failed inside the iteration's transaction: memory is ahead of the database
 * and nothing has been reported yet. Stop; a restart rebuilds every game from what committed. */
static void persist_failed(struct server *srv, const char *what)
{
	log_msg(LOGL_ERROR, "store_write", "what=%s error=\"%s\"", what, store_errmsg(srv->store));
	exit(1);
}

static enum color color_of(const struct game *g, int64_t player_id)
{
	return player_id == g->row.black_id ? BLACK : player_id == g->row.white_id ? WHITE : EMPTY;
}

static const char *color_name(enum color c)
{
	return c == BLACK ? "B" : "W";
}

/* ---- clocks ---- */

static bool clock_running(const struct game *g)
{
	return g->started && g->ref.phase == PHASE_PLAYING && !g->paused && g->cc.system != CLOCK_NONE;
}

/* ms the player to move had used this turn at `at` (fairclock_fair_ms time: the loop's stalls
 * are not counted); a time before the turn started counts as its start. */
static int64_t turn_elapsed_at(const struct game *g, uint64_t at)
{
	return g->turn_used + (clock_running(g) && at > g->turn_start ? (int64_t)(at - g->turn_start) : 0);
}

/* ms the player to move has used this turn. */
static int64_t turn_elapsed(const struct game *g)
{
	return turn_elapsed_at(g, fairclock_fair_ms(g->srv));
}

/* The player to move's clock starts (again) now. */
static void turn_restart(struct game *g)
{
	g->turn_start = fairclock_fair_ms(g->srv);
	g->turn_used = 0;
}

static void control_from_time(const struct proto_time *t, struct clock_control *cc)
{
	static const enum clock_system sys[] = {
		[PROTO_TIME_NONE] = CLOCK_NONE, [PROTO_TIME_ABSOLUTE] = CLOCK_ABSOLUTE,
		[PROTO_TIME_BYOYOMI] = CLOCK_BYOYOMI, [PROTO_TIME_CANADIAN] = CLOCK_CANADIAN,
		[PROTO_TIME_FISCHER] = CLOCK_FISCHER};
	memset(cc, 0, sizeof *cc);
	cc->system = sys[t->system];
	cc->main_ms = t->main_ms;
	cc->periods = t->periods;
	cc->period_ms = t->period_ms;
	cc->stones = t->stones;
	cc->carry = t->carry;
	cc->increment_ms = t->increment_ms;
	cc->max_ms = t->max_ms;
}

static json_t *clock_state_json(const struct clock_control *cc, const struct clock_state *s)
{
	unsigned f = clock_fields(cc->system);
	json_t *o = json_object();
	if (f & CLOCK_F_MAIN)
		json_object_set_new(o, "main_ms", json_integer(s->main_ms));
	if (f & CLOCK_F_PERIODS)
		json_object_set_new(o, "periods", json_integer(s->periods));
	if (f & CLOCK_F_PERIOD)
		json_object_set_new(o, "period_ms", json_integer(s->period_ms));
	if (f & CLOCK_F_STONES)
		json_object_set_new(o, "stones", json_integer(s->stones));
	return o;
}

static void clock_state_from(const json_t *o, struct clock_state *s)
{
	json_t *v;
	if ((v = json_object_get(o, "main_ms")))
		s->main_ms = json_integer_value(v);
	if ((v = json_object_get(o, "periods")))
		s->periods = (int)json_integer_value(v);
	if ((v = json_object_get(o, "period_ms")))
		s->period_ms = json_integer_value(v);
	if ((v = json_object_get(o, "stones")))
		s->stones = (int)json_integer_value(v);
}

/* {"B": clock, "W": clock}: as committed, or (live) with the running clock as of now. NULL
 * for a game without clocks. */
static json_t *clocks_json(const struct game *g, bool live)
{
	if (g->cc.system == CLOCK_NONE)
		return json_null();
	json_t *o = json_object();
	for (int c = BLACK; c <= WHITE; c++) {
		struct clock_state st = g->clk[c];
		/* The player to move's clock as of now; while paused, as of the pause. */
		if (live && g->started && g->ref.phase == PHASE_PLAYING &&
		    g->ref.board.to_move == (enum color)c)
			clock_peek(&g->cc, &g->clk[c], turn_elapsed(g), &st);
		json_object_set_new(o, c == BLACK ? "B" : "W", clock_state_json(&g->cc, &st));
	}
	return o;
}

/* Lag credit for a move from c (issue 4): the kernel's smoothed round-trip time of c's TCP
 * connection, our own measure, never the client's word; at most `allowance_ms`. */
static int64_t lag_credit(struct conn *c, int64_t allowance_ms)
{
	uv_os_fd_t fd;
	struct tcp_info ti;
	socklen_t len = sizeof ti;
	if (!c || uv_fileno((uv_handle_t *)&c->tcp, &fd) != 0 ||
	    getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0)
		return 0;
	int64_t rtt = ti.tcpi_rtt / 1000;
	return rtt < allowance_ms ? rtt : allowance_ms;
}

static void game_arm(struct game *g);

/* An offence as players say it (messages and SGF comments; the wire `reason` keeps the code). */
static const char *offence_text(enum offence o)
{
	switch (o) {
	case OFFENCE_OCCUPIED: return "the point is occupied";
	case OFFENCE_SUICIDE: return "suicide";
	case OFFENCE_SUPERKO: return "the move repeats a position (ko)";
	case OFFENCE_NOT_YOUR_TURN: return "a move out of turn";
	default: return "illegal";
	}
}

/* ---- JSON views ---- */

static json_t *score_json(const struct score *s)
{
	return json_pack("{s:f, s:f, s:f}", "black", s->black, "white", s->white, "komi", s->komi);
}

static json_t *settings_json(const struct game *g)
{
	return json_pack("{s:i, s:f, s:i, s:o, s:b, s:s, s:o}", "size", g->row.size, "komi",
			 g->row.komi, "handicap", g->row.handicap, "time", proto_time_to_json(&g->time),
			 "rated", g->row.rated, "color", g->row.color_choice, "rules",
			 proto_rules_to_json(&g->rules));
}

static json_t *claims_json(const struct game *g, enum color c);

/* The dead stones both players agreed on (Art. 8), the chains in full, as counted: the
 * claims of an ended game counted by agreement; [] for one counted all alive; NULL if the game
 * was not counted. */
static json_t *agreed_dead_json(const struct game *g)
{
	const struct referee *r = &g->ref;
	if (!g->started || !r->scored || r->phase != PHASE_ENDED)
		return NULL;
	return r->claimed[BLACK] && r->claimed[WHITE] ? claims_json(g, BLACK) : json_array();
}

/* The `game` query's object (docs/protocol.md). */
static json_t *game_json(const struct game *g)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_integer(g->id));
	json_object_set_new(o, "size", json_integer(g->row.size));
	json_object_set_new(o, "komi", json_real(g->row.komi));
	json_object_set_new(o, "handicap", json_integer(g->row.handicap));
	json_object_set_new(o, "black", json_string(g->black));
	json_object_set_new(o, "white", json_string(g->white));
	json_object_set_new(o, "phase", json_string(g->row.phase));
	json_object_set_new(o, "rated", json_boolean(g->row.rated));
	json_object_set_new(o, "time", proto_time_to_json(&g->time));
	json_object_set_new(o, "rules", proto_rules_to_json(&g->rules));
	json_t *moves = json_array(), *board = json_array();
	const char *to_move = NULL;
	if (g->started) {
		const struct board *b = &g->ref.board;
		char v[VERTEX_MAX_LEN];
		for (size_t i = 1; i < b->nhist; i++) {
			const struct board_hist *h = &b->hist[i];
			json_array_append_new(moves, json_pack("{s:I, s:s, s:s}", "number", (json_int_t)i,
				"color", color_name((enum color)h->color), "vertex",
				vertex_format(b, h->pt, v)));
		}
		char diag[BOARD_MAX_SIZE * (BOARD_MAX_SIZE + 1) + 1];
		board_diagram(b, diag);
		for (char *line = strtok(diag, "\n"); line; line = strtok(NULL, "\n"))
			json_array_append_new(board, json_string(line));
		if (g->ref.phase == PHASE_PLAYING)
			to_move = color_name(b->to_move);
	}
	json_object_set_new(o, "to_move", to_move ? json_string(to_move) : json_null());
	json_object_set_new(o, "moves", moves);
	json_object_set_new(o, "board", board);
	json_object_set_new(o, "clocks", g->started ? clocks_json(g, true) : json_null());
	json_object_set_new(o, "paused", json_boolean(g->paused));
	if (g->row.start_at)
		json_object_set_new(o, "start_at", json_real(g->row.start_at));
	json_object_set_new(o, "warnings", json_pack("{s:i, s:i}", "B", g->row.warnings_b, "W",
						     g->row.warnings_w));
	json_object_set_new(o, "result", g->row.result[0] ? json_string(g->row.result) : json_null());
	json_object_set_new(o, "reason", g->row.reason[0] ? json_string(g->row.reason) : json_null());
	if (g->started && g->ref.scored)
		json_object_set_new(o, "score", score_json(&g->ref.score));
	json_t *dead = agreed_dead_json(g);
	json_object_set_new(o, "dead", dead ? dead : json_null());
	json_object_set_new(o, "tournament", g->row.tournament_id ? json_integer(g->row.tournament_id) : json_null());
	json_object_set_new(o, "round", g->row.round ? json_integer(g->row.round) : json_null());
	return o;
}

/* ---- persistence ---- */

static json_t *claims_json(const struct game *g, enum color c)
{
	json_t *a = json_array();
	char v[VERTEX_MAX_LEN];
	const struct board *b = &g->ref.board;
	for (int p = 0; p < b->stride * b->stride; p++)
		if (g->ref.dead[c][p])
			json_array_append_new(a, json_string(vertex_format(b, p, v)));
	return a;
}

/* Copy NUL-terminated src into dst[size], cut to fit (snprintf "%s" without the format). */
static void copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* The row written from *a says what *b would (claims and scores are never compared). */
static bool extra_key_same(const struct extra_key *a, const struct extra_key *b)
{
	return a->valid && b->valid && !a->complex && !b->complex && a->passes == b->passes &&
	       a->first_passer == b->first_passer && a->to_move == b->to_move &&
	       a->paused == b->paused && a->turn_used == b->turn_used &&
	       a->present[0] == b->present[0] && a->present[1] == b->present[1] &&
	       a->lateness_limit_s == b->lateness_limit_s;
}

/* The row's clocks text from the game's clocks (NULL without a time control). */
static void row_clocks(struct game *g)
{
	free(g->row.clocks);
	g->row.clocks = NULL;
	if (g->cc.system != CLOCK_NONE) {
		json_t *cj = clocks_json(g, false);
		g->row.clocks = jsonout_dumps(cj, 0, NULL);
		json_decref(cj);
	}
}

/* `,"key":` and v (consumed), if v. */
static void put_owned(struct jsonout *o, const char *key, json_t *v)
{
	if (!v)
		return;
	jsonout_lit(o, ",\"");
	jsonout_raw(o, key, strlen(key));
	jsonout_lit(o, "\":");
	jsonout_value(o, v);
	json_decref(v);
}

/* The row's extra: what restore_state reads back besides the row's columns, current as of
 * move `at_move`; `to_move` only where replaying would not give the turn. NULL when memory
 * runs out. */
static char *extra_text(const struct game *g, int at_move, const char *to_move)
{
	const struct referee *r = &g->ref;
	struct jsonout o;
	if (jsonout_init(&o) < 0)
		return NULL;
	jsonout_lit(&o, "{\"at_move\":");
	jsonout_int(&o, at_move);
	jsonout_lit(&o, ",\"passes\":");
	jsonout_int(&o, r->passes);
	jsonout_lit(&o, ",\"first_passer\":");
	jsonout_str(&o, r->first_passer == WHITE ? "W" : "B");
	if (to_move) {
		jsonout_lit(&o, ",\"to_move\":");
		jsonout_str(&o, to_move);
	}
	put_owned(&o, "claim_B", r->claimed[BLACK] ? claims_json(g, BLACK) : NULL);
	put_owned(&o, "claim_W", r->claimed[WHITE] ? claims_json(g, WHITE) : NULL);
	put_owned(&o, "score", r->scored ? score_json(&r->score) : NULL);
	jsonout_lit(&o, ",\"paused\":");
	jsonout_bool(&o, g->paused);
	if (g->paused) { /* the part of the turn used before the pause survives a restart */
		jsonout_lit(&o, ",\"turn_used_ms\":");
		jsonout_int(&o, g->turn_used);
	}
	jsonout_lit(&o, ",\"present_B\":");
	jsonout_bool(&o, g->present[BLACK]);
	jsonout_lit(&o, ",\"present_W\":");
	jsonout_bool(&o, g->present[WHITE]);
	jsonout_lit(&o, ",\"lateness_limit_s\":");
	jsonout_int(&o, g->lateness_limit_s);
	if (r->phase == PHASE_PENDING && g->expires_at > 0) {
		jsonout_lit(&o, ",\"expires_at\":");
		jsonout_int(&o, g->expires_at);
	}
	jsonout_lit(&o, "}");
	return jsonout_finish(&o, 0, NULL);
}

/* Copy the referee's state into the row (phase, result, warnings, counting state) and write
 * it. `move`: a move row with the clocks follows (record_move). Then unless the phase changes
 * only the per-move state is written, and if nothing of the row but the clocks and the turn
 * changed (an ordinary move) the row is not written at all: its extra names the move it is
 * current as of ("at_move"), and restore_state takes the clocks and the turn of later moves
 * from the moves themselves. */
static void game_save_as(struct server *srv, struct game *g, bool move)
{
	bool state_only = false;
	if (g->started) {
		const struct referee *r = &g->ref;
		const char *phase = referee_phase_name(r->phase);
		const char *reason = referee_reason_name(r->reason);
		state_only = move && strcmp(g->row.phase, phase) == 0;
		bool same = state_only && strcmp(g->row.result, r->result) == 0 &&
			strcmp(g->row.reason, reason) == 0 && g->row.warnings_b == r->warnings[BLACK] &&
			g->row.warnings_w == r->warnings[WHITE];
		copy_str(g->row.phase, sizeof g->row.phase, phase);
		copy_str(g->row.result, sizeof g->row.result, r->result);
		copy_str(g->row.reason, sizeof g->row.reason, reason);
		g->row.warnings_b = r->warnings[BLACK];
		g->row.warnings_w = r->warnings[WHITE];
		int at_move = (int)board_moves(&r->board);
		/* The turn is written only where replaying the moves would not give it (play resumed
		 * after a dispute, Art. 21.4). */
		const char *to_move = r->board.to_move != g->replay_to_move ? color_name(r->board.to_move) : NULL;
		struct extra_key key = {
			.valid = true, .complex = r->claimed[BLACK] || r->claimed[WHITE] || r->scored,
			.passes = r->passes, .first_passer = r->first_passer,
			.to_move = to_move ? r->board.to_move : EMPTY, .paused = g->paused,
			.turn_used = g->paused ? g->turn_used : 0,
			.present = {g->present[BLACK], g->present[WHITE]},
			.lateness_limit_s = g->lateness_limit_s,
		};
		if (same && extra_key_same(&g->saved, &key)) {
			/* An ordinary move: the row stays as written; the move row has the clocks. */
			row_clocks(g);
			return;
		}
		char *extra = extra_text(g, at_move, to_move);
		free(g->row.extra);
		g->row.extra = extra;
		g->saved = key;
		if (r->phase == PHASE_ENDED && !g->row.ended_at) {
			g->row.ended_at = fairclock_wall_s();
			state_only = false;
		}
		row_clocks(g);
	}
	if ((state_only ? store_game_update_state(srv->store, &g->row)
			: store_game_update(srv->store, &g->row)) != STORE_OK)
		persist_failed(srv, "game");
}

static void game_save(struct server *srv, struct game *g)
{
	game_save_as(srv, g, false);
}

/* ---- audiences ---- */

/* One line (len bytes with its "\n") to both players and every observer. */
static void send_game_line(struct server *srv, struct game *g, const char *line, size_t len)
{
	server_send_player_raw(srv, g->row.black_id, line, len);
	server_send_player_raw(srv, g->row.white_id, line, len);
	/* Backwards: an observer cut off by server_send_raw (a slow reader) leaves g->obs at
	 * once, the last observer taking its slot, and that one has had the message already. */
	for (size_t i = g->nobs; i-- > 0;) {
		struct conn *c = g->obs[i];
		if (c->player_id != g->row.black_id && c->player_id != g->row.white_id)
			server_send_raw(c, line, len);
	}
}

static void send_game(struct server *srv, struct game *g, const json_t *msg)
{
	/* Serialise once; the same bytes go to both players and every observer. */
	size_t len;
	char *line = proto_serialize(msg, &len);
	if (!line) {
		log_msg(LOGL_ERROR, "serialize", "game=%lld", (long long)g->id);
		return;
	}
	send_game_line(srv, g, line, len);
	free(line);
}

static void send_end(struct server *srv, struct game *g)
{
	json_t *e = proto_event("game.end");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "result", json_string(g->ref.result));
	json_object_set_new(e, "reason", json_string(referee_reason_name(g->ref.reason)));
	if (g->ref.scored)
		json_object_set_new(e, "score", score_json(&g->ref.score));
	if (g->row.rated && ratings_game_ended(srv, g->id, e) < 0)
		persist_failed(srv, "ratings");
	send_game(srv, g, e);
	json_decref(e);
	log_msg(LOGL_INFO, "game_end", "game=%lld result=%s reason=%s", (long long)g->id,
		g->ref.result, referee_reason_name(g->ref.reason));
}

/* A game that ended leaves memory; queries read it back from the store. */
static void retire(struct server *srv, struct game *g)
{
	for (size_t i = 0; i < g->nobs; i++) {
		struct conn *c = g->obs[i];
		for (size_t k = 0; k < c->nobs; k++)
			if (c->observing[k] == g->id) {
				c->observing[k] = c->observing[--c->nobs];
				break;
			}
	}
	idmap_del(&srv->games, g->id);
	game_free(g);
}

/* ---- building games ---- */

static int parse_settings(struct game *g)
{
	struct proto_error err;
	rules_default(&g->rules);
	memset(&g->time, 0, sizeof g->time);
	json_t *w = json_object();
	if (g->row.rules)
		json_object_set_new(w, "rules", json_loads(g->row.rules, 0, NULL));
	if (g->row.time_control)
		json_object_set_new(w, "time", json_loads(g->row.time_control, 0, NULL));
	int r = proto_get_rules(w, "rules", false, &g->rules, &err) < 0 ||
		proto_get_time(w, "time", false, &g->time, &err) < 0 ? -1 : 0;
	json_decref(w);
	control_from_time(&g->time, &g->cc);
	g->lateness_limit_s = GAMES_LATENESS_LIMIT_DEFAULT_S;
	return r;
}

static int names_of(struct server *srv, struct game *g)
{
	struct store_player p;
	if (store_player_by_id(srv->store, g->row.black_id, &p) != STORE_OK)
		return -1;
	snprintf(g->black, sizeof g->black, "%s", p.name);
	if (store_player_by_id(srv->store, g->row.white_id, &p) != STORE_OK)
		return -1;
	snprintf(g->white, sizeof g->white, "%s", p.name);
	return 0;
}

static int start_referee(struct game *g)
{
	if (referee_init(&g->ref, g->row.size, g->row.komi, g->row.handicap, &g->rules) < 0)
		return -1;
	g->started = true;
	g->replay_to_move = g->ref.board.to_move;
	if (g->cc.system != CLOCK_NONE) {
		clock_init(&g->cc, &g->clk[BLACK]);
		clock_init(&g->cc, &g->clk[WHITE]);
	}
	return 0;
}

struct replay_ctx {
	struct game *g;
	int bad;
	int last;            /* number of the last move replayed */
	char *last_clocks;   /* its clocks (malloc'd), NULL if none */
};

/* Replay one stored move onto the board (no penalties: they are in the row already). */
static int replay_move(struct replay_ctx *x, const struct store_move *m)
{
	struct board *b = &x->g->ref.board;
	enum color c = m->color == 'B' ? BLACK : WHITE;
	int pt = m->forfeit[0] ? BOARD_PASS : vertex_parse(b, m->vertex);
	if (pt < 0 || board_play(b, c, pt, NULL, NULL) != BOARD_OK) {
		x->bad = m->number;
		return 1;
	}
	x->last = m->number;
	free(x->last_clocks);
	x->last_clocks = m->clocks ? strdup(m->clocks) : NULL;
	return 0;
}

static int replay_cb(void *ctx, const struct store_move *m)
{
	return replay_move(ctx, m);
}

static void restore_claim(struct game *g, json_t *x, const char *key, enum color c)
{
	json_t *a = json_object_get(x, key);
	size_t i;
	json_t *v;
	if (!a)
		return;
	g->ref.claimed[c] = true;
	json_array_foreach(a, i, v) {
		int pt = vertex_parse(&g->ref.board, json_string_value(v));
		if (pt > 0)
			g->ref.dead[c][pt] = true;
	}
}

/* Rebuild a game's referee from its row and replayed moves (restart, queries of ended games). */
static void restore_state(struct game *g, const struct replay_ctx *rx)
{
	struct referee *r = &g->ref;
	json_t *x = g->row.extra ? json_loads(g->row.extra, 0, NULL) : NULL;
	/* Moves after the one the row is current as of (game_save_as) bring their clocks and
	 * turn; a row without at_move was written at every move. */
	json_t *at = x ? json_object_get(x, "at_move") : NULL;
	bool later = json_is_integer(at) && rx->last > json_integer_value(at);
	const char *clocks = later ? rx->last_clocks : g->row.clocks;
	json_t *cj = clocks ? json_loads(clocks, 0, NULL) : NULL;
	if (cj) {
		/* Art. 14: the clocks resume as they were at the last committed move. */
		clock_state_from(json_object_get(cj, "B"), &g->clk[BLACK]);
		clock_state_from(json_object_get(cj, "W"), &g->clk[WHITE]);
		json_decref(cj);
	}
	referee_phase_parse(g->row.phase, &r->phase);
	snprintf(r->result, sizeof r->result, "%s", g->row.result);
	referee_reason_parse(g->row.reason, &r->reason);
	r->warnings[BLACK] = g->row.warnings_b;
	r->warnings[WHITE] = g->row.warnings_w;
	if (x) {
		r->passes = (int)json_integer_value(json_object_get(x, "passes"));
		const char *fp = json_string_value(json_object_get(x, "first_passer"));
		r->first_passer = fp && strcmp(fp, "W") == 0 ? WHITE : BLACK;
		restore_claim(g, x, "claim_B", BLACK);
		restore_claim(g, x, "claim_W", WHITE);
		json_t *s = json_object_get(x, "score");
		if (s) {
			r->scored = true;
			r->score.black = json_number_value(json_object_get(s, "black"));
			r->score.white = json_number_value(json_object_get(s, "white"));
			r->score.komi = json_number_value(json_object_get(s, "komi"));
		}
		g->paused = json_is_true(json_object_get(x, "paused"));
		if (g->paused)
			g->turn_used = json_integer_value(json_object_get(x, "turn_used_ms"));
		g->present[BLACK] = json_is_true(json_object_get(x, "present_B"));
		g->present[WHITE] = json_is_true(json_object_get(x, "present_W"));
		if (json_integer_value(json_object_get(x, "lateness_limit_s")) > 0)
			g->lateness_limit_s = (int)json_integer_value(json_object_get(x, "lateness_limit_s"));
		g->expires_at = json_integer_value(json_object_get(x, "expires_at"));
		const char *tm = json_string_value(json_object_get(x, "to_move"));
		if (tm && !later)
			board_set_to_move(&r->board, strcmp(tm, "W") == 0 ? WHITE : BLACK);
		json_decref(x);
	}
}

/* A challenge stored without its lapse time (an older tengend) lapses a full
 * GAMES_CHALLENGE_TTL_S after it was made. */
static void default_expiry(struct game *g)
{
	if (g->ref.phase == PHASE_PENDING && g->expires_at <= 0)
		g->expires_at = (int64_t)g->row.created_at + GAMES_CHALLENGE_TTL_S;
}

/* A struct game for row `row` (copied; its strings are taken over), with the referee rebuilt
 * from `moves` (or from the store when moves is NULL). NULL on a broken record (logged). */
static struct game *game_build(struct server *srv, struct store_game *row,
			       const struct store_move *moves, size_t nmoves)
{
	struct game *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	g->id = row->id;
	g->row = *row;
	memset(row, 0, sizeof *row);
	if (parse_settings(g) < 0 || names_of(srv, g) < 0)
		goto bad;
	if (start_referee(g) < 0)
		goto bad;
	struct replay_ctx x = {g, 0, 0, NULL};
	if (moves) {
		for (size_t i = 0; i < nmoves && !x.bad; i++)
			replay_move(&x, &moves[i]);
	} else {
		store_moves_get(srv->store, g->id, replay_cb, &x);
	}
	if (x.bad) {
		log_msg(LOGL_ERROR, "game_replay", "game=%lld move=%d", (long long)g->id, x.bad);
		free(x.last_clocks);
		goto bad;
	}
	g->replay_to_move = g->ref.board.to_move;
	restore_state(g, &x);
	default_expiry(g);
	free(x.last_clocks);
	return g;
bad:
	log_msg(LOGL_ERROR, "game_load", "game=%lld", (long long)g->id);
	game_free(g);
	return NULL;
}

/* Make g a live game: its timer, and the running clock starting now (after a restart too:
 * no clock runs while the server is down, Art. 14). */
static void game_go_live(struct server *srv, struct game *g)
{
	g->srv = srv;
	if (!g->has_timer) {
		uv_timer_init(srv->loop, &g->timer);
		g->timer.data = g;
		g->has_timer = true;
	}
	g->turn_start = fairclock_fair_ms(srv); /* turn_used: 0, or what a paused turn had used */
	idmap_put(&srv->games, g->id, g);
	game_arm(g);
}

static int load_cb(void *ctx, const struct store_game *row, const struct store_move *moves, size_t n)
{
	struct server *srv = ctx;
	struct store_game copy = *row;
	/* The row's strings belong to the listing: duplicate them for the game. */
	copy.time_control = row->time_control ? strdup(row->time_control) : NULL;
	copy.rules = row->rules ? strdup(row->rules) : NULL;
	copy.clocks = row->clocks ? strdup(row->clocks) : NULL;
	copy.extra = row->extra ? strdup(row->extra) : NULL;
	struct game *g = game_build(srv, &copy, moves, n);
	if (g)
		game_go_live(srv, g);
	return 0;
}

int games_load(struct server *srv)
{
	if (!srv->stall && fairclock_start(srv) < 0) {
		log_msg(LOGL_ERROR, "games_load", "error=\"out of memory\"");
		return -1;
	}
	if (store_games_unfinished(srv->store, load_cb, srv) != STORE_OK) {
		log_msg(LOGL_ERROR, "games_load", "error=\"%s\"", store_errmsg(srv->store));
		return -1;
	}
	log_msg(LOGL_INFO, "games_loaded", "live=%zu", srv->games.n);
	return 0;
}

void games_free(struct server *srv)
{
	for (size_t i = 0; i < srv->games.cap; i++)
		if (srv->games.slots[i].key)
			game_free(srv->games.slots[i].val);
	idmap_free(&srv->games);
}

/* The live game, or one read back from the store (caller frees it with game_free when
 * *owned). Replies not_found and returns NULL if there is none. */
static struct game *find_game(struct conn *c, const struct proto_request *req, bool *owned)
{
	struct proto_error err;
	int64_t id;
	*owned = false;
	if (proto_get_id(req->root, "game", true, &id, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return NULL;
	}
	struct game *g = idmap_get(&c->srv->games, id);
	if (g)
		return g;
	struct store_game row = {0};
	if (store_game_get(c->srv->store, id, &row) == STORE_OK &&
	    (g = game_build(c->srv, &row, NULL, 0)) != NULL) {
		*owned = true;
		return g;
	}
	store_game_clear(&row);
	server_reply_error(c, req->id, PROTO_ERR_NOT_FOUND, "no game %lld", (long long)id);
	return NULL;
}

/* The live game `game` in which c plays, in one of the phases wanted; replies and returns
 * NULL otherwise. */
static struct game *my_game(struct conn *c, const struct proto_request *req, enum color *color)
{
	bool owned;
	struct game *g = find_game(c, req, &owned);
	if (!g)
		return NULL;
	if (owned) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is over", (long long)g->id);
		game_free(g);
		return NULL;
	}
	*color = color_of(g, c->player_id);
	if (*color == EMPTY) {
		server_reply_error(c, req->id, PROTO_ERR_FORBIDDEN, "you do not play in game %lld",
				   (long long)g->id);
		return NULL;
	}
	return g;
}

/* ---- commands ---- */

static const char *const color_choices[] = {"nigiri", "black", "white"};

/* Pending challenges player `id` made (`sent`) or received. O(live games). */
static size_t pending_count(struct server *srv, int64_t id, bool sent)
{
	size_t n = 0;
	for (size_t i = 0; i < srv->games.cap; i++) {
		const struct game *g = srv->games.slots[i].val;
		if (g && g->ref.phase == PHASE_PENDING &&
		    (sent ? g->row.challenger_id == id
			  : g->row.challenger_id != id && color_of(g, id) != EMPTY))
			n++;
	}
	return n;
}

static int game_id_cmp(const void *a, const void *b)
{
	int64_t x = (*(struct game *const *)a)->id, y = (*(struct game *const *)b)->id;
	return x < y ? -1 : x > y;
}

/* The pending challenges of player `id`, sent and received, oldest first: a malloc'd array
 * (NULL when there are none or memory runs out) of *n games. */
static struct game **pending_of(struct server *srv, int64_t id, size_t *n)
{
	size_t k = 0, cap = 0;
	struct game **a = NULL;
	*n = 0;
	for (size_t i = 0; i < srv->games.cap; i++) {
		struct game *g = srv->games.slots[i].val;
		if (!g || g->ref.phase != PHASE_PENDING || color_of(g, id) == EMPTY)
			continue;
		if (k == cap) {
			cap = cap ? cap * 2 : 16;
			struct game **na = realloc(a, cap * sizeof *na);
			if (!na) {
				free(a);
				return NULL;
			}
			a = na;
		}
		a[k++] = g;
	}
	if (k)
		qsort(a, k, sizeof *a, game_id_cmp);
	*n = k;
	return a;
}

void games_challenge(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	struct proto_error err;
	const char *opponent;
	int64_t size = RULES_DEFAULT_SIZE, handicap = 0;
	double komi = RULES_DEFAULT_KOMI;
	bool rated = true;
	int choice = 0;
	int64_t expires_s = GAMES_CHALLENGE_TTL_S;
	struct game *g = calloc(1, sizeof *g);
	if (!g) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "out of memory");
		return;
	}
	rules_default(&g->rules);
	if (proto_get_name(req->root, "opponent", true, &opponent, &err) < 0 ||
	    proto_get_int(req->root, "size", false, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &size, &err) < 0 ||
	    proto_get_number(req->root, "komi", false, -GAMES_KOMI_MAX, GAMES_KOMI_MAX, &komi, &err) < 0 ||
	    proto_get_int(req->root, "handicap", false, 0, GAMES_HANDICAP_MAX, &handicap, &err) < 0 ||
	    proto_get_time(req->root, "time", false, &g->time, &err) < 0 ||
	    proto_get_bool(req->root, "rated", false, &rated, &err) < 0 ||
	    proto_get_choice(req->root, "color", false, color_choices, 3, &choice, &err) < 0 ||
	    proto_get_rules(req->root, "rules", false, &g->rules, &err) < 0 ||
	    proto_get_int(req->root, "expires_s", false, 1, GAMES_CHALLENGE_TTL_S, &expires_s, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		goto out;
	}
	if (komi * 2 != floor(komi * 2)) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
				   "field 'komi': must be a whole or half number of points");
		goto out;
	}
	int pts[9];
	if (handicap == 1 || (handicap > 1 && board_fixed_handicap((int)size, (int)handicap, pts, (int)size + 2) < 0)) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
				   "field 'handicap': %lld %s cannot be placed on %lldx%lld (0, or 2 to 9 "
				   "on the GTP fixed points)", (long long)handicap,
				   handicap == 1 ? "stone" : "stones", (long long)size, (long long)size);
		goto out;
	}
	struct store_player opp;
	if (store_player_by_name(srv->store, opponent, &opp) != STORE_OK) {
		server_reply_error(c, req->id, PROTO_ERR_NOT_FOUND, "no player named '%s'", opponent);
		goto out;
	}
	if (opp.id == c->player_id) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'opponent': you cannot challenge yourself");
		goto out;
	}
	size_t out_n = pending_count(srv, c->player_id, true), in_n = pending_count(srv, opp.id, false);
	if (out_n >= GAMES_CHALLENGES_OUT_MAX) {
		server_reply_error(c, req->id, PROTO_ERR_RATE_LIMITED, "you have %d pending challenges, "
				   "the most allowed: wait for answers or withdraw some (decline)",
				   GAMES_CHALLENGES_OUT_MAX);
		goto out;
	}
	if (in_n >= GAMES_CHALLENGES_IN_MAX) {
		server_reply_error(c, req->id, PROTO_ERR_RATE_LIMITED, "'%s' has %d pending challenges, "
				   "the most allowed: try again later", opp.name, GAMES_CHALLENGES_IN_MAX);
		goto out;
	}
	/* Colours are settled at accept; until then the challenger is listed as Black. */
	g->row.black_id = c->player_id;
	g->row.white_id = opp.id;
	g->row.challenger_id = c->player_id;
	g->row.size = (int)size;
	g->row.komi = komi;
	g->row.handicap = (int)handicap;
	g->row.rated = rated;
	snprintf(g->row.color_choice, sizeof g->row.color_choice, "%s", color_choices[choice]);
	snprintf(g->row.phase, sizeof g->row.phase, "pending");
	g->row.created_at = fairclock_wall_s();
	json_t *tj = proto_time_to_json(&g->time), *rj = proto_rules_to_json(&g->rules);
	g->row.time_control = json_dumps(tj, JSON_COMPACT);
	g->row.rules = json_dumps(rj, JSON_COMPACT);
	json_decref(tj);
	json_decref(rj);
	snprintf(g->black, sizeof g->black, "%s", c->name);
	snprintf(g->white, sizeof g->white, "%s", opp.name);
	control_from_time(&g->time, &g->cc);
	const char *why;
	if (g->cc.system != CLOCK_NONE && clock_control_check(&g->cc, &why) < 0) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'time': %s", why);
		goto out;
	}
	g->lateness_limit_s = GAMES_LATENESS_LIMIT_DEFAULT_S;
	if (start_referee(g) < 0) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "could not set up the board");
		goto out;
	}
	g->ref.phase = PHASE_PENDING;
	g->expires_at = (int64_t)ceil(g->row.created_at) + expires_s;
	if (!(g->row.extra = extra_text(g, 0, NULL))) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "out of memory");
		goto out;
	}
	if (server_txn(srv) < 0 || store_game_create(srv->store, &g->row, &g->id) != STORE_OK)
		persist_failed(srv, "challenge");
	g->row.id = g->id;
	game_go_live(srv, g);
	log_msg(LOGL_INFO, "challenge", "game=%lld from=%s to=%s", (long long)g->id, c->name, opp.name);

	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "game", json_integer(g->id));
	server_reply(c, r);
	json_t *e = proto_event("challenge");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "from", json_string(c->name));
	json_object_set_new(e, "settings", settings_json(g));
	json_object_set_new(e, "expires_at", json_integer(g->expires_at));
	server_send_player(srv, opp.id, e);
	json_decref(e);
	return;
out:
	game_free(g);
}

static void send_start(struct server *srv, struct game *g)
{
	for (int i = 0; i < 2; i++) {
		enum color col = i == 0 ? BLACK : WHITE;
		json_t *e = proto_event("game.start");
		json_object_set_new(e, "game", json_integer(g->id));
		json_object_set_new(e, "black", json_string(g->black));
		json_object_set_new(e, "white", json_string(g->white));
		json_object_set_new(e, "size", json_integer(g->row.size));
		json_object_set_new(e, "komi", json_real(g->row.komi));
		json_object_set_new(e, "handicap", json_integer(g->row.handicap));
		json_object_set_new(e, "time", proto_time_to_json(&g->time));
		json_object_set_new(e, "rules", proto_rules_to_json(&g->rules));
		json_object_set_new(e, "rated", json_boolean(g->row.rated));
		json_object_set_new(e, "color", json_string(color_name(col)));
		json_t *pb = ratings_player_brief(srv, g->row.black_id), *pw = ratings_player_brief(srv, g->row.white_id);
		json_object_set_new(e, "players", json_pack("{s:o?, s:o?}", "B", pb, "W", pw));
		json_object_set_new(e, "tournament", g->row.tournament_id ? json_integer(g->row.tournament_id) : json_null());
		json_object_set_new(e, "round", g->row.round ? json_integer(g->row.round) : json_null());
		json_object_set_new(e, "start_at", g->row.start_at ? json_real(g->row.start_at) : json_null());
		server_send_player(srv, col == BLACK ? g->row.black_id : g->row.white_id, e);
		json_decref(e);
	}
}

/* Is g in phase `want`? Replies conflict if not. */
static bool is_live(struct conn *c, const struct proto_request *req, struct game *g, enum game_phase want)
{
	if (g->ref.phase != want) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is %s, not %s",
				   (long long)g->id, g->row.phase, referee_phase_name(want));
		return false;
	}
	return true;
}

void games_accept(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	enum color me;
	struct game *g = my_game(c, req, &me);
	if (!g || !is_live(c, req, g, PHASE_PENDING))
		return;
	if (g->row.challenger_id == c->player_id) {
		server_reply_error(c, req->id, PROTO_ERR_FORBIDDEN, "only the challenged player may accept");
		return;
	}
	/* Art. 10: colours by the challenger's choice, or by nigiri. */
	bool challenger_black = strcmp(g->row.color_choice, "black") == 0 ||
		(strcmp(g->row.color_choice, "nigiri") == 0 && randombytes_uniform(2) == 0);
	int64_t challenger = g->row.challenger_id, other = c->player_id;
	char cn[PROTO_NAME_MAX + 1];
	snprintf(cn, sizeof cn, "%s", g->black); /* challenger's name, listed as Black so far */
	g->row.black_id = challenger_black ? challenger : other;
	g->row.white_id = challenger_black ? other : challenger;
	snprintf(g->black, sizeof g->black, "%s", challenger_black ? cn : c->name);
	snprintf(g->white, sizeof g->white, "%s", challenger_black ? c->name : cn);
	g->ref.phase = PHASE_PLAYING;
	g->present[BLACK] = g->present[WHITE] = true;
	if (server_txn(srv) < 0)
		persist_failed(srv, "accept");
	game_save(srv, g);
	turn_restart(g);
	game_arm(g);
	log_msg(LOGL_INFO, "game_start", "game=%lld black=%s white=%s", (long long)g->id, g->black, g->white);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "game", json_integer(g->id));
	json_object_set_new(r, "color", json_string(color_name(color_of(g, c->player_id))));
	server_reply(c, r);
	send_start(srv, g);
}

void games_decline(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	enum color me;
	struct game *g = my_game(c, req, &me);
	if (!g || !is_live(c, req, g, PHASE_PENDING))
		return;
	/* Either side may call a challenge off: the challenged declines, the challenger withdraws. */
	referee_end(&g->ref, "", END_DECLINED, false);
	if (server_txn(srv) < 0)
		persist_failed(srv, "decline");
	game_save(srv, g);
	server_reply(c, proto_reply_ok(req->id));
	json_t *e = proto_event("challenge.declined");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "by", json_string(c->name));
	server_send_player(srv, g->row.black_id, e);
	server_send_player(srv, g->row.white_id, e);
	json_decref(e);
	retire(srv, g);
}


/* Write a referee move of `me` (m) to the store: the move row with the clocks after it, a
 * warning, the game row. `forfeit` overrides the forfeit reason (e.g. "time"). */
static void record_move(struct server *srv, struct game *g, enum color me,
			const struct referee_move *m, const char *forfeit)
{
	double now = fairclock_wall_s();
	if (m->number) /* replaying the move row (board_play) passes the turn */
		g->replay_to_move = color_other(me);
	game_save_as(srv, g, m->number != 0); /* first: its clocks text is the move row's too */
	if (m->number) {
		struct store_move sm = {.number = m->number, .color = color_name(me)[0], .at = now,
					.clocks = g->row.clocks};
		vertex_format(&g->ref.board, m->pt, sm.vertex);
		if (forfeit || m->forfeit_turn)
			snprintf(sm.forfeit, sizeof sm.forfeit, "%s",
				 forfeit ? forfeit : referee_offence_name(m->offence));
		if (store_move_add(srv->store, g->id, &sm) != STORE_OK)
			persist_failed(srv, "move");
	}
	if (m->warning) {
		/* A warning for a void move belongs to the last move made. */
		struct store_warning w = {.color = color_name(me)[0], .at = now,
			.number = m->number ? m->number : (int)board_moves(&g->ref.board)};
		snprintf(w.reason, sizeof w.reason, "%s", referee_offence_name(m->offence));
		if (store_warning_add(srv->store, g->id, &w, NULL) != STORE_OK)
			persist_failed(srv, "warning");
	}
}

/* The committed clocks of a recorded move as JSON text: record_move left them in the row
 * (game_save_as, row_clocks: the text of clocks_json(g, false)); "null" without clocks. */
static const char *move_clocks_text(const struct game *g)
{
	return g->row.clocks ? g->row.clocks : "null";
}

/* The fields of a move object after its "number" key, as the move reply and the game.move
 * event write them: number, color, vertex, captures, forfeited? (event only), clocks. */
static void put_move_fields(struct jsonout *o, const struct game *g, enum color me,
			    const struct referee_move *m, const char *forfeited)
{
	char v[VERTEX_MAX_LEN];
	jsonout_int(o, m->number);
	jsonout_lit(o, ",\"color\":");
	jsonout_str(o, color_name(me));
	jsonout_lit(o, ",\"vertex\":");
	jsonout_str(o, vertex_format(&g->ref.board, m->pt, v));
	jsonout_lit(o, ",\"captures\":[");
	for (int i = 0; i < m->ncaptured; i++) {
		if (i)
			jsonout_lit(o, ",");
		jsonout_str(o, vertex_format(&g->ref.board, m->captured[i], v));
	}
	jsonout_lit(o, "]");
	if (forfeited) {
		jsonout_lit(o, ",\"forfeited\":");
		jsonout_str(o, forfeited);
	}
	jsonout_lit(o, ",\"clocks\":");
	const char *clocks = move_clocks_text(g);
	jsonout_raw(o, clocks, strlen(clocks));
}

/* A move's reply and event are written as text straight from the referee's move: every move
 * sends them, and building them as jansson values to serialise and free was most of a move's
 * own work. The bytes are those proto_serialize gives for the objects of docs/protocol.md, in
 * that key order (tests/test_server compares them). */

/* {"event":"game.move","game":…,"number":…,…} and "\n"; NULL when memory runs out. */
static char *move_event_line(const struct game *g, enum color me, const struct referee_move *m,
			     const char *forfeit, size_t *len)
{
	struct jsonout o;
	if (jsonout_init(&o) < 0)
		return NULL;
	jsonout_lit(&o, "{\"event\":\"game.move\",\"game\":");
	jsonout_int(&o, g->id);
	jsonout_lit(&o, ",\"number\":");
	put_move_fields(&o, g, me, m, forfeit || m->forfeit_turn ?
			(forfeit ? forfeit : referee_offence_name(m->offence)) : NULL);
	jsonout_lit(&o, "}");
	return jsonout_finish(&o, 1, len);
}

/* {"id":…,"ok":true,"move":{"number":…,…}} and "\n"; NULL when memory runs out. */
static char *move_reply_line(const struct game *g, enum color me, const struct referee_move *m,
			     const json_t *id, size_t *len)
{
	struct jsonout o;
	if (jsonout_init(&o) < 0)
		return NULL;
	jsonout_lit(&o, "{\"id\":");
	if (id)
		jsonout_value(&o, id);
	else
		jsonout_lit(&o, "null");
	jsonout_lit(&o, ",\"ok\":true,\"move\":{\"number\":");
	put_move_fields(&o, g, me, m, NULL);
	jsonout_lit(&o, "}}");
	return jsonout_finish(&o, 1, len);
}

/* Send the events of a recorded referee move (record_move first: its clocks are the row's);
 * retires the game if it ended. Returns true if it did (g is gone). */
static bool announce_move(struct server *srv, struct game *g, enum color me,
			  const struct referee_move *m, const char *forfeit)
{
	if (m->number) {
		size_t len;
		char *line = move_event_line(g, me, m, forfeit, &len);
		if (line)
			send_game_line(srv, g, line, len);
		else
			log_msg(LOGL_ERROR, "serialize", "game=%lld", (long long)g->id);
		free(line);
	}
	if (m->warning) {
		json_t *e = proto_event("game.warning");
		json_object_set_new(e, "game", json_integer(g->id));
		json_object_set_new(e, "color", json_string(color_name(me)));
		json_object_set_new(e, "reason", json_string(referee_offence_name(m->offence)));
		json_object_set_new(e, "warnings", json_integer(g->ref.warnings[me]));
		send_game(srv, g, e);
		json_decref(e);
	}
	if (m->counting) {
		json_t *e = proto_event("game.counting");
		json_object_set_new(e, "game", json_integer(g->id));
		send_game(srv, g, e);
		json_decref(e);
	}
	if (g->ref.phase == PHASE_ENDED) {
		send_end(srv, g);
		retire(srv, g);
		return true;
	}
	game_arm(g);
	return false;
}

/* End the game now with `result` (time, lateness, double forfeit, adjudication). */
static void end_game(struct server *srv, struct game *g, const char *result, enum end_reason why)
{
	if (server_txn(srv) < 0)
		persist_failed(srv, "end");
	if (clock_running(g)) /* the stored clocks as they stand at the end */
		clock_peek(&g->cc, &g->clk[g->ref.board.to_move], turn_elapsed(g),
			   &g->clk[g->ref.board.to_move]);
	referee_end(&g->ref, result, why, g->ref.phase == PHASE_ENDED);
	game_save(srv, g);
	send_end(srv, g);
	retire(srv, g);
}

/* The flag of the player to move fell (Art. 12): the game is lost on time, or with
 * `last_period: pass` under byo-yomi the turn is forfeited as a pass and the last period
 * starts again (Art. 22.5). Returns true if the game ended (g is gone). */
static bool flag_fall(struct server *srv, struct game *g)
{
	enum color c = g->ref.board.to_move;
	log_msg(LOGL_INFO, "flag", "game=%lld color=%s", (long long)g->id, color_name(c));
	if (g->cc.system == CLOCK_BYOYOMI && g->rules.last_period == LAST_PERIOD_PASS) {
		struct referee_move m;
		if (server_txn(srv) < 0)
			persist_failed(srv, "flag");
		referee_play(&g->ref, c, BOARD_PASS, &m);
		clock_forfeit_period(&g->cc, &g->clk[c]);
		turn_restart(g);
		record_move(srv, g, c, &m, "time");
		return announce_move(srv, g, c, &m, "time");
	}
	clock_peek(&g->cc, &g->clk[c], turn_elapsed(g), &g->clk[c]);
	end_game(srv, g, c == BLACK ? "W+T" : "B+T", END_TIME);
	return true;
}

/* A player reports present at a scheduled game (or moves in it): Art. 22.2, a player less
 * late than the limit loses twice the lateness from main time. Black's clock has run since
 * the start time already, so Black is charged the rest: 2 x lateness in all, as White. */
static int64_t mark_present(struct game *g, enum color c)
{
	if (g->present[c])
		return 0;
	g->present[c] = true;
	int64_t late_ms = 0;
	if (g->row.start_at > 0) {
		double late = fairclock_wall_s() - g->row.start_at;
		late_ms = late > 0 ? (int64_t)(late * 1000) : 0;
		int64_t ran = c == g->ref.board.to_move && g->ref.phase == PHASE_PLAYING &&
			      g->cc.system != CLOCK_NONE ? turn_elapsed(g) : 0;
		int64_t extra = 2 * late_ms - (ran < late_ms ? ran : late_ms);
		if (extra > 0 && g->cc.system != CLOCK_NONE)
			clock_lateness(&g->cc, &g->clk[c], (extra + 1) / 2);
	}
	return late_ms;
}

/* A pending challenge lapsed: it ends as declined, both players hear challenge.expired. */
static void expire_challenge(struct server *srv, struct game *g)
{
	referee_end(&g->ref, "", END_DECLINED, false);
	if (server_txn(srv) < 0)
		persist_failed(srv, "expire");
	game_save(srv, g);
	log_msg(LOGL_INFO, "challenge_expired", "game=%lld", (long long)g->id);
	json_t *e = proto_event("challenge.expired");
	json_object_set_new(e, "game", json_integer(g->id));
	server_send_player(srv, g->row.black_id, e);
	server_send_player(srv, g->row.white_id, e);
	json_decref(e);
	retire(srv, g);
}

static void on_timer(uv_timer_t *t)
{
	struct game *g = t->data;
	struct server *srv = g->srv;
	double wall = fairclock_wall_s();
	if (g->ref.phase == PHASE_PENDING && g->expires_at > 0 && wall >= (double)g->expires_at) {
		expire_challenge(srv, g);
		return;
	}
	if (g->ref.phase == PHASE_SCHEDULED && wall >= g->row.start_at) {
		/* Art. 22: at the start time Black's clock starts, whoever is there. */
		if (server_txn(srv) < 0)
			persist_failed(srv, "start");
		g->ref.phase = PHASE_PLAYING;
		turn_restart(g);
		game_save(srv, g);
		json_t *e = proto_event("game.begin");
		json_object_set_new(e, "game", json_integer(g->id));
		json_object_set_new(e, "clocks", clocks_json(g, true));
		send_game(srv, g, e);
		json_decref(e);
	}
	if (g->ref.phase == PHASE_PLAYING && g->row.start_at > 0 &&
	    (!g->present[BLACK] || !g->present[WHITE]) &&
	    wall >= g->row.start_at + g->lateness_limit_s) {
		/* Art. 22.1: absent past the limit loses by forfeit; both absent, both lose. */
		if (!g->present[BLACK] && !g->present[WHITE])
			end_game(srv, g, "Void", END_DOUBLE_FORFEIT);
		else
			end_game(srv, g, g->present[BLACK] ? "B+F" : "W+F", END_LATENESS);
		return;
	}
	if (clock_running(g)) {
		enum color c = g->ref.board.to_move;
		struct clock_state st;
		if (clock_peek(&g->cc, &g->clk[c], turn_elapsed(g), &st) == CLOCK_FLAG) {
			flag_fall(srv, g);
			return;
		}
	}
	game_arm(g);
}

static void game_arm(struct game *g)
{
	if (!g->has_timer)
		return;
	double wall = fairclock_wall_s();
	int64_t due = -1;
	if (g->ref.phase == PHASE_PENDING && g->expires_at > 0) {
		due = llround(fmax(0, ((double)g->expires_at - wall) * 1000));
	} else if (g->ref.phase == PHASE_SCHEDULED && g->row.start_at > 0) {
		/* A start time already passed (start_at in the past, a restart): begin now. */
		due = llround(fmax(0, (g->row.start_at - wall) * 1000));
	} else if (g->ref.phase == PHASE_PLAYING && !g->paused) {
		if (g->row.start_at > 0 && (!g->present[BLACK] || !g->present[WHITE]))
			due = llround(fmax(0, (g->row.start_at + g->lateness_limit_s - wall) * 1000));
		if (clock_running(g)) {
			int64_t rem = clock_remaining(&g->cc, &g->clk[g->ref.board.to_move]);
			if (rem != CLOCK_UNLIMITED && rem >= 0) {
				rem -= turn_elapsed(g);
				if (rem < 0)
					rem = 0; /* overdue: fire now */
				if (due < 0 || rem < due)
					due = rem;
			}
		}
	}
	if (due < 0) { /* nothing due (a bad clock never spins the loop) */
		uv_timer_stop(&g->timer);
		return;
	}
	uv_timer_start(&g->timer, on_timer, (uint64_t)(due > 0 ? due : 0), 0);
}

void games_play(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	struct proto_error err;
	const char *vtx;
	int64_t number = 0;
	enum color me;
	struct game *g = my_game(c, req, &me);
	if (!g || !is_live(c, req, g, PHASE_PLAYING))
		return;
	int x, y;
	if (proto_get_vertex(req->root, "vertex", true, &vtx, &err) < 0 ||
	    proto_vertex_check("vertex", vtx, g->row.size, &x, &y, &err) < 0 ||
	    proto_get_int(req->root, "number", false, 1, INT32_MAX, &number, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	int next = (int)board_moves(&g->ref.board) + 1;
	if (number && number != next) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT,
				   "field 'number': the next move is number %d, not %lld", next, (long long)number);
		return;
	}
	if (g->paused) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is paused", (long long)g->id);
		return;
	}
	if (server_txn(srv) < 0) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "storage unavailable");
		return;
	}
	mark_present(g, me);
	/* Charge the mover's clock (less our measure of the connection's lag) before the move
	 * counts: a move after the flag fell is too late. */
	struct clock_state charged = g->clk[me];
	bool my_turn = me == g->ref.board.to_move;
	if (my_turn && clock_running(g)) {
		/* Judged by when the move arrived (the read), not when its turn in the loop came. */
		uint64_t now = fairclock_fair_ms(srv);
		int64_t used = turn_elapsed_at(g, c->read_ms && c->read_ms < now ? c->read_ms : now) -
			       lag_credit(c, srv->set.lag_allowance_ms);
		if (clock_move(&g->cc, &charged, used > 0 ? used : 0) == CLOCK_FLAG) {
			int64_t id = g->id;
			bool ended = flag_fall(srv, g);
			server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "your time ran out in game %lld%s",
					   (long long)id, ended ? "" : ": the turn was forfeited");
			return;
		}
	}
	int pt = vertex_parse(&g->ref.board, vtx);
	struct referee_move m;
	referee_play(&g->ref, me, pt, &m);
	if (m.number && my_turn) {
		g->clk[me] = charged;
		turn_restart(g); /* the opponent's clock starts as the move commits */
	}
	record_move(srv, g, me, &m, NULL);

	/* The reply. */
	if (m.offence == OFFENCE_NONE) {
		size_t len;
		char *line = move_reply_line(g, me, &m, req->id, &len);
		if (line)
			server_send_raw(c, line, len);
		else
			server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "out of memory");
		free(line);
	} else {
		json_t *r = proto_reply_error(req->id, PROTO_ERR_ILLEGAL_MOVE, "");
		json_t *e = json_object_get(r, "error");
		char msg[192];
		snprintf(msg, sizeof msg, "%s at %s: %s%s%s", offence_text(m.offence), vtx,
			 m.lost ? "the game is lost" : m.voided ? "the game is void (Art. 20.3)" :
			 m.forfeit_turn ? "the turn is forfeited (Art. 19)" : "the move is void (Art. 17.2)",
			 m.warning && !m.lost ? ", and a warning is given: " : "",
			 m.warning && !m.lost ? (g->ref.warnings[me] == 1 ? "1 of 2, a second one loses" : "2") : "");
		json_object_set_new(e, "message", json_string(msg));
		json_object_set_new(e, "reason", json_string(referee_offence_name(m.offence)));
		json_object_set_new(e, "penalty", json_pack("{s:b, s:b, s:i, s:b}", "forfeit_turn",
			m.forfeit_turn, "warning", m.warning, "warnings", g->ref.warnings[me], "lost", m.lost));
		server_reply(c, r);
	}
	announce_move(srv, g, me, &m, NULL);
}

void games_join(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	enum color me;
	struct game *g = my_game(c, req, &me);
	if (!g)
		return;
	if (g->ref.phase != PHASE_SCHEDULED && g->ref.phase != PHASE_PLAYING) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is %s: nothing to join",
				   (long long)g->id, referee_phase_name(g->ref.phase));
		return;
	}
	bool was = g->present[me];
	if (server_txn(srv) < 0)
		persist_failed(srv, "join");
	int64_t late_ms = mark_present(g, me);
	game_save(srv, g);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "game", json_integer(g->id));
	json_object_set_new(r, "color", json_string(color_name(me)));
	json_object_set_new(r, "late_ms", json_integer(late_ms));
	json_object_set_new(r, "clocks", clocks_json(g, true));
	server_reply(c, r);
	if (!was) {
		json_t *e = proto_event("game.join");
		json_object_set_new(e, "game", json_integer(g->id));
		json_object_set_new(e, "color", json_string(color_name(me)));
		json_object_set_new(e, "late_ms", json_integer(late_ms));
		send_game(srv, g, e);
		json_decref(e);
	}
	game_arm(g);
}

/* Art. 14: a director pauses or resumes a game; no clock runs while paused. */
static void pause_resume(struct conn *c, const struct proto_request *req, bool pause)
{
	struct server *srv = c->srv;
	bool owned;
	struct game *g = find_game(c, req, &owned);
	if (!g)
		return;
	if (owned || (g->ref.phase != PHASE_PLAYING && g->ref.phase != PHASE_COUNTING &&
		      g->ref.phase != PHASE_SCHEDULED)) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is not live", (long long)g->id);
		if (owned)
			game_free(g);
		return;
	}
	if (g->paused == pause) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is %s", (long long)g->id,
				   pause ? "paused already" : "not paused");
		return;
	}
	if (pause) {
		g->turn_used = turn_elapsed(g);
		g->paused = true;
	} else {
		g->paused = false;
		g->turn_start = fairclock_fair_ms(srv);
	}
	if (server_txn(srv) < 0)
		persist_failed(srv, "pause");
	game_save(srv, g);
	log_msg(LOGL_INFO, pause ? "pause" : "resume", "game=%lld by=%s", (long long)g->id, c->name);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "clocks", clocks_json(g, true));
	server_reply(c, r);
	json_t *e = proto_event(pause ? "game.paused" : "game.resume");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "by", json_string(c->name));
	if (!pause)
		json_object_set_new(e, "to_move", json_string(color_name(g->ref.board.to_move)));
	json_object_set_new(e, "clocks", clocks_json(g, true));
	send_game(srv, g, e);
	json_decref(e);
	game_arm(g);
}

void games_pause(struct conn *c, const struct proto_request *req)
{
	pause_resume(c, req, true);
}

void games_resume(struct conn *c, const struct proto_request *req)
{
	pause_resume(c, req, false);
}

void games_resign(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	enum color me;
	struct game *g = my_game(c, req, &me);
	if (!g)
		return;
	if (referee_resign(&g->ref, me) < 0) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is %s: nothing to resign",
				   (long long)g->id, g->row.phase);
		return;
	}
	if (server_txn(srv) < 0)
		persist_failed(srv, "resign");
	if (g->ref.board.to_move == me && clock_running(g))
		clock_peek(&g->cc, &g->clk[me], turn_elapsed(g), &g->clk[me]);
	game_save(srv, g);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "result", json_string(g->ref.result));
	server_reply(c, r);
	send_end(srv, g);
	retire(srv, g);
}

void games_dead(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	struct proto_error err;
	const json_t *stones;
	enum color me;
	struct game *g = my_game(c, req, &me);
	if (!g || !is_live(c, req, g, PHASE_COUNTING))
		return;
	if (proto_get_vertices(req->root, "stones", true, PROTO_VERTICES_MAX, &stones, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	int pts[PROTO_VERTICES_MAX], n = 0;
	size_t i;
	json_t *v;
	json_array_foreach(stones, i, v) {
		const char *s = json_string_value(v);
		if (proto_vertex_check("stones", s, g->row.size, NULL, NULL, &err) <= 0) {
			if (err.code == PROTO_OK || proto_vertex_check("stones", s, g->row.size, NULL, NULL, &err) == 0)
				proto_error_set(&err, PROTO_ERR_BAD_REQUEST, "field 'stones': 'pass' is not a stone");
			server_reply(c, proto_reply_error_from(req->id, &err));
			return;
		}
		pts[n++] = vertex_parse(&g->ref.board, s);
	}
	bool ended, resumed;
	int bad = referee_dead(&g->ref, me, pts, n, &ended, &resumed);
	if (bad) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'stones': %s is not a stone",
				   json_string_value(json_array_get(stones, (size_t)bad - 1)));
		return;
	}
	if (server_txn(srv) < 0)
		persist_failed(srv, "dead");
	game_save(srv, g);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "ended", json_boolean(ended));
	json_object_set_new(r, "resumed", json_boolean(resumed));
	server_reply(c, r);
	json_t *e = proto_event("game.dead");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "color", json_string(color_name(me)));
	json_object_set_new(e, "stones", claims_json(g, me));
	send_game(srv, g, e);
	json_decref(e);
	if (resumed) {
		e = proto_event("game.resume");
		json_object_set_new(e, "game", json_integer(g->id));
		json_object_set_new(e, "to_move", json_string(color_name(g->ref.board.to_move)));
		send_game(srv, g, e);
		json_decref(e);
		turn_restart(g);
		game_arm(g);
	}
	if (ended) {
		send_end(srv, g);
		retire(srv, g);
	}
}

void games_game(struct conn *c, const struct proto_request *req)
{
	bool owned;
	struct game *g = find_game(c, req, &owned);
	if (!g)
		return;
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "game", game_json(g));
	server_reply(c, r);
	if (owned)
		game_free(g);
}

struct list_ctx {
	struct server *srv;
	json_t *arr;
};

static int list_cb(void *ctx, const struct store_game *row)
{
	struct list_ctx *l = ctx;
	struct store_player b, w;
	const char *bn = store_player_by_id(l->srv->store, row->black_id, &b) == STORE_OK ? b.name : "?";
	const char *wn = store_player_by_id(l->srv->store, row->white_id, &w) == STORE_OK ? w.name : "?";
	json_t *o = json_pack("{s:I, s:s, s:s, s:i, s:f, s:i, s:s, s:b}", "id", (json_int_t)row->id,
			      "black", bn, "white", wn, "size", row->size, "komi", row->komi, "handicap",
			      row->handicap, "phase", row->phase, "rated", row->rated);
	json_object_set_new(o, "result", row->result[0] ? json_string(row->result) : json_null());
	json_object_set_new(o, "reason", row->reason[0] ? json_string(row->reason) : json_null());
	json_object_set_new(o, "tournament", row->tournament_id ? json_integer(row->tournament_id) : json_null());
	json_object_set_new(o, "round", row->round ? json_integer(row->round) : json_null());
	json_array_append_new(l->arr, o);
	return 0;
}

static const char *const phase_choices[] = {"pending", "scheduled", "playing", "counting", "ended"};

void games_games(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int phase = -1;
	const char *player = NULL;
	int64_t tournament = 0, limit = SERVER_GAMES_LIMIT;
	if (proto_get_choice(req->root, "phase", false, phase_choices, 5, &phase, &err) < 0 ||
	    proto_get_name(req->root, "player", false, &player, &err) < 0 ||
	    proto_get_id(req->root, "tournament", false, &tournament, &err) < 0 ||
	    proto_get_int(req->root, "limit", false, 1, SERVER_GAMES_LIMIT_MAX, &limit, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	struct store_games_filter f = {.phase = phase >= 0 ? phase_choices[phase] : NULL,
				       .tournament_id = tournament, .limit = (int)limit};
	if (player) {
		struct store_player p;
		if (store_player_by_name(c->srv->store, player, &p) != STORE_OK) {
			server_reply_error(c, req->id, PROTO_ERR_NOT_FOUND, "no player named '%s'", player);
			return;
		}
		f.player_id = p.id;
	}
	struct list_ctx l = {c->srv, json_array()};
	store_games_list(c->srv->store, &f, list_cb, &l);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "games", l.arr);
	server_reply(c, r);
}

struct sgf_ctx {
	struct sgf_game *s;
	int size;
	const struct clock_control *cc;
};

static int sgf_move_cb(void *ctx, const struct store_move *m)
{
	struct sgf_ctx *x = ctx;
	struct sgf_game *s = x->s;
	if (s->nmoves == s->capmoves) {
		size_t n = s->capmoves ? s->capmoves * 2 : 64;
		struct sgf_move *nm = realloc(s->moves, n * sizeof *nm);
		if (!nm)
			return 1;
		s->moves = nm;
		s->capmoves = n;
	}
	struct sgf_move *sm = &s->moves[s->nmoves++];
	memset(sm, 0, sizeof *sm);
	sm->color = m->color == 'B' ? SGF_BLACK : SGF_WHITE;
	sm->time_left_ms = -1;
	sm->periods_left = -1;
	int xx, yy;
	if (!m->forfeit[0] && vertex_parse_xy(x->size, m->vertex, &xx, &yy) == 1) {
		sm->x = (int16_t)xx;
		sm->y = (int16_t)yy;
	} else {
		sm->x = sm->y = -1;
	}
	if (m->clocks && x->cc->system != CLOCK_NONE) {
		/* BL/WL, OB/OW: the mover's clock after the move (FF[4]). */
		json_t *cj = json_loads(m->clocks, 0, NULL);
		struct clock_state st = {0};
		clock_state_from(json_object_get(cj, m->color == 'B' ? "B" : "W"), &st);
		json_decref(cj);
		int64_t left;
		int count;
		clock_sgf_left(x->cc, &st, &left, &count);
		sm->time_left_ms = left > INT32_MAX ? INT32_MAX : (int32_t)left;
		sm->periods_left = (int16_t)count;
	}
	if (m->forfeit[0]) {
		char buf[96];
		enum offence o;
		if (strcmp(m->forfeit, "time") == 0)
			snprintf(buf, sizeof buf, "Turn forfeited: the last byo-yomi period ran out "
				 "(Chinese Rules 2002, Art. 22.5)");
		else
			snprintf(buf, sizeof buf, "Turn forfeited: %s (Chinese Rules 2002, Art. 19)",
				 referee_offence_parse(m->forfeit, &o) == 0 ? offence_text(o) : m->forfeit);
		sm->comment = strdup(buf);
	}
	return 0;
}

static int sgf_warning_cb(void *ctx, const struct store_warning *w)
{
	struct sgf_game *s = ((struct sgf_ctx *)ctx)->s;
	char buf[STORE_WARNING_REASON_SIZE + 64];
	enum offence o;
	const char *why = referee_offence_parse(w->reason, &o) == 0 ? offence_text(o) : w->reason;
	snprintf(buf, sizeof buf, "Warning to %s: %s", w->color == 'B' ? "Black" : "White", why);
	char **target = w->number > 0 && (size_t)w->number <= s->nmoves ? &s->moves[w->number - 1].comment
									 : &s->comment;
	if (*target) {
		size_t l = strlen(*target) + strlen(buf) + 2;
		char *n = malloc(l);
		if (!n)
			return 1;
		snprintf(n, l, "%s\n%s", *target, buf);
		free(*target);
		*target = n;
	} else {
		*target = strdup(buf);
	}
	return 0;
}

/* The count in the record, so that any reader can reproduce RE: for a game counted, the
 * territory of the final position with the agreed dead stones in the territory of the side
 * that surrounds them (SGF FF4 TB/TW; Art. 8, 9); and, for a game with warnings, WN[b:w] and a
 * root comment saying how they moved the count (Art. 24.1). Returns 0, or -1 when memory runs
 * out. */
static int sgf_count(const struct game *g, struct sgf_game *s)
{
	const struct referee *r = &g->ref;
	if (!g->started)
		return 0;
	s->warnings_black = r->warnings[BLACK] > SGF_MAX_WARNINGS ? SGF_MAX_WARNINGS : r->warnings[BLACK];
	s->warnings_white = r->warnings[WHITE] > SGF_MAX_WARNINGS ? SGF_MAX_WARNINGS : r->warnings[WHITE];
	if (r->scored && (s->warnings_black || s->warnings_white)) {
		char buf[256];
		snprintf(buf, sizeof buf, "Warnings: Black %d, White %d. Each moved one point of the "
			 "count to the opponent (Chinese Rules 2002, Art. 24.1); RE includes them "
			 "(WN[%d:%d]).", s->warnings_black, s->warnings_white, s->warnings_black,
			 s->warnings_white);
		if (s->comment) {
			size_t l = strlen(s->comment) + strlen(buf) + 2;
			char *n = malloc(l);
			if (!n)
				return -1;
			snprintf(n, l, "%s\n%s", s->comment, buf);
			free(s->comment);
			s->comment = n;
		} else if (!(s->comment = strdup(buf))) {
			return -1;
		}
	}
	if (!r->scored || r->phase != PHASE_ENDED)
		return 0;
	const struct board *b = &r->board;
	const bool *dead = r->claimed[BLACK] && r->claimed[WHITE] ? r->dead[BLACK] : NULL;
	unsigned char owner[BOARD_POINTS_MAX];
	score_territory(b, dead, owner);
	for (int y = b->size - 1; y >= 0; y--)
		for (int x = 0; x < b->size; x++) {
			unsigned char o = owner[board_pt(b, x, y)];
			if (o != EMPTY &&
			    sgf_game_add_territory(s, o == BLACK ? SGF_BLACK : SGF_WHITE, x, y) != SGF_OK)
				return -1;
		}
	return 0;
}

void games_sgf(struct conn *c, const struct proto_request *req)
{
	bool owned;
	struct game *g = find_game(c, req, &owned);
	if (!g)
		return;
	struct sgf_game s;
	sgf_game_init(&s);
	s.size = g->row.size;
	s.komi = score_effective_komi(g->row.komi, g->row.handicap); /* the komi counted with */
	s.handicap = g->row.handicap;
	if (strcmp(g->row.reason, "double_forfeit") == 0) /* SGF has no double loss: RE[Void] */
		s.comment = strdup(GAMES_DOUBLE_LOSS_COMMENT);
	s.black = strdup(g->black);
	s.white = strdup(g->white);
	s.rules = strdup("Chinese");
	if (g->row.result[0])
		s.result = strdup(g->row.result);
	char date[16];
	time_t t = (time_t)g->row.created_at;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(date, sizeof date, "%Y-%m-%d", &tm);
	s.date = strdup(date);
	if (g->started && g->ref.board.nsetup) {
		s.setup_black = calloc(g->ref.board.nsetup, sizeof *s.setup_black);
		for (size_t i = 0; s.setup_black && i < g->ref.board.nsetup; i++) {
			int p = g->ref.board.setup[i].pt;
			s.setup_black[s.nsetup_black++] = (struct sgf_point){
				(int16_t)board_x(&g->ref.board, p), (int16_t)board_y(&g->ref.board, p)};
		}
	}
	if (g->cc.system != CLOCK_NONE) {
		char ot[CLOCK_OT_MAX];
		s.time_limit_s = clock_sgf_tm(&g->cc);
		if (clock_sgf_ot(&g->cc, ot)[0])
			s.overtime = strdup(ot);
	}
	struct sgf_ctx x = {&s, g->row.size, &g->cc};
	store_moves_get(c->srv->store, g->id, sgf_move_cb, &x);
	store_warnings_get(c->srv->store, g->id, sgf_warning_cb, &x);
	if (sgf_count(g, &s) < 0) {
		sgf_game_free(&s);
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "out of memory");
		if (owned)
			game_free(g);
		return;
	}
	char *text = sgf_write(&s);
	sgf_game_free(&s);
	if (!text) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "could not write the record");
	} else {
		json_t *r = proto_reply_ok(req->id);
		json_object_set_new(r, "sgf", json_string(text));
		server_reply(c, r);
		free(text);
	}
	if (owned)
		game_free(g);
}

void games_observe(struct conn *c, const struct proto_request *req)
{
	bool owned;
	struct game *g = find_game(c, req, &owned);
	if (!g)
		return;
	if (owned) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is over", (long long)g->id);
		game_free(g);
		return;
	}
	bool already = false;
	for (size_t i = 0; i < g->nobs; i++)
		already |= g->obs[i] == c;
	if (!already) {
		if (g->nobs == g->capobs) {
			size_t n = g->capobs ? g->capobs * 2 : 4;
			struct conn **no = realloc(g->obs, n * sizeof *no);
			if (!no) {
				server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "out of memory");
				return;
			}
			g->obs = no;
			g->capobs = n;
		}
		if (c->nobs == c->capobs) {
			size_t n = c->capobs ? c->capobs * 2 : 4;
			int64_t *no = realloc(c->observing, n * sizeof *no);
			if (!no) {
				server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "out of memory");
				return;
			}
			c->observing = no;
			c->capobs = n;
		}
		g->obs[g->nobs++] = c;
		c->observing[c->nobs++] = g->id;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "game", game_json(g));
	server_reply(c, r);
}

static void unobserve(struct server *srv, struct conn *c, int64_t id)
{
	struct game *g = idmap_get(&srv->games, id);
	for (size_t i = 0; g && i < g->nobs; i++)
		if (g->obs[i] == c) {
			g->obs[i] = g->obs[--g->nobs];
			break;
		}
	for (size_t k = 0; k < c->nobs; k++)
		if (c->observing[k] == id) {
			c->observing[k] = c->observing[--c->nobs];
			break;
		}
}

void games_unobserve(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t id;
	if (proto_get_id(req->root, "game", true, &id, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	unobserve(c->srv, c, id);
	server_reply(c, proto_reply_ok(req->id));
}

void games_conn_gone(struct server *srv, struct conn *c)
{
	while (c->nobs)
		unobserve(srv, c, c->observing[c->nobs - 1]);
}

void games_player_login(struct conn *c)
{
	/* Send the state of each live game of this player (reconnects resume play). */
	for (size_t i = 0; i < c->srv->games.cap; i++) {
		struct game *g = c->srv->games.slots[i].val;
		if (!g || g->ref.phase == PHASE_PENDING || color_of(g, c->player_id) == EMPTY)
			continue;
		json_t *e = proto_event("game.state");
		json_object_set_new(e, "game", game_json(g));
		server_send(c, e);
		json_decref(e);
	}
	/* Pending challenges: the oldest few and the counts, however many there are (issue 20:
	 * thousands of them once cut a player off before the login reply got out). */
	size_t n, sent = 0;
	struct game **p = pending_of(c->srv, c->player_id, &n);
	if (n == 0) {
		free(p);
		return;
	}
	for (size_t i = 0; i < n && i < GAMES_LOGIN_CHALLENGES; i++) {
		json_t *e = proto_event("challenge.pending");
		json_object_set_new(e, "game", game_json(p[i]));
		json_object_set_new(e, "expires_at", json_integer(p[i]->expires_at));
		server_send(c, e);
		json_decref(e);
	}
	for (size_t i = 0; i < n; i++)
		sent += p[i]->row.challenger_id == c->player_id;
	free(p);
	json_t *e = proto_event("challenge.summary");
	json_object_set_new(e, "received", json_integer((json_int_t)(n - sent)));
	json_object_set_new(e, "sent", json_integer((json_int_t)sent));
	json_object_set_new(e, "listed", json_integer((json_int_t)(n < GAMES_LOGIN_CHALLENGES ? n : GAMES_LOGIN_CHALLENGES)));
	server_send(c, e);
	json_decref(e);
}

void games_challenges(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t offset = 0, limit = GAMES_CHALLENGES_LIST_MAX;
	if (proto_get_int(req->root, "offset", false, 0, INT32_MAX, &offset, &err) < 0 ||
	    proto_get_int(req->root, "limit", false, 1, GAMES_CHALLENGES_LIST_MAX, &limit, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	size_t n;
	struct game **p = pending_of(c->srv, c->player_id, &n);
	json_t *a = json_array();
	for (size_t i = (size_t)offset; i < n && i < (size_t)(offset + limit); i++) {
		const struct game *g = p[i];
		bool mine = g->row.challenger_id == c->player_id;
		json_array_append_new(a, json_pack("{s:I, s:s, s:s, s:s, s:o, s:f, s:I}", "game",
			(json_int_t)g->id, "direction", mine ? "sent" : "received", "from", g->black,
			"to", g->white, "settings", settings_json(g), "created_at", g->row.created_at,
			"expires_at", (json_int_t)g->expires_at));
	}
	free(p);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "total", json_integer((json_int_t)n));
	json_object_set_new(r, "offset", json_integer(offset));
	json_object_set_new(r, "challenges", a);
	server_reply(c, r);
}

void games_stop(struct server *srv)
{
	fairclock_stop(srv);
	for (size_t i = 0; i < srv->games.cap; i++) {
		struct game *g = srv->games.slots[i].val;
		if (g && g->has_timer) {
			g->has_timer = false;
			uv_close((uv_handle_t *)&g->timer, NULL);
		}
	}
}

int games_time_check(const struct proto_time *t, const char **why)
{
	struct clock_control cc;
	control_from_time(t, &cc);
	return cc.system == CLOCK_NONE ? 0 : clock_control_check(&cc, why);
}

int games_schedule_check(const struct game_settings *set, int handicap, const char **why)
{
	*why = NULL;
	if (set->size < BOARD_MIN_SIZE || set->size > BOARD_MAX_SIZE)
		*why = "the board size is out of range";
	else if (handicap < 0 || handicap > GAMES_HANDICAP_MAX)
		*why = "the handicap is out of range";
	else if (referee_check(set->size, handicap) < 0)
		*why = "the board cannot hold that handicap";
	return *why ? -1 : 0;
}

int64_t games_create_scheduled(struct server *srv, int64_t black_id, int64_t white_id,
			       const struct game_settings *set, int handicap, int64_t tournament_id,
			       int round, double start_at)
{
	const char *why;
	if (games_schedule_check(set, handicap, &why) < 0) {
		log_msg(LOGL_ERROR, "schedule", "black=%lld white=%lld size=%d handicap=%d: %s",
			(long long)black_id, (long long)white_id, set->size, handicap, why);
		return -1;
	}
	struct game *g = calloc(1, sizeof *g);
	if (!g)
		return -1;
	g->rules = set->rules;
	g->time = set->time;
	control_from_time(&g->time, &g->cc);
	g->lateness_limit_s = set->lateness_limit_s > 0 ? set->lateness_limit_s : GAMES_LATENESS_LIMIT_DEFAULT_S;
	g->row.black_id = black_id;
	g->row.white_id = white_id;
	g->row.size = set->size;
	g->row.komi = handicap >= 1 ? set->handicap_komi : set->komi;
	g->row.handicap = handicap;
	g->row.rated = set->rated;
	g->row.tournament_id = tournament_id;
	g->row.round = round;
	g->row.start_at = start_at;
	g->row.created_at = fairclock_wall_s();
	snprintf(g->row.phase, sizeof g->row.phase, "scheduled");
	json_t *tj = proto_time_to_json(&g->time), *rj = proto_rules_to_json(&g->rules);
	g->row.time_control = json_dumps(tj, JSON_COMPACT);
	g->row.rules = json_dumps(rj, JSON_COMPACT);
	json_decref(tj);
	json_decref(rj);
	if (names_of(srv, g) < 0 || start_referee(g) < 0) {
		log_msg(LOGL_ERROR, "schedule", "black=%lld white=%lld", (long long)black_id, (long long)white_id);
		game_release(g);
		return -1;
	}
	g->ref.phase = PHASE_SCHEDULED;
	if (server_txn(srv) < 0 || store_game_create(srv->store, &g->row, &g->id) != STORE_OK)
		persist_failed(srv, "schedule");
	g->row.id = g->id;
	game_save(srv, g); /* the extra state (lateness limit, presence) */
	game_go_live(srv, g);
	send_start(srv, g);
	log_msg(LOGL_INFO, "game_scheduled", "game=%lld black=%s white=%s tournament=%lld round=%d",
		(long long)g->id, g->black, g->white, (long long)tournament_id, round);
	return g->id;
}

/* Accept "B+R", "W+3.5", "B+T", "W+F", "0", "Void" and the like. */
static bool result_valid(const char *r)
{
	if (strcmp(r, "0") == 0 || strcmp(r, "Void") == 0 || strcmp(r, "Draw") == 0)
		return true;
	if ((r[0] != 'B' && r[0] != 'W') || r[1] != '+')
		return false;
	const char *t = r + 2;
	if (strcmp(t, "R") == 0 || strcmp(t, "T") == 0 || strcmp(t, "F") == 0 || *t == '\0')
		return true;
	char *end;
	double v = strtod(t, &end);
	return *end == '\0' && v > 0 && v < 1e4;
}

int games_set_result(struct server *srv, int64_t id, const char *result, const char *reason,
		     bool unrated)
{
	enum end_reason why = END_ADJUDICATED;
	if (!result_valid(result) || (reason && referee_reason_parse(reason, &why) < 0) ||
	    why == END_NONE || why == END_DECLINED)
		return -2;
	/* One stored form of a double loss: Void with reason double_forfeit (docs/rules.md §4) */
	if (why == END_DOUBLE_FORFEIT && strcmp(result, "Void") != 0)
		return -2;
	if (strcmp(result, "Draw") == 0)
		result = "0";
	struct game *g = idmap_get(&srv->games, id);
	if (g) {
		if (unrated) /* a forfeit without play moves no rating (issue 7) */
			g->row.rated = false;
		end_game(srv, g, result, why);
		return 0;
	}
	struct store_game row = {0};
	if (store_game_get(srv->store, id, &row) != STORE_OK) {
		store_game_clear(&row);
		return -1;
	}
	if (server_txn(srv) < 0)
		persist_failed(srv, "result");
	snprintf(row.result, sizeof row.result, "%s", result);
	snprintf(row.reason, sizeof row.reason, "%s", referee_reason_name(why));
	snprintf(row.phase, sizeof row.phase, "ended");
	if (!row.ended_at)
		row.ended_at = fairclock_wall_s();
	bool was_rated = row.rated;
	if (unrated)
		row.rated = false;
	if (store_game_update(srv->store, &row) != STORE_OK)
		persist_failed(srv, "result");
	log_msg(LOGL_INFO, "result_override", "game=%lld result=%s reason=%s", (long long)id, result,
		referee_reason_name(why));
	if (was_rated && ratings_recompute(srv, id) < 0)
		persist_failed(srv, "ratings");
	json_t *e = proto_event("game.end");
	json_object_set_new(e, "game", json_integer(id));
	json_object_set_new(e, "result", json_string(result));
	json_object_set_new(e, "reason", json_string(referee_reason_name(why)));
	json_object_set_new(e, "override", json_true());
	server_send_player(srv, row.black_id, e);
	server_send_player(srv, row.white_id, e);
	json_decref(e);
	store_game_clear(&row);
	return 0;
}

int games_warn(struct server *srv, int64_t id, enum color c, const char *reason)
{
	struct game *g = idmap_get(&srv->games, id);
	if (!g || (g->ref.phase != PHASE_PLAYING && g->ref.phase != PHASE_COUNTING &&
		   g->ref.phase != PHASE_SCHEDULED))
		return -1;
	if (server_txn(srv) < 0)
		persist_failed(srv, "warn");
	int n = ++g->ref.warnings[c];
	struct store_warning w = {.color = color_name(c)[0], .number = (int)board_moves(&g->ref.board),
				  .at = fairclock_wall_s()};
	snprintf(w.reason, sizeof w.reason, "%s", reason);
	if (store_warning_add(srv->store, g->id, &w, NULL) != STORE_OK)
		persist_failed(srv, "warning");
	json_t *e = proto_event("game.warning");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "color", json_string(color_name(c)));
	json_object_set_new(e, "reason", json_string(reason));
	json_object_set_new(e, "warnings", json_integer(n));
	json_object_set_new(e, "by_director", json_true());
	send_game(srv, g, e);
	json_decref(e);
	if (n >= 2) {
		/* Art. 24.2: a second warning loses the game. */
		end_game(srv, g, c == BLACK ? "W+F" : "B+F", END_WARNINGS);
		return 0;
	}
	game_save(srv, g);
	return 0;
}
