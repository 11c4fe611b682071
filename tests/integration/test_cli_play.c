/* Integration tests of the client's playing commands (issue 19): challenge, accept, decline,
 * play, pass, resign, dead, players, games --mine; replies longer than a request line; a
 * dispute the count settles; watch reconnecting. A real tengend (tests/support/harness) and
 * the built `tengen` run as a subprocess (tests/support/clitest.h).
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clitest.h"

/* The game of the challenge whose output r holds (r is freed), accepted by `by`: its number,
 * and as text in gs. */
static long long accepted(struct run *r, const char *by, char gs[32])
{
	long long g = 0;
	ck_assert(sscanf(strstr(r->out, "game "), "game %lld", &g) == 1);
	run_free(r);
	snprintf(gs, 32, "%lld", g);
	AS(r, by, "accept", gs);
	EXPECT_STATUS(*r, 0);
	run_free(r);
	return g;
}

/* A prediction-rules game through the plain commands (issue 17): the challenge and accept
 * name the first player, not a colour or komi; the opening placed with `tengen play` by the
 * player whose stone is due (first, second, second, first; a pass refused); the predictions
 * with `tengen predict`; the count printed with the bar, not komi. Example 1 of the rules:
 * alice W+7, bob W+6: alice White, bar W+6.5; White ahead by 5: bob (Black) wins by 1.5. */
