/* client/cmd_gtp: `tengen gtp`, a GTP engine playing on a tengen server: the command line,
 * the engine probe, the loop and its signals. See gtp.h (the bridge) and commands.h. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "cli.h"
#include "commands.h"
#include "engine.h"
#include "gtp.h"

/* ---- the engine probe: is it there, what is it, what does it know and take ----
 *
 * name, version, list_commands (struct gtp_caps), then `boardsize N` for every size the
 * server plays: a dry run, so that a challenge on a board the engine refuses is declined
 * instead of accepted and lost (GTP 2 §6.3.1: "unacceptable size"). */

#define PROBE_ANSWERS (3 + GTP_SIZE_MAX - GTP_SIZE_MIN + 1)

struct probe {
	struct bridge *br;
	int answers;
	bool failed, timed_out;
};

static void probe_timeout(uv_timer_t *t)
{
	struct probe *p = t->data;
	p->timed_out = true;
}

static void probe_reply(struct engine *e, bool ok, const char *text, void *arg)
{
	struct probe *p = arg;
	(void)e;
	if (!text) {
		p->failed = true;
		return;
	}
	int k = p->answers++;
	if (k >= 3) { /* boardsize GTP_SIZE_MIN + k - 3 */
		if (ok)
			p->br->caps.sizes |= 1u << (GTP_SIZE_MIN + k - 3);
		return;
	}
	if (!ok)
		return;
	if (k == 0) {
		snprintf(p->br->engine_name, sizeof p->br->engine_name, "%s", text);
	} else if (k == 1) {
		size_t n = strlen(p->br->engine_name);
		snprintf(p->br->engine_name + n, sizeof p->br->engine_name - n, " %s", text);
	} else {
		gtp_caps_from_list(&p->br->caps, text);
	}
}

static int probe_engine(struct bridge *br)
{
	char err[256] = "out of memory";
	struct probe p = {.br = br};
	char **argv = gtp_argv_for_game(br->engine_argv, 0); /* {game}: 0 for the probe */
	struct engine_options eo = {.argv = argv, .inherit_stderr = br->engine_stderr};
	struct engine *e = argv ? engine_spawn(br->loop, &eo, err, sizeof err) : NULL;
	gtp_argv_free(argv);
	if (!e) {
		cli_errorf("cannot start the engine: %s", err);
		return -1;
	}
	uv_timer_t timer;
	uv_timer_init(br->loop, &timer);
	timer.data = &p;
	uv_timer_start(&timer, probe_timeout, GTP_PROBE_TIMEOUT_MS, 0);
	engine_send(e, probe_reply, &p, "name");
	engine_send(e, probe_reply, &p, "version");
	engine_send(e, probe_reply, &p, "list_commands");
	for (int n = GTP_SIZE_MIN; n <= GTP_SIZE_MAX; n++)
		engine_send(e, probe_reply, &p, "boardsize %d", n);
	while (p.answers < PROBE_ANSWERS && !p.failed && !p.timed_out && !br->stopping &&
	       uv_run(br->loop, UV_RUN_ONCE))
		;
	engine_close(e);
	uv_close((uv_handle_t *)&timer, NULL);
	uv_run(br->loop, UV_RUN_NOWAIT); /* the timer's close */
	if (p.answers < PROBE_ANSWERS) {
		/* let the engine's process end and its handles close (engine_close kills it after
		 * ENGINE_QUIT_MS), so that it is freed before the loop is torn down */
		uv_run(br->loop, UV_RUN_DEFAULT);
		if (br->stopping)
			return -1; /* a signal while the engine started: a stop, not its failure */
		cli_errorf("the engine '%s' does not answer GTP%s", br->engine_argv[0],
			   p.timed_out ? " (no answer to 'name', 'version', 'list_commands' in "
					 "time)" : "");
		return -1;
	}
	if (!br->caps.sizes) {
		cli_errorf("the engine '%s' takes no board size from %d to %d", br->engine_argv[0],
			   GTP_SIZE_MIN, GTP_SIZE_MAX);
		return -1;
	}
	return 0;
}

