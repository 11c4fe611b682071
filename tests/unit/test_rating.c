/* Unit tests for common/rating: Glicko-2 (Glickman 2013), RD bounds, idle growth, handicap
 * games, the rank scale, rank parsing and formatting. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rating.h"

/* ---- An independent reference implementation of one Glicko-2 period ----
 * Written straight from the paper's formulas, without clamping, finding the volatility by
 * plain bisection (not the Illinois algorithm of the module) to 1e-13: the two must agree
 * to the tolerance of the Illinois search. */

#define REF_SCALE 173.7178
#define REF_PI 3.14159265358979323846

struct ref_game {
	double r, rd, s;
};

struct ref_result {
	double r, rd, sigma;
};

static double ref_f(double x, double d2, double p2, double v, double a)
{
	double ex = exp(x);

	return ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex) * (p2 + v + ex)) - (x - a) / 0.25;
}

static struct ref_result ref_period(double r, double rd, double sigma,
		const struct ref_game *g, int n)
{
	double mu = (r - 1500.0) / REF_SCALE, phi = rd / REF_SCALE;
	double inv_v = 0.0, sum = 0.0, v, d, a, lo, hi, s2, ps, p2;
	struct ref_result out;
	int i;

	for (i = 0; i < n; i++) {
		double phj = g[i].rd / REF_SCALE;
		double gj = 1.0 / sqrt(1.0 + 3.0 * phj * phj / (REF_PI * REF_PI));
		double ej = 1.0 / (1.0 + exp(-gj * (mu - (g[i].r - 1500.0) / REF_SCALE)));

		inv_v += gj * gj * ej * (1.0 - ej);
		sum += gj * (g[i].s - ej);
	}
	v = 1.0 / inv_v;
	d = v * sum;
	a = log(sigma * sigma);
	/* f is decreasing; its root lies within a +- 40 for every case tested here. */
	lo = a - 40.0;
	hi = a + 40.0;
	while (hi - lo > 1e-13) {
		double m = (lo + hi) / 2.0;

		if (ref_f(m, d * d, phi * phi, v, a) > 0.0)
			lo = m;
		else
			hi = m;
	}
	s2 = exp(lo / 2.0);
	ps = sqrt(phi * phi + s2 * s2);
	p2 = 1.0 / sqrt(1.0 / (ps * ps) + 1.0 / v);
	out.r = REF_SCALE * (mu + p2 * p2 * sum) + 1500.0;
	out.rd = REF_SCALE * p2;
	out.sigma = s2;
	return out;
}

/* Tolerances against the reference: the Illinois search stops at |B - A| <= 1e-6 in
 * ln(sigma^2); that moves sigma by < 1e-6 * sigma and the rating by far less than 1e-4. */
#define TOL_R 1e-4
#define TOL_RD 1e-4
#define TOL_SIGMA 1e-7

static void ck_near(double got, double want, double tol, const char *what)
{
	ck_assert_msg(fabs(got - want) <= tol, "%s: got %.10f, want %.10f (tol %g)", what, got,
			want, tol);
}

static void ck_same_rating(const struct rating *x, const struct rating *y)
{
	ck_assert(memcmp(x, y, sizeof *x) == 0);
}

/* ---- Glickman's worked example ---- */

START_TEST(test_paper_example)
{
	/* Glickman 2013, "Example of the Glicko-2 system": a 1500/200/0.06 player beats a
	 * 1400/30, loses to a 1550/100 and loses to a 1700/300, tau = 0.5. Published results:
	 * rating 1464.06, RD 151.52, volatility 0.05999. The paper rounds its intermediate
	 * values (mu' = -0.2069, phi' = 0.8722); the unrounded rating is 1464.0507, so the
	 * rating is checked at the paper's mu' precision and within 0.01 of 1464.06. */
	struct rating r = { 1500.0, 200.0, 0.06 };
	const struct rating_opponent opps[3] = {
		{ 1400.0, 30.0, 1.0 }, { 1550.0, 100.0, 0.0 }, { 1700.0, 300.0, 0.0 },
	};
	const struct ref_game g[3] = { { 1400, 30, 1 }, { 1550, 100, 0 }, { 1700, 300, 0 } };
	struct ref_result ref = ref_period(1500.0, 200.0, 0.06, g, 3);
	double mu2, phi2;

	ck_assert_int_eq(rating_update_period(&r, opps, 3), RATING_OK);
	mu2 = (r.rating - 1500.0) / REF_SCALE;
	phi2 = r.rd / REF_SCALE;
	ck_near(mu2, -0.2069, 0.00005, "mu' (4 decimals)");
	ck_near(phi2, 0.8722, 0.00005, "phi' (4 decimals)");
	ck_near(r.rating, 1464.06, 0.01, "rating");
	ck_near(r.rd, 151.52, 0.005, "RD");
	ck_near(r.volatility, 0.05999, 0.00001, "volatility");
	/* And the unrounded values, against the reference implementation. */
	ck_near(r.rating, ref.r, TOL_R, "rating vs reference");
	ck_near(r.rd, ref.rd, TOL_RD, "RD vs reference");
	ck_near(r.volatility, ref.sigma, TOL_SIGMA, "volatility vs reference");
}
END_TEST

