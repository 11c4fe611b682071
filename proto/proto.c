/* proto: request parsing, field validation, replies. See proto.h. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jsonout.h"
#include "proto.h"
#include "vertex.h"

/* ---- errors ---- */

static const char *const errcode_names[] = {
	[PROTO_OK] = "ok",
	[PROTO_ERR_BAD_REQUEST] = "bad_request",
	[PROTO_ERR_LINE_TOO_LONG] = "line_too_long",
	[PROTO_ERR_UNKNOWN_COMMAND] = "unknown_command",
	[PROTO_ERR_UNAUTHENTICATED] = "unauthenticated",
	[PROTO_ERR_FORBIDDEN] = "forbidden",
	[PROTO_ERR_NOT_FOUND] = "not_found",
	[PROTO_ERR_CONFLICT] = "conflict",
	[PROTO_ERR_ILLEGAL_MOVE] = "illegal_move",
	[PROTO_ERR_RATE_LIMITED] = "rate_limited",
	[PROTO_ERR_INTERNAL] = "internal",
};

const char *proto_errcode_name(enum proto_errcode code)
{
	if ((unsigned)code < sizeof errcode_names / sizeof *errcode_names)
		return errcode_names[code];
	return "internal";
}

/* Length of the valid UTF-8 sequence at s (n bytes available), or 0 if it is not one
 * (RFC 3629 §4: no overlongs, no surrogates, nothing above U+10FFFF). */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	unsigned char lo = 0x80, hi = 0xBF;
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return len;
}

/* Make the NUL-terminated s valid UTF-8 in place: an invalid byte becomes '?', a sequence cut
 * short at the end (by truncation) is dropped. */
static void utf8_sanitize(char *s)
{
	size_t n = strlen(s);
	unsigned char *p = (unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t k = utf8_seq(p + i, n - i);
		if (k > 0) {
			i += k;
			continue;
		}
		/* A lead byte whose sequence runs past the end: truncated, drop it. */
		if (p[i] >= 0xC2 && p[i] <= 0xF4 && n - i < 4) {
			bool tail = true;
			for (size_t j = i + 1; j < n; j++)
				if (p[j] < 0x80 || p[j] > 0xBF)
					tail = false;
			if (tail) {
				p[i] = '\0';
				return;
			}
		}
		p[i++] = '?';
	}
}

int proto_error_set(struct proto_error *err, enum proto_errcode code, const char *fmt, ...)
{
	if (!err)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	utf8_sanitize(err->message);
	err->code = code;
	return -1;
}

/* Copy user text s into out[PROTO_ERROR_QUOTE_MAX + 4], shortened with "..." at a character
 * boundary. Returns out. */
static const char *quote(char *out, const char *s)
{
	size_t n = strlen(s);
	if (n <= PROTO_ERROR_QUOTE_MAX) {
		memcpy(out, s, n + 1);
	} else {
		size_t cut = PROTO_ERROR_QUOTE_MAX;
		while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
			cut--; /* back to the start of a character */
		memcpy(out, s, cut);
		memcpy(out + cut, "...", 4);
	}
	utf8_sanitize(out);
	return out;
}
#define QUOTE_BUF (PROTO_ERROR_QUOTE_MAX + 4)

/* ---- the command table ---- */

