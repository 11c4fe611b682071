/* rules: option names. See rules.h. */
#include <string.h>
#include "rules.h"

void rules_default(struct rules *r)
{
	r->ko = KO_SITUATIONAL;
	r->illegal = ILLEGAL_FORFEIT;
	r->cycle = CYCLE_FORBID;
	r->counting = COUNTING_AGREEMENT;
	r->last_period = LAST_PERIOD_LOSE;
	r->ruleset = RULESET_CHINESE;
	r->decisive = false;
	r->predict_s = RULES_PREDICT_DEFAULT;
}

static int lookup(const char *s, const char *const *names, int n)
{
	for (int i = 0; s && i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

static const char *const ko_names[] = {"situational", "positional", "simple"};
static const char *const illegal_names[] = {"forfeit", "lose"};
static const char *const cycle_names[] = {"forbid", "void"};
static const char *const counting_names[] = {"agreement", "all-alive"};
static const char *const last_period_names[] = {"lose", "pass"};
static const char *const ruleset_names[] = {"chinese", "prediction"};

#define RULES_NAMES(kind, type, table)                                       \
	int rules_parse_##kind(const char *s, type *out)                     \
	{                                                                    \
		int i = lookup(s, table, (int)(sizeof table / sizeof *table)); \
		if (i < 0)                                                   \
			return -1;                                           \
		*out = (type)i;                                              \
		return 0;                                                    \
	}                                                                    \
	const char *rules_##kind##_name(type v)                              \
	{                                                                    \
		return (unsigned)v < sizeof table / sizeof *table ? table[v] : "?"; \
	}

RULES_NAMES(ko, enum ko_rule, ko_names)
RULES_NAMES(illegal, enum rule_illegal, illegal_names)
RULES_NAMES(cycle, enum rule_cycle, cycle_names)
RULES_NAMES(counting, enum rule_counting, counting_names)
RULES_NAMES(last_period, enum rule_last_period, last_period_names)
RULES_NAMES(ruleset, enum rule_ruleset, ruleset_names)

long long rules_predict_ms(const struct rules *r, long long main_ms, bool has_clock)
{
	if (r->predict_s > 0) /* given: it applies (it was accepted and ignored without a clock) */
		return (long long)r->predict_s * 1000;
	if (!has_clock)
		return 0;
	long long t = main_ms / 10;
	return t < RULES_PREDICT_MIN_S * 1000LL ? RULES_PREDICT_MIN_S * 1000LL : t;
}
