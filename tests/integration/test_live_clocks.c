/* Integration tests of the game clocks (issue 4) against a real tengend (TENGEND, else
 * ./server/tengend), driven over TCP through tests/support/harness: the flag falling with no client
 * message, byo-yomi periods (kept, used up several at once, the last one as a pass), the
 * Canadian block, the Fischer increment, lateness in scheduled tournament games (twice the
 * delay, the no-show forfeit, the double forfeit, a start time in the past), a director's
 * pause, a reconnection and a kill -9 restart. Rules: Chinese Weiqi Rules 2002, Art. 12, 14,
 * 22 (docs/rules.md); wire: docs/protocol.md.
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon in a fresh
 * directory. Clock figures the server reports are compared with what the test did (how long
 * it waited before a move) within TOLERANCE_MS, which absorbs scheduling noise (loop
 * latency, the group commit, the client's own wake-ups); the waits themselves only create
 * thinking time and are chosen far from every boundary (a period's end, a deadline) by at
 * least MARGIN_MS.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include "harness.h"

extern char **environ;

#define T HARNESS_TIMEOUT_MS
#define TEST_TIMEOUT_S 30      /* per test (Check's own timeout) */
#define TOLERANCE_MS 150       /* scheduling noise allowed on any clock figure */
#define MARGIN_MS 300          /* least distance of a chosen wait from a clock boundary */
#define EXACT_MS 2             /* rounding allowed where the server's figure is computed */
#define QUICK_MS 100           /* a "quick" move: well inside any period used here */
#define BOARD 9

static struct hd D; /* the daemon of the fixture */

/* ---- helpers ---- */

#define OK(r) ck_assert_msg(hj_ok(r), "expected ok, got %s", hj_text(r))
#define ERR(r, code)                                                                          \
	ck_assert_msg(hj_err(r) && strcmp(hj_err(r), (code)) == 0, "expected error %s, got %s", \
		      (code), hj_text(r))
/* |actual - expected| <= tol, with a message naming the figure. */
#define NEAR(actual, expected, tol, what)                                                     \
	do {                                                                                  \
		long long a_ = (actual), e_ = (expected), t_ = (tol);                         \
		ck_assert_msg(llabs(a_ - e_) <= t_, "%s: %lld, expected %lld +- %lld", (what), \
			      a_, e_, t_);                                                    \
	} while (0)

static long long mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static double wall_s(void)
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

static void sleep_ms(long long ms)
{
	if (ms <= 0)
		return;
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Sleep until mono_ms() reaches `at`. */
static void sleep_until(long long at)
{
	sleep_ms(at - mono_ms());
}

static void finish(struct hd *d)
{
	int st = hd_stop(d);
	const char *san = hd_sanitizer_report(d);
	ck_assert_msg(st == 0, "tengend exited with status %d after SIGTERM (log: %s)", st, d->log);
	ck_assert_msg(san == NULL, "the daemon's log holds a sanitizer report (%s): %s", san, d->log);
	hd_cleanup(d);
}

static void setup(void)
{
	ck_assert_msg(hd_start(&D, NULL) == 0, "tengend (%s) did not start", hd_binary());
}

static void teardown(void)
{
	finish(&D);
}

static struct hc *login(const char *name)
{
	struct hc *c = hc_login_new(D.port, name);
	ck_assert_msg(c != NULL, "could not register and log in %s", name);
	return c;
}

/* A tournament director: registered, granted td, logged in again (the role applies from the
 * next login). */
static struct hc *director(const char *name)
{
	struct hc *c = login(name);
	hc_close(c);
	ck_assert_int_eq(hd_grant(&D, name, "td"), 0);
	return login(name);
}

static json_t *time_byoyomi(double main_s, int periods, double period_s)
{
	return json_pack("{s:s, s:f, s:i, s:f}", "system", "byoyomi", "main_s", main_s, "periods",
			 periods, "period_s", period_s);
}

/* A challenge from b (Black) to w with time control `time` and rules `rules` (both stolen,
 * rules may be NULL); `obs` (may be NULL) observes the pending game before it starts. The
 * game starts at w's accept; *t0 (if not NULL) is the monotonic time of the accept reply.
 * Returns the game id. */
static long long new_game(struct hc *b, struct hc *w, struct hc *obs, json_t *time, json_t *rules,
			  long long *t0)
{
	json_t *req = json_pack("{s:s, s:s, s:i, s:s, s:o, s:b}", "cmd", "challenge", "opponent",
				w->name, "size", BOARD, "color", "black", "time", time, "rated", 0);
	if (rules)
		json_object_set_new(req, "rules", rules);
	json_t *r = hc_reqj(b, req);
	OK(r);
	long long g = hj_int(r, "game");
	json_decref(r);
	json_t *e = hc_event(w, "challenge", g, T);
	ck_assert_msg(e != NULL, "%s got no challenge for game %lld", w->name, g);
	json_decref(e);
	if (obs) {
		r = hc_req(obs, "{s:s, s:I}", "cmd", "observe", "game", (json_int_t)g);
		OK(r);
		json_decref(r);
	}
	r = hc_req(w, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g);
	if (t0)
		*t0 = mono_ms();
	OK(r);
	json_decref(r);
	e = hc_event(b, "game.start", g, T);
	ck_assert_msg(e != NULL, "%s got no game.start", b->name);
	ck_assert_pstr_eq(hj_str(e, "color"), "B");
	json_decref(e);
	return g;
}

/* A legal move; returns the reply (new reference). */
static json_t *play(struct hc *c, long long g, const char *vertex)
{
	json_t *r = hc_req(c, "{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g, "vertex", vertex);
	ck_assert_msg(hj_ok(r), "%s play %s in game %lld: %s", c->name, vertex, g, hj_text(r));
	return r;
}

static json_t *game_query(struct hc *c, long long g)
{
	json_t *r = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	OK(r);
	return r;
}

/* The game.state event for game g at c (its "game" is the game object), new ref or NULL. */
static json_t *state_event(struct hc *c, long long g, int timeout)
{
	json_t *e;
	while ((e = hc_event(c, "game.state", 0, timeout)) != NULL) {
		if (hj_int(e, "game.id") == g)
			return e;
		json_decref(e);
	}
	return NULL;
}

/* The game.end of g at c, checked for result and reason. */
static void expect_end(struct hc *c, long long g, const char *result, const char *reason, int timeout)
{
	json_t *e = hc_event(c, "game.end", g, timeout);
	ck_assert_msg(e != NULL, "%s got no game.end for game %lld", c->name, g);
	ck_assert_msg(strcmp(hj_str(e, "result"), result) == 0 && strcmp(hj_str(e, "reason"), reason) == 0,
		      "game %lld ended %s, expected %s/%s", g, hj_text(e), result, reason);
	json_decref(e);
}

/* ---- tournaments (for scheduled games) ---- */

/* A round robin of two players a and b (td's), settings in `more` (stolen), round 1
 * started at `start_at`; returns the game id and its colours in *black (a or b's name). */
static long long scheduled_game(struct hc *td, const char *tname, const char *a, const char *b,
				json_t *more, double start_at, const char **black)
{
	json_t *req = json_pack("{s:s, s:s, s:s, s:i, s:b}", "cmd", "tournament.create", "name", tname,
				"system", "round_robin", "size", BOARD, "rated", 0);
	json_object_update(req, more);
	json_decref(more);
	json_t *r = hc_reqj(td, req);
	OK(r);
	long long t = hj_int(r, "tournament");
	json_decref(r);
	const char *names[] = {a, b};
	for (int i = 0; i < 2; i++) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
			   (json_int_t)t, "player", names[i]);
		OK(r);
		json_decref(r);
	}
	r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament", (json_int_t)t,
		   "start_at", start_at);
	OK(r);
	ck_assert_int_eq(json_array_size(hj_get(r, "pairings")), 1);
	long long g = hj_int(r, "pairings.0.game");
	*black = strcmp(hj_str(r, "pairings.0.black"), a) == 0 ? a : b;
	json_decref(r);
	return g;
}

