/* jsonout: the compact text of a jansson value, written in one pass.
 *
 * The bytes are exactly those of json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) (jansson 2.14):
 * keys in insertion order, "," and ":" without spaces, strings as UTF-8 with only '"', '\\' and
 * control characters escaped (\b \f \n \r \t, else \u00XX), integers in decimal, reals as
 * "%.17g" with ".0" added to an integral value and the exponent's '+' and leading zeros
 * removed. tests/test_proto checks the equality on random values. What it leaves out is
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

#endif
