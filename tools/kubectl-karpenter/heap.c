/*
 * Transparent huge pages for the heap the decoded cluster is built in.
 *
 * Reading a cluster dump allocates a few bytes of objects per byte of
 * input, field by field (the library's ownership model frees them that
 * way), and on a virtual machine the first touch of each 4 KiB page is
 * a page fault that costs more than decoding what goes in it: P1-20000
 * (12.8 MB) took 12,000 faults, half of `validate`'s CPU time. Before the
 * manifests are decoded, this grows malloc's heap by about what they and
 * a simulation of them will need, asks the kernel for huge pages there
 * (madvise MADV_HUGEPAGE, honoured by the usual THP settings "always" and
 * "madvise") and gives the memory back to malloc, which then builds the
 * objects in it: a fault per 2 MiB instead of per 4 KiB. Nothing is
 * touched in advance, so memory use does not grow; where any step is not
 * available (another libc, no THP), nothing changes but the speed.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _DEFAULT_SOURCE

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#endif

#include "manifests.h"

/* Heap per byte of input: P1-20000's decoded objects take about three
 * times its JSON and a simulation's state as much again (simulate's peak
 * is 8x the input). Memory is only reserved, never touched here: a command
 * that needs less (validate) does not grow. Smaller inputs gain too little
 * to bother. */
#define HEAP_PER_INPUT 8
#define HEAP_MIN_INPUT ((size_t)4 << 20)
#define HEAP_CHUNK ((size_t)16 << 20) /* below glibc's largest mmap threshold */
#define HEAP_MAX ((size_t)1 << 30)

void cli_heap_advise(void *p, size_t n)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
	if (n < HEAP_MIN_INPUT)
		return;
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t mask = (uintptr_t)(page > 0 ? page : 4096) - 1;
	uintptr_t start = ((uintptr_t)p + mask) & ~mask;
	uintptr_t end = ((uintptr_t)p + n) & ~mask;
	if (end > start)
		(void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

void cli_heap_prepare(size_t input_bytes)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && defined(M_MMAP_THRESHOLD)
	static size_t prepared;
	if (input_bytes < HEAP_MIN_INPUT)
		return;
	size_t want = input_bytes > HEAP_MAX / HEAP_PER_INPUT ? HEAP_MAX : input_bytes * HEAP_PER_INPUT;
	if (want <= prepared)
		return;
	/* Chunks of the heap, not mappings of their own, and kept by malloc
	 * once freed (not trimmed back to the kernel). */
	if (!mallopt(M_MMAP_THRESHOLD, (int)(HEAP_CHUNK * 2)) ||
	    !mallopt(M_TRIM_THRESHOLD, (int)(HEAP_MAX < INT32_MAX ? HEAP_MAX : INT32_MAX)))
		return;
	size_t n = (want - prepared + HEAP_CHUNK - 1) / HEAP_CHUNK;
	void *chunks[HEAP_MAX / HEAP_CHUNK];
	size_t got = 0;
	for (; got < n && got < sizeof(chunks) / sizeof(chunks[0]); got++) {
		chunks[got] = malloc(HEAP_CHUNK);
		if (!chunks[got])
			break;
		cli_heap_advise(chunks[got], HEAP_CHUNK);
	}
	while (got > 0)
		free(chunks[--got]);
	prepared = want;
#else
	(void)input_bytes;
#endif
}
