/* match: maximum-weight matching (see match.h). A port of van Rantwijk's mwmatching.py:
 * the names (label, labelend, inblossom, blossomchilds, ...) and the steps are the same, so
 * the code can be read against it. Endpoints: edge k has endpoints 2k (its u) and 2k+1
 * (its v); "p ^ 1" is the other end. Blossoms are numbered n..2n-1. */
#include "match.h"

#include <stdlib.h>
#include <string.h>

struct match_dual {
	int n;
	int64_t *dual;   /* 2n: doubled vertex duals, then blossom duals z */
	int *parent;     /* 2n: the blossom directly holding b, or -1 */
	int *depth;      /* 2n: nesting depth (0 = top level) */
	int64_t *zacc;   /* 2n: sum of z over b and the blossoms holding it (0 for vertices) */
	int *top;        /* n: the top-level blossom holding v (v itself if none) */
	bool zacc_ok;    /* false if some zacc overflowed */
};

struct mw {
	int n;
	int m;
	const struct match_edge *e;
	bool maxcard;
	int64_t *dual;       /* 2n */
	int *mate;           /* n: remote endpoint or -1 */
	int *label;          /* 2n */
	int *labelend;       /* 2n */
	int *inblossom;      /* n */
	int *bparent;        /* 2n */
	int *bbase;          /* 2n */
	int *bestedge;       /* 2n */
	int **bchilds;       /* 2n */
	int **bendps;        /* 2n */
	int *nchilds;        /* 2n */
	int **bbest;         /* 2n: blossombestedges, NULL = None */
	int *nbbest;         /* 2n */
	int *unused;         /* free blossom numbers (stack) */
	int nunused;
	unsigned char *allowedge; /* m */
	int *queue;          /* n */
	int qlen;
	int *nbstart;        /* n + 1: CSR of neighbend */
	int *nbend;          /* 2m */
	int *bestedgeto;     /* 2n */
	int *touched;        /* 2n */
	int *leafbuf;        /* n */
	int *stack;          /* 2n */
	int *pathbuf;        /* 2n */
	int *endpbuf;        /* 2n */
	int *tmp;            /* 2n */
	int err;
};

static inline int endpoint(const struct mw *s, int p)
{
	const struct match_edge *k = &s->e[p >> 1];
	return (p & 1) ? k->v : k->u;
}

static inline int64_t slack(const struct mw *s, int k)
{
	/* |dual| <= MATCH_DUAL_LIMIT (2^61), |w| <= 2^58: the sum fits. */
	return s->dual[s->e[k].u] + s->dual[s->e[k].v] - 2 * s->e[k].w;
}

/* The leaves (vertices) of blossom b into s->leafbuf; returns their number. */
static int leaves(struct mw *s, int b)
{
	int nl = 0, sp = 0;
	s->stack[sp++] = b;
	while (sp > 0) {
		int t = s->stack[--sp];
		if (t < s->n) {
			s->leafbuf[nl++] = t;
			continue;
		}
		/* push in reverse so leaves come out in child order */
		for (int i = s->nchilds[t] - 1; i >= 0; i--)
			s->stack[sp++] = s->bchilds[t][i];
	}
	return nl;
}

static void assign_label(struct mw *s, int w, int t, int p)
{
	for (;;) {
		int b = s->inblossom[w];
		s->label[w] = s->label[b] = t;
		s->labelend[w] = s->labelend[b] = p;
		s->bestedge[w] = s->bestedge[b] = -1;
		if (t == 1) {
			int nl = leaves(s, b);
			for (int i = 0; i < nl; i++)
				s->queue[s->qlen++] = s->leafbuf[i];
			return;
		}
		/* t == 2: label the mate of the base S */
		int base = s->bbase[b];
		int mp = s->mate[base];
		w = endpoint(s, mp);
		t = 1;
		p = mp ^ 1;
	}
}

static int scan_blossom(struct mw *s, int v, int w)
{
	int npath = 0, base = -1;
	while (v != -1 || w != -1) {
		int b = s->inblossom[v];
		if (s->label[b] & 4) {
			base = s->bbase[b];
			break;
		}
		s->pathbuf[npath++] = b;
		s->label[b] = 5;
		if (s->labelend[b] == -1) {
			v = -1;
		} else {
			v = endpoint(s, s->labelend[b]);
			b = s->inblossom[v];
			v = endpoint(s, s->labelend[b]);
		}
		if (w != -1) {
			int t = v;
			v = w;
			w = t;
		}
	}
	for (int i = 0; i < npath; i++)
		s->label[s->pathbuf[i]] = 1;
	return base;
}

