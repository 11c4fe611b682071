/* loopstat: the loop's stall figures (issue 22). Per loop iteration, measured at the end of the
 * commit-and-flush step (server.c on_prepare): how long the loop worked since the previous one
 * without waiting for I/O ("busy": the iteration's wall time less the time libuv spent waiting
 * in epoll, uv_metrics_idle_time), and how long parts of it took: the iteration's BEGIN
 * IMMEDIATE (server_txn; it waits there while the upkeep thread, upkeep.c, holds the store's
 * write lock), the commit and the flush. Maxima are kept per window of --loop-stats S seconds
 * and logged at its end as one line (times in ms):
 *
 *   loop iters=N commits=N busy_max_ms=X begin_max_ms=X commit_max_ms=X flush_max_ms=X UPKEEP
 *
 * where UPKEEP is the upkeep thread's figures for the window (upkeep.h upkeep_stats_line:
 * folded rows and slices, the longest slice, i.e. the longest hold of the write lock, and
 * the checkpoints). The maxima since the start are kept too (`total`). Loop thread only. */
#ifndef TENGEN_LOOPSTAT_H
#define TENGEN_LOOPSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#define LOOPSTAT_EVERY_MAX_S 3600 /* --loop-stats S: at most an hour */

/* One window's (or the whole run's) figures; times in nanoseconds. */
struct loopstat_win {
	uint64_t iters, commits; /* commits: iterations that committed (group commits) */
	uint64_t busy_max, begin_max, commit_max, flush_max;
};

struct loopstat {
	uv_loop_t *loop;
	unsigned every_s;         /* a window and its log line every this many seconds; 0: none */
	uint64_t last_ns;         /* uv_hrtime at the end of the previous iteration's step */
	uint64_t last_idle_ns;    /* uv_metrics_idle_time then */
	uint64_t win_start_ns;
	uint64_t begin_ns;        /* the longest begin since the last step (loopstat_begin) */
	struct loopstat_win win, total;
	bool idle_metrics;        /* uv_loop_configure(UV_METRICS_IDLE_TIME) worked */
};

/* Start on `loop` (before uv_run: turns on libuv's idle-time metric). every_s: see above. */
void loopstat_start(struct loopstat *ls, uv_loop_t *loop, unsigned every_s);
/* A BEGIN of the iteration's transaction took ns. */
void loopstat_begin(struct loopstat *ls, uint64_t ns);
/* True when the window's line is due at the next loopstat_step (the caller gathers the
 * upkeep figures only then). */
bool loopstat_due(const struct loopstat *ls);
/* Record one iteration's step: the commit took commit_ns (0: nothing to commit), the flush
 * flush_ns; call at the end of the step. Logs the window's line when it is due, ending with
 * `upkeep_line` (may be NULL). */
void loopstat_step(struct loopstat *ls, uint64_t commit_ns, uint64_t flush_ns,
		   const char *upkeep_line);

#endif
