/* account_cmds: the session and player commands. See account_cmds.h. */
#include <string.h>
#include "account_cmds.h"
#include "accounts.h"
#include "log.h"
#include "profiles.h"
#include "rating.h"
#include "ratings.h"
#include "tournaments.h"

#define PLAYERS_LIMIT_MAX 1000
#define HELLO_CLIENT_MAX 200    /* bytes of the client's self-description in hello */
#define HELLO_PROTOCOL_MAX 1000 /* a protocol number a client may announce */

void account_cmds_hello(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t version;
	const char *client = NULL;
	if (proto_get_int(req->root, "protocol", true, 1, HELLO_PROTOCOL_MAX, &version, &err) < 0 ||
	    proto_get_string(req->root, "client", false, HELLO_CLIENT_MAX, &client, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (version != PROTO_VERSION) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST,
				   "field 'protocol': this server speaks protocol %d", PROTO_VERSION);
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "server", json_string("tengend " SERVER_VERSION));
	json_object_set_new(r, "protocol", json_integer(PROTO_VERSION));
	json_object_set_new(r, "capabilities", proto_command_names());
	server_reply(c, r);
}

void account_cmds_ping(struct conn *c, const struct proto_request *req)
{
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "time", json_real(server_now()));
	server_reply(c, r);
}

void account_cmds_logout(struct conn *c, const struct proto_request *req)
{
	log_msg(LOGL_INFO, "logout", "player=%s conn=%llu", c->name, (unsigned long long)c->serial);
	server_session_del(c->srv, c);
	c->name[0] = '\0';
	c->role = PROTO_ROLE_PLAYER;
	c->exclusive = false;
	server_reply(c, proto_reply_ok(req->id));
}

void account_cmds_players(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	int64_t limit = SERVER_GAMES_LIMIT;
	static const char *const sorts[] = {"rating", "name", "games", "last_played"};
	static const enum store_leaderboard_sort orders[] = {STORE_SORT_RATING, STORE_SORT_NAME,
		STORE_SORT_GAMES, STORE_SORT_LAST_PLAYED};
	int sort = 0;
	if (proto_get_int(req->root, "limit", false, 1, PLAYERS_LIMIT_MAX, &limit, &err) < 0 ||
	    proto_get_choice(req->root, "sort", false, sorts, sizeof sorts / sizeof *sorts, &sort,
			     &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	json_t *arr = ratings_leaderboard(c->srv, orders[sort], (int)limit);
	if (!arr) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "could not read the players");
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "players", arr);
	server_reply(c, r);
}

void account_cmds_player(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	const char *name;
	struct store_player p;
	if (proto_get_name(req->root, "name", true, &name, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (store_player_by_name(c->srv->store, name, &p) != STORE_OK) {
		server_reply_error(c, req->id, PROTO_ERR_NOT_FOUND, "no player named '%s'", name);
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_t *pj = accounts_player_json(&p);
	profile_to_json(c->srv, p.id, pj); /* full_name, country, club, egd_pin (issue 16) */
	json_object_set_new(r, "player", pj);
	if (ratings_profile(c->srv, &p, r) < 0) {
		json_decref(r);
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "could not read the profile");
		return;
	}
	/* In the place ratings_profile kept for it (an object keeps its keys' order). */
	json_object_set_new(r, "tournaments", tournaments_of_player(c->srv, p.id));
	server_reply(c, r);
}

/* The reply to a register or login once its password work is done (accounts_done_fn). */
static void password_done(struct conn *c, const json_t *id, const struct proto_error *e,
			  const struct store_player *p)
{
	if (e) {
		server_reply(c, proto_reply_error_from(id, e));
		return;
	}
	json_t *r = proto_reply_ok(id);
	json_object_set_new(r, "player", accounts_player_json(p));
	server_reply(c, r);
}

void account_cmds_register(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	const char *name, *password, *rank = NULL;
	if (proto_get_name(req->root, "name", true, &name, &err) < 0 ||
	    proto_get_password(req->root, "password", true, &password, &err) < 0 ||
	    proto_get_string(req->root, "rank", false, RANK_STR_MAX, &rank, &err) < 0 ||
	    accounts_register(c, req->id, name, password, rank, password_done, &err) < 0)
		server_reply(c, proto_reply_error_from(req->id, &err));
}

void account_cmds_login(struct conn *c, const struct proto_request *req)
{
	struct proto_error err;
	const char *name, *password;
	bool exclusive = false;
	/* Any password up to the longest is checked against the account: a short one is simply
	 * wrong ("wrong name or password"), not the rule for choosing one (which a login page
	 * showed, as if the user were registering). */
	if (proto_get_name(req->root, "name", true, &name, &err) < 0 ||
	    proto_get_string(req->root, "password", true, PROTO_PASSWORD_MAX, &password, &err) < 0 ||
	    proto_get_bool(req->root, "exclusive", false, &exclusive, &err) < 0 ||
	    accounts_login(c, req->id, name, password, exclusive, password_done, &err) < 0)
		server_reply(c, proto_reply_error_from(req->id, &err));
}
