/* tour: a tournament's state document and its event. See tour.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "panic.h"
#include "pairing.h"
#include "rating.h"
#include "ruleset.h"
#include "standings.h"
#include "svc_error.h"
#include "team.h"
#include "tour.h"

/* ---- the state document ---- */

void tour_clear(struct tour *t)
{
	store_tournament_clear(&t->row);
	json_decref(t->state);
	t->state = NULL;
}

/* Load tournament `id`; -1 (a not-found error in *e) if there is none. */
int tour_get(struct server *srv, int64_t id, struct tour *t, struct proto_error *e)
{
	memset(t, 0, sizeof *t);
	if (store_tournament_get(srv->store, id, &t->row) != STORE_OK ||
	    !(t->state = json_loads(t->row.state, 0, NULL))) {
		store_tournament_clear(&t->row);
		return svc_fail(e, PROTO_ERR_NOT_FOUND, "no tournament %lld", (long long)id);
	}
	/* none: round_robin, as memset left it; a team system: the system its teams pair by */
	if (event_system_parse(t->row.system, &t->system) < 0) {
		enum team_system ts;
		team_system_parse(t->row.system, &ts, &t->system);
	}
	return 0;
}

int tour_knockout_rounds(int n)
{
	int r = 0;
	while ((1 << r) < n)
		r++;
	return r;
}

int tour_rounds_planned(enum event_system system, json_t *state)
{
	json_t *settings = json_object_get(state, "settings");
	json_t *v = json_object_get(settings, "rounds");
	int rounds = json_is_integer(v) ? (int)json_integer_value(v) : TOURNAMENT_ROUNDS_DEFAULT;
	bool single_ko = system == SYSTEM_KNOCKOUT &&
			 !json_is_true(json_object_get(settings, "double_elimination")) &&
			 json_integer_value(json_object_get(settings, "elimination_losses")) <= 1;
	if (system != SYSTEM_ROUND_ROBIN && system != SYSTEM_DOUBLE_ROUND_ROBIN && !single_ko)
		return rounds;
	int active = 0;
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(state, "players"), i, p)
		active += !json_is_true(json_object_get(p, "withdrawn_before_start"));
	if (active < 2)
		return rounds;
	if (single_ko)
		return tour_knockout_rounds(active);
	return (system == SYSTEM_DOUBLE_ROUND_ROBIN ? 2 : 1) * pairing_berger_rounds(active);
}

void tour_save(struct server *srv, struct tour *t)
{
	char *text = json_dumps(t->state, JSON_COMPACT);
	server_txn(srv);
	/* Nothing was reported yet: a failed write stops the server (panic.h). */
	if (!text || store_tournament_update(srv->store, t->row.id, text) != STORE_OK)
		CORE_PANIC(text ? srv->store : NULL, "what=tournament_save tournament=%lld",
			   (long long)t->row.id);
	free(text);
}

json_t *tour_settings(const struct tour *t)
{
	return json_object_get(t->state, "settings");
}

int tour_setting_int(const struct tour *t, const char *key, int dflt)
{
	json_t *v = json_object_get(tour_settings(t), key);
	return json_is_integer(v) ? (int)json_integer_value(v) : dflt;
}

int tour_round(const struct tour *t)
{
	return (int)json_integer_value(json_object_get(t->state, "round"));
}

int tour_entry_withdrawn(const json_t *entry, const char *name, struct proto_error *e)
{
	json_int_t after = json_integer_value(json_object_get(entry, "withdrawn_after"));
	if (json_is_true(json_object_get(entry, "withdrawn_before_start")))
		return svc_fail(e, PROTO_ERR_CONFLICT, "%s withdrew before round 1", name);
	if (after > 0)
		return svc_fail(e, PROTO_ERR_CONFLICT, "%s withdrew after round %lld", name,
				(long long)after);
	return 0;
}

const char *const tour_venue_names[TOUR_VENUES] = {"online", "board"};
const char *const tour_handicap_by_names[TOUR_HANDICAP_BY] = {"rank", "mms"};

json_t *tour_entry_named(const struct tour *t, const char *name)
{
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(t->state, "players"), i, v)
		if (strcasecmp(json_string_value(json_object_get(v, "name")), name) == 0)
			return v;
	return NULL;
}

