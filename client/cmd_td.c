/* client/cmd_td: `tengen td ...`, the director's commands. See commands.h.
 *
 * Each subcommand turns its arguments into one or more requests (a batch, sent one after the
 * other) and a printer for the replies. An error reply is reported and the batch goes on; the
 * exit status is then 1.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"
#include "cli_print.h"
#include "cli_tables.h"
#include "event.h"
#include "rating.h"
#include "referee.h"
#include "ruleset.h"
#include "cli_run.h"
#include "cmd_td_team.h"
#include "cli_values.h"
#include "commands.h"
#include "td.h"

#define TD_MAX_POS 64       /* positional arguments of a td subcommand (td register) */
#define TD_WHAT_MAX 4352    /* bytes of "td results: FILE line N: GAME" (FILE a path) */

static const char td_usage[] =
	"usage: tengen [--server HOST:PORT] --user NAME [--password-file F] td COMMAND [ARGS] [--json]\n"
	"Tournament director's commands (role td or admin: tengend grant NAME td --db DB).\n"
	"\n"
	"  td create NAME --system swiss|mcmahon|round_robin|double_round_robin|knockout\n"
	"            [--rounds N] [--size N] [--komi K] [--time SPEC] [--lateness SECONDS]\n"
	"            [--tiebreaks SOS,SOSOS,...] [--rated yes|no] [--bye POINTS] [--rules JSON]\n"
	"            [--venue online|board] [--place CC,CITY] [--mcmahon-bar RANK] [--mcmahon-floor RANK]\n"
	"            [--handicap yes|no] [--handicap-max N] [--handicap-komi K]\n"
	"            [--absent-points N] [--mms-absent K] [--double-elimination]\n"
	"            [--top-group RANK] [--handicap-correction N] [--handicap-none-above RANK]\n"
	"            [--handicap-by rank|mms]\n"
	"            [--elimination-losses K]    (swiss, knockout: out after K losses)\n"
	"                                        create a tournament; prints its id (and, on\n"
	"                                        stderr, the defaults used: 5 rounds, online)\n"
	"      T (every command): a tournament's number, or its name\n"
	"      RANK: 30k..1k, 1d..9d; --mcmahon-bar (or --top-group): players at or above it\n"
	"            start equal (default 1d); --mcmahon-floor: at or below it (default 20k);\n"
	"            handicap = rank difference - correction (default 1), none when the weaker\n"
	"            player is above --handicap-none-above; --handicap-by mms: the McMahon\n"
	"            scores' difference instead of the ranks' (OpenGotha's default: the top\n"
	"            group, all on the bar's score, then plays even)\n"
	"  td set T [the options of td create, but --system]\n"
	"                                        change the settings while round 1 is not paired;\n"
	"                                        after, --rounds (Swiss, McMahon), --tiebreaks,\n"
	"                                        --time, --lateness and --place only\n"
	"  td create NAME --system team_round_robin|team_swiss|team_knockout --boards N\n"
	"            [--lineup fixed|per_round] [the options above]\n"
	"      SPEC: byoyomi:MAIN/PERIODSxPERIOD (byoyomi:60/3x10), canadian:MAIN/STONES/PERIOD,\n"
	"            fischer:MAIN+INC[/MAX], absolute:MAIN, none; times in seconds, or with a\n"
	"            unit: 90s, 10m, 1h\n"
	"  td register T PLAYER...               enter players\n"
	TD_TEAM_USAGE
	"  td withdraw T PLAYER                  withdraw a player (Art. 28)\n"
	"  td start T [--at UNIXTIME | --in SECONDS]\n"
	"                                        pair and start the next round; prints the pairings\n"
	"  td result GAME RESULT [--reason R]    set or override a result of a tournament game:\n"
	"                                        B+R, W+3.5, B+T, W+F, 0 (jigo, draw), Void,\n"
	"                                        double_loss; any case (b+r); R one of\n"
	"                                        adjudicated (the default, but give it to enter a\n"
	"                                        draw with a half-point komi: Art. 23), resignation,\n"
	"                                        time, score, warnings, illegal, lateness,\n"
	"                                        double_forfeit, cycle\n"
	"  td result GAME --double-loss          both players lose (stored as Void)\n"
	"  td results FILE|-                     a round's results, a line each: \"GAME RESULT\"\n"
	"                                        or \"GAME RESULT REASON\" (blank lines, # comments\n"
	"                                        skipped); a line per reply, exit status 3 if any\n"
	"                                        was refused\n"
	"  td warn GAME B|W REASON               a director's warning (a second one loses)\n"
	"  td pause GAME | td resume GAME        stop or restart a game's clocks (Art. 14)\n"
	"  td export T --format h9|csv|json|html [-o FILE] [--round N]\n"
	"                                        the results table (stdout or FILE; after\n"
	"                                        round N, default every round played)\n"
	"  td export T --format sgf -o DIR [--round N]\n"
	"                                        every ended game's record (of round N only)\n"
	"                                        as DIR/roundR-gameN.sgf\n"
	"  td list                               the tournaments\n"
	"  td show T                             a tournament's settings and players\n"
	"  td crosstable T [--round N]           the cross-table (after round N; default the\n"
	"                                        last with every result in): each player's\n"
	"                                        rounds, score, tie-breaks\n";

