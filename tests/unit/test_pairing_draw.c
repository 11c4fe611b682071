/* Unit tests for common/match (maximum-weight matching) and common/pairing's other draws
 * (Chinese Rules 2002 Art. 26-28, docs/pairing.md): the matcher against brute force on small
 * random graphs and against its own dual certificate on larger ones; Berger tables against
 * FIDE C.05 Annex 1; McMahon scores and handicaps; knockout brackets, single and double
 * elimination. The Swiss and McMahon draws are in test_pairing.c. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "pairing.h"
#include "pairing_sim.h"

#define BF_MAX 12
static int bf_n;
static bool bf_e[BF_MAX][BF_MAX];
static int64_t bf_w[BF_MAX][BF_MAX];

/* Best (cardinality, weight) and best weight alone over all matchings. */
static void brute(int mask, int card, int64_t w, int *bc, int64_t *bw, int64_t *bwo)
{
	int i = 0;
	while (i < bf_n && ((mask >> i) & 1))
		i++;
	if (i >= bf_n) {
		if (card > *bc || (card == *bc && w > *bw)) {
			*bc = card;
			*bw = w;
		}
		if (w > *bwo)
			*bwo = w;
		return;
	}
	brute(mask | 1 << i, card, w, bc, bw, bwo);
	for (int j = i + 1; j < bf_n; j++)
		if (!((mask >> j) & 1) && bf_e[i][j])
			brute(mask | 1 << i | 1 << j, card + 1, w + bf_w[i][j], bc, bw, bwo);
}

START_TEST(test_match_brute_force)
{
	struct match_edge e[BF_MAX * BF_MAX];
	int graphs = 0;
	for (int seed = 1; seed <= 2500; seed++) {
		rng_seed((uint64_t)seed);
		bf_n = (int)(rng() % (BF_MAX + 1));
		int m = 0, dens = (int)(rng() % 100), wmode = (int)(rng() % 4);
		for (int i = 0; i < bf_n; i++)
			for (int j = i + 1; j < bf_n; j++) {
				bf_e[i][j] = false;
				if ((int)(rng() % 100) >= dens)
					continue;
				int64_t w;
				if (wmode == 0)
					w = rng() % 5;
				else if (wmode == 1)
					w = rng() % 1000;
				else if (wmode == 2)
					w = ((int64_t)rng() << 26) % MATCH_WEIGHT_MAX;
				else
					w = (int64_t)(rng() % 7) - 2; /* some negative */
				if (rng() % 10 == 0)
					w = 0;
				if (rng() % 20 == 0)
					w = MATCH_WEIGHT_MAX - rng() % 3;
				bf_e[i][j] = true;
				bf_w[i][j] = w;
				bool flip = rng() & 1;
				e[m++] = (struct match_edge){ flip ? j : i, flip ? i : j, w };
			}
		int bc = -1;
		int64_t bw = INT64_MIN, bwo = INT64_MIN;
		brute(0, 0, 0, &bc, &bw, &bwo);
		static const unsigned flags[3] = { 0, MATCH_MAX_CARDINALITY, MATCH_PERFECT };
		for (int f = 0; f < 3; f++) {
			int mate[BF_MAX];
			ck_assert_int_eq(match_max_weight(bf_n, e, (size_t)m, flags[f], mate, NULL), 0);
			int card = 0;
			int64_t w = 0;
			for (int v = 0; v < bf_n; v++) {
				if (mate[v] < 0)
					continue;
				ck_assert_int_eq(mate[mate[v]], v);
				int a = v < mate[v] ? v : mate[v], b = v < mate[v] ? mate[v] : v;
				ck_assert_msg(bf_e[a][b], "seed %d: matched a non-edge", seed);
				if (v < mate[v]) {
					card++;
					w += bf_w[a][b];
				}
			}
			if (flags[f] == 0) {
				ck_assert_msg(w == bwo, "seed %d: weight %lld, best %lld", seed,
					      (long long)w, (long long)bwo);
			} else if (flags[f] == MATCH_MAX_CARDINALITY) {
				ck_assert_msg(card == bc && w == bw, "seed %d: maxcard %d/%lld, best %d/%lld",
					      seed, card, (long long)w, bc, (long long)bw);
			} else {
				ck_assert_int_eq(card, bc);
				if (2 * bc == bf_n)
					ck_assert_msg(w == bw, "seed %d: perfect %lld, best %lld", seed,
						      (long long)w, (long long)bw);
			}
		}
		graphs++;
	}
	ck_assert_int_eq(graphs, 2500);
}
END_TEST

/* Larger graphs with a planted perfect matching: the result is perfect and its dual
 * certificate holds (every edge slack >= 0, matched edges tight), which proves it optimal. */
