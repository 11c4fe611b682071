/* store: the daemon's SQLite database. Opening and closing it; its schema. See store.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "store_int.h"

/* The migrations, in order, NULL-terminated (generated from migrations/ by
 * scripts/embed-migrations into server/migrations_sql.c). */
extern const char *const store_migrations[];

#define STORE_MIB (1024.0 * 1024.0) /* bytes in a MiB, for messages */

/* ---- Opening ---- */

int store_schema_version(void)
{
	int n = 0;
	while (store_migrations[n])
		n++;
	return n;
}

/* Bring the schema up to date in one transaction. */
static enum store_rc migrate(struct store *s)
{
	int have = 0, want = store_schema_version();
	char sql[64], *msg = NULL;
	int rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return store_fail(s, STORE_ERROR, "begin migrations: %s", sqlite3_errmsg(s->db));
	rc = store_pragma(s->db, "PRAGMA user_version", NULL, 0, &have);
	if (rc != SQLITE_OK) {
		store_fail(s, STORE_ERROR, "read user_version: %s", sqlite3_errmsg(s->db));
		goto rollback;
	}
	if (have > want) {
		store_fail(s, STORE_ERROR, "database schema version %d is newer than this tengend's (%d)",
				have, want);
		goto rollback;
	}
	if (have < 0) {
		store_fail(s, STORE_ERROR, "database schema version %d is invalid", have);
		goto rollback;
	}
	if (have == want) {
		if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
			store_fail(s, STORE_ERROR, "commit: %s", sqlite3_errmsg(s->db));
			goto rollback;
		}
		return STORE_OK;
	}
	for (int i = have; i < want; i++) {
		if (sqlite3_exec(s->db, store_migrations[i], NULL, NULL, &msg) != SQLITE_OK) {
			store_fail(s, STORE_ERROR, "migration %d: %s", i + 1, msg ? msg : "failed");
			sqlite3_free(msg);
			goto rollback;
		}
	}
	char fk[8];
	if (store_pragma(s->db, "PRAGMA foreign_key_check", fk, sizeof fk, NULL) != SQLITE_OK || fk[0]) {
		store_fail(s, STORE_ERROR, "migrations leave foreign keys broken (table %s)", fk);
		goto rollback;
	}
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", want);
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK
			|| sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		store_fail(s, STORE_ERROR, "finish migrations: %s", sqlite3_errmsg(s->db));
		goto rollback;
	}
	return STORE_OK;
rollback:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return STORE_ERROR;
}

/* Connection settings: WAL (refused only for an in-memory database, which cannot have
 * it), synchronous FULL or NORMAL (`sync`), foreign keys (checked: a build without them is
 * refused). */
static enum store_rc configure(struct store *s, enum store_sync sync)
{
	char mode[16];
	int fk = 0, level = -1;
	sqlite3_extended_result_codes(s->db, 1);
	const char *sync_sql = sync == STORE_SYNC_LOSE_ON_POWER_CUT ? "PRAGMA synchronous = NORMAL"
		: "PRAGMA synchronous = FULL";
	if (sqlite3_busy_handler(s->db, store_busy_handler, &s->busy) != SQLITE_OK
			|| store_pragma(s->db, "PRAGMA journal_mode = WAL", mode, sizeof mode, NULL) != SQLITE_OK
			|| store_pragma(s->db, sync_sql, NULL, 0, NULL) != SQLITE_OK
			|| store_pragma(s->db, "PRAGMA synchronous", NULL, 0, &level) != SQLITE_OK
			|| store_pragma(s->db, "PRAGMA foreign_keys = ON", NULL, 0, NULL) != SQLITE_OK
			|| store_pragma(s->db, "PRAGMA foreign_keys", NULL, 0, &fk) != SQLITE_OK)
		return store_fail(s, STORE_ERROR, "configure: %s", sqlite3_errmsg(s->db));
	const char *file = sqlite3_db_filename(s->db, "main");
	bool memory = !file || !file[0];
	if (strcmp(mode, "wal") != 0 && !memory)
		return store_fail(s, STORE_ERROR, "cannot use WAL journal mode (got \"%s\")", mode);
	if (fk != 1)
		return store_fail(s, STORE_ERROR, "this SQLite does not enforce foreign keys");
	if (level != (sync == STORE_SYNC_LOSE_ON_POWER_CUT ? 1 : 2))
		return store_fail(s, STORE_ERROR, "PRAGMA synchronous is %d, not the one asked for", level);
	return STORE_OK;
}

/* The free bytes (for unprivileged use) of the file system holding `path`, or of its
 * directory when `path` does not exist yet. -1 (errno set) if neither can be asked. */
static int free_bytes(const char *path, uint64_t *out)
{
	struct statvfs v;
	if (statvfs(path, &v) != 0) {
		if (errno != ENOENT)
			return -1;
		char dir[STORE_PATH_MAX];
		snprintf(dir, sizeof dir, "%s", path);
		char *slash = strrchr(dir, '/');
		if (!slash)
			snprintf(dir, sizeof dir, ".");
		else if (slash == dir)
			dir[1] = '\0';
		else
			*slash = '\0';
		if (statvfs(dir, &v) != 0)
			return -1;
	}
	*out = (uint64_t)v.f_bavail * (uint64_t)v.f_frsize;
	return 0;
}

