/* Tests for server/store: the move journal's fold off the store's thread (issue 22):
 * store_journal_fold_begin / store_ckpt_fold_slice / store_journal_fold_end, a crash part way
 * (each slice all or nothing), and the RESTART checkpoint. Each test works on a fresh database
 * in its own mkdtemp directory (tests/support/store_fixture.c). */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sqlite3.h>
#include "store.h"
#include "store_fixture.h"
#include "server.h" /* the fold slices' bounds */
#include "upkeep.h"

#define GAMES 5
#define MOVES 7 /* per game */
/* per test (Check's own timeout): test_fold_takes_turns commits (fsync) while a thread folds,
 * test_turn_given_up waits STORE_BUSY_TIMEOUT_MS */
#define TEST_TIMEOUT_S 30

static int64_t games[GAMES];

/* GAMES games with MOVES moves each, interleaved as a server writes them (move 1 of every
 * game, then move 2 ...), committed; the journal holds them all. */
static void play_all(int from, int to)
{
	struct store_move m;
	ck_assert_int_eq(store_begin(s), STORE_OK);
	for (int n = from; n <= to; n++)
		for (int i = 0; i < GAMES; i++) {
			move_fill(&m, n, "C3");
			ck_assert_int_eq(store_move_add(s, games[i], &m), STORE_OK);
		}
	ck_assert_int_eq(store_commit(s), STORE_OK);
}

static void new_games(void)
{
	int64_t a = player("alice"), b = player("bob");
	for (int i = 0; i < GAMES; i++)
		games[i] = game_new(a, b, "playing");
}

/* Every game lists moves 1..n, once each, in order. */
static void assert_all(int n)
{
	for (int i = 0; i < GAMES; i++) {
		struct moves_seen ms = { 0 };
		ck_assert_int_eq(store_moves_get(s, games[i], on_move, &ms), STORE_OK);
		ck_assert_int_eq(ms.n, n);
		for (int k = 0; k < n; k++)
			ck_assert_int_eq(ms.numbers[k], k + 1);
	}
}

static void assert_taken(int number)
{
	struct store_move m;
	move_fill(&m, number, "D4");
	for (int i = 0; i < GAMES; i++)
		ck_assert_int_eq(store_move_add(s, games[i], &m), STORE_CONFLICT);
}

static struct store_ckpt *second(void)
{
	char err[STORE_ERR_MAX];
	struct store_ckpt *c = NULL;
	ck_assert_msg(store_ckpt_open(s, &c, err, sizeof err) == STORE_OK, "%s", err);
	return c;
}

/* Every game with moves 1 and 2 in the journal, a fold begun up to *hi and its first slice
 * run on a second connection (returned): every row copied into moves, the journal's rows
 * still to be deleted. */
static struct store_ckpt *fold_copied(int64_t *hi)
{
	open_store();
	new_games();
	play_all(1, 2);
	struct store_ckpt *c = second();
	int rows;
	bool more;
	uint64_t held;
	ck_assert_int_eq(store_journal_fold_begin(s, hi), STORE_OK);
	ck_assert_int_eq(store_ckpt_fold_slice(c, *hi, 1000, &rows, &more, &held), STORE_OK);
	ck_assert_int_eq(rows, GAMES * 2);
	ck_assert(more); /* the journal's rows are still to be deleted */
	return c;
}

/* One slice at a time: each moves at most max_rows rows, the game lists stay whole and in
 * order between slices, the keys stay refused, and the fold's end leaves nothing behind. */
