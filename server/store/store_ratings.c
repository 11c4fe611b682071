/* store_ratings: rating history, rewinding it, rated games, the leaderboard (migration
 * 0002). See store.h. */
#include <stdio.h>
#include <string.h>
#include "store_int.h"

/* ---- Ratings ---- */

enum store_rc store_player_set_rated(struct store *s, int64_t id, double rating, double rd,
		double volatility, double at)
{
	struct binder b = store_binder(s, ST_PLAYER_SET_RATED);
	b_int(&b, P_ID, id);
	b_double(&b, P_RATING, rating);
	b_double(&b, P_RD, rd);
	b_double(&b, P_VOLATILITY, volatility);
	b_time(&b, P_AT, at);
	return store_run_one(s, &b, "player");
}

enum store_rc store_player_set_start(struct store *s, int64_t id, const char *rank,
		double rating, double rd, double volatility)
{
	struct store_player p;
	enum store_rc r;
	if (!rank || strlen(rank) >= STORE_RANK_SIZE)
		return store_fail(s, STORE_ERROR, "a declared rank is at most %d bytes", STORE_RANK_SIZE - 1);
	struct binder b = store_binder(s, ST_PLAYER_SET_START);
	b_int(&b, P_ID, id);
	b_opt(&b, P_RANK, rank);
	b_double(&b, P_RATING, rating);
	b_double(&b, P_RD, rd);
	b_double(&b, P_VOLATILITY, volatility);
	if ((r = store_run(s, &b)) != STORE_OK || sqlite3_changes(s->db) > 0)
		return r;
	if ((r = store_player_by_id(s, id, &p)) != STORE_OK)
		return r;
	return store_fail(s, STORE_CONFLICT, "player %lld already has rated games", (long long)id);
}

enum store_rc store_rating_change_add(struct store *s, const struct store_rating_change *c,
		int64_t *id)
{
	if (!(c->rd > 0 && c->rd_before > 0 && c->volatility > 0 && c->volatility_before > 0))
		return store_fail(s, STORE_ERROR, "a rating change needs positive RD and volatility");
	struct binder b = store_binder(s, ST_RATING_ADD);
	b_int(&b, P_PLAYER_ID, c->player_id);
	b_int(&b, P_GAME_ID, c->game_id);
	b_double(&b, P_RATING_BEFORE, c->rating_before);
	b_double(&b, P_RD_BEFORE, c->rd_before);
	b_double(&b, P_VOLATILITY_BEFORE, c->volatility_before);
	b_double(&b, P_RATING, c->rating);
	b_double(&b, P_RD, c->rd);
	b_double(&b, P_VOLATILITY, c->volatility);
	b_double(&b, P_AT, c->at);
	enum store_rc r = store_run(s, &b);
	if (r == STORE_CONFLICT)
		return store_fail(s, STORE_CONFLICT, "player %lld already has a rating change for game %lld",
				(long long)c->player_id, (long long)c->game_id);
	if (r == STORE_OK && id)
		*id = sqlite3_last_insert_rowid(s->db);
	return r;
}

static enum store_rc row_rating_change(struct store *s, sqlite3_stmt *st, void *out)
{
	struct store_rating_change *c = out;
	(void)s;
	c->id = sqlite3_column_int64(st, HC_ID);
	c->player_id = sqlite3_column_int64(st, HC_PLAYER);
	c->game_id = sqlite3_column_int64(st, HC_GAME);
	c->rating_before = sqlite3_column_double(st, HC_RATING_BEFORE);
	c->rd_before = sqlite3_column_double(st, HC_RD_BEFORE);
	c->volatility_before = sqlite3_column_double(st, HC_VOLATILITY_BEFORE);
	c->rating = sqlite3_column_double(st, HC_RATING);
	c->rd = sqlite3_column_double(st, HC_RD);
	c->volatility = sqlite3_column_double(st, HC_VOLATILITY);
	c->at = sqlite3_column_double(st, HC_AT);
	return STORE_OK;
}

/* Rating changes collected before the callbacks run, so that callbacks may write. */
static enum store_rc history_query(struct store *s, enum stmt_id id,
		enum store_param key_param, int64_t key, store_rating_change_cb cb, void *ctx)
{
	struct store_vec l = STORE_VEC_INIT(struct store_rating_change);
	enum store_rc r;
	struct binder b = store_binder(s, id);
	b_int(&b, key_param, key);
	if (b.rc != SQLITE_OK)
		return store_bind_fail(s, &b);
	const struct store_rating_change *c;
	if ((r = store_collect(s, b.st, &l, row_rating_change)) == STORE_OK) {
		c = l.v;
		for (size_t i = 0; i < l.n; i++)
			if (cb(ctx, &c[i]) != 0)
				break;
	}
	store_vec_free(&l);
	return r;
}

