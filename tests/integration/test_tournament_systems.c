/* Integration tests of the tournament systems (issue 5) against a real tengend (TENGEND, else
 * ./server/tengend), driven over TCP through tests/support/harness and tests/support/tourtest: a 6-player
 * round robin, a 7-player 3-round Swiss and a 5-player knockout, each run by a director with
 * the players' clients playing their games out (resignations, games counted by agreement after
 * a few moves, a draw counted on the board with komi 0, a director's forfeit and a director's
 * draw), then the standings (points, ranks, SOS / SODOS against the test's own computation
 * from the games it played), pairings, get, list, exports, a result override, a withdrawal,
 * and the conflicts and role checks of the commands. Rules: Chinese Weiqi Rules 2002,
 * Art. 26-28 (docs/rules.md, docs/tiebreaks.md); wire:
 * docs/protocol.md.
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon in a fresh
 * directory. Boards are 9x9, komi 0 (an integer komi: a counted draw is possible), no
 * clocks, rounds start TT_START_DELAY_S after they are drawn.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "tourtest.h"

#define TEST_TIMEOUT_S 60      /* per test (Check's own timeout) */

/* ---- tests ---- */

/* The round robin's 5 rounds of 3 games, played out with a draw, a count, a director's
 * forfeit and draw among the resignations; the conflicts of start_round and registration
 * on the way; then every pair has met exactly once. */
static void rr_play_rounds(struct tt_event *e)
{
	static const enum tt_outcome special[15] = {
		[1] = TT_DRAW_BY_COUNT, [4] = TT_BLACK_BY_COUNT, [7] = TT_TD_FORFEIT_BLACK, [10] = TT_TD_DRAW};
	int k = 0;
	for (int round = 1; round <= 5; round++) {
		int n = tt_start_round(e, round);
		ck_assert_int_eq(n, 3);
		ck_assert_int_eq(e->nbye_round[round], 0);
		if (round == 1) {
			tt_expect_conflict_start(e, "round 1 has no results yet");
			json_t *r = hc_req(e->td, "{s:s, s:I, s:s}", "cmd", "tournament.register",
					   "tournament", (json_int_t)e->id, "player", "rr_td");
			ERR(r, "conflict"); /* registration closed */
			json_decref(r);
		}
		for (int q = e->ng - n; q < e->ng; q++, k++) {
			struct tt_game *g = &e->g[q];
			enum tt_outcome o;
			if (special[k])
				o = special[k];
			else /* the better-numbered player wins, with an upset now and then */
				o = ((g->b < g->w) != (k % 5 == 3)) ? TT_WHITE_RESIGNS : TT_BLACK_RESIGNS;
			if (q == e->ng - 1 && round == 2)
				tt_expect_conflict_start(e, "round 2 still has a game in play");
			tt_play_out(e, g, o);
		}
		tt_check_pairings(e, round);
	}
	tt_expect_conflict_start(e, "every round of the round robin is played");
	/* Each pair met exactly once. */
	int met[TT_MAXP][TT_MAXP] = {{0}};
	for (int q = 0; q < e->ng; q++) {
		met[e->g[q].b][e->g[q].w]++;
		met[e->g[q].w][e->g[q].b]++;
	}
	for (int i = 0; i < e->n; i++)
		for (int j = 0; j < e->n; j++)
			ck_assert_msg(met[i][j] == (i != j), "%s and %s met %d times", e->names[i],
				      e->names[j], met[i][j]);
}

/* A result override (a resignation game turned round) as the director, reaching both players
 * and the standings and pairings; a bad result, an unknown game, a player refused. */