START_TEST(test_prediction_game)
{
	struct run r;
	cli_register("alice");
	cli_register("bob");
	AS(&r, "alice", "challenge", "bob", "--size", "5", "--ruleset", "prediction", "--first",
	   "me", "--rated", "no");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "5x5, prediction rules (no komi: the predictions' bar), no clocks, unrated, "
		      "you are the first player.");
	ck_assert_msg(!strstr(r.out, "komi 7.5") && !strstr(r.out, "Black"), "%s", r.out);
	long long g = 0;
	ck_assert(sscanf(strstr(r.out, "game "), "game %lld", &g) == 1);
	run_free(&r);
	char gs[32];
	snprintf(gs, sizeof gs, "%lld", g);
	AS(&r, "alice", "challenge", "bob", "--first", "second");
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "--first must be me, opponent or nigiri");
	run_free(&r);
	/* --rules sends numbers and true/false typed: predict_s=5 and decisive=true were sent as
	 * strings and refused ("must be an integer from 1 to 86400"); ko stays a string */
	AS(&r, "bob", "challenge", "alice", "--size", "5", "--ruleset", "prediction", "--first",
	   "opponent", "--rated", "no", "--rules", "predict_s=5,decisive=true,ko=positional");
	EXPECT_STATUS(r, 0);
	long long g2 = 0;
	ck_assert(sscanf(strstr(r.out, "game "), "game %lld", &g2) == 1);
	run_free(&r);
	char gs2[32];
	snprintf(gs2, sizeof gs2, "game=%lld", g2);
	AS(&r, "bob", "call", "game", gs2);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "\"predict_s\":5");
	EXPECT_OUT(r, "\"decisive\":true");
	EXPECT_OUT(r, "\"ko\":\"positional\"");
	run_free(&r);
	/* the pending challenges: players, not colours, and no komi (it printed 0) */
	AS(&r, "alice", "games", "--phase", "pending");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "  bob              alice                5     -  pending#  -          -\n");
	EXPECT_OUT(r, "  alice            bob                  5     -  pending#  -          -\n");
	EXPECT_OUT(r, "\n# prediction rules, colours not decided (the predictions decide them): "
		      "Black and White list the players, not colours\n");
	run_free(&r);
	snprintf(gs2, sizeof gs2, "%lld", g2);
	AS(&r, "alice", "accept", gs2); /* the first player: "you place", not "you places" */
	EXPECT_STATUS(r, 0);
	char want2[160];
	snprintf(want2, sizeof want2, "Accepted game %lld: prediction rules, you are the first player "
		 "(you place stones 1 and 4; the predictions decide the colours).\n", g2);
	ck_assert_str_eq(r.out, want2);
	run_free(&r);
	AS(&r, "bob", "accept", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "you are the second player (alice places stones 1 and 4");
	ck_assert_msg(!strstr(r.out, "you play"), "%s", r.out);
	run_free(&r);
	/* in the opening: the first and second player (black and white are null), komi '-' */
	AS(&r, "alice", "games", "--phase", "playing");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "  alice (1st)      bob (2nd)            5     -  opening   -          -\n");
	EXPECT_OUT(r, "\n(1st), (2nd): a prediction game's first and second player, before the "
		      "predictions decide the colours\n");
	ck_assert_msg(!strstr(r.out, "?") && !strstr(r.out, "pending"), "%s", r.out);
	run_free(&r);
	AS(&r, "alice", "resign", gs2);
	EXPECT_STATUS(r, 0);
	run_free(&r);

	/* watch names first and second, no colours, no komi */
	char server[64];
	snprintf(server, sizeof server, "127.0.0.1:%d", D.port);
	const char *args[] = {"watch", gs, "--server", server, NULL};
	struct proc p;
	proc_start(&p, NULL, NULL, args);
	ck_assert_msg(proc_wait_for(&p, "alice (first) vs bob (second), 5x5, prediction rules, no "
				    "bar yet, opening", T), "watch: %s / %s", p.out, p.err);
	/* the opening: stone 1 is alice's (White); bob is refused here, a pass by the server */
	AS(&r, "bob", "play", gs, "C1");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "it is not your turn in game");
	EXPECT_ERR(r, "alice places opening stone 1 (White)");
	run_free(&r);
	AS(&r, "alice", "pass", gs);
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "a pass in the opening"); /* the server's no_pass, no penalty */
	run_free(&r);
	static const char *const who[4] = {"alice", "bob", "bob", "alice"};
	static const char *const at[4] = {"C1", "D1", "C2", "D2"};
	static const char *const col[4] = {"White", "Black", "White", "Black"};
	for (int i = 0; i < 4; i++) {
		char want[64];
		AS(&r, who[i], "play", gs, at[i]);
		EXPECT_STATUS(r, 0);
		snprintf(want, sizeof want, "move %d: %s %s.", i + 1, col[i], at[i]);
		EXPECT_OUT(r, want);
		run_free(&r);
	}
	AS(&r, "alice", "play", gs, "C3");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "is predicting: seal your prediction first");
	run_free(&r);
	AS(&r, "alice", "predict", gs, "W+7");
	EXPECT_STATUS(r, 0);
	run_free(&r);
	AS(&r, "bob", "predict", gs, "W+6");
	EXPECT_STATUS(r, 0);
	run_free(&r);

	/* play: alice White on column C, bob Black on D; both pass, all alive */
	static const char *const w[3] = {"C3", "C4", "C5"}, *const bl[3] = {"D3", "D4", "D5"};
	for (int i = 0; i < 3; i++) {
		AS(&r, "alice", "play", gs, w[i]);
		EXPECT_STATUS(r, 0);
		EXPECT_OUT(r, "White");
		run_free(&r);
		AS(&r, "bob", "play", gs, bl[i]);
		EXPECT_STATUS(r, 0);
		EXPECT_OUT(r, "Black");
		run_free(&r);
	}
	AS(&r, "alice", "pass", gs);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	AS(&r, "bob", "pass", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "is counting");
	run_free(&r);
	AS(&r, "alice", "dead", gs);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	AS(&r, "bob", "dead", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Result: B+1.5 (score), score: Black 10, White 15, bar W+6.5\n");
	ck_assert_msg(!strstr(r.out, "komi"), "%s", r.out);
	run_free(&r);
	struct run wr;
	proc_finish(&p, &wr); /* the watcher, there from the opening to the end */
	EXPECT_STATUS(wr, 0);
	EXPECT_OUT(wr, "Result: B+1.5 (score), score: Black 10, White 15, bar W+6.5\n");
	ck_assert_msg(!strstr(wr.out, "komi"), "%s", wr.out);
	run_free(&wr);
	run(&r, NULL, NULL, "watch", gs, NULL); /* the game over: its board and result */
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Result: B+1.5 (score), score: Black 10, White 15, bar W+6.5\n");
	ck_assert_msg(!strstr(r.out, "komi"), "%s", r.out);
	run_free(&r);
}
END_TEST

/* play --remove own (seed 000, Art. 4.3): Black's B5 leaves Black's {A5, B4, B5} and White's
 * {C5, C4} without liberties, and Black chooses its own; a bad value or --remove on a pass is
 * a usage error. */