/* One real write transaction (page 1 rewritten with the same user_version): a disk that is
 * full or failing, or a database SQLite can only read, is found now rather than at the
 * first move. */
static enum store_rc write_check(struct store *s)
{
	char sql[64];
	int version = 0;
	if (store_pragma(s->db, "PRAGMA user_version", NULL, 0, &version) != SQLITE_OK)
		return store_fail(s, STORE_ERROR, "read user_version: %s", sqlite3_errmsg(s->db));
	snprintf(sql, sizeof sql, "BEGIN IMMEDIATE; PRAGMA user_version = %d; COMMIT", version);
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		store_fail(s, STORE_ERROR, "cannot write the database %s: %s", s->path,
				sqlite3_errmsg(s->db));
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return STORE_ERROR;
	}
	return STORE_OK;
}

/* Note the index of each named parameter of statement i (s->param[i]); a parameter whose
 * name is not in store_param_names (or has none) is a bug in store_stmt_sql: STORE_ERROR. */
static enum store_rc map_params(struct store *s, int i)
{
	int n = sqlite3_bind_parameter_count(s->st[i]), found = 0;
	for (int p = 0; p < P_COUNT; p++) {
		int k = sqlite3_bind_parameter_index(s->st[i], store_param_names[p]);
		if (k > UCHAR_MAX)
			return store_fail(s, STORE_ERROR, "statement %d: parameter %s is number %d", i,
					store_param_names[p], k);
		s->param[i][p] = (unsigned char)k;
		found += k != 0;
	}
	if (found != n)
		return store_fail(s, STORE_ERROR, "statement %d: %d of its %d parameters have no known "
				"name", i, n - found, n);
	return STORE_OK;
}

/* Before opening the file at `path`: is it there (unless o->create), has its file system
 * o->min_free_bytes free? */
static enum store_rc file_checks(struct store *s, const char *path, const struct store_options *o)
{
	struct stat st;
	uint64_t avail = 0;
	if (!o->create && stat(path, &st) != 0) {
		int e = errno;
		return store_fail(s, e == ENOENT ? STORE_NOT_FOUND : STORE_ERROR,
				"no database at %s: %s", path, strerror(e));
	}
	if (o->min_free_bytes) {
		if (free_bytes(path, &avail) != 0)
			return store_fail(s, STORE_ERROR, errno == ENOENT
					? "cannot make %s: its directory does not exist (%s)"
					: "free space of the file system of %s: %s", path, strerror(errno));
		if (avail < o->min_free_bytes)
			return store_fail(s, STORE_ERROR, "only %.1f MiB free on the file system of %s, "
					"less than the %.1f MiB required", (double)avail / STORE_MIB,
					path, (double)o->min_free_bytes / STORE_MIB);
	}
	return STORE_OK;
}

enum store_rc store_open(const char *path, struct store **out, char *err, size_t errlen)
{
	struct store_options o = { .create = true };
	return store_open_ex(path, &o, out, err, errlen);
}

/* sqlite3_update_hook: a row of a rowid table was inserted, updated or deleted on the loop's
 * connection. Every table counts (store_changes) but the move journal and server_alive (the
 * daemon's mark that it runs, every SERVER_ALIVE_MS: it would drop every cached reply each
 * time, and no reply shows it). SQLite does not call it for WITHOUT ROWID tables (`moves`,
 * which only a fold writes and no cached view reads), nor for a DELETE without WHERE (the
 * journal's clear) or the rows an ON CONFLICT REPLACE removes (its insert is counted). A
 * rollback undoes rows without a call: store_maybe_undone counts it. */
static void on_row_change(void *ctx, int op, const char *dbname, const char *table,
			  sqlite3_int64 rowid)
{
	(void)op;
	(void)dbname;
	(void)rowid;
	struct store *s = ctx;
	if (strcmp(table, "move_journal") != 0 && strcmp(table, "server_alive") != 0)
		s->changes++;
}

uint64_t store_changes(const struct store *s)
{
	return s->changes;
}

