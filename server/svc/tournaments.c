/* tournaments: see tournaments.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "director.h"
#include "elim.h"
#include "event.h"
#include "games.h"
#include "log.h"
#include "matches.h"
#include "panic.h"
#include "pairing.h"
#include "rating.h"
#include "referee.h"
#include "ruleset.h"
#include "standings.h"
#include "svc_error.h"
#include "team.h"
#include "teams.h"
#include "tour.h"
#include "tournaments.h"

/* ---- commands ---- */

/* The settings of team events and match forms into the settings object s (teams.h). */
static void tournaments_create_extra(const struct tournament_settings *set, json_t *s)
{
	if (set->team_system >= 0) {
		json_object_set_new(s, "boards", json_integer(set->boards));
		json_object_set_new(s, "lineup", json_string(set->lineup_per_round ? "per_round" : "fixed"));
	}
	if (set->match_games)
		json_object_set_new(s, "match_games", json_integer(set->match_games));
	if (set->elimination_losses)
		json_object_set_new(s, "elimination_losses", json_integer(set->elimination_losses));
}

/* The stored settings object of `set`; *cap: the handicap the board holds (Art. 2: a larger
 * handicap_max is capped, and the reply says so). */
static json_t *settings_json(const struct tournament_settings *set, int *cap_out)
{
	int cap = tour_handicap_cap(set->handicap_max, set->size);
	json_t *tb = json_array();
	for (int i = 0; i < set->ntiebreaks; i++)
		json_array_append_new(tb, json_string(set->tiebreaks[i]));
	json_t *s = json_pack("{s:i, s:i, s:f, s:f, s:o, s:b, s:o, s:i, s:o, s:i, s:i, s:i, s:b, s:i, "
			      "s:b, s:s, s:i, s:f, s:i, s:i}",
			      "rounds", set->rounds, "size", set->size, "komi", set->komi, "handicap_komi",
			      set->handicap_komi, "time", proto_time_to_json(&set->time), "rated", set->rated,
			      "rules", proto_rules_to_json(&set->rules), "lateness_limit_s",
			      set->lateness_limit_s, "tiebreaks", tb, "bye", set->bye, "mcmahon_bar",
			      set->mcmahon_bar, "mcmahon_floor", set->mcmahon_floor, "handicap",
			      set->handicap, "handicap_max", cap, "double_elimination",
			      set->double_elimination, "venue",
			      tour_venue_names[set->board ? TOUR_VENUE_BOARD : TOUR_VENUE_ONLINE],
			      "absent_points", set->absent_points, "mms_absent", set->mms_absent,
			      "handicap_correction", set->handicap_correction, "handicap_none_above",
			      set->handicap_none_above);
	if (set->place)
		json_object_set_new(s, "place", json_string(set->place));
	json_object_set_new(s, "handicap_by", json_string(tour_handicap_by_names[set->handicap_by_mms]));
	tournaments_create_extra(set, s);
	*cap_out = cap;
	return s;
}

int tournaments_create(struct server *srv, const struct tournament_settings *set,
		       const char *director, int64_t *id, int *handicap_max, struct proto_error *e)
{
	int cap;
	json_t *s = settings_json(set, &cap);
	json_t *state = json_pack("{s:o, s:[], s:[], s:i, s:s}", "settings", s, "players", "byes",
				  "round", 0, "director", director);
	char *text = json_dumps(state, JSON_COMPACT);
	json_decref(state);
	if (!text) /* nothing written yet */
		return svc_fail(e, PROTO_ERR_INTERNAL, "could not store the tournament");
	server_txn(srv);
	const char *sysname = set->team_system >= 0 ? team_system_names[set->team_system] :
			      event_system_name(set->system);
	enum store_rc rc = store_tournament_create(srv->store, set->name, sysname, text, id);
	free(text);
	if (rc == STORE_CONFLICT)
		return svc_fail(e, PROTO_ERR_CONFLICT, "a tournament named '%s' exists", set->name);
	if (rc != STORE_OK) /* the iteration's other changes may be gone with it (panic.h) */
		CORE_PANIC(srv->store, "what=tournament_create");
	log_msg(LOGL_INFO, "tournament_create", "tournament=%lld name=\"%s\" system=%s handicap_max=%d by=%s",
		(long long)*id, set->name, sysname, cap, director);
	*handicap_max = cap;
	return 0;
}

/* The settings a director may still change once round 1 is paired: they bear only on the
 * rounds not yet paired (time, lateness_limit_s: their games are made with them), on how the
 * standings are read (tiebreaks) or on the export (place); `rounds` in a Swiss or McMahon
 * event, to no fewer than the rounds paired (OpenGotha lets a director add a round too). */
static const char *const update_late_fields[] = {"rounds", "tiebreaks", "time",
						 "lateness_limit_s", "place"};

/* May `key` change in t at round `round` (>= 1)? 0, or -1 with *e. */
static int update_late_check(const struct tour *t, const char *key, int round, int rounds,
			     struct proto_error *e)
{
	bool late = false;
	for (size_t k = 0; k < sizeof update_late_fields / sizeof *update_late_fields; k++)
		late |= strcmp(key, update_late_fields[k]) == 0;
	bool swiss = (t->system == SYSTEM_SWISS || t->system == SYSTEM_MCMAHON) && !teams_is_team(t);
	if (!late || (strcmp(key, "rounds") == 0 && !swiss))
		return svc_fail(e, PROTO_ERR_CONFLICT, "field '%.40s': tournament %lld is at round %d, "
				"and this setting is fixed once round 1 is paired (what may still "
				"change: rounds in a Swiss or McMahon event, tiebreaks, time, "
				"lateness_limit_s, place; tournament.unpair takes a round back while "
				"none of its games has begun)", key, (long long)t->row.id, round);
	if (strcmp(key, "rounds") == 0 && rounds < round)
		return svc_fail(e, PROTO_ERR_CONFLICT, "field 'rounds': %d is fewer than the %d "
				"rounds paired already", rounds, round);
	return 0;
}

