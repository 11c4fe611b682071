/* Unit tests for common/ruleset: the Chinese 2002 ruleset's answers (who moves first, the
 * opening, the komi in force, result texts; docs/rules.md Art. 2, 11, 24), the lookup by name,
 * the SGF game information it fills, and the referee asking the ruleset rather than knowing
 * the rules: a made-up ruleset changes the first player, the warnings that lose and the cost
 * of a repetition, and one the referee does not implement is refused. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "referee.h"
#include "ruleset.h"
#include "score.h"
#include "sgf.h"
#include "vertex.h"

/* ================================ Chinese 2002 ================================ */

START_TEST(test_lookup)
{
	ck_assert_ptr_eq(ruleset_default(), &ruleset_chinese2002);
	ck_assert_ptr_eq(ruleset_find("chinese-2002"), &ruleset_chinese2002);
	ck_assert_ptr_null(ruleset_find("Chinese"));
	ck_assert_ptr_null(ruleset_find(""));
	ck_assert_ptr_null(ruleset_find(NULL));
	const struct ruleset *rs = ruleset_default();
	ck_assert_str_eq(rs->name, "chinese-2002");
	ck_assert_str_eq(rs->sgf_rules, "Chinese");
	ck_assert(rs->default_komi == RULES_DEFAULT_KOMI);
	ck_assert(rs->default_handicap_komi == 0.5);
	ck_assert_int_eq(rs->free_opening_stones, 0);
	ck_assert_int_eq(rs->bar, RULESET_BAR_KOMI);
	ck_assert_int_eq(rs->suicide, RULESET_SUICIDE_ILLEGAL);
	ck_assert_int_eq(rs->repetition, RULESET_REPETITION_WARNING);
	ck_assert_int_eq(rs->warnings_lose, 2);
}
END_TEST

/* Art. 2: Black first; White after 2-9 stones; a handicap of 1 places none, Black first. */
START_TEST(test_first_and_opening)
{
	const struct ruleset *rs = ruleset_default();
	int pts[9], want[9];
	ck_assert_int_eq(rs->first_to_move(0), BLACK);
	ck_assert_int_eq(rs->first_to_move(1), BLACK);
	for (int h = 2; h <= 9; h++)
		ck_assert_int_eq(rs->first_to_move(h), WHITE);
	ck_assert_int_eq(rs->opening(19, 0, pts, 21), 0);
	ck_assert_int_eq(rs->opening(19, 1, pts, 21), 0);
	ck_assert_int_eq(rs->opening(5, 1, pts, 7), 0);
	for (int size = BOARD_MIN_SIZE; size <= BOARD_MAX_SIZE; size++)
		for (int h = 2; h <= 10; h++) {
			int n = rs->opening(size, h, pts, size + 2);
			int m = board_fixed_handicap(size, h, want, size + 2);
			ck_assert_int_eq(n, m);
			for (int i = 0; i < n; i++)
				ck_assert_int_eq(pts[i], want[i]);
		}
}
END_TEST

/* Art. 11: komi plus one point per handicap stone from 2. */
START_TEST(test_effective_komi)
{
	const struct ruleset *rs = ruleset_default();
	ck_assert(rs->effective_komi(7.5, 0) == 7.5);
	ck_assert(rs->effective_komi(0.5, 1) == 0.5);
	ck_assert(rs->effective_komi(0.5, 2) == 2.5);
	ck_assert(rs->effective_komi(0, 9) == 9);
	for (int h = 0; h <= 9; h++)
		ck_assert(rs->effective_komi(-3.5, h) == score_effective_komi(-3.5, h));
}
END_TEST

START_TEST(test_results)
{
	const struct ruleset *rs = ruleset_default();
	char out[SCORE_RESULT_MAX], spoken[32];
	struct score s = { .black = 185, .white = 176, .komi = 7.5 };
	ck_assert_str_eq(rs->result_counted(&s, out), "B+1.5");
	s.komi = 9;
	ck_assert_str_eq(rs->result_counted(&s, out), "0");
	s.komi = 12;
	ck_assert_str_eq(rs->result_counted(&s, out), "W+3");
	ck_assert_str_eq(rs->result_spoken(3.5, spoken), "B+1¾");
	ck_assert_str_eq(rs->result_spoken(-0.5, spoken), "W+¼");
	ck_assert_str_eq(rs->result_win(BLACK, RULESET_WIN_RESIGNATION), "B+R");
	ck_assert_str_eq(rs->result_win(WHITE, RULESET_WIN_RESIGNATION), "W+R");
	ck_assert_str_eq(rs->result_win(BLACK, RULESET_WIN_FORFEIT), "B+F");
	ck_assert_str_eq(rs->result_win(WHITE, RULESET_WIN_FORFEIT), "W+F");
	ck_assert_str_eq(rs->result_win(BLACK, RULESET_WIN_TIME), "B+T");
	ck_assert_str_eq(rs->result_win(WHITE, RULESET_WIN_TIME), "W+T");
	ck_assert_str_eq(rs->result_void, "Void");
}
END_TEST

