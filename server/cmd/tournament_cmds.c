/* tournament_cmds: the tournament commands that change things. See tournament_cmds.h. */
#include <math.h>
#include <string.h>
#include "director_cmds.h"
#include "bestof.h"
#include "elim.h"
#include "games.h"
#include "pairing.h"
#include "rating.h"
#include "ruleset.h"
#include "standings.h"
#include "team.h"
#include "tournament_cmds.h"
#include "tournaments.h"

/* Reply the service's refusal *e to req. */
static void reply_refused(struct conn *c, const struct proto_request *req,
			  const struct proto_error *e)
{
	server_reply(c, proto_reply_error_from(req->id, e));
}

/* Reply a field's parse error (or, *e), returning -1: a shorthand for the parsing below. */
static int field_refused(struct conn *c, const struct proto_request *req,
			 const struct proto_error *e)
{
	reply_refused(c, req, e);
	return -1;
}

int tournament_cmds_load(struct conn *c, const struct proto_request *req, const char *field,
			 struct tour *t)
{
	struct proto_error err;
	int64_t id;
	memset(t, 0, sizeof *t);
	if (proto_get_id(req->root, field, true, &id, &err) < 0 ||
	    tour_get(c->srv, id, t, &err) < 0)
		return field_refused(c, req, &err);
	return 0;
}

int tournament_cmds_event(struct conn *c, const struct proto_request *req, struct tour *t,
			  struct ev_build *b)
{
	struct proto_error err;
	int64_t id;
	memset(t, 0, sizeof *t);
	if (proto_get_id(req->root, "tournament", true, &id, &err) < 0 ||
	    tour_event_get(c->srv, id, t, b, &err) < 0)
		return field_refused(c, req, &err);
	return 0;
}

/* A place as the EGD's PC[] can hold it: non-empty, no ']' and no control characters. */
static bool place_ok(const char *p)
{
	if (!*p)
		return false;
	for (; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == ']')
			return false;
	return true;
}

/* tournament.create's systems: the individual ones (common/event.h), then the team ones
 * (common/team.h). */
static const char *const create_systems[EVENT_SYSTEMS + TEAM_SYSTEMS] = {
	"round_robin", "double_round_robin", "swiss", "mcmahon", "knockout",
	"team_round_robin", "team_swiss", "team_knockout", "arena"
};
static const char *const lineups[] = {"fixed", "per_round"};

/* The system (an index of create_systems) and the team and match-form fields (boards,
 * lineup, match_games, elimination_losses; docs/teams.md) into *s; replies and returns -1
 * on the first that is wrong. */
static int create_parse_forms(struct conn *c, const struct proto_request *req,
			      struct tournament_settings *s, int system)
{
	struct proto_error err;
	int64_t boards = 0, games = 0, losses = 0;
	int lineup = 0;
	bool team = system >= EVENT_SYSTEMS;
	enum event_system base = (enum event_system)(team ? 0 : system);
	enum team_system ts = TEAM_SYSTEM_ROUND_ROBIN;
	if (team)
		team_system_parse(create_systems[system], &ts, &base);
	if (proto_get_int(req->root, "boards", team, 1, TEAM_MAX_BOARDS, &boards, &err) < 0 ||
	    proto_get_choice(req->root, "lineup", false, lineups, 2, &lineup, &err) < 0 ||
	    proto_get_int(req->root, "match_games", false, BESTOF_MIN_GAMES, BESTOF_MAX_GAMES, &games,
			  &err) < 0 ||
	    proto_get_int(req->root, "elimination_losses", false, 1, ELIM_MAX_LOSSES, &losses, &err) < 0)
		return field_refused(c, req, &err);
	const char *bad = NULL;
	if (!team && (json_object_get(req->root, "boards") || json_object_get(req->root, "lineup")))
		bad = "fields 'boards' and 'lineup' are for team systems";
	else if (team && (games || losses))
		bad = "fields 'match_games' and 'elimination_losses' are for individual systems";
	else if (games % 2 == 0 && games)
		bad = "field 'match_games': 3, 5 or 7";
	else if (ts == TEAM_SYSTEM_ARENA && lineup == 1)
		bad = "field 'lineup': an arena's order is fixed at team.create";
	else if (losses && base != SYSTEM_SWISS && base != SYSTEM_KNOCKOUT)
		bad = "field 'elimination_losses': for swiss or knockout";
	else if (losses && s->double_elimination)
		bad = "field 'elimination_losses': not with double_elimination (say 2)";
	if (bad)
		return server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "%s", bad);
	s->system = (int)base;
	s->team_system = team ? (int)ts : -1;
	s->boards = (int)boards;
	s->lineup_per_round = lineup == 1;
	s->match_games = (int)games;
	s->elimination_losses = (int)losses;
	return 0;
}