/* Make a batch of one request (consumed). */
int td_one(struct td_ctx *x, json_t *req, cli_print_fn print)
{
	x->print = print;
	x->reqs = cli_batch_of(req);
	if (!x->reqs) {
		cli_errorf("out of memory");
		return -1;
	}
	return 0;
}

/* ---- values ---- */

/* --time SPEC -> the wire's time control object, or NULL (message printed). */
static json_t *parse_time(const char *spec)
{
	json_t *t = cli_parse_time(spec);
	if (!t)
		cli_errorf("td create: bad --time '%s' (%s)", spec, CLI_TIME_SPEC_HELP);
	return t;
}

static int parse_int(const char *what, const char *s, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		cli_errorf("%s must be a whole number from %ld to %ld, not '%s'", what, min, max,
			   s);
		return -1;
	}
	*out = v;
	return 0;
}

/* ---- printers ---- */

static void print_created(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	long long id = (long long)json_integer_value(json_object_get(reply, "tournament"));
	printf("%lld\n", id);
	/* The defaults in force are said (on stderr: stdout is the id, for scripts). */
	const char *sys = cli_str_or(req, "system", "");
	/* a round robin's rounds come from its field, a knockout's from its entries (until one
	 * is left): no default there to speak of */
	bool from_field = strstr(sys, "round_robin") || (strstr(sys, "knockout") &&
		!json_object_get(req, "double_elimination") && !json_object_get(req, "elimination_losses"));
	if (!json_object_get(req, "rounds") && !from_field)
		cli_errorf("note: tournament %lld has %lld rounds (the default; --rounds N to choose)",
			   id, (long long)json_integer_value(json_object_get(reply, "rounds")));
	if (json_object_get(req, "rounds") && strstr(sys, "round_robin"))
		cli_errorf("note: --rounds is not used: a round robin's rounds come from its field "
			   "(n - 1 for n players, n for an odd n%s)",
			   strstr(sys, "double") ? "; twice that for a double round robin" : "");
	if (!json_object_get(req, "venue"))
		cli_errorf("note: tournament %lld is played %s (--venue board for games at real "
			   "boards)", id, cli_str_or(reply, "venue", "online"));
}

/* A rank "3d", "15k" into the wire's rank value (1d = 0, 1k = -1, 30k = -30), or -1 with a
 * message. */
static int parse_rank_value(const char *what, const char *s, long *out)
{
	char *end;
	errno = 0;
	long n = strtol(s, &end, 10);
	if (errno || end == s || n < 1 || (*end != 'k' && *end != 'K' && *end != 'd' && *end != 'D') ||
	    end[1] || ((*end == 'k' || *end == 'K') ? n > 30 : n > 9)) {
		cli_errorf("%s must be a rank from 30k to 9d, not '%s'", what, s);
		return -1;
	}
	*out = (*end == 'k' || *end == 'K') ? -n : n - 1;
	return 0;
}

static void print_registered(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	td_print_entry(cli_str_or(req, "player", "?"),
		       (long long)json_integer_value(json_object_get(reply, "tournament")), reply);
}

static void print_withdrawn(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	const json_t *after = json_object_get(reply, "withdrawn_after");
	printf("withdrew %s from tournament %lld", cli_str_or(req, "player", "?"),
	       (long long)json_integer_value(json_object_get(req, "tournament")));
	if (json_integer_value(after) > 0)
		printf(" (after round %lld)", (long long)json_integer_value(after));
	putchar('\n');
	size_t i;
	const json_t *f;
	json_array_foreach(json_object_get(reply, "forfeited"), i, f) /* Art. 28: results written */
		printf("  game %lld (round %lld), not finished: recorded as %s\n",
		       (long long)json_integer_value(json_object_get(f, "game")),
		       (long long)json_integer_value(json_object_get(f, "round")),
		       cli_str_or(f, "result", "?"));
	/* a round robin's player who played fewer than half their games: their results are
	 * void for both sides (Art. 28; docs/tiebreaks.md), which the standings now show */
	const json_t *voided = json_object_get(reply, "voided");
	if (json_array_size(voided) > 0) {
		printf("  voided (fewer than half their games played, Art. 28): game");
		json_array_foreach(voided, i, f)
			printf("%s %lld", i ? "," : json_array_size(voided) > 1 ? "s" : "",
			       (long long)json_integer_value(f));
		printf(": no longer counted for either player\n");
	}
}

static void print_started(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	json_t *r = json_copy((json_t *)reply);
	if (!r)
		return;
	if (!json_object_get(r, "tournament"))
		json_object_set(r, "tournament", json_object_get(req, "tournament"));
	if (td_team_is_pairings(r))
		td_team_print_pairings(r);
	else
		cli_print_pairings(r);
	double at = json_number_value(json_object_get(r, "start_at"));
	if (at > 0) {
		time_t t = (time_t)at;
		char when[64];
		struct tm tm;
		if (localtime_r(&t, &tm) && strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm))
			printf("Games begin at %s.\n", when);
		/* started now: whoever joins after it, even a bot a few ms later, is charged twice
		 * the delay (Art. 22.2) */
		if (!json_object_get(req, "start_at"))
			cli_errorf("the games began as they were paired: a player joining later is "
				   "charged twice the delay (Art. 22.2); td start T --in 60 gives them "
				   "a minute");
	}
	json_decref(r);
}

