/* Integration test: two GNU Go engines finish a game with free handicap placement (issue 19;
 * GTP 2 §6.3.3) through `tengen gtp` against the real tengend: Black's bridge asks its engine
 * `place_free_handicap 3` and sends the stones (`handicap`), White's tells its engine
 * `set_free_handicap` with them, White moves first, the game ends normally, and GNU Go loads
 * the record (`loadsgf`) with the stones where they were placed. Skipped (77) without GNU Go. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "harness.h"

#ifndef GNUGO_PATH
#define GNUGO_PATH ""
#endif

#define GAME_WAIT_MS 60000 /* the longest wait for the game to end */
#define GNUGO "/usr/games/gnugo"
#define POLL_MS 200

static pid_t pids[2];
static char logs[2][HARNESS_PATH_MAX], gtplogs[2][HARNESS_PATH_MAX];

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

static void kill_bridges(void)
{
	for (int i = 0; i < 2; i++)
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
			pids[i] = 0;
		}
}

/* `tengen gtp` for user (harness password) with GNU Go at level 1; stderr to logs[i], the GTP
 * traffic to gtplogs[i]. */
static void start_bridge(int i, const struct hd *d, const char *user)
{
	snprintf(logs[i], sizeof logs[i], "%s/bridge-%s.log", d->dir, user);
	snprintf(gtplogs[i], sizeof gtplogs[i], "%s/gtp-%s.log", d->dir, user);
	char server[64], password[128];
	snprintf(server, sizeof server, "127.0.0.1:%d", d->port);
	snprintf(password, sizeof password, "%s%s", user, HARNESS_PASSWORD_SUFFIX);
	const char *tengen = getenv("TENGEN") ? getenv("TENGEN") : "./client/tengen";
	const char *argv[] = {tengen, "gtp", "--server", server, "--user", user, "--gtp-log", gtplogs[i], "--", GNUGO_PATH,
			      "--mode", "gtp", "--level", "1", "--capture-all-dead",
			      NULL}; /* no --chinese-rules: docs/rules.md, Art. 11 */
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int log = open(logs[i], O_WRONLY | O_CREAT | O_APPEND, 0644);
		int null = open("/dev/null", O_RDONLY);
		if (log < 0 || null < 0)
			_exit(127);
		dup2(null, 0);
		dup2(log, 1);
		dup2(log, 2);
		setenv("TENGEN_PASSWORD", password, 1);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	pids[i] = pid;
}

static bool file_has(const char *path, const char *needle)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[1024];
	bool found = false;
	while (!found && fgets(line, sizeof line, f))
		found = strstr(line, needle) != NULL;
	fclose(f);
	return found;
}

static void print_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[1024];
	fprintf(stderr, "---- %s\n", path);
	while (fgets(line, sizeof line, f))
		fputs(line, stderr);
	fclose(f);
}

static json_t *get_game(int port, long long id)
{
	struct hc *c = hc_open(port);
	if (!c)
		return NULL;
	json_t *r = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)id);
	hc_close(c);
	json_t *g = r && hj_ok(r) ? json_incref(hj_get(r, "game")) : NULL;
	json_decref(r);
	return g;
}


