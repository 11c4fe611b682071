/* proto: the wire protocol, version 1 (docs/protocol.md). Pure: parses
 * one request line, validates its fields, builds replies and events. No I/O.
 *
 * Errors are reported in a struct proto_error: a contract error code and a specific message
 * naming the field ("field 'size': must be an integer from 2 to 25"). Messages are always
 * valid UTF-8 (user text quoted in them is shortened at a character boundary).
 *
 * Field getters share one shape:
 *   int proto_get_X(const json_t *obj, const char *field, bool required, ..., OUT, err)
 * returning 1 when the field is present and valid (OUT set), 0 when it is absent (or JSON null)
 * and not required (OUT untouched), -1 on error (err set to bad_request, OUT untouched).
 * A required field that is absent or null is "field 'x' is required".
 */
#ifndef TENGEN_PROTO_H
#define TENGEN_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include "board.h"
#include "rules.h"

#define PROTO_VERSION 1
#define PROTO_NAME_MAX 32            /* player name: 1..32 of [A-Za-z0-9_.-] (docs/protocol.md) */
#define PROTO_PASSWORD_MIN 8         /* bytes (docs/protocol.md) */
#define PROTO_PASSWORD_MAX 1024      /* bytes: bounds the hashing work per login */
#define PROTO_ID_MAX INT64_C(9007199254740991) /* 2^53-1: largest id exact in a JSON double */
#define PROTO_VERTICES_MAX (BOARD_MAX_SIZE * BOARD_MAX_SIZE) /* entries of a vertex list */
#define PROTO_ERROR_MESSAGE_MAX 1024 /* bytes of an error message, with its NUL: the longest
                                      * refusal and the names it quotes fit (256 cut some
                                      * mid-word); svc_fail logs a message cut short */
#define PROTO_ERROR_QUOTE_MAX 40     /* bytes of user text quoted in an error message */

/* Time-control limits (seconds unless said otherwise). */
#define PROTO_TIME_MAIN_MAX_S (7 * 24 * 3600) /* main time: 0..one week */
#define PROTO_TIME_PERIOD_MAX_S (24 * 3600)   /* a byo-yomi / Canadian period: 1 s..one day */
#define PROTO_TIME_PERIODS_MAX 100            /* byo-yomi periods: 1..100 */
#define PROTO_TIME_STONES_MAX 1000            /* Canadian stones per period: 1..1000 */
#define PROTO_TIME_INCREMENT_MAX_S (24 * 3600) /* Fischer increment: 0..one day */

/* Error codes of the contract, in its order. */
enum proto_errcode {
	PROTO_OK = 0,
	PROTO_ERR_BAD_REQUEST,
	PROTO_ERR_LINE_TOO_LONG,
	PROTO_ERR_UNKNOWN_COMMAND,
	PROTO_ERR_UNAUTHENTICATED,
	PROTO_ERR_FORBIDDEN,
	PROTO_ERR_NOT_FOUND,
	PROTO_ERR_CONFLICT,
	PROTO_ERR_ILLEGAL_MOVE,
	PROTO_ERR_RATE_LIMITED,
	PROTO_ERR_INTERNAL
};

struct proto_error {
	enum proto_errcode code;
	char message[PROTO_ERROR_MESSAGE_MAX];
};

/* Roles, in increasing power (docs/protocol.md "Administration"). */
enum proto_role { PROTO_ROLE_PLAYER = 0, PROTO_ROLE_TD, PROTO_ROLE_ADMIN };