#define CMD(n, i, login, role) {n, i, login, role}
static const struct proto_command commands[PROTO_CMD_COUNT] = {
	CMD("hello", PROTO_CMD_HELLO, false, PROTO_ROLE_PLAYER),
	CMD("ping", PROTO_CMD_PING, false, PROTO_ROLE_PLAYER),
	CMD("register", PROTO_CMD_REGISTER, false, PROTO_ROLE_PLAYER),
	CMD("login", PROTO_CMD_LOGIN, false, PROTO_ROLE_PLAYER),
	CMD("logout", PROTO_CMD_LOGOUT, true, PROTO_ROLE_PLAYER),
	CMD("challenge", PROTO_CMD_CHALLENGE, true, PROTO_ROLE_PLAYER),
	CMD("accept", PROTO_CMD_ACCEPT, true, PROTO_ROLE_PLAYER),
	CMD("decline", PROTO_CMD_DECLINE, true, PROTO_ROLE_PLAYER),
	CMD("join", PROTO_CMD_JOIN, true, PROTO_ROLE_PLAYER),
	CMD("play", PROTO_CMD_PLAY, true, PROTO_ROLE_PLAYER),
	CMD("resign", PROTO_CMD_RESIGN, true, PROTO_ROLE_PLAYER),
	CMD("dead", PROTO_CMD_DEAD, true, PROTO_ROLE_PLAYER),
	CMD("game", PROTO_CMD_GAME, false, PROTO_ROLE_PLAYER),
	CMD("games", PROTO_CMD_GAMES, false, PROTO_ROLE_PLAYER),
	CMD("sgf", PROTO_CMD_SGF, false, PROTO_ROLE_PLAYER),
	CMD("observe", PROTO_CMD_OBSERVE, false, PROTO_ROLE_PLAYER),
	CMD("unobserve", PROTO_CMD_UNOBSERVE, false, PROTO_ROLE_PLAYER),
	CMD("game.pause", PROTO_CMD_GAME_PAUSE, true, PROTO_ROLE_TD),
	CMD("game.resume", PROTO_CMD_GAME_RESUME, true, PROTO_ROLE_TD),
	CMD("tournament.create", PROTO_CMD_TOURNAMENT_CREATE, true, PROTO_ROLE_TD),
	CMD("tournament.register", PROTO_CMD_TOURNAMENT_REGISTER, true, PROTO_ROLE_TD),
	CMD("tournament.join", PROTO_CMD_TOURNAMENT_JOIN, true, PROTO_ROLE_PLAYER),
	CMD("tournament.withdraw", PROTO_CMD_TOURNAMENT_WITHDRAW, true, PROTO_ROLE_TD),
	CMD("tournament.start_round", PROTO_CMD_TOURNAMENT_START_ROUND, true, PROTO_ROLE_TD),
	CMD("tournament.result", PROTO_CMD_TOURNAMENT_RESULT, true, PROTO_ROLE_TD),
	CMD("tournament.warn", PROTO_CMD_TOURNAMENT_WARN, true, PROTO_ROLE_TD),
	CMD("tournament.pairings", PROTO_CMD_TOURNAMENT_PAIRINGS, false, PROTO_ROLE_PLAYER),
	CMD("tournament.standings", PROTO_CMD_TOURNAMENT_STANDINGS, false, PROTO_ROLE_PLAYER),
	CMD("tournament.list", PROTO_CMD_TOURNAMENT_LIST, false, PROTO_ROLE_PLAYER),
	CMD("tournament.get", PROTO_CMD_TOURNAMENT_GET, false, PROTO_ROLE_PLAYER),
	CMD("tournament.export", PROTO_CMD_TOURNAMENT_EXPORT, true, PROTO_ROLE_TD),
	CMD("players", PROTO_CMD_PLAYERS, false, PROTO_ROLE_PLAYER),
	CMD("player", PROTO_CMD_PLAYER, false, PROTO_ROLE_PLAYER),
	CMD("challenges", PROTO_CMD_CHALLENGES, true, PROTO_ROLE_PLAYER),
	CMD("tournament.absent", PROTO_CMD_TOURNAMENT_ABSENT, true, PROTO_ROLE_TD),
	CMD("tournament.pair_edit", PROTO_CMD_TOURNAMENT_PAIR_EDIT, true, PROTO_ROLE_TD),
	CMD("player.update", PROTO_CMD_PLAYER_UPDATE, true, PROTO_ROLE_PLAYER),
	CMD("predict", PROTO_CMD_PREDICT, true, PROTO_ROLE_PLAYER),
	CMD("team.create", PROTO_CMD_TEAM_CREATE, true, PROTO_ROLE_TD),
	/* a director, or the team's captain: checked by the command */
	CMD("team.lineup", PROTO_CMD_TEAM_LINEUP, true, PROTO_ROLE_PLAYER),
	CMD("handicap", PROTO_CMD_HANDICAP, true, PROTO_ROLE_PLAYER),
	CMD("tournament.unpair", PROTO_CMD_TOURNAMENT_UNPAIR, true, PROTO_ROLE_TD),
	CMD("tournament.update", PROTO_CMD_TOURNAMENT_UPDATE, true, PROTO_ROLE_TD),
	CMD("tournament.delete", PROTO_CMD_TOURNAMENT_DELETE, true, PROTO_ROLE_TD),
};
#undef CMD