/* ---- tests ---- */

/* Art. 12.3: the last period runs out with nobody sending anything; the server's timer ends
 * the game, and both players and an observer hear it. */
START_TEST(test_flag_falls_unattended)
{
	struct hc *b = login("flag_b"), *w = login("flag_w"), *o = login("flag_obs");
	long long t0;
	long long g = new_game(b, w, o, time_byoyomi(0, 1, 1), NULL, &t0);
	json_t *e = hc_event(b, "game.end", g, 1000 + T);
	long long took = mono_ms() - t0;
	ck_assert_msg(e != NULL, "no game.end: the flag did not fall by itself");
	ck_assert_pstr_eq(hj_str(e, "result"), "W+T");
	ck_assert_pstr_eq(hj_str(e, "reason"), "time");
	json_decref(e);
	NEAR(took, 1000, TOLERANCE_MS, "ms from the start to the flag (one period of 1 s)");
	expect_end(w, g, "W+T", "time", T);
	expect_end(o, g, "W+T", "time", T);
	/* The game is over: a move now is refused. */
	json_t *r = hc_req(b, "{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g, "vertex", "E5");
	ERR(r, "conflict");
	json_decref(r);
	r = game_query(o, g);
	ck_assert_pstr_eq(hj_str(r, "game.result"), "W+T");
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "ended");
	json_decref(r);
	hc_close(b);
	hc_close(w);
	hc_close(o);
}
END_TEST

/* Art. 12.3: a move made within a period uses none of it: the next turn has the full period
 * and the same number of periods. */
START_TEST(test_byoyomi_period_kept)
{
	struct hc *b = login("keep_b"), *w = login("keep_w");
	long long t0;
	long long g = new_game(b, w, NULL, time_byoyomi(0, 3, 1), NULL, &t0);
	/* Black thinks 0.6 s of the 1 s period: inside it. */
	sleep_until(t0 + 1000 - MARGIN_MS - 100);
	json_t *r = play(b, g, "E5");
	ck_assert_int_eq(hj_int(r, "move.clocks.B.main_ms"), 0);
	ck_assert_int_eq(hj_int(r, "move.clocks.B.periods"), 3);
	ck_assert_int_eq(hj_int(r, "move.clocks.B.period_ms"), 1000);
	ck_assert_int_eq(hj_int(r, "move.clocks.W.periods"), 3);
	ck_assert_int_eq(hj_int(r, "move.clocks.W.period_ms"), 1000);
	json_decref(r);
	long long t1 = mono_ms();
	json_t *e = hc_event(w, "game.move", g, T);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(hj_int(e, "clocks.B.periods"), 3);
	ck_assert_int_eq(hj_int(e, "clocks.B.period_ms"), 1000);
	json_decref(e);
	/* White too, twice in a row with a quick and a slower move. */
	sleep_until(t1 + 1000 - MARGIN_MS - 100);
	r = play(w, g, "C3");
	ck_assert_int_eq(hj_int(r, "move.clocks.W.periods"), 3);
	ck_assert_int_eq(hj_int(r, "move.clocks.W.period_ms"), 1000);
	json_decref(r);
	r = play(b, g, "G7");
	ck_assert_int_eq(hj_int(r, "move.clocks.B.periods"), 3);
	ck_assert_int_eq(hj_int(r, "move.clocks.B.period_ms"), 1000);
	json_decref(r);
	/* And the game goes on: nobody's flag fell. */
	r = game_query(b, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "playing");
	ck_assert_pstr_eq(hj_str(r, "game.to_move"), "W");
	json_decref(r);
	hc_close(b);
	hc_close(w);
}
END_TEST

/* Art. 12.3: one long move uses main time, then several periods; the live clock of the
 * player to move shows the periods going. */
START_TEST(test_byoyomi_long_move)
{
	struct hc *b = login("long_b"), *w = login("long_w");
	long long t0;
	/* 0.5 s main, 5 periods of 1 s: deadline 5.5 s. */
	long long g = new_game(b, w, NULL, time_byoyomi(0.5, 5, 1), NULL, &t0);
	/* At 1.0 s: main gone, 0.5 s into the first period: 5 periods left, ~500 ms of it. */
	sleep_until(t0 + 1000);
	json_t *r = game_query(w, g);
	long long at = mono_ms() - t0;
	ck_assert_int_eq(hj_int(r, "game.clocks.B.main_ms"), 0);
	ck_assert_int_eq(hj_int(r, "game.clocks.B.periods"), 5);
	NEAR(hj_int(r, "game.clocks.B.period_ms"), 1000 - (at - 500), TOLERANCE_MS,
	     "live period_ms 1 s into the turn");
	ck_assert_int_eq(hj_int(r, "game.clocks.W.main_ms"), 500); /* White's clock is not running */
	json_decref(r);
	/* Black moves at 3.0 s: 0.5 s main + 2 periods gone, 0.5 s into the 3rd: 3 left, fresh. */
	sleep_until(t0 + 3000);
	r = play(b, g, "E5");
	ck_assert_int_eq(hj_int(r, "move.clocks.B.main_ms"), 0);
	ck_assert_int_eq(hj_int(r, "move.clocks.B.periods"), 3);
	ck_assert_int_eq(hj_int(r, "move.clocks.B.period_ms"), 1000);
	ck_assert_int_eq(hj_int(r, "move.clocks.W.main_ms"), 500);
	ck_assert_int_eq(hj_int(r, "move.clocks.W.periods"), 5);
	json_decref(r);
	/* White's quick move stays in main time. */
	r = play(w, g, "C3");
	long long wm = hj_int(r, "move.clocks.W.main_ms");
	ck_assert_msg(wm > 500 - QUICK_MS && wm <= 500, "White's main after a quick move: %lld", wm);
	ck_assert_int_eq(hj_int(r, "move.clocks.W.periods"), 5);
	json_decref(r);
	hc_close(b);
	hc_close(w);
}
END_TEST

/* Art. 22.5, `last_period: pass`: the last period running out forfeits the turn (a pass,
 * forfeited "time"), play goes on with the same last period fresh; two forfeits/passes in
 * a row open counting. */
