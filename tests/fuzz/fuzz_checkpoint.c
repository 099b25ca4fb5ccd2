/*
 * fuzz_checkpoint.c — libFuzzer target: the checkpoint reader (host/io/checkpoint.c) and
 * every solver's load, on the reference path.
 *
 * At start-up it creates one small run per solver (and mac with its other surface
 * trackers and spray, pls with texture particles and an inlet), each advanced a frame,
 * from the scenes below. An input is one byte
 * and a checkpoint file: the byte's low bits pick the run whose state the file is loaded
 * into; with its high bit set the harness first writes correct checksums into the file
 * (its header length permitting), so that mutations reach the solvers' loads and their
 * range checks rather than stopping at the CRCs. Any input must end in a restored state
 * or one error line, never a crash or a sanitizer report.
 *
 * LQ_FUZZ_SEEDS=DIR: writes each run's own checkpoint (high bit set) into DIR as a seed
 * (tests/fuzz/corpus/checkpoint/ was made so) and exits.
 */
#include "fuzz/fuzz_common.h"
#include "io/checkpoint.h"
#include "scene/config.h"
#include "solvers/registry.h"

static const char *const lq_fuzz_scenes[] = {
    "solver: shallow\ngrid: {size: [12, 10], cell: 0.1}\nliquid:\n  - level: 0.5\n"
    "sources:\n  - rain: {rate: 50, radius: 0.03}\n",
    "solver: splash\ngrid: {size: [12, 12], cell: 0.1}\nliquid:\n  - level: 0.4\n"
    "objects:\n  - sphere: {center: [0.6, 0.7, 0.6], radius: 0.15}\n    density: 500\n"
    "    velocity: [0, -3, 0]\nspray: {threshold: 0.1, max_particles: 64}\n",
    "solver: mac\ngrid: {size: [8, 8, 8], cell: 0.1}\nliquid:\n"
    "  - box: {min: [0, 0, 0], max: [0.4, 0.5, 0.8]}\nspray: {threshold: 0.1, max_particles: 64}\n",
    "solver: mac\ngrid: {size: [12, 12, 1], cell: 0.1}\nmac: {surface: chains}\nliquid:\n"
    "  - box: {min: [0, 0, 0], max: [0.5, 0.6, 0.1]}\n",
    "solver: mac\ngrid: {size: [8, 8, 8], cell: 0.1}\nmac: {surface: heightfield}\nliquid:\n"
    "  - level: 0.4\n",
    "solver: pls\ngrid: {size: [8, 8, 8], cell: 0.1}\npls: {max_particles: 1000}\nliquid:\n"
    "  - box: {min: [0, 0, 0], max: [0.4, 0.5, 0.8]}\n",
    "solver: pls\ngrid: {size: [8, 8, 8], cell: 0.1}\n"
    "pls: {max_particles: 1000, texture: {checker: 0.1, per_cell: 2}}\nliquid:\n"
    "  - box: {min: [0, 0, 0], max: [0.4, 0.5, 0.8]}\nsources:\n"
    "  - inlet: {min: [0.5, 0.5, 0.3], max: [0.6, 0.6, 0.5], velocity: [0, -1, 0], flow: 0.001}\n",
};
#define LQ_FUZZ_RUNS ((int)(sizeof lq_fuzz_scenes / sizeof lq_fuzz_scenes[0]))

static struct {
    lq_ctx ctx;
    lq_config *cfg;
    const lq_solver_vt *vt;
    void *state;
    lq_checkpoint_id id;
} lq_fuzz_run[LQ_FUZZ_RUNS];

static void lq_fuzz_die(const char *what)
{
    fprintf(stderr, "fuzz_checkpoint: %s: %s\n", what, lq_error_message());
    abort();
}

