/* store_db: what every part of the store shares: errors, checks, running a statement,
 * reading columns, collecting rows, one-off pragmas, the transaction. See store_int.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "store_int.h"

/* ---- Errors ---- */

enum store_rc store_fail(struct store *s, enum store_rc rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof s->err, fmt, ap);
	va_end(ap);
	return rc;
}

/* Map a failed sqlite3_step's (extended) code: a taken unique key is a conflict. */
enum store_rc store_sql_fail(struct store *s, int rc)
{
	enum store_rc r = (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
		? STORE_CONFLICT : STORE_ERROR;
	return store_fail(s, r, "%s", sqlite3_errmsg(s->db));
}

const char *store_errmsg(const struct store *s)
{
	return s ? s->err : "no store";
}

void store_param_missing(sqlite3_stmt *st, enum store_param p)
{
	fprintf(stderr, "store: no parameter %s in \"%s\"\n", store_param_names[p], sqlite3_sql(st));
	abort();
}

/* ---- Small helpers ---- */

bool store_in_list(const char *v, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(v, *list) == 0)
			return true;
	return false;
}

/* A fixed array holds a NUL-terminated string. */
bool store_fits(const char *a, size_t size)
{
	return memchr(a, '\0', size) != NULL;
}

void store_done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/* Bind failure: report it and leave the statement clean. */
enum store_rc store_bind_fail(struct store *s, struct binder *b)
{
	enum store_rc r = store_fail(s, STORE_ERROR, "bind: %s", sqlite3_errstr(b->rc));
	store_done(b->st);
	return r;
}

/* Run a bound statement that returns no row, then reset it. */
enum store_rc store_run(struct store *s, struct binder *b)
{
	enum store_rc r = STORE_OK;
	if (b->rc != SQLITE_OK)
		return store_bind_fail(s, b);
	bool in_txn = store_in_transaction(s);
	int rc = sqlite3_step(b->st);
	if (rc != SQLITE_DONE) {
		r = store_sql_fail(s, rc);
		/* After some errors (interrupt, full disk, I/O) SQLite rolls back the whole open
		 * transaction, journal rows of earlier moves included. */
		if (in_txn && !store_in_transaction(s))
			store_maybe_undone(s);
	}
	store_done(b->st);
	return r;
}

/* Copy a text column into a fixed array of `size` bytes; NULL gives "". */
enum store_rc store_col_copy(struct store *s, sqlite3_stmt *st, int col, char *dst,
		size_t size)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	size_t n = (size_t)sqlite3_column_bytes(st, col);
	if (!t) {
		if (sqlite3_column_type(st, col) != SQLITE_NULL)
			return store_fail(s, STORE_ERROR, "out of memory");
		dst[0] = '\0';
		return STORE_OK;
	}
	if (n >= size)
		return store_fail(s, STORE_ERROR, "stored %s is %zu bytes, more than %zu",
				sqlite3_column_name(st, col), n, size - 1);
	memcpy(dst, t, n);
	dst[n] = '\0';
	return STORE_OK;
}

/* A malloc'd copy of a text column, NULL for SQL NULL. */
enum store_rc store_col_dup(struct store *s, sqlite3_stmt *st, int col, char **out)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	size_t n = (size_t)sqlite3_column_bytes(st, col);
	*out = NULL;
	if (!t) {
		if (sqlite3_column_type(st, col) != SQLITE_NULL)
			return store_fail(s, STORE_ERROR, "out of memory");
		return STORE_OK;
	}
	*out = malloc(n + 1);
	if (!*out)
		return store_fail(s, STORE_ERROR, "out of memory");
	memcpy(*out, t, n);
	(*out)[n] = '\0';
	return STORE_OK;
}

/* 'B' or 'W' from a colour column (the schema allows nothing else). */
char store_col_color(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return t ? (char)t[0] : '\0';
}

/* A listing may not run from inside its own callback: the statement is in use. */
enum store_rc store_check_idle(struct store *s, sqlite3_stmt *st, const char *what)
{
	if (sqlite3_stmt_busy(st))
		return store_fail(s, STORE_ERROR, "%s called from its own callback", what);
	return STORE_OK;
}

/* Step a bound statement to the end, appending each row `read` reads to *v; resets the
 * statement. On failure the rows read so far stay in *v, for the caller to free. */
enum store_rc store_collect(struct store *s, sqlite3_stmt *st, struct store_vec *v,
		store_row_reader read)
{
	enum store_rc r = STORE_OK;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		void *e = store_vec_room(v);
		if (!e) {
			r = store_fail(s, STORE_ERROR, "out of memory");
			break;
		}
		if ((r = read(s, st, e)) != STORE_OK)
			break;
		v->n++;
	}
	if (r == STORE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
		r = store_sql_fail(s, rc);
	store_done(st);
	return r;
}

/* A run that must touch one row: none is STORE_NOT_FOUND. */
enum store_rc store_run_one(struct store *s, struct binder *b, const char *what)
{
	enum store_rc r = store_run(s, b);
	if (r == STORE_OK && sqlite3_changes(s->db) == 0)
		r = store_fail(s, STORE_NOT_FOUND, "no such %s", what);
	return r;
}

/* Run one statement returning at most one row; *text (may be NULL) gets a copy of its first
 * column as text, *num its first column as an integer. */