static void rr_override(struct tt_event *e, struct hc *anon, const char *const *tb)
{
	/* A result override: a resignation game turned round. */
	struct tt_game *ov = NULL;
	for (int q = 0; q < e->ng && !ov; q++)
		if (strcmp(e->g[q].result, "B+R") == 0)
			ov = &e->g[q];
	ck_assert_ptr_nonnull(ov);
	json_t *r = hc_req(e->td, "{s:s, s:I, s:s, s:s}", "cmd", "tournament.result", "game", (json_int_t)ov->id,
		   "result", "W+R", "reason", "resignation");
	OK(r);
	json_decref(r);
	for (int s = 0; s < 2; s++) {
		struct hc *c = e->c[s == 0 ? ov->b : ov->w];
		json_t *ev = hc_event(c, "game.end", ov->id, T);
		ck_assert_msg(ev != NULL, "%s got no game.end for the override", c->name);
		ck_assert_pstr_eq(hj_str(ev, "result"), "W+R");
		ck_assert_int_eq(hj_bool(ev, "override"), 1);
		json_decref(ev);
	}
	snprintf(ov->result, sizeof ov->result, "W+R");
	ov->pts_b = 0;
	ov->pts_w = TT_WIN;
	r = hc_req(anon, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)ov->id);
	ck_assert_pstr_eq(hj_str(r, "game.result"), "W+R");
	json_decref(r);
	tt_check_standings(e, tb, 3);
	tt_check_pairings(e, ov->round);
	/* Results not in their stored form: refused, nothing changed (they were stored as typed). */
	static const char *const bad[] = {"X+1", "w+ 3", "W+3.25", "W+0.0001", "B+3e0"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		r = hc_req(e->td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
			   (json_int_t)ov->id, "result", bad[i]);
		ERR(r, "bad_request");
		json_decref(r);
	}
	r = hc_req(anon, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)ov->id);
	ck_assert_pstr_eq(hj_str(r, "game.result"), "W+R");
	json_decref(r);
	r = hc_req(e->td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game", (json_int_t)999999,
		   "result", "B+R");
	ERR(r, "not_found");
	json_decref(r);
	r = hc_req(e->c[0], "{s:s, s:I, s:s}", "cmd", "tournament.result", "game", (json_int_t)ov->id,
		   "result", "B+R");
	ERR(r, "forbidden");
	json_decref(r);
}

/* The event as others see it: listed, got, and in the winner's player profile. */
static void rr_listing(const struct tt_event *e, struct hc *anon)
{
	json_t *r = hc_req(anon, "{s:s}", "cmd", "tournament.list");
	OK(r);
	bool listed = false;
	size_t q;
	json_t *v;
	json_array_foreach(hj_get(r, "tournaments"), q, v)
		if (hj_int(v, "id") == e->id) {
			listed = true;
			ck_assert_pstr_eq(hj_str(v, "name"), "RR Cup");
			ck_assert_int_eq(hj_int(v, "round"), 5);
		}
	ck_assert_msg(listed, "tournament %lld not listed: %s", e->id, hj_text(r));
	json_decref(r);
	r = hc_req(anon, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)e->id);
	OK(r);
	ck_assert_int_eq(hj_int(r, "tournament.round"), 5);
	json_decref(r);
	r = hc_req(anon, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)(e->id + 100));
	ERR(r, "not_found");
	json_decref(r);
	/* The player profile lists the event with the player's place and points, as the
	 * standings have them. */
	json_t *st = hc_req(anon, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)e->id);
	OK(st);
	json_t *top = json_array_get(hj_get(st, "standings"), 0);
	r = hc_req(anon, "{s:s, s:s}", "cmd", "player", "name", hj_str(top, "player"));
	OK(r);
	bool found = false;
	json_array_foreach(hj_get(r, "tournaments"), q, v)
		if (hj_int(v, "id") == e->id) {
			found = true;
			ck_assert_int_eq(hj_int(v, "place"), hj_int(top, "rank"));
			ck_assert_int_eq(hj_int(v, "points"), hj_int(top, "points"));
			ck_assert_pstr_eq(hj_str(v, "system"), "round_robin");
		}
	ck_assert_msg(found, "tournament %lld not in the profile: %s", e->id, hj_text(r));
	json_decref(r);
	json_decref(st);
}

