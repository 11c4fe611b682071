/* load_bench: the load generator's shared state and functions. load_bench.c holds the options,
 * the runs, their phases and the report; load_client.c the clients (connections, requests,
 * replies and events, the moves); load_servers.c what it forks (the echo server, tengend,
 * the attacker of --attack). */
#ifndef TENGEN_TESTS_LOAD_BENCH_H
#define TENGEN_TESTS_LOAD_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <jansson.h>
#include <uv.h>
#include "bench_stats.h"
#include "board.h"
#include "framing.h"

#define BENCH_UNITS_MANY "1000000" /* --address-units for a bench of many players */
#define BENCH_REGISTER_RETRY_MS 50 /* a registration refused as rate_limited is sent again */
#define BENCH_REGISTER_JITTER_MS 150 /* ... after 50 ms + up to this (10,000 clients do not
				      * all come back in the same millisecond) */
#define BENCH_PASSWORD "bench-password"
#define BENCH_CONNECTS_IN_FLIGHT 256   /* connection attempts at once */
#define BENCH_PENDING_MAX 8            /* requests a client has outstanding */
#define BENCH_LINE_MAX 512             /* bytes of a request line */
#define BENCH_SERVER_ARGS 8            /* --server-arg, at most */
#define BENCH_TICK_MS 100              /* phase checks */
#define BENCH_SPAWN_WAIT_MS 30000      /* wait for a spawned server's port file */
#define BENCH_SETUP_TIMEOUT_S 600      /* connect, log in and start every game */
#define BENCH_DRAIN_MS 3000            /* wait for resignations at the end */
#define BENCH_RANDOM_TRIES 64          /* random points tried before a scan */
#define BENCH_TIMERS_SLACK_S 10        /* timers mode: wait past the last due time */
#define BENCH_SETUP_IN_FLIGHT 32       /* timers mode: games being set up at once */
#define BENCH_ATTACK_ADDR "127.0.0.66" /* --attack: the attacker's source address */
#define BENCH_ATTACK_CONNS 64          /* ... its connections (tengend's default per address) */
#define BENCH_ATTACK_DEPTH 16          /* ... requests each keeps in flight */
#define BENCH_ATTACK_ACCOUNTS 8        /* ... accounts of the challenge attack */
#define BENCH_ATTACK_GAMES 1000        /* ... ended games put in the database for `listing` */

#define LOOP_FIGS BENCH_LOOP_FIGS /* the loop figures load_soak.c reads from the server's `loop` lines */

enum mode { MODE_PLAY, MODE_TIMERS, MODE_RESTART };
enum pend { P_NONE, P_REGISTER, P_LOGIN, P_CHALLENGE, P_ACCEPT, P_PLAY, P_RESIGN, P_PING };
enum phase { PH_SETUP, PH_WARMUP, PH_MEASURE, PH_DRAIN, PH_DONE };

struct opts {
	const char *server, *spawn, *db, *time, *log_level, *sync, *attack;
	int games, size, moves_per_game, games_per_pair;
	double duration, warmup, think_ms, illegal;
	double report_every;    /* --report-every S: figures per interval (0: none) */
	bool echo, with_echo, timers, restart, rated;
	bool loop_stats;        /* --loop-stats: the spawned server logs its loop figures */
	const char *server_args[BENCH_SERVER_ARGS]; /* --server-arg: more of tengend's options */
	int nserver_args;
	bool ws;                /* --ws: the clients speak WebSocket to tengend's --http listener */
	unsigned seed;
	int server_pid;
};

struct client;

struct pair {
	struct client *c[2]; /* [0] challenger, Black; [1] the challenged, White */
	int64_t game;
	struct board board;
	bool has_board, live, ended;
	int created;            /* restart mode: games made */
	uint64_t accept_sent, accept_acked, end_seen; /* timers mode, ns */
};

struct client {
	uv_tcp_t tcp;
	uv_timer_t think;
	uv_connect_t creq;
	struct pair *pair;
	int idx;
	enum color color;
	struct framing fr;
	bool connected, logged_in, closed;
	enum pend pend[BENCH_PENDING_MAX];
	uint64_t sent[BENCH_PENDING_MAX];
	int phead, pn;
	bool intend_illegal;
	int next_id;
	/* --ws: the upgrade's answer, then the server's frames, as they arrive */
	bool ws_open;
	char *wsbuf;
	size_t wslen, wscap;
};

struct stats {
	uint64_t moves, illegal_replies, errors, disconnects, games_started, games_ended;
	uint64_t time_losses; /* games that ended on time (not in timers mode) */
	struct bench_lat lat;      /* round trips of the window */
	double *late_hi, *late_lo; /* timers mode, ms */
	size_t nlate;
	double worst_p99;          /* --report-every: the largest interval p99 (ms) */
	double loop[LOOP_FIGS];    /* --loop-stats: the server's loop figures, largest (ms) */
};

/* ---- the state of a run (load_bench.c) ---- */

extern struct opts O;
extern uv_loop_t *loop;
extern struct client *clients;
extern struct pair *pairs;
extern int nclients, npairs;
extern int next_connect, connecting, nconnected, nlogged;
extern struct sockaddr_in target;
extern enum phase phase;
extern struct stats S;
extern pid_t server_pid;
extern char dbpath[512], portfile[600], logfile[600];
extern uint64_t restart_pinged;
extern bool echo_run;
extern bool restart_phase2;
extern uint64_t restart_t0;
extern int restart_states;
extern int setup_inflight, next_setup_pair; /* timers mode: paced game set-up */

/* ---- small helpers (load_bench.c) ---- */

uint64_t rnd(void);
void die(const char *fmt, ...);
void note_error(const char *what);
/* A "VmHWM:" / "VmRSS:" figure of /proc/PID/status in KiB; -1 if unreadable. */
long proc_kb(int pid, const char *key);
void lat_add(uint64_t ns);

/* ---- the clients (load_client.c) ---- */

/* Send one request: fmt is the JSON object's fields after "cmd" and "id". */
void request(struct client *c, enum pend kind, const char *cmd, const char *fmt, ...);
void board_reset(struct pair *p);
/* Timers mode: set games up a few at a time (see load_client.c). */
void start_setups(void);
void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf);
void on_closed(uv_handle_t *h);
void client_close(struct client *c);
void on_connect(uv_connect_t *req, int status);
void client_init(struct client *c, int idx);
void connect_more(void);
/* --ws: free what a client's WebSocket input holds. */
void client_ws_free(struct client *c);

/* ---- soak figures (load_soak.c) ---- */

/* The measured window starts / an interval of `secs` ended (print its line) / it ended (the
 * loop figures' line). */
void soak_begin(void);
void soak_interval(double secs);
void soak_end(void);

/* ---- the processes it forks (load_servers.c) ---- */

/* Fork the echo server; returns its port. */
int spawn_echo(void);
/* Start tengend on port 0 with the bench's settings; returns its port. */
int spawn_tengend(void);
/* Start the attacker for the warm-up and the measured time (plus a second). */
void attack_start(void);
void attack_stop(void);

#endif
