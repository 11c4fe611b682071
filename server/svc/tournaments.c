/* tournaments: see tournaments.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "director.h"
#include "event.h"
#include "export.h"
#include "games.h"
#include "log.h"
#include "pairing.h"
#include "rating.h"
#include "referee.h"
#include "standings.h"
#include "tournaments.h"

#define TOURNAMENT_ROUNDS_DEFAULT 5   /* Swiss and McMahon rounds unless set */
#define TOURNAMENT_START_AT_MAX 1e11  /* Unix seconds: a sanity bound on start_at */
#define TOURNAMENT_LIST_MAX 1000
#define TOURNAMENT_HANDICAP_KOMI_DEFAULT 0.5 /* points: usual practice in handicap games */

static const char *const systems[] = {"round_robin", "double_round_robin", "swiss", "mcmahon",
				      "knockout"};
static const char *const formats[] = {"json", "csv", "h9"};

/* ---- the state document ---- */

struct tour {
	struct store_tournament row;
	json_t *state;                 /* {settings, players, byes, round} */
	enum event_system system;
};

static void tour_clear(struct tour *t)
{
	store_tournament_clear(&t->row);
	json_decref(t->state);
	t->state = NULL;
}

/* Load tournament `field` of the request; replies and returns -1 if there is none. */
static int tour_load(struct conn *c, const struct proto_request *req, const char *field,
		     struct tour *t)
{
	struct proto_error err;
	int64_t id;
	memset(t, 0, sizeof *t);
	if (proto_get_id(req->root, field, true, &id, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return -1;
	}
	if (store_tournament_get(c->srv->store, id, &t->row) != STORE_OK ||
	    !(t->state = json_loads(t->row.state, 0, NULL))) {
		store_tournament_clear(&t->row);
		return server_reply_error(c, req->id, PROTO_ERR_NOT_FOUND, "no tournament %lld", (long long)id);
	}
	for (int i = 0; i < 5; i++)
		if (strcmp(t->row.system, systems[i]) == 0)
			t->system = (enum event_system)i;
	return 0;
}

static void tour_save(struct server *srv, struct tour *t)
{
	char *text = json_dumps(t->state, JSON_COMPACT);
	if (server_txn(srv) < 0 || !text || store_tournament_update(srv->store, t->row.id, text) != STORE_OK) {
		log_msg(LOGL_ERROR, "tournament_save", "id=%lld error=\"%s\"", (long long)t->row.id,
			store_errmsg(srv->store));
		exit(1); /* as games.c persist_failed: nothing was reported yet */
	}
	free(text);
}

static json_t *settings(const struct tour *t)
{
	return json_object_get(t->state, "settings");
}

static int setting_int(const struct tour *t, const char *key, int dflt)
{
	json_t *v = json_object_get(settings(t), key);
	return json_is_integer(v) ? (int)json_integer_value(v) : dflt;
}

static int current_round(const struct tour *t)
{
	return (int)json_integer_value(json_object_get(t->state, "round"));
}

/* The game settings of every pairing. */
static int game_settings_of(const struct tour *t, struct game_settings *gs)
{
	struct proto_error err;
	json_t *s = settings(t);
	memset(gs, 0, sizeof *gs);
	gs->size = setting_int(t, "size", RULES_DEFAULT_SIZE);
	gs->komi = json_number_value(json_object_get(s, "komi"));
	json_t *hk = json_object_get(s, "handicap_komi"); /* absent in events created before it */
	gs->handicap_komi = json_is_number(hk) ? json_number_value(hk) : TOURNAMENT_HANDICAP_KOMI_DEFAULT;
	gs->rated = json_is_true(json_object_get(s, "rated"));
	gs->lateness_limit_s = setting_int(t, "lateness_limit_s", GAMES_LATENESS_LIMIT_DEFAULT_S);
	rules_default(&gs->rules);
	if (proto_get_rules(s, "rules", false, &gs->rules, &err) < 0 ||
	    proto_get_time(s, "time", false, &gs->time, &err) < 0)
		return -1;
	return 0;
}

/* The most handicap a pairing may give on a board of `size`: the director's `handicap_max`
 * (0..PAIRING_HANDICAP_CAP) capped at what the board can hold (board_handicap_max: 9, 4, or 1
 * below 7x7, where a handicap is Black moving first); 0 for a size no board has. */
static int handicap_cap(int configured, int size)
{
	int board = board_handicap_max(size);
	if (board < 0)
		board = 0;
	if (configured < 0 || configured > PAIRING_HANDICAP_CAP)
		configured = PAIRING_HANDICAP_CAP;
	return configured < board ? configured : board;
}

/* ---- the event as pairing and standings see it ---- */

struct ev_build {
	struct event ev;
	int64_t *game_ids;        /* per ev.games entry */
	char **names;
};

static void ev_free(struct ev_build *b)
{
	for (int i = 0; b->names && i < b->ev.nplayers; i++)
		free(b->names[i]);
	free(b->names);
	free(b->ev.players);
	free(b->ev.games);
	free(b->ev.byes);
	free(b->game_ids);
	memset(b, 0, sizeof *b);
}

static int player_index(const struct event *ev, int64_t id)
{
	for (int i = 0; i < ev->nplayers; i++)
		if (ev->players[i].id == id)
			return i;
	return -1;
}

/* A stored result as the standings see it. Forfeits: an "F" result not decided at the board
 * (lateness, a director's forfeit, a withdrawal). */
static enum event_result result_of(const struct store_game *g)
{
	if (strcmp(g->phase, "ended") != 0 || strcmp(g->reason, "declined") == 0)
		return RESULT_NONE;
	const char *r = g->result;
	if (strcmp(r, "0") == 0)
		return RESULT_DRAW;
	if (strcmp(r, "Void") == 0 || !r[0])
		return strcmp(g->reason, "double_forfeit") == 0 ? RESULT_DOUBLE_LOSS : RESULT_VOID;
	bool forfeit = strcmp(r + 1, "+F") == 0 && strcmp(g->reason, "warnings") != 0 &&
		       strcmp(g->reason, "illegal") != 0;
	if (r[0] == 'B')
		return forfeit ? RESULT_BLACK_FORFEIT_WIN : RESULT_BLACK_WIN;
	return forfeit ? RESULT_WHITE_FORFEIT_WIN : RESULT_WHITE_WIN;
}

static int collect_game(void *ctx, const struct store_game *g)
{
	struct ev_build *b = ctx;
	int bi = player_index(&b->ev, g->black_id), wi = player_index(&b->ev, g->white_id);
	if (bi < 0 || wi < 0 || g->round < 1 || strcmp(g->reason, "declined") == 0)
		return 0;
	struct event_game *eg = &b->ev.games[b->ev.ngames];
	b->game_ids[b->ev.ngames++] = g->id;
	*eg = (struct event_game){.round = g->round, .black = bi, .white = wi,
				  .handicap = g->handicap, .result = result_of(g),
				  .black_warnings = g->warnings_b, .white_warnings = g->warnings_w};
	return 0;
}

static int count_game(void *ctx, const struct store_game *g)
{
	(void)g;
	(*(int *)ctx)++;
	return 0;
}

/* Seed order: declared or rating rank, then rating, then registration (Art. 26 seeding). */
static const struct event_player *seed_base;
static int seed_cmp(const void *a, const void *b)
{
	const struct event_player *x = &seed_base[*(const int *)a], *y = &seed_base[*(const int *)b];
	if (x->rank != y->rank)
		return y->rank - x->rank;
	if (x->rating != y->rating)
		return y->rating > x->rating ? 1 : -1;
	return *(const int *)a - *(const int *)b;
}

static int ev_build(struct server *srv, const struct tour *t, struct ev_build *b)
{
	memset(b, 0, sizeof *b);
	json_t *players = json_object_get(t->state, "players"), *byes = json_object_get(t->state, "byes");
	size_t np = json_array_size(players), nb = json_array_size(byes);
	struct store_games_filter f = {.tournament_id = t->row.id};
	int ngames = 0;
	store_games_list(srv->store, &f, count_game, &ngames);
	b->ev.players = calloc(np ? np : 1, sizeof *b->ev.players);
	b->names = calloc(np ? np : 1, sizeof *b->names);
	b->ev.games = calloc(ngames ? (size_t)ngames : 1, sizeof *b->ev.games);
	b->game_ids = calloc(ngames ? (size_t)ngames : 1, sizeof *b->game_ids);
	b->ev.byes = calloc(nb ? nb : 1, sizeof *b->ev.byes);
	if (!b->ev.players || !b->names || !b->ev.games || !b->game_ids || !b->ev.byes) {
		ev_free(b);
		return -1;
	}
	b->ev.system = t->system;
	for (size_t i = 0; i < np; i++) {
		json_t *p = json_array_get(players, i);
		struct event_player *ep = &b->ev.players[i];
		b->names[i] = strdup(json_string_value(json_object_get(p, "name")));
		ep->id = (int)json_integer_value(json_object_get(p, "id"));
		ep->name = b->names[i];
		ep->rank = (int)json_integer_value(json_object_get(p, "rank"));
		ep->rating = json_number_value(json_object_get(p, "rating"));
		ep->withdrawn_after = (int)json_integer_value(json_object_get(p, "withdrawn_after"));
		ep->withdrawn_before_start = json_is_true(json_object_get(p, "withdrawn_before_start"));
	}
	b->ev.nplayers = (int)np;
	int order[EVENT_MAX_PLAYERS];
	for (int i = 0; i < (int)np; i++)
		order[i] = i;
	seed_base = b->ev.players;
	qsort(order, np, sizeof *order, seed_cmp);
	for (int i = 0; i < (int)np; i++)
		b->ev.players[order[i]].seed = i;
	store_games_list(srv->store, &f, collect_game, b);
	for (size_t i = 0; i < nb; i++) {
		json_t *y = json_array_get(byes, i);
		b->ev.byes[b->ev.nbyes++] = (struct event_bye){
			(int)json_integer_value(json_object_get(y, "round")),
			(int)json_integer_value(json_object_get(y, "player"))};
	}
	int rounds = setting_int(t, "rounds", TOURNAMENT_ROUNDS_DEFAULT);
	int active = 0;
	for (int i = 0; i < (int)np; i++)
		active += !b->ev.players[i].withdrawn_before_start;
	if (t->system == SYSTEM_ROUND_ROBIN && active >= 2)
		rounds = pairing_berger_rounds(active);
	else if (t->system == SYSTEM_DOUBLE_ROUND_ROBIN && active >= 2)
		rounds = 2 * pairing_berger_rounds(active);
	b->ev.rounds_planned = rounds;
	b->ev.rounds_played = current_round(t);
	b->ev.bye_points = setting_int(t, "bye", 2);
	b->ev.mcmahon_bar = setting_int(t, "mcmahon_bar", 0);
	b->ev.mcmahon_floor = setting_int(t, "mcmahon_floor", -20);
	b->ev.mms_bye = 1.0;
	b->ev.mms_absent = 0.5;
	b->ev.handicap = json_is_true(json_object_get(settings(t), "handicap"));
	b->ev.handicap_correction = setting_int(t, "handicap_correction", 1);
	b->ev.handicap_max = handicap_cap(setting_int(t, "handicap_max", PAIRING_HANDICAP_CAP),
					  setting_int(t, "size", RULES_DEFAULT_SIZE));
	b->ev.handicap_none_above = setting_int(t, "handicap_none_above", RANK_MAX);
	b->ev.double_elimination = json_is_true(json_object_get(settings(t), "double_elimination"));
	return 0;
}

/* Load the request's tournament and build its event; replies and returns -1 on failure. */
static int tour_event(struct conn *c, const struct proto_request *req, struct tour *t,
		      struct ev_build *b)
{
	if (tour_load(c, req, "tournament", t) < 0)
		return -1;
	if (ev_build(c->srv, t, b) < 0) {
		tour_clear(t);
		return server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "could not read the tournament");
	}
	return 0;
}

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
	double komi = RULES_DEFAULT_KOMI, hkomi = TOURNAMENT_HANDICAP_KOMI_DEFAULT;
	bool rated = true, handicap = false, double_elim = false;
	struct proto_time time = {0};
	struct rules rules;
	const json_t *tiebreaks = NULL;
	rules_default(&rules);
	if (proto_get_string(req->root, "name", true, STORE_TOURNAMENT_NAME_MAX, &name, &err) < 0 ||
	    proto_get_choice(req->root, "system", true, systems, 5, &system, &err) < 0 ||
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
	int cap = handicap_cap((int)hmax, (int)size);
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
	if (server_txn(srv) < 0) {
		free(text);
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "storage unavailable");
		return;
	}
	enum store_rc rc = store_tournament_create(srv->store, name, systems[system], text, &id);
	free(text);
	if (rc == STORE_CONFLICT) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "a tournament named '%s' exists", name);
		return;
	}
	if (rc != STORE_OK) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "could not store the tournament");
		return;
	}
	log_msg(LOGL_INFO, "tournament_create", "tournament=%lld name=\"%s\" system=%s handicap_max=%d by=%s",
		(long long)id, name, systems[system], cap, c->name);
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
	if (current_round(t) > 0) {
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
	int round = current_round(&t);
	int64_t pid = json_integer_value(json_object_get(entry, "id"));
	if (round == 0) {
		/* Art. 28: before round 1, a redraw: the player simply leaves the field. */
		json_object_set_new(entry, "withdrawn_before_start", json_true());
	} else {
		/* Art. 28: the player's unfinished games of this round are forfeits; results
		 * stand or are voided by the standings (standings_apply_withdrawals). */
		json_object_set_new(entry, "withdrawn_after", json_integer(round));
		struct ev_build b;
		if (ev_build(srv, &t, &b) == 0) {
			int pi = player_index(&b.ev, pid);
			for (int k = 0; k < b.ev.ngames; k++) {
				struct event_game *g = &b.ev.games[k];
				if (g->result == RESULT_NONE && (g->black == pi || g->white == pi))
					games_set_result(srv, b.game_ids[k], g->black == pi ? "W+F" : "B+F", "adjudicated", true);
			}
			ev_free(&b);
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
	log_msg(LOGL_ERROR, "tournament_round", "tournament=%lld round=%d: a game could not be "
		"created after %d", (long long)t->row.id, round, created);
	if (created > 0)
		exit(1);
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
	int round = current_round(t), due = 0;
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
	if (game_settings_of(&t, &gs) < 0 || ev_build(srv, &t, &b) < 0) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "could not read the tournament");
		tour_clear(&t);
		return;
	}
	int round = current_round(&t) + 1;
	char pending[256] = "";
	int npending = 0;
	for (int k = 0; k < b.ev.ngames; k++)
		if (b.ev.games[k].result == RESULT_NONE) {
			size_t l = strlen(pending);
			if (l < sizeof pending - 24)
				snprintf(pending + l, sizeof pending - l, "%s%lld", npending ? ", " : "",
					 (long long)b.game_ids[k]);
			npending++;
		}
	if (npending) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT,
				   "round %d is not finished: %d game%s without a result (%s)",
				   current_round(&t), npending, npending == 1 ? "" : "s", pending);
		goto out;
	}
	int active = 0;
	for (int i = 0; i < b.ev.nplayers; i++)
		active += !b.ev.players[i].withdrawn_before_start;
	if (active < 2) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "a tournament needs at least 2 players");
		goto out;
	}
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
	/* Every pair is checked before any game is created: a round that cannot be made is an
	 * error reply and changes nothing (the round counter included). */
	for (int k = 0; k < out->npairs; k++) {
		const struct pairing_pair *p = &out->pairs[k];
		const char *why;
		if (games_schedule_check(&gs, p->handicap, &why) < 0) {
			log_msg(LOGL_WARN, "tournament_round", "tournament=%lld round=%d refused: %s v %s, "
				"size %d, handicap %d: %s", (long long)t.row.id, round,
				b.ev.players[p->black].name, b.ev.players[p->white].name, gs.size,
				p->handicap, why);
			server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "cannot pair round %d: %s v %s "
					   "(size %d, handicap %d): %s", round, b.ev.players[p->black].name,
					   b.ev.players[p->white].name, gs.size, p->handicap, why);
			goto out;
		}
	}
	if (!start_at)
		start_at = server_now();
	json_t *pairs = json_array(), *byes = json_array();
	for (int k = 0; k < out->npairs; k++) {
		const struct pairing_pair *p = &out->pairs[k];
		const struct event_player *bp = &b.ev.players[p->black], *wp = &b.ev.players[p->white];
		int64_t gid = games_create_scheduled(srv, bp->id, wp->id, &gs, p->handicap, t.row.id,
						     round, start_at);
		if (gid < 0) {
			create_failed(c, req, &t, round, k);
			json_decref(pairs);
			json_decref(byes);
			goto out;
		}
		/* A withdrawn player's game: a forfeit; both withdrawn: a double loss, stored as
		 * Void with reason double_forfeit (Art. 17.5, 23.1; games_set_result). */
		if (p->black_absent || p->white_absent)
			games_set_result(srv, gid, p->black_absent && p->white_absent ? "Void" :
					 p->black_absent ? "W+F" : "B+F",
					 p->black_absent && p->white_absent ? "double_forfeit" : "adjudicated",
					 true);
		json_t *pj = json_pack("{s:I, s:s, s:s, s:i}", "game", (json_int_t)gid, "black",
				       bp->name, "white", wp->name, "handicap", p->handicap);
		if (p->handicap_wanted > p->handicap) {
			/* capped at what the board holds (or the director's handicap_max): said so */
			json_object_set_new(pj, "handicap_wanted", json_integer(p->handicap_wanted));
			log_msg(LOGL_INFO, "tournament_handicap", "tournament=%lld round=%d game=%lld "
				"handicap=%d handicap_wanted=%d size=%d", (long long)t.row.id, round,
				(long long)gid, p->handicap, p->handicap_wanted, gs.size);
		}
		json_array_append_new(pairs, pj);
	}
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
	ev_free(&b);
	tour_clear(&t);
}

