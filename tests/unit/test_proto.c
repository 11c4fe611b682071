/* Unit tests for proto/proto (docs/protocol.md: requests, errors, values, the command table,
 * replies). proto/framing and proto/jsonout are tested in test_wire.c. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "proto.h"

/* ================================ parsing ================================ */

/* Parse a NUL-terminated line; returns proto_parse's result. */
static int parse(const char *s, struct proto_request *req, struct proto_error *err)
{
	memset(err, 0, sizeof *err);
	return proto_parse(s, strlen(s), req, err);
}

/* Expect line s to fail with code and a message containing `part`. */
static void expect_parse_error(const char *s, size_t len, enum proto_errcode code,
			       const char *part)
{
	struct proto_request req;
	struct proto_error err = {0};
	ck_assert_int_eq(proto_parse(s, len, &req, &err), -1);
	ck_assert_int_eq(err.code, code);
	ck_assert_msg(strstr(err.message, part), "message '%s' lacks '%s'", err.message, part);
	ck_assert_ptr_nonnull(req.id);
	proto_request_free(&req);
}
#define EXPECT_PARSE_ERROR(lit, code, part) expect_parse_error(lit, sizeof(lit) - 1, code, part)

START_TEST(parse_valid)
{
	struct proto_request req;
	struct proto_error err;
	ck_assert_int_eq(parse("{\"cmd\": \"play\", \"id\": 7, \"game\": 12, \"vertex\": \"D4\"}",
			       &req, &err), 0);
	ck_assert_ptr_nonnull(req.cmd);
	ck_assert_int_eq(req.cmd->id, PROTO_CMD_PLAY);
	ck_assert_str_eq(req.cmd_name, "play");
	ck_assert(json_is_integer(req.id));
	ck_assert_int_eq(json_integer_value(req.id), 7);
	ck_assert(json_is_object(req.root));
	int64_t game = 0;
	ck_assert_int_eq(proto_get_id(req.root, "game", true, &game, &err), 1);
	ck_assert_int_eq(game, 12);
	proto_request_free(&req);
	proto_request_free(&req); /* safe twice */
	ck_assert_ptr_null(req.root);
}
END_TEST

START_TEST(parse_id_kinds)
{
	struct proto_request req;
	struct proto_error err;
	ck_assert_int_eq(parse("{\"cmd\":\"ping\",\"id\":\"abc\"}", &req, &err), 0);
	ck_assert_str_eq(json_string_value(req.id), "abc");
	proto_request_free(&req);
	ck_assert_int_eq(parse("{\"cmd\":\"ping\",\"id\":null}", &req, &err), 0);
	ck_assert(json_is_null(req.id));
	proto_request_free(&req);
	ck_assert_int_eq(parse("{\"cmd\":\"ping\"}", &req, &err), 0);
	ck_assert(json_is_null(req.id));
	proto_request_free(&req);
	ck_assert_int_eq(parse("{\"cmd\":\"ping\",\"id\":1.5}", &req, &err), 0);
	ck_assert(json_is_real(req.id));
	proto_request_free(&req);
	ck_assert_int_eq(parse("{\"cmd\":\"ping\",\"id\":true}", &req, &err), 0);
	ck_assert(json_is_true(req.id));
	proto_request_free(&req);
	ck_assert_int_eq(parse("{\"cmd\":\"ping\",\"id\":{\"a\":1}}", &req, &err), -1);
	ck_assert_int_eq(err.code, PROTO_ERR_BAD_REQUEST);
	ck_assert_ptr_nonnull(strstr(err.message, "'id'"));
	ck_assert(json_is_null(req.id));
	proto_request_free(&req);
	ck_assert_int_eq(parse("{\"cmd\":\"ping\",\"id\":[1]}", &req, &err), -1);
	ck_assert_int_eq(err.code, PROTO_ERR_BAD_REQUEST);
	ck_assert(json_is_null(req.id));
	proto_request_free(&req);
}
END_TEST

START_TEST(parse_not_json)
{
	EXPECT_PARSE_ERROR("", PROTO_ERR_BAD_REQUEST, "not valid JSON");
	EXPECT_PARSE_ERROR("hello", PROTO_ERR_BAD_REQUEST, "not valid JSON");
	EXPECT_PARSE_ERROR("{", PROTO_ERR_BAD_REQUEST, "not valid JSON");
	EXPECT_PARSE_ERROR("{\"cmd\":\"ping\"} x", PROTO_ERR_BAD_REQUEST, "not valid JSON");
	EXPECT_PARSE_ERROR("{\"cmd\":\"ping\",}", PROTO_ERR_BAD_REQUEST, "not valid JSON");
	EXPECT_PARSE_ERROR("{'cmd':'ping'}", PROTO_ERR_BAD_REQUEST, "not valid JSON");
	EXPECT_PARSE_ERROR("{\"cmd\":\"ping\",\"cmd\":\"ping\"}", PROTO_ERR_BAD_REQUEST,
			   "not valid JSON");
	EXPECT_PARSE_ERROR("{\"id\":99999999999999999999999,\"cmd\":\"ping\"}",
			   PROTO_ERR_BAD_REQUEST, "not valid JSON");
}
END_TEST

START_TEST(parse_bad_bytes)
{
	/* invalid UTF-8: a stray byte, an overlong '/', a surrogate, a truncated sequence */
	EXPECT_PARSE_ERROR("{\"cmd\":\"ping\",\"x\":\"\xff\"}", PROTO_ERR_BAD_REQUEST,
			   "not valid JSON");
	EXPECT_PARSE_ERROR("{\"cmd\":\"ping\",\"x\":\"\xc0\xaf\"}", PROTO_ERR_BAD_REQUEST,
			   "not valid JSON");
	EXPECT_PARSE_ERROR("{\"cmd\":\"ping\",\"x\":\"\xed\xa0\x80\"}", PROTO_ERR_BAD_REQUEST,
			   "not valid JSON");
	EXPECT_PARSE_ERROR("{\"cmd\":\"ping\",\"x\":\"\xe6\x97\"}", PROTO_ERR_BAD_REQUEST,
			   "not valid JSON");
	EXPECT_PARSE_ERROR("\xff{\"cmd\":\"ping\"}", PROTO_ERR_BAD_REQUEST, "not valid JSON");
	/* a raw NUL byte, and an escaped one */
	EXPECT_PARSE_ERROR("{\"cmd\":\"ping\"}\0", PROTO_ERR_BAD_REQUEST, "NUL byte");
	EXPECT_PARSE_ERROR("{\"cmd\":\"pi\0ng\"}", PROTO_ERR_BAD_REQUEST, "NUL byte");
	EXPECT_PARSE_ERROR("{\"cmd\":\"pi\\u0000ng\"}", PROTO_ERR_BAD_REQUEST, "holds \\u0000");
	/* valid non-ASCII is fine */
	struct proto_request req;
	struct proto_error err;
	ck_assert_int_eq(parse("{\"cmd\":\"ping\",\"id\":\"\xe5\x90\x8d\"}", &req, &err), 0);
	proto_request_free(&req);
}
END_TEST

