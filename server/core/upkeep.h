/* upkeep: the store's upkeep beside the loop, after each iteration's commit: WAL checkpoints
 * off the loop (a worker thread on a second connection, store.h store_ckpt_*; past
 * SERVER_WAL_MAX_FRAMES the loop copies the rest itself) and folds of the move journal into
 * moves (store_journal_fold, retried after a doubling wait when one fails). Its state is its
 * own (struct upkeep, in struct server). */
#ifndef TENGEN_UPKEEP_H
#define TENGEN_UPKEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>
#include "store.h"

struct upkeep {
	uv_loop_t *loop;
	struct store *store;
	unsigned fold_rows;       /* journal moves that start a fold (--fold-rows) */
	/* WAL checkpoints off the loop (store.h): a worker thread on a second connection. */
	struct store_ckpt *ckpt;  /* NULL: SQLite's automatic checkpoints (in-memory database) */
	uv_work_t ckpt_work;
	bool ckpt_busy;           /* ckpt_work is queued or running */
	int ckpt_rc;              /* its store_ckpt_run result */
	int ckpt_from;            /* WAL frames when the last checkpoint was started */
	uint64_t fold_due;        /* loop time (ms) the journal is due to be folded; 0: empty */
	uint64_t fold_retry_at;   /* after a failed fold, no other before this loop time (ms) */
	uint64_t fold_backoff;    /* the last wait after a failure (ms); 0: the last fold worked */
};

/* Start on `store` (open): the checkpoint connection, or SQLite's automatic checkpoints if it
 * cannot be opened (logged). u zeroed before. */
void upkeep_start(struct upkeep *u, uv_loop_t *loop, struct store *store, unsigned fold_rows);
/* After a commit: start a checkpoint off the loop once SERVER_CKPT_FRAMES WAL frames were
 * added since the last one (none while `stopping`). */
void upkeep_after_commit(struct upkeep *u, bool stopping);
/* After the iteration's commit and flush: fold the move journal into moves once it holds
 * fold_rows moves or its oldest move is SERVER_FOLD_MS old; not while `busy` (a transaction
 * open, or stopping). A failed fold leaves the moves in the journal, where they are read as
 * well, and is retried after a wait that doubles up to SERVER_FOLD_RETRY_MAX_MS. */
void upkeep_fold(struct upkeep *u, bool busy);
/* Close the checkpoint connection; if `fold`, fold what is left in the journal. */
void upkeep_close(struct upkeep *u, bool fold);

#endif
