/* commands: every subcommand of `tengen`, as main()'s table dispatches to them.
 *
 * Each is int cmd_NAME(int argc, char **argv) with argv[0] its own name (main() passes the
 * arguments after the command's name; `tengen help NAME` runs it as NAME --help). It parses
 * its arguments with cli.h's parser, writes its result on stdout and its errors on stderr
 * prefixed "tengen: ", and returns the process exit status: CMD_EXIT_OK, CMD_EXIT_FAILURE (the
 * work failed: unreadable file, malformed record, unreachable server, refused login, an error
 * reply) or CMD_EXIT_USAGE (bad command line). The commands that talk to tengend take the
 * global options of cli.h (--server, --user, --password-file, --json).
 */
#ifndef TENGEN_COMMANDS_H
#define TENGEN_COMMANDS_H

#include "cli.h"

/* ---- offline: game records (cmd_score.c) ----
 *
 * Both read one SGF game record (FF[4], main line only; see common/sgf.h) from a file ("-" is
 * standard input) and replay every move node through the referee (common/referee.h,
 * docs/rules.md §1 and §3), so illegal moves, moves out of turn and warnings are judged
 * exactly as the server judges them. They take no global options. */

/* tengen score FILE.sgf [--dead V,V,...] [--komi K] [--ko situational|positional|simple]
 *                       [--counting area|all-alive]
 *
 * Replays the record and prints one JSON object on stdout:
 *   {"result": "B+1.5",            SGF result (area counting, or the referee's own verdict)
 *    "reason": "score",            how it was reached: "score", or the referee's end reason
 *                                  ("warnings", "illegal", "cycle") when it ended the game
 *    "stones": "B+¾",              margin in stones (score_result_stones); null unless counted
 *    "score": {"black", "white", "komi"}, area of each side and the komi in force
 *                                  (KM, handicap compensation included) in points, counted on
 *                                  the board where the replay stopped, warnings applied
 *                                  (Art. 9, 11, 24.1)
 *    "moves": 12,                  number of move nodes in the record
 *    "recorded_result": "B+R",     the record's RE[] or null
 *    "illegal": [{"number", "color", "vertex", "reason"}]}  every move the referee refused:
 *                                  number counts move nodes from 1 (passes included), vertex
 *                                  is GTP ("D4", "pass"), reason the offence name (occupied,
 *                                  suicide, superko, not_your_turn)
 * Komi is the record's KM unless --komi (points): the komi in force, handicap compensation
 * included, as tengend writes KM (score_effective_komi) and GNU Go reads it (HA adds nothing to
 * the count). --dead names stones (GTP vertices; any stone marks its chain) counted dead with
 * `--counting area` (the default); `all-alive` counts every stone alive (Tromp-Taylor) and
 * ignores --dead. The option --dead may be repeated. */
int cmd_score(int argc, char **argv);

/* tengen replay FILE.sgf [--ko situational|positional|simple]
 *
 * Replays the record and prints the final board, GTP style: column letters above and below,
 * row numbers left and right, 'X' Black, 'O' White, '.' empty; then one line
 * "Captures: Black N, White M. Black to move." and, if the referee ended the game during the
 * replay, a line "Result: W+F (warnings)". */
int cmd_replay(int argc, char **argv);

/* ---- players and scripts (cmd_call.c, cmd_query.c, cmd_watch.c) ---- */

/* tengen call CMD [key=value ...] | call -   (raw requests; replies as JSON lines) */
int cmd_call(int argc, char **argv);
/* tengen register [--rank RANK]   (--user NAME and the password name the new account) */
int cmd_register(int argc, char **argv);
/* tengen standings TOURNAMENT [--round N] */
int cmd_standings(int argc, char **argv);
/* tengen pairings TOURNAMENT [ROUND] */
int cmd_pairings(int argc, char **argv);
/* tengen games [--mine] [--phase P] [--player NAME] [--tournament T] [--limit N]
 *              (--mine: the games of the --user) */
int cmd_games(int argc, char **argv);
/* tengen sgf GAME   (prints the SGF text) */
int cmd_sgf(int argc, char **argv);
/* tengen watch GAME   (observe: the board after each move with the last move marked, the
 * captures, both clocks (counting on a terminal), warnings and claims, until the result;
 * reconnects when the connection drops; --json: the observe reply and the events, or the game
 * object of a game that is over) */
int cmd_watch(int argc, char **argv);

/* tengen predict GAME COLOR+MARGIN   (cmd_predict.c: a sealed prediction, seed 000's rules:
 * "W+7", "B+2.5"; prints "Prediction sealed in game N.") */
int cmd_predict(int argc, char **argv);
/* ---- playing (cmd_play.c) ----
 *
 * Each needs a login (--user) except players; prints one line a person reads, or with --json
 * the server's reply object; reports an error once on stderr; exits CMD_EXIT_REFUSED when the
 * server (or the client, seeing it is not your turn) refuses. */
/* tengen challenge NAME [--size N] [--komi K] [--handicap H] [--time SPEC]
 *                  [--color black|white|nigiri] [--rated yes|no] [--ruleset R]
 *                  [--rules K=V,...] [--expires S] */
int cmd_challenge(int argc, char **argv);
/* tengen accept GAME | decline GAME | resign GAME */
int cmd_accept(int argc, char **argv);
int cmd_decline(int argc, char **argv);
int cmd_resign(int argc, char **argv);
/* tengen play GAME VERTEX [--number N] | pass GAME [--number N]: the move number is read from
 * the game (a `game` request) and sent as `number`, after checking it is the user's turn, so
 * running the command twice cannot play twice. A pass that opens counting (or ends the game)
 * says so (a second `game` request). */
int cmd_play(int argc, char **argv);
int cmd_pass(int argc, char **argv);
/* tengen dead GAME [VERTEX...]   (no vertex: every stone alive) */
int cmd_dead(int argc, char **argv);
/* tengen players [--sort KEY] [--limit N]   (the leaderboard) */
int cmd_players(int argc, char **argv);

/* ---- the tournament director (cmd_td.c) ----
 *
 * tengen td SUBCOMMAND ... (argv[0] is "td"); the usage text lists the subcommands. They need
 * a login (--user NAME with --password-file F or TENGEN_PASSWORD) as a player of role td or
 * admin (`tengend grant NAME td --db DB`). */
int cmd_td(int argc, char **argv);

/* ---- bots (cmd_gtp.c and gtp_*.c; gtp.h) ----
 *
 * tengen gtp [--server H:P] [--user NAME] [--password-file F]
 *            [--accept any|rated|from=NAME,...] [--max-games N] [--engine-stderr]
 *            -- ENGINE ARGS...
 * A GTP engine (GNU Go, KataGo, ...) plays on the server as the bot account NAME. Returns
 * CMD_EXIT_OK after SIGINT/SIGTERM, CMD_EXIT_LOGIN (login refused), CMD_EXIT_FAILURE (no
 * password, engine cannot start) or CMD_EXIT_USAGE. */
int cmd_gtp(int argc, char **argv);

#endif
