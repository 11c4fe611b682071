/* upkeep: the store's upkeep beside the loop (issue 22: none of it on the loop thread). A
 * thread of its own with a second connection to the database (store.h store_ckpt_*) folds the
 * move journal into `moves` in slices of about a millisecond each (store_ckpt_fold_slice:
 * each a transaction holding the write lock; the loop's next BEGIN waits for at most one),
 * runs passive WAL checkpoints, and lets the WAL start over with a short RESTART checkpoint
 * once a passive one left only a tail. The loop only decides when: after each commit it asks
 * for a checkpoint once SERVER_CKPT_FRAMES WAL frames were added, and hands the journal to a
 * fold (store_journal_fold_begin) once it holds fold_rows moves or its oldest is
 * fold_ms old (--fold-ms); the thread reports a fold's end through a uv_async
 * (store_journal_fold_end; a failed one is retried after a doubling wait). Past
 * SERVER_WAL_MAX_FRAMES the loop still checkpoints itself (a safety valve: the thread is not
 * keeping up). Without a second connection (a database in memory) folds run on the loop as
 * before and SQLite checkpoints by itself. Its state is its own (struct upkeep, in struct
 * server); fields marked "mu" are shared with the thread under `mu`. */
#ifndef TENGEN_UPKEEP_H
#define TENGEN_UPKEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>
#include "store.h"

#define UPKEEP_LINE_MAX 512 /* upkeep_stats_line's text, bytes */

/* The thread's figures for a window (upkeep_stats_line); times in nanoseconds. */
struct upkeep_stats {
	uint64_t rows, slices, slice_max;      /* folded moves, slices, a slice's longest hold of the lock */
	uint64_t ckpts, ckpt_max;              /* passive checkpoints, the longest */
	uint64_t restarts, restart_max;        /* RESTART checkpoints (write lock held), the longest */
	uint64_t loop_ckpts, loop_ckpt_max;    /* checkpoints the loop ran itself (safety valve) */
};

struct upkeep {
	uv_loop_t *loop;
	struct store *store;
	unsigned fold_rows;       /* journal moves that start a fold (--fold-rows) */
	unsigned fold_ms;         /* ... or the age of its oldest move (--fold-ms) */
	struct store_ckpt *ckpt;  /* the thread's connection; NULL: no thread (in-memory database) */
	uv_thread_t thread;
	uv_mutex_t mu;
	uv_cond_t cv;
	uv_async_t async;         /* the thread: a fold ended */
	bool running;             /* the thread, mu, cv and async exist */
	/* mu: requests to the thread and what it reports */
	bool quit;
	int64_t fold_hi;          /* fold the journal up to this seq; 0: no fold asked */
	bool ckpt_wanted;
	bool fold_done;           /* the fold asked for ended (fold_rc, fold_err) */
	int fold_rc;
	bool fold_complete;       /* every row asked for moved */
	char fold_err[STORE_ERR_MAX];
	struct upkeep_stats st;   /* this window's */
	/* the loop's own */
	bool folding;             /* a fold is with the thread */
	int ckpt_from;            /* WAL frames when the last checkpoint was asked for */
	int loop_ckpt_at;         /* WAL frames at the loop's last checkpoint of its own */
	uint64_t wal_starts;      /* this window's: times the WAL started over (seen after commits) */
	uint64_t fold_due;        /* loop time (ms) the journal is due to be folded; 0: empty */
	uint64_t fold_retry_at;   /* after a failed fold, no other before this loop time (ms) */
	uint64_t fold_backoff;    /* the last wait after a failure (ms); 0: the last fold worked */
};

/* Start on `store` (open): the second connection and the thread, or, when either cannot be
 * had, folds on the loop and SQLite's automatic checkpoints (logged). u zeroed before. */
void upkeep_start(struct upkeep *u, uv_loop_t *loop, struct store *store, unsigned fold_rows,
		  unsigned fold_ms);
/* After a commit: ask for a checkpoint once SERVER_CKPT_FRAMES WAL frames were added since the
 * last one (none while `stopping`); past SERVER_WAL_MAX_FRAMES checkpoint on the loop. */
void upkeep_after_commit(struct upkeep *u, bool stopping);
/* After the iteration's commit and flush: hand the journal to a fold once it holds fold_rows
 * moves or its oldest move is fold_ms old; not while `busy` (a transaction open, or
 * stopping). Without the thread the fold runs here. A failed fold leaves the moves in the
 * journal, where they are read as well, and is retried after a wait that doubles up to
 * SERVER_FOLD_RETRY_MAX_MS. */
void upkeep_fold(struct upkeep *u, bool busy);
/* The next fold slice's max_rows after a slice of n that held the write lock held_ns, with work
 * left. SERVER_FOLD_SLICE_ROWS when that slice ended the fold's copy step (`copy_ended`: a
 * row of the delete step costs differently, store_ckpt_fold_copying); else doubled (up to
 * SERVER_FOLD_SLICE_MAX_ROWS) while a slice takes under half of SERVER_FOLD_SLICE_US; past
 * SERVER_FOLD_SLICE_US cut in proportion at once (a slice of 2,048 that took 8 ms gives 256,
 * not 1,024), down to SERVER_FOLD_SLICE_MIN_ROWS; else n. */
int upkeep_slice_rows(int n, uint64_t held_ns, bool copy_ended);
/* The window's figures as "fold_rows=N fold_slices=N fold_slice_max_ms=X ckpts=N
 * ckpt_max_ms=X restarts=N restart_max_ms=X loop_ckpts=N loop_ckpt_max_ms=X wal_starts=N wal_frames=N"
 * into buf (UPKEEP_LINE_MAX), and a new window. */
void upkeep_stats_line(struct upkeep *u, char *buf, size_t len);
/* Stop the thread (a fold under way stops after its slice; the rest stays in the journal)
 * and close the async handle (call on the loop, before it ends: server_stop). Idempotent. */
void upkeep_stop(struct upkeep *u);
/* After upkeep_stop: close the second connection; if `fold`, fold what is left in the
 * journal on this thread. */
void upkeep_close(struct upkeep *u, bool fold);

#endif
