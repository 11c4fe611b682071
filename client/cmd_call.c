/* client/cmd_call: call, register, standings, pairings, games, sgf, watch, and the runner
 * shared with cmd_td.c. See cmd_call.h. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_call.h"
#include "cmd_score.h"

#define CLI_LINE_MAX 65536 /* bytes of one request line read by `call -` (docs/protocol.md) */
#define CLI_COLUMNS "ABCDEFGHJKLMNOPQRSTUVWXYZ" /* GTP column letters (no I) */

static void errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void errorf(const char *fmt, ...)
{
	va_list ap;
	fputs("tengen: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- options ---- */

int cli_option_value(const char *name, int argc, char **argv, int *i, const char **value)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (strncmp(a, name, n) != 0)
		return 0;
	if (a[n] == '=') {
		*value = a + n + 1;
		(*i)++;
		return 1;
	}
	if (a[n] != '\0')
		return 0;
	if (*i + 1 >= argc) {
		errorf("option %s needs a value", name);
		return -1;
	}
	*value = argv[*i + 1];
	*i += 2;
	return 1;
}

int cli_global_option(struct cli_opts *o, int argc, char **argv, int *i)
{
	static const char *const names[] = {"--server", "--user", "--password-file"};
	const char **slots[] = {&o->server, &o->user, &o->password_file};
	if (strcmp(argv[*i], "--json") == 0) {
		o->json = true;
		(*i)++;
		return 1;
	}
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		int r = cli_option_value(names[k], argc, argv, i, slots[k]);
		if (r != 0)
			return r;
	}
	return 0;
}

int cli_parse_id(const char *what, const char *s, json_int_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 1) {
		errorf("%s must be a positive number, not '%s'", what, s);
		return -1;
	}
	*out = (json_int_t)v;
	return 0;
}

/* ---- the runner ---- */

static void timer_cb(uv_timer_t *t)
{
	struct cli *c = t->data;
	errorf("no reply from the server at %s within %d s", session_server(c->s),
	       CLI_REPLY_TIMEOUT_MS / 1000);
	cli_finish(c, CMD_EXIT_FAILURE);
}

void cli_finish(struct cli *c, int status)
{
	if (c->done)
		return;
	c->done = true;
	c->status = status;
	fflush(stdout);
	uv_timer_stop(&c->timer);
	if (c->s)
		session_close(c->s);
	c->s = NULL;
}

int cli_send(struct cli *c, json_t *req, session_reply_cb cb)
{
	if (c->done) {
		json_decref(req);
		return -1;
	}
	if (!req || session_request(c->s, req, cb, c) != 0) {
		json_decref(req);
		errorf("could not send the request to the server");
		cli_finish(c, CMD_EXIT_FAILURE);
		return -1;
	}
	json_decref(req);
	if (!c->no_timeout)
		uv_timer_start(&c->timer, timer_cb, CLI_REPLY_TIMEOUT_MS, 0);
	return 0;
}

void cli_print_error(struct cli *c, const json_t *reply)
{
	const json_t *err = json_object_get(reply, "error");
	const char *code = json_string_value(json_object_get(err, "code"));
	const char *msg = json_string_value(json_object_get(err, "message"));
	if (!code)
		code = "internal";
	if (!msg)
		msg = "(no message)";
	if (strcmp(code, "forbidden") == 0 && strstr(msg, "needs role td")) {
		errorf("you are not a tournament director (ask an admin: tengend grant %s td --db PATH)",
		       c->opt->user ? c->opt->user : "NAME");
	} else if (strcmp(code, "forbidden") == 0 && strstr(msg, "needs role admin")) {
		errorf("you are not an admin (ask one: tengend grant %s admin)",
		       c->opt->user ? c->opt->user : "NAME");
	} else if (strcmp(code, "unauthenticated") == 0 && !c->opt->user) {
		errorf("%s: log in first (--user NAME, with --password-file F or TENGEN_PASSWORD)",
		       msg);
	} else {
		errorf("%s (%s)", msg, code);
	}
}

bool cli_reply_ok(struct cli *c, const json_t *reply)
{
	if (!reply)
		return false;
	uv_timer_stop(&c->timer);
	if (json_is_true(json_object_get(reply, "ok")))
		return true;
	cli_print_error(c, reply);
	c->status = CMD_EXIT_FAILURE;
	return false;
}

void cli_print_json(const json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
	if (s) {
		puts(s);
		free(s);
	}
}

static void on_ready(struct session *s, bool first, void *ctx)
{
	struct cli *c = ctx;
	(void)s;
	if (!first || c->done)
		return;
	c->start(c);
	fflush(stdout);
}

