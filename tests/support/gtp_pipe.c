/* gtp_pipe: talk GTP 2 to an engine run as a child process. See gtp_pipe.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "gtp_pipe.h"

#define QUIT_POLL_NS 10000000L /* 10 ms between checks for the engine's exit */
/* GNU Go writes its responses unbuffered, often one write per vertex: when a read returns part
 * of a response, let more pile up before the next read instead of waking once per write. */
#define PARTIAL_NAP_NS 30000L

int gtp_pipe_open(struct gtp_pipe *g, char *const argv[])
{
	int in[2] = {-1, -1}, out[2] = {-1, -1};
	g->pid = -1;
	g->to_fd = g->from_fd = -1;
	g->len = 0;
	signal(SIGPIPE, SIG_IGN);
	if (pipe(in) < 0 || pipe(out) < 0)
		goto fail;
	pid_t pid = fork();
	if (pid < 0)
		goto fail;
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		if (devnull >= 0)
			dup2(devnull, STDERR_FILENO);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	fcntl(in[1], F_SETFD, FD_CLOEXEC);
	fcntl(out[0], F_SETFD, FD_CLOEXEC);
	g->pid = pid;
	g->to_fd = in[1];
	g->from_fd = out[0];
	return 0;
fail:;
	int e = errno;
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	errno = e;
	return -1;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int vsend(struct gtp_pipe *g, const char *fmt, va_list ap)
{
	char line[GTP_PIPE_CMD_MAX];
	if (g->to_fd < 0)
		return -1;
	int n = vsnprintf(line, sizeof line - 1, fmt, ap);
	if (n < 0 || (size_t)n >= sizeof line - 1)
		return -1;
	line[n++] = '\n';
	return write_all(g->to_fd, line, (size_t)n);
}

int gtp_pipe_send(struct gtp_pipe *g, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vsend(g, fmt, ap);
	va_end(ap);
	return r;
}

/* Find the end of a response ("\n\n") in the buffer; returns the offset of the first of the
 * two newlines, or -1. */
static long find_end(const struct gtp_pipe *g)
{
	for (size_t i = 0; i + 1 < g->len; i++)
		if (g->buf[i] == '\n' && g->buf[i + 1] == '\n')
			return (long)i;
	return -1;
}

int gtp_pipe_recv(struct gtp_pipe *g, char *resp, size_t cap)
{
	long end;
	if (g->from_fd < 0 || cap == 0)
		return -1;
	while ((end = find_end(g)) < 0) {
		if (g->len == sizeof g->buf)
			return -1; /* response too long */
		ssize_t r = read(g->from_fd, g->buf + g->len, sizeof g->buf - g->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		/* GTP 2 §2.2: carriage returns are to be ignored. */
		size_t w = g->len;
		for (size_t i = g->len; i < g->len + (size_t)r; i++)
			if (g->buf[i] != '\r')
				g->buf[w++] = g->buf[i];
		g->len = w;
		if (find_end(g) < 0)
			nanosleep(&(struct timespec){0, PARTIAL_NAP_NS}, NULL);
	}
	/* Skip stray empty lines before a response. */
	size_t start = 0;
	while (start < (size_t)end && g->buf[start] == '\n')
		start++;
	int status;
	if (g->buf[start] == '=')
		status = 1;
	else if (g->buf[start] == '?')
		status = 0;
	else
		status = -1;
	size_t p = start + 1;
	while (p < (size_t)end && g->buf[p] >= '0' && g->buf[p] <= '9')
		p++; /* an id */
	while (p < (size_t)end && (g->buf[p] == ' ' || g->buf[p] == '\t'))
		p++;
	size_t n = (size_t)end - p;
	if (status >= 0 && n >= cap)
		status = -1;
	if (status >= 0) {
		memcpy(resp, g->buf + p, n);
		resp[n] = '\0';
	} else {
		resp[0] = '\0';
	}
	/* Drop the response and its two newlines from the buffer. */
	size_t used = (size_t)end + 2;
	memmove(g->buf, g->buf + used, g->len - used);
	g->len -= used;
	return status;
}

int gtp_pipe_cmd(struct gtp_pipe *g, char *resp, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vsend(g, fmt, ap);
	va_end(ap);
	return r < 0 ? -1 : gtp_pipe_recv(g, resp, cap);
}

void gtp_pipe_close(struct gtp_pipe *g)
{
	if (g->to_fd >= 0) {
		write_all(g->to_fd, "quit\n", 5);
		close(g->to_fd);
		g->to_fd = -1;
	}
	if (g->from_fd >= 0) {
		close(g->from_fd);
		g->from_fd = -1;
	}
	if (g->pid > 0) {
		int status;
		pid_t r = 0;
		for (long waited = 0; waited < GTP_PIPE_QUIT_MS * 1000000L; waited += QUIT_POLL_NS) {
			r = waitpid(g->pid, &status, WNOHANG);
			if (r != 0)
				break;
			nanosleep(&(struct timespec){0, QUIT_POLL_NS}, NULL);
		}
		if (r == 0) {
			kill(g->pid, SIGKILL);
			waitpid(g->pid, &status, 0);
		}
		g->pid = -1;
	}
	g->len = 0;
}
