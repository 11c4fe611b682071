/* Integration tests of a session with tengend (TENGEND, else ./server/tengend), driven over TCP
 * through tests/support/harness and tests/support/srvtest, against the contract (docs/protocol.md): hello and
 * ping, accounts, the login rate limits, bad input of every kind (framing, UTF-8, types, ids,
 * line length, settings, vertices), the per-address connection limit and a reader too slow for
 * its games' events.
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon in a fresh
 * directory; the daemon must stop cleanly on SIGTERM (exit status 0) and its log must hold no
 * AddressSanitizer, UBSan or LeakSanitizer report. Boards are 9x9 unless said otherwise;
 * vertices are GTP ("D4", no I column).
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include "harness.h"
#include "srvtest.h"

#define TEST_TIMEOUT_S 60          /* per test (Check's own timeout) */
#define SLOW_MAX_QUEUED "65536"    /* --max-queued of the slow-reader daemon */
#define SLOW_RCVBUF 1              /* the stuck reader's receive buffer: the kernel's least */
#define SLOW_BOARD 25              /* board of the slow-reader games */
#define SLOW_GAMES 8               /* games the stuck reader observes */
#define SLOW_MSS 536               /* the stuck reader's TCP segment size (IPv4's default) */
#define SLOW_PROMPT_MS 1000        /* a player's reply while the reader is stuck */
#define PER_ADDRESS "5"            /* --max-per-address of the connection-limit daemon */
#define BIG_LINE (10u << 20)       /* the 10 MB line */
#define MAX_LINE 65536             /* docs/protocol.md: bytes in a line */
#define HALF_CLOSE_LINES 3000     /* pings sent before a half-close */
#define LOGIN_FAILS 5              /* SERVER_LOGIN_FAILS: per name and address */
#define PWHASH_NICE 10             /* SERVER_PWHASH_NICE: the hashing threads' nice */
#define LOGIN_NAME_FAILS 20        /* failures for one name from many addresses (no lock: issue 20) */

static struct hd D; /* the default daemon of the fixture */

static void setup(void)
{
	st_start(&D, NULL);
}

static void teardown(void)
{
	st_finish(&D);
}

/* ---- session ---- */

START_TEST(test_hello_ping)
{
	struct hc *c = st_conn(&D);
	json_t *r = hc_req(c, "{s:s, s:i, s:s}", "cmd", "hello", "protocol", 1, "client", "itest");
	OK(r);
	ck_assert_int_eq(hj_int(r, "protocol"), 1);
	ck_assert_msg(hj_str(r, "server") && *hj_str(r, "server"), "no server name: %s", hj_text(r));
	ck_assert_msg(json_is_array(hj_get(r, "capabilities")), "no capabilities: %s", hj_text(r));
	static const char *const cmds[] = {"hello", "ping", "register", "login", "logout",
		"challenge", "accept", "decline", "play", "resign", "dead", "game", "games", "sgf",
		"observe", "unobserve"};
	for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
		ck_assert_msg(hj_has_str(r, "capabilities", cmds[i]), "capabilities lack %s: %s",
			      cmds[i], hj_text(r));
	json_decref(r);
	r = hc_req(c, "{s:s, s:i}", "cmd", "hello", "protocol", 2);
	ERR_FIELD(r, "bad_request", "protocol");
	json_decref(r);
	r = hc_req(c, "{s:s}", "cmd", "ping");
	OK(r);
	ck_assert_msg(json_is_integer(hj_get(r, "id")) && hj_int(r, "id") == c->next_id - 1,
		      "ping id not echoed: %s", hj_text(r));
	json_decref(r);
	hc_close(c);
}
END_TEST

/* The nice value (field 19 of /proc/PID/task/TID/stat) of each of pid's threads: how many
 * have `nice`. */
static int threads_with_nice(pid_t pid, int nice)
{
	char dir[64];
	snprintf(dir, sizeof dir, "/proc/%d/task", (int)pid);
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[sizeof dir + 256 + 8], buf[1024];
		snprintf(path, sizeof path, "%s/%s/stat", dir, e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t len = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[len] = '\0';
		const char *p = strrchr(buf, ')'); /* the name may hold spaces */
		int field = 2, v = 0;
		for (; p && *p && field < 19; p++)
			if (*p == ' ')
				field++;
		if (p && sscanf(p, "%d", &v) == 1 && v == nice)
			n++;
	}
	closedir(d);
	return n;
}

/* A password is hashed on a thread of lower priority (SERVER_PWHASH_NICE) than the loop's: a
 * login flood's hashes took the CPU from the loop on 2 cores (a trial: honest pings p99
 * 196 ms). */
START_TEST(test_pwhash_thread_nice)
{
	ck_assert_int_eq(threads_with_nice(D.pid, PWHASH_NICE), 0);
	struct hc *c = st_conn(&D);
	json_t *r = hc_req(c, "{s:s, s:s, s:s}", "cmd", "register", "name", "nicey", "password",
			   "correct horse");
	OK(r);
	json_decref(r);
	ck_assert_int_ge(threads_with_nice(D.pid, PWHASH_NICE), 1);
	ck_assert_int_ge(threads_with_nice(D.pid, 0), 1); /* the loop's, and the others */
	hc_close(c);
}
END_TEST

