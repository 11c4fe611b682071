/* Unit tests for common/referee (docs/rules.md §1 and §3): turns, forfeited turns (Art. 19), ko
 * and cycle penalties (Art. 18.3, 20.3), moves out of turn (Art. 17.2), two warnings losing
 * (Art. 24.2), counting and dead-stone agreement (Art. 7, 8, 21.4), all-alive counting,
 * resignation, results set from outside, handicap games, and the wire names. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "referee.h"
#include "vertex.h"

/* ================================ helpers ================================ */

static struct rules rules_with(enum ko_rule ko, enum rule_illegal illegal, enum rule_cycle cycle,
			       enum rule_counting counting)
{
	struct rules r;
	rules_default(&r);
	r.ko = ko;
	r.illegal = illegal;
	r.cycle = cycle;
	r.counting = counting;
	return r;
}

static int V(const struct referee *r, const char *s)
{
	int pt = vertex_parse(&r->board, s);
	ck_assert_msg(pt >= 0, "vertex %s", s);
	return pt;
}

/* `c` plays vertex `v`; the call must succeed. */
static struct referee_move play(struct referee *r, enum color c, const char *v)
{
	struct referee_move m;
	ck_assert_int_eq(referee_play(r, c, V(r, v), &m), 0);
	ck_assert_int_eq(m.color, c);
	return m;
}

/* Play a sequence of vertices, each by the player to move; each must be a legal move,
 * recorded with the next number. */
static void play_seq(struct referee *r, const char *seq)
{
	char buf[2048], *save = NULL;
	snprintf(buf, sizeof buf, "%s", seq);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		int before = (int)board_moves(&r->board);
		struct referee_move m = play(r, r->board.to_move, t);
		ck_assert_msg(m.offence == OFFENCE_NONE, "%s: offence %d", t, (int)m.offence);
		ck_assert_int_eq(m.number, before + 1);
		ck_assert_int_eq(m.pt, V(r, t));
		ck_assert(!m.warning && !m.forfeit_turn && !m.lost);
	}
}

static int stones_at(const struct referee *r, const char *v)
{
	return board_at(&r->board, V(r, v));
}

/* Check an illegal move's outcome: forfeited (a pass with a number) or not. */
static void expect_forfeit(const struct referee_move *m, enum offence off, int number, bool warning)
{
	ck_assert_int_eq(m->offence, off);
	ck_assert(m->forfeit_turn);
	ck_assert_int_eq(m->number, number);
	ck_assert_int_eq(m->pt, BOARD_PASS);
	ck_assert_int_eq(m->warning, warning);
	ck_assert(!m->lost && !m->voided);
	ck_assert_int_eq(m->ncaptured, 0);
}

/* The 5x5 game: Black owns A-C, White D-E; White's B2+B3 are dead in Black's area. */
#define GAME_5 "C1 D1 C2 D2 C3 D3 C4 D4 C5 D5 A5 B2 A1 B3"

/* ================================ start ================================ */

START_TEST(test_init)
{
	struct referee r;
	ck_assert_int_eq(referee_init(&r, 1, 7.5, 0, NULL), -1);
	ck_assert_int_eq(referee_init(&r, 26, 7.5, 0, NULL), -1);
	ck_assert_int_eq(referee_init(&r, 19, 7.5, 10, NULL), -1);
	ck_assert_int_eq(referee_init(&r, 19, 7.5, -2, NULL), -1);
	ck_assert_int_eq(referee_init(&r, 10, 7.5, 5, NULL), -1); /* even: four at most */
	ck_assert_int_eq(referee_init(&r, 5, 7.5, 2, NULL), -1);
	ck_assert_int_eq(referee_init(&r, 7, 7.5, 5, NULL), -1); /* 7x7: four at most */
	ck_assert_int_eq(referee_check(19, 1), 0);
	ck_assert_int_eq(referee_check(5, 1), 0);
	ck_assert_int_eq(referee_check(5, 2), -1);
	ck_assert_int_eq(referee_check(7, 4), 0);
	ck_assert_int_eq(referee_check(7, 5), -1);
	ck_assert_int_eq(referee_check(26, 0), -1);
	ck_assert_int_eq(referee_check(9, -1), -1);

	ck_assert_int_eq(referee_init(&r, 19, 7.5, 0, NULL), 0);
	ck_assert_int_eq(r.phase, PHASE_PLAYING);
	ck_assert_int_eq(r.board.size, 19);
	ck_assert_int_eq(r.board.to_move, BLACK);
	ck_assert(r.komi == 7.5);
	ck_assert_int_eq(r.handicap, 0);
	ck_assert_int_eq(r.rules.ko, KO_SITUATIONAL);
	ck_assert_int_eq(r.board.ko_rule, KO_SITUATIONAL);
	ck_assert_int_eq(r.rules.illegal, ILLEGAL_FORFEIT);
	ck_assert_int_eq(r.rules.cycle, CYCLE_FORBID);
	ck_assert_int_eq(r.rules.counting, COUNTING_AGREEMENT);
	ck_assert_int_eq(r.warnings[BLACK] + r.warnings[WHITE], 0);
	ck_assert_str_eq(r.result, "");
	ck_assert_int_eq(r.reason, END_NONE);
	referee_free(&r);

	struct rules rs = rules_with(KO_SIMPLE, ILLEGAL_LOSE, CYCLE_VOID, COUNTING_ALL_ALIVE);
	ck_assert_int_eq(referee_init(&r, 9, 6, 0, &rs), 0);
	ck_assert_int_eq(r.board.ko_rule, KO_SIMPLE);
	ck_assert_int_eq(r.rules.counting, COUNTING_ALL_ALIVE);
	referee_free(&r);
}
END_TEST

START_TEST(test_bad_requests)
{
	struct referee r;
	struct referee_move m;
	ck_assert_int_eq(referee_init(&r, 9, 7.5, 0, NULL), 0);
	play_seq(&r, "E5");
	/* Off the board: an error, nothing changes, not even a warning out of turn. */
	const int bad[] = {-1, 1, board_pt(&r.board, 9, 0), board_pt(&r.board, 0, 9), 11 * 11, 5000};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		ck_assert_int_eq(referee_play(&r, WHITE, bad[i], &m), -1);
		ck_assert_int_eq(referee_play(&r, BLACK, bad[i], &m), -1);
	}
	ck_assert_int_eq(referee_play(&r, EMPTY, V(&r, "A1"), &m), -1);
	ck_assert_int_eq(referee_play(&r, BORDER, BOARD_PASS, &m), -1);
	ck_assert_int_eq(r.warnings[BLACK] + r.warnings[WHITE], 0);
	ck_assert_uint_eq(board_moves(&r.board), 1);
	ck_assert_int_eq(r.board.to_move, WHITE);
	/* Claims and the counting phase belong to counting. */
	bool ended = true, resumed = true;
	ck_assert_int_eq(referee_dead(&r, BLACK, NULL, 0, &ended, &resumed), -1);
	ck_assert(!ended && !resumed);
	ck_assert_int_eq(r.phase, PHASE_PLAYING);
	referee_free(&r);
}
END_TEST

/* ================================ counting ================================ */

