/* tengen: the command-line client. main() dispatches to one subcommand per verb; each lives
 * in its own client/cmd_*.c and takes (argc, argv) with argv[0] its own name, returning the
 * exit status (CMD_EXIT_OK, CMD_EXIT_FAILURE, CMD_EXIT_USAGE; see cmd_score.h).
 *
 * To add a subcommand (call, gtp, td, watch, ...): write its cmd_NAME(argc, argv) and add a
 * row to `commands` below. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_call.h"
#include "cmd_gtp.h"
#include "cmd_score.h"
#include "cmd_td.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{"score", cmd_score, "replay a game record (SGF) through the referee and count it (JSON)"},
	{"replay", cmd_replay, "replay a game record (SGF) and print the final board"},
	{"call", cmd_call, "send raw requests (CMD key=value..., or - for JSON lines on stdin)"},
	{"register", cmd_register, "create the account --user NAME (optional --rank 3k)"},
	{"games", cmd_games, "list games (--phase, --player, --tournament)"},
	{"sgf", cmd_sgf, "print a game's record (SGF)"},
	{"watch", cmd_watch, "observe a game: board and clocks after each move, then the result"},
	{"standings", cmd_standings, "a tournament's standings (--round N)"},
	{"pairings", cmd_pairings, "a tournament round's pairings"},
	{"td", cmd_td, "tournament director's commands (create, register, start, result, ...)"},
	{"gtp", cmd_gtp, "play as a bot through a GTP engine: gtp [OPTIONS] -- ENGINE ARGS..."},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
	fputs("usage: tengen [--help | --version] [GLOBAL OPTIONS] COMMAND [ARGS...]\n"
	      "\n"
	      "global options (before or after COMMAND; for the commands that talk to tengend):\n"
	      "  --server HOST:PORT   the server (default " SESSION_DEFAULT_SERVER ")\n"
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
	      "Exit status: 0 success, 1 failure, 2 bad command line.\n", f);
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
	fprintf(stderr, "tengen: unknown command '%s'\n", name);
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
		fputs("tengen: out of memory\n", stderr);
		return NULL;
	}
	struct cli_opts dummy = {0};
	int i = 1;
	for (;;) {
		if (i >= argc || argv[i][0] != '-' || strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--version") == 0)
			break;
		int r = cli_global_option(&dummy, argc, argv, &i);
		if (r < 0) {
			free(out);
			return NULL;
		}
		if (r == 0)
			break; /* an unknown option: main() reports it */
	}
	if (i >= argc && i > 1) {
		fputs("tengen: no command after the options\n", stderr);
		usage(stderr);
		free(out);
		return NULL;
	}
	/* Commands that do not talk to tengend take no global options: drop them. */
	bool local = i < argc && (strcmp(argv[i], "help") == 0 || strcmp(argv[i], "score") == 0 ||
				  strcmp(argv[i], "replay") == 0);
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
static void usage(FILE *f);

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
		fprintf(stderr, "tengen: unknown option '%s'\n", verb);
		usage(stderr);
		return CMD_EXIT_USAGE;
	}
	const struct command *c = find_command(verb);
	if (!c)
		return unknown_command(verb);
	return c->run(argc - 1, argv + 1);
}
