/*
 * timefn.h — a scalar that varies in time, made from a scene (Foster & Metaxas 1996 §7.1:
 * "a time dependent function can be used to determine the rate at which fluid is pumped
 * into a scene"): constant, exponential decay, the sinusoidal wave of eq. 20, or a
 * keyframed table. Used by the `mac` inlets; anything else that needs a value of time
 * (viscosity, for `pls`) has the same keys (lq_config_profile of scene/config.h).
 */
#ifndef LQ_HOST_TIMEFN_H
#define LQ_HOST_TIMEFN_H

#include "scene/config.h"

typedef enum lq_timefn_kind {
    LQ_TIMEFN_CONSTANT, /* base */
    LQ_TIMEFN_DECAY,    /* base·exp(−rate·τ) */
    LQ_TIMEFN_WAVE, /* base + a·ω·sin(ω τ): eq. 20's a ω² cos ω τ as the acceleration */
    LQ_TIMEFN_TABLE /* base · the keyframed factor, linear between keys, held outside */
} lq_timefn_kind;

#define LQ_TIMEFN_MAX_KEYS 256

typedef struct lq_timefn {
    lq_timefn_kind kind;
    double base, rate, amplitude, omega;
    int nkeys;
    double keys[2 * LQ_TIMEFN_MAX_KEYS]; /* t0, f0, t1, f1, ... (s, factor) */
} lq_timefn;

/* From profile p (constant|decay|wave|table) and the keys that kind needs: rate (1/s),
 * amplitude (m), omega (rad/s), table (t, factor pairs, times increasing). base: the
 * value at τ = 0 of the constant, decay and wave kinds, the value the table's factors
 * multiply. LQ_EINPUT with the key's place in cfg's scene on a malformed table. */
int lq_timefn_init(const lq_config *cfg, const lq_config_profile *p, double base, lq_timefn *f);
/* The value at τ (s, from the function's start). */
double lq_timefn_eval(const lq_timefn *f, double tau);

#endif
