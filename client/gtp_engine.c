/* client/gtp_engine: a game's GTP engine, for the bridge: its setup, the record replayed to
 * it, genmove on our turn and its dead stones when counting. See gtp.h. */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "board.h"
#include "ruleset.h"
#include "score.h"
#include "vertex.h"
#include "gtp.h"

static bool same_vertex(const char *a, const char *b)
{
	return strcasecmp(a, b) == 0;
}

/* ---- the engine ---- */

static void engine_exited(struct engine *e, int64_t status, int term_signal, void *ctx)
{
	struct game *g = ctx;
	if (e != g->eng)
		return;
	if (term_signal)
		gtp_say(g->br, "game %lld: the engine died (signal %d)", (long long)g->id,
			term_signal);
	else
		gtp_say(g->br, "game %lld: the engine exited (status %lld)", (long long)g->id,
			(long long)status);
	engine_close(g->eng);
	g->eng = NULL;
	g->genmove_out = false;
	/* The bridge stopping (a signal, session.replaced): the engine went with it; the game is
	 * left as it is, neither restarted nor resigned (another bridge may be playing it). */
	if (g->br->stopping) {
		g->eng_failed = true;
		return;
	}
	/* A crash (a signal, an OOM kill) need not cost the game: a new engine is set up from the
	 * record and asked again, the time it takes on the clock; an engine that keeps exiting
	 * resigns. */
	if (g->eng_restarts < GTP_ENGINE_RESTARTS_MAX && !g->resign_sent) {
		g->eng_restarts++;
		gtp_say(g->br, "game %lld: starting the engine again from the record (%d of %d)",
			(long long)g->id, g->eng_restarts, GTP_ENGINE_RESTARTS_MAX);
		gtp_pump(g);
		return;
	}
	g->eng_failed = true;
	gtp_resign(g, "the engine is gone");
}

static void pump_backlog(struct game *g);

static void setup_reply(struct engine *e, bool ok, const char *text, void *arg)
{
	struct game *g = arg;
	if (e == g->eng && text && !ok)
		gtp_say(g->br, "game %lld: the engine refused a setup command: %s", (long long)g->id, text);
	if (e == g->eng && text)
		pump_backlog(g);
}

/* A command the game cannot go on without (boardsize, clear_board, the handicap stones, a
 * recorded move): refused, the engine's board is not the game's, so the game is resigned at
 * once rather than played on with moves the engine refuses. */
static void setup_fatal_reply(struct engine *e, bool ok, const char *text, void *arg)
{
	struct game *g = arg;
	if (e != g->eng || !text || ok)
		return;
	gtp_say(g->br, "game %lld: the engine refused a setup command: %s", (long long)g->id, text);
	g->eng_failed = true;
	gtp_resign(g, "the engine cannot set up the game");
}

/* A long record (a resync, a reconnect) does not fit in the engine's queue at once: each
 * answer makes room for the rest (and then the genmove). */
static void pump_backlog(struct game *g)
{
	if (!g->eng_backlog)
		return;
	g->eng_backlog = false;
	gtp_pump(g);
}

static void replay_reply(struct engine *e, bool ok, const char *text, void *arg)
{
	struct game *g = arg;
	if (e != g->eng || !text)
		return;
	if (ok) {
		pump_backlog(g);
		return;
	}
	gtp_say(g->br, "game %lld: the engine refused a recorded move: %s", (long long)g->id, text);
	g->eng_failed = true;
	gtp_resign(g, "the engine refuses the game's moves");
}

/* Fischer (docs/protocol.md "Time control object"): with kata-time_settings the engine is
 * told the system itself (fischer MAIN INC, or fischer-capped MAIN INC MAX -1 with a cap).
 * GTP's time_settings has no increment: the engine is told Canadian overtime of one stone in
 * INC seconds after the main time (time_settings MAIN INC 1), which is what a Fischer clock
 * guarantees a move once the main time is low, and time_left reports the main time as the
 * clock holds it, increments included. */
