/* pairing_int: what the files of the draw share (pairing.c: history and the common pieces;
 * pairing_rr.c: round robin and knockout; pairing_swiss.c, pairing_complete.c: Swiss and
 * McMahon). Internal to common/pairing*.c: the interface is pairing.h. */
#ifndef TENGEN_PAIRING_INT_H
#define TENGEN_PAIRING_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pairing.h"

/* Score units: half wins (a win 2, a draw 1); Swiss game points are already in them, MMS
 * is kept doubled. */
#define UNITS_WIN 2
#define UNITS_DRAW 1
#define BYE_POINTS_MAX 2

/* History of the rounds before the one being paired. */
struct hist {
	int n;
	int *score;        /* units (see above) */
	int *wb;           /* colour balance: Whites - Blacks in played even games */
	signed char *last; /* colour of the last played even game: +1 White, -1 Black, 0 none */
	int *nbyes;
	signed char *fl1;  /* float last round: +1 up, -1 down, 0 none */
	signed char *fl2;  /* the round before */
	uint8_t *met;      /* n*n bits: met[i][j] */
};

/* Is the player still in the event in round t (not withdrawn before it)? */
static inline bool in_event(const struct event_player *p, int t)
{
	return !p->withdrawn_before_start && (p->withdrawn_after == 0 || p->withdrawn_after >= t);
}

/* Is the player to be paired in round t: in the event and not marked absent for it? */
static inline bool paired_in(const struct event_player *p, int t)
{
	return in_event(p, t) && !(t >= 1 && t <= 64 && ((p->absent_rounds >> (t - 1)) & 1));
}

/* Have players a and b met in an earlier round? */
static inline bool met(const struct hist *h, int a, int b)
{
	size_t k = (size_t)a * (size_t)h->n + (size_t)b;
	return (h->met[k >> 3] >> (k & 7)) & 1;
}

/* ---- common pieces of the draw (pairing.c) ---- */

/* The handicap stones of players a and b by the event's rule (docs/pairing.md, Handicap): the
 * rank or, with handicap_by_mms, the score (units, `score`) difference less the correction,
 * none above handicap_none_above, at most `cap` (cap < 0: not capped: what the difference
 * asks for). *weaker (if not NULL): the weaker player, who takes Black, or -1 when level. */
int pair_handicap_rule(const struct event *ev, const int *score, int a, int b, int cap,
		       int *weaker);

/* Is player a before player b in seed order? */
bool pair_seed_before(const struct event *ev, int a, int b);

/* A player's due colour (docs/pairing.md): +1 White, -1 Black, 0 none, and the strength of the
 * claim in *strength (see pairing.c). */
int pair_due_colour(const struct hist *h, int p, int *strength);

/* Colours of an even game between a and b on board `board` (0 = the top board) into *p,
 * handicap 0, bracket main (docs/pairing.md; see pairing.c). */
void pair_give_colours(const struct event *ev, const struct hist *h, int a, int b, int board,
		struct pairing_pair *p);

/* The players who did not withdraw before the start, in seed order: a new array in
 * *list_out (the caller frees it), their number in *count. PAIRING_ENOMEM. */
int pair_players_by_seed(const struct event *ev, int **list_out, int *count);

/* ---- the systems: round `round` of ev into out (zeroed by the caller) ---- */

/* Round robin and double round robin: Berger tables (pairing_rr.c). PAIRING_EINVAL with
 * no players, PAIRING_EOVER past the last round, PAIRING_ENOMEM. */
int pair_round_robin(const struct event *ev, int round, struct pairing_out *out);

/* Single and double elimination, replaying the earlier rounds from h's event (pairing_rr.c).
 * PAIRING_EPENDING / PAIRING_EHISTORY for an undecided or missing earlier game, PAIRING_EOVER
 * when the bracket is decided, PAIRING_EINVAL, PAIRING_ENOMEM. */
int pair_knockout(const struct event *ev, int round, const struct hist *h,
		struct pairing_out *out);

/* Swiss and McMahon: the heaviest matching (pairing_swiss.c). PAIRING_EOVER past
 * rounds_planned or with fewer than two players, PAIRING_ENOMEM, PAIRING_EMATCH. */
int pair_swiss(const struct event *ev, int round, const struct hist *h,
		struct pairing_out *out);

#endif