int tournaments_rounds_shown(const struct tour *t, bool *derived)
{
	enum team_system ts;
	enum event_system base;
	int stored = tour_setting_int(t, "rounds", TOURNAMENT_ROUNDS_DEFAULT);
	if (team_system_parse(t->row.system, &ts, &base) == 0) {
		*derived = ts == TEAM_SYSTEM_ROUND_ROBIN || ts == TEAM_SYSTEM_KNOCKOUT;
		int r = teams_rounds_planned(t->row.system, t->state);
		return r > 0 ? r : stored;
	}
	*derived = t->system == SYSTEM_ROUND_ROBIN || t->system == SYSTEM_DOUBLE_ROUND_ROBIN ||
		   (t->system == SYSTEM_KNOCKOUT &&
		    !json_is_true(json_object_get(tour_settings(t), "double_elimination")) &&
		    tour_setting_int(t, "elimination_losses", 0) <= 1);
	return tour_rounds_planned(t->system, t->state);
}

/* A `rounds` given to t, whose rounds follow from its field (tournaments_rounds_shown: `shown`
 * of them), that is not those: a conflict at any round (it was stored, or taken for no change
 * when it was the stored value, and the reply said `ok` with rounds nobody plays). Returns -1
 * with *e. */
static int update_rounds_derived(const struct tour *t, int given, int shown, struct proto_error *e)
{
	enum team_system ts;
	enum event_system base;
	bool team = team_system_parse(t->row.system, &ts, &base) == 0;
	bool ko = team ? ts == TEAM_SYSTEM_KNOCKOUT : t->system == SYSTEM_KNOCKOUT;
	int entries = 0;
	size_t i;
	json_t *p;
	if (team)
		entries = (int)json_array_size(json_object_get(t->state, "teams"));
	else
		json_array_foreach(json_object_get(t->state, "players"), i, p)
			entries += !json_is_true(json_object_get(p, "withdrawn_before_start"));
	const char *what = team ? (ko ? "team knockout" : "team round robin") :
			   ko ? "knockout" : t->system == SYSTEM_DOUBLE_ROUND_ROBIN ?
			   "double round robin" : "round robin";
	return svc_fail(e, PROTO_ERR_CONFLICT, "field 'rounds': tournament %lld is a %s, whose rounds "
			"follow from its field, not from this setting: %d for its %d %s%s (%s); "
			"%d would change nothing", (long long)t->row.id, what, shown, entries,
			team ? "team" : "entr", team ? (entries == 1 ? "" : "s") :
			(entries == 1 ? "y" : "ies"), ko ? "the rounds until one is left" :
			"everyone meets everyone, Art. 26", given);
}

int tournaments_update(struct server *srv, int64_t id, const struct tournament_settings *set,
		       const char *const *changed, size_t nchanged, const char *by,
		       int *handicap_max, json_t **settings, struct proto_error *e)
{
	struct tour t;
	if (tour_get(srv, id, &t, e) < 0)
		return -1;
	int round = tour_round(&t);
	bool derived;
	int shown = tournaments_rounds_shown(&t, &derived);
	for (size_t k = 0; derived && k < nchanged; k++)
		if (strcmp(changed[k], "rounds") == 0) {
			update_rounds_derived(&t, set->rounds, shown, e);
			tour_clear(&t);
			return -1;
		}
	for (size_t k = 0; round > 0 && k < nchanged; k++)
		if (update_late_check(&t, changed[k], round, set->rounds, e) < 0) {
			tour_clear(&t);
			return -1;
		}
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(t.state, "players"), i, p)
		if (!set->board && json_is_true(json_object_get(p, "entrant"))) {
			tour_clear(&t);
			return svc_fail(e, PROTO_ERR_CONFLICT, "field 'venue': the field has people "
					"without accounts (entrants), who play at real boards only");
		}
	json_t *s = settings_json(set, handicap_max);
	json_object_set_new(t.state, "settings", s);
	server_txn(srv);
	tour_save(srv, &t);
	log_msg(LOGL_INFO, "tournament_update", "tournament=%lld round=%d by=%s", (long long)id,
		round, by);
	/* the reply's settings as tournament.get gives them: a round robin's or knockout's
	 * rounds those its field plays (it said the stored 5 where get said 3) */
	*settings = json_deep_copy(s);
	if (*settings && derived)
		json_object_set_new(*settings, "rounds", json_integer(tournaments_rounds_shown(&t,
									&derived)));
	tour_clear(&t);
	if (!*settings) /* the change is stored: say so without the object */
		*settings = json_object();
	return 0;
}

