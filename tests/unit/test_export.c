/* Unit tests for common/export: the exact JSON, CSV and h9 output of small events (a bye,
 * a forfeit, handicap, McMahon, after a round, pending games, quoting), and empty events. */
#include <check.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "event_util.h"
#include "export.h"
#include "standings.h"

/* ---- Exports ----
 * Swiss, 3 players, 2 rounds, byes score 2:
 *   R1: Cid(B, 2 stones, 1 warning) loses to Ann(W); Bob bye.
 *   R2: Bob(B) vs Ann(W): Ann forfeits; Cid bye.
 * Points: Bob 2 + 2 = 4; Ann 2 + 0 = 2; Cid 0 + 2 = 2.
 * SOS: Bob 0 (bye, forfeit); Ann: Cid 2 (+ forfeit 0) = 2; Cid: Ann 2 (+ bye 0) = 2.
 * WARN: Cid 1. Order: Bob (num 1), Ann (2), Cid (3). */

static struct event_player x_players[3];
static struct event_game x_games[2];
static struct event_bye x_byes[2];

static struct event export_event(void)
{
	static const struct event_player p[3] = {
		{ .id = 10, .name = "Ann Lee", .rank = 1, .rating = 2100, .seed = 0,
			.country = "FR", .club = "Lyon" },
		{ .id = 11, .name = "Bob", .rank = -3, .rating = 1700, .seed = 1 },
		{ .id = 12, .name = "Cid", .rank = -12, .rating = 1300, .seed = 2,
			.country = "DE", .club = "Berl" },
	};
	static const struct event_game g[2] = {
		{ .round = 1, .black = 2, .white = 0, .handicap = 2, .result = RESULT_WHITE_WIN,
			.black_warnings = 1 },
		{ .round = 2, .black = 1, .white = 0, .result = RESULT_BLACK_FORFEIT_WIN },
	};
	static const struct event_bye b[2] = { { .round = 1, .player = 1 },
		{ .round = 2, .player = 2 } };

	memcpy(x_players, p, sizeof p);
	memcpy(x_games, g, sizeof g);
	memcpy(x_byes, b, sizeof b);
	return mk(SYSTEM_SWISS, x_players, 3, x_games, 2, x_byes, 2, 2);
}

START_TEST(test_export_csv_bye_forfeit)
{
	struct event ev = export_event();
	char *s = NULL;

	ck_assert_int_eq(export_csv(&ev, NULL, &s), EXPORT_OK);
	ck_assert_str_eq(s,
		"Num,Place,Name,Rank,Rating,R1,R2,Points,SOS,WARN\r\n"
		"1,1,Bob,3k,1700,bye+,2+!b,4,0,0\r\n"
		"2,2,Ann Lee,2d,2100,3+/w2,1-!w,2,2,0\r\n"
		"3,3,Cid,12k,1300,2-/b2,bye+,2,2,1\r\n");
	free(s);
}
END_TEST

START_TEST(test_export_h9)
{
	struct event ev = export_event();
	struct export_info info = { .egd_class = "A", .name = "Test Cup", .place = "FR,Lyon",
		.date_start = "2024-05-01", .date_end = "2024-05-02", .handicap_rule = "h9",
		.komi = 6.5, .time_minutes = 60 };
	char *s = NULL;

	ck_assert_int_eq(export_h9(&ev, &info, &s), EXPORT_OK);
	ck_assert_str_eq(s,
		"; CL[A]\n"
		"; EV[Test Cup]\n"
		"; PC[FR,Lyon]\n"
		"; DT[2024-05-01,2024-05-02]\n"
		"; HA[h9]\n"
		"; KM[6.5]\n"
		"; TM[60]\n"
		"; Num Name Rk Co Club PTS SOS WARN\n"
		"1 Bob 3k - - 4 0 0 0+ 2+!b\n"
		"2 Ann_Lee 2d FR Lyon 2 2 0 3+/w2 1-!w\n"
		"3 Cid 12k DE Berl 2 2 1 2-/b2 0+\n");
	free(s);
	/* A bye scoring nothing is 0-; Bob (2, SOS 0) now ties Ann (2, SOS: Cid 0) and follows
	 * her by seed. */
	ev.bye_points = 0;
	ck_assert_int_eq(export_h9(&ev, NULL, &s), EXPORT_OK);
	ck_assert_ptr_nonnull(strstr(s, "\n2 Bob 3k - - 2 0 0 0- 1+!b\n"));
	free(s);
}
END_TEST

