/* engine: a GTP engine child process on libuv (see engine.h).
 *
 * Lifecycle. The struct owns four libuv handles: the process, its stdin and stdout pipes and a
 * timer. "dead" means the engine can no longer answer (stdout EOF or error, a malformed
 * response, or the process reaped and its output drained): pending callbacks get NULL then.
 * "exited" means the process was reaped. The owner's on_exit runs once both are true. The struct
 * is freed only after engine_close, once every handle's close callback has come back.
 */
#include "config.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"

#define ENGINE_READ_CHUNK 4096
#define ENGINE_DRAIN_MS 500 /* after the process exits, how long its output may still come */

struct pending {
	engine_reply_cb cb;
	void *arg;
};

struct engine {
	uv_loop_t *loop;
	uv_process_t proc;
	uv_pipe_t in, out;
	uv_timer_t timer;
	int handles_open;     /* handles initialised and not yet closed back */
	bool dead, exited, closing, reported;
	int64_t status;
	int term_signal;
	int pid;
	struct pending q[ENGINE_QUEUE_MAX];
	int qhead, qlen;
	char *buf;            /* response bytes not yet complete ('\r' removed) */
	size_t len;
	char rbuf[ENGINE_READ_CHUNK];
	engine_exit_cb on_exit;
	void *ctx;
	FILE *log;            /* engine_set_log: the GTP traffic, or NULL */
	long long log_tag;
};

struct write_req {
	uv_write_t req;
	size_t len;
	char data[];
};

static void handle_closed(uv_handle_t *h)
{
	struct engine *e = h->data;
	if (--e->handles_open == 0) {
		free(e->buf);
		free(e);
	}
}

static void close_handle(struct engine *e, uv_handle_t *h)
{
	if (!uv_is_closing(h)) {
		h->data = e;
		uv_close(h, handle_closed);
	}
}

static void close_all(struct engine *e)
{
	uv_read_stop((uv_stream_t *)&e->out);
	close_handle(e, (uv_handle_t *)&e->in);
	close_handle(e, (uv_handle_t *)&e->out);
	close_handle(e, (uv_handle_t *)&e->timer);
	close_handle(e, (uv_handle_t *)&e->proc);
}

static void report_exit(struct engine *e)
{
	if (e->dead && e->exited && !e->closing && !e->reported) {
		e->reported = true;
		if (e->on_exit)
			e->on_exit(e, e->status, e->term_signal, e->ctx);
	}
}

/* The engine can no longer answer: fail every pending command (each callback may call
 * engine_close, which empties the queue), kill the process if it still runs. */
static void declare_dead(struct engine *e)
{
	if (e->dead)
		return;
	e->dead = true;
	uv_read_stop((uv_stream_t *)&e->out);
	if (!e->exited && e->pid)
		uv_process_kill(&e->proc, SIGKILL);
	while (e->qlen > 0 && !e->closing) {
		struct pending p = e->q[e->qhead];
		e->qhead = (e->qhead + 1) % ENGINE_QUEUE_MAX;
		e->qlen--;
		p.cb(e, false, NULL, p.arg);
	}
	report_exit(e);
}

static void timer_fired(uv_timer_t *t)
{
	struct engine *e = t->data;
	if (e->closing) {
		if (!e->exited && e->pid)
			uv_process_kill(&e->proc, SIGKILL);
		return;
	}
	declare_dead(e); /* exited, and its output did not end within ENGINE_DRAIN_MS */
}

static void process_exited(uv_process_t *p, int64_t status, int term_signal)
{
	struct engine *e = p->data;
	e->exited = true;
	e->pid = 0;
	e->status = status;
	e->term_signal = term_signal;
	if (e->closing) {
		close_all(e);
		return;
	}
	if (e->dead)
		report_exit(e);
	else
		uv_timer_start(&e->timer, timer_fired, ENGINE_DRAIN_MS, 0);
}

void engine_set_log(struct engine *e, FILE *log, long long tag)
{
	if (!e)
		return;
	e->log = log;
	e->log_tag = tag;
}

