/* Unit tests for the bytes on the wire (docs/protocol.md): proto/framing (lines in: partial,
 * CRLF, empty, NUL, the length limit) and proto/jsonout (JSON out, byte for byte as jansson). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "framing.h"
#include "jsonout.h"

/* ================================ framing ================================ */

/* Feed a NUL-terminated string. */
static void feed(struct framing *f, const char *s)
{
	ck_assert_int_eq(framing_feed(f, s, strlen(s)), 0);
}

/* Expect the next line to be `want`. */
static void expect_line(struct framing *f, const char *want)
{
	const char *line = NULL;
	size_t len = 0;
	ck_assert_int_eq(framing_next(f, &line, &len), FRAMING_LINE);
	ck_assert_uint_eq(len, strlen(want));
	ck_assert(memcmp(line, want, len) == 0);
	ck_assert_int_eq(line[len], '\0');
}

static void expect_none(struct framing *f)
{
	const char *line;
	size_t len;
	ck_assert_int_eq(framing_next(f, &line, &len), FRAMING_NONE);
}

static void expect_too_long(struct framing *f)
{
	const char *line;
	size_t len;
	ck_assert_int_eq(framing_next(f, &line, &len), FRAMING_TOO_LONG);
}

/* Feed n copies of byte c, in chunks of `chunk`. */
static void feed_fill(struct framing *f, char c, size_t n, size_t chunk)
{
	char *buf = malloc(chunk);
	ck_assert_ptr_nonnull(buf);
	memset(buf, c, chunk);
	while (n > 0) {
		size_t k = n < chunk ? n : chunk;
		ck_assert_int_eq(framing_feed(f, buf, k), 0);
		n -= k;
	}
	free(buf);
}

START_TEST(framing_partial_lines)
{
	struct framing f;
	framing_init(&f);
	expect_none(&f);
	feed(&f, "{\"cmd\":");
	expect_none(&f);
	feed(&f, "\"ping\"");
	expect_none(&f);
	feed(&f, "}\n{\"cmd\"");
	expect_line(&f, "{\"cmd\":\"ping\"}");
	expect_none(&f);
	feed(&f, ":1}\n");
	expect_line(&f, "{\"cmd\":1}");
	expect_none(&f);
	ck_assert_uint_eq(framing_pending(&f), 0);
	framing_free(&f);
}
END_TEST

START_TEST(framing_byte_at_a_time)
{
	struct framing f;
	framing_init(&f);
	const char *s = "ab\r\ncd\n\nef\r\n";
	for (size_t i = 0; s[i]; i++)
		ck_assert_int_eq(framing_feed(&f, s + i, 1), 0);
	expect_line(&f, "ab");
	expect_line(&f, "cd");
	expect_line(&f, "");
	expect_line(&f, "ef");
	expect_none(&f);
	framing_free(&f);
}
END_TEST

START_TEST(framing_crlf)
{
	struct framing f;
	framing_init(&f);
	feed(&f, "abc\r\n");
	expect_line(&f, "abc");
	feed(&f, "def\r");
	expect_none(&f);
	feed(&f, "\n");
	expect_line(&f, "def");
	/* only one trailing \r is stripped; a \r inside stays */
	feed(&f, "a\rb\r\r\n");
	expect_line(&f, "a\rb\r");
	feed(&f, "\r\n");
	expect_line(&f, "");
	expect_none(&f);
	framing_free(&f);
}
END_TEST

START_TEST(framing_empty_lines)
{
	struct framing f;
	framing_init(&f);
	feed(&f, "\n\n\r\n");
	expect_line(&f, "");
	expect_line(&f, "");
	expect_line(&f, "");
	expect_none(&f);
	framing_free(&f);
}
END_TEST

