/* store_int: what the files of the store share, and nobody else: the connection's struct,
 * its prepared statements and their named parameters, binding, running and reading helpers.
 *
 * The store's files, each one job, lower ones first (none calls a higher one):
 * - store_vec.c: a growable array; store_sql.c: the statements' text and parameter names;
 * - store_db.c: errors, binding and running a statement, reading columns, collecting rows,
 *   the transaction;
 * - store_files.c: are the database's files still there, the daemon's lock;
 *   store_ckpt.c: WAL checkpoints; store_players.c; store_tournaments.c;
 * - store_journal.c: moves and their journal; store_games.c: games and warnings (uses the
 *   moves); store_ratings.c: ratings (uses players and games);
 * - store.c: opening (migrations, settings, preparing), closing.
 * Errors: a function returning enum store_rc has set s->err (store_errmsg) on anything but
 * STORE_OK, as in store.h. */
#ifndef TENGEN_STORE_INT_H
#define TENGEN_STORE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <sys/types.h>
#include <sqlite3.h>
#include "store.h"
#include "store_vec.h"

#define STORE_PATH_MAX 4096       /* a database path and its suffixes, bytes */

/* Every statement the store runs after store_open, prepared there once. */
enum stmt_id {
	ST_BEGIN,
	ST_COMMIT,
	ST_ROLLBACK,
	ST_PLAYER_CREATE,
	ST_PLAYER_BY_NAME,
	ST_PLAYER_BY_ID,
	ST_PLAYER_SET_ROLE,
	ST_PLAYER_SET_RATING,
	ST_PLAYERS_LIST,
	ST_GAME_CREATE,
	ST_GAME_UPDATE,
	ST_GAME_UPDATE_STATE,
	ST_GAME_GET,
	ST_GAMES_ANY,
	ST_GAMES_BY_PHASE,
	ST_GAMES_BY_PLAYER,
	ST_GAMES_BY_TOURNAMENT,
	ST_GAMES_UNFINISHED,
	ST_GAMES_UNFINISHED_COUNT,
	ST_MOVE_ADD,
	ST_MOVE_FOLDED,
	ST_MOVE_FOLDED_MAX,
	ST_MOVES_FROM,
	ST_JOURNAL_ROW,
	ST_JOURNAL_KEYS,
	ST_JOURNAL_FOLD,
	ST_JOURNAL_CLEAR,
	ST_JOURNAL_MAX,
	ST_WARNING_ADD,
	ST_WARNINGS_GET,
	ST_SAVEPOINT,
	ST_RELEASE,
	ST_ROLLBACK_TO,
	ST_PLAYER_SET_RATED,
	ST_PLAYER_SET_START,
	ST_RATING_ADD,
	ST_HISTORY_BY_PLAYER,
	ST_HISTORY_BY_GAME,
	ST_REWIND_PLAYERS,
	ST_REWIND_DELETE,
	ST_RATED_GAMES,
	ST_LEADERBOARD_RATING,
	ST_LEADERBOARD_NAME,
	ST_LEADERBOARD_GAMES,
	ST_LEADERBOARD_LAST_PLAYED,
	ST_TOURNAMENT_CREATE,
	ST_TOURNAMENT_UPDATE,
	ST_TOURNAMENT_GET,
	ST_TOURNAMENT_BY_NAME,
	ST_TOURNAMENTS_LIST,
	ST_TOURNAMENT_DELETE,
	ST_TOURNAMENT_TOMBSTONE,
	ST_TOURNAMENT_HAS_GAMES,
	ST_ENTRANT_PROFILE_DELETE,
	ST_ENTRANT_DELETE,
	ST_PROFILE_GET,
	ST_PROFILE_SET,
	ST_ALIVE_GET,
	ST_ALIVE_SET,
	ST_COUNT
};

/* The columns the readers expect, in the order the statements select them (store_sql.c). */
#define PLAYER_COLS "id, name, pwhash, role, rating, rd, volatility, rank, created_at, " \
	"rating_start, rd_start, volatility_start, last_rated_at"
