/* rules: a game's rule options (docs/rules.md "decided" defaults, each a per-event setting) and
 * their names on the wire. Pure. */
#ifndef TENGEN_RULES_H
#define TENGEN_RULES_H

#include "board.h"

#define RULES_DEFAULT_KOMI 7.5
#define RULES_DEFAULT_SIZE 19

/* What an illegal move costs (docs/rules.md §3): forfeit the turn (Art. 19) or lose at once. */
enum rule_illegal { ILLEGAL_FORFEIT = 0, ILLEGAL_LOSE };
/* Art. 20.3: a repetition other than a simple ko retake is illegal, or voids the game. */
enum rule_cycle { CYCLE_FORBID = 0, CYCLE_VOID };
/* Art. 8: dead stones agreed by both, or every stone alive (Tromp-Taylor). */
enum rule_counting { COUNTING_AGREEMENT = 0, COUNTING_ALL_ALIVE };
/* Art. 22.5: the last byo-yomi period running out loses, or forfeits the turn. */
enum rule_last_period { LAST_PERIOD_LOSE = 0, LAST_PERIOD_PASS };

/* The ruleset a game is played under (docs/protocol.md `rules.ruleset`): the Chinese 2002 rules
 * or seed 000's prediction rules (common/ruleset.h). */
enum rule_ruleset { RULESET_CHINESE = 0, RULESET_PREDICTION };
#define RULES_PREDICT_DEFAULT (-1) /* predict_s: a tenth of the main time, >= RULES_PREDICT_MIN_S */
#define RULES_PREDICT_MIN_S 30     /* seconds: the least default prediction allowance */
#define RULES_PREDICT_MAX_S 86400  /* seconds: the most a `predict_s` may give */

struct rules {
	enum ko_rule ko;
	enum rule_illegal illegal;
	enum rule_cycle cycle;
	enum rule_counting counting;
	enum rule_last_period last_period;
	/* The prediction ruleset's options (seed 000, Art. 5.3); the Chinese ruleset ignores them. */
	enum rule_ruleset ruleset;
	bool decisive;           /* equality with the bar wins for the bar's colour (no draw) */
	int predict_s;           /* the prediction allowance, s; RULES_PREDICT_DEFAULT */
};

/* The defaults: situational superko, forfeit, forbid, agreement, lose; the Chinese ruleset. */
void rules_default(struct rules *r);

/* Names: "situational"/"positional"/"simple", "forfeit"/"lose", "forbid"/"void",
 * "agreement"/"all-alive", "lose"/"pass". Each parse returns 0 or -1 for an unknown name. */
int rules_parse_ko(const char *s, enum ko_rule *out);
int rules_parse_illegal(const char *s, enum rule_illegal *out);
int rules_parse_cycle(const char *s, enum rule_cycle *out);
int rules_parse_counting(const char *s, enum rule_counting *out);
int rules_parse_last_period(const char *s, enum rule_last_period *out);
const char *rules_ko_name(enum ko_rule k);
const char *rules_illegal_name(enum rule_illegal v);
const char *rules_cycle_name(enum rule_cycle v);
const char *rules_counting_name(enum rule_counting v);
const char *rules_last_period_name(enum rule_last_period v);
/* "chinese", "prediction". */
int rules_parse_ruleset(const char *s, enum rule_ruleset *out);
const char *rules_ruleset_name(enum rule_ruleset v);
/* The prediction allowance in ms for a game whose main time is main_ms (0: no clock):
 * r->predict_s if set (with or without a clock: the event's rule, Art. 5.3.3), else a tenth
 * of the main time and at least RULES_PREDICT_MIN_S; else 0 (unlimited) for a game without
 * clock. */
long long rules_predict_ms(const struct rules *r, long long main_ms, bool has_clock);

#endif