const struct proto_command *proto_command_find(const char *name)
{
	if (!name)
		return NULL;
	for (int i = 0; i < PROTO_CMD_COUNT; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

const struct proto_command *proto_command_get(enum proto_cmd id)
{
	if ((unsigned)id >= PROTO_CMD_COUNT)
		return NULL;
	return &commands[id];
}

json_t *proto_command_names(void)
{
	json_t *a = json_array();
	if (!a)
		return NULL;
	for (int i = 0; i < PROTO_CMD_COUNT; i++) {
		if (json_array_append_new(a, json_string(commands[i].name)) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static const char *const role_names[] = {"player", "td", "admin"};

int proto_role_parse(const char *s, enum proto_role *out)
{
	for (int i = 0; s && i < (int)(sizeof role_names / sizeof *role_names); i++) {
		if (strcmp(s, role_names[i]) == 0) {
			*out = (enum proto_role)i;
			return 0;
		}
	}
	return -1;
}

const char *proto_role_name(enum proto_role role)
{
	if ((unsigned)role < sizeof role_names / sizeof *role_names)
		return role_names[role];
	return "?";
}

int proto_command_allowed(const struct proto_command *cmd, bool logged_in, enum proto_role role,
			  struct proto_error *err)
{
	if (!cmd->needs_login)
		return 0;
	if (!logged_in)
		return proto_error_set(err, PROTO_ERR_UNAUTHENTICATED,
				       "command '%s' needs a logged-in session: log in first",
				       cmd->name);
	if (role < cmd->min_role)
		return proto_error_set(err, PROTO_ERR_FORBIDDEN,
				       "command '%s' needs role %s or above; you are %s", cmd->name,
				       proto_role_name(cmd->min_role), proto_role_name(role));
	return 0;
}

/* ---- requests ---- */

static const char *json_kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER:
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "a value";
}

void proto_request_free(struct proto_request *req)
{
	json_decref(req->root);
	json_decref(req->id);
	memset(req, 0, sizeof *req);
}

int proto_parse(const char *line, size_t len, struct proto_request *req, struct proto_error *err)
{
	memset(req, 0, sizeof *req);
	req->id = json_null();
	const char *nul = memchr(line, '\0', len);
	if (nul)
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "not valid JSON: NUL byte at offset %zu (over WebSocket also a raw "
				       "line break inside a string: escape it as \\n)",
				       (size_t)(nul - line));
	json_error_t jerr;
	json_t *root = json_loadb(line, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (json_error_code(&jerr) == json_error_out_of_memory)
			return proto_error_set(err, PROTO_ERR_INTERNAL, "out of memory");
		if (json_error_code(&jerr) == json_error_null_character) /* "\u0000" (jansson names
									   its own flag) */
			return proto_error_set(err, PROTO_ERR_BAD_REQUEST, "not valid JSON: a string "
					       "holds \\u0000, which requests may not (at byte %d)",
					       jerr.position);
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST, "not valid JSON: %s (at byte %d)",
				       jerr.text, jerr.position);
	}
	if (!json_is_object(root)) {
		const char *kind = json_kind(root);
		json_decref(root);
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "a request must be a JSON object, not %s", kind);
	}
	req->root = root;
	json_t *id = json_object_get(root, "id");
	if (id && (json_is_object(id) || json_is_array(id)))
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "field 'id': must be a string, number, boolean or null, not %s",
				       json_kind(id));
	if (id)
		req->id = json_incref(id);
	json_t *cmd = json_object_get(root, "cmd");
	if (!cmd || json_is_null(cmd))
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST, "field 'cmd' is required");
	if (!json_is_string(cmd))
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "field 'cmd': must be a string, not %s", json_kind(cmd));
	req->cmd_name = json_string_value(cmd);
	req->cmd = proto_command_find(req->cmd_name);
	if (!req->cmd || strlen(req->cmd_name) != json_string_length(cmd)) {
		char q[QUOTE_BUF];
		req->cmd = NULL;
		return proto_error_set(err, PROTO_ERR_UNKNOWN_COMMAND, "unknown command '%s'",
				       quote(q, req->cmd_name));
	}
	return 0;
}

/* ---- field getters ---- */

/* Find `key` in obj; `label` names it in messages. 1 present, 0 absent/null and optional, -1. */
static int lookup(const json_t *obj, const char *key, const char *label, bool required,
		  json_t **v, struct proto_error *err)
{
	json_t *x = json_is_object(obj) ? json_object_get(obj, key) : NULL;
	if (!x || json_is_null(x)) {
		if (required)
			return proto_error_set(err, PROTO_ERR_BAD_REQUEST, "field '%s' is required",
					       label);
		return 0;
	}
	*v = x;
	return 1;
}

static int get_string(const json_t *obj, const char *key, const char *label, bool required,
		      size_t max_len, const char **out, struct proto_error *err)
{
	json_t *v = NULL;
	int r = lookup(obj, key, label, required, &v, err);
	if (r <= 0)
		return r;
	if (!json_is_string(v))
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "field '%s': must be a string, not %s", label, json_kind(v));
	const char *s = json_string_value(v);
	if (strlen(s) != json_string_length(v))
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "field '%s': must not contain NUL characters", label);
	if (json_string_length(v) > max_len)
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "field '%s': must be at most %zu bytes", label, max_len);
	*out = s;
	return 1;
}

int proto_get_string(const json_t *obj, const char *field, bool required, size_t max_len,
		     const char **out, struct proto_error *err)
{
	return get_string(obj, field, field, required, max_len, out, err);
}

int proto_get_text(const json_t *obj, const char *field, bool required, size_t max_len,
		   const char **out, struct proto_error *err)
{
	const char *s = NULL;
	int r = get_string(obj, field, field, required, max_len, &s, err);
	if (r <= 0)
		return r;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		/* C0 and DEL; C1 is U+0080-U+009F, 0xC2 0x80-0x9F in UTF-8 (jansson's strings are
		 * valid UTF-8) */
		if (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return proto_error_set(err, PROTO_ERR_BAD_REQUEST, "field '%s': must not "
					       "contain control characters (tabs, line breaks)", field);
	*out = s;
	return 1;
}

/* Bounds beyond which a double does not convert to int64_t. */
#define INT64_AS_DOUBLE_MAX 9.2e18

static int get_int(const json_t *obj, const char *key, const char *label, bool required,
		   int64_t min, int64_t max, int64_t *out, struct proto_error *err)
{
	json_t *v = NULL;
	int r = lookup(obj, key, label, required, &v, err);
	if (r <= 0)
		return r;
	int64_t n;
	if (json_is_integer(v)) {
		n = (int64_t)json_integer_value(v);
	} else if (json_is_real(v)) {
		double d = json_real_value(v);
		if (!(d >= -INT64_AS_DOUBLE_MAX && d <= INT64_AS_DOUBLE_MAX) || (double)(int64_t)d != d)
			goto bad;
		n = (int64_t)d;
	} else {
		goto bad;
	}
	if (n < min || n > max)
		goto bad;
	*out = n;
	return 1;
bad:
	return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
			       "field '%s': must be an integer from %" PRId64 " to %" PRId64, label,
			       min, max);
}

