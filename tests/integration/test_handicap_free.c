/* Integration tests of free handicap placement (issue 19; Chinese Rules 2002, Art. 2; GTP 2
 * §6.3.3 place_free_handicap / set_free_handicap) over TCP against the real tengend: the
 * challenge option `handicap_placement`, the `handicap` command's refusals (wrong count, a
 * duplicate, off the board, a pass, not Black, after the placement, moves before it), the
 * placement kept across kill -9 (both before and after it), the count, and the record: AB
 * and HA read back by our reader, by `tengen score` and by GNU Go (`loadsgf`).
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon in a fresh
 * directory. Boards are 9x9; vertices are GTP ("D4", no I column).
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "sgf.h"
#include "srvtest.h"

#define TEST_TIMEOUT_S 60          /* per test (Check's own timeout) */
#define GNUGO "/usr/games/gnugo"

static struct hd D; /* the default daemon of the fixture */

static void setup(void)
{
	st_start(&D, NULL);
}

static void teardown(void)
{
	st_finish(&D);
}

static json_t *place(struct hc *c, long long g, json_t *stones)
{
	return hc_req(c, "{s:s, s:I, s:o}", "cmd", "handicap", "game", (json_int_t)g, "stones", stones);
}

/* The reply is an error with `code` (and, if not NULL, a message containing `text`). */
static void expect_err(json_t *r, const char *code, const char *text)
{
	ck_assert_msg(!hj_ok(r) && strcmp(hj_err(r), code) == 0, "expected %s, got %s", code,
		      hj_text(r));
	if (text)
		ck_assert_msg(strstr(hj_str(r, "error.message"), text) != NULL,
			      "message without '%s': %s", text, hj_text(r));
	json_decref(r);
}

/* The game is still waiting for Black's placement: no stone, no move, Black to move. */
static void expect_due(struct hc *c, long long g)
{
	json_t *r = st_game_get(c, g);
	ck_assert_pstr_eq(hj_str(r, "game.handicap_placement"), "free");
	ck_assert_int_eq(hj_int(r, "game.handicap"), 3);
	ck_assert_msg(json_array_size(hj_get(r, "game.handicap_stones")) == 0 &&
		      json_array_size(hj_get(r, "game.moves")) == 0, "%s", hj_text(r));
	ck_assert_pstr_eq(hj_str(r, "game.to_move"), "B");
	for (size_t i = 0; i < 9; i++)
		ck_assert_pstr_eq(json_string_value(json_array_get(hj_get(r, "game.board"), i)),
				  ".........");
	json_decref(r);
}

static void restart(struct hc **a, struct hc **b)
{
	ck_assert_int_eq(hd_kill(&D), 0);
	ck_assert_msg(hd_sanitizer_report(&D) == NULL, "sanitizer report before the kill: %s", D.log);
	hc_close(*a);
	hc_close(*b);
	ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart after kill -9");
	*a = st_login(&D, "alice");
	*b = st_login(&D, "bob");
}

START_TEST(test_challenge_option)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	expect_err(hc_req(a, "{s:s, s:s, s:i, s:s}", "cmd", "challenge", "opponent", "bob", "size", 9,
			  "handicap_placement", "free"), "bad_request", "handicap_placement");
	expect_err(hc_req(a, "{s:s, s:s, s:i, s:i, s:s}", "cmd", "challenge", "opponent", "bob",
			  "size", 9, "handicap", 3, "handicap_placement", "anywhere"), "bad_request",
		   "handicap_placement");
	/* 7x7 holds 4 stones (as with fixed points): 5 free ones are refused too. */
	expect_err(hc_req(a, "{s:s, s:s, s:i, s:i, s:s}", "cmd", "challenge", "opponent", "bob",
			  "size", 7, "handicap", 5, "handicap_placement", "free"), "bad_request",
		   "handicap");
	/* The challenge event's settings say which placement. */
	json_t *r = hc_req(a, "{s:s, s:s, s:i, s:i, s:s}", "cmd", "challenge", "opponent", "bob",
			   "size", 9, "handicap", 2, "handicap_placement", "free");
	OK(r);
	json_decref(r);
	r = hc_req(a, "{s:s}", "cmd", "challenges");
	ck_assert_pstr_eq(hj_str(r, "challenges.0.settings.handicap_placement"), "free");
	json_decref(r);
	hc_close(a);
	hc_close(b);
}
END_TEST