START_TEST(framing_nul_passed_through)
{
	struct framing f;
	framing_init(&f);
	ck_assert_int_eq(framing_feed(&f, "a\0b\n", 4), 0);
	const char *line;
	size_t len;
	ck_assert_int_eq(framing_next(&f, &line, &len), FRAMING_LINE);
	ck_assert_uint_eq(len, 3);
	ck_assert(memcmp(line, "a\0b", 3) == 0);
	framing_free(&f);
}
END_TEST

START_TEST(framing_exact_limit)
{
	struct framing f;
	framing_init(&f);
	/* exactly FRAMING_MAX_LINE bytes, then "\n", in odd chunks */
	feed_fill(&f, 'x', FRAMING_MAX_LINE, 1000);
	expect_none(&f);
	feed(&f, "\n");
	const char *line;
	size_t len;
	ck_assert_int_eq(framing_next(&f, &line, &len), FRAMING_LINE);
	ck_assert_uint_eq(len, FRAMING_MAX_LINE);
	ck_assert_int_eq(line[0], 'x');
	ck_assert_int_eq(line[len - 1], 'x');
	/* the same with "\r\n": the \r does not count */
	feed_fill(&f, 'y', FRAMING_MAX_LINE, 4096);
	feed(&f, "\r");
	expect_none(&f);
	feed(&f, "\nz\n");
	ck_assert_int_eq(framing_next(&f, &line, &len), FRAMING_LINE);
	ck_assert_uint_eq(len, FRAMING_MAX_LINE);
	ck_assert_int_eq(line[len - 1], 'y');
	expect_line(&f, "z");
	expect_none(&f);
	framing_free(&f);
}
END_TEST

/* The client's framing of the server's lines: FRAMING_MAX_SEND_LINE, far above the default. */
START_TEST(framing_set_max_send_line)
{
	struct framing f;
	framing_init(&f);
	framing_set_max(&f, FRAMING_MAX_SEND_LINE);
	/* a 1 MiB line (16 times the default limit) comes out whole */
	feed_fill(&f, 'x', 1u << 20, 65536);
	feed(&f, "\nnext\n");
	const char *line;
	size_t len;
	ck_assert_int_eq(framing_next(&f, &line, &len), FRAMING_LINE);
	ck_assert_uint_eq(len, 1u << 20);
	ck_assert_int_eq(line[len - 1], 'x');
	expect_line(&f, "next");
	/* exactly the limit passes, one byte more is too long */
	feed_fill(&f, 'y', FRAMING_MAX_SEND_LINE, 65536);
	feed(&f, "\n");
	ck_assert_int_eq(framing_next(&f, &line, &len), FRAMING_LINE);
	ck_assert_uint_eq(len, FRAMING_MAX_SEND_LINE);
	feed_fill(&f, 'z', FRAMING_MAX_SEND_LINE + 1, 65536);
	feed(&f, "\nafter\n");
	expect_too_long(&f);
	expect_line(&f, "after");
	expect_none(&f);
	framing_free(&f);
	/* a small limit set the same way */
	framing_init(&f);
	framing_set_max(&f, 4);
	feed(&f, "abcd\nabcde\nok\n");
	expect_line(&f, "abcd");
	expect_too_long(&f);
	expect_line(&f, "ok");
	framing_free(&f);
}
END_TEST

START_TEST(framing_one_over_limit)
{
	struct framing f;
	framing_init(&f);
	feed_fill(&f, 'x', FRAMING_MAX_LINE + 1, 8192);
	feed(&f, "\nnext\n");
	expect_too_long(&f);
	expect_line(&f, "next");
	expect_none(&f);
	/* the same with "\r\n": 65537 bytes before the \r is still too long */
	feed_fill(&f, 'x', FRAMING_MAX_LINE + 1, 65536);
	feed(&f, "\r\nok\r\n");
	expect_too_long(&f);
	expect_line(&f, "ok");
	expect_none(&f);
	framing_free(&f);
}
END_TEST