/* A director's result in its stored form: what the ruleset writes, margins in whole or half
 * points; strtod's other readings of a margin refused. */
START_TEST(test_result_check)
{
	const struct ruleset *rs = ruleset_default();
	static const char *const good[] = { "B+R", "W+T", "B+F", "W+3.5", "B+12", "W+0.5",
					    "B+9999.5", "0", "Draw", "Void", "B+", NULL };
	for (int i = 0; good[i]; i++)
		ck_assert_msg(ruleset_result_check(rs, good[i]) == 0, "%s refused", good[i]);
	static const char *const bad[] = { "W+ 3", "W+3.0", "W+03", "W+3.25", "W+0.0001",
					   "W+3e0", "W+0x3", "W+3.", "W+.5", "B+R ", "X+1",
					   "W+0", "", NULL };
	for (int i = 0; bad[i]; i++)
		ck_assert_msg(ruleset_result_check(rs, bad[i]) == -1, "%s accepted", bad[i]);
	ck_assert_int_eq(ruleset_result_check(rs, NULL), -1);
	/* the prediction rules' decisive equality, and their quarter points (a bar that is the
	 * mean of W+7 and B+2.5 is W+2.25) */
	ck_assert_int_eq(ruleset_result_check(&ruleset_prediction, "W+0"), 0);
	ck_assert_int_eq(ruleset_result_check(&ruleset_prediction, "W+0.0"), -1);
	ck_assert_int_eq(ruleset_result_check(&ruleset_prediction, "W+8.75"), 0);
	ck_assert_int_eq(ruleset_result_check(&ruleset_prediction, "B+0.25"), 0);
	ck_assert_int_eq(ruleset_result_check(&ruleset_prediction, "W+8.8"), -1);
	ck_assert_int_eq(ruleset_result_check(rs, "W+8.75"), -1);
	/* every counted text the ruleset writes passes */
	char out[SCORE_RESULT_MAX];
	for (int b = 150; b <= 211; b++) {
		struct score s = { .black = b + 0.5 * (b % 2), .white = 361 - b, .komi = 7.5 };
		ck_assert_msg(ruleset_result_check(rs, rs->result_counted(&s, out)) == 0, "%s", out);
	}
}
END_TEST

/* An area count's margin minus the komi is whole (Art. 9-11): W+1 cannot come with komi 7.5;
 * every count the ruleset writes fits its komi; the prediction rules' bar is not a komi. */
START_TEST(test_margin_fits)
{
	const struct ruleset *rs = ruleset_default();
	ck_assert_int_eq(ruleset_margin_fits(rs, "W+1", 7.5), -1);
	ck_assert_int_eq(ruleset_margin_fits(rs, "W+1.5", 7.5), 0);
	ck_assert_int_eq(ruleset_margin_fits(rs, "B+3", 7), 0);
	ck_assert_int_eq(ruleset_margin_fits(rs, "B+3.5", 7), -1);
	ck_assert_int_eq(ruleset_margin_fits(rs, "B+3.5", 0.5), 0);
	ck_assert_int_eq(ruleset_margin_fits(rs, "B+R", 7.5), 0);
	ck_assert_int_eq(ruleset_margin_fits(rs, "0", 7.5), -1); /* a draw needs a whole komi */
	ck_assert_int_eq(ruleset_margin_fits(rs, "Draw", 6.5), -1);
	ck_assert_int_eq(ruleset_margin_fits(rs, "0", 7), 0);
	ck_assert_int_eq(ruleset_margin_fits(rs, "Void", 7.5), 0);
	ck_assert_int_eq(ruleset_margin_fits(&ruleset_prediction, "W+8.75", 0), 0);
	char out[SCORE_RESULT_MAX];
	for (double komi = -3.5; komi <= 9; komi += 0.5)
		for (int d = 0; d <= 3; d++) /* d neutral points, shared half each */
			for (int b = 30; b <= 50; b++) {
				struct score s = { .black = b + 0.5 * d, .white = 81 - d - b + 0.5 * d,
						   .komi = komi };
				const char *r = rs->result_counted(&s, out);
				ck_assert_msg(ruleset_margin_fits(rs, r, komi) == 0, "%s with komi %g", r, komi);
			}
}
END_TEST

