/* cmd_games: the game commands (docs/protocol.md): parse the request, act on the game layer
 * (game.h), reply. See cmd_games.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_games.h"
#include "game.h"
#include "rating.h"
#include "tour.h"
#include "tournaments.h"
#include "vertex.h"


/* Lag credit for a move from c (issue 4): the kernel's smoothed round-trip time of c's TCP
 * connection, our own measure, never the client's word; at most `allowance_ms`. */
static int64_t lag_credit(struct conn *c, int64_t allowance_ms)
{
	return conn_lag_credit_ms(c, allowance_ms);
}

struct game *cmd_game_find(struct conn *c, const struct proto_request *req, bool *owned)
{
	struct proto_error err;
	int64_t id;
	*owned = false;
	if (proto_get_id(req->root, "game", true, &id, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return NULL;
	}
	struct game *g = game_get(c->srv, id, owned);
	if (!g)
		server_reply_error(c, req->id, PROTO_ERR_NOT_FOUND, "no game %lld", (long long)id);
	return g;
}

/* The live game `game` in which c plays, in one of the phases wanted; replies and returns
 * NULL otherwise. */
static struct game *my_game(struct conn *c, const struct proto_request *req, enum color *color)
{
	bool owned;
	struct game *g = cmd_game_find(c, req, &owned);
	if (!g)
		return NULL;
	if (owned) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is over", (long long)g->id);
		game_free(g);
		return NULL;
	}
	*color = game_color_of(g, c->player_id);
	if (*color == EMPTY) {
		server_reply_error(c, req->id, PROTO_ERR_FORBIDDEN, "you do not play in game %lld",
				   (long long)g->id);
		return NULL;
	}
	return g;
}

/* ---- commands ---- */

static const char *const color_choices[] = {"nigiri", "black", "white", "auto"};
#define COLOR_AUTO 3 /* (extension) resolved at the challenge: resolve_auto_color */
/* Prediction ruleset: `first`, stored in the row's colour choice: "me" as "black" (the
 * challenger first), "opponent" as "white", "nigiri" as it is. */
static const char *const first_choices[] = {"nigiri", "me", "opponent"};
/* `handicap_placement`: GTP's fixed points (Art. 2), or Black places them (GTP 2 §6.3.3). */
static const char *const placement_choices[] = {"fixed", "free"};

/* `color: "auto"` (extension; OGS's "automatic"): in a handicap game the lower-rated player
 * takes Black, the stones being the weaker player's (Chinese Rules 2002, Art. 2; docs/rules.md
 * Art. 10); an even game, equal ratings, or a player whose strength is unknown (a new account
 * without a declared rank: 1500 at the ceiling RD, RATING_RD_MAX), nigiri. The choice as
 * stored: 0 nigiri, 1 black, 2 white (the challenger's colour). */
static int resolve_auto_color(const struct store_player *me, const struct store_player *them,
			      int64_t handicap)
{
	if (handicap < 2 || me->rating == them->rating || me->rd >= RATING_RD_MAX ||
	    them->rd >= RATING_RD_MAX)
		return 0;
	return me->rating < them->rating ? 1 : 2;
}

