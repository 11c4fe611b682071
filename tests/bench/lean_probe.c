/* lean_load's disk probe (--disk-probe, lean_load.h): a thread that, every LEAN_PROBE_MS, writes
 * LEAN_PROBE_WRITE bytes into a file of its own beside the spawned server's database and
 * fdatasyncs it, timing each write and sync together. The file is written in full and synced
 * before the first timed write, and the probe then overwrites it in place, as SQLite reuses its
 * WAL: a sync with no size change, so what it measures is the disk's flush (and the file
 * system's), not a journal commit for a growing file. Run beside the soak, it tells what a
 * sync costs on that disk at that moment: the part of tengend's commit time that is the
 * disk's. The thread runs where lean_load runs (on the client's CPU with --pin), so a wake-up
 * that waits for that CPU is in its figures too. */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lean_load.h"

static pthread_t thread;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static bool started, quit, recording;
static struct bench_lat taken;  /* the window's syncs, microseconds (under mu) */
static size_t mark;             /* taken's first entry of this interval */
static int fd = -1;
static char path[700];

static void *probe_main(void *arg)
{
	(void)arg;
	static char buf[LEAN_PROBE_WRITE];
	memset(buf, 'p', sizeof buf);
	off_t off = 0;
	for (;;) {
		pthread_mutex_lock(&mu);
		bool q = quit, rec = recording;
		pthread_mutex_unlock(&mu);
		if (q)
			break;
		uint64_t t0 = lean_now();
		bool ok = pwrite(fd, buf, sizeof buf, off) == (ssize_t)sizeof buf && fdatasync(fd) == 0;
		uint64_t dt = lean_now() - t0;
		if (!ok)
			lean_die("--disk-probe: %s: %s", path, strerror(errno));
		off = (off + LEAN_PROBE_WRITE) % LEAN_PROBE_FILE;
		if (rec) {
			pthread_mutex_lock(&mu);
			bool added = bench_lat_add(&taken, dt);
			pthread_mutex_unlock(&mu);
			if (!added)
				lean_die("out of memory");
		}
		struct timespec d = { 0, LEAN_PROBE_MS * 1000000L };
		nanosleep(&d, NULL);
	}
	return NULL;
}

int probe_start(const char *dir)
{
	snprintf(path, sizeof path, "%s/disk-probe", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		fprintf(stderr, "lean_load: --disk-probe: %s: %s\n", path, strerror(errno));
		return -1;
	}
	static char zero[LEAN_PROBE_WRITE];
	for (off_t off = 0; off < LEAN_PROBE_FILE; off += LEAN_PROBE_WRITE)
		if (pwrite(fd, zero, sizeof zero, off) != (ssize_t)sizeof zero) {
			fprintf(stderr, "lean_load: --disk-probe: %s: %s\n", path, strerror(errno));
			goto fail;
		}
	if (fsync(fd) != 0) {
		fprintf(stderr, "lean_load: --disk-probe: fsync %s: %s\n", path, strerror(errno));
		goto fail;
	}
	int e = pthread_create(&thread, NULL, probe_main, NULL);
	if (e != 0) {
		fprintf(stderr, "lean_load: --disk-probe: pthread_create: %s\n", strerror(e));
		goto fail;
	}
	started = true;
	return 0;
fail:
	close(fd);
	fd = -1;
	unlink(path);
	return -1;
}

void probe_record(bool on)
{
	pthread_mutex_lock(&mu);
	recording = on;
	if (on)
		mark = taken.n;
	pthread_mutex_unlock(&mu);
}

/* Sort a copy of taken's entries from `from` on into *out (n of them); the caller frees it. */
static size_t copy_sorted(size_t from, uint32_t **out)
{
	pthread_mutex_lock(&mu);
	size_t n = taken.n - from;
	uint32_t *v = malloc((n ? n : 1) * sizeof *v);
	if (v && n)
		memcpy(v, taken.v + from, n * sizeof *v);
	pthread_mutex_unlock(&mu);
	if (!v)
		lean_die("out of memory");
	qsort(v, n, sizeof *v, bench_cmp_u32);
	*out = v;
	return n;
}

void probe_interval(void)
{
	if (!started)
		return;
	uint32_t *v;
	size_t n = copy_sorted(mark, &v);
	printf("; disk probe ms: p50 %.3f p99 %.3f max %.3f (%zu syncs)", bench_pct_u32(v, n, 0.5),
	       bench_pct_u32(v, n, 0.99), n ? v[n - 1] / 1000.0 : 0, n);
	free(v);
	pthread_mutex_lock(&mu);
	mark = taken.n;
	pthread_mutex_unlock(&mu);
}

void probe_report(void)
{
	if (!started)
		return;
	uint32_t *v;
	size_t n = copy_sorted(0, &v);
	double p50 = bench_pct_u32(v, n, 0.5), p99 = bench_pct_u32(v, n, 0.99);
	double p999 = bench_pct_u32(v, n, 0.999), mx = n ? v[n - 1] / 1000.0 : 0;
	printf("  disk probe (a %d-byte write and fdatasync every %d ms beside the database), ms: "
	       "p50 %.3f  p99 %.3f  p99.9 %.3f  max %.3f (%zu syncs)\n", LEAN_PROBE_WRITE,
	       LEAN_PROBE_MS, p50, p99, p999, mx, n);
	printf("result mode=disk_probe syncs=%zu p50_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f\n",
	       n, p50, p99, p999, mx);
	fflush(stdout);
	free(v);
}

void probe_stop(void)
{
	if (!started)
		return;
	pthread_mutex_lock(&mu);
	quit = true;
	pthread_mutex_unlock(&mu);
	pthread_join(thread, NULL);
	started = false;
	close(fd);
	fd = -1;
	unlink(path);
	free(taken.v);
	taken = (struct bench_lat){ 0 };
}
