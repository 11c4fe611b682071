/* game_live: live games and their timer: loading them (restart), making them live, the flag
 * falling, lateness and scheduled starts (docs/rules.md §2; Chinese Rules 2002, Art. 12, 14,
 * 22), lapsing challenges, recording moves and ending games; tournament games scheduled. Time
 * is fairclock's (fairclock.h): the monotonic clock less the loop's stalls for the game clocks,
 * Unix seconds for start times, lateness and lapses. See game.h and games.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "game.h"
#include "heap.h"
#include "log.h"
#include "vertex.h"

/* The player of clock column `absent`, not present at scheduled game g, loses by forfeit for
 * absence (Art. 22.1, 22.4: reason lateness; before a prediction game's colours are decided
 * the winner is recorded White, game_predict_lose); the other absent too, both lose (Void,
 * double_forfeit). `why` names the occasion in the log. g is gone after. */
static void absent_loses(struct server *srv, struct game *g, enum color absent, const char *why)
{
	bool both = !g->present[color_other(absent)];
	log_msg(LOGL_INFO, "absent_loses", "game=%lld color=%s other_absent=%d why=%s",
		(long long)g->id, game_color_name(absent), both, why);
	if (both)
		game_end(srv, g, g->rs->result_void, END_DOUBLE_FORFEIT);
	else if (game_predict_before_play(g))
		game_predict_lose(srv, g, game_col_role(g, absent), RULESET_WIN_FORFEIT);
	else
		game_end(srv, g, g->rs->result_win(color_other(absent), RULESET_WIN_FORFEIT),
			 END_LATENESS);
}

/* The flag of the player to move fell (Art. 12): the game is lost on time (by forfeit, reason
 * lateness, for a player absent from a scheduled game: Art. 22.4), or with `last_period: pass`
 * under byo-yomi the turn is forfeited as a pass and the last period starts again (Art. 22.5),
 * except while a free handicap placement is due (it loses). Returns true if the game ended (g
 * is gone). */
bool game_flag_fall(struct server *srv, struct game *g)
{
	enum color c = g->ref.board.to_move;
	log_msg(LOGL_INFO, "flag", "game=%lld color=%s", (long long)g->id, game_color_name(c));
	/* Art. 22.4: an absent player's clock runs from the start, and when it runs out they
	 * "lose the right to play the game": a player who never reported present loses by
	 * forfeit (reason lateness, as at the limit: unrated, `!` in the h9), not a played game
	 * lost on time, and not a turn passed under `last_period: pass`; the other absent too,
	 * both lose, as at the limit (Art. 22.1). */
	if (g->row.start_at > 0 && !g->present[c]) {
		clock_peek(&g->cc, &g->clk[c], game_turn_elapsed(g), &g->clk[c]);
		absent_loses(srv, g, c, "flag");
		return true;
	}
	/* A free handicap placement due (ref.placing) cannot be passed: the flag loses. */
	if (g->cc.system == CLOCK_BYOYOMI && g->rules.last_period == LAST_PERIOD_PASS &&
	    !g->ref.placing) {
		struct referee_move m;
		server_txn(srv);
		referee_play(&g->ref, c, BOARD_PASS, &m);
		clock_forfeit_period(&g->cc, &g->clk[c]);
		game_turn_restart(g);
		g->flag_pass_number = (int)board_moves(&g->ref.board);
		g->flag_pass_at = fairclock_fair_ms(srv);
		game_record_move(srv, g, c, &m, "time");
		return game_announce_move(srv, g, c, &m, "time");
	}
	clock_peek(&g->cc, &g->clk[c], game_turn_elapsed(g), &g->clk[c]);
	game_end(srv, g, g->rs->result_win(color_other(c), RULESET_WIN_TIME), END_TIME);
	return true;
}

/* A player reports present at a scheduled game (or moves in it): Art. 22.2, a player less
 * late than the limit loses twice the lateness from main time. Black's clock has run since
 * the start time already, so Black is charged the rest: 2 x lateness in all, as White. */
