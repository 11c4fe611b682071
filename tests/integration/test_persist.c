/* Integration tests of what tengend (TENGEND, else ./server/tengend) keeps, driven over TCP
 * through tests/support/harness and tests/support/srvtest: games across kill -9 and SIGTERM (the turn, the
 * penalties, a claim in the count, a resumed dispute, a pending challenge), the agreed count in
 * the game's record (docs/rules.md), a fold of the move journal that fails and is retried, and
 * the replies held for the syncer thread's fsync (and the threads' names).
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon in a fresh
 * directory; the daemon must stop cleanly on SIGTERM (exit status 0) and its log must hold no
 * AddressSanitizer, UBSan or LeakSanitizer report. Boards are 9x9 unless said otherwise;
 * vertices are GTP ("D4", no I column).
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness.h"
#include "sgf.h"
#include "srvtest.h"

#define TEST_TIMEOUT_S 60          /* per test (Check's own timeout) */

static struct hd D; /* the default daemon of the fixture */

static void setup(void)
{
	st_start(&D, NULL);
}

static void teardown(void)
{
	st_finish(&D);
}

/* ---- restarts ---- */

START_TEST(test_restart)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a, b);
	st_moves_ok(a, b, g, st_ko_moves, ST_KO_MOVES, 1);
	json_t *r = st_play(a, g, "F5"); /* superko: forfeit, warning for Black */
	st_expect_illegal(r, "superko", 1, 1, 1, 0);
	json_decref(r);
	st_expect_forfeit_event(a, b, g, 9, "B", "superko");
	st_expect_warning_event(a, b, g, "B", "superko", 1);
	st_move_ok(b, a, g, "A9", 10);
	r = st_play(b, g, "H8"); /* out of turn: warning for White */
	st_expect_illegal(r, "not_your_turn", 0, 1, 1, 0);
	json_decref(r);
	st_expect_warning_event(a, b, g, "W", "not_your_turn", 1);
	st_move_ok(a, b, g, "J1", 11);
	json_t *before = st_game_state(a, g);
	ck_assert_pstr_eq(hj_str(before, "phase"), "playing");
	ck_assert_pstr_eq(hj_str(before, "to_move"), "W");
	ck_assert_int_eq(json_array_size(hj_get(before, "moves")), 11);
	ck_assert_int_eq(hj_int(before, "warnings.B"), 1);
	ck_assert_int_eq(hj_int(before, "warnings.W"), 1);

	/* kill -9 right after the last reply: every acknowledged change is on disk. */
	ck_assert_int_eq(hd_kill(&D), 0);
	ck_assert_msg(hd_sanitizer_report(&D) == NULL, "sanitizer report before the kill: %s", D.log);
	hc_close(a);
	hc_close(b);
	ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart after kill -9");
	a = st_login(&D, "alice");
	b = st_login(&D, "bob");
	st_expect_same_state(a, g, before, "kill -9 and restart");
	json_decref(before);
	/* Play on: the ko may be taken back now (the position differs). */
	st_move_ok(b, a, g, "H8", 12);
	r = st_move(a, b, g, "F5", 13);
	ck_assert_msg(hj_has_str(r, "move.captures", "E5"), "F5 should take E5: %s", hj_text(r));
	json_decref(r);
	st_move_ok(b, a, g, "pass", 14);
	st_move_ok(a, b, g, "pass", 15);
	st_expect_counting(a, b, g);
	r = st_dead(a, g, json_pack("[]"));
	OK(r);
	json_decref(r);
	before = st_game_state(b, g);
	ck_assert_pstr_eq(hj_str(before, "phase"), "counting");

	/* SIGTERM: a clean stop, then the counting goes on with Black's claim kept. */
	ck_assert_int_eq(hd_stop(&D), 0);
	ck_assert_msg(hd_sanitizer_report(&D) == NULL, "sanitizer report at the stop: %s", D.log);
	ck_assert_msg(hc_wait_closed(a, T), "the server did not close alice's connection at the stop");
	hc_close(a);
	hc_close(b);
	ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart after SIGTERM");
	a = st_login(&D, "alice");
	b = st_login(&D, "bob");
	st_expect_same_state(b, g, before, "SIGTERM and restart");
	json_decref(before);
	r = st_dead(b, g, json_pack("[]"));
	OK(r);
	json_decref(r);
	/* Black E4 D5 E6 F5 J1 + E5 + 35, White F4 G5 F6 A9 H8 + 35; one warning each. */
	struct hc *who[2] = {a, b};
	for (int i = 0; i < 2; i++) {
		json_t *e = hc_event(who[i], "game.end", g, T);
		ck_assert_msg(e != NULL, "%s got no game.end after the restarts", who[i]->name);
		ck_assert_pstr_eq(hj_str(e, "result"), "W+6.5");
		ck_assert_pstr_eq(hj_str(e, "reason"), "score");
		ck_assert_msg(hj_num(e, "score.black") == 41 && hj_num(e, "score.white") == 40,
			      "score: %s", hj_text(e));
		json_decref(e);
	}
	r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "ended");
	ck_assert_pstr_eq(hj_str(r, "game.result"), "W+6.5");
	ck_assert_int_eq(json_array_size(hj_get(r, "game.moves")), 15);
	ck_assert_int_eq(hj_int(r, "game.warnings.B"), 1);
	ck_assert_int_eq(hj_int(r, "game.warnings.W"), 1);
	json_decref(r);
	hc_close(a);
	hc_close(b);
}
END_TEST

