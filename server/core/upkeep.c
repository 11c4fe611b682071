/* upkeep: the store's upkeep beside the loop. See upkeep.h. */
#define _GNU_SOURCE /* pthread_setname_np */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include "log.h"
#include "server.h" /* the SERVER_CKPT_, SERVER_WAL_ and SERVER_FOLD_ settings */
#include "upkeep.h"

static void max_in(uint64_t *m, uint64_t v)
{
	if (v > *m)
		*m = v;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec d = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	nanosleep(&d, NULL);
}

/* ---- the thread ---- */

static bool quitting(struct upkeep *u)
{
	uv_mutex_lock(&u->mu);
	bool q = u->quit;
	uv_mutex_unlock(&u->mu);
	return q;
}

/* A passive checkpoint; then, if the WAL is long and only a tail was left, a RESTART one. */
static void checkpoint(struct upkeep *u)
{
	int logged = 0, copied = 0;
	uint64_t t0 = uv_hrtime();
	enum store_rc r = store_ckpt_run(u->ckpt, &logged, &copied);
	uint64_t dt = uv_hrtime() - t0;
	uv_mutex_lock(&u->mu);
	u->st.ckpts++;
	max_in(&u->st.ckpt_max, dt);
	uv_mutex_unlock(&u->mu);
	if (r != STORE_OK) {
		log_msg(LOGL_WARN, "checkpoint", "error=\"%s\"", store_ckpt_errmsg(u->ckpt));
		return;
	}
	if (logged < SERVER_WAL_RESTART_FRAMES)
		return;
	/* Again without the lock while the loop's commits keep more than a tail uncopied (each
	 * round copies only what came meanwhile, so it is shorter): the RESTART's own copy and
	 * fsync, with the write lock held, are then only of what the loop committed in the last
	 * round. */
	for (int i = 0; i < SERVER_CKPT_ROUNDS && logged - copied > SERVER_WAL_TAIL_FRAMES; i++)
		if (store_ckpt_run(u->ckpt, &logged, &copied) != STORE_OK)
			return;
	/* A long tail (a fold writing fast) would be copied with the lock held: the next
	 * checkpoint tries again. */
	if (logged - copied > SERVER_WAL_TAIL_FRAMES)
		return;
	t0 = uv_hrtime();
	r = store_ckpt_restart(u->ckpt, &logged, &copied);
	dt = uv_hrtime() - t0;
	uv_mutex_lock(&u->mu);
	u->st.restarts++;
	max_in(&u->st.restart_max, dt);
	uv_mutex_unlock(&u->mu);
	if (r != STORE_OK)
		log_msg(LOGL_WARN, "checkpoint", "mode=restart error=\"%s\"", store_ckpt_errmsg(u->ckpt));
}

int upkeep_slice_rows(int n, uint64_t held_ns, bool copy_ended)
{
	const uint64_t target = SERVER_FOLD_SLICE_US * 1000u;
	if (copy_ended)
		return SERVER_FOLD_SLICE_ROWS;
	if (held_ns > target) {
		uint64_t cut = (uint64_t)n * target / held_ns;
		return cut < SERVER_FOLD_SLICE_MIN_ROWS ? SERVER_FOLD_SLICE_MIN_ROWS : (int)cut;
	}
	if (held_ns < target / 2 && n < SERVER_FOLD_SLICE_MAX_ROWS)
		return 2 * n > SERVER_FOLD_SLICE_MAX_ROWS ? SERVER_FOLD_SLICE_MAX_ROWS : 2 * n;
	return n;
}

/* Fold the journal up to seq hi, a slice at a time (sized to take about SERVER_FOLD_SLICE_US:
 * upkeep_slice_rows, which starts each of the fold's two steps at SERVER_FOLD_SLICE_ROWS),
 * waiting after each as long as it took. Returns its store_rc; *complete: every row up to hi
 * moved (a quit stops it early). */
