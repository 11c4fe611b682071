/* store: the daemon's SQLite database: players, games, moves, warnings, rating history,
 * tournaments.
 *
 * One connection, used by one thread (the event loop). Every statement is prepared once, in
 * store_open, and reused. The database runs in WAL mode with foreign keys enforced and, by
 * default, synchronous=FULL: a commit returns once it is on the disk (one fsync of the WAL per
 * commit), so it survives a power cut or a kernel crash; STORE_SYNC_LOSE_ON_POWER_CUT
 * (synchronous=NORMAL) returns once it is in the kernel's cache: it survives a crash of the
 * process, but a power cut may lose the last commits (it never corrupts the file). A busy
 * connection is waited for up to STORE_BUSY_TIMEOUT_MS (e.g. `tengend grant` beside the
 * daemon).
 *
 * Group commit: the server calls store_begin once per event-loop iteration, does all its
 * writes, calls store_commit once, and only then sends the replies. A write made outside
 * store_begin/store_commit is its own transaction (autocommit).
 *
 * Schema: migrations/NNNN_name.sql, compiled in (server/migrations_sql.c). PRAGMA
 * user_version is the number of migrations applied; store_open applies the missing ones in
 * one transaction and refuses a database made by a newer tengend.
 *
 * Conventions:
 * - Ids are SQLite rowids (int64_t, > 0). In an id, `round`, `number` or time field, 0 means
 *   "none" (SQL NULL).
 * - Times are Unix epoch seconds (double, fractions allowed).
 * - Fixed-size char arrays hold NUL-terminated text, "" meaning none. On write, an array
 *   without a NUL inside its size is refused (STORE_ERROR).
 * - JSON blobs (time control, rules, clocks, extra) are JSON text as char *, NULL meaning
 *   none; the database refuses text that is not valid JSON (STORE_ERROR). Passed in, they
 *   are borrowed for the call. Returned in a struct store_game they are malloc'd and owned
 *   by that struct: free them with store_game_clear. Returned in a struct store_move they
 *   are borrowed from the store and valid only during the callback that receives them.
 * - Player names are unique case-insensitively ("Alice" and "alice" are the same name; ASCII
 *   case folding, which covers the protocol's [A-Za-z0-9_.-]); the name is kept as spelt
 *   at registration and looked up in any case.
 *
 * Errors: every function but store_errmsg/store_in_transaction/store_game_clear/store_close/
 * store_tournament_clear returns an enum store_rc. On anything but STORE_OK,
 * store_errmsg(s) says why. A failed write changes nothing: the statement is undone; an
 * enclosing transaction stays open unless the error was a severe one (disk full, I/O), which
 * store_in_transaction reveals.
 */
#ifndef TENGEN_STORE_H
#define TENGEN_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STORE_BUSY_TIMEOUT_MS 5000 /* wait this long for another connection's lock */
#define STORE_BUSY_FINE_MS 50      /* ... in steps of STORE_BUSY_STEP_US for the first this
                                      many ms (a fold slice holds the lock ~1 ms), then of 1 ms */
#define STORE_BUSY_STEP_US 20
#define STORE_CACHE_KIB 8192       /* SQLite page cache of the main connection (PRAGMA cache_size) */
#define STORE_ERR_MAX 512          /* store_errmsg text, bytes with the NUL */
#define STORE_JOURNAL_KEYS_START 1024 /* first capacity of the move journal's key set */
#define STORE_OPEN_FOLD_ROWS 65536 /* a journal up to this long is folded when the store opens */
#define STORE_MOVE_NUMBER_MAX 1000000 /* a move's number, at most (store_moves_get walks them) */
#define STORE_WAL_AUTO_FRAMES 1000 /* store_wal_auto: SQLite's own default */
#define STORE_MOVES_PASSES 64      /* store_moves_get: reads of moves again after a fold moved rows */
#define STORE_FOLD_DELETE_FACTOR 8 /* a fold's second step deletes 8x a first step's rows */
#define STORE_LOCK_SUFFIX ".lock"   /* the daemon's lock file: the database's path + this */
#define STORE_PID_TEXT_MAX 24         /* the pid written in the lock file, bytes */

/* Array sizes, in bytes with the NUL. */
#define STORE_NAME_MAX 32           /* player name, characters (docs/protocol.md: 1-32) */
#define STORE_PWHASH_SIZE 128       /* password hash string (libsodium crypto_pwhash_STRBYTES) */
#define STORE_ROLE_SIZE 8           /* "player", "td", "admin" */
#define STORE_RANK_SIZE 8           /* declared rank: "5k", "3d", "" */
#define STORE_PHASE_SIZE 12         /* "pending", "scheduled", "playing", "counting", "ended" */
#define STORE_RESULT_SIZE 16        /* SGF result: "B+R", "W+361.5", "0", "Void", "" */
#define STORE_REASON_SIZE 32        /* "resignation", "double_forfeit", "superko", ... */
#define STORE_COLOR_CHOICE_SIZE 8   /* "nigiri", "black", "white", "" */
#define STORE_VERTEX_SIZE 8         /* "D4", "Q16", "pass" */
#define STORE_WARNING_REASON_SIZE 256 /* a TD's free-text warning reason */