/* ---- signals, options, main ---- */

static void on_signal(uv_signal_t *h, int signum)
{
	struct bridge *br = h->data;
	gtp_say(br, "signal %d: stopping (%d game%s left unfinished)", signum, br->ngames,
		br->ngames == 1 ? "" : "s");
	br->stopping = true;
	uv_stop(br->loop);
}

static void usage(FILE *f)
{
	fputs("usage: tengen gtp [--server HOST:PORT] [--user NAME] [--password-file FILE]\n"
	      "                  [--accept any|rated|from=NAME,...] [--max-games N]\n"
	      "                  [--sizes 9,13,19|9-19] [--time-systems none,absolute,byoyomi,\n"
	      "                  canadian,fischer] [--main-time MIN-MAX] [--period-time MIN-MAX]\n"
	      "                  [--max-handicap N] [--rated yes|no|any] [--rulesets NAME,...]\n"
	      "                  [--reject NAME,...] [--gtp-log PATH] [--engine-stderr]\n"
	      "                  -- ENGINE [ARGS...]\n"
	      "\n"
	      "Play on a tengen server through a GTP engine, e.g.\n"
	      "  tengen gtp --user bot1 -- /usr/games/gnugo --mode gtp --level 5\n"
	      "The password: --password-file (first line), else $TENGEN_PASSWORD.\n"
	      "One engine process per game; challenges are accepted by the --accept policy and the\n"
	      "filters (the board sizes the engine takes, then --sizes, time system, main time and\n"
	      "the time a move gets after it in seconds, handicap, rated, ruleset, opponents) while\n"
	      "fewer than --max-games games are live (default 4); tournament games are joined at\n"
	      "their start. --gtp-log PATH appends every game's GTP traffic to PATH ('{game}' in\n"
	      "PATH: one file per game). '{game}' in an ENGINE argument is the game's id (0 for\n"
	      "the probe at start), e.g. --seed {game} for GNU Go. Runs until SIGINT or SIGTERM.\n", f);
}

static void close_walk(uv_handle_t *h, void *arg)
{
	(void)arg;
	if (!uv_is_closing(h))
		uv_close(h, NULL);
}