static void print_result_set(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	const char *was = json_string_value(json_object_get(reply, "previous"));
	const char *res = cli_str_or(reply, "result", cli_str_or(req, "result", "?"));
	printf("game %lld: result %s", (long long)json_integer_value(json_object_get(req, "game")), res);
	/* Void alone read as "as if never paired" (docs/tiebreaks.md): say which it is */
	if (strcmp(res, "Void") == 0)
		fputs(strcasecmp(cli_str_or(req, "result", ""), "double_loss") == 0 ||
		      strcasecmp(cli_str_or(req, "reason", ""), "double_forfeit") == 0 ?
		      " (a double loss: both lose)" : " (void: as if never paired)", stdout);
	if (json_is_true(json_object_get(reply, "unchanged")))
		fputs(" (unchanged: it had that result already)", stdout);
	else if (was) { /* an override says what it replaced; Void, which of the two */
		const char *wr = json_string_value(json_object_get(reply, "previous_reason"));
		printf(" (was %s%s)", was, strcmp(was, "Void") != 0 ? "" :
		       wr && strcmp(wr, "double_forfeit") == 0 ? ", a double loss" : ", void");
	}
	const char *event = json_string_value(json_object_get(reply, "tournament_name"));
	if (event) /* where it went: game numbers are the server's, a typo lands elsewhere */
		printf(" in %s, round %lld", event,
		       (long long)json_integer_value(json_object_get(reply, "round")));
	putchar('\n');
	size_t i;
	const json_t *w;
	json_array_foreach(json_object_get(reply, "warnings"), i, w)
		printf("  warning: %s\n", json_string_value(w));
}

static void print_warned(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	const json_t *w = json_object_get(reply, "warnings");
	printf("game %lld: warning to %s (%s)", (long long)json_integer_value(json_object_get(req, "game")),
	       strcmp(cli_str_or(req, "color", "B"), "B") == 0 ? "Black" : "White",
	       cli_str_or(req, "reason", "?"));
	if (json_is_integer(w))
		printf(", %lld warning(s)", (long long)json_integer_value(w));
	const char *result = json_string_value(json_object_get(reply, "result"));
	if (result)
		printf("; the game is lost: %s", result);
	putchar('\n');
}

static void print_clocks_reply(struct cli_batch *batch, const json_t *req, const json_t *reply)
{
	(void)batch;
	const json_t *clocks = json_object_get(reply, "clocks");
	char b[64], w[64];
	cli_format_clock(json_object_get(clocks, "B"), b, sizeof b);
	cli_format_clock(json_object_get(clocks, "W"), w, sizeof w);
	printf("game %lld %s; clocks: Black %s, White %s\n",
	       (long long)json_integer_value(json_object_get(req, "game")),
	       strcmp(cli_str_or(req, "cmd", ""), "game.pause") == 0 ? "paused" : "resumed", b, w);
}

static void print_export(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	const struct td_ctx *x = b->ctx;
	(void)req;
	const char *data = cli_str_or(reply, "data", "");
	size_t n = strlen(data);
	if (!x->out_file) {
		fputs(data, stdout);
		if (n && data[n - 1] != '\n')
			putchar('\n');
		return;
	}
	FILE *f = fopen(x->out_file, "w");
	bool ok = f && fwrite(data, 1, n, f) == n;
	/* one fclose, whatever happened: a failed fclose has still closed the stream */
	if (f && fclose(f) != 0)
		ok = false;
	if (!ok) {
		cli_errorf("cannot write %s: %s", x->out_file, strerror(errno));
		b->failed = true;
		return;
	}
	/* a note, on stderr as errors are */
	cli_errorf("wrote %s (%zu bytes, after round %lld)", x->out_file, n,
		   (long long)json_integer_value(json_object_get(reply, "round")));
}

static void print_list(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)req;
	const json_t *ts = json_object_get(reply, "tournaments");
	printf("%5s  %-24s %-18s %7s %7s %6s\n", "Id", "Name", "System", "Players", "Round",
	       "Rounds");
	size_t i;
	const json_t *t;
	json_array_foreach(ts, i, t) {
		const json_t *st = json_object_get(t, "settings");
		const char *nm = cli_str_or(t, "name", "?");
		printf("%5lld  %-*s %-18s %7lld %7lld %6lld\n",
		       (long long)json_integer_value(json_object_get(t, "id")), cli_width(nm, 24), nm,
		       cli_str_or(t, "system", "?"), (long long)json_integer_value(json_object_get(t, "players")),
		       (long long)json_integer_value(json_object_get(t, "round")),
		       (long long)json_integer_value(json_object_get(st, "rounds")));
	}
	if (json_array_size(ts) == 0)
		puts("(no tournaments)");
}

static void print_show(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)req;
	const json_t *t = json_object_get(reply, "tournament");
	const json_t *st = json_object_get(t, "settings");
	printf("Tournament %lld: %s\n", (long long)json_integer_value(json_object_get(t, "id")),
	       cli_str_or(t, "name", "?"));
	printf("System: %s, round %lld of %lld\n", cli_str_or(t, "system", "?"),
	       (long long)json_integer_value(json_object_get(t, "round")),
	       (long long)json_integer_value(json_object_get(st, "rounds")));
	const char *director = json_string_value(json_object_get(t, "director"));
	if (director)
		printf("Director: %s\n", director);
	td_print_event_details(t);
	puts("Settings:");
	cli_print_settings(st, json_string_value(json_object_get(t, "system")));
	const json_t *field = json_object_get(t, "field");
	printf("Players (%zu):\n", json_array_size(field));
	size_t i;
	const json_t *p;
	json_array_foreach(field, i, p) {
		const char *nm = cli_str_or(p, "name", "?");
		printf("  %-*s %-5s %6.0f", cli_width(nm, 24), nm, cli_str_or(p, "rank", ""),
		       json_number_value(json_object_get(p, "rating")));
		if (json_is_true(json_object_get(p, "withdrawn_before_start")))
			fputs("  withdrawn", stdout);
		else if (json_integer_value(json_object_get(p, "withdrawn_after")) > 0)
			printf("  withdrawn after round %lld",
			       (long long)json_integer_value(json_object_get(p, "withdrawn_after")));
		td_print_entry_details(p);
		putchar('\n');
	}
	td_print_teams(t);
}

