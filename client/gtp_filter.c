/* client/gtp_filter: which challenges the bridge accepts: what the engine can play (the board
 * sizes it took in the probe's `boardsize N` dry run) and the operator's filters, as gtp2ogs
 * offers them (board sizes, time systems and limits, handicap, rated or not, ruleset,
 * opponents). See gtp.h. Pure: no I/O. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gtp.h"

static const char *const time_systems[] = {"none", "absolute", "byoyomi", "canadian", "fischer"};
#define NSYSTEMS (sizeof time_systems / sizeof time_systems[0])

void gtp_filter_init(struct gtp_filter *f)
{
	memset(f, 0, sizeof *f);
	f->sizes = GTP_SIZES_ALL;
	f->systems = (1u << NSYSTEMS) - 1;
	f->max_handicap = GTP_HANDICAP_MAX;
	f->main_s[1] = f->period_s[1] = GTP_SECONDS_MAX;
}

/* A number or a range: "9", "9-19". 0, or -1. */
static int parse_range(const char *s, double *lo, double *hi)
{
	char *end;
	errno = 0;
	*lo = strtod(s, &end);
	if (errno || end == s || *lo < 0)
		return -1;
	if (*end == '\0') {
		*hi = *lo;
		return 0;
	}
	if (*end != '-')
		return -1;
	const char *p = end + 1;
	*hi = strtod(p, &end);
	if (errno || end == p || *end || *hi < *lo)
		return -1;
	return 0;
}

int gtp_filter_sizes(struct gtp_filter *f, const char *spec)
{
	uint32_t bits = 0;
	char buf[128];
	if (strlen(spec) >= sizeof buf)
		return -1;
	strcpy(buf, spec);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		double lo, hi;
		if (parse_range(t, &lo, &hi) < 0 || lo < GTP_SIZE_MIN || hi > GTP_SIZE_MAX ||
		    lo != (int)lo || hi != (int)hi)
			return -1;
		for (int n = (int)lo; n <= (int)hi; n++)
			bits |= 1u << n;
	}
	if (!bits)
		return -1;
	f->sizes = bits;
	return 0;
}

int gtp_filter_systems(struct gtp_filter *f, const char *spec)
{
	unsigned bits = 0;
	char buf[128];
	if (strlen(spec) >= sizeof buf)
		return -1;
	strcpy(buf, spec);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t k = 0;
		while (k < NSYSTEMS && strcmp(time_systems[k], t) != 0)
			k++;
		if (k == NSYSTEMS)
			return -1;
		bits |= 1u << k;
	}
	if (!bits)
		return -1;
	f->systems = bits;
	return 0;
}

int gtp_filter_seconds(double out[2], const char *spec)
{
	double lo, hi;
	if (parse_range(spec, &lo, &hi) < 0 || hi > GTP_SECONDS_MAX)
		return -1;
	out[0] = lo;
	out[1] = hi;
	return 0;
}

