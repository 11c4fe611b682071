/* store_journal: moves, written to the move journal (migration 0005) and folded into the
 * moves table in batches. See store.h. */
#include <limits.h>
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
	while (ks->k[i].gen == ks->gen && (ks->k[i].game != game || ks->k[i].number != number))
		i = (i + 1) & (ks->cap - 1);
	return i;
}

static struct key_entry *key_find(const struct key_set *ks, int64_t game, int number)
{
	if (!ks->cap)
		return NULL;
	struct key_entry *e = &ks->k[key_slot(ks, game, number)];
	return e->gen == ks->gen ? e : NULL;
}

/* Room for n keys without growing (so that no rehash of a long journal's keys stalls a
 * move); false when out of memory. */
static bool key_reserve(struct key_set *ks, size_t n)
{
	size_t cap = ks->cap ? ks->cap : STORE_JOURNAL_KEYS_START;
	while (cap < 2 * (n + 1))
		cap *= 2;
	if (cap == ks->cap)
		return true;
	struct key_set old = *ks;
	struct key_entry *k = calloc(cap, sizeof *k);
	if (!k)
		return false;
	ks->k = k;
	ks->cap = cap;
	if (!ks->gen)
		ks->gen = 1;
	for (size_t i = 0; i < old.cap; i++)
		if (old.k[i].gen == old.gen)
			ks->k[key_slot(ks, old.k[i].game, old.k[i].number)] = old.k[i];
	free(old.k);
	return true;
}

/* The entry of a key, added (value 0) if new; NULL when out of memory. */
static struct key_entry *key_put(struct key_set *ks, int64_t game, int number)
{
	struct key_entry *e = key_find(ks, game, number);
	if (e)
		return e;
	if (2 * (ks->n + 1) > ks->cap && !key_reserve(ks, ks->n + 1))
		return NULL;
	e = &ks->k[key_slot(ks, game, number)];
	*e = (struct key_entry){ .game = game, .number = number, .gen = ks->gen };
	ks->n++;
	return e;
}

/* Raise the journal's highest number of a game (journal_max) to `number`; false when out of
 * memory. */
static bool jmax_raise(struct store *s, int64_t game, int number)
{
	struct key_entry *e = key_put(&s->journal_max, game, 0);
	if (!e)
		return false;
	if (number > e->value)
		e->value = number;
	return true;
}

static void key_clear(struct key_set *ks)
{
	if (ks->cap && ++ks->gen == 0) { /* wrapped: the old marks must go */
		memset(ks->k, 0, ks->cap * sizeof *ks->k);
		ks->gen = 1;
	}
	ks->n = 0;
}

enum store_rc store_journal_reserve(struct store *s, size_t rows)
{
	if (!key_reserve(&s->journal, rows) || !key_reserve(&s->folding, rows))
		return store_fail(s, STORE_ERROR, "out of memory");
	return STORE_OK;
}