int tournaments_delete(struct server *srv, int64_t id, const char *by,
		       char name[STORE_TOURNAMENT_NAME_MAX + 1], int *entrants, struct proto_error *e)
{
	struct tour t;
	if (tour_get(srv, id, &t, e) < 0)
		return -1;
	snprintf(name, STORE_TOURNAMENT_NAME_MAX + 1, "%s", t.row.name);
	int ngames = 0, round = tour_round(&t);
	server_txn(srv);
	enum store_rc rc = store_tournament_delete(srv->store, id, &ngames);
	if (rc == STORE_CONFLICT) {
		tour_clear(&t);
		return svc_fail(e, PROTO_ERR_CONFLICT, "tournament %lld has %d game%s (%s): its "
				"results stay on record; an event is deleted only before its first "
				"round is paired", (long long)id, ngames, ngames == 1 ? "" : "s",
				round ? "a round is paired" : "called off when a round was unpaired");
	}
	if (rc != STORE_OK) /* the iteration's other changes may be gone with it (panic.h) */
		CORE_PANIC(srv->store, "what=tournament_delete tournament=%lld", (long long)id);
	/* its entrants' records (people without accounts, one entry of this event each, no
	 * games): nobody else names them (their handles hold this event's id, never given
	 * again: migration 0010) */
	*entrants = 0;
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(t.state, "players"), i, p) {
		if (!json_is_true(json_object_get(p, "entrant")))
			continue;
		rc = store_entrant_delete(srv->store, json_integer_value(json_object_get(p, "id")));
		if (rc == STORE_OK)
			(*entrants)++;
		else if (rc != STORE_NOT_FOUND)
			CORE_PANIC(srv->store, "what=entrant_delete tournament=%lld", (long long)id);
	}
	log_msg(LOGL_INFO, "tournament_delete", "tournament=%lld name=\"%s\" entrants=%d by=%s",
		(long long)id, name, *entrants, by);
	tour_clear(&t);
	return 0;
}

bool tournaments_entry_id(struct server *srv, int64_t tournament, const char *name,
			  int64_t *id)
{
	struct tour t;
	struct proto_error e;
	if (tour_get(srv, tournament, &t, &e) < 0)
		return false;
	json_t *v = tour_entry_named(&t, name);
	if (v)
		*id = json_integer_value(json_object_get(v, "id"));
	tour_clear(&t);
	return v != NULL;
}

static bool tournaments_over(struct server *srv, const struct tour *t);

/* The games of player `pid` that t's standings void because of the withdrawal just recorded in
 * t (Art. 28: a round robin's player withdrawn with fewer than half its games played): those
 * void with it and not without it, as [game id] (a best-of-N match: its first game), a new
 * array; [] for the other systems, whose results stand. */
static json_t *withdraw_voided(struct server *srv, const struct tour *t, int64_t pid)
{
	json_t *ids = json_array();
	struct ev_build b;
	if ((t->system != SYSTEM_ROUND_ROBIN && t->system != SYSTEM_DOUBLE_ROUND_ROBIN) ||
	    teams_is_team(t) || tour_ev_build(srv, t, &b) < 0)
		return ids;
	int pi = tour_player_index(&b.ev, pid), n = b.ev.ngames;
	enum event_result *raw = malloc(((size_t)n + 1) * sizeof *raw),
			  *kept = malloc(((size_t)n + 1) * sizeof *kept);
	if (pi >= 0 && raw && kept && matches_reduce(t, &b) == 0) {
		n = b.ev.ngames;
		int after = b.ev.players[pi].withdrawn_after;
		for (int k = 0; k < n; k++)
			raw[k] = b.ev.games[k].result;
		b.ev.players[pi].withdrawn_after = 0; /* as the standings read it before */
		bool ok = standings_apply_withdrawals(&b.ev) >= 0;
		for (int k = 0; k < n; k++) {
			kept[k] = b.ev.games[k].result;
			b.ev.games[k].result = raw[k];
		}
		b.ev.players[pi].withdrawn_after = after;
		ok = ok && standings_apply_withdrawals(&b.ev) >= 0;
		for (int k = 0; ok && k < n; k++)
			if (b.ev.games[k].result == RESULT_VOID && kept[k] != RESULT_VOID &&
			    (b.ev.games[k].black == pi || b.ev.games[k].white == pi))
				json_array_append_new(ids, json_integer(b.game_ids[k]));
	}
	free(raw);
	free(kept);
	tour_ev_free(&b);
	return ids;
}

int tournaments_withdraw(struct server *srv, int64_t tournament, const char *name,
			 int *after_round, json_t **forfeited, json_t **voided,
			 struct proto_error *e)
{
	struct tour t;
	if (tour_get(srv, tournament, &t, e) < 0)
		return -1;
	json_t *entry = tour_entry_named(&t, name);
	if (!entry) {
		tour_clear(&t);
		return svc_fail(e, PROTO_ERR_NOT_FOUND, "%s is not in the field", name);
	}
	if (tour_entry_withdrawn(entry, name, e) < 0) {
		tour_clear(&t);
		return -1;
	}
	int round = tour_round(&t);
	/* Art. 28 is about leaving an event under way: once it is over, a withdrawal changed
	 * nothing but the standings' note (the winner "withdrawn after round 3"), and in a
	 * knockout it could not be undone */
	if (round > 0 && tournaments_over(srv, &t)) {
		svc_fail(e, PROTO_ERR_CONFLICT, "tournament %lld is over (round %d was its last, and "
			 "every game has a result): nobody withdraws from it; to change a result, "
			 "enter it (tournament.result)", (long long)t.row.id, round);
		tour_clear(&t);
		return -1;
	}
	int64_t pid = json_integer_value(json_object_get(entry, "id"));
	json_t *done = json_array();
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
				if (g->result != RESULT_NONE || (g->black != pi && g->white != pi))
					continue;
				const char *res = ruleset_default()->result_win(
					g->black == pi ? WHITE : BLACK, RULESET_WIN_FORFEIT);
				games_set_result(srv, b.game_ids[k], res, "adjudicated", GAMES_UNRATED);
				json_array_append_new(done, json_pack("{s:I, s:i, s:s}", "game",
					(json_int_t)b.game_ids[k], "round", g->round, "result", res));
			}
			tour_ev_free(&b);
		}
	}
	tour_save(srv, &t);
	*voided = round > 0 ? withdraw_voided(srv, &t, pid) : json_array();
	/* a game this withdrawal has just forfeited is said once, among the forfeits */
	size_t vi, fi;
	json_t *vg, *fg;
	for (vi = 0; *voided && vi < json_array_size(*voided);) {
		bool dup = false;
		vg = json_array_get(*voided, vi);
		json_array_foreach(done, fi, fg)
			dup |= json_integer_value(json_object_get(fg, "game")) == json_integer_value(vg);
		if (dup)
			json_array_remove(*voided, vi);
		else
			vi++;
	}
	log_msg(LOGL_INFO, "tournament_withdraw", "tournament=%lld player=%s after_round=%d "
		"voided=%zu", (long long)t.row.id, name, round, json_array_size(*voided));
	*after_round = round;
	*forfeited = done;
	tour_clear(&t);
	return 0;
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
static int create_failed(struct server *srv, const struct tour *t, int round, int created,
			 struct proto_error *e)
{
	if (created > 0)
		CORE_PANIC(srv->store, "what=tournament_round tournament=%lld round=%d created=%d",
			   (long long)t->row.id, round, created);
	log_msg(LOGL_ERROR, "tournament_round", "tournament=%lld round=%d: a game could not be "
		"created after %d", (long long)t->row.id, round, created);
	return svc_fail(e, PROTO_ERR_INTERNAL, "round %d: a game could not be created", round);
}

