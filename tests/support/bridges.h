/* bridges: `tengen gtp` bridges to GNU Go, started and stopped by integration tests that let two
 * engines play through the real tengend (test_gtp_prediction, test_gtp_handicap), and the
 * small helpers they share. The client is $TENGEN (else ./client/tengen); GNU Go is GNUGO_PATH. */
#ifndef TENGEN_TEST_BRIDGES_H
#define TENGEN_TEST_BRIDGES_H

#include <stdbool.h>
#include <sys/types.h>
#include <jansson.h>
#include "harness.h"

#define BRIDGES_MAX 2 /* bridges a test runs at once */

/* Each bridge's stdout and stderr, "DIR/bridge-USER.log" (set by bridges_start). */
extern char bridges_logs[BRIDGES_MAX][HARNESS_PATH_MAX];

/* The monotonic clock in ms; sleep ms milliseconds. */
long long bridges_now_ms(void);
void bridges_sleep_ms(int ms);

/* Start bridge i (< BRIDGES_MAX): `tengen gtp --user USER` (the harness's password for USER)
 * on d's server, with GNU Go at level 1 and --capture-all-dead, plus `engine_opt` (one more
 * GNU Go option, e.g. "--chinese-rules"; NULL: none) and `--gtp-log gtplog` (NULL: none).
 * Fails the test if it cannot fork. */
void bridges_start(int i, const struct hd *d, const char *user, const char *engine_opt,
		   const char *gtplog);
/* Kill and reap every bridge started. */
void bridges_kill(void);

/* Does a line of file `path` contain `needle`? false if it cannot be read. */
bool bridges_file_has(const char *path, const char *needle);
/* Copy file `path` to stderr under a "---- path" line (a failed test's evidence). */
void bridges_print_file(const char *path);
/* Game `id`'s object from a `game` request on a fresh connection to port, or NULL. */
json_t *bridges_get_game(int port, long long id);

#endif
