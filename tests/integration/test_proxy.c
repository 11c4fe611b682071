/* Integration tests of the PROXY protocol (issue 20, item 9) against a real tengend (TENGEND,
 * else ./server/tengend), driven through tests/support/harness: with --proxy-protocol a
 * connection from a listed proxy (--proxy-from; default 127.0.0.1 and ::1, the harness's own
 * address) begins with a PROXY header, version 1 (text) or 2 (binary), and then counts as the
 * client the header names: for the per-address connection limit (--max-per-address 2 here)
 * and the login limiter. The header may come in pieces or with the first request in one
 * write; a malformed, too long or late header closes the connection and changes nothing
 * else; connections from other addresses are direct; without --proxy-protocol a PROXY line is
 * a bad request as before. Contract: docs/deploy.md ("TLS with a terminating proxy"); the
 * header's format: HAProxy's proxy-protocol.txt.
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon, which must stop
 * cleanly on SIGTERM with no sanitizer report in its log (st_finish).
 */
#include "config.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"
#include "srvtest.h"

#define TEST_TIMEOUT_S 60
#define PER_ADDRESS "2"             /* --max-per-address of every daemon here */
#define TIMEOUT_MS 500              /* --proxy-timeout-ms */
#define SPLIT_TIMEOUT_MS 30000      /* --proxy-timeout-ms while a header comes in pieces */
#define TIMEOUT_SLACK_MS 3000       /* ... the close may come this much later (a loaded machine) */
#define PIECE_PAUSE_US 20000        /* between the pieces of a split header: separate reads */
#define LOGIN_FAILS 5               /* SERVER_LOGIN_FAILS: per name and address */
#define V1_MAX 107                  /* the spec's longest v1 line */
#define LONG_PIECE 30               /* the too long v1 line comes in pieces of this */
#define HDR_MAX 2048                /* a header built here, at most */
#define OUT_MAX 16384              /* what tengend --help writes, at most */
#define DIRECT_ADDR "127.0.0.2"     /* not a listed proxy */
#define OTHER_PROXY "127.0.0.3"     /* the proxy of the --proxy-from test */

static const unsigned char v2_sig[12] = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D,
					 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

/* ---- headers ---- */

struct hdr {
	unsigned char b[HDR_MAX];
	size_t len;
};

/* v1 for client `src` (IPv4 if it has no ':'). */
static struct hdr v1(const char *src)
{
	struct hdr h;
	bool six = strchr(src, ':') != NULL;
	h.len = (size_t)snprintf((char *)h.b, sizeof h.b, "PROXY %s %s %s 51234 6970\r\n",
				 six ? "TCP6" : "TCP4", src, six ? "::1" : "127.0.0.1");
	return h;
}

/* v2: command byte `cmd`, family byte `fam`, then `n` bytes of address block at `a`. */
static struct hdr v2_raw(unsigned char cmd, unsigned char fam, const void *a, size_t n)
{
	struct hdr h;
	memcpy(h.b, v2_sig, sizeof v2_sig);
	h.b[12] = cmd;
	h.b[13] = fam;
	h.b[14] = (unsigned char)(n >> 8);
	h.b[15] = (unsigned char)n;
	memcpy(h.b + 16, a, n);
	h.len = 16 + n;
	return h;
}

/* v2 PROXY over STREAM for client `src` (AF_INET or AF_INET6), `tlv` bytes of a NOOP TLV
 * after the addresses (0: none). */
static struct hdr v2(const char *src, size_t tlv)
{
	unsigned char a[HDR_MAX] = {0};
	bool six = strchr(src, ':') != NULL;
	size_t alen = six ? 16 : 4, n = 2 * alen + 4;
	ck_assert(inet_pton(six ? AF_INET6 : AF_INET, src, a) == 1);
	a[2 * alen] = 0xC8; /* source port 51234 */
	a[2 * alen + 1] = 0x22;
	if (tlv) {
		a[n] = 0x04; /* PP2_TYPE_NOOP */
		a[n + 1] = (unsigned char)((tlv - 3) >> 8);
		a[n + 2] = (unsigned char)(tlv - 3);
		n += tlv;
	}
	return v2_raw(0x21, six ? 0x21 : 0x11, a, n);
}

/* ---- clients ---- */

static void pause_us(long us)
{
	struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
	nanosleep(&ts, NULL);
}

/* A connection from the proxy (127.0.0.1) that sent h; nothing read. */
static struct hc *via(struct hd *d, const struct hdr *h)
{
	struct hc *c = hc_open(d->port);
	ck_assert_msg(c != NULL, "could not connect");
	ck_assert_int_eq(hc_send(c, h->b, h->len), 0);
	return c;
}

