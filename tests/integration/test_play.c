/* Integration tests of play with tengend (TENGEND, else ./server/tengend), driven over TCP
 * through tests/support/harness and tests/support/srvtest, against the contract (docs/protocol.md) and the
 * rules (docs/rules.md): a full game to the count, a disputed count, the referee's penalties,
 * a move's number, resignation, and who hears a game: a player's two connections, an observer,
 * the bytes of a move's reply and events.
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon in a fresh
 * directory; the daemon must stop cleanly on SIGTERM (exit status 0) and its log must hold no
 * AddressSanitizer, UBSan or LeakSanitizer report. Boards are 9x9 unless said otherwise;
 * vertices are GTP ("D4", no I column).
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "harness.h"
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

/* ---- a full game ---- */

START_TEST(test_full_game)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	json_t *r = hc_req(a, "{s:s, s:s, s:i, s:f, s:s}", "cmd", "challenge", "opponent", "bob",
			   "size", 9, "komi", 7.5, "color", "black");
	OK(r);
	long long g = hj_int(r, "game");
	ck_assert_int_gt(g, 0);
	json_decref(r);
	json_t *e = hc_event(b, "challenge", g, T);
	ck_assert_msg(e != NULL, "bob got no challenge event");
	ck_assert_pstr_eq(hj_str(e, "from"), "alice");
	ck_assert_int_eq(hj_int(e, "settings.size"), 9);
	ck_assert_msg(hj_num(e, "settings.komi") == 7.5, "komi: %s", hj_text(e));
	json_decref(e);
	/* Before the accept the game is pending; only the challenged player may accept. */
	r = st_game_get(b, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "pending");
	json_decref(r);
	r = hc_req(a, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g);
	ck_assert_msg(!hj_ok(r), "the challenger accepted his own challenge: %s", hj_text(r));
	json_decref(r);
	r = hc_req(b, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
	struct hc *who[2] = {a, b};
	const char *colour[2] = {"B", "W"};
	for (int i = 0; i < 2; i++) {
		e = hc_event(who[i], "game.start", g, T);
		ck_assert_msg(e != NULL, "%s got no game.start", who[i]->name);
		ck_assert_pstr_eq(hj_str(e, "color"), colour[i]);
		ck_assert_pstr_eq(hj_str(e, "black"), "alice");
		ck_assert_pstr_eq(hj_str(e, "white"), "bob");
		ck_assert_int_eq(hj_int(e, "size"), 9);
		ck_assert_int_eq(hj_int(e, "handicap"), 0);
		json_decref(e);
	}
	/* Walls on D and F; White's stone at B5 is captured by C5; B8 stays, dead. */
	static const char *const walls[] = {"D1", "F1", "D2", "F2", "D3", "F3", "D4", "F4", "D5",
		"F5", "D6", "F6", "D7", "F7", "D8", "F8", "D9", "F9", "B4", "b5", "A5", "E5", "B6", "B8"};
	st_moves_ok(a, b, g, walls, 24, 1);
	r = st_move(a, b, g, "C5", 25);
	ck_assert_msg(json_array_size(hj_get(r, "move.captures")) == 1 &&
			      strcasecmp(hj_str(r, "move.captures.0"), "B5") == 0,
		      "C5 should capture B5: %s", hj_text(r));
	ck_assert_pstr_eq(hj_str(r, "move.color"), "B");
	json_decref(r);
	r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.board.4"), "X.XXOO...");
	ck_assert_pstr_eq(hj_str(r, "game.to_move"), "W");
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "playing");
	json_decref(r);
	st_move_ok(b, a, g, "pass", 26);
	st_move_ok(a, b, g, "pass", 27);
	for (int i = 0; i < 2; i++) {
		e = hc_event(who[i], "game.counting", g, T);
		ck_assert_msg(e != NULL, "%s got no game.counting", who[i]->name);
		json_decref(e);
	}
	r = st_game_get(b, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "counting");
	json_decref(r);
	/* Play is over: a move now is refused without effect. */
	r = st_play(b, g, "J9");
	ERR(r, "conflict");
	json_decref(r);
	r = st_game_get(b, g);
	ck_assert(json_is_null(hj_get(r, "game.claims.B")) && json_is_null(hj_get(r, "game.claims.W")));
	json_decref(r);
	r = st_dead(a, g, json_pack("[s]", "B8"));
	OK(r);
	json_decref(r);
	ck_assert(!hc_has_event(a, "game.end", g));
	/* the claim so far is in the game object (a page reloaded in the count rebuilds it) */
	r = st_game_get(b, g);
	ck_assert_msg(json_array_size(hj_get(r, "game.claims.B")) >= 1 &&
		      json_is_null(hj_get(r, "game.claims.W")), "claims: %s", hj_text(hj_get(r, "game.claims")));
	json_decref(r);
	r = st_dead(b, g, json_pack("[s]", "b8"));
	OK(r);
	json_decref(r);
	/* Hand count: Black A-D 36 + half of E1-E4, E6-E9 = 40; White E5, F-J 37 + 4 = 41. */
	for (int i = 0; i < 2; i++) {
		e = hc_event(who[i], "game.end", g, T);
		ck_assert_msg(e != NULL, "%s got no game.end", who[i]->name);
		ck_assert_pstr_eq(hj_str(e, "result"), "W+8.5");
		ck_assert_pstr_eq(hj_str(e, "reason"), "score");
		ck_assert_msg(hj_num(e, "score.black") == 40 && hj_num(e, "score.white") == 41 &&
				      hj_num(e, "score.komi") == 7.5, "score: %s", hj_text(e));
		json_decref(e);
	}
	r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "ended");
	ck_assert_pstr_eq(hj_str(r, "game.result"), "W+8.5");
	ck_assert_pstr_eq(hj_str(r, "game.reason"), "score");
	ck_assert_pstr_eq(hj_str(r, "game.black"), "alice");
	ck_assert_pstr_eq(hj_str(r, "game.white"), "bob");
	ck_assert_int_eq(json_array_size(hj_get(r, "game.moves")), 27);
	ck_assert_msg(strcasecmp(hj_str(r, "game.moves.24.vertex"), "C5") == 0, "move 25: %s", hj_text(r));
	ck_assert_int_eq(json_array_size(hj_get(r, "game.board")), 9);
	ck_assert_pstr_eq(hj_str(r, "game.board.0"), "...X.O...");
	ck_assert_pstr_eq(hj_str(r, "game.board.3"), ".X.X.O...");
	ck_assert_pstr_eq(hj_str(r, "game.board.4"), "X.XXOO...");
	ck_assert_pstr_eq(hj_str(r, "game.board.8"), "...X.O...");
	ck_assert_int_eq(hj_int(r, "game.warnings.B"), 0);
	ck_assert_int_eq(hj_int(r, "game.warnings.W"), 0);
	json_decref(r);
	/* The record. */
	r = hc_req(b, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)g);
	OK(r);
	const char *sgf = hj_str(r, "sgf");
	ck_assert_msg(sgf != NULL, "no sgf: %s", hj_text(r));
	static const char *const want[] = {"RE[W+8.5]", "SZ[9]", "KM[7.5]", "PB[alice]", "PW[bob]",
		";B[di]", ";W[fi]", ";B[ce]", ";W[bb]", ";W[ee]", "DS[bb]" /* the dead W B8 */};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		ck_assert_msg(strstr(sgf, want[i]) != NULL, "the record lacks %s: %s", want[i], sgf);
	json_decref(r);
	/* The listing. */
	r = hc_req(b, "{s:s, s:s, s:s}", "cmd", "games", "player", "alice", "phase", "ended");
	OK(r);
	ck_assert_int_eq(json_array_size(hj_get(r, "games")), 1);
	ck_assert_int_eq(hj_int(r, "games.0.id"), g);
	ck_assert_pstr_eq(hj_str(r, "games.0.result"), "W+8.5");
	json_decref(r);
	/* A rated game played: a declared rank is refused, and that refusal is the client's, not
	 * a server error for the operator (it was logged `error ratings`). */
	r = hc_req(a, "{s:s, s:s}", "cmd", "player.update", "rank", "2k");
	ERR(r, "conflict");
	json_decref(r);
	ck_assert_msg(!hd_log_has(&D, "error ratings"), "a client's refusal logged as an error");
	hc_close(a);
	hc_close(b);
}
END_TEST

