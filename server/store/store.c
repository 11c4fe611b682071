/* store: the daemon's SQLite database. See store.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <sqlite3.h>
#include "store.h"
#include "store_vec.h"

/* The migrations, in order, NULL-terminated (generated from migrations/ by
 * scripts/embed-migrations into server/migrations_sql.c). */
extern const char *const store_migrations[];

#define STORE_MIB (1024.0 * 1024.0) /* bytes in a MiB, for messages */
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
	ST_MOVE_ADD,
	ST_MOVE_FOLDED,
	ST_MOVE_FOLDED_MAX,
	ST_MOVES_GET,
	ST_JOURNAL_KEYS,
	ST_JOURNAL_FOLD,
	ST_JOURNAL_CLEAR,
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
	ST_COUNT
};

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
/* The parameters of create and update are named as the columns after id, in GAME_COLS
 * order; update's :id is the id. */
#define GAME_PARAMS ":black_id, :white_id, :size, :komi, :handicap, :rated, :time_control, " \
	":rules, :phase, :result, :reason, :challenger_id, :color_choice, :tournament_id, " \
	":round, :start_at, :created_at, :ended_at, :clocks, :warnings_b, :warnings_w, :extra"
#define GAME_SET "black_id = :black_id, white_id = :white_id, size = :size, komi = :komi, " \
	"handicap = :handicap, rated = :rated, time_control = :time_control, rules = :rules, " \
	"phase = :phase, result = :result, reason = :reason, challenger_id = :challenger_id, " \
	"color_choice = :color_choice, tournament_id = :tournament_id, round = :round, " \
	"start_at = :start_at, created_at = :created_at, ended_at = :ended_at, " \
	"clocks = :clocks, warnings_b = :warnings_b, warnings_w = :warnings_w, extra = :extra"
/* store_game_update in two statements, so that a move (which changes only the columns of
 * GAME_STATE_SET) writes neither the indexes on games nor checks its foreign keys: SQLite
 * maintains every index, and checks every foreign key, of a column named in an UPDATE's SET
 * whether or not its value changes. ST_GAME_UPDATE sets every column but only if one of the
 * others differs from the stored row; ST_GAME_UPDATE_STATE (the same names, those of the
 * state and :id) sets the per-move state. */
#define GAME_OTHERS_SAME "black_id IS :black_id AND white_id IS :white_id AND size IS :size " \
	"AND komi IS :komi AND handicap IS :handicap AND rated IS :rated " \
	"AND time_control IS :time_control AND rules IS :rules AND phase IS :phase " \
	"AND challenger_id IS :challenger_id AND color_choice IS :color_choice " \
	"AND tournament_id IS :tournament_id AND round IS :round AND start_at IS :start_at " \
	"AND created_at IS :created_at AND ended_at IS :ended_at"
#define GAME_STATE_SET "result = :result, reason = :reason, clocks = :clocks, " \
	"warnings_b = :warnings_b, warnings_w = :warnings_w, extra = :extra"

/* The listing filters: :phase or NULL, :player_id or 0, :tournament_id or 0, :limit or -1.
 * Each variant leads with the condition an index serves. */
#define GAMES_FILTER_PHASE "(:phase IS NULL OR phase = :phase)"
#define GAMES_FILTER_PLAYER "(:player_id = 0 OR black_id = :player_id OR white_id = :player_id)"
#define GAMES_FILTER_TOURNAMENT "(:tournament_id = 0 OR tournament_id = :tournament_id)"
#define GAMES_TAIL " ORDER BY id DESC LIMIT :limit"

#define MOVE_COLS "number, color, vertex, forfeit, clocks, at"
enum { MC_NUMBER, MC_COLOR, MC_VERTEX, MC_FORFEIT, MC_CLOCKS, MC_AT };
#define WARNING_COLS "id, color, reason, number, at"
enum { WC_ID, WC_COLOR, WC_REASON, WC_NUMBER, WC_AT };

#define HIST_COLS "id, player_id, game_id, rating_before, rd_before, volatility_before, " \
	"rating, rd, volatility, at"
enum { HC_ID, HC_PLAYER, HC_GAME, HC_RATING_BEFORE, HC_RD_BEFORE, HC_VOLATILITY_BEFORE,
	HC_RATING, HC_RD, HC_VOLATILITY, HC_AT };

/* Rating order position: :at (ended_at), :game_id. Rows of rating_history at or after
 * it, and a player's last row before it. */
#define HIST_FROM "(at > :at OR (at = :at AND game_id >= :game_id))"
#define HIST_LAST_BEFORE(col) "(SELECT h." col " FROM rating_history h " \
	"WHERE h.player_id = players.id AND (h.at < :at OR (h.at = :at AND h.game_id < :game_id)) " \
	"ORDER BY h.at DESC, h.game_id DESC LIMIT 1)"

/* Reasons of a game decided on the board (leaderboard's last_played; server/ratings.c rates
 * the same set). */
#define BOARD_REASONS "('resignation', 'time', 'score', 'warnings', 'illegal', 'adjudicated')"

/* The leaderboard: the player's columns, then games, last_played; :limit the limit. */
#define LEADERBOARD_SELECT "SELECT " PLAYER_COLS ", " \
	"(SELECT count(*) FROM rating_history h WHERE h.player_id = players.id) " \
	"AS rated_games, " \
	"(SELECT max(g.ended_at) FROM games g WHERE (g.black_id = players.id " \
	"OR g.white_id = players.id) AND g.phase = 'ended' AND g.reason IN " BOARD_REASONS ") " \
	"AS last_played FROM players ORDER BY "
#define LEADERBOARD_LIMIT " LIMIT :limit"
enum { LC_GAMES = PC_COUNT, LC_LAST_PLAYED };

#define TOURNAMENT_COLS "id, name, system, state, created_at"
enum { TC_ID, TC_NAME, TC_SYSTEM, TC_STATE, TC_CREATED_AT };

static const char *const stmt_sql[ST_COUNT] = {
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
	[ST_PLAYER_CREATE] = "INSERT INTO players (name, pwhash, role) VALUES (:name, :pwhash, :role)",
	[ST_PLAYER_BY_NAME] = "SELECT " PLAYER_COLS " FROM players WHERE name = :name",
	[ST_PLAYER_BY_ID] = "SELECT " PLAYER_COLS " FROM players WHERE id = :id",
	[ST_PLAYER_SET_ROLE] = "UPDATE players SET role = :role WHERE name = :name",
	[ST_PLAYER_SET_RATING] =
		"UPDATE players SET rating = :rating, rd = :rd, volatility = :volatility "
		"WHERE id = :id",
	[ST_PLAYERS_LIST] = "SELECT " PLAYER_COLS " FROM players ORDER BY rating DESC, name",
	[ST_GAME_CREATE] = "INSERT INTO games (" GAME_COLS ") VALUES (NULL, "
		GAME_PARAMS ")",
	[ST_GAME_UPDATE] = "UPDATE games SET " GAME_SET " WHERE id = :id AND NOT ("
		GAME_OTHERS_SAME ")",
	[ST_GAME_UPDATE_STATE] = "UPDATE games SET " GAME_STATE_SET " WHERE id = :id",
	[ST_GAME_GET] = "SELECT " GAME_COLS " FROM games WHERE id = :id",
	[ST_GAMES_ANY] = "SELECT " GAME_COLS " FROM games WHERE " GAMES_FILTER_PHASE " AND "
		GAMES_FILTER_PLAYER " AND " GAMES_FILTER_TOURNAMENT GAMES_TAIL,
	[ST_GAMES_BY_PHASE] = "SELECT " GAME_COLS " FROM games WHERE phase = :phase AND "
		GAMES_FILTER_PLAYER " AND " GAMES_FILTER_TOURNAMENT GAMES_TAIL,
	[ST_GAMES_BY_PLAYER] = "SELECT " GAME_COLS " FROM games WHERE "
		"(black_id = :player_id OR white_id = :player_id) AND " GAMES_FILTER_PHASE " AND "
		GAMES_FILTER_TOURNAMENT GAMES_TAIL,
	[ST_GAMES_BY_TOURNAMENT] = "SELECT " GAME_COLS " FROM games WHERE tournament_id = :tournament_id AND "
		GAMES_FILTER_PHASE " AND " GAMES_FILTER_PLAYER GAMES_TAIL,
	[ST_GAMES_UNFINISHED] = "SELECT " GAME_COLS " FROM games WHERE phase IN "
		"('pending', 'scheduled', 'playing', 'counting') ORDER BY id",
	/* Moves go to the journal (migration 0005) and are folded into moves in batches. */
	[ST_MOVE_ADD] = "INSERT INTO move_journal (game_id, " MOVE_COLS ") VALUES (:game_id, "
		":number, :color, :vertex, :forfeit, :clocks, :at)",
	[ST_MOVE_FOLDED] = "SELECT count(*) FROM moves WHERE game_id = :game_id AND number = :number",
	[ST_MOVE_FOLDED_MAX] = "SELECT coalesce(max(number), 0) FROM moves WHERE game_id = :game_id",
	[ST_MOVES_GET] = "SELECT " MOVE_COLS " FROM moves WHERE game_id = :game_id UNION ALL "
		"SELECT " MOVE_COLS " FROM move_journal WHERE game_id = :game_id ORDER BY number",
	[ST_JOURNAL_KEYS] = "SELECT game_id, number FROM move_journal",
	[ST_JOURNAL_FOLD] = "INSERT INTO moves (game_id, " MOVE_COLS ") SELECT game_id, "
		MOVE_COLS " FROM move_journal ORDER BY game_id, number",
	[ST_JOURNAL_CLEAR] = "DELETE FROM move_journal",
	[ST_WARNING_ADD] = "INSERT INTO warnings (game_id, color, reason, number, at) "
		"VALUES (:game_id, :color, :reason, :number, :at)",
	[ST_WARNINGS_GET] = "SELECT " WARNING_COLS " FROM warnings WHERE game_id = :game_id "
		"ORDER BY id",
	[ST_SAVEPOINT] = "SAVEPOINT store_multi",
	[ST_RELEASE] = "RELEASE store_multi",
	[ST_ROLLBACK_TO] = "ROLLBACK TO store_multi",
	[ST_PLAYER_SET_RATED] = "UPDATE players SET rating = :rating, rd = :rd, "
		"volatility = :volatility, last_rated_at = :at WHERE id = :id",
	[ST_PLAYER_SET_START] = "UPDATE players SET rank = :rank, rating_start = :rating, "
		"rd_start = :rd, volatility_start = :volatility, rating = :rating, rd = :rd, "
		"volatility = :volatility WHERE id = :id AND "
		"NOT EXISTS (SELECT 1 FROM rating_history WHERE player_id = :id)",
	[ST_RATING_ADD] = "INSERT INTO rating_history (player_id, game_id, rating_before, "
		"rd_before, volatility_before, rating, rd, volatility, at) "
		"VALUES (:player_id, :game_id, :rating_before, :rd_before, :volatility_before, :rating, "
		":rd, :volatility, :at)",
	[ST_HISTORY_BY_PLAYER] = "SELECT " HIST_COLS " FROM rating_history WHERE player_id = :player_id "
		"ORDER BY at, game_id",
	[ST_HISTORY_BY_GAME] = "SELECT " HIST_COLS " FROM rating_history WHERE game_id = :game_id "
		"ORDER BY player_id",
	[ST_REWIND_PLAYERS] = "UPDATE players SET "
		"rating = coalesce(" HIST_LAST_BEFORE("rating") ", rating_start), "
		"rd = coalesce(" HIST_LAST_BEFORE("rd") ", rd_start), "
		"volatility = coalesce(" HIST_LAST_BEFORE("volatility") ", volatility_start), "
		"last_rated_at = " HIST_LAST_BEFORE("at") " "
		"WHERE id IN (SELECT player_id FROM rating_history WHERE " HIST_FROM ")",
	[ST_REWIND_DELETE] = "DELETE FROM rating_history WHERE " HIST_FROM,
	[ST_RATED_GAMES] = "SELECT " GAME_COLS " FROM games WHERE phase = 'ended' AND rated = 1 "
		"AND (ended_at > :at OR (ended_at = :at AND id >= :game_id)) ORDER BY ended_at, id",
	[ST_LEADERBOARD_RATING] = LEADERBOARD_SELECT "rating DESC, name" LEADERBOARD_LIMIT,
	[ST_LEADERBOARD_NAME] = LEADERBOARD_SELECT "name, id" LEADERBOARD_LIMIT,
	[ST_LEADERBOARD_GAMES] = LEADERBOARD_SELECT
		"rated_games DESC, rating DESC, name" LEADERBOARD_LIMIT,
	[ST_LEADERBOARD_LAST_PLAYED] = LEADERBOARD_SELECT
		"last_played IS NULL, last_played DESC, name" LEADERBOARD_LIMIT,
	[ST_TOURNAMENT_CREATE] = "INSERT INTO tournaments (name, system, state) "
		"VALUES (:name, :system, :state)",
	[ST_TOURNAMENT_UPDATE] = "UPDATE tournaments SET state = :state WHERE id = :id",
	[ST_TOURNAMENT_GET] = "SELECT " TOURNAMENT_COLS " FROM tournaments WHERE id = :id",
	[ST_TOURNAMENT_BY_NAME] = "SELECT " TOURNAMENT_COLS " FROM tournaments WHERE name = :name",
	[ST_TOURNAMENTS_LIST] = "SELECT " TOURNAMENT_COLS " FROM tournaments ORDER BY id",
};

