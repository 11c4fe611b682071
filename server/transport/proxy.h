/* proxy: the PROXY protocol header a TLS-terminating proxy (nginx `proxy_protocol on;`,
 * HAProxy `send-proxy`) puts before a client's bytes, so that tengend's per-address limits see
 * the client and not the proxy (issue 20, item 9). Pure parsing, no I/O: transport/tcp.c feeds
 * the first bytes of a connection from a listed proxy (--proxy-from) here.
 *
 * Source of the rules: the HAProxy specification, "The PROXY protocol, versions 1 & 2"
 * (https://www.haproxy.org/download/2.9/doc/proxy-protocol.txt):
 *   v1: one line of US-ASCII, "PROXY TCP4 SRC DST SPORT DPORT\r\n" (TCP6 likewise, or
 *       "PROXY UNKNOWN...\r\n"), at most 107 bytes with the CRLF;
 *   v2: the 12-byte signature \r\n\r\n\0\r\nQUIT\n, a version/command byte (0x2 in the high
 *       nibble; command LOCAL 0 or PROXY 1), a family/transport byte, a 16-bit big-endian
 *       length of what follows: the addresses (AF_INET: 4+4+2+2 bytes, AF_INET6: 16+16+2+2),
 *       then TLVs (skipped here).
 * UNKNOWN, LOCAL and a PROXY command with a family or transport other than AF_INET/AF_INET6
 * over STREAM say "no client address": the connection keeps the proxy's own address.
 */
#ifndef TENGEN_PROXY_H
#define TENGEN_PROXY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#define PROXY_V1_MAX 107          /* bytes of a v1 line with its CRLF, at most (the spec's) */
#define PROXY_V2_HEAD 16          /* signature, version/command, family, length */
#define PROXY_V2_MAX_LEN 1024     /* v2: addresses and TLVs we wait for, at most (ours; the
                                     addresses take 12 or 36 bytes, AF_UNIX 216) */
#define PROXY_HEADER_MAX (PROXY_V2_HEAD + PROXY_V2_MAX_LEN) /* a header's bytes, at most */
#define PROXY_ADDR_MAX 64         /* the text of an address, with its NUL (INET6_ADDRSTRLEN 46) */
#define PROXY_FROM_MAX 16         /* addresses in --proxy-from, at most */
#define PROXY_FROM_DEFAULT "127.0.0.1,::1" /* --proxy-from: a proxy on the same machine */

enum proxy_rc {
	PROXY_MORE,               /* a valid beginning: wait for more bytes */
	PROXY_DONE,               /* a whole header, of h->len bytes */
	PROXY_BAD,                /* not a header (h->why says what is wrong) */
};

/* What a header says. */
struct proxy_header {
	size_t len;               /* its bytes (the first bytes after it are the client's) */
	int version;              /* 1 or 2 */
	bool local;               /* UNKNOWN, LOCAL or no usable address: keep the proxy's */
	char addr[PROXY_ADDR_MAX]; /* else the client's (source) address, as inet_ntop writes it
	                              (an IPv4-mapped IPv6 address as its IPv4 address) */
	const char *why;          /* PROXY_BAD: a static text for the log */
};

/* Parse the first `len` bytes of a connection (buf may be NULL when len is 0). Returns
 * PROXY_MORE while they are a proper beginning of a header shorter than its limit
 * (PROXY_V1_MAX, PROXY_V2_HEAD + PROXY_V2_MAX_LEN), PROXY_DONE with *h filled in, or PROXY_BAD
 * (h->why set): the bytes can be no header (wrong signature, a bad field, too long). Never
 * reads past buf[len - 1]. */
enum proxy_rc proxy_parse(const void *buf, size_t len, struct proxy_header *h);

/* The proxies allowed to send a header (--proxy-from). */
struct proxy_from {
	unsigned n;
	struct {
		int family;               /* AF_INET or AF_INET6 */
		unsigned char a[16];      /* the address, network order (4 bytes for AF_INET) */
	} addr[PROXY_FROM_MAX];
};

/* Parse a comma-separated list of IPv4 and IPv6 addresses ("127.0.0.1,::1"; no ports, no
 * names) into *f. Returns 0, or -1 (an address that is none, an empty item, more than
 * PROXY_FROM_MAX). */
int proxy_from_parse(const char *list, struct proxy_from *f);
/* Is the peer address sa (AF_INET or AF_INET6; an IPv4-mapped IPv6 address counts as its IPv4
 * address) in f? */
bool proxy_from_has(const struct proxy_from *f, const struct sockaddr *sa);

#endif
