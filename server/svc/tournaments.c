/* tournaments: see tournaments.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "director.h"
#include "event.h"
#include "games.h"
#include "log.h"
#include "panic.h"
#include "pairing.h"
#include "rating.h"
#include "ruleset.h"
#include "standings.h"
#include "tour.h"
#include "tournaments.h"

/* ---- commands ---- */

void tournaments_create(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	struct proto_error err;
	const char *name;
	int system;
	int64_t rounds = TOURNAMENT_ROUNDS_DEFAULT, size = RULES_DEFAULT_SIZE,
		lateness = GAMES_LATENESS_LIMIT_DEFAULT_S, bye = STANDINGS_WIN_POINTS;
	int64_t bar = 0, floor_ = -20, hmax = PAIRING_HANDICAP_CAP;
	const struct ruleset *rs = ruleset_default(); /* events name no other yet */
	double komi = rs->default_komi, hkomi = rs->default_handicap_komi;
	bool rated = true, handicap = false, double_elim = false;
	struct proto_time time = {0};
	struct rules rules;
	const json_t *tiebreaks = NULL;
	rules_default(&rules);
	if (proto_get_string(req->root, "name", true, STORE_TOURNAMENT_NAME_MAX, &name, &err) < 0 ||
	    proto_get_choice(req->root, "system", true, tour_systems, TOUR_SYSTEMS, &system, &err) < 0 ||
	    proto_get_int(req->root, "rounds", false, 1, EVENT_MAX_ROUNDS, &rounds, &err) < 0 ||
	    proto_get_int(req->root, "size", false, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &size, &err) < 0 ||
	    proto_get_number(req->root, "komi", false, -GAMES_KOMI_MAX, GAMES_KOMI_MAX, &komi, &err) < 0 ||
	    proto_get_number(req->root, "handicap_komi", false, -GAMES_KOMI_MAX, GAMES_KOMI_MAX, &hkomi,
			     &err) < 0 ||
	    proto_get_int(req->root, "handicap_max", false, 0, PAIRING_HANDICAP_CAP, &hmax, &err) < 0 ||
	    proto_get_time(req->root, "time", false, &time, &err) < 0 ||
	    proto_get_bool(req->root, "rated", false, &rated, &err) < 0 ||
	    proto_get_rules(req->root, "rules", false, &rules, &err) < 0 ||
	    proto_get_int(req->root, "lateness_limit_s", false, 0, GAMES_LATENESS_LIMIT_MAX_S, &lateness, &err) < 0 ||
	    proto_get_array(req->root, "tiebreaks", false, STANDINGS_MAX_TIEBREAKS, &tiebreaks, &err) < 0 ||
	    proto_get_int(req->root, "bye", false, 0, STANDINGS_BYE_POINTS_MAX, &bye, &err) < 0 ||
	    proto_get_int(req->root, "mcmahon_bar", false, RANK_MIN, RANK_MAX, &bar, &err) < 0 ||
	    proto_get_int(req->root, "mcmahon_floor", false, RANK_MIN, RANK_MAX, &floor_, &err) < 0 ||
	    proto_get_bool(req->root, "handicap", false, &handicap, &err) < 0 ||
	    proto_get_bool(req->root, "double_elimination", false, &double_elim, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	const char *why;
	if (games_time_check(&time, &why) < 0) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'time': %s", why);
		return;
	}
	if (!name[0] || komi * 2 != floor(komi * 2) || hkomi * 2 != floor(hkomi * 2) || bar < floor_) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "%s",
				   !name[0] ? "field 'name': must not be empty" :
				   bar < floor_ ? "field 'mcmahon_bar': must not be below 'mcmahon_floor'" :
				   komi * 2 != floor(komi * 2) ?
				   "field 'komi': must be a whole or half number of points" :
				   "field 'handicap_komi': must be a whole or half number of points");
		return;
	}
	/* What the board can hold (Art. 2): a larger handicap is capped, and the reply says so. */
	int cap = tour_handicap_cap((int)hmax, (int)size);
	json_t *tb = json_array();
	size_t i;
	json_t *v;
	json_array_foreach(tiebreaks, i, v) {
		if (!json_is_string(v) || standings_tiebreak_parse(json_string_value(v)) < 0) {
			json_decref(tb);
			server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
					   "field 'tiebreaks': entry %zu is not a tie-break (SOS, SOSOS, SODOS, MMS, DE, WARN, SEED)", i + 1);
			return;
		}
		json_array_append(tb, v);
	}
	json_t *s = json_pack("{s:i, s:i, s:f, s:f, s:o, s:b, s:o, s:i, s:o, s:i, s:i, s:i, s:b, s:i, "
			      "s:b}",
			      "rounds", (int)rounds, "size", (int)size, "komi", komi, "handicap_komi", hkomi,
			      "time", proto_time_to_json(&time), "rated", rated, "rules",
			      proto_rules_to_json(&rules), "lateness_limit_s", (int)lateness, "tiebreaks", tb,
			      "bye", (int)bye, "mcmahon_bar", (int)bar, "mcmahon_floor", (int)floor_,
			      "handicap", handicap, "handicap_max", cap, "double_elimination", double_elim);
	json_t *state = json_pack("{s:o, s:[], s:[], s:i, s:s}", "settings", s, "players", "byes",
				  "round", 0, "director", c->name);
	char *text = json_dumps(state, JSON_COMPACT);
	json_decref(state);
	int64_t id;
	if (!text) { /* nothing written yet */
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "could not store the tournament");
		return;
	}
	server_txn(srv);
	enum store_rc rc = store_tournament_create(srv->store, name, tour_systems[system], text, &id);
	free(text);
	if (rc == STORE_CONFLICT) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "a tournament named '%s' exists", name);
		return;
	}
	if (rc != STORE_OK) /* the iteration's other changes may be gone with it (panic.h) */
		CORE_PANIC(srv->store, "what=tournament_create");
	log_msg(LOGL_INFO, "tournament_create", "tournament=%lld name=\"%s\" system=%s handicap_max=%d by=%s",
		(long long)id, name, tour_systems[system], cap, c->name);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", json_integer(id));
	json_object_set_new(r, "handicap_max", json_integer(cap));
	server_reply(c, r);
}

