/* Integration tests of how a tournament's games are made and ended, against a real tengend
 * (TENGEND, else ./server/tengend), driven over TCP through tests/support/harness and tests/support/tourtest:
 * regressions from review (a refused time control, a withdrawal's forfeit, a drawn knockout
 * game replayed) and issue 15: a handicap McMahon (handicap 1, handicaps capped by small
 * boards), the handicap komi counted as recorded (checked by tengen score and GNU Go), a round
 * refused without a change, a double forfeit with one meaning. Rules: Chinese Weiqi Rules
 * 2002 (docs/rules.md); wire: docs/protocol.md.
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon in a fresh
 * directory.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "harness.h"
#include "srvtest.h"
#include "tourtest.h"

#define TEST_TIMEOUT_S 60      /* per test (Check's own timeout) */

/* Regressions from review: a time control the clocks refuse is refused at creation (it used to
 * spin the server's timer); a forfeit by withdrawal moves no rating; a drawn knockout game is
 * replayed in the same round with colours swapped. */
START_TEST(test_review_regressions)
{
	struct hc *td = tt_director("rv_td");
	struct hc *pa = tt_login("rv_a"), *pb = tt_login("rv_b"), *pc = tt_login("rv_c");
	json_t *r = hc_req(td, "{s:s, s:s, s:s, s:{s:s, s:i, s:i}}", "cmd", "tournament.create", "name",
			   "RV bad clock", "system", "round_robin", "time", "system", "fischer", "main_s", 0,
			   "increment_s", 10);
	ERR(r, "bad_request");
	json_decref(r);

	r = hc_req(td, "{s:s, s:s, s:s}", "cmd", "tournament.create", "name", "RV RR", "system", "round_robin");
	OK(r);
	json_int_t rr = hj_int(r, "tournament");
	json_decref(r);
	const char *names[] = {"rv_a", "rv_b", "rv_c"};
	for (int i = 0; i < 3; i++) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament", rr, "player", names[i]);
		OK(r);
		json_decref(r);
	}
	struct timeval tv;
	gettimeofday(&tv, NULL);
	r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament", rr, "start_at",
		   (double)tv.tv_sec + 3600);
	OK(r);
	json_decref(r);
	/* rv_b's game of round 1, if paired (not the bye): no result yet */
	r = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament", rr, "round", 1);
	OK(r);
	long long unfinished = 0;
	size_t pi;
	json_t *pv;
	json_array_foreach(hj_get(r, "pairings"), pi, pv)
		if (json_is_integer(json_object_get(pv, "game")) &&
		    (strcmp(hj_str(pv, "black"), "rv_b") == 0 || strcmp(hj_str(pv, "white"), "rv_b") == 0))
			unfinished = hj_int(pv, "game");
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament", rr, "player", "rv_b");
	OK(r);
	/* the forfeit written for it is in the reply (the director was not told before) */
	ck_assert_int_eq(json_array_size(hj_get(r, "forfeited")), unfinished ? 1 : 0);
	if (unfinished) {
		ck_assert_int_eq(hj_int(r, "forfeited.0.game"), unfinished);
		ck_assert_int_eq(hj_int(r, "forfeited.0.round"), 1);
		json_t *fg = hc_req(td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)unfinished);
		ck_assert_pstr_eq(hj_str(fg, "game.result"), hj_str(r, "forfeited.0.result"));
		ck_assert_pstr_eq(hj_str(fg, "game.result"),
				  strcmp(hj_str(fg, "game.black"), "rv_b") == 0 ? "W+F" : "B+F");
		json_decref(fg);
	}
	json_decref(r);
	for (int i = 0; i < 3; i++) {
		r = hc_req(td, "{s:s, s:s}", "cmd", "player", "name", names[i]);
		OK(r);
		ck_assert_msg(hj_num(r, "player.rating") == 1500 && hj_num(r, "player.rd") == 350,
			      "a withdrawal forfeit moved %s's rating: %s", names[i], hj_text(r));
		json_decref(r);
	}

	r = hc_req(td, "{s:s, s:s, s:s, s:f}", "cmd", "tournament.create", "name", "RV KO", "system",
		   "knockout", "komi", 0.0);
	OK(r);
	json_int_t ko = hj_int(r, "tournament");
	json_decref(r);
	for (int i = 0; i < 3; i += 2) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament", ko, "player", names[i]);
		OK(r);
		json_decref(r);
	}
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", ko);
	OK(r);
	json_t *p0 = json_array_get(hj_get(r, "pairings"), 0);
	json_int_t g1 = hj_int(p0, "game");
	char black[32];
	snprintf(black, sizeof black, "%s", hj_str(p0, "black"));
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game", g1, "result", "0");
	OK(r);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", ko);
	OK(r);
	ck_assert_msg(hj_bool(r, "replay"), "a drawn knockout game is not replayed: %s", hj_text(r));
	ck_assert_int_eq(hj_int(r, "round"), 1);
	json_t *p1 = json_array_get(hj_get(r, "pairings"), 0);
	ck_assert_pstr_eq(hj_str(p1, "white"), black); /* colours swapped */
	json_int_t g2 = hj_int(p1, "game");
	char replay_black[32];
	snprintf(replay_black, sizeof replay_black, "%s", hj_str(p1, "black"));
	json_decref(r);
	/* the draw and its replay in one round: the standings still work (they answered
	 * `internal` once a replay existed: two games in one round) */
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", ko);
	OK(r);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game", g2, "result", "B+R");
	OK(r);
	json_decref(r);
	/* the replay decides: its winner first, with one win; the draw is shown as recorded */
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", ko);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "standings.0.player"), replay_black);
	ck_assert_int_eq(hj_int(r, "standings.0.wins"), 1);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament", ko, "round", 1);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "pairings.0.result"), "0");
	ck_assert_pstr_eq(hj_str(r, "pairings.1.result"), "B+R");
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament", ko, "format", "h9");
	OK(r);
	ck_assert_msg(strstr(hj_str(r, "data"), "+/b") && strstr(hj_str(r, "data"), "-/w") &&
		      !strstr(hj_str(r, "data"), "=/"), "h9: %s", hj_str(r, "data"));
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", ko);
	ERR(r, "conflict"); /* decided: the knockout has its winner */
	json_decref(r);
	hc_close(pa);
	hc_close(pb);
	hc_close(pc);
	hc_close(td);
}
END_TEST

