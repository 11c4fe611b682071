/* pairmin: see pairmin.h. */
#include "pairmin.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "pairing.h"

#define MIN_WINDOW 24             /* places either side in the first sparse graph */
#define COUNT_UNIT 8192           /* above any round's count of pairs */
#define COST_BIG (INT64_C(1) << 40)

struct pm {
	int nf, nv;               /* field, field + dummy */
	int *player;              /* place -> player, in score order */
	int *score, *nbyes;       /* per player */
	uint8_t *met;             /* n * n */
	int n, minbyes, minscore;
	int bye;                  /* >= 0: the one player the bye may go to */
	bool count;
};

static bool pm_cost(const struct pm *m, int x, int y, int64_t *cost)
{
	int d;
	if (y == m->nf) {
		int p = m->player[x];
		if (m->nbyes[p] != m->minbyes || (m->bye >= 0 && p != m->bye))
			return false;
		d = m->score[p] - m->minscore;
	} else {
		int a = m->player[x], b = m->player[y];
		if (m->met[(size_t)a * (size_t)m->n + (size_t)b])
			return false;
		d = abs(m->score[a] - m->score[b]);
	}
	*cost = m->count ? (int64_t)d * COUNT_UNIT + (d != 0) : d;
	return true;
}

struct elist {
	struct match_edge *e;
	size_t m, cap;
};

static int push(struct elist *L, int u, int v, int64_t w)
{
	if (L->m == L->cap) {
		size_t nc = L->cap ? 2 * L->cap : 4096;
		struct match_edge *ne = realloc(L->e, nc * sizeof *ne);
		if (!ne)
			return -1;
		L->e = ne;
		L->cap = nc;
	}
	L->e[L->m++] = (struct match_edge){ u, v, w };
	return 0;
}

/* The least total cost of a perfect matching, or -1: a sparse graph of near places, then
 * every pair of negative reduced cost under the certificate, until there is none. */
static long pm_solve(const struct pm *m)
{
	struct elist L = { 0 };
	int *mate = malloc((size_t)m->nv * sizeof *mate);
	long total = -1;
	int64_t c;
	if (!mate)
		return -1;
	for (int x = 0; x < m->nf; x++) {
		for (int y = x + 1; y < m->nf && y <= x + MIN_WINDOW; y++)
			if (pm_cost(m, x, y, &c) && push(&L, x, y, COST_BIG - c))
				goto out;
		if (m->nv > m->nf && pm_cost(m, x, m->nf, &c) && push(&L, x, m->nf, COST_BIG - c))
			goto out;
	}
	for (bool full = false;;) {
		struct match_dual *d = NULL;
		if (match_max_weight(m->nv, L.e, L.m, MATCH_PERFECT, mate, &d))
			goto out;
		bool perfect = true;
		for (int v = 0; v < m->nv; v++)
			perfect &= mate[v] >= 0;
		if (!perfect && full) {
			match_dual_free(d);
			goto out; /* every pair is in: no perfect matching */
		}
		size_t added = 0;
		for (int x = 0; x < m->nv && !full; x++)
			for (int y = x + 1; y < m->nv; y++) {
				int64_t slack;
				if (!pm_cost(m, x, y, &c) || (y <= x + MIN_WINDOW && y < m->nf) ||
				    (y == m->nf && m->nv > m->nf))
					continue; /* not a pair, or in the first graph */
				/* not perfect: every pair; else those that could improve it */
				if (perfect && match_dual_slack(d, x, y, COST_BIG - c, &slack) == 0 &&
				    slack >= 0)
					continue;
				if (push(&L, x, y, COST_BIG - c)) {
					match_dual_free(d);
					goto out;
				}
				added++;
			}
		match_dual_free(d);
		if (perfect && !added)
			break;
		full = full || !perfect;
	}
	total = 0;
	for (size_t k = 0; k < L.m; k++)
		if (mate[L.e[k].u] == L.e[k].v)
			total += (long)(COST_BIG - L.e[k].w);
out:
	free(L.e);
	free(mate);
	return total;
}

int pairmin_round(const struct event *ev, int round, long *diff_min, long *cross_min)
{
	return pairmin_round_bye(ev, round, -1, diff_min, cross_min);
}

int pairmin_round_bye(const struct event *ev, int round, int bye, long *diff_min,
		      long *cross_min)
{
	struct pm m = { .bye = bye };
	int ret = -1, n = ev->nplayers;
	m.n = n;
	m.player = malloc((size_t)(n + 1) * sizeof *m.player);
	m.score = calloc((size_t)n + 1, sizeof *m.score);
	m.nbyes = calloc((size_t)n + 1, sizeof *m.nbyes);
	m.met = calloc((size_t)n * (size_t)n + 1, 1);
	if (!m.player || !m.score || !m.nbyes || !m.met)
		goto out;
	for (int g = 0; g < ev->ngames; g++) {
		const struct event_game *x = &ev->games[g];
		if (x->round < round) {
			m.met[(size_t)x->black * n + x->white] = 1;
			m.met[(size_t)x->white * n + x->black] = 1;
		}
	}
	for (int b = 0; b < ev->nbyes; b++)
		if (ev->byes[b].round < round)
			m.nbyes[ev->byes[b].player]++;
	m.minbyes = m.minscore = 1 << 30;
	for (int i = 0; i < n; i++) {
		const struct event_player *p = &ev->players[i];
		if (p->withdrawn_before_start || (p->withdrawn_after != 0 && p->withdrawn_after < round))
			continue;
		double sc;
		if (pairing_score(ev, round, i, &sc))
			goto out;
		m.score[i] = (int)((ev->system == SYSTEM_MCMAHON ? 2 : 1) * sc + 0.5);
		m.minbyes = m.nbyes[i] < m.minbyes ? m.nbyes[i] : m.minbyes;
		m.minscore = m.score[i] < m.minscore ? m.score[i] : m.minscore;
		/* insert in score order, so the sparse first graph holds the near pairs */
		int j = m.nf++;
		while (j > 0 && m.score[m.player[j - 1]] < m.score[i]) {
			m.player[j] = m.player[j - 1];
			j--;
		}
		m.player[j] = i;
	}
	m.nv = m.nf + m.nf % 2;
	long d = pm_solve(&m);
	m.count = true;
	long c = pm_solve(&m);
	if (d < 0 || c < 0)
		goto out;
	*diff_min = d;
	*cross_min = c % COUNT_UNIT;
	ret = 0;
out:
	free(m.player);
	free(m.score);
	free(m.nbyes);
	free(m.met);
	return ret;
}
