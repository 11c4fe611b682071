/* Integration tests of a director's over-the-board event (issue 16 item 1) against a real
 * tengend (TENGEND, else ./server/tengend), over TCP through tests/support/harness and
 * tests/support/tourtest: a `venue: "board"` event's games have no start time, run no clock
 * and declare no lateness (they do not void as double no-shows), take the director's results,
 * and begin on the server only when both players have joined; `lateness_limit_s: 0` means no
 * lateness limit (it used to be taken as 900 s), kept over a restart. Rules: docs/rules.md
 * §2 (Art. 22), §4; wire: docs/protocol.md, tournament.create.
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon in a fresh
 * directory.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "tourtest.h"

#define TEST_TIMEOUT_S 60   /* per test (Check's own timeout) */
#define LIMIT_S 1           /* the short lateness limit of these tests */
#define PAST_LIMIT_US 2500000 /* a wait well past start + LIMIT_S */

/* The `game` reply for g (new reference), checked ok. */
static json_t *game_of(struct hc *c, long long g)
{
	json_t *r = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	OK(r);
	return r;
}

/* Start the next round of tournament `id` now; the game ids of its pairings into g[] (at most
 * max); returns how many. The reply's start_at: null at real boards (the games have none), the
 * time asked for online. */
static int start_round(struct hc *td, long long id, long long *g, int max)
{
	double at = tt_wall_s();
	json_t *r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament",
			   (json_int_t)id, "start_at", at);
	OK(r);
	json_t *t = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)id);
	OK(t);
	if (strcmp(hj_str(t, "tournament.settings.venue"), "board") == 0)
		ck_assert_msg(json_is_null(json_object_get(r, "start_at")), "start_at: %s", hj_text(r));
	else
		ck_assert_msg(fabs(json_number_value(json_object_get(r, "start_at")) - at) < 1e-3,
			      "start_at: %s", hj_text(r));
	json_decref(t);
	int n = 0;
	size_t k;
	json_t *p;
	json_array_foreach(hj_get(r, "pairings"), k, p)
		if (n < max)
			g[n++] = hj_int(p, "game");
	json_decref(r);
	return n;
}

/* A board event: past the lateness limit the games are still scheduled, without a result; the
 * director's results stand; a game both players join begins on the server (game.begin),
 * one joined player alone does not start it, and nobody is late. */
