/* Tests for server/transport/proxy: the PROXY protocol header (v1 and v2, HAProxy's
 * proxy-protocol.txt) judged byte by byte as it arrives, its limits (107 bytes for v1,
 * PROXY_HEADER_MAX for v2), what it says (the client's address, or the proxy's own), and the
 * --proxy-from list. No I/O. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include "proxy.h"

#define RANDOM_ROUNDS 20000   /* random inputs that must not crash the parser */
#define RANDOM_LEN 64

static const unsigned char sig[12] = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D,
				      0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

/* Every proper prefix of b[0..len) is PROXY_MORE; the whole is PROXY_DONE of `len` bytes. */
static void whole(const void *b, size_t len, struct proxy_header *h)
{
	for (size_t i = 0; i < len; i++)
		ck_assert_msg(proxy_parse(b, i, h) == PROXY_MORE, "prefix of %zu bytes: %s", i,
			      h->why ? h->why : "done");
	ck_assert_int_eq(proxy_parse(b, len, h), PROXY_DONE);
	ck_assert_uint_eq(h->len, len);
}

static void bad(const void *b, size_t len)
{
	struct proxy_header h;
	ck_assert_msg(proxy_parse(b, len, &h) == PROXY_BAD, "accepted %.*s", (int)len,
		      (const char *)b);
	ck_assert_ptr_nonnull(h.why);
}

static void bad_text(const char *s)
{
	bad(s, strlen(s));
}

/* A v2 header: command byte, family byte, `n` bytes of addresses and TLVs at a. */
static size_t v2(unsigned char *out, unsigned char cmd, unsigned char fam, const void *a, size_t n)
{
	memcpy(out, sig, sizeof sig);
	out[12] = cmd;
	out[13] = fam;
	out[14] = (unsigned char)(n >> 8);
	out[15] = (unsigned char)n;
	memcpy(out + 16, a, n);
	return 16 + n;
}

START_TEST(test_v1)
{
	struct proxy_header h;
	const char *l = "PROXY TCP4 192.168.0.1 192.168.0.11 56324 443\r\n";
	whole(l, strlen(l), &h);
	ck_assert_int_eq(h.version, 1);
	ck_assert(!h.local);
	ck_assert_str_eq(h.addr, "192.168.0.1");
	/* What follows is the client's, not the header's. */
	char more[128];
	snprintf(more, sizeof more, "%s{\"cmd\":\"ping\"}\n", l);
	ck_assert_int_eq(proxy_parse(more, strlen(more), &h), PROXY_DONE);
	ck_assert_uint_eq(h.len, strlen(l));
	l = "PROXY TCP6 2001:DB8:0:0:0:0:0:1 ::1 1 65535\r\n";
	whole(l, strlen(l), &h);
	ck_assert_str_eq(h.addr, "2001:db8::1"); /* one text per address: one set of counters */
	l = "PROXY TCP6 ::ffff:10.9.8.7 ::1 1 2\r\n";
	whole(l, strlen(l), &h);
	ck_assert_str_eq(h.addr, "10.9.8.7");
	l = "PROXY UNKNOWN\r\n";
	whole(l, strlen(l), &h);
	ck_assert(h.local);
	l = "PROXY UNKNOWN ffff:f...f:ffff ffff:f...f:ffff 65535 65535\r\n";
	whole(l, strlen(l), &h);
	ck_assert(h.local);
	/* The longest line is 107 bytes with its CRLF. */
	char max[PROXY_V1_MAX + 2];
	memset(max, 'x', sizeof max);
	memcpy(max, "PROXY UNKNOWN ", 14);
	memcpy(max + PROXY_V1_MAX - 2, "\r\n", 2);
	whole(max, PROXY_V1_MAX, &h);
	memcpy(max + PROXY_V1_MAX - 2, "xx\r\n", 4);
	ck_assert_int_eq(proxy_parse(max, PROXY_V1_MAX - 1, &h), PROXY_MORE);
	bad(max, PROXY_V1_MAX);
	bad(max, PROXY_V1_MAX + 2);
}
END_TEST

