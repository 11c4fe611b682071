/* rating: Glicko-2 player ratings and the kyu/dan rank scale. Pure (no I/O, no clock).
 *
 * Rating system: Glicko-2 as in Glickman, "Example of the Glicko-2 system" (Boston University,
 * 30 Nov 2013), steps 1-8, with the Illinois algorithm for the volatility (step 5.1-5.5,
 * convergence tolerance epsilon = 0.000001) and system constant tau = 0.5. Values are kept
 * on the Glicko scale (rating ~1500, RD in rating points); the Glicko-2 scale is internal
 * (mu = (rating - 1500) / 173.7178, phi = RD / 173.7178).
 *
 * As OGS does, each rated game is its own rating period for both players
 * (rating_update_game). Time without games is accounted separately with rating_idle: one
 * idle rating period of RATING_IDLE_PERIOD_SECONDS adds sigma^2 to phi^2 (step 6 of the
 * paper, with no games), so a player returning after a long absence is uncertain again.
 * Every stored RD is kept within [RATING_RD_MIN, RATING_RD_MAX]: the ceiling is the RD of a
 * new player (nothing is less known than a newcomer); the floor keeps a very active,
 * very consistent player's rating able to move (30 is the RD of the best-known opponent in
 * Glickman's example; with sigma = 0.06 and one game per period RD settles near 60, so the
 * floor only binds for players whose volatility has fallen well below 0.06).
 *
 * Rank scale (the one OGS uses since 2021, goratings: rank = 23.15 * ln(rating / 525)):
 * a continuous rank x = RATING_RANK_C * ln(rating / RATING_RANK_A) - 30 and the rank value
 * floor(x), clamped to RANK_MIN..RANK_MAX. Rank values: 30k = -30, ..., 1k = -1, 1d = 0,
 * ..., 9d = 8, so the difference of two rank values is the number of ranks between them
 * (McMahon groups, handicaps). 30k starts at rating 525, 1d at 1918.5, 9d at 2710.4;
 * 1500 (a new player) is 6k. The scale is logarithmic because one rank (one handicap stone)
 * is worth more winning chances between strong players than between beginners: a rank is
 * ~23 points at 30k, ~65 at 6k, ~85 at 1d. Ratings below 30k show as 30k, above 9d as 9d.
 *
 * Handicap games are rated on a handicap-adjusted expectation: Black, given h >= 2 stones,
 * plays as if h ranks stronger, i.e. with the effective rating
 * black * exp(h / RATING_RANK_C) (OGS's get_handicap_adjustment on the same scale). The
 * komi of the game is not considered (a handicap game is taken to be played with the
 * customary half-point komi). Handicap 0 and 1 (no placed stones) are even games.
 *
 * Errors: functions that return int return RATING_OK (0) or a negative enum rating_err; on
 * an error nothing is written.
 */
#ifndef TENGEN_RATING_H
#define TENGEN_RATING_H

#include <stdbool.h>
#include <stddef.h>

/* Glicko-2 parameters (Glickman 2013). */
#define RATING_INITIAL 1500.0           /* rating of a new player */
#define RATING_RD_INITIAL 350.0         /* RD of a new player */
#define RATING_VOLATILITY_INITIAL 0.06  /* volatility sigma of a new player */
#define RATING_TAU 0.5                  /* system constant tau */
#define RATING_SCALE 173.7178           /* Glicko <-> Glicko-2 scale factor */
#define RATING_EPSILON 0.000001         /* Illinois convergence tolerance */

/* Bounds of a stored RD, in rating points. */
#define RATING_RD_MAX 350.0             /* ceiling: a new player's RD */
#define RATING_RD_MIN 30.0              /* floor */
/* RD of a player who starts from a declared rank: the rank is a claim, not a measurement. */
#define RATING_RD_DECLARED 250.0
/* A rank is shown provisional ("3k?") while RD > this (1.3 ranks at 1d, 1.7 at 6k). */
#define RATING_RD_PROVISIONAL 110.0

/* Sanity limits of accepted inputs. */
#define RATING_VALUE_LIMIT 10000.0      /* |rating| accepted */
#define RATING_VOLATILITY_MAX 1.0       /* volatility accepted: (0, this] */
#define RATING_ILLINOIS_ITER_MAX 1000   /* iterations of the volatility search */
#define RATING_BRACKET_STEPS_MAX 1000   /* steps of the k*tau bracket search (step 5.2) */

/* Suggested length of one idle rating period for rating_idle (one day: from RD 60, a
 * player becomes provisional again after ~80 idle days and reaches RD 200 after ~11
 * months). The caller divides its idle time by this. */
#define RATING_IDLE_PERIOD_SECONDS 86400

/* Handicap stones accepted by rating_update_handicap: 0..RATING_HANDICAP_MAX. */
#define RATING_HANDICAP_MAX 9

/* Rank scale (see above). */
#define RATING_RANK_A 525.0             /* rating at the bottom of 30k */
#define RATING_RANK_C 23.15             /* ranks per unit of ln(rating) */
#define RANK_MIN (-30)                  /* 30k */
#define RANK_MAX 8                      /* 9d */
#define RANK_DECLARED_MIN RANK_MIN      /* weakest rank a player may declare: 30k (EGD) */
#define RANK_STR_MAX 5                  /* "30k?" and its NUL */

enum rating_err {
	RATING_OK = 0,
	RATING_EINVAL = -1,   /* an argument is out of range, not finite, or NULL */
	RATING_ENOSPC = -2,   /* the output buffer is too small */
	RATING_ENOCONV = -3,  /* the volatility search did not converge (not seen in practice) */
};

