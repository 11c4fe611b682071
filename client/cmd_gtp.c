/* cmd_gtp: `tengen gtp`, a GTP engine playing on a tengen server (see cmd_gtp.h).
 *
 * State. The bridge keeps, per live game, the server's record (the moves numbered 1..n, the
 * phase, whose turn, the clocks as last reported) and what its engine has been told
 * (eng_moves[0..eng_known)). After any change, pump() brings the engine level with the record
 * (`play` for each missing move), then asks it for a move (`time_left`, `genmove`) on our turn,
 * or for its dead stones in the counting phase. Whenever the engine's board can no longer be
 * the server's (our move was refused and recorded as a pass, a stale genmove, a resync that
 * disagrees), the engine is replaced by a fresh process that is set up and replays the record.
 *
 * Safety. Our move goes out as `play {game, vertex, number}`; if the connection drops before
 * the reply, the move is kept and resent with the same number after the resync only if the
 * server's record still ends just before it: the server plays it at most once (protocol.md,
 * play). Session reply callbacks carry the game id, never a pointer (a game can end and be
 * freed before its reply comes); engine callbacks carry the game pointer (engine_close, done
 * before a game is freed, drops them).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <uv.h>
#include <jansson.h>

#include "board.h"
#include "score.h"
#include "vertex.h"
#include "cmd_gtp.h"
#include "cmd_score.h"
#include "engine.h"
#include "session.h"

#define GTP_NAME_MAX 33     /* player names: 32 bytes + NUL (PROTO_NAME_MAX) */
#define GTP_VERTEX_MAX 8
#define GTP_DEAD_MAX (BOARD_MAX_SIZE * BOARD_MAX_SIZE)
#define GTP_HANDICAP_MAX 9  /* handicap stones the server places at most */
#define GTP_ENDED_RING 256  /* ended games remembered, so that a late reply cannot revive one */
#define GTP_REFUSALS_MAX 3  /* our moves refused in a row before waiting for the server's next
			     * event: never a hot loop against a server that disagrees with itself */

enum accept_policy { ACCEPT_ANY, ACCEPT_RATED, ACCEPT_FROM };

struct move {
	char color;                  /* 'B' or 'W' */
	char vertex[GTP_VERTEX_MAX]; /* "D4" or "pass" */
};

struct game {
	struct game *next;
	struct bridge *br;
	json_int_t id;
	int size, handicap;
	double komi;
	char color;                  /* ours */
	char opponent[GTP_NAME_MAX];
	json_t *time;                /* time control object */
	char phase[16];
	char to_move;                /* 'B', 'W', or 0 */
	bool paused, synced, sync_out;
	double start_at;             /* 0: not scheduled */
	bool joined, join_out;
	uv_timer_t join_timer;
	bool announced;              /* "game started" logged */
	struct move *moves;          /* the server's record, move k+1 at [k] */
	int nmoves, capmoves;
	json_t *clocks;              /* as last reported */
	uint64_t clocks_at;          /* uv_now when they were */
	/* the engine */
	struct engine *eng;
	bool eng_failed;             /* died: resigned, no new engine */
	struct move *eng_moves;      /* what it was told / played */
	int eng_known, eng_cap;
	bool genmove_out;
	int genmove_number;
	/* our move in flight (or to resend after a reconnect) */
	bool play_out, play_sent;
	int play_number;
	char play_vertex[GTP_VERTEX_MAX];
	/* counting */
	bool dead_out, dead_sent, resign_sent;
	int countings;
	int resume_mark;             /* moves recorded when play last resumed after counting */
	int refusals;                /* our moves refused in a row (conflict, not_your_turn) */
	json_t *their_dead;          /* the opponent's claim in this counting phase, or NULL */
};

struct bridge {
	uv_loop_t *loop;
	struct session *s;
	const char *user;
	char **engine_argv;
	bool engine_stderr;
	bool kgs_time;               /* the engine knows kgs-time_settings */
	int max_games;
	enum accept_policy accept;
	const char *accept_names[GTP_ACCEPT_NAMES_MAX];
	int naccept_names;
	struct game *games;
	int ngames;
	uv_signal_t sigint, sigterm;
	int status;
	bool stopping;
	char engine_name[128];
	json_int_t ended[GTP_ENDED_RING]; /* games that ended lately: late replies are ignored */
	int nended;
};

static struct bridge *the_bridge; /* session reply callbacks find it here */

/* ---- logging ---- */