void games_challenge(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	struct proto_error err;
	const char *opponent;
	const struct ruleset *rs = ruleset_default(); /* a challenge names no other yet */
	int64_t size = RULES_DEFAULT_SIZE, handicap = 0;
	double komi = rs->default_komi;
	bool rated = true;
	int choice = 0;
	int64_t expires_s = GAMES_CHALLENGE_TTL_S;
	struct game_challenge_spec s = {0};
	rules_default(&s.rules);
	if (proto_get_name(req->root, "opponent", true, &opponent, &err) < 0 ||
	    proto_get_int(req->root, "size", false, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &size, &err) < 0 ||
	    proto_get_number(req->root, "komi", false, -GAMES_KOMI_MAX, GAMES_KOMI_MAX, &komi, &err) < 0 ||
	    proto_get_int(req->root, "handicap", false, 0, GAMES_HANDICAP_MAX, &handicap, &err) < 0 ||
	    proto_get_time(req->root, "time", false, &s.time, &err) < 0 ||
	    proto_get_bool(req->root, "rated", false, &rated, &err) < 0 ||
	    proto_get_choice(req->root, "color", false, color_choices, 4, &choice, &err) < 0 ||
	    proto_get_rules(req->root, "rules", false, &s.rules, &err) < 0 ||
	    proto_get_int(req->root, "expires_s", false, 1, GAMES_CHALLENGE_TTL_S, &expires_s, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	int first = 0, placement = 0;
	if (proto_get_choice(req->root, "first", false, first_choices, 3, &first, &err) < 0 ||
	    proto_get_choice(req->root, "handicap_placement", false, placement_choices, 2, &placement,
			     &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (s.rules.ruleset == RULESET_PREDICTION) {
		/* seed 000: no komi, colour or handicap; the bar comes from the predictions */
		rs = ruleset_of_rules(&s.rules);
		if (handicap > 0) {
			server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'handicap': the "
					   "prediction ruleset has no handicap");
			return;
		}
		komi = rs->default_komi;
		choice = first;
	} else if (first) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'first': only with "
				   "rules.ruleset \"prediction\"");
		return;
	}
	if (komi * 2 != floor(komi * 2)) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
				   "field 'komi': must be a whole or half number of points");
		return;
	}
	int pts[9];
	if (handicap == 1 || (handicap > 1 && rs->opening((int)size, (int)handicap, pts, (int)size + 2) < 0)) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
				   "field 'handicap': %lld %s cannot be placed on %lldx%lld (0, or 2 to 9 "
				   "on the GTP fixed points)", (long long)handicap,
				   handicap == 1 ? "stone" : "stones", (long long)size, (long long)size);
		return;
	}
	if (placement && handicap < 2) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'handicap_placement': "
				   "\"free\" needs a handicap of 2 to 9 stones");
		return;
	}
	struct store_player opp;
	if (store_player_by_name(srv->store, opponent, &opp) != STORE_OK) {
		server_reply_error(c, req->id, PROTO_ERR_NOT_FOUND, "no player named '%s'", opponent);
		return;
	}
	if (opp.id == c->player_id) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'opponent': you cannot challenge yourself");
		return;
	}
	size_t out_n = game_pending_count(srv, c->player_id, true), in_n = game_pending_count(srv, opp.id, false);
	if (out_n >= GAMES_CHALLENGES_OUT_MAX) {
		server_reply_error(c, req->id, PROTO_ERR_RATE_LIMITED, "you have %d pending challenges, "
				   "the most allowed: wait for answers or withdraw some (decline)",
				   GAMES_CHALLENGES_OUT_MAX);
		return;
	}
	if (in_n >= GAMES_CHALLENGES_IN_MAX) {
		server_reply_error(c, req->id, PROTO_ERR_RATE_LIMITED, "'%s' has %d pending challenges, "
				   "the most allowed: try again later", opp.name, GAMES_CHALLENGES_IN_MAX);
		return;
	}
	const char *why;
	if (games_time_check(&s.time, &why) < 0) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'time': %s", why);
		return;
	}
	s.challenger_id = c->player_id;
	s.opponent_id = opp.id;
	s.challenger = c->name;
	s.opponent = opp.name;
	s.size = (int)size;
	s.komi = komi;
	s.handicap = (int)handicap;
	s.free_handicap = placement == 1;
	s.rated = rated;
	if (choice == COLOR_AUTO) {
		struct store_player me;
		if (store_player_by_id(srv->store, c->player_id, &me) != STORE_OK) {
			server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "cannot read your rating");
			return;
		}
		choice = resolve_auto_color(&me, &opp, handicap);
	}
	s.color_choice = color_choices[choice];
	s.expires_s = expires_s;
	int wait = game_challenge_take(srv, c->player_id, server_now());
	if (wait != 0) {
		if (wait < 0)
			server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "out of memory");
		else
			server_reply_error(c, req->id, PROTO_ERR_RATE_LIMITED, "you made %d challenges "
					   "in %d seconds, the most allowed: try again in %d s",
					   GAMES_CHALLENGES_PER_WINDOW, GAMES_CHALLENGE_WINDOW_S, wait);
		return;
	}
	struct game *g = game_challenge_new(srv, &s, &why);
	if (!g) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "%s", why);
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "game", json_integer(g->id));
	if (s.rules.ruleset != RULESET_PREDICTION) /* the challenger's colour as settled here */
		json_object_set_new(r, "color", json_string(s.color_choice));
	server_reply(c, r);
	game_send_challenge(srv, g, c->name, opp.id);
}