static void on_error(struct session *s, const char *error, bool final, void *ctx)
{
	struct cli *c = ctx;
	(void)s;
	if (!final || c->done)
		return;
	errorf("%s", error);
	cli_finish(c, CMD_EXIT_FAILURE);
}

static void on_event(struct session *s, json_t *event, void *ctx)
{
	struct cli *c = ctx;
	(void)s;
	if (c->on_event && !c->done) {
		c->on_event(c, event);
		fflush(stdout);
	}
}

int cli_run(const struct cli_opts *o, bool login, cli_start_fn start, cli_event_fn ev, void *ctx)
{
	char *password = NULL;
	if (login) {
		if (!o->user) {
			errorf("this command needs a login: --user NAME, with --password-file F or "
			       "TENGEN_PASSWORD");
			return CMD_EXIT_USAGE;
		}
		password = session_password(o->password_file);
		if (!password) {
			if (!o->password_file)
				errorf("no password for %s: use --password-file F or set "
				       "TENGEN_PASSWORD", o->user);
			return CMD_EXIT_USAGE;
		}
	}
	struct cli *c = calloc(1, sizeof *c);
	if (!c) {
		free(password);
		errorf("out of memory");
		return CMD_EXIT_FAILURE;
	}
	c->opt = o;
	c->start = start;
	c->on_event = ev;
	c->ctx = ctx;
	c->status = CMD_EXIT_OK;
	uv_loop_init(&c->loop);
	uv_timer_init(&c->loop, &c->timer);
	c->timer.data = c;
	struct session_options so = {
		.server = o->server,
		.user = login ? o->user : NULL,
		.password = password,
		.reconnect = false,
		.on_ready = on_ready,
		.on_event = on_event,
		.on_error = on_error,
		.ctx = c,
	};
	c->s = session_open(&c->loop, &so);
	if (password) {
		memset(password, 0, strlen(password));
		free(password);
	}
	int status;
	if (!c->s) {
		status = CMD_EXIT_USAGE;
	} else {
		uv_run(&c->loop, UV_RUN_DEFAULT);
		if (!c->done) /* the loop ran dry without an answer: should not happen */
			cli_finish(c, CMD_EXIT_FAILURE);
		status = c->status;
	}
	if (c->s)
		session_close(c->s);
	uv_close((uv_handle_t *)&c->timer, NULL);
	uv_run(&c->loop, UV_RUN_DEFAULT);
	uv_loop_close(&c->loop);
	free(c);
	fflush(stdout);
	return status;
}

/* ---- printing games ---- */

static void format_duration(int64_t ms, char *out, size_t n)
{
	if (ms < 0)
		ms = 0;
	int64_t s = ms / 1000;
	if (s >= 3600)
		snprintf(out, n, "%" PRId64 ":%02d:%02d", s / 3600, (int)(s / 60 % 60),
			 (int)(s % 60));
	else if (s < 10 && ms % 1000)
		snprintf(out, n, "0:%02d.%d", (int)s, (int)(ms % 1000 / 100));
	else
		snprintf(out, n, "%d:%02d", (int)(s / 60), (int)(s % 60));
}

void cli_format_clock(const json_t *clock, char *out, size_t n)
{
	if (!json_is_object(clock)) {
		snprintf(out, n, "-");
		return;
	}
	char main_s[32], per[32];
	format_duration(json_integer_value(json_object_get(clock, "main_ms")), main_s,
			sizeof main_s);
	const json_t *periods = json_object_get(clock, "periods");
	const json_t *stones = json_object_get(clock, "stones");
	const json_t *period_ms = json_object_get(clock, "period_ms");
	if (json_is_integer(period_ms))
		format_duration(json_integer_value(period_ms), per, sizeof per);
	if (json_is_integer(periods) && json_is_integer(period_ms))
		snprintf(out, n, "%s + %dx%s", main_s, (int)json_integer_value(periods), per);
	else if (json_is_integer(stones) && json_is_integer(period_ms))
		snprintf(out, n, "%s + %d stones/%s", main_s, (int)json_integer_value(stones), per);
	else
		snprintf(out, n, "%s", main_s);
}

static const char *str_or(const json_t *o, const char *key, const char *dflt)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : dflt;
}

static void print_columns(int size)
{
	fputs("   ", stdout);
	for (int x = 0; x < size; x++)
		printf(" %c", CLI_COLUMNS[x]);
	putchar('\n');
}

