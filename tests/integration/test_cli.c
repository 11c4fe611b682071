/* Integration tests of the command-line client `tengen` (issue 6): a real tengend started by
 * tests/support/harness (temporary database, --pwhash-cost fast), and the built `tengen` binary
 * ($TENGEN, else ./client/tengen) run as a subprocess, its standard output, standard error and
 * exit status checked (tests/support/clitest.h). The playing commands are in test_cli_play.
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon, which must stop
 * cleanly with a log free of sanitizer reports.
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "clitest.h"

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
	    "--lateness", "300", "--tiebreaks", "SOS,SOSOS", "--rated", "no", "--bye", "1",
	    "--place", "FR,Lyon", "--mcmahon-bar", "2k", NULL);
	EXPECT_STATUS(r, 0);
	long long t = atoll(r.out);
	ck_assert_msg(t > 0, "td create printed '%s'", r.out);
	run_free(&r);
	/* the client's bound is the server's (it said 1 to 1000, the server refused 65) */
	run(&r, td, NULL, "--user", "carol", "td", "create", "Long Cup", "--system", "swiss",
	    "--rounds", "65", NULL);
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "--rounds must be a whole number from 1 to 64, not '65'");
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
	ck_assert_pstr_eq(hj_str(g, "tournament.settings.place"), "FR,Lyon");
	ck_assert_int_eq(hj_int(g, "tournament.settings.mcmahon_bar"), -2);
	json_decref(g);
	hc_close(c);

	/* an event made by mistake, deleted by its name; a round robin's --rounds is said to be
	 * unused (it was dropped without a word) */
	run(&r, td, NULL, "--user", "carol", "td", "create", "Sprnig Cup", "--system", "round_robin",
	    "--rounds", "2", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_ERR(r, "note: --rounds is not used: a round robin's rounds come from its field");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "delete", "Sprnig Cup", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "deleted: Sprnig Cup");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "list", NULL);
	EXPECT_STATUS(r, 0);
	ck_assert_msg(!strstr(r.out, "Sprnig"), "listed after its deletion: %s", r.out);
	run_free(&r);
	/* at real boards, four entrants: one withdrawn after one game of three has it voided for
	 * both sides (Art. 28), and the reply says which (it said nothing) */
	run(&r, td, NULL, "--user", "carol", "td", "create", "Void Cup", "--system", "round_robin",
	    "--venue", "board", NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	static const char *const rr[] = {"One Ann", "Two Bob", "Three Cy", "Four Di"};
	for (int i = 0; i < 4; i++) {
		run(&r, td, NULL, "--user", "carol", "td", "enter", "Void Cup", rr[i], NULL);
		EXPECT_STATUS(r, 0);
		run_free(&r);
	}
	run(&r, td, NULL, "--user", "carol", "td", "start", "Void Cup", NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	run(&r, NULL, NULL, "pairings", "Void Cup", "1", "--json", NULL);
	EXPECT_STATUS(r, 0);
	json_t *pj = json_loads(r.out, JSON_DISABLE_EOF_CHECK, NULL);
	long long ann = 0;
	size_t pi;
	json_t *pv;
	json_array_foreach(json_object_get(pj, "pairings"), pi, pv) {
		const char *bn = json_string_value(json_object_get(pv, "black"));
		const char *wn = json_string_value(json_object_get(pv, "white"));
		if ((bn && strcmp(bn, "One Ann") == 0) || (wn && strcmp(wn, "One Ann") == 0))
			ann = (long long)json_integer_value(json_object_get(pv, "game"));
	}
	json_decref(pj);
	ck_assert_msg(ann > 0, "no game of One Ann: %s", r.out);
	run_free(&r);
	char anns[32], want[128];
	snprintf(anns, sizeof anns, "%lld", ann);
	run(&r, td, NULL, "--user", "carol", "td", "result", anns, "b+r", NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "withdraw", "Void Cup", "One Ann", NULL);
	EXPECT_STATUS(r, 0);
	snprintf(want, sizeof want, "  voided (fewer than half their games played, Art. 28): game "
		 "%lld: no longer counted for either player\n", ann);
	EXPECT_OUT(r, want);
	run_free(&r);
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
	/* the round taken back and paired again: the first game is listed as called off (it
	 * read "ended  -", like a game played) */
	run(&r, td, NULL, "--user", "carol", "td", "unpair", ts, NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	run(&r, NULL, NULL, "games", "--tournament", ts, NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "called off");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "start", ts, "--in", "600", NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	run(&r, NULL, NULL, "games", "--tournament", ts, "--json", NULL);
	EXPECT_STATUS(r, 0);
	json_t *lines = json_lines(r.out);
	ck_assert_int_eq(json_array_size(lines), 1);
	json_t *games = hj_get(json_array_get(lines, 0), "games");
	ck_assert_int_eq(json_array_size(games), 2);
	long long game = 0;
	for (size_t i = 0; i < 2; i++)
		if (strcmp(hj_str(json_array_get(games, i), "phase"), "scheduled") == 0)
			game = hj_int(json_array_get(games, i), "id");
	ck_assert_int_gt(game, 0);
	json_decref(lines);
	run_free(&r);
	return game;
}

/* `td results FILE` of a file holding `text`, as carol with td's environment (r: run_free). */
static void results_from(struct run *r, const char *td, const char *file, const char *text)
{
	FILE *f = fopen(file, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	run(r, td, NULL, "--user", "carol", "td", "results", file, NULL);
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
	EXPECT_OUT(r, ") in Spring Cup, round 1\n"); /* where it went */
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "result", gs, "--double-loss", NULL);
	EXPECT_STATUS(r, 0);
	/* an override says what it replaced; Void says it is a double loss (it read as void) */
	EXPECT_OUT(r, "result Void (a double loss: both lose) (was W+3.5)");
	run_free(&r);
	/* the listing tells it from a void game (both read "Void") */
	run(&r, NULL, NULL, "games", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "dbl loss");
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
	snprintf(want, sizeof want, "line 4: game %s: field 'result': an area count cannot give '0'", gs);
	EXPECT_ERR(r, want); /* komi 7.5: no draw */
	EXPECT_ERR(r, "line 5: game 999999: no game 999999 (not_found)");
	snprintf(want, sizeof want, "line 6: game %s: field 'result': 'x+1' is not a result", gs);
	EXPECT_ERR(r, want);
	snprintf(want, sizeof want, "line 4: game %s is given again (line 3): the later result "
		 "stands", gs);
	EXPECT_ERR(r, want); /* said, and sent all the same */
	run_free(&r);

	char file[HARNESS_PATH_MAX];
	snprintf(file, sizeof file, "%s/results.txt", D.dir);
	/* malformed lines: nothing is sent */
	static const char *const bad[][2] = {
		{"W+R extra", "line 1: give GAME RESULT or GAME RESULT REASON, as '17 B+R' or '31 "
			      "jigo adjudicated' (the REASON is one of td result's, as adjudicated "
			      "or warnings)"},
		{"W+R by forfeit", "(a result has no spaces)"},
		/* a reason the server refuses (a challenge's own ending), before a comment */
		{"W+R declined # lapsed", "(the REASON is one of td result's"},
		/* a reason the result contradicts (any case), as the server would refuse it */
		{"w+r SCORE", "line 1: score does not go with W+R: score goes with a counted result "
			      "(W+3.5, B+12, 0)"},
	};
	char text[256];
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		snprintf(text, sizeof text, "%s %s\n", gs, bad[k][0]);
		results_from(&r, td, file, text);
		EXPECT_STATUS(r, 2);
		EXPECT_ERR(r, bad[k][1]);
		run_free(&r);
	}
	char arg[64];
	snprintf(arg, sizeof arg, "game=%s", gs);
	run(&r, NULL, NULL, "call", "game", arg, NULL);
	EXPECT_STATUS(r, 0);
	json_t *lines = json_lines(r.out);
	ck_assert_pstr_eq(hj_str(json_array_get(lines, 0), "game.result"), "B+R");
	json_decref(lines);
	run_free(&r);
	/* the same result again (a results file entered twice): nothing written */
	run(&r, td, NULL, "--user", "carol", "td", "result", gs, "b+r", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "result B+R (unchanged: it had that result already)");
	run_free(&r);
	snprintf(text, sizeof text, "%s double_loss\n%s B+R\n", gs, gs);
	results_from(&r, td, file, text);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "line 1: game");
	EXPECT_OUT(r, "result Void (a double loss: both lose)");
	EXPECT_OUT(r, "line 2: game");
	/* which Void it replaced: a double loss, not a void game (both read "was Void") */
	EXPECT_OUT(r, "result B+R (was Void, a double loss)");
	run_free(&r);
	/* a draw the director decides (Art. 23), from a round's sheet: with komi 7.5 only with
	 * its reason (line 4 of the first sheet was refused without one); then B+R again */
	snprintf(text, sizeof text, "%s jigo adjudicated # the clock fell, both agreed\n", gs);
	results_from(&r, td, file, text);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "result 0 (was B+R)");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "result", gs, "B+R", NULL);
	EXPECT_STATUS(r, 0);
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
	EXPECT_OUT(r, "- (not begun)"); /* it starts in 600 s: not a game in play */
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
	EXPECT_OUT(r, "Bye");
	EXPECT_OUT(r, "Place  Player"); /* "Rank" is the Go rank in the cross-table */
	run_free(&r);
	/* The pairings give the result as recorded, not just its winner. */
	run(&r, NULL, NULL, "pairings", ts, "1", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "B+R");
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
	/* every ended game's record, a file each (the director collected them one `tengen sgf`
	 * at a time): the event's one game, B+R */
	char sgf_dir[HARNESS_PATH_MAX + 8];
	snprintf(sgf_dir, sizeof sgf_dir, "%s/sgf", D.dir);
	run(&r, td, NULL, "--user", "carol", "td", "export", "Spring Cup", "--format", "sgf", "-o",
	    sgf_dir, NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "wrote 1 SGF file to ");
	run_free(&r);
	DIR *dir = opendir(sgf_dir);
	ck_assert_ptr_nonnull(dir);
	struct dirent *e;
	int files = 0;
	char path[2 * HARNESS_PATH_MAX];
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		files++;
		ck_assert_msg(strncmp(e->d_name, "round1-game", 11) == 0 &&
			      strstr(e->d_name, ".sgf") != NULL, "file %s", e->d_name);
		snprintf(path, sizeof path, "%s/%s", sgf_dir, e->d_name);
		f = fopen(path, "r");
		ck_assert_ptr_nonnull(f);
		n = fread(buf, 1, sizeof buf - 1, f);
		buf[n] = '\0';
		fclose(f);
		unlink(path);
		ck_assert_msg(strncmp(buf, "(;", 2) == 0 && strstr(buf, "RE[B+R]"), "%s", buf);
	}
	closedir(dir);
	ck_assert_int_eq(files, 1);
	/* a file that cannot be written (a directory in its place) ends the run, saying so */
	ck_assert_int_eq(mkdir(path, 0700), 0);
	run(&r, td, NULL, "--user", "carol", "td", "export", "Spring Cup", "--format", "sgf", "-o",
	    sgf_dir, NULL);
	EXPECT_STATUS(r, 1);
	EXPECT_ERR(r, "cannot write ");
	EXPECT_ERR(r, "Is a directory (0 files written before it)");
	run_free(&r);
	rmdir(path);
	rmdir(sgf_dir);
	run(&r, td, NULL, "--user", "carol", "td", "export", ts, "--format", "sgf", NULL);
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "--format sgf writes a file per game: give -o DIR");
	run_free(&r);
	/* columns line up by characters, not bytes: "Zürich Open" is 11 wide in 12 bytes */
	run(&r, td, NULL, "--user", "carol", "td", "create", "Zürich Open", "--system", "swiss",
	    NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "list", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Spring Cup");
	const char *zl = strstr(r.out, "Zürich Open"), *sl = strstr(r.out, "Spring Cup");
	ck_assert(zl && sl);
	const char *zs = strstr(zl, "swiss"), *ss = strstr(sl, "swiss");
	ck_assert(zs && ss);
	long zcol = 0, scol = 0; /* the system column, in characters from the line's start */
	for (const char *p = zl; p < zs; p++)
		zcol += ((unsigned char)*p & 0xc0) != 0x80;
	for (const char *p = sl; p < ss; p++)
		scol += ((unsigned char)*p & 0xc0) != 0x80;
	ck_assert_msg(zcol == scol, "td list columns: %s", r.out);
	run_free(&r);
	/* games --tournament takes the name, as standings does (it took numbers only) */
	run(&r, NULL, NULL, "games", "--tournament", "Spring Cup", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "alice");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "show", ts, NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Spring Cup");
	EXPECT_OUT(r, "alice");
	/* Settings in words, not JSON. */
	EXPECT_OUT(r, "byoyomi 1:00 + 3x0:10");
	EXPECT_OUT(r, "mcmahon_bar          2k");
	/* a rank as a rank (it printed the internal number, 8 for 9d) */
	const char *hna = strstr(r.out, "handicap_none_above  ");
	int hn = 0;
	char hu = 0;
	ck_assert_msg(hna && sscanf(hna + 21, "%d%c", &hn, &hu) == 2 && (hu == 'd' || hu == 'k'),
		      "td show: %s", r.out);
	EXPECT_OUT(r, "place                FR,Lyon");
	ck_assert_msg(!strstr(r.out, "{\""), "td show printed JSON: %s", r.out);
	run_free(&r);
	/* The cross-table: bob beat alice in round 1 (B+R). */
	run(&r, td, NULL, "--user", "carol", "td", "crosstable", ts, "--round", "1", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Cross-table after round 1 (swiss, Spring Cup)");
	EXPECT_OUT(r, "2+/");
	EXPECT_OUT(r, "1-/");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "crosstable", "spring cup", "--round", "1", NULL);
	EXPECT_STATUS(r, 0); /* by name, as every td command */
	EXPECT_OUT(r, "Cross-table after round 1 (swiss, Spring Cup)");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "crosstable", ts, "--round", "3", NULL);
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "round 3 has not been played");
	run_free(&r);
	/* --round: the table after a round; a round not played is refused */
	run(&r, td, NULL, "--user", "carol", "td", "export", ts, "--format", "csv", "--round", "1",
	    NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Num,Place,Name");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "export", ts, "--format", "csv", "--round", "3",
	    NULL);
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "round 3 has not been played");
	run_free(&r);
	/* h9 to stdout: the EGD header from the event; HTML to a file. */
	run(&r, td, NULL, "--user", "carol", "td", "export", ts, "--format", "h9", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "; PC[FR,Lyon]\n");
	EXPECT_OUT(r, "; KM[7.5]\n; TM[8]\n; CM[Standard byo-yomi]\n; Generated by tengen\n");
	EXPECT_OUT(r, "; CL[X]\n");
	/* DT: the days of the first and last round's games (one round, played today; its games'
	 * start time may fall after midnight when the test runs just before it: tomorrow then). */
	char today[16], tomorrow[16], dt[64], dt2[64];
	time_t now = time(NULL), later = now + 24 * 3600;
	struct tm tm;
	localtime_r(&now, &tm); /* the daemon's time zone is ours (the same environment) */
	strftime(today, sizeof today, "%Y-%m-%d", &tm);
	bool late_evening = tm.tm_hour == 23;
	localtime_r(&later, &tm);
	strftime(tomorrow, sizeof tomorrow, "%Y-%m-%d", &tm);
	snprintf(dt, sizeof dt, "; DT[%s,%s]\n", today, today);
	snprintf(dt2, sizeof dt2, "; DT[%s,%s]\n", tomorrow, tomorrow);
	ck_assert_msg(strstr(r.out, dt) || (late_evening && strstr(r.out, dt2)),
		      "stdout lacks '%s':\n%s", dt, r.out);
	run_free(&r);
	snprintf(out_file, sizeof out_file, "%s/export.html", D.dir);
	run(&r, td, NULL, "--user", "carol", "td", "export", ts, "--format", "html", "-o", out_file,
	    NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	f = fopen(out_file, "r");
	ck_assert_msg(f != NULL, "no %s", out_file);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(out_file);
	ck_assert_msg(strstr(buf, "<!DOCTYPE html>") && strstr(buf, "<td>B+R</td>") &&
		      strstr(buf, "<h2>Cross-table</h2>"), "html: %s", buf);
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

/* test_td_director, last step: standings and pairings of a tournament named by its name (as
 * td's commands take it); a late entry; td show's venue, entrants, profiles, absences and late
 * entry. gid: a game of round 1. */
static void td_director_show(const char *td, const char *gid)
{
	struct run r;
	run(&r, NULL, NULL, "pairings", "board open", "1", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, gid);
	run_free(&r);
	run(&r, NULL, NULL, "standings", "Board Open", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Doe John");
	EXPECT_OUT(r, "Kowalski Jan");
	run_free(&r);
	run(&r, NULL, NULL, "standings", "No Such Cup", "--json", NULL);
	EXPECT_STATUS(r, 3); /* as the server's not_found (README: exit statuses) */
	EXPECT_ERR(r, "no tournament named 'No Such Cup' (not_found");
	ck_assert_msg(!strstr(r.out, "tournaments"), "the lookup printed: %s", r.out);
	run_free(&r);
	run(&r, NULL, NULL, "pairings", "", NULL);
	EXPECT_STATUS(r, 2);
	run_free(&r);
	run(&r, td, NULL, "--user", "dora", "td", "enter", "Board Open", "Late Lou", NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	run(&r, td, NULL, "--user", "dora", "td", "show", "Board Open", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Venue: board");
	EXPECT_OUT(r, "(default: SOS, SOSOS)"); /* McMahon's tie-breaks, named (Art. 27.1) */
	EXPECT_OUT(r, "Doe John");
	EXPECT_OUT(r, "entrant  country FR  club Lyon  PIN 12345678");
	EXPECT_OUT(r, "\"Meier Emil\"  country CH  club Zuri");
	EXPECT_OUT(r, "absent: [1]");
	EXPECT_OUT(r, "entered after round 1");
	ck_assert_msg(!strstr(r.out, "Teams"), "td show printed teams: %s", r.out);
	run_free(&r);
}

/* Issue 16 from the command line: td create with every event option (the defaults it used
 * said on stderr), a tournament named by its name, td import of a CSV player list and of an
 * EGD rating list's lines (a refused line reported by its number), td players (CSV), td enter,
 * td absent, td pair, td profile. */
START_TEST(test_td_director)
{
	struct run r;
	cli_register("dora");
	cli_register("emil");
	grant("dora", "td");
	const char *td = pw_of("dora");
	run(&r, td, NULL, "--user", "dora", "td", "create", "Board Open", "--system", "mcmahon",
	    "--venue", "board", "--mcmahon-bar", "2d", "--mcmahon-floor", "20k", "--handicap", "yes",
	    "--handicap-max", "4", "--handicap-komi", "0.5", "--absent-points", "1", "--mms-absent",
	    "1", "--handicap-correction", "2", "--handicap-none-above", "1k", "--handicap-by",
	    "mms", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_ERR(r, "5 rounds (the default");
	long long t = atoll(r.out);
	ck_assert_msg(t > 0, "td create printed '%s'", r.out);
	run_free(&r);
	/* a knockout plays until one is left: no "5 rounds (the default)" to say */
	run(&r, td, NULL, "--user", "dora", "td", "create", "Dora KO", "--system", "knockout", NULL);
	EXPECT_STATUS(r, 0);
	ck_assert_msg(!strstr(r.err, "rounds (the default"), "td create said: %s", r.err);
	run_free(&r);
	struct hc *c = hc_open(D.port);
	ck_assert(c);
	json_t *g = hc_req(c, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t);
	ck_assert_pstr_eq(hj_str(g, "tournament.settings.venue"), "board");
	ck_assert_int_eq(hj_int(g, "tournament.settings.mcmahon_bar"), 1);
	ck_assert_int_eq(hj_int(g, "tournament.settings.mcmahon_floor"), -20);
	ck_assert_int_eq(hj_bool(g, "tournament.settings.handicap"), 1);
	ck_assert_int_eq(hj_int(g, "tournament.settings.handicap_max"), 4);
	ck_assert_int_eq(hj_int(g, "tournament.settings.absent_points"), 1);
	ck_assert(hj_num(g, "tournament.settings.mms_absent") == 1.0);
	ck_assert(hj_num(g, "tournament.settings.handicap_komi") == 0.5);
	ck_assert_int_eq(hj_int(g, "tournament.settings.handicap_correction"), 2);
	ck_assert_int_eq(hj_int(g, "tournament.settings.handicap_none_above"), -1);
	ck_assert_pstr_eq(hj_str(g, "tournament.settings.handicap_by"), "mms");
	json_decref(g);
	/* td set: a setting put right before round 1, the others kept */
	run(&r, td, NULL, "--user", "dora", "td", "set", "Board Open", "--rounds", "4",
	    "--handicap-by", "rank", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "settings changed");
	run_free(&r);
	run(&r, td, NULL, "--user", "dora", "td", "set", "Board Open", "--system", "swiss", NULL);
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "the system cannot change");
	run_free(&r);
	g = hc_req(c, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t);
	ck_assert_int_eq(hj_int(g, "tournament.settings.rounds"), 4);
	ck_assert_pstr_eq(hj_str(g, "tournament.settings.handicap_by"), "rank");
	ck_assert_int_eq(hj_int(g, "tournament.settings.handicap_max"), 4);
	ck_assert_pstr_eq(hj_str(g, "tournament.settings.venue"), "board");
	json_decref(g);

	char csv[HARNESS_PATH_MAX], egd[HARNESS_PATH_MAX];
	snprintf(csv, sizeof csv, "%s/players.csv", D.dir);
	FILE *f = fopen(csv, "w");
	ck_assert_ptr_nonnull(f);
	fputs("name,rank,country,club,egd_pin\n"
	      "Doe John,25k,fr,Lyon,12345678\n"
	      "\"Roe, Jane\",3d,,,\n"
	      "Poe Edgar,35k,,,\n"
	      "Moe Anna,1k,DE,Berl,\n", f);
	fclose(f);
	run(&r, td, NULL, "--user", "dora", "td", "import", "board open", csv, NULL);
	EXPECT_STATUS(r, 3);
	EXPECT_OUT(r, "line 2: registered Doe John");
	EXPECT_OUT(r, "line 5: registered Moe Anna");
	EXPECT_OUT(r, "line 3: registered Roe, Jane"); /* a quoted field */
	EXPECT_ERR(r, "line 4: Poe Edgar: field 'entrant.rank'");
	run_free(&r);
	/* Two lines of an EGD rating list (fixed columns, as OpenGotha reads them) and a heading. */
	snprintf(egd, sizeof egd, "%s/allworld_lp.html", D.dir);
	f = fopen(egd, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "   Pin_Player Name                           Country Club  Grade  GoR\n");
	fprintf(f, " %-8s  %-37s %-3s %-4s   %-3s        %4s\n", "10001234", "Kowalski Jan", "PL",
		"Wars", "2k", "1950");
	fprintf(f, " %-8s  %-37s %-3s %-4s   %-3s        %4s\n", "10005678", "Novak Eva", "CZ",
		"Brno", "12k", "1100");
	fclose(f);
	run(&r, td, NULL, "--user", "dora", "td", "import", "Board Open", egd, "--egd", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "line 2: registered Kowalski Jan");
	EXPECT_OUT(r, "line 3: registered Novak Eva");
	run_free(&r);
	run(&r, td, NULL, "--user", "dora", "td", "enter", "Board Open", "Zed Zoe", "--rank", "30k",
	    "--pin", "11112222", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "registered Zed Zoe");
	run_free(&r);
	run(&r, td, NULL, "--user", "dora", "td", "profile", "emil", "--name", "Meier Emil",
	    "--country", "ch", "--club", "Zuri", NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	run(&r, td, NULL, "--user", "dora", "td", "register", "Board Open", "emil", NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	run(&r, td, NULL, "--user", "dora", "td", "players", "Board Open", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "name,rank,country,club,egd_pin,account\n");
	EXPECT_OUT(r, "Doe John,25k,FR,Lyon,12345678,\n");
	EXPECT_OUT(r, "Kowalski Jan,2k,PL,Wars,10001234,\n");
	EXPECT_OUT(r, "Novak Eva,12k,CZ,Brno,10005678,\n");
	EXPECT_OUT(r, "Meier Emil,6k,CH,Zuri,,emil\n");
	EXPECT_OUT(r, "\"Roe, Jane\",3d,,,,\n");
	ck_assert_msg(!strstr(r.out, "Poe Edgar"), "a refused line registered:\n%s", r.out);
	run_free(&r);
	/* a spreadsheet's CSV: a UTF-8 byte-order mark and semicolons ("the header names no
	 * 'name' column" before), or tabs */
	run(&r, td, NULL, "--user", "dora", "td", "create", "Semi Cup", "--system", "swiss",
	    "--rounds", "1", "--venue", "board", NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	static const char *const sheets[] = {"\xef\xbb\xbfName;Rank;Country\nVoss Ida;4k;NL\n"
					     "\"Lee; Min\";2d;KR\n",
					     "name\trank\nTab Tom\t9k\n"};
	for (size_t i = 0; i < 2; i++) {
		f = fopen(csv, "w");
		ck_assert_ptr_nonnull(f);
		fputs(sheets[i], f);
		fclose(f);
		run(&r, td, NULL, "--user", "dora", "td", "import", "Semi Cup", csv, NULL);
		EXPECT_STATUS(r, 0);
		run_free(&r);
	}
	run(&r, td, NULL, "--user", "dora", "td", "players", "Semi Cup", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Voss Ida,4k,NL,,,\n");
	EXPECT_OUT(r, "Lee; Min,2d,KR,,,\n"); /* read quoted; written with commas */
	EXPECT_OUT(r, "Tab Tom,9k,,,,\n");
	run_free(&r);

	/* a negative round is a bad ROUND, not an unknown option followed by the whole usage */
	run(&r, td, NULL, "--user", "dora", "td", "absent", "Board Open", "Novak Eva", "-1", NULL);
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "ROUND must be a positive number, not '-1'");
	ck_assert_msg(!strstr(r.err, "unknown option") && !strstr(r.err, "td import"), "%s", r.err);
	run_free(&r);
	run(&r, td, NULL, "--user", "dora", "td", "absent", "Board Open", "Novak Eva", "1", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Novak Eva is absent in round 1");
	run_free(&r);
	run(&r, td, NULL, "--user", "dora", "td", "start", "Board Open", NULL);
	EXPECT_STATUS(r, 0);
	ck_assert_msg(!strstr(r.out, "Novak Eva"), "an absent player paired:\n%s", r.out);
	/* at the board nobody is late: no word of --in (an online round said it) */
	ck_assert_msg(!strstr(r.err, "--in 60"), "td start said: %s", r.err);
	run_free(&r);
	json_t *p = hc_req(c, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament",
			   (json_int_t)t, "round", 1);
	ck_assert_int_eq(json_array_size(hj_get(p, "pairings")), 3);
	char gid[32], black[64];
	snprintf(gid, sizeof gid, "%lld", hj_int(p, "pairings.0.game"));
	snprintf(black, sizeof black, "%s", hj_str(p, "pairings.0.black"));
	json_decref(p);
	run(&r, td, NULL, "--user", "dora", "td", "pair", "Board Open", "colors", gid, NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "swap_colors done");
	run_free(&r);
	p = hc_req(c, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament",
		   (json_int_t)t, "round", 1);
	ck_assert_pstr_eq(hj_str(p, "pairings.0.white"), black);
	json_decref(p);
	run(&r, td, NULL, "--user", "dora", "td", "pair", "Board Open", "bye", "Doe John", NULL);
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "no bye");
	run_free(&r);
	/* a name with accents takes as many columns as its letters (UTF-8 padded by character) */
	run(&r, td, NULL, "--user", "dora", "td", "enter", "Board Open", "Müller Anna", "--rank",
	    "5k", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, ", late: absent in round 1\n"); /* said "rounds 1-1" */
	run_free(&r);
	run(&r, td, NULL, "--user", "dora", "td", "show", "Board Open", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "\n  Müller Anna              5k ");
	run_free(&r);
	run(&r, td, NULL, "--user", "dora", "td", "show", "No Such Cup", NULL);
	EXPECT_STATUS(r, 3); /* as the server's not_found (README: exit statuses) */
	EXPECT_ERR(r, "no tournament named 'No Such Cup' (not_found");
	run_free(&r);
	td_director_show(td, gid);
	hc_close(c);
}
END_TEST

/* td team (issue 21): a 2-board team round robin created, its teams entered with a reserve
 * and a refusal, round 1 started and printed by match and board, the team standings printed
 * after the director's results (docs/teams.md). */
START_TEST(test_td_team)
{
	struct run r;
	static const char *const names[] = {"ta1", "ta2", "tb1", "tb2", "tr"};
	for (int i = 0; i < 5; i++)
		cli_register(names[i]);
	cli_register("carol");
	grant("carol", "td");
	const char *td = pw_of("carol");
	run(&r, td, NULL, "--user", "carol", "td", "create", "Team Cup", "--system",
	    "team_round_robin", "--boards", "2", "--size", "9", NULL);
	EXPECT_STATUS(r, 0);
	long long t = atoll(r.out);
	ck_assert_msg(t > 0, "td create printed '%s'", r.out);
	run_free(&r);
	char ts[32];
	snprintf(ts, sizeof ts, "%lld", t);
	run(&r, td, NULL, "--user", "carol", "td", "team", "create", ts, "Alpha", "ta1", "ta2",
	    "--reserves", "tr", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "team 1: Alpha");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "team", "create", ts, "Beta", "tb1", NULL);
	EXPECT_STATUS(r, 3); /* one player on a 2-board event */
	EXPECT_ERR(r, "2 players");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "team", "create", "Team Cup", "Beta", "tb1", "tb2", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "team 2: Beta");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "team", "bogus", ts, NULL);
	EXPECT_STATUS(r, 2);
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "start", ts, NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Match 1: Alpha (home) v Beta");
	/* an online round started now: the lateness it costs, and how to give time */
	EXPECT_ERR(r, "td start T --in 60");
	EXPECT_OUT(r, "board 1");
	EXPECT_OUT(r, "board 2");
	run_free(&r);
	/* the director's results (W+R on board 1, B+R on board 2: both to the home team, White on
	 * board 1 and Black on board 2), then the team standings */
	struct hc *c = hc_open(D.port);
	ck_assert(c);
	json_t *p = hc_req(c, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament",
			   (json_int_t)t, "round", 1);
	ck_assert_msg(hj_ok(p), "%s", hj_text(p));
	char g1[32], g2[32];
	snprintf(g1, sizeof g1, "%lld", hj_int(p, "pairings.0.games.0.game"));
	snprintf(g2, sizeof g2, "%lld", hj_int(p, "pairings.0.games.1.game"));
	json_decref(p);
	hc_close(c);
	run(&r, td, NULL, "--user", "carol", "td", "result", g1, "W+R", NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "result", g2, "B+R", NULL);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	run(&r, NULL, NULL, "standings", ts, NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "match points, Art. 27.2");
	/* Alpha: board 1 won (White) and board 2 won (Black, B+R): 2 MP, 4 BP */
	EXPECT_OUT(r, "   1  Alpha                   2    4");
	EXPECT_OUT(r, "   2  Beta                    0    0");
	run_free(&r);
	run(&r, NULL, NULL, "pairings", ts, "1", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "W+");
	EXPECT_OUT(r, "B+");
	run_free(&r);
	run(&r, td, NULL, "--user", "carol", "td", "show", "Team Cup", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Teams (2):");
	EXPECT_OUT(r, "Alpha: ta1, ta2 (reserves: tr)");
	EXPECT_OUT(r, "Beta: tb1, tb2\n");
	run_free(&r);
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
	/* a 3-stone game at komi 0.5: the komi counted with, 3.5, as the SGF's KM (it showed 0.5) */
	json_t *rep = hc_req(a, "{s:s, s:s, s:i, s:i, s:f}", "cmd", "challenge", "opponent", "bob",
			     "size", 19, "handicap", 3, "komi", 0.5);
	ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
	json_decref(rep);
	run(&r, NULL, NULL, "games", "--limit", "1", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "   19   3.5  ");
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

	/* a move out of turn: its warning in words, not the protocol's code */
	rep = hc_req(b, "{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)game, "vertex", "J9");
	json_decref(rep);
	ck_assert_msg(proc_wait_for(&p, "Warning to White: a move out of turn (Art. 17.2) (1 of 2)",
				    T), "warning: %s", p.out);
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
	/* a handicap game's header gives the komi counted with, as its end does (it said 0.5
	 * there and 3.5 at the count) */
	rep = hc_req(a, "{s:s, s:s, s:i, s:i, s:f, s:s}", "cmd", "challenge", "opponent", "bob",
		     "size", 9, "handicap", 3, "komi", 0.5, "color", "black");
	ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
	game = hj_int(rep, "game");
	json_decref(rep);
	rep = hc_req(b, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)game);
	ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
	json_decref(rep);
	snprintf(gs, sizeof gs, "%lld", game);
	proc_start(&p, NULL, NULL, args);
	ck_assert_msg(proc_wait_for(&p, "komi 3.5 (0.5 + 3 for the handicap stones)", T),
		      "header: %s / %s", p.out, p.err);
	rep = hc_req(a, "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)game);
	json_decref(rep);
	proc_finish(&p, &r);
	run_free(&r);
	hc_close(a);
	hc_close(b);
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
	tcase_add_test(tc, test_games_pages);
	tcase_add_test(tc, test_td_director);
	tcase_add_test(tc, test_td_team);
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
