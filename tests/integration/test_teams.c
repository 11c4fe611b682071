/* Integration tests of team events and elimination after k losses (issue 21), against a real
 * tengend (TENGEND, else ./server/tengend), driven over TCP through tests/support/harness and
 * tests/support/tourtest: a team round robin of 4 teams on 2 boards (team.create and its
 * refusals, every round's matches and board colours, results by the director, the team
 * standings against the test's own computation in Art. 27.2's order, a withdrawal replaced by
 * the team's reserve, every pair of teams met once), a team Swiss with lineups named per
 * round (team.lineup by the captain, its refusals, sealed until the round starts, teams paired
 * by match points), and a knockout with elimination after 2 losses played to its end. Rules:
 * Chinese Weiqi Rules 2002, Art. 25-28 (docs/teams.md); wire: docs/protocol.md.
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon in a fresh
 * directory. Results are set by the director (tournament.result): the games are ordinary
 * tournament games, played as every other (tests/integration/test_tournament_*).
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "tourtest.h"

#define TEST_TIMEOUT_S 90
#define NT 4     /* teams of the round robin */
#define NB 2     /* boards */
#define MAXM 16  /* matches kept */

static void login_all(const char *prefix, int n, char names[][32])
{
	for (int i = 0; i < n; i++) {
		snprintf(names[i], 32, "%s_%d", prefix, i);
		hc_close(tt_login(names[i]));
	}
}

static json_t *team_create(struct hc *td, long long t, const char *name, const char *p0,
			   const char *p1, const char *reserve)
{
	json_t *req = json_pack("{s:s, s:I, s:s, s:[s, s]}", "cmd", "team.create", "tournament",
				(json_int_t)t, "name", name, "players", p0, p1);
	if (reserve)
		json_object_set_new(req, "reserves", json_pack("[s]", reserve));
	return hc_reqj(td, req);
}

static void set_result(struct hc *td, long long g, const char *res)
{
	json_t *r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
			   (json_int_t)g, "result", res);
	OK(r);
	json_decref(r);
}

static int team_of(const char *const *teams, const char *name)
{
	for (int i = 0; teams[i]; i++)
		if (strcmp(teams[i], name) == 0)
			return i;
	ck_abort_msg("no team %s", name);
	return -1;
}

/* What the test computes: match points, board points, per board. */
struct tally {
	int mp[NT], bp[NT], boards[NT][NB];
	int met[NT][NT];
};

/* Start round `round`: checks the matches' shape and colours (home White on board 1, Black on
 * board 2), sets each board's result (home wins board 1; board 2 by `b2home`) and tallies. */
static void play_round(struct hc *td, long long t, int round, const char *const *teams,
		       const char *const (*members)[NB], struct tally *y, const char *expect_b2_of_a)
{
	json_t *r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament",
			   (json_int_t)t, "start_at", tt_wall_s() + TT_START_DELAY_S);
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), round);
	json_t *pairs = hj_get(r, "pairings");
	ck_assert_int_eq((int)json_array_size(pairs), NT / 2);
	/* before any result: each board's game says it is scheduled or in play (`phase`) */
	json_t *q = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament",
			   (json_int_t)t, "round", round);
	OK(q);
	for (size_t m = 0; m < json_array_size(hj_get(q, "pairings")); m++)
		for (int bd = 0; bd < NB; bd++) {
			char path[64];
			snprintf(path, sizeof path, "pairings.%zu.games.%d.phase", m, bd);
			const char *ph = hj_str(q, path);
			ck_assert_msg(ph && (!strcmp(ph, "scheduled") || !strcmp(ph, "playing")),
				      "round %d %s: %s", round, path, ph ? ph : "absent");
		}
	json_decref(q);
	for (size_t m = 0; m < json_array_size(pairs); m++) {
		json_t *pm = json_array_get(pairs, m);
		int h = team_of(teams, hj_str(pm, "home")), a = team_of(teams, hj_str(pm, "away"));
		ck_assert_int_gt(hj_int(pm, "match"), 0);
		y->met[h][a]++;
		y->met[a][h]++;
		json_t *games = hj_get(pm, "games");
		ck_assert_int_eq((int)json_array_size(games), NB);
		for (int bd = 0; bd < NB; bd++) {
			json_t *g = json_array_get(games, (size_t)bd);
			ck_assert_int_eq(hj_int(g, "board"), bd + 1);
			const char *hn = bd == 0 ? hj_str(g, "white") : hj_str(g, "black");
			const char *an = bd == 0 ? hj_str(g, "black") : hj_str(g, "white");
			/* the home team's player: its board's, or (team 0, board 2) the reserve */
			const char *want_h = members[h][bd], *want_a = members[a][bd];
			if (expect_b2_of_a && bd == 1 && h == 0)
				want_h = expect_b2_of_a;
			if (expect_b2_of_a && bd == 1 && a == 0)
				want_a = expect_b2_of_a;
			ck_assert_pstr_eq(hn, want_h);
			ck_assert_pstr_eq(an, want_a);
			/* board 1: home (White) wins; board 2: the away team wins (W+) in round 1,
			 * is drawn in round 2, home (Black) wins in round 3 */
			const char *res = bd == 0 ? "W+R" : round == 1 ? "W+R" : round == 2 ? "0" : "B+R";
			int hp = bd == 0 ? 2 : round == 1 ? 0 : round == 2 ? 1 : 2;
			set_result(td, hj_int(g, "game"), res);
			y->bp[h] += hp;
			y->bp[a] += 2 - hp;
			y->boards[h][bd] += hp;
			y->boards[a][bd] += 2 - hp;
		}
	}
	json_decref(r);
}

