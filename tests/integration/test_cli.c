/* Integration tests of the command-line client `tengen` (issue 6): a real tengend started by
 * tests/support/harness (temporary database, --pwhash-cost fast), and the built `tengen` binary
 * ($TENGEN, else ./client/tengen) run as a subprocess, its standard output, standard error and
 * exit status checked. Players registered through the client use the harness's passwords
 * (NAME HARNESS_PASSWORD_SUFFIX) so that harness connections can log in as them too.
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon, which must stop
 * cleanly with a log free of sanitizer reports.
 */
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
#include "harness.h"

#define T HARNESS_TIMEOUT_MS
#define TEST_TIMEOUT_S 60      /* per test (Check's own timeout) */
#define RUN_TIMEOUT_MS 20000   /* one run of the client */
#define RUN_MAX_ARGS 40        /* arguments of one run */
#define RUN_OUTPUT_MAX (1 << 20) /* bytes kept of a run's stdout or stderr */

static struct hd D;

/* ---- running the client ---- */

struct run {
	int status;   /* exit status; -1 killed by a signal or timed out */
	char *out;    /* standard output (NUL-terminated) */
	char *err;    /* standard error */
};

static const char *cli_binary(void)
{
	const char *b = getenv("TENGEN");
	return b && *b ? b : "./client/tengen";
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A running client: its pid and the read ends of its stdout and stderr. */
struct proc {
	pid_t pid;
	int out_fd, err_fd;
	char *out, *err;
	size_t nout, nerr;
};

/* Start `tengen args...` with TENGEN_PASSWORD=password (unset if NULL) and stdin from
 * `input` (NULL: /dev/null). */
static void proc_start(struct proc *p, const char *password, const char *input,
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
static bool proc_read(struct proc *p, int timeout_ms)
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
static bool proc_wait_for(struct proc *p, const char *needle, int timeout_ms)
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
static void proc_finish(struct proc *p, struct run *r)
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

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

/* Run `tengen --server 127.0.0.1:PORT ARGS...` (NULL-terminated) to the end. */
static void run(struct run *r, const char *password, const char *input, ...)
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

static char *pw_of(const char *name)
{
	static char pw[4][64];
	static int k;
	k = (k + 1) % 4;
	snprintf(pw[k], sizeof pw[k], "%s%s", name, HARNESS_PASSWORD_SUFFIX);
	return pw[k];
}

#define EXPECT_STATUS(r, st)                                                                  \
	ck_assert_msg((r).status == (st), "exit status %d, expected %d\nstdout: %s\nstderr: %s", \
		      (r).status, (st), (r).out, (r).err)
#define EXPECT_OUT(r, s) \
	ck_assert_msg(strstr((r).out, (s)) != NULL, "stdout lacks '%s':\n%s\nstderr: %s", (s), (r).out, (r).err)
#define EXPECT_ERR(r, s) \
	ck_assert_msg(strstr((r).err, (s)) != NULL, "stderr lacks '%s':\n%s", (s), (r).err)

/* Parse each non-empty line of s as a JSON object; returns them in an array (new ref). */
static json_t *json_lines(const char *s)
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
static void cli_register(const char *name)
{
	struct run r;
	run(&r, pw_of(name), NULL, "--user", name, "register", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, name);
	run_free(&r);
}

/* `tengend grant NAME ROLE --db DB`. */
static void grant(const char *name, const char *role)
{
	ck_assert_msg(hd_grant(&D, name, role) == 0, "tengend grant %s %s failed", name, role);
}

/* ---- fixture ---- */

static void setup(void)
{
	ck_assert_msg(hd_start(&D, NULL) == 0, "tengend (%s) did not start", hd_binary());
}

static void teardown(void)
{
	int st = hd_stop(&D);
	const char *san = hd_sanitizer_report(&D);
	ck_assert_msg(st == 0, "tengend exited with status %d after SIGTERM (log: %s)", st, D.log);
	ck_assert_msg(san == NULL, "the daemon's log holds a sanitizer report (%s): %s", san, D.log);
	hd_cleanup(&D);
}

/* ---- tests ---- */

/* A port nothing listens on: bind one, close it. */
static int closed_port(void)
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

START_TEST(test_errors)
{
	struct run r;
	/* Unreachable server. */
	char server[64], expect[160];
	int port = closed_port();
	snprintf(server, sizeof server, "127.0.0.1:%d", port);
	snprintf(expect, sizeof expect,
		 "tengen: cannot reach the server at %s: connection refused (is tengend running?)",
		 server);
	const char *args[] = {"call", "ping", "--server", server, NULL};
	struct proc p;
	proc_start(&p, NULL, NULL, args);
	proc_finish(&p, &r);
	EXPECT_STATUS(r, 4);
	EXPECT_ERR(r, expect);
	ck_assert_str_eq(r.out, "");
	run_free(&r);

	/* Usage errors: exit 2. */
	run(&r, NULL, NULL, "call", NULL);
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "usage: tengen");
	run_free(&r);
	run(&r, NULL, NULL, "td", "bogus", NULL);
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "unknown command 'bogus'");
	run_free(&r);
	run(&r, NULL, NULL, "sgf", "twelve", NULL);
	EXPECT_STATUS(r, 2);
	run_free(&r);
	run(&r, "whatever-pw", NULL, "td", "create", "X", "--system", "swiss", "--time",
	    "byoyomi:60", "--user", "carol", NULL);
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "bad --time");
	run_free(&r);
	run(&r, NULL, NULL, "td", "list", NULL); /* td needs a login */
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "--user");
	run_free(&r);

	/* Wrong password. */
	cli_register("alice");
	run(&r, "not-the-password", NULL, "--user", "alice", "call", "ping", NULL);
	EXPECT_STATUS(r, 5);
	EXPECT_ERR(r, "tengen: login failed: wrong name or password");
	run_free(&r);
	/* The right one, and a registration that conflicts. */
	run(&r, pw_of("alice"), NULL, "--user", "alice", "call", "ping", NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	run(&r, pw_of("alice"), NULL, "--user", "alice", "register", NULL);
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "taken");
	run_free(&r);

	/* Not a director. */
	run(&r, pw_of("alice"), NULL, "--user", "alice", "td", "create", "Cup", "--system",
	    "swiss", NULL);
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "tengen: you are not a tournament director (ask an admin: tengend grant");
	run_free(&r);
}
END_TEST

