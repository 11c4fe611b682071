/* lean_load: the lean load client's shared state and functions (issue 22). lean_load.c holds
 * the options, the runs and their phases, the processes it starts and the report; lean_net.c
 * the sockets (one epoll set, non-blocking connects, buffered output, the timer heap);
 * lean_play.c the protocol (requests, the scans of each line, the moves, restart's
 * reconnection). No libuv and no jansson: the per-move work is a write, the reads and a few
 * string scans. lean_report.c prints the figures, lean_probe.c times the disk's syncs beside the
 * server (--disk-probe), lean_kern.c reads the kernel's TCP and drop counters. */
#ifndef TENGEN_TESTS_LEAN_LOAD_H
#define TENGEN_TESTS_LEAN_LOAD_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "bench_stats.h"

#define LEAN_PASSWORD "bench-password"
#define LEAN_NAME_FMT "bench-%06d"      /* the accounts, as load_bench names them */
#define LEAN_PENDING_MAX 8              /* requests a client has outstanding */
#define LEAN_REQ_MAX 512                /* bytes of a request line */
#define LEAN_LINE_MAX (4194304 + 1024)  /* longest line read (the server's is 4 MiB) */
#define LEAN_READ_BUF (256 * 1024)      /* bytes read at once */
#define LEAN_EVENTS 4096                /* epoll events per wait */
#define LEAN_SEQS 8                     /* move sequences computed at start */
#define LEAN_RANDOM_TRIES 64            /* random points tried before a scan */
#define LEAN_TICK_MS 100                /* phase checks */
#define LEAN_SPAWN_WAIT_MS 30000        /* a spawned server's port file */
#define LEAN_SETUP_TIMEOUT_S 600        /* connect, log in and start every game */
#define LEAN_DRAIN_MS 3000              /* the resignations at the end */
#define LEAN_REGISTER_RETRY_MIN_MS 50   /* `register` answered rate_limited: again after */
#define LEAN_REGISTER_RETRY_MAX_MS 200  /* ... a random 50-200 ms */
#define LEAN_RECONNECT_MS 5             /* a refused connection is tried again after this */
#define LEAN_CONNECT_BATCH 200          /* --connect-batch default */
#define LEAN_RESTART_MOVES 2            /* --restart: moves in each game before the kill */
#define LEAN_GAMES_PER_PAIR_MAX 64      /* --games-per-pair, at most (a bit each per client) */
#define LEAN_SERVER_ARGS 16             /* --server-arg, at most */
#define LEAN_ERRORS_SHOWN 10            /* errors printed one by one */
#define LEAN_UNITS_MANY "1000000"       /* --address-units of the spawned tengend */
#define LEAN_LOOP_FIGS BENCH_LOOP_FIGS  /* the loop figures read from tengend's log */
#define LEAN_PROBE_MS 10                /* --disk-probe: a sync every ... */
#define LEAN_PROBE_WRITE 4096           /* ... of this many bytes (a WAL frame's page) */
#define LEAN_PROBE_FILE (1024 * 1024)   /* ... overwriting a file of this size in turn */

enum lean_phase { PH_SETUP, PH_WARMUP, PH_MEASURE, PH_DRAIN, PH_BACK, PH_DONE };
enum lean_req { R_NONE, R_REGISTER, R_LOGIN, R_CHALLENGE, R_ACCEPT, R_PLAY, R_RESIGN, R_PING };
enum lean_conn { C_IDLE, C_QUEUED, C_CONNECTING, C_OPEN, C_CLOSED };
enum lean_timer { T_NONE, T_MOVE, T_REGISTER, T_RECONNECT };

struct lean_opts {
	const char *server, *spawn, *db, *log_level, *sync, *time, *echo_bin;
	const char *echo_sync;  /* --echo-sync loop|thread: lean_echo --sync-file (NULL: none) */
	const char *server_args[LEAN_SERVER_ARGS];
	int nserver_args;
	int games, size, moves_per_game, connect_batch, server_pid;
	int games_per_pair;     /* --restart: live games per pair of clients */
	double think_ms, warmup, duration, report_every;
	bool echo, restart, loop_stats;
	bool pin;               /* this client on the last allowed CPU, what it spawns on the others */
	bool disk_probe;        /* time a write and fdatasync beside the database (lean_probe.c) */
	unsigned long seed;
};