/* Match points from the board points of this round's matches (recomputed from the tally
 * difference: the test keeps per-round board points). */
static void check_standings(struct hc *td, long long t, const char *const *teams,
			    const struct tally *y)
{
	json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)t);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "score"), "MP");
	json_t *rows = hj_get(r, "standings");
	ck_assert_int_eq((int)json_array_size(rows), NT);
	int prev_key[2 + NB] = {0};
	for (size_t i = 0; i < json_array_size(rows); i++) {
		json_t *row = json_array_get(rows, i);
		int k = team_of(teams, hj_str(row, "team"));
		ck_assert_int_eq(hj_int(row, "match_points"), y->mp[k]);
		ck_assert_int_eq(hj_int(row, "board_points"), y->bp[k]);
		int key[2 + NB] = {y->mp[k], y->bp[k]};
		for (int bd = 0; bd < NB; bd++) {
			ck_assert_int_eq(json_integer_value(json_array_get(hj_get(row, "boards"),
									   (size_t)bd)), y->boards[k][bd]);
			key[2 + bd] = y->boards[k][bd];
		}
		if (i > 0) { /* Art. 27.2's order; a shared rank only when equal on all */
			int c = memcmp(key, prev_key, sizeof key) == 0 ? 0 : 1;
			for (int q = 0; q < 2 + NB && c; q++)
				if (key[q] != prev_key[q]) {
					ck_assert_msg(key[q] < prev_key[q], "row %zu out of order", i);
					break;
				}
			long long prev_rank = hj_int(json_array_get(rows, i - 1), "rank");
			ck_assert_int_eq(hj_int(row, "rank"), c ? (long long)i + 1 : prev_rank);
		}
		memcpy(prev_key, key, sizeof key);
	}
	json_decref(r);
}

START_TEST(test_team_round_robin)
{
	static char names[9][32];
	static const char *const teams[] = {"Aces", "Bees", "Cats", "Dogs", NULL};
	const char *members[NT][NB];
	struct tally y;
	memset(&y, 0, sizeof y);
	login_all("trr", 9, names);
	struct hc *td = tt_director("trr_td");
	long long t = tt_create(td, "Team RR", "team_round_robin", json_pack("{s:i}", "boards", NB));

	/* refusals: a team of the wrong size, an unknown player, an individual event */
	json_t *r = hc_req(td, "{s:s, s:I, s:s, s:[s]}", "cmd", "team.create", "tournament",
			   (json_int_t)t, "name", "Solo", "players", names[0]);
	ERR(r, "bad_request");
	json_decref(r);
	r = team_create(td, t, "Ghosts", names[0], "nobody_here", NULL);
	ERR(r, "not_found");
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament", (json_int_t)t,
		   "player", names[0]);
	ERR(r, "conflict"); /* a team event's players enter with their team */
	json_decref(r);
	long long ind = tt_create(td, "Individual", "swiss", NULL);
	r = team_create(td, ind, "Aces", names[0], names[1], NULL);
	ERR(r, "conflict");
	json_decref(r);
	/* a player's profile goes into the team event's field, for the exports (h9) */
	r = hc_req(td, "{s:s, s:s, s:s, s:s, s:s}", "cmd", "player.update", "player", names[0],
		   "full_name", "Acesurname Ann", "country", "CZ", "club", "Brno");
	OK(r);
	json_decref(r);
	for (int k = 0; k < NT; k++) {
		members[k][0] = names[2 * k];
		members[k][1] = names[2 * k + 1];
		r = team_create(td, t, teams[k], names[2 * k], names[2 * k + 1], k == 0 ? names[8] : NULL);
		OK(r);
		ck_assert_int_eq(hj_int(r, "team"), k + 1);
		json_decref(r);
	}
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t);
	ck_assert_msg(strstr(hj_text(r), "\"full_name\":\"Acesurname Ann\"") &&
		      strstr(hj_text(r), "\"country\":\"CZ\""), "no profile in the field: %s", hj_text(r));
	json_decref(r);
	r = team_create(td, t, "Aces", names[8], names[7], NULL);
	ERR(r, "conflict"); /* the name exists */
	json_decref(r);
	r = team_create(td, t, "Eels", names[0], names[8], NULL);
	ERR(r, "conflict"); /* players in another team */
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t);
	OK(r); /* the teams, board order and reserves */
	ck_assert_pstr_eq(hj_str(r, "tournament.teams.0.name"), "Aces");
	ck_assert_pstr_eq(hj_str(r, "tournament.teams.0.players.1"), names[1]);
	ck_assert_pstr_eq(hj_str(r, "tournament.teams.0.reserves.0"), names[8]);
	ck_assert_int_eq(hj_int(r, "tournament.teams.3.team"), 4);
	ck_assert_int_eq((int)json_array_size(hj_get(r, "tournament.teams.3.reserves")), 0);
	/* the rounds it plays: every pair of the 4 teams once, not the default setting (5) */
	ck_assert_int_eq(hj_int(r, "tournament.settings.rounds"), 3);
	json_decref(r);
	struct hc *p = tt_login(names[3]);
	r = team_create(p, t, "Flies", "x1", "x2", NULL);
	ERR(r, "forbidden");
	json_decref(r);
	hc_close(p);

	play_round(td, t, 1, teams, (const char *const (*)[NB])members, &y, NULL);
	/* round 1: every match 2-2 in board points: 1 match point each */
	for (int k = 0; k < NT; k++)
		y.mp[k] += 1;
	check_standings(td, t, teams, &y);
	/* Aces' board 2 withdraws: the reserve plays board 2 from round 2 on */
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament", (json_int_t)t,
		   "player", names[1]);
	OK(r);
	json_decref(r);
	play_round(td, t, 2, teams, (const char *const (*)[NB])members, &y, names[8]);
	/* round 2: home 3-1: 2 match points to the home teams; recomputed below from pairings */
	r = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament", (json_int_t)t,
		   "round", 2);
	OK(r);
	for (size_t m = 0; m < json_array_size(hj_get(r, "pairings")); m++) {
		json_t *pm = json_array_get(hj_get(r, "pairings"), m);
		y.mp[team_of(teams, hj_str(pm, "home"))] += 2;
		ck_assert_pstr_eq(hj_str(pm, "games.0.result"), "W+R"); /* as recorded */
		ck_assert_pstr_eq(hj_str(pm, "games.1.result"), "0");
	}
	json_decref(r);
	check_standings(td, t, teams, &y);
	play_round(td, t, 3, teams, (const char *const (*)[NB])members, &y, names[8]);
	r = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament", (json_int_t)t,
		   "round", 3);
	OK(r);
	for (size_t m = 0; m < json_array_size(hj_get(r, "pairings")); m++) /* home 4-0 */
		y.mp[team_of(teams, hj_str(json_array_get(hj_get(r, "pairings"), m), "home"))] += 2;
	json_decref(r);
	check_standings(td, t, teams, &y);
	for (int a = 0; a < NT; a++)
		for (int b = 0; b < NT; b++)
			ck_assert_int_eq(y.met[a][b], a != b);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	ERR(r, "conflict"); /* every round played */
	json_decref(r);
	/* over: nobody withdraws (it was taken, and marked the player), and its rounds, its
	 * teams', are no setting (5, the stored default, replied ok and changed nothing) */
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament", (json_int_t)t,
		   "player", names[2]);
	ERR(r, "conflict");
	ck_assert_msg(strstr(hj_str(r, "error.message"), "is over"), "%s", hj_text(r));
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.update", "tournament", (json_int_t)t,
		   "rounds", 5);
	ERR(r, "conflict");
	ck_assert_msg(strstr(hj_str(r, "error.message"), "is a team round robin, whose rounds "
			     "follow from its field, not from this setting: 3 for its 4 teams"), "%s",
		      hj_text(r));
	json_decref(r);
	hc_close(td);
}
END_TEST

