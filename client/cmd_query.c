/* client/cmd_query: register, and the one-request queries standings, pairings, games and sgf.
 * See commands.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_print.h"
#include "cli_run.h"
#include "cmd_td_team.h"
#include "commands.h"
#include "td.h"

/* ---- register ---- */

static const char register_usage[] =
	"usage: tengen [--server HOST:PORT] --user NAME [--password-file F] register [--rank RANK]\n"
	"Create the account NAME with the password from --password-file (first line) or\n"
	"TENGEN_PASSWORD (at least 8 bytes). --rank declares a rank (30k..1k, 1d..9d, e.g. 3k)\n"
	"that the rating starts from. Does not log in.\n";

static void register_print(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)req;
	const json_t *p = json_object_get(reply, "player");
	const char *rank = json_string_value(json_object_get(p, "declared_rank"));
	printf("registered %s (rating %.0f%s%s)\n", cli_str_or(p, "name", b->opt->user),
	       json_number_value(json_object_get(p, "rating")), rank ? ", rank " : "",
	       rank ? rank : "");
}

int cmd_register(int argc, char **argv)
{
	struct cli_opts o = {0};
	const char *rank = NULL;
	static const struct cli_option opts[] = {{"--rank", true}};
	struct cli_args a;
	cli_args_init(&a, argc, argv, &o, opts, 1);
	for (enum cli_token t; (t = cli_next(&a)) != CLI_END;) {
		if (t == CLI_GLOBAL)
			continue;
		if (t == CLI_OPTION) {
			rank = a.value;
			continue;
		}
		if (t == CLI_MISSING)
			return CMD_EXIT_USAGE;
		if (t == CLI_HELP) {
			fputs(register_usage, stdout);
			return CMD_EXIT_OK;
		}
		cli_errorf("register: unexpected argument '%s'", a.arg);
		fputs(register_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	if (!o.user) {
		cli_errorf("register: name the new account with --user NAME");
		fputs(register_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	char *password = session_password(o.password_file);
	if (!password) {
		if (o.password_file)
			return CMD_EXIT_FAILURE; /* unreadable or empty: said */
		cli_errorf("register: no password: use --password-file F or set TENGEN_PASSWORD");
		return CMD_EXIT_USAGE;
	}
	json_t *req = json_pack("{s:s, s:s, s:s, s:s?}", "cmd", "register", "name", o.user,
				"password", password, "rank", rank);
	memset(password, 0, strlen(password));
	free(password);
	/* not logged in: the account does not exist yet */
	return cli_run_batch(&o, false, cli_batch_of(req), register_print, NULL);
}

/* ---- simple queries: one request, one printer ---- */

/* Run one query (req consumed; NULL: out of memory); login only when --user was given. */
static int run_query(const struct cli_opts *o, json_t *req, cli_print_fn print)
{
	return cli_run_batch(o, o->user != NULL, cli_batch_of(req), print, NULL);
}

/* Run a query about one tournament: its "tournament" given by name (td_tournament_arg) is
 * resolved to the id first, as td's commands do (td_resolve_tournaments). req consumed. */
static int run_tournament_query(const struct cli_opts *o, json_t *req, cli_print_fn print)
{
	json_t *reqs = json_array();
	int st = !req || !reqs || json_array_append(reqs, req) != 0 ? CMD_EXIT_FAILURE
		: td_resolve_tournaments(o, reqs);
	if (st != CMD_EXIT_OK) {
		json_decref(reqs);
		json_decref(req);
		return st;
	}
	json_decref(reqs);
	return run_query(o, req, print);
}

/* ---- standings ---- */

static const char standings_usage[] =
	"usage: tengen [GLOBAL OPTIONS] standings TOURNAMENT [--round N] [--json]\n"
	"Print a tournament's standings (after round N; default the latest). TOURNAMENT: its number\n"
	"or its name.\n";

static void standings_print(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)req;
	if (td_team_is_standings(reply)) {
		td_team_print_standings(reply);
		return;
	}
	const json_t *rows = json_object_get(reply, "standings");
	const json_t *first = json_object_get(json_array_get(rows, 0), "tiebreaks");
	printf("Tournament %lld, after round %lld (score %s)\n",
	       (long long)json_integer_value(json_object_get(reply, "tournament")),
	       (long long)json_integer_value(json_object_get(reply, "round")),
	       cli_str_or(reply, "score", "PTS"));
	/* "Place" as in the CSV: "Rank" is the Go rank in the cross-table and the exports */
	printf("%5s  %-20s %6s %4s %4s %4s %4s %4s", "Place", "Player", "Score", "W", "D", "L", "Bye",
	       "Warn");
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)first, key, v)
		if (strcmp(key, "WARN") != 0) /* the Warn column shows it */
			printf(" %7s", key);
	putchar('\n');
	size_t i;
	const json_t *row;
	json_array_foreach(rows, i, row) {
		const char *who = cli_str_or(row, "player", "?");
		printf("%5lld  %-*s %6g %4lld %4lld %4lld %4lld %4lld",
		       (long long)json_integer_value(json_object_get(row, "rank")),
		       cli_width(who, 20), who,
		       json_number_value(json_object_get(row, "score")),
		       (long long)json_integer_value(json_object_get(row, "wins")),
		       (long long)json_integer_value(json_object_get(row, "draws")),
		       (long long)json_integer_value(json_object_get(row, "losses")),
		       (long long)json_integer_value(json_object_get(row, "byes")),
		       (long long)json_integer_value(json_object_get(row, "warnings")));
		json_object_foreach(json_object_get(row, "tiebreaks"), key, v)
			if (strcmp(key, "WARN") != 0)
				printf(" %7g", json_number_value(v));
		long long wd = (long long)json_integer_value(json_object_get(row, "withdrawn_after"));
		if (wd > 0)
			printf("  (withdrawn after round %lld)", wd);
		putchar('\n');
	}
	if (json_array_size(rows) == 0)
		puts("(no players)");
	else if (strcmp(cli_str_or(reply, "score", "PTS"), "PTS") == 0)
		puts("Score: 2 points a win, 1 a draw, 0 a loss (Chinese Rules 2002, Art. 27.1).");
}

int cmd_standings(int argc, char **argv)
{
	struct cli_opts o = {0};
	static const struct cli_option opts[] = {{"--round", true}};
	const char *values[1] = {NULL};
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, &o, standings_usage, opts, 1, values, pos, 1, &npos);
	if (r != 0)
		return r > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	json_int_t round = 0;
	json_t *t;
	if (npos != 1) {
		fputs(standings_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	if (values[0] && cli_parse_id("--round", values[0], &round) != 0)
		return CMD_EXIT_USAGE;
	if (td_tournament_arg(pos[0], &t) != 0)
		return CMD_EXIT_USAGE;
	json_t *req = json_pack("{s:s, s:o}", "cmd", "tournament.standings", "tournament", t);
	if (req && round)
		json_object_set_new(req, "round", json_integer(round));
	return run_tournament_query(&o, req, standings_print);
}

/* ---- pairings ---- */

static const char pairings_usage[] =
	"usage: tengen [GLOBAL OPTIONS] pairings TOURNAMENT [ROUND] [--json]\n"
	"Print a round's pairings (default the current round): game, Black, White, result.\n"
	"TOURNAMENT: its number or its name.\n";

static void pairings_print(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)req;
	if (td_team_is_pairings(reply))
		td_team_print_pairings(reply);
	else
		cli_print_pairings(reply);
}

int cmd_pairings(int argc, char **argv)
{
	struct cli_opts o = {0};
	const char *pos[2];
	int npos;
	int r = cli_parse_args(argc, argv, &o, pairings_usage, NULL, 0, NULL, pos, 2, &npos);
	if (r != 0)
		return r > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	json_int_t round = 0;
	json_t *t;
	if (npos < 1) {
		fputs(pairings_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	if (npos > 1 && cli_parse_id("ROUND", pos[1], &round) != 0)
		return CMD_EXIT_USAGE;
	if (td_tournament_arg(pos[0], &t) != 0)
		return CMD_EXIT_USAGE;
	json_t *req = json_pack("{s:s, s:o}", "cmd", "tournament.pairings", "tournament", t);
	if (req && round)
		json_object_set_new(req, "round", json_integer(round));
	return run_tournament_query(&o, req, pairings_print);
}

/* ---- games ---- */

static const char games_usage[] =
	"usage: tengen [GLOBAL OPTIONS] games [--mine] [--phase pending|scheduled|playing|counting|ended]\n"
	"                                     [--player NAME] [--tournament T] [--limit N]\n"
	"                                     [--before ID] [--json]\n"
	"List games, newest first: a page of N (default 100) with ids below ID (default all);\n"
	"--mine: the games of the --user (challenges waiting: --mine --phase pending);\n"
	"--tournament T: a tournament's games, T its number or its name;\n"
	"Komi is the komi counted with: with n >= 2 handicap stones, the komi plus n (docs/rules.md,\n"
	"Art. 11), as the SGF's KM; '-' for none yet (a prediction game before its predictions);\n"
	"a prediction game in its opening or predictions lists its first and second player as\n"
	"NAME (1st) and NAME (2nd), not colours;\n"
	"when more are left, the last line gives the --before of the next page.\n";

static void games_print(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)req;
	const json_t *games = json_object_get(reply, "games");
	printf("%6s  %-16s %-16s %5s %5s  %-9s %-10s %s\n", "Game", "Black", "White", "Size", "Komi",
	       "Phase", "Result", "Tournament");
	size_t i;
	const json_t *g;
	bool nigiri = false, roles = false, undecided = false;
	json_array_foreach(games, i, g) {
		char tour[48] = "-", phase[24], bbuf[96], wbuf[96], kbuf[16];
		/* a pending challenge by nigiri names challenger and challenged, not colours yet */
		bool n = json_is_true(json_object_get(g, "nigiri"));
		nigiri |= n;
		/* seed 000 (docs/protocol.md "Prediction ruleset"): the predictions decide the
		 * colours. In the opening and predictions the listing names the first and second
		 * player (black and white null); a challenge, a game not begun or one called off
		 * before play lists its players in the colour columns: marked, not read as colours */
		const char *ph = cli_str_or(g, "phase", "?"), *why = cli_str_or(g, "reason", NULL);
		const char *first = cli_str_or(g, "first", NULL), *second = cli_str_or(g, "second", NULL);
		bool u = strcmp(cli_str_or(g, "ruleset", ""), "prediction") == 0 && !first &&
			 (strcmp(ph, "pending") == 0 || strcmp(ph, "scheduled") == 0 ||
			  (strcmp(ph, "ended") == 0 && !cli_str_or(g, "result", NULL) && why &&
			   (strcmp(why, "declined") == 0 || strcmp(why, "expired") == 0)));
		undecided |= u;
		roles |= first != NULL;
		snprintf(phase, sizeof phase, "%s%s", ph, n ? "*" : u ? "#" : "");
		const json_t *t = json_object_get(g, "tournament");
		if (json_is_integer(t))
			snprintf(tour, sizeof tour, "%lld round %lld", (long long)json_integer_value(t),
				 (long long)json_integer_value(json_object_get(g, "round")));
		const char *bn = cli_str_or(g, "black", "?"), *wn = cli_str_or(g, "white", "?");
		if (first && second) {
			snprintf(bbuf, sizeof bbuf, "%s (1st)", first);
			snprintf(wbuf, sizeof wbuf, "%s (2nd)", second);
			bn = bbuf;
			wn = wbuf;
		}
		/* an ended game without a result says why: a challenge declined or expired, a
		 * tournament game called off (its round taken back: reason declined) */
		const char *res = cli_str_or(g, "result", NULL);
		if (!res && why)
			res = json_is_integer(t) && strcmp(why, "declined") == 0 ? "called off" : why;
		/* Void is a double loss or a void game (as if never paired): their reasons differ */
		if (res && why && strcmp(res, "Void") == 0 && strcmp(why, "double_forfeit") == 0)
			res = "dbl loss";
		/* widths in characters: "Dvořák Tomáš" is 12 wide in 14 bytes */
		/* the komi counted with, as the server gives it (handicap compensation included);
		 * none (null) before a prediction game's bar, nor for one whose colours are not
		 * decided: "-" (it printed 0) */
		const json_t *k = json_object_get(g, "effective_komi");
		if (json_is_number(k) && !u)
			snprintf(kbuf, sizeof kbuf, "%g", json_number_value(k));
		else
			snprintf(kbuf, sizeof kbuf, "-");
		printf("%6lld  %-*s %-*s %5lld %5s  %-9s %-10s %s\n",
		       (long long)json_integer_value(json_object_get(g, "id")), cli_width(bn, 16), bn,
		       cli_width(wn, 16), wn, (long long)json_integer_value(json_object_get(g, "size")),
		       kbuf, phase, res ? res : "-", tour);
	}
	if (nigiri)
		puts("* colours by nigiri at accept (never drawn, for a challenge declined or "
		     "lapsed): Black and White are challenger and challenged");
	if (undecided)
		puts("# prediction rules, colours not decided (the predictions decide them): Black "
		     "and White list the players, not colours");
	if (roles)
		puts("(1st), (2nd): a prediction game's first and second player, before the "
		     "predictions decide the colours");
	if (json_array_size(games) == 0)
		puts("(no games)");
	const json_t *next = json_object_get(reply, "next");
	if (json_is_integer(next))
		printf("Next page: --before %lld\n", (long long)json_integer_value(next));
}

int cmd_games(int argc, char **argv)
{
	struct cli_opts o = {0};
	static const struct cli_option opts[] = {{"--phase", true}, {"--player", true},
						 {"--tournament", true}, {"--limit", true},
						 {"--before", true}, {"--mine", false}};
	const char *values[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, &o, games_usage, opts, 6, values, pos, 0, &npos);
	if (r != 0)
		return r > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	if (values[5]) { /* --mine: the logged-in player's games */
		if (!o.user || values[1]) {
			cli_errorf("games: --mine needs --user NAME (and no --player)");
			return CMD_EXIT_USAGE;
		}
		values[1] = o.user;
	}
	json_int_t limit = 0, before = 0;
	json_t *t = NULL; /* a tournament's number or name, as standings takes it */
	if ((values[3] && cli_parse_id("--limit", values[3], &limit) != 0) ||
	    (values[4] && cli_parse_id("--before", values[4], &before) != 0) ||
	    (values[2] && td_tournament_arg(values[2], &t) != 0))
		return CMD_EXIT_USAGE;
	json_t *req = json_pack("{s:s, s:s?, s:s?}", "cmd", "games", "phase", values[0], "player",
				values[1]);
	if (req && t)
		json_object_set_new(req, "tournament", t);
	else
		json_decref(t);
	if (req && limit)
		json_object_set_new(req, "limit", json_integer(limit));
	if (req && before)
		json_object_set_new(req, "before", json_integer(before));
	return values[2] ? run_tournament_query(&o, req, games_print) : run_query(&o, req, games_print);
}

/* ---- sgf ---- */

static const char sgf_usage[] =
	"usage: tengen [GLOBAL OPTIONS] sgf GAME [--json]\n"
	"Print a game's record (SGF FF[4]), live or ended.\n";

static void sgf_print(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)req;
	const char *sgf = cli_str_or(reply, "sgf", "");
	fputs(sgf, stdout);
	size_t n = strlen(sgf);
	if (n == 0 || sgf[n - 1] != '\n')
		putchar('\n');
}

int cmd_sgf(int argc, char **argv)
{
	struct cli_opts o = {0};
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, &o, sgf_usage, NULL, 0, NULL, pos, 1, &npos);
	if (r != 0)
		return r > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	json_int_t g;
	if (npos != 1) {
		fputs(sgf_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	if (cli_parse_id("GAME", pos[0], &g) != 0)
		return CMD_EXIT_USAGE;
	return run_query(&o, json_pack("{s:s, s:I}", "cmd", "sgf", "game", g), sgf_print);
}

