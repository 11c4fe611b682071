/* Unit tests for common/standings: points and every tie-break on small hand-computed
 * events (a forfeit, a bye, a double loss, withdrawals before and after half, Art. 28),
 * shared places, the default orders (Art. 27.1) and standings after a round. The exports
 * are in test_export.c. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "event_util.h"
#include "rating.h"
#include "standings.h"

#define TOL 1e-9

/* ---- Helpers ---- */

static const struct standing *row_of(const struct standing *rows, int n, int player)
{
	int i;

	for (i = 0; i < n; i++)
		if (rows[i].player == player)
			return &rows[i];
	ck_abort_msg("player %d has no row", player);
	return NULL;
}

/* ---- The Swiss event (5 players, 3 rounds) ----
 *
 *   R1: Ann(B) beats Bob(W); Cid(B) vs Dan(W): Dan forfeits; Eve bye.
 *   R2: Ann(B) draws Cid(W) (Ann 1 warning); Bob(B) loses to Eve(W) (Bob 1 warning);
 *       Dan bye.
 *   R3: Eve(B) vs Ann(W): double loss; Bob(B) beats Dan(W) (Dan 2 warnings); Cid bye.
 * Byes score 2 (as a win).
 */
enum { ANN, BOB, CID, DAN, EVE };

static struct event_player swiss_players[5];
static struct event_game swiss_games[6];
static struct event_bye swiss_byes[3];

static struct event swiss_event(void)
{
	static const struct event_player p[5] = {
		{ .id = 10, .name = "Ann", .rank = 1, .rating = 2050, .seed = 0 },
		{ .id = 11, .name = "Bob", .rank = 0, .rating = 1990, .seed = 1 },
		{ .id = 12, .name = "Cid", .rank = -1, .rating = 1900, .seed = 2 },
		{ .id = 13, .name = "Dan", .rank = -2, .rating = 1850, .seed = 3 },
		{ .id = 14, .name = "Eve", .rank = -3, .rating = 1800, .seed = 4 },
	};
	static const struct event_game g[6] = {
		{ .round = 1, .black = ANN, .white = BOB, .result = RESULT_BLACK_WIN },
		{ .round = 1, .black = CID, .white = DAN, .result = RESULT_BLACK_FORFEIT_WIN },
		{ .round = 2, .black = ANN, .white = CID, .result = RESULT_DRAW,
			.black_warnings = 1 },
		{ .round = 2, .black = BOB, .white = EVE, .result = RESULT_WHITE_WIN,
			.black_warnings = 1 },
		{ .round = 3, .black = EVE, .white = ANN, .result = RESULT_DOUBLE_LOSS },
		{ .round = 3, .black = BOB, .white = DAN, .result = RESULT_BLACK_WIN,
			.white_warnings = 2 },
	};
	static const struct event_bye b[3] = {
		{ .round = 1, .player = EVE }, { .round = 2, .player = DAN }, { .round = 3, .player = CID },
	};

	memcpy(swiss_players, p, sizeof p);
	memcpy(swiss_games, g, sizeof g);
	memcpy(swiss_byes, b, sizeof b);
	return mk(SYSTEM_SWISS, swiss_players, 5, swiss_games, 6, swiss_byes, 3, 3);
}

START_TEST(test_points_and_counts)
{
	struct event ev = swiss_event();
	struct standing rows[5];
	const struct standing *s;
	int n = standings_compute(&ev, 0, NULL, 0, rows);

	ck_assert_int_eq(n, 5);
	/* Ann: W (2) + D (1) + double loss (0) = 3. */
	s = row_of(rows, n, ANN);
	ck_assert_int_eq(s->points, 3);
	ck_assert_int_eq(s->wins, 1);
	ck_assert_int_eq(s->draws, 1);
	ck_assert_int_eq(s->losses, 1);
	ck_assert_int_eq(s->byes, 0);
	ck_assert_int_eq(s->warnings, 1);
	/* Bob: L + L + W = 2, one warning. */
	s = row_of(rows, n, BOB);
	ck_assert_int_eq(s->points, 2);
	ck_assert_int_eq(s->wins, 1);
	ck_assert_int_eq(s->losses, 2);
	ck_assert_int_eq(s->warnings, 1);
	/* Cid: forfeit win (2) + D (1) + bye (2) = 5. */
	s = row_of(rows, n, CID);
	ck_assert_int_eq(s->points, 5);
	ck_assert_int_eq(s->wins, 1);
	ck_assert_int_eq(s->draws, 1);
	ck_assert_int_eq(s->byes, 1);
	/* Dan: forfeit loss (0) + bye (2) + L (0) = 2, two warnings. */
	s = row_of(rows, n, DAN);
	ck_assert_int_eq(s->points, 2);
	ck_assert_int_eq(s->losses, 2);
	ck_assert_int_eq(s->byes, 1);
	ck_assert_int_eq(s->warnings, 2);
	/* Eve: bye (2) + W (2) + double loss (0) = 4. */
	s = row_of(rows, n, EVE);
	ck_assert_int_eq(s->points, 4);
	ck_assert_int_eq(s->wins, 1);
	ck_assert_int_eq(s->losses, 1);
	ck_assert_int_eq(s->byes, 1);
}
END_TEST

START_TEST(test_bye_points_option)
{
	struct event ev = swiss_event();
	struct standing rows[5];
	int n;

	ev.bye_points = 1; /* a bye as a draw: Cid 2 + 1 + 1 = 4 */
	n = standings_compute(&ev, 0, NULL, 0, rows);
	ck_assert_int_eq(n, 5);
	ck_assert_int_eq(row_of(rows, n, CID)->points, 4);
	ck_assert_int_eq(row_of(rows, n, EVE)->points, 3);
}
END_TEST

