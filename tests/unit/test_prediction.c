/* Unit tests for the prediction ruleset of seed 000 (docs/rules.md "Prediction rules"):
 * common/predict (colour choice, bar and results against every example of the seed),
 * common/capture (suicide of one stone and of a chain, the both-sides case with each choice,
 * occupied points, positional repetition) and the referee under ruleset_prediction (the
 * opening's order and its refusals, sealed predictions, the repetition that loses, a count
 * against the bar, `decisive`, a replay restoring predictions first). */
#include <check.h>
#include <string.h>

#include "board.h"
#include "capture.h"
#include "predict.h"
#include "referee.h"
#include "ruleset.h"
#include "../support/board_util.h"

/* ================================ predict ================================ */

/* Art. 5.3, Example 1: 甲 (first) "W+7", 乙 "W+6": 甲 White, bar W+6.5. */
START_TEST(test_example1)
{
	enum predict_role w;
	double bar;
	predict_decide(7, 6, &w, &bar);
	ck_assert_int_eq(w, PREDICT_FIRST);
	ck_assert(bar == 6.5);
	/* the same predictions the other way round: the higher one takes White */
	predict_decide(6, 7, &w, &bar);
	ck_assert_int_eq(w, PREDICT_SECOND);
	ck_assert(bar == 6.5);
	char out[16];
	/* Ex. 1: White ahead by more than 6.5 wins; by 6.5 exactly a draw; by less Black wins */
	ck_assert_str_eq(predict_result(7, bar, false, out), "W+0.5");
	ck_assert_str_eq(predict_result(6.5, bar, false, out), "0");
	ck_assert_str_eq(predict_result(6, bar, false, out), "B+0.5");
}
END_TEST

/* Example 2: 甲 "W+7", 乙 "B+6": 甲 White, bar W+0.5. */
START_TEST(test_example2)
{
	struct predict_value a = { WHITE, 7 }, b = { BLACK, 6 };
	enum predict_role w;
	double bar;
	ck_assert(predict_white(&a) == 7);
	ck_assert(predict_white(&b) == -6);
	predict_decide(predict_white(&b), predict_white(&a), &w, &bar);
	ck_assert_int_eq(w, PREDICT_SECOND); /* 甲 here the second player: still White */
	ck_assert(bar == 0.5);
	struct predict_value s = predict_stated(bar);
	ck_assert_int_eq(s.color, WHITE);
	ck_assert(s.margin == 0.5);
	char out[16];
	ck_assert_str_eq(predict_result(1, bar, false, out), "W+0.5");
	ck_assert_str_eq(predict_result(-3, bar, false, out), "B+3.5");
	/* a bar stated for Black: W+2 and B+5 -> B+1.5 */
	predict_decide(2, -5, &w, &bar);
	ck_assert(bar == -1.5);
	s = predict_stated(bar);
	ck_assert_int_eq(s.color, BLACK);
	ck_assert(s.margin == 1.5);
	/* a mean in quarters: W+7 and W+6.5 -> 6.75 */
	predict_decide(7, 6.5, &w, &bar);
	ck_assert(bar == 6.75);
	ck_assert_str_eq(predict_result(7, bar, false, out), "W+0.25");
}
END_TEST

/* Example 3: both "W+7": the first player takes White, bar W+7; equality a draw, or with a
 * decisive result the bar's colour wins. Example 4: bar W+6.5, White ahead by 7: W+0.5. */
START_TEST(test_example3_4)
{
	enum predict_role w;
	double bar;
	predict_decide(7, 7, &w, &bar);
	ck_assert_int_eq(w, PREDICT_FIRST);
	ck_assert(bar == 7);
	char out[16];
	ck_assert_str_eq(predict_result(7, bar, false, out), "0");
	ck_assert_str_eq(predict_result(7, bar, true, out), "W+0");
	ck_assert_str_eq(predict_result(-4, -4, true, out), "B+0");
	ck_assert_str_eq(predict_result(0, 0, true, out), "W+0"); /* W+0 is stated for White */
	ck_assert_str_eq(predict_result(7, 6.5, false, out), "W+0.5"); /* Example 4 */
	/* W+0 and B+0 are the same prediction: equal, the first player White */
	predict_decide(0, -0.0, &w, &bar);
	ck_assert_int_eq(w, PREDICT_FIRST);
}
END_TEST