enum store_rc {
	STORE_OK = 0,
	STORE_NOT_FOUND, /* no such row */
	STORE_CONFLICT,  /* a unique key is taken: player name, (game, move number) */
	STORE_ERROR      /* anything else: bad argument, constraint, SQLite error; see store_errmsg */
};

struct store;

struct store_player {
	int64_t id;
	char name[STORE_NAME_MAX + 1];
	char pwhash[STORE_PWHASH_SIZE];
	char role[STORE_ROLE_SIZE];     /* "player", "td" or "admin" */
	double rating, rd, volatility;  /* Glicko-2; new players 1500, 350, 0.06 */
	char rank[STORE_RANK_SIZE];     /* declared rank, "" if none */
	double created_at;
	/* Where the rating history starts (migration 0002): 1500/350/0.06, or the declared
	 * rank's values (store_player_set_start). */
	double rating_start, rd_start, volatility_start;
	double last_rated_at;           /* ended_at of the last rated game, 0: none */
};

/* A game row. Phases, results and reasons as in docs/protocol.md. */
struct store_game {
	int64_t id;                     /* set by store_game_create; ignored by it on input */
	int64_t black_id, white_id;     /* players (must exist, must differ) */
	int size;                       /* board size, lines */
	double komi;                    /* points */
	int handicap;                   /* stones, >= 0 */
	bool rated;
	char *time_control;             /* JSON: docs/protocol.md time control object, or NULL */
	char *rules;                    /* JSON: docs/rules.md event options, or NULL */
	char phase[STORE_PHASE_SIZE];   /* "pending", "scheduled", "playing", "counting", "ended" */
	char result[STORE_RESULT_SIZE]; /* "" until ended */
	char reason[STORE_REASON_SIZE]; /* "" until ended */
	int64_t challenger_id;          /* the player who challenged, 0 for a tournament game */
	char color_choice[STORE_COLOR_CHOICE_SIZE]; /* challenger's "nigiri"/"black"/"white", "" */
	int64_t tournament_id;          /* 0: a free game */
	int round;                      /* tournament round, 0: none */
	double start_at;                /* scheduled start, 0: none */
	double created_at;
	double ended_at;                /* 0: not ended */
	char *clocks;                   /* JSON clock state at the last commit, or NULL */
	int warnings_b, warnings_w;     /* warnings given so far (docs/rules.md §3), >= 0 */
	char *extra;                    /* JSON: dead-stone claims, counting state..., or NULL */
};

/* One turn of a game. A forfeited turn (docs/rules.md §3, Art. 19/22.5) is a move with vertex
 * "pass" and `forfeit` naming why ("occupied", "suicide", "superko", "time"). */
struct store_move {
	int number;                     /* 1-based, as in the game.move event */
	char color;                     /* 'B' or 'W' */
	char vertex[STORE_VERTEX_SIZE]; /* GTP vertex, or "pass" */
	char forfeit[STORE_REASON_SIZE]; /* "" for a real move */
	const char *clocks;             /* JSON clocks after the move, or NULL (see above) */
	double at;                      /* when it was played */
};

struct store_warning {
	int64_t id;                     /* set by store_warning_add */
	char color;                     /* the warned side, 'B' or 'W' */
	char reason[STORE_WARNING_REASON_SIZE];
	int number;                     /* move number the warning was given at, 0: none */
	double at;
	int by_director;                /* 1: a director's (Art. 23), 0: the referee's; read back
	                                   as -1 for a row from before migration 0009 */
};

/* Which games store_games_list returns; every condition set must hold. */
struct store_games_filter {
	const char *phase;              /* NULL: any */
	int64_t player_id;              /* black or white; 0: any */
	int64_t tournament_id;          /* 0: any */
	int limit;                      /* at most this many games, newest first; 0: all */
	int64_t before;                 /* only games with a smaller id (a page's keyset
					 * cursor: the last id of the page before); 0: any */
};

/* One player's rating change by one rated game (table rating_history). *_before are the
 * player's stored values before the game (before idle RD growth), rating/rd/volatility
 * after it; `at` is the game's ended_at, so a player's changes in (at, game_id) order are in
 * rating order. */
struct store_rating_change {
	int64_t id;                     /* set by store_rating_change_add */
	int64_t player_id, game_id;
	double rating_before, rd_before, volatility_before;
	double rating, rd, volatility;
	double at;
};

