/* Tests for common/clock: every system through its edges (Art. 12.3-12.5, 22.2, 22.5). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

#define S 1000LL /* one second in ms */

static struct clock_control byo(int64_t main_ms, int periods, int64_t period_ms)
{
	struct clock_control tc = {.system = CLOCK_BYOYOMI, .main_ms = main_ms,
				   .periods = periods, .period_ms = period_ms};
	return tc;
}

static struct clock_control canadian(int64_t main_ms, int stones, int64_t period_ms, bool carry)
{
	struct clock_control tc = {.system = CLOCK_CANADIAN, .main_ms = main_ms, .stones = stones,
				   .period_ms = period_ms, .carry = carry};
	return tc;
}

static struct clock_control fischer(int64_t main_ms, int64_t inc, int64_t max)
{
	struct clock_control tc = {.system = CLOCK_FISCHER, .main_ms = main_ms,
				   .increment_ms = inc, .max_ms = max};
	return tc;
}

static struct clock_control absolute(int64_t main_ms)
{
	struct clock_control tc = {.system = CLOCK_ABSOLUTE, .main_ms = main_ms};
	return tc;
}

static struct clock_state fresh(const struct clock_control *tc)
{
	struct clock_state s;
	ck_assert_int_eq(clock_init(tc, &s), 0);
	return s;
}

#define ck_state(s, m, p, pm, st)                                                  \
	do {                                                                       \
		ck_assert_int_eq((s).main_ms, (m));                                \
		ck_assert_int_eq((s).periods, (p));                                \
		ck_assert_int_eq((s).period_ms, (pm));                             \
		ck_assert_int_eq((s).stones, (st));                                \
	} while (0)

#define ck_same(a, b) ck_state((a), (b).main_ms, (b).periods, (b).period_ms, (b).stones)

/* ---- control check and init ---- */

START_TEST(control_check)
{
	struct clock_control tc;
	const char *why = NULL;

	tc = byo(0, 3, 30 * S);
	ck_assert_int_eq(clock_control_check(&tc, &why), 0);
	ck_assert_ptr_null(why);
	tc = byo(0, 0, 30 * S);
	ck_assert_int_eq(clock_control_check(&tc, &why), -1);
	ck_assert_ptr_nonnull(why);
	ck_assert_ptr_nonnull(strstr(why, "periods"));
	tc = byo(0, CLOCK_PERIODS_MAX + 1, 30 * S);
	ck_assert_int_eq(clock_control_check(&tc, NULL), -1);
	tc = byo(0, 3, 0);
	ck_assert_int_eq(clock_control_check(&tc, NULL), -1);
	tc = byo(-1, 3, 30 * S);
	ck_assert_int_eq(clock_control_check(&tc, NULL), -1);
	tc = byo(CLOCK_MAIN_MAX_MS + 1, 3, 30 * S);
	ck_assert_int_eq(clock_control_check(&tc, NULL), -1);
	tc = byo(CLOCK_MAIN_MAX_MS, CLOCK_PERIODS_MAX, CLOCK_PERIOD_MAX_MS);
	ck_assert_int_eq(clock_control_check(&tc, NULL), 0);
	tc = canadian(0, 0, 300 * S, true);
	ck_assert_int_eq(clock_control_check(&tc, NULL), -1);
	tc = canadian(0, CLOCK_STONES_MAX + 1, 300 * S, true);
	ck_assert_int_eq(clock_control_check(&tc, NULL), -1);
	tc = canadian(0, 25, CLOCK_PERIOD_MAX_MS + 1, true);
	ck_assert_int_eq(clock_control_check(&tc, NULL), -1);
	tc = canadian(0, 25, 300 * S, false);
	ck_assert_int_eq(clock_control_check(&tc, NULL), 0);
	tc = absolute(0);
	ck_assert_int_eq(clock_control_check(&tc, NULL), -1);
	tc = absolute(1);
	ck_assert_int_eq(clock_control_check(&tc, NULL), 0);
	tc = fischer(0, 10 * S, 0);
	ck_assert_int_eq(clock_control_check(&tc, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "fischer"));
	tc = fischer(300 * S, -1, 0);
	ck_assert_int_eq(clock_control_check(&tc, NULL), -1);
	tc = fischer(300 * S, CLOCK_INCREMENT_MAX_MS + 1, 0);
	ck_assert_int_eq(clock_control_check(&tc, NULL), -1);
	tc = fischer(300 * S, 10 * S, 299 * S); /* cap below main */
	ck_assert_int_eq(clock_control_check(&tc, NULL), -1);
	tc = fischer(300 * S, 10 * S, 300 * S);
	ck_assert_int_eq(clock_control_check(&tc, NULL), 0);
	tc = (struct clock_control){.system = CLOCK_NONE};
	ck_assert_int_eq(clock_control_check(&tc, NULL), 0);
	tc = (struct clock_control){.system = (enum clock_system)99};
	ck_assert_int_eq(clock_control_check(&tc, NULL), -1);
	ck_assert_int_eq(clock_control_check(NULL, NULL), -1);
}
END_TEST

