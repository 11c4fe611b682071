/* upkeep: the store's upkeep beside the loop. See upkeep.h. */
#include "log.h"
#include "server.h" /* the SERVER_CKPT_, SERVER_WAL_ and SERVER_FOLD_ settings */
#include "upkeep.h"

/* The worker thread: a passive checkpoint on the second connection (its fsyncs happen here,
 * not on the loop). */
static void ckpt_work(uv_work_t *w)
{
	struct upkeep *u = w->data;
	u->ckpt_rc = store_ckpt_run(u->ckpt, NULL, NULL);
}

static void ckpt_done(uv_work_t *w, int status)
{
	struct upkeep *u = w->data;
	u->ckpt_busy = false;
	if (status == 0 && u->ckpt_rc != STORE_OK)
		log_msg(LOGL_WARN, "checkpoint", "error=\"%s\"", store_ckpt_errmsg(u->ckpt));
}

/* After a commit: start a checkpoint off the loop once SERVER_CKPT_FRAMES frames were added
 * since the last one. A passive checkpoint beside steady commits rarely copies the whole WAL,
 * which only then starts over from its beginning: past SERVER_WAL_MAX_FRAMES the loop copies
 * the rest itself (one stall, instead of one every 1000 pages). */
static void maybe_checkpoint(struct upkeep *u, bool stopping)
{
	int frames = store_wal_frames(u->store);
	if (frames < u->ckpt_from)
		u->ckpt_from = 0; /* the WAL started over */
	if (u->ckpt_busy || stopping)
		return;
	if (frames >= SERVER_WAL_MAX_FRAMES) {
		int copied = 0;
		if (store_checkpoint(u->store, NULL, &copied) != STORE_OK)
			log_msg(LOGL_WARN, "checkpoint", "error=\"%s\"", store_errmsg(u->store));
		else
			log_msg(LOGL_INFO, "checkpoint", "on_loop=1 frames=%d copied=%d", frames, copied);
		u->ckpt_from = frames;
		return;
	}
	if (frames - u->ckpt_from < SERVER_CKPT_FRAMES)
		return;
	u->ckpt_from = frames;
	u->ckpt_work.data = u;
	if (uv_queue_work(u->loop, &u->ckpt_work, ckpt_work, ckpt_done) == 0)
		u->ckpt_busy = true;
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
		u->fold_due = now + SERVER_FOLD_MS;
	if (busy || now < u->fold_retry_at || (rows < u->fold_rows && now < u->fold_due))
		return;
	uint64_t t0 = uv_hrtime();
	int folded = 0;
	if (store_journal_fold(u->store, &folded) != STORE_OK) {
		u->fold_backoff = u->fold_backoff ? 2 * u->fold_backoff : SERVER_FOLD_MS;
		if (u->fold_backoff > SERVER_FOLD_RETRY_MAX_MS)
			u->fold_backoff = SERVER_FOLD_RETRY_MAX_MS;
		u->fold_retry_at = now + u->fold_backoff;
		log_msg(LOGL_WARN, "fold", "moves=%zu retry_ms=%llu error=\"%s\"", rows,
			(unsigned long long)u->fold_backoff, store_errmsg(u->store));
		return;
	}
	u->fold_due = u->fold_retry_at = u->fold_backoff = 0;
	log_msg(LOGL_DEBUG, "fold", "moves=%d ms=%.1f", folded, (double)(uv_hrtime() - t0) / 1e6);
}

void upkeep_start(struct upkeep *u, uv_loop_t *loop, struct store *store, unsigned fold_rows)
{
	char err[STORE_ERR_MAX];
	u->loop = loop;
	u->store = store;
	u->fold_rows = fold_rows;
	/* Checkpoints off the loop; without the second connection SQLite's own ones stay on. */
	if (store_ckpt_open(store, &u->ckpt, err, sizeof err) == STORE_OK)
		store_wal_manual(store);
	else
		log_msg(LOGL_INFO, "checkpoint", "mode=automatic reason=\"%s\"", err);
}

void upkeep_after_commit(struct upkeep *u, bool stopping)
{
	if (u->ckpt)
		maybe_checkpoint(u, stopping);
}

void upkeep_close(struct upkeep *u, bool fold)
{
	store_ckpt_close(u->ckpt);
	u->ckpt = NULL;
	if (fold && u->store && store_journal_rows(u->store) &&
	    store_journal_fold(u->store, NULL) != STORE_OK)
		log_msg(LOGL_WARN, "fold", "error=\"%s\"", store_errmsg(u->store));
}