/* One line of traffic in the log: "HH:MM:SS [tag] > command" or "... < = response" (a
 * response's lines joined by " | "). */
static void log_traffic(struct engine *e, const char *dir, const char *text)
{
	if (!e->log)
		return;
	char stamp[16];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%H:%M:%S", &tm);
	fprintf(e->log, "%s [%lld] %s ", stamp, e->log_tag, dir);
	for (const char *p = text; *p; p++) {
		if (*p == '\n')
			fputs(" | ", e->log);
		else
			fputc(*p, e->log);
	}
	fputc('\n', e->log);
	fflush(e->log);
}

/* One complete response in e->buf[0..n) (no final blank line). Returns -1 if malformed. */
static int deliver(struct engine *e, char *resp, size_t n)
{
	if (n == 0 || (resp[0] != '=' && resp[0] != '?') || e->qlen == 0)
		return -1;
	bool ok = resp[0] == '=';
	resp[n] = '\0';
	char *text = resp + 1;
	while (*text >= '0' && *text <= '9') /* optional id */
		text++;
	if (*text == ' ' || *text == '\t')
		text++;
	else if (*text != '\n' && *text != '\0')
		return -1;
	size_t tl = strlen(text);
	while (tl > 0 && (text[tl - 1] == '\n' || text[tl - 1] == ' '))
		text[--tl] = '\0';
	struct pending p = e->q[e->qhead];
	e->qhead = (e->qhead + 1) % ENGINE_QUEUE_MAX;
	e->qlen--;
	log_traffic(e, ok ? "< =" : "< ?", text);
	p.cb(e, ok, text, p.arg);
	return 0;
}

static void parse_responses(struct engine *e)
{
	for (;;) {
		if (e->closing || e->dead)
			return;
		size_t skip = 0; /* blank lines between responses */
		while (skip < e->len && e->buf[skip] == '\n')
			skip++;
		if (skip) {
			memmove(e->buf, e->buf + skip, e->len - skip);
			e->len -= skip;
		}
		char *end = NULL;
		for (size_t i = 0; i + 1 < e->len; i++)
			if (e->buf[i] == '\n' && e->buf[i + 1] == '\n') {
				end = e->buf + i;
				break;
			}
		if (!end) {
			if (e->len > ENGINE_RESPONSE_MAX)
				declare_dead(e);
			return;
		}
		size_t n = (size_t)(end - e->buf);
		char *resp = malloc(n + 1);
		if (!resp) {
			declare_dead(e);
			return;
		}
		memcpy(resp, e->buf, n);
		memmove(e->buf, end + 2, e->len - n - 2);
		e->len -= n + 2;
		int rc = deliver(e, resp, n);
		free(resp);
		if (rc < 0) {
			declare_dead(e);
			return;
		}
	}
}

static void alloc_read(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	struct engine *e = h->data;
	(void)suggested;
	*buf = uv_buf_init(e->rbuf, sizeof e->rbuf);
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct engine *e = s->data;
	if (nread < 0) {
		if (!e->closing)
			declare_dead(e);
		return;
	}
	if (e->closing || e->dead)
		return;
	for (ssize_t i = 0; i < nread; i++) {
		char ch = buf->base[i];
		if (ch == '\r')
			continue;
		if (e->len >= ENGINE_RESPONSE_MAX + 2) {
			declare_dead(e);
			return;
		}
		e->buf[e->len++] = ch;
	}
	parse_responses(e);
}

static void write_done(uv_write_t *req, int status)
{
	(void)status; /* a failed write shows as the engine's death on stdout */
	free(req);
}

static int write_line(struct engine *e, const char *line, size_t len)
{
	struct write_req *w = malloc(sizeof *w + len);
	if (!w)
		return -1;
	memcpy(w->data, line, len);
	w->len = len;
	uv_buf_t b = uv_buf_init(w->data, (unsigned)len);
	if (uv_write(&w->req, (uv_stream_t *)&e->in, &b, 1, write_done) < 0) {
		free(w);
		return -1;
	}
	return 0;
}

