/* arenas: the arena match on the server. See arenas.h. */
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "games.h"
#include "log.h"
#include "svc_error.h"
#include "team.h"
#include "arenas.h"

bool arenas_is_arena(const struct tour *t)
{
	enum team_system ts;
	enum event_system base;
	return team_system_parse(t->row.system, &ts, &base) == 0 && ts == TEAM_SYSTEM_ARENA;
}

static json_t *team_at(const struct tour *t, int k)
{
	return json_array_get(json_object_get(t->state, "teams"), (size_t)k);
}

/* Player index (into state.players) of place `place` of team k. */
static int player_at(const struct tour *t, int k, int place)
{
	return (int)json_integer_value(json_array_get(json_object_get(team_at(t, k), "players"),
						      (size_t)place));
}

static int game_index(const struct ev_build *b, int64_t gid)
{
	for (int k = 0; k < b->ev.ngames; k++)
		if (b->game_ids[k] == gid)
			return k;
	return -1;
}

/* The arena's state from its games so far (state.matches in order). Returns 0, or -1 with
 * *e: a game without a result (conflict), or a stored state that does not replay (internal). */
static int arena_replay(const struct tour *t, const struct ev_build *b, struct arena *a,
			struct proto_error *e)
{
	int size = tour_setting_int(t, "boards", 0);
	if (arena_init(a, size, size, ARENA_DRAW_BOTH_OUT, true) != ARENA_OK)
		return svc_fail(e, PROTO_ERR_INTERNAL, "could not read the arena");
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(t->state, "matches"), i, m) {
		int64_t gid = json_integer_value(json_array_get(json_object_get(m, "games"), 0));
		int ff = (int)json_integer_value(json_array_get(json_object_get(m, "forfeits"), 0));
		bool t0b = (a->games % 2 == 0) == a->t0_black_first;
		enum event_result r;
		if (gid) {
			int k = game_index(b, gid);
			if (k < 0)
				return svc_fail(e, PROTO_ERR_INTERNAL, "could not read the arena's games");
			r = b->ev.games[k].result;
		} else { /* a forfeit without a game: 1 team 0 lost, 2 team 1, 3 both */
			bool black_lost = ff == 3 ? true : (ff == 1) == t0b;
			r = ff == 3 ? RESULT_DOUBLE_LOSS :
			    black_lost ? RESULT_WHITE_FORFEIT_WIN : RESULT_BLACK_FORFEIT_WIN;
		}
		int rc = arena_record(a, r);
		if (rc == ARENA_EPENDING)
			return svc_fail(e, PROTO_ERR_CONFLICT, "game %lld of the arena has no result",
					(long long)gid);
		if (rc != ARENA_OK)
			return svc_fail(e, PROTO_ERR_INTERNAL, "could not replay the arena: %s",
					arena_strerror(rc));
	}
	return 0;
}

static bool out_in(const struct ev_build *b, int p, int round)
{
	const struct event_player *q = &b->ev.players[p];
	return q->withdrawn_before_start || (q->withdrawn_after && q->withdrawn_after < round);
}

bool arenas_decided(const struct tour *t, const struct ev_build *b)
{
	struct arena a;
	struct proto_error ignored;
	return json_array_size(json_object_get(t->state, "teams")) == 2 &&
	       arena_replay(t, b, &a, &ignored) == 0 && a.winner >= 0;
}

