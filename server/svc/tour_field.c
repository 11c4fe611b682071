/* tour_field: a tournament's field: accounts and entrants without an account registered, late
 * entries, absences for one round (issue 16; Chinese Rules 2002, Art. 26-28). See
 * tournaments.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "panic.h"
#include "profiles.h"
#include "rating.h"
#include "ratings.h"
#include "svc_error.h"
#include "teams.h"
#include "tour.h"
#include "tournaments.h"

#define ENTRANT_HANDLE_PREFIX 16 /* bytes of the name kept in an entrant's players.name */

/* May t take a new entry now? Before round 1 always; later only a Swiss or McMahon event (a
 * round robin's or a knockout's tables are drawn from the whole field). */
static int entry_open(const struct tour *t, struct proto_error *e)
{
	if (teams_is_team(t)) /* docs/teams.md: players enter with their team */
		return svc_fail(e, PROTO_ERR_CONFLICT, "tournament %lld is a team event: players "
				"enter with team.create", (long long)t->row.id);
	if (tour_round(t) > 0 && t->system != SYSTEM_SWISS && t->system != SYSTEM_MCMAHON)
		return svc_fail(e, PROTO_ERR_CONFLICT, "registration closed: round 1 has started "
				"(late entry is for Swiss and McMahon events)");
	return 0;
}

/* Append player p to t's field as `display`, with profile `prof` (may be NULL), save, fill
 * *out. */
static int append_entry(struct server *srv, struct tour *t, const struct store_player *p,
			const char *display, const struct store_profile *prof,
			struct tournament_entry *out, struct proto_error *e)
{
	json_t *players = json_object_get(t->state, "players");
	if (json_array_size(players) >= EVENT_MAX_PLAYERS)
		return svc_fail(e, PROTO_ERR_CONFLICT, "the field is full (%d players)", EVENT_MAX_PLAYERS);
	int rank, round = tour_round(t);
	if (!p->rank[0] || rank_parse(p->rank, &rank) < 0)
		rank = rating_rank_value(p->rating);
	json_t *v = json_pack("{s:I, s:s, s:i, s:f, s:i, s:b}", "id", (json_int_t)p->id, "name",
			      display, "rank", rank, "rating", p->rating, "withdrawn_after", 0,
			      "withdrawn_before_start", 0);
	if (round > 0) /* a late entry: rounds 1..round are absent */
		json_object_set_new(v, "entered_round", json_integer(round));
	if (prof)
		profile_entry_set(v, prof);
	json_array_append_new(players, v);
	tour_save(srv, t);
	log_msg(LOGL_INFO, "tournament_register", "tournament=%lld player=\"%s\" id=%lld entrant=%d "
		"late_after=%d", (long long)t->row.id, display, (long long)p->id,
		prof && prof->entrant, round);
	snprintf(out->player, sizeof out->player, "%s", display);
	out->players = (int)json_array_size(players);
	out->entered_round = round;
	return 0;
}

/* Entry v withdrawn during the event (withdrawn_after > 0), registered again: back in the
 * field from the next round paired. In a Swiss or McMahon the rounds paired since the
 * withdrawal, which they were not in, count as absent (as a late entry's); in a round robin
 * the player keeps their place in the schedule, and the games of the rounds paired since,
 * created as forfeits, stand as such until the director enters results (the standings' voiding
 * of a player who played fewer than half their games goes with the withdrawal: Art. 28). A
 * knockout's withdrawal stands: the bracket went on without them. */
