/*
 * worker.h — one background thread that takes jobs one at a time, in order, while the
 * caller goes on (run.c's writer: a frame's files written while the next frame steps).
 *
 * Invariants:
 * - At most one job waits and one runs: lq_worker_submit blocks while a job waits, so
 *   the caller is never more than two jobs ahead and their memory is bounded.
 * - Jobs run in the order submitted; lq_worker_drain returns when every submitted job
 *   has run.
 * - The thread blocks every signal (SIGINT and SIGTERM stay with the caller's thread,
 *   core/interrupt.h).
 * - Without a thread (threaded false, or one that cannot start) submit runs the job at
 *   once on the caller's thread: the same results, only not overlapped.
 */
#ifndef LQ_WORKER_H
#define LQ_WORKER_H

#include <pthread.h>
#include <stdbool.h>

typedef void (*lq_worker_fn)(void *ctx, void *job);

typedef struct lq_worker {
    lq_worker_fn fn;
    void *ctx;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    void *waiting; /* submitted, not yet taken */
    bool running;  /* the thread is inside fn */
    bool stop, threaded;
} lq_worker;

void lq_worker_start(lq_worker *w, lq_worker_fn fn, void *ctx, bool threaded);
void lq_worker_submit(lq_worker *w, void *job);
void lq_worker_drain(lq_worker *w);
/* Drains, then ends the thread. Safe on a zeroed or stopped worker. */
void lq_worker_stop(lq_worker *w);

#endif