START_TEST(test_match_certificate)
{
	long bounds_exact = 0, bounds_total = 0;
	for (int seed = 1; seed <= 60; seed++) {
		rng_seed((uint64_t)seed + 77);
		int n = 2 * (2 + (int)(rng() % 100));
		size_t cap = (size_t)n * 10, m = 0;
		struct match_edge *e = malloc(cap * sizeof *e);
		int *perm = malloc((size_t)n * sizeof *perm), *mate = malloc((size_t)n * sizeof *mate);
		ck_assert_ptr_nonnull(e);
		ck_assert_ptr_nonnull(perm);
		ck_assert_ptr_nonnull(mate);
		for (int i = 0; i < n; i++)
			perm[i] = i;
		for (int i = n - 1; i > 0; i--) {
			int j = (int)(rng() % (unsigned)(i + 1)), t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		for (int i = 0; i < n; i += 2)
			e[m++] = (struct match_edge){ perm[i], perm[i + 1], rng() % 1000 };
		while (m < cap) {
			int u = (int)(rng() % (unsigned)n), v = (int)(rng() % (unsigned)n);
			if (u != v)
				e[m++] = (struct match_edge){ u, v, (int64_t)(rng() % 100000) << (seed % 30) };
		}
		for (unsigned flags = MATCH_MAX_CARDINALITY; flags <= MATCH_PERFECT; flags++) {
			struct match_dual *d = NULL;
			ck_assert_int_eq(match_max_weight(n, e, m, flags, mate, &d), 0);
			ck_assert_ptr_nonnull(d);
			for (int v = 0; v < n; v++)
				ck_assert_int_ge(mate[v], 0);
			bool tight_seen[1024] = { false };
			for (size_t k = 0; k < m; k++) {
				int64_t s, lb;
				ck_assert_int_eq(match_dual_slack(d, e[k].u, e[k].v, e[k].w, &s), 0);
				ck_assert_msg(s >= 0, "seed %d: negative slack", seed);
				/* the O(1) bound never exceeds the exact slack, for any weight */
				ck_assert_int_eq(match_dual_slack_bound(d, e[k].u, e[k].v, e[k].w, &lb), 0);
				ck_assert_int_le(lb, s);
				int64_t w2 = e[k].w + (int64_t)(rng() % 3000) - 1500, s2;
				ck_assert_int_eq(match_dual_slack(d, e[k].u, e[k].v, w2, &s2), 0);
				ck_assert_int_eq(match_dual_slack_bound(d, e[k].u, e[k].v, w2, &lb), 0);
				ck_assert_int_le(lb, s2);
				bounds_exact += lb == s2;
				bounds_total++;
				if (mate[e[k].u] == e[k].v && s == 0)
					tight_seen[e[k].u < e[k].v ? e[k].u : e[k].v] = true;
			}
			for (int v = 0; v < n; v++)
				if (v < mate[v])
					ck_assert_msg(tight_seen[v], "seed %d: matched pair not tight", seed);
			match_dual_free(d);
		}
		free(e);
		free(perm);
		free(mate);
	}
	/* the bound is exact outside shared nested blossoms: most pairs, not all */
	ck_assert_int_gt(bounds_exact, bounds_total / 2);
	ck_assert_int_lt(bounds_exact, bounds_total);
}
END_TEST

START_TEST(test_match_errors)
{
	int mate[4];
	struct match_edge loop[] = { { 1, 1, 5 } };
	struct match_edge range[] = { { 0, 4, 5 } };
	struct match_edge heavy[] = { { 0, 1, MATCH_WEIGHT_MAX + 1 } };
	struct match_edge ok[] = { { 0, 1, 5 }, { 1, 2, 11 }, { 2, 3, 5 } };
	ck_assert_int_eq(match_max_weight(4, loop, 1, 0, mate, NULL), MATCH_EINVAL);
	ck_assert_int_eq(match_max_weight(4, range, 1, 0, mate, NULL), MATCH_EINVAL);
	ck_assert_int_eq(match_max_weight(4, heavy, 1, 0, mate, NULL), MATCH_EINVAL);
	ck_assert_int_eq(match_max_weight(4, ok, 3, 8, mate, NULL), MATCH_EINVAL);
	ck_assert_int_eq(match_max_weight(-1, ok, 0, 0, mate, NULL), MATCH_EINVAL);
	ck_assert_int_eq(match_max_weight(4, ok, 3, 0, NULL, NULL), MATCH_EINVAL);
	/* weight alone: the middle edge (11 > 5 + 5); max cardinality: the two outer ones */
	ck_assert_int_eq(match_max_weight(4, ok, 3, 0, mate, NULL), 0);
	ck_assert_int_eq(mate[1], 2);
	ck_assert_int_eq(mate[0], -1);
	ck_assert_int_eq(match_max_weight(4, ok, 3, MATCH_MAX_CARDINALITY, mate, NULL), 0);
	ck_assert_int_eq(mate[0], 1);
	ck_assert_int_eq(mate[3], 2);
	ck_assert_int_eq(match_max_weight(0, NULL, 0, 0, mate, NULL), 0);
	ck_assert_str_eq(match_strerror(MATCH_EINVAL), "invalid graph or argument");
}
END_TEST

/* ================================ round robin ================================ */

/* FIDE Handbook C.05 Annex 1 (White first). */
static const int fide4[3][2][2] = {
	{ { 1, 4 }, { 2, 3 } },
	{ { 4, 3 }, { 1, 2 } },
	{ { 2, 4 }, { 3, 1 } },
};
static const int fide6[5][3][2] = {
	{ { 1, 6 }, { 2, 5 }, { 3, 4 } },
	{ { 6, 4 }, { 5, 3 }, { 1, 2 } },
	{ { 2, 6 }, { 3, 1 }, { 4, 5 } },
	{ { 6, 5 }, { 1, 4 }, { 2, 3 } },
	{ { 3, 6 }, { 4, 2 }, { 5, 1 } },
};
static const int fide10[9][5][2] = {
	{ { 1, 10 }, { 2, 9 }, { 3, 8 }, { 4, 7 }, { 5, 6 } },
	{ { 10, 6 }, { 7, 5 }, { 8, 4 }, { 9, 3 }, { 1, 2 } },
	{ { 2, 10 }, { 3, 1 }, { 4, 9 }, { 5, 8 }, { 6, 7 } },
	{ { 10, 7 }, { 8, 6 }, { 9, 5 }, { 1, 4 }, { 2, 3 } },
	{ { 3, 10 }, { 4, 2 }, { 5, 1 }, { 6, 9 }, { 7, 8 } },
	{ { 10, 8 }, { 9, 7 }, { 1, 6 }, { 2, 5 }, { 3, 4 } },
	{ { 4, 10 }, { 5, 3 }, { 6, 2 }, { 7, 1 }, { 8, 9 } },
	{ { 10, 9 }, { 1, 8 }, { 2, 7 }, { 3, 6 }, { 4, 5 } },
	{ { 5, 10 }, { 6, 4 }, { 7, 3 }, { 8, 2 }, { 9, 1 } },
};

START_TEST(test_berger_fide)
{
	int b[8][2];
	ck_assert_int_eq(pairing_berger_rounds(4), 3);
	ck_assert_int_eq(pairing_berger_rounds(5), 5);
	ck_assert_int_eq(pairing_berger_rounds(6), 5);
	ck_assert_int_eq(pairing_berger_rounds(10), 9);
	for (int r = 1; r <= 3; r++) {
		ck_assert_int_eq(pairing_berger(4, r, b), 2);
		for (int i = 0; i < 2; i++) {
			ck_assert_int_eq(b[i][0], fide4[r - 1][i][0]);
			ck_assert_int_eq(b[i][1], fide4[r - 1][i][1]);
		}
	}
	for (int r = 1; r <= 5; r++) {
		/* 5 players use the 6-player table, 6 being the bye */
		for (int n = 5; n <= 6; n++) {
			ck_assert_int_eq(pairing_berger(n, r, b), 3);
			for (int i = 0; i < 3; i++) {
				ck_assert_int_eq(b[i][0], fide6[r - 1][i][0]);
				ck_assert_int_eq(b[i][1], fide6[r - 1][i][1]);
			}
		}
	}
	for (int r = 1; r <= 9; r++) {
		ck_assert_int_eq(pairing_berger(10, r, b), 5);
		for (int i = 0; i < 5; i++) {
			ck_assert_int_eq(b[i][0], fide10[r - 1][i][0]);
			ck_assert_int_eq(b[i][1], fide10[r - 1][i][1]);
		}
	}
	ck_assert_int_eq(pairing_berger(4, 0, b), PAIRING_EINVAL);
	ck_assert_int_eq(pairing_berger(4, 4, b), PAIRING_EINVAL);
	ck_assert_int_eq(pairing_berger(1, 1, b), PAIRING_EINVAL);
	ck_assert_int_eq(pairing_berger_rounds(EVENT_MAX_PLAYERS + 1), PAIRING_EINVAL);
}
END_TEST

/* Every pair meets once (single) or twice with both colours (double); one game or bye a
 * round; in a double round robin nobody has three games of a colour in a row. */
START_TEST(test_round_robin_complete)
{
	static struct sim s;
	static struct pairing_out o;
	for (int dbl = 0; dbl <= 1; dbl++)
		for (int n = 2; n <= 21; n++) {
			sim_init(&s, dbl ? SYSTEM_DOUBLE_ROUND_ROBIN : SYSTEM_ROUND_ROBIN, n);
			int rounds = (n % 2 ? n : n - 1) * (dbl ? 2 : 1);
			int whites[SIM_MAX_PLAYERS][SIM_MAX_PLAYERS] = { { 0 } };
			char seq[SIM_MAX_PLAYERS][2 * SIM_MAX_PLAYERS];
			int len[SIM_MAX_PLAYERS] = { 0 };
			for (int r = 1; r <= rounds; r++) {
				ck_assert_int_eq(pairing_round(&s.ev, r, &o), 0);
				int seen[SIM_MAX_PLAYERS] = { 0 };
				ck_assert_int_eq(o.nbyes, n % 2);
				for (int b = 0; b < o.nbyes; b++)
					seen[o.byes[b]]++;
				for (int p = 0; p < o.npairs; p++) {
					int w = o.pairs[p].white, bl = o.pairs[p].black;
					seen[w]++;
					seen[bl]++;
					whites[w][bl]++;
					seq[w][len[w]++] = 'W';
					seq[bl][len[bl]++] = 'B';
				}
				for (int i = 0; i < n; i++)
					ck_assert_int_eq(seen[i], 1);
				sim_record(&s, &o, false);
			}
			ck_assert_int_eq(pairing_round(&s.ev, rounds + 1, &o), PAIRING_EOVER);
			for (int i = 0; i < n; i++)
				for (int j = i + 1; j < n; j++) {
					if (dbl) {
						ck_assert_int_eq(whites[i][j], 1);
						ck_assert_int_eq(whites[j][i], 1);
					} else {
						ck_assert_int_eq(whites[i][j] + whites[j][i], 1);
					}
				}
			if (dbl)
				for (int i = 0; i < n; i++)
					for (int k = 2; k < len[i]; k++)
						ck_assert_msg(!(seq[i][k] == seq[i][k - 1] &&
								seq[i][k] == seq[i][k - 2]),
							      "n=%d player %d: three %c in a row", n, i, seq[i][k]);
		}
}
END_TEST

START_TEST(test_round_robin_withdrawal)
{
	static struct sim s;
	static struct pairing_out o;
	sim_init(&s, SYSTEM_ROUND_ROBIN, 6);
	s.players[2].withdrawn_after = 2;
	s.players[5].withdrawn_before_start = true; /* redraw: 5 players, byes */
	int absent = 0;
	for (int r = 1; r <= 5; r++) {
		ck_assert_int_eq(pairing_round(&s.ev, r, &o), 0);
		ck_assert_int_eq(o.nbyes, 1);
		ck_assert_int_eq(o.npairs, 2);
		for (int p = 0; p < o.npairs; p++) {
			const struct pairing_pair *q = &o.pairs[p];
			ck_assert_int_ne(q->white, 5);
			ck_assert_int_ne(q->black, 5);
			ck_assert(q->white_absent == (q->white == 2 && r > 2));
			ck_assert(q->black_absent == (q->black == 2 && r > 2));
			absent += q->white_absent + q->black_absent;
		}
		sim_record(&s, &o, true);
	}
	/* player 2 has a game or a bye in each of rounds 3..5: 3 rounds, one may be a bye */
	ck_assert_int_ge(absent, 2);
	ck_assert_int_eq(pairing_round(&s.ev, 6, &o), PAIRING_EOVER);
	/* tables do not wait for results */
	s.games[0].result = RESULT_NONE;
	ck_assert_int_eq(pairing_round(&s.ev, 3, &o), 0);
	ck_assert_int_eq(o.npairs, 2);
}
END_TEST

START_TEST(test_mms_start)
{
	int m = -1;
	/* bar 2d (1), floor 20k (-20) */
	ck_assert_int_eq(pairing_mms_start(5, 1, -20, &m), 0);
	ck_assert_int_eq(m, 21);  /* above the bar: as the bar */
	ck_assert_int_eq(pairing_mms_start(1, 1, -20, &m), 0);
	ck_assert_int_eq(m, 21);
	ck_assert_int_eq(pairing_mms_start(0, 1, -20, &m), 0);
	ck_assert_int_eq(m, 20);
	ck_assert_int_eq(pairing_mms_start(-20, 1, -20, &m), 0);
	ck_assert_int_eq(m, 0);
	ck_assert_int_eq(pairing_mms_start(-30, 1, -20, &m), 0);
	ck_assert_int_eq(m, 0);   /* below the floor: as the floor */
	m = 77;
	ck_assert_int_eq(pairing_mms_start(0, -5, 0, &m), PAIRING_EINVAL);
	ck_assert_int_eq(pairing_mms_start(0, 9, 0, &m), PAIRING_EINVAL);
	ck_assert_int_eq(pairing_mms_start(0, 0, -31, &m), PAIRING_EINVAL);
	ck_assert_int_eq(m, 77);
}
END_TEST

START_TEST(test_mms_scores)
{
	static struct sim s;
	sim_init(&s, SYSTEM_MCMAHON, 5);
	s.ev.mcmahon_bar = 0;     /* 1d */
	s.ev.mcmahon_floor = -10; /* 10k */
	s.players[0].rank = 3;    /* 4d: 10 */
	s.players[1].rank = -2;   /* 2k: 8 */
	s.players[2].rank = -5;   /* 5k: 5 */
	s.players[3].rank = -15;  /* 15k: 0 */
	s.players[4].rank = -9;   /* 9k: 1 */
	/* round 1: 0 beats 1, 2 draws 3, 4 has a bye */
	sim_game(&s, 1, 0, 1, RESULT_BLACK_WIN);
	sim_game(&s, 1, 2, 3, RESULT_DRAW);
	sim_bye(&s, 1, 4);
	/* round 2: 0 v 4 by forfeit to 4, 1 absent, 2 beats 3 */
	sim_game(&s, 2, 0, 4, RESULT_WHITE_FORFEIT_WIN);
	sim_game(&s, 2, 2, 3, RESULT_BLACK_WIN);
	double m;
	static const double r1[5] = { 10, 8, 5, 0, 1 };
	static const double r2[5] = { 11, 8, 5.5, 0.5, 2 };
	static const double r3[5] = { 11, 8.5, 6.5, 0.5, 3 };
	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(pairing_score(&s.ev, 1, i, &m), 0);
		ck_assert_double_eq(m, r1[i]);
		ck_assert_int_eq(pairing_score(&s.ev, 2, i, &m), 0);
		ck_assert_double_eq(m, r2[i]);
		ck_assert_int_eq(pairing_score(&s.ev, 3, i, &m), 0);
		ck_assert_double_eq(m, r3[i]);
	}
	/* other values of the bye and absence */
	s.ev.mms_bye = 0.5;
	s.ev.mms_absent = 0;
	ck_assert_int_eq(pairing_score(&s.ev, 3, 4, &m), 0);
	ck_assert_double_eq(m, 2.5);
	ck_assert_int_eq(pairing_score(&s.ev, 3, 1, &m), 0);
	ck_assert_double_eq(m, 8);
	s.ev.mms_absent = -1;
	ck_assert_int_eq(pairing_score(&s.ev, 3, 1, &m), PAIRING_EINVAL);
	/* Swiss game points for the same games */
	s.ev.system = SYSTEM_SWISS;
	ck_assert_int_eq(pairing_score(&s.ev, 3, 0, &m), 0);
	ck_assert_double_eq(m, 2);
	ck_assert_int_eq(pairing_score(&s.ev, 3, 4, &m), 0);
	ck_assert_double_eq(m, 4);   /* bye 2 + forfeit win 2 */
	ck_assert_int_eq(pairing_score(&s.ev, 3, 2, &m), 0);
	ck_assert_double_eq(m, 3);
	ck_assert_int_eq(pairing_score(&s.ev, 3, 7, &m), PAIRING_EINVAL);
}
END_TEST

