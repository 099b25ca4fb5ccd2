/*
 * test_parallel.c — core/parallel.h and views/srgb.h, what makes the previews fast:
 *  1. lq_parallel_for visits every index of [0, n) exactly once for n from 0 to 1000
 *     and chunks of 1, 3, 64 and more than n, whatever the thread count; a chunk never
 *     crosses n;
 *  2. lq_srgb_byte is lround(255 x^(1/2.2)) of the clamped value exactly: at every
 *     threshold it found and the doubles either side of it, at 0, 1, below 0, above 1,
 *     NaN and ±∞, and at 200 000 random values in [−0.1, 1.1].
 */
#include "lib/check.h"
#include "core/parallel.h"
#include "core/vec3.h"
#include "views/srgb.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

typedef struct visits {
    atomic_int *count;
    int n;
    atomic_int bad; /* chunks out of range */
} visits;

static void visit(void *ctx, int begin, int end)
{
    visits *v = ctx;
    if (begin < 0 || end > v->n || begin >= end) atomic_fetch_add(&v->bad, 1);
    for (int i = begin; i < end && i < v->n; i++)
        if (i >= 0) atomic_fetch_add(&v->count[i], 1);
}

static void test_parallel(void)
{
    static const int chunks[] = {1, 3, 64, 5000};
    CHECK(lq_host_threads() >= 1 && lq_host_threads() <= 64);
    for (int n = 0; n <= 1000; n += n < 20 ? 1 : 97)
        for (int c = 0; c < 4; c++) {
            visits v = {.n = n};
            v.count = calloc((size_t)n + 1, sizeof *v.count);
            atomic_init(&v.bad, 0);
            lq_parallel_for(n, chunks[c], visit, &v);
            int wrong = atomic_load(&v.bad);
            for (int i = 0; i < n; i++) wrong += atomic_load(&v.count[i]) != 1;
            CHECK_MSG(wrong == 0, "n %d chunk %d: %d indices not visited once", n, chunks[c],
                      wrong);
            free(v.count);
        }
}

static long direct(double x)
{
    return lround(255 * pow(lq_clamp01(x), 1 / 2.2));
}

static void test_srgb(void)
{
    int wrong = 0, steps = 0;
    double prev = -1;
    for (int b = 1; b < 256; b++) {
        /* the least x with byte b: bisection on the direct formula */
        double lo = 0, hi = 1;
        for (int it = 0; it < 200; it++) {
            double mid = 0.5 * (lo + hi);
            if (mid == lo || mid == hi) break;
            if (direct(mid) >= b)
                hi = mid;
            else
                lo = mid;
        }
        CHECK(hi > prev);
        prev = hi;
        const double probe[3] = {nextafter(hi, 0), hi, nextafter(hi, 2)};
        for (int k = 0; k < 3; k++) {
            wrong += lq_srgb_byte(probe[k]) != direct(probe[k]);
            steps++;
        }
    }
    const double edge[] = {0, 1, -1e-300, -5, 1 + 1e-15, 7, NAN, INFINITY, -INFINITY, 1e-300};
    for (size_t k = 0; k < sizeof edge / sizeof *edge; k++)
        wrong += lq_srgb_byte(edge[k]) != direct(edge[k]);
    srand(12345);
    for (int k = 0; k < 200000; k++) {
        double x = -0.1 + 1.2 * rand() / (double)RAND_MAX;
        wrong += lq_srgb_byte(x) != direct(x);
    }
    CHECK_MSG(wrong == 0, "%d of %d values encoded differently from lround(255 x^(1/2.2))", wrong,
              steps + 200010);
    CHECK(lq_srgb_byte(NAN) == 0 && lq_srgb_byte(2) == 255 && lq_srgb_byte(0.5) == 186);
}

int main(void)
{
    test_parallel();
    test_srgb();
    CHECK_DONE();
}