/* A 6-player round robin: 5 rounds, every pair once; standings with SODOS and SOS; an
 * override; exports; the conflicts; the role checks. */
START_TEST(test_round_robin)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	tt_players(&e, "rr", 6, names);
	e.td = tt_director("rr_td");
	/* A player may not run a tournament. */
	json_t *r = hc_req(e.c[0], "{s:s, s:s, s:s}", "cmd", "tournament.create", "name", "mine",
			   "system", "swiss");
	ERR(r, "forbidden");
	json_decref(r);
	const char *const tb[] = {"SODOS", "SOS", "WARN"};
	e.id = tt_create(e.td, "RR Cup", "round_robin", json_pack("{s:[s,s,s]}", "tiebreaks", tb[0],
								       tb[1], tb[2]));
	r = hc_req(e.c[0], "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
		   (json_int_t)e.id, "player", e.names[1]);
	ERR(r, "forbidden");
	json_decref(r);
	for (int i = 0; i < e.n; i++)
		tt_register(&e, i);
	r = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
		   (json_int_t)e.id, "player", e.names[2]);
	ERR(r, "conflict"); /* registered already */
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
		   (json_int_t)e.id, "player", "nobody_here");
	ERR(r, "not_found");
	json_decref(r);

	/* get and list before the start (no login needed for them). */
	struct hc *anon = hc_open(tt_d.port);
	ck_assert_ptr_nonnull(anon);
	r = hc_req(anon, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)e.id);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "tournament.name"), "RR Cup");
	ck_assert_pstr_eq(hj_str(r, "tournament.system"), "round_robin");
	ck_assert_int_eq(hj_int(r, "tournament.players"), 6);
	ck_assert_int_eq(hj_int(r, "tournament.round"), 0);
	ck_assert_int_eq(json_array_size(hj_get(r, "tournament.field")), 6);
	json_decref(r);

	rr_play_rounds(&e);
	tt_check_standings(&e, tb, 3);

	rr_override(&e, anon, tb);
	tt_check_exports(&e, "RR Cup");

	rr_listing(&e, anon);
	hc_close(anon);
	tt_close_all(&e);
}
END_TEST

/* settings.rounds of a round robin's event, as listed and got: `rounds` (the setting, default 5) as
 * long as the field has fewer than 2, then the field's Berger rounds. */
static void check_rounds_shown(struct hc *c, long long id, int want)
{
	json_t *r = hc_req(c, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)id);
	OK(r);
	ck_assert_int_eq(hj_int(r, "tournament.settings.rounds"), want);
	json_decref(r);
	r = hc_req(c, "{s:s}", "cmd", "tournament.list");
	OK(r);
	size_t q;
	json_t *v;
	int seen = 0;
	json_array_foreach(hj_get(r, "tournaments"), q, v)
		if (hj_int(v, "id") == id) {
			seen++;
			ck_assert_int_eq(hj_int(v, "settings.rounds"), want);
		}
	ck_assert_int_eq(seen, 1);
	json_decref(r);
}

/* `round` of tournament.pairings / .standings past the current round: bad_request, saying which
 * round is current (they answered an empty list and `internal`). */
static void expect_unplayed(struct hc *c, long long id, int round, int current)
{
	static const char *const cmds[] = {"tournament.pairings", "tournament.standings"};
	char want[96];
	snprintf(want, sizeof want, "round %d has not been played (the current round is %d)", round,
		 current);
	for (int k = 0; k < 2; k++) {
		json_t *r = hc_req(c, "{s:s, s:I, s:i}", "cmd", cmds[k], "tournament", (json_int_t)id,
				   "round", round);
		ERR(r, "bad_request");
		ck_assert_msg(strstr(hj_str(r, "error.message"), want) != NULL, "%s: %s", cmds[k],
			      hj_text(r));
		json_decref(r);
	}
}

/* A round robin's rounds come from its field (4 players: 3 rounds; 3: 3; a double round robin
 * of 4: 6), shown as such by get and list; rounds not played yet are refused by pairings and
 * standings before the start and after round 1, which both show. */