START_TEST(test_accounts)
{
	struct hc *c = st_conn(&D);
	json_t *r = hc_req(c, "{s:s, s:s, s:s}", "cmd", "register", "name", "alice", "password", "correct horse");
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "player.name"), "alice");
	ck_assert_pstr_eq(hj_str(r, "player.role"), "player");
	json_decref(r);
	/* Taken, in any case. */
	static const char *const taken[] = {"alice", "ALICE", "Alice"};
	for (size_t i = 0; i < 3; i++) {
		r = hc_req(c, "{s:s, s:s, s:s}", "cmd", "register", "name", taken[i], "password", "another pw");
		ERR(r, "conflict");
		json_decref(r);
	}
	/* Bad names and passwords name their field. */
	static const char *const bad_names[] = {"", "a b", "bob!", "caf\xc3\xa9", "x/y",
		"abcdefghijabcdefghijabcdefghijabc" /* 33 */};
	for (size_t i = 0; i < sizeof bad_names / sizeof *bad_names; i++) {
		r = hc_req(c, "{s:s, s:s, s:s}", "cmd", "register", "name", bad_names[i], "password", "good password");
		ERR_FIELD(r, "bad_request", "name");
		json_decref(r);
	}
	/* a rank out of range names the range the server takes (it said 15k while 30k passes) */
	r = hc_req(c, "{s:s, s:s, s:s, s:s}", "cmd", "register", "name", "rankless", "password",
		   "good password", "rank", "31k");
	ERR_FIELD(r, "bad_request", "rank");
	ck_assert_msg(strstr(hj_str(r, "error.message"), "30k to 1k"), "%s", hj_text(r));
	json_decref(r);
	r = hc_req(c, "{s:s, s:s, s:s}", "cmd", "register", "name", "abcdefghijabcdefghijabcdefghij.-_", "password", "good password");
	ERR_FIELD(r, "bad_request", "name");
	json_decref(r);
	r = hc_req(c, "{s:s, s:s, s:s}", "cmd", "register", "name", "A.b-c_9", "password", "12345678");
	OK(r); /* every allowed character, an 8-byte password */
	json_decref(r);
	r = hc_req(c, "{s:s, s:s, s:s}", "cmd", "register", "name", "bob", "password", "1234567");
	ERR_FIELD(r, "bad_request", "password");
	json_decref(r);
	r = hc_req(c, "{s:s, s:s, s:i}", "cmd", "register", "name", "bob", "password", 12345678);
	ERR_FIELD(r, "bad_request", "password");
	json_decref(r);
	/* Login: right, wrong password, unknown name, case-insensitive name. */
	r = hc_req(c, "{s:s, s:s, s:s}", "cmd", "login", "name", "alice", "password", "wrong password");
	ERR(r, "unauthenticated");
	json_decref(r);
	r = hc_req(c, "{s:s, s:s, s:s}", "cmd", "login", "name", "nobody", "password", "correct horse");
	ERR(r, "unauthenticated");
	json_decref(r);
	/* a password shorter than register's rule is a wrong one, not the rule stated again */
	r = hc_req(c, "{s:s, s:s, s:s}", "cmd", "login", "name", "alice", "password", "short");
	ERR(r, "unauthenticated");
	ck_assert_pstr_eq(hj_str(r, "error.message"), "wrong name or password");
	json_decref(r);
	r = hc_req(c, "{s:s, s:s}", "cmd", "challenge", "opponent", "A.b-c_9");
	ERR(r, "unauthenticated");
	json_decref(r);
	r = hc_req(c, "{s:s, s:s, s:s}", "cmd", "login", "name", "ALICE", "password", "correct horse");
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "player.name"), "alice");
	ck_assert_msg(json_is_integer(hj_get(r, "player.id")), "no player id: %s", hj_text(r));
	ck_assert_pstr_eq(hj_str(r, "player.role"), "player");
	ck_assert_msg(json_is_number(hj_get(r, "player.rating")), "no rating: %s", hj_text(r));
	ck_assert_msg(json_is_number(hj_get(r, "player.rd")), "no rd: %s", hj_text(r));
	ck_assert_msg(hj_get(r, "player.rank") != NULL, "no rank: %s", hj_text(r));
	json_decref(r);
	/* Logged in: a command that needs it gets past the check (and fails on its own terms). */
	r = hc_req(c, "{s:s, s:s}", "cmd", "challenge", "opponent", "nobody");
	ERR(r, "not_found");
	json_decref(r);
	r = hc_req(c, "{s:s}", "cmd", "logout");
	OK(r);
	json_decref(r);
	r = hc_req(c, "{s:s, s:s}", "cmd", "challenge", "opponent", "A.b-c_9");
	ERR(r, "unauthenticated");
	json_decref(r);
	r = hc_req(c, "{s:s}", "cmd", "logout");
	ERR(r, "unauthenticated");
	json_decref(r);
	hc_close(c);
}
END_TEST

/* A client that sends its requests and closes its side (shutdown SHUT_WR, `nc -N`): every
 * complete line is answered in order, a trailing partial line is dropped, then the server
 * closes. Before, the end of file closed the connection at once: 15 of 100 pings answered, 6
 * of 20 challenges never carried out. */