static int parse_accept(struct bridge *br, char *spec)
{
	if (strcmp(spec, "any") == 0) {
		br->accept = ACCEPT_ANY;
		return 0;
	}
	if (strcmp(spec, "rated") == 0) {
		br->accept = ACCEPT_RATED;
		return 0;
	}
	if (strncmp(spec, "from=", 5) == 0) {
		br->accept = ACCEPT_FROM;
		char *save = NULL;
		for (char *t = strtok_r(spec + 5, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (br->naccept_names >= GTP_ACCEPT_NAMES_MAX)
				return -1;
			br->accept_names[br->naccept_names++] = t;
		}
		return br->naccept_names > 0 ? 0 : -1;
	}
	return -1;
}

enum { OPT_ENGINE_STDERR, OPT_ACCEPT, OPT_MAX_GAMES, OPT_SIZES, OPT_SYSTEMS, OPT_MAIN,
       OPT_PERIOD, OPT_HANDICAP, OPT_RATED, OPT_RULESETS, OPT_REJECT, OPT_GTP_LOG, NOPTS };
static const struct cli_option gtp_options[NOPTS] = {
	[OPT_ENGINE_STDERR] = {"--engine-stderr", false},
	[OPT_ACCEPT] = {"--accept", true},
	[OPT_MAX_GAMES] = {"--max-games", true},
	[OPT_SIZES] = {"--sizes", true},
	[OPT_SYSTEMS] = {"--time-systems", true},
	[OPT_MAIN] = {"--main-time", true},
	[OPT_PERIOD] = {"--period-time", true},
	[OPT_HANDICAP] = {"--max-handicap", true},
	[OPT_RATED] = {"--rated", true},
	[OPT_RULESETS] = {"--rulesets", true},
	[OPT_REJECT] = {"--reject", true},
	[OPT_GTP_LOG] = {"--gtp-log", true},
};

/* A filter option's value into br->filter. 0, or -1 (message printed). */
static int set_filter(struct bridge *br, int opt, const char *val)
{
	struct gtp_filter *f = &br->filter;
	char *end;
	long n;
	int rc = 0;
	switch (opt) {
	case OPT_SIZES:
		rc = gtp_filter_sizes(f, val);
		break;
	case OPT_SYSTEMS:
		rc = gtp_filter_systems(f, val);
		break;
	case OPT_MAIN:
		rc = gtp_filter_seconds(f->main_s, val);
		break;
	case OPT_PERIOD:
		rc = gtp_filter_seconds(f->period_s, val);
		break;
	case OPT_HANDICAP:
		errno = 0;
		n = strtol(val, &end, 10);
		rc = errno || *end || end == val || n < 0 || n > GTP_HANDICAP_MAX ? -1 : 0;
		f->max_handicap = (int)n;
		break;
	case OPT_RATED:
		rc = strcmp(val, "yes") == 0 ? (f->rated = 1, 0) : strcmp(val, "no") == 0 ?
		     (f->rated = -1, 0) : strcmp(val, "any") == 0 ? (f->rated = 0, 0) : -1;
		break;
	case OPT_RULESETS:
		rc = gtp_filter_names(f->rulesets, &f->nrulesets, (char *)val);
		break;
	case OPT_REJECT:
		rc = gtp_filter_names(f->reject, &f->nreject, (char *)val);
		break;
	}
	if (rc < 0)
		cli_prog_errorf(GTP_PROG, "bad %s '%s' (tengen gtp --help)", gtp_options[opt].name, val);
	return rc;
}

/* Take option `opt`'s value into br. Returns 0 or -1 (message printed). */
static int set_option(struct bridge *br, int opt, const char *val)
{
	char *end;
	long n;
	switch (opt) {
	case OPT_ENGINE_STDERR:
		br->engine_stderr = true;
		break;
	case OPT_ACCEPT:
		if (parse_accept(br, (char *)val) < 0) {
			cli_prog_errorf(GTP_PROG, "--accept must be any, rated or from=NAME,... "
					"(at most %d names)", GTP_ACCEPT_NAMES_MAX);
			return -1;
		}
		break;
	case OPT_MAX_GAMES:
		errno = 0;
		n = strtol(val, &end, 10);
		if (errno || *end || n < 1 || n > GTP_MAX_GAMES_LIMIT) {
			cli_prog_errorf(GTP_PROG, "--max-games must be 1 to %d",
					GTP_MAX_GAMES_LIMIT);
			return -1;
		}
		br->max_games = (int)n;
		break;
	case OPT_GTP_LOG:
		br->gtp_log = val;
		break;
	default:
		return set_filter(br, opt, val);
	}
	return 0;
}

/* Parse the command line into br and o (the global options; --json is taken and ignored):
 * the options, then "--" and the engine's command. Returns -1 to go on, else the exit
 * status (--help, a usage error; message printed). */
static int parse_args(int argc, char **argv, struct bridge *br, struct cli_opts *o)
{
	struct cli_args a;
	cli_args_init(&a, argc, argv, o, gtp_options, NOPTS);
	a.prog = GTP_PROG;
	a.dashdash = true;
	enum cli_token t;
	while ((t = cli_next(&a)) != CLI_END && t != CLI_DASHDASH) {
		switch (t) {
		case CLI_HELP:
			usage(stdout);
			return CMD_EXIT_OK;
		case CLI_GLOBAL:
			break;
		case CLI_OPTION:
			if (set_option(br, a.opt, a.value) < 0)
				return CMD_EXIT_USAGE;
			break;
		case CLI_MISSING:
			return CMD_EXIT_USAGE;
		default: /* CLI_OPERAND, CLI_UNKNOWN */
			cli_prog_errorf(GTP_PROG, "unknown option '%s' (the engine command goes "
					"after --)", a.arg);
			usage(stderr);
			return CMD_EXIT_USAGE;
		}
	}
	if (a.i >= argc) {
		cli_prog_errorf(GTP_PROG, "no engine: give its command after --");
		usage(stderr);
		return CMD_EXIT_USAGE;
	}
	br->engine_argv = argv + a.i;
	br->user = o->user;
	if (!br->user) {
		cli_prog_errorf(GTP_PROG, "--user NAME is required");
		return CMD_EXIT_USAGE;
	}
	return -1;
}

/* Probe the engine, then run the loop until a signal or a final error. Sets br->status. */
static void run(struct bridge *br, const char *server, const char *password)
{
	uv_loop_t *loop = br->loop;
	/* The signals first: a SIGTERM while the engine starts (a slow one, a loaded machine) is a
	 * clean stop, not a death by the signal (exit 143). Unreferenced: they do not keep the
	 * loop running by themselves. */
	uv_signal_init(loop, &br->sigint);
	uv_signal_init(loop, &br->sigterm);
	br->sigint.data = br->sigterm.data = br;
	uv_signal_start(&br->sigint, on_signal, SIGINT);
	uv_signal_start(&br->sigterm, on_signal, SIGTERM);
	uv_unref((uv_handle_t *)&br->sigint);
	uv_unref((uv_handle_t *)&br->sigterm);
	if (probe_engine(br) < 0 || br->stopping) {
		if (!br->stopping)
			br->status = CMD_EXIT_FAILURE;
		uv_close((uv_handle_t *)&br->sigint, NULL);
		uv_close((uv_handle_t *)&br->sigterm, NULL);
		uv_run(loop, UV_RUN_DEFAULT);
		return;
	}
	struct session_options so = {.server = server, .user = br->user, .password = password,
				     .reconnect = true, .exclusive = true, .on_ready = gtp_on_ready,
				     .on_event = gtp_on_event, .on_error = gtp_on_error, .ctx = br};
	br->s = session_open(loop, &so);
	if (!br->s) {
		br->status = CMD_EXIT_FAILURE;
		uv_close((uv_handle_t *)&br->sigint, NULL);
		uv_close((uv_handle_t *)&br->sigterm, NULL);
		uv_run(loop, UV_RUN_DEFAULT);
		return;
	}
	uv_run(loop, UV_RUN_DEFAULT);
	br->stopping = true;
	while (br->games)
		gtp_free_game(br->games);
	session_close(br->s);
	uv_signal_stop(&br->sigint);
	uv_signal_stop(&br->sigterm);
	uv_close((uv_handle_t *)&br->sigint, NULL);
	uv_close((uv_handle_t *)&br->sigterm, NULL);
	/* let the engines quit (engine_close kills them after ENGINE_QUIT_MS) */
	uv_run(loop, UV_RUN_DEFAULT);
	gtp_log_close(br);
}

int cmd_gtp(int argc, char **argv)
{
	struct bridge br = {.max_games = GTP_MAX_GAMES_DEFAULT, .accept = ACCEPT_ANY,
			    .status = CMD_EXIT_OK};
	gtp_filter_init(&br.filter);
	struct cli_opts o = {0};
	int status = parse_args(argc, argv, &br, &o);
	if (status >= 0)
		return status;
	char *password = session_password(o.password_file);
	if (!password) {
		if (o.password_file)
			return CMD_EXIT_FAILURE; /* unreadable or empty: said */
		cli_prog_errorf(GTP_PROG, "no password: give --password-file FILE or set "
				"TENGEN_PASSWORD");
		return CMD_EXIT_USAGE;
	}
	signal(SIGPIPE, SIG_IGN); /* a dead engine's pipe is an error, not a signal */
	uv_loop_t loop;
	uv_loop_init(&loop);
	br.loop = &loop;
	gtp_bridge = &br;
	run(&br, o.server, password);
	uv_walk(&loop, close_walk, NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	gtp_bridge = NULL;
	free(password);
	return br.status;
}
