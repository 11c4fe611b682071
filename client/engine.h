/* engine: a GTP engine (GNU Go, KataGo, ...) run as a child process on libuv.
 *
 * The engine's standard input and output are pipes; its standard error is discarded, or shared
 * with ours (`inherit_stderr`). Commands are written at once and queued: responses come in
 * command order (GTP 2 §2.6: each response ends with an empty line; the first line starts with
 * '=' for success or '?' for failure, then an optional id and a space), so each command's
 * callback gets the response with its status and its text (without "= " / "? " and without the
 * final newlines; '\r' removed, GTP 2 §2.2).
 *
 * An engine that exits, closes its output, or writes a malformed or oversized response is
 * "dead": every queued callback gets text NULL, later engine_send calls fail, and on_exit is
 * called once (after the process is reaped, with its exit status or terminating signal).
 * All callbacks run on the loop thread.
 */
#ifndef TENGEN_ENGINE_H
#define TENGEN_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <uv.h>

#define ENGINE_CMD_MAX 8192        /* longest command line, newline included */
#define ENGINE_RESPONSE_MAX 65536  /* longest response kept; a longer one kills the engine */
#define ENGINE_QUEUE_MAX 256       /* commands waiting for a response at once */
#define ENGINE_QUIT_MS 2000        /* engine_close: time given to `quit` before SIGKILL */

struct engine;

/* A command's response: ok is true for '=', false for '?'; text is the response text, or NULL
 * if the engine died before answering (then ok is false). `text` is borrowed for the call. */
typedef void (*engine_reply_cb)(struct engine *e, bool ok, const char *text, void *arg);
/* The engine process ended (exit status, or the signal that ended it, else 0). Not called
 * for an engine stopped by engine_close. */
typedef void (*engine_exit_cb)(struct engine *e, int64_t status, int term_signal, void *ctx);

struct engine_options {
	char **argv;           /* program (looked up in PATH) and arguments, NULL-terminated */
	bool inherit_stderr;   /* let the engine write on our stderr (default: discarded) */
	engine_exit_cb on_exit;
	void *ctx;
};

/* Start the engine. Returns NULL if it cannot be started (message in err[errlen]: the libuv
 * error, e.g. "no such file or directory"). */
struct engine *engine_spawn(uv_loop_t *loop, const struct engine_options *opt, char *err,
			    size_t errlen);
/* Send one command line (printf format; the newline is added); cb(arg) gets its response.
 * Returns 0, or -1 if the engine is dead, the line is longer than ENGINE_CMD_MAX or has a
 * newline, or ENGINE_QUEUE_MAX commands are waiting (cb is then never called). */
int engine_send(struct engine *e, engine_reply_cb cb, void *arg, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Log every command sent and response received (one line each, tagged `tag`, e.g. the game)
 * on `log` (borrowed: it must outlive the engine or be replaced; NULL: no log). */
void engine_set_log(struct engine *e, FILE *log, long long tag);
/* Stop the engine: `quit`, close its input, SIGKILL after ENGINE_QUIT_MS if it has not exited,
 * and free everything once libuv is done. Pending callbacks are dropped without being called;
 * on_exit is not called. Safe on NULL. */
void engine_close(struct engine *e);

/* Parse a GTP vertex list response ("D4 E5\nC3", any whitespace) into out[cap] strings of at
 * most 7 characters each. Returns the count, or -1 if an entry is too long or there are more
 * than cap. */
int engine_parse_vertices(const char *text, char (*out)[8], int cap);

#endif