START_TEST(test_dead_disagree)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a, b);
	json_t *r;
	/* White passes first; Black alone holds a stone dead: Black moves first. */
	static const char *const m1[] = {"E5", "C3", "G7", "pass", "pass"};
	st_moves_ok(a, b, g, m1, 5, 1);
	st_expect_counting(a, b, g);
	r = st_dead(a, g, json_pack("[s]", "C3"));
	OK(r);
	json_decref(r);
	r = st_dead(b, g, json_pack("[]"));
	OK(r);
	json_decref(r);
	st_expect_resume(a, b, g, "B");
	/* the game object's passes in a row start again at the resumption (Art. 21.4): move 5's
	 * pass does not pair with the next */
	r = st_game_get(a, g);
	ck_assert_int_eq(hj_int(r, "game.passes"), 0);
	json_decref(r);
	/* Black passes first; White alone holds a stone dead: White moves first. */
	st_move_ok(a, b, g, "pass", 6);
	r = st_game_get(b, g);
	ck_assert_int_eq(hj_int(r, "game.passes"), 1);
	json_decref(r);
	st_move_ok(b, a, g, "pass", 7);
	r = st_game_get(b, g);
	ck_assert_ptr_null(json_object_get(hj_get(r, "game"), "passes")); /* counting: no turn */
	json_decref(r);
	st_expect_counting(a, b, g);
	r = st_dead(b, g, json_pack("[s]", "E5"));
	OK(r);
	json_decref(r);
	r = st_dead(a, g, json_pack("[]"));
	OK(r);
	json_decref(r);
	st_expect_resume(a, b, g, "W");
	/* White passes first; both hold stones dead: the first to pass moves first. */
	st_move_ok(b, a, g, "pass", 8);
	st_move_ok(a, b, g, "pass", 9);
	st_expect_counting(a, b, g);
	r = st_dead(a, g, json_pack("[s]", "C3"));
	OK(r);
	json_decref(r);
	r = st_dead(b, g, json_pack("[s]", "G7"));
	OK(r);
	json_decref(r);
	st_expect_resume(a, b, g, "W");
	ck_assert(!hc_has_event(a, "game.end", g));
	/* Agreement at last: all alive. Black 2 + 39, White 1 + 39, komi 7.5. */
	st_move_ok(b, a, g, "pass", 10);
	st_move_ok(a, b, g, "pass", 11);
	st_expect_counting(a, b, g);
	r = st_dead(a, g, json_pack("[]"));
	OK(r);
	json_decref(r);
	r = st_dead(b, g, json_pack("[]"));
	OK(r);
	json_decref(r);
	st_expect_end_event(a, g, "W+6.5", "score");
	st_expect_end_event(b, g, "W+6.5", "score");
	hc_close(a);
	hc_close(b);
}
END_TEST

/* The counting phase's time (--counting-timeout-s) runs out: a player who has not claimed
 * accepts the other's claim; neither claimed: every stone alive. Before, a game whose player
 * (a bot's bridge) went away while counting stayed counting for good, and its round could not
 * end. */
