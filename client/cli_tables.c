/* cli_tables: see cli_tables.h. */
#include "cli_tables.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli_print.h"
#include "event.h"
#include "rating.h"
#include "standings.h"

/* One printed round field, NUL included ("123+!w9"). */
#define TABLE_FIELD_MAX 24

static void print_value(const char *key, const json_t *v)
{
	if ((strcmp(key, "mcmahon_bar") == 0 || strcmp(key, "mcmahon_floor") == 0 ||
	     strcmp(key, "handicap_none_above") == 0) && json_is_integer(v)) {
		char rank[RANK_STR_MAX];
		if (rank_format((int)json_integer_value(v), rank, sizeof rank) == RATING_OK) {
			fputs(rank, stdout);
			return;
		}
	}
	if (strcmp(key, "time") == 0 && json_is_object(v)) {
		const char *sys = cli_str_or(v, "system", "?");
		json_t *clock = json_pack("{s:I}", "main_ms",
					  (json_int_t)(json_number_value(json_object_get(v, "main_s")) * 1000));
		const json_t *per = json_object_get(v, "period_s");
		if (clock && json_is_number(per))
			json_object_set_new(clock, "period_ms",
					    json_integer((json_int_t)(json_number_value(per) * 1000)));
		if (clock && json_object_get(v, "periods"))
			json_object_set(clock, "periods", json_object_get(v, "periods"));
		if (clock && json_object_get(v, "stones"))
			json_object_set(clock, "stones", json_object_get(v, "stones"));
		char out[64];
		cli_format_clock(clock, out, sizeof out);
		json_decref(clock);
		if (strcmp(sys, "none") == 0)
			fputs("none", stdout);
		else if (strcmp(sys, "fischer") == 0)
			printf("fischer %s + %gs a move", out,
			       json_number_value(json_object_get(v, "increment_s")));
		else
			printf("%s %s", sys, out);
		return;
	}
	if (json_is_boolean(v)) {
		fputs(json_is_true(v) ? "yes" : "no", stdout);
	} else if (json_is_string(v)) {
		fputs(json_string_value(v), stdout);
	} else if (json_is_integer(v)) {
		printf("%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		printf("%g", json_real_value(v));
	} else if (json_is_array(v)) {
		size_t i;
		const json_t *e;
		if (json_array_size(v) == 0)
			fputs(strcmp(key, "tiebreaks") == 0 ? "(the system's default)" : "(none)", stdout);
		json_array_foreach(v, i, e) {
			if (i)
				fputs(", ", stdout);
			print_value("", e);
		}
	} else if (json_is_object(v)) {
		const char *k;
		const json_t *e;
		int first = 1;
		json_object_foreach((json_t *)v, k, e) {
			printf("%s%s ", first ? "" : ", ", k);
			print_value(k, e);
			first = 0;
		}
	} else {
		fputs("-", stdout);
	}
}

/* "(default: SOS, WARN)" for an individual system, else 0 (nothing printed). */
static int print_default_tiebreaks(const char *system)
{
	enum event_system sys;
	const char *const *names;
	int n;
	if (!system || event_system_parse(system, &sys) != 0 ||
	    (n = standings_default_tiebreaks(sys, &names)) < 0)
		return 0;
	fputs("(default: ", stdout);
	for (int i = 0; i < n; i++)
		printf("%s%s", i ? ", " : "", names[i]);
	fputs(")", stdout);
	return 1;
}

void cli_print_settings(const json_t *settings, const char *system)
{
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)settings, key, v) {
		printf("  %-20s ", key);
		if (strcmp(key, "tiebreaks") != 0 || json_array_size(v) != 0 ||
		    !print_default_tiebreaks(system))
			print_value(key, v);
		/* a McMahon bye adds mms_bye (1) to the MMS; `bye` is its points (docs/pairing.md) */
		if (strcmp(key, "bye") == 0 && system && strcmp(system, "mcmahon") == 0)
			printf(" (points; the MMS gains 1 a bye)");
		putchar('\n');
	}
}

/* One round of a player in the export's JSON, as the CSV writes it. */
static void round_field(const json_t *r, char *out)
{
	const char *res = cli_str_or(r, "result", "?");
	long long opp = (long long)json_integer_value(json_object_get(r, "opponent"));
	long long h = (long long)json_integer_value(json_object_get(r, "handicap"));
	bool forfeit = json_is_true(json_object_get(r, "forfeit"));
	char sign;
	if (strcmp(res, "bye") == 0) {
		snprintf(out, TABLE_FIELD_MAX, "bye");
		return;
	}
	if (strcmp(res, "absent") == 0) {
		snprintf(out, TABLE_FIELD_MAX, "-");
		return;
	}
	sign = strcmp(res, "win") == 0 ? '+' : strcmp(res, "draw") == 0 ? '=' :
	       strcmp(res, "pending") == 0 ? '?' : '-';
	if (h > 0)
		snprintf(out, TABLE_FIELD_MAX, "%lld%c%c%s%lld", opp, sign, forfeit ? '!' : '/',
			 cli_str_or(r, "color", "?"), h);
	else
		snprintf(out, TABLE_FIELD_MAX, "%lld%c%c%s", opp, sign, forfeit ? '!' : '/',
			 cli_str_or(r, "color", "?"));
}

int cli_print_crosstable(const json_t *reply)
{
	json_error_t jerr;
	json_t *x = json_loads(cli_str_or(reply, "data", ""), 0, &jerr);
	const json_t *rows = json_object_get(x, "standings"), *tbs = json_object_get(x, "tiebreaks");
	if (!json_is_array(rows) || !json_is_array(tbs)) {
		fprintf(stderr, "tengen: the export is not a table: %s\n", jerr.text);
		json_decref(x);
		return -1;
	}
	long long rounds = (long long)json_integer_value(json_object_get(x, "rounds"));
	printf("Cross-table after round %lld (%s", rounds, cli_str_or(x, "system", "?"));
	if (json_object_get(x, "event"))
		printf(", %s", cli_str_or(x, "event", ""));
	printf(")\n%4s %5s  %-22s %-4s", "Num", "Place", "Name", "Rank");
	for (long long r = 1; r <= rounds; r++)
		printf(" %7s%-2lld", "R", r);
	printf(" %6s", cli_str_or(x, "score", "PTS"));
	size_t i, j;
	const json_t *row, *v;
	json_array_foreach(tbs, j, v)
		printf(" %6s", json_string_value(v) ? json_string_value(v) : "?");
	putchar('\n');
	json_array_foreach(rows, i, row) {
		const char *nm = cli_str_or(row, "name", "?");
		printf("%4lld %5lld  %-*s %-4s", (long long)json_integer_value(json_object_get(row, "num")),
		       (long long)json_integer_value(json_object_get(row, "place")),
		       cli_width(nm, 22), nm, cli_str_or(row, "rank", "?"));
		json_array_foreach(json_object_get(row, "rounds"), j, v) {
			char f[TABLE_FIELD_MAX];
			round_field(v, f);
			printf(" %9s", f);
		}
		printf(" %6g", json_number_value(json_object_get(row, "score")));
		json_array_foreach(json_object_get(row, "tiebreaks"), j, v)
			printf(" %6g", json_number_value(v));
		putchar('\n');
	}
	if (json_array_size(rows) == 0)
		puts("(no players)");
	json_decref(x);
	return 0;
}