START_TEST(test_fold_slices)
{
	open_store();
	new_games();
	play_all(1, MOVES);
	struct store_ckpt *c = second();
	int64_t hi = 0;
	ck_assert_int_eq(store_journal_fold_begin(s, &hi), STORE_OK);
	ck_assert_int_eq(hi, GAMES * MOVES);
	ck_assert_int_eq(store_journal_rows(s), 0); /* handed to the fold */
	/* A second fold while one is under way is refused. */
	int64_t hi2;
	ck_assert_int_eq(store_journal_fold_begin(s, &hi2), STORE_ERROR);

	/* Moves written after the fold began are not part of it. */
	play_all(MOVES + 1, MOVES + 1);
	ck_assert_int_eq(store_journal_rows(s), GAMES);

	int slices = 0, total = 0, rows;
	long long journal = GAMES * (MOVES + 1);
	bool more = true;
	uint64_t held;
	ck_assert(!store_ckpt_fold_copying(c)); /* nothing read yet */
	while (more) {
		ck_assert_int_eq(store_ckpt_fold_slice(c, hi, 4, &rows, &more, &held), STORE_OK);
		ck_assert_int_le(rows, 4);
		total += rows;
		/* in the copy step while rows are left to copy; the last copy ends it */
		ck_assert(store_ckpt_fold_copying(c) == (total < GAMES * MOVES));
		slices++;
		ck_assert_int_eq(raw_int("SELECT count(*) FROM moves"), total);
		long long now = raw_int("SELECT count(*) FROM move_journal");
		if (rows) /* the first step copies: the journal keeps its rows */
			ck_assert_int_eq(now, GAMES * (MOVES + 1));
		else /* the second deletes them by ranges of seq */
			ck_assert_int_lt(now, journal);
		journal = now;
		assert_all(MOVES + 1); /* each move once, though it is in both tables for a while */
		assert_taken(1);
		assert_taken(MOVES);
	}
	ck_assert_int_eq(total, GAMES * MOVES);
	ck_assert_int_eq(slices, (GAMES * MOVES + 3) / 4 +
			 (GAMES * MOVES + 4 * STORE_FOLD_DELETE_FACTOR - 1) / (4 * STORE_FOLD_DELETE_FACTOR));
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), GAMES); /* written after */
	/* Nothing up to hi is left: another slice moves nothing. */
	ck_assert_int_eq(store_ckpt_fold_slice(c, hi, 4, &rows, &more, &held), STORE_OK);
	ck_assert_int_eq(rows, 0);
	ck_assert(!more);
	ck_assert(!store_ckpt_fold_copying(c));
	store_journal_fold_end(s, true);
	assert_taken(1);
	assert_taken(MOVES + 1);
	assert_all(MOVES + 1);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal WHERE number <= 7"), 0);

	/* The store's own fold takes the rest; the next numbers are free. */
	ck_assert_int_eq(store_journal_fold(s, NULL), STORE_OK);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), 0);
	play_all(MOVES + 2, MOVES + 2);
	assert_all(MOVES + 2);
	store_ckpt_close(c);
}
END_TEST

/* The upkeep thread's slice sizes: doubled while fast, cut in proportion when one overran
 * (a delete slice of 2,048 that held the lock 8 ms, as measured, gave 1,024 and then 512 and
 * 4.7 and 2.5 ms more when it was only halved), and afresh when the copy step ends. */
START_TEST(test_slice_rows)
{
	const uint64_t ms = 1000000, target = SERVER_FOLD_SLICE_US * 1000u;
	ck_assert_int_eq(upkeep_slice_rows(2048, 8 * target, false), 256);
	ck_assert_int_eq(upkeep_slice_rows(1000, 2 * target, false), 500);
	ck_assert_int_eq(upkeep_slice_rows(64, 1000 * target, false), SERVER_FOLD_SLICE_MIN_ROWS);
	ck_assert_int_eq(upkeep_slice_rows(128, target / 4, false), 256);
	ck_assert_int_eq(upkeep_slice_rows(SERVER_FOLD_SLICE_MAX_ROWS - 1, 0, false),
			 SERVER_FOLD_SLICE_MAX_ROWS);
	ck_assert_int_eq(upkeep_slice_rows(SERVER_FOLD_SLICE_MAX_ROWS, 0, false),
			 SERVER_FOLD_SLICE_MAX_ROWS);
	ck_assert_int_eq(upkeep_slice_rows(300, 3 * target / 4, false), 300); /* near the target */
	ck_assert_int_eq(upkeep_slice_rows(300, target, false), 300);
	/* the copy's last slice: the deletes start at the first size, fast or slow */
	ck_assert_int_eq(upkeep_slice_rows(2048, target / 10, true), SERVER_FOLD_SLICE_ROWS);
	ck_assert_int_eq(upkeep_slice_rows(8, 50 * ms, true), SERVER_FOLD_SLICE_ROWS);
}
END_TEST

