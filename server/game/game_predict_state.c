/* game_predict_state: a game's state under the prediction ruleset (seed 000; docs/rules.md
 * "Prediction rules", docs/protocol.md "Prediction ruleset"): roles and columns, the stage
 * the row's phase cannot say, the prediction allowance's arithmetic, what the row's extra
 * keeps and how a restart reads it back (replay included), and the JSON the views add. The
 * actions are in game_predict.c, the timer's in game_live.c.
 *
 * The row's columns: until the predictions are shown, black_id (and g->black, clk[BLACK],
 * present[BLACK]) hold the first player, white_id the second; when they are shown the columns
 * are swapped if the first player takes White, so from then on they are the real colours.
 * g->first_col says which column the first player is in. The phase column of the row says
 * "playing" during the opening and the prediction stage (the schema knows five phases); the
 * extra's "prediction.stage" holds the true one. Sealed predictions are in the extra (the
 * server must keep them across a restart) and in no reply, event, listing or record before
 * both are in. See game.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "game.h"

bool game_is_prediction(const struct game *g)
{
	return g->rules.ruleset == RULESET_PREDICTION;
}

bool game_predict_before_play(const struct game *g)
{
	return game_is_prediction(g) &&
	       (g->ref.phase == PHASE_OPENING || g->ref.phase == PHASE_PREDICTING);
}

const char *game_row_phase(const struct game *g)
{
	enum game_phase p = g->ref.phase;
	return p == PHASE_OPENING || p == PHASE_PREDICTING ? "playing" : referee_phase_name(p);
}

/* ---- the prediction allowance (Art. 5.3.3) ---- */

static int64_t allowance_ms(const struct game *g)
{
	return rules_predict_ms(&g->rules, g->cc.main_ms, g->cc.system != CLOCK_NONE);
}

int64_t game_predict_allowance_left(const struct game *g, enum predict_role role, uint64_t now)
{
	if (allowance_ms(g) <= 0 || !g->pred_since[role] || g->ref.sealed[role])
		return INT64_MAX;
	return g->pred_left[role] - (int64_t)(now - g->pred_since[role]);
}

void game_predict_allowance_start(struct game *g, enum predict_role role, uint64_t now)
{
	g->pred_left[role] = allowance_ms(g);
	g->pred_since[role] = now;
	g->pred_started[role] = true;
}

void game_predict_allowance_stop(struct game *g, enum predict_role role, uint64_t now)
{
	if (g->pred_since[role])
		g->pred_left[role] -= (int64_t)(now - g->pred_since[role]);
	g->pred_since[role] = 0;
}

void game_predict_swap_columns(struct game *g)
{
	int64_t id = g->row.black_id;
	g->row.black_id = g->row.white_id;
	g->row.white_id = id;
	char n[PROTO_NAME_MAX + 1];
	memcpy(n, g->black, sizeof n);
	memcpy(g->black, g->white, sizeof n);
	memcpy(g->white, n, sizeof n);
	struct clock_state c = g->clk[BLACK];
	g->clk[BLACK] = g->clk[WHITE];
	g->clk[WHITE] = c;
	bool p = g->present[BLACK];
	g->present[BLACK] = g->present[WHITE];
	g->present[WHITE] = p;
	g->first_col = color_other(g->first_col);
}

int64_t game_predict_due(const struct game *g)
{
	if (!game_predict_before_play(g) || g->paused)
		return -1;
	uint64_t now = fairclock_fair_ms(g->srv);
	int64_t due = -1;
	if (g->ref.phase == PHASE_OPENING && g->cc.system != CLOCK_NONE) {
		enum color col = game_role_col(g, game_predict_placer(g));
		int64_t rem = clock_remaining(&g->cc, &g->clk[col]);
		if (rem != CLOCK_UNLIMITED && rem >= 0) {
			rem -= game_turn_elapsed(g);
			if (rem <= 0) /* past the bare deadline: the lag credit, as game_arm */
				rem += game_flag_grace_ms(g, col);
			due = rem > 0 ? rem : 0;
		}
	}
	for (int r = 0; r < 2; r++) {
		int64_t left = game_predict_allowance_left(g, (enum predict_role)r, now);
		if (left == INT64_MAX)
			continue;
		if (left < 0)
			left = 0;
		if (due < 0 || left < due)
			due = left;
	}
	return due;
}

void game_predict_note_move(struct game *g, const struct referee_move *m)
{
	if (!m->number || g->choice != CAPTURE_OWN || m->removed != m->color)
		return;
	if (g->nown == g->capown) {
		size_t n = g->capown ? g->capown * 2 : 8;
		int *p = realloc(g->own_moves, n * sizeof *p);
		if (!p)
			return; /* the replay would remove the opponent's: logged */
		g->own_moves = p;
		g->capown = n;
	}
	g->own_moves[g->nown++] = m->number;
	g->pred_gen++;
}

