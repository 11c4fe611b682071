/* pairing_swiss: the Swiss and McMahon draw as a maximum-weight matching (see pairing.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pairing_swiss.h"

/* ---- weights of a Swiss/McMahon pair (see pairing.h for the order of the terms) ----
 * Bit budget, for at most PAIRING_MAX_PAIRS = 2^11 pairs in a round (the bye's dummy
 * vertex included: an odd field has at most EVENT_MAX_PLAYERS - 1 players):
 *   colour w5 in 0..3, seeding (with colour's share) w4 in 0..964: lower4 = w4 * 4 + w5 <
 *   2^12;
 *   float w3 in 0..15: lower3 = w3 * 2^12 + lower4 < 2^16 (w3 outweighs a pair's lower4);
 *   spread wS in 0..3969 at 2^16 (several small differences before one large one, up to 63
 *   half wins: McMahon score gaps are large; per pair above the lower terms): < 2^28;
 *   score difference wP in 0..127 at 2^39 >= 2^11 * 2^28 (the round's total |difference|
 *   comes before everything below it);
 *   the top (no-rematch) term at 2^57 >= 2^11 * 2^46; total < 2^58 = MATCH_WEIGHT_MAX. */
#define SCORE_DIFF_CAP 127              /* half wins; beyond, all differences are alike */
#define SPREAD_CAP 63                   /* half wins, for the spread (squared) term */
#define SEED_DEV_CAP 30                 /* places of deviation from the ideal opponent */
#define WS_MAX (SPREAD_CAP * SPREAD_CAP)
#define W3_MAX 15
#define W4_MAX (SEED_DEV_CAP * SEED_DEV_CAP)
#define W5_MAX 3
/* Colour also weighs inside the seeding term, as a seeding deviation of 2, 4 or 8 places
 * (cost 4, 16, 64) for a conflict of strength 1, 2 or 3: a small seeding deviation gives way
 * to keep colours even (as OpenGotha weighs them), a large one does not. */
static const int COLOUR_SEED_COST[W5_MAX + 1] = { 0, 4, 16, 64 };
#define W4_RANGE (W4_MAX + 64)          /* seeding + colour: < 2^10 */
#define SHIFT4 2
#define SHIFT3 12
#define SHIFT_SPREAD 16
#define SHIFT2 39
#define SHIFT_TOP 57
#define FLOAT_COST_LAST 6               /* floating the same way as last round */
#define FLOAT_COST_PREV 1               /* ... as the round before */
#define RANDOM_SEED_COST_MAX W4_MAX     /* random seeding: cost drawn in 0..this-1 (below a
					 * pair that does not split the group) */
/* The budget above, checked when compiling. */
_Static_assert(W4_RANGE < (1 << (SHIFT3 - SHIFT4)), "seeding + colour overflow their bits");
_Static_assert(RANDOM_SEED_COST_MAX <= W4_MAX, "a random draw beyond the seeding term");
_Static_assert(((int64_t)W3_MAX << SHIFT3) + ((int64_t)W4_RANGE << SHIFT4) + W5_MAX <
	       (INT64_C(1) << SHIFT_SPREAD), "floats overflow into the spread term");
_Static_assert(((int64_t)(WS_MAX + 1) << SHIFT_SPREAD) <= (INT64_C(1) << (SHIFT2 - 11)),
	       "the round's lower terms can outweigh one half win of score difference");
_Static_assert(((int64_t)(SCORE_DIFF_CAP + 1) << SHIFT2) <= (INT64_C(1) << (SHIFT_TOP - 11)),
	       "the round's score terms can outweigh the no-rematch term");

/* Candidate pairs: each player's WINDOW_START nearest allowed opponents above and below in
 * the placing order, around the ideal opponent, and around the same relative place in the
 * ADJACENT_GROUPS nearest score groups either way; the window grows by WINDOW_GROWTH while
 * no full pairing is found, up to every pair of the field. Fields of up to FULL_GRAPH_MAX
 * players use every pair. A windowed solution is checked against every pair of the field
 * by its dual certificate (match_dual_slack): pairs that would improve it are added and the
 * graph solved again, up to VERIFY_PASSES times; then, if still not proven, every pair is
 * used. So every round is the optimum over the whole field. */
#define WINDOW_START 48
#define WINDOW_GROWTH 4
#define ADJACENT_GROUPS 2
#define FULL_GRAPH_MAX 97
#define VERIFY_PASSES 8