START_TEST(test_full_game_agreement)
{
	struct referee r;
	struct referee_move m;
	bool ended, resumed;
	ck_assert_int_eq(referee_init(&r, 5, 0.5, 0, NULL), 0);
	play_seq(&r, GAME_5);
	m = play(&r, BLACK, "pass");
	ck_assert_int_eq(m.number, 15);
	ck_assert(!m.counting && !m.forfeit_turn);
	ck_assert_int_eq(r.phase, PHASE_PLAYING);
	m = play(&r, WHITE, "pass");
	ck_assert_int_eq(m.number, 16);
	ck_assert(m.counting && !m.ended);
	ck_assert_int_eq(r.phase, PHASE_COUNTING);
	ck_assert_int_eq(r.first_passer, BLACK);
	/* No more moves in counting. */
	ck_assert_int_eq(referee_play(&r, BLACK, V(&r, "A2"), &m), -1);
	/* A claim naming an empty point is refused and changes nothing. */
	int bad[] = {V(&r, "B2"), V(&r, "A2")};
	ck_assert_int_eq(referee_dead(&r, BLACK, bad, 2, &ended, &resumed), 2);
	ck_assert(!r.claimed[BLACK]);
	/* Black names B2, White names B3: the same chain, the same claim. */
	int b_claim[] = {V(&r, "B2")}, w_claim[] = {V(&r, "B3")};
	ck_assert_int_eq(referee_dead(&r, BLACK, b_claim, 1, &ended, &resumed), 0);
	ck_assert(!ended && !resumed);
	ck_assert(r.claimed[BLACK] && !r.claimed[WHITE]);
	ck_assert_int_eq(r.phase, PHASE_COUNTING);
	ck_assert_int_eq(referee_dead(&r, WHITE, w_claim, 1, &ended, &resumed), 0);
	ck_assert(ended && !resumed);
	ck_assert_int_eq(r.phase, PHASE_ENDED);
	ck_assert_int_eq(r.reason, END_SCORE);
	ck_assert(r.scored);
	/* Black: C column + A5 + A1 (7) + 6 empty + 2 dead = 15; White: 10. */
	ck_assert(r.score.black == 15);
	ck_assert(r.score.white == 10);
	ck_assert(r.score.komi == 0.5);
	ck_assert_str_eq(r.result, "B+4.5");
	/* Ended: nothing more. */
	ck_assert_int_eq(referee_dead(&r, BLACK, b_claim, 1, &ended, &resumed), -1);
	ck_assert_int_eq(referee_play(&r, BLACK, BOARD_PASS, &m), -1);
	ck_assert_int_eq(referee_resign(&r, BLACK), -1);
	ck_assert_str_eq(r.result, "B+4.5");
	referee_free(&r);
}
END_TEST

/* Art. 21.4 as referee.h puts it: different claims resume play; the player who holds dead
 * stones the other holds alive moves first; if both do, the first passer. */
static void open_counting(struct referee *r, const char *extra)
{
	ck_assert_int_eq(referee_init(r, 5, 0.5, 0, NULL), 0);
	play_seq(r, GAME_5);
	if (extra)
		play_seq(r, extra);
	play_seq(r, "pass pass");
	ck_assert_int_eq(r->phase, PHASE_COUNTING);
}

START_TEST(test_claims_differ_black_first)
{
	struct referee r;
	struct referee_move m;
	bool ended, resumed;
	open_counting(&r, "B4"); /* B B4, then W passes first */
	ck_assert_int_eq(r.first_passer, WHITE);
	int dead_w[] = {V(&r, "B3")};
	/* White says its stones live; Black says they are dead: Black moves first. */
	ck_assert_int_eq(referee_dead(&r, WHITE, NULL, 0, &ended, &resumed), 0);
	ck_assert(!ended && !resumed);
	ck_assert_int_eq(referee_dead(&r, BLACK, dead_w, 1, &ended, &resumed), 0);
	ck_assert(!ended && resumed);
	ck_assert_int_eq(r.phase, PHASE_PLAYING);
	ck_assert_int_eq(r.board.to_move, BLACK);
	ck_assert(!r.claimed[BLACK] && !r.claimed[WHITE]);
	/* White moving now is out of turn. */
	m = play(&r, WHITE, "E5");
	ck_assert_int_eq(m.offence, OFFENCE_NOT_YOUR_TURN);
	ck_assert(m.warning);
	/* Black captures; one pass does not reopen counting, two do. */
	play_seq(&r, "A3 pass A2 pass B1");
	ck_assert_int_eq(stones_at(&r, "B2"), EMPTY);
	ck_assert_int_eq(stones_at(&r, "B3"), EMPTY);
	m = play(&r, WHITE, "pass");
	ck_assert(!m.counting);
	ck_assert_int_eq(r.phase, PHASE_PLAYING);
	m = play(&r, BLACK, "pass");
	ck_assert(m.counting);
	ck_assert_int_eq(r.first_passer, WHITE);
	ck_assert_int_eq(referee_dead(&r, BLACK, NULL, 0, &ended, &resumed), 0);
	ck_assert_int_eq(referee_dead(&r, WHITE, NULL, 0, &ended, &resumed), 0);
	ck_assert(ended);
	/* Black 15 + 1 (White's warning); White 10 - 1; komi 0.5. */
	ck_assert(r.score.black == 16);
	ck_assert(r.score.white == 9);
	ck_assert_str_eq(r.result, "B+6.5");
	referee_free(&r);
}
END_TEST

/* The same dispute REFEREE_DISPUTES_MAX times in a row: the count settles it, with only the
 * stones both hold dead removed (docs/rules.md, Art. 8 and 21.4); a changed claim starts the
 * count of repeats again. */
START_TEST(test_dispute_bound)
{
	struct referee r;
	bool ended, resumed;
	open_counting(&r, "B4");
	int dead_w[] = {V(&r, "B3")}, both_w[] = {V(&r, "B3"), V(&r, "A5")};
	int dead_b[] = {V(&r, "A5")};
	/* 1: White all alive, Black holds B2-B3 dead: resumed, Black first */
	ck_assert_int_eq(referee_dead(&r, WHITE, dead_b, 1, &ended, &resumed), 0);
	ck_assert_int_eq(referee_dead(&r, BLACK, both_w, 2, &ended, &resumed), 0);
	ck_assert(resumed && !ended);
	ck_assert_int_eq(r.disputes, 1);
	/* 2: a different claim (Black drops A5): a new dispute, counted from 1 */
	play_seq(&r, "pass pass");
	ck_assert_int_eq(referee_dead(&r, WHITE, dead_b, 1, &ended, &resumed), 0);
	ck_assert_int_eq(referee_dead(&r, BLACK, dead_w, 1, &ended, &resumed), 0);
	ck_assert(resumed && !ended);
	ck_assert_int_eq(r.disputes, 1);
	/* 3 and 4: the same claims again, nothing captured meanwhile */
	for (int k = 2; k < REFEREE_DISPUTES_MAX; k++) {
		play_seq(&r, "pass pass");
		ck_assert_int_eq(referee_dead(&r, BLACK, dead_w, 1, &ended, &resumed), 0);
		ck_assert_int_eq(referee_dead(&r, WHITE, dead_b, 1, &ended, &resumed), 0);
		ck_assert(resumed && !ended);
		ck_assert_int_eq(r.disputes, k);
	}
	play_seq(&r, "pass pass");
	ck_assert_int_eq(referee_dead(&r, BLACK, dead_w, 1, &ended, &resumed), 0);
	ck_assert_int_eq(referee_dead(&r, WHITE, dead_b, 1, &ended, &resumed), 0);
	ck_assert(ended && !resumed);
	ck_assert(r.settled);
	ck_assert_int_eq(r.disputes, REFEREE_DISPUTES_MAX);
	ck_assert_int_eq(r.phase, PHASE_ENDED);
	ck_assert_int_eq(r.reason, END_SCORE);
	/* counted with no stone dead: neither side's claim is in both */
	const bool *dead = referee_counted_dead(&r);
	ck_assert_ptr_eq(dead, r.counted_dead);
	for (int p = 0; p < BOARD_POINTS_MAX; p++)
		ck_assert(!dead[p]);
	struct score all_alive;
	referee_count(&r, NULL, &all_alive);
	ck_assert(r.score.black == all_alive.black && r.score.white == all_alive.white);
	referee_free(&r);

	/* the stones both hold dead are removed; only the disputed ones stay */
	open_counting(&r, "B4");
	int common[] = {V(&r, "B3"), V(&r, "A5")}, w_only[] = {V(&r, "B3")};
	for (int k = 1; k <= REFEREE_DISPUTES_MAX; k++) {
		if (k > 1)
			play_seq(&r, "pass pass");
		ck_assert_int_eq(referee_dead(&r, BLACK, common, 2, &ended, &resumed), 0);
		ck_assert_int_eq(referee_dead(&r, WHITE, w_only, 1, &ended, &resumed), 0);
		ck_assert_int_eq(ended, k == REFEREE_DISPUTES_MAX);
	}
	ck_assert(r.counted_dead[V(&r, "B3")] && r.counted_dead[V(&r, "B2")]);
	ck_assert(!r.counted_dead[V(&r, "A5")]);
	referee_free(&r);
}
END_TEST

