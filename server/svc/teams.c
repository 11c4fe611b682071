/* teams: team events on the server. See teams.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "arenas.h"
#include "games.h"
#include "log.h"
#include "pairing.h"
#include "panic.h"
#include "rating.h"
#include "ruleset.h"
#include "svc_error.h"
#include "team.h"
#include "teams.h"
#include "profiles.h"

bool teams_is_team(const struct tour *t)
{
	enum team_system ts;
	enum event_system base;
	return team_system_parse(t->row.system, &ts, &base) == 0;
}

int teams_rounds_planned(const char *system, json_t *state)
{
	enum team_system ts;
	enum event_system base;
	if (team_system_parse(system, &ts, &base) != 0 || ts == TEAM_SYSTEM_ARENA)
		return -1;
	json_t *v = json_object_get(json_object_get(state, "settings"), "rounds");
	int rounds = json_is_integer(v) ? (int)json_integer_value(v) : TOURNAMENT_ROUNDS_DEFAULT;
	int n = (int)json_array_size(json_object_get(state, "teams"));
	if (ts == TEAM_SYSTEM_SWISS || n < 2)
		return rounds;
	return ts == TEAM_SYSTEM_ROUND_ROBIN ? pairing_berger_rounds(n) : tour_knockout_rounds(n);
}

static json_t *state_array(struct tour *t, const char *key)
{
	json_t *a = json_object_get(t->state, key);
	if (!json_is_array(a)) {
		a = json_array();
		json_object_set_new(t->state, key, a);
	}
	return a;
}

static int boards_of(const struct tour *t)
{
	return tour_setting_int(t, "boards", 0);
}

/* The index of team `name` (case-insensitive) in state.teams, or -1. */
static int team_index(const struct tour *t, const char *name)
{
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(t->state, "teams"), i, v)
		if (strcasecmp(json_string_value(json_object_get(v, "name")), name) == 0)
			return (int)i;
	return -1;
}

static const char *team_name(const struct tour *t, int team)
{
	json_t *v = json_array_get(json_object_get(t->state, "teams"), (size_t)team);
	return json_string_value(json_object_get(v, "name"));
}

/* The index of player `name` in state.players, or -1. */
static int player_index(const struct tour *t, const char *name)
{
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(t->state, "players"), i, v)
		if (strcasecmp(json_string_value(json_object_get(v, "name")), name) == 0)
			return (int)i;
	return -1;
}

/* Is player index p in some team of t? */
static bool in_a_team(const struct tour *t, int p)
{
	size_t i, j;
	json_t *v, *w;
	json_array_foreach(json_object_get(t->state, "teams"), i, v)
		json_array_foreach(json_object_get(v, "players"), j, w)
			if (json_integer_value(w) == p)
				return true;
	return false;
}

/* Put player `name` in t's field (as tournament.register does); *idx its index. */
static int field_add(struct server *srv, struct tour *t, const char *name, int *idx,
		     struct proto_error *e)
{
	struct store_player p;
	if (store_player_by_name(srv->store, name, &p) != STORE_OK)
		return svc_fail(e, PROTO_ERR_NOT_FOUND, "no player named '%s'", name);
	json_t *players = state_array(t, "players");
	int k = player_index(t, p.name);
	if (k >= 0) {
		if (in_a_team(t, k))
			return svc_fail(e, PROTO_ERR_CONFLICT, "%s is in another team", p.name);
		json_object_set_new(json_array_get(players, (size_t)k), "withdrawn_before_start",
				    json_false());
		*idx = k;
		return 0;
	}
	if (json_array_size(players) >= EVENT_MAX_PLAYERS)
		return svc_fail(e, PROTO_ERR_CONFLICT, "the field is full (%d players)", EVENT_MAX_PLAYERS);
	int rank;
	if (!p.rank[0] || rank_parse(p.rank, &rank) < 0)
		rank = rating_rank_value(p.rating);
	json_t *v = json_pack("{s:I, s:s, s:i, s:f, s:i, s:b}", "id", (json_int_t)p.id, "name",
			      p.name, "rank", rank, "rating", p.rating, "withdrawn_after", 0,
			      "withdrawn_before_start", 0);
	struct store_profile prof; /* full name, country, club, PIN for the exports (h9) */
	if (v && store_profile_get(srv->store, p.id, &prof) == STORE_OK)
		profile_entry_set(v, &prof);
	json_array_append_new(players, v);
	*idx = (int)json_array_size(players) - 1;
	return 0;
}