/* ---- the row's extra ---- */

json_t *game_predict_extra_json(const struct game *g)
{
	if (!game_is_prediction(g))
		return NULL;
	const struct referee *r = &g->ref;
	json_t *o = json_object();
	json_object_set_new(o, "first", json_string(game_color_name(g->first_col)));
	if (game_predict_before_play(g))
		json_object_set_new(o, "stage", json_string(referee_phase_name(r->phase)));
	for (int k = 0; k < 2; k++) {
		const char *key = k == 0 ? "first_sealed" : "second_sealed";
		if (r->sealed[k])
			json_object_set_new(o, key, json_real(r->predicted[k]));
	}
	uint64_t now = g->srv ? fairclock_fair_ms(g->srv) : 0;
	json_t *left = json_array();
	for (int k = 0; k < 2; k++) {
		int64_t l = g->pred_left[k];
		if (g->pred_since[k] && now > g->pred_since[k])
			l -= (int64_t)(now - g->pred_since[k]);
		json_array_append_new(left, g->pred_started[k] ? json_integer(l) : json_null());
	}
	json_object_set_new(o, "allowance_left_ms", left);
	json_t *own = json_array();
	for (size_t i = 0; i < g->nown; i++)
		json_array_append_new(own, json_integer(g->own_moves[i]));
	json_object_set_new(o, "own", own);
	return o;
}

void game_predict_preload(struct game *g)
{
	if (!game_is_prediction(g))
		return;
	g->first_col = BLACK;
	json_t *x = g->row.extra ? json_loads(g->row.extra, 0, NULL) : NULL;
	json_t *p = x ? json_object_get(x, "prediction") : NULL;
	if (p) {
		const char *f = json_string_value(json_object_get(p, "first"));
		g->first_col = f && strcmp(f, "W") == 0 ? WHITE : BLACK;
		bool rv;
		for (int k = 0; k < 2; k++) {
			json_t *v = json_object_get(p, k == 0 ? "first_sealed" : "second_sealed");
			if (json_is_number(v))
				referee_predict(&g->ref, (enum predict_role)k, json_number_value(v), &rv);
			json_t *l = json_array_get(json_object_get(p, "allowance_left_ms"), (size_t)k);
			if (json_is_integer(l)) {
				g->pred_started[k] = true;
				g->pred_left[k] = json_integer_value(l);
			}
		}
		size_t i;
		json_t *v;
		json_array_foreach(json_object_get(p, "own"), i, v) {
			struct referee_move m = {.number = (int)json_integer_value(v), .removed = BLACK,
						 .color = BLACK};
			g->choice = CAPTURE_OWN;
			game_predict_note_move(g, &m);
		}
		g->choice = CAPTURE_OPPONENT;
	}
	json_decref(x);
}

int game_predict_replay(struct game *g, enum color c, int pt, int number)
{
	struct referee *r = &g->ref;
	if (r->phase == PHASE_COUNTING || r->phase == PHASE_ENDED)
		r->phase = PHASE_PLAYING; /* play resumed after a dispute (Art. 21.4) */
	if (r->phase == PHASE_PLAYING)
		board_set_to_move(&r->board, c);
	enum capture_choice ch = CAPTURE_OPPONENT;
	for (size_t i = 0; i < g->nown; i++)
		if (g->own_moves[i] == number)
			ch = CAPTURE_OWN;
	struct referee_move m;
	if (referee_play_choice(r, c, pt, ch, &m) < 0 || m.number != number)
		return -1;
	return 0;
}

void game_predict_restore(struct game *g)
{
	if (!game_is_prediction(g))
		return;
	json_t *x = g->row.extra ? json_loads(g->row.extra, 0, NULL) : NULL;
	json_t *p = x ? json_object_get(x, "prediction") : NULL;
	const char *stage = p ? json_string_value(json_object_get(p, "stage")) : NULL;
	enum game_phase ph;
	if (stage && referee_phase_parse(stage, &ph) == 0 && strcmp(g->row.phase, "playing") == 0)
		g->ref.phase = ph;
	json_decref(x);
}

void game_predict_go_live(struct game *g, uint64_t now)
{
	for (int k = 0; k < 2; k++)
		g->pred_since[k] = game_predict_before_play(g) && g->pred_started[k] &&
				   !g->ref.sealed[k] ? now : 0;
}

/* ---- views ---- */

static json_t *value_json(double white)
{
	struct predict_value v = predict_stated(white);
	return json_pack("{s:s, s:f}", "color", game_color_name(v.color), "margin", v.margin);
}

