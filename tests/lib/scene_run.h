/*
 * scene_run.h — a solver test's scene from YAML text, on the reference backend: open it
 * (config, registry, context, the solver's state), close it, and read a frame stat by key.
 * Header-only, for the tests under tests/solvers (static functions, as lib/twin.h).
 */
#ifndef LQ_TEST_SCENE_RUN_H
#define LQ_TEST_SCENE_RUN_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/check.h"
#include "scene/config.h"
#include "solvers/registry.h"

typedef struct run {
    lq_config *cfg;
    const lq_solver_vt *vt;
    lq_ctx ctx;
    void *state;
} run;

/* The scene `text` (written to a temporary file, removed at once) created on "ref". */
static int open_scene(run *r, const char *text)
{
    memset(r, 0, sizeof *r);
    char path[] = "/tmp/lq_scene_run_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 1;
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    r->cfg = lq_config_load(path, 0, NULL);
    unlink(path);
    int rc = !r->cfg || !(r->vt = lq_registry_find(r->cfg)) || lq_ctx_open(&r->ctx, "ref", false);
    if (!rc) rc = r->vt->create(&r->ctx, r->cfg, &r->state);
    CHECK_MSG(rc == 0, "scene: %s", lq_error_message());
    return rc;
}

static void close_scene(run *r)
{
    if (r->state) r->vt->destroy(r->state);
    if (r->vt) lq_ctx_close(&r->ctx);
    lq_config_free(r->cfg);
}

/* The frame stat `key` (a failed check and NaN when it is missing). */
static double extra(const lq_frame_stats *st, const char *key)
{
    for (int i = 0; i < st->nextra; i++)
        if (strcmp(st->extra[i].key, key) == 0) return st->extra[i].value;
    CHECK_MSG(0, "no %s in the stats", key);
    return NAN;
}

#endif
