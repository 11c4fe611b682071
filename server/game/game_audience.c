/* game_audience: who receives which event of a game: both players (every connection of each)
 * and its observers; game.start, game.move, game.end, the state sent at login. See game.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "game.h"
#include "log.h"
#include "vertex.h"

static struct games_hooks hooks;

void games_set_hooks(const struct games_hooks *h)
{
	if (h)
		hooks = *h;
	else
		memset(&hooks, 0, sizeof hooks);
}

/* ---- audiences ---- */

/* One line (len bytes with its "\n") to both players and every observer. */
void game_send_line(struct server *srv, struct game *g, const char *line, size_t len)
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

void game_send(struct server *srv, struct game *g, const json_t *msg)
{
	/* Serialise once; the same bytes go to both players and every observer. */
	size_t len;
	char *line = proto_serialize(msg, &len);
	if (!line) {
		log_msg(LOGL_ERROR, "serialize", "game=%lld", (long long)g->id);
		return;
	}
	game_send_line(srv, g, line, len);
	free(line);
}

void game_send_end(struct server *srv, struct game *g)
{
	json_t *e = proto_event("game.end");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "result", json_string(g->ref.result));
	json_object_set_new(e, "reason", json_string(referee_reason_name(g->ref.reason)));
	if (g->ref.scored)
		json_object_set_new(e, "score", game_is_prediction(g)
					? game_predict_score_json(&g->ref.score)
					: game_score_json(&g->ref.score));
	if (g->ref.unclaimed) /* the count lapsed: who had not claimed (referee_count_lapse) */
		json_object_set_new(e, "unclaimed",
				    json_string(referee_unclaimed_name(g->ref.unclaimed)));
	else if (g->ref.settled) /* the dispute the count settled (REFEREE_DISPUTES_MAX, Art. 21.4) */
		json_object_set_new(e, "disputes", json_integer(g->ref.disputes));
	if (g->row.rated && hooks.ended && hooks.ended(srv, g->id, e) < 0)
		game_persist_failed(srv, "ratings");
	game_send(srv, g, e);
	json_decref(e);
	log_msg(LOGL_INFO, "game_end", "game=%lld result=%s reason=%s", (long long)g->id,
		g->ref.result, referee_reason_name(g->ref.reason));
}

/* A game that ended leaves memory; queries read it back from the store. */
void game_retire(struct server *srv, struct game *g)
{
	for (size_t i = 0; i < g->nobs; i++) {
		struct conn *c = g->obs[i];
		for (size_t k = 0; k < c->nobs; k++)
			if (c->observing[k] == g->id) {
				c->observing[k] = c->observing[--c->nobs];
				break;
			}
	}
	game_index_del(srv, g);
	idmap_del(&srv->games, g->id);
	game_free(g);
}

void game_send_start(struct server *srv, struct game *g)
{
	/* an entrant as entered, as in the game object */
	json_t *black = game_player_name_json(srv, g, g->row.black_id, g->black);
	json_t *white = game_player_name_json(srv, g, g->row.white_id, g->white);
	for (int i = 0; i < 2; i++) {
		enum color col = i == 0 ? BLACK : WHITE;
		json_t *e = proto_event("game.start");
		json_object_set_new(e, "game", json_integer(g->id));
		json_object_set(e, "black", black);
		json_object_set(e, "white", white);
		json_object_set_new(e, "size", json_integer(g->row.size));
		json_object_set_new(e, "komi", json_real(g->row.komi));
		json_object_set_new(e, "handicap", json_integer(g->row.handicap));
		json_object_set_new(e, "handicap_placement", json_string(game_handicap_placement(g)));
		json_object_set_new(e, "time", proto_time_to_json(&g->time));
		json_object_set_new(e, "rules", proto_rules_to_json(&g->rules));
		json_object_set_new(e, "rated", json_boolean(g->row.rated));
		json_object_set_new(e, "color", json_string(game_color_name(col)));
		json_t *pb = hooks.player_brief ? hooks.player_brief(srv, g->row.black_id) : NULL;
		json_t *pw = hooks.player_brief ? hooks.player_brief(srv, g->row.white_id) : NULL;
		if (game_is_prediction(g)) { /* seed 000: no colours yet, the roles instead */
			bool first_b = game_role_col(g, PREDICT_FIRST) == BLACK;
			json_object_set_new(e, "players", json_pack("{s:o?, s:o?}", "first",
					first_b ? pb : pw, "second", first_b ? pw : pb));
		} else {
			json_object_set_new(e, "players", json_pack("{s:o?, s:o?}", "B", pb, "W", pw));
		}
		json_object_set_new(e, "tournament", g->row.tournament_id ? json_integer(g->row.tournament_id) : json_null());
		json_object_set_new(e, "round", g->row.round ? json_integer(g->row.round) : json_null());
		json_object_set_new(e, "start_at", g->row.start_at ? json_real(g->row.start_at) : json_null());
		if (game_is_prediction(g)) { /* seed 000: first and second; colours come later */
			json_object_set_new(e, "ruleset", json_string("prediction"));
			json_object_set_new(e, "first", json_string(game_predict_name(g, PREDICT_FIRST)));
			json_object_set_new(e, "second", json_string(game_predict_name(g, PREDICT_SECOND)));
			json_object_set_new(e, "black", json_null());
			json_object_set_new(e, "white", json_null());
			json_object_set_new(e, "komi", json_null());
			json_object_set_new(e, "color", json_null());
		}
		server_send_player(srv, col == BLACK ? g->row.black_id : g->row.white_id, e);
		json_decref(e);
	}
	json_decref(black);
	json_decref(white);
	/* Observers of the challenge (it could be observed while pending) learn that it began,
	 * with its colours, as a player logging in does: game.state */
	json_t *st = NULL;
	for (size_t i = g->nobs; i-- > 0;) {
		struct conn *c = g->obs[i];
		if (c->player_id == g->row.black_id || c->player_id == g->row.white_id)
			continue;
		if (!st) {
			st = proto_event("game.state");
			json_object_set_new(st, "game", game_json(srv, g));
		}
		server_send(c, st);
	}
	json_decref(st);
}

