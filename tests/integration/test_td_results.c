/* Integration tests of a director's result entry (issue 16 item 4), against a real tengend
 * (TENGEND, else ./server/tengend), driven over TCP through tests/support/harness and
 * tests/support/tourtest: tournament.result reads the result case-insensitively ("b+r"),
 * takes jigo/draw for 0 and double_loss for Void with reason double_forfeit, replies with the
 * stored form; its errors name only what was given; a td may not touch a casual game, an
 * admin may (logged). Rules: docs/rules.md §4; wire: docs/protocol.md, tournament.result.
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon in a fresh
 * directory.
 */
#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "tourtest.h"

#define TEST_TIMEOUT_S 60 /* per test (Check's own timeout) */

/* tournament.result of `given` (and `reason`, NULL: none) for game g by c: the reply (new
 * reference). */
static json_t *set_result(struct hc *c, long long g, const char *given, const char *reason)
{
	json_t *req = json_pack("{s:s, s:I, s:s}", "cmd", "tournament.result", "game", (json_int_t)g,
				"result", given);
	if (reason)
		json_object_set_new(req, "reason", json_string(reason));
	return hc_reqj(c, req);
}

/* The result `given` is accepted, the reply and the stored game say `stored` with `reason`.
 * Returns whether the reply said `unchanged` (nothing written: the game had it already). */
static bool expect_stored(struct hc *c, long long g, const char *given, const char *reason,
			  const char *stored, const char *stored_reason)
{
	json_t *r = set_result(c, g, given, reason);
	OK(r);
	ck_assert_msg(strcmp(hj_str(r, "result"), stored) == 0, "'%s' replied as %s", given,
		      hj_text(r));
	bool unchanged = json_is_true(hj_get(r, "unchanged"));
	json_decref(r);
	r = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "game.result"), stored);
	ck_assert_pstr_eq(hj_str(r, "game.reason"), stored_reason);
	json_decref(r);
	return unchanged;
}

/* A refusal: bad_request whose message holds `has` and not `has_not` (NULL: unchecked). */
static void expect_refused(struct hc *c, long long g, const char *given, const char *reason,
			   const char *has, const char *has_not)
{
	json_t *r = set_result(c, g, given, reason);
	ERR(r, "bad_request");
	const char *m = hj_str(r, "error.message");
	ck_assert_msg(m && strstr(m, has), "'%s' (reason %s): message without '%s': %s", given,
		      reason ? reason : "none", has, hj_text(r));
	ck_assert_msg(!has_not || !strstr(m, has_not), "'%s' (reason %s): message with '%s': %s",
		      given, reason ? reason : "none", has_not, hj_text(r));
	json_decref(r);
}

/* A Swiss of `n` players (even) and `rounds` rounds, named after `tag` ("rf": rf_td directs
 * "RF Cup"), its first round started (n / 2 games). */
static void swiss_started(struct tt_event *e, char names[][32], const char *tag, int n,
			  int rounds, bool rated)
{
	char td[16], cup[16];
	snprintf(td, sizeof td, "%s_td", tag);
	snprintf(cup, sizeof cup, "%c%c Cup", tag[0] - 'a' + 'A', tag[1] - 'a' + 'A');
	tt_players(e, tag, n, names);
	e->td = tt_director(td);
	e->id = tt_create(e->td, cup, "swiss", json_pack("{s:i, s:b}", "rounds", rounds, "rated",
							   rated));
	for (int i = 0; i < e->n; i++)
		tt_register(e, i);
	ck_assert_int_eq(tt_start_round(e, 1), n / 2);
}

/* A one-round Swiss of two players, its round started: the id of its one game. */
static long long one_game_event_ex(struct tt_event *e, char names[][32], const char *tag,
				   bool rated)
{
	swiss_started(e, names, tag, 2, 1, rated);
	return e->g[0].id;
}

static long long one_game_event(struct tt_event *e, char names[][32], const char *tag)
{
	return one_game_event_ex(e, names, tag, false);
}