START_TEST(test_swiss_tiebreaks)
{
	static const char *const tbs[] = { "SOS", "SOSOS", "SODOS", "WARN", "SEED" };
	struct event ev = swiss_event();
	struct standing rows[5];
	const struct standing *s;
	int n = standings_compute(&ev, 0, tbs, 5, rows);

	ck_assert_int_eq(n, 5);
	/* Points: Ann 3, Bob 2, Cid 5, Dan 2, Eve 4. Only games played over the board count
	 * for SOS (a forfeit, a bye, a double loss: the virtual opponent at the start score 0,
	 * as the h9 writes a double loss, `0-`, and OpenGotha reads it).
	 * SOS   Ann: Bob 2 + Cid 5 + (double loss 0) = 7     Bob: Ann 3 + Eve 4 + Dan 2 = 9
	 *       Cid: (forfeit 0) + Ann 3 + (bye 0) = 3
	 *       Dan: (forfeit 0) + (bye 0) + Bob 2 = 2     Eve: (bye 0) + Bob 2 + (0) = 2
	 * SOSOS Ann: 9 + 3 = 12   Bob: 7 + 2 + 2 = 11   Cid: 7   Dan: 9   Eve: 9
	 * SODOS Ann: beat Bob 2 + drew Cid 5/2 = 4.5 (double loss: nothing)
	 *       Bob: beat Dan 2   Cid: drew Ann 3/2 = 1.5 (forfeit win: nothing)
	 *       Dan: 0            Eve: beat Bob 2
	 * WARN  Ann 1, Bob 1, Cid 0, Dan 2, Eve 0. */
	s = row_of(rows, n, ANN);
	ck_assert_int_eq(s->ntiebreaks, 5);
	ck_assert_double_eq_tol(s->tiebreak[0], 7, TOL);
	ck_assert_double_eq_tol(s->tiebreak[1], 12, TOL);
	ck_assert_double_eq_tol(s->tiebreak[2], 4.5, TOL);
	ck_assert_double_eq_tol(s->tiebreak[3], 1, TOL);
	ck_assert_double_eq_tol(s->tiebreak[4], 1, TOL);
	s = row_of(rows, n, BOB);
	ck_assert_double_eq_tol(s->tiebreak[0], 9, TOL);
	ck_assert_double_eq_tol(s->tiebreak[1], 11, TOL);
	ck_assert_double_eq_tol(s->tiebreak[2], 2, TOL);
	ck_assert_double_eq_tol(s->tiebreak[3], 1, TOL);
	s = row_of(rows, n, CID);
	ck_assert_double_eq_tol(s->tiebreak[0], 3, TOL);
	ck_assert_double_eq_tol(s->tiebreak[1], 7, TOL);
	ck_assert_double_eq_tol(s->tiebreak[2], 1.5, TOL);
	ck_assert_double_eq_tol(s->tiebreak[3], 0, TOL);
	s = row_of(rows, n, DAN);
	ck_assert_double_eq_tol(s->tiebreak[0], 2, TOL);
	ck_assert_double_eq_tol(s->tiebreak[1], 9, TOL);
	ck_assert_double_eq_tol(s->tiebreak[2], 0, TOL);
	ck_assert_double_eq_tol(s->tiebreak[3], 2, TOL);
	ck_assert_double_eq_tol(s->tiebreak[4], 4, TOL);
	s = row_of(rows, n, EVE);
	ck_assert_double_eq_tol(s->tiebreak[0], 2, TOL);
	ck_assert_double_eq_tol(s->tiebreak[1], 9, TOL);
	ck_assert_double_eq_tol(s->tiebreak[2], 2, TOL);
	ck_assert_double_eq_tol(s->tiebreak[3], 0, TOL);
	/* Order: Cid 5, Eve 4, Ann 3, Bob 2 (SOS 9), Dan 2 (SOS 2). */
	ck_assert_int_eq(rows[0].player, CID);
	ck_assert_int_eq(rows[1].player, EVE);
	ck_assert_int_eq(rows[2].player, ANN);
	ck_assert_int_eq(rows[3].player, BOB);
	ck_assert_int_eq(rows[4].player, DAN);
	ck_assert_int_eq(rows[3].place, 4);
	ck_assert_int_eq(rows[4].place, 5);
}
END_TEST

START_TEST(test_sb_alias_and_case)
{
	static const char *const a[] = { "SB", "warnings" };
	static const char *const b[] = { "sodos", "WARN" };
	struct event ev = swiss_event();
	struct standing ra[5], rb[5];

	ck_assert_int_eq(standings_compute(&ev, 0, a, 2, ra), 5);
	ck_assert_int_eq(standings_compute(&ev, 0, b, 2, rb), 5);
	ck_assert_double_eq_tol(row_of(ra, 5, ANN)->tiebreak[0], 4.5, TOL);
	ck_assert_double_eq_tol(row_of(ra, 5, DAN)->tiebreak[1], 2, TOL);
	ck_assert_mem_eq(ra, rb, sizeof ra);
	ck_assert_int_eq(standings_tiebreak_parse("SB"), TIEBREAK_SODOS);
	ck_assert_int_eq(standings_tiebreak_parse("Sos"), TIEBREAK_SOS);
	ck_assert_int_eq(standings_tiebreak_parse("SOSS"), STANDINGS_EUNKNOWN);
	ck_assert_int_eq(standings_tiebreak_parse(NULL), STANDINGS_EUNKNOWN);
	ck_assert_str_eq(standings_tiebreak_name(TIEBREAK_SODOS), "SODOS");
	ck_assert_ptr_null(standings_tiebreak_name(TIEBREAK_COUNT));
}
END_TEST

/* SOS-1, SOS-2, MOS and CUSS on the Swiss event, then on it as a McMahon. One value per round
 * (the virtual opponent for an unplayed round), sorted; the cuts drop the lowest (SOS-1), the
 * two lowest (SOS-2), the lowest and the highest (MOS).
 *   Swiss       per round          SOS  SOS-1 SOS-2 MOS   score after R1, R2, R3   CUSS
 *   Ann   Bob 2, Cid 5, (0)          7    7     5    2    2, 3, 3                  8
 *   Bob   Ann 3, Eve 4, Dan 2        9    7     4    3    0, 0, 2                  2
 *   Cid   (0), Ann 3, (0)            3    3     3    0    2, 3, 5                 10
 *   Dan   (0), (0), Bob 2            2    2     2    0    0, 2, 2                  4
 *   Eve   (0), Bob 2, (0)            2    2     2    0    2, 4, 4                 10
 *   McMahon (start MMS Ann 30, Cid 29, Dan 28; MMS as in test_mcmahon):
 *   Ann   Bob 31, Cid 31.5, (30)     92.5 62.5 31.5 31    31, 31.5, 31.5           94
 *   Cid   (29), Ann 31.5, (29)       89.5 60.5 31.5 29    30, 30.5, 31.5           92
 *   Dan   (28), (28), Bob 31         87   59   31   28    28, 29, 29               86 */