START_TEST(test_margin_text)
{
	ck_assert(predict_margin_ok(0, 9));
	ck_assert(predict_margin_ok(7.5, 9));
	ck_assert(predict_margin_ok(81, 9));
	ck_assert(!predict_margin_ok(81.5, 9));
	ck_assert(!predict_margin_ok(0.25, 9));
	ck_assert(!predict_margin_ok(-1, 9));
	struct predict_value v;
	char out[PREDICT_TEXT_MAX];
	ck_assert_int_eq(predict_parse("W+7", &v), 0);
	ck_assert_int_eq(v.color, WHITE);
	ck_assert(v.margin == 7);
	ck_assert_int_eq(predict_parse("b+6.5", &v), 0);
	ck_assert_int_eq(v.color, BLACK);
	ck_assert(v.margin == 6.5);
	ck_assert_str_eq(predict_format(&v, out), "B+6.5");
	ck_assert_int_eq(predict_parse("W+", &v), -1);
	ck_assert_int_eq(predict_parse("W+-1", &v), -1);
	ck_assert_int_eq(predict_parse("X+1", &v), -1);
	ck_assert_int_eq(predict_parse("W+7x", &v), -1);
	ck_assert_int_eq(predict_parse(NULL, &v), -1);
}
END_TEST

/* ================================ capture ================================ */

/* Art. 4.2: a one-stone suicide removes the stone; the board is then as it was, a position
 * that appeared before, so the move is a repetition (Art. 5.4). */
START_TEST(test_suicide_one_stone)
{
	struct board b;
	from_diagram(&b, 5, KO_POSITIONAL, ". X . . .  X . . . .  . . . . .  . . . . .  . . . . .");
	struct capture_move m;
	capture_check(&b, WHITE, V(&b, "A5"), CAPTURE_OPPONENT, &m);
	ck_assert(m.own_dead);
	ck_assert(!m.opp_dead);
	ck_assert_int_eq(m.removed, WHITE);
	ck_assert_int_eq(m.status, BOARD_SUPERKO);
	struct snap s;
	take(&b, &s);
	ck_assert_int_eq(capture_play(&b, WHITE, V(&b, "A5"), CAPTURE_OPPONENT, &m), BOARD_SUPERKO);
	assert_unchanged(&b, &s);
	board_free(&b);
}
END_TEST

/* Art. 4.2: a suicide of a chain removes the whole chain (the placed stone listed first). */
START_TEST(test_suicide_chain)
{
	struct board b;
	from_diagram(&b, 5, KO_POSITIONAL, "O X . . .  . X . . .  X . . . .  . . . . .  . . . . .");
	struct capture_move m;
	ck_assert_int_eq(capture_play(&b, WHITE, V(&b, "A4"), CAPTURE_OPPONENT, &m), BOARD_OK);
	ck_assert_int_eq(m.removed, WHITE);
	ck_assert_int_eq(m.ncaptured, 2);
	ck_assert_int_eq(m.captured[0], V(&b, "A4"));
	assert_points(&b, m.captured, m.ncaptured, "A4 A5");
	assert_diagram(&b, ".X...\n.X...\nX....\n.....\n.....");
	ck_assert_int_eq(b.to_move, BLACK);
	ck_assert_int_eq(board_moves(&b), 1);
	ck_assert(board_selfcheck(&b));
	/* play goes on from the new position */
	ck_assert_int_eq(capture_play(&b, BLACK, V(&b, "E1"), CAPTURE_OPPONENT, &m), BOARD_OK);
	ck_assert_int_eq(capture_play(&b, WHITE, V(&b, "E2"), CAPTURE_OPPONENT, &m), BOARD_OK);
	ck_assert(board_selfcheck(&b));
	board_free(&b);
}
END_TEST

/* The both-sides position: Black B5 leaves Black's {A5, B4, B5} and White's {C5, C4} without
 * liberties. */
static const char *const both =
	"X . O X .  O X O X .  . O X . .  . . . . .  . . . . .";