/* The names of the statements' parameters (store_open maps each to its index in each
 * statement, and refuses a statement with a parameter not named here). */
enum store_param {
	P_ID, P_NAME, P_PWHASH, P_ROLE, P_RATING, P_RD, P_VOLATILITY, P_RANK,
	P_BLACK_ID, P_WHITE_ID, P_SIZE, P_KOMI, P_HANDICAP, P_RATED, P_TIME_CONTROL, P_RULES,
	P_PHASE, P_RESULT, P_REASON, P_CHALLENGER_ID, P_COLOR_CHOICE, P_TOURNAMENT_ID, P_ROUND,
	P_START_AT, P_CREATED_AT, P_ENDED_AT, P_CLOCKS, P_WARNINGS_B, P_WARNINGS_W, P_EXTRA,
	P_PLAYER_ID, P_LIMIT, P_GAME_ID, P_NUMBER, P_COLOR, P_VERTEX, P_FORFEIT, P_AT,
	P_RATING_BEFORE, P_RD_BEFORE, P_VOLATILITY_BEFORE, P_SYSTEM, P_STATE,
	P_COUNT
};

static const char *const param_names[P_COUNT] = {
	[P_ID] = ":id", [P_NAME] = ":name", [P_PWHASH] = ":pwhash", [P_ROLE] = ":role",
	[P_RATING] = ":rating", [P_RD] = ":rd", [P_VOLATILITY] = ":volatility",
	[P_RANK] = ":rank", [P_BLACK_ID] = ":black_id", [P_WHITE_ID] = ":white_id",
	[P_SIZE] = ":size", [P_KOMI] = ":komi", [P_HANDICAP] = ":handicap", [P_RATED] = ":rated",
	[P_TIME_CONTROL] = ":time_control", [P_RULES] = ":rules", [P_PHASE] = ":phase",
	[P_RESULT] = ":result", [P_REASON] = ":reason", [P_CHALLENGER_ID] = ":challenger_id",
	[P_COLOR_CHOICE] = ":color_choice", [P_TOURNAMENT_ID] = ":tournament_id",
	[P_ROUND] = ":round", [P_START_AT] = ":start_at", [P_CREATED_AT] = ":created_at",
	[P_ENDED_AT] = ":ended_at", [P_CLOCKS] = ":clocks", [P_WARNINGS_B] = ":warnings_b",
	[P_WARNINGS_W] = ":warnings_w", [P_EXTRA] = ":extra", [P_PLAYER_ID] = ":player_id",
	[P_LIMIT] = ":limit", [P_GAME_ID] = ":game_id", [P_NUMBER] = ":number",
	[P_COLOR] = ":color", [P_VERTEX] = ":vertex", [P_FORFEIT] = ":forfeit", [P_AT] = ":at",
	[P_RATING_BEFORE] = ":rating_before", [P_RD_BEFORE] = ":rd_before",
	[P_VOLATILITY_BEFORE] = ":volatility_before", [P_SYSTEM] = ":system",
	[P_STATE] = ":state",
};

/* A set of (game, number) keys with an int each: open addressing, `cap` a power of two, at
 * most half full. The move journal keeps two (see store_move_add). */
struct key_entry {
	int64_t game;
	int number;
	int value;
	bool used;
};

struct key_set {
	struct key_entry *k;
	size_t cap, n;
};

/* The files of a database, by the suffix added to its path (store_files_check). */
static const char *const file_suffixes[] = { "", "-wal", "-shm" };
#define STORE_FILES (sizeof file_suffixes / sizeof *file_suffixes)

/* What a path named when the store first saw it. */
struct file_id {
	bool known;
	dev_t dev;
	ino_t ino;
};

struct store {
	sqlite3 *db;
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
	struct key_set folded_max;
	bool journal_stale;       /* a rollback may have undone rows: reread before the next use */
};

struct store_ckpt {
	sqlite3 *db;
	char err[STORE_ERR_MAX];
};

static const char *const roles[] = { "player", "td", "admin", NULL };
static const char *const phases[] = { "pending", "scheduled", "playing", "counting", "ended",
	NULL };
static const char *const color_choices[] = { "nigiri", "black", "white", NULL };

/* ---- Errors ---- */

static enum store_rc fail(struct store *s, enum store_rc rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum store_rc fail(struct store *s, enum store_rc rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->err, sizeof s->err, fmt, ap);
	va_end(ap);
	return rc;
}

/* Map a failed sqlite3_step's (extended) code: a taken unique key is a conflict. */
static enum store_rc sql_fail(struct store *s, int rc)
{
	enum store_rc r = (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
		? STORE_CONFLICT : STORE_ERROR;
	return fail(s, r, "%s", sqlite3_errmsg(s->db));
}

const char *store_errmsg(const struct store *s)
{
	return s ? s->err : "no store";
}

/* ---- Small helpers ---- */

static bool in_list(const char *v, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(v, *list) == 0)
			return true;
	return false;
}

/* A fixed array holds a NUL-terminated string. */
static bool fits(const char *a, size_t size)
{
	return memchr(a, '\0', size) != NULL;
}

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

static struct binder binder(struct store *s, enum stmt_id id)
{
	return (struct binder){ s->st[id], s->param[id], SQLITE_OK };
}

/* The index of parameter p in b's statement; 0 (and b->rc set) if it has none. */
static int b_index(struct binder *b, enum store_param p)
{
	int i = b->idx[p];
	if (!i) {
#ifndef NDEBUG
		fprintf(stderr, "store: no parameter %s in \"%s\"\n", param_names[p],
				sqlite3_sql(b->st));
		abort();
#endif
		b->rc = SQLITE_RANGE;
	}
	return i;
}

static void b_int(struct binder *b, enum store_param p, sqlite3_int64 v)
{
	int i;
	if (b->rc == SQLITE_OK && (i = b_index(b, p)))
		b->rc = sqlite3_bind_int64(b->st, i, v);
}

/* 0 binds NULL. */
static void b_id(struct binder *b, enum store_param p, sqlite3_int64 v)
{
	int i;
	if (b->rc == SQLITE_OK && (i = b_index(b, p)))
		b->rc = v ? sqlite3_bind_int64(b->st, i, v) : sqlite3_bind_null(b->st, i);
}

static void b_double(struct binder *b, enum store_param p, double v)
{
	int i;
	if (b->rc == SQLITE_OK && (i = b_index(b, p)))
		b->rc = sqlite3_bind_double(b->st, i, v);
}

/* 0 binds NULL. */
static void b_time(struct binder *b, enum store_param p, double v)
{
	int i;
	if (b->rc == SQLITE_OK && (i = b_index(b, p)))
		b->rc = v != 0 ? sqlite3_bind_double(b->st, i, v) : sqlite3_bind_null(b->st, i);
}

/* NULL binds NULL; the text is used before the statement is reset (SQLITE_STATIC). */
static void b_text(struct binder *b, enum store_param p, const char *v)
{
	int i;
	if (b->rc == SQLITE_OK && (i = b_index(b, p)))
		b->rc = v ? sqlite3_bind_text(b->st, i, v, -1, SQLITE_STATIC)
			: sqlite3_bind_null(b->st, i);
}

/* "" binds NULL. */
static void b_opt(struct binder *b, enum store_param p, const char *v)
{
	b_text(b, p, v[0] ? v : NULL);
}

static void b_color(struct binder *b, enum store_param p, char c)
{
	int i;
	if (b->rc == SQLITE_OK && (i = b_index(b, p)))
		b->rc = sqlite3_bind_text(b->st, i, &c, 1, SQLITE_TRANSIENT);
}

static void done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/* Bind failure: report it and leave the statement clean. */
static enum store_rc bind_fail(struct store *s, struct binder *b)
{
	enum store_rc r = fail(s, STORE_ERROR, "bind: %s", sqlite3_errstr(b->rc));
	done(b->st);
	return r;
}

/* Run a bound statement that returns no row, then reset it. */
static enum store_rc run(struct store *s, struct binder *b)
{
	enum store_rc r = STORE_OK;
	if (b->rc != SQLITE_OK)
		return bind_fail(s, b);
	bool in_txn = store_in_transaction(s);
	int rc = sqlite3_step(b->st);
	if (rc != SQLITE_DONE) {
		r = sql_fail(s, rc);
		/* After some errors (interrupt, full disk, I/O) SQLite rolls back the whole open
		 * transaction, journal rows of earlier moves included. */
		if (in_txn && !store_in_transaction(s))
			s->journal_stale = true;
	}
	done(b->st);
	return r;
}

