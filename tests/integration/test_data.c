/* Data: what tengend promises about its database (issue 20, items 1-4; docs/deploy.md, "What
 * the server promises: data"), each against a real tengend (TENGEND, else ./server/tengend)
 * on loopback with a temporary database, through tests/support/harness:
 *
 *   - an acknowledged move is on the disk: the daemon fsyncs about once per acknowledged move
 *     (one commit per loop iteration) by default, and not with --sync lose-on-power-cut;
 *   - one daemon per database: a second one on the same --db refuses to start ("database PATH
 *     in use by pid N") while the first goes on serving, and `tengend grant` still works;
 *   - a database deleted or replaced under the daemon stops it (non-zero, a clear log line),
 *     with no move acknowledged after; a missing or empty database is not made anew without
 *     --create (and the refusal says how);
 *   - a read-only database, a full disk or too little free space is refused at start.
 *
 * Files are observed and broken with tests/support/fsfault.so (LD_PRELOAD; $TENGEN_FSFAULT, set by
 * `make check`): the tests run as root, whom file permissions do not stop. Without the shim
 * the tests that need it fail (it is built by `make check`).
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>
#include "harness.h"

#define T HARNESS_TIMEOUT_MS
#define TEST_TIMEOUT_S 60
#define SYNC_MOVES 60               /* moves acknowledged while fsyncs are counted */
#define GONE_EXIT_MS 5000           /* a daemon whose database vanished exits within this */
#define REFUSE_MS 10000             /* a refused start exits within this */
#define OUT_MAX 8192                /* output kept of a refused start */
#define LOW_FREE_BYTES "1048576"    /* what the shim says is free: 1 MiB, below the default */
#define BOARD 19
#define COLS "ABCDEFGHJKLMNOPQRST"  /* GTP columns of a 19x19 board (no I) */

#define OK(r) ck_assert_msg(hj_ok(r), "expected ok, got %s", hj_text(r))

static const char *shim(void)
{
	const char *p = hd_fsfault();
	ck_assert_msg(p != NULL, "tests/support/fsfault.so not found ($TENGEN_FSFAULT); run `make check`");
	return p;
}

/* Stop a daemon: a clean stop, a clean log. */
static void finish(struct hd *d)
{
	int st = hd_stop(d);
	const char *san = hd_sanitizer_report(d);
	ck_assert_msg(st == 0, "tengend exited with status %d after SIGTERM (log: %s)", st, d->log);
	ck_assert_msg(san == NULL, "the daemon's log holds a sanitizer report (%s): %s", san, d->log);
	hd_cleanup(d);
}

static struct hc *login(struct hd *d, const char *name)
{
	struct hc *c = hc_login_new(d->port, name);
	ck_assert_msg(c != NULL, "could not register and log in %s", name);
	return c;
}

static void ping_ok(struct hc *c)
{
	json_t *r = hc_req(c, "{s:s}", "cmd", "ping");
	OK(r);
	json_decref(r);
}