/* Keep edge kk as the best edge from the new blossom b to the S-blossom at its other end,
 * if that end is in one (ntouched counts the S-blossoms reached, in s->touched). */
static inline void best_edge_to(struct mw *s, int b, int kk, int *ntouched)
{
	int j = s->e[kk].v;
	if (s->inblossom[j] == b)
		j = s->e[kk].u;
	int bj = s->inblossom[j];
	if (bj != b && s->label[bj] == 1) {
		if (s->bestedgeto[bj] == -1) {
			s->bestedgeto[bj] = kk;
			s->touched[(*ntouched)++] = bj;
		} else if (slack(s, kk) < slack(s, s->bestedgeto[bj])) {
			s->bestedgeto[bj] = kk;
		}
	}
}

/* Best edges from the new blossom b to each neighbouring S-blossom (its bbest list and
 * bestedge), from its children's lists or, where a child has none, its leaves' edges. */
static int blossom_best_edges(struct mw *s, int b)
{
	int ntouched = 0, np = s->nchilds[b];
	const int *ch = s->bchilds[b];
	for (int c = 0; c < np; c++) {
		int sub = ch[c];
		if (s->bbest[sub] == NULL) {
			int nls = leaves(s, sub);
			for (int li = 0; li < nls; li++) {
				int x = s->leafbuf[li];
				for (int q = s->nbstart[x]; q < s->nbstart[x + 1]; q++)
					best_edge_to(s, b, s->nbend[q] >> 1, &ntouched);
			}
		} else {
			for (int q = 0; q < s->nbbest[sub]; q++)
				best_edge_to(s, b, s->bbest[sub][q], &ntouched);
		}
		free(s->bbest[sub]);
		s->bbest[sub] = NULL;
		s->nbbest[sub] = 0;
		s->bestedge[sub] = -1;
	}
	int *list = malloc((size_t)(ntouched > 0 ? ntouched : 1) * sizeof *list);
	if (!list) {
		for (int i = 0; i < ntouched; i++)
			s->bestedgeto[s->touched[i]] = -1;
		return MATCH_ENOMEM;
	}
	s->bestedge[b] = -1;
	for (int i = 0; i < ntouched; i++) {
		int kk = s->bestedgeto[s->touched[i]];
		list[i] = kk;
		s->bestedgeto[s->touched[i]] = -1;
		if (s->bestedge[b] == -1 || slack(s, kk) < slack(s, s->bestedge[b]))
			s->bestedge[b] = kk;
	}
	s->bbest[b] = list;
	s->nbbest[b] = ntouched;
	return MATCH_OK;
}

static int add_blossom(struct mw *s, int base, int k)
{
	int v = s->e[k].u, w = s->e[k].v;
	int bb = s->inblossom[base], bv = s->inblossom[v], bw = s->inblossom[w];
	int b = s->unused[--s->nunused];
	s->bbase[b] = base;
	s->bparent[b] = -1;
	s->bparent[bb] = b;
	int np = 0;
	int *path = s->pathbuf, *endps = s->endpbuf;
	while (bv != bb) {
		s->bparent[bv] = b;
		path[np] = bv;
		endps[np] = s->labelend[bv];
		np++;
		v = endpoint(s, s->labelend[bv]);
		bv = s->inblossom[v];
	}
	path[np++] = bb;
	/* reverse path[0..np) and endps[0..np-1) */
	for (int i = 0, j = np - 1; i < j; i++, j--) {
		int t = path[i];
		path[i] = path[j];
		path[j] = t;
	}
	for (int i = 0, j = np - 2; i < j; i++, j--) {
		int t = endps[i];
		endps[i] = endps[j];
		endps[j] = t;
	}
	endps[np - 1] = 2 * k;
	while (bw != bb) {
		s->bparent[bw] = b;
		path[np] = bw;
		endps[np] = s->labelend[bw] ^ 1;
		np++;
		w = endpoint(s, s->labelend[bw]);
		bw = s->inblossom[w];
	}
	int *ch = malloc((size_t)np * sizeof *ch);
	int *ep = malloc((size_t)np * sizeof *ep);
	if (!ch || !ep) {
		free(ch);
		free(ep);
		return MATCH_ENOMEM;
	}
	memcpy(ch, path, (size_t)np * sizeof *ch);
	memcpy(ep, endps, (size_t)np * sizeof *ep);
	s->bchilds[b] = ch;
	s->bendps[b] = ep;
	s->nchilds[b] = np;
	s->label[b] = 1;
	s->labelend[b] = s->labelend[bb];
	s->dual[b] = 0;
	int nl = leaves(s, b);
	for (int i = 0; i < nl; i++) {
		int x = s->leafbuf[i];
		if (s->label[s->inblossom[x]] == 2)
			s->queue[s->qlen++] = x;
		s->inblossom[x] = b;
	}
	return blossom_best_edges(s, b);
}