START_TEST(parse_not_object)
{
	EXPECT_PARSE_ERROR("[1,2]", PROTO_ERR_BAD_REQUEST, "not an array");
	EXPECT_PARSE_ERROR("\"ping\"", PROTO_ERR_BAD_REQUEST, "not a string");
	EXPECT_PARSE_ERROR("42", PROTO_ERR_BAD_REQUEST, "not a number");
	EXPECT_PARSE_ERROR("null", PROTO_ERR_BAD_REQUEST, "not null");
	EXPECT_PARSE_ERROR("true", PROTO_ERR_BAD_REQUEST, "not a boolean");
}
END_TEST

START_TEST(parse_bad_cmd)
{
	struct proto_request req;
	struct proto_error err;
	ck_assert_int_eq(parse("{\"id\":5}", &req, &err), -1);
	ck_assert_int_eq(err.code, PROTO_ERR_BAD_REQUEST);
	ck_assert_str_eq(err.message, "field 'cmd' is required");
	ck_assert_int_eq(json_integer_value(req.id), 5); /* kept for the reply */
	proto_request_free(&req);
	ck_assert_int_eq(parse("{\"id\":\"x\",\"cmd\":3}", &req, &err), -1);
	ck_assert_int_eq(err.code, PROTO_ERR_BAD_REQUEST);
	ck_assert_str_eq(err.message, "field 'cmd': must be a string, not a number");
	ck_assert_str_eq(json_string_value(req.id), "x");
	proto_request_free(&req);
	EXPECT_PARSE_ERROR("{\"cmd\":null}", PROTO_ERR_BAD_REQUEST, "'cmd'");
	EXPECT_PARSE_ERROR("{\"cmd\":[\"ping\"]}", PROTO_ERR_BAD_REQUEST, "'cmd'");
	EXPECT_PARSE_ERROR("{\"cmd\":{}}", PROTO_ERR_BAD_REQUEST, "'cmd'");
	EXPECT_PARSE_ERROR("{}", PROTO_ERR_BAD_REQUEST, "'cmd'");
}
END_TEST

START_TEST(parse_unknown_command)
{
	struct proto_request req;
	struct proto_error err;
	ck_assert_int_eq(parse("{\"cmd\":\"fly\",\"id\":9}", &req, &err), -1);
	ck_assert_int_eq(err.code, PROTO_ERR_UNKNOWN_COMMAND);
	ck_assert_str_eq(err.message, "unknown command 'fly'");
	ck_assert_int_eq(json_integer_value(req.id), 9);
	ck_assert_ptr_null(req.cmd);
	proto_request_free(&req);
	EXPECT_PARSE_ERROR("{\"cmd\":\"PING\"}", PROTO_ERR_UNKNOWN_COMMAND, "PING");
	EXPECT_PARSE_ERROR("{\"cmd\":\"\"}", PROTO_ERR_UNKNOWN_COMMAND, "unknown command");
	/* a long name is shortened in the message, at a character boundary */
	char line[1024];
	char name[600] = "";
	for (int i = 0; i < 100; i++)
		strcat(name, "\xe5\x90\x8d"); /* 3-byte character */
	snprintf(line, sizeof line, "{\"cmd\":\"%s\"}", name);
	ck_assert_int_eq(parse(line, &req, &err), -1);
	ck_assert_int_eq(err.code, PROTO_ERR_UNKNOWN_COMMAND);
	ck_assert_uint_lt(strlen(err.message), 80);
	ck_assert_ptr_nonnull(strstr(err.message, "...'"));
	json_t *s = json_string(err.message); /* jansson accepts only valid UTF-8 */
	ck_assert_ptr_nonnull(s);
	json_decref(s);
	proto_request_free(&req);
}
END_TEST

/* ============================== command table ============================== */

static const char *const contract_commands[] = {
	"hello", "ping", "register", "login", "logout", "challenge", "accept", "decline", "join",
	"play", "resign", "dead", "game", "games", "sgf", "observe", "unobserve", "game.pause",
	"game.resume", "tournament.create", "tournament.register", "tournament.join",
	"tournament.withdraw", "tournament.start_round", "tournament.result", "tournament.warn",
	"tournament.pairings", "tournament.standings", "tournament.list", "tournament.get",
	"tournament.export", "players", "player", "challenges", "tournament.absent",
	"tournament.pair_edit", "player.update", "predict", "team.create",
	"team.lineup", "handicap", "tournament.unpair", "tournament.update", "tournament.delete",
};
static const char *const no_login[] = {
	"hello", "ping", "register", "login", "game", "games", "sgf", "observe", "unobserve",
	"tournament.list", "tournament.get", "tournament.pairings", "tournament.standings",
	"players", "player",
};
static const char *const td_only[] = {
	"tournament.create", "tournament.register", "tournament.withdraw",
	"tournament.start_round", "tournament.result", "tournament.warn", "tournament.export",
	"game.pause", "game.resume", "tournament.absent", "tournament.pair_edit", "team.create",
	"tournament.unpair", "tournament.update", "tournament.delete",
};

static bool in(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}
#define IN(list, s) in(list, sizeof list / sizeof *list, s)

START_TEST(table_complete)
{
	size_t n = sizeof contract_commands / sizeof *contract_commands;
	ck_assert_uint_eq(n, PROTO_CMD_COUNT);
	for (size_t i = 0; i < n; i++) {
		const struct proto_command *c = proto_command_find(contract_commands[i]);
		ck_assert_msg(c != NULL, "missing %s", contract_commands[i]);
		ck_assert_str_eq(c->name, contract_commands[i]);
		ck_assert_ptr_eq(proto_command_get(c->id), c);
		ck_assert_msg(c->needs_login == !IN(no_login, c->name), "login rule of %s", c->name);
		enum proto_role want = IN(td_only, c->name) ? PROTO_ROLE_TD : PROTO_ROLE_PLAYER;
		ck_assert_msg(c->min_role == want, "role of %s", c->name);
	}
	for (int id = 0; id < PROTO_CMD_COUNT; id++)
		ck_assert_int_eq(proto_command_get((enum proto_cmd)id)->id, id);
	ck_assert_ptr_null(proto_command_get(PROTO_CMD_COUNT));
	ck_assert_ptr_null(proto_command_find("PING"));
	ck_assert_ptr_null(proto_command_find("tournament"));
	ck_assert_ptr_null(proto_command_find(NULL));
	ck_assert_int_eq(proto_command_find("tournament.join")->min_role, PROTO_ROLE_PLAYER);
	ck_assert(proto_command_find("tournament.join")->needs_login);
	ck_assert(proto_command_find("logout")->needs_login);
}
END_TEST