enum { PC_ID, PC_NAME, PC_PWHASH, PC_ROLE, PC_RATING, PC_RD, PC_VOLATILITY, PC_RANK,
	PC_CREATED_AT, PC_RATING_START, PC_RD_START, PC_VOLATILITY_START, PC_LAST_RATED_AT,
	PC_COUNT };
#define GAME_COLS "id, black_id, white_id, size, komi, handicap, rated, time_control, rules, " \
	"phase, result, reason, challenger_id, color_choice, tournament_id, round, start_at, " \
	"created_at, ended_at, clocks, warnings_b, warnings_w, extra"
enum { GC_ID, GC_BLACK, GC_WHITE, GC_SIZE, GC_KOMI, GC_HANDICAP, GC_RATED, GC_TIME_CONTROL,
	GC_RULES, GC_PHASE, GC_RESULT, GC_REASON, GC_CHALLENGER, GC_COLOR_CHOICE, GC_TOURNAMENT,
	GC_ROUND, GC_START_AT, GC_CREATED_AT, GC_ENDED_AT, GC_CLOCKS, GC_WARNINGS_B,
	GC_WARNINGS_W, GC_EXTRA };
#define MOVE_COLS "number, color, vertex, forfeit, clocks, at"
enum { MC_NUMBER, MC_COLOR, MC_VERTEX, MC_FORFEIT, MC_CLOCKS, MC_AT };
#define WARNING_COLS "id, color, reason, number, at, by_director"
enum { WC_ID, WC_COLOR, WC_REASON, WC_NUMBER, WC_AT, WC_BY_DIRECTOR };
#define HIST_COLS "id, player_id, game_id, rating_before, rd_before, volatility_before, " \
	"rating, rd, volatility, at"
enum { HC_ID, HC_PLAYER, HC_GAME, HC_RATING_BEFORE, HC_RD_BEFORE, HC_VOLATILITY_BEFORE,
	HC_RATING, HC_RD, HC_VOLATILITY, HC_AT };
enum { LC_GAMES = PC_COUNT, LC_LAST_PLAYED }; /* the leaderboard's columns after a player's */
#define TOURNAMENT_COLS "id, name, system, state, created_at"
enum { TC_ID, TC_NAME, TC_SYSTEM, TC_STATE, TC_CREATED_AT };
#define PROFILE_COLS "full_name, country, club, egd_pin, entrant"
enum { FC_FULL_NAME, FC_COUNTRY, FC_CLUB, FC_EGD_PIN, FC_ENTRANT };

/* The names of the statements' parameters (store_open maps each to its index in each
 * statement, and refuses a statement with a parameter not named here). */
enum store_param {
	P_ID, P_NAME, P_PWHASH, P_ROLE, P_RATING, P_RD, P_VOLATILITY, P_RANK,
	P_BLACK_ID, P_WHITE_ID, P_SIZE, P_KOMI, P_HANDICAP, P_RATED, P_TIME_CONTROL, P_RULES,
	P_PHASE, P_RESULT, P_REASON, P_CHALLENGER_ID, P_COLOR_CHOICE, P_TOURNAMENT_ID, P_ROUND,
	P_START_AT, P_CREATED_AT, P_ENDED_AT, P_CLOCKS, P_WARNINGS_B, P_WARNINGS_W, P_EXTRA,
	P_PLAYER_ID, P_LIMIT, P_GAME_ID, P_NUMBER, P_COLOR, P_VERTEX, P_FORFEIT, P_AT,
	P_RATING_BEFORE, P_RD_BEFORE, P_VOLATILITY_BEFORE, P_SYSTEM, P_STATE, P_BEFORE,
	P_FULL_NAME, P_COUNTRY, P_CLUB, P_EGD_PIN, P_ENTRANT, P_SEQ, P_BY_DIRECTOR,
	P_COUNT
};

/* Statement id's SQL text (store_open prepares them), and each enum store_param's name. */
extern const char *const store_stmt_sql[ST_COUNT];
extern const char *const store_param_names[P_COUNT];

/* A set of (game, number) keys with an int each: open addressing, `cap` a power of two, at
 * most half full. The move journal keeps two (see store_move_add). */