void tournaments_result(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t game;
	const char *result, *reason = NULL;
	if (proto_get_id(req->root, "game", true, &game, &err) < 0 ||
	    proto_get_string(req->root, "result", true, STORE_RESULT_SIZE - 1, &result, &err) < 0 ||
	    proto_get_string(req->root, "reason", false, STORE_REASON_SIZE - 1, &reason, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	int rc = games_set_result(c->srv, game, result, reason, false);
	if (rc == -1) {
		server_reply_error(c, req->id, PROTO_ERR_NOT_FOUND, "no game %lld", (long long)game);
		return;
	}
	if (rc == -2) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
				   "field 'result': '%s' is not a result (B+R, W+3.5, B+T, W+F, 0, Void), or "
				   "'reason' is not a reason", result);
		return;
	}
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

static const char *result_text(enum event_result r)
{
	switch (r) {
	case RESULT_BLACK_WIN: return "B+";
	case RESULT_WHITE_WIN: return "W+";
	case RESULT_DRAW: return "0";
	case RESULT_BLACK_FORFEIT_WIN: return "B+F";
	case RESULT_WHITE_FORFEIT_WIN: return "W+F";
	case RESULT_DOUBLE_LOSS: return "double_loss";
	case RESULT_VOID: return "Void";
	default: return NULL;
	}
}

void tournaments_pairings(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t round = 0;
	struct tour t;
	struct ev_build b;
	if (proto_get_int(req->root, "round", false, 1, EVENT_MAX_ROUNDS, &round, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (tour_event(c, req, &t, &b) < 0)
		return;
	if (!round)
		round = current_round(&t);
	json_t *pairs = json_array(), *byes = json_array();
	for (int k = b.ev.ngames - 1; k >= 0; k--) { /* listed newest first: restore order */
		const struct event_game *g = &b.ev.games[k];
		if (g->round != round)
			continue;
		const char *res = result_text(g->result);
		json_array_append_new(pairs, json_pack("{s:I, s:s, s:s, s:i, s:s?}", "game",
			(json_int_t)b.game_ids[k], "black", b.ev.players[g->black].name, "white",
			b.ev.players[g->white].name, "handicap", g->handicap, "result", res));
	}
	for (int k = 0; k < b.ev.nbyes; k++)
		if (b.ev.byes[k].round == round)
			json_array_append_new(byes, json_string(b.ev.players[b.ev.byes[k].player].name));
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", json_integer(t.row.id));
	json_object_set_new(r, "round", json_integer(round));
	json_object_set_new(r, "pairings", pairs);
	json_object_set_new(r, "byes", byes);
	server_reply(c, r);
	ev_free(&b);
	tour_clear(&t);
}

/* The tie-break names of t (its own list, or the system's default). */
static int tiebreak_names(const struct tour *t, const char **names)
{
	json_t *tb = json_object_get(settings(t), "tiebreaks");
	int n = 0;
	if (json_array_size(tb) > 0) {
		for (size_t i = 0; i < json_array_size(tb) && n < STANDINGS_MAX_TIEBREAKS; i++)
			names[n++] = json_string_value(json_array_get(tb, i));
		return n;
	}
	const char *const *dflt;
	n = standings_default_tiebreaks(t->system, &dflt);
	for (int i = 0; i < n && i < STANDINGS_MAX_TIEBREAKS; i++)
		names[i] = dflt[i];
	return n < 0 ? 0 : n;
}

void tournaments_standings(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t round = 0;
	struct tour t;
	struct ev_build b;
	if (proto_get_int(req->root, "round", false, 1, EVENT_MAX_ROUNDS, &round, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (tour_event(c, req, &t, &b) < 0)
		return;
	const char *names[STANDINGS_MAX_TIEBREAKS];
	int ntb = tiebreak_names(&t, names);
	struct standing *rows = calloc(b.ev.nplayers ? (size_t)b.ev.nplayers : 1, sizeof *rows);
	int n = rows ? standings_apply_withdrawals(&b.ev) : STANDINGS_ENOMEM;
	if (n >= 0)
		n = standings_compute(&b.ev, (int)round, names, ntb, rows);
	if (n < 0) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "standings: %s", standings_strerror(n));
	} else {
		json_t *arr = json_array();
		for (int i = 0; i < n; i++) {
			json_t *tbj = json_object();
			for (int k = 0; k < ntb; k++)
				json_object_set_new(tbj, standings_tiebreak_name(standings_tiebreak_parse(names[k])),
						    json_real(rows[i].tiebreak[k]));
			json_array_append_new(arr, json_pack("{s:i, s:s, s:i, s:f, s:i, s:i, s:i, s:i, s:i, s:o}",
				"rank", rows[i].place, "player", b.ev.players[rows[i].player].name, "points",
				rows[i].points, "score", rows[i].score, "wins", rows[i].wins, "draws", rows[i].draws,
				"losses", rows[i].losses, "byes", rows[i].byes, "warnings", rows[i].warnings,
				"tiebreaks", tbj));
		}
		json_t *r = proto_reply_ok(req->id);
		json_object_set_new(r, "tournament", json_integer(t.row.id));
		json_object_set_new(r, "round", json_integer(round ? round : current_round(&t)));
		json_object_set_new(r, "score", json_string(standings_score_name(t.system)));
		json_object_set_new(r, "standings", arr);
		server_reply(c, r);
	}
	free(rows);
	ev_free(&b);
	tour_clear(&t);
}

static json_t *tour_summary(const struct store_tournament *row, json_t *state)
{
	json_t *players = json_object_get(state, "players");
	return json_pack("{s:I, s:s, s:s, s:i, s:i, s:O}", "id", (json_int_t)row->id, "name", row->name,
			 "system", row->system, "players", (int)json_array_size(players), "round",
			 (int)json_integer_value(json_object_get(state, "round")), "settings",
			 json_object_get(state, "settings"));
}

static int list_cb(void *ctx, const struct store_tournament *row)
{
	json_t *arr = ctx;
	json_t *state = json_loads(row->state, 0, NULL);
	if (state && json_array_size(arr) < TOURNAMENT_LIST_MAX)
		json_array_append_new(arr, tour_summary(row, state));
	json_decref(state);
	return 0;
}

void tournaments_list(struct conn *c, const struct proto_request *req)
{
	json_t *arr = json_array();
	store_tournaments_list(c->srv->store, list_cb, arr);
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournaments", arr);
	server_reply(c, r);
}

void tournaments_get(struct conn *c, const struct proto_request *req)
{
	struct tour t;
	if (tour_load(c, req, "tournament", &t) < 0)
		return;
	json_t *o = tour_summary(&t.row, t.state);
	json_t *field = json_array();
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(t.state, "players"), i, v) {
		char rank[RANK_STR_MAX];
		rank_format((int)json_integer_value(json_object_get(v, "rank")), rank, sizeof rank);
		json_array_append_new(field, json_pack("{s:O, s:s, s:O, s:O, s:O}", "name",
			json_object_get(v, "name"), "rank", rank, "rating", json_object_get(v, "rating"),
			"withdrawn_after", json_object_get(v, "withdrawn_after"), "withdrawn_before_start",
			json_object_get(v, "withdrawn_before_start")));
	}
	json_object_set_new(o, "field", field);
	json_object_set(o, "director", json_object_get(t.state, "director"));
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", o);
	server_reply(c, r);
	tour_clear(&t);
}

void tournaments_export(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int format;
	struct tour t;
	struct ev_build b;
	if (proto_get_choice(req->root, "format", true, formats, 3, &format, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (tour_event(c, req, &t, &b) < 0)
		return;
	const char *names[STANDINGS_MAX_TIEBREAKS];
	int ntb = tiebreak_names(&t, names);
	struct game_settings gs;
	game_settings_of(&t, &gs);
	char date[16];
	time_t now = (time_t)server_now();
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(date, sizeof date, "%Y-%m-%d", &tm);
	struct export_info info = {.tiebreaks = names, .ntiebreaks = ntb, .name = t.row.name,
				   .egd_class = "D", .date_start = date, .handicap_rule = "h9",
				   .komi = json_number_value(json_object_get(settings(&t), "komi")),
				   .time_minutes = (int)(gs.time.main_ms / 60000)};
	char *data = NULL;
	standings_apply_withdrawals(&b.ev);
	int rc = format == 0 ? export_json(&b.ev, &info, &data) :
		 format == 1 ? export_csv(&b.ev, &info, &data) : export_h9(&b.ev, &info, &data);
	if (rc < 0 || !data) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "export: %s", export_strerror(rc));
	} else {
		json_t *r = proto_reply_ok(req->id);
		json_object_set_new(r, "format", json_string(formats[format]));
		json_object_set_new(r, "data", json_string(data));
		server_reply(c, r);
	}
	free(data);
	ev_free(&b);
	tour_clear(&t);
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
		if (strcmp(row->system, systems[k]) == 0)
			t.system = (enum event_system)k;
	json_t *entry = json_pack("{s:I, s:s, s:s, s:i}", "id", (json_int_t)row->id, "name", row->name,
				  "system", row->system, "round", current_round(&t));
	struct ev_build b;
	const char *names[STANDINGS_MAX_TIEBREAKS];
	int ntb = tiebreak_names(&t, names);
	if (ev_build(o->srv, &t, &b) == 0) {
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
		ev_free(&b);
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
