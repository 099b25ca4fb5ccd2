/*
 * raster.h — a preview's pixels from a function that traces one ray, with the rays
 * spent where the picture needs them (hfview and volview share it).
 *
 * trace(ctx, sx, sy, col) puts the linear colour seen through the continuous pixel
 * position (sx, sy) (row 0 at the top, pixel centres at +0.5) in col and returns the
 * distance to what it sees (INFINITY: nothing, the background). It runs on any thread
 * and depends on the frame alone.
 *
 * Invariants:
 * - Coarse pass: every fourth pixel of every fourth row, (4i, 4j), is traced at its
 *   centre.
 * - The 4 × 4 block at (4i, 4j) owns the pixels [4i, 4i + 4) × [4j, 4j + 4). It is
 *   smooth when its traced corners (4i, 4j), (4i + 4, 4j), (4i, 4j + 4), (4i + 4, 4j + 4)
 *   agree: each byte channel within LQ_RASTER_SMOOTH between its lowest and highest
 *   corner, and the distances all infinite or all finite within 4 % of the nearest. A
 *   block at the right or bottom edge that lacks a corner is rough, and so is one the
 *   caller marks, whose pixels are all traced. (A feature narrower than four pixels that
 *   no corner sees is lost: callers mark the blocks of small objects.)
 * - A smooth block's pixels take the corners' bilinear mean (bytes rounded; the
 *   distance likewise), except the even pixels on its top and left edges when the
 *   block above or to the left is rough: those are traced, as a rough block traces its
 *   own even pixels. Then each 2 × 2 square of a rough block is treated the same way
 *   with its four even corners: its other three pixels are the corners' mean when they
 *   agree, else traced. A smooth region (sky, water, ground) costs about a ray per
 *   sixteen pixels; silhouettes, shorelines and shadow edges are traced pixel by pixel.
 * - Anti-aliasing: a pixel whose bytes differ from any of its four neighbours' by
 *   more than 36 (summed over channels) is re-rendered as the mean, in linear light, of
 *   four rotated-grid samples; its distance stays the centre's.
 * - Every pixel is written by one pass and one block; the picture does not depend on
 *   the number of threads (core/parallel.h).
 */
#ifndef LQ_RASTER_H
#define LQ_RASTER_H

#include <stdbool.h>
#include <stdint.h>

#define LQ_RASTER_SMOOTH 6 /* bytes per channel across a block's corners */

typedef double (*lq_raster_trace)(const void *ctx, double sx, double sy, double col[3]);

/* Bytes of scratch lq_raster_render needs for a w × h picture. */
#define LQ_RASTER_BLOCKS(w, h) ((size_t)(((w) + 3) / 4) * (size_t)(((h) + 3) / 4))

/* Fills rgb (w · h · 3 bytes, sRGB), depth (w · h, the distances) and aa (w · h, 1
 * where anti-aliased) for a w × h picture. adaptive: as above; otherwise every pixel's
 * centre is traced, then anti-aliased the same way. blocks: LQ_RASTER_BLOCKS(w, h)
 * bytes, one per 4 × 4 block (row-major, (w + 3) / 4 across); on entry nonzero where the
 * caller wants the block rough (traced pixel by pixel: a small object the coarse
 * samples could step over); its contents on return are scratch. */
void lq_raster_render(int w, int h, lq_raster_trace trace, const void *ctx, bool adaptive,
                      uint8_t *rgb, float *depth, uint8_t *aa, uint8_t *blocks);

#endif
