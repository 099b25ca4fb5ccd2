/*
 * fuzz_png.c — libFuzzer target: the PNG readers (host/io/io_png.c) as heightmaps and
 * masks use them; the header's size limit keeps every input's memory bounded.
 */
#include "fuzz/fuzz_common.h"
#include "io/io.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = lq_fuzz_file("image.png", data, size);
    int w = 0, h = 0;
    float *gray = NULL;
    uint8_t *rgb = NULL;
    if (lq_png_read_gray(path, &w, &h, &gray) == LQ_OK) free(gray);
    lq_error_clear();
    if (lq_png_read_rgb(path, &w, &h, &rgb) == LQ_OK) free(rgb);
    lq_error_clear();
    return 0;
}