/* The turn survives kill -9 where replaying the moves would not give it: play resumed after a
 * dispute (Art. 21.4) with the player who passed last to move; then, one move later, the turn
 * the moves give. Ordinary moves do not rewrite the game row (game_save_as), so each restart
 * here rebuilds the turn from the row and the moves after it. */
START_TEST(test_restart_after_resume)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a, b);
	static const char *const m1[] = {"E5", "C3", "G7", "pass", "pass"};
	st_moves_ok(a, b, g, m1, 5, 1);
	st_expect_counting(a, b, g);
	json_t *r = st_dead(a, g, json_pack("[s]", "C3"));
	OK(r);
	json_decref(r);
	r = st_dead(b, g, json_pack("[]"));
	OK(r);
	json_decref(r);
	st_expect_resume(a, b, g, "B"); /* Black passed last and moves again */
	for (int round = 0; round < 2; round++) {
		json_t *before = st_game_state(a, g);
		ck_assert_pstr_eq(hj_str(before, "to_move"), round == 0 ? "B" : "W");
		ck_assert_int_eq(hd_kill(&D), 0);
		hc_close(a);
		hc_close(b);
		ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart after kill -9");
		a = st_login(&D, "alice");
		b = st_login(&D, "bob");
		st_expect_same_state(a, g, before, round == 0 ? "restart after the resumption"
							: "restart a move after the resumption");
		json_decref(before);
		if (round == 0)
			st_move_ok(a, b, g, "D6", 6);
	}
	st_move_ok(b, a, g, "F4", 7);
	st_move_ok(a, b, g, "pass", 8);
	hc_close(a);
	hc_close(b);
}
END_TEST

/* A pending challenge and a game in progress survive kill -9 of an idle server. */
/* A game counting when the daemon is killed comes back counting, the claim made kept, and the
 * claims' time (--counting-timeout-s) starts anew after the restart's grace
 * (--restart-grace-s): the players reconnecting are not cut short by the time the server was
 * down. Then the count lapses with the claim made. */
