/* rating: Glicko-2 (Glickman 2013) and the kyu/dan rank scale. See rating.h. */
#include "rating.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Rank value offset: rank value v is continuous rank v + RANK_OFFSET on OGS's 0-based scale
 * (30k = 0, 1d = 30). */
#define RANK_OFFSET 30

#define RATING_PI 3.14159265358979323846

static bool rating_valid(const struct rating *r)
{
	return r != NULL && isfinite(r->rating) && fabs(r->rating) <= RATING_VALUE_LIMIT &&
		isfinite(r->rd) && r->rd > 0.0 && r->rd <= RATING_RD_MAX &&
		isfinite(r->volatility) && r->volatility > 0.0 &&
		r->volatility <= RATING_VOLATILITY_MAX;
}

static bool opponent_valid(const struct rating_opponent *o)
{
	return isfinite(o->rating) && fabs(o->rating) <= RATING_VALUE_LIMIT &&
		isfinite(o->rd) && o->rd > 0.0 && o->rd <= RATING_RD_MAX &&
		isfinite(o->score) && o->score >= 0.0 && o->score <= 1.0;
}

static double clamp_rd(double rd)
{
	if (rd > RATING_RD_MAX)
		return RATING_RD_MAX;
	if (rd < RATING_RD_MIN)
		return RATING_RD_MIN;
	return rd;
}

void rating_init(struct rating *r)
{
	r->rating = RATING_INITIAL;
	r->rd = RATING_RD_INITIAL;
	r->volatility = RATING_VOLATILITY_INITIAL;
}

int rating_init_rank(struct rating *r, int rank_value)
{
	if (r == NULL || rank_value < RANK_DECLARED_MIN || rank_value > RANK_MAX)
		return RATING_EINVAL;
	r->rating = rank_to_rating(rank_value);
	r->rd = RATING_RD_DECLARED;
	r->volatility = RATING_VOLATILITY_INITIAL;
	return RATING_OK;
}

/* Step 3: g(phi). */
static double glicko_g(double phi)
{
	return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (RATING_PI * RATING_PI));
}

/* Step 3: E(mu, mu_j, phi_j) = 1 / (1 + exp(-z)), z = g_j (mu - mu_j), and 1 - E computed
 * as 1 / (1 + exp(z)) so that E (1 - E) stays positive for far-apart ratings. */
static void glicko_e(double mu, double mu_j, double g_j, double *e, double *one_minus_e)
{
	double z = g_j * (mu - mu_j);

	*e = 1.0 / (1.0 + exp(-z));
	*one_minus_e = 1.0 / (1.0 + exp(z));
}

/* Step 5.1: f(x) for the volatility. */
struct vol_f {
	double delta2, phi2, v, a;
};

static double vol_f(const struct vol_f *p, double x)
{
	double ex = exp(x);
	double d = p->phi2 + p->v + ex;

	return ex * (p->delta2 - p->phi2 - p->v - ex) / (2.0 * d * d) -
		(x - p->a) / (RATING_TAU * RATING_TAU);
}

/* Step 5: the new volatility sigma' by the Illinois algorithm. Returns 0 or RATING_ENOCONV. */
static int new_volatility(double sigma, double phi, double v, double delta, double *out)
{
	struct vol_f p = { delta * delta, phi * phi, v, log(sigma * sigma) };
	double A = p.a, B, fA, fB;
	int i;

	/* 5.2: initial bracket. */
	if (p.delta2 > p.phi2 + v) {
		B = log(p.delta2 - p.phi2 - v);
	} else {
		int k = 1;

		while (vol_f(&p, p.a - k * RATING_TAU) < 0.0) {
			if (++k > RATING_BRACKET_STEPS_MAX)
				return RATING_ENOCONV;
		}
		B = p.a - k * RATING_TAU;
	}
	/* 5.3-5.4 */
	fA = vol_f(&p, A);
	fB = vol_f(&p, B);
	for (i = 0; fabs(B - A) > RATING_EPSILON; i++) {
		double C, fC;

		if (i >= RATING_ILLINOIS_ITER_MAX || fB == fA)
			return RATING_ENOCONV;
		C = A + (A - B) * fA / (fB - fA);
		fC = vol_f(&p, C);
		if (fC * fB <= 0.0) {
			A = B;
			fA = fB;
		} else {
			fA /= 2.0;
		}
		B = C;
		fB = fC;
	}
	/* 5.5 */
	*out = exp(A / 2.0);
	return isfinite(*out) && *out > 0.0 ? RATING_OK : RATING_ENOCONV;
}