/* ---- issue 15: handicap McMahon, handicap komi, refused rounds, double forfeits ---- */

#ifndef GNUGO_PATH
#define GNUGO_PATH ""
#endif

/* A player registered with a declared rank ("2k", "1d"), logged in. */
static struct hc *login_ranked(const char *name, const char *rank)
{
	char pw[128];
	struct hc *c = hc_open(tt_d.port);
	ck_assert_ptr_nonnull(c);
	snprintf(pw, sizeof pw, "%s%s", name, HARNESS_PASSWORD_SUFFIX);
	json_t *r = hc_req(c, "{s:s, s:s, s:s, s:s}", "cmd", "register", "name", name, "password", pw,
			   "rank", rank);
	OK(r);
	json_decref(r);
	ck_assert_msg(hc_login_as(c, name), "could not log in %s", name);
	return c;
}

/* A McMahon with handicap on a size x size board, players registered; returns its id and
 * the create reply's handicap_max in *cap. `more`: extra create fields (taken). */
static json_int_t mcmahon_handicap(struct hc *td, const char *name, int size, json_t *more,
				   const char *const *players, int n, long long *cap)
{
	json_t *req = json_pack("{s:s, s:s, s:s, s:i, s:f, s:b, s:b, s:i}", "cmd", "tournament.create",
				"name", name, "system", "mcmahon", "size", size, "komi", 7.5, "rated", 0,
				"handicap", 1, "rounds", 1);
	if (more)
		json_object_update(req, more);
	json_decref(more);
	json_t *r = hc_reqj(td, req);
	OK(r);
	json_int_t id = hj_int(r, "tournament");
	*cap = hj_int(r, "handicap_max");
	ck_assert_msg(hj_get(r, "handicap_max") != NULL, "no handicap_max: %s", hj_text(r));
	json_decref(r);
	for (int i = 0; i < n; i++) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament", id,
			   "player", players[i]);
		OK(r);
		json_decref(r);
	}
	return id;
}

/* The record of game g as the server writes it (malloc'd). */
static char *sgf_of(struct hc *c, long long g)
{
	json_t *r = hc_req(c, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)g);
	OK(r);
	char *s = strdup(hj_str(r, "sgf"));
	json_decref(r);
	return s;
}

/* Issue 15 (4): a 2k and a 1d in a handicap McMahon (correction 1): one stone. start_round
 * used to make tengend exit (referee_init refused handicap 1); now the game has handicap 1:
 * no stones, Black (the 2k) to move first, komi 0.5 (handicap_komi's default), no HA in the
 * SGF, and the server is still up. */
