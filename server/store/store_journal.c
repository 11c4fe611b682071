/* store_journal: moves, written to the move journal (migration 0005) and folded into the
 * moves table in batches. See store.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store_int.h"

/* ---- The move journal (migration 0005) ---- */

static size_t key_slot(const struct key_set *ks, int64_t game, int number)
{
	uint64_t h = (uint64_t)game * 0x9E3779B97F4A7C15u ^
		(uint64_t)(uint32_t)number * 0xC2B2AE3D27D4EB4Fu;
	size_t i = (size_t)(h ^ h >> 31) & (ks->cap - 1);
	while (ks->k[i].used && (ks->k[i].game != game || ks->k[i].number != number))
		i = (i + 1) & (ks->cap - 1);
	return i;
}

static struct key_entry *key_find(const struct key_set *ks, int64_t game, int number)
{
	if (!ks->cap)
		return NULL;
	struct key_entry *e = &ks->k[key_slot(ks, game, number)];
	return e->used ? e : NULL;
}

/* The entry of a key, added (value 0) if new; NULL when out of memory. */
static struct key_entry *key_put(struct key_set *ks, int64_t game, int number)
{
	struct key_entry *e = key_find(ks, game, number);
	if (e)
		return e;
	if (2 * (ks->n + 1) > ks->cap) {
		struct key_set old = *ks;
		size_t cap = old.cap ? 2 * old.cap : STORE_JOURNAL_KEYS_START;
		struct key_entry *k = calloc(cap, sizeof *k);
		if (!k)
			return NULL;
		ks->k = k;
		ks->cap = cap;
		for (size_t i = 0; i < old.cap; i++)
			if (old.k[i].used)
				ks->k[key_slot(ks, old.k[i].game, old.k[i].number)] = old.k[i];
		free(old.k);
	}
	e = &ks->k[key_slot(ks, game, number)];
	*e = (struct key_entry){ game, number, 0, true };
	ks->n++;
	return e;
}

static void key_clear(struct key_set *ks)
{
	if (ks->cap)
		memset(ks->k, 0, ks->cap * sizeof *ks->k);
	ks->n = 0;
}

/* Read the keys again from the table (after a rollback, which may have undone rows). */
enum store_rc store_journal_reload(struct store *s)
{
	sqlite3_stmt *st = s->st[ST_JOURNAL_KEYS];
	enum store_rc r = STORE_OK;
	int rc;
	key_clear(&s->journal);
	/* Another process (tengend grant opening the database) may have folded rows meanwhile. */
	key_clear(&s->folded_max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!key_put(&s->journal, sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1))) {
			r = store_fail(s, STORE_ERROR, "out of memory");
			break;
		}
	}
	if (r == STORE_OK && rc != SQLITE_DONE)
		r = store_sql_fail(s, rc);
	store_done(st);
	s->journal_stale = r != STORE_OK;
	return r;
}

/* The int the statement `id` answers for :game_id = game (and :number = number if it has
 * one); it returns one row. */