/* Leaderboard orders (store_leaderboard). */
enum store_leaderboard_sort {
	STORE_SORT_RATING,              /* rating, highest first */
	STORE_SORT_NAME,                /* name, case-insensitively */
	STORE_SORT_GAMES,               /* rated games, most first */
	STORE_SORT_LAST_PLAYED          /* most recent first, never played last */
};

/* One leaderboard row. */
struct store_leaderboard_row {
	struct store_player player;     /* pwhash is "" here */
	int games;                      /* rated games (rating_history rows) */
	double last_played;             /* ended_at of the player's last game decided on the
					 * board (reason resignation, time, score, warnings,
					 * illegal or adjudicated; rated or not), 0: none */
};

#define STORE_TOURNAMENT_NAME_MAX 64 /* tournament name, bytes */
#define STORE_FULL_NAME_MAX 64       /* a person's "Surname Firstname", bytes (UTF-8) */
#define STORE_CLUB_MAX 16            /* a club's name or EGD code, bytes */
#define STORE_EGD_PIN_LEN 8          /* an EGD PIN: 8 digits */

/* What a tournament knows of a person (migration 0006): an account's, or an entrant's (a
 * person a director entered without an account). "" when not known. */
struct store_profile {
	char full_name[STORE_FULL_NAME_MAX + 1]; /* "Surname Firstname" */
	char country[3];                         /* ISO 3166-1 alpha-2, upper case */
	char club[STORE_CLUB_MAX + 1];
	char egd_pin[STORE_EGD_PIN_LEN + 1];
	bool entrant;                            /* no account: cannot log in */
};
#define STORE_SYSTEM_SIZE 32         /* tournament system, e.g. "mcmahon" */

/* A tournament: its state is the tournament module's JSON document, opaque to the store. */
struct store_tournament {
	int64_t id;
	char name[STORE_TOURNAMENT_NAME_MAX + 1];
	char system[STORE_SYSTEM_SIZE];
	char *state;                    /* JSON text; malloc'd by store_tournament_get (free with
					 * store_tournament_clear); borrowed in a listing callback */
	double created_at;
};

/* Callbacks: return 0 to go on, anything else to stop (the listing still returns STORE_OK).
 * A callback may call other store functions, but not the listing that is calling it. */
typedef int (*store_player_cb)(void *ctx, const struct store_player *p);
typedef int (*store_game_cb)(void *ctx, const struct store_game *g);
typedef int (*store_move_cb)(void *ctx, const struct store_move *m);
typedef int (*store_warning_cb)(void *ctx, const struct store_warning *w);
typedef int (*store_rating_change_cb)(void *ctx, const struct store_rating_change *c);
typedef int (*store_leaderboard_cb)(void *ctx, const struct store_leaderboard_row *r);
typedef int (*store_tournament_cb)(void *ctx, const struct store_tournament *t);
/* moves[0..nmoves-1] in number order; all of it is valid during the call only. */
typedef int (*store_unfinished_cb)(void *ctx, const struct store_game *g,
		const struct store_move *moves, size_t nmoves);

/* --- Database --- */

/* How far a commit goes before store_commit returns (PRAGMA synchronous in WAL mode). */
enum store_sync {
	STORE_SYNC_POWER_SAFE = 0,      /* FULL: on the disk (the WAL fsync'd); the default */
	STORE_SYNC_LOSE_ON_POWER_CUT    /* NORMAL: in the kernel's cache; a power cut or kernel
					 * crash may lose the last commits (never corrupts) */
};

/* How store_open_ex opens. A zeroed struct: no creation, power-safe, no start-up checks. */
struct store_options {
	bool create;              /* create the database if `path` does not exist or is empty;
				   * false: such a path is refused (STORE_NOT_FOUND) */
	enum store_sync sync;
	bool write_check;         /* refuse a database that cannot be written now: a read-only
				   * file or file system, a full disk (one real write transaction) */
	uint64_t min_free_bytes;  /* refuse when the file system holding `path` has less free
				   * for unprivileged use (statvfs f_bavail); 0: not checked */
	bool manual_checkpoints;  /* SQLite's automatic checkpoints off from the start (PRAGMA
				   * wal_autocheckpoint = 0): the caller runs them (store_wal_manual
				   * and a second connection) or turns them back on (store_wal_auto).
				   * Else the first commit after a crash (the write check's) copies the
				   * whole recovered WAL into the database and syncs it, on the way to
				   * listening */
};