/* ---- One game between two new players ---- */

START_TEST(test_new_players_game)
{
	/* By hand: mu = 0, phi = 350 / 173.7178 = 2.014762 for both; g(phi) =
	 * 1 / sqrt(1 + 3 phi^2 / pi^2) = 0.669069; E = 1/2 (equal ratings); v = 1 / (g^2 / 4)
	 * = 8.935475; delta = v g (1 - 1/2) = 2.989226. delta^2 = 8.9355 < phi^2 + v = 12.9947,
	 * so the bracket comes from step 5.2's k-loop and sigma' stays near 0.06 (0.0599997).
	 * phi* = sqrt(phi^2 + sigma'^2) = 2.015655; phi' = 1 / sqrt(1 / phi*^2 + 1 / v) =
	 * 1.671193 -> RD' = 290.319; mu' = +-phi'^2 g / 2 = +-0.934314 -> 1662.311 / 1337.689.
	 * (Full-precision values computed independently in double precision.) */
	struct rating a, b;
	const struct ref_game ga = { 1500, 350, 1 }, gb = { 1500, 350, 0 };
	struct ref_result ra = ref_period(1500, 350, 0.06, &ga, 1);
	struct ref_result rb = ref_period(1500, 350, 0.06, &gb, 1);

	rating_init(&a);
	rating_init(&b);
	ck_assert_int_eq(rating_update_game(&a, &b, 1.0), RATING_OK);
	ck_near(a.rating, 1662.3109, 0.001, "winner rating");
	ck_near(b.rating, 1337.6891, 0.001, "loser rating");
	ck_near(a.rd, 290.3190, 0.001, "winner RD");
	ck_near(b.rd, 290.3190, 0.001, "loser RD");
	ck_near(a.volatility, 0.0599997, 0.0000001, "winner volatility");
	ck_near(b.volatility, 0.0599997, 0.0000001, "loser volatility");
	/* Symmetric: the winner gains what the loser loses. */
	ck_near(a.rating - 1500.0, 1500.0 - b.rating, 1e-9, "symmetry");
	ck_near(a.rating, ra.r, TOL_R, "winner vs reference");
	ck_near(b.rating, rb.r, TOL_R, "loser vs reference");
	ck_near(a.rd, ra.rd, TOL_RD, "winner RD vs reference");
	ck_near(a.volatility, ra.sigma, TOL_SIGMA, "winner sigma vs reference");
}
END_TEST

START_TEST(test_game_simultaneous)
{
	/* Both players are updated from their pre-game values: the same as two independent
	 * one-game periods. */
	struct rating a = { 1720.0, 80.0, 0.059 }, b = { 1610.0, 140.0, 0.061 };
	struct rating pa = a, pb = b;
	struct rating_opponent oa = { b.rating, b.rd, 0.0 }, ob = { a.rating, a.rd, 1.0 };
	const struct ref_game ga = { 1610, 140, 0 };
	struct ref_result ra = ref_period(1720, 80, 0.059, &ga, 1);

	ck_assert_int_eq(rating_update_period(&pa, &oa, 1), RATING_OK);
	ck_assert_int_eq(rating_update_period(&pb, &ob, 1), RATING_OK);
	ck_assert_int_eq(rating_update_game(&a, &b, 0.0), RATING_OK);
	ck_same_rating(&a, &pa);
	ck_same_rating(&b, &pb);
	ck_assert(a.rating < 1720.0);
	ck_assert(b.rating > 1610.0);
	ck_near(a.rating, ra.r, TOL_R, "loser vs reference");
	ck_near(a.rd, ra.rd, TOL_RD, "loser RD vs reference");
}
END_TEST

START_TEST(test_period_multi_vs_reference)
{
	/* A longer period with draws and a wide spread, and an upset (volatility rises). */
	struct rating r = { 1800.0, 70.0, 0.05 };
	const struct rating_opponent o[5] = {
		{ 1200, 60, 0.0 }, { 1300, 90, 0.0 }, { 1250, 40, 0.5 }, { 2100, 200, 1.0 },
		{ 1800, 350, 0.5 },
	};
	const struct ref_game g[5] = {
		{ 1200, 60, 0 }, { 1300, 90, 0 }, { 1250, 40, 0.5 }, { 2100, 200, 1 },
		{ 1800, 350, 0.5 },
	};
	struct ref_result ref = ref_period(1800, 70, 0.05, g, 5);

	ck_assert_int_eq(rating_update_period(&r, o, 5), RATING_OK);
	ck_near(r.rating, ref.r, TOL_R, "rating vs reference");
	ck_near(r.rd, ref.rd, TOL_RD, "RD vs reference");
	ck_near(r.volatility, ref.sigma, TOL_SIGMA, "sigma vs reference");
	ck_assert(r.volatility > 0.05);
	ck_assert(r.rating < 1800.0);
}
END_TEST