/* McMahon round 1 pairs within MMS groups: players at or above the bar form one group. */
START_TEST(test_mcmahon_groups)
{
	static struct sim s;
	static struct pairing_out o;
	sim_init(&s, SYSTEM_MCMAHON, 8);
	s.ev.mcmahon_bar = 2;
	s.ev.mcmahon_floor = -10;
	static const int ranks[8] = { 7, 5, 3, 2, -12, -15, -11, -10 };
	for (int i = 0; i < 8; i++)
		s.players[i].rank = ranks[i];
	/* MMS: 12 12 12 12 | 0 0 | 1 | 0 -> groups {0,1,2,3}, {7,6 at 0,1}... */
	ck_assert_int_eq(pairing_round(&s.ev, 1, &o), 0);
	ck_assert_int_eq(o.npairs, 4);
	for (int p = 0; p < o.npairs; p++) {
		int a = o.pairs[p].white, b = o.pairs[p].black;
		ck_assert_msg((a < 4) == (b < 4), "pair %d-%d crosses the bar group", a, b);
		ck_assert_int_eq(o.pairs[p].handicap, 0);
	}
}
END_TEST

START_TEST(test_handicap)
{
	ck_assert_int_eq(pairing_handicap(5, -10, 1, 9, 0), 4);
	ck_assert_int_eq(pairing_handicap(1, -10, 1, 9, 0), 0);
	ck_assert_int_eq(pairing_handicap(0, -10, 0, 9, 0), 0);
	ck_assert_int_eq(pairing_handicap(20, -20, 0, 9, 0), 9);   /* capped */
	ck_assert_int_eq(pairing_handicap(20, -20, 2, 6, 0), 6);
	ck_assert_int_eq(pairing_handicap(5, 1, 0, 9, 0), 0);      /* weaker above the limit */
	ck_assert_int_eq(pairing_handicap(5, 0, 0, 9, 0), 5);
	ck_assert_int_eq(pairing_handicap(5, 0, 0, 10, 0), PAIRING_EINVAL);
	ck_assert_int_eq(pairing_handicap(5, 0, 0, -1, 0), PAIRING_EINVAL);

	/* in a McMahon round with the option: the weaker player is Black with the stones */
	static struct sim s;
	static struct pairing_out o;
	sim_init(&s, SYSTEM_MCMAHON, 2);
	s.ev.mcmahon_bar = 8;
	s.ev.mcmahon_floor = -30;
	s.players[0].rank = -3;
	s.players[1].rank = -8;
	s.ev.handicap = true;
	s.ev.handicap_correction = 1;
	s.ev.handicap_max = 9;
	s.ev.handicap_none_above = 8;
	ck_assert_int_eq(pairing_round(&s.ev, 1, &o), 0);
	ck_assert_int_eq(o.npairs, 1);
	ck_assert_int_eq(o.pairs[0].black, 1);
	ck_assert_int_eq(o.pairs[0].white, 0);
	ck_assert_int_eq(o.pairs[0].handicap, 4);
	ck_assert_int_eq(o.pairs[0].handicap_wanted, 4);
	/* a difference beyond what any board holds: capped at 9, and said */
	s.players[1].rank = -22;
	ck_assert_int_eq(pairing_round(&s.ev, 1, &o), 0);
	ck_assert_int_eq(o.pairs[0].handicap, 9);
	ck_assert_int_eq(o.pairs[0].handicap_wanted, 18);
	s.players[1].rank = -8;
	/* by MMS difference instead (5 points) with another correction */
	s.ev.handicap_by_mms = true;
	s.ev.handicap_correction = 3;
	ck_assert_int_eq(pairing_round(&s.ev, 1, &o), 0);
	ck_assert_int_eq(o.pairs[0].handicap, 2);
	/* the same rule for a pair the director made (pair_edit's warning) */
	int weaker;
	ck_assert_int_eq(pairing_pair_handicap(&s.ev, 1, 0, 1, &weaker), 2);
	ck_assert_int_eq(weaker, 1);
	s.ev.system = SYSTEM_SWISS; /* the draw gives handicaps in McMahon only */
	ck_assert_int_eq(pairing_pair_handicap(&s.ev, 1, 0, 1, &weaker), 0);
	s.ev.system = SYSTEM_MCMAHON;
	/* no handicap when the weaker player is strong enough */
	s.ev.handicap_none_above = -9;
	ck_assert_int_eq(pairing_round(&s.ev, 1, &o), 0);
	ck_assert_int_eq(o.pairs[0].handicap, 0);
	ck_assert_int_eq(o.pairs[0].white, 0); /* colour by seed again */
	s.ev.handicap_max = 10;
	ck_assert_int_eq(pairing_round(&s.ev, 1, &o), PAIRING_EINVAL);
}
END_TEST