START_TEST(test_half_close)
{
	struct hc *a = st_login(&D, "alice");
	struct hc *b = st_login(&D, "bob");
	for (int round = 0; round < 2; round++) {
		int n = round ? HALF_CLOSE_LINES : 20;
		struct hc *c = st_conn(&D);
		size_t cap = (size_t)n * 128 + 256, len = 0;
		char *buf = malloc(cap);
		ck_assert_ptr_nonnull(buf);
		if (round == 0) { /* a login, then challenges that must all be made */
			len += (size_t)snprintf(buf + len, cap - len, "{\"cmd\":\"login\",\"id\":0,"
						"\"name\":\"alice\",\"password\":\"alice%s\"}\n",
						HARNESS_PASSWORD_SUFFIX);
			for (int i = 1; i < n; i++)
				len += (size_t)snprintf(buf + len, cap - len, "{\"cmd\":\"challenge\","
							"\"id\":%d,\"opponent\":\"bob\",\"size\":9}\n", i);
		} else {
			for (int i = 0; i < n; i++)
				len += (size_t)snprintf(buf + len, cap - len,
							"{\"cmd\":\"ping\",\"id\":%d}\n", i);
		}
		len += (size_t)snprintf(buf + len, cap - len, "{\"cmd\":\"pi"); /* no newline */
		ck_assert_int_eq(hc_send(c, buf, len), 0);
		free(buf);
		ck_assert_int_eq(shutdown(c->fd, SHUT_WR), 0);
		for (int i = 0; i < n; i++) {
			json_t *r = hc_reply(c, T);
			ck_assert_msg(r != NULL, "reply %d of %d missing after the half-close", i, n);
			ck_assert_msg(hj_int(r, "id") == i, "reply out of order: %s", hj_text(r));
			ck_assert_msg(hj_ok(r) || (round == 0 && i > 0 && strcmp(hj_err(r), "rate_limited") == 0),
				      "%s", hj_text(r));
			json_decref(r);
		}
		ck_assert_msg(hc_wait_closed(c, T), "the server did not close after the last reply");
		hc_close(c);
	}
	/* the dropped partial line is not dropped silently */
	ck_assert_msg(hd_log_has(&D, "its unfinished last line (no newline) was dropped"),
		      "the log does not say the partial last line was dropped");
	json_t *r = hc_req(b, "{s:s}", "cmd", "challenges");
	ck_assert_int_eq(hj_int(r, "total"), 19); /* every challenge made */
	json_decref(r);
	hc_close(a);
	hc_close(b);
}
END_TEST

/* login `exclusive` (a bridge's): a second such login of the same player replaces the first,
 * which hears session.replaced and is logged out (still connected); connections without it
 * are left alone, and another player's are not touched. */
START_TEST(test_exclusive_login)
{
	struct hc *reg = st_login(&D, "bot");
	struct hc *other = st_login(&D, "carol");
	struct hc *c[3];
	for (int i = 0; i < 3; i++) {
		c[i] = st_conn(&D);
		json_t *r = hc_req(c[i], "{s:s, s:s, s:s, s:b}", "cmd", "login", "name", "bot",
				   "password", "bot" HARNESS_PASSWORD_SUFFIX, "exclusive", i < 2);
		OK(r);
		json_decref(r);
	}
	json_t *e = hc_event(c[0], "session.replaced", 0, T);
	ck_assert_msg(e != NULL, "the first exclusive login was not told it was replaced");
	ck_assert_msg(json_is_string(hj_get(e, "addr")), "%s", hj_text(e));
	json_decref(e);
	json_t *r = hc_req(c[0], "{s:s, s:s}", "cmd", "challenge", "opponent", "carol");
	ERR(r, "unauthenticated");
	json_decref(r);
	r = hc_req(c[0], "{s:s}", "cmd", "ping"); /* still connected */
	OK(r);
	json_decref(r);
	/* the others are still logged in and were not told anything */
	struct hc *in[] = {c[1], c[2], reg};
	for (size_t i = 0; i < 3; i++) {
		ck_assert(!hc_has_event(in[i], "session.replaced", 0));
		r = hc_req(in[i], "{s:s, s:s}", "cmd", "challenge", "opponent", "nobody");
		ERR(r, "not_found");
		json_decref(r);
	}
	ck_assert(!hc_has_event(other, "session.replaced", 0));
	/* a bad value is refused, naming the field */
	r = hc_req(c[0], "{s:s, s:s, s:s, s:s}", "cmd", "login", "name", "bot", "password",
		   "bot" HARNESS_PASSWORD_SUFFIX, "exclusive", "yes");
	ERR_FIELD(r, "bad_request", "exclusive");
	json_decref(r);
	for (int i = 0; i < 3; i++)
		hc_close(c[i]);
	hc_close(reg);
	hc_close(other);
}
END_TEST

static json_t *login_from(struct hc *c, const char *name, const char *pw)
{
	return hc_req(c, "{s:s, s:s, s:s}", "cmd", "login", "name", name, "password", pw);
}

static struct hc *conn_from(struct hd *d, const char *addr)
{
	struct hc *c = hc_open_ex(d->port, addr, 0, 0);
	ck_assert_msg(c != NULL, "could not connect from %s", addr);
	return c;
}

START_TEST(test_rate_limit_name)
{
	hc_close(st_login(&D, "victim"));
	hc_close(st_login(&D, "other"));
	/* Five failures for one name from one address, in any case: that address is stopped
	 * for that name, but the player still logs in from elsewhere (no lock-out by a stranger). */
	static const char *const spell[LOGIN_FAILS] = {"victim", "VICTIM", "Victim", "vicTim", "victiM"};
	struct hc *g = conn_from(&D, "127.0.0.9");
	for (int i = 0; i < LOGIN_FAILS; i++) {
		json_t *r = login_from(g, spell[i], "not the password");
		ERR(r, "unauthenticated");
		json_decref(r);
	}
	json_t *r = login_from(g, "victim", "victim" HARNESS_PASSWORD_SUFFIX);
	ERR(r, "rate_limited");
	json_decref(r);
	hc_close(g);
	struct hc *own = conn_from(&D, "127.0.0.8");
	r = login_from(own, "victim", "victim" HARNESS_PASSWORD_SUFFIX);
	OK(r);
	json_decref(r);
	hc_close(own);
	/* LOGIN_NAME_FAILS failures for the name from many addresses do not shut it for anyone
	 * else (issue 20, item 9: a stranger cannot lock a player out). */
	for (int i = LOGIN_FAILS; i < LOGIN_NAME_FAILS; i++) {
		char addr[32];
		snprintf(addr, sizeof addr, "127.0.0.%d", 10 + i);
		struct hc *c = conn_from(&D, addr);
		r = login_from(c, spell[i % LOGIN_FAILS], "not the password");
		ERR(r, "unauthenticated");
		json_decref(r);
		hc_close(c);
	}
	struct hc *c = conn_from(&D, "127.0.0.60");
	r = login_from(c, "victim", "victim" HARNESS_PASSWORD_SUFFIX);
	OK(r);
	json_decref(r);
	r = login_from(c, "VICTIM", "victim" HARNESS_PASSWORD_SUFFIX);
	OK(r);
	json_decref(r);
	/* Another name logs in from it. */
	r = login_from(c, "other", "other" HARNESS_PASSWORD_SUFFIX);
	OK(r);
	json_decref(r);
	hc_close(c);
}
END_TEST