int proto_get_int(const json_t *obj, const char *field, bool required, int64_t min, int64_t max,
		  int64_t *out, struct proto_error *err)
{
	return get_int(obj, field, field, required, min, max, out, err);
}

static int get_number(const json_t *obj, const char *key, const char *label, bool required,
		      double min, double max, double *out, struct proto_error *err)
{
	json_t *v = NULL;
	int r = lookup(obj, key, label, required, &v, err);
	if (r <= 0)
		return r;
	double d;
	if (json_is_integer(v))
		d = (double)json_integer_value(v);
	else if (json_is_real(v))
		d = json_real_value(v);
	else
		goto bad;
	if (!isfinite(d) || d < min || d > max)
		goto bad;
	*out = d;
	return 1;
bad:
	return proto_error_set(err, PROTO_ERR_BAD_REQUEST, "field '%s': must be a number from %g to %g",
			       label, min, max);
}

int proto_get_number(const json_t *obj, const char *field, bool required, double min, double max,
		     double *out, struct proto_error *err)
{
	return get_number(obj, field, field, required, min, max, out, err);
}

static int get_bool(const json_t *obj, const char *key, const char *label, bool required,
		    bool *out, struct proto_error *err)
{
	json_t *v = NULL;
	int r = lookup(obj, key, label, required, &v, err);
	if (r <= 0)
		return r;
	if (!json_is_boolean(v))
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "field '%s': must be true or false, not %s", label,
				       json_kind(v));
	*out = json_is_true(v);
	return 1;
}

int proto_get_bool(const json_t *obj, const char *field, bool required, bool *out,
		   struct proto_error *err)
{
	return get_bool(obj, field, field, required, out, err);
}

int proto_get_id(const json_t *obj, const char *field, bool required, int64_t *out,
		 struct proto_error *err)
{
	return get_int(obj, field, field, required, 1, PROTO_ID_MAX, out, err);
}

int proto_get_name(const json_t *obj, const char *field, bool required, const char **out,
		   struct proto_error *err)
{
	const char *s = NULL;
	int r = get_string(obj, field, field, required, SIZE_MAX, &s, err);
	if (r <= 0)
		return r;
	size_t n = strlen(s);
	bool ok = n >= 1 && n <= PROTO_NAME_MAX;
	for (size_t i = 0; ok && i < n; i++) {
		char c = s[i];
		ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		     c == '_' || c == '.' || c == '-';
	}
	if (!ok)
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "field '%s': a name is 1 to %d characters of A-Z a-z 0-9 _ . -",
				       field, PROTO_NAME_MAX);
	*out = s;
	return 1;
}

int proto_get_password(const json_t *obj, const char *field, bool required, const char **out,
		       struct proto_error *err)
{
	const char *s = NULL;
	int r = get_string(obj, field, field, required, PROTO_PASSWORD_MAX, &s, err);
	if (r <= 0)
		return r;
	if (strlen(s) < PROTO_PASSWORD_MIN)
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "field '%s': too short: a password is at least %d characters"
				       " (bytes of UTF-8: a letter outside ASCII counts 2 to 4)",
				       field, PROTO_PASSWORD_MIN);
	*out = s;
	return 1;
}

int proto_get_color(const json_t *obj, const char *field, bool required, enum color *out,
		    struct proto_error *err)
{
	const char *s = NULL;
	int r = get_string(obj, field, field, required, SIZE_MAX, &s, err);
	if (r <= 0)
		return r;
	if (strcmp(s, "B") == 0)
		*out = BLACK;
	else if (strcmp(s, "W") == 0)
		*out = WHITE;
	else
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "field '%s': must be \"B\" or \"W\"", field);
	return 1;
}