int64_t game_mark_present(struct game *g, enum color c)
{
	if (g->present[c])
		return 0;
	g->present[c] = true;
	int64_t late_ms = 0;
	if (g->row.start_at > 0) {
		double late = fairclock_wall_s() - game_late_since(g);
		late_ms = late > 0 ? (int64_t)(late * 1000) : 0;
		/* c's clock has run since the start if its turn is due: the mover's in play, the
		 * placer's (its clock column) in a prediction game's opening */
		bool runs = g->cc.system != CLOCK_NONE &&
			    ((g->ref.phase == PHASE_PLAYING && c == g->ref.board.to_move) ||
			     (g->ref.phase == PHASE_OPENING && c == game_role_col(g, game_predict_placer(g))));
		int64_t ran = runs ? game_turn_elapsed(g) : 0;
		int64_t extra = 2 * late_ms - (ran < late_ms ? ran : late_ms);
		if (extra > 0 && g->cc.system != CLOCK_NONE)
			clock_lateness(&g->cc, &g->clk[c], (extra + 1) / 2);
	}
	return late_ms;
}

void game_begin(struct server *srv, struct game *g)
{
	server_txn(srv);
	/* seed 000: the game begins with the opening, the first player's clock for its first
	 * stone */
	g->ref.phase = game_is_prediction(g) ? PHASE_OPENING : PHASE_PLAYING;
	if (game_is_prediction(g))
		g->pred_gen++;
	game_turn_restart(g);
	game_save(srv, g);
	json_t *e = proto_event("game.begin");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "clocks", game_clocks_json(g, true));
	game_send(srv, g, e);
	json_decref(e);
}

/* A pending challenge lapsed: it ends with reason `expired` (no result), both players and its
 * observers hear challenge.expired. */
static void expire_challenge(struct server *srv, struct game *g)
{
	referee_end(&g->ref, "", END_EXPIRED, false);
	server_txn(srv);
	game_save(srv, g);
	log_msg(LOGL_INFO, "challenge_expired", "game=%lld", (long long)g->id);
	json_t *e = proto_event("challenge.expired");
	json_object_set_new(e, "game", json_integer(g->id));
	game_send(srv, g, e); /* both players and the challenge's observers */
	json_decref(e);
	game_retire(srv, g);
}

/* The counting phase's time ran out: the claim in, if any, is counted (referee_count_lapse). */
static void count_lapse(struct server *srv, struct game *g)
{
	server_txn(srv);
	referee_count_lapse(&g->ref);
	game_save(srv, g);
	log_msg(LOGL_INFO, "count_lapsed", "game=%lld unclaimed=%s result=%s", (long long)g->id,
		referee_unclaimed_name(g->ref.unclaimed), g->ref.result);
	game_send_end(srv, g);
	game_retire(srv, g);
}

/* Does the lateness limit (Art. 22.1) run for g: a scheduled game in play, or in a prediction
 * game's opening or predictions (else a player who never came held the game there for good
 * without a clock, and until their clock ran out with one), with a player not yet present? */
static bool lateness_runs(const struct game *g)
{
	return (g->ref.phase == PHASE_PLAYING || game_predict_before_play(g)) && !g->paused &&
	       g->row.start_at > 0 && g->lateness_limit_s > 0 &&
	       (!g->present[BLACK] || !g->present[WHITE]);
}

/* g's timer: what game_arm armed it for, judged again now. The flag with the mover's lag
 * credit (game_flag_grace_ms): judged at the bare deadline, it ended games before a move sent
 * in time and credited was read (a trial: a move 6 ms late by the bare clock, in time by
 * 16 ms with its 22 ms credit, found the game lost on time). */