START_TEST(test_rate_limit_address)
{
	hc_close(st_login(&D, "dave"));
	hc_close(st_login(&D, "erin"));
	struct hc *c = conn_from(&D, "127.0.0.30");
	static const char *const names[LOGIN_FAILS] = {"erin", "nobody1", "nobody2", "nobody3", "nobody4"};
	for (int i = 0; i < LOGIN_FAILS; i++) {
		json_t *r = login_from(c, names[i], "not the password");
		ERR(r, "unauthenticated");
		json_decref(r);
	}
	/* The sixth try from that address, another name with the right password: the address's
	 * own limit (--login-fails-per-address, 100) is far off (issue 20, item 9);
	 * test_hostile_load reaches it. */
	json_t *r = login_from(c, "dave", "dave" HARNESS_PASSWORD_SUFFIX);
	OK(r);
	json_decref(r);
	struct hc *c2 = conn_from(&D, "127.0.0.30");
	r = login_from(c2, "dave", "dave" HARNESS_PASSWORD_SUFFIX);
	OK(r);
	json_decref(r);
	/* The name is not limited: dave logs in from another address. */
	struct hc *c3 = conn_from(&D, "127.0.0.31");
	r = login_from(c3, "dave", "dave" HARNESS_PASSWORD_SUFFIX);
	OK(r);
	json_decref(r);
	hc_close(c);
	hc_close(c2);
	hc_close(c3);
}
END_TEST

/* ---- bad input ---- */

/* Send raw bytes as one line and return the next reply. */
static json_t *raw(struct hc *c, const char *bytes, size_t len)
{
	char *line = malloc(len + 1);
	ck_assert_ptr_nonnull(line);
	memcpy(line, bytes, len);
	line[len] = '\n';
	ck_assert_msg(hc_send(c, line, len + 1) == 0, "could not send %zu bytes", len + 1);
	free(line);
	json_t *r = hc_reply(c, T);
	ck_assert_msg(r != NULL, "no reply to %.80s", bytes);
	return r;
}

#define RAW(c, s) raw((c), (s), sizeof(s) - 1)

static void raw_err(struct hc *c, const char *bytes, size_t len, const char *code)
{
	json_t *r = raw(c, bytes, len);
	ck_assert_msg(hj_err(r) && strcmp(hj_err(r), code) == 0, "%.80s: expected %s, got %s",
		      bytes, code, hj_text(r));
	ck_assert_msg(json_is_string(hj_get(r, "error.message")), "no message: %s", hj_text(r));
	ck_assert_msg(hj_get(r, "id") != NULL, "no id: %s", hj_text(r));
	json_decref(r);
}

#define RAW_ERR(c, s, code) raw_err((c), (s), sizeof(s) - 1, (code))

/* A request by json_pack that must fail with `code`. */
#define BAD(c, code, ...)                                                               \
	do {                                                                            \
		json_t *r_ = hc_req((c), __VA_ARGS__);                                  \
		ck_assert_msg(hj_err(r_) && strcmp(hj_err(r_), (code)) == 0,            \
			      "line %d: expected %s, got %s", __LINE__, (code), hj_text(r_)); \
		json_decref(r_);                                                        \
	} while (0)

/* Framing and parsing; invalid UTF-8 and NUL bytes. */
static void bad_framing(struct hc *c)
{
	/* Framing and parsing. */
	RAW_ERR(c, "hello there", "bad_request");
	RAW_ERR(c, "{\"cmd\":\"ping\"", "bad_request");
	RAW_ERR(c, "42", "bad_request");
	RAW_ERR(c, "\"ping\"", "bad_request");
	RAW_ERR(c, "null", "bad_request");
	RAW_ERR(c, "[{\"cmd\":\"ping\"}]", "bad_request");
	RAW_ERR(c, "{\"id\":1}", "bad_request");
	RAW_ERR(c, "{\"cmd\":null,\"id\":1}", "bad_request");
	RAW_ERR(c, "{\"cmd\":5,\"id\":2}", "bad_request");
	RAW_ERR(c, "{\"cmd\":[\"ping\"],\"id\":2}", "bad_request");
	RAW_ERR(c, "{\"cmd\":\"frobnicate\",\"id\":3}", "unknown_command");
	RAW_ERR(c, "{\"cmd\":\"PING\",\"id\":3}", "unknown_command");
	RAW_ERR(c, "{\"cmd\":\"ping\",\"id\":{}}", "bad_request");
	RAW_ERR(c, "{\"cmd\":\"ping\",\"id\":[1]}", "bad_request");
	/* Invalid UTF-8 and NUL bytes, inside and outside strings. */
	RAW_ERR(c, "{\"cmd\":\"ping\",\"id\":\"\xc3\x28\"}", "bad_request");
	RAW_ERR(c, "{\"cmd\":\"ping\",\"id\":\"\xff\xfe\"}", "bad_request");
	RAW_ERR(c, "{\"cmd\":\"register\",\"name\":\"ab\xed\xa0\x80\",\"password\":\"12345678\"}", "bad_request");
	RAW_ERR(c, "{\"cmd\":\"ping\",\"id\":\"a\0b\"}", "bad_request");
	RAW_ERR(c, "{\"cmd\":\"ping\"}\0", "bad_request");
	RAW_ERR(c, "{\"cmd\":\"register\",\"name\":\"nul\",\"password\":\"1234\\u00005678\"}", "bad_request");
}