START_TEST(test_refusals_restart_record)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game_ex(a, b, 9, json_pack("{s:i, s:s, s:f}", "handicap", 3,
							"handicap_placement", "free", "komi", 0.5));
	expect_due(a, g);
	/* No move before the stones, by either side; nothing changes (no warning). */
	expect_err(st_play(b, g, "E5"), "conflict", "handicap");
	expect_err(st_play(a, g, "E5"), "conflict", "handicap");
	expect_err(place(b, g, json_pack("[s,s,s]", "C3", "G7", "E5")), "forbidden", "Black");
	expect_err(place(a, g, json_pack("[s,s]", "C3", "G7")), "bad_request", "3 stones");
	expect_err(place(a, g, json_pack("[s,s,s,s]", "C3", "G7", "E5", "C7")), "bad_request",
		   "3 stones");
	expect_err(place(a, g, json_pack("[s,s,s]", "C3", "G7", "C3")), "illegal_move",
		   "the same point twice at C3");
	/* named as the server writes vertices, whatever the client's case */
	expect_err(place(a, g, json_pack("[s,s,s]", "C3", "g7", "c3")), "illegal_move",
		   "the same point twice at C3");
	expect_err(place(a, g, json_pack("[s,s,s]", "C3", "G7", "K10")), "bad_request", "K10");
	expect_err(place(a, g, json_pack("[s,s,s]", "C3", "pass", "E5")), "bad_request", "pass");
	expect_err(place(a, g, json_pack("[s,s,i]", "C3", "G7", 5)), "bad_request", NULL);
	expect_due(a, g);
	json_t *r = st_game_get(a, g);
	ck_assert_int_eq(hj_int(r, "game.warnings.B") + hj_int(r, "game.warnings.W"), 0);
	json_decref(r);

	/* A restart while the placement is due: still due. */
	restart(&a, &b);
	expect_due(b, g);

	r = place(a, g, json_pack("[s,s,s]", "C3", "G7", "E5"));
	OK(r);
	ck_assert_msg(json_array_size(hj_get(r, "stones")) == 3 && hj_has_str(r, "stones", "G7"),
		      "%s", hj_text(r));
	json_decref(r);
	struct hc *who[2] = {a, b};
	for (int i = 0; i < 2; i++) {
		json_t *e = hc_event(who[i], "game.handicap", g, T);
		ck_assert_msg(e != NULL, "%s got no game.handicap", who[i]->name);
		ck_assert_pstr_eq(hj_str(e, "to_move"), "W");
		ck_assert_msg(hj_has_str(e, "stones", "C3") && hj_has_str(e, "stones", "E5"), "%s",
			      hj_text(e));
		json_decref(e);
	}
	/* After the placement: no second one, and Black does not move first (Art. 2). */
	expect_err(place(a, g, json_pack("[s,s,s]", "C7", "G3", "D4")), "conflict", "already placed");
	r = st_play(a, g, "D4");
	st_expect_illegal(r, "not_your_turn", 0, 1, 1, 0);
	json_decref(r);
	st_expect_warning_event(a, b, g, "B", "not_your_turn", 1);
	st_move_ok(b, a, g, "D4", 1);

	/* kill -9 after a move: the stones and the move are back, White's D4 next to them. */
	json_t *before = st_game_state(a, g);
	restart(&a, &b);
	st_expect_same_state(a, g, before, "kill -9 after the free placement");
	json_decref(before);
	r = st_game_get(b, g);
	ck_assert_pstr_eq(hj_str(r, "game.handicap_placement"), "free");
	ck_assert_msg(json_array_size(hj_get(r, "game.handicap_stones")) == 3 &&
		      hj_has_str(r, "game.handicap_stones", "G7"), "%s", hj_text(r));
	ck_assert_pstr_eq(hj_str(r, "game.to_move"), "B");
	json_decref(r);
	expect_err(place(a, g, json_pack("[s,s,s]", "C7", "G3", "D6")), "conflict", "already placed");

	st_move_ok(a, b, g, "F4", 2);
	st_move_ok(b, a, g, "pass", 3);
	st_move_ok(a, b, g, "pass", 4);
	st_expect_counting(a, b, g);
	OK(r = st_dead(a, g, json_pack("[]")));
	json_decref(r);
	OK(r = st_dead(b, g, json_pack("[]")));
	json_decref(r);
	/* The 76 empty points shared (one region touching both): Black 4 + 38 - 1 (a warning),
	 * White 1 + 38 + 1, komi 0.5 + 3 (Art. 11): W+2.5. */
	const char *want = "W+2.5";
	who[0] = a;
	who[1] = b;
	for (int i = 0; i < 2; i++) {
		json_t *e = hc_event(who[i], "game.end", g, T);
		ck_assert_msg(e != NULL, "%s got no game.end", who[i]->name);
		ck_assert_pstr_eq(hj_str(e, "result"), want);
		ck_assert_msg(hj_num(e, "score.komi") == 3.5 && hj_num(e, "score.black") == 41 &&
			      hj_num(e, "score.white") == 40, "%s", hj_text(e));
		json_decref(e);
	}

	/* The record: HA[3], AB with the three stones, the effective komi. */
	r = hc_req(a, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)g);
	OK(r);
	const char *text = hj_str(r, "sgf");
	ck_assert(text != NULL);
	ck_assert_msg(strstr(text, "HA[3]") && strstr(text, "AB[") && strstr(text, "KM[3.5]"), "%s",
		      text);
	struct sgf_game sg;
	struct sgf_error err;
	ck_assert_msg(sgf_parse(text, strlen(text), &sg, &err) == SGF_OK, "%s", err.message);
	ck_assert_int_eq(sg.handicap, 3);
	ck_assert_uint_eq(sg.nsetup_black, 3);
	ck_assert_uint_eq(sg.nsetup_white, 0);
	sgf_game_free(&sg);
	char path[HARNESS_PATH_MAX];
	snprintf(path, sizeof path, "%s/free.sgf", D.dir);
	FILE *f = fopen(path, "w");
	ck_assert(f != NULL);
	fputs(text, f);
	fclose(f);
	json_decref(r);

	/* tengen score counts the record the same. */
	const char *tengen = getenv("TENGEN");
	char cmd[2 * HARNESS_PATH_MAX];
	snprintf(cmd, sizeof cmd, "'%s' score '%s'", tengen ? tengen : "./client/tengen", path);
	FILE *p = popen(cmd, "r");
	ck_assert(p != NULL);
	json_error_t je;
	json_t *rep = json_loadf(p, JSON_DISABLE_EOF_CHECK, &je);
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_msg(rep != NULL, "tengen score printed no JSON: %s", je.text);
	ck_assert_msg(strcmp(hj_str(rep, "result"), want) == 0, "tengen score: %s", hj_text(rep));
	json_decref(rep);

	/* GNU Go loads it: the free stones where Black put them, White's D4, Black to move. */
	if (access(GNUGO, X_OK) == 0) {
		snprintf(cmd, sizeof cmd, "printf 'loadsgf %s\\ncolor C3\\ncolor G7\\ncolor E5\\n"
			 "color D4\\ncolor C7\\nquit\\n' | %s --mode gtp 2>&1", path, GNUGO);
		p = popen(cmd, "r");
		ck_assert(p != NULL);
		char out[4096];
		size_t n = fread(out, 1, sizeof out - 1, p);
		out[n] = '\0';
		pclose(p);
		ck_assert_msg(strstr(out, "= black\n\n= black\n\n= black\n\n= white\n\n= empty\n"),
			      "GNU Go read the record otherwise: %s", out);
	}
	hc_close(a);
	hc_close(b);
}
END_TEST

static Suite *handicap_suite(void)
{
	Suite *s = suite_create("handicap_free");
	TCase *tc = tcase_create("handicap_free");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, test_challenge_option);
	tcase_add_test(tc, test_refusals_restart_record);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(handicap_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