int arenas_start_game(struct server *srv, struct tour *t, struct ev_build *b, double start_at,
		      struct tournament_round *out, struct proto_error *e)
{
	struct arena a;
	struct game_settings gs;
	const char *why;
	if (json_array_size(json_object_get(t->state, "teams")) != 2)
		return svc_fail(e, PROTO_ERR_CONFLICT, "an arena match needs exactly 2 teams");
	if (arena_replay(t, b, &a, e) < 0)
		return -1;
	if (a.winner >= 0)
		return svc_fail(e, PROTO_ERR_CONFLICT, "the arena match is decided (%s)",
				a.winner == 2 ? "drawn" : json_string_value(json_object_get(team_at(t,
					a.winner), "name")));
	if (tour_game_settings(t, &gs) < 0 || games_schedule_check(&gs, 0, &why) < 0)
		return svc_fail(e, PROTO_ERR_CONFLICT, "cannot start the next arena game");
	if (!start_at)
		start_at = server_now();
	int round = tour_round(t) + 1, p0, p1;
	bool t0b;
	arena_next(&a, &p0, &p1, &t0b);
	int i0 = player_at(t, 0, p0), i1 = player_at(t, 1, p1);
	int forfeit = (out_in(b, i0, round) ? 1 : 0) | (out_in(b, i1, round) ? 2 : 0);
	int black = t0b ? i0 : i1, white = t0b ? i1 : i0;
	int64_t gid = 0;
	if (!forfeit) {
		gid = games_create_scheduled(srv, b->ev.players[black].id, b->ev.players[white].id, &gs,
					     0, t->row.id, round, tour_board(t) ? 0 : start_at);
		if (gid < 0)
			return svc_fail(e, PROTO_ERR_INTERNAL, "the arena game could not be created");
	}
	json_t *matches = json_object_get(t->state, "matches");
	if (!json_is_array(matches)) {
		matches = json_array();
		json_object_set_new(t->state, "matches", matches);
	}
	json_array_append_new(matches, json_pack("{s:i, s:i, s:i, s:[I], s:[i]}", "round", round,
						 "home", 0, "away", 1, "games", (json_int_t)gid,
						 "forfeits", forfeit));
	json_object_set_new(t->state, "round", json_integer(round));
	tour_save(srv, t);
	json_t *gj = json_pack("{s:i, s:o, s:s, s:s}", "board", 1, "game",
			       gid ? json_integer(gid) : json_null(), "black", b->ev.players[black].name,
			       "white", b->ev.players[white].name);
	if (forfeit)
		json_object_set_new(gj, "forfeit", json_string(forfeit == 3 ? "both" :
							      forfeit == 1 ? "home" : "away"));
	json_t *pairs = json_pack("[{s:i, s:O, s:O, s:[o], s:i, s:i}]", "match", round, "home",
				  json_object_get(team_at(t, 0), "name"), "away",
				  json_object_get(team_at(t, 1), "name"), "games", gj, "home_player",
				  p0 + 1, "away_player", p1 + 1);
	log_msg(LOGL_INFO, "arena_game", "tournament=%lld round=%d game=%lld home_player=%d "
		"away_player=%d", (long long)t->row.id, round, (long long)gid, p0 + 1, p1 + 1);
	*out = (struct tournament_round){.round = round, .start_at = start_at, .pairings = pairs,
					 .byes = json_array()};
	return 0;
}

json_t *arenas_standings(const struct tour *t, const struct ev_build *b, struct proto_error *e)
{
	struct arena a;
	if (json_array_size(json_object_get(t->state, "teams")) != 2)
		return json_array();
	if (arena_replay(t, b, &a, e) < 0)
		return NULL;
	json_t *rows = json_array();
	int first = a.winner == 1 ? 1 : 0;
	for (int q = 0; q < 2; q++) {
		int k = q == 0 ? first : 1 - first, bp = 0;
		json_t *boards = json_array();
		for (int p = 0; p < a.size[k]; p++) {
			json_array_append_new(boards, json_integer(2 * a.wins[k][p]));
			bp += 2 * a.wins[k][p];
		}
		int mp = a.winner == k ? 2 : a.winner == 2 ? 1 : 0;
		int rank = a.winner == 0 || a.winner == 1 ? q + 1 : 1;
		json_array_append_new(rows, json_pack("{s:i, s:O, s:i, s:i, s:o, s:i, s:i, s:i, s:i, "
			"s:i, s:i}", "rank", rank, "team", json_object_get(team_at(t, k), "name"),
			"match_points", mp, "board_points", bp, "boards", boards, "sos", 0, "won",
			a.winner == k, "drawn", a.winner == 2, "lost", a.winner == 1 - k, "byes", 0,
			"players_left", a.size[k] - a.next[k]));
	}
	return rows;
}