/* Every accepted form, in any case, stored in its one form; a double loss. */
START_TEST(test_result_forms)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	long long g = one_game_event(&e, names, "rf");
	expect_stored(e.td, g, "b+r", NULL, "B+R", "adjudicated"); /* a live game ends */
	expect_stored(e.td, g, "w+3", NULL, "W+3", "adjudicated"); /* komi 0: whole margins */
	expect_stored(e.td, g, "b+t", "time", "B+T", "time");
	expect_stored(e.td, g, "W+f", NULL, "W+F", "adjudicated");
	expect_stored(e.td, g, "jigo", NULL, "0", "adjudicated");
	expect_stored(e.td, g, "B+R", "resignation", "B+R", "resignation");
	expect_stored(e.td, g, "DRAW", NULL, "0", "adjudicated");
	expect_stored(e.td, g, "Draw", NULL, "0", "adjudicated");
	expect_stored(e.td, g, "0", NULL, "0", "adjudicated");
	expect_stored(e.td, g, "void", NULL, "Void", "adjudicated");
	expect_stored(e.td, g, "Double_Loss", NULL, "Void", "double_forfeit");
	expect_stored(e.td, g, "w+r", NULL, "W+R", "adjudicated");
	expect_stored(e.td, g, "double_loss", "double_forfeit", "Void", "double_forfeit");
	expect_stored(e.td, g, "Void", "double_forfeit", "Void", "double_forfeit");
	json_t *r = hc_req(e.td, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament",
			   (json_int_t)e.id, "round", 1);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "pairings.0.result"), "double_loss");
	ck_assert(json_is_true(hj_get(r, "pairings.0.forfeit"))); /* not played */
	json_decref(r);

	/* Errors name what was given: the accepted forms for a bad result, no reason unless one
	 * was given; a bad reason as such; a double loss with another reason. */
	expect_refused(e.td, g, "X+1", NULL, "B+R, W+3.5, B+T, W+F, 0/jigo/draw, Void, double_loss",
		       "reason");
	expect_refused(e.td, g, "x+1", NULL, "'x+1' is not a result", NULL);
	/* a margin the area count cannot give with the game's komi (0: 81 points, whole) */
	expect_refused(e.td, g, "w+3.5", NULL, "with this game's komi, 0 (the margin minus the komi "
		       "is a whole number of points: W+3 or W+4)", "reason");
	expect_refused(e.td, g, "tie", "resignation", "'tie' is not a result", "'reason'");
	expect_refused(e.td, g, "B+R", "nonsense", "field 'reason': 'nonsense' is not a reason",
		       "is not a result");
	expect_refused(e.td, g, "B+R", "declined", "'declined' is not a reason", NULL);
	expect_refused(e.td, g, "B+R", "expired", "'expired' is not a reason", NULL);
	expect_refused(e.td, g, "b+r", "double_forfeit", "not 'B+R'", "is not a result");
	expect_refused(e.td, g, "double_loss", "time", "a double loss has reason double_forfeit",
		       NULL);
	/* Nothing changed by the refusals. */
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	ck_assert_pstr_eq(hj_str(r, "game.result"), "Void");
	json_decref(r);
	tt_close_all(&e);
}
END_TEST

/* A result no game can have: a margin beyond the board and the komi (W+300.5 on 9x9, komi
 * 7.5: at most 81 points, 2 for a warning and the komi, 90.5), and a reason the result
 * contradicts (W+R with score, B+4.5 with resignation, B+F with score): each was stored as
 * typed. The reason is read in any case, as the result is (SCORE was refused, b+r not). */