START_TEST(test_count_lapse)
{
	st_finish(&D);
	st_start(&D, (const char *const[]){"--counting-timeout-s", "1", NULL});
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a, b);
	static const char *const m1[] = {"E5", "C3", "G7", "pass", "pass"};
	st_moves_ok(a, b, g, m1, 5, 1);
	json_t *e = hc_event(b, "game.counting", g, T);
	ck_assert_msg(e && hj_int(e, "claim_ms") == 1000, "game.counting: %s", hj_text(e));
	json_decref(e);
	json_t *r = st_game_get(b, g);
	ck_assert_msg(hj_int(r, "game.claim_ms") > 0 && hj_int(r, "game.claim_ms") <= 1000, "%s",
		      hj_text(r));
	json_decref(r);
	r = st_dead(a, g, json_pack("[s]", "C3"));
	OK(r);
	json_decref(r);
	long long t0 = st_now_ms();
	/* bob says nothing: Black's claim stands, Black has the whole board (81, komi 7.5) */
	e = hc_event(b, "game.end", g, T);
	ck_assert_msg(e != NULL, "the count did not lapse");
	ck_assert_int_ge(st_now_ms() - t0, 500); /* not at once: when the second ran out */
	ck_assert_pstr_eq(hj_str(e, "result"), "B+73.5");
	ck_assert_pstr_eq(hj_str(e, "reason"), "score");
	ck_assert_pstr_eq(hj_str(e, "unclaimed"), "W");
	ck_assert_ptr_null(json_object_get(e, "disputes"));
	json_decref(e);
	r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.unclaimed"), "W");
	ck_assert_pstr_eq(hj_str(r, "game.dead.0"), "C3");
	json_decref(r);
	st_expect_sgf_has(a, g, "before White claimed dead stones: counted with Black's claim");
	st_expect_sgf_has(a, g, "RE[B+73.5]");
	long long g1 = g;
	/* nobody claims: all alive (Black 2 + 39, White 1 + 39) */
	g = st_new_game(a, b);
	st_moves_ok(a, b, g, m1, 5, 1);
	e = hc_event(a, "game.end", g, T);
	ck_assert_msg(e != NULL, "the count did not lapse");
	ck_assert_pstr_eq(hj_str(e, "result"), "W+6.5");
	ck_assert_pstr_eq(hj_str(e, "unclaimed"), "both");
	json_decref(e);
	/* a director's pause stops the claims' time; it starts anew at the resumption */
	struct hc *td = st_login_role(&D, "tina", "td");
	g = st_new_game(a, b);
	st_moves_ok(a, b, g, m1, 5, 1);
	r = hc_req(td, "{s:s, s:I}", "cmd", "game.pause", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
	ck_assert_msg(!hc_event(a, "game.end", g, 1500), "the count lapsed while paused");
	r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "counting");
	ck_assert_ptr_null(json_object_get(hj_get(r, "game"), "claim_ms"));
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "game.resume", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
	t0 = st_now_ms();
	e = hc_event(a, "game.end", g, T);
	ck_assert_msg(e != NULL, "the count did not lapse after the resumption");
	ck_assert_int_ge(st_now_ms() - t0, 500);
	ck_assert_pstr_eq(hj_str(e, "unclaimed"), "both");
	json_decref(e);
	/* an admin's result over the lapsed count: the game no longer says unclaimed */
	struct hc *ada = st_login_role(&D, "ada", "admin");
	r = hc_req(ada, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game", (json_int_t)g1,
		   "result", "W+R");
	OK(r);
	json_decref(r);
	r = st_game_get(a, g1);
	ck_assert_pstr_eq(hj_str(r, "game.result"), "W+R");
	ck_assert_ptr_null(hj_get(r, "game.unclaimed"));
	json_decref(r);
	hc_close(ada);
	hc_close(td);
	hc_close(a);
	hc_close(b);
}
END_TEST

/* ---- referee penalties ---- */

START_TEST(test_penalty_occupied_suicide)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a, b);
	st_move_ok(a, b, g, "D4", 1);
	json_t *r = st_play(b, g, "D4");
	st_expect_illegal(r, "occupied", 1, 0, 0, 0);
	json_decref(r);
	st_expect_forfeit_event(a, b, g, 2, "W", "occupied");
	r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.to_move"), "B");
	ck_assert_int_eq(json_array_size(hj_get(r, "game.moves")), 2);
	ck_assert_pstr_eq(hj_str(r, "game.moves.1.vertex"), "pass");
	ck_assert_int_eq(hj_int(r, "game.warnings.W"), 0);
	json_decref(r);
	/* White into Black's corner eye at A1: suicide. */
	st_move_ok(a, b, g, "B1", 3);
	st_move_ok(b, a, g, "J9", 4);
	st_move_ok(a, b, g, "A2", 5);
	r = st_play(b, g, "A1");
	st_expect_illegal(r, "suicide", 1, 0, 0, 0);
	json_decref(r);
	st_expect_forfeit_event(a, b, g, 6, "W", "suicide");
	ck_assert(!hc_has_event(a, "game.warning", g));
	st_move_ok(a, b, g, "C3", 7);
	r = st_game_get(b, g);
	ck_assert_pstr_eq(hj_str(r, "game.board.8"), ".X.......");
	ck_assert_pstr_eq(hj_str(r, "game.board.7"), "X........");
	ck_assert_int_eq(hj_int(r, "game.warnings.B"), 0);
	ck_assert_int_eq(hj_int(r, "game.warnings.W"), 0);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "playing");
	json_decref(r);
	hc_close(a);
	hc_close(b);
}
END_TEST

