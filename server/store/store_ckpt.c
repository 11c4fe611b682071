/* store_ckpt: the second connection, for the store's upkeep off the event loop: WAL
 * checkpoints and the journal's fold in slices. See store.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "store_int.h"

#define CKPT_CACHE_KIB 16384 /* page cache of the second connection (the fold's leaves of moves) */

/* The fold's statements: the journal's rows up to ?1 are read in game and number order (no
 * lock: a WAL reader) and copied into moves a slice at a time (a row already there, the same
 * move, is a copy an earlier fold made before it stopped); then the journal's rows are
 * deleted by ranges of seq, a slice at a time. Deleting row by row in game order would write
 * nearly a page of the journal per row: its rows of one game are spread all over it. */
enum { CK_READ, CK_INSERT, CK_SAME, CK_DELETE, CK_RANGE_ROWS, CK_DELETE_RANGE, CK_BEGIN, CK_COMMIT,
	CK_ROLLBACK, CK_COUNT };
static const char *const ck_sql[CK_COUNT] = {
	[CK_READ] = "SELECT seq, game_id, " MOVE_COLS " FROM move_journal WHERE seq <= ?1 "
		"ORDER BY game_id, number",
	[CK_INSERT] = ("INSERT INTO moves (game_id, " MOVE_COLS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
		"ON CONFLICT (game_id, number) DO NOTHING"),
	[CK_SAME] = ("SELECT count(*) FROM moves WHERE game_id = ?1 AND number = ?2 AND color = ?3 "
		"AND vertex = ?4 AND at = ?5"),
	/* Only rows moves has (the same move): a seq is a rowid, reused once the journal was
	 * emptied (another process's fold at open), so a range may hold rows never copied. */
	[CK_DELETE] = ("DELETE FROM move_journal WHERE seq > ?1 AND seq <= ?2 AND EXISTS (SELECT 1 "
		"FROM moves m WHERE m.game_id = move_journal.game_id AND m.number = "
		"move_journal.number AND m.color = move_journal.color AND m.vertex = "
		"move_journal.vertex AND m.at = move_journal.at)"),
	/* The fast path of the delete (delete_range): a range whose every row is one the fold
	 * read (and so copied) goes whole, without a lookup in moves per row. */
	[CK_RANGE_ROWS] = "SELECT seq, game_id, number, color, vertex, at FROM move_journal "
		"WHERE seq > ?1 AND seq <= ?2 ORDER BY seq",
	[CK_DELETE_RANGE] = "DELETE FROM move_journal WHERE seq > ?1 AND seq <= ?2",
	[CK_BEGIN] = "BEGIN IMMEDIATE",
	[CK_COMMIT] = "COMMIT",
	[CK_ROLLBACK] = "ROLLBACK",
};

/* A journal row read for a fold (its text columns copied: NULL stays NULL). */
struct fold_row {
	int64_t seq, game_id;
	int number;
	char *color, *vertex, *forfeit, *clocks;
	double at;
};

struct store_ckpt {
	sqlite3 *db;
	struct store_busy busy;
	struct store_wlock *wlock; /* the store's write turn (NULL: none) */
	sqlite3_stmt *st[CK_COUNT];
	char err[STORE_ERR_MAX];
	/* The fold under way: its rows up to `hi`, in game and number order; `next` is the
	 * first not yet written. */
	struct fold_row *rows;
	size_t n, cap, next;
	struct fold_row **by_seq; /* the second step's: the rows in seq order (NULL until then) */
	int64_t hi;
	int64_t deleted; /* the second step: the journal's rows up to this seq are deleted */
};

/* ---- Checkpoints ---- */

static int wal_hook(void *ctx, sqlite3 *db, const char *name, int frames)
{
	(void)db;
	if (strcmp(name, "main") == 0)
		((struct store *)ctx)->wal_frames = frames;
	return SQLITE_OK;
}

static bool has_wal(sqlite3 *db)
{
	const char *file = sqlite3_db_filename(db, "main");
	return file && file[0];
}

bool store_wal_manual(struct store *s)
{
	if (!has_wal(s->db))
		return false;
	/* A WAL hook of our own replaces SQLite's automatic checkpointing (sqlite3_wal_hook). */
	sqlite3_wal_hook(s->db, wal_hook, s);
	return true;
}