struct key_entry {
	int64_t game;
	int64_t seq;   /* a journal key's row (move_journal.seq) */
	int number;
	int value;
	uint32_t gen;  /* in use while it equals its set's gen */
};

/* An open-addressing hash set (at most half full). Emptied in O(1) by a new generation, so
 * that dropping a fold's keys on the loop does not touch their memory. */
struct key_set {
	struct key_entry *k;
	size_t cap, n;
	uint32_t gen;
};

#define STORE_FILES 3 /* the database, its -wal and -shm (store_files.c) */

/* What a path named when the store first saw it. */
struct file_id {
	bool known;
	dev_t dev;
	ino_t ino;
};

/* A connection's wait for another one's lock (store_busy_handler). */
struct store_busy {
	uint64_t t0_ns;           /* when the current wait began (CLOCK_MONOTONIC) */
	uint64_t waits;           /* waits begun (store_lock_waits) */
};

/* The write turn (issue 22): the store's connection and its second one (store_ckpt, on the
 * upkeep thread) take SQLite's write lock in turns, first come first served, and wait for a
 * turn on a condition variable: woken when the turn before ends, where SQLite's busy handler
 * would poll every STORE_BUSY_STEP_US (at full rate a waiting fold's polls took 8 % of a core)
 * and could let the loop take the lock back before a waiting fold slice ever saw it free.
 * Other processes (tengend grant) still meet SQLite's own locks and the busy handler. */
#define STORE_WLOCK_GIVEN_UP 8 /* tickets given up at once (two connections use the lock) */
struct store_wlock {
	pthread_mutex_t mu;
	pthread_cond_t cv;        /* CLOCK_MONOTONIC */
	uint64_t next, serving;   /* tickets: the next one given out, the one whose turn it is */
	uint64_t given_up[STORE_WLOCK_GIVEN_UP]; /* tickets whose waiter gave up: skipped */
	unsigned ngiven_up;
	uint64_t waited;          /* turns that waited for another's end (store_lock_waits) */
};

/* Initialise (0, or -1: no mutex or condition could be made) and destroy a turn lock. */
int store_wlock_init(struct store_wlock *w);
void store_wlock_destroy(struct store_wlock *w);
/* Take a turn: return 0 once every turn asked for before it has ended, or -1 if that took
 * more than STORE_BUSY_TIMEOUT_MS (the turn before waits for another process's lock, or is
 * stuck): the ticket is given up, and the caller fails as it would on SQLITE_BUSY. */
int store_wlock_take(struct store_wlock *w);
/* End the turn taken (the caller's write transaction has ended). */
void store_wlock_give(struct store_wlock *w);

/* SQLite busy handler (sqlite3_busy_handler; ctx a struct store_busy): while another
 * connection holds a lock this one needs, sleep STORE_BUSY_STEP_US at a time for the first
 * STORE_BUSY_FINE_MS, then 1 ms at a time, and give up (SQLITE_BUSY) after
 * STORE_BUSY_TIMEOUT_MS. SQLite's own sqlite3_busy_timeout sleeps 1 ms, then 2, 5, 10 ...:
 * far too long for the loop waiting on a fold slice of a millisecond (issue 22). */
int store_busy_handler(void *ctx, int n);

struct store {
	sqlite3 *db;
	struct store_busy busy;
	struct store_wlock wlock; /* shared with store_ckpt; wlock_ok: initialised */
	bool wlock_ok;
	bool wlock_held;          /* this connection's write transaction holds a turn */
	char *path;               /* the database's file (absolute), NULL in memory */
	struct file_id files[STORE_FILES]; /* what the path + each suffix named (store_files_check) */
	sqlite3_stmt *st[ST_COUNT];
	unsigned char param[ST_COUNT][P_COUNT]; /* index of each named parameter, 0: none */
	char err[STORE_ERR_MAX];
	int wal_frames;           /* WAL frames after the last commit (store_wal_manual) */
	/* The move journal's keys, so a duplicate move is refused without an index of the
	 * journal by game (which would write a page per game again): the (game, number) of every
	 * journal row, and per game (number 0) the highest number in moves, read once per fold. */
	struct key_set journal;
	struct key_set folding;   /* the keys of a fold under way off the thread (fold_begin) */
	struct key_set folded_max;
	/* Per game (number 0) the highest number of its rows in `journal` and in `folding`: how
	 * far store_moves_get looks up keys (upper bounds; they move with their key sets at a
	 * fold's begin and end, in O(1)). */
	struct key_set journal_max, folding_max;
	struct store_vec jrows;   /* store_moves_get's scratch: a game's journal keys (struct jrow) */
	bool journal_stale;       /* a rollback may have undone rows: reread before the next use */
	uint64_t changes;         /* rows written outside the move journal (store_changes) */
};