static void say(const struct bridge *br, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const struct bridge *br, const char *fmt, ...)
{
	char stamp[16];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%H:%M:%S", &tm);
	fprintf(stderr, "%s tengen gtp [%s]: ", stamp, br->user ? br->user : "?");
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

/* ---- games: lookup, lifetime ---- */

static struct game *find_game(struct bridge *br, json_int_t id)
{
	for (struct game *g = br->games; g; g = g->next)
		if (g->id == id)
			return g;
	return NULL;
}

static struct game *new_game(struct bridge *br, json_int_t id)
{
	struct game *g = calloc(1, sizeof *g);
	if (!g) {
		say(br, "game %lld: out of memory", (long long)id);
		return NULL;
	}
	g->br = br;
	g->id = id;
	g->size = 19;
	strcpy(g->phase, "playing");
	uv_timer_init(br->loop, &g->join_timer);
	g->join_timer.data = g;
	g->next = br->games;
	br->games = g;
	br->ngames++;
	return g;
}

static void game_freed(uv_handle_t *h)
{
	struct game *g = h->data;
	free(g->moves);
	free(g->eng_moves);
	json_decref(g->time);
	json_decref(g->clocks);
	json_decref(g->their_dead);
	free(g);
}

static bool ended_lately(const struct bridge *br, json_int_t id)
{
	int n = br->nended < GTP_ENDED_RING ? br->nended : GTP_ENDED_RING;
	for (int k = 0; k < n; k++)
		if (br->ended[k] == id)
			return true;
	return false;
}

static void free_game(struct game *g)
{
	struct bridge *br = g->br;
	br->ended[br->nended++ % GTP_ENDED_RING] = g->id;
	if (br->nended >= 2 * GTP_ENDED_RING)
		br->nended -= GTP_ENDED_RING;
	for (struct game **pp = &br->games; *pp; pp = &(*pp)->next)
		if (*pp == g) {
			*pp = g->next;
			br->ngames--;
			break;
		}
	engine_close(g->eng);
	g->eng = NULL;
	uv_close((uv_handle_t *)&g->join_timer, game_freed);
}

static void *reply_arg(const struct game *g)
{
	return (void *)(intptr_t)g->id;
}

static struct game *game_of_arg(void *arg)
{
	return the_bridge ? find_game(the_bridge, (json_int_t)(intptr_t)arg) : NULL;
}

static int push_move(struct move **arr, int *n, int *cap, char color, const char *vertex)
{
	if (*n == *cap) {
		int nc = *cap ? *cap * 2 : 64;
		struct move *m = realloc(*arr, (size_t)nc * sizeof *m);
		if (!m)
			return -1;
		*arr = m;
		*cap = nc;
	}
	struct move *m = &(*arr)[(*n)++];
	m->color = color;
	snprintf(m->vertex, sizeof m->vertex, "%s", vertex);
	return 0;
}

static bool same_vertex(const char *a, const char *b)
{
	return strcasecmp(a, b) == 0;
}

static char other(char c)
{
	return c == 'B' ? 'W' : 'B';
}

/* ---- requests to the server ---- */

static void pump(struct game *g);
static void sync_game(struct game *g);

static int send_req(struct bridge *br, json_t *req, session_reply_cb cb, void *arg)
{
	int rc = session_request(br->s, req, cb, arg);
	json_decref(req);
	return rc;
}

static const char *err_code(const json_t *reply)
{
	return json_string_value(json_object_get(json_object_get(reply, "error"), "code"));
}

static const char *err_message(const json_t *reply)
{
	const char *m = json_string_value(json_object_get(json_object_get(reply, "error"), "message"));
	return m ? m : "?";
}

static bool reply_ok(const json_t *reply)
{
	return reply && json_is_true(json_object_get(reply, "ok"));
}

static void resign_game(struct game *g, const char *why);

static void resign_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	struct game *g = game_of_arg(arg);
	if (g && !reply)
		g->resign_sent = false; /* resent after the resync */
}

static void resign_game(struct game *g, const char *why)
{
	if (g->resign_sent)
		return;
	say(g->br, "game %lld: resigning (%s)", (long long)g->id, why);
	g->resign_sent = true;
	if (send_req(g->br, json_pack("{s:s, s:I}", "cmd", "resign", "game", g->id), resign_reply,
		     reply_arg(g)) < 0)
		g->resign_sent = false;
}

/* ---- the engine ---- */

static void engine_exited(struct engine *e, int64_t status, int term_signal, void *ctx)
{
	struct game *g = ctx;
	if (e != g->eng)
		return;
	if (term_signal)
		say(g->br, "game %lld: the engine died (signal %d)", (long long)g->id, term_signal);
	else
		say(g->br, "game %lld: the engine exited (status %lld)", (long long)g->id,
		    (long long)status);
	engine_close(g->eng);
	g->eng = NULL;
	g->eng_failed = true;
	g->genmove_out = false;
	resign_game(g, "the engine is gone");
}

static void setup_reply(struct engine *e, bool ok, const char *text, void *arg)
{
	struct game *g = arg;
	if (e == g->eng && text && !ok)
		say(g->br, "game %lld: the engine refused a setup command: %s", (long long)g->id, text);
}

static void replay_reply(struct engine *e, bool ok, const char *text, void *arg)
{
	struct game *g = arg;
	if (e == g->eng && text && !ok)
		say(g->br, "game %lld: the engine refused a recorded move: %s", (long long)g->id, text);
}

static void engine_time_settings(struct game *g)
{
	const char *sys = json_string_value(json_object_get(g->time, "system"));
	long main_s = (long)json_number_value(json_object_get(g->time, "main_s"));
	long period_s = (long)json_number_value(json_object_get(g->time, "period_s"));
	long periods = (long)json_integer_value(json_object_get(g->time, "periods"));
	long stones = (long)json_integer_value(json_object_get(g->time, "stones"));
	if (period_s < 1)
		period_s = 1;
	if (!sys || strcmp(sys, "none") == 0)
		engine_send(g->eng, setup_reply, g, "time_settings 0 1 0");
	else if (strcmp(sys, "byoyomi") == 0 && g->br->kgs_time)
		engine_send(g->eng, setup_reply, g, "kgs-time_settings byoyomi %ld %ld %ld", main_s,
			    period_s, periods);
	else if (strcmp(sys, "byoyomi") == 0)
		engine_send(g->eng, setup_reply, g, "time_settings %ld %ld 1", main_s, period_s);
	else if (strcmp(sys, "canadian") == 0)
		engine_send(g->eng, setup_reply, g, "time_settings %ld %ld %ld", main_s, period_s,
			    stones);
	else /* absolute, fischer: main time only (time_left keeps a Fischer clock current) */
		engine_send(g->eng, setup_reply, g, "time_settings %ld 0 0", main_s);
}