static void on_timer(uv_timer_t *t)
{
	struct game *g = t->data;
	struct server *srv = g->srv;
	double wall = fairclock_wall_s();
	if (g->ref.phase == PHASE_PENDING && g->expires_at > 0 && wall >= (double)g->expires_at) {
		expire_challenge(srv, g);
		return;
	}
	if (g->ref.phase == PHASE_SCHEDULED && g->row.start_at > 0 && wall >= g->row.start_at)
		game_begin(srv, g); /* Art. 22: at the start time Black's clock starts, whoever is there */
	if (lateness_runs(g) && wall >= game_late_since(g) + g->lateness_limit_s) {
		/* Art. 22.1: absent past the limit loses by forfeit; both absent, both lose. */
		absent_loses(srv, g, g->present[BLACK] ? WHITE : BLACK, "limit");
		return;
	}
	if (game_predict_timer(srv, g))
		return; /* the opening's or the prediction stage's time ran out (seed 000) */
	if (game_count_left_ms(g) == 0) {
		count_lapse(srv, g);
		return;
	}
	if (game_clock_running(g)) {
		enum color c = g->ref.board.to_move;
		struct clock_state st;
		if (game_flag_fallen(g, c, &st)) {
			game_flag_fall(srv, g);
			return;
		}
	}
	game_arm(g);
}

void game_arm(struct game *g)
{
	if (!g->has_timer)
		return;
	double wall = fairclock_wall_s();
	int64_t due = -1;
	if (g->ref.phase == PHASE_PENDING && g->expires_at > 0) {
		due = llround(fmax(0, ((double)g->expires_at - wall) * 1000));
	} else if (g->ref.phase == PHASE_SCHEDULED && g->row.start_at > 0) {
		/* A start time already passed (start_at in the past, a restart): begin now. */
		due = llround(fmax(0, (g->row.start_at - wall) * 1000));
	} else if (lateness_runs(g) && g->ref.phase != PHASE_PLAYING) {
		due = llround(fmax(0, (game_late_since(g) + g->lateness_limit_s - wall) * 1000));
	} else if (g->ref.phase == PHASE_PLAYING && !g->paused) {
		if (lateness_runs(g))
			due = llround(fmax(0, (game_late_since(g) + g->lateness_limit_s - wall) * 1000));
		if (game_clock_running(g)) {
			int64_t rem = clock_remaining(&g->cc, &g->clk[g->ref.board.to_move]);
			if (rem != CLOCK_UNLIMITED && rem >= 0) {
				rem -= game_turn_elapsed(g);
				rem += game_turn_held_ms(g); /* after a restart: waiting for the player */
				/* past the bare deadline, a move sent in time is still on its way for
				 * the lag credit (read only then: a getsockopt a move otherwise) */
				if (rem <= 0)
					rem += game_flag_grace_ms(g, g->ref.board.to_move);
				if (rem < 0)
					rem = 0; /* overdue: fire now */
				if (due < 0 || rem < due)
					due = rem;
			}
		}
	}
	int64_t pd = game_predict_due(g); /* seed 000: the opening and the allowances */
	if (pd >= 0 && (due < 0 || pd < due))
		due = pd;
	int64_t cd = game_count_left_ms(g);
	if (cd >= 0 && (due < 0 || cd < due))
		due = cd;
	if (due < 0) { /* nothing due (a bad clock never spins the loop) */
		g->due = false;
		uv_timer_stop(&g->timer);
		return;
	}
	g->due = true;
	g->due_at = fairclock_fair_ms(g->srv) + (uint64_t)(due > 0 ? due : 0);
	uv_timer_start(&g->timer, on_timer, (uint64_t)(due > 0 ? due : 0), 0);
}

int games_fire_due(struct server *srv)
{
	uint64_t now = fairclock_fair_ms(srv);
	size_t n = 0;
	int64_t *ids = malloc((srv->games.n + 1) * sizeof *ids);
	if (!ids)
		return -1;
	for (size_t i = 0; i < srv->games.cap; i++) {
		const struct game *g = srv->games.slots[i].val;
		if (g && g->has_timer && g->due && g->due_at <= now)
			ids[n++] = g->id;
	}
	/* A timer may end its game or others' state: each is looked up again. */
	int fired = 0;
	for (size_t k = 0; k < n; k++) {
		struct game *g = idmap_get(&srv->games, ids[k]);
		if (!g || !g->has_timer || !g->due || g->due_at > now)
			continue;
		g->due = false;
		uv_timer_stop(&g->timer);
		on_timer(&g->timer);
		fired++;
	}
	free(ids);
	return fired;
}