START_TEST(table_names_and_roles)
{
	json_t *a = proto_command_names();
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(json_array_size(a), PROTO_CMD_COUNT);
	ck_assert_str_eq(json_string_value(json_array_get(a, 0)), "hello");
	json_decref(a);

	enum proto_role r;
	ck_assert_int_eq(proto_role_parse("td", &r), 0);
	ck_assert_int_eq(r, PROTO_ROLE_TD);
	ck_assert_int_eq(proto_role_parse("admin", &r), 0);
	ck_assert_int_eq(r, PROTO_ROLE_ADMIN);
	ck_assert_int_eq(proto_role_parse("player", &r), 0);
	ck_assert_int_eq(r, PROTO_ROLE_PLAYER);
	ck_assert_int_eq(proto_role_parse("root", &r), -1);
	ck_assert_str_eq(proto_role_name(PROTO_ROLE_TD), "td");

	struct proto_error err;
	const struct proto_command *create = proto_command_find("tournament.create");
	const struct proto_command *play = proto_command_find("play");
	const struct proto_command *games = proto_command_find("games");
	ck_assert_int_eq(proto_command_allowed(games, false, PROTO_ROLE_PLAYER, &err), 0);
	ck_assert_int_eq(proto_command_allowed(play, false, PROTO_ROLE_PLAYER, &err), -1);
	ck_assert_int_eq(err.code, PROTO_ERR_UNAUTHENTICATED);
	ck_assert_int_eq(proto_command_allowed(play, true, PROTO_ROLE_PLAYER, &err), 0);
	ck_assert_int_eq(proto_command_allowed(create, true, PROTO_ROLE_PLAYER, &err), -1);
	ck_assert_int_eq(err.code, PROTO_ERR_FORBIDDEN);
	ck_assert_int_eq(proto_command_allowed(create, true, PROTO_ROLE_TD, &err), 0);
	ck_assert_int_eq(proto_command_allowed(create, true, PROTO_ROLE_ADMIN, &err), 0);
	ck_assert_int_eq(proto_command_allowed(create, false, PROTO_ROLE_ADMIN, &err), -1);
	ck_assert_int_eq(err.code, PROTO_ERR_UNAUTHENTICATED);
}
END_TEST

/* ============================== field getters ============================== */

/* Parse a JSON object literal (test helper). */
static json_t *obj(const char *s)
{
	json_error_t e;
	json_t *o = json_loads(s, 0, &e);
	ck_assert_msg(o != NULL, "bad test JSON %s: %s", s, e.text);
	return o;
}

START_TEST(get_int_field)
{
	struct proto_error err;
	int64_t v = -1;
	json_t *o = obj("{\"a\":19,\"b\":19.0,\"c\":19.5,\"d\":\"19\",\"e\":1,\"f\":26,\"g\":null,"
			"\"h\":1e300,\"i\":true,\"j\":-3}");
	ck_assert_int_eq(proto_get_int(o, "a", true, 2, 25, &v, &err), 1);
	ck_assert_int_eq(v, 19);
	v = -1;
	ck_assert_int_eq(proto_get_int(o, "b", true, 2, 25, &v, &err), 1);
	ck_assert_int_eq(v, 19);
	v = -1;
	ck_assert_int_eq(proto_get_int(o, "c", true, 2, 25, &v, &err), -1);
	ck_assert_int_eq(err.code, PROTO_ERR_BAD_REQUEST);
	ck_assert_str_eq(err.message, "field 'c': must be an integer from 2 to 25");
	ck_assert_int_eq(v, -1);
	ck_assert_int_eq(proto_get_int(o, "d", true, 2, 25, &v, &err), -1);
	ck_assert_int_eq(proto_get_int(o, "e", true, 2, 25, &v, &err), -1);
	ck_assert_int_eq(proto_get_int(o, "f", true, 2, 25, &v, &err), -1);
	ck_assert_int_eq(proto_get_int(o, "h", true, 2, 25, &v, &err), -1);
	ck_assert_int_eq(proto_get_int(o, "i", true, 2, 25, &v, &err), -1);
	ck_assert_int_eq(proto_get_int(o, "j", true, -5, 5, &v, &err), 1);
	ck_assert_int_eq(v, -3);
	v = 42;
	ck_assert_int_eq(proto_get_int(o, "g", false, 2, 25, &v, &err), 0);
	ck_assert_int_eq(proto_get_int(o, "zz", false, 2, 25, &v, &err), 0);
	ck_assert_int_eq(v, 42);
	ck_assert_int_eq(proto_get_int(o, "zz", true, 2, 25, &v, &err), -1);
	ck_assert_str_eq(err.message, "field 'zz' is required");
	ck_assert_int_eq(proto_get_int(o, "g", true, 2, 25, &v, &err), -1);
	ck_assert_str_eq(err.message, "field 'g' is required");
	json_decref(o);

	o = obj("{\"size\":30}");
	ck_assert_int_eq(proto_get_int(o, "size", false, BOARD_MIN_SIZE, BOARD_MAX_SIZE, &v, &err),
			 -1);
	ck_assert_str_eq(err.message, "field 'size': must be an integer from 2 to 25");
	json_decref(o);
}
END_TEST

START_TEST(get_number_bool_string)
{
	struct proto_error err;
	json_t *o = obj("{\"komi\":7.5,\"k2\":7,\"k3\":\"7.5\",\"k4\":1000,\"t\":true,\"f\":false,"
			"\"n\":1,\"s\":\"hello\",\"x\":[]}");
	double d = 0;
	ck_assert_int_eq(proto_get_number(o, "komi", true, -100, 100, &d, &err), 1);
	ck_assert(d == 7.5);
	ck_assert_int_eq(proto_get_number(o, "k2", true, -100, 100, &d, &err), 1);
	ck_assert(d == 7.0);
	ck_assert_int_eq(proto_get_number(o, "k3", true, -100, 100, &d, &err), -1);
	ck_assert_str_eq(err.message, "field 'k3': must be a number from -100 to 100");
	ck_assert_int_eq(proto_get_number(o, "k4", true, -100, 100, &d, &err), -1);
	ck_assert(d == 7.0);

	bool b = false;
	ck_assert_int_eq(proto_get_bool(o, "t", true, &b, &err), 1);
	ck_assert(b);
	ck_assert_int_eq(proto_get_bool(o, "f", true, &b, &err), 1);
	ck_assert(!b);
	ck_assert_int_eq(proto_get_bool(o, "n", true, &b, &err), -1);
	ck_assert_str_eq(err.message, "field 'n': must be true or false, not a number");
	ck_assert_int_eq(proto_get_bool(o, "s", true, &b, &err), -1);

	const char *s = NULL;
	ck_assert_int_eq(proto_get_string(o, "s", true, 5, &s, &err), 1);
	ck_assert_str_eq(s, "hello");
	s = NULL;
	ck_assert_int_eq(proto_get_string(o, "s", true, 4, &s, &err), -1);
	ck_assert_str_eq(err.message, "field 's': must be at most 4 bytes");
	ck_assert_ptr_null(s);
	ck_assert_int_eq(proto_get_string(o, "x", true, 4, &s, &err), -1);
	ck_assert_str_eq(err.message, "field 'x': must be a string, not an array");
	ck_assert_int_eq(proto_get_string(o, "none", false, 4, &s, &err), 0);
	ck_assert_ptr_null(s);
	json_decref(o);

	/* a string built with a NUL inside (not from the parser) */
	o = json_object();
	json_object_set_new(o, "s", json_stringn("a\0b", 3));
	ck_assert_int_eq(proto_get_string(o, "s", true, 10, &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.message, "NUL"));
	json_decref(o);
}
END_TEST

