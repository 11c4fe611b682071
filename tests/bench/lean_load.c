/* lean_load: the lean load client of issue 22, so that the echo ceiling is the echo server's
 * and not the load generator's.
 *
 * One thread, one epoll set, non-blocking sockets; no libuv and no jansson. G games are
 * played by 2G clients (accounts bench-NNNNNN, as load_bench names them): each registers (or,
 * when the account exists, logs in), the challenger (Black) challenges its partner, who
 * accepts; Black moves on game.start, and whoever is to move answers the opponent's game.move
 * after --think ms (+-10 %). The moves replay one of LEAN_SEQS sequences computed at start
 * with common/board (the only board logic); at the end of its sequence Black resigns and the
 * pair challenges again. A round trip is the time from writing a `play` line to reading its
 * reply. See lean_load.h for the files.
 *
 * Modes:
 *   play (default)  moves/s, round trips p50/p99/p99.9/max (also per --report-every
 *                   interval), CPU per move of this client (getrusage) and of the server
 *                   (/proc/PID/stat: all its threads); --loop-stats adds the spawned
 *                   tengend's loop figures per interval, --disk-probe the times of a
 *                   write and fdatasync of its own beside the database (lean_probe.c).
 *   --echo          the same traffic against lean_echo (a bare epoll line-echo server): the
 *                   mover's echoed `play` line is its reply and gives the opponent the turn.
 *                   --echo-sync loop|thread: the durable echo (lean_echo --sync-file beside
 *                   the database, its fdatasync in its loop or on a thread): a line echoed
 *                   only once it is on the disk, the floor of a server whose replies wait for
 *                   the disk (issue 22).
 *   --restart       G games made live (LEAN_RESTART_MOVES moves each), kill -9 of the spawned
 *                   tengend, a new start on the same database and port, and every client
 *                   reconnects (refused connections tried again) and logs in: the time from
 *                   the spawn to the first answered ping, and until every client has the
 *                   game.state of its game (sent on login for each live game).
 *
 * The last lines of output are `result mode=... key=value ...` (scripts/bench reads them).
 * Exit status 1 on errors, disconnects or a set-up timeout; 2 on bad options.
 */
#define _GNU_SOURCE
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "board.h"
#include "lean_load.h"

struct lean_opts L = {
	.games = 100, .size = 19, .moves_per_game = 250, .connect_batch = LEAN_CONNECT_BATCH,
	.warmup = 1, .duration = 10, .log_level = "warn", .games_per_pair = 1,
};
struct lean_client *lean_clients;
struct lean_pair *lean_pairs;
int lean_nclients, lean_npairs;
struct sockaddr_in lean_target;
enum lean_phase lean_phase;
struct lean_stats LS;
int lean_nstarted, lean_nready, lean_nback, lean_nlogged;
uint64_t lean_restart_t0, lean_ping_at, lean_back_at;
char lean_logfile[600];

static pid_t server_pid;
static bool spawned;
static char tmpdir[256], dbpath[512], portfile[600];
static int server_port;
static uint64_t rng_state, phase_start, run_start, next_report, measure_start;
static double setup_s, cpu_self0, cpu_server0;
static long long writes0; /* the server's write_bytes at the window's start (-1: unknown) */
static struct bench_thread_cpu threads0[BENCH_THREADS_MAX]; /* the server's at the window's start */
static int nthreads0;

/* ---- helpers ---- */

uint64_t lean_rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(2685821657736338717);
}

uint64_t lean_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void lean_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "lean_load: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	if (server_pid > 0)
		kill(server_pid, SIGKILL);
	if (spawned && lean_logfile[0])
		fprintf(stderr, "lean_load: the server's log is kept in %s\n", lean_logfile);
	exit(1);
}

void lean_error(const struct lean_client *c, const char *what, const char *line, size_t len)
{
	LS.errors++;
	if (LS.errors > LEAN_ERRORS_SHOWN)
		return;
	fprintf(stderr, "lean_load: error: %s", what);
	if (c)
		fprintf(stderr, " (client " LEAN_NAME_FMT ")", c->idx);
	if (line)
		fprintf(stderr, ": %.*s", (int)(len > 300 ? 300 : len), line);
	fprintf(stderr, "\n");
}