/* ---- Swiss and McMahon ---- */

static uint64_t mix64(uint64_t x)
{
	/* splitmix64 finaliser */
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Handicap stones of the pair a, b at most `cap`; cap < 0: not capped at all (what the rank
 * or MMS difference asks for, beyond what any board holds: handicap_wanted). */
static int pair_stones_capped(const struct sw *c, int a, int b, int cap)
{
	return c->hcap ? pair_handicap_rule(c->ev, c->h->score, a, b, cap, NULL) : 0;
}

/* Handicap stones of the pair a, b, capped at event.handicap_max. */
static int pair_stones(const struct sw *c, int a, int b)
{
	return pair_stones_capped(c, a, b, c->ev->handicap_max);
}

static int cap_sq(int d, int cap)
{
	if (d < 0)
		d = -d;
	if (d > cap)
		d = cap;
	return d * d;
}

/* The terms of a pair's weight, as costs (0 best): see pairing.h for their order. */
struct terms {
	bool rematch;
	int d;        /* score difference, half wins */
	int c3;       /* floats */
	int c4;       /* seeding */
	int c5;       /* colour */
};

/* Terms of the bye: the dummy v the place i (the dummy sits at the field's lowest score
 * and below its last place). Only players with the fewest byes, and only c->bye_only when
 * it is set (swiss_match: the lowest-placed of them whose bye leaves the rest pairable
 * without a rematch). The places above the last weigh as floats do (a place a float unit,
 * up to W3_MAX), above seeding and colour: a bye does not move up a place to keep two
 * players' colours even (as OpenGotha and the EGF choose the bye before the pairing). */
static bool bye_terms(const struct sw *c, int i, struct terms *t)
{
	const struct hist *h = c->h;
	int a = c->pl[i];
	if (h->nbyes[a] != c->min_byes || (c->bye_only >= 0 && i != c->bye_only))
		return false;
	int above = c->nf - 1 - i;
	*t = (struct terms){ .d = abs(h->score[a] - c->score_min),
			     .c3 = above < W3_MAX ? above : W3_MAX };
	return true;
}

/* Terms of the pair of vertices i < j; false if the pair cannot be made at all. */
static bool pair_terms(const struct sw *c, int i, int j, struct terms *t)
{
	if (j == c->dummy)
		return bye_terms(c, i, t);
	const struct hist *h = c->h;
	int a = c->pl[i], b = c->pl[j];
	t->rematch = met(h, a, b);
	/* 1. score difference (a is placed above b: score[a] >= score[b]) */
	t->d = abs(h->score[a] - h->score[b]);
	/* 2. float history */
	t->c3 = 0;
	if (h->score[a] != h->score[b]) {
		int hi = h->score[a] > h->score[b] ? a : b, lo = hi == a ? b : a;
		t->c3 = FLOAT_COST_LAST * ((h->fl1[hi] < 0) + (h->fl1[lo] > 0)) +
			FLOAT_COST_PREV * ((h->fl2[hi] < 0) + (h->fl2[lo] > 0));
	}
	/* 3. seeding */
	int gs = c->gstart[i], g = c->gsize[i];
	if (c->gstart[j] == gs) {
		int gi = i - gs, gj = j - gs;
		if (c->ev->seeding == SEEDING_SPLIT_FOLD) {
			t->c4 = cap_sq(gi + gj - (g - 1), SEED_DEV_CAP);
		} else if (c->ev->seeding == SEEDING_SPLIT_SLIP) {
			t->c4 = cap_sq(gj - gi - g / 2, SEED_DEV_CAP);
		} else {
			bool split = gi < g / 2 && gj >= g / 2;
			uint64_t x = mix64(c->ev->draw_seed ^ mix64((uint64_t)c->round) ^
					   mix64(((uint64_t)(unsigned)a << 32) | (unsigned)b));
			t->c4 = split ? (int)(x % RANDOM_SEED_COST_MAX) : W4_MAX;
		}
	} else {
		/* across groups: the bottom of the upper group v the top of the lower one. A place
		 * off it costs one more than a place off the fold within a group, so that where
		 * the two tie (an odd group: its middle player floating and the rest folded, or
		 * its bottom floating and the rest a place off the fold) the bottom floats, as
		 * EGF practice and OpenGotha's default have it (a director's trial: the 2d of a
		 * 3d-2d-1d group floated down). */
		int dev = (gs + g - 1 - i) + (j - c->gstart[j]);
		int cost = cap_sq(dev, SEED_DEV_CAP) + (dev > 0);
		t->c4 = cost < W4_MAX ? cost : W4_MAX;
	}
	/* 4. colour, soft and last: both due the same colour costs the weaker claim
	 * (due_colour); handicap games have no colour to be due */
	t->c5 = 0;
	if (!(c->hcap && pair_stones(c, a, b) > 0)) {
		int sa, sb;
		int da = pair_due_colour(h, a, &sa), db = pair_due_colour(h, b, &sb);
		if (da != 0 && da == db)
			t->c5 = sa < sb ? sa : sb;
	}
	return true;
}

/* Weight of the pair of vertices i < j in the given mode; false if the pair is left out. */
static bool pair_weight(const struct sw *c, int i, int j, enum mode mode, int64_t *wout)
{
	struct terms t;
	if (!pair_terms(c, i, j, &t) || (mode == MODE_STRICT && t.rematch))
		return false;
	int64_t top = mode == MODE_STRICT ? 0 : !t.rematch;
	int64_t wp = SCORE_DIFF_CAP - (t.d < SCORE_DIFF_CAP ? t.d : SCORE_DIFF_CAP);
	int64_t ws = WS_MAX - cap_sq(t.d, SPREAD_CAP);
	*wout = (top << SHIFT_TOP) + (wp << SHIFT2) + (ws << SHIFT_SPREAD) +
		((int64_t)(W3_MAX - t.c3) << SHIFT3) +
		((int64_t)(W4_RANGE - t.c4 - COLOUR_SEED_COST[t.c5]) << SHIFT4) + (W5_MAX - t.c5);
	return true;
}

int swiss_edges_push(struct edges *E, int u, int v, int64_t w)
{
	if (E->m == E->cap) {
		size_t nc = E->cap ? 2 * E->cap : 1024;
		struct match_edge *ne = realloc(E->e, nc * sizeof *ne);
		if (!ne)
			return PAIRING_ENOMEM;
		E->e = ne;
		E->cap = nc;
	}
	E->e[E->m++] = (struct match_edge){ u, v, w };
	return PAIRING_OK;
}

/* The ideal opponent's place of place i under the seeding. */
static int ideal_place(const struct sw *c, int i)
{
	int gs = c->gstart[i], g = c->gsize[i], gi = i - gs;
	if (c->ev->seeding == SEEDING_SPLIT_FOLD)
		return gs + (g - 1 - gi);
	return gi < g / 2 ? i + g / 2 : i - g / 2;
}

static int cmp_edge(const void *x, const void *y)
{
	const struct match_edge *a = x, *b = y;
	if (a->u != b->u)
		return a->u < b->u ? -1 : 1;
	return a->v < b->v ? -1 : a->v > b->v;
}

/* Sort E by (u, v) and drop duplicates, so the graph is the same on every run. */
static void edges_canon(struct edges *E)
{
	qsort(E->e, E->m, sizeof *E->e, cmp_edge);
	size_t m = 0;
	for (size_t k = 0; k < E->m; k++)
		if (m == 0 || E->e[m - 1].u != E->e[k].u || E->e[m - 1].v != E->e[k].v)
			E->e[m++] = E->e[k];
	E->m = m;
}

/* Add the pair of vertices i, j (any order) if allowed in the mode; *added tells. */
static int try_pair(const struct sw *c, int i, int j, enum mode mode, struct edges *E,
		bool *added)
{
	int64_t w;
	int u = i < j ? i : j, v = i < j ? j : i;
	*added = false;
	if (!pair_weight(c, u, v, mode, &w))
		return PAIRING_OK;
	*added = true;
	return swiss_edges_push(E, u, v, w);
}

/* Candidate pairs (all pairs when full): for each place, the K nearest allowed opponents
 * above it and below it in the placing order, and the K allowed places nearest its ideal
 * opponent and the same relative place in the nearest groups; every bye pair; sorted by
 * (u, v), no duplicates. */
static int build_edges(const struct sw *c, int K, bool full, enum mode mode, struct edges *E)
{
	int nf = c->nf, nv = c->nv;
	bool added;
	E->m = 0;
	if (full) {
		for (int i = 0; i < nv; i++)
			for (int j = i + 1; j < nv; j++)
				if (try_pair(c, i, j, mode, E, &added))
					return PAIRING_ENOMEM;
		return PAIRING_OK;
	}
	for (int i = 0; i < nf; i++) {
		if (c->dummy >= 0 && try_pair(c, i, c->dummy, mode, E, &added))
			return PAIRING_ENOMEM;
		for (int dir = -1; dir <= 1; dir += 2) {
			int got = 0;
			for (int j = i + dir; j >= 0 && j < nf && got < K; j += dir) {
				if (try_pair(c, i, j, mode, E, &added))
					return PAIRING_ENOMEM;
				got += added;
			}
		}
		/* around the ideal opponent in the group, and around the same relative place in
		 * the nearest groups above and below (floats, spread over the group) */
		int qs[1 + 2 * ADJACENT_GROUPS], nq = 0;
		qs[nq++] = ideal_place(c, i);
		int gs = c->gstart[i], g = c->gsize[i];
		for (int dir = -1; dir <= 1; dir += 2) {
			int at = dir < 0 ? gs - 1 : gs + g; /* a place in the next group that way */
			for (int a = 0; a < ADJACENT_GROUPS && at >= 0 && at < nf; a++) {
				int s2 = c->gstart[at], g2 = c->gsize[at];
				qs[nq++] = s2 + (int)((long)(i - gs) * g2 / g);
				at = dir < 0 ? s2 - 1 : s2 + g2;
			}
		}
		for (int x = 0; x < nq; x++) {
			int q = qs[x], got = 0;
			for (int d = 0; got < K && (q - d >= 0 || q + d < nf); d++) {
				int js[2] = { q + d, q - d };
				for (int y = 0; y < (d ? 2 : 1); y++) {
					int j = js[y];
					if (j < 0 || j >= nf || j == i)
						continue;
					if (try_pair(c, i, j, mode, E, &added))
						return PAIRING_ENOMEM;
					got += added;
				}
			}
		}
	}
	edges_canon(E);
	return PAIRING_OK;
}

int swiss_match_err(int r)
{
	return r == MATCH_ENOMEM ? PAIRING_ENOMEM : r == MATCH_EINVAL ? PAIRING_EINVAL : PAIRING_EMATCH;
}

bool swiss_is_perfect(const int *mate, int nv)
{
	for (int v = 0; v < nv; v++)
		if (mate[v] < 0)
			return false;
	return true;
}

/* Check a windowed solution against every pair of the field: the pairs whose reduced cost
 * under the certificate is negative (they could improve the matching) are added to E.
 * *added counts them: 0 proves the solution optimal over the whole field (LP duality). */
static int verify_full(const struct sw *c, const struct match_dual *d, enum mode mode,
		struct edges *E, size_t *added)
{
	*added = 0;
	for (int i = 0; i < c->nv; i++)
		for (int j = i + 1; j < c->nv; j++) {
			int64_t w, slack;
			if (!pair_weight(c, i, j, mode, &w))
				continue;
			int r = match_dual_slack_bound(d, i, j, w, &slack);
			if (!r && slack < 0)
				r = match_dual_slack(d, i, j, w, &slack);
			if (r)
				return swiss_match_err(r);
			if (slack < 0) {
				if (swiss_edges_push(E, i, j, w))
					return PAIRING_ENOMEM;
				(*added)++;
			}
		}
	if (*added)
		edges_canon(E);
	return PAIRING_OK;
}

/* The heaviest perfect matching of the whole field in the mode: on the full graph for
 * small fields, else on growing windows, each checked against the full graph (verify_full)
 * and completed by the pairs it finds; E keeps the graph solved. *ok: a perfect matching
 * exists in this mode. */
static int solve_mode(const struct sw *c, enum mode mode, struct edges *E, int *mate, bool *ok)
{
	int nv = c->nv, r;
	*ok = false;
	if (c->nf <= FULL_GRAPH_MAX || c->ev->full_graph) {
		if ((r = build_edges(c, 0, true, mode, E)))
			return r;
		if ((r = match_max_weight(nv, E->e, E->m, MATCH_PERFECT, mate, NULL)))
			return swiss_match_err(r);
		*ok = swiss_is_perfect(mate, nv);
		return PAIRING_OK;
	}
	for (int K = WINDOW_START;; K *= WINDOW_GROWTH) {
		bool full = 2 * K + 1 >= c->nf;
		if ((r = build_edges(c, K, full, mode, E)))
			return r;
		for (int pass = 0;; pass++) {
			struct match_dual *d = NULL;
			bool last = full || pass == VERIFY_PASSES;
			if ((r = match_max_weight(nv, E->e, E->m, MATCH_PERFECT, mate,
						  last ? NULL : &d)))
				return swiss_match_err(r);
			if (!swiss_is_perfect(mate, nv)) {
				match_dual_free(d);
				break;
			}
			if (last) {
				*ok = true;
				return PAIRING_OK;
			}
			size_t added;
			r = verify_full(c, d, mode, E, &added);
			match_dual_free(d);
			if (r)
				return r;
			if (!added) {
				*ok = true;
				return PAIRING_OK;
			}
			if (pass + 1 == VERIFY_PASSES) {
				/* not proven after the passes: every pair */
				full = true;
				if ((r = build_edges(c, 0, true, mode, E)))
					return r;
			}
		}
		if (full)
			return PAIRING_OK;
	}
}

/* Solve: mate[] over the vertices, perfect. For an odd field the bye is chosen first, as the
 * EGF and OpenGotha do: the lowest-placed player with the fewest byes whose bye leaves the
 * others pairable without a rematch, then the next place up (c->bye_only). Only where no
 * such player is left does the matching place the bye with everything else, rematches then
 * the fewest. Weighed in the matching instead, below the score difference, the bye could
 * move to the top: a McMahon's joint leader had it in the last round, and won the event on
 * it, because the lowest player's bye paired the leader with the last. */
static int swiss_match(struct sw *c, int *mate)
{
	int ret = PAIRING_OK;
	struct edges E = { 0 };
	bool ok = false;
	int *first = NULL; /* the lowest bye's pairing without a rematch, if none completes */
	c->bye_only = -1;
	for (int i = c->nf - 1; c->dummy >= 0 && i >= 0 && !ok; i--) {
		if (c->h->nbyes[c->pl[i]] != c->min_byes)
			continue;
		c->bye_only = i;
		int verdict = 0;
		if ((ret = solve_mode(c, MODE_STRICT, &E, mate, &ok)))
			goto out;
		/* ... and the rounds after it pairable without a rematch (criterion 1, above the
		 * bye's place): else the next place up */
		if (ok && ((ret = swiss_ensure_completable(c, &E, mate)) ||
			   (ret = swiss_completable(c, mate, &verdict))))
			goto out;
		if (ok && !verdict && !first) {
			if (!(first = malloc((size_t)c->nv * sizeof *first))) {
				ret = PAIRING_ENOMEM;
				goto out;
			}
			memcpy(first, mate, (size_t)c->nv * sizeof *first);
		}
		ok = ok && verdict;
	}
	if (!ok && first) { /* no bye leaves the event completable: the lowest one */
		memcpy(mate, first, (size_t)c->nv * sizeof *mate);
		ok = true;
	}
	if (ok)
		goto out;
	c->bye_only = -1;
	for (int mode = MODE_STRICT; mode < MODE_COUNT && !ok; mode++) {
		if ((ret = solve_mode(c, (enum mode)mode, &E, mate, &ok)))
			goto out;
		if (ok && mode == MODE_STRICT)
			ret = swiss_ensure_completable(c, &E, mate);
	}
	if (!ret && !ok)
		ret = PAIRING_EMATCH; /* cannot happen: the last pass has every pair */
out:
	/* the bye's terms are read again for the quality figures: open to the place that has it
	 * (after the fallback to `first`, bye_only named the last place tried, and bye_terms
	 * refused the place that had it: its figures went unwritten) */
	c->bye_only = -1;
	free(first);
	free(E.e);
	return ret;
}

/* Sort players by place: score, then seed (a stable merge sort). */
static void sort_places(const struct event *ev, const struct hist *h, int *pl, int k)
{
	int *tmp = malloc((size_t)(k > 0 ? k : 1) * sizeof *tmp);
	if (!tmp) {
		/* insertion sort fallback */
		for (int i = 1; i < k; i++) {
			int x = pl[i], j = i - 1;
			while (j >= 0 && (h->score[pl[j]] < h->score[x] ||
					  (h->score[pl[j]] == h->score[x] && pair_seed_before(ev, x, pl[j])))) {
				pl[j + 1] = pl[j];
				j--;
			}
			pl[j + 1] = x;
		}
		return;
	}
	for (int w = 1; w < k; w *= 2) {
		for (int lo = 0; lo < k; lo += 2 * w) {
			int mid = lo + w < k ? lo + w : k, hi = lo + 2 * w < k ? lo + 2 * w : k;
			int i = lo, j = mid, o = lo;
			while (i < mid && j < hi) {
				int a = pl[i], b = pl[j];
				bool bfirst = h->score[b] > h->score[a] ||
					      (h->score[b] == h->score[a] && pair_seed_before(ev, b, a));
				tmp[o++] = bfirst ? pl[j++] : pl[i++];
			}
			while (i < mid)
				tmp[o++] = pl[i++];
			while (j < hi)
				tmp[o++] = pl[j++];
		}
		memcpy(pl, tmp, (size_t)k * sizeof *pl);
	}
	free(tmp);
}

int pair_swiss(const struct event *ev, int round, const struct hist *h,
		struct pairing_out *out)
{
	int n = ev->nplayers, ret;
	size_t n1 = (size_t)(n > 0 ? n : 1) + 1;
	if (ev->rounds_planned > 0 && round > ev->rounds_planned)
		return PAIRING_EOVER;
	struct sw c = { .ev = ev, .h = h, .round = round };
	c.hcap = ev->system == SYSTEM_MCMAHON && ev->handicap;
	c.pl = malloc(n1 * sizeof(int));
	c.gstart = malloc(n1 * sizeof(int));
	c.gsize = malloc(n1 * sizeof(int));
	int *mate = malloc(n1 * sizeof(int));
	if (!c.pl || !c.gstart || !c.gsize || !mate) {
		ret = PAIRING_ENOMEM;
		goto out;
	}
	int k = 0;
	for (int i = 0; i < n; i++)
		if (paired_in(&ev->players[i], round))
			c.pl[k++] = i;
	if (k < 2) {
		ret = PAIRING_EOVER;
		goto out;
	}
	sort_places(ev, h, c.pl, k);
	c.nf = k;
	c.dummy = k % 2 ? k : -1;
	c.nv = k + (k % 2);
	c.bye_only = -1;
	c.min_byes = h->nbyes[c.pl[0]];
	c.score_min = h->score[c.pl[0]];
	for (int i = 0; i < k; i++) {
		if (h->nbyes[c.pl[i]] < c.min_byes)
			c.min_byes = h->nbyes[c.pl[i]];
		if (h->score[c.pl[i]] < c.score_min)
			c.score_min = h->score[c.pl[i]];
	}
	for (int i = 0; i < k;) {
		int j = i;
		while (j < k && h->score[c.pl[j]] == h->score[c.pl[i]])
			j++;
		for (int q = i; q < j; q++) {
			c.gstart[q] = i;
			c.gsize[q] = j - i;
		}
		i = j;
	}
	if ((ret = swiss_match(&c, mate)))
		goto out;
	for (int i = 0; i < k; i++) {
		if (mate[i] == c.dummy) {
			struct terms t;
			pair_terms(&c, i, mate[i], &t);
			out->quality.bye_score_diff += t.d;
			out->quality.score_sq += (long)cap_sq(t.d, SPREAD_CAP);
			out->quality.seeding += t.c4;
			out->byes[out->nbyes++] = c.pl[i];
			continue;
		}
		if (mate[i] < i)
			continue;
		int a = c.pl[i], b = c.pl[mate[i]];
		struct pairing_pair *p = &out->pairs[out->npairs++];
		int stones = pair_stones(&c, a, b);
		struct terms t;
		pair_terms(&c, i, mate[i], &t);
		out->quality.rematches += t.rematch;
		out->quality.cross_group += t.d != 0;
		out->quality.score_diff += t.d;
		out->quality.score_sq += (long)cap_sq(t.d, SPREAD_CAP);
		out->quality.floats += t.c3;
		out->quality.seeding += t.c4;
		out->quality.colour += t.c5;
		pair_give_colours(ev, h, a, b, out->npairs - 1, p);
		p->handicap_wanted = pair_stones_capped(&c, a, b, -1);
		if (stones > 0) {
			int weaker;
			pair_handicap_rule(ev, h->score, a, b, -1, &weaker);
			p->black = weaker;
			p->white = weaker == a ? b : a;
			p->handicap = stones;
		}
	}
	ret = PAIRING_OK;
out:
	free(c.pl);
	free(c.gstart);
	free(c.gsize);
	free(mate);
	return ret;
}
