/* client/gtp_play: a game on the server, for the bridge: our requests (play, dead, resign,
 * join) and their replies, and the record read back from the server. See gtp.h. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "gtp.h"

/* Session reply callbacks get the game's id as their arg, never a pointer: the game may have
 * ended and been freed before the reply comes. */
static void *reply_arg(const struct game *g)
{
	return (void *)(intptr_t)g->id;
}

static struct game *game_of_arg(void *arg)
{
	return gtp_bridge ? gtp_find_game(gtp_bridge, (json_int_t)(intptr_t)arg) : NULL;
}

static char other(char c)
{
	return c == 'B' ? 'W' : 'B';
}

/* ---- requests to the server ---- */

int gtp_send_req(struct bridge *br, json_t *req, session_reply_cb cb, void *arg)
{
	int rc = session_request(br->s, req, cb, arg);
	json_decref(req);
	return rc;
}

static const char *err_code(const json_t *reply)
{
	return json_string_value(json_object_get(json_object_get(reply, "error"), "code"));
}

const char *gtp_err_message(const json_t *reply)
{
	const char *m = json_string_value(json_object_get(json_object_get(reply, "error"), "message"));
	return m ? m : "?";
}

bool gtp_reply_ok(const json_t *reply)
{
	return reply && json_is_true(json_object_get(reply, "ok"));
}

static void resign_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	struct game *g = game_of_arg(arg);
	if (g && !reply)
		g->resign_sent = false; /* resent after the resync */
}

void gtp_resign(struct game *g, const char *why)
{
	if (g->resign_sent)
		return;
	gtp_say(g->br, "game %lld: resigning (%s)", (long long)g->id, why);
	g->resign_sent = true;
	if (gtp_send_req(g->br, json_pack("{s:s, s:I}", "cmd", "resign", "game", g->id),
			 resign_reply, reply_arg(g)) < 0)
		g->resign_sent = false;
}

static void play_reply(struct session *s, json_t *reply, void *arg);
static void dead_reply(struct session *s, json_t *reply, void *arg);

void gtp_send_play(struct game *g)
{
	json_t *req = json_pack("{s:s, s:I, s:s, s:i}", "cmd", "play", "game", g->id, "vertex",
				g->play_vertex, "number", g->play_number);
	g->play_sent = gtp_send_req(g->br, req, play_reply, reply_arg(g)) == 0;
}

void gtp_send_dead(struct game *g, json_t *stones)
{
	json_t *req = json_pack("{s:s, s:I, s:O}", "cmd", "dead", "game", g->id, "stones", stones);
	if (gtp_send_req(g->br, req, dead_reply, reply_arg(g)) < 0)
		g->dead_sent = false;
}

static void handicap_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	struct game *g = game_of_arg(arg);
	if (!g)
		return;
	g->place_out = false;
	if (!reply)
		return; /* the resync asks again if the placement is still due (a fresh engine) */
	if (gtp_reply_ok(reply)) {
		gtp_set_hstones(g, json_object_get(reply, "stones"));
		g->to_move = 'W'; /* Art. 2: White moves next (before the game.handicap event) */
		gtp_pump(g);
		return;
	}
	gtp_say(g->br, "game %lld: handicap stones refused: %s", (long long)g->id,
		gtp_err_message(reply));
	g->eng_failed = true;
	gtp_resign(g, "the engine's handicap stones were refused");
}

void gtp_send_handicap(struct game *g, const char *text)
{
	json_t *a = json_array();
	char buf[GTP_HANDICAP_MAX * GTP_VERTEX_MAX + 64], *save = NULL;
	snprintf(buf, sizeof buf, "%s", text);
	for (char *t = strtok_r(buf, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save))
		json_array_append_new(a, json_string(t));
	gtp_say(g->br, "game %lld: placing %zu free handicap stones: %s", (long long)g->id,
		json_array_size(a), text);
	json_t *req = json_pack("{s:s, s:I, s:o}", "cmd", "handicap", "game", g->id, "stones", a);
	g->place_out = gtp_send_req(g->br, req, handicap_reply, reply_arg(g)) == 0;
}