START_TEST(test_result_bounds_and_reasons)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	tt_players(&e, "rb", 2, names);
	e.td = tt_director("rb_td");
	e.id = tt_create(e.td, "RB Cup", "swiss", json_pack("{s:i, s:f}", "rounds", 1, "komi", 7.5));
	for (int i = 0; i < e.n; i++)
		tt_register(&e, i);
	ck_assert_int_eq(tt_start_round(&e, 1), 1);
	long long g = e.g[0].id;
	expect_refused(e.td, g, "W+300.5", NULL, "field 'result': 'W+300.5' is more than any count "
		       "can give on this game's 9x9 board: a margin is at most 90.5 points there "
		       "(the board's 81 points, 2 for a warning, and the komi, 7.5)", "reason");
	expect_refused(e.td, g, "b+91.5", NULL, "at most 90.5 points", NULL);
	expect_refused(e.td, g, "W+300.5", "score", "'W+300.5' is more than any count", NULL);
	/* a reason and a result that contradict each other, named both ways */
	expect_refused(e.td, g, "W+R", "score", "field 'reason': score does not go with 'W+R': "
		       "score goes with a counted result (W+3.5, B+12, 0), and W+R with resignation "
		       "or adjudicated (adjudicated with any: a director's decision, Art. 23)", NULL);
	expect_refused(e.td, g, "B+4.5", "resignation", "resignation does not go with 'B+4.5': "
		       "resignation goes with B+R or W+R, and B+4.5 with score or adjudicated", NULL);
	expect_refused(e.td, g, "B+F", "score", "score does not go with 'B+F': score goes with a "
		       "counted result (W+3.5, B+12, 0), and B+F with warnings, illegal, lateness or "
		       "adjudicated", NULL);
	expect_refused(e.td, g, "w+t", "Resignation", "resignation does not go with 'W+T'", NULL);
	expect_refused(e.td, g, "b+r", "TIME", "time does not go with 'B+R'", NULL);
	expect_refused(e.td, g, "void", "lateness", "lateness does not go with 'Void'", NULL);
	expect_refused(e.td, g, "b+r", "cycle", "cycle does not go with 'B+R': cycle goes with Void",
		       NULL);
	/* still an error of its own: a double loss, an unknown reason */
	expect_refused(e.td, g, "b+r", "Double_Forfeit", "not 'B+R'", NULL);
	expect_refused(e.td, g, "b+r", "scored", "'scored' is not a reason", NULL);
	/* nothing was stored by the refusals */
	json_t *r = hc_req(e.td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	OK(r);
	ck_assert_msg(!json_is_string(hj_get(r, "game.result")), "%s", hj_text(r));
	json_decref(r);
	/* what goes together, in any case, stored in the one form */
	expect_stored(e.td, g, "b+4.5", "SCORE", "B+4.5", "score");
	expect_stored(e.td, g, "W+90.5", "Score", "W+90.5", "score"); /* the most a count gives */
	expect_stored(e.td, g, "w+r", "Resignation", "W+R", "resignation");
	expect_stored(e.td, g, "b+t", "time", "B+T", "time");
	expect_stored(e.td, g, "B+F", "Warnings", "B+F", "warnings");
	expect_stored(e.td, g, "w+f", "lateness", "W+F", "lateness");
	expect_stored(e.td, g, "w+f", "illegal", "W+F", "illegal");
	expect_stored(e.td, g, "void", "CYCLE", "Void", "cycle");
	expect_stored(e.td, g, "b+r", "adjudicated", "B+R", "adjudicated");
	expect_stored(e.td, g, "jigo", "Adjudicated", "0", "adjudicated"); /* Art. 23 */
	expect_stored(e.td, g, "Void", "DOUBLE_FORFEIT", "Void", "double_forfeit");
	tt_close_all(&e);
}
END_TEST

/* The reply says where a result went (the event, the round), and warns when the game is not
 * of the current round: game numbers are the server's, and a typo landed in another round
 * (or event) without a word; changed there, the rounds after it were paired from the old. */
START_TEST(test_result_where)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	swiss_started(&e, names, "rw", 4, 2, false);
	json_t *r = set_result(e.td, e.g[0].id, "B+R", NULL);
	OK(r);
	ck_assert_int_eq(hj_int(r, "tournament"), e.id);
	ck_assert_pstr_eq(hj_str(r, "tournament_name"), "RW Cup");
	ck_assert_int_eq(hj_int(r, "round"), 1);
	ck_assert_int_eq(json_array_size(hj_get(r, "warnings")), 0);
	json_decref(r);
	r = set_result(e.td, e.g[1].id, "W+R", NULL);
	OK(r);
	json_decref(r);
	ck_assert_int_eq(tt_start_round(&e, 2), 2);
	r = set_result(e.td, e.g[0].id, "W+R", NULL); /* round 1's, changed in round 2 */
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), 1);
	ck_assert_msg(json_array_size(hj_get(r, "warnings")) == 1 &&
		      strstr(hj_str(r, "warnings.0"), "of round 1, not of the current round (2)") &&
		      strstr(hj_str(r, "warnings.0"), "paired from the result it replaced"), "%s",
		      hj_text(r));
	json_decref(r);
	tt_close_all(&e);
}
END_TEST