START_TEST(get_id_field)
{
	struct proto_error err;
	json_t *o = obj("{\"a\":1,\"b\":0,\"c\":-3,\"d\":1.5,\"e\":\"12\",\"f\":9007199254740992,"
			"\"g\":9007199254740991}");
	int64_t v = 0;
	ck_assert_int_eq(proto_get_id(o, "a", true, &v, &err), 1);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(proto_get_id(o, "b", true, &v, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.message, "field 'b': must be an integer from 1 to"));
	ck_assert_int_eq(proto_get_id(o, "c", true, &v, &err), -1);
	ck_assert_int_eq(proto_get_id(o, "d", true, &v, &err), -1);
	ck_assert_int_eq(proto_get_id(o, "e", true, &v, &err), -1);
	ck_assert_int_eq(proto_get_id(o, "f", true, &v, &err), -1);
	ck_assert_int_eq(proto_get_id(o, "g", true, &v, &err), 1);
	ck_assert_int_eq(v, PROTO_ID_MAX);
	ck_assert_int_eq(proto_get_id(o, "game", true, &v, &err), -1);
	ck_assert_str_eq(err.message, "field 'game' is required");
	json_decref(o);
}
END_TEST

START_TEST(get_name_password)
{
	struct proto_error err;
	json_t *o = obj("{\"a\":\"alice\",\"b\":\"A.b-c_9\",\"c\":\"abcdefghijabcdefghijabcdefghij12\","
			"\"d\":\"abcdefghijabcdefghijabcdefghij123\",\"e\":\"\",\"f\":\"a b\","
			"\"g\":\"\xc3\xa9t\xc3\xa9\",\"h\":123,\"i\":\"a/b\"}");
	const char *s;
	ck_assert_int_eq(proto_get_name(o, "a", true, &s, &err), 1);
	ck_assert_str_eq(s, "alice");
	ck_assert_int_eq(proto_get_name(o, "b", true, &s, &err), 1);
	ck_assert_int_eq(proto_get_name(o, "c", true, &s, &err), 1); /* 32 */
	ck_assert_uint_eq(strlen(s), PROTO_NAME_MAX);
	const char *bad[] = {"d", "e", "f", "g", "h", "i"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		s = NULL;
		ck_assert_msg(proto_get_name(o, bad[i], true, &s, &err) == -1, "name %s", bad[i]);
		ck_assert_int_eq(err.code, PROTO_ERR_BAD_REQUEST);
		ck_assert_ptr_nonnull(strstr(err.message, "field '"));
		ck_assert_ptr_null(s);
	}
	ck_assert_int_eq(proto_get_name(o, "d", true, &s, &err), -1);
	ck_assert_str_eq(err.message,
			 "field 'd': a name is 1 to 32 characters of A-Z a-z 0-9 _ . -");
	json_decref(o);

	char big[PROTO_PASSWORD_MAX + 2];
	memset(big, 'p', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	o = obj("{\"p8\":\"12345678\",\"p7\":\"1234567\",\"pn\":12345678}");
	json_object_set_new(o, "pbig", json_string(big));
	big[PROTO_PASSWORD_MAX] = '\0';
	json_object_set_new(o, "pmax", json_string(big));
	ck_assert_int_eq(proto_get_password(o, "p8", true, &s, &err), 1);
	ck_assert_int_eq(proto_get_password(o, "pmax", true, &s, &err), 1);
	ck_assert_int_eq(proto_get_password(o, "p7", true, &s, &err), -1);
	ck_assert_str_eq(err.message, "field 'p7': too short: a password is at least 8 characters"
			 " (bytes of UTF-8: a letter outside ASCII counts 2 to 4)");
	ck_assert_int_eq(proto_get_password(o, "pbig", true, &s, &err), -1);
	ck_assert_int_eq(proto_get_password(o, "pn", true, &s, &err), -1);
	ck_assert_int_eq(proto_get_password(o, "password", true, &s, &err), -1);
	json_decref(o);
}
END_TEST

/* A line of text for people and exports: no control characters (a tab in a tournament's name
 * was stored, then every h9, html and json export of the event failed). */
START_TEST(get_text_field)
{
	struct proto_error err;
	const char *s = NULL;
	json_t *o = obj("{\"ok\":\"Coupe de Lyon \u00e9t\u00e9 \u56f2\u7881\",\"tab\":\"Tab\\ty\","
			"\"nl\":\"a\\nb\",\"esc\":\"\\u001b[2J\",\"del\":\"a\\u007f\",\"c1\":\"a\\u0085b\","
			"\"n\":3,\"long\":\"abcdef\"}");
	ck_assert_int_eq(proto_get_text(o, "ok", true, 64, &s, &err), 1);
	ck_assert_str_eq(s, "Coupe de Lyon \u00e9t\u00e9 \u56f2\u7881");
	const char *bad[] = {"tab", "nl", "esc", "del", "c1"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		s = NULL;
		ck_assert_int_eq(proto_get_text(o, bad[i], true, 64, &s, &err), -1);
		ck_assert_ptr_null(s);
		ck_assert_msg(strstr(err.message, "control characters"), "%s: %s", bad[i], err.message);
		ck_assert_int_eq(err.code, PROTO_ERR_BAD_REQUEST);
	}
	ck_assert_int_eq(proto_get_text(o, "n", true, 64, &s, &err), -1);
	ck_assert_int_eq(proto_get_text(o, "long", true, 5, &s, &err), -1);
	ck_assert_int_eq(proto_get_text(o, "absent", false, 5, &s, &err), 0);
	json_decref(o);
}
END_TEST

START_TEST(get_color_choice)
{
	struct proto_error err;
	json_t *o = obj("{\"b\":\"B\",\"w\":\"W\",\"l\":\"b\",\"x\":\"black\",\"c\":\"white\","
			"\"d\":\"grey\"}");
	enum color c = EMPTY;
	ck_assert_int_eq(proto_get_color(o, "b", true, &c, &err), 1);
	ck_assert_int_eq(c, BLACK);
	ck_assert_int_eq(proto_get_color(o, "w", true, &c, &err), 1);
	ck_assert_int_eq(c, WHITE);
	ck_assert_int_eq(proto_get_color(o, "l", true, &c, &err), -1);
	ck_assert_str_eq(err.message, "field 'l': must be \"B\" or \"W\"");
	ck_assert_int_eq(proto_get_color(o, "x", true, &c, &err), -1);
	ck_assert_int_eq(c, WHITE);

	static const char *const colors[] = {"nigiri", "black", "white"};
	int i = -1;
	ck_assert_int_eq(proto_get_choice(o, "c", true, colors, 3, &i, &err), 1);
	ck_assert_int_eq(i, 2);
	ck_assert_int_eq(proto_get_choice(o, "d", true, colors, 3, &i, &err), -1);
	ck_assert_str_eq(err.message, "field 'd': must be one of \"nigiri\", \"black\", \"white\"");
	ck_assert_int_eq(proto_get_choice(o, "color", false, colors, 3, &i, &err), 0);
	ck_assert_int_eq(i, 2);
	json_decref(o);
}
END_TEST

START_TEST(vertex_fields)
{
	struct proto_error err;
	json_t *o = obj("{\"a\":\"D4\",\"b\":\"q16\",\"c\":\"pass\",\"d\":\"PASS\",\"e\":\"Z25\","
			"\"vertex\":\"Z99\",\"f\":\"I5\",\"g\":\"A0\",\"h\":\"4D\",\"i\":\"\","
			"\"j\":5,\"k\":\"D4 \",\"l\":\"A26\"}");
	const char *s;
	const char *good[] = {"a", "b", "c", "d", "e"};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++)
		ck_assert_msg(proto_get_vertex(o, good[i], true, &s, &err) == 1, "vertex %s", good[i]);
	ck_assert_int_eq(proto_get_vertex(o, "vertex", true, &s, &err), -1);
	ck_assert_str_eq(err.message, "field 'vertex': 'Z99' is not a vertex");
	const char *bad[] = {"f", "g", "h", "i", "j", "k", "l"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		ck_assert_msg(proto_get_vertex(o, bad[i], true, &s, &err) == -1, "vertex %s", bad[i]);
		ck_assert_int_eq(err.code, PROTO_ERR_BAD_REQUEST);
	}
	json_decref(o);

	int x = -1, y = -1;
	ck_assert_int_eq(proto_vertex_check("vertex", "J9", 9, &x, &y, &err), 1);
	ck_assert_int_eq(x, 8);
	ck_assert_int_eq(y, 8);
	ck_assert_int_eq(proto_vertex_check("vertex", "a1", 9, &x, &y, &err), 1);
	ck_assert_int_eq(x, 0);
	ck_assert_int_eq(y, 0);
	ck_assert_int_eq(proto_vertex_check("vertex", "pass", 9, &x, &y, &err), 0);
	ck_assert_int_eq(proto_vertex_check("vertex", "T19", 9, &x, &y, &err), -1);
	ck_assert_str_eq(err.message, "field 'vertex': 'T19' is off the 9x9 board");
	ck_assert_int_eq(proto_vertex_check("vertex", "T19", 19, NULL, NULL, &err), 1);
	ck_assert_int_eq(proto_vertex_check("vertex", "T20", 19, NULL, NULL, &err), -1);
	ck_assert_int_eq(proto_vertex_check("vertex", "Z99", 19, NULL, NULL, &err), -1);
	ck_assert_str_eq(err.message, "field 'vertex': 'Z99' is not a vertex");
}
END_TEST

