/* lean_load's figures (lean_load.h): the round trips of the window and of each interval
 * (--report-every), CPU of both processes, the spawned tengend's loop figures (--loop-stats:
 * its `loop` log lines, server/core/loopstat.h, read from its log as they come, as load_bench
 * does), and the summary with its machine-readable `result` lines. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "lean_load.h"

static long log_offset;      /* how far the server's log was read */
static size_t mark;          /* LS.lat.v's first entry of this interval */
static uint64_t moves_mark;  /* LS.moves at its start */
static int interval_no;

double report_self_cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

void lean_lat_add(uint64_t ns)
{
	if (!bench_lat_add(&LS.lat, ns))
		lean_die("out of memory");
}

/* Read the `loop` lines the server logged since the last call; their maxima into m. */
static void loop_scan(double m[LEAN_LOOP_FIGS])
{
	bench_loop_scan(lean_logfile, &log_offset, m);
}

void report_begin(void)
{
	mark = LS.lat.n;
	moves_mark = LS.moves;
	interval_no = 0;
	double skip[LEAN_LOOP_FIGS];
	if (L.loop_stats)
		loop_scan(skip); /* the set-up's lines are not the window's */
	for (int i = 0; i < LEAN_LOOP_FIGS; i++)
		LS.loop[i] = 0;
	kern_begin();
}

void report_interval(double secs)
{
	size_t n = LS.lat.n - mark;
	uint32_t *v = malloc((n ? n : 1) * sizeof *v);
	if (!v)
		lean_die("out of memory");
	memcpy(v, LS.lat.v + mark, n * sizeof *v);
	qsort(v, n, sizeof *v, bench_cmp_u32);
	double p99 = bench_pct_u32(v, n, 0.99);
	interval_no++;
	printf("  interval %d (%.1f s): %llu moves (%.0f/s), round trip ms p50 %.3f p99 %.3f "
	       "p99.9 %.3f max %.3f", interval_no, secs, (unsigned long long)(LS.moves - moves_mark),
	       (double)(LS.moves - moves_mark) / secs, bench_pct_u32(v, n, 0.5), p99, bench_pct_u32(v, n, 0.999),
	       n ? v[n - 1] / 1000.0 : 0);
	if (p99 > LS.worst_p99)
		LS.worst_p99 = p99;
	if (L.loop_stats) {
		double m[LEAN_LOOP_FIGS];
		loop_scan(m);
		printf("; loop max ms: busy %.2f begin %.2f commit %.2f flush %.2f fold %.2f ckpt %.2f "
		       "restart-ckpt %.2f loop-ckpt %.2f", m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]);
		for (int i = 0; i < LEAN_LOOP_FIGS; i++)
			if (m[i] > LS.loop[i])
				LS.loop[i] = m[i];
	}
	kern_interval();
	probe_interval();
	printf("\n");
	fflush(stdout);
	free(v);
	mark = LS.lat.n;
	moves_mark = LS.moves;
}