/* Open the database file at `path` with the options `o`: set WAL, synchronous (o->sync),
 * foreign_keys=ON and the busy timeout, apply the missing migrations in one transaction and
 * prepare every statement, then read the move journal's keys and, if it holds at most
 * STORE_OPEN_FOLD_ROWS, fold it (store_journal_fold; a longer one, or one whose fold fails,
 * stays in the journal and is read from there). ":memory:" (or "") is a database in
 * memory, with no file and no checks. On success *out is the store; on failure *out is NULL,
 * the database is unchanged and err (errlen bytes) says why:
 * - STORE_NOT_FOUND: no file at `path`, or an empty one, and o->create is false;
 * - STORE_ERROR: anything else, among them a file holding another program's database
 *   (tables but no tengen schema version: never written into, even with o->create), a
 *   database opened read-only (its file or file
 *   system), o->write_check's write failing (disk full, I/O error), less than
 *   o->min_free_bytes free, a user_version above the migrations compiled in. */
enum store_rc store_open_ex(const char *path, const struct store_options *o, struct store **out,
		char *err, size_t errlen);
/* store_open_ex with create = true and the other options zero (power-safe, no checks). */
enum store_rc store_open(const char *path, struct store **out, char *err, size_t errlen);
/* Close the store (NULL is fine). An open transaction is rolled back. */
void store_close(struct store *s);
/* Why the last call that failed did: a message owned by the store, valid until the next call. */
const char *store_errmsg(const struct store *s);
/* The number of migrations compiled in, i.e. the user_version store_open leaves. */
int store_schema_version(void);

/* --- The database's files while the daemon runs --- */

/* Are the database's files (the database, its -wal and -shm) still the ones the store has
 * open? Each is looked up by its path (stat(2)) and compared, device and inode, with what
 * it was when the store opened it (or, for -wal and -shm, when first seen). STORE_OK: all
 * there (always, in memory); STORE_NOT_FOUND: one was deleted or replaced by another file,
 * so what the store writes goes to a file nobody will find again (store_errmsg names it);
 * STORE_ERROR: a path could not be looked up for another reason (store_errmsg says why).
 * Cost: three stat(2) calls. */
enum store_rc store_files_check(struct store *s);

/* Take the lock that keeps a second daemon off the database at `path`: an exclusive flock(2)
 * on path + STORE_LOCK_SUFFIX (created if missing, mode 0644; never deleted, since removing
 * it would let two daemons lock two different files), which then holds this process's pid
 * in decimal. The lock lasts while *fd stays open (close it with store_unlock; the kernel
 * drops it when the process ends, also on kill -9). SQLite's own locks (POSIX fcntl on the
 * database file) are not touched: other processes (`tengend grant`, sqlite3) may still open
 * the database. ":memory:" or "": nothing to lock, *fd = -1, STORE_OK.
 * If the database exists, its own inode is flock(2)ed too (kept until store_unlock, which must
 * come after the store is closed), so the same file under another name (a symlink, a hard
 * link) is refused as well.
 * STORE_CONFLICT: another process holds the lock, *holder (may be NULL) gets its pid from the
 * file (0 if unreadable; 0 too when the database's inode is what is held); STORE_ERROR: the lock file could not be created, locked or
 * written (err says why, e.g. a read-only file system). On failure *fd is -1. */
enum store_rc store_lock(const char *path, int *fd, long *holder, char *err, size_t errlen);
/* flock(2) the database file's own inode (what store_lock does where the file exists): for a
 * database store_open has just created. STORE_OK also when already locked by this process
 * or when there is no file; STORE_CONFLICT when another process holds it. */
enum store_rc store_lock_inode(const char *path, char *err, size_t errlen);
/* Release a lock taken by store_lock (fd -1 is fine). The file stays. */
void store_unlock(int fd);
/* When the daemon was last known to run (migration 0008): *at Unix seconds, 0 if it never
 * wrote it (a new database, or one from before 0008). */
enum store_rc store_alive_get(struct store *s, double *at);
/* Write that time: at (Unix seconds). Inside the caller's transaction, if one is open. */
enum store_rc store_alive_set(struct store *s, double at);

/* --- Transactions (group commit) --- */

/* Begin a write transaction (BEGIN IMMEDIATE). STORE_ERROR if one is already open. */
enum store_rc store_begin(struct store *s);
/* Commit the open transaction. On STORE_ERROR the transaction may still be open: check
 * store_in_transaction and call store_rollback. STORE_ERROR if none is open. */
enum store_rc store_commit(struct store *s);
/* Undo the open transaction. STORE_OK if none is open (nothing to undo). */
enum store_rc store_rollback(struct store *s);
/* Whether a transaction is open (false after SQLite rolled one back on a severe error). */
bool store_in_transaction(const struct store *s);

/* --- Checkpoints off the event loop ---
 *
 * A checkpoint fsyncs (the WAL, then the database file), and SQLite's automatic WAL
 * checkpoint (every 1000 pages, run inside the commit that passes them) stalls the thread
 * that commits while it does. The daemon turns it off (store_wal_manual) and checkpoints from a worker thread on
 * a second connection to the same file (struct store_ckpt), which SQLite allows beside the
 * writer in WAL mode (PASSIVE: it copies what it can, never waits, never blocks the writer).
 * The WAL restarts from its beginning once a checkpoint has copied all of it; under steady
 * writes a passive one rarely can, so the caller checkpoints on the writer's own connection
 * when the WAL grows past a bound (store_checkpoint). */

