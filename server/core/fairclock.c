/* fairclock: the game clocks' time source and the loop's stall meter. See fairclock.h. */
#include <stdlib.h>
#include <sys/time.h>
#include <uv.h>
#include "fairclock.h"
#include "log.h"
#include "server.h"

static uint64_t real_mono_ms(void *ctx)
{
	(void)ctx;
	return uv_hrtime() / 1000000u;
}

static double real_wall_s(void *ctx)
{
	(void)ctx;
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

static struct fairclock_source source = {real_mono_ms, real_wall_s, NULL};

void fairclock_set_source(const struct fairclock_source *src)
{
	if (src) {
		source = *src;
	} else {
		source.mono_ms = real_mono_ms;
		source.wall_s = real_wall_s;
		source.ctx = NULL;
	}
}

/* Monotonic ms, from the source. */
static uint64_t fairclock_mono_ms(void)
{
	return source.mono_ms(source.ctx);
}

double fairclock_wall_s(void)
{
	return source.wall_s(source.ctx);
}

/* ---- the loop's stalls (fairclock.h) ---- */

struct fairclock_stall {
	uv_prepare_t prepare;    /* the loop is about to poll (started first: runs last) */
	uv_check_t check;        /* the poll is over */
	uv_timer_t tick;         /* bounds a poll to FAIRCLOCK_STALL_TICK_MS */
	int open;                /* handles not yet closed */
	bool polling;            /* between prepare and check */
	uint64_t t_check;        /* ms (monotonic) the last poll ended */
	uint64_t t_prepare;      /* ms the poll under way began */
	uint64_t timeout;        /* ms the poll under way may wait */
	uint64_t total;          /* ms of stalls settled */
	bool last_long;          /* the last turn of work ran over FAIRCLOCK_STALL_MIN_MS */
};

/* The stall of the window under way at `now`: a poll past its timeout, or a turn of work
 * since the last poll, less FAIRCLOCK_STALL_MIN_MS. A long turn right after a long turn is not
 * a stall but sustained load (e.g. thousands of flags falling at once): the clocks run, or
 * the work of judging the flags would itself hold every clock and the flags would never
 * fall. */
static uint64_t stall_pending(const struct fairclock_stall *st, uint64_t now)
{
	if (!st->polling && st->last_long)
		return 0;
	uint64_t from = st->polling ? st->t_prepare + st->timeout : st->t_check;
	from += FAIRCLOCK_STALL_MIN_MS;
	return now > from ? now - from : 0;
}

static void stall_on_prepare(uv_prepare_t *h)
{
	struct fairclock_stall *st = h->data;
	uint64_t now = fairclock_mono_ms();
	st->total += stall_pending(st, now);
	st->last_long = now > st->t_check + FAIRCLOCK_STALL_MIN_MS;
	int t = uv_backend_timeout(h->loop);
	st->timeout = t < 0 || t > FAIRCLOCK_STALL_TICK_MS ? FAIRCLOCK_STALL_TICK_MS : (uint64_t)t;
	st->t_prepare = now;
	st->polling = true;
}

static void stall_on_check(uv_check_t *h)
{
	struct fairclock_stall *st = h->data;
	uint64_t now = fairclock_mono_ms();
	uint64_t s = stall_pending(st, now);
	if (s > 0)
		log_msg(LOGL_INFO, "stall", "ms=%llu credited=yes", (unsigned long long)s);
	st->total += s;
	st->polling = false;
	st->t_check = now;
}

static void stall_on_tick(uv_timer_t *h)
{
	(void)h; /* waking the loop is its job */
}

static void stall_closed(uv_handle_t *h)
{
	struct fairclock_stall *st = h->data;
	if (--st->open == 0)
		free(st);
}

int fairclock_start(struct server *srv)
{
	struct fairclock_stall *st = calloc(1, sizeof *st);
	if (!st)
		return -1;
	st->t_check = fairclock_mono_ms();
	uv_prepare_init(srv->loop, &st->prepare);
	uv_check_init(srv->loop, &st->check);
	uv_timer_init(srv->loop, &st->tick);
	st->prepare.data = st->check.data = st->tick.data = st;
	st->open = 3;
	uv_prepare_start(&st->prepare, stall_on_prepare);
	uv_check_start(&st->check, stall_on_check);
	uv_timer_start(&st->tick, stall_on_tick, FAIRCLOCK_STALL_TICK_MS, FAIRCLOCK_STALL_TICK_MS);
	/* None of them keeps the loop alive. */
	uv_unref((uv_handle_t *)&st->prepare);
	uv_unref((uv_handle_t *)&st->check);
	uv_unref((uv_handle_t *)&st->tick);
	srv->stall = st;
	return 0;
}

void fairclock_stop(struct server *srv)
{
	struct fairclock_stall *st = srv->stall;
	if (!st)
		return;
	srv->stall = NULL;
	uv_close((uv_handle_t *)&st->prepare, stall_closed);
	uv_close((uv_handle_t *)&st->check, stall_closed);
	uv_close((uv_handle_t *)&st->tick, stall_closed);
}

uint64_t fairclock_fair_ms(struct server *srv)
{
	uint64_t now = fairclock_mono_ms();
	const struct fairclock_stall *st = srv ? srv->stall : NULL;
	return st ? now - st->total - stall_pending(st, now) : now;
}