/* No count gives more than the board's points, a warning's two and the komi (W+300.5 on 9x9
 * was stored); the extreme counts do fit. */
START_TEST(test_margin_possible)
{
	const struct ruleset *rs = ruleset_default();
	ck_assert(ruleset_margin_max(rs, 9, 7.5) == 90.5);
	ck_assert(ruleset_margin_max(rs, 19, -6.5) == 369.5);
	ck_assert_int_eq(ruleset_margin_possible(rs, "W+300.5", 9, 7.5), -1);
	ck_assert_int_eq(ruleset_margin_possible(rs, "W+91", 9, 7.5), -1);
	ck_assert_int_eq(ruleset_margin_possible(rs, "W+90.5", 9, 7.5), 0);
	ck_assert_int_eq(ruleset_margin_possible(rs, "B+300.5", 19, 7.5), 0);
	ck_assert_int_eq(ruleset_margin_possible(rs, "B+R", 2, 7.5), 0);
	ck_assert_int_eq(ruleset_margin_possible(rs, "0", 2, 7.5), 0);
	ck_assert_int_eq(ruleset_margin_possible(rs, "Void", 2, 7.5), 0);
	char out[SCORE_RESULT_MAX];
	for (double komi = -7.5; komi <= 7.5; komi += 0.5) /* the whole board and a warning */
		for (int side = 0; side < 2; side++) {
			struct score s = { .black = side ? 82 : -1, .white = side ? -1 : 82,
					   .komi = komi };
			const char *r = rs->result_counted(&s, out);
			ck_assert_msg(ruleset_margin_possible(rs, r, 9, komi) == 0, "%s, komi %g", r,
				      komi);
		}
	ck_assert_int_eq(ruleset_margin_possible(&ruleset_prediction, "W+8.75", 9, -6.5), 0);
	ck_assert_int_eq(ruleset_margin_possible(&ruleset_prediction, "W+170.25", 9, -6.5), -1);
}
END_TEST

/* A director's reason and result must say the same about how the game ended; adjudicated
 * goes with any; the reason is read in any case. */
START_TEST(test_reason_fits)
{
	const struct ruleset *rs = ruleset_default();
	static const struct { const char *result; enum end_reason why; int rc; } cases[] = {
		{"B+R", END_RESIGNATION, 0}, {"W+R", END_SCORE, -1}, {"W+R", END_TIME, -1},
		{"W+T", END_TIME, 0}, {"W+T", END_RESIGNATION, -1},
		{"B+F", END_WARNINGS, 0}, {"B+F", END_ILLEGAL, 0}, {"W+F", END_LATENESS, 0},
		{"B+F", END_SCORE, -1}, {"B+F", END_RESIGNATION, -1},
		{"B+4.5", END_SCORE, 0}, {"B+4.5", END_RESIGNATION, -1}, {"0", END_SCORE, 0},
		{"0", END_TIME, -1}, {"B+", END_SCORE, 0}, {"B+", END_RESIGNATION, -1},
		{"Void", END_CYCLE, 0}, {"Void", END_DOUBLE_FORFEIT, 0}, {"Void", END_SCORE, -1},
		{"B+R", END_CYCLE, -1}, {"B+R", END_DOUBLE_FORFEIT, -1},
		{"B+R", END_ADJUDICATED, 0}, {"0", END_ADJUDICATED, 0}, {"Void", END_ADJUDICATED, 0},
		{"W+3.5", END_ADJUDICATED, 0}, {"W+F", END_ADJUDICATED, 0},
		{"B+R", END_NONE, -1}, {"B+R", END_DECLINED, -1}, {"B+R", END_EXPIRED, -1},
		{"X+1", END_ADJUDICATED, -1}};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		ck_assert_msg(referee_reason_fits(rs, cases[i].result, cases[i].why) == cases[i].rc,
			      "%s with %s", cases[i].result, referee_reason_name(cases[i].why));
	ck_assert_int_eq(referee_reason_fits(&ruleset_prediction, "W+0", END_SCORE), 0);
	ck_assert_str_eq(referee_reason_results(END_LATENESS), "B+F or W+F");
	ck_assert_str_eq(referee_result_reasons(rs, "W+R"), "resignation or adjudicated");
	enum end_reason e = END_NONE;
	ck_assert_int_eq(referee_reason_parse("SCORE", &e), 0);
	ck_assert_int_eq(e, END_SCORE);
	ck_assert_int_eq(referee_reason_parse("Double_Forfeit", &e), 0);
	ck_assert_int_eq(e, END_DOUBLE_FORFEIT);
}
END_TEST