/* Check a list of names: strings, no name twice (also across `other`). */
static int names_check(const json_t *names, const json_t *other, const char *field,
		       struct proto_error *e)
{
	size_t i, j;
	json_t *v, *w;
	json_array_foreach(names, i, v) {
		if (!json_is_string(v) || !json_string_length(v))
			return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field '%s': entry %zu is not a name",
					field, i + 1);
		for (j = 0; j < i; j++)
			if (strcasecmp(json_string_value(json_array_get(names, j)), json_string_value(v)) == 0)
				return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field '%s': %s is named twice",
						field, json_string_value(v));
		json_array_foreach(other, j, w)
			if (json_is_string(w) && strcasecmp(json_string_value(w), json_string_value(v)) == 0)
				return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field '%s': %s is named twice",
						field, json_string_value(v));
	}
	return 0;
}

int teams_create(struct server *srv, int64_t tournament, const char *name, const json_t *players,
		 const json_t *reserves, int *team, struct proto_error *e)
{
	struct tour t;
	if (tour_get(srv, tournament, &t, e) < 0)
		return -1;
	int rc = -1, boards = boards_of(&t);
	if (!teams_is_team(&t)) {
		svc_fail(e, PROTO_ERR_CONFLICT, "tournament %lld is not a team event", (long long)tournament);
		goto out;
	}
	if (tour_round(&t) > 0) {
		svc_fail(e, PROTO_ERR_CONFLICT, "registration closed: round 1 has started");
		goto out;
	}
	if (team_index(&t, name) >= 0) {
		svc_fail(e, PROTO_ERR_CONFLICT, "a team named '%s' exists", name);
		goto out;
	}
	if (arenas_is_arena(&t) && json_array_size(json_object_get(t.state, "teams")) >= 2) {
		svc_fail(e, PROTO_ERR_CONFLICT, "an arena match has 2 teams");
		goto out;
	}
	if (json_array_size(json_object_get(t.state, "teams")) >= TEAM_MAX_TEAMS) {
		svc_fail(e, PROTO_ERR_CONFLICT, "the event is full (%d teams)", TEAM_MAX_TEAMS);
		goto out;
	}
	if ((int)json_array_size(players) != boards) {
		svc_fail(e, PROTO_ERR_BAD_REQUEST, "field 'players': a team of this event has %d "
			 "players (boards), not %zu", boards, json_array_size(players));
		goto out;
	}
	if (json_array_size(reserves) > TEAM_MAX_RESERVES) {
		svc_fail(e, PROTO_ERR_BAD_REQUEST, "field 'reserves': at most %d", TEAM_MAX_RESERVES);
		goto out;
	}
	if (names_check(players, reserves, "players", e) < 0 ||
	    names_check(reserves, NULL, "reserves", e) < 0)
		goto out;
	json_t *idx = json_array();
	size_t i;
	json_t *v;
	/* a refusal below saves nothing: the document changed only in memory */
	const json_t *lists[2] = {players, reserves};
	for (int l = 0; l < 2; l++)
		json_array_foreach(lists[l], i, v) {
			int k = -1;
			if (field_add(srv, &t, json_string_value(v), &k, e) < 0) {
				json_decref(idx);
				goto out;
			}
			json_array_append_new(idx, json_integer(k));
		}
	json_array_append_new(state_array(&t, "teams"), json_pack("{s:s, s:o}", "name", name,
								  "players", idx));
	tour_save(srv, &t);
	*team = (int)json_array_size(json_object_get(t.state, "teams"));
	log_msg(LOGL_INFO, "team_create", "tournament=%lld team=%d name=\"%s\"",
		(long long)tournament, *team, name);
	rc = 0;
out:
	tour_clear(&t);
	return rc;
}