bool tour_board(const struct tour *t)
{
	const char *v = json_string_value(json_object_get(tour_settings(t), "venue"));
	return v && strcmp(v, tour_venue_names[TOUR_VENUE_BOARD]) == 0;
}

/* The game settings of every pairing. */
int tour_game_settings(const struct tour *t, struct game_settings *gs)
{
	struct proto_error err;
	json_t *s = tour_settings(t);
	memset(gs, 0, sizeof *gs);
	gs->size = tour_setting_int(t, "size", RULES_DEFAULT_SIZE);
	gs->komi = json_number_value(json_object_get(s, "komi"));
	json_t *hk = json_object_get(s, "handicap_komi"); /* absent in events created before it */
	gs->handicap_komi = json_is_number(hk) ? json_number_value(hk) :
						   ruleset_default()->default_handicap_komi;
	gs->rated = json_is_true(json_object_get(s, "rated"));
	gs->lateness_limit_s = tour_setting_int(t, "lateness_limit_s", GAMES_LATENESS_LIMIT_DEFAULT_S);
	rules_default(&gs->rules);
	if (proto_get_rules_stored(s, "rules", false, &gs->rules, &err) < 0 ||
	    proto_get_time(s, "time", false, &gs->time, &err) < 0)
		return -1;
	return 0;
}

/* The most handicap a pairing may give on a board of `size`: the director's `handicap_max`
 * (0..PAIRING_HANDICAP_CAP) capped at what the board can hold (board_handicap_max: 9, 4, or 1
 * below 7x7, where a handicap is Black moving first); 0 for a size no board has. */
int tour_handicap_cap(int configured, int size)
{
	int board = board_handicap_max(size);
	if (board < 0)
		board = 0;
	if (configured < 0 || configured > PAIRING_HANDICAP_CAP)
		configured = PAIRING_HANDICAP_CAP;
	return configured < board ? configured : board;
}

/* ---- the event as pairing and standings see it ---- */

void tour_ev_free(struct ev_build *b)
{
	for (int i = 0; b->names && i < b->ev.nplayers; i++)
		free(b->names[i]);
	free(b->names);
	for (int i = 0; b->profile_strs && i < TOUR_PROFILE_STRS * b->ev.nplayers; i++)
		free(b->profile_strs[i]);
	free(b->profile_strs);
	free(b->ev.players);
	free(b->ev.games);
	free(b->ev.byes);
	free(b->game_ids);
	free(b->by_id);
	memset(b, 0, sizeof *b);
}

int tour_player_index(const struct event *ev, int64_t id)
{
	for (int i = 0; i < ev->nplayers; i++)
		if (ev->players[i].id == id)
			return i;
	return -1;
}

bool tour_called_off(const struct store_game *g)
{
	return strcmp(g->reason, "declined") == 0 || strcmp(g->reason, "expired") == 0;
}

bool tour_unplayed_forfeit(const struct ruleset_result *res, const char *reason)
{
	return res->decided_by && res->how == RULESET_WIN_FORFEIT &&
	       !(reason && (strcmp(reason, "warnings") == 0 || strcmp(reason, "illegal") == 0));
}

/* A stored result as the standings see it. Forfeits: an "F" result not decided at the board
 * (lateness, a director's forfeit, a withdrawal). */
enum event_result tour_result_of(const struct store_game *g)
{
	if (strcmp(g->phase, "ended") != 0 || tour_called_off(g))
		return RESULT_NONE;
	struct ruleset_result res;
	if (ruleset_find(tour_game_ruleset(g))->result_parse(g->result, &res) < 0)
		res = (struct ruleset_result){ .winner = EMPTY }; /* "": no result */
	if (res.draw)
		return RESULT_DRAW;
	if (res.winner == EMPTY) /* "Void", or no result */
		return strcmp(g->reason, "double_forfeit") == 0 ? RESULT_DOUBLE_LOSS : RESULT_VOID;
	bool forfeit = tour_unplayed_forfeit(&res, g->reason);
	if (res.winner == BLACK)
		return forfeit ? RESULT_BLACK_FORFEIT_WIN : RESULT_BLACK_WIN;
	return forfeit ? RESULT_WHITE_FORFEIT_WIN : RESULT_WHITE_WIN;
}

