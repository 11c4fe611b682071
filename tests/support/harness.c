/* tests/support/harness: see harness.h. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"

extern char **environ;

#define HARNESS_POLL_STEP_MS 10     /* polling interval while waiting for the daemon */
#define HARNESS_READ_CHUNK 65536    /* bytes per recv */
#define HARNESS_MAX_DAEMONS 16      /* daemons one test process can run */
#define HARNESS_LOG_TAIL 4096       /* bytes of a log printed when a test leaves a daemon */

static const char *const sanitizer_markers[] = {
	"ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer",
};

/* ---- time ---- */

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* ---- the daemon ---- */

static struct hd *running[HARNESS_MAX_DAEMONS];
static bool atexit_set;

static void print_log_tail(const struct hd *d)
{
	FILE *f = fopen(d->log, "r");
	if (!f)
		return;
	char buf[HARNESS_LOG_TAIL + 1];
	if (fseek(f, 0, SEEK_END) == 0) {
		long sz = ftell(f);
		fseek(f, sz > HARNESS_LOG_TAIL ? sz - HARNESS_LOG_TAIL : 0, SEEK_SET);
	}
	size_t n = fread(buf, 1, HARNESS_LOG_TAIL, f);
	buf[n] = '\0';
	fclose(f);
	fprintf(stderr, "---- end of %s ----\n%s---- (directory kept: %s)\n", d->log, buf, d->dir);
}

/* A test that failed exits without its teardown: stop what it left running. */
static void reap_all(void)
{
	for (int i = 0; i < HARNESS_MAX_DAEMONS; i++) {
		struct hd *d = running[i];
		if (!d || d->pid <= 0)
			continue;
		kill(d->pid, SIGKILL);
		waitpid(d->pid, NULL, 0);
		d->pid = 0;
		print_log_tail(d);
	}
}

static void track(struct hd *d)
{
	if (!atexit_set) {
		atexit(reap_all);
		atexit_set = true;
	}
	for (int i = 0; i < HARNESS_MAX_DAEMONS; i++)
		if (running[i] == d)
			return;
	for (int i = 0; i < HARNESS_MAX_DAEMONS; i++)
		if (!running[i]) {
			running[i] = d;
			return;
		}
}

static void untrack(struct hd *d)
{
	for (int i = 0; i < HARNESS_MAX_DAEMONS; i++)
		if (running[i] == d)
			running[i] = NULL;
}

const char *hd_binary(void)
{
	const char *b = getenv("TENGEND");
	return b && *b ? b : "./server/tengend";
}

static int read_port(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int port = -1;
	if (fscanf(f, "%d", &port) != 1)
		port = -1;
	fclose(f);
	return port;
}

/* Wait for the daemon's exit. Returns its status as hd_stop does, or -1 on timeout. */
static int reap(struct hd *d, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	for (;;) {
		int st;
		pid_t r = waitpid(d->pid, &st, WNOHANG);
		if (r == d->pid) {
			d->pid = 0;
			untrack(d);
			if (WIFEXITED(st))
				return WEXITSTATUS(st);
			return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255;
		}
		if (r < 0) {
			d->pid = 0;
			untrack(d);
			return 255;
		}
		if (now_ms() > end)
			return -1;
		sleep_ms(HARNESS_POLL_STEP_MS);
	}
}

/* In a child before exec: add "NAME=value" entries to the environment; with LD_PRELOAD, let
 * a sanitizer build start with the shim loaded ahead of its runtime. */
static void add_env(const char *const *env)
{
	bool preload = false;
	for (int i = 0; env && env[i]; i++) {
		putenv((char *)env[i]);
		preload |= strncmp(env[i], "LD_PRELOAD=", 11) == 0;
	}
	if (preload) {
		static char asan[1024];
		const char *old = getenv("ASAN_OPTIONS");
		snprintf(asan, sizeof asan, "ASAN_OPTIONS=%s%sverify_asan_link_order=0",
			 old ? old : "", old && *old ? ":" : "");
		putenv(asan);
	}
}