START_TEST(test_round_robin_rounds)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	tt_players(&e, "rn", 4, names);
	e.td = tt_director("rn_td");
	e.id = tt_create(e.td, "RR Four", "round_robin", NULL);
	long long odd = tt_create(e.td, "RR Three", "round_robin", NULL);
	long long dbl = tt_create(e.td, "DRR Four", "double_round_robin", NULL);
	check_rounds_shown(e.td, e.id, 5); /* no field yet: the setting */
	for (int i = 0; i < e.n; i++) {
		tt_register(&e, i);
		tt_req_ok(e.td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
					  (json_int_t)dbl, "player", e.names[i]));
		if (i < 3)
			tt_req_ok(e.td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.register",
						  "tournament", (json_int_t)odd, "player", e.names[i]));
	}
	check_rounds_shown(e.td, e.id, 3);
	check_rounds_shown(e.td, odd, 3);
	check_rounds_shown(e.td, dbl, 6);
	expect_unplayed(e.c[0], e.id, 1, 0);
	/* before round 1: no pairings and nothing to export (an h9 of entries without a round
	 * was written, and the pairings of "round 0"); the standings list the field */
	json_t *r0 = hc_req(e.c[0], "{s:s, s:I}", "cmd", "tournament.pairings", "tournament",
			    (json_int_t)e.id);
	ERR(r0, "bad_request");
	/* a player is told who pairs it, and how (it named only the protocol command) */
	ck_assert_msg(strstr(hj_str(r0, "error.message"), "no round yet: the director pairs round 1 "
			     "(tournament.start_round, `tengen td start`)"), "%s", hj_text(r0));
	json_decref(r0);
	r0 = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament",
		    (json_int_t)e.id, "format", "h9");
	ERR(r0, "bad_request");
	ck_assert_msg(strstr(hj_str(r0, "error.message"), "no round yet"), "%s", hj_text(r0));
	json_decref(r0);
	r0 = hc_req(e.c[0], "{s:s, s:I}", "cmd", "tournament.standings", "tournament",
		    (json_int_t)e.id);
	OK(r0);
	ck_assert_int_eq(json_array_size(hj_get(r0, "standings")), 4);
	json_decref(r0);
	/* a start long past the lateness limit (600 meant as "in ten minutes") would lose every
	 * game at once: refused, nothing paired */
	r0 = hc_req(e.td, "{s:s, s:I, s:i}", "cmd", "tournament.start_round", "tournament",
		    (json_int_t)e.id, "start_at", 600);
	ERR(r0, "bad_request");
	ck_assert_msg(strstr(hj_str(r0, "error.message"), "lateness limit"), "%s", hj_text(r0));
	json_decref(r0);
	expect_unplayed(e.c[0], e.id, 1, 0);
	ck_assert_int_eq(tt_start_round(&e, 1), 2);
	expect_unplayed(e.c[0], e.id, 2, 1);
	expect_unplayed(e.c[0], e.id, 9, 1);
	json_t *r = hc_req(e.c[0], "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament",
			   (json_int_t)e.id, "round", 1);
	OK(r);
	ck_assert_int_eq(json_array_size(hj_get(r, "pairings")), 2);
	json_decref(r);
	r = hc_req(e.c[0], "{s:s, s:I, s:i}", "cmd", "tournament.standings", "tournament",
		   (json_int_t)e.id, "round", 1);
	OK(r);
	ck_assert_int_eq(json_array_size(hj_get(r, "standings")), 4);
	json_decref(r);
	check_rounds_shown(e.td, e.id, 3);
	tt_close_all(&e);
}
END_TEST

/* A 7-player, 3-round Swiss: a bye each round while the field is odd, a withdrawal after
 * round 1 (never paired again), a player joining by themself, standings with SOS. */