/* The counting time runs out (referee_count_lapse): one claim in, the game is counted with it
 * (the silent player is taken to accept it); none in, with every stone alive; outside counting,
 * nothing happens. */
START_TEST(test_count_lapse)
{
	struct referee r;
	bool ended, resumed;
	open_counting(&r, "B4");
	ck_assert_int_eq(referee_count_lapse(&r), 0); /* nobody claimed: all alive */
	ck_assert_int_eq(r.phase, PHASE_ENDED);
	ck_assert_int_eq(r.unclaimed, REFEREE_UNCLAIMED_B | REFEREE_UNCLAIMED_W);
	ck_assert_str_eq(referee_unclaimed_name(r.unclaimed), "both");
	struct score all_alive;
	referee_count(&r, NULL, &all_alive);
	ck_assert(r.score.black == all_alive.black && r.score.white == all_alive.white);
	ck_assert_int_eq(r.reason, END_SCORE);
	ck_assert_int_eq(referee_count_lapse(&r), -1); /* ended: nothing */
	referee_free(&r);

	/* Black holds White's B2-B3 dead; White never answers: counted so */
	open_counting(&r, "B4");
	int dead_w[] = {V(&r, "B3")};
	ck_assert_int_eq(referee_dead(&r, BLACK, dead_w, 1, &ended, &resumed), 0);
	ck_assert(!ended && !resumed);
	ck_assert_int_eq(referee_count_lapse(&r), 0);
	ck_assert_int_eq(r.unclaimed, REFEREE_UNCLAIMED_W);
	ck_assert_str_eq(referee_unclaimed_name(r.unclaimed), "W");
	ck_assert_int_eq(referee_unclaimed_parse("W"), REFEREE_UNCLAIMED_W);
	ck_assert_int_eq(referee_unclaimed_parse("x"), 0);
	const bool *dead = referee_counted_dead(&r);
	ck_assert_ptr_nonnull(dead);
	ck_assert(dead[V(&r, "B3")] && dead[V(&r, "B2")] && !dead[V(&r, "A5")]);
	struct score with_claim;
	referee_count(&r, dead, &with_claim);
	ck_assert(r.score.black == with_claim.black && r.score.white == with_claim.white);
	ck_assert(with_claim.black > all_alive.black); /* the claim made a difference */
	/* a director's result over it: the lapse no longer stands */
	ck_assert_int_eq(referee_end(&r, "W+R", END_ADJUDICATED, true), 0);
	ck_assert_int_eq(r.unclaimed, 0);
	referee_free(&r);

	/* not counting: -1, nothing changes */
	ck_assert_int_eq(referee_init(&r, 5, 0.5, 0, NULL), 0);
	ck_assert_int_eq(referee_count_lapse(&r), -1);
	ck_assert_int_eq(r.phase, PHASE_PLAYING);
	ck_assert_int_eq(r.unclaimed, 0);
	referee_free(&r);
}
END_TEST

START_TEST(test_claims_differ_white_first)
{
	struct referee r;
	bool ended, resumed;
	open_counting(&r, NULL); /* Black passed first */
	ck_assert_int_eq(r.first_passer, BLACK);
	int dead_b[] = {V(&r, "A5")}, dead_w[] = {V(&r, "B2")};
	/* Both call B2 dead; White also calls A5 dead: White moves first. */
	ck_assert_int_eq(referee_dead(&r, BLACK, dead_w, 1, &ended, &resumed), 0);
	int both[] = {dead_w[0], dead_b[0]};
	ck_assert_int_eq(referee_dead(&r, WHITE, both, 2, &ended, &resumed), 0);
	ck_assert(resumed && !ended);
	ck_assert_int_eq(r.board.to_move, WHITE);
	ck_assert_int_eq(r.phase, PHASE_PLAYING);
	referee_free(&r);
}
END_TEST

START_TEST(test_claims_differ_both_first_passer)
{
	struct referee r;
	bool ended, resumed;
	int dead_b[] = {0}, dead_w[] = {0};
	/* Black passed first. */
	open_counting(&r, NULL);
	dead_b[0] = V(&r, "A5");
	dead_w[0] = V(&r, "B2");
	ck_assert_int_eq(referee_dead(&r, WHITE, dead_b, 1, &ended, &resumed), 0);
	ck_assert_int_eq(referee_dead(&r, BLACK, dead_w, 1, &ended, &resumed), 0);
	ck_assert(resumed);
	ck_assert_int_eq(r.board.to_move, BLACK);
	referee_free(&r);
	/* White passed first. */
	open_counting(&r, "B4");
	ck_assert_int_eq(referee_dead(&r, BLACK, dead_w, 1, &ended, &resumed), 0);
	ck_assert_int_eq(referee_dead(&r, WHITE, dead_b, 1, &ended, &resumed), 0);
	ck_assert(resumed);
	ck_assert_int_eq(r.board.to_move, WHITE);
	referee_free(&r);
}
END_TEST

