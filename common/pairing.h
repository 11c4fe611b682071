/* pairing: the draw of a tournament round (Chinese Weiqi Rules 2002, Art. 26; docs/pairing.md).
 * Pure (no I/O, no clock, no chance unless the event asks for a seeded random draw): the
 * same event state always gives the same pairing.
 *
 * Systems (struct event, common/event.h):
 *   Round robin: Berger tables (FIDE Handbook C.05, Annex 1). Players are numbered 1..k in
 *     seed order (those who withdrew before the start are left out, Art. 28: a redraw); an
 *     odd field adds a dummy k+1 whose opponent has the bye. Double round robin plays the
 *     tables twice, the second cycle with colours reversed, and the first cycle's last two
 *     rounds swapped (C.05: so that nobody has three games of a colour in a row).
 *     A player who withdrew after round w keeps their place: in later rounds their pair is
 *     reported with the absent flag (the server records the forfeit). Results are not
 *     needed: any round can be drawn at any time.
 *   Swiss: a maximum-weight matching over the field (common/match.h), in the manner of
 *     OpenGotha, with the Go order of criteria (docs/pairing.md). Each candidate
 *     pair's weight has ordered terms, each dominating the next:
 *       0. no rematch: pairs that have met are left out; only when no pairing exists
 *          without them are they let in, as a top term (the fewest rematches);
 *       1. completability (not a weight): a round is not paired so that the rounds left
 *          (rounds_planned) cannot be paired without a rematch, where another pairing of the
 *          round leaves them possible. Checked after the matching: by Dirac's bound (every
 *          player has at least half the field plus the rounds left unmet), else by a bounded
 *          search for that many disjoint pairings of the unmet pairs; if it fails, the
 *          round's next-best pairings are tried in order of weight (Murty's ranking);
 *       2. score difference: the round's sum of |score difference| (half wins, capped at
 *          127) is minimal: this term outweighs every lower term of the whole round, so
 *          score groups are kept together whenever possible, and the leaders who have not
 *          met are paired together in the last rounds;
 *       3. spread: min(d, 63)^2 per pair, so several small differences beat a large one;
 *       4. float history: a player floated down (up) last round is not floated down (up)
 *          again where avoidable (6 points each, 1 for the round before);
 *       5. seeding within a score group (event.seeding): split and fold (1 v g, 2 v g-1),
 *          slip (1 v g/2+1) or random (seeded); cost min(deviation, 63)^2; a pair across
 *          groups prefers the bottom of the upper group against the top of the lower;
 *       6. colour, soft and last (komi evens it): two players due the same colour cost the
 *          weaker claim (1 alternation, 2 a balance of 1, 3 a balance of 2 or more); the
 *          claim also weighs inside the seeding term, as a deviation of 2, 4 or 8 places.
 *     Terms 3-5 dominate per pair. Colour balance counts played even games only: forfeits
 *     and handicap games are left out. Colours: the due colour (the one that evens the
 *     balance; an even balance: the other colour than in the last even game); both due the
 *     same colour: the larger imbalance, then the better seed, gets it; no history (round 1):
 *     the better seed takes White on the top board, and the boards alternate. In a handicap
 *     game the weaker player takes Black.
 *     The bye of an odd field goes to the lowest-placed player (score, then seed) of those
 *     with the fewest byes (nobody has two while another has none) whose bye leaves the
 *     others pairable without a rematch and the rounds after completable, as the EGF and
 *     OpenGotha choose it before the pairing; then the next place up. It is the matching's
 *     dummy player at the field's lowest score, open to that player only. Where no such
 *     player is left (rematches forced), the dummy is open to all of the fewest byes and
 *     the matching places it with the rest.
 *     Withdrawn players are not paired after their last round.
 *     Speed: a field of more than 97 players is matched on candidate pairs: each
 *     player's 48 nearest allowed opponents above and below in the placing order, around
 *     the ideal opponent in the group, and around the same relative place in the two
 *     nearest score groups either way; the window grows (x4, up to every pair) while no
 *     full pairing is found. The windowed solution is then checked against every pair of
 *     the field by its dual certificate (match_dual_slack): pairs that would improve it
 *     are added and the graph solved again (at most 8 times, then every pair is used), so
 *     every round is the optimum over the whole field (event.full_graph forces every pair:
 *     the reference for tests). Measured: 1,000 players about 0.05-0.1 s a round, 4,000 about
 *     0.5-2 s (tests/bench/pair_bench; docs/benchmarks.md).
 *   McMahon: as Swiss on the McMahon score: MMS = start (pairing_mms_start) + wins + 1/2
 *     draws + event.mms_bye per bye + event.mms_absent per round absent (before any
 *     withdrawal). MMS is kept in half points (mms_bye and mms_absent are rounded to the
 *     nearest half). Handicap option (event.handicap): pairing_handicap on the rank (or MMS,
 *     event.handicap_by_mms) difference; in a handicap game the weaker player takes Black.
 *   Knockout: a seeded bracket in standard order (1 v P, 2 v P-1, ... for a bracket of
 *     P = 2^ceil(log2 k) places, 1 and 2 in opposite halves, so they can only meet in the
 *     final); places beyond k are byes, which fall to the top seeds. Round t+1 pairs the
 *     winners of round t; a double loss sends neither on (the next opponent has a bye).
 *     Double elimination (event.double_elimination): players with no loss play on in the
 *     bracket; players with one loss are paired among themselves each round (seed order,
 *     1st v last; the bye, for an odd count, to the best seed with the fewest byes); a
 *     player is out after two losses. The last unbeaten player meets the last one-loss
 *     player in the grand final; if the unbeaten one loses, the two meet again. A player
 *     waiting for the other bracket is listed as a bye (no game, no points in knockout).
 *     A knockout game needs a decisive result (a draw or void game is replayed).
 *
 * Points (Art. 27.1): win 2, draw 1, loss 0 (a forfeit win is a win); a bye scores
 * event.bye_points. Colour balance counts played games only (not forfeits).
 *
 * Errors: functions return PAIRING_OK (0) or a negative enum pairing_err; on an error the
 * output is unchanged.
 */