/* Knockout (docs/rules.md §4): a drawn or void game is replayed, in the same round, colours swapped.
 * If the current round has such pairs, schedule their replays and reply with them (the round
 * does not advance); every replay is checked (games_schedule_check) before any is created, and
 * a refused one is an error (-1, *e) that creates nothing. Returns 1 if it scheduled
 * replays (*out filled), 0 if none are due, -1 on an error. */
static int knockout_replays(struct server *srv, struct tour *t, struct ev_build *b,
			    const struct game_settings *gs, double start_at,
			    struct tournament_round *out, struct proto_error *e)
{
	int round = tour_round(t), due = 0;
	for (int k = 0; k < b->ev.ngames; k++) {
		const char *why;
		if (!needs_replay(b, k, round))
			continue;
		due++;
		if (games_schedule_check(gs, b->ev.games[k].handicap, &why) < 0) {
			log_msg(LOGL_WARN, "tournament_replay", "tournament=%lld round=%d game=%lld "
				"refused: %s", (long long)t->row.id, round, (long long)b->game_ids[k], why);
			return svc_fail(e, PROTO_ERR_CONFLICT, "cannot replay game %lld of round %d: "
					"%s (handicap %d)", (long long)b->game_ids[k], round, why,
					b->ev.games[k].handicap);
		}
	}
	if (due == 0)
		return 0;
	json_t *pairs = json_array();
	for (int k = 0; k < b->ev.ngames; k++) {
		const struct event_game *g = &b->ev.games[k];
		if (!needs_replay(b, k, round))
			continue;
		const struct event_player *bp = &b->ev.players[g->white], *wp = &b->ev.players[g->black];
		int64_t gid = games_create_scheduled(srv, bp->id, wp->id, gs, g->handicap, t->row.id,
						     round, tour_board(t) ? 0 :
						     start_at ? start_at : server_now());
		if (gid < 0) {
			int created = (int)json_array_size(pairs);
			json_decref(pairs);
			return create_failed(srv, t, round, created, e);
		}
		json_array_append_new(pairs, json_pack("{s:I, s:s, s:s, s:i}", "game", (json_int_t)gid,
			"black", bp->name, "white", wp->name, "handicap", g->handicap));
	}
	log_msg(LOGL_INFO, "tournament_replay", "tournament=%lld round=%d games=%zu", (long long)t->row.id,
		round, json_array_size(pairs));
	*out = (struct tournament_round){.round = round, .replay = true, .pairings = pairs,
					 .byes = json_array()};
	return 1;
}

/* Can round `round` of t start: every game of the rounds so far has a result, and at least
 * two players are in? Returns 0, or -1 (a conflict in *e) if not. */
static int round_ready(const struct tour *t, const struct ev_build *b, struct proto_error *e)
{
	char pending[256] = "";
	int npending = 0;
	for (int k = 0; k < b->ev.ngames; k++)
		if (b->ev.games[k].result == RESULT_NONE) {
			size_t l = strlen(pending);
			/* the games as far as they fit, then "...": a list cut without a word
			 * read as the whole of it */
			if (l < sizeof pending - 32)
				snprintf(pending + l, sizeof pending - l, "%s%lld", npending ? ", " : "",
					 (long long)b->game_ids[k]);
			else if (strcmp(pending + l - 3, "...") != 0)
				snprintf(pending + l, sizeof pending - l, ", ...");
			npending++;
		}
	if (npending)
		return svc_fail(e, PROTO_ERR_CONFLICT,
				"round %d is not finished: %d game%s without a result (%s)",
				tour_round(t), npending, npending == 1 ? "" : "s", pending);
	int active = 0;
	for (int i = 0; i < b->ev.nplayers; i++)
		active += !b->ev.players[i].withdrawn_before_start;
	if (active < 2)
		return svc_fail(e, PROTO_ERR_CONFLICT, "a tournament needs at least 2 players");
	return 0;
}