START_TEST(test_sos_cuts_and_cuss)
{
	static const char *const tbs[] = { "SOS-1", "sos-2", "MOS", "CUSS" };
	static const double swiss[5][4] = {
		[ANN] = { 7, 5, 2, 8 }, [BOB] = { 7, 4, 3, 2 }, [CID] = { 3, 3, 0, 10 },
		[DAN] = { 2, 2, 0, 4 }, [EVE] = { 2, 2, 0, 10 },
	};
	struct event ev = swiss_event();
	struct standing rows[5];
	const struct standing *s;
	int n, i, j;

	n = standings_compute(&ev, 0, tbs, 4, rows);
	ck_assert_int_eq(n, 5);
	for (i = 0; i < 5; i++) {
		s = row_of(rows, n, i);
		for (j = 0; j < 4; j++)
			ck_assert_msg(fabs(s->tiebreak[j] - swiss[i][j]) < TOL,
				"player %d %s: %g, want %g", i, tbs[j], s->tiebreak[j], swiss[i][j]);
	}
	ck_assert_int_eq(standings_tiebreak_parse("sos-1"), TIEBREAK_SOS1);
	ck_assert_str_eq(standings_tiebreak_name(TIEBREAK_CUSS), "CUSS");
	/* After round 1 only: one value each; SOS-1 drops it, MOS needs two. CUSS = the score. */
	n = standings_compute(&ev, 1, tbs, 4, rows);
	s = row_of(rows, n, ANN);
	ck_assert_double_eq_tol(s->tiebreak[0], 0, TOL);
	ck_assert_double_eq_tol(s->tiebreak[2], 0, TOL);
	ck_assert_double_eq_tol(s->tiebreak[3], 2, TOL);

	ev.system = SYSTEM_MCMAHON;
	ev.mcmahon_bar = 0;
	ev.mcmahon_floor = -2;
	n = standings_compute(&ev, 0, tbs, 4, rows);
	s = row_of(rows, n, ANN);
	ck_assert_double_eq_tol(s->tiebreak[0], 62.5, TOL);
	ck_assert_double_eq_tol(s->tiebreak[1], 31.5, TOL);
	ck_assert_double_eq_tol(s->tiebreak[2], 31, TOL);
	ck_assert_double_eq_tol(s->tiebreak[3], 94, TOL);
	s = row_of(rows, n, CID);
	ck_assert_double_eq_tol(s->tiebreak[0], 60.5, TOL);
	ck_assert_double_eq_tol(s->tiebreak[1], 31.5, TOL);
	ck_assert_double_eq_tol(s->tiebreak[2], 29, TOL);
	ck_assert_double_eq_tol(s->tiebreak[3], 92, TOL);
	s = row_of(rows, n, DAN);
	ck_assert_double_eq_tol(s->tiebreak[0], 59, TOL);
	ck_assert_double_eq_tol(s->tiebreak[1], 31, TOL);
	ck_assert_double_eq_tol(s->tiebreak[2], 28, TOL);
	ck_assert_double_eq_tol(s->tiebreak[3], 86, TOL);
}
END_TEST

START_TEST(test_direct_encounter)
{
	static const char *const de[] = { "DE" };
	static const char *const sos_de[] = { "SOS", "DE" };
	struct event ev = swiss_event();
	struct standing rows[5];
	int n;

	/* Tied on points: only Bob and Dan (2 each); Bob beat Dan over the board in R3:
	 * DE Bob 2, Dan 0; everyone else is alone on its score: 0. Bob is ahead. */
	n = standings_compute(&ev, 0, de, 1, rows);
	ck_assert_int_eq(n, 5);
	ck_assert_double_eq_tol(row_of(rows, n, BOB)->tiebreak[0], 2, TOL);
	ck_assert_double_eq_tol(row_of(rows, n, DAN)->tiebreak[0], 0, TOL);
	ck_assert_double_eq_tol(row_of(rows, n, ANN)->tiebreak[0], 0, TOL);
	ck_assert_double_eq_tol(row_of(rows, n, CID)->tiebreak[0], 0, TOL);
	ck_assert_int_eq(rows[3].player, BOB);
	ck_assert_int_eq(rows[4].player, DAN);
	ck_assert_int_eq(rows[4].place, 5);
	/* After SOS (Bob 9, Dan 2) they are no longer tied: DE 0 for both. */
	n = standings_compute(&ev, 0, sos_de, 2, rows);
	ck_assert_double_eq_tol(row_of(rows, n, BOB)->tiebreak[1], 0, TOL);
	ck_assert_double_eq_tol(row_of(rows, n, DAN)->tiebreak[1], 0, TOL);

	/* Turn the R3 Bob-Dan game into a forfeit (same points): DE counts only games played
	 * over the board, so both get 0 and the two share place 4 (seed orders them). */
	swiss_games[5].result = RESULT_BLACK_FORFEIT_WIN;
	n = standings_compute(&ev, 0, de, 1, rows);
	ck_assert_double_eq_tol(row_of(rows, n, BOB)->tiebreak[0], 0, TOL);
	ck_assert_int_eq(rows[3].player, BOB);
	ck_assert_int_eq(rows[3].place, 4);
	ck_assert_int_eq(rows[4].player, DAN);
	ck_assert_int_eq(rows[4].place, 4);
}
END_TEST