/* The result a game has already, entered again without a reason (a results file entered
 * twice): nothing changes. It was written again: its reason became adjudicated and the SGF
 * said the director set it. With a reason it is written; Void always is. */
START_TEST(test_result_unchanged)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	long long g = one_game_event(&e, names, "ru");
	tt_play_out(&e, &e.g[0], TT_BLACK_RESIGNS); /* W+R, reason resignation */
	json_t *r = set_result(e.td, g, "w+r", NULL);
	OK(r);
	ck_assert_msg(json_is_true(hj_get(r, "unchanged")) && !strcmp(hj_str(r, "previous"), "W+R"),
		      "%s", hj_text(r));
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	ck_assert_pstr_eq(hj_str(r, "game.reason"), "resignation");
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)g);
	ck_assert_msg(!strstr(hj_str(r, "sgf"), "set by the tournament director"), "%s",
		      hj_str(r, "sgf"));
	json_decref(r);
	/* with a reason: written */
	ck_assert(!expect_stored(e.td, g, "W+R", "adjudicated", "W+R", "adjudicated"));
	/* Void: a double loss turned into a void game is a change */
	expect_stored(e.td, g, "double_loss", NULL, "Void", "double_forfeit");
	ck_assert(!expect_stored(e.td, g, "void", NULL, "Void", "adjudicated"));
	tt_close_all(&e);
}
END_TEST

/* Player `name`'s rating as `player` gives it. */
static double rating_of(struct hc *c, const char *name)
{
	json_t *r = hc_req(c, "{s:s, s:s}", "cmd", "player", "name", name);
	OK(r);
	double v = json_number_value(hj_get(r, "player.rating"));
	json_decref(r);
	return v;
}

