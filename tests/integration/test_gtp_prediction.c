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

#include "bridges.h"
#include "harness.h"

#ifndef GNUGO_PATH
#define GNUGO_PATH ""
#endif

#define GAME_WAIT_MS 60000 /* the longest wait for the game to end */
#define POLL_MS 200

/* Bridge i for user, GNU Go counting by Chinese rules. */
static void start_bridge(int i, const struct hd *d, const char *user)
{
	bridges_start(i, d, user, "--chinese-rules", NULL);
}

START_TEST(two_gnugo_prediction_game)
{
	struct hd d;
	ck_assert_int_eq(hd_start(&d, NULL), 0);
	struct hc *a = hc_login_new(d.port, "gnuA"), *b = hc_login_new(d.port, "gnuB");
	ck_assert(a && b);
	start_bridge(0, &d, "gnuA");
	start_bridge(1, &d, "gnuB");
	for (long long end = bridges_now_ms() + 20000; bridges_now_ms() < end; bridges_sleep_ms(POLL_MS))
		if (bridges_file_has(bridges_logs[0], "logged in") && bridges_file_has(bridges_logs[1], "logged in"))
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
	for (long long end = bridges_now_ms() + GAME_WAIT_MS; bridges_now_ms() < end; bridges_sleep_ms(POLL_MS)) {
		json_decref(g);
		g = bridges_get_game(d.port, gid);
		if (g && hj_str(g, "phase") && strcmp(hj_str(g, "phase"), "ended") == 0)
			break;
	}
	if (!g || strcmp(hj_str(g, "phase"), "ended") != 0) {
		bridges_print_file(bridges_logs[0]);
		bridges_print_file(bridges_logs[1]);
		bridges_print_file(d.log);
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
		ck_assert_msg(bridges_file_has(bridges_logs[i], "engine set up with komi 0"), "bridge %d: no komi 0", i);
		ck_assert_msg(bridges_file_has(bridges_logs[i], komi), "bridge %d: not %s", i, komi);
		ck_assert_msg(bridges_file_has(bridges_logs[i], "(the engine says "), "bridge %d did not predict", i);
	}
	fprintf(stderr, "test_gtp_prediction: %zu moves, predictions %s, ", json_array_size(moves),
		hj_text(hj_get(g, "predictions")));
	fprintf(stderr, "bar %s, result %s (%s)\n", hj_text(hj_get(g, "bar")), hj_str(g, "result"),
		reason);
	bridges_print_file(bridges_logs[0]);
	json_decref(g);
	bridges_kill();
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
	atexit(bridges_kill);
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