struct lean_pend {
	uint8_t kind;  /* enum lean_req */
	uint32_t id;
	uint64_t sent; /* ns, CLOCK_MONOTONIC */
};

struct lean_client {
	int fd;
	int idx;               /* the account: bench-<idx> */
	int pair;              /* index in lean_pairs */
	uint8_t role;          /* 0: the challenger, Black; 1: the challenged, White */
	uint8_t conn;          /* enum lean_conn */
	bool logged_in, back, want_out, in_flight;
	uint8_t timer;         /* enum lean_timer: what the pending timer does */
	uint64_t back_mask;    /* --restart: bit k: game.state of its pair's games[k] seen */
	uint32_t timer_gen;    /* a heap entry of another generation is stale */
	uint32_t next_id;
	struct lean_pend pend[LEAN_PENDING_MAX];
	uint8_t phead, pn;
	char *in, *out;        /* a partial line read; bytes not yet written */
	size_t inlen, incap, outlen, outcap;
};

struct lean_pair {
	int64_t game;
	int seq;               /* the move sequence this game replays */
	int moves;             /* --echo: moves made in the current sequence */
	bool live, started;
	int restart_moves;     /* --restart: moves of the current game seen by Black */
	int64_t games[LEAN_GAMES_PER_PAIR_MAX]; /* --restart: the games made live */
	int ngames;
};

struct lean_stats {
	uint64_t moves, errors, disconnects;
	struct bench_lat lat;  /* round trips of the window */
	double worst_p99;      /* the largest interval p99, ms */
	double loop[LEAN_LOOP_FIGS];
};

/* ---- the state of a run (lean_load.c) ---- */

extern struct lean_opts L;
extern struct lean_client *lean_clients;
extern struct lean_pair *lean_pairs;
extern int lean_nclients, lean_npairs;
extern struct sockaddr_in lean_target;
extern enum lean_phase lean_phase;
extern struct lean_stats LS;
extern int lean_nstarted, lean_nready, lean_nback, lean_nlogged;
extern uint64_t lean_restart_t0, lean_ping_at, lean_back_at;
extern char lean_logfile[600]; /* the spawned tengend's log */
/* The move sequences: seq[i] holds seqlen[i] vertices ("D4"), each at most 4 bytes + NUL. */
extern char (*lean_seq[LEAN_SEQS])[5];
extern int lean_seqlen[LEAN_SEQS];

/* ---- helpers (lean_load.c) ---- */

uint64_t lean_rnd(void);
uint64_t lean_now(void); /* ns, CLOCK_MONOTONIC */
void lean_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Count an error; print the first LEAN_ERRORS_SHOWN (c: the client, or NULL). */
void lean_error(const struct lean_client *c, const char *what, const char *line, size_t len);
/* Count a round trip of us microseconds (the window only). */
void lean_lat_add(uint64_t ns);

/* ---- the sockets (lean_net.c) ---- */

/* Make the epoll set and the connect queue. Returns -1 on failure. */
int net_init(int nclients);
/* Queue c for a connection to lean_target (started by net_pace, --connect-batch at a time). */
void net_queue(struct lean_client *c);
/* Connections in flight at most `batch`: from connect() to the first answer that says the
 * server took it (the login's reply in the set-up, which also bounds the registrations the
 * server hashes at once; the ping's after a restart; the connection itself with --echo).
 * `gate`: none but the first until one connection succeeded (a restarting server's port). */