/* ================================ knockout ================================ */

START_TEST(test_bracket_order)
{
	int ord[16];
	static const int eight[8] = { 1, 8, 4, 5, 2, 7, 3, 6 };
	ck_assert_int_eq(pairing_bracket_order(8, ord), 0);
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(ord[i], eight[i]);
	ck_assert_int_eq(pairing_bracket_order(1, ord), 0);
	ck_assert_int_eq(ord[0], 1);
	ck_assert_int_eq(pairing_bracket_order(6, ord), PAIRING_EINVAL);
	ck_assert_int_eq(pairing_bracket_order(0, ord), PAIRING_EINVAL);
	/* every size: the first-round pairs sum to size + 1 */
	for (int sz = 2; sz <= 16; sz *= 2) {
		ck_assert_int_eq(pairing_bracket_order(sz, ord), 0);
		for (int i = 0; i < sz; i += 2)
			ck_assert_int_eq(ord[i] + ord[i + 1], sz + 1);
	}
}
END_TEST

static int ceil_log2(int n)
{
	int k = 0;
	while ((1 << k) < n)
		k++;
	return k;
}

START_TEST(test_knockout_single)
{
	static struct sim s;
	static struct pairing_out o;
	for (int mode = 0; mode < 1; mode++)
		for (int n = 2; n <= 33; n++) {
			sim_init(&s, SYSTEM_KNOCKOUT, n);
			int rounds = 0, met12 = 0, losses[SIM_MAX_PLAYERS] = { 0 };
			for (int r = 1;; r++) {
				int e = pairing_round(&s.ev, r, &o);
				if (e == PAIRING_EOVER)
					break;
				ck_assert_int_eq(e, 0);
				rounds++;
				int seen[SIM_MAX_PLAYERS] = { 0 };
				for (int b = 0; b < o.nbyes; b++)
					seen[o.byes[b]]++;
				for (int p = 0; p < o.npairs; p++) {
					int a = o.pairs[p].white, b = o.pairs[p].black;
					seen[a]++;
					seen[b]++;
					if ((a == 0 && b == 1) || (a == 1 && b == 0))
						met12 = r;
				}
				for (int i = 0; i < n; i++) {
					if (r == 1)
						ck_assert_int_eq(seen[i], 1); /* all play or have a bye */
					if (losses[i])
						ck_assert_int_eq(seen[i], 0);
					ck_assert_int_le(seen[i], 1);
				}
				if (r == 1) /* the byes go to the top seeds */
					for (int b = 0; b < o.nbyes; b++)
						ck_assert_int_lt(o.byes[b], o.nbyes);
				sim_record(&s, &o, mode == 0);
				for (int g = 0; g < s.ev.ngames; g++)
					if (s.games[g].round == r)
						losses[s.games[g].result == RESULT_BLACK_WIN ? s.games[g].white
											  : s.games[g].black]++;
				ck_assert_int_le(r, 8);
			}
			ck_assert_int_eq(rounds, ceil_log2(n));
			ck_assert_int_eq(met12, rounds); /* seeds win: 1 v 2 in the final */
			int unbeaten = 0;
			for (int i = 0; i < n; i++)
				unbeaten += losses[i] == 0;
			ck_assert_int_le(unbeaten, 1);
		}
}
END_TEST

