/*
 * test_stamp.c — views/stamp.h on a grey 960 × 540 picture (scale 2): "frame 12  t 0.500 s"
 *  1. touches only its box (19 characters × 12 px + 4 px wide, 22 px high): every pixel
 *     outside keeps its bytes;
 *  2. inside the box every pixel is either the grey halved or white, and the white ones
 *     are exactly the font's: the '1' (character 6) lights its 2 × 2 blocks at the
 *     glyph's bits (rows 00100, 01100, 00100 ×4, 01110) and nothing else in its cell;
 *  3. an empty text changes nothing; a character outside the font draws as a space.
 */
#include "lib/check.h"
#include "views/stamp.h"

#include <stdlib.h>
#include <string.h>

#define W 960
#define H 540

int main(void)
{
    uint8_t *a = malloc(3 * W * H), *b = malloc(3 * W * H);
    memset(a, 120, 3 * W * H);
    memcpy(b, a, 3 * W * H);
    const char *text = "frame 12  t 0.500 s";
    lq_stamp_draw(b, W, H, text);
    const int s = 2, bw = 19 * 6 * s + 2 * s, bh = 11 * s;
    int outside = 0, other = 0, lit = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = b + 3 * (y * W + x);
            if (x >= bw || y >= bh)
                outside += p[0] != 120 || p[1] != 120 || p[2] != 120;
            else if (p[0] == 255 && p[1] == 255 && p[2] == 255)
                lit++;
            else
                other += p[0] != 60 || p[1] != 60 || p[2] != 60;
        }
    CHECK_MSG(outside == 0 && other == 0 && lit > 200, "outside %d, other %d, lit %d", outside,
              other, lit);
    /* the '1', character 6: its cell starts at x = s + s + 6·6·s, y = 2 s */
    static const uint8_t one[7] = {4, 12, 4, 4, 4, 4, 14};
    int wrong = 0;
    for (int r = 0; r < 7; r++)
        for (int c = 0; c < 6; c++)
            for (int dy = 0; dy < s; dy++)
                for (int dx = 0; dx < s; dx++) {
                    int x = 2 * s + 6 * 6 * s + c * s + dx, y = 2 * s + r * s + dy;
                    int want = c < 5 && ((one[r] >> (4 - c)) & 1);
                    wrong += (b[3 * (y * W + x)] == 255) != want;
                }
    CHECK_MSG(wrong == 0, "'1' glyph: %d pixels wrong", wrong);
    memcpy(b, a, 3 * W * H);
    lq_stamp_draw(b, W, H, "");
    CHECK(memcmp(a, b, 3 * W * H) == 0);
    uint8_t *c = malloc(3 * W * H);
    memcpy(b, a, 3 * W * H);
    memcpy(c, a, 3 * W * H);
    lq_stamp_draw(b, W, H, "t 1");
    lq_stamp_draw(c, W, H, "tQ1");
    CHECK(memcmp(b, c, 3 * W * H) == 0);
    free(a);
    free(b);
    free(c);
    CHECK_DONE();
}
