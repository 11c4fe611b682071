/* tengen: the command-line client. main() dispatches to one subcommand per verb; each lives
 * in its own client/cmd_*.c and takes (argc, argv) with argv[0] its own name, returning the
 * exit status (CMD_EXIT_OK, CMD_EXIT_FAILURE, CMD_EXIT_USAGE; see cmd_score.h).
 *
 * To add a subcommand (call, gtp, td, watch, ...): write its cmd_NAME(argc, argv) and add a
 * row to `commands` below. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd_score.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{"score", cmd_score, "replay a game record (SGF) through the referee and count it (JSON)"},
	{"replay", cmd_replay, "replay a game record (SGF) and print the final board"},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
	fputs("usage: tengen [--help | --version] COMMAND [ARGS...]\n"
	      "\n"
	      "commands:\n", f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fputs("  help     show this help, or a command's: tengen help COMMAND\n"
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

int main(int argc, char **argv)
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