/* Turn off automatic checkpoints on s and count the WAL's frames after each commit instead
 * (store_wal_frames). Returns false (nothing changed) for a database without a WAL (in
 * memory). */
bool store_wal_manual(struct store *s);
/* The path of the database's WAL file into wal_path (len bytes); STORE_ERROR for a database
 * without a file or a path longer than len. */
enum store_rc store_wal_path(struct store *s, char *wal_path, size_t len);
/* SQLite's automatic checkpoints (every 1,000 WAL frames, its default) on again, after
 * o->manual_checkpoints, when no other thread runs them. */
void store_wal_auto(struct store *s);
/* Commits stop syncing the WAL (synchronous NORMAL: still safe from corruption, and the
 * checkpoints still sync), so that the caller syncs it itself (fdatasync of store_wal_path),
 * off its thread, before it reports a commit: the group commit's fsync moved off the loop
 * (core/syncer.h). STORE_ERROR inside a transaction or if SQLite refuses. Only for a store
 * opened STORE_SYNC_POWER_SAFE. */
enum store_rc store_sync_detach(struct store *s);
/* How many rows this connection has inserted, updated or deleted since the store opened (and
 * rollbacks, which may undo some), not counting the move journal's (an ordinary move writes
 * only a journal row) nor the mark that the daemon runs (store_alive_set, every few seconds):
 * a reply built from the store's rows alone (a tournament's standings, its pairings) stays
 * valid while this number does (cmd/dispatch.c's reply cache). Rows written by another
 * connection (the upkeep thread's fold into `moves`, another process) are not counted. */
uint64_t store_changes(const struct store *s);
/* The number of frames (pages) in the WAL after the last commit, as counted since
 * store_wal_manual (0 before any commit). */
int store_wal_frames(const struct store *s);
/* A PASSIVE checkpoint on s's own connection (on the calling thread, with its fsyncs).
 * *logged and *copied (may be NULL) get the WAL's frames and those copied into the file. */
enum store_rc store_checkpoint(struct store *s, int *logged, int *copied);

struct store_ckpt;
/* Open a second connection to s's database file for store_ckpt_run (call on s's thread).
 * STORE_ERROR (err says why) if it cannot be opened. */
enum store_rc store_ckpt_open(struct store *s, struct store_ckpt **out, char *err, size_t errlen);
/* A PASSIVE checkpoint on the second connection: may run on any one thread at a time, while
 * the store's own thread goes on writing. *logged and *copied (may be NULL) as for
 * store_checkpoint. STORE_ERROR (store_ckpt_errmsg says why), e.g. if another checkpoint
 * was running. */
enum store_rc store_ckpt_run(struct store_ckpt *c, int *logged, int *copied);
/* Why the last store_ckpt_run failed. */
const char *store_ckpt_errmsg(const struct store_ckpt *c);
/* The write turn: the store's write transactions (store_begin to store_commit or
 * store_rollback) and the second connection's (a fold slice, a RESTART checkpoint) take
 * SQLite's write lock in turns, first come first served, each waiting for the turns before
 * it to end (on a condition variable, not polling in SQLite's busy handler), at most
 * STORE_BUSY_TIMEOUT_MS: then the caller fails as on SQLite's lock (store_begin
 * STORE_CONFLICT, a fold slice STORE_ERROR, a RESTART STORE_CONFLICT). So the calls below
 * that take a turn must not run on a thread whose store transaction is open: they would
 * wait for it until that timeout. Other processes still meet SQLite's lock and the busy handler.
 * store_lock_waits: of s, how many times its busy handler began a wait (*busy: for another
 * connection's SQLite lock) and how many turns (of either connection) waited for another's
 * end (*turns); store_ckpt_lock_waits: the second connection's busy handler waits. */
void store_lock_waits(struct store *s, uint64_t *busy, uint64_t *turns);
uint64_t store_ckpt_lock_waits(const struct store_ckpt *c);
/* A RESTART checkpoint on the second connection: takes a write turn and the write lock (the
 * store's own thread waits meanwhile for the turn), copies what is left and has the WAL start
 * over from its beginning. Run it right after a passive one that left only a few frames
 * (the lock is held for the copy of those). Same results as store_ckpt_run; SQLITE_BUSY from
 * SQLite (the lock not had within STORE_BUSY_TIMEOUT_MS) is STORE_CONFLICT, nothing lost. */