/* Wrong types, missing fields, out-of-range numbers and commands that need a login, on the
 * game g, not logged in. */
static void bad_fields(struct hc *c, long long g)
{
	/* Wrong types, missing fields, out-of-range numbers (not logged in). */
	BAD(c, "bad_request", "{s:s, s:s}", "cmd", "hello", "protocol", "1");
	BAD(c, "bad_request", "{s:s}", "cmd", "hello");
	BAD(c, "bad_request", "{s:s, s:f}", "cmd", "hello", "protocol", 1.5);
	BAD(c, "bad_request", "{s:s, s:i, s:s}", "cmd", "register", "name", 5, "password", "12345678");
	BAD(c, "bad_request", "{s:s, s:s}", "cmd", "register", "name", "zed");
	BAD(c, "bad_request", "{s:s, s:s}", "cmd", "register", "password", "12345678");
	BAD(c, "bad_request", "{s:s, s:s, s:b}", "cmd", "login", "name", "zed", "password", 1);
	BAD(c, "bad_request", "{s:s, s:s}", "cmd", "game", "game", "1");
	BAD(c, "bad_request", "{s:s, s:i}", "cmd", "game", "game", 0);
	BAD(c, "bad_request", "{s:s, s:i}", "cmd", "game", "game", -4);
	BAD(c, "bad_request", "{s:s, s:f}", "cmd", "game", "game", 1.5);
	BAD(c, "bad_request", "{s:s}", "cmd", "game");
	BAD(c, "not_found", "{s:s, s:i}", "cmd", "game", "game", 999999);
	BAD(c, "not_found", "{s:s, s:i}", "cmd", "sgf", "game", 999999);
	BAD(c, "not_found", "{s:s, s:i}", "cmd", "observe", "game", 999999);
	BAD(c, "bad_request", "{s:s, s:s}", "cmd", "games", "phase", "bogus");
	BAD(c, "bad_request", "{s:s, s:s}", "cmd", "games", "player", "bad name!");
	BAD(c, "bad_request", "{s:s, s:i}", "cmd", "games", "limit", 0);
	/* Commands that need a login. */
	BAD(c, "unauthenticated", "{s:s, s:s}", "cmd", "challenge", "opponent", "bob");
	BAD(c, "unauthenticated", "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g);
	BAD(c, "unauthenticated", "{s:s, s:I}", "cmd", "decline", "game", (json_int_t)g);
	BAD(c, "unauthenticated", "{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g, "vertex", "D4");
	BAD(c, "unauthenticated", "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g);
	BAD(c, "unauthenticated", "{s:s, s:I, s:[]}", "cmd", "dead", "game", (json_int_t)g, "stones");
	BAD(c, "unauthenticated", "{s:s}", "cmd", "logout");
}

/* Ids of every JSON scalar kind, on ok and error replies; an absent id; a CR before the LF. */
static void bad_ids(struct hc *c)
{
	/* Ids of every JSON scalar kind come back unchanged; an absent id comes back null. */
	static const char *const ids[] = {"7", "0", "-3", "9007199254740993", "-9223372036854775807",
		"1.5", "-2.25e-3", "1e300", "\"abc\"", "\"\"", "\"\\u00e9\\u2713 \\\"q\\\"\"",
		"\"\xc3\xa9\"", "true", "false", "null"};
	for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
		char line[256];
		snprintf(line, sizeof line, "{\"cmd\":\"ping\",\"id\":%s}", ids[i]);
		json_t *want = json_loads(ids[i], JSON_DECODE_ANY, NULL);
		ck_assert_ptr_nonnull(want);
		json_t *r = raw(c, line, strlen(line));
		OK(r);
		ck_assert_msg(json_equal(hj_get(r, "id"), want), "id %s came back as %s", ids[i],
			      hj_text(hj_get(r, "id")));
		json_decref(want);
		json_decref(r);
		/* The same id on an error reply. */
		snprintf(line, sizeof line, "{\"cmd\":\"nope\",\"id\":%s}", ids[i]);
		want = json_loads(ids[i], JSON_DECODE_ANY, NULL);
		r = raw(c, line, strlen(line));
		ERR(r, "unknown_command");
		ck_assert_msg(json_equal(hj_get(r, "id"), want), "error id %s came back as %s", ids[i],
			      hj_text(hj_get(r, "id")));
		json_decref(want);
		json_decref(r);
	}
	{
		json_t *r = RAW(c, "{\"cmd\":\"ping\"}");
		OK(r);
		ck_assert_msg(json_is_null(hj_get(r, "id")), "absent id should echo null: %s", hj_text(r));
		json_decref(r);
		r = RAW(c, "{\"cmd\":\"ping\",\"id\":11}\r");
		OK(r);
		ck_assert_int_eq(hj_int(r, "id"), 11);
		json_decref(r);
	}
}

/* Line length: exactly 65,536 bytes is fine, one more is line_too_long. */
static void bad_line_length(struct hc *c)
{
	char *big = malloc(BIG_LINE);
	ck_assert_ptr_nonnull(big);
	static const char head[] = "{\"cmd\":\"ping\",\"id\":\"";
	size_t hl = sizeof head - 1;
	memcpy(big, head, hl);
	memset(big + hl, 'a', MAX_LINE - hl - 2);
	memcpy(big + MAX_LINE - 2, "\"}", 2);
	json_t *r = raw(c, big, MAX_LINE);
	OK(r);
	ck_assert_int_eq(strlen(hj_str(r, "id") ? hj_str(r, "id") : ""), MAX_LINE - hl - 2);
	json_decref(r);
	memset(big + hl, 'a', MAX_LINE + 1 - hl - 2);
	memcpy(big + MAX_LINE + 1 - 2, "\"}", 2);
	raw_err(c, big, MAX_LINE + 1, "line_too_long");
	st_ping_ok(c);
	/* A 10 MB line: one line_too_long, and the connection still works. */
	memset(big, 'x', BIG_LINE);
	raw_err(c, big, BIG_LINE, "line_too_long");
	st_ping_ok(c);
	/* Two long lines and a request in one write. */
	memset(big, 'y', 3 * MAX_LINE);
	big[MAX_LINE + 10] = '\n';
	static const char tail[] = "\n{\"cmd\":\"ping\",\"id\":\"after\"}";
	memcpy(big + 3 * MAX_LINE, tail, sizeof tail - 1);
	raw_err(c, big, 3 * MAX_LINE + sizeof tail - 1, "line_too_long");
	r = hc_reply(c, T);
	ERR(r, "line_too_long");
	json_decref(r);
	r = hc_reply(c, T);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "id"), "after");
	json_decref(r);
	free(big);
}