START_TEST(init_each_system)
{
	struct clock_control tc;
	struct clock_state s = {7, 7, 7, 7};

	tc = byo(600 * S, 3, 30 * S);
	s = fresh(&tc);
	ck_state(s, 600 * S, 3, 30 * S, 0);
	tc = canadian(600 * S, 25, 300 * S, true);
	s = fresh(&tc);
	ck_state(s, 600 * S, 0, 300 * S, 25);
	tc = fischer(300 * S, 10 * S, 600 * S);
	s = fresh(&tc);
	ck_state(s, 300 * S, 0, 0, 0);
	tc = absolute(1800 * S);
	s = fresh(&tc);
	ck_state(s, 1800 * S, 0, 0, 0);
	tc = (struct clock_control){.system = CLOCK_NONE, .main_ms = 5};
	s = fresh(&tc);
	ck_state(s, 0, 0, 0, 0);
	/* A bad control leaves *out alone. */
	s = (struct clock_state){7, 7, 7, 7};
	tc = byo(0, 0, 30 * S);
	ck_assert_int_eq(clock_init(&tc, &s), -1);
	ck_state(s, 7, 7, 7, 7);
}
END_TEST

/* ---- byo-yomi (Art. 12.3, 22.5) ---- */

START_TEST(byoyomi_period_boundary)
{
	struct clock_control tc = byo(0, 3, 30 * S);
	struct clock_state s = fresh(&tc), p;

	ck_assert_int_eq(clock_remaining(&tc, &s), 90 * S);
	/* One ms before the period ends: in time, the period is fresh again. */
	ck_assert_int_eq(clock_move(&tc, &s, 30 * S - 1), CLOCK_OK);
	ck_state(s, 0, 3, 30 * S, 0);
	/* Exactly at the period's end: that period is gone, the move is at 0 ms of the next. */
	ck_assert_int_eq(clock_move(&tc, &s, 30 * S), CLOCK_OK);
	ck_state(s, 0, 2, 30 * S, 0);
	ck_assert_int_eq(clock_remaining(&tc, &s), 60 * S);
	/* Peeks part-way show the current period running down. */
	ck_assert_int_eq(clock_peek(&tc, &s, 30 * S - 1, &p), CLOCK_OK);
	ck_state(p, 0, 2, 1, 0);
	ck_assert_int_eq(clock_peek(&tc, &s, 30 * S, &p), CLOCK_OK);
	ck_state(p, 0, 1, 30 * S, 0);
	ck_assert_int_eq(clock_peek(&tc, &s, 0, &p), CLOCK_OK);
	ck_state(p, 0, 2, 30 * S, 0);
	/* Peek does not change s. */
	ck_state(s, 0, 2, 30 * S, 0);
	/* Time is not banked: a quick move leaves the period at its full length. */
	ck_assert_int_eq(clock_move(&tc, &s, 1), CLOCK_OK);
	ck_state(s, 0, 2, 30 * S, 0);
}
END_TEST

START_TEST(byoyomi_long_move_uses_several_periods)
{
	struct clock_control tc = byo(0, 5, 10 * S);
	struct clock_state s = fresh(&tc), p;

	ck_assert_int_eq(clock_peek(&tc, &s, 35 * S, &p), CLOCK_OK);
	ck_state(p, 0, 2, 5 * S, 0);
	ck_assert_int_eq(clock_move(&tc, &s, 35 * S), CLOCK_OK);
	ck_state(s, 0, 2, 10 * S, 0);
	ck_assert_int_eq(clock_move(&tc, &s, 19999), CLOCK_OK);
	ck_state(s, 0, 1, 10 * S, 0);
}
END_TEST