/* A team Swiss of 4 teams with lineups per round: the captain names the round-1 order
 * (reversed); others may not; it is used when the round starts and cannot change after. */
START_TEST(test_team_swiss_lineup)
{
	static char names[9][32];
	static const char *const teams[] = {"North", "South", "East", "West", NULL};
	login_all("tsw", 9, names);
	struct hc *td = tt_director("tsw_td");
	long long t = tt_create(td, "Team Swiss", "team_swiss",
				json_pack("{s:i, s:s, s:i}", "boards", NB, "lineup", "per_round",
					  "rounds", 2));
	for (int k = 0; k < NT; k++) { /* North has a reserve, who never plays */
		json_t *r = team_create(td, t, teams[k], names[2 * k], names[2 * k + 1],
					k == 0 ? names[8] : NULL);
		OK(r);
		json_decref(r);
	}
	struct hc *captain = tt_login(names[0]), *other = tt_login(names[1]);
	json_t *r = hc_req(other, "{s:s, s:I, s:s, s:i, s:[s, s]}", "cmd", "team.lineup",
			   "tournament", (json_int_t)t, "team", "North", "round", 1, "players",
			   names[1], names[0]);
	ERR(r, "forbidden");
	json_decref(r);
	r = hc_req(captain, "{s:s, s:I, s:s, s:i, s:[s, s]}", "cmd", "team.lineup", "tournament",
		   (json_int_t)t, "team", "North", "round", 1, "players", names[1], names[2]);
	ERR(r, "bad_request"); /* names[2] is South's */
	json_decref(r);
	r = hc_req(captain, "{s:s, s:I, s:s, s:i, s:[s, s]}", "cmd", "team.lineup", "tournament",
		   (json_int_t)t, "team", "North", "round", 1, "players", names[0], names[1]);
	OK(r);
	json_decref(r);
	/* named again, by the number team.create gave (North: 1): the last one counts */
	r = hc_req(captain, "{s:s, s:I, s:i, s:i, s:[s, s]}", "cmd", "team.lineup", "tournament",
		   (json_int_t)t, "team", 1, "round", 1, "players", names[1], names[0]);
	OK(r);
	json_decref(r);
	r = hc_req(captain, "{s:s, s:I, s:i, s:i, s:[s, s]}", "cmd", "team.lineup", "tournament",
		   (json_int_t)t, "team", NT + 1, "round", 1, "players", names[1], names[0]);
	ERR(r, "not_found");
	json_decref(r);
	/* a round the event does not have (it has 2) */
	r = hc_req(captain, "{s:s, s:I, s:i, s:i, s:[s, s]}", "cmd", "team.lineup", "tournament",
		   (json_int_t)t, "team", 1, "round", 3, "players", names[1], names[0]);
	ERR(r, "bad_request");
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	OK(r);
	int mp[NT] = {0};
	json_t *pairs = hj_get(r, "pairings");
	ck_assert_int_eq((int)json_array_size(pairs), 2);
	bool seen_north = false;
	for (size_t m = 0; m < 2; m++) {
		json_t *pm = json_array_get(pairs, m);
		int h = team_of(teams, hj_str(pm, "home")), a = team_of(teams, hj_str(pm, "away"));
		for (int bd = 0; bd < NB; bd++) {
			json_t *g = json_array_get(hj_get(pm, "games"), (size_t)bd);
			/* North's board 1 is its second player, as named */
			const char *n_side = (h == 0) == (bd == 0) ? hj_str(g, "white") : hj_str(g, "black");
			if (h == 0 || a == 0) {
				seen_north = true;
				ck_assert_pstr_eq(n_side, names[bd == 0 ? 1 : 0]);
			}
			set_result(td, hj_int(g, "game"), "W+R");
		}
		/* board 1 W+ = home, board 2 W+ = away: 2-2, one match point each */
		mp[h]++;
		mp[a]++;
	}
	ck_assert(seen_north);
	json_decref(r);
	r = hc_req(captain, "{s:s, s:I, s:s, s:i, s:[s, s]}", "cmd", "team.lineup", "tournament",
		   (json_int_t)t, "team", "North", "round", 1, "players", names[0], names[1]);
	ERR(r, "conflict"); /* round 1 has started */
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	OK(r);
	/* round 2 without a named lineup: the registered order; no rematch */
	json_t *p2 = hj_get(r, "pairings");
	ck_assert_int_eq((int)json_array_size(p2), 2);
	for (size_t m = 0; m < 2; m++) {
		json_t *pm = json_array_get(p2, m);
		if (strcmp(hj_str(pm, "home"), "North") == 0)
			ck_assert_pstr_eq(hj_str(pm, "games.0.white"), names[0]);
		for (int bd = 0; bd < NB; bd++)
			set_result(td, hj_int(json_array_get(hj_get(pm, "games"), (size_t)bd), "game"),
				   "W+R");
	}
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)t);
	OK(r);
	json_t *rows = hj_get(r, "standings");
	ck_assert_int_eq((int)json_array_size(rows), NT);
	for (size_t i = 0; i < NT; i++) {
		ck_assert_int_eq(hj_int(json_array_get(rows, i), "match_points"), 2);
		ck_assert_int_eq(hj_int(json_array_get(rows, i), "board_points"), 4);
		ck_assert_int_eq(hj_int(json_array_get(rows, i), "rank"), 1); /* all level: tied */
		ck_assert_int_eq(hj_int(json_array_get(rows, i), "sos"), 4);
	}
	(void)mp;
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	ERR(r, "conflict"); /* 2 rounds planned */
	json_decref(r);
	/* the h9 export carries the individual games: a line for each of the 8 players who
	 * played, 2 games each; the unused reserve has none */
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament", (json_int_t)t,
		   "format", "h9");
	OK(r);
	const char *h9 = hj_str(r, "data");
	ck_assert_ptr_nonnull(h9);
	int lines = 0;
	for (const char *q = h9; *q; q = strchr(q, '\n') ? strchr(q, '\n') + 1 : q + strlen(q))
		lines += *q != ';' && *q != '\n';
	ck_assert_int_eq(lines, 8);
	ck_assert_ptr_null(strstr(h9, names[8]));
	for (int i = 0; i < 8; i++)
		ck_assert_ptr_nonnull(strstr(h9, names[i]));
	json_decref(r);
	hc_close(captain);
	hc_close(other);
	hc_close(td);
}
END_TEST