/* A fresh engine for g, set up from the game; the record is replayed by pump(). */
static int start_engine(struct game *g)
{
	struct bridge *br = g->br;
	engine_close(g->eng);
	g->eng = NULL;
	g->eng_known = 0;
	g->genmove_out = false;
	if (g->eng_failed)
		return -1;
	char err[256];
	struct engine_options eo = {.argv = br->engine_argv, .inherit_stderr = br->engine_stderr,
				    .on_exit = engine_exited, .ctx = g};
	g->eng = engine_spawn(br->loop, &eo, err, sizeof err);
	if (!g->eng) {
		say(br, "game %lld: cannot start the engine: %s", (long long)g->id, err);
		g->eng_failed = true;
		resign_game(g, "no engine");
		return -1;
	}
	engine_send(g->eng, setup_reply, g, "boardsize %d", g->size);
	engine_send(g->eng, setup_reply, g, "clear_board");
	/* The komi in force: the game's komi plus the handicap compensation, as the server counts
	 * and writes KM (score_effective_komi, docs/rules.md Art. 11). */
	engine_send(g->eng, setup_reply, g, "komi %g", score_effective_komi(g->komi, g->handicap));
	if (g->handicap >= 2 && g->handicap <= GTP_HANDICAP_MAX) {
		/* the server places them at GTP's fixed points (board_fixed_handicap, as games.c);
		 * a handicap of 1 places none: Black simply moves first */
		int pts[GTP_HANDICAP_MAX], stride = g->size + 2;
		int n = board_fixed_handicap(g->size, g->handicap, pts, stride);
		char line[256] = "set_free_handicap";
		size_t len = strlen(line);
		for (int k = 0; k < n; k++) {
			char v[VERTEX_MAX_LEN];
			vertex_format_xy(g->size, pts[k] % stride - 1, pts[k] / stride - 1, v);
			len += (size_t)snprintf(line + len, sizeof line - len, " %s", v);
		}
		if (n > 0)
			engine_send(g->eng, setup_reply, g, "%s", line);
	}
	engine_time_settings(g);
	return 0;
}

/* Colour c's clock now, as GTP's time_left takes it (GTP 2 §6.3.2: seconds left, and stones
 * left in the byo-yomi period, 0 in main time; with kgs-time_settings byo-yomi, the period
 * length and the periods left). False for a game without clocks. */
static bool clock_now(struct game *g, char c, long *secs, long *stones)
{
	const char *sys = json_string_value(json_object_get(g->time, "system"));
	json_t *ck = json_object_get(g->clocks, c == 'B' ? "B" : "W");
	if (!sys || strcmp(sys, "none") == 0 || !json_is_object(ck))
		return false;
	int64_t elapsed = (int64_t)(uv_now(g->br->loop) - g->clocks_at);
	if (g->to_move != c)
		elapsed = 0;
	int64_t main_ms = (int64_t)json_number_value(json_object_get(ck, "main_ms"));
	int64_t period_ms = (int64_t)json_number_value(json_object_get(ck, "period_ms"));
	int64_t periods = (int64_t)json_number_value(json_object_get(ck, "periods"));
	int64_t cstones = (int64_t)json_number_value(json_object_get(ck, "stones"));
	if (main_ms > elapsed) {
		*secs = (long)((main_ms - elapsed) / 1000);
		*stones = 0;
		return true;
	}
	elapsed -= main_ms;
	if (strcmp(sys, "byoyomi") == 0) {
		int64_t full = (int64_t)(json_number_value(json_object_get(g->time, "period_s")) * 1000);
		if (full <= 0)
			full = 1;
		while (periods > 1 && elapsed >= period_ms) {
			elapsed -= period_ms;
			period_ms = full;
			periods--;
		}
		int64_t left = period_ms > elapsed ? period_ms - elapsed : 0;
		if (g->br->kgs_time) {
			*secs = (long)(full / 1000);
			*stones = (long)periods;
		} else {
			*secs = (long)(left / 1000);
			*stones = 1;
		}
		return true;
	}
	if (strcmp(sys, "canadian") == 0) {
		*secs = (long)(period_ms > elapsed ? (period_ms - elapsed) / 1000 : 0);
		*stones = (long)(cstones > 0 ? cstones : 1);
		return true;
	}
	*secs = 0;
	*stones = 0;
	return true;
}

static void play_reply(struct session *s, json_t *reply, void *arg);
static void on_move(struct game *g, const json_t *m);

static void send_play(struct game *g)
{
	json_t *req = json_pack("{s:s, s:I, s:s, s:i}", "cmd", "play", "game", g->id, "vertex",
				g->play_vertex, "number", g->play_number);
	g->play_sent = send_req(g->br, req, play_reply, reply_arg(g)) == 0;
}

static void genmove_reply(struct engine *e, bool ok, const char *text, void *arg)
{
	struct game *g = arg;
	if (e != g->eng)
		return;
	g->genmove_out = false;
	if (!text)
		return; /* dead: engine_exited resigns */
	if (!ok) {
		say(g->br, "game %lld: genmove failed: %s", (long long)g->id, text);
		resign_game(g, "the engine could not move");
		return;
	}
	if (strcasecmp(text, "resign") == 0) {
		resign_game(g, "the engine resigns");
		return;
	}
	int x, y;
	if (strlen(text) >= GTP_VERTEX_MAX || vertex_parse_xy(g->size, text, &x, &y) < 0) {
		say(g->br, "game %lld: the engine answered genmove with '%.40s', not a vertex",
		    (long long)g->id, text);
		resign_game(g, "the engine's move is not a vertex");
		return;
	}
	char v[GTP_VERTEX_MAX];
	snprintf(v, sizeof v, "%s", text);
	/* The engine has played it on its own board. */
	if (push_move(&g->eng_moves, &g->eng_known, &g->eng_cap, g->color, v) < 0) {
		start_engine(g);
		pump(g);
		return;
	}
	if (strcmp(g->phase, "playing") != 0 || g->nmoves != g->genmove_number - 1 ||
	    g->to_move != g->color) {
		/* the game moved on meanwhile: this engine's board holds a move that is not played */
		say(g->br, "game %lld: stale genmove (%s); restarting the engine", (long long)g->id, v);
		start_engine(g);
		pump(g);
		return;
	}
	g->play_out = true;
	g->play_number = g->genmove_number;
	snprintf(g->play_vertex, sizeof g->play_vertex, "%s", v);
	send_play(g);
}

static void dead_reply(struct session *s, json_t *reply, void *arg);

static void send_dead(struct game *g, json_t *stones)
{
	json_t *req = json_pack("{s:s, s:I, s:O}", "cmd", "dead", "game", g->id, "stones", stones);
	if (send_req(g->br, req, dead_reply, reply_arg(g)) < 0)
		g->dead_sent = false;
}