/* Add player `name` to the field of t (before round 1). */
static void add_player(struct conn *c, const struct proto_request *req, struct tour *t, const char *name)
{
	struct store_player p;
	if (store_player_by_name(c->srv->store, name, &p) != STORE_OK) {
		server_reply_error(c, req->id, PROTO_ERR_NOT_FOUND, "no player named '%s'", name);
		return;
	}
	if (tour_round(t) > 0) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "registration closed: round 1 has started");
		return;
	}
	json_t *players = json_object_get(t->state, "players");
	size_t i;
	json_t *v;
	json_array_foreach(players, i, v) {
		if (json_integer_value(json_object_get(v, "id")) == p.id) {
			if (!json_is_true(json_object_get(v, "withdrawn_before_start"))) {
				server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "%s is registered already", p.name);
				return;
			}
			json_object_set_new(v, "withdrawn_before_start", json_false());
			goto saved;
		}
	}
	if (json_array_size(players) >= EVENT_MAX_PLAYERS) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "the field is full (%d players)", EVENT_MAX_PLAYERS);
		return;
	}
	int rank;
	if (!p.rank[0] || rank_parse(p.rank, &rank) < 0)
		rank = rating_rank_value(p.rating);
	json_array_append_new(players, json_pack("{s:I, s:s, s:i, s:f, s:i, s:b}", "id", (json_int_t)p.id,
		"name", p.name, "rank", rank, "rating", p.rating, "withdrawn_after", 0,
		"withdrawn_before_start", 0));
saved:
	tour_save(c->srv, t);
	log_msg(LOGL_INFO, "tournament_register", "tournament=%lld player=%s", (long long)t->row.id, p.name);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", json_integer(t->row.id));
	json_object_set_new(r, "player", json_string(p.name));
	json_object_set_new(r, "players", json_integer((json_int_t)json_array_size(players)));
	server_reply(c, r);
}

