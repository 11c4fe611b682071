/* score: area counting (Chinese Rules 2002, Art. 9, 11, 24.1) and results. Pure. */
#ifndef TENGEN_SCORE_H
#define TENGEN_SCORE_H

#include <stdbool.h>
#include "board.h"

#define SCORE_RESULT_MAX 16 /* "B+999.5", "W+R", "Void", "0" fit */

/* A counted game, in points (1 stone = 2 points of margin). */
struct score {
	double black;  /* Black's area: living stones + surrounded empty points + half of shared */
	double white;  /* White's area, likewise */
	double komi;   /* komi plus handicap compensation, in points, given to White */
};

/* Chinese compensation for a handicap game (Art. 11 practice): Black gives back half a stone,
 * one point, per handicap stone. 0 for handicap < 2. */
double score_handicap_compensation(int handicap);

/* The komi in force in a game with `komi` points and `handicap` (0, 1 or 2-9 stones): komi +
 * score_handicap_compensation(handicap), in points, given to White. The one komi a game is
 * counted with, written as the SGF's KM and told to engines (GTP `komi`), so that any reader of
 * the record (GNU Go's loadsgf ignores HA for the count, `tengen score`) and any engine play for
 * and count the same target (docs/rules.md, Art. 11). */
double score_effective_komi(double komi, int handicap);

/* Mark the chains of the claimed stones dead: for each point in pts[0..n-1] (a stone; any
 * stone marks its whole chain) set dead[pt] = true for every stone of its chain. `dead` has
 * BOARD_POINTS_MAX entries and is cleared first. Returns 0, or the 1-based index of the first
 * point that is empty or off the board (then `dead` is left cleared). */
int score_mark_dead(const struct board *b, const int *pts, int n, bool *dead);

/* Area count of `b` with `dead` stones (BOARD_POINTS_MAX flags; NULL: all stones alive, the
 * Tromp-Taylor count). Dead stones count as territory of the side that surrounds them. An
 * empty region bordered by living stones of one colour only is that colour's; one bordered by
 * both is shared, half a point a point to each; one bordered by neither counts for nobody.
 * warnings[BLACK] / warnings[WHITE]: each warning moves one point from the warned side to the
 * other (one stone, 2 points of margin; Art. 24.1). komi is in points; out->komi is
 * score_effective_komi(komi, handicap). */
void score_area(const struct board *b, const bool *dead, double komi, int handicap,
		const int warnings[3], struct score *out);

/* The same count with the komi in force given directly (points to White: the ruleset's
 * effective komi, ruleset.h): out->komi is `effective_komi`. score_area(..., komi, handicap,
 * ...) is this with score_effective_komi(komi, handicap). */
void score_area_komi(const struct board *b, const bool *dead, double effective_komi,
		     const int warnings[3], struct score *out);

/* Who each point of `b` counts for at an area count with `dead` stones (as score_area: NULL,
 * all alive): owner[p] (BOARD_POINTS_MAX entries) is BLACK or WHITE for an empty point or a
 * dead stone in a region bordered by living stones of that colour only (its territory, SGF
 * FF4 TB/TW: dead stones are listed in the territory of the side that surrounds them), EMPTY
 * for every other point (living stones, regions bordered by both colours or by neither). */
void score_territory(const struct board *b, const bool *dead, unsigned char *owner);

/* Black's margin, black - white - komi, in points. */
double score_margin(const struct score *s);

/* SGF result for a margin in points: "B+0.5", "W+3", "0". out[SCORE_RESULT_MAX]. */
char *score_result(double margin, char *out);
/* The margin in stones as Chinese players say it: "B+¼", "W+3¾", "0" (UTF-8). out[32]. */
char *score_result_stones(double margin, char *out);

#endif