static void final_status_reply(struct engine *e, bool ok, const char *text, void *arg)
{
	struct game *g = arg;
	if (e != g->eng)
		return;
	g->dead_out = false;
	if (!text)
		return;
	if (strcmp(g->phase, "counting") != 0 || g->dead_sent)
		return;
	static char v[GTP_DEAD_MAX][8];
	int n = ok ? engine_parse_vertices(text, v, GTP_DEAD_MAX) : 0;
	if (n < 0) {
		say(g->br, "game %lld: cannot read the engine's dead stones: %.60s", (long long)g->id, text);
		n = 0;
	}
	json_t *stones = json_array();
	for (int k = 0; k < n; k++)
		json_array_append_new(stones, json_string(v[k]));
	g->dead_sent = true;
	send_dead(g, stones);
	json_decref(stones);
}

/* Bring the engine level with the record, then ask it for what the game needs next. */
static void pump(struct game *g)
{
	struct bridge *br = g->br;
	if (br->stopping || g->eng_failed || g->resign_sent || !g->synced)
		return;
	if (!g->eng && start_engine(g) < 0)
		return;
	/* The engine ahead of the record: only our own move in flight may be. */
	if (g->eng_known > g->nmoves &&
	    !(g->play_out && g->eng_known == g->nmoves + 1 && g->play_number == g->nmoves + 1) &&
	    !g->genmove_out) {
		say(br, "game %lld: the engine is ahead of the record; restarting it", (long long)g->id);
		start_engine(g);
		if (!g->eng)
			return;
	}
	for (int k = 0; k < g->nmoves && k < g->eng_known; k++)
		if (g->eng_moves[k].color != g->moves[k].color ||
		    !same_vertex(g->eng_moves[k].vertex, g->moves[k].vertex)) {
			say(br, "game %lld: move %d is %s %s, not the engine's %s; restarting it",
			    (long long)g->id, k + 1, g->moves[k].color == 'B' ? "B" : "W",
			    g->moves[k].vertex, g->eng_moves[k].vertex);
			start_engine(g);
			if (!g->eng)
				return;
			break;
		}
	if (g->genmove_out)
		return; /* genmove_reply decides */
	while (g->eng_known < g->nmoves) {
		const struct move *m = &g->moves[g->eng_known];
		if (engine_send(g->eng, replay_reply, g, "play %c %s", m->color, m->vertex) < 0)
			return;
		push_move(&g->eng_moves, &g->eng_known, &g->eng_cap, m->color, m->vertex);
	}
	if (g->paused)
		return;
	/* after two passes (since the last resumption) counting starts: no move is due */
	bool two_passes = g->nmoves >= g->resume_mark + 2 &&
			  strcasecmp(g->moves[g->nmoves - 1].vertex, "pass") == 0 &&
			  strcasecmp(g->moves[g->nmoves - 2].vertex, "pass") == 0;
	if (strcmp(g->phase, "playing") == 0 && g->to_move == g->color && !g->play_out &&
	    !two_passes && g->refusals < GTP_REFUSALS_MAX) {
		long secs, stones;
		if (clock_now(g, g->color, &secs, &stones))
			engine_send(g->eng, setup_reply, g, "time_left %c %ld %ld", g->color, secs, stones);
		g->genmove_number = g->nmoves + 1;
		g->genmove_out = engine_send(g->eng, genmove_reply, g, "genmove %c", g->color) == 0;
		return;
	}
	if (strcmp(g->phase, "counting") == 0 && !g->dead_sent && !g->dead_out) {
		if (g->countings > GTP_AGREE_AFTER_COUNTINGS && g->their_dead) {
			say(br, "game %lld: counting phase %d: agreeing with the opponent's dead stones",
			    (long long)g->id, g->countings);
			g->dead_sent = true;
			send_dead(g, g->their_dead);
			return;
		}
		g->dead_out = engine_send(g->eng, final_status_reply, g, "final_status_list dead") == 0;
	}
}

/* ---- replies ---- */

static void play_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	struct game *g = game_of_arg(arg);
	if (!g)
		return;
	if (!reply) {
		g->play_sent = false; /* kept in play_out: resent after the resync if still due */
		return;
	}
	g->play_out = false;
	g->play_sent = false;
	if (reply_ok(reply)) {
		on_move(g, json_object_get(reply, "move")); /* before its game.move event */
		return;
	}
	const char *code = err_code(reply);
	const char *why = json_string_value(json_object_get(json_object_get(reply, "error"), "reason"));
	if (code && strcmp(code, "illegal_move") == 0 && why && strcmp(why, "not_your_turn") != 0) {
		/* the server records a forfeited turn (game.move pass) or warns: the engine's board
		 * is wrong now; pump() replaces it when the record disagrees */
		say(g->br, "game %lld: move %s refused: %s", (long long)g->id, g->play_vertex,
		    err_message(reply));
		pump(g);
		return;
	}
	/* conflict (stale number, flag fell, paused, not playing), not_your_turn: read the record
	 * again; after GTP_REFUSALS_MAX in a row, wait for the server's next event */
	say(g->br, "game %lld: move %s not played: %s", (long long)g->id, g->play_vertex,
	    err_message(reply));
	if (++g->refusals == GTP_REFUSALS_MAX)
		say(g->br, "game %lld: %d moves refused in a row; waiting for the server's next event",
		    (long long)g->id, g->refusals);
	sync_game(g);
}

static void dead_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	struct game *g = game_of_arg(arg);
	if (!g)
		return;
	if (!reply) {
		g->dead_sent = false;
		return;
	}
	if (!reply_ok(reply)) {
		const char *code = err_code(reply);
		if (code && strcmp(code, "bad_request") == 0 && strcmp(g->phase, "counting") == 0) {
			say(g->br, "game %lld: dead stones refused (%s); claiming all alive",
			    (long long)g->id, err_message(reply));
			json_t *none = json_array();
			send_dead(g, none);
			json_decref(none);
		}
	}
}