/* The fields of tournament.create into *s (defaults for those absent), checked; replies and
 * returns -1 on the first that is wrong. */
static int create_parse(struct conn *c, const struct proto_request *req,
			struct tournament_settings *s)
{
	struct proto_error err;
	int system, venue = TOUR_VENUE_ONLINE, hby = 0; /* hby: tour_handicap_by_names, rank */
	int64_t rounds = TOURNAMENT_ROUNDS_DEFAULT, size = RULES_DEFAULT_SIZE,
		lateness = GAMES_LATENESS_LIMIT_DEFAULT_S, bye = STANDINGS_WIN_POINTS;
	int64_t bar = 0, floor_ = -20, hmax = PAIRING_HANDICAP_CAP, absent_points = 0;
	int64_t hcorr = TOURNAMENT_HANDICAP_CORRECTION_DEFAULT, hnone = RANK_MAX;
	double mms_absent = TOURNAMENT_MMS_ABSENT_DEFAULT;
	const struct ruleset *rs = ruleset_default(); /* events name no other yet */
	double komi = rs->default_komi, hkomi = rs->default_handicap_komi;
	const json_t *tiebreaks = NULL;
	memset(s, 0, sizeof *s);
	s->rated = true;
	rules_default(&s->rules);
	if (proto_get_text(req->root, "name", true, STORE_TOURNAMENT_NAME_MAX, &s->name, &err) < 0 ||
	    proto_get_choice(req->root, "system", true, create_systems, EVENT_SYSTEMS + TEAM_SYSTEMS,
			     &system, &err) < 0 ||
	    proto_get_int(req->root, "rounds", false, 1, EVENT_MAX_ROUNDS, &rounds, &err) < 0 ||
	    proto_get_int(req->root, "size", false, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &size, &err) < 0 ||
	    proto_get_number(req->root, "komi", false, -GAMES_KOMI_MAX, GAMES_KOMI_MAX, &komi, &err) < 0 ||
	    proto_get_number(req->root, "handicap_komi", false, -GAMES_KOMI_MAX, GAMES_KOMI_MAX, &hkomi,
			     &err) < 0 ||
	    proto_get_int(req->root, "handicap_max", false, 0, PAIRING_HANDICAP_CAP, &hmax, &err) < 0 ||
	    proto_get_time(req->root, "time", false, &s->time, &err) < 0 ||
	    proto_get_bool(req->root, "rated", false, &s->rated, &err) < 0 ||
	    proto_get_rules(req->root, "rules", false, &s->rules, &err) < 0 ||
	    proto_get_int(req->root, "lateness_limit_s", false, 0, GAMES_LATENESS_LIMIT_MAX_S, &lateness, &err) < 0 ||
	    proto_get_array(req->root, "tiebreaks", false, STANDINGS_MAX_TIEBREAKS, &tiebreaks, &err) < 0 ||
	    proto_get_int(req->root, "bye", false, 0, STANDINGS_BYE_POINTS_MAX, &bye, &err) < 0 ||
	    proto_get_int(req->root, "mcmahon_bar", false, RANK_MIN, RANK_MAX, &bar, &err) < 0 ||
	    proto_get_int(req->root, "mcmahon_floor", false, RANK_MIN, RANK_MAX, &floor_, &err) < 0 ||
	    proto_get_bool(req->root, "handicap", false, &s->handicap, &err) < 0 ||
	    proto_get_bool(req->root, "double_elimination", false, &s->double_elimination, &err) < 0 ||
	    proto_get_choice(req->root, "venue", false, tour_venue_names, TOUR_VENUES, &venue, &err) < 0 ||
	    proto_get_int(req->root, "absent_points", false, 0, STANDINGS_BYE_POINTS_MAX, &absent_points,
			  &err) < 0 ||
	    proto_get_number(req->root, "mms_absent", false, 0, STANDINGS_MMS_CREDIT_MAX, &mms_absent,
			     &err) < 0 ||
	    proto_get_int(req->root, "handicap_correction", false, 0, PAIRING_HANDICAP_CAP, &hcorr,
			  &err) < 0 ||
	    proto_get_int(req->root, "handicap_none_above", false, RANK_MIN, RANK_MAX, &hnone, &err) < 0 ||
	    proto_get_choice(req->root, "handicap_by", false, tour_handicap_by_names, TOUR_HANDICAP_BY,
			     &hby, &err) < 0)
		return field_refused(c, req, &err);
	if (proto_get_string(req->root, "place", false, TOURNAMENT_PLACE_MAX, &s->place, &err) < 0)
		return field_refused(c, req, &err);
	if (s->place && !place_ok(s->place))
		return server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
					  "field 'place': must be text without ']' or control characters");
	const char *why;
	if (games_time_check(&s->time, &why) < 0)
		return server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'time': %s", why);
	const char *name = s->name;
	if (absent_points > bye || mms_absent * 2 != floor(mms_absent * 2))
		return server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "%s", absent_points > bye ?
					  "field 'absent_points': must not be above 'bye'" :
					  "field 'mms_absent': must be a whole or half point");
	if (!name[0] || komi * 2 != floor(komi * 2) || hkomi * 2 != floor(hkomi * 2) || bar < floor_)
		return server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "%s",
					  !name[0] ? "field 'name': must not be empty" :
					  bar < floor_ ? "field 'mcmahon_bar': must not be below 'mcmahon_floor'" :
					  komi * 2 != floor(komi * 2) ?
					  "field 'komi': must be a whole or half number of points" :
					  "field 'handicap_komi': must be a whole or half number of points");
	size_t i;
	json_t *v;
	json_array_foreach(tiebreaks, i, v) {
		if (!json_is_string(v) || standings_tiebreak_parse(json_string_value(v)) < 0)
			return server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
						  "field 'tiebreaks': entry %zu is not a tie-break (SOS, SOS-1, SOS-2, MOS, SOSOS, SODOS, CUSS, MMS, DE, WARN, SEED)", i + 1);
		s->tiebreaks[s->ntiebreaks++] = json_string_value(v);
	}
	s->board = venue == TOUR_VENUE_BOARD;
	s->absent_points = (int)absent_points;
	s->mms_absent = mms_absent;
	s->handicap_correction = (int)hcorr;
	s->handicap_none_above = (int)hnone;
	s->handicap_by_mms = hby == 1;
	if (create_parse_forms(c, req, s, system) < 0)
		return -1;
	/* seed 000's games take their colours from the predictions, after the pairing: team
	 * boards, arena turns and a best-of-N's alternating colours are not defined for them */
	if (s->rules.ruleset == RULESET_PREDICTION && (s->team_system >= 0 || s->match_games))
		return server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "the prediction ruleset "
					  "is for individual events without match_games (team, arena "
					  "and best-of-N events use the Chinese ruleset)");
	s->rounds = (int)rounds;
	s->size = (int)size;
	s->komi = komi;
	s->handicap_komi = hkomi;
	s->handicap_max = (int)hmax;
	s->lateness_limit_s = (int)lateness;
	s->bye = (int)bye;
	s->mcmahon_bar = (int)bar;
	s->mcmahon_floor = (int)floor_;
	return 0;
}

