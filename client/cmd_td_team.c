/* client/cmd_td_team: `tengen td team ...` and the team printers. See cmd_td_team.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_print.h"
#include "cmd_td_team.h"
#include "td.h"

#define TD_TEAM_MAX_POS 32 /* positional arguments: T, NAME (or TEAM, ROUND) and the players */

static void print_team_created(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)req;
	printf("team %lld: %s\n", (long long)json_integer_value(json_object_get(reply, "team")),
	       cli_str_or(reply, "name", "?"));
}

static void print_lineup(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)reply;
	printf("lineup of %s for round %lld named\n", cli_str_or(req, "team", "?"),
	       (long long)json_integer_value(json_object_get(req, "round")));
}

/* The names pos[from..n-1] as a JSON array. */
static json_t *names_of(const char **pos, int from, int n)
{
	json_t *a = json_array();
	for (int k = from; a && k < n; k++)
		json_array_append_new(a, json_string(pos[k]));
	return a;
}

int td_team_parse(int argc, char **argv, struct cli_opts *o, const char *usage, json_t **req,
		  cli_print_fn *print)
{
	static const struct cli_option opts[] = {{"--reserves", true}};
	const char *v[1] = {0};
	const char *pos[TD_TEAM_MAX_POS];
	int npos;
	int r = cli_parse_args(argc, argv, o, usage, opts, 1, v, pos, TD_TEAM_MAX_POS, &npos);
	if (r != 0)
		return r;
	json_t *t = NULL;
	bool create = npos >= 1 && strcmp(pos[0], "create") == 0;
	bool lineup = npos >= 1 && strcmp(pos[0], "lineup") == 0;
	if ((!create && !lineup) || (create && npos < 4) || (lineup && npos < 5)) {
		cli_errorf("td team: create T NAME PLAYER... or lineup T TEAM ROUND PLAYER...");
		return -1;
	}
	if (lineup && v[0]) {
		cli_errorf("td team lineup: --reserves is for td team create");
		return -1;
	}
	if (td_tournament_arg(pos[1], &t) != 0) /* a number, or a name looked up before sending */
		return -1;
	if (create) {
		*req = json_pack("{s:s, s:o, s:s, s:o}", "cmd", "team.create", "tournament", t, "name",
				 pos[2], "players", names_of(pos, 3, npos));
		if (*req && v[0]) {
			json_t *res = json_array();
			char *copy = strdup(v[0]), *save = NULL;
			for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
			     tok = strtok_r(NULL, ",", &save))
				json_array_append_new(res, json_string(tok));
			free(copy);
			json_object_set_new(*req, "reserves", res);
		}
		*print = print_team_created;
	} else {
		json_int_t round;
		if (cli_parse_id("ROUND", pos[3], &round) != 0) {
			json_decref(t);
			return -1;
		}
		*req = json_pack("{s:s, s:o, s:s, s:I, s:o}", "cmd", "team.lineup", "tournament", t,
				 "team", pos[2], "round", round, "players", names_of(pos, 4, npos));
		*print = print_lineup;
	}
	if (!*req) {
		cli_errorf("out of memory");
		return -1;
	}
	return 0;
}

bool td_team_is_pairings(const json_t *reply)
{
	return json_object_get(json_array_get(json_object_get(reply, "pairings"), 0), "home") != NULL;
}

void td_team_print_pairings(const json_t *reply)
{
	printf("Tournament %lld, round %lld\n",
	       (long long)json_integer_value(json_object_get(reply, "tournament")),
	       (long long)json_integer_value(json_object_get(reply, "round")));
	size_t i, k;
	const json_t *m, *g;
	json_array_foreach(json_object_get(reply, "pairings"), i, m) {
		printf("Match %lld: %s (home) v %s\n",
		       (long long)json_integer_value(json_object_get(m, "match")),
		       cli_str_or(m, "home", "?"), cli_str_or(m, "away", "?"));
		json_array_foreach(json_object_get(m, "games"), k, g) {
			const json_t *id = json_object_get(g, "game");
			printf("  board %lld  ", (long long)json_integer_value(json_object_get(g, "board")));
			if (json_is_integer(id))
				printf("game %-6lld %-*s (B) v %-*s (W) %s\n",
				       (long long)json_integer_value(id),
				       cli_width(cli_str_or(g, "black", "?"), 20), cli_str_or(g, "black", "?"),
				       cli_width(cli_str_or(g, "white", "?"), 20), cli_str_or(g, "white", "?"),
				       cli_pairing_result(g));
			else
				printf("no game: forfeited by %s\n", cli_str_or(g, "forfeit", "?"));
		}
	}
	const json_t *byes = json_object_get(reply, "byes");
	json_array_foreach(byes, i, g)
		printf("Bye: %s\n", json_string_value(g));
}

bool td_team_is_standings(const json_t *reply)
{
	return json_object_get(json_array_get(json_object_get(reply, "standings"), 0), "team") != NULL;
}

void td_team_print_standings(const json_t *reply)
{
	const json_t *rows = json_object_get(reply, "standings");
	printf("Tournament %lld, after round %lld (match points, Art. 27.2)\n",
	       (long long)json_integer_value(json_object_get(reply, "tournament")),
	       (long long)json_integer_value(json_object_get(reply, "round")));
	printf("%5s  %-20s %4s %4s %4s %4s %4s %4s  %s\n", "Place", "Team", "MP", "BP", "SOS", "W",
	       "D", "L", "Boards");
	size_t i, k;
	const json_t *row, *b;
	json_array_foreach(rows, i, row) {
		printf("%5lld  %-*s %4lld %4lld %4lld %4lld %4lld %4lld ",
		       (long long)json_integer_value(json_object_get(row, "rank")),
		       cli_width(cli_str_or(row, "team", "?"), 20), cli_str_or(row, "team", "?"),
		       (long long)json_integer_value(json_object_get(row, "match_points")),
		       (long long)json_integer_value(json_object_get(row, "board_points")),
		       (long long)json_integer_value(json_object_get(row, "sos")),
		       (long long)json_integer_value(json_object_get(row, "won")),
		       (long long)json_integer_value(json_object_get(row, "drawn")),
		       (long long)json_integer_value(json_object_get(row, "lost")));
		json_array_foreach(json_object_get(row, "boards"), k, b)
			printf(" %lld", (long long)json_integer_value(b));
		putchar('\n');
	}
	puts("MP: match points (2 a match won, 1 drawn); BP: board points (2 a game won, 1 drawn).");
}