/* Write `"a", "b", "c"` into buf. */
static void list_choices(char *buf, size_t n, const char *const *choices, int count)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < count && used < n; i++) {
		int w = snprintf(buf + used, n - used, "%s\"%s\"", i ? ", " : "", choices[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

static int get_choice(const json_t *obj, const char *key, const char *label, bool required,
		      const char *const *choices, int n, int *out, struct proto_error *err)
{
	const char *s = NULL;
	int r = get_string(obj, key, label, required, SIZE_MAX, &s, err);
	if (r <= 0)
		return r;
	for (int i = 0; i < n; i++) {
		if (strcmp(s, choices[i]) == 0) {
			*out = i;
			return 1;
		}
	}
	char list[PROTO_ERROR_MESSAGE_MAX];
	list_choices(list, sizeof list, choices, n);
	return proto_error_set(err, PROTO_ERR_BAD_REQUEST, "field '%s': must be one of %s", label,
			       list);
}

int proto_get_choice(const json_t *obj, const char *field, bool required,
		     const char *const *choices, int n, int *out, struct proto_error *err)
{
	return get_choice(obj, field, field, required, choices, n, out, err);
}

int proto_vertex_check(const char *field, const char *s, int size, int *x, int *y,
		       struct proto_error *err)
{
	int vx, vy;
	char q[QUOTE_BUF];
	int r = vertex_parse_xy(BOARD_MAX_SIZE, s, &vx, &vy);
	if (r < 0)
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST, "field '%s': '%s' is not a vertex",
				       field, quote(q, s));
	if (size > 0 && vertex_parse_xy(size, s, &vx, &vy) < 0)
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "field '%s': '%s' is off the %dx%d board", field, quote(q, s),
				       size, size);
	if (r == 1) {
		if (x)
			*x = vx;
		if (y)
			*y = vy;
	}
	return r;
}

int proto_get_vertex(const json_t *obj, const char *field, bool required, const char **out,
		     struct proto_error *err)
{
	const char *s = NULL;
	int r = get_string(obj, field, field, required, SIZE_MAX, &s, err);
	if (r <= 0)
		return r;
	if (proto_vertex_check(field, s, 0, NULL, NULL, err) < 0)
		return -1;
	*out = s;
	return 1;
}

static int get_array(const json_t *obj, const char *field, bool required, size_t max_len,
		     json_t **out, struct proto_error *err)
{
	json_t *v = NULL;
	int r = lookup(obj, field, field, required, &v, err);
	if (r <= 0)
		return r;
	if (!json_is_array(v))
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "field '%s': must be an array, not %s", field, json_kind(v));
	if (json_array_size(v) > max_len)
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "field '%s': must have at most %zu entries", field, max_len);
	*out = v;
	return 1;
}

int proto_get_array(const json_t *obj, const char *field, bool required, size_t max_len,
		    const json_t **out, struct proto_error *err)
{
	json_t *v = NULL;
	int r = get_array(obj, field, required, max_len, &v, err);
	if (r > 0)
		*out = v;
	return r;
}

int proto_get_vertices(const json_t *obj, const char *field, bool required, size_t max_len,
		       const json_t **out, struct proto_error *err)
{
	json_t *v = NULL;
	int r = get_array(obj, field, required, max_len, &v, err);
	if (r <= 0)
		return r;
	size_t i;
	json_t *e;
	json_array_foreach(v, i, e) {
		if (!json_is_string(e) || strlen(json_string_value(e)) != json_string_length(e))
			return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
					       "field '%s': entry %zu must be a vertex string, not %s",
					       field, i + 1, json_kind(e)); /* counted from 1, as elsewhere */
		if (proto_vertex_check(field, json_string_value(e), 0, NULL, NULL, err) < 0)
			return -1;
	}
	*out = v;
	return 1;
}

/* ---- time control ---- */

static const char *const time_system_names[] = {
	[PROTO_TIME_NONE] = "none",
	[PROTO_TIME_ABSOLUTE] = "absolute",
	[PROTO_TIME_BYOYOMI] = "byoyomi",
	[PROTO_TIME_CANADIAN] = "canadian",
	[PROTO_TIME_FISCHER] = "fischer",
};
#define TIME_SYSTEMS ((int)(sizeof time_system_names / sizeof *time_system_names))

const char *proto_time_system_name(enum proto_time_system s)
{
	if ((unsigned)s < (unsigned)TIME_SYSTEMS)
		return time_system_names[s];
	return "?";
}

/* The keys each system allows besides "system" (NULL-terminated). */
static const char *const *time_keys(enum proto_time_system s)
{
	static const char *const none[] = {NULL};
	static const char *const absolute[] = {"main_s", NULL};
	static const char *const byoyomi[] = {"main_s", "periods", "period_s", NULL};
	static const char *const canadian[] = {"main_s", "stones", "period_s", "carry", NULL};
	static const char *const fischer[] = {"main_s", "increment_s", "max_s", NULL};
	switch (s) {
	case PROTO_TIME_ABSOLUTE: return absolute;
	case PROTO_TIME_BYOYOMI: return byoyomi;
	case PROTO_TIME_CANADIAN: return canadian;
	case PROTO_TIME_FISCHER: return fischer;
	case PROTO_TIME_NONE: break;
	}
	return none;
}

/* Read "<field>.<key>" seconds in [min, max] as ms. Returns as the getters do. */
static int get_seconds(const json_t *t, const char *field, const char *key, bool required,
		       double min, double max, int64_t *ms, struct proto_error *err)
{
	char label[64];
	snprintf(label, sizeof label, "%s.%s", field, key);
	double d;
	int r = get_number(t, key, label, required, min, max, &d, err);
	if (r > 0)
		*ms = (int64_t)(d * 1000.0 + 0.5);
	return r;
}

