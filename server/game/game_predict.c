/* game_predict: what the players do to a game under the prediction ruleset (seed 000):
 * accepting its challenge (first and second player), the opening's placements charged to the
 * placing player's clock, sealing a prediction and, with the second, the colours and the bar.
 * The state and its arithmetic are in game_predict_state.c. See game.h. */
#include <stdio.h>
#include <string.h>
#include <sodium.h>
#include "game.h"
#include "log.h"

void game_predict_accept(struct server *srv, struct game *g, int64_t by_id, const char *by_name)
{
	/* Art. 5.1: first by the challenger's choice ("black": the challenger, "white": the
	 * opponent, as `first` was stored) or by lot */
	bool challenger_first = strcmp(g->row.color_choice, "black") == 0 ||
		(strcmp(g->row.color_choice, "nigiri") == 0 && randombytes_uniform(2) == 0);
	int64_t challenger = g->row.challenger_id;
	char cn[PROTO_NAME_MAX + 1];
	snprintf(cn, sizeof cn, "%s", g->black);
	g->row.black_id = challenger_first ? challenger : by_id;
	g->row.white_id = challenger_first ? by_id : challenger;
	snprintf(g->black, sizeof g->black, "%s", challenger_first ? cn : by_name);
	snprintf(g->white, sizeof g->white, "%s", challenger_first ? by_name : cn);
	g->first_col = BLACK;
	g->ref.phase = PHASE_OPENING;
	g->present[BLACK] = g->present[WHITE] = true;
	g->pred_gen++;
	server_txn(srv);
	game_save(srv, g);
	game_turn_restart(g);
	game_arm(g);
	log_msg(LOGL_INFO, "game_start", "game=%lld first=%s second=%s ruleset=prediction",
		(long long)g->id, g->black, g->white);
}

/* ---- the prediction allowance (Art. 5.3.3) ---- */

/* ---- the opening (Art. 5.2) ---- */

enum game_move_rc game_place(struct server *srv, struct game *g, enum predict_role role, int pt,
			     uint64_t read_ms, int64_t lag_ms, struct referee_move *m)
{
	enum color col = game_role_col(g, role), stone = g->ref.board.to_move;
	/* a placement reports the placer present, as a move does (Art. 22.2; without it a
	 * tournament game's placer who never sent `join` was absent: forfeited at the lateness
	 * limit, or when their clock ran out, though they had played) */
	game_mark_present(g, col);
	struct clock_state charged = g->clk[col];
	uint64_t now = fairclock_fair_ms(srv);
	if (g->cc.system != CLOCK_NONE && !g->paused) {
		int64_t used = game_turn_elapsed_at(g, read_ms && read_ms < now ? read_ms : now) - lag_ms;
		if (clock_move(&g->cc, &charged, used > 0 ? used : 0) == CLOCK_FLAG) {
			game_predict_lose(srv, g, role, RULESET_WIN_TIME);
			return GAME_MOVE_FLAG_ENDED;
		}
	}
	referee_play_choice(&g->ref, stone, pt, g->choice, m);
	if (m->number) {
		g->clk[col] = charged;
		game_turn_restart(g);
		/* Art. 5.3.3: the first player's allowance from the 3rd stone, the second's from
		 * the 4th */
		if (m->number == 3)
			game_predict_allowance_start(g, PREDICT_FIRST, now);
		if (m->predicting)
			game_predict_allowance_start(g, PREDICT_SECOND, now);
		g->pred_gen++;
	}
	game_record_move(srv, g, stone, m, NULL);
	return GAME_MOVE_PLAYED;
}

/* ---- the predictions (Art. 5.3) ---- */

int game_predict_seal(struct server *srv, struct game *g, enum predict_role role, double white,
		      bool *revealed)
{
	uint64_t now = fairclock_fair_ms(srv);
	int rc = referee_predict(&g->ref, role, white, revealed);
	if (rc < 0)
		return rc;
	game_mark_present(g, game_role_col(g, role)); /* as a placement does */
	game_predict_allowance_stop(g, role, now);
	g->pred_gen++;
	if (*revealed) {
		/* the columns become the colours: the first player was in Black's */
		if (g->ref.white_role == PREDICT_FIRST)
			game_predict_swap_columns(g);
		g->row.komi = g->ref.komi;
		game_turn_restart(g); /* White's clock runs from now (Art. 5.4) */
	}
	server_txn(srv);
	game_save(srv, g);
	log_msg(LOGL_INFO, "prediction_sealed", "game=%lld role=%s revealed=%d", (long long)g->id,
		role == PREDICT_FIRST ? "first" : "second", (int)*revealed);
	return 0;
}

