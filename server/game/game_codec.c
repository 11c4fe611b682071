/* game_codec: what a game row holds besides its plain columns, written and read back in this
 * one file: the clocks text (as of the last committed move), the extra text (the referee's
 * counting state, a pause, presence, the lateness limit, a challenge's lapse time, and the move
 * it is current as of), and the replay of the stored moves that rebuilds a game after a
 * restart (game_build). See game.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "game.h"
#include "log.h"
#include "vertex.h"

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
	       a->lateness_limit_s == b->lateness_limit_s && a->late_credit_s == b->late_credit_s &&
	       a->pred_gen == b->pred_gen;
}

/* The row's clocks text from the game's clocks (NULL without a time control). */
static void row_clocks(struct game *g)
{
	free(g->row.clocks);
	g->row.clocks = NULL;
	if (g->cc.system != CLOCK_NONE) {
		json_t *cj = game_clocks_json(g, false);
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
char *game_extra_text(const struct game *g, int at_move, const char *to_move)
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
	put_owned(&o, "claim_B", r->claimed[BLACK] ? game_claims_json(g, BLACK) : NULL);
	put_owned(&o, "claim_W", r->claimed[WHITE] ? game_claims_json(g, WHITE) : NULL);
	put_owned(&o, "score", r->scored ? game_score_json(&r->score) : NULL);
	if (r->disputes > 0) { /* the disputed counts in a row (REFEREE_DISPUTES_MAX) */
		jsonout_lit(&o, ",\"disputes\":");
		jsonout_int(&o, r->disputes);
		jsonout_lit(&o, ",\"dispute_key\":");
		jsonout_int(&o, (long long)r->dispute_key);
	}
	put_owned(&o, "counted_dead", r->settled ? game_points_json(g, r->counted_dead) : NULL);
	if (r->unclaimed) { /* a lapsed count (referee_count_lapse) */
		jsonout_lit(&o, ",\"unclaimed\":");
		jsonout_str(&o, referee_unclaimed_name(r->unclaimed));
	}
	jsonout_lit(&o, ",\"paused\":");
	jsonout_bool(&o, g->paused);
	if (g->turn_used > 0) { /* the part of the turn used before a pause or a clean stop
				* survives a restart (games_keep_turns) */
		jsonout_lit(&o, ",\"turn_used_ms\":");
		jsonout_int(&o, g->turn_used);
	}
	jsonout_lit(&o, ",\"present_B\":");
	jsonout_bool(&o, g->present[BLACK]);
	jsonout_lit(&o, ",\"present_W\":");
	jsonout_bool(&o, g->present[WHITE]);
	jsonout_lit(&o, ",\"lateness_limit_s\":");
	jsonout_int(&o, g->lateness_limit_s);
	if (g->late_credit_s > 0) { /* downtime after the start: no lateness (games_load) */
		jsonout_lit(&o, ",\"late_credit_ms\":");
		jsonout_int(&o, llround(g->late_credit_s * 1000));
	}
	put_owned(&o, "prediction", game_predict_extra_json(g));
	if (g->free_handicap) { /* the placement, and once made the stones (game_build) */
		jsonout_lit(&o, ",\"handicap_placement\":\"free\"");
		put_owned(&o, "handicap_stones", game_handicap_stones_json(g));
	}
	if (g->illegal_color == BLACK || g->illegal_color == WHITE) { /* the move that lost */
		char v[VERTEX_MAX_LEN];
		jsonout_lit(&o, ",\"illegal\":{\"color\":");
		jsonout_str(&o, game_color_name(g->illegal_color));
		jsonout_lit(&o, ",\"vertex\":");
		jsonout_str(&o, vertex_format(&r->board, g->illegal_pt, v));
		jsonout_lit(&o, ",\"offence\":");
		jsonout_str(&o, referee_offence_name(g->illegal_offence));
		jsonout_lit(&o, "}");
	}
	if (r->phase == PHASE_PENDING && g->expires_at > 0) {
		jsonout_lit(&o, ",\"expires_at\":");
		jsonout_int(&o, g->expires_at);
	}
	jsonout_lit(&o, "}");
	return jsonout_finish(&o, 0, NULL);
}

/* Copy the referee's state into the row (phase, result, warnings, counting state) and write
 * it. `move`: a move row with the clocks follows (game_record_move). Then unless the phase changes
 * only the per-move state is written, and if nothing of the row but the clocks and the turn
 * changed (an ordinary move) the row is not written at all: its extra names the move it is
 * current as of ("at_move"), and restore_state takes the clocks and the turn of later moves
 * from the moves themselves. */
void game_save_as(struct server *srv, struct game *g, bool move)
{
	bool state_only = false;
	if (g->started) {
		const struct referee *r = &g->ref;
		const char *phase = game_row_phase(g);
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
		const char *to_move = r->board.to_move != g->replay_to_move ? game_color_name(r->board.to_move) : NULL;
		struct extra_key key = {
			.valid = true, .complex = r->claimed[BLACK] || r->claimed[WHITE] || r->scored,
			.passes = r->passes, .first_passer = r->first_passer,
			.to_move = to_move ? r->board.to_move : EMPTY, .paused = g->paused,
			.turn_used = g->turn_used,
			.present = {g->present[BLACK], g->present[WHITE]},
			.lateness_limit_s = g->lateness_limit_s,
			.late_credit_s = g->late_credit_s,
			.pred_gen = g->pred_gen,
		};
		if (same && extra_key_same(&g->saved, &key)) {
			/* An ordinary move: the row stays as written; the move row has the clocks. */
			row_clocks(g);
			return;
		}
		char *extra = game_extra_text(g, at_move, to_move);
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
		game_persist_failed(srv, "game");
}

void game_save(struct server *srv, struct game *g)
{
	game_save_as(srv, g, false);
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
	bool bad = pt < 0 || (game_is_prediction(x->g)
		? game_predict_replay(x->g, c, pt, m->number) < 0
		: board_play(b, c, pt, NULL, NULL) != BOARD_OK);
	if (bad) {
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

/* The disputed counts in a row, and the count that settled them (game_extra_text). */
static void restore_disputes(struct game *g, json_t *x)
{
	struct referee *r = &g->ref;
	r->disputes = (int)json_integer_value(json_object_get(x, "disputes"));
	r->unclaimed = referee_unclaimed_parse(json_string_value(json_object_get(x, "unclaimed")));
	r->dispute_key = (uint64_t)json_integer_value(json_object_get(x, "dispute_key"));
	json_t *a = json_object_get(x, "counted_dead");
	size_t i;
	json_t *v;
	if (!json_is_array(a))
		return;
	r->settled = true;
	json_array_foreach(a, i, v) {
		int pt = vertex_parse(&r->board, json_string_value(v));
		if (pt > 0)
			r->counted_dead[pt] = true;
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
	/* Art. 14: the clocks resume as they were at the last committed move (a move row's array
	 * or the game row's object; anything else leaves them as initialised). */
	game_clocks_parse(&g->cc, clocks, &g->clk[BLACK], &g->clk[WHITE]);
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
		restore_disputes(g, x);
		json_t *s = json_object_get(x, "score");
		if (s) {
			r->scored = true;
			r->score.black = json_number_value(json_object_get(s, "black"));
			r->score.white = json_number_value(json_object_get(s, "white"));
			r->score.komi = json_number_value(json_object_get(s, "komi"));
		}
		g->paused = json_is_true(json_object_get(x, "paused"));
		/* what the turn had used (a pause, a clean stop), unless moves came after it */
		if (!later)
			g->turn_used = json_integer_value(json_object_get(x, "turn_used_ms"));
		g->present[BLACK] = json_is_true(json_object_get(x, "present_B"));
		g->present[WHITE] = json_is_true(json_object_get(x, "present_W"));
		/* 0: no lateness limit (a board event, or the director's choice) */
		if (json_is_integer(json_object_get(x, "lateness_limit_s")) &&
		    json_integer_value(json_object_get(x, "lateness_limit_s")) >= 0)
			g->lateness_limit_s = (int)json_integer_value(json_object_get(x, "lateness_limit_s"));
		json_int_t credit = json_integer_value(json_object_get(x, "late_credit_ms"));
		g->late_credit_s = credit > 0 ? (double)credit / 1000 : 0;
		g->expires_at = json_integer_value(json_object_get(x, "expires_at"));
		json_t *il = json_object_get(x, "illegal");
		const char *ic = json_string_value(json_object_get(il, "color"));
		if (ic && referee_offence_parse(json_string_value(json_object_get(il, "offence")),
						&g->illegal_offence) == 0) {
			g->illegal_color = strcmp(ic, "W") == 0 ? WHITE : BLACK;
			g->illegal_pt = vertex_parse(&r->board,
						     json_string_value(json_object_get(il, "vertex")));
		}
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

/* g->rules, g->time, g->cc and the default lateness limit from the row's JSON texts. Returns
 * 0, or -1 for a text proto refuses. */
static int game_parse_settings(struct game *g)
{
	struct proto_error err;
	rules_default(&g->rules);
	memset(&g->time, 0, sizeof g->time);
	json_t *w = json_object();
	if (g->row.rules)
		json_object_set_new(w, "rules", json_loads(g->row.rules, 0, NULL));
	if (g->row.time_control)
		json_object_set_new(w, "time", json_loads(g->row.time_control, 0, NULL));
	int r = proto_get_rules_stored(w, "rules", false, &g->rules, &err) < 0 ||
		proto_get_time(w, "time", false, &g->time, &err) < 0 ? -1 : 0;
	json_decref(w);
	game_control_from_time(&g->time, &g->cc);
	g->lateness_limit_s = GAMES_LATENESS_LIMIT_DEFAULT_S;
	return r;
}

/* g->free_handicap from the row's extra (handicap_placement "free"), before the referee
 * starts: a free placement starts with no stone placed. */
static void free_handicap_mode(struct game *g)
{
	json_t *x = g->row.extra ? json_loads(g->row.extra, 0, NULL) : NULL;
	const char *hp = x ? json_string_value(json_object_get(x, "handicap_placement")) : NULL;
	g->free_handicap = hp && strcmp(hp, "free") == 0;
	json_decref(x);
}

/* The free handicap stones placed before the restart (the extra's handicap_stones), placed
 * again before the moves are replayed. Returns 0 (also when none were placed yet), or -1 for
 * stones the referee refuses (a broken record). */
static int free_handicap_restore(struct game *g)
{
	if (!g->free_handicap)
		return 0;
	json_t *x = g->row.extra ? json_loads(g->row.extra, 0, NULL) : NULL;
	json_t *a = x ? json_object_get(x, "handicap_stones") : NULL;
	int pts[9], n = 0, rc = 0;
	size_t i;
	json_t *v;
	if (json_is_array(a) && json_array_size(a) > 0) {
		json_array_foreach(a, i, v) {
			if (n == 9) {
				rc = -1;
				break;
			}
			const char *s = json_string_value(v);
			pts[n++] = s ? vertex_parse(&g->ref.board, s) : -1;
		}
		if (rc == 0 && referee_place_free(&g->ref, BLACK, pts, n, NULL) != REFEREE_PLACE_OK)
			rc = -1;
	}
	json_decref(x);
	return rc;
}

/* A struct game for row `row` (copied; its strings are taken over), with the referee rebuilt
 * from `moves` (or from the store when moves is NULL). NULL on a broken record (logged). */
struct game *game_build(struct server *srv, struct store_game *row,
			const struct store_move *moves, size_t nmoves)
{
	struct game *g = game_alloc();
	if (!g)
		return NULL;
	g->id = row->id;
	g->row = *row;
	memset(row, 0, sizeof *row);
	if (game_parse_settings(g) < 0 || game_names_of(srv, g) < 0)
		goto bad;
	free_handicap_mode(g);
	if (game_start_referee(g) < 0 || free_handicap_restore(g) < 0)
		goto bad;
	game_predict_preload(g);
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
	game_predict_restore(g);
	default_expiry(g);
	free(x.last_clocks);
	return g;
bad:
	log_msg(LOGL_ERROR, "game_load", "game=%lld", (long long)g->id);
	game_free(g);
	return NULL;
}

/* ---- building games ---- */

int game_names_of(struct server *srv, struct game *g)
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

int game_start_referee(struct game *g)
{
	g->rs = ruleset_of_rules(&g->rules); /* the rules object names the ruleset */
	if (g->free_handicap ? referee_init_free(&g->ref, g->row.size, g->row.komi, g->row.handicap,
						 &g->rules) < 0
			     : referee_init_ruleset(&g->ref, g->rs, g->row.size, g->row.komi,
						    g->row.handicap, &g->rules) < 0)
		return -1;
	g->started = true;
	g->replay_to_move = g->ref.board.to_move;
	if (g->cc.system != CLOCK_NONE) {
		clock_init(&g->cc, &g->clk[BLACK]);
		clock_init(&g->cc, &g->clk[WHITE]);
	}
	return 0;
}