/* Random decisive results for knockout tests (a knockout game must be decided). */
static void ko_record(struct sim *s, const struct pairing_out *o, int *losses)
{
	for (int b = 0; b < o->nbyes; b++)
		sim_bye(s, o->round, o->byes[b]);
	for (int p = 0; p < o->npairs; p++) {
		const struct pairing_pair *q = &o->pairs[p];
		bool black = rng() % 2;
		sim_game(s, o->round, q->black, q->white, black ? RESULT_BLACK_WIN : RESULT_WHITE_WIN);
		losses[black ? q->white : q->black]++;
	}
}

START_TEST(test_knockout_random_single)
{
	static struct sim s;
	static struct pairing_out o;
	for (int n = 2; n <= 33; n++)
		for (int t = 0; t < 5; t++) {
			rng_seed((uint64_t)(n * 100 + t));
			sim_init(&s, SYSTEM_KNOCKOUT, n);
			int losses[SIM_MAX_PLAYERS] = { 0 }, rounds = 0, met12 = 0;
			for (int r = 1;; r++) {
				int e = pairing_round(&s.ev, r, &o);
				if (e == PAIRING_EOVER)
					break;
				ck_assert_int_eq(e, 0);
				rounds++;
				for (int p = 0; p < o.npairs; p++) {
					int a = o.pairs[p].white, b = o.pairs[p].black;
					ck_assert_int_eq(losses[a], 0);
					ck_assert_int_eq(losses[b], 0);
					if (a + b == 1)
						met12 = r;
				}
				ko_record(&s, &o, losses);
			}
			ck_assert_int_eq(rounds, ceil_log2(n));
			if (met12)
				ck_assert_int_eq(met12, rounds);
			int unbeaten = 0;
			for (int i = 0; i < n; i++)
				unbeaten += losses[i] == 0;
			ck_assert_int_eq(unbeaten, 1);
		}
}
END_TEST

