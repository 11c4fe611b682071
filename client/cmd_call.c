/* client/cmd_call: `tengen call`, raw requests and their replies as JSON lines. See
 * commands.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_print.h"
#include "cli_run.h"
#include "commands.h"

#define CLI_LINE_MAX 65536 /* bytes of one request line read by `call -` (docs/protocol.md) */

/* ---- call ---- */

static const char call_usage[] =
	"usage: tengen [GLOBAL OPTIONS] call CMD [KEY=VALUE ...]\n"
	"       tengen [GLOBAL OPTIONS] call -\n"
	"Send one request (CMD with fields KEY=VALUE; a VALUE that parses as JSON is taken as JSON:\n"
	"5, true, [\"D4\"], {\"system\":\"none\"}; anything else is a string), or with '-' one\n"
	"request per line of standard input (JSON objects), and print each reply as one JSON line.\n"
	"With --user, log in first. Exit status 3 if any reply is an error (its text also goes to\n"
	"stderr), 1 if a line of stdin is not a request.\n";

struct call_ctx {
	json_t *req;   /* the single request (args mode), or NULL */
	bool from_stdin;
	long lineno;
	json_t *user_id; /* the "id" the user gave the request in flight, or NULL */
	bool failed;     /* a line of stdin was no request: exit status 1 */
	bool refused;    /* an error reply came: exit status CMD_EXIT_REFUSED */
};

static int call_status(const struct call_ctx *x)
{
	return x->refused ? CMD_EXIT_REFUSED : x->failed ? CMD_EXIT_FAILURE : CMD_EXIT_OK;
}

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
		x->refused = true;
		cli_print_error(c, reply);
	}
	if (x->from_stdin)
		call_next(c);
	else
		cli_finish(c, call_status(x));
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
			cli_errorf("line %ld: longer than %d bytes", x->lineno, CLI_LINE_MAX);
			x->failed = true;
			continue;
		}
		json_error_t jerr;
		json_t *req = json_loadb(line, (size_t)n, 0, &jerr);
		if (!json_is_object(req)) {
			cli_errorf("line %ld: not a JSON object%s%s", x->lineno, req ? "" : ": ",
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
	cli_finish(c, call_status(x));
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
		cli_errorf("'%s' is not KEY=VALUE", arg);
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
		cli_errorf("cannot use '%s' (not valid UTF-8?)", arg);
	free(key);
	return rc;
}

/* Parse call's arguments: the global options, CMD, then its KEY=VALUE fields into req.
 * Returns -1 to go on, else the exit status (--help, a usage error; message printed). */
static int call_parse(int argc, char **argv, struct cli_opts *o, json_t *req, const char **cmd)
{
	struct cli_args a;
	cli_args_init(&a, argc, argv, o, NULL, 0);
	for (;;) {
		enum cli_token t = cli_next(&a);
		if (t == CLI_END)
			break;
		if (t == CLI_GLOBAL)
			continue;
		if (t == CLI_MISSING)
			return CMD_EXIT_USAGE;
		if (*cmd) { /* after CMD, every other argument is a field ("--help" too) */
			if (call_field(req, a.arg) != 0)
				return CMD_EXIT_USAGE;
			continue;
		}
		if (t == CLI_HELP) {
			fputs(call_usage, stdout);
			return CMD_EXIT_OK;
		}
		if (t == CLI_UNKNOWN) {
			cli_errorf("call: unknown option '%s'", a.arg);
			fputs(call_usage, stderr);
			return CMD_EXIT_USAGE;
		}
		*cmd = a.arg;
	}
	if (!*cmd) {
		fputs(call_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	return -1;
}

int cmd_call(int argc, char **argv)
{
	struct cli_opts o = {0};
	struct call_ctx x = {0};
	const char *cmd = NULL;
	json_t *req = json_object();
	if (!req)
		return CMD_EXIT_FAILURE;
	int status = call_parse(argc, argv, &o, req, &cmd);
	if (status >= 0)
		goto out;
	status = CMD_EXIT_USAGE;
	if (strcmp(cmd, "-") == 0) {
		x.from_stdin = true;
		if (json_object_size(req) > 0) {
			cli_errorf("call -: no KEY=VALUE arguments (the requests come from stdin)");
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