START_TEST(byoyomi_main_runs_out_mid_move)
{
	struct clock_control tc = byo(60 * S, 3, 30 * S);
	struct clock_state s = fresh(&tc), p;

	ck_assert_int_eq(clock_remaining(&tc, &s), 150 * S);
	/* Main time and part of the first period: the period is not used up. */
	ck_assert_int_eq(clock_peek(&tc, &s, 70 * S, &p), CLOCK_OK);
	ck_state(p, 0, 3, 20 * S, 0);
	/* Main time, one whole period and part of the next in one move. */
	s = fresh(&tc);
	ck_assert_int_eq(clock_move(&tc, &s, 95 * S), CLOCK_OK);
	ck_state(s, 0, 2, 30 * S, 0);
	/* A move at exactly the end of main time starts byo-yomi but uses no period. */
	s = fresh(&tc);
	ck_assert_int_eq(clock_move(&tc, &s, 60 * S), CLOCK_OK);
	ck_state(s, 0, 3, 30 * S, 0);
	/* Within main time only main time is used. */
	s = fresh(&tc);
	ck_assert_int_eq(clock_move(&tc, &s, 60 * S - 1), CLOCK_OK);
	ck_state(s, 1, 3, 30 * S, 0);
}
END_TEST

START_TEST(byoyomi_last_period_flag)
{
	struct clock_control tc = byo(10 * S, 3, 30 * S);
	struct clock_state s = fresh(&tc), p;

	/* One ms short of the deadline is in time, with the last period left. */
	ck_assert_int_eq(clock_move(&tc, &s, 100 * S - 1), CLOCK_OK);
	ck_state(s, 0, 1, 30 * S, 0);
	ck_assert_int_eq(clock_remaining(&tc, &s), 30 * S);
	ck_assert_int_eq(clock_peek(&tc, &s, 30 * S - 1, &p), CLOCK_OK);
	ck_state(p, 0, 1, 1, 0);
	ck_assert_int_eq(clock_peek(&tc, &s, 30 * S, &p), CLOCK_FLAG);
	ck_state(p, 0, 0, 0, 0);
	ck_assert_int_eq(clock_move(&tc, &s, 30 * S), CLOCK_FLAG);
	ck_state(s, 0, 0, 0, 0);
	ck_assert_int_eq(clock_remaining(&tc, &s), 0);
	/* A flagged clock stays flagged. */
	ck_assert_int_eq(clock_move(&tc, &s, 0), CLOCK_FLAG);
	/* All of it in one move. */
	s = fresh(&tc);
	ck_assert_int_eq(clock_move(&tc, &s, 100 * S), CLOCK_FLAG);
	ck_state(s, 0, 0, 0, 0);
	s = fresh(&tc);
	ck_assert_int_eq(clock_move(&tc, &s, INT64_MAX), CLOCK_FLAG);
	ck_state(s, 0, 0, 0, 0);
}
END_TEST

START_TEST(byoyomi_last_period_pass)
{
	struct clock_control tc = byo(0, 2, 20 * S);
	struct clock_state s = fresh(&tc);
	struct clock_control other = canadian(0, 5, 60 * S, true);
	struct clock_state cs = fresh(&other);

	ck_assert_int_eq(clock_move(&tc, &s, 40 * S), CLOCK_FLAG);
	/* Art. 22.5: the turn is forfeited, play goes on with the last period, fresh. */
	ck_assert_int_eq(clock_forfeit_period(&tc, &s), 0);
	ck_state(s, 0, 1, 20 * S, 0);
	ck_assert_int_eq(clock_remaining(&tc, &s), 20 * S);
	ck_assert_int_eq(clock_move(&tc, &s, 20 * S - 1), CLOCK_OK);
	ck_state(s, 0, 1, 20 * S, 0);
	/* It can happen again and again. */
	ck_assert_int_eq(clock_move(&tc, &s, 20 * S), CLOCK_FLAG);
	ck_assert_int_eq(clock_forfeit_period(&tc, &s), 0);
	ck_state(s, 0, 1, 20 * S, 0);
	/* Only byo-yomi has it. */
	ck_assert_int_eq(clock_forfeit_period(&other, &cs), -1);
	ck_state(cs, 0, 0, 60 * S, 5);
}
END_TEST

/* ---- Canadian (Art. 12.5) ---- */