/* Is g in phase `want`? Replies conflict if not. */
static bool is_live(struct conn *c, const struct proto_request *req, struct game *g, enum game_phase want)
{
	if (g->ref.phase != want) {
		/* a started game's own phase: the row keeps `playing` through a prediction game's
		 * opening and predictions */
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is %s, not %s",
				   (long long)g->id, g->started ? referee_phase_name(g->ref.phase)
				   : g->row.phase, referee_phase_name(want));
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
	game_accept(srv, g, c->player_id, c->name);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "game", json_integer(g->id));
	if (game_is_prediction(g)) { /* colours come with the predictions */
		json_object_set_new(r, "color", json_null());
		json_object_set_new(r, "first", json_string(game_predict_name(g, PREDICT_FIRST)));
	} else {
		json_object_set_new(r, "color", json_string(game_color_name(game_color_of(g, c->player_id))));
	}
	server_reply(c, r);
	game_send_start(srv, g);
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
	server_txn(srv);
	game_save(srv, g);
	server_reply(c, proto_reply_ok(req->id));
	json_t *e = proto_event("challenge.declined");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "by", json_string(c->name));
	game_send(srv, g, e); /* both players and the challenge's observers */
	json_decref(e);
	game_retire(srv, g);
}

void games_play(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	struct proto_error err;
	const char *vtx;
	int64_t number = 0;
	enum color me;
	struct game *g = my_game(c, req, &me);
	if (!g || !is_live(c, req, g, g->ref.phase == PHASE_OPENING ? PHASE_OPENING : PHASE_PLAYING))
		return;
	int x, y, rm = 0;
	static const char *const removes[] = {"opponent", "own"};
	if (proto_get_choice(req->root, "remove", false, removes, 2, &rm, &err) < 0 ||
	    proto_get_vertex(req->root, "vertex", true, &vtx, &err) < 0 ||
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
	if (g->ref.placing) { /* nothing changes: no warning, no forfeit */
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld: Black places the %d free "
				   "handicap stones first (command 'handicap'), then White moves",
				   (long long)g->id, g->ref.handicap);
		return;
	}
	g->choice = rm ? CAPTURE_OWN : CAPTURE_OPPONENT;
	bool opening = g->ref.phase == PHASE_OPENING;
	if (opening && game_col_role(g, me) != game_predict_placer(g)) {
		/* seed 000, Art. 5.2: no warning, the server says whose placement is due */
		json_t *r = proto_reply_error(req->id, PROTO_ERR_ILLEGAL_MOVE, "");
		json_t *e = json_object_get(r, "error");
		json_object_set_new(e, "message", json_string("the opening placement due is the "
							      "other player's"));
		json_object_set_new(e, "reason", json_string("not_your_turn"));
		json_object_set_new(e, "penalty", json_pack("{s:b, s:b, s:i, s:b}", "forfeit_turn", 0,
							    "warning", 0, "warnings", 0, "lost", 0));
		server_reply(c, r);
		return;
	}
	server_txn(srv);
	bool charged = opening ? g->cc.system != CLOCK_NONE : game_move_charges(g, me);
	int64_t lag = charged ? lag_credit(c, srv->set.lag_allowance_ms) : 0;
	int64_t id = g->id;
	struct referee_move m;
	int pt = vertex_parse(&g->ref.board, vtx);
	if (opening)
		me = g->ref.board.to_move; /* the colour of the stone due */
	enum game_move_rc rc = opening
		? game_place(srv, g, game_col_role(g, game_color_of(g, c->player_id)), pt, c->read_ms, lag, &m)
		: game_move(srv, g, me, pt, c->read_ms, lag, &m);
	if (rc != GAME_MOVE_PLAYED) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "your time ran out in game %lld%s",
				   (long long)id, rc == GAME_MOVE_FLAG_ENDED ? "" : ": the turn was forfeited");
		return;
	}

	/* The reply. */
	if (m.offence == OFFENCE_NONE) {
		size_t len;
		char *line = game_move_reply_line(g, me, &m, req->id, &len);
		if (line)
			server_send_raw(c, line, len);
		else
			server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "out of memory");
		free(line);
	} else {
		json_t *r = proto_reply_error(req->id, PROTO_ERR_ILLEGAL_MOVE, "");
		json_t *e = json_object_get(r, "error");
		char msg[192];
		snprintf(msg, sizeof msg, "%s at %s: %s%s%s", game_offence_text(m.offence), vtx,
			 m.lost ? "the game is lost" : m.voided ? "the game is void (Art. 20.3)" :
			 m.forfeit_turn ? "the turn is forfeited (Art. 19)" :
			 game_is_prediction(g) && !m.warning ? "refused, nothing changes" :
			 "the move is void (Art. 17.2)",
			 m.warning && !m.lost ? ", and a warning is given: " : "",
			 m.warning && !m.lost ? (g->ref.warnings[me] == 1 ? "1 of 2, a second one loses" : "2") : "");
		json_object_set_new(e, "message", json_string(msg));
		json_object_set_new(e, "reason", json_string(referee_offence_name(m.offence)));
		json_object_set_new(e, "penalty", json_pack("{s:b, s:b, s:i, s:b}", "forfeit_turn",
			m.forfeit_turn, "warning", m.warning, "warnings", g->ref.warnings[me], "lost", m.lost));
		server_reply(c, r);
	}
	game_announce_move(srv, g, me, &m, NULL);
}