void cli_print_board(const json_t *game)
{
	const json_t *board = json_object_get(game, "board");
	int size = (int)json_integer_value(json_object_get(game, "size"));
	if (size < 1 || size > (int)strlen(CLI_COLUMNS) || !json_is_array(board))
		return;
	print_columns(size);
	for (int r = 0; r < size; r++) {
		const char *row = json_string_value(json_array_get(board, (size_t)r));
		printf("%3d", size - r);
		for (int x = 0; x < size; x++)
			printf(" %c", row && (int)strlen(row) > x ? row[x] : '?');
		printf(" %d\n", size - r);
	}
	print_columns(size);
	const json_t *clocks = json_object_get(game, "clocks");
	const json_t *warn = json_object_get(game, "warnings");
	char cb[64], cw[64];
	cli_format_clock(json_object_get(clocks, "B"), cb, sizeof cb);
	cli_format_clock(json_object_get(clocks, "W"), cw, sizeof cw);
	printf("Black (X) %s: %s", str_or(game, "black", "?"), cb);
	if (json_integer_value(json_object_get(warn, "B")) > 0)
		printf(", %d warning(s)", (int)json_integer_value(json_object_get(warn, "B")));
	printf("   White (O) %s: %s", str_or(game, "white", "?"), cw);
	if (json_integer_value(json_object_get(warn, "W")) > 0)
		printf(", %d warning(s)", (int)json_integer_value(json_object_get(warn, "W")));
	putchar('\n');
}

static void print_result(const char *result, const char *reason, const json_t *score)
{
	printf("Result: %s", result ? result : "?");
	if (reason)
		printf(" (%s)", reason);
	if (json_is_object(score))
		printf(", score: Black %g, White %g, komi %g",
		       json_number_value(json_object_get(score, "black")),
		       json_number_value(json_object_get(score, "white")),
		       json_number_value(json_object_get(score, "komi")));
	putchar('\n');
}

/* ---- call ---- */

static const char call_usage[] =
	"usage: tengen [GLOBAL OPTIONS] call CMD [KEY=VALUE ...]\n"
	"       tengen [GLOBAL OPTIONS] call -\n"
	"Send one request (CMD with fields KEY=VALUE; a VALUE that parses as JSON is taken as JSON:\n"
	"5, true, [\"D4\"], {\"system\":\"none\"}; anything else is a string), or with '-' one\n"
	"request per line of standard input (JSON objects), and print each reply as one JSON line.\n"
	"With --user, log in first. Exit status 1 if any reply is an error.\n";

struct call_ctx {
	json_t *req;   /* the single request (args mode), or NULL */
	bool from_stdin;
	long lineno;
	json_t *user_id; /* the "id" the user gave the request in flight, or NULL */
	bool failed;
};

static void call_next(struct cli *c);

static void call_reply(struct session *s, json_t *reply, void *arg)
{
	struct cli *c = CLI_OF(arg);
	struct call_ctx *x = c->ctx;
	(void)s;
	if (!reply)
		return;
	uv_timer_stop(&c->timer);
	json_t *out = json_copy(reply);
	if (out) {
		if (x->user_id)
			json_object_set(out, "id", x->user_id);
		else
			json_object_del(out, "id");
		cli_print_json(out);
		json_decref(out);
	}
	fflush(stdout);
	json_decref(x->user_id);
	x->user_id = NULL;
	if (!json_is_true(json_object_get(reply, "ok"))) {
		x->failed = true;
		cli_print_error(c, reply);
	}
	if (x->from_stdin)
		call_next(c);
	else
		cli_finish(c, x->failed ? CMD_EXIT_FAILURE : CMD_EXIT_OK);
}

/* Send `req` (consumed), remembering the user's own "id" to put back into the reply. */
static void call_send(struct cli *c, json_t *req)
{
	struct call_ctx *x = c->ctx;
	json_t *id = json_object_get(req, "id");
	x->user_id = id ? json_incref(id) : NULL;
	cli_send(c, req, call_reply);
}

/* `call -`: the next request line of stdin, or the end. */
static void call_next(struct cli *c)
{
	struct call_ctx *x = c->ctx;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, stdin)) >= 0) {
		x->lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		size_t lead = strspn(line, " \t");
		if (line[lead] == '\0' || line[lead] == '#')
			continue;
		if (n > CLI_LINE_MAX) {
			errorf("line %ld: longer than %d bytes", x->lineno, CLI_LINE_MAX);
			x->failed = true;
			continue;
		}
		json_error_t jerr;
		json_t *req = json_loadb(line, (size_t)n, 0, &jerr);
		if (!json_is_object(req)) {
			errorf("line %ld: not a JSON object%s%s", x->lineno, req ? "" : ": ",
			       req ? "" : jerr.text);
			json_decref(req);
			x->failed = true;
			continue;
		}
		free(line);
		call_send(c, req);
		return;
	}
	free(line);
	cli_finish(c, x->failed ? CMD_EXIT_FAILURE : CMD_EXIT_OK);
}

static void call_start(struct cli *c)
{
	struct call_ctx *x = c->ctx;
	if (x->from_stdin) {
		call_next(c);
		return;
	}
	json_t *req = x->req;
	x->req = NULL;
	call_send(c, req);
}