START_TEST(vertex_lists)
{
	struct proto_error err;
	json_t *o = obj("{\"a\":[\"D4\",\"pass\",\"c3\"],\"b\":[],\"c\":[\"D4\",5],\"d\":[\"D4\",\"X\"],"
			"\"e\":\"D4\",\"f\":[\"A1\",\"A2\",\"A3\"]}");
	const json_t *arr = NULL;
	ck_assert_int_eq(proto_get_vertices(o, "a", true, 10, &arr, &err), 1);
	ck_assert_uint_eq(json_array_size(arr), 3);
	ck_assert_int_eq(proto_get_vertices(o, "b", true, 10, &arr, &err), 1);
	ck_assert_uint_eq(json_array_size(arr), 0);
	ck_assert_int_eq(proto_get_vertices(o, "c", true, 10, &arr, &err), -1);
	ck_assert_str_eq(err.message, "field 'c': entry 2 must be a vertex string, not a number");
	ck_assert_int_eq(proto_get_vertices(o, "d", true, 10, &arr, &err), -1);
	ck_assert_str_eq(err.message, "field 'd': 'X' is not a vertex");
	ck_assert_int_eq(proto_get_vertices(o, "e", true, 10, &arr, &err), -1);
	ck_assert_str_eq(err.message, "field 'e': must be an array, not a string");
	ck_assert_int_eq(proto_get_vertices(o, "f", true, 2, &arr, &err), -1);
	ck_assert_str_eq(err.message, "field 'f': must have at most 2 entries");
	ck_assert_int_eq(proto_get_array(o, "c", true, 2, &arr, &err), 1);
	ck_assert_int_eq(proto_get_array(o, "e", true, 2, &arr, &err), -1);
	json_decref(o);
}
END_TEST

/* Parse `{"time": <s>}` with proto_get_time. */
static int time_of(const char *s, struct proto_time *t, struct proto_error *err)
{
	char buf[512];
	snprintf(buf, sizeof buf, "{\"time\":%s}", s);
	json_t *o = obj(buf);
	int r = proto_get_time(o, "time", true, t, err);
	json_decref(o);
	return r;
}

START_TEST(time_valid)
{
	struct proto_time t;
	struct proto_error err;
	ck_assert_int_eq(time_of("{\"system\":\"byoyomi\",\"main_s\":600,\"periods\":3,"
				 "\"period_s\":30}", &t, &err), 1);
	ck_assert_int_eq(t.system, PROTO_TIME_BYOYOMI);
	ck_assert_int_eq(t.main_ms, 600000);
	ck_assert_int_eq(t.periods, 3);
	ck_assert_int_eq(t.period_ms, 30000);
	ck_assert_int_eq(time_of("{\"system\":\"canadian\",\"main_s\":600,\"stones\":25,"
				 "\"period_s\":300,\"carry\":true}", &t, &err), 1);
	ck_assert_int_eq(t.system, PROTO_TIME_CANADIAN);
	ck_assert_int_eq(t.stones, 25);
	ck_assert_int_eq(t.period_ms, 300000);
	ck_assert(t.carry);
	ck_assert_int_eq(time_of("{\"system\":\"canadian\",\"main_s\":0,\"stones\":10,"
				 "\"period_s\":60}", &t, &err), 1);
	ck_assert(t.carry); /* default */
	ck_assert_int_eq(time_of("{\"system\":\"canadian\",\"main_s\":0,\"stones\":10,"
				 "\"period_s\":60,\"carry\":false}", &t, &err), 1);
	ck_assert(!t.carry);
	ck_assert_int_eq(time_of("{\"system\":\"fischer\",\"main_s\":300,\"increment_s\":10,"
				 "\"max_s\":600}", &t, &err), 1);
	ck_assert_int_eq(t.system, PROTO_TIME_FISCHER);
	ck_assert_int_eq(t.increment_ms, 10000);
	ck_assert_int_eq(t.max_ms, 600000);
	ck_assert_int_eq(time_of("{\"system\":\"fischer\",\"main_s\":300,\"increment_s\":2.5}",
				 &t, &err), 1);
	ck_assert_int_eq(t.increment_ms, 2500);
	ck_assert_int_eq(t.max_ms, 0);
	ck_assert_int_eq(time_of("{\"system\":\"absolute\",\"main_s\":1800}", &t, &err), 1);
	ck_assert_int_eq(t.system, PROTO_TIME_ABSOLUTE);
	ck_assert_int_eq(t.main_ms, 1800000);
	ck_assert_int_eq(time_of("{\"system\":\"none\"}", &t, &err), 1);
	ck_assert_int_eq(t.system, PROTO_TIME_NONE);
	ck_assert_int_eq(t.main_ms, 0);

	/* absent and optional */
	json_t *o = obj("{}");
	t.system = PROTO_TIME_FISCHER;
	ck_assert_int_eq(proto_get_time(o, "time", false, &t, &err), 0);
	ck_assert_int_eq(t.system, PROTO_TIME_FISCHER);
	json_decref(o);
}
END_TEST

