/* director_cmds: see director_cmds.h. */
#include <limits.h>
#include <string.h>
#include <strings.h>
#include "pairing.h"
#include "accounts.h"
#include "director_cmds.h"
#include "profiles.h"
#include "rating.h"
#include "tour.h"
#include "tournaments.h"

#define ENTRANT_FIELD_MAX 128 /* bytes of an entrant's string field read (checked after) */

/* The profile fields of obj (each optional; the name under `name_key`) into *in, as strings:
 * their forms are checked by the service (profile_check). Returns 0, or -1 with *e. */
static int profile_fields(const json_t *obj, const char *name_key, struct profile_in *in,
			  struct proto_error *e)
{
	memset(in, 0, sizeof *in);
	if (proto_get_string(obj, name_key, false, ENTRANT_FIELD_MAX, &in->name, e) < 0 ||
	    proto_get_string(obj, "rank", false, ENTRANT_FIELD_MAX, &in->rank, e) < 0 ||
	    proto_get_string(obj, "country", false, ENTRANT_FIELD_MAX, &in->country, e) < 0 ||
	    proto_get_string(obj, "club", false, ENTRANT_FIELD_MAX, &in->club, e) < 0 ||
	    proto_get_string(obj, "egd_pin", false, ENTRANT_FIELD_MAX, &in->egd_pin, e) < 0)
		return -1;
	return 0;
}

void director_cmds_entrant(struct conn *c, const struct proto_request *req, int64_t tournament)
{
	struct proto_error err;
	struct profile_in in;
	struct tournament_entry out;
	json_t *obj = json_object_get(req->root, "entrant");
	if (!json_is_object(obj)) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'entrant': must be an "
				   "object {name, rank?, country?, club?, egd_pin?}");
		return;
	}
	if (profile_fields(obj, "name", &in, &err) < 0) {
		/* the getters name the inner field: say where it is */
		server_reply_error(c, req->id, err.code, "entrant: %s", err.message);
		return;
	}
	if (tournaments_register_entrant(c->srv, tournament, &in, &out, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", json_integer(tournament));
	json_object_set_new(r, "player", json_string(out.player));
	json_object_set_new(r, "players", json_integer(out.players));
	json_object_set_new(r, "entrant", json_true());
	if (out.entered_round)
		json_object_set_new(r, "entered_round", json_integer(out.entered_round));
	if (out.reinstated_after) /* a withdrawal undone */
		json_object_set_new(r, "reinstated_after", json_integer(out.reinstated_after));
	server_reply(c, r);
}

void tournament_cmds_absent(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	const char *name;
	int64_t id, round;
	if (proto_get_id(req->root, "tournament", true, &id, &err) < 0 ||
	    proto_get_string(req->root, "player", true, STORE_FULL_NAME_MAX, &name, &err) < 0 ||
	    /* the event's own count bounds it (tournaments_absent: "the event has rounds 1 to 2") */
	    proto_get_int(req->root, "round", true, 1, INT_MAX, &round, &err) < 0 ||
	    tournaments_absent(c->srv, id, name, (int)round, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", json_integer(id));
	json_object_set_new(r, "player", json_string(name));
	json_object_set_new(r, "round", json_integer(round));
	server_reply(c, r);
}

void tournament_cmds_pair_edit(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	struct pair_edit pe = {0};
	int op, done;
	int64_t id, round = 0, handicap = 0;
	if (proto_get_id(req->root, "tournament", true, &id, &err) < 0 ||
	    proto_get_int(req->root, "round", false, 1, EVENT_MAX_ROUNDS, &round, &err) < 0 ||
	    proto_get_choice(req->root, "op", true, pair_edit_op_names, PAIR_EDIT_OPS, &op, &err) < 0 ||
	    proto_get_string(req->root, op == PAIR_EDIT_BYE ? "player" : "player_a",
			     op == PAIR_EDIT_SWAP_PLAYERS || op == PAIR_EDIT_BYE, STORE_FULL_NAME_MAX,
			     &pe.player_a, &err) < 0 ||
	    proto_get_string(req->root, "player_b", op == PAIR_EDIT_SWAP_PLAYERS,
			     STORE_FULL_NAME_MAX, &pe.player_b, &err) < 0 ||
	    ((op == PAIR_EDIT_SWAP_COLORS || op == PAIR_EDIT_HANDICAP) &&
	     proto_get_id(req->root, "game", true, &pe.game, &err) < 0) ||
	    proto_get_int(req->root, "handicap", op == PAIR_EDIT_HANDICAP, 0, PAIRING_HANDICAP_CAP,
			  &handicap, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	pe.op = (enum pair_edit_op)op;
	pe.handicap = (int)handicap;
	if (tournaments_pair_edit(c->srv, id, (int)round, &pe, c->name, &done, &err) < 0) {
		json_decref(pe.warnings);
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", json_integer(id));
	json_object_set_new(r, "round", json_integer(done));
	json_object_set_new(r, "op", json_string(pair_edit_op_names[op]));
	json_object_set_new(r, "warnings", pe.warnings ? pe.warnings : json_array());
	server_reply(c, r);
}

void tournament_cmds_unpair(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t id;
	int round;
	json_t *games;
	if (proto_get_id(req->root, "tournament", true, &id, &err) < 0 ||
	    tournaments_unpair(c->srv, id, c->name, &round, &games, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "tournament", json_integer(id));
	json_object_set_new(r, "round", json_integer(round));
	json_object_set_new(r, "games", games);
	server_reply(c, r);
}

void account_cmds_player_update(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	struct profile_in in;
	const char *name = c->name;
	struct store_player p;
	if (proto_get_name(req->root, "player", false, &name, &err) < 0 ||
	    profile_fields(req->root, "full_name", &in, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (strcasecmp(name, c->name) != 0 && c->role < PROTO_ROLE_TD) {
		server_reply_error(c, req->id, PROTO_ERR_FORBIDDEN, "only a director or an admin may "
				   "change another player's profile");
		return;
	}
	if (store_player_by_name(c->srv->store, name, &p) != STORE_OK) {
		server_reply_error(c, req->id, PROTO_ERR_NOT_FOUND, "no player named '%s'", name);
		return;
	}
	if (profile_update(c->srv, p.id, &in, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_t *pj = json_pack("{s:s}", "name", p.name);
	profile_to_json(c->srv, p.id, pj);
	if (store_player_by_id(c->srv->store, p.id, &p) == STORE_OK && p.rank[0])
		json_object_set_new(pj, "declared_rank", json_string(p.rank));
	json_object_set_new(r, "player", pj);
	server_reply(c, r);
}