START_TEST(test_after_round)
{
	struct event ev = swiss_event();
	struct standing rows[5];
	int n;

	/* After R1: Ann 2 (beat Bob), Cid 2 (forfeit), Eve 2 (bye), Bob 0, Dan 0.
	 * SOS: Ann: Bob 0 = 0; Cid 0 (forfeit); Eve 0 (bye); Bob: Ann 2; Dan 0 (forfeit).
	 * WARN: all 0 (the warnings came in R2, R3). Ann, Cid, Eve share place 1 (in seed
	 * order), Bob 4th (SOS 2), Dan 5th. */
	n = standings_compute(&ev, 1, NULL, 0, rows);
	ck_assert_int_eq(n, 5);
	ck_assert_int_eq(rows[0].player, ANN);
	ck_assert_int_eq(rows[1].player, CID);
	ck_assert_int_eq(rows[2].player, EVE);
	ck_assert_int_eq(rows[0].place, 1);
	ck_assert_int_eq(rows[1].place, 1);
	ck_assert_int_eq(rows[2].place, 1);
	ck_assert_int_eq(rows[3].player, BOB);
	ck_assert_int_eq(rows[3].place, 4);
	ck_assert_double_eq_tol(rows[3].tiebreak[0], 2, TOL);
	ck_assert_int_eq(rows[4].player, DAN);
	ck_assert_int_eq(rows[4].place, 5);
	ck_assert_int_eq(row_of(rows, n, BOB)->warnings, 0);
	/* After R2: Ann 3, Bob 0, Cid 3, Dan 2, Eve 4. */
	n = standings_compute(&ev, 2, NULL, 0, rows);
	ck_assert_int_eq(row_of(rows, n, ANN)->points, 3);
	ck_assert_int_eq(row_of(rows, n, BOB)->points, 0);
	ck_assert_int_eq(row_of(rows, n, CID)->points, 3);
	ck_assert_int_eq(row_of(rows, n, DAN)->points, 2);
	ck_assert_int_eq(row_of(rows, n, EVE)->points, 4);
	ck_assert_int_eq(row_of(rows, n, BOB)->warnings, 1);
	/* Past the rounds played: an error. */
	ck_assert_int_eq(standings_compute(&ev, 4, NULL, 0, rows), STANDINGS_EINVAL);
	ck_assert_int_eq(standings_compute(&ev, -1, NULL, 0, rows), STANDINGS_EINVAL);
}
END_TEST

/* ---- McMahon: the same games, bar 1d (0), floor 2k (-2) ---- */

START_TEST(test_mcmahon)
{
	struct event ev = swiss_event();
	struct standing rows[5];
	const struct standing *s;
	int n;

	ev.system = SYSTEM_MCMAHON;
	ev.mcmahon_bar = 0;
	ev.mcmahon_floor = -2;
	/* Start MMS = clamp(rank, -2, 0) + 30: Ann (2d) 30, Bob (1d) 30, Cid (1k) 29,
	 * Dan (2k) 28, Eve (3k) 28.
	 * MMS: Ann 30 + 1 + 0.5 = 31.5     Bob 30 + 1 = 31
	 *      Cid 29 + 1 (forfeit win) + 0.5 + 1 (bye) = 31.5
	 *      Dan 28 + 1 (bye) = 29       Eve 28 + 1 (bye) + 1 = 30
	 * SOS (opponents' MMS; an unplayed round, the double loss too, adds the player's own
	 * start MMS):
	 *      Ann: 31 + 31.5 + (30) = 92.5  Bob: 31.5 + 30 + 29 = 90.5
	 *      Cid: 29 + 31.5 + 29 = 89.5  Dan: 28 + 28 + 31 = 87  Eve: 28 + 31 + (28) = 87
	 * SOSOS (an unplayed round adds 3 rounds x own start MMS):
	 *      Ann: 90.5 + 89.5 + 90 = 270   Bob: 92.5 + 87 + 87 = 266.5
	 *      Cid: 87 + 92.5 + 87 = 266.5       Dan: 84 + 84 + 90.5 = 258.5
	 *      Eve: 84 + 90.5 + 84 = 258.5
	 * Order (MMS, SOS, SOSOS): Ann 31.5/92.5, Cid 31.5/89.5, Bob 31, Eve 30, Dan 29. */
	ck_assert_int_eq(standings_mms_start(&ev, ANN), 30);
	ck_assert_int_eq(standings_mms_start(&ev, EVE), 28);
	n = standings_compute(&ev, 0, NULL, 0, rows);
	ck_assert_int_eq(n, 5);
	ck_assert_int_eq(rows[0].player, ANN);
	ck_assert_int_eq(rows[1].player, CID);
	ck_assert_int_eq(rows[2].player, BOB);
	ck_assert_int_eq(rows[3].player, EVE);
	ck_assert_int_eq(rows[4].player, DAN);
	s = row_of(rows, n, ANN);
	ck_assert_double_eq_tol(s->score, 31.5, TOL);
	ck_assert_double_eq_tol(s->tiebreak[0], 92.5, TOL);
	ck_assert_double_eq_tol(s->tiebreak[1], 270, TOL);
	s = row_of(rows, n, BOB);
	ck_assert_double_eq_tol(s->score, 31, TOL);
	ck_assert_double_eq_tol(s->tiebreak[0], 90.5, TOL);
	ck_assert_double_eq_tol(s->tiebreak[1], 266.5, TOL);
	s = row_of(rows, n, CID);
	ck_assert_double_eq_tol(s->score, 31.5, TOL);
	ck_assert_double_eq_tol(s->tiebreak[0], 89.5, TOL);
	ck_assert_double_eq_tol(s->tiebreak[1], 266.5, TOL);
	s = row_of(rows, n, DAN);
	ck_assert_double_eq_tol(s->score, 29, TOL);
	ck_assert_double_eq_tol(s->tiebreak[0], 87, TOL);
	ck_assert_double_eq_tol(s->tiebreak[1], 258.5, TOL);
	s = row_of(rows, n, EVE);
	ck_assert_double_eq_tol(s->score, 30, TOL);
	ck_assert_double_eq_tol(s->tiebreak[0], 87, TOL);
	ck_assert_double_eq_tol(s->tiebreak[1], 258.5, TOL);

	/* Without Eve's R1 bye she was absent in R1: 28 + 0.5 (absent) + 1 = 29.5. */
	ev.nbyes = 0;
	ev.byes = NULL;
	n = standings_compute(&ev, 0, NULL, 0, rows);
	ck_assert_double_eq_tol(row_of(rows, n, EVE)->score, 29.5, TOL);
	/* Dan also lost his R2 bye: 28 + 0.5 = 28.5; a withdrawal after R1 stops the absence
	 * credit: 28 + 0 = 28. */
	ck_assert_double_eq_tol(row_of(rows, n, DAN)->score, 28.5, TOL);
	swiss_players[DAN].withdrawn_after = 1;
	swiss_games[5].result = RESULT_VOID; /* his R3 game was never played */
	n = standings_compute(&ev, 0, NULL, 0, rows);
	ck_assert_double_eq_tol(row_of(rows, n, DAN)->score, 28, TOL);
}
END_TEST