struct engine *engine_spawn(uv_loop_t *loop, const struct engine_options *opt, char *err,
			    size_t errlen)
{
	if (!opt->argv || !opt->argv[0]) {
		snprintf(err, errlen, "no engine command");
		return NULL;
	}
	struct engine *e = calloc(1, sizeof *e);
	char *buf = malloc(ENGINE_RESPONSE_MAX + 3);
	if (!e || !buf) {
		free(e);
		free(buf);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	e->buf = buf;
	e->loop = loop;
	e->on_exit = opt->on_exit;
	e->ctx = opt->ctx;
	uv_pipe_init(loop, &e->in, 0);
	uv_pipe_init(loop, &e->out, 0);
	uv_timer_init(loop, &e->timer);
	e->in.data = e->out.data = e->timer.data = e->proc.data = e;
	e->handles_open = 4;
	uv_stdio_container_t stdio[3];
	stdio[0].flags = UV_CREATE_PIPE | UV_READABLE_PIPE;
	stdio[0].data.stream = (uv_stream_t *)&e->in;
	stdio[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	stdio[1].data.stream = (uv_stream_t *)&e->out;
	if (opt->inherit_stderr) {
		stdio[2].flags = UV_INHERIT_FD;
		stdio[2].data.fd = 2;
	} else {
		stdio[2].flags = UV_IGNORE;
	}
	uv_process_options_t po;
	memset(&po, 0, sizeof po);
	po.file = opt->argv[0];
	po.args = opt->argv;
	po.exit_cb = process_exited;
	po.stdio = stdio;
	po.stdio_count = 3;
	int rc = uv_spawn(loop, &e->proc, &po);
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", opt->argv[0], uv_strerror(rc));
		e->closing = true;
		e->exited = true;
		close_all(e);
		return NULL;
	}
	e->pid = e->proc.pid;
	rc = uv_read_start((uv_stream_t *)&e->out, alloc_read, on_read);
	if (rc < 0) {
		snprintf(err, errlen, "reading from %s: %s", opt->argv[0], uv_strerror(rc));
		engine_close(e);
		return NULL;
	}
	return e;
}

int engine_send(struct engine *e, engine_reply_cb cb, void *arg, const char *fmt, ...)
{
	if (!e || e->dead || e->closing || e->qlen >= ENGINE_QUEUE_MAX)
		return -1;
	char line[ENGINE_CMD_MAX + 1];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof line - 1 || strchr(line, '\n'))
		return -1;
	log_traffic(e, ">", line);
	line[n++] = '\n';
	if (write_line(e, line, (size_t)n) < 0)
		return -1;
	int tail = (e->qhead + e->qlen) % ENGINE_QUEUE_MAX;
	e->q[tail].cb = cb;
	e->q[tail].arg = arg;
	e->qlen++;
	return 0;
}

static void stdin_shut(uv_shutdown_t *req, int status)
{
	(void)status;
	free(req);
}

void engine_close(struct engine *e)
{
	if (!e || e->closing)
		return;
	e->closing = true;
	e->qlen = 0;
	if (e->exited) {
		close_all(e);
		return;
	}
	uv_read_stop((uv_stream_t *)&e->out);
	if (!e->dead)
		write_line(e, "quit\n", 5);
	uv_shutdown_t *sh = malloc(sizeof *sh);
	if (!sh || uv_shutdown(sh, (uv_stream_t *)&e->in, stdin_shut) < 0)
		free(sh);
	uv_timer_stop(&e->timer);
	uv_timer_start(&e->timer, timer_fired, e->dead ? 0 : ENGINE_QUIT_MS, 0);
	/* process_exited closes every handle once the process is reaped */
}

int engine_parse_vertices(const char *text, char (*out)[8], int cap)
{
	int n = 0;
	const char *p = text;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			return n;
		const char *s = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			p++;
		size_t len = (size_t)(p - s);
		if (len >= 8 || n >= cap)
			return -1;
		memcpy(out[n], s, len);
		out[n][len] = '\0';
		n++;
	}
}