START_TEST(test_call)
{
	struct run r;
	cli_register("alice");
	cli_register("bob");

	/* key=value: JSON values where they parse, strings otherwise. */
	run(&r, NULL, NULL, "call", "hello", "protocol=1", "client=tengen-test", NULL);
	EXPECT_STATUS(r, 0);
	json_t *lines = json_lines(r.out);
	ck_assert_int_eq(json_array_size(lines), 1);
	json_t *rep = json_array_get(lines, 0);
	ck_assert_msg(hj_ok(rep), "hello: %s", hj_text(rep));
	ck_assert_int_eq(hj_int(rep, "protocol"), 1);
	json_decref(lines);
	run_free(&r);

	/* A login and a challenge with a time object and a number. */
	run(&r, pw_of("alice"), NULL, "call", "challenge", "opponent=bob", "size=9", "komi=6.5",
	    "color=black", "time={\"system\":\"absolute\",\"main_s\":600}", "--user", "alice",
	    NULL);
	EXPECT_STATUS(r, 0);
	lines = json_lines(r.out);
	ck_assert_int_eq(json_array_size(lines), 1);
	long long game = hj_int(json_array_get(lines, 0), "game");
	ck_assert_int_gt(game, 0);
	json_decref(lines);
	run_free(&r);
	struct hc *c = hc_open(D.port);
	ck_assert(c);
	json_t *g = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)game);
	ck_assert_msg(hj_ok(g), "%s", hj_text(g));
	ck_assert_int_eq(hj_int(g, "game.size"), 9);
	ck_assert(hj_num(g, "game.komi") == 6.5);
	ck_assert_str_eq(hj_str(g, "game.time.system"), "absolute");
	json_decref(g);
	hc_close(c);

	/* An error reply: printed, exit 3. */
	run(&r, NULL, NULL, "call", "game", "game=999", NULL);
	EXPECT_STATUS(r, 3);
	lines = json_lines(r.out);
	ck_assert_str_eq(hj_err(json_array_get(lines, 0)), "not_found");
	json_decref(lines);
	run_free(&r);
	/* Needs a login. */
	run(&r, NULL, NULL, "call", "resign", "game=1", NULL);
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "log in");
	run_free(&r);

	/* call -: one request per line, the user's ids echoed, comments and blank lines skipped. */
	run(&r, NULL, "{\"cmd\":\"ping\",\"id\":\"first\"}\n\n# a comment\n"
		      "{\"cmd\":\"game\",\"game\":" "1" ",\"id\":7}\n{\"cmd\":\"games\"}\n",
	    "call", "-", NULL);
	EXPECT_STATUS(r, 0);
	lines = json_lines(r.out);
	ck_assert_int_eq(json_array_size(lines), 3);
	ck_assert_str_eq(hj_str(json_array_get(lines, 0), "id"), "first");
	ck_assert(hj_ok(json_array_get(lines, 0)));
	ck_assert_int_eq(hj_int(json_array_get(lines, 1), "id"), 7);
	ck_assert_str_eq(hj_str(json_array_get(lines, 1), "game.black"), "alice");
	ck_assert(json_is_array(hj_get(json_array_get(lines, 2), "games")));
	json_decref(lines);
	run_free(&r);
	/* An error among them: all answered, exit 3. */
	run(&r, NULL, "{\"cmd\":\"ping\"}\n{\"cmd\":\"nope\"}\nnot json\n{\"cmd\":\"ping\"}\n",
	    "call", "-", NULL);
	EXPECT_STATUS(r, 3);
	lines = json_lines(r.out);
	ck_assert_int_eq(json_array_size(lines), 3);
	ck_assert_str_eq(hj_err(json_array_get(lines, 1)), "unknown_command");
	ck_assert(hj_ok(json_array_get(lines, 2)));
	EXPECT_ERR(r, "line 3: not a JSON object");
	json_decref(lines);
	run_free(&r);
}
END_TEST

