/* Unit tests for common/team (team events, Chinese Rules 2002 Art. 25.2, 26, 27.2, 28.4):
 * board and match points, team standings by Art. 27.2's order on a hand-computed event
 * (a tie broken on board 2, a full tie sharing a place), Berger tables on teams, team Swiss
 * pairing by match points, team knockout (a level match decided on board 1, a match level
 * everywhere pending), fixed lineups with reserves and withdrawals (Art. 28.4). Arena,
 * best-of-N and elimination are in test_match_forms.c. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "pairing.h"
#include "team.h"

#define MAXG 256

struct fixture {
	struct event_player players[64];
	struct team teams[16];
	struct team_game games[MAXG];
	struct team_bye byes[16];
	struct team_event te;
};

/* n teams of `boards` players each (plus `reserves`), seeds in index order. */
static void fx_init(struct fixture *f, enum event_system sys, int n, int boards, int reserves)
{
	static const char *names[] = { "A", "B", "C", "D", "E", "F", "G", "H", "I", "J" };
	memset(f, 0, sizeof *f);
	int per = boards + reserves;
	for (int t = 0; t < n; t++) {
		f->teams[t].name = names[t];
		f->teams[t].seed = t;
		f->teams[t].nplayers = per;
		for (int i = 0; i < per; i++) {
			f->teams[t].players[i] = t * per + i;
			f->players[t * per + i].id = t * per + i;
		}
	}
	f->te.system = sys;
	f->te.boards = boards;
	f->te.nteams = n;
	f->te.teams = f->teams;
	f->te.nplayers = n * per;
	f->te.players = f->players;
	f->te.games = f->games;
	f->te.byes = f->byes;
	f->te.bye_match_points = 2;
	f->te.bye_board_points = 2;
}

/* Adds the board game of (round, home, away) on `board` where home scores home_pts (2 win,
 * 1 draw, 0 loss; -1: no result yet), with the colours team_home_black gives. */
static void add_board(struct fixture *f, int round, int home, int away, int board, int home_pts)
{
	struct team_game *g = &f->games[f->te.ngames++];
	bool hb = team_home_black(board);
	ck_assert_int_le(f->te.ngames, MAXG);
	g->round = round;
	g->home = home;
	g->away = away;
	g->board = board;
	g->home_player = f->teams[home].players[board];
	g->away_player = f->teams[away].players[board];
	g->home_black = hb;
	switch (home_pts) {
	case 2:
		g->result = hb ? RESULT_BLACK_WIN : RESULT_WHITE_WIN;
		break;
	case 1:
		g->result = RESULT_DRAW;
		break;
	case 0:
		g->result = hb ? RESULT_WHITE_WIN : RESULT_BLACK_WIN;
		break;
	default:
		g->result = RESULT_NONE;
	}
}

/* A match of three boards: home's points on boards 1, 2, 3. */
static void add_match3(struct fixture *f, int round, int home, int away, int b1, int b2, int b3)
{
	add_board(f, round, home, away, 0, b1);
	add_board(f, round, home, away, 1, b2);
	add_board(f, round, home, away, 2, b3);
}

enum { TA, TB, TC, TD };

/* The hand-computed round robin of 4 teams of 3 boards (home's points per board):
 *   R1: A-C (2,2,0) A wins 4-2;     B-D (2,0,2) B wins 4-2
 *   R2: A-D (0,2,1) drawn 3-3;      B-C (2,0,1) drawn 3-3
 *   R3: A-B (2,0,1) drawn 3-3;      C-D (2,1,0) drawn 3-3
 * Totals: A MP 4, BP 10, boards (4,4,2); B MP 4, BP 10, boards (4,2,4): level on match
 * points, board points and board 1, A ahead on board 2. C and D: MP 2, BP 8, boards (2,3,3)
 * each: level on everything, they share 3rd place (Art. 27.2: ties allowed). */
static void rr_event(struct fixture *f)
{
	fx_init(f, SYSTEM_ROUND_ROBIN, 4, 3, 0);
	add_match3(f, 1, TA, TC, 2, 2, 0);
	add_match3(f, 1, TB, TD, 2, 0, 2);
	add_match3(f, 2, TA, TD, 0, 2, 1);
	add_match3(f, 2, TB, TC, 2, 0, 1);
	add_match3(f, 3, TA, TB, 2, 0, 1);
	add_match3(f, 3, TC, TD, 2, 1, 0);
}

