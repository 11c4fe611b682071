/* cli: the command line of `tengen`, shared by every subcommand: exit statuses, error
 * messages, the global options, and the one option parser.
 *
 * A subcommand is int cmd_NAME(int argc, char **argv) with argv[0] its own name (commands.h).
 * It reads its arguments with cli_next(), one at a time: each call takes one argument, or an
 * option together with its value ("--round N" or "--round=N"), says what it was, and moves
 * the index past exactly what it took; nothing else moves the index. The global options
 * (below) are recognised by the same parser wherever they appear, before or after the
 * subcommand's own arguments, and stored in a struct cli_opts. cli_parse_args() is the usual
 * loop on top of it (options, --help, positional arguments, the usual messages).
 *
 * Global options (every command that talks to tengend; main() moves the ones given before
 * the command's name after it):
 *   --server HOST:PORT   the daemon (default session_default_server(): $TENGEN_SERVER, the
 *                        config file, else 127.0.0.1:6970)
 *   --user NAME          log in as NAME first (the password: --password-file F, first line,
 *                        else the environment variable TENGEN_PASSWORD)
 *   --password-file F
 *   --json               print the raw reply objects (one JSON object per line) instead of
 *                        the human-readable tables
 * Errors go to stderr prefixed "tengen: " (cli_errorf); exit statuses are CMD_EXIT_*.
 */
#ifndef TENGEN_CLI_H
#define TENGEN_CLI_H

#include <stdbool.h>
#include <jansson.h>

/* Exit statuses shared by every subcommand of the client (README "Exit statuses"). */
#define CMD_EXIT_OK 0          /* success */
#define CMD_EXIT_FAILURE 1     /* the work failed here: unreadable file, out of memory */
#define CMD_EXIT_USAGE 2       /* bad command line: unknown option, bad option value */
#define CMD_EXIT_REFUSED 3     /* the server refused the request (an error reply: illegal move,
                                  not your turn, no such game, ...) */
#define CMD_EXIT_UNREACHABLE 4 /* no answer: the server cannot be reached, the connection
                                  dropped, or no reply came in time */
#define CMD_EXIT_LOGIN 5       /* the login was refused (wrong name or password) */
#define CMD_EXIT_REPLACED 6    /* tengen gtp: another bridge logged in as the account and took
                                  over (a supervisor should not start this one again) */

#define CLI_PROG "tengen" /* the prefix of error messages */

/* Print "tengen: " + the message + a newline on stderr. */
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same with another prefix, "PROG: " ("tengen gtp: "). */
void cli_prog_errorf(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The global options (see above). */
struct cli_opts {
	const char *server;
	const char *user;
	const char *password_file;
	bool json;
};

/* One of a subcommand's own options. */
struct cli_option {
	const char *name;  /* "--round", "-o" */
	bool has_value;    /* "--round N" or "--round=N"; false: a flag, exactly "--name" */
};

/* What cli_next read. */
enum cli_token {
	CLI_END,      /* no argument left */
	CLI_GLOBAL,   /* a global option, stored in *global */
	CLI_OPTION,   /* one of the subcommand's options: index `opt`, its `value` (NULL: a flag) */
	CLI_HELP,     /* "--help" or "-h" */
	CLI_DASHDASH, /* "--", when `dashdash` is set: every later argument is a CLI_OPERAND */
	CLI_OPERAND,  /* an argument that is no option: not starting with '-', or "-" itself */
	CLI_UNKNOWN,  /* starts with '-' but is none of the above ("--" too without dashdash) */
	CLI_MISSING,  /* an option without its value ("PROG: option NAME needs a value" printed) */
};

/* The parser's state: set up by cli_args_init, then read with cli_next. */
struct cli_args {
	int argc;
	char **argv;
	int i;                         /* the next argument (from 1: argv[0] is the command) */
	struct cli_opts *global;       /* takes the global options; NULL: they are unknown */
	const struct cli_option *opts; /* the subcommand's own options */
	int nopts;
	const char *prog;              /* the prefix of the parser's message: CLI_PROG */
	bool dashdash;                 /* "--" ends the options (default false) */
	bool operands_only;            /* a "--" was read */
	/* what the last cli_next read */
	int at;                        /* its index in argv */
	const char *arg;               /* argv[at] */
	int opt;                       /* CLI_OPTION: the index in opts */
	const char *value;             /* CLI_OPTION, CLI_GLOBAL: the value (NULL for a flag) */
};

void cli_args_init(struct cli_args *a, int argc, char **argv, struct cli_opts *global,
		   const struct cli_option *opts, int nopts);
/* Read the next argument (see enum cli_token). */
enum cli_token cli_next(struct cli_args *a);

/* Parse a subcommand's arguments (argv[0] its name): global options, the options opts[0..
 * nopts) (each one's value into values[k]; a flag's name for a flag), and positional
 * arguments into pos[0..*npos) (at most maxpos). Returns 0; 1 for --help (usage printed on
 * stdout); -1 on a usage error (message and usage on stderr). */
int cli_parse_args(int argc, char **argv, struct cli_opts *o, const char *usage,
		   const struct cli_option *opts, int nopts, const char **values,
		   const char **pos, int maxpos, int *npos);
/* Parse a positive integer id (game, tournament) of argument `what`: 0, or -1 with a usage
 * message on stderr. */
int cli_parse_id(const char *what, const char *s, json_int_t *out);

#endif