START_TEST(test_export_json)
{
	struct event ev = export_event();
	char *s = NULL;
	json_t *root;
	json_error_t jerr;

	ck_assert_int_eq(export_json(&ev, NULL, &s), EXPORT_OK);
	ck_assert_str_eq(s,
		"{\"system\":\"swiss\",\"rounds\":2,\"score\":\"PTS\",\"tiebreaks\":[\"SOS\",\"WARN\"],"
		"\"standings\":["
		"{\"num\":1,\"place\":1,\"player\":1,\"id\":11,\"name\":\"Bob\",\"rank\":\"3k\","
		"\"rating\":1700.0,\"score\":4.0,\"points\":4,\"wins\":1,\"draws\":0,\"losses\":0,"
		"\"byes\":1,\"warnings\":0,\"tiebreaks\":[0.0,0.0],\"rounds\":["
		"{\"round\":1,\"result\":\"bye\"},"
		"{\"round\":2,\"result\":\"win\",\"opponent\":2,\"color\":\"b\",\"handicap\":0,"
		"\"forfeit\":true}]},"
		"{\"num\":2,\"place\":2,\"player\":0,\"id\":10,\"name\":\"Ann Lee\",\"rank\":\"2d\","
		"\"rating\":2100.0,\"score\":2.0,\"points\":2,\"wins\":1,\"draws\":0,\"losses\":1,"
		"\"byes\":0,\"warnings\":0,\"tiebreaks\":[2.0,0.0],\"rounds\":["
		"{\"round\":1,\"result\":\"win\",\"opponent\":3,\"color\":\"w\",\"handicap\":2,"
		"\"forfeit\":false},"
		"{\"round\":2,\"result\":\"loss\",\"opponent\":1,\"color\":\"w\",\"handicap\":0,"
		"\"forfeit\":true}]},"
		"{\"num\":3,\"place\":3,\"player\":2,\"id\":12,\"name\":\"Cid\",\"rank\":\"12k\","
		"\"rating\":1300.0,\"score\":2.0,\"points\":2,\"wins\":0,\"draws\":0,\"losses\":1,"
		"\"byes\":1,\"warnings\":1,\"tiebreaks\":[2.0,1.0],\"rounds\":["
		"{\"round\":1,\"result\":\"loss\",\"opponent\":2,\"color\":\"b\",\"handicap\":2,"
		"\"forfeit\":false},"
		"{\"round\":2,\"result\":\"bye\"}]}]}");
	root = json_loads(s, 0, &jerr);
	ck_assert_ptr_nonnull(root);
	json_decref(root);
	free(s);
}
END_TEST

/* McMahon, 4 players, 2 rounds, bar 1d (0), floor 4k (-4), absent 0.5:
 *   R1: B(B) draws A(W); C(B) vs D(W) double loss.   R2: A(B) beats C(W); B, D absent.
 * Start MMS: A 30, B 29, C 28, D clamp(5k) = 4k -> 26.
 * MMS: A 30 + 0.5 + 1 = 31.5;  B 29 + 0.5 + 0.5 = 30;  C 28;  D 26 + 0.5 = 26.5.
 * SOS: A: B 30 + C 28 = 58;  B: A 31.5 + (absent: 29) = 60.5;
 *      C: D 26.5 (the double loss was played) + A 31.5 = 58;  D: C 28 + (absent: 26) = 54.
 * SOSOS: A: 60.5 + 58 = 118.5;  B: 58 + 2 x 29 = 116;  C: 54 + 58 = 112;
 *        D: 58 + 2 x 26 = 110.
 * Points: A 1 + 2 = 3, B 1, C 0, D 0. */
