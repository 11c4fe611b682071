/* score: area counting and results. See score.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "score.h"

double score_handicap_compensation(int handicap)
{
	return handicap >= 2 ? (double)handicap : 0.0;
}

double score_effective_komi(double komi, int handicap)
{
	return komi + score_handicap_compensation(handicap);
}

int score_mark_dead(const struct board *b, const int *pts, int n, bool *dead)
{
	int chain[BOARD_POINTS_MAX];
	memset(dead, 0, BOARD_POINTS_MAX * sizeof *dead);
	for (int i = 0; i < n; i++) {
		int k = board_chain(b, pts[i], chain);
		if (k == 0) {
			memset(dead, 0, BOARD_POINTS_MAX * sizeof *dead);
			return i + 1;
		}
		for (int j = 0; j < k; j++)
			dead[chain[j]] = true;
	}
	return 0;
}

/* Flood the board's regions of empty points and dead stones: count each side's area into
 * *black, *white (shared regions half to each) and, if owner is not NULL, mark the points of
 * one-coloured regions with their owner (score_territory). */
static void count_regions(const struct board *b, const bool *dead, double *black_out,
			  double *white_out, unsigned char *owner)
{
	bool seen[BOARD_POINTS_MAX] = {false};
	int stack[BOARD_POINTS_MAX], region[BOARD_POINTS_MAX];
	double black = 0, white = 0;
	int np = b->stride * b->stride;
	if (owner)
		memset(owner, EMPTY, BOARD_POINTS_MAX);

	for (int p = 0; p < np; p++) {
		enum color c = board_at(b, p);
		bool alive = (c == BLACK || c == WHITE) && !(dead && dead[p]);
		if (alive) {
			if (c == BLACK)
				black += 1;
			else
				white += 1;
			continue;
		}
		if (c == BORDER || seen[p])
			continue;
		/* Flood the region of empty points and dead stones; note which living colours
		 * border it. */
		int sp = 0, size = 0;
		bool touch[3] = {false, false, false};
		stack[sp++] = p;
		seen[p] = true;
		while (sp) {
			int q = stack[--sp];
			region[size++] = q;
			const int nbs[4] = {q - 1, q + 1, q - b->stride, q + b->stride};
			for (int k = 0; k < 4; k++) {
				int m = nbs[k];
				enum color mc = board_at(b, m);
				if (mc == BORDER)
					continue;
				if ((mc == BLACK || mc == WHITE) && !(dead && dead[m])) {
					touch[mc] = true;
				} else if (!seen[m]) {
					seen[m] = true;
					stack[sp++] = m;
				}
			}
		}
		if (touch[BLACK] && !touch[WHITE])
			black += size;
		else if (touch[WHITE] && !touch[BLACK])
			white += size;
		else if (touch[BLACK] && touch[WHITE]) {
			black += size / 2.0;
			white += size / 2.0;
		}
		if (owner && touch[BLACK] != touch[WHITE])
			for (int i = 0; i < size; i++)
				owner[region[i]] = (unsigned char)(touch[BLACK] ? BLACK : WHITE);
	}
	*black_out = black;
	*white_out = white;
}

void score_territory(const struct board *b, const bool *dead, unsigned char *owner)
{
	double black, white;
	count_regions(b, dead, &black, &white, owner);
}

void score_area(const struct board *b, const bool *dead, double komi, int handicap,
		const int warnings[3], struct score *out)
{
	score_area_komi(b, dead, score_effective_komi(komi, handicap), warnings, out);
}

void score_area_komi(const struct board *b, const bool *dead, double effective_komi,
		     const int warnings[3], struct score *out)
{
	double black, white;
	count_regions(b, dead, &black, &white, NULL);
	if (warnings) {
		/* Art. 24.1: each warning moves one point (a stone) to the other side. */
		black += warnings[WHITE] - warnings[BLACK];
		white += warnings[BLACK] - warnings[WHITE];
	}
	out->black = black;
	out->white = white;
	out->komi = effective_komi;
}

double score_margin(const struct score *s)
{
	return s->black - s->white - s->komi;
}

/* Print a non-negative number of points minimally: 3, 3.5, 0.25. */
static void print_points(char *out, size_t n, double v)
{
	if (v == floor(v))
		snprintf(out, n, "%.0f", v);
	else {
		snprintf(out, n, "%.2f", v);
		size_t l = strlen(out);
		while (l > 0 && out[l - 1] == '0')
			out[--l] = '\0';
		if (l > 0 && out[l - 1] == '.') /* 80.999 -> "81.00" -> "81" */
			out[--l] = '\0';
	}
}

char *score_result(double margin, char *out)
{
	char num[SCORE_RESULT_MAX - 2];
	if (fabs(margin) < 1e-9 || fabs(margin) >= 1e6) {
		snprintf(out, SCORE_RESULT_MAX, fabs(margin) < 1e-9 ? "0" : "Void");
		return out;
	}
	print_points(num, sizeof num, fabs(margin));
	snprintf(out, SCORE_RESULT_MAX, "%c+%s", margin > 0 ? 'B' : 'W', num);
	return out;
}

char *score_result_stones(double margin, char *out)
{
	static const char *const quarter[] = {"", "¼", "½", "¾"};
	if (fabs(margin) < 1e-9) {
		snprintf(out, 32, "0");
		return out;
	}
	/* Points to stones: halve, and express in quarters (komi is in half points). */
	long q = lround(fabs(margin) * 2.0); /* quarters of a stone */
	long whole = q / 4;
	int frac = (int)(q % 4);
	if (whole > 0 || frac == 0)
		snprintf(out, 32, "%c+%ld%s", margin > 0 ? 'B' : 'W', whole, quarter[frac]);
	else
		snprintf(out, 32, "%c+%s", margin > 0 ? 'B' : 'W', quarter[frac]);
	return out;
}