START_TEST(test_all_alive)
{
	struct referee r;
	struct referee_move m;
	struct rules rs = rules_with(KO_SITUATIONAL, ILLEGAL_FORFEIT, CYCLE_FORBID, COUNTING_ALL_ALIVE);
	ck_assert_int_eq(referee_init(&r, 5, 0.5, 0, &rs), 0);
	play_seq(&r, "C1 D1 C2 D2 C3 D3 C4 D4 C5 D5 pass B2 pass");
	m = play(&r, WHITE, "pass");
	ck_assert(m.ended && !m.counting);
	ck_assert_int_eq(m.number, 14);
	ck_assert_int_eq(r.phase, PHASE_ENDED);
	ck_assert_int_eq(r.reason, END_SCORE);
	ck_assert(r.scored);
	/* B2 counts as alive: the nine empty points on the left are shared. */
	ck_assert(r.score.black == 5 + 4.5);
	ck_assert(r.score.white == 10 + 1 + 4.5);
	ck_assert_str_eq(r.result, "W+6.5");
	bool ended, resumed;
	ck_assert_int_eq(referee_dead(&r, BLACK, NULL, 0, &ended, &resumed), -1);
	referee_free(&r);
}
END_TEST

/* ================================ forfeited turns ================================ */

START_TEST(test_occupied_suicide_forfeit)
{
	struct referee r;
	struct referee_move m;
	ck_assert_int_eq(referee_init(&r, 9, 7.5, 0, NULL), 0);
	play_seq(&r, "E5 D5");
	m = play(&r, BLACK, "D5");
	expect_forfeit(&m, OFFENCE_OCCUPIED, 3, false);
	ck_assert_int_eq(stones_at(&r, "D5"), WHITE);
	ck_assert_int_eq(r.board.to_move, WHITE);
	ck_assert_int_eq(r.warnings[BLACK], 0);
	ck_assert_int_eq(r.board.hist[3].pt, BOARD_PASS);
	ck_assert_int_eq(r.board.hist[3].color, BLACK);
	ck_assert_int_eq(r.phase, PHASE_PLAYING);
	/* White's own stone is occupied too. */
	play_seq(&r, "A2 B1"); /* W A2, B B1 */
	m = play(&r, WHITE, "B1");
	expect_forfeit(&m, OFFENCE_OCCUPIED, 6, false);
	/* White's forfeited turn and Black's pass are two consecutive passes. */
	struct referee_move p = play(&r, BLACK, "pass");
	ck_assert(p.counting);
	ck_assert_int_eq(p.number, 7);
	ck_assert_int_eq(r.phase, PHASE_COUNTING);
	ck_assert_int_eq(r.first_passer, WHITE);
	referee_free(&r);
}
END_TEST

START_TEST(test_suicide_forfeit)
{
	struct referee r;
	struct referee_move m;
	ck_assert_int_eq(referee_init(&r, 9, 7.5, 0, NULL), 0);
	play_seq(&r, "E5 A2 E6 B1");
	m = play(&r, BLACK, "A1");
	expect_forfeit(&m, OFFENCE_SUICIDE, 5, false);
	ck_assert_int_eq(stones_at(&r, "A1"), EMPTY);
	ck_assert_int_eq(r.warnings[BLACK], 0);
	ck_assert_int_eq(r.passes, 1);
	ck_assert_int_eq(r.board.to_move, WHITE);
	/* White plays on: the forfeit was one pass, not the end. */
	play_seq(&r, "G7");
	ck_assert_int_eq(r.passes, 0);
	/* Still suicide next time: and still no warning. */
	play_seq(&r, "A9 pass");
	m = play(&r, BLACK, "A1");
	expect_forfeit(&m, OFFENCE_SUICIDE, 9, false);
	ck_assert_int_eq(r.warnings[BLACK], 0);
	/* Black's pass-like forfeit after White's pass: counting. */
	ck_assert(m.counting);
	referee_free(&r);
}
END_TEST

/* Two passes where one is a forfeited turn open counting (docs/rules.md §1, Art. 7). */
START_TEST(test_forfeit_then_pass_opens_counting)
{
	struct referee r;
	struct referee_move m;
	ck_assert_int_eq(referee_init(&r, 9, 7.5, 0, NULL), 0);
	play_seq(&r, "E5 D5");
	m = play(&r, BLACK, "E5"); /* occupied: a forfeit, the first "pass" */
	ck_assert(m.forfeit_turn && !m.counting);
	m = play(&r, WHITE, "pass");
	ck_assert(m.counting);
	ck_assert_int_eq(m.number, 4);
	ck_assert_int_eq(r.phase, PHASE_COUNTING);
	ck_assert_int_eq(r.first_passer, BLACK);
	referee_free(&r);

	/* A pass, then a forfeited turn. */
	ck_assert_int_eq(referee_init(&r, 9, 7.5, 0, NULL), 0);
	play_seq(&r, "E5 pass");
	m = play(&r, BLACK, "E5");
	ck_assert(m.forfeit_turn);
	ck_assert(m.counting);
	ck_assert_int_eq(m.number, 3);
	ck_assert_int_eq(r.phase, PHASE_COUNTING);
	ck_assert_int_eq(r.first_passer, WHITE);
	referee_free(&r);
}
END_TEST

/* ================================ ko, cycles ================================ */

/* 7x7: a ko at C3/D3 after eight moves; Black takes it with move 9. */
#define KO_SETUP "C4 D4 B3 E3 C2 D2 G7 C3 D3"

START_TEST(test_ko_retake_forfeits_and_warns)
{
	struct referee r;
	struct referee_move m;
	ck_assert_int_eq(referee_init(&r, 7, 0.5, 0, NULL), 0);
	play_seq(&r, KO_SETUP);
	ck_assert_int_eq(stones_at(&r, "C3"), EMPTY);
	m = play(&r, WHITE, "C3");
	expect_forfeit(&m, OFFENCE_SUPERKO, 10, true);
	ck_assert(!m.ended && !m.voided);
	ck_assert_int_eq(r.warnings[WHITE], 1);
	ck_assert_int_eq(r.warnings[BLACK], 0);
	ck_assert_int_eq(stones_at(&r, "D3"), BLACK);
	ck_assert_int_eq(r.board.to_move, BLACK);
	ck_assert_int_eq(r.phase, PHASE_PLAYING);
	/* After a move elsewhere the retake is legal. */
	play_seq(&r, "G6 C3");
	ck_assert_int_eq(stones_at(&r, "D3"), EMPTY);
	/* The warning moves the count: finish and agree. */
	play_seq(&r, "pass pass");
	bool ended, resumed;
	ck_assert_int_eq(referee_dead(&r, BLACK, NULL, 0, &ended, &resumed), 0);
	ck_assert_int_eq(referee_dead(&r, WHITE, NULL, 0, &ended, &resumed), 0);
	ck_assert(ended);
	struct score plain;
	score_area(&r.board, NULL, 0.5, 0, NULL, &plain);
	ck_assert(r.score.black == plain.black + 1);
	ck_assert(r.score.white == plain.white - 1);
	char res[SCORE_RESULT_MAX];
	ck_assert_str_eq(r.result, score_result(plain.black - plain.white - 0.5 + 2, res));
	referee_free(&r);
}
END_TEST