static void join_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	struct game *g = game_of_arg(arg);
	if (!g)
		return;
	g->join_out = false;
	if (!reply)
		return;
	if (reply_ok(reply)) {
		g->joined = true;
		long long late = json_integer_value(json_object_get(reply, "late_ms"));
		if (late > 0)
			say(g->br, "game %lld: joined %lld ms late", (long long)g->id, late);
		json_t *ck = json_object_get(reply, "clocks");
		if (json_is_object(ck)) {
			json_decref(g->clocks);
			g->clocks = json_incref(ck);
			g->clocks_at = uv_now(g->br->loop);
		}
		pump(g);
	} else {
		say(g->br, "game %lld: join refused: %s", (long long)g->id, err_message(reply));
	}
}

static void send_join(struct game *g)
{
	if (g->joined || g->join_out)
		return;
	g->join_out = send_req(g->br, json_pack("{s:s, s:I}", "cmd", "join", "game", g->id),
			       join_reply, reply_arg(g)) == 0;
}

static void join_timer_fired(uv_timer_t *t)
{
	send_join(t->data);
}

static void schedule_join(struct game *g)
{
	if (g->joined || g->join_out || g->start_at <= 0)
		return;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	double wall = (double)ts.tv_sec + ts.tv_nsec / 1e9;
	double wait_ms = (g->start_at - wall) * 1000.0;
	if (wait_ms <= 0) {
		send_join(g);
		return;
	}
	uv_timer_start(&g->join_timer, join_timer_fired, (uint64_t)wait_ms + 1, 0);
}

/* ---- the record ---- */

static void log_result(struct game *g, const char *result, const char *reason)
{
	const char *outcome = "";
	if (result && (result[0] == 'B' || result[0] == 'W') && result[1] == '+')
		outcome = result[0] == g->color ? ", won" : ", lost";
	say(g->br, "game %lld ended: %s (%s) as %s against %s%s", (long long)g->id,
	    result && *result ? result : "no result", reason && *reason ? reason : "?", g->color == 'B' ? "Black" : "White",
	    g->opponent, outcome);
}

static void announce(struct game *g)
{
	if (g->announced)
		return;
	g->announced = true;
	const char *sys = json_string_value(json_object_get(g->time, "system"));
	say(g->br, "game %lld started: %s as %s against %s, %dx%d, komi %g, handicap %d, time %s",
	    (long long)g->id, g->br->user, g->color == 'B' ? "Black" : "White", g->opponent, g->size,
	    g->size, g->komi, g->handicap, sys ? sys : "none");
}

/* Take the server's game object as the truth (game reply, game.state). */
static void apply_game(struct bridge *br, const json_t *o)
{
	json_int_t id = json_integer_value(json_object_get(o, "id"));
	const char *phase = json_string_value(json_object_get(o, "phase"));
	const char *black = json_string_value(json_object_get(o, "black"));
	const char *white = json_string_value(json_object_get(o, "white"));
	if (id <= 0 || !phase || !black || !white)
		return;
	struct game *g = find_game(br, id);
	if (strcmp(phase, "ended") == 0) {
		if (g) {
			log_result(g, json_string_value(json_object_get(o, "result")),
				   json_string_value(json_object_get(o, "reason")));
			free_game(g);
		}
		return;
	}
	if (strcmp(phase, "pending") == 0 || (!g && ended_lately(br, id)))
		return;
	if (!g && !(g = new_game(br, id)))
		return;
	g->sync_out = false;
	g->size = (int)json_integer_value(json_object_get(o, "size"));
	g->komi = json_number_value(json_object_get(o, "komi"));
	g->handicap = (int)json_integer_value(json_object_get(o, "handicap"));
	bool me_black = strcasecmp(black, br->user) == 0;
	g->color = me_black ? 'B' : 'W';
	snprintf(g->opponent, sizeof g->opponent, "%s", me_black ? white : black);
	json_t *t = json_object_get(o, "time");
	if (json_is_object(t)) {
		json_decref(g->time);
		g->time = json_incref(t);
	}
	snprintf(g->phase, sizeof g->phase, "%s", phase);
	const char *tm = json_string_value(json_object_get(o, "to_move"));
	g->to_move = tm ? tm[0] : 0;
	g->paused = json_is_true(json_object_get(o, "paused"));
	json_t *sa = json_object_get(o, "start_at");
	if (json_is_number(sa))
		g->start_at = json_number_value(sa);
	json_decref(g->clocks);
	g->clocks = json_incref(json_object_get(o, "clocks"));
	g->clocks_at = uv_now(br->loop);
	g->nmoves = 0;
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(o, "moves"), i, m) {
		const char *c = json_string_value(json_object_get(m, "color"));
		const char *v = json_string_value(json_object_get(m, "vertex"));
		if (!c || !v || push_move(&g->moves, &g->nmoves, &g->capmoves, c[0], v) < 0)
			break;
	}
	if (strcmp(phase, "playing") == 0 && g->nmoves >= 2 &&
	    strcasecmp(g->moves[g->nmoves - 1].vertex, "pass") == 0 &&
	    strcasecmp(g->moves[g->nmoves - 2].vertex, "pass") == 0)
		g->resume_mark = g->nmoves; /* two passes and still playing: play resumed */
	if (g->resume_mark > g->nmoves)
		g->resume_mark = 0;
	g->synced = true;
	announce(g);
	/* our move in flight: resend it only if the record still ends just before it */
	if (g->play_out && !g->play_sent) {
		if (strcmp(phase, "playing") == 0 && g->to_move == g->color &&
		    g->nmoves == g->play_number - 1) {
			say(br, "game %lld: resending move %d (%s)", (long long)id, g->play_number,
			    g->play_vertex);
			send_play(g);
		} else {
			g->play_out = false;
		}
	}
	if (strcmp(phase, "counting") != 0) {
		g->dead_sent = false;
		g->dead_out = false;
	}
	if (!g->joined) {
		if (g->start_at > 0)
			schedule_join(g);
		else if (!json_is_null(json_object_get(o, "tournament")) &&
			 json_object_get(o, "tournament"))
			send_join(g);
	}
	pump(g);
}