/* Is player index p among team `team`'s players or reserves? */
static bool of_team(const struct tour *t, int team, int p)
{
	size_t i;
	json_t *v;
	json_t *tm = json_array_get(json_object_get(t->state, "teams"), (size_t)team);
	json_array_foreach(json_object_get(tm, "players"), i, v)
		if (json_integer_value(v) == p)
			return true;
	return false;
}

int teams_lineup(struct server *srv, int64_t tournament, const char *by, bool td,
		 const json_t *team, int round, const json_t *players, struct proto_error *e)
{
	struct tour t;
	if (tour_get(srv, tournament, &t, e) < 0)
		return -1;
	int rc = -1, k = -1;
	json_int_t no = json_integer_value(team);
	size_t nteams = json_array_size(json_object_get(t.state, "teams"));
	if (teams_is_team(&t))
		k = !json_is_integer(team) ? team_index(&t, json_string_value(team))
		    : no >= 1 && (size_t)no <= nteams ? (int)no - 1 : -1;
	const char *per_round = json_string_value(json_object_get(tour_settings(&t), "lineup"));
	if (k < 0) {
		if (json_is_integer(team))
			svc_fail(e, PROTO_ERR_NOT_FOUND, "no team %lld in tournament %lld",
				 (long long)no, (long long)tournament);
		else
			svc_fail(e, PROTO_ERR_NOT_FOUND, "no team '%s' in tournament %lld",
				 json_string_value(team), (long long)tournament);
		goto out;
	}
	json_t *tm = json_array_get(json_object_get(t.state, "teams"), (size_t)k);
	int captain = (int)json_integer_value(json_array_get(json_object_get(tm, "players"), 0));
	const char *cname = json_string_value(json_object_get(
		json_array_get(json_object_get(t.state, "players"), (size_t)captain), "name"));
	if (!td && (!cname || strcasecmp(cname, by) != 0)) {
		svc_fail(e, PROTO_ERR_FORBIDDEN, "only a director or the team's captain (%s) names "
			 "its lineup", cname ? cname : "?");
		goto out;
	}
	if (!per_round || strcmp(per_round, "per_round") != 0) {
		svc_fail(e, PROTO_ERR_CONFLICT, "this event's lineups are fixed at registration");
		goto out;
	}
	int planned = teams_rounds_planned(t.row.system, t.state);
	if (planned > 0 && round > planned) {
		svc_fail(e, PROTO_ERR_BAD_REQUEST, "field 'round': the event has rounds 1 to %d",
			 planned);
		goto out;
	}
	if (round <= tour_round(&t)) {
		svc_fail(e, PROTO_ERR_CONFLICT, "round %d has started", round);
		goto out;
	}
	if ((int)json_array_size(players) != boards_of(&t)) {
		svc_fail(e, PROTO_ERR_BAD_REQUEST, "field 'players': %d names (boards), not %zu",
			 boards_of(&t), json_array_size(players));
		goto out;
	}
	if (names_check(players, NULL, "players", e) < 0)
		goto out;
	json_t *idx = json_array();
	size_t i;
	json_t *v;
	json_array_foreach(players, i, v) {
		int p = player_index(&t, json_string_value(v));
		if (p < 0 || !of_team(&t, k, p)) {
			json_decref(idx);
			svc_fail(e, PROTO_ERR_BAD_REQUEST, "field 'players': %s is not in team %s",
				 json_string_value(v), team_name(&t, k));
			goto out;
		}
		json_array_append_new(idx, json_integer(p));
	}
	json_t *lineups = state_array(&t, "lineups");
	for (i = json_array_size(lineups); i-- > 0;) {
		json_t *l = json_array_get(lineups, i);
		if (json_integer_value(json_object_get(l, "team")) == k &&
		    json_integer_value(json_object_get(l, "round")) == round)
			json_array_remove(lineups, i); /* named again: the last one counts */
	}
	json_array_append_new(lineups, json_pack("{s:i, s:i, s:o}", "team", k, "round", round,
						 "players", idx));
	tour_save(srv, &t);
	log_msg(LOGL_INFO, "team_lineup", "tournament=%lld team=%d round=%d by=%s",
		(long long)tournament, k + 1, round, by);
	rc = 0;
out:
	tour_clear(&t);
	return rc;
}

