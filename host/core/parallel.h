/*
 * parallel.h — host work spread over the machine's cores: rows of a picture, or any
 * range of independent items, taken in chunks by a few threads.
 *
 * Invariants:
 * - fn(ctx, begin, end) is called for disjoint [begin, end) covering [0, n) exactly
 *   once each; which thread runs which chunk is not fixed, so fn must write only what
 *   its items own. Results then do not depend on the number of threads.
 * - lq_host_threads() is LIQUIDCL_THREADS when set (1 to 64: 1 keeps everything on the
 *   calling thread), else the cores online, at most 64. Read once.
 * - If a thread cannot be started, the threads that did start (and the caller, which
 *   always works too) take its chunks: the call never fails.
 */
#ifndef LQ_PARALLEL_H
#define LQ_PARALLEL_H

typedef void (*lq_range_fn)(void *ctx, int begin, int end);

/* Threads a host loop may use. */
int lq_host_threads(void);
/* Runs fn over [0, n) in chunks of `chunk` items on lq_host_threads() threads; returns
 * when every chunk is done. */
void lq_parallel_for(int n, int chunk, lq_range_fn fn, void *ctx);

#endif
