/*
 * common.h — status codes, the one-line error record and small helpers shared by
 * every module.
 *
 * Invariant: a fallible function returns LQ_OK or an error code and, on error, has
 * recorded exactly one human-readable line with lq_error(). The code is also the
 * process exit status: 1 for a simulation or device failure, 2 for bad input.
 * Callers propagate the code without printing; host/cli/main.c prints the line once.
 */
#ifndef LQ_COMMON_H
#define LQ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define LQ_OK     0
#define LQ_ESIM   1 /* simulation blew up, device or runtime failure */
#define LQ_EINPUT 2 /* bad scene, flag, file or mesh */

#if defined(__GNUC__)
#define LQ_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define LQ_PRINTF(a, b)
#endif

/* Records the message (printf format, no trailing newline) and returns code. A later
 * call replaces the record only when none is held, so the first, most specific
 * message survives callers that add nothing. */
int lq_error(int code, const char *fmt, ...) LQ_PRINTF(2, 3);
/* Like lq_error, but replaces any held message (for callers that add context). */
int lq_error_replace(int code, const char *fmt, ...) LQ_PRINTF(2, 3);
const char *lq_error_message(void);
void lq_error_clear(void);

/* Allocation that records an error on failure (returns NULL). */
void *lq_alloc(size_t bytes);
void *lq_calloc(size_t count, size_t size);

/* Seconds on a monotonic clock. */
double lq_now(void);

/* Deterministic random numbers (xorshift64*), the same on every machine. */
typedef struct lq_rng {
    uint64_t s;
} lq_rng;
void lq_rng_seed(lq_rng *r, uint64_t seed);
uint32_t lq_rng_u32(lq_rng *r);
/* Uniform in [0, 1). */
double lq_rng_uniform(lq_rng *r);

/* x (a whole number: floor'd or ceil'd) as an int clamped to [lo, hi], NaN giving lo: the
 * float-to-int conversions of positions and counts, defined for every input (a cast of a
 * value outside int's range is undefined behaviour). Equal to (int)x inside the range. */
static inline int lq_int_clamp(double x, int lo, int hi)
{
    return x >= lo ? (x <= hi ? (int)x : hi) : lo;
}

#define LQ_PI 3.14159265358979323846

#define LQ_MIN(a, b) ((a) < (b) ? (a) : (b))
#define LQ_MAX(a, b) ((a) > (b) ? (a) : (b))
#define LQ_COUNT(a)  (sizeof(a) / sizeof((a)[0]))

#endif
