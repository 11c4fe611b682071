/* store_games: games, the unfinished ones with their moves, warnings. See store.h. */
#include <stdlib.h>
#include <string.h>
#include "store_int.h"

static const char *const phases[] = { "pending", "scheduled", "playing", "counting", "ended",
	NULL };
static const char *const color_choices[] = { "nigiri", "black", "white", NULL };

/* ---- Games ---- */

static enum store_rc check_game(struct store *s, const struct store_game *g)
{
	if (!store_fits(g->phase, sizeof g->phase) || !store_in_list(g->phase, phases))
		return store_fail(s, STORE_ERROR, "unknown game phase");
	if (!store_fits(g->color_choice, sizeof g->color_choice)
			|| (g->color_choice[0] && !store_in_list(g->color_choice, color_choices)))
		return store_fail(s, STORE_ERROR, "unknown color choice (nigiri, black or white)");
	if (!store_fits(g->result, sizeof g->result) || !store_fits(g->reason, sizeof g->reason))
		return store_fail(s, STORE_ERROR, "game result or reason not terminated");
	if (g->handicap < 0 || g->warnings_b < 0 || g->warnings_w < 0 || g->round < 0)
		return store_fail(s, STORE_ERROR, "negative handicap, warnings or round");
	return STORE_OK;
}

/* The per-move state's parameters (GAME_STATE_SET). */
static void bind_game_state(struct binder *b, const struct store_game *g)
{
	b_opt(b, P_RESULT, g->result);
	b_opt(b, P_REASON, g->reason);
	b_text(b, P_CLOCKS, g->clocks);
	b_int(b, P_WARNINGS_B, g->warnings_b);
	b_int(b, P_WARNINGS_W, g->warnings_w);
	b_text(b, P_EXTRA, g->extra);
}

/* Every column but id. */
static void bind_game(struct binder *b, const struct store_game *g)
{
	b_int(b, P_BLACK_ID, g->black_id);
	b_int(b, P_WHITE_ID, g->white_id);
	b_int(b, P_SIZE, g->size);
	b_double(b, P_KOMI, g->komi);
	b_int(b, P_HANDICAP, g->handicap);
	b_int(b, P_RATED, g->rated ? 1 : 0);
	b_text(b, P_TIME_CONTROL, g->time_control);
	b_text(b, P_RULES, g->rules);
	b_text(b, P_PHASE, g->phase);
	b_id(b, P_CHALLENGER_ID, g->challenger_id);
	b_opt(b, P_COLOR_CHOICE, g->color_choice);
	b_id(b, P_TOURNAMENT_ID, g->tournament_id);
	b_id(b, P_ROUND, g->round);
	b_time(b, P_START_AT, g->start_at);
	b_double(b, P_CREATED_AT, g->created_at);
	b_time(b, P_ENDED_AT, g->ended_at);
	bind_game_state(b, g);
}

enum store_rc store_game_create(struct store *s, const struct store_game *g, int64_t *id)
{
	enum store_rc r = check_game(s, g);
	if (r != STORE_OK)
		return r;
	struct binder b = store_binder(s, ST_GAME_CREATE);
	bind_game(&b, g);
	if ((r = store_run(s, &b)) == STORE_OK && id)
		*id = sqlite3_last_insert_rowid(s->db);
	return r;
}

enum store_rc store_game_update(struct store *s, const struct store_game *g)
{
	enum store_rc r = check_game(s, g);
	if (r != STORE_OK)
		return r;
	/* The first statement writes the whole row if a column other than the per-move state
	 * changed (then it is all there is to do); otherwise the second writes the state. Each
	 * is one statement, so a failure changes nothing. */
	struct binder b = store_binder(s, ST_GAME_UPDATE);
	bind_game(&b, g);
	b_int(&b, P_ID, g->id);
	if ((r = store_run(s, &b)) != STORE_OK || sqlite3_changes(s->db) > 0)
		return r;
	struct binder st = store_binder(s, ST_GAME_UPDATE_STATE);
	bind_game_state(&st, g);
	b_int(&st, P_ID, g->id);
	return store_run_one(s, &st, "game");
}

enum store_rc store_game_update_state(struct store *s, const struct store_game *g)
{
	enum store_rc r = check_game(s, g);
	if (r != STORE_OK)
		return r;
	/* Only the parameters GAME_STATE_SET names. */
	struct binder st = store_binder(s, ST_GAME_UPDATE_STATE);
	bind_game_state(&st, g);
	b_int(&st, P_ID, g->id);
	return store_run_one(s, &st, "game");
}

void store_game_clear(struct store_game *g)
{
	if (!g)
		return;
	free(g->time_control);
	free(g->rules);
	free(g->clocks);
	free(g->extra);
	g->time_control = g->rules = g->clocks = g->extra = NULL;
}