/* Every pair is checked before any game is created: a round that cannot be made is an error
 * and changes nothing (the round counter included). Returns 0, or -1 (a conflict in *e). */
static int pairs_schedulable(const struct tour *t, const struct ev_build *b,
			     const struct game_settings *gs, const struct pairing_out *out, int round,
			     struct proto_error *e)
{
	for (int k = 0; k < out->npairs; k++) {
		const struct pairing_pair *p = &out->pairs[k];
		const char *why;
		if (games_schedule_check(gs, p->handicap, &why) < 0) {
			log_msg(LOGL_WARN, "tournament_round", "tournament=%lld round=%d refused: %s v %s, "
				"size %d, handicap %d: %s", (long long)t->row.id, round,
				b->ev.players[p->black].name, b->ev.players[p->white].name, gs->size,
				p->handicap, why);
			return svc_fail(e, PROTO_ERR_CONFLICT, "cannot pair round %d: %s v %s (size %d, "
					"handicap %d): %s", round, b->ev.players[p->black].name,
					b->ev.players[p->white].name, gs->size, p->handicap, why);
		}
	}
	return 0;
}

/* Create the games of round `round` of t as paired in *out, starting at start_at. Returns
 * [{game, black, white, handicap, handicap_wanted?}] (new reference), or NULL after a game
 * could not be created (create_failed filled *e or stopped the server). */
/* The colour column of the winner by forfeit when one player of a pairing is absent: the
 * pairing's other player, whose column is swapped in a seed-000 game (its Black column holds
 * the pairing's White, the first player, until the predictions decide). */
static int absent_winner(bool pred, bool black_absent)
{
	bool winner_is_pairing_white = black_absent;
	return winner_is_pairing_white != pred ? WHITE : BLACK;
}