enum store_rc store_ckpt_restart(struct store_ckpt *c, int *logged, int *copied);
/* One slice of a fold (store_journal_fold_begin) on the second connection. The first call
 * for a fold (another hi, or the last one ended) reads the journal's rows up to hi into
 * memory in game and number order (a read transaction: no lock the writer needs). The fold
 * then goes in two steps, each slice one transaction (a write turn, then BEGIN IMMEDIATE: it
 * waits while the store's thread has a write transaction open): first the next max_rows
 * rows are copied into `moves` (each game's leaf written once per fold, not once per slice;
 * a row of that number already there must be the same move: a copy an earlier, stopped fold
 * made); then the journal's rows up to hi are deleted by ranges of seq (max_rows x
 * STORE_FOLD_DELETE_FACTOR at a time: whole pages, not a page per row; a range whose rows are
 * all ones the fold read goes whole, else only the rows moves has). Between the two a
 * move is in both tables:
 * readers take it once (store_moves_get). *rows gets how many were copied by this slice,
 * *more whether work up to hi is left, *held_ns how long the write lock was held (from the
 * BEGIN's success to the COMMIT's end). STORE_ERROR (store_ckpt_errmsg) with nothing of the
 * slice changed. The connection does not check foreign keys and CHECK constraints again:
 * the rows met them when they were written to the journal. */
enum store_rc store_ckpt_fold_slice(struct store_ckpt *c, int64_t hi, int max_rows, int *rows,
				    bool *more, uint64_t *held_ns);
/* Whether the fold under way is in its first step (rows left to copy into `moves`): false
 * before its first slice, once only the journal's deletes are left, and after it. A slice's
 * cost per max_rows differs between the two steps (a caller sizing slices by time starts the
 * second step afresh). */
bool store_ckpt_fold_copying(const struct store_ckpt *c);
/* Close the second connection (NULL is fine); not while store_ckpt_run runs. */
void store_ckpt_close(struct store_ckpt *c);

/* --- Players --- */

/* Create a player with the name (1..STORE_NAME_MAX bytes), password hash (a non-empty
 * string shorter than STORE_PWHASH_SIZE) and role ("player", "td" or "admin"); rating, rd and
 * volatility get the Glicko-2 defaults, created_at the current time. *id (may be NULL) gets
 * the new id. STORE_CONFLICT if the name is taken in any case. */
enum store_rc store_player_create(struct store *s, const char *name, const char *pwhash,
		const char *role, int64_t *id);
/* Look a player up by name, in any case. STORE_NOT_FOUND if none. */
enum store_rc store_player_by_name(struct store *s, const char *name, struct store_player *out);
/* Look a player up by id. STORE_NOT_FOUND if none. */
enum store_rc store_player_by_id(struct store *s, int64_t id, struct store_player *out);
/* Set a player's role ("player", "td", "admin"). STORE_NOT_FOUND if no such name. */
enum store_rc store_player_set_role(struct store *s, const char *name, const char *role);
/* Set a player's Glicko-2 rating, deviation and volatility. STORE_NOT_FOUND if no such id. */
enum store_rc store_player_set_rating(struct store *s, int64_t id, double rating, double rd,
		double volatility);
/* Every player, by rating (highest first), then name. */
enum store_rc store_players_list(struct store *s, store_player_cb cb, void *ctx);

/* --- Games --- */

/* Insert a game with every field of *g but id; *id (may be NULL) gets the new id.
 * STORE_ERROR if a player does not exist, black_id == white_id, or a field is invalid
 * (unknown phase or color_choice, negative handicap or warnings, bad JSON). */
enum store_rc store_game_create(struct store *s, const struct store_game *g, int64_t *id);
/* Write every field of *g to the game g->id. STORE_NOT_FOUND if there is none; errors as
 * store_game_create. */
enum store_rc store_game_update(struct store *s, const struct store_game *g);
/* Write only the per-move state of *g (result, reason, clocks, warnings_b, warnings_w, extra)
 * to the game g->id: one statement, for a move that left every other column as stored (the
 * caller knows; store_game_update finds out, at the cost of a second statement). Errors as
 * store_game_update. */
enum store_rc store_game_update_state(struct store *s, const struct store_game *g);
/* Read game `id` into *out, overwriting it (its previous JSON strings are not freed: clear
 * it first if it holds some). Free the result with store_game_clear. STORE_NOT_FOUND if
 * none. */
enum store_rc store_game_get(struct store *s, int64_t id, struct store_game *out);
/* Free the JSON strings of *g and set them to NULL (NULL g is fine). */
void store_game_clear(struct store_game *g);
/* The games matching *filter (NULL: all), newest (highest id) first. Each variant walks an
 * index from filter->before down (server/store/store_sql.c), so a page of `limit` games reads
 * about `limit` rows wherever it is, except with a tournament (whose games are sorted: a
 * tournament's games are few). STORE_ERROR for a negative limit or before. */
enum store_rc store_games_list(struct store *s, const struct store_games_filter *filter,
		store_game_cb cb, void *ctx);
