/* tests/support/harness: what the integration tests (tests/integration/test_session.c and the others that start a
 * real tengend) need to drive it.
 *
 *   hd_*  the daemon: start it in a fresh mkdtemp directory (database, port file and its stderr
 *         log inside), stop it with SIGTERM (its exit status is returned: a clean stop is 0),
 *         kill -9 it, restart it on the same database, dump the database with the sqlite3
 *         CLI, look for AddressSanitizer / UBSan / LeakSanitizer reports in its log.
 *   hc_*  a client: one blocking TCP socket, every wait bounded by a timeout (poll). Lines are
 *         parsed as JSON and sorted: replies (objects without "event") and events. A request
 *         sent with hc_req gets a fresh integer id and waits for the reply with that id; the
 *         events (and any other replies) read meanwhile are queued for hc_event / hc_reply.
 *   hj_*  reading fields of a JSON reply by a dotted path ("error.penalty.warnings").
 *
 * The daemon is found through the environment variable TENGEND (set by `make check`), else
 * ./server/tengend. A test that fails exits at once, without its teardown: its daemon gets
 * SIGTERM from the kernel (PR_SET_PDEATHSIG; an atexit handler kills any left on a normal
 * exit and prints the end of their logs), and its directory ($TMPDIR or /tmp,
 * tengen-itest-XXXXXX, the daemon's log inside) is kept for inspection.
 */
#ifndef TENGEN_TESTS_HARNESS_H
#define TENGEN_TESTS_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <jansson.h>

#define HARNESS_TIMEOUT_MS 5000        /* default wait for a reply, an event, a close */
#define HARNESS_START_TIMEOUT_MS 15000 /* daemon start (port file) or stop (exit) */
#define HARNESS_PATH_MAX 512
#define HARNESS_MAX_ARGS 16            /* extra command-line arguments of a daemon */
#define HARNESS_MAX_ENV 8              /* extra environment entries of a daemon */
#define HARNESS_PASSWORD_SUFFIX "-secret-pw" /* hc_login_new: password is NAME + this */

/* ---- the daemon ---- */

struct hd {
	char dir[HARNESS_PATH_MAX / 2];   /* mkdtemp directory: t.db, port, log */
	char db[HARNESS_PATH_MAX];
	char port_file[HARNESS_PATH_MAX];
	char log[HARNESS_PATH_MAX];       /* the daemon's stderr (and stdout), appended per start */
	char *extra[HARNESS_MAX_ARGS + 1]; /* extra arguments (copies), NULL-terminated */
	char *env[HARNESS_MAX_ENV + 1];   /* extra environment "NAME=value" (copies), NULL-terminated */
	pid_t pid;                        /* 0 when not running */
	int port;                         /* bound port of the running daemon */
	int starts;                       /* how many times it was started */
};

/* The daemon's path: $TENGEND or ./server/tengend. */
const char *hd_binary(void);
/* Create a fresh directory and start `tengend --listen 127.0.0.1:0 --port-file DIR/port
 * --db DIR/t.db --pwhash-cost fast --log-level debug --create` plus `extra` (NULL-terminated,
 * may be NULL); wait for the port file. Returns 0, or -1 (message on stderr; the daemon is not
 * left running). */
int hd_start(struct hd *d, const char *const *extra);
/* hd_start with `env` ("NAME=value" entries, NULL-terminated, may be NULL) added to the
 * daemon's environment, at this start and every restart (e.g. LD_PRELOAD; with one, ASan's
 * check that its runtime comes first is turned off in ASAN_OPTIONS). */
int hd_start_env(struct hd *d, const char *const *extra, const char *const *env);
/* Start it again on the same directory and database (after hd_stop or hd_kill), without
 * --create: a database that is gone is not made anew. Returns 0/-1. */
int hd_restart(struct hd *d);
/* Run `tengend ARGS...` (args NULL-terminated) with `env` added as for hd_start_env, wait up to
 * timeout_ms for its exit and put what it wrote (stdout and stderr, at most outlen - 1
 * bytes, NUL-terminated) in out. Returns its exit status (128+signal if killed), -1 if it
 * could not run or had not exited in time (then it is killed). For start-up refusals. */
int hd_run(const char *const *args, const char *const *env, char *out, size_t outlen,
	   int timeout_ms);
/* The path of the test shim tests/support/fsfault.so ($TENGEN_FSFAULT, set by `make check`), or NULL. */
const char *hd_fsfault(void);
/* SIGTERM and wait for the exit. Returns the exit status (0 for a clean stop), 128 + signal if
 * it died of a signal, -1 if it did not exit within HARNESS_START_TIMEOUT_MS (then it is
 * killed). */
int hd_stop(struct hd *d);
/* Wait up to timeout_ms for the daemon to exit by itself (no signal sent). Returns its status
 * as hd_stop does, or -1 if it is still running (it is left running). */
int hd_wait_exit(struct hd *d, int timeout_ms);
/* SIGKILL and reap it. Returns 0, -1 if it was not running. */
int hd_kill(struct hd *d);
/* The first sanitizer report marker found in the log ("ERROR: AddressSanitizer",
 * "runtime error:", "ERROR: LeakSanitizer"), or NULL if the log is clean. */