START_TEST(framing_too_long_reported_once)
{
	struct framing f;
	framing_init(&f);
	feed(&f, "before\n");
	feed_fill(&f, 'x', 3 * FRAMING_MAX_LINE, 65536);
	expect_line(&f, "before");
	expect_too_long(&f); /* reported as soon as it is known */
	expect_none(&f);
	feed_fill(&f, 'x', 3 * FRAMING_MAX_LINE, 65536);
	expect_none(&f); /* still the same line: not reported again */
	feed(&f, "tail of the long line\nafter\n");
	expect_line(&f, "after");
	expect_none(&f);
	framing_free(&f);
}
END_TEST

START_TEST(framing_order_kept_around_long_line)
{
	struct framing f;
	framing_init(&f);
	size_t n = 2 * FRAMING_MAX_LINE;
	char *buf = malloc(n + 64);
	ck_assert_ptr_nonnull(buf);
	size_t k = 0;
	memcpy(buf + k, "a\n", 2), k += 2;
	memset(buf + k, 'x', FRAMING_MAX_LINE + 10), k += FRAMING_MAX_LINE + 10;
	memcpy(buf + k, "\nb\n", 3), k += 3;
	ck_assert_int_eq(framing_feed(&f, buf, k), 0);
	/* two long lines back to back, fed at once */
	k = 0;
	memset(buf + k, 'y', FRAMING_MAX_LINE + 5), k += FRAMING_MAX_LINE + 5;
	buf[k++] = '\n';
	memset(buf + k, 'z', FRAMING_MAX_LINE + 5), k += FRAMING_MAX_LINE + 5;
	memcpy(buf + k, "\nc\n", 3), k += 3;
	ck_assert_int_eq(framing_feed(&f, buf, k), 0);
	free(buf);
	expect_line(&f, "a");
	expect_too_long(&f);
	expect_line(&f, "b");
	expect_too_long(&f);
	expect_too_long(&f);
	expect_line(&f, "c");
	expect_none(&f);
	framing_free(&f);
}
END_TEST

START_TEST(framing_huge_line_bounded)
{
	struct framing f;
	framing_init(&f);
	const size_t total = 10 * 1024 * 1024, chunk = 65536;
	char *buf = malloc(chunk);
	ck_assert_ptr_nonnull(buf);
	memset(buf, 'q', chunk);
	int reports = 0;
	for (size_t sent = 0; sent < total; sent += chunk) {
		ck_assert_int_eq(framing_feed(&f, buf, chunk), 0);
		/* never more than the limit plus one read buffered */
		ck_assert_uint_le(f.cap, FRAMING_MAX_LINE + 2 + chunk);
		ck_assert_uint_le(framing_pending(&f), FRAMING_MAX_LINE + 1);
		const char *line;
		size_t len;
		enum framing_result r;
		while ((r = framing_next(&f, &line, &len)) != FRAMING_NONE) {
			ck_assert_int_eq(r, FRAMING_TOO_LONG);
			reports++;
		}
	}
	free(buf);
	ck_assert_int_eq(reports, 1);
	feed(&f, "\n{}\n");
	expect_line(&f, "{}");
	expect_none(&f);
	framing_free(&f);
}
END_TEST

START_TEST(framing_compaction_keeps_marks)
{
	/* A too-long mark is pending while the buffer is compacted: the order must hold. */
	struct framing f;
	framing_init(&f);
	feed(&f, "a\nb\n");
	expect_line(&f, "a"); /* "b" stays buffered, not at the front */
	feed_fill(&f, 'x', FRAMING_MAX_LINE + 100, FRAMING_MAX_LINE + 100); /* one read */
	feed(&f, "\n");
	char *big = malloc(3 * FRAMING_INITIAL_CAP + 2);
	ck_assert_ptr_nonnull(big);
	memset(big, 'c', 3 * FRAMING_INITIAL_CAP);
	big[3 * FRAMING_INITIAL_CAP] = '\n';
	ck_assert_int_eq(framing_feed(&f, big, 3 * FRAMING_INITIAL_CAP + 1), 0); /* compacts */
	free(big);
	expect_line(&f, "b");
	expect_too_long(&f);
	const char *line;
	size_t len;
	ck_assert_int_eq(framing_next(&f, &line, &len), FRAMING_LINE);
	ck_assert_uint_eq(len, 3 * FRAMING_INITIAL_CAP);
	expect_none(&f);
	framing_free(&f);
}
END_TEST

