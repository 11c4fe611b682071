/* Integration test: two GNU Go engines finish a prediction-rules game (seed 000; docs/rules.md
 * §5) through `tengen gtp` against the real tengend: each bridge places its opening stones
 * (genmove of the stone's colour), predicts from GNU Go's estimate_score at komi 0, then plays
 * its colour with komi minus the bar; the game ends counted or decided, with the predictions
 * shown and the engines told the bar. Skipped (77) without GNU Go. */
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
#define POLL_MS 200

static pid_t pids[2];
static char logs[2][HARNESS_PATH_MAX];

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

/* `tengen gtp` for user (harness password) with GNU Go at level 1; stderr to logs[i]. */
static void start_bridge(int i, const struct hd *d, const char *user)
{
	snprintf(logs[i], sizeof logs[i], "%s/bridge-%s.log", d->dir, user);
	char server[64], password[128];
	snprintf(server, sizeof server, "127.0.0.1:%d", d->port);
	snprintf(password, sizeof password, "%s%s", user, HARNESS_PASSWORD_SUFFIX);
	const char *tengen = getenv("TENGEN") ? getenv("TENGEN") : "./client/tengen";
	const char *argv[] = {tengen, "gtp", "--server", server, "--user", user, "--", GNUGO_PATH,
			      "--mode", "gtp", "--level", "1", "--chinese-rules",
			      "--capture-all-dead", NULL};
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

START_TEST(two_gnugo_prediction_game)
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
	/* gnuB's own session challenges gnuA: gnuA's bridge accepts, gnuB's plays */
	json_t *r = hc_req(b, "{s:s, s:s, s:i, s:s, s:b, s:{s:s}}", "cmd", "challenge", "opponent",
			   "gnuA", "size", 9, "first", "me", "rated", 0, "rules", "ruleset",
			   "prediction");
	ck_assert_msg(hj_ok(r), "challenge: %s", hj_text(r));
	long long gid = hj_int(r, "game");
	json_decref(r);
	hc_close(a);
	hc_close(b);
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
		print_file(d.log);
		ck_abort_msg("the game did not end: %s", g ? hj_text(g) : "(no game)");
	}
	/* the opening W, B, W, B by first (gnuB), second, second, first; then the game */
	json_t *moves = hj_get(g, "moves");
	ck_assert_msg(json_array_size(moves) > 4, "moves: %s", hj_text(moves));
	const char *cols[] = {"W", "B", "W", "B", "W"};
	for (size_t k = 0; k < 5; k++)
		ck_assert_str_eq(hj_str(json_array_get(moves, k), "color"), cols[k]);
	ck_assert_str_eq(hj_str(g, "first"), "gnuB");
	ck_assert_msg(json_is_object(hj_get(g, "predictions")) && json_is_object(hj_get(g, "bar")),
		      "predictions not shown: %s", hj_text(g));
	const char *reason = hj_str(g, "reason");
	ck_assert_msg(strcmp(reason, "score") == 0 || strcmp(reason, "resignation") == 0,
		      "ended by %s: %s", reason, hj_text(g));
	/* each engine predicted from its estimate at komi 0, then played with komi minus the
	 * bar (the bridge logs the komi it sets up an engine with) */
	char komi[48];
	snprintf(komi, sizeof komi, "engine set up with komi %g", hj_num(g, "komi"));
	for (int i = 0; i < 2; i++) {
		ck_assert_msg(file_has(logs[i], "engine set up with komi 0"), "bridge %d: no komi 0", i);
		ck_assert_msg(file_has(logs[i], komi), "bridge %d: not %s", i, komi);
		ck_assert_msg(file_has(logs[i], "(the engine says "), "bridge %d did not predict", i);
	}
	fprintf(stderr, "test_gtp_prediction: %zu moves, predictions %s, ", json_array_size(moves),
		hj_text(hj_get(g, "predictions")));
	fprintf(stderr, "bar %s, result %s (%s)\n", hj_text(hj_get(g, "bar")), hj_str(g, "result"),
		reason);
	print_file(logs[0]);
	json_decref(g);
	kill_bridges();
	ck_assert_int_eq(hd_stop(&d), 0);
	hd_cleanup(&d);
}
END_TEST

int main(void)
{
	if (!GNUGO_PATH[0] || access(GNUGO_PATH, X_OK) != 0) {
		fprintf(stderr, "test_gtp_prediction: no GNU Go: skipped\n");
		return 77;
	}
	atexit(kill_bridges);
	Suite *s = suite_create("gtp_prediction");
	TCase *tc = tcase_create("gnugo");
	tcase_set_timeout(tc, 90);
	tcase_add_test(tc, two_gnugo_prediction_game);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