START_TEST(test_result_parse)
{
	const struct ruleset *rs = ruleset_default();
	struct ruleset_result x;
	ck_assert_int_eq(rs->result_parse("B+R", &x), 0);
	ck_assert(x.winner == BLACK && x.decided_by && !x.counted);
	ck_assert(x.how == RULESET_WIN_RESIGNATION);
	ck_assert_int_eq(rs->result_parse("W+T", &x), 0);
	ck_assert(x.winner == WHITE && x.decided_by && x.how == RULESET_WIN_TIME);
	ck_assert_int_eq(rs->result_parse("W+F", &x), 0);
	ck_assert(x.winner == WHITE && x.how == RULESET_WIN_FORFEIT);
	ck_assert_int_eq(rs->result_parse("W+361.5", &x), 0);
	ck_assert(x.winner == WHITE && x.counted && x.margin == 361.5 && !x.decided_by);
	ck_assert_int_eq(rs->result_parse("B+", &x), 0);
	ck_assert(x.winner == BLACK && !x.counted && !x.decided_by);
	ck_assert_int_eq(rs->result_parse("0", &x), 0);
	ck_assert(x.winner == EMPTY && x.draw);
	ck_assert_int_eq(rs->result_parse("Draw", &x), 0);
	ck_assert(x.draw);
	ck_assert_int_eq(rs->result_parse("Void", &x), 0);
	ck_assert(x.winner == EMPTY && !x.draw);
	static const char *const bad[] = { "", "B", "X+R", "B+0", "B+-1", "B+10000", "B+1x",
					   "B+RR", "void", NULL };
	for (int i = 0; bad[i]; i++)
		ck_assert_msg(rs->result_parse(bad[i], &x) == -1, "%s accepted", bad[i]);
	ck_assert_int_eq(rs->result_parse(NULL, &x), -1);
	/* every text the ruleset writes reads back */
	char out[SCORE_RESULT_MAX];
	struct score s = { .black = 180, .white = 171, .komi = 7.5 };
	ck_assert_int_eq(rs->result_parse(rs->result_counted(&s, out), &x), 0);
	ck_assert(x.winner == BLACK && x.margin == 1.5);
	for (int c = BLACK; c <= WHITE; c++)
		for (int how = RULESET_WIN_RESIGNATION; how <= RULESET_WIN_TIME; how++) {
			const char *t = rs->result_win((enum color)c, (enum ruleset_win)how);
			ck_assert_int_eq(rs->result_parse(t, &x), 0);
			ck_assert(x.winner == (enum color)c && x.how == (enum ruleset_win)how);
		}
	ck_assert_int_eq(rs->result_parse(rs->result_void, &x), 0);
}
END_TEST

/* KM is the effective komi, HA from 2, RU[Chinese], and no PL: Black first on an empty
 * board, White after stones, as SGF implies. */
#define ROOT "(;GM[1]FF[4]CA[UTF-8]AP[" SGF_APPLICATION "]SZ[9]"

