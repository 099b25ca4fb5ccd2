/*
 * stamp.h — a line of text burnt into a preview's corner ("frame 12  t 0.400 s"), so a
 * picture passed around still says where in the shot it is.
 *
 * Invariants: a built-in 5 × 7 pixel font (digits, the letters a e f m r s t, ". : - /"
 * and space; any other character draws as a space), scaled by max(1, width / 400), white
 * over a box that halves the picture's brightness behind it, 1 scaled pixel of margin,
 * in the top-left corner; nothing outside the picture is touched; the same text on the
 * same picture gives the same bytes.
 */
#ifndef LQ_STAMP_H
#define LQ_STAMP_H

#include <stdint.h>

void lq_stamp_draw(uint8_t *rgb, int width, int height, const char *text);

#endif