START_TEST(test_remove_own)
{
	struct run r;
	cli_register("alice");
	cli_register("bob");
	AS(&r, "alice", "challenge", "bob", "--size", "5", "--ruleset", "prediction", "--first",
	   "me", "--rated", "no");
	EXPECT_STATUS(r, 0);
	char gs[32];
	long long g = accepted(&r, "bob", gs);
	/* the opening (alice White C5, bob Black A5, bob White A4, alice Black B4), alice W+5
	 * against bob's W+3: alice takes White */
	static const char *const who[] = {"alice", "bob", "bob", "alice", "alice", "bob", "alice",
					  "bob", "alice", "bob", "alice"};
	static const char *const at[] = {"C5", "A5", "A4", "B4", "C4", "D5", "B3", "D4", "E1",
					 "C3", "E2"};
	for (int i = 0; i < 11; i++) {
		if (i == 4) {
			AS(&r, "alice", "predict", gs, "W+5");
			EXPECT_STATUS(r, 0);
			run_free(&r);
			AS(&r, "bob", "predict", gs, "W+3");
			EXPECT_STATUS(r, 0);
			run_free(&r);
		}
		AS(&r, who[i], "play", gs, at[i]);
		EXPECT_STATUS(r, 0);
		run_free(&r);
	}
	AS(&r, "bob", "play", gs, "B5", "--remove", "mine");
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "--remove: own or opponent, not 'mine'");
	run_free(&r);
	AS(&r, "bob", "pass", gs, "--remove", "own");
	EXPECT_STATUS(r, 2);
	run_free(&r);
	AS(&r, "bob", "play", gs, "B5", "--remove", "own");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "move 12: Black B5, captures 3:");
	EXPECT_OUT(r, "(your own chains removed)");
	run_free(&r);
	char gg[48];
	snprintf(gg, sizeof gg, "game=%lld", g);
	AS(&r, "bob", "call", "game", gg); /* White's C5 lives on; Black's three are gone */
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "\"..OX.\"");
	run_free(&r);
}
END_TEST

/* challenge --placement free; the placement through `tengen call handicap` (issue 19). */
START_TEST(test_free_placement)
{
	struct run r;
	cli_register("alice");
	cli_register("bob");
	AS(&r, "alice", "challenge", "bob", "--size", "9", "--placement", "free", "--color", "black");
	EXPECT_STATUS(r, 3); /* the server refuses (bad_request): free placement needs a handicap */
	EXPECT_ERR(r, "handicap_placement");
	run_free(&r);
	/* The line a person reads names the handicap and what the count gives for it. */
	cli_register("carol");
	AS(&r, "alice", "challenge", "carol", "--size", "9", "--handicap", "3", "--komi", "0.5",
	   "--placement", "free", "--color", "black");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "9x9, handicap 3 placed by Black, komi 0.5 + 3 for the stones, no clocks");
	run_free(&r);
	AS(&r, "alice", "challenge", "carol", "--size", "9", "--handicap", "2", "--color", "black");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "9x9, handicap 2, komi 7.5 + 2 for the stones, no clocks");
	run_free(&r);
	AS(&r, "alice", "challenge", "bob", "--size", "9", "--handicap", "2", "--placement", "free",
	   "--color", "black", "--json");
	EXPECT_STATUS(r, 0);
	json_t *rep = json_loads(r.out, JSON_DISABLE_EOF_CHECK, NULL);
	long long g = hj_int(rep, "game");
	ck_assert_msg(g > 0, "no game: %s", r.out);
	json_decref(rep);
	run_free(&r);
	char gs[32], gf[48];
	snprintf(gs, sizeof gs, "%lld", g);
	snprintf(gf, sizeof gf, "game=%lld", g);
	AS(&r, "bob", "accept", gs);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	char server[64];
	snprintf(server, sizeof server, "127.0.0.1:%d", D.port);
	const char *args[] = {"watch", gs, "--server", server, NULL};
	struct proc p;
	proc_start(&p, NULL, NULL, args);
	ck_assert_msg(proc_wait_for(&p, "to move", T), "no board: %s / %s", p.out, p.err);
	AS(&r, "alice", "call", "handicap", gf, "stones=[\"C3\",\"G7\"]");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "\"stones\":[\"C3\",\"G7\"]");
	run_free(&r);
	ck_assert_msg(proc_wait_for(&p, "Black places the handicap stones: C3 G7; White to move", T),
		      "watch did not show the placement: %s / %s", p.out, p.err);
	AS(&r, "bob", "call", "game", gf);
	EXPECT_OUT(r, "\"handicap_placement\":\"free\"");
	EXPECT_OUT(r, "\"to_move\":\"W\"");
	run_free(&r);
	AS(&r, "bob", "resign", gs);
	EXPECT_STATUS(r, 0);
	run_free(&r);
	struct run w;
	proc_finish(&p, &w);
	EXPECT_STATUS(w, 0);
	EXPECT_OUT(w, "Result: B+R");
	run_free(&w);
}
END_TEST

/* A handicap challenge without --color: the lower rating takes Black (color "auto", the
 * server settles it and says so in the reply), not a nigiri that gave the stones to the
 * stronger player half the time; an even game stays a nigiri. */