/* Copy a text column into a fixed array of `size` bytes; NULL gives "". */
static enum store_rc col_copy(struct store *s, sqlite3_stmt *st, int col, char *dst,
		size_t size)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	size_t n = (size_t)sqlite3_column_bytes(st, col);
	if (!t) {
		if (sqlite3_column_type(st, col) != SQLITE_NULL)
			return fail(s, STORE_ERROR, "out of memory");
		dst[0] = '\0';
		return STORE_OK;
	}
	if (n >= size)
		return fail(s, STORE_ERROR, "stored %s is %zu bytes, more than %zu",
				sqlite3_column_name(st, col), n, size - 1);
	memcpy(dst, t, n);
	dst[n] = '\0';
	return STORE_OK;
}

/* A malloc'd copy of a text column, NULL for SQL NULL. */
static enum store_rc col_dup(struct store *s, sqlite3_stmt *st, int col, char **out)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	size_t n = (size_t)sqlite3_column_bytes(st, col);
	*out = NULL;
	if (!t) {
		if (sqlite3_column_type(st, col) != SQLITE_NULL)
			return fail(s, STORE_ERROR, "out of memory");
		return STORE_OK;
	}
	*out = malloc(n + 1);
	if (!*out)
		return fail(s, STORE_ERROR, "out of memory");
	memcpy(*out, t, n);
	(*out)[n] = '\0';
	return STORE_OK;
}

/* 'B' or 'W' from a colour column (the schema allows nothing else). */
static char col_color(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return t ? (char)t[0] : '\0';
}

/* A listing may not run from inside its own callback: the statement is in use. */
static enum store_rc check_idle(struct store *s, sqlite3_stmt *st, const char *what)
{
	if (sqlite3_stmt_busy(st))
		return fail(s, STORE_ERROR, "%s called from its own callback", what);
	return STORE_OK;
}

/* Reads the current row of a statement into *out (a struct the collector knows); on failure
 * *out holds nothing to free. */
typedef enum store_rc (*row_reader)(struct store *s, sqlite3_stmt *st, void *out);

/* Step a bound statement to the end, appending each row `read` reads to *v; resets the
 * statement. On failure the rows read so far stay in *v, for the caller to free. */
static enum store_rc collect(struct store *s, sqlite3_stmt *st, struct store_vec *v,
		row_reader read)
{
	enum store_rc r = STORE_OK;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		void *e = store_vec_room(v);
		if (!e) {
			r = fail(s, STORE_ERROR, "out of memory");
			break;
		}
		if ((r = read(s, st, e)) != STORE_OK)
			break;
		v->n++;
	}
	if (r == STORE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
		r = sql_fail(s, rc);
	done(st);
	return r;
}

/* ---- The move journal (migration 0005) ---- */

static int pragma(sqlite3 *db, const char *sql, char *text, size_t size, int *num);

static size_t key_slot(const struct key_set *ks, int64_t game, int number)
{
	uint64_t h = (uint64_t)game * 0x9E3779B97F4A7C15u ^
		(uint64_t)(uint32_t)number * 0xC2B2AE3D27D4EB4Fu;
	size_t i = (size_t)(h ^ h >> 31) & (ks->cap - 1);
	while (ks->k[i].used && (ks->k[i].game != game || ks->k[i].number != number))
		i = (i + 1) & (ks->cap - 1);
	return i;
}

static struct key_entry *key_find(const struct key_set *ks, int64_t game, int number)
{
	if (!ks->cap)
		return NULL;
	struct key_entry *e = &ks->k[key_slot(ks, game, number)];
	return e->used ? e : NULL;
}

/* The entry of a key, added (value 0) if new; NULL when out of memory. */
static struct key_entry *key_put(struct key_set *ks, int64_t game, int number)
{
	struct key_entry *e = key_find(ks, game, number);
	if (e)
		return e;
	if (2 * (ks->n + 1) > ks->cap) {
		struct key_set old = *ks;
		size_t cap = old.cap ? 2 * old.cap : STORE_JOURNAL_KEYS_START;
		struct key_entry *k = calloc(cap, sizeof *k);
		if (!k)
			return NULL;
		ks->k = k;
		ks->cap = cap;
		for (size_t i = 0; i < old.cap; i++)
			if (old.k[i].used)
				ks->k[key_slot(ks, old.k[i].game, old.k[i].number)] = old.k[i];
		free(old.k);
	}
	e = &ks->k[key_slot(ks, game, number)];
	*e = (struct key_entry){ game, number, 0, true };
	ks->n++;
	return e;
}

static void key_clear(struct key_set *ks)
{
	if (ks->cap)
		memset(ks->k, 0, ks->cap * sizeof *ks->k);
	ks->n = 0;
}

/* Read the keys again from the table (after a rollback, which may have undone rows). */
static enum store_rc journal_reload(struct store *s)
{
	sqlite3_stmt *st = s->st[ST_JOURNAL_KEYS];
	enum store_rc r = STORE_OK;
	int rc;
	key_clear(&s->journal);
	/* Another process (tengend grant opening the database) may have folded rows meanwhile. */
	key_clear(&s->folded_max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!key_put(&s->journal, sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1))) {
			r = fail(s, STORE_ERROR, "out of memory");
			break;
		}
	}
	if (r == STORE_OK && rc != SQLITE_DONE)
		r = sql_fail(s, rc);
	done(st);
	s->journal_stale = r != STORE_OK;
	return r;
}

/* The int the statement `id` answers for :game_id = game (and :number = number if it has
 * one); it returns one row. */
static enum store_rc query_int(struct store *s, enum stmt_id id, int64_t game, int number,
		int *out)
{
	struct binder q = binder(s, id);
	b_int(&q, P_GAME_ID, game);
	if (q.idx[P_NUMBER])
		b_int(&q, P_NUMBER, number);
	if (q.rc != SQLITE_OK)
		return bind_fail(s, &q);
	int rc = sqlite3_step(q.st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(q.st, 0);
	done(q.st);
	return rc == SQLITE_ROW ? STORE_OK : sql_fail(s, rc);
}

size_t store_journal_rows(const struct store *s)
{
	return s->journal.n;
}

enum store_rc store_journal_fold(struct store *s, int *rows)
{
	enum store_rc r = STORE_OK;
	int n = 0, fk = 0, ignore = 1;
	if (rows)
		*rows = 0;
	if (store_in_transaction(s))
		return fail(s, STORE_ERROR, "store_journal_fold: a transaction is open");
	/* The journal's rows met the same constraints and foreign key when they were written,
	 * and games are never deleted: the fold does not check them a second time. Both pragmas
	 * are no-ops inside a transaction, so they are set around it. (Changing foreign_keys
	 * makes SQLite prepare each statement again at its next use: once per fold.) */
	if (sqlite3_exec(s->db, "PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON",
			 NULL, NULL, NULL) != SQLITE_OK)
		r = fail(s, STORE_ERROR, "%s", sqlite3_errmsg(s->db));
	else if ((r = store_begin(s)) == STORE_OK) {
		struct binder fold = binder(s, ST_JOURNAL_FOLD);
		struct binder clear = binder(s, ST_JOURNAL_CLEAR);
		if ((r = run(s, &fold)) == STORE_OK) {
			n = sqlite3_changes(s->db);
			r = run(s, &clear);
		}
		if (r == STORE_OK)
			r = store_commit(s);
		if (r != STORE_OK)
			store_rollback(s); /* keeps s->err */
	}
	if (r == STORE_OK) {
		key_clear(&s->journal);
		key_clear(&s->folded_max); /* read again as games move on */
		s->journal_stale = false;
		if (rows)
			*rows = n;
	} else {
		char why[STORE_ERR_MAX];
		snprintf(why, sizeof why, "%s", s->err);
		fail(s, r, "fold the move journal: %s", why);
	}
	if (sqlite3_exec(s->db, "PRAGMA foreign_keys = ON; PRAGMA ignore_check_constraints = OFF",
			 NULL, NULL, NULL) != SQLITE_OK ||
	    pragma(s->db, "PRAGMA foreign_keys", NULL, 0, &fk) != SQLITE_OK || fk != 1 ||
	    pragma(s->db, "PRAGMA ignore_check_constraints", NULL, 0, &ignore) != SQLITE_OK ||
	    ignore != 0) {
		/* The store must never go on accepting what the schema refuses. */
		fprintf(stderr, "store: cannot turn foreign keys and checks back on after a "
			"fold: %s\n", sqlite3_errmsg(s->db));
		abort();
	}
	return r;
}

/* ---- Opening ---- */

int store_schema_version(void)
{
	int n = 0;
	while (store_migrations[n])
		n++;
	return n;
}

/* Run one statement returning at most one row; *text (may be NULL) gets a copy of its first
 * column as text, *num its first column as an integer. */
static int pragma(sqlite3 *db, const char *sql, char *text, size_t size, int *num)
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

/* Bring the schema up to date in one transaction. */
static enum store_rc migrate(struct store *s)
{
	int have = 0, want = store_schema_version();
	char sql[64], *msg = NULL;
	int rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return fail(s, STORE_ERROR, "begin migrations: %s", sqlite3_errmsg(s->db));
	rc = pragma(s->db, "PRAGMA user_version", NULL, 0, &have);
	if (rc != SQLITE_OK) {
		fail(s, STORE_ERROR, "read user_version: %s", sqlite3_errmsg(s->db));
		goto rollback;
	}
	if (have > want) {
		fail(s, STORE_ERROR, "database schema version %d is newer than this tengend's (%d)",
				have, want);
		goto rollback;
	}
	if (have < 0) {
		fail(s, STORE_ERROR, "database schema version %d is invalid", have);
		goto rollback;
	}
	if (have == want) {
		if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
			fail(s, STORE_ERROR, "commit: %s", sqlite3_errmsg(s->db));
			goto rollback;
		}
		return STORE_OK;
	}
	for (int i = have; i < want; i++) {
		if (sqlite3_exec(s->db, store_migrations[i], NULL, NULL, &msg) != SQLITE_OK) {
			fail(s, STORE_ERROR, "migration %d: %s", i + 1, msg ? msg : "failed");
			sqlite3_free(msg);
			goto rollback;
		}
	}
	char fk[8];
	if (pragma(s->db, "PRAGMA foreign_key_check", fk, sizeof fk, NULL) != SQLITE_OK || fk[0]) {
		fail(s, STORE_ERROR, "migrations leave foreign keys broken (table %s)", fk);
		goto rollback;
	}
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", want);
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK
			|| sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		fail(s, STORE_ERROR, "finish migrations: %s", sqlite3_errmsg(s->db));
		goto rollback;
	}
	return STORE_OK;
