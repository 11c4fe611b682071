/* ruleset: the rulesets and their lookup. See ruleset.h. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "predict.h"
#include "rules.h"
#include "ruleset.h"

/* ---- Chinese Weiqi Rules 2002 ---- */

/* Art. 2: Black first, White after handicap stones (a handicap of 1 places none). */
static enum color chinese_first_to_move(int handicap)
{
	return handicap >= 2 ? WHITE : BLACK;
}

/* Art. 2: 2-9 stones on the GTP fixed points (board_fixed_handicap); 0 and 1 place none. */
static int chinese_opening(int size, int handicap, int *pts, int stride)
{
	if (handicap < 2)
		return 0;
	return board_fixed_handicap(size, handicap, pts, stride);
}

/* Art. 11: the SGF result of the margin against komi plus the handicap compensation. */
static char *chinese_result_counted(const struct score *s, char *out)
{
	return score_result(score_margin(s), out);
}

static const char *chinese_result_win(enum color winner, enum ruleset_win how)
{
	bool b = winner == BLACK;
	switch (how) {
	case RULESET_WIN_RESIGNATION: return b ? "B+R" : "W+R";
	case RULESET_WIN_TIME: return b ? "B+T" : "W+T";
	default: return b ? "B+F" : "W+F";
	}
}

/* SGF results: "0" (or "Draw"), "Void", "B+" / "W+" followed by nothing, R, T, F or a margin
 * in points (0 < margin < 10000). */
static int chinese_result_parse(const char *r, struct ruleset_result *out)
{
	struct ruleset_result x = { .winner = EMPTY };
	if (!r)
		return -1;
	if (strcmp(r, "0") == 0 || strcmp(r, "Draw") == 0 || strcmp(r, "Void") == 0) {
		x.draw = strcmp(r, "Void") != 0;
		*out = x;
		return 0;
	}
	if ((r[0] != 'B' && r[0] != 'W') || r[1] != '+')
		return -1;
	x.winner = r[0] == 'B' ? BLACK : WHITE;
	const char *t = r + 2;
	if (strcmp(t, "R") == 0 || strcmp(t, "T") == 0 || strcmp(t, "F") == 0) {
		x.decided_by = true;
		x.how = *t == 'R' ? RULESET_WIN_RESIGNATION : *t == 'T' ? RULESET_WIN_TIME
								    : RULESET_WIN_FORFEIT;
	} else if (*t != '\0') {
		char *end;
		double v = strtod(t, &end);
		if (*end != '\0' || !(v > 0 && v < 1e4))
			return -1;
		x.counted = true;
		x.margin = v;
	}
	*out = x;
	return 0;
}

const struct ruleset ruleset_chinese2002 = {
	.name = "chinese-2002",
	.sgf_rules = "Chinese",
	.default_komi = RULES_DEFAULT_KOMI,
	.default_handicap_komi = 0.5,
	.free_opening_stones = 0,
	.bar = RULESET_BAR_KOMI,
	.suicide = RULESET_SUICIDE_ILLEGAL,
	.repetition = RULESET_REPETITION_WARNING,
	.warnings_lose = 2,
	.margin_unit = 0.5,
	.first_to_move = chinese_first_to_move,
	.opening = chinese_opening,
	.effective_komi = score_effective_komi,
	.result_counted = chinese_result_counted,
	.result_spoken = score_result_stones,
	.result_win = chinese_result_win,
	.result_void = "Void",
	.result_parse = chinese_result_parse,
};

/* ---- seed 000: the prediction rules ---- */

/* Art. 2.3, 5.4: White moves first (after the opening). */
static enum color prediction_first_to_move(int handicap)
{
	(void)handicap;
	return WHITE;
}

/* Art. 5.2: the opening is the players' free placement, no fixed stones; no handicap. */
static int prediction_opening(int size, int handicap, int *pts, int stride)
{
	(void)size, (void)pts, (void)stride;
	return handicap == 0 ? 0 : -1;
}

/* The komi of a prediction game is minus the bar (White's terms), set when the predictions
 * are shown; handicaps do not exist. */
static double prediction_effective_komi(double komi, int handicap)
{
	(void)handicap;
	return komi;
}

/* Art. 5.3.2, 5.5: White's surplus against the bar (= -komi); equality a draw (the referee
 * applies `decisive`). */
static char *prediction_result_counted(const struct score *s, char *out)
{
	return predict_result(s->white - s->black, -s->komi, false, out);
}

/* Art. 5.5: the margin as stated, in points of area difference ("W+0.5"). */
static char *prediction_result_spoken(double margin, char *out)
{
	if (margin == 0)
		snprintf(out, 32, "0");
	else
		snprintf(out, 32, "%c+%g", margin > 0 ? 'B' : 'W', margin > 0 ? margin : -margin);
	return out;
}

/* The Chinese texts, and "W+0" / "B+0": a decisive equality (docs/rules.md). */
static int prediction_result_parse(const char *r, struct ruleset_result *out)
{
	if (r && (r[0] == 'W' || r[0] == 'B') && strcmp(r + 1, "+0") == 0) {
		*out = (struct ruleset_result){ .winner = r[0] == 'B' ? BLACK : WHITE,
						.counted = true, .margin = 0 };
		return 0;
	}
	return chinese_result_parse(r, out);
}