START_TEST(test_swiss)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	tt_players(&e, "sw", 7, names);
	e.td = tt_director("sw_td");
	const char *const tb[] = {"SOS", "WARN"}; /* the Swiss default */
	e.id = tt_create(e.td, "Swiss Open", "swiss", json_pack("{s:i}", "rounds", 3));
	for (int i = 0; i < e.n - 1; i++)
		tt_register(&e, i);
	/* The last one joins by themself (tournament.join). */
	tt_req_ok(e.c[6], json_pack("{s:s, s:I}", "cmd", "tournament.join", "tournament", (json_int_t)e.id));

	ck_assert_int_eq(tt_start_round(&e, 1), 3);
	ck_assert_int_eq(e.nbye_round[1], 1);
	tt_expect_conflict_start(&e, "round 1 has no results yet");
	/* A Swiss takes late entries (test_td_field); a registered player cannot join again. */
	json_t *r = hc_req(e.c[0], "{s:s, s:I}", "cmd", "tournament.join", "tournament",
			   (json_int_t)e.id);
	ERR(r, "conflict"); /* registered already */
	json_decref(r);
	tt_play_out(&e, &e.g[0], TT_WHITE_RESIGNS);
	tt_play_out(&e, &e.g[1], TT_TD_FORFEIT_BLACK);
	tt_play_out(&e, &e.g[2], TT_BLACK_BY_COUNT);
	tt_check_pairings(&e, 1);
	/* the counted game's record: the event and round; no director's note */
	{
		json_t *q = hc_req(e.td, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)e.g[2].id);
		OK(q);
		const char *sgf = hj_str(q, "sgf");
		ck_assert_msg(strstr(sgf, "RE[B+1]") && strstr(sgf, "RO[1]") &&
			      strstr(sgf, "EV[") && !strstr(sgf, "tournament director"), "%s", sgf);
		json_decref(q);
		/* a director's result replaces the count: no TB/TW under RE[W+R], and said so */
		q = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
			   (json_int_t)e.g[2].id, "result", "W+R");
		OK(q);
		json_decref(q);
		q = hc_req(e.td, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)e.g[2].id);
		OK(q);
		sgf = hj_str(q, "sgf");
		ck_assert_msg(strstr(sgf, "RE[W+R]") && !strstr(sgf, "TB[") && !strstr(sgf, "TW[") &&
			      strstr(sgf, "set by the tournament director"), "%s", sgf);
		json_decref(q);
		q = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
			   (json_int_t)e.g[2].id, "result", "B+1");
		OK(q);
		json_decref(q);
	}

	/* The loser of game 0 withdraws: not paired again. */
	int gone = e.g[0].w;
	r = hc_req(e.c[1], "{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament",
		   (json_int_t)e.id, "player", e.names[gone]);
	ERR(r, "forbidden");
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament",
		   (json_int_t)e.id, "player", e.names[gone]);
	OK(r);
	ck_assert_int_eq(hj_int(r, "withdrawn_after"), 1);
	ck_assert_int_eq(json_array_size(hj_get(r, "forfeited")), 0); /* round 1 was over */
	json_decref(r);
	e.withdrawn[gone] = true;
	/* again, and an absence for them: conflict saying when they withdrew (was not_found,
	 * "not in the field", while the field lists them) */
	r = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament",
		   (json_int_t)e.id, "player", e.names[gone]);
	ERR(r, "conflict");
	ck_assert_msg(strstr(hj_str(r, "error.message"), "withdrew after round 1"), "%s", hj_text(r));
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I, s:s, s:i}", "cmd", "tournament.absent", "tournament",
		   (json_int_t)e.id, "player", e.names[gone], "round", 3);
	ERR(r, "conflict");
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)e.id);
	OK(r);
	json_t *v;
	size_t q;
	bool marked = false;
	json_array_foreach(hj_get(r, "tournament.field"), q, v)
		if (strcmp(hj_str(v, "name"), e.names[gone]) == 0)
			marked = hj_int(v, "withdrawn_after") == 1;
	ck_assert_msg(marked, "%s should be withdrawn after round 1: %s", e.names[gone], hj_text(r));
	json_decref(r);

	ck_assert_int_eq(tt_start_round(&e, 2), 3); /* 6 left: no bye */
	ck_assert_int_eq(e.nbye_round[2], 0);
	tt_play_out(&e, &e.g[3], TT_DRAW_BY_COUNT);
	tt_play_out(&e, &e.g[4], TT_BLACK_RESIGNS);
	tt_play_out(&e, &e.g[5], TT_WHITE_RESIGNS);
	tt_check_pairings(&e, 2);
	ck_assert_int_eq(tt_start_round(&e, 3), 3);
	tt_play_out(&e, &e.g[6], TT_TD_DRAW);
	tt_play_out(&e, &e.g[7], TT_WHITE_RESIGNS);
	tt_play_out(&e, &e.g[8], TT_BLACK_RESIGNS);
	tt_check_pairings(&e, 3);
	tt_expect_conflict_start(&e, "the 3 rounds are played");
	/* No rematches in a Swiss. */
	for (int a = 0; a < e.ng; a++)
		for (int b = a + 1; b < e.ng; b++)
			ck_assert_msg(!((e.g[a].b == e.g[b].b && e.g[a].w == e.g[b].w) ||
					(e.g[a].b == e.g[b].w && e.g[a].w == e.g[b].b)),
				      "rematch: games %lld and %lld", e.g[a].id, e.g[b].id);
	tt_check_standings(&e, tb, 2);
	/* Standings after round 1 only: the bye counted, the later rounds not. */
	r = hc_req(e.td, "{s:s, s:I, s:i}", "cmd", "tournament.standings", "tournament",
		   (json_int_t)e.id, "round", 1);
	OK(r);
	int byer = e.bye_round[1][0];
	bool seen = false;
	json_array_foreach(hj_get(r, "standings"), q, v) {
		if (strcmp(hj_str(v, "player"), e.names[byer]) == 0)
			ck_assert_int_eq(hj_int(v, "points"), TT_BYE_POINTS);
		/* the player who withdrew after round 1: so marked as of round 1 (as of an
		 * earlier round they are not: test_td_field's test_withdrawn_mark_as_of) */
		if (strcmp(hj_str(v, "player"), e.names[gone]) == 0)
			seen = hj_int(v, "withdrawn_after") == 1;
	}
	ck_assert_msg(seen, "as of round 1, %s has withdrawn after round 1: %s", e.names[gone],
		      hj_text(r));
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I, s:i}", "cmd", "tournament.standings", "tournament",
		   (json_int_t)e.id, "round", 2);
	OK(r);
	seen = false;
	json_array_foreach(hj_get(r, "standings"), q, v)
		if (strcmp(hj_str(v, "player"), e.names[gone]) == 0)
			seen = hj_int(v, "withdrawn_after") == 1;
	ck_assert_msg(seen, "after round 2, %s has withdrawn after round 1: %s", e.names[gone],
		      hj_text(r));
	json_decref(r);
	tt_check_exports(&e, "Swiss Open");
	tt_close_all(&e);
}
END_TEST