/* ---- Round robin, 4 players, 3 rounds: Art. 28 withdrawals ----
 *   R1: 0(B)-3(W), 1(B)-2(W)   R2: 0(B)-2(W), 3(B)-1(W)   R3: 0(B)-1(W), 2(B)-3(W)
 * Each player has 3 scheduled games; "half" is 1.5: 1 game is under half, 2 are not. */

static struct event_player rr_players[4];
static struct event_game rr_games[6];

static struct event rr_event(int withdrawn_after)
{
	static const struct event_game g[6] = {
		{ .round = 1, .black = 0, .white = 3, .result = RESULT_WHITE_WIN },
		{ .round = 1, .black = 1, .white = 2, .result = RESULT_BLACK_WIN },
		{ .round = 2, .black = 0, .white = 2, .result = RESULT_BLACK_WIN },
		{ .round = 2, .black = 3, .white = 1, .result = RESULT_NONE },
		{ .round = 3, .black = 0, .white = 1, .result = RESULT_DRAW },
		{ .round = 3, .black = 2, .white = 3, .result = RESULT_NONE },
	};
	int i;

	memset(rr_players, 0, sizeof rr_players);
	for (i = 0; i < 4; i++) {
		static const char *const names[4] = { "P0", "P1", "P2", "P3" };

		rr_players[i].id = 100 + i;
		rr_players[i].name = names[i];
		rr_players[i].seed = i;
	}
	rr_players[3].withdrawn_after = withdrawn_after;
	memcpy(rr_games, g, sizeof g);
	if (withdrawn_after >= 2)
		rr_games[3].result = RESULT_WHITE_WIN; /* P3 played R2 and lost to P1 */
	return mk(SYSTEM_ROUND_ROBIN, rr_players, 4, rr_games, 6, NULL, 0, 3);
}

START_TEST(test_withdrawal_before_half)
{
	struct event ev = rr_event(1);
	struct standing rows[4];
	int n;

	/* P3 withdrew after R1 with 1 game (1 < 1.5): all P3's games are void, for everyone. */
	ck_assert_int_eq(standings_apply_withdrawals(&ev), 3);
	ck_assert_int_eq(rr_games[0].result, RESULT_VOID);
	ck_assert_int_eq(rr_games[3].result, RESULT_VOID);
	ck_assert_int_eq(rr_games[5].result, RESULT_VOID);
	ck_assert_int_eq(rr_games[1].result, RESULT_BLACK_WIN);
	ck_assert_int_eq(standings_apply_withdrawals(&ev), 0); /* idempotent */
	/* P0: (void) + beat P2 + drew P1 = 3;  P1: beat P2 + (void) + drew P0 = 3
	 * P2: 0;  P3: 0 (still listed).
	 * SODOS: P0 = P2's 0 + P1's 3/2 = 1.5;  P1 = P2's 0 + P0's 3/2 = 1.5.  WARN 0.
	 * P0 and P1 share place 1; P2 and P3 share place 3 (seed orders within a place). */
	n = standings_compute(&ev, 0, NULL, 0, rows);
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(rows[0].player, 0);
	ck_assert_int_eq(rows[1].player, 1);
	ck_assert_int_eq(rows[0].points, 3);
	ck_assert_int_eq(rows[1].points, 3);
	ck_assert_double_eq_tol(rows[0].tiebreak[0], 1.5, TOL);
	ck_assert_double_eq_tol(rows[1].tiebreak[0], 1.5, TOL);
	ck_assert_int_eq(rows[0].place, 1);
	ck_assert_int_eq(rows[1].place, 1);
	ck_assert_int_eq(rows[2].player, 2);
	ck_assert_int_eq(rows[3].player, 3);
	ck_assert_int_eq(rows[2].place, 3);
	ck_assert_int_eq(rows[3].place, 3);
	ck_assert_int_eq(rows[3].points, 0);
	ck_assert_int_eq(rows[3].wins + rows[3].losses, 0);
}
END_TEST