/* A rollback may have undone this connection's writes: the journal's keys are reread before
 * their next use, and store_changes moves (a reply cached from rows now undone is stale). */
static inline void store_maybe_undone(struct store *s)
{
	s->journal_stale = true;
	s->changes++;
}

/* Debug builds: report a binding of parameter p, which st does not have, and abort. */
void store_param_missing(sqlite3_stmt *st, enum store_param p) __attribute__((noreturn));

/* Binding by name: each statement's parameters are named (":black_id"), each name is one
 * enum store_param, and store_open looks up, once, which index each name has in each
 * statement (s->param), so that a bind costs no name lookup on the per-move path. A name the
 * statement lacks is a bug: it aborts a debug build and fails the call (STORE_ERROR) in one
 * built with NDEBUG. The first failure sticks, later binds are skipped. */
struct binder {
	sqlite3_stmt *st;
	const unsigned char *idx; /* the statement's index of each enum store_param, 0: none */
	int rc;
};

static inline struct binder store_binder(struct store *s, enum stmt_id id)
{
	return (struct binder){ s->st[id], s->param[id], SQLITE_OK };
}

/* The index of parameter p in b's statement; 0 (and b->rc set) if it has none. */
static inline int b_index(struct binder *b, enum store_param p)
{
	int i = b->idx[p];
	if (!i) {
#ifndef NDEBUG
		store_param_missing(b->st, p);
#endif
		b->rc = SQLITE_RANGE;
	}
	return i;
}

static inline void b_int(struct binder *b, enum store_param p, sqlite3_int64 v)
{
	int i;
	if (b->rc == SQLITE_OK && (i = b_index(b, p)))
		b->rc = sqlite3_bind_int64(b->st, i, v);
}

/* 0 binds NULL. */
static inline void b_id(struct binder *b, enum store_param p, sqlite3_int64 v)
{
	int i;
	if (b->rc == SQLITE_OK && (i = b_index(b, p)))
		b->rc = v ? sqlite3_bind_int64(b->st, i, v) : sqlite3_bind_null(b->st, i);
}

static inline void b_double(struct binder *b, enum store_param p, double v)
{
	int i;
	if (b->rc == SQLITE_OK && (i = b_index(b, p)))
		b->rc = sqlite3_bind_double(b->st, i, v);
}

/* 0 binds NULL. */
static inline void b_time(struct binder *b, enum store_param p, double v)
{
	int i;
	if (b->rc == SQLITE_OK && (i = b_index(b, p)))
		b->rc = v != 0 ? sqlite3_bind_double(b->st, i, v) : sqlite3_bind_null(b->st, i);
}

/* NULL binds NULL; the text is used before the statement is reset (SQLITE_STATIC). */
static inline void b_text(struct binder *b, enum store_param p, const char *v)
{
	int i;
	if (b->rc == SQLITE_OK && (i = b_index(b, p)))
		b->rc = v ? sqlite3_bind_text(b->st, i, v, -1, SQLITE_STATIC)
			: sqlite3_bind_null(b->st, i);
}

/* "" binds NULL. */
static inline void b_opt(struct binder *b, enum store_param p, const char *v)
{
	b_text(b, p, v[0] ? v : NULL);
}

static inline void b_color(struct binder *b, enum store_param p, char c)
{
	int i;
	if (b->rc == SQLITE_OK && (i = b_index(b, p)))
		b->rc = sqlite3_bind_text(b->st, i, &c, 1, SQLITE_TRANSIENT);
}

