/* proxy: the PROXY protocol header. See proxy.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include "proxy.h"

#define V1_SIG "PROXY "           /* v1: the line's beginning */
#define V1_SIG_LEN 6
#define V2_SIG_LEN 12
#define V2_VERSION 2              /* the high nibble of byte 13 */
#define V2_CMD_LOCAL 0            /* ... its low nibble */
#define V2_CMD_PROXY 1
#define V2_INET_STREAM 0x11       /* byte 14: AF_INET over STREAM */
#define V2_INET6_STREAM 0x21      /* AF_INET6 over STREAM */
#define V2_INET_LEN 12            /* src, dst addresses and ports of AF_INET */
#define V2_INET6_LEN 36           /* ... of AF_INET6 */
#define V2_FAMILY_MAX 3           /* UNSPEC 0, INET 1, INET6 2, UNIX 3 (high nibble) */
#define V2_TRANSPORT_MAX 2        /* UNSPEC 0, STREAM 1, DGRAM 2 (low nibble) */
#define V1_FIELDS 5               /* TCP4|TCP6 SRC DST SPORT DPORT */
#define PORT_DIGITS 5

static const unsigned char v2_sig[V2_SIG_LEN] = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D,
						 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

static enum proxy_rc bad(struct proxy_header *h, const char *why)
{
	h->why = why;
	return PROXY_BAD;
}

/* Do b[0..len) and sig[0..n) agree on their common length? */
static bool agrees(const unsigned char *b, size_t len, const void *sig, size_t n)
{
	return memcmp(b, sig, len < n ? len : n) == 0;
}

/* The text of address a (family AF_INET or AF_INET6) into h->addr; an IPv4-mapped IPv6
 * address as its IPv4 address, so that one client has one set of counters whichever way the
 * proxy wrote it. */
static void addr_text(int fam, const unsigned char *a, struct proxy_header *h)
{
	static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
	if (fam == AF_INET6 && memcmp(a, mapped, sizeof mapped) == 0) { /* bytes: a may be unaligned */
		fam = AF_INET;
		a += 12;
	}
	inet_ntop(fam, a, h->addr, sizeof h->addr);
}

/* A v1 port: 1 to 5 decimal digits, at most 65535. */
static bool port_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > PORT_DIGITS || strspn(s, "0123456789") != n)
		return false;
	return strtol(s, NULL, 10) <= UINT16_MAX;
}

/* The fields of a v1 line after "PROXY " (NUL-terminated, no CRLF). */
static enum proxy_rc parse_v1_fields(char *line, struct proxy_header *h)
{
	if (strncmp(line, "UNKNOWN", 7) == 0 && (line[7] == '\0' || line[7] == ' ')) {
		h->local = true; /* the spec: the rest of the line is ignored */
		return PROXY_DONE;
	}
	char *f[V1_FIELDS];
	int nf = 0;
	for (char *p = line;;) {
		if (nf == V1_FIELDS)
			return bad(h, "v1: too many fields");
		f[nf++] = p;
		char *sp = strchr(p, ' ');
		if (!sp)
			break;
		*sp = '\0';
		p = sp + 1;
	}
	if (nf != V1_FIELDS)
		return bad(h, "v1: too few fields");
	int fam = strcmp(f[0], "TCP4") == 0 ? AF_INET : strcmp(f[0], "TCP6") == 0 ? AF_INET6 : 0;
	if (!fam)
		return bad(h, "v1: protocol not TCP4, TCP6 or UNKNOWN");
	struct in6_addr src, dst; /* room for either family */
	if (inet_pton(fam, f[1], &src) != 1 || inet_pton(fam, f[2], &dst) != 1)
		return bad(h, "v1: bad address");
	if (!port_ok(f[3]) || !port_ok(f[4]))
		return bad(h, "v1: bad port");
	addr_text(fam, src.s6_addr, h);
	return PROXY_DONE;
}

/* v1: b[0..len) begins as "PROXY " does. */
static enum proxy_rc parse_v1(const unsigned char *b, size_t len, struct proxy_header *h)
{
	size_t n = len < PROXY_V1_MAX ? len : PROXY_V1_MAX;
	const unsigned char *nl = memchr(b, '\n', n);
	if (!nl)
		return len >= PROXY_V1_MAX ? bad(h, "v1: no CRLF within 107 bytes") : PROXY_MORE;
	size_t end = (size_t)(nl - b); /* the \n; past the signature, which holds none */
	if (b[end - 1] != '\r')
		return bad(h, "v1: line not ended by CRLF");
	char line[PROXY_V1_MAX];
	size_t ll = end - 1 - V1_SIG_LEN;
	memcpy(line, b + V1_SIG_LEN, ll);
	line[ll] = '\0';
	if (memchr(b, '\0', end))
		return bad(h, "v1: NUL byte");
	h->version = 1;
	h->len = end + 1;
	return parse_v1_fields(line, h);
}