START_TEST(test_withdrawal_after_half)
{
	struct event ev = rr_event(2);
	struct standing rows[4];
	int n;

	/* P3 withdrew after R2 with 2 games (2 >= 1.5): results stand; the R3 game against P2
	 * becomes a forfeit loss for P3 (P2 is Black: RESULT_BLACK_FORFEIT_WIN). */
	ck_assert_int_eq(standings_apply_withdrawals(&ev), 1);
	ck_assert_int_eq(rr_games[5].result, RESULT_BLACK_FORFEIT_WIN);
	ck_assert_int_eq(rr_games[0].result, RESULT_WHITE_WIN);
	ck_assert_int_eq(standings_apply_withdrawals(&ev), 0);
	/* P0: lost to P3, beat P2, drew P1 = 3;  P1: beat P2, beat P3, drew P0 = 5
	 * P2: L, L, forfeit W = 2;  P3: beat P0, lost to P1, forfeit L = 2
	 * SODOS: P1 = 2 (P2) + 2 (P3) + 3/2 (P0) = 5.5;  P0 = 2 (P2) + 5/2 (P1) = 4.5
	 *        P2 = 0 (a forfeit win counts nothing);  P3 = 3 (P0).
	 * Order: P1, P0, P3 (SODOS 3), P2 (SODOS 0). */
	n = standings_compute(&ev, 0, NULL, 0, rows);
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(rows[0].player, 1);
	ck_assert_double_eq_tol(rows[0].tiebreak[0], 5.5, TOL);
	ck_assert_int_eq(rows[1].player, 0);
	ck_assert_double_eq_tol(rows[1].tiebreak[0], 4.5, TOL);
	ck_assert_int_eq(rows[2].player, 3);
	ck_assert_int_eq(rows[2].points, 2);
	ck_assert_double_eq_tol(rows[2].tiebreak[0], 3, TOL);
	ck_assert_int_eq(rows[3].player, 2);
	ck_assert_int_eq(rows[3].points, 2);
	ck_assert_double_eq_tol(rows[3].tiebreak[0], 0, TOL);
	ck_assert_int_eq(rows[3].place, 4);
}
END_TEST

/* A round robin of 3 (a bye each round, by the Berger table): B withdraws after round 1,
 * having played it (results stand). The schedule still gives B its round-3 bye: it earns
 * nothing, as every round after a withdrawal (a director's trial: the bye's 2 points put a
 * withdrawn player second). R1 A(B) beats B, C bye; R2 B v C unplayed (C wins by forfeit),
 * A bye; R3 A(W) beats C, B bye. */
START_TEST(test_withdrawal_later_bye_earns_nothing)
{
	struct event_player p[3] = {
		{ .name = "A", .seed = 0 }, { .name = "B", .seed = 1, .withdrawn_after = 1 },
		{ .name = "C", .seed = 2 } };
	struct event_game g[3] = {
		{ .round = 1, .black = 0, .white = 1, .result = RESULT_BLACK_WIN },
		{ .round = 2, .black = 1, .white = 2, .result = RESULT_NONE },
		{ .round = 3, .black = 2, .white = 0, .result = RESULT_WHITE_WIN } };
	struct event_bye b[3] = { { .round = 1, .player = 2 }, { .round = 2, .player = 0 },
		{ .round = 3, .player = 1 } };
	struct event ev = mk(SYSTEM_ROUND_ROBIN, p, 3, g, 3, b, 3, 3);
	struct standing rows[3];

	ck_assert_int_eq(standings_apply_withdrawals(&ev), 1); /* R2: C's forfeit win */
	ck_assert_int_eq(standings_compute(&ev, 0, NULL, 0, rows), 3);
	ck_assert_int_eq(row_of(rows, 3, 1)->points, 0);
	ck_assert_int_eq(row_of(rows, 3, 1)->byes, 0);
	ck_assert_int_eq(row_of(rows, 3, 0)->points, 2 + 2 + 2); /* two wins and a bye */
	ck_assert_int_eq(row_of(rows, 3, 2)->points, 2 + 2);     /* a bye, a forfeit win */
	ck_assert_int_eq(rows[2].player, 1);
}
END_TEST

START_TEST(test_withdrawal_double_rr_and_swiss)
{
	struct event ev = rr_event(1);
	struct event sw;
	int i;

	/* Double round robin: 6 scheduled games, half is 3; P3's 1 game is under half. */
	ev.system = SYSTEM_DOUBLE_ROUND_ROBIN;
	ck_assert_int_eq(standings_apply_withdrawals(&ev), 3);
	/* With 2 games of 6 (under half) in a double round robin P3 is voided too, where a
	 * single round robin keeps the results. */
	ev = rr_event(2);
	ev.system = SYSTEM_DOUBLE_ROUND_ROBIN;
	ck_assert_int_eq(standings_apply_withdrawals(&ev), 3);
	ck_assert_int_eq(rr_games[0].result, RESULT_VOID);
	/* Swiss: results stand; only the already-paired R3 game becomes a forfeit. */
	sw = rr_event(1);
	sw.system = SYSTEM_SWISS;
	ck_assert_int_eq(standings_apply_withdrawals(&sw), 2);
	ck_assert_int_eq(rr_games[0].result, RESULT_WHITE_WIN);
	ck_assert_int_eq(rr_games[3].result, RESULT_WHITE_FORFEIT_WIN); /* P3 was Black */
	ck_assert_int_eq(rr_games[5].result, RESULT_BLACK_FORFEIT_WIN); /* P3 was White */
	/* Withdrawn before the start: voided in any system, and no row. */
	sw = rr_event(0);
	sw.system = SYSTEM_SWISS;
	rr_players[3].withdrawn_before_start = true;
	ck_assert_int_eq(standings_apply_withdrawals(&sw), 3);
	for (i = 0; i < 6; i++)
		if (rr_games[i].black == 3 || rr_games[i].white == 3)
			ck_assert_int_eq(rr_games[i].result, RESULT_VOID);
	{
		struct standing rows[4];

		ck_assert_int_eq(standings_compute(&sw, 0, NULL, 0, rows), 3);
	}
}
END_TEST

/* Exactly half: a double round robin of 3 players, 4 games each, one game a round:
 *   R1 0-1 (bye 2)  R2 1-2 (bye 0)  R3 0-2 (bye 1)  R4 1-0 (bye 2)  R5 2-1 (bye 0)
 *   R6 2-0 (bye 1).
 * P2 withdrawn after R3 has played 2 of 4 (half, not fewer): results stand, R5 and R6 become
 * forfeit losses. Withdrawn after R2 (1 of 4): all four of its games are void. */
