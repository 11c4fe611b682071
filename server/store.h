/* store: the daemon's SQLite database: players, games, moves, warnings.
 *
 * One connection, used by one thread (the event loop). Every statement is prepared once, in
 * store_open, and reused. The database runs in WAL mode with synchronous=NORMAL (a commit
 * survives a crash of the process; a power cut may lose the last commits but never corrupts
 * the file) and foreign keys enforced; a busy connection is waited for up to
 * STORE_BUSY_TIMEOUT_MS (e.g. `tengend grant` running beside the daemon).
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
 * Errors: every function but store_errmsg/store_in_transaction/store_game_clear/store_close
 * returns an enum store_rc. On anything but STORE_OK, store_errmsg(s) says why. A failed
 * write changes nothing: the statement is undone; an enclosing transaction stays open unless
 * the error was a severe one (disk full, I/O), which store_in_transaction reveals.
 */
#ifndef TENGEN_STORE_H
#define TENGEN_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STORE_BUSY_TIMEOUT_MS 5000 /* wait this long for another connection's lock */
#define STORE_ERR_MAX 512          /* store_errmsg text, bytes with the NUL */

/* Array sizes, in bytes with the NUL. */
#define STORE_NAME_MAX 32           /* player name, characters (PROTOCOL.md: 1-32) */
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
};

/* A game row. Phases, results and reasons as in PROTOCOL.md. */
struct store_game {
	int64_t id;                     /* set by store_game_create; ignored by it on input */
	int64_t black_id, white_id;     /* players (must exist, must differ) */
	int size;                       /* board size, lines */
	double komi;                    /* points */
	int handicap;                   /* stones, >= 0 */
	bool rated;
	char *time_control;             /* JSON: PROTOCOL.md time control object, or NULL */
	char *rules;                    /* JSON: RULES.md event options, or NULL */
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
	int warnings_b, warnings_w;     /* warnings given so far (RULES.md §3), >= 0 */
	char *extra;                    /* JSON: dead-stone claims, counting state..., or NULL */
};

/* One turn of a game. A forfeited turn (RULES.md §3, Art. 19/22.5) is a move with vertex
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
};

/* Which games store_games_list returns; every condition set must hold. */
struct store_games_filter {
	const char *phase;              /* NULL: any */
	int64_t player_id;              /* black or white; 0: any */
	int64_t tournament_id;          /* 0: any */
	int limit;                      /* at most this many games, newest first; 0: all */
};

/* Callbacks: return 0 to go on, anything else to stop (the listing still returns STORE_OK).
 * A callback may call other store functions, but not the listing that is calling it. */
typedef int (*store_player_cb)(void *ctx, const struct store_player *p);
typedef int (*store_game_cb)(void *ctx, const struct store_game *g);
typedef int (*store_move_cb)(void *ctx, const struct store_move *m);
typedef int (*store_warning_cb)(void *ctx, const struct store_warning *w);
/* moves[0..nmoves-1] in number order; all of it is valid during the call only. */
typedef int (*store_unfinished_cb)(void *ctx, const struct store_game *g,
		const struct store_move *moves, size_t nmoves);

/* --- Database --- */

/* Open (creating it if needed) the database file at `path`, set WAL, synchronous=NORMAL,
 * foreign_keys=ON and the busy timeout, apply the missing migrations in one transaction and
 * prepare every statement. On success *out is the store; on failure *out is NULL, the
 * database is unchanged and err (errlen bytes) says why; refuses (STORE_ERROR) a database
 * whose user_version exceeds the migrations compiled in. */
enum store_rc store_open(const char *path, struct store **out, char *err, size_t errlen);
/* Close the store (NULL is fine). An open transaction is rolled back. */
void store_close(struct store *s);
/* Why the last call that failed did: a message owned by the store, valid until the next call. */
const char *store_errmsg(const struct store *s);
/* The number of migrations compiled in, i.e. the user_version store_open leaves. */
int store_schema_version(void);

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
/* Read game `id` into *out, overwriting it (its previous JSON strings are not freed: clear
 * it first if it holds some). Free the result with store_game_clear. STORE_NOT_FOUND if
 * none. */
enum store_rc store_game_get(struct store *s, int64_t id, struct store_game *out);
/* Free the JSON strings of *g and set them to NULL (NULL g is fine). */
void store_game_clear(struct store_game *g);
/* The games matching *filter (NULL: all), newest (highest id) first. */
enum store_rc store_games_list(struct store *s, const struct store_games_filter *filter,
		store_game_cb cb, void *ctx);
/* Every game whose phase is not "ended", oldest first, each with its moves: what a restart
 * must reload. The callback may write (e.g. end a game). */
enum store_rc store_games_unfinished(struct store *s, store_unfinished_cb cb, void *ctx);

/* --- Moves --- */

/* Append a move to game `game_id`. STORE_CONFLICT if the game already has that move number;
 * STORE_ERROR if the game does not exist or a field is invalid (number < 1, color, empty
 * vertex, bad JSON). */
enum store_rc store_move_add(struct store *s, int64_t game_id, const struct store_move *m);
/* The moves of game `game_id` in number order (none for an unknown game). */
enum store_rc store_moves_get(struct store *s, int64_t game_id, store_move_cb cb, void *ctx);

/* --- Warnings --- */

/* Record a warning (RULES.md §3) given in game `game_id`; *id (may be NULL) gets its id.
 * The game's warnings_b/warnings_w counters are the caller's to update (store_game_update),
 * in the same transaction. STORE_ERROR if the game does not exist or a field is invalid. */
enum store_rc store_warning_add(struct store *s, int64_t game_id, const struct store_warning *w,
		int64_t *id);
/* The warnings of game `game_id`, in the order given. */
enum store_rc store_warnings_get(struct store *s, int64_t game_id, store_warning_cb cb,
		void *ctx);

#endif