/* Commands the server dispatches on. */
enum proto_cmd {
	PROTO_CMD_HELLO = 0,
	PROTO_CMD_PING,
	PROTO_CMD_REGISTER,
	PROTO_CMD_LOGIN,
	PROTO_CMD_LOGOUT,
	PROTO_CMD_CHALLENGE,
	PROTO_CMD_ACCEPT,
	PROTO_CMD_DECLINE,
	PROTO_CMD_JOIN,
	PROTO_CMD_PLAY,
	PROTO_CMD_RESIGN,
	PROTO_CMD_DEAD,
	PROTO_CMD_GAME,
	PROTO_CMD_GAMES,
	PROTO_CMD_SGF,
	PROTO_CMD_OBSERVE,
	PROTO_CMD_UNOBSERVE,
	PROTO_CMD_GAME_PAUSE,
	PROTO_CMD_GAME_RESUME,
	PROTO_CMD_TOURNAMENT_CREATE,
	PROTO_CMD_TOURNAMENT_REGISTER,
	PROTO_CMD_TOURNAMENT_JOIN,
	PROTO_CMD_TOURNAMENT_WITHDRAW,
	PROTO_CMD_TOURNAMENT_START_ROUND,
	PROTO_CMD_TOURNAMENT_RESULT,
	PROTO_CMD_TOURNAMENT_WARN,
	PROTO_CMD_TOURNAMENT_PAIRINGS,
	PROTO_CMD_TOURNAMENT_STANDINGS,
	PROTO_CMD_TOURNAMENT_LIST,
	PROTO_CMD_TOURNAMENT_GET,
	PROTO_CMD_TOURNAMENT_EXPORT,
	PROTO_CMD_PLAYERS,
	PROTO_CMD_PLAYER,
	PROTO_CMD_CHALLENGES,
	PROTO_CMD_TOURNAMENT_ABSENT,
	PROTO_CMD_TOURNAMENT_PAIR_EDIT,
	PROTO_CMD_PLAYER_UPDATE,
	PROTO_CMD_PREDICT,         /* the prediction ruleset's sealed prediction (seed 000) */
	PROTO_CMD_TEAM_CREATE,
	PROTO_CMD_TEAM_LINEUP,
	PROTO_CMD_HANDICAP,        /* free handicap placement (issue 19) */
	PROTO_CMD_TOURNAMENT_UNPAIR, /* take the current round's pairing back */
	PROTO_CMD_TOURNAMENT_UPDATE, /* new settings before round 1 */
	PROTO_CMD_TOURNAMENT_DELETE, /* an event with no games */
	PROTO_CMD_COUNT
};

struct proto_command {
	const char *name;         /* wire name, e.g. "tournament.start_round" */
	enum proto_cmd id;
	bool needs_login;         /* false for hello, ping, register, login and the read-only ones */
	enum proto_role min_role; /* the least role allowed (meaningful when needs_login) */
};

/* One parsed request line. Always release with proto_request_free after proto_parse. */
struct proto_request {
	json_t *root;                    /* the request object (owned), NULL if not an object */
	json_t *id;                      /* owned: the id to echo, JSON null when absent/unreadable */
	const char *cmd_name;            /* the "cmd" string (inside root), NULL if none */
	const struct proto_command *cmd; /* the command, NULL unless known */
};

/* ---- errors ---- */

/* The contract's name of a code ("bad_request", ...); "internal" for an unknown value. */
const char *proto_errcode_name(enum proto_errcode code);
/* Set *err to `code` and a printf-formatted message (truncated to fit, kept valid UTF-8).
 * Returns -1, so callers can `return proto_error_set(...)`. err may be NULL. */