START_TEST(test_knockout_double)
{
	static struct sim s;
	static struct pairing_out o;
	for (int n = 2; n <= 33; n++)
		for (int t = 0; t < 5; t++) {
			rng_seed((uint64_t)(n * 1000 + t));
			sim_init(&s, SYSTEM_KNOCKOUT, n);
			s.ev.double_elimination = true;
			int losses[SIM_MAX_PLAYERS] = { 0 }, games = 0, finals = 0;
			for (int r = 1;; r++) {
				ck_assert_int_le(r, 4 * n + 4);
				int e = pairing_round(&s.ev, r, &o);
				if (e == PAIRING_EOVER)
					break;
				ck_assert_int_eq(e, 0);
				int seen[SIM_MAX_PLAYERS] = { 0 };
				for (int b = 0; b < o.nbyes; b++)
					seen[o.byes[b]]++;
				for (int p = 0; p < o.npairs; p++) {
					const struct pairing_pair *q = &o.pairs[p];
					seen[q->white]++;
					seen[q->black]++;
					/* brackets: the winners' pairs have no loss, the losers' one each */
					if (q->bracket == PAIRING_BRACKET_MAIN) {
						ck_assert_int_eq(losses[q->white] + losses[q->black], 0);
					} else if (q->bracket == PAIRING_BRACKET_LOSERS) {
						ck_assert_int_eq(losses[q->white], 1);
						ck_assert_int_eq(losses[q->black], 1);
					} else {
						finals++;
						ck_assert_int_ge(losses[q->white] + losses[q->black], 1);
					}
				}
				for (int i = 0; i < n; i++) {
					ck_assert_int_le(seen[i], 1);
					if (losses[i] >= 2)
						ck_assert_int_eq(seen[i], 0); /* out after two losses */
					else if (r == 1)
						ck_assert_int_eq(seen[i], 1);
				}
				games += o.npairs;
				ko_record(&s, &o, losses);
			}
			int champs = 0, champ = -1;
			for (int i = 0; i < n; i++)
				if (losses[i] < 2) {
					champs++;
					champ = i;
				}
			ck_assert_int_eq(champs, 1);
			ck_assert_int_le(losses[champ], 1);
			ck_assert(games == 2 * n - 2 || games == 2 * n - 1);
			ck_assert_int_ge(finals, 1);
			ck_assert_int_le(finals, 2);
		}
}
END_TEST