/* Make g a live game: its timer, and the running clock starting now (after a restart too:
 * no clock runs while the server is down, Art. 14). */
void game_go_live(struct server *srv, struct game *g)
{
	g->srv = srv;
	if (!g->has_timer) {
		uv_timer_init(srv->loop, &g->timer);
		g->timer.data = g;
		g->has_timer = true;
	}
	g->turn_start = fairclock_fair_ms(srv); /* turn_used: 0, or what a paused turn had used */
	/* a game that comes back counting (a restart): the claims' time anew, after the grace */
	g->count_since = g->turn_start + (uint64_t)srv->set.restart_grace_s * 1000;
	game_predict_go_live(g, g->turn_start);
	idmap_put(&srv->games, g->id, g);
	if (game_index_add(srv, g) < 0) /* its players' logins would not list it */
		log_msg(LOGL_ERROR, "game_index", "game=%lld error=\"out of memory\"", (long long)g->id);
	game_arm(g);
}

double game_late_since(const struct game *g)
{
	return g->row.start_at + g->late_credit_s;
}

/* After a restart: the time the server was down since g's start (srv->down_since, the last
 * mark of the daemon running, to now) is no lateness for a player not there yet (Art. 14: no
 * clock runs while the server is down; Art. 22). Returns whether g gained a credit (to be
 * saved, so that it stands after the next restart, and its timer armed again). */
static bool late_credit_downtime(struct server *srv, struct game *g)
{
	double now = fairclock_wall_s();
	/* a live game with a start time is a scheduled game (a challenge has none) */
	if (srv->down_since <= 0 || g->row.start_at <= 0 || (g->present[BLACK] && g->present[WHITE]))
		return false;
	double from = fmax(srv->down_since, g->row.start_at);
	if (now <= from)
		return false;
	g->late_credit_s += now - from;
	log_msg(LOGL_INFO, "lateness_credit", "game=%lld down_s=%.1f credit_s=%.1f", (long long)g->id,
		now - from, g->late_credit_s);
	return true;
}

static int load_cb(void *ctx, const struct store_game *row, const struct store_move *moves, size_t n)
{
	struct server *srv = ctx;
	struct store_game copy = *row;
	/* The row's strings belong to the listing: duplicate them for the game. */
	copy.time_control = row->time_control ? strdup(row->time_control) : NULL;
	copy.rules = row->rules ? strdup(row->rules) : NULL;
	copy.clocks = row->clocks ? strdup(row->clocks) : NULL;
	copy.extra = row->extra ? strdup(row->extra) : NULL;
	struct game *g = game_build(srv, &copy, moves, n);
	if (g) {
		game_go_live(srv, g);
		/* The players reconnect after the restart: a clock waits for its player, up to the
		 * grace (Art. 14; games_player_back ends the wait for each). */
		if (srv->set.restart_grace_s) {
			game_turn_hold(g, (int64_t)srv->set.restart_grace_s * 1000);
			game_arm(g);
		}
	}
	return 0;
}

int games_load(struct server *srv)
{
	if (!srv->stall && fairclock_start(srv) < 0) {
		log_msg(LOGL_ERROR, "games_load", "error=\"out of memory\"");
		return -1;
	}
	/* Thousands of games are built at once: have their memory mapped first (heap.h). */
	size_t live = 0;
	if (store_games_unfinished_count(srv->store, &live) == STORE_OK && live >= GAMES_RESERVE_FROM)
		log_msg(LOGL_INFO, "heap_reserve", "games=%zu bytes=%zu", live,
			heap_reserve(live * GAMES_RESERVE_BYTES));
	enum store_rc r = store_games_unfinished(srv->store, load_cb, srv);
	heap_reserve_done();
	if (r != STORE_OK) {
		log_msg(LOGL_ERROR, "games_load", "error=\"%s\"", store_errmsg(srv->store));
		return -1;
	}
	/* The downtime's lateness credit, saved once the listing's read transaction is over (a
	 * write inside it is refused), and the timers armed again for the later deadline. */
	for (size_t i = 0; i < srv->games.cap; i++) {
		struct game *g = srv->games.slots[i].val;
		if (g && late_credit_downtime(srv, g)) {
			server_txn(srv);
			game_save(srv, g);
			game_arm(g);
		}
	}
	/* committed now: with an open transaction the syncer could not take over the store's
	 * syncs at server_start (--sync power-safe-thread fell back to the commit's) */
	server_commit_now(srv);
	log_msg(LOGL_INFO, "games_loaded", "live=%zu", srv->games.n);
	return 0;
}