START_TEST(test_board_and_match_points)
{
	struct fixture f;
	struct team_match_score s;
	int h = -1, a = -1;

	rr_event(&f);
	ck_assert_int_eq(team_validate(&f.te), TEAM_OK);
	/* board 2 of A-C: home Black, home won */
	ck_assert(f.games[1].home_black);
	ck_assert_int_eq(f.games[1].result, RESULT_BLACK_WIN);
	ck_assert_int_eq(team_game_points(&f.games[1], &h, &a), TEAM_OK);
	ck_assert_int_eq(h, 2);
	ck_assert_int_eq(a, 0);
	ck_assert_int_eq(team_match_score(&f.te, 1, TA, TC, &s), TEAM_OK);
	ck_assert_int_eq(s.home_bp, 4);
	ck_assert_int_eq(s.away_bp, 2);
	ck_assert_int_eq(s.home_mp, 2);
	ck_assert_int_eq(s.away_mp, 0);
	ck_assert_int_eq(s.away_board[2], 2);
	ck_assert(!s.all_forfeits);
	ck_assert_int_eq(team_match_score(&f.te, 2, TA, TD, &s), TEAM_OK);
	ck_assert_int_eq(s.home_mp, 1);
	ck_assert_int_eq(s.away_mp, 1);
	ck_assert_int_eq(s.ko_winner, TD); /* board 1 decides a level knockout match */
	/* no such match; a pending board */
	ck_assert_int_eq(team_match_score(&f.te, 1, TC, TA, &s), TEAM_EPENDING);
	f.games[0].result = RESULT_NONE;
	ck_assert_int_eq(team_match_score(&f.te, 1, TA, TC, &s), TEAM_EPENDING);
	/* a void game is replayed: the replay on the same board counts */
	f.games[0].result = RESULT_VOID;
	ck_assert_int_eq(team_match_score(&f.te, 1, TA, TC, &s), TEAM_EPENDING);
	add_board(&f, 1, TA, TC, 0, 0);
	ck_assert_int_eq(team_match_score(&f.te, 1, TA, TC, &s), TEAM_OK);
	ck_assert_int_eq(s.home_bp, 2); /* A (0,2,0) v C (2,0,2): C wins */
	ck_assert_int_eq(s.away_bp, 4);
	ck_assert_int_eq(s.home_mp, 0);
	ck_assert_int_eq(s.away_mp, 2);
	/* a double loss scores nothing for either side */
	struct team_game g = f.games[2];
	g.result = RESULT_DOUBLE_LOSS;
	ck_assert_int_eq(team_game_points(&g, &h, &a), TEAM_OK);
	ck_assert_int_eq(h + a, 0);
	g.result = RESULT_NONE;
	ck_assert_int_eq(team_game_points(&g, &h, &a), TEAM_EPENDING);
}
END_TEST

static void check_row(const struct team_standing *r, int team, int place, int mp, int bp,
		int b1, int b2, int b3)
{
	ck_assert_int_eq(r->team, team);
	ck_assert_int_eq(r->place, place);
	ck_assert_int_eq(r->match_points, mp);
	ck_assert_int_eq(r->board_points, bp);
	ck_assert_int_eq(r->boards[0], b1);
	ck_assert_int_eq(r->boards[1], b2);
	ck_assert_int_eq(r->boards[2], b3);
}

START_TEST(test_standings_art27_2)
{
	struct fixture f;
	struct team_standing rows[4];

	rr_event(&f);
	ck_assert_int_eq(team_standings(&f.te, 0, rows), 4);
	check_row(&rows[0], TA, 1, 4, 10, 4, 4, 2);
	check_row(&rows[1], TB, 2, 4, 10, 4, 2, 4);
	check_row(&rows[2], TC, 3, 2, 8, 2, 3, 3);
	check_row(&rows[3], TD, 3, 2, 8, 2, 3, 3);
	ck_assert_int_eq(rows[0].won, 1);
	ck_assert_int_eq(rows[0].drawn, 2);
	ck_assert_int_eq(rows[0].lost, 0);
	ck_assert_int_eq(rows[3].lost, 1);
	/* after round 1 only: A and B 2 MP 4 BP; A (2,2,0) B (2,0,2): A ahead on board 2 */
	ck_assert_int_eq(team_standings(&f.te, 1, rows), 4);
	check_row(&rows[0], TA, 1, 2, 4, 2, 2, 0);
	check_row(&rows[1], TB, 2, 2, 4, 2, 0, 2);
	/* C (0,0,2) and D (0,2,0): D ahead on board 2 */
	check_row(&rows[2], TD, 3, 0, 2, 0, 2, 0);
	check_row(&rows[3], TC, 4, 0, 2, 0, 0, 2);
}
END_TEST