/* Logged in as alice: bad settings (a challenge to bob). */
static void bad_settings(struct hc *c)
{
	BAD(c, "bad_request", "{s:s, s:s, s:i}", "cmd", "challenge", "opponent", "bob", "size", 26);
	BAD(c, "bad_request", "{s:s, s:s, s:i}", "cmd", "challenge", "opponent", "bob", "size", 1);
	BAD(c, "bad_request", "{s:s, s:s, s:s}", "cmd", "challenge", "opponent", "bob", "size", "9");
	BAD(c, "bad_request", "{s:s, s:s, s:i, s:i}", "cmd", "challenge", "opponent", "bob", "size", 9, "handicap", 10);
	BAD(c, "bad_request", "{s:s, s:s, s:i}", "cmd", "challenge", "opponent", "bob", "handicap", -1);
	BAD(c, "bad_request", "{s:s, s:s, s:s}", "cmd", "challenge", "opponent", "bob", "komi", "x");
	BAD(c, "bad_request", "{s:s, s:s, s:f}", "cmd", "challenge", "opponent", "bob", "komi", 1e9);
	BAD(c, "bad_request", "{s:s, s:s, s:s}", "cmd", "challenge", "opponent", "bob", "color", "red");
	BAD(c, "bad_request", "{s:s, s:s, s:i}", "cmd", "challenge", "opponent", "bob", "rated", 1);
	BAD(c, "bad_request", "{s:s, s:s, s:{s:s}}", "cmd", "challenge", "opponent", "bob", "rules", "ko", "nope");
	BAD(c, "bad_request", "{s:s, s:s, s:{s:s}}", "cmd", "challenge", "opponent", "bob", "rules", "tempo", "fast");
	BAD(c, "bad_request", "{s:s, s:s, s:{s:s}}", "cmd", "challenge", "opponent", "bob", "time", "system", "sundial");
	BAD(c, "bad_request", "{s:s, s:s, s:{s:s, s:i}}", "cmd", "challenge", "opponent", "bob", "time", "system", "absolute", "main_s", -5);
	BAD(c, "bad_request", "{s:s, s:s}", "cmd", "challenge", "opponent", "no such");
	BAD(c, "bad_request", "{s:s, s:i}", "cmd", "challenge", "opponent", 3);
	BAD(c, "bad_request", "{s:s}", "cmd", "challenge");
	{
		json_t *r = hc_req(c, "{s:s, s:s}", "cmd", "challenge", "opponent", "alice");
		ck_assert_msg(hj_err(r) != NULL, "alice challenged herself: %s", hj_text(r));
		json_decref(r);
	}
	BAD(c, "not_found", "{s:s, s:s}", "cmd", "challenge", "opponent", "nobody");
}

