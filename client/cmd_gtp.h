/* cmd_gtp: `tengen gtp`, the bridge that lets a GTP engine (GNU Go, KataGo, ...) play on a
 * tengen server as a bot account: it accepts challenges by policy, joins its scheduled
 * tournament games, and plays each game through its own engine process (client/engine.h).
 * Spec: issue 6; wire contract: docs/protocol.md. */
#ifndef TENGEN_CMD_GTP_H
#define TENGEN_CMD_GTP_H

/* Run `tengen gtp [OPTIONS] -- ENGINE ARGS...` (argv[0] is "gtp"). Returns CMD_EXIT_OK,
 * CMD_EXIT_FAILURE (login refused, engine cannot start) or CMD_EXIT_USAGE. Runs until killed,
 * or until --max-total games have ended when that option is given. */
int cmd_gtp(int argc, char **argv);

#endif