/* A knockout of 5 with elimination after 2 losses, results by the director (Black wins every
 * game), to its end: nobody with 2 losses is paired; 2(n-1) or 2(n-1)+1 games in all. */
START_TEST(test_knockout_two_losses)
{
	static char names[5][32];
	login_all("ko2", 5, names);
	struct hc *td = tt_director("ko2_td");
	/* refusals of the new fields */
	json_t *bad[] = {
		json_pack("{s:s, s:s, s:s, s:i}", "cmd", "tournament.create", "name", "x1", "system",
			  "knockout", "match_games", 4),
		json_pack("{s:s, s:s, s:s, s:i}", "cmd", "tournament.create", "name", "x2", "system",
			  "swiss", "boards", 3),
		json_pack("{s:s, s:s, s:s, s:i}", "cmd", "tournament.create", "name", "x3", "system",
			  "team_swiss", "elimination_losses", 2),
		json_pack("{s:s, s:s, s:s}", "cmd", "tournament.create", "name", "x4", "system",
			  "team_swiss"),
		json_pack("{s:s, s:s, s:s, s:i}", "cmd", "tournament.create", "name", "x5", "system",
			  "round_robin", "elimination_losses", 2),
		json_pack("{s:s, s:s, s:s, s:i}", "cmd", "tournament.create", "name", "x6", "system",
			  "knockout", "elimination_losses", 99),
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		json_t *r = hc_reqj(td, bad[i]);
		ERR(r, "bad_request");
		json_decref(r);
	}
	long long t = tt_create(td, "KO2", "knockout", json_pack("{s:i}", "elimination_losses", 2));
	for (int i = 0; i < 5; i++) {
		json_t *r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
				   (json_int_t)t, "player", names[i]);
		OK(r);
		json_decref(r);
	}
	int losses[5] = {0}, games = 0, rounds = 0;
	for (;;) {
		json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament",
				   (json_int_t)t);
		if (!hj_ok(r)) {
			ERR(r, "conflict");
			json_decref(r);
			break;
		}
		rounds++;
		ck_assert_int_lt(rounds, 20);
		json_t *pairs = hj_get(r, "pairings");
		for (size_t k = 0; k < json_array_size(pairs); k++) {
			json_t *pj = json_array_get(pairs, k);
			int b = -1, w = -1;
			for (int i = 0; i < 5; i++) {
				if (strcmp(names[i], hj_str(pj, "black")) == 0)
					b = i;
				if (strcmp(names[i], hj_str(pj, "white")) == 0)
					w = i;
			}
			ck_assert(b >= 0 && w >= 0);
			ck_assert_int_lt(losses[b], 2);
			ck_assert_int_lt(losses[w], 2);
			set_result(td, hj_int(pj, "game"), "B+R");
			losses[w]++;
			games++;
		}
		json_decref(r);
	}
	int left = 0;
	for (int i = 0; i < 5; i++)
		left += losses[i] < 2;
	ck_assert_int_eq(left, 1);
	ck_assert(games == 8 || games == 9);
	/* the standings put the one left first, alone */
	int winner = 0;
	while (losses[winner] >= 2)
		winner++;
	json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)t);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "standings.0.player"), names[winner]);
	ck_assert_int_eq(hj_int(r, "standings.0.rank"), 1);
	ck_assert_int_eq(hj_int(r, "standings.1.rank"), 2);
	json_decref(r);
	hc_close(td);
}
END_TEST

