/* jsonout: compact JSON text of a jansson value. See jsonout.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jsonout.h"

/* Room for n more bytes (and a final "\n\0"). */
static int reserve(struct jsonout *o, size_t n)
{
	if (o->failed)
		return -1; /* the text is lost: later pieces are no-ops */
	if (o->len + n + 2 <= o->cap)
		return 0;
	size_t ncap = o->cap * 2;
	while (o->len + n + 2 > ncap)
		ncap *= 2;
	char *np = realloc(o->p, ncap);
	if (!np) {
		o->failed = 1;
		return -1;
	}
	o->p = np;
	o->cap = ncap;
	return 0;
}

static void put(struct jsonout *o, const char *s, size_t n)
{
	if (reserve(o, n) == 0) {
		memcpy(o->p + o->len, s, n);
		o->len += n;
	}
}

static void put_string(struct jsonout *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	/* At most 6 bytes of output per input byte (\u00XX). */
	if (reserve(o, 6 * n + 2) < 0)
		return;
	char *d = o->p + o->len;
	*d++ = '"';
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\') {
			*d++ = (char)c;
			continue;
		}
		*d++ = '\\';
		switch (c) {
		case '"': *d++ = '"'; break;
		case '\\': *d++ = '\\'; break;
		case '\b': *d++ = 'b'; break;
		case '\f': *d++ = 'f'; break;
		case '\n': *d++ = 'n'; break;
		case '\r': *d++ = 'r'; break;
		case '\t': *d++ = 't'; break;
		default:
			*d++ = 'u';
			*d++ = '0';
			*d++ = '0';
			*d++ = hex[c >> 4];
			*d++ = hex[c & 15];
		}
	}
	*d++ = '"';
	o->len = (size_t)(d - o->p);
}

static void put_integer(struct jsonout *o, json_int_t v)
{
	char buf[24], *e = buf + sizeof buf, *b = e;
	/* Unsigned arithmetic: -INT64_MIN does not overflow. */
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do {
		*--b = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--b = '-';
	put(o, b, (size_t)(e - b));
}

/* jansson's jsonp_dtostr with precision 17 (the C locale's '.'). */
static void put_real(struct jsonout *o, double v)
{
	char buf[40];
	int n = snprintf(buf, sizeof buf - 3, "%.17g", v);
	if (n < 0 || (size_t)n >= sizeof buf - 3) {
		o->failed = 1;
		return;
	}
	size_t len = (size_t)n;
	if (!strchr(buf, '.') && !strchr(buf, 'e')) {
		buf[len++] = '.';
		buf[len++] = '0';
		buf[len] = '\0';
	}
	char *start = strchr(buf, 'e');
	if (start) {
		start++;
		char *end = start + 1;
		if (*start == '-')
			start++;
		while (*end == '0')
			end++;
		if (end != start) {
			memmove(start, end, len - (size_t)(end - buf));
			len -= (size_t)(end - start);
		}
	}
	put(o, buf, len);
}

static void put_value(struct jsonout *o, const json_t *v, int depth)
{
	if (o->failed)
		return;
	switch (json_typeof(v)) {
	case JSON_NULL: put(o, "null", 4); break;
	case JSON_TRUE: put(o, "true", 4); break;
	case JSON_FALSE: put(o, "false", 5); break;
	case JSON_INTEGER: put_integer(o, json_integer_value(v)); break;
	case JSON_REAL: put_real(o, json_real_value(v)); break;
	case JSON_STRING: put_string(o, json_string_value(v), json_string_length(v)); break;
	case JSON_ARRAY: {
		if (depth >= JSONOUT_MAX_DEPTH) {
			o->failed = 1;
			return;
		}
		put(o, "[", 1);
		size_t n = json_array_size(v);
		for (size_t i = 0; i < n && !o->failed; i++) {
			if (i)
				put(o, ",", 1);
			put_value(o, json_array_get(v, i), depth + 1);
		}
		put(o, "]", 1);
		break;
	}
	case JSON_OBJECT: {
		if (depth >= JSONOUT_MAX_DEPTH) {
			o->failed = 1;
			return;
		}
		put(o, "{", 1);
		int first = 1;
		for (void *it = json_object_iter((json_t *)v); it && !o->failed;
		     it = json_object_iter_next((json_t *)v, it)) {
			if (!first)
				put(o, ",", 1);
			first = 0;
			put_string(o, json_object_iter_key(it), json_object_iter_key_len(it));
			put(o, ":", 1);
			put_value(o, json_object_iter_value(it), depth + 1);
		}
		put(o, "}", 1);
		break;
	}
	default:
		o->failed = 1;
	}
}

int jsonout_init(struct jsonout *o)
{
	*o = (struct jsonout){ malloc(JSONOUT_START), 0, JSONOUT_START, 0 };
	return o->p ? 0 : -1;
}

void jsonout_raw(struct jsonout *o, const char *text, size_t n)
{
	put(o, text, n);
}

void jsonout_str(struct jsonout *o, const char *s)
{
	put_string(o, s, strlen(s));
}

void jsonout_bool(struct jsonout *o, int b)
{
	if (b)
		put(o, "true", 4);
	else
		put(o, "false", 5);
}

void jsonout_int(struct jsonout *o, long long v)
{
	put_integer(o, (json_int_t)v);
}

void jsonout_value(struct jsonout *o, const json_t *v)
{
	if (!v)
		o->failed = 1;
	else
		put_value(o, v, 0);
}

char *jsonout_finish(struct jsonout *o, int newline, size_t *len)
{
	if (o->failed) {
		free(o->p);
		o->p = NULL;
		return NULL;
	}
	/* reserve() always leaves room for these two. */
	if (newline)
		o->p[o->len++] = '\n';
	o->p[o->len] = '\0';
	if (len)
		*len = o->len;
	char *p = o->p;
	o->p = NULL;
	return p;
}

char *jsonout_dumps(const json_t *v, int newline, size_t *len)
{
	struct jsonout o;
	if (!v || jsonout_init(&o) < 0)
		return NULL;
	jsonout_value(&o, v);
	return jsonout_finish(&o, newline, len);
}
