/* clock: game clocks (Chinese Weiqi Rules 2002, Art. 12, 14, 22). See clock.h. Pure. */
#include "clock.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int clock_control_check(const struct clock_control *tc, const char **why)
{
	const char *msg = NULL;

	if (!tc) {
		msg = "clock: no time control";
		goto out;
	}
	switch (tc->system) {
	case CLOCK_NONE:
		break;
	case CLOCK_ABSOLUTE:
	case CLOCK_FISCHER:
		if (tc->main_ms < 1 || tc->main_ms > CLOCK_MAIN_MAX_MS) {
			msg = tc->system == CLOCK_ABSOLUTE
				? "clock: absolute main time must be 1 ms..one week"
				: "clock: fischer main time must be 1 ms..one week";
			break;
		}
		if (tc->system == CLOCK_ABSOLUTE)
			break;
		if (tc->increment_ms < 0 || tc->increment_ms > CLOCK_INCREMENT_MAX_MS)
			msg = "clock: fischer increment must be 0..one day";
		else if (tc->max_ms != 0 &&
			 (tc->max_ms < tc->main_ms || tc->max_ms > CLOCK_MAIN_MAX_MS))
			msg = "clock: fischer cap must be 0 (none) or main time..one week";
		break;
	case CLOCK_BYOYOMI:
	case CLOCK_CANADIAN:
		if (tc->main_ms < 0 || tc->main_ms > CLOCK_MAIN_MAX_MS)
			msg = "clock: main time must be 0..one week";
		else if (tc->period_ms < 1 || tc->period_ms > CLOCK_PERIOD_MAX_MS)
			msg = "clock: period must be 1 ms..one day";
		else if (tc->system == CLOCK_BYOYOMI &&
			 (tc->periods < 1 || tc->periods > CLOCK_PERIODS_MAX))
			msg = "clock: byoyomi periods must be 1..100";
		else if (tc->system == CLOCK_CANADIAN &&
			 (tc->stones < 1 || tc->stones > CLOCK_STONES_MAX))
			msg = "clock: canadian stones must be 1..1000";
		break;
	default:
		msg = "clock: unknown time system";
		break;
	}
out:
	if (msg && why)
		*why = msg;
	return msg ? -1 : 0;
}

/* The state fields that apply to tc's system are in range (tc already checked). */
static bool state_ok(const struct clock_control *tc, const struct clock_state *s)
{
	if (!s)
		return false;
	if (tc->system == CLOCK_NONE)
		return true;
	if (s->main_ms < 0 || s->main_ms > CLOCK_STATE_MAX_MS)
		return false;
	switch (tc->system) {
	case CLOCK_BYOYOMI:
		return s->periods >= 0 && s->periods <= tc->periods && s->period_ms >= 0 &&
		       s->period_ms <= tc->period_ms;
	case CLOCK_CANADIAN:
		return s->stones >= 1 && s->stones <= tc->stones && s->period_ms >= 0 &&
		       s->period_ms <= CLOCK_STATE_MAX_MS;
	default:
		return true;
	}
}

static bool input_ok(const struct clock_control *tc, const struct clock_state *s)
{
	return clock_control_check(tc, NULL) == 0 && state_ok(tc, s);
}

static int64_t cap_state(int64_t ms)
{
	return ms > CLOCK_STATE_MAX_MS ? CLOCK_STATE_MAX_MS : ms;
}

int clock_init(const struct clock_control *tc, struct clock_state *out)
{
	struct clock_state c = {0, 0, 0, 0};

	if (clock_control_check(tc, NULL) || !out)
		return -1;
	switch (tc->system) {
	case CLOCK_NONE:
		break;
	case CLOCK_BYOYOMI:
		c.periods = tc->periods;
		c.period_ms = tc->period_ms;
		c.main_ms = tc->main_ms;
		break;
	case CLOCK_CANADIAN:
		c.stones = tc->stones;
		c.period_ms = tc->period_ms;
		c.main_ms = tc->main_ms;
		break;
	default:
		c.main_ms = tc->main_ms;
		break;
	}
	*out = c;
	return 0;
}

