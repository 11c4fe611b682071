/* The h9 export read back by OpenGotha's own h9 importer (a real EGD tool, not ours): a Swiss
 * event (a forfeit, byes, a double loss, a drawn game, a handicap game, a multi-word surname,
 * a one-word name, unknown country and club, a club longer than 4 characters, EGD PINs) and a
 * McMahon event (handicaps up to 9, a forfeit, a pending game, a lower-case country, a club
 * of two words). The Java harness
 * tests/tools/H9Check.java prints the players (name, first name, rank, country, club), the
 * games (round, black, white, handicap, result, by default) and the rounds each player did
 * not play, as OpenGotha understood them; the test compares that with what it expects from
 * the event itself.
 *
 * Needs java and javac, and the directory of opengotha.jar and jhall.jar in
 * TENGEN_OPENGOTHA_DIR (./configure --with-opengotha=DIR); exits 77 (skipped) without them
 * (tests/support/h9check.h).
 */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event.h"
#include "event_util.h"
#include "export.h"
#include "rating.h"
#include "standings.h"
#include "h9check.h"

#define OUT_MAX 65536



/* What OpenGotha's importer should read: players in standings order, then games, then
 * unplayed rounds, in H9Check's format. */
static void expected(const struct event *ev, char *out)
{
	struct standing rows[16];
	int num[16] = { 0 }, n, i, r, k;
	size_t len = 0;

	n = standings_compute(ev, 0, NULL, 0, rows);
	ck_assert_int_gt(n, 0);
	for (i = 0; i < n; i++)
		num[rows[i].player] = i + 1;
	for (i = 0; i < n; i++) {
		const struct event_player *p = &ev->players[rows[i].player];
		char rank[RANK_STR_MAX], sur[64], club[8];
		const char *sp = strrchr(p->name, ' ');

		rank_format(p->rank, rank, sizeof rank);
		snprintf(sur, sizeof sur, "%.*s", sp ? (int)(sp - p->name) : (int)strlen(p->name),
			p->name);
		for (k = 0; sur[k]; k++)
			if (sur[k] == ' ')
				sur[k] = '_';
		snprintf(club, sizeof club, "%.4s", p->club ? p->club : "xxxx");
		for (k = 0; club[k]; k++)
			if (club[k] == ' ')
				club[k] = '_';
		len += (size_t)snprintf(out + len, OUT_MAX - len, "player %d %s|%s|%s|%c%c|%s\n", i + 1,
			sur, sp ? sp + 1 : "x", rank, p->country ? toupper((unsigned char)p->country[0]) : 'X',
			p->country ? toupper((unsigned char)p->country[1]) : 'X', club);
	}
	for (r = 1; r <= ev->rounds_played; r++) {
		char lines[16][64];
		int nl = 0;

		for (k = 0; k < ev->ngames; k++) {
			const struct event_game *g = &ev->games[k];
			const char *res;

			if (g->round != r)
				continue;
			switch (g->result) {
			case RESULT_BLACK_WIN: res = "B+"; break;
			case RESULT_WHITE_WIN: res = "W+"; break;
			/* OpenGotha's importer reads the EGD's "=" but keeps the game's result
			 * unknown (parsePotentialHalfGame gives 0, buildALGames sets nothing);
			 * the test checks the "=" fields in the text. */
			case RESULT_DRAW: res = "?"; break;
			case RESULT_BLACK_FORFEIT_WIN: res = "B+!"; break;
			case RESULT_WHITE_FORFEIT_WIN: res = "W+!"; break;
			default: continue; /* double loss, pending: unplayed for both */
			}
			snprintf(lines[nl++], sizeof lines[0], "game %d %d %d %d %s\n", r, num[g->black],
				num[g->white], g->handicap, res);
		}
		/* Sorted by black's number (H9Check's order within a round). */
		for (i = 1; i < nl; i++)
			for (k = i; k > 0 && atoi(strchr(lines[k] + 5, ' ') + 1) <
					atoi(strchr(lines[k - 1] + 5, ' ') + 1); k--) {
				char t[64];

				memcpy(t, lines[k], sizeof t);
				memcpy(lines[k], lines[k - 1], sizeof t);
				memcpy(lines[k - 1], t, sizeof t);
			}
		for (i = 0; i < nl; i++)
			len += (size_t)snprintf(out + len, OUT_MAX - len, "%s", lines[i]);
	}
	for (i = 0; i < n; i++) {
		int pl = rows[i].player;

		for (r = 1; r <= ev->rounds_played; r++) {
			bool played = false;

			for (k = 0; k < ev->ngames; k++) {
				const struct event_game *g = &ev->games[k];

				if (g->round == r && (g->black == pl || g->white == pl) &&
						g->result != RESULT_DOUBLE_LOSS && g->result != RESULT_NONE &&
						g->result != RESULT_VOID)
					played = true;
			}
			if (!played)
				len += (size_t)snprintf(out + len, OUT_MAX - len, "absent %d %d\n",
					i + 1, r);
		}
	}
}

