/* team_cmds: the team-event commands. See team_cmds.h. */
#include "game.h"
#include "team.h"
#include "team_cmds.h"
#include "teams.h"

#define TEAM_NAME_MAX 64 /* bytes of a team's name */

void team_cmds_create(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t id;
	const char *name;
	const json_t *players = NULL, *reserves = NULL;
	int team;
	if (proto_get_id(req->root, "tournament", true, &id, &err) < 0 ||
	    proto_get_text(req->root, "name", true, TEAM_NAME_MAX, &name, &err) < 0 ||
	    proto_get_array(req->root, "players", true, TEAM_MAX_BOARDS, &players, &err) < 0 ||
	    proto_get_array(req->root, "reserves", false, TEAM_MAX_RESERVES, &reserves, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (!name[0]) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'name': must not be empty");
		return;
	}
	if (teams_create(c->srv, id, name, players, reserves, &team, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", json_integer(id));
	json_object_set_new(r, "team", json_integer(team));
	json_object_set_new(r, "name", json_string(name));
	server_reply(c, r);
}

void team_cmds_lineup(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t id, round;
	const char *name;
	const json_t *players = NULL;
	/* the team by name, or by the number team.create gave it */
	const json_t *team = json_object_get(req->root, "team");
	if (proto_get_id(req->root, "tournament", true, &id, &err) < 0 ||
	    (!json_is_integer(team) &&
	     proto_get_string(req->root, "team", true, TEAM_NAME_MAX, &name, &err) < 0) ||
	    proto_get_int(req->root, "round", true, 1, EVENT_MAX_ROUNDS, &round, &err) < 0 ||
	    proto_get_array(req->root, "players", true, TEAM_MAX_BOARDS, &players, &err) < 0 ||
	    teams_lineup(c->srv, id, c->name, c->role >= PROTO_ROLE_TD, team, (int)round, players,
			 &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", json_integer(id));
	json_object_set_new(r, "round", json_integer(round));
	server_reply(c, r);
}

void team_views_pairings(struct conn *c, const struct proto_request *req, struct tour *t,
			 struct ev_build *b, int round)
{
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", json_integer(t->row.id));
	json_object_set_new(r, "round", json_integer(round));
	json_t *matches = teams_pairings(t, b, round), *m, *gj;
	size_t i, j;
	json_array_foreach(matches, i, m) /* a board's game without a result: its phase */
		json_array_foreach(json_object_get(m, "games"), j, gj)
			if (json_integer_value(json_object_get(gj, "game")) > 0 &&
			    !json_object_get(gj, "result"))
				game_pairing_phase(c->srv, json_integer_value(json_object_get(gj, "game")), gj);
	json_object_set_new(r, "pairings", matches);
	json_object_set_new(r, "byes", teams_byes(t, round));
	server_reply(c, r);
	tour_ev_free(b);
	tour_clear(t);
}

void team_views_standings(struct conn *c, const struct proto_request *req, struct tour *t,
			  struct ev_build *b, int round)
{
	struct proto_error err;
	json_t *rows = teams_standings(t, b, round, &err);
	if (!rows) {
		server_reply(c, proto_reply_error_from(req->id, &err));
	} else {
		json_t *r = proto_reply_ok(req->id);
		json_object_set_new(r, "tournament", json_integer(t->row.id));
		json_object_set_new(r, "round", json_integer(round ? round : tour_round(t)));
		json_object_set_new(r, "score", json_string("MP"));
		json_object_set_new(r, "standings", rows);
		server_reply(c, r);
	}
	tour_ev_free(b);
	tour_clear(t);
}