START_TEST(test_knockout_pending)
{
	static struct sim s;
	static struct pairing_out o;
	sim_init(&s, SYSTEM_KNOCKOUT, 4);
	ck_assert_int_eq(pairing_round(&s.ev, 1, &o), 0);
	ck_assert_int_eq(o.npairs, 2);
	/* a draw does not decide a knockout game */
	sim_game(&s, 1, o.pairs[0].black, o.pairs[0].white, RESULT_DRAW);
	sim_game(&s, 1, o.pairs[1].black, o.pairs[1].white, RESULT_WHITE_WIN);
	ck_assert_int_eq(pairing_round(&s.ev, 2, &o), PAIRING_EPENDING);
	/* the replay decides it */
	static struct pairing_out o1;
	ck_assert_int_eq(pairing_round(&s.ev, 1, &o1), 0);
	sim_game(&s, 1, o1.pairs[0].white, o1.pairs[0].black, RESULT_BLACK_WIN);
	ck_assert_int_eq(pairing_round(&s.ev, 2, &o), 0);
	ck_assert_int_eq(o.npairs, 1);
	/* a game missing from the bracket (moved to a later round, which is ignored) */
	s.games[1].round = 2;
	ck_assert_int_eq(pairing_round(&s.ev, 2, &o), PAIRING_EHISTORY);
	/* a double loss in a final: the event is over without a champion from it */
	s.ev.ngames = 0;
	sim_game(&s, 1, o1.pairs[0].black, o1.pairs[0].white, RESULT_DOUBLE_LOSS);
	sim_game(&s, 1, o1.pairs[1].black, o1.pairs[1].white, RESULT_WHITE_WIN);
	ck_assert_int_eq(pairing_round(&s.ev, 2, &o), PAIRING_EOVER);
	/* of 8: a double loss in round 1 sends neither on; the next opponent has a bye */
	sim_init(&s, SYSTEM_KNOCKOUT, 8);
	ck_assert_int_eq(pairing_round(&s.ev, 1, &o1), 0);
	ck_assert_int_eq(o1.npairs, 4);
	for (int p = 0; p < 4; p++)
		sim_game(&s, 1, o1.pairs[p].black, o1.pairs[p].white,
			 p == 0 ? RESULT_DOUBLE_LOSS : RESULT_WHITE_WIN);
	ck_assert_int_eq(pairing_round(&s.ev, 2, &o), 0);
	ck_assert_int_eq(o.npairs, 1);
	ck_assert_int_eq(o.nbyes, 1);
	ck_assert_int_eq(o.byes[0], o1.pairs[1].white); /* 1 v 8 and 4 v 5 meet in round 2 */
	/* a one-player event is over at once */
	sim_init(&s, SYSTEM_KNOCKOUT, 1);
	ck_assert_int_eq(pairing_round(&s.ev, 1, &o), PAIRING_EOVER);
	sim_init(&s, SYSTEM_KNOCKOUT, 0);
	ck_assert_int_eq(pairing_round(&s.ev, 1, &o), PAIRING_EINVAL);
}
END_TEST