void gtp_set_hstones(struct game *g, const json_t *stones)
{
	size_t i;
	json_t *v;
	g->nhstones = 0;
	json_array_foreach(stones, i, v) {
		const char *s = json_string_value(v);
		if (!s || g->nhstones == GTP_HANDICAP_MAX)
			break;
		snprintf(g->hstones[g->nhstones++], GTP_VERTEX_MAX, "%s", s);
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
	if (gtp_reply_ok(reply)) {
		gtp_on_move(g, json_object_get(reply, "move")); /* before its game.move event */
		return;
	}
	const char *code = err_code(reply);
	const char *why = json_string_value(json_object_get(json_object_get(reply, "error"), "reason"));
	if (code && strcmp(code, "illegal_move") == 0 && why && strcmp(why, "not_your_turn") != 0) {
		/* The engine's board holds a move the record will not: gtp_pump() replaces the
		 * engine when the record disagrees. A forfeited turn (its game.move pass) or a lost
		 * game (game.end) follows this reply: that event pumps, once the record has it;
		 * pumping now would restart the engine for the move in flight and ask it a genmove
		 * whose answer the pass makes stale (docs/protocol.md "play": the penalty). */
		const json_t *pen = json_object_get(json_object_get(reply, "error"), "penalty");
		gtp_say(g->br, "game %lld: move %s refused: %s", (long long)g->id, g->play_vertex,
			gtp_err_message(reply));
		if (!json_is_true(json_object_get(pen, "forfeit_turn")) &&
		    !json_is_true(json_object_get(pen, "lost")))
			gtp_pump(g);
		return;
	}
	/* conflict (stale number, flag fell, paused, not playing), not_your_turn: read the record
	 * again; after GTP_REFUSALS_MAX in a row, wait for the server's next event */
	gtp_say(g->br, "game %lld: move %s not played: %s", (long long)g->id, g->play_vertex,
		gtp_err_message(reply));
	if (++g->refusals == GTP_REFUSALS_MAX)
		gtp_say(g->br, "game %lld: %d moves refused in a row; waiting for the server's next event",
			(long long)g->id, g->refusals);
	gtp_sync_game(g);
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
	if (!gtp_reply_ok(reply)) {
		const char *code = err_code(reply);
		if (code && strcmp(code, "bad_request") == 0 && strcmp(g->phase, "counting") == 0) {
			gtp_say(g->br, "game %lld: dead stones refused (%s); claiming all alive",
				(long long)g->id, gtp_err_message(reply));
			json_t *none = json_array();
			gtp_send_dead(g, none);
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
	if (gtp_reply_ok(reply)) {
		g->joined = true;
		long long late = json_integer_value(json_object_get(reply, "late_ms"));
		if (late > 0)
			gtp_say(g->br, "game %lld: joined %lld ms late", (long long)g->id, late);
		json_t *ck = json_object_get(reply, "clocks");
		if (json_is_object(ck)) {
			json_decref(g->clocks);
			g->clocks = json_incref(ck);
			g->clocks_at = uv_now(g->br->loop);
		}
		gtp_pump(g);
	} else {
		gtp_say(g->br, "game %lld: join refused: %s", (long long)g->id,
			gtp_err_message(reply));
	}
}

void gtp_join(struct game *g)
{
	if (g->joined || g->join_out)
		return;
	g->join_out = gtp_send_req(g->br, json_pack("{s:s, s:I}", "cmd", "join", "game", g->id),
				   join_reply, reply_arg(g)) == 0;
}

/* ---- the record ---- */

/* Take the server's game object as the truth (game reply, game.state). */
void gtp_apply_game(struct bridge *br, const json_t *o)
{
	json_int_t id = json_integer_value(json_object_get(o, "id"));
	const char *phase = json_string_value(json_object_get(o, "phase"));
	const char *black = json_string_value(json_object_get(o, "black"));
	const char *white = json_string_value(json_object_get(o, "white"));
	const char *rset = json_string_value(json_object_get(o, "ruleset"));
	bool pred = rset && strcmp(rset, "prediction") == 0; /* colours come with the predictions */
	if (id <= 0 || !phase || (!pred && (!black || !white)))
		return;
	struct game *g = gtp_find_game(br, id);
	if (strcmp(phase, "ended") == 0) {
		if (g) {
			gtp_log_result(g, json_string_value(json_object_get(o, "result")),
				       json_string_value(json_object_get(o, "reason")));
			gtp_free_game(g);
		}
		return;
	}
	if (strcmp(phase, "pending") == 0 || (!g && gtp_ended_lately(br, id)))
		return;
	if (!g && !(g = gtp_new_game(br, id)))
		return;
	g->sync_out = false;
	/* what the bridge said of the game, to tell of a director's change (pair edit) */
	int was_size = g->size, was_handicap = g->handicap;
	double was_komi = g->komi;
	char was_color = g->color, was_opponent[GTP_NAME_MAX];
	snprintf(was_opponent, sizeof was_opponent, "%s", g->opponent);
	g->size = (int)json_integer_value(json_object_get(o, "size"));
	g->komi = json_number_value(json_object_get(o, "komi"));
	g->handicap = (int)json_integer_value(json_object_get(o, "handicap"));
	const char *hp = json_string_value(json_object_get(o, "handicap_placement"));
	g->free_handicap = hp && strcmp(hp, "free") == 0;
	if (g->free_handicap)
		gtp_set_hstones(g, json_object_get(o, "handicap_stones"));
	if (!gtp_predict_apply(g, o, br->user)) {
		bool me_black = strcasecmp(black, br->user) == 0;
		g->color = me_black ? 'B' : 'W';
		snprintf(g->opponent, sizeof g->opponent, "%s", me_black ? white : black);
	}
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
		if (!c || !v || gtp_push_move(&g->moves, &g->nmoves, &g->capmoves, c[0], v) < 0)
			break;
	}
	if (strcmp(phase, "playing") == 0 && g->nmoves >= 2 &&
	    strcasecmp(g->moves[g->nmoves - 1].vertex, "pass") == 0 &&
	    strcasecmp(g->moves[g->nmoves - 2].vertex, "pass") == 0)
		g->resume_mark = g->nmoves; /* two passes and still playing: play resumed */
	if (g->resume_mark > g->nmoves)
		g->resume_mark = 0;
	g->synced = true;
	/* (seed 000's komi and colours come with the predictions: not a director's change) */
	if (g->announced && (was_size != g->size || was_handicap != g->handicap ||
			     (!g->prediction && (was_komi != g->komi || was_color != g->color)) ||
			     strcmp(was_opponent, g->opponent) != 0))
		gtp_say(br, "game %lld changed by the director: %s as %s against %s, komi %g, handicap %d",
			(long long)id, br->user, g->color == 'B' ? "Black" : g->color == 'W' ? "White" :
			g->first ? "first player (prediction rules)" : "second player (prediction rules)",
			g->opponent, g->komi, g->handicap);
	gtp_announce(g);
	/* our move in flight: resend it only if the record still ends just before it */
	if (g->play_out && !g->play_sent) {
		if (strcmp(phase, "playing") == 0 && g->to_move == g->color &&
		    g->nmoves == g->play_number - 1) {
			gtp_say(br, "game %lld: resending move %d (%s)", (long long)id,
				g->play_number, g->play_vertex);
			gtp_send_play(g);
		} else {
			g->play_out = false;
		}
	}
	if (strcmp(phase, "counting") != 0) {
		g->dead_sent = false;
		g->dead_out = false;
	}
	/* a scheduled game, or a board event's; not one counting (nothing to join: the server
	 * refused it, and the bridge logged "join refused" on every reconnect then) */
	if ((g->start_at > 0 || json_is_integer(json_object_get(o, "tournament"))) &&
	    strcmp(phase, "counting") != 0)
		gtp_join(g);
	gtp_pump(g);
}

static void game_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	struct game *g = game_of_arg(arg);
	if (g)
		g->sync_out = false;
	if (!gtp_bridge || !reply)
		return; /* the next gtp_on_ready resyncs */
	if (!gtp_reply_ok(reply)) {
		if (g)
			gtp_say(g->br, "game %lld: cannot read the game: %s", (long long)g->id,
				gtp_err_message(reply));
		return;
	}
	gtp_apply_game(gtp_bridge, json_object_get(reply, "game"));
}

/* Ask the server for the game's record (it replaces ours). */
void gtp_sync_game(struct game *g)
{
	if (g->sync_out)
		return;
	g->sync_out = gtp_send_req(g->br, json_pack("{s:s, s:I}", "cmd", "game", "game", g->id),
				   game_reply, reply_arg(g)) == 0;
}

/* ---- moves recorded ---- */

/* A recorded move, from a game.move event or our play's reply (`m` has number, color,
 * vertex, clocks, forfeited?). */
void gtp_on_move(struct game *g, const json_t *m)
{
	int number = (int)json_integer_value(json_object_get(m, "number"));
	const char *c = json_string_value(json_object_get(m, "color"));
	const char *v = json_string_value(json_object_get(m, "vertex"));
	if (!c || !v || number < 1)
		return;
	if (!g->synced || number > g->nmoves + 1) {
		gtp_sync_game(g); /* missed something */
		return;
	}
	if (number <= g->nmoves)
		return; /* known */
	gtp_push_move(&g->moves, &g->nmoves, &g->capmoves, c[0], v);
	g->refusals = 0;
	const char *forfeited = json_string_value(json_object_get(m, "forfeited"));
	if (forfeited)
		gtp_say(g->br, "game %lld: move %d by %s forfeited (%s)", (long long)g->id, number,
			c, forfeited);
	g->to_move = other(c[0]);
	json_t *ck = json_object_get(m, "clocks");
	if (json_is_object(ck)) {
		json_decref(g->clocks);
		g->clocks = json_incref(ck);
		g->clocks_at = uv_now(g->br->loop);
	}
	if ((c[0] == g->color || g->color == 0) && g->play_out && number == g->play_number)
		g->play_out = false;
	gtp_pump(g);
}