START_TEST(test_restart_counting)
{
	st_finish(&D);
	st_start(&D, (const char *const[]){"--counting-timeout-s", "2", "--restart-grace-s", "1",
					   NULL});
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a, b);
	static const char *const m1[] = {"E5", "C3", "G7", "pass", "pass"};
	st_moves_ok(a, b, g, m1, 5, 1);
	json_t *r = st_dead(a, g, json_pack("[s]", "C3"));
	OK(r);
	json_decref(r);
	ck_assert_int_eq(hd_kill(&D), 0);
	hc_close(a);
	hc_close(b);
	sleep(2); /* down longer than the claims' time left */
	ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart after kill -9");
	long long t0 = st_now_ms();
	a = st_login(&D, "alice");
	r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "counting");
	ck_assert_msg(json_is_array(hj_get(r, "game.claims.B")), "the claim was lost: %s", hj_text(r));
	json_decref(r);
	json_t *e = hc_event(a, "game.end", g, 3 * T);
	ck_assert_msg(e != NULL, "the count did not lapse after the restart");
	ck_assert_int_ge(st_now_ms() - t0, 2500); /* the grace (1 s) and the claims' time (2 s) */
	ck_assert_pstr_eq(hj_str(e, "result"), "B+73.5");
	ck_assert_pstr_eq(hj_str(e, "unclaimed"), "W");
	json_decref(e);
	hc_close(a);
}
END_TEST

START_TEST(test_restart_pending)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a, b);
	st_move_ok(a, b, g, "C3", 1);
	json_t *r = hc_req(a, "{s:s, s:s, s:i}", "cmd", "challenge", "opponent", "bob", "size", 13);
	OK(r);
	long long p = hj_int(r, "game");
	json_decref(r);
	json_t *sg = st_game_state(a, g), *sp = st_game_state(a, p);
	ck_assert_pstr_eq(hj_str(sp, "phase"), "pending");
	hc_close(a);
	hc_close(b);
	ck_assert_int_eq(hd_kill(&D), 0);
	ck_assert_int_eq(hd_restart(&D), 0);
	a = st_login(&D, "alice");
	b = st_login(&D, "bob");
	st_expect_same_state(b, g, sg, "kill -9");
	st_expect_same_state(b, p, sp, "kill -9");
	json_decref(sg);
	json_decref(sp);
	r = hc_req(b, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)p);
	OK(r);
	json_decref(r);
	st_move_ok(b, a, g, "D4", 2);
	hc_close(a);
	hc_close(b);
}
END_TEST

/* ---- the count and the journal ---- */

/* Issue 20 item 5: the agreed count is kept. Black gets a warning (a move out of turn), White's
 * lone stone is agreed dead: the game object names the dead stones, and the SGF carries the
 * count (TB/TW with the dead stone in Black's territory, WN[1:0] for the warning), so that
 * `tengen score FILE` without --dead gives RE, and GNU Go loads the record. Before: no dead
 * stones anywhere, and `tengen score` counted the stone alive and ignored the warning. */