START_TEST(test_export_mcmahon_h9_csv)
{
	struct event_player p[4] = {
		{ .name = "A", .rank = 0, .rating = 2000, .seed = 0 },
		{ .name = "B", .rank = -1, .rating = 1900, .seed = 1 },
		{ .name = "C", .rank = -2, .rating = 1800, .seed = 2 },
		{ .name = "D", .rank = -5, .rating = 1600, .seed = 3 },
	};
	struct event_game g[3] = {
		{ .round = 1, .black = 1, .white = 0, .result = RESULT_DRAW },
		{ .round = 1, .black = 2, .white = 3, .result = RESULT_DOUBLE_LOSS },
		{ .round = 2, .black = 0, .white = 2, .result = RESULT_BLACK_WIN },
	};
	struct event ev = mk(SYSTEM_MCMAHON, p, 4, g, 3, NULL, 0, 2);
	char *s = NULL;

	ev.mcmahon_bar = 0;
	ev.mcmahon_floor = -4;
	/* The double loss C-D (round 1) is a double forfeit: unplayed, "-!" for both (issue 15). */
	ck_assert_int_eq(export_h9(&ev, NULL, &s), EXPORT_OK);
	ck_assert_str_eq(s,
		"; Num Name Rk Co Club MMS SOS SOSOS\n"
		"1 A 1d - - 31.5 58 118.5 2=/w 3+/b\n"
		"2 B 1k - - 30 60.5 116 1=/b 0=\n"
		"3 C 2k - - 28 58 112 4-!b 1-/w\n"
		"4 D 5k - - 26.5 54 110 3-!w 0=\n");
	free(s);
	ck_assert_int_eq(export_csv(&ev, NULL, &s), EXPORT_OK);
	ck_assert_str_eq(s,
		"Num,Place,Name,Rank,Rating,R1,R2,Points,MMS,SOS,SOSOS\r\n"
		"1,1,A,1d,2000,2=/w,3+/b,3,31.5,58,118.5\r\n"
		"2,2,B,1k,1900,1=/b,-,1,30,60.5,116\r\n"
		"3,3,C,2k,1800,4-!b,1-/w,0,28,58,112\r\n"
		"4,4,D,5k,1600,3-!w,-,0,26.5,54,110\r\n");
	free(s);
}
END_TEST

START_TEST(test_export_after_round_and_pending)
{
	struct event ev = export_event();
	struct export_info info = { .after_round = 1, .komi = NAN };
	char *s = NULL;

	/* After R1: Bob 2 (bye), Ann 2 (beat Cid), Cid 0. SOS: Bob 0, Ann: Cid 0, Cid: Ann 2.
	 * Bob and Ann tie on PTS, SOS and WARN: place 1 both, seed puts Ann first. */
	ck_assert_int_eq(export_h9(&ev, &info, &s), EXPORT_OK);
	ck_assert_str_eq(s,
		"; Num Name Rk Co Club PTS SOS WARN\n"
		"1 Ann_Lee 2d FR Lyon 2 0 0 3+/w2\n"
		"2 Bob 3k - - 2 0 0 0+\n"
		"3 Cid 12k DE Berl 0 2 1 1-/b2\n");
	free(s);
	ck_assert_int_eq(export_csv(&ev, &info, &s), EXPORT_OK);
	ck_assert_str_eq(s,
		"Num,Place,Name,Rank,Rating,R1,Points,SOS,WARN\r\n"
		"1,1,Ann Lee,2d,2100,3+/w2,2,0,0\r\n"
		"2,1,Bob,3k,1700,bye+,2,0,0\r\n"
		"3,3,Cid,12k,1300,1-/b2,0,2,1\r\n");
	free(s);
	/* An unfinished R2 game: Bob has only his bye (2, SOS 0), Ann 2 (SOS: Cid 2), Cid 2
	 * (SOS: Ann 2, 1 warning): Ann 1, Cid 2, Bob 3. CSV "3?/w", h9 "0-". */
	x_games[1].result = RESULT_NONE;
	ck_assert_int_eq(export_csv(&ev, NULL, &s), EXPORT_OK);
	ck_assert_ptr_nonnull(strstr(s, "\r\n1,1,Ann Lee,2d,2100,2+/w2,3?/w,2,2,0\r\n"));
	free(s);
	ck_assert_int_eq(export_h9(&ev, NULL, &s), EXPORT_OK);
	ck_assert_ptr_nonnull(strstr(s, "\n1 Ann_Lee 2d FR Lyon 2 2 0 2+/w2 0-\n"));
	free(s);
}
END_TEST

START_TEST(test_export_csv_quoting)
{
	struct event ev = export_event();
	char *s = NULL;

	x_players[0].name = "Lee, \"Ann\"";
	x_players[2].name = "=SUM(A1)";
	ck_assert_int_eq(export_csv(&ev, NULL, &s), EXPORT_OK);
	ck_assert_ptr_nonnull(strstr(s, "\r\n2,2,\"Lee, \"\"Ann\"\"\",2d,"));
	ck_assert_ptr_nonnull(strstr(s, "\r\n3,3,'=SUM(A1),12k,"));
	free(s);
}
END_TEST