/* Why referee_place_free refused (the reply's message). */
static const char *place_refusal(enum referee_place_rc rc)
{
	switch (rc) {
	case REFEREE_PLACE_NOT_PLACING: return "no handicap placement is due";
	case REFEREE_PLACE_NOT_BLACK: return "only Black places the handicap stones";
	case REFEREE_PLACE_COUNT: return "wrong number of stones";
	case REFEREE_PLACE_OFF_BOARD: return "not a point of the board";
	case REFEREE_PLACE_DUPLICATE: return "the same point twice";
	case REFEREE_PLACE_OCCUPIED: return "the point is not empty";
	default: return "refused";
	}
}

void games_handicap(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	struct proto_error err;
	const json_t *stones;
	enum color me;
	struct game *g = my_game(c, req, &me);
	if (!g || !is_live(c, req, g, PHASE_PLAYING))
		return;
	if (proto_get_vertices(req->root, "stones", true, PROTO_VERTICES_MAX, &stones, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (!g->ref.placing) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld: %s", (long long)g->id,
				   g->free_handicap ? "the handicap stones are already placed" :
				   "the game has no free handicap placement");
		return;
	}
	if (me != BLACK) {
		server_reply_error(c, req->id, PROTO_ERR_FORBIDDEN, "game %lld: %s", (long long)g->id,
				   place_refusal(REFEREE_PLACE_NOT_BLACK));
		return;
	}
	if (g->paused) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is paused", (long long)g->id);
		return;
	}
	size_t n = json_array_size(stones);
	if (n != (size_t)g->ref.handicap) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'stones': %d stones are "
				   "due, not %zu", g->ref.handicap, n);
		return;
	}
	int pts[PROTO_VERTICES_MAX];
	for (size_t i = 0; i < n; i++) {
		const char *s = json_string_value(json_array_get(stones, i));
		int rc = proto_vertex_check("stones", s, g->row.size, NULL, NULL, &err);
		if (rc <= 0) {
			if (rc == 0) /* a pass */
				proto_error_set(&err, PROTO_ERR_BAD_REQUEST, "field 'stones': 'pass' is "
						"not a point");
			server_reply(c, proto_reply_error_from(req->id, &err));
			return;
		}
		pts[i] = vertex_parse(&g->ref.board, s);
	}
	enum referee_place_rc prc;
	int bad;
	int64_t id = g->id;
	int64_t lag = game_clock_running(g) ? lag_credit(c, srv->set.lag_allowance_ms) : 0;
	enum game_move_rc rc = game_place_handicap(srv, g, me, pts, (int)n, c->read_ms, lag, &prc, &bad);
	if (rc != GAME_MOVE_PLAYED) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "your time ran out in game %lld%s",
				   (long long)id, rc == GAME_MOVE_FLAG_ENDED ? "" : ": the turn was forfeited");
		return;
	}
	if (prc != REFEREE_PLACE_OK) {
		json_t *r = proto_reply_error(req->id, PROTO_ERR_ILLEGAL_MOVE, "");
		json_t *e = json_object_get(r, "error");
		char msg[160], vtx[VERTEX_MAX_LEN] = "";
		if (bad >= 0) /* as the server writes vertices: upper case (c3 -> C3) */
			vertex_format(&g->ref.board, pts[bad], vtx);
		snprintf(msg, sizeof msg, "%s%s%s: nothing is placed", place_refusal(prc),
			 bad >= 0 ? " at " : "", vtx);
		json_object_set_new(e, "message", json_string(msg));
		json_object_set_new(e, "reason", json_string(prc == REFEREE_PLACE_DUPLICATE ? "duplicate"
							     : "occupied"));
		server_reply(c, r);
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "game", json_integer(g->id));
	json_object_set_new(r, "stones", game_handicap_stones_json(g));
	server_reply(c, r);
	game_announce_handicap(srv, g);
}