/* Game g's `rated`, and both players' ratings are (or are not) those given. */
static void expect_rating(struct tt_event *e, long long g, bool rated, double black, double white,
			  bool same)
{
	json_t *r = hc_req(e->td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	ck_assert_msg(json_is_true(hj_get(r, "game.rated")) == rated, "%s", hj_text(r));
	double b = 0, w = 0;
	b = rating_of(e->td, hj_str(r, "game.black"));
	w = rating_of(e->td, hj_str(r, "game.white"));
	json_decref(r);
	ck_assert_msg((b == black && w == white) == same, "ratings %f %f, before %f %f", b, w, black,
		      white);
}

/* The one pairing of round 1 of e says whether its game was played (`forfeit`: the exports'
 * '!'; a forfeit lost on the board, "B+F" as well, was played). */
static void expect_pairing_forfeit(struct tt_event *e, bool forfeit)
{
	json_t *r = hc_req(e->td, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament",
			   (json_int_t)e->id, "round", 1);
	OK(r);
	ck_assert_msg(json_is_true(hj_get(r, "pairings.0.forfeit")) == forfeit,
		      "result %s: forfeit %s: %s", hj_str(r, "pairings.0.result"),
		      forfeit ? "missing" : "given", hj_text(r));
	json_decref(r);
}

/* A director's forfeit (B+F, W+F) was not played: it moves no rating (docs/td-guide.md §4; the
 * h9 marks it `!`, unrated at the EGD); the real result entered later counts again; a forfeit
 * lost on the board (reason warnings) counts. Before, every result a director gave was rated. */
START_TEST(test_forfeit_unrated)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	long long g = one_game_event_ex(&e, names, "fu", true);
	json_t *r = hc_req(e.td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	double b0 = rating_of(e.td, hj_str(r, "game.black")), w0 = rating_of(e.td, hj_str(r, "game.white"));
	json_decref(r);
	expect_stored(e.td, g, "b+f", NULL, "B+F", "adjudicated");
	expect_rating(&e, g, false, b0, w0, true);
	expect_pairing_forfeit(&e, true);
	expect_stored(e.td, g, "B+R", NULL, "B+R", "adjudicated"); /* it was played after all */
	expect_rating(&e, g, true, b0, w0, false);
	expect_pairing_forfeit(&e, false);
	expect_stored(e.td, g, "W+F", NULL, "W+F", "adjudicated"); /* the rating taken back */
	expect_rating(&e, g, false, b0, w0, true);
	expect_pairing_forfeit(&e, true);
	expect_stored(e.td, g, "W+F", "warnings", "W+F", "warnings"); /* lost on the board */
	expect_rating(&e, g, true, b0, w0, false);
	expect_pairing_forfeit(&e, false);
	tt_close_all(&e);
}
END_TEST

/* A casual game: forbidden to a td (the game goes on), allowed to an admin and logged. */
START_TEST(test_casual_game)
{
	struct hc *td = tt_director("cg_td");
	struct hc *b = tt_login("cg_b"), *w = tt_login("cg_w");
	long long g = st_new_game(b, w);
	json_t *r = set_result(td, g, "B+R", NULL);
	ERR(r, "forbidden");
	char want[64];
	snprintf(want, sizeof want, "game %lld is not a tournament game", g);
	ck_assert_msg(strstr(hj_str(r, "error.message"), want), "message: %s", hj_text(r));
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "playing");
	json_decref(r);
	r = set_result(td, 999999, "B+R", NULL); /* an unknown game stays not_found */
	ERR(r, "not_found");
	json_decref(r);

	hc_close(tt_login("cg_admin"));
	ck_assert_int_eq(hd_grant(&tt_d, "cg_admin", "admin"), 0);
	struct hc *admin = tt_login("cg_admin");
	double rb = rating_of(admin, "cg_b"), rw = rating_of(admin, "cg_w");
	/* an admin's forfeit of a rated casual game moves no rating; the game stays rated, so
	 * the result corrected later counts */
	expect_stored(admin, g, "W+F", NULL, "W+F", "adjudicated");
	ck_assert(rating_of(admin, "cg_b") == rb && rating_of(admin, "cg_w") == rw);
	expect_stored(admin, g, "w+r", NULL, "W+R", "adjudicated");
	ck_assert(rating_of(admin, "cg_w") > rw);
	ck_assert(hd_log_has(&tt_d, "result_admin"));
	ck_assert(hd_log_has(&tt_d, "by=cg_admin game="));
	expect_stored(admin, g, "b+3.5", NULL, "B+3.5", "adjudicated"); /* an ended game overridden */
	/* a draw cannot come out of an area count with komi 7.5 (it did pass before) */
	expect_refused(admin, g, "jigo", NULL, "a draw needs a whole komi", NULL);
	/* ... but a director may adjudicate one, saying so (Art. 23: win, loss, draw, double
	 * loss, void); it was refused whatever the reason */
	expect_refused(admin, g, "draw", "resignation", "a draw needs a whole komi", NULL);
	expect_stored(admin, g, "jigo", "adjudicated", "0", "adjudicated");
	expect_stored(admin, g, "Draw", "adjudicated", "0", "adjudicated");
	r = set_result(td, g, "B+R", NULL);
	ERR(r, "forbidden");
	json_decref(r);
	hc_close(admin);
	hc_close(td);
	hc_close(b);
	hc_close(w);
}
END_TEST

/* A director's warning (Art. 23) is in the game's warning_log with its text, marked
 * by_director, after the events are gone: a page opened later said only "1 warning". */