START_TEST(test_last_period_pass)
{
	struct hc *b = login("lpp_b"), *w = login("lpp_w"), *o = login("lpp_obs");
	long long t0;
	long long g = new_game(b, w, o, time_byoyomi(0, 1, 1),
			       json_pack("{s:s}", "last_period", "pass"), &t0);
	json_t *e = hc_event(w, "game.move", g, 1000 + T);
	long long took = mono_ms() - t0;
	ck_assert_msg(e != NULL, "no forfeited turn when Black's last period ran out");
	NEAR(took, 1000, TOLERANCE_MS, "ms to the forfeited turn");
	ck_assert_int_eq(hj_int(e, "number"), 1);
	ck_assert_pstr_eq(hj_str(e, "color"), "B");
	ck_assert_pstr_eq(hj_str(e, "vertex"), "pass");
	ck_assert_pstr_eq(hj_str(e, "forfeited"), "time");
	ck_assert_int_eq(hj_int(e, "clocks.B.main_ms"), 0);
	ck_assert_int_eq(hj_int(e, "clocks.B.periods"), 1);
	ck_assert_int_eq(hj_int(e, "clocks.B.period_ms"), 1000);
	json_decref(e);
	e = hc_event(o, "game.move", g, T);
	ck_assert_msg(e != NULL && strcmp(hj_str(e, "forfeited"), "time") == 0,
		      "the observer should see the forfeited turn: %s", hj_text(e));
	json_decref(e);
	ck_assert(!hc_has_event(b, "game.end", g));
	/* Black's move, sent before Black could see the forfeit: too late (conflict), not out
	 * of turn (it drew a not_your_turn warning, and two such races lost the game) */
	json_t *late = hc_req(b, "{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g, "vertex", "A1");
	ERR(late, "conflict");
	ck_assert_msg(strstr(hj_str(late, "error.message"), "the turn was forfeited"), "%s", hj_text(late));
	json_decref(late);
	late = game_query(b, g);
	ck_assert_int_eq(hj_int(late, "game.warnings.B"), 0);
	ck_assert_int_eq(json_array_size(hj_get(late, "game.moves")), 1);
	json_decref(late);
	/* Play goes on: White moves, then Black within the same (last) period. */
	json_t *r = play(w, g, "E5");
	ck_assert_int_eq(hj_int(r, "move.number"), 2);
	json_decref(r);
	r = play(b, g, "C3");
	ck_assert_int_eq(hj_int(r, "move.number"), 3);
	ck_assert_int_eq(hj_int(r, "move.clocks.B.periods"), 1);
	ck_assert_int_eq(hj_int(r, "move.clocks.B.period_ms"), 1000);
	json_decref(r);
	/* White now lets the last period run out: forfeited; Black passes: two passes in a row
	 * (a forfeited turn counts as one) open counting. */
	long long t1 = mono_ms();
	e = hc_event(b, "game.move", g, 1000 + T);
	while (e && hj_int(e, "number") < 4) { /* skip the echoes of moves 2 and 3 */
		json_decref(e);
		e = hc_event(b, "game.move", g, 1000 + T);
	}
	ck_assert_msg(e != NULL, "no forfeited turn for White");
	NEAR(mono_ms() - t1, 1000, TOLERANCE_MS, "ms to White's forfeited turn");
	ck_assert_pstr_eq(hj_str(e, "color"), "W");
	ck_assert_pstr_eq(hj_str(e, "forfeited"), "time");
	ck_assert_int_eq(hj_int(e, "clocks.W.periods"), 1);
	json_decref(e);
	r = play(b, g, "pass");
	json_decref(r);
	e = hc_event(w, "game.counting", g, T);
	ck_assert_msg(e != NULL, "a forfeited turn and a pass should open counting");
	json_decref(e);
	hc_close(b);
	hc_close(w);
	hc_close(o);
}
END_TEST

/* Art. 12.5: a Canadian block of 2 stones in 2 s; the block completed starts a new one:
 * with carry the time left is added, without it the block is full again. */
static void canadian_game(struct hc *b, struct hc *w, bool carry)
{
	long long t0;
	json_t *tc = json_pack("{s:s, s:i, s:i, s:i, s:b}", "system", "canadian", "main_s", 0,
			       "stones", 2, "period_s", 2, "carry", carry);
	long long g = new_game(b, w, NULL, tc, NULL, &t0);
	const long long think = 300;
	sleep_until(t0 + think);
	json_t *r = play(b, g, "E5");
	long long used1 = 2000 - hj_int(r, "move.clocks.B.period_ms");
	ck_assert_int_eq(hj_int(r, "move.clocks.B.main_ms"), 0);
	ck_assert_int_eq(hj_int(r, "move.clocks.B.stones"), 1);
	NEAR(used1, think, TOLERANCE_MS, "block time used by Black's first move");
	ck_assert_int_eq(hj_int(r, "move.clocks.W.period_ms"), 2000);
	ck_assert_int_eq(hj_int(r, "move.clocks.W.stones"), 2);
	json_decref(r);
	r = play(w, g, "C3");
	ck_assert_int_eq(hj_int(r, "move.clocks.W.stones"), 1);
	json_decref(r);
	long long t1 = mono_ms();
	sleep_until(t1 + think);
	r = play(b, g, "G7"); /* the block's 2nd stone: a new block starts */
	long long left = hj_int(r, "move.clocks.B.period_ms");
	ck_assert_int_eq(hj_int(r, "move.clocks.B.stones"), 2);
	if (carry) {
		/* 2000 fresh + what was left: 2000 - used1 - (2nd move's time ~ think). */
		NEAR(left, 2000 + 2000 - used1 - think, TOLERANCE_MS, "carried block time");
		ck_assert_msg(left > 2000, "with carry the new block holds more than 2 s: %lld", left);
	} else {
		ck_assert_int_eq(left, 2000);
	}
	json_decref(r);
	r = hc_req(b, "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
}

START_TEST(test_canadian_block)
{
	struct hc *b = login("can_b"), *w = login("can_w");
	canadian_game(b, w, true);
	canadian_game(b, w, false);
	hc_close(b);
	hc_close(w);
}
END_TEST

/* Fischer: the increment is added after each move in time, capped at max_s. */
START_TEST(test_fischer_increment)
{
	struct hc *b = login("fis_b"), *w = login("fis_w");
	long long t0;
	json_t *tc = json_pack("{s:s, s:i, s:i}", "system", "fischer", "main_s", 2, "increment_s", 1);
	long long g = new_game(b, w, NULL, tc, NULL, &t0);
	const long long think = 400;
	sleep_until(t0 + think);
	json_t *r = play(b, g, "E5");
	long long bm = hj_int(r, "move.clocks.B.main_ms");
	NEAR(bm, 2000 - think + 1000, TOLERANCE_MS, "Black's main after 0.4 s and a 1 s increment");
	ck_assert_msg(bm > 2000, "the increment should leave more than the start: %lld", bm);
	ck_assert_int_eq(hj_int(r, "move.clocks.W.main_ms"), 2000);
	json_decref(r);
	r = play(w, g, "C3");
	NEAR(hj_int(r, "move.clocks.W.main_ms"), 3000, QUICK_MS, "White's main after a quick move");
	json_decref(r);
	r = play(b, g, "G7");
	NEAR(hj_int(r, "move.clocks.B.main_ms"), bm + 1000, QUICK_MS, "Black's main after a 2nd quick move");
	json_decref(r);
	r = hc_req(b, "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g);
	json_decref(r);

	/* With a cap of 2.2 s a quick move ends exactly at the cap. */
	tc = json_pack("{s:s, s:i, s:i, s:f}", "system", "fischer", "main_s", 2, "increment_s", 1,
		       "max_s", 2.2);
	g = new_game(b, w, NULL, tc, NULL, &t0);
	r = play(b, g, "E5");
	ck_assert_int_eq(hj_int(r, "move.clocks.B.main_ms"), 2200);
	json_decref(r);
	hc_close(b);
	hc_close(w);
}
END_TEST

/* Art. 22.2: a player's first join after the start costs twice the lateness. Black's clock
 * runs from the start (Art. 22.4), so a late Black stands ~2 x L lower once joined, as a
 * late White does (the server charges the rest of 2 x L after what Black's clock ran). */
START_TEST(test_late_join_double)
{
	struct hc *td = director("late_td"), *a = login("late_a"), *b = login("late_b");
	const long long main_ms = 20000;
	const long long late_black = 1000, late_white = 1600;
	double start_at = wall_s() + 0.5;
	long long m0 = mono_ms() + 500; /* start_at on the monotonic clock */
	const char *black;
	long long g = scheduled_game(td, "late cup", "late_a", "late_b",
				     json_pack("{s:o, s:i}", "time", time_byoyomi(20, 1, 10),
					       "lateness_limit_s", 60), start_at, &black);
	struct hc *cb = strcmp(black, "late_a") == 0 ? a : b, *cw = cb == a ? b : a;
	json_t *e = hc_event(cb, "game.start", g, T);
	ck_assert_ptr_nonnull(e);
	ck_assert_msg(fabs(hj_num(e, "start_at") - start_at) < 0.01, "game.start start_at: %s", hj_text(e));
	json_decref(e);
	e = hc_event(cw, "game.begin", g, 500 + T);
	ck_assert_msg(e != NULL, "no game.begin at the start time");
	/* Black's clock runs from start_at (Art. 22.4): at the event it has run for as long as the
	 * server's timer fired late, which a loaded machine makes a few ms, never negative */
	long long bm0 = hj_int(e, "clocks.B.main_ms");
	ck_assert_msg(bm0 <= main_ms + EXACT_MS && bm0 >= main_ms - TOLERANCE_MS,
		      "Black's main at the start: %lld, expected %lld less the timer's delay", bm0, main_ms);
	json_decref(e);

	sleep_until(m0 + late_black);
	json_t *r = hc_req(cb, "{s:s, s:I}", "cmd", "join", "game", (json_int_t)g);
	OK(r);
	long long lb = hj_int(r, "late_ms");
	NEAR(lb, late_black, TOLERANCE_MS, "Black's late_ms");
	NEAR(hj_int(r, "clocks.B.main_ms"), main_ms - 2 * lb, TOLERANCE_MS,
	     "Black's main time after joining late (2 x late)");
	ck_assert_int_eq(hj_int(r, "clocks.W.main_ms"), main_ms);
	json_decref(r);
	e = hc_event(cw, "game.join", g, T);
	ck_assert_msg(e != NULL && strcmp(hj_str(e, "color"), "B") == 0, "game.join: %s", hj_text(e));
	ck_assert_int_eq(hj_int(e, "late_ms"), lb);
	json_decref(e);
	/* A second join is free. */
	r = hc_req(cb, "{s:s, s:I}", "cmd", "join", "game", (json_int_t)g);
	OK(r);
	ck_assert_int_eq(hj_int(r, "late_ms"), 0);
	NEAR(hj_int(r, "clocks.B.main_ms"), main_ms - 2 * lb, TOLERANCE_MS, "Black's main after a 2nd join");
	json_decref(r);

	sleep_until(m0 + late_white);
	r = hc_req(cw, "{s:s, s:I}", "cmd", "join", "game", (json_int_t)g);
	OK(r);
	long long lw = hj_int(r, "late_ms");
	NEAR(lw, late_white, TOLERANCE_MS, "White's late_ms");
	/* White's clock has not run: the deduction is exactly twice late_ms. */
	NEAR(hj_int(r, "clocks.W.main_ms"), main_ms - 2 * lw, EXACT_MS, "White's main after joining late");
	json_decref(r);
	/* Black's move charges the time since the start on top of the deduction. */
	r = play(cb, g, "E5");
	long long used = mono_ms() - m0;
	NEAR(hj_int(r, "move.clocks.B.main_ms"), main_ms - lb - used, TOLERANCE_MS,
	     "Black's main after the first move (lateness + clock since the start)");
	NEAR(hj_int(r, "move.clocks.W.main_ms"), main_ms - 2 * lw, EXACT_MS, "White's main");
	json_decref(r);
	hc_close(td);
	hc_close(a);
	hc_close(b);
}
END_TEST

/* A start time already passed when the round is started (a director starting late, or the
 * server coming back after it): the game must begin at once, and a player joining is late by
 * the time since start_at. */
START_TEST(test_start_in_past)
{
	struct hc *td = director("past_td"), *a = login("past_a"), *b = login("past_b");
	const long long main_ms = 20000, before = 2000;
	double start_at = wall_s() - before / 1000.0;
	const char *black;
	long long g = scheduled_game(td, "past cup", "past_a", "past_b",
				     json_pack("{s:o, s:i}", "time", time_byoyomi(20, 1, 10),
					       "lateness_limit_s", 60), start_at, &black);
	struct hc *cb = strcmp(black, "past_a") == 0 ? a : b, *cw = cb == a ? b : a;
	json_t *e = hc_event(cb, "game.begin", g, TOLERANCE_MS + 1000);
	if (!e) {
		json_t *r = game_query(cb, g);
		ck_abort_msg("a scheduled game whose start_at (%.3f) had passed never began: "
			     "game.begin missing, phase '%s' after %d ms", start_at,
			     hj_str(r, "game.phase"), TOLERANCE_MS + 1000);
	}
	json_decref(e);
	json_t *r = hc_req(cw, "{s:s, s:I}", "cmd", "join", "game", (json_int_t)g);
	OK(r);
	long long lw = hj_int(r, "late_ms");
	NEAR(lw, before, TOLERANCE_MS, "White's late_ms");
	NEAR(hj_int(r, "clocks.W.main_ms"), main_ms - 2 * lw, EXACT_MS, "White's main after joining late");
	json_decref(r);
	r = play(cb, g, "E5");
	json_decref(r);
	hc_close(td);
	hc_close(a);
	hc_close(b);
}
END_TEST

/* Art. 22.1: absent at the lateness limit loses by forfeit (B+F/W+F, reason lateness); both
 * absent: Void, reason double_forfeit. Six players, three games of round 1: in one only
 * Black joins, in one only White, in one nobody. */
START_TEST(test_lateness_forfeits)
{
	struct hc *td = director("nos_td");
	const char *names[6] = {"nos_0", "nos_1", "nos_2", "nos_3", "nos_4", "nos_5"};
	struct hc *p[6];
	for (int i = 0; i < 6; i++)
		p[i] = login(names[i]);
	const int limit_s = 2;
	json_t *r = hc_req(td, "{s:s, s:s, s:s, s:i, s:o, s:i, s:b}", "cmd", "tournament.create", "name",
			   "no-show cup", "system", "round_robin", "size", BOARD, "time",
			   time_byoyomi(60, 1, 10), "lateness_limit_s", limit_s, "rated", 0);
	OK(r);
	long long t = hj_int(r, "tournament");
	json_decref(r);
	for (int i = 0; i < 6; i++) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
			   (json_int_t)t, "player", names[i]);
		OK(r);
		json_decref(r);
	}
	double start_at = wall_s() + 0.3;
	long long m0 = mono_ms() + 300;
	r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament", (json_int_t)t,
		   "start_at", start_at);
	OK(r);
	ck_assert_int_eq(json_array_size(hj_get(r, "pairings")), 3);
	long long games[3];
	struct hc *bl[3], *wh[3];
	for (int k = 0; k < 3; k++) {
		char path[64];
		snprintf(path, sizeof path, "pairings.%d.game", k);
		games[k] = hj_int(r, path);
		for (int i = 0; i < 6; i++) {
			snprintf(path, sizeof path, "pairings.%d.black", k);
			if (strcmp(hj_str(r, path), names[i]) == 0)
				bl[k] = p[i];
			snprintf(path, sizeof path, "pairings.%d.white", k);
			if (strcmp(hj_str(r, path), names[i]) == 0)
				wh[k] = p[i];
		}
	}
	json_decref(r);
	/* Game 0: Black joins; game 1: White joins; game 2: nobody. */
	r = hc_req(bl[0], "{s:s, s:I}", "cmd", "join", "game", (json_int_t)games[0]);
	OK(r);
	ck_assert_int_eq(hj_int(r, "late_ms"), 0); /* before the start: not late */
	json_decref(r);
	r = hc_req(wh[1], "{s:s, s:I}", "cmd", "join", "game", (json_int_t)games[1]);
	OK(r);
	json_decref(r);
	json_t *e = hc_event(bl[0], "game.end", games[0], limit_s * 1000 + 300 + T);
	NEAR(mono_ms() - m0, limit_s * 1000, TOLERANCE_MS, "ms from the start to the lateness forfeit");
	ck_assert_msg(e != NULL, "no lateness forfeit");
	ck_assert_pstr_eq(hj_str(e, "result"), "B+F");
	ck_assert_pstr_eq(hj_str(e, "reason"), "lateness");
	json_decref(e);
	expect_end(wh[0], games[0], "B+F", "lateness", T);
	expect_end(wh[1], games[1], "W+F", "lateness", T);
	expect_end(bl[1], games[1], "W+F", "lateness", T);
	expect_end(bl[2], games[2], "Void", "double_forfeit", T);
	expect_end(wh[2], games[2], "Void", "double_forfeit", T);
	r = game_query(td, games[2]);
	ck_assert_pstr_eq(hj_str(r, "game.result"), "Void");
	ck_assert_pstr_eq(hj_str(r, "game.reason"), "double_forfeit");
	json_decref(r);
	/* The tournament sees them: the round is complete, pairings list the results. */
	r = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament", (json_int_t)t,
		   "round", 1);
	OK(r);
	for (int k = 0; k < 3; k++) {
		char path[64];
		snprintf(path, sizeof path, "pairings.%d.result", k);
		ck_assert_msg(hj_str(r, path) != NULL, "round 1 game %d has no result: %s", k, hj_text(r));
	}
	json_decref(r);
	hc_close(td);
	for (int i = 0; i < 6; i++)
		hc_close(p[i]);
}
END_TEST

