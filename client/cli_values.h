/* cli_values: option values shared by the client's commands (td create, challenge). Pure:
 * no messages; the caller says what was wrong. */
#ifndef TENGEN_CLI_VALUES_H
#define TENGEN_CLI_VALUES_H

#include <jansson.h>

#define CLI_TIME_SPEC_MAX 64 /* bytes of a --time value */
/* What a --time SPEC looks like, for messages and usage texts. */
#define CLI_TIME_SPEC_HELP \
	"byoyomi:MAIN/PERIODSxPERIOD (byoyomi:600/3x30), canadian:MAIN/STONES/PERIOD, " \
	"fischer:MAIN+INC[/MAX], absolute:MAIN or none; times in seconds or 90s, 10m, 1h"

/* A duration in seconds: a number, or with a unit s, m or h ("90s", "10m", "1.5h"). 0 and
 * *out, or -1 (negative, not a number, unknown unit). */
int cli_parse_duration(const char *s, double *out);
/* A --time SPEC (CLI_TIME_SPEC_HELP) as the wire's time control object (docs/protocol.md,
 * "Time control object"; the server judges the limits), or NULL if SPEC is malformed. */
json_t *cli_parse_time(const char *spec);
/* "yes"/"no" (also true/false, on/off, 1/0): 1, 0, or -1 for anything else. */
int cli_parse_yes_no(const char *s);

#endif