/* ---- subcommands ---- */

/* A number of points (komi, a McMahon score) of option `what` into *out, or -1 (message). */
static int parse_points(const char *what, const char *s, double *out)
{
	char *end;
	double k = strtod(s, &end);
	if (end == s || *end || !isfinite(k)) {
		cli_errorf("%s must be a number of points, not '%s'", what, s);
		return -1;
	}
	*out = k;
	return 0;
}

/* The event options of td create beyond the basics into req (the server checks the values'
 * ranges). Returns 0, or -1 (message). */
static int td_create_more(const char *venue, const char *bar, const char *floor_,
			  const char *hcap, const char *hmax, const char *hkomi, const char *absp,
			  const char *mmsa, bool double_elim, json_t *req)
{
	long n;
	double d;
	if (venue)
		json_object_set_new(req, "venue", json_string(venue));
	if (bar) {
		if (parse_rank_value("--mcmahon-bar", bar, &n) != 0)
			return -1;
		json_object_set_new(req, "mcmahon_bar", json_integer(n));
	}
	if (floor_) {
		if (parse_rank_value("--mcmahon-floor", floor_, &n) != 0)
			return -1;
		json_object_set_new(req, "mcmahon_floor", json_integer(n));
	}
	if (hcap) {
		int yes = cli_parse_yes_no(hcap);
		if (yes < 0) {
			cli_errorf("--handicap must be yes or no, not '%s'", hcap);
			return -1;
		}
		json_object_set_new(req, "handicap", json_boolean(yes));
	}
	if (hmax) {
		if (parse_int("--handicap-max", hmax, 0, 9, &n) != 0)
			return -1;
		json_object_set_new(req, "handicap_max", json_integer(n));
	}
	if (hkomi) {
		if (parse_points("--handicap-komi", hkomi, &d) != 0)
			return -1;
		json_object_set_new(req, "handicap_komi", json_real(d));
	}
	if (absp) {
		if (parse_int("--absent-points", absp, 0, 2, &n) != 0)
			return -1;
		json_object_set_new(req, "absent_points", json_integer(n));
	}
	if (mmsa) {
		if (parse_points("--mms-absent", mmsa, &d) != 0)
			return -1;
		json_object_set_new(req, "mms_absent", json_real(d));
	}
	if (double_elim)
		json_object_set_new(req, "double_elimination", json_true());
	return 0;
}

static void print_updated(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)req;
	printf("tournament %lld: settings changed (td show prints them)\n",
	       (long long)json_integer_value(json_object_get(reply, "tournament")));
}

/* td create NAME --system S [options], or (set) td set T [options]: tournament.update with
 * the same options, but the name and the system. */
