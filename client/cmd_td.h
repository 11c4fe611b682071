/* client/cmd_td: `tengen td ...`, the tournament director's commands (issue 6). They need a
 * login (--user NAME with --password-file F or TENGEN_PASSWORD) as a player of role td or
 * admin (`tengend grant NAME td --db DB`). Global options as in cmd_call.h.
 */
#ifndef TENGEN_CMD_TD_H
#define TENGEN_CMD_TD_H

#define TD_TIME_SPEC_MAX 64 /* bytes of a --time value */

/* tengen td SUBCOMMAND ... (argv[0] is "td"); the usage text lists the subcommands. Returns
 * CMD_EXIT_OK, CMD_EXIT_FAILURE (unreachable server, refused login, an error reply) or
 * CMD_EXIT_USAGE. */
int cmd_td(int argc, char **argv);

#endif