START_TEST(test_handicap_colour_auto)
{
	struct run r;
	AS(&r, "kyu", "register", "--rank", "5k");
	EXPECT_STATUS(r, 0);
	run_free(&r);
	AS(&r, "dan", "register", "--rank", "2d");
	EXPECT_STATUS(r, 0);
	run_free(&r);
	AS(&r, "kyu", "challenge", "dan", "--size", "9", "--handicap", "2");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "you play Black (the lower rating)");
	long long g = 0;
	ck_assert(sscanf(strstr(r.out, "game "), "game %lld", &g) == 1);
	run_free(&r);
	char gs[32];
	snprintf(gs, sizeof gs, "%lld", g);
	AS(&r, "dan", "accept", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "you play White");
	run_free(&r);
	AS(&r, "dan", "challenge", "kyu", "--size", "9", "--handicap", "3", "--json");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "\"color\":\"white\"");
	ck_assert(sscanf(strstr(r.out, "\"game\":"), "\"game\":%lld", &g) == 1);
	run_free(&r);
	/* the pending challenge's record gives the colours chosen: the row lists the challenger
	 * as Black until accept (the contract), the SGF named the 2d Black beside HA[3] */
	snprintf(gs, sizeof gs, "%lld", g);
	AS(&r, "kyu", "sgf", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "PB[kyu]");
	EXPECT_OUT(r, "PW[dan]");
	run_free(&r);
	AS(&r, "dan", "challenge", "kyu", "--size", "9");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "colours by nigiri");
	ck_assert_msg(!strstr(r.out, "ratings"), "an even game's nigiri blamed on the ratings: %s",
		      r.out);
	run_free(&r);
	/* a new account without a rank: its strength is unknown, a nigiri */
	AS(&r, "newbie", "register");
	EXPECT_STATUS(r, 0);
	run_free(&r);
	AS(&r, "newbie", "challenge", "kyu", "--size", "9", "--handicap", "2");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "colours by nigiri (the ratings do not tell the weaker)");
	run_free(&r);
	AS(&r, "dan", "challenge", "kyu", "--size", "9", "--handicap", "2", "--color", "nigiri");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "colours by nigiri");
	run_free(&r);
}
END_TEST

/* watch reconnects when the server restarts, and reads the game again; it says that Black's
 * clock waits for Black after the restart (held_ms, Art. 14), then that Black is back. */