/* Art. 4.3 with the default choice: the opponent's chains go. */
START_TEST(test_both_opponent)
{
	struct board b;
	from_diagram(&b, 5, KO_POSITIONAL, both);
	struct capture_move m;
	ck_assert_int_eq(capture_play(&b, BLACK, V(&b, "B5"), CAPTURE_OPPONENT, &m), BOARD_OK);
	ck_assert(m.opp_dead && m.own_dead);
	ck_assert_int_eq(m.removed, WHITE);
	assert_points(&b, m.captured, m.ncaptured, "C5 C4");
	assert_diagram(&b, "XX.X.\nOX.X.\n.OX..\n.....\n.....");
	ck_assert(board_selfcheck(&b));
	board_free(&b);
}
END_TEST

/* Art. 4.3 choosing one's own: the mover's chain goes and the opponent's chain lives on
 * (note 1: it regains liberties). */
START_TEST(test_both_own)
{
	struct board b;
	from_diagram(&b, 5, KO_POSITIONAL, both);
	struct capture_move m;
	ck_assert_int_eq(capture_play(&b, BLACK, V(&b, "B5"), CAPTURE_OWN, &m), BOARD_OK);
	ck_assert(m.opp_dead && m.own_dead);
	ck_assert_int_eq(m.removed, BLACK);
	ck_assert_int_eq(m.captured[0], V(&b, "B5"));
	assert_points(&b, m.captured, m.ncaptured, "B5 A5 B4");
	/* all three are White's prisoners, the placed stone too (as GNU Go counts a suicide) */
	ck_assert_int_eq(b.captures[WHITE], 3);
	ck_assert_int_eq(b.captures[BLACK], 0);
	assert_diagram(&b, "..OX.\nO.OX.\n.OX..\n.....\n.....");
	ck_assert_int_eq(board_liberties(&b, V(&b, "C5")), 2);
	ck_assert(board_selfcheck(&b));
	/* play goes on: a Black stone at A5 again makes a position not seen before */
	ck_assert_int_eq(capture_play(&b, WHITE, V(&b, "E1"), CAPTURE_OPPONENT, &m), BOARD_OK);
	ck_assert_int_eq(capture_play(&b, BLACK, V(&b, "A5"), CAPTURE_OPPONENT, &m), BOARD_OK);
	ck_assert(board_selfcheck(&b));
	board_free(&b);
}
END_TEST

/* The ko retake recreates the position before the capture: a repetition, refused by the
 * module (the referee makes it a loss). After an own removal, the undo walk restores the
 * mover's stones, so a repetition across it is found on the real board. */
START_TEST(test_repetition_across_own)
{
	struct board b;
	from_diagram(&b, 5, KO_POSITIONAL, "O X . . .  . X . . .  X . . . .  . . . . .  . . . . .");
	struct capture_move m;
	struct snap s;
	take(&b, &s);
	/* White's suicide at A4 takes A5 and A4; Black passes */
	ck_assert_int_eq(capture_play(&b, WHITE, V(&b, "A4"), CAPTURE_OPPONENT, &m), BOARD_OK);
	ck_assert_int_eq(b.captures[BLACK], 2);
	ck_assert_int_eq(capture_play(&b, BLACK, BOARD_PASS, CAPTURE_OPPONENT, &m), BOARD_OK);
	/* White A5 recreates the initial position exactly: a repetition */
	ck_assert_int_eq(capture_play(&b, WHITE, V(&b, "A5"), CAPTURE_OPPONENT, &m), BOARD_SUPERKO);
	ck_assert(board_selfcheck(&b));
	/* occupied: refused, nothing changes */
	take(&b, &s);
	ck_assert_int_eq(capture_play(&b, WHITE, V(&b, "B5"), CAPTURE_OPPONENT, &m), BOARD_OCCUPIED);
	assert_unchanged(&b, &s);
	board_free(&b);
}
END_TEST

/* ================================ referee ================================ */

static int P(const struct referee *r, const char *v)
{
	return V(&r->board, v);
}

/* c plays v and it is recorded as move `number`. */
static void ok(struct referee *r, enum color c, const char *v, int number)
{
	struct referee_move m;
	ck_assert_int_eq(referee_play(r, c, strcmp(v, "pass") ? P(r, v) : BOARD_PASS, &m), 0);
	ck_assert_msg(m.offence == OFFENCE_NONE, "%s: offence %d", v, m.offence);
	ck_assert_int_eq(m.number, number);
}