/* Logged in as alice: bad vertices, wrong phase, not one's game (g: alice v bob, no move). */
static void bad_moves(struct hc *c, long long g)
{
	static const char *const bad_vertices[] = {"Z99", "I5", "i5", "J10", "K5", "A0", "T19", "",
		"D", "4D", "D4.5", "D-1", "D 4", "passe", "D\xc3\xa9" "4"};
	for (size_t i = 0; i < sizeof bad_vertices / sizeof *bad_vertices; i++) {
		json_t *r = hc_req(c, "{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g, "vertex",
				   bad_vertices[i]);
		ck_assert_msg(hj_err(r) && strcmp(hj_err(r), "bad_request") == 0,
			      "vertex '%s': expected bad_request, got %s", bad_vertices[i], hj_text(r));
		ck_assert_msg(strstr(hj_str(r, "error.message"), "'vertex'") != NULL,
			      "vertex '%s': the message should name the field: %s", bad_vertices[i], hj_text(r));
		json_decref(r);
	}
	BAD(c, "bad_request", "{s:s, s:I, s:i}", "cmd", "play", "game", (json_int_t)g, "vertex", 44);
	BAD(c, "bad_request", "{s:s, s:I}", "cmd", "play", "game", (json_int_t)g);
	BAD(c, "bad_request", "{s:s, s:s}", "cmd", "play", "vertex", "D4");
	BAD(c, "bad_request", "{s:s, s:I, s:s, s:i}", "cmd", "play", "game", (json_int_t)g, "vertex", "D4", "number", 0);
	BAD(c, "bad_request", "{s:s, s:I, s:s, s:s}", "cmd", "play", "game", (json_int_t)g, "vertex", "D4", "number", "1");
	BAD(c, "conflict", "{s:s, s:I, s:s, s:i}", "cmd", "play", "game", (json_int_t)g, "vertex", "D4", "number", 7);
	BAD(c, "not_found", "{s:s, s:i, s:s}", "cmd", "play", "game", 999999, "vertex", "D4");
	BAD(c, "conflict", "{s:s, s:I, s:[s]}", "cmd", "dead", "game", (json_int_t)g, "stones", "D4");
	BAD(c, "conflict", "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g);
	BAD(c, "not_found", "{s:s, s:i}", "cmd", "resign", "game", 999999);
	BAD(c, "bad_request", "{s:s, s:s}", "cmd", "resign", "game", "x");
	BAD(c, "conflict", "{s:s, s:s, s:s}", "cmd", "register", "name", "Bob", "password", "12345678");
}

/* Bad input of every kind gets its error and changes nothing. */
START_TEST(test_bad_input)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = st_new_game(a, b);
	hc_close(a);
	hc_close(b);
	char *before = hd_dump(&D);
	ck_assert_ptr_nonnull(before);
	struct hc *c = st_conn(&D);

	bad_framing(c);
	bad_fields(c, g);
	bad_ids(c);
	bad_line_length(c);
	/* Logged in as alice: bad settings, bad vertices, wrong phase, not one's game. */
	ck_assert(hc_login_as(c, "alice"));
	bad_settings(c);
	bad_moves(c, g);
	/* Still usable, and nothing changed. */
	st_ping_ok(c);
	ck_assert_int_eq(c->bad_lines, 0);
	char *after = hd_dump(&D);
	ck_assert_ptr_nonnull(after);
	/* where they first differ, a few hundred bytes of each (the whole dumps made a message
	 * longer than Check carries, and a failure read only "Message string too long") */
	size_t at = 0;
	while (before[at] && before[at] == after[at])
		at++;
	size_t from = at > 200 ? at - 200 : 0;
	ck_assert_msg(strcmp(before, after) == 0, "bad input changed the database at byte %zu:\n"
		      "--- before\n%.600s\n--- after\n%.600s", at, before + from, after + from);
	free(before);
	free(after);
	json_t *r = st_game_get(c, g);
	ck_assert_int_eq(json_array_size(hj_get(r, "game.moves")), 0);
	ck_assert_int_eq(hj_int(r, "game.warnings.B"), 0);
	json_decref(r);
	hc_close(c);
}
END_TEST

/* ---- limits ---- */

static const char COLS[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/* c plays `v` in each of the n games, all requests in one write; the n replies in order must
 * be ok (want_ok) or illegal_move. */
static void play_batch(struct hc *c, const long long *g, int n, const char *v, bool want_ok)
{
	size_t cap = (size_t)n * 96, len = 0;
	char *buf = malloc(cap);
	ck_assert_ptr_nonnull(buf);
	long long first = c->next_id;
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, cap - len,
					"{\"cmd\":\"play\",\"game\":%lld,\"vertex\":\"%s\",\"id\":%lld}\n",
					g[i], v, c->next_id++);
	ck_assert_int_eq(hc_send(c, buf, len), 0);
	free(buf);
	for (int i = 0; i < n; i++) {
		json_t *r = hc_reply(c, T);
		ck_assert_msg(r != NULL, "%s: no reply to %s in game %lld", c->name, v, g[i]);
		ck_assert_int_eq(hj_int(r, "id"), first + i);
		if (want_ok)
			ck_assert_msg(hj_ok(r), "%s %s in game %lld: %s", c->name, v, g[i], hj_text(r));
		else
			ERR(r, "illegal_move");
		json_decref(r);
	}
}

