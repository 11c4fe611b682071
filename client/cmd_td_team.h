/* client/cmd_td_team: `tengen td team ...` (team.create, team.lineup) and the printers of a
 * team event's pairings and standings (docs/teams.md; docs/protocol.md "Teams and matches"). */
#ifndef TENGEN_CMD_TD_TEAM_H
#define TENGEN_CMD_TD_TEAM_H

#include <stdbool.h>
#include <jansson.h>

#include "cli.h"
#include "cli_run.h"

/* The usage lines of td team (part of td's usage text). */
#define TD_TEAM_USAGE \
	"  td team create T NAME PLAYER... [--reserves A,B]\n" \
	"                                        a team of a team event, its players in board\n" \
	"                                        order (the first is the captain)\n" \
	"  td team lineup T TEAM ROUND PLAYER... the team's players for a round (lineup per_round;\n" \
	"                                        td or the captain)\n"

/* Parse `td team create|lineup ...` (argv[0] "team") into one request (*req) and its printer
 * (*print). Returns 0, 1 after --help, -1 on a usage error (message printed). */
int td_team_parse(int argc, char **argv, struct cli_opts *o, const char *usage, json_t **req,
		  cli_print_fn *print);

/* Is this pairings reply (start_round or tournament.pairings) a team event's? */
bool td_team_is_pairings(const json_t *reply);
/* Print a team event's matches: each match, then its boards (game, Black, White, result). */
void td_team_print_pairings(const json_t *reply);
/* Is this standings reply a team event's (rows with "team")? */
bool td_team_is_standings(const json_t *reply);
/* Print a team event's standings: rank, team, match points, board points, per board, SOS. */
void td_team_print_standings(const json_t *reply);

#endif
