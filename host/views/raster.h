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
 * - Coarse pass: every eighth pixel of every eighth row, (8i, 8j), is traced at its
 *   centre.
 * - Then blocks of side s = 8, 4, 2 in turn; the block at (s i, s j) owns the pixels
 *   [s i, s i + s) × [s j, s j + s). A block inside a smooth larger block is done. Any
 *   other block is smooth when its corners (s i, s j), (s i + s, s j), (s i, s j + s),
 *   (s i + s, s j + s) — pixels the earlier passes traced or filled — agree: each byte
 *   channel within LQ_RASTER_SMOOTH between its lowest and highest corner, and the
 *   distances all infinite or all finite within 4 % of the nearest. A smooth block's
 *   pixels take the corners' bilinear mean (bytes rounded; the distance likewise). A
 *   block at the right or bottom edge that lacks a corner is rough, and so is one that
 *   overlaps a 4 × 4 block the caller marked. A rough block traces the points halfway
 *   along its top and left sides and its centre, the next level's corners (at s = 2: its
 *   other three pixels). So a smooth region (sky, water, ground) costs about a ray per
 *   64 pixels, and silhouettes, shorelines and shadow edges are traced pixel by pixel.
 *   (A feature narrower than the coarse step that no corner sees is lost: callers mark
 *   the blocks of small objects.)
 * - Anti-aliasing: a pixel whose bytes differ from any of its four neighbours' by
 *   more than 36 (summed over channels) is re-rendered as the mean, in linear light, of
 *   four rotated-grid samples; its distance stays the centre's.
 * - Every pixel is written by one pass and one block; the picture does not depend on
 *   the number of threads (core/parallel.h).
 */
#ifndef LQ_RASTER_H
#define LQ_RASTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LQ_RASTER_SMOOTH 6 /* bytes per channel across a block's corners */

typedef double (*lq_raster_trace)(const void *ctx, double sx, double sy, double col[3]);

/* Bytes of the `blocks` lq_raster_render needs for a w × h picture: the marks, one per
 * 4 × 4 block (row-major, (w + 3) / 4 across), then its own scratch. */
size_t lq_raster_blocks(int w, int h);

/* Fills rgb (w · h · 3 bytes, sRGB), depth (w · h, the distances) and aa (w · h, 1
 * where anti-aliased) for a w × h picture. adaptive: as above; otherwise every pixel's
 * centre is traced, then anti-aliased the same way. blocks: lq_raster_blocks(w, h)
 * bytes, the marks first: nonzero where the caller wants that 4 × 4 block traced pixel
 * by pixel (a small object the coarse samples could step over), the rest zeroed or not;
 * the contents on return are scratch. */
void lq_raster_render(int w, int h, lq_raster_trace trace, const void *ctx, bool adaptive,
                      uint8_t *rgb, float *depth, uint8_t *aa, uint8_t *blocks);

#endif