START_TEST(canadian_block_early_carry)
{
	struct clock_control tc = canadian(0, 3, 30 * S, true);
	struct clock_state s = fresh(&tc);

	ck_assert_int_eq(clock_move(&tc, &s, 5 * S), CLOCK_OK);
	ck_state(s, 0, 0, 25 * S, 2);
	ck_assert_int_eq(clock_move(&tc, &s, 5 * S), CLOCK_OK);
	ck_state(s, 0, 0, 20 * S, 1);
	/* Block complete with 15 s to spare: the next block has 30 + 15 s. */
	ck_assert_int_eq(clock_move(&tc, &s, 5 * S), CLOCK_OK);
	ck_state(s, 0, 0, 45 * S, 3);
	ck_assert_int_eq(clock_remaining(&tc, &s), 45 * S);
	/* The carried time is usable. */
	ck_assert_int_eq(clock_move(&tc, &s, 40 * S), CLOCK_OK);
	ck_state(s, 0, 0, 5 * S, 2);
}
END_TEST

START_TEST(canadian_block_early_no_carry)
{
	struct clock_control tc = canadian(0, 3, 30 * S, false);
	struct clock_state s = fresh(&tc);

	ck_assert_int_eq(clock_move(&tc, &s, 5 * S), CLOCK_OK);
	ck_assert_int_eq(clock_move(&tc, &s, 5 * S), CLOCK_OK);
	ck_state(s, 0, 0, 20 * S, 1);
	ck_assert_int_eq(clock_move(&tc, &s, 5 * S), CLOCK_OK);
	ck_state(s, 0, 0, 30 * S, 3);
	/* The last stone of a block at 1 ms before its end still starts a fresh block. */
	ck_assert_int_eq(clock_move(&tc, &s, 10 * S), CLOCK_OK);
	ck_assert_int_eq(clock_move(&tc, &s, 10 * S), CLOCK_OK);
	ck_assert_int_eq(clock_move(&tc, &s, 10 * S - 1), CLOCK_OK);
	ck_state(s, 0, 0, 30 * S, 3);
}
END_TEST

START_TEST(canadian_main_then_overtime)
{
	struct clock_control tc = canadian(60 * S, 5, 100 * S, true);
	struct clock_state s = fresh(&tc), p;

	ck_assert_int_eq(clock_remaining(&tc, &s), 160 * S);
	/* Within main time: no stone counted. */
	ck_assert_int_eq(clock_move(&tc, &s, 60 * S - 1), CLOCK_OK);
	ck_state(s, 1, 0, 100 * S, 5);
	/* Main runs out mid-move: the rest comes off the block and the stone counts. */
	ck_assert_int_eq(clock_peek(&tc, &s, 10 * S + 1, &p), CLOCK_OK);
	ck_state(p, 0, 0, 90 * S, 5);
	ck_assert_int_eq(clock_move(&tc, &s, 10 * S + 1), CLOCK_OK);
	ck_state(s, 0, 0, 90 * S, 4);
	/* A move at exactly the end of main time is the block's first stone. */
	s = fresh(&tc);
	ck_assert_int_eq(clock_move(&tc, &s, 60 * S), CLOCK_OK);
	ck_state(s, 0, 0, 100 * S, 4);
}
END_TEST

START_TEST(canadian_runs_out)
{
	struct clock_control tc = canadian(0, 3, 30 * S, true);
	struct clock_state s = fresh(&tc), t;

	ck_assert_int_eq(clock_move(&tc, &s, 10 * S), CLOCK_OK);
	ck_state(s, 0, 0, 20 * S, 2);
	t = s;
	ck_assert_int_eq(clock_move(&tc, &t, 20 * S - 1), CLOCK_OK);
	ck_state(t, 0, 0, 1, 1);
	ck_assert_int_eq(clock_move(&tc, &t, 1), CLOCK_FLAG);
	ck_state(t, 0, 0, 0, 1);
	t = s;
	ck_assert_int_eq(clock_move(&tc, &t, 20 * S), CLOCK_FLAG);
	ck_state(t, 0, 0, 0, 2);
	ck_assert_int_eq(clock_remaining(&tc, &t), 0);
}
END_TEST

/* ---- Fischer, absolute (Art. 12.4), none ---- */