START_TEST(test_two_warnings_lose)
{
	struct referee r;
	struct referee_move m;
	/* A ko warning and a move out of turn: White loses. */
	ck_assert_int_eq(referee_init(&r, 7, 0.5, 0, NULL), 0);
	play_seq(&r, KO_SETUP);
	m = play(&r, WHITE, "C3");
	ck_assert(m.warning && !m.lost);
	m = play(&r, WHITE, "A1");
	ck_assert_int_eq(m.offence, OFFENCE_NOT_YOUR_TURN);
	ck_assert(m.warning && m.lost && m.ended);
	ck_assert_int_eq(m.number, 0);
	ck_assert_int_eq(r.phase, PHASE_ENDED);
	ck_assert_str_eq(r.result, "B+F");
	ck_assert_int_eq(r.reason, END_WARNINGS);
	ck_assert_int_eq(stones_at(&r, "A1"), EMPTY);
	ck_assert_int_eq(referee_play(&r, BLACK, V(&r, "A1"), &m), -1);
	referee_free(&r);

	/* Two ko retakes by White. */
	ck_assert_int_eq(referee_init(&r, 7, 0.5, 0, NULL), 0);
	play_seq(&r, KO_SETUP);
	m = play(&r, WHITE, "C3");
	ck_assert(m.warning && !m.lost);
	play_seq(&r, "G6 C3");    /* White retakes after a move elsewhere */
	play_seq(&r, "A1 A2 D3"); /* and so does Black */
	m = play(&r, WHITE, "C3");
	ck_assert(m.warning && m.lost && m.ended);
	ck_assert_str_eq(r.result, "B+F");
	referee_free(&r);
}
END_TEST

START_TEST(test_out_of_turn)
{
	struct referee r;
	struct referee_move m;
	ck_assert_int_eq(referee_init(&r, 9, 7.5, 0, NULL), 0);
	play_seq(&r, "E5");
	m = play(&r, BLACK, "D4");
	ck_assert_int_eq(m.offence, OFFENCE_NOT_YOUR_TURN);
	ck_assert(m.warning && !m.lost && !m.forfeit_turn && !m.ended);
	ck_assert_int_eq(m.number, 0);
	ck_assert_int_eq(stones_at(&r, "D4"), EMPTY);
	ck_assert_uint_eq(board_moves(&r.board), 1);
	ck_assert_int_eq(r.board.to_move, WHITE);
	ck_assert_int_eq(r.warnings[BLACK], 1);
	ck_assert_int_eq(r.passes, 0);
	/* A pass out of turn is out of turn too. */
	play_seq(&r, "D5");
	m = play(&r, WHITE, "pass");
	ck_assert_int_eq(m.offence, OFFENCE_NOT_YOUR_TURN);
	ck_assert_int_eq(r.warnings[WHITE], 1);
	ck_assert_int_eq(r.passes, 0);
	ck_assert_uint_eq(board_moves(&r.board), 2);
	play_seq(&r, "C5");
	/* Black's second warning: White wins. */
	m = play(&r, BLACK, "C4");
	ck_assert(m.lost && m.ended && m.warning);
	ck_assert_str_eq(r.result, "W+F");
	ck_assert_int_eq(r.reason, END_WARNINGS);
	ck_assert_int_eq(r.phase, PHASE_ENDED);
	referee_free(&r);
}
END_TEST

START_TEST(test_illegal_lose)
{
	struct referee r;
	struct referee_move m;
	struct rules rs = rules_with(KO_SITUATIONAL, ILLEGAL_LOSE, CYCLE_FORBID, COUNTING_AGREEMENT);
	ck_assert_int_eq(referee_init(&r, 9, 7.5, 0, &rs), 0);
	play_seq(&r, "E5 D5");
	m = play(&r, BLACK, "D5");
	ck_assert_int_eq(m.offence, OFFENCE_OCCUPIED);
	ck_assert(m.lost && m.ended && !m.forfeit_turn);
	ck_assert_int_eq(m.number, 0);
	ck_assert_str_eq(r.result, "W+F");
	ck_assert_int_eq(r.reason, END_ILLEGAL);
	ck_assert_int_eq(r.phase, PHASE_ENDED);
	ck_assert_uint_eq(board_moves(&r.board), 2);
	referee_free(&r);

	/* White's suicide. */
	ck_assert_int_eq(referee_init(&r, 9, 7.5, 0, &rs), 0);
	play_seq(&r, "A2 E5 B1");
	m = play(&r, WHITE, "A1");
	ck_assert_int_eq(m.offence, OFFENCE_SUICIDE);
	ck_assert(m.lost && m.ended);
	ck_assert_str_eq(r.result, "B+F");
	ck_assert_int_eq(r.reason, END_ILLEGAL);
	referee_free(&r);

	/* A ko retake. */
	ck_assert_int_eq(referee_init(&r, 7, 7.5, 0, &rs), 0);
	play_seq(&r, KO_SETUP);
	m = play(&r, WHITE, "C3");
	ck_assert_int_eq(m.offence, OFFENCE_SUPERKO);
	ck_assert(m.lost);
	ck_assert_str_eq(r.result, "B+F");
	referee_free(&r);

	/* A move out of turn is a warning, not an illegal move. */
	ck_assert_int_eq(referee_init(&r, 9, 7.5, 0, &rs), 0);
	m = play(&r, WHITE, "E5");
	ck_assert_int_eq(m.offence, OFFENCE_NOT_YOUR_TURN);
	ck_assert(m.warning && !m.lost);
	ck_assert_int_eq(r.phase, PHASE_PLAYING);
	referee_free(&r);
}
END_TEST

/* The triple ko of test_board, reached by play on 9x9, Black to move; then five captures,
 * and White's sixth recreates the position. */
#define TRIPLE_KO_SETUP "A9 B9 B8 D9 A1 C8 B2 B1 F1 D1 G2 C2 H1 J1 pass H2"
#define TRIPLE_KO_CYCLE "C1 G1 C9 B1 H1"

static void start_triple_ko(struct referee *r, const struct rules *rs)
{
	char d[9 * 10 + 1];
	ck_assert_int_eq(referee_init(r, 9, 7.5, 0, rs), 0);
	play_seq(r, TRIPLE_KO_SETUP);
	board_diagram(&r->board, d);
	ck_assert_str_eq(d, "XO.O.....\n"
			    ".XO......\n"
			    ".........\n"
			    ".........\n"
			    ".........\n"
			    ".........\n"
			    ".........\n"
			    ".XO...XO.\n"
			    "XO.O.X.XO\n");
	ck_assert_int_eq(r->board.to_move, BLACK);
	play_seq(r, TRIPLE_KO_CYCLE);
}

START_TEST(test_cycle_void_simple_ko)
{
	struct referee r;
	struct referee_move m;
	struct rules rs = rules_with(KO_SIMPLE, ILLEGAL_FORFEIT, CYCLE_VOID, COUNTING_AGREEMENT);
	start_triple_ko(&r, &rs);
	m = play(&r, WHITE, "B9");
	ck_assert_int_eq(m.offence, OFFENCE_SUPERKO);
	ck_assert(m.voided && m.ended && !m.lost && !m.forfeit_turn);
	ck_assert_int_eq(m.number, 0);
	ck_assert_int_eq(r.phase, PHASE_ENDED);
	ck_assert_str_eq(r.result, "Void");
	ck_assert_int_eq(r.reason, END_CYCLE);
	referee_free(&r);
}
END_TEST

START_TEST(test_cycle_void_situational)
{
	struct referee r;
	struct referee_move m;
	struct rules rs = rules_with(KO_SITUATIONAL, ILLEGAL_FORFEIT, CYCLE_VOID, COUNTING_AGREEMENT);
	start_triple_ko(&r, &rs);
	m = play(&r, WHITE, "B9");
	ck_assert(m.voided && m.ended);
	ck_assert_str_eq(r.result, "Void");
	ck_assert_int_eq(r.reason, END_CYCLE);
	referee_free(&r);
}
END_TEST

