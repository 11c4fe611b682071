/* predict: the prediction stage of seed 000's rules (Art. 5.3; docs/rules.md "Prediction
 * rules"). Pure.
 *
 * Each player seals "colour X ahead by N": the area difference at the end, in points (White's
 * area minus Black's, or the reverse), N >= 0 in steps of PREDICT_STEP. Once both are in: the
 * player whose prediction is higher in White's terms takes White (equal: the first player);
 * the bar is their mean in White's terms; White wins when White's actual surplus beats the
 * bar, Black when it falls short, equality is a draw unless the event asks for a decisive
 * result (then the colour the bar is stated in wins). Example 1 of the seed: W+7 and W+6 ->
 * bar W+6.5; Example 2: W+7 and B+6 -> bar W+0.5; Example 4: bar W+6.5, White ahead by 7 ->
 * "W+0.5".
 */
#ifndef TENGEN_PREDICT_H
#define TENGEN_PREDICT_H

#include <stdbool.h>
#include "board.h"

#define PREDICT_STEP 0.5        /* points: a margin is a multiple of this */
#define PREDICT_TEXT_MAX 24     /* "W+625.5", "B+0.25": a prediction or bar as text */

/* The two players of the prediction rules, named by who places the first stone (Art. 5.1). */
enum predict_role { PREDICT_FIRST = 0, PREDICT_SECOND = 1 };

/* A prediction or a bar as stated: `color` (BLACK or WHITE) ahead by `margin` points (>= 0). */
struct predict_value {
	enum color color;
	double margin;
};

/* Is `margin` a margin a player may predict on a board of `size`: 0 <= margin <= size * size
 * (no larger difference can occur) and a multiple of PREDICT_STEP? */
bool predict_margin_ok(double margin, int size);

/* The value in White's terms: +margin for White, -margin for Black. */
double predict_white(const struct predict_value *v);

/* The statement of a surplus in White's terms: {WHITE, w} when w >= 0, else {BLACK, -w}
 * (docs/protocol.md: a bar is stated in White's colour when it is 0). */
struct predict_value predict_stated(double white);

/* The outcome of the stage from the predictions of the first and second player (White's
 * terms): which role takes White (Art. 5.3.1: the higher; equal: the first player) and the
 * bar, their mean in White's terms (Art. 5.3.2). */
void predict_decide(double first_white, double second_white, enum predict_role *white_role,
		    double *bar_white);

/* The SGF result of a count (Art. 5.3.2, 5.5): White's surplus `surplus` (White's area minus
 * Black's, warnings applied, points) against `bar_white`: "W+0.5", "B+3.25", "0" for equality,
 * or with `decisive` the colour the bar is stated in winning by "W+0" / "B+0". out[16].
 * Returns out. */
char *predict_result(double surplus, double bar_white, bool decisive, char *out);

/* Text "W+7", "B+6.5" (the prediction form, `tengen predict GAME W+7`) of v. out[PREDICT_TEXT_MAX]. */
char *predict_format(const struct predict_value *v, char *out);
/* Read "W+7", "B+6.5" (case-insensitive colour; "W+0"). Returns 0, or -1 if the text is no such
 * statement. The margin is not checked against a board (predict_margin_ok). */
int predict_parse(const char *s, struct predict_value *out);

#endif