/* ---- the team event as common/team.h sees it ---- */

struct team_build {
	struct team_event te;
	struct team *teams;
	struct team_game *games;
	struct team_bye *byes;
};

static void team_build_free(struct team_build *tb)
{
	free(tb->teams);
	free(tb->games);
	free(tb->byes);
	memset(tb, 0, sizeof *tb);
}

/* The index of game `gid` in b's games, or -1. */
static int game_at(const struct ev_build *b, int64_t gid)
{
	for (int k = 0; k < b->ev.ngames; k++)
		if (b->game_ids[k] == gid)
			return k;
	return -1;
}

/* A board forfeited without a game (forfeit: 1 home, 2 away, 3 both out) as a result from
 * Black's side, home Black or not. */
static enum event_result forfeit_result(int forfeit, bool home_black)
{
	if (forfeit == 3)
		return RESULT_DOUBLE_LOSS;
	bool black_lost = (forfeit == 1) == home_black;
	return black_lost ? RESULT_WHITE_FORFEIT_WIN : RESULT_BLACK_FORFEIT_WIN;
}

/* One match's board games into tb. */
static void build_match(const struct ev_build *b, struct team_build *tb, const json_t *m, int boards)
{
	int round = (int)json_integer_value(json_object_get(m, "round"));
	int home = (int)json_integer_value(json_object_get(m, "home"));
	int away = (int)json_integer_value(json_object_get(m, "away"));
	const json_t *gids = json_object_get(m, "games"), *ff = json_object_get(m, "forfeits");
	for (int bd = 0; bd < boards; bd++) {
		struct team_game *g = &tb->games[tb->te.ngames];
		int64_t gid = json_integer_value(json_array_get(gids, (size_t)bd));
		int k = gid ? game_at(b, gid) : -1;
		*g = (struct team_game){ .round = round, .home = home, .away = away, .board = bd,
			.home_player = -1, .away_player = -1, .home_black = team_home_black(bd) };
		if (k >= 0) {
			const struct event_game *x = &b->ev.games[k];
			g->home_player = g->home_black ? x->black : x->white;
			g->away_player = g->home_black ? x->white : x->black;
			g->result = x->result;
		} else if (gid == 0) {
			g->result = forfeit_result((int)json_integer_value(json_array_get(ff, (size_t)bd)),
						   g->home_black);
		} else {
			continue; /* a game not in the store: the board stays pending */
		}
		tb->te.ngames++;
	}
}

