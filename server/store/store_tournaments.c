/* store_tournaments: tournaments (migration 0003). See store.h. */
#include <stdlib.h>
#include <string.h>
#include "store_int.h"

/* ---- Tournaments ---- */

enum store_rc store_tournament_create(struct store *s, const char *name, const char *system,
		const char *state_json, int64_t *id)
{
	size_t n = name ? strlen(name) : 0, m = system ? strlen(system) : 0;
	if (n < 1 || n > STORE_TOURNAMENT_NAME_MAX)
		return store_fail(s, STORE_ERROR, "a tournament name is 1 to %d bytes",
				STORE_TOURNAMENT_NAME_MAX);
	if (m < 1 || m >= STORE_SYSTEM_SIZE)
		return store_fail(s, STORE_ERROR, "a tournament system is 1 to %d bytes",
				STORE_SYSTEM_SIZE - 1);
	if (!state_json)
		return store_fail(s, STORE_ERROR, "no tournament state");
	struct binder b = store_binder(s, ST_TOURNAMENT_CREATE);
	b_text(&b, P_NAME, name);
	b_text(&b, P_SYSTEM, system);
	b_text(&b, P_STATE, state_json);
	enum store_rc r = store_run(s, &b);
	if (r == STORE_CONFLICT)
		return store_fail(s, STORE_CONFLICT, "the tournament name \"%s\" is taken", name);
	if (r == STORE_OK && id)
		*id = sqlite3_last_insert_rowid(s->db);
	return r;
}

enum store_rc store_tournament_update(struct store *s, int64_t id, const char *state_json)
{
	if (!state_json)
		return store_fail(s, STORE_ERROR, "no tournament state");
	struct binder b = store_binder(s, ST_TOURNAMENT_UPDATE);
	b_int(&b, P_ID, id);
	b_text(&b, P_STATE, state_json);
	return store_run_one(s, &b, "tournament");
}

enum store_rc store_tournament_delete(struct store *s, int64_t id, int *ngames)
{
	/* its number is kept, never given again (migration 0010); under the delete's condition */
	struct binder b = store_binder(s, ST_TOURNAMENT_TOMBSTONE);
	b_int(&b, P_ID, id);
	enum store_rc r = store_run(s, &b);
	if (r != STORE_OK)
		return r;
	b = store_binder(s, ST_TOURNAMENT_DELETE);
	b_int(&b, P_ID, id);
	r = store_run(s, &b);
	if (r != STORE_OK || sqlite3_changes(s->db) == 1)
		return r;
	/* nothing deleted: it has games, or there is no such tournament */
	b = store_binder(s, ST_TOURNAMENT_HAS_GAMES);
	b_int(&b, P_ID, id);
	if (b.rc != SQLITE_OK)
		return store_bind_fail(s, &b);
	int n = 0, rc = sqlite3_step(b.st);
	if (rc == SQLITE_ROW)
		n = sqlite3_column_int(b.st, 0);
	store_done(b.st);
	if (rc != SQLITE_ROW)
		return store_sql_fail(s, rc);
	if (ngames)
		*ngames = n;
	if (n > 0)
		return store_fail(s, STORE_CONFLICT, "tournament %lld has %d games", (long long)id, n);
	return store_fail(s, STORE_NOT_FOUND, "no tournament %lld", (long long)id);
}

enum store_rc store_entrant_delete(struct store *s, int64_t player_id)
{
	struct binder b = store_binder(s, ST_ENTRANT_PROFILE_DELETE);
	b_int(&b, P_PLAYER_ID, player_id);
	enum store_rc r = store_run_one(s, &b, "entrant without games");
	if (r != STORE_OK)
		return r;
	b = store_binder(s, ST_ENTRANT_DELETE);
	b_int(&b, P_PLAYER_ID, player_id);
	return store_run_one(s, &b, "entrant");
}

void store_tournament_clear(struct store_tournament *t)
{
	if (!t)
		return;
	free(t->state);
	t->state = NULL;
}

/* Read the current row into *t (zeroed first); on failure *t holds nothing to free. */
static enum store_rc read_tournament(struct store *s, sqlite3_stmt *st, struct store_tournament *t)
{
	enum store_rc r;
	memset(t, 0, sizeof *t);
	t->id = sqlite3_column_int64(st, TC_ID);
	t->created_at = sqlite3_column_double(st, TC_CREATED_AT);
	if ((r = store_col_copy(s, st, TC_NAME, t->name, sizeof t->name)) != STORE_OK
			|| (r = store_col_copy(s, st, TC_SYSTEM, t->system, sizeof t->system)) != STORE_OK
			|| (r = store_col_dup(s, st, TC_STATE, &t->state)) != STORE_OK)
		store_tournament_clear(t);
	return r;
}

/* Step a bound one-row query into *t. */
static enum store_rc tournament_one(struct store *s, struct binder *b, struct store_tournament *t)
{
	enum store_rc r;
	memset(t, 0, sizeof *t);
	if (b->rc != SQLITE_OK)
		return store_bind_fail(s, b);
	int rc = sqlite3_step(b->st);
	if (rc == SQLITE_ROW)
		r = read_tournament(s, b->st, t);
	else if (rc == SQLITE_DONE)
		r = store_fail(s, STORE_NOT_FOUND, "no such tournament");
	else
		r = store_sql_fail(s, rc);
	store_done(b->st);
	return r;
}

enum store_rc store_tournament_get(struct store *s, int64_t id, struct store_tournament *out)
{
	struct binder b = store_binder(s, ST_TOURNAMENT_GET);
	b_int(&b, P_ID, id);
	return tournament_one(s, &b, out);
}

enum store_rc store_tournament_by_name(struct store *s, const char *name,
		struct store_tournament *out)
{
	if (!name) {
		memset(out, 0, sizeof *out);
		return store_fail(s, STORE_ERROR, "no name");
	}
	struct binder b = store_binder(s, ST_TOURNAMENT_BY_NAME);
	b_text(&b, P_NAME, name);
	return tournament_one(s, &b, out);
}

static enum store_rc row_tournament(struct store *s, sqlite3_stmt *st, void *out)
{
	return read_tournament(s, st, out);
}

enum store_rc store_tournaments_list(struct store *s, store_tournament_cb cb, void *ctx)
{
	struct store_vec l = STORE_VEC_INIT(struct store_tournament);
	sqlite3_stmt *st = s->st[ST_TOURNAMENTS_LIST];
	enum store_rc r = store_check_idle(s, st, "store_tournaments_list");
	if (r != STORE_OK)
		return r;
	struct store_tournament *t = NULL;
	if ((r = store_collect(s, st, &l, row_tournament)) == STORE_OK) {
		t = l.v;
		for (size_t i = 0; i < l.n; i++)
			if (cb(ctx, &t[i]) != 0)
				break;
	}
	t = l.v;
	for (size_t i = 0; i < l.n; i++)
		store_tournament_clear(&t[i]);
	store_vec_free(&l);
	return r;
}

