/* load_bench: a load generator for tengend (issue 8).
 *
 * Opens C client connections on one libuv loop to a running tengend (--server HOST:PORT) or to
 * one it starts itself (--spawn PATH: a temporary database unless --db, `--pwhash-cost fast`,
 * connection limits raised, port 0 and --port-file). Bot accounts bench-NNNNNN register (or log
 * in if they exist, so a kept --db skips the hashing) and play G concurrent games in pairs.
 * Each game's board is kept here with common/board, so every move is legal unless --illegal
 * asks for a share of occupied-point moves (Art. 19: the server forfeits the turn). A player
 * answers as soon as its turn comes (game.move event), after --think ms. A game that reaches
 * --moves-per-game moves (or has no sensible move) is resigned and the pair challenges again.
 *
 * Modes:
 *   play (default)  throughput and latency: moves per second committed (a move counts once its
 *                   reply arrives), round trip per move p50/p99/p99.9/max, server CPU seconds and
 *                   peak RSS (/proc/PID), errors and disconnects.
 *   --echo          the same traffic against a bare line-echo server (a forked child on libuv
 *                   using proto/framing: each line read is written back, one uv_write per read):
 *                   the ceiling any server reaches on this machine. The partner's turn comes
 *                   when the mover's echo arrives.
 *   --with-echo     run --echo first, then the server, and print the ratio.
 *   --timers        games under --time (default byoyomi 0 s main, 3 x 1 s periods) and no moves;
 *                   each flag's lateness is measured (see docs/benchmarks.md for the method).
 *   --restart       G unfinished games (K per pair, --games-per-pair, one move each), kill -9
 *                   the spawned server, start it again and time until a `ping` is answered.
 *   --ws            the clients speak WebSocket (RFC 6455, masked frames) to the spawned
 *                   tengend's --http listener at /ws: one text message a request line.
 *   --attack KIND   play (the honest players, from 127.0.0.1) while a forked attacker hits the
 *                   server from BENCH_ATTACK_ADDR with BENCH_ATTACK_CONNS connections for the
 *                   warm-up and the measured time (and stops by itself then): `listing` (each
 *                   keeps BENCH_ATTACK_DEPTH `games limit=1000` in flight over 1000 ended games,
 *                   reading the replies), `silent` (the same requests, never read), `register`
 *                   (registrations; the server hashes at the interactive cost), `login` (failed
 *                   logins for the honest players' names), `challenge` (BENCH_ATTACK_ACCOUNTS
 *                   accounts challenge the honest players). Loopback only; the round trips
 *                   printed are the honest players' moves, and `time_losses` counts their
 *                   games lost on time (issue 20).
 *
 * The last line of output is "result key=value ..." for scripts/bench.
 *
 * This file: the options, the runs and their phases, the report; load_client.c: the clients
 * and the protocol; load_servers.c: the echo server, tengend and the attacker it forks
 * (their shared state in load_bench.h).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>
#include <uv.h>
#include "board.h"
#include "framing.h"
#include "load_bench.h"

struct opts O = {
	.games = 100, .size = 19, .moves_per_game = 250, .games_per_pair = 10, .duration = 10,
	.warmup = 1, .log_level = "warn",
};
uv_loop_t *loop;
struct client *clients;
struct pair *pairs;
int nclients, npairs;
int next_connect, connecting, nconnected, nlogged;
struct sockaddr_in target;
enum phase phase;
static uint64_t phase_start, measure_start, measure_end, next_report;
struct stats S;
static uv_timer_t tick;
pid_t server_pid;
static char tmpdir[256];
char dbpath[512], portfile[600], logfile[600];
static double cpu0, cpu1, last_mps;
static struct client *extra; /* restart mode: the client after the restart */
uint64_t restart_pinged;
static long rss_base_kb;
bool echo_run;
static uint64_t rng_state;
static const char *last_error = "";
bool restart_phase2;
uint64_t restart_t0;
int restart_states;
int setup_inflight, next_setup_pair; /* timers mode: paced game set-up */

/* ---- small helpers ---- */

uint64_t rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(2685821657736338717);
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "load_bench: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	if (server_pid > 0)
		kill(server_pid, SIGKILL);
	exit(1);
}