static int td_create_or_set(int argc, char **argv, struct cli_opts *o, struct td_ctx *x,
			    bool set)
{
	static const struct cli_option opts[] = {
		{"--system", true}, {"--rounds", true}, {"--size", true}, {"--komi", true},
		{"--time", true}, {"--lateness", true}, {"--tiebreaks", true}, {"--rated", true},
		{"--bye", true}, {"--rules", true}, {"--venue", true}, {"--mcmahon-bar", true},
		{"--mcmahon-floor", true}, {"--handicap", true}, {"--handicap-max", true},
		{"--handicap-komi", true}, {"--absent-points", true}, {"--mms-absent", true},
		{"--double-elimination", false}, {"--top-group", true}, {"--handicap-correction", true},
		{"--handicap-none-above", true}, {"--place", true}, {"--boards", true}, {"--lineup", true},
		{"--elimination-losses", true}, {"--handicap-by", true}};
	enum { SYS, ROUNDS, SIZE, KOMI, TIME, LATE, TB, RATED, BYE, RULES, VENUE, BAR, FLOOR, HCAP,
	       HMAX, HKOMI, ABSP, MMSA, DOUBLE, TOP, HCORR, HNONE, PLACE,
	       BOARDS, LINEUP, ELIM, HBY, NOPT };
	const char *v[NOPT] = {0};
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_usage, opts, NOPT, v, pos, 1, &npos);
	if (r != 0)
		return r;
	json_t *req;
	if (set) {
		json_t *t;
		if (npos != 1 || v[SYS]) {
			cli_errorf(npos != 1 ? "td set: give the TOURNAMENT and the settings to change"
				   : "td set: the system cannot change (td create another tournament)");
			return -1;
		}
		if (td_tournament_arg(pos[0], &t) != 0)
			return -1;
		req = json_pack("{s:s, s:o}", "cmd", "tournament.update", "tournament", t);
	} else {
		if (npos != 1 || !v[SYS]) {
			cli_errorf("td create: give the tournament's NAME and --system");
			return -1;
		}
		req = json_pack("{s:s, s:s, s:s}", "cmd", "tournament.create", "name", pos[0],
				"system", v[SYS]);
	}
	if (!req)
		return -1;
	long n;
	if (v[ROUNDS]) {
		if (parse_int("--rounds", v[ROUNDS], 1, EVENT_MAX_ROUNDS, &n) != 0) /* the server's */
			goto bad;
		json_object_set_new(req, "rounds", json_integer(n));
	}
	if (v[SIZE]) {
		if (parse_int("--size", v[SIZE], 2, 25, &n) != 0)
			goto bad;
		json_object_set_new(req, "size", json_integer(n));
	}
	if (v[KOMI]) {
		char *end;
		double k = strtod(v[KOMI], &end);
		if (end == v[KOMI] || *end || !isfinite(k)) {
			cli_errorf("--komi must be a number of points, not '%s'", v[KOMI]);
			goto bad;
		}
		json_object_set_new(req, "komi", json_real(k));
	}
	if (v[TIME]) {
		json_t *t = parse_time(v[TIME]);
		if (!t)
			goto bad;
		json_object_set_new(req, "time", t);
	}
	if (v[LATE]) {
		double s;
		if (cli_parse_duration(v[LATE], &s) != 0 || s != floor(s)) {
			cli_errorf("--lateness must be whole seconds (or 15m), not '%s'", v[LATE]);
			goto bad;
		}
		json_object_set_new(req, "lateness_limit_s", json_integer((json_int_t)s));
	}
	if (v[TB]) {
		json_t *arr = json_array();
		char *copy = strdup(v[TB]);
		char *save = NULL;
		for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
		     tok = strtok_r(NULL, ",", &save))
			json_array_append_new(arr, json_string(tok));
		free(copy);
		json_object_set_new(req, "tiebreaks", arr);
	}
	if (v[RATED]) {
		int yes = cli_parse_yes_no(v[RATED]);
		if (yes < 0) {
			cli_errorf("--rated must be yes or no, not '%s'", v[RATED]);
			goto bad;
		}
		json_object_set_new(req, "rated", json_boolean(yes));
	}
	if (v[BYE]) {
		if (parse_int("--bye", v[BYE], 0, 1000, &n) != 0)
			goto bad;
		json_object_set_new(req, "bye", json_integer(n));
	}
	if (v[TOP] && v[BAR]) {
		cli_errorf("td create: --top-group is --mcmahon-bar: give one");
		goto bad;
	}
	if (td_create_more(v[VENUE], v[BAR] ? v[BAR] : v[TOP], v[FLOOR], v[HCAP], v[HMAX], v[HKOMI],
			   v[ABSP], v[MMSA], v[DOUBLE] != NULL, req) != 0)
		goto bad;
	if (v[HCORR]) {
		if (parse_int("--handicap-correction", v[HCORR], 0, 9, &n) != 0)
			goto bad;
		json_object_set_new(req, "handicap_correction", json_integer(n));
	}
	if (v[HNONE]) {
		if (parse_rank_value("--handicap-none-above", v[HNONE], &n) != 0)
			goto bad;
		json_object_set_new(req, "handicap_none_above", json_integer(n));
	}
	if (v[HBY]) {
		if (strcmp(v[HBY], "rank") != 0 && strcmp(v[HBY], "mms") != 0) {
			cli_errorf("td create: --handicap-by takes rank or mms, not '%s'", v[HBY]);
			goto bad;
		}
		json_object_set_new(req, "handicap_by", json_string(v[HBY]));
	}
	if (v[RULES]) {
		json_t *rules = json_loads(v[RULES], 0, NULL);
		if (!json_is_object(rules)) {
			json_decref(rules);
			cli_errorf("--rules must be a JSON object, e.g. '{\"ko\":\"positional\"}'");
			goto bad;
		}
		json_object_set_new(req, "rules", rules);
	}
	if (v[PLACE])
		json_object_set_new(req, "place", json_string(v[PLACE]));
	if (v[BOARDS]) { /* team events (docs/teams.md); the server checks the system */
		if (parse_int("--boards", v[BOARDS], 1, 64, &n) != 0)
			goto bad;
		json_object_set_new(req, "boards", json_integer(n));
	}
	if (v[LINEUP])
		json_object_set_new(req, "lineup", json_string(v[LINEUP]));
	if (v[ELIM]) {
		if (parse_int("--elimination-losses", v[ELIM], 1, 64, &n) != 0)
			goto bad;
		json_object_set_new(req, "elimination_losses", json_integer(n));
	}
	return td_one(x, req, set ? print_updated : print_created);
bad:
	json_decref(req);
	return -1;
}

static int td_create(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	return td_create_or_set(argc, argv, o, x, false);
}

static int td_set(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	return td_create_or_set(argc, argv, o, x, true);
}