#define GNUGO "/usr/games/gnugo"
START_TEST(test_count_kept)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a, b);
	st_move_ok(a, b, g, "E5", 1);
	json_t *r = st_play(a, g, "D4");
	st_expect_illegal(r, "not_your_turn", 0, 1, 1, 0);
	json_decref(r);
	st_move_ok(b, a, g, "C3", 2);
	st_move_ok(a, b, g, "pass", 3);
	st_move_ok(b, a, g, "pass", 4);
	/* Bad input changes nothing: a point with no stone. */
	r = hc_req(a, "{s:s, s:I, s:[s]}", "cmd", "dead", "game", (json_int_t)g, "stones", "A1");
	ERR(r, "bad_request");
	json_decref(r);
	struct hc *who[2] = {a, b};
	for (int i = 0; i < 2; i++) {
		r = hc_req(who[i], "{s:s, s:I, s:[s]}", "cmd", "dead", "game", (json_int_t)g, "stones", "C3");
		OK(r);
		json_decref(r);
	}
	/* 81 points of area, less one for the warning, 1 to White, komi 7.5. */
	const char *want = "B+71.5";
	r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.result"), want);
	ck_assert_msg(json_is_array(hj_get(r, "game.dead")) && json_array_size(hj_get(r, "game.dead")) == 1 &&
		      hj_has_str(r, "game.dead", "C3"), "game.dead: %s", hj_text(r));
	json_decref(r);
	r = hc_req(a, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)g);
	OK(r);
	const char *text = hj_str(r, "sgf");
	ck_assert(text != NULL);
	struct sgf_game sg;
	struct sgf_error err;
	ck_assert_msg(sgf_parse(text, strlen(text), &sg, &err) == SGF_OK, "%s", err.message);
	ck_assert_int_eq(sg.warnings_black, 1);
	ck_assert_int_eq(sg.warnings_white, 0);
	ck_assert_int_eq((int)sg.nterritory_black, 80); /* every point but E5: C3 is dead */
	ck_assert_int_eq((int)sg.nterritory_white, 0);
	sgf_game_free(&sg);
	char path[HARNESS_PATH_MAX];
	snprintf(path, sizeof path, "%s/count.sgf", D.dir);
	FILE *f = fopen(path, "w");
	ck_assert(f != NULL);
	fputs(text, f);
	fclose(f);
	json_decref(r);

	/* tengen score reproduces RE from the record alone. */
	const char *tengen = getenv("TENGEN");
	char cmd[2 * HARNESS_PATH_MAX];
	snprintf(cmd, sizeof cmd, "'%s' score '%s'", tengen ? tengen : "./client/tengen", path);
	FILE *p = popen(cmd, "r");
	ck_assert(p != NULL);
	json_error_t je;
	json_t *rep = json_loadf(p, JSON_DISABLE_EOF_CHECK, &je);
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_msg(rep != NULL, "tengen score printed no JSON: %s", je.text);
	ck_assert_msg(strcmp(hj_str(rep, "result"), want) == 0 &&
		      strcmp(hj_str(rep, "recorded_result"), want) == 0,
		      "tengen score: %s, the record says %s", hj_text(rep), want);
	json_decref(rep);

	/* An independent reader: GNU Go loads the record and counts it. */
	if (access(GNUGO, X_OK) == 0) {
		snprintf(cmd, sizeof cmd, "printf 'loadsgf %s\\nfinal_score\\nquit\\n' | %s --mode gtp 2>&1",
			 path, GNUGO);
		p = popen(cmd, "r");
		ck_assert(p != NULL);
		char out[4096];
		size_t n = fread(out, 1, sizeof out - 1, p);
		out[n] = '\0';
		pclose(p);
		ck_assert_msg(strncmp(out, "= ", 2) == 0 && !strstr(out, "\n?"),
			      "GNU Go did not load the record: %s", out);
		/* Its own judgement of life and death on this near-empty board is its own: only
		 * that it counts the record (final_score answers "= B+..." or "= W+..."). */
		ck_assert_msg(strstr(out, "\n= B+") || strstr(out, "\n= W+") || strstr(out, "\n= 0"),
			      "GNU Go's final_score: %s", out);
	}
	hc_close(a);
	hc_close(b);
}
END_TEST

/* ---- the group commit's sync (issue 22) ---- */

/* With --sync power-safe-thread the WAL's fsync runs on the syncer thread after the commit,
 * and no reply or event goes out before it returns: with the sync made 400 ms slow, a move's reply
 * and the opponent's game.move come no sooner, and a ping sent while that sync runs waits for
 * it too (its bytes were queued during the sync). With power-safe the sync is the commit's
 * own (no thread, so no delay). */
#define SYNC_DELAY_MS 400

static long long timed_move_ms(struct hc *a, struct hc *b, long long g, const char *v, int n)
{
	long long t0 = st_now_ms();
	st_move_ok(a, b, g, v, n);
	return st_now_ms() - t0;
}

#define THREAD_NAME_TRIES 200   /* has_thread looks this many times, */
#define THREAD_NAME_PAUSE_MS 10 /* ... this long apart (threads name themselves as they start) */

/* Whether process pid has a thread named `name` (/proc/PID/task/TID/comm), waiting up to
 * THREAD_NAME_TRIES x THREAD_NAME_PAUSE_MS for the threads to name themselves. */
static bool has_thread(pid_t pid, const char *name)
{
	for (int tries = 0; tries < THREAD_NAME_TRIES; tries++) {
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
		DIR *dir = opendir(path);
		if (!dir)
			return false;
		bool found = false;
		for (struct dirent *e; !found && (e = readdir(dir)) != NULL;) {
			if (e->d_name[0] == '.')
				continue;
			char comm[64] = "";
			snprintf(path, sizeof path, "/proc/%d/task/%.16s/comm", (int)pid, e->d_name);
			FILE *f = fopen(path, "r");
			if (f) {
				if (fgets(comm, sizeof comm, f))
					comm[strcspn(comm, "\n")] = '\0';
				fclose(f);
			}
			found = strcmp(comm, name) == 0;
		}
		closedir(dir);
		if (found)
			return true;
		usleep(THREAD_NAME_PAUSE_MS * 1000);
	}
	return false;
}