/* v2: b[0..len) agrees with the signature. Each byte is checked as soon as it is there. */
static enum proxy_rc parse_v2(const unsigned char *b, size_t len, struct proxy_header *h)
{
	if (len > V2_SIG_LEN) {
		if (b[12] >> 4 != V2_VERSION)
			return bad(h, "v2: version not 2");
		if ((b[12] & 0xF) != V2_CMD_LOCAL && (b[12] & 0xF) != V2_CMD_PROXY)
			return bad(h, "v2: command not LOCAL or PROXY");
	}
	if (len > V2_SIG_LEN + 1 && ((b[13] >> 4) > V2_FAMILY_MAX || (b[13] & 0xF) > V2_TRANSPORT_MAX))
		return bad(h, "v2: unknown family or transport");
	if (len < PROXY_V2_HEAD)
		return PROXY_MORE;
	size_t plen = (size_t)b[14] << 8 | b[15];
	if (plen > PROXY_V2_MAX_LEN)
		return bad(h, "v2: header longer than we accept");
	if (len < PROXY_V2_HEAD + plen)
		return PROXY_MORE;
	h->version = 2;
	h->len = PROXY_V2_HEAD + plen;
	const unsigned char *a = b + PROXY_V2_HEAD; /* source address first; TLVs after: skipped */
	if ((b[12] & 0xF) == V2_CMD_LOCAL) {
		h->local = true; /* the proxy's own connection (a health check): its address */
	} else if (b[13] == V2_INET_STREAM) {
		if (plen < V2_INET_LEN)
			return bad(h, "v2: address block too short");
		addr_text(AF_INET, a, h);
	} else if (b[13] == V2_INET6_STREAM) {
		if (plen < V2_INET6_LEN)
			return bad(h, "v2: address block too short");
		addr_text(AF_INET6, a, h);
	} else {
		h->local = true; /* UNSPEC, UNIX, DGRAM: the spec lets us keep the real endpoint */
	}
	return PROXY_DONE;
}

enum proxy_rc proxy_parse(const void *buf, size_t len, struct proxy_header *h)
{
	const unsigned char *b = buf;
	memset(h, 0, sizeof *h);
	if (len == 0)
		return PROXY_MORE;
	if (agrees(b, len, v2_sig, V2_SIG_LEN))
		return parse_v2(b, len, h);
	if (agrees(b, len, V1_SIG, V1_SIG_LEN))
		return parse_v1(b, len, h);
	return bad(h, "no PROXY header");
}

int proxy_from_parse(const char *list, struct proxy_from *f)
{
	memset(f, 0, sizeof *f);
	for (const char *p = list;; p++) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char one[PROXY_ADDR_MAX];
		if (n == 0 || n >= sizeof one || f->n == PROXY_FROM_MAX)
			return -1;
		memcpy(one, p, n);
		one[n] = '\0';
		if (inet_pton(AF_INET, one, f->addr[f->n].a) == 1)
			f->addr[f->n].family = AF_INET;
		else if (inet_pton(AF_INET6, one, f->addr[f->n].a) == 1)
			f->addr[f->n].family = AF_INET6;
		else
			return -1;
		f->n++;
		if (!end)
			return 0;
		p = end;
	}
}

bool proxy_from_has(const struct proxy_from *f, const struct sockaddr *sa)
{
	const unsigned char *v4 = NULL, *v6 = NULL;
	if (sa->sa_family == AF_INET) {
		v4 = (const unsigned char *)&((const struct sockaddr_in *)sa)->sin_addr;
	} else if (sa->sa_family == AF_INET6) {
		const struct in6_addr *a6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;
		v6 = a6->s6_addr;
		if (IN6_IS_ADDR_V4MAPPED(a6))
			v4 = v6 + 12;
	}
	for (unsigned i = 0; i < f->n; i++) {
		if (f->addr[i].family == AF_INET && v4 && memcmp(f->addr[i].a, v4, 4) == 0)
			return true;
		if (f->addr[i].family == AF_INET6 && v6 && memcmp(f->addr[i].a, v6, 16) == 0)
			return true;
	}
	return false;
}