static int child_index(const struct mw *s, int b, int t)
{
	for (int i = 0; i < s->nchilds[b]; i++)
		if (s->bchilds[b][i] == t)
			return i;
	return -1; /* not reached */
}

static inline int wrap(int j, int len)
{
	return j < 0 ? j + len : j;
}

static void expand_blossom(struct mw *s, int b, bool endstage)
{
	int nc = s->nchilds[b];
	int *ch = s->bchilds[b];
	for (int i = 0; i < nc; i++) {
		int c = ch[i];
		s->bparent[c] = -1;
		if (c < s->n) {
			s->inblossom[c] = c;
		} else if (endstage && s->dual[c] == 0) {
			expand_blossom(s, c, endstage);
		} else {
			int nl = leaves(s, c);
			for (int li = 0; li < nl; li++)
				s->inblossom[s->leafbuf[li]] = c;
		}
	}
	if (!endstage && s->label[b] == 2) {
		int *endps = s->bendps[b];
		int entrychild = s->inblossom[endpoint(s, s->labelend[b] ^ 1)];
		int j = child_index(s, b, entrychild);
		int jstep, endptrick;
		if (j & 1) {
			j -= nc;
			jstep = 1;
			endptrick = 0;
		} else {
			jstep = -1;
			endptrick = 1;
		}
		int p = s->labelend[b];
		while (j != 0) {
			s->label[endpoint(s, p ^ 1)] = 0;
			s->label[endpoint(s, endps[wrap(j - endptrick, nc)] ^ endptrick ^ 1)] = 0;
			assign_label(s, endpoint(s, p ^ 1), 2, p);
			s->allowedge[endps[wrap(j - endptrick, nc)] >> 1] = 1;
			j += jstep;
			p = endps[wrap(j - endptrick, nc)] ^ endptrick;
			s->allowedge[p >> 1] = 1;
			j += jstep;
		}
		int bv = ch[wrap(j, nc)];
		s->label[endpoint(s, p ^ 1)] = s->label[bv] = 2;
		s->labelend[endpoint(s, p ^ 1)] = s->labelend[bv] = p;
		s->bestedge[bv] = -1;
		j += jstep;
		while (ch[wrap(j, nc)] != entrychild) {
			bv = ch[wrap(j, nc)];
			if (s->label[bv] == 1) {
				j += jstep;
				continue;
			}
			int nl = leaves(s, bv);
			int v = -1;
			for (int li = 0; li < nl; li++) {
				v = s->leafbuf[li];
				if (s->label[v] != 0)
					break;
			}
			if (v >= 0 && s->label[v] != 0) {
				s->label[v] = 0;
				s->label[endpoint(s, s->mate[s->bbase[bv]])] = 0;
				assign_label(s, v, 2, s->labelend[v]);
			}
			j += jstep;
		}
	}
	s->label[b] = s->labelend[b] = -1;
	free(s->bchilds[b]);
	free(s->bendps[b]);
	s->bchilds[b] = s->bendps[b] = NULL;
	s->nchilds[b] = 0;
	s->bbase[b] = -1;
	free(s->bbest[b]);
	s->bbest[b] = NULL;
	s->nbbest[b] = 0;
	s->bestedge[b] = -1;
	s->unused[s->nunused++] = b;
}