START_TEST(test_slow_reader)
{
	struct hd d;
	const char *extra[] = {"--max-queued", SLOW_MAX_QUEUED, NULL};
	ck_assert_msg(hd_start(&d, extra) == 0, "tengend did not start");
	struct hc *a = st_login(&d, "alice"), *b = st_login(&d, "bob");
	long long g[SLOW_GAMES];
	int next[SLOW_GAMES];
	for (int i = 0; i < SLOW_GAMES; i++) {
		g[i] = st_new_game_ex(a, b, SLOW_BOARD, NULL);
		next[i] = 1;
	}
	/* The stuck reader observes first, then a reader that keeps up. */
	struct hc *slow = hc_open_ex(d.port, NULL, SLOW_RCVBUF, SLOW_MSS), *fast = st_conn(&d);
	ck_assert_ptr_nonnull(slow);
	for (int i = 0; i < SLOW_GAMES; i++) {
		json_t *r = hc_req(slow, "{s:s, s:I}", "cmd", "observe", "game", (json_int_t)g[i]);
		OK(r);
		json_decref(r);
		r = hc_req(fast, "{s:s, s:I}", "cmd", "observe", "game", (json_int_t)g[i]);
		OK(r);
		json_decref(r);
	}
	/* Black fills the boards row by row; White forfeits each turn on Black's new stone. (The
	 * kernel buffers some of it for the stuck socket before the server's queue grows.) */
	long long worst = 0;
	int rounds = 0, cut_at = -1;
	int points = SLOW_BOARD * (SLOW_BOARD - 1);
	for (int k = 0; k < points && cut_at < 0; k++, rounds++) {
		char v[8];
		snprintf(v, sizeof v, "%c%d", COLS[k % SLOW_BOARD], k / SLOW_BOARD + 1);
		long long t0 = st_now_ms();
		play_batch(a, g, SLOW_GAMES, v, true);
		long long t1 = st_now_ms();
		play_batch(b, g, SLOW_GAMES, v, false);
		long long t2 = st_now_ms();
		if (t1 - t0 > worst)
			worst = t1 - t0;
		if (t2 - t1 > worst)
			worst = t2 - t1;
		hc_clear(a);
		hc_clear(b);
		/* The fast observer sees every move of every game, in order. */
		for (int n = 0; n < 2 * SLOW_GAMES; n++) {
			json_t *e = hc_event(fast, "game.move", 0, T);
			ck_assert_msg(e != NULL, "the fast observer missed a move in round %d (%s)", k,
				      hd_log_has(&d, "slow reader") ? "the round the stuck reader was cut off"
								    : "the stuck reader is still on");
			long long id = hj_int(e, "game");
			int i = 0;
			while (i < SLOW_GAMES && g[i] != id)
				i++;
			ck_assert_msg(i < SLOW_GAMES, "event of another game: %s", hj_text(e));
			ck_assert_msg(hj_int(e, "number") == next[i],
				      "game %lld: move %d expected, got %s (%s)", g[i], next[i], hj_text(e),
				      hd_log_has(&d, "slow reader") ? "the stuck reader was cut off"
								    : "the stuck reader is still on");
			next[i]++;
			json_decref(e);
		}
		if (k % 4 == 3 && hd_log_has(&d, "slow reader"))
			cut_at = k;
	}
	ck_assert_msg(cut_at >= 0, "the stuck reader was never cut off (%d moves in each of %d games)",
		      2 * rounds, SLOW_GAMES);
	ck_assert_msg(worst < SLOW_PROMPT_MS, "a player waited %lld ms for %d replies", worst, SLOW_GAMES);
	/* The server closed the stuck connection: reading it now ends in EOF. */
	ck_assert_msg(hc_wait_closed(slow, T), "the stuck connection was not closed");
	hc_close(slow);
	st_ping_ok(a);
	st_ping_ok(b);
	st_ping_ok(fast);
	hc_close(a);
	hc_close(b);
	hc_close(fast);
	st_finish(&d);
}
END_TEST

START_TEST(test_per_address_limit)
{
	struct hd d;
	const char *extra[] = {"--max-per-address", PER_ADDRESS, NULL};
	ck_assert_msg(hd_start(&d, extra) == 0, "tengend did not start");
	int limit = atoi(PER_ADDRESS);
	struct hc *c[8];
	for (int i = 0; i < limit; i++) {
		c[i] = st_conn(&d);
		st_ping_ok(c[i]);
	}
	struct hc *extra_conn = st_conn(&d);
	json_t *m = hc_next(extra_conn, T);
	ck_assert_msg(m != NULL, "the connection over the limit got no error line");
	ck_assert_msg(json_is_false(hj_get(m, "ok")) && hj_err(m) != NULL, "not an error: %s", hj_text(m));
	json_decref(m);
	ck_assert_msg(hc_wait_closed(extra_conn, T), "the connection over the limit was not closed");
	hc_close(extra_conn);
	/* Another address is not counted with these. */
	struct hc *other = conn_from(&d, "127.0.0.2");
	st_ping_ok(other);
	hc_close(other);
	/* The first ones still work; one leaving makes room. */
	for (int i = 0; i < limit; i++)
		st_ping_ok(c[i]);
	hc_close(c[0]);
	bool ok = false;
	for (int tries = 0; tries < 50 && !ok; tries++) {
		struct hc *n = st_conn(&d);
		json_t *r = hc_req(n, "{s:s}", "cmd", "ping");
		ok = hj_ok(r);
		json_decref(r);
		hc_close(n);
		if (!ok) {
			struct timespec ts = {0, 20 * 1000000L};
			nanosleep(&ts, NULL);
		}
	}
	ck_assert_msg(ok, "no room after a connection closed");
	for (int i = 1; i < limit; i++)
		hc_close(c[i]);
	st_finish(&d);
}
END_TEST

static Suite *session_suite(void)
{
	Suite *s = suite_create("session");
	TCase *tc = tcase_create("protocol");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, test_hello_ping);
	tcase_add_test(tc, test_accounts);
	tcase_add_test(tc, test_pwhash_thread_nice);
	tcase_add_test(tc, test_exclusive_login);
	tcase_add_test(tc, test_half_close);
	tcase_add_test(tc, test_rate_limit_name);
	tcase_add_test(tc, test_rate_limit_address);
	tcase_add_test(tc, test_bad_input);
	suite_add_tcase(s, tc);
	TCase *lim = tcase_create("limits");
	tcase_set_timeout(lim, TEST_TIMEOUT_S);
	tcase_add_test(lim, test_slow_reader);
	tcase_add_test(lim, test_per_address_limit);
	suite_add_tcase(s, lim);
	return s;
}

int main(void)
{
	/* Every flush goes through the writer thread (server/transport/writer.c), closes and restarts included. */
	setenv("TENGEN_TEST_WRITER_MIN", "1", 0);
	/* Fold the move journal every few moves: games read from both tables. */
	setenv("TENGEN_TEST_FOLD_ROWS", "3", 0);
	SRunner *sr = srunner_create(session_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