START_TEST(test_penalty_ko_and_two_warnings)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a, b);
	st_moves_ok(a, b, g, st_ko_moves, ST_KO_MOVES - 1, 1);
	json_t *r = st_move(b, a, g, "E5", 8);
	ck_assert_msg(hj_has_str(r, "move.captures", "F5"), "E5 should take F5: %s", hj_text(r));
	json_decref(r);
	r = st_play(a, g, "F5");
	st_expect_illegal(r, "superko", 1, 1, 1, 0);
	json_decref(r);
	st_expect_forfeit_event(a, b, g, 9, "B", "superko");
	st_expect_warning_event(a, b, g, "B", "superko", 1);
	st_move_ok(b, a, g, "A9", 10);
	/* White again, out of turn: void, a warning. */
	r = st_play(b, g, "H8");
	st_expect_illegal(r, "not_your_turn", 0, 1, 1, 0);
	json_decref(r);
	st_expect_warning_event(a, b, g, "W", "not_your_turn", 1);
	st_move_ok(a, b, g, "J1", 11);
	/* Black out of turn: the second warning loses. */
	r = st_play(a, g, "H2");
	st_expect_illegal(r, "not_your_turn", 0, 1, 2, 1);
	json_decref(r);
	st_expect_end_event(a, g, "W+F", "warnings");
	st_expect_end_event(b, g, "W+F", "warnings");
	r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "ended");
	ck_assert_pstr_eq(hj_str(r, "game.result"), "W+F");
	ck_assert_pstr_eq(hj_str(r, "game.reason"), "warnings");
	ck_assert_int_eq(hj_int(r, "game.warnings.B"), 2);
	ck_assert_int_eq(hj_int(r, "game.warnings.W"), 1);
	ck_assert_int_eq(json_array_size(hj_get(r, "game.moves")), 11);
	json_decref(r);
	r = st_play(b, g, "H8");
	ERR(r, "conflict");
	json_decref(r);
	hc_close(a);
	hc_close(b);
}
END_TEST

START_TEST(test_penalty_out_of_turn)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a, b);
	/* White may not open an even game. */
	json_t *r = st_play(b, g, "E5");
	st_expect_illegal(r, "not_your_turn", 0, 1, 1, 0);
	json_decref(r);
	st_expect_warning_event(a, b, g, "W", "not_your_turn", 1);
	st_move_ok(a, b, g, "D4", 1);
	r = st_play(a, g, "E5");
	st_expect_illegal(r, "not_your_turn", 0, 1, 1, 0);
	json_decref(r);
	st_expect_warning_event(a, b, g, "B", "not_your_turn", 1);
	ck_assert(!hc_has_event(a, "game.move", g));
	/* The void moves recorded nothing: White's move is number 2, E5 is empty. */
	st_move_ok(b, a, g, "E5", 2);
	r = st_game_get(a, g);
	ck_assert_int_eq(json_array_size(hj_get(r, "game.moves")), 2);
	ck_assert_int_eq(hj_int(r, "game.warnings.B"), 1);
	ck_assert_int_eq(hj_int(r, "game.warnings.W"), 1);
	ck_assert_pstr_eq(hj_str(r, "game.to_move"), "B");
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "playing");
	/* What each warning was for, in order, for a client that missed the events: White's
	 * before any move (no number), Black's after move 1. */
	json_t *log = hj_get(r, "game.warning_log");
	ck_assert_int_eq(json_array_size(log), 2);
	ck_assert_pstr_eq(json_string_value(json_object_get(json_array_get(log, 0), "color")), "W");
	ck_assert_ptr_null(json_object_get(json_array_get(log, 0), "number"));
	ck_assert_pstr_eq(json_string_value(json_object_get(json_array_get(log, 1), "color")), "B");
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(log, 1), "number")), 1);
	for (size_t i = 0; i < 2; i++) {
		json_t *w = json_array_get(log, i);
		ck_assert_pstr_eq(json_string_value(json_object_get(w, "reason")), "not_your_turn");
		ck_assert(json_is_false(json_object_get(w, "by_director")));
		ck_assert(json_real_value(json_object_get(w, "at")) > 1e9);
	}
	json_decref(r);
	/* A game without warnings has an empty log. */
	long long g2 = st_new_game(a, b);
	r = st_game_get(a, g2);
	ck_assert_int_eq(json_array_size(hj_get(r, "game.warning_log")), 0);
	ck_assert(json_is_array(hj_get(r, "game.warning_log")));
	json_decref(r);
	hc_close(a);
	hc_close(b);
}
END_TEST

START_TEST(test_penalty_illegal_lose)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game_ex(a, b, 9, json_pack("{s:{s:s}}", "rules", "illegal", "lose"));
	st_move_ok(a, b, g, "D4", 1);
	json_t *r = st_play(b, g, "D4");
	st_expect_illegal(r, "occupied", 0, 0, 0, 1);
	json_decref(r);
	st_expect_end_event(a, g, "B+F", "illegal");
	st_expect_end_event(b, g, "B+F", "illegal");
	r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "ended");
	ck_assert_pstr_eq(hj_str(r, "game.result"), "B+F");
	ck_assert_pstr_eq(hj_str(r, "game.reason"), "illegal");
	json_decref(r);
	/* the record says why (the move was not played, so it is not in it): it ended RE[B+F]
	 * without a word */
	st_expect_sgf_has(a, g, "White's move at D4 was illegal (the point is occupied): the game "
			  "is lost by it");
	hc_close(a);
	hc_close(b);
}
END_TEST