void tournaments_register(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	const char *name;
	struct tour t;
	if (proto_get_name(req->root, "player", true, &name, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (tour_load(c, req, "tournament", &t) < 0)
		return;
	add_player(c, req, &t, name);
	tour_clear(&t);
}

void tournaments_join(struct conn *c, const struct proto_request *req)
{
	struct tour t;
	if (tour_load(c, req, "tournament", &t) < 0)
		return;
	add_player(c, req, &t, c->name);
	tour_clear(&t);
}

void tournaments_withdraw(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	struct proto_error err;
	const char *name;
	struct tour t;
	if (proto_get_name(req->root, "player", true, &name, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (tour_load(c, req, "tournament", &t) < 0)
		return;
	json_t *players = json_object_get(t.state, "players"), *entry = NULL;
	size_t i;
	json_t *v;
	json_array_foreach(players, i, v)
		if (strcasecmp(json_string_value(json_object_get(v, "name")), name) == 0)
			entry = v;
	if (!entry || json_is_true(json_object_get(entry, "withdrawn_before_start")) ||
	    json_integer_value(json_object_get(entry, "withdrawn_after")) > 0) {
		server_reply_error(c, req->id, PROTO_ERR_NOT_FOUND, "%s is not in the field", name);
		tour_clear(&t);
		return;
	}
	int round = tour_round(&t);
	int64_t pid = json_integer_value(json_object_get(entry, "id"));
	if (round == 0) {
		/* Art. 28: before round 1, a redraw: the player simply leaves the field. */
		json_object_set_new(entry, "withdrawn_before_start", json_true());
	} else {
		/* Art. 28: the player's unfinished games of this round are forfeits; results
		 * stand or are voided by the standings (standings_apply_withdrawals). */
		json_object_set_new(entry, "withdrawn_after", json_integer(round));
		struct ev_build b;
		if (tour_ev_build(srv, &t, &b) == 0) {
			int pi = tour_player_index(&b.ev, pid);
			for (int k = 0; k < b.ev.ngames; k++) {
				struct event_game *g = &b.ev.games[k];
				if (g->result == RESULT_NONE && (g->black == pi || g->white == pi))
					games_set_result(srv, b.game_ids[k],
							 ruleset_default()->result_win(g->black == pi ? WHITE : BLACK,
										       RULESET_WIN_FORFEIT),
							 "adjudicated", true);
			}
			tour_ev_free(&b);
		}
	}
	tour_save(srv, &t);
	log_msg(LOGL_INFO, "tournament_withdraw", "tournament=%lld player=%s after_round=%d",
		(long long)t.row.id, name, round);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "withdrawn_after", json_integer(round));
	server_reply(c, r);
	tour_clear(&t);
}

static bool decided(enum event_result r)
{
	return r != RESULT_NONE && r != RESULT_DRAW && r != RESULT_VOID;
}

/* Does knockout game k of the current round need a replay (drawn or void, and no later game
 * between the two decided it or is due)? */
static bool needs_replay(const struct ev_build *b, int k, int round)
{
	const struct event_game *g = &b->ev.games[k];
	if (g->round != round || decided(g->result))
		return false;
	for (int j = 0; j < b->ev.ngames; j++) {
		const struct event_game *h = &b->ev.games[j];
		if (j != k && h->round == round && b->game_ids[j] > b->game_ids[k] &&
		    ((h->black == g->black && h->white == g->white) ||
		     (h->black == g->white && h->white == g->black)))
			return false;
	}
	return true;
}

/* A game that games_create_scheduled failed to create after every pair was checked: a store
 * read or memory failure. If it is the round's first, nothing has changed: an error reply.
 * Later, games of the round exist and their game.start events are queued: stop, as for a
 * store write failure (a restart is consistent: nothing of the round was committed). */
static void create_failed(struct conn *c, const struct proto_request *req, const struct tour *t,
			  int round, int created)
{
	if (created > 0)
		CORE_PANIC(c->srv->store, "what=tournament_round tournament=%lld round=%d created=%d",
			   (long long)t->row.id, round, created);
	log_msg(LOGL_ERROR, "tournament_round", "tournament=%lld round=%d: a game could not be "
		"created after %d", (long long)t->row.id, round, created);
	server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "round %d: a game could not be created",
			   round);
}

/* Knockout (docs/rules.md §4): a drawn or void game is replayed, in the same round, colours swapped.
 * If the current round has such pairs, schedule their replays and reply with them (the round
 * does not advance); every replay is checked (games_schedule_check) before any is created, and
 * a refused one is an error reply that creates nothing. Returns true if it replied. */
static bool knockout_replays(struct conn *c, const struct proto_request *req, struct tour *t,
			     struct ev_build *b, const struct game_settings *gs, double start_at)
{
	struct server *srv = c->srv;
	int round = tour_round(t), due = 0;
	for (int k = 0; k < b->ev.ngames; k++) {
		const char *why;
		if (!needs_replay(b, k, round))
			continue;
		due++;
		if (games_schedule_check(gs, b->ev.games[k].handicap, &why) < 0) {
			log_msg(LOGL_WARN, "tournament_replay", "tournament=%lld round=%d game=%lld "
				"refused: %s", (long long)t->row.id, round, (long long)b->game_ids[k], why);
			server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "cannot replay game %lld of "
					   "round %d: %s (handicap %d)", (long long)b->game_ids[k], round,
					   why, b->ev.games[k].handicap);
			return true;
		}
	}
	if (due == 0)
		return false;
	json_t *pairs = json_array();
	for (int k = 0; k < b->ev.ngames; k++) {
		const struct event_game *g = &b->ev.games[k];
		if (!needs_replay(b, k, round))
			continue;
		const struct event_player *bp = &b->ev.players[g->white], *wp = &b->ev.players[g->black];
		int64_t gid = games_create_scheduled(srv, bp->id, wp->id, gs, g->handicap, t->row.id,
						     round, start_at ? start_at : server_now());
		if (gid < 0) {
			create_failed(c, req, t, round, (int)json_array_size(pairs));
			json_decref(pairs);
			return true;
		}
		json_array_append_new(pairs, json_pack("{s:I, s:s, s:s, s:i}", "game", (json_int_t)gid,
			"black", bp->name, "white", wp->name, "handicap", g->handicap));
	}
	log_msg(LOGL_INFO, "tournament_replay", "tournament=%lld round=%d games=%zu", (long long)t->row.id,
		round, json_array_size(pairs));
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "round", json_integer(round));
	json_object_set_new(r, "replay", json_true());
	json_object_set_new(r, "pairings", pairs);
	json_object_set_new(r, "byes", json_array());
	server_reply(c, r);
	return true;
}