/* Art. 14: a director's pause freezes the clocks (the flag does not fall); resumption gives
 * the player to move exactly the time left at the pause. */
START_TEST(test_pause_resume)
{
	struct hc *td = director("pz_td"), *b = login("pz_b"), *w = login("pz_w");
	long long t0;
	json_t *tc = json_pack("{s:s, s:i}", "system", "absolute", "main_s", 1);
	long long g = new_game(b, w, NULL, tc, NULL, &t0);
	/* A player may not pause. */
	json_t *r = hc_req(b, "{s:s, s:I}", "cmd", "game.pause", "game", (json_int_t)g);
	ERR(r, "forbidden");
	json_decref(r);
	sleep_until(t0 + 300);
	r = hc_req(td, "{s:s, s:I}", "cmd", "game.pause", "game", (json_int_t)g);
	long long tp = mono_ms();
	OK(r);
	long long frozen = hj_int(r, "clocks.B.main_ms");
	NEAR(frozen, 1000 - (tp - t0), TOLERANCE_MS,
	     "Black's main in the pause reply (live: the time left at the pause, not at the turn's start)");
	json_decref(r);
	json_t *e = hc_event(b, "game.paused", g, T);
	ck_assert_msg(e != NULL, "Black got no game.paused");
	ck_assert_pstr_eq(hj_str(e, "by"), "pz_td");
	ck_assert_int_eq(hj_int(e, "clocks.B.main_ms"), frozen);
	json_decref(e);
	e = hc_event(w, "game.paused", g, T);
	ck_assert_msg(e != NULL, "White got no game.paused");
	json_decref(e);
	/* Paused past Black's deadline: no flag, the clock does not move, moves are refused. */
	ck_assert_msg(hc_event(b, "game.end", g, 1000 + MARGIN_MS) == NULL,
		      "the flag fell during the pause");
	r = game_query(w, g);
	ck_assert_int_eq(hj_bool(r, "game.paused"), 1);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "playing");
	ck_assert_int_eq(hj_int(r, "game.clocks.B.main_ms"), frozen);
	json_decref(r);
	r = hc_req(b, "{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g, "vertex", "E5");
	ERR(r, "conflict");
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "game.pause", "game", (json_int_t)g);
	ERR(r, "conflict"); /* paused already */
	json_decref(r);
	/* Resume: the same time left, then it runs out. */
	r = hc_req(td, "{s:s, s:I}", "cmd", "game.resume", "game", (json_int_t)g);
	long long tr = mono_ms();
	OK(r);
	NEAR(hj_int(r, "clocks.B.main_ms"), frozen, EXACT_MS + 5, "Black's main at the resumption");
	json_decref(r);
	e = hc_event(w, "game.resume", g, T);
	ck_assert_msg(e != NULL, "White got no game.resume");
	ck_assert_pstr_eq(hj_str(e, "to_move"), "B");
	json_decref(e);
	e = hc_event(b, "game.end", g, frozen + T);
	ck_assert_msg(e != NULL, "Black's flag did not fall after the resumption");
	NEAR(mono_ms() - tr, frozen, TOLERANCE_MS, "ms from the resumption to the flag");
	ck_assert_pstr_eq(hj_str(e, "result"), "W+T");
	json_decref(e);
	hc_close(td);
	hc_close(b);
	hc_close(w);
}
END_TEST