START_TEST(time_invalid)
{
	static const struct {
		const char *json;
		const char *message;
	} cases[] = {
		{"600", "field 'time': must be a time-control object, not a number"},
		{"\"byoyomi\"", "field 'time': must be a time-control object, not a string"},
		{"{}", "field 'time.system' is required"},
		{"{\"system\":\"hourglass\"}", "field 'time.system': must be one of \"none\", "
					       "\"absolute\", \"byoyomi\", \"canadian\", \"fischer\""},
		{"{\"system\":1}", "field 'time.system': must be a string, not a number"},
		{"{\"system\":\"byoyomi\",\"main_s\":600,\"period_s\":30}",
		 "field 'time.periods' is required"},
		{"{\"system\":\"byoyomi\",\"main_s\":600,\"periods\":0,\"period_s\":30}",
		 "field 'time.periods': must be an integer from 1 to 100"},
		{"{\"system\":\"byoyomi\",\"main_s\":600,\"periods\":1.5,\"period_s\":30}",
		 "field 'time.periods': must be an integer from 1 to 100"},
		{"{\"system\":\"byoyomi\",\"main_s\":600,\"periods\":3,\"period_s\":0}",
		 "field 'time.period_s': must be a number from 1 to 86400"},
		{"{\"system\":\"byoyomi\",\"main_s\":-1,\"periods\":3,\"period_s\":30}",
		 "field 'time.main_s': must be a number from 0 to 604800"},
		{"{\"system\":\"byoyomi\",\"main_s\":\"600\",\"periods\":3,\"period_s\":30}",
		 "field 'time.main_s': must be a number from 0 to 604800"},
		{"{\"system\":\"byoyomi\",\"main_s\":1e9,\"periods\":3,\"period_s\":30}",
		 "field 'time.main_s': must be a number from 0 to 604800"},
		{"{\"system\":\"byoyomi\",\"main_s\":600,\"periods\":3,\"period_s\":30,\"stones\":5}",
		 "field 'time.stones' does not apply to byoyomi"},
		{"{\"system\":\"none\",\"main_s\":600}", "field 'time.main_s' does not apply to none"},
		{"{\"system\":\"absolute\",\"main_s\":0}",
		 "field 'time.main_s': must be a number from 1 to 604800"},
		{"{\"system\":\"absolute\"}", "field 'time.main_s' is required"},
		{"{\"system\":\"canadian\",\"main_s\":600,\"stones\":25,\"period_s\":300,"
		 "\"carry\":\"yes\"}", "field 'time.carry': must be true or false, not a string"},
		{"{\"system\":\"canadian\",\"main_s\":600,\"stones\":0,\"period_s\":300}",
		 "field 'time.stones': must be an integer from 1 to 1000"},
		{"{\"system\":\"canadian\",\"main_s\":600,\"period_s\":300}",
		 "field 'time.stones' is required"},
		{"{\"system\":\"fischer\",\"main_s\":300,\"increment_s\":10,\"max_s\":200}",
		 "field 'time.max_s': must be positive and at least main_s"},
		{"{\"system\":\"fischer\",\"main_s\":0,\"increment_s\":0}",
		 "field 'time': fischer needs main_s or increment_s above 0"},
		{"{\"system\":\"fischer\",\"main_s\":300}", "field 'time.increment_s' is required"},
		{"{\"system\":\"fischer\",\"main_s\":300,\"increment_s\":10,\"periods\":3}",
		 "field 'time.periods' does not apply to fischer"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct proto_time t = {.system = PROTO_TIME_ABSOLUTE, .main_ms = 123};
		struct proto_error err = {0};
		ck_assert_msg(time_of(cases[i].json, &t, &err) == -1, "accepted %s", cases[i].json);
		ck_assert_int_eq(err.code, PROTO_ERR_BAD_REQUEST);
		ck_assert_str_eq(err.message, cases[i].message);
		ck_assert_int_eq(t.system, PROTO_TIME_ABSOLUTE); /* untouched */
		ck_assert_int_eq(t.main_ms, 123);
	}
}
END_TEST

START_TEST(time_to_json)
{
	struct proto_time t = {.system = PROTO_TIME_BYOYOMI, .main_ms = 600000, .periods = 3,
			       .period_ms = 30000};
	json_t *j = proto_time_to_json(&t);
	char *s = proto_serialize(j, NULL);
	ck_assert_str_eq(s, "{\"system\":\"byoyomi\",\"main_s\":600,\"periods\":3,\"period_s\":30}\n");
	free(s);
	json_decref(j);
	t = (struct proto_time){.system = PROTO_TIME_FISCHER, .main_ms = 300000,
				.increment_ms = 2500};
	j = proto_time_to_json(&t);
	s = proto_serialize(j, NULL);
	ck_assert_str_eq(s, "{\"system\":\"fischer\",\"main_s\":300,\"increment_s\":2.5}\n");
	/* and it reads back the same */
	json_t *o = json_pack("{s:O}", "time", j);
	struct proto_time back;
	struct proto_error err;
	ck_assert_int_eq(proto_get_time(o, "time", true, &back, &err), 1);
	ck_assert_int_eq(back.increment_ms, 2500);
	ck_assert_int_eq(back.main_ms, 300000);
	json_decref(o);
	free(s);
	json_decref(j);
	ck_assert_str_eq(proto_time_system_name(PROTO_TIME_CANADIAN), "canadian");
}
END_TEST

START_TEST(rules_valid)
{
	struct proto_error err;
	struct rules r;
	rules_default(&r);
	json_t *o = obj("{\"a\":{},\"b\":{\"ko\":\"positional\",\"illegal\":\"lose\",\"cycle\":\"void\","
			"\"counting\":\"all-alive\",\"last_period\":\"pass\"},\"c\":{\"ko\":\"simple\"}}");
	ck_assert_int_eq(proto_get_rules(o, "a", true, &r, &err), 1);
	ck_assert_int_eq(r.ko, KO_SITUATIONAL);
	ck_assert_int_eq(proto_get_rules(o, "b", true, &r, &err), 1);
	ck_assert_int_eq(r.ko, KO_POSITIONAL);
	ck_assert_int_eq(r.illegal, ILLEGAL_LOSE);
	ck_assert_int_eq(r.cycle, CYCLE_VOID);
	ck_assert_int_eq(r.counting, COUNTING_ALL_ALIVE);
	ck_assert_int_eq(r.last_period, LAST_PERIOD_PASS);
	rules_default(&r);
	ck_assert_int_eq(proto_get_rules(o, "c", true, &r, &err), 1);
	ck_assert_int_eq(r.ko, KO_SIMPLE);
	ck_assert_int_eq(r.illegal, ILLEGAL_FORFEIT); /* kept */
	ck_assert_int_eq(proto_get_rules(o, "rules", false, &r, &err), 0);
	json_decref(o);

	json_t *j = proto_rules_to_json(&r);
	char *s = proto_serialize(j, NULL);
	ck_assert_str_eq(s, "{\"ko\":\"simple\",\"illegal\":\"forfeit\",\"cycle\":\"forbid\","
			    "\"counting\":\"agreement\",\"last_period\":\"lose\"}\n");
	free(s);
	json_decref(j);

	/* the prediction ruleset's options, read and sent back */
	o = obj("{\"rules\":{\"ruleset\":\"prediction\",\"decisive\":true,\"predict_s\":45}}");
	rules_default(&r);
	ck_assert_int_eq(proto_get_rules(o, "rules", true, &r, &err), 1);
	ck_assert_int_eq(r.ruleset, RULESET_PREDICTION);
	ck_assert(r.decisive);
	ck_assert_int_eq(r.predict_s, 45);
	json_decref(o);
	j = proto_rules_to_json(&r);
	s = proto_serialize(j, NULL);
	/* Art. 5.4's repetition is positional, and the game says so */
	ck_assert_int_eq(r.ko, KO_POSITIONAL);
	ck_assert_str_eq(s, "{\"ko\":\"positional\",\"illegal\":\"forfeit\",\"cycle\":\"forbid\","
			    "\"counting\":\"agreement\",\"last_period\":\"lose\",\"ruleset\":"
			    "\"prediction\",\"decisive\":true,\"predict_s\":45}\n");
	free(s);
	json_decref(j);
	/* as it is said when given; a game an older tengend stored as situational is sent as
	 * played: positional */
	o = obj("{\"rules\":{\"ko\":\"positional\",\"ruleset\":\"prediction\","
		"\"illegal\":\"forfeit\",\"cycle\":\"forbid\"}}");
	rules_default(&r);
	ck_assert_int_eq(proto_get_rules(o, "rules", true, &r, &err), 1);
	ck_assert_int_eq(r.ko, KO_POSITIONAL);
	json_decref(o);
	r.ko = KO_SITUATIONAL;
	j = proto_rules_to_json(&r);
	ck_assert_str_eq(json_string_value(json_object_get(j, "ko")), "positional");
	json_decref(j);
	/* what an older tengend stored for a prediction game or event is read, as judged: a
	 * live game or an event's next round must not fail to load after an upgrade */
	o = obj("{\"rules\":{\"ko\":\"situational\",\"illegal\":\"forfeit\",\"cycle\":\"forbid\","
		"\"counting\":\"agreement\",\"last_period\":\"lose\",\"ruleset\":\"prediction\","
		"\"decisive\":false}}");
	rules_default(&r);
	ck_assert_int_eq(proto_get_rules(o, "rules", true, &r, &err), -1);
	ck_assert_int_eq(proto_get_rules_stored(o, "rules", true, &r, &err), 1);
	ck_assert_int_eq(r.ko, KO_POSITIONAL);
	ck_assert_int_eq(r.ruleset, RULESET_PREDICTION);
	json_decref(o);
}
END_TEST

START_TEST(rules_invalid)
{
	static const struct {
		const char *json;
		const char *message;
	} cases[] = {
		{"\"simple\"", "field 'rules': must be a rules object, not a string"},
		{"[]", "field 'rules': must be a rules object, not an array"},
		{"{\"ko\":\"super\"}",
		 "field 'rules.ko': must be one of \"situational\", \"positional\", \"simple\""},
		{"{\"ko\":1}", "field 'rules.ko': must be a string, not a number"},
		{"{\"illegal\":\"warn\"}", "field 'rules.illegal': must be one of \"forfeit\", \"lose\""},
		{"{\"cycle\":\"draw\"}", "field 'rules.cycle': must be one of \"forbid\", \"void\""},
		{"{\"counting\":\"area\"}",
		 "field 'rules.counting': must be one of \"agreement\", \"all-alive\""},
		{"{\"last_period\":\"Lose\"}",
		 "field 'rules.last_period': must be one of \"lose\", \"pass\""},
		{"{\"ruleset\":\"japanese\"}",
		 "field 'rules.ruleset': must be one of \"chinese\", \"prediction\""},
		{"{\"decisive\":1}", "field 'rules.decisive': must be true or false, not a number"},
		{"{\"predict_s\":0}", "field 'rules.predict_s': must be an integer from 1 to 86400"},
		/* seed 000 decides these: refused, not ignored */
		{"{\"ruleset\":\"prediction\",\"ko\":\"simple\"}",
		 "field 'rules.ko': the prediction ruleset has only \"positional\" (seed 000: any "
		 "whole-board recurrence loses, Art. 5.4)"},
		{"{\"ko\":\"situational\",\"ruleset\":\"prediction\"}",
		 "field 'rules.ko': the prediction ruleset has only \"positional\" (seed 000: any "
		 "whole-board recurrence loses, Art. 5.4)"},
		{"{\"ruleset\":\"prediction\",\"cycle\":\"void\"}",
		 "field 'rules.cycle': the prediction ruleset has only \"forbid\" (seed 000: a "
		 "repetition loses at once, Art. 5.4)"},
		{"{\"ruleset\":\"prediction\",\"illegal\":\"lose\"}",
		 "field 'rules.illegal': the prediction ruleset has only \"forfeit\" (seed 000: a "
		 "repetition loses, an occupied point is refused without penalty)"},
		{"{\"ko\":\"simple\",\"komi\":6.5}",
		 "field 'rules.komi' is not a rules option (ko, illegal, cycle, counting, last_period, "
		 "ruleset, decisive, predict_s)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char buf[256];
		snprintf(buf, sizeof buf, "{\"rules\":%s}", cases[i].json);
		json_t *o = obj(buf);
		struct rules r;
		rules_default(&r);
		struct proto_error err = {0};
		ck_assert_msg(proto_get_rules(o, "rules", true, &r, &err) == -1, "accepted %s",
			      cases[i].json);
		ck_assert_int_eq(err.code, PROTO_ERR_BAD_REQUEST);
		ck_assert_str_eq(err.message, cases[i].message);
		ck_assert_int_eq(r.ko, KO_SITUATIONAL); /* untouched */
		json_decref(o);
	}
	/* a valid key before a bad one changes nothing */
	json_t *o = obj("{\"rules\":{\"ko\":\"simple\",\"illegal\":\"bad\"}}");
	struct rules r;
	rules_default(&r);
	struct proto_error err;
	ck_assert_int_eq(proto_get_rules(o, "rules", true, &r, &err), -1);
	ck_assert_int_eq(r.ko, KO_SITUATIONAL);
	json_decref(o);
}
END_TEST

/* ============================ replies and events ============================ */

START_TEST(reply_ok_serialized)
{
	json_t *id = json_integer(7);
	json_t *r = proto_reply_ok(id);
	json_decref(id);
	ck_assert_ptr_nonnull(r);
	json_object_set_new(r, "move", json_pack("{s:i, s:s, s:s, s:[]}", "number", 1, "color", "B",
						 "vertex", "D4", "captures"));
	size_t len = 0;
	char *s = proto_serialize(r, &len);
	ck_assert_str_eq(s, "{\"id\":7,\"ok\":true,\"move\":{\"number\":1,\"color\":\"B\","
			    "\"vertex\":\"D4\",\"captures\":[]}}\n");
	ck_assert_uint_eq(len, strlen(s));
	free(s);
	json_decref(r);

	r = proto_reply_ok(NULL);
	s = proto_serialize(r, NULL);
	ck_assert_str_eq(s, "{\"id\":null,\"ok\":true}\n");
	free(s);
	json_decref(r);
}
END_TEST

START_TEST(reply_error_serialized)
{
	json_t *id = json_string("q1");
	json_t *r = proto_reply_error(id, PROTO_ERR_ILLEGAL_MOVE, "D4 is occupied");
	json_decref(id);
	json_object_set_new(json_object_get(r, "error"), "reason", json_string("occupied"));
	char *s = proto_serialize(r, NULL);
	ck_assert_str_eq(s, "{\"id\":\"q1\",\"ok\":false,\"error\":{\"code\":\"illegal_move\","
			    "\"message\":\"D4 is occupied\",\"reason\":\"occupied\"}}\n");
	free(s);
	json_decref(r);

	/* from a parse error, echoing the id */
	struct proto_request req;
	struct proto_error err;
	ck_assert_int_eq(parse("{\"id\":1.5,\"cmd\":\"fly\"}", &req, &err), -1);
	r = proto_reply_error_from(req.id, &err);
	s = proto_serialize(r, NULL);
	ck_assert_str_eq(s, "{\"id\":1.5,\"ok\":false,\"error\":{\"code\":\"unknown_command\","
			    "\"message\":\"unknown command 'fly'\"}}\n");
	free(s);
	json_decref(r);
	proto_request_free(&req);

	/* an invalid UTF-8 message is repaired, not dropped */
	r = proto_reply_error(NULL, PROTO_ERR_INTERNAL, "bad \xff byte");
	ck_assert_ptr_nonnull(r);
	s = proto_serialize(r, NULL);
	ck_assert_ptr_nonnull(strstr(s, "\"message\":\"bad ? byte\""));
	free(s);
	json_decref(r);
}
END_TEST

START_TEST(errcode_names)
{
	static const char *const want[] = {
		"bad_request", "line_too_long", "unknown_command", "unauthenticated", "forbidden",
		"not_found", "conflict", "illegal_move", "rate_limited", "internal",
	};
	for (int c = PROTO_ERR_BAD_REQUEST; c <= PROTO_ERR_INTERNAL; c++)
		ck_assert_str_eq(proto_errcode_name((enum proto_errcode)c), want[c - 1]);
	ck_assert_str_eq(proto_errcode_name((enum proto_errcode)99), "internal");
}
END_TEST

START_TEST(event_serialized)
{
	json_t *e = proto_event("game.move");
	json_object_set_new(e, "game", json_integer(12));
	json_object_set_new(e, "black", json_string("\xe5\x90\x8d\xe5\x89\x8d")); /* 名前 */
	char *s = proto_serialize(e, NULL);
	ck_assert_str_eq(s, "{\"event\":\"game.move\",\"game\":12,"
			    "\"black\":\"\xe5\x90\x8d\xe5\x89\x8d\"}\n");
	ck_assert_ptr_null(strchr(s, ' '));
	ck_assert_ptr_eq(strchr(s, '\n'), s + strlen(s) - 1); /* one line */
	free(s);
	json_decref(e);
	/* a newline inside a string is escaped, so the line stays one line */
	e = proto_event("x");
	json_object_set_new(e, "t", json_string("a\nb"));
	s = proto_serialize(e, NULL);
	ck_assert_str_eq(s, "{\"event\":\"x\",\"t\":\"a\\nb\"}\n");
	free(s);
	json_decref(e);
}
END_TEST

START_TEST(error_set_truncates)
{
	struct proto_error err;
	char big[PROTO_ERROR_MESSAGE_MAX + 1000];
	memset(big, 'a', sizeof big);
	memcpy(big + PROTO_ERROR_MESSAGE_MAX - 3, "\xe5\x90\x8d", 3); /* straddles the end */
	big[sizeof big - 1] = '\0';
	ck_assert_int_eq(proto_error_set(&err, PROTO_ERR_CONFLICT, "%s", big), -1);
	ck_assert_int_eq(err.code, PROTO_ERR_CONFLICT);
	ck_assert_uint_lt(strlen(err.message), PROTO_ERROR_MESSAGE_MAX);
	json_t *s = json_string(err.message);
	ck_assert_ptr_nonnull(s);
	json_decref(s);
	ck_assert_int_eq(proto_error_set(NULL, PROTO_ERR_CONFLICT, "x"), -1);
}
END_TEST

static Suite *proto_suite(void)
{
	Suite *s = suite_create("proto");
	TCase *p = tcase_create("parse");
	tcase_add_test(p, parse_valid);
	tcase_add_test(p, parse_id_kinds);
	tcase_add_test(p, parse_not_json);
	tcase_add_test(p, parse_bad_bytes);
	tcase_add_test(p, parse_not_object);
	tcase_add_test(p, parse_bad_cmd);
	tcase_add_test(p, parse_unknown_command);
	suite_add_tcase(s, p);

	TCase *t = tcase_create("table");
	tcase_add_test(t, table_complete);
	tcase_add_test(t, table_names_and_roles);
	suite_add_tcase(s, t);

	TCase *v = tcase_create("fields");
	tcase_add_test(v, get_int_field);
	tcase_add_test(v, get_number_bool_string);
	tcase_add_test(v, get_id_field);
	tcase_add_test(v, get_name_password);
	tcase_add_test(v, get_color_choice);
	tcase_add_test(v, get_text_field);
	tcase_add_test(v, vertex_fields);
	tcase_add_test(v, vertex_lists);
	tcase_add_test(v, time_valid);
	tcase_add_test(v, time_invalid);
	tcase_add_test(v, time_to_json);
	tcase_add_test(v, rules_valid);
	tcase_add_test(v, rules_invalid);
	suite_add_tcase(s, v);

	TCase *r = tcase_create("replies");
	tcase_add_test(r, reply_ok_serialized);
	tcase_add_test(r, reply_error_serialized);
	tcase_add_test(r, errcode_names);
	tcase_add_test(r, event_serialized);
	tcase_add_test(r, error_set_truncates);
	suite_add_tcase(s, r);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(proto_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
