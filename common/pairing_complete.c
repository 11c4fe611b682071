/* pairing_complete: completability of a Swiss/McMahon round and the next-best pairings
 * (see pairing.h, criterion 1). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pairing_swiss.h"

/* Completability (docs/pairing.md: never a rematch while the event can still be completed
 * without one): after a round is matched, the rounds left must still be pairable without
 * a rematch. Proven at once when every player has enough unmet opponents (Dirac's bound,
 * below); otherwise searched for, in at most COMPLETE_BUDGET steps (a search that runs out
 * accepts the round). Where it fails, the next-best pairings of the round are tried in
 * order of weight (Murty's ranking), at most KBEST_SOLUTIONS of them, KBEST_SOLVES
 * matchings in all; if none leaves the event completable, the best one is kept. */
#define COMPLETE_BUDGET 200000L
#define KBEST_SOLUTIONS 256
#define KBEST_SOLVES 4096

/* ---- completability ---- */

/* The graph of the rounds after this one: its players, and the pairs that have not met
 * (this round's pairs count as met); for an odd field a dummy vertex (the bye) joined to
 * the players who have had no bye (to everyone, when fewer of them are left than rounds). */
struct comp {
	int n;
	uint8_t *adj;    /* n * n */
	int *deg;
	int *mate;
	long budget;
	bool exhausted;
};

static int comp_find(struct comp *g, int k);

/* Extend the partial perfect matching g->mate; at a perfect one, take its pairs out and look
 * for the k - 1 after it. */
static int comp_extend(struct comp *g, int k)
{
	if (--g->budget < 0) {
		g->exhausted = true;
		return 0;
	}
	int n = g->n, best = -1, bestc = n + 1;
	for (int v = 0; v < n; v++) {
		if (g->mate[v] >= 0)
			continue;
		int cnt = 0;
		for (int u = 0; u < n; u++)
			cnt += u != v && g->mate[u] < 0 && g->adj[(size_t)v * n + u];
		if (cnt == 0)
			return 0;
		if (cnt < bestc) {
			bestc = cnt;
			best = v;
		}
	}
	if (best < 0) {
		for (int v = 0; v < n; v++)
			if (v < g->mate[v]) {
				g->adj[(size_t)v * n + g->mate[v]] = g->adj[(size_t)g->mate[v] * n + v] = 0;
				g->deg[v]--;
				g->deg[g->mate[v]]--;
			}
		int *saved = malloc((size_t)n * sizeof *saved);
		int ok = 0;
		if (saved) {
			memcpy(saved, g->mate, (size_t)n * sizeof *saved);
			ok = comp_find(g, k - 1);
			memcpy(g->mate, saved, (size_t)n * sizeof *saved);
		} else {
			g->exhausted = true; /* treated as "not proven impossible" */
		}
		free(saved);
		for (int v = 0; v < n; v++)
			if (v < g->mate[v]) {
				g->adj[(size_t)v * n + g->mate[v]] = g->adj[(size_t)g->mate[v] * n + v] = 1;
				g->deg[v]++;
				g->deg[g->mate[v]]++;
			}
		return ok;
	}
	for (int u = 0; u < n && !g->exhausted; u++) {
		if (u == best || g->mate[u] >= 0 || !g->adj[(size_t)best * n + u])
			continue;
		g->mate[best] = u;
		g->mate[u] = best;
		if (comp_extend(g, k))
			return 1;
		g->mate[best] = g->mate[u] = -1;
	}
	return 0;
}

/* Are there k disjoint perfect matchings in g? 1 yes, 0 no (or not found within the
 * budget: g->exhausted). */
static int comp_find(struct comp *g, int k)
{
	if (k <= 0 || g->n == 0)
		return 1;
	int dmin = g->n;
	for (int v = 0; v < g->n; v++)
		if (g->deg[v] < dmin)
			dmin = g->deg[v];
	if (dmin < k)
		return 0;
	/* Dirac: a graph of n >= 3 vertices of minimum degree >= n/2 has a Hamiltonian cycle,
	 * so (n even) a perfect matching; taking one out lowers each degree by exactly 1. */
	if (g->n <= 2 || 2 * (dmin - (k - 1)) >= g->n)
		return 1;
	for (int v = 0; v < g->n; v++)
		g->mate[v] = -1;
	return comp_extend(g, k);
}

/* Does this round's matching (mate over the vertices) leave the rest of the event
 * completable without a rematch? *verdict: 1 yes (or not decided within the budget),
 * 0 no. */