const struct ruleset ruleset_prediction = {
	.name = "prediction",
	.sgf_rules = "Prediction",
	.default_komi = 0,
	.default_handicap_komi = 0,
	.free_opening_stones = 4,
	.bar = RULESET_BAR_PREDICTION,
	.suicide = RULESET_SUICIDE_REMOVES_OWN,
	.repetition = RULESET_REPETITION_LOSS,
	.warnings_lose = 2,
	.margin_unit = 0.25, /* Art. 5.3(2): the bar is the mean of two half-point predictions */
	.first_to_move = prediction_first_to_move,
	.opening = prediction_opening,
	.effective_komi = prediction_effective_komi,
	.result_counted = prediction_result_counted,
	.result_spoken = prediction_result_spoken,
	.result_win = chinese_result_win,
	.result_void = "Void",
	.result_parse = prediction_result_parse,
};

/* ---- lookup ---- */

static const struct ruleset *const rulesets[] = { &ruleset_chinese2002, &ruleset_prediction };

const struct ruleset *ruleset_default(void)
{
	return &ruleset_chinese2002;
}

const struct ruleset *ruleset_of_rules(const struct rules *r)
{
	return r && r->ruleset == RULESET_PREDICTION ? &ruleset_prediction : &ruleset_chinese2002;
}

const struct ruleset *ruleset_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof rulesets / sizeof *rulesets; i++)
		if (strcmp(name, rulesets[i]->name) == 0)
			return rulesets[i];
	return NULL;
}

/* ---- results as typed ---- */

int ruleset_result_normalise(const struct ruleset *rs, const char *in, char *out, size_t size,
			     bool *double_loss)
{
	*double_loss = false;
	if (size > 0)
		out[0] = '\0';
	if (!in)
		return -1;
	const char *word = NULL;
	if (strcasecmp(in, "0") == 0 || strcasecmp(in, "jigo") == 0 || strcasecmp(in, "draw") == 0)
		word = "0";
	else if (strcasecmp(in, "void") == 0)
		word = rs->result_void;
	else if (strcasecmp(in, "double_loss") == 0) {
		word = rs->result_void;
		*double_loss = true;
	}
	const char *src = word ? word : in;
	size_t n = strlen(src);
	if (n >= size) {
		*double_loss = false;
		return -1;
	}
	for (size_t i = 0; i <= n; i++) /* SGF results are upper case: "B+R", "W+3.5" */
		out[i] = word ? src[i] : (char)toupper((unsigned char)src[i]);
	return 0;
}

int ruleset_result_check(const struct ruleset *rs, const char *r)
{
	struct ruleset_result x;
	if (rs->result_parse(r, &x) < 0)
		return -1;
	if (!x.counted)
		return 0;
	double units = x.margin / rs->margin_unit;
	if (units != (double)(long)units)
		return -1;
	char want[SCORE_RESULT_MAX];
	snprintf(want, sizeof want, "%c+%g", x.winner == BLACK ? 'B' : 'W', x.margin);
	return strcmp(r, want) == 0 ? 0 : -1;
}

int ruleset_margin_fits(const struct ruleset *rs, const char *r, double komi)
{
	struct ruleset_result x;
	if (rs->bar == RULESET_BAR_PREDICTION || rs->result_parse(r, &x) < 0 ||
	    (!x.counted && !x.draw))
		return 0;
	double rest = (x.counted ? x.margin : 0) - komi; /* a draw: equal areas */
	return rest == floor(rest) ? 0 : -1;
}

double ruleset_margin_max(const struct ruleset *rs, int size, double komi)
{
	/* Black's area less White's is at most the board's points, and a warning moves a point
	 * from one side to the other (Art. 24.1): one short of the warnings that lose, each worth
	 * two points of the difference */
	return (double)size * size + 2.0 * (rs->warnings_lose - 1) + fabs(komi);
}

int ruleset_margin_possible(const struct ruleset *rs, const char *r, int size, double komi)
{
	struct ruleset_result x;
	if (rs->result_parse(r, &x) < 0 || !x.counted)
		return 0;
	return x.margin <= ruleset_margin_max(rs, size, komi) ? 0 : -1;
}

/* ---- records ---- */

const struct ruleset *ruleset_from_sgf(const char *ru, bool *decisive)
{
	const char *p = ruleset_prediction.sgf_rules;
	*decisive = false;
	if (ru && strncmp(ru, p, strlen(p)) == 0) {
		*decisive = strcmp(ru + strlen(p), RULESET_SGF_DECISIVE) == 0;
		return &ruleset_prediction;
	}
	return ruleset_default();
}

int ruleset_sgf_info(const struct ruleset *rs, double komi, int handicap, struct sgf_game *s)
{
	int pts[9];
	s->komi = rs->effective_komi(komi, handicap);
	s->handicap = handicap;
	int rc = sgf_game_set_text(&s->rules, rs->sgf_rules);
	if (rc)
		return rc;
	/* PL only where a reader could not tell: SGF has White move first after setup stones. */
	int stones = rs->opening(s->size, handicap, pts, s->size + 2);
	enum color implied = stones > 0 ? WHITE : BLACK, first = rs->first_to_move(handicap);
	s->first_color = first == implied ? 0 : first == BLACK ? SGF_BLACK : SGF_WHITE;
	return SGF_OK;
}
