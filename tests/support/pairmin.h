/* pairmin: the exact minimum of a Swiss/McMahon round's score difference, as a reference for
 * common/pairing (tests/unit/test_pairing.c, tests/bench/pair_bench.c). Independent of the
 * pairing's own weights: a matching (common/match) on every pair of the round's field that
 * has not met, with costs of score difference only, proven optimal by its dual certificate. */
#ifndef TENGEN_PAIRMIN_H
#define TENGEN_PAIRMIN_H

#include "event.h"

/* Round `round` of ev as pairing_round sees it (players in the event that round; for an odd
 * field a bye, open to the players with the fewest byes, costing its player's score above
 * the field's lowest). Scores in half wins (Swiss: game points; McMahon: doubled MMS).
 * *diff_min: the least total |score difference| of a perfect pairing without rematches;
 * *cross_min: the fewest pairs (and bye) across scores among the pairings of that least
 * total. Returns 0, or -1 (no pairing without rematches, a bad event, no memory). */
int pairmin_round(const struct event *ev, int round, long *diff_min, long *cross_min);
/* The same with the bye given to player `bye` (an odd field; -1: any of the fewest byes):
 * -1 also when no pairing of the others is without a rematch. */
int pairmin_round_bye(const struct event *ev, int round, int bye, long *diff_min,
		      long *cross_min);

#endif
