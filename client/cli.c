/* client/cli: error messages and the option parser of every subcommand. See cli.h. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ---- messages ---- */

static void vmessage(const char *prog, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_errorf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(CLI_PROG, fmt, ap);
	va_end(ap);
}

void cli_prog_errorf(const char *prog, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(prog, fmt, ap);
	va_end(ap);
}

/* ---- the parser ---- */

enum { GLOBAL_SERVER, GLOBAL_USER, GLOBAL_PASSWORD_FILE, GLOBAL_JSON, NGLOBAL };

static const struct cli_option global_options[NGLOBAL] = {
	[GLOBAL_SERVER] = {"--server", true},
	[GLOBAL_USER] = {"--user", true},
	[GLOBAL_PASSWORD_FILE] = {"--password-file", true},
	[GLOBAL_JSON] = {"--json", false},
};

void cli_args_init(struct cli_args *a, int argc, char **argv, struct cli_opts *global,
		   const struct cli_option *opts, int nopts)
{
	memset(a, 0, sizeof *a);
	a->argc = argc;
	a->argv = argv;
	a->i = 1;
	a->global = global;
	a->opts = opts;
	a->nopts = nopts;
	a->prog = CLI_PROG;
	a->opt = -1;
}

/* Is a->arg the option `o`? 1 yes (its value taken, a->i past it), 0 no, -1 yes but its value
 * is missing (message printed). */
static int match(struct cli_args *a, const struct cli_option *o)
{
	const char *s = a->arg;
	size_t n = strlen(o->name);
	if (strncmp(s, o->name, n) != 0)
		return 0;
	if (s[n] == '=' && o->has_value) {
		a->value = s + n + 1;
		return 1;
	}
	if (s[n] != '\0')
		return 0;
	if (!o->has_value)
		return 1;
	if (a->i >= a->argc) {
		cli_prog_errorf(a->prog, "option %s needs a value", o->name);
		return -1;
	}
	a->value = a->argv[a->i++];
	return 1;
}

static void store_global(struct cli_opts *g, int which, const char *value)
{
	switch (which) {
	case GLOBAL_SERVER: g->server = value; break;
	case GLOBAL_USER: g->user = value; break;
	case GLOBAL_PASSWORD_FILE: g->password_file = value; break;
	case GLOBAL_JSON: g->json = true; break;
	}
}

enum cli_token cli_next(struct cli_args *a)
{
	a->opt = -1;
	a->value = NULL;
	a->arg = NULL;
	if (a->i >= a->argc)
		return CLI_END;
	a->at = a->i;
	a->arg = a->argv[a->i++];
	const char *s = a->arg;
	/* "-", and a negative number ("-1": no option's name starts with a digit), are operands:
	 * the command says what is wrong with the number, not "unknown option" */
	if (a->operands_only || s[0] != '-' || s[1] == '\0' || (s[1] >= '0' && s[1] <= '9'))
		return CLI_OPERAND;
	if (a->dashdash && strcmp(s, "--") == 0) {
		a->operands_only = true;
		return CLI_DASHDASH;
	}
	for (int k = 0; a->global && k < NGLOBAL; k++) {
		int r = match(a, &global_options[k]);
		if (r < 0)
			return CLI_MISSING;
		if (r > 0) {
			store_global(a->global, k, a->value);
			return CLI_GLOBAL;
		}
	}
	for (int k = 0; k < a->nopts; k++) {
		int r = match(a, &a->opts[k]);
		if (r < 0)
			return CLI_MISSING;
		if (r > 0) {
			a->opt = k;
			return CLI_OPTION;
		}
	}
	if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0)
		return CLI_HELP;
	return CLI_UNKNOWN;
}

int cli_parse_args(int argc, char **argv, struct cli_opts *o, const char *usage,
		   const struct cli_option *opts, int nopts, const char **values,
		   const char **pos, int maxpos, int *npos)
{
	struct cli_args a;
	cli_args_init(&a, argc, argv, o, opts, nopts);
	*npos = 0;
	for (;;) {
		switch (cli_next(&a)) {
		case CLI_END:
			return 0;
		case CLI_GLOBAL:
			break;
		case CLI_OPTION:
			values[a.opt] = a.value ? a.value : opts[a.opt].name;
			break;
		case CLI_MISSING:
			fputs(usage, stderr);
			return -1;
		case CLI_HELP:
			fputs(usage, stdout);
			return 1;
		case CLI_DASHDASH: /* not set: "--" is CLI_UNKNOWN */
		case CLI_UNKNOWN:
			cli_errorf("%s: unknown option '%s'", argv[0], a.arg);
			fputs(usage, stderr);
			return -1;
		case CLI_OPERAND:
			if (*npos >= maxpos) {
				cli_errorf("%s: unexpected argument '%s'", argv[0], a.arg);
				fputs(usage, stderr);
				return -1;
			}
			pos[(*npos)++] = a.arg;
			break;
		}
	}
}

int cli_parse_id(const char *what, const char *s, json_int_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 1) {
		cli_errorf("%s must be a positive number, not '%s'", what, s);
		return -1;
	}
	*out = (json_int_t)v;
	return 0;
}