START_TEST(test_cycle_forbid)
{
	for (int ko = KO_SITUATIONAL; ko <= KO_SIMPLE; ko++) {
		struct referee r;
		struct referee_move m;
		struct rules rs = rules_with((enum ko_rule)ko, ILLEGAL_FORFEIT, CYCLE_FORBID,
					     COUNTING_AGREEMENT);
		start_triple_ko(&r, &rs);
		m = play(&r, WHITE, "B9");
		expect_forfeit(&m, OFFENCE_SUPERKO, 22, true);
		ck_assert(!m.voided && !m.ended);
		ck_assert_int_eq(stones_at(&r, "B9"), EMPTY);
		ck_assert_int_eq(stones_at(&r, "C9"), BLACK);
		ck_assert_int_eq(r.warnings[WHITE], 1);
		ck_assert_int_eq(r.phase, PHASE_PLAYING);
		referee_free(&r);
	}
}
END_TEST

/* `cycle: void` does not void a simple ko retake: that is a forfeit and a warning. */
START_TEST(test_cycle_void_not_on_simple_ko)
{
	for (int ko = KO_SITUATIONAL; ko <= KO_SIMPLE; ko++) {
		struct referee r;
		struct referee_move m;
		struct rules rs = rules_with((enum ko_rule)ko, ILLEGAL_FORFEIT, CYCLE_VOID,
					     COUNTING_AGREEMENT);
		ck_assert_int_eq(referee_init(&r, 7, 7.5, 0, &rs), 0);
		play_seq(&r, KO_SETUP);
		m = play(&r, WHITE, "C3");
		expect_forfeit(&m, OFFENCE_SUPERKO, 10, true);
		ck_assert(!m.voided && !m.ended);
		ck_assert_int_eq(r.phase, PHASE_PLAYING);
		ck_assert_str_eq(r.result, "");
		referee_free(&r);
	}
}
END_TEST

/* "Sending two, returning one" in the corner, then a pass: Black's throw-in (no capture)
 * recreates the position after move 7 with White to move. Art. 6/20: that move is the
 * repetition, whatever it captures. */
#define SEND_TWO_SETUP "C2 A2 B1 B2 D1 E5"

START_TEST(test_cycle_without_capture)
{
	static const enum ko_rule kos[] = {KO_SITUATIONAL, KO_SIMPLE};
	for (size_t i = 0; i < sizeof kos / sizeof *kos; i++) {
		struct referee r;
		struct referee_move m;
		struct rules rs = rules_with(kos[i], ILLEGAL_FORFEIT, CYCLE_FORBID, COUNTING_AGREEMENT);
		ck_assert_int_eq(referee_init(&r, 5, 7.5, 0, &rs), 0);
		play_seq(&r, SEND_TWO_SETUP);
		play_seq(&r, "A1 C1 B1 pass"); /* B1 recaptures: a new situation (White to move) */
		m = play(&r, BLACK, "A1");
		expect_forfeit(&m, OFFENCE_SUPERKO, 11, true);
		ck_assert_int_eq(stones_at(&r, "A1"), EMPTY);
		referee_free(&r);
	}
}
END_TEST

/* ================================ ends ================================ */

START_TEST(test_resign)
{
	struct referee r;
	struct referee_move m;
	ck_assert_int_eq(referee_init(&r, 9, 7.5, 0, NULL), 0);
	play_seq(&r, "E5");
	ck_assert_int_eq(referee_resign(&r, EMPTY), -1);
	ck_assert_int_eq(r.phase, PHASE_PLAYING);
	ck_assert_int_eq(referee_resign(&r, BLACK), 0); /* not on move: still allowed */
	ck_assert_int_eq(r.phase, PHASE_ENDED);
	ck_assert_str_eq(r.result, "W+R");
	ck_assert_int_eq(r.reason, END_RESIGNATION);
	ck_assert_int_eq(referee_resign(&r, WHITE), -1);
	ck_assert_str_eq(r.result, "W+R");
	ck_assert_int_eq(referee_play(&r, WHITE, BOARD_PASS, &m), -1);
	referee_free(&r);

	/* In counting. */
	open_counting(&r, NULL);
	ck_assert_int_eq(referee_resign(&r, WHITE), 0);
	ck_assert_str_eq(r.result, "B+R");
	ck_assert(!r.scored);
	referee_free(&r);
}
END_TEST

START_TEST(test_end_override)
{
	struct referee r;
	bool ended, resumed;
	ck_assert_int_eq(referee_init(&r, 9, 7.5, 0, NULL), 0);
	ck_assert_int_eq(referee_end(&r, "B+T", END_TIME, false), 0);
	ck_assert_int_eq(r.phase, PHASE_ENDED);
	ck_assert_str_eq(r.result, "B+T");
	ck_assert_int_eq(r.reason, END_TIME);
	ck_assert_int_eq(referee_end(&r, "W+T", END_TIME, false), -1);
	ck_assert_str_eq(r.result, "B+T");
	ck_assert_int_eq(referee_end(&r, "W+F", END_ADJUDICATED, true), 0);
	ck_assert_str_eq(r.result, "W+F");
	ck_assert_int_eq(r.reason, END_ADJUDICATED);
	referee_free(&r);

	/* A counted game changed by a director is no longer "scored". */
	open_counting(&r, NULL);
	ck_assert_int_eq(referee_dead(&r, BLACK, NULL, 0, &ended, &resumed), 0);
	ck_assert_int_eq(referee_dead(&r, WHITE, NULL, 0, &ended, &resumed), 0);
	ck_assert(ended && r.scored);
	ck_assert_int_eq(referee_end(&r, "0", END_ADJUDICATED, false), -1);
	ck_assert(r.scored);
	ck_assert_int_eq(referee_end(&r, "0", END_ADJUDICATED, true), 0);
	ck_assert(!r.scored);
	ck_assert_str_eq(r.result, "0");
	referee_free(&r);

	/* From counting, and a double forfeit before play. */
	open_counting(&r, NULL);
	ck_assert_int_eq(referee_end(&r, "W+T", END_TIME, false), 0);
	ck_assert_int_eq(r.phase, PHASE_ENDED);
	referee_free(&r);
	ck_assert_int_eq(referee_init(&r, 19, 7.5, 0, NULL), 0);
	ck_assert_int_eq(referee_end(&r, "Void", END_DOUBLE_FORFEIT, false), 0);
	ck_assert_int_eq(r.reason, END_DOUBLE_FORFEIT);
	referee_free(&r);
}
END_TEST

/* ================================ handicap ================================ */