static int spawn(struct hd *d)
{
	char listen[] = "127.0.0.1:0";
	const char *argv[20 + HARNESS_MAX_ARGS] = {hd_binary(), "--listen", listen, "--port-file",
		d->port_file, "--db", d->db, "--pwhash-cost", "fast", "--log-level", "debug"};
	int n = 11;
	/* TENGEN_TEST_WRITER_MIN (set by a test program): tengend's --writer-min, e.g. 1 to send
	 * every flush through the writer thread. */
	const char *wmin = getenv("TENGEN_TEST_WRITER_MIN");
	if (wmin) {
		argv[n++] = "--writer-min";
		argv[n++] = wmin;
	}
	/* TENGEN_TEST_FOLD_ROWS: tengend's --fold-rows, small to fold the move journal often. */
	const char *fold = getenv("TENGEN_TEST_FOLD_ROWS");
	if (fold) {
		argv[n++] = "--fold-rows";
		argv[n++] = fold;
	}
	/* Only the first start may create the database: a restart must find it. */
	if (d->starts == 0)
		argv[n++] = "--create";
	for (int i = 0; d->extra[i]; i++)
		argv[n++] = d->extra[i];
	argv[n] = NULL;
	unlink(d->port_file);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		perror("harness: fork");
		return -1;
	}
	if (pid == 0) {
		/* If the test process dies, stop the daemon cleanly. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		int log = open(d->log, O_WRONLY | O_CREAT | O_APPEND, 0644);
		int null = open("/dev/null", O_RDONLY);
		if (log < 0 || null < 0)
			_exit(127);
		dup2(null, 0);
		dup2(log, 1);
		dup2(log, 2);
		close(log);
		close(null);
		add_env((const char *const *)d->env);
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "harness: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	d->pid = pid;
	d->starts++;
	track(d);
	long long end = now_ms() + HARNESS_START_TIMEOUT_MS;
	for (;;) {
		int port = read_port(d->port_file);
		if (port > 0) {
			d->port = port;
			return 0;
		}
		int st;
		if (waitpid(pid, &st, WNOHANG) == pid) {
			d->pid = 0;
			untrack(d);
			fprintf(stderr, "harness: %s exited at start (status %d); see %s\n", argv[0], st, d->log);
			print_log_tail(d);
			return -1;
		}
		if (now_ms() > end) {
			fprintf(stderr, "harness: %s wrote no port file in %d ms\n", argv[0],
				HARNESS_START_TIMEOUT_MS);
			hd_kill(d);
			return -1;
		}
		sleep_ms(HARNESS_POLL_STEP_MS);
	}
}

int hd_start(struct hd *d, const char *const *extra)
{
	return hd_start_env(d, extra, NULL);
}

int hd_start_env(struct hd *d, const char *const *extra, const char *const *env)
{
	memset(d, 0, sizeof *d);
	for (int i = 0; env && env[i] && i < HARNESS_MAX_ENV; i++)
		d->env[i] = strdup(env[i]);
	const char *tmp = getenv("TMPDIR");
	snprintf(d->dir, sizeof d->dir, "%s/tengen-itest-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(d->dir)) {
		perror("harness: mkdtemp");
		return -1;
	}
	snprintf(d->db, sizeof d->db, "%s/t.db", d->dir);
	snprintf(d->port_file, sizeof d->port_file, "%s/port", d->dir);
	snprintf(d->log, sizeof d->log, "%s/log", d->dir);
	for (int i = 0; extra && extra[i] && i < HARNESS_MAX_ARGS; i++)
		d->extra[i] = strdup(extra[i]);
	return spawn(d);
}

int hd_restart(struct hd *d)
{
	if (d->pid > 0) {
		fprintf(stderr, "harness: restart of a running daemon\n");
		return -1;
	}
	return spawn(d);
}

int hd_stop(struct hd *d)
{
	if (d->pid <= 0)
		return -1;
	kill(d->pid, SIGTERM);
	int st = reap(d, HARNESS_START_TIMEOUT_MS);
	if (st < 0) {
		fprintf(stderr, "harness: the daemon did not stop within %d ms of SIGTERM\n",
			HARNESS_START_TIMEOUT_MS);
		hd_kill(d);
	}
	return st;
}

int hd_wait_exit(struct hd *d, int timeout_ms)
{
	if (d->pid <= 0)
		return -1;
	return reap(d, timeout_ms);
}

int hd_kill(struct hd *d)
{
	if (d->pid <= 0)
		return -1;
	kill(d->pid, SIGKILL);
	waitpid(d->pid, NULL, 0);
	d->pid = 0;
	untrack(d);
	return 0;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *s = malloc(cap);
	size_t n;
	while (s && (n = fread(s + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2) {
			char *ns = realloc(s, cap * 2);
			if (!ns) {
				free(s);
				s = NULL;
				break;
			}
			s = ns;
			cap *= 2;
		}
	}
	fclose(f);
	if (s)
		s[len] = '\0';
	return s;
}

const char *hd_sanitizer_report(const struct hd *d)
{
	char *log = read_file(d->log);
	const char *found = NULL;
	for (size_t i = 0; log && !found && i < sizeof sanitizer_markers / sizeof *sanitizer_markers; i++)
		if (strstr(log, sanitizer_markers[i]))
			found = sanitizer_markers[i];
	free(log);
	return found;
}

bool hd_log_has(const struct hd *d, const char *needle)
{
	char *log = read_file(d->log);
	bool r = log && strstr(log, needle);
	free(log);
	return r;
}

char *hd_dump(const struct hd *d)
{
	char cmd[HARNESS_PATH_MAX + 64];
	snprintf(cmd, sizeof cmd, "sqlite3 -readonly '%s' .dump 2>&1", d->db);
	FILE *p = popen(cmd, "r");
	if (!p)
		return NULL;
	size_t cap = 65536, len = 0, n;
	char *s = malloc(cap);
	while (s && (n = fread(s + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (cap - len < 2) {
			char *ns = realloc(s, cap * 2);
			if (!ns) {
				free(s);
				s = NULL;
				break;
			}
			s = ns;
			cap *= 2;
		}
	}
	int st = pclose(p);
	if (!s)
		return NULL;
	s[len] = '\0';
	if (st != 0) {
		fprintf(stderr, "harness: sqlite3 .dump failed: %s\n", s);
		free(s);
		return NULL;
	}
	return s;
}

void hd_cleanup(struct hd *d)
{
	hd_kill(d);
	if (d->dir[0]) {
		static const char *const files[] = {"t.db", "t.db-wal", "t.db-shm", "t.db-journal",
						    "t.db.lock", "port", "port.tmp", "log"};
		char f[HARNESS_PATH_MAX + 32];
		for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
			snprintf(f, sizeof f, "%s/%s", d->dir, files[i]);
			unlink(f);
		}
		rmdir(d->dir);
		d->dir[0] = '\0';
	}
	for (int i = 0; d->extra[i]; i++) {
		free(d->extra[i]);
		d->extra[i] = NULL;
	}
	for (int i = 0; d->env[i]; i++) {
		free(d->env[i]);
		d->env[i] = NULL;
	}
}

int hd_run(const char *const *args, const char *const *env, char *out, size_t outlen,
	   int timeout_ms)
{
	const char *argv[HARNESS_MAX_ARGS + 2] = {hd_binary()};
	int n = 1;
	for (int i = 0; args && args[i] && n < HARNESS_MAX_ARGS + 1; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	int fds[2];
	if (outlen)
		out[0] = '\0';
	if (pipe(fds) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		add_env(env);
		execv(argv[0], (char *const *)argv);
		fprintf(stderr, "harness: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	size_t len = 0;
	long long end = now_ms() + timeout_ms;
	for (;;) {
		long long left = end - now_ms();
		struct pollfd p = {.fd = fds[0], .events = POLLIN};
		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			break;
		char buf[HARNESS_READ_CHUNK];
		ssize_t r = read(fds[0], buf, sizeof buf);
		if (r <= 0)
			break;
		size_t take = (size_t)r;
		if (outlen && take > outlen - 1 - len)
			take = outlen - 1 - len;
		if (take)
			memcpy(out + len, buf, take);
		len += take;
		if (outlen)
			out[len] = '\0';
	}
	close(fds[0]);
	struct hd tmp = {.pid = pid};
	int st = reap(&tmp, (int)(end > now_ms() ? end - now_ms() : 0) + HARNESS_POLL_STEP_MS);
	if (st < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	return st;
}

const char *hd_fsfault(void)
{
	const char *p = getenv("TENGEN_FSFAULT");
	return p && *p && access(p, R_OK) == 0 ? p : NULL;
}

/* ---- clients ---- */

struct hc *hc_open_ex(int port, const char *src, int rcvbuf, int mss)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return NULL;
	if (rcvbuf > 0 && setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf) < 0)
		fprintf(stderr, "harness: SO_RCVBUF %d: %s\n", rcvbuf, strerror(errno));
	if (mss > 0 && setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof mss) < 0)
		fprintf(stderr, "harness: TCP_MAXSEG %d: %s\n", mss, strerror(errno));
	if (src) {
		struct sockaddr_in s = {.sin_family = AF_INET};
		if (inet_pton(AF_INET, src, &s.sin_addr) != 1 ||
		    bind(fd, (struct sockaddr *)&s, sizeof s) < 0) {
			fprintf(stderr, "harness: bind %s: %s\n", src, strerror(errno));
			close(fd);
			return NULL;
		}
	}
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		fprintf(stderr, "harness: connect to port %d: %s\n", port, strerror(errno));
		close(fd);
		return NULL;
	}
	struct hc *c = calloc(1, sizeof *c);
	if (!c) {
		close(fd);
		return NULL;
	}
	c->fd = fd;
	c->next_id = 1;
	return c;
}