static void engine_fischer_settings(struct game *g, long main_s)
{
	double inc = json_number_value(json_object_get(g->time, "increment_s"));
	const json_t *max = json_object_get(g->time, "max_s");
	if (g->br->caps.kata_time && json_is_number(max))
		engine_send(g->eng, setup_reply, g, "kata-time_settings fischer-capped %ld %g %g -1",
			    main_s, inc, json_number_value(max));
	else if (g->br->caps.kata_time)
		engine_send(g->eng, setup_reply, g, "kata-time_settings fischer %ld %g", main_s, inc);
	else
		engine_send(g->eng, setup_reply, g, "time_settings %ld %ld 1", main_s,
			    inc >= 1 ? (long)inc : 1L);
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
	else if (strcmp(sys, "byoyomi") == 0 && g->br->caps.kgs_time)
		engine_send(g->eng, setup_reply, g, "kgs-time_settings byoyomi %ld %ld %ld", main_s,
			    period_s, periods);
	else if (strcmp(sys, "byoyomi") == 0)
		engine_send(g->eng, setup_reply, g, "time_settings %ld %ld 1", main_s, period_s);
	else if (strcmp(sys, "canadian") == 0)
		engine_send(g->eng, setup_reply, g, "time_settings %ld %ld %ld", main_s, period_s,
			    stones);
	else if (strcmp(sys, "fischer") == 0)
		engine_fischer_settings(g, main_s);
	else /* absolute */
		engine_send(g->eng, setup_reply, g, "time_settings %ld 0 0", main_s);
}

/* The komi the engine plays for: the game's komi plus the handicap compensation, as the server
 * counts and writes KM (the ruleset's effective_komi, docs/rules.md Art. 11); seed 000: the
 * komi as the server gives it (0 until the predictions are shown, then minus the bar), so
 * that the engine plays for the real target. */
static double engine_komi(const struct game *g)
{
	return g->prediction ? g->komi : ruleset_default()->effective_komi(g->komi, g->handicap);
}

/* The game's setup differs from the one the engine was given: a director's pair edit
 * (tournament.pair_edit: colours, handicap and komi) before the game began, re-sent with
 * game.start. Seed 000's komi is left to its own check in gtp_pump. */
static bool setup_changed(const struct game *g)
{
	return g->eng_size != g->size || g->eng_handicap != g->handicap ||
	       g->eng_free != g->free_handicap || (!g->prediction && g->eng_komi != engine_komi(g));
}