static void game_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	struct game *g = game_of_arg(arg);
	if (g)
		g->sync_out = false;
	if (!the_bridge || !reply)
		return; /* the next on_ready resyncs */
	if (!reply_ok(reply)) {
		if (g)
			say(g->br, "game %lld: cannot read the game: %s", (long long)g->id, err_message(reply));
		return;
	}
	apply_game(the_bridge, json_object_get(reply, "game"));
}

/* Ask the server for the game's record (it replaces ours). */
static void sync_game(struct game *g)
{
	if (g->sync_out)
		return;
	g->sync_out = send_req(g->br, json_pack("{s:s, s:I}", "cmd", "game", "game", g->id),
			       game_reply, reply_arg(g)) == 0;
}

/* ---- challenges ---- */

static bool policy_allows(const struct bridge *br, const char *from, bool rated)
{
	switch (br->accept) {
	case ACCEPT_ANY:
		return true;
	case ACCEPT_RATED:
		return rated;
	case ACCEPT_FROM:
		for (int k = 0; k < br->naccept_names; k++)
			if (strcasecmp(br->accept_names[k], from) == 0)
				return true;
		return false;
	}
	return false;
}

static void accept_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	if (reply && !reply_ok(reply) && the_bridge)
		say(the_bridge, "challenge %lld: accept refused: %s", (long long)(intptr_t)arg,
		    err_message(reply));
}

static void ignore_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	(void)reply;
	(void)arg;
}

static void consider_challenge(struct bridge *br, json_int_t id, const char *from, bool rated,
			       int size)
{
	const char *cmd = "accept", *why = NULL;
	if (!policy_allows(br, from, rated))
		why = "not allowed by --accept";
	else if (br->ngames >= br->max_games)
		why = "--max-games reached";
	if (why)
		cmd = "decline";
	say(br, "challenge %lld from %s (%dx%d, %s): %s%s%s", (long long)id, from, size, size,
	    rated ? "rated" : "free", why ? "declined, " : "accepted", why ? why : "", "");
	send_req(br, json_pack("{s:s, s:I}", "cmd", cmd, "game", id),
		 why ? ignore_reply : accept_reply, (void *)(intptr_t)id);
}

/* ---- events ---- */

/* A recorded move, from a game.move event or our play's reply (`m` has number, color,
 * vertex, clocks, forfeited?). */
static void on_move(struct game *g, const json_t *m)
{
	int number = (int)json_integer_value(json_object_get(m, "number"));
	const char *c = json_string_value(json_object_get(m, "color"));
	const char *v = json_string_value(json_object_get(m, "vertex"));
	if (!c || !v || number < 1)
		return;
	if (!g->synced || number > g->nmoves + 1) {
		sync_game(g); /* missed something */
		return;
	}
	if (number <= g->nmoves)
		return; /* known */
	push_move(&g->moves, &g->nmoves, &g->capmoves, c[0], v);
	g->refusals = 0;
	const char *forfeited = json_string_value(json_object_get(m, "forfeited"));
	if (forfeited)
		say(g->br, "game %lld: move %d by %s forfeited (%s)", (long long)g->id, number, c,
		    forfeited);
	g->to_move = other(c[0]);
	json_t *ck = json_object_get(m, "clocks");
	if (json_is_object(ck)) {
		json_decref(g->clocks);
		g->clocks = json_incref(ck);
		g->clocks_at = uv_now(g->br->loop);
	}
	if (c[0] == g->color && g->play_out && number == g->play_number)
		g->play_out = false;
	pump(g);
}

static void on_event(struct session *s, json_t *ev, void *ctx)
{
	(void)s;
	struct bridge *br = ctx;
	const char *name = json_string_value(json_object_get(ev, "event"));
	if (!name || br->stopping)
		return;
	json_t *gv = json_object_get(ev, "game");
	if (strcmp(name, "game.state") == 0) {
		apply_game(br, gv);
		return;
	}
	if (strcmp(name, "challenge.pending") == 0) {
		/* a pending challenge lists the challenger as Black */
		const char *black = json_string_value(json_object_get(gv, "black"));
		const char *white = json_string_value(json_object_get(gv, "white"));
		if (black && white && strcasecmp(white, br->user) == 0)
			consider_challenge(br, json_integer_value(json_object_get(gv, "id")), black,
					   json_is_true(json_object_get(gv, "rated")),
					   (int)json_integer_value(json_object_get(gv, "size")));
		return;
	}
	json_int_t id = json_integer_value(gv);
	if (id <= 0)
		return;
	if (strcmp(name, "challenge") == 0) {
		json_t *st = json_object_get(ev, "settings");
		const char *from = json_string_value(json_object_get(ev, "from"));
		consider_challenge(br, id, from ? from : "?", json_is_true(json_object_get(st, "rated")),
				   (int)json_integer_value(json_object_get(st, "size")));
		return;
	}
	struct game *g = find_game(br, id);
	if (strcmp(name, "game.start") == 0) {
		if (!g && ended_lately(br, id))
			return;
		if (!g && !(g = new_game(br, id)))
			return;
		json_t *sa = json_object_get(ev, "start_at");
		if (json_is_number(sa))
			g->start_at = json_number_value(sa);
		schedule_join(g);
		sync_game(g);
		return;
	}
	if (!g)
		return;
	if (strcmp(name, "game.move") == 0) {
		on_move(g, ev);
	} else if (strcmp(name, "game.counting") == 0) {
		strcpy(g->phase, "counting");
		g->to_move = 0;
		g->countings++;
		g->dead_sent = g->dead_out = false;
		json_decref(g->their_dead);
		g->their_dead = NULL;
		pump(g);
	} else if (strcmp(name, "game.dead") == 0) {
		const char *c = json_string_value(json_object_get(ev, "color"));
		if (c && c[0] != g->color) {
			json_decref(g->their_dead);
			g->their_dead = json_incref(json_object_get(ev, "stones"));
			pump(g);
		}
	} else if (strcmp(name, "game.resume") == 0) {
		if (json_object_get(ev, "by")) {
			g->paused = false;
		}
		const char *tm = json_string_value(json_object_get(ev, "to_move"));
		if (strcmp(g->phase, "counting") == 0)
			say(br, "game %lld: dead stones disputed, play resumes", (long long)id);
		strcpy(g->phase, "playing");
		g->to_move = tm ? tm[0] : 0;
		g->resume_mark = g->nmoves;
		g->refusals = 0;
		g->dead_sent = g->dead_out = false;
		json_t *ck = json_object_get(ev, "clocks");
		if (json_is_object(ck)) {
			json_decref(g->clocks);
			g->clocks = json_incref(ck);
			g->clocks_at = uv_now(br->loop);
		}
		sync_game(g); /* the clocks and the turn as the server holds them */
	} else if (strcmp(name, "game.paused") == 0) {
		g->paused = true;
		say(br, "game %lld: paused by %s", (long long)id,
		    json_string_value(json_object_get(ev, "by")) ? json_string_value(json_object_get(ev, "by")) : "?");
	} else if (strcmp(name, "game.begin") == 0) {
		g->refusals = 0;
		sync_game(g);
	} else if (strcmp(name, "game.warning") == 0) {
		const char *c = json_string_value(json_object_get(ev, "color"));
		const char *r = json_string_value(json_object_get(ev, "reason"));
		say(br, "game %lld: warning to %s: %s", (long long)id, c ? c : "?", r ? r : "?");
	} else if (strcmp(name, "game.end") == 0) {
		if (json_is_true(json_object_get(ev, "override")))
			return;
		log_result(g, json_string_value(json_object_get(ev, "result")),
			   json_string_value(json_object_get(ev, "reason")));
		free_game(g);
	}
}