/* A crash part way through a fold (the process dies between slices): each row is in the
 * journal, and some also in moves (the same move: copied, not yet deleted), never neither;
 * reads give each move once, and the next open folds the rest. Also a fold given up part
 * way (store_journal_fold_end(false)): the keys of the journal's rows are still refused. */
START_TEST(test_fold_crash_between_slices)
{
	open_store();
	new_games();
	play_all(1, MOVES);
	struct store_ckpt *c = second();
	int64_t hi = 0;
	int rows;
	bool more;
	uint64_t held;
	ck_assert_int_eq(store_journal_fold_begin(s, &hi), STORE_OK);
	ck_assert_int_eq(store_ckpt_fold_slice(c, hi, 6, &rows, &more, &held), STORE_OK);
	ck_assert_int_eq(rows, 6);
	ck_assert(more);
	/* Given up: the journal's rows keep their keys (read again from the journal). */
	store_journal_fold_end(s, false);
	assert_taken(MOVES);
	assert_taken(1);
	ck_assert_int_eq(store_journal_rows(s), GAMES * MOVES);
	assert_all(MOVES);

	/* Another fold, two slices, then the "crash": the store is closed without its end and
	 * without a fold of its own (store_close does not fold; tengend's kill -9 is the same).
	 * Same hi: the second connection goes on from the rows it had copied (16 in all). */
	ck_assert_int_eq(store_journal_fold_begin(s, &hi), STORE_OK);
	ck_assert_int_eq(store_ckpt_fold_slice(c, hi, 5, &rows, &more, &held), STORE_OK);
	ck_assert_int_eq(store_ckpt_fold_slice(c, hi, 5, &rows, &more, &held), STORE_OK);
	store_ckpt_close(c);
	store_close(s);
	s = NULL;
	ck_assert_int_eq(raw_int("SELECT count(*) FROM moves"), 16);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), GAMES * MOVES);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM moves m JOIN move_journal j "
				 "ON m.game_id = j.game_id AND m.number = j.number AND "
				 "m.vertex = j.vertex AND m.at = j.at"), 16);
	open_store(); /* folds what was left */
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), 0);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM moves"), GAMES * MOVES);
	assert_all(MOVES);
	assert_taken(MOVES);
}
END_TEST

/* A slice waits for the store's write transaction (BEGIN IMMEDIATE on both sides) and sees
 * only committed rows; a slice that fails (a row colliding with a folded one, written behind
 * the store's back) changes nothing. */
START_TEST(test_fold_slice_failure)
{
	int64_t hi = 0;
	int rows;
	bool more;
	uint64_t held;
	struct store_ckpt *c = fold_copied(&hi);
	ck_assert_int_eq(store_ckpt_fold_slice(c, hi, 1000, &rows, &more, &held), STORE_OK);
	ck_assert(!more);
	store_journal_fold_end(s, true);
	raw_exec("INSERT INTO move_journal (game_id, number, color, vertex, at) "
		 "SELECT min(id), 1, 'B', 'A1', 0 FROM games");
	play_all(3, 3);
	ck_assert_int_eq(store_journal_fold_begin(s, &hi), STORE_OK);
	ck_assert_int_eq(store_ckpt_fold_slice(c, hi, 1000, &rows, &more, &held), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_ckpt_errmsg(c), "fold slice"));
	ck_assert_int_eq(rows, 0);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), GAMES + 1);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM moves"), GAMES * 2);
	store_journal_fold_end(s, false);
	assert_taken(3);
	store_ckpt_close(c);
}
END_TEST

/* A read of a game's moves while a fold off the loop moves its rows (issue 22): the read finds
 * the journal's rows by the keys in memory, one at a time; a slice that commits between two of
 * them moved the rest to moves, and the read takes them from there: every move once, in order.
 * The slice runs from the read's own callback (the moment between two row reads). */
struct racing_read {
	struct moves_seen ms;
	struct store_ckpt *c;
	int64_t hi;
	int slice_after; /* run the slices after this many moves were given */
};

