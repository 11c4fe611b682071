/* elim: elimination after k losses (Chinese Weiqi Rules 2002, Art. 26.1 and 26.4;
 * docs/teams.md). Pure: no I/O, no chance.
 *
 * A loss is a game lost (played or by forfeit) or a double loss (both lose, Art. 17.5, 23.1);
 * a draw or a void game is no loss. A player with k losses is out: never paired again.
 *
 * Swiss with elimination (积分编排加淘汰, Art. 26.4): each round is a Swiss round
 * (common/pairing.h, the Go-order matching on game points) over the players with fewer than
 * k losses. The article asks that the field always be even: with keep_even, when that field
 * is odd and someone in it has lost, the lowest-placed of the players with the most losses
 * (fewest game points, then the worst seed) is eliminated as well, for good; an odd field
 * where nobody has lost yet (round 1) has a bye by the Swiss rules, as has any odd field
 * without keep_even. The event ends at rounds_planned or when fewer than two are left.
 *
 * Knockout after k losses (k = 1 single, 2 double, 3 or more multiple elimination, Art.
 * 26.1): every round pairs the players with fewer than k losses, those with the same number
 * of losses together where possible (a maximum-weight matching, common/match.h: first the
 * fewest players paired across loss groups, then the fewest rematches, then in seed order
 * 1st v last within each group); an odd field's bye goes to a player with the fewest byes (a
 * hard rule), where it keeps the loss groups together, then to the fewest losses, then to
 * the best seed. It ends when one player is left (the winner):
 * the last two play on until one has k losses (so the unbeaten finalist may lose once and
 * meet the other again, as in a grand final). A knockout game needs a decisive result: a
 * round whose games between two players are only draws or void ones is pending (replay).
 * Colours: the player with more Whites takes Black; equal, the better seed takes White on the
 * first board and the boards alternate.
 *
 * Errors: PAIRING_OK or a negative enum pairing_err (pairing.h); on an error out is unchanged.
 */
#ifndef TENGEN_ELIM_H
#define TENGEN_ELIM_H

#include <stdbool.h>

#include "event.h"
#include "pairing.h"

#define ELIM_MAX_LOSSES 8          /* k: 1..this */
#define ELIM_KO_MAX_PLAYERS 1024   /* knockout: every pair is a candidate (O(n^2) edges) */

/* Losses of each player (losses[nplayers]) in the rounds before `round`. PAIRING_EINVAL,
 * PAIRING_EPENDING (a game of an earlier round without a result). */
int elim_losses(const struct event *ev, int round, int *losses);

/* Who may be paired in round `round` of a Swiss with elimination after k losses:
 * active[nplayers] (in the event, fewer than k losses, not eliminated to keep the field even
 * in this or an earlier round), their number in *nactive. PAIRING_EINVAL, PAIRING_EPENDING,
 * PAIRING_ENOMEM. */
int elim_swiss_field(const struct event *ev, int k, bool keep_even, int round, bool *active,
		int *nactive);

/* The draw of round `round` of a Swiss with elimination after k losses (ev->system
 * SYSTEM_SWISS or SYSTEM_MCMAHON). Errors as pairing_round; PAIRING_EOVER when fewer than
 * two are left. */
int elim_swiss_round(const struct event *ev, int k, bool keep_even, int round,
		struct pairing_out *out);

/* The draw of round `round` of a knockout after k losses (ev->system is not read).
 * PAIRING_EOVER when one player (or none) is left, PAIRING_EPENDING, PAIRING_EINVAL (also
 * more than ELIM_KO_MAX_PLAYERS players left), PAIRING_ENOMEM, PAIRING_EMATCH. */
int elim_knockout_round(const struct event *ev, int k, int round, struct pairing_out *out);

#endif
