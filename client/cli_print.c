/* client/cli_print: printing the server's objects. See cli_print.h. */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_print.h"

const char *cli_str_or(const json_t *o, const char *key, const char *dflt)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : dflt;
}

void cli_print_json(const json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
	if (s) {
		puts(s);
		free(s);
	}
}

/* ---- clocks ---- */

static void format_duration(int64_t ms, char *out, size_t n)
{
	if (ms < 0)
		ms = 0;
	int64_t s = ms / 1000;
	if (s >= 3600)
		snprintf(out, n, "%" PRId64 ":%02d:%02d", s / 3600, (int)(s / 60 % 60),
			 (int)(s % 60));
	else if (s < 10 && ms % 1000)
		snprintf(out, n, "0:%02d.%d", (int)s, (int)(ms % 1000 / 100));
	else
		snprintf(out, n, "%d:%02d", (int)(s / 60), (int)(s % 60));
}

void cli_format_clock(const json_t *clock, char *out, size_t n)
{
	if (!json_is_object(clock)) {
		snprintf(out, n, "-");
		return;
	}
	char main_s[32], per[32];
	format_duration(json_integer_value(json_object_get(clock, "main_ms")), main_s,
			sizeof main_s);
	const json_t *periods = json_object_get(clock, "periods");
	const json_t *stones = json_object_get(clock, "stones");
	const json_t *period_ms = json_object_get(clock, "period_ms");
	if (json_is_integer(period_ms))
		format_duration(json_integer_value(period_ms), per, sizeof per);
	if (json_is_integer(periods) && json_is_integer(period_ms))
		snprintf(out, n, "%s + %dx%s", main_s, (int)json_integer_value(periods), per);
	else if (json_is_integer(stones) && json_is_integer(period_ms))
		snprintf(out, n, "%s + %d stones/%s", main_s, (int)json_integer_value(stones), per);
	else
		snprintf(out, n, "%s", main_s);
}

/* ---- boards, results, pairings ---- */

static void print_columns(int size)
{
	fputs("   ", stdout);
	for (int x = 0; x < size; x++)
		printf(" %c", CLI_COLUMNS[x]);
	putchar('\n');
}

void cli_print_board(const json_t *game)
{
	const json_t *board = json_object_get(game, "board");
	int size = (int)json_integer_value(json_object_get(game, "size"));
	if (size < 1 || size > (int)strlen(CLI_COLUMNS) || !json_is_array(board))
		return;
	print_columns(size);
	for (int r = 0; r < size; r++) {
		const char *row = json_string_value(json_array_get(board, (size_t)r));
		printf("%3d", size - r);
		for (int x = 0; x < size; x++)
			printf(" %c", row && (int)strlen(row) > x ? row[x] : '?');
		printf(" %d\n", size - r);
	}
	print_columns(size);
	const json_t *clocks = json_object_get(game, "clocks");
	const json_t *warn = json_object_get(game, "warnings");
	char cb[64], cw[64];
	cli_format_clock(json_object_get(clocks, "B"), cb, sizeof cb);
	cli_format_clock(json_object_get(clocks, "W"), cw, sizeof cw);
	printf("Black (X) %s: %s", cli_str_or(game, "black", "?"), cb);
	if (json_integer_value(json_object_get(warn, "B")) > 0)
		printf(", %d warning(s)", (int)json_integer_value(json_object_get(warn, "B")));
	printf("   White (O) %s: %s", cli_str_or(game, "white", "?"), cw);
	if (json_integer_value(json_object_get(warn, "W")) > 0)
		printf(", %d warning(s)", (int)json_integer_value(json_object_get(warn, "W")));
	putchar('\n');
}

void cli_print_result(const char *result, const char *reason, const json_t *score)
{
	printf("Result: %s", result ? result : "?");
	if (reason)
		printf(" (%s)", reason);
	const json_t *bar = json_object_get(score, "bar");
	if (json_is_object(score))
		printf(", score: Black %g, White %g", json_number_value(json_object_get(score, "black")),
		       json_number_value(json_object_get(score, "white")));
	if (json_is_object(bar)) /* prediction ruleset: the bar replaces komi */
		printf(", bar %s+%g", cli_str_or(bar, "color", "?"),
		       json_number_value(json_object_get(bar, "margin")));
	else if (json_is_object(score))
		printf(", komi %g", json_number_value(json_object_get(score, "komi")));
	putchar('\n');
}

const char *cli_pairing_result(const json_t *p)
{
	static const char *const phases[][2] = {
		{"scheduled", "- (not begun)"}, {"playing", "- (playing)"}, {"counting", "- (counting)"},
	};
	const char *res = cli_str_or(p, "result", NULL), *ph = cli_str_or(p, "phase", "");
	if (res)
		return res;
	if (json_is_true(json_object_get(p, "paused")))
		return "- (paused)";
	for (size_t i = 0; i < sizeof phases / sizeof *phases; i++)
		if (strcmp(ph, phases[i][0]) == 0)
			return phases[i][1];
	return "-";
}

void cli_print_pairings(const json_t *reply)
{
	printf("Tournament %lld, round %lld\n",
	       (long long)json_integer_value(json_object_get(reply, "tournament")),
	       (long long)json_integer_value(json_object_get(reply, "round")));
	printf("%6s  %-20s %-20s %s\n", "Game", "Black", "White", "Result");
	size_t i;
	const json_t *p;
	json_array_foreach(json_object_get(reply, "pairings"), i, p) {
		const char *bn = cli_str_or(p, "black", "?"), *wn = cli_str_or(p, "white", "?");
		printf("%6lld  %-*s %-*s %s", (long long)json_integer_value(json_object_get(p, "game")),
		       cli_width(bn, 20), bn, cli_width(wn, 20), wn, cli_pairing_result(p));
		long long h = (long long)json_integer_value(json_object_get(p, "handicap"));
		if (h > 0)
			printf("  (handicap %lld)", h);
		putchar('\n');
	}
	const json_t *byes = json_object_get(reply, "byes");
	if (json_array_size(byes) > 0) {
		fputs("Bye:", stdout);
		json_array_foreach(byes, i, p)
			printf(" %s", json_string_value(p) ? json_string_value(p) : "?");
		putchar('\n');
	}
}

int cli_width(const char *s, int chars)
{
	for (; s && *s; s++)
		if (((unsigned char)*s & 0xc0) == 0x80)
			chars++;
	return chars;
}