#ifndef TENGEN_PAIRING_H
#define TENGEN_PAIRING_H

#include <stdbool.h>
#include "event.h"

#define PAIRING_MAX_PAIRS (EVENT_MAX_PLAYERS / 2)
/* Handicap stones at most (Art. 2; event.handicap_max is 0..this). */
#define PAIRING_HANDICAP_CAP 9
/* Accepted mms_bye / mms_absent: 0..this (points). */
#define PAIRING_MMS_ADD_MAX 2.0

enum pairing_err {
	PAIRING_OK = 0,
	PAIRING_EINVAL = -1,   /* a bad argument or event (sizes, indices, options) */
	PAIRING_EOVER = -2,    /* the event is over: all rounds played, or a knockout winner */
	PAIRING_EPENDING = -3, /* a game of an earlier round has no (knockout: decisive) result */
	PAIRING_EHISTORY = -4, /* knockout: an earlier round's game is missing from the bracket */
	PAIRING_ENOMEM = -5,
	PAIRING_EMATCH = -6,   /* the matcher failed (out of range; not expected) */
};

enum pairing_bracket {
	PAIRING_BRACKET_MAIN = 0, /* every system but double elimination; the winners' bracket */
	PAIRING_BRACKET_LOSERS,   /* double elimination: players with one loss */
	PAIRING_BRACKET_FINAL     /* double elimination: the grand final (and its replay) */
};

/* One game of the round. */
struct pairing_pair {
	int black, white;          /* player indices (into event.players) */
	int handicap;              /* stones, 0 for an even game; 1: no stones placed, Black
				      moves first with the handicap komi (McMahon handicap) */
	int handicap_wanted;       /* what the rank (or MMS) difference asks for, before any cap
				      (event.handicap_max, PAIRING_HANDICAP_CAP): may be over 9 */
	bool black_absent, white_absent; /* withdrawn: report only, the server records forfeits */
	enum pairing_bracket bracket;
};

/* What a Swiss/McMahon round's draw cost, summed over its pairs (0 for other systems):
 * the terms of the matching's weight, so that draws can be compared (tests, pair_bench). */
