/* tests/support/hostworld: the world of the hostile-client tests (tests/integration/test_hostile_input.c,
 * tests/integration/test_hostile_load.c): a daemon and a bystander game between two other players (19x19,
 * no clock) that must keep working while a hostile client does its worst.
 *
 *   hw_*  hw_world_start starts it, hw_bystander_step plays the next move and checks the
 *         reply and the opponent's game.move event arrive in time, hw_world_end checks the
 *         game holds every move played, that the daemon's log holds no sanitizer report and
 *         that SIGTERM stops it cleanly. Every helper fails the running Check test on
 *         anything unexpected. Contract: docs/protocol.md ("Framing", "Error codes").
 */
#ifndef TENGEN_TESTS_HOSTWORLD_H
#define TENGEN_TESTS_HOSTWORLD_H

#include <stdbool.h>
#include <stddef.h>
#include "harness.h"
#include "srvtest.h"

extern struct hd hw_d;            /* the daemon */
extern struct hc *hw_b1, *hw_b2;  /* the bystanders: hw_b1 Black, hw_b2 White */
extern long long hw_game;         /* their game */

/* Start the daemon with `extra` arguments (NULL-terminated, may be NULL), log the bystanders
 * ("by1", "by2") in and start their game. */
void hw_world_start(const char *const *extra);
/* hw_world_start with one more option and its whole-number value ("--max-observers", 3). */
void hw_world_start_with(const char *opt, int value);
/* The bystanders play one more move (never adjacent stones: no capture, always legal). */
void hw_bystander_step(void);
/* A last bystander move; the game holds every move played; no sanitizer report; the
 * bystanders closed; SIGTERM stops the daemon with status 0; its directory deleted. */
void hw_world_end(void);
/* A fresh raw connection (not logged in). */
struct hc *hw_raw_client(void);
/* A ping on c that must be answered ok within T: the connection is still usable. */
void hw_expect_ping(struct hc *c);
/* Send one raw line (len bytes + "\n") and return the reply (must come within T). */
json_t *hw_raw_line(struct hc *c, const char *s, size_t len);
/* Does `tengend --help` mention `opt`? (Options proposed but not yet there are tested when
 * they are.) */
bool hw_daemon_has_option(const char *opt);

#endif
