/*
 * hash.h — the random numbers of the particle code (hf/columns spray, mac/macspray,
 * pls/plsparticles seeding): an integer hash and uniform floats keyed by integers, so
 * that every device and the reference twins draw the same numbers for the same keys
 * (no state, no order).
 */
#ifndef LQ_HASH_H
#define LQ_HASH_H

#include "common/lq_shared.h"

/* Integer hash (lowbias32, Chris Wellons' hash prospector). */
LQ_INLINE lq_uint lq_hash32(lq_uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* Uniform in [0, 1): the top 24 bits of a hash. */
LQ_INLINE float lq_hash_float(lq_uint h)
{
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

/* Uniform in [0, 1), keyed by (seed, step, stream, a, b). */
LQ_INLINE float lq_hash_uniform(lq_uint seed, lq_uint step, lq_uint stream, lq_uint a, lq_uint b)
{
    return lq_hash_float(
        lq_hash32(seed ^ lq_hash32(step ^ lq_hash32(stream ^ lq_hash32(a ^ lq_hash32(b))))));
}

#endif