static int fold_slices(struct upkeep *u, int64_t hi, bool *complete)
{
	*complete = false;
	int n = SERVER_FOLD_SLICE_ROWS;
	bool more = true;
	while (more && !quitting(u)) {
		int rows = 0;
		uint64_t dt = 0;
		enum store_rc r = store_ckpt_fold_slice(u->ckpt, hi, n, &rows, &more, &dt);
		if (r != STORE_OK)
			return r;
		uv_mutex_lock(&u->mu);
		u->st.rows += (uint64_t)rows;
		u->st.slices++;
		max_in(&u->st.slice_max, dt);
		uv_mutex_unlock(&u->mu);
		if (more)
			n = upkeep_slice_rows(n, dt, rows > 0 && !store_ckpt_fold_copying(u->ckpt));
		/* A checkpoint asked for meanwhile runs between two slices: a fold writes the
		 * WAL fast, and the WAL must not outgrow what the loop tolerates. */
		uv_mutex_lock(&u->mu);
		bool ckpt = u->ckpt_wanted;
		u->ckpt_wanted = false;
		uv_mutex_unlock(&u->mu);
		if (ckpt)
			checkpoint(u);
		if (more) /* the disk's and the lock's share: 1 / (1 + SERVER_FOLD_REST) */
			sleep_ns(dt * SERVER_FOLD_REST);
	}
	*complete = !more;
	return STORE_OK;
}

static void thread_main(void *arg)
{
	struct upkeep *u = arg;
	pthread_setname_np(pthread_self(), "tengend-upkeep"); /* top -H, perf */
	uv_mutex_lock(&u->mu);
	for (;;) {
		while (!u->quit && !u->fold_hi && !u->ckpt_wanted)
			uv_cond_wait(&u->cv, &u->mu);
		if (u->quit)
			break;
		int64_t hi = u->fold_hi;
		bool ckpt = u->ckpt_wanted;
		u->ckpt_wanted = false;
		uv_mutex_unlock(&u->mu);
		if (hi) {
			bool complete;
			int rc = fold_slices(u, hi, &complete);
			uv_mutex_lock(&u->mu);
			u->fold_hi = 0;
			u->fold_done = true;
			u->fold_rc = rc;
			u->fold_complete = complete;
			snprintf(u->fold_err, sizeof u->fold_err, "%s",
				 rc == STORE_OK ? "" : store_ckpt_errmsg(u->ckpt));
			uv_mutex_unlock(&u->mu);
			uv_async_send(&u->async);
			ckpt = true; /* the fold wrote a page per game: copy them while they are hot */
		}
		if (ckpt && !quitting(u))
			checkpoint(u);
		uv_mutex_lock(&u->mu);
	}
	uv_mutex_unlock(&u->mu);
}

/* ---- the loop's side ---- */

static void fold_failed(struct upkeep *u, const char *why)
{
	uint64_t now = uv_now(u->loop);
	u->fold_backoff = u->fold_backoff ? 2 * u->fold_backoff : SERVER_FOLD_RETRY_MS;
	if (u->fold_backoff > SERVER_FOLD_RETRY_MAX_MS)
		u->fold_backoff = SERVER_FOLD_RETRY_MAX_MS;
	u->fold_retry_at = now + u->fold_backoff;
	log_msg(LOGL_WARN, "fold", "retry_ms=%llu error=\"%s\"",
		(unsigned long long)u->fold_backoff, why);
}

/* The thread reports a fold's end. */
static void on_async(uv_async_t *a)
{
	struct upkeep *u = a->data;
	char err[STORE_ERR_MAX];
	uv_mutex_lock(&u->mu);
	bool done = u->fold_done;
	int rc = u->fold_rc;
	bool complete = u->fold_complete;
	snprintf(err, sizeof err, "%s", u->fold_err);
	u->fold_done = false;
	uv_mutex_unlock(&u->mu);
	if (!done)
		return;
	u->folding = false;
	store_journal_fold_end(u->store, rc == STORE_OK && complete);
	if (rc != STORE_OK)
		fold_failed(u, err);
	else
		u->fold_retry_at = u->fold_backoff = 0;
}