START_TEST(test_handicap_game)
{
	struct referee r;
	struct referee_move m;
	ck_assert_int_eq(referee_init(&r, 19, 0.5, 4, NULL), 0);
	ck_assert_int_eq(r.handicap, 4);
	ck_assert_int_eq(board_count(&r.board, BLACK), 4);
	const char *stones[] = {"D4", "Q16", "D16", "Q4"};
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(stones_at(&r, stones[i]), BLACK);
	ck_assert_uint_eq(board_moves(&r.board), 0);
	/* Art. 2: White moves first. */
	ck_assert_int_eq(r.board.to_move, WHITE);
	m = play(&r, BLACK, "K10");
	ck_assert_int_eq(m.offence, OFFENCE_NOT_YOUR_TURN);
	ck_assert_int_eq(r.warnings[BLACK], 1);
	m = play(&r, WHITE, "R3");
	ck_assert_int_eq(m.offence, OFFENCE_NONE);
	ck_assert_int_eq(m.number, 1);
	referee_free(&r);

	/* Counting gives White one point per handicap stone. */
	struct rules rs = rules_with(KO_SITUATIONAL, ILLEGAL_FORFEIT, CYCLE_FORBID, COUNTING_ALL_ALIVE);
	ck_assert_int_eq(referee_init(&r, 9, 0.5, 2, &rs), 0);
	ck_assert_int_eq(stones_at(&r, "C3"), BLACK);
	ck_assert_int_eq(stones_at(&r, "G7"), BLACK);
	play_seq(&r, "pass");
	m = play(&r, BLACK, "pass");
	ck_assert(m.ended);
	ck_assert(r.score.black == 81);
	ck_assert(r.score.white == 0);
	ck_assert(r.score.komi == 2.5);
	ck_assert_str_eq(r.result, "B+78.5");
	struct score s;
	referee_count(&r, NULL, &s);
	ck_assert(s.komi == 2.5);
	referee_free(&r);
}
END_TEST

/* Free handicap placement (issue 19; GTP 2 §6.3.3): nothing placed at the start, Black's turn,
 * no move accepted; every wrong placement refused with nothing changed; a right one places the
 * stones, White moves, and the count is that of fixed stones (one point per stone). */
START_TEST(test_handicap_free)
{
	struct referee r;
	struct referee_move m;
	struct rules rs = rules_with(KO_SITUATIONAL, ILLEGAL_FORFEIT, CYCLE_FORBID, COUNTING_ALL_ALIVE);
	ck_assert_int_eq(referee_init_free(&r, 9, 0.5, 1, &rs), -1);  /* 1: nothing to place */
	ck_assert_int_eq(referee_init_free(&r, 5, 0.5, 2, &rs), -1);  /* the board holds none */
	ck_assert_int_eq(referee_init_free(&r, 7, 0.5, 5, &rs), -1);  /* 7x7 holds 4 */
	ck_assert_int_eq(referee_init_free(&r, 9, 0.5, 3, &rs), 0);
	ck_assert(r.placing && r.free_handicap);
	ck_assert_int_eq(r.handicap, 3);
	ck_assert_int_eq(board_count(&r.board, BLACK), 0);
	ck_assert_int_eq(r.board.to_move, BLACK);
	/* No move before the stones, by either side. */
	ck_assert_int_eq(referee_play(&r, BLACK, V(&r, "E5"), &m), -1);
	ck_assert_int_eq(referee_play(&r, WHITE, V(&r, "E5"), &m), -1);
	ck_assert_int_eq(referee_play(&r, BLACK, BOARD_PASS, &m), -1);
	ck_assert_int_eq(r.warnings[WHITE], 0);
	int good[3] = {V(&r, "A1"), V(&r, "E5"), V(&r, "J9")};
	int two[2] = {good[0], good[1]};
	int four[4] = {good[0], good[1], good[2], V(&r, "C3")};
	int dup[3] = {good[0], good[1], good[0]};
	int off[3] = {good[0], BOARD_PASS, good[2]};
	int off2[3] = {good[0], good[1], 0};
	int bad = 99;
	ck_assert_int_eq(referee_place_free(&r, WHITE, good, 3, &bad), REFEREE_PLACE_NOT_BLACK);
	ck_assert_int_eq(bad, -1);
	ck_assert_int_eq(referee_place_free(&r, BLACK, two, 2, &bad), REFEREE_PLACE_COUNT);
	ck_assert_int_eq(referee_place_free(&r, BLACK, four, 4, &bad), REFEREE_PLACE_COUNT);
	ck_assert_int_eq(referee_place_free(&r, BLACK, dup, 3, &bad), REFEREE_PLACE_DUPLICATE);
	ck_assert_int_eq(bad, 2);
	ck_assert_int_eq(referee_place_free(&r, BLACK, off, 3, &bad), REFEREE_PLACE_OFF_BOARD);
	ck_assert_int_eq(bad, 1);
	ck_assert_int_eq(referee_place_free(&r, BLACK, off2, 3, &bad), REFEREE_PLACE_OFF_BOARD);
	ck_assert_int_eq(bad, 2);
	/* Nothing changed by the refusals. */
	ck_assert(r.placing);
	ck_assert_int_eq(board_count(&r.board, BLACK), 0);
	ck_assert_int_eq(r.board.to_move, BLACK);
	ck_assert_int_eq(referee_place_free(&r, BLACK, good, 3, &bad), REFEREE_PLACE_OK);
	ck_assert(!r.placing);
	ck_assert_int_eq(board_count(&r.board, BLACK), 3);
	ck_assert_uint_eq(r.board.nsetup, 3);
	ck_assert_uint_eq(board_moves(&r.board), 0);
	ck_assert_int_eq(stones_at(&r, "J9"), BLACK);
	ck_assert_int_eq(r.free_pts[1], good[1]);
	ck_assert_int_eq(r.board.to_move, WHITE);
	/* Once placed, no second placement; play goes on with White first (Art. 2). */
	ck_assert_int_eq(referee_place_free(&r, BLACK, good, 3, &bad), REFEREE_PLACE_NOT_PLACING);
	m = play(&r, BLACK, "C3");
	ck_assert_int_eq(m.offence, OFFENCE_NOT_YOUR_TURN);
	m = play(&r, WHITE, "E5");
	ck_assert_int_eq(m.offence, OFFENCE_OCCUPIED);
	m = play(&r, BLACK, "pass"); /* after White's forfeited turn: counting, all alive */
	ck_assert(m.ended);
	ck_assert(r.score.black == 81 - 1); /* less Black's warning above (Art. 24.1) */
	ck_assert(r.score.komi == 3.5);    /* 0.5 + one point per stone (Art. 11) */
	ck_assert_str_eq(r.result, "B+75.5"); /* 80 - (1 + 3.5) */
	referee_free(&r);
}
END_TEST

/* A McMahon handicap of one stone (issue 15): no stones placed, Black moves first, and no
 * compensation (score_handicap_compensation(1) = 0): the komi counted is the game's komi. Also
 * on 5x5, where no stone can be placed. */
START_TEST(test_handicap_one)
{
	struct referee r;
	struct referee_move m;
	struct rules rs = rules_with(KO_SITUATIONAL, ILLEGAL_FORFEIT, CYCLE_FORBID, COUNTING_ALL_ALIVE);
	for (int size = 5; size <= 19; size += 14) {
		ck_assert_int_eq(referee_init(&r, size, 0.5, 1, &rs), 0);
		ck_assert_int_eq(r.handicap, 1);
		ck_assert_int_eq(board_count(&r.board, BLACK), 0);
		ck_assert_uint_eq(r.board.nsetup, 0);
		ck_assert_int_eq(r.board.to_move, BLACK);
		m = play(&r, WHITE, "C3");
		ck_assert_int_eq(m.offence, OFFENCE_NOT_YOUR_TURN);
		m = play(&r, BLACK, "C3");
		ck_assert_int_eq(m.offence, OFFENCE_NONE);
		ck_assert_int_eq(m.number, 1);
		play_seq(&r, "pass");
		m = play(&r, BLACK, "pass");
		ck_assert(m.ended);
		ck_assert(r.score.black == size * size + 1); /* + White's warning (Art. 24.1) */
		ck_assert(r.score.komi == 0.5);
		ck_assert_str_eq(r.result, size == 5 ? "B+26.5" : "B+362.5");
		referee_free(&r);
	}
}
END_TEST