/* ---- the processes it starts ---- */

/* Wait for the port file of pid (LEAN_SPAWN_WAIT_MS at most); returns the port. */
static int wait_port(pid_t pid, const char *what)
{
	for (int i = 0; i < LEAN_SPAWN_WAIT_MS; i++) {
		FILE *f = fopen(portfile, "r");
		if (f) {
			int port = 0, n = fscanf(f, "%d", &port);
			fclose(f);
			if (n == 1 && port > 0)
				return port;
		}
		int st;
		if (waitpid(pid, &st, WNOHANG) == pid)
			lean_die("%s exited at start", what);
		usleep(1000);
	}
	lean_die("%s wrote no port file", what);
}

static cpu_set_t pin_others; /* --pin: the CPUs of what lean_load spawns */

/* --pin: this process on the highest CPU it may use, what it spawns on the others, so that the
 * client and the server do not take turns on one CPU (on a 2-vCPU machine that sharing made
 * the soak's tail, docs/benchmarks.md). -1 (said why) with fewer than 2 CPUs. */
static int pin_setup(void)
{
	cpu_set_t all, mine;
	if (sched_getaffinity(0, sizeof all, &all) != 0) {
		fprintf(stderr, "lean_load: --pin: sched_getaffinity: %s\n", strerror(errno));
		return -1;
	}
	int n = CPU_COUNT(&all), last = -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &all))
			last = c;
	if (n < 2) {
		fprintf(stderr, "lean_load: --pin needs 2 CPUs or more (this process may use %d)\n", n);
		return -1;
	}
	pin_others = all;
	CPU_CLR(last, &pin_others);
	CPU_ZERO(&mine);
	CPU_SET(last, &mine);
	if (sched_setaffinity(0, sizeof mine, &mine) != 0) {
		fprintf(stderr, "lean_load: --pin: sched_setaffinity: %s\n", strerror(errno));
		return -1;
	}
	fprintf(stderr, "lean_load: pinned: the client on CPU %d, what it spawns on the other %d\n",
		last, n - 1);
	return 0;
}

/* In a spawned child: on the CPUs --pin left to it. */
static void pin_child(void)
{
	if (L.pin)
		(void)sched_setaffinity(0, sizeof pin_others, &pin_others);
}

/* Start tengend on 127.0.0.1:port (0: any) with load_bench's settings; with `wait`, return
 * its port once the port file says it listens (else 0 at once). */
static int spawn_tengend(int port, bool wait)
{
	unlink(portfile);
	char listen[32];
	snprintf(listen, sizeof listen, "127.0.0.1:%d", port);
	pid_t pid = fork();
	if (pid < 0)
		lean_die("fork: %s", strerror(errno));
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM); /* stops if lean_load dies */
		pin_child();
		int fd = open(lean_logfile, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		/* the clients stand for many players at many addresses, all from 127.0.0.1 */
		const char *argv[40 + LEAN_SERVER_ARGS] = {L.spawn, "--listen", listen, "--db", dbpath,
			"--port-file", portfile, "--pwhash-cost", "fast", "--max-per-address", "1000000",
			"--max-connections", "1000000", "--register-per-address", "1000000",
			"--login-fails-per-address", "1000000", "--address-units", LEAN_UNITS_MANY,
			"--login-hashing-per-address", "1000000", "--log-level", L.log_level};
		int k = 23;
		if (L.sync) {
			argv[k++] = "--sync";
			argv[k++] = L.sync;
		}
		if (L.loop_stats) {
			argv[k++] = "--loop-stats";
			argv[k++] = "1";
		}
		for (int i = 0; i < L.nserver_args; i++)
			argv[k++] = L.server_args[i];
		if (access(dbpath, F_OK) != 0) /* a restart must find the database it left */
			argv[k++] = "--create";
		argv[k] = NULL;
		execv(L.spawn, (char *const *)argv);
		_exit(127);
	}
	server_pid = pid;
	spawned = true;
	return wait ? wait_port(pid, "tengend") : 0;
}