void games_free(struct server *srv)
{
	for (size_t i = 0; i < srv->games.cap; i++)
		if (srv->games.slots[i].key)
			game_free(srv->games.slots[i].val);
	idmap_free(&srv->games);
	game_index_free(srv);
}

struct game *game_live(struct server *srv, int64_t id)
{
	return idmap_get(&srv->games, id);
}

void game_pairing_phase(struct server *srv, int64_t id, json_t *o)
{
	const struct game *g = game_live(srv, id);
	if (!g)
		return;
	json_object_set_new(o, "phase", json_string(g->row.phase));
	if (g->paused)
		json_object_set_new(o, "paused", json_true());
}

struct game *game_get(struct server *srv, int64_t id, bool *owned)
{
	*owned = false;
	struct game *g = idmap_get(&srv->games, id);
	if (g)
		return g;
	struct store_game row = {0};
	if (store_game_get(srv->store, id, &row) == STORE_OK &&
	    (g = game_build(srv, &row, NULL, 0)) != NULL) {
		*owned = true;
		return g;
	}
	store_game_clear(&row);
	return NULL;
}

/* Write a referee move of `me` (m) to the store: the move row with the clocks after it, a
 * warning, the game row. `forfeit` overrides the forfeit reason (e.g. "time"). */
void game_record_move(struct server *srv, struct game *g, enum color me,
		      const struct referee_move *m, const char *forfeit)
{
	double now = fairclock_wall_s();
	if (m->number) /* replaying the move row (board_play) passes the turn */
		g->replay_to_move = color_other(me);
	game_save_as(srv, g, m->number != 0); /* first: the clocks as committed (g->clk) */
	if (m->number) {
		char clocks[GAME_MOVE_CLOCKS_MAX];
		game_move_clocks_text(g, clocks);
		struct store_move sm = {.number = m->number, .color = game_color_name(me)[0], .at = now,
					.clocks = clocks[0] ? clocks : NULL};
		vertex_format(&g->ref.board, m->pt, sm.vertex);
		if (forfeit || m->forfeit_turn)
			snprintf(sm.forfeit, sizeof sm.forfeit, "%s",
				 forfeit ? forfeit : referee_offence_name(m->offence));
		if (store_move_add(srv->store, g->id, &sm) != STORE_OK)
			game_persist_failed(srv, "move");
	}
	if (m->warning) {
		/* A warning for a void move belongs to the last move made. */
		struct store_warning w = {.color = game_color_name(me)[0], .at = now,
			.number = m->number ? m->number : (int)board_moves(&g->ref.board)};
		snprintf(w.reason, sizeof w.reason, "%s", referee_offence_name(m->offence));
		if (store_warning_add(srv->store, g->id, &w, NULL) != STORE_OK)
			game_persist_failed(srv, "warning");
	}
}

/* End the game now with `result` (time, lateness, double forfeit, adjudication). */
void game_end(struct server *srv, struct game *g, const char *result, enum end_reason why)
{
	server_txn(srv);
	if (game_clock_running(g)) /* the stored clocks as they stand at the end */
		clock_peek(&g->cc, &g->clk[g->ref.board.to_move], game_turn_elapsed(g),
			   &g->clk[g->ref.board.to_move]);
	referee_end(&g->ref, result, why, g->ref.phase == PHASE_ENDED);
	game_save(srv, g);
	game_send_end(srv, g);
	game_retire(srv, g);
}