START_TEST(test_board_venue)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	tt_players(&e, "bv", 2, names);
	e.td = tt_director("bv_td");
	json_t *r = hc_req(e.td, "{s:s, s:s, s:s, s:i, s:f, s:b, s:i, s:s, s:i}", "cmd",
			   "tournament.create", "name", "BV Open", "system", "swiss", "size", TT_BOARD,
			   "komi", 0.0, "rated", 0, "rounds", 2, "venue", "board", "lateness_limit_s",
			   LIMIT_S);
	OK(r);
	e.id = hj_int(r, "tournament");
	ck_assert_pstr_eq(hj_str(r, "venue"), "board");
	ck_assert_int_eq(hj_int(r, "rounds"), 2);
	json_decref(r);
	for (int i = 0; i < e.n; i++)
		tt_register(&e, i);
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)e.id);
	ck_assert_pstr_eq(hj_str(r, "tournament.settings.venue"), "board");
	json_decref(r);

	long long g[4];
	ck_assert_int_eq(start_round(e.td, e.id, g, 4), 1);
	usleep(PAST_LIMIT_US);
	r = game_of(e.td, g[0]);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "scheduled");
	ck_assert_ptr_null(hj_str(r, "game.result"));
	ck_assert_ptr_null(hj_get(r, "game.start_at"));
	json_decref(r);
	ck_assert_msg(!hc_has_event(e.c[0], "game.end", g[0]), "a board game ended by itself");
	/* The director's result. */
	tt_req_ok(e.td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
				  (json_int_t)g[0], "result", "b+r"));
	r = game_of(e.td, g[0]);
	ck_assert_pstr_eq(hj_str(r, "game.result"), "B+R");
	const char *black = hj_str(r, "game.black");
	ck_assert_ptr_nonnull(black);
	char bname[32];
	snprintf(bname, sizeof bname, "%s", black);
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)e.id);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "standings.0.player"), bname);
	ck_assert_int_eq(hj_int(r, "standings.0.points"), 2);
	ck_assert_int_eq(hj_int(r, "standings.1.points"), 0);
	json_decref(r);

	/* Round 2 on the server: one player joins, nothing starts; the other joins: it begins. */
	ck_assert_int_eq(start_round(e.td, e.id, g, 4), 1);
	r = game_of(e.td, g[0]);
	int bi = strcmp(hj_str(r, "game.black"), e.names[0]) == 0 ? 0 : 1;
	json_decref(r);
	struct hc *bc = e.c[bi], *wc = e.c[1 - bi];
	r = hc_req(wc, "{s:s, s:I}", "cmd", "join", "game", (json_int_t)g[0]);
	OK(r);
	json_decref(r);
	usleep(PAST_LIMIT_US);
	r = game_of(e.td, g[0]);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "scheduled");
	json_decref(r);
	ck_assert_msg(!hc_has_event(wc, "game.begin", g[0]), "began with one player");
	r = hc_req(bc, "{s:s, s:I}", "cmd", "join", "game", (json_int_t)g[0]);
	OK(r);
	ck_assert_int_eq(hj_int(r, "late_ms"), 0);
	json_decref(r);
	json_t *ev = hc_event(wc, "game.begin", g[0], T);
	ck_assert_msg(ev != NULL, "no game.begin when both joined");
	json_decref(ev);
	tt_mv(bc, g[0], "E5");
	r = game_of(e.td, g[0]);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "playing");
	ck_assert_int_eq(json_array_size(hj_get(r, "game.moves")), 1);
	json_decref(r);
	tt_req_ok(bc, json_pack("{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g[0]));
	r = game_of(e.td, g[0]);
	ck_assert_pstr_eq(hj_str(r, "game.result"), "W+R");
	json_decref(r);
	tt_close_all(&e);
}
END_TEST

/* lateness_limit_s 0: no limit. After the start both players are absent, yet the game goes
 * on (Black's clock runs) where a 1 s limit voids its game; the limit survives a restart. */
START_TEST(test_lateness_zero)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	tt_players(&e, "lz", 4, names);
	e.td = tt_director("lz_td");
	long long t0 = tt_create(e.td, "LZ none", "swiss", json_pack("{s:i, s:i}", "rounds", 1,
				 "lateness_limit_s", 0));
	long long t1 = tt_create(e.td, "LZ one", "swiss", json_pack("{s:i, s:i}", "rounds", 1,
				 "lateness_limit_s", LIMIT_S));
	for (int i = 0; i < 4; i++)
		tt_req_ok(e.td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
					  (json_int_t)(i < 2 ? t0 : t1), "player", e.names[i]));
	long long g0, g1;
	ck_assert_int_eq(start_round(e.td, t0, &g0, 1), 1);
	ck_assert_int_eq(start_round(e.td, t1, &g1, 1), 1);
	json_t *r = game_of(e.td, g0);
	ck_assert_int_eq(hj_int(r, "game.lateness_limit_s"), 0);
	json_decref(r);
	usleep(PAST_LIMIT_US);
	r = game_of(e.td, g1);
	ck_assert_pstr_eq(hj_str(r, "game.result"), "Void");
	ck_assert_pstr_eq(hj_str(r, "game.reason"), "double_forfeit");
	json_decref(r);
	r = game_of(e.td, g0);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "playing");
	ck_assert_ptr_null(hj_str(r, "game.result"));
	json_decref(r);
	/* The limit is stored: 0 after a restart too. */
	tt_close_all(&e);
	ck_assert_int_eq(hd_stop(&tt_d), 0);
	ck_assert_int_eq(hd_restart(&tt_d), 0);
	struct hc *c = hc_login_new(tt_d.port, "lz_td");
	ck_assert_ptr_nonnull(c);
	r = game_of(c, g0);
	ck_assert_int_eq(hj_int(r, "game.lateness_limit_s"), 0);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "playing");
	json_decref(r);
	hc_close(c);
}
END_TEST

/* A board game over a restart: still scheduled without a start time (no timer to fire), and
 * the director's result after it stands. */
START_TEST(test_board_restart)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	tt_players(&e, "br", 2, names);
	e.td = tt_director("br_td");
	long long t = tt_create(e.td, "BR Open", "swiss", json_pack("{s:i, s:s, s:i}", "rounds", 1,
				"venue", "board", "lateness_limit_s", LIMIT_S));
	for (int i = 0; i < 2; i++)
		tt_req_ok(e.td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
					  (json_int_t)t, "player", e.names[i]));
	long long g;
	ck_assert_int_eq(start_round(e.td, t, &g, 1), 1);
	tt_close_all(&e);
	ck_assert_int_eq(hd_stop(&tt_d), 0);
	ck_assert_int_eq(hd_restart(&tt_d), 0);
	usleep(PAST_LIMIT_US);
	struct hc *c = hc_login_new(tt_d.port, "br_td");
	ck_assert_ptr_nonnull(c);
	json_t *r = game_of(c, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "scheduled");
	ck_assert_ptr_null(hj_get(r, "game.start_at"));
	ck_assert_ptr_null(hj_str(r, "game.result"));
	json_decref(r);
	tt_req_ok(c, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.result", "game", (json_int_t)g,
			       "result", "w+3"));
	r = game_of(c, g);
	ck_assert_pstr_eq(hj_str(r, "game.result"), "W+3");
	json_decref(r);
	hc_close(c);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("td_venue");
	TCase *tc = tcase_create("venue");
	tcase_add_checked_fixture(tc, tt_setup, tt_teardown);
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, test_board_venue);
	tcase_add_test(tc, test_lateness_zero);
	tcase_add_test(tc, test_board_restart);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