START_TEST(test_mcmahon_handicap_one)
{
	struct hc *td = tt_director("h1_td");
	struct hc *kyu = login_ranked("h1_kyu", "2k"), *dan = login_ranked("h1_dan", "1d");
	const char *names[] = {"h1_kyu", "h1_dan"};
	long long cap;
	json_int_t id = mcmahon_handicap(td, "H1 McMahon", TT_BOARD, NULL, names, 2, &cap);
	ck_assert_int_eq(cap, 9);
	json_t *r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament", id,
			   "start_at", tt_wall_s() + TT_START_DELAY_S);
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), 1);
	ck_assert_int_eq(hj_int(r, "pairings.0.handicap"), 1);
	ck_assert_pstr_eq(hj_str(r, "pairings.0.black"), "h1_kyu");
	ck_assert_msg(hj_get(r, "pairings.0.handicap_wanted") == NULL, "not capped: %s", hj_text(r));
	long long g = hj_int(r, "pairings.0.game");
	json_decref(r);
	json_t *e = hc_event(kyu, "game.start", g, T);
	ck_assert_ptr_nonnull(e);
	ck_assert_pstr_eq(hj_str(e, "color"), "B");
	ck_assert_int_eq(hj_int(e, "handicap"), 1);
	ck_assert_msg(hj_num(e, "komi") == 0.5, "komi: %s", hj_text(e));
	json_decref(e);
	e = hc_event(kyu, "game.begin", g, T); /* to_move is set once the game begins */
	ck_assert_ptr_nonnull(e);
	json_decref(e);
	r = hc_req(td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "game.to_move"), "B");
	ck_assert_int_eq(hj_int(r, "game.handicap"), 1);
	json_t *board = hj_get(r, "game.board");
	for (size_t i = 0; i < json_array_size(board); i++)
		ck_assert_str_eq(json_string_value(json_array_get(board, i)), ".........");
	json_decref(r);
	char *sgf = sgf_of(td, g);
	ck_assert_msg(strstr(sgf, "KM[0.5]") && !strstr(sgf, "HA[") && !strstr(sgf, "AB["),
		      "sgf: %s", sgf);
	free(sgf);
	/* Issue 16: the h9 of a handicap event says HA[h<correction>], and the game's field its
	 * handicap (a 1-stone game: /b1, /w1). */
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game", (json_int_t)g,
		   "result", "W+R");
	OK(r);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament", id, "format", "h9");
	OK(r);
	const char *h9 = hj_str(r, "data");
	ck_assert_msg(h9 && strstr(h9, "; HA[h1]\n") && strstr(h9, " 1-/b1\n") &&
		      strstr(h9, " 2+/w1\n") && strstr(h9, "; Generated by tengen\n"),
		      "h9: %s", h9 ? h9 : "null");
	json_decref(r);
	st_ping_ok(td);
	hc_close(kyu);
	hc_close(dan);
	hc_close(td);
}
END_TEST

/* Issue 16: tournament.create's place is what the EGD's PC[] can hold (no ']' or control
 * characters), and tournament.export refuses a round not played; nothing is created or
 * exported then. */
START_TEST(test_place_and_export_round_refused)
{
	struct hc *td = tt_director("pl_td");
	json_t *r = hc_req(td, "{s:s, s:s, s:s, s:s}", "cmd", "tournament.create", "name", "PL Bad",
			   "system", "swiss", "place", "FR,Lyon]");
	ERR(r, "bad_request");
	ck_assert_msg(strstr(hj_text(r), "place"), "%s", hj_text(r));
	json_decref(r);
	r = hc_req(td, "{s:s, s:s, s:s, s:s}", "cmd", "tournament.create", "name", "PL Bad",
		   "system", "swiss", "place", "FR,\x01Lyon");
	ERR(r, "bad_request");
	json_decref(r);
	r = hc_req(td, "{s:s, s:s, s:s, s:s}", "cmd", "tournament.create", "name", "PL Good",
		   "system", "swiss", "place", "FR,Lyon");
	OK(r);
	json_int_t id = hj_int(r, "tournament");
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s, s:i}", "cmd", "tournament.export", "tournament", id, "format",
		   "h9", "round", 1);
	ERR(r, "bad_request");
	json_decref(r);
	/* before round 1: nothing to export */
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament", id, "format", "h9");
	ERR(r, "bad_request");
	json_decref(r);
	static const char *const pl[] = {"pl_a", "pl_b"};
	for (int i = 0; i < 2; i++) {
		hc_close(tt_login(pl[i]));
		tt_req_ok(td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
					id, "player", pl[i]));
	}
	tt_req_ok(td, json_pack("{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament", id,
				"start_at", tt_wall_s() + 3600));
	/* round 1 paired, no result yet: by default no round is played to the end (its pending
	 * game was written "0-", as not played, and counted so in SOS); asked for, the html (the
	 * wall's pairings) is given, the h9 not: the EGD would read the game as not played (it
	 * was given, "0-" for both) */
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament", id, "format", "h9");
	ERR(r, "bad_request");
	ck_assert_msg(strstr(hj_str(r, "error.message"), "games without a result"), "%s", hj_text(r));
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s, s:i}", "cmd", "tournament.export", "tournament", id, "format",
		   "h9", "round", 1);
	ERR(r, "bad_request");
	ck_assert_msg(strstr(hj_str(r, "error.message"), "round 1 has games without a result"),
		      "%s", hj_text(r));
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s, s:i}", "cmd", "tournament.export", "tournament", id, "format",
		   "html", "round", 1);
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), 1);
	json_decref(r);
	/* with its result in, round 1 is the default */
	r = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament", id, "round", 1);
	json_int_t g1 = hj_int(r, "pairings.0.game");
	json_decref(r);
	tt_req_ok(td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.result", "game", g1, "result",
				"B+R"));
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament", id, "format", "h9");
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), 1);
	ck_assert_msg(strstr(hj_str(r, "data"), "+/b") && strstr(hj_str(r, "data"), "-/w"), "%s",
		      hj_str(r, "data"));
	ck_assert_msg(strstr(hj_str(r, "data"), "; PC[FR,Lyon]\n"), "%s", hj_text(r));
	json_decref(r);
	r = hc_req(td, "{s:s}", "cmd", "tournament.list");
	OK(r);
	ck_assert_msg(!strstr(hj_text(r), "PL Bad"), "a refused create was stored: %s", hj_text(r));
	json_decref(r);
	hc_close(td);
}
END_TEST