/* Art. 22.7: a player who leaves keeps losing time; logging in again returns the game
 * (game.state) and play goes on. */
START_TEST(test_reconnect)
{
	struct hc *b = login("rc_b"), *w = login("rc_w");
	long long t0;
	long long g = new_game(b, w, NULL, time_byoyomi(5, 1, 1), NULL, &t0);
	json_t *r = play(b, g, "E5");
	long long bmain = hj_int(r, "move.clocks.B.main_ms");
	json_decref(r);
	r = play(w, g, "C3");
	long long t1 = mono_ms();
	long long wmain = hj_int(r, "move.clocks.W.main_ms");
	json_decref(r);
	hc_close(b); /* Black leaves, on move */
	const long long away = 1200;
	sleep_until(t1 + away);
	b = hc_open(D.port);
	ck_assert_ptr_nonnull(b);
	ck_assert(hc_login_as(b, "rc_b"));
	long long t2 = mono_ms();
	json_t *e = state_event(b, g, T);
	ck_assert_msg(e != NULL, "no game.state for the live game at login");
	ck_assert_int_eq(hj_int(e, "game.id"), g);
	ck_assert_pstr_eq(hj_str(e, "game.phase"), "playing");
	ck_assert_pstr_eq(hj_str(e, "game.to_move"), "B");
	ck_assert_int_eq(json_array_size(hj_get(e, "game.moves")), 2);
	NEAR(hj_int(e, "game.clocks.B.main_ms"), bmain - (t2 - t1), TOLERANCE_MS,
	     "Black's clock ran while away");
	ck_assert_int_eq(hj_int(e, "game.clocks.W.main_ms"), wmain);
	json_decref(e);
	r = hc_req(b, "{s:s, s:I, s:s, s:i}", "cmd", "play", "game", (json_int_t)g, "vertex", "G7",
		   "number", 3);
	OK(r);
	NEAR(hj_int(r, "move.clocks.B.main_ms"), bmain - (mono_ms() - t1), TOLERANCE_MS,
	     "Black's main after the move back");
	json_decref(r);
	e = hc_event(w, "game.move", g, T);
	ck_assert_ptr_nonnull(e);
	json_decref(e);
	hc_close(b);
	hc_close(w);
}
END_TEST