/* --- store_db.c --- */

/* Set s->err from the format and return rc. */
enum store_rc store_fail(struct store *s, enum store_rc rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Map a failed sqlite3_step's (extended) code: a taken unique key is STORE_CONFLICT, the rest
 * STORE_ERROR; s->err gets SQLite's message. */
enum store_rc store_sql_fail(struct store *s, int rc);
/* Is v one of the NULL-terminated list's strings? */
bool store_in_list(const char *v, const char *const *list);
/* A fixed array of `size` bytes holds a NUL-terminated string. */
bool store_fits(const char *a, size_t size);
/* Reset a statement and clear its bindings. */
void store_done(sqlite3_stmt *st);
/* Bind failure: report it (STORE_ERROR) and leave the statement clean. */
enum store_rc store_bind_fail(struct store *s, struct binder *b);
/* Run a bound statement that returns no row, then reset it. */
enum store_rc store_run(struct store *s, struct binder *b);
/* A store_run that must touch one row: none is STORE_NOT_FOUND ("no such <what>"). */
enum store_rc store_run_one(struct store *s, struct binder *b, const char *what);
/* Copy text column `col` into a fixed array of `size` bytes; NULL gives "". STORE_ERROR if it
 * does not fit. */
enum store_rc store_col_copy(struct store *s, sqlite3_stmt *st, int col, char *dst,
		size_t size);
/* *out = a malloc'd copy of text column `col`, NULL for SQL NULL. */
enum store_rc store_col_dup(struct store *s, sqlite3_stmt *st, int col, char **out);
/* 'B' or 'W' from a colour column. */
char store_col_color(sqlite3_stmt *st, int col);
/* STORE_ERROR if st is running (a listing called from its own callback). */
enum store_rc store_check_idle(struct store *s, sqlite3_stmt *st, const char *what);
/* Reads the current row of a statement into *out (a struct the collector knows); on failure
 * *out holds nothing to free. */
typedef enum store_rc (*store_row_reader)(struct store *s, sqlite3_stmt *st, void *out);
/* Step a bound statement to the end, appending each row `read` reads to *v; resets the
 * statement. On failure the rows read so far stay in *v, for the caller to free. */
enum store_rc store_collect(struct store *s, sqlite3_stmt *st, struct store_vec *v,
		store_row_reader read);
/* Run one statement returning at most one row (an SQLite code); *text (may be NULL) gets a
 * copy of its first column as text, *num its first column as an integer. */
int store_pragma(sqlite3 *db, const char *sql, char *text, size_t size, int *num);

/* --- store_players.c --- */

/* Read the current row (PLAYER_COLS first) into *p. */
enum store_rc store_read_player(struct store *s, sqlite3_stmt *st, struct store_player *p);

/* --- store_journal.c --- */

/* Read the journal's keys again from the table (after a rollback, which may have undone
 * rows). */
enum store_rc store_journal_reload(struct store *s);
/* Append the moves of game `game_id`, copied out (clocks malloc'd), to *l (a vec of struct
 * store_move). */
enum store_rc store_collect_moves(struct store *s, int64_t game_id, struct store_vec *l);
/* Free a vec of moves copied out and their clocks. */
void store_moves_free(struct store_vec *l);

/* --- store_games.c --- */

/* Read the current row (GAME_COLS) into *g (zeroed first); on failure *g holds nothing to
 * free. */
enum store_rc store_read_game(struct store *s, sqlite3_stmt *st, struct store_game *g);
/* Step a bound query of GAME_COLS to the end, appending each game to *l (a vec of struct
 * store_game); resets the statement. */
enum store_rc store_collect_games(struct store *s, sqlite3_stmt *st, struct store_vec *l);
/* Call cb for each game of *l, until it asks to stop. */
void store_games_each(struct store_vec *l, store_game_cb cb, void *ctx);
/* Free a vec of games and what they own. */
void store_games_free(struct store_vec *l);

/* --- store_files.c --- */

/* Record what each of the database's paths names now (those not known yet, if they exist). */
void store_files_note(struct store *s);

#endif