START_TEST(fischer_increment_and_cap)
{
	struct clock_control tc = fischer(10 * S, 5 * S, 0);
	struct clock_state s = fresh(&tc);

	ck_assert_int_eq(clock_move(&tc, &s, 1 * S), CLOCK_OK);
	ck_state(s, 14 * S, 0, 0, 0);
	ck_assert_int_eq(clock_move(&tc, &s, 0), CLOCK_OK);
	ck_state(s, 19 * S, 0, 0, 0);
	ck_assert_int_eq(clock_move(&tc, &s, 19 * S - 1), CLOCK_OK);
	ck_state(s, 5 * S + 1, 0, 0, 0);
	/* Running out: no increment. */
	ck_assert_int_eq(clock_move(&tc, &s, 5 * S + 1), CLOCK_FLAG);
	ck_state(s, 0, 0, 0, 0);

	tc = fischer(10 * S, 5 * S, 12 * S);
	s = fresh(&tc);
	ck_assert_int_eq(clock_move(&tc, &s, 1 * S), CLOCK_OK);
	ck_state(s, 12 * S, 0, 0, 0);
	ck_assert_int_eq(clock_move(&tc, &s, 4 * S), CLOCK_OK);
	ck_state(s, 12 * S, 0, 0, 0);
	ck_assert_int_eq(clock_move(&tc, &s, 6 * S), CLOCK_OK);
	ck_state(s, 11 * S, 0, 0, 0);
	ck_assert_int_eq(clock_remaining(&tc, &s), 11 * S);
}
END_TEST

START_TEST(absolute_flag)
{
	struct clock_control tc = absolute(60 * S);
	struct clock_state s = fresh(&tc), p;

	ck_assert_int_eq(clock_move(&tc, &s, 60 * S - 1), CLOCK_OK);
	ck_state(s, 1, 0, 0, 0);
	ck_assert_int_eq(clock_peek(&tc, &s, 0, &p), CLOCK_OK);
	ck_assert_int_eq(clock_peek(&tc, &s, 1, &p), CLOCK_FLAG);
	ck_state(p, 0, 0, 0, 0);
	ck_assert_int_eq(clock_move(&tc, &s, 1), CLOCK_FLAG);
	ck_state(s, 0, 0, 0, 0);
	s = fresh(&tc);
	ck_assert_int_eq(clock_move(&tc, &s, 60 * S), CLOCK_FLAG);
}
END_TEST

START_TEST(none_never_flags)
{
	struct clock_control tc = {.system = CLOCK_NONE};
	struct clock_state s = fresh(&tc), p;

	ck_assert_int_eq(clock_remaining(&tc, &s), CLOCK_UNLIMITED);
	ck_assert_int_eq(clock_move(&tc, &s, 0), CLOCK_OK);
	ck_assert_int_eq(clock_move(&tc, &s, INT64_MAX), CLOCK_OK);
	ck_assert_int_eq(clock_peek(&tc, &s, INT64_MAX, &p), CLOCK_OK);
	ck_state(s, 0, 0, 0, 0);
	ck_assert_int_eq(clock_lateness(&tc, &s, 10 * S), 0);
	ck_state(s, 0, 0, 0, 0);
	ck_assert_int_eq(clock_remaining(&tc, &s), CLOCK_UNLIMITED);
}
END_TEST

/* ---- lateness (Art. 22.2) ---- */

START_TEST(lateness_deduction)
{
	struct clock_control tc = byo(600 * S, 3, 30 * S);
	struct clock_state s = fresh(&tc);

	ck_assert_int_eq(clock_lateness(&tc, &s, 100 * S), 0);
	ck_state(s, 400 * S, 3, 30 * S, 0);
	/* Floored at 0, byo-yomi untouched. */
	ck_assert_int_eq(clock_lateness(&tc, &s, 200 * S + 1), 0);
	ck_state(s, 0, 3, 30 * S, 0);
	ck_assert_int_eq(clock_remaining(&tc, &s), 90 * S);
	/* Exactly all of it; odd main times. */
	s = fresh(&tc);
	ck_assert_int_eq(clock_lateness(&tc, &s, 300 * S), 0);
	ck_assert_int_eq(s.main_ms, 0);
	s.main_ms = 11;
	ck_assert_int_eq(clock_lateness(&tc, &s, 5), 0);
	ck_assert_int_eq(s.main_ms, 1);
	s.main_ms = 11;
	ck_assert_int_eq(clock_lateness(&tc, &s, 6), 0);
	ck_assert_int_eq(s.main_ms, 0);
	/* Huge lateness does not overflow. */
	s = fresh(&tc);
	ck_assert_int_eq(clock_lateness(&tc, &s, INT64_MAX), 0);
	ck_assert_int_eq(s.main_ms, 0);
	/* Zero lateness: no change; negative: error, no change. */
	s = fresh(&tc);
	ck_assert_int_eq(clock_lateness(&tc, &s, 0), 0);
	ck_state(s, 600 * S, 3, 30 * S, 0);
	ck_assert_int_eq(clock_lateness(&tc, &s, -1), -1);
	ck_state(s, 600 * S, 3, 30 * S, 0);
	/* Absolute time late by more than half: flags at the first move. */
	tc = absolute(60 * S);
	s = fresh(&tc);
	ck_assert_int_eq(clock_lateness(&tc, &s, 30 * S), 0);
	ck_assert_int_eq(clock_remaining(&tc, &s), 0);
	ck_assert_int_eq(clock_move(&tc, &s, 0), CLOCK_FLAG);
	/* Canadian: main only. */
	tc = canadian(60 * S, 10, 60 * S, true);
	s = fresh(&tc);
	ck_assert_int_eq(clock_lateness(&tc, &s, 20 * S), 0);
	ck_state(s, 20 * S, 0, 60 * S, 10);
}
END_TEST