static void start(struct referee *r, int size, const struct rules *rules)
{
	ck_assert_int_eq(referee_init_ruleset(r, &ruleset_prediction, size, 7.5, 0, rules), 0);
	ck_assert_int_eq(r->phase, PHASE_OPENING);
	ck_assert_int_eq(r->board.to_move, WHITE);
	ck_assert(r->komi == 0);
}

/* Art. 5.2: W, B, W, B; no passes; occupied refused; then PREDICTING. */
START_TEST(test_opening)
{
	struct referee r;
	struct referee_move m;
	start(&r, 9, NULL);
	ck_assert_int_eq(referee_init_ruleset(&(struct referee){0}, &ruleset_prediction, 9, 0, 2,
					      NULL), -1); /* no handicap */
	ck_assert_int_eq(referee_play(&r, WHITE, BOARD_PASS, &m), 0);
	ck_assert_int_eq(m.offence, OFFENCE_NO_PASS);
	ck_assert_int_eq(m.number, 0);
	ck_assert(!m.warning);
	ck_assert_int_eq(referee_play(&r, BLACK, P(&r, "E5"), &m), 0);
	ck_assert_int_eq(m.offence, OFFENCE_NOT_YOUR_TURN);
	ck_assert(!m.warning);
	ck_assert_int_eq(r.warnings[BLACK], 0);
	ok(&r, WHITE, "E5", 1);
	ck_assert_int_eq(referee_play(&r, BLACK, P(&r, "E5"), &m), 0);
	ck_assert_int_eq(m.offence, OFFENCE_OCCUPIED);
	ck_assert_int_eq(m.number, 0);
	ck_assert(!m.forfeit_turn);
	ck_assert_int_eq(r.board.to_move, BLACK);
	ok(&r, BLACK, "C3", 2);
	ok(&r, WHITE, "G7", 3);
	bool revealed;
	ck_assert_int_eq(referee_predict(&r, PREDICT_FIRST, 7, &revealed), 0); /* early: kept */
	ck_assert(!revealed);
	ck_assert_int_eq(referee_play(&r, BLACK, P(&r, "C7"), &m), 0);
	ck_assert(m.predicting);
	ck_assert_int_eq(r.phase, PHASE_PREDICTING);
	ck_assert_int_eq(referee_play(&r, WHITE, P(&r, "D4"), &m), -1);
	ck_assert_int_eq(referee_predict(&r, PREDICT_FIRST, 5, &revealed), -2);
	ck_assert_int_eq(referee_predict(&r, PREDICT_SECOND, 6, &revealed), 0);
	ck_assert(revealed);
	ck_assert_int_eq(r.phase, PHASE_PLAYING);
	ck_assert_int_eq(r.white_role, PREDICT_FIRST); /* Example 1 */
	ck_assert(referee_bar(&r) == 6.5);
	ck_assert(r.komi == -6.5);
	ck_assert_int_eq(r.board.to_move, WHITE);
	ok(&r, WHITE, "D4", 5);
	ck_assert_int_eq(referee_predict(&r, PREDICT_SECOND, 6, &revealed), -1);
	referee_free(&r);
}
END_TEST

/* Art. 5.4: the ko retake repeats a whole-board position: White loses at once. */
START_TEST(test_repetition_loses)
{
	struct referee r;
	struct referee_move m;
	bool rv;
	start(&r, 5, NULL);
	ok(&r, WHITE, "C4", 1);
	ok(&r, BLACK, "B4", 2);
	ok(&r, WHITE, "D3", 3);
	ok(&r, BLACK, "A3", 4);
	ck_assert_int_eq(referee_predict(&r, PREDICT_FIRST, 0, &rv), 0);
	ck_assert_int_eq(referee_predict(&r, PREDICT_SECOND, 0, &rv), 0);
	ok(&r, WHITE, "C2", 5);
	ok(&r, BLACK, "B2", 6);
	ok(&r, WHITE, "B3", 7);
	ck_assert_int_eq(referee_play(&r, BLACK, P(&r, "C3"), &m), 0);
	ck_assert_int_eq(m.ncaptured, 1);
	ck_assert_int_eq(m.removed, WHITE);
	ck_assert_int_eq(referee_play(&r, WHITE, P(&r, "B3"), &m), 0);
	ck_assert_int_eq(m.offence, OFFENCE_SUPERKO);
	ck_assert(m.lost && m.ended);
	ck_assert_int_eq(m.number, 0);
	ck_assert_int_eq(r.phase, PHASE_ENDED);
	ck_assert_int_eq(r.reason, END_ILLEGAL);
	ck_assert_str_eq(r.result, "B+F");
	referee_free(&r);
}
END_TEST