static void ask(struct upkeep *u, int64_t fold_hi, bool ckpt)
{
	uv_mutex_lock(&u->mu);
	if (fold_hi)
		u->fold_hi = fold_hi;
	u->ckpt_wanted |= ckpt;
	uv_cond_signal(&u->cv);
	uv_mutex_unlock(&u->mu);
}

static void loop_checkpoint(struct upkeep *u, int frames)
{
	int copied = 0;
	uint64_t t0 = uv_hrtime();
	enum store_rc r = store_checkpoint(u->store, NULL, &copied);
	uint64_t dt = uv_hrtime() - t0;
	uv_mutex_lock(&u->mu);
	u->st.loop_ckpts++;
	max_in(&u->st.loop_ckpt_max, dt);
	uv_mutex_unlock(&u->mu);
	if (r != STORE_OK)
		log_msg(LOGL_WARN, "checkpoint", "error=\"%s\"", store_errmsg(u->store));
	else
		log_msg(LOGL_INFO, "checkpoint", "on_loop=1 frames=%d copied=%d ms=%.1f", frames,
			copied, dt / 1e6);
}

void upkeep_after_commit(struct upkeep *u, bool stopping)
{
	if (!u->running)
		return;
	int frames = store_wal_frames(u->store);
	if (frames < u->ckpt_from) {
		u->ckpt_from = u->loop_ckpt_at = 0; /* the WAL started over */
		u->wal_starts++;
	}
	if (stopping)
		return;
	if (frames >= SERVER_WAL_MAX_FRAMES && frames - u->loop_ckpt_at >= SERVER_LOOP_CKPT_FRAMES) {
		loop_checkpoint(u, frames); /* once per SERVER_LOOP_CKPT_FRAMES, not per commit */
		u->ckpt_from = u->loop_ckpt_at = frames;
		return;
	}
	if (frames - u->ckpt_from < SERVER_CKPT_FRAMES)
		return;
	u->ckpt_from = frames;
	ask(u, 0, true);
}

void upkeep_fold(struct upkeep *u, bool busy)
{
	size_t rows = store_journal_rows(u->store);
	uint64_t now = uv_now(u->loop);
	if (!rows) {
		u->fold_due = 0;
		return;
	}
	if (!u->fold_due)
		u->fold_due = now + u->fold_ms;
	if (busy || u->folding || now < u->fold_retry_at ||
	    (rows < u->fold_rows && now < u->fold_due))
		return;
	if (u->running) {
		int64_t hi = 0;
		if (store_journal_fold_begin(u->store, &hi) != STORE_OK) {
			fold_failed(u, store_errmsg(u->store));
			return;
		}
		u->folding = true;
		u->fold_due = 0;
		ask(u, hi, false);
		return;
	}
	uint64_t t0 = uv_hrtime();
	int folded = 0;
	if (store_journal_fold(u->store, &folded) != STORE_OK) {
		fold_failed(u, store_errmsg(u->store));
		return;
	}
	u->fold_due = u->fold_retry_at = u->fold_backoff = 0;
	log_msg(LOGL_DEBUG, "fold", "moves=%d ms=%.1f", folded, (double)(uv_hrtime() - t0) / 1e6);
}