void games_join(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	enum color me;
	struct game *g = my_game(c, req, &me);
	if (!g)
		return;
	if (g->ref.phase != PHASE_SCHEDULED && g->ref.phase != PHASE_PLAYING &&
	    !game_predict_before_play(g)) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is %s: nothing to join",
				   (long long)g->id, referee_phase_name(g->ref.phase));
		return;
	}
	bool was = g->present[me];
	server_txn(srv);
	int64_t late_ms = game_mark_present(g, me);
	game_save(srv, g);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "game", json_integer(g->id));
	json_object_set_new(r, "color", json_string(game_color_name(me)));
	json_object_set_new(r, "late_ms", json_integer(late_ms));
	json_object_set_new(r, "clocks", game_clocks_json(g, true));
	server_reply(c, r);
	if (!was) {
		json_t *e = proto_event("game.join");
		json_object_set_new(e, "game", json_integer(g->id));
		json_object_set_new(e, "color", json_string(game_color_name(me)));
		json_object_set_new(e, "late_ms", json_integer(late_ms));
		game_send(srv, g, e);
		json_decref(e);
	}
	/* A game without a start time (a board event) begins when both have joined. */
	if (g->ref.phase == PHASE_SCHEDULED && g->row.start_at <= 0 && g->present[BLACK] &&
	    g->present[WHITE])
		game_begin(srv, g);
	game_arm(g);
}

/* Art. 14: a director pauses or resumes a game; no clock runs while paused. */
static void pause_resume(struct conn *c, const struct proto_request *req, bool pause)
{
	struct server *srv = c->srv;
	bool owned;
	struct game *g = cmd_game_find(c, req, &owned);
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
	game_pause(srv, g, pause, c->name);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "clocks", game_clocks_json(g, true));
	server_reply(c, r);
	game_announce_pause(srv, g, pause, c->name);
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
	if (game_predict_before_play(g)) { /* seed 000: before the colours, the winner is White */
		json_t *r = proto_reply_ok(req->id);
		json_object_set_new(r, "result", json_string(g->rs->result_win(WHITE,
									   RULESET_WIN_RESIGNATION)));
		server_reply(c, r);
		game_predict_lose(srv, g, game_col_role(g, me), RULESET_WIN_RESIGNATION);
		return;
	}
	if (referee_resign(&g->ref, me) < 0) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is %s: nothing to resign",
				   (long long)g->id, g->row.phase);
		return;
	}
	server_txn(srv);
	if (g->ref.board.to_move == me && game_clock_running(g))
		clock_peek(&g->cc, &g->clk[me], game_turn_elapsed(g), &g->clk[me]);
	game_save(srv, g);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "result", json_string(g->ref.result));
	server_reply(c, r);
	game_send_end(srv, g);
	game_retire(srv, g);
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
	server_txn(srv);
	game_save(srv, g);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "ended", json_boolean(ended));
	json_object_set_new(r, "resumed", json_boolean(resumed));
	server_reply(c, r);
	json_t *e = proto_event("game.dead");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "color", json_string(game_color_name(me)));
	json_object_set_new(e, "stones", game_claims_json(g, me));
	game_send(srv, g, e);
	json_decref(e);
	if (resumed) {
		e = proto_event("game.resume");
		json_object_set_new(e, "game", json_integer(g->id));
		json_object_set_new(e, "to_move", json_string(game_color_name(g->ref.board.to_move)));
		game_send(srv, g, e);
		json_decref(e);
		game_turn_restart(g);
		game_arm(g);
	}
	if (ended) {
		game_send_end(srv, g);
		game_retire(srv, g);
	}
}

void games_game(struct conn *c, const struct proto_request *req)
{
	bool owned;
	struct game *g = cmd_game_find(c, req, &owned);
	if (!g)
		return;
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "game", game_json(c->srv, g));
	server_reply(c, r);
	if (owned)
		game_free(g);
}