const char *tour_result_shown(const struct event_game *g)
{
	switch (g->result) {
	case RESULT_BLACK_WIN: return g->result_text[0] ? g->result_text : "B+";
	case RESULT_WHITE_WIN: return g->result_text[0] ? g->result_text : "W+";
	case RESULT_DRAW: return "0";
	case RESULT_BLACK_FORFEIT_WIN: return "B+F";
	case RESULT_WHITE_FORFEIT_WIN: return "W+F";
	case RESULT_DOUBLE_LOSS: return "double_loss";
	case RESULT_VOID: return g->result_text[0] ? g->result_text : "Void"; /* a replayed draw: "0" */
	default: return NULL;
	}
}

const char *tour_game_ruleset(const struct store_game *g)
{
	/* The games of an event share one rules text, and a standings request reads every game
	 * twice (collect_game, tour_result_of): parsing each took a fifth of the time of a
	 * 2,000-entrant Swiss's standings. The last text read and its answer are kept (the loop's
	 * thread only). */
	static char *last;
	static bool last_pred;
	if (g->rules && last && strcmp(g->rules, last) == 0)
		return last_pred ? ruleset_prediction.name : ruleset_default()->name;
	json_t *r = g->rules ? json_loads(g->rules, 0, NULL) : NULL;
	const char *n = json_string_value(json_object_get(r, "ruleset"));
	bool pred = n && strcmp(n, "prediction") == 0;
	json_decref(r);
	char *copy = g->rules ? strdup(g->rules) : NULL;
	if (copy) {
		free(last);
		last = copy;
		last_pred = pred;
	}
	return pred ? ruleset_prediction.name : ruleset_default()->name;
}

/* Seed 000: is the first player in the game's Black column (the row's extra says which)? */
static bool first_in_black(const struct store_game *g)
{
	json_t *x = g->extra ? json_loads(g->extra, 0, NULL) : NULL;
	const char *f = json_string_value(json_object_get(json_object_get(x, "prediction"), "first"));
	bool black = !f || strcmp(f, "W") != 0;
	json_decref(x);
	return black;
}

/* The result seen from the other side (colours exchanged). */
static enum event_result mirrored(enum event_result r)
{
	switch (r) {
	case RESULT_BLACK_WIN: return RESULT_WHITE_WIN;
	case RESULT_WHITE_WIN: return RESULT_BLACK_WIN;
	case RESULT_BLACK_FORFEIT_WIN: return RESULT_WHITE_FORFEIT_WIN;
	case RESULT_WHITE_FORFEIT_WIN: return RESULT_BLACK_FORFEIT_WIN;
	default: return r;
	}
}

static int pid_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct tour_pid *)a)->id, y = ((const struct tour_pid *)b)->id;
	return x < y ? -1 : x > y;
}

/* The index in b->ev.players of player `id`, -1 if not an entrant (binary search of by_id). */
static int build_index(const struct ev_build *b, int64_t id)
{
	struct tour_pid key = {.id = id};
	const struct tour_pid *p = bsearch(&key, b->by_id, (size_t)b->ev.nplayers, sizeof *p, pid_cmp);
	return p ? p->index : -1;
}

/* Room for one more game in b (doubling); false when out of memory. */
static bool games_room(struct ev_build *b)
{
	if (b->ev.ngames < b->games_cap)
		return true;
	int cap = b->games_cap ? 2 * b->games_cap : 64;
	struct event_game *g = realloc(b->ev.games, (size_t)cap * sizeof *g);
	if (g)
		b->ev.games = g;
	int64_t *ids = g ? realloc(b->game_ids, (size_t)cap * sizeof *ids) : NULL;
	if (ids)
		b->game_ids = ids;
	if (!g || !ids)
		return false;
	b->games_cap = cap;
	return true;
}