/* Start lean_echo (--echo-bin, else beside this program) on a free port; returns it. */
static int spawn_echo(void)
{
	static char bin[4096];
	if (L.echo_bin) {
		snprintf(bin, sizeof bin, "%s", L.echo_bin);
	} else {
		char self[4000];
		ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
		if (n < 0)
			lean_die("readlink /proc/self/exe: %s", strerror(errno));
		self[n] = '\0';
		snprintf(bin, sizeof bin, "%s/lean_echo", dirname(self));
	}
	unlink(portfile);
	pid_t pid = fork();
	if (pid < 0)
		lean_die("fork: %s", strerror(errno));
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives lean_load */
		pin_child();
		char syncfile[sizeof tmpdir + 16];
		snprintf(syncfile, sizeof syncfile, "%s/echo.sync", tmpdir);
		if (!L.echo_sync)
			execl(bin, bin, "--listen", "127.0.0.1:0", "--port-file", portfile, (char *)NULL);
		else
			execl(bin, bin, "--listen", "127.0.0.1:0", "--port-file", portfile, "--sync-file",
			      syncfile, strcmp(L.echo_sync, "thread") == 0 ? "--sync-thread" : (char *)NULL,
			      (char *)NULL);
		fprintf(stderr, "lean_load: cannot run %s: %s\n", bin, strerror(errno));
		_exit(127);
	}
	server_pid = pid;
	spawned = true;
	return wait_port(pid, bin);
}

/* Stop what was spawned (tengend gracefully) and wait for it. */
static void stop_server(void)
{
	if (!spawned || server_pid <= 0)
		return;
	kill(server_pid, SIGTERM);
	int st;
	waitpid(server_pid, &st, 0);
	server_pid = 0;
}

/* ---- phases ---- */

/* --restart: the games made live. */
static int restart_games(void)
{
	int n = 0;
	for (int i = 0; i < lean_npairs; i++)
		n += lean_pairs[i].ngames;
	return n;
}

static void restart_begin(uint64_t now)
{
	printf("restart: %d live games (%d per pair of clients, %d moves each) made in %.2f s\n",
	       restart_games(), L.games_per_pair, LEAN_RESTART_MOVES, (double)(now - run_start) / 1e9);
	fflush(stdout);
	kill(server_pid, SIGKILL);
	int st;
	waitpid(server_pid, &st, 0);
	for (int i = 0; i < lean_nclients; i++)
		net_close(&lean_clients[i]);
	lean_nlogged = 0;
	play_restart_reset();
	net_set_pace(L.connect_batch, true);
	lean_phase = PH_BACK;
	lean_restart_t0 = phase_start = lean_now();
	spawn_tengend(server_port, false);
	for (int i = 0; i < lean_nclients; i++)
		net_queue(&lean_clients[i]);
}

static void report_restart(void)
{
	double ping = lean_ping_at ? (double)(lean_ping_at - lean_restart_t0) / 1e9 : -1;
	double back = lean_back_at ? (double)(lean_back_at - lean_restart_t0) / 1e9 : -1;
	printf("restart: tengend killed (-9) and started again on the same database and port\n");
	printf("  first ping answered %.3f s after the spawn; %d of %d clients logged in and had "
	       "their games' game.state %.3f s after it\n", ping, lean_nback, lean_nclients, back);
	printf("  errors %llu, disconnects %llu\n", (unsigned long long)LS.errors,
	       (unsigned long long)LS.disconnects);
	printf("result mode=restart games=%d clients=%d games_per_pair=%d ping_s=%.3f all_back_s=%.3f "
	       "errors=%llu disconnects=%llu\n", restart_games(), lean_nclients, L.games_per_pair, ping, back,
	       (unsigned long long)LS.errors, (unsigned long long)LS.disconnects);
	fflush(stdout);
}