static void on_ready(struct session *s, bool first, void *ctx)
{
	(void)s;
	struct bridge *br = ctx;
	if (first) {
		say(br, "logged in; engine %s; accepting %s challenges, up to %d games at once",
		    br->engine_name, br->accept == ACCEPT_ANY ? "all" :
		    br->accept == ACCEPT_RATED ? "rated" : "listed players'", br->max_games);
		return;
	}
	say(br, "reconnected; resyncing %d game%s", br->ngames, br->ngames == 1 ? "" : "s");
	for (struct game *g = br->games; g; g = g->next) {
		g->sync_out = false; /* its reply, if any, was answered NULL */
		g->join_out = false;
		g->refusals = 0;
		sync_game(g);
	}
}

static void on_error(struct session *s, const char *error, bool final, void *ctx)
{
	(void)s;
	struct bridge *br = ctx;
	if (br->stopping)
		return;
	if (final) {
		say(br, "%s; giving up", error);
		br->status = CMD_EXIT_FAILURE;
		br->stopping = true;
		uv_stop(br->loop);
		return;
	}
	say(br, "connection: %s; reconnecting", error);
}

/* ---- the engine probe: is it there, what is it, does it know kgs-time_settings ---- */

struct probe {
	struct bridge *br;
	int answers;
	bool failed, timed_out;
};

static void probe_timeout(uv_timer_t *t)
{
	struct probe *p = t->data;
	p->timed_out = true;
}

static void probe_reply(struct engine *e, bool ok, const char *text, void *arg)
{
	struct probe *p = arg;
	(void)e;
	if (!text) {
		p->failed = true;
		return;
	}
	p->answers++;
	if (!ok)
		return;
	if (p->answers == 1)
		snprintf(p->br->engine_name, sizeof p->br->engine_name, "%s", text);
	else if (p->answers == 2) {
		size_t n = strlen(p->br->engine_name);
		snprintf(p->br->engine_name + n, sizeof p->br->engine_name - n, " %s", text);
	} else {
		for (const char *l = text; l && *l;) {
			if (strncmp(l, "kgs-time_settings", 17) == 0 && (l[17] == '\n' || l[17] == '\0'))
				p->br->kgs_time = true;
			l = strchr(l, '\n');
			if (l)
				l++;
		}
	}
}

static int probe_engine(struct bridge *br)
{
	char err[256];
	struct probe p = {.br = br};
	struct engine_options eo = {.argv = br->engine_argv, .inherit_stderr = br->engine_stderr};
	struct engine *e = engine_spawn(br->loop, &eo, err, sizeof err);
	if (!e) {
		fprintf(stderr, "tengen: cannot start the engine: %s\n", err);
		return -1;
	}
	uv_timer_t timer;
	uv_timer_init(br->loop, &timer);
	timer.data = &p;
	uv_timer_start(&timer, probe_timeout, GTP_PROBE_TIMEOUT_MS, 0);
	engine_send(e, probe_reply, &p, "name");
	engine_send(e, probe_reply, &p, "version");
	engine_send(e, probe_reply, &p, "list_commands");
	while (p.answers < 3 && !p.failed && !p.timed_out && uv_run(br->loop, UV_RUN_ONCE))
		;
	engine_close(e);
	uv_close((uv_handle_t *)&timer, NULL);
	uv_run(br->loop, UV_RUN_NOWAIT); /* the timer's close */
	if (p.answers < 3) {
		fprintf(stderr, "tengen: the engine '%s' does not answer GTP%s\n", br->engine_argv[0],
			p.timed_out ? " (no answer to 'name', 'version', 'list_commands' in time)" : "");
		return -1;
	}
	return 0;
}

/* ---- signals, options, main ---- */

static void on_signal(uv_signal_t *h, int signum)
{
	struct bridge *br = h->data;
	say(br, "signal %d: stopping (%d game%s left unfinished)", signum, br->ngames,
	    br->ngames == 1 ? "" : "s");
	br->stopping = true;
	uv_stop(br->loop);
}