/* The committed clocks of a recorded move as JSON text: game_record_move left them in the row
 * (game_save_as, row_clocks: the text of game_clocks_json(g, false)); "null" without clocks. */
static const char *move_clocks_text(const struct game *g)
{
	return g->row.clocks ? g->row.clocks : "null";
}

void game_send_challenge(struct server *srv, const struct game *g, const char *from, int64_t to_id)
{
	json_t *e = proto_event("challenge");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "from", json_string(from));
	json_object_set_new(e, "settings", game_settings_json(g));
	json_object_set_new(e, "expires_at", json_integer(g->expires_at));
	server_send_player(srv, to_id, e);
	json_decref(e);
}

/* The fields of a move object after its "number" key, as the move reply and the game.move
 * event write them: number, color, vertex, captures, forfeited? (event only), clocks. */
static void put_move_fields(struct jsonout *o, const struct game *g, enum color me,
			    const struct referee_move *m, const char *forfeited)
{
	char v[VERTEX_MAX_LEN];
	jsonout_int(o, m->number);
	jsonout_lit(o, ",\"color\":");
	jsonout_str(o, game_color_name(me));
	jsonout_lit(o, ",\"vertex\":");
	jsonout_str(o, vertex_format(&g->ref.board, m->pt, v));
	jsonout_lit(o, ",\"captures\":[");
	for (int i = 0; i < m->ncaptured; i++) {
		if (i)
			jsonout_lit(o, ",");
		jsonout_str(o, vertex_format(&g->ref.board, m->captured[i], v));
	}
	jsonout_lit(o, "]");
	if (game_is_prediction(g)) { /* seed 000: whose chains the move removed */
		jsonout_lit(o, ",\"removed\":");
		if (m->removed == EMPTY)
			jsonout_lit(o, "null");
		else
			jsonout_str(o, m->removed == me ? "own" : "opponent");
	}
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
 * that key order (tests/integration/test_play compares them). */

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

void game_send_move(struct server *srv, struct game *g, enum color me,
		    const struct referee_move *m, const char *forfeit)
{
	size_t len;
	char *line = move_event_line(g, me, m, forfeit, &len);
	if (line)
		game_send_line(srv, g, line, len);
	else
		log_msg(LOGL_ERROR, "serialize", "game=%lld", (long long)g->id);
	free(line);
}

/* {"id":…,"ok":true,"move":{"number":…,…}} and "\n"; NULL when memory runs out. */
char *game_move_reply_line(const struct game *g, enum color me, const struct referee_move *m,
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

int game_observer_add(struct game *g, struct conn *c, size_t max)
{
	bool already = false;
	size_t others = 0; /* observers other than the game's players (their pages observe too) */
	for (size_t i = 0; i < g->nobs; i++) {
		already |= g->obs[i] == c;
		others += g->obs[i]->player_id != g->row.black_id &&
			  g->obs[i]->player_id != g->row.white_id;
	}
	if (!already && max && others >= max)
		return -2;
	if (!already) {
		if (g->nobs == g->capobs) {
			size_t n = g->capobs ? g->capobs * 2 : 4;
			struct conn **no = realloc(g->obs, n * sizeof *no);
			if (!no)
				return -1;
			g->obs = no;
			g->capobs = n;
		}
		if (c->nobs == c->capobs) {
			size_t n = c->capobs ? c->capobs * 2 : 4;
			int64_t *no = realloc(c->observing, n * sizeof *no);
			if (!no)
				return -1;
			c->observing = no;
			c->capobs = n;
		}
		g->obs[g->nobs++] = c;
		c->observing[c->nobs++] = g->id;
	}
	return 0;
}

void game_unobserve(struct server *srv, struct conn *c, int64_t id)
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

void games_conn_gone(struct server *srv, struct conn *c)
{
	while (c->nobs)
		game_unobserve(srv, c, c->observing[c->nobs - 1]);
}

void games_player_login(struct conn *c)
{
	/* Send the state of each live game of this player (reconnects resume play), oldest
	 * first. */
	size_t m;
	struct game *const *mine = game_index_of(c->srv, c->player_id, &m);
	for (size_t i = 0; i < m; i++) {
		struct game *g = mine[i];
		if (g->ref.phase == PHASE_PENDING || game_color_of(g, c->player_id) == EMPTY)
			continue;
		json_t *e = proto_event("game.state");
		json_object_set_new(e, "game", game_json(c->srv, g));
		server_send(c, e);
		json_decref(e);
	}
	/* Pending challenges: the oldest few and the counts, however many there are (issue 20:
	 * thousands of them once cut a player off before the login reply got out). */
	size_t n, sent = 0;
	struct game **p = game_pending_of(c->srv, c->player_id, &n);
	if (n == 0) {
		free(p);
		return;
	}
	for (size_t i = 0; i < n && i < GAMES_LOGIN_CHALLENGES; i++) {
		json_t *e = proto_event("challenge.pending");
		json_object_set_new(e, "game", game_json(c->srv, p[i]));
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