/* A connection from the proxy for client `src` (v1 or v2 header), its ping answered. */
static struct hc *via_ok(struct hd *d, const struct hdr *h)
{
	struct hc *c = via(d, h);
	st_ping_ok(c);
	return c;
}

/* The connection was refused as over --max-per-address: one rate_limited line, then closed. */
static void refused(struct hc *c)
{
	json_t *m = hc_next(c, T);
	ck_assert_msg(m != NULL, "the connection over the limit got no error line");
	ERR(m, "rate_limited");
	ck_assert_msg(strstr(hj_str(m, "error.message"), "from this address"),
		      "not the per-address limit: %s", hj_text(m));
	json_decref(m);
	ck_assert_msg(hc_wait_closed(c, T), "the connection over the limit was not closed");
	hc_close(c);
}

/* The connection is closed with no reply (a bad or missing header). */
static void cut(struct hc *c, const char *what)
{
	json_t *m = hc_next(c, T);
	ck_assert_msg(m == NULL, "%s: a reply instead of a close: %s", what, hj_text(m));
	ck_assert_msg(c->eof, "%s: the connection was not closed", what);
	hc_close(c);
}

/* A daemon with --proxy-protocol, --max-per-address PER_ADDRESS, --proxy-timeout-ms
 * timeout_ms and --proxy-from `more` if not NULL. */
static void start_ex(struct hd *d, const char *more, int timeout_ms)
{
	char ms[16];
	snprintf(ms, sizeof ms, "%d", timeout_ms);
	const char *extra[] = {"--proxy-protocol", "--max-per-address", PER_ADDRESS,
			       "--proxy-timeout-ms", ms, more ? "--proxy-from" : NULL, more, NULL};
	st_start(d, extra);
}

/* start_ex with the short TIMEOUT_MS. */
static void start(struct hd *d, const char *more)
{
	start_ex(d, more, TIMEOUT_MS);
}

/* Two connections for client `a` (headers made by mk), a third refused, while client `b` and
 * a direct connection from DIRECT_ADDR still get in. */
static void limit_by_client(struct hd *d, struct hdr (*mk)(const char *), const char *a,
			    const char *b)
{
	struct hdr ha = mk(a), hb = mk(b);
	struct hc *c1 = via_ok(d, &ha), *c2 = via_ok(d, &ha);
	refused(via(d, &ha));
	struct hc *o1 = via_ok(d, &hb), *o2 = via_ok(d, &hb);
	struct hc *direct = hc_open_ex(d->port, DIRECT_ADDR, 0, 0);
	ck_assert(direct != NULL);
	st_ping_ok(direct);
	st_ping_ok(c1);
	st_ping_ok(c2);
	hc_close(c1);
	hc_close(c2);
	hc_close(o1);
	hc_close(o2);
	hc_close(direct);
}

static struct hdr v2_plain(const char *src)
{
	return v2(src, 0);
}

static struct hdr v2_tlv(const char *src)
{
	return v2(src, 40);
}

/* ---- tests ---- */

/* v1 TCP4 and TCP6: the per-address limit counts the client the header names, not the
 * proxy (before: every client had the proxy's address). */
START_TEST(t_v1_address)
{
	struct hd d;
	start(&d, NULL);
	limit_by_client(&d, v1, "10.0.0.1", "10.0.0.2");
	limit_by_client(&d, v1, "2001:db8::1", "2001:db8::2");
	ck_assert_msg(hd_log_has(&d, "proxy=127.0.0.1 addr=10.0.0.1 version=1"),
		      "the log does not name the client");
	ck_assert_msg(hd_log_has(&d, "addr=2001:db8::1"), "the log does not name the IPv6 client");
	st_finish(&d);
}
END_TEST

/* v2 PROXY over AF_INET and AF_INET6, with and without TLVs after the addresses. */
START_TEST(t_v2_address)
{
	struct hd d;
	start(&d, NULL);
	limit_by_client(&d, v2_plain, "10.0.0.1", "10.0.0.2");
	limit_by_client(&d, v2_tlv, "10.0.1.1", "10.0.1.2");
	limit_by_client(&d, v2_plain, "2001:db8::1", "2001:db8::2");
	ck_assert_msg(hd_log_has(&d, "proxy=127.0.0.1 addr=10.0.1.1 version=2"),
		      "the log does not name the client");
	st_finish(&d);
}
END_TEST

