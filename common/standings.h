/* standings: a tournament's standings and tie-breaks, computed from the results of a
 * struct event (common/event.h). Pure: no I/O. Rules: Chinese Weiqi Rules 2002, Art. 27
 * (points, order) and Art. 28 (withdrawals); docs/rules.md §4. The treatment of byes, forfeits,
 * unplayed rounds, double losses, void games and withdrawals is documented, with worked
 * examples, in docs/tiebreaks.md.
 *
 * Points (Art. 27.1): a win (also a forfeit win) 2, a draw 1, a loss (also a forfeit loss
 * and a double loss) 0, a bye ev->bye_points (0..2; 2 scores it as a win), a round without a
 * game or bye (absent, entered late; before any withdrawal) ev->absent_points (0..bye_points).
 *
 * The main score orders the table first: points (round robin, Swiss), the McMahon score MMS
 * (McMahon), rounds survived KO (knockout). Tie-breaks follow in the order the caller gives,
 * by name (case-insensitive):
 *   PTS    points.
 *   MMS    McMahon score: start MMS (standings_mms_start) + wins (forfeit wins included)
 *          + 1/2 per draw + ev->mms_bye per bye + ev->mms_absent per round without a game or
 *          bye (rounds after a withdrawal excluded).
 *   KO     rounds survived (knockout): eliminated in round r (the loss that makes 1 loss, or 2
 *          with double elimination, or ev->elimination_losses when it is > 0; a withdrawal after round k eliminates in round k+1) gives
 *          r - 1; not eliminated gives the rounds counted.
 *   SOS    sum of the opponents' scores (points; MMS in McMahon).
 *   SOS-1  SOS without the lowest opponent's score (EGF; chess: Buchholz cut 1).
 *   SOS-2  SOS without the two lowest.
 *   MOS    median SOS: SOS without the highest and the lowest opponent's score.
 *          (SOS-1, SOS-2, MOS: one value per round counted, the virtual opponent's for an
 *          unplayed round; fewer rounds than values dropped give 0.)
 *   CUSS   cumulative sum of scores: the player's score (points; MMS in McMahon) after
 *          round 1, plus after round 2, ..., after the last round counted (EGF ROS/CUSS;
 *          OpenGotha CUSSW/CUSSM).
 *   SOSOS  sum of the opponents' SOS.
 *   SODOS  (alias SB, Sonneborn-Berger, Art. 27.1 (1)) the scores of the opponents beaten plus
 *          half the scores of the opponents drawn.
 *   DE     direct encounter: the points (2/1/0) a player scored in games against the players
 *          tied with it on the main score and on every criterion listed before DE.
 *   WARN   (alias WARNINGS) warnings received; fewer is better.
 *   SEED   the seed; lower is better.
 * All others: higher is better. Unplayed rounds (bye, forfeit, absence, void, unfinished):
 * a "virtual opponent" frozen at the player's own start score (0; start MMS in McMahon)
 * stands in for SOS, SOS-1, SOS-2, MOS and SOSOS and counts nothing for SODOS and DE
 * (docs/tiebreaks.md).
 *
 * Errors: functions returning int give >= 0 on success or a negative enum standings_err;
 * on an error nothing is written.
 */
#ifndef TENGEN_STANDINGS_H
#define TENGEN_STANDINGS_H

#include <stdbool.h>

#include "event.h"

/* Tie-breaks one standings_compute call accepts. */
#define STANDINGS_MAX_TIEBREAKS 8
/* Bounds of an accepted event. */
#define STANDINGS_MAX_GAMES (EVENT_MAX_PLAYERS * EVENT_MAX_ROUNDS)
#define STANDINGS_MAX_BYES (EVENT_MAX_PLAYERS * EVENT_MAX_ROUNDS)
#define STANDINGS_HANDICAP_MAX 9        /* stones in one game */
#define STANDINGS_GAME_WARNINGS_MAX 10  /* warnings to one player in one game */
#define STANDINGS_BYE_POINTS_MAX 2      /* a bye scores 0..2 points */
#define STANDINGS_MMS_CREDIT_MAX 2.0    /* mms_bye and mms_absent: 0..2 (as pairing.h) */
/* Start MMS = clamp(rank, floor, bar) + this, so 30k starts at 0 (OpenGotha's convention). */
#define STANDINGS_MMS_OFFSET 30
/* Game points (Art. 27.1). */
#define STANDINGS_WIN_POINTS 2
#define STANDINGS_DRAW_POINTS 1

enum standings_err {
	STANDINGS_OK = 0,
	STANDINGS_EINVAL = -1,   /* a NULL or out-of-range argument, or an inconsistent event */
	STANDINGS_ENOMEM = -2,   /* out of memory */
	STANDINGS_EUNKNOWN = -3, /* an unknown tie-break name */
};