/* Exports ev as h9, has OpenGotha read it, compares. Returns the h9 text (free it). */
static char *check_event(const struct event *ev, const struct export_info *info)
{
	static char got[OUT_MAX], want[OUT_MAX];
	char *h9 = NULL;

	ck_assert_int_eq(export_h9(ev, info, &h9), EXPORT_OK);
	ck_assert_int_eq(h9check_read(h9, ev->rounds_played, got, sizeof got), 0);
	expected(ev, want);
	ck_assert_msg(strcmp(got, want) == 0, "OpenGotha read:\n%s\nexpected:\n%s\nfrom:\n%s",
		got, want, h9);
	return h9;
}

/* Swiss, 5 players, 3 rounds (players by index):
 *   R1: 0(B) v 1(W) W+; 2(B) v 3(W) B+; 4 bye.
 *   R2: 1(B) v 4(W) B+ by forfeit; 0(B) v 2(W) double loss; 3 bye.
 *   R3: 3(B) v 0(W) jigo; 2(B, 2 stones) v 4(W) W+; 1 bye. */
START_TEST(test_h9_swiss_read_by_opengotha)
{
	struct event_player p[5] = {
		{ .id = 1, .name = "van der Berg Jan", .rank = -2, .country = "NL",
			.club = "Amst", .egd_pin = "12345678" },
		{ .id = 2, .name = "Lee Ann", .rank = 0, .country = "FR", .club = "Lyon",
			.egd_pin = "23456789" },
		{ .id = 3, .name = "Cid", .rank = -5 },
		{ .id = 4, .name = "Durand Marie", .rank = -10, .country = "FR", .club = "Paris" },
		{ .id = 5, .name = "Smith John", .rank = -20, .country = "GB", .club = "Lond" },
	};
	struct event_game g[5] = {
		{ .round = 1, .black = 0, .white = 1, .result = RESULT_WHITE_WIN },
		{ .round = 1, .black = 2, .white = 3, .result = RESULT_BLACK_WIN },
		{ .round = 2, .black = 1, .white = 4, .result = RESULT_BLACK_FORFEIT_WIN },
		{ .round = 2, .black = 0, .white = 2, .result = RESULT_DOUBLE_LOSS },
		{ .round = 3, .black = 3, .white = 0, .result = RESULT_DRAW },
	};
	struct event_game g6[6];
	struct event_bye b[3] = { { 1, 4 }, { 2, 3 }, { 3, 1 } };
	struct export_info info = { .name = "Swiss Cup", .place = "FR,Lyon",
		.date_start = "2026-11-28", .date_end = "2026-11-29", .komi = 7.5,
		.time = { .system = EXPORT_TIME_BYOYOMI, .main_s = 3600, .period_s = 30 } };
	struct event ev;
	char *h9;
	int i;

	memcpy(g6, g, sizeof g);
	g6[5] = (struct event_game){ .round = 3, .black = 2, .white = 4, .handicap = 2,
		.result = RESULT_WHITE_WIN };
	for (i = 0; i < 5; i++)
		p[i].seed = i;
	ev = mk(SYSTEM_SWISS, p, 5, g6, 6, b, 3, 3);
	h9 = check_event(&ev, &info);
	/* The header as the EGD wants it; the PINs at the ends of their lines. */
	ck_assert_ptr_nonnull(strstr(h9, "; CL[A]\n; EV[Swiss Cup]\n; PC[FR,Lyon]\n"
		"; DT[2026-11-28,2026-11-29]\n; KM[7.5]\n; TM[82]\n; CM[Standard byo-yomi]\n"
		"; Generated by tengen\n"));
	ck_assert_ptr_nonnull(strstr(h9, " |12345678\n"));
	ck_assert_ptr_nonnull(strstr(h9, "     5=/b\n"));
	ck_assert_ptr_nonnull(strstr(h9, "     3=/w |12345678\n"));
	ck_assert_ptr_nonnull(strstr(h9, " |23456789\n"));
	free(h9);
}
END_TEST