void games_stop(struct server *srv)
{
	fairclock_stop(srv);
	for (size_t i = 0; i < srv->games.cap; i++) {
		struct game *g = srv->games.slots[i].val;
		if (g && g->has_timer) {
			g->has_timer = false;
			uv_close((uv_handle_t *)&g->timer, NULL);
		}
	}
}

void games_keep_turns(struct server *srv)
{
	for (size_t i = 0; i < srv->games.cap; i++) {
		struct game *g = srv->games.slots[i].val;
		if (!g || !g->started || g->paused)
			continue;
		int64_t used = game_turn_elapsed(g);
		if (used <= g->turn_used)
			continue; /* no turn's time runs (game_turn_elapsed counts none) */
		g->turn_used = used;
		g->turn_start = fairclock_fair_ms(srv);
		server_txn(srv);
		game_save(srv, g);
	}
}

int games_time_check(const struct proto_time *t, const char **why)
{
	struct clock_control cc;
	game_control_from_time(t, &cc);
	return cc.system == CLOCK_NONE ? 0 : clock_control_check(&cc, why);
}

int games_schedule_check(const struct game_settings *set, int handicap, const char **why)
{
	*why = NULL;
	if (set->size < BOARD_MIN_SIZE || set->size > BOARD_MAX_SIZE)
		*why = "the board size is out of range";
	else if (handicap < 0 || handicap > GAMES_HANDICAP_MAX)
		*why = "the handicap is out of range";
	else if (referee_check(set->size, handicap) < 0)
		*why = "the board cannot hold that handicap";
	return *why ? -1 : 0;
}

int64_t games_create_scheduled(struct server *srv, int64_t black_id, int64_t white_id,
			       const struct game_settings *set, int handicap, int64_t tournament_id,
			       int round, double start_at)
{
	const char *why;
	if (games_schedule_check(set, handicap, &why) < 0) {
		log_msg(LOGL_ERROR, "schedule", "black=%lld white=%lld size=%d handicap=%d: %s",
			(long long)black_id, (long long)white_id, set->size, handicap, why);
		return -1;
	}
	struct game *g = game_alloc();
	if (!g)
		return -1;
	g->rules = set->rules;
	g->time = set->time;
	game_control_from_time(&g->time, &g->cc);
	g->lateness_limit_s = set->lateness_limit_s > 0 ? set->lateness_limit_s : 0; /* 0: none */
	g->row.black_id = black_id;
	g->row.white_id = white_id;
	g->row.size = set->size;
	/* seed 000 (docs/rules.md §5, Art. 5.3): the bar replaces komi, so the prediction
	 * ruleset's own (0) until the predictions give one, as a free challenge's; the event's
	 * komi was kept and went into a record that ended before them (KM[7.5]) */
	const struct ruleset *rs = ruleset_of_rules(&set->rules);
	g->row.komi = rs->bar == RULESET_BAR_PREDICTION ? rs->default_komi
			: handicap >= 1 ? set->handicap_komi : set->komi;
	g->row.handicap = handicap;
	g->row.rated = set->rated;
	g->row.tournament_id = tournament_id;
	g->row.round = round;
	g->row.start_at = start_at;
	g->row.created_at = fairclock_wall_s();
	snprintf(g->row.phase, sizeof g->row.phase, "scheduled");
	json_t *tj = proto_time_to_json(&g->time), *rj = proto_rules_to_json(&g->rules);
	g->row.time_control = json_dumps(tj, JSON_COMPACT);
	g->row.rules = json_dumps(rj, JSON_COMPACT);
	json_decref(tj);
	json_decref(rj);
	if (game_names_of(srv, g) < 0 || game_start_referee(g) < 0) {
		log_msg(LOGL_ERROR, "schedule", "black=%lld white=%lld", (long long)black_id, (long long)white_id);
		game_release(g);
		return -1;
	}
	g->ref.phase = PHASE_SCHEDULED;
	server_txn(srv);
	if (store_game_create(srv->store, &g->row, &g->id) != STORE_OK)
		game_persist_failed(srv, "schedule");
	g->row.id = g->id;
	game_save(srv, g); /* the extra state (lateness limit, presence) */
	game_go_live(srv, g);
	game_send_start(srv, g);
	log_msg(LOGL_INFO, "game_scheduled", "game=%lld black=%s white=%s tournament=%lld round=%d",
		(long long)g->id, g->black, g->white, (long long)tournament_id, round);
	return g->id;
}

