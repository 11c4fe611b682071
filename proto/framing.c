/* framing: line splitter. See framing.h. */
#include <stdlib.h>
#include <string.h>
#include "framing.h"

/* The largest unfinished line kept: the limit plus a possible trailing '\r'. */
static size_t partial_max(const struct framing *f)
{
	return f->max_line + 1;
}

void framing_init(struct framing *f)
{
	memset(f, 0, sizeof *f);
	f->max_line = FRAMING_MAX_LINE;
}

void framing_set_max(struct framing *f, size_t max_line)
{
	f->max_line = max_line > 0 ? max_line : 1;
}

void framing_free(struct framing *f)
{
	free(f->buf);
	free(f->marks);
	framing_init(f);
}

size_t framing_pending(const struct framing *f)
{
	return f->len - f->start;
}

/* Move the untaken bytes (and the marks) to the front of the buffer. */
static void compact(struct framing *f)
{
	if (f->start == 0)
		return;
	memmove(f->buf, f->buf + f->start, f->len - f->start);
	for (size_t i = f->mark_head; i < f->nmarks; i++)
		f->marks[i] -= f->start;
	f->len -= f->start;
	f->start = 0;
}

/* Make room for `more` bytes at the end. Returns 0 or -1 (out of memory). */
static int reserve(struct framing *f, size_t more)
{
	if (f->cap - f->len >= more)
		return 0;
	compact(f);
	size_t need = f->len + more;
	if (f->cap >= need)
		return 0;
	size_t want = f->cap ? f->cap : FRAMING_INITIAL_CAP;
	while (want < need)
		want *= 2;
	/* An unfinished line never needs more than this: do not overshoot by doubling. */
	if (need <= partial_max(f) + 1 && want > partial_max(f) + 1)
		want = partial_max(f) + 1;
	char *nb = realloc(f->buf, want);
	if (!nb)
		return -1;
	f->buf = nb;
	f->cap = want;
	return 0;
}

static int append(struct framing *f, const char *p, size_t n)
{
	if (reserve(f, n) < 0)
		return -1;
	memcpy(f->buf + f->len, p, n);
	f->len += n;
	return 0;
}

/* Drop the unfinished line and note that a FRAMING_TOO_LONG is due where it began. */
static int mark_too_long(struct framing *f)
{
	f->len -= f->partial;
	f->partial = 0;
	if (f->mark_head == f->nmarks)
		f->mark_head = f->nmarks = 0;
	if (f->nmarks == f->mark_cap) {
		if (f->mark_head > 0) {
			memmove(f->marks, f->marks + f->mark_head,
				(f->nmarks - f->mark_head) * sizeof *f->marks);
			f->nmarks -= f->mark_head;
			f->mark_head = 0;
		} else {
			size_t ncap = f->mark_cap ? f->mark_cap * 2 : 4;
			size_t *nm = realloc(f->marks, ncap * sizeof *nm);
			if (!nm)
				return -1;
			f->marks = nm;
			f->mark_cap = ncap;
		}
	}
	f->marks[f->nmarks++] = f->len;
	return 0;
}

int framing_feed(struct framing *f, const char *buf, size_t len)
{
	/* Nothing left to hand out: start over at the front, and give back a large buffer. */
	if (f->start == f->len && f->mark_head == f->nmarks) {
		f->start = f->len = 0;
		if (f->cap > partial_max(f) + 1) {
			free(f->buf);
			f->buf = NULL;
			f->cap = 0;
		}
	}
	while (len > 0) {
		const char *nl = memchr(buf, '\n', len);
		if (f->discarding) {
			if (!nl)
				return 0;
			f->discarding = false;
			len -= (size_t)(nl + 1 - buf);
			buf = nl + 1;
			continue;
		}
		if (nl) {
			size_t seg = (size_t)(nl - buf);    /* bytes before the '\n' */
			size_t content = f->partial + seg;
			char last = seg > 0 ? nl[-1] : f->partial > 0 ? f->buf[f->len - 1] : '\0';
			if (content > 0 && last == '\r')
				content--;
			if (content > f->max_line) {
				if (mark_too_long(f) < 0)
					return -1;
			} else if (append(f, buf, seg + 1) < 0) {
				return -1;
			}
			f->partial = 0;
			len -= seg + 1;
			buf = nl + 1;
		} else {
			if (f->partial + len > partial_max(f)) {
				if (mark_too_long(f) < 0)
					return -1;
				f->discarding = true;
				return 0;
			}
			if (append(f, buf, len) < 0)
				return -1;
			f->partial += len;
			return 0;
		}
	}
	return 0;
}

enum framing_result framing_next(struct framing *f, const char **line, size_t *len)
{
	if (f->mark_head < f->nmarks && f->marks[f->mark_head] == f->start) {
		f->mark_head++;
		return FRAMING_TOO_LONG;
	}
	size_t complete = f->len - f->partial; /* end of the complete lines */
	if (f->start >= complete)
		return FRAMING_NONE;
	char *p = f->buf + f->start;
	char *nl = memchr(p, '\n', complete - f->start);
	if (!nl)
		return FRAMING_NONE; /* cannot happen: complete lines end in '\n' */
	size_t n = (size_t)(nl - p);
	if (n > 0 && p[n - 1] == '\r')
		n--;
	p[n] = '\0';
	f->start += (size_t)(nl + 1 - p);
	*line = p;
	*len = n;
	return FRAMING_LINE;
}