START_TEST(framing_many_lines_one_feed)
{
	struct framing f;
	framing_init(&f);
	enum { N = 2000 };
	size_t cap = N * 16;
	char *buf = malloc(cap);
	ck_assert_ptr_nonnull(buf);
	size_t k = 0;
	for (int i = 0; i < N; i++)
		k += (size_t)snprintf(buf + k, cap - k, "line %d\n", i);
	ck_assert_int_eq(framing_feed(&f, buf, k), 0);
	free(buf);
	char want[32];
	for (int i = 0; i < N; i++) {
		snprintf(want, sizeof want, "line %d", i);
		expect_line(&f, want);
	}
	expect_none(&f);
	framing_free(&f);
}
END_TEST

START_TEST(framing_bounded_takes_per_read)
{
	/* The server takes at most 3 lines per read; the rest stay buffered, in order. */
	struct framing f;
	framing_init(&f);
	int next_sent = 0, next_taken = 0;
	char s[64];
	for (int round = 0; round < 50; round++) {
		for (int j = 0; j < 5; j++) {
			snprintf(s, sizeof s, "m%d\n", next_sent++);
			feed(&f, s);
		}
		for (int t = 0; t < 3; t++) {
			snprintf(s, sizeof s, "m%d", next_taken++);
			expect_line(&f, s);
		}
	}
	while (next_taken < next_sent) {
		snprintf(s, sizeof s, "m%d", next_taken++);
		expect_line(&f, s);
	}
	expect_none(&f);
	framing_free(&f);
}
END_TEST

START_TEST(framing_buffer_shrinks)
{
	struct framing f;
	framing_init(&f);
	/* a large backlog of complete lines, then drained */
	for (int i = 0; i < 40000; i++)
		feed(&f, "0123456789\n");
	ck_assert_uint_gt(f.cap, FRAMING_MAX_LINE + 2);
	for (int i = 0; i < 40000; i++)
		expect_line(&f, "0123456789");
	expect_none(&f);
	feed(&f, "x\n");
	ck_assert_uint_le(f.cap, FRAMING_MAX_LINE + 2);
	expect_line(&f, "x");
	framing_free(&f);
	ck_assert_ptr_null(f.buf);
	/* usable again after free */
	framing_init(&f);
	feed(&f, "again\n");
	expect_line(&f, "again");
	framing_free(&f);
}
END_TEST

/* ================================ jsonout ================================ */

static unsigned long jo_seed = 12345;

static unsigned jo_rand(void)
{
	jo_seed = jo_seed * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)(jo_seed >> 33);
}

/* A random string: ASCII, quotes, backslashes, every control byte, DEL, 2- to 4-byte UTF-8
 * and (not in keys, which jansson does not read back with one) an embedded NUL. */
static json_t *jo_string(int nul)
{
	static const char *const pieces[] = {
		"a", "Z", "9", " ", "\"", "\\", "/", "\x7f", "\xc3\xa9", "\xe5\x90\x8d",
		"\xf0\x9f\x80\x84", "D4", "pass", "game.move", "\xef\xbf\xbf",
	};
	char buf[128];
	size_t n = 0, k = jo_rand() % 12;
	for (size_t i = 0; i < k; i++) {
		if (jo_rand() % 4 == 0) {
			buf[n++] = (char)(nul ? jo_rand() % 0x20 : 1 + jo_rand() % 0x1f); /* control */
			continue;
		}
		const char *p = pieces[jo_rand() % (sizeof pieces / sizeof *pieces)];
		memcpy(buf + n, p, strlen(p));
		n += strlen(p);
	}
	return json_stringn(buf, n);
}