/* Writes run r's checkpoint, prefixed by its selector byte, to DIR/seed_R. */
static void lq_fuzz_seed(int r, const char *dir)
{
    char path[512], out[512];
    snprintf(path, sizeof path, "%s/seed_%d.lqc", dir, r);
    if (lq_checkpoint_write(path, lq_fuzz_run[r].vt, lq_fuzz_run[r].state, 1, &lq_fuzz_run[r].id))
        lq_fuzz_die("seed");
    FILE *f = fopen(path, "rb");
    snprintf(out, sizeof out, "%s/seed_%d", dir, r);
    FILE *o = fopen(out, "wb");
    if (!f || !o) abort();
    fputc(0x80 | r, o);
    int c;
    while ((c = fgetc(f)) != EOF) fputc(c, o);
    fclose(f);
    fclose(o);
    remove(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    for (int r = 0; r < LQ_FUZZ_RUNS; r++) {
        char name[32];
        snprintf(name, sizeof name, "scene%d.yaml", r);
        const char *s = lq_fuzz_scenes[r];
        const char *path = lq_fuzz_file(name, (const uint8_t *)s, strlen(s));
        if (lq_ctx_open(&lq_fuzz_run[r].ctx, "ref", false)) lq_fuzz_die("ref backend");
        lq_fuzz_run[r].cfg = lq_config_load(path, 0, NULL);
        if (!lq_fuzz_run[r].cfg) lq_fuzz_die("scene");
        lq_fuzz_run[r].vt = lq_registry_find(lq_fuzz_run[r].cfg);
        lq_frame_stats st;
        if (!lq_fuzz_run[r].vt ||
            lq_fuzz_run[r].vt->create(&lq_fuzz_run[r].ctx, lq_fuzz_run[r].cfg,
                                      &lq_fuzz_run[r].state) ||
            lq_fuzz_run[r].vt->advance(lq_fuzz_run[r].state, 1, 1.0 / 30, &st))
            lq_fuzz_die("solver");
        char *text = NULL;
        size_t len = 0;
        if (lq_scene_text_of(lq_fuzz_run[r].cfg->scene, &text, &len) ||
            lq_checkpoint_id_make(&lq_fuzz_run[r].id, text, len, 0, NULL))
            lq_fuzz_die("identity");
        remove(path);
    }
    const char *seeds = getenv("LQ_FUZZ_SEEDS");
    if (seeds && *seeds) {
        for (int r = 0; r < LQ_FUZZ_RUNS; r++) lq_fuzz_seed(r, seeds);
        exit(0);
    }
    return 0;
}

/* Checksums as checkpoint.h lays them out, where the header's length allows. */
static void lq_fuzz_fix(uint8_t *b, size_t n)
{
    if (n < 72) return;
    size_t hb = (size_t)b[12] | (size_t)b[13] << 8 | (size_t)b[14] << 16 | (size_t)b[15] << 24;
    if (hb < 68 || hb + 4 > n) return;
    uint64_t pb = n - hb - 4;
    uint32_t pc = lq_checkpoint_crc(0, b + hb, (size_t)pb);
    for (int i = 0; i < 8; i++) b[48 + i] = (uint8_t)(pb >> (8 * i));
    for (int i = 0; i < 4; i++) b[56 + i] = (uint8_t)(pc >> (8 * i));
    uint32_t hc = lq_checkpoint_crc(0, b, hb - 4);
    for (int i = 0; i < 4; i++) b[hb - 4 + i] = (uint8_t)(hc >> (8 * i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    int r = (data[0] & 0x7f) % LQ_FUZZ_RUNS;
    uint8_t *b = malloc(size);
    memcpy(b, data + 1, size - 1);
    if (data[0] & 0x80) lq_fuzz_fix(b, size - 1);
    const char *path = lq_fuzz_file("checkpoint.lqc", b, size - 1);
    int frame = 0;
    (void)lq_checkpoint_read(path, lq_fuzz_run[r].vt, lq_fuzz_run[r].state, &lq_fuzz_run[r].id,
                             &frame);
    lq_error_clear();
    free(b);
    return 0;
}