START_TEST(test_v1_bad)
{
	bad_text("GET / HTTP/1.1\r\n");
	bad_text("{");
	bad_text("PROXY\r\n");
	bad_text("PROXY \r\n");
	bad_text("PROXY TCP4 1.2.3.4 5.6.7.8 1 2\n");
	bad_text("PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\r\n");
	bad_text("PROXY TCP4 1.2.3.4 5.6.7.8 1\r\n");
	bad_text("PROXY TCP4 1.2.3.4 5.6.7.8 1 2 3\r\n");
	bad_text("PROXY TCP4 1.2.3.4 5.6.7.8 1 2 \r\n");
	bad_text("PROXY TCP4  1.2.3.4 5.6.7.8 1 2\r\n");
	bad_text("PROXY TCP4 1.2.3 5.6.7.8 1 2\r\n");
	bad_text("PROXY TCP4 1.2.3.256 5.6.7.8 1 2\r\n");
	bad_text("PROXY TCP4 ::1 5.6.7.8 1 2\r\n");
	bad_text("PROXY TCP6 1.2.3.4 ::1 1 2\r\n");
	bad_text("PROXY TCP4 1.2.3.4 5.6.7.8 65536 2\r\n");
	bad_text("PROXY TCP4 1.2.3.4 5.6.7.8 -1 2\r\n");
	bad_text("PROXY TCP4 1.2.3.4 5.6.7.8 1 x\r\n");
	bad_text("PROXY TCP4 1.2.3.4 5.6.7.8 1 000002\r\n");
	bad_text("PROXY UDP4 1.2.3.4 5.6.7.8 1 2\r\n");
	bad_text("PROXY UNKNOWNX\r\n");
	bad("PROXY TCP4 1.2.3.4\0 5.6.7.8 1 2\r\n", 33);
	bad_text("proxy TCP4 1.2.3.4 5.6.7.8 1 2\r\n");
	bad_text("PROXY_TCP4");
}
END_TEST

START_TEST(test_v2)
{
	struct proxy_header h;
	unsigned char b[PROXY_HEADER_MAX + 16];
	unsigned char a4[12] = {10, 1, 2, 3, 127, 0, 0, 1, 0xC8, 0x22, 0x1B, 0x3A};
	size_t n = v2(b, 0x21, 0x11, a4, sizeof a4);
	whole(b, n, &h);
	ck_assert_int_eq(h.version, 2);
	ck_assert(!h.local);
	ck_assert_str_eq(h.addr, "10.1.2.3");
	/* TLVs after the addresses are skipped: the header's length covers them. */
	unsigned char tlv[12 + 40] = {10, 1, 2, 4};
	tlv[12] = 0x04;
	tlv[14] = 37;
	n = v2(b, 0x21, 0x11, tlv, sizeof tlv);
	whole(b, n, &h);
	ck_assert_str_eq(h.addr, "10.1.2.4");
	unsigned char a6[36] = {0x20, 0x01, 0x0d, 0xb8};
	a6[15] = 1;
	n = v2(b, 0x21, 0x21, a6, sizeof a6);
	whole(b, n, &h);
	ck_assert_str_eq(h.addr, "2001:db8::1");
	unsigned char m6[36] = {[10] = 0xFF, [11] = 0xFF, [12] = 10, [13] = 9, [14] = 8, [15] = 7};
	n = v2(b, 0x21, 0x21, m6, sizeof m6);
	whole(b, n, &h);
	ck_assert_str_eq(h.addr, "10.9.8.7");
	/* LOCAL (addresses ignored), UNSPEC, UNIX, DGRAM: the proxy's own address. */
	n = v2(b, 0x20, 0x11, a4, sizeof a4);
	whole(b, n, &h);
	ck_assert(h.local);
	n = v2(b, 0x20, 0x00, "", 0);
	whole(b, n, &h);
	ck_assert(h.local);
	unsigned char ux[216] = {0};
	n = v2(b, 0x21, 0x31, ux, sizeof ux);
	whole(b, n, &h);
	ck_assert(h.local);
	n = v2(b, 0x21, 0x12, a4, sizeof a4);
	whole(b, n, &h);
	ck_assert(h.local);
	/* The longest we take. */
	static unsigned char big[PROXY_V2_MAX_LEN];
	memcpy(big, a4, sizeof a4);
	n = v2(b, 0x21, 0x11, big, sizeof big);
	whole(b, n, &h);
	ck_assert_uint_eq(h.len, PROXY_HEADER_MAX);
}
END_TEST

