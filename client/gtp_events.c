/* client/gtp_events: the bridge's session callbacks: the server's events, challenges, the
 * connection made, lost and made again. See gtp.h. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "cli_print.h"
#include "cli_run.h"
#include "gtp.h"

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
	if (reply && !gtp_reply_ok(reply) && gtp_bridge)
		gtp_say(gtp_bridge, "challenge %lld: accept refused: %s", (long long)(intptr_t)arg,
			gtp_err_message(reply));
}

static void ignore_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	(void)reply;
	(void)arg;
}

/* `settings`: the challenge event's settings, or the pending game object (size, handicap,
 * rated, time, rules). */
static void consider_challenge(struct bridge *br, json_int_t id, const char *from,
			       const json_t *settings)
{
	bool rated = json_is_true(json_object_get(settings, "rated"));
	int size = (int)json_integer_value(json_object_get(settings, "size"));
	const char *cmd = "accept", *why = NULL;
	char filtered[160];
	if (!policy_allows(br, from, rated))
		why = "not allowed by --accept";
	else if (!gtp_filter_allows(&br->filter, br->caps.sizes, settings, from, filtered,
				    sizeof filtered))
		why = filtered;
	else if (br->ngames >= br->max_games)
		why = "--max-games reached";
	if (why)
		cmd = "decline";
	gtp_say(br, "challenge %lld from %s (%dx%d, %s): %s%s%s", (long long)id, from, size, size,
		rated ? "rated" : "free", why ? "declined, " : "accepted", why ? why : "", "");
	gtp_send_req(br, json_pack("{s:s, s:I}", "cmd", cmd, "game", id),
		     why ? ignore_reply : accept_reply, (void *)(intptr_t)id);
}

/* ---- events ---- */

/* An event of one of our live games (not game.start, game.state). */
static void on_game_event(struct game *g, const char *name, json_t *ev)
{
	struct bridge *br = g->br;
	json_int_t id = g->id;
	if (strcmp(name, "game.move") == 0) {
		gtp_on_move(g, ev);
	} else if (strcmp(name, "game.counting") == 0) {
		strcpy(g->phase, "counting");
		g->to_move = 0;
		g->countings++;
		g->dead_sent = g->dead_out = false;
		json_decref(g->their_dead);
		g->their_dead = NULL;
		gtp_pump(g);
	} else if (strcmp(name, "game.dead") == 0) {
		const char *c = json_string_value(json_object_get(ev, "color"));
		if (c && c[0] != g->color) {
			json_decref(g->their_dead);
			g->their_dead = json_incref(json_object_get(ev, "stones"));
			gtp_pump(g);
		}
	} else if (strcmp(name, "game.resume") == 0) {
		if (json_object_get(ev, "by")) {
			g->paused = false;
		}
		const char *tm = json_string_value(json_object_get(ev, "to_move"));
		if (strcmp(g->phase, "counting") == 0)
			gtp_say(br, "game %lld: dead stones disputed, play resumes", (long long)id);
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
		gtp_sync_game(g); /* the clocks and the turn as the server holds them */
	} else if (strcmp(name, "game.handicap") == 0) {
		/* the free stones placed (ours or the opponent's): White moves now */
		gtp_set_hstones(g, json_object_get(ev, "stones"));
		const char *tm = json_string_value(json_object_get(ev, "to_move"));
		g->to_move = tm ? tm[0] : 0;
		json_t *ck = json_object_get(ev, "clocks");
		if (json_is_object(ck)) {
			json_decref(g->clocks);
			g->clocks = json_incref(ck);
			g->clocks_at = uv_now(br->loop);
		}
		gtp_pump(g);
	} else if (strcmp(name, "game.paused") == 0) {
		const char *by = json_string_value(json_object_get(ev, "by"));
		g->paused = true;
		gtp_say(br, "game %lld: paused by %s", (long long)id, by ? by : "?");
	} else if (strcmp(name, "game.predictions") == 0) {
		gtp_say(br, "game %lld: predictions shown; playing %s", (long long)id,
			json_string_value(json_object_get(ev, "white")) &&
			strcasecmp(json_string_value(json_object_get(ev, "white")), br->user) == 0
				? "White" : "Black");
		gtp_sync_game(g); /* our colour and komi (minus the bar) from the game object */
	} else if (strcmp(name, "game.begin") == 0) {
		g->refusals = 0;
		gtp_sync_game(g);
	} else if (strcmp(name, "game.warning") == 0) {
		const char *c = json_string_value(json_object_get(ev, "color"));
		const char *r = json_string_value(json_object_get(ev, "reason"));
		gtp_say(br, "game %lld: warning to %s: %s", (long long)id, c ? c : "?",
			r ? r : "?");
	} else if (strcmp(name, "game.end") == 0) {
		if (json_is_true(json_object_get(ev, "override")))
			return;
		gtp_log_result(g, json_string_value(json_object_get(ev, "result")),
			       json_string_value(json_object_get(ev, "reason")));
		gtp_free_game(g);
	}
}