START_TEST(test_watch_reconnect)
{
	/* a daemon of its own, on a port that stays the same across the restart */
	struct hd d;
	char listen[32];
	snprintf(listen, sizeof listen, "127.0.0.1:%d", closed_port());
	const char *extra[] = {"--listen", listen, NULL};
	ck_assert_int_eq(hd_start(&d, extra), 0);
	struct hc *a = hc_login_new(d.port, "alice");
	struct hc *b = hc_login_new(d.port, "bob");
	ck_assert(a && b);
	json_t *rep = hc_req(a, "{s:s, s:s, s:i, s:s, s:{s:s, s:i}}", "cmd", "challenge",
			     "opponent", "bob", "size", 9, "color", "black", "time", "system",
			     "absolute", "main_s", 600);
	long long game = hj_int(rep, "game");
	json_decref(rep);
	json_decref(hc_req(b, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)game));
	hc_close(a);
	hc_close(b);
	char gs[32];
	snprintf(gs, sizeof gs, "%lld", game);
	const char *args[] = {"watch", gs, "--server", listen, NULL};
	struct proc p;
	proc_start(&p, NULL, NULL, args);
	ck_assert_msg(proc_wait_for(&p, "to move", T), "no board: %s / %s", p.out, p.err);
	ck_assert_int_eq(hd_kill(&d), 0);
	ck_assert_int_eq(hd_restart(&d), 0);
	ck_assert_msg(proc_wait_for(&p, "Reconnected", 3 * T), "no reconnection: %s / %s", p.out,
		      p.err);
	ck_assert_msg(proc_wait_for(&p, "alice's clock waits for them to log in again", T),
		      "no word of the held clock: %s", p.out);
	a = hc_login_new(d.port, "alice");
	ck_assert(a);
	ck_assert_msg(proc_wait_for(&p, "alice is back after the server's restart", T),
		      "no word of alice's return: %s", p.out);
	rep = hc_req(a, "{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)game, "vertex", "C3");
	ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
	json_decref(rep);
	ck_assert_msg(proc_wait_for(&p, "Move 1: Black C3", T), "no move after it: %s", p.out);
	json_decref(hc_req(a, "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)game));
	hc_close(a);
	struct run r;
	proc_finish(&p, &r);
	EXPECT_STATUS(r, 0);
	EXPECT_ERR(r, "reconnecting");
	EXPECT_OUT(r, "Result: W+R");
	run_free(&r);
	ck_assert_int_eq(hd_stop(&d), 0);
	hd_cleanup(&d);
}
END_TEST

/* A reply longer than the 64 KiB a request line may hold comes out whole: the client reads
 * the server's lines up to FRAMING_MAX_SEND_LINE. 420 declined challenges make 420 game rows,
 * about 180 bytes each in a `games` reply; LONG_CHALLENGERS make them (a challenger makes at
 * most 60 a minute). */
#define LONG_GAMES 420
#define LONG_CHALLENGERS 8
START_TEST(test_long_reply)
{
	struct hc *ch[LONG_CHALLENGERS];
	for (int k = 0; k < LONG_CHALLENGERS; k++) {
		char name[16];
		snprintf(name, sizeof name, "lr%d", k);
		ck_assert((ch[k] = hc_login_new(D.port, name)) != NULL);
	}
	struct hc *b = hc_login_new(D.port, "bob");
	ck_assert(b);
	hc_close(b); /* bob need not be online to be challenged */
	for (int i = 0; i < LONG_GAMES; i++) {
		struct hc *a = ch[i % LONG_CHALLENGERS];
		json_t *rep = hc_req(a, "{s:s, s:s, s:i}", "cmd", "challenge", "opponent", "bob",
				     "size", 19);
		ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
		long long g = hj_int(rep, "game");
		json_decref(rep);
		rep = hc_req(a, "{s:s, s:I}", "cmd", "decline", "game", (json_int_t)g);
		ck_assert_msg(hj_ok(rep), "%s", hj_text(rep));
		json_decref(rep);
		hc_clear(a);
	}
	struct run r;
	run(&r, NULL, NULL, "call", "games", "limit=500", NULL);
	EXPECT_STATUS(r, 0);
	ck_assert_msg(strlen(r.out) > 65536, "the reply is only %zu bytes", strlen(r.out));
	json_t *lines = json_lines(r.out);
	ck_assert_int_eq(json_array_size(lines), 1);
	ck_assert_int_eq(json_array_size(hj_get(json_array_get(lines, 0), "games")), LONG_GAMES);
	json_decref(lines);
	run_free(&r);
	run(&r, NULL, NULL, "games", "--limit", "500", NULL);
	EXPECT_STATUS(r, 0);
	int rows = 0;
	for (const char *p = r.out; (p = strchr(p, '\n')) != NULL; p++)
		rows++;
	if (strstr(r.out, "\n* colours by nigiri")) /* the footnote of the challenges called off */
		rows--;
	ck_assert_int_eq(rows, LONG_GAMES + 1); /* the header, a row per game */
	run_free(&r);
	for (int k = 0; k < LONG_CHALLENGERS; k++)
		hc_close(ch[k]);
}
END_TEST

/* The playing commands, a whole game from challenge to count (issue 19). */
START_TEST(test_play_commands)
{
	struct run r;
	cli_register("alice");
	cli_register("bob");
	/* challenge: a line a person reads, the game's id in it */
	AS(&r, "alice", "challenge", "bob", "--size", "5", "--komi", "0.5", "--color", "black",
	   "--rated", "no");
	EXPECT_STATUS(r, 0);
	long long g = 0;
	ck_assert_msg(sscanf(strstr(r.out, "game ") ? strstr(r.out, "game ") : "", "game %lld", &g) == 1,
		      "no game id: %s", r.out);
	EXPECT_OUT(r, "Challenged bob: game");
	EXPECT_OUT(r, "5x5, komi 0.5, no clocks, unrated, you play Black");
	run_free(&r);
	char gs[32];
	snprintf(gs, sizeof gs, "%lld", g);
	/* games --mine: bob sees the challenge waiting */
	AS(&r, "bob", "games", "--mine", "--phase", "pending");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "alice");
	EXPECT_OUT(r, "pending");
	run_free(&r);
	run(&r, NULL, NULL, "games", "--mine", NULL); /* --mine needs a user */
	EXPECT_STATUS(r, 2);
	run_free(&r);
	/* bad options are usage errors, before anything is sent */
	AS(&r, "alice", "challenge", "bob", "--size", "nine");
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "--size must be a whole number");
	run_free(&r);
	AS(&r, "alice", "challenge", "bob", "--time", "byoyomi:60");
	EXPECT_STATUS(r, 2);
	EXPECT_ERR(r, "bad --time");
	run_free(&r);
	/* the server's refusal: once, on stderr, status 3 */
	AS(&r, "alice", "challenge", "nobody");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "no player named 'nobody' (not_found)");
	ck_assert_str_eq(r.out, "");
	run_free(&r);
	AS(&r, "alice", "accept", gs);
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "only the challenged player may accept");
	run_free(&r);
	AS(&r, "bob", "accept", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "you play White");
	run_free(&r);

	/* play: numbered from the game; run again, it is refused here, not warned */
	AS(&r, "alice", "play", gs, "C3");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "move 1: Black C3");
	run_free(&r);
	AS(&r, "alice", "play", gs, "C3");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "it is not your turn in game");
	ck_assert_str_eq(r.out, "");
	run_free(&r);
	/* a vertex that is none is said too, not your turn or not ("not your turn" alone for Z99) */
	AS(&r, "alice", "play", gs, "Z99");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "'Z99' is not a vertex of the board");
	run_free(&r);
	struct hc *c = hc_open(D.port);
	ck_assert(c);
	json_t *gj = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	ck_assert_int_eq(hj_int(gj, "game.warnings.B"), 0);
	ck_assert_int_eq(json_array_size(hj_get(gj, "game.moves")), 1);
	json_decref(gj);
	/* --number pins the move's number */
	AS(&r, "bob", "play", gs, "D4", "--number", "3");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "the next move is number 2, not 3");
	run_free(&r);
	/* an illegal move: the server's reason on stderr (the turn is forfeited) */
	AS(&r, "bob", "play", gs, "C3");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "occupied at C3");
	EXPECT_ERR(r, "(illegal_move)");
	EXPECT_OUT(r, "goes on: Black to move"); /* what the forfeited turn led to */
	run_free(&r);
	AS(&r, "alice", "play", gs, "Z9");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "bad_request");
	run_free(&r);
	AS(&r, "alice", "play", gs, "B2", "--json");
	EXPECT_STATUS(r, 0);
	json_t *lines = json_lines(r.out);
	ck_assert_int_eq(json_array_size(lines), 1);
	ck_assert_str_eq(hj_str(json_array_get(lines, 0), "move.vertex"), "B2");
	ck_assert_int_eq(hj_int(json_array_get(lines, 0), "move.number"), 3);
	json_decref(lines);
	run_free(&r);
	/* two passes open counting, and the second says so, also when it is a forfeited turn
	 * (Art. 19: recorded as a pass), refused all the same */
	AS(&r, "bob", "pass", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "move 4: White passes");
	EXPECT_OUT(r, "goes on: Black to move");
	run_free(&r);
	AS(&r, "alice", "play", gs, "B2");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "occupied at B2");
	EXPECT_OUT(r, "Two passes in a row (the forfeited turn counts as one): game");
	EXPECT_OUT(r, "is counting");
	run_free(&r);
	AS(&r, "alice", "play", gs, "D4");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "is counting, not playing");
	run_free(&r);
	/* different claims resume play; equal ones end the game counted */
	AS(&r, "alice", "dead", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "every stone alive. Waiting for the opponent's claim");
	run_free(&r);
	AS(&r, "bob", "dead", gs, "C3");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "The claims differ");
	EXPECT_OUT(r, "to move");
	run_free(&r);
	AS(&r, "alice", "dead", gs, "D4");
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "playing, not counting");
	run_free(&r);
	/* two more passes (whoever is to move), then equal claims */
	for (int k = 0; k < 2; k++) {
		gj = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
		const char *tm = hj_str(gj, "game.to_move");
		AS(&r, strcmp(tm, "B") == 0 ? "alice" : "bob", "pass", gs);
		json_decref(gj);
		EXPECT_STATUS(r, 0);
		run_free(&r);
	}
	AS(&r, "alice", "dead", gs, "");
	EXPECT_STATUS(r, 0);
	run_free(&r);
	AS(&r, "bob", "dead", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "The claims agree");
	EXPECT_OUT(r, "is over. Result: B+24.5 (score)"); /* 25 points, komi 0.5 */
	run_free(&r);
	AS(&r, "bob", "resign", gs);
	EXPECT_STATUS(r, 3);
	EXPECT_ERR(r, "is over");
	run_free(&r);

	hc_close(c);
}
END_TEST