void upkeep_stats_line(struct upkeep *u, char *buf, size_t len)
{
	struct upkeep_stats s = { 0 };
	if (u->running) {
		uv_mutex_lock(&u->mu);
		s = u->st;
		u->st = (struct upkeep_stats){ 0 };
		uv_mutex_unlock(&u->mu);
	}
	uint64_t busy, turns; /* since the start: the loop's busy-handler waits, turns that waited */
	store_lock_waits(u->store, &busy, &turns);
	snprintf(buf, len, "fold_rows=%llu fold_slices=%llu fold_slice_max_ms=%.3f ckpts=%llu "
		 "ckpt_max_ms=%.3f restarts=%llu restart_max_ms=%.3f loop_ckpts=%llu "
		 "loop_ckpt_max_ms=%.3f wal_starts=%llu wal_frames=%d busy_waits_total=%llu "
		 "turn_waits_total=%llu", (unsigned long long)s.rows,
		 (unsigned long long)s.slices, s.slice_max / 1e6, (unsigned long long)s.ckpts,
		 s.ckpt_max / 1e6, (unsigned long long)s.restarts, s.restart_max / 1e6,
		 (unsigned long long)s.loop_ckpts, s.loop_ckpt_max / 1e6,
		 (unsigned long long)u->wal_starts, store_wal_frames(u->store),
		 (unsigned long long)busy, (unsigned long long)turns);
	u->wal_starts = 0;
}

void upkeep_start(struct upkeep *u, uv_loop_t *loop, struct store *store, unsigned fold_rows,
		  unsigned fold_ms)
{
	char err[STORE_ERR_MAX];
	u->loop = loop;
	u->store = store;
	u->fold_rows = fold_rows;
	u->fold_ms = fold_ms;
	/* The keys of a journal as long as a fold waits for, and a half more for the moves of the
	 * fold's own time: no rehash of them on the loop (logged if there is no memory for it). */
	if (store_journal_reserve(store, (size_t)fold_rows + fold_rows / 2) != STORE_OK)
		log_msg(LOGL_WARN, "upkeep", "reserve=failed error=\"%s\"", store_errmsg(store));
	if (store_ckpt_open(store, &u->ckpt, err, sizeof err) != STORE_OK) {
		log_msg(LOGL_INFO, "upkeep", "mode=on_loop reason=\"%s\"", err);
		store_wal_auto(store); /* server_open turned them off for the thread */
		return;
	}
	if (uv_mutex_init(&u->mu) != 0)
		goto no_thread;
	if (uv_cond_init(&u->cv) != 0) {
		uv_mutex_destroy(&u->mu);
		goto no_thread;
	}
	uv_async_init(loop, &u->async, on_async);
	u->async.data = u;
	uv_unref((uv_handle_t *)&u->async); /* the loop ends without waiting for the thread */
	if (uv_thread_create(&u->thread, thread_main, u) != 0) {
		uv_close((uv_handle_t *)&u->async, NULL);
		uv_cond_destroy(&u->cv);
		uv_mutex_destroy(&u->mu);
		goto no_thread;
	}
	u->running = true;
	/* The checkpoints are the thread's now: SQLite's automatic ones off. */
	store_wal_manual(store);
	return;
no_thread:
	log_msg(LOGL_WARN, "upkeep", "mode=on_loop reason=\"no thread\"");
	store_ckpt_close(u->ckpt);
	u->ckpt = NULL;
	store_wal_auto(store);
}

void upkeep_stop(struct upkeep *u)
{
	if (!u->running)
		return;
	uv_mutex_lock(&u->mu);
	u->quit = true;
	uv_cond_signal(&u->cv);
	uv_mutex_unlock(&u->mu);
	uv_thread_join(&u->thread);
	u->running = false;
	uv_close((uv_handle_t *)&u->async, NULL);
	uv_cond_destroy(&u->cv);
	uv_mutex_destroy(&u->mu);
	if (u->folding) {
		u->folding = false;
		store_journal_fold_end(u->store, false); /* the rest is still in the journal */
	}
}

void upkeep_close(struct upkeep *u, bool fold)
{
	upkeep_stop(u); /* if server_stop did not run (a failed start) */
	store_ckpt_close(u->ckpt);
	u->ckpt = NULL;
	/* Not only when store_journal_rows says so: a fold stopped part way left rows whose keys
	 * are read again only at the next move. */
	if (fold && u->store && store_journal_fold(u->store, NULL) != STORE_OK)
		log_msg(LOGL_WARN, "fold", "error=\"%s\"", store_errmsg(u->store));
}