/* UNKNOWN (v1) and LOCAL (v2), and v2 PROXY with no usable address: the proxy's own address,
 * which has its own count; the clients' connections are not in it. */
START_TEST(t_local_unknown)
{
	struct hd d;
	start(&d, NULL);
	struct hdr unknown = {.len = 15}, unknown2 = {.len = 0};
	memcpy(unknown.b, "PROXY UNKNOWN\r\n", 15);
	unknown2.len = (size_t)snprintf((char *)unknown2.b, sizeof unknown2.b,
					"PROXY UNKNOWN ff::1 ff::2 1 2\r\n");
	struct hdr local = v2_raw(0x20, 0x00, "", 0), unspec = v2_raw(0x21, 0x00, "", 0);
	struct hdr client = v1("10.0.0.7");
	struct hc *p1 = via(&d, &client), *p2 = via(&d, &client); /* the client's two */
	st_ping_ok(p1);
	st_ping_ok(p2);
	struct hc *a = via_ok(&d, &unknown), *b = via_ok(&d, &local);
	refused(via(&d, &unknown2));
	refused(via(&d, &unspec));
	hc_close(a);
	hc_close(b);
	/* Their places are free again (the close is seen a moment later). */
	bool ok = false;
	for (int i = 0; i < 50 && !ok; i++) {
		struct hc *c = via(&d, &unspec);
		json_t *r = hc_req(c, "{s:s}", "cmd", "ping");
		ok = hj_ok(r);
		json_decref(r);
		hc_close(c);
		if (!ok)
			pause_us(PIECE_PAUSE_US);
	}
	ck_assert_msg(ok, "no room for the proxy's own connection after two closed");
	st_ping_ok(p1);
	st_ping_ok(p2);
	hc_close(p1);
	hc_close(p2);
	st_finish(&d);
}
END_TEST

/* Send h in pieces of `step` bytes, each its own read. */
static void send_pieces(struct hc *c, const unsigned char *b, size_t len, size_t step)
{
	for (size_t off = 0; off < len; off += step) {
		size_t n = len - off < step ? len - off : step;
		ck_assert_int_eq(hc_send(c, b + off, n), 0);
		pause_us(PIECE_PAUSE_US);
	}
}

/* A header split over several writes, and one with the first requests in the same write. */
START_TEST(t_split_and_joined)
{
	struct hd d;
	start_ex(&d, NULL, SPLIT_TIMEOUT_MS); /* a byte at a time takes longer than TIMEOUT_MS */
	struct hdr hs[] = {v1("10.0.0.1"), v2("10.0.0.2", 0), v2("2001:db8::3", 40)};
	for (size_t i = 0; i < sizeof hs / sizeof *hs; i++) {
		struct hc *c = hc_open(d.port);
		ck_assert(c != NULL);
		send_pieces(c, hs[i].b, hs[i].len, i == 0 ? 1 : 5);
		st_ping_ok(c);
		hc_close(c);
	}
	/* The header, two requests and half a third in one write; the rest later. */
	static const char lines[] = "{\"cmd\":\"ping\",\"id\":71}\n{\"cmd\":\"ping\",\"id\":72}\n"
				    "{\"cmd\":\"ping\",";
	for (size_t i = 0; i < sizeof hs / sizeof *hs; i++) {
		struct hdr h = hs[i];
		memcpy(h.b + h.len, lines, sizeof lines - 1);
		h.len += sizeof lines - 1;
		struct hc *c = via(&d, &h);
		ck_assert_int_eq(hc_send_line(c, "\"id\":73}"), 0);
		for (long long id = 71; id <= 73; id++) {
			json_t *r = hc_reply(c, T);
			OK(r);
			ck_assert_int_eq(hj_int(r, "id"), id);
			json_decref(r);
		}
		ck_assert_int_eq(c->bad_lines, 0);
		hc_close(c);
	}
	/* The end of the header and the start of a line in one piece. */
	struct hdr h = v1("10.0.0.9");
	struct hc *c = hc_open(d.port);
	ck_assert_int_eq(hc_send(c, h.b, h.len - 3), 0);
	pause_us(PIECE_PAUSE_US);
	ck_assert_int_eq(hc_send(c, h.b + h.len - 3, 3), 0);
	ck_assert_int_eq(hc_send(c, "{\"cmd\":\"ping\",\"id\":5}\n", 22), 0);
	json_t *r = hc_reply(c, T);
	OK(r);
	json_decref(r);
	hc_close(c);
	st_finish(&d);
}
END_TEST