/* A 5-player knockout: a bracket of 8, so the top three seeds (registration order: equal
 * ratings) have byes in round 1; three rounds to a single winner; then the event is over. */
START_TEST(test_knockout)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	tt_players(&e, "ko", 5, names);
	e.knockout = true;
	e.td = tt_director("ko_td");
	e.id = tt_create(e.td, "KO Cup", "knockout", NULL);
	for (int i = 0; i < e.n; i++)
		tt_register(&e, i);
	check_rounds_shown(e.td, e.id, 3); /* 5 entries: byes, then 4, then 2 */
	/* Round 1: 4 v 5, byes for seeds 1-3. */
	ck_assert_int_eq(tt_start_round(&e, 1), 1);
	ck_assert_int_eq(e.nbye_round[1], 3);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(e.byes[i], 1);
	ck_assert_msg((e.g[0].b == 3 && e.g[0].w == 4) || (e.g[0].b == 4 && e.g[0].w == 3),
		      "round 1 should pair seeds 4 and 5");
	tt_play_out(&e, &e.g[0], e.g[0].b == 3 ? TT_WHITE_RESIGNS : TT_BLACK_RESIGNS); /* seed 4 wins */
	tt_check_pairings(&e, 1);
	/* Round 2: 1 v 4, 2 v 3. */
	ck_assert_int_eq(tt_start_round(&e, 2), 2);
	ck_assert_int_eq(e.nbye_round[2], 0);
	/* round 2 is paired from round 1's winner: that result can no longer change its winner
	 * (it put the loser into round 2 once), only its margin */
	{
		bool white_won = e.g[0].result[0] == 'W';
		json_t *r = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
				   (json_int_t)e.g[0].id, "result", white_won ? "B+R" : "W+R");
		ERR(r, "conflict");
		json_decref(r);
		r = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
			   (json_int_t)e.g[0].id, "result", white_won ? "W+T" : "B+T");
		OK(r);
		json_decref(r);
		snprintf(e.g[0].result, sizeof e.g[0].result, "%s", white_won ? "W+T" : "B+T");
	}
	int winner = -1;
	for (int q = 1; q <= 2; q++) {
		struct tt_game *g = &e.g[q];
		int lo = g->b < g->w ? g->b : g->w, hi = g->b ^ g->w ^ lo;
		ck_assert_msg((lo == 0 && hi == 3) || (lo == 1 && hi == 2),
			      "round 2 pairs %s with %s", e.names[lo], e.names[hi]);
		/* Seed 1 wins; seed 3 beats seed 2. */
		int win = lo == 0 ? 0 : 2;
		tt_play_out(&e, g, g->b == win ? TT_WHITE_RESIGNS : TT_BLACK_RESIGNS);
	}
	tt_check_pairings(&e, 2);
	/* The final: seed 1 v seed 3; seed 3 wins. */
	ck_assert_int_eq(tt_start_round(&e, 3), 1);
	struct tt_game *f = &e.g[3];
	ck_assert_msg((f->b == 0 && f->w == 2) || (f->b == 2 && f->w == 0), "the final pairs %s and %s",
		      e.names[f->b], e.names[f->w]);
	winner = 2;
	tt_play_out(&e, f, f->b == winner ? TT_WHITE_RESIGNS : TT_BLACK_RESIGNS);
	tt_expect_conflict_start(&e, "the knockout has a winner");
	json_t *r = hc_req(e.td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)e.id);
	OK(r);
	ck_assert_str_eq(hj_str(r, "score"), "KO");
	ck_assert_pstr_eq(hj_str(r, "standings.0.player"), e.names[winner]);
	ck_assert_int_eq(hj_int(r, "standings.0.rank"), 1);
	ck_assert_msg(hj_int(r, "standings.1.rank") > 1, "a single winner: %s", hj_text(r));
	/* The finalist lost in round 3: 2 rounds survived; the winner 3. */
	ck_assert_msg(fabs(hj_num(r, "standings.0.score") - 3) < TT_EPS, "winner's KO: %s", hj_text(r));
	ck_assert_pstr_eq(hj_str(r, "standings.1.player"), e.names[0]);
	ck_assert_msg(fabs(hj_num(r, "standings.1.score") - 2) < TT_EPS, "finalist's KO: %s", hj_text(r));
	json_decref(r);
	tt_close_all(&e);
}
END_TEST

static Suite *systems_suite(void)
{
	Suite *s = suite_create("tournament systems");
	TCase *tc = tcase_create("tournament");
	tcase_add_checked_fixture(tc, tt_setup, tt_teardown);
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, test_round_robin);
	tcase_add_test(tc, test_round_robin_rounds);
	tcase_add_test(tc, test_swiss);
	tcase_add_test(tc, test_knockout);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(systems_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