void store_wal_auto(struct store *s)
{
	sqlite3_wal_autocheckpoint(s->db, STORE_WAL_AUTO_FRAMES);
}

enum store_rc store_wal_path(struct store *s, char *wal_path, size_t len)
{
	const char *db = sqlite3_db_filename(s->db, "main");
	const char *wal = db && db[0] ? sqlite3_filename_wal(db) : NULL;
	if (!wal || !wal[0] || snprintf(wal_path, len, "%s", wal) >= (int)len)
		return store_fail(s, STORE_ERROR, "no WAL file");
	return STORE_OK;
}

enum store_rc store_sync_detach(struct store *s)
{
	int level = -1;
	if (store_in_transaction(s))
		return store_fail(s, STORE_ERROR, "store_sync_detach: a transaction is open");
	/* NORMAL in WAL mode: a commit writes the WAL without syncing it, and a checkpoint syncs
	 * the WAL before it copies and the database after (SQLite: "WAL mode with synchronous
	 * NORMAL is safe from corruption"); the caller's fdatasync of the WAL after a commit
	 * makes that commit durable, as FULL would have. */
	if (store_pragma(s->db, "PRAGMA synchronous = NORMAL", NULL, 0, NULL) != SQLITE_OK ||
	    store_pragma(s->db, "PRAGMA synchronous", NULL, 0, &level) != SQLITE_OK || level != 1)
		return store_fail(s, STORE_ERROR, "cannot set synchronous NORMAL (%d)", level);
	return STORE_OK;
}

int store_wal_frames(const struct store *s)
{
	return s->wal_frames;
}

enum store_rc store_checkpoint(struct store *s, int *logged, int *copied)
{
	int rc = sqlite3_wal_checkpoint_v2(s->db, "main", SQLITE_CHECKPOINT_PASSIVE, logged, copied);
	if (rc != SQLITE_OK)
		return store_fail(s, STORE_ERROR, "checkpoint: %s", sqlite3_errmsg(s->db));
	return STORE_OK;
}

enum store_rc store_ckpt_open(struct store *s, struct store_ckpt **out, char *err, size_t errlen)
{
	*out = NULL;
	if (!has_wal(s->db)) {
		snprintf(err, errlen, "the database has no file (in memory)");
		return STORE_ERROR;
	}
	if (!sqlite3_threadsafe()) {
		snprintf(err, errlen, "this SQLite is built without thread support");
		return STORE_ERROR;
	}
	struct store_ckpt *c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return STORE_ERROR;
	}
	c->wlock = s->wlock_ok ? &s->wlock : NULL;
	int rc = sqlite3_open_v2(sqlite3_db_filename(s->db, "main"), &c->db,
			SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc == SQLITE_OK) {
		/* Without a hook of its own this connection would checkpoint on close as well;
		 * that is harmless. Its own automatic checkpoints are off (the caller runs them).
		 * NORMAL: a fold slice's commit is not fsync'd by itself; the next commit of the
		 * store's connection (FULL) syncs the WAL up to and past it, and a slice lost in a
		 * power cut leaves its rows in the journal, where they are read. Foreign keys and
		 * CHECK constraints: see store_ckpt_fold_slice. */
		char cache[64];
		snprintf(cache, sizeof cache, "PRAGMA cache_size = -%d", CKPT_CACHE_KIB);
		sqlite3_extended_result_codes(c->db, 1);
		sqlite3_busy_handler(c->db, store_busy_handler, &c->busy);
		rc = sqlite3_exec(c->db, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF; "
				  "PRAGMA ignore_check_constraints = ON; PRAGMA wal_autocheckpoint = 0",
				  NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_exec(c->db, cache, NULL, NULL, NULL);
		for (int i = 0; rc == SQLITE_OK && i < CK_COUNT; i++)
			rc = sqlite3_prepare_v3(c->db, ck_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
						&c->st[i], NULL);
	}
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "open checkpoint connection: %s",
				c->db ? sqlite3_errmsg(c->db) : sqlite3_errstr(rc));
		store_ckpt_close(c);
		return STORE_ERROR;
	}
	*out = c;
	return STORE_OK;
}