static void augment_blossom(struct mw *s, int b, int v)
{
	int t = v;
	while (s->bparent[t] != b)
		t = s->bparent[t];
	if (t >= s->n)
		augment_blossom(s, t, v);
	int nc = s->nchilds[b];
	int *ch = s->bchilds[b], *endps = s->bendps[b];
	int i = child_index(s, b, t), j = i;
	int jstep, endptrick;
	if (i & 1) {
		j -= nc;
		jstep = 1;
		endptrick = 0;
	} else {
		jstep = -1;
		endptrick = 1;
	}
	while (j != 0) {
		j += jstep;
		t = ch[wrap(j, nc)];
		int p = endps[wrap(j - endptrick, nc)] ^ endptrick;
		if (t >= s->n)
			augment_blossom(s, t, endpoint(s, p));
		j += jstep;
		t = ch[wrap(j, nc)];
		if (t >= s->n)
			augment_blossom(s, t, endpoint(s, p ^ 1));
		s->mate[endpoint(s, p)] = p ^ 1;
		s->mate[endpoint(s, p ^ 1)] = p;
	}
	/* rotate so that child i comes first */
	memcpy(s->tmp, ch + i, (size_t)(nc - i) * sizeof(int));
	memcpy(s->tmp + (nc - i), ch, (size_t)i * sizeof(int));
	memcpy(ch, s->tmp, (size_t)nc * sizeof(int));
	memcpy(s->tmp, endps + i, (size_t)(nc - i) * sizeof(int));
	memcpy(s->tmp + (nc - i), endps, (size_t)i * sizeof(int));
	memcpy(endps, s->tmp, (size_t)nc * sizeof(int));
	s->bbase[b] = s->bbase[ch[0]];
}

static void augment_matching(struct mw *s, int k)
{
	int ends[2][2] = { { s->e[k].u, 2 * k + 1 }, { s->e[k].v, 2 * k } };
	for (int side = 0; side < 2; side++) {
		int sv = ends[side][0], p = ends[side][1];
		for (;;) {
			int bs = s->inblossom[sv];
			if (bs >= s->n)
				augment_blossom(s, bs, sv);
			s->mate[sv] = p;
			if (s->labelend[bs] == -1)
				break;
			int t = endpoint(s, s->labelend[bs]);
			int bt = s->inblossom[t];
			sv = endpoint(s, s->labelend[bt]);
			int j = endpoint(s, s->labelend[bt] ^ 1);
			if (bt >= s->n)
				augment_blossom(s, bt, j);
			s->mate[j] = s->labelend[bt];
			p = s->labelend[bt] ^ 1;
		}
	}
}

static bool dual_move(int64_t *x, int64_t delta)
{
	int64_t r;
	if (__builtin_add_overflow(*x, delta, &r) || r > MATCH_DUAL_LIMIT || r < -MATCH_DUAL_LIMIT)
		return false;
	*x = r;
	return true;
}

/* A stage's start: labels and best edges cleared, the free vertices labelled S. */
static void stage_init(struct mw *s)
{
	int n = s->n;
	for (int b = 0; b < 2 * n; b++) {
		s->label[b] = 0;
		s->bestedge[b] = -1;
	}
	for (int b = n; b < 2 * n; b++) {
		free(s->bbest[b]);
		s->bbest[b] = NULL;
		s->nbbest[b] = 0;
	}
	memset(s->allowedge, 0, (size_t)s->m);
	s->qlen = 0;
	for (int v = 0; v < n; v++)
		if (s->mate[v] == -1 && s->label[s->inblossom[v]] == 0)
			assign_label(s, v, 1, -1);
}

/* Scan the queued S-vertices' edges: label, make blossoms, or augment (*augmented, and
 * stop). Returns MATCH_OK or an error. */
static int scan_queue(struct mw *s, bool *augmented)
{
	while (s->qlen > 0 && !*augmented) {
		int v = s->queue[--s->qlen];
		for (int q = s->nbstart[v]; q < s->nbstart[v + 1]; q++) {
			int p = s->nbend[q];
			int k = p >> 1;
			int w = endpoint(s, p);
			if (s->inblossom[v] == s->inblossom[w])
				continue;
			int64_t kslack = 0;
			if (!s->allowedge[k]) {
				kslack = slack(s, k);
				if (kslack <= 0)
					s->allowedge[k] = 1;
			}
			if (s->allowedge[k]) {
				if (s->label[s->inblossom[w]] == 0) {
					assign_label(s, w, 2, p ^ 1);
				} else if (s->label[s->inblossom[w]] == 1) {
					int base = scan_blossom(s, v, w);
					if (base >= 0) {
						int r = add_blossom(s, base, k);
						if (r)
							return r;
					} else {
						augment_matching(s, k);
						*augmented = true;
						break;
					}
				} else if (s->label[w] == 0) {
					s->label[w] = 2;
					s->labelend[w] = p ^ 1;
				}
			} else if (s->label[s->inblossom[w]] == 1) {
				int b = s->inblossom[v];
				if (s->bestedge[b] == -1 || kslack < slack(s, s->bestedge[b]))
					s->bestedge[b] = k;
			} else if (s->label[w] == 0) {
				if (s->bestedge[w] == -1 || kslack < slack(s, s->bestedge[w]))
					s->bestedge[w] = k;
			}
		}
	}
	return MATCH_OK;
}