START_TEST(test_replies_wait_for_sync)
{
	struct hd d;
	static const char *const slow[] = {"--sync", "power-safe-thread", "--sync-test-delay-ms",
					   "400", NULL};
	st_start(&d, slow);
	ck_assert_msg(hd_log_has(&d, "syncer mode=thread"), "no syncer thread logged");
	/* The threads carry their names (top -H, docs/architecture.md). */
	static const char *const names[] = {"tengend-syncer", "tengend-upkeep", "tengend-writer"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		ck_assert_msg(has_thread(d.pid, names[i]), "no thread named %s", names[i]);
	struct hc *a = st_login(&d, "alice"), *b = st_login(&d, "bob");
	long long g = st_new_game(a, b);
	long long ms = timed_move_ms(a, b, g, "C3", 1);
	ck_assert_msg(ms >= SYNC_DELAY_MS, "a move answered in %lld ms, before its sync", ms);
	/* A ping sent while a move's sync runs is answered after that sync. */
	long long t0 = st_now_ms();
	char line[128];
	snprintf(line, sizeof line, "{\"id\":7,\"cmd\":\"play\",\"game\":%lld,\"vertex\":\"G7\"}", g);
	ck_assert_int_eq(hc_send_line(b, line), 0);
	usleep(50 * 1000);
	st_ping_ok(a);
	long long ping_ms = st_now_ms() - t0;
	ck_assert_msg(ping_ms >= SYNC_DELAY_MS, "a ping answered %lld ms after a move, before "
		      "the move's sync", ping_ms);
	hc_close(a);
	hc_close(b);
	st_finish(&d);

	static const char *const fast[] = {"--sync-test-delay-ms", "400", NULL}; /* power-safe */
	st_start(&d, fast);
	ck_assert(!hd_log_has(&d, "syncer mode=thread"));
	a = st_login(&d, "alice");
	b = st_login(&d, "bob");
	g = st_new_game(a, b);
	ms = timed_move_ms(a, b, g, "C3", 1);
	ck_assert_msg(ms < SYNC_DELAY_MS, "power-safe (the sync in the commit): a move took %lld "
		      "ms", ms);
	hc_close(a);
	hc_close(b);
	st_finish(&d);
}
END_TEST

/* Another process (an operator's `tengend grant`) gets the write lock beside a daemon under
 * steady writes with slow syncs: each iteration commits, so the lock is free between them
 * (grant took ~25 ms here). Holding the transaction open while a sync ran (one commit per
 * sync, tried and reverted) kept the lock through every sync: with 300 ms syncs grant took
 * 1.1 s here, and up to its 5 s busy timeout ("database is locked") with more writers. */
#define GRANT_WRITERS 6
START_TEST(test_grant_beside_slow_syncs)
{
	struct hd d;
	static const char *const slow[] = {"--sync", "power-safe-thread", "--sync-test-delay-ms",
					   "600", NULL};
	st_start(&d, slow);
	struct hc *w[GRANT_WRITERS];
	for (int i = 0; i < GRANT_WRITERS; i++) {
		char name[16];
		snprintf(name, sizeof name, "gw%d", i);
		w[i] = st_login(&d, name);
	}
	hc_close(st_login(&d, "gtarget"));
	/* each writer sends its next change as soon as the last is answered, as clients do */
	char line[128];
	int n = 0;
	for (int i = 0; i < GRANT_WRITERS; i++) {
		snprintf(line, sizeof line, "{\"id\":%d,\"cmd\":\"player.update\",\"club\":\"C%d\"}",
			 n, n);
		n++;
		ck_assert_int_eq(hc_send_line(w[i], line), 0);
	}
	pid_t pid = 0;
	long long t0 = st_now_ms(), tg = 0, took = -1;
	int st = 0;
	while (st_now_ms() - t0 < 12000) {
		if (!pid && st_now_ms() - t0 >= 1000) { /* the writes under way: grant now */
			pid = fork();
			ck_assert_int_ge(pid, 0);
			if (pid == 0)
				_exit(hd_grant(&d, "gtarget", "td"));
			tg = st_now_ms();
		}
		for (int i = 0; i < GRANT_WRITERS; i++) {
			json_t *r = hc_next(w[i], 0);
			if (!r)
				continue;
			json_decref(r);
			snprintf(line, sizeof line, "{\"id\":%d,\"cmd\":\"player.update\",\"club\":\"C%d\"}",
				 n, n % 1000);
			n++;
			ck_assert_int_eq(hc_send_line(w[i], line), 0);
		}
		if (pid && waitpid(pid, &st, WNOHANG) == pid) {
			took = st_now_ms() - tg;
			break;
		}
		usleep(200);
	}
	fprintf(stderr, "test_grant_beside_slow_syncs: grant took %lld ms\n", took);
	ck_assert_msg(took >= 0, "tengend grant still waiting after 11 s");
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "tengend grant failed (status %d) "
		      "after %lld ms beside the daemon's writes", st, took);
	ck_assert_msg(took < 1000, "tengend grant took %lld ms", took);
	for (int i = 0; i < GRANT_WRITERS; i++)
		hc_close(w[i]);
	st_finish(&d);
}
END_TEST