/* test_tournament, step 1: `td create` with every setting; returns the tournament's id,
 * after checking that the settings arrived as given. */
static long long tour_create(const char *td)
{
	struct run r;
	run(&r, td, NULL, "--user", "carol", "td", "create", "Spring Cup", "--system", "swiss",
	    "--rounds", "3", "--size", "9", "--komi", "7.5", "--time", "byoyomi:60/3x10",
	    "--lateness", "300", "--tiebreaks", "SOS,SOSOS", "--rated", "no", "--bye", "1", NULL);
	EXPECT_STATUS(r, 0);
	long long t = atoll(r.out);
	ck_assert_msg(t > 0, "td create printed '%s'", r.out);
	run_free(&r);

	/* The settings arrived as given. */
	struct hc *c = hc_open(D.port);
	ck_assert(c);
	json_t *g = hc_req(c, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t);
	ck_assert_msg(hj_ok(g), "%s", hj_text(g));
	ck_assert_int_eq(hj_int(g, "tournament.settings.rounds"), 3);
	ck_assert_int_eq(hj_int(g, "tournament.settings.size"), 9);
	ck_assert_int_eq(hj_int(g, "tournament.settings.lateness_limit_s"), 300);
	ck_assert_int_eq(hj_int(g, "tournament.settings.time.periods"), 3);
	ck_assert(hj_num(g, "tournament.settings.time.period_s") == 10);
	ck_assert(hj_num(g, "tournament.settings.time.main_s") == 60);
	ck_assert_int_eq(hj_bool(g, "tournament.settings.rated"), 0);
	ck_assert_int_eq(hj_int(g, "tournament.settings.bye"), 1);
	ck_assert(hj_has_str(g, "tournament.settings.tiebreaks", "SOSOS"));
	json_decref(g);
	hc_close(c);
	return t;
}

/* test_tournament, step 2: register alice and bob, start round 1; returns the id of its
 * one game (scheduled, as `games` shows it, as a table and as JSON). */
static long long tour_start(const char *td, const char *ts)
{
	struct run r;
	run(&r, td, NULL, "--user", "carol", "td", "register", ts, "alice", "bob", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "registered alice");
	EXPECT_OUT(r, "registered bob");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "register", ts, "nobody", NULL);
	EXPECT_STATUS(r, 3);
	run_free(&r);

	run(&r, td, NULL, "--user", "carol", "td", "start", ts, "--in", "600", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "round 1");
	EXPECT_OUT(r, "alice");
	EXPECT_OUT(r, "bob");
	run_free(&r);

	/* games: the scheduled game, as a table and as JSON. */
	run(&r, NULL, NULL, "games", "--tournament", ts, NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "alice");
	EXPECT_OUT(r, "scheduled");
	run_free(&r);
	run(&r, NULL, NULL, "games", "--tournament", ts, "--json", NULL);
	EXPECT_STATUS(r, 0);
	json_t *lines = json_lines(r.out);
	ck_assert_int_eq(json_array_size(lines), 1);
	json_t *games = hj_get(json_array_get(lines, 0), "games");
	ck_assert_int_eq(json_array_size(games), 1);
	long long game = hj_int(json_array_get(games, 0), "id");
	ck_assert_int_gt(game, 0);
	json_decref(lines);
	run_free(&r);
	return game;
}

/* test_tournament, step 3b: td result as typed (the server reads it), --double-loss, and a
 * round's results from stdin and from a file: a line per reply, status 1 if any was refused,
 * a malformed file refused before anything is sent. Leaves the game at B+R. */