/* Issue 15 (4): small boards cap the handicap at what they hold, and say so: 5x5 (10k v 1d:
 * 9 wanted, 1 given: Black first, no stones) and 7x7 (8k v 1d: 7 wanted, 4 given). */
START_TEST(test_mcmahon_handicap_capped)
{
	struct hc *td = tt_director("hc_td");
	static const struct { int size; const char *kyu; int cap, wanted; } cases[] = {
		{5, "10k", 1, 9}, {7, "8k", 4, 7}};
	for (int k = 0; k < 2; k++) {
		char a[32], b[32], tname[32];
		snprintf(a, sizeof a, "hc_kyu%d", k);
		snprintf(b, sizeof b, "hc_dan%d", k);
		snprintf(tname, sizeof tname, "HC %dx%d", cases[k].size, cases[k].size);
		struct hc *ca = login_ranked(a, cases[k].kyu), *cb = login_ranked(b, "1d");
		const char *names[] = {a, b};
		long long cap;
		json_int_t id = mcmahon_handicap(td, tname, cases[k].size, NULL, names, 2, &cap);
		ck_assert_int_eq(cap, cases[k].cap);
		json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", id);
		OK(r);
		ck_assert_int_eq(hj_int(r, "tournament.settings.handicap_max"), cases[k].cap);
		json_decref(r);
		r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament", id,
			   "start_at", tt_wall_s() + TT_START_DELAY_S);
		OK(r);
		ck_assert_int_eq(hj_int(r, "pairings.0.handicap"), cases[k].cap);
		ck_assert_int_eq(hj_int(r, "pairings.0.handicap_wanted"), cases[k].wanted);
		ck_assert_pstr_eq(hj_str(r, "pairings.0.black"), a);
		long long g = hj_int(r, "pairings.0.game");
		json_decref(r);
		char needle[64];
		snprintf(needle, sizeof needle, "handicap=%d handicap_wanted=%d", cases[k].cap,
			 cases[k].wanted);
		ck_assert_msg(hd_log_has(&tt_d, needle), "the log does not say '%s'", needle);
		json_t *e = hc_event(ca, "game.begin", g, T); /* to_move is set once it begins */
		ck_assert_ptr_nonnull(e);
		json_decref(e);
		r = hc_req(td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
		OK(r);
		ck_assert_pstr_eq(hj_str(r, "game.to_move"), cases[k].cap == 1 ? "B" : "W");
		ck_assert_int_eq(hj_int(r, "game.handicap"), cases[k].cap);
		json_decref(r);
		hc_close(ca);
		hc_close(cb);
	}
	st_ping_ok(td);
	hc_close(td);
}
END_TEST

/* Run `cmd` through the shell; its stdout's first line ending in a result ("= B+18.5" from
 * GTP, or tengen score's JSON) into out. Returns the exit status. */
static int run_capture(const char *cmd, char *out, size_t n)
{
	FILE *f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	size_t len = fread(out, 1, n - 1, f);
	out[len] = '\0';
	return pclose(f);
}