static void tick_setup(uint64_t now, double in_phase)
{
	static uint64_t last_note;
	bool done = L.restart ? lean_nready == lean_npairs :
		    lean_nstarted == lean_npairs && (L.echo || lean_nlogged == lean_nclients);
	if (done && L.restart) {
		restart_begin(now);
		return;
	}
	if (done) {
		setup_s = in_phase;
		fprintf(stderr, "lean_load: set-up done in %.2f s (%d clients, %d games)\n", setup_s,
			lean_nclients, lean_npairs);
		lean_phase = PH_WARMUP;
		phase_start = now;
		play_kickoff();
		return;
	}
	if (LS.errors)
		lean_die("set-up failed (%llu errors): %d of %d clients logged in, %d of %d games started",
			 (unsigned long long)LS.errors, lean_nlogged, lean_nclients, lean_nstarted, lean_npairs);
	if (in_phase > LEAN_SETUP_TIMEOUT_S)
		lean_die("set-up timed out: %d of %d clients logged in, %d of %d games started",
			 lean_nlogged, lean_nclients, lean_nstarted, lean_npairs);
	if (now - last_note > 5000000000u) {
		last_note = now;
		if (in_phase > 4)
			fprintf(stderr, "lean_load: set-up: %d of %d clients logged in, %d games started\n",
				lean_nlogged, lean_nclients, lean_nstarted);
	}
}

static void tick(uint64_t now)
{
	double in_phase = (double)(now - phase_start) / 1e9;
	switch (lean_phase) {
	case PH_SETUP:
		tick_setup(now, in_phase);
		break;
	case PH_WARMUP:
		if (in_phase < L.warmup)
			break;
		lean_phase = PH_MEASURE;
		phase_start = measure_start = now;
		next_report = now + (uint64_t)(L.report_every * 1e9);
		probe_record(true);
		cpu_self0 = report_self_cpu();
		cpu_server0 = server_pid > 0 ? bench_proc_cpu(server_pid) : -1;
		writes0 = server_pid > 0 ? bench_proc_write_bytes(server_pid) : -1;
		nthreads0 = server_pid > 0 ? bench_proc_threads(server_pid, threads0) : 0;
		report_begin();
		break;
	case PH_MEASURE: {
		if (L.report_every > 0 && now >= next_report) {
			report_interval(L.report_every + (double)(now - next_report) / 1e9);
			next_report = now + (uint64_t)(L.report_every * 1e9);
		}
		if (in_phase < L.duration)
			break;
		if (L.report_every > 0 && now + (uint64_t)(L.report_every * 1e9) > next_report + 100000000u)
			report_interval((double)(now + (uint64_t)(L.report_every * 1e9) - next_report) / 1e9);
		double cpu_self = report_self_cpu() - cpu_self0, cpu_server = -1;
		long long writes = server_pid > 0 && writes0 >= 0 ? bench_proc_write_bytes(server_pid) : -1;
		struct bench_thread_cpu threads[BENCH_THREADS_MAX];
		int nthreads = 0;
		if (server_pid > 0 && cpu_server0 >= 0) {
			cpu_server = bench_proc_cpu(server_pid) - cpu_server0;
			nthreads = bench_proc_threads(server_pid, threads);
		}
		probe_record(false);
		lean_phase = PH_DRAIN;
		phase_start = now;
		report_play((double)(now - measure_start) / 1e9, setup_s, cpu_self, cpu_server);
		report_threads(threads0, nthreads0, threads, nthreads);
		if (writes >= 0)
			report_writes(writes - writes0);
		kern_report();
		probe_report();
		play_resign_all(); /* a kept database holds no unfinished game */
		break;
	}
	case PH_DRAIN:
		if (play_outstanding() == 0 || in_phase * 1000 > LEAN_DRAIN_MS)
			lean_phase = PH_DONE;
		break;
	case PH_BACK: {
		int st;
		if (waitpid(server_pid, &st, WNOHANG) == server_pid) {
			server_pid = 0;
			lean_die("tengend exited after the restart");
		}
		if (lean_back_at || in_phase > LEAN_SETUP_TIMEOUT_S) {
			if (!lean_back_at)
				lean_error(NULL, "not every game came back after the restart", NULL, 0);
			report_restart();
			lean_phase = PH_DONE;
		}
		break;
	}
	default:
		break;
	}
}