/* "key=value": value as JSON if it parses as JSON, else as a string. */
static int call_field(json_t *req, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg) {
		errorf("'%s' is not KEY=VALUE", arg);
		return -1;
	}
	char *key = strndup(arg, (size_t)(eq - arg));
	if (!key)
		return -1;
	const char *text = eq + 1;
	json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
	if (!v)
		v = json_string(text);
	int rc = v && json_object_set_new(req, key, v) == 0 ? 0 : -1;
	if (rc != 0)
		errorf("cannot use '%s' (not valid UTF-8?)", arg);
	free(key);
	return rc;
}

int cmd_call(int argc, char **argv)
{
	struct cli_opts o = {0};
	struct call_ctx x = {0};
	const char *cmd = NULL;
	json_t *req = json_object();
	int status = CMD_EXIT_USAGE;
	if (!req)
		return CMD_EXIT_FAILURE;
	for (int i = 1; i < argc;) {
		int r = cli_global_option(&o, argc, argv, &i);
		if (r < 0)
			goto out;
		if (r > 0)
			continue;
		const char *a = argv[i++];
		if (!cmd && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
			fputs(call_usage, stdout);
			status = CMD_EXIT_OK;
			goto out;
		}
		if (!cmd) {
			if (a[0] == '-' && a[1] != '\0') {
				errorf("call: unknown option '%s'", a);
				fputs(call_usage, stderr);
				goto out;
			}
			cmd = a;
			continue;
		}
		if (x.from_stdin) {
			errorf("call -: no KEY=VALUE arguments (the requests come from stdin)");
			goto out;
		}
		if (call_field(req, a) != 0)
			goto out;
	}
	if (!cmd) {
		fputs(call_usage, stderr);
		goto out;
	}
	if (strcmp(cmd, "-") == 0) {
		x.from_stdin = true;
		if (json_object_size(req) > 0) {
			errorf("call -: no KEY=VALUE arguments (the requests come from stdin)");
			goto out;
		}
	} else {
		json_t *cmdv = json_string(cmd);
		/* "cmd" first, for readability of the line on the wire. */
		json_t *full = json_object();
		if (!cmdv || !full) {
			json_decref(cmdv);
			json_decref(full);
			status = CMD_EXIT_FAILURE;
			goto out;
		}
		json_object_set_new(full, "cmd", cmdv);
		json_object_update(full, req);
		json_object_set_new(full, "cmd", json_string(cmd));
		json_decref(req);
		req = full;
		x.req = json_incref(req);
	}
	status = cli_run(&o, o.user != NULL, call_start, NULL, &x);
out:
	json_decref(x.req);
	json_decref(x.user_id);
	json_decref(req);
	return status;
}

/* ---- register ---- */

static const char register_usage[] =
	"usage: tengen [--server HOST:PORT] --user NAME [--password-file F] register [--rank RANK]\n"
	"Create the account NAME with the password from --password-file (first line) or\n"
	"TENGEN_PASSWORD (at least 8 bytes). --rank declares a rank (15k..1k, 1d..9d, e.g. 3k)\n"
	"that the rating starts from. Does not log in.\n";

struct register_ctx {
	const char *rank;
	char *password;
};

static void register_reply(struct session *s, json_t *reply, void *arg)
{
	struct cli *c = CLI_OF(arg);
	(void)s;
	if (!reply)
		return;
	bool ok = cli_reply_ok(c, reply);
	if (c->opt->json) {
		cli_print_json(reply);
	} else if (ok) {
		const json_t *p = json_object_get(reply, "player");
		const char *rank = json_string_value(json_object_get(p, "declared_rank"));
		printf("registered %s (rating %.0f%s%s)\n", str_or(p, "name", c->opt->user),
		       json_number_value(json_object_get(p, "rating")), rank ? ", rank " : "",
		       rank ? rank : "");
	}
	cli_finish(c, ok ? CMD_EXIT_OK : CMD_EXIT_FAILURE);
}

static void register_start(struct cli *c)
{
	struct register_ctx *x = c->ctx;
	cli_send(c, json_pack("{s:s, s:s, s:s, s:s?}", "cmd", "register", "name", c->opt->user,
			      "password", x->password, "rank", x->rank),
		 register_reply);
}