/* Issue 15 (5): a handicap game gets handicap_komi (default 0.5), not the even-game komi 7.5;
 * the count, KM and the engine's komi are the same effective komi, 0.5 + 2 stones = 2.5. A 3k
 * v 1d on 9x9, two stones (C3, G7), counted all alive: Black's area 51 (columns A-D and rows
 * 7-9), White's 30: B+18.5. GNU Go, an independent reader, loads the record the server wrote
 * (loadsgf) and counts it with Chinese rules: the same result (it counts with KM and ignores HA,
 * so a KM of 0.5 would have given B+20.5). tengen score of the record agrees too. */
START_TEST(test_handicap_komi_counted_as_recorded)
{
	struct hc *td = tt_director("hk_td");
	struct hc *kyu = login_ranked("hk_kyu", "3k"), *dan = login_ranked("hk_dan", "1d");
	const char *names[] = {"hk_kyu", "hk_dan"};
	long long cap;
	json_int_t id = mcmahon_handicap(td, "HK McMahon", TT_BOARD,
					 json_pack("{s:{s:s}}", "rules", "counting", "all-alive"),
					 names, 2, &cap);
	json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", id);
	OK(r);
	ck_assert_int_eq(hj_int(r, "pairings.0.handicap"), 2);
	ck_assert_pstr_eq(hj_str(r, "pairings.0.black"), "hk_kyu");
	long long g = hj_int(r, "pairings.0.game");
	json_decref(r);
	json_t *e = hc_event(kyu, "game.start", g, T);
	ck_assert_ptr_nonnull(e);
	ck_assert_msg(hj_num(e, "komi") == 0.5, "handicap komi: %s", hj_text(e));
	json_decref(e);
	e = hc_event(kyu, "game.begin", g, T);
	ck_assert_ptr_nonnull(e);
	json_decref(e);
	tt_req_ok(kyu, json_pack("{s:s, s:I}", "cmd", "join", "game", (json_int_t)g));
	tt_req_ok(dan, json_pack("{s:s, s:I}", "cmd", "join", "game", (json_int_t)g));
	static const char *const seq[] = {
		"E1", "D1", "E2", "D2", "E3", "D3", "E4", "D4", "E5", "D5", "E6", "D6", "F6", "D7",
		"G6", "E7", "H6", "F7", "J6", "H7", "pass", "J7", "pass", "pass"};
	for (size_t i = 0; i < sizeof seq / sizeof *seq; i++)
		tt_mv(i % 2 ? kyu : dan, g, seq[i]); /* White first after a handicap */
	e = hc_event(kyu, "game.end", g, T);
	ck_assert_ptr_nonnull(e);
	ck_assert_pstr_eq(hj_str(e, "result"), "B+18.5");
	ck_assert_msg(hj_num(e, "score.komi") == 2.5 && hj_num(e, "score.black") == 51 &&
		      hj_num(e, "score.white") == 30, "score: %s", hj_text(e));
	json_decref(e);
	char *sgf = sgf_of(td, g);
	ck_assert_msg(strstr(sgf, "KM[2.5]") && strstr(sgf, "HA[2]") && strstr(sgf, "RE[B+18.5]"),
		      "sgf: %s", sgf);
	char path[HARNESS_PATH_MAX + 16], cmd[2 * HARNESS_PATH_MAX + 256], out[4096];
	snprintf(path, sizeof path, "%s/hk.sgf", tt_d.dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(sgf, f);
	fclose(f);
	free(sgf);
	/* our own reader: tengen score (TENGEN, else ./client/tengen) */
	const char *cli = getenv("TENGEN") && *getenv("TENGEN") ? getenv("TENGEN") : "./client/tengen";
	snprintf(cmd, sizeof cmd, "'%s' score '%s' --counting all-alive", cli, path);
	ck_assert_int_eq(run_capture(cmd, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "\"result\": \"B+18.5\"") || strstr(out, "\"result\":\"B+18.5\""),
		      "tengen score: %s", out);
	if (GNUGO_PATH[0] && access(GNUGO_PATH, X_OK) == 0) {
		snprintf(cmd, sizeof cmd, "printf 'loadsgf %s\\nget_komi\\nfinal_score\\nquit\\n' | "
			 "'%s' --mode gtp --chinese-rules 2>/dev/null", path, GNUGO_PATH);
		ck_assert_int_eq(run_capture(cmd, out, sizeof out), 0);
		ck_assert_msg(strstr(out, " 2.5\n") && strstr(out, "= B+18.5\n"),
			      "GNU Go (Chinese rules) on the record: %s", out);
	} else {
		printf("test_handicap_komi_counted_as_recorded: no GNU Go, its check skipped\n");
	}
	/* the count is in the record (TB/TW); a director's result replacing it takes the count
	 * out and says who set the result (the record kept TB/TW favouring the other side) */
	sgf = sgf_of(td, g);
	ck_assert_msg(strstr(sgf, "TB[") && !strstr(sgf, "tournament director"), "sgf: %s", sgf);
	free(sgf);
	tt_req_ok(td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.result", "game", (json_int_t)g,
				"result", "W+R"));
	sgf = sgf_of(td, g);
	ck_assert_msg(strstr(sgf, "RE[W+R]") && !strstr(sgf, "TB[") && !strstr(sgf, "TW[") &&
		      strstr(sgf, "set by the tournament director"), "sgf: %s", sgf);
	free(sgf);
	hc_close(kyu);
	hc_close(dan);
	hc_close(td);
}
END_TEST