START_TEST(test_standings_swiss_sos_and_bye)
{
	struct fixture f;
	struct team_standing rows[5];

	/* 5 teams of 2 boards, Swiss: R1 A-B A wins 3-1, C-D C wins 4-0, E bye.
	 * E bye (2 match points, 2 board points on each board).
	 * R2 A-C drawn 2-2 (A wins board 1), E-B E loses 1-3, D bye.
	 * A: MP 3, SOS B 2 + C 3 = 5, BP 5; C: MP 3, SOS D 2 + A 3 = 5, BP 6;
	 * B: MP 2, SOS A 3 + E 2 = 5, BP 4; D: MP 2, SOS C 3, BP 4 (bye), boards (2, 2);
	 * E: MP 2, SOS B 2, BP 5 (bye 4 + 1), boards (3, 2).
	 * Swiss order: MP, SOS, BP, boards: C, A, B, D, E. Round-robin order: C, A, E, D, B. */
	fx_init(&f, SYSTEM_SWISS, 5, 2, 0);
	add_board(&f, 1, 0, 1, 0, 2);
	add_board(&f, 1, 0, 1, 1, 1);
	add_board(&f, 1, 2, 3, 0, 2);
	add_board(&f, 1, 2, 3, 1, 2);
	f.byes[f.te.nbyes++] = (struct team_bye){ 1, 4 };
	add_board(&f, 2, 0, 2, 0, 2);
	add_board(&f, 2, 0, 2, 1, 0);
	add_board(&f, 2, 4, 1, 0, 1);
	add_board(&f, 2, 4, 1, 1, 0);
	f.byes[f.te.nbyes++] = (struct team_bye){ 2, 3 };
	ck_assert_int_eq(team_standings(&f.te, 0, rows), 5);
	/* C and A: MP 3, SOS 5; C ahead on board points (6 v 5) */
	ck_assert_int_eq(rows[0].team, 2);
	ck_assert_int_eq(rows[0].sos, 5);
	ck_assert_int_eq(rows[0].board_points, 6);
	ck_assert_int_eq(rows[1].team, 0);
	ck_assert_int_eq(rows[1].board_points, 5);
	ck_assert_int_eq(rows[2].team, 1);
	ck_assert_int_eq(rows[2].sos, 5);
	ck_assert_int_eq(rows[3].team, 3);
	ck_assert_int_eq(rows[3].sos, 3);
	ck_assert_int_eq(rows[3].byes, 1);
	ck_assert_int_eq(rows[3].board_points, 4);
	ck_assert_int_eq(rows[4].team, 4);
	ck_assert_int_eq(rows[4].board_points, 5);
	ck_assert_int_eq(rows[4].boards[0], 3);
	/* as a round robin, board points come before SOS: E (5), then D (4, boards (2, 2))
	 * before B (4, boards (1, 3)) on board 1 */
	f.te.system = SYSTEM_ROUND_ROBIN;
	ck_assert_int_eq(team_standings(&f.te, 0, rows), 5);
	ck_assert_int_eq(rows[2].team, 4);
	ck_assert_int_eq(rows[3].team, 3);
	ck_assert_int_eq(rows[4].team, 1);
}
END_TEST

/* Every team meets every other once; round t's matches are the Berger table's. */
START_TEST(test_berger_on_teams)
{
	for (int n = 3; n <= 8; n++) {
		struct fixture f;
		struct team_round r;
		int met[8][8] = { { 0 } }, boards[8][2];
		int rounds = pairing_berger_rounds(n);

		fx_init(&f, SYSTEM_ROUND_ROBIN, n, 2, 0);
		for (int t = 1; t <= rounds; t++) {
			ck_assert_int_eq(team_pair_round(&f.te, t, &r), PAIRING_OK);
			int nb = pairing_berger(n, t, boards), k = 0;
			for (int b = 0; b < nb; b++) {
				if (boards[b][0] > n || boards[b][1] > n)
					continue;
				/* the table's White (boards[b][0]) is the home team */
				ck_assert_int_eq(r.matches[k].home, boards[b][0] - 1);
				ck_assert_int_eq(r.matches[k].away, boards[b][1] - 1);
				k++;
			}
			ck_assert_int_eq(r.nmatches, k);
			ck_assert_int_eq(r.nbyes, n % 2);
			for (int m = 0; m < r.nmatches; m++) {
				met[r.matches[m].home][r.matches[m].away]++;
				met[r.matches[m].away][r.matches[m].home]++;
			}
		}
		for (int a = 0; a < n; a++)
			for (int b = 0; b < n; b++)
				ck_assert_int_eq(met[a][b], a != b);
		ck_assert_int_eq(team_pair_round(&f.te, rounds + 1, &r), PAIRING_EOVER);
	}
}
END_TEST