/* Read the current row into *g (zeroed first); on failure *g holds nothing to free. */
enum store_rc store_read_game(struct store *s, sqlite3_stmt *st, struct store_game *g)
{
	enum store_rc r;
	memset(g, 0, sizeof *g);
	g->id = sqlite3_column_int64(st, GC_ID);
	g->black_id = sqlite3_column_int64(st, GC_BLACK);
	g->white_id = sqlite3_column_int64(st, GC_WHITE);
	g->size = sqlite3_column_int(st, GC_SIZE);
	g->komi = sqlite3_column_double(st, GC_KOMI);
	g->handicap = sqlite3_column_int(st, GC_HANDICAP);
	g->rated = sqlite3_column_int(st, GC_RATED) != 0;
	g->challenger_id = sqlite3_column_int64(st, GC_CHALLENGER);
	g->tournament_id = sqlite3_column_int64(st, GC_TOURNAMENT);
	g->round = sqlite3_column_int(st, GC_ROUND);
	g->start_at = sqlite3_column_double(st, GC_START_AT);
	g->created_at = sqlite3_column_double(st, GC_CREATED_AT);
	g->ended_at = sqlite3_column_double(st, GC_ENDED_AT);
	g->warnings_b = sqlite3_column_int(st, GC_WARNINGS_B);
	g->warnings_w = sqlite3_column_int(st, GC_WARNINGS_W);
	if ((r = store_col_copy(s, st, GC_PHASE, g->phase, sizeof g->phase)) != STORE_OK
			|| (r = store_col_copy(s, st, GC_RESULT, g->result, sizeof g->result)) != STORE_OK
			|| (r = store_col_copy(s, st, GC_REASON, g->reason, sizeof g->reason)) != STORE_OK
			|| (r = store_col_copy(s, st, GC_COLOR_CHOICE, g->color_choice,
					sizeof g->color_choice)) != STORE_OK
			|| (r = store_col_dup(s, st, GC_TIME_CONTROL, &g->time_control)) != STORE_OK
			|| (r = store_col_dup(s, st, GC_RULES, &g->rules)) != STORE_OK
			|| (r = store_col_dup(s, st, GC_CLOCKS, &g->clocks)) != STORE_OK
			|| (r = store_col_dup(s, st, GC_EXTRA, &g->extra)) != STORE_OK)
		store_game_clear(g);
	return r;
}

enum store_rc store_game_get(struct store *s, int64_t id, struct store_game *out)
{
	sqlite3_stmt *st = s->st[ST_GAME_GET];
	enum store_rc r;
	struct binder b = store_binder(s, ST_GAME_GET);
	b_int(&b, P_ID, id);
	if (b.rc != SQLITE_OK)
		return store_bind_fail(s, &b);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		r = store_read_game(s, st, out);
	else if (rc == SQLITE_DONE)
		r = store_fail(s, STORE_NOT_FOUND, "no such game");
	else
		r = store_sql_fail(s, rc);
	store_done(st);
	return r;
}

static enum store_rc row_game(struct store *s, sqlite3_stmt *st, void *out)
{
	return store_read_game(s, st, out);
}

/* Games collected from a query before any callback runs, so that callbacks may write: step
 * a bound query to the end, appending each row to *l (a vec of struct store_game); resets
 * the statement. */
enum store_rc store_collect_games(struct store *s, sqlite3_stmt *st, struct store_vec *l)
{
	return store_collect(s, st, l, row_game);
}

/* Free a vec of games and what they own. */
void store_games_free(struct store_vec *l)
{
	struct store_game *g = l->v;
	for (size_t i = 0; i < l->n; i++)
		store_game_clear(&g[i]);
	store_vec_free(l);
}

/* Call cb for each game of *l, until it asks to stop. */
void store_games_each(struct store_vec *l, store_game_cb cb, void *ctx)
{
	struct store_game *g = l->v;
	for (size_t i = 0; i < l->n; i++)
		if (cb(ctx, &g[i]) != 0)
			break;
}

enum store_rc store_games_list(struct store *s, const struct store_games_filter *filter,
		store_game_cb cb, void *ctx)
{
	static const struct store_games_filter all = { NULL, 0, 0, 0, 0 };
	const struct store_games_filter *f = filter ? filter : &all;
	enum stmt_id id = f->tournament_id ? ST_GAMES_BY_TOURNAMENT
		: f->player_id ? ST_GAMES_BY_PLAYER
		: f->phase ? ST_GAMES_BY_PHASE : ST_GAMES_ANY;
	struct store_vec l = STORE_VEC_INIT(struct store_game);
	enum store_rc r;
	if (f->limit < 0 || f->before < 0)
		return store_fail(s, STORE_ERROR, "negative limit or before");
	if ((r = store_check_idle(s, s->st[id], "store_games_list")) != STORE_OK)
		return r;
	struct binder b = store_binder(s, id);
	b_text(&b, P_PHASE, f->phase);
	b_int(&b, P_PLAYER_ID, f->player_id);
	b_int(&b, P_TOURNAMENT_ID, f->tournament_id);
	b_int(&b, P_LIMIT, f->limit ? f->limit : -1);
	b_int(&b, P_BEFORE, f->before ? f->before : INT64_MAX);
	if (b.rc != SQLITE_OK)
		return store_bind_fail(s, &b);
	if ((r = store_collect_games(s, b.st, &l)) == STORE_OK)
		store_games_each(&l, cb, ctx);
	store_games_free(&l);
	return r;
}