enum store_rc store_ckpt_run(struct store_ckpt *c, int *logged, int *copied)
{
	int rc = sqlite3_wal_checkpoint_v2(c->db, "main", SQLITE_CHECKPOINT_PASSIVE, logged, copied);
	if (rc != SQLITE_OK) {
		snprintf(c->err, sizeof c->err, "checkpoint: %s", sqlite3_errmsg(c->db));
		return STORE_ERROR;
	}
	return STORE_OK;
}

/* 0, or -1 (c->err set) if the turn did not come within STORE_BUSY_TIMEOUT_MS. */
static int turn_take(struct store_ckpt *c)
{
	if (c->wlock && store_wlock_take(c->wlock) != 0) {
		snprintf(c->err, sizeof c->err, "the database stayed locked for %d ms",
			 STORE_BUSY_TIMEOUT_MS);
		return -1;
	}
	return 0;
}

static void turn_give(struct store_ckpt *c)
{
	if (c->wlock)
		store_wlock_give(c->wlock);
}

enum store_rc store_ckpt_restart(struct store_ckpt *c, int *logged, int *copied)
{
	/* A RESTART takes the write lock: in turn with the store's transactions. */
	if (turn_take(c) != 0)
		return STORE_CONFLICT;
	int rc = sqlite3_wal_checkpoint_v2(c->db, "main", SQLITE_CHECKPOINT_RESTART, logged, copied);
	turn_give(c);
	if (rc != SQLITE_OK) {
		snprintf(c->err, sizeof c->err, "restart checkpoint: %s", sqlite3_errmsg(c->db));
		return (rc & 0xff) == SQLITE_BUSY ? STORE_CONFLICT : STORE_ERROR;
	}
	return STORE_OK;
}

/* Step statement i (bound already) to its end and reset it; its SQLite result. */
static int ck_step(struct store_ckpt *c, int i)
{
	int rc = sqlite3_step(c->st[i]);
	sqlite3_reset(c->st[i]);
	sqlite3_clear_bindings(c->st[i]);
	return rc;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void batch_free(struct store_ckpt *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->rows[i].color);
		free(c->rows[i].vertex);
		free(c->rows[i].forfeit);
		free(c->rows[i].clocks);
	}
	free(c->rows);
	free(c->by_seq);
	c->rows = NULL;
	c->by_seq = NULL;
	c->n = c->cap = c->next = 0;
	c->hi = c->deleted = 0;
}

/* A text column copied (NULL for NULL); false when out of memory. */
static bool col_dup(sqlite3_stmt *st, int col, char **out)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	*out = NULL;
	if (!t)
		return sqlite3_column_type(st, col) == SQLITE_NULL;
	*out = strdup((const char *)t);
	return *out != NULL;
}

/* Read the journal's rows up to hi into c->rows, in game and number order: a read
 * transaction of its own, which takes no lock the writer needs. */
static int batch_read(struct store_ckpt *c, int64_t hi)
{
	batch_free(c);
	sqlite3_stmt *q = c->st[CK_READ];
	sqlite3_bind_int64(q, 1, hi);
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (c->n == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 1024;
			struct fold_row *r = realloc(c->rows, cap * sizeof *r);
			if (!r) {
				rc = SQLITE_NOMEM;
				break;
			}
			c->rows = r;
			c->cap = cap;
		}
		struct fold_row *r = &c->rows[c->n];
		*r = (struct fold_row){ .seq = sqlite3_column_int64(q, 0),
			.game_id = sqlite3_column_int64(q, 1), .number = sqlite3_column_int(q, 2),
			.at = sqlite3_column_double(q, 7) };
		c->n++; /* freed with the batch even if a copy below fails */
		if (!col_dup(q, 3, &r->color) || !col_dup(q, 4, &r->vertex) ||
		    !col_dup(q, 5, &r->forfeit) || !col_dup(q, 6, &r->clocks)) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	if (rc != SQLITE_DONE) {
		batch_free(c);
		return rc;
	}
	c->hi = hi;
	c->deleted = c->n ? c->rows[0].seq - 1 : hi;
	for (size_t i = 1; i < c->n; i++)
		if (c->rows[i].seq - 1 < c->deleted)
			c->deleted = c->rows[i].seq - 1;
	return SQLITE_OK;
}

