/* writer: the output thread. See writer.h. */
#define _GNU_SOURCE /* pthread_setname_np */
#include <pthread.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "writer.h"

#define WRITER_ITEMS_START 64 /* first size of the batch array (doubled as needed) */

enum writer_state { W_IDLE, W_QUEUED, W_DONE };

struct writer {
	uv_thread_t thread;
	uv_mutex_t mu;
	uv_cond_t cv;
	uv_async_t async;         /* wakes the loop when a batch is done */
	struct writer_item *items;
	size_t n, cap;
	enum writer_state state;  /* under mu */
	bool quit;                /* under mu */
	writer_done_cb done;
	void *ctx;
};

/* Write all of it, or until the socket is full or fails. */
static void write_item(struct writer_item *it)
{
	while (it->done < it->len) {
		ssize_t r = write(it->fd, it->buf + it->done, it->len - it->done);
		if (r > 0) {
			it->done += (size_t)r;
		} else if (r < 0 && errno == EINTR) {
			continue;
		} else {
			it->err = r < 0 ? errno : EIO;
			return;
		}
	}
}

static void run(void *arg)
{
	struct writer *w = arg;
	pthread_setname_np(pthread_self(), "tengend-writer"); /* top -H, perf */
	uv_mutex_lock(&w->mu);
	for (;;) {
		while (w->state != W_QUEUED && !w->quit)
			uv_cond_wait(&w->cv, &w->mu);
		if (w->quit)
			break;
		size_t n = w->n;
		uv_mutex_unlock(&w->mu);
		for (size_t i = 0; i < n; i++)
			write_item(&w->items[i]);
		uv_mutex_lock(&w->mu);
		w->state = W_DONE;
		uv_cond_broadcast(&w->cv);
		uv_async_send(&w->async);
	}
	uv_mutex_unlock(&w->mu);
}

/* Give a finished batch back (loop thread). The writer counts as busy until `done` has
 * returned, so nothing it calls can start a batch over the items it is reading. */
static void finish(struct writer *w)
{
	uv_mutex_lock(&w->mu);
	bool ready = w->state == W_DONE;
	size_t n = w->n;
	uv_mutex_unlock(&w->mu);
	if (!ready)
		return;
	w->done(w->ctx, w->items, n);
	uv_mutex_lock(&w->mu);
	w->state = W_IDLE;
	uv_mutex_unlock(&w->mu);
}

static void on_async(uv_async_t *a)
{
	finish(a->data);
}

static void on_closed(uv_handle_t *h)
{
	struct writer *w = h->data;
	free(w->items);
	free(w);
}

struct writer *writer_start(uv_loop_t *loop, writer_done_cb done, void *ctx)
{
	struct writer *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->done = done;
	w->ctx = ctx;
	int made = 0; /* how many of mutex, condition, async handle exist */
	if (uv_mutex_init(&w->mu) < 0)
		goto bad;
	made++;
	if (uv_cond_init(&w->cv) < 0)
		goto bad;
	made++;
	if (uv_async_init(loop, &w->async, on_async) < 0)
		goto bad;
	made++;
	w->async.data = w;
	if (uv_thread_create(&w->thread, run, w) < 0)
		goto bad;
	return w;
bad:
	if (made >= 2)
		uv_cond_destroy(&w->cv);
	if (made >= 1)
		uv_mutex_destroy(&w->mu);
	if (made >= 3)
		uv_close((uv_handle_t *)&w->async, on_closed); /* frees w */
	else
		free(w);
	return NULL;
}

bool writer_busy(struct writer *w)
{
	uv_mutex_lock(&w->mu);
	bool busy = w->state != W_IDLE;
	uv_mutex_unlock(&w->mu);
	return busy;
}

struct writer_item *writer_items(struct writer *w, size_t n)
{
	if (n > w->cap) {
		size_t ncap = w->cap ? w->cap : WRITER_ITEMS_START;
		while (ncap < n)
			ncap *= 2;
		struct writer_item *p = realloc(w->items, ncap * sizeof *p);
		if (!p)
			return NULL;
		w->items = p;
		w->cap = ncap;
	}
	return w->items;
}

void writer_submit(struct writer *w, size_t n)
{
	uv_mutex_lock(&w->mu);
	w->n = n;
	w->state = W_QUEUED;
	uv_cond_signal(&w->cv);
	uv_mutex_unlock(&w->mu);
}

/* Wait for the batch in flight, if any, and give it back now. */
static void writer_drain(struct writer *w)
{
	uv_mutex_lock(&w->mu);
	while (w->state == W_QUEUED)
		uv_cond_wait(&w->cv, &w->mu);
	uv_mutex_unlock(&w->mu);
	finish(w);
}

void writer_stop(struct writer *w)
{
	writer_drain(w);
	uv_mutex_lock(&w->mu);
	w->quit = true;
	uv_cond_signal(&w->cv);
	uv_mutex_unlock(&w->mu);
	uv_thread_join(&w->thread);
	uv_cond_destroy(&w->cv);
	uv_mutex_destroy(&w->mu);
	uv_close((uv_handle_t *)&w->async, on_closed);
}
