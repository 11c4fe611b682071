/* game_play: what the players do to a live game, below the commands that ask for it
 * (cmd/cmd_games.c parses and replies): a challenge made, accepted; a move charged to the
 * clock and played; a director's pause. Each writes the store in the iteration's transaction;
 * the events that follow are sent by the caller after its reply (the requester hears the
 * reply first). See game.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "game.h"
#include "log.h"
#include "vertex.h"

struct game *game_challenge_new(struct server *srv, const struct game_challenge_spec *s,
				const char **why)
{
	struct game *g = game_alloc();
	*why = "out of memory";
	if (!g)
		return NULL;
	g->time = s->time;
	g->rules = s->rules;
	/* Colours are settled at accept; until then the challenger is listed as Black. */
	g->row.black_id = s->challenger_id;
	g->row.white_id = s->opponent_id;
	g->row.challenger_id = s->challenger_id;
	g->row.size = s->size;
	g->row.komi = s->komi;
	g->row.handicap = s->handicap;
	g->free_handicap = s->free_handicap;
	g->row.rated = s->rated;
	snprintf(g->row.color_choice, sizeof g->row.color_choice, "%s", s->color_choice);
	snprintf(g->row.phase, sizeof g->row.phase, "pending");
	g->row.created_at = fairclock_wall_s();
	json_t *tj = proto_time_to_json(&g->time), *rj = proto_rules_to_json(&g->rules);
	g->row.time_control = json_dumps(tj, JSON_COMPACT);
	g->row.rules = json_dumps(rj, JSON_COMPACT);
	json_decref(tj);
	json_decref(rj);
	snprintf(g->black, sizeof g->black, "%s", s->challenger);
	snprintf(g->white, sizeof g->white, "%s", s->opponent);
	game_control_from_time(&g->time, &g->cc);
	g->lateness_limit_s = GAMES_LATENESS_LIMIT_DEFAULT_S;
	if (game_start_referee(g) < 0) {
		*why = "could not set up the board";
		goto bad;
	}
	g->ref.phase = PHASE_PENDING;
	g->expires_at = (int64_t)ceil(g->row.created_at) + s->expires_s;
	if (!(g->row.extra = game_extra_text(g, 0, NULL)))
		goto bad;
	server_txn(srv);
	if (store_game_create(srv->store, &g->row, &g->id) != STORE_OK)
		game_persist_failed(srv, "challenge");
	g->row.id = g->id;
	game_go_live(srv, g);
	log_msg(LOGL_INFO, "challenge", "game=%lld from=%s to=%s", (long long)g->id, s->challenger,
		s->opponent);
	*why = NULL;
	return g;
bad:
	game_free(g);
	return NULL;
}

void game_accept(struct server *srv, struct game *g, int64_t by_id, const char *by_name)
{
	if (game_is_prediction(g)) {
		game_predict_accept(srv, g, by_id, by_name);
		return;
	}
	/* Art. 10: colours by the challenger's choice, or by nigiri. */
	bool challenger_black = strcmp(g->row.color_choice, "black") == 0 ||
		(strcmp(g->row.color_choice, "nigiri") == 0 && randombytes_uniform(2) == 0);
	int64_t challenger = g->row.challenger_id, other = by_id;
	char cn[PROTO_NAME_MAX + 1];
	snprintf(cn, sizeof cn, "%s", g->black); /* challenger's name, listed as Black so far */
	g->row.black_id = challenger_black ? challenger : other;
	g->row.white_id = challenger_black ? other : challenger;
	snprintf(g->black, sizeof g->black, "%s", challenger_black ? cn : by_name);
	snprintf(g->white, sizeof g->white, "%s", challenger_black ? by_name : cn);
	g->ref.phase = PHASE_PLAYING;
	g->present[BLACK] = g->present[WHITE] = true;
	server_txn(srv);
	game_save(srv, g);
	game_turn_restart(g);
	game_arm(g);
	log_msg(LOGL_INFO, "game_start", "game=%lld black=%s white=%s", (long long)g->id, g->black, g->white);
}

bool game_move_charges(const struct game *g, enum color me)
{
	return me == g->ref.board.to_move && game_clock_running(g);
}

enum game_move_rc game_move(struct server *srv, struct game *g, enum color me, int pt,
			    uint64_t read_ms, int64_t lag_ms, struct referee_move *m)
{
	game_mark_present(g, me);
	/* Charge the mover's clock (less our measure of the connection's lag) before the move
	 * counts: a move after the flag fell is too late. */
	struct clock_state charged = g->clk[me];
	bool my_turn = me == g->ref.board.to_move;
	/* The timer forfeited my turn just now and the opponent has not moved: my move was on its
	 * way (Art. 17.2: I did not move twice), too late, as if it had come before the timer. */
	if (!my_turn && g->flag_pass_number && g->flag_pass_number == (int)board_moves(&g->ref.board) &&
	    (read_ms ? read_ms : fairclock_fair_ms(srv)) <= g->flag_pass_at + GAME_FLAG_RACE_MS)
		return GAME_MOVE_FLAG;
	if (my_turn && game_clock_running(g)) {
		/* Judged by when the move arrived (the read), not when its turn in the loop came. */
		uint64_t now = fairclock_fair_ms(srv);
		int64_t used = game_turn_elapsed_at(g, read_ms && read_ms < now ? read_ms : now) - lag_ms;
		if (clock_move(&g->cc, &charged, used > 0 ? used : 0) == CLOCK_FLAG)
			return game_flag_fall(srv, g) ? GAME_MOVE_FLAG_ENDED : GAME_MOVE_FLAG;
	}
	referee_play_choice(&g->ref, me, pt, g->choice, m);
	game_predict_note_move(g, m);
	if (m->lost && g->ref.reason == END_ILLEGAL) { /* kept for the record (cmd_sgf.c) */
		g->illegal_color = me;
		g->illegal_pt = pt;
		g->illegal_offence = m->offence;
	}
	if (m->number && my_turn) {
		g->clk[me] = charged;
		game_turn_restart(g); /* the opponent's clock starts as the move commits */
	}
	game_record_move(srv, g, me, m, NULL);
	return GAME_MOVE_PLAYED;
}