static json_t *jo_real(void)
{
	static const double fixed[] = {
		0.0, -0.0, 1.0, -1.0, 0.1, 7.5, 6.5, -3.25, 1e21, 1e22, 1e-7, 1e-300, 1.7976931348623157e308,
		4.9406564584124654e-324, 123456789012345678.0, 0.30000000000000004, 1e16, 1e15, 2.5e-5,
	};
	unsigned k = jo_rand() % 3;
	if (k == 0)
		return json_real(fixed[jo_rand() % (sizeof fixed / sizeof *fixed)]);
	double m = (double)jo_rand() / 4294967296.0 * (jo_rand() % 2 ? 1 : -1);
	int e = (int)(jo_rand() % 80) - 40;
	double v = m;
	for (int i = 0; i < (e < 0 ? -e : e); i++)
		v = e < 0 ? v / 10 : v * 10;
	return json_real(k == 1 ? v : (double)(long long)(v * 1000));
}

static json_t *jo_value(int depth)
{
	unsigned k = jo_rand() % (depth >= 5 ? 6 : 8);
	switch (k) {
	case 0: return json_null();
	case 1: return json_boolean(jo_rand() % 2);
	case 2: {
		static const json_int_t edge[] = { 0, -1, 9, 10, -10, INT64_MAX, INT64_MIN, 2147483648LL };
		return json_integer(jo_rand() % 3 == 0 ? edge[jo_rand() % 8]
				    : (json_int_t)jo_rand() * (jo_rand() % 2 ? 1 : -1) * (jo_rand() % 1000));
	}
	case 3: return jo_real();
	case 4:
	case 5: return jo_string(1);
	case 6: {
		json_t *a = json_array();
		for (unsigned i = 0, n = jo_rand() % 5; i < n; i++)
			json_array_append_new(a, jo_value(depth + 1));
		return a;
	}
	default: {
		json_t *o = json_object();
		for (unsigned i = 0, n = jo_rand() % 6; i < n; i++) {
			json_t *key = jo_string(0);
			json_object_setn_new(o, json_string_value(key), json_string_length(key),
					     jo_value(depth + 1));
			json_decref(key);
		}
		return o;
	}
	}
}