START_TEST(test_warning_log)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	tt_players(&e, "wl", 2, names);
	e.td = tt_director("wl_td");
	e.id = tt_create(e.td, "WL Cup", "round_robin", NULL);
	for (int i = 0; i < e.n; i++)
		tt_register(&e, i);
	ck_assert_int_eq(tt_start_round(&e, 1), 1);
	json_t *r = hc_req(e.td, "{s:s, s:I, s:s, s:s}", "cmd", "tournament.warn", "game",
			   (json_int_t)e.g[0].id, "color", "W", "reason", "phone rang");
	OK(r);
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)e.g[0].id);
	OK(r);
	ck_assert_int_eq(hj_int(r, "game.warnings.W"), 1);
	ck_assert_int_eq(json_array_size(hj_get(r, "game.warning_log")), 1);
	ck_assert_pstr_eq(hj_str(r, "game.warning_log.0.color"), "W");
	ck_assert_pstr_eq(hj_str(r, "game.warning_log.0.reason"), "phone rang");
	ck_assert(json_is_true(hj_get(r, "game.warning_log.0.by_director")));
	json_decref(r);
	/* a director's reason that names an offence is still the director's (it was guessed from
	 * the text, and said by_director false) */
	r = hc_req(e.td, "{s:s, s:I, s:s, s:s}", "cmd", "tournament.warn", "game",
		   (json_int_t)e.g[0].id, "color", "B", "reason", "superko");
	OK(r);
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)e.g[0].id);
	ck_assert_pstr_eq(hj_str(r, "game.warning_log.1.reason"), "superko");
	ck_assert(json_is_true(hj_get(r, "game.warning_log.1.by_director")));
	json_decref(r);
	/* and in the ended game, rebuilt from the store */
	r = set_result(e.td, e.g[0].id, "B+R", NULL);
	OK(r);
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)e.g[0].id);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "ended");
	ck_assert_pstr_eq(hj_str(r, "game.warning_log.0.reason"), "phone rang");
	json_decref(r);
	tt_close_all(&e);
}
END_TEST

/* The director asks `cmd` (round 1) of the event: the row of the reply's array `list` whose
 * `key` equals `want` (stolen); the reply (a new reference) in *r. */
static json_t *row_of(struct tt_event *e, const char *cmd, const char *list, const char *key,
		      json_t *want, json_t **r)
{
	*r = hc_req(e->td, "{s:s, s:I, s:i}", "cmd", cmd, "tournament", (json_int_t)e->id,
		    "round", 1);
	OK(*r);
	size_t i;
	json_t *row;
	json_array_foreach(hj_get(*r, list), i, row)
		if (json_equal(json_object_get(row, key), want)) {
			json_decref(want);
			return row;
		}
	ck_abort_msg("no %s %s in the %s: %s", key, json_dumps(want, JSON_ENCODE_ANY), list,
		     hj_text(*r));
	return NULL;
}

/* Standings: `name` has `points` and `warnings`. Pairings: game g shows `phase` (NULL: none,
 * it has a result), `paused` or not, and `result` (NULL: none). Each asked twice: the second
 * answer comes from the reply cache (cmd/dispatch.c) and must be the first's. */
static void expect_views(struct tt_event *e, const char *name, int points, int warnings,
			 long long g, const char *phase, bool paused, const char *result)
{
	char *first[2] = {NULL, NULL};
	for (int k = 0; k < 2; k++) {
		json_t *r, *row = row_of(e, "tournament.standings", "standings", "player",
					 json_string(name), &r);
		ck_assert_msg(hj_int(row, "points") == points && hj_int(row, "warnings") == warnings,
			      "%s: want %d points, %d warnings: %s", name, points, warnings, hj_text(row));
		json_t *q, *p = row_of(e, "tournament.pairings", "pairings", "game",
				       json_integer(g), &q);
		ck_assert_msg(phase ? hj_str(p, "phase") && strcmp(hj_str(p, "phase"), phase) == 0
				    : !hj_get(p, "phase"), "game %lld: want phase %s: %s", g,
			      phase ? phase : "none", hj_text(p));
		ck_assert_msg(json_is_true(hj_get(p, "paused")) == paused, "game %lld: want %s: %s", g,
			      paused ? "paused" : "not paused", hj_text(p));
		ck_assert_msg(result ? hj_str(p, "result") && strcmp(hj_str(p, "result"), result) == 0
				     : json_is_null(hj_get(p, "result")), "game %lld: want result %s: %s", g,
			      result ? result : "none", hj_text(p));
		json_object_del(r, "id");
		json_object_del(q, "id");
		json_t *both = json_pack("[oo]", r, q); /* takes both references */
		first[k] = json_dumps(both, JSON_COMPACT | JSON_SORT_KEYS);
		json_decref(both);
	}
	ck_assert_str_eq(first[1], first[0]);
	free(first[0]);
	free(first[1]);
}

