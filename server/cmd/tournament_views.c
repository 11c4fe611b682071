/* tournament_views: the read-only tournament commands. See tournament_views.h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "export.h"
#include "rating.h"
#include "standings.h"
#include "team_cmds.h"
#include "matches.h"
#include "teams.h"
#include "tour.h"
#include "tournament_cmds.h"
#include "tournament_views.h"

static const char *const formats[] = {"json", "csv", "h9"};

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
	if (tournament_cmds_event(c, req, &t, &b) < 0)
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
	tour_ev_free(&b);
	tour_clear(&t);
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
	if (tournament_cmds_event(c, req, &t, &b) < 0)
		return;
	if (teams_is_team(&t)) {
		team_views_standings(c, req, &t, &b, (int)round);
		return;
	}
	const char *names[STANDINGS_MAX_TIEBREAKS];
	int ntb = tour_tiebreak_names(&t, names);
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
			json_array_append_new(arr, json_pack("{s:i, s:s, s:i, s:f, s:i, s:i, s:i, s:i, s:i, s:o}",
				"rank", rows[i].place, "player", b.ev.players[rows[i].player].name, "points",
				rows[i].points, "score", rows[i].score, "wins", rows[i].wins, "draws", rows[i].draws,
				"losses", rows[i].losses, "byes", rows[i].byes, "warnings", rows[i].warnings,
				"tiebreaks", tbj));
		}
		json_t *r = proto_reply_ok(req->id);
		json_object_set_new(r, "tournament", json_integer(t.row.id));
		json_object_set_new(r, "round", json_integer(round ? round : tour_round(&t)));
		json_object_set_new(r, "score", json_string(standings_score_name(t.system)));
		json_object_set_new(r, "standings", arr);
		server_reply(c, r);
	}
	free(rows);
	tour_ev_free(&b);
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
	if (tournament_cmds_load(c, req, "tournament", &t) < 0)
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
	if (teams_is_team(&t))
		json_object_set_new(o, "teams", teams_list(&t));
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
	if (tournament_cmds_event(c, req, &t, &b) < 0)
		return;
	const char *names[STANDINGS_MAX_TIEBREAKS];
	int ntb = tour_tiebreak_names(&t, names);
	struct game_settings gs;
	tour_game_settings(&t, &gs);
	char date[16];
	time_t now = (time_t)server_now();
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(date, sizeof date, "%Y-%m-%d", &tm);
	struct export_info info = {.tiebreaks = names, .ntiebreaks = ntb, .name = t.row.name,
				   .egd_class = "D", .date_start = date, .handicap_rule = "h9",
				   .komi = json_number_value(json_object_get(tour_settings(&t), "komi")),
				   .time_minutes = (int)(gs.time.main_ms / 60000)};
	char *data = NULL;
	teams_export_prepare(&t, &b);
	matches_reduce(&t, &b); /* best-of-N: a match a round, as the standings read it */
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
	tour_ev_free(&b);
	tour_clear(&t);
}