/* A player's rating on the Glicko scale. */
struct rating {
	double rating;      /* points, 1500 for a new player; |rating| <= RATING_VALUE_LIMIT */
	double rd;          /* rating deviation, points, (0, RATING_RD_MAX] */
	double volatility;  /* sigma, (0, RATING_VOLATILITY_MAX] */
};

/* One game of a rating period, seen from the rated player. */
struct rating_opponent {
	double rating;  /* opponent's pre-period rating (|rating| <= RATING_VALUE_LIMIT) */
	double rd;      /* opponent's pre-period RD, (0, RATING_RD_MAX] */
	double score;   /* rated player's score: 1 win, 0.5 draw, 0 loss; any value in [0, 1] */
};

/* A new player: 1500 / 350 / 0.06. */
void rating_init(struct rating *r);

/* A player who declares a rank (rank value RANK_DECLARED_MIN..RANK_MAX, i.e. 30k..9d): the
 * rating at the middle of that rank (rank_to_rating), RD RATING_RD_DECLARED, volatility
 * 0.06. RATING_EINVAL for other ranks or a NULL r. */
int rating_init_rank(struct rating *r, int rank_value);

/* One Glicko-2 rating period (Glickman 2013, steps 2-8) for *r against opps[0..n-1], all
 * games taken as simultaneous. n == 0 is a period without games: only the RD grows
 * (step 6). The new RD is clamped to [RATING_RD_MIN, RATING_RD_MAX]; the new rating uses
 * the unclamped phi' as in the paper. The new volatility is capped at RATING_VOLATILITY_MAX
 * (before step 6) and the new rating at +-RATING_VALUE_LIMIT; only absurd upsets between
 * ratings thousands of points apart reach these caps, which keep every result a valid
 * input. RATING_EINVAL for an invalid *r or opponent (see the
 * structs; opps may be NULL only when n == 0), RATING_ENOCONV if the volatility search
 * fails; *r is unchanged on any error. */
int rating_update_period(struct rating *r, const struct rating_opponent *opps, size_t n);

/* One rated even game as one rating period for both players: *a scored score_a (1 win,
 * 0.5 draw, 0 loss; [0, 1]) against *b, who scored 1 - score_a. Both are updated from their
 * pre-game values. a and b must be distinct. On an error neither is changed. */
int rating_update_game(struct rating *a, struct rating *b, double score_a);

/* One rated handicap game: *black received `handicap` stones (0..RATING_HANDICAP_MAX; 0 and 1
 * are even games) and scored score_black against *white. Expectations are computed as if
 * Black's rating were raised by rating_handicap_shift (equivalently, each player meets the
 * other shifted by it); the results are applied to the real ratings. Errors as
 * rating_update_game, and RATING_EINVAL for a handicap out of range. */
int rating_update_handicap(struct rating *black, struct rating *white, double score_black,
		int handicap);

/* Rating points Black gains for `handicap` stones: h ranks on the rank scale at Black's
 * rating, max(black_rating, RATING_RANK_A) * (exp(h / RATING_RANK_C) - 1); 0 for h < 2.
 * For a handicap out of 0..RATING_HANDICAP_MAX or a non-finite rating: NAN. */
double rating_handicap_shift(double black_rating, int handicap);

/* Time without games: phi* = sqrt(phi^2 + n * sigma^2) for n = idle_periods (>= 0, finite,
 * fractional allowed; one period is whatever the caller chose, RATING_IDLE_PERIOD_SECONDS
 * suggested), clamped to [RATING_RD_MIN, RATING_RD_MAX]. Rating and volatility unchanged.
 * RATING_EINVAL (nothing changed) for a bad n or *r. */
int rating_idle(struct rating *r, double idle_periods);

/* True when a rank shown for this RD is provisional (rd > RATING_RD_PROVISIONAL). */
bool rating_is_provisional(double rd);

/* The continuous rank of a rating, RATING_RANK_C * ln(rating / RATING_RANK_A) - 30
 * (0.0 = the bottom of 1d), not clamped; ratings <= 0 give -INFINITY, NAN gives NAN. */
double rating_rank_float(double rating);

/* The rank value of a rating: floor(rating_rank_float), clamped to RANK_MIN..RANK_MAX.
 * A NAN rating gives RANK_MIN. */
int rating_rank_value(double rating);

/* The rank of a rating as players write it, "3k" or "2d", with "?" appended while
 * rating_is_provisional(rd) ("6k?"). out has n bytes (RANK_STR_MAX suffices).
 * RATING_EINVAL for a non-finite rating or rd or a NULL out, RATING_ENOSPC if n is too
 * small (out untouched on errors). */
int rating_to_rank(double rating, double rd, char *out, size_t n);

/* Parse a rank "30k".."1k", "1d".."9d" (case-insensitive; no sign, leading zero, space or
 * other suffix; "1p" is rejected) into its rank value (-30..8). RATING_EINVAL for anything
 * else, *rank_value untouched. */
int rank_parse(const char *s, int *rank_value);

/* The rating at the middle of a rank: RATING_RANK_A * exp((v + 30.5) / RATING_RANK_C)
 * (15k = 1025.5, 6k = 1512.8, 1k = 1877.5, 1d = 1960.4, 9d = 2769.6).
 * NAN for a rank value out of RANK_MIN..RANK_MAX. */
double rank_to_rating(int rank_value);

/* Format a rank value (-30..8) as "30k".."1k", "1d".."9d" into out[n]. RATING_EINVAL for
 * a value out of range or NULL out, RATING_ENOSPC if n is too small. */
int rank_format(int rank_value, char *out, size_t n);

/* A short English text for an enum rating_err value. */
const char *rating_strerror(int err);

#endif