START_TEST(test_withdrawal_exactly_half)
{
	struct event_player p[3] = { { .name = "Q0" }, { .name = "Q1", .seed = 1 },
		{ .name = "Q2", .seed = 2, .withdrawn_after = 3 } };
	struct event_game g[6] = {
		{ .round = 1, .black = 0, .white = 1, .result = RESULT_BLACK_WIN },
		{ .round = 2, .black = 1, .white = 2, .result = RESULT_WHITE_WIN },
		{ .round = 3, .black = 0, .white = 2, .result = RESULT_BLACK_WIN },
		{ .round = 4, .black = 1, .white = 0, .result = RESULT_NONE },
		{ .round = 5, .black = 2, .white = 1, .result = RESULT_NONE },
		{ .round = 6, .black = 2, .white = 0, .result = RESULT_NONE },
	};
	struct event_bye b[6] = { { 1, 2 }, { 2, 0 }, { 3, 1 }, { 4, 2 }, { 5, 0 }, { 6, 1 } };
	struct event ev = mk(SYSTEM_DOUBLE_ROUND_ROBIN, p, 3, g, 6, b, 6, 6);
	struct event_game saved[6];

	memcpy(saved, g, sizeof g);
	ck_assert_int_eq(standings_apply_withdrawals(&ev), 2);
	ck_assert_int_eq(g[1].result, RESULT_WHITE_WIN);
	ck_assert_int_eq(g[3].result, RESULT_NONE);
	ck_assert_int_eq(g[4].result, RESULT_WHITE_FORFEIT_WIN);
	ck_assert_int_eq(g[5].result, RESULT_WHITE_FORFEIT_WIN);
	memcpy(g, saved, sizeof g);
	p[2].withdrawn_after = 2;
	g[2].result = RESULT_NONE; /* R3 was not played */
	ck_assert_int_eq(standings_apply_withdrawals(&ev), 4);
	ck_assert_int_eq(g[0].result, RESULT_BLACK_WIN);
	ck_assert_int_eq(g[1].result, RESULT_VOID);
	ck_assert_int_eq(g[2].result, RESULT_VOID);
	ck_assert_int_eq(g[5].result, RESULT_VOID);
}
END_TEST

START_TEST(test_withdrawal_both_players_double_loss)
{
	struct event ev = rr_event(2);

	/* P2 also withdrew after R2 (with 2 games): their pending R3 game is a double loss. */
	rr_players[2].withdrawn_after = 2;
	ck_assert_int_eq(standings_apply_withdrawals(&ev), 1);
	ck_assert_int_eq(rr_games[5].result, RESULT_DOUBLE_LOSS);
}
END_TEST

START_TEST(test_withdrawal_invalid_changes_nothing)
{
	struct event ev = rr_event(2);

	rr_games[1].white = 1; /* a game against oneself */
	ck_assert_int_eq(standings_apply_withdrawals(&ev), STANDINGS_EINVAL);
	ck_assert_int_eq(rr_games[5].result, RESULT_NONE);
	ck_assert_int_eq(standings_apply_withdrawals(NULL), STANDINGS_EINVAL);
}
END_TEST

/* ---- Knockout, 4 players, 2 rounds ----
 *   R1: 0 beats 3, 2 beats 1;  R2 (final): 0 beats 2.
 * KO: 0 survived 2 rounds, 2 one, 1 and 3 none; SEED orders 1 (seed 1) before 3. */
START_TEST(test_knockout)
{
	struct event_player p[4] = {
		{ .name = "K0", .seed = 0 }, { .name = "K1", .seed = 1 },
		{ .name = "K2", .seed = 2 }, { .name = "K3", .seed = 3 },
	};
	struct event_game g[3] = {
		{ .round = 1, .black = 0, .white = 3, .result = RESULT_BLACK_WIN },
		{ .round = 1, .black = 1, .white = 2, .result = RESULT_WHITE_WIN },
		{ .round = 2, .black = 0, .white = 2, .result = RESULT_BLACK_WIN },
	};
	struct event ev = mk(SYSTEM_KNOCKOUT, p, 4, g, 3, NULL, 0, 2);
	struct standing rows[4];
	int n = standings_compute(&ev, 0, NULL, 0, rows);

	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(rows[0].player, 0);
	ck_assert_double_eq_tol(rows[0].score, 2, TOL);
	ck_assert_int_eq(rows[1].player, 2);
	ck_assert_double_eq_tol(rows[1].score, 1, TOL);
	ck_assert_int_eq(rows[2].player, 1);
	ck_assert_double_eq_tol(rows[2].score, 0, TOL);
	ck_assert_int_eq(rows[2].place, 3);
	ck_assert_int_eq(rows[3].player, 3);
	ck_assert_int_eq(rows[3].place, 4); /* SEED is a criterion: no shared place */
	/* Double elimination: one loss eliminates nobody, all survived 2 rounds. */
	ev.double_elimination = true;
	n = standings_compute(&ev, 0, NULL, 0, rows);
	ck_assert_double_eq_tol(rows[3].score, 2, TOL);
	ck_assert_int_eq(rows[3].player, 3);
}
END_TEST

START_TEST(test_default_orders)
{
	const char *const *names;
	struct event ev = swiss_event();
	struct standing a[5], b[5];
	static const char *const rr[] = { "SODOS", "WARN" };

	ck_assert_int_eq(standings_default_tiebreaks(SYSTEM_ROUND_ROBIN, &names), 2);
	ck_assert_str_eq(names[0], "SODOS");
	ck_assert_str_eq(names[1], "WARN");
	ck_assert_int_eq(standings_default_tiebreaks(SYSTEM_DOUBLE_ROUND_ROBIN, &names), 2);
	ck_assert_str_eq(names[0], "SODOS");
	ck_assert_int_eq(standings_default_tiebreaks(SYSTEM_SWISS, &names), 2);
	ck_assert_str_eq(names[0], "SOS");
	ck_assert_str_eq(names[1], "WARN");
	ck_assert_int_eq(standings_default_tiebreaks(SYSTEM_MCMAHON, &names), 2);
	ck_assert_str_eq(names[0], "SOS");
	ck_assert_str_eq(names[1], "SOSOS");
	ck_assert_int_eq(standings_default_tiebreaks(SYSTEM_KNOCKOUT, &names), 1);
	ck_assert_str_eq(names[0], "SEED");
	ck_assert_int_eq(standings_default_tiebreaks((enum event_system)99, &names),
		STANDINGS_EINVAL);
	ck_assert_str_eq(standings_score_name(SYSTEM_ROUND_ROBIN), "PTS");
	ck_assert_str_eq(standings_score_name(SYSTEM_SWISS), "PTS");
	ck_assert_str_eq(standings_score_name(SYSTEM_MCMAHON), "MMS");
	ck_assert_str_eq(standings_score_name(SYSTEM_KNOCKOUT), "KO");
	/* NULL selects the default: the round robin's order equals SODOS, WARN given. */
	ev.system = SYSTEM_ROUND_ROBIN;
	ck_assert_int_eq(standings_compute(&ev, 0, NULL, 0, a), 5);
	ck_assert_int_eq(standings_compute(&ev, 0, rr, 2, b), 5);
	ck_assert_mem_eq(a, b, sizeof a);
	/* Round robin: Bob and Dan tie on 2 points; SODOS Bob 2 > Dan 0. */
	ck_assert_int_eq(a[3].player, BOB);
	ck_assert_double_eq_tol(a[3].tiebreak[0], 2, TOL);
}
END_TEST