/* McMahon, 4 players (3d, 1k, 5k, 12k), bar 1d, 2 rounds, handicap games:
 *   R1: 0(B) v 1(W) B+; 3(B, 6 stones) v 2(W) W+.
 *   R2: 0(B) v 2(W): W+ by forfeit; 3(B, 9 stones) v 1(W) pending. */
START_TEST(test_h9_mcmahon_read_by_opengotha)
{
	struct event_player p[4] = {
		{ .id = 1, .name = "Kim Min", .rank = 2, .country = "KR", .club = "Seou", .seed = 0 },
		{ .id = 2, .name = "Novak Petr", .rank = -1, .country = "cz", .club = "Go Brno",
			.seed = 1, .egd_pin = "10203040" },
		{ .id = 3, .name = "Garcia Luis", .rank = -5, .country = "ES", .seed = 2 },
		{ .id = 4, .name = "Mueller Hans", .rank = -12, .club = "Berl", .seed = 3 },
	};
	struct event_game g[4] = {
		{ .round = 1, .black = 0, .white = 1, .result = RESULT_BLACK_WIN },
		{ .round = 1, .black = 3, .white = 2, .handicap = 6, .result = RESULT_WHITE_WIN },
		{ .round = 2, .black = 0, .white = 2, .result = RESULT_WHITE_FORFEIT_WIN },
		{ .round = 2, .black = 3, .white = 1, .handicap = 9, .result = RESULT_NONE },
	};
	struct export_info info = { .name = "McMahon Open", .handicap_rule = "h1", .komi = 0.5,
		.online = true,
		.time = { .system = EXPORT_TIME_CANADIAN, .main_s = 2700, .period_s = 300,
			.stones = 15 } };
	struct event ev = mk(SYSTEM_MCMAHON, p, 4, g, 4, NULL, 0, 2);
	char *h9;

	ev.mcmahon_bar = 0;
	ev.mcmahon_floor = -20;
	ev.handicap = true;
	h9 = check_event(&ev, &info);
	ck_assert_ptr_nonnull(strstr(h9, "; CL[D]\n"));
	ck_assert_ptr_nonnull(strstr(h9, "; HA[h1]\n"));
	ck_assert_ptr_nonnull(strstr(h9, "; TM[65]\n; CM[Canadian byo-yomi]\n"));
	free(h9);
}
END_TEST

int main(void)
{
	if (!h9check_ready()) { /* before anything is allocated: a skip leaks nothing */
		fprintf(stderr, "skipped: needs java, javac and TENGEN_OPENGOTHA_DIR "
			"(./configure --with-opengotha=DIR)\n");
		return 77;
	}
	Suite *s = suite_create("h9_opengotha");
	TCase *tc = tcase_create("opengotha");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_h9_swiss_read_by_opengotha);
	tcase_add_test(tc, test_h9_mcmahon_read_by_opengotha);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
