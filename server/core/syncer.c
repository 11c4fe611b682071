/* syncer: the WAL's fdatasync on a thread of its own. See syncer.h. */
#define _GNU_SOURCE /* pthread_setname_np */
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "syncer.h"

struct syncer {
	uv_thread_t thread;
	uv_mutex_t mu;
	uv_cond_t cv;
	uv_async_t async;
	int fd;
	unsigned delay_ms;
	bool asked, done, quit;   /* under mu */
	bool ok;                  /* under mu: the last sync's outcome */
	int err;                  /* under mu */
	uint64_t max_ns, count;   /* under mu */
	bool busy;                /* loop: asked and its callback not run yet */
	syncer_done_fn cb;
	void *ctx;
};

static int sync_fd(int fd)
{
	int r;
	do
		r = fdatasync(fd);
	while (r < 0 && errno == EINTR);
	return r < 0 ? errno : 0;
}

static void run(void *arg)
{
	struct syncer *y = arg;
	pthread_setname_np(pthread_self(), "tengend-syncer"); /* top -H, perf */
	uv_mutex_lock(&y->mu);
	for (;;) {
		while (!y->asked && !y->quit)
			uv_cond_wait(&y->cv, &y->mu);
		if (y->quit)
			break;
		y->asked = false;
		uv_mutex_unlock(&y->mu);
		uint64_t t0 = uv_hrtime();
		if (y->delay_ms)
			uv_sleep(y->delay_ms);
		int e = sync_fd(y->fd);
		uint64_t dt = uv_hrtime() - t0;
		uv_mutex_lock(&y->mu);
		y->ok = e == 0;
		y->err = e;
		y->done = true;
		y->count++;
		if (dt > y->max_ns)
			y->max_ns = dt;
		uv_cond_broadcast(&y->cv);
		uv_async_send(&y->async);
	}
	uv_mutex_unlock(&y->mu);
}

static void on_async(uv_async_t *a)
{
	struct syncer *y = a->data;
	uv_mutex_lock(&y->mu);
	bool done = y->done;
	bool ok = y->ok;
	int err = y->err;
	y->done = false;
	uv_mutex_unlock(&y->mu);
	if (!done || !y->busy)
		return;
	y->busy = false;
	y->cb(y->ctx, ok, err);
}

static void on_closed(uv_handle_t *h)
{
	free(h->data);
}

struct syncer *syncer_start(uv_loop_t *loop, const char *wal_path, unsigned delay_ms,
			    syncer_done_fn done, void *ctx, int *err)
{
	struct syncer *y = calloc(1, sizeof *y);
	*err = ENOMEM;
	if (!y)
		return NULL;
	y->cb = done;
	y->ctx = ctx;
	y->delay_ms = delay_ms;
	/* Any descriptor of the file will do: fdatasync flushes the file, whoever wrote it. */
	y->fd = open(wal_path, O_RDONLY | O_CLOEXEC);
	if (y->fd < 0) {
		*err = errno;
		free(y);
		return NULL;
	}
	int made = 0;
	if (uv_mutex_init(&y->mu) < 0)
		goto bad;
	made++;
	if (uv_cond_init(&y->cv) < 0)
		goto bad;
	made++;
	if (uv_async_init(loop, &y->async, on_async) < 0)
		goto bad;
	made++;
	y->async.data = y;
	uv_unref((uv_handle_t *)&y->async); /* the loop ends without waiting for it */
	if (uv_thread_create(&y->thread, run, y) < 0)
		goto bad;
	*err = 0;
	return y;
bad:
	*err = EAGAIN;
	close(y->fd);
	if (made >= 2)
		uv_cond_destroy(&y->cv);
	if (made >= 1)
		uv_mutex_destroy(&y->mu);
	if (made >= 3)
		uv_close((uv_handle_t *)&y->async, on_closed); /* frees y */
	else
		free(y);
	return NULL;
}

void syncer_request(struct syncer *y)
{
	y->busy = true;
	uv_mutex_lock(&y->mu);
	y->asked = true;
	uv_cond_signal(&y->cv);
	uv_mutex_unlock(&y->mu);
}

bool syncer_busy(const struct syncer *y)
{
	return y->busy;
}

/* Wait until no sync is asked for or running (its result is left for nobody). */
static void wait_idle(struct syncer *y)
{
	uv_mutex_lock(&y->mu);
	while (y->asked || (y->busy && !y->done))
		uv_cond_wait(&y->cv, &y->mu);
	y->done = false;
	uv_mutex_unlock(&y->mu);
	y->busy = false;
}

int syncer_sync_now(struct syncer *y)
{
	wait_idle(y);
	return sync_fd(y->fd);
}

void syncer_stats(struct syncer *y, uint64_t *max_ns, uint64_t *count)
{
	uv_mutex_lock(&y->mu);
	*max_ns = y->max_ns;
	*count = y->count;
	y->max_ns = y->count = 0;
	uv_mutex_unlock(&y->mu);
}

void syncer_stop(struct syncer *y)
{
	wait_idle(y);
	uv_mutex_lock(&y->mu);
	y->quit = true;
	uv_cond_signal(&y->cv);
	uv_mutex_unlock(&y->mu);
	uv_thread_join(&y->thread);
	close(y->fd);
	uv_cond_destroy(&y->cv);
	uv_mutex_destroy(&y->mu);
	uv_close((uv_handle_t *)&y->async, on_closed);
}