START_TEST(two_gnugo_free_handicap)
{
	struct hd d;
	ck_assert_int_eq(hd_start(&d, NULL), 0);
	struct hc *a = hc_login_new(d.port, "gnuA"), *b = hc_login_new(d.port, "gnuB");
	ck_assert(a && b);
	start_bridge(0, &d, "gnuA");
	start_bridge(1, &d, "gnuB");
	for (long long end = now_ms() + 20000; now_ms() < end; sleep_ms(POLL_MS))
		if (file_has(logs[0], "logged in") && file_has(logs[1], "logged in"))
			break;
	/* gnuB's own session challenges gnuA (Black for the challenger): gnuA's bridge accepts */
	json_t *r = hc_req(b, "{s:s, s:s, s:i, s:i, s:s, s:f, s:s, s:b}", "cmd", "challenge",
			   "opponent", "gnuA", "size", 9, "handicap", 3, "handicap_placement", "free",
			   "komi", 0.5, "color", "black", "rated", 0);
	ck_assert_msg(hj_ok(r), "challenge: %s", hj_text(r));
	long long gid = hj_int(r, "game");
	json_decref(r);
	hc_close(a);
	json_t *g = NULL;
	for (long long end = now_ms() + GAME_WAIT_MS; now_ms() < end; sleep_ms(POLL_MS)) {
		json_decref(g);
		g = get_game(d.port, gid);
		if (g && hj_str(g, "phase") && strcmp(hj_str(g, "phase"), "ended") == 0)
			break;
	}
	if (!g || strcmp(hj_str(g, "phase"), "ended") != 0) {
		print_file(logs[0]);
		print_file(logs[1]);
		print_file(gtplogs[1]);
		print_file(d.log);
		ck_abort_msg("the game did not end: %s", g ? hj_text(g) : "(no game)");
	}
	const char *reason = hj_str(g, "reason");
	ck_assert_msg(strcmp(reason, "score") == 0 || strcmp(reason, "resignation") == 0,
		      "ended by %s: %s", reason, hj_text(g));
	ck_assert_str_eq(hj_str(g, "black"), "gnuB");
	ck_assert_str_eq(hj_str(g, "handicap_placement"), "free");
	json_t *stones = hj_get(g, "handicap_stones");
	ck_assert_msg(json_array_size(stones) == 3, "stones: %s", hj_text(g));
	json_t *moves = hj_get(g, "moves");
	ck_assert_msg(json_array_size(moves) > 10, "moves: %s", hj_text(moves));
	ck_assert_str_eq(hj_str(json_array_get(moves, 0), "color"), "W");
	/* Black's engine chose them; White's was told them, in that order. */
	char line[128] = "> set_free_handicap";
	size_t len = strlen(line);
	for (size_t k = 0; k < 3; k++)
		len += (size_t)snprintf(line + len, sizeof line - len, " %s",
					json_string_value(json_array_get(stones, k)));
	ck_assert_msg(file_has(gtplogs[1], "> place_free_handicap 3"), "gnuB's engine was not asked");
	ck_assert_msg(!file_has(gtplogs[1], "> set_free_handicap"), "gnuB's engine was told its own");
	if (!file_has(gtplogs[0], line)) {
		print_file(gtplogs[0]);
		ck_abort_msg("gnuA's engine was not told '%s'", line + 2);
	}
	ck_assert_msg(!file_has(logs[1], "stale genmove") && !file_has(logs[0], "restarting"),
		      "an engine was restarted");

	/* The record: GNU Go loads it, the stones Black's (HA[3], AB). */
	r = hc_req(b, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)gid);
	ck_assert_msg(hj_ok(r), "sgf: %s", hj_text(r));
	char path[HARNESS_PATH_MAX + 16];
	snprintf(path, sizeof path, "%s/free.sgf", d.dir);
	FILE *f = fopen(path, "w");
	ck_assert(f != NULL);
	fputs(hj_str(r, "sgf"), f);
	fclose(f);
	ck_assert_msg(strstr(hj_str(r, "sgf"), "HA[3]") != NULL, "%s", hj_str(r, "sgf"));
	json_decref(r);
	hc_close(b);
	char cmd[2 * HARNESS_PATH_MAX + 128];
	int n = snprintf(cmd, sizeof cmd, "printf 'loadsgf %s 1", path);
	for (size_t k = 0; k < 3; k++)
		n += snprintf(cmd + n, sizeof cmd - (size_t)n, "\\ncolor %s",
			      json_string_value(json_array_get(stones, k)));
	snprintf(cmd + n, sizeof cmd - (size_t)n, "\\nquit\\n' | %s --mode gtp 2>&1", GNUGO);
	FILE *p = popen(cmd, "r");
	ck_assert(p != NULL);
	char out[1024];
	size_t got = fread(out, 1, sizeof out - 1, p);
	out[got] = '\0';
	pclose(p);
	ck_assert_msg(strcmp(out, "= white\n\n= black\n\n= black\n\n= black\n\n= \n\n") == 0,
		      "GNU Go read the record otherwise: %s", out);
	fprintf(stderr, "test_gtp_handicap: stones %s, %zu moves, %s (%s)\n", hj_text(stones),
		json_array_size(moves), hj_str(g, "result"), reason);
	json_decref(g);
	kill_bridges();
	ck_assert_int_eq(hd_stop(&d), 0);
	hd_cleanup(&d);
}
END_TEST

int main(void)
{
	if (!GNUGO_PATH[0] || access(GNUGO_PATH, X_OK) != 0) {
		fprintf(stderr, "test_gtp_handicap: no GNU Go: skipped\n");
		return 77;
	}
	atexit(kill_bridges);
	Suite *s = suite_create("gtp_handicap");
	TCase *tc = tcase_create("gnugo");
	tcase_set_timeout(tc, 90);
	tcase_add_test(tc, two_gnugo_free_handicap);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