/* Can round `round` of t start: every game of the rounds so far has a result, and at least
 * two players are in? Replies (a conflict) and returns false if not. */
static bool round_ready(struct conn *c, const struct proto_request *req, const struct tour *t,
			const struct ev_build *b)
{
	char pending[256] = "";
	int npending = 0;
	for (int k = 0; k < b->ev.ngames; k++)
		if (b->ev.games[k].result == RESULT_NONE) {
			size_t l = strlen(pending);
			if (l < sizeof pending - 24)
				snprintf(pending + l, sizeof pending - l, "%s%lld", npending ? ", " : "",
					 (long long)b->game_ids[k]);
			npending++;
		}
	if (npending) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT,
				   "round %d is not finished: %d game%s without a result (%s)",
				   tour_round(t), npending, npending == 1 ? "" : "s", pending);
		return false;
	}
	int active = 0;
	for (int i = 0; i < b->ev.nplayers; i++)
		active += !b->ev.players[i].withdrawn_before_start;
	if (active < 2) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "a tournament needs at least 2 players");
		return false;
	}
	return true;
}

/* Every pair is checked before any game is created: a round that cannot be made is an error
 * reply and changes nothing (the round counter included). Returns false if it replied. */
static bool pairs_schedulable(struct conn *c, const struct proto_request *req,
			      const struct tour *t, const struct ev_build *b,
			      const struct game_settings *gs, const struct pairing_out *out, int round)
{
	for (int k = 0; k < out->npairs; k++) {
		const struct pairing_pair *p = &out->pairs[k];
		const char *why;
		if (games_schedule_check(gs, p->handicap, &why) < 0) {
			log_msg(LOGL_WARN, "tournament_round", "tournament=%lld round=%d refused: %s v %s, "
				"size %d, handicap %d: %s", (long long)t->row.id, round,
				b->ev.players[p->black].name, b->ev.players[p->white].name, gs->size,
				p->handicap, why);
			server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "cannot pair round %d: %s v %s "
					   "(size %d, handicap %d): %s", round, b->ev.players[p->black].name,
					   b->ev.players[p->white].name, gs->size, p->handicap, why);
			return false;
		}
	}
	return true;
}

