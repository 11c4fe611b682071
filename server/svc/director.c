/* director: a tournament director's actions on games (docs/rules.md §3, §4): set or override a
 * result (ratings recomputed), warn a player. See director.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "director.h"
#include "game.h"
#include "log.h"
#include "ratings.h"
#include "tour.h"


/* Accept "B+R", "W+3.5", "B+T", "W+F", "0", "Void" and the like: a result text of the
 * ruleset in its stored form (ruleset_result_check: not "W+ 3" or "W+3.25"). */
static bool result_valid(const struct ruleset *rs, const char *r)
{
	return ruleset_result_check(rs, r) == 0;
}

int games_set_result(struct server *srv, int64_t id, const char *result, const char *reason,
		     enum games_rating rating)
{
	enum end_reason why = END_ADJUDICATED;
	/* The game's own ruleset judges the result (a prediction game's margins are quarters). */
	struct game *g = game_live(srv, id);
	struct store_game row = {0};
	if (!g && store_game_get(srv->store, id, &row) != STORE_OK) {
		store_game_clear(&row);
		return -1;
	}
	const struct ruleset *rs = g ? g->rs : ruleset_find(tour_game_ruleset(&row));
	const struct store_game *gr = g ? &g->row : &row;
	/* (any case: referee_reason_parse) */
	bool reason_ok = !reason || referee_reason_parse(reason, &why) == 0;
	/* Art. 23: a director may adjudicate a draw whatever the komi, saying so (reason
	 * adjudicated); a draw given without a reason is taken for a count, which a half-point
	 * komi cannot give (a slip of the keyboard at a board event) */
	bool adjudged_draw = reason && reason_ok && why == END_ADJUDICATED &&
			     (strcmp(result, "0") == 0 || strcmp(result, "Draw") == 0);
	int rc = 0;
	if (!result_valid(rs, result))
		rc = -2;
	/* no count gives more than the board and the komi (W+300.5 on 9x9: a typo) */
	else if (ruleset_margin_possible(rs, result, gr->size,
					 rs->effective_komi(gr->komi, gr->handicap)) < 0)
		rc = -5;
	else if (!adjudged_draw && ruleset_margin_fits(rs, result, gr->komi) < 0)
		rc = -4;
	else if (!reason_ok || why == END_NONE || why == END_DECLINED || why == END_EXPIRED)
		rc = -3;
	/* One stored form of a double loss: Void with reason double_forfeit (docs/rules.md §4) */
	else if (why == END_DOUBLE_FORFEIT && strcmp(result, rs->result_void) != 0)
		rc = -3;
	/* the reason says how the game ended, and so does the result: W+R with reason score,
	 * B+4.5 with resignation, B+F with score contradict each other */
	else if (referee_reason_fits(rs, result, why) < 0)
		rc = -6;
	if (rc != 0) {
		store_game_clear(&row);
		return rc;
	}
	if (strcmp(result, "Draw") == 0)
		result = "0";
	if (g) {
		if (rating != GAMES_RATING_KEEP) /* a forfeit without play moves no rating (issue 7) */
			g->row.rated = rating == GAMES_RATED;
		game_end(srv, g, result, why);
		return 0;
	}
	server_txn(srv);
	snprintf(row.result, sizeof row.result, "%s", result);
	snprintf(row.reason, sizeof row.reason, "%s", referee_reason_name(why));
	snprintf(row.phase, sizeof row.phase, "ended");
	if (!row.ended_at)
		row.ended_at = fairclock_wall_s();
	bool was_rated = row.rated;
	if (rating != GAMES_RATING_KEEP)
		row.rated = rating == GAMES_RATED;
	if (store_game_update(srv->store, &row) != STORE_OK)
		game_persist_failed(srv, "result");
	log_msg(LOGL_INFO, "result_override", "game=%lld result=%s reason=%s", (long long)id, result,
		referee_reason_name(why));
	if ((was_rated || row.rated) && ratings_recompute(srv, id) < 0)
		game_persist_failed(srv, "ratings");
	json_t *e = proto_event("game.end");
	json_object_set_new(e, "game", json_integer(id));
	json_object_set_new(e, "result", json_string(result));
	json_object_set_new(e, "reason", json_string(referee_reason_name(why)));
	json_object_set_new(e, "override", json_true());
	server_send_player(srv, row.black_id, e);
	server_send_player(srv, row.white_id, e);
	json_decref(e);
	store_game_clear(&row);
	return 0;
}

