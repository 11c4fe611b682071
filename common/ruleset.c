/* ruleset: the rulesets and their lookup. See ruleset.h. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
	.first_to_move = chinese_first_to_move,
	.opening = chinese_opening,
	.effective_komi = score_effective_komi,
	.result_counted = chinese_result_counted,
	.result_spoken = score_result_stones,
	.result_win = chinese_result_win,
	.result_void = "Void",
	.result_parse = chinese_result_parse,
};

/* ---- lookup ---- */

static const struct ruleset *const rulesets[] = { &ruleset_chinese2002 };

const struct ruleset *ruleset_default(void)
{
	return &ruleset_chinese2002;
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

/* ---- records ---- */

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