static int team_build(const struct tour *t, const struct ev_build *b, struct team_build *tb)
{
	memset(tb, 0, sizeof *tb);
	json_t *teams = json_object_get(t->state, "teams"), *matches = json_object_get(t->state, "matches");
	json_t *byes = json_object_get(t->state, "team_byes");
	int boards = boards_of(t);
	size_t nt = json_array_size(teams), nm = json_array_size(matches), nb = json_array_size(byes);
	if (boards < 1 || boards > TEAM_MAX_BOARDS || nt > TEAM_MAX_TEAMS)
		return -1;
	tb->teams = calloc(nt + 1, sizeof *tb->teams);
	tb->games = calloc(nm * (size_t)boards + 1, sizeof *tb->games);
	tb->byes = calloc(nb + 1, sizeof *tb->byes);
	if (!tb->teams || !tb->games || !tb->byes) {
		team_build_free(tb);
		return -1;
	}
	enum team_system ts;
	team_system_parse(t->row.system, &ts, &tb->te.system);
	tb->te.boards = boards;
	for (size_t i = 0; i < nt; i++) {
		json_t *v = json_array_get(teams, i), *pl = json_object_get(v, "players");
		struct team *x = &tb->teams[i];
		x->name = json_string_value(json_object_get(v, "name"));
		x->seed = (int)i;
		x->nplayers = (int)json_array_size(pl);
		if (x->nplayers > boards + TEAM_MAX_RESERVES)
			x->nplayers = boards + TEAM_MAX_RESERVES;
		for (int k = 0; k < x->nplayers; k++)
			x->players[k] = (int)json_integer_value(json_array_get(pl, (size_t)k));
	}
	tb->te.nteams = (int)nt;
	tb->te.teams = tb->teams;
	tb->te.nplayers = b->ev.nplayers;
	tb->te.players = b->ev.players;
	for (size_t i = 0; i < nm; i++)
		build_match(b, tb, json_array_get(matches, i), boards);
	tb->te.games = tb->games;
	for (size_t i = 0; i < nb; i++) {
		json_t *y = json_array_get(byes, i);
		tb->byes[i] = (struct team_bye){ (int)json_integer_value(json_object_get(y, "round")),
						 (int)json_integer_value(json_object_get(y, "team")) };
	}
	tb->te.nbyes = (int)nb;
	tb->te.byes = tb->byes;
	tb->te.rounds_planned = tb->te.system == SYSTEM_SWISS ?
		tour_setting_int(t, "rounds", TOURNAMENT_ROUNDS_DEFAULT) : 0;
	tb->te.bye_match_points = tour_setting_int(t, "bye", TEAM_MATCH_POINTS_WIN);
	tb->te.bye_board_points = tb->te.bye_match_points;
	tb->te.reserves = true;
	if (team_validate(&tb->te) != TEAM_OK) {
		team_build_free(tb);
		return -1;
	}
	return 0;
}

/* ---- rounds ---- */

/* Team `team`'s players in round `round`: its "per_round" lineup if it named one, else the
 * fixed order with reserves for withdrawn players (team_lineup); -1: nobody (a forfeit). */
static void lineup_of(const struct tour *t, const struct team_event *te, int team, int round,
		      int *out)
{
	size_t i;
	json_t *l;
	json_array_foreach(json_object_get(t->state, "lineups"), i, l) {
		if (json_integer_value(json_object_get(l, "team")) != team ||
		    json_integer_value(json_object_get(l, "round")) != round)
			continue;
		for (int bd = 0; bd < te->boards; bd++) {
			int p = (int)json_integer_value(json_array_get(json_object_get(l, "players"),
								       (size_t)bd));
			const struct event_player *q = &te->players[p];
			bool in = !q->withdrawn_before_start &&
				  (q->withdrawn_after == 0 || q->withdrawn_after >= round);
			out[bd] = in ? p : -1;
		}
		return;
	}
	if (team_lineup(te, team, round, out) != TEAM_OK)
		for (int bd = 0; bd < te->boards; bd++)
			out[bd] = -1;
}

static json_t *name_or_null(const struct ev_build *b, int p)
{
	return p >= 0 ? json_string(b->ev.players[p].name) : json_null();
}

static const char *const forfeit_names[4] = {NULL, "home", "away", "both"};

/* Create match m's board games (lineups hl, al); fills the state's match object and the
 * reply's pairing. Returns the games created, or -1 after a failed creation (*e; the server
 * stops if games of the round already exist, as tournaments.c's create_failed). */