/* Malformed and too long headers: closed without a reply, logged; the server goes on. */
START_TEST(t_bad_headers)
{
	struct hd d;
	start(&d, NULL);
	static const char *const texts[] = {
		"GET / HTTP/1.0\r\n\r\n",
		"{\"cmd\":\"ping\",\"id\":1}\n",
		"PROXY TCP4 999.0.0.1 127.0.0.1 1 2\r\n",
		"PROXY TCP4 10.0.0.1 127.0.0.1 1 2\n",
		"PROXY TCP4 10.0.0.1 127.0.0.1 1 99999\r\n",
		"PROXY TCP4 10.0.0.1 127.0.0.1 1\r\n",
		"PROXY TCP4 10.0.0.1  127.0.0.1 1 2\r\n",
		"PROXY TCP4 2001:db8::1 127.0.0.1 1 2\r\n",
		"PROXY TCP6 10.0.0.1 ::1 1 2\r\n",
		"PROXY UDP4 10.0.0.1 127.0.0.1 1 2\r\n",
		"proxy TCP4 10.0.0.1 127.0.0.1 1 2\r\n",
	};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		struct hdr h = {.len = strlen(texts[i])};
		memcpy(h.b, texts[i], h.len);
		cut(via(&d, &h), texts[i]);
	}
	/* v1 without a CRLF within 107 bytes (sent in pieces, the last one past the limit, and
	 * at once). */
	struct hdr lng = {.len = 4 * LONG_PIECE};
	ck_assert(lng.len > V1_MAX && lng.len - LONG_PIECE < V1_MAX);
	memcpy(lng.b, "PROXY UNKNOWN ", 14);
	memset(lng.b + 14, 'x', lng.len - 14);
	struct hc *c = hc_open(d.port);
	send_pieces(c, lng.b, lng.len, LONG_PIECE);
	cut(c, "a v1 line over 107 bytes in pieces");
	cut(via(&d, &lng), "a v1 line over 107 bytes");
	/* v2: wrong version, unknown command, unknown family, too long, too short. */
	unsigned char a[36] = {10, 0, 0, 1, 127, 0, 0, 1, 1, 1, 2, 2};
	struct hdr bad2[] = {v2_raw(0x11, 0x11, a, 12), v2_raw(0x22, 0x11, a, 12),
			     v2_raw(0x21, 0x41, a, 12), v2_raw(0x21, 0x13, a, 12),
			     v2_raw(0x21, 0x11, a, 8), v2_raw(0x21, 0x21, a, 12)};
	for (size_t i = 0; i < sizeof bad2 / sizeof *bad2; i++)
		cut(via(&d, &bad2[i]), "a bad v2 header");
	struct hdr huge = v2_raw(0x21, 0x11, a, 12);
	huge.b[14] = huge.b[15] = 0xFF; /* 65,535 bytes to follow */
	cut(via(&d, &huge), "a v2 header of 64 KiB");
	ck_assert_msg(hd_log_has(&d, "proxy_header"), "the bad headers were not logged");
	/* The server is fine and counted none of them. */
	struct hdr h = v1("10.0.0.1");
	struct hc *c1 = via_ok(&d, &h), *c2 = via_ok(&d, &h);
	hc_close(c1);
	hc_close(c2);
	st_finish(&d);
}
END_TEST

/* No header, or half of one, within --proxy-timeout-ms: closed (and logged); a connection
 * with its header meanwhile is not. */
START_TEST(t_timeout)
{
	struct hd d;
	start(&d, NULL);
	long long t0 = st_now_ms();
	struct hc *silent = hc_open(d.port), *half = hc_open(d.port);
	ck_assert(silent && half);
	ck_assert_int_eq(hc_send(half, "PROXY TCP4 10.", 14), 0);
	struct hdr h = v1("10.0.0.1");
	struct hc *good = via_ok(&d, &h);
	ck_assert_msg(hc_wait_closed(silent, TIMEOUT_MS + TIMEOUT_SLACK_MS),
		      "a connection without a header was not closed");
	ck_assert_msg(hc_wait_closed(half, TIMEOUT_MS + TIMEOUT_SLACK_MS),
		      "a connection with half a header was not closed");
	long long took = st_now_ms() - t0;
	ck_assert_msg(took >= TIMEOUT_MS - 50, "closed after %lld ms, before the timeout", took);
	hc_close(silent);
	hc_close(half);
	pause_us(2 * TIMEOUT_MS * 1000);
	st_ping_ok(good);
	hc_close(good);
	ck_assert_msg(hd_log_has(&d, "no PROXY header in time"), "the timeout was not logged");
	st_finish(&d);
}
END_TEST