enum store_rc store_games_unfinished_count(struct store *s, size_t *n)
{
	sqlite3_stmt *st = s->st[ST_GAMES_UNFINISHED_COUNT];
	enum store_rc r = store_check_idle(s, st, "store_games_unfinished_count");
	if (r != STORE_OK)
		return r;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*n = (size_t)sqlite3_column_int64(st, 0);
	store_done(st);
	return rc == SQLITE_ROW ? STORE_OK : store_sql_fail(s, rc);
}

enum store_rc store_games_unfinished(struct store *s, store_unfinished_cb cb, void *ctx)
{
	sqlite3_stmt *st = s->st[ST_GAMES_UNFINISHED];
	struct store_vec games = STORE_VEC_INIT(struct store_game);
	struct store_vec moves = STORE_VEC_INIT(struct store_move);
	enum store_rc r;
	if ((r = store_check_idle(s, st, "store_games_unfinished")) != STORE_OK)
		return r;
	/* One read transaction for the whole listing, callbacks included, instead of one per
	 * statement: each of those locked and unlocked the database and the WAL index (4 fcntl
	 * calls), about a quarter of a restart's loading of 10,000 games (issue 22). */
	bool own = !store_in_transaction(s);
	if (own && sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return store_fail(s, STORE_ERROR, "begin: %s", sqlite3_errmsg(s->db));
	if ((r = store_collect_games(s, st, &games)) != STORE_OK)
		goto out;
	struct store_game *g = games.v;
	for (size_t i = 0; i < games.n; i++) {
		if ((r = store_collect_moves(s, g[i].id, &moves)) != STORE_OK)
			break;
		int stop = cb(ctx, &g[i], moves.v, moves.n);
		store_moves_free(&moves);
		if (stop)
			break;
	}
out:
	/* Committed whatever came of the listing: the callbacks' writes are theirs to make. */
	if (own && store_in_transaction(s) &&
	    sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		enum store_rc c = store_fail(s, STORE_ERROR, "commit: %s", sqlite3_errmsg(s->db));
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		store_maybe_undone(s);
		if (r == STORE_OK)
			r = c;
	}
	store_moves_free(&moves);
	store_games_free(&games);
	return r;
}

/* ---- Warnings ---- */

enum store_rc store_warning_add(struct store *s, int64_t game_id, const struct store_warning *w,
		int64_t *id)
{
	if (w->color != 'B' && w->color != 'W')
		return store_fail(s, STORE_ERROR, "warning colour must be 'B' or 'W'");
	if (!store_fits(w->reason, sizeof w->reason))
		return store_fail(s, STORE_ERROR, "warning reason not terminated");
	if (w->number < 0)
		return store_fail(s, STORE_ERROR, "negative move number");
	struct binder b = store_binder(s, ST_WARNING_ADD);
	b_int(&b, P_GAME_ID, game_id);
	b_color(&b, P_COLOR, w->color);
	b_text(&b, P_REASON, w->reason);
	b_id(&b, P_NUMBER, w->number);
	b_double(&b, P_AT, w->at);
	b_int(&b, P_BY_DIRECTOR, w->by_director > 0);
	enum store_rc r = store_run(s, &b);
	if (r == STORE_OK && id)
		*id = sqlite3_last_insert_rowid(s->db);
	return r;
}

enum store_rc store_warnings_get(struct store *s, int64_t game_id, store_warning_cb cb,
		void *ctx)
{
	sqlite3_stmt *st = s->st[ST_WARNINGS_GET];
	enum store_rc r = store_check_idle(s, st, "store_warnings_get");
	struct store_warning w;
	int rc;
	if (r != STORE_OK)
		return r;
	struct binder b = store_binder(s, ST_WARNINGS_GET);
	b_int(&b, P_GAME_ID, game_id);
	if (b.rc != SQLITE_OK)
		return store_bind_fail(s, &b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&w, 0, sizeof w);
		w.id = sqlite3_column_int64(st, WC_ID);
		w.color = store_col_color(st, WC_COLOR);
		w.number = sqlite3_column_int(st, WC_NUMBER);
		w.at = sqlite3_column_double(st, WC_AT);
		w.by_director = sqlite3_column_type(st, WC_BY_DIRECTOR) == SQLITE_NULL ? -1 :
				sqlite3_column_int(st, WC_BY_DIRECTOR);
		if ((r = store_col_copy(s, st, WC_REASON, w.reason, sizeof w.reason)) != STORE_OK
				|| cb(ctx, &w) != 0)
			break;
	}
	if (r == STORE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
		r = store_sql_fail(s, rc);
	store_done(st);
	return r;
}