static int td_register(int argc, char **argv, struct cli_opts *o, struct td_ctx *x,
		       bool withdraw)
{
	const char *pos[TD_MAX_POS];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_usage, NULL, 0, NULL, pos, TD_MAX_POS, &npos);
	if (r != 0)
		return r;
	json_t *t;
	if (npos < 2 || (withdraw && npos != 2)) {
		cli_errorf("td %s: give the tournament and %s", argv[0],
			   withdraw ? "one PLAYER" : "the PLAYERs");
		return -1;
	}
	if (td_tournament_arg(pos[0], &t) != 0)
		return -1;
	x->reqs = json_array();
	x->print = withdraw ? print_withdrawn : print_registered;
	for (int k = 1; k < npos; k++)
		json_array_append_new(x->reqs, json_pack("{s:s, s:O, s:s}", "cmd",
			withdraw ? "tournament.withdraw" : "tournament.register", "tournament", t,
			"player", pos[k]));
	json_decref(t);
	return json_array_size(x->reqs) == (size_t)(npos - 1) ? 0 : -1;
}

static int td_start(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	static const struct cli_option opts[] = {{"--at", true}, {"--in", true}};
	const char *v[2] = {0};
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_usage, opts, 2, v, pos, 1, &npos);
	if (r != 0)
		return r;
	json_t *t;
	if (npos != 1) {
		cli_errorf("td start: give the TOURNAMENT");
		return -1;
	}
	if (v[0] && v[1]) {
		cli_errorf("td start: --at or --in, not both");
		return -1;
	}
	if (td_tournament_arg(pos[0], &t) != 0)
		return -1;
	json_t *req = json_pack("{s:s, s:o}", "cmd", "tournament.start_round", "tournament", t);
	if (v[0] || v[1]) {
		double at;
		char *end;
		if (v[0]) {
			at = strtod(v[0], &end);
			if (end == v[0] || *end || !isfinite(at) || at < 0) {
				cli_errorf("--at must be Unix seconds, not '%s'", v[0]);
				json_decref(req);
				return -1;
			}
		} else {
			double in;
			if (cli_parse_duration(v[1], &in) != 0) {
				cli_errorf("--in must be seconds (or 10m), not '%s'", v[1]);
				json_decref(req);
				return -1;
			}
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			at = (double)ts.tv_sec + ts.tv_nsec / 1e9 + in;
		}
		json_object_set_new(req, "start_at", json_real(at));
	}
	return td_one(x, req, print_started);
}

static int td_result(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	static const struct cli_option opts[] = {{"--reason", true}, {"--double-loss", false}};
	const char *v[2] = {0};
	const char *pos[2];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_usage, opts, 2, v, pos, 2, &npos);
	if (r != 0)
		return r;
	json_int_t g;
	if (npos != (v[1] ? 1 : 2)) {
		cli_errorf(v[1] ? "td result: give the GAME and --double-loss, no RESULT"
				: "td result: give the GAME and the RESULT (B+R, W+3.5, 0, Void, ...)");
		return -1;
	}
	if (cli_parse_id("GAME", pos[0], &g) != 0)
		return -1;
	/* The text goes as typed: the server reads it (case, jigo, double_loss). */
	return td_one(x, json_pack("{s:s, s:I, s:s, s:s?}", "cmd", "tournament.result", "game", g,
				   "result", v[1] ? "double_loss" : pos[1], "reason", v[0]),
		      print_result_set);
}

/* One line of a results file into a tournament.result request appended to reqs, its line
 * number to lines: "GAME RESULT [REASON]" (the reason as td result's --reason, e.g. "31 jigo
 * adjudicated": a draw the director decides, Art. 23), blanks and "#" comments skipped.
 * Returns 0 (appended or skipped) or -1 (a usage error, printed). */
static int results_line(char *s, int lineno, const char *file, json_t *reqs, json_t *lines)
{
	static const char blank[] = " \t\r\n";
	char *save = NULL, *game = strtok_r(s, blank, &save);
	if (!game || game[0] == '#')
		return 0;
	char *result = strtok_r(NULL, blank, &save), *reason = strtok_r(NULL, blank, &save);
	char *more = reason && reason[0] != '#' ? strtok_r(NULL, blank, &save) : NULL;
	if (reason && reason[0] == '#')
		reason = NULL;
	json_int_t g;
	enum end_reason why;
	bool extra = more && more[0] != '#';
	/* the reasons a director may give (not a challenge's own endings) */
	if (!result || extra || (reason && (referee_reason_parse(reason, &why) != 0 ||
					    why == END_NONE || why == END_DECLINED ||
					    why == END_EXPIRED))) {
		cli_errorf("td results: %s line %d: give GAME RESULT or GAME RESULT REASON, as '17 B+R' "
			   "or '31 jigo adjudicated' (%s)", file, lineno,
			   !result ? "no result after the game" : extra ? "a result has no spaces" :
			   "the REASON is one of td result's, as adjudicated or warnings");
		return -1;
	}
	/* a reason the result contradicts (W+R score): the server refuses it, so the file is
	 * refused here, before anything is sent (referee_reason_fits, as the server checks) */
	char norm[SCORE_RESULT_MAX];
	bool dl;
	if (reason && ruleset_result_normalise(ruleset_default(), result, norm, sizeof norm, &dl) == 0 &&
	    !dl && referee_reason_fits(ruleset_default(), norm, why) < 0) {
		cli_errorf("td results: %s line %d: %s does not go with %s: %s goes with %s",
			   file, lineno, referee_reason_name(why), norm, referee_reason_name(why),
			   referee_reason_results(why));
		return -1;
	}
	char what[TD_WHAT_MAX];
	snprintf(what, sizeof what, "td results: %s line %d: GAME", file, lineno);
	if (cli_parse_id(what, game, &g) != 0)
		return -1;
	size_t i;
	const json_t *q;
	json_array_foreach(reqs, i, q) /* a game twice: both are sent, the later stands */
		if (json_integer_value(json_object_get(q, "game")) == g)
			cli_errorf("td results: %s line %d: game %lld is given again (line %lld): the "
				   "later result stands", file, lineno, (long long)g,
				   (long long)json_integer_value(json_array_get(lines, i)));
	if (json_array_append_new(reqs, json_pack("{s:s, s:I, s:s, s:s?}", "cmd", "tournament.result",
						  "game", g, "result", result, "reason", reason)) < 0 ||
	    json_array_append_new(lines, json_integer(lineno)) < 0) {
		cli_errorf("out of memory");
		return -1;
	}
	return 0;
}

