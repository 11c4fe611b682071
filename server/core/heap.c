/* heap: see heap.h. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include "heap.h"
#if HEAP_RESERVE_WORKS
#include <malloc.h>
#endif

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif
#define HEAP_TOP_PAD_DEFAULT (128 * 1024) /* glibc's M_TOP_PAD default */
#define HEAP_MMAP_MAX ((size_t)32 << 20)  /* its largest on 64-bit systems */
#define HEAP_GROW_ASK (64 * 1024)         /* what more than the top holds is asked for */
#define HEAP_TRIM_BLOCK (128 * 1024)      /* freed to have the top trimmed (>= 64 KiB) */

#if HEAP_RESERVE_WORKS
static bool tuned; /* heap_reserve changed malloc's settings: heap_reserve_done resets them */

/* The populating thread: [lo, hi) from the top down, HEAP_POPULATE_STEP at a time, until done
 * or `stop`, while the main thread allocates (and touches) from the bottom up. */
static struct {
	pthread_t th;
	bool running;             /* th exists, not yet joined */
	uintptr_t lo, hi;
	int stop;                 /* __atomic: heap_reserve_done wants it to end */
} pop;

static void *populate_main(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "tengend-heap"); /* top -H, perf */
	uintptr_t end = pop.hi;
	while (end > pop.lo && !__atomic_load_n(&pop.stop, __ATOMIC_RELAXED)) {
		uintptr_t start = end - pop.lo > HEAP_POPULATE_STEP ? end - HEAP_POPULATE_STEP : pop.lo;
		if (madvise((void *)start, end - start, MADV_POPULATE_WRITE) != 0)
			break; /* best effort: the rest comes a fault at a time */
		end = start;
	}
	return NULL;
}

static int clamp_int(size_t v)
{
	return v > INT32_MAX ? INT32_MAX : (int)v;
}

#endif

size_t heap_reserve(size_t bytes)
{
#if HEAP_RESERVE_WORKS
	heap_reserve_wait(true); /* a reserve before this one: its thread ends first */
	if (bytes > HEAP_RESERVE_MAX)
		bytes = HEAP_RESERVE_MAX;
	long pg = sysconf(_SC_PAGESIZE);
	if (!bytes || pg <= 0)
		return 0;
	/* Freed memory at the top stays for the allocations to come: up to twice `bytes` (the
	 * default threshold, 128 KiB, would give the new top back at once). Until
	 * heap_reserve_done. */
	tuned = true;
	mallopt(M_TRIM_THRESHOLD, clamp_int(2 * bytes + HEAP_GROW_ASK));
	struct mallinfo2 mi = mallinfo2();
	char *lo = sbrk(0), *hi;
	if (lo == (void *)-1)
		return 0;
	if (mi.keepcost < bytes && mi.fordblks + HEAP_GROW_ASK < HEAP_MMAP_MAX) {
		/* An allocation no free chunk can hold (more than all of them together), from the
		 * heap (not mmap), with the top pad raised: the heap grows by `bytes` more than it
		 * needs; freed, all of it is top. */
		size_t ask = mi.fordblks + HEAP_GROW_ASK;
		mallopt(M_MMAP_THRESHOLD, clamp_int(HEAP_MMAP_MAX));
		mallopt(M_TOP_PAD, clamp_int(bytes));
		void *volatile p = malloc(ask); /* volatile: a compiler may drop a malloc whose
		                                   block is only freed */
		mallopt(M_TOP_PAD, HEAP_TOP_PAD_DEFAULT);
		hi = sbrk(0);
		/* It came from the top, which ends at the break: else the heap could not grow
		 * there (glibc went on elsewhere) and the range below would not be the top. */
		bool at_top = p && hi != (void *)-1 && (char *)p >= lo - mi.keepcost - HEAP_GROW_ASK &&
			      (char *)p + ask <= hi;
		free(p);
		if (!at_top)
			return 0;
		mi = mallinfo2();
	}
	/* The top chunk ends at the break; populate it (page-aligned). */
	hi = sbrk(0);
	if (hi == (void *)-1 || mi.keepcost == 0 || (uintptr_t)hi < mi.keepcost)
		return 0;
	uintptr_t a = ((uintptr_t)hi - mi.keepcost + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
	if ((uintptr_t)hi <= a)
		return 0;
	/* Huge pages where the kernel allows them (transparent_hugepage "madvise"): fewer pages
	 * to map, fewer faults on first touch. Best effort. */
	(void)madvise((void *)a, (uintptr_t)hi - a, MADV_HUGEPAGE);
	/* The first step here (also: does this kernel populate?), the rest by a thread, beside
	 * the allocations that follow: zeroing the pages (huge ones may need the kernel to
	 * compact memory first) took 12 ms to 0.55 s for 240 MiB here, as long as the whole
	 * load; two cores do it together, and the load does not wait for it. */
	uintptr_t first = (uintptr_t)hi - a > HEAP_POPULATE_STEP ? a + HEAP_POPULATE_STEP : (uintptr_t)hi;
	if (madvise((void *)a, first - a, MADV_POPULATE_WRITE) != 0)
		return 0;
	if (first < (uintptr_t)hi) {
		pop.lo = first;
		pop.hi = (uintptr_t)hi;
		__atomic_store_n(&pop.stop, 0, __ATOMIC_RELAXED);
		pop.running = pthread_create(&pop.th, NULL, populate_main, NULL) == 0;
		if (!pop.running && madvise((void *)first, (uintptr_t)hi - first, MADV_POPULATE_WRITE) != 0)
			return first - a;
	}
	return (uintptr_t)hi - a;
#else
	(void)bytes;
	return 0;
#endif
}

void heap_reserve_wait(bool stop)
{
#if HEAP_RESERVE_WORKS
	if (!pop.running)
		return;
	if (stop)
		__atomic_store_n(&pop.stop, 1, __ATOMIC_RELAXED);
	pthread_join(pop.th, NULL);
	pop.running = false;
#else
	(void)stop;
#endif
}

void heap_reserve_done(void)
{
#if HEAP_RESERVE_WORKS
	heap_reserve_wait(true); /* before the trim gives its pages back */
	if (!tuned)
		return;
	tuned = false;
	/* What the reserve left unused goes back from the top, down to HEAP_KEEP_TOP: the
	 * allocations right after (a restart's logins) take that, populated, instead of new pages
	 * a fault at a time. Not malloc_trim, which would also give back every free page inside
	 * the heap, each taken back later with a fault. A free of a block of at least 64 KiB
	 * (glibc's FASTBIN_CONSOLIDATION_THRESHOLD) trims the top down to M_TOP_PAD once it is
	 * past M_TRIM_THRESHOLD. */
	mallopt(M_TOP_PAD, clamp_int(HEAP_KEEP_TOP));
	mallopt(M_TRIM_THRESHOLD, clamp_int(HEAP_KEEP_TOP));
	void *volatile p = malloc(HEAP_TRIM_BLOCK);
	free(p);
	mallopt(M_TOP_PAD, HEAP_TOP_PAD_DEFAULT);
	/* glibc's own thresholds move only until a program sets one; set them to where they
	 * move to for blocks of up to HEAP_MMAP_MAX (the mmap threshold rises to the largest block
	 * freed, the trim threshold to twice it). */
	mallopt(M_MMAP_THRESHOLD, clamp_int(HEAP_MMAP_MAX));
	mallopt(M_TRIM_THRESHOLD, clamp_int(2 * HEAP_MMAP_MAX));
#endif
}
