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

#include "bridges.h"
#include "harness.h"

#ifndef GNUGO_PATH
#define GNUGO_PATH ""
#endif

#define GAME_WAIT_MS 60000 /* the longest wait for the game to end */
#define GNUGO "/usr/games/gnugo"
#define POLL_MS 200

static char gtplogs[2][HARNESS_PATH_MAX];

/* Bridge i for user, its GTP traffic to gtplogs[i]; GNU Go without --chinese-rules
 * (docs/rules.md, Art. 11: the handicap compensation is the server's count). */
static void start_bridge(int i, const struct hd *d, const char *user)
{
	snprintf(gtplogs[i], sizeof gtplogs[i], "%s/gtp-%s.log", d->dir, user);
	bridges_start(i, d, user, NULL, gtplogs[i]);
}

START_TEST(two_gnugo_free_handicap)
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
	/* gnuB's own session challenges gnuA (Black for the challenger): gnuA's bridge accepts */
	json_t *r = hc_req(b, "{s:s, s:s, s:i, s:i, s:s, s:f, s:s, s:b}", "cmd", "challenge",
			   "opponent", "gnuA", "size", 9, "handicap", 3, "handicap_placement", "free",
			   "komi", 0.5, "color", "black", "rated", 0);
	ck_assert_msg(hj_ok(r), "challenge: %s", hj_text(r));
	long long gid = hj_int(r, "game");
	json_decref(r);
	hc_close(a);
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
		bridges_print_file(gtplogs[1]);
		bridges_print_file(d.log);
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
	ck_assert_msg(bridges_file_has(gtplogs[1], "> place_free_handicap 3"), "gnuB's engine was not asked");
	ck_assert_msg(!bridges_file_has(gtplogs[1], "> set_free_handicap"), "gnuB's engine was told its own");
	if (!bridges_file_has(gtplogs[0], line)) {
		bridges_print_file(gtplogs[0]);
		ck_abort_msg("gnuA's engine was not told '%s'", line + 2);
	}
	ck_assert_msg(!bridges_file_has(bridges_logs[1], "stale genmove") && !bridges_file_has(bridges_logs[0], "restarting"),
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
	bridges_kill();
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
	atexit(bridges_kill);
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