/* td registers names[0..n) in tournament t. */
static void register_all(struct hc *td, long long t, char names[][32], int n)
{
	for (int i = 0; i < n; i++) {
		json_t *r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
				   (json_int_t)t, "player", names[i]);
		OK(r);
		json_decref(r);
	}
}

/* start_round's pairings: each one's game, black and white into g/bl/wh (at most 4). */
static int read_pairs(json_t *r, long long *g, char bl[][32], char wh[][32])
{
	json_t *pairs = hj_get(r, "pairings");
	int n = (int)json_array_size(pairs);
	ck_assert_int_le(n, 4);
	for (int k = 0; k < n; k++) {
		json_t *p = json_array_get(pairs, (size_t)k);
		g[k] = hj_int(p, "game");
		snprintf(bl[k], 32, "%s", hj_str(p, "black"));
		snprintf(wh[k], 32, "%s", hj_str(p, "white"));
	}
	return n;
}

/* A knockout of 4 whose pairings are best-of-3 matches: the first games; a draw replayed;
 * the colours alternating; start_round creating each undecided match's next game
 * ("continued") until both are decided (2-1 and 2-0), then the final between the winners;
 * the standings count each match as one game. */
START_TEST(test_best_of_three_knockout)
{
	static char names[4][32];
	login_all("bo3", 4, names);
	struct hc *td = tt_director("bo3_td");
	long long t = tt_create(td, "BO3", "knockout", json_pack("{s:i}", "match_games", 3));
	register_all(td, t, names, 4);
	long long g[4];
	char bl[4][32], wh[4][32], first_b[2][32], first_w[2][32];
	json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	OK(r);
	ck_assert_int_eq(read_pairs(r, g, bl, wh), 2);
	json_decref(r);
	for (int k = 0; k < 2; k++) {
		snprintf(first_b[k], 32, "%s", bl[k]);
		snprintf(first_w[k], 32, "%s", wh[k]);
	}
	set_result(td, g[0], "B+R"); /* match 0: its first Black leads 1-0 */
	set_result(td, g[1], "0");   /* match 1: a draw, replayed */
	/* game 2 of each: colours swapped; round 1 still */
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), 1);
	ck_assert(json_is_true(hj_get(r, "continued")));
	ck_assert_int_eq(read_pairs(r, g, bl, wh), 2);
	for (int k = 0; k < 2; k++) {
		ck_assert_pstr_eq(bl[k], first_w[k]);
		ck_assert_pstr_eq(wh[k], first_b[k]);
		ck_assert_int_eq(hj_int(json_array_get(hj_get(r, "pairings"), (size_t)k), "match_game"), 2);
	}
	json_decref(r);
	set_result(td, g[0], "B+R"); /* match 0: 1-1 */
	set_result(td, g[1], "W+R"); /* match 1: its first Black (now White) 1-0 */
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	OK(r);
	ck_assert(json_is_true(hj_get(r, "continued")));
	ck_assert_int_eq(read_pairs(r, g, bl, wh), 2);
	for (int k = 0; k < 2; k++) /* game 3: game 1's colours */
		ck_assert_pstr_eq(bl[k], first_b[k]);
	json_decref(r);
	set_result(td, g[0], "B+R"); /* match 0: 2-1 to its first Black */
	set_result(td, g[1], "B+R"); /* match 1: 2-0 to its first Black */
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), 2);
	ck_assert_ptr_null(hj_get(r, "continued"));
	ck_assert_int_eq(read_pairs(r, g, bl, wh), 1);
	ck_assert((strcmp(bl[0], first_b[0]) == 0 && strcmp(wh[0], first_b[1]) == 0) ||
		  (strcmp(bl[0], first_b[1]) == 0 && strcmp(wh[0], first_b[0]) == 0));
	json_decref(r);
	/* standings after round 1: a match is one game: the winners 2 points, 1 win, no loss */
	r = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.standings", "tournament", (json_int_t)t,
		   "round", 1);
	OK(r);
	json_t *rows = hj_get(r, "standings");
	ck_assert_int_eq((int)json_array_size(rows), 4);
	for (size_t i = 0; i < 4; i++) {
		json_t *row = json_array_get(rows, i);
		bool winner = strcmp(hj_str(row, "player"), first_b[0]) == 0 ||
			      strcmp(hj_str(row, "player"), first_b[1]) == 0;
		ck_assert_int_eq(hj_int(row, "points"), winner ? 2 : 0);
		ck_assert_int_eq(hj_int(row, "wins") + hj_int(row, "losses"), 1);
	}
	json_decref(r);
	/* the h9 export reads a match as one game: a line per player, one result each */
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament", (json_int_t)t,
		   "format", "h9");
	OK(r);
	ck_assert_ptr_nonnull(strstr(hj_str(r, "data"), first_b[0]));
	json_decref(r);
	/* the player's profile lists the event with the match as one win */
	r = hc_req(td, "{s:s, s:s}", "cmd", "player", "name", first_b[0]);
	OK(r);
	ck_assert_int_eq(hj_int(r, "tournaments.0.wins"), 1);
	json_decref(r);
	/* the final: one game won, 1-0; a second game follows */
	set_result(td, g[0], "W+R");
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	OK(r);
	ck_assert(json_is_true(hj_get(r, "continued")));
	ck_assert_int_eq(hj_int(r, "round"), 2);
	json_decref(r);
	hc_close(td);
}
END_TEST

