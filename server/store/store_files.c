/* store_files: the database's files while the daemon runs: are they still there, and the
 * lock that keeps a second daemon off them. See store.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "store_int.h"

/* The files of a database, by the suffix added to its path (store_files_check). */
static const char *const file_suffixes[STORE_FILES] = { "", "-wal", "-shm" };

/* Record what each of the database's paths names now (those not known yet, if they exist). */
void store_files_note(struct store *s)
{
	char p[STORE_PATH_MAX];
	struct stat st;
	for (size_t i = 0; s->path && i < STORE_FILES; i++) {
		if (s->files[i].known)
			continue;
		snprintf(p, sizeof p, "%s%s", s->path, file_suffixes[i]);
		if (stat(p, &st) == 0)
			s->files[i] = (struct file_id){ true, st.st_dev, st.st_ino };
	}
}

enum store_rc store_files_check(struct store *s)
{
	char p[STORE_PATH_MAX];
	struct stat st;
	for (size_t i = 0; s->path && i < STORE_FILES; i++) {
		snprintf(p, sizeof p, "%s%s", s->path, file_suffixes[i]);
		if (stat(p, &st) != 0) {
			if (errno != ENOENT && errno != ENOTDIR)
				return store_fail(s, STORE_ERROR, "stat %s: %s", p, strerror(errno));
			if (s->files[i].known)
				return store_fail(s, STORE_NOT_FOUND, "the database file %s was deleted", p);
			continue;
		}
		if (!s->files[i].known)
			s->files[i] = (struct file_id){ true, st.st_dev, st.st_ino };
		else if (st.st_dev != s->files[i].dev || st.st_ino != s->files[i].ino)
			return store_fail(s, STORE_NOT_FOUND,
					"the database file %s was replaced by another file", p);
	}
	return STORE_OK;
}

/* The database file itself, flock(2)ed by store_lock while the daemon runs (a second name
 * for the same file, a symlink or a hard link, locks the same inode); closed by store_unlock
 * only after the store is closed (closing any descriptor of the file drops this process's
 * POSIX locks, which SQLite holds). One daemon, one lock: process-wide. */
static int lock_db_fd = -1;

enum store_rc store_lock_inode(const char *path, char *err, size_t errlen)
{
	if (lock_db_fd >= 0 || !path[0] || strcmp(path, ":memory:") == 0)
		return STORE_OK;
	int d = open(path, O_RDONLY | O_CLOEXEC);
	if (d < 0)
		return STORE_OK; /* not there yet: store_open creates it, then this is called again */
	if (flock(d, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;
		snprintf(err, errlen, e == EWOULDBLOCK ?
			 "database %s in use by another tengend (the same file under another name)" :
			 "cannot lock %s: %s", path, strerror(e));
		close(d);
		return e == EWOULDBLOCK ? STORE_CONFLICT : STORE_ERROR;
	}
	lock_db_fd = d;
	return STORE_OK;
}

enum store_rc store_lock(const char *path, int *fd, long *holder, char *err, size_t errlen)
{
	char lock[STORE_PATH_MAX], pid[STORE_PID_TEXT_MAX];
	*fd = -1;
	if (holder)
		*holder = 0;
	if (!path[0] || strcmp(path, ":memory:") == 0)
		return STORE_OK;
	if ((size_t)snprintf(lock, sizeof lock, "%s%s", path, STORE_LOCK_SUFFIX) >= sizeof lock) {
		snprintf(err, errlen, "database path too long");
		return STORE_ERROR;
	}
	int f = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (f < 0) {
		snprintf(err, errlen, "cannot open the lock file %s: %s", lock, strerror(errno));
		return STORE_ERROR;
	}
	if (flock(f, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;
		if (e == EWOULDBLOCK) {
			ssize_t n = pread(f, pid, sizeof pid - 1, 0);
			pid[n > 0 ? n : 0] = '\0';
			long who = strtol(pid, NULL, 10);
			if (holder)
				*holder = who > 0 ? who : 0;
			snprintf(err, errlen, "database %s in use by pid %ld (it holds %s)", path,
					who > 0 ? who : 0, lock);
		} else {
			snprintf(err, errlen, "cannot lock %s: %s", lock, strerror(e));
		}
		close(f);
		return e == EWOULDBLOCK ? STORE_CONFLICT : STORE_ERROR;
	}
	/* The same file under another name (a symlink, a hard link) has another lock file: lock
	 * the database's inode too, where it exists already. */
	enum store_rc rc = store_lock_inode(path, err, errlen);
	if (rc != STORE_OK) {
		close(f);
		return rc;
	}
	int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(f, 0) != 0 || pwrite(f, pid, (size_t)len, 0) != len) {
		snprintf(err, errlen, "cannot write the lock file %s: %s", lock, strerror(errno));
		store_unlock(-1);
		close(f);
		return STORE_ERROR;
	}
	*fd = f;
	return STORE_OK;
}

void store_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
	if (lock_db_fd >= 0) {
		close(lock_db_fd);
		lock_db_fd = -1;
	}
}

enum store_rc store_alive_get(struct store *s, double *at)
{
	sqlite3_stmt *st = s->st[ST_ALIVE_GET];
	enum store_rc r = store_check_idle(s, st, "store_alive_get");
	if (r != STORE_OK)
		return r;
	int rc = sqlite3_step(st);
	*at = rc == SQLITE_ROW ? sqlite3_column_double(st, 0) : 0;
	store_done(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? STORE_OK : store_sql_fail(s, rc);
}

enum store_rc store_alive_set(struct store *s, double at)
{
	struct binder b = store_binder(s, ST_ALIVE_SET);
	b_double(&b, P_AT, at);
	return store_run(s, &b);
}