rollback:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return STORE_ERROR;
}

/* Connection settings: WAL (refused only for an in-memory database, which cannot have
 * it), synchronous FULL or NORMAL (`sync`), foreign keys (checked: a build without them is
 * refused). */
static enum store_rc configure(struct store *s, enum store_sync sync)
{
	char mode[16];
	int fk = 0, level = -1;
	sqlite3_extended_result_codes(s->db, 1);
	const char *sync_sql = sync == STORE_SYNC_LOSE_ON_POWER_CUT ? "PRAGMA synchronous = NORMAL"
		: "PRAGMA synchronous = FULL";
	if (sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS) != SQLITE_OK
			|| pragma(s->db, "PRAGMA journal_mode = WAL", mode, sizeof mode, NULL) != SQLITE_OK
			|| pragma(s->db, sync_sql, NULL, 0, NULL) != SQLITE_OK
			|| pragma(s->db, "PRAGMA synchronous", NULL, 0, &level) != SQLITE_OK
			|| pragma(s->db, "PRAGMA foreign_keys = ON", NULL, 0, NULL) != SQLITE_OK
			|| pragma(s->db, "PRAGMA foreign_keys", NULL, 0, &fk) != SQLITE_OK)
		return fail(s, STORE_ERROR, "configure: %s", sqlite3_errmsg(s->db));
	const char *file = sqlite3_db_filename(s->db, "main");
	bool memory = !file || !file[0];
	if (strcmp(mode, "wal") != 0 && !memory)
		return fail(s, STORE_ERROR, "cannot use WAL journal mode (got \"%s\")", mode);
	if (fk != 1)
		return fail(s, STORE_ERROR, "this SQLite does not enforce foreign keys");
	if (level != (sync == STORE_SYNC_LOSE_ON_POWER_CUT ? 1 : 2))
		return fail(s, STORE_ERROR, "PRAGMA synchronous is %d, not the one asked for", level);
	return STORE_OK;
}

/* The free bytes (for unprivileged use) of the file system holding `path`, or of its
 * directory when `path` does not exist yet. -1 (errno set) if neither can be asked. */
static int free_bytes(const char *path, uint64_t *out)
{
	struct statvfs v;
	if (statvfs(path, &v) != 0) {
		if (errno != ENOENT)
			return -1;
		char dir[STORE_PATH_MAX];
		snprintf(dir, sizeof dir, "%s", path);
		char *slash = strrchr(dir, '/');
		if (!slash)
			snprintf(dir, sizeof dir, ".");
		else if (slash == dir)
			dir[1] = '\0';
		else
			*slash = '\0';
		if (statvfs(dir, &v) != 0)
			return -1;
	}
	*out = (uint64_t)v.f_bavail * (uint64_t)v.f_frsize;
	return 0;
}

/* One real write transaction (page 1 rewritten with the same user_version): a disk that is
 * full or failing, or a database SQLite can only read, is found now rather than at the
 * first move. */
static enum store_rc write_check(struct store *s)
{
	char sql[64];
	int version = 0;
	if (pragma(s->db, "PRAGMA user_version", NULL, 0, &version) != SQLITE_OK)
		return fail(s, STORE_ERROR, "read user_version: %s", sqlite3_errmsg(s->db));
	snprintf(sql, sizeof sql, "BEGIN IMMEDIATE; PRAGMA user_version = %d; COMMIT", version);
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		fail(s, STORE_ERROR, "cannot write the database %s: %s", s->path,
				sqlite3_errmsg(s->db));
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return STORE_ERROR;
	}
	return STORE_OK;
}

/* Record what each of the database's paths names now (those not known yet, if they exist). */
static void files_note(struct store *s)
{
	char p[STORE_PATH_MAX];
	struct stat st;
	for (size_t i = 0; s->path && i < STORE_FILES; i++) {
		if (s->files[i].known)
			continue;
		snprintf(p, sizeof p, "%s%s", s->path, file_suffixes[i]);
		if (stat(p, &st) == 0)
			s->files[i] = (struct file_id){ true, st.st_dev, st.st_ino };
	}
}

enum store_rc store_files_check(struct store *s)
{
	char p[STORE_PATH_MAX];
	struct stat st;
	for (size_t i = 0; s->path && i < STORE_FILES; i++) {
		snprintf(p, sizeof p, "%s%s", s->path, file_suffixes[i]);
		if (stat(p, &st) != 0) {
			if (errno != ENOENT && errno != ENOTDIR)
				return fail(s, STORE_ERROR, "stat %s: %s", p, strerror(errno));
			if (s->files[i].known)
				return fail(s, STORE_NOT_FOUND, "the database file %s was deleted", p);
			continue;
		}
		if (!s->files[i].known)
			s->files[i] = (struct file_id){ true, st.st_dev, st.st_ino };
		else if (st.st_dev != s->files[i].dev || st.st_ino != s->files[i].ino)
			return fail(s, STORE_NOT_FOUND,
					"the database file %s was replaced by another file", p);
	}
	return STORE_OK;
}

/* The database file itself, flock(2)ed by store_lock while the daemon runs (a second name
 * for the same file, a symlink or a hard link, locks the same inode); closed by store_unlock
 * only after the store is closed (closing any descriptor of the file drops this process's
 * POSIX locks, which SQLite holds). One daemon, one lock: process-wide. */
static int lock_db_fd = -1;

enum store_rc store_lock_inode(const char *path, char *err, size_t errlen)
{
	if (lock_db_fd >= 0 || !path[0] || strcmp(path, ":memory:") == 0)
		return STORE_OK;
	int d = open(path, O_RDONLY | O_CLOEXEC);
	if (d < 0)
		return STORE_OK; /* not there yet: store_open creates it, then this is called again */
	if (flock(d, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;
		snprintf(err, errlen, e == EWOULDBLOCK ?
			 "database %s in use by another tengend (the same file under another name)" :
			 "cannot lock %s: %s", path, strerror(e));
		close(d);
		return e == EWOULDBLOCK ? STORE_CONFLICT : STORE_ERROR;
	}
	lock_db_fd = d;
	return STORE_OK;
}

enum store_rc store_lock(const char *path, int *fd, long *holder, char *err, size_t errlen)
{
	char lock[STORE_PATH_MAX], pid[STORE_PID_TEXT_MAX];
	*fd = -1;
	if (holder)
		*holder = 0;
	if (!path[0] || strcmp(path, ":memory:") == 0)
		return STORE_OK;
	if ((size_t)snprintf(lock, sizeof lock, "%s%s", path, STORE_LOCK_SUFFIX) >= sizeof lock) {
		snprintf(err, errlen, "database path too long");
		return STORE_ERROR;
	}
	int f = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (f < 0) {
		snprintf(err, errlen, "cannot open the lock file %s: %s", lock, strerror(errno));
		return STORE_ERROR;
	}
	if (flock(f, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;
		if (e == EWOULDBLOCK) {
			ssize_t n = pread(f, pid, sizeof pid - 1, 0);
			pid[n > 0 ? n : 0] = '\0';
			long who = strtol(pid, NULL, 10);
			if (holder)
				*holder = who > 0 ? who : 0;
			snprintf(err, errlen, "database %s in use by pid %ld (it holds %s)", path,
					who > 0 ? who : 0, lock);
		} else {
			snprintf(err, errlen, "cannot lock %s: %s", lock, strerror(e));
		}
		close(f);
		return e == EWOULDBLOCK ? STORE_CONFLICT : STORE_ERROR;
	}
	/* The same file under another name (a symlink, a hard link) has another lock file: lock
	 * the database's inode too, where it exists already. */
	enum store_rc rc = store_lock_inode(path, err, errlen);
	if (rc != STORE_OK) {
		close(f);
		return rc;
	}
	int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(f, 0) != 0 || pwrite(f, pid, (size_t)len, 0) != len) {
		snprintf(err, errlen, "cannot write the lock file %s: %s", lock, strerror(errno));
		store_unlock(-1);
		close(f);
		return STORE_ERROR;
	}
	*fd = f;
	return STORE_OK;
}

void store_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
	if (lock_db_fd >= 0) {
		close(lock_db_fd);
		lock_db_fd = -1;
	}
}

/* Note the index of each named parameter of statement i (s->param[i]); a parameter whose
 * name is not in param_names (or has none) is a bug in stmt_sql: STORE_ERROR. */
static enum store_rc map_params(struct store *s, int i)
{
	int n = sqlite3_bind_parameter_count(s->st[i]), found = 0;
	for (int p = 0; p < P_COUNT; p++) {
		int k = sqlite3_bind_parameter_index(s->st[i], param_names[p]);
		if (k > UCHAR_MAX)
			return fail(s, STORE_ERROR, "statement %d: parameter %s is number %d", i,
					param_names[p], k);
		s->param[i][p] = (unsigned char)k;
		found += k != 0;
	}
	if (found != n)
		return fail(s, STORE_ERROR, "statement %d: %d of its %d parameters have no known "
				"name", i, n - found, n);
	return STORE_OK;
}

enum store_rc store_open(const char *path, struct store **out, char *err, size_t errlen)
{
	struct store_options o = { .create = true };
	return store_open_ex(path, &o, out, err, errlen);
}