/* A fresh engine for g, set up from the game; the record is replayed by gtp_pump(). */
static int start_engine(struct game *g)
{
	struct bridge *br = g->br;
	engine_close(g->eng);
	g->eng = NULL;
	g->eng_known = 0;
	g->genmove_out = false;
	if (g->eng_failed)
		return -1;
	char err[256] = "out of memory";
	char **argv = gtp_argv_for_game(br->engine_argv, g->id); /* {game}: this game's id */
	struct engine_options eo = {.argv = argv, .inherit_stderr = br->engine_stderr,
				    .on_exit = engine_exited, .ctx = g};
	g->eng = argv ? engine_spawn(br->loop, &eo, err, sizeof err) : NULL;
	gtp_argv_free(argv); /* uv_spawn has exec'd (or failed) by now */
	if (!g->eng) {
		gtp_say(br, "game %lld: cannot start the engine: %s", (long long)g->id, err);
		g->eng_failed = true;
		gtp_resign(g, "no engine");
		return -1;
	}
	gtp_log_attach(g);
	engine_send(g->eng, setup_fatal_reply, g, "boardsize %d", g->size);
	engine_send(g->eng, setup_fatal_reply, g, "clear_board");
	const struct ruleset *rs = ruleset_default();
	g->eng_komi = engine_komi(g);
	g->eng_size = g->size;
	g->eng_handicap = g->handicap;
	g->eng_free = g->free_handicap;
	engine_send(g->eng, setup_reply, g, "komi %g", g->eng_komi);
	if (g->prediction)
		gtp_say(br, "game %lld: engine set up with komi %g", (long long)g->id, g->eng_komi);
	g->eng_hplaced = false; /* free stones: the pump sends them (or asks for them) */
	if (!g->free_handicap && g->handicap >= 2 && g->handicap <= GTP_HANDICAP_MAX) {
		/* the server places them where the ruleset's opening says (GTP's fixed points);
		 * a handicap of 1 places none: Black simply moves first */
		int pts[GTP_HANDICAP_MAX], stride = g->size + 2;
		int n = rs->opening(g->size, g->handicap, pts, stride);
		char line[256] = "set_free_handicap";
		size_t len = strlen(line);
		for (int k = 0; k < n; k++) {
			char v[VERTEX_MAX_LEN];
			vertex_format_xy(g->size, pts[k] % stride - 1, pts[k] / stride - 1, v);
			len += (size_t)snprintf(line + len, sizeof line - len, " %s", v);
		}
		if (n > 0)
			engine_send(g->eng, setup_fatal_reply, g, "%s", line);
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
		if (g->br->caps.kgs_time) {
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

static void genmove_reply(struct engine *e, bool ok, const char *text, void *arg)
{
	struct game *g = arg;
	if (e != g->eng)
		return;
	g->genmove_out = false;
	if (!text || g->eng_failed || g->resign_sent)
		return; /* dead (engine_exited resigns), or resigned: no move from it */
	if (!ok) {
		gtp_say(g->br, "game %lld: genmove failed: %s", (long long)g->id, text);
		gtp_resign(g, "the engine could not move");
		return;
	}
	if (strcasecmp(text, "resign") == 0) {
		gtp_resign(g, "the engine resigns");
		return;
	}
	int x, y;
	if (strlen(text) >= GTP_VERTEX_MAX || vertex_parse_xy(g->size, text, &x, &y) < 0) {
		gtp_say(g->br, "game %lld: the engine answered genmove with '%.40s', not a vertex",
			(long long)g->id, text);
		gtp_resign(g, "the engine's move is not a vertex");
		return;
	}
	char v[GTP_VERTEX_MAX];
	snprintf(v, sizeof v, "%s", text);
	/* The engine has played it on its own board. */
	if (gtp_push_move(&g->eng_moves, &g->eng_known, &g->eng_cap, g->gen_color, v) < 0) {
		start_engine(g);
		gtp_pump(g);
		return;
	}
	bool live = strcmp(g->phase, "playing") == 0 || strcmp(g->phase, "opening") == 0;
	if (!live || g->nmoves != g->genmove_number - 1 || g->to_move != g->gen_color) {
		/* the game moved on meanwhile: this engine's board holds a move that is not played */
		gtp_say(g->br, "game %lld: stale genmove (%s); restarting the engine", (long long)g->id, v);
		start_engine(g);
		gtp_pump(g);
		return;
	}
	g->play_out = true;
	g->play_number = g->genmove_number;
	snprintf(g->play_vertex, sizeof g->play_vertex, "%s", v);
	gtp_send_play(g);
}

static void final_status_reply(struct engine *e, bool ok, const char *text, void *arg)
{
	struct game *g = arg;
	if (e != g->eng)
		return;
	g->dead_out = false;
	if (!text || g->eng_failed || g->resign_sent)
		return;
	if (strcmp(g->phase, "counting") != 0 || g->dead_sent)
		return;
	static char v[GTP_DEAD_MAX][8];
	int n = ok ? engine_parse_vertices(text, v, GTP_DEAD_MAX) : 0;
	if (n < 0) {
		gtp_say(g->br, "game %lld: cannot read the engine's dead stones: %.60s", (long long)g->id, text);
		n = 0;
	}
	json_t *stones = json_array();
	for (int k = 0; k < n; k++)
		json_array_append_new(stones, json_string(v[k]));
	g->dead_sent = true;
	gtp_send_dead(g, stones);
	json_decref(stones);
}

void gtp_genmove(struct game *g, char c)
{
	g->gen_color = c;
	g->genmove_number = g->nmoves + 1;
	/* After a disputed count (play resumed), an engine that has it captures the stones it
	 * holds dead and the opponent alive, so the next count can agree (KGS's rule). */
	bool cleanup = g->countings > 0 && g->br->caps.genmove_cleanup;
	g->genmove_out = engine_send(g->eng, genmove_reply, g, "%s %c",
				     cleanup ? "kgs-genmove_cleanup" : "genmove", c) == 0;
	g->eng_backlog = !g->genmove_out;
}

int gtp_engine_send(struct game *g, engine_reply_cb cb, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	return g->eng ? engine_send(g->eng, cb, g, "%s", line) : -1;
}

/* The engine's free handicap stones (place_free_handicap, else fixed_handicap: GTP 2
 * §6.3.3, §6.3.1): sent to the server as they are. A refusal resigns the game. */
static void place_reply(struct engine *e, bool ok, const char *text, void *arg)
{
	struct game *g = arg;
	if (e != g->eng)
		return;
	if (!text) { /* the engine died before answering: a new one is asked (engine_exited) */
		g->place_out = false;
		return;
	}
	if (!ok) {
		g->place_out = false;
		gtp_say(g->br, "game %lld: the engine cannot place %d handicap stones: %s",
			(long long)g->id, g->handicap, text);
		g->eng_failed = true;
		gtp_resign(g, "the engine cannot place the handicap");
		return;
	}
	g->eng_hplaced = true; /* on its board now */
	gtp_send_handicap(g, text);
}

/* A free handicap game (before the record is replayed): the placement due is ours (ask the
 * engine), or the opponent's (wait); placed stones the engine lacks are set with
 * set_free_handicap (GTP 2 §6.3.3). Returns true when nothing more may be done now. */
static bool free_handicap_pump(struct game *g)
{
	if (g->nhstones == 0) { /* the placement is due: no move before it */
		if (strcmp(g->phase, "playing") != 0 || g->color != 'B' || g->to_move != 'B' ||
		    g->place_out)
			return true;
		if (g->eng_hplaced) { /* an earlier attempt's stones, never taken: a fresh board */
			start_engine(g);
			if (!g->eng)
				return true;
		}
		g->place_out = engine_send(g->eng, place_reply, g, "%s %d",
					   g->br->caps.place_free_handicap ? "place_free_handicap" :
					   "fixed_handicap", g->handicap) == 0;
		return true;
	}
	if (!g->eng_hplaced) {
		char line[256] = "set_free_handicap";
		size_t len = strlen(line);
		for (int k = 0; k < g->nhstones && len < sizeof line; k++)
			len += (size_t)snprintf(line + len, sizeof line - len, " %s", g->hstones[k]);
		if (engine_send(g->eng, setup_fatal_reply, g, "%s", line) < 0) {
			g->eng_backlog = true;
			return true;
		}
		g->eng_hplaced = true;
	}
	return false;
}

/* Bring the engine level with the record, then ask it for what the game needs next. */
void gtp_pump(struct game *g)
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
		gtp_say(br, "game %lld: the engine is ahead of the record; restarting it", (long long)g->id);
		start_engine(g);
		if (!g->eng)
			return;
	}
	for (int k = 0; k < g->nmoves && k < g->eng_known; k++)
		if (g->eng_moves[k].color != g->moves[k].color ||
		    !same_vertex(g->eng_moves[k].vertex, g->moves[k].vertex)) {
			gtp_say(br, "game %lld: move %d is %s %s, not the engine's %s; restarting it",
				(long long)g->id, k + 1, g->moves[k].color == 'B' ? "B" : "W",
				g->moves[k].vertex, g->eng_moves[k].vertex);
			start_engine(g);
			if (!g->eng)
				return;
			break;
		}
	if (g->genmove_out || g->predict_out)
		return; /* genmove_reply (or the prediction's reply) decides */
	if (g->prediction && g->eng_komi != g->komi) {
		start_engine(g); /* the bar is known now: komi minus the bar */
		if (!g->eng)
			return;
	}
	if (setup_changed(g)) {
		gtp_say(br, "game %lld: set up again (%dx%d, komi played for %g, handicap %d): "
			"restarting the engine",
			(long long)g->id, g->size, g->size, engine_komi(g), g->handicap);
		start_engine(g);
		if (!g->eng)
			return;
	}
	if (g->free_handicap && free_handicap_pump(g))
		return;
	while (g->eng_known < g->nmoves) {
		const struct move *m = &g->moves[g->eng_known];
		if (engine_send(g->eng, replay_reply, g, "play %c %s", m->color, m->vertex) < 0) {
			g->eng_backlog = true; /* the queue is full: the answers pump again */
			return;
		}
		gtp_push_move(&g->eng_moves, &g->eng_known, &g->eng_cap, m->color, m->vertex);
	}
	if (g->paused || (g->prediction && gtp_predict_pump(g)))
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
		gtp_genmove(g, g->color);
		return;
	}
	if (strcmp(g->phase, "counting") == 0 && !g->dead_sent && !g->dead_out) {
		if (g->countings > GTP_AGREE_AFTER_COUNTINGS && g->their_dead) {
			gtp_say(br, "game %lld: counting phase %d: agreeing with the opponent's dead stones",
				(long long)g->id, g->countings);
			g->dead_sent = true;
			gtp_send_dead(g, g->their_dead);
			return;
		}
		g->dead_out = engine_send(g->eng, final_status_reply, g, "final_status_list dead") == 0;
		g->eng_backlog = !g->dead_out;
	}
}