/* ---- the run ---- */

static void run(void)
{
	lean_npairs = L.restart ? (L.games + L.games_per_pair - 1) / L.games_per_pair : L.games;
	lean_nclients = 2 * lean_npairs;
	lean_clients = calloc((size_t)lean_nclients, sizeof *lean_clients);
	lean_pairs = calloc((size_t)lean_npairs, sizeof *lean_pairs);
	if (!lean_clients || !lean_pairs || net_init(lean_nclients) < 0)
		lean_die("out of memory (or epoll)");
	for (int i = 0; i < lean_nclients; i++) {
		struct lean_client *c = &lean_clients[i];
		c->fd = -1;
		c->idx = i;
		c->pair = i / 2;
		c->role = (uint8_t)(i % 2);
	}
	net_set_pace(L.connect_batch, false);
	lean_phase = PH_SETUP;
	run_start = phase_start = lean_now();
	for (int i = 0; i < lean_nclients; i++)
		net_queue(&lean_clients[i]);
	uint64_t next_tick = run_start + LEAN_TICK_MS * 1000000ull;
	while (lean_phase != PH_DONE) {
		uint64_t now = lean_now();
		net_run(next_tick > now ? (int)((next_tick - now + 999999) / 1000000) : 0);
		now = lean_now();
		if (now >= next_tick) {
			tick(now);
			next_tick = now + LEAN_TICK_MS * 1000000ull;
		}
	}
	for (int i = 0; i < lean_nclients; i++) {
		net_close(&lean_clients[i]);
		free(lean_clients[i].in);
		free(lean_clients[i].out);
	}
	net_free();
	free(lean_clients);
	free(lean_pairs);
	free(LS.lat.v);
	for (int s = 0; s < LEAN_SEQS; s++)
		free(lean_seq[s]);
}

