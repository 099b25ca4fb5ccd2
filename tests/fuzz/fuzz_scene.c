/*
 * fuzz_scene.c — libFuzzer target: the scene loader (YAML, the key table, --set, the
 * typed decoder and the run's scene checks). An input is a scene; after a NUL byte, each
 * further NUL-separated piece is one --set flag. Any input must end in a scene or one
 * error line, never a crash, a sanitizer report or a hang.
 */
#include "fuzz/fuzz_common.h"
#include "scene/config.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    size_t scene = nul ? (size_t)(nul - data) : size;
    const char *path = lq_fuzz_file("scene.yaml", data, scene);
    const char *sets[16];
    char *copy = NULL;
    int nsets = 0;
    if (nul) {
        copy = malloc(size - scene);
        memcpy(copy, nul + 1, size - scene - 1);
        copy[size - scene - 1] = '\0';
        for (char *p = copy; nsets < 16 && p < copy + (size - scene - 1); p += strlen(p) + 1)
            sets[nsets++] = p;
    }
    lq_config *cfg = lq_config_load(path, nsets, sets);
    if (cfg) {
        char *text = NULL;
        size_t len = 0;
        (void)lq_config_check_run(cfg);
        if (lq_scene_text_of(cfg->scene, &text, &len) == LQ_OK) free(text);
        lq_config_free(cfg);
    }
    lq_error_clear();
    free(copy);
    return 0;
}