/* 8 teams, Swiss: round 1 the home teams win; round 2 pairs winners with winners, losers
 * with losers, and no rematch; round 3 likewise by match points. */
START_TEST(test_team_swiss_by_match_points)
{
	struct fixture f;
	struct team_round r;
	int mp[8] = { 0 };

	fx_init(&f, SYSTEM_SWISS, 8, 2, 0);
	f.te.rounds_planned = 3;
	for (int t = 1; t <= 3; t++) {
		ck_assert_int_eq(team_pair_round(&f.te, t, &r), PAIRING_OK);
		ck_assert_int_eq(r.nmatches, 4);
		ck_assert_int_eq(r.nbyes, 0);
		for (int m = 0; m < 4; m++) {
			int h = r.matches[m].home, a = r.matches[m].away;
			if (t > 1)
				ck_assert_int_eq(mp[h], mp[a]);
			for (int g = 0; g < f.te.ngames; g++)
				ck_assert(!((f.games[g].home == h && f.games[g].away == a) ||
					    (f.games[g].home == a && f.games[g].away == h)));
		}
		for (int m = 0; m < 4; m++) {
			int h = r.matches[m].home, a = r.matches[m].away;
			/* the home team wins 2-0 except in round 2, where it wins 3-1 */
			add_board(&f, t, h, a, 0, 2);
			add_board(&f, t, h, a, 1, t == 2 ? 1 : 2);
			mp[h] += 2;
		}
	}
	ck_assert_int_eq(team_pair_round(&f.te, 4, &r), PAIRING_EOVER);
	/* a pending board holds the next round */
	f.te.rounds_planned = 4;
	f.games[f.te.ngames - 1].result = RESULT_NONE;
	ck_assert_int_eq(team_pair_round(&f.te, 4, &r), PAIRING_EPENDING);
}
END_TEST

/* Team knockout of 4 teams: a match level on board points goes to the team ahead on
 * board 1; a match level on every board is pending (replayed). */
START_TEST(test_team_knockout)
{
	struct fixture f;
	struct team_round r;

	fx_init(&f, SYSTEM_KNOCKOUT, 4, 2, 0);
	ck_assert_int_eq(team_pair_round(&f.te, 1, &r), PAIRING_OK);
	ck_assert_int_eq(r.nmatches, 2);
	int m0h = r.matches[0].home, m0a = r.matches[0].away;
	int m1h = r.matches[1].home, m1a = r.matches[1].away;
	/* seeds 1 v 4 and 2 v 3 */
	ck_assert_int_eq(m0h + m0a, 3);
	ck_assert_int_eq(m1h + m1a, 3);
	/* match 0: 2-2, the away team wins board 1: it goes on */
	add_board(&f, 1, m0h, m0a, 0, 0);
	add_board(&f, 1, m0h, m0a, 1, 2);
	/* match 1: both boards drawn: level everywhere */
	add_board(&f, 1, m1h, m1a, 0, 1);
	add_board(&f, 1, m1h, m1a, 1, 1);
	ck_assert_int_eq(team_pair_round(&f.te, 2, &r), PAIRING_EPENDING);
	/* board 2 replayed (the draw voided): the home team wins it */
	f.games[3].result = RESULT_VOID;
	add_board(&f, 1, m1h, m1a, 1, 2);
	ck_assert_int_eq(team_pair_round(&f.te, 2, &r), PAIRING_OK);
	ck_assert_int_eq(r.nmatches, 1);
	int fin[2] = { r.matches[0].home, r.matches[0].away };
	ck_assert((fin[0] == m0a && fin[1] == m1h) || (fin[0] == m1h && fin[1] == m0a));
	/* the final: level 2-2, the away team wins board 1 and the event. The standings put the
	 * bracket's winner first (rounds survived), not the team with more match points (a
	 * director's trial: the runner-up, on 3 MP to the winner's 2, was listed first) */
	add_board(&f, 2, fin[0], fin[1], 0, 0);
	add_board(&f, 2, fin[0], fin[1], 1, 2);
	struct team_standing rows[4];
	ck_assert_int_eq(team_standings(&f.te, 0, rows), 4);
	ck_assert_int_eq(rows[0].team, fin[1]);
	ck_assert_int_eq(rows[0].ko_rounds, 2);
	ck_assert_int_eq(rows[1].team, fin[0]);
	ck_assert_int_eq(rows[1].ko_rounds, 1);
	ck_assert_int_eq(rows[0].place, 1);
	ck_assert_int_eq(rows[1].place, 2);
	ck_assert_int_eq(rows[2].ko_rounds, 0);
}
END_TEST

