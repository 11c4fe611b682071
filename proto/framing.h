/* framing: split a connection's byte stream into lines (docs/protocol.md "Framing"). Pure, no I/O.
 *
 * Bytes are fed as they arrive (any split); framing_next then hands out complete lines in
 * order. `\n` ends a line and one trailing `\r` is stripped. A line of more than
 * f->max_line bytes (not counting `\r\n`; FRAMING_MAX_LINE unless framing_set_max changed it) is
 * reported once as FRAMING_TOO_LONG, as soon as
 * it is seen to be too long, and the rest of it up to the next `\n` is dropped; the lines after
 * it come out normally. NUL bytes inside a line are passed through.
 *
 * Memory: the buffer holds the complete lines not yet taken plus at most f->max_line + 1
 * bytes of the unfinished line; an over-long line is never buffered beyond that. A server that
 * takes a bounded number of lines per read should stop reading while framing_pending() is large
 * (e.g. more than FRAMING_MAX_LINE) so a flood of short lines cannot grow it either.
 */
#ifndef TENGEN_FRAMING_H
#define TENGEN_FRAMING_H

#include <stdbool.h>
#include <stddef.h>

#define FRAMING_MAX_LINE 65536 /* bytes in a line, without its "\n" or "\r\n" (docs/protocol.md) */
/* The most bytes of an unfinished line kept (the line and its "\r" before the "\n" comes):
 * a reader pausing while more than this is pending must not pause on an unfinished line of
 * exactly this length, or its "\n" is never read (a 65,537-byte line hung its connection). */
#define FRAMING_MAX_PARTIAL (FRAMING_MAX_LINE + 1)
#define FRAMING_INITIAL_CAP 4096 /* first buffer allocation, bytes */
/* The longest line tengend sends (a reply or an event), bytes without its "\n": a reply that
 * would be longer is replaced by an `internal` error reply (docs/protocol.md "Limits"). The
 * client frames the server's lines with this limit (framing_set_max), so every line the server
 * may send is read whole. Below the server's default --max-queued (8 MiB). */
#define FRAMING_MAX_SEND_LINE (4u << 20)

enum framing_result {
	FRAMING_NONE = 0, /* no complete line yet: feed more bytes */
	FRAMING_LINE,     /* *line, *len hold the next line */
	FRAMING_TOO_LONG  /* the next line was longer than FRAMING_MAX_LINE and is dropped */
};

struct framing {
	char *buf;          /* buffered bytes: buf[start..len) are not taken yet */
	size_t cap;         /* allocated size of buf */
	size_t start;       /* first byte not yet handed out */
	size_t len;         /* bytes in use */
	size_t partial;     /* bytes of the unfinished last line (at the end of buf) */
	bool discarding;    /* inside an over-long line: drop bytes up to the next "\n" */
	size_t *marks;      /* buffer offsets at which a FRAMING_TOO_LONG is due, ascending */
	size_t nmarks;      /* marks[mark_head..nmarks) are pending */
	size_t mark_head;
	size_t mark_cap;
	size_t max_line;    /* the longest line taken, bytes (FRAMING_MAX_LINE by default) */
};

/* Start with an empty buffer (allocates nothing) and the limit FRAMING_MAX_LINE. */
void framing_init(struct framing *f);
/* Take lines of up to `max_line` bytes instead (>= 1; e.g. FRAMING_MAX_SEND_LINE for the
 * client reading the server). Call right after framing_init, before any byte is fed. */
void framing_set_max(struct framing *f, size_t max_line);
/* Release the buffer; f may be initialised again (framing_init: the default limit). */
void framing_free(struct framing *f);
/* Append `len` bytes received from the peer. Returns 0, or -1 when out of memory (the stream
 * is then in an unknown state: close the connection). Invalidates a line from framing_next. */
int framing_feed(struct framing *f, const char *buf, size_t len);
/* Take the next event. On FRAMING_LINE, *line points at the line's `*len` bytes (without "\r\n";
 * NUL-terminated for convenience, but may contain NUL bytes), valid until the next call to
 * framing_feed, framing_next or framing_free. Lines not taken stay buffered for later calls. */
enum framing_result framing_next(struct framing *f, const char **line, size_t *len);
/* Bytes buffered and not yet handed out (complete lines plus the unfinished one). */
size_t framing_pending(const struct framing *f);

#endif