const char *hd_sanitizer_report(const struct hd *d);
/* `tengend grant NAME ROLE --db DB` beside the running daemon (the role applies from the
 * player's next login). Returns its exit status (128+signal if killed), -1 if it did not run. */
int hd_grant(const struct hd *d, const char *name, const char *role);
/* Does the log contain `needle`? */
bool hd_log_has(const struct hd *d, const char *needle);
/* `sqlite3 -readonly DB .dump`: a malloc'd string, NULL if the CLI failed. */
char *hd_dump(const struct hd *d);
/* Stop (kill -9) it if still running and delete its directory. */
void hd_cleanup(struct hd *d);

/* ---- clients ---- */

struct hc {
	int fd;
	char *buf;           /* bytes read and not yet split into lines */
	size_t len, cap;
	bool eof;            /* the server closed the connection (or it broke) */
	json_t **q;          /* messages read and not yet taken, oldest first */
	size_t nq, capq;
	long long next_id;   /* hc_req's next id */
	int bad_lines;       /* lines that were not JSON objects */
	int odd_lines;       /* JSON lines not in the server's one form: the bytes json_dumps
			      * (JSON_COMPACT) gives for what they parse to */
	char name[64];       /* logged-in player (hc_login_new), for messages */
};

/* Connect to 127.0.0.1:port; from `src` (e.g. "127.0.0.2"; NULL: any) when given, to look
 * like another client address. `rcvbuf` > 0 sets SO_RCVBUF and `mss` > 0 sets TCP_MAXSEG
 * before connecting: a small advertised segment size keeps the server's kernel send buffer
 * for this socket small (loopback otherwise lets it grow to megabytes). NULL on error. */
struct hc *hc_open_ex(int port, const char *src, int rcvbuf, int mss);
struct hc *hc_open(int port);
void hc_close(struct hc *c);
/* Send `len` raw bytes (poll-bounded: fails if the server takes none for HARNESS_TIMEOUT_MS).
 * Returns 0 or -1. */
int hc_send(struct hc *c, const void *data, size_t len);
/* Send a string followed by "\n". */
int hc_send_line(struct hc *c, const char *s);
/* The next message, queued ones first; NULL on timeout or close. New reference. */
json_t *hc_next(struct hc *c, int timeout_ms);
/* The next reply (not an event), queued ones first, events queued meanwhile. New ref or NULL. */
json_t *hc_reply(struct hc *c, int timeout_ms);
/* Send the request built by json_pack(fmt, ...) with "id" set to a fresh integer, and return
 * the reply with that id (new reference), or NULL on timeout/close. Other messages read
 * meanwhile are queued. */
json_t *hc_req(struct hc *c, const char *fmt, ...);
/* The same for a built request (stolen). */
json_t *hc_reqj(struct hc *c, json_t *req);
/* The oldest event called `name` (for game `game` if game > 0), queued or read within
 * timeout_ms; removed from the queue. New reference, or NULL. */
json_t *hc_event(struct hc *c, const char *name, long long game, int timeout_ms);
/* Is an event called `name` (for `game` if > 0) already queued? (Reads nothing.) */
bool hc_has_event(const struct hc *c, const char *name, long long game);
/* Drop every queued message. */
void hc_clear(struct hc *c);
/* Read and discard until the server closes the connection. true if it did within timeout. */
bool hc_wait_closed(struct hc *c, int timeout_ms);
/* The server's side of the TCP connection of our socket fd to 127.0.0.1:server_port, as
 * /proc/net/tcp shows it once the server's last bytes are acknowledged (within about a second:
 * until the client's ACK, which it may delay, the retransmit timer shows): its timer kind
 * (*tr: 0 none, 1 retransmit or loss probe, 2 keepalive, 4 zero-window probe) and the time to
 * it (*when_ms). False if the socket is not listed. */
bool hc_server_timer(int fd, int server_port, int *tr, long *when_ms);

/* register NAME with password NAME HARNESS_PASSWORD_SUFFIX (a conflict is fine), then login.
 * Returns the login reply's ok. */
bool hc_login_as(struct hc *c, const char *name);
/* hc_open + hc_login_as. NULL on failure. */
struct hc *hc_login_new(int port, const char *name);

/* ---- JSON fields ---- */

/* The value at a dotted path ("error.code", "game.board.0" for an array index), or NULL. */
json_t *hj_get(const json_t *o, const char *path);
/* Its string (NULL if absent or not a string), integer (-999999 if absent or not an integer),
 * number (NAN if not a number), boolean (-1 if not a boolean). */
const char *hj_str(const json_t *o, const char *path);
long long hj_int(const json_t *o, const char *path);
double hj_num(const json_t *o, const char *path);
int hj_bool(const json_t *o, const char *path);
/* A reply's "ok" is true. */
bool hj_ok(const json_t *reply);
/* An error reply's code ("bad_request"...), NULL for a success or no reply. */
const char *hj_err(const json_t *reply);
/* Does the array at `path` hold the string s? */
bool hj_has_str(const json_t *o, const char *path, const char *s);
/* Compact text of o for messages (static buffer, truncated). */
const char *hj_text(const json_t *o);

#endif