static void tour_results_file(const char *td, const char *gs)
{
	struct run r;
	run(&r, td, NULL, "--user", "carol", "td", "result", gs, "w+3.5", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "result W+3.5");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "result", gs, "--double-loss", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "result Void");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "result", gs, "B+R", "--double-loss", NULL);
	EXPECT_STATUS(r, 2);
	run_free(&r);

	char in[256], want[128];
	snprintf(in, sizeof in, "# round 1\n\n%s b+r\n  %s jigo   # agreed\n999999 W+R\n%s x+1\n",
		 gs, gs, gs);
	run(&r, td, in, "--user", "carol", "td", "results", "-", NULL);
	EXPECT_STATUS(r, 3);
	snprintf(want, sizeof want, "line 3: game %s: result B+R", gs);
	EXPECT_OUT(r, want);
	snprintf(want, sizeof want, "line 4: game %s: result 0", gs);
	EXPECT_OUT(r, want);
	EXPECT_ERR(r, "line 5: game 999999: no game 999999 (not_found)");
	snprintf(want, sizeof want, "line 6: game %s: field 'result': 'x+1' is not a result", gs);
	EXPECT_ERR(r, want);
	run_free(&r);

	char file[HARNESS_PATH_MAX];
	snprintf(file, sizeof file, "%s/results.txt", D.dir);
	FILE *f = fopen(file, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s W+R extra\n", gs); /* malformed: nothing is sent */
	fclose(f);
	run(&r, td, NULL, "--user", "carol", "td", "results", file, NULL);
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "line 1: give GAME RESULT");
	run_free(&r);
	char arg[64];
	snprintf(arg, sizeof arg, "game=%s", gs);
	run(&r, NULL, NULL, "call", "game", arg, NULL);
	EXPECT_STATUS(r, 0);
	json_t *lines = json_lines(r.out);
	ck_assert_pstr_eq(hj_str(json_array_get(lines, 0), "game.result"), "0");
	json_decref(lines);
	run_free(&r);
	f = fopen(file, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s double_loss\n%s B+R\n", gs, gs);
	fclose(f);
	run(&r, td, NULL, "--user", "carol", "td", "results", file, NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "line 1: game");
	EXPECT_OUT(r, "result Void");
	EXPECT_OUT(r, "line 2: game");
	EXPECT_OUT(r, "result B+R");
	run_free(&r);
	unlink(file);
}

/* test_tournament, step 3: the pairings, the game's SGF, a director's result and the
 * standings. */
static void tour_result(const char *td, const char *ts, const char *gs)
{
	struct run r;
	run(&r, NULL, NULL, "pairings", ts, "1", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, gs);
	EXPECT_OUT(r, "alice");
	run_free(&r);

	run(&r, NULL, NULL, "sgf", gs, NULL);
	EXPECT_STATUS(r, 0);
	ck_assert_msg(strncmp(r.out, "(;", 2) == 0, "sgf printed %s", r.out);
	EXPECT_OUT(r, "SZ[9]");
	run_free(&r);

	/* A director's result, then the standings. */
	run(&r, td, NULL, "--user", "carol", "td", "result", gs, "B+R", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "B+R");
	run_free(&r);
	tour_results_file(td, gs);
	run(&r, NULL, NULL, "standings", ts, NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "alice");
	EXPECT_OUT(r, "bob");
	EXPECT_OUT(r, "SOSOS");
	run_free(&r);
	run(&r, NULL, NULL, "standings", ts, "--round", "1", "--json", NULL);
	EXPECT_STATUS(r, 0);
	json_t *lines = json_lines(r.out);
	json_t *st = json_array_get(lines, 0);
	ck_assert(hj_ok(st));
	ck_assert_int_eq(json_array_size(hj_get(st, "standings")), 2);
	ck_assert_int_eq(hj_int(st, "standings.0.rank"), 1);
	json_decref(lines);
	run_free(&r);
}

/* test_tournament, step 4: export, list, show, withdraw. */
static void tour_export(const char *td, const char *ts)
{
	struct run r;
	/* Export, list, show. */
	char out_file[HARNESS_PATH_MAX];
	snprintf(out_file, sizeof out_file, "%s/export.csv", D.dir);
	run(&r, td, NULL, "--user", "carol", "td", "export", ts, "--format", "csv", "-o", out_file,
	    NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	FILE *f = fopen(out_file, "r");
	ck_assert_msg(f != NULL, "no %s", out_file);
	char buf[4096] = "";
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(out_file);
	ck_assert_msg(strstr(buf, "alice") && strstr(buf, "bob"), "export: %s", buf);
	run(&r, td, NULL, "--user", "carol", "td", "list", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Spring Cup");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "show", ts, NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Spring Cup");
	EXPECT_OUT(r, "alice");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "withdraw", ts, "bob", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "withdrew bob");
	run_free(&r);
}

START_TEST(test_tournament)
{
	struct run r;
	cli_register("alice");
	cli_register("bob");
	cli_register("carol");
	/* A declared rank. */
	run(&r, pw_of("dave"), NULL, "register", "--user", "dave", "--rank", "3k", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "3k");
	run_free(&r);
	grant("carol", "td");
	const char *td = pw_of("carol");

	long long t = tour_create(td);
	char ts[32];
	snprintf(ts, sizeof ts, "%lld", t);
	long long game = tour_start(td, ts);
	char gs[32];
	snprintf(gs, sizeof gs, "%lld", game);
	tour_result(td, ts, gs);
	tour_export(td, ts);
}
END_TEST

/* games pages: --limit and --before, the next page's --before printed while games are left
 * (and in --json, the reply's `next`). */