/* A 19x19 game, b Black, accepted by w. */
static long long new_game(struct hc *b, struct hc *w)
{
	json_t *r = hc_req(b, "{s:s, s:s, s:i, s:s}", "cmd", "challenge", "opponent", w->name,
			   "size", BOARD, "color", "black");
	OK(r);
	long long g = hj_int(r, "game");
	json_decref(r);
	r = hc_req(w, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
	return g;
}

/* The vertex of move i (0-based): rows 1, 3, 5, ... filled left to right, so every stone keeps
 * an empty point above or below (no capture, no suicide) for BOARD * (BOARD + 1) / 2 moves. */
static void vertex(int i, char *v, size_t n)
{
	snprintf(v, n, "%c%d", COLS[i % BOARD], 2 * (i / BOARD) + 1);
}

/* Play move i (0-based) of game g and require it acknowledged. */
static void play_ok(struct hc *b, struct hc *w, long long g, int i)
{
	char v[16];
	vertex(i, v, sizeof v);
	json_t *r = hc_req(i % 2 ? w : b, "{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g,
			   "vertex", v);
	ck_assert_msg(hj_ok(r), "move %d (%s): %s", i + 1, v, hj_text(r));
	json_decref(r);
	hc_clear(b);
	hc_clear(w);
}

static long long read_count(const char *path)
{
	FILE *f = fopen(path, "r");
	long long n = 0;
	if (f) {
		if (fscanf(f, "%lld", &n) != 1)
			n = 0;
		fclose(f);
	}
	return n;
}

/* fsync/fdatasync calls of a real tengend (with `extra` arguments) while SYNC_MOVES moves are
 * acknowledged, one at a time. */
static long long syncs_per_moves(const char *const *extra)
{
	char dir[] = "/tmp/tengen-sync-XXXXXX", count[128], preload[HARNESS_PATH_MAX + 16],
		cenv[160];
	ck_assert(mkdtemp(dir) != NULL);
	snprintf(count, sizeof count, "%s/syncs", dir);
	snprintf(preload, sizeof preload, "LD_PRELOAD=%s", shim());
	snprintf(cenv, sizeof cenv, "TENGEN_FSFAULT_COUNT=%s", count);
	const char *env[] = {preload, cenv, NULL};
	struct hd d;
	ck_assert_msg(hd_start_env(&d, extra, env) == 0, "tengend did not start");
	struct hc *b = login(&d, "alice"), *w = login(&d, "bob");
	long long g = new_game(b, w);
	play_ok(b, w, g, 0);
	long long before = read_count(count);
	for (int i = 1; i <= SYNC_MOVES; i++)
		play_ok(b, w, g, i);
	long long delta = read_count(count) - before;
	hc_close(b);
	hc_close(w);
	finish(&d);
	unlink(count);
	rmdir(dir);
	return delta;
}

/* Item 1: the group commit is on the disk before the reply: about one fsync per acknowledged
 * move (each is its own loop iteration here). Before: synchronous=NORMAL, 0 fsyncs. */
START_TEST(test_sync_power_safe)
{
	long long n = syncs_per_moves(NULL);
	ck_assert_msg(n >= SYNC_MOVES, "%lld fsync/fdatasync calls while %d moves were acknowledged "
		      "with the default --sync power-safe (want at least one per move)", n, SYNC_MOVES);
	ck_assert_msg(n <= 4 * SYNC_MOVES, "%lld fsyncs for %d moves: more than a few per commit",
		      n, SYNC_MOVES);
}
END_TEST

/* The setting that trades it away does what it says: no fsync per move. */
START_TEST(test_sync_lose_on_power_cut)
{
	static const char *const extra[] = {"--sync", "lose-on-power-cut", NULL};
	long long n = syncs_per_moves(extra);
	ck_assert_msg(n < SYNC_MOVES / 10, "%lld fsyncs for %d moves with --sync lose-on-power-cut",
		      n, SYNC_MOVES);
}
END_TEST

START_TEST(test_sync_option_checked)
{
	char out[OUT_MAX];
	static const char *const args[] = {"--sync", "sometimes", NULL};
	ck_assert_int_eq(hd_run(args, NULL, out, sizeof out, REFUSE_MS), 2);
	ck_assert_msg(strstr(out, "power-safe") && strstr(out, "lose-on-power-cut"),
		      "the refusal should name both modes: %s", out);
	static const char *const help[] = {"--help", NULL};
	ck_assert_int_eq(hd_run(help, NULL, out, sizeof out, REFUSE_MS), 0);
	ck_assert_msg(strstr(out, "--sync") && strstr(out, "--create") && strstr(out, "--min-free-mb"),
		      "--help should list --sync, --create and --min-free-mb: %s", out);
}
END_TEST

/* --help gives the bounds of every option that takes a number within bounds, and each bound
 * is the one a start checks: one past either end is refused (status 2) naming both, one at
 * the end is not refused as out of bounds. Before, --help gave defaults only. */
START_TEST(test_help_gives_bounds)
{
	static char help[16384], out[OUT_MAX];
	static const char *const h[] = {"--help", NULL};
	ck_assert_int_eq(hd_run(h, NULL, help, sizeof help, REFUSE_MS), 0);
	const char *p = strstr(help, "whole numbers within bounds");
	ck_assert_msg(p != NULL, "--help without the bounds: %s", help);
	int rows = 0;
	char opt[64];
	long lo, hi;
	while ((p = strchr(p, '\n')) && sscanf(++p, " %63s %ld to %ld", opt, &lo, &hi) == 3) {
		char arg[32], want[96];
		snprintf(want, sizeof want, "%s takes", opt);
		long bad[2] = {lo - 1, hi + 1};
		for (int i = 0; i < 2; i++) {
			snprintf(arg, sizeof arg, "%ld", bad[i]);
			const char *args[] = {opt, arg, "--db", "/nonexistent/dir/x.db", NULL};
			int st = hd_run(args, NULL, out, sizeof out, REFUSE_MS);
			char range[64];
			snprintf(range, sizeof range, "from %ld to %ld", lo, hi);
			ck_assert_msg(st == 2 && strstr(out, want) && strstr(out, range),
				      "%s %s: status %d: %s", opt, arg, st, out);
		}
		/* at the bound: refused for the missing directory, not for the number */
		snprintf(arg, sizeof arg, "%ld", hi);
		const char *args[] = {opt, arg, "--db", "/nonexistent/dir/x.db", NULL};
		hd_run(args, NULL, out, sizeof out, REFUSE_MS);
		ck_assert_msg(!strstr(out, want), "%s %s refused as out of bounds: %s", opt, arg, out);
		rows++;
	}
	ck_assert_msg(rows >= 19, "%d options with bounds in --help: %s", rows, help);
}
END_TEST

/* Item 2: a second daemon on the same database refuses to start and names the first. */
START_TEST(test_one_daemon_per_db)
{
	struct hd d;
	ck_assert(hd_start(&d, NULL) == 0);
	struct hc *a = login(&d, "alice");
	char out[OUT_MAX], pid[32];
	const char *args[] = {"--listen", "127.0.0.1:0", "--db", d.db, "--log-level", "info", NULL};
	int st = hd_run(args, NULL, out, sizeof out, REFUSE_MS);
	ck_assert_msg(st > 0 && st < 128, "a second tengend on %s: status %d, output: %s", d.db, st,
		      out);
	snprintf(pid, sizeof pid, "in use by pid %d", (int)d.pid);
	ck_assert_msg(strstr(out, pid) && strstr(out, d.db),
		      "the refusal should say \"database %s %s\": %s", d.db, pid, out);
	/* The same file under another name, a symlink or a hard link, is refused too (before:
	 * both daemons acknowledged different moves of one game). */
	static const char *const names[] = {"sym.db", "hard.db"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char other[HARNESS_PATH_MAX + 16];
		snprintf(other, sizeof other, "%s", d.db);
		char *slash = strrchr(other, '/');
		snprintf(slash ? slash + 1 : other, sizeof other - (size_t)(slash ? slash + 1 - other : 0),
			 "%s", names[i]);
		ck_assert_msg((i == 0 ? symlink(d.db, other) : link(d.db, other)) == 0, "%s: %s", other,
			      strerror(errno));
		const char *a2[] = {"--listen", "127.0.0.1:0", "--db", other, "--log-level", "info",
				    NULL};
		st = hd_run(a2, NULL, out, sizeof out, REFUSE_MS);
		ck_assert_msg(st > 0 && st < 128 && strstr(out, "in use"),
			      "a second tengend on %s (%s of %s): status %d, output: %s", other,
			      i == 0 ? "a symlink" : "a hard link", d.db, st, out);
		unlink(other);
	}
	/* The first goes on serving and writing; `tengend grant` still opens the database. */
	ping_ok(a);
	ck_assert_int_eq(hd_grant(&d, "alice", "td"), 0);
	/* any case finds the player; the reply names them as stored */
	const char *ga[] = {"grant", "ALICE", "td", "--db", d.db, NULL};
	st = hd_run(ga, NULL, out, sizeof out, REFUSE_MS);
	ck_assert_msg(st == 0 && strstr(out, "alice is now td"), "grant ALICE: %d %s", st, out);
	hc_close(a);
	a = login(&d, "alice");
	ping_ok(a);
	hc_close(a);
	/* Stopped, the lock is free again (also after kill -9: the kernel drops it). */
	ck_assert_int_eq(hd_kill(&d), 0);
	ck_assert_msg(hd_restart(&d) == 0, "no restart after kill -9");
	a = login(&d, "alice");
	ping_ok(a);
	hc_close(a);
	finish(&d);
}
END_TEST

/* Item 3: the database's files deleted under a running daemon. It stops within a few seconds
 * with a clear line, acknowledges no move after it, and a start without --create does not
 * make an empty database in their place. Before: moves acknowledged into the unlinked file,
 * exit 0 on SIGTERM, and a silent new database at the next start. */
START_TEST(test_db_deleted)
{
	struct hd d;
	ck_assert(hd_start(&d, NULL) == 0);
	struct hc *b = login(&d, "alice"), *w = login(&d, "bob");
	long long g = new_game(b, w);
	for (int i = 0; i < 4; i++)
		play_ok(b, w, g, i);
	static const char *const suffixes[] = {"", "-wal", "-shm"};
	for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
		char p[HARNESS_PATH_MAX + 8];
		snprintf(p, sizeof p, "%s%s", d.db, suffixes[i]);
		ck_assert_msg(unlink(p) == 0, "unlink %s: %s", p, strerror(errno));
	}
	char v[16];
	vertex(4, v, sizeof v);
	json_t *r = hc_req(b, "{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g, "vertex", v);
	ck_assert_msg(!hj_ok(r), "a move acknowledged after the database was deleted: %s",
		      hj_text(r));
	json_decref(r);
	int st = hd_wait_exit(&d, GONE_EXIT_MS);
	ck_assert_msg(st > 0, "tengend still running (or exited 0: %d) %d ms after its database was "
		      "deleted", st, GONE_EXIT_MS);
	ck_assert_msg(hd_log_has(&d, "database_gone") && hd_log_has(&d, "was deleted"),
		      "no clear log line (database_gone ... was deleted) in %s", d.log);
	hc_close(b);
	hc_close(w);
	/* A restart (no --create) refuses and says how to make one; nothing is created. */
	ck_assert_msg(hd_restart(&d) != 0, "tengend started on a deleted database");
	ck_assert_msg(hd_log_has(&d, "no database at") && hd_log_has(&d, "--create"),
		      "the refusal should say there is no database and name --create: %s", d.log);
	ck_assert_msg(access(d.db, F_OK) != 0, "a new database was made at %s", d.db);
	ck_assert_msg(hd_sanitizer_report(&d) == NULL, "sanitizer report in %s", d.log);
	hd_cleanup(&d);
}
END_TEST

/* The same with no traffic at all: the once-a-second look finds a database replaced by
 * another file (renamed over it). */
START_TEST(test_db_replaced_idle)
{
	struct hd d;
	ck_assert(hd_start(&d, NULL) == 0);
	struct hc *a = login(&d, "alice");
	char other[HARNESS_PATH_MAX + 8];
	snprintf(other, sizeof other, "%s/other.db", d.dir);
	int fd = open(other, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert(fd >= 0);
	close(fd);
	ck_assert_msg(rename(other, d.db) == 0, "rename: %s", strerror(errno));
	int st = hd_wait_exit(&d, GONE_EXIT_MS);
	ck_assert_msg(st > 0, "tengend still running (or exited 0: %d) %d ms after its database was "
		      "replaced", st, GONE_EXIT_MS);
	ck_assert_msg(hd_log_has(&d, "database_gone") && hd_log_has(&d, "replaced"),
		      "no clear log line (database_gone ... replaced) in %s", d.log);
	hc_close(a);
	/* The empty file in its place is not taken for a database either. */
	ck_assert_msg(hd_restart(&d) != 0, "tengend started on an empty file without --create");
	ck_assert_msg(hd_log_has(&d, "holds no tengen database"), "no clear refusal in %s", d.log);
	hd_cleanup(&d);
}
END_TEST

/* A missing database: refused without --create, with a message that says how; made with it. */
START_TEST(test_db_missing)
{
	char dir[] = "/tmp/tengen-missing-XXXXXX", db[128], port[128], out[OUT_MAX];
	ck_assert(mkdtemp(dir) != NULL);
	snprintf(db, sizeof db, "%s/new.db", dir);
	snprintf(port, sizeof port, "%s/port", dir);
	const char *args[] = {"--listen", "127.0.0.1:0", "--db", db, "--port-file", port, NULL};
	int st = hd_run(args, NULL, out, sizeof out, REFUSE_MS);
	ck_assert_msg(st > 0 && st < 128, "start on a missing database: status %d: %s", st, out);
	ck_assert_msg(strstr(out, "no database at") && strstr(out, "tengend init") && strstr(out, "--create"),
		      "the refusal should say how to create one: %s", out);
	ck_assert_msg(access(db, F_OK) != 0, "a database was created without --create");
	/* `tengend init` makes one (and leaves one that is there as it is). */
	const char *ia[] = {"init", "--db", db, NULL};
	ck_assert_int_eq(hd_run(ia, NULL, out, sizeof out, REFUSE_MS), 0);
	ck_assert_msg(strstr(out, "new tengen database"), "tengend init: %s", out);
	ck_assert_int_eq(hd_run(ia, NULL, out, sizeof out, REFUSE_MS), 0);
	ck_assert_msg(strstr(out, "there already"), "tengend init again: %s", out);
	/* a directory that is not there is named as such (it was "free space of the file
	 * system"); an unknown option or argument is named, without the whole help */
	char nodir[160];
	snprintf(nodir, sizeof nodir, "%s/no/such/dir/x.db", dir);
	const char *in[] = {"init", "--db", nodir, NULL};
	st = hd_run(in, NULL, out, sizeof out, REFUSE_MS);
	ck_assert_msg(st == 1 && strstr(out, "its directory does not exist"), "init in a missing "
		      "directory: status %d: %s", st, out);
	const char *bogus[] = {"--bogus", NULL}, *extra[] = {"--db", db, "stray", NULL};
	st = hd_run(bogus, NULL, out, sizeof out, REFUSE_MS);
	ck_assert_msg(st == 2 && strstr(out, "--bogus") && strstr(out, "--help lists") &&
		      !strstr(out, "usage:"), "an unknown option: status %d: %s", st, out);
	st = hd_run(extra, NULL, out, sizeof out, REFUSE_MS);
	ck_assert_msg(st == 2 && strstr(out, "unexpected argument 'stray'"), "a stray argument: "
		      "status %d: %s", st, out);
	char f[160];
	static const char *const made[] = {"", "-wal", "-shm"};
	for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
		snprintf(f, sizeof f, "%s%s", db, made[i]);
		unlink(f);
	}
	/* With --create (hd_start passes it on a first start): made, with its schema. */
	struct hd d;
	ck_assert(hd_start(&d, NULL) == 0);
	ck_assert_msg(access(d.db, F_OK) == 0, "no database made with --create");
	struct hc *a = login(&d, "alice");
	ping_ok(a);
	hc_close(a);
	finish(&d);
	char lock[160];
	snprintf(lock, sizeof lock, "%s.lock", db);
	unlink(lock);
	rmdir(dir);
}
END_TEST

/* Another program's SQLite database (a table, no tengen schema version) is never written
 * into: `tengend init` and a start with --create refuse it and leave it as it was (they used
 * to add tengen's tables and say "a tengen database is there already"). An empty file is
 * made into a new database, and said to be new. */
START_TEST(test_db_foreign)
{
	char dir[] = "/tmp/tengen-foreign-XXXXXX", db[128], empty[128], port[128], out[OUT_MAX];
	ck_assert(mkdtemp(dir) != NULL);
	snprintf(db, sizeof db, "%s/theirs.db", dir);
	snprintf(empty, sizeof empty, "%s/empty.db", dir);
	snprintf(port, sizeof port, "%s/port", dir);
	sqlite3 *x;
	ck_assert_int_eq(sqlite3_open(db, &x), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(x, "CREATE TABLE foo(a); INSERT INTO foo VALUES (1)", NULL,
				      NULL, NULL), SQLITE_OK);
	sqlite3_close(x);
	const char *ia[] = {"init", "--db", db, NULL};
	int st = hd_run(ia, NULL, out, sizeof out, REFUSE_MS);
	ck_assert_msg(st == 1, "tengend init on another program's database: status %d: %s", st, out);
	ck_assert_msg(strstr(out, "made by something else"), "tengend init: %s", out);
	const char *ca[] = {"--listen", "127.0.0.1:0", "--db", db, "--port-file", port, "--create",
			    NULL};
	st = hd_run(ca, NULL, out, sizeof out, REFUSE_MS);
	ck_assert_msg(st > 0 && st < 128, "--create on another program's database: status %d: %s",
		      st, out);
	ck_assert_msg(strstr(out, "made by something else"), "--create: %s", out);
	ck_assert_int_eq(sqlite3_open(db, &x), SQLITE_OK);
	sqlite3_stmt *q;
	ck_assert_int_eq(sqlite3_prepare_v2(x, "SELECT count(*), group_concat(name) FROM sqlite_master",
					    -1, &q, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
	ck_assert_msg(sqlite3_column_int(q, 0) == 1, "tables added: %s", sqlite3_column_text(q, 1));
	sqlite3_finalize(q);
	sqlite3_close(x);
	int fd = open(empty, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert(fd >= 0);
	close(fd);
	const char *ie[] = {"init", "--db", empty, NULL};
	ck_assert_int_eq(hd_run(ie, NULL, out, sizeof out, REFUSE_MS), 0);
	ck_assert_msg(strstr(out, "new tengen database"), "tengend init on an empty file: %s", out);
	static const char *const files[] = {"theirs.db", "theirs.db-wal", "theirs.db-shm",
		"theirs.db.lock", "empty.db", "empty.db-wal", "empty.db-shm", "empty.db.lock", "port"};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char f[200];
		snprintf(f, sizeof f, "%s/%s", dir, files[i]);
		unlink(f);
	}
	rmdir(dir);
}
END_TEST

/* A database made by an earlier daemon, stopped: its directory (caller cleans up). */
static void made_db(struct hd *d)
{
	ck_assert(hd_start(d, NULL) == 0);
	struct hc *a = login(d, "alice");
	hc_close(a);
	ck_assert_int_eq(hd_stop(d), 0);
}

/* Start tengend on d's database with the shim's `fault` ("NAME=value") and require a refusal
 * at start whose output holds `want`. Before: it started (and failed at the first write). */
static void refused_with(struct hd *d, const char *fault, const char *want,
			 const char *const *more)
{
	char preload[HARNESS_PATH_MAX + 16], path[HARNESS_PATH_MAX + 32], out[OUT_MAX];
	snprintf(preload, sizeof preload, "LD_PRELOAD=%s", shim());
	snprintf(path, sizeof path, "TENGEN_FSFAULT_PATH=%s", d->db);
	const char *env[] = {preload, path, fault, NULL};
	const char *args[HARNESS_MAX_ARGS + 1] = {"--listen", "127.0.0.1:0", "--db", d->db,
		"--port-file", d->port_file};
	int n = 6;
	for (int i = 0; more && more[i]; i++)
		args[n++] = more[i];
	args[n] = NULL;
	int st = hd_run(args, env, out, sizeof out, REFUSE_MS);
	ck_assert_msg(st > 0 && st < 128, "with %s tengend was not refused at start (status %d; -1: "
		      "still running after %d ms): %s", fault, st, REFUSE_MS, out);
	ck_assert_msg(strstr(out, want), "with %s the refusal should say \"%s\": %s", fault, want,
		      out);
	ck_assert_msg(!strstr(out, "runtime error:") && !strstr(out, "Sanitizer"),
		      "sanitizer report: %s", out);
}

/* Item 4: a read-only database file (root's permissions do not stop root, so the shim refuses
 * the writing open with EROFS; SQLite then opens the file read-only). Before: it started and
 * answered `internal` to every write. */
/* A start refused under the fault `env` with `why`; then nothing has changed: the database
 * opens again and alice is there. */
static void refused_then_intact(const char *env, const char *why)
{
	struct hd d;
	made_db(&d);
	refused_with(&d, env, why, NULL);
	ck_assert(hd_restart(&d) == 0);
	struct hc *a = login(&d, "alice");
	ping_ok(a);
	hc_close(a);
	finish(&d);
}

START_TEST(test_start_read_only)
{
	refused_then_intact("TENGEN_FSFAULT_ROFS=1", "can only be read");
}
END_TEST

/* Item 4: a full disk (every write to the database and its WAL fails with ENOSPC, reads work).
 * Before: it started, and exited at the first commit; restarted, the same again. */
START_TEST(test_start_disk_full)
{
	refused_then_intact("TENGEN_FSFAULT_ENOSPC=1", "cannot write the database");
}
END_TEST

/* Item 4: less free space than --min-free-mb (default 128 MiB) beside the database; 0 turns
 * the check off. */
START_TEST(test_start_low_free_space)
{
	struct hd d;
	made_db(&d);
	refused_with(&d, "TENGEN_FSFAULT_FREE_BYTES=" LOW_FREE_BYTES, "MiB free", NULL);
	static const char *const two[] = {"--min-free-mb", "2", NULL};
	refused_with(&d, "TENGEN_FSFAULT_FREE_BYTES=" LOW_FREE_BYTES, "2.0 MiB required", two);
	char preload[HARNESS_PATH_MAX + 16];
	snprintf(preload, sizeof preload, "LD_PRELOAD=%s", shim());
	const char *env[] = {preload, "TENGEN_FSFAULT_FREE_BYTES=" LOW_FREE_BYTES, NULL};
	static const char *const off[] = {"--min-free-mb", "0", NULL};
	struct hd e;
	ck_assert_msg(hd_start_env(&e, off, env) == 0, "--min-free-mb 0 should not check");
	finish(&e);
	hd_cleanup(&d);
}
END_TEST

/* Replace `from` by `to` in column `col` of table `table` of the stopped daemon d's
 * database (both JSON spacings); returns the rows changed. */
static int db_replace(struct hd *d, const char *table, const char *col, const char *from,
		      const char *to)
{
	char db[HARNESS_PATH_MAX + 8], sql[512];
	snprintf(db, sizeof db, "%s/t.db", d->dir);
	sqlite3 *x;
	ck_assert_int_eq(sqlite3_open(db, &x), SQLITE_OK);
	snprintf(sql, sizeof sql, "UPDATE %s SET %s = replace(replace(%s, '\"ko\":\"%s\"', "
		 "'\"ko\":\"%s\"'), '\"ko\": \"%s\"', '\"ko\": \"%s\"') WHERE instr(%s, "
		 "'\"ko\":\"%s\"') OR instr(%s, '\"ko\": \"%s\"')", table, col, col, from, to, from,
		 to, col, from, col, from);
	ck_assert_int_eq(sqlite3_exec(x, sql, NULL, NULL, NULL), SQLITE_OK);
	int n = sqlite3_changes(x);
	sqlite3_close(x);
	return n;
}

/* A prediction event and its live game as an older tengend stored them, with `ko:
 * "situational"` (which a request may no longer give a prediction game): after an upgrade the
 * game loads and plays on, and the event can be updated (each update failed on the stored ko,
 * a field the director had not sent). */
START_TEST(test_stored_prediction_rules)
{
	struct hd d;
	ck_assert_int_eq(hd_start(&d, NULL), 0);
	hc_close(login(&d, "olddir"));
	ck_assert_int_eq(hd_grant(&d, "olddir", "td"), 0);
	struct hc *a = login(&d, "olda"), *b = login(&d, "oldb");
	hc_close(a);
	hc_close(b);
	struct hc *td = hc_login_new(d.port, "olddir"); /* registered: this logs in */
	ck_assert(td != NULL);
	json_t *r = hc_req(td, "{s:s, s:s, s:s, s:i, s:i, s:b, s:{s:s}}", "cmd", "tournament.create",
			   "name", "Old Prediction", "system", "swiss", "rounds", 2, "size", 5, "rated",
			   0, "rules", "ruleset", "prediction");
	OK(r);
	long long t = hj_int(r, "tournament");
	json_decref(r);
	for (int i = 0; i < 2; i++) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
			   (json_int_t)t, "player", i ? "oldb" : "olda");
		OK(r);
		json_decref(r);
	}
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)t);
	OK(r);
	long long g = hj_int(r, "pairings.0.game");
	json_decref(r);
	hc_close(td);
	ck_assert_int_eq(hd_stop(&d), 0);
	ck_assert_int_eq(db_replace(&d, "tournaments", "state", "positional", "situational"), 1);
	ck_assert_int_ge(db_replace(&d, "games", "rules", "positional", "situational"), 1);
	ck_assert_int_eq(hd_restart(&d), 0);
	td = hc_login_new(d.port, "olddir");
	ck_assert(td != NULL);
	r = hc_req(td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "game.rules.ko"), "positional");
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "opening");
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.update", "tournament", (json_int_t)t,
		   "place", "FR,Lyon");
	OK(r);
	json_decref(r);
	hc_close(td);
	finish(&d);
}
END_TEST

static Suite *data_suite(void)
{
	Suite *s = suite_create("data");
	TCase *tc = tcase_create("data");
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, test_sync_power_safe);
	tcase_add_test(tc, test_stored_prediction_rules);
	tcase_add_test(tc, test_sync_lose_on_power_cut);
	tcase_add_test(tc, test_sync_option_checked);
	tcase_add_test(tc, test_help_gives_bounds);
	tcase_add_test(tc, test_one_daemon_per_db);
	tcase_add_test(tc, test_db_deleted);
	tcase_add_test(tc, test_db_replaced_idle);
	tcase_add_test(tc, test_db_missing);
	tcase_add_test(tc, test_db_foreign);
	tcase_add_test(tc, test_start_read_only);
	tcase_add_test(tc, test_start_disk_full);
	tcase_add_test(tc, test_start_low_free_space);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(data_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