/* Every game whose phase is not "ended", oldest first, each with its moves: what a restart
 * must reload. Unless a transaction is open already, the listing and its callbacks run in one
 * transaction of their own (one snapshot, no lock taken per statement), committed at the
 * end. The callback may write with the calls that commit by themselves (e.g. end a game):
 * those writes commit with it (a write fails if another connection committed since the
 * listing began: its snapshot cannot become a write); it may not call store_begin
 * (STORE_ERROR: one is open). */
enum store_rc store_games_unfinished(struct store *s, store_unfinished_cb cb, void *ctx);
/* How many games store_games_unfinished would give (*n), read from the phase index. */
enum store_rc store_games_unfinished_count(struct store *s, size_t *n);

/* --- Moves --- */

/* Append a move to game `game_id`. STORE_CONFLICT if the game already has that move number;
 * STORE_ERROR if the game does not exist or a field is invalid (number < 1 or over
 * STORE_MOVE_NUMBER_MAX, color, empty vertex, bad JSON). */
enum store_rc store_move_add(struct store *s, int64_t game_id, const struct store_move *m);
/* The moves of game `game_id` in number order (none for an unknown game): the folded ones and
 * the journal's, merged by number; a journal row is read by the seq its key holds in memory,
 * so a read costs the game's own rows, not the journal's length (a fold off the loop may
 * commit between two rows: such a row is read from moves). STORE_ERROR if called from its
 * own callback or on an SQLite error. */
enum store_rc store_moves_get(struct store *s, int64_t game_id, store_move_cb cb, void *ctx);
/* Moves are written to a journal, keyed by the order they came in, so that a commit of moves of
 * many games writes a page or two rather than a page per game (migration 0005). This moves
 * the journal's rows into `moves` in game and number order, in a transaction of its own: after
 * it, each game's page is written once for all of that game's moves in the batch. *rows (may
 * be NULL) gets the number of moves folded. STORE_ERROR inside a transaction; on a failure
 * (STORE_ERROR, or STORE_CONFLICT for a duplicate key) nothing changed and the journal's rows
 * are still read as moves. store_open folds what an earlier run left, if it is short. */
enum store_rc store_journal_fold(struct store *s, int *rows);
/* Rows in the journal now (written in the open transaction included), not counting those
 * handed to a fold under way (store_journal_fold_begin). */
size_t store_journal_rows(const struct store *s);
/* The fold off the store's thread (issue 22), in three steps: store_journal_fold_begin on
 * s's thread with no transaction open hands the journal's committed rows (seq <= *hi) to a
 * fold, after which s still refuses their (game, number) keys; store_ckpt_fold_slice on the
 * second connection (another thread) copies them into `moves` and then deletes them from the
 * journal, a slice at a time, each slice a transaction of its own (so a crash leaves each row
 * in the journal, in both tables (the same move, read once) or in `moves`, never neither);
 * store_journal_fold_end on s's thread when the last slice committed (`complete`) or the fold
 * was given up (the keys of the rows left in the journal are read again at once, or before
 * the next move if that fails; a later fold moves them).
 * fold_begin: STORE_ERROR in a transaction or while a fold is under way. */
enum store_rc store_journal_fold_begin(struct store *s, int64_t *hi);
void store_journal_fold_end(struct store *s, bool complete);
/* Make room in memory for the keys of `rows` journal rows (and as many of a fold under way),
 * so that the journal can grow that long without a rehash on the loop. STORE_ERROR when out
 * of memory. */
enum store_rc store_journal_reserve(struct store *s, size_t rows);

/* --- Warnings --- */

/* Record a warning (docs/rules.md §3) given in game `game_id`; *id (may be NULL) gets its id.
 * The game's warnings_b/warnings_w counters are the caller's to update (store_game_update),
 * in the same transaction. STORE_ERROR if the game does not exist or a field is invalid. */
enum store_rc store_warning_add(struct store *s, int64_t game_id, const struct store_warning *w,
		int64_t *id);
/* The warnings of game `game_id`, in the order given. */
enum store_rc store_warnings_get(struct store *s, int64_t game_id, store_warning_cb cb,
		void *ctx);

/* --- Ratings (migration 0002) --- */

/* Set a player's rating and when it last changed by a game (`at`, the game's ended_at;
 * 0 stores none). STORE_NOT_FOUND for an unknown id. */
enum store_rc store_player_set_rated(struct store *s, int64_t id, double rating, double rd,
		double volatility, double at);
/* A player's declared rank (rank text, e.g. "3k"; "" for none) and starting values, which
 * also become the current rating. Only for a player without rated games: STORE_CONFLICT if
 * the player has rating history (nothing changed), STORE_NOT_FOUND for an unknown id,
 * STORE_ERROR for a rank that does not fit STORE_RANK_SIZE. The rank is not parsed here. */
