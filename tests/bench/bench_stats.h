/* bench_stats: what load_bench and lean_load both measure with: a process's CPU time, the
 * round trips kept in microseconds and their percentiles, and the maxima of tengend's `loop`
 * log lines (server/core/loopstat.h) read from its log as they come. */
#ifndef TENGEN_BENCH_STATS_H
#define TENGEN_BENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_LOOP_FIGS 8        /* the loop figures read from tengend's log */
#define BENCH_LAT_START 65536    /* first capacity of a round-trip list */
#define BENCH_LOG_LINE_MAX 1024  /* a `loop` line, bytes */
#define BENCH_THREADS_MAX 16     /* a process's threads told apart by name */
#define BENCH_COMM_MAX 16        /* a thread's name, with its NUL (proc(5): TASK_COMM_LEN) */

/* The keys of tengend's `loop` line kept, in the order of the figures (each the largest, ms). */
extern const char *const bench_loop_keys[BENCH_LOOP_FIGS];

/* Round trips in microseconds (capped at UINT32_MAX). */
struct bench_lat {
	uint32_t *v;
	size_t n, cap;
};

/* CPU seconds (user + system, all threads) of process pid from /proc/PID/stat (proc(5));
 * -1 if unreadable. */
double bench_proc_cpu(int pid);
/* The bytes process pid has caused to be written to storage so far (/proc/PID/io's
 * write_bytes, counted as pages are dirtied: the WAL, the database, the checkpoints' copies;
 * proc(5)); -1 if unreadable. */
long long bench_proc_write_bytes(int pid);
/* CPU seconds of one name's threads: user and system (kernel) apart. */
struct bench_thread_cpu {
	char comm[BENCH_COMM_MAX];
	double user_s, sys_s;
};

/* The CPU time of process pid's threads by name (/proc/PID/task/TID/stat, proc(5)): threads
 * of one name are summed; the first BENCH_THREADS_MAX names are kept. Returns how many names
 * went into t (0 if unreadable). Threads that ended are not counted. */
int bench_proc_threads(int pid, struct bench_thread_cpu t[BENCH_THREADS_MAX]);
/* Append a round trip of ns nanoseconds; false when out of memory. */
bool bench_lat_add(struct bench_lat *l, uint64_t ns);
/* qsort's comparison of uint32_t. */
int bench_cmp_u32(const void *a, const void *b);
/* Percentile p (0..1) of n sorted microsecond values, in ms (0 for none). */
double bench_pct_u32(const uint32_t *v, size_t n, double p);
/* Read the `loop` lines logged to logfile since *offset (moved past them; a line still being
 * written is left for the next call); the largest of each figure into m (0 if none). */
void bench_loop_scan(const char *logfile, long *offset, double m[BENCH_LOOP_FIGS]);

#endif
