/* game_view: the JSON views of a game (docs/protocol.md): the `game` object, a challenge's
 * settings, a score, claimed dead stones. See game.h. */
#include <string.h>
#include "game.h"
#include "vertex.h"

bool game_unaccepted(const struct game *g)
{
	/* pending, or called off before its accept (declined, withdrawn, lapsed) */
	return g->ref.phase == PHASE_PENDING ||
	       (strcmp(g->row.phase, "ended") == 0 && g->row.tournament_id == 0 &&
		(strcmp(g->row.reason, "declined") == 0 || strcmp(g->row.reason, "expired") == 0));
}

bool game_nigiri_pending(const struct game *g)
{
	/* the colours were never drawn (a declined challenge's record named the challenger
	 * Black) */
	return !game_is_prediction(g) && strcmp(g->row.color_choice, "nigiri") == 0 &&
	       game_unaccepted(g);
}

json_t *game_settings_json(const struct game *g)
{
	json_t *o = json_pack("{s:i, s:f, s:i, s:o, s:b, s:s, s:o}", "size", g->row.size, "komi",
			      g->row.komi, "handicap", g->row.handicap, "time",
			      proto_time_to_json(&g->time), "rated", g->row.rated, "color",
			      g->row.color_choice, "rules", proto_rules_to_json(&g->rules));
	if (o)
		json_object_set_new(o, "handicap_placement", json_string(game_handicap_placement(g)));
	if (o && game_is_prediction(g)) { /* seed 000: the challenger's `first`, as stored */
		const char *c = g->row.color_choice;
		json_object_set_new(o, "first", json_string(strcmp(c, "black") == 0 ? "me" :
							    strcmp(c, "white") == 0 ? "opponent" :
							    "nigiri"));
		/* the bar replaces komi, and colours come after the predictions */
		json_object_set_new(o, "komi", json_null());
		json_object_set_new(o, "color", json_null());
	}
	return o;
}

/* The dead stones both players agreed on (Art. 8), the chains in full, as counted: the
 * claims of an ended game counted by agreement (or, for a dispute the count settled, the
 * stones both claims held dead); [] for one counted all alive; NULL if the game was not
 * counted. */
static json_t *agreed_dead_json(const struct game *g)
{
	const struct referee *r = &g->ref;
	if (!g->started || !r->scored || r->phase != PHASE_ENDED)
		return NULL;
	const bool *dead = referee_counted_dead(r);
	return dead ? game_points_json(g, dead) : json_array();
}

json_t *game_player_name_json(struct server *srv, const struct game *g, int64_t id,
			      const char *name)
{
	struct store_profile p;
	if (g->row.tournament_id && id &&
	    store_profile_get(srv->store, id, &p) == STORE_OK && p.entrant && p.full_name[0])
		return json_string(p.full_name);
	return json_string(name);
}

bool game_warning_by_director(const struct store_warning *w)
{
	enum offence o;
	/* a row from before migration 0009 does not say: an offence's name is the referee's */
	return w->by_director >= 0 ? w->by_director > 0 : referee_offence_parse(w->reason, &o) != 0;
}

static int warning_log_cb(void *ctx, const struct store_warning *w)
{
	char color[2] = {w->color, '\0'};
	json_t *e = json_pack("{s:s, s:s, s:b}", "color", color, "reason", w->reason, "by_director",
			      game_warning_by_director(w));
	if (e && w->number > 0)
		json_object_set_new(e, "number", json_integer(w->number));
	if (e)
		json_object_set_new(e, "at", json_real(w->at));
	return json_array_append_new(ctx, e) < 0 ? 1 : 0;
}

/* The game's warnings as given, in order: [{color, reason, by_director, number?, at}] (a
 * referee's reason is an offence name, a director's the text they gave; Art. 23, 24). Read
 * from the store only when there is one; [] when none or the store fails. */
static json_t *warning_log_json(struct server *srv, const struct game *g)
{
	json_t *a = json_array();
	if (g->row.warnings_b + g->row.warnings_w > 0 &&
	    store_warnings_get(srv->store, g->id, warning_log_cb, a) != STORE_OK)
		json_array_clear(a);
	return a;
}