/* ---- bad input changes nothing ---- */

START_TEST(bad_input)
{
	struct clock_control tc = byo(60 * S, 3, 30 * S);
	struct clock_control bad = byo(60 * S, 0, 30 * S);
	struct clock_state s = fresh(&tc), p = {7, 7, 7, 7}, wrong;

	ck_assert_int_eq(clock_move(&tc, &s, -1), CLOCK_EINVAL);
	ck_state(s, 60 * S, 3, 30 * S, 0);
	ck_assert_int_eq(clock_peek(&tc, &s, -1, &p), CLOCK_EINVAL);
	ck_state(p, 7, 7, 7, 7);
	ck_assert_int_eq(clock_move(&bad, &s, 1), CLOCK_EINVAL);
	ck_state(s, 60 * S, 3, 30 * S, 0);
	ck_assert_int_eq(clock_remaining(&bad, &s), -1);
	/* A state out of range for its control. */
	wrong = s;
	wrong.periods = 4;
	ck_assert_int_eq(clock_remaining(&tc, &wrong), -1);
	ck_assert_int_eq(clock_move(&tc, &wrong, 1), CLOCK_EINVAL);
	ck_assert_int_eq(wrong.periods, 4);
	wrong = s;
	wrong.period_ms = 30 * S + 1;
	ck_assert_int_eq(clock_move(&tc, &wrong, 1), CLOCK_EINVAL);
	wrong = s;
	wrong.main_ms = -1;
	ck_assert_int_eq(clock_lateness(&tc, &wrong, 1), -1);
	ck_assert_int_eq(wrong.main_ms, -1);
	tc = canadian(0, 5, 30 * S, true);
	wrong = fresh(&tc);
	wrong.stones = 0;
	ck_assert_int_eq(clock_move(&tc, &wrong, 1), CLOCK_EINVAL);
	ck_assert_int_eq(clock_move(&tc, NULL, 1), CLOCK_EINVAL);
	ck_assert_int_eq(clock_move(NULL, &s, 1), CLOCK_EINVAL);
	ck_assert_int_eq(clock_forfeit_period(&bad, &s), -1);
	ck_state(s, 60 * S, 3, 30 * S, 0);
}
END_TEST

/* ---- SGF and fields ---- */