enum store_rc store_open_ex(const char *path, const struct store_options *o, struct store **out,
		char *err, size_t errlen)
{
	enum store_rc r = STORE_ERROR;
	struct store *s = calloc(1, sizeof *s);
	bool memory = !path[0] || strcmp(path, ":memory:") == 0;
	struct stat st;
	uint64_t avail = 0;
	*out = NULL;
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return STORE_ERROR;
	}
	if (!memory && !o->create && stat(path, &st) != 0) {
		int e = errno;
		r = fail(s, e == ENOENT ? STORE_NOT_FOUND : STORE_ERROR, "no database at %s: %s",
				path, strerror(e));
		goto bad;
	}
	if (!memory && o->min_free_bytes) {
		if (free_bytes(path, &avail) != 0) {
			r = fail(s, STORE_ERROR, "free space of the file system of %s: %s", path,
					strerror(errno));
			goto bad;
		}
		if (avail < o->min_free_bytes) {
			r = fail(s, STORE_ERROR, "only %.1f MiB free on the file system of %s, less than "
					"the %.1f MiB required", (double)avail / STORE_MIB, path,
					(double)o->min_free_bytes / STORE_MIB);
			goto bad;
		}
	}
	/* NOMUTEX: the connection is used by the loop thread only (the checkpointer has its own). */
	int rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
			(o->create ? SQLITE_OPEN_CREATE : 0), NULL);
	if (rc != SQLITE_OK) {
		fail(s, STORE_ERROR, "open %s: %s", path,
				s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
		goto bad;
	}
	if (!memory && !(s->path = strdup(sqlite3_db_filename(s->db, "main")))) {
		r = fail(s, STORE_ERROR, "out of memory");
		goto bad;
	}
	/* SQLite opens a file it may not write read-only, without a word; then every write
	 * would fail. */
	if (o->write_check && sqlite3_db_readonly(s->db, "main") == 1) {
		r = fail(s, STORE_ERROR, "the database %s can only be read (a read-only file or file "
				"system); tengend must write it", path);
		goto bad;
	}
	/* Before configure, which would write a header into an empty file. */
	if (!memory && !o->create) {
		int version = 0;
		sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
		if (pragma(s->db, "PRAGMA user_version", NULL, 0, &version) != SQLITE_OK) {
			r = fail(s, STORE_ERROR, "cannot read the database %s: %s", path,
					sqlite3_errmsg(s->db));
			goto bad;
		}
		if (version == 0) {
			r = fail(s, STORE_NOT_FOUND, "%s holds no tengen database (empty, or made by "
					"something else)", path);
			goto bad;
		}
	}
	if ((r = configure(s, o->sync)) != STORE_OK)
		goto bad;
	if ((r = migrate(s)) != STORE_OK || (o->write_check && (r = write_check(s)) != STORE_OK))
		goto bad;
	/* A page cache that holds the pages live games write (a leaf of moves per game), so a
	 * move does not read its page back from the WAL. */
	char cache[64];
	snprintf(cache, sizeof cache, "PRAGMA cache_size = -%d", STORE_CACHE_KIB);
	if (pragma(s->db, cache, NULL, 0, NULL) != SQLITE_OK) {
		r = fail(s, STORE_ERROR, "configure: %s", sqlite3_errmsg(s->db));
		goto bad;
	}
	for (int i = 0; i < ST_COUNT; i++) {
		rc = sqlite3_prepare_v3(s->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->st[i],
				NULL);
		if (rc != SQLITE_OK) {
			r = fail(s, STORE_ERROR, "prepare statement %d: %s", i, sqlite3_errmsg(s->db));
			goto bad;
		}
		if ((r = map_params(s, i)) != STORE_OK)
			goto bad;
	}
	/* What the last run left in the journal: folded now, or (if that fails) kept and read. */
	if (store_journal_fold(s, NULL) != STORE_OK && journal_reload(s) != STORE_OK)
		goto bad;
	files_note(s);
	s->err[0] = '\0';
	*out = s;
	return STORE_OK;
bad:;
	/* An I/O error: say what the system said (e.g. "No space left on device"). */
	int code = s->db ? sqlite3_errcode(s->db) & 0xff : SQLITE_OK;
	int sys = s->db ? sqlite3_system_errno(s->db) : 0;
	if (sys && (code == SQLITE_IOERR || code == SQLITE_FULL || code == SQLITE_CANTOPEN ||
			code == SQLITE_READONLY) && !strstr(s->err, strerror(sys)))
		snprintf(err, errlen, "%s (%s)", s->err, strerror(sys));
	else
		snprintf(err, errlen, "%s", s->err);
	store_close(s);
	return r == STORE_OK ? STORE_ERROR : r;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->st[i]);
	sqlite3_close(s->db);
	free(s->path);
	free(s->journal.k);
	free(s->folded_max.k);
	free(s);
}

/* ---- Transactions ---- */

bool store_in_transaction(const struct store *s)
{
	return !sqlite3_get_autocommit(s->db);
}

enum store_rc store_begin(struct store *s)
{
	if (store_in_transaction(s))
		return fail(s, STORE_ERROR, "a transaction is already open");
	struct binder b = binder(s, ST_BEGIN);
	return run(s, &b);
}

enum store_rc store_commit(struct store *s)
{
	if (!store_in_transaction(s)) {
		s->journal_stale = true; /* SQLite may have rolled it back after an error */
		return fail(s, STORE_ERROR, "no transaction to commit");
	}
	struct binder b = binder(s, ST_COMMIT);
	enum store_rc r = run(s, &b);
	if (r != STORE_OK)
		s->journal_stale = true; /* the transaction may have been rolled back */
	return r;
}

enum store_rc store_rollback(struct store *s)
{
	s->journal_stale = true; /* also when SQLite has rolled it back already */
	if (!store_in_transaction(s))
		return STORE_OK;
	struct binder b = binder(s, ST_ROLLBACK);
	return run(s, &b);
}

/* ---- Checkpoints ---- */

static int wal_hook(void *ctx, sqlite3 *db, const char *name, int frames)
{
	(void)db;
	if (strcmp(name, "main") == 0)
		((struct store *)ctx)->wal_frames = frames;
	return SQLITE_OK;
}

static bool has_wal(sqlite3 *db)
{
	const char *file = sqlite3_db_filename(db, "main");
	return file && file[0];
}

bool store_wal_manual(struct store *s)
{
	if (!has_wal(s->db))
		return false;
	/* A WAL hook of our own replaces SQLite's automatic checkpointing (sqlite3_wal_hook). */
	sqlite3_wal_hook(s->db, wal_hook, s);
	return true;
}

int store_wal_frames(const struct store *s)
{
	return s->wal_frames;
}

enum store_rc store_checkpoint(struct store *s, int *logged, int *copied)
{
	int rc = sqlite3_wal_checkpoint_v2(s->db, "main", SQLITE_CHECKPOINT_PASSIVE, logged, copied);
	if (rc != SQLITE_OK)
		return fail(s, STORE_ERROR, "checkpoint: %s", sqlite3_errmsg(s->db));
	return STORE_OK;
}

enum store_rc store_ckpt_open(struct store *s, struct store_ckpt **out, char *err, size_t errlen)
{
	*out = NULL;
	if (!has_wal(s->db)) {
		snprintf(err, errlen, "the database has no file (in memory)");
		return STORE_ERROR;
	}
	if (!sqlite3_threadsafe()) {
		snprintf(err, errlen, "this SQLite is built without thread support");
		return STORE_ERROR;
	}
	struct store_ckpt *c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return STORE_ERROR;
	}
	int rc = sqlite3_open_v2(sqlite3_db_filename(s->db, "main"), &c->db,
			SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc == SQLITE_OK) {
		/* Without a hook of its own this connection would checkpoint on close as well;
		 * that is harmless. It never writes, so its autocheckpoint never runs. */
		rc = sqlite3_exec(c->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
	}
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "open checkpoint connection: %s",
				c->db ? sqlite3_errmsg(c->db) : sqlite3_errstr(rc));
		store_ckpt_close(c);
		return STORE_ERROR;
	}
	*out = c;
	return STORE_OK;
}

enum store_rc store_ckpt_run(struct store_ckpt *c, int *logged, int *copied)
{
	int rc = sqlite3_wal_checkpoint_v2(c->db, "main", SQLITE_CHECKPOINT_PASSIVE, logged, copied);
	if (rc != SQLITE_OK) {
		snprintf(c->err, sizeof c->err, "checkpoint: %s", sqlite3_errmsg(c->db));
		return STORE_ERROR;
	}
	return STORE_OK;
}

const char *store_ckpt_errmsg(const struct store_ckpt *c)
{
	return c->err;
}

void store_ckpt_close(struct store_ckpt *c)
{
	if (!c)
		return;
	sqlite3_close(c->db);
	free(c);
}

/* ---- Players ---- */

static enum store_rc check_role(struct store *s, const char *role)
{
	if (!role || !in_list(role, roles))
		return fail(s, STORE_ERROR, "unknown role \"%s\" (player, td or admin)",
				role ? role : "(null)");
	return STORE_OK;
}

static enum store_rc check_name(struct store *s, const char *name)
{
	size_t n = name ? strlen(name) : 0;
	if (n < 1 || n > STORE_NAME_MAX)
		return fail(s, STORE_ERROR, "a player name is 1 to %d bytes", STORE_NAME_MAX);
	return STORE_OK;
}

enum store_rc store_player_create(struct store *s, const char *name, const char *pwhash,
		const char *role, int64_t *id)
{
	enum store_rc r;
	if ((r = check_name(s, name)) != STORE_OK || (r = check_role(s, role)) != STORE_OK)
		return r;
	size_t n = pwhash ? strlen(pwhash) : 0;
	if (n < 1 || n >= STORE_PWHASH_SIZE)
		return fail(s, STORE_ERROR, "a password hash is 1 to %d bytes", STORE_PWHASH_SIZE - 1);
	struct binder b = binder(s, ST_PLAYER_CREATE);
	b_text(&b, P_NAME, name);
	b_text(&b, P_PWHASH, pwhash);
	b_text(&b, P_ROLE, role);
	if ((r = run(s, &b)) == STORE_CONFLICT)
		return fail(s, STORE_CONFLICT, "the name \"%s\" is taken", name);
	if (r == STORE_OK && id)
		*id = sqlite3_last_insert_rowid(s->db);
	return r;
}

static enum store_rc read_player(struct store *s, sqlite3_stmt *st, struct store_player *p)
{
	enum store_rc r;
	memset(p, 0, sizeof *p);
	p->id = sqlite3_column_int64(st, PC_ID);
	if ((r = col_copy(s, st, PC_NAME, p->name, sizeof p->name)) != STORE_OK
			|| (r = col_copy(s, st, PC_PWHASH, p->pwhash, sizeof p->pwhash)) != STORE_OK
			|| (r = col_copy(s, st, PC_ROLE, p->role, sizeof p->role)) != STORE_OK
			|| (r = col_copy(s, st, PC_RANK, p->rank, sizeof p->rank)) != STORE_OK)
		return r;
	p->rating = sqlite3_column_double(st, PC_RATING);
	p->rd = sqlite3_column_double(st, PC_RD);
	p->volatility = sqlite3_column_double(st, PC_VOLATILITY);
	p->created_at = sqlite3_column_double(st, PC_CREATED_AT);
	p->rating_start = sqlite3_column_double(st, PC_RATING_START);
	p->rd_start = sqlite3_column_double(st, PC_RD_START);
	p->volatility_start = sqlite3_column_double(st, PC_VOLATILITY_START);
	p->last_rated_at = sqlite3_column_double(st, PC_LAST_RATED_AT);
	return STORE_OK;
}

/* Step a bound one-row query into *p. */
static enum store_rc player_one(struct store *s, struct binder *b, struct store_player *p)
{
	enum store_rc r;
	if (b->rc != SQLITE_OK)
		return bind_fail(s, b);
	int rc = sqlite3_step(b->st);
	if (rc == SQLITE_ROW)
		r = read_player(s, b->st, p);
	else if (rc == SQLITE_DONE)
		r = fail(s, STORE_NOT_FOUND, "no such player");
	else
		r = sql_fail(s, rc);
	done(b->st);
	return r;
}

enum store_rc store_player_by_name(struct store *s, const char *name, struct store_player *out)
{
	struct binder b = binder(s, ST_PLAYER_BY_NAME);
	if (!name)
		return fail(s, STORE_ERROR, "no name");
	b_text(&b, P_NAME, name);
	return player_one(s, &b, out);
}