#define LIST_NAMES 256 /* players' names a listing keeps, by id modulo this */
/* bytes of a listed name: an account's, or an entrant's as entered (issue 16) */
#define LIST_NAME_SIZE (STORE_FULL_NAME_MAX > STORE_NAME_MAX ? STORE_FULL_NAME_MAX + 1 \
							     : STORE_NAME_MAX + 1)

struct list_name {
	int64_t id;             /* 0: none */
	char name[LIST_NAME_SIZE];
};

struct list_ctx {
	struct server *srv;
	json_t *arr;
	size_t limit;           /* games on the page; the store is asked for one more */
	int64_t last;           /* the id of the page's last game */
	bool more;              /* a game past the page was seen: `last` is the next cursor */
	struct list_name names[LIST_NAMES];
};

/* Copy player `id`'s name ("?" if none) to out: from the names l keeps, else from the store
 * (a statement and a lock of the database file each, most of a page's cost when every game
 * asked for its two). An entrant without an account (tournament.register `entrant`) is named
 * as entered, as the tournament's field names it, not by its internal players row name. */
static void list_name(struct list_ctx *l, int64_t id, char out[LIST_NAME_SIZE])
{
	struct list_name *n = &l->names[(uint64_t)id % LIST_NAMES];
	struct store_player p;
	struct store_profile prof;
	if (!id || n->id != id) {
		if (store_player_by_id(l->srv->store, id, &p) != STORE_OK) {
			snprintf(out, LIST_NAME_SIZE, "?");
			return;
		}
		n->id = id;
		bool entrant = store_profile_get(l->srv->store, id, &prof) == STORE_OK &&
			       prof.entrant && prof.full_name[0];
		snprintf(n->name, sizeof n->name, "%s", entrant ? prof.full_name : p.name);
	}
	memcpy(out, n->name, sizeof n->name);
}

