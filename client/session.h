/* session: the client's connection to tengend, on libuv and proto/ (framing, JSON lines).
 *
 * One session = one TCP connection with a login. Requests get ids and their replies are
 * matched to a callback; events go to the session's event callback. With `reconnect` set, a
 * dropped connection is retried with exponential backoff (SESSION_BACKOFF_MIN_MS ..
 * SESSION_BACKOFF_MAX_MS), logs in again, and calls on_ready again so the owner can resync.
 *
 * All callbacks run on the loop thread. A reply callback gets the whole reply object
 * (borrowed: incref to keep it) and is called exactly once: with the reply, or with NULL if
 * the connection dropped before the reply came (the request was possibly not executed: use
 * `number` on play to resend safely).
 */
#ifndef TENGEN_SESSION_H
#define TENGEN_SESSION_H

#include <stdbool.h>
#include <uv.h>
#include <jansson.h>

#define SESSION_BACKOFF_MIN_MS 250
#define SESSION_BACKOFF_MAX_MS 8000
#define SESSION_CONNECT_TIMEOUT_MS 5000
#define SESSION_DEFAULT_SERVER "127.0.0.1:6970"
#define SESSION_SERVER_ENV "TENGEN_SERVER" /* the address when no --server is given */
#define SESSION_CONFIG_ENV "TENGEN_CONFIG" /* the config file (session_default_server) */

/* What kind of failure the last on_error reported (for the client's exit status). */
enum session_failure {
	SESSION_FAIL_NONE = 0,
	SESSION_FAIL_UNREACHABLE, /* no connection: refused, unknown host, timed out */
	SESSION_FAIL_LOST,        /* the connection dropped */
	SESSION_FAIL_LOGIN,       /* the login was refused (wrong password, rate limited) */
	SESSION_FAIL_PROTOCOL,    /* the server sent what no tengend sends (a line too long) */
	SESSION_FAIL_OTHER,       /* out of memory, no socket */
};

struct session;

typedef void (*session_reply_cb)(struct session *s, json_t *reply, void *arg);
typedef void (*session_event_cb)(struct session *s, json_t *event, void *ctx);
/* Connected (and logged in, if a user was given): ready for requests. `first` is false after
 * a reconnect. */
typedef void (*session_ready_cb)(struct session *s, bool first, void *ctx);
/* The connection failed or dropped; `error` says why ("connection refused", "wrong name or
 * password", ...). `final` is true when no retry follows (reconnect off, or login refused). */
typedef void (*session_error_cb)(struct session *s, const char *error, bool final, void *ctx);

struct session_options {
	const char *server;     /* "HOST:PORT"; NULL: session_default_server() */
	const char *user;       /* NULL: do not log in */
	const char *password;
	bool reconnect;         /* retry with backoff on a dropped connection */
	bool exclusive;         /* log in with `exclusive` (a bridge): a newer such login of the
				   same user replaces this one (event session.replaced) */
	session_ready_cb on_ready;
	session_event_cb on_event;
	session_error_cb on_error;
	void *ctx;
};

/* Create a session on `loop` and start connecting. Returns NULL on bad options (message on
 * stderr) or no memory. */
struct session *session_open(uv_loop_t *loop, const struct session_options *opt);
/* Send `req` (not consumed; "id" is set by the session); cb(reply) later. Returns 0, or -1 if
 * not connected (cb is not called). */
int session_request(struct session *s, json_t *req, session_reply_cb cb, void *arg);
/* Close the connection and free the session once libuv is done with it; pending reply
 * callbacks get NULL. */
void session_close(struct session *s);
/* The address used when none is given: $TENGEN_SERVER if set and not empty, else the line
 * `server HOST:PORT` of the config file ($TENGEN_CONFIG, else $XDG_CONFIG_HOME/tengen/config,
 * else ~/.config/tengen/config; lines starting with '#' are comments), else
 * SESSION_DEFAULT_SERVER. */
const char *session_default_server(void);
/* The kind of the failure the last on_error call reported (SESSION_FAIL_NONE before any). */
enum session_failure session_failure(const struct session *s);
/* The server address "HOST:PORT" the session connects to (for messages). */
const char *session_server(const struct session *s);

/* Read a password: from the file named by `file` (first line), else from the environment
 * variable TENGEN_PASSWORD; NULL if neither. Returns a malloc'd string. A file that cannot be
 * read or is empty is NULL too, said on stderr: callers exit CMD_EXIT_FAILURE for it (README:
 * an unreadable file is 1), CMD_EXIT_USAGE when no password was given at all. */
char *session_password(const char *file);

#endif
