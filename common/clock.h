/* clock: game clocks (Chinese Weiqi Rules 2002, Art. 12.3-12.5, 14, 22; docs/rules.md §2). Pure:
 * no I/O and no real time. Every time is an int64_t count of milliseconds passed in by the
 * caller; "elapsed" is the time the player to move has been thinking on this turn, with pauses
 * left out (Art. 14: pauses do not count against either clock).
 *
 * The deadline rule (one rule for every system): a player's flag falls when their time left
 * reaches 0. clock_remaining() gives the time left at the start of a turn; a move with
 * elapsed_ms < remaining is in time; at elapsed_ms >= remaining the flag has fallen. So the
 * server's timer is set for exactly `remaining` ms and flags when it fires; a move arriving
 * at the same millisecond is late. Likewise a byo-yomi period of P ms that has run for P ms
 * is used up (a move then starts nothing in it: that period is gone and the move is made at
 * 0 ms into the next one), and main time that has run for main_ms ms is used up (a move at
 * exactly elapsed_ms == main_ms is made in overtime: in Canadian it counts as a block stone).
 *
 * Systems (struct clock_control; the server converts proto's struct proto_time):
 *   none      never runs out.
 *   absolute  main time only; running out loses (Art. 12.4).
 *   byoyomi   main time, then `periods` periods of `period_ms` each. A move made within a
 *             period uses none of it (the next move gets it fresh); a period that runs out is
 *             gone and the next begins; one long move can use several. The last period running
 *             out loses (Art. 12.3), or with the event option last_period = pass the turn is
 *             forfeited and play goes on with that last period fresh (Art. 22.5; the caller
 *             applies it with clock_forfeit_period).
 *   canadian  main time, then blocks of `stones` moves within `period_ms` (Art. 12.5). A block
 *             completed in time starts a new one: with carry the time left over is added to
 *             the next block's `period_ms` (the seed's rule, the default); without it (OGS,
 *             KGS) the next block has `period_ms`. Running out loses.
 *   fischer   main time; `increment_ms` is added after each move in time, then the clock is
 *             capped at `max_ms` (0: no cap). Running out loses.
 *
 * One player's clock is a struct clock_state. Between moves (as clock_init and clock_move
 * leave it) a byo-yomi clock's period_ms is the full period and a Canadian clock's period_ms
 * is the time left for its current block (period_ms, plus any carry, before the block starts).
 * clock_peek gives the clock part-way through a turn: then period_ms is what is left of the
 * current period / block. The fields that do not apply to a system are 0.
 */
#ifndef TENGEN_CLOCK_H
#define TENGEN_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* Limits of a time control (the same as proto's PROTO_TIME_*, in ms). */
#define CLOCK_MAIN_MAX_MS (7LL * 24 * 3600 * 1000)   /* main time: one week */
#define CLOCK_PERIOD_MAX_MS (24LL * 3600 * 1000)     /* a byo-yomi period / Canadian block: a day */
#define CLOCK_PERIODS_MAX 100                        /* byo-yomi periods */
#define CLOCK_STONES_MAX 1000                        /* Canadian stones per block */
#define CLOCK_INCREMENT_MAX_MS (24LL * 3600 * 1000)  /* Fischer increment: a day */
/* Bound on any time held in a clock state (Fischer increments and Canadian carry grow the
 * clock; it is capped here, about 142 000 years, so no sum can overflow). */
#define CLOCK_STATE_MAX_MS (1LL << 52)
/* clock_remaining for the system none. */
#define CLOCK_UNLIMITED INT64_MAX
/* Size of the buffer for clock_sgf_ot, NUL included (the longest is about 33). */
#define CLOCK_OT_MAX 64

enum clock_system { CLOCK_NONE = 0, CLOCK_ABSOLUTE, CLOCK_BYOYOMI, CLOCK_CANADIAN, CLOCK_FISCHER };

/* A time control. Fields a system does not use are ignored. */
struct clock_control {
	enum clock_system system;
	int64_t main_ms;      /* main time, all but none: 0..CLOCK_MAIN_MAX_MS (absolute and
			       * fischer: at least 1) */
	int periods;          /* byoyomi: number of periods, 1..CLOCK_PERIODS_MAX */
	int64_t period_ms;    /* byoyomi: one period; canadian: the time for `stones` moves;
			       * 1..CLOCK_PERIOD_MAX_MS */
	int stones;           /* canadian: moves per block, 1..CLOCK_STONES_MAX */
	bool carry;           /* canadian: leftover block time carries into the next block */
	int64_t increment_ms; /* fischer: added after each move, 0..CLOCK_INCREMENT_MAX_MS */
	int64_t max_ms;       /* fischer: cap on the clock after the increment, 0 for none, else
			       * main_ms..CLOCK_MAIN_MAX_MS */
};

/* One player's clock as it stands (docs/protocol.md clock object). */
struct clock_state {
	int64_t main_ms;   /* main time left (absolute, byoyomi, canadian, fischer) */
	int periods;       /* byoyomi: periods left, the current one included (0: flag fallen) */
	int64_t period_ms; /* byoyomi: time left in the current period; canadian: in the block */
	int stones;        /* canadian: moves still to make in the current block */
};

enum clock_result {
	CLOCK_EINVAL = -1, /* bad control, state or time: nothing changed */
	CLOCK_OK = 0,      /* in time */
	CLOCK_FLAG = 1     /* the flag has fallen (for byoyomi with last_period = pass: the last
			    * period ran out, see clock_forfeit_period) */
};