/* White's wall on column C, Black's on D, of a 5x5 board: White 15, Black 10, White's surplus
 * 5; two passes, no dead stones. */
static void wall_game(struct referee *r, double first, double second, const struct rules *rules)
{
	bool rv, ended, resumed;
	start(r, 5, rules);
	ok(r, WHITE, "C1", 1);
	ok(r, BLACK, "D1", 2);
	ok(r, WHITE, "C2", 3);
	ok(r, BLACK, "D2", 4);
	ck_assert_int_eq(referee_predict(r, PREDICT_SECOND, second, &rv), 0);
	ck_assert_int_eq(referee_predict(r, PREDICT_FIRST, first, &rv), 0);
	ck_assert(rv);
	const char *w[] = {"C3", "C4", "C5"}, *b[] = {"D3", "D4", "D5"};
	for (int i = 0; i < 3; i++) {
		ok(r, WHITE, w[i], 5 + 2 * i);
		ok(r, BLACK, b[i], 6 + 2 * i);
	}
	ok(r, WHITE, "pass", 11);
	ok(r, BLACK, "pass", 12);
	ck_assert_int_eq(r->phase, PHASE_COUNTING);
	ck_assert_int_eq(referee_dead(r, WHITE, NULL, 0, &ended, &resumed), 0);
	ck_assert_int_eq(referee_dead(r, BLACK, NULL, 0, &ended, &resumed), 0);
	ck_assert(ended);
	ck_assert(r->score.white == 15 && r->score.black == 10);
}

START_TEST(test_count)
{
	struct referee r;
	struct rules rules;
	/* Example 1's predictions: bar W+6.5, White ahead by 5: Black wins by 1.5 */
	wall_game(&r, 7, 6, NULL);
	ck_assert(r.score.komi == -6.5);
	ck_assert_str_eq(r.result, "B+1.5");
	ck_assert_int_eq(r.reason, END_SCORE);
	referee_free(&r);
	/* Example 2's: bar W+0.5: White wins by 4.5 */
	wall_game(&r, 7, -6, NULL);
	ck_assert_str_eq(r.result, "W+4.5");
	referee_free(&r);
	/* equal to the bar: a draw; decisive: the bar's colour (White) */
	wall_game(&r, 5, 5, NULL);
	ck_assert_str_eq(r.result, "0");
	referee_free(&r);
	rules_default(&rules);
	rules.ruleset = RULESET_PREDICTION;
	rules.decisive = true;
	wall_game(&r, 5, 5, &rules);
	ck_assert_str_eq(r.result, "W+0");
	struct ruleset_result rr;
	ck_assert_int_eq(ruleset_prediction.result_parse(r.result, &rr), 0);
	ck_assert_int_eq(rr.winner, WHITE);
	referee_free(&r);
	/* a warning moves one point from the warned side to the other: 5 -> 3 against bar 4 */
	rules.decisive = false;
	start(&r, 5, &rules);
	struct referee_move m;
	ok(&r, WHITE, "C1", 1);
	ok(&r, BLACK, "D1", 2);
	ok(&r, WHITE, "C2", 3);
	ok(&r, BLACK, "D2", 4);
	bool rv, ended, resumed;
	referee_predict(&r, PREDICT_FIRST, 4, &rv);
	referee_predict(&r, PREDICT_SECOND, 4, &rv);
	ck_assert_int_eq(referee_play(&r, BLACK, P(&r, "E5"), &m), 0); /* out of turn */
	ck_assert(m.warning);
	const char *w[] = {"C3", "C4", "C5"}, *b[] = {"D3", "D4", "D5"};
	for (int i = 0; i < 3; i++) {
		ok(&r, WHITE, w[i], 5 + 2 * i);
		ok(&r, BLACK, b[i], 6 + 2 * i);
	}
	ok(&r, WHITE, "pass", 11);
	ok(&r, BLACK, "pass", 12);
	referee_dead(&r, WHITE, NULL, 0, &ended, &resumed);
	referee_dead(&r, BLACK, NULL, 0, &ended, &resumed);
	ck_assert(ended);
	ck_assert_str_eq(r.result, "W+3"); /* warned Black: 10 - 1 vs 15 + 1: surplus 7, bar 4 */
	referee_free(&r);
}
END_TEST

