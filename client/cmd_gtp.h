/* cmd_gtp: `tengen gtp`, the bridge that lets a GTP engine (GNU Go, KataGo, ...) play on a
 * tengen server as a bot account (issue 6; wire contract: docs/protocol.md).
 *
 *   tengen gtp [--server H:P] [--user NAME] [--password-file F]
 *              [--accept any|rated|from=NAME,...] [--max-games N] [--engine-stderr]
 *              -- ENGINE ARGS...
 *
 * It logs in (password: --password-file, else TENGEN_PASSWORD), accepts challenges by its
 * policy while fewer than --max-games games are live, joins its scheduled tournament games at
 * their start, and plays each game through its own engine process (client/engine.h): setup
 * (boardsize, clear_board, komi, set_free_handicap, time_settings / kgs-time_settings), the
 * moves replayed with `play`, `time_left` + `genmove` on its turn, `final_status_list dead`
 * in the counting phase. After a dropped connection the session reconnects and each game is
 * resynced from the server's `game` object; moves are sent with their `number`, so none is
 * ever played twice. An engine that dies is reported on stderr and its game resigned.
 * One line per notable thing goes to stderr.
 */
#ifndef TENGEN_CMD_GTP_H
#define TENGEN_CMD_GTP_H

#define GTP_MAX_GAMES_DEFAULT 4  /* --max-games: live games at once (challenges beyond: declined) */
#define GTP_MAX_GAMES_LIMIT 256
#define GTP_ACCEPT_NAMES_MAX 64  /* names in --accept from=... */
#define GTP_PROBE_TIMEOUT_MS 60000 /* the engine's first answers at start (a big network may
				    * take a while to load) */
#define GTP_AGREE_AFTER_COUNTINGS 2 /* from the 3rd counting phase of a game on, agree with the
				     * opponent's dead stones so that two engines that disagree
				     * cannot loop forever */

/* Run `tengen gtp` (argv[0] is "gtp"). Returns CMD_EXIT_OK after SIGINT/SIGTERM,
 * CMD_EXIT_FAILURE (no password, login refused, engine cannot start) or CMD_EXIT_USAGE. */
int cmd_gtp(int argc, char **argv);

#endif