static void usage(FILE *f)
{
	fputs("usage: tengen gtp [--server HOST:PORT] [--user NAME] [--password-file FILE]\n"
	      "                  [--accept any|rated|from=NAME,...] [--max-games N]\n"
	      "                  [--engine-stderr] -- ENGINE [ARGS...]\n"
	      "\n"
	      "Play on a tengen server through a GTP engine, e.g.\n"
	      "  tengen gtp --user bot1 -- /usr/games/gnugo --mode gtp --level 5\n"
	      "The password: --password-file (first line), else $TENGEN_PASSWORD.\n"
	      "One engine process per game; challenges are accepted by the --accept policy while\n"
	      "fewer than --max-games games are live (default 4); tournament games are joined at\n"
	      "their start. Runs until SIGINT or SIGTERM.\n", f);
}

static void close_walk(uv_handle_t *h, void *arg)
{
	(void)arg;
	if (!uv_is_closing(h))
		uv_close(h, NULL);
}

static int parse_accept(struct bridge *br, char *spec)
{
	if (strcmp(spec, "any") == 0) {
		br->accept = ACCEPT_ANY;
		return 0;
	}
	if (strcmp(spec, "rated") == 0) {
		br->accept = ACCEPT_RATED;
		return 0;
	}
	if (strncmp(spec, "from=", 5) == 0) {
		br->accept = ACCEPT_FROM;
		char *save = NULL;
		for (char *t = strtok_r(spec + 5, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (br->naccept_names >= GTP_ACCEPT_NAMES_MAX)
				return -1;
			br->accept_names[br->naccept_names++] = t;
		}
		return br->naccept_names > 0 ? 0 : -1;
	}
	return -1;
}

int cmd_gtp(int argc, char **argv)
{
	struct bridge br = {.max_games = GTP_MAX_GAMES_DEFAULT, .accept = ACCEPT_ANY,
			    .status = CMD_EXIT_OK};
	const char *server = NULL, *password_file = NULL;
	int i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return CMD_EXIT_OK;
		}
		if (strcmp(a, "--json") == 0)
			continue; /* a global option of tengen's; nothing to print here */
		if (strcmp(a, "--engine-stderr") == 0) {
			br.engine_stderr = true;
			continue;
		}
		const char *opts[] = {"--server", "--user", "--password-file", "--accept", "--max-games"};
		int which = -1;
		const char *val = NULL;
		for (int k = 0; k < 5; k++) {
			size_t n = strlen(opts[k]);
			if (strcmp(a, opts[k]) == 0) {
				which = k;
				if (i + 1 >= argc) {
					fprintf(stderr, "tengen gtp: option %s needs a value\n", a);
					return CMD_EXIT_USAGE;
				}
				val = argv[++i];
			} else if (strncmp(a, opts[k], n) == 0 && a[n] == '=') {
				which = k;
				val = a + n + 1;
			}
			if (which >= 0)
				break;
		}
		if (which < 0) {
			fprintf(stderr, "tengen gtp: unknown option '%s' (the engine command goes after --)\n", a);
			usage(stderr);
			return CMD_EXIT_USAGE;
		}
		char *end;
		long n;
		switch (which) {
		case 0: server = val; break;
		case 1: br.user = val; break;
		case 2: password_file = val; break;
		case 3:
			if (parse_accept(&br, (char *)val) < 0) {
				fprintf(stderr, "tengen gtp: --accept must be any, rated or from=NAME,... (at most %d names)\n",
					GTP_ACCEPT_NAMES_MAX);
				return CMD_EXIT_USAGE;
			}
			break;
		case 4:
			errno = 0;
			n = strtol(val, &end, 10);
			if (errno || *end || n < 1 || n > GTP_MAX_GAMES_LIMIT) {
				fprintf(stderr, "tengen gtp: --max-games must be 1 to %d\n", GTP_MAX_GAMES_LIMIT);
				return CMD_EXIT_USAGE;
			}
			br.max_games = (int)n;
			break;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "tengen gtp: no engine: give its command after --\n");
		usage(stderr);
		return CMD_EXIT_USAGE;
	}
	br.engine_argv = argv + i;
	if (!br.user) {
		fprintf(stderr, "tengen gtp: --user NAME is required\n");
		return CMD_EXIT_USAGE;
	}
	char *password = session_password(password_file);
	if (!password) {
		fprintf(stderr, "tengen gtp: no password: give --password-file FILE or set TENGEN_PASSWORD\n");
		return CMD_EXIT_FAILURE;
	}
	signal(SIGPIPE, SIG_IGN); /* a dead engine's pipe is an error, not a signal */
	uv_loop_t loop;
	uv_loop_init(&loop);
	br.loop = &loop;
	the_bridge = &br;
	if (probe_engine(&br) < 0) {
		br.status = CMD_EXIT_FAILURE;
		goto out;
	}
	uv_signal_init(&loop, &br.sigint);
	uv_signal_init(&loop, &br.sigterm);
	br.sigint.data = br.sigterm.data = &br;
	uv_signal_start(&br.sigint, on_signal, SIGINT);
	uv_signal_start(&br.sigterm, on_signal, SIGTERM);
	struct session_options so = {.server = server, .user = br.user, .password = password,
				     .reconnect = true, .on_ready = on_ready, .on_event = on_event,
				     .on_error = on_error, .ctx = &br};
	br.s = session_open(&loop, &so);
	if (!br.s) {
		br.status = CMD_EXIT_FAILURE;
		goto out;
	}
	uv_run(&loop, UV_RUN_DEFAULT);
	br.stopping = true;
	while (br.games)
		free_game(br.games);
	session_close(br.s);
	uv_signal_stop(&br.sigint);
	uv_signal_stop(&br.sigterm);
	uv_close((uv_handle_t *)&br.sigint, NULL);
	uv_close((uv_handle_t *)&br.sigterm, NULL);
	/* let the engines quit (engine_close kills them after ENGINE_QUIT_MS) */
	uv_run(&loop, UV_RUN_DEFAULT);
out:
	uv_walk(&loop, close_walk, NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	the_bridge = NULL;
	free(password);
	return br.status;
}