enum game_move_rc game_place_handicap(struct server *srv, struct game *g, enum color me,
				      const int *pts, int n, uint64_t read_ms, int64_t lag_ms,
				      enum referee_place_rc *rc, int *bad)
{
	game_mark_present(g, me);
	/* Checked before the clock: a refused placement changes nothing, the clock runs on. */
	*bad = -1;
	if (!g->ref.placing || g->ref.phase != PHASE_PLAYING)
		*rc = REFEREE_PLACE_NOT_PLACING;
	else if (me != BLACK)
		*rc = REFEREE_PLACE_NOT_BLACK;
	else
		*rc = REFEREE_PLACE_OK;
	if (*rc != REFEREE_PLACE_OK)
		return GAME_MOVE_PLAYED;
	struct clock_state charged = g->clk[me];
	if (game_clock_running(g)) {
		uint64_t now = fairclock_fair_ms(srv);
		int64_t used = game_turn_elapsed_at(g, read_ms && read_ms < now ? read_ms : now) - lag_ms;
		if (clock_move(&g->cc, &charged, used > 0 ? used : 0) == CLOCK_FLAG)
			return game_flag_fall(srv, g) ? GAME_MOVE_FLAG_ENDED : GAME_MOVE_FLAG;
	}
	*rc = referee_place_free(&g->ref, me, pts, n, bad);
	if (*rc != REFEREE_PLACE_OK)
		return GAME_MOVE_PLAYED;
	g->clk[me] = charged;
	game_turn_restart(g); /* White's clock starts as the placement commits */
	g->replay_to_move = WHITE; /* restoring places the stones again: White to move */
	server_txn(srv);
	game_save(srv, g); /* the extra keeps the stones (game_extra_text) */
	char v[VERTEX_MAX_LEN * 9 + 9] = "";
	for (int i = 0; i < n; i++) {
		char one[VERTEX_MAX_LEN];
		strcat(v, i ? " " : "");
		strcat(v, vertex_format(&g->ref.board, pts[i], one));
	}
	log_msg(LOGL_INFO, "handicap_placed", "game=%lld stones=\"%s\"", (long long)g->id, v);
	return GAME_MOVE_PLAYED;
}

void game_announce_handicap(struct server *srv, struct game *g)
{
	json_t *e = proto_event("game.handicap");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "stones", game_handicap_stones_json(g));
	json_object_set_new(e, "to_move", json_string(game_color_name(g->ref.board.to_move)));
	json_object_set_new(e, "clocks", game_clocks_json(g, true));
	game_send(srv, g, e);
	json_decref(e);
	game_arm(g);
}

void game_pause(struct server *srv, struct game *g, bool pause, const char *by)
{
	if (pause) {
		g->turn_used = game_turn_elapsed(g);
		g->paused = true;
	} else {
		g->paused = false;
		g->turn_start = fairclock_fair_ms(srv);
		g->count_since = g->turn_start; /* counting: its time anew */
	}
	server_txn(srv);
	game_save(srv, g);
	log_msg(LOGL_INFO, pause ? "pause" : "resume", "game=%lld by=%s", (long long)g->id, by);
}

static void announce(struct server *srv, struct game *g, bool pause, const char *by,
		     const char *reason)
{
	json_t *e = proto_event(pause ? "game.paused" : "game.resume");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "by", json_string(by));
	if (reason)
		json_object_set_new(e, "reason", json_string(reason));
	if (!pause)
		json_object_set_new(e, "to_move", json_string(game_color_name(g->ref.board.to_move)));
	json_object_set_new(e, "clocks", game_clocks_json(g, true));
	game_send(srv, g, e);
	json_decref(e);
	game_arm(g);
}

void game_announce_pause(struct server *srv, struct game *g, bool pause, const char *by)
{
	announce(srv, g, pause, by, NULL);
}

void games_player_back(struct conn *c)
{
	size_t m;
	struct game *const *mine = game_index_of(c->srv, c->player_id, &m);
	for (size_t i = 0; i < m; i++) {
		struct game *g = mine[i];
		enum color me = g->ref.phase == PHASE_PENDING ? EMPTY : game_color_of(g, c->player_id);
		if (me != EMPTY && game_turn_release(g, me))
			announce(c->srv, g, false, c->name, "returned");
	}
}