/* A match game's new result that would decide its best-of-3 match before a later game of it
 * (paired because the match was open) is refused; before, it was stored, and the event's
 * standings, exports and next round all failed (internal) until the old result was put back
 * (a director's trial). */
START_TEST(test_best_of_three_result_change)
{
	static char names[2][32];
	login_all("bc3", 2, names);
	struct hc *td = tt_director("bc3_td");
	long long t = tt_create(td, "BC3", "knockout", json_pack("{s:i}", "match_games", 3));
	register_all(td, t, names, 2);
	long long g[4], game[3];
	char bl[4][32], wh[4][32];
	for (int k = 0; k < 3; k++) {
		json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament",
				   (json_int_t)t);
		OK(r);
		ck_assert_int_eq(read_pairs(r, g, bl, wh), 1);
		json_decref(r);
		game[k] = g[0];
		if (k < 2)
			set_result(td, game[k], "B+R"); /* each Black wins: 1-1 after two */
	}
	/* game 2 to White, game 1's Black: 2-0 before game 3 */
	json_t *r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
			   (json_int_t)game[1], "result", "W+R");
	ERR(r, "conflict");
	char want[64];
	snprintf(want, sizeof want, "before game %lld", game[2]);
	ck_assert_msg(strstr(hj_str(r, "error.message"), want), "%s", hj_text(r));
	json_decref(r);
	set_result(td, game[1], "B+R"); /* the same winner: allowed (unchanged) */
	set_result(td, game[2], "W+R"); /* the third game decides it */
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)t);
	OK(r);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament", (json_int_t)t,
		   "format", "h9");
	OK(r);
	json_decref(r);
	set_result(td, game[0], "B+4"); /* a margin for a resignation: the match goes as it did */
	/* the other way: a Swiss whose round 2 was paired from a match won 2-0; game 2 changed
	 * to the other player would leave round 1's match undecided: refused */
	long long sw = tt_create(td, "BC3 Swiss", "swiss", json_pack("{s:i, s:i}", "match_games", 3,
								      "rounds", 2));
	register_all(td, sw, names, 2);
	for (int k = 0; k < 2; k++) {
		r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)sw);
		OK(r);
		ck_assert_int_eq(read_pairs(r, g, bl, wh), 1);
		json_decref(r);
		game[k] = g[0];
		set_result(td, game[k], k == 0 ? "B+R" : "W+R"); /* game 1's Black wins both */
	}
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)sw);
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), 2);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game", (json_int_t)game[1],
		   "result", "B+R");
	ERR(r, "conflict");
	ck_assert_msg(strstr(hj_str(r, "error.message"), "undecided"), "%s", hj_text(r));
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)sw);
	OK(r);
	json_decref(r);
	hc_close(td);
}
END_TEST