void net_set_pace(int batch, bool gate);
/* c no longer counts as in flight (logged in, or done with setting up). */
void net_landed(struct lean_client *c);
/* Write n bytes to c (what the socket does not take at once is kept and sent on EPOLLOUT). */
void net_send(struct lean_client *c, const char *p, size_t n);
/* Close c's socket, forget its buffers, timer and outstanding requests. */
void net_close(struct lean_client *c);
/* Run c's timer of kind k at `at` (ns, lean_now); replaces its pending one. */
void net_timer(struct lean_client *c, enum lean_timer k, uint64_t at);
/* Wait for I/O at most max_ms (less if a timer is due), handle it and the due timers. */
void net_run(int max_ms);
void net_free(void);

/* ---- the protocol (lean_play.c) ---- */

/* Send a request: fields are the JSON object's members after "cmd" and "id" (may be ""). */
void play_request(struct lean_client *c, enum lean_req kind, const char *cmd, const char *fields);
/* c's connection is open. */
void play_connected(struct lean_client *c);
/* A complete line from c (len bytes, no "\n"), read at `now`. */
void play_line(struct lean_client *c, const char *line, size_t len, uint64_t now);
/* c's timer of kind k is due. */
void play_timer(struct lean_client *c, enum lean_timer k);
/* The server closed c's connection (or it failed). */
void play_lost(struct lean_client *c);
/* A connection attempt failed (refused): counted as an error unless restarting. */
void play_refused(struct lean_client *c);
/* The set-up is over: Black makes the first move of every game (at once, or at a random
 * time within one --think; the set-up's games wait for it, so setting up is not slowed by
 * games already playing). */
void play_kickoff(void);
/* The measured window is over: Black resigns each live game. */
void play_resign_all(void);
/* Outstanding requests of every client. */
int play_outstanding(void);
/* Compute the LEAN_SEQS move sequences (common/board, at start only). */
void play_make_sequences(void);
/* --restart: before the clients come back (no client is back). */
void play_restart_reset(void);

/* ---- figures (lean_report.c) ---- */

/* This process's CPU seconds (getrusage, user + system). */
double report_self_cpu(void);
/* The window starts (figures of the intervals and of the server's loop from here on). */
void report_begin(void);
/* An interval of `secs` ended: print its line (moves, round trips, --loop-stats maxima). */
void report_interval(double secs);
/* The window ended: print the summary and the `result` lines. `setup_s`: the set-up's time;
 * client_cpu / server_cpu: CPU seconds of the window (server_cpu < 0: unknown). */
void report_play(double secs, double setup_s, double client_cpu, double server_cpu);
/* After report_play: the server's CPU of the window by thread name, from snapshots a (start,
 * na names) and b (end, nb names) of bench_proc_threads, in microseconds a move, user and
 * kernel apart (where the time goes: the socket writes are the kernel's). */
void report_threads(const struct bench_thread_cpu *a, int na, const struct bench_thread_cpu *b,
		    int nb);
/* After report_play: what the server wrote to storage in the window (bytes), in all and a
 * move, and a `result mode=writes` line. */
void report_writes(long long bytes);

/* ---- the disk probe (lean_probe.c, --disk-probe) ---- */

/* Make the probe's file in dir (LEAN_PROBE_FILE bytes, written and synced) and start its
 * thread; it syncs from now on and keeps the times only while recording. -1 (said on stderr)
 * if the file cannot be made or the thread started. */
int probe_start(const char *dir);
/* Keep the syncs' times from now on (true, the window starts), or no longer (false). */
void probe_record(bool on);
/* Append the interval's syncs to report_interval's line (nothing without a probe). */
void probe_interval(void);
/* After report_play: the window's syncs, a line and a `result mode=disk_probe` line. */
void probe_report(void);
/* Stop the thread and remove its file (nothing without a probe). */
void probe_stop(void);

/* ---- the kernel's counters (lean_kern.c): TCP retransmissions, dropped packets ---- */

/* Read them at the window's start. */
void kern_begin(void);
/* Append the interval's counts to report_interval's line. */
void kern_interval(void);
/* After report_play: the window's counts, a line and a `result mode=kernel` line. */
void kern_report(void);

#endif
