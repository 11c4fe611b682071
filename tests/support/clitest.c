/* clitest: the client's integration-test helpers. See clitest.h. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "clitest.h"

struct hd D;

/* ---- running the client ---- */

const char *cli_binary(void)
{
	const char *b = getenv("TENGEN");
	return b && *b ? b : "./client/tengen";
}

long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Start `tengen args...` with TENGEN_PASSWORD=password (unset if NULL) and stdin from
 * `input` (NULL: /dev/null). */
void proc_start(struct proc *p, const char *password, const char *input,
		       const char *const *args)
{
	const char *argv[RUN_MAX_ARGS + 2];
	int n = 0;
	argv[n++] = cli_binary();
	for (int i = 0; args[i]; i++) {
		ck_assert_int_lt(n, RUN_MAX_ARGS);
		argv[n++] = args[i];
	}
	argv[n] = NULL;
	int out[2], err[2], in[2];
	ck_assert(pipe(out) == 0 && pipe(err) == 0 && pipe(in) == 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		close(err[0]);
		close(err[1]);
		if (password)
			setenv("TENGEN_PASSWORD", password, 1);
		else
			unsetenv("TENGEN_PASSWORD");
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	if (input) {
		size_t len = strlen(input), off = 0;
		while (off < len) {
			ssize_t w = write(in[1], input + off, len - off);
			if (w <= 0)
				break;
			off += (size_t)w;
		}
	}
	close(in[1]);
	memset(p, 0, sizeof *p);
	p->pid = pid;
	p->out_fd = out[0];
	p->err_fd = err[0];
	p->out = calloc(RUN_OUTPUT_MAX + 1, 1);
	p->err = calloc(RUN_OUTPUT_MAX + 1, 1);
	ck_assert(p->out && p->err);
}

/* Read what is available within timeout_ms. Returns false once both pipes are closed. */
bool proc_read(struct proc *p, int timeout_ms)
{
	struct pollfd fds[2] = {{p->out_fd, POLLIN, 0}, {p->err_fd, POLLIN, 0}};
	if (p->out_fd < 0 && p->err_fd < 0)
		return false;
	if (poll(fds, 2, timeout_ms) <= 0)
		return true;
	for (int k = 0; k < 2; k++) {
		int *fd = k ? &p->err_fd : &p->out_fd;
		char *buf = k ? p->err : p->out;
		size_t *len = k ? &p->nerr : &p->nout;
		if (*fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		char tmp[4096];
		ssize_t r = read(*fd, tmp, sizeof tmp);
		if (r <= 0) {
			close(*fd);
			*fd = -1;
			continue;
		}
		size_t take = (size_t)r;
		if (*len + take > RUN_OUTPUT_MAX)
			take = RUN_OUTPUT_MAX - *len;
		memcpy(buf + *len, tmp, take);
		*len += take;
		buf[*len] = '\0';
	}
	return true;
}

/* Wait until the client's stdout holds `needle`; false on exit or timeout. */
bool proc_wait_for(struct proc *p, const char *needle, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	while (!strstr(p->out, needle)) {
		long long left = end - now_ms();
		if (left <= 0 || !proc_read(p, (int)left))
			return strstr(p->out, needle) != NULL;
	}
	return true;
}

/* Collect everything and the exit status (killing the client after RUN_TIMEOUT_MS). */
void proc_finish(struct proc *p, struct run *r)
{
	long long end = now_ms() + RUN_TIMEOUT_MS;
	while (now_ms() < end && proc_read(p, 100))
		;
	int st;
	pid_t w;
	while ((w = waitpid(p->pid, &st, WNOHANG)) == 0 && now_ms() < end) {
		struct timespec ts = {0, 10 * 1000000L};
		nanosleep(&ts, NULL);
	}
	if (w == 0) {
		kill(p->pid, SIGKILL);
		waitpid(p->pid, &st, 0);
		r->status = -1;
	} else {
		r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	}
	if (p->out_fd >= 0)
		close(p->out_fd);
	if (p->err_fd >= 0)
		close(p->err_fd);
	r->out = p->out;
	r->err = p->err;
	ck_assert_msg(!strstr(r->err, "runtime error:") && !strstr(r->err, "Sanitizer"),
		      "the client reported a sanitizer error:\n%s", r->err);
}

void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

/* Run `tengen --server 127.0.0.1:PORT ARGS...` (NULL-terminated) to the end. */
void run(struct run *r, const char *password, const char *input, ...)
{
	const char *args[RUN_MAX_ARGS + 1];
	char server[64];
	snprintf(server, sizeof server, "127.0.0.1:%d", D.port);
	int n = 0;
	args[n++] = "--server";
	args[n++] = server;
	va_list ap;
	va_start(ap, input);
	const char *a;
	while ((a = va_arg(ap, const char *)) != NULL) {
		ck_assert_int_lt(n, RUN_MAX_ARGS);
		args[n++] = a;
	}
	va_end(ap);
	args[n] = NULL;
	struct proc p;
	proc_start(&p, password, input, args);
	proc_finish(&p, r);
}

char *pw_of(const char *name)
{
	static char pw[4][64];
	static int k;
	k = (k + 1) % 4;
	snprintf(pw[k], sizeof pw[k], "%s%s", name, HARNESS_PASSWORD_SUFFIX);
	return pw[k];
}

/* Parse each non-empty line of s as a JSON object; returns them in an array (new ref). */
json_t *json_lines(const char *s)
{
	json_t *arr = json_array();
	const char *p = s;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len > 0) {
			json_error_t e;
			json_t *v = json_loadb(p, len, 0, &e);
			ck_assert_msg(json_is_object(v), "not a JSON object: %.*s (%s)", (int)len, p,
				      e.text);
			json_array_append_new(arr, v);
		}
		p += len + (nl ? 1 : 0);
	}
	return arr;
}

/* Register NAME through the client (password NAME HARNESS_PASSWORD_SUFFIX). */
void cli_register(const char *name)
{
	struct run r;
	run(&r, pw_of(name), NULL, "--user", name, "register", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, name);
	run_free(&r);
}

/* `tengend grant NAME ROLE --db DB`. */
void grant(const char *name, const char *role)
{
	ck_assert_msg(hd_grant(&D, name, role) == 0, "tengend grant %s %s failed", name, role);
}

/* ---- fixture ---- */

void setup(void)
{
	ck_assert_msg(hd_start(&D, NULL) == 0, "tengend (%s) did not start", hd_binary());
}

void teardown(void)
{
	int st = hd_stop(&D);
	const char *san = hd_sanitizer_report(&D);
	ck_assert_msg(st == 0, "tengend exited with status %d after SIGTERM (log: %s)", st, D.log);
	ck_assert_msg(san == NULL, "the daemon's log holds a sanitizer report (%s): %s", san, D.log);
	hd_cleanup(&D);
}

/* A port nothing listens on: bind one, close it. */
int closed_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	socklen_t len = sizeof a;
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	close(fd);
	return ntohs(a.sin_port);
}