int rating_update_period(struct rating *r, const struct rating_opponent *opps, size_t n)
{
	double mu, phi, sigma, inv_v = 0.0, sum = 0.0, v, delta, sigma2, phi_star, phi2, mu2;
	struct rating out;
	size_t j;
	int err;

	if (!rating_valid(r) || (opps == NULL && n > 0))
		return RATING_EINVAL;
	for (j = 0; j < n; j++)
		if (!opponent_valid(&opps[j]))
			return RATING_EINVAL;

	/* Step 2: to the Glicko-2 scale. */
	mu = (r->rating - RATING_INITIAL) / RATING_SCALE;
	phi = r->rd / RATING_SCALE;
	sigma = r->volatility;

	if (n == 0) {
		/* Step 6 without games: only the deviation grows. */
		r->rd = clamp_rd(RATING_SCALE * sqrt(phi * phi + sigma * sigma));
		return RATING_OK;
	}

	/* Steps 3-4: estimated variance v and improvement delta. */
	for (j = 0; j < n; j++) {
		double mu_j = (opps[j].rating - RATING_INITIAL) / RATING_SCALE;
		double g_j = glicko_g(opps[j].rd / RATING_SCALE);
		double e_j, f_j;

		glicko_e(mu, mu_j, g_j, &e_j, &f_j);
		inv_v += g_j * g_j * e_j * f_j;
		sum += g_j * (opps[j].score - e_j);
	}
	if (!(inv_v > 0.0))
		return RATING_ENOCONV;
	v = 1.0 / inv_v;
	delta = v * sum;

	/* Step 5: new volatility. */
	err = new_volatility(sigma, phi, v, delta, &sigma2);
	if (err != RATING_OK)
		return err;
	if (sigma2 > RATING_VOLATILITY_MAX)
		sigma2 = RATING_VOLATILITY_MAX;

	/* Steps 6-7: new deviation and rating. */
	phi_star = sqrt(phi * phi + sigma2 * sigma2);
	phi2 = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
	mu2 = mu + phi2 * phi2 * sum;

	/* Step 8: back to the Glicko scale. */
	out.rating = RATING_SCALE * mu2 + RATING_INITIAL;
	if (!isfinite(out.rating) || !isfinite(phi2))
		return RATING_ENOCONV;
	out.rating = fmin(fmax(out.rating, -RATING_VALUE_LIMIT), RATING_VALUE_LIMIT);
	out.rd = clamp_rd(RATING_SCALE * phi2);
	out.volatility = sigma2;
	*r = out;
	return RATING_OK;
}

double rating_handicap_shift(double black_rating, int handicap)
{
	if (!isfinite(black_rating) || handicap < 0 || handicap > RATING_HANDICAP_MAX)
		return NAN;
	if (handicap < 2)
		return 0.0;
	return fmax(black_rating, RATING_RANK_A) * (exp(handicap / RATING_RANK_C) - 1.0);
}

int rating_update_handicap(struct rating *black, struct rating *white, double score_black,
		int handicap)
{
	struct rating b, w;
	struct rating_opponent ob, ow;
	double shift;
	int err;

	if (!rating_valid(black) || !rating_valid(white) || black == white ||
			!isfinite(score_black) || score_black < 0.0 || score_black > 1.0 ||
			handicap < 0 || handicap > RATING_HANDICAP_MAX)
		return RATING_EINVAL;
	shift = rating_handicap_shift(black->rating, handicap);

	/* Black meets White lowered by the shift; White meets Black raised by it. The shifted
	 * opponent may lie past RATING_VALUE_LIMIT only for absurd inputs; clamp it. */
	b = *black;
	w = *white;
	ob = (struct rating_opponent){ fmax(white->rating - shift, -RATING_VALUE_LIMIT),
		white->rd, score_black };
	ow = (struct rating_opponent){ fmin(black->rating + shift, RATING_VALUE_LIMIT),
		black->rd, 1.0 - score_black };
	err = rating_update_period(&b, &ob, 1);
	if (err != RATING_OK)
		return err;
	err = rating_update_period(&w, &ow, 1);
	if (err != RATING_OK)
		return err;
	*black = b;
	*white = w;
	return RATING_OK;
}