START_TEST(sgf_text)
{
	struct clock_control tc;
	char ot[CLOCK_OT_MAX];
	int64_t t;
	int n;
	struct clock_state s;

	tc = byo(600 * S, 3, 30 * S);
	ck_assert_str_eq(clock_sgf_ot(&tc, ot), "3x30 byo-yomi");
	ck_assert(clock_sgf_tm(&tc) == 600.0);
	tc = byo(0, 5, 500);
	ck_assert_str_eq(clock_sgf_ot(&tc, ot), "5x0.5 byo-yomi");
	ck_assert(clock_sgf_tm(&tc) == 0.0);
	tc = byo(0, CLOCK_PERIODS_MAX, CLOCK_PERIOD_MAX_MS - 1);
	ck_assert_str_eq(clock_sgf_ot(&tc, ot), "100x86399.999 byo-yomi");
	tc = canadian(600 * S, 25, 300 * S, true);
	ck_assert_str_eq(clock_sgf_ot(&tc, ot), "25/300 Canadian");
	tc = canadian(600 * S, 25, 300 * S + 250, false);
	ck_assert_str_eq(clock_sgf_ot(&tc, ot), "25/300.25 Canadian");
	tc = fischer(300 * S, 10 * S, 0);
	ck_assert_str_eq(clock_sgf_ot(&tc, ot), "10 Fischer");
	ck_assert(clock_sgf_tm(&tc) == 300.0);
	tc = fischer(300 * S, 10 * S, 600 * S);
	ck_assert_str_eq(clock_sgf_ot(&tc, ot), "10 Fischer max 600");
	tc = absolute(1800 * S + 500);
	ck_assert_str_eq(clock_sgf_ot(&tc, ot), "");
	ck_assert(clock_sgf_tm(&tc) == 1800.5);
	tc = (struct clock_control){.system = CLOCK_NONE};
	ck_assert_str_eq(clock_sgf_ot(&tc, ot), "");
	ck_assert(clock_sgf_tm(&tc) == -1.0);
	tc = byo(0, 0, 30 * S);
	ck_assert_str_eq(clock_sgf_ot(&tc, ot), "");
	ck_assert(clock_sgf_tm(&tc) == -1.0);

	/* BL/OB: main time, then the period and periods left. */
	tc = byo(60 * S, 3, 30 * S);
	s = fresh(&tc);
	clock_sgf_left(&tc, &s, &t, &n);
	ck_assert_int_eq(t, 60 * S);
	ck_assert_int_eq(n, -1);
	ck_assert_int_eq(clock_move(&tc, &s, 100 * S), CLOCK_OK);
	clock_sgf_left(&tc, &s, &t, &n);
	ck_assert_int_eq(t, 30 * S);
	ck_assert_int_eq(n, 2);
	tc = canadian(0, 25, 300 * S, true);
	s = fresh(&tc);
	ck_assert_int_eq(clock_move(&tc, &s, 10 * S), CLOCK_OK);
	clock_sgf_left(&tc, &s, &t, &n);
	ck_assert_int_eq(t, 290 * S);
	ck_assert_int_eq(n, 24);
	tc = fischer(300 * S, 10 * S, 0);
	s = fresh(&tc);
	clock_sgf_left(&tc, &s, &t, &n);
	ck_assert_int_eq(t, 300 * S);
	ck_assert_int_eq(n, -1);
	tc = (struct clock_control){.system = CLOCK_NONE};
	s = fresh(&tc);
	clock_sgf_left(&tc, &s, &t, &n);
	ck_assert_int_eq(t, -1);
	ck_assert_int_eq(n, -1);
}
END_TEST

START_TEST(fields)
{
	ck_assert_uint_eq(clock_fields(CLOCK_NONE), 0);
	ck_assert_uint_eq(clock_fields(CLOCK_ABSOLUTE), CLOCK_F_MAIN);
	ck_assert_uint_eq(clock_fields(CLOCK_FISCHER), CLOCK_F_MAIN);
	ck_assert_uint_eq(clock_fields(CLOCK_BYOYOMI), CLOCK_F_MAIN | CLOCK_F_PERIODS | CLOCK_F_PERIOD);
	ck_assert_uint_eq(clock_fields(CLOCK_CANADIAN), CLOCK_F_MAIN | CLOCK_F_PERIOD | CLOCK_F_STONES);
	ck_assert_uint_eq(clock_fields((enum clock_system)42), 0);
}
END_TEST

