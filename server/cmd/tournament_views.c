/* tournament_views: the read-only tournament commands. See tournament_views.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "export.h"
#include "game.h"
#include "rating.h"
#include "standings.h"
#include "team_cmds.h"
#include "matches.h"
#include "arenas.h"
#include "teams.h"
#include "tour.h"
#include "tournament_cmds.h"
#include "tournament_views.h"

static const char *const formats[] = {"json", "csv", "h9", "html"};
#define EXPORT_FORMATS 4

/* A `round` asked for that has not been played yet (past the event's current round):
 * bad_request, as for an export; the caller's t and b are freed. Returns -1 after that reply,
 * 0 for a round that can be shown (0: the current one). `need_round`: the current round must
 * exist (pairings, exports: nothing to show or report before round 1; the standings list the
 * field). */
static int round_played(struct conn *c, const struct proto_request *req, struct tour *t,
			struct ev_build *b, int64_t round, bool need_round)
{
	if (round <= tour_round(t) && (round > 0 || !need_round || tour_round(t) > 0))
		return 0;
	if (round == 0) { /* the current round, and there is none yet */
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "tournament %lld has no round "
				   "yet: the director pairs round 1 (tournament.start_round, `tengen "
				   "td start`)", (long long)t->row.id);
		tour_ev_free(b);
		tour_clear(t);
		return -1;
	}
	server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
			   "field 'round': round %lld has not been played (the current round is %d)",
			   (long long)round, tour_round(t));
	tour_ev_free(b);
	tour_clear(t);
	return -1;
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
	if (tournament_cmds_event(c, req, &t, &b) < 0 || round_played(c, req, &t, &b, round, true) < 0)
		return;
	if (!round)
		round = tour_round(&t);
	if (teams_is_team(&t)) {
		team_views_pairings(c, req, &t, &b, (int)round);
		return;
	}
	json_t *pairs = json_array(), *byes = json_array();
	for (int k = b.ev.ngames - 1; k >= 0; k--) { /* listed newest first: restore order */
		const struct event_game *g = &b.ev.games[k];
		if (g->round != round)
			continue;
		const char *res = tour_result_shown(g);
		json_t *pj = json_pack("{s:I, s:s, s:s, s:i, s:s?}", "game",
			(json_int_t)b.game_ids[k], "black", b.ev.players[g->black].name, "white",
			b.ev.players[g->white].name, "handicap", g->handicap, "result", res);
		if (!res) /* scheduled, in play or being counted: say which */
			game_pairing_phase(c->srv, b.game_ids[k], pj);
		/* Not played (a forfeit not won at the board, a double loss): the exports' '!'.
		 * "B+F" alone does not tell: a game lost by warnings or illegal moves was played. */
		if (g->result == RESULT_BLACK_FORFEIT_WIN || g->result == RESULT_WHITE_FORFEIT_WIN ||
		    g->result == RESULT_DOUBLE_LOSS)
			json_object_set_new(pj, "forfeit", json_true());
		json_array_append_new(pairs, pj);
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
	tour_ev_free(&b);
	tour_clear(&t);
}

/* The standings' default round: the current one once a result of it is in, else the one
 * before (just paired, its games would all count as unplayed: SOS with virtual opponents, as
 * if everyone had been absent). 0 before round 1. */
static int standings_default_round(const struct tour *t, const struct ev_build *b)
{
	int cur = tour_round(t);
	bool any = false, games = false;
	for (int k = 0; k < b->ev.ngames; k++)
		if (b->ev.games[k].round == cur) {
			games = true;
			any |= b->ev.games[k].result != RESULT_NONE;
		}
	return cur > 1 && games && !any ? cur - 1 : cur;
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
	if (tournament_cmds_event(c, req, &t, &b) < 0 || round_played(c, req, &t, &b, round, false) < 0)
		return;
	if (teams_is_team(&t)) {
		/* as for individuals: a round just paired, none of its games with a result, is
		 * not counted yet, and the reply names the round before (it said "after round
		 * 2" with round 1's figures; an arena is one match, its rounds its games) */
		if (!round && !arenas_is_arena(&t))
			round = standings_default_round(&t, &b);
		team_views_standings(c, req, &t, &b, (int)round);
		return;
	}
	if (!round)
		round = standings_default_round(&t, &b);
	const char *names[STANDINGS_MAX_TIEBREAKS];
	int ntb = tour_tiebreak_names(&t, names);
	int as_of = round ? (int)round : tour_round(&t);
	struct standing *rows = calloc(b.ev.nplayers ? (size_t)b.ev.nplayers : 1, sizeof *rows);
	int n = !rows ? STANDINGS_ENOMEM : matches_reduce(&t, &b) < 0 ? STANDINGS_EINVAL :
		standings_apply_withdrawals(&b.ev);
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
			json_t *row = json_pack("{s:i, s:s, s:i, s:f, s:i, s:i, s:i, s:i, s:i, s:o}",
				"rank", rows[i].place, "player", b.ev.players[rows[i].player].name, "points",
				rows[i].points, "score", rows[i].score, "wins", rows[i].wins, "draws", rows[i].draws,
				"losses", rows[i].losses, "byes", rows[i].byes, "warnings", rows[i].warnings,
				"tiebreaks", tbj);
			/* Withdrawn (Art. 28): the last round the player took part in; not for
			 * standings as of an earlier round (still in the event then). */
			int wd = b.ev.players[rows[i].player].withdrawn_after;
			if (row && wd > 0 && wd <= as_of)
				json_object_set_new(row, "withdrawn_after", json_integer(wd));
			json_array_append_new(arr, row);
		}
		json_t *r = proto_reply_ok(req->id);
		json_object_set_new(r, "tournament", json_integer(t.row.id));
		json_object_set_new(r, "round", json_integer(as_of));
		json_object_set_new(r, "score", json_string(standings_score_name(t.system)));
		json_object_set_new(r, "standings", arr);
		server_reply(c, r);
	}
	free(rows);
	tour_ev_free(&b);
	tour_clear(&t);
}

