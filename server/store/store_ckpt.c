/* store_ckpt: the second connection, for the store's upkeep off the event loop: WAL
 * checkpoints and the journal's fold in slices. See store.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "store_int.h"

#define CKPT_CACHE_KIB 16384 /* page cache of the second connection (the fold's leaves of moves) */

/* The fold's statements (a slice is the journal's rows from the lowest seq up to ?2). */
enum { CK_MIN, CK_FOLD, CK_CLEAR, CK_BEGIN, CK_COMMIT, CK_ROLLBACK, CK_COUNT };
static const char *const ck_sql[CK_COUNT] = {
	[CK_MIN] = "SELECT min(seq) FROM move_journal",
	[CK_FOLD] = "INSERT INTO moves (game_id, " MOVE_COLS ") SELECT game_id, " MOVE_COLS
		" FROM move_journal WHERE seq BETWEEN ?1 AND ?2 ORDER BY game_id, number",
	[CK_CLEAR] = "DELETE FROM move_journal WHERE seq BETWEEN ?1 AND ?2",
	[CK_BEGIN] = "BEGIN IMMEDIATE",
	[CK_COMMIT] = "COMMIT",
	[CK_ROLLBACK] = "ROLLBACK",
};

struct store_ckpt {
	sqlite3 *db;
	struct store_busy busy;
	sqlite3_stmt *st[CK_COUNT];
	char err[STORE_ERR_MAX];
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

enum store_rc store_ckpt_restart(struct store_ckpt *c, int *logged, int *copied)
{
	int rc = sqlite3_wal_checkpoint_v2(c->db, "main", SQLITE_CHECKPOINT_RESTART, logged, copied);
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

enum store_rc store_ckpt_fold_slice(struct store_ckpt *c, int64_t hi, int max_rows, int *rows,
				    bool *more, uint64_t *held_ns)
{
	*rows = 0;
	*more = false;
	*held_ns = 0;
	int rc = ck_step(c, CK_BEGIN);
	if (rc != SQLITE_DONE)
		goto fail;
	uint64_t t0 = mono_ns();
	sqlite3_stmt *q = c->st[CK_MIN];
	rc = sqlite3_step(q);
	bool any = rc == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL;
	int64_t lo = any ? sqlite3_column_int64(q, 0) : 0;
	sqlite3_reset(q);
	if (rc != SQLITE_ROW)
		goto fail_txn;
	if (!any || lo > hi) {
		ck_step(c, CK_ROLLBACK);
		*held_ns = mono_ns() - t0;
		return STORE_OK;
	}
	int64_t top = hi - lo < max_rows ? hi : lo + max_rows - 1;
	sqlite3_bind_int64(c->st[CK_FOLD], 1, lo);
	sqlite3_bind_int64(c->st[CK_FOLD], 2, top);
	if ((rc = ck_step(c, CK_FOLD)) != SQLITE_DONE)
		goto fail_txn;
	int n = sqlite3_changes(c->db);
	sqlite3_bind_int64(c->st[CK_CLEAR], 1, lo);
	sqlite3_bind_int64(c->st[CK_CLEAR], 2, top);
	if ((rc = ck_step(c, CK_CLEAR)) != SQLITE_DONE || (rc = ck_step(c, CK_COMMIT)) != SQLITE_DONE)
		goto fail_txn;
	*rows = n;
	*more = top < hi;
	*held_ns = mono_ns() - t0;
	return STORE_OK;
fail_txn:
	snprintf(c->err, sizeof c->err, "fold slice: %s", sqlite3_errmsg(c->db));
	if (!sqlite3_get_autocommit(c->db))
		ck_step(c, CK_ROLLBACK);
	return STORE_ERROR;
fail:
	snprintf(c->err, sizeof c->err, "fold slice: %s", sqlite3_errmsg(c->db));
	return STORE_ERROR;
}

const char *store_ckpt_errmsg(const struct store_ckpt *c)
{
	return c->err;
}

void store_ckpt_close(struct store_ckpt *c)
{
	if (!c)
		return;
	for (int i = 0; i < CK_COUNT; i++)
		sqlite3_finalize(c->st[i]);
	sqlite3_close(c->db);
	free(c);
}