static int create_match(struct server *srv, const struct tour *t, const struct ev_build *b,
			const struct game_settings *gs, int round, double start_at, const int *hl,
			const int *al, int boards, int created, json_t *sm, json_t *pj,
			struct proto_error *e)
{
	json_t *gids = json_object_get(sm, "games"), *ff = json_object_get(sm, "forfeits");
	json_t *games = json_object_get(pj, "games");
	int n = 0;
	for (int bd = 0; bd < boards; bd++) {
		bool hb = team_home_black(bd);
		int black = hb ? hl[bd] : al[bd], white = hb ? al[bd] : hl[bd];
		int forfeit = (hl[bd] < 0 ? 1 : 0) | (al[bd] < 0 ? 2 : 0);
		int64_t gid = 0;
		if (!forfeit) {
			gid = games_create_scheduled(srv, b->ev.players[black].id, b->ev.players[white].id,
						     gs, 0, t->row.id, round,
						     tour_board(t) ? 0 : start_at);
			if (gid < 0) {
				if (created + n > 0)
					CORE_PANIC(srv->store, "what=team_round tournament=%lld round=%d",
						   (long long)t->row.id, round);
				return svc_fail(e, PROTO_ERR_INTERNAL, "round %d: a game could not be "
						"created", round);
			}
			n++;
		}
		json_array_append_new(gids, json_integer(gid));
		json_array_append_new(ff, json_integer(forfeit));
		json_t *gj = json_pack("{s:i, s:o, s:o, s:o}", "board", bd + 1, "game",
				       gid ? json_integer(gid) : json_null(), "black",
				       name_or_null(b, black), "white", name_or_null(b, white));
		if (forfeit)
			json_object_set_new(gj, "forfeit", json_string(forfeit_names[forfeit]));
		json_array_append_new(games, gj);
	}
	return n;
}

/* Can the next round start: no game without a result, two teams or more? */
static int team_round_ready(const struct tour *t, const struct ev_build *b,
			    const struct team_event *te, struct proto_error *e)
{
	for (int k = 0; k < b->ev.ngames; k++)
		if (b->ev.games[k].result == RESULT_NONE)
			return svc_fail(e, PROTO_ERR_CONFLICT, "round %d is not finished: game %lld "
					"has no result", tour_round(t), (long long)b->game_ids[k]);
	if (te->nteams < 2)
		return svc_fail(e, PROTO_ERR_CONFLICT, "a team event needs at least 2 teams");
	return 0;
}