/* Create the games of round `round` of t as paired in *out, starting at start_at. Returns
 * [{game, black, white, handicap, handicap_wanted?}] (new reference), or NULL after a game
 * could not be created (create_failed replied or stopped the server). */
static json_t *create_round_games(struct conn *c, const struct proto_request *req,
				  const struct tour *t, const struct ev_build *b,
				  const struct game_settings *gs, const struct pairing_out *out,
				  int round, double start_at)
{
	struct server *srv = c->srv;
	json_t *pairs = json_array();
	for (int k = 0; k < out->npairs; k++) {
		const struct pairing_pair *p = &out->pairs[k];
		const struct event_player *bp = &b->ev.players[p->black], *wp = &b->ev.players[p->white];
		int64_t gid = games_create_scheduled(srv, bp->id, wp->id, gs, p->handicap, t->row.id,
						     round, start_at);
		if (gid < 0) {
			create_failed(c, req, t, round, k);
			json_decref(pairs);
			return NULL;
		}
		/* A withdrawn player's game: a forfeit; both withdrawn: a double loss, stored as
		 * Void with reason double_forfeit (Art. 17.5, 23.1; games_set_result). */
		if (p->black_absent || p->white_absent)
			games_set_result(srv, gid, p->black_absent && p->white_absent ?
					 ruleset_default()->result_void :
					 ruleset_default()->result_win(p->black_absent ? WHITE : BLACK,
								       RULESET_WIN_FORFEIT),
					 p->black_absent && p->white_absent ? "double_forfeit" : "adjudicated",
					 true);
		json_t *pj = json_pack("{s:I, s:s, s:s, s:i}", "game", (json_int_t)gid, "black",
				       bp->name, "white", wp->name, "handicap", p->handicap);
		if (p->handicap_wanted > p->handicap) {
			/* capped at what the board holds (or the director's handicap_max): said so */
			json_object_set_new(pj, "handicap_wanted", json_integer(p->handicap_wanted));
			log_msg(LOGL_INFO, "tournament_handicap", "tournament=%lld round=%d game=%lld "
				"handicap=%d handicap_wanted=%d size=%d", (long long)t->row.id, round,
				(long long)gid, p->handicap, p->handicap_wanted, gs->size);
		}
		json_array_append_new(pairs, pj);
	}
	return pairs;
}