/* The dual step: its type (1 vertex dual to zero, 2 an S-to-free edge, 3 an S-to-S edge,
 * 4 a T-blossom dual to zero), its size, and the edge or blossom concerned. */
struct delta {
	int type, edge, blossom;
	int64_t size;
};

/* The smallest dual step that lets the search go on. */
static void compute_delta(const struct mw *s, struct delta *dl)
{
	int n = s->n;
	int deltatype = -1, deltaedge = -1, deltablossom = -1;
	int64_t delta = 0;
	if (!s->maxcard) {
		deltatype = 1;
		delta = s->dual[0];
		for (int v = 1; v < n; v++)
			if (s->dual[v] < delta)
				delta = s->dual[v];
	}
	for (int v = 0; v < n; v++) {
		if (s->label[s->inblossom[v]] == 0 && s->bestedge[v] != -1) {
			int64_t d = slack(s, s->bestedge[v]);
			if (deltatype == -1 || d < delta) {
				delta = d;
				deltatype = 2;
				deltaedge = s->bestedge[v];
			}
		}
	}
	for (int b = 0; b < 2 * n; b++) {
		if (s->bparent[b] == -1 && s->label[b] == 1 && s->bestedge[b] != -1) {
			int64_t d = slack(s, s->bestedge[b]) / 2;
			if (deltatype == -1 || d < delta) {
				delta = d;
				deltatype = 3;
				deltaedge = s->bestedge[b];
			}
		}
	}
	for (int b = n; b < 2 * n; b++) {
		if (s->bbase[b] >= 0 && s->bparent[b] == -1 && s->label[b] == 2 &&
		    (deltatype == -1 || s->dual[b] < delta)) {
			delta = s->dual[b];
			deltatype = 4;
			deltablossom = b;
		}
	}
	if (deltatype == -1) {
		/* max cardinality and no further progress possible */
		deltatype = 1;
		delta = s->dual[0];
		for (int v = 1; v < n; v++)
			if (s->dual[v] < delta)
				delta = s->dual[v];
		if (delta < 0)
			delta = 0;
	}
	dl->type = deltatype;
	dl->edge = deltaedge;
	dl->blossom = deltablossom;
	dl->size = delta;
}

/* Move the duals by delta: S-vertices down, T-vertices up, top-level blossoms the other
 * way. MATCH_OK, or MATCH_ERANGE past MATCH_DUAL_LIMIT. */
static int apply_delta(struct mw *s, int64_t delta)
{
	int n = s->n;
	for (int v = 0; v < n; v++) {
		int l = s->label[s->inblossom[v]];
		if (l == 1) {
			if (!dual_move(&s->dual[v], -delta))
				return MATCH_ERANGE;
		} else if (l == 2) {
			if (!dual_move(&s->dual[v], delta))
				return MATCH_ERANGE;
		}
	}
	for (int b = n; b < 2 * n; b++) {
		if (s->bbase[b] >= 0 && s->bparent[b] == -1) {
			if (s->label[b] == 1) {
				if (!dual_move(&s->dual[b], delta))
					return MATCH_ERANGE;
			} else if (s->label[b] == 2) {
				if (!dual_move(&s->dual[b], -delta))
					return MATCH_ERANGE;
			}
		}
	}
	return MATCH_OK;
}

/* The main loop of mwmatching. Returns MATCH_OK or an error. */
static int solve(struct mw *s)
{
	int n = s->n, r;
	for (int stage = 0; stage < n; stage++) {
		stage_init(s);
		bool augmented = false;
		for (;;) {
			if ((r = scan_queue(s, &augmented)))
				return r;
			if (augmented)
				break;
			struct delta dl;
			compute_delta(s, &dl);
			if ((r = apply_delta(s, dl.size)))
				return r;
			if (dl.type == 1) {
				break;
			} else if (dl.type == 2) {
				s->allowedge[dl.edge] = 1;
				int i = s->e[dl.edge].u;
				if (s->label[s->inblossom[i]] == 0)
					i = s->e[dl.edge].v;
				s->queue[s->qlen++] = i;
			} else if (dl.type == 3) {
				s->allowedge[dl.edge] = 1;
				s->queue[s->qlen++] = s->e[dl.edge].u;
			} else {
				expand_blossom(s, dl.blossom, false);
			}
		}
		if (!augmented)
			break;
		for (int b = n; b < 2 * n; b++)
			if (s->bparent[b] == -1 && s->bbase[b] >= 0 && s->label[b] == 1 &&
			    s->dual[b] == 0)
				expand_blossom(s, b, true);
	}
	return MATCH_OK;
}