enum store_rc store_player_by_id(struct store *s, int64_t id, struct store_player *out)
{
	struct binder b = binder(s, ST_PLAYER_BY_ID);
	b_int(&b, P_ID, id);
	return player_one(s, &b, out);
}

/* A run that must touch one row: none is STORE_NOT_FOUND. */
static enum store_rc run_one(struct store *s, struct binder *b, const char *what)
{
	enum store_rc r = run(s, b);
	if (r == STORE_OK && sqlite3_changes(s->db) == 0)
		r = fail(s, STORE_NOT_FOUND, "no such %s", what);
	return r;
}

enum store_rc store_player_set_role(struct store *s, const char *name, const char *role)
{
	enum store_rc r;
	if ((r = check_role(s, role)) != STORE_OK)
		return r;
	if (!name)
		return fail(s, STORE_ERROR, "no name");
	struct binder b = binder(s, ST_PLAYER_SET_ROLE);
	b_text(&b, P_NAME, name);
	b_text(&b, P_ROLE, role);
	return run_one(s, &b, "player");
}

enum store_rc store_player_set_rating(struct store *s, int64_t id, double rating, double rd,
		double volatility)
{
	struct binder b = binder(s, ST_PLAYER_SET_RATING);
	b_int(&b, P_ID, id);
	b_double(&b, P_RATING, rating);
	b_double(&b, P_RD, rd);
	b_double(&b, P_VOLATILITY, volatility);
	return run_one(s, &b, "player");
}

enum store_rc store_players_list(struct store *s, store_player_cb cb, void *ctx)
{
	sqlite3_stmt *st = s->st[ST_PLAYERS_LIST];
	enum store_rc r = check_idle(s, st, "store_players_list");
	struct store_player p;
	int rc;
	if (r != STORE_OK)
		return r;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((r = read_player(s, st, &p)) != STORE_OK || cb(ctx, &p) != 0)
			break;
	}
	if (r == STORE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
		r = sql_fail(s, rc);
	done(st);
	return r;
}

/* ---- Games ---- */

static enum store_rc check_game(struct store *s, const struct store_game *g)
{
	if (!fits(g->phase, sizeof g->phase) || !in_list(g->phase, phases))
		return fail(s, STORE_ERROR, "unknown game phase");
	if (!fits(g->color_choice, sizeof g->color_choice)
			|| (g->color_choice[0] && !in_list(g->color_choice, color_choices)))
		return fail(s, STORE_ERROR, "unknown color choice (nigiri, black or white)");
	if (!fits(g->result, sizeof g->result) || !fits(g->reason, sizeof g->reason))
		return fail(s, STORE_ERROR, "game result or reason not terminated");
	if (g->handicap < 0 || g->warnings_b < 0 || g->warnings_w < 0 || g->round < 0)
		return fail(s, STORE_ERROR, "negative handicap, warnings or round");
	return STORE_OK;
}

/* The per-move state's parameters (GAME_STATE_SET). */
static void bind_game_state(struct binder *b, const struct store_game *g)
{
	b_opt(b, P_RESULT, g->result);
	b_opt(b, P_REASON, g->reason);
	b_text(b, P_CLOCKS, g->clocks);
	b_int(b, P_WARNINGS_B, g->warnings_b);
	b_int(b, P_WARNINGS_W, g->warnings_w);
	b_text(b, P_EXTRA, g->extra);
}

/* Every column but id. */
static void bind_game(struct binder *b, const struct store_game *g)
{
	b_int(b, P_BLACK_ID, g->black_id);
	b_int(b, P_WHITE_ID, g->white_id);
	b_int(b, P_SIZE, g->size);
	b_double(b, P_KOMI, g->komi);
	b_int(b, P_HANDICAP, g->handicap);
	b_int(b, P_RATED, g->rated ? 1 : 0);
	b_text(b, P_TIME_CONTROL, g->time_control);
	b_text(b, P_RULES, g->rules);
	b_text(b, P_PHASE, g->phase);
	b_id(b, P_CHALLENGER_ID, g->challenger_id);
	b_opt(b, P_COLOR_CHOICE, g->color_choice);
	b_id(b, P_TOURNAMENT_ID, g->tournament_id);
	b_id(b, P_ROUND, g->round);
	b_time(b, P_START_AT, g->start_at);
	b_double(b, P_CREATED_AT, g->created_at);
	b_time(b, P_ENDED_AT, g->ended_at);
	bind_game_state(b, g);
}

enum store_rc store_game_create(struct store *s, const struct store_game *g, int64_t *id)
{
	enum store_rc r = check_game(s, g);
	if (r != STORE_OK)
		return r;
	struct binder b = binder(s, ST_GAME_CREATE);
	bind_game(&b, g);
	if ((r = run(s, &b)) == STORE_OK && id)
		*id = sqlite3_last_insert_rowid(s->db);
	return r;
}

enum store_rc store_game_update(struct store *s, const struct store_game *g)
{
	enum store_rc r = check_game(s, g);
	if (r != STORE_OK)
		return r;
	/* The first statement writes the whole row if a column other than the per-move state
	 * changed (then it is all there is to do); otherwise the second writes the state. Each
	 * is one statement, so a failure changes nothing. */
	struct binder b = binder(s, ST_GAME_UPDATE);
	bind_game(&b, g);
	b_int(&b, P_ID, g->id);
	if ((r = run(s, &b)) != STORE_OK || sqlite3_changes(s->db) > 0)
		return r;
	struct binder st = binder(s, ST_GAME_UPDATE_STATE);
	bind_game_state(&st, g);
	b_int(&st, P_ID, g->id);
	return run_one(s, &st, "game");
}

enum store_rc store_game_update_state(struct store *s, const struct store_game *g)
{
	enum store_rc r = check_game(s, g);
	if (r != STORE_OK)
		return r;
	/* Only the parameters GAME_STATE_SET names. */
	struct binder st = binder(s, ST_GAME_UPDATE_STATE);
	bind_game_state(&st, g);
	b_int(&st, P_ID, g->id);
	return run_one(s, &st, "game");
}

void store_game_clear(struct store_game *g)
{
	if (!g)
		return;
	free(g->time_control);
	free(g->rules);
	free(g->clocks);
	free(g->extra);
	g->time_control = g->rules = g->clocks = g->extra = NULL;
}

/* Read the current row into *g (zeroed first); on failure *g holds nothing to free. */
static enum store_rc read_game(struct store *s, sqlite3_stmt *st, struct store_game *g)
{
	enum store_rc r;
	memset(g, 0, sizeof *g);
	g->id = sqlite3_column_int64(st, GC_ID);
	g->black_id = sqlite3_column_int64(st, GC_BLACK);
	g->white_id = sqlite3_column_int64(st, GC_WHITE);
	g->size = sqlite3_column_int(st, GC_SIZE);
	g->komi = sqlite3_column_double(st, GC_KOMI);
	g->handicap = sqlite3_column_int(st, GC_HANDICAP);
	g->rated = sqlite3_column_int(st, GC_RATED) != 0;
	g->challenger_id = sqlite3_column_int64(st, GC_CHALLENGER);
	g->tournament_id = sqlite3_column_int64(st, GC_TOURNAMENT);
	g->round = sqlite3_column_int(st, GC_ROUND);
	g->start_at = sqlite3_column_double(st, GC_START_AT);
	g->created_at = sqlite3_column_double(st, GC_CREATED_AT);
	g->ended_at = sqlite3_column_double(st, GC_ENDED_AT);
	g->warnings_b = sqlite3_column_int(st, GC_WARNINGS_B);
	g->warnings_w = sqlite3_column_int(st, GC_WARNINGS_W);
	if ((r = col_copy(s, st, GC_PHASE, g->phase, sizeof g->phase)) != STORE_OK
			|| (r = col_copy(s, st, GC_RESULT, g->result, sizeof g->result)) != STORE_OK
			|| (r = col_copy(s, st, GC_REASON, g->reason, sizeof g->reason)) != STORE_OK
			|| (r = col_copy(s, st, GC_COLOR_CHOICE, g->color_choice,
					sizeof g->color_choice)) != STORE_OK
			|| (r = col_dup(s, st, GC_TIME_CONTROL, &g->time_control)) != STORE_OK
			|| (r = col_dup(s, st, GC_RULES, &g->rules)) != STORE_OK
			|| (r = col_dup(s, st, GC_CLOCKS, &g->clocks)) != STORE_OK
			|| (r = col_dup(s, st, GC_EXTRA, &g->extra)) != STORE_OK)
		store_game_clear(g);
	return r;
}

enum store_rc store_game_get(struct store *s, int64_t id, struct store_game *out)
{
	sqlite3_stmt *st = s->st[ST_GAME_GET];
	enum store_rc r;
	struct binder b = binder(s, ST_GAME_GET);
	b_int(&b, P_ID, id);
	if (b.rc != SQLITE_OK)
		return bind_fail(s, &b);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		r = read_game(s, st, out);
	else if (rc == SQLITE_DONE)
		r = fail(s, STORE_NOT_FOUND, "no such game");
	else
		r = sql_fail(s, rc);
	done(st);
	return r;
}

static enum store_rc row_game(struct store *s, sqlite3_stmt *st, void *out)
{
	return read_game(s, st, out);
}

/* Games collected from a query before any callback runs, so that callbacks may write: step
 * a bound query to the end, appending each row to *l (a vec of struct store_game); resets
 * the statement. */
static enum store_rc collect_games(struct store *s, sqlite3_stmt *st, struct store_vec *l)
{
	return collect(s, st, l, row_game);
}

/* Free a vec of games and what they own. */
static void game_list_free(struct store_vec *l)
{
	struct store_game *g = l->v;
	for (size_t i = 0; i < l->n; i++)
		store_game_clear(&g[i]);
	store_vec_free(l);
}

/* Call cb for each game of *l, until it asks to stop. */
static void game_list_each(struct store_vec *l, store_game_cb cb, void *ctx)
{
	struct store_game *g = l->v;
	for (size_t i = 0; i < l->n; i++)
		if (cb(ctx, &g[i]) != 0)
			break;
}

enum store_rc store_games_list(struct store *s, const struct store_games_filter *filter,
		store_game_cb cb, void *ctx)
{
	static const struct store_games_filter all = { NULL, 0, 0, 0 };
	const struct store_games_filter *f = filter ? filter : &all;
	enum stmt_id id = f->tournament_id ? ST_GAMES_BY_TOURNAMENT
		: f->player_id ? ST_GAMES_BY_PLAYER
		: f->phase ? ST_GAMES_BY_PHASE : ST_GAMES_ANY;
	struct store_vec l = STORE_VEC_INIT(struct store_game);
	enum store_rc r;
	if (f->limit < 0)
		return fail(s, STORE_ERROR, "negative limit");
	if ((r = check_idle(s, s->st[id], "store_games_list")) != STORE_OK)
		return r;
	struct binder b = binder(s, id);
	b_text(&b, P_PHASE, f->phase);
	b_int(&b, P_PLAYER_ID, f->player_id);
	b_int(&b, P_TOURNAMENT_ID, f->tournament_id);
	b_int(&b, P_LIMIT, f->limit ? f->limit : -1);
	if (b.rc != SQLITE_OK)
		return bind_fail(s, &b);
	if ((r = collect_games(s, b.st, &l)) == STORE_OK)
		game_list_each(&l, cb, ctx);
	game_list_free(&l);
	return r;
}

