/* cli_run: the runner of the subcommands that send requests to tengend (call, register, the
 * queries, watch, td): a libuv loop with one session, connected (and logged in) from the
 * global options, a bounded wait for each reply, and the error replies reported the same way
 * for every command. `tengen gtp` runs its own loop (it reconnects and never finishes by
 * itself). */
#ifndef TENGEN_CLI_RUN_H
#define TENGEN_CLI_RUN_H

#include <stdbool.h>
#include <uv.h>
#include <jansson.h>

#include "cli.h"
#include "session.h"

#define CLI_REPLY_TIMEOUT_MS 30000 /* longest wait for one reply before giving up */

/* One running subcommand: a libuv loop with one session. */
struct cli;
typedef void (*cli_start_fn)(struct cli *c);
typedef void (*cli_event_fn)(struct cli *c, json_t *event);

struct cli_reconnect;

struct cli {
	uv_loop_t loop;
	struct session *s;
	const struct cli_opts *opt;
	uv_timer_t timer;     /* CLI_REPLY_TIMEOUT_MS per request (unless `no_timeout`) */
	bool no_timeout;      /* set by a start function that waits for events (watch) */
	int status;           /* exit status once done */
	bool done;
	cli_start_fn start;   /* called once the session is ready (logged in if --user) */
	cli_event_fn on_event;
	void *ctx;            /* the subcommand's own state */
	const struct cli_reconnect *rc; /* cli_run_reconnecting, else NULL */
	bool was_ready;       /* the session was ready once (only then is a drop retried) */
};

/* A command that follows events for long (watch): once connected, the session reconnects with
 * backoff like the bridge's (SESSION_BACKOFF_MIN_MS..MAX), each drop is said on stderr (a first
 * connection that fails ends the command as usual), and on_reconnect
 * runs once the session is back (to read the state again); on_stop runs at cli_finish (to
 * close the command's own handles). */
struct cli_reconnect {
	cli_start_fn on_reconnect;
	cli_start_fn on_stop;
};

/* Run a subcommand: connect (and log in when `login`, which needs --user: a usage error
 * otherwise), call start(c), run the loop until cli_finish. Returns the exit status. */
int cli_run(const struct cli_opts *o, bool login, cli_start_fn start, cli_event_fn on_event,
	    void *ctx);
/* cli_run with reconnection (rc: not NULL, outlives the run). */
int cli_run_reconnecting(const struct cli_opts *o, bool login, cli_start_fn start,
			 cli_event_fn on_event, void *ctx, const struct cli_reconnect *rc);
/* Stop with this exit status (the first call wins). */
void cli_finish(struct cli *c, int status);
/* Send `req` (consumed) with reply callback cb(session, reply, c). Finishes with status 1 and a
 * message if it cannot be sent. Returns 0 or -1. */
int cli_send(struct cli *c, json_t *req, session_reply_cb cb);
/* The `struct cli` of a reply callback's arg. */
#define CLI_OF(arg) ((struct cli *)(arg))
/* Check a reply: true for an ok reply. For an error reply print a clear message on stderr
 * (the not-a-director and log-in-first cases get their own), set the exit status to
 * CMD_EXIT_REFUSED and
 * return false. A NULL reply (connection lost; the session reports why) returns false. */
bool cli_reply_ok(struct cli *c, const json_t *reply);
/* The exit status for a session failure: CMD_EXIT_UNREACHABLE, CMD_EXIT_LOGIN or
 * CMD_EXIT_FAILURE. */
int cli_status_of_failure(enum session_failure kind);
/* Print an error reply's message on stderr (as cli_reply_ok does). */
void cli_print_error(struct cli *c, const json_t *reply);

/* ---- the usual run: a batch of requests, a printer for the replies ---- */

struct cli_batch;
/* Print the ok reply to request `req`. */
typedef void (*cli_print_fn)(struct cli_batch *b, const json_t *req, const json_t *reply);

struct cli_batch {
	const struct cli_opts *opt;
	json_t *reqs;        /* the requests (a JSON array), sent in order */
	size_t next;         /* the next one to send */
	cli_print_fn print;
	cli_print_fn print_error; /* NULL: an error reply is reported by cli_reply_ok */
	void *ctx;           /* the printer's own state */
	bool failed;         /* an error reply came (or a printer set it): exit status 1 */
	bool refused;        /* an error reply came: exit status CMD_EXIT_REFUSED */
};

/* Run a batch (reqs consumed; NULL: "out of memory", status 1): send each request once the
 * previous one's reply came; with --json print every reply raw, else print() each ok one.
 * An error reply is reported (cli_reply_ok: once, on stderr, never on stdout) and the batch
 * goes on; the exit status is then CMD_EXIT_REFUSED.
 * Logs in first when `login` (see cli_run). */
int cli_run_batch(const struct cli_opts *o, bool login, json_t *reqs, cli_print_fn print,
		  void *ctx);
/* cli_run_batch, but an error reply (without --json) is given to print_error, which reports
 * it on stderr in its own words (naming the request: "line 3: game 12: ..."); the exit status
 * is still 1. */
int cli_run_batch_each(const struct cli_opts *o, bool login, json_t *reqs, cli_print_fn print,
		       cli_print_fn print_error, void *ctx);
/* A batch of one request (consumed; NULL: NULL), for cli_run_batch. */
json_t *cli_batch_of(json_t *req);

#endif