int64_t clock_remaining(const struct clock_control *tc, const struct clock_state *s)
{
	if (!input_ok(tc, s))
		return -1;
	switch (tc->system) {
	case CLOCK_NONE:
		return CLOCK_UNLIMITED;
	case CLOCK_BYOYOMI:
		if (s->periods == 0)
			return s->main_ms;
		return s->main_ms + s->period_ms + (int64_t)(s->periods - 1) * tc->period_ms;
	case CLOCK_CANADIAN:
		return s->main_ms + s->period_ms;
	default:
		return s->main_ms;
	}
}

enum clock_result clock_peek(const struct clock_control *tc, const struct clock_state *s,
			     int64_t elapsed_ms, struct clock_state *out)
{
	struct clock_state c;
	int64_t over;

	if (!input_ok(tc, s) || !out || elapsed_ms < 0)
		return CLOCK_EINVAL;
	c = *s;
	if (tc->system == CLOCK_NONE) {
		*out = c;
		return CLOCK_OK;
	}
	/* Main time goes first (all systems). */
	if (elapsed_ms < c.main_ms) {
		c.main_ms -= elapsed_ms;
		*out = c;
		return CLOCK_OK;
	}
	over = elapsed_ms - c.main_ms; /* time spent past main time, >= 0 */
	c.main_ms = 0;

	switch (tc->system) {
	case CLOCK_BYOYOMI: {
		/* Art. 12.3: the current period has period_ms left, each later one a full period. */
		int left;
		int64_t lost;

		if (c.periods > 0 && over < c.period_ms) {
			c.period_ms -= over;
			break;
		}
		if (c.periods == 0)
			goto flag;
		over -= c.period_ms; /* the current period is gone */
		left = c.periods - 1;
		lost = over / tc->period_ms; /* further full periods gone */
		if (lost >= left)
			goto flag;
		c.periods = left - (int)lost;
		c.period_ms = tc->period_ms - over % tc->period_ms;
		break;
	}
	case CLOCK_CANADIAN:
		/* Art. 12.5: the block's time runs down. */
		if (over >= c.period_ms)
			goto flag;
		c.period_ms -= over;
		break;
	default:
		/* absolute, fischer: main time was everything (Art. 12.4). */
		goto flag;
	}
	*out = c;
	return CLOCK_OK;

flag:
	c.main_ms = 0;
	if (tc->system == CLOCK_BYOYOMI) {
		c.periods = 0;
		c.period_ms = 0;
	} else if (tc->system == CLOCK_CANADIAN) {
		c.period_ms = 0;
	}
	*out = c;
	return CLOCK_FLAG;
}

enum clock_result clock_move(const struct clock_control *tc, struct clock_state *s,
			     int64_t elapsed_ms)
{
	struct clock_state c;
	enum clock_result r;
	bool overtime;

	if (!s)
		return CLOCK_EINVAL;
	r = clock_peek(tc, s, elapsed_ms, &c);
	if (r == CLOCK_EINVAL)
		return r;
	if (r == CLOCK_FLAG) {
		*s = c;
		return r;
	}
	overtime = elapsed_ms >= s->main_ms;
	switch (tc->system) {
	case CLOCK_BYOYOMI:
		/* A move within a period uses none of it: the period starts fresh. */
		c.period_ms = tc->period_ms;
		break;
	case CLOCK_CANADIAN:
		if (!overtime)
			break;
		if (--c.stones == 0) {
			/* The block is complete in time: a new block. */
			c.stones = tc->stones;
			c.period_ms = tc->carry ? cap_state(c.period_ms + tc->period_ms)
						: tc->period_ms;
		}
		break;
	case CLOCK_FISCHER:
		c.main_ms = cap_state(c.main_ms + tc->increment_ms);
		if (tc->max_ms > 0 && c.main_ms > tc->max_ms)
			c.main_ms = tc->max_ms;
		break;
	default:
		break;
	}
	*s = c;
	return CLOCK_OK;
}