/* The login limiter counts the client the header names: LOGIN_FAILS failures through the
 * proxy for one client stop that client, not another one behind the same proxy. */
static json_t *login(struct hc *c, const char *name, const char *pw)
{
	return hc_req(c, "{s:s, s:s, s:s}", "cmd", "login", "name", name, "password", pw);
}

START_TEST(t_login_limit)
{
	struct hd d;
	start(&d, NULL);
	struct hdr hr = v1("10.0.0.4"), ha = v1("10.0.0.5"), hb = v2("10.0.0.6", 0);
	struct hc *reg = via(&d, &hr);
	ck_assert(hc_login_as(reg, "victim"));
	hc_close(reg);
	struct hc *a = via(&d, &ha);
	json_t *r;
	for (int i = 0; i < LOGIN_FAILS; i++) {
		r = login(a, "victim", "not the password");
		ERR(r, "unauthenticated");
		json_decref(r);
	}
	r = login(a, "victim", "victim" HARNESS_PASSWORD_SUFFIX);
	ERR(r, "rate_limited");
	json_decref(r);
	struct hc *b = via(&d, &hb);
	r = login(b, "victim", "victim" HARNESS_PASSWORD_SUFFIX);
	OK(r);
	json_decref(r);
	hc_close(a);
	hc_close(b);
	st_finish(&d);
}
END_TEST

/* --proxy-from: only the listed address sends a header; 127.0.0.1 is then direct. */
START_TEST(t_proxy_from)
{
	struct hd d;
	start(&d, OTHER_PROXY);
	struct hc *direct = hc_open(d.port);
	ck_assert(direct != NULL);
	st_ping_ok(direct);
	struct hdr h = v1("10.0.0.1");
	struct hc *c = hc_open_ex(d.port, OTHER_PROXY, 0, 0);
	ck_assert(c != NULL);
	ck_assert_int_eq(hc_send(c, h.b, h.len), 0);
	st_ping_ok(c);
	struct hc *raw = hc_open_ex(d.port, OTHER_PROXY, 0, 0);
	ck_assert(raw != NULL);
	ck_assert_int_eq(hc_send_line(raw, "{\"cmd\":\"ping\",\"id\":1}"), 0);
	cut(raw, "a line from the listed proxy without a header");
	hc_close(direct);
	hc_close(c);
	st_finish(&d);
}
END_TEST

/* Without --proxy-protocol a PROXY line is a bad request like any other, and the connection
 * goes on; the options are refused without it or with a bad list. */
START_TEST(t_off)
{
	struct hd d;
	st_start(&d, NULL);
	struct hc *c = hc_open(d.port);
	ck_assert(c != NULL);
	struct hdr h = v1("10.0.0.1");
	ck_assert_int_eq(hc_send(c, h.b, h.len), 0);
	json_t *r = hc_reply(c, T);
	ERR(r, "bad_request");
	json_decref(r);
	st_ping_ok(c);
	hc_close(c);
	st_finish(&d);
	char out[OUT_MAX];
	static const char *const lone[] = {"--proxy-from", "127.0.0.1", NULL};
	ck_assert_int_eq(hd_run(lone, NULL, out, sizeof out, T), 2);
	ck_assert_msg(strstr(out, "--proxy-protocol"), "the refusal should name it: %s", out);
	static const char *const bad[] = {"--proxy-protocol", "--proxy-from", "127.0.0.1,,x", NULL};
	ck_assert_int_eq(hd_run(bad, NULL, out, sizeof out, T), 2);
	static const char *const help[] = {"--help", NULL};
	ck_assert_int_eq(hd_run(help, NULL, out, sizeof out, T), 0);
	ck_assert_msg(strstr(out, "--proxy-protocol") && strstr(out, "--proxy-from"),
		      "--help should list the proxy options: %s", out);
}
END_TEST

static Suite *proxy_suite(void)
{
	Suite *s = suite_create("proxy");
	TCase *tc = tcase_create("proxy");
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, t_v1_address);
	tcase_add_test(tc, t_v2_address);
	tcase_add_test(tc, t_local_unknown);
	tcase_add_test(tc, t_split_and_joined);
	tcase_add_test(tc, t_bad_headers);
	tcase_add_test(tc, t_timeout);
	tcase_add_test(tc, t_login_limit);
	tcase_add_test(tc, t_proxy_from);
	tcase_add_test(tc, t_off);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(proxy_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
