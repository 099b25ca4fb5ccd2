/*
 * worker.c — lq_worker (worker.h): a mutex, one condition variable for every change
 * (a job waiting, taken, finished; stop), one slot.
 */
#include "core/worker.h"

#include <signal.h>
#include <string.h>

static void *lq_worker_loop(void *arg)
{
    lq_worker *w = arg;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->waiting && !w->stop) pthread_cond_wait(&w->changed, &w->lock);
        if (!w->waiting && w->stop) break;
        void *job = w->waiting;
        w->waiting = NULL;
        w->running = true;
        pthread_cond_broadcast(&w->changed);
        pthread_mutex_unlock(&w->lock);
        w->fn(w->ctx, job);
        pthread_mutex_lock(&w->lock);
        w->running = false;
        pthread_cond_broadcast(&w->changed);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

void lq_worker_start(lq_worker *w, lq_worker_fn fn, void *ctx, bool threaded)
{
    memset(w, 0, sizeof *w);
    w->fn = fn;
    w->ctx = ctx;
    if (!threaded) return;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->changed, NULL);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* the thread inherits the mask */
    w->threaded = pthread_create(&w->thread, NULL, lq_worker_loop, w) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!w->threaded) {
        pthread_cond_destroy(&w->changed);
        pthread_mutex_destroy(&w->lock);
    }
}

void lq_worker_submit(lq_worker *w, void *job)
{
    if (!w->threaded) {
        w->fn(w->ctx, job);
        return;
    }
    pthread_mutex_lock(&w->lock);
    while (w->waiting) pthread_cond_wait(&w->changed, &w->lock);
    w->waiting = job;
    pthread_cond_broadcast(&w->changed);
    pthread_mutex_unlock(&w->lock);
}

void lq_worker_drain(lq_worker *w)
{
    if (!w->threaded) return;
    pthread_mutex_lock(&w->lock);
    while (w->waiting || w->running) pthread_cond_wait(&w->changed, &w->lock);
    pthread_mutex_unlock(&w->lock);
}

void lq_worker_stop(lq_worker *w)
{
    if (!w->threaded) return;
    lq_worker_drain(w);
    pthread_mutex_lock(&w->lock);
    w->stop = true;
    pthread_cond_broadcast(&w->changed);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->changed);
    pthread_mutex_destroy(&w->lock);
    w->threaded = false;
}