START_TEST(test_export_invalid)
{
	struct event ev = export_event();
	struct export_info info = { .name = "Cup [final]", .komi = NAN };
	char *s = NULL;

	ck_assert_int_eq(export_h9(&ev, &info, &s), EXPORT_EINVAL);
	info.name = "Cup";
	info.date_start = "2024-13-01";
	ck_assert_int_eq(export_h9(&ev, &info, &s), EXPORT_EINVAL);
	info.date_start = NULL;
	info.tiebreaks = (const char *const[]){ "NOPE" };
	info.ntiebreaks = 1;
	ck_assert_int_eq(export_h9(&ev, &info, &s), EXPORT_EINVAL);
	ck_assert_int_eq(export_json(&ev, &info, &s), EXPORT_EINVAL);
	ck_assert_int_eq(export_csv(&ev, &info, &s), EXPORT_EINVAL);
	ck_assert_ptr_null(s);
	x_players[1].name = "Bad\nName";
	ck_assert_int_eq(export_csv(&ev, NULL, &s), EXPORT_EINVAL);
	x_players[1].name = "\xc3\x28"; /* invalid UTF-8 */
	ck_assert_int_eq(export_json(&ev, NULL, &s), EXPORT_EINVAL);
	x_players[1].name = "Bob";
	x_players[1].club = "two words";
	ck_assert_int_eq(export_h9(&ev, NULL, &s), EXPORT_EINVAL);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(export_json(&ev, NULL, NULL), EXPORT_EINVAL);
	ck_assert_str_eq(export_strerror(EXPORT_ENOMEM), "out of memory");
}
END_TEST

START_TEST(test_empty_events)
{
	struct event_player p[2] = { { .name = "Z0" }, { .name = "Z1", .seed = 1 } };
	struct event ev = mk(SYSTEM_SWISS, p, 2, NULL, 0, NULL, 0, 0);
	struct event none = mk(SYSTEM_SWISS, NULL, 0, NULL, 0, NULL, 0, 0);
	struct standing rows[2];
	char *s = NULL;

	/* Before round 1 everyone is level: one shared place, seed order. */
	ck_assert_int_eq(standings_compute(&ev, 0, NULL, 0, rows), 2);
	ck_assert_int_eq(rows[0].place, 1);
	ck_assert_int_eq(rows[1].place, 1);
	ck_assert_int_eq(rows[1].player, 1);
	ck_assert_int_eq(export_csv(&ev, NULL, &s), EXPORT_OK);
	ck_assert_str_eq(s, "Num,Place,Name,Rank,Rating,Points,SOS,WARN\r\n"
		"1,1,Z0,1d,0,0,0,0\r\n2,1,Z1,1d,0,0,0,0\r\n");
	free(s);
	ck_assert_int_eq(standings_compute(&none, 0, NULL, 0, rows), 0);
	ck_assert_int_eq(export_h9(&none, NULL, &s), EXPORT_OK);
	ck_assert_str_eq(s, "; Num Name Rk Co Club PTS SOS WARN\n");
	free(s);
}
END_TEST

/* The pairing systems' names (common/event.h): the JSON export and the server share them. */
START_TEST(test_event_system_names)
{
	static const char *const want[] = {"round_robin", "double_round_robin", "swiss", "mcmahon",
		"knockout"};
	enum event_system got;
	ck_assert_int_eq(EVENT_SYSTEMS, 5);
	for (int i = 0; i < EVENT_SYSTEMS; i++) {
		ck_assert_str_eq(event_system_name((enum event_system)i), want[i]);
		ck_assert_int_eq(event_system_parse(want[i], &got), 0);
		ck_assert_int_eq(got, i);
	}
	ck_assert_ptr_null(event_system_name((enum event_system)EVENT_SYSTEMS));
	got = SYSTEM_SWISS;
	ck_assert_int_eq(event_system_parse("Swiss", &got), -1);
	ck_assert_int_eq(event_system_parse("", &got), -1);
	ck_assert_int_eq(got, SYSTEM_SWISS);
}
END_TEST

static Suite *export_suite(void)
{
	Suite *s = suite_create("export");
	TCase *x = tcase_create("export");

	tcase_add_test(x, test_export_csv_bye_forfeit);
	tcase_add_test(x, test_export_h9);
	tcase_add_test(x, test_export_json);
	tcase_add_test(x, test_export_mcmahon_h9_csv);
	tcase_add_test(x, test_export_after_round_and_pending);
	tcase_add_test(x, test_export_csv_quoting);
	tcase_add_test(x, test_export_invalid);
	tcase_add_test(x, test_empty_events);
	tcase_add_test(x, test_event_system_names);
	suite_add_tcase(s, x);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(export_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