/* A team knockout (a director's trial): a first-round match level on every board holds the
 * next round, and the refusal says which match and why (it said "a game of an earlier round
 * has no result", though every game had one); a board's result changed settles it. The final
 * level on board points goes to the team ahead on board 1, and the standings put that team,
 * the bracket's winner, first (ko_rounds), not the runner-up with more match points. */
START_TEST(test_team_knockout_level_and_winner)
{
	static char names[8][32];
	static const char *const teams[] = {"Ants", "Bats", "Cows", "Dogs"};
	login_all("tko", 8, names);
	struct hc *td = tt_director("tko_td");
	long long t = tt_create(td, "Team KO", "team_knockout", json_pack("{s:i}", "boards", 2));
	for (int k = 0; k < 4; k++) {
		json_t *r = team_create(td, t, teams[k], names[2 * k], names[2 * k + 1], NULL);
		OK(r);
		json_decref(r);
	}
	json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	OK(r);
	json_t *pairs = hj_get(r, "pairings");
	ck_assert_int_eq((int)json_array_size(pairs), 2);
	long long level[2] = {0, 0};
	char level_home[32] = "";
	for (size_t m = 0; m < 2; m++) {
		json_t *games = hj_get(json_array_get(pairs, m), "games");
		for (int bd = 0; bd < 2; bd++) {
			long long g = hj_int(json_array_get(games, (size_t)bd), "game");
			if (m == 0) { /* both boards drawn: level everywhere */
				level[bd] = g;
				set_result(td, g, "0");
			} else {
				set_result(td, g, bd == 0 ? "W+R" : "B+R"); /* the home team 2-0 */
			}
		}
		if (m == 0)
			snprintf(level_home, sizeof level_home, "%s", hj_str(json_array_get(pairs, m), "home"));
	}
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	ERR(r, "conflict");
	ck_assert_msg(strstr(hj_str(r, "error.message"), "level on every board") &&
		      strstr(hj_str(r, "error.message"), level_home), "%s", hj_text(r));
	json_decref(r);
	set_result(td, level[0], "W+R"); /* board 1 to the home team (White there): it goes on */
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	OK(r);
	pairs = hj_get(r, "pairings");
	ck_assert_int_eq((int)json_array_size(pairs), 1);
	json_t *games = hj_get(json_array_get(pairs, 0), "games");
	char fin_home[32], fin_away[32];
	snprintf(fin_home, sizeof fin_home, "%s", hj_str(json_array_get(pairs, 0), "home"));
	snprintf(fin_away, sizeof fin_away, "%s", hj_str(json_array_get(pairs, 0), "away"));
	/* the final paired, none of its games with a result: standings as of round 1, said so */
	json_t *q = hc_req(td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)t);
	OK(q);
	ck_assert_int_eq(hj_int(q, "round"), 1);
	json_decref(q);
	/* the final 2-2: board 1 to the away team (Black there), board 2 to the home team */
	set_result(td, hj_int(json_array_get(games, 0), "game"), "B+R");
	set_result(td, hj_int(json_array_get(games, 1), "game"), "B+R");
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)t);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "standings.0.team"), fin_away);
	ck_assert_int_eq(hj_int(r, "standings.0.ko_rounds"), 2);
	ck_assert_pstr_eq(hj_str(r, "standings.1.team"), fin_home);
	ck_assert_int_eq(hj_int(r, "standings.1.ko_rounds"), 1);
	json_decref(r);
	hc_close(td);
}
END_TEST

/* An arena match (擂台赛) of two teams of 3 to its end: the winner stays on, colours
 * alternate between the teams, a draw puts both out, the team whose players are all beaten
 * loses; then start_round is a conflict and the standings put the winner first. */