enum store_rc store_player_set_start(struct store *s, int64_t id, const char *rank,
		double rating, double rd, double volatility);
/* Append a rating change; *id (may be NULL) gets its id. STORE_CONFLICT if the player already
 * has a change for that game; STORE_ERROR for an unknown player or game or an rd/volatility
 * <= 0. */
enum store_rc store_rating_change_add(struct store *s, const struct store_rating_change *c,
		int64_t *id);
/* Player `player_id`'s rating changes in rating order (oldest first). The callback may write. */
enum store_rc store_rating_history(struct store *s, int64_t player_id,
		store_rating_change_cb cb, void *ctx);
/* The rating changes made by game `game_id` (0, 1 or 2), by player id. */
enum store_rc store_rating_changes_of_game(struct store *s, int64_t game_id,
		store_rating_change_cb cb, void *ctx);
/* Undo every rating change at or after position (at, game_id) in rating order (at, then
 * game id): each player who has such changes gets back the values after their last earlier
 * change (or their starting values and no last_rated_at), and those changes are deleted.
 * at = 0 and game_id = 0 undo all history. */
enum store_rc store_ratings_rewind(struct store *s, double at, int64_t game_id);
/* The ended rated games at or after position (at, game_id) in rating order (ended_at, then
 * id); all of them are read before the first callback, which may write. Games without
 * ended_at are not listed. Memory: every such game's row at once. */
enum store_rc store_rated_games(struct store *s, double at, int64_t game_id, store_game_cb cb,
		void *ctx);
/* Players for the leaderboard in `sort` order, at most `limit` (> 0) of them; entrants
 * without an account (store_profile.entrant) are not listed. Cost: each
 * player's games are counted (indexed), for every player, before the limit applies. */
enum store_rc store_leaderboard(struct store *s, enum store_leaderboard_sort sort, int limit,
		store_leaderboard_cb cb, void *ctx);

/* --- Tournaments (migration 0003) --- */

/* Create a tournament: name 1..STORE_TOURNAMENT_NAME_MAX bytes, unique case-insensitively
 * (STORE_CONFLICT if taken); system 1..STORE_SYSTEM_SIZE-1 bytes (not interpreted);
 * state_json valid JSON (STORE_ERROR otherwise). *id (may be NULL) gets its id: one more than
 * any tournament's, a deleted one's included (store_tournament_delete). */
enum store_rc store_tournament_create(struct store *s, const char *name, const char *system,
		const char *state_json, int64_t *id);
/* Replace tournament `id`'s state (valid JSON). STORE_NOT_FOUND for an unknown id. */
enum store_rc store_tournament_update(struct store *s, int64_t id, const char *state_json);
/* Read tournament `id` into *out (state malloc'd: store_tournament_clear). STORE_NOT_FOUND for
 * an unknown id; on any error *out holds nothing to free. */
enum store_rc store_tournament_get(struct store *s, int64_t id, struct store_tournament *out);
/* The same by name, in any case. */
enum store_rc store_tournament_by_name(struct store *s, const char *name,
		struct store_tournament *out);
/* Delete tournament `id`, which must have no games (not even called-off ones): STORE_OK,
 * STORE_CONFLICT when it has games (*ngames, unless NULL, gets how many), STORE_NOT_FOUND
 * for an unknown id. Its id and name go to tournaments_deleted (migration 0010): a new
 * tournament never gets its number. In the caller's transaction. */
enum store_rc store_tournament_delete(struct store *s, int64_t id, int *ngames);
/* Delete the records of entrant `player_id` (a players row without an account and its
 * profile, store_profile.entrant), if it has no games and no rating history: STORE_OK, or
 * STORE_NOT_FOUND (not an entrant, or it has games). In the caller's transaction. */
enum store_rc store_entrant_delete(struct store *s, int64_t player_id);
/* --- Player profiles (migration 0006) --- */

/* Read player `player_id`'s profile into *out (zeroed first: "" for what is not known).
 * STORE_NOT_FOUND when the player has none (an account that never set one). */
enum store_rc store_profile_get(struct store *s, int64_t player_id, struct store_profile *out);
/* Write player `player_id`'s profile (insert or replace; "" stores NULL). STORE_ERROR for a
 * value the schema refuses (lengths: STORE_FULL_NAME_MAX, country 2, STORE_CLUB_MAX, PIN 8)
 * or an unknown player. The caller checks the values' forms (svc/profiles.c). */
enum store_rc store_profile_set(struct store *s, int64_t player_id, const struct store_profile *p);
/* Free out->state and set it to NULL (NULL t is fine). */
void store_tournament_clear(struct store_tournament *t);
/* Every tournament, oldest (lowest id) first; all are read before the first callback, which
 * may write (t->state is valid during the callback only). */
enum store_rc store_tournaments_list(struct store *s, store_tournament_cb cb, void *ctx);

#endif