/* Art. 14 and the durability rule: after kill -9 and a restart each clock is as stored with
 * the last committed move (no clock ran while the server was down), and the mover's clock
 * runs again from the mover's login (it waits for it: test_restart_hold). */
START_TEST(test_restart_kill9)
{
	struct hc *b = login("k9_b"), *w = login("k9_w");
	long long t0;
	long long g = new_game(b, w, NULL, time_byoyomi(10, 1, 5), NULL, &t0);
	sleep_until(t0 + 200);
	json_t *r = play(b, g, "E5");
	long long bmain = hj_int(r, "move.clocks.B.main_ms");
	json_decref(r);
	long long t1 = mono_ms();
	sleep_until(t1 + 300);
	r = play(w, g, "C3");
	long long wmain = hj_int(r, "move.clocks.W.main_ms");
	NEAR(wmain, 10000 - 300, TOLERANCE_MS, "White's main after 0.3 s");
	json_decref(r);
	/* Black thinks 1 s (not committed), then the server dies; it stays down 1 s. */
	sleep_ms(1000);
	hc_close(b);
	hc_close(w);
	ck_assert_int_eq(hd_kill(&D), 0);
	sleep_ms(1000);
	ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart");
	b = login("k9_b");
	long long tr = mono_ms(); /* Black's clock runs from the login */
	json_t *e = state_event(b, g, T);
	ck_assert_msg(e != NULL, "no game.state after the restart");
	long long since = mono_ms() - tr;
	ck_assert_pstr_eq(hj_str(e, "game.to_move"), "B");
	/* Black's clock: as after move 1, less only what ran since Black's login. */
	NEAR(hj_int(e, "game.clocks.B.main_ms"), bmain - since, TOLERANCE_MS,
	     "Black's main after the restart");
	ck_assert_int_eq(hj_int(e, "game.clocks.W.main_ms"), wmain);
	json_decref(e);
	/* The mover's clock runs again. */
	sleep_ms(600);
	r = game_query(b, g);
	NEAR(hj_int(r, "game.clocks.B.main_ms"), bmain - (mono_ms() - tr), TOLERANCE_MS,
	     "Black's main 0.6 s later");
	ck_assert_int_eq(hj_int(r, "game.clocks.W.main_ms"), wmain);
	json_decref(r);
	r = hc_req(b, "{s:s, s:I, s:s, s:i}", "cmd", "play", "game", (json_int_t)g, "vertex", "G7",
		   "number", 3);
	OK(r);
	NEAR(hj_int(r, "move.clocks.B.main_ms"), bmain - (mono_ms() - tr), TOLERANCE_MS,
	     "Black's main after moving after the restart");
	json_decref(r);
	hc_close(b);
}
END_TEST

/* Art. 14 across a clean stop (SIGTERM): the server being down works as a pause. Black has
 * used 1 s of the turn when the server stops; after the restart Black has exactly what was
 * left then (before: the whole turn back, a fresh turn from any restart). */
START_TEST(test_restart_sigterm)
{
	struct hc *b = login("st_b"), *w = login("st_w");
	long long t0;
	long long g = new_game(b, w, NULL, time_byoyomi(10, 1, 5), NULL, &t0);
	sleep_until(t0 + 200);
	json_t *r = play(b, g, "E5");
	json_decref(r);
	r = play(w, g, "C3");
	long long bmain = hj_int(r, "move.clocks.B.main_ms");
	long long t1 = mono_ms();
	json_decref(r);
	sleep_ms(1000); /* Black thinks 1 s; then the server stops cleanly and stays down 1 s */
	long long used = mono_ms() - t1;
	hc_close(b);
	hc_close(w);
	ck_assert_int_eq(hd_stop(&D), 0);
	sleep_ms(1000);
	ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart");
	b = login("st_b");
	long long tr = mono_ms(); /* Black's clock runs from the login */
	json_t *e = state_event(b, g, T);
	ck_assert_msg(e != NULL, "no game.state after the restart");
	long long since = mono_ms() - tr;
	NEAR(hj_int(e, "game.clocks.B.main_ms"), bmain - used - since, TOLERANCE_MS,
	     "Black's main after a clean stop: the second used before it is kept");
	json_decref(e);
	r = hc_req(b, "{s:s, s:I, s:s, s:i}", "cmd", "play", "game", (json_int_t)g, "vertex", "G7",
		   "number", 3);
	OK(r);
	NEAR(hj_int(r, "move.clocks.B.main_ms"), bmain - used - (mono_ms() - tr), TOLERANCE_MS,
	     "Black's main after moving after the restart");
	json_decref(r);
	/* a kill -9 now finds the row as the move left it: no stale kept time */
	ck_assert_int_eq(hd_kill(&D), 0);
	ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart after kill -9");
	struct hc *w2 = login("st_w");
	e = state_event(w2, g, T);
	ck_assert_msg(e != NULL, "no game.state after the second restart");
	ck_assert_pstr_eq(hj_str(e, "game.to_move"), "W");
	ck_assert_msg(hj_int(e, "game.clocks.W.main_ms") > 10000 - 1000,
		      "White's clock after the kill: %s", hj_text(e));
	json_decref(e);
	hc_close(b);
	hc_close(w2);
}
END_TEST