/* A result as typed, in its stored form: case, jigo/draw, double_loss; too long refused. */
START_TEST(test_result_normalise)
{
	const struct ruleset *rs = ruleset_default();
	static const char *const cases[][2] = {
		{"b+r", "B+R"}, {"W+3.5", "W+3.5"}, {"w+3.5", "W+3.5"}, {"b+t", "B+T"}, {"W+f", "W+F"},
		{"void", "Void"}, {"VOID", "Void"}, {"Void", "Void"}, {"jigo", "0"}, {"Jigo", "0"},
		{"DRAW", "0"}, {"Draw", "0"}, {"0", "0"}, {"b+", "B+"}, {"x+1", "X+1"}, {"", ""},
	};
	char out[16];
	bool dl = true;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		ck_assert_int_eq(ruleset_result_normalise(rs, cases[i][0], out, sizeof out, &dl), 0);
		ck_assert_str_eq(out, cases[i][1]);
		ck_assert(!dl);
	}
	ck_assert_int_eq(ruleset_result_normalise(rs, "Double_Loss", out, sizeof out, &dl), 0);
	ck_assert_str_eq(out, "Void");
	ck_assert(dl);
	ck_assert_int_eq(ruleset_result_normalise(rs, "double_loss", out, 4, &dl), -1);
	ck_assert(!dl);
	ck_assert_int_eq(ruleset_result_normalise(rs, "W+3.5", out, 5, &dl), -1);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(ruleset_result_normalise(rs, "W+3.5", out, 6, &dl), 0);
	ck_assert_int_eq(ruleset_result_normalise(rs, NULL, out, sizeof out, &dl), -1);
	/* What the normaliser makes of the accepted forms, result_parse accepts. */
	struct ruleset_result x;
	const char *ok[] = {"b+r", "w+3.5", "B+t", "w+f", "jigo", "draw", "void", "double_loss"};
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
		ck_assert_int_eq(ruleset_result_normalise(rs, ok[i], out, sizeof out, &dl), 0);
		ck_assert_msg(rs->result_parse(out, &x) == 0, "%s -> %s refused", ok[i], out);
	}
}
END_TEST

START_TEST(test_sgf_info)
{
	static const struct {
		double komi;
		int handicap;
		const char *want;
	} cases[] = {
		{ 7.5, 0, ROOT "KM[7.5]RU[Chinese])\n" },
		{ 0.5, 1, ROOT "KM[0.5]RU[Chinese])\n" },
		{ 0.5, 2, ROOT "KM[2.5]HA[2]RU[Chinese])\n" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct sgf_game g;
		sgf_game_init(&g);
		g.size = 9;
		const struct ruleset *rs = ruleset_default();
		ck_assert_int_eq(ruleset_sgf_info(rs, cases[i].komi, cases[i].handicap, &g), SGF_OK);
		ck_assert_int_eq(g.first_color, 0);
		ck_assert_int_eq(g.handicap, cases[i].handicap);
		char *text = sgf_write(&g);
		ck_assert_ptr_nonnull(text);
		ck_assert_str_eq(text, cases[i].want);
		free(text);
		sgf_game_free(&g);
	}
}
END_TEST

/* ================================ the referee asks the ruleset ================================ */

static enum color white_first(int handicap)
{
	(void)handicap;
	return WHITE;
}

static double no_komi(double komi, int handicap)
{
	(void)komi;
	(void)handicap;
	return 0;
}

/* A made-up ruleset: White first, no komi, three warnings lose, repetitions cost the turn. */
static struct ruleset made_up(void)
{
	struct ruleset rs = ruleset_chinese2002;
	rs.name = "made-up";
	rs.first_to_move = white_first;
	rs.effective_komi = no_komi;
	rs.warnings_lose = 3;
	rs.repetition = RULESET_REPETITION_TURN;
	return rs;
}

START_TEST(test_referee_default)
{
	struct referee r;
	ck_assert_int_eq(referee_init_ruleset(&r, NULL, 9, 7.5, 0, NULL), 0);
	ck_assert_ptr_eq(r.ruleset, &ruleset_chinese2002);
	ck_assert_int_eq(r.board.to_move, BLACK);
	referee_free(&r);
	ck_assert_int_eq(referee_init(&r, 9, 7.5, 3, NULL), 0);
	ck_assert_ptr_eq(r.ruleset, &ruleset_chinese2002);
	ck_assert_int_eq(r.board.to_move, WHITE);
	ck_assert_uint_eq(r.board.nsetup, 3);
	referee_free(&r);
}
END_TEST

START_TEST(test_referee_made_up)
{
	struct ruleset rs = made_up();
	struct referee r;
	struct referee_move m;
	ck_assert_int_eq(referee_init_ruleset(&r, &rs, 9, 7.5, 0, NULL), 0);
	ck_assert_int_eq(r.board.to_move, WHITE);
	/* out of turn twice: two warnings do not lose here, the third does */
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(referee_play(&r, BLACK, vertex_parse(&r.board, "E5"), &m), 0);
		ck_assert(m.warning);
		ck_assert(!m.lost);
	}
	ck_assert_int_eq(referee_play(&r, BLACK, vertex_parse(&r.board, "E5"), &m), 0);
	ck_assert(m.lost && m.ended);
	ck_assert_str_eq(r.result, "W+F");
	referee_free(&r);

	/* the count uses the ruleset's komi: an empty board is a draw */
	ck_assert_int_eq(referee_init_ruleset(&r, &rs, 9, 7.5, 0, NULL), 0);
	ck_assert_int_eq(referee_play(&r, WHITE, BOARD_PASS, &m), 0);
	ck_assert_int_eq(referee_play(&r, BLACK, BOARD_PASS, &m), 0);
	ck_assert(m.counting);
	bool ended, resumed;
	ck_assert_int_eq(referee_dead(&r, BLACK, NULL, 0, &ended, &resumed), 0);
	ck_assert_int_eq(referee_dead(&r, WHITE, NULL, 0, &ended, &resumed), 0);
	ck_assert(ended);
	ck_assert(r.score.komi == 0);
	ck_assert_str_eq(r.result, "0");
	referee_free(&r);
}
END_TEST