int store_pragma(sqlite3 *db, const char *sql, char *text, size_t size, int *num)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(st, 0);
		if (text)
			snprintf(text, size, "%s", t ? (const char *)t : "");
		if (num)
			*num = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE) {
		if (text && size)
			text[0] = '\0';
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* ---- Transactions ---- */

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int store_busy_handler(void *ctx, int n)
{
	struct store_busy *b = ctx;
	uint64_t now = mono_ns();
	if (n == 0) {
		b->t0_ns = now;
		b->waits++;
	}
	uint64_t waited_ms = (now - b->t0_ns) / 1000000u;
	if (waited_ms >= STORE_BUSY_TIMEOUT_MS)
		return 0;
	struct timespec d = { 0, waited_ms < STORE_BUSY_FINE_MS ? STORE_BUSY_STEP_US * 1000L : 1000000L };
	nanosleep(&d, NULL);
	return 1;
}

bool store_in_transaction(const struct store *s)
{
	return !sqlite3_get_autocommit(s->db);
}

int store_wlock_init(struct store_wlock *w)
{
	*w = (struct store_wlock){ 0 };
	pthread_condattr_t ca;
	if (pthread_condattr_init(&ca) != 0)
		return -1;
	int bad = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) != 0;
	if (!bad && pthread_mutex_init(&w->mu, NULL) != 0)
		bad = 1;
	else if (!bad && pthread_cond_init(&w->cv, &ca) != 0) {
		pthread_mutex_destroy(&w->mu);
		bad = 1;
	}
	pthread_condattr_destroy(&ca);
	return bad ? -1 : 0;
}

void store_wlock_destroy(struct store_wlock *w)
{
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
}

/* Under w->mu: the turn passes to the next ticket whose waiter did not give up. */
static void wlock_advance(struct store_wlock *w)
{
	w->serving++;
	for (unsigned i = 0; i < w->ngiven_up;) {
		if (w->given_up[i] == w->serving) {
			w->given_up[i] = w->given_up[--w->ngiven_up];
			w->serving++;
			i = 0;
		} else {
			i++;
		}
	}
}

int store_wlock_take(struct store_wlock *w)
{
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += STORE_BUSY_TIMEOUT_MS / 1000;
	until.tv_nsec += (long)(STORE_BUSY_TIMEOUT_MS % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&w->mu);
	uint64_t mine = w->next++;
	if (w->serving != mine)
		w->waited++;
	int rc = 0;
	while (w->serving != mine && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&w->cv, &w->mu, &until);
	if (w->serving != mine) { /* gave up: the ticket is skipped when its turn comes */
		if (w->ngiven_up < STORE_WLOCK_GIVEN_UP)
			w->given_up[w->ngiven_up++] = mine;
		else /* cannot happen with two connections; wait rather than break the order */
			while (w->serving != mine)
				pthread_cond_wait(&w->cv, &w->mu);
	}
	bool got = w->serving == mine;
	pthread_mutex_unlock(&w->mu);
	return got ? 0 : -1;
}

void store_wlock_give(struct store_wlock *w)
{
	pthread_mutex_lock(&w->mu);
	wlock_advance(w);
	bool waiting = w->next != w->serving;
	pthread_mutex_unlock(&w->mu);
	if (waiting)
		pthread_cond_broadcast(&w->cv);
}

/* The store's write transaction has ended (committed, rolled back, or rolled back by SQLite
 * after a severe error): its turn ends too. */
static void turn_end_if_over(struct store *s)
{
	if (s->wlock_held && !store_in_transaction(s)) {
		s->wlock_held = false;
		store_wlock_give(&s->wlock);
	}
}

enum store_rc store_begin(struct store *s)
{
	turn_end_if_over(s);
	if (store_in_transaction(s))
		return store_fail(s, STORE_ERROR, "a transaction is already open");
	if (s->wlock_ok) {
		if (store_wlock_take(&s->wlock) != 0)
			return store_fail(s, STORE_CONFLICT, "begin: the database stayed locked for %d ms",
					  STORE_BUSY_TIMEOUT_MS);
		s->wlock_held = true;
	}
	struct binder b = store_binder(s, ST_BEGIN);
	enum store_rc r = store_run(s, &b);
	turn_end_if_over(s);
	return r;
}

enum store_rc store_commit(struct store *s)
{
	if (!store_in_transaction(s)) {
		turn_end_if_over(s);
		store_maybe_undone(s); /* SQLite may have rolled it back after an error */
		return store_fail(s, STORE_ERROR, "no transaction to commit");
	}
	struct binder b = store_binder(s, ST_COMMIT);
	enum store_rc r = store_run(s, &b);
	if (r != STORE_OK)
		store_maybe_undone(s); /* the transaction may have been rolled back */
	turn_end_if_over(s);
	return r;
}

enum store_rc store_rollback(struct store *s)
{
	store_maybe_undone(s); /* also when SQLite has rolled it back already */
	if (!store_in_transaction(s)) {
		turn_end_if_over(s);
		return STORE_OK;
	}
	struct binder b = store_binder(s, ST_ROLLBACK);
	enum store_rc r = store_run(s, &b);
	turn_end_if_over(s);
	return r;
}

void store_lock_waits(struct store *s, uint64_t *busy, uint64_t *turns)
{
	*busy = s->busy.waits;
	*turns = 0;
	if (s->wlock_ok) {
		struct store_wlock *w = &s->wlock;
		pthread_mutex_lock(&w->mu);
		*turns = w->waited;
		pthread_mutex_unlock(&w->mu);
	}
}