static int on_move_fold(void *ctx, const struct store_move *m)
{
	struct racing_read *rr = ctx;
	on_move(&rr->ms, m);
	if (rr->ms.n == rr->slice_after) {
		int rows;
		bool more = true;
		uint64_t held;
		while (more)
			ck_assert_int_eq(store_ckpt_fold_slice(rr->c, rr->hi, 3, &rows, &more, &held),
					 STORE_OK);
	}
	return 0;
}

START_TEST(test_read_during_fold)
{
	open_store();
	new_games();
	play_all(1, 2);
	ck_assert_int_eq(store_journal_fold(s, NULL), STORE_OK); /* moves 1-2 in moves */
	play_all(3, MOVES);
	for (int after = 1; after <= MOVES; after++) {
		struct racing_read rr = { .c = second(), .slice_after = after };
		ck_assert_int_eq(store_journal_fold_begin(s, &rr.hi), STORE_OK);
		ck_assert_int_eq(store_moves_get(s, games[0], on_move_fold, &rr), STORE_OK);
		ck_assert_int_eq(rr.ms.n, MOVES + after - 1);
		for (int k = 0; k < rr.ms.n; k++)
			ck_assert_int_eq(rr.ms.numbers[k], k + 1);
		store_journal_fold_end(s, true);
		store_ckpt_close(rr.c);
		ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), 0);
		assert_all(MOVES + after - 1);
		play_all(MOVES + after, MOVES + after); /* the next round's journal rows */
	}
}
END_TEST

/* A seq is a rowid, reused once the journal is empty: another process that folded the same
 * rows (tengend grant opening the database) and emptied the journal lets new moves take seqs
 * the fold's delete step covers. Those are not in moves, and the delete leaves them. */
START_TEST(test_fold_delete_reused_seq)
{
	int64_t hi = 0;
	int rows;
	bool more;
	uint64_t held;
	struct store_ckpt *c = fold_copied(&hi);
	raw_exec("DELETE FROM move_journal"); /* the other process's fold */
	play_all(3, 3);
	ck_assert_int_le(raw_int("SELECT max(seq) FROM move_journal"), hi);
	ck_assert_int_eq(store_ckpt_fold_slice(c, hi, 1000, &rows, &more, &held), STORE_OK);
	ck_assert(!more);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), GAMES);
	store_journal_fold_end(s, true);
	assert_all(3);
	assert_taken(3);
	store_ckpt_close(c);
}
END_TEST

/* Reused seqs in part of the range only: the journal's rows from seq 6 on were emptied by
 * another process (their moves folded) and new moves took seqs 6-10. The rows up to 5 are
 * the fold's own and go; the new ones stay, whether they share a slice with the fold's rows
 * (one slice over 1-10) or not (slices of 8 seqs: 1-8 mixed, then 9-10). */
static void reused_tail(int max_rows, int slices)
{
	int64_t hi = 0;
	int rows, n = 0;
	bool more = true;
	uint64_t held;
	struct store_ckpt *c = fold_copied(&hi);
	ck_assert_int_eq(hi, 2 * GAMES);
	raw_exec("DELETE FROM move_journal WHERE seq > 5");
	play_all(3, 3);
	ck_assert_int_eq(raw_int("SELECT min(seq) FROM move_journal WHERE number = 3"), 6);
	while (more) {
		ck_assert_int_eq(store_ckpt_fold_slice(c, hi, max_rows, &rows, &more, &held),
				 STORE_OK);
		n++;
	}
	ck_assert_int_eq(n, slices);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), GAMES);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal WHERE number <> 3"), 0);
	store_journal_fold_end(s, true);
	assert_all(3);
	assert_taken(3);
	store_ckpt_close(c);
}

START_TEST(test_fold_delete_reused_seq_tail)
{
	reused_tail(1000, 1); /* (0, 10] */
}
END_TEST

START_TEST(test_fold_delete_reused_seq_slices)
{
	reused_tail(1, 2); /* (0, 8] with seqs 6-8 reused, then (8, 10] */
}
END_TEST

/* The write turn (store_wlock): a fold slice on another thread waits for the store's open
 * transaction on a condition variable, not in SQLite's busy handler, and runs once it ends;
 * then slices and the store's commits race for a while, and neither connection's busy
 * handler ever starts a wait (each would, polling, without the turn). */
