/* cli_tables: the director's printed tables from the server's replies: a tournament's
 * settings in words (td show) and the cross-table (td crosstable, from tournament.export's
 * JSON). Everything goes to stdout. */
#ifndef TENGEN_CLI_TABLES_H
#define TENGEN_CLI_TABLES_H

#include <jansson.h>

/* A tournament's settings object, one "  name: value" line each, in words: the time
 * control as "byoyomi 10:00 + 3x0:30", booleans yes/no, lists comma-separated, ranks as
 * "1d" (mcmahon_bar, mcmahon_floor), an empty tie-break list as the default of `system`
 * (the tournament's system name, e.g. "swiss"; NULL or a team system: "(the system's
 * default)"), "(default: SOS, WARN)" (Art. 27.1; common/standings.h). */
void cli_print_settings(const json_t *settings, const char *system);

/* The cross-table of a tournament.export reply in format "json" (its data): one row per
 * player in standings order: num, place, name, rank, one field per round ("3+/w",
 * "12-/b2", "5+!w" a forfeit, "5-!w" a double loss, "3?/w" unfinished, "bye", "-" no game),
 * the main score and the tie-breaks. Returns 0, or -1 if the data is not such an export
 * (message on stderr). */
int cli_print_crosstable(const json_t *reply);

#endif
