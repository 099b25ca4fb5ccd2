/*
 * stamp.c — lq_stamp_draw (stamp.h): glyphs as 7 rows of 5 bits, the box, the text.
 */
#include "views/stamp.h"

#include <string.h>

typedef struct lq_stamp_glyph {
    char c;
    uint8_t rows[7]; /* bit 4 the leftmost column */
} lq_stamp_glyph;

static const lq_stamp_glyph lq_stamp_font[] = {
    {'0', {14, 17, 19, 21, 25, 17, 14}}, {'1', {4, 12, 4, 4, 4, 4, 14}},
    {'2', {14, 17, 1, 2, 4, 8, 31}},     {'3', {31, 2, 4, 2, 1, 17, 14}},
    {'4', {2, 6, 10, 18, 31, 2, 2}},     {'5', {31, 16, 30, 1, 1, 17, 14}},
    {'6', {6, 8, 16, 30, 17, 17, 14}},   {'7', {31, 1, 2, 4, 8, 8, 8}},
    {'8', {14, 17, 17, 14, 17, 17, 14}}, {'9', {14, 17, 17, 15, 1, 2, 12}},
    {'a', {0, 0, 14, 1, 15, 17, 15}},    {'e', {0, 0, 14, 17, 31, 16, 14}},
    {'f', {6, 9, 8, 28, 8, 8, 8}},       {'m', {0, 0, 26, 21, 21, 17, 17}},
    {'r', {0, 0, 22, 25, 16, 16, 16}},   {'s', {0, 0, 14, 16, 14, 1, 30}},
    {'t', {8, 8, 28, 8, 8, 9, 6}},       {'.', {0, 0, 0, 0, 0, 12, 12}},
    {':', {0, 12, 12, 0, 12, 12, 0}},    {'-', {0, 0, 0, 31, 0, 0, 0}},
    {'/', {1, 2, 2, 4, 8, 8, 16}},
};

static const uint8_t *lq_stamp_rows(char c)
{
    for (size_t i = 0; i < sizeof lq_stamp_font / sizeof *lq_stamp_font; i++)
        if (lq_stamp_font[i].c == c) return lq_stamp_font[i].rows;
    return NULL; /* a space */
}

void lq_stamp_draw(uint8_t *rgb, int width, int height, const char *text)
{
    if (!rgb || !text || !*text || width < 1 || height < 1) return;
    const int s = width / 400 > 1 ? width / 400 : 1, adv = 6 * s, n = (int)strlen(text);
    const int x0 = s, y0 = s, bw = n * adv + 2 * s, bh = 7 * s + 4 * s;
    for (int y = 0; y < bh && y < height; y++) /* the box */
        for (int x = 0; x < bw && x < width; x++) {
            uint8_t *o = rgb + 3 * ((size_t)y * width + x);
            for (int c = 0; c < 3; c++) o[c] = (uint8_t)(o[c] / 2);
        }
    for (int q = 0; q < n; q++) {
        const uint8_t *rows = lq_stamp_rows(text[q]);
        if (!rows) continue;
        for (int r = 0; r < 7; r++)
            for (int col = 0; col < 5; col++) {
                if (!((rows[r] >> (4 - col)) & 1)) continue;
                for (int dy = 0; dy < s; dy++)
                    for (int dx = 0; dx < s; dx++) {
                        int x = x0 + s + q * adv + col * s + dx, y = y0 + s + r * s + dy;
                        if (x >= width || y >= height) continue;
                        uint8_t *o = rgb + 3 * ((size_t)y * width + x);
                        o[0] = o[1] = o[2] = 255;
                    }
            }
    }
}