START_TEST(test_arena)
{
	static char names[6][32];
	login_all("are", 6, names);
	struct hc *td = tt_director("are_td");
	long long t = tt_create(td, "Arena", "arena", json_pack("{s:i}", "boards", 3));
	json_t *r = hc_req(td, "{s:s, s:I, s:s, s:[s, s, s]}", "cmd", "team.create", "tournament",
			   (json_int_t)t, "name", "Red", "players", names[0], names[1], names[2]);
	OK(r);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s, s:[s, s, s]}", "cmd", "team.create", "tournament",
		   (json_int_t)t, "name", "Blue", "players", names[3], names[4], names[5]);
	OK(r);
	json_decref(r);
	struct hc *x = tt_login("are_x1");
	hc_close(x);
	x = tt_login("are_x2");
	hc_close(x);
	x = tt_login("are_x3");
	hc_close(x);
	r = hc_req(td, "{s:s, s:I, s:s, s:[s, s, s]}", "cmd", "team.create", "tournament",
		   (json_int_t)t, "name", "Green", "players", "are_x1", "are_x2", "are_x3");
	ERR(r, "conflict"); /* two teams only */
	json_decref(r);
	/* game k: (Red's place, Blue's place, Red Black?, result) */
	static const struct { int red, blue; bool red_black; const char *res; } want[] = {
		{1, 1, true, "B+R"},  /* Red 1 wins, stays */
		{1, 2, false, "B+R"}, /* Blue 2 (Black) wins, stays */
		{2, 2, true, "0"},    /* drawn: both out */
		{3, 3, false, "W+R"}, /* Red 3 (White) wins: Blue is all beaten */
	};
	for (int k = 0; k < 4; k++) {
		r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
		OK(r);
		ck_assert_int_eq(hj_int(r, "round"), k + 1);
		json_t *p = json_array_get(hj_get(r, "pairings"), 0);
		ck_assert_int_eq(hj_int(p, "home_player"), want[k].red);
		ck_assert_int_eq(hj_int(p, "away_player"), want[k].blue);
		const char *red = names[want[k].red - 1], *blue = names[3 + want[k].blue - 1];
		ck_assert_pstr_eq(hj_str(p, "games.0.black"), want[k].red_black ? red : blue);
		ck_assert_pstr_eq(hj_str(p, "games.0.white"), want[k].red_black ? blue : red);
		long long g = hj_int(p, "games.0.game");
		json_decref(r);
		if (k == 1) { /* a game without a result holds the next */
			r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament",
				   (json_int_t)t);
			ERR(r, "conflict");
			json_decref(r);
		}
		set_result(td, g, want[k].res);
	}
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	ERR(r, "conflict");
	ck_assert_ptr_nonnull(strstr(hj_str(r, "error.message"), "decided (Red)"));
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)t);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "standings.0.team"), "Red");
	ck_assert_int_eq(hj_int(r, "standings.0.match_points"), 2);
	ck_assert_int_eq(hj_int(r, "standings.0.board_points"), 4);
	ck_assert_int_eq(hj_int(r, "standings.0.boards.0"), 2);
	ck_assert_int_eq(hj_int(r, "standings.0.boards.1"), 0);
	ck_assert_int_eq(hj_int(r, "standings.0.boards.2"), 2);
	ck_assert_int_eq(hj_int(r, "standings.0.players_left"), 1);
	ck_assert_pstr_eq(hj_str(r, "standings.1.team"), "Blue");
	ck_assert_int_eq(hj_int(r, "standings.1.rank"), 2);
	ck_assert_int_eq(hj_int(r, "standings.1.match_points"), 0);
	ck_assert_int_eq(hj_int(r, "standings.1.boards.1"), 2);
	ck_assert_int_eq(hj_int(r, "standings.1.players_left"), 0);
	json_decref(r);
	/* decided: nobody withdraws from it */
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament", (json_int_t)t,
		   "player", names[2]);
	ERR(r, "conflict");
	ck_assert_msg(strstr(hj_str(r, "error.message"), "is over"), "%s", hj_text(r));
	json_decref(r);
	hc_close(td);
}
END_TEST

/* A best-of-3 knockout at a board venue: each match's later games are board games too (no
 * start time, no lateness: they stay scheduled for the director's result, docs/teams.md); and
 * the prediction ruleset is refused for team and best-of-N events (their colours are set by
 * the event, seed 000's by the predictions). */
START_TEST(test_board_matches_and_refusals)
{
	static char names[2][32];
	login_all("bv", 2, names);
	struct hc *td = tt_director("bv_td");
	json_t *r = hc_req(td, "{s:s, s:s, s:s, s:i, s:i, s:{s:s}}", "cmd", "tournament.create",
			   "name", "BV team", "system", "team_swiss", "boards", 2, "size", 9, "rules",
			   "ruleset", "prediction");
	ERR(r, "bad_request");
	json_decref(r);
	r = hc_req(td, "{s:s, s:s, s:s, s:i, s:i, s:{s:s}}", "cmd", "tournament.create", "name",
		   "BV bo3", "system", "knockout", "match_games", 3, "size", 9, "rules", "ruleset",
		   "prediction");
	ERR(r, "bad_request");
	json_decref(r);
	long long t = tt_create(td, "BV", "knockout", json_pack("{s:i, s:s, s:i}", "match_games", 3,
								 "venue", "board", "lateness_limit_s", 1));
	for (int i = 0; i < 2; i++) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
			   (json_int_t)t, "player", names[i]);
		OK(r);
		json_decref(r);
	}
	long long g[2];
	char bl[2][32], wh[2][32];
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	OK(r);
	ck_assert_int_eq(read_pairs(r, g, bl, wh), 1);
	json_decref(r);
	set_result(td, g[0], "B+R");
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	OK(r);
	ck_assert(json_is_true(hj_get(r, "continued")));
	ck_assert_int_eq(read_pairs(r, g, bl, wh), 1);
	json_decref(r);
	sleep(3); /* past the lateness limit of an online game */
	r = hc_req(td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g[0]);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "scheduled");
	json_decref(r);
	hc_close(td);
}
END_TEST

static Suite *teams_suite(void)
{
	Suite *s = suite_create("teams");
	TCase *tc = tcase_create("teams");
	tcase_add_checked_fixture(tc, tt_setup, tt_teardown);
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, test_team_round_robin);
	tcase_add_test(tc, test_team_swiss_lineup);
	tcase_add_test(tc, test_knockout_two_losses);
	tcase_add_test(tc, test_best_of_three_knockout);
	tcase_add_test(tc, test_best_of_three_result_change);
	tcase_add_test(tc, test_team_knockout_level_and_winner);
	tcase_add_test(tc, test_arena);
	tcase_add_test(tc, test_board_matches_and_refusals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(teams_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