/* ---- Moves ---- */

static enum store_rc read_move(struct store *s, sqlite3_stmt *st, struct store_move *m)
{
	enum store_rc r;
	memset(m, 0, sizeof *m);
	m->number = sqlite3_column_int(st, MC_NUMBER);
	m->color = col_color(st, MC_COLOR);
	m->at = sqlite3_column_double(st, MC_AT);
	if ((r = col_copy(s, st, MC_VERTEX, m->vertex, sizeof m->vertex)) != STORE_OK
			|| (r = col_copy(s, st, MC_FORFEIT, m->forfeit, sizeof m->forfeit)) != STORE_OK)
		return r;
	m->clocks = (const char *)sqlite3_column_text(st, MC_CLOCKS);
	return STORE_OK;
}

/* A move copied out of the row (clocks malloc'd); on failure nothing to free. */
static enum store_rc row_move_copy(struct store *s, sqlite3_stmt *st, void *out)
{
	struct store_move *m = out;
	char *clocks = NULL;
	enum store_rc r;
	if ((r = read_move(s, st, m)) != STORE_OK
			|| (r = col_dup(s, st, MC_CLOCKS, &clocks)) != STORE_OK)
		return r;
	m->clocks = clocks;
	return STORE_OK;
}

/* Free a vec of moves copied out (their clocks malloc'd). */
static void move_list_free(struct store_vec *l)
{
	struct store_move *m = l->v;
	for (size_t i = 0; i < l->n; i++)
		free((char *)m[i].clocks);
	store_vec_free(l);
}

/* Append the moves of one game, copied out, to *l (a vec of struct store_move). */
static enum store_rc collect_moves(struct store *s, int64_t game_id, struct store_vec *l)
{
	struct binder b = binder(s, ST_MOVES_GET);
	b_int(&b, P_GAME_ID, game_id);
	if (b.rc != SQLITE_OK)
		return bind_fail(s, &b);
	return collect(s, b.st, l, row_move_copy);
}

enum store_rc store_games_unfinished(struct store *s, store_unfinished_cb cb, void *ctx)
{
	sqlite3_stmt *st = s->st[ST_GAMES_UNFINISHED];
	struct store_vec games = STORE_VEC_INIT(struct store_game);
	struct store_vec moves = STORE_VEC_INIT(struct store_move);
	enum store_rc r;
	if ((r = check_idle(s, st, "store_games_unfinished")) != STORE_OK)
		return r;
	if ((r = collect_games(s, st, &games)) != STORE_OK)
		goto out;
	struct store_game *g = games.v;
	for (size_t i = 0; i < games.n; i++) {
		if ((r = collect_moves(s, g[i].id, &moves)) != STORE_OK)
			break;
		int stop = cb(ctx, &g[i], moves.v, moves.n);
		move_list_free(&moves);
		if (stop)
			break;
	}
out:
	move_list_free(&moves);
	game_list_free(&games);
	return r;
}

enum store_rc store_move_add(struct store *s, int64_t game_id, const struct store_move *m)
{
	if (m->number < 1)
		return fail(s, STORE_ERROR, "move number %d: moves are numbered from 1", m->number);
	if (m->color != 'B' && m->color != 'W')
		return fail(s, STORE_ERROR, "move colour must be 'B' or 'W'");
	if (!fits(m->vertex, sizeof m->vertex) || !m->vertex[0]
			|| !fits(m->forfeit, sizeof m->forfeit))
		return fail(s, STORE_ERROR, "move vertex empty or not terminated");
	if (s->journal_stale && journal_reload(s) != STORE_OK)
		return STORE_ERROR;
	/* The (game_id, number) key: the journal's rows are in memory; moves is asked only for a
	 * number not above the game's highest folded one (never, for moves made in order). */
	enum store_rc r;
	bool taken = key_find(&s->journal, game_id, m->number) != NULL;
	if (!taken) {
		struct key_entry *fm = key_find(&s->folded_max, game_id, 0);
		if (!fm) {
			int max = 0;
			if ((r = query_int(s, ST_MOVE_FOLDED_MAX, game_id, 0, &max)) != STORE_OK)
				return r;
			if (!(fm = key_put(&s->folded_max, game_id, 0)))
				return fail(s, STORE_ERROR, "out of memory");
			fm->value = max;
		}
		int found = 0;
		if (m->number <= fm->value &&
		    (r = query_int(s, ST_MOVE_FOLDED, game_id, m->number, &found)) != STORE_OK)
			return r;
		taken = found != 0;
	}
	if (taken)
		return fail(s, STORE_CONFLICT, "game %lld already has move %d", (long long)game_id,
				m->number);
	struct binder b = binder(s, ST_MOVE_ADD);
	b_int(&b, P_GAME_ID, game_id);
	b_int(&b, P_NUMBER, m->number);
	b_color(&b, P_COLOR, m->color);
	b_text(&b, P_VERTEX, m->vertex);
	b_opt(&b, P_FORFEIT, m->forfeit);
	b_text(&b, P_CLOCKS, m->clocks);
	b_double(&b, P_AT, m->at);
	r = run(s, &b);
	if (r == STORE_OK && !key_put(&s->journal, game_id, m->number))
		s->journal_stale = true; /* the row is written; its key is reread before next use */
	return r;
}

