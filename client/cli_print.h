/* cli_print: what the network subcommands print from the server's JSON objects: replies as
 * JSON lines, boards, clocks, results and pairings. Everything goes to stdout. */
#ifndef TENGEN_CLI_PRINT_H
#define TENGEN_CLI_PRINT_H

#include <stddef.h>
#include <jansson.h>

#define CLI_COLUMNS "ABCDEFGHJKLMNOPQRSTUVWXYZ" /* GTP 2 §2.11 column letters (no I) */

/* The string member `key` of object o, else dflt. */
const char *cli_str_or(const json_t *o, const char *key, const char *dflt);
/* The printf field width ("%-*s") that pads UTF-8 text s to `chars` characters on a
 * terminal: chars plus the bytes of s that continue a character (so "Müller" takes as many
 * columns as "Muller"). */
int cli_width(const char *s, int chars);
/* Print a JSON value compactly on one line of stdout. */
void cli_print_json(const json_t *v);
/* Print a game object's board (GTP style: letters above and below, row numbers both sides,
 * X Black, O White) and both clocks. */
void cli_print_board(const json_t *game);
/* Print "Result: B+R (resignation), score: Black B, White W, komi K" (the parts that are
 * there) and a newline; a prediction-rules score (with `bar`) says "bar W+6.5" instead of
 * komi (docs/protocol.md "Prediction ruleset", End). */
void cli_print_result(const char *result, const char *reason, const json_t *score);
/* Print a pairings reply (tournament.pairings or tournament.start_round) as a table: game,
 * Black, White, result; then the byes. */
void cli_print_pairings(const json_t *reply);
/* A pairing's result column (tournament.pairings, docs/protocol.md): its `result`, else "-"
 * and what the live game is doing ("- (not begun)", "- (playing)", "- (counting)",
 * "- (paused)"); the text is static or p's. */
const char *cli_pairing_result(const json_t *p);
/* Format a clock object ({"main_ms", "periods", "period_ms", "stones"}) as "9:59 + 3x0:30";
 * "-" for none. */
void cli_format_clock(const json_t *clock, char *out, size_t n);

#endif