static int list_cb(void *ctx, const struct store_game *row)
{
	struct list_ctx *l = ctx;
	if (json_array_size(l->arr) == l->limit) {
		l->more = true;
		return 1;
	}
	l->last = row->id;
	char bn[LIST_NAME_SIZE], wn[LIST_NAME_SIZE];
	list_name(l, row->black_id, bn);
	list_name(l, row->white_id, wn);
	/* seed 000: the row's phase column holds `playing` through the opening and the
	 * predictions; a live game knows its true phase */
	const char *phase = row->phase;
	struct game *g = strcmp(row->phase, "playing") == 0 ? game_live(l->srv, row->id) : NULL;
	if (g && (g->ref.phase == PHASE_OPENING || g->ref.phase == PHASE_PREDICTING))
		phase = referee_phase_name(g->ref.phase);
	json_t *o = json_pack("{s:I, s:s, s:s, s:i, s:f, s:i, s:s, s:b}", "id", (json_int_t)row->id,
			      "black", bn, "white", wn, "size", row->size, "komi", row->komi, "handicap",
			      row->handicap, "phase", phase, "rated", row->rated);
	if (strcmp(row->phase, "pending") == 0) { /* as the game object: colours at accept */
		struct game *pg = game_live(l->srv, row->id);
		if (pg && game_nigiri_pending(pg))
			json_object_set_new(o, "nigiri", json_true());
	} else if (strcmp(row->color_choice, "nigiri") == 0 && row->tournament_id == 0 &&
		   (strcmp(row->reason, "declined") == 0 || strcmp(row->reason, "expired") == 0) &&
		   !(row->rules && strstr(row->rules, "\"prediction\""))) {
		json_object_set_new(o, "nigiri", json_true()); /* called off: never drawn */
	}
	/* seed 000 (docs/rules.md §5, Art. 5.1-5.3): a prediction game says so (a reader could
	 * not tell a challenge's challenger and challenged from colours), and one in its opening
	 * or predictions names its first and second player (the row's Black and White columns
	 * until then) beside its null colours */
	if (strcmp(tour_game_ruleset(row), ruleset_prediction.name) == 0)
		json_object_set_new(o, "ruleset", json_string("prediction"));
	if (g && game_is_prediction(g) && !g->ref.revealed) { /* as the game object: not yet */
		json_object_set_new(o, "first", json_string(bn));
		json_object_set_new(o, "second", json_string(wn));
		json_object_set_new(o, "black", json_null());
		json_object_set_new(o, "white", json_null());
		json_object_set_new(o, "komi", json_null());
	}
	/* a game with handicap stones is one of the Chinese ruleset (the prediction ruleset has
	 * none, and its effective komi is its komi): the default ruleset's for every row */
	game_json_effective_komi(o, g ? g->rs : ruleset_default(), row->handicap);
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
	int64_t tournament = 0, limit = SERVER_GAMES_LIMIT, before = 0;
	/* With a tournament, `player` is a name of its field: an entrant's as entered (spaces
	 * and all), or an account's; without one, an account's. */
	if (proto_get_choice(req->root, "phase", false, phase_choices, 5, &phase, &err) < 0 ||
	    proto_get_id(req->root, "tournament", false, &tournament, &err) < 0 ||
	    (tournament ? proto_get_string(req->root, "player", false, STORE_FULL_NAME_MAX, &player,
					   &err)
			: proto_get_name(req->root, "player", false, &player, &err)) < 0 ||
	    proto_get_int(req->root, "limit", false, 1, SERVER_GAMES_LIMIT_MAX, &limit, &err) < 0 ||
	    proto_get_id(req->root, "before", false, &before, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (tournament) { /* an unknown one is an error, as an unknown player is */
		struct store_tournament t = {0};
		enum store_rc rc = store_tournament_get(c->srv->store, tournament, &t);
		store_tournament_clear(&t);
		if (rc != STORE_OK) {
			server_reply_error(c, req->id, rc == STORE_NOT_FOUND ? PROTO_ERR_NOT_FOUND
					   : PROTO_ERR_INTERNAL, "no tournament %lld",
					   (long long)tournament);
			return;
		}
	}
	/* one game more than the page, to tell whether there is a next page */
	struct store_games_filter f = {.phase = phase >= 0 ? phase_choices[phase] : NULL,
				       .tournament_id = tournament, .limit = (int)limit + 1,
				       .before = before};
	if (player && !(tournament && tournaments_entry_id(c->srv, tournament, player,
							   &f.player_id))) {
		struct store_player p;
		if (store_player_by_name(c->srv->store, player, &p) != STORE_OK) {
			server_reply_error(c, req->id, PROTO_ERR_NOT_FOUND, "no player named '%s'", player);
			return;
		}
		f.player_id = p.id;
	}
	struct list_ctx l = {.srv = c->srv, .arr = json_array(), .limit = (size_t)limit};
	store_games_list(c->srv->store, &f, list_cb, &l);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "games", l.arr);
	json_object_set_new(r, "next", l.more ? json_integer(l.last) : json_null());
	server_reply(c, r);
}

void games_observe(struct conn *c, const struct proto_request *req)
{
	bool owned;
	struct game *g = cmd_game_find(c, req, &owned);
	if (!g)
		return;
	if (owned) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is over", (long long)g->id);
		game_free(g);
		return;
	}
	/* Each move is written to every observer: a cap keeps the players' pace. The game's own
	 * players (their pages observe too) always get in. */
	bool plays = c->player_id && game_color_of(g, c->player_id) != EMPTY;
	int rc = game_observer_add(g, c, plays ? 0 : c->srv->set.max_observers);
	if (rc == -2) {
		server_reply_error(c, req->id, PROTO_ERR_RATE_LIMITED,
				   "game %lld has %zu observers, the most one game takes (--max-observers)",
				   (long long)g->id, c->srv->set.max_observers);
		return;
	}
	if (rc < 0) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "out of memory");
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "game", game_json(c->srv, g));
	server_reply(c, r);
}

void games_unobserve(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t id;
	if (proto_get_id(req->root, "game", true, &id, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	game_unobserve(c->srv, c, id);
	server_reply(c, proto_reply_ok(req->id));
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
	struct game **p = game_pending_of(c->srv, c->player_id, &n);
	json_t *a = json_array();
	for (size_t i = (size_t)offset; i < n && i < (size_t)(offset + limit); i++) {
		const struct game *g = p[i];
		bool mine = g->row.challenger_id == c->player_id;
		json_array_append_new(a, json_pack("{s:I, s:s, s:s, s:s, s:o, s:f, s:I}", "game",
			(json_int_t)g->id, "direction", mine ? "sent" : "received", "from", g->black,
			"to", g->white, "settings", game_settings_json(g), "created_at", g->row.created_at,
			"expires_at", (json_int_t)g->expires_at));
	}
	free(p);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "total", json_integer((json_int_t)n));
	json_object_set_new(r, "offset", json_integer(offset));
	json_object_set_new(r, "challenges", a);
	server_reply(c, r);
}