/* Byte for byte what jansson writes, on 20,000 random values (what proto_serialize sends). */
START_TEST(jsonout_matches_jansson)
{
	for (int i = 0; i < 20000; i++) {
		json_t *v = jo_value(0);
		char *want = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		ck_assert_ptr_nonnull(want);
		size_t len = 0;
		char *got = jsonout_dumps(v, 0, &len);
		ck_assert_ptr_nonnull(got);
		ck_assert_uint_eq(len, strlen(want));
		ck_assert_str_eq(got, want);
		free(got);
		got = jsonout_dumps(v, 1, &len);
		ck_assert_uint_eq(len, strlen(want) + 1);
		ck_assert_int_eq(got[len - 1], '\n');
		ck_assert_int_eq(memcmp(got, want, len - 1), 0);
		/* and it reads back as the same value */
		json_t *back = json_loadb(got, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
		ck_assert_ptr_nonnull(back);
		ck_assert(json_equal(back, v));
		json_decref(back);
		free(got);
		free(want);
		json_decref(v);
	}
}
END_TEST

/* The piece-by-piece writer gives what jsonout_dumps gives for the same object, random values
 * included; a refused value (NULL) fails the whole text. */
START_TEST(jsonout_pieces)
{
	for (int i = 0; i < 2000; i++) {
		json_t *v = jo_value(0);
		char name[32], *str = NULL;
		snprintf(name, sizeof name, "k\"%d\x01\xc3\xa9", i);
		long long n = (long long)((i % 2 ? -1 : 1) * (long long)i * 1000003LL * 999983LL);
		json_t *o = json_pack("{s:I, s:s, s:O, s:[], s:b, s:b}", "n", (json_int_t)n, "s", name,
				      "v", v, "e", "t", 1, "f", 0);
		char *want = jsonout_dumps(o, 1, NULL);
		struct jsonout w;
		ck_assert_int_eq(jsonout_init(&w), 0);
		jsonout_lit(&w, "{\"n\":");
		jsonout_int(&w, n);
		jsonout_lit(&w, ",\"s\":");
		jsonout_str(&w, name);
		jsonout_lit(&w, ",\"v\":");
		jsonout_value(&w, v);
		jsonout_raw(&w, ",\"e\":[]", strlen(",\"e\":[]"));
		jsonout_lit(&w, ",\"t\":");
		jsonout_bool(&w, 1);
		jsonout_lit(&w, ",\"f\":");
		jsonout_bool(&w, 0);
		jsonout_lit(&w, "}");
		size_t len = 0;
		str = jsonout_finish(&w, 1, &len);
		ck_assert_ptr_nonnull(str);
		ck_assert_str_eq(str, want);
		ck_assert_uint_eq(len, strlen(want));
		free(str);
		free(want);
		json_decref(o);
		json_decref(v);
	}
	struct jsonout w;
	ck_assert_int_eq(jsonout_init(&w), 0);
	jsonout_lit(&w, "{\"a\":");
	jsonout_value(&w, NULL);
	jsonout_lit(&w, "}");
	ck_assert_ptr_null(jsonout_finish(&w, 1, NULL));
}
END_TEST

/* A large value grows the buffer; deep nesting (and so any cycle) is refused, not followed. */
START_TEST(jsonout_big_and_deep)
{
	json_t *a = json_array();
	for (int i = 0; i < 5000; i++)
		json_array_append_new(a, json_string("0123456789\"\x01"));
	char *want = json_dumps(a, JSON_COMPACT);
	char *got = jsonout_dumps(a, 0, NULL);
	ck_assert_str_eq(got, want);
	free(got);
	free(want);
	json_decref(a);

	json_t *top = json_array(), *cur = top;
	for (int i = 1; i < JSONOUT_MAX_DEPTH; i++) {
		json_t *n = json_array();
		json_array_append_new(cur, n);
		cur = n;
	}
	got = jsonout_dumps(top, 0, NULL); /* JSONOUT_MAX_DEPTH levels: fine */
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_eq(strlen(got), 2 * JSONOUT_MAX_DEPTH);
	free(got);
	json_array_append_new(cur, json_object()); /* one more */
	ck_assert_ptr_null(jsonout_dumps(top, 0, NULL));
	json_decref(top);
	ck_assert_ptr_null(jsonout_dumps(NULL, 1, NULL));
}
END_TEST

static Suite *wire_suite(void)
{
	Suite *s = suite_create("wire");
	TCase *f = tcase_create("framing");
	tcase_add_test(f, framing_partial_lines);
	tcase_add_test(f, framing_byte_at_a_time);
	tcase_add_test(f, framing_crlf);
	tcase_add_test(f, framing_empty_lines);
	tcase_add_test(f, framing_nul_passed_through);
	tcase_add_test(f, framing_exact_limit);
	tcase_add_test(f, framing_one_over_limit);
	tcase_add_test(f, framing_set_max_send_line);
	tcase_add_test(f, framing_too_long_reported_once);
	tcase_add_test(f, framing_order_kept_around_long_line);
	tcase_add_test(f, framing_huge_line_bounded);
	tcase_add_test(f, framing_compaction_keeps_marks);
	tcase_add_test(f, framing_many_lines_one_feed);
	tcase_add_test(f, framing_bounded_takes_per_read);
	tcase_add_test(f, framing_buffer_shrinks);
	suite_add_tcase(s, f);

	TCase *j = tcase_create("jsonout");
	tcase_add_test(j, jsonout_matches_jansson);
	tcase_add_test(j, jsonout_big_and_deep);
	tcase_add_test(j, jsonout_pieces);
	suite_add_tcase(s, j);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(wire_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