/* The line of the file the batch's request now answered came from (td_ctx.lines). */
static long long results_lineno(const struct cli_batch *b)
{
	const struct td_ctx *x = b->ctx;
	return json_integer_value(json_array_get(x->lines, b->next - 1));
}

static void print_result_line(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	printf("line %lld: ", results_lineno(b));
	print_result_set(b, req, reply);
}

static void print_result_refused(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	const json_t *err = json_object_get(reply, "error");
	cli_errorf("line %lld: game %lld: %s (%s)", results_lineno(b),
		   (long long)json_integer_value(json_object_get(req, "game")),
		   cli_str_or(err, "message", "(no message)"), cli_str_or(err, "code", "internal"));
}

/* td results FILE|-: every result of the file, each its own tournament.result; a malformed
 * line refuses the whole file before anything is sent. */
static int td_results(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_usage, NULL, 0, NULL, pos, 1, &npos);
	if (r != 0)
		return r;
	if (npos != 1) {
		cli_errorf("td results: give the FILE of results (- for stdin)");
		return -1;
	}
	bool std_in = strcmp(pos[0], "-") == 0;
	FILE *f = std_in ? stdin : fopen(pos[0], "r");
	if (!f) {
		cli_errorf("td results: %s: %s", pos[0], strerror(errno));
		return -1;
	}
	x->reqs = json_array();
	x->lines = json_array();
	x->print = print_result_line;
	x->print_error = print_result_refused;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, rc = x->reqs && x->lines ? 0 : -1;
	while (rc == 0 && getline(&line, &cap, f) >= 0)
		rc = results_line(line, ++lineno, std_in ? "stdin" : pos[0], x->reqs, x->lines);
	if (rc == 0 && ferror(f)) {
		cli_errorf("td results: %s: %s", pos[0], strerror(errno));
		rc = -1;
	}
	free(line);
	if (!std_in)
		fclose(f);
	if (rc == 0 && json_array_size(x->reqs) == 0) {
		cli_errorf("td results: no results in %s", std_in ? "stdin" : pos[0]);
		rc = -1;
	}
	return rc;
}

static int td_warn(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	const char *pos[3];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_usage, NULL, 0, NULL, pos, 3, &npos);
	if (r != 0)
		return r;
	json_int_t g;
	if (npos != 3) {
		cli_errorf("td warn: give the GAME, the colour (B or W) and the REASON");
		return -1;
	}
	if (cli_parse_id("GAME", pos[0], &g) != 0)
		return -1;
	const char *color = pos[1];
	if (!strcasecmp(color, "b") || !strcasecmp(color, "black"))
		color = "B";
	else if (!strcasecmp(color, "w") || !strcasecmp(color, "white"))
		color = "W";
	else {
		cli_errorf("td warn: the colour is B or W, not '%s'", pos[1]);
		return -1;
	}
	return td_one(x, json_pack("{s:s, s:I, s:s, s:s}", "cmd", "tournament.warn", "game", g,
				   "color", color, "reason", pos[2]),
		      print_warned);
}

/* pause, resume, show: one id argument. */
static int td_one_id(int argc, char **argv, struct cli_opts *o, struct td_ctx *x,
		     const char *what, const char *cmd, const char *field, cli_print_fn print)
{
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_usage, NULL, 0, NULL, pos, 1, &npos);
	if (r != 0)
		return r;
	json_int_t id;
	if (npos != 1) {
		cli_errorf("td %s: give the %s", argv[0], what);
		return -1;
	}
	if (strcmp(field, "tournament") == 0) { /* by number or by name */
		json_t *t;
		if (td_tournament_arg(pos[0], &t) != 0)
			return -1;
		return td_one(x, json_pack("{s:s, s:o}", "cmd", cmd, field, t), print);
	}
	if (cli_parse_id(what, pos[0], &id) != 0)
		return -1;
	return td_one(x, json_pack("{s:s, s:I}", "cmd", cmd, field, id), print);
}

static int td_export(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	static const struct cli_option opts[] = {{"--format", true}, {"-o", true},
						 {"--output", true}, {"--round", true}};
	const char *v[4] = {0};
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_usage, opts, 4, v, pos, 1, &npos);
	if (r != 0)
		return r;
	json_t *t;
	long round = 0;
	if (npos != 1 || !v[0]) {
		cli_errorf("td export: give the TOURNAMENT and --format h9|csv|json|html|sgf");
		return -1;
	}
	if (v[3] && parse_int("--round", v[3], 1, EVENT_MAX_ROUNDS, &round) != 0)
		return -1;
	if (td_tournament_arg(pos[0], &t) != 0)
		return -1;
	x->out_file = v[1] ? v[1] : v[2];
	if (strcmp(v[0], "sgf") == 0) { /* a file per game (client/td_sgf.c) */
		if (!x->out_file) {
			json_decref(t);
			cli_errorf("td export: --format sgf writes a file per game: give -o DIR");
			return -1;
		}
		x->sgf_dir = x->out_file;
		x->sgf_round = round;
		return td_one(x, json_pack("{s:s, s:o}", "cmd", "games", "tournament", t), NULL);
	}
	json_t *req = json_pack("{s:s, s:o, s:s}", "cmd", "tournament.export", "tournament", t,
				"format", v[0]);
	if (round) /* the table after that round (docs/protocol.md tournament.export) */
		json_object_set_new(req, "round", json_integer(round));
	return td_one(x, req, print_export);
}

