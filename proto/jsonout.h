/* jsonout: the compact text of a jansson value, written in one pass.
 *
 * The bytes are exactly those of json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) (jansson 2.14):
 * keys in insertion order, "," and ":" without spaces, strings as UTF-8 with only '"', '\\' and
 * control characters escaped (\b \f \n \r \t, else \u00XX), integers in decimal, reals as
 * "%.17g" with ".0" added to an integral value and the exponent's '+' and leading zeros
 * removed. tests/unit/test_wire checks the equality on random values. What it leaves out is
 * jansson's cycle detection (a snprintf, a hash insert and an allocation per object or array
 * dumped, most of the cost of a small message): a value nested deeper than JSONOUT_MAX_DEPTH,
 * which any cycle is, is refused instead.
 */
#ifndef TENGEN_JSONOUT_H
#define TENGEN_JSONOUT_H

#include <stddef.h>
#include <jansson.h>

#define JSONOUT_MAX_DEPTH 64   /* nesting of objects and arrays; a cycle is refused here */
#define JSONOUT_START 512      /* first buffer size in bytes (doubled as needed) */

/* The text of v, NUL-terminated, followed by "\n" if `newline`. *len (may be NULL) gets its
 * length in bytes without the NUL. Caller frees. NULL if v is NULL, nests too deep, or memory
 * runs out. */
char *jsonout_dumps(const json_t *v, int newline, size_t *len);

/* The same text written piece by piece, for a message on a hot path whose fields are at hand
 * (no value tree to build and free): jsonout_init, then pieces in order, then jsonout_finish,
 * which returns the text (as jsonout_dumps) or NULL if memory ran out or a value was refused,
 * and frees nothing else either way. A failed piece makes the later ones no-ops. */
struct jsonout {
	char *p;
	size_t len, cap;
	int failed;
};

/* 0, or -1 when memory runs out (nothing to free then). */
int jsonout_init(struct jsonout *o);
/* Text that is JSON already (punctuation, keys, a value's text), n bytes. */
void jsonout_raw(struct jsonout *o, const char *text, size_t n);
#define jsonout_lit(o, literal) jsonout_raw((o), "" literal, sizeof(literal) - 1)
/* A JSON string of the NUL-terminated s (UTF-8), escaped as jsonout_dumps does. */
void jsonout_str(struct jsonout *o, const char *s);
void jsonout_int(struct jsonout *o, long long v);
void jsonout_bool(struct jsonout *o, int b);
/* A jansson value as jsonout_dumps writes it (NULL fails the text). */
void jsonout_value(struct jsonout *o, const json_t *v);
char *jsonout_finish(struct jsonout *o, int newline, size_t *len);

#endif