/* The `game` query's object (docs/protocol.md). */
json_t *game_json(struct server *srv, const struct game *g)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_integer(g->id));
	json_object_set_new(o, "size", json_integer(g->row.size));
	json_object_set_new(o, "komi", json_real(g->row.komi));
	json_object_set_new(o, "handicap", json_integer(g->row.handicap));
	json_object_set_new(o, "handicap_placement", json_string(game_handicap_placement(g)));
	json_t *hs = game_handicap_stones_json(g);
	if (hs) /* free placement: the stones placed, [] while Black's placement is due */
		json_object_set_new(o, "handicap_stones", hs);
	json_object_set_new(o, "black", game_player_name_json(srv, g, g->row.black_id, g->black));
	json_object_set_new(o, "white", game_player_name_json(srv, g, g->row.white_id, g->white));
	json_object_set_new(o, "phase", json_string(g->row.phase));
	if (game_nigiri_pending(g)) /* black/white name challenger and challenged until accept */
		json_object_set_new(o, "nigiri", json_true());
	json_object_set_new(o, "rated", json_boolean(g->row.rated));
	json_object_set_new(o, "time", proto_time_to_json(&g->time));
	json_object_set_new(o, "rules", proto_rules_to_json(&g->rules));
	json_t *moves = json_array(), *board = json_array();
	const char *to_move = NULL;
	if (g->started) {
		const struct board *b = &g->ref.board;
		char v[VERTEX_MAX_LEN];
		size_t own = 0; /* the next of the moves that chose remove: "own" (in order) */
		for (size_t i = 1; i < b->nhist; i++) {
			const struct board_hist *h = &b->hist[i];
			json_t *mv = json_pack("{s:I, s:s, s:s}", "number", (json_int_t)i, "color",
					       game_color_name((enum color)h->color), "vertex",
					       vertex_format(b, h->pt, v));
			/* seed 000, Art. 4.3: a move that removed its own chains where both sides
			 * had chains without liberties; a replay of the moves needs it */
			while (own < g->nown && (size_t)g->own_moves[own] < i)
				own++;
			if (mv && own < g->nown && (size_t)g->own_moves[own] == i)
				json_object_set_new(mv, "removed", json_string("own"));
			json_array_append_new(moves, mv);
		}
		char diag[BOARD_MAX_SIZE * (BOARD_MAX_SIZE + 1) + 1];
		board_diagram(b, diag);
		for (char *line = strtok(diag, "\n"); line; line = strtok(NULL, "\n"))
			json_array_append_new(board, json_string(line));
		if (g->ref.phase == PHASE_PLAYING)
			to_move = game_color_name(b->to_move);
	}
	json_object_set_new(o, "to_move", to_move ? json_string(to_move) : json_null());
	if (to_move) /* the passes in a row since play (re)started (Art. 8, 21.4) */
		json_object_set_new(o, "passes", json_integer(g->ref.passes));
	json_object_set_new(o, "moves", moves);
	json_object_set_new(o, "board", board);
	json_object_set_new(o, "clocks", g->started ? game_clocks_json(g, true) : json_null());
	json_object_set_new(o, "paused", json_boolean(g->paused));
	int64_t held = game_turn_held_ms(g); /* after a restart, waiting for the player to move */
	if (held > 0)
		json_object_set_new(o, "held_ms", json_integer(held));
	if (g->row.start_at)
		json_object_set_new(o, "start_at", json_real(g->row.start_at));
	if (g->row.tournament_id) /* Art. 22.1 in force; 0: none */
		json_object_set_new(o, "lateness_limit_s", json_integer(g->lateness_limit_s));
	json_object_set_new(o, "warnings", json_pack("{s:i, s:i}", "B", g->row.warnings_b, "W",
						     g->row.warnings_w));
	json_object_set_new(o, "warning_log", warning_log_json(srv, g));
	json_object_set_new(o, "result", g->row.result[0] ? json_string(g->row.result) : json_null());
	json_object_set_new(o, "reason", g->row.reason[0] ? json_string(g->row.reason) : json_null());
	if (g->started && g->ref.scored)
		json_object_set_new(o, "score", game_score_json(&g->ref.score));
	json_t *dead = agreed_dead_json(g);
	json_object_set_new(o, "dead", dead ? dead : json_null());
	if (g->started && g->ref.phase == PHASE_COUNTING) { /* the claims so far, as game.dead told */
		json_object_set_new(o, "claims", json_pack("{s:o, s:o}",
			"B", g->ref.claimed[BLACK] ? game_claims_json(g, BLACK) : json_null(),
			"W", g->ref.claimed[WHITE] ? game_claims_json(g, WHITE) : json_null()));
		int64_t left = g->srv ? game_count_left_ms(g) : -1;
		if (left >= 0) /* the claims' time left, then the count lapses */
			json_object_set_new(o, "claim_ms", json_integer(left));
	}
	/* ended by a lapsed count (and no director's result since): who had not claimed */
	if (g->ref.unclaimed && strcmp(g->row.reason, "score") == 0)
		json_object_set_new(o, "unclaimed", json_string(referee_unclaimed_name(g->ref.unclaimed)));
	json_object_set_new(o, "tournament", g->row.tournament_id ? json_integer(g->row.tournament_id) : json_null());
	json_object_set_new(o, "round", g->row.round ? json_integer(g->row.round) : json_null());
	game_predict_view(g, o);
	game_json_effective_komi(o, g->rs, g->row.handicap);
	return o;
}

void game_json_effective_komi(json_t *o, const struct ruleset *rs, int handicap)
{
	const json_t *k = json_object_get(o, "komi");
	json_object_set_new(o, "effective_komi", json_is_number(k) ?
			    json_real(rs->effective_komi(json_number_value(k), handicap)) : json_null());
}