struct pairing_quality {
	long rematches;
	long cross_group;    /* pairs of players of different scores */
	long score_diff;     /* sum of |score difference| over the pairs, half wins (MMS: half
				points; Swiss: game points) */
	long bye_score_diff; /* the bye's player's score above the field's lowest, half wins */
	long score_sq;       /* the spread term: sum of squared differences (each capped at 63
				half wins), bye included */
	long floats, seeding, colour; /* the lower terms' costs */
};

/* A round's draw. pairs are in board order (the best-placed pair first). */
struct pairing_out {
	int round;
	struct pairing_quality quality;
	int npairs;
	struct pairing_pair pairs[PAIRING_MAX_PAIRS];
	int nbyes;
	int byes[EVENT_MAX_PLAYERS]; /* players with a bye (knockout: who go on without a game) */
};

/* The draw of round `round` (1..EVENT_MAX_ROUNDS) of ev, from the games and byes of the
 * rounds before it (later ones are ignored; a round robin reads neither). Errors: PAIRING_EINVAL (bad event, round,
 * options), PAIRING_EOVER (round robin past its last round, Swiss/McMahon past
 * rounds_planned when that is > 0, knockout decided; also a field of fewer than two),
 * PAIRING_EPENDING, PAIRING_EHISTORY, PAIRING_ENOMEM, PAIRING_EMATCH. */
int pairing_round(const struct event *ev, int round, struct pairing_out *out);

/* Berger table (FIDE C.05 Annex 1) for n players (2..EVENT_MAX_PLAYERS; odd n uses the
 * table of n+1 with n+1 as the bye): round `round` (1..pairing_berger_rounds(n)) into
 * boards[b][0] (White) and boards[b][1] (Black), players numbered 1..n (n+1 = bye), board 1
 * first. Returns the number of boards ((n+1)/2), or PAIRING_EINVAL. */
int pairing_berger(int n, int round, int boards[][2]);

/* Rounds of a single round robin of n players: n-1 (even n), n (odd n); PAIRING_EINVAL for n
 * out of 2..EVENT_MAX_PLAYERS. */
int pairing_berger_rounds(int n);

/* Round `round` of a double round robin of n players as a Berger round: *berger_round and
 * whether the colours are reversed (second cycle). PAIRING_EINVAL out of range. */
int pairing_double_rr_round(int n, int round, int *berger_round, bool *reversed);

/* Starting McMahon score of a player of rank `rank` (rating.h's scale, higher = stronger):
 * clamp(rank, floor, bar) - floor, so every player at or above the bar starts at bar - floor
 * and every player at or below the floor at 0. PAIRING_EINVAL if bar < floor or either is
 * outside RANK_MIN..RANK_MAX. */
int pairing_mms_start(int rank, int bar, int floor, int *mms);

/* Handicap stones for a difference of `difference` ranks (or MMS points) between two
 * players, the weaker of rank weaker_rank: max(0, difference - correction), at most
 * max_stones (0..PAIRING_HANDICAP_CAP); 0 if weaker_rank > none_above. Returns the stones,
 * or PAIRING_EINVAL for a bad max_stones. */
int pairing_handicap(int difference, int weaker_rank, int correction, int max_stones,
		int none_above);

/* The handicap the draw would give players a and b in round `round` (McMahon with
 * event.handicap; 0 otherwise): pairing_handicap on the rank or MMS difference, at most
 * event.handicap_max (docs/pairing.md, Handicap). *weaker: the one who takes Black, -1 when
 * level. Returns the stones, or PAIRING_EINVAL, PAIRING_EPENDING as pairing_round. */
int pairing_pair_handicap(const struct event *ev, int round, int a, int b, int *weaker);

/* A player's score before round `round` (as the pairing sees it): Swiss game points, McMahon
 * MMS; other systems: game points. PAIRING_EINVAL, PAIRING_EPENDING as pairing_round. */
int pairing_score(const struct event *ev, int round, int player, double *score);

/* Standard bracket order of `size` places (a power of two, 1..EVENT_MAX_PLAYERS):
 * order[i] is the seed (1-based) on place i; places 2i and 2i+1 meet in round 1.
 * PAIRING_EINVAL for another size. */
int pairing_bracket_order(int size, int *order);

/* A short English text for an enum pairing_err value. */
const char *pairing_strerror(int err);

#endif