int teams_start_round(struct server *srv, struct tour *t, struct ev_build *b, double start_at,
		      struct tournament_round *out, struct proto_error *e)
{
	struct team_build tb;
	struct game_settings gs;
	const char *why;
	if (arenas_is_arena(t))
		return arenas_start_game(srv, t, b, start_at, out, e);
	if (tour_game_settings(t, &gs) < 0 || team_build(t, b, &tb) < 0)
		return svc_fail(e, PROTO_ERR_INTERNAL, "could not read the team event");
	int round = tour_round(t) + 1, rc = -1, created = 0;
	struct team_round *r = malloc(sizeof *r);
	json_t *pairs = json_array(), *byes = json_array();
	if (!r) {
		svc_fail(e, PROTO_ERR_INTERNAL, "out of memory");
		goto out;
	}
	if (team_round_ready(t, b, &tb.te, e) < 0)
		goto out;
	int prc = team_pair_round(&tb.te, round, r);
	if (prc == PAIRING_EPENDING && tb.te.system == SYSTEM_KNOCKOUT) {
		/* every game has a result (team_round_ready): a match level on every board */
		for (int k = 0; k < tb.te.ngames; k++) {
			const struct team_game *x = &tb.te.games[k];
			struct team_match_score s;
			if (x->round == round - 1 &&
			    team_match_score(&tb.te, x->round, x->home, x->away, &s) == TEAM_OK &&
			    s.ko_winner < 0) {
				svc_fail(e, PROTO_ERR_CONFLICT, "cannot pair round %d: the match of %s "
					 "and %s (round %d) is level on every board, and a knockout match "
					 "needs a winner: change a board's result (the play-off of Art. "
					 "27.2 (3) is the director's to arrange; docs/teams.md)", round,
					 team_name(t, x->home), team_name(t, x->away), x->round);
				goto out;
			}
		}
	}
	if (prc < 0) {
		svc_fail(e, prc == PAIRING_EOVER || prc == PAIRING_EPENDING ? PROTO_ERR_CONFLICT :
			 PROTO_ERR_INTERNAL, "cannot pair round %d: %s", round, pairing_strerror(prc));
		goto out;
	}
	if (games_schedule_check(&gs, 0, &why) < 0) {
		svc_fail(e, PROTO_ERR_CONFLICT, "cannot pair round %d: %s", round, why);
		goto out;
	}
	if (!start_at)
		start_at = server_now();
	json_t *matches = state_array(t, "matches");
	for (int m = 0; m < r->nmatches; m++) {
		int hl[TEAM_MAX_BOARDS], al[TEAM_MAX_BOARDS], h = r->matches[m].home, a = r->matches[m].away;
		lineup_of(t, &tb.te, h, round, hl);
		lineup_of(t, &tb.te, a, round, al);
		json_t *sm = json_pack("{s:i, s:i, s:i, s:[], s:[]}", "round", round, "home", h, "away", a,
				       "games", "forfeits");
		json_t *pj = json_pack("{s:i, s:s, s:s, s:[]}", "match", (int)json_array_size(matches) + 1,
				       "home", team_name(t, h), "away", team_name(t, a), "games");
		int n = create_match(srv, t, b, &gs, round, start_at, hl, al, tb.te.boards, created, sm,
				     pj, e);
		json_array_append_new(matches, sm);
		json_array_append_new(pairs, pj);
		if (n < 0)
			goto out;
		created += n;
	}
	for (int k = 0; k < r->nbyes; k++) {
		json_array_append_new(state_array(t, "team_byes"), json_pack("{s:i, s:i}", "round", round,
									     "team", r->byes[k]));
		json_array_append_new(byes, json_string(team_name(t, r->byes[k])));
	}
	json_object_set_new(t->state, "round", json_integer(round));
	tour_save(srv, t);
	log_msg(LOGL_INFO, "team_round", "tournament=%lld round=%d matches=%d games=%d byes=%d",
		(long long)t->row.id, round, r->nmatches, created, r->nbyes);
	*out = (struct tournament_round){.round = round, .start_at = start_at, .pairings = pairs,
					 .byes = byes};
	pairs = byes = NULL;
	rc = 0;
out:
	json_decref(pairs);
	json_decref(byes);
	free(r);
	team_build_free(&tb);
	return rc;
}

bool teams_over(const struct tour *t, const struct ev_build *b)
{
	if (arenas_is_arena(t))
		return arenas_decided(t, b);
	struct team_build tb;
	if (tour_round(t) < 1 || team_build(t, b, &tb) < 0)
		return false;
	bool over = tb.te.nteams >= 2;
	for (int k = 0; over && k < b->ev.ngames; k++)
		over = b->ev.games[k].result != RESULT_NONE;
	struct team_round *r = over ? malloc(sizeof *r) : NULL;
	over = r && team_pair_round(&tb.te, tour_round(t) + 1, r) == PAIRING_EOVER;
	free(r);
	team_build_free(&tb);
	return over;
}

json_t *teams_pairings(const struct tour *t, const struct ev_build *b, int round)
{
	json_t *arr = json_array();
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(t->state, "matches"), i, m) {
		if (json_integer_value(json_object_get(m, "round")) != round)
			continue;
		json_t *games = json_array(), *gids = json_object_get(m, "games");
		for (size_t bd = 0; bd < json_array_size(gids); bd++) {
			int64_t gid = json_integer_value(json_array_get(gids, bd));
			int k = gid ? game_at(b, gid) : -1;
			int ff = (int)json_integer_value(json_array_get(json_object_get(m, "forfeits"), bd));
			json_t *gj = json_pack("{s:i}", "board", (int)bd + 1);
			json_object_set_new(gj, "game", gid ? json_integer(gid) : json_null());
			if (k >= 0) {
				const struct event_game *x = &b->ev.games[k];
				json_object_set_new(gj, "black", json_string(b->ev.players[x->black].name));
				json_object_set_new(gj, "white", json_string(b->ev.players[x->white].name));
				if (tour_result_shown(x))
					json_object_set_new(gj, "result", json_string(tour_result_shown(x)));
			} else if (ff > 0 && ff < 4) {
				json_object_set_new(gj, "forfeit", json_string(forfeit_names[ff]));
			}
			json_array_append_new(games, gj);
		}
		json_array_append_new(arr, json_pack("{s:i, s:s, s:s, s:o}", "match", (int)i + 1, "home",
			team_name(t, (int)json_integer_value(json_object_get(m, "home"))), "away",
			team_name(t, (int)json_integer_value(json_object_get(m, "away"))), "games", games));
	}
	return arr;
}