static void mw_free(struct mw *s)
{
	if (s->bchilds)
		for (int b = 0; b < 2 * s->n; b++) {
			free(s->bchilds[b]);
			free(s->bendps[b]);
			free(s->bbest[b]);
		}
	free(s->dual);
	free(s->mate);
	free(s->label);
	free(s->labelend);
	free(s->inblossom);
	free(s->bparent);
	free(s->bbase);
	free(s->bestedge);
	free(s->bchilds);
	free(s->bendps);
	free(s->nchilds);
	free(s->bbest);
	free(s->nbbest);
	free(s->unused);
	free(s->allowedge);
	free(s->queue);
	free(s->nbstart);
	free(s->nbend);
	free(s->bestedgeto);
	free(s->touched);
	free(s->leafbuf);
	free(s->stack);
	free(s->pathbuf);
	free(s->endpbuf);
	free(s->tmp);
}

/* Build the certificate from the final state. */
static int make_dual(const struct mw *s, struct match_dual **out)
{
	int n2 = 2 * s->n;
	size_t sz = (size_t)(n2 > 0 ? n2 : 1);
	struct match_dual *d = calloc(1, sizeof *d);
	if (!d)
		return MATCH_ENOMEM;
	d->n = s->n;
	d->dual = malloc(sz * sizeof *d->dual);
	d->parent = malloc(sz * sizeof *d->parent);
	d->depth = malloc(sz * sizeof *d->depth);
	d->zacc = malloc(sz * sizeof *d->zacc);
	d->top = malloc(sz * sizeof *d->top);
	if (!d->dual || !d->parent || !d->depth || !d->zacc || !d->top) {
		match_dual_free(d);
		return MATCH_ENOMEM;
	}
	d->zacc_ok = true;
	for (int b = 0; b < n2; b++) {
		bool live = b < s->n || s->bbase[b] >= 0;
		d->dual[b] = live ? s->dual[b] : 0;
		d->parent[b] = live ? s->bparent[b] : -1;
		d->depth[b] = -1;
	}
	/* depth and zacc: walk up from each unresolved node, then resolve the walk top-down */
	int *chain = malloc(sz * sizeof *chain);
	if (!chain) {
		match_dual_free(d);
		return MATCH_ENOMEM;
	}
	for (int b = 0; b < n2; b++) {
		int len = 0;
		for (int y = b; y >= 0 && d->depth[y] < 0; y = d->parent[y])
			chain[len++] = y;
		for (int i = len - 1; i >= 0; i--) {
			int c = chain[i], par = d->parent[c];
			int64_t z = c < s->n ? 0 : d->dual[c];
			if (par < 0) {
				d->depth[c] = 0;
				d->zacc[c] = z;
			} else {
				d->depth[c] = d->depth[par] + 1;
				if (__builtin_add_overflow(d->zacc[par], z, &d->zacc[c]))
					d->zacc_ok = false;
			}
		}
	}
	free(chain);
	for (int v = 0; v < s->n; v++)
		d->top[v] = s->inblossom[v];
	*out = d;
	return MATCH_OK;
}

/* MATCH_PERFECT's start: each vertex's dual is its heaviest edge rounded up to even (so
 * every slack is >= 0),
 * then tight edges between free vertices are matched, twice over: once as they are, once
 * after lowering each free vertex's dual as far as feasibility allows. */
static void warm_start(struct mw *s)
{
	int n = s->n;
	for (int v = 0; v < n; v++)
		s->dual[v] = INT64_MIN;
	for (int k = 0; k < s->m; k++) {
		const struct match_edge *e = &s->e[k];
		if (e->w > s->dual[e->u])
			s->dual[e->u] = e->w;
		if (e->w > s->dual[e->v])
			s->dual[e->v] = e->w;
	}
	/* all duals even, as in the uniform start, so S-S slacks stay even and delta3 = slack/2
	 * is exact (a tight edge never differs from one of slack 1) */
	for (int v = 0; v < n; v++) {
		if (s->dual[v] == INT64_MIN)
			s->dual[v] = 0; /* isolated */
		s->dual[v] += s->dual[v] & 1;
	}
	for (int pass = 0; pass < 2; pass++) {
		for (int v = 0; v < n; v++) {
			if (s->mate[v] >= 0)
				continue;
			if (pass == 1) {
				/* lowest feasible dual: max over neighbours of 2w - dual[j] */
				int64_t lo = INT64_MIN;
				for (int q = s->nbstart[v]; q < s->nbstart[v + 1]; q++) {
					int p = s->nbend[q];
					int64_t x = 2 * s->e[p >> 1].w - s->dual[endpoint(s, p)];
					if (x > lo)
						lo = x;
				}
				if (lo == INT64_MIN || lo < -MATCH_DUAL_LIMIT)
					continue;
				s->dual[v] = lo;
			}
			for (int q = s->nbstart[v]; q < s->nbstart[v + 1]; q++) {
				int p = s->nbend[q], w = endpoint(s, p);
				if (s->mate[w] < 0 && slack(s, p >> 1) == 0) {
					s->mate[v] = p;
					s->mate[w] = p ^ 1;
					break;
				}
			}
		}
	}
}