enum store_rc store_rating_history(struct store *s, int64_t player_id,
		store_rating_change_cb cb, void *ctx)
{
	return history_query(s, ST_HISTORY_BY_PLAYER, P_PLAYER_ID, player_id, cb, ctx);
}

enum store_rc store_rating_changes_of_game(struct store *s, int64_t game_id,
		store_rating_change_cb cb, void *ctx)
{
	return history_query(s, ST_HISTORY_BY_GAME, P_GAME_ID, game_id, cb, ctx);
}

/* Bind the rating-order position (:at, :game_id) to statement `id`. */
static struct binder bind_position(struct store *s, enum stmt_id id, double at, int64_t game_id)
{
	struct binder b = store_binder(s, id);
	b_double(&b, P_AT, at);
	b_int(&b, P_GAME_ID, game_id);
	return b;
}

enum store_rc store_ratings_rewind(struct store *s, double at, int64_t game_id)
{
	struct binder sp = store_binder(s, ST_SAVEPOINT);
	enum store_rc r = store_run(s, &sp);
	if (r != STORE_OK)
		return r;
	struct binder b = bind_position(s, ST_REWIND_PLAYERS, at, game_id);
	if ((r = store_run(s, &b)) == STORE_OK) {
		b = bind_position(s, ST_REWIND_DELETE, at, game_id);
		r = store_run(s, &b);
	}
	if (r != STORE_OK) {
		char why[STORE_ERR_MAX];
		snprintf(why, sizeof why, "%s", s->err);
		struct binder undo = store_binder(s, ST_ROLLBACK_TO);
		store_run(s, &undo);
		store_fail(s, r, "%s", why);
	}
	struct binder rel = store_binder(s, ST_RELEASE);
	enum store_rc r2 = store_run(s, &rel);
	return r != STORE_OK ? r : r2;
}

enum store_rc store_rated_games(struct store *s, double at, int64_t game_id, store_game_cb cb,
		void *ctx)
{
	struct store_vec l = STORE_VEC_INIT(struct store_game);
	enum store_rc r;
	if ((r = store_check_idle(s, s->st[ST_RATED_GAMES], "store_rated_games")) != STORE_OK)
		return r;
	struct binder b = bind_position(s, ST_RATED_GAMES, at, game_id);
	if (b.rc != SQLITE_OK)
		return store_bind_fail(s, &b);
	if ((r = store_collect_games(s, b.st, &l)) == STORE_OK)
		store_games_each(&l, cb, ctx);
	store_games_free(&l);
	return r;
}

enum store_rc store_leaderboard(struct store *s, enum store_leaderboard_sort sort, int limit,
		store_leaderboard_cb cb, void *ctx)
{
	enum stmt_id id;
	switch (sort) {
	case STORE_SORT_RATING: id = ST_LEADERBOARD_RATING; break;
	case STORE_SORT_NAME: id = ST_LEADERBOARD_NAME; break;
	case STORE_SORT_GAMES: id = ST_LEADERBOARD_GAMES; break;
	case STORE_SORT_LAST_PLAYED: id = ST_LEADERBOARD_LAST_PLAYED; break;
	default: return store_fail(s, STORE_ERROR, "unknown leaderboard order %d", (int)sort);
	}
	if (limit <= 0)
		return store_fail(s, STORE_ERROR, "leaderboard limit must be positive");
	sqlite3_stmt *st = s->st[id];
	enum store_rc r = store_check_idle(s, st, "store_leaderboard");
	struct store_leaderboard_row row;
	int rc;
	if (r != STORE_OK)
		return r;
	struct binder b = store_binder(s, id);
	b_int(&b, P_LIMIT, limit);
	if (b.rc != SQLITE_OK)
		return store_bind_fail(s, &b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((r = store_read_player(s, st, &row.player)) != STORE_OK)
			break;
		row.player.pwhash[0] = '\0';
		row.games = sqlite3_column_int(st, LC_GAMES);
		row.last_played = sqlite3_column_double(st, LC_LAST_PLAYED);
		if (cb(ctx, &row) != 0)
			break;
	}
	if (r == STORE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
		r = store_sql_fail(s, rc);
	store_done(st);
	return r;
}