/* Issue 15 (4): a round one of whose games cannot be created is an error reply that changes
 * nothing: the stored settings are made impossible behind the server's back (size 30, no
 * board), start_round answers `conflict`, the server answers ping, the round counter stays
 * 0 and the tournament has no game; with the size restored the same round 1 is paired. */
START_TEST(test_refused_round_changes_nothing)
{
	struct hc *td = tt_director("rf_td");
	struct hc *a = login_ranked("rf_a", "2k"), *b = login_ranked("rf_b", "1d");
	const char *names[] = {"rf_a", "rf_b"};
	long long cap;
	json_int_t id = mcmahon_handicap(td, "RF McMahon", TT_BOARD, NULL, names, 2, &cap);
	char cmd[HARNESS_PATH_MAX + 256];
	snprintf(cmd, sizeof cmd, "sqlite3 '%s' \".timeout 5000\" \"UPDATE tournaments SET state = "
		 "json_set(state, '$.settings.size', 30) WHERE id = %lld\"", tt_d.db, (long long)id);
	ck_assert_int_eq(system(cmd), 0);
	json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", id);
	ERR(r, "conflict");
	json_decref(r);
	st_ping_ok(td);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", id);
	OK(r);
	ck_assert_int_eq(hj_int(r, "tournament.round"), 0);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "games", "tournament", id);
	OK(r);
	ck_assert_int_eq(json_array_size(hj_get(r, "games")), 0);
	json_decref(r);
	snprintf(cmd, sizeof cmd, "sqlite3 '%s' \".timeout 5000\" \"UPDATE tournaments SET state = "
		 "json_set(state, '$.settings.size', 9) WHERE id = %lld\"", tt_d.db, (long long)id);
	ck_assert_int_eq(system(cmd), 0);
	r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament", id,
		   "start_at", tt_wall_s() + 3600);
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), 1);
	json_decref(r);
	hc_close(a);
	hc_close(b);
	hc_close(td);
}
END_TEST

/* Issue 15 (7): a double forfeit (both absent past the lateness limit, Art. 22.1) has one
 * meaning: a double loss (Art. 17.5, 23.1). Stored Void with reason double_forfeit; the SGF's
 * RE[Void] carries the comment that says so; the standings give both 0 points and a loss;
 * tournament.pairings says double_loss; the h9 export writes it unplayed ("0-") for both,
 * as the EGD wants it (issue 16). A director cannot store double_forfeit with another
 * result. */
/* A one-round Swiss of players `pa` and `pb` (logged in already) created by td from `create`
 * (tournament.create's fields, stolen), its round started TT_START_DELAY_S from now: the
 * tournament's id in *id; the round's reply (a new reference: pairings.0 is the game). */
static json_t *two_player_round(struct hc *td, json_t *create, const char *pa, const char *pb,
				json_int_t *id)
{
	json_object_set_new(create, "cmd", json_string("tournament.create"));
	json_t *r = hc_reqj(td, create);
	OK(r);
	*id = hj_int(r, "tournament");
	json_decref(r);
	const char *names[] = {pa, pb};
	for (int i = 0; i < 2; i++) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament", *id,
			   "player", names[i]);
		OK(r);
		json_decref(r);
	}
	r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament", *id,
		   "start_at", tt_wall_s() + TT_START_DELAY_S);
	OK(r);
	return r;
}

