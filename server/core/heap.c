/* heap: see heap.h. */
#define _GNU_SOURCE
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

#if HEAP_RESERVE_WORKS
static bool tuned; /* heap_reserve changed malloc's settings: heap_reserve_done resets them */

static int clamp_int(size_t v)
{
	return v > INT32_MAX ? INT32_MAX : (int)v;
}

#endif

size_t heap_reserve(size_t bytes)
{
#if HEAP_RESERVE_WORKS
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
	if (madvise((void *)a, (uintptr_t)hi - a, MADV_POPULATE_WRITE) != 0)
		return 0;
	return (uintptr_t)hi - a;
#else
	(void)bytes;
	return 0;
#endif
}

void heap_reserve_done(void)
{
#if HEAP_RESERVE_WORKS
	if (!tuned)
		return;
	tuned = false;
	/* glibc's own thresholds move only until a program sets one; set them to where they
	 * move to for blocks of up to HEAP_MMAP_MAX (the mmap threshold rises to the largest block
	 * freed, the trim threshold to twice it); what the reserve left unused goes back now. */
	mallopt(M_MMAP_THRESHOLD, clamp_int(HEAP_MMAP_MAX));
	mallopt(M_TRIM_THRESHOLD, clamp_int(2 * HEAP_MMAP_MAX));
	malloc_trim(0);
#endif
}
