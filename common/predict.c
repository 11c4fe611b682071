/* predict: the prediction stage. See predict.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "predict.h"

bool predict_margin_ok(double margin, int size)
{
	if (!(margin >= 0) || margin > (double)size * size)
		return false;
	double steps = margin / PREDICT_STEP;
	return steps == floor(steps);
}

double predict_white(const struct predict_value *v)
{
	return v->color == BLACK ? -v->margin : v->margin;
}

struct predict_value predict_stated(double white)
{
	struct predict_value v = { white >= 0 ? WHITE : BLACK, fabs(white) };
	return v;
}

void predict_decide(double first_white, double second_white, enum predict_role *white_role,
		    double *bar_white)
{
	*white_role = second_white > first_white ? PREDICT_SECOND : PREDICT_FIRST;
	*bar_white = (first_white + second_white) / 2;
}

/* "%g" prints the quarters and halves the margins here have exactly ("0.25", "6.5", "183"). */
static void put_margin(char *out, size_t size, char col, double m)
{
	snprintf(out, size, "%c+%g", col, m);
}

char *predict_result(double surplus, double bar_white, bool decisive, char *out)
{
	double d = surplus - bar_white;
	if (d > 0)
		put_margin(out, 16, 'W', d);
	else if (d < 0)
		put_margin(out, 16, 'B', -d);
	else if (decisive)
		put_margin(out, 16, bar_white >= 0 ? 'W' : 'B', 0);
	else
		snprintf(out, 16, "0");
	return out;
}

char *predict_format(const struct predict_value *v, char *out)
{
	put_margin(out, PREDICT_TEXT_MAX, v->color == BLACK ? 'B' : 'W', v->margin);
	return out;
}

int predict_parse(const char *s, struct predict_value *out)
{
	if (!s || (s[0] != 'W' && s[0] != 'w' && s[0] != 'B' && s[0] != 'b') || s[1] != '+' ||
	    s[2] < '0' || s[2] > '9')
		return -1;
	char *end;
	double m = strtod(s + 2, &end);
	if (*end != '\0' || !(m >= 0 && m < 1e6))
		return -1;
	out->color = s[0] == 'B' || s[0] == 'b' ? BLACK : WHITE;
	out->margin = m;
	return 0;
}
