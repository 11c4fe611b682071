/* export_ascii: text for the European Go Database's rating program, which reads tournament
 * tables as ASCII text files (EGD "Tournament table format"). Names and clubs are kept in
 * UTF-8 on the server; the h9 export writes them through here. See docs/tiebreaks.md
 * ("Exports", "Encoding"). */
#include "config.h"

#include <string.h>

#include "export_int.h"

#define LATIN_FIRST 0xC0  /* the first code point of the table: U+00C0 (A grave) */
#define LATIN_LAST 0x17F  /* the last: U+017F (long s), the end of Latin Extended-A */

/* The ASCII spelling of U+00C0..U+017F: the base letter of a letter with diacritics (its
 * Unicode NFKD decomposition without the marks), and the usual spellings of the letters
 * without one (AE, O for O stroke, ss, TH, D for eth and D stroke, L for L stroke, OE, ...);
 * "" for the two signs (multiplication, division), which become EXPORT_ASCII_UNKNOWN. */
static const char *const latin[LATIN_LAST - LATIN_FIRST + 1] = {
	"A", "A", "A", "A", "A", "A", "AE", "C", "E", "E", "E", "E", "I", "I", "I", "I", "D", "N",
	"O", "O", "O", "O", "O", "", "O", "U", "U", "U", "U", "Y", "TH", "ss", "a", "a", "a", "a",
	"a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i", "d", "n", "o", "o", "o", "o",
	"o", "", "o", "u", "u", "u", "u", "y", "th", "y", "A", "a", "A", "a", "A", "a", "C", "c", "C",
	"c", "C", "c", "C", "c", "D", "d", "D", "d", "E", "e", "E", "e", "E", "e", "E", "e", "E", "e",
	"G", "g", "G", "g", "G", "g", "G", "g", "H", "h", "H", "h", "I", "i", "I", "i", "I", "i", "I",
	"i", "I", "i", "IJ", "ij", "J", "j", "K", "k", "k", "L", "l", "L", "l", "L", "l", "L", "l",
	"L", "l", "N", "n", "N", "n", "N", "n", "n", "N", "n", "O", "o", "O", "o", "O", "o", "OE",
	"oe", "R", "r", "R", "r", "R", "r", "S", "s", "S", "s", "S", "s", "S", "s", "T", "t", "T",
	"t", "T", "t", "U", "u", "U", "u", "U", "u", "U", "u", "U", "u", "U", "u", "W", "w", "Y", "y",
	"Y", "Z", "z", "Z", "z", "Z", "z", "s",
};

size_t export_ascii(char *out, size_t n, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = 0, i = 0;

	if (!n)
		return 0;
	while (u[i]) {
		const char *t;
		char one[2] = {0, 0};
		unsigned cp;
		size_t k;

		if (u[i] < 0x80) {
			one[0] = (char)u[i++];
			t = one;
		} else {
			k = u[i] >= 0xF0 ? 4 : u[i] >= 0xE0 ? 3 : 2;
			cp = k == 2 && u[i + 1] ? ((u[i] & 0x1Fu) << 6) | (u[i + 1] & 0x3Fu) : 0;
			while (k-- && u[i])
				i++;
			t = cp >= LATIN_FIRST && cp <= LATIN_LAST && latin[cp - LATIN_FIRST][0] ?
				latin[cp - LATIN_FIRST] : EXPORT_ASCII_UNKNOWN;
		}
		for (; *t && len + 1 < n; t++)
			out[len++] = *t;
	}
	out[len] = '\0';
	return len;
}