static int collect_game(void *ctx, const struct store_game *g)
{
	struct ev_build *b = ctx;
	int bi = build_index(b, g->black_id), wi = build_index(b, g->white_id);
	if (bi < 0 || wi < 0 || g->round < 1 || tour_called_off(g))
		return 0;
	if (!games_room(b)) {
		b->failed = true;
		return 1;
	}
	struct event_game *eg = &b->ev.games[b->ev.ngames];
	b->game_ids[b->ev.ngames++] = g->id;
	*eg = (struct event_game){.id = g->id, .round = g->round, .black = bi, .white = wi,
				  .handicap = g->handicap, .result = tour_result_of(g),
				  .black_warnings = g->warnings_b, .white_warnings = g->warnings_w};
	/* Seed 000: the event's White is the first player (so that pairing balances who is
	 * first), whatever colour the predictions gave: the game seen from there. */
	if (strcmp(tour_game_ruleset(g), ruleset_prediction.name) == 0 && first_in_black(g))
		*eg = (struct event_game){.id = g->id, .round = g->round, .black = wi, .white = bi,
					  .handicap = g->handicap, .result = mirrored(eg->result),
					  .black_warnings = g->warnings_w,
					  .white_warnings = g->warnings_b};
	if (eg->result != RESULT_NONE && strlen(g->result) < sizeof eg->result_text) {
		strcpy(eg->result_text, g->result);
		/* a mirrored game's text names the colours as the event sees them, too */
		if (eg->black == wi && wi != bi && (eg->result_text[0] == 'B' || eg->result_text[0] == 'W'))
			eg->result_text[0] = eg->result_text[0] == 'B' ? 'W' : 'B';
	}
	/* Knockout: a drawn game is replayed in the same round (docs/rules.md §4); once its
	 * replay exists (collected already: newest first) the draw no longer counts, as a void
	 * game does not: one game a round each, the replay's (standings and the exports; its
	 * result stays shown as recorded, "0") */
	if (b->ev.system == SYSTEM_KNOCKOUT && eg->result == RESULT_DRAW)
		for (int j = 0; j < b->ev.ngames - 1; j++) {
			const struct event_game *h = &b->ev.games[j];
			if (h->round == eg->round && ((h->black == eg->black && h->white == eg->white) ||
			    (h->black == eg->white && h->white == eg->black))) {
				eg->result = RESULT_VOID;
				break;
			}
		}
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

int tour_ev_build(struct server *srv, const struct tour *t, struct ev_build *b)
{
	memset(b, 0, sizeof *b);
	json_t *players = json_object_get(t->state, "players"), *byes = json_object_get(t->state, "byes");
	size_t np = json_array_size(players), nb = json_array_size(byes);
	struct store_games_filter f = {.tournament_id = t->row.id};
	b->ev.players = calloc(np ? np : 1, sizeof *b->ev.players);
	b->names = calloc(np ? np : 1, sizeof *b->names);
	b->profile_strs = calloc(np ? TOUR_PROFILE_STRS * np : 1, sizeof *b->profile_strs);
	b->by_id = calloc(np ? np : 1, sizeof *b->by_id);
	b->ev.byes = calloc(nb ? nb : 1, sizeof *b->ev.byes);
	if (!b->ev.players || !b->names || !b->by_id || !b->ev.byes || !b->profile_strs ||
	    !games_room(b)) {
		tour_ev_free(b);
		return -1;
	}
	b->ev.system = t->system;
	for (size_t i = 0; i < np; i++) {
		json_t *p = json_array_get(players, i);
		struct event_player *ep = &b->ev.players[i];
		const char *name = json_string_value(json_object_get(p, "name"));
		if (!(b->names[i] = strdup(name ? name : "")))
			b->failed = true; /* after the loop: every name so far is freed */
		ep->id = (int)json_integer_value(json_object_get(p, "id"));
		ep->name = b->names[i];
		ep->rank = (int)json_integer_value(json_object_get(p, "rank"));
		ep->rating = json_number_value(json_object_get(p, "rating"));
		ep->withdrawn_after = (int)json_integer_value(json_object_get(p, "withdrawn_after"));
		ep->withdrawn_before_start = json_is_true(json_object_get(p, "withdrawn_before_start"));
		size_t k;
		json_t *r;
		json_array_foreach(json_object_get(p, "absent"), k, r) {
			json_int_t round = json_integer_value(r);
			if (round >= 1 && round <= EVENT_MAX_ROUNDS)
				ep->absent_rounds |= (uint64_t)1 << (round - 1);
		}
		/* The EGD's fields and an account's full name (svc/profiles.h), kept with the entry
		 * at registration (svc/tour_field.c). */
		const char *keys[TOUR_PROFILE_STRS] = {"country", "club", "egd_pin", "full_name"};
		const char **dst[TOUR_PROFILE_STRS] = {&ep->country, &ep->club, &ep->egd_pin,
						       &ep->full_name};
		for (int f = 0; f < TOUR_PROFILE_STRS; f++) {
			const char *v = json_string_value(json_object_get(p, keys[f]));
			char **slot = &b->profile_strs[TOUR_PROFILE_STRS * i + f];
			if (v && (*slot = strdup(v)))
				*dst[f] = *slot;
		}
	}
	b->ev.nplayers = (int)np;
	if (b->failed) {
		tour_ev_free(b);
		return -1;
	}
	for (size_t i = 0; i < np; i++)
		b->by_id[i] = (struct tour_pid){.id = b->ev.players[i].id, .index = (int)i};
	qsort(b->by_id, np, sizeof *b->by_id, pid_cmp);
	int order[EVENT_MAX_PLAYERS];
	for (int i = 0; i < (int)np; i++)
		order[i] = i;
	seed_base = b->ev.players;
	qsort(order, np, sizeof *order, seed_cmp);
	for (int i = 0; i < (int)np; i++)
		b->ev.players[order[i]].seed = i;
	/* A failed read must not pass for an event without games: the reply would say so, and
	 * the reply cache (cmd/dispatch.c) would keep it. */
	if (store_games_list(srv->store, &f, collect_game, b) != STORE_OK || b->failed) {
		tour_ev_free(b);
		return -1;
	}
	for (size_t i = 0; i < nb; i++) {
		json_t *y = json_array_get(byes, i);
		b->ev.byes[b->ev.nbyes++] = (struct event_bye){
			(int)json_integer_value(json_object_get(y, "round")),
			(int)json_integer_value(json_object_get(y, "player"))};
	}
	b->ev.rounds_planned = tour_rounds_planned(t->system, t->state);
	b->ev.rounds_played = tour_round(t);
	b->ev.bye_points = tour_setting_int(t, "bye", 2);
	b->ev.mcmahon_bar = tour_setting_int(t, "mcmahon_bar", 0);
	b->ev.mcmahon_floor = tour_setting_int(t, "mcmahon_floor", -20);
	b->ev.mms_bye = 1.0;
	json_t *ma = json_object_get(tour_settings(t), "mms_absent");
	b->ev.mms_absent = json_is_number(ma) ? json_number_value(ma) : TOURNAMENT_MMS_ABSENT_DEFAULT;
	b->ev.absent_points = tour_setting_int(t, "absent_points", 0);
	b->ev.handicap = json_is_true(json_object_get(tour_settings(t), "handicap"));
	b->ev.handicap_correction = tour_setting_int(t, "handicap_correction",
						     TOURNAMENT_HANDICAP_CORRECTION_DEFAULT);
	b->ev.handicap_max = tour_handicap_cap(tour_setting_int(t, "handicap_max", PAIRING_HANDICAP_CAP),
					  tour_setting_int(t, "size", RULES_DEFAULT_SIZE));
	b->ev.handicap_none_above = tour_setting_int(t, "handicap_none_above", RANK_MAX);
	const char *hb = json_string_value(json_object_get(tour_settings(t), "handicap_by"));
	b->ev.handicap_by_mms = hb && strcmp(hb, tour_handicap_by_names[1]) == 0;
	b->ev.double_elimination = json_is_true(json_object_get(tour_settings(t), "double_elimination"));
	/* elimination after k losses (docs/teams.md): the standings' KO score counts k */
	b->ev.elimination_losses = tour_setting_int(t, "elimination_losses", 0);
	return 0;
}

/* Load tournament `id` and build its event; -1 (an error in *e) on failure. */
int tour_event_get(struct server *srv, int64_t id, struct tour *t, struct ev_build *b,
		   struct proto_error *e)
{
	if (tour_get(srv, id, t, e) < 0)
		return -1;
	if (tour_ev_build(srv, t, b) < 0) {
		tour_clear(t);
		return svc_fail(e, PROTO_ERR_INTERNAL, "could not read the tournament");
	}
	return 0;
}

/* The tie-break names of t (its own list, or the system's default). */
int tour_tiebreak_names(const struct tour *t, const char **names)
{
	json_t *tb = json_object_get(tour_settings(t), "tiebreaks");
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