START_TEST(test_play_number)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a, b);
	char *before = hd_dump(&D);
	ck_assert_ptr_nonnull(before);
	json_t *r = hc_req(a, "{s:s, s:I, s:s, s:i}", "cmd", "play", "game", (json_int_t)g, "vertex", "D4", "number", 2);
	ERR(r, "conflict");
	json_decref(r);
	r = hc_req(b, "{s:s, s:I, s:s, s:i}", "cmd", "play", "game", (json_int_t)g, "vertex", "E5", "number", 3);
	ERR(r, "conflict");
	json_decref(r);
	st_expect_no_event(a, "game.move", g);
	r = st_game_get(a, g);
	ck_assert_int_eq(json_array_size(hj_get(r, "game.moves")), 0);
	ck_assert_pstr_eq(hj_str(r, "game.to_move"), "B");
	ck_assert_pstr_eq(hj_str(r, "game.board.5"), ".........");
	json_decref(r);
	char *after = hd_dump(&D);
	ck_assert_ptr_nonnull(after);
	ck_assert_msg(strcmp(before, after) == 0, "a move with the wrong number changed the database");
	free(before);
	free(after);
	r = hc_req(a, "{s:s, s:I, s:s, s:i}", "cmd", "play", "game", (json_int_t)g, "vertex", "D4", "number", 1);
	OK(r);
	ck_assert_int_eq(hj_int(r, "move.number"), 1);
	json_decref(r);
	r = hc_req(b, "{s:s, s:I, s:s, s:i}", "cmd", "play", "game", (json_int_t)g, "vertex", "E5", "number", 3);
	ERR(r, "conflict");
	json_decref(r);
	r = hc_req(b, "{s:s, s:I, s:s, s:i}", "cmd", "play", "game", (json_int_t)g, "vertex", "E5", "number", 2);
	OK(r);
	json_decref(r);
	hc_close(a);
	hc_close(b);
}
END_TEST