/* ================================ names ================================ */

START_TEST(test_names)
{
	static const struct { enum game_phase v; const char *name; } phases[] = {
		{PHASE_PENDING, "pending"}, {PHASE_SCHEDULED, "scheduled"}, {PHASE_PLAYING, "playing"},
		{PHASE_COUNTING, "counting"}, {PHASE_ENDED, "ended"}};
	for (size_t i = 0; i < sizeof phases / sizeof *phases; i++) {
		enum game_phase p = PHASE_ENDED;
		ck_assert_str_eq(referee_phase_name(phases[i].v), phases[i].name);
		ck_assert_int_eq(referee_phase_parse(phases[i].name, &p), 0);
		ck_assert_int_eq(p, phases[i].v);
	}
	static const struct { enum end_reason v; const char *name; } reasons[] = {
		{END_RESIGNATION, "resignation"}, {END_TIME, "time"}, {END_SCORE, "score"},
		{END_WARNINGS, "warnings"}, {END_ILLEGAL, "illegal"}, {END_LATENESS, "lateness"},
		{END_DOUBLE_FORFEIT, "double_forfeit"}, {END_ADJUDICATED, "adjudicated"},
		{END_CYCLE, "cycle"}, {END_DECLINED, "declined"},
		{END_EXPIRED, "expired"}};
	for (size_t i = 0; i < sizeof reasons / sizeof *reasons; i++) {
		enum end_reason e = END_NONE;
		ck_assert_str_eq(referee_reason_name(reasons[i].v), reasons[i].name);
		ck_assert_int_eq(referee_reason_parse(reasons[i].name, &e), 0);
		ck_assert_int_eq(e, reasons[i].v);
	}
	static const struct { enum offence v; const char *name; } offences[] = {
		{OFFENCE_OCCUPIED, "occupied"}, {OFFENCE_SUICIDE, "suicide"},
		{OFFENCE_SUPERKO, "superko"}, {OFFENCE_NOT_YOUR_TURN, "not_your_turn"}};
	for (size_t i = 0; i < sizeof offences / sizeof *offences; i++) {
		enum offence o = OFFENCE_NONE;
		ck_assert_str_eq(referee_offence_name(offences[i].v), offences[i].name);
		ck_assert_int_eq(referee_offence_parse(offences[i].name, &o), 0);
		ck_assert_int_eq(o, offences[i].v);
	}
	/* Unknown names fail and leave the output alone; out-of-range values have no name. */
	enum game_phase p = PHASE_COUNTING;
	ck_assert_int_eq(referee_phase_parse("Playing", &p), -1);
	ck_assert_int_eq(referee_phase_parse(NULL, &p), -1);
	ck_assert_int_eq(p, PHASE_COUNTING);
	enum end_reason e = END_TIME;
	ck_assert_int_eq(referee_reason_parse("resign", &e), -1);
	ck_assert_int_eq(e, END_TIME);
	enum offence o = OFFENCE_SUICIDE;
	ck_assert_int_eq(referee_offence_parse("ko", &o), -1);
	ck_assert_int_eq(o, OFFENCE_SUICIDE);
	ck_assert_str_eq(referee_phase_name((enum game_phase)99), "");
	ck_assert_str_eq(referee_reason_name((enum end_reason)-1), "");
	ck_assert_str_eq(referee_offence_name((enum offence)17), "");
}
END_TEST

START_TEST(test_rules_names)
{
	static const char *ko[] = {"situational", "positional", "simple"};
	for (int i = 0; i < 3; i++) {
		enum ko_rule k = (enum ko_rule)7;
		ck_assert_int_eq(rules_parse_ko(ko[i], &k), 0);
		ck_assert_int_eq(k, i);
		ck_assert_str_eq(rules_ko_name(k), ko[i]);
	}
	enum rule_illegal il;
	ck_assert_int_eq(rules_parse_illegal("lose", &il), 0);
	ck_assert_int_eq(il, ILLEGAL_LOSE);
	ck_assert_str_eq(rules_illegal_name(ILLEGAL_FORFEIT), "forfeit");
	enum rule_cycle cy;
	ck_assert_int_eq(rules_parse_cycle("void", &cy), 0);
	ck_assert_int_eq(cy, CYCLE_VOID);
	ck_assert_str_eq(rules_cycle_name(CYCLE_FORBID), "forbid");
	enum rule_counting co;
	ck_assert_int_eq(rules_parse_counting("all-alive", &co), 0);
	ck_assert_int_eq(co, COUNTING_ALL_ALIVE);
	ck_assert_str_eq(rules_counting_name(COUNTING_AGREEMENT), "agreement");
	enum rule_last_period lp;
	ck_assert_int_eq(rules_parse_last_period("pass", &lp), 0);
	ck_assert_int_eq(lp, LAST_PERIOD_PASS);
	ck_assert_str_eq(rules_last_period_name(LAST_PERIOD_LOSE), "lose");
	enum ko_rule k = KO_SIMPLE;
	ck_assert_int_eq(rules_parse_ko("superko", &k), -1);
	ck_assert_int_eq(rules_parse_ko(NULL, &k), -1);
	ck_assert_int_eq(k, KO_SIMPLE);
	ck_assert_str_eq(rules_ko_name((enum ko_rule)9), "?");
}
END_TEST

/* ================================ main ================================ */

static Suite *referee_suite(void)
{
	Suite *s = suite_create("referee");
	TCase *tc = tcase_create("referee");
	tcase_add_test(tc, test_init);
	tcase_add_test(tc, test_bad_requests);
	tcase_add_test(tc, test_full_game_agreement);
	tcase_add_test(tc, test_claims_differ_black_first);
	tcase_add_test(tc, test_claims_differ_white_first);
	tcase_add_test(tc, test_claims_differ_both_first_passer);
	tcase_add_test(tc, test_all_alive);
	tcase_add_test(tc, test_occupied_suicide_forfeit);
	tcase_add_test(tc, test_suicide_forfeit);
	tcase_add_test(tc, test_forfeit_then_pass_opens_counting);
	tcase_add_test(tc, test_ko_retake_forfeits_and_warns);
	tcase_add_test(tc, test_two_warnings_lose);
	tcase_add_test(tc, test_out_of_turn);
	tcase_add_test(tc, test_illegal_lose);
	tcase_add_test(tc, test_cycle_void_simple_ko);
	tcase_add_test(tc, test_cycle_void_situational);
	tcase_add_test(tc, test_cycle_forbid);
	tcase_add_test(tc, test_cycle_void_not_on_simple_ko);
	tcase_add_test(tc, test_cycle_without_capture);
	tcase_add_test(tc, test_resign);
	tcase_add_test(tc, test_end_override);
	tcase_add_test(tc, test_handicap_game);
	tcase_add_test(tc, test_handicap_one);
	tcase_add_test(tc, test_handicap_free);
	tcase_add_test(tc, test_dispute_bound);
	tcase_add_test(tc, test_count_lapse);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_rules_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(referee_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