void note_error(const char *what)
{
	S.errors++;
	if (S.errors <= 10)
		fprintf(stderr, "load_bench: error: %s\n", what);
	last_error = what;
}

/* A "VmHWM:" / "VmRSS:" figure of /proc/PID/status in KiB; -1 if unreadable. */
long proc_kb(int pid, const char *key)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	long v = -1;
	size_t kl = strlen(key);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, kl) == 0) {
			v = strtol(line + kl, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

void lat_add(uint64_t ns)
{
	if (!bench_lat_add(&S.lat, ns))
		die("out of memory");
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double pct_dbl(const double *v, size_t n, double p)
{
	if (!n)
		return 0;
	return v[(size_t)(p * (double)(n - 1) + 0.5)];
}

/* ---- phases ---- */

static void restart_begin(void);

static void stop_all(void)
{
	for (int i = 0; i < nclients; i++)
		client_close(&clients[i]);
	if (extra)
		client_close(extra);
	uv_close((uv_handle_t *)&tick, on_closed);
}

static void report_play(void)
{
	double secs = (double)(measure_end - measure_start) / 1e9;
	qsort(S.lat.v, S.lat.n, sizeof *S.lat.v, bench_cmp_u32);
	double mps = secs > 0 ? (double)S.moves / secs : 0;
	last_mps = mps;
	double cpu = cpu1 - cpu0;
	long hwm = server_pid > 0 ? proc_kb(server_pid, "VmHWM:") : -1;
	long rss = server_pid > 0 ? proc_kb(server_pid, "VmRSS:") : -1;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double bench_cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
			   (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	printf("%s: %d games (%d clients connected, %d logged in), think %.0f ms, illegal %.3f, %.1f s measured\n",
	       echo_run ? "echo" : "server", npairs, nconnected, nlogged, O.think_ms, O.illegal, secs);
	printf("  moves committed: %llu (%.0f/s); illegal answered: %llu; games started %llu, ended %llu\n",
	       (unsigned long long)S.moves, mps, (unsigned long long)S.illegal_replies,
	       (unsigned long long)S.games_started, (unsigned long long)S.games_ended);
	printf("  round trip ms: p50 %.3f  p99 %.3f  p99.9 %.3f  max %.3f\n", bench_pct_u32(S.lat.v, S.lat.n, 0.5),
	       bench_pct_u32(S.lat.v, S.lat.n, 0.99), bench_pct_u32(S.lat.v, S.lat.n, 0.999),
	       S.lat.n ? S.lat.v[S.lat.n - 1] / 1000.0 : 0);
	printf("  server: cpu %.2f s in the window (%.0f%% of a core), peak RSS %ld KiB, RSS now %ld KiB, at start %ld KiB",
	       cpu, secs > 0 ? 100 * cpu / secs : 0, hwm, rss, rss_base_kb);
	if (nconnected && hwm > 0)
		printf(", %.1f KiB per connection (peak / connections), %.1f KiB (growth / connections)",
		       (double)hwm / nconnected, (double)(hwm - rss_base_kb) / nconnected);
	printf("\n  load generator cpu %.2f s in all; errors %llu, disconnects %llu%s%s\n", bench_cpu,
	       (unsigned long long)S.errors, (unsigned long long)S.disconnects,
	       S.errors ? ", last: " : "", S.errors ? last_error : "");
	if (O.attack)
		printf("  attack %s from %s: honest games lost on time %llu\n", O.attack,
		       BENCH_ATTACK_ADDR, (unsigned long long)S.time_losses);
	if (!echo_run)
		soak_end();
	printf("result mode=%s games=%d clients=%d think_ms=%.0f illegal=%.3f secs=%.1f moves=%llu moves_per_s=%.0f "
	       "p50_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f server_cpu_s=%.2f server_peak_rss_kb=%ld "
	       "server_rss_kb=%ld rss_base_kb=%ld kb_per_conn=%.1f errors=%llu disconnects=%llu\n",
	       echo_run ? "echo" : "play", npairs, nconnected, O.think_ms, O.illegal, secs,
	       (unsigned long long)S.moves, mps, bench_pct_u32(S.lat.v, S.lat.n, 0.5), bench_pct_u32(S.lat.v, S.lat.n, 0.99),
	       bench_pct_u32(S.lat.v, S.lat.n, 0.999), S.lat.n ? S.lat.v[S.lat.n - 1] / 1000.0 : 0, cpu, hwm, rss,
	       rss_base_kb, nconnected && hwm > 0 ? (double)hwm / nconnected : 0,
	       (unsigned long long)S.errors, (unsigned long long)S.disconnects);
	if (!echo_run && O.report_every > 0)
		printf("result mode=soak worst_interval_p99_ms=%.3f\n", S.worst_p99);
	if (!echo_run && O.loop_stats) {
		printf("result mode=loop");
		for (int i = 0; i < LOOP_FIGS; i++)
			printf(" %s=%.3f", bench_loop_keys[i], S.loop[i]);
		printf("\n");
	}
	fflush(stdout);
}

static void report_timers(void)
{
	double D = 0;
	/* the due time of Black's flag with no move: main + periods x period */
	json_t *t = json_loads(O.time, 0, NULL);
	if (t) {
		D = json_number_value(json_object_get(t, "main_s")) +
		    json_number_value(json_object_get(t, "periods")) *
		    json_number_value(json_object_get(t, "period_s"));
		json_decref(t);
	}
	size_t n = 0, missing = 0;
	S.late_hi = calloc((size_t)npairs + 1, sizeof(double));
	S.late_lo = calloc((size_t)npairs + 1, sizeof(double));
	for (int i = 0; i < npairs; i++) {
		struct pair *p = &pairs[i];
		if (!p->accept_sent)
			continue;
		if (!p->end_seen) {
			missing++;
			continue;
		}
		S.late_hi[n] = ((double)(p->end_seen - p->accept_sent) / 1e9 - D) * 1000;
		S.late_lo[n] = ((double)(p->end_seen - p->accept_acked) / 1e9 - D) * 1000;
		n++;
	}
	qsort(S.late_hi, n, sizeof(double), cmp_dbl);
	qsort(S.late_lo, n, sizeof(double), cmp_dbl);
	double mx = n ? S.late_hi[n - 1] : 0;
	long hwm = proc_kb(server_pid, "VmHWM:");
	printf("timers: %d games, %s, due %.1f s after accept; %zu flags seen, %zu missing\n", npairs,
	       O.time, D, n, missing);
	printf("  lateness ms (upper bound: end event arrival - accept sent - due): p50 %.1f  p99 %.1f  max %.1f\n",
	       pct_dbl(S.late_hi, n, 0.5), pct_dbl(S.late_hi, n, 0.99), mx);
	printf("  lower bound (end arrival - accept reply arrival - due): min %.1f  p50 %.1f\n",
	       n ? S.late_lo[0] : 0, pct_dbl(S.late_lo, n, 0.5));
	printf("  server peak RSS %ld KiB; errors %llu, disconnects %llu\n", hwm,
	       (unsigned long long)S.errors, (unsigned long long)S.disconnects);
	printf("result mode=timers games=%d flags=%zu missing=%zu late_p50_ms=%.1f late_p99_ms=%.1f "
	       "late_max_ms=%.1f early_min_ms=%.1f errors=%llu met=%s\n", npairs, n, missing,
	       pct_dbl(S.late_hi, n, 0.5), pct_dbl(S.late_hi, n, 0.99), mx, n ? S.late_lo[0] : 0,
	       (unsigned long long)S.errors, !missing && n && mx <= 50 ? "yes" : "no");
	fflush(stdout);
}

static bool all_started(void)
{
	for (int i = 0; i < npairs; i++)
		if (!pairs[i].live && !pairs[i].ended)
			return false;
	return true;
}

static void on_tick(uv_timer_t *t)
{
	uint64_t now = uv_hrtime();
	double in_phase = (double)(now - phase_start) / 1e9;
	switch (phase) {
	case PH_SETUP:
		if (O.timers && nlogged == nclients && next_setup_pair == 0)
			start_setups();
		if (O.restart) {
			int made = 0;
			for (int i = 0; i < npairs; i++)
				made += pairs[i].created;
			if (made >= npairs * O.games_per_pair) {
				printf("restart: %d unfinished games made in %.1f s\n", made, in_phase);
				fflush(stdout);
				restart_begin();
			} else if (in_phase > BENCH_SETUP_TIMEOUT_S) {
				die("setup timed out: %d games made", made);
			}
			return;
		}
		if (all_started() && (O.timers || nlogged == nclients || echo_run)) {
			fprintf(stderr, "load_bench: setup done in %.1f s (%d connected, %d logged in)\n",
				in_phase, nconnected, nlogged);
			phase = O.timers ? PH_MEASURE : PH_WARMUP;
			phase_start = now;
			if (O.attack && !echo_run)
				attack_start();
			if (O.timers)
				break;
		} else if (in_phase > BENCH_SETUP_TIMEOUT_S) {
			die("setup timed out: %d connected, %d logged in", nconnected, nlogged);
		}
		break;
	case PH_WARMUP:
		if (in_phase >= O.warmup) {
			phase = PH_MEASURE;
			phase_start = measure_start = now;
			next_report = now + (uint64_t)(O.report_every * 1e9);
			soak_begin();
			if (server_pid > 0)
				cpu0 = bench_proc_cpu(server_pid);
		}
		break;
	case PH_MEASURE:
		if (O.timers) {
			bool all = true;
			for (int i = 0; i < npairs; i++)
				all &= pairs[i].ended;
			if (all || in_phase > O.duration + BENCH_TIMERS_SLACK_S) {
				report_timers();
				phase = PH_DONE;
				stop_all();
			}
			break;
		}
		if (O.report_every > 0 && now >= next_report) {
			soak_interval(O.report_every + (double)(now - next_report) / 1e9);
			next_report = now + (uint64_t)(O.report_every * 1e9);
		}
		if (in_phase >= O.duration) {
			measure_end = now;
			if (O.report_every > 0 && now + (uint64_t)(O.report_every * 1e9) > next_report + 100000000u)
				soak_interval((double)(now + (uint64_t)(O.report_every * 1e9) - next_report) / 1e9);
			if (server_pid > 0)
				cpu1 = bench_proc_cpu(server_pid);
			phase = PH_DRAIN;
			phase_start = now;
			report_play();
			/* Resign the live games so a kept database holds no unfinished ones. */
			if (!echo_run)
				for (int i = 0; i < npairs; i++)
					if (pairs[i].live && pairs[i].game && !pairs[i].c[0]->closed) {
						pairs[i].live = false;
						request(pairs[i].c[0], P_RESIGN, "resign", "\"game\":%lld",
							(long long)pairs[i].game);
					}
		}
		break;
	case PH_DRAIN: {
		attack_stop();
		bool idle = true;
		for (int i = 0; i < nclients && idle; i++)
			idle = clients[i].closed || clients[i].pn == 0;
		if (idle || in_phase * 1000 > BENCH_DRAIN_MS) {
			phase = PH_DONE;
			stop_all();
		}
		break;
	}
	case PH_DONE:
		/* Restart: a second after the ping, the first account's login has listed its games. */
		if (restart_phase2 && restart_pinged && (now - restart_pinged) / 1000000 > 1000) {
			printf("restart: bench-000000 logged in and got %d game.state events (%d expected)\n",
			       restart_states, O.games_per_pair);
			if (restart_states != O.games_per_pair)
				note_error("games missing after the restart");
			restart_pinged = 0;
			stop_all();
		}
		break;
	}
}

/* ---- the restart measurement ---- */

static void restart_begin(void)
{
	/* Kill the server hard, close our side, start it again and time until a ping answers. */
	kill(server_pid, SIGKILL);
	int st;
	waitpid(server_pid, &st, 0);
	for (int i = 0; i < nclients; i++)
		client_close(&clients[i]);
	restart_phase2 = true;
	restart_t0 = uv_hrtime();
	int port = spawn_tengend();
	double up = (double)(uv_hrtime() - restart_t0) / 1e9;
	printf("restart: port file written %.3f s after the start\n", up);
	uv_ip4_addr("127.0.0.1", port, &target);
	/* One more client (the first challenger's account) pings, then logs in to count game.state. */
	struct client *c = calloc(1, sizeof *c);
	if (!c)
		die("out of memory");
	client_init(c, 0);
	c->pair = NULL;
	extra = c;
	int r = uv_tcp_connect(&c->creq, &c->tcp, (struct sockaddr *)&target, on_connect);
	if (r < 0)
		die("connect: %s", uv_strerror(r));
	phase = PH_DONE;
}

/* ---- main ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: load_bench (--spawn PATH-TO-TENGEND | --server HOST:PORT) [options]\n"
		"  --games G           concurrent games (2G clients; default 100)\n"
		"  --duration S        seconds measured (default 10), after --warmup S (default 1)\n"
		"  --think MS          think time per move, +-10%% jitter (default 0)\n"
		"  --illegal F         share of moves played on an occupied point (default 0)\n"
		"  --size N            board size (default 19); --moves-per-game N (default 250)\n"
		"  --time JSON         time control object for the games (default none)\n"
		"  --rated             rated games (default unrated)\n"
		"  --echo              the same traffic against a bare line-echo server (the ceiling)\n"
		"  --with-echo         measure --echo first, then the server, and print the ratio\n"
		"  --timers            games under --time and no moves: flag-fall lateness\n"
		"  --restart           G unfinished games, kill -9, restart: time to a ping answer\n"
		"  --games-per-pair K  --restart: games per pair of accounts (default 10)\n"
		"  --db PATH           keep the spawned server's database here (accounts are reused)\n"
		"  --server-pid PID    with --server: read CPU and RSS of this process\n"
		"  --log-level L       the spawned server's log level (default warn)\n"
		"  --sync MODE         the spawned server's --sync (power-safe, lose-on-power-cut)\n"
		"  --seed N            random seed\n"
		"  --report-every S    also print the round trips of every S seconds of the window\n"
		"  --loop-stats        the spawned server logs its loop stall figures every second\n"
		"                      (tengend --loop-stats 1, log level info); print their maxima\n"
		"  --server-arg ARG    one more argument for the spawned tengend (repeat: ARG each)\n"
		"  --ws                the clients speak WebSocket to the spawned tengend's --http\n"
		"                      listener (one message a line; the echo run stays on TCP)\n"
		"  --attack KIND       play while an attacker (127.0.0.66) floods: listing, silent,\n"
		"                      register, login or challenge (loopback only; issue 20)\n");
}

static void one_run(bool echo)
{
	memset(&S, 0, sizeof S);
	echo_run = echo;
	phase = PH_SETUP;
	next_connect = connecting = nconnected = nlogged = 0;
	setup_inflight = next_setup_pair = 0;
	loop = uv_default_loop();
	int port;
	if (echo) {
		port = spawn_echo();
	} else if (O.spawn) {
		port = spawn_tengend();
	} else {
		char host[256];
		const char *colon = strrchr(O.server, ':');
		if (!colon || (size_t)(colon - O.server) >= sizeof host)
			die("--server takes HOST:PORT");
		memcpy(host, O.server, (size_t)(colon - O.server));
		host[colon - O.server] = '\0';
		port = atoi(colon + 1);
		server_pid = O.server_pid;
		if (uv_ip4_addr(host, port, &target) < 0)
			die("bad --server address");
	}
	if (echo || O.spawn)
		uv_ip4_addr("127.0.0.1", port, &target);
	rss_base_kb = server_pid > 0 ? proc_kb(server_pid, "VmRSS:") : -1;
	npairs = O.restart ? (O.games + O.games_per_pair - 1) / O.games_per_pair : O.games;
	nclients = 2 * npairs;
	clients = calloc((size_t)nclients, sizeof *clients);
	pairs = calloc((size_t)npairs, sizeof *pairs);
	if (!clients || !pairs)
		die("out of memory");
	for (int i = 0; i < npairs; i++) {
		struct pair *p = &pairs[i];
		for (int k = 0; k < 2; k++) {
			struct client *c = &clients[2 * i + k];
			client_init(c, 2 * i + k);
			c->pair = p;
			p->c[k] = c;
		}
		board_reset(p);
	}
	uv_timer_init(loop, &tick);
	uv_timer_start(&tick, on_tick, BENCH_TICK_MS, BENCH_TICK_MS);
	phase_start = uv_hrtime();
	connect_more();
	uv_run(loop, UV_RUN_DEFAULT);
	if (server_pid > 0 && (echo || O.spawn)) {
		kill(server_pid, echo ? SIGKILL : SIGTERM);
		int st;
		waitpid(server_pid, &st, 0);
		server_pid = 0;
	}
	for (int i = 0; i < nclients; i++) {
		framing_free(&clients[i].fr);
		client_ws_free(&clients[i]);
	}
	for (int i = 0; i < npairs; i++)
		if (pairs[i].has_board)
			board_free(&pairs[i].board);
	free(clients);
	free(pairs);
	free(S.lat.v);
	free(S.late_hi);
	free(S.late_lo);
	if (extra) {
		framing_free(&extra->fr);
		free(extra);
		extra = NULL;
	}
	restart_phase2 = false;
}

/* Read the command line into O. Returns -1 to go on, else the exit status (usage, --help). */
static int parse_args(int argc, char **argv)
{
	static const struct option lo[] = {
		{"spawn", required_argument, NULL, 's'}, {"server", required_argument, NULL, 'S'},
		{"games", required_argument, NULL, 'g'}, {"duration", required_argument, NULL, 'd'},
		{"warmup", required_argument, NULL, 'w'}, {"think", required_argument, NULL, 't'},
		{"illegal", required_argument, NULL, 'i'}, {"size", required_argument, NULL, 'z'},
		{"moves-per-game", required_argument, NULL, 'm'}, {"time", required_argument, NULL, 'T'},
		{"rated", no_argument, NULL, 'r'}, {"echo", no_argument, NULL, 'e'},
		{"with-echo", no_argument, NULL, 'E'}, {"timers", no_argument, NULL, 'F'},
		{"restart", no_argument, NULL, 'R'}, {"games-per-pair", required_argument, NULL, 'k'},
		{"db", required_argument, NULL, 'D'}, {"server-pid", required_argument, NULL, 'p'},
		{"log-level", required_argument, NULL, 'L'}, {"seed", required_argument, NULL, 'x'},
		{"sync", required_argument, NULL, 'Y'}, {"attack", required_argument, NULL, 'A'},
		{"report-every", required_argument, NULL, 'v'},
		{"loop-stats", no_argument, NULL, 'l'},
		{"server-arg", required_argument, NULL, 'a'},
		{"ws", no_argument, NULL, 'W'},
		{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	int o;
	while ((o = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (o) {
		case 's': O.spawn = optarg; break;
		case 'S': O.server = optarg; break;
		case 'g': O.games = atoi(optarg); break;
		case 'd': O.duration = atof(optarg); break;
		case 'w': O.warmup = atof(optarg); break;
		case 't': O.think_ms = atof(optarg); break;
		case 'i': O.illegal = atof(optarg); break;
		case 'z': O.size = atoi(optarg); break;
		case 'm': O.moves_per_game = atoi(optarg); break;
		case 'T': O.time = optarg; break;
		case 'r': O.rated = true; break;
		case 'e': O.echo = true; break;
		case 'W': O.ws = true; break;
		case 'E': O.with_echo = true; break;
		case 'F': O.timers = true; break;
		case 'R': O.restart = true; break;
		case 'k': O.games_per_pair = atoi(optarg); break;
		case 'D': O.db = optarg; break;
		case 'p': O.server_pid = atoi(optarg); break;
		case 'L': O.log_level = optarg; break;
		case 'Y': O.sync = optarg; break;
		case 'A': O.attack = optarg; break;
		case 'v': O.report_every = atof(optarg); break;
		case 'l': O.loop_stats = true; break;
		case 'a':
			if (O.nserver_args == BENCH_SERVER_ARGS) {
				fprintf(stderr, "load_bench: at most %d --server-arg\n", BENCH_SERVER_ARGS);
				return 2;
			}
			O.server_args[O.nserver_args++] = optarg;
			break;
		case 'x': O.seed = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	return -1;
}

/* Check the options and fill in the timers mode's defaults. Returns -1 to go on, else the
 * exit status. */
static int check_args(void)
{
	if (O.games < 1 || O.size < 2 || O.size > BOARD_MAX_SIZE || O.duration <= 0 ||
	    O.illegal < 0 || O.illegal > 0.5 || O.games_per_pair < 1 || O.moves_per_game < 1) {
		usage(stderr);
		return 2;
	}
	if (!O.echo && !O.spawn && !O.server) {
		fprintf(stderr, "load_bench: give --spawn PATH or --server HOST:PORT (or --echo)\n");
		return 2;
	}
	if (O.attack && strcmp(O.attack, "listing") != 0 && strcmp(O.attack, "silent") != 0 &&
	    strcmp(O.attack, "register") != 0 && strcmp(O.attack, "login") != 0 &&
	    strcmp(O.attack, "challenge") != 0) {
		fprintf(stderr, "load_bench: --attack takes listing, silent, register, login or challenge\n");
		return 2;
	}
	if (O.loop_stats && !O.spawn) {
		fprintf(stderr, "load_bench: --loop-stats needs --spawn\n");
		return 2;
	}
	if (O.loop_stats && strcmp(O.log_level, "warn") == 0)
		O.log_level = "info"; /* the `loop` lines are info */
	if (O.report_every < 0) {
		usage(stderr);
		return 2;
	}
	if (O.restart && !O.spawn) {
		fprintf(stderr, "load_bench: --restart needs --spawn\n");
		return 2;
	}
	if (O.timers && !O.time)
		O.time = "{\"system\":\"byoyomi\",\"main_s\":0,\"periods\":3,\"period_s\":1}";
	if (O.timers)
		O.duration = 0;
	return -1;
}

/* --spawn: the temporary directory of the server's database (unless --db), port file and log. */
static void spawn_files(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/load_bench.XXXXXX");
	if (!mkdtemp(tmpdir))
		die("mkdtemp: %s", strerror(errno));
	snprintf(dbpath, sizeof dbpath, "%s", O.db ? O.db : "");
	if (!O.db)
		snprintf(dbpath, sizeof dbpath, "%s/bench.db", tmpdir);
	snprintf(portfile, sizeof portfile, "%s/port", tmpdir);
	snprintf(logfile, sizeof logfile, "%s/tengend.log", tmpdir);
}

/* --spawn: remove the temporary database (unless --db), and the log unless the run failed. */
static void spawn_cleanup(int rc)
{
	if (!O.db) {
		unlink(dbpath);
		char p[700];
		snprintf(p, sizeof p, "%s-wal", dbpath);
		unlink(p);
		snprintf(p, sizeof p, "%s-shm", dbpath);
		unlink(p);
		snprintf(p, sizeof p, "%s.lock", dbpath);
		unlink(p);
	}
	if (rc)
		fprintf(stderr, "load_bench: the server's log is kept in %s\n", logfile);
	else {
		unlink(logfile);
		unlink(portfile);
		rmdir(tmpdir);
	}
}

int main(int argc, char **argv)
{
	int rc = parse_args(argc, argv);
	if (rc < 0)
		rc = check_args();
	if (rc >= 0)
		return rc;
	rng_state = O.seed ? O.seed : (uint64_t)uv_hrtime() | 1;
	signal(SIGPIPE, SIG_IGN);
	/* As many descriptors as the hard limit allows (10,000 clients need them). */
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (O.spawn)
		spawn_files();
	rc = 0;
	double echo_mps = 0;
	if (O.echo || O.with_echo) {
		one_run(true);
		echo_mps = last_mps;
		rc |= S.errors > 0;
	}
	if (!O.echo) {
		one_run(false);
		rc |= S.errors > 0 || S.disconnects > 0;
		if (O.with_echo && echo_mps > 0) {
			double mps = last_mps;
			printf("ratio: server %.0f moves/s / echo %.0f moves/s = %.2f (target >= 0.50: %s)\n",
			       mps, echo_mps, mps / echo_mps, mps / echo_mps >= 0.5 ? "met" : "not met");
			printf("result mode=ratio games=%d server_moves_per_s=%.0f echo_moves_per_s=%.0f ratio=%.3f\n",
			       O.games, mps, echo_mps, mps / echo_mps);
		}
	}
	if (O.spawn)
		spawn_cleanup(rc);
	return rc;
}