/* ---- options ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lean_load (--spawn PATH-TO-TENGEND | --server HOST:PORT | --echo) [options]\n"
		"  --games G           concurrent games (2G clients; default 100)\n"
		"  --think MS          think time per move, +-10%% jitter (default 0: at once)\n"
		"  --warmup S          seconds before the window (default 1); --duration S (default 10)\n"
		"  --report-every S    print each S seconds' moves and round trips\n"
		"  --loop-stats        the spawned tengend logs its loop figures (--loop-stats 1,\n"
		"                      log level info); print their maxima per interval\n"
		"  --size N            board size (default 19); --moves-per-game N (default 250)\n"
		"  --time JSON         the games' time control (default none)\n"
		"  --seed N            random seed\n"
		"  --connect-batch N   connections in flight while connecting: from connect() to the\n"
		"                      login's answer (after --restart: the ping's; default %d)\n"
		"  --echo              the same traffic against lean_echo (the ceiling)\n"
		"  --echo-bin PATH     the lean_echo to run (default: beside lean_load)\n"
		"  --echo-sync MODE    --echo: the durable echo, each line echoed once written and\n"
		"                      fdatasync'd beside the database: loop (the sync in its loop, a\n"
		"                      group per batch) or thread (on a second thread)\n"
		"  --restart           G live games, kill -9 of tengend, restart: ping and all games back\n"
		"  --games-per-pair K  --restart: live games per pair of clients (default 1; at most %d)\n"
		"  --server-pid PID    with --server: the process whose CPU is read\n"
		"  --db PATH           the spawned tengend's database (kept; accounts reused)\n"
		"  --sync MODE         the spawned tengend's --sync\n"
		"  --log-level L       the spawned tengend's log level (default warn)\n"
		"  --server-arg ARG    one more argument for the spawned tengend (repeat: ARG each)\n"
		"  --pin               this client on the last CPU, the spawned server (or echo) on the\n"
		"                      others, as clients on other machines would be\n"
		"  --disk-probe        a thread of this client writes %d bytes and fdatasyncs them\n"
		"                      every %d ms beside the spawned server's (or echo's) database:\n"
		"                      the disk's sync times in the window, per interval and in all\n",
		LEAN_CONNECT_BATCH, LEAN_GAMES_PER_PAIR_MAX, LEAN_PROBE_WRITE, LEAN_PROBE_MS);
}

/* Read the command line into L. Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv)
{
	static const struct option lo[] = {
		{"spawn", required_argument, NULL, 's'}, {"server", required_argument, NULL, 'S'},
		{"server-pid", required_argument, NULL, 'p'}, {"echo", no_argument, NULL, 'e'},
		{"echo-bin", required_argument, NULL, 'E'}, {"games", required_argument, NULL, 'g'},
		{"think", required_argument, NULL, 't'}, {"warmup", required_argument, NULL, 'w'},
		{"duration", required_argument, NULL, 'd'}, {"report-every", required_argument, NULL, 'v'},
		{"loop-stats", no_argument, NULL, 'l'}, {"size", required_argument, NULL, 'z'},
		{"moves-per-game", required_argument, NULL, 'm'}, {"time", required_argument, NULL, 'T'},
		{"seed", required_argument, NULL, 'x'}, {"connect-batch", required_argument, NULL, 'b'},
		{"restart", no_argument, NULL, 'R'}, {"db", required_argument, NULL, 'D'},
		{"sync", required_argument, NULL, 'Y'}, {"log-level", required_argument, NULL, 'L'},
		{"server-arg", required_argument, NULL, 'a'}, {"help", no_argument, NULL, 'h'},
		{"games-per-pair", required_argument, NULL, 'k'}, {"pin", no_argument, NULL, 'P'},
		{"disk-probe", no_argument, NULL, 'F'}, {"echo-sync", required_argument, NULL, 'Z'},
		{NULL, 0, NULL, 0}};
	int o;
	while ((o = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (o) {
		case 's': L.spawn = optarg; break;
		case 'S': L.server = optarg; break;
		case 'p': L.server_pid = atoi(optarg); break;
		case 'e': L.echo = true; break;
		case 'E': L.echo_bin = optarg; break;
		case 'g': L.games = atoi(optarg); break;
		case 't': L.think_ms = atof(optarg); break;
		case 'w': L.warmup = atof(optarg); break;
		case 'd': L.duration = atof(optarg); break;
		case 'v': L.report_every = atof(optarg); break;
		case 'l': L.loop_stats = true; break;
		case 'z': L.size = atoi(optarg); break;
		case 'P': L.pin = true; break;
		case 'F': L.disk_probe = true; break;
		case 'Z': L.echo_sync = optarg; break;
		case 'm': L.moves_per_game = atoi(optarg); break;
		case 'T': L.time = optarg; break;
		case 'x': L.seed = strtoul(optarg, NULL, 10); break;
		case 'b': L.connect_batch = atoi(optarg); break;
		case 'R': L.restart = true; break;
		case 'k': L.games_per_pair = atoi(optarg); break;
		case 'D': L.db = optarg; break;
		case 'Y': L.sync = optarg; break;
		case 'L': L.log_level = optarg; break;
		case 'a':
			if (L.nserver_args == LEAN_SERVER_ARGS) {
				fprintf(stderr, "lean_load: at most %d --server-arg\n", LEAN_SERVER_ARGS);
				return 2;
			}
			L.server_args[L.nserver_args++] = optarg;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc || L.games < 1 || L.size < BOARD_MIN_SIZE || L.size > BOARD_MAX_SIZE ||
	    L.moves_per_game < LEAN_RESTART_MOVES || L.duration <= 0 || L.warmup < 0 ||
	    L.think_ms < 0 || L.report_every < 0 || L.connect_batch < 1 || L.games_per_pair < 1 ||
	    L.games_per_pair > LEAN_GAMES_PER_PAIR_MAX) {
		usage(stderr);
		return 2;
	}
	const char *need = NULL;
	if (!L.echo && !L.spawn && !L.server)
		need = "give --spawn PATH, --server HOST:PORT or --echo";
	else if ((L.restart || L.loop_stats) && (!L.spawn || L.echo))
		need = "--restart and --loop-stats need --spawn (and no --echo)";
	else if (L.disk_probe && L.server)
		need = "--disk-probe needs --spawn or --echo (a database or file of its own)";
	else if (L.echo_sync && (!L.echo || L.server ||
				 (strcmp(L.echo_sync, "loop") != 0 && strcmp(L.echo_sync, "thread") != 0)))
		need = "--echo-sync takes loop or thread, with --echo";
	else if (L.restart && L.disk_probe)
		need = "--disk-probe times the play window: not with --restart";
	if (need) {
		fprintf(stderr, "lean_load: %s\n", need);
		return 2;
	}
	if (L.loop_stats && strcmp(L.log_level, "warn") == 0)
		L.log_level = "info"; /* the `loop` lines are info */
	return -1;
}