void tournaments_start_round(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	struct proto_error err;
	double start_at = 0;
	struct tour t;
	if (proto_get_number(req->root, "start_at", false, 0, TOURNAMENT_START_AT_MAX, &start_at, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (tour_load(c, req, "tournament", &t) < 0)
		return;
	struct ev_build b;
	struct game_settings gs;
	struct pairing_out *out = NULL;
	if (tour_game_settings(&t, &gs) < 0 || tour_ev_build(srv, &t, &b) < 0) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "could not read the tournament");
		tour_clear(&t);
		return;
	}
	int round = tour_round(&t) + 1;
	if (!round_ready(c, req, &t, &b))
		goto out;
	if (t.system == SYSTEM_KNOCKOUT && round > 1 && knockout_replays(c, req, &t, &b, &gs, start_at))
		goto out;
	out = malloc(sizeof *out);
	int rc = out ? pairing_round(&b.ev, round, out) : PAIRING_ENOMEM;
	if (rc < 0) {
		server_reply_error(c, req->id, rc == PAIRING_EOVER || rc == PAIRING_EPENDING ?
				   PROTO_ERR_CONFLICT : PROTO_ERR_INTERNAL,
				   "cannot pair round %d: %s", round, pairing_strerror(rc));
		goto out;
	}
	if (!pairs_schedulable(c, req, &t, &b, &gs, out, round))
		goto out;
	if (!start_at)
		start_at = server_now();
	json_t *pairs = create_round_games(c, req, &t, &b, &gs, out, round, start_at);
	if (!pairs)
		goto out;
	json_t *byes = json_array();
	json_object_set_new(t.state, "round", json_integer(round));
	for (int k = 0; k < out->nbyes; k++) {
		json_array_append_new(json_object_get(t.state, "byes"),
				      json_pack("{s:i, s:i}", "round", round, "player", out->byes[k]));
		json_array_append_new(byes, json_string(b.ev.players[out->byes[k]].name));
		json_t *e = proto_event("tournament.bye");
		json_object_set_new(e, "tournament", json_integer(t.row.id));
		json_object_set_new(e, "round", json_integer(round));
		server_send_player(srv, b.ev.players[out->byes[k]].id, e);
		json_decref(e);
	}
	tour_save(srv, &t);
	log_msg(LOGL_INFO, "tournament_round", "tournament=%lld round=%d pairs=%d byes=%d",
		(long long)t.row.id, round, out->npairs, out->nbyes);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "round", json_integer(round));
	json_object_set_new(r, "start_at", json_real(start_at));
	json_object_set_new(r, "pairings", pairs);
	json_object_set_new(r, "byes", byes);
	server_reply(c, r);
out:
	free(out);
	tour_ev_free(&b);
	tour_clear(&t);
}

/* The reply to games_set_result's refusal (-2, -3) of `given` (the result as typed) with
 * `reason` (NULL: none given, so none is spoken of). */
static void result_refused(struct conn *c, const struct proto_request *req, int rc,
			   const char *given, const char *stored, const char *reason)
{
	if (rc == -2)
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
				   "field 'result': '%s' is not a result (B+R, W+3.5, B+T, W+F, "
				   "0/jigo/draw, Void, double_loss)", given);
	else if (reason && strcmp(reason, "double_forfeit") == 0)
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
				   "field 'reason': double_forfeit (a double loss) goes with result Void "
				   "or double_loss, not '%s'", stored);
	else
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
				   "field 'reason': '%s' is not a reason (resignation, time, score, "
				   "warnings, illegal, lateness, double_forfeit, adjudicated, cycle)",
				   reason ? reason : "");
}