/* Read the keys again from the table (after a rollback, which may have undone rows). */
enum store_rc store_journal_reload(struct store *s)
{
	sqlite3_stmt *st = s->st[ST_JOURNAL_KEYS];
	enum store_rc r = STORE_OK;
	int rc;
	key_clear(&s->journal);
	key_clear(&s->journal_max);
	/* Another process (tengend grant opening the database) may have folded rows meanwhile. */
	key_clear(&s->folded_max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct key_entry *e = key_put(&s->journal, sqlite3_column_int64(st, 0),
					      sqlite3_column_int(st, 1));
		if (!e || (e->seq = sqlite3_column_int64(st, 2),
			   !jmax_raise(s, sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1)))) {
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
		key_clear(&s->journal_max);
		key_clear(&s->folding_max);
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
	t = s->folding_max; /* and so do the games' highest numbers */
	s->folding_max = s->journal_max;
	s->journal_max = t;
	return STORE_OK;
}

void store_journal_fold_end(struct store *s, bool complete)
{
	key_clear(&s->folding);
	key_clear(&s->folding_max);
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

/* A reader of one move row (a statement with MOVE_COLS): 0 goes on, anything else stops the
 * listing (*r says whether it failed). */
typedef int (*move_row_fn)(struct store *s, sqlite3_stmt *st, void *ctx, enum store_rc *r);

/* A journal row of the game being read: its number and seq. */
struct jrow {
	int number;
	int64_t seq;
};

/* The game's journal keys from number `from` on, in number order, into s->jrows. */
static enum store_rc journal_keys_of(struct store *s, int64_t game_id, int from)
{
	s->jrows.n = 0;
	s->jrows.size = sizeof(struct jrow);
	const struct key_entry *a = key_find(&s->journal_max, game_id, 0);
	const struct key_entry *b = key_find(&s->folding_max, game_id, 0);
	int hi = a ? a->value : 0;
	if (b && b->value > hi)
		hi = b->value;
	for (int n = from; n <= hi; n++) {
		const struct key_entry *e = key_find(&s->journal, game_id, n);
		if (!e)
			e = key_find(&s->folding, game_id, n);
		if (!e)
			continue;
		struct jrow *j = store_vec_room(&s->jrows);
		if (!j)
			return store_fail(s, STORE_ERROR, "out of memory");
		*j = (struct jrow){ n, e->seq };
		s->jrows.n++;
	}
	return STORE_OK;
}

/* The moves of a game in number order, each given to fn: the moves table's rows merged with
 * the journal's, which are found one at a time by their keys (the seq each holds), since the
 * journal has no index by game: a game's read costs its own rows, not the journal's length.
 * A fold slice off the loop (upkeep) may move rows from the journal to moves while this reads:
 * a row its key names but the journal no longer holds is in moves, read again from there on
 * (a key whose number moves has is such a row). */
static enum store_rc moves_each(struct store *s, int64_t game_id, move_row_fn fn, void *ctx)
{
	enum store_rc r = STORE_OK;
	if ((r = store_check_idle(s, s->st[ST_MOVES_FROM], "store_moves_get")) != STORE_OK ||
	    (r = store_check_idle(s, s->st[ST_JOURNAL_ROW], "store_moves_get")) != STORE_OK)
		return r;
	if (s->journal_stale && store_journal_reload(s) != STORE_OK)
		return STORE_ERROR;
	int next = 1; /* every number below it was given to fn */
	for (int pass = 0; pass < STORE_MOVES_PASSES; pass++) {
		if ((r = journal_keys_of(s, game_id, next)) != STORE_OK)
			return r;
		struct binder b = store_binder(s, ST_MOVES_FROM);
		b_int(&b, P_GAME_ID, game_id);
		b_int(&b, P_NUMBER, next);
		if (b.rc != SQLITE_OK)
			return store_bind_fail(s, &b);
		size_t k = 0;
		bool refolded = false, need = true; /* need: the moves row read was given */
		int rc = SQLITE_ROW;
		for (;;) {
			if (need && rc == SQLITE_ROW)
				rc = sqlite3_step(b.st);
			need = false;
			int mnum = rc == SQLITE_ROW ? sqlite3_column_int(b.st, MC_NUMBER) : INT_MAX;
			const struct jrow *jr = k < s->jrows.n ? &((struct jrow *)s->jrows.v)[k] : NULL;
			if (jr && jr->number == mnum) {
				k++; /* folded since its key was read: moves has it */
				jr = NULL;
			}
			if (jr && jr->number < mnum) {
				struct binder j = store_binder(s, ST_JOURNAL_ROW);
				b_int(&j, P_SEQ, jr->seq);
				b_int(&j, P_GAME_ID, game_id);
				b_int(&j, P_NUMBER, jr->number);
				int jc = j.rc == SQLITE_OK ? sqlite3_step(j.st) : j.rc;
				int stop = jc == SQLITE_ROW ? fn(s, j.st, ctx, &r) : 0;
				store_done(j.st);
				if (jc == SQLITE_ROW && stop == 0) {
					next = jr->number + 1;
					k++;
					continue; /* the moves row read, if any, is still to be given */
				}
				if (jc == SQLITE_DONE) { /* folded meanwhile: read moves again from it */
					next = jr->number;
					refolded = true;
				} else if (jc != SQLITE_ROW) {
					r = store_sql_fail(s, jc);
				}
				break;
			}
			if (rc != SQLITE_ROW) {
				if (rc != SQLITE_DONE)
					r = store_sql_fail(s, rc);
				break;
			}
			next = mnum + 1;
			need = true;
			if (fn(s, b.st, ctx, &r) != 0)
				break;
		}
		store_done(b.st);
		if (!refolded)
			return r;
	}
	return store_fail(s, STORE_ERROR, "game %lld: its moves kept moving while read",
			  (long long)game_id);
}

static int collect_row(struct store *s, sqlite3_stmt *st, void *ctx, enum store_rc *r)
{
	struct store_vec *l = ctx;
	void *e = store_vec_room(l);
	if (!e) {
		*r = store_fail(s, STORE_ERROR, "out of memory");
		return -1;
	}
	if ((*r = row_move_copy(s, st, e)) != STORE_OK)
		return -1;
	l->n++;
	return 0;
}

/* Append the moves of one game, copied out, to *l (a vec of struct store_move). */
enum store_rc store_collect_moves(struct store *s, int64_t game_id, struct store_vec *l)
{
	return moves_each(s, game_id, collect_row, l);
}

enum store_rc store_move_add(struct store *s, int64_t game_id, const struct store_move *m)
{
	if (m->number < 1)
		return store_fail(s, STORE_ERROR, "move number %d: moves are numbered from 1", m->number);
	if (m->number > STORE_MOVE_NUMBER_MAX)
		return store_fail(s, STORE_ERROR, "move number %d: at most %d", m->number,
				  STORE_MOVE_NUMBER_MAX);
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
	struct key_entry *e = r == STORE_OK ? key_put(&s->journal, game_id, m->number) : NULL;
	if (e)
		e->seq = sqlite3_last_insert_rowid(s->db);
	if (r == STORE_OK && (!e || !jmax_raise(s, game_id, m->number)))
		s->journal_stale = true; /* the row is written; its key is reread before next use */
	return r;
}

struct get_ctx {
	store_move_cb cb;
	void *ctx;
};

static int get_row(struct store *s, sqlite3_stmt *st, void *ctx, enum store_rc *r)
{
	struct get_ctx *g = ctx;
	struct store_move m;
	if ((*r = read_move(s, st, &m)) != STORE_OK)
		return -1;
	return g->cb(g->ctx, &m) != 0;
}

enum store_rc store_moves_get(struct store *s, int64_t game_id, store_move_cb cb, void *ctx)
{
	struct get_ctx g = {cb, ctx};
	return moves_each(s, game_id, get_row, &g);
}