/* A byo-yomi game of `bn` (Black) and `wn` after E5 and C3, both players gone, the daemon
 * killed (kill -9): Black is to move with *bmain ms of main time. Returns the game. */
static long long two_moves_then_kill(const char *bn, const char *wn, long long *bmain)
{
	struct hc *b = login(bn), *w = login(wn);
	long long t0;
	long long g = new_game(b, w, NULL, time_byoyomi(10, 1, 5), NULL, &t0);
	json_t *r = play(b, g, "E5");
	json_decref(r);
	r = play(w, g, "C3");
	*bmain = hj_int(r, "move.clocks.B.main_ms");
	json_decref(r);
	hc_close(b);
	hc_close(w);
	ck_assert_int_eq(hd_kill(&D), 0);
	return g;
}

/* Art. 14 after a restart: the server being down includes the players' reconnecting. After a
 * kill -9 the clock of Black, to move, waits for Black to log in again (up to
 * --restart-grace-s, default 30 s): White, back at once, sees it held (`held_ms`) for 1.5 s
 * while Black is still away; Black's login starts it (White hears game.resume, reason
 * "returned"). Before: it ran from the restart, so a bridge reconnecting with backoff lost
 * seconds, or the game on time. */
START_TEST(test_restart_hold)
{
	long long bmain;
	long long g = two_moves_then_kill("hold_b", "hold_w", &bmain);
	ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart");
	struct hc *w = login("hold_w");
	json_t *e = state_event(w, g, T);
	ck_assert_msg(e != NULL, "no game.state after the restart");
	ck_assert_pstr_eq(hj_str(e, "game.to_move"), "B");
	ck_assert_int_eq(hj_int(e, "game.clocks.B.main_ms"), bmain);
	ck_assert_msg(hj_int(e, "game.held_ms") > 25000, "Black's clock not held: %s", hj_text(e));
	json_decref(e);
	sleep_ms(1500);
	json_t *r = game_query(w, g);
	ck_assert_msg(hj_int(r, "game.clocks.B.main_ms") == bmain,
		      "Black's clock ran while Black was reconnecting: %s", hj_text(r));
	json_decref(r);
	struct hc *b = login("hold_b");
	long long tb = mono_ms();
	e = hc_event(w, "game.resume", g, T);
	ck_assert_msg(e != NULL, "White did not hear that Black's clock runs again");
	ck_assert_pstr_eq(hj_str(e, "reason"), "returned");
	ck_assert_pstr_eq(hj_str(e, "by"), "hold_b");
	ck_assert_pstr_eq(hj_str(e, "to_move"), "B");
	json_decref(e);
	e = state_event(b, g, T);
	ck_assert_msg(e != NULL, "no game.state for Black");
	ck_assert_msg(hj_get(e, "game.held_ms") == NULL, "still held after Black's login: %s",
		      hj_text(e));
	json_decref(e);
	sleep_ms(500);
	r = hc_req(b, "{s:s, s:I, s:s, s:i}", "cmd", "play", "game", (json_int_t)g, "vertex", "G7",
		   "number", 3);
	OK(r);
	NEAR(hj_int(r, "move.clocks.B.main_ms"), bmain - (mono_ms() - tb), TOLERANCE_MS,
	     "Black's main: only the time since Black's login");
	json_decref(r);
	hc_close(b);
	hc_close(w);
}
END_TEST

/* The hold covers every turn of a player not back yet, not only the turn running at the
 * restart: Black, back at once, moves; White, still reconnecting, has the turn, and White's
 * clock waits until White logs in. Before: it ran from Black's move (a bridge 8 s into its
 * backoff lost those seconds). */
START_TEST(test_restart_hold_next_turn)
{
	long long bmain;
	long long g = two_moves_then_kill("next_b", "next_w", &bmain);
	ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart");
	struct hc *b = login("next_b");
	json_t *e = state_event(b, g, T);
	ck_assert_ptr_nonnull(e);
	long long wmain = hj_int(e, "game.clocks.W.main_ms");
	json_decref(e);
	hc_clear(b); /* the game.resume of Black's own return */
	json_t *r = hc_req(b, "{s:s, s:I, s:s, s:i}", "cmd", "play", "game", (json_int_t)g, "vertex",
			   "G7", "number", 3);
	OK(r);
	json_decref(r);
	sleep_ms(1200);
	r = game_query(b, g);
	ck_assert_pstr_eq(hj_str(r, "game.to_move"), "W");
	ck_assert_msg(hj_int(r, "game.clocks.W.main_ms") == wmain,
		      "White's clock ran while White was reconnecting: %s", hj_text(r));
	ck_assert_msg(hj_int(r, "game.held_ms") > 20000, "White's clock not held: %s", hj_text(r));
	json_decref(r);
	struct hc *w = login("next_w");
	long long tw = mono_ms();
	e = hc_event(b, "game.resume", g, T);
	ck_assert_msg(e != NULL, "Black did not hear that White's clock runs");
	ck_assert_pstr_eq(hj_str(e, "by"), "next_w");
	json_decref(e);
	sleep_ms(400);
	r = hc_req(w, "{s:s, s:I, s:s, s:i}", "cmd", "play", "game", (json_int_t)g, "vertex", "C7",
		   "number", 4);
	OK(r);
	NEAR(hj_int(r, "move.clocks.W.main_ms"), wmain - (mono_ms() - tw), TOLERANCE_MS,
	     "White's main: only the time since White's login");
	json_decref(r);
	hc_close(b);
	hc_close(w);
}
END_TEST

/* The hold is bounded: with --restart-grace-s 1 and Black away 2.5 s after the restart,
 * Black's clock has run the 1.5 s past the grace (and the flag's timer counts it). */
START_TEST(test_restart_hold_grace)
{
	long long bmain;
	long long g = two_moves_then_kill("grace_b", "grace_w", &bmain);
	int k = 0;
	while (D.extra[k])
		k++;
	D.extra[k] = strdup("--restart-grace-s");
	D.extra[k + 1] = strdup("1");
	D.extra[k + 2] = NULL;
	ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart");
	long long tr = mono_ms();
	sleep_ms(2500);
	struct hc *b = login("grace_b");
	json_t *e = state_event(b, g, T);
	ck_assert_msg(e != NULL, "no game.state after the restart");
	NEAR(hj_int(e, "game.clocks.B.main_ms"), bmain - (mono_ms() - tr - 1000), TOLERANCE_MS,
	     "Black's main: the time past the grace");
	json_decref(e);
	hc_close(b);
}
END_TEST