enum store_rc store_moves_get(struct store *s, int64_t game_id, store_move_cb cb, void *ctx)
{
	sqlite3_stmt *st = s->st[ST_MOVES_GET];
	enum store_rc r = check_idle(s, st, "store_moves_get");
	struct store_move m;
	int rc;
	if (r != STORE_OK)
		return r;
	struct binder b = binder(s, ST_MOVES_GET);
	b_int(&b, P_GAME_ID, game_id);
	if (b.rc != SQLITE_OK)
		return bind_fail(s, &b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((r = read_move(s, st, &m)) != STORE_OK || cb(ctx, &m) != 0)
			break;
	}
	if (r == STORE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
		r = sql_fail(s, rc);
	done(st);
	return r;
}

/* ---- Warnings ---- */

enum store_rc store_warning_add(struct store *s, int64_t game_id, const struct store_warning *w,
		int64_t *id)
{
	if (w->color != 'B' && w->color != 'W')
		return fail(s, STORE_ERROR, "warning colour must be 'B' or 'W'");
	if (!fits(w->reason, sizeof w->reason))
		return fail(s, STORE_ERROR, "warning reason not terminated");
	if (w->number < 0)
		return fail(s, STORE_ERROR, "negative move number");
	struct binder b = binder(s, ST_WARNING_ADD);
	b_int(&b, P_GAME_ID, game_id);
	b_color(&b, P_COLOR, w->color);
	b_text(&b, P_REASON, w->reason);
	b_id(&b, P_NUMBER, w->number);
	b_double(&b, P_AT, w->at);
	enum store_rc r = run(s, &b);
	if (r == STORE_OK && id)
		*id = sqlite3_last_insert_rowid(s->db);
	return r;
}

enum store_rc store_warnings_get(struct store *s, int64_t game_id, store_warning_cb cb,
		void *ctx)
{
	sqlite3_stmt *st = s->st[ST_WARNINGS_GET];
	enum store_rc r = check_idle(s, st, "store_warnings_get");
	struct store_warning w;
	int rc;
	if (r != STORE_OK)
		return r;
	struct binder b = binder(s, ST_WARNINGS_GET);
	b_int(&b, P_GAME_ID, game_id);
	if (b.rc != SQLITE_OK)
		return bind_fail(s, &b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&w, 0, sizeof w);
		w.id = sqlite3_column_int64(st, WC_ID);
		w.color = col_color(st, WC_COLOR);
		w.number = sqlite3_column_int(st, WC_NUMBER);
		w.at = sqlite3_column_double(st, WC_AT);
		if ((r = col_copy(s, st, WC_REASON, w.reason, sizeof w.reason)) != STORE_OK
				|| cb(ctx, &w) != 0)
			break;
	}
	if (r == STORE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
		r = sql_fail(s, rc);
	done(st);
	return r;
}

/* ---- Ratings ---- */

enum store_rc store_player_set_rated(struct store *s, int64_t id, double rating, double rd,
		double volatility, double at)
{
	struct binder b = binder(s, ST_PLAYER_SET_RATED);
	b_int(&b, P_ID, id);
	b_double(&b, P_RATING, rating);
	b_double(&b, P_RD, rd);
	b_double(&b, P_VOLATILITY, volatility);
	b_time(&b, P_AT, at);
	return run_one(s, &b, "player");
}

enum store_rc store_player_set_start(struct store *s, int64_t id, const char *rank,
		double rating, double rd, double volatility)
{
	struct store_player p;
	enum store_rc r;
	if (!rank || strlen(rank) >= STORE_RANK_SIZE)
		return fail(s, STORE_ERROR, "a declared rank is at most %d bytes", STORE_RANK_SIZE - 1);
	struct binder b = binder(s, ST_PLAYER_SET_START);
	b_int(&b, P_ID, id);
	b_opt(&b, P_RANK, rank);
	b_double(&b, P_RATING, rating);
	b_double(&b, P_RD, rd);
	b_double(&b, P_VOLATILITY, volatility);
	if ((r = run(s, &b)) != STORE_OK || sqlite3_changes(s->db) > 0)
		return r;
	if ((r = store_player_by_id(s, id, &p)) != STORE_OK)
		return r;
	return fail(s, STORE_CONFLICT, "player %lld already has rated games", (long long)id);
}

enum store_rc store_rating_change_add(struct store *s, const struct store_rating_change *c,
		int64_t *id)
{
	if (!(c->rd > 0 && c->rd_before > 0 && c->volatility > 0 && c->volatility_before > 0))
		return fail(s, STORE_ERROR, "a rating change needs positive RD and volatility");
	struct binder b = binder(s, ST_RATING_ADD);
	b_int(&b, P_PLAYER_ID, c->player_id);
	b_int(&b, P_GAME_ID, c->game_id);
	b_double(&b, P_RATING_BEFORE, c->rating_before);
	b_double(&b, P_RD_BEFORE, c->rd_before);
	b_double(&b, P_VOLATILITY_BEFORE, c->volatility_before);
	b_double(&b, P_RATING, c->rating);
	b_double(&b, P_RD, c->rd);
	b_double(&b, P_VOLATILITY, c->volatility);
	b_double(&b, P_AT, c->at);
	enum store_rc r = run(s, &b);
	if (r == STORE_CONFLICT)
		return fail(s, STORE_CONFLICT, "player %lld already has a rating change for game %lld",
				(long long)c->player_id, (long long)c->game_id);
	if (r == STORE_OK && id)
		*id = sqlite3_last_insert_rowid(s->db);
	return r;
}

static enum store_rc row_rating_change(struct store *s, sqlite3_stmt *st, void *out)
{
	struct store_rating_change *c = out;
	(void)s;
	c->id = sqlite3_column_int64(st, HC_ID);
	c->player_id = sqlite3_column_int64(st, HC_PLAYER);
	c->game_id = sqlite3_column_int64(st, HC_GAME);
	c->rating_before = sqlite3_column_double(st, HC_RATING_BEFORE);
	c->rd_before = sqlite3_column_double(st, HC_RD_BEFORE);
	c->volatility_before = sqlite3_column_double(st, HC_VOLATILITY_BEFORE);
	c->rating = sqlite3_column_double(st, HC_RATING);
	c->rd = sqlite3_column_double(st, HC_RD);
	c->volatility = sqlite3_column_double(st, HC_VOLATILITY);
	c->at = sqlite3_column_double(st, HC_AT);
	return STORE_OK;
}

/* Rating changes collected before the callbacks run, so that callbacks may write. */
static enum store_rc history_query(struct store *s, enum stmt_id id,
		enum store_param key_param, int64_t key, store_rating_change_cb cb, void *ctx)
{
	struct store_vec l = STORE_VEC_INIT(struct store_rating_change);
	enum store_rc r;
	struct binder b = binder(s, id);
	b_int(&b, key_param, key);
	if (b.rc != SQLITE_OK)
		return bind_fail(s, &b);
	const struct store_rating_change *c;
	if ((r = collect(s, b.st, &l, row_rating_change)) == STORE_OK) {
		c = l.v;
		for (size_t i = 0; i < l.n; i++)
			if (cb(ctx, &c[i]) != 0)
				break;
	}
	store_vec_free(&l);
	return r;
}

enum store_rc store_rating_history(struct store *s, int64_t player_id,
		store_rating_change_cb cb, void *ctx)
{
	return history_query(s, ST_HISTORY_BY_PLAYER, P_PLAYER_ID, player_id, cb, ctx);
}

enum store_rc store_rating_changes_of_game(struct store *s, int64_t game_id,
		store_rating_change_cb cb, void *ctx)
{
	return history_query(s, ST_HISTORY_BY_GAME, P_GAME_ID, game_id, cb, ctx);
}

/* Bind the rating-order position (:at, :game_id) to statement `id`. */
static struct binder bind_position(struct store *s, enum stmt_id id, double at, int64_t game_id)
{
	struct binder b = binder(s, id);
	b_double(&b, P_AT, at);
	b_int(&b, P_GAME_ID, game_id);
	return b;
}

enum store_rc store_ratings_rewind(struct store *s, double at, int64_t game_id)
{
	struct binder sp = binder(s, ST_SAVEPOINT);
	enum store_rc r = run(s, &sp);
	if (r != STORE_OK)
		return r;
	struct binder b = bind_position(s, ST_REWIND_PLAYERS, at, game_id);
	if ((r = run(s, &b)) == STORE_OK) {
		b = bind_position(s, ST_REWIND_DELETE, at, game_id);
		r = run(s, &b);
	}
	if (r != STORE_OK) {
		char why[STORE_ERR_MAX];
		snprintf(why, sizeof why, "%s", s->err);
		struct binder undo = binder(s, ST_ROLLBACK_TO);
		run(s, &undo);
		fail(s, r, "%s", why);
	}
	struct binder rel = binder(s, ST_RELEASE);
	enum store_rc r2 = run(s, &rel);
	return r != STORE_OK ? r : r2;
}

enum store_rc store_rated_games(struct store *s, double at, int64_t game_id, store_game_cb cb,
		void *ctx)
{
	struct store_vec l = STORE_VEC_INIT(struct store_game);
	enum store_rc r;
	if ((r = check_idle(s, s->st[ST_RATED_GAMES], "store_rated_games")) != STORE_OK)
		return r;
	struct binder b = bind_position(s, ST_RATED_GAMES, at, game_id);
	if (b.rc != SQLITE_OK)
		return bind_fail(s, &b);
	if ((r = collect_games(s, b.st, &l)) == STORE_OK)
		game_list_each(&l, cb, ctx);
	game_list_free(&l);
	return r;
}

enum store_rc store_leaderboard(struct store *s, enum store_leaderboard_sort sort, int limit,
		store_leaderboard_cb cb, void *ctx)
{
	enum stmt_id id;
	switch (sort) {
	case STORE_SORT_RATING: id = ST_LEADERBOARD_RATING; break;
	case STORE_SORT_NAME: id = ST_LEADERBOARD_NAME; break;
	case STORE_SORT_GAMES: id = ST_LEADERBOARD_GAMES; break;
	case STORE_SORT_LAST_PLAYED: id = ST_LEADERBOARD_LAST_PLAYED; break;
	default: return fail(s, STORE_ERROR, "unknown leaderboard order %d", (int)sort);
	}
	if (limit <= 0)
		return fail(s, STORE_ERROR, "leaderboard limit must be positive");
	sqlite3_stmt *st = s->st[id];
	enum store_rc r = check_idle(s, st, "store_leaderboard");
	struct store_leaderboard_row row;
	int rc;
	if (r != STORE_OK)
		return r;
	struct binder b = binder(s, id);
	b_int(&b, P_LIMIT, limit);
	if (b.rc != SQLITE_OK)
		return bind_fail(s, &b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((r = read_player(s, st, &row.player)) != STORE_OK)
			break;
		row.player.pwhash[0] = '\0';
		row.games = sqlite3_column_int(st, LC_GAMES);
		row.last_played = sqlite3_column_double(st, LC_LAST_PLAYED);
		if (cb(ctx, &row) != 0)
			break;
	}
	if (r == STORE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
		r = sql_fail(s, rc);
	done(st);
	return r;
}

/* ---- Tournaments ---- */

enum store_rc store_tournament_create(struct store *s, const char *name, const char *system,
		const char *state_json, int64_t *id)
{
	size_t n = name ? strlen(name) : 0, m = system ? strlen(system) : 0;
	if (n < 1 || n > STORE_TOURNAMENT_NAME_MAX)
		return fail(s, STORE_ERROR, "a tournament name is 1 to %d bytes",
				STORE_TOURNAMENT_NAME_MAX);
	if (m < 1 || m >= STORE_SYSTEM_SIZE)
		return fail(s, STORE_ERROR, "a tournament system is 1 to %d bytes",
				STORE_SYSTEM_SIZE - 1);
	if (!state_json)
		return fail(s, STORE_ERROR, "no tournament state");
	struct binder b = binder(s, ST_TOURNAMENT_CREATE);
	b_text(&b, P_NAME, name);
	b_text(&b, P_SYSTEM, system);
	b_text(&b, P_STATE, state_json);
	enum store_rc r = run(s, &b);
	if (r == STORE_CONFLICT)
		return fail(s, STORE_CONFLICT, "the tournament name \"%s\" is taken", name);
	if (r == STORE_OK && id)
		*id = sqlite3_last_insert_rowid(s->db);
	return r;
}

enum store_rc store_tournament_update(struct store *s, int64_t id, const char *state_json)
{
	if (!state_json)
		return fail(s, STORE_ERROR, "no tournament state");
	struct binder b = binder(s, ST_TOURNAMENT_UPDATE);
	b_int(&b, P_ID, id);
	b_text(&b, P_STATE, state_json);
	return run_one(s, &b, "tournament");
}

void store_tournament_clear(struct store_tournament *t)
{
	if (!t)
		return;
	free(t->state);
	t->state = NULL;
}

/* Read the current row into *t (zeroed first); on failure *t holds nothing to free. */
static enum store_rc read_tournament(struct store *s, sqlite3_stmt *st, struct store_tournament *t)
{
	enum store_rc r;
	memset(t, 0, sizeof *t);
	t->id = sqlite3_column_int64(st, TC_ID);
	t->created_at = sqlite3_column_double(st, TC_CREATED_AT);
	if ((r = col_copy(s, st, TC_NAME, t->name, sizeof t->name)) != STORE_OK
			|| (r = col_copy(s, st, TC_SYSTEM, t->system, sizeof t->system)) != STORE_OK
			|| (r = col_dup(s, st, TC_STATE, &t->state)) != STORE_OK)
		store_tournament_clear(t);
	return r;
}

/* Step a bound one-row query into *t. */
static enum store_rc tournament_one(struct store *s, struct binder *b, struct store_tournament *t)
{
	enum store_rc r;
	memset(t, 0, sizeof *t);
	if (b->rc != SQLITE_OK)
		return bind_fail(s, b);
	int rc = sqlite3_step(b->st);
	if (rc == SQLITE_ROW)
		r = read_tournament(s, b->st, t);
	else if (rc == SQLITE_DONE)
		r = fail(s, STORE_NOT_FOUND, "no such tournament");
	else
		r = sql_fail(s, rc);
	done(b->st);
	return r;
}

enum store_rc store_tournament_get(struct store *s, int64_t id, struct store_tournament *out)
{
	struct binder b = binder(s, ST_TOURNAMENT_GET);
	b_int(&b, P_ID, id);
	return tournament_one(s, &b, out);
}

enum store_rc store_tournament_by_name(struct store *s, const char *name,
		struct store_tournament *out)
{
	if (!name) {
		memset(out, 0, sizeof *out);
		return fail(s, STORE_ERROR, "no name");
	}
	struct binder b = binder(s, ST_TOURNAMENT_BY_NAME);
	b_text(&b, P_NAME, name);
	return tournament_one(s, &b, out);
}

static enum store_rc row_tournament(struct store *s, sqlite3_stmt *st, void *out)
{
	return read_tournament(s, st, out);
}

enum store_rc store_tournaments_list(struct store *s, store_tournament_cb cb, void *ctx)
{
	struct store_vec l = STORE_VEC_INIT(struct store_tournament);
	sqlite3_stmt *st = s->st[ST_TOURNAMENTS_LIST];
	enum store_rc r = check_idle(s, st, "store_tournaments_list");
	if (r != STORE_OK)
		return r;
	struct store_tournament *t = NULL;
	if ((r = collect(s, st, &l, row_tournament)) == STORE_OK) {
		t = l.v;
		for (size_t i = 0; i < l.n; i++)
			if (cb(ctx, &t[i]) != 0)
				break;
	}
	t = l.v;
	for (size_t i = 0; i < l.n; i++)
		store_tournament_clear(&t[i]);
	store_vec_free(&l);
	return r;
}