/* The playing commands' addresses and exit statuses: TENGEN_SERVER, the config file, no
 * server (4), a wrong password (5); decline and resign on fresh challenges (issue 19). */
START_TEST(test_play_addresses)
{
	struct run r;
	char gs[32];
	cli_register("alice");
	cli_register("bob");
	/* resign and decline on fresh challenges; TENGEN_SERVER instead of --server */
	char server[64];
	snprintf(server, sizeof server, "127.0.0.1:%d", D.port);
	setenv("TENGEN_SERVER", server, 1);
	const char *ch[] = {"--user", "bob", "challenge", "alice", "--size", "9", NULL};
	struct proc p;
	proc_start(&p, pw_of("bob"), NULL, ch);
	proc_finish(&p, &r);
	EXPECT_STATUS(r, 0);
	long long g2 = 0;
	ck_assert(sscanf(strstr(r.out, "game "), "game %lld", &g2) == 1);
	run_free(&r);
	snprintf(gs, sizeof gs, "%lld", g2);
	const char *dec[] = {"--user", "alice", "decline", gs, NULL};
	proc_start(&p, pw_of("alice"), NULL, dec);
	proc_finish(&p, &r);
	unsetenv("TENGEN_SERVER");
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Called off game");
	run_free(&r);
	AS(&r, "bob", "challenge", "alice", "--size", "9", "--color", "white");
	EXPECT_STATUS(r, 0);
	ck_assert(sscanf(strstr(r.out, "game "), "game %lld", &g2) == 1);
	run_free(&r);
	snprintf(gs, sizeof gs, "%lld", g2);
	AS(&r, "alice", "accept", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "you play Black");
	run_free(&r);
	AS(&r, "bob", "resign", gs);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "B+R");
	run_free(&r);

	/* the address from the config file ($TENGEN_CONFIG) when neither --server nor
	 * TENGEN_SERVER gives one */
	char conf[HARNESS_PATH_MAX + 16];
	snprintf(conf, sizeof conf, "%s/tengen.conf", D.dir);
	FILE *cf = fopen(conf, "w");
	ck_assert(cf);
	fprintf(cf, "# tengen's client\nserver = %s\n", server);
	fclose(cf);
	setenv("TENGEN_CONFIG", conf, 1);
	const char *pl[] = {"players", NULL};
	proc_start(&p, NULL, NULL, pl);
	proc_finish(&p, &r);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "alice");
	run_free(&r);
	cf = fopen(conf, "w");
	ck_assert(cf);
	fprintf(cf, "server 127.0.0.1:%d\n", closed_port());
	fclose(cf);
	proc_start(&p, NULL, NULL, pl);
	proc_finish(&p, &r);
	EXPECT_STATUS(r, 4);
	EXPECT_ERR(r, "cannot reach the server at 127.0.0.1:");
	run_free(&r);
	/* a line it cannot read is said, not skipped in silence (then the default address) */
	cf = fopen(conf, "w");
	ck_assert(cf);
	fprintf(cf, "server: %s\n", server);
	fclose(cf);
	proc_start(&p, NULL, NULL, pl);
	proc_finish(&p, &r);
	EXPECT_ERR(r, "tengen.conf:1: not understood");
	run_free(&r);
	/* and so is a $TENGEN_CONFIG that names no file */
	unlink(conf);
	proc_start(&p, NULL, NULL, pl);
	proc_finish(&p, &r);
	unsetenv("TENGEN_CONFIG");
	EXPECT_ERR(r, "the file is not read");
	run_free(&r);

	/* players: the leaderboard, no login needed */
	run(&r, NULL, NULL, "players", NULL);
	EXPECT_STATUS(r, 0);
	EXPECT_OUT(r, "Player");
	EXPECT_OUT(r, "alice");
	EXPECT_OUT(r, "bob");
	run_free(&r);
	/* a wrong password: status 5; no server: status 4 */
	run(&r, "wrong-password", NULL, "--user", "alice", "resign", gs, NULL);
	EXPECT_STATUS(r, 5);
	run_free(&r);
}
END_TEST