/* Issue 20 item 7: a stall of the server is not a player's time. Black has 1 s of main time
 * and one period of 2 s; 1 s into the turn the daemon is stopped (SIGSTOP) for 3 s and Black's
 * move reaches the socket during the stop. The move is judged by when it arrived and the stop
 * is credited: it is accepted and the game goes on (before: "your time ran out", W+T). Then
 * White, who does not move, still loses on time when the flag really falls. */
#define STALL_STOP_MS 3000
/* Art. 14 and 22: the time the server is down is no lateness. A round starts; nobody has
 * joined 1 s later when the server is killed; it is down 5 s, past the 4 s limit. Before, the
 * restart forfeited the game at once (Void, double_forfeit) though only ~1 s of lateness ran
 * while anyone could have joined. Now the game is on; the credit is saved with it (a second
 * kill and restart keep it); Black joins late by about the time the server ran since the
 * start (up to SERVER_ALIVE_MS less: the last mark before a kill), and White, who never
 * joins, loses by lateness once 4 s of it have run while the server was up. */
#define DOWN_LIMIT_S 4
START_TEST(test_lateness_downtime)
{
	struct hc *td = director("down_td"), *a = login("down_a"), *b = login("down_b");
	double start_at = wall_s() + 0.5;
	const char *black;
	long long g = scheduled_game(td, "down cup", "down_a", "down_b",
				     json_pack("{s:o, s:i}", "time", time_byoyomi(60, 1, 10),
					       "lateness_limit_s", DOWN_LIMIT_S), start_at, &black);
	hc_close(td);
	hc_close(a);
	hc_close(b);
	sleep_ms(1500);
	ck_assert_int_eq(hd_kill(&D), 0);
	sleep_ms(5000);
	ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart");
	long long up = mono_ms();
	struct hc *q = login("down_td");
	json_t *r = game_query(q, g);
	ck_assert_msg(strcmp(hj_str(r, "game.phase"), "playing") == 0,
		      "the game ended at the restart for the server's downtime: %s", hj_text(r));
	json_decref(r);
	ck_assert(hd_log_has(&D, "lateness_credit game="));
	/* killed again at once: the credit was saved with the game. This time with the WAL's
	 * sync on its own thread: saving the credit left a transaction open at the start, and
	 * the syncer fell back to the commit's syncs ("mode=in_commit") */
	ck_assert_int_eq(hd_kill(&D), 0);
	sleep_ms(1000);
	ck_assert_ptr_null(D.extra[0]);
	D.extra[0] = strdup("--sync");
	D.extra[1] = strdup("power-safe-thread");
	D.extra[2] = NULL;
	ck_assert_msg(hd_restart(&D) == 0, "tengend did not restart the second time");
	ck_assert(hd_log_has(&D, "syncer mode=thread"));
	ck_assert_msg(!hd_log_has(&D, "mode=in_commit"), "the syncer fell back after the credit");
	hc_close(q);
	q = login("down_td");
	r = game_query(q, g);
	ck_assert_msg(strcmp(hj_str(r, "game.phase"), "playing") == 0,
		      "the first downtime's credit was lost at the second restart: %s", hj_text(r));
	json_decref(r);
	struct hc *cb = login(black);
	r = hc_req(cb, "{s:s, s:I}", "cmd", "join", "game", (json_int_t)g);
	OK(r);
	long long late = hj_int(r, "late_ms");
	ck_assert_msg(late >= 0 && late < 1000 + (mono_ms() - up) + TOLERANCE_MS,
		      "Black's late_ms %lld counts the downtime", late);
	json_decref(r);
	/* White stays away: lost by lateness within the limit's time of the server running */
	json_t *e = hc_event(cb, "game.end", g, DOWN_LIMIT_S * 1000 + T);
	ck_assert_msg(e != NULL, "White, absent, did not lose by lateness");
	ck_assert_pstr_eq(hj_str(e, "reason"), "lateness");
	json_decref(e);
	hc_close(cb);
	hc_close(q);
}
END_TEST

START_TEST(test_stall_not_charged)
{
	struct hc *b = login("stall_b"), *w = login("stall_w");
	long long t0;
	long long g = new_game(b, w, NULL, time_byoyomi(1, 1, 2), NULL, &t0);
	sleep_until(t0 + 1000);
	ck_assert_int_eq(kill(D.pid, SIGSTOP), 0);
	long long stopped = mono_ms();
	sleep_ms(500);
	json_t *req = json_pack("{s:s, s:s, s:I, s:s}", "cmd", "play", "id", "stalled", "game",
				(json_int_t)g, "vertex", "E5");
	char *line = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	int sent = hc_send_line(b, line);
	free(line);
	sleep_until(stopped + STALL_STOP_MS);
	ck_assert_int_eq(kill(D.pid, SIGCONT), 0);
	ck_assert_int_eq(sent, 0);
	json_t *r = hc_reply(b, T);
	ck_assert_msg(r != NULL, "no reply to the move sent during the stop");
	ck_assert_pstr_eq(hj_str(r, "id"), "stalled");
	ck_assert_msg(hj_ok(r), "the move sent in time during a stall was refused: %s", hj_text(r));
	/* About 1 s used in all: main time gone, the period kept. */
	ck_assert_int_eq(hj_int(r, "move.clocks.B.periods"), 1);
	ck_assert_int_eq(hj_int(r, "move.clocks.B.period_ms"), 2000);
	json_decref(r);
	r = game_query(w, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "playing");
	ck_assert_pstr_eq(hj_str(r, "game.to_move"), "W");
	json_decref(r);
	/* White's flag falls for real: 1 s + 2 s from Black's move. */
	long long tw = mono_ms();
	json_t *e = hc_event(b, "game.end", g, 3000 + T);
	ck_assert_msg(e != NULL, "White's flag did not fall");
	ck_assert_pstr_eq(hj_str(e, "result"), "B+T");
	json_decref(e);
	NEAR(mono_ms() - tw, 3000, 2 * TOLERANCE_MS, "ms from Black's move to White's flag");
	hc_close(b);
	hc_close(w);
}
END_TEST

static Suite *clocks_suite(void)
{
	Suite *s = suite_create("clocks");
	TCase *tc = tcase_create("clocks");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, test_flag_falls_unattended);
	tcase_add_test(tc, test_byoyomi_period_kept);
	tcase_add_test(tc, test_byoyomi_long_move);
	tcase_add_test(tc, test_last_period_pass);
	tcase_add_test(tc, test_canadian_block);
	tcase_add_test(tc, test_fischer_increment);
	tcase_add_test(tc, test_late_join_double);
	tcase_add_test(tc, test_start_in_past);
	tcase_add_test(tc, test_lateness_forfeits);
	tcase_add_test(tc, test_pause_resume);
	tcase_add_test(tc, test_reconnect);
	tcase_add_test(tc, test_restart_kill9);
	tcase_add_test(tc, test_restart_sigterm);
	tcase_add_test(tc, test_restart_hold);
	tcase_add_test(tc, test_restart_hold_grace);
	tcase_add_test(tc, test_lateness_downtime);
	tcase_add_test(tc, test_restart_hold_next_turn);
	tcase_add_test(tc, test_stall_not_charged);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(clocks_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