static int td_list(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_usage, NULL, 0, NULL, pos, 0, &npos);
	if (r != 0)
		return r;
	return td_one(x, json_pack("{s:s}", "cmd", "tournament.list"), print_list);
}

static int td_enter(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	return td_register(argc, argv, o, x, false);
}

static int td_withdraw(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	return td_register(argc, argv, o, x, true);
}

static int td_pause(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	return td_one_id(argc, argv, o, x, "GAME", "game.pause", "game", print_clocks_reply);
}

static int td_resume(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	return td_one_id(argc, argv, o, x, "GAME", "game.resume", "game", print_clocks_reply);
}

static int td_team(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	json_t *req = NULL;
	cli_print_fn print = NULL;
	int r = td_team_parse(argc, argv, o, td_usage, &req, &print);
	return r != 0 ? r : td_one(x, req, print);
}

static int td_show(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	return td_one_id(argc, argv, o, x, "TOURNAMENT", "tournament.get", "tournament",
			 print_show);
}

static void print_crosstable(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)req;
	if (cli_print_crosstable(reply) < 0)
		b->failed = true;
}

static int td_crosstable(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	static const struct cli_option opts[] = {{"--round", true}};
	const char *v[1] = {0};
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_usage, opts, 1, v, pos, 1, &npos);
	if (r != 0)
		return r;
	json_t *t;
	long round = 0;
	if (npos != 1) {
		cli_errorf("td crosstable: give the TOURNAMENT");
		return -1;
	}
	if (v[0] && parse_int("--round", v[0], 1, 64, &round) != 0)
		return -1;
	if (td_tournament_arg(pos[0], &t) != 0)
		return -1;
	json_t *req = json_pack("{s:s, s:o, s:s}", "cmd", "tournament.export", "tournament", t,
				"format", "json");
	if (req && round)
		json_object_set_new(req, "round", json_integer(round));
	return td_one(x, req, print_crosstable);
}

/* The td subcommands: each parses its arguments (argv[0] its name) into a batch in x.
 * Returns 0, 1 after --help, -1 on a usage error (message printed). */
static const struct {
	const char *name;
	int (*parse)(int argc, char **argv, struct cli_opts *o, struct td_ctx *x);
} td_commands[] = {
	{"create", td_create}, {"register", td_enter}, {"withdraw", td_withdraw},
	{"start", td_start}, {"result", td_result}, {"results", td_results},
	{"warn", td_warn}, {"pause", td_pause},
	{"resume", td_resume}, {"export", td_export}, {"list", td_list}, {"show", td_show},
	{"set", td_set},
	{"enter", td_entrant}, {"import", td_import}, {"players", td_players},
	{"absent", td_absent}, {"pair", td_pair}, {"unpair", td_unpair}, {"profile", td_profile},
	{"crosstable", td_crosstable}, {"delete", td_delete},
	{"team", td_team},
};

int cmd_td(int argc, char **argv)
{
	struct cli_opts o = {0};
	struct td_ctx x = {0};
	/* Global options may come before the td subcommand too. */
	struct cli_args a;
	cli_args_init(&a, argc, argv, &o, NULL, 0);
	enum cli_token t;
	while ((t = cli_next(&a)) == CLI_GLOBAL)
		;
	if (t == CLI_MISSING)
		return CMD_EXIT_USAGE;
	if (t == CLI_END) {
		fputs(td_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	const char *sub = a.arg;
	if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
		fputs(td_usage, stdout);
		fputs(td_field_usage, stdout);
		return CMD_EXIT_OK;
	}
	for (size_t k = 0; k < sizeof td_commands / sizeof td_commands[0]; k++) {
		if (strcmp(sub, td_commands[k].name) != 0)
			continue;
		int r = td_commands[k].parse(argc - a.at, argv + a.at, &o, &x);
		if (r != 0) {
			json_decref(x.reqs);
			json_decref(x.lines);
			return r > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
		}
		r = td_resolve_tournaments(&o, x.reqs); /* names given for tournaments */
		if (r != CMD_EXIT_OK) {
			json_decref(x.reqs);
			json_decref(x.lines);
			return r;
		}
		if (x.sgf_dir) {
			json_t *t = json_object_get(json_array_get(x.reqs, 0), "tournament");
			r = td_sgf_run(&o, json_integer_value(t), x.sgf_round, x.sgf_dir);
			json_decref(x.reqs);
			return r;
		}
		r = cli_run_batch_each(&o, true, x.reqs, x.print, x.print_error, &x);
		json_decref(x.lines);
		return r;
	}
	cli_errorf("td: unknown command '%s'", sub);
	fputs(td_usage, stderr);
	return CMD_EXIT_USAGE;
}
