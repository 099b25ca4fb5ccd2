/*
 * parallel.c — lq_parallel_for (parallel.h): a shared chunk counter, the caller and
 * lq_host_threads() − 1 POSIX threads taking chunks until none is left.
 */
#include "core/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#define LQ_PARALLEL_MAX 64

typedef struct lq_parallel_job {
    lq_range_fn fn;
    void *ctx;
    int n, chunk;
    atomic_int next;
} lq_parallel_job;

static int lq_host_threads_value;
static pthread_once_t lq_host_threads_once = PTHREAD_ONCE_INIT;

static void lq_host_threads_init(void)
{
    const char *env = getenv("LIQUIDCL_THREADS");
    long n = 0;
    if (env && *env) {
        char *end = NULL;
        n = strtol(env, &end, 10);
        if (*end || n < 1) n = 0; /* not a count: the cores, as unset */
    }
    if (n == 0) n = sysconf(_SC_NPROCESSORS_ONLN);
    lq_host_threads_value = (int)(n < 1 ? 1 : n > LQ_PARALLEL_MAX ? LQ_PARALLEL_MAX : n);
}

int lq_host_threads(void)
{
    pthread_once(&lq_host_threads_once, lq_host_threads_init);
    return lq_host_threads_value;
}

static void *lq_parallel_work(void *arg)
{
    lq_parallel_job *job = arg;
    for (;;) {
        int b = atomic_fetch_add(&job->next, job->chunk);
        if (b >= job->n) return NULL;
        job->fn(job->ctx, b, b + job->chunk < job->n ? b + job->chunk : job->n);
    }
}

void lq_parallel_for(int n, int chunk, lq_range_fn fn, void *ctx)
{
    if (n <= 0) return;
    if (chunk < 1) chunk = 1;
    lq_parallel_job job = {.fn = fn, .ctx = ctx, .n = n, .chunk = chunk};
    atomic_init(&job.next, 0);
    int want = lq_host_threads() - 1, chunks = (n + chunk - 1) / chunk, started = 0;
    if (want > chunks - 1) want = chunks - 1;
    pthread_t th[LQ_PARALLEL_MAX];
    for (int i = 0; i < want; i++)
        if (pthread_create(&th[started], NULL, lq_parallel_work, &job) == 0) started++;
    lq_parallel_work(&job);
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
}