void tournament_cmds_create(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	struct tournament_settings s;
	int64_t id;
	int cap;
	if (create_parse(c, req, &s) < 0)
		return;
	if (tournaments_create(c->srv, &s, c->name, &id, &cap, &err) < 0) {
		reply_refused(c, req, &err);
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", json_integer(id));
	json_object_set_new(r, "handicap_max", json_integer(cap));
	/* The defaults in force are stated (a director who gave no rounds sees how many) */
	json_object_set_new(r, "rounds", json_integer(s.rounds));
	json_object_set_new(r, "venue", json_string(tour_venue_names[s.board]));
	json_object_set_new(r, "lateness_limit_s", json_integer(s.lateness_limit_s));
	server_reply(c, r);
}

/* The settings tournament.update may change: those of tournament.create but its name and
 * system. */
static const char *const update_fields[] = {
	"rounds", "size", "komi", "handicap_komi", "time", "rated", "rules", "lateness_limit_s",
	"tiebreaks", "bye", "mcmahon_bar", "mcmahon_floor", "handicap", "handicap_max",
	"double_elimination", "venue", "absent_points", "mms_absent", "handicap_correction",
	"handicap_none_above", "handicap_by", "place", "boards", "lineup", "match_games",
	"elimination_losses"};

void tournament_cmds_update(struct conn *c, const struct proto_request *req)
{
	struct tour t;
	if (tournament_cmds_load(c, req, "tournament", &t) < 0)
		return;
	/* The settings as they stand, the request's changes over them, parsed and checked as
	 * tournament.create parses its own (create_parse replies when one is wrong). */
	json_t *merged = json_deep_copy(tour_settings(&t));
	if (!merged)
		merged = json_object();
	/* the stored rules as this version reads them: an older tengend stored a prediction
	 * event's ko as "situational", which create_parse's reading of a request refuses (every
	 * update of such an event failed on a field the director had not sent) */
	struct rules stored;
	struct proto_error ignored;
	rules_default(&stored);
	if (json_object_get(merged, "rules") &&
	    proto_get_rules_stored(merged, "rules", false, &stored, &ignored) == 1)
		json_object_set_new(merged, "rules", proto_rules_to_json(&stored));
	json_object_set_new(merged, "name", json_string(t.row.name));
	json_object_set_new(merged, "system", json_string(t.row.system));
	const char *key;
	json_t *v;
	const char *bad = NULL;
	size_t changed = 0;
	/* the fields whose value differs from the stored one (each at most once: a request's keys
	 * are unique, proto_parse) */
	const char *differ[sizeof update_fields / sizeof *update_fields];
	size_t ndiffer = 0;
	/* where the field gives the rounds (a round robin, a knockout), `rounds` is no change
	 * when it is those, as tournament.get shows them, and a change (refused:
	 * tournaments_update) when it is anything else, the stored setting too */
	bool derived;
	int shown = tournaments_rounds_shown(&t, &derived);
	json_object_foreach(req->root, key, v) {
		if (strcmp(key, "cmd") == 0 || strcmp(key, "id") == 0 || strcmp(key, "tournament") == 0)
			continue;
		bool known = false;
		for (size_t i = 0; i < sizeof update_fields / sizeof *update_fields; i++)
			known |= strcmp(key, update_fields[i]) == 0;
		if (!known) {
			bad = key;
			break;
		}
		const json_t *was = json_object_get(merged, key);
		/* 7 is the stored 7.0: numbers compare by value */
		bool same = json_is_number(was) && json_is_number(v) ?
			    json_number_value(was) == json_number_value(v) : json_equal(was, v);
		if (derived && strcmp(key, "rounds") == 0)
			same = json_is_integer(v) && json_integer_value(v) == shown;
		if (!same && ndiffer < sizeof differ / sizeof *differ)
			differ[ndiffer++] = key;
		json_object_set(merged, key, v);
		changed++;
	}
	struct tournament_settings s;
	struct proto_request fake = *req;
	fake.root = merged;
	struct proto_error err;
	int cap;
	json_t *settings = NULL;
	if (bad)
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field '%.40s': %s", bad,
				   strcmp(bad, "name") == 0 || strcmp(bad, "system") == 0 ?
				   "cannot change (create another tournament)" : "not a setting");
	else if (!changed)
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "no setting to change (the "
				   "fields of tournament.create but name and system)");
	else if (create_parse(c, &fake, &s) == 0) {
		if (tournaments_update(c->srv, t.row.id, &s, differ, ndiffer, c->name, &cap,
				       &settings, &err) < 0) {
			reply_refused(c, req, &err);
		} else {
			json_t *r = proto_reply_ok(req->id);
			json_object_set_new(r, "tournament", json_integer(t.row.id));
			json_object_set_new(r, "handicap_max", json_integer(cap));
			json_object_set_new(r, "settings", settings);
			server_reply(c, r);
		}
	}
	json_decref(merged);
	tour_clear(&t);
}