struct folder {
	struct store_ckpt *c;
	int64_t hi;
	int rc;
	int rows;
	bool done;
	pthread_mutex_t mu;
};

/* Every game with moves 1..n in the journal, a fold of them begun (f->hi) for a second
 * connection (f->c), and the store's transaction open: a slice on another thread waits. */
static void fold_beside_open_txn(struct folder *f, int n)
{
	open_store();
	new_games();
	play_all(1, n);
	*f = (struct folder){ .c = second() };
	pthread_mutex_init(&f->mu, NULL);
	ck_assert_int_eq(store_journal_fold_begin(s, &f->hi), STORE_OK);
	ck_assert_int_eq(store_begin(s), STORE_OK);
}

static void folder_close(struct folder *f)
{
	pthread_mutex_destroy(&f->mu);
	store_ckpt_close(f->c);
}

static void *fold_thread(void *arg)
{
	struct folder *f = arg;
	bool more = true;
	while (more) {
		int rows;
		uint64_t held;
		int rc = store_ckpt_fold_slice(f->c, f->hi, 1, &rows, &more, &held);
		pthread_mutex_lock(&f->mu);
		f->rc = rc;
		f->rows += rows;
		pthread_mutex_unlock(&f->mu);
		if (rc != STORE_OK)
			break;
	}
	pthread_mutex_lock(&f->mu);
	f->done = true;
	pthread_mutex_unlock(&f->mu);
	return NULL;
}

static int folder_rows(struct folder *f, bool *done)
{
	pthread_mutex_lock(&f->mu);
	int n = f->rows;
	if (done)
		*done = f->done;
	pthread_mutex_unlock(&f->mu);
	return n;
}

START_TEST(test_fold_takes_turns)
{
	struct folder f;
	fold_beside_open_txn(&f, 20);
	uint64_t busy0, turns0;
	store_lock_waits(s, &busy0, &turns0);

	/* The store's transaction is open: the slice waits for its end. */
	struct store_move m;
	move_fill(&m, 21, "C3");
	ck_assert_int_eq(store_move_add(s, games[0], &m), STORE_OK);
	pthread_t th;
	ck_assert_int_eq(pthread_create(&th, NULL, fold_thread, &f), 0);
	struct timespec pause = { 0, 100 * 1000000L };
	nanosleep(&pause, NULL);
	ck_assert_int_eq(folder_rows(&f, NULL), 0); /* (SQLite's lock alone would hold it too) */
	ck_assert_int_eq(store_commit(s), STORE_OK);

	/* Then the store writes on while the slices run. */
	bool done = false;
	for (int n = 22; n <= 400 && !done; n++) {
		play_all(n, n);
		folder_rows(&f, &done);
	}
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_int_eq(f.rc, STORE_OK);
	ck_assert_int_eq(f.rows, GAMES * 20);
	uint64_t busy, turns;
	store_lock_waits(s, &busy, &turns);
	ck_assert_uint_ge(turns, turns0 + 1); /* the first slice waited for the transaction */
	ck_assert_uint_eq(busy, busy0);
	ck_assert_uint_eq(store_ckpt_lock_waits(f.c), 0);
	store_journal_fold_end(s, true);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM moves"), GAMES * 20);
	folder_close(&f);
}
END_TEST

/* A turn not had within STORE_BUSY_TIMEOUT_MS (the store's transaction left open): the slice
 * fails and changes nothing, its ticket is skipped, and the turns go on in order after it. */
static void *one_slice(void *arg)
{
	struct folder *f = arg;
	int rows;
	bool more;
	uint64_t held;
	f->rc = store_ckpt_fold_slice(f->c, f->hi, 1000, &rows, &more, &held);
	f->rows = rows;
	return NULL;
}

