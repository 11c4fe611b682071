/* match: maximum-weight matching on a general graph. Pure (no I/O).
 *
 * Edmonds' blossom algorithm with dual variables, O(n^3), following Galil, "Efficient
 * algorithms for finding maximum matching in graphs" (ACM Computing Surveys, 1986) as
 * implemented by Joris van Rantwijk's mwmatching.py (the "primal-dual method"; the same
 * code is networkx's max_weight_matching). Weights are int64_t and every computation is in
 * integers: vertex duals are kept doubled (dual = 2u), so S-S slacks stay even.
 *
 * With MATCH_MAX_CARDINALITY the matching is the heaviest among those of maximum
 * cardinality (on a graph with a perfect matching: the heaviest perfect matching); with
 * MATCH_PERFECT the heaviest perfect matching, faster; otherwise it is the heaviest matching
 * of any size (edges of negative weight are then never used).
 *
 * The optimality certificate (the final duals) can be kept: match_dual_slack gives the
 * reduced cost of any vertex pair, in the graph or not. If the returned matching is perfect
 * and every pair of a larger graph has a non-negative slack, the matching is also a heaviest
 * perfect matching of that larger graph (LP duality) - the pairing code solves a sparse
 * graph and checks the full one this way.
 *
 * Errors: MATCH_OK (0) or a negative enum match_err; on an error *mate is unspecified and
 * *dual is NULL.
 */
#ifndef TENGEN_MATCH_H
#define TENGEN_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MATCH_MAX_VERTICES (1 << 20)
#define MATCH_MAX_EDGES (1 << 28)
/* |weight| accepted. Duals are checked against MATCH_DUAL_LIMIT as they move, so no
 * arithmetic can overflow; a run that would pass it fails with MATCH_ERANGE (never seen
 * with weights this size; the bound is there so that it cannot be undefined behaviour). */
#define MATCH_WEIGHT_MAX (INT64_C(1) << 58)
#define MATCH_DUAL_LIMIT (INT64_C(1) << 61)

enum match_err {
	MATCH_OK = 0,
	MATCH_EINVAL = -1,  /* n or m out of range, an endpoint out of range, a self-loop, a
			       weight beyond MATCH_WEIGHT_MAX, a NULL pointer, unknown flags */
	MATCH_ENOMEM = -2,
	MATCH_ERANGE = -3,  /* a dual variable left +-MATCH_DUAL_LIMIT */
};

/* An undirected edge u-v (0 <= u, v < n, u != v) of weight w. Parallel edges are allowed. */
struct match_edge {
	int u, v;
	int64_t w;
};

/* Optimality certificate of a solved graph (opaque). */
struct match_dual;

/* Flags of match_max_weight. */
enum match_flags {
	/* the heaviest among the matchings of maximum cardinality */
	MATCH_MAX_CARDINALITY = 1,
	/* the caller expects a perfect matching: if the graph has one, the result is the
	 * heaviest perfect matching; otherwise it is of maximum cardinality, with no weight
	 * guarantee. Faster: the search starts from per-vertex duals and a greedy matching of
	 * tight edges instead of an empty matching with uniform duals. */
	MATCH_PERFECT = 2,
};

/* Maximum-weight matching of the graph with vertices 0..n-1 (0 <= n <= MATCH_MAX_VERTICES)
 * and edges[0..m-1] (m <= MATCH_MAX_EDGES; edges may be NULL when m == 0); flags is 0 (the
 * heaviest matching of any size) or one of enum match_flags. On success
 * mate[v] (n entries) is v's partner or -1. Deterministic: the same input gives the same
 * output. If dual is not NULL, *dual receives the certificate (free with match_dual_free).
 * Time O(n (n^2 + m)) in the worst case, memory O(n + m). */
int match_max_weight(int n, const struct match_edge *edges, size_t m, unsigned flags,
		int *mate, struct match_dual **dual);

/* The doubled reduced cost of the pair u-v with weight w under the certificate:
 * 2 (u_u + u_v - w + sum of z_B over the blossoms holding both). Every edge of the solved
 * graph has slack >= 0 and matched edges 0. MATCH_EINVAL for a bad vertex or weight,
 * MATCH_ERANGE if the value does not fit an int64_t. */
int match_dual_slack(const struct match_dual *d, int u, int v, int64_t w, int64_t *slack);

/* A lower bound on match_dual_slack's value, in O(1): the doubled reduced cost counting
 * only the top-level blossom that holds both (if any), not the ones nested inside it (blossom
 * duals are never negative). When it is >= 0 the pair's slack is too: use it to skip the
 * exact computation, which walks the nesting. MATCH_EINVAL as match_dual_slack. */
int match_dual_slack_bound(const struct match_dual *d, int u, int v, int64_t w, int64_t *bound);

void match_dual_free(struct match_dual *d);

/* A short English text for an enum match_err value. */
const char *match_strerror(int err);

#endif