void report_play(double secs, double setup_s, double client_cpu, double server_cpu)
{
	const char *mode = L.echo ? "echo" : "play";
	qsort(LS.lat.v, LS.lat.n, sizeof *LS.lat.v, bench_cmp_u32);
	double mps = secs > 0 ? (double)LS.moves / secs : 0;
	double p50 = bench_pct_u32(LS.lat.v, LS.lat.n, 0.5), p99 = bench_pct_u32(LS.lat.v, LS.lat.n, 0.99);
	double p999 = bench_pct_u32(LS.lat.v, LS.lat.n, 0.999), mx = LS.lat.n ? LS.lat.v[LS.lat.n - 1] / 1000.0 : 0;
	double cus = LS.moves ? client_cpu * 1e6 / (double)LS.moves : 0;
	double sus = LS.moves && server_cpu >= 0 ? server_cpu * 1e6 / (double)LS.moves : -1;
	if (L.loop_stats) {
		double m[LEAN_LOOP_FIGS];
		loop_scan(m);
		for (int i = 0; i < LEAN_LOOP_FIGS; i++)
			if (m[i] > LS.loop[i])
				LS.loop[i] = m[i];
	}
	const char *who = !L.echo ? "server" : !L.echo_sync ? "echo (lean_echo)"
		: strcmp(L.echo_sync, "thread") == 0 ? "durable echo (lean_echo, a sync thread)"
		: "durable echo (lean_echo, syncs in its loop)";
	printf("%s: %d games (%d clients), think %.0f ms, %.1f s measured after a %.1f s set-up\n",
	       who, lean_npairs, lean_nclients, L.think_ms, secs, setup_s);
	printf("  moves: %llu (%.0f/s); round trip ms: p50 %.3f  p99 %.3f  p99.9 %.3f  max %.3f\n",
	       (unsigned long long)LS.moves, mps, p50, p99, p999, mx);
	printf("  cpu per move: client %.1f us (%.2f s), server %.1f us (%.2f s, %.0f%% of a core)\n",
	       cus, client_cpu, sus, server_cpu, secs > 0 ? 100 * server_cpu / secs : 0);
	printf("  errors %llu, disconnects %llu\n", (unsigned long long)LS.errors,
	       (unsigned long long)LS.disconnects);
	if (L.loop_stats)
		printf("  server loop (largest in the window), ms: busy %.2f, begin %.2f, commit %.2f, "
		       "flush %.2f, fold slice %.2f, passive ckpt %.2f, restart ckpt %.2f, on-loop ckpt %.2f\n",
		       LS.loop[0], LS.loop[1], LS.loop[2], LS.loop[3], LS.loop[4], LS.loop[5], LS.loop[6],
		       LS.loop[7]);
	printf("result mode=%s games=%d clients=%d think_ms=%.0f secs=%.1f setup_s=%.2f moves=%llu "
	       "moves_per_s=%.0f p50_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f client_cpu_s=%.2f "
	       "server_cpu_s=%.2f client_us_per_move=%.1f server_us_per_move=%.1f errors=%llu "
	       "disconnects=%llu\n", mode, lean_npairs, lean_nclients, L.think_ms, secs, setup_s,
	       (unsigned long long)LS.moves, mps, p50, p99, p999, mx, client_cpu, server_cpu, cus, sus,
	       (unsigned long long)LS.errors, (unsigned long long)LS.disconnects);
	if (L.report_every > 0)
		printf("result mode=soak worst_interval_p99_ms=%.3f\n", LS.worst_p99);
	if (L.loop_stats) {
		printf("result mode=loop");
		for (int i = 0; i < LEAN_LOOP_FIGS; i++)
			printf(" %s=%.3f", bench_loop_keys[i], LS.loop[i]);
		printf("\n");
	}
	fflush(stdout);
}

void report_threads(const struct bench_thread_cpu *a, int na, const struct bench_thread_cpu *b,
		    int nb)
{
	if (!nb || !LS.moves)
		return;
	double per = 1e6 / (double)LS.moves;
	printf("  server cpu per move by thread, us (user + kernel):");
	for (int i = 0; i < nb; i++) {
		double u = b[i].user_s, k = b[i].sys_s;
		for (int j = 0; j < na; j++)
			if (strcmp(a[j].comm, b[i].comm) == 0) {
				u -= a[j].user_s;
				k -= a[j].sys_s;
			}
		printf("%s %s %.1f + %.1f", i ? "," : "", b[i].comm, u * per, k * per);
	}
	printf("\n");
}

void report_writes(long long bytes)
{
	double per = LS.moves ? (double)bytes / (double)LS.moves : 0;
	printf("  server writes to storage (/proc/PID/io write_bytes: WAL, database, checkpoints): "
	       "%.1f MiB, %.0f bytes a move\n", (double)bytes / (1024.0 * 1024.0), per);
	printf("result mode=writes bytes=%lld bytes_per_move=%.0f\n", bytes, per);
	fflush(stdout);
}