int swiss_completable(const struct sw *c, const int *mate, int *verdict)
{
	const struct event *ev = c->ev;
	const struct hist *h = c->h;
	int left = ev->rounds_planned - c->round;
	*verdict = 1;
	if (ev->rounds_planned <= 0 || left <= 0)
		return PAIRING_OK;
	int *who = malloc((size_t)(c->nf + 1) * sizeof *who); /* vertex -> place */
	struct comp g = { 0 };
	int ret = PAIRING_ENOMEM;
	if (!who)
		goto out;
	int n = 0, nobye = 0;
	for (int i = 0; i < c->nf; i++) {
		int p = c->pl[i];
		const struct event_player *ep = &ev->players[p];
		if (ep->withdrawn_after != 0 && ep->withdrawn_after <= c->round)
			continue;
		who[n++] = i;
		bool bye_now = c->dummy >= 0 && mate[i] == c->dummy;
		nobye += h->nbyes[p] == 0 && !bye_now;
	}
	int players = n;
	if (n % 2)
		n++; /* the dummy: vertex players */
	g.n = n;
	g.adj = calloc((size_t)n * (size_t)n + 1, 1);
	g.deg = calloc((size_t)n + 1, sizeof *g.deg);
	g.mate = malloc(((size_t)n + 1) * sizeof *g.mate);
	if (!g.adj || !g.deg || !g.mate)
		goto out;
	for (int x = 0; x < players; x++)
		for (int y = x + 1; y < players; y++) {
			int i = who[x], j = who[y];
			if (met(h, c->pl[i], c->pl[j]) || mate[i] == j)
				continue;
			g.adj[(size_t)x * n + y] = g.adj[(size_t)y * n + x] = 1;
			g.deg[x]++;
			g.deg[y]++;
		}
	if (players < n) {
		int d = players;
		for (int x = 0; x < players; x++) {
			int i = who[x], p = c->pl[i];
			bool had = h->nbyes[p] > 0 || (c->dummy >= 0 && mate[i] == c->dummy);
			if (had && nobye >= left)
				continue;
			g.adj[(size_t)x * n + d] = g.adj[(size_t)d * n + x] = 1;
			g.deg[x]++;
			g.deg[d]++;
		}
	}
	g.budget = COMPLETE_BUDGET;
	int ok = comp_find(&g, left);
	*verdict = ok || g.exhausted;
	ret = PAIRING_OK;
out:
	free(who);
	free(g.adj);
	free(g.deg);
	free(g.mate);
	return ret;
}

/* ---- the next-best pairings (Murty's ranking of assignments, for matchings) ---- */

struct kb_node {
	int64_t w;       /* the solution's weight */
	int *mate;       /* nv */
	int nin, nout;
	int *in, *out;   /* forced-in and forced-out edges (indices into the graph) */
};

static void kb_free(struct kb_node *x)
{
	free(x->mate);
	free(x->in);
	free(x->out);
	memset(x, 0, sizeof *x);
}

/* Index of the edge u-v (u < v) in the sorted graph E, or -1. */
static long edge_index(const struct edges *E, int u, int v)
{
	size_t lo = 0, hi = E->m;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct match_edge *e = &E->e[mid];
		if (e->u < u || (e->u == u && e->v < v))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < E->m && E->e[lo].u == u && E->e[lo].v == v ? (long)lo : -1;
}

/* Solve the node: the heaviest perfect matching of E with its forced edges in and its
 * excluded edges out. *feasible: one exists. */
static int kb_solve(const struct edges *E, int nv, struct kb_node *x, struct edges *scratch,
		bool *feasible)
{
	uint8_t *mark = calloc(E->m + 1, 1);  /* 1 out, 2 in */
	uint8_t *taken = calloc((size_t)nv + 1, 1);
	int ret = PAIRING_ENOMEM;
	*feasible = false;
	if (!mark || !taken)
		goto out;
	for (int k = 0; k < x->nout; k++)
		mark[x->out[k]] = 1;
	for (int k = 0; k < x->nin; k++) {
		mark[x->in[k]] = 2;
		taken[E->e[x->in[k]].u] = taken[E->e[x->in[k]].v] = 1;
	}
	scratch->m = 0;
	for (size_t k = 0; k < E->m; k++) {
		const struct match_edge *e = &E->e[k];
		if (mark[k] == 1 || (mark[k] != 2 && (taken[e->u] || taken[e->v])))
			continue;
		if (swiss_edges_push(scratch, e->u, e->v, e->w))
			goto out;
	}
	int r = match_max_weight(nv, scratch->e, scratch->m, MATCH_PERFECT, x->mate, NULL);
	if (r) {
		ret = swiss_match_err(r);
		goto out;
	}
	ret = PAIRING_OK;
	if (!swiss_is_perfect(x->mate, nv))
		goto out;
	x->w = 0;
	for (int v = 0; v < nv; v++)
		if (v < x->mate[v]) {
			long k = edge_index(E, v, x->mate[v]);
			if (k < 0) {
				ret = PAIRING_EMATCH;
				goto out;
			}
			x->w += E->e[k].w;
		}
	*feasible = true;
out:
	free(mark);
	free(taken);
	return ret;
}