/* ================================ main ================================ */

static Suite *pairing_draw_suite(void)
{
	Suite *s = suite_create("pairing_draw");
	TCase *tm = tcase_create("match");
	tcase_add_test(tm, test_match_brute_force);
	tcase_add_test(tm, test_match_certificate);
	tcase_add_test(tm, test_match_errors);
	tcase_set_timeout(tm, 120);
	suite_add_tcase(s, tm);
	TCase *tr = tcase_create("round_robin");
	tcase_add_test(tr, test_berger_fide);
	tcase_add_test(tr, test_round_robin_complete);
	tcase_add_test(tr, test_round_robin_withdrawal);
	suite_add_tcase(s, tr);
	TCase *tc = tcase_create("mcmahon");
	tcase_add_test(tc, test_mms_start);
	tcase_add_test(tc, test_mms_scores);
	tcase_add_test(tc, test_mcmahon_groups);
	tcase_add_test(tc, test_handicap);
	suite_add_tcase(s, tc);
	TCase *tk = tcase_create("knockout");
	tcase_add_test(tk, test_bracket_order);
	tcase_add_test(tk, test_knockout_single);
	tcase_add_test(tk, test_knockout_random_single);
	tcase_add_test(tk, test_knockout_double);
	tcase_add_test(tk, test_knockout_pending);
	suite_add_tcase(s, tk);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(pairing_draw_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
