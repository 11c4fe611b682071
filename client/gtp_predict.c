/* client/gtp_predict: the bridge under the prediction ruleset (seed 000; docs/rules.md §5,
 * docs/protocol.md "Prediction ruleset"): whose opening placement is ours, the engine's
 * placements (genmove of the stone's colour), and its prediction from its own evaluation of
 * the opening at komi 0 (GTP `estimate_score`, GNU Go's; else `final_score`), sent as
 * `predict`. Once the predictions are shown the game is an ordinary one for the bridge, with
 * komi minus the bar (gtp_engine.c restarts the engine with it). See gtp.h. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "predict.h"
#include "gtp.h"

bool gtp_predict_apply(struct game *g, const json_t *o, const char *user)
{
	const char *rset = json_string_value(json_object_get(o, "ruleset"));
	if (!rset || strcmp(rset, "prediction") != 0)
		return false;
	const char *first = json_string_value(json_object_get(o, "first"));
	const char *second = json_string_value(json_object_get(o, "second"));
	const char *black = json_string_value(json_object_get(o, "black"));
	const char *white = json_string_value(json_object_get(o, "white"));
	g->prediction = true;
	g->first = first && strcasecmp(first, user) == 0;
	const char *opp = g->first ? second : first;
	snprintf(g->opponent, sizeof g->opponent, "%s", opp ? opp : "?");
	g->color = 0;
	if (black && white) /* shown: the colours */
		g->color = strcasecmp(black, user) == 0 ? 'B' : 'W';
	g->predict_sent = json_is_true(json_object_get(json_object_get(o, "sealed"),
						       g->first ? "first" : "second"));
	return true;
}

/* ---- the prediction ---- */

static void predict_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	json_int_t id = (json_int_t)(intptr_t)arg;
	struct game *g = gtp_bridge ? gtp_find_game(gtp_bridge, id) : NULL;
	if (!g)
		return;
	if (!reply) {
		g->predict_sent = false; /* resent after the resync if still due */
		return;
	}
	if (!gtp_reply_ok(reply))
		gtp_say(g->br, "game %lld: prediction refused: %s", (long long)id,
			gtp_err_message(reply));
}

/* Send "colour ahead by margin" from the engine's score text ("W+7.5 (upper bound ...)",
 * "B+3", "0"): the margin rounded to a multiple of PREDICT_STEP, at most the board's points;
 * W+0 if the text is no score. */
static void send_prediction(struct game *g, const char *text)
{
	struct predict_value v = {WHITE, 0};
	char tok[32];
	if (text && sscanf(text, "%31s", tok) == 1 && predict_parse(tok, &v) < 0)
		v = (struct predict_value){WHITE, 0};
	double m = floor(v.margin / PREDICT_STEP + 0.5) * PREDICT_STEP;
	if (m > (double)g->size * g->size)
		m = (double)g->size * g->size;
	v.margin = m;
	char shown[PREDICT_TEXT_MAX];
	gtp_say(g->br, "game %lld: predicting %s (the engine says %.40s)", (long long)g->id,
		predict_format(&v, shown), text ? text : "nothing");
	g->predict_sent = true;
	json_t *req = json_pack("{s:s, s:I, s:s, s:f}", "cmd", "predict", "game", g->id, "color",
				v.color == BLACK ? "B" : "W", "margin", m);
	if (gtp_send_req(g->br, req, predict_reply, (void *)(intptr_t)g->id) < 0)
		g->predict_sent = false;
}

static void final_score_reply(struct engine *e, bool ok, const char *text, void *arg)
{
	struct game *g = arg;
	(void)e;
	g->predict_out = false;
	if (text && strcmp(g->phase, "predicting") == 0 && !g->predict_sent)
		send_prediction(g, ok ? text : NULL);
}

static void estimate_reply(struct engine *e, bool ok, const char *text, void *arg)
{
	struct game *g = arg;
	(void)e;
	g->predict_out = false;
	if (!text || strcmp(g->phase, "predicting") != 0 || g->predict_sent)
		return;
	if (ok) {
		send_prediction(g, text);
		return;
	}
	/* an engine without estimate_score: its final score */
	g->predict_out = gtp_engine_send(g, final_score_reply, "final_score") == 0;
}

/* ---- the opening ---- */

/* Art. 5.2: stones 1 and 4 are the first player's, 2 and 3 the second's; odd stones White. */
static bool our_placement(const struct game *g)
{
	int k = g->nmoves;
	bool firsts = k == 0 || k == 3;
	return k < 4 && firsts == g->first;
}

bool gtp_predict_pump(struct game *g)
{
	if (strcmp(g->phase, "opening") == 0 && g->nmoves >= 4)
		snprintf(g->phase, sizeof g->phase, "predicting"); /* the 4th stone's game.move */
	if (strcmp(g->phase, "opening") == 0) {
		if (our_placement(g) && !g->play_out && g->refusals < GTP_REFUSALS_MAX)
			gtp_genmove(g, g->nmoves % 2 == 0 ? 'W' : 'B');
		return true;
	}
	if (strcmp(g->phase, "predicting") == 0) {
		if (!g->predict_sent && !g->predict_out)
			g->predict_out = gtp_engine_send(g, estimate_reply, "estimate_score") == 0;
		return true;
	}
	return false;
}