/* A superko move costs the turn only under RULESET_REPETITION_TURN: no warning. */
START_TEST(test_referee_repetition_cost)
{
	/* a ko on 5x5: White B3 is captured by Black C3, and White retakes at once */
	static const char *const seq[] = { "B2", "C2", "A3", "D3", "B4", "C4", "E5", "B3", "C3" };
	for (int variant = 0; variant < 2; variant++) {
		struct ruleset rs = made_up();
		rs.first_to_move = ruleset_chinese2002.first_to_move;
		if (variant == 0)
			rs.repetition = RULESET_REPETITION_WARNING;
		struct referee r;
		struct referee_move m;
		ck_assert_int_eq(referee_init_ruleset(&r, &rs, 5, 7.5, 0, NULL), 0);
		for (size_t i = 0; i < sizeof seq / sizeof *seq; i++) {
			ck_assert_int_eq(referee_play(&r, r.board.to_move,
						      vertex_parse(&r.board, seq[i]), &m), 0);
			ck_assert_int_eq(m.offence, OFFENCE_NONE);
		}
		/* C3 captured B3; White retakes at B3 at once: a ko, illegal */
		ck_assert_int_eq(m.ncaptured, 1);
		ck_assert_int_eq(referee_play(&r, WHITE, vertex_parse(&r.board, "B3"), &m), 0);
		ck_assert_int_eq(m.offence, OFFENCE_SUPERKO);
		ck_assert(m.forfeit_turn);
		ck_assert(m.warning == (variant == 0));
		ck_assert_int_eq(r.warnings[WHITE], variant == 0 ? 1 : 0);
		referee_free(&r);
	}
}
END_TEST

/* What the referee does not implement is refused, not played wrongly. */
START_TEST(test_referee_refuses)
{
	struct referee r;
	struct ruleset rs = made_up();
	rs.bar = RULESET_BAR_PREDICTION;
	ck_assert_int_eq(referee_init_ruleset(&r, &rs, 9, 7.5, 0, NULL), -1);
	rs = made_up();
	rs.free_opening_stones = 4;
	ck_assert_int_eq(referee_init_ruleset(&r, &rs, 9, 7.5, 0, NULL), -1);
	rs = made_up();
	rs.suicide = RULESET_SUICIDE_REMOVES_OWN;
	ck_assert_int_eq(referee_init_ruleset(&r, &rs, 9, 7.5, 0, NULL), -1);
	rs = made_up();
	ck_assert_int_eq(referee_init_ruleset(&r, &rs, 9, 7.5, 10, NULL), -1);
	ck_assert_int_eq(referee_init_ruleset(&r, &rs, 9, 7.5, 4, NULL), 0);
	referee_free(&r);
}
END_TEST

static Suite *ruleset_suite(void)
{
	Suite *s = suite_create("ruleset");
	TCase *c = tcase_create("chinese2002");
	tcase_add_test(c, test_lookup);
	tcase_add_test(c, test_first_and_opening);
	tcase_add_test(c, test_effective_komi);
	tcase_add_test(c, test_results);
	tcase_add_test(c, test_result_parse);
	tcase_add_test(c, test_result_check);
	tcase_add_test(c, test_margin_fits);
	tcase_add_test(c, test_margin_possible);
	tcase_add_test(c, test_reason_fits);
	tcase_add_test(c, test_result_normalise);
	tcase_add_test(c, test_sgf_info);
	suite_add_tcase(s, c);
	TCase *r = tcase_create("referee");
	tcase_add_test(r, test_referee_default);
	tcase_add_test(r, test_referee_made_up);
	tcase_add_test(r, test_referee_repetition_cost);
	tcase_add_test(r, test_referee_refuses);
	suite_add_tcase(s, r);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(ruleset_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
