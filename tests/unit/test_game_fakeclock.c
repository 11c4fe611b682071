/* Game clocks in process on a fake clock (tests/support/inproc.h): the same rules tests/integration/test_live_clocks.c
 * checks over TCP with real sleeps, here exact to the millisecond and without sleeping.
 * Byo-yomi: a period kept by moving within it, periods used up by one long move, the last
 * period running out loses (Art. 12.3) or, with `last_period: pass`, forfeits the turn
 * (Art. 22.5); Canadian: N stones in T, the block completed starts a new one (Art. 12.5);
 * the lag credit (issue 4);
 * lateness: a late join costs twice the lateness (Art. 22.2), absence past the limit forfeits
 * (Art. 22.1). Chinese Weiqi Rules 2002; docs/rules.md §2. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "games.h"
#include "inproc.h"

#define BOARD 9
#define MAIN_MS 20000

static struct inproc IP;

static void setup(void)
{
	ip_start(&IP);
}

static void teardown(void)
{
	ip_stop(&IP);
}

#define OK(r) ck_assert_msg(json_is_true(json_object_get((r), "ok")), "not ok: %s", \
			    json_dumps((r), JSON_COMPACT))
/* Within 1 ms: lateness is measured on the wall clock (seconds as a double). */
#define NEAR1(a, b) ck_assert_msg(llabs((long long)(a) - (long long)(b)) <= 1, \
				  "%s = %lld, expected %lld", #a, (long long)(a), (long long)(b))

static json_t *time_byoyomi(double main_s, int periods, double period_s)
{
	return json_pack("{s:s, s:f, s:i, s:f}", "system", "byoyomi", "main_s", main_s, "periods",
			 periods, "period_s", period_s);
}

/* A challenge from b (Black) to w with `time` and `rules` (stolen; rules may be NULL), `obs`
 * (may be NULL) observing; w accepts. Returns the game id. */
