/* load_soak: the soak figures of load_bench (issue 22): round trips per interval
 * (--report-every S: p50/p99/p99.9/max of the moves whose replies came in each S seconds of
 * the measured window) and the spawned server's loop stall figures (--loop-stats: tengend's
 * `loop` log lines, server/core/loopstat.h, read from its log file as they come). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "load_bench.h"

static long log_offset;        /* how far the server's log was read */
static size_t mark;            /* S.lat.v's first entry of this interval */
static uint64_t moves_mark;    /* S.moves at its start */
static int interval_no;

/* Read the `loop` lines the server logged since the last call; the maxima into m. */
void loop_scan(double m[LOOP_FIGS])
{
	bench_loop_scan(logfile, &log_offset, m);
}

void soak_begin(void)
{
	mark = S.lat.n;
	moves_mark = S.moves;
	interval_no = 0;
	double skip[LOOP_FIGS];
	if (O.loop_stats)
		loop_scan(skip); /* the set-up's lines are not the window's */
	for (int i = 0; i < LOOP_FIGS; i++)
		S.loop[i] = 0;
}

void soak_interval(double secs)
{
	size_t n = S.lat.n - mark;
	uint32_t *v = malloc((n ? n : 1) * sizeof *v);
	if (!v)
		die("out of memory");
	memcpy(v, S.lat.v + mark, n * sizeof *v);
	qsort(v, n, sizeof *v, bench_cmp_u32);
	double p99 = bench_pct_u32(v, n, 0.99), mx = n ? v[n - 1] / 1000.0 : 0;
	interval_no++;
	printf("  interval %d (%.0f s): %llu moves (%.0f/s), round trip ms p50 %.3f p99 %.3f "
	       "p99.9 %.3f max %.3f", interval_no, secs,
	       (unsigned long long)(S.moves - moves_mark), (double)(S.moves - moves_mark) / secs,
	       bench_pct_u32(v, n, 0.5), p99, bench_pct_u32(v, n, 0.999), mx);
	if (p99 > S.worst_p99)
		S.worst_p99 = p99;
	if (O.loop_stats) {
		double m[LOOP_FIGS];
		loop_scan(m);
		printf("; loop busy max %.2f ms, begin %.2f, commit %.2f, fold slice %.2f, "
		       "restart ckpt %.2f, on-loop ckpt %.2f", m[0], m[1], m[2], m[4], m[6], m[7]);
		for (int i = 0; i < LOOP_FIGS; i++)
			if (m[i] > S.loop[i])
				S.loop[i] = m[i];
	}
	printf("\n");
	fflush(stdout);
	free(v);
	mark = S.lat.n;
	moves_mark = S.moves;
}

void soak_end(void)
{
	if (!O.loop_stats)
		return;
	double m[LOOP_FIGS];
	loop_scan(m);
	for (int i = 0; i < LOOP_FIGS; i++)
		if (m[i] > S.loop[i])
			S.loop[i] = m[i];
	printf("  server loop (largest of its `loop` lines in the window): busy %.2f ms, begin %.2f, "
	       "commit %.2f, flush %.2f, fold slice %.2f, passive ckpt (off the loop) %.2f, "
	       "restart ckpt %.2f, on-loop ckpt %.2f\n", S.loop[0], S.loop[1], S.loop[2], S.loop[3],
	       S.loop[4], S.loop[5], S.loop[6], S.loop[7]);
}
