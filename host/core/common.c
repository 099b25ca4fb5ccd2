/*
 * common.c — the error record, checked allocation, clock and the portable RNG.
 */
#include "core/common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static _Thread_local char lq_error_text[1024]; /* each thread its own (run.c's writer) */
static _Thread_local int lq_error_held;

/* Formats into a scratch buffer first: callers may pass lq_error_message() itself as
 * an argument (adding context to the held message). */
static void lq_error_vset(const char *fmt, va_list ap)
{
    char scratch[sizeof lq_error_text];
    vsnprintf(scratch, sizeof scratch, fmt, ap);
    memcpy(lq_error_text, scratch, sizeof scratch);
    lq_error_held = 1;
}

int lq_error(int code, const char *fmt, ...)
{
    if (!lq_error_held) {
        va_list ap;
        va_start(ap, fmt);
        lq_error_vset(fmt, ap);
        va_end(ap);
    }
    return code;
}

int lq_error_replace(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lq_error_vset(fmt, ap);
    va_end(ap);
    return code;
}

const char *lq_error_message(void)
{
    return lq_error_held ? lq_error_text : "";
}

void lq_error_clear(void)
{
    lq_error_held = 0;
    lq_error_text[0] = '\0';
}

void *lq_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) lq_error(LQ_ESIM, "out of host memory allocating %zu bytes", bytes);
    return p;
}

void *lq_calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) lq_error(LQ_ESIM, "out of host memory allocating %zu x %zu bytes", count, size);
    return p;
}

double lq_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void lq_rng_seed(lq_rng *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    if (r->s == 0) r->s = 1;
}

uint32_t lq_rng_u32(lq_rng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

double lq_rng_uniform(lq_rng *r)
{
    return (double)lq_rng_u32(r) * (1.0 / 4294967296.0);
}