static int get_count(const json_t *t, const char *field, const char *key, int64_t min,
		     int64_t max, int *out, struct proto_error *err)
{
	char label[64];
	snprintf(label, sizeof label, "%s.%s", field, key);
	int64_t n;
	int r = get_int(t, key, label, true, min, max, &n, err);
	if (r > 0)
		*out = (int)n;
	return r;
}

int proto_get_time(const json_t *obj, const char *field, bool required, struct proto_time *out,
		   struct proto_error *err)
{
	json_t *t = NULL;
	int r = lookup(obj, field, field, required, &t, err);
	if (r <= 0)
		return r;
	if (!json_is_object(t))
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "field '%s': must be a time-control object, not %s", field,
				       json_kind(t));
	char label[64];
	snprintf(label, sizeof label, "%s.system", field);
	int sys = 0;
	if (get_choice(t, "system", label, true, time_system_names, TIME_SYSTEMS, &sys, err) < 0)
		return -1;
	struct proto_time pt = {.system = (enum proto_time_system)sys};
	const char *const *allowed = time_keys(pt.system);
	const char *key;
	json_t *val;
	json_object_foreach(t, key, val) {
		bool ok = strcmp(key, "system") == 0;
		for (int i = 0; !ok && allowed[i]; i++)
			ok = strcmp(key, allowed[i]) == 0;
		if (!ok) {
			char q[QUOTE_BUF];
			return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
					       "field '%s.%s' does not apply to %s", field,
					       quote(q, key), time_system_names[sys]);
		}
	}
	switch (pt.system) {
	case PROTO_TIME_NONE:
		break;
	case PROTO_TIME_ABSOLUTE:
		if (get_seconds(t, field, "main_s", true, 1, PROTO_TIME_MAIN_MAX_S, &pt.main_ms,
				err) < 0)
			return -1;
		break;
	case PROTO_TIME_BYOYOMI:
		if (get_seconds(t, field, "main_s", true, 0, PROTO_TIME_MAIN_MAX_S, &pt.main_ms,
				err) < 0 ||
		    get_count(t, field, "periods", 1, PROTO_TIME_PERIODS_MAX, &pt.periods, err) < 0 ||
		    get_seconds(t, field, "period_s", true, 1, PROTO_TIME_PERIOD_MAX_S,
				&pt.period_ms, err) < 0)
			return -1;
		break;
	case PROTO_TIME_CANADIAN:
		pt.carry = true;
		snprintf(label, sizeof label, "%s.carry", field);
		if (get_seconds(t, field, "main_s", true, 0, PROTO_TIME_MAIN_MAX_S, &pt.main_ms,
				err) < 0 ||
		    get_count(t, field, "stones", 1, PROTO_TIME_STONES_MAX, &pt.stones, err) < 0 ||
		    get_seconds(t, field, "period_s", true, 1, PROTO_TIME_PERIOD_MAX_S,
				&pt.period_ms, err) < 0 ||
		    get_bool(t, "carry", label, false, &pt.carry, err) < 0)
			return -1;
		break;
	case PROTO_TIME_FISCHER:
		if (get_seconds(t, field, "main_s", true, 0, PROTO_TIME_MAIN_MAX_S, &pt.main_ms,
				err) < 0 ||
		    get_seconds(t, field, "increment_s", true, 0, PROTO_TIME_INCREMENT_MAX_S,
				&pt.increment_ms, err) < 0)
			return -1;
		r = get_seconds(t, field, "max_s", false, 0, PROTO_TIME_MAIN_MAX_S, &pt.max_ms, err);
		if (r < 0)
			return -1;
		if (r > 0 && (pt.max_ms <= 0 || pt.max_ms < pt.main_ms))
			return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
					       "field '%s.max_s': must be positive and at least "
					       "main_s", field);
		if (pt.main_ms == 0 && pt.increment_ms == 0)
			return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
					       "field '%s': fischer needs main_s or increment_s above "
					       "0", field);
		break;
	}
	*out = pt;
	return 1;
}

/* Set key to ms as seconds: an integer when whole, else a real. */
static int set_seconds(json_t *o, const char *key, int64_t ms)
{
	json_t *v = ms % 1000 == 0 ? json_integer(ms / 1000) : json_real((double)ms / 1000.0);
	return json_object_set_new(o, key, v);
}