int match_max_weight(int n, const struct match_edge *edges, size_t m, unsigned flags,
		int *mate, struct match_dual **dual)
{
	bool max_cardinality = flags & (MATCH_MAX_CARDINALITY | MATCH_PERFECT);
	if (dual)
		*dual = NULL;
	if (n < 0 || n > MATCH_MAX_VERTICES || m > MATCH_MAX_EDGES || !mate || (m > 0 && !edges) ||
	    (flags & ~(unsigned)(MATCH_MAX_CARDINALITY | MATCH_PERFECT)))
		return MATCH_EINVAL;
	int64_t maxw = 0;
	for (size_t k = 0; k < m; k++) {
		const struct match_edge *e = &edges[k];
		if (e->u < 0 || e->u >= n || e->v < 0 || e->v >= n || e->u == e->v ||
		    e->w > MATCH_WEIGHT_MAX || e->w < -MATCH_WEIGHT_MAX)
			return MATCH_EINVAL;
		if (e->w > maxw)
			maxw = e->w;
	}
	struct mw st, *s = &st;
	memset(s, 0, sizeof *s);
	s->n = n;
	s->m = (int)m;
	s->e = edges;
	s->maxcard = max_cardinality;
	size_t n2 = (size_t)(2 * n > 0 ? 2 * n : 1), n1 = (size_t)(n > 0 ? n : 1);
	size_t m1 = m > 0 ? m : 1;
	int ret = MATCH_ENOMEM;
	s->dual = malloc(n2 * sizeof *s->dual);
	s->mate = malloc(n1 * sizeof *s->mate);
	s->label = malloc(n2 * sizeof(int));
	s->labelend = malloc(n2 * sizeof(int));
	s->inblossom = malloc(n1 * sizeof(int));
	s->bparent = malloc(n2 * sizeof(int));
	s->bbase = malloc(n2 * sizeof(int));
	s->bestedge = malloc(n2 * sizeof(int));
	s->bchilds = calloc(n2, sizeof(int *));
	s->bendps = calloc(n2, sizeof(int *));
	s->nchilds = calloc(n2, sizeof(int));
	s->bbest = calloc(n2, sizeof(int *));
	s->nbbest = calloc(n2, sizeof(int));
	s->unused = malloc(n1 * sizeof(int));
	s->allowedge = malloc(m1);
	s->queue = malloc((n2 + 1) * sizeof(int)); /* each vertex once, + one */
	s->nbstart = calloc((size_t)n + 1, sizeof(int));
	s->nbend = malloc(2 * m1 * sizeof(int));
	s->bestedgeto = malloc(n2 * sizeof(int));
	s->touched = malloc(n2 * sizeof(int));
	s->leafbuf = malloc(n1 * sizeof(int));
	s->stack = malloc(n2 * sizeof(int));
	s->pathbuf = malloc(n2 * sizeof(int));
	s->endpbuf = malloc(n2 * sizeof(int));
	s->tmp = malloc(n2 * sizeof(int));
	if (!s->dual || !s->mate || !s->label || !s->labelend || !s->inblossom || !s->bparent ||
	    !s->bbase || !s->bestedge || !s->bchilds || !s->bendps || !s->nchilds || !s->bbest ||
	    !s->nbbest || !s->unused || !s->allowedge || !s->queue || !s->nbstart || !s->nbend ||
	    !s->bestedgeto || !s->touched || !s->leafbuf || !s->stack || !s->pathbuf ||
	    !s->endpbuf || !s->tmp)
		goto out;
	/* neighbend in CSR form, in edge order as mwmatching appends them */
	for (size_t k = 0; k < m; k++) {
		s->nbstart[edges[k].u + 1]++;
		s->nbstart[edges[k].v + 1]++;
	}
	for (int v = 0; v < n; v++)
		s->nbstart[v + 1] += s->nbstart[v];
	{
		int *fill = s->tmp; /* 2n >= n entries */
		for (int v = 0; v < n; v++)
			fill[v] = s->nbstart[v];
		for (size_t k = 0; k < m; k++) {
			s->nbend[fill[edges[k].u]++] = (int)(2 * k + 1);
			s->nbend[fill[edges[k].v]++] = (int)(2 * k);
		}
	}
	/* the uniform start: every dual maxweight (one parity for all, see warm_start) */
	for (int v = 0; v < n; v++) {
		s->mate[v] = -1;
		s->inblossom[v] = v;
		s->dual[v] = maxw;
	}
	for (int b = 0; b < 2 * n; b++) {
		s->bparent[b] = -1;
		s->bbase[b] = b < n ? b : -1;
		s->bestedgeto[b] = -1;
		s->labelend[b] = -1;
	}
	for (int b = n; b < 2 * n; b++)
		s->dual[b] = 0;
	s->nunused = 0;
	for (int b = 2 * n - 1; b >= n; b--)
		s->unused[s->nunused++] = b; /* pop() gives n first, as in mwmatching */
	if (flags & MATCH_PERFECT)
		warm_start(s);
	ret = solve(s);
	if (ret)
		goto out;
	for (int v = 0; v < n; v++)
		mate[v] = s->mate[v] >= 0 ? endpoint(s, s->mate[v]) : -1;
	if (dual)
		ret = make_dual(s, dual);
out:
	mw_free(s);
	return ret;
}