/* One number from the daemon's database through the sqlite3 command-line shell (another
 * process, as an operator's would be); -1 on failure. */
static long long db_int(const char *sql)
{
	char cmd[HARNESS_PATH_MAX + 512];
	snprintf(cmd, sizeof cmd, "sqlite3 -cmd '.timeout 5000' '%s' \"%s\" 2>&1", D.db, sql);
	FILE *f = popen(cmd, "r");
	long long v = -1;
	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		pclose(f);
	}
	return v;
}

/* A fold of the move journal that fails (a row written behind the server's back collides
 * with a folded move) leaves the moves where they are: play goes on, the failure is logged
 * and retried, and once the obstacle is gone the journal is folded and nothing was lost. The
 * fixture runs tengend with --fold-rows 3. */
START_TEST(test_fold_failure)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a, b);
	static const char *const first[] = {"C3", "G7", "C7", "G3"};
	st_moves_ok(a, b, g, first, 4, 1);
	ck_assert_int_ge(db_int("SELECT count(*) FROM moves"), 3); /* folded */
	char sql[256];
	snprintf(sql, sizeof sql, "INSERT INTO move_journal (game_id, number, color, vertex, at) "
		 "VALUES (%lld, 1, 'B', 'C3', -1); SELECT changes()", g);
	ck_assert_int_eq(db_int(sql), 1);
	static const char *const more[] = {"E5", "D4", "F6", "D6"};
	st_moves_ok(a, b, g, more, 4, 5);
	for (int i = 0; i < 50 && !hd_log_has(&D, "retry_ms="); i++)
		usleep(100 * 1000);
	ck_assert_msg(hd_log_has(&D, "retry_ms="), "no failed fold logged");
	ck_assert_int_ge(db_int("SELECT count(*) FROM move_journal"), 2);
	st_ping_ok(a);

	/* The obstacle gone, a retry folds everything: 8 moves, each once. */
	ck_assert_int_eq(db_int("DELETE FROM move_journal WHERE at = -1; SELECT changes()"), 1);
	long long left = -1;
	for (int i = 0; i < 100 && (left = db_int("SELECT count(*) FROM move_journal")) != 0; i++) {
		usleep(100 * 1000);
		st_ping_ok(a); /* an iteration of the loop */
	}
	ck_assert_int_eq(left, 0);
	snprintf(sql, sizeof sql, "SELECT count(DISTINCT number) * 100 + count(*) FROM moves "
		 "WHERE game_id = %lld", g);
	ck_assert_int_eq(db_int(sql), 808);
	st_move_ok(a, b, g, "E3", 9);
	json_t *before = st_game_state(a, g);
	ck_assert_int_eq(hd_kill(&D), 0);
	hc_close(a);
	hc_close(b);
	ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart after kill -9");
	a = st_login(&D, "alice");
	st_expect_same_state(a, g, before, "a failed fold, its retry, kill -9 and restart");
	json_decref(before);
	hc_close(a);
}
END_TEST