START_TEST(test_double_forfeit_one_meaning)
{
	struct hc *td = tt_director("df_td");
	struct hc *a = tt_login("df_a"), *b = tt_login("df_b");
	json_int_t id;
	json_t *r = two_player_round(td, json_pack("{s:s, s:s, s:i, s:i, s:b, s:i}", "name",
				     "DF Swiss", "system", "swiss", "size", TT_BOARD, "lateness_limit_s",
				     1, "rated", 0, "rounds", 1), "df_a", "df_b", &id);
	long long g = hj_int(r, "pairings.0.game");
	json_decref(r);
	json_t *e = hc_event(a, "game.end", g, T);
	ck_assert_msg(e != NULL, "no double forfeit");
	ck_assert_pstr_eq(hj_str(e, "result"), "Void");
	ck_assert_pstr_eq(hj_str(e, "reason"), "double_forfeit");
	json_decref(e);
	char *sgf = sgf_of(td, g);
	ck_assert_msg(strstr(sgf, "RE[Void]") && strstr(sgf, "C[Double loss: both players forfeited"),
		      "sgf: %s", sgf);
	free(sgf);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", id);
	OK(r);
	for (int i = 0; i < 2; i++) {
		char p[64];
		snprintf(p, sizeof p, "standings.%d", i);
		json_t *row = hj_get(r, p);
		ck_assert_int_eq(hj_int(row, "points"), 0);
		ck_assert_int_eq(hj_int(row, "losses"), 1);
		ck_assert_int_eq(hj_int(row, "wins"), 0);
	}
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament", id, "round", 1);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "pairings.0.result"), "double_loss");
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament", id, "format", "h9");
	OK(r);
	const char *h9 = hj_str(r, "data");
	ck_assert_msg(h9 && strstr(h9, "df_a x ") && strstr(h9, "df_b x "), "h9: %s", h9 ? h9 : "null");
	ck_assert_msg(!strstr(h9, "-/") && !strstr(h9, "-!") && strstr(h9, "       0-\n"),
		      "a double forfeit written as played: %s", h9);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s, s:s}", "cmd", "tournament.result", "game", (json_int_t)g,
		   "result", "B+R", "reason", "double_forfeit");
	ERR(r, "bad_request");
	json_decref(r);
	hc_close(a);
	hc_close(b);
	hc_close(td);
}
END_TEST

/* A one-round Swiss of af_a and af_b named `name`, rated, byo-yomi 1 s + one 1 s period,
 * lateness limit 60 s, `rules` (stolen, may be NULL), its round started: the game; its
 * tournament in *id and the client of its White in *w (a: af_a, b: af_b). */
static long long absent_round(struct hc *td, const char *name, json_t *rules, struct hc *a,
			      struct hc *b, json_int_t *id, struct hc **w)
{
	json_t *create = json_pack("{s:s, s:s, s:i, s:i, s:b, s:i, s:{s:s, s:i, s:i, s:i}}", "name",
				   name, "system", "swiss", "size", TT_BOARD, "lateness_limit_s", 60,
				   "rated", 1, "rounds", 1, "time", "system", "byoyomi", "main_s", 1,
				   "periods", 1, "period_s", 1);
	if (rules)
		json_object_set_new(create, "rules", rules);
	json_t *r = two_player_round(td, create, "af_a", "af_b", id);
	long long g = hj_int(r, "pairings.0.game");
	*w = strcmp(hj_str(r, "pairings.0.white"), "af_a") == 0 ? a : b;
	json_decref(r);
	return g;
}

/* c joins game g. */
static void join_ok(struct hc *c, long long g)
{
	json_t *r = hc_req(c, "{s:s, s:I}", "cmd", "join", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
}

/* Art. 22.4: an absent player's clock runs from the start; when it runs out, the player
 * "loses the right to play the game": a forfeit for absence (W+F, reason lateness), unrated and
 * unplayed in the h9 (`!`), not a game lost on time (a trial found W+T, rated, for a Black who
 * never came). White joined, Black never did; 1 s + one 1 s period, lateness limit 60 s. */
START_TEST(test_absent_flag_is_forfeit)
{
	struct hc *td = tt_director("af_td");
	struct hc *a = tt_login("af_a"), *b = tt_login("af_b"), *w;
	json_int_t id;
	long long g = absent_round(td, "AF Swiss", NULL, a, b, &id, &w);
	join_ok(w, g);
	json_t *e = hc_event(w, "game.end", g, T);
	ck_assert_msg(e != NULL, "the absent Black's clock did not end the game");
	ck_assert_pstr_eq(hj_str(e, "result"), "W+F");
	ck_assert_pstr_eq(hj_str(e, "reason"), "lateness");
	ck_assert_msg(!hj_get(e, "ratings"), "a forfeit moved ratings: %s", hj_text(e));
	json_decref(e);
	json_t *r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament", id,
			   "format", "h9");
	OK(r);
	ck_assert_msg(strstr(hj_str(r, "data"), "+!w") && strstr(hj_str(r, "data"), "-!b"),
		      "not a forfeit in the h9: %s", hj_str(r, "data"));
	json_decref(r);
	/* nobody came: Black's flag ends it as a double loss, as the limit would (Art. 22.1),
	 * not a win for an absent White */
	g = absent_round(td, "AF Two", NULL, a, b, &id, &w);
	st_expect_end_event(a, g, "Void", "double_forfeit");
	/* last_period: pass does not turn an absent player's flag into a pass, period after
	 * period: Art. 22.4 ends the game */
	g = absent_round(td, "AF Three", json_pack("{s:s}", "last_period", "pass"), a, b, &id, &w);
	join_ok(w, g);
	st_expect_end_event(w, g, "W+F", "lateness");
	hc_close(a);
	hc_close(b);
	hc_close(td);
}
END_TEST