static json_t *create_round_games(struct server *srv, const struct tour *t, const struct ev_build *b,
				  const struct game_settings *gs, const struct pairing_out *out,
				  int round, double start_at, struct proto_error *e)
{
	json_t *pairs = json_array();
	for (int k = 0; k < out->npairs; k++) {
		const struct pairing_pair *p = &out->pairs[k];
		const struct event_player *bp = &b->ev.players[p->black], *wp = &b->ev.players[p->white];
		/* seed 000: the pairing's White is the first player (who is first is balanced as
		 * colours are), listed in the game's first column until the predictions decide */
		bool pred = gs->rules.ruleset == RULESET_PREDICTION;
		int64_t gid = games_create_scheduled(srv, pred ? wp->id : bp->id, pred ? bp->id : wp->id,
						     gs, p->handicap, t->row.id, round,
						     tour_board(t) ? 0 : start_at);
		if (gid < 0) {
			create_failed(srv, t, round, k, e);
			json_decref(pairs);
			return NULL;
		}
		/* A withdrawn player's game: a forfeit; both withdrawn: a double loss, stored as
		 * Void with reason double_forfeit (Art. 17.5, 23.1; games_set_result). */
		if (p->black_absent || p->white_absent)
			games_set_result(srv, gid, p->black_absent && p->white_absent ?
					 ruleset_default()->result_void :
					 ruleset_default()->result_win(absent_winner(pred, p->black_absent),
								       RULESET_WIN_FORFEIT),
					 p->black_absent && p->white_absent ? "double_forfeit" : "adjudicated",
					 GAMES_UNRATED);
		json_t *pj = json_pack("{s:I, s:s, s:s, s:i}", "game", (json_int_t)gid, "black",
				       bp->name, "white", wp->name, "handicap", p->handicap);
		if (pred) {
			json_object_set_new(pj, "first", json_string(wp->name));
			json_object_set_new(pj, "second", json_string(bp->name));
		}
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

/* The draw of round `round`: pairing_round, or with elimination after k losses
 * (common/elim.h: knockout, or Swiss keeping the field even, Art. 26.1, 26.4). */
static int tournaments_pair(const struct tour *t, const struct event *ev, int round,
			    struct pairing_out *out)
{
	int k = tour_setting_int(t, "elimination_losses", 0);
	if (k > 0 && t->system == SYSTEM_KNOCKOUT)
		return elim_knockout_round(ev, k, round, out);
	if (k > 0)
		return elim_swiss_round(ev, k, true, round, out);
	return pairing_round(ev, round, out);
}

/* Is t over: round 1 paired, every game with a result, and no round, knockout replay or
 * best-of-N game to come (tournaments_start_round would answer "the event is over")? */
static bool tournaments_over(struct server *srv, const struct tour *t)
{
	int round = tour_round(t);
	struct ev_build b;
	if (round < 1 || tour_ev_build(srv, t, &b) < 0)
		return false;
	bool over;
	if (teams_is_team(t)) {
		over = teams_over(t, &b);
		tour_ev_free(&b);
		return over;
	}
	over = true;
	for (int k = 0; over && k < b.ev.ngames; k++)
		over = b.ev.games[k].result != RESULT_NONE;
	/* best-of-N: an undecided match has its next game to come (matches_next_games) */
	if (over && matches_games(t)) {
		over = matches_reduce(t, &b) == 0;
		for (int k = 0; over && k < b.ev.ngames; k++)
			over = b.ev.games[k].result != RESULT_NONE;
	}
	/* a knockout's drawn or void game is replayed (knockout_replays) */
	for (int k = 0; over && !matches_games(t) && t->system == SYSTEM_KNOCKOUT &&
	     k < b.ev.ngames; k++)
		over = !needs_replay(&b, k, round);
	/* a Swiss or McMahon is over at its last round (pairing round + 1 only to hear "over"
	 * ran a whole matching on the loop: 0.1-0.3 s at 1,000 players); the other systems'
	 * ends follow from their brackets and fields: asked of the pairing */
	if (over && !matches_games(t) && tour_setting_int(t, "elimination_losses", 0) == 0 &&
	    (t->system == SYSTEM_SWISS || t->system == SYSTEM_MCMAHON)) {
		over = round >= tour_rounds_planned(t->system, t->state);
		tour_ev_free(&b);
		return over;
	}
	struct pairing_out *out = over ? malloc(sizeof *out) : NULL;
	over = out && tournaments_pair(t, &b.ev, round + 1, out) == PAIRING_EOVER;
	free(out);
	tour_ev_free(&b);
	return over;
}

int tournaments_start_round(struct server *srv, int64_t tournament, double start_at,
			    struct tournament_round *res, struct proto_error *e)
{
	struct tour t;
	if (tour_get(srv, tournament, &t, e) < 0)
		return -1;
	struct ev_build b;
	struct game_settings gs;
	struct pairing_out *out = NULL;
	if (tour_game_settings(&t, &gs) < 0 || tour_ev_build(srv, &t, &b) < 0) {
		tour_clear(&t);
		return svc_fail(e, PROTO_ERR_INTERNAL, "could not read the tournament");
	}
	int round = tour_round(&t) + 1, rc = -1;
	/* A start already past the lateness limit loses every game of the round at once (both
	 * absent: double forfeits, Art. 22.1): a typo (600 for "in ten minutes"), refused. A
	 * director starting late (start_at a little ago) is fine: lateness runs from it. */
	double now = fairclock_wall_s();
	if (start_at > 0 && !tour_board(&t) && gs.lateness_limit_s > 0 &&
	    start_at < now - gs.lateness_limit_s) {
		rc = svc_fail(e, PROTO_ERR_BAD_REQUEST, "field 'start_at': %.0f s ago, past the "
			      "lateness limit (%d s): every game of the round would be lost at once "
			      "(Unix seconds; omit it to start now)", now - start_at,
			      gs.lateness_limit_s);
		goto out;
	}
	if (teams_is_team(&t)) {
		rc = teams_start_round(srv, &t, &b, start_at, res, e);
		goto out;
	}
	if (round_ready(&t, &b, e) < 0)
		goto out;
	if (matches_games(&t)) { /* best-of-N: the round's matches first (svc/matches.h) */
		rc = matches_next_games(srv, &t, &b, start_at, res, e);
		if (rc != 0) {
			rc = rc > 0 ? 0 : -1;
			goto out;
		}
		if (matches_reduce(&t, &b) < 0) {
			rc = svc_fail(e, PROTO_ERR_INTERNAL, "could not read the matches");
			goto out;
		}
		rc = -1;
	}
	if (!matches_games(&t) && t.system == SYSTEM_KNOCKOUT && round > 1 &&
	    (rc = knockout_replays(srv, &t, &b, &gs, start_at, res, e)) != 0) {
		rc = rc > 0 ? 0 : -1;
		goto out;
	}
	rc = -1;
	out = malloc(sizeof *out);
	int prc = out ? tournaments_pair(&t, &b.ev, round, out) : PAIRING_ENOMEM;
	if (prc < 0) {
		svc_fail(e, prc == PAIRING_EOVER || prc == PAIRING_EPENDING ? PROTO_ERR_CONFLICT :
			 PROTO_ERR_INTERNAL, "cannot pair round %d: %s", round, pairing_strerror(prc));
		goto out;
	}
	if (pairs_schedulable(&t, &b, &gs, out, round, e) < 0)
		goto out;
	if (!start_at)
		start_at = server_now();
	json_t *pairs = create_round_games(srv, &t, &b, &gs, out, round, start_at, e);
	if (!pairs)
		goto out;
	json_t *byes = json_array();
	json_object_set_new(t.state, "round", json_integer(round));
	for (int k = 0; k < out->nbyes; k++) {
		json_array_append_new(json_object_get(t.state, "byes"),
				      json_pack("{s:i, s:i}", "round", round, "player", out->byes[k]));
		json_array_append_new(byes, json_string(b.ev.players[out->byes[k]].name));
		json_t *ev = proto_event("tournament.bye");
		json_object_set_new(ev, "tournament", json_integer(t.row.id));
		json_object_set_new(ev, "round", json_integer(round));
		server_send_player(srv, b.ev.players[out->byes[k]].id, ev);
		json_decref(ev);
	}
	tour_save(srv, &t);
	log_msg(LOGL_INFO, "tournament_round", "tournament=%lld round=%d pairs=%d byes=%d",
		(long long)t.row.id, round, out->npairs, out->nbyes);
	*res = (struct tournament_round){.round = round, .start_at = start_at, .pairings = pairs,
					 .byes = byes};
	rc = 0;
out:
	if (rc == 0 && tour_board(&t)) /* the games were made without a start time */
		res->start_at = 0;
	free(out);
	tour_ev_free(&b);
	tour_clear(&t);
	return rc;
}

/* The error for games_set_result's refusal (-2 ... -6) of `given` (the result as typed) with
 * `reason` (NULL: none given, so none is spoken of); `komi` the game's in force (points; -4
 * names it and the two margins next to the one given that fit it, Chinese Rules 2002 Art.
 * 9-11; -5 the largest margin with `size`, the game's board; NAN: not known). Returns -1. */
static int result_refused(struct proto_error *e, int rc, const char *given, const char *stored,
			  const char *reason, double komi, int size)
{
	const struct ruleset *rs = ruleset_default();
	if (rc == -5 && isfinite(komi) && size > 0)
		return svc_fail(e, PROTO_ERR_BAD_REQUEST,
				"field 'result': '%s' is more than any count can give on this game's "
				"%dx%d board: a margin is at most %g points there (the board's %d "
				"points, %d for a warning, and the komi, %g)", stored, size, size,
				ruleset_margin_max(rs, size, komi), size * size,
				2 * (rs->warnings_lose - 1), komi);
	if (rc == -5)
		return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field 'result': '%s' is more than any "
				"count can give on this game's board", stored);
	if (rc == -6) {
		enum end_reason why = END_ADJUDICATED;
		referee_reason_parse(reason, &why);
		return svc_fail(e, PROTO_ERR_BAD_REQUEST,
				"field 'reason': %s does not go with '%s': %s goes with %s, and %s with "
				"%s (adjudicated with any: a director's decision, Art. 23)",
				referee_reason_name(why), stored, referee_reason_name(why),
				referee_reason_results(why), stored,
				referee_result_reasons(rs, stored));
	}
	if (rc == -4 && isfinite(komi) && strcmp(stored, "0") != 0 &&
	    (stored[0] == 'B' || stored[0] == 'W') && stored[1] == '+') {
		/* the margins that fit: a whole number plus the komi's fraction */
		double m = strtod(stored + 2, NULL), f = komi - floor(komi);
		double lo = floor(m - f) + f, hi = lo + 1;
		if (lo <= 0)
			lo = hi, hi = hi + 1;
		return svc_fail(e, PROTO_ERR_BAD_REQUEST,
				"field 'result': an area count cannot give '%s' with this game's komi, "
				"%g (the margin minus the komi is a whole number of points: %c+%g or "
				"%c+%g)", stored, komi, stored[0], lo, stored[0], hi);
	}
	if (rc == -2)
		return svc_fail(e, PROTO_ERR_BAD_REQUEST,
				"field 'result': '%s' is not a result (B+R, W+3.5, B+T, W+F, "
				"0/jigo/draw, Void, double_loss)", given);
	char komi_text[32];
	snprintf(komi_text, sizeof komi_text, ", %g", komi);
	if (rc == -4)
		return svc_fail(e, PROTO_ERR_BAD_REQUEST,
				"field 'result': an area count cannot give '%s' with this game's komi%s"
				" (the margin minus the komi is a whole number of points%s)", stored,
				isfinite(komi) ? komi_text : "",
				strcmp(stored, "0") == 0 ? "; a draw needs a whole komi, or reason "
				"adjudicated for a director's decision, Art. 23" : "");
	if (reason && strcmp(reason, "double_forfeit") == 0)
		return svc_fail(e, PROTO_ERR_BAD_REQUEST,
				"field 'reason': double_forfeit (a double loss) goes with result Void "
				"or double_loss, not '%s'", stored);
	return svc_fail(e, PROTO_ERR_BAD_REQUEST,
			"field 'reason': '%s' is not a reason (resignation, time, score, "
			"warnings, illegal, lateness, double_forfeit, adjudicated, cycle)",
			reason ? reason : "");
}

/* The colour a result string names as the winner ('B', 'W'), or 0 (a draw, void, none). */
static char result_winner(const char *r)
{
	return (r[0] == 'B' || r[0] == 'W') && r[1] == '+' ? r[0] : 0;
}

/* A knockout pairs each round from the last one's winners: once the next round is paired, a
 * result of an earlier round may change only if its winner stays (B+R to B+3.5). Returns 0,
 * or -1 with *e (conflict) for a change of winner. */
static int knockout_bracket_holds(struct server *srv, const struct tour *t, int64_t game,
				  const char *result, struct proto_error *e)
{
	struct store_game row = {0};
	int rc = 0;
	if (t->system == SYSTEM_KNOCKOUT && store_game_get(srv->store, game, &row) == STORE_OK &&
	    row.round > 0 && row.round < tour_round(t) &&
	    result_winner(row.result) != result_winner(result))
		rc = svc_fail(e, PROTO_ERR_CONFLICT, "game %lld (%s) decided who went on from round "
			      "%d, and round %d was paired from it: a knockout result can change "
			      "only where its winner stays", (long long)game,
			      row.result[0] ? row.result : "no result", row.round, row.round + 1);
	store_game_clear(&row);
	return rc;
}

/* How a director's result moves ratings (docs/td-guide.md §4): a tournament game's forfeit
 * (`B+F`, `W+F`) not lost on the board (reason `warnings` or `illegal`) was not played, so it
 * is unrated, as the h9's `!` tells the EGD; another result of a rated event's game counts,
 * again if a forfeit had made it unrated; a casual game (an admin's) stays as it is. */
static enum games_rating result_rating(const struct tour *t, const char *result,
				       const char *reason)
{
	struct ruleset_result res;
	/* a casual game (an admin's): as it is, since what its players agreed (rated or not)
	 * is kept nowhere else, and a forfeit corrected later must be rated again */
	if (!t)
		return GAMES_RATING_KEEP;
	if (ruleset_default()->result_parse(result, &res) == 0 && tour_unplayed_forfeit(&res, reason))
		return GAMES_UNRATED;
	return json_is_true(json_object_get(tour_settings(t), "rated")) ? GAMES_RATED
									 : GAMES_RATING_KEEP;
}

int tournaments_result(struct server *srv, const char *by, bool admin, int64_t game,
		       const char *given, const char *reason, char result[STORE_RESULT_SIZE],
		       char previous[STORE_RESULT_SIZE], struct result_where *where,
		       struct proto_error *e)
{
	previous[0] = '\0';
	int64_t tid = 0;
	int round = 0;
	bool double_loss, off;
	/* Case-insensitive, jigo/draw = 0, a double loss stored as Void with reason
	 * double_forfeit (docs/rules.md §4; docs/protocol.md tournament.result). */
	if (ruleset_result_normalise(ruleset_default(), given, result, STORE_RESULT_SIZE,
				     &double_loss) < 0)
		return result_refused(e, -2, given, given, reason, NAN, 0);
	/* a reason in any case, as the result ("SCORE" is score), and from here in the one
	 * form it is stored in (the checks below and games_set_result compare it so) */
	enum end_reason why;
	if (reason && referee_reason_parse(reason, &why) == 0)
		reason = referee_reason_name(why);
	if (double_loss && reason && strcmp(reason, "double_forfeit") != 0)
		return svc_fail(e, PROTO_ERR_BAD_REQUEST,
				"field 'reason': a double loss has reason double_forfeit, not '%s'", reason);
	if (double_loss)
		reason = "double_forfeit";
	char was_reason[STORE_REASON_SIZE] = "";
	if (games_tournament_of(srv, game, &tid, &round, previous, was_reason, &off) < 0)
		return svc_fail(e, PROTO_ERR_NOT_FOUND, "no game %lld", (long long)game);
	/* A director sets a tournament's results only; an admin any game's, logged. */
	if (tid == 0 && !admin)
		return svc_fail(e, PROTO_ERR_FORBIDDEN, "game %lld is not a tournament game",
				(long long)game);
	/* The event, read once for every check below (its state document is parsed each
	 * time: at 2,000 entries four reads made most of a result's 18 ms). */
	struct tour t;
	if (tid != 0 && tour_get(srv, tid, &t, e) < 0)
		return -1;
	const struct tour *ev = tid ? &t : NULL;
	int rc = 0;
	if (ev && (knockout_bracket_holds(srv, ev, game, result, e) < 0 ||
		   matches_result_fits(srv, ev, game, result, reason, e) < 0)) {
		rc = -1;
		goto done;
	}
	/* A game called off (its round taken back by tournament.unpair, a challenge declined or
	 * lapsed) was never played and is in no round: a result would put its players in two
	 * games of one round. */
	if (off) {
		rc = svc_fail(e, PROTO_ERR_CONFLICT, tid ? "game %lld was called off (its round "
			      "was taken back, td unpair) and is in no round: enter the result of "
			      "the game that replaced it (tengen pairings)" : "game %lld was called off "
			      "(a challenge declined or lapsed): it has no result", (long long)game);
		goto done;
	}
	bool unchanged = !reason && previous[0] && strcmp(previous, result) == 0 &&
			 strcmp(result, ruleset_default()->result_void) != 0;
	int set = unchanged ? 0 : games_set_result(srv, game, result, reason,
						   result_rating(ev, result, reason));
	if (set == -1) {
		rc = svc_fail(e, PROTO_ERR_NOT_FOUND, "no game %lld", (long long)game);
		goto done;
	}
	if (set < 0) {
		/* named in a margin's refusal: the komi of the count, as the games listing and
		 * the SGF's KM give it (with a handicap's compensation: docs/rules.md Art. 11) */
		double komi = NAN;
		int size = 0;
		struct store_game row = {0};
		if ((set == -4 || set == -5) && store_game_get(srv->store, game, &row) == STORE_OK) {
			komi = ruleset_find(tour_game_ruleset(&row))->effective_komi(row.komi,
										    row.handicap);
			size = row.size;
		}
		store_game_clear(&row);
		rc = result_refused(e, set, given, result, reason, komi, size);
		goto done;
	}
	if (tid == 0 && !unchanged)
		log_msg(LOGL_INFO, "result_admin", "by=%s game=%lld result=%s reason=%s casual=1",
			by, (long long)game, result, reason ? reason : "adjudicated");
	if (where) {
		/* a result changes a game's row, not the event's: its name and round as read */
		memset(where, 0, sizeof *where);
		if (ev) {
			where->tournament = tid;
			snprintf(where->name, sizeof where->name, "%s", ev->row.name);
			where->round = round;
			where->current = tour_round(ev);
		}
		where->unchanged = unchanged;
		snprintf(where->previous_reason, sizeof where->previous_reason, "%s", was_reason);
	}
done:
	if (ev)
		tour_clear(&t);
	return rc;
}

int tournaments_warn(struct server *srv, int64_t game, enum color color, const char *reason,
		     struct proto_error *e)
{
	if (games_warn(srv, game, color, reason) < 0)
		return svc_fail(e, PROTO_ERR_CONFLICT, "game %lld is not a live game", (long long)game);
	return 0;
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
	enum event_system sys;
	if (event_system_parse(row->system, &sys) == 0)
		t.system = sys;
	json_t *entry = json_pack("{s:I, s:s, s:s, s:i}", "id", (json_int_t)row->id, "name", row->name,
				  "system", row->system, "round", tour_round(&t));
	struct ev_build b;
	const char *names[STANDINGS_MAX_TIEBREAKS];
	int ntb = tour_tiebreak_names(&t, names);
	if (tour_ev_build(o->srv, &t, &b) == 0) {
		struct standing *rows = calloc(b.ev.nplayers ? (size_t)b.ev.nplayers : 1, sizeof *rows);
		/* best-of-N: a match a round (svc/matches.h) */
		int n = rows && matches_reduce(&t, &b) == 0 && standings_apply_withdrawals(&b.ev) >= 0 ?
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
