/* fairclock: the time the game clocks run on. Monotonic milliseconds and Unix seconds from a
 * time source that a test may replace (a fake clock advanced by hand), and the loop's stall
 * meter, whose stalls are taken out of the monotonic time (issue 20). Core layer: uses the
 * loop and the log, nothing above. Any thread-safety: the loop thread only. */
#ifndef TENGEN_FAIRCLOCK_H
#define TENGEN_FAIRCLOCK_H

#include <stdint.h>

struct server;

/* The loop's stall meter (issue 20): a poll that overruns its timeout, or a turn of the loop
 * that runs long (not right after another long one: that is sustained load, and the clocks
 * run), by more than FAIRCLOCK_STALL_MIN_MS is a stall (the daemon stopped, a disk stalled, a
 * long turn of work); every running clock is credited with it, as the lag
 * allowance is, so a stall of the server is never a player's time (Chinese Rules 2002,
 * Art. 14: no clock runs while play cannot go on). A timer wakes the loop at least every
 * FAIRCLOCK_STALL_TICK_MS, so a stall is seen even when nothing else is due. */
#define FAIRCLOCK_STALL_TICK_MS 100
#define FAIRCLOCK_STALL_MIN_MS 50
/* The names docs/protocol.md and docs/deploy.md give them. */
#define GAMES_STALL_TICK_MS FAIRCLOCK_STALL_TICK_MS
#define GAMES_STALL_MIN_MS FAIRCLOCK_STALL_MIN_MS

/* Where time comes from: mono_ms, monotonic milliseconds (uv_hrtime by default); wall_s, Unix
 * epoch seconds (gettimeofday by default). ctx is passed to both. */
struct fairclock_source {
	uint64_t (*mono_ms)(void *ctx);
	double (*wall_s)(void *ctx);
	void *ctx;
};

/* Replace the time source (copied) for the whole process; NULL: the real clocks again. For
 * tests: with a fake source, timers are fired by hand (games_fire_due), and the stall meter
 * must not run (fairclock_stop after games_load), since no poll ever ends a turn of work. */
void fairclock_set_source(const struct fairclock_source *src);
/* Unix epoch seconds, from the source. */
double fairclock_wall_s(void);

/* Start the stall meter on srv's loop (three unreferenced handles: a prepare, a check, a
 * tick timer). Returns 0, or -1 when memory runs out. */
int fairclock_start(struct server *srv);
/* Close the stall meter's handles (freed once closed); no-op if it is not running. */
void fairclock_stop(struct server *srv);
/* Monotonic milliseconds less every stall of the loop so far (the one under way included):
 * the time the game clocks run on. Without a stall meter: the source's mono_ms. */
uint64_t fairclock_fair_ms(struct server *srv);

#endif