int rating_update_game(struct rating *a, struct rating *b, double score_a)
{
	return rating_update_handicap(a, b, score_a, 0);
}

int rating_idle(struct rating *r, double idle_periods)
{
	double phi;

	if (!rating_valid(r) || !isfinite(idle_periods) || idle_periods < 0.0)
		return RATING_EINVAL;
	phi = r->rd / RATING_SCALE;
	r->rd = clamp_rd(RATING_SCALE *
			sqrt(phi * phi + idle_periods * r->volatility * r->volatility));
	return RATING_OK;
}

bool rating_is_provisional(double rd)
{
	return rd > RATING_RD_PROVISIONAL;
}

double rating_rank_float(double rating)
{
	if (isnan(rating))
		return NAN;
	if (rating <= 0.0)
		return -INFINITY;
	return RATING_RANK_C * log(rating / RATING_RANK_A) - RANK_OFFSET;
}

int rating_rank_value(double rating)
{
	double x = rating_rank_float(rating);

	if (isnan(x) || x < RANK_MIN)
		return RANK_MIN;
	if (x >= RANK_MAX)
		return RANK_MAX;
	return (int)floor(x);
}

int rank_format(int rank_value, char *out, size_t n)
{
	char buf[RANK_STR_MAX];
	int len;

	if (out == NULL || rank_value < RANK_MIN || rank_value > RANK_MAX)
		return RATING_EINVAL;
	if (rank_value < 0)
		len = snprintf(buf, sizeof buf, "%dk", -rank_value);
	else
		len = snprintf(buf, sizeof buf, "%dd", rank_value + 1);
	if (len < 0 || (size_t)len >= n)
		return RATING_ENOSPC;
	memcpy(out, buf, (size_t)len + 1);
	return RATING_OK;
}

int rating_to_rank(double rating, double rd, char *out, size_t n)
{
	char buf[RANK_STR_MAX];
	size_t len;

	if (out == NULL || !isfinite(rating) || !isfinite(rd))
		return RATING_EINVAL;
	if (rank_format(rating_rank_value(rating), buf, sizeof buf - 1) != RATING_OK)
		return RATING_EINVAL; /* not reached: the value is clamped */
	len = strlen(buf);
	if (rating_is_provisional(rd))
		buf[len++] = '?';
	buf[len] = '\0';
	if (len >= n)
		return RATING_ENOSPC;
	memcpy(out, buf, len + 1);
	return RATING_OK;
}

int rank_parse(const char *s, int *rank_value)
{
	int num = 0, v;
	size_t i = 0;

	if (s == NULL || rank_value == NULL)
		return RATING_EINVAL;
	/* One or two digits, no leading zero. */
	if (s[0] < '1' || s[0] > '9')
		return RATING_EINVAL;
	while (i < 2 && s[i] >= '0' && s[i] <= '9')
		num = num * 10 + (s[i++] - '0');
	if (s[i] == '\0' || s[i + 1] != '\0')
		return RATING_EINVAL;
	switch (tolower((unsigned char)s[i])) {
	case 'k':
		if (num > -RANK_MIN)
			return RATING_EINVAL;
		v = -num;
		break;
	case 'd':
		if (num > RANK_MAX + 1)
			return RATING_EINVAL;
		v = num - 1;
		break;
	default:
		return RATING_EINVAL;
	}
	*rank_value = v;
	return RATING_OK;
}

double rank_to_rating(int rank_value)
{
	if (rank_value < RANK_MIN || rank_value > RANK_MAX)
		return NAN;
	return RATING_RANK_A * exp((rank_value + RANK_OFFSET + 0.5) / RATING_RANK_C);
}

const char *rating_strerror(int err)
{
	switch (err) {
	case RATING_OK:
		return "ok";
	case RATING_EINVAL:
		return "invalid rating argument";
	case RATING_ENOSPC:
		return "output buffer too small";
	case RATING_ENOCONV:
		return "rating update did not converge";
	default:
		return "unknown rating error";
	}
}