/* Many live games with the journal folded by the upkeep thread all along (--fold-rows 3: a
 * fold after every few moves, in slices beside the loop's commits), then kill -9 in the
 * middle of play: every game comes back as it was acknowledged, each move once, in one of
 * the two tables (issue 22: a crash between the journal and the write-out). */
#define MANY_GAMES 24
#define MANY_ROUNDS 6
static const char *const many_moves[MANY_ROUNDS] = {"C3", "G7", "C7", "G3", "E5", "D4"};

START_TEST(test_restart_many_games)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g[MANY_GAMES];
	for (int i = 0; i < MANY_GAMES; i++)
		g[i] = st_new_game(a, b);
	for (int r = 0; r < MANY_ROUNDS; r++)
		for (int i = 0; i < MANY_GAMES; i++) {
			struct hc *mover = r % 2 ? b : a, *other = r % 2 ? a : b;
			st_move_ok(mover, other, g[i], many_moves[r], r + 1);
		}
	json_t *before[MANY_GAMES];
	for (int i = 0; i < MANY_GAMES; i++)
		before[i] = st_game_state(a, g[i]);
	ck_assert_int_eq(hd_kill(&D), 0);
	hc_close(a);
	hc_close(b);
	/* Each move once: in moves, in the journal, or, killed between a fold's copy and its
	 * delete (docs/architecture.md, "No storage maintenance on the loop"), in both as the same
	 * move, once in each. (This counted the rows of the two tables together, which a kill in
	 * that window made fail: 147 rows for 144 moves in one CI run.) */
	ck_assert_int_eq(db_int("SELECT count(*) FROM (SELECT game_id, number FROM moves UNION "
				"SELECT game_id, number FROM move_journal)"), MANY_GAMES * MANY_ROUNDS);
	ck_assert_int_eq(db_int("SELECT count(*) - count(DISTINCT game_id || ':' || number) "
				"FROM move_journal"), 0);
	ck_assert_int_eq(db_int("SELECT count(*) FROM move_journal j JOIN moves m "
				"USING (game_id, number) WHERE j.color <> m.color OR "
				"j.vertex <> m.vertex OR j.at <> m.at"), 0);
	ck_assert_int_gt(db_int("SELECT count(*) FROM moves"), 0); /* folds ran */
	ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart after kill -9");
	a = st_login(&D, "alice");
	for (int i = 0; i < MANY_GAMES; i++) {
		st_expect_same_state(a, g[i], before[i], "many games, folds, kill -9 and restart");
		json_decref(before[i]);
	}
	ck_assert_int_eq(db_int("SELECT count(*) FROM move_journal"), 0); /* folded at the start */
	hc_close(a);
}
END_TEST

static Suite *persist_suite(void)
{
	Suite *s = suite_create("persist");
	TCase *tc = tcase_create("persist");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, test_fold_failure);
	tcase_add_test(tc, test_restart);
	tcase_add_test(tc, test_restart_after_resume);
	tcase_add_test(tc, test_restart_counting);
	tcase_add_test(tc, test_restart_pending);
	tcase_add_test(tc, test_count_kept);
	tcase_add_test(tc, test_restart_many_games);
	tcase_add_test(tc, test_replies_wait_for_sync);
	tcase_add_test(tc, test_grant_beside_slow_syncs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	/* Every flush goes through the writer thread (server/transport/writer.c), closes and restarts included. */
	setenv("TENGEN_TEST_WRITER_MIN", "1", 0);
	/* Fold the move journal every few moves: games read from both tables. */
	setenv("TENGEN_TEST_FOLD_ROWS", "3", 0);
	SRunner *sr = srunner_create(persist_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