int match_dual_slack(const struct match_dual *d, int u, int v, int64_t w, int64_t *slack_out)
{
	if (!d || !slack_out || u < 0 || v < 0 || u >= d->n || v >= d->n || u == v ||
	    w > MATCH_WEIGHT_MAX || w < -MATCH_WEIGHT_MAX)
		return MATCH_EINVAL;
	int64_t r = d->dual[u] + d->dual[v] - 2 * w; /* bounded, see MATCH_DUAL_LIMIT */
	if (d->top[u] != d->top[v]) {
		*slack_out = r;
		return MATCH_OK;
	}
	/* the deepest blossom holding both */
	int a = u, b = v;
	while (d->depth[a] > d->depth[b])
		a = d->parent[a];
	while (d->depth[b] > d->depth[a])
		b = d->parent[b];
	while (a != b && a >= 0 && b >= 0) {
		a = d->parent[a];
		b = d->parent[b];
	}
	if (a >= 0 && a == b) {
		if (!d->zacc_ok)
			return MATCH_ERANGE;
		int64_t z2;
		if (__builtin_mul_overflow(d->zacc[a], 2, &z2) || __builtin_add_overflow(r, z2, &r))
			return MATCH_ERANGE;
	}
	*slack_out = r;
	return MATCH_OK;
}

int match_dual_slack_bound(const struct match_dual *d, int u, int v, int64_t w, int64_t *bound)
{
	if (!d || !bound || u < 0 || v < 0 || u >= d->n || v >= d->n || u == v ||
	    w > MATCH_WEIGHT_MAX || w < -MATCH_WEIGHT_MAX)
		return MATCH_EINVAL;
	int64_t r = d->dual[u] + d->dual[v] - 2 * w; /* bounded, see MATCH_DUAL_LIMIT */
	/* both in one top-level blossom: the deepest blossom holding both is inside it, so
	 * its accumulated z is at least the top one's */
	int64_t z2;
	if (d->top[u] == d->top[v] && d->top[u] >= d->n && d->zacc_ok &&
	    !__builtin_mul_overflow(d->zacc[d->top[u]], 2, &z2) && !__builtin_add_overflow(r, z2, &z2))
		r = z2;
	*bound = r;
	return MATCH_OK;
}

void match_dual_free(struct match_dual *d)
{
	if (!d)
		return;
	free(d->dual);
	free(d->parent);
	free(d->depth);
	free(d->zacc);
	free(d->top);
	free(d);
}

const char *match_strerror(int err)
{
	switch (err) {
	case MATCH_OK: return "no error";
	case MATCH_EINVAL: return "invalid graph or argument";
	case MATCH_ENOMEM: return "out of memory";
	case MATCH_ERANGE: return "dual variable out of range";
	default: return "unknown error";
	}
}