/* Art. 28.4: a player withdraws after round 1 (results stand; the later boards are
 * forfeits, or a reserve plays when the event allows it); a team withdraws after round 1
 * (round robin: its matches stay in the draw, absent; every board is a forfeit). */
START_TEST(test_withdrawal)
{
	struct fixture f;
	struct team_round r;
	struct team_standing rows[4];
	int lineup[2];

	fx_init(&f, SYSTEM_ROUND_ROBIN, 4, 2, 1);
	/* round 1 by the Berger table, home teams win both boards */
	ck_assert_int_eq(team_pair_round(&f.te, 1, &r), PAIRING_OK);
	for (int m = 0; m < r.nmatches; m++) {
		add_board(&f, 1, r.matches[m].home, r.matches[m].away, 0, 2);
		add_board(&f, 1, r.matches[m].home, r.matches[m].away, 1, 2);
	}
	int rows1 = team_standings(&f.te, 0, rows);
	ck_assert_int_eq(rows1, 4);
	int first_mp = rows[0].match_points;
	ck_assert_int_eq(first_mp, 2);
	/* B's board-2 player (index 4: team 1's players are 3, 4 and reserve 5) withdraws */
	ck_assert_int_eq(f.teams[1].players[1], 4);
	f.players[4].withdrawn_after = 1;
	ck_assert_int_eq(team_lineup(&f.te, 1, 1, lineup), TEAM_OK);
	ck_assert_int_eq(lineup[1], 4);
	ck_assert_int_eq(team_lineup(&f.te, 1, 2, lineup), TEAM_OK);
	ck_assert_int_eq(lineup[0], 3);
	ck_assert_int_eq(lineup[1], -1);
	f.te.reserves = true;
	ck_assert_int_eq(team_lineup(&f.te, 1, 2, lineup), TEAM_OK);
	ck_assert_int_eq(lineup[1], 5);
	f.te.reserves = false;
	/* team D (3) withdraws after round 1 */
	f.teams[3].withdrawn_after = 1;
	for (int t = 2; t <= 3; t++) {
		ck_assert_int_eq(team_pair_round(&f.te, t, &r), PAIRING_OK);
		ck_assert_int_eq(r.nmatches, 2);
		for (int m = 0; m < r.nmatches; m++) {
			int h = r.matches[m].home, a = r.matches[m].away;
			ck_assert(r.matches[m].home_absent == (h == 3));
			ck_assert(r.matches[m].away_absent == (a == 3));
			add_board(&f, t, h, a, 0, -1);
			add_board(&f, t, h, a, 1, -1); /* B's board 2: player 4, as named */
		}
	}
	/* rounds 2-3: 8 board games; D's 4 and B's board 2 (2 games, one possibly against D) */
	int changed = team_apply_withdrawals(&f.te);
	ck_assert_int_gt(changed, 0);
	ck_assert_int_eq(team_apply_withdrawals(&f.te), 0); /* idempotent */
	for (int g = 0; g < f.te.ngames; g++) {
		const struct team_game *x = &f.games[g];
		if (x->round == 1) {
			ck_assert(x->result == RESULT_BLACK_WIN || x->result == RESULT_WHITE_WIN);
			continue;
		}
		bool d = x->home == 3 || x->away == 3;
		bool b2 = x->board == 1 && (x->home == 1 || x->away == 1);
		if (d && b2)
			ck_assert_int_eq(x->result, RESULT_DOUBLE_LOSS);
		else if (d || b2) {
			int h, a;
			bool home_out = x->home == 3 || (b2 && x->home == 1);
			ck_assert_int_eq(team_game_points(x, &h, &a), TEAM_OK);
			ck_assert_int_eq(h, home_out ? 0 : 2);
			ck_assert_int_eq(a, home_out ? 2 : 0);
			ck_assert(x->result == RESULT_BLACK_FORFEIT_WIN ||
				  x->result == RESULT_WHITE_FORFEIT_WIN);
		} else
			ck_assert_int_eq(x->result, RESULT_NONE);
	}
	/* D's opponents in rounds 2-3 score 2 match points from them (all forfeits) */
	struct team_match_score s;
	for (int g = 0; g < f.te.ngames; g++) {
		const struct team_game *x = &f.games[g];
		if (x->round < 2 || (x->home != 3 && x->away != 3) || x->board != 0)
			continue;
		if (x->home == 1 || x->away == 1) {
			/* B: board 2 forfeited too (double loss): B wins 2-0 on board 1 alone */
			ck_assert_int_eq(team_match_score(&f.te, x->round, x->home, x->away, &s),
					TEAM_OK);
			ck_assert_int_eq(x->home == 3 ? s.away_bp : s.home_bp, 2);
		} else {
			ck_assert_int_eq(team_match_score(&f.te, x->round, x->home, x->away, &s),
					TEAM_OK);
			ck_assert_int_eq(x->home == 3 ? s.away_mp : s.home_mp, 2);
			ck_assert_int_eq(x->home == 3 ? s.away_bp : s.home_bp, 4);
			ck_assert(s.all_forfeits);
		}
	}
	/* round 1's results stand: D's round-1 match still counts in the standings */
	ck_assert_int_eq(team_standings(&f.te, 1, rows), 4);
	ck_assert_int_eq(rows[0].match_points + rows[1].match_points + rows[2].match_points +
			 rows[3].match_points, 4);
}
END_TEST

