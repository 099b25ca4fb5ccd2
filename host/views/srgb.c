/*
 * srgb.c — lq_srgb_byte (srgb.h): for each byte v the least double x in [0, 1] with
 * lround(255 x^(1/2.2)) >= v, found by bisection over the ordered bit patterns of the
 * doubles in [0, 1]; a byte is then the count of thresholds at or below x, counted from
 * the byte at the start of x's bin of a 4096-bin table.
 */
#include "views/srgb.h"

#include "core/vec3.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#define LQ_SRGB_BINS 4096

static double lq_srgb_step[257]; /* [v]: least x whose byte is >= v (v >= 1); [256] > 1 */
static uint8_t lq_srgb_bin[LQ_SRGB_BINS + 1]; /* [i]: the byte of i / LQ_SRGB_BINS */
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
    lq_srgb_step[256] = 2;
    for (int i = 0, v = 0; i <= LQ_SRGB_BINS; i++) {
        while (lq_srgb_step[v + 1] <= (double)i / LQ_SRGB_BINS) v++;
        lq_srgb_bin[i] = (uint8_t)v;
    }
}

uint8_t lq_srgb_byte(double x)
{
    pthread_once(&lq_srgb_once, lq_srgb_init);
    x = lq_clamp01(x);
    /* The byte at the start of x's bin, then up the steps inside the bin (a few near 0,
     * where the curve is steep; none or one elsewhere). */
    int v = lq_srgb_bin[(int)(x * LQ_SRGB_BINS)];
    while (lq_srgb_step[v + 1] <= x) v++;
    return (uint8_t)v;
}

void lq_srgb_encode(const double col[3], uint8_t *o)
{
    for (int c = 0; c < 3; c++) o[c] = lq_srgb_byte(col[c]);
}