static void bind_text(sqlite3_stmt *st, int i, const char *t)
{
	if (t)
		sqlite3_bind_text(st, i, t, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

/* Copy row r into moves in the open transaction; a row of that number already there must be
 * the same move (SQLITE_CONSTRAINT otherwise: a collision, the fold fails). */
static int write_row(struct store_ckpt *c, const struct fold_row *r)
{
	sqlite3_stmt *ins = c->st[CK_INSERT], *same = c->st[CK_SAME];
	sqlite3_bind_int64(ins, 1, r->game_id);
	sqlite3_bind_int(ins, 2, r->number);
	bind_text(ins, 3, r->color);
	bind_text(ins, 4, r->vertex);
	bind_text(ins, 5, r->forfeit);
	bind_text(ins, 6, r->clocks);
	sqlite3_bind_double(ins, 7, r->at);
	int rc = ck_step(c, CK_INSERT);
	if (rc != SQLITE_DONE || sqlite3_changes(c->db) == 1)
		return rc;
	sqlite3_bind_int64(same, 1, r->game_id);
	sqlite3_bind_int(same, 2, r->number);
	bind_text(same, 3, r->color);
	bind_text(same, 4, r->vertex);
	sqlite3_bind_double(same, 5, r->at);
	rc = sqlite3_step(same);
	int n = rc == SQLITE_ROW ? sqlite3_column_int(same, 0) : 0;
	sqlite3_reset(same);
	sqlite3_clear_bindings(same);
	if (rc != SQLITE_ROW)
		return rc;
	if (n != 1) {
		snprintf(c->err, sizeof c->err, "fold slice: game %lld move %d is in moves already, "
			 "another move", (long long)r->game_id, r->number);
		return SQLITE_CONSTRAINT;
	}
	return SQLITE_DONE;
}

static int by_seq_cmp(const void *a, const void *b)
{
	int64_t x = (*(struct fold_row *const *)a)->seq, y = (*(struct fold_row *const *)b)->seq;
	return (x > y) - (x < y);
}

/* c->by_seq built (once a fold, before the second step's first turn: the sort holds no
 * lock). Out of memory it stays NULL, and every range takes the slow delete. */
static void by_seq_build(struct store_ckpt *c)
{
	if (c->by_seq || !c->n || !(c->by_seq = malloc(c->n * sizeof *c->by_seq)))
		return;
	for (size_t i = 0; i < c->n; i++)
		c->by_seq[i] = &c->rows[i];
	qsort(c->by_seq, c->n, sizeof *c->by_seq, by_seq_cmp);
}

static bool text_is(sqlite3_stmt *st, int col, const char *t)
{
	const unsigned char *v = sqlite3_column_text(st, col);
	return v && t ? strcmp((const char *)v, t) == 0 : !v && !t;
}

/* Whether every journal row with seq in (lo, hi] is a row the fold read (the same seq, game,
 * number, colour, vertex and time): *same; an SQLite result. Such a row is in moves: the
 * first step copied every row read, or found the same move there, and nothing deletes from
 * moves. A row on a reused seq is another move (the store refuses a (game, number) either
 * table has), so it never matches. The rows come in seq order, walked beside c->by_seq. */
static int range_is_ours(struct store_ckpt *c, int64_t lo, int64_t hi, bool *same)
{
	*same = false;
	if (!c->by_seq)
		return SQLITE_OK;
	sqlite3_stmt *q = c->st[CK_RANGE_ROWS];
	size_t a = 0, b = c->n; /* the first of by_seq past lo */
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (c->by_seq[m]->seq <= lo)
			a = m + 1;
		else
			b = m;
	}
	*same = true;
	sqlite3_bind_int64(q, 1, lo);
	sqlite3_bind_int64(q, 2, hi);
	int rc = SQLITE_DONE;
	while (*same && (rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t seq = sqlite3_column_int64(q, 0);
		while (a < c->n && c->by_seq[a]->seq < seq)
			a++;
		const struct fold_row *r = a < c->n ? c->by_seq[a] : NULL;
		*same = r && r->seq == seq && r->game_id == sqlite3_column_int64(q, 1) &&
			r->number == sqlite3_column_int(q, 2) && text_is(q, 3, r->color) &&
			text_is(q, 4, r->vertex) && r->at == sqlite3_column_double(q, 5);
	}
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	if (!*same) /* a row not ours: the slow delete */
		return SQLITE_OK;
	return rc == SQLITE_DONE ? SQLITE_OK : rc; /* the walk ended, or failed */
}

/* The second step's slice: delete the journal's rows with seq in (c->deleted, upto], those
 * the fold copied. When every row of the range is one the fold read, the range goes whole
 * (CK_DELETE_RANGE: a walk of the journal's pages); else (a seq reused: another process emptied
 * the journal and new moves took its numbers) only the rows moves has (CK_DELETE: a lookup
 * in moves per row). */
static int delete_range(struct store_ckpt *c, int64_t upto)
{
	bool ours = false;
	int rc = range_is_ours(c, c->deleted, upto, &ours);
	if (rc != SQLITE_OK)
		return rc;
	int i = ours ? CK_DELETE_RANGE : CK_DELETE;
	sqlite3_bind_int64(c->st[i], 1, c->deleted);
	sqlite3_bind_int64(c->st[i], 2, upto);
	return ck_step(c, i);
}

enum store_rc store_ckpt_fold_slice(struct store_ckpt *c, int64_t hi, int max_rows, int *rows,
				    bool *more, uint64_t *held_ns)
{
	*rows = 0;
	*more = false;
	*held_ns = 0;
	int rc;
	c->err[0] = '\0';
	if ((!c->rows || c->hi != hi) && (rc = batch_read(c, hi)) != SQLITE_OK)
		goto fail;
	if (c->deleted >= c->hi) {
		batch_free(c);
		return STORE_OK;
	}
	if (c->next == c->n)
		by_seq_build(c);
	if (turn_take(c) != 0) {
		batch_free(c); /* read again by the next fold */
		return STORE_ERROR;
	}
	/* The turn is given back once the transaction has ended, on every path below. */
	if ((rc = ck_step(c, CK_BEGIN)) != SQLITE_DONE) {
		turn_give(c);
		goto fail;
	}
	uint64_t t0 = mono_ns();
	if (c->next < c->n) { /* first step: copy into moves, in game and number order */
		size_t end = c->next + (size_t)max_rows < c->n ? c->next + (size_t)max_rows : c->n;
		for (size_t i = c->next; i < end; i++)
			if ((rc = write_row(c, &c->rows[i])) != SQLITE_DONE)
				goto fail_txn;
		if ((rc = ck_step(c, CK_COMMIT)) != SQLITE_DONE)
			goto fail_txn;
		*rows = (int)(end - c->next);
		c->next = end;
	} else { /* second step: delete from the journal, by ranges of seq */
		int64_t upto = c->deleted + (int64_t)max_rows * STORE_FOLD_DELETE_FACTOR;
		if (upto > c->hi)
			upto = c->hi;
		if ((rc = delete_range(c, upto)) != SQLITE_DONE ||
		    (rc = ck_step(c, CK_COMMIT)) != SQLITE_DONE)
			goto fail_txn;
		c->deleted = upto;
	}
	turn_give(c);
	*held_ns = mono_ns() - t0;
	*more = c->deleted < c->hi;
	if (!*more)
		batch_free(c);
	return STORE_OK;
fail_txn:
	if (!c->err[0])
		snprintf(c->err, sizeof c->err, "fold slice: %s", sqlite3_errmsg(c->db));
	if (!sqlite3_get_autocommit(c->db))
		ck_step(c, CK_ROLLBACK);
	turn_give(c);
	batch_free(c); /* read again by the next fold */
	return STORE_ERROR;
fail:
	snprintf(c->err, sizeof c->err, "fold slice: %s", rc == SQLITE_NOMEM ? "out of memory" :
		 sqlite3_errmsg(c->db));
	batch_free(c);
	return STORE_ERROR;
}

bool store_ckpt_fold_copying(const struct store_ckpt *c)
{
	return c->rows && c->next < c->n;
}

uint64_t store_ckpt_lock_waits(const struct store_ckpt *c)
{
	return c->busy.waits;
}

const char *store_ckpt_errmsg(const struct store_ckpt *c)
{
	return c->err;
}

void store_ckpt_close(struct store_ckpt *c)
{
	if (!c)
		return;
	batch_free(c);
	for (int i = 0; i < CK_COUNT; i++)
		sqlite3_finalize(c->st[i]);
	sqlite3_close(c->db);
	free(c);
}

