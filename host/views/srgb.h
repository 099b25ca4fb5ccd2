/*
 * srgb.h — a linear colour to the bytes of a preview's PNG, by table.
 *
 * Invariants:
 * - lq_srgb_byte(x) == lround(255 * pow(lq_clamp01(x), 1 / 2.2)) for every double x
 *   (NaN gives 0), the gamma the previews have always written, found from a table
 *   of the 255 thresholds where that byte steps up instead of a pow per channel.
 * - The thresholds are computed once, on first use, safely from any thread.
 */
#ifndef LQ_SRGB_H
#define LQ_SRGB_H

#include <stdint.h>

uint8_t lq_srgb_byte(double x);
/* col (linear RGB) to o[0..2]. */
void lq_srgb_encode(const double col[3], uint8_t *o);

#endif