START_TEST(test_resign)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob"), *c = st_login(&D, "carol");
	long long g = st_new_game(a, b);
	st_move_ok(a, b, g, "D4", 1);
	json_t *r = hc_req(c, "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g);
	ERR(r, "forbidden");
	json_decref(r);
	r = hc_req(b, "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "result"), "B+R");
	json_decref(r);
	st_expect_end_event(a, g, "B+R", "resignation");
	st_expect_end_event(b, g, "B+R", "resignation");
	r = st_game_get(c, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "ended");
	ck_assert_pstr_eq(hj_str(r, "game.result"), "B+R");
	ck_assert_pstr_eq(hj_str(r, "game.reason"), "resignation");
	json_decref(r);
	r = hc_req(a, "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g);
	ERR(r, "conflict");
	json_decref(r);
	hc_close(a);
	hc_close(b);
	hc_close(c);
}
END_TEST

/* ---- audiences ---- */

START_TEST(test_two_logins)
{
	struct hc *a1 = st_login(&D, "alice"), *a2 = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a1, b);
	json_t *e = hc_event(a2, "game.start", g, T);
	ck_assert_msg(e != NULL, "alice's second connection got no game.start");
	ck_assert_pstr_eq(hj_str(e, "color"), "B");
	json_decref(e);
	/* Black plays from the second connection; both of alice's connections see it. */
	st_move_ok(a2, b, g, "D4", 1);
	e = hc_event(a1, "game.move", g, T);
	ck_assert_msg(e != NULL, "alice's first connection got no game.move 1");
	ck_assert_int_eq(hj_int(e, "number"), 1);
	json_decref(e);
	st_move_ok(b, a1, g, "E5", 2);
	e = hc_event(a2, "game.move", g, T);
	ck_assert_msg(e != NULL, "alice's second connection got no game.move 2");
	ck_assert_int_eq(hj_int(e, "number"), 2);
	json_decref(e);
	st_move_ok(a1, b, g, "C3", 3);
	e = hc_event(a2, "game.move", g, T);
	ck_assert_msg(e != NULL, "alice's second connection got no game.move 3");
	json_decref(e);
	json_t *r = hc_req(b, "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
	st_expect_end_event(a1, g, "B+R", "resignation");
	st_expect_end_event(a2, g, "B+R", "resignation");
	/* One connection logging out leaves the other's events. */
	long long g2 = st_new_game(a1, b);
	e = hc_event(a2, "game.start", g2, T);
	ck_assert_ptr_nonnull(e);
	json_decref(e);
	r = hc_req(a1, "{s:s}", "cmd", "logout");
	OK(r);
	json_decref(r);
	st_move_ok(a2, b, g2, "D4", 1);
	st_expect_no_event(a1, "game.move", g2);
	hc_close(a1);
	hc_close(a2);
	hc_close(b);
}
END_TEST

START_TEST(test_observer)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a, b);
	struct hc *o = st_conn(&D);
	json_t *r = hc_req(o, "{s:s, s:I}", "cmd", "observe", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
	r = hc_req(o, "{s:s, s:I}", "cmd", "observe", "game", (json_int_t)g); /* twice: one audience */
	OK(r);
	json_decref(r);
	st_move_ok(a, b, g, "D4", 1);
	json_t *e = hc_event(o, "game.move", g, T);
	ck_assert_msg(e != NULL, "the observer got no game.move");
	ck_assert_int_eq(hj_int(e, "number"), 1);
	ck_assert_pstr_eq(hj_str(e, "vertex"), "D4");
	json_decref(e);
	st_expect_no_event(o, "game.move", g); /* not twice */
	/* Penalties reach observers too. */
	r = st_play(b, g, "D4");
	ERR(r, "illegal_move");
	json_decref(r);
	st_expect_forfeit_event(a, b, g, 2, "W", "occupied");
	e = hc_event(o, "game.move", g, T);
	ck_assert_msg(e != NULL, "the observer got no forfeited turn");
	ck_assert_pstr_eq(hj_str(e, "forfeited"), "occupied");
	json_decref(e);
	r = hc_req(o, "{s:s, s:I}", "cmd", "unobserve", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
	st_move_ok(a, b, g, "E5", 3);
	st_expect_no_event(o, "game.move", g);
	/* Observe again; the end reaches the observer. */
	r = hc_req(o, "{s:s, s:I}", "cmd", "observe", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
	r = hc_req(b, "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
	st_expect_end_event(o, g, "B+R", "resignation");
	/* A challenge observed while pending: its acceptance reaches the observer as game.state
	 * (colours decided, playing); before, nothing came until the first move. */
	r = hc_req(a, "{s:s, s:s, s:i, s:s}", "cmd", "challenge", "opponent", "bob", "size", 9,
		   "color", "white");
	OK(r);
	long long g2 = hj_int(r, "game");
	json_decref(r);
	r = hc_req(o, "{s:s, s:I}", "cmd", "observe", "game", (json_int_t)g2);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "pending");
	json_decref(r);
	r = hc_req(b, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g2);
	OK(r);
	json_decref(r);
	e = hc_event(o, "game.state", 0, T); /* its `game` is the object */
	ck_assert_msg(e != NULL, "the observer was not told the challenge was accepted");
	ck_assert_int_eq(hj_int(e, "game.id"), g2);
	ck_assert_pstr_eq(hj_str(e, "game.phase"), "playing");
	ck_assert_pstr_eq(hj_str(e, "game.white"), "alice");
	ck_assert_pstr_eq(hj_str(e, "game.black"), "bob");
	json_decref(e);
	ck_assert(!hc_has_event(a, "game.state", 0)); /* players have game.start */
	hc_close(o);
	hc_close(a);
	hc_close(b);
}
END_TEST

/* The keys of object o, in order, joined by ",". */
static void keys_of(const json_t *o, char *out, size_t size)
{
	out[0] = '\0';
	for (void *it = json_object_iter((json_t *)o); it; it = json_object_iter_next((json_t *)o, it)) {
		if (out[0])
			strncat(out, ",", size - strlen(out) - 1);
		strncat(out, json_object_iter_key(it), size - strlen(out) - 1);
	}
}

/* A move's reply and game.move event are written as text without a JSON value behind them
 * (server/game/game_audience.c): the same form and key order as every other message, to the mover, the
 * opponent and an observer; a capture, a forfeited turn, clocks and ids of every kind. */
START_TEST(test_move_lines)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob"), *o = st_conn(&D);
	long long g = st_new_game_ex(a, b, 9, json_pack("{s:{s:s, s:i, s:i, s:i}}", "time", "system",
						      "byoyomi", "main_s", 60, "periods", 3, "period_s", 10));
	json_t *r = hc_req(o, "{s:s, s:I}", "cmd", "observe", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
	/* White's C3 is captured by Black's D3 (move 7). */
	static const char *const seq[] = {"C2", "C3", "B3", "A1", "C4", "A2", "D3"};
	static const char *const ids[] = {"\"s\\u00e9 \\\"q\\\"\"", "null", "2.5", "-7", "true", "\"\"", "1e3"};
	char line[256], keys[256];
	for (int i = 0; i < 7; i++) {
		struct hc *me = i % 2 ? b : a, *other = i % 2 ? a : b;
		snprintf(line, sizeof line, "{\"cmd\":\"play\",\"game\":%lld,\"vertex\":\"%s\",\"id\":%s}",
			 g, seq[i], ids[i]);
		ck_assert_int_eq(hc_send_line(me, line), 0);
		r = hc_reply(me, T);
		ck_assert_msg(hj_ok(r), "move %d: %s", i + 1, hj_text(r));
		keys_of(r, keys, sizeof keys);
		ck_assert_str_eq(keys, "id,ok,move");
		keys_of(hj_get(r, "move"), keys, sizeof keys);
		ck_assert_str_eq(keys, "number,color,vertex,captures,clocks");
		json_t *want_id = json_loads(ids[i], JSON_DECODE_ANY, NULL);
		ck_assert_msg(json_equal(hj_get(r, "id"), want_id), "id %s came back as %s", ids[i], hj_text(r));
		json_decref(want_id);
		ck_assert_int_eq(json_array_size(hj_get(r, "move.captures")), i == 6 ? 1 : 0);
		ck_assert_msg(json_is_integer(hj_get(r, "move.clocks.B.main_ms")), "clocks: %s", hj_text(r));
		struct hc *who[3] = {me, other, o};
		for (int k = 0; k < 3; k++) {
			json_t *e = hc_event(who[k], "game.move", g, T);
			ck_assert_msg(e != NULL, "no game.move %d", i + 1);
			keys_of(e, keys, sizeof keys);
			ck_assert_str_eq(keys, "event,game,number,color,vertex,captures,clocks");
			ck_assert_msg(json_equal(hj_get(e, "captures"), hj_get(r, "move.captures")) &&
				      json_equal(hj_get(e, "clocks"), hj_get(r, "move.clocks")),
				      "event %s, reply %s", hj_text(e), hj_text(r));
			json_decref(e);
		}
		json_decref(r);
	}
	/* A forfeited turn (Art. 19): the event names why, between captures and clocks. */
	r = st_play(b, g, "D3");
	ERR(r, "illegal_move");
	json_decref(r);
	struct hc *who[3] = {a, b, o};
	for (int k = 0; k < 3; k++) {
		json_t *e = hc_event(who[k], "game.move", g, T);
		ck_assert_msg(e != NULL, "no forfeited game.move");
		keys_of(e, keys, sizeof keys);
		ck_assert_str_eq(keys, "event,game,number,color,vertex,captures,forfeited,clocks");
		json_decref(e);
	}
	st_ping_ok(a);
	st_ping_ok(b);
	st_ping_ok(o);
	ck_assert_int_eq(a->odd_lines + b->odd_lines + o->odd_lines, 0);
	ck_assert_int_eq(a->bad_lines + b->bad_lines + o->bad_lines, 0);
	hc_close(o);
	hc_close(a);
	hc_close(b);
}
END_TEST

/* ---- the listing's pages ---- */

/* The `games` reply to `req` (stolen; the cmd is set here) from c: ok, keys in their order,
 * the ids `want` (n of them, newest first) and `next` (0: null). */
static void expect_page(struct hc *c, json_t *req, const long long *want, int n, long long next)
{
	json_object_set_new(req, "cmd", json_string("games"));
	char text[256], keys[64];
	snprintf(text, sizeof text, "%s", hj_text(req));
	json_t *r = hc_reqj(c, req);
	OK(r);
	keys_of(r, keys, sizeof keys);
	ck_assert_str_eq(keys, "id,ok,games,next");
	const json_t *games = hj_get(r, "games");
	ck_assert_msg((int)json_array_size(games) == n, "%s: %s", text, hj_text(r));
	for (int i = 0; i < n; i++)
		ck_assert_msg(json_integer_value(json_object_get(json_array_get(games, (size_t)i), "id")) ==
				      want[i], "%s: game %d of %s", text, i, hj_text(r));
	if (next)
		ck_assert_msg(hj_int(r, "next") == next, "%s: next of %s", text, hj_text(r));
	else
		ck_assert_msg(json_is_null(hj_get(r, "next")), "%s: next of %s", text, hj_text(r));
	json_decref(r);
}

/* **(extension)** `games` pages by keyset: `before` lists the games below an id, `next` is the
 * cursor of the next page (null on the last); with filters; bad cursors refused naming the
 * field; the reply cache (server/cmd/dispatch.c) keyed by the whole request, `before`
 * included. */
START_TEST(test_games_pages)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob"), *c = st_login(&D, "carol");
	struct hc *o = st_conn(&D);
	long long g[5];
	for (int i = 0; i < 5; i++)
		g[i] = i < 3 ? st_new_game(a, b) : st_new_game(b, c);
	for (int i = 1; i < 5; i += 2) {
		json_t *r = hc_req(b, "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g[i]);
		OK(r);
		json_decref(r);
	}
	const long long all[5] = {g[4], g[3], g[2], g[1], g[0]};
	/* Pages of 2 walk them all once, in order; the same page again comes from the cache. */
	expect_page(o, json_pack("{s:i}", "limit", 2), all, 2, g[3]);
	expect_page(o, json_pack("{s:i, s:I}", "limit", 2, "before", (json_int_t)g[3]), all + 2, 2, g[1]);
	expect_page(o, json_pack("{s:i, s:I}", "limit", 2, "before", (json_int_t)g[1]), all + 4, 1, 0);
	expect_page(o, json_pack("{s:i, s:I}", "limit", 2, "before", (json_int_t)g[3]), all + 2, 2, g[1]);
	expect_page(o, json_pack("{s:i}", "limit", 2), all, 2, g[3]);
	/* Without a cursor: the first page, as before the extension; a full last page. */
	expect_page(o, json_pack("{}"), all, 5, 0);
	expect_page(o, json_pack("{s:i}", "limit", 5), all, 5, 0);
	expect_page(o, json_pack("{s:i}", "limit", 4), all, 4, g[1]);
	/* Filters with the cursor. */
	const long long carol[2] = {g[4], g[3]}, ended[2] = {g[3], g[1]}, alice[1] = {g[1]};
	expect_page(o, json_pack("{s:s, s:i}", "player", "carol", "limit", 1), carol, 1, g[4]);
	expect_page(o, json_pack("{s:s, s:i, s:I}", "player", "carol", "limit", 1, "before",
				 (json_int_t)g[4]), carol + 1, 1, 0);
	expect_page(o, json_pack("{s:s, s:i}", "phase", "ended", "limit", 1), ended, 1, g[3]);
	expect_page(o, json_pack("{s:s, s:I}", "phase", "ended", "before", (json_int_t)g[3]),
		    ended + 1, 1, 0);
	expect_page(o, json_pack("{s:s, s:s, s:I}", "player", "alice", "phase", "ended", "before",
				 (json_int_t)g[2]), alice, 1, 0);
	expect_page(o, json_pack("{s:I}", "before", (json_int_t)1), NULL, 0, 0);
	/* Bad cursors: refused, naming the field; nothing changes. */
	json_t *bad[] = {json_pack("{s:s, s:i}", "cmd", "games", "before", 0),
			 json_pack("{s:s, s:i}", "cmd", "games", "before", -1),
			 json_pack("{s:s, s:s}", "cmd", "games", "before", "x"),
			 json_pack("{s:s, s:f}", "cmd", "games", "before", 2.5)};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		json_t *r = hc_reqj(o, bad[i]);
		ERR_FIELD(r, "bad_request", "before");
		json_decref(r);
	}
	expect_page(o, json_pack("{}"), all, 5, 0);
	expect_page(o, json_pack("{s:n}", "before"), all, 5, 0); /* null counts as absent */
	/* an unknown tournament is not an event without games */
	json_t *r = hc_req(o, "{s:s, s:i}", "cmd", "games", "tournament", 999);
	ERR(r, "not_found");
	ck_assert_pstr_eq(hj_str(r, "error.message"), "no tournament 999");
	json_decref(r);
	hc_close(o);
	hc_close(a);
	hc_close(b);
	hc_close(c);
}
END_TEST

/* A pending challenge by nigiri names challenger and challenged in black/white (the contract);
 * `nigiri` says so, in the game object and the listing, and the SGF has no PB/PW until the
 * colours are drawn at accept (Art. 10). A challenge with colours has no such mark. */
START_TEST(test_nigiri_pending)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	json_t *r = hc_req(a, "{s:s, s:s, s:i, s:s}", "cmd", "challenge", "opponent", "bob",
			   "size", 9, "color", "nigiri");
	OK(r);
	long long g = hj_int(r, "game");
	json_decref(r);
	r = hc_req(a, "{s:s, s:s, s:i, s:s}", "cmd", "challenge", "opponent", "bob", "size", 9,
		   "color", "white");
	OK(r);
	long long g2 = hj_int(r, "game");
	json_decref(r);
	r = st_game_get(b, g);
	ck_assert_pstr_eq(hj_str(r, "game.black"), "alice");
	ck_assert_msg(json_is_true(hj_get(r, "game.nigiri")), "no nigiri mark: %s", hj_text(r));
	json_decref(r);
	r = st_game_get(b, g2);
	ck_assert_msg(hj_get(r, "game.nigiri") == NULL, "nigiri mark on a set colour: %s", hj_text(r));
	json_decref(r);
	r = hc_req(b, "{s:s, s:s}", "cmd", "games", "phase", "pending");
	OK(r);
	ck_assert_int_eq(hj_int(r, "games.0.id"), g2);
	ck_assert_msg(hj_get(r, "games.0.nigiri") == NULL, "listing: %s", hj_text(r));
	ck_assert_int_eq(hj_int(r, "games.1.id"), g);
	ck_assert_msg(json_is_true(hj_get(r, "games.1.nigiri")), "listing: %s", hj_text(r));
	json_decref(r);
	r = hc_req(b, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)g);
	OK(r);
	const char *sgf = hj_str(r, "sgf");
	ck_assert_msg(sgf && !strstr(sgf, "PB[") && !strstr(sgf, "PW[") &&
		      strstr(sgf, "C[Challenge pending: alice v bob, colours by nigiri at accept.]"),
		      "pending nigiri SGF: %s", sgf);
	json_decref(r);
	r = hc_req(b, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
	r = st_game_get(b, g);
	ck_assert_msg(hj_get(r, "game.nigiri") == NULL, "mark after accept: %s", hj_text(r));
	const char *black = hj_str(r, "game.black");
	char pb[64];
	snprintf(pb, sizeof pb, "PB[%s]", black ? black : "?");
	json_decref(r);
	r = hc_req(b, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)g);
	sgf = hj_str(r, "sgf");
	ck_assert_msg(sgf && strstr(sgf, pb) && !strstr(sgf, "Challenge pending"), "SGF: %s", sgf);
	json_decref(r);
	/* declined before its accept: the colours were never drawn, and the record, the game and
	 * the listing say so (they named the challenger Black once it was declined) */
	r = hc_req(a, "{s:s, s:s, s:i, s:s}", "cmd", "challenge", "opponent", "bob", "size", 9,
		   "color", "nigiri");
	OK(r);
	long long g3 = hj_int(r, "game");
	json_decref(r);
	r = hc_req(b, "{s:s, s:I}", "cmd", "decline", "game", (json_int_t)g3);
	OK(r);
	json_decref(r);
	r = hc_req(b, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)g3);
	OK(r);
	sgf = hj_str(r, "sgf");
	ck_assert_msg(sgf && !strstr(sgf, "PB[") && !strstr(sgf, "PW[") &&
		      strstr(sgf, "colours never drawn"), "declined nigiri SGF: %s", sgf);
	json_decref(r);
	r = st_game_get(b, g3);
	ck_assert_msg(json_is_true(hj_get(r, "game.nigiri")), "declined: %s", hj_text(r));
	json_decref(r);
	r = hc_req(b, "{s:s, s:s}", "cmd", "games", "phase", "ended");
	OK(r);
	ck_assert_int_eq(hj_int(r, "games.0.id"), g3);
	ck_assert_msg(json_is_true(hj_get(r, "games.0.nigiri")), "listing: %s", hj_text(r));
	json_decref(r);
	hc_close(a);
	hc_close(b);
}
END_TEST

static Suite *play_suite(void)
{
	Suite *s = suite_create("play");
	TCase *tc = tcase_create("play");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, test_full_game);
	tcase_add_test(tc, test_dead_disagree);
	tcase_add_test(tc, test_count_lapse);
	tcase_add_test(tc, test_penalty_occupied_suicide);
	tcase_add_test(tc, test_penalty_ko_and_two_warnings);
	tcase_add_test(tc, test_penalty_out_of_turn);
	tcase_add_test(tc, test_penalty_illegal_lose);
	tcase_add_test(tc, test_play_number);
	tcase_add_test(tc, test_resign);
	tcase_add_test(tc, test_two_logins);
	tcase_add_test(tc, test_observer);
	tcase_add_test(tc, test_move_lines);
	tcase_add_test(tc, test_games_pages);
	tcase_add_test(tc, test_nigiri_pending);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	/* Every flush goes through the writer thread (server/transport/writer.c), closes and restarts included. */
	setenv("TENGEN_TEST_WRITER_MIN", "1", 0);
	/* Fold the move journal every few moves: games read from both tables. */
	setenv("TENGEN_TEST_FOLD_ROWS", "3", 0);
	SRunner *sr = srunner_create(play_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