/* Send the events of a recorded referee move (game_record_move first: its clocks are the row's);
 * retires the game if it ended. Returns true if it did (g is gone). */
bool game_announce_move(struct server *srv, struct game *g, enum color me,
			const struct referee_move *m, const char *forfeit)
{
	if (m->number)
		game_send_move(srv, g, me, m, forfeit);
	if (m->warning) {
		json_t *e = proto_event("game.warning");
		json_object_set_new(e, "game", json_integer(g->id));
		json_object_set_new(e, "color", json_string(game_color_name(me)));
		json_object_set_new(e, "reason", json_string(referee_offence_name(m->offence)));
		json_object_set_new(e, "warnings", json_integer(g->ref.warnings[me]));
		game_send(srv, g, e);
		json_decref(e);
	}
	if (m->counting) {
		g->count_since = fairclock_fair_ms(srv);
		json_t *e = proto_event("game.counting");
		json_object_set_new(e, "game", json_integer(g->id));
		if (srv->set.counting_timeout_s) /* the claims' time, then the count lapses */
			json_object_set_new(e, "claim_ms",
					    json_integer((json_int_t)srv->set.counting_timeout_s * 1000));
		game_send(srv, g, e);
		json_decref(e);
	}
	if (g->ref.phase == PHASE_ENDED) {
		game_send_end(srv, g);
		game_retire(srv, g);
		return true;
	}
	game_arm(g);
	return false;
}

/* ---- the prediction ruleset's stages (seed 000, Art. 5.2-5.3) ---- */

void game_predict_lose(struct server *srv, struct game *g, enum predict_role loser,
		       enum ruleset_win how)
{
	/* Colours are not decided yet: the winner is recorded as White (docs/rules.md). */
	if (game_role_col(g, loser) == WHITE)
		game_predict_swap_columns(g);
	uint64_t now = fairclock_fair_ms(srv);
	game_predict_allowance_stop(g, PREDICT_FIRST, now);
	game_predict_allowance_stop(g, PREDICT_SECOND, now);
	g->pred_gen++;
	log_msg(LOGL_INFO, "prediction_lost", "game=%lld loser=%s", (long long)g->id, g->black);
	game_end(srv, g, g->rs->result_win(WHITE, how), how == RULESET_WIN_TIME ? END_TIME
		 : how == RULESET_WIN_FORFEIT ? END_LATENESS : END_RESIGNATION);
}

bool game_predict_timer(struct server *srv, struct game *g)
{
	if (!game_predict_before_play(g) || g->paused)
		return false;
	uint64_t now = fairclock_fair_ms(srv);
	if (g->ref.phase == PHASE_OPENING && g->cc.system != CLOCK_NONE) {
		enum predict_role p = game_predict_placer(g);
		enum color col = game_role_col(g, p);
		struct clock_state st;
		/* with the placer's lag credit, as a placement is judged (game_place) */
		if (game_flag_fallen(g, col, &st)) {
			g->clk[col] = st;
			/* Art. 22.4 as in game_flag_fall: a placer who never came loses by forfeit
			 * (reason lateness); nobody came, both lose */
			if (g->row.start_at > 0 && !g->present[col])
				absent_loses(srv, g, col, "flag");
			else
				game_predict_lose(srv, g, p, RULESET_WIN_TIME);
			return true;
		}
	}
	for (int r = 0; r < 2; r++)
		if (game_predict_allowance_left(g, (enum predict_role)r, now) <= 0) {
			game_predict_lose(srv, g, (enum predict_role)r, RULESET_WIN_TIME);
			return true;
		}
	return false;
}