/* Predictions restored before the moves (a restart): the fourth stone opens play at once,
 * and the replayed game reaches the same position. */
START_TEST(test_replay_order)
{
	struct referee r;
	bool rv;
	start(&r, 9, NULL);
	ck_assert_int_eq(referee_predict(&r, PREDICT_FIRST, -3, &rv), 0);
	ck_assert_int_eq(referee_predict(&r, PREDICT_SECOND, 2, &rv), 0);
	ck_assert(!rv);
	ok(&r, WHITE, "A1", 1);
	ok(&r, BLACK, "B1", 2);
	ok(&r, WHITE, "C1", 3);
	ok(&r, BLACK, "D1", 4);
	ck_assert_int_eq(r.phase, PHASE_PLAYING);
	ck_assert_int_eq(r.white_role, PREDICT_SECOND);
	ck_assert(referee_bar(&r) == -0.5);
	ok(&r, WHITE, "E5", 5);
	referee_free(&r);
}
END_TEST

START_TEST(test_ruleset_answers)
{
	const struct ruleset *rs = &ruleset_prediction;
	struct rules rules;
	rules_default(&rules);
	ck_assert_ptr_eq(ruleset_of_rules(&rules), &ruleset_chinese2002);
	rules.ruleset = RULESET_PREDICTION;
	ck_assert_ptr_eq(ruleset_of_rules(&rules), rs);
	ck_assert_ptr_eq(ruleset_find("prediction"), rs);
	ck_assert_int_eq(rs->first_to_move(0), WHITE);
	ck_assert(rs->effective_komi(-6.5, 0) == -6.5);
	struct score s = { .black = 177, .white = 184, .komi = -6.5 }; /* Example 4, 19x19 */
	char out[SCORE_RESULT_MAX];
	ck_assert_str_eq(rs->result_counted(&s, out), "W+0.5");
	ck_assert(rules_predict_ms(&rules, 600000, true) == 60000);
	ck_assert(rules_predict_ms(&rules, 60000, true) == 30000);
	ck_assert(rules_predict_ms(&rules, 60000, false) == 0);
	rules.predict_s = 45;
	ck_assert(rules_predict_ms(&rules, 60000, true) == 45000);
	ck_assert(rules_predict_ms(&rules, 0, false) == 45000); /* given: with no clock too */
	enum capture_choice c;
	ck_assert_int_eq(capture_choice_parse("own", &c), 0);
	ck_assert_int_eq(c, CAPTURE_OWN);
	ck_assert_int_eq(capture_choice_parse("mine", &c), -1);
}
END_TEST

static Suite *prediction_suite(void)
{
	Suite *s = suite_create("prediction");
	TCase *p = tcase_create("predict");
	tcase_add_test(p, test_example1);
	tcase_add_test(p, test_example2);
	tcase_add_test(p, test_example3_4);
	tcase_add_test(p, test_margin_text);
	suite_add_tcase(s, p);
	TCase *c = tcase_create("capture");
	tcase_add_test(c, test_suicide_one_stone);
	tcase_add_test(c, test_suicide_chain);
	tcase_add_test(c, test_both_opponent);
	tcase_add_test(c, test_both_own);
	tcase_add_test(c, test_repetition_across_own);
	suite_add_tcase(s, c);
	TCase *r = tcase_create("referee");
	tcase_add_test(r, test_opening);
	tcase_add_test(r, test_repetition_loses);
	tcase_add_test(r, test_count);
	tcase_add_test(r, test_replay_order);
	tcase_add_test(r, test_ruleset_answers);
	suite_add_tcase(s, r);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(prediction_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
