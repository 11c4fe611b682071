/* heap: have the memory a burst of small allocations will take mapped before the burst (a
 * restart's thousands of games), so that it is not taken page by page. On a virtual machine
 * a page fault can cost ~17 us (measured here: 240 MiB touched page by page in 1,059 ms,
 * populated by the kernel in one call in 58 ms; docs/benchmarks.md). */
#ifndef TENGEN_HEAP_H
#define TENGEN_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h> /* (glibc's features.h: __GLIBC_PREREQ) */

/* 1 where heap_reserve can work: glibc 2.33 or later (mallinfo2), and malloc is glibc's (not
 * an AddressSanitizer build's own allocator). Elsewhere heap_reserve does nothing. */
#if defined(__SANITIZE_ADDRESS__)
#define HEAP_RESERVE_WORKS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEAP_RESERVE_WORKS 0
#endif
#endif
#if !defined(HEAP_RESERVE_WORKS) && defined(__GLIBC__) && defined(__GLIBC_PREREQ)
#if __GLIBC_PREREQ(2, 33)
#define HEAP_RESERVE_WORKS 1
#endif
#endif
#ifndef HEAP_RESERVE_WORKS
#define HEAP_RESERVE_WORKS 0
#endif

#define HEAP_RESERVE_MAX ((size_t)2 << 30) /* heap_reserve takes at most this many bytes */
#define HEAP_POPULATE_STEP ((size_t)16 << 20) /* populated per call (the first, then a thread's) */
#define HEAP_KEEP_TOP ((size_t)32 << 20) /* heap_reserve_done leaves this much of it at the top */

/* Grow the main thread's malloc heap by `bytes` (at most HEAP_RESERVE_MAX) and have the
 * kernel populate it (madvise MADV_POPULATE_WRITE, Linux 5.14; huge pages where the kernel
 * allows them): the lowest HEAP_POPULATE_STEP at once, the rest by a thread of its own from
 * the top down while the caller goes on (heap_reserve_wait); freed memory is kept in the heap
 * for the allocations that follow until heap_reserve_done. Main thread, before the burst.
 * Best effort: returns the bytes being populated, 0 where it could not (no glibc 2.33, an
 * AddressSanitizer build, a heap that cannot grow in place, a kernel before 5.14: the pages
 * then come one fault at a time, as without it). Call heap_reserve_done after the burst in
 * any case. */
size_t heap_reserve(size_t bytes);
/* Wait for heap_reserve's thread to end; with `stop`, have it stop after its current step.
 * No-op without one. */
void heap_reserve_wait(bool stop);
/* The burst is over: the populating thread stopped (heap_reserve_wait(true)), what the
 * reserve left unused given back to the system from the top of the heap, down to
 * HEAP_KEEP_TOP (free pages inside the heap are kept: malloc_trim would give them back too),
 * and malloc's thresholds set back to fixed values near glibc's own (its automatic ones stay
 * off once a program has set one: mmap above 32 MiB, trim above 64 MiB). No-op without a
 * heap_reserve. */
void heap_reserve_done(void);

#endif