START_TEST(test_warnings_break_tie)
{
	static const char *const w[] = { "WARN" };
	struct event ev = rr_event(1);
	struct standing rows[4];

	/* Before-half case: P0 and P1 tie on points and SODOS; a warning to P0 puts P1 first. */
	ck_assert_int_ge(standings_apply_withdrawals(&ev), 0);
	rr_games[4].black_warnings = 1; /* P0 in R3 */
	ck_assert_int_eq(standings_compute(&ev, 0, NULL, 0, rows), 4);
	ck_assert_int_eq(rows[0].player, 1);
	ck_assert_int_eq(rows[0].place, 1);
	ck_assert_int_eq(rows[1].player, 0);
	ck_assert_int_eq(rows[1].place, 2);
	ck_assert_int_eq(standings_compute(&ev, 0, w, 1, rows), 4);
	ck_assert_double_eq_tol(row_of(rows, 4, 0)->tiebreak[0], 1, TOL);
}
END_TEST

START_TEST(test_invalid_input)
{
	static const char *const bad[] = { "SOS", "XYZ" };
	struct event ev = swiss_event();
	struct standing rows[5];

	ck_assert_int_eq(standings_compute(&ev, 0, bad, 2, rows), STANDINGS_EUNKNOWN);
	ck_assert_int_eq(standings_compute(&ev, 0, bad, -1, rows), STANDINGS_EINVAL);
	ck_assert_int_eq(standings_compute(&ev, 0, bad, STANDINGS_MAX_TIEBREAKS + 1, rows),
		STANDINGS_EINVAL);
	ck_assert_int_eq(standings_compute(NULL, 0, NULL, 0, rows), STANDINGS_EINVAL);
	ck_assert_int_eq(standings_compute(&ev, 0, NULL, 0, NULL), STANDINGS_EINVAL);
	/* Two games for Ann in round 1. */
	swiss_games[1].black = ANN;
	ck_assert_int_eq(standings_compute(&ev, 0, NULL, 0, rows), STANDINGS_EINVAL);
	ev = swiss_event();
	/* A bye for a player who also played that round. */
	swiss_byes[0].player = ANN;
	ck_assert_int_eq(standings_validate(&ev), STANDINGS_EINVAL);
	ev = swiss_event();
	swiss_games[0].white = 5; /* out of range */
	ck_assert_int_eq(standings_validate(&ev), STANDINGS_EINVAL);
	ev = swiss_event();
	swiss_games[0].result = (enum event_result)42;
	ck_assert_int_eq(standings_validate(&ev), STANDINGS_EINVAL);
	ev = swiss_event();
	ev.bye_points = 3;
	ck_assert_int_eq(standings_validate(&ev), STANDINGS_EINVAL);
	ev = swiss_event();
	ev.mms_absent = NAN;
	ck_assert_int_eq(standings_validate(&ev), STANDINGS_EINVAL);
	ev = swiss_event();
	swiss_games[2].black_warnings = -1;
	ck_assert_int_eq(standings_validate(&ev), STANDINGS_EINVAL);
	ev = swiss_event();
	swiss_players[0].rank = RANK_MAX + 1;
	ck_assert_int_eq(standings_validate(&ev), STANDINGS_EINVAL);
	/* A void game and its replay in the same round are fine. */
	ev = swiss_event();
	swiss_games[1].result = RESULT_VOID;
	ck_assert_int_eq(standings_validate(&ev), STANDINGS_OK);
	ck_assert_str_eq(standings_strerror(STANDINGS_EUNKNOWN), "unknown tie-break");
}
END_TEST

static Suite *standings_suite(void)
{
	Suite *s = suite_create("standings");
	TCase *t = tcase_create("tiebreaks");
	TCase *w = tcase_create("withdrawals");

	tcase_add_test(t, test_points_and_counts);
	tcase_add_test(t, test_bye_points_option);
	tcase_add_test(t, test_swiss_tiebreaks);
	tcase_add_test(t, test_sb_alias_and_case);
	tcase_add_test(t, test_direct_encounter);
	tcase_add_test(t, test_sos_cuts_and_cuss);
	tcase_add_test(t, test_after_round);
	tcase_add_test(t, test_mcmahon);
	tcase_add_test(t, test_knockout);
	tcase_add_test(t, test_default_orders);
	tcase_add_test(t, test_warnings_break_tie);
	tcase_add_test(t, test_invalid_input);
	suite_add_tcase(s, t);

	tcase_add_test(w, test_withdrawal_before_half);
	tcase_add_test(w, test_withdrawal_after_half);
	tcase_add_test(w, test_withdrawal_later_bye_earns_nothing);
	tcase_add_test(w, test_withdrawal_double_rr_and_swiss);
	tcase_add_test(w, test_withdrawal_exactly_half);
	tcase_add_test(w, test_withdrawal_both_players_double_loss);
	tcase_add_test(w, test_withdrawal_invalid_changes_nothing);
	suite_add_tcase(s, w);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(standings_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