int games_tournament_of(struct server *srv, int64_t id, int64_t *tournament_id, int *round,
			char result[STORE_RESULT_SIZE], char reason[STORE_REASON_SIZE],
			bool *called_off)
{
	struct game *g = game_live(srv, id);
	*called_off = false; /* a live game is not (games_call_off retires it) */
	if (g) {
		*tournament_id = g->row.tournament_id;
		*round = g->row.round;
		if (result)
			snprintf(result, STORE_RESULT_SIZE, "%s", g->row.result);
		if (reason)
			snprintf(reason, STORE_REASON_SIZE, "%s", g->row.reason);
		return 0;
	}
	struct store_game row = {0};
	int rc = store_game_get(srv->store, id, &row) == STORE_OK ? 0 : -1;
	*tournament_id = rc == 0 ? row.tournament_id : 0;
	*round = rc == 0 ? row.round : 0;
	*called_off = rc == 0 && tour_called_off(&row);
	if (result)
		snprintf(result, STORE_RESULT_SIZE, "%s", rc == 0 ? row.result : "");
	if (reason)
		snprintf(reason, STORE_REASON_SIZE, "%s", rc == 0 ? row.reason : "");
	store_game_clear(&row);
	return rc;
}

bool games_is_unstarted(struct server *srv, int64_t id)
{
	struct game *g = game_live(srv, id);
	return g && g->ref.phase == PHASE_SCHEDULED && !g->row.result[0];
}

int games_call_off(struct server *srv, int64_t id)
{
	struct game *g = game_live(srv, id);
	if (!g || g->ref.phase != PHASE_SCHEDULED || g->row.result[0])
		return -1;
	referee_end(&g->ref, "", END_DECLINED, false);
	server_txn(srv);
	game_save(srv, g);
	log_msg(LOGL_INFO, "game_called_off", "game=%lld", (long long)id);
	game_retire(srv, g);
	return 0;
}

int games_repair(struct server *srv, int64_t id, int64_t black_id, int64_t white_id, int handicap,
		 double komi)
{
	struct game *g = game_live(srv, id);
	if (!g || g->ref.phase != PHASE_SCHEDULED || g->row.result[0])
		return -1;
	struct game_settings set = {.size = g->row.size};
	const char *why;
	if (black_id == white_id || games_schedule_check(&set, handicap, &why) < 0)
		return -2;
	struct store_game old = g->row;
	char ob[sizeof g->black], ow[sizeof g->white];
	memcpy(ob, g->black, sizeof ob);
	memcpy(ow, g->white, sizeof ow);
	g->row.black_id = black_id;
	g->row.white_id = white_id;
	g->row.handicap = handicap;
	/* the bar replaces komi under the prediction ruleset (seed 000, Art. 5.3) */
	g->row.komi = g->rs->bar == RULESET_BAR_PREDICTION ? g->rs->default_komi : komi;
	if (game_names_of(srv, g) < 0) {
		g->row = old;
		memcpy(g->black, ob, sizeof ob);
		memcpy(g->white, ow, sizeof ow);
		return -2;
	}
	/* The board again, for the handicap (Art. 2); a scheduled game has no move to replay. */
	referee_free(&g->ref);
	if (game_start_referee(g) < 0)
		return -2; /* games_schedule_check accepted this size and handicap: not expected */
	g->ref.phase = PHASE_SCHEDULED;
	g->present[BLACK] = g->present[WHITE] = false;
	server_txn(srv);
	game_save(srv, g);
	game_send_start(srv, g);
	log_msg(LOGL_INFO, "game_repaired", "game=%lld black=%s white=%s handicap=%d komi=%.1f",
		(long long)id, g->black, g->white, handicap, komi);
	return 0;
}

int games_warn(struct server *srv, int64_t id, enum color c, const char *reason)
{
	struct game *g = game_live(srv, id);
	if (!g || (g->ref.phase != PHASE_PLAYING && g->ref.phase != PHASE_COUNTING &&
		   g->ref.phase != PHASE_SCHEDULED))
		return -1;
	server_txn(srv);
	int n = ++g->ref.warnings[c];
	struct store_warning w = {.color = game_color_name(c)[0], .number = (int)board_moves(&g->ref.board),
				  .at = fairclock_wall_s(), .by_director = 1};
	snprintf(w.reason, sizeof w.reason, "%s", reason);
	if (store_warning_add(srv->store, g->id, &w, NULL) != STORE_OK)
		game_persist_failed(srv, "warning");
	json_t *e = proto_event("game.warning");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "color", json_string(game_color_name(c)));
	json_object_set_new(e, "reason", json_string(reason));
	json_object_set_new(e, "warnings", json_integer(n));
	json_object_set_new(e, "by_director", json_true());
	game_send(srv, g, e);
	json_decref(e);
	if (n >= g->rs->warnings_lose) {
		/* Art. 24.2: a second warning loses the game. */
		game_end(srv, g, g->rs->result_win(color_other(c), RULESET_WIN_FORFEIT), END_WARNINGS);
		return 0;
	}
	game_save(srv, g);
	return 0;
}