static int reinstate(struct server *srv, struct tour *t, json_t *v, struct tournament_entry *out,
		     struct proto_error *e)
{
	int after = (int)json_integer_value(json_object_get(v, "withdrawn_after"));
	int cur = tour_round(t);
	bool rr = t->system == SYSTEM_ROUND_ROBIN || t->system == SYSTEM_DOUBLE_ROUND_ROBIN;
	if (!rr && t->system != SYSTEM_SWISS && t->system != SYSTEM_MCMAHON)
		return svc_fail(e, PROTO_ERR_CONFLICT, "%s withdrew after round %d: a knockout's "
				"withdrawal is not undone (the bracket went on without them)",
				json_string_value(json_object_get(v, "name")), after);
	json_t *absent = json_object_get(v, "absent");
	if (!absent && !rr)
		json_object_set_new(v, "absent", absent = json_array());
	for (int r = after + 1; !rr && r <= cur; r++) {
		bool has = false;
		size_t i;
		json_t *x;
		json_array_foreach(absent, i, x)
			has |= json_integer_value(x) == r;
		if (!has)
			json_array_append_new(absent, json_integer(r));
	}
	json_object_set_new(v, "withdrawn_after", json_integer(0));
	tour_save(srv, t);
	log_msg(LOGL_INFO, "tournament_reinstate", "tournament=%lld player=\"%s\" withdrawn_after=%d "
		"round=%d", (long long)t->row.id, json_string_value(json_object_get(v, "name")), after,
		cur);
	snprintf(out->player, sizeof out->player, "%s", json_string_value(json_object_get(v, "name")));
	out->players = (int)json_array_size(json_object_get(t->state, "players"));
	out->entered_round = 0;
	out->reinstated_after = after;
	return 0;
}

int tournaments_register(struct server *srv, int64_t tournament, const char *name,
			 struct tournament_entry *out, struct proto_error *e)
{
	struct tour t;
	struct store_player p;
	struct store_profile prof;
	memset(out, 0, sizeof *out);
	if (tour_get(srv, tournament, &t, e) < 0)
		return -1;
	int rc = -1;
	if (teams_is_team(&t)) {
		entry_open(&t, e);
		goto out;
	}
	if (store_player_by_name(srv->store, name, &p) != STORE_OK) {
		svc_fail(e, PROTO_ERR_NOT_FOUND, "no player named '%s' (a person without an account "
			 "is registered as an entrant)", name);
		goto out;
	}
	json_t *v = tour_entry_named(&t, p.name);
	if (v && json_integer_value(json_object_get(v, "id")) == p.id &&
	    json_is_true(json_object_get(v, "withdrawn_before_start")) && tour_round(&t) == 0) {
		json_object_set_new(v, "withdrawn_before_start", json_false());
		tour_save(srv, &t);
		snprintf(out->player, sizeof out->player, "%s", p.name);
		out->players = (int)json_array_size(json_object_get(t.state, "players"));
		out->entered_round = 0;
		rc = 0;
		goto out;
	}
	if (v && json_integer_value(json_object_get(v, "withdrawn_after")) > 0) {
		rc = reinstate(srv, &t, v, out, e);
		goto out;
	}
	if (v) {
		svc_fail(e, PROTO_ERR_CONFLICT, "%s is registered already", p.name);
		goto out;
	}
	if (entry_open(&t, e) < 0)
		goto out;
	enum store_rc prc = store_profile_get(srv->store, p.id, &prof);
	rc = append_entry(srv, &t, &p, p.name, prc == STORE_OK ? &prof : NULL, out, e);
out:
	tour_clear(&t);
	return rc;
}

/* A players.name for an entrant: the name's letters and digits (spaces as '_'), at most
 * ENTRANT_HANDLE_PREFIX bytes, then "~<tournament>.<index>": unique, and outside the
 * protocol's name characters, so nobody can register or log in as it. */
static void entrant_handle(char out[STORE_NAME_MAX + 1], const char *name, int64_t tid, size_t index)
{
	char pre[ENTRANT_HANDLE_PREFIX + 1];
	size_t n = 0;
	for (const char *s = name; *s && n < ENTRANT_HANDLE_PREFIX; s++) {
		char ch = *s;
		if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'))
			pre[n++] = ch;
		else if (ch == ' ')
			pre[n++] = '_';
	}
	pre[n] = '\0';
	snprintf(out, STORE_NAME_MAX + 1, "%s~%lld.%zu", pre, (long long)tid, index);
}

/* The pwhash of an entrant's row: no libsodium hash string, so no password verifies. */
#define ENTRANT_PWHASH "!entrant"

