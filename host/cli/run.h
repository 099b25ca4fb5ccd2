/*
 * run.h — the commands behind the command line: run a scene, diff it between
 * backends, benchmark the operations. Each returns an exit code (0, 1 or 2) with the
 * error recorded (common.h).
 */
#ifndef LQ_RUN_H
#define LQ_RUN_H

#include <stdbool.h>

typedef struct lq_run_opts {
    const char *scene;  /* SCENE.yaml */
    const char *out;    /* --out DIR, NULL: out/<scene name>/ */
    const char *device; /* --device, "auto" */
    int frames;         /* --frames N, 0: the scene's time.frames */
    int nsets;
    const char *const *sets; /* --set KEY=VALUE */
    bool quiet;              /* no progress lines */
    bool resume;             /* --resume: continue from DIR/checkpoint.lqc */
    bool plan;        /* --plan: the solver's device-memory plan on stdout, nothing allocated */
    bool resume_pick; /* --resume-from FRAME (resume is true too): from the checkpoint of */
    int resume_frame; /* frame resume_frame that output.checkpoint_keep kept */
    const char *grid; /* --grid NAME: grid NAME of the scene's grids[] (§5.4), NULL: all */
} lq_run_opts;

int lq_run(const lq_run_opts *o);
/* Everything `run` checks before it writes anything (the scene, the solver's own
 * checks on the reference path, output fields), then "SCENE: ok" on stdout. */
int lq_run_check(const lq_run_opts *o);
/* Runs the scene on the reference path and on an OpenCL device (o->device, "auto"
 * meaning the first OpenCL device) side by side for o->frames frames and prints max
 * abs/rel error per field; exit 1 past the tolerances of host/core/tolerance.c. */
int lq_diff(const lq_run_opts *o);

typedef struct lq_bench_opts {
    const char *device; /* NULL/"all": every OpenCL device and the reference path */
    int size;           /* 0: 512, 1024, 2048 */
    bool json;
    int reps; /* 0: automatic */
} lq_bench_opts;
int lq_bench(const lq_bench_opts *o);

#endif