int gtp_filter_names(const char **names, int *n, char *spec)
{
	*n = 0;
	for (char *save = NULL, *t = strtok_r(spec, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (*n >= GTP_ACCEPT_NAMES_MAX)
			return -1;
		names[(*n)++] = t;
	}
	return *n > 0 ? 0 : -1;
}

static bool listed(const char *const *names, int n, const char *name)
{
	for (int k = 0; k < n; k++)
		if (strcasecmp(names[k], name) == 0)
			return true;
	return false;
}

/* The time a move gets once the main time is gone, seconds: a byo-yomi period, a Canadian
 * block's share per stone, a Fischer increment; 0 for none and absolute. */
static double period_of(const char *sys, const json_t *t)
{
	double period = json_number_value(json_object_get(t, "period_s"));
	if (strcmp(sys, "byoyomi") == 0)
		return period;
	if (strcmp(sys, "canadian") == 0) {
		double stones = json_number_value(json_object_get(t, "stones"));
		return stones > 0 ? period / stones : period;
	}
	if (strcmp(sys, "fischer") == 0)
		return json_number_value(json_object_get(t, "increment_s"));
	return 0;
}

bool gtp_filter_allows(const struct gtp_filter *f, uint32_t engine_sizes, const json_t *settings,
		       const char *from, char *why, size_t n)
{
	int size = (int)json_integer_value(json_object_get(settings, "size"));
	int handicap = (int)json_integer_value(json_object_get(settings, "handicap"));
	bool rated = json_is_true(json_object_get(settings, "rated"));
	const json_t *t = json_object_get(settings, "time");
	const char *sys = json_string_value(json_object_get(t, "system"));
	const json_t *rules = json_object_get(settings, "rules");
	const char *ruleset = json_string_value(json_object_get(rules, "ruleset"));
	if (!sys)
		sys = "none";
	if (!ruleset)
		ruleset = GTP_DEFAULT_RULESET;
	size_t k = 0;
	while (k < NSYSTEMS && strcmp(time_systems[k], sys) != 0)
		k++;
	if (listed(f->reject, f->nreject, from))
		snprintf(why, n, "%s is on --reject", from);
	else if (size < GTP_SIZE_MIN || size > GTP_SIZE_MAX || !(engine_sizes & (1u << size)))
		snprintf(why, n, "the engine refuses boardsize %d", size);
	else if (!(f->sizes & (1u << size)))
		snprintf(why, n, "%dx%d is not in --sizes", size, size);
	else if (handicap > f->max_handicap)
		snprintf(why, n, "handicap %d is over --max-handicap %d", handicap, f->max_handicap);
	else if (f->rated > 0 && !rated)
		snprintf(why, n, "not rated (--rated only)");
	else if (f->rated < 0 && rated)
		snprintf(why, n, "rated (--rated no)");
	else if (k == NSYSTEMS || !(f->systems & (1u << k)))
		snprintf(why, n, "time system %s is not in --time-systems", sys);
	else if (strcmp(sys, "none") != 0 &&
		 (json_number_value(json_object_get(t, "main_s")) < f->main_s[0] ||
		  json_number_value(json_object_get(t, "main_s")) > f->main_s[1]))
		snprintf(why, n, "main time %gs is outside --main-time %g-%g",
			 json_number_value(json_object_get(t, "main_s")), f->main_s[0], f->main_s[1]);
	else if (strcmp(sys, "none") != 0 && strcmp(sys, "absolute") != 0 &&
		 (period_of(sys, t) < f->period_s[0] || period_of(sys, t) > f->period_s[1]))
		snprintf(why, n, "%gs a move after the main time is outside --period-time %g-%g",
			 period_of(sys, t), f->period_s[0], f->period_s[1]);
	else if (f->nrulesets > 0 && !listed(f->rulesets, f->nrulesets, ruleset))
		snprintf(why, n, "ruleset %s is not in --rulesets", ruleset);
	else
		return true;
	return false;
}

void gtp_caps_from_list(struct gtp_caps *c, const char *list_commands)
{
	static const struct {
		const char *name;
		size_t off;
	} known[] = {
		{"kgs-time_settings", offsetof(struct gtp_caps, kgs_time)},
		{"kata-time_settings", offsetof(struct gtp_caps, kata_time)},
		{"kgs-genmove_cleanup", offsetof(struct gtp_caps, genmove_cleanup)},
		{"place_free_handicap", offsetof(struct gtp_caps, place_free_handicap)},
		{"set_free_handicap", offsetof(struct gtp_caps, set_free_handicap)},
	};
	for (const char *l = list_commands; l && *l;) {
		size_t len = strcspn(l, "\n");
		while (len > 0 && (l[len - 1] == ' ' || l[len - 1] == '\t'))
			len--;
		for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
			if (strlen(known[k].name) == len && strncmp(l, known[k].name, len) == 0)
				*(bool *)((char *)c + known[k].off) = true;
		l = strchr(l, '\n');
		if (l)
			l++;
	}
}