json_t *proto_time_to_json(const struct proto_time *t)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	int r = json_object_set_new(o, "system", json_string(proto_time_system_name(t->system)));
	switch (t->system) {
	case PROTO_TIME_NONE:
		break;
	case PROTO_TIME_ABSOLUTE:
		r |= set_seconds(o, "main_s", t->main_ms);
		break;
	case PROTO_TIME_BYOYOMI:
		r |= set_seconds(o, "main_s", t->main_ms);
		r |= json_object_set_new(o, "periods", json_integer(t->periods));
		r |= set_seconds(o, "period_s", t->period_ms);
		break;
	case PROTO_TIME_CANADIAN:
		r |= set_seconds(o, "main_s", t->main_ms);
		r |= json_object_set_new(o, "stones", json_integer(t->stones));
		r |= set_seconds(o, "period_s", t->period_ms);
		r |= json_object_set_new(o, "carry", json_boolean(t->carry));
		break;
	case PROTO_TIME_FISCHER:
		r |= set_seconds(o, "main_s", t->main_ms);
		r |= set_seconds(o, "increment_s", t->increment_ms);
		if (t->max_ms > 0)
			r |= set_seconds(o, "max_s", t->max_ms);
		break;
	}
	if (r) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* ---- rules ---- */

enum rules_key { RK_KO, RK_ILLEGAL, RK_CYCLE, RK_COUNTING, RK_LAST_PERIOD, RK_RULESET, RK_COUNT };
static const char *const rules_keys[RK_COUNT] = {"ko", "illegal", "cycle", "counting",
						 "last_period", "ruleset"};
/* The prediction ruleset's options besides the named ones (rules.h: decisive, predict_s). */
static const char *const rules_extra_keys[] = {"decisive", "predict_s"};

/* The name of value i of option k, or "?" past the last (rules.h's name functions). */
static const char *rules_value_name(enum rules_key k, int i)
{
	switch (k) {
	case RK_KO: return rules_ko_name((enum ko_rule)i);
	case RK_ILLEGAL: return rules_illegal_name((enum rule_illegal)i);
	case RK_CYCLE: return rules_cycle_name((enum rule_cycle)i);
	case RK_COUNTING: return rules_counting_name((enum rule_counting)i);
	case RK_LAST_PERIOD: return rules_last_period_name((enum rule_last_period)i);
	case RK_RULESET: return rules_ruleset_name((enum rule_ruleset)i);
	case RK_COUNT: break;
	}
	return "?";
}

/* Parse value s of option k into *r. Returns 0 or -1. */
static int rules_set(struct rules *r, enum rules_key k, const char *s)
{
	switch (k) {
	case RK_KO: return rules_parse_ko(s, &r->ko);
	case RK_ILLEGAL: return rules_parse_illegal(s, &r->illegal);
	case RK_CYCLE: return rules_parse_cycle(s, &r->cycle);
	case RK_COUNTING: return rules_parse_counting(s, &r->counting);
	case RK_LAST_PERIOD: return rules_parse_last_period(s, &r->last_period);
	case RK_RULESET: return rules_parse_ruleset(s, &r->ruleset);
	case RK_COUNT: break;
	}
	return -1;
}

static int get_rules(const json_t *obj, const char *field, bool required, struct rules *out,
		     bool stored, struct proto_error *err)
{
	json_t *o = NULL;
	int r = lookup(obj, field, field, required, &o, err);
	if (r <= 0)
		return r;
	if (!json_is_object(o))
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
				       "field '%s': must be a rules object, not %s", field,
				       json_kind(o));
	const char *key;
	json_t *val;
	json_object_foreach(o, key, val) {
		bool known = false;
		for (int k = 0; k < RK_COUNT && !known; k++)
			known = strcmp(key, rules_keys[k]) == 0;
		for (size_t k = 0; k < sizeof rules_extra_keys / sizeof *rules_extra_keys; k++)
			known |= strcmp(key, rules_extra_keys[k]) == 0;
		if (!known) {
			char q[QUOTE_BUF];
			return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
					       "field '%s.%s' is not a rules option (ko, illegal, "
					       "cycle, counting, last_period, ruleset, decisive, "
					       "predict_s)", field, quote(q, key));
		}
	}
	struct rules nr = *out;
	char lb[64];
	int64_t ps = 0;
	snprintf(lb, sizeof lb, "%s.decisive", field);
	if (get_bool(o, "decisive", lb, false, &nr.decisive, err) < 0)
		return -1;
	snprintf(lb, sizeof lb, "%s.predict_s", field);
	int got = get_int(o, "predict_s", lb, false, 1, RULES_PREDICT_MAX_S, &ps, err);
	if (got < 0)
		return -1;
	if (got > 0)
		nr.predict_s = (int)ps;
	for (int k = 0; k < RK_COUNT; k++) {
		char label[64];
		snprintf(label, sizeof label, "%s.%s", field, rules_keys[k]);
		const char *s;
		int g = get_string(o, rules_keys[k], label, false, SIZE_MAX, &s, err);
		if (g < 0)
			return -1;
		if (g == 0 || rules_set(&nr, (enum rules_key)k, s) == 0)
			continue;
		const char *names[8];
		int n = 0;
		while (n < 8 && strcmp(rules_value_name((enum rules_key)k, n), "?") != 0) {
			names[n] = rules_value_name((enum rules_key)k, n);
			n++;
		}
		char list[PROTO_ERROR_MESSAGE_MAX];
		list_choices(list, sizeof list, names, n);
		return proto_error_set(err, PROTO_ERR_BAD_REQUEST, "field '%s': must be one of %s",
				       label, list);
	}
	/* Seed 000 itself says what a repetition and an occupied point cost (docs/rules.md §5):
	 * any whole-board recurrence loses at once (Art. 5.4), an occupied point is refused without
	 * penalty. The options that would say otherwise are refused, not ignored. */
	if (nr.ruleset == RULESET_PREDICTION) {
		static const struct { enum rules_key k; const char *want, *why; } fixed[] = {
			{ RK_KO, "positional", "any whole-board recurrence loses, Art. 5.4" },
			{ RK_ILLEGAL, "forfeit", "a repetition loses, an occupied point is refused "
						 "without penalty" },
			{ RK_CYCLE, "forbid", "a repetition loses at once, Art. 5.4" } };
		for (size_t k = 0; k < sizeof fixed / sizeof *fixed; k++) {
			json_t *v = json_object_get(o, rules_keys[fixed[k].k]);
			if (v && !stored && strcmp(json_string_value(v), fixed[k].want) != 0)
				return proto_error_set(err, PROTO_ERR_BAD_REQUEST,
						       "field '%s.%s': the prediction ruleset has only "
						       "\"%s\" (seed 000: %s)", field,
						       rules_keys[fixed[k].k], fixed[k].want, fixed[k].why);
		}
		nr.ko = KO_POSITIONAL;
		nr.illegal = ILLEGAL_FORFEIT;
		nr.cycle = CYCLE_FORBID;
	}
	/* the prediction ruleset's own options (docs/protocol.md "Prediction ruleset") */
	for (size_t k = 0; k < sizeof rules_extra_keys / sizeof *rules_extra_keys; k++)
		if (nr.ruleset != RULESET_PREDICTION && json_object_get(o, rules_extra_keys[k]))
			return proto_error_set(err, PROTO_ERR_BAD_REQUEST, "field '%s.%s': only with "
					       "%s.ruleset \"prediction\"", field,
					       rules_extra_keys[k], field);
	*out = nr;
	return 1;
}