static enum store_rc query_int(struct store *s, enum stmt_id id, int64_t game, int number,
		int *out)
{
	struct binder q = store_binder(s, id);
	b_int(&q, P_GAME_ID, game);
	if (q.idx[P_NUMBER])
		b_int(&q, P_NUMBER, number);
	if (q.rc != SQLITE_OK)
		return store_bind_fail(s, &q);
	int rc = sqlite3_step(q.st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(q.st, 0);
	store_done(q.st);
	return rc == SQLITE_ROW ? STORE_OK : store_sql_fail(s, rc);
}

size_t store_journal_rows(const struct store *s)
{
	return s->journal.n;
}

enum store_rc store_journal_fold(struct store *s, int *rows)
{
	enum store_rc r = STORE_OK;
	int n = 0, fk = 0, ignore = 1;
	if (rows)
		*rows = 0;
	if (store_in_transaction(s))
		return store_fail(s, STORE_ERROR, "store_journal_fold: a transaction is open");
	/* The journal's rows met the same constraints and foreign key when they were written,
	 * and games are never deleted: the fold does not check them a second time. Both pragmas
	 * are no-ops inside a transaction, so they are set around it. (Changing foreign_keys
	 * makes SQLite prepare each statement again at its next use: once per fold.) */
	if (sqlite3_exec(s->db, "PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON",
			 NULL, NULL, NULL) != SQLITE_OK)
		r = store_fail(s, STORE_ERROR, "%s", sqlite3_errmsg(s->db));
	else if ((r = store_begin(s)) == STORE_OK) {
		struct binder fold = store_binder(s, ST_JOURNAL_FOLD);
		struct binder clear = store_binder(s, ST_JOURNAL_CLEAR);
		if ((r = store_run(s, &fold)) == STORE_OK) {
			n = sqlite3_changes(s->db);
			r = store_run(s, &clear);
		}
		if (r == STORE_OK)
			r = store_commit(s);
		if (r != STORE_OK)
			store_rollback(s); /* keeps s->err */
	}
	if (r == STORE_OK) {
		key_clear(&s->journal);
		key_clear(&s->folded_max); /* read again as games move on */
		s->journal_stale = false;
		if (rows)
			*rows = n;
	} else {
		char why[STORE_ERR_MAX];
		snprintf(why, sizeof why, "%s", s->err);
		store_fail(s, r, "fold the move journal: %s", why);
	}
	if (sqlite3_exec(s->db, "PRAGMA foreign_keys = ON; PRAGMA ignore_check_constraints = OFF",
			 NULL, NULL, NULL) != SQLITE_OK ||
	    store_pragma(s->db, "PRAGMA foreign_keys", NULL, 0, &fk) != SQLITE_OK || fk != 1 ||
	    store_pragma(s->db, "PRAGMA ignore_check_constraints", NULL, 0, &ignore) != SQLITE_OK ||
	    ignore != 0) {
		/* The store must never go on accepting what the schema refuses. */
		fprintf(stderr, "store: cannot turn foreign keys and checks back on after a "
			"fold: %s\n", sqlite3_errmsg(s->db));
		abort();
	}
	return r;
}

/* ---- The fold off the store's thread (store.h) ---- */

enum store_rc store_journal_fold_begin(struct store *s, int64_t *hi)
{
	*hi = 0;
	if (store_in_transaction(s))
		return store_fail(s, STORE_ERROR, "store_journal_fold_begin: a transaction is open");
	if (s->folding.n)
		return store_fail(s, STORE_ERROR, "store_journal_fold_begin: a fold is under way");
	struct binder b = store_binder(s, ST_JOURNAL_MAX);
	int rc = sqlite3_step(b.st);
	if (rc == SQLITE_ROW)
		*hi = sqlite3_column_int64(b.st, 0);
	store_done(b.st);
	if (rc != SQLITE_ROW)
		return store_sql_fail(s, rc);
	/* The keys written so far are the fold's until it ends; new ones start a set of their
	 * own (both are looked at by store_move_add). */
	struct key_set t = s->folding;
	s->folding = s->journal;
	s->journal = t;
	return STORE_OK;
}

void store_journal_fold_end(struct store *s, bool complete)
{
	key_clear(&s->folding);
	key_clear(&s->folded_max); /* the games' highest folded numbers moved on */
	/* Rows left in the journal: their keys are read again now, so that they count in
	 * store_journal_rows (a retry is due) and are refused as duplicates. */
	if (!complete)
		store_journal_reload(s); /* on failure it leaves journal_stale set: read later */
}

/* ---- Moves ---- */

static enum store_rc read_move(struct store *s, sqlite3_stmt *st, struct store_move *m)
{
	enum store_rc r;
	memset(m, 0, sizeof *m);
	m->number = sqlite3_column_int(st, MC_NUMBER);
	m->color = store_col_color(st, MC_COLOR);
	m->at = sqlite3_column_double(st, MC_AT);
	if ((r = store_col_copy(s, st, MC_VERTEX, m->vertex, sizeof m->vertex)) != STORE_OK
			|| (r = store_col_copy(s, st, MC_FORFEIT, m->forfeit, sizeof m->forfeit)) != STORE_OK)
		return r;
	m->clocks = (const char *)sqlite3_column_text(st, MC_CLOCKS);
	return STORE_OK;
}

/* A move copied out of the row (clocks malloc'd); on failure nothing to free. */
static enum store_rc row_move_copy(struct store *s, sqlite3_stmt *st, void *out)
{
	struct store_move *m = out;
	char *clocks = NULL;
	enum store_rc r;
	if ((r = read_move(s, st, m)) != STORE_OK
			|| (r = store_col_dup(s, st, MC_CLOCKS, &clocks)) != STORE_OK)
		return r;
	m->clocks = clocks;
	return STORE_OK;
}

/* Free a vec of moves copied out (their clocks malloc'd). */
void store_moves_free(struct store_vec *l)
{
	struct store_move *m = l->v;
	for (size_t i = 0; i < l->n; i++)
		free((char *)m[i].clocks);
	store_vec_free(l);
}

/* Append the moves of one game, copied out, to *l (a vec of struct store_move). */
enum store_rc store_collect_moves(struct store *s, int64_t game_id, struct store_vec *l)
{
	struct binder b = store_binder(s, ST_MOVES_GET);
	b_int(&b, P_GAME_ID, game_id);
	if (b.rc != SQLITE_OK)
		return store_bind_fail(s, &b);
	return store_collect(s, b.st, l, row_move_copy);
}
enum store_rc store_move_add(struct store *s, int64_t game_id, const struct store_move *m)
{
	if (m->number < 1)
		return store_fail(s, STORE_ERROR, "move number %d: moves are numbered from 1", m->number);
	if (m->color != 'B' && m->color != 'W')
		return store_fail(s, STORE_ERROR, "move colour must be 'B' or 'W'");
	if (!store_fits(m->vertex, sizeof m->vertex) || !m->vertex[0]
			|| !store_fits(m->forfeit, sizeof m->forfeit))
		return store_fail(s, STORE_ERROR, "move vertex empty or not terminated");
	if (s->journal_stale && store_journal_reload(s) != STORE_OK)
		return STORE_ERROR;
	/* The (game_id, number) key: the journal's rows are in memory; moves is asked only for a
	 * number not above the game's highest folded one (never, for moves made in order). */
	enum store_rc r;
	bool taken = key_find(&s->journal, game_id, m->number) != NULL ||
		key_find(&s->folding, game_id, m->number) != NULL;
	if (!taken) {
		struct key_entry *fm = key_find(&s->folded_max, game_id, 0);
		if (!fm) {
			int max = 0;
			if ((r = query_int(s, ST_MOVE_FOLDED_MAX, game_id, 0, &max)) != STORE_OK)
				return r;
			if (!(fm = key_put(&s->folded_max, game_id, 0)))
				return store_fail(s, STORE_ERROR, "out of memory");
			fm->value = max;
		}
		int found = 0;
		if (m->number <= fm->value &&
		    (r = query_int(s, ST_MOVE_FOLDED, game_id, m->number, &found)) != STORE_OK)
			return r;
		taken = found != 0;
	}
	if (taken)
		return store_fail(s, STORE_CONFLICT, "game %lld already has move %d", (long long)game_id,
				m->number);
	struct binder b = store_binder(s, ST_MOVE_ADD);
	b_int(&b, P_GAME_ID, game_id);
	b_int(&b, P_NUMBER, m->number);
	b_color(&b, P_COLOR, m->color);
	b_text(&b, P_VERTEX, m->vertex);
	b_opt(&b, P_FORFEIT, m->forfeit);
	b_text(&b, P_CLOCKS, m->clocks);
	b_double(&b, P_AT, m->at);
	r = store_run(s, &b);
	if (r == STORE_OK && !key_put(&s->journal, game_id, m->number))
		s->journal_stale = true; /* the row is written; its key is reread before next use */
	return r;
}

enum store_rc store_moves_get(struct store *s, int64_t game_id, store_move_cb cb, void *ctx)
{
	sqlite3_stmt *st = s->st[ST_MOVES_GET];
	enum store_rc r = store_check_idle(s, st, "store_moves_get");
	struct store_move m;
	int rc;
	if (r != STORE_OK)
		return r;
	struct binder b = store_binder(s, ST_MOVES_GET);
	b_int(&b, P_GAME_ID, game_id);
	if (b.rc != SQLITE_OK)
		return store_bind_fail(s, &b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((r = read_move(s, st, &m)) != STORE_OK || cb(ctx, &m) != 0)
			break;
	}
	if (r == STORE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
		r = store_sql_fail(s, rc);
	store_done(st);
	return r;
}