/* A dispute that play does not settle: the third count with the same two claims ends the
 * game, counted with only the stones both hold dead (docs/rules.md, Art. 8 and 21.4). */
START_TEST(test_dispute_settled)
{
	struct run r;
	cli_register("alice");
	cli_register("bob");
	AS(&r, "alice", "challenge", "bob", "--size", "5", "--komi", "0.5", "--color", "black",
	   "--rated", "no");
	EXPECT_STATUS(r, 0);
	char gs[32];
	long long g = accepted(&r, "bob", gs);
	AS(&r, "alice", "play", gs, "C3");
	EXPECT_STATUS(r, 0);
	run_free(&r);
	struct hc *c = hc_open(D.port);
	ck_assert(c);
	for (int k = 1; k <= 3; k++) {
		/* two passes, whoever is to move first */
		for (int n = 0; n < 2; n++) {
			json_t *gj = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
			const char *who = strcmp(hj_str(gj, "game.to_move"), "B") == 0 ? "alice" : "bob";
			AS(&r, who, "pass", gs);
			json_decref(gj);
			EXPECT_STATUS(r, 0);
			run_free(&r);
		}
		AS(&r, "alice", "dead", gs);
		EXPECT_STATUS(r, 0);
		run_free(&r);
		AS(&r, "bob", "dead", gs, "C3"); /* and never captures it */
		EXPECT_STATUS(r, 0);
		EXPECT_OUT(r, k < 3 ? "The claims differ" : "is over. Result: B+24.5 (score)");
		run_free(&r);
	}
	json_t *gj = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	ck_assert_str_eq(hj_str(gj, "game.phase"), "ended");
	ck_assert_int_eq(json_array_size(hj_get(gj, "game.dead")), 0); /* C3 counted alive */
	json_decref(gj);
	hc_close(c);
}
END_TEST