void tournaments_result(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t game, tid = 0;
	const char *given, *reason = NULL;
	char result[STORE_RESULT_SIZE];
	bool double_loss;
	if (proto_get_id(req->root, "game", true, &game, &err) < 0 ||
	    proto_get_string(req->root, "result", true, STORE_RESULT_SIZE - 1, &given, &err) < 0 ||
	    proto_get_string(req->root, "reason", false, STORE_REASON_SIZE - 1, &reason, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	/* Case-insensitive, jigo/draw = 0, a double loss stored as Void with reason
	 * double_forfeit (docs/rules.md §4; docs/protocol.md tournament.result). */
	if (ruleset_result_normalise(ruleset_default(), given, result, sizeof result,
				     &double_loss) < 0) {
		result_refused(c, req, -2, given, given, reason);
		return;
	}
	if (double_loss && reason && strcmp(reason, "double_forfeit") != 0) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
				   "field 'reason': a double loss has reason double_forfeit, not '%s'",
				   reason);
		return;
	}
	if (double_loss)
		reason = "double_forfeit";
	if (games_tournament_of(c->srv, game, &tid) < 0) {
		server_reply_error(c, req->id, PROTO_ERR_NOT_FOUND, "no game %lld", (long long)game);
		return;
	}
	/* A director sets a tournament's results only; an admin any game's, logged. */
	if (tid == 0 && c->role < PROTO_ROLE_ADMIN) {
		server_reply_error(c, req->id, PROTO_ERR_FORBIDDEN, "game %lld is not a tournament game",
				   (long long)game);
		return;
	}
	int rc = games_set_result(c->srv, game, result, reason, false);
	if (rc == -1) {
		server_reply_error(c, req->id, PROTO_ERR_NOT_FOUND, "no game %lld", (long long)game);
		return;
	}
	if (rc < 0) {
		result_refused(c, req, rc, given, result, reason);
		return;
	}
	if (tid == 0)
		log_msg(LOGL_INFO, "result_admin", "by=%s game=%lld result=%s reason=%s casual=1",
			c->name, (long long)game, result, reason ? reason : "adjudicated");
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "game", json_integer(game));
	json_object_set_new(r, "result", json_string(result));
	server_reply(c, r);
}

void tournaments_warn(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t game;
	enum color color;
	const char *reason;
	if (proto_get_id(req->root, "game", true, &game, &err) < 0 ||
	    proto_get_color(req->root, "color", true, &color, &err) < 0 ||
	    proto_get_string(req->root, "reason", true, STORE_WARNING_REASON_SIZE - 1, &reason, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (games_warn(c->srv, game, color, reason) < 0) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is not a live game", (long long)game);
		return;
	}
	server_reply(c, proto_reply_ok(req->id));
}

struct of_player {
	struct server *srv;
	int64_t player_id;
	json_t *arr;
};

static int of_player_cb(void *ctx, const struct store_tournament *row)
{
	struct of_player *o = ctx;
	struct tour t = {.state = json_loads(row->state, 0, NULL)};
	size_t i;
	json_t *v;
	bool in = false;
	json_array_foreach(json_object_get(t.state, "players"), i, v)
		in |= json_integer_value(json_object_get(v, "id")) == o->player_id;
	if (!in || json_array_size(o->arr) >= TOURNAMENT_LIST_MAX) {
		json_decref(t.state);
		return 0;
	}
	t.row = *row;
	t.row.state = NULL; /* borrowed from the listing: not ours to free */
	for (int k = 0; k < 5; k++)
		if (strcmp(row->system, tour_systems[k]) == 0)
			t.system = (enum event_system)k;
	json_t *entry = json_pack("{s:I, s:s, s:s, s:i}", "id", (json_int_t)row->id, "name", row->name,
				  "system", row->system, "round", tour_round(&t));
	struct ev_build b;
	const char *names[STANDINGS_MAX_TIEBREAKS];
	int ntb = tour_tiebreak_names(&t, names);
	if (tour_ev_build(o->srv, &t, &b) == 0) {
		struct standing *rows = calloc(b.ev.nplayers ? (size_t)b.ev.nplayers : 1, sizeof *rows);
		int n = rows && standings_apply_withdrawals(&b.ev) >= 0 ?
			standings_compute(&b.ev, 0, names, ntb, rows) : -1;
		for (int k = 0; k < n; k++)
			if (b.ev.players[rows[k].player].id == o->player_id) {
				json_object_set_new(entry, "place", json_integer(rows[k].place));
				json_object_set_new(entry, "points", json_integer(rows[k].points));
				json_object_set_new(entry, "wins", json_integer(rows[k].wins));
				json_object_set_new(entry, "losses", json_integer(rows[k].losses));
			}
		free(rows);
		tour_ev_free(&b);
	}
	json_array_append_new(o->arr, entry);
	json_decref(t.state);
	return 0;
}

json_t *tournaments_of_player(struct server *srv, int64_t player_id)
{
	struct of_player o = {srv, player_id, json_array()};
	store_tournaments_list(srv->store, of_player_cb, &o);
	return o.arr;
}
