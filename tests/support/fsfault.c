/* tests/support/fsfault: an LD_PRELOAD shim that lets the tests (tests/integration/test_data.c) see and break what
 * a real tengend does with its files, as root, on any file system:
 *
 *   TENGEN_FSFAULT_COUNT=FILE   count fsync(2) and fdatasync(2) calls; after each, FILE holds
 *                               the count so far (decimal, fixed width, read it any time).
 *   TENGEN_FSFAULT_PATH=DB      the database's absolute path: the faults below touch DB and
 *                               DB-wal (DB-journal) only: not DB-shm (shared memory, whose
 *                               pages a restart after a crash finds allocated), the logs, the
 *                               lock file.
 *   TENGEN_FSFAULT_ROFS=1       opening DB itself for writing fails with EROFS: a read-only
 *                               database file (chmod a-w stops everyone but root; this stops
 *                               root too); SQLite then opens it read-only without a word.
 *   TENGEN_FSFAULT_ENOSPC=1     writing to DB or DB-wal (write, pwrite, pwrite64, writev,
 *                               pwritev, fallocate, posix_fallocate) fails with ENOSPC: a full
 *                               disk (reading goes on: a start finds nothing wrong until it
 *                               writes).
 *   TENGEN_FSFAULT_FREE_BYTES=N statvfs/fstatvfs report N bytes free (available and free).
 *
 * Built as a plain shared object without sanitizers (Makefile.am); a sanitizer build of
 * tengend takes it with ASAN_OPTIONS=verify_asan_link_order=0 (tests/support/harness.c does that).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define FSFAULT_MAX_FD 65536 /* descriptors tracked as the database's */
#define FSFAULT_PATH_MAX 4096

static const char *const suffixes[] = { "", "-wal", "-journal" };

static int count_fd = -1;
static unsigned long syncs;
static char db[FSFAULT_PATH_MAX];
static bool rofs, enospc, fake_free;
static unsigned long long free_bytes;
static unsigned char is_db[FSFAULT_MAX_FD];

#define REAL(name) ((__typeof__(&name))real(#name))

static void *real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);
	if (!f) {
		fprintf(stderr, "fsfault: no %s\n", name);
		abort();
	}
	return f;
}

__attribute__((constructor)) static void init(void)
{
	const char *c = getenv("TENGEN_FSFAULT_COUNT");
	const char *p = getenv("TENGEN_FSFAULT_PATH");
	const char *f = getenv("TENGEN_FSFAULT_FREE_BYTES");
	if (c && *c)
		count_fd = REAL(open)(c, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (p && *p)
		snprintf(db, sizeof db, "%s", p);
	rofs = getenv("TENGEN_FSFAULT_ROFS") != NULL;
	enospc = getenv("TENGEN_FSFAULT_ENOSPC") != NULL;
	if (f && *f) {
		fake_free = true;
		free_bytes = strtoull(f, NULL, 10);
	}
}

static bool db_path(const char *path)
{
	size_t n = strlen(db);
	if (!db[0] || !path || strncmp(path, db, n) != 0)
		return false;
	for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
		if (strcmp(path + n, suffixes[i]) == 0)
			return true;
	return false;
}

static bool db_fd(int fd)
{
	return fd >= 0 && fd < FSFAULT_MAX_FD && is_db[fd];
}

static void note_sync(void)
{
	char text[32];
	syncs++;
	if (count_fd < 0)
		return;
	int n = snprintf(text, sizeof text, "%20lu\n", syncs);
	if (REAL(pwrite)(count_fd, text, (size_t)n, 0) != n)
		return;
}

int fsync(int fd)
{
	note_sync();
	return REAL(fsync)(fd);
}

int fdatasync(int fd)
{
	note_sync();
	return REAL(fdatasync)(fd);
}

/* open and its variants: refuse writing opens of the database's files (ROFS), remember the
 * descriptors of the others. */
static int opened(const char *path, int flags, int fd)
{
	if (fd >= 0 && fd < FSFAULT_MAX_FD)
		is_db[fd] = db_path(path);
	(void)flags;
	return fd;
}

static bool refuse(const char *path, int flags)
{
	if (rofs && db[0] && path && strcmp(path, db) == 0 &&
	    ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC)))) {
		errno = EROFS;
		return true;
	}
	return false;
}

#define OPEN_MODE(flags, mode)                                  \
	mode_t mode = 0;                                        \
	if ((flags) & (O_CREAT | O_TMPFILE)) {                  \
		va_list ap;                                     \
		va_start(ap, flags);                            \
		mode = (mode_t)va_arg(ap, int);                 \
		va_end(ap);                                     \
	}

int open(const char *path, int flags, ...)
{
	OPEN_MODE(flags, mode);
	if (refuse(path, flags))
		return -1;
	return opened(path, flags, REAL(open)(path, flags, mode));
}

int open64(const char *path, int flags, ...)
{
	OPEN_MODE(flags, mode);
	if (refuse(path, flags))
		return -1;
	return opened(path, flags, REAL(open64)(path, flags, mode));
}

int openat(int dir, const char *path, int flags, ...)
{
	OPEN_MODE(flags, mode);
	if (refuse(path, flags))
		return -1;
	return opened(path, flags, REAL(openat)(dir, path, flags, mode));
}

int openat64(int dir, const char *path, int flags, ...)
{
	OPEN_MODE(flags, mode);
	if (refuse(path, flags))
		return -1;
	return opened(path, flags, REAL(openat64)(dir, path, flags, mode));
}

int close(int fd)
{
	if (fd >= 0 && fd < FSFAULT_MAX_FD)
		is_db[fd] = 0;
	return REAL(close)(fd);
}

static bool full(int fd)
{
	if (enospc && db_fd(fd)) {
		errno = ENOSPC;
		return true;
	}
	return false;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	return full(fd) ? -1 : REAL(write)(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return full(fd) ? -1 : REAL(pwrite)(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	return full(fd) ? -1 : REAL(pwrite64)(fd, buf, n, off);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	return full(fd) ? -1 : REAL(writev)(fd, iov, cnt);
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
	return full(fd) ? -1 : REAL(pwritev)(fd, iov, cnt, off);
}

int fallocate(int fd, int mode, off_t off, off_t len)
{
	return full(fd) ? -1 : REAL(fallocate)(fd, mode, off, len);
}

int posix_fallocate(int fd, off_t off, off_t len)
{
	if (enospc && db_fd(fd))
		return ENOSPC;
	return REAL(posix_fallocate)(fd, off, len);
}

static void fake(struct statvfs *v)
{
	if (!fake_free || !v->f_frsize)
		return;
	v->f_bavail = v->f_bfree = (fsblkcnt_t)(free_bytes / v->f_frsize);
}

int statvfs(const char *path, struct statvfs *v)
{
	int r = REAL(statvfs)(path, v);
	if (r == 0)
		fake(v);
	return r;
}

int fstatvfs(int fd, struct statvfs *v)
{
	int r = REAL(fstatvfs)(fd, v);
	if (r == 0)
		fake(v);
	return r;
}