/* A tournament as listed: its settings as created, but `rounds` the rounds it plays (a round
 * robin's come from its field: tour_rounds_planned; a team event's from its teams:
 * teams_rounds_planned). */
static json_t *tour_summary(const struct store_tournament *row, json_t *state)
{
	json_t *players = json_object_get(state, "players");
	json_t *settings = json_copy(json_object_get(state, "settings"));
	enum event_system system;
	int team_rounds = teams_rounds_planned(row->system, state);
	if (settings && team_rounds > 0)
		json_object_set_new(settings, "rounds", json_integer(team_rounds));
	else if (settings && event_system_parse(row->system, &system) == 0)
		json_object_set_new(settings, "rounds", json_integer(tour_rounds_planned(system, state)));
	return json_pack("{s:I, s:s, s:s, s:i, s:i, s:o*}", "id", (json_int_t)row->id, "name", row->name,
			 "system", row->system, "players", (int)json_array_size(players), "round",
			 (int)json_integer_value(json_object_get(state, "round")), "settings", settings);
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
	if (tournament_cmds_load(c, req, "tournament", &t) < 0)
		return;
	json_t *o = tour_summary(&t.row, t.state);
	json_t *field = json_array();
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(t.state, "players"), i, v) {
		char rank[RANK_STR_MAX];
		rank_format((int)json_integer_value(json_object_get(v, "rank")), rank, sizeof rank);
		json_t *fe = json_pack("{s:O, s:s, s:O, s:O, s:O}", "name",
			json_object_get(v, "name"), "rank", rank, "rating", json_object_get(v, "rating"),
			"withdrawn_after", json_object_get(v, "withdrawn_after"), "withdrawn_before_start",
			json_object_get(v, "withdrawn_before_start"));
		/* issue 16: what the entry holds of these, as registered */
		static const char *const more[] = {"full_name", "country", "club", "egd_pin", "entrant",
						   "entered_round", "absent"};
		for (size_t k = 0; k < sizeof more / sizeof *more; k++)
			if (json_object_get(v, more[k]))
				json_object_set(fe, more[k], json_object_get(v, more[k]));
		json_array_append_new(field, fe);
	}
	json_object_set_new(o, "field", field);
	if (teams_is_team(&t))
		json_object_set_new(o, "teams", teams_list(&t));
	json_object_set(o, "director", json_object_get(t.state, "director"));
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", o);
	server_reply(c, r);
	tour_clear(&t);
}

/* The text export_info_fill points an export_info into: the first and last day of an
 * event's rounds (yyyy-mm-dd, UTC) and the handicap rule ("h1"). */
struct export_dates {
	char first[16], last[16];
	char handicap[16];
	double min, max;  /* Unix seconds of the first and last game's start; 0: no game yet */
};

static int dates_cb(void *ctx, const struct store_game *g)
{
	struct export_dates *d = ctx;
	/* the day a game was played: its end (at a board, when its result was entered), else its
	 * start; a round paired the evening before is not dated that day */
	double at = g->ended_at > 0 ? g->ended_at : g->start_at > 0 ? g->start_at : g->created_at;
	if (at <= 0)
		return 0;
	if (d->min == 0 || at < d->min)
		d->min = at;
	if (at > d->max)
		d->max = at;
	return 0;
}

static void day_of(double at, char out[16])
{
	time_t s = (time_t)at;
	struct tm tm;
	localtime_r(&s, &tm); /* the server's time zone (TZ): the venue's day, not UTC's */
	strftime(out, 16, "%Y-%m-%d", &tm);
}

/* The EGD's view of a proto time control (seconds). */
static struct export_time export_time_of(const struct proto_time *p)
{
	struct export_time t = {.main_s = (int)(p->main_ms / 1000)};
	switch (p->system) {
	case PROTO_TIME_ABSOLUTE:
		t.system = EXPORT_TIME_ABSOLUTE;
		break;
	case PROTO_TIME_BYOYOMI:
		t.system = EXPORT_TIME_BYOYOMI;
		t.period_s = (int)(p->period_ms / 1000);
		break;
	case PROTO_TIME_CANADIAN:
		t.system = EXPORT_TIME_CANADIAN;
		t.period_s = (int)(p->period_ms / 1000);
		t.stones = p->stones;
		break;
	case PROTO_TIME_FISCHER:
		t.system = EXPORT_TIME_FISCHER;
		t.increment_s = (int)(p->increment_ms / 1000);
		break;
	default:
		t.system = EXPORT_TIME_UNKNOWN;
	}
	return t;
}