struct hc *hc_open(int port)
{
	return hc_open_ex(port, NULL, 0, 0);
}

void hc_close(struct hc *c)
{
	if (!c)
		return;
	close(c->fd);
	hc_clear(c);
	free(c->q);
	free(c->buf);
	free(c);
}

int hc_send(struct hc *c, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		struct pollfd pf = {c->fd, POLLOUT, 0};
		int r = poll(&pf, 1, HARNESS_TIMEOUT_MS);
		if (r <= 0) {
			fprintf(stderr, "harness: send: the server took nothing for %d ms\n", HARNESS_TIMEOUT_MS);
			return -1;
		}
		ssize_t n = send(c->fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int hc_send_line(struct hc *c, const char *s)
{
	size_t n = strlen(s);
	char *line = malloc(n + 2);
	if (!line)
		return -1;
	memcpy(line, s, n);
	line[n] = '\n';
	line[n + 1] = '\0';
	int r = hc_send(c, line, n + 1);
	free(line);
	return r;
}

static void enqueue(struct hc *c, json_t *m)
{
	if (c->nq == c->capq) {
		size_t n = c->capq ? c->capq * 2 : 16;
		json_t **q = realloc(c->q, n * sizeof *q);
		if (!q) {
			json_decref(m);
			return;
		}
		c->q = q;
		c->capq = n;
	}
	c->q[c->nq++] = m;
}

static json_t *take(struct hc *c, size_t i)
{
	json_t *m = c->q[i];
	memmove(c->q + i, c->q + i + 1, (c->nq - i - 1) * sizeof *c->q);
	c->nq--;
	return m;
}

void hc_clear(struct hc *c)
{
	for (size_t i = 0; i < c->nq; i++)
		json_decref(c->q[i]);
	c->nq = 0;
}

/* Read one line from the socket (not the queue), parsed. NULL on timeout or close. */
static json_t *read_msg(struct hc *c, long long deadline)
{
	for (;;) {
		char *nl = c->len ? memchr(c->buf, '\n', c->len) : NULL;
		if (nl) {
			size_t n = (size_t)(nl - c->buf);
			json_error_t e;
			json_t *m = json_loadb(c->buf, n, 0, &e);
			if (!m || !json_is_object(m)) {
				c->bad_lines++;
				fprintf(stderr, "harness: a line from the server is not a JSON object: %.*s\n",
					(int)(n > 200 ? 200 : n), c->buf);
				json_decref(m);
				m = NULL;
			} else {
				char *again = json_dumps(m, JSON_COMPACT);
				if (!again || strlen(again) != n || memcmp(again, c->buf, n) != 0) {
					c->odd_lines++;
					fprintf(stderr, "harness: a line from the server is not compact "
						"JSON in key order:\n  %.*s\n  %s\n", (int)(n > 300 ? 300 : n),
						c->buf, again ? again : "(no memory)");
				}
				free(again);
			}
			memmove(c->buf, nl + 1, c->len - n - 1);
			c->len -= n + 1;
			if (m)
				return m;
			continue;
		}
		if (c->eof)
			return NULL;
		long long left = deadline - now_ms();
		if (left < 0)
			return NULL;
		struct pollfd pf = {c->fd, POLLIN, 0};
		int r = poll(&pf, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return NULL;
		if (c->cap - c->len < HARNESS_READ_CHUNK) {
			size_t ncap = c->cap ? c->cap * 2 : 2 * HARNESS_READ_CHUNK;
			while (ncap - c->len < HARNESS_READ_CHUNK)
				ncap *= 2;
			char *nb = realloc(c->buf, ncap);
			if (!nb)
				return NULL;
			c->buf = nb;
			c->cap = ncap;
		}
		ssize_t n = recv(c->fd, c->buf + c->len, HARNESS_READ_CHUNK, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			c->eof = true;
			continue;
		}
		c->len += (size_t)n;
	}
}

static bool is_event(const json_t *m)
{
	return json_object_get(m, "event") != NULL;
}

json_t *hc_next(struct hc *c, int timeout_ms)
{
	if (c->nq)
		return take(c, 0);
	return read_msg(c, now_ms() + timeout_ms);
}

json_t *hc_reply(struct hc *c, int timeout_ms)
{
	for (size_t i = 0; i < c->nq; i++)
		if (!is_event(c->q[i]))
			return take(c, i);
	long long deadline = now_ms() + timeout_ms;
	json_t *m;
	while ((m = read_msg(c, deadline)) != NULL) {
		if (!is_event(m))
			return m;
		enqueue(c, m);
	}
	return NULL;
}

static bool reply_has_id(const json_t *m, long long id)
{
	const json_t *v = json_object_get(m, "id");
	return !is_event(m) && json_is_integer(v) && json_integer_value(v) == id;
}

json_t *hc_reqj(struct hc *c, json_t *req)
{
	if (!req)
		return NULL;
	long long id = c->next_id++;
	json_object_set_new(req, "id", json_integer(id));
	char *text = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	if (!text)
		return NULL;
	int r = hc_send_line(c, text);
	free(text);
	if (r < 0)
		return NULL;
	for (size_t i = 0; i < c->nq; i++)
		if (reply_has_id(c->q[i], id))
			return take(c, i);
	long long deadline = now_ms() + HARNESS_TIMEOUT_MS;
	json_t *m;
	while ((m = read_msg(c, deadline)) != NULL) {
		if (reply_has_id(m, id))
			return m;
		enqueue(c, m);
	}
	fprintf(stderr, "harness: no reply to request %lld of %s within %d ms%s\n", id,
		c->name[0] ? c->name : "a client", HARNESS_TIMEOUT_MS, c->eof ? " (closed)" : "");
	return NULL;
}

json_t *hc_req(struct hc *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	json_error_t e;
	json_t *req = json_vpack_ex(&e, 0, fmt, ap);
	va_end(ap);
	if (!req) {
		fprintf(stderr, "harness: json_pack(%s): %s\n", fmt, e.text);
		return NULL;
	}
	return hc_reqj(c, req);
}

static bool event_matches(const json_t *m, const char *name, long long game)
{
	const char *ev = json_string_value(json_object_get(m, "event"));
	if (!ev || strcmp(ev, name) != 0)
		return false;
	if (game <= 0)
		return true;
	const json_t *g = json_object_get(m, "game");
	return json_is_integer(g) && json_integer_value(g) == game;
}

bool hc_has_event(const struct hc *c, const char *name, long long game)
{
	for (size_t i = 0; i < c->nq; i++)
		if (event_matches(c->q[i], name, game))
			return true;
	return false;
}

json_t *hc_event(struct hc *c, const char *name, long long game, int timeout_ms)
{
	for (size_t i = 0; i < c->nq; i++)
		if (event_matches(c->q[i], name, game))
			return take(c, i);
	long long deadline = now_ms() + timeout_ms;
	json_t *m;
	while ((m = read_msg(c, deadline)) != NULL) {
		if (event_matches(m, name, game))
			return m;
		enqueue(c, m);
	}
	return NULL;
}

#define PROC_TCP_HZ 100 /* /proc/net/tcp gives tm->when in clock ticks (USER_HZ) */

static bool server_timer_now(int fd, int server_port, int *tr, long *when_ms)
{
	struct sockaddr_in me;
	socklen_t len = sizeof me;
	if (getsockname(fd, (struct sockaddr *)&me, &len) != 0)
		return false;
	FILE *f = fopen("/proc/net/tcp", "r");
	if (!f)
		return false;
	char line[512];
	bool found = false;
	while (!found && fgets(line, sizeof line, f)) {
		unsigned la, lp, ra, rp, st, t;
		unsigned long when;
		if (sscanf(line, " %*d: %x:%x %x:%x %x %*x:%*x %x:%lx", &la, &lp, &ra, &rp, &st, &t,
			   &when) == 7 &&
		    (int)lp == server_port && rp == ntohs(me.sin_port) && st == 1 /* established */) {
			*tr = (int)t;
			*when_ms = (long)(when * 1000 / PROC_TCP_HZ);
			found = true;
		}
	}
	fclose(f);
	return found;
}

bool hc_server_timer(int fd, int server_port, int *tr, long *when_ms)
{
	bool found = server_timer_now(fd, server_port, tr, when_ms);
	for (int i = 0; found && *tr == 1 && i < 50; i++) {
		usleep(20 * 1000);
		found = server_timer_now(fd, server_port, tr, when_ms);
	}
	return found;
}

bool hc_wait_closed(struct hc *c, int timeout_ms)
{
	long long deadline = now_ms() + timeout_ms;
	char buf[HARNESS_READ_CHUNK];
	c->len = 0;
	while (!c->eof) {
		long long left = deadline - now_ms();
		if (left < 0)
			return false;
		struct pollfd pf = {c->fd, POLLIN, 0};
		int r = poll(&pf, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		ssize_t n = recv(c->fd, buf, sizeof buf, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			c->eof = true;
	}
	return true;
}

bool hc_login_as(struct hc *c, const char *name)
{
	char pw[128];
	snprintf(pw, sizeof pw, "%s%s", name, HARNESS_PASSWORD_SUFFIX);
	json_t *r = hc_req(c, "{s:s, s:s, s:s}", "cmd", "register", "name", name, "password", pw);
	bool ok = hj_ok(r) || (hj_err(r) && strcmp(hj_err(r), "conflict") == 0);
	json_decref(r);
	if (!ok)
		return false;
	r = hc_req(c, "{s:s, s:s, s:s}", "cmd", "login", "name", name, "password", pw);
	ok = hj_ok(r);
	if (!ok)
		fprintf(stderr, "harness: login %s: %s\n", name, hj_text(r));
	json_decref(r);
	if (ok)
		snprintf(c->name, sizeof c->name, "%s", name);
	return ok;
}

struct hc *hc_login_new(int port, const char *name)
{
	struct hc *c = hc_open(port);
	if (c && !hc_login_as(c, name)) {
		hc_close(c);
		return NULL;
	}
	return c;
}

/* ---- JSON fields ---- */

json_t *hj_get(const json_t *o, const char *path)
{
	char key[256];
	const json_t *v = o;
	while (v && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof key)
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		path += n + (path[n] == '.');
		if (json_is_object(v)) {
			v = json_object_get(v, key);
		} else if (json_is_array(v)) {
			char *end;
			long i = strtol(key, &end, 10);
			v = *end || i < 0 ? NULL : json_array_get(v, (size_t)i);
		} else {
			v = NULL;
		}
	}
	return (json_t *)v;
}

const char *hj_str(const json_t *o, const char *path)
{
	return json_string_value(hj_get(o, path));
}

long long hj_int(const json_t *o, const char *path)
{
	const json_t *v = hj_get(o, path);
	return json_is_integer(v) ? (long long)json_integer_value(v) : -999999;
}

double hj_num(const json_t *o, const char *path)
{
	const json_t *v = hj_get(o, path);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

int hj_bool(const json_t *o, const char *path)
{
	const json_t *v = hj_get(o, path);
	return json_is_boolean(v) ? json_is_true(v) : -1;
}

bool hj_ok(const json_t *reply)
{
	return json_is_true(json_object_get(reply, "ok"));
}

const char *hj_err(const json_t *reply)
{
	if (!reply || hj_ok(reply))
		return NULL;
	return hj_str(reply, "error.code");
}

bool hj_has_str(const json_t *o, const char *path, const char *s)
{
	const json_t *a = hj_get(o, path);
	size_t i;
	const json_t *v;
	if (!json_is_array(a))
		return false;
	json_array_foreach(a, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), s) == 0)
			return true;
	return false;
}

const char *hj_text(const json_t *o)
{
	static char buf[1024];
	if (!o)
		return "(no message)";
	char *s = json_dumps(o, JSON_COMPACT | JSON_ENCODE_ANY);
	snprintf(buf, sizeof buf, "%s", s ? s : "?");
	free(s);
	return buf;
}

int hd_grant(const struct hd *d, const char *name, const char *role)
{
	char *argv[] = {(char *)hd_binary(), "grant", (char *)name, (char *)role, "--db",
			(char *)d->db, NULL};
	pid_t pid;
	posix_spawn_file_actions_t fa;
	if (posix_spawn_file_actions_init(&fa) != 0)
		return -1;
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0); /* "X is now td" */
	int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return -1;
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
