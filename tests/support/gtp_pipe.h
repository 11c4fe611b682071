/* gtp_pipe: talk GTP 2 to an engine run as a child process (test helper, POSIX).
 *
 * The engine's standard input and output are two pipes; its standard error goes to /dev/null.
 * A response is read up to its terminating blank line (GTP 2 §2.6) and split into the status
 * ('=' success, '?' failure) and its text, without the leading "= " / "? " and the final
 * newlines. Commands may be pipelined: send several with gtp_pipe_send, then read the
 * responses in order with gtp_pipe_recv.
 *
 * Opening a pipe sets SIGPIPE to be ignored in this process, so that an engine that dies turns
 * into an I/O error (-1) instead of killing the test.
 */
#ifndef TENGEN_GTP_PIPE_H
#define TENGEN_GTP_PIPE_H

#include <stddef.h>
#include <sys/types.h>

#define GTP_PIPE_CMD_MAX 1024     /* longest command line sent, incl. newline */
#define GTP_PIPE_RESP_MAX 65536   /* longest response text kept (longer is an error) */

struct gtp_pipe {
	pid_t pid;    /* the engine, or -1 */
	int to_fd;    /* write end: the engine's stdin */
	int from_fd;  /* read end: the engine's stdout */
	char buf[GTP_PIPE_RESP_MAX]; /* read buffer */
	size_t len;   /* bytes held in buf */
};

/* Start argv[0] (a path; argv NULL-terminated) as a GTP engine. Returns 0, or -1 with errno
 * set (pipe or fork failed; an exec failure shows as an I/O error on the first command). */
int gtp_pipe_open(struct gtp_pipe *g, char *const argv[]);

/* Send one command (printf format; a newline is appended). Returns 0, or -1 on an I/O error or
 * a command longer than GTP_PIPE_CMD_MAX. */
int gtp_pipe_send(struct gtp_pipe *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Read the next response into resp[cap] (NUL-terminated text without the status and the
 * final blank line). Returns 1 for success ('='), 0 for failure ('?'), -1 on an I/O error,
 * a malformed response, or a response that does not fit in resp or the buffer. */
int gtp_pipe_recv(struct gtp_pipe *g, char *resp, size_t cap);

/* gtp_pipe_send then gtp_pipe_recv. Same returns as gtp_pipe_recv. */
int gtp_pipe_cmd(struct gtp_pipe *g, char *resp, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Send "quit", close the pipes, and reap the engine (killing it if it has not exited within
 * GTP_PIPE_QUIT_MS). Safe to call twice. */
#define GTP_PIPE_QUIT_MS 2000
void gtp_pipe_close(struct gtp_pipe *g);

#endif