/* The h9 header of t into *info (d holds its text): name, place, the rounds' first and last
 * day (games' start times), handicap rule ("h<correction>" when the event gives handicaps),
 * komi, time control, and online unless the event's venue is "board". */
static void export_info_fill(struct server *srv, const struct tour *t, const struct ev_build *b,
			     struct export_info *info, struct export_dates *d)
{
	json_t *set = tour_settings(t);
	struct store_games_filter f = {.tournament_id = t->row.id};
	struct game_settings gs;
	memset(d, 0, sizeof *d);
	store_games_list(srv->store, &f, dates_cb, d);
	info->name = t->row.name;
	info->place = json_string_value(json_object_get(set, "place"));
	if (d->min > 0) {
		day_of(d->min, d->first);
		day_of(d->max, d->last);
		info->date_start = d->first;
		info->date_end = d->last;
	}
	if (b->ev.handicap) {
		snprintf(d->handicap, sizeof d->handicap, "h%d", b->ev.handicap_correction);
		info->handicap_rule = d->handicap;
	}
	info->komi = json_number_value(json_object_get(set, "komi"));
	if (tour_game_settings(t, &gs) == 0)
		info->time = export_time_of(&gs.time);
	const char *venue = json_string_value(json_object_get(set, "venue"));
	info->online = !venue || strcmp(venue, "board") != 0;
}

/* The last round whose games all have a result: the current one, or the one before while
 * games of the current one are still to finish (0: none yet). */
static int last_complete_round(const struct tour *t, const struct ev_build *b)
{
	int cur = tour_round(t);
	for (int k = 0; k < b->ev.ngames; k++)
		if (b->ev.games[k].round == cur && b->ev.games[k].result == RESULT_NONE)
			return cur - 1;
	return cur;
}

void tournaments_export(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int format;
	struct tour t;
	struct ev_build b;
	int64_t round = 0;
	if (proto_get_choice(req->root, "format", true, formats, EXPORT_FORMATS, &format, &err) < 0 ||
	    proto_get_int(req->root, "round", false, 1, EVENT_MAX_ROUNDS, &round, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (tournament_cmds_event(c, req, &t, &b) < 0 || round_played(c, req, &t, &b, round, true) < 0)
		return;
	if (!round) { /* by default the rounds played to the end: a round still under way would
		       * count as unplayed for every player in it (h9 "0-", SOS as if absent) */
		if (!(round = last_complete_round(&t, &b))) {
			server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "round 1 of tournament "
					   "%lld has games without a result: no round to export yet "
					   "(field 'round': 1 exports it as it stands, but for h9)",
					   (long long)t.row.id);
			tour_ev_free(&b);
			tour_clear(&t);
			return;
		}
	}
	/* An h9 goes to the EGD, which would read a game without a result as not played ("0-"):
	 * only rounds whose games all have one (the other formats show the rest as pending) */
	int pending = 0, first = 0;
	for (int k = 0; format == 2 && k < b.ev.ngames; k++)
		if (b.ev.games[k].round <= round && b.ev.games[k].result == RESULT_NONE) {
			pending++;
			if (!first || b.ev.games[k].round < first)
				first = b.ev.games[k].round;
		}
	if (pending) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'round': round %d has "
				   "games without a result (%d up to round %lld): an h9 reports results "
				   "to the EGD, which would read them as not played (csv, json and html "
				   "show them as pending)", first, pending, (long long)round);
		tour_ev_free(&b);
		tour_clear(&t);
		return;
	}
	const char *names[STANDINGS_MAX_TIEBREAKS];
	int ntb = tour_tiebreak_names(&t, names);
	struct export_info info = {.tiebreaks = names, .ntiebreaks = ntb, .after_round = (int)round};
	struct export_dates dates;
	export_info_fill(c->srv, &t, &b, &info, &dates);
	char *data = NULL;
	teams_export_prepare(&t, &b);
	matches_reduce(&t, &b); /* best-of-N: a match a round, as the standings read it */
	standings_apply_withdrawals(&b.ev);
	int rc = format == 0 ? export_json(&b.ev, &info, &data) :
		 format == 1 ? export_csv(&b.ev, &info, &data) :
		 format == 2 ? export_h9(&b.ev, &info, &data) : export_html(&b.ev, &info, &data);
	if (rc < 0 || !data) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "export: %s", export_strerror(rc));
	} else {
		json_t *r = proto_reply_ok(req->id);
		json_object_set_new(r, "format", json_string(formats[format]));
		json_object_set_new(r, "round", json_integer(round));
		json_object_set_new(r, "data", json_string(data));
		server_reply(c, r);
	}
	free(data);
	tour_ev_free(&b);
	tour_clear(&t);
}