START_TEST(test_period_no_games)
{
	/* Step 6 without games: phi' = sqrt(phi^2 + sigma^2), rating and sigma unchanged. */
	struct rating r = { 1650.0, 80.0, 0.06 };
	double want = sqrt(80.0 * 80.0 + (0.06 * REF_SCALE) * (0.06 * REF_SCALE));

	ck_assert_int_eq(rating_update_period(&r, NULL, 0), RATING_OK);
	ck_near(r.rd, want, 1e-9, "RD");
	ck_assert(r.rating == 1650.0);
	ck_assert(r.volatility == 0.06);
}
END_TEST

/* ---- Draws ---- */

START_TEST(test_draw_unequal)
{
	struct rating a = { 1700.0, 100.0, 0.06 }, b = { 1500.0, 100.0, 0.06 };

	ck_assert_int_eq(rating_update_game(&a, &b, 0.5), RATING_OK);
	ck_assert(a.rating < 1700.0);
	ck_assert(b.rating > 1500.0);
	ck_assert(a.rating > b.rating); /* moved towards each other, not past */
	ck_assert(a.rd < 100.0 && b.rd < 100.0);
}
END_TEST

START_TEST(test_draw_equal)
{
	struct rating a, b;

	rating_init(&a);
	rating_init(&b);
	ck_assert_int_eq(rating_update_game(&a, &b, 0.5), RATING_OK);
	ck_near(a.rating, 1500.0, 1e-9, "a rating");
	ck_near(b.rating, 1500.0, 1e-9, "b rating");
	ck_assert(a.rating == b.rating);
	ck_assert(a.rd == b.rd);
	ck_assert(a.rd < 350.0);
}
END_TEST

/* ---- RD floor and ceiling ---- */

START_TEST(test_rd_floor)
{
	/* A player with a tiny RD and volatility (accepted on input) against a well-known
	 * equal: unclamped, the new RD would be ~10; it is raised to the floor. */
	struct rating r = { 1800.0, 10.0, 0.01 };
	const struct rating_opponent o = { 1800.0, 30.0, 1.0 };
	const struct ref_game g = { 1800, 30, 1 };
	struct ref_result ref = ref_period(1800, 10, 0.01, &g, 1);

	ck_assert(ref.rd < RATING_RD_MIN);
	ck_assert_int_eq(rating_update_period(&r, &o, 1), RATING_OK);
	ck_assert(r.rd == RATING_RD_MIN);
	ck_assert(r.rating > 1800.0);
	ck_near(r.rating, ref.r, TOL_R, "rating uses the unclamped phi'");
}
END_TEST

START_TEST(test_rd_floor_many_games)
{
	/* A very consistent, very active player never goes below the floor. */
	struct rating r = { 1800.0, 40.0, 0.005 };
	const struct rating_opponent o = { 1800.0, 30.0, 0.5 };
	double min_rd = 1e9;
	int i;

	for (i = 0; i < 2000; i++) {
		ck_assert_int_eq(rating_update_period(&r, &o, 1), RATING_OK);
		if (r.rd < min_rd)
			min_rd = r.rd;
	}
	ck_assert(min_rd == RATING_RD_MIN);
}
END_TEST

START_TEST(test_rd_ceiling)
{
	/* A new player loses to someone 3000 points stronger: the game says almost nothing,
	 * so unclamped the RD would grow past 350 (phi* > phi); it stays at the ceiling. */
	struct rating r;
	const struct rating_opponent o = { 4500.0, 30.0, 0.0 };
	const struct ref_game g = { 4500, 30, 0 };
	struct ref_result ref = ref_period(1500, 350, 0.06, &g, 1);

	rating_init(&r);
	ck_assert(ref.rd > RATING_RD_MAX);
	ck_assert_int_eq(rating_update_period(&r, &o, 1), RATING_OK);
	ck_assert(r.rd == RATING_RD_MAX);
	ck_near(r.rating, 1500.0, 0.001, "rating barely moves");
}
END_TEST

/* ---- Idle time ---- */