/* HOST:PORT (IPv4) into lean_target; -1 if malformed. */
static int parse_server(const char *s)
{
	const char *colon = strrchr(s, ':');
	char host[64];
	if (!colon || (size_t)(colon - s) >= sizeof host)
		return -1;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	int port = atoi(colon + 1);
	lean_target.sin_family = AF_INET;
	lean_target.sin_port = htons((uint16_t)port);
	return port > 0 && port < 65536 && inet_pton(AF_INET, host, &lean_target.sin_addr) == 1 ? 0 : -1;
}

/* Where the spawned server's files go: a temporary directory (and --db if given). */
static void spawn_files(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/lean_load.XXXXXX");
	if (!mkdtemp(tmpdir))
		lean_die("mkdtemp: %s", strerror(errno));
	snprintf(dbpath, sizeof dbpath, "%s", L.db ? L.db : "");
	if (!L.db)
		snprintf(dbpath, sizeof dbpath, "%s/bench.db", tmpdir);
	snprintf(portfile, sizeof portfile, "%s/port", tmpdir);
	snprintf(lean_logfile, sizeof lean_logfile, "%s/server.log", tmpdir);
}

/* Remove the temporary files (the log is kept, and named, when the run failed). */
static void spawn_cleanup(int rc)
{
	static const char *const sfx[] = {"", "-wal", "-shm", ".lock"};
	for (size_t i = 0; !L.db && i < sizeof sfx / sizeof sfx[0]; i++) {
		char p[700];
		snprintf(p, sizeof p, "%s%s", dbpath, sfx[i]);
		unlink(p);
	}
	char p[sizeof tmpdir + 16];
	snprintf(p, sizeof p, "%s/echo.sync", tmpdir);
	unlink(p);
	if (rc) {
		fprintf(stderr, "lean_load: the server's log is kept in %s\n", lean_logfile);
		return;
	}
	unlink(lean_logfile);
	unlink(portfile);
	rmdir(tmpdir);
}

int main(int argc, char **argv)
{
	int rc = parse_args(argc, argv);
	if (rc >= 0)
		return rc;
	if (L.pin && pin_setup() < 0)
		return 2;
	rng_state = L.seed ? L.seed : lean_now() | 1;
	signal(SIGPIPE, SIG_IGN);
	struct rlimit rl; /* one descriptor per client: as many as the hard limit allows */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	play_make_sequences();
	bool files = L.spawn || (L.echo && !L.server);
	if (files)
		spawn_files();
	if (L.server) {
		if (parse_server(L.server) < 0) {
			fprintf(stderr, "lean_load: --server takes IPv4-HOST:PORT\n");
			return 2;
		}
		server_pid = L.server_pid;
	} else {
		server_port = L.echo ? spawn_echo() : spawn_tengend(0, true);
		lean_target.sin_family = AF_INET;
		lean_target.sin_port = htons((uint16_t)server_port);
		inet_pton(AF_INET, "127.0.0.1", &lean_target.sin_addr);
	}
	if (L.disk_probe) {
		char dir[sizeof dbpath];
		snprintf(dir, sizeof dir, "%s", dbpath);
		if (probe_start(dirname(dir)) < 0) {
			stop_server();
			spawn_cleanup(0);
			return 2;
		}
	}
	run();
	probe_stop();
	stop_server();
	rc = LS.errors || LS.disconnects ? 1 : 0;
	if (files)
		spawn_cleanup(rc);
	return rc;
}