START_TEST(test_invalid)
{
	struct fixture f;
	struct team_standing rows[4];
	struct team_round r;
	int lineup[3];

	rr_event(&f);
	f.te.boards = 0;
	ck_assert_int_eq(team_validate(&f.te), TEAM_EINVAL);
	ck_assert_int_eq(team_standings(&f.te, 0, rows), TEAM_EINVAL);
	ck_assert_int_eq(team_pair_round(&f.te, 1, &r), TEAM_EINVAL);
	rr_event(&f);
	f.te.system = SYSTEM_MCMAHON;
	ck_assert_int_eq(team_validate(&f.te), TEAM_EINVAL);
	rr_event(&f);
	f.games[3].board = 3; /* boards are 0..2 */
	ck_assert_int_eq(team_validate(&f.te), TEAM_EINVAL);
	rr_event(&f);
	f.games[3].away = f.games[3].home;
	ck_assert_int_eq(team_apply_withdrawals(&f.te), TEAM_EINVAL);
	rr_event(&f);
	f.teams[1].players[2] = f.teams[1].players[0]; /* a player twice in a team */
	ck_assert_int_eq(team_validate(&f.te), TEAM_EINVAL);
	rr_event(&f);
	f.teams[1].nplayers = 2; /* fewer players than boards */
	ck_assert_int_eq(team_lineup(&f.te, 1, 1, lineup), TEAM_EINVAL);
	rr_event(&f);
	f.te.bye_match_points = 3;
	ck_assert_int_eq(team_validate(&f.te), TEAM_EINVAL);
	rr_event(&f);
	ck_assert_int_eq(team_lineup(&f.te, 4, 1, lineup), TEAM_EINVAL);
	ck_assert_int_eq(team_pair_round(&f.te, 0, &r), TEAM_EINVAL);
	ck_assert_int_eq(team_standings(NULL, 0, rows), TEAM_EINVAL);
	ck_assert_str_eq(team_strerror(TEAM_EPENDING), "a board game has no result yet");
}
END_TEST

static Suite *team_suite(void)
{
	Suite *s = suite_create("team");
	TCase *t = tcase_create("team");

	tcase_add_test(t, test_board_and_match_points);
	tcase_add_test(t, test_standings_art27_2);
	tcase_add_test(t, test_standings_swiss_sos_and_bye);
	tcase_add_test(t, test_berger_on_teams);
	tcase_add_test(t, test_team_swiss_by_match_points);
	tcase_add_test(t, test_team_knockout);
	tcase_add_test(t, test_withdrawal);
	tcase_add_test(t, test_invalid);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(team_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