int cmd_register(int argc, char **argv)
{
	struct cli_opts o = {0};
	struct register_ctx x = {0};
	for (int i = 1; i < argc;) {
		int r = cli_global_option(&o, argc, argv, &i);
		if (r == 0)
			r = cli_option_value("--rank", argc, argv, &i, &x.rank);
		if (r < 0)
			return CMD_EXIT_USAGE;
		if (r > 0)
			continue;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(register_usage, stdout);
			return CMD_EXIT_OK;
		}
		errorf("register: unexpected argument '%s'", argv[i]);
		fputs(register_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	if (!o.user) {
		errorf("register: name the new account with --user NAME");
		fputs(register_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	x.password = session_password(o.password_file);
	if (!x.password) {
		if (!o.password_file)
			errorf("register: no password: use --password-file F or set TENGEN_PASSWORD");
		return CMD_EXIT_USAGE;
	}
	int status = cli_run(&o, false, register_start, NULL, &x);
	memset(x.password, 0, strlen(x.password));
	free(x.password);
	return status;
}

/* ---- simple queries: one request, one printer ---- */

typedef void (*query_print_fn)(struct cli *c, const json_t *reply);

struct query_ctx {
	json_t *req;
	query_print_fn print;
};

static void query_reply(struct session *s, json_t *reply, void *arg)
{
	struct cli *c = CLI_OF(arg);
	struct query_ctx *x = c->ctx;
	(void)s;
	if (!reply)
		return;
	bool ok = cli_reply_ok(c, reply);
	if (c->opt->json)
		cli_print_json(reply);
	else if (ok)
		x->print(c, reply);
	cli_finish(c, ok ? CMD_EXIT_OK : CMD_EXIT_FAILURE);
}

static void query_start(struct cli *c)
{
	struct query_ctx *x = c->ctx;
	json_t *req = x->req;
	x->req = NULL;
	cli_send(c, req, query_reply);
}

/* Run one query (req consumed); login only when --user was given. */
static int run_query(const struct cli_opts *o, json_t *req, query_print_fn print)
{
	if (!req) {
		errorf("out of memory");
		return CMD_EXIT_FAILURE;
	}
	struct query_ctx x = {req, print};
	int status = cli_run(o, o->user != NULL, query_start, NULL, &x);
	json_decref(x.req);
	return status;
}

int cli_parse_args(int argc, char **argv, struct cli_opts *o, const char *usage,
		      const char *const *names, const char **values, int nnames,
		      const char **pos, int maxpos, int *npos)
{
	*npos = 0;
	for (int i = 1; i < argc;) {
		int r = cli_global_option(o, argc, argv, &i);
		for (int k = 0; r == 0 && k < nnames; k++)
			r = cli_option_value(names[k], argc, argv, &i, &values[k]);
		if (r < 0) {
			fputs(usage, stderr);
			return -1;
		}
		if (r > 0)
			continue;
		const char *a = argv[i++];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage, stdout);
			return 1;
		}
		if (a[0] == '-' && a[1] != '\0') {
			errorf("%s: unknown option '%s'", argv[0], a);
			fputs(usage, stderr);
			return -1;
		}
		if (*npos >= maxpos) {
			errorf("%s: unexpected argument '%s'", argv[0], a);
			fputs(usage, stderr);
			return -1;
		}
		pos[(*npos)++] = a;
	}
	return 0;
}

/* ---- standings ---- */

static const char standings_usage[] =
	"usage: tengen [GLOBAL OPTIONS] standings TOURNAMENT [--round N] [--json]\n"
	"Print a tournament's standings (after round N; default the latest).\n";

static void standings_print(struct cli *c, const json_t *reply)
{
	(void)c;
	const json_t *rows = json_object_get(reply, "standings");
	const json_t *first = json_object_get(json_array_get(rows, 0), "tiebreaks");
	printf("Tournament %lld, after round %lld (score %s)\n",
	       (long long)json_integer_value(json_object_get(reply, "tournament")),
	       (long long)json_integer_value(json_object_get(reply, "round")),
	       str_or(reply, "score", "PTS"));
	printf("%4s  %-20s %6s %4s %4s %4s %4s", "Rank", "Player", "Score", "W", "D", "L", "Warn");
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)first, key, v)
		if (strcmp(key, "WARN") != 0) /* the Warn column shows it */
			printf(" %7s", key);
	putchar('\n');
	size_t i;
	const json_t *row;
	json_array_foreach(rows, i, row) {
		printf("%4lld  %-20s %6g %4lld %4lld %4lld %4lld",
		       (long long)json_integer_value(json_object_get(row, "rank")),
		       str_or(row, "player", "?"),
		       json_number_value(json_object_get(row, "score")),
		       (long long)json_integer_value(json_object_get(row, "wins")),
		       (long long)json_integer_value(json_object_get(row, "draws")),
		       (long long)json_integer_value(json_object_get(row, "losses")),
		       (long long)json_integer_value(json_object_get(row, "warnings")));
		json_object_foreach(json_object_get(row, "tiebreaks"), key, v)
			if (strcmp(key, "WARN") != 0)
				printf(" %7g", json_number_value(v));
		putchar('\n');
	}
	if (json_array_size(rows) == 0)
		puts("(no players)");
	else if (strcmp(str_or(reply, "score", "PTS"), "PTS") == 0)
		puts("Score: 2 points a win, 1 a draw, 0 a loss (Chinese Rules 2002, Art. 27.1).");
}