json_t *game_predict_predictions_json(const struct game *g)
{
	const struct referee *r = &g->ref;
	if (!r->revealed)
		return json_null();
	return json_pack("{s:o, s:o}", "first", value_json(r->predicted[PREDICT_FIRST]), "second",
			 value_json(r->predicted[PREDICT_SECOND]));
}

json_t *game_predict_bar_json(const struct game *g)
{
	return g->ref.revealed ? value_json(referee_bar(&g->ref)) : json_null();
}

json_t *game_predict_score_json(const struct score *s)
{
	return json_pack("{s:f, s:f, s:o}", "black", s->black, "white", s->white, "bar",
			 value_json(-s->komi));
}

const char *game_predict_name(const struct game *g, enum predict_role role)
{
	return game_role_col(g, role) == BLACK ? g->black : g->white;
}

void game_predict_view(const struct game *g, json_t *o)
{
	if (!game_is_prediction(g))
		return;
	const struct referee *r = &g->ref;
	bool shown = g->started && r->revealed;
	bool pending = !g->started || r->phase == PHASE_PENDING;
	json_object_set_new(o, "ruleset", json_string("prediction"));
	json_object_set_new(o, "first", pending ? json_null()
						 : json_string(game_predict_name(g, PREDICT_FIRST)));
	json_object_set_new(o, "second", pending ? json_null()
						  : json_string(game_predict_name(g, PREDICT_SECOND)));
	json_object_set_new(o, "sealed", json_pack("{s:b, s:b}", "first", r->sealed[0], "second",
						   r->sealed[1]));
	json_object_set_new(o, "predictions", shown ? game_predict_predictions_json(g) : json_null());
	json_object_set_new(o, "bar", shown ? game_predict_bar_json(g) : json_null());
	if (!shown && r->phase != PHASE_ENDED && !pending) { /* a challenge lists the challenger
								 * as Black, as any other */
		json_object_set_new(o, "black", json_null());
		json_object_set_new(o, "white", json_null());
		json_object_set_new(o, "komi", json_null());
	}
	if (!shown && r->phase == PHASE_ENDED && !pending) /* ended before any bar: no komi */
		json_object_set_new(o, "komi", json_null());
	if (g->started)
		json_object_set_new(o, "phase", json_string(referee_phase_name(r->phase)));
	if (g->started && (r->phase == PHASE_OPENING))
		json_object_set_new(o, "to_move", json_string(game_color_name(r->board.to_move)));
	if (g->started && r->scored)
		json_object_set_new(o, "score", game_predict_score_json(&r->score));
}

int game_predict_sgf_info(const struct game *g, struct sgf_game *s)
{
	if (!game_is_prediction(g))
		return 0;
	const struct referee *r = &g->ref;
	char ru[64], text[512];
	if (g->rules.decisive) {
		snprintf(ru, sizeof ru, "%s%s", g->rs->sgf_rules, RULESET_SGF_DECISIVE);
		if (sgf_game_set_text(&s->rules, ru) != SGF_OK)
			return -1;
	}
	int n = snprintf(text, sizeof text, "Prediction rules (seed 000): White first after a free "
			 "opening of four stones (moves 1-4: W and B by the first player %s, B and W "
			 "by the second player %s).", game_predict_name(g, PREDICT_FIRST),
			 game_predict_name(g, PREDICT_SECOND));
	if (r->revealed) {
		char p1[PREDICT_TEXT_MAX], p2[PREDICT_TEXT_MAX], bar[PREDICT_TEXT_MAX];
		struct predict_value v1 = predict_stated(r->predicted[PREDICT_FIRST]),
				     v2 = predict_stated(r->predicted[PREDICT_SECOND]),
				     vb = predict_stated(referee_bar(r));
		snprintf(text + n, sizeof text - (size_t)n, " Predictions (area difference in "
			 "points): %s %s, %s %s. %s takes White (%s). Bar %s: KM is minus the bar; "
			 "RE is the margin over the bar.", game_predict_name(g, PREDICT_FIRST),
			 predict_format(&v1, p1), game_predict_name(g, PREDICT_SECOND),
			 predict_format(&v2, p2), g->white,
			 r->predicted[PREDICT_FIRST] == r->predicted[PREDICT_SECOND]
				 ? "equal predictions: the first player"
				 : "the higher prediction in White's terms", predict_format(&vb, bar));
	} else if (r->phase == PHASE_ENDED) {
		snprintf(text + n, sizeof text - (size_t)n, " The game ended before the "
			 "predictions were shown: the winner is recorded as White.");
	}
	if (s->comment) {
		size_t l = strlen(s->comment) + strlen(text) + 2;
		char *c = malloc(l);
		if (!c)
			return -1;
		snprintf(c, l, "%s\n%s", text, s->comment);
		free(s->comment);
		s->comment = c;
		return 0;
	}
	return (s->comment = strdup(text)) ? 0 : -1;
}