json_t *teams_byes(const struct tour *t, int round)
{
	json_t *arr = json_array();
	size_t i;
	json_t *y;
	json_array_foreach(json_object_get(t->state, "team_byes"), i, y)
		if (json_integer_value(json_object_get(y, "round")) == round)
			json_array_append_new(arr, json_string(team_name(t,
				(int)json_integer_value(json_object_get(y, "team")))));
	return arr;
}

json_t *teams_standings(const struct tour *t, const struct ev_build *b, int round,
			struct proto_error *e)
{
	struct team_build tb;
	if (arenas_is_arena(t))
		return arenas_standings(t, b, e);
	if (team_build(t, b, &tb) < 0) {
		svc_fail(e, PROTO_ERR_INTERNAL, "could not read the team event");
		return NULL;
	}
	struct team_standing *rows = calloc((size_t)tb.te.nteams + 1, sizeof *rows);
	int n = rows ? team_standings(&tb.te, round, rows) : TEAM_ENOMEM;
	json_t *arr = NULL;
	if (n < 0) {
		svc_fail(e, PROTO_ERR_INTERNAL, "team standings: %s", team_strerror(n));
		goto out;
	}
	arr = json_array();
	for (int i = 0; i < n; i++) {
		json_t *bp = json_array();
		for (int bd = 0; bd < tb.te.boards; bd++)
			json_array_append_new(bp, json_integer(rows[i].boards[bd]));
		json_array_append_new(arr, json_pack("{s:i, s:s, s:i, s:i, s:o, s:i, s:i, s:i, s:i, s:i}",
			"rank", rows[i].place, "team", tb.teams[rows[i].team].name, "match_points",
			rows[i].match_points, "board_points", rows[i].board_points, "boards", bp, "sos",
			rows[i].sos, "won", rows[i].won, "drawn", rows[i].drawn, "lost", rows[i].lost,
			"byes", rows[i].byes));
		if (tb.te.system == SYSTEM_KNOCKOUT) /* its main score: rounds survived */
			json_object_set_new(json_array_get(arr, json_array_size(arr) - 1), "ko_rounds",
					    json_integer(rows[i].ko_rounds));
	}
out:
	free(rows);
	team_build_free(&tb);
	return arr;
}

void teams_export_prepare(const struct tour *t, struct ev_build *b)
{
	if (!teams_is_team(t))
		return;
	for (int i = 0; i < b->ev.nplayers; i++) {
		bool played = false;
		for (int k = 0; k < b->ev.ngames && !played; k++)
			played = b->ev.games[k].black == i || b->ev.games[k].white == i;
		if (!played)
			b->ev.players[i].withdrawn_before_start = true;
	}
}

json_t *teams_list(const struct tour *t)
{
	json_t *arr = json_array(), *players = json_object_get(t->state, "players");
	int boards = boards_of(t);
	size_t i, k;
	json_t *v, *p;
	json_array_foreach(json_object_get(t->state, "teams"), i, v) {
		json_t *pl = json_array(), *res = json_array();
		json_array_foreach(json_object_get(v, "players"), k, p) {
			json_t *name = json_object_get(json_array_get(players, (size_t)json_integer_value(p)),
						       "name");
			json_array_append(k < (size_t)boards ? pl : res, name ? name : json_null());
		}
		json_array_append_new(arr, json_pack("{s:i, s:O, s:o, s:o}", "team", (int)i + 1, "name",
						     json_object_get(v, "name"), "players", pl, "reserves",
						     res));
	}
	return arr;
}