enum store_rc store_open_ex(const char *path, const struct store_options *o, struct store **out,
		char *err, size_t errlen)
{
	enum store_rc r = STORE_ERROR;
	struct store *s = calloc(1, sizeof *s);
	bool memory = !path[0] || strcmp(path, ":memory:") == 0;
	*out = NULL;
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return STORE_ERROR;
	}
	/* Without it (no mutex could be made) the connections meet at SQLite's lock alone. */
	s->wlock_ok = store_wlock_init(&s->wlock) == 0;
	if (!memory && (r = file_checks(s, path, o)) != STORE_OK)
		goto bad;
	/* NOMUTEX: the connection is used by the loop thread only (the checkpointer has its own). */
	int rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
			(o->create ? SQLITE_OPEN_CREATE : 0), NULL);
	if (rc != SQLITE_OK) {
		store_fail(s, STORE_ERROR, "open %s: %s", path,
				s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
		goto bad;
	}
	sqlite3_update_hook(s->db, on_row_change, s);
	if (!memory && !(s->path = strdup(sqlite3_db_filename(s->db, "main")))) {
		r = store_fail(s, STORE_ERROR, "out of memory");
		goto bad;
	}
	/* SQLite opens a file it may not write read-only, without a word; then every write
	 * would fail. */
	if (o->write_check && sqlite3_db_readonly(s->db, "main") == 1) {
		r = store_fail(s, STORE_ERROR, "the database %s can only be read (a read-only file or file "
				"system); tengend must write it", path);
		goto bad;
	}
	/* Before configure, which would write a header into an empty file. A file without a
	 * tengen schema (user_version 0) is made into one only when it is empty and o->create:
	 * another program's tables are never written into. */
	if (!memory) {
		int version = 0, objects = 0;
		sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
		if (store_pragma(s->db, "PRAGMA user_version", NULL, 0, &version) != SQLITE_OK ||
		    (version == 0 && store_pragma(s->db, "SELECT count(*) FROM sqlite_master", NULL, 0,
						  &objects) != SQLITE_OK)) {
			r = store_fail(s, STORE_ERROR, "cannot read the database %s: %s", path,
					sqlite3_errmsg(s->db));
			goto bad;
		}
		if (version == 0 && objects > 0) {
			r = store_fail(s, STORE_ERROR, "%s holds a database made by something else (%d "
					"tables, indexes or views, no tengen schema version); tengend leaves "
					"it alone: give another path", path, objects);
			goto bad;
		}
		if (version == 0 && !o->create) {
			r = store_fail(s, STORE_NOT_FOUND, "%s holds no tengen database (an empty "
					"file)", path);
			goto bad;
		}
	}
	if (o->manual_checkpoints && !memory &&
	    store_pragma(s->db, "PRAGMA wal_autocheckpoint = 0", NULL, 0, NULL) != SQLITE_OK) {
		r = store_fail(s, STORE_ERROR, "configure: %s", sqlite3_errmsg(s->db));
		goto bad;
	}
	if ((r = configure(s, o->sync)) != STORE_OK)
		goto bad;
	if ((r = migrate(s)) != STORE_OK || (o->write_check && (r = write_check(s)) != STORE_OK))
		goto bad;
	/* A page cache that holds the pages live games write (a leaf of moves per game), so a
	 * move does not read its page back from the WAL. */
	char cache[64];
	snprintf(cache, sizeof cache, "PRAGMA cache_size = -%d", STORE_CACHE_KIB);
	if (store_pragma(s->db, cache, NULL, 0, NULL) != SQLITE_OK) {
		r = store_fail(s, STORE_ERROR, "configure: %s", sqlite3_errmsg(s->db));
		goto bad;
	}
	for (int i = 0; i < ST_COUNT; i++) {
		rc = sqlite3_prepare_v3(s->db, store_stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->st[i],
				NULL);
		if (rc != SQLITE_OK) {
			r = store_fail(s, STORE_ERROR, "prepare statement %d: %s", i, sqlite3_errmsg(s->db));
			goto bad;
		}
		if ((r = map_params(s, i)) != STORE_OK)
			goto bad;
	}
	/* What the last run left in the journal: its keys read; folded now if it is short, or
	 * else left to the server's upkeep (upkeep.c), so that a restart does not wait for it. A
	 * failed fold keeps it (the keys are read again). */
	if ((r = store_journal_reload(s)) != STORE_OK)
		goto bad;
	if (s->journal.n && s->journal.n <= STORE_OPEN_FOLD_ROWS &&
	    store_journal_fold(s, NULL) != STORE_OK && (r = store_journal_reload(s)) != STORE_OK)
		goto bad;
	store_files_note(s);
	s->err[0] = '\0';
	*out = s;
	return STORE_OK;
bad:;
	/* An I/O error: say what the system said (e.g. "No space left on device"). */
	int code = s->db ? sqlite3_errcode(s->db) & 0xff : SQLITE_OK;
	int sys = s->db ? sqlite3_system_errno(s->db) : 0;
	if (sys && (code == SQLITE_IOERR || code == SQLITE_FULL || code == SQLITE_CANTOPEN ||
			code == SQLITE_READONLY) && !strstr(s->err, strerror(sys)))
		snprintf(err, errlen, "%s (%s)", s->err, strerror(sys));
	else
		snprintf(err, errlen, "%s", s->err);
	store_close(s);
	return r == STORE_OK ? STORE_ERROR : r;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->st[i]);
	sqlite3_close(s->db);
	free(s->path);
	free(s->journal.k);
	free(s->folded_max.k);
	free(s->journal_max.k);
	free(s->folding_max.k);
	store_vec_free(&s->jrows);
	free(s->folding.k);
	if (s->wlock_ok)
		store_wlock_destroy(&s->wlock);
	free(s);
}