START_TEST(test_idle)
{
	struct rating r = { 1960.0, 60.0, 0.06 }, keep;
	double s = 0.06 * REF_SCALE; /* sigma in rating points: 10.42 */
	char buf[RANK_STR_MAX];

	keep = r;
	ck_assert_int_eq(rating_idle(&r, 0.0), RATING_OK);
	ck_near(r.rd, 60.0, 1e-9, "no idle time");
	ck_assert_int_eq(rating_idle(&r, 1.0), RATING_OK);
	ck_near(r.rd, sqrt(3600.0 + s * s), 1e-9, "one period");
	ck_assert(r.rating == 1960.0 && r.volatility == 0.06);
	r = keep;
	ck_assert_int_eq(rating_idle(&r, 2.5), RATING_OK);
	ck_near(r.rd, sqrt(3600.0 + 2.5 * s * s), 1e-9, "fractional periods");
	/* n periods at once equal n single periods. */
	r = keep;
	{
		struct rating step = keep;
		int i;

		for (i = 0; i < 30; i++)
			ck_assert_int_eq(rating_idle(&step, 1.0), RATING_OK);
		ck_assert_int_eq(rating_idle(&r, 30.0), RATING_OK);
		ck_near(r.rd, step.rd, 1e-9, "30 x 1 == 30");
	}
	/* A returning player: established "1d", provisional again after ~80 idle days. */
	r = keep;
	ck_assert_int_eq(rating_to_rank(r.rating, r.rd, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "1d");
	ck_assert_int_eq(rating_idle(&r, 90.0), RATING_OK);
	ck_assert(r.rd > RATING_RD_PROVISIONAL && r.rd < 130.0);
	ck_assert_int_eq(rating_to_rank(r.rating, r.rd, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "1d?");
	/* Capped at the ceiling. */
	ck_assert_int_eq(rating_idle(&r, 1e6), RATING_OK);
	ck_assert(r.rd == RATING_RD_MAX);
	ck_assert_int_eq(rating_idle(&r, 1e300), RATING_OK);
	ck_assert(r.rd == RATING_RD_MAX);
}
END_TEST

START_TEST(test_idle_invalid)
{
	struct rating r = { 1900.0, 60.0, 0.06 }, keep = r, bad = { 1900.0, 0.0, 0.06 };

	ck_assert_int_eq(rating_idle(&r, -1.0), RATING_EINVAL);
	ck_assert_int_eq(rating_idle(&r, NAN), RATING_EINVAL);
	ck_assert_int_eq(rating_idle(&r, INFINITY), RATING_EINVAL);
	ck_assert_int_eq(rating_idle(NULL, 1.0), RATING_EINVAL);
	ck_same_rating(&r, &keep);
	ck_assert_int_eq(rating_idle(&bad, 1.0), RATING_EINVAL);
	ck_assert(bad.rd == 0.0);
}
END_TEST

/* ---- Handicap games ---- */

START_TEST(test_handicap_shift)
{
	/* h ranks on the log scale: rating * (exp(h / 23.15) - 1). */
	ck_near(rating_handicap_shift(1500.0, 2), 1500.0 * (exp(2.0 / 23.15) - 1.0), 1e-9, "h2");
	ck_near(rating_handicap_shift(1500.0, 2), 135.4, 0.1, "h2 at 1500");
	ck_near(rating_handicap_shift(1500.0, 9), 712.7, 0.1, "h9 at 1500");
	/* One stone is one rank: the shift moves Black's rank by exactly h. */
	ck_near(rating_rank_float(1500.0 + rating_handicap_shift(1500.0, 5)) -
			rating_rank_float(1500.0), 5.0, 1e-9, "h5 = 5 ranks");
	/* Below 30k the shift is that of a 30k. */
	ck_assert(rating_handicap_shift(300.0, 3) == rating_handicap_shift(RATING_RANK_A, 3));
	ck_assert(rating_handicap_shift(1500.0, 0) == 0.0);
	ck_assert(rating_handicap_shift(1500.0, 1) == 0.0);
	ck_assert(isnan(rating_handicap_shift(1500.0, -1)));
	ck_assert(isnan(rating_handicap_shift(1500.0, RATING_HANDICAP_MAX + 1)));
	ck_assert(isnan(rating_handicap_shift(NAN, 2)));
}
END_TEST

START_TEST(test_handicap_even_cases)
{
	/* Handicap 0 and 1 are rated exactly as even games. */
	struct rating b0 = { 1500.0, 90.0, 0.06 }, w0 = { 1700.0, 70.0, 0.06 };
	struct rating b1 = b0, w1 = w0, be = b0, we = w0;

	ck_assert_int_eq(rating_update_handicap(&b0, &w0, 1.0, 0), RATING_OK);
	ck_assert_int_eq(rating_update_handicap(&b1, &w1, 1.0, 1), RATING_OK);
	ck_assert_int_eq(rating_update_game(&be, &we, 1.0), RATING_OK);
	ck_same_rating(&b0, &be);
	ck_same_rating(&w0, &we);
	ck_same_rating(&b1, &be);
	ck_same_rating(&w1, &we);
}
END_TEST

START_TEST(test_handicap_fair)
{
	/* Black exactly 4 ranks below White with 4 stones: an even contest. A draw changes
	 * neither rating; a win moves each player exactly as a win between equals would. */
	const int h = 4;
	double wr = 1900.0, br = wr * exp(-h / RATING_RANK_C);
	struct rating b = { br, 90.0, 0.06 }, w = { wr, 70.0, 0.06 };
	struct rating b2 = b, w2 = w;
	/* The equal-players game: the same RDs, both at Black's rating. */
	struct rating eb = { br, 90.0, 0.06 }, ew = { br, 70.0, 0.06 };

	ck_near(br + rating_handicap_shift(br, h), wr, 1e-9, "effective Black = White");
	ck_assert_int_eq(rating_update_handicap(&b, &w, 0.5, h), RATING_OK);
	ck_near(b.rating, br, 1e-9, "draw: Black unchanged");
	ck_near(w.rating, wr, 1e-9, "draw: White unchanged");
	ck_assert(b.rd < 90.0 && w.rd < 70.0);

	ck_assert_int_eq(rating_update_handicap(&b2, &w2, 1.0, h), RATING_OK);
	ck_assert_int_eq(rating_update_game(&eb, &ew, 1.0), RATING_OK);
	ck_near(b2.rating - br, eb.rating - br, 1e-9, "Black's gain = gain between equals");
	ck_near(w2.rating - wr, ew.rating - br, 1e-9, "White's loss = loss between equals");
	ck_near(b2.rd, eb.rd, 1e-9, "Black RD");
	ck_near(w2.rd, ew.rd, 1e-9, "White RD");
	ck_assert(b2.rating > br && w2.rating < wr);
}
END_TEST

START_TEST(test_handicap_smaller_gain)
{
	/* Black 1500 beats White 1700 with 3 stones: less gain than winning an even game. */
	struct rating bh = { 1500.0, 80.0, 0.06 }, wh = { 1700.0, 80.0, 0.06 };
	struct rating be = bh, we = wh;

	ck_assert_int_eq(rating_update_handicap(&bh, &wh, 1.0, 3), RATING_OK);
	ck_assert_int_eq(rating_update_game(&be, &we, 1.0), RATING_OK);
	ck_assert(bh.rating > 1500.0 && bh.rating < be.rating);
	ck_assert(wh.rating < 1700.0 && wh.rating > we.rating);
	/* And a handicap loss costs Black more than an even loss. */
	bh = (struct rating){ 1500.0, 80.0, 0.06 };
	wh = (struct rating){ 1700.0, 80.0, 0.06 };
	be = bh;
	we = wh;
	ck_assert_int_eq(rating_update_handicap(&bh, &wh, 0.0, 3), RATING_OK);
	ck_assert_int_eq(rating_update_game(&be, &we, 0.0), RATING_OK);
	ck_assert(bh.rating < be.rating);
}
END_TEST

START_TEST(test_handicap_invalid)
{
	struct rating b = { 1500.0, 80.0, 0.06 }, w = { 1700.0, 80.0, 0.06 };
	struct rating kb = b, kw = w;

	ck_assert_int_eq(rating_update_handicap(&b, &w, 1.0, -1), RATING_EINVAL);
	ck_assert_int_eq(rating_update_handicap(&b, &w, 1.0, RATING_HANDICAP_MAX + 1),
			RATING_EINVAL);
	ck_assert_int_eq(rating_update_handicap(&b, &w, 1.5, 2), RATING_EINVAL);
	ck_same_rating(&b, &kb);
	ck_same_rating(&w, &kw);
	ck_assert_int_eq(rating_update_handicap(&b, &w, 1.0, RATING_HANDICAP_MAX), RATING_OK);
}
END_TEST

/* ---- Invalid input changes nothing ---- */

START_TEST(test_update_invalid)
{
	struct rating a = { 1500.0, 80.0, 0.06 }, b = { 1600.0, 90.0, 0.06 };
	struct rating ka = a, kb = b;
	struct rating bad[] = {
		{ NAN, 80.0, 0.06 }, { INFINITY, 80.0, 0.06 }, { 20000.0, 80.0, 0.06 },
		{ 1500.0, 0.0, 0.06 }, { 1500.0, -5.0, 0.06 }, { 1500.0, 351.0, 0.06 },
		{ 1500.0, NAN, 0.06 }, { 1500.0, 80.0, 0.0 }, { 1500.0, 80.0, 1.5 },
		{ 1500.0, 80.0, NAN },
	};
	struct rating_opponent badop[] = {
		{ NAN, 80.0, 1.0 }, { 1500.0, 0.0, 1.0 }, { 1500.0, 400.0, 1.0 },
		{ 1500.0, 80.0, -0.1 }, { 1500.0, 80.0, 1.1 }, { 1500.0, 80.0, NAN },
		{ -20000.0, 80.0, 1.0 },
	};
	size_t i;

	ck_assert_int_eq(rating_update_game(&a, &b, 2.0), RATING_EINVAL);
	ck_assert_int_eq(rating_update_game(&a, &b, -0.5), RATING_EINVAL);
	ck_assert_int_eq(rating_update_game(&a, &b, NAN), RATING_EINVAL);
	ck_assert_int_eq(rating_update_game(&a, &a, 1.0), RATING_EINVAL);
	ck_assert_int_eq(rating_update_game(NULL, &b, 1.0), RATING_EINVAL);
	ck_assert_int_eq(rating_update_game(&a, NULL, 1.0), RATING_EINVAL);
	ck_same_rating(&a, &ka);
	ck_same_rating(&b, &kb);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct rating x = bad[i];

		ck_assert_msg(rating_update_game(&x, &b, 1.0) == RATING_EINVAL, "bad[%zu]", i);
		ck_assert_msg(rating_update_game(&a, &x, 1.0) == RATING_EINVAL, "bad[%zu]", i);
		ck_assert_msg(rating_update_period(&x, NULL, 0) == RATING_EINVAL, "bad[%zu]", i);
		ck_same_rating(&a, &ka);
		ck_same_rating(&b, &kb);
	}
	for (i = 0; i < sizeof badop / sizeof badop[0]; i++) {
		struct rating_opponent o[2] = { { 1500.0, 80.0, 1.0 }, badop[i] };

		ck_assert_msg(rating_update_period(&a, o, 2) == RATING_EINVAL, "badop[%zu]", i);
		ck_same_rating(&a, &ka);
	}
	ck_assert_int_eq(rating_update_period(&a, NULL, 1), RATING_EINVAL);
	ck_assert_int_eq(rating_update_period(NULL, NULL, 0), RATING_EINVAL);
	ck_same_rating(&a, &ka);
}
END_TEST

START_TEST(test_extremes)
{
	/* The widest accepted gap: the update stays finite and in bounds. */
	struct rating a = { RATING_VALUE_LIMIT, 350.0, RATING_VOLATILITY_MAX };
	struct rating b = { -RATING_VALUE_LIMIT, 350.0, RATING_VOLATILITY_MAX };

	ck_assert_int_eq(rating_update_game(&a, &b, 0.0), RATING_OK);
	ck_assert(isfinite(a.rating) && isfinite(b.rating));
	ck_assert(a.rating < RATING_VALUE_LIMIT && b.rating > -RATING_VALUE_LIMIT);
	ck_assert(a.rd >= RATING_RD_MIN && a.rd <= RATING_RD_MAX);
	ck_assert(a.volatility > 0.0 && a.volatility <= RATING_VOLATILITY_MAX);
	/* Every result is a valid input again. */
	ck_assert_int_eq(rating_update_game(&a, &b, 0.0), RATING_OK);
	ck_assert_int_eq(rating_update_game(&a, &b, 1.0), RATING_OK);
	ck_assert_int_eq(rating_idle(&a, 3.0), RATING_OK);
}
END_TEST

static unsigned long lcg_state = 12345;

static double lcg_unit(void)
{
	lcg_state = lcg_state * 6364136223846793005UL + 1442695040888963407UL;
	return (double)((lcg_state >> 11) & ((1UL << 53) - 1)) / (double)(1UL << 53);
}

static bool rating_in_bounds(const struct rating *r)
{
	return isfinite(r->rating) && fabs(r->rating) <= RATING_VALUE_LIMIT &&
		r->rd >= RATING_RD_MIN && r->rd <= RATING_RD_MAX && r->volatility > 0.0 &&
		r->volatility <= RATING_VOLATILITY_MAX;
}

START_TEST(test_random_walk_stays_valid)
{
	/* 20 players, 20000 games with random (often absurd) results and handicaps, and idle
	 * time: every update succeeds and every value stays within its documented bounds. */
	struct rating p[20];
	int i;

	for (i = 0; i < 20; i++)
		rating_init(&p[i]);
	for (i = 0; i < 20000; i++) {
		int x = (int)(lcg_unit() * 20), y = (int)(lcg_unit() * 20);
		double u = lcg_unit();
		double score = u < 0.45 ? 0.0 : u < 0.9 ? 1.0 : 0.5;
		int hc = lcg_unit() < 0.2 ? (int)(lcg_unit() * (RATING_HANDICAP_MAX + 1)) : 0;

		if (x == y)
			y = (y + 1) % 20;
		ck_assert_int_eq(rating_update_handicap(&p[x], &p[y], score, hc), RATING_OK);
		if (lcg_unit() < 0.01)
			ck_assert_int_eq(rating_idle(&p[x], lcg_unit() * 500.0), RATING_OK);
		ck_assert_msg(rating_in_bounds(&p[x]) && rating_in_bounds(&p[y]), "game %d", i);
	}
}
END_TEST

/* ---- Initial ratings ---- */

START_TEST(test_init)
{
	struct rating r, k;
	char buf[RANK_STR_MAX];

	rating_init(&r);
	ck_assert(r.rating == 1500.0 && r.rd == 350.0 && r.volatility == 0.06);
	ck_assert_int_eq(rating_to_rank(r.rating, r.rd, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "6k?");

	ck_assert_int_eq(rating_init_rank(&r, -15), RATING_OK);
	ck_assert(r.rating == rank_to_rating(-15));
	ck_assert(r.rd == RATING_RD_DECLARED && r.volatility == 0.06);
	ck_assert_int_eq(rating_to_rank(r.rating, r.rd, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "15k?");
	ck_assert_int_eq(rating_init_rank(&r, -30), RATING_OK); /* 30k: the EGD's weakest */
	ck_assert(r.rating == rank_to_rating(-30));
	ck_assert_int_eq(rating_to_rank(r.rating, r.rd, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "30k?");
	ck_assert_int_eq(rating_init_rank(&r, RANK_MAX), RATING_OK);
	ck_assert_int_eq(rating_to_rank(r.rating, r.rd, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "9d?");
	ck_assert_int_eq(rating_init_rank(&r, 2), RATING_OK);
	ck_assert_int_eq(rating_to_rank(r.rating, RATING_RD_PROVISIONAL, buf, sizeof buf),
			RATING_OK);
	ck_assert_str_eq(buf, "3d");

	k = r;
	ck_assert_int_eq(rating_init_rank(&r, RANK_MIN - 1), RATING_EINVAL); /* 31k: none */
	ck_assert_int_eq(rating_init_rank(&r, RANK_MAX + 1), RATING_EINVAL);
	ck_same_rating(&r, &k);
	ck_assert_int_eq(rating_init_rank(NULL, 0), RATING_EINVAL);
}
END_TEST

/* ---- Ranks ---- */

START_TEST(test_rank_values)
{
	ck_assert_int_eq(rating_rank_value(1500.0), -6); /* new player: 6k */
	ck_assert_int_eq(rating_rank_value(RATING_RANK_A), RANK_MIN);
	ck_assert_int_eq(rating_rank_value(524.0), RANK_MIN);
	ck_assert_int_eq(rating_rank_value(0.0), RANK_MIN);
	ck_assert_int_eq(rating_rank_value(-300.0), RANK_MIN);
	ck_assert_int_eq(rating_rank_value(NAN), RANK_MIN);
	ck_assert_int_eq(rating_rank_value(5000.0), RANK_MAX);
	ck_assert_int_eq(rating_rank_value(INFINITY), RANK_MAX);
	/* The 1k/1d boundary is 525 exp(30 / 23.15) = 1918.49. */
	ck_assert_int_eq(rating_rank_value(1918.4), -1);
	ck_assert_int_eq(rating_rank_value(1918.6), 0);
	ck_near(rating_rank_float(525.0 * exp(30.0 / 23.15)), 0.0, 1e-12, "1d bottom");
	ck_near(rating_rank_float(525.0), -30.0, 1e-12, "30k bottom");
	ck_assert(rating_rank_float(0.0) == -INFINITY);
	ck_assert(isnan(rating_rank_float(NAN)));
	/* Middles of ranks. */
	ck_near(rank_to_rating(-6), 1512.79, 0.01, "6k");
	ck_near(rank_to_rating(-1), 1877.50, 0.01, "1k");
	ck_near(rank_to_rating(0), 1960.38, 0.01, "1d");
	ck_near(rank_to_rating(8), 2769.62, 0.01, "9d");
	ck_assert(isnan(rank_to_rating(RANK_MIN - 1)));
	ck_assert(isnan(rank_to_rating(RANK_MAX + 1)));
	/* Ranks widen as ratings grow (log scale). */
	ck_assert(rank_to_rating(0) - rank_to_rating(-1) > rank_to_rating(-20) - rank_to_rating(-21));
}
END_TEST

START_TEST(test_rank_round_trips)
{
	int v;

	for (v = RANK_MIN; v <= RANK_MAX; v++) {
		char s[RANK_STR_MAX], t[RANK_STR_MAX];
		int back = 999;
		double mid = rank_to_rating(v);

		ck_assert_msg(rating_rank_value(mid) == v, "middle of %d", v);
		/* Just inside both edges of the band. */
		ck_assert_int_eq(rating_rank_value(RATING_RANK_A * exp((v + 30 + 0.001) / 23.15)), v);
		ck_assert_int_eq(rating_rank_value(RATING_RANK_A * exp((v + 30 + 0.999) / 23.15)), v);
		ck_assert_int_eq(rank_format(v, s, sizeof s), RATING_OK);
		ck_assert_int_eq(rank_parse(s, &back), RATING_OK);
		ck_assert_int_eq(back, v);
		ck_assert_int_eq(rating_to_rank(mid, 50.0, t, sizeof t), RATING_OK);
		ck_assert_str_eq(t, s);
	}
}
END_TEST

START_TEST(test_rank_format)
{
	char buf[RANK_STR_MAX];

	ck_assert_int_eq(rank_format(-30, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "30k");
	ck_assert_int_eq(rank_format(-1, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "1k");
	ck_assert_int_eq(rank_format(0, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "1d");
	ck_assert_int_eq(rank_format(8, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "9d");
	strcpy(buf, "xx");
	ck_assert_int_eq(rank_format(-31, buf, sizeof buf), RATING_EINVAL);
	ck_assert_int_eq(rank_format(9, buf, sizeof buf), RATING_EINVAL);
	ck_assert_int_eq(rank_format(-30, buf, 3), RATING_ENOSPC); /* "30k" needs 4 */
	ck_assert_str_eq(buf, "xx");
	ck_assert_int_eq(rank_format(-30, buf, 4), RATING_OK);
	ck_assert_int_eq(rank_format(0, NULL, 4), RATING_EINVAL);
}
END_TEST

START_TEST(test_rating_to_rank_provisional)
{
	char buf[RANK_STR_MAX];
	double r3k = rank_to_rating(-3);

	ck_assert_int_eq(rating_to_rank(r3k, 60.0, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "3k");
	ck_assert_int_eq(rating_to_rank(r3k, RATING_RD_PROVISIONAL, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "3k"); /* the threshold itself is established */
	ck_assert_int_eq(rating_to_rank(r3k, RATING_RD_PROVISIONAL + 0.01, buf, sizeof buf),
			RATING_OK);
	ck_assert_str_eq(buf, "3k?");
	ck_assert(!rating_is_provisional(RATING_RD_PROVISIONAL));
	ck_assert(rating_is_provisional(RATING_RD_PROVISIONAL + 0.01));
	ck_assert_int_eq(rating_to_rank(rank_to_rating(1), 200.0, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "2d?");
	/* Clamped at both ends. */
	ck_assert_int_eq(rating_to_rank(100.0, 350.0, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "30k?");
	ck_assert_int_eq(rating_to_rank(3500.0, 40.0, buf, sizeof buf), RATING_OK);
	ck_assert_str_eq(buf, "9d");
	/* Buffer sizes: "30k?" needs 5, "6k?" needs 4; out untouched on errors. */
	strcpy(buf, "zz");
	ck_assert_int_eq(rating_to_rank(100.0, 350.0, buf, 4), RATING_ENOSPC);
	ck_assert_str_eq(buf, "zz");
	ck_assert_int_eq(rating_to_rank(1500.0, 350.0, buf, 3), RATING_ENOSPC);
	ck_assert_int_eq(rating_to_rank(1500.0, 350.0, buf, 0), RATING_ENOSPC);
	ck_assert_str_eq(buf, "zz");
	ck_assert_int_eq(rating_to_rank(1500.0, 350.0, buf, 4), RATING_OK);
	ck_assert_str_eq(buf, "6k?");
	strcpy(buf, "zz");
	ck_assert_int_eq(rating_to_rank(NAN, 60.0, buf, sizeof buf), RATING_EINVAL);
	ck_assert_int_eq(rating_to_rank(1500.0, INFINITY, buf, sizeof buf), RATING_EINVAL);
	ck_assert_int_eq(rating_to_rank(1500.0, 60.0, NULL, 5), RATING_EINVAL);
	ck_assert_str_eq(buf, "zz");
}
END_TEST

START_TEST(test_rank_parse_valid)
{
	static const struct {
		const char *s;
		int v;
	} ok[] = {
		{ "15k", -15 }, { "3d", 2 }, { "3D", 2 }, { "15K", -15 }, { "30k", -30 },
		{ "1k", -1 }, { "1d", 0 }, { "9d", 8 }, { "10k", -10 }, { "29K", -29 },
	};
	size_t i;

	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		int v = 999;

		ck_assert_msg(rank_parse(ok[i].s, &v) == RATING_OK, "%s", ok[i].s);
		ck_assert_msg(v == ok[i].v, "%s: %d", ok[i].s, v);
	}
}
END_TEST

START_TEST(test_rank_parse_invalid)
{
	static const char *const bad[] = {
		"", "0k", "0d", "31k", "99k", "10d", "1p", "9p", "k", "d", "3", "03k", " 3k",
		"3k ", "3kk", "-3k", "+3k", "3 k", "3dan", "3kyu", "100k", "1x", "3k?", "\xef\xbc\x91k",
	};
	size_t i;
	int v = 123;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(rank_parse(bad[i], &v) == RATING_EINVAL, "\"%s\"", bad[i]);
	ck_assert_int_eq(v, 123);
	ck_assert_int_eq(rank_parse(NULL, &v), RATING_EINVAL);
	ck_assert_int_eq(rank_parse("3k", NULL), RATING_EINVAL);
}
END_TEST

START_TEST(test_strerror)
{
	ck_assert_str_eq(rating_strerror(RATING_OK), "ok");
	ck_assert(strcmp(rating_strerror(RATING_EINVAL), rating_strerror(RATING_ENOSPC)) != 0);
	ck_assert(strcmp(rating_strerror(RATING_ENOCONV), rating_strerror(-99)) != 0);
}
END_TEST

static Suite *rating_suite(void)
{
	Suite *s = suite_create("rating");
	TCase *g = tcase_create("glicko2"), *e = tcase_create("edges"), *h = tcase_create("handicap"),
	      *k = tcase_create("ranks");

	tcase_add_test(g, test_paper_example);
	tcase_add_test(g, test_new_players_game);
	tcase_add_test(g, test_game_simultaneous);
	tcase_add_test(g, test_period_multi_vs_reference);
	tcase_add_test(g, test_period_no_games);
	tcase_add_test(g, test_draw_unequal);
	tcase_add_test(g, test_draw_equal);
	suite_add_tcase(s, g);

	tcase_add_test(e, test_rd_floor);
	tcase_add_test(e, test_rd_floor_many_games);
	tcase_add_test(e, test_rd_ceiling);
	tcase_add_test(e, test_idle);
	tcase_add_test(e, test_idle_invalid);
	tcase_add_test(e, test_update_invalid);
	tcase_add_test(e, test_extremes);
	tcase_add_test(e, test_random_walk_stays_valid);
	tcase_add_test(e, test_init);
	suite_add_tcase(s, e);

	tcase_add_test(h, test_handicap_shift);
	tcase_add_test(h, test_handicap_even_cases);
	tcase_add_test(h, test_handicap_fair);
	tcase_add_test(h, test_handicap_smaller_gain);
	tcase_add_test(h, test_handicap_invalid);
	suite_add_tcase(s, h);

	tcase_add_test(k, test_rank_values);
	tcase_add_test(k, test_rank_round_trips);
	tcase_add_test(k, test_rank_format);
	tcase_add_test(k, test_rating_to_rank_provisional);
	tcase_add_test(k, test_rank_parse_valid);
	tcase_add_test(k, test_rank_parse_invalid);
	tcase_add_test(k, test_strerror);
	suite_add_tcase(s, k);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(rating_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