void tournament_cmds_delete(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t id;
	char name[STORE_TOURNAMENT_NAME_MAX + 1];
	int entrants = 0;
	if (proto_get_id(req->root, "tournament", true, &id, &err) < 0 ||
	    tournaments_delete(c->srv, id, c->name, name, &entrants, &err) < 0) {
		field_refused(c, req, &err);
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", json_integer(id));
	json_object_set_new(r, "name", json_string(name));
	json_object_set_new(r, "entrants", json_integer(entrants));
	server_reply(c, r);
}

/* Register `name` in the request's tournament and reply. */
static void register_reply(struct conn *c, const struct proto_request *req, const char *name)
{
	struct proto_error err;
	struct tournament_entry out;
	int64_t id;
	if (proto_get_id(req->root, "tournament", true, &id, &err) < 0 ||
	    tournaments_register(c->srv, id, name, &out, &err) < 0) {
		reply_refused(c, req, &err);
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", json_integer(id));
	json_object_set_new(r, "player", json_string(out.player));
	json_object_set_new(r, "players", json_integer(out.players));
	if (out.entered_round) /* a late entry: the rounds before count as absent */
		json_object_set_new(r, "entered_round", json_integer(out.entered_round));
	if (out.reinstated_after) /* a withdrawal undone */
		json_object_set_new(r, "reinstated_after", json_integer(out.reinstated_after));
	server_reply(c, r);
}

void tournament_cmds_register(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	const char *name;
	int64_t id;
	if (json_object_get(req->root, "entrant")) { /* a person without an account (issue 16) */
		if (json_object_get(req->root, "player"))
			server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
					   "give 'player' (an account) or 'entrant', not both");
		else if (proto_get_id(req->root, "tournament", true, &id, &err) < 0)
			reply_refused(c, req, &err);
		else
			director_cmds_entrant(c, req, id);
		return;
	}
	if (proto_get_name(req->root, "player", true, &name, &err) < 0) {
		reply_refused(c, req, &err);
		return;
	}
	register_reply(c, req, name);
}

void tournament_cmds_join(struct conn *c, const struct proto_request *req)
{
	register_reply(c, req, c->name);
}

void tournament_cmds_withdraw(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	const char *name;
	int64_t id;
	int round;
	json_t *forfeited, *voided;
	/* a name as in the field: an account's, or an entrant's "Surname Firstname" */
	if (proto_get_string(req->root, "player", true, STORE_FULL_NAME_MAX, &name, &err) < 0 ||
	    proto_get_id(req->root, "tournament", true, &id, &err) < 0 ||
	    tournaments_withdraw(c->srv, id, name, &round, &forfeited, &voided, &err) < 0) {
		reply_refused(c, req, &err);
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "withdrawn_after", json_integer(round));
	json_object_set_new(r, "forfeited", forfeited);
	json_object_set_new(r, "voided", voided);
	server_reply(c, r);
}

void tournament_cmds_start_round(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	double start_at = 0;
	int64_t id;
	struct tournament_round out;
	if (proto_get_number(req->root, "start_at", false, 0, TOURNAMENT_START_AT_MAX, &start_at, &err) < 0 ||
	    proto_get_id(req->root, "tournament", true, &id, &err) < 0 ||
	    tournaments_start_round(c->srv, id, start_at, &out, &err) < 0) {
		reply_refused(c, req, &err);
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "round", json_integer(out.round));
	if (out.continued)
		json_object_set_new(r, "continued", json_true());
	if (out.replay)
		json_object_set_new(r, "replay", json_true());
	else /* null at real boards: the games have no start time */
		json_object_set_new(r, "start_at", out.start_at > 0 ? json_real(out.start_at) : json_null());
	json_object_set_new(r, "pairings", out.pairings);
	json_object_set_new(r, "byes", out.byes);
	server_reply(c, r);
}

void tournament_cmds_result(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t game;
	const char *given, *reason = NULL;
	char result[STORE_RESULT_SIZE], previous[STORE_RESULT_SIZE];
	struct result_where w;
	if (proto_get_id(req->root, "game", true, &game, &err) < 0 ||
	    proto_get_string(req->root, "result", true, STORE_RESULT_SIZE - 1, &given, &err) < 0 ||
	    proto_get_string(req->root, "reason", false, STORE_REASON_SIZE - 1, &reason, &err) < 0 ||
	    tournaments_result(c->srv, c->name, c->role >= PROTO_ROLE_ADMIN, game, given, reason,
			       result, previous, &w, &err) < 0) {
		reply_refused(c, req, &err);
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "game", json_integer(game));
	json_object_set_new(r, "result", json_string(result));
	/* the result it replaced (an override), null for a game that had none */
	json_object_set_new(r, "previous", previous[0] ? json_string(previous) : json_null());
	/* ... and its reason: Void was a double loss (double_forfeit) or a void game */
	if (previous[0])
		json_object_set_new(r, "previous_reason", w.previous_reason[0] ?
				    json_string(w.previous_reason) : json_null());
	if (w.unchanged) /* it had that result already: nothing written */
		json_object_set_new(r, "unchanged", json_true());
	/* where it went, and what a director should know: a game numbers are the server's, so a
	 * typo lands in another round or event without a word otherwise */
	json_t *warnings = json_array();
	if (w.tournament) {
		json_object_set_new(r, "tournament", json_integer(w.tournament));
		json_object_set_new(r, "tournament_name", json_string(w.name));
		json_object_set_new(r, "round", json_integer(w.round));
		char text[STORE_TOURNAMENT_NAME_MAX + 160];
		if (w.round < w.current) {
			bool changed = strcmp(previous, result) != 0;
			snprintf(text, sizeof text, "game %lld is of round %d, not of the current round "
				 "(%d)%s", (long long)game, w.round, w.current, changed && previous[0]
				 ? ": the rounds after it were paired from the result it replaced" : "");
			json_array_append_new(warnings, json_string(text));
		}
	}
	json_object_set_new(r, "warnings", warnings);
	server_reply(c, r);
}

void tournament_cmds_warn(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t game;
	enum color color;
	const char *reason;
	if (proto_get_id(req->root, "game", true, &game, &err) < 0 ||
	    proto_get_color(req->root, "color", true, &color, &err) < 0 ||
	    proto_get_text(req->root, "reason", true, STORE_WARNING_REASON_SIZE - 1, &reason, &err) < 0 ||
	    tournaments_warn(c->srv, game, color, reason, &err) < 0) {
		reply_refused(c, req, &err);
		return;
	}
	server_reply(c, proto_reply_ok(req->id));
}