/* The pairings tell a game that has not begun from one in play, paused or being counted
 * (extension `phase`, `paused`): a pairing without a result said nothing of which (a
 * tournament page read "no result yet" for each). */
static json_t *pairing_one(struct hc *td, json_int_t id)
{
	json_t *r = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament", id,
			   "round", 1);
	OK(r);
	json_t *p = json_incref(hj_get(r, "pairings.0"));
	json_decref(r);
	return p;
}

START_TEST(test_pairings_say_phase)
{
	struct hc *td = tt_director("ph_td");
	struct hc *a = tt_login("ph_a"), *b = tt_login("ph_b");
	json_int_t id = tt_create(td, "PH Swiss", "swiss", json_pack("{s:i}", "rounds", 2));
	for (int i = 0; i < 2; i++)
		tt_req_ok(td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
					id, "player", i ? "ph_b" : "ph_a"));
	json_t *r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament", id,
		   "start_at", tt_wall_s() + 1.5);
	OK(r);
	json_int_t g = hj_int(r, "pairings.0.game");
	struct hc *black = strcmp(hj_str(r, "pairings.0.black"), "ph_a") == 0 ? a : b;
	struct hc *white = black == a ? b : a;
	json_decref(r);
	json_t *p = pairing_one(td, id);
	ck_assert_pstr_eq(hj_str(p, "phase"), "scheduled");
	ck_assert_ptr_null(json_object_get(p, "paused"));
	ck_assert(json_is_null(json_object_get(p, "result"))); /* no result yet */
	json_decref(p);
	json_t *e = hc_event(black, "game.begin", g, T);
	ck_assert_msg(e != NULL, "game %lld did not begin", (long long)g);
	json_decref(e);
	p = pairing_one(td, id);
	ck_assert_pstr_eq(hj_str(p, "phase"), "playing");
	json_decref(p);
	r = hc_req(td, "{s:s, s:I}", "cmd", "game.pause", "game", g);
	OK(r);
	json_decref(r);
	p = pairing_one(td, id);
	ck_assert_pstr_eq(hj_str(p, "phase"), "playing");
	ck_assert(json_is_true(json_object_get(p, "paused")));
	json_decref(p);
	r = hc_req(td, "{s:s, s:I}", "cmd", "game.resume", "game", g);
	OK(r);
	json_decref(r);
	tt_mv(black, g, "pass");
	tt_mv(white, g, "pass");
	p = pairing_one(td, id);
	ck_assert_pstr_eq(hj_str(p, "phase"), "counting");
	ck_assert_ptr_null(json_object_get(p, "paused"));
	json_decref(p);
	/* a warning's reason with control characters (copied raw into the SGF's comment) is
	 * refused, and no warning is given */
	r = hc_req(td, "{s:s, s:I, s:s, s:s}", "cmd", "tournament.warn", "game", g, "color", "B",
		   "reason", "bad\nthing \x1b[2J");
	ERR(r, "bad_request");
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "game", "game", g);
	ck_assert_int_eq(hj_int(r, "game.warnings.B"), 0);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game", g, "result", "B+R");
	OK(r);
	json_decref(r);
	p = pairing_one(td, id);
	ck_assert_pstr_eq(hj_str(p, "result"), "B+R");
	ck_assert_ptr_null(json_object_get(p, "phase"));
	json_decref(p);
	hc_close(a);
	hc_close(b);
	hc_close(td);
}
END_TEST

static Suite *games_suite(void)
{
	Suite *s = suite_create("tournament games");
	TCase *tc = tcase_create("tournament");
	tcase_add_checked_fixture(tc, tt_setup, tt_teardown);
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, test_review_regressions);
	tcase_add_test(tc, test_mcmahon_handicap_one);
	tcase_add_test(tc, test_mcmahon_handicap_capped);
	tcase_add_test(tc, test_handicap_komi_counted_as_recorded);
	tcase_add_test(tc, test_refused_round_changes_nothing);
	tcase_add_test(tc, test_double_forfeit_one_meaning);
	tcase_add_test(tc, test_absent_flag_is_forfeit);
	tcase_add_test(tc, test_place_and_export_round_refused);
	tcase_add_test(tc, test_pairings_say_phase);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(games_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
