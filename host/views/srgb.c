/*
 * srgb.c — lq_srgb_byte (srgb.h): for each byte v the least double x in [0, 1] with
 * lround(255 x^(1/2.2)) >= v, found by bisection over the ordered bit patterns of the
 * doubles in [0, 1]; a byte is then the count of thresholds at or below x.
 */
#include "views/srgb.h"

#include "core/vec3.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

static double lq_srgb_step[256]; /* [v]: least x whose byte is >= v (v >= 1) */
static pthread_once_t lq_srgb_once = PTHREAD_ONCE_INIT;

static long lq_srgb_direct(double x)
{
    return lround(255 * pow(x, 1 / 2.2));
}

static double lq_srgb_of_bits(uint64_t b)
{
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

static void lq_srgb_init(void)
{
    uint64_t one;
    const double x1 = 1.0;
    memcpy(&one, &x1, sizeof one);
    for (int v = 1; v < 256; v++) {
        uint64_t lo = 0, hi = one; /* byte(lo) < v <= byte(hi) */
        while (hi - lo > 1) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (lq_srgb_direct(lq_srgb_of_bits(mid)) >= v)
                hi = mid;
            else
                lo = mid;
        }
        lq_srgb_step[v] = lq_srgb_of_bits(hi);
    }
}

uint8_t lq_srgb_byte(double x)
{
    pthread_once(&lq_srgb_once, lq_srgb_init);
    x = lq_clamp01(x);
    int v = 0; /* the largest v with step[v] <= x, 0 when none */
    for (int bit = 128; bit > 0; bit >>= 1)
        if (v + bit < 256 && lq_srgb_step[v + bit] <= x) v += bit;
    return (uint8_t)v;
}

void lq_srgb_encode(const double col[3], uint8_t *o)
{
    for (int c = 0; c < 3; c++) o[c] = lq_srgb_byte(col[c]);
}