START_TEST(test_games_pages)
{
	struct hc *a = hc_login_new(D.port, "alice");
	struct hc *b = hc_login_new(D.port, "bob");
	ck_assert(a && b);
	long long g[3];
	for (int i = 0; i < 3; i++) {
		json_t *rep = hc_req(a, "{s:s, s:s, s:i}", "cmd", "challenge", "opponent", "bob",
				     "size", 9 + 2 * i);
		ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
		g[i] = hj_int(rep, "game");
		json_decref(rep);
	}
	char g1[32], next[64];
	snprintf(g1, sizeof g1, "%lld", g[1]);
	snprintf(next, sizeof next, "Next page: --before %lld\n", g[1]);
	struct run r;
	run(&r, NULL, NULL, "games", "--limit", "2", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "   13 "); /* g[2]'s size */
	EXPECT_OUT(r, "   11 ");
	EXPECT_OUT(r, next);
	ck_assert_msg(!strstr(r.out, "    9 "), "the first page has the oldest game:\n%s", r.out);
	run_free(&r);
	run(&r, NULL, NULL, "games", "--limit", "2", "--before", g1, NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "    9 ");
	ck_assert_msg(!strstr(r.out, "   11 ") && !strstr(r.out, "Next page"),
		      "the last page:\n%s", r.out);
	run_free(&r);
	run(&r, NULL, NULL, "games", "--limit", "2", "--json", NULL);
	EXPECT_STATUS(r, 0);
	json_t *lines = json_lines(r.out);
	ck_assert_int_eq(json_array_size(hj_get(json_array_get(lines, 0), "games")), 2);
	ck_assert_int_eq(hj_int(json_array_get(lines, 0), "next"), g[1]);
	json_decref(lines);
	run_free(&r);
	run(&r, NULL, NULL, "games", "--before", "0", NULL);
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "--before");
	run_free(&r);
	hc_close(a);
	hc_close(b);
}
END_TEST

START_TEST(test_watch)
{
	struct hc *a = hc_login_new(D.port, "alice");
	struct hc *b = hc_login_new(D.port, "bob");
	ck_assert(a && b);
	json_t *rep = hc_req(a, "{s:s, s:s, s:i, s:s}", "cmd", "challenge", "opponent", "bob",
			     "size", 9, "color", "black");
	ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
	long long game = hj_int(rep, "game");
	json_decref(rep);
	rep = hc_req(b, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)game);
	ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
	json_decref(rep);

	char server[64], gs[32];
	snprintf(server, sizeof server, "127.0.0.1:%d", D.port);
	snprintf(gs, sizeof gs, "%lld", game);
	const char *args[] = {"watch", gs, "--server", server, NULL};
	struct proc p;
	proc_start(&p, NULL, NULL, args);
	ck_assert_msg(proc_wait_for(&p, "to move", T), "watch printed no board: %s / %s", p.out,
		      p.err);

	/* stones, a capture (White E5 is taken by D5 F5 E4 E6), two passes, the claims */
	const char *moves[] = {"D5", "E5", "F5", "A1", "E4", "A2", "E6", "pass", "pass"};
	for (int k = 0; k < 9; k++) {
		rep = hc_req(k % 2 ? b : a, "{s:s, s:I, s:s}", "cmd", "play", "game",
			     (json_int_t)game, "vertex", moves[k]);
		ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
		json_decref(rep);
		char want[32];
		snprintf(want, sizeof want, "Move %d:", k + 1);
		ck_assert_msg(proc_wait_for(&p, want, T), "watch did not show %s: %s", want, p.out);
	}
	ck_assert_msg(proc_wait_for(&p, "Both passed", T), "no counting: %s", p.out);
	rep = hc_req(a, "{s:s, s:I, s:[s]}", "cmd", "dead", "game", (json_int_t)game, "stones", "A1");
	ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
	json_decref(rep);
	ck_assert_msg(proc_wait_for(&p, "Black claims dead: A1 A2", T), "no claim: %s", p.out);
	rep = hc_req(b, "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)game);
	ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
	json_decref(rep);
	struct run r;
	proc_finish(&p, &r);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Watching game");
	EXPECT_OUT(r, "Move 1: Black D5");
	EXPECT_OUT(r, "Move 7: Black E6, captures 1: E5");
	/* the board after move 7: E6 marked as the last move, E5 empty again */
	EXPECT_OUT(r, "  6 . . . .(X). . . . 6");
	EXPECT_OUT(r, "  5 . . . X . X . . . 5");
	EXPECT_OUT(r, "Captures: Black 1, White 0");
	EXPECT_OUT(r, "Black (X) alice:");
	EXPECT_OUT(r, "White (O) bob:");
	/* the second pass comes before the counting it opens */
	const char *pass = strstr(r.out, "Move 9: Black pass");
	const char *counting = strstr(r.out, "Both passed");
	ck_assert_msg(pass && counting && pass < counting, "order:\n%s", r.out);
	EXPECT_OUT(r, "Result: B+R (resignation)");
	run_free(&r);

	/* Watching an ended game prints its final board and result; --json its game object. */
	run(&r, NULL, NULL, "watch", gs, NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "is over");
	EXPECT_OUT(r, "  5 . . . X . X . . . 5");
	EXPECT_OUT(r, "Result: B+R");
	run_free(&r);
	run(&r, NULL, NULL, "watch", gs, "--json", NULL);
	EXPECT_STATUS(r, 0);
	json_t *lines = json_lines(r.out);
	ck_assert_int_eq(json_array_size(lines), 1);
	ck_assert_str_eq(hj_str(json_array_get(lines, 0), "game.phase"), "ended");
	ck_assert_str_eq(hj_str(json_array_get(lines, 0), "game.result"), "B+R");
	json_decref(lines);
	ck_assert_str_eq(r.err, "");
	run_free(&r);
	hc_close(a);
	hc_close(b);
}
END_TEST