int clock_forfeit_period(const struct clock_control *tc, struct clock_state *s)
{
	if (!s || clock_control_check(tc, NULL) || tc->system != CLOCK_BYOYOMI)
		return -1;
	s->main_ms = 0;
	s->periods = 1;
	s->period_ms = tc->period_ms;
	return 0;
}

int clock_lateness(const struct clock_control *tc, struct clock_state *s, int64_t late_ms)
{
	if (!input_ok(tc, s) || late_ms < 0)
		return -1;
	if (tc->system == CLOCK_NONE)
		return 0;
	/* 2 * late_ms without overflow: late_ms >= main_ms / 2 + 1 takes it all. */
	if (late_ms > s->main_ms / 2)
		s->main_ms = 0;
	else
		s->main_ms -= 2 * late_ms;
	return 0;
}

unsigned clock_fields(enum clock_system sys)
{
	switch (sys) {
	case CLOCK_ABSOLUTE:
	case CLOCK_FISCHER:
		return CLOCK_F_MAIN;
	case CLOCK_BYOYOMI:
		return CLOCK_F_MAIN | CLOCK_F_PERIODS | CLOCK_F_PERIOD;
	case CLOCK_CANADIAN:
		return CLOCK_F_MAIN | CLOCK_F_PERIOD | CLOCK_F_STONES;
	default:
		return 0;
	}
}

/* ms as seconds without trailing zeros: 30000 -> "30", 500 -> "0.5". ms in 0..week. */
static void fmt_s(int64_t ms, char out[24])
{
	int frac = (int)(ms % 1000);
	int digits = 3;

	if (frac == 0) {
		snprintf(out, 24, "%" PRId64, ms / 1000);
		return;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(out, 24, "%" PRId64 ".%0*d", ms / 1000, digits, frac);
}

char *clock_sgf_ot(const struct clock_control *tc, char *out)
{
	char a[24], b[24];

	out[0] = '\0';
	if (clock_control_check(tc, NULL))
		return out;
	switch (tc->system) {
	case CLOCK_BYOYOMI:
		fmt_s(tc->period_ms, a);
		snprintf(out, CLOCK_OT_MAX, "%dx%s byo-yomi", tc->periods, a);
		break;
	case CLOCK_CANADIAN:
		fmt_s(tc->period_ms, a);
		snprintf(out, CLOCK_OT_MAX, "%d/%s Canadian", tc->stones, a);
		break;
	case CLOCK_FISCHER:
		fmt_s(tc->increment_ms, a);
		if (tc->max_ms > 0) {
			fmt_s(tc->max_ms, b);
			snprintf(out, CLOCK_OT_MAX, "%s Fischer max %s", a, b);
		} else {
			snprintf(out, CLOCK_OT_MAX, "%s Fischer", a);
		}
		break;
	default:
		break;
	}
	return out;
}

double clock_sgf_tm(const struct clock_control *tc)
{
	if (clock_control_check(tc, NULL) || tc->system == CLOCK_NONE)
		return -1;
	return (double)tc->main_ms / 1000.0;
}

void clock_sgf_left(const struct clock_control *tc, const struct clock_state *s,
		    int64_t *time_left_ms, int *count)
{
	int64_t t = -1;
	int n = -1;

	if (input_ok(tc, s) && tc->system != CLOCK_NONE) {
		t = s->main_ms;
		if (s->main_ms == 0 && tc->system == CLOCK_BYOYOMI) {
			t = s->period_ms;
			n = s->periods;
		} else if (s->main_ms == 0 && tc->system == CLOCK_CANADIAN) {
			t = s->period_ms;
			n = s->stones;
		}
	}
	if (time_left_ms)
		*time_left_ms = t;
	if (count)
		*count = n;
}