void gtp_on_event(struct session *s, json_t *ev, void *ctx)
{
	(void)s;
	struct bridge *br = ctx;
	const char *name = json_string_value(json_object_get(ev, "event"));
	if (!name || br->stopping)
		return;
	if (strcmp(name, "session.replaced") == 0) {
		/* another bridge logged in as this account (login `exclusive`): it plays the games
		 * now; two would both answer every challenge and every turn */
		gtp_say(br, "another bridge logged in as %s (from %s): stopping, it plays the "
			"account's games now (%d handed over)", br->user,
			cli_str_or(ev, "addr", "?"), br->ngames);
		br->status = CMD_EXIT_REPLACED;
		br->stopping = true;
		uv_stop(br->loop);
		return;
	}
	json_t *gv = json_object_get(ev, "game");
	if (strcmp(name, "game.state") == 0) {
		gtp_apply_game(br, gv);
		return;
	}
	if (strcmp(name, "challenge.pending") == 0) {
		/* a pending challenge lists the challenger as Black */
		const char *black = json_string_value(json_object_get(gv, "black"));
		const char *white = json_string_value(json_object_get(gv, "white"));
		if (black && white && strcasecmp(white, br->user) == 0)
			consider_challenge(br, json_integer_value(json_object_get(gv, "id")), black,
					   gv);
		return;
	}
	json_int_t id = json_integer_value(gv);
	if (id <= 0)
		return;
	if (strcmp(name, "challenge") == 0) {
		json_t *st = json_object_get(ev, "settings");
		const char *from = json_string_value(json_object_get(ev, "from"));
		consider_challenge(br, id, from ? from : "?", st);
		return;
	}
	struct game *g = gtp_find_game(br, id);
	if (strcmp(name, "tournament.unpaired") == 0) {
		/* the director took the round back (td unpair) or paired us elsewhere (td pair):
		 * this game will not begin. It waited for its start, and held a place of
		 * --max-games, until a reconnect found it ended ("declined"). */
		if (g) {
			gtp_say(br, "game %lld called off: the director took round %lld back or "
				"paired it again", (long long)id,
				(long long)json_integer_value(json_object_get(ev, "round")));
			gtp_free_game(g);
			/* not ended: a pair edit may give it back (game.start), which the
			 * ring of ended games would have ignored */
			gtp_forget_ended(br, id);
		}
		return;
	}
	if (strcmp(name, "game.start") == 0) {
		if (!g && gtp_ended_lately(br, id))
			return;
		if (g) {
			/* again: a director's pair edit, which takes both players' presence back
			 * (Art. 22): report present again, or the bot is late from the start time
			 * (the first join's reply, if still out, changes nothing) */
			g->joined = false;
			g->join_out = false;
		}
		if (!g && !(g = gtp_new_game(br, id)))
			return;
		json_t *sa = json_object_get(ev, "start_at");
		if (json_is_number(sa))
			g->start_at = json_number_value(sa);
		if (g->start_at > 0)
			gtp_join(g);
		gtp_sync_game(g);
		return;
	}
	if (g)
		on_game_event(g, name, ev);
}

void gtp_on_ready(struct session *s, bool first, void *ctx)
{
	(void)s;
	struct bridge *br = ctx;
	if (first) {
		gtp_say(br, "logged in; engine %s; accepting %s challenges, up to %d games at once",
			br->engine_name, br->accept == ACCEPT_ANY ? "all" :
			br->accept == ACCEPT_RATED ? "rated" : "listed players'", br->max_games);
		return;
	}
	gtp_say(br, "reconnected; resyncing %d game%s", br->ngames, br->ngames == 1 ? "" : "s");
	for (struct game *g = br->games; g; g = g->next) {
		g->sync_out = false; /* its reply, if any, was answered NULL */
		g->join_out = false;
		g->refusals = 0;
		gtp_sync_game(g);
	}
}

void gtp_on_error(struct session *s, const char *error, bool final, void *ctx)
{
	struct bridge *br = ctx;
	if (br->stopping)
		return;
	if (final) {
		gtp_say(br, "%s; giving up", error);
		/* as every command: 5 a refused login, 4 no server (README, exit statuses) */
		br->status = cli_status_of_failure(session_failure(s));
		br->stopping = true;
		uv_stop(br->loop);
		return;
	}
	gtp_say(br, "connection: %s; reconnecting", error);
}