/* Which clock-object fields apply to a system (a mask for clock_fields). */
#define CLOCK_F_MAIN 1u
#define CLOCK_F_PERIODS 2u
#define CLOCK_F_PERIOD 4u
#define CLOCK_F_STONES 8u

/* Check a time control against the limits above. Returns 0, or -1 with *why (if why is not
 * NULL) set to a static English message naming the field ("clock: byoyomi periods must be
 * 1..100"). A Fischer control needs main_ms >= 1: with no main time the first move, made at
 * elapsed >= 0 == remaining, would already be late. */
int clock_control_check(const struct clock_control *tc, const char **why);

/* A fresh clock for `tc` into *out: main time, all periods (each period_ms), a Canadian clock
 * with `stones` moves to make in a block of period_ms. Returns 0, or -1 if tc fails
 * clock_control_check (then *out is unchanged). */
int clock_init(const struct clock_control *tc, struct clock_state *out);

/* The time in ms the player to move has from clock *s before their flag falls (the deadline:
 * a move at elapsed_ms < this is in time, see the deadline rule above): absolute and fischer
 * main_ms; byoyomi main_ms + period_ms + (periods - 1) full periods (Art. 12.3); canadian
 * main_ms + period_ms (Art. 12.5); none CLOCK_UNLIMITED. For byoyomi with last_period = pass
 * this is when the turn is forfeited (Art. 22.5). Does not change *s. -1 for a bad control or
 * state (a field out of range for tc). */
int64_t clock_remaining(const struct clock_control *tc, const struct clock_state *s);

/* The clock *s as it stands after elapsed_ms (>= 0) of thinking without a move, into *out (out
 * may be s): for the clocks of the player to move in a `game` query and in events, and to see
 * whether the flag has fallen. Main time goes first; then byo-yomi periods that run out are
 * gone (Art. 12.3) / the Canadian block runs down (Art. 12.5). Returns CLOCK_OK, CLOCK_FLAG iff
 * elapsed_ms >= clock_remaining(tc, s) (never for none) (then *out shows the clock at the flag fall: main_ms 0,
 * byoyomi periods 0 and period_ms 0, canadian period_ms 0), or CLOCK_EINVAL (bad control,
 * state, or elapsed_ms < 0; *out unchanged). */
enum clock_result clock_peek(const struct clock_control *tc, const struct clock_state *s,
			     int64_t elapsed_ms, struct clock_state *out);

/* Charge a move that took elapsed_ms (>= 0) from clock *s. In time (elapsed_ms <
 * clock_remaining): *s becomes the clock after the move: the time used comes off main time,
 * then byoyomi loses the periods that ran out and the current one is fresh again (Art. 12.3);
 * canadian counts the stone if the move was made in overtime (elapsed_ms >= main_ms) and starts
 * a new block when the block is complete, carrying the time left over if tc->carry (Art. 12.5);
 * fischer adds increment_ms and caps at max_ms; absolute just uses main time (Art. 12.4).
 * Returns CLOCK_OK; CLOCK_FLAG if the flag had fallen before the move arrived (*s is then the
 * clock at the flag fall, as clock_peek gives it; the caller ends the game on time, or with
 * byoyomi and last_period = pass voids the move, forfeits the turn and calls
 * clock_forfeit_period); CLOCK_EINVAL (bad input, *s unchanged). none always CLOCK_OK. */
enum clock_result clock_move(const struct clock_control *tc, struct clock_state *s,
			     int64_t elapsed_ms);

/* Art. 22.5, byoyomi with last_period = pass: the last period ran out, the turn is forfeited
 * (a pass) and play goes on with the same byo-yomi: *s becomes main_ms 0, periods 1, period_ms
 * the full period. Returns 0, or -1 if tc is not a valid byoyomi control (*s unchanged). */
int clock_forfeit_period(const struct clock_control *tc, struct clock_state *s);

/* Art. 22.2: a player late by late_ms (>= 0) but within the lateness limit has twice the
 * lateness deducted from main time, never below 0; byo-yomi / overtime then count as usual
 * (so with no main time left the next move starts in byo-yomi; absolute and fischer flag at
 * once). none: no change. Returns 0, or -1 for a bad control, state or late_ms < 0 (*s
 * unchanged). Deciding who is over the limit (a forfeit, Art. 22.1) is the caller's job. */
int clock_lateness(const struct clock_control *tc, struct clock_state *s, int64_t late_ms);

/* The CLOCK_F_* fields of the clock object that apply to `sys`: absolute, fischer MAIN;
 * byoyomi MAIN|PERIODS|PERIOD; canadian MAIN|PERIOD|STONES; none (and unknown) 0. */
unsigned clock_fields(enum clock_system sys);

/* SGF OT (overtime) text for tc into out[CLOCK_OT_MAX], seconds without trailing zeros:
 * byoyomi "3x30 byo-yomi", canadian "25/300 Canadian", fischer "10 Fischer" (with a cap
 * "10 Fischer max 600"), absolute, none and a bad control "". Returns out. */
char *clock_sgf_ot(const struct clock_control *tc, char *out);

/* SGF TM: main time in seconds; -1 for none or a bad control (no TM). */
double clock_sgf_tm(const struct clock_control *tc);

/* SGF BL/WL and OB/OW for the mover's clock *s after a move: *time_left_ms is the time left in
 * the stage the clock is in (main time while main_ms > 0, else byoyomi period_ms / canadian
 * block period_ms) and *count the byo-yomi periods or Canadian stones left in overtime, -1 in
 * main time and for absolute and fischer. none or bad input: both -1. */
void clock_sgf_left(const struct clock_control *tc, const struct clock_state *s,
		    int64_t *time_left_ms, int *count);

#endif