/* The count of repeated disputes survives a restart (it is kept in the game's row): two
 * disputes, a killed and restarted server, the third ends the game. */
static void dispute_round(int port, long long g, bool last)
{
	struct hc *a = hc_login_new(port, "alice"), *b = hc_login_new(port, "bob");
	ck_assert(a && b);
	for (int n = 0; n < 2; n++) {
		json_t *gj = hc_req(a, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
		struct hc *who = strcmp(hj_str(gj, "game.to_move"), "B") == 0 ? a : b;
		json_decref(gj);
		json_t *r = hc_req(who, "{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g,
				   "vertex", "pass");
		ck_assert_msg(hj_ok(r), "%s", hj_text(r));
		json_decref(r);
	}
	json_t *r = hc_req(a, "{s:s, s:I, s:[]}", "cmd", "dead", "game", (json_int_t)g, "stones");
	ck_assert_msg(hj_ok(r), "%s", hj_text(r));
	json_decref(r);
	r = hc_req(b, "{s:s, s:I, s:[s]}", "cmd", "dead", "game", (json_int_t)g, "stones", "C3");
	ck_assert_msg(hj_ok(r), "%s", hj_text(r));
	ck_assert_int_eq(hj_bool(r, "ended"), last);
	ck_assert_int_eq(hj_bool(r, "resumed"), !last);
	json_decref(r);
	hc_close(a);
	hc_close(b);
}

START_TEST(test_dispute_restart)
{
	struct hd d;
	char listen[32];
	snprintf(listen, sizeof listen, "127.0.0.1:%d", closed_port());
	const char *extra[] = {"--listen", listen, NULL};
	ck_assert_int_eq(hd_start(&d, extra), 0);
	struct hc *a = hc_login_new(d.port, "alice"), *b = hc_login_new(d.port, "bob");
	ck_assert(a && b);
	json_t *r = hc_req(a, "{s:s, s:s, s:i, s:f, s:s, s:b}", "cmd", "challenge", "opponent", "bob",
			   "size", 5, "komi", 0.5, "color", "black", "rated", 0);
	long long g = hj_int(r, "game");
	json_decref(r);
	json_decref(hc_req(b, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g));
	r = hc_req(a, "{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g, "vertex", "C3");
	ck_assert_msg(hj_ok(r), "%s", hj_text(r));
	json_decref(r);
	hc_close(a);
	hc_close(b);
	dispute_round(d.port, g, false);
	dispute_round(d.port, g, false);
	ck_assert_int_eq(hd_kill(&d), 0);
	ck_assert_int_eq(hd_restart(&d), 0);
	dispute_round(d.port, g, true);
	struct hc *c = hc_open(d.port);
	json_t *gj = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	ck_assert_str_eq(hj_str(gj, "game.phase"), "ended");
	ck_assert_str_eq(hj_str(gj, "game.result"), "B+24.5");
	ck_assert_int_eq(json_array_size(hj_get(gj, "game.dead")), 0);
	json_decref(gj);
	hc_close(c);
	ck_assert_int_eq(hd_stop(&d), 0);
	hd_cleanup(&d);
}
END_TEST

static Suite *cli_play_suite(void)
{
	Suite *s = suite_create("tengen-cli-play");
	TCase *tc = tcase_create("play");
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_play_commands);
	tcase_add_test(tc, test_play_addresses);
	tcase_add_test(tc, test_free_placement);
	tcase_add_test(tc, test_handicap_colour_auto);
	tcase_add_test(tc, test_prediction_game);
	tcase_add_test(tc, test_remove_own);
	tcase_add_test(tc, test_dispute_settled);
	tcase_add_test(tc, test_dispute_restart);
	tcase_add_test(tc, test_long_reply);
	tcase_add_test(tc, test_watch_reconnect);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cli_play_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