/* Standings and pairings are cached until a row other than a move's is written (issue 22: a
 * 2,000-entrant Swiss cost 34-36 ms a request, and a client asking in a loop held the loop);
 * each change they show is there at the next request: moves (none), the games' begin
 * (scheduled to playing), a pause and a resume, the counting phase, a director's warning, a
 * result and its correction. */
START_TEST(test_views_follow_changes)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	swiss_started(&e, names, "vc", 4, 2, false);
	struct tt_game *g0 = &e.g[0], *g1 = &e.g[1];
	const char *b0 = e.names[g0->b], *w0 = e.names[g0->w];
	expect_views(&e, b0, 0, 0, g0->id, "scheduled", false, NULL);
	for (int k = 0; k < 2; k++) {
		json_t *ev = hc_event(e.c[e.g[k].b], "game.begin", e.g[k].id, T);
		ck_assert_msg(ev != NULL, "game %lld did not begin", e.g[k].id);
		json_decref(ev);
	}
	expect_views(&e, b0, 0, 0, g0->id, "playing", false, NULL);
	tt_mv(e.c[g0->b], g0->id, "C3");
	tt_mv(e.c[g0->w], g0->id, "G7");
	expect_views(&e, b0, 0, 0, g0->id, "playing", false, NULL);
	tt_req_ok(e.td, json_pack("{s:s, s:I}", "cmd", "game.pause", "game", (json_int_t)g0->id));
	expect_views(&e, b0, 0, 0, g0->id, "playing", true, NULL);
	tt_req_ok(e.td, json_pack("{s:s, s:I}", "cmd", "game.resume", "game", (json_int_t)g0->id));
	expect_views(&e, b0, 0, 0, g0->id, "playing", false, NULL);
	tt_mv(e.c[g1->b], g1->id, "pass");
	tt_mv(e.c[g1->w], g1->id, "pass");
	expect_views(&e, b0, 0, 0, g1->id, "counting", false, NULL);
	tt_req_ok(e.td, json_pack("{s:s, s:I, s:s, s:s}", "cmd", "tournament.warn", "game",
				  (json_int_t)g0->id, "color", "W", "reason", "phone rang"));
	expect_views(&e, w0, 0, 1, g0->id, "playing", false, NULL);
	json_t *r = set_result(e.td, g0->id, "B+R", NULL);
	OK(r);
	json_decref(r);
	expect_views(&e, b0, 2, 0, g0->id, NULL, false, "B+R");
	r = set_result(e.td, g0->id, "W+R", NULL);
	OK(r);
	json_decref(r);
	expect_views(&e, b0, 0, 0, g0->id, NULL, false, "W+R");
	expect_views(&e, w0, 2, 1, g0->id, NULL, false, "W+R");
	tt_close_all(&e);
}
END_TEST

/* The same with the group commit's sync on a thread (--sync power-safe-thread), where a reply
 * waits in the connection's `later` queue while a sync is under way and is cached from there. */
static void setup_sync_thread(void)
{
	static const char *const extra[] = {"--sync", "power-safe-thread", NULL};
	st_start(&tt_d, extra);
}

static Suite *results_suite(void)
{
	Suite *s = suite_create("td results");
	TCase *tc = tcase_create("results");
	tcase_add_checked_fixture(tc, tt_setup, tt_teardown);
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, test_result_forms);
	tcase_add_test(tc, test_result_bounds_and_reasons);
	tcase_add_test(tc, test_casual_game);
	tcase_add_test(tc, test_result_where);
	tcase_add_test(tc, test_result_unchanged);
	tcase_add_test(tc, test_warning_log);
	tcase_add_test(tc, test_forfeit_unrated);
	tcase_add_test(tc, test_views_follow_changes);
	suite_add_tcase(s, tc);
	TCase *tt = tcase_create("views, sync thread");
	tcase_add_checked_fixture(tt, setup_sync_thread, tt_teardown);
	tcase_set_timeout(tt, TEST_TIMEOUT_S);
	tcase_add_test(tt, test_views_follow_changes);
	suite_add_tcase(s, tt);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(results_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
