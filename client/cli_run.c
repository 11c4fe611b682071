/* client/cli_run: the runner of the network subcommands. See cli_run.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_print.h"
#include "cli_run.h"

static void timer_cb(uv_timer_t *t)
{
	struct cli *c = t->data;
	cli_errorf("no reply from the server at %s within %d s", session_server(c->s),
		   CLI_REPLY_TIMEOUT_MS / 1000);
	cli_finish(c, CMD_EXIT_UNREACHABLE);
}

void cli_finish(struct cli *c, int status)
{
	if (c->done)
		return;
	c->done = true;
	c->status = status;
	if (c->rc && c->rc->on_stop)
		c->rc->on_stop(c);
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
		cli_errorf("could not send the request to the server");
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
		cli_errorf("you are not a tournament director (ask an admin: tengend grant %s td "
			   "--db PATH)", c->opt->user ? c->opt->user : "NAME");
	} else if (strcmp(code, "forbidden") == 0 && strstr(msg, "needs role admin")) {
		cli_errorf("you are not an admin (ask one: tengend grant %s admin)",
			   c->opt->user ? c->opt->user : "NAME");
	} else if (strcmp(code, "unauthenticated") == 0 && !c->opt->user) {
		cli_errorf("%s: log in first (--user NAME, with --password-file F or "
			   "TENGEN_PASSWORD)", msg);
	} else {
		cli_errorf("%s (%s)", msg, code);
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
	c->status = CMD_EXIT_REFUSED;
	return false;
}


static void on_ready(struct session *s, bool first, void *ctx)
{
	struct cli *c = ctx;
	(void)s;
	if (c->done)
		return;
	c->was_ready = true;
	if (!first && c->rc && c->rc->on_reconnect)
		c->rc->on_reconnect(c);
	else if (first)
		c->start(c);
	fflush(stdout);
}

int cli_status_of_failure(enum session_failure kind)
{
	switch (kind) {
	case SESSION_FAIL_UNREACHABLE:
	case SESSION_FAIL_LOST:
	case SESSION_FAIL_PROTOCOL:
		return CMD_EXIT_UNREACHABLE;
	case SESSION_FAIL_LOGIN:
		return CMD_EXIT_LOGIN;
	default:
		return CMD_EXIT_FAILURE;
	}
}

static void on_error(struct session *s, const char *error, bool final, void *ctx)
{
	struct cli *c = ctx;
	if (c->done)
		return;
	if (!final && c->was_ready) { /* cli_run_reconnecting: the session tries again */
		cli_errorf("%s; reconnecting", error);
		return;
	}
	/* (never connected: a wrong address or a server that is down is said at once) */
	cli_errorf("%s", error);
	cli_finish(c, cli_status_of_failure(session_failure(s)));
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
	return cli_run_reconnecting(o, login, start, ev, ctx, NULL);
}

int cli_run_reconnecting(const struct cli_opts *o, bool login, cli_start_fn start,
			 cli_event_fn ev, void *ctx, const struct cli_reconnect *rc)
{
	char *password = NULL;
	if (login) {
		if (!o->user) {
			cli_errorf("this command needs a login: --user NAME, with "
				   "--password-file F or TENGEN_PASSWORD");
			return CMD_EXIT_USAGE;
		}
		password = session_password(o->password_file);
		if (!password) {
			if (o->password_file)
				return CMD_EXIT_FAILURE; /* unreadable or empty: said */
			cli_errorf("no password for %s: use --password-file F or set "
				   "TENGEN_PASSWORD", o->user);
			return CMD_EXIT_USAGE;
		}
	}
	struct cli *c = calloc(1, sizeof *c);
	if (!c) {
		free(password);
		cli_errorf("out of memory");
		return CMD_EXIT_FAILURE;
	}
	c->opt = o;
	c->start = start;
	c->on_event = ev;
	c->ctx = ctx;
	c->rc = rc;
	c->status = CMD_EXIT_OK;
	uv_loop_init(&c->loop);
	uv_timer_init(&c->loop, &c->timer);
	c->timer.data = c;
	struct session_options so = {
		.server = o->server,
		.user = login ? o->user : NULL,
		.password = password,
		.reconnect = rc != NULL,
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

/* ---- batches ---- */

static void batch_send_next(struct cli *c);

static void batch_reply(struct session *s, json_t *reply, void *arg)
{
	struct cli *c = CLI_OF(arg);
	struct cli_batch *b = c->ctx;
	(void)s;
	if (!reply)
		return;
	const json_t *req = json_array_get(b->reqs, b->next - 1);
	if (b->print_error && !c->opt->json && !json_is_true(json_object_get(reply, "ok"))) {
		uv_timer_stop(&c->timer);
		b->failed = b->refused = true;
		b->print_error(b, req, reply);
		batch_send_next(c);
		return;
	}
	bool ok = cli_reply_ok(c, reply);
	if (!ok)
		b->failed = b->refused = true;
	/* An error is reported once, on stderr (cli_reply_ok): stdout has the results only. */
	if (ok && c->opt->json)
		cli_print_json(reply);
	else if (ok)
		b->print(b, req, reply);
	batch_send_next(c);
}

static void batch_send_next(struct cli *c)
{
	struct cli_batch *b = c->ctx;
	if (b->next >= json_array_size(b->reqs)) {
		cli_finish(c, b->refused ? CMD_EXIT_REFUSED : b->failed ? CMD_EXIT_FAILURE : CMD_EXIT_OK);
		return;
	}
	/* a copy: the session sets its "id", the printer gets the request as it was */
	json_t *req = json_deep_copy(json_array_get(b->reqs, b->next++));
	cli_send(c, req, batch_reply);
}

int cli_run_batch(const struct cli_opts *o, bool login, json_t *reqs, cli_print_fn print,
		  void *ctx)
{
	return cli_run_batch_each(o, login, reqs, print, NULL, ctx);
}

int cli_run_batch_each(const struct cli_opts *o, bool login, json_t *reqs, cli_print_fn print,
		       cli_print_fn print_error, void *ctx)
{
	if (!reqs) {
		cli_errorf("out of memory");
		return CMD_EXIT_FAILURE;
	}
	struct cli_batch b = {.opt = o, .reqs = reqs, .print = print, .print_error = print_error,
			      .ctx = ctx};
	int status = cli_run(o, login, batch_send_next, NULL, &b);
	json_decref(reqs);
	return status;
}

json_t *cli_batch_of(json_t *req)
{
	json_t *reqs = req ? json_array() : NULL;
	if (!reqs || json_array_append_new(reqs, req) != 0) {
		json_decref(reqs);
		if (!reqs)
			json_decref(req);
		return NULL;
	}
	return reqs;
}