int proto_get_rules(const json_t *obj, const char *field, bool required, struct rules *out,
		    struct proto_error *err)
{
	return get_rules(obj, field, required, out, false, err);
}

int proto_get_rules_stored(const json_t *obj, const char *field, bool required,
			   struct rules *out, struct proto_error *err)
{
	return get_rules(obj, field, required, out, true, err);
}

json_t *proto_rules_to_json(const struct rules *r)
{
	/* a prediction game's repetition is positional whatever an older tengend stored (Art. 5.4) */
	enum ko_rule ko = r->ruleset == RULESET_PREDICTION ? KO_POSITIONAL : r->ko;
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s}", "ko", rules_ko_name(ko), "illegal",
			      rules_illegal_name(r->illegal), "cycle", rules_cycle_name(r->cycle),
			      "counting", rules_counting_name(r->counting), "last_period",
			      rules_last_period_name(r->last_period));
	if (o && r->ruleset != RULESET_CHINESE) { /* the Chinese rules' object stays as it was */
		json_object_set_new(o, "ruleset", json_string(rules_ruleset_name(r->ruleset)));
		json_object_set_new(o, "decisive", json_boolean(r->decisive));
		if (r->predict_s > 0)
			json_object_set_new(o, "predict_s", json_integer(r->predict_s));
	}
	return o;
}

/* ---- replies and events ---- */

/* A copy of id for a reply (JSON null for NULL). NULL on OOM. */
static json_t *reply_id(const json_t *id)
{
	if (!id)
		return json_null();
	return json_copy((json_t *)id);
}

json_t *proto_reply_ok(const json_t *id)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	if (json_object_set_new(o, "id", reply_id(id)) < 0 ||
	    json_object_set_new(o, "ok", json_true()) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *proto_reply_error(const json_t *id, enum proto_errcode code, const char *message)
{
	char msg[PROTO_ERROR_MESSAGE_MAX];
	snprintf(msg, sizeof msg, "%s", message ? message : "");
	utf8_sanitize(msg);
	json_t *o = json_object();
	json_t *e = json_object();
	if (!o || !e)
		goto fail;
	if (json_object_set_new(e, "code", json_string(proto_errcode_name(code))) < 0 ||
	    json_object_set_new(e, "message", json_string(msg)) < 0)
		goto fail;
	if (json_object_set_new(o, "id", reply_id(id)) < 0 ||
	    json_object_set_new(o, "ok", json_false()) < 0)
		goto fail;
	if (json_object_set_new(o, "error", e) < 0) {
		e = NULL; /* set_new consumed it */
		goto fail;
	}
	return o;
fail:
	json_decref(e);
	json_decref(o);
	return NULL;
}

json_t *proto_reply_error_from(const json_t *id, const struct proto_error *err)
{
	return proto_reply_error(id, err->code, err->message);
}

json_t *proto_event(const char *name)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	if (json_object_set_new(o, "event", json_string(name)) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

char *proto_serialize(const json_t *msg, size_t *len)
{
	return jsonout_dumps(msg, 1, len);
}
