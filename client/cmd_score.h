/* client/cmd_score: the `tengen score` and `tengen replay` subcommands.
 *
 * Both read one SGF game record (FF[4], main line only; see common/sgf.h) from a file ("-" is
 * standard input) and replay every move node through the referee (common/referee.h, docs/rules.md
 * §1 and §3), so illegal moves, moves out of turn and warnings are judged exactly as the
 * server judges them.
 *
 * Each subcommand takes its arguments as main() does: argv[0] is the subcommand's name, then
 * its options and operands. It writes its result on stdout, its errors on stderr prefixed
 * "tengen: ", and returns the process exit status (CMD_EXIT_*).
 */
#ifndef TENGEN_CMD_SCORE_H
#define TENGEN_CMD_SCORE_H

/* Exit statuses shared by every subcommand of the client. */
#define CMD_EXIT_OK 0      /* success */
#define CMD_EXIT_FAILURE 1 /* the work failed: unreadable file, malformed record, ... */
#define CMD_EXIT_USAGE 2   /* bad command line: unknown option, bad option value */

/* tengen score FILE.sgf [--dead V,V,...] [--komi K] [--ko situational|positional|simple]
 *                       [--counting area|all-alive]
 *
 * Replays the record and prints one JSON object on stdout:
 *   {"result": "B+1.5",            SGF result (area counting, or the referee's own verdict)
 *    "reason": "score",            how it was reached: "score", or the referee's end reason
 *                                  ("warnings", "illegal", "cycle") when it ended the game
 *    "stones": "B+¾",              margin in stones (score_result_stones); null unless counted
 *    "score": {"black", "white", "komi"}, area of each side and the komi in force
 *                                  (KM, handicap compensation included) in points, counted on the board where the
 *                                  replay stopped, warnings applied (Art. 9, 11, 24.1)
 *    "moves": 12,                  number of move nodes in the record
 *    "recorded_result": "B+R",     the record's RE[] or null
 *    "illegal": [{"number", "color", "vertex", "reason"}]}  every move the referee refused:
 *                                  number counts move nodes from 1 (passes included), vertex
 *                                  is GTP ("D4", "pass"), reason the offence name (occupied,
 *                                  suicide, superko, not_your_turn)
 * Komi is the record's KM unless --komi (points): the komi in force, handicap compensation
 * included, as tengend writes KM (score_effective_komi) and GNU Go reads it (HA adds nothing to
 * the count). --dead names stones (GTP vertices; any stone
 * marks its chain) counted dead with `--counting area` (the default); `all-alive` counts every
 * stone alive (Tromp-Taylor) and ignores --dead. The option --dead may be repeated. */
int cmd_score(int argc, char **argv);

/* tengen replay FILE.sgf [--ko situational|positional|simple]
 *
 * Replays the record and prints the final board, GTP style: column letters above and below,
 * row numbers left and right, 'X' Black, 'O' White, '.' empty; then one line
 * "Captures: Black N, White M. Black to move." and, if the referee ended the game during the
 * replay, a line "Result: W+F (warnings)". */
int cmd_replay(int argc, char **argv);

#endif