/* A child of `parent` (Murty): parent's forced-in edges plus its solution's free edges
 * free[0..i-1], and parent's forced-out edges plus free[i]. */
static int kb_child(const struct kb_node *parent, const long *freee, int i, int nv,
		struct kb_node *x)
{
	memset(x, 0, sizeof *x);
	x->mate = malloc((size_t)nv * sizeof *x->mate);
	x->in = malloc((size_t)(parent->nin + i + 1) * sizeof *x->in);
	x->out = malloc((size_t)(parent->nout + 1) * sizeof *x->out);
	if (!x->mate || !x->in || !x->out) {
		kb_free(x);
		return PAIRING_ENOMEM;
	}
	if (parent->nin)
		memcpy(x->in, parent->in, (size_t)parent->nin * sizeof *x->in);
	x->nin = parent->nin;
	for (int k = 0; k < i; k++)
		x->in[x->nin++] = (int)freee[k];
	if (parent->nout)
		memcpy(x->out, parent->out, (size_t)parent->nout * sizeof *x->out);
	x->nout = parent->nout;
	x->out[x->nout++] = (int)freee[i];
	return PAIRING_OK;
}

/* mate is the best matching of E (a strict-mode graph, so weights sum without overflow).
 * If it leaves the event incompletable, look through the next-best matchings in order of
 * weight for the first that does not, and put it in mate; none within the limits: mate
 * stays. */
int swiss_ensure_completable(const struct sw *c, const struct edges *E, int *mate)
{
	int verdict, ret = swiss_completable(c, mate, &verdict);
	if (ret || verdict)
		return ret;
	int nv = c->nv, nopen = 0, solves = 0;
	struct kb_node *open = calloc(KBEST_SOLUTIONS * 2 + 2, sizeof *open);
	struct kb_node root = { 0 };
	struct edges scratch = { 0 };
	long *freee = malloc(((size_t)nv / 2 + 1) * sizeof *freee);
	ret = PAIRING_ENOMEM;
	if (!open || !freee)
		goto out;
	root.mate = malloc((size_t)nv * sizeof *root.mate);
	if (!root.mate)
		goto out;
	memcpy(root.mate, mate, (size_t)nv * sizeof *mate);
	/* the root's weight is not needed: it is popped first by construction */
	struct kb_node cur = root;
	memset(&root, 0, sizeof root);
	for (int popped = 0; popped < KBEST_SOLUTIONS; popped++) {
		if (popped > 0) {
			if ((ret = swiss_completable(c, cur.mate, &verdict)))
				goto out_cur;
			if (verdict) {
				memcpy(mate, cur.mate, (size_t)nv * sizeof *mate);
				ret = PAIRING_OK;
				goto out_cur;
			}
		}
		/* branch on cur's free edges */
		int nfree = 0;
		for (int v = 0; v < nv; v++)
			if (v < cur.mate[v]) {
				long k = edge_index(E, v, cur.mate[v]);
				bool forced = false;
				for (int q = 0; q < cur.nin && !forced; q++)
					forced = cur.in[q] == k;
				if (k >= 0 && !forced)
					freee[nfree++] = k;
			}
		for (int i = 0; i < nfree && solves < KBEST_SOLVES; i++) {
			struct kb_node x;
			bool feasible;
			if ((ret = kb_child(&cur, freee, i, nv, &x)))
				goto out_cur;
			solves++;
			if ((ret = kb_solve(E, nv, &x, &scratch, &feasible))) {
				kb_free(&x);
				goto out_cur;
			}
			if (!feasible) {
				kb_free(&x);
				continue;
			}
			if (nopen == KBEST_SOLUTIONS * 2 + 2) {
				/* full: drop the lightest (it would come last anyway) */
				int lo = 0;
				for (int q = 1; q < nopen; q++)
					if (open[q].w < open[lo].w)
						lo = q;
				if (open[lo].w >= x.w) {
					kb_free(&x);
					continue;
				}
				kb_free(&open[lo]);
				open[lo] = x;
			} else {
				open[nopen++] = x;
			}
		}
		kb_free(&cur);
		if (nopen == 0)
			break;
		/* the heaviest open node next (the first of equal weights: deterministic) */
		int best = 0;
		for (int q = 1; q < nopen; q++)
			if (open[q].w > open[best].w)
				best = q;
		cur = open[best];
		memmove(open + best, open + best + 1, (size_t)(nopen - best - 1) * sizeof *open);
		nopen--;
	}
	ret = PAIRING_OK; /* nothing completable found: keep the best */
out_cur:
	kb_free(&cur);
out:
	for (int q = 0; q < nopen; q++)
		kb_free(&open[q]);
	free(open);
	kb_free(&root);
	free(scratch.e);
	free(freee);
	return ret;
}
