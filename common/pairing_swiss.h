/* pairing_swiss: the Swiss/McMahon matching's state, shared by pairing_swiss.c (weights,
 * candidate pairs, the matching) and pairing_complete.c (completability, next-best
 * pairings). Internal to common/pairing*.c. */
#ifndef TENGEN_PAIRING_SWISS_H
#define TENGEN_PAIRING_SWISS_H

#include "match.h"
#include "pairing_int.h"

/* The two passes of the matching: rematches as excluded edges, then let in (the fewest). */
enum mode { MODE_STRICT = 0, MODE_REMATCH_SOFT, MODE_COUNT };

/* One Swiss/McMahon round being drawn: the field in placing order and its score groups. */
struct sw {
	const struct event *ev;
	const struct hist *h;
	int round;
	int nf;        /* players in the field */
	int nv;        /* matching vertices: the field, plus the bye's dummy for an odd field */
	int dummy;     /* the dummy vertex (nf) of an odd field, else -1 */
	int *pl;       /* the field in placing order */
	int *gstart;   /* per place: the first place of its score group */
	int *gsize;    /* per place: the size of its score group */
	int min_byes;  /* the fewest byes of anyone in the field: only they may get this one */
	int score_min; /* the lowest score of the field: the dummy's score */
	int bye_only;  /* >= 0: the one place that may have the bye (swiss_match tries them
			* from the last up); -1: any with the fewest byes */
	bool hcap;
};

/* A candidate graph for match_max_weight (sorted by (u, v) once canonical). */
struct edges {
	struct match_edge *e;
	size_t m, cap;
};

/* Append the edge u-v of weight w to E, growing it. PAIRING_ENOMEM. */
int swiss_edges_push(struct edges *E, int u, int v, int64_t w);

/* A match_max_weight error as a PAIRING_E* code. */
int swiss_match_err(int r);

/* Is every one of the nv vertices matched? */
bool swiss_is_perfect(const int *mate, int nv);

/* mate is the best matching of E (a strict-mode graph). If it leaves the event incompletable,
 * replace it by the first of the next-best matchings, in order of weight, that does not
 * (none within the limits: mate stays). PAIRING_ENOMEM, PAIRING_EMATCH (pairing_complete.c). */
int swiss_ensure_completable(const struct sw *c, const struct edges *E, int *mate);
/* Does the round's matching `mate` leave the rounds after it pairable without a rematch
 * (docs/pairing.md, criterion 1)? *verdict 1 yes (or not decided within the search's budget),
 * 0 no. PAIRING_ENOMEM (pairing_complete.c). */
int swiss_completable(const struct sw *c, const int *mate, int *verdict);

#endif