START_TEST(test_v2_bad)
{
	unsigned char b[64];
	unsigned char a4[12] = {10, 1, 2, 3};
	/* Each is refused as soon as its wrong byte is there, before the rest. */
	v2(b, 0x11, 0x11, a4, sizeof a4);
	bad(b, 13);
	v2(b, 0x22, 0x11, a4, sizeof a4);
	bad(b, 13);
	v2(b, 0x2F, 0x11, a4, sizeof a4);
	bad(b, 13);
	v2(b, 0x21, 0x41, a4, sizeof a4);
	bad(b, 14);
	v2(b, 0x21, 0x13, a4, sizeof a4);
	bad(b, 14);
	v2(b, 0x21, 0x11, a4, 8); /* AF_INET needs 12 bytes */
	bad(b, 24);
	v2(b, 0x21, 0x21, a4, 12); /* AF_INET6 needs 36 */
	bad(b, 28);
	v2(b, 0x21, 0x11, a4, sizeof a4);
	b[14] = (PROXY_V2_MAX_LEN + 1) >> 8;
	b[15] = (PROXY_V2_MAX_LEN + 1) & 0xFF;
	bad(b, 16);
	memcpy(b, sig, sizeof sig);
	b[6] = 'X';
	bad(b, 7);
}
END_TEST

/* Random bytes, and random bytes after a signature: an answer every time, never a length
 * past the input. */
START_TEST(test_random)
{
	srand(20);
	unsigned char b[RANDOM_LEN];
	struct proxy_header h;
	for (int r = 0; r < RANDOM_ROUNDS; r++) {
		size_t len = (size_t)rand() % RANDOM_LEN;
		for (size_t i = 0; i < len; i++)
			b[i] = (unsigned char)rand();
		if (r % 3 == 0 && len >= 16) {
			memcpy(b, sig, sizeof sig);
			b[12] = 0x20 | (b[12] & 1);
			b[14] = 0;
			b[15] = (unsigned char)(b[15] % (RANDOM_LEN - 16));
		} else if (r % 3 == 1 && len >= 6) {
			memcpy(b, "PROXY ", 6);
		}
		enum proxy_rc rc = proxy_parse(b, len, &h);
		if (rc == PROXY_DONE)
			ck_assert_uint_le(h.len, len);
		if (rc == PROXY_BAD)
			ck_assert_ptr_nonnull(h.why);
	}
}
END_TEST

START_TEST(test_from)
{
	struct proxy_from f;
	ck_assert_int_eq(proxy_from_parse(PROXY_FROM_DEFAULT, &f), 0);
	ck_assert_uint_eq(f.n, 2);
	struct sockaddr_in s4 = {.sin_family = AF_INET};
	struct sockaddr_in6 s6 = {.sin6_family = AF_INET6};
	inet_pton(AF_INET, "127.0.0.1", &s4.sin_addr);
	ck_assert(proxy_from_has(&f, (struct sockaddr *)&s4));
	inet_pton(AF_INET, "127.0.0.2", &s4.sin_addr);
	ck_assert(!proxy_from_has(&f, (struct sockaddr *)&s4));
	inet_pton(AF_INET6, "::1", &s6.sin6_addr);
	ck_assert(proxy_from_has(&f, (struct sockaddr *)&s6));
	inet_pton(AF_INET6, "::ffff:127.0.0.1", &s6.sin6_addr); /* a dual-stack listener's IPv4 */
	ck_assert(proxy_from_has(&f, (struct sockaddr *)&s6));
	inet_pton(AF_INET6, "::2", &s6.sin6_addr);
	ck_assert(!proxy_from_has(&f, (struct sockaddr *)&s6));
	struct sockaddr none = {.sa_family = AF_UNSPEC};
	ck_assert(!proxy_from_has(&f, &none));
	ck_assert_int_eq(proxy_from_parse("10.0.0.5", &f), 0);
	ck_assert_uint_eq(f.n, 1);
	static const char *const bad_lists[] = {"", ",", "127.0.0.1,", ",::1", "127.0.0.1,,::1",
		"localhost", "127.0.0.1 ", "10.0.0.0/8", "127.0.0.1:6970", "1"};
	for (size_t i = 0; i < sizeof bad_lists / sizeof *bad_lists; i++)
		ck_assert_msg(proxy_from_parse(bad_lists[i], &f) < 0, "accepted '%s'", bad_lists[i]);
	char many[(PROXY_FROM_MAX + 1) * 16] = "";
	for (int i = 0; i < PROXY_FROM_MAX; i++)
		snprintf(many + strlen(many), sizeof many - strlen(many), "%s10.0.0.%d", i ? "," : "", i);
	ck_assert_int_eq(proxy_from_parse(many, &f), 0);
	ck_assert_uint_eq(f.n, PROXY_FROM_MAX);
	strcat(many, ",10.0.0.99"); /* one too many */
	ck_assert_int_lt(proxy_from_parse(many, &f), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("proxy_header");
	TCase *tc = tcase_create("proxy_header");
	tcase_add_test(tc, test_v1);
	tcase_add_test(tc, test_v1_bad);
	tcase_add_test(tc, test_v2);
	tcase_add_test(tc, test_v2_bad);
	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_from);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