static long long new_game(struct ip_conn *b, struct ip_conn *w, struct ip_conn *obs, json_t *time,
			  json_t *rules)
{
	json_t *req = json_pack("{s:s, s:s, s:i, s:s, s:o, s:b}", "cmd", "challenge", "opponent",
				w->c->name, "size", BOARD, "color", "black", "time", time, "rated", 0);
	if (rules)
		json_object_set_new(req, "rules", rules);
	json_t *r = ip_req(&IP, b, req);
	OK(r);
	long long g = ip_int(r, "game");
	json_decref(r);
	json_t *e = ip_event(w, "challenge", g);
	ck_assert_ptr_nonnull(e);
	json_decref(e);
	if (obs) {
		r = ip_req(&IP, obs, json_pack("{s:s, s:I}", "cmd", "observe", "game", (json_int_t)g));
		OK(r);
		json_decref(r);
	}
	r = ip_req(&IP, w, json_pack("{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g));
	OK(r);
	json_decref(r);
	e = ip_event(b, "game.start", g);
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(ip_str(e, "color"), "B");
	json_decref(e);
	return g;
}

static json_t *play_req(struct ip_conn *c, long long g, const char *vertex)
{
	return ip_req(&IP, c, json_pack("{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g,
					"vertex", vertex));
}

/* A legal move; returns the reply. */
static json_t *play(struct ip_conn *c, long long g, const char *vertex)
{
	json_t *r = play_req(c, g, vertex);
	OK(r);
	return r;
}

static json_t *game_query(struct ip_conn *c, long long g)
{
	json_t *r = ip_req(&IP, c, json_pack("{s:s, s:I}", "cmd", "game", "game", (json_int_t)g));
	OK(r);
	return r;
}

/* The game.end of g at c, checked for result and reason. */
static void expect_end(struct ip_conn *c, long long g, const char *result, const char *reason)
{
	json_t *e = ip_event(c, "game.end", g);
	ck_assert_msg(e != NULL, "%s got no game.end for game %lld", c->c->name, g);
	ck_assert_str_eq(ip_str(e, "result"), result);
	ck_assert_str_eq(ip_str(e, "reason"), reason);
	json_decref(e);
}

/* Art. 12.3: a move within the period uses none of it; a move at its very end is too late. */
START_TEST(byoyomi_period_kept)
{
	struct ip_conn *b = ip_login(&IP, "keep_b", "player"), *w = ip_login(&IP, "keep_w", "player");
	long long g = new_game(b, w, NULL, time_byoyomi(0, 3, 1), NULL);
	ip_advance(&IP, 999);
	json_t *r = play(b, g, "E5");
	ck_assert_int_eq(ip_int(r, "move.clocks.B.main_ms"), 0);
	ck_assert_int_eq(ip_int(r, "move.clocks.B.periods"), 3);
	ck_assert_int_eq(ip_int(r, "move.clocks.B.period_ms"), 1000);
	ck_assert_int_eq(ip_int(r, "move.clocks.W.periods"), 3);
	ck_assert_int_eq(ip_int(r, "move.clocks.W.period_ms"), 1000);
	json_decref(r);
	json_t *e = ip_event(w, "game.move", g);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(ip_int(e, "clocks.B.periods"), 3);
	ck_assert_int_eq(ip_int(e, "clocks.B.period_ms"), 1000);
	json_decref(e);
	ip_advance(&IP, 600);
	r = play(w, g, "C3");
	ck_assert_int_eq(ip_int(r, "move.clocks.W.periods"), 3);
	ck_assert_int_eq(ip_int(r, "move.clocks.W.period_ms"), 1000);
	json_decref(r);
	r = play(b, g, "G7");
	ck_assert_int_eq(ip_int(r, "move.clocks.B.periods"), 3);
	ck_assert_int_eq(ip_int(r, "move.clocks.B.period_ms"), 1000);
	json_decref(r);
	/* White at 1000 ms of a 1000 ms period: one period gone, the next one full. */
	ip_advance(&IP, 1000);
	r = play(w, g, "C7");
	ck_assert_int_eq(ip_int(r, "move.clocks.W.periods"), 2);
	ck_assert_int_eq(ip_int(r, "move.clocks.W.period_ms"), 1000);
	json_decref(r);
	r = game_query(b, g);
	ck_assert_str_eq(ip_str(r, "game.phase"), "playing");
	ck_assert_str_eq(ip_str(r, "game.to_move"), "B");
	json_decref(r);
}
END_TEST

/* Art. 12.3: one long move uses main time, then several periods; the live clock of the
 * player to move shows the periods going. */
START_TEST(byoyomi_long_move)
{
	struct ip_conn *b = ip_login(&IP, "long_b", "player"), *w = ip_login(&IP, "long_w", "player");
	long long g = new_game(b, w, NULL, time_byoyomi(0.5, 5, 1), NULL);
	ip_advance(&IP, 1000);
	json_t *r = game_query(w, g);
	ck_assert_int_eq(ip_int(r, "game.clocks.B.main_ms"), 0);
	ck_assert_int_eq(ip_int(r, "game.clocks.B.periods"), 5);
	ck_assert_int_eq(ip_int(r, "game.clocks.B.period_ms"), 500);
	ck_assert_int_eq(ip_int(r, "game.clocks.W.main_ms"), 500);
	json_decref(r);
	ip_advance(&IP, 2000); /* 0.5 s main + 2 periods gone, 0.5 s into the 3rd */
	r = play(b, g, "E5");
	ck_assert_int_eq(ip_int(r, "move.clocks.B.main_ms"), 0);
	ck_assert_int_eq(ip_int(r, "move.clocks.B.periods"), 3);
	ck_assert_int_eq(ip_int(r, "move.clocks.B.period_ms"), 1000);
	ck_assert_int_eq(ip_int(r, "move.clocks.W.main_ms"), 500);
	ck_assert_int_eq(ip_int(r, "move.clocks.W.periods"), 5);
	json_decref(r);
	ip_advance(&IP, 120);
	r = play(w, g, "C3");
	ck_assert_int_eq(ip_int(r, "move.clocks.W.main_ms"), 380);
	ck_assert_int_eq(ip_int(r, "move.clocks.W.periods"), 5);
	json_decref(r);
}
END_TEST

/* Art. 12.3: the last period runs out with nobody sending anything; the timer ends the game
 * at that millisecond, and both players and an observer hear it. */
START_TEST(byoyomi_last_period_loses)
{
	struct ip_conn *b = ip_login(&IP, "flag_b", "player"), *w = ip_login(&IP, "flag_w", "player");
	struct ip_conn *o = ip_login(&IP, "flag_o", "player");
	long long g = new_game(b, w, o, time_byoyomi(0, 1, 1), NULL);
	ip_advance(&IP, 999);
	ck_assert_ptr_null(ip_event(b, "game.end", g));
	ip_advance(&IP, 1);
	expect_end(b, g, "W+T", "time");
	expect_end(w, g, "W+T", "time");
	expect_end(o, g, "W+T", "time");
	json_t *r = play_req(b, g, "E5");
	ck_assert_str_eq(ip_str(r, "error.code"), "conflict");
	json_decref(r);
	r = game_query(o, g);
	ck_assert_str_eq(ip_str(r, "game.result"), "W+T");
	ck_assert_str_eq(ip_str(r, "game.phase"), "ended");
	json_decref(r);
}
END_TEST

/* Art. 12.3: a move that arrives after the last period ran out (before the timer saw it) is
 * too late: the game is lost on time, not the move played. */
START_TEST(byoyomi_move_too_late)
{
	struct ip_conn *b = ip_login(&IP, "late_mb", "player"), *w = ip_login(&IP, "late_mw", "player");
	long long g = new_game(b, w, NULL, time_byoyomi(0, 2, 1), NULL);
	ip_advance(&IP, 1500); /* one period gone: the last one half used */
	json_t *r = game_query(w, g);
	ck_assert_int_eq(ip_int(r, "game.clocks.B.periods"), 1);
	ck_assert_int_eq(ip_int(r, "game.clocks.B.period_ms"), 500);
	json_decref(r);
	IP.ms += 500; /* the clock moves on, the timer has not fired yet */
	r = play_req(b, g, "E5");
	ck_assert_str_eq(ip_str(r, "error.code"), "conflict");
	json_decref(r);
	expect_end(w, g, "W+T", "time");
}
END_TEST

/* Art. 22.5, `last_period: pass`: the last period running out forfeits the turn (a pass,
 * forfeited "time"); play goes on with the last period fresh; a forfeit and a pass in a row
 * open counting. */
START_TEST(byoyomi_last_period_pass)
{
	struct ip_conn *b = ip_login(&IP, "lpp_b", "player"), *w = ip_login(&IP, "lpp_w", "player");
	struct ip_conn *o = ip_login(&IP, "lpp_o", "player");
	long long g = new_game(b, w, o, time_byoyomi(0, 1, 1), json_pack("{s:s}", "last_period", "pass"));
	ip_advance(&IP, 999);
	ck_assert_ptr_null(ip_event(w, "game.move", g));
	ip_advance(&IP, 1);
	json_t *e = ip_event(w, "game.move", g);
	ck_assert_msg(e != NULL, "no forfeited turn when Black's last period ran out");
	ck_assert_int_eq(ip_int(e, "number"), 1);
	ck_assert_str_eq(ip_str(e, "color"), "B");
	ck_assert_str_eq(ip_str(e, "vertex"), "pass");
	ck_assert_str_eq(ip_str(e, "forfeited"), "time");
	ck_assert_int_eq(ip_int(e, "clocks.B.main_ms"), 0);
	ck_assert_int_eq(ip_int(e, "clocks.B.periods"), 1);
	ck_assert_int_eq(ip_int(e, "clocks.B.period_ms"), 1000);
	json_decref(e);
	e = ip_event(o, "game.move", g);
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(ip_str(e, "forfeited"), "time");
	json_decref(e);
	ck_assert_ptr_null(ip_event(b, "game.end", g));
	json_t *r = play(w, g, "E5");
	ck_assert_int_eq(ip_int(r, "move.number"), 2);
	json_decref(r);
	r = play(b, g, "C3");
	ck_assert_int_eq(ip_int(r, "move.number"), 3);
	ck_assert_int_eq(ip_int(r, "move.clocks.B.periods"), 1);
	ck_assert_int_eq(ip_int(r, "move.clocks.B.period_ms"), 1000);
	json_decref(r);
	json_array_clear(b->inbox);
	ip_advance(&IP, 1000);
	e = ip_event(b, "game.move", g);
	ck_assert_msg(e != NULL, "no forfeited turn for White");
	ck_assert_int_eq(ip_int(e, "number"), 4);
	ck_assert_str_eq(ip_str(e, "color"), "W");
	ck_assert_str_eq(ip_str(e, "forfeited"), "time");
	ck_assert_int_eq(ip_int(e, "clocks.W.periods"), 1);
	json_decref(e);
	r = play(b, g, "pass");
	json_decref(r);
	e = ip_event(w, "game.counting", g);
	ck_assert_msg(e != NULL, "a forfeited turn and a pass should open counting");
	json_decref(e);
}
END_TEST

/* Art. 12.5: a Canadian block of 2 stones in 2 s; the block completed starts a new one: with
 * carry the time left is added, without it the block is full again. */
static void canadian_game(struct ip_conn *b, struct ip_conn *w, bool carry)
{
	json_t *tc = json_pack("{s:s, s:i, s:i, s:i, s:b}", "system", "canadian", "main_s", 0,
			       "stones", 2, "period_s", 2, "carry", carry);
	long long g = new_game(b, w, NULL, tc, NULL);
	ip_advance(&IP, 300);
	json_t *r = play(b, g, "E5");
	ck_assert_int_eq(ip_int(r, "move.clocks.B.main_ms"), 0);
	ck_assert_int_eq(ip_int(r, "move.clocks.B.stones"), 1);
	ck_assert_int_eq(ip_int(r, "move.clocks.B.period_ms"), 1700);
	ck_assert_int_eq(ip_int(r, "move.clocks.W.period_ms"), 2000);
	ck_assert_int_eq(ip_int(r, "move.clocks.W.stones"), 2);
	json_decref(r);
	r = play(w, g, "C3");
	ck_assert_int_eq(ip_int(r, "move.clocks.W.stones"), 1);
	json_decref(r);
	ip_advance(&IP, 400);
	r = play(b, g, "G7"); /* the block's 2nd stone: a new block starts */
	ck_assert_int_eq(ip_int(r, "move.clocks.B.stones"), 2);
	ck_assert_int_eq(ip_int(r, "move.clocks.B.period_ms"), carry ? 2000 + 1300 : 2000);
	json_decref(r);
	r = ip_req(&IP, b, json_pack("{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g));
	OK(r);
	json_decref(r);
}

START_TEST(canadian_block)
{
	struct ip_conn *b = ip_login(&IP, "can_b", "player"), *w = ip_login(&IP, "can_w", "player");
	canadian_game(b, w, true);
	canadian_game(b, w, false);
}
END_TEST

/* Art. 12.5: the block's N stones not played within T: the flag falls at T. */
START_TEST(canadian_block_runs_out)
{
	struct ip_conn *b = ip_login(&IP, "canf_b", "player"), *w = ip_login(&IP, "canf_w", "player");
	json_t *tc = json_pack("{s:s, s:i, s:i, s:i}", "system", "canadian", "main_s", 0, "stones", 2,
			       "period_s", 2);
	long long g = new_game(b, w, NULL, tc, NULL);
	ip_advance(&IP, 1500);
	json_t *r = play(b, g, "E5");
	ck_assert_int_eq(ip_int(r, "move.clocks.B.period_ms"), 500);
	json_decref(r);
	r = play(w, g, "C3");
	json_decref(r);
	ip_advance(&IP, 499);
	ck_assert_ptr_null(ip_event(b, "game.end", g));
	ip_advance(&IP, 1);
	expect_end(b, g, "W+T", "time");
	expect_end(w, g, "W+T", "time");
}
END_TEST

/* Issue 4: a move is charged less the connection's round-trip time as the server measures it
 * (conn_ops.rtt_ms), at most the lag allowance (SERVER_LAG_ALLOWANCE_MS, 300 ms). */
START_TEST(lag_credit)
{
	struct ip_conn *b = ip_login(&IP, "lag_b", "player"), *w = ip_login(&IP, "lag_w", "player");
	json_t *tc = json_pack("{s:s, s:i}", "system", "absolute", "main_s", 10);
	long long g = new_game(b, w, NULL, tc, NULL);
	IP.rtt_ms = 120;
	ip_advance(&IP, 1000);
	json_t *r = play(b, g, "E5");
	ck_assert_int_eq(ip_int(r, "move.clocks.B.main_ms"), 10000 - 1000 + 120);
	json_decref(r);
	IP.rtt_ms = 5000;
	ip_advance(&IP, 1000);
	r = play(w, g, "C3");
	ck_assert_int_eq(ip_int(r, "move.clocks.W.main_ms"), 10000 - 1000 + SERVER_LAG_ALLOWANCE_MS);
	json_decref(r);
	IP.rtt_ms = -1; /* unknown: no credit */
	ip_advance(&IP, 1000);
	r = play(b, g, "G7");
	ck_assert_int_eq(ip_int(r, "move.clocks.B.main_ms"), 10000 - 880 - 1000);
	json_decref(r);
}
END_TEST

/* No game.end of g has come to c (else fail with `what` and the event). */
static void expect_no_end(struct ip_conn *c, long long g, const char *what)
{
	json_t *e = ip_event(c, "game.end", g);
	char *text = e ? json_dumps(e, JSON_COMPACT) : NULL;
	json_decref(e);
	ck_assert_msg(text == NULL, "%s: %s", what, text ? text : "");
}

/* A move is in time if its time less the lag credit is (lag_credit above), so the flag falls
 * that credit after the clock's own deadline: the timer firing at the bare deadline ended the
 * game on time before a move sent in time, and credited, was read (a trial over TCP: a move
 * 6 ms past the deadline with a 22 ms credit lost). */
START_TEST(flag_waits_for_lag_credit)
{
	struct ip_conn *b = ip_login(&IP, "lagf_b", "player"), *w = ip_login(&IP, "lagf_w", "player");
	json_t *tc = json_pack("{s:s, s:i}", "system", "absolute", "main_s", 10);
	long long g = new_game(b, w, NULL, tc, NULL);
	IP.rtt_ms = 120;
	ip_advance(&IP, 10000); /* the bare deadline: no flag yet */
	expect_no_end(w, g, "the flag fell at the bare deadline");
	ip_advance(&IP, 100);
	json_t *r = play(b, g, "E5"); /* 10.1 s less 120 ms: in time, 20 ms left */
	ck_assert_int_eq(ip_int(r, "move.clocks.B.main_ms"), 20);
	json_decref(r);
	/* White's flag: 10 s + 120 ms after its turn began, not before */
	ip_advance(&IP, 10119);
	ck_assert_ptr_null(ip_event(b, "game.end", g));
	ip_advance(&IP, 1);
	expect_end(b, g, "B+T", "time");
	expect_end(w, g, "B+T", "time");
}
END_TEST

/* The same in a prediction game's opening (seed 000): the placer's flag waits for the lag
 * credit a placement is charged less (a review found the opening's timer at the bare
 * deadline). */
START_TEST(opening_flag_waits_for_lag_credit)
{
	struct ip_conn *b = ip_login(&IP, "lago_b", "player"), *w = ip_login(&IP, "lago_w", "player");
	json_t *r = ip_req(&IP, b, json_pack("{s:s, s:s, s:i, s:{s:s, s:i}, s:{s:s}, s:s, s:b}",
					     "cmd", "challenge", "opponent", "lago_w", "size", BOARD,
					     "time", "system", "absolute", "main_s", 10, "rules",
					     "ruleset", "prediction", "first", "me", "rated", 0));
	OK(r);
	long long g = ip_int(r, "game");
	json_decref(r);
	r = ip_req(&IP, w, json_pack("{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g));
	OK(r);
	json_decref(r);
	IP.rtt_ms = 120;
	ip_advance(&IP, 10000); /* the bare deadline of the first stone */
	expect_no_end(w, g, "the opening's flag fell at the bare deadline");
	ip_advance(&IP, 100);
	r = play(b, g, "E5"); /* the first stone, 10.1 s less 120 ms: in time */
	json_decref(r);
	ck_assert_ptr_null(ip_event(w, "game.end", g));
}
END_TEST

/* At most GAMES_CHALLENGES_PER_WINDOW challenges in any GAMES_CHALLENGE_WINDOW_S seconds,
 * withdrawn ones included: the window slides (it was the clock's minute, so a trial made 120
 * in 20 s across a minute's turn). */
START_TEST(challenge_rate_slides)
{
	struct ip_conn *a = ip_login(&IP, "rate_a", "player"), *b = ip_login(&IP, "rate_b", "player");
	/* IP_WALL0 is 20 s into a minute: 39.5 s on, the next minute begins in 0.5 s */
	ip_advance(&IP, 39500);
	json_t *r;
	for (int i = 0; i <= GAMES_CHALLENGES_PER_WINDOW; i++) {
		if (i == GAMES_CHALLENGES_PER_WINDOW)
			ip_advance(&IP, 1000); /* into the next clock minute, 1 s after the first */
		r = ip_req(&IP, a, json_pack("{s:s, s:s, s:i}", "cmd", "challenge", "opponent",
					     "rate_b", "size", BOARD));
		if (i == GAMES_CHALLENGES_PER_WINDOW)
			break;
		OK(r);
		long long g = ip_int(r, "game");
		json_decref(r);
		r = ip_req(&IP, a, json_pack("{s:s, s:I}", "cmd", "decline", "game", (json_int_t)g));
		OK(r);
		json_decref(r);
	}
	ck_assert_str_eq(ip_str(r, "error.code"), "rate_limited");
	json_decref(r);
	ip_advance(&IP, GAMES_CHALLENGE_WINDOW_S * 1000 - 1000); /* 60 s after the first */
	r = ip_req(&IP, a, json_pack("{s:s, s:s, s:i}", "cmd", "challenge", "opponent", "rate_b",
				     "size", BOARD));
	OK(r);
	json_decref(r);
	(void)b;
}
END_TEST

/* ---- scheduled games (lateness) ---- */

/* A round robin of td's for the players `names` (n of them), settings in `more` (stolen),
 * round 1 started at start_at; the start_round reply. */
static json_t *round_robin(struct ip_conn *td, const char *tname, const char **names, int n,
			   json_t *more, double start_at)
{
	json_t *req = json_pack("{s:s, s:s, s:s, s:i, s:b}", "cmd", "tournament.create", "name", tname,
				"system", "round_robin", "size", BOARD, "rated", 0);
	json_object_update(req, more);
	json_decref(more);
	json_t *r = ip_req(&IP, td, req);
	OK(r);
	long long t = ip_int(r, "tournament");
	json_decref(r);
	for (int i = 0; i < n; i++) {
		r = ip_req(&IP, td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.register",
					      "tournament", (json_int_t)t, "player", names[i]));
		OK(r);
		json_decref(r);
	}
	r = ip_req(&IP, td, json_pack("{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament",
				      (json_int_t)t, "start_at", start_at));
	OK(r);
	return r;
}

static json_t *join(struct ip_conn *c, long long g)
{
	json_t *r = ip_req(&IP, c, json_pack("{s:s, s:I}", "cmd", "join", "game", (json_int_t)g));
	OK(r);
	return r;
}

/* Art. 22.2: a player's first join after the start costs twice the lateness. Black's clock
 * runs from the start (Art. 22.4), so a late Black stands 2 x L lower once joined, as a late
 * White does (the server charges the rest of 2 x L after what Black's clock ran). */
START_TEST(late_join_double)
{
	struct ip_conn *td = ip_login(&IP, "late_td", "td");
	struct ip_conn *a = ip_login(&IP, "late_a", "player"), *bb = ip_login(&IP, "late_b", "player");
	const char *names[] = {"late_a", "late_b"};
	const long long late_black = 1000, late_white = 1600;
	json_t *r = round_robin(td, "late cup", names, 2, json_pack("{s:o, s:i}", "time",
				time_byoyomi(20, 1, 10), "lateness_limit_s", 60), ip_wall(&IP) + 0.5);
	long long g = ip_int(r, "pairings.0.game");
	bool a_black = strcmp(ip_str(r, "pairings.0.black"), "late_a") == 0;
	json_decref(r);
	struct ip_conn *cb = a_black ? a : bb, *cw = a_black ? bb : a;
	json_t *e = ip_event(cb, "game.start", g);
	ck_assert_ptr_nonnull(e);
	json_decref(e);
	ip_advance(&IP, 499);
	ck_assert_ptr_null(ip_event(cw, "game.begin", g));
	ip_advance(&IP, 1);
	e = ip_event(cw, "game.begin", g);
	ck_assert_msg(e != NULL, "no game.begin at the start time");
	ck_assert_int_eq(ip_int(e, "clocks.B.main_ms"), MAIN_MS);
	json_decref(e);

	ip_advance(&IP, late_black);
	r = join(cb, g);
	long long lb = ip_int(r, "late_ms");
	NEAR1(lb, late_black);
	NEAR1(ip_int(r, "clocks.B.main_ms"), MAIN_MS - 2 * lb);
	ck_assert_int_eq(ip_int(r, "clocks.W.main_ms"), MAIN_MS);
	json_decref(r);
	e = ip_event(cw, "game.join", g);
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(ip_str(e, "color"), "B");
	ck_assert_int_eq(ip_int(e, "late_ms"), lb);
	json_decref(e);
	r = join(cb, g); /* a second join is free */
	ck_assert_int_eq(ip_int(r, "late_ms"), 0);
	NEAR1(ip_int(r, "clocks.B.main_ms"), MAIN_MS - 2 * lb);
	json_decref(r);

	ip_advance(&IP, late_white - late_black);
	r = join(cw, g);
	long long lw = ip_int(r, "late_ms");
	NEAR1(lw, late_white);
	ck_assert_int_eq(ip_int(r, "clocks.W.main_ms"), MAIN_MS - 2 * lw);
	json_decref(r);
	/* Black's move charges the time since the start on top of the deduction. */
	r = play(cb, g, "E5");
	NEAR1(ip_int(r, "move.clocks.B.main_ms"), MAIN_MS - lb - late_white);
	ck_assert_int_eq(ip_int(r, "move.clocks.W.main_ms"), MAIN_MS - 2 * lw);
	json_decref(r);
}
END_TEST

/* Art. 22.1: absent at the lateness limit loses by forfeit (B+F/W+F, reason lateness); both
 * absent: Void, reason double_forfeit. Three games: only Black joins, only White, nobody. */
START_TEST(lateness_forfeits)
{
	struct ip_conn *td = ip_login(&IP, "nos_td", "td");
	const char *names[6] = {"nos_0", "nos_1", "nos_2", "nos_3", "nos_4", "nos_5"};
	struct ip_conn *p[6];
	for (int i = 0; i < 6; i++)
		p[i] = ip_login(&IP, names[i], "player");
	const int limit_s = 2;
	json_t *r = round_robin(td, "no-show cup", names, 6, json_pack("{s:o, s:i}", "time",
				time_byoyomi(60, 1, 10), "lateness_limit_s", limit_s), ip_wall(&IP) + 0.3);
	ck_assert_int_eq(json_array_size(json_object_get(r, "pairings")), 3);
	long long games[3];
	struct ip_conn *bl[3] = {NULL}, *wh[3] = {NULL};
	for (int k = 0; k < 3; k++) {
		char path[64];
		snprintf(path, sizeof path, "pairings.%d.game", k);
		games[k] = ip_int(r, path);
		for (int i = 0; i < 6; i++) {
			snprintf(path, sizeof path, "pairings.%d.black", k);
			if (strcmp(ip_str(r, path), names[i]) == 0)
				bl[k] = p[i];
			snprintf(path, sizeof path, "pairings.%d.white", k);
			if (strcmp(ip_str(r, path), names[i]) == 0)
				wh[k] = p[i];
		}
	}
	json_decref(r);
	r = join(bl[0], games[0]);
	ck_assert_int_eq(ip_int(r, "late_ms"), 0); /* before the start: not late */
	json_decref(r);
	r = join(wh[1], games[1]);
	json_decref(r);
	ip_advance(&IP, 300 + limit_s * 1000 - 2);
	ck_assert_ptr_null(ip_event(bl[0], "game.end", games[0]));
	ip_advance(&IP, 3);
	expect_end(bl[0], games[0], "B+F", "lateness");
	expect_end(wh[0], games[0], "B+F", "lateness");
	expect_end(wh[1], games[1], "W+F", "lateness");
	expect_end(bl[1], games[1], "W+F", "lateness");
	expect_end(bl[2], games[2], "Void", "double_forfeit");
	expect_end(wh[2], games[2], "Void", "double_forfeit");
	r = game_query(td, games[2]);
	ck_assert_str_eq(ip_str(r, "game.result"), "Void");
	ck_assert_str_eq(ip_str(r, "game.reason"), "double_forfeit");
	json_decref(r);
}
END_TEST

/* A challenge from `from` to `to` with colours by nigiri, not answered; returns its game id. */
static long long pending_nigiri(struct ip_conn *from, struct ip_conn *to)
{
	json_t *r = ip_req(&IP, from, json_pack("{s:s, s:s, s:i, s:s, s:b}", "cmd", "challenge",
						"opponent", to->c->name, "size", BOARD, "color",
						"nigiri", "rated", 0));
	OK(r);
	long long g = ip_int(r, "game");
	json_decref(r);
	return g;
}

/* The number of events `name` in c's inbox (all taken out). */
static int count_events(struct ip_conn *c, const char *name)
{
	int n = 0;
	json_t *e;
	while ((e = ip_event(c, name, 0)) != NULL) {
		json_decref(e);
		n++;
	}
	return n;
}

/* A login lists the player's own live games (the per-player index, server/game/game.c): each
 * started game, whichever colour the nigiri gave, as game.state; a pending challenge as
 * challenge.pending; nothing of a game that has ended, nor of others' games. */
START_TEST(login_lists_own_games)
{
	struct ip_conn *a = ip_login(&IP, "alice", "player"), *b = ip_login(&IP, "bob", "player"),
		       *c = ip_login(&IP, "carol", "player");
	long long g1 = new_game(a, b, NULL, time_byoyomi(600, 3, 30), NULL);
	long long g2 = new_game(c, a, NULL, time_byoyomi(600, 3, 30), NULL);
	long long g3 = pending_nigiri(c, b); /* accepted below: colours drawn */
	json_t *r = ip_req(&IP, b, json_pack("{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g3));
	OK(r);
	json_decref(r);
	long long gp = pending_nigiri(a, b);
	r = ip_req(&IP, b, json_pack("{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g1));
	OK(r);
	json_decref(r);

	struct ip_conn *a2 = ip_login_again(&IP, a);
	json_t *e = ip_event(a2, "game.state", g2);
	ck_assert_ptr_nonnull(e);
	json_decref(e);
	ck_assert_int_eq(count_events(a2, "game.state"), 0); /* not g1 (ended), not g3 (others') */
	e = ip_event(a2, "challenge.pending", gp);
	ck_assert_ptr_nonnull(e);
	json_decref(e);
	e = ip_event(a2, "challenge.summary", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(ip_int(e, "sent"), 1);
	ck_assert_int_eq(ip_int(e, "received"), 0);
	json_decref(e);

	struct ip_conn *b2 = ip_login_again(&IP, b);
	e = ip_event(b2, "game.state", g3);
	ck_assert_ptr_nonnull(e);
	json_decref(e);
	ck_assert_int_eq(count_events(b2, "game.state"), 0);
	e = ip_event(b2, "challenge.summary", 0);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(ip_int(e, "received"), 1);
	json_decref(e);

	struct ip_conn *c2 = ip_login_again(&IP, c);
	ck_assert_int_eq(count_events(c2, "game.state"), 2); /* g2 and g3 */
	ck_assert_int_eq(count_events(c2, "challenge.summary"), 0); /* none pending */
}
END_TEST

static Suite *game_clock_suite(void)
{
	Suite *s = suite_create("game_clock");
	TCase *tc = tcase_create("fake clock");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, byoyomi_period_kept);
	tcase_add_test(tc, byoyomi_long_move);
	tcase_add_test(tc, byoyomi_last_period_loses);
	tcase_add_test(tc, byoyomi_move_too_late);
	tcase_add_test(tc, byoyomi_last_period_pass);
	tcase_add_test(tc, canadian_block);
	tcase_add_test(tc, canadian_block_runs_out);
	tcase_add_test(tc, lag_credit);
	tcase_add_test(tc, flag_waits_for_lag_credit);
	tcase_add_test(tc, opening_flag_waits_for_lag_credit);
	tcase_add_test(tc, challenge_rate_slides);
	tcase_add_test(tc, late_join_double);
	tcase_add_test(tc, lateness_forfeits);
	tcase_add_test(tc, login_lists_own_games);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(game_clock_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
