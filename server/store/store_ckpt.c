/* store_ckpt: WAL checkpoints off the event loop. See store.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store_int.h"

struct store_ckpt {
	sqlite3 *db;
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
		 * that is harmless. It never writes, so its autocheckpoint never runs. */
		rc = sqlite3_exec(c->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
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

const char *store_ckpt_errmsg(const struct store_ckpt *c)
{
	return c->err;
}

void store_ckpt_close(struct store_ckpt *c)
{
	if (!c)
		return;
	sqlite3_close(c->db);
	free(c);
}

