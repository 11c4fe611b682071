/* dispatch: request lines to handlers. See dispatch.h. */
#include <stdlib.h>
#include <string.h>
#include "account_cmds.h"
#include "cmd_games.h"
#include "director_cmds.h"
#include "dispatch.h"
#include "jsonout.h"
#include "team_cmds.h"
#include "tournament_cmds.h"
#include "tournament_views.h"

/* ---- cached replies: reading the same listing again costs a copy ---- */

/* The key of a cacheable request, or NULL: the request without its id (every other field is
 * in the key, so each page of a listing, its `before` cursor, and each round has its own
 * entry). Cached are replies that are the same for every client allowed to ask and that
 * change only through a change to the store:
 * - the `games` listing (no live clocks in it), valid until the next change of any kind
 *   (srv->data_gen, which every move bumps);
 * - a tournament's standings and pairings (computed from all its games and entries: 14-28
 *   ms for a 2,000-entrant Swiss, docs/benchmarks.md), valid while no row but a move's is
 *   written (store_changes): the moves of its games in play leave them cached. A game's phase or
 *   pause, which the pairings show from memory, is written to its row when it changes. */
static char *cache_key(const struct proto_request *req)
{
	enum proto_cmd id = req->cmd->id;
	if (id != PROTO_CMD_GAMES && id != PROTO_CMD_TOURNAMENT_STANDINGS &&
	    id != PROTO_CMD_TOURNAMENT_PAIRINGS)
		return NULL;
	json_t *k = json_copy(req->root);
	if (!k)
		return NULL;
	json_object_del(k, "id");
	char *key = json_dumps(k, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(k);
	return key;
}

/* The generation a cached reply of command `cmd` is valid for (cache_key). */
static uint64_t cache_gen(const struct server *srv, enum proto_cmd cmd)
{
	return cmd == PROTO_CMD_GAMES ? srv->data_gen : store_changes(srv->store);
}

/* Reply to c from the cache if an entry for `key` is current. */
static bool reply_cached(struct dispatch *d, struct conn *c, const struct proto_request *req, const char *key)
{
	struct server *srv = c->srv;
	for (int i = 0; i < DISPATCH_CACHE_ENTRIES; i++) {
		struct reply_cache *e = &d->cache[i];
		if (!e->key || e->gen != cache_gen(srv, e->cmd) || strcmp(e->key, key) != 0)
			continue;
		size_t idlen;
		char *id = jsonout_dumps(req->id ? req->id : json_null(), 0, &idlen);
		char *line = id ? malloc(6 + idlen + e->len) : NULL;
		if (!line) {
			free(id);
			return false;
		}
		memcpy(line, "{\"id\":", 6);
		memcpy(line + 6, id, idlen);
		memcpy(line + 6 + idlen, e->suffix, e->len);
		server_send_raw(c, line, 6 + idlen + e->len);
		free(line);
		free(id);
		e->used = ++d->cache_clock;
		return true;
	}
	return false;
}

/* Keep the reply of command `cmd` just queued on c (bytes from `from` of its `later` queue if
 * `later`, else of `out`) for `key`, valid for generation `gen`: a success, one line. Returns
 * true if it took `key`. */
static bool cache_put(struct dispatch *d, struct conn *c, char *key, enum proto_cmd cmd,
		      uint64_t gen, bool later, size_t from)
{
	const char *buf = later ? c->later : c->out;
	size_t upto = later ? c->laterlen : c->outlen;
	if (c->closing || upto <= from)
		return false;
	const char *line = buf + from, *end = buf + upto;
	size_t len = upto - from;
	/* {"id":ID,"ok":true,... : ID is a scalar, so the first ,"ok":true, is after it */
	static const char okm[] = ",\"ok\":true,";
	const char *ok = NULL;
	if (len > 6 && memcmp(line, "{\"id\":", 6) == 0)
		for (const char *p = line + 6; !ok && p + sizeof okm - 1 <= end; p++)
			if (*p == ',' && memcmp(p, okm, sizeof okm - 1) == 0)
				ok = p;
	if (!ok || memchr(line, '\n', len) != end - 1)
		return false;
	struct reply_cache *e = &d->cache[0];
	for (int i = 0; i < DISPATCH_CACHE_ENTRIES; i++) {
		struct reply_cache *x = &d->cache[i];
		if (!x->key || x->gen != cache_gen(c->srv, x->cmd)) {
			e = x;
			break;
		}
		if (x->used < e->used)
			e = x;
	}
	char *suffix = malloc((size_t)(end - ok));
	if (!suffix)
		return false;
	memcpy(suffix, ok, (size_t)(end - ok));
	free(e->key);
	free(e->suffix);
	e->key = key; /* taken */
	e->suffix = suffix;
	e->len = (size_t)(end - ok);
	e->cmd = cmd;
	e->gen = gen;
	e->used = ++d->cache_clock;
	return true;
}

void dispatch_free(struct dispatch *d)
{
	for (int i = 0; i < DISPATCH_CACHE_ENTRIES; i++) {
		free(d->cache[i].key);
		free(d->cache[i].suffix);
		d->cache[i] = (struct reply_cache){0};
	}
}

typedef void (*handler_fn)(struct conn *c, const struct proto_request *req);

static const handler_fn handlers[PROTO_CMD_COUNT] = {
	[PROTO_CMD_HELLO] = account_cmds_hello,
	[PROTO_CMD_PING] = account_cmds_ping,
	[PROTO_CMD_REGISTER] = account_cmds_register,
	[PROTO_CMD_LOGIN] = account_cmds_login,
	[PROTO_CMD_LOGOUT] = account_cmds_logout,
	[PROTO_CMD_PLAYERS] = account_cmds_players,
	[PROTO_CMD_PLAYER] = account_cmds_player,
	[PROTO_CMD_CHALLENGE] = games_challenge,
	[PROTO_CMD_ACCEPT] = games_accept,
	[PROTO_CMD_DECLINE] = games_decline,
	[PROTO_CMD_CHALLENGES] = games_challenges,
	[PROTO_CMD_PREDICT] = games_predict,
	[PROTO_CMD_PLAY] = games_play,
	[PROTO_CMD_JOIN] = games_join,
	[PROTO_CMD_GAME_PAUSE] = games_pause,
	[PROTO_CMD_GAME_RESUME] = games_resume,
	[PROTO_CMD_RESIGN] = games_resign,
	[PROTO_CMD_DEAD] = games_dead,
	[PROTO_CMD_GAME] = games_game,
	[PROTO_CMD_GAMES] = games_games,
	[PROTO_CMD_SGF] = games_sgf,
	[PROTO_CMD_OBSERVE] = games_observe,
	[PROTO_CMD_UNOBSERVE] = games_unobserve,
	[PROTO_CMD_TOURNAMENT_CREATE] = tournament_cmds_create,
	[PROTO_CMD_TOURNAMENT_REGISTER] = tournament_cmds_register,
	[PROTO_CMD_TOURNAMENT_JOIN] = tournament_cmds_join,
	[PROTO_CMD_TOURNAMENT_WITHDRAW] = tournament_cmds_withdraw,
	[PROTO_CMD_TOURNAMENT_START_ROUND] = tournament_cmds_start_round,
	[PROTO_CMD_TOURNAMENT_RESULT] = tournament_cmds_result,
	[PROTO_CMD_TOURNAMENT_WARN] = tournament_cmds_warn,
	[PROTO_CMD_TOURNAMENT_PAIRINGS] = tournaments_pairings,
	[PROTO_CMD_TOURNAMENT_STANDINGS] = tournaments_standings,
	[PROTO_CMD_TOURNAMENT_LIST] = tournaments_list,
	[PROTO_CMD_TOURNAMENT_GET] = tournaments_get,
	[PROTO_CMD_TOURNAMENT_EXPORT] = tournaments_export,
	[PROTO_CMD_TOURNAMENT_ABSENT] = tournament_cmds_absent,
	[PROTO_CMD_TOURNAMENT_PAIR_EDIT] = tournament_cmds_pair_edit,
	[PROTO_CMD_TOURNAMENT_UNPAIR] = tournament_cmds_unpair,
	[PROTO_CMD_TOURNAMENT_UPDATE] = tournament_cmds_update,
	[PROTO_CMD_TOURNAMENT_DELETE] = tournament_cmds_delete,
	[PROTO_CMD_PLAYER_UPDATE] = account_cmds_player_update,
	[PROTO_CMD_TEAM_CREATE] = team_cmds_create,
	[PROTO_CMD_TEAM_LINEUP] = team_cmds_lineup,
	[PROTO_CMD_HANDICAP] = games_handicap,
};

/* The commands a game waits on (a move, a resignation, a count, being present; a ping):
 * their connections stay light whatever the request cost (core/conn.c serves light
 * connections first from the backlog). Measured by its time alone, a move under load cost
 * more than SERVER_LIGHT_UNITS and its player's next move queued behind a flood's requests. */
static bool urgent(enum proto_cmd id)
{
	return id == PROTO_CMD_PLAY || id == PROTO_CMD_RESIGN || id == PROTO_CMD_DEAD ||
	       id == PROTO_CMD_JOIN || id == PROTO_CMD_HANDICAP || id == PROTO_CMD_PREDICT ||
	       id == PROTO_CMD_PING;
}

void dispatch_line(void *ctx, struct conn *c, const char *line, size_t len)
{
	struct dispatch *d = ctx;
	struct proto_request req;
	struct proto_error err = {0};
	if (proto_parse(line, len, &req, &err) < 0) {
		server_reply(c, proto_reply_error_from(req.id, &err));
		proto_request_free(&req);
		return;
	}
	c->urgent = urgent(req.cmd->id);
	if (proto_command_allowed(req.cmd, c->player_id != 0, c->role, &err) < 0) {
		server_reply(c, proto_reply_error_from(req.id, &err));
	} else if (!handlers[req.cmd->id]) {
		server_reply_error(c, req.id, PROTO_ERR_UNKNOWN_COMMAND,
				   "command '%s' is not available on this server yet", req.cmd->name);
	} else {
		char *key = cache_key(&req);
		/* Where the reply goes: `later` while a sync is under way (server_send_raw). */
		bool later = conn_held(c);
		size_t from = later ? c->laterlen : c->outlen;
		if (!key || !reply_cached(d, c, &req, key)) {
			enum proto_cmd cmd = req.cmd->id;
			uint64_t gen = cache_gen(c->srv, cmd);
			handlers[cmd](c, &req);
			/* not if the handler changed something (the reply may be of before) */
			if (key && gen == cache_gen(c->srv, cmd) &&
			    cache_put(d, c, key, cmd, gen, later, from))
				key = NULL;
		}
		free(key);
	}
	proto_request_free(&req);
}