/* ---- the deadline rule, at random ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void) /* xorshift64*, fixed seed: reproducible */
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static int64_t rnd_range(int64_t lo, int64_t hi) /* lo..hi inclusive */
{
	return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static struct clock_control random_control(void)
{
	switch (rnd() % 5) {
	case 0:
		return byo(rnd_range(0, 3) * rnd_range(0, 20 * S), (int)rnd_range(1, 5),
			   rnd_range(1, 10 * S));
	case 1:
		return canadian(rnd_range(0, 3) * rnd_range(0, 20 * S), (int)rnd_range(1, 5),
				rnd_range(1, 20 * S), rnd() % 2);
	case 2:
		{
			int64_t m = rnd_range(1, 30 * S);
			return fischer(m, rnd_range(0, 5 * S), rnd() % 2 ? 0 : m + rnd_range(0, 10 * S));
		}
	case 3:
		return absolute(rnd_range(1, 60 * S));
	default:
		return (struct clock_control){.system = CLOCK_NONE};
	}
}

/* An elapsed time near the deadline or anywhere below twice it. */
static int64_t random_elapsed(int64_t rem)
{
	if (rem == CLOCK_UNLIMITED)
		return rnd() % 2 ? INT64_MAX : rnd_range(0, 1000 * S);
	switch (rnd() % 6) {
	case 0:
		return rem;
	case 1:
		return rem > 0 ? rem - 1 : 0;
	case 2:
		return rem + 1;
	case 3:
		return rnd_range(0, rem / 4 + 1);
	default:
		return rnd_range(0, 2 * rem + 1);
	}
}

START_TEST(deadline_consistent)
{
	int games, flags = 0, oks = 0;

	for (games = 0; games < 3000; games++) {
		struct clock_control tc = random_control();
		struct clock_state s = fresh(&tc);
		int turn;

		for (turn = 0; turn < 60; turn++) {
			struct clock_state before = s, p;
			int64_t rem = clock_remaining(&tc, &s);
			int64_t el = random_elapsed(rem);
			enum clock_result rp, rm;

			ck_assert_int_ge(rem, 0);
			rp = clock_peek(&tc, &s, el, &p);
			rm = clock_move(&tc, &s, el);
			/* The flag falls iff elapsed >= remaining, for peek and move alike
			 * (none: never, not even at elapsed INT64_MAX == CLOCK_UNLIMITED). */
			if (tc.system == CLOCK_NONE)
				ck_assert_int_eq(rm, CLOCK_OK);
			else
				ck_assert_int_eq(rm, el >= rem ? CLOCK_FLAG : CLOCK_OK);
			ck_assert_int_eq(rp, rm);
			if (rm == CLOCK_FLAG) {
				flags++;
				ck_assert_int_eq(clock_remaining(&tc, &p), 0);
				ck_same(p, s);
				if (tc.system == CLOCK_BYOYOMI && rnd() % 2) {
					ck_assert_int_eq(clock_forfeit_period(&tc, &s), 0);
					continue;
				}
				break;
			}
			oks++;
			/* Peeking takes exactly the elapsed time off the time left. */
			if (tc.system != CLOCK_NONE)
				ck_assert_int_eq(clock_remaining(&tc, &p), rem - el);
			/* Peeking in steps is peeking at once. */
			if (tc.system != CLOCK_NONE) {
				struct clock_state q;
				int64_t a = rnd_range(0, el);
				ck_assert_int_eq(clock_peek(&tc, &before, a, &q), CLOCK_OK);
				ck_assert_int_eq(clock_peek(&tc, &q, el - a, &q), CLOCK_OK);
				ck_same(q, p);
			}
			/* After a move in time the clock is valid and never has less than the
			 * peek showed (periods reset, blocks renew, increments). */
			ck_assert_int_ge(clock_remaining(&tc, &s),
					 tc.system == CLOCK_NONE ? CLOCK_UNLIMITED
								 : clock_remaining(&tc, &p));
			if (tc.system == CLOCK_BYOYOMI) {
				ck_assert_int_eq(s.period_ms, tc.period_ms);
				ck_assert_int_ge(s.periods, 1);
			}
		}
	}
	/* Both outcomes were exercised. */
	ck_assert_int_gt(flags, 500);
	ck_assert_int_gt(oks, 5000);
}
END_TEST

static Suite *clock_suite(void)
{
	Suite *su = suite_create("clock");
	TCase *tc = tcase_create("clock");

	tcase_add_test(tc, control_check);
	tcase_add_test(tc, init_each_system);
	tcase_add_test(tc, byoyomi_period_boundary);
	tcase_add_test(tc, byoyomi_long_move_uses_several_periods);
	tcase_add_test(tc, byoyomi_main_runs_out_mid_move);
	tcase_add_test(tc, byoyomi_last_period_flag);
	tcase_add_test(tc, byoyomi_last_period_pass);
	tcase_add_test(tc, canadian_block_early_carry);
	tcase_add_test(tc, canadian_block_early_no_carry);
	tcase_add_test(tc, canadian_main_then_overtime);
	tcase_add_test(tc, canadian_runs_out);
	tcase_add_test(tc, fischer_increment_and_cap);
	tcase_add_test(tc, absolute_flag);
	tcase_add_test(tc, none_never_flags);
	tcase_add_test(tc, lateness_deduction);
	tcase_add_test(tc, bad_input);
	tcase_add_test(tc, sgf_text);
	tcase_add_test(tc, fields);
	tcase_add_test(tc, deadline_consistent);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	SRunner *sr = srunner_create(clock_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
