/* syncer: the group commit's fsync off the loop thread (issue 22). With --sync power-safe the
 * loop's commits write the WAL without syncing it (store_sync_detach); this thread then
 * fdatasync()s the WAL file and tells the loop through a uv_async. Until it does, the loop
 * holds every reply and event (server.c: output queued since the sync began waits for the
 * next one), so nothing is reported before it is on the disk, exactly as with a sync inside
 * the commit; but the loop goes on reading, refereeing and committing the next group while
 * the disk works. At most one sync is in flight. Loop thread only, but for the thread. */
#ifndef TENGEN_SYNCER_H
#define TENGEN_SYNCER_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

/* The loop's callback when a sync ended: ok false if fdatasync failed (errno_ says why). */
typedef void (*syncer_done_fn)(void *ctx, bool ok, int errno_);

struct syncer;

/* Open `wal_path` and start the thread on `loop`; NULL (and errno-like *err) if either fails.
 * delay_ms: the thread waits this long before each fdatasync (0; tests only: tengend
 * --sync-test-delay-ms shows that replies wait for the sync). */
struct syncer *syncer_start(uv_loop_t *loop, const char *wal_path, unsigned delay_ms,
			    syncer_done_fn done, void *ctx, int *err);
/* Ask for an fdatasync of the WAL now (the thread must be idle: !syncer_busy). */
void syncer_request(struct syncer *y);
/* A sync is asked for or under way (its done callback has not run yet). */
bool syncer_busy(const struct syncer *y);
/* Sync on the calling thread now (after waiting for one in flight, whose callback is
 * dropped): for the stop. Returns 0 or an errno. */
int syncer_sync_now(struct syncer *y);
/* The longest sync since the last call (ns), and how many there were; both reset. */
void syncer_stats(struct syncer *y, uint64_t *max_ns, uint64_t *count);
/* Stop the thread and close the file (waits for a sync in flight). */
void syncer_stop(struct syncer *y);

#endif