int proto_error_set(struct proto_error *err, enum proto_errcode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- requests ---- */

/* Parse one line (`len` bytes, no newline; may hold NUL bytes) into *req. Returns 0, or -1 with
 * *err set: bad_request "not valid JSON: ..." (also invalid UTF-8 and NUL bytes), bad_request
 * when it is not an object, the id is an object or array, or "cmd" is missing or not a string;
 * unknown_command for a command not in the table; internal when out of memory. Even on error,
 * req->id holds the request's id if it could be read (else JSON null), so the reply echoes it.
 * Call proto_request_free(req) in every case. */
int proto_parse(const char *line, size_t len, struct proto_request *req, struct proto_error *err);
/* Release what proto_parse stored; *req is left empty (safe to call twice). */
void proto_request_free(struct proto_request *req);

/* ---- the command table ---- */

/* The command called `name`, or NULL. */
const struct proto_command *proto_command_find(const char *name);
/* The command with this id, or NULL if out of range. */
const struct proto_command *proto_command_get(enum proto_cmd id);
/* A new JSON array of every command name, in table order (hello's capabilities); NULL on OOM. */
json_t *proto_command_names(void);
/* May a session run `cmd`? Returns 0, or -1 with unauthenticated (not logged in and the
 * command needs it) or forbidden (role below the command's minimum). */
int proto_command_allowed(const struct proto_command *cmd, bool logged_in, enum proto_role role,
			  struct proto_error *err);
/* Role names "player", "td", "admin": parse returns 0 or -1; name returns "?" if unknown. */
int proto_role_parse(const char *s, enum proto_role *out);
const char *proto_role_name(enum proto_role role);

/* ---- field getters (see the top of this file for the common shape) ---- */

/* A string without NUL bytes of at most max_len bytes. *out points into obj. */
int proto_get_string(const json_t *obj, const char *field, bool required, size_t max_len,
		     const char **out, struct proto_error *err);
/* A line of text shown to people and written to exports (a tournament's or a team's name, a
 * director's warning): proto_get_string's, and no control characters (U+0000-U+001F, U+007F,
 * U+0080-U+009F: a tab, a line break, an escape), which the h9, html and SGF cannot carry. */
int proto_get_text(const json_t *obj, const char *field, bool required, size_t max_len,
		   const char **out, struct proto_error *err);
/* An integer in [min, max]; a JSON real is accepted only if it has no fraction. */
int proto_get_int(const json_t *obj, const char *field, bool required, int64_t min, int64_t max,
		  int64_t *out, struct proto_error *err);
/* A finite number (integer or real) in [min, max]. */
int proto_get_number(const json_t *obj, const char *field, bool required, double min, double max,
		     double *out, struct proto_error *err);
/* true or false. */
int proto_get_bool(const json_t *obj, const char *field, bool required, bool *out,
		   struct proto_error *err);
/* A game or tournament id: an integer from 1 to PROTO_ID_MAX. */
int proto_get_id(const json_t *obj, const char *field, bool required, int64_t *out,
		 struct proto_error *err);
/* A player name: 1..PROTO_NAME_MAX of [A-Za-z0-9_.-]. */
int proto_get_name(const json_t *obj, const char *field, bool required, const char **out,
		   struct proto_error *err);
/* A password: PROTO_PASSWORD_MIN..PROTO_PASSWORD_MAX bytes, no NUL. */
int proto_get_password(const json_t *obj, const char *field, bool required, const char **out,
		       struct proto_error *err);
/* A colour "B" (BLACK) or "W" (WHITE). */
int proto_get_color(const json_t *obj, const char *field, bool required, enum color *out,
		    struct proto_error *err);
/* One of `n` names (exact match); *out is its index. The message lists the choices. */
int proto_get_choice(const json_t *obj, const char *field, bool required,
		     const char *const *choices, int n, int *out, struct proto_error *err);
/* A vertex string ("D4", "pass", case-insensitive) that parses on some board up to
 * BOARD_MAX_SIZE; the on-board check for the game's size is proto_vertex_check. */
int proto_get_vertex(const json_t *obj, const char *field, bool required, const char **out,
		     struct proto_error *err);
/* An array of at most max_len vertex strings, each as proto_get_vertex. *out borrows it. */
int proto_get_vertices(const json_t *obj, const char *field, bool required, size_t max_len,
		       const json_t **out, struct proto_error *err);
/* Check vertex `s` of `field` for a board of `size` (0: any size up to BOARD_MAX_SIZE).
 * Returns 1 for a point (*x, *y 0-based, y from the bottom; either may be NULL), 0 for a pass,
 * -1 with bad_request "field 'vertex': 'Z99' is not a vertex" or "... is off the 9x9 board". */
int proto_vertex_check(const char *field, const char *s, int size, int *x, int *y,
		       struct proto_error *err);
/* An array (borrowed) of at most max_len entries, of any type. */
int proto_get_array(const json_t *obj, const char *field, bool required, size_t max_len,
		    const json_t **out, struct proto_error *err);

/* Time control (docs/protocol.md "Values"). Milliseconds; fields not used by the system are 0. */
enum proto_time_system {
	PROTO_TIME_NONE = 0,
	PROTO_TIME_ABSOLUTE,
	PROTO_TIME_BYOYOMI,
	PROTO_TIME_CANADIAN,
	PROTO_TIME_FISCHER
};
struct proto_time {
	enum proto_time_system system;
	int64_t main_ms;      /* main time (all but none) */
	int periods;          /* byoyomi: number of periods */
	int64_t period_ms;    /* byoyomi: one period; canadian: the time for `stones` moves */
	int stones;           /* canadian: moves per period */
	bool carry;           /* canadian: leftover carries into the next block (default true) */
	int64_t increment_ms; /* fischer: added after each move */
	int64_t max_ms;       /* fischer: cap on the clock, 0 for none */
};
/* Seconds fields are JSON numbers (fractions allowed, rounded to ms):
 *   none:     {}
 *   absolute: main_s 1..PROTO_TIME_MAIN_MAX_S
 *   byoyomi:  main_s 0..MAIN_MAX, periods 1..PROTO_TIME_PERIODS_MAX, period_s 1..PERIOD_MAX
 *   canadian: main_s 0..MAIN_MAX, stones 1..PROTO_TIME_STONES_MAX, period_s 1..PERIOD_MAX,
 *             carry? (bool, default true)
 *   fischer:  main_s 0..MAIN_MAX, increment_s 0..INCREMENT_MAX, max_s? (>= main_s and
 *             > 0, at most MAIN_MAX; absent: no cap); main_s and increment_s not both 0
 * Any other key is an error ("field 'time.stones' does not apply to byoyomi"). */
int proto_get_time(const json_t *obj, const char *field, bool required, struct proto_time *out,
		   struct proto_error *err);
const char *proto_time_system_name(enum proto_time_system s);
/* The wire object for *t (as above, whole seconds where exact); NULL on OOM. */
json_t *proto_time_to_json(const struct proto_time *t);

/* Rules object: keys ko, illegal, cycle, counting, last_period, ruleset ("chinese",
 * "prediction"), decisive (bool), predict_s (1..RULES_PREDICT_MAX_S) (docs/rules.md; names of
 * rules.h).
 * Keys absent keep the value *out holds on entry (start from rules_default or the event's).
 * *out changes only on success. Unknown keys are an error. Under the prediction ruleset `ko`,
 * `illegal` and `cycle` are seed 000's (positional, forfeit, forbid: Art. 5.4): other values
 * given are a bad_request. */
int proto_get_rules(const json_t *obj, const char *field, bool required, struct rules *out,
		    struct proto_error *err);
/* The same for rules the server stored itself (a game row's, an event's settings): under the
 * prediction ruleset `ko`, `illegal` and `cycle` take seed 000's values whatever was stored
 * (an older tengend stored `ko: "situational"` there) instead of being refused. */
int proto_get_rules_stored(const json_t *obj, const char *field, bool required,
			   struct rules *out, struct proto_error *err);
/* The wire object with all five keys; NULL on OOM. */
json_t *proto_rules_to_json(const struct rules *r);

/* ---- replies and events ---- */

/* {"id": id, "ok": true}: add result fields to it. id NULL means JSON null. NULL on OOM. */
json_t *proto_reply_ok(const json_t *id);
/* {"id": id, "ok": false, "error": {"code": ..., "message": ...}}; extra error fields (reason,
 * penalty) go into json_object_get(reply, "error"). NULL on OOM. */
json_t *proto_reply_error(const json_t *id, enum proto_errcode code, const char *message);
/* The same from a struct proto_error. */
json_t *proto_reply_error_from(const json_t *id, const struct proto_error *err);
/* {"event": name}: add the event's fields to it. NULL on OOM. */
json_t *proto_event(const char *name);
/* One compact line: keys in insertion order, non-ASCII as UTF-8, ending in "\n", NUL-terminated.
 * *len (if not NULL) gets the length including the "\n". Caller frees. NULL on OOM or if msg
 * cannot be encoded. */
char *proto_serialize(const json_t *msg, size_t *len);

#endif
