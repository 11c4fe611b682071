/* tengen: the command-line client. main() dispatches to one subcommand per verb; each lives
 * in a client/cmd_*.c and takes (argc, argv) with argv[0] its own name, returning the exit
 * status (CMD_EXIT_OK, CMD_EXIT_FAILURE, CMD_EXIT_USAGE; see cli.h and commands.h).
 *
 * To add a subcommand: write its cmd_NAME(argc, argv) (parsing with cli.h's parser), declare
 * it in commands.h and add a row to `commands` below. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "session.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	bool remote; /* talks to tengend: takes the global options (else they are dropped) */
	const char *summary;
};

static const struct command commands[] = {
	{"score", cmd_score, false,
	 "replay a game record (SGF) through the referee and count it (JSON)"},
	{"replay", cmd_replay, false, "replay a game record (SGF) and print the final board"},
	{"call", cmd_call, true,
	 "send raw requests (CMD key=value..., or - for JSON lines on stdin)"},
	{"register", cmd_register, true, "create the account --user NAME (optional --rank 3k)"},
	{"challenge", cmd_challenge, true,
	 "challenge a player: challenge NAME [--size --komi --handicap --time --color ...]"},
	{"accept", cmd_accept, true, "accept a challenge: accept GAME"},
	{"decline", cmd_decline, true, "decline a challenge (or withdraw yours): decline GAME"},
	{"play", cmd_play, true, "play a move: play GAME VERTEX (numbered from the game)"},
	{"pass", cmd_pass, true, "pass: pass GAME"},
	{"resign", cmd_resign, true, "resign: resign GAME"},
	{"dead", cmd_dead, true, "claim dead stones while counting: dead GAME [VERTEX...]"},
	{"players", cmd_players, true, "list the players (--sort, --limit)"},
	{"games", cmd_games, true,
	 "list games (--phase, --player, --tournament, --limit, --before)"},
	{"sgf", cmd_sgf, true, "print a game's record (SGF)"},
	{"watch", cmd_watch, true,
	 "observe a game live: board, last move, captures, clocks, claims, result"},
	{"standings", cmd_standings, true, "a tournament's standings (--round N)"},
	{"pairings", cmd_pairings, true, "a tournament round's pairings"},
	{"td", cmd_td, true,
	 "tournament director's commands (create, register, start, result, ...)"},
	{"predict", cmd_predict, true,
	 "seal a prediction in a prediction-rules game: predict GAME W+7"},
	{"gtp", cmd_gtp, true,
	 "play as a bot through a GTP engine: gtp [OPTIONS] -- ENGINE ARGS..."},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
	fputs("usage: tengen [--help | --version] [GLOBAL OPTIONS] COMMAND [ARGS...]\n"
	      "\n"
	      "global options (before or after COMMAND; for the commands that talk to tengend):\n"
	      "  --server HOST:PORT   the server (default $" SESSION_SERVER_ENV ", else 'server\n"
	      "                       HOST:PORT' in ~/.config/tengen/config, else "
	      SESSION_DEFAULT_SERVER ")\n"
	      "  --user NAME          log in as NAME\n"
	      "  --password-file F    the password is F's first line (else $TENGEN_PASSWORD)\n"
	      "  --json               print the raw JSON replies instead of tables\n"
	      "\n"
	      "commands:\n", f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("  help       show this help, or a command's: tengen help COMMAND\n"
	      "\n"
	      "Run 'tengen COMMAND --help' for a command's options.\n"
	      "Exit status: 0 success, 1 failure here, 2 bad command line, 3 the server refused,\n"
	      "4 no answer from the server, 5 login refused, 6 (gtp) another bridge took the account over.\n", f);
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	cli_errorf("unknown command '%s'", name);
	usage(stderr);
	return CMD_EXIT_USAGE;
}

/* Global options before the command are moved after its name, so that every command parses
 * them itself: `tengen --user a call ping` runs as `tengen call --user a ping`. Returns the
 * new argv (malloc'd, argv[1] the verb), or NULL on a usage error (message printed). */
static char **move_global_options(int argc, char **argv, int *new_argc)
{
	char **out = calloc((size_t)argc + 1, sizeof *out);
	if (!out) {
		cli_errorf("out of memory");
		return NULL;
	}
	struct cli_opts dummy = {0};
	struct cli_args a;
	cli_args_init(&a, argc, argv, &dummy, NULL, 0);
	enum cli_token t;
	while ((t = cli_next(&a)) == CLI_GLOBAL)
		;
	if (t == CLI_MISSING) {
		free(out);
		return NULL;
	}
	/* the verb (or --help, --version, an unknown option: dispatch() judges it) */
	int i = t == CLI_END ? argc : a.at;
	if (i >= argc && i > 1) {
		cli_errorf("no command after the options");
		usage(stderr);
		free(out);
		return NULL;
	}
	/* Commands that do not talk to tengend take no global options: drop them. */
	const struct command *c = i < argc ? find_command(argv[i]) : NULL;
	bool local = i < argc && (strcmp(argv[i], "help") == 0 || (c && !c->remote));
	int n = 0;
	out[n++] = argv[0];
	if (i < argc)
		out[n++] = argv[i];
	for (int k = 1; k < i && !local; k++)
		out[n++] = argv[k];
	for (int k = i + 1; k < argc; k++)
		out[n++] = argv[k];
	out[n] = NULL;
	*new_argc = n;
	return out;
}

static int dispatch(int argc, char **argv);

int main(int argc, char **argv)
{
	int n;
	char **args = move_global_options(argc, argv, &n);
	if (!args)
		return CMD_EXIT_USAGE;
	int status = dispatch(n, args);
	free(args);
	return status;
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CMD_EXIT_USAGE;
	}
	const char *verb = argv[1];
	if (strcmp(verb, "--help") == 0 || strcmp(verb, "-h") == 0) {
		usage(stdout);
		return CMD_EXIT_OK;
	}
	if (strcmp(verb, "--version") == 0) {
		printf("tengen %s\n", PACKAGE_VERSION);
		return CMD_EXIT_OK;
	}
	if (strcmp(verb, "help") == 0) {
		if (argc < 3) {
			usage(stdout);
			return CMD_EXIT_OK;
		}
		const struct command *c = find_command(argv[2]);
		if (!c)
			return unknown_command(argv[2]);
		char *help_argv[] = {argv[2], "--help", NULL};
		return c->run(2, help_argv);
	}
	if (verb[0] == '-') {
		cli_errorf("unknown option '%s'", verb);
		usage(stderr);
		return CMD_EXIT_USAGE;
	}
	const struct command *c = find_command(verb);
	if (!c)
		return unknown_command(verb);
	return c->run(argc - 1, argv + 1);
}