/* watch reconnects when the server restarts, and reads the game again. */
START_TEST(test_watch_reconnect)
{
	/* a daemon of its own, on a port that stays the same across the restart */
	struct hd d;
	char listen[32];
	snprintf(listen, sizeof listen, "127.0.0.1:%d", closed_port());
	const char *extra[] = {"--listen", listen, NULL};
	ck_assert_int_eq(hd_start(&d, extra), 0);
	struct hc *a = hc_login_new(d.port, "alice");
	struct hc *b = hc_login_new(d.port, "bob");
	ck_assert(a && b);
	json_t *rep = hc_req(a, "{s:s, s:s, s:i, s:s}", "cmd", "challenge", "opponent", "bob",
			     "size", 9, "color", "black");
	long long game = hj_int(rep, "game");
	json_decref(rep);
	json_decref(hc_req(b, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)game));
	hc_close(a);
	hc_close(b);
	char gs[32];
	snprintf(gs, sizeof gs, "%lld", game);
	const char *args[] = {"watch", gs, "--server", listen, NULL};
	struct proc p;
	proc_start(&p, NULL, NULL, args);
	ck_assert_msg(proc_wait_for(&p, "to move", T), "no board: %s / %s", p.out, p.err);
	ck_assert_int_eq(hd_kill(&d), 0);
	ck_assert_int_eq(hd_restart(&d), 0);
	ck_assert_msg(proc_wait_for(&p, "Reconnected", 3 * T), "no reconnection: %s / %s", p.out,
		      p.err);
	a = hc_login_new(d.port, "alice");
	ck_assert(a);
	rep = hc_req(a, "{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)game, "vertex", "C3");
	ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
	json_decref(rep);
	ck_assert_msg(proc_wait_for(&p, "Move 1: Black C3", T), "no move after it: %s", p.out);
	json_decref(hc_req(a, "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)game));
	hc_close(a);
	struct run r;
	proc_finish(&p, &r);
	EXPECT_STATUS(r, 0);
	EXPECT_ERR(r, "reconnecting");
	EXPECT_OUT(r, "Result: W+R");
	run_free(&r);
	ck_assert_int_eq(hd_stop(&d), 0);
	hd_cleanup(&d);
}
END_TEST

/* A reply longer than the 64 KiB a request line may hold comes out whole: the client reads
 * the server's lines up to FRAMING_MAX_SEND_LINE. 420 declined challenges make 420 game rows,
 * about 180 bytes each in a `games` reply. */
#define LONG_GAMES 420
START_TEST(test_long_reply)
{
	struct hc *a = hc_login_new(D.port, "alice");
	struct hc *b = hc_login_new(D.port, "bob");
	ck_assert(a && b);
	hc_close(b); /* bob need not be online to be challenged */
	for (int i = 0; i < LONG_GAMES; i++) {
		json_t *rep = hc_req(a, "{s:s, s:s, s:i}", "cmd", "challenge", "opponent", "bob",
				     "size", 19);
		ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
		long long g = hj_int(rep, "game");
		json_decref(rep);
		rep = hc_req(a, "{s:s, s:I}", "cmd", "decline", "game", (json_int_t)g);
		ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
		json_decref(rep);
		hc_clear(a);
	}
	struct run r;
	run(&r, NULL, NULL, "call", "games", "limit=500", NULL);
	EXPECT_STATUS(r, 0);
	ck_assert_msg(strlen(r.out) > 65536, "the reply is only %zu bytes", strlen(r.out));
	json_t *lines = json_lines(r.out);
	ck_assert_int_eq(json_array_size(lines), 1);
	ck_assert_int_eq(json_array_size(hj_get(json_array_get(lines, 0), "games")), LONG_GAMES);
	json_decref(lines);
	run_free(&r);
	run(&r, NULL, NULL, "games", "--limit", "500", NULL);
	EXPECT_STATUS(r, 0);
	int rows = 0;
	for (const char *p = r.out; (p = strchr(p, '\n')) != NULL; p++)
		rows++;
	ck_assert_int_eq(rows, LONG_GAMES + 1); /* the header, a row per game */
	run_free(&r);
	hc_close(a);
}
END_TEST

/* Run `tengen ARGS...` as NAME (--user NAME, its password), with --server. */
#define AS(r, name, ...) run((r), pw_of(name), NULL, "--user", (name), __VA_ARGS__, NULL)

/* The playing commands, a whole game from challenge to count (issue 19). */
START_TEST(test_play_commands)
{
	struct run r;
	cli_register("alice");
	cli_register("bob");
	/* challenge: a line a person reads, the game's id in it */
	AS(&r, "alice", "challenge", "bob", "--size", "5", "--komi", "0.5", "--color", "black",
	   "--rated", "no");
	EXPECT_STATUS(r, 0);
	long long g = 0;
	ck_assert_msg(sscanf(strstr(r.out, "game ") ? strstr(r.out, "game ") : "", "game %lld", &g) == 1,
		      "no game id: %s", r.out);
	EXPECT_OUT(r, "Challenged bob: game");
	EXPECT_OUT(r, "5x5, komi 0.5, no clocks, unrated, you play Black");
	run_free(&r);
	char gs[32];
	snprintf(gs, sizeof gs, "%lld", g);
	/* games --mine: bob sees the challenge waiting */
	AS(&r, "bob", "games", "--mine", "--phase", "pending");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "alice");
	EXPECT_OUT(r, "pending");
	run_free(&r);
	run(&r, NULL, NULL, "games", "--mine", NULL); /* --mine needs a user */
	EXPECT_STATUS(r, 2);
	run_free(&r);
	/* bad options are usage errors, before anything is sent */
	AS(&r, "alice", "challenge", "bob", "--size", "nine");
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "--size must be a whole number");
	run_free(&r);
	AS(&r, "alice", "challenge", "bob", "--time", "byoyomi:60");
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "bad --time");
	run_free(&r);
	/* the server's refusal: once, on stderr, status 3 */
	AS(&r, "alice", "challenge", "nobody");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "no player named 'nobody' (not_found)");
	ck_assert_str_eq(r.out, "");
	run_free(&r);
	AS(&r, "alice", "accept", gs);
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "only the challenged player may accept");
	run_free(&r);
	AS(&r, "bob", "accept", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "you play White");
	run_free(&r);

	/* play: numbered from the game; run again, it is refused here, not warned */
	AS(&r, "alice", "play", gs, "C3");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "move 1: Black C3");
	run_free(&r);
	AS(&r, "alice", "play", gs, "C3");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "it is not your turn in game");
	ck_assert_str_eq(r.out, "");
	run_free(&r);
	struct hc *c = hc_open(D.port);
	ck_assert(c);
	json_t *gj = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	ck_assert_int_eq(hj_int(gj, "game.warnings.B"), 0);
	ck_assert_int_eq(json_array_size(hj_get(gj, "game.moves")), 1);
	json_decref(gj);
	/* --number pins the move's number */
	AS(&r, "bob", "play", gs, "D4", "--number", "3");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "the next move is number 2, not 3");
	run_free(&r);
	/* an illegal move: the server's reason on stderr (the turn is forfeited) */
	AS(&r, "bob", "play", gs, "C3");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "occupied at C3");
	EXPECT_ERR(r, "(illegal_move)");
	run_free(&r);
	AS(&r, "alice", "play", gs, "Z9");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "bad_request");
	run_free(&r);
	AS(&r, "alice", "play", gs, "B2", "--json");
	EXPECT_STATUS(r, 0);
	json_t *lines = json_lines(r.out);
	ck_assert_int_eq(json_array_size(lines), 1);
	ck_assert_str_eq(hj_str(json_array_get(lines, 0), "move.vertex"), "B2");
	ck_assert_int_eq(hj_int(json_array_get(lines, 0), "move.number"), 3);
	json_decref(lines);
	run_free(&r);
	/* two passes open counting, and the second says so */
	AS(&r, "bob", "pass", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "move 4: White passes");
	EXPECT_OUT(r, "goes on: Black to move");
	run_free(&r);
	AS(&r, "alice", "pass", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "move 5: Black passes");
	EXPECT_OUT(r, "is counting");
	run_free(&r);
	AS(&r, "alice", "play", gs, "D4");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "is counting, not playing");
	run_free(&r);
	/* different claims resume play; equal ones end the game counted */
	AS(&r, "alice", "dead", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "every stone alive. Waiting for the opponent's claim");
	run_free(&r);
	AS(&r, "bob", "dead", gs, "C3");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "The claims differ");
	EXPECT_OUT(r, "to move");
	run_free(&r);
	AS(&r, "alice", "dead", gs, "D4");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "playing, not counting");
	run_free(&r);
	/* two more passes (whoever is to move), then equal claims */
	for (int k = 0; k < 2; k++) {
		gj = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
		const char *tm = hj_str(gj, "game.to_move");
		AS(&r, strcmp(tm, "B") == 0 ? "alice" : "bob", "pass", gs);
		json_decref(gj);
		EXPECT_STATUS(r, 0);
		run_free(&r);
	}
	AS(&r, "alice", "dead", gs, "");
	EXPECT_STATUS(r, 0);
	run_free(&r);
	AS(&r, "bob", "dead", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "The claims agree");
	EXPECT_OUT(r, "is over. Result: B+24.5 (score)"); /* 25 points, komi 0.5 */
	run_free(&r);
	AS(&r, "bob", "resign", gs);
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "is over");
	run_free(&r);

	/* resign and decline on fresh challenges; TENGEN_SERVER instead of --server */
	char server[64];
	snprintf(server, sizeof server, "127.0.0.1:%d", D.port);
	setenv("TENGEN_SERVER", server, 1);
	const char *ch[] = {"--user", "bob", "challenge", "alice", "--size", "9", NULL};
	struct proc p;
	proc_start(&p, pw_of("bob"), NULL, ch);
	proc_finish(&p, &r);
	EXPECT_STATUS(r, 0);
	long long g2 = 0;
	ck_assert(sscanf(strstr(r.out, "game "), "game %lld", &g2) == 1);
	run_free(&r);
	snprintf(gs, sizeof gs, "%lld", g2);
	const char *dec[] = {"--user", "alice", "decline", gs, NULL};
	proc_start(&p, pw_of("alice"), NULL, dec);
	proc_finish(&p, &r);
	unsetenv("TENGEN_SERVER");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Called off game");
	run_free(&r);
	AS(&r, "bob", "challenge", "alice", "--size", "9", "--color", "white");
	EXPECT_STATUS(r, 0);
	ck_assert(sscanf(strstr(r.out, "game "), "game %lld", &g2) == 1);
	run_free(&r);
	snprintf(gs, sizeof gs, "%lld", g2);
	AS(&r, "alice", "accept", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "you play Black");
	run_free(&r);
	AS(&r, "bob", "resign", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "B+R");
	run_free(&r);

	/* players: the leaderboard, no login needed */
	run(&r, NULL, NULL, "players", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Player");
	EXPECT_OUT(r, "alice");
	EXPECT_OUT(r, "bob");
	run_free(&r);
	/* a wrong password: status 5; no server: status 4 */
	run(&r, "wrong-password", NULL, "--user", "alice", "resign", gs, NULL);
	EXPECT_STATUS(r, 5);
	run_free(&r);
	hc_close(c);
}
END_TEST