int cmd_standings(int argc, char **argv)
{
	struct cli_opts o = {0};
	static const char *const names[] = {"--round"};
	const char *values[1] = {NULL};
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, &o, standings_usage, names, values, 1, pos, 1, &npos);
	if (r != 0)
		return r > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	json_int_t t, round = 0;
	if (npos != 1) {
		fputs(standings_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	if (cli_parse_id("TOURNAMENT", pos[0], &t) != 0 ||
	    (values[0] && cli_parse_id("--round", values[0], &round) != 0))
		return CMD_EXIT_USAGE;
	json_t *req = json_pack("{s:s, s:I}", "cmd", "tournament.standings", "tournament", t);
	if (req && round)
		json_object_set_new(req, "round", json_integer(round));
	return run_query(&o, req, standings_print);
}

/* ---- pairings ---- */

static const char pairings_usage[] =
	"usage: tengen [GLOBAL OPTIONS] pairings TOURNAMENT [ROUND] [--json]\n"
	"Print a round's pairings (default the current round): game, Black, White, result.\n";

void cli_print_pairings(const json_t *reply)
{
	printf("Tournament %lld, round %lld\n",
	       (long long)json_integer_value(json_object_get(reply, "tournament")),
	       (long long)json_integer_value(json_object_get(reply, "round")));
	printf("%6s  %-20s %-20s %s\n", "Game", "Black", "White", "Result");
	size_t i;
	const json_t *p;
	json_array_foreach(json_object_get(reply, "pairings"), i, p) {
		printf("%6lld  %-20s %-20s %s", (long long)json_integer_value(json_object_get(p, "game")),
		       str_or(p, "black", "?"), str_or(p, "white", "?"), str_or(p, "result", "-"));
		long long h = (long long)json_integer_value(json_object_get(p, "handicap"));
		if (h > 0)
			printf("  (handicap %lld)", h);
		putchar('\n');
	}
	const json_t *byes = json_object_get(reply, "byes");
	if (json_array_size(byes) > 0) {
		fputs("Bye:", stdout);
		json_array_foreach(byes, i, p)
			printf(" %s", json_string_value(p) ? json_string_value(p) : "?");
		putchar('\n');
	}
}

static void pairings_print(struct cli *c, const json_t *reply)
{
	(void)c;
	cli_print_pairings(reply);
}

int cmd_pairings(int argc, char **argv)
{
	struct cli_opts o = {0};
	const char *pos[2];
	int npos;
	int r = cli_parse_args(argc, argv, &o, pairings_usage, NULL, NULL, 0, pos, 2, &npos);
	if (r != 0)
		return r > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	json_int_t t, round = 0;
	if (npos < 1) {
		fputs(pairings_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	if (cli_parse_id("TOURNAMENT", pos[0], &t) != 0 ||
	    (npos > 1 && cli_parse_id("ROUND", pos[1], &round) != 0))
		return CMD_EXIT_USAGE;
	json_t *req = json_pack("{s:s, s:I}", "cmd", "tournament.pairings", "tournament", t);
	if (req && round)
		json_object_set_new(req, "round", json_integer(round));
	return run_query(&o, req, pairings_print);
}

/* ---- games ---- */

static const char games_usage[] =
	"usage: tengen [GLOBAL OPTIONS] games [--phase pending|scheduled|playing|counting|ended]\n"
	"                                     [--player NAME] [--tournament T] [--limit N] [--json]\n"
	"List games, newest first.\n";

static void games_print(struct cli *c, const json_t *reply)
{
	(void)c;
	const json_t *games = json_object_get(reply, "games");
	printf("%6s  %-16s %-16s %5s %5s  %-9s %-8s %s\n", "Game", "Black", "White", "Size", "Komi",
	       "Phase", "Result", "Tournament");
	size_t i;
	const json_t *g;
	json_array_foreach(games, i, g) {
		char tour[48] = "-";
		const json_t *t = json_object_get(g, "tournament");
		if (json_is_integer(t))
			snprintf(tour, sizeof tour, "%lld round %lld", (long long)json_integer_value(t),
				 (long long)json_integer_value(json_object_get(g, "round")));
		printf("%6lld  %-16s %-16s %5lld %5g  %-9s %-8s %s\n",
		       (long long)json_integer_value(json_object_get(g, "id")), str_or(g, "black", "?"),
		       str_or(g, "white", "?"), (long long)json_integer_value(json_object_get(g, "size")),
		       json_number_value(json_object_get(g, "komi")), str_or(g, "phase", "?"),
		       str_or(g, "result", "-"), tour);
	}
	if (json_array_size(games) == 0)
		puts("(no games)");
}

int cmd_games(int argc, char **argv)
{
	struct cli_opts o = {0};
	static const char *const names[] = {"--phase", "--player", "--tournament", "--limit"};
	const char *values[4] = {NULL, NULL, NULL, NULL};
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, &o, games_usage, names, values, 4, pos, 0, &npos);
	if (r != 0)
		return r > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	json_int_t t = 0, limit = 0;
	if ((values[2] && cli_parse_id("--tournament", values[2], &t) != 0) ||
	    (values[3] && cli_parse_id("--limit", values[3], &limit) != 0))
		return CMD_EXIT_USAGE;
	json_t *req = json_pack("{s:s, s:s?, s:s?}", "cmd", "games", "phase", values[0], "player",
				values[1]);
	if (req && t)
		json_object_set_new(req, "tournament", json_integer(t));
	if (req && limit)
		json_object_set_new(req, "limit", json_integer(limit));
	return run_query(&o, req, games_print);
}

/* ---- sgf ---- */

static const char sgf_usage[] =
	"usage: tengen [GLOBAL OPTIONS] sgf GAME [--json]\n"
	"Print a game's record (SGF FF[4]), live or ended.\n";

static void sgf_print(struct cli *c, const json_t *reply)
{
	(void)c;
	const char *sgf = str_or(reply, "sgf", "");
	fputs(sgf, stdout);
	size_t n = strlen(sgf);
	if (n == 0 || sgf[n - 1] != '\n')
		putchar('\n');
}

int cmd_sgf(int argc, char **argv)
{
	struct cli_opts o = {0};
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, &o, sgf_usage, NULL, NULL, 0, pos, 1, &npos);
	if (r != 0)
		return r > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	json_int_t g;
	if (npos != 1) {
		fputs(sgf_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	if (cli_parse_id("GAME", pos[0], &g) != 0)
		return CMD_EXIT_USAGE;
	return run_query(&o, json_pack("{s:s, s:I}", "cmd", "sgf", "game", g), sgf_print);
}

/* ---- watch ---- */

static const char watch_usage[] =
	"usage: tengen [GLOBAL OPTIONS] watch GAME [--json]\n"
	"Observe a game: print the board and both clocks after each move, until the result.\n"
	"With --json, print the observe reply and then every event of the game, one per line.\n";

struct watch_ctx {
	json_int_t game;
	bool fetching;        /* a `game` request is out */
	bool ended;           /* game.end came */
	json_t *end;          /* the game.end event, printed after the last board */
	json_t *last_move;    /* the latest game.move event, printed with the board */
};

static void watch_print_move(const json_t *mv)
{
	if (!mv)
		return;
	printf("Move %lld: %s %s", (long long)json_integer_value(json_object_get(mv, "number")),
	       strcmp(str_or(mv, "color", "?"), "B") == 0 ? "Black" : "White",
	       str_or(mv, "vertex", "?"));
	size_t ncap = json_array_size(json_object_get(mv, "captures"));
	if (ncap)
		printf(", captures %zu", ncap);
	const char *forfeited = json_string_value(json_object_get(mv, "forfeited"));
	if (forfeited)
		printf(" (turn forfeited: %s)", forfeited);
	putchar('\n');
}

static void watch_finish(struct cli *c)
{
	struct watch_ctx *x = c->ctx;
	const json_t *e = x->end;
	print_result(json_string_value(json_object_get(e, "result")),
		     json_string_value(json_object_get(e, "reason")), json_object_get(e, "score"));
	cli_finish(c, CMD_EXIT_OK);
}

static void watch_game_reply(struct session *s, json_t *reply, void *arg)
{
	struct cli *c = CLI_OF(arg);
	struct watch_ctx *x = c->ctx;
	(void)s;
	if (!reply)
		return;
	x->fetching = false;
	if (!cli_reply_ok(c, reply)) {
		cli_finish(c, CMD_EXIT_FAILURE);
		return;
	}
	const json_t *g = json_object_get(reply, "game");
	watch_print_move(x->last_move);
	cli_print_board(g);
	const char *to_move = json_string_value(json_object_get(g, "to_move"));
	if (to_move && !x->ended)
		printf("%s to move\n", strcmp(to_move, "B") == 0 ? "Black" : "White");
	putchar('\n');
	fflush(stdout);
	if (x->ended) {
		watch_finish(c);
		return;
	}
	/* A game that ended before we could observe it. */
	if (strcmp(str_or(g, "phase", ""), "ended") == 0) {
		print_result(json_string_value(json_object_get(g, "result")),
			     json_string_value(json_object_get(g, "reason")),
			     json_object_get(g, "score"));
		cli_finish(c, CMD_EXIT_OK);
	}
}

static void watch_fetch(struct cli *c)
{
	struct watch_ctx *x = c->ctx;
	if (x->fetching)
		return;
	x->fetching = true;
	cli_send(c, json_pack("{s:s, s:I}", "cmd", "game", "game", x->game), watch_game_reply);
}

static void watch_observe_reply(struct session *s, json_t *reply, void *arg)
{
	struct cli *c = CLI_OF(arg);
	struct watch_ctx *x = c->ctx;
	(void)s;
	if (!reply)
		return;
	const char *code = json_string_value(json_object_get(json_object_get(reply, "error"), "code"));
	if (c->opt->json) {
		cli_print_json(reply);
		if (!json_is_true(json_object_get(reply, "ok")))
			cli_finish(c, CMD_EXIT_FAILURE);
		return;
	}
	if (code && strcmp(code, "conflict") == 0) {
		/* Over already: show the final position and the result. */
		uv_timer_stop(&c->timer);
		printf("Game %lld is over.\n", (long long)x->game);
		watch_fetch(c);
		return;
	}
	if (!cli_reply_ok(c, reply)) {
		cli_finish(c, CMD_EXIT_FAILURE);
		return;
	}
	const json_t *g = json_object_get(reply, "game");
	printf("Watching game %lld: %s (Black) vs %s (White), %lldx%lld, komi %g, %s\n",
	       (long long)x->game, str_or(g, "black", "?"), str_or(g, "white", "?"),
	       (long long)json_integer_value(json_object_get(g, "size")),
	       (long long)json_integer_value(json_object_get(g, "size")),
	       json_number_value(json_object_get(g, "komi")), str_or(g, "phase", "?"));
	cli_print_board(g);
	const char *to_move = json_string_value(json_object_get(g, "to_move"));
	if (to_move)
		printf("%s to move\n", strcmp(to_move, "B") == 0 ? "Black" : "White");
	putchar('\n');
	fflush(stdout);
}

static void watch_event(struct cli *c, json_t *ev)
{
	struct watch_ctx *x = c->ctx;
	const char *name = json_string_value(json_object_get(ev, "event"));
	if (!name || json_integer_value(json_object_get(ev, "game")) != x->game)
		return;
	bool end = strcmp(name, "game.end") == 0;
	if (c->opt->json) {
		cli_print_json(ev);
		if (end)
			cli_finish(c, CMD_EXIT_OK);
		return;
	}
	if (strcmp(name, "game.move") == 0) {
		json_decref(x->last_move);
		x->last_move = json_incref(ev);
		watch_fetch(c);
	} else if (end) {
		x->ended = true;
		x->end = json_incref(ev);
		if (!x->fetching)
			watch_finish(c);
	} else if (strcmp(name, "game.warning") == 0) {
		printf("Warning to %s: %s (%lld warning(s))\n",
		       strcmp(str_or(ev, "color", "?"), "B") == 0 ? "Black" : "White",
		       str_or(ev, "reason", "?"),
		       (long long)json_integer_value(json_object_get(ev, "warnings")));
	} else if (strcmp(name, "game.counting") == 0) {
		puts("Both passed: counting (players mark dead stones).");
	} else if (strcmp(name, "game.paused") == 0) {
		printf("Paused by %s.\n", str_or(ev, "by", "a director"));
	} else if (strcmp(name, "game.resume") == 0) {
		printf("Resumed%s%s; %s to move.\n", json_object_get(ev, "by") ? " by " : "",
		       str_or(ev, "by", ""),
		       strcmp(str_or(ev, "to_move", "?"), "B") == 0 ? "Black" : "White");
	} else if (strcmp(name, "game.begin") == 0) {
		puts("The game begins: Black's clock runs.");
	}
}

static void watch_start(struct cli *c)
{
	struct watch_ctx *x = c->ctx;
	c->no_timeout = false; /* the observe reply is bounded; events are not */
	cli_send(c, json_pack("{s:s, s:I}", "cmd", "observe", "game", x->game), watch_observe_reply);
	c->no_timeout = true;
}

int cmd_watch(int argc, char **argv)
{
	struct cli_opts o = {0};
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, &o, watch_usage, NULL, NULL, 0, pos, 1, &npos);
	if (r != 0)
		return r > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	struct watch_ctx x = {0};
	if (npos != 1) {
		fputs(watch_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	if (cli_parse_id("GAME", pos[0], &x.game) != 0)
		return CMD_EXIT_USAGE;
	int status = cli_run(&o, o.user != NULL, watch_start, watch_event, &x);
	json_decref(x.end);
	json_decref(x.last_move);
	return status;
}