START_TEST(test_turn_given_up)
{
	struct folder f;
	fold_beside_open_txn(&f, 2);
	pthread_t th;
	ck_assert_int_eq(pthread_create(&th, NULL, one_slice, &f), 0);
	ck_assert_int_eq(pthread_join(th, NULL), 0); /* after STORE_BUSY_TIMEOUT_MS */
	ck_assert_int_eq(f.rc, STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_ckpt_errmsg(f.c), "stayed locked"));
	ck_assert_int_eq(f.rows, 0);
	ck_assert_int_eq(store_commit(s), STORE_OK);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM moves"), 0);
	/* The next turns: the slice's, the store's, the slice's again. */
	ck_assert_int_eq(store_ckpt_fold_slice(f.c, f.hi, 1000, &f.rows, &(bool){ false },
					       &(uint64_t){ 0 }), STORE_OK);
	ck_assert_int_eq(f.rows, GAMES * 2);
	play_all(3, 3);
	int rows;
	bool more = true;
	uint64_t held;
	while (more)
		ck_assert_int_eq(store_ckpt_fold_slice(f.c, f.hi, 1000, &rows, &more, &held), STORE_OK);
	store_journal_fold_end(s, true);
	assert_all(3);
	folder_close(&f);
}
END_TEST

/* store_options.manual_checkpoints: SQLite checkpoints nothing by itself (1,500 commits of at
 * least a frame each are all still in the WAL, where it would have copied and restarted it
 * every 1,000 frames), until store_wal_auto. */
START_TEST(test_manual_checkpoints)
{
	open_store();
	new_games();
	store_close(s);
	s = NULL;
	struct store_options o = { .manual_checkpoints = true, .sync = STORE_SYNC_LOSE_ON_POWER_CUT };
	char err[STORE_ERR_MAX];
	ck_assert_msg(store_open_ex(path, &o, &s, err, sizeof err) == STORE_OK, "%s", err);
	int logged = -1, copied = -1;
	ck_assert_int_eq(store_checkpoint(s, &logged, &copied), STORE_OK); /* the WAL starts over */
	for (int n = 1; n <= 1500; n++)
		play_all(n, n);
	ck_assert_int_eq(store_checkpoint(s, &logged, &copied), STORE_OK);
	ck_assert_int_ge(logged, 1500);
	store_wal_auto(s);
	for (int n = 1501; n <= 3000; n++)
		play_all(n, n);
	ck_assert_int_eq(store_checkpoint(s, &logged, &copied), STORE_OK);
	ck_assert_int_lt(logged, 1500);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), GAMES * 3000);
}
END_TEST

/* A RESTART checkpoint after a passive one copies everything and has the WAL start over:
 * the next commit writes from its beginning (the frame count falls). */
START_TEST(test_restart_checkpoint)
{
	open_store();
	new_games();
	ck_assert(store_wal_manual(s));
	for (int n = 1; n <= 20; n++)
		play_all(n, n);
	int before = store_wal_frames(s);
	ck_assert_int_gt(before, 20);
	struct store_ckpt *c = second();
	int logged = -1, copied = -1;
	ck_assert_int_eq(store_ckpt_run(c, &logged, &copied), STORE_OK);
	ck_assert_int_eq(logged, before);
	ck_assert_int_eq(store_ckpt_restart(c, &logged, &copied), STORE_OK);
	ck_assert_int_eq(copied, logged);
	play_all(21, 21);
	ck_assert_int_lt(store_wal_frames(s), before);
	assert_all(21);
	store_ckpt_close(c);
}
END_TEST

static Suite *fold_suite(void)
{
	Suite *su = suite_create("store_fold");
	TCase *tc = tcase_create("fold");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, test_fold_slices);
	tcase_add_test(tc, test_slice_rows);
	tcase_add_test(tc, test_fold_crash_between_slices);
	tcase_add_test(tc, test_fold_slice_failure);
	tcase_add_test(tc, test_restart_checkpoint);
	tcase_add_test(tc, test_read_during_fold);
	tcase_add_test(tc, test_fold_delete_reused_seq);
	tcase_add_test(tc, test_fold_delete_reused_seq_tail);
	tcase_add_test(tc, test_fold_delete_reused_seq_slices);
	tcase_add_test(tc, test_fold_takes_turns);
	tcase_add_test(tc, test_manual_checkpoints);
	tcase_add_test(tc, test_turn_given_up);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	SRunner *sr = srunner_create(fold_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