/* A dispute that play does not settle: the third count with the same two claims ends the
 * game, counted with only the stones both hold dead (docs/rules.md, Art. 8 and 21.4). */
START_TEST(test_dispute_settled)
{
	struct run r;
	cli_register("alice");
	cli_register("bob");
	AS(&r, "alice", "challenge", "bob", "--size", "5", "--komi", "0.5", "--color", "black",
	   "--rated", "no");
	EXPECT_STATUS(r, 0);
	long long g = 0;
	ck_assert(sscanf(strstr(r.out, "game "), "game %lld", &g) == 1);
	run_free(&r);
	char gs[32];
	snprintf(gs, sizeof gs, "%lld", g);
	AS(&r, "bob", "accept", gs);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	AS(&r, "alice", "play", gs, "C3");
	EXPECT_STATUS(r, 0);
	run_free(&r);
	struct hc *c = hc_open(D.port);
	ck_assert(c);
	for (int k = 1; k <= 3; k++) {
		/* two passes, whoever is to move first */
		for (int n = 0; n < 2; n++) {
			json_t *gj = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
			const char *who = strcmp(hj_str(gj, "game.to_move"), "B") == 0 ? "alice" : "bob";
			AS(&r, who, "pass", gs);
			json_decref(gj);
			EXPECT_STATUS(r, 0);
			run_free(&r);
		}
		AS(&r, "alice", "dead", gs);
		EXPECT_STATUS(r, 0);
		run_free(&r);
		AS(&r, "bob", "dead", gs, "C3"); /* and never captures it */
		EXPECT_STATUS(r, 0);
		EXPECT_OUT(r, k < 3 ? "The claims differ" : "is over. Result: B+24.5 (score)");
		run_free(&r);
	}
	json_t *gj = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	ck_assert_str_eq(hj_str(gj, "game.phase"), "ended");
	ck_assert_int_eq(json_array_size(hj_get(gj, "game.dead")), 0); /* C3 counted alive */
	json_decref(gj);
	hc_close(c);
}
END_TEST

static Suite *cli_suite(void)
{
	Suite *s = suite_create("tengen-cli");
	TCase *tc = tcase_create("cli");
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_call);
	tcase_add_test(tc, test_tournament);
	tcase_add_test(tc, test_watch);
	tcase_add_test(tc, test_watch_reconnect);
	tcase_add_test(tc, test_games_pages);
	tcase_add_test(tc, test_long_reply);
	tcase_add_test(tc, test_play_commands);
	tcase_add_test(tc, test_dispute_settled);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cli_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