int tournaments_register_entrant(struct server *srv, int64_t tournament,
				 const struct profile_in *in, struct tournament_entry *out,
				 struct proto_error *e)
{
	struct tour t;
	struct store_profile prof = {.entrant = true};
	char rank[STORE_RANK_SIZE] = "", handle[STORE_NAME_MAX + 1];
	memset(out, 0, sizeof *out);
	if (!in->name)
		return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field 'entrant.name': required");
	if (profile_check(in, "entrant", &prof, rank, e) < 0 || tour_get(srv, tournament, &t, e) < 0)
		return -1;
	int rc = -1;
	if (!tour_board(&t)) {
		svc_fail(e, PROTO_ERR_CONFLICT, "an entrant without an account cannot play online: "
			 "entrants are for venue \"board\" events");
		goto out;
	}
	json_t *had = tour_entry_named(&t, prof.full_name);
	if (had && json_integer_value(json_object_get(had, "withdrawn_after")) > 0) {
		rc = reinstate(srv, &t, had, out, e);
		goto out;
	}
	if (had) {
		svc_fail(e, PROTO_ERR_CONFLICT, "%s is registered already", prof.full_name);
		goto out;
	}
	if (entry_open(&t, e) < 0)
		goto out;
	if (json_array_size(json_object_get(t.state, "players")) >= EVENT_MAX_PLAYERS) {
		svc_fail(e, PROTO_ERR_CONFLICT, "the field is full (%d players)", EVENT_MAX_PLAYERS);
		goto out;
	}
	entrant_handle(handle, prof.full_name, t.row.id,
		       json_array_size(json_object_get(t.state, "players")));
	int64_t id;
	struct store_player p;
	server_txn(srv);
	enum store_rc src = store_player_create(srv->store, handle, ENTRANT_PWHASH, "player", &id);
	if (src == STORE_CONFLICT) { /* the handle is unique per tournament and place: not expected */
		svc_fail(e, PROTO_ERR_CONFLICT, "an entrant's record '%s' exists", handle);
		goto out;
	}
	if (src != STORE_OK || store_profile_set(srv->store, id, &prof) != STORE_OK)
		CORE_PANIC(srv->store, "what=entrant tournament=%lld", (long long)t.row.id);
	if (rank[0] && ratings_declare_rank(srv, id, rank) < 0)
		CORE_PANIC(srv->store, "what=entrant_rank tournament=%lld", (long long)t.row.id);
	if (store_player_by_id(srv->store, id, &p) != STORE_OK)
		CORE_PANIC(srv->store, "what=entrant_read tournament=%lld", (long long)t.row.id);
	rc = append_entry(srv, &t, &p, prof.full_name, &prof, out, e);
out:
	tour_clear(&t);
	return rc;
}

int tournaments_absent(struct server *srv, int64_t tournament, const char *name, int round,
		       struct proto_error *e)
{
	struct tour t;
	if (tour_get(srv, tournament, &t, e) < 0)
		return -1;
	int rc = -1, planned = tour_setting_int(&t, "rounds", TOURNAMENT_ROUNDS_DEFAULT);
	json_t *v = tour_entry_named(&t, name), *absent;
	if (t.system != SYSTEM_SWISS && t.system != SYSTEM_MCMAHON) {
		svc_fail(e, PROTO_ERR_CONFLICT, "absence for a round is for Swiss and McMahon events "
			 "(a %s pairs everyone: withdraw the player, or enter the game's result)",
			 t.row.system);
	} else if (!v) {
		svc_fail(e, PROTO_ERR_NOT_FOUND, "%s is not in the field", name);
	} else if (tour_entry_withdrawn(v, name, e) < 0) {
		/* *e says when they withdrew */
	} else if (round < 1 || round > planned) {
		svc_fail(e, PROTO_ERR_BAD_REQUEST, "field 'round': the event has rounds 1 to %d", planned);
	} else if (round <= tour_round(&t)) {
		svc_fail(e, PROTO_ERR_CONFLICT, "round %d is paired already (enter its game's result "
			 "instead)", round);
	} else {
		if (!(absent = json_object_get(v, "absent")))
			json_object_set_new(v, "absent", absent = json_array());
		size_t i;
		json_t *r;
		json_array_foreach(absent, i, r)
			if (json_integer_value(r) == round) {
				svc_fail(e, PROTO_ERR_CONFLICT, "%s is absent in round %d already",
					 json_string_value(json_object_get(v, "name")), round);
				goto out;
			}
		json_array_append_new(absent, json_integer(round));
		tour_save(srv, &t);
		log_msg(LOGL_INFO, "tournament_absent", "tournament=%lld player=\"%s\" round=%d",
			(long long)t.row.id, json_string_value(json_object_get(v, "name")), round);
		rc = 0;
	}
out:
	tour_clear(&t);
	return rc;
}