/* Tie-break criteria (the values standings_tiebreak_parse returns). */
enum standings_tiebreak {
	TIEBREAK_PTS = 0,
	TIEBREAK_MMS,
	TIEBREAK_KO,
	TIEBREAK_SOS,
	TIEBREAK_SOSOS,
	TIEBREAK_SODOS,
	TIEBREAK_DE,
	TIEBREAK_WARN,
	TIEBREAK_SEED,
	TIEBREAK_SOS1,
	TIEBREAK_SOS2,
	TIEBREAK_MOS,
	TIEBREAK_CUSS,
	TIEBREAK_COUNT
};

/* One row of the standings. */
struct standing {
	int player;      /* index into ev->players */
	int place;       /* 1-based; players equal on the main score and every tie-break share
	                    the place (1, 1, 3, ...) */
	double score;    /* main score: points, MMS (McMahon) or KO (knockout) */
	int points;      /* game points (2/1/0, byes ev->bye_points) */
	int wins, draws, losses; /* games, forfeits and double losses included */
	int byes;
	int warnings;
	int ntiebreaks;
	double tiebreak[STANDINGS_MAX_TIEBREAKS]; /* values in the order requested */
};

/* The criterion named `name` (see above; "SB" = SODOS, "WARNINGS" = WARN;
 * case-insensitive): an enum standings_tiebreak, or STANDINGS_EUNKNOWN (NULL included). */
int standings_tiebreak_parse(const char *name);

/* The canonical name of a criterion ("SODOS"), or NULL for a value out of range. */
const char *standings_tiebreak_name(int tiebreak);

/* The name of a system's main score: "PTS", "MMS" (McMahon) or "KO" (knockout); NULL for
 * an unknown system. */
const char *standings_score_name(enum event_system system);

/* A system's default tie-breaks (Art. 27.1): round robin SODOS, WARN; Swiss SOS, WARN;
 * McMahon SOS, SOSOS; knockout SEED. Sets *names to a static array and returns its length,
 * or STANDINGS_EINVAL for an unknown system or NULL names. */
int standings_default_tiebreaks(enum event_system system, const char *const **names);

/* Checks an event: counts within the limits above, arrays present, player indices in
 * range, a game's players distinct, rounds 1..EVENT_MAX_ROUNDS, ranks RANK_MIN..RANK_MAX,
 * results, handicaps and warnings in range, bye_points 0..2, mms_bye and mms_absent finite
 * in 0..2, RANK_MIN <= mcmahon_floor <= mcmahon_bar <= RANK_MAX (checked for every system:
 * MMS is a criterion anywhere), and no player with two games (void games aside) or a game
 * and a bye in one round. STANDINGS_OK, STANDINGS_EINVAL or STANDINGS_ENOMEM. */
int standings_validate(const struct event *ev);

/* A player's start MMS (McMahon): clamp(rank, mcmahon_floor, mcmahon_bar) +
 * STANDINGS_MMS_OFFSET. No checks: ev and player must be valid. */
int standings_mms_start(const struct event *ev, int player);

/* The standings after round `after_round` (1..ev->rounds_played; 0 = ev->rounds_played):
 * games and byes of later rounds are left out. `tiebreaks` names ntb criteria (0..
 * STANDINGS_MAX_TIEBREAKS) in order; NULL selects the system's default (ntb ignored).
 * Rows are sorted by the main score, then each tie-break, then seed, then player index.
 * Players withdrawn before the start have no row (Art. 28: redraw) and their games count
 * as void. out must have room for ev->nplayers rows. Returns the number of rows, or
 * STANDINGS_EINVAL (bad event, after_round, ntb), STANDINGS_EUNKNOWN (a name),
 * STANDINGS_ENOMEM. */
int standings_compute(const struct event *ev, int after_round, const char *const *tiebreaks,
		int ntb, struct standing *out);

/* Applies Art. 28 to the games of withdrawn players, in place:
 *   - a player withdrawn before the start: all its games become RESULT_VOID;
 *   - round robin (single, double), a player withdrawn after round k who has fewer than half
 *     its scheduled games (players in the event - 1, twice that for a double round robin)
 *     with a result (anything but RESULT_NONE, void and forfeits included) in rounds 1..k:
 *     all its games become RESULT_VOID, for both players;
 *   - every system otherwise: results stand; a game still RESULT_NONE in a round after the
 *     player's withdrawal becomes a forfeit loss for it (RESULT_DOUBLE_LOSS when both
 *     players had withdrawn before that round).
 * Idempotent. Returns the number of games changed, or STANDINGS_EINVAL (the event is
 * invalid; nothing changed) or STANDINGS_ENOMEM. */
int standings_apply_withdrawals(struct event *ev);

/* A short English text for an enum standings_err value. */
const char *standings_strerror(int err);

#endif
