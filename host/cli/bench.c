/*
 * bench.c — `liquidcl bench`: each operation on each device at several sizes, as a
 * table of ms, Mcells/s, effective GB/s and the fraction of the copy bandwidth the
 * same device reaches in the same run (a float4 copy kernel; memcpy on the reference
 * path). The bytes per cell are the compulsory traffic of each operation (fields it
 * must read and write once), stated in the table; scratch traffic is not counted, so
 * GB/s is a lower bound on what the memory system moved. Most rows count grid cells;
 * rows of particle and footprint operations count particles or columns instead (the
 * JSON's "unit"; its mcells_per_s and bytes_per_cell are then per that unit).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "core/field.h"
#include "core/kernel.h"
#include "ops/hf/heightfield.h"
#include "ops/mac/markers.h"
#include "ops/mac/momentum.h"
#include "ops/pls/plscontrol.h"
#include "ops/pls/plspocket.h"
#include "ops/pls/plsparticles.h"
#include "ops/pls/poisson.h"
#include "ops/mac/pressure.h"
#include "ops/pls/reinit.h"
#include "cli/run.h"
#include "scene/config.h"
#include "core/shape.h"
#include "ops/pls/sladvect.h"
#include "solvers/registry.h"
#include "ops/hf/columns.h"

/* A whole solver step's figures (lq_bench_scene_step). */
typedef struct lq_bench_steps {
    double ms;           /* per step */
    double waits, bytes; /* blocking host waits per step (lq_ctx.waits) and their bytes */
    double iters;        /* pressure iterations per step */
    double dev_bytes;    /* the solver's device memory (its device_bytes stat; 0: none) */
    int steps;           /* timed */
} lq_bench_steps;

typedef struct lq_bench_ctx {
    lq_ctx *ctx;
    char device[160];
    double copy_gbs;
    bool json;
    int reps;
    int rows;
    int dims;                    /* 2: sizes print as n², 3: as n³ */
    bool quiet;                  /* lq_bench_copy prints nothing */
    const lq_bench_steps *whole; /* the row being printed is a whole step's: these too */
} lq_bench_ctx;

/* Times fn: two warm-up calls, then five trials, each repeating fn for at least
 * min_s / 5 seconds (and 3 calls); returns the best trial's ms per call, or a negative
 * value on error. The best of several trials is the estimate least disturbed by other
 * load on a shared machine (seen here: the copy bandwidth of single trials varied
 * 22-51 GB/s within minutes). */
typedef int (*lq_bench_fn)(void *arg);
static double lq_bench_time(lq_bench_ctx *b, lq_bench_fn fn, void *arg, double min_s)
{
    for (int i = 0; i < 2; i++)
        if (fn(arg)) return -1;
    if (lq_ctx_finish(b->ctx)) return -1;
    double best = INFINITY;
    for (int trial = 0; trial < 5; trial++) {
        int reps = 0;
        double t0 = lq_now(), el = 0;
        do {
            if (fn(arg)) return -1;
            reps++;
            if (b->reps > 0 && reps < b->reps) continue;
            if (lq_ctx_finish(b->ctx)) return -1;
            el = lq_now() - t0;
        } while ((b->reps > 0 ? reps < b->reps : (el < min_s / 5 || reps < 3)) && reps < 100000);
        best = fmin(best, el / reps * 1e3);
    }
    return best;
}

/* One row: `items` units (cells, particles, columns) done in ms, bytes_item each. */
static void lq_bench_row_items(lq_bench_ctx *b, const char *op, int n, double items,
                               const char *unit, double ms, double bytes_item, const char *note)
{
    double mitems = items / (ms * 1e-3) / 1e6;
    double gbs = items * bytes_item / (ms * 1e-3) / 1e9;
    double frac = b->copy_gbs > 0 ? gbs / b->copy_gbs : NAN;
    if (b->json) {
        printf("%s{\"device\": \"%s\", \"op\": \"%s\", \"size\": %d, \"unit\": \"%s\", "
               "\"items\": %.0f, \"ms\": %.6g, \"mcells_per_s\": %.6g, \"gb_per_s\": %.6g, "
               "\"bytes_per_cell\": %g, \"copy_fraction\": %.4g, \"copy_gb_per_s\": %.6g",
               b->rows ? ",\n " : "[", b->device, op, n, unit, items, ms, mitems, gbs, bytes_item,
               frac, b->copy_gbs);
        if (b->whole)
            printf(", \"steps\": %d, \"waits_per_step\": %.4g, \"wait_bytes_per_step\": %.6g, "
                   "\"pressure_iterations\": %.4g",
                   b->whole->steps, b->whole->waits, b->whole->bytes, b->whole->iters);
        printf("}");
    } else {
        printf("%-18s %6d%s %10.3f %11.1f %8.2f %6.0f%% %6.5g  %s\n", op, n,
               b->dims == 3 ? "³" : "²", ms, mitems, gbs, 100 * frac, bytes_item, note ? note : "");
    }
    b->rows++;
}

/* A whole step's row: its waits per step join the JSON. */
static void lq_bench_row_steps(lq_bench_ctx *b, const char *op, int n, double cells, double ms,
                               double bytes_cell, const lq_bench_steps *r, const char *note)
{
    b->whole = r;
    lq_bench_row_items(b, op, n, cells, "cell", ms, bytes_cell, note);
    b->whole = NULL;
}

static void lq_bench_row(lq_bench_ctx *b, const char *op, int n, double ms, double bytes_cell,
                         const char *note)
{
    lq_bench_row_items(b, op, n, (double)n * (double)n, "cell", ms, bytes_cell, note);
}

/* --- copy bandwidth ----------------------------------------------------------------- */
typedef struct lq_bench_copy_ops {
    lq_kernel k[2]; /* float4 copy, 64 floats per work-item */
} lq_bench_copy_ops;
static const char *const lq_bench_copy_sources[] = {"kernels/common/copy.cl"};
static const lq_kernel_slot lq_bench_copy_kernels[] = {
    LQ_KERNEL(lq_bench_copy_ops, k[0], "copy_float4"),
    LQ_KERNEL(lq_bench_copy_ops, k[1], "copy_float16x4"),
};
static const lq_program lq_bench_copy_program =
    LQ_PROGRAM("", lq_bench_copy_sources, lq_bench_copy_kernels);

typedef struct lq_bench_copy_arg {
    lq_ctx *ctx;
    lq_field *src, *dst;
    lq_kernel *k;
    size_t floats_per_item;
} lq_bench_copy_arg;

static int lq_bench_copy_once(void *p)
{
    lq_bench_copy_arg *a = p;
    if (a->ctx->backend == LQ_BACKEND_REF) {
        memcpy(a->dst->host, a->src->host, lq_field_bytes(a->src));
        return LQ_OK;
    }
    return lq_kernel_run(a->k, lq_range_1d(a->src->count / a->floats_per_item, 0));
}

/* Copy bandwidth: read + written bytes per second of the fastest copy (a float4 copy
 * kernel and a 64-floats-per-work-item one on OpenCL, memcpy on the reference path). */
static int lq_bench_copy(lq_bench_ctx *b)
{
    int rc = LQ_OK;
    lq_field src, dst;
    cl_program prog = NULL;
    lq_bench_copy_ops ks;
    memset(&ks, 0, sizeof ks);
    memset(&src, 0, sizeof src);
    memset(&dst, 0, sizeof dst);
    size_t floats = (size_t)64 << 20; /* 256 MiB per buffer: far beyond any cache */
    if (b->ctx->backend == LQ_BACKEND_CL)
        while (floats * 4 > b->ctx->cl.dev.max_alloc || floats * 8 > b->ctx->cl.dev.global_mem / 2)
            floats /= 2;
    size_t plan[2] = {floats * 4, floats * 4};
    rc = lq_ctx_reserve(b->ctx, "the copy benchmark", 2, plan);
    if (!rc) rc = lq_field_alloc(b->ctx, &src, "copy_src", (int)floats, 1, 1, 4);
    if (!rc) rc = lq_field_alloc(b->ctx, &dst, "copy_dst", (int)floats, 1, 1, 4);
    size_t per_item[2] = {4, 64};
    int variants = b->ctx->backend == LQ_BACKEND_CL ? 2 : 1;
    lq_binding bound[] = {{&ks.k[0], {LQ_MEM(&src), LQ_MEM(&dst)}},
                          {&ks.k[1], {LQ_MEM(&src), LQ_MEM(&dst)}}};
    if (!rc) rc = lq_program_build(&lq_bench_copy_program, &ks, &prog, b->ctx, 0, 0, 0, "");
    if (!rc) rc = lq_kernels_bind(LQ_ARGS(bound));
    double best = 0;
    for (int v = 0; v < variants && !rc; v++) {
        lq_bench_copy_arg a = {b->ctx, &src, &dst, &ks.k[v], per_item[v]};
        double ms = lq_bench_time(b, lq_bench_copy_once, &a, 0.5);
        if (ms < 0) {
            rc = LQ_ESIM;
            break;
        }
        double gbs = 2.0 * (double)floats * 4 / (ms * 1e-3) / 1e9;
        if (!b->json && !b->quiet)
            printf("copy bandwidth: %.2f GB/s (%s, %.0f MiB read + written, %.3f ms)\n", gbs,
                   b->ctx->backend == LQ_BACKEND_CL ? lq_bench_copy_kernels[v].name : "memcpy",
                   (double)floats * 8 / 1048576.0, ms);
        best = fmax(best, gbs);
    }
    b->copy_gbs = best;
    lq_program_release(&lq_bench_copy_program, &ks, &prog);
    lq_field_release(&src);
    lq_field_release(&dst);
    if (b->ctx->backend == LQ_BACKEND_CL) b->ctx->cl.reserved = 0;
    return rc;
}

/* --- height-field operations ---------------------------------------------------------- */
typedef struct lq_bench_hf_arg {
    lq_heightfield_ops *o, *opcr; /* Thomas line solves; the parallel ones (NULL: no room) */
    lq_heightfield_state *s;
    lq_heightfield_step_params p;
    int which;
} lq_bench_hf_arg;

enum {
    B_RESIDUAL,
    B_ADI_X,
    B_ADI_Z,
    B_ADI,
    B_DEFECT,
    B_LABEL,
    B_REDUCE,
    B_APPLY,
    B_FINISH,
    B_STATS,
    B_STEP,
    B_ADI_X_PCR, /* the line solves and steps again with shallow.line_solve: pcr */
    B_ADI_Z_PCR,
    B_ADI_PCR,
    B_STEP_PCR,
    B_COUNT
};
/* The Thomas row each parallel one repeats. */
static const int lq_bench_hf_pcr_of[] = {B_ADI_X, B_ADI_Z, B_ADI, B_STEP};
static const struct {
    const char *name;
    double bytes; /* compulsory bytes per cell */
    const char *note;
} lq_bench_hf_ops[B_COUNT] = {
    {"hf_residual", 20, "read h1 b u w, write R"},
    {"hf_adi_x", 16, "read h1 b R, write R (in place)"},
    {"hf_adi_z", 16, "read h1 b R, write h (in place)"},
    {"adi_step", 52, "residual + adi_x + adi_z: the implicit solve of one step"},
    {"hf_defect", 28, "read h1 hn b u w, write the defect (one more split solve's input)"},
    {"hf_label", 28, "init 16 + merge 4 + compress 8"},
    {"hf_vol_reduce", 20, "read h1 hn b L, 8-byte sums at roots"},
    {"hf_vol_apply", 16, "read hn b L, write hn"},
    {"hf_finish", 32, "read hn h1 b u w, write hn u w"},
    {"hf_stats", 16, "read h b u w"},
    {"shallow_step", 176, "residual+adi_x+adi_z+label+2x(reduce+apply)+finish"},
    {"hf_pcr_x", 16, "hf_adi_x by the parallel line solve (shallow.line_solve: pcr)"},
    {"hf_pcr_z", 16, "hf_adi_z by the parallel line solve"},
    {"adi_step_pcr", 52, "adi_step with the parallel line solves"},
    {"shallow_step_pcr", 176, "shallow_step with the parallel line solves"},
};

static int lq_bench_hf_once(void *p)
{
    lq_bench_hf_arg *a = p;
    bool pcr = a->which >= B_ADI_X_PCR;
    lq_heightfield_ops *o = pcr ? a->opcr : a->o;
    lq_heightfield_state *s = a->s;
    lq_field *h1 = &s->h[s->i1], *hn = &s->h[s->in];
    switch (pcr ? lq_bench_hf_pcr_of[a->which - B_ADI_X_PCR] : a->which) {
    case B_RESIDUAL:
        return lq_heightfield_residual(o, h1, &s->u, &s->w, &s->b, &s->href, hn, a->p.kappa,
                                       a->p.cdt, &a->p.walls);
    case B_ADI_X:
        return lq_heightfield_adi_x(o, h1, &s->b, hn, &s->cp, a->p.kappa_s, 0.0f, 0.0f);
    case B_ADI_Z:
        return lq_heightfield_adi_z(o, h1, &s->b, h1, hn, &s->cp, a->p.kappa_s, 0.0f, 0.0f);
    case B_ADI: {
        int rc = lq_heightfield_residual(o, h1, &s->u, &s->w, &s->b, &s->href, hn, a->p.kappa,
                                         a->p.cdt, &a->p.walls);
        if (!rc) rc = lq_heightfield_adi_x(o, h1, &s->b, hn, &s->cp, a->p.kappa_s, 0.0f, 0.0f);
        if (!rc) rc = lq_heightfield_adi_z(o, h1, &s->b, h1, hn, &s->cp, a->p.kappa_s, 0.0f, 0.0f);
        return rc;
    }
    case B_DEFECT:
        return lq_heightfield_defect(o, h1, hn, &s->u, &s->w, &s->b, &s->href, &s->hx, a->p.kappa,
                                     a->p.cdt, a->p.kappa_s, &a->p.walls);
    case B_LABEL:
        return lq_heightfield_label(o, h1, hn, &s->b, &s->L, &s->old_sum, &s->new_sum[0],
                                    &s->wet[0]);
    case B_REDUCE:
        return lq_heightfield_volume_reduce(o, h1, hn, &s->b, &s->L, &s->old_sum, &s->new_sum[0],
                                            &s->wet[0], a->p.scale, 1);
    case B_APPLY:
        return lq_heightfield_volume_apply(o, hn, &s->b, &s->L, &s->old_sum, &s->new_sum[0],
                                           &s->wet[0], &s->new_sum[1], &s->wet[1], &s->acc_l,
                                           1.0f / a->p.scale, 0);
    case B_FINISH:
        return lq_heightfield_finish(o, hn, h1, &s->b, &s->u, &s->w, &s->acc_i, a->p.g_new,
                                     a->p.g_old, a->p.keep, a->p.fric, a->p.grav, a->p.thin,
                                     a->p.eps, 0, &a->p.walls);
    case B_STATS:
        return lq_heightfield_stats(o, h1, &s->b, &s->u, &s->w, &s->st_l, &s->st_i, a->p.scale);
    default: { /* a step of shallow's without sources (host/solvers/shallow.c) */
        int rc = lq_heightfield_residual(o, h1, &s->u, &s->w, &s->b, &s->href, hn, a->p.kappa,
                                         a->p.cdt, &a->p.walls);
        if (!rc) rc = lq_heightfield_adi_x(o, h1, &s->b, hn, &s->cp, a->p.kappa_s, 0.0f, 0.0f);
        if (!rc) rc = lq_heightfield_adi_z(o, h1, &s->b, h1, hn, &s->cp, a->p.kappa_s, 0.0f, 0.0f);
        if (!rc) rc = lq_heightfield_iterate(o, s, &a->p);
        hn = &s->h[s->in];
        if (!rc) rc = lq_heightfield_project_volume(o, s, a->p.scale, &a->p.walls);
        if (!rc)
            rc = lq_heightfield_finish(o, hn, h1, &s->b, &s->u, &s->w, &s->acc_i, a->p.g_new,
                                       a->p.g_old, a->p.keep, a->p.fric, a->p.grav, a->p.thin,
                                       a->p.eps, a->p.step, &a->p.walls);
        if (!rc) lq_heightfield_rotate(s);
        return rc;
    }
    }
}

/* A lake with islands and a beach, waves in it: about three quarters wet. */
static void lq_bench_lake(int n, float *b, float *h1)
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++) {
            double x = (i + 0.5) / n, z = (k + 0.5) / n;
            double bb = 0.8 * x + 0.15 * sin(9 * x) * cos(7 * z);
            double hh = 0.6 + 0.01 * cos(40 * x) * cos(30 * z);
            size_t c = (size_t)i + (size_t)n * k;
            b[c] = (float)bb;
            h1[c] = hh > bb ? (float)hh : (float)bb - 1e-5f;
        }
}

static int lq_bench_hf(lq_bench_ctx *b, int n)
{
    int rc = LQ_OK;
    lq_heightfield_ops o, opcr;
    lq_heightfield_state s;
    memset(&o, 0, sizeof o);
    memset(&opcr, 0, sizeof opcr);
    bool pcr = lq_heightfield_pcr_fits(b->ctx, n, n, NULL, 0);
    memset(&s, 0, sizeof s);
    size_t cells = (size_t)n * (size_t)n;
    float *hb = lq_alloc(cells * 4), *h1 = lq_alloc(cells * 4);
    if (!hb || !h1) rc = LQ_ESIM;
    if (!rc) rc = lq_heightfield_state_alloc(&s, b->ctx, n, n);
    if (!rc) rc = lq_heightfield_ops_init(&o, b->ctx, n, n, LQ_HEIGHTFIELD_SOLVE_THOMAS);
    if (!rc && pcr) rc = lq_heightfield_ops_init(&opcr, b->ctx, n, n, LQ_HEIGHTFIELD_SOLVE_PCR);
    if (!rc) {
        lq_bench_lake(n, hb, h1);
        rc = lq_field_upload(&s.b, hb);
        if (!rc) rc = lq_field_upload(&s.h[s.i1], h1);

        if (!rc) rc = lq_field_upload(&s.h[s.in], h1);
    }
    lq_bench_hf_arg a;
    memset(&a, 0, sizeof a);
    a.o = &o;
    a.opcr = pcr ? &opcr : NULL;
    a.s = &s;
    /* Courant number about 1 at the deepest water (0.6 m): κ = C² / d; Crank–Nicolson
     * (θ = ½, shallow.theta's default), one split solve (shallow.adi_iterations at C = 1). */
    a.p.kappa = 0.5f / 0.6f;
    a.p.kappa_s = 0.25f / 0.6f;
    a.p.keep = 1.0f;
    a.p.cdt = 0.05f;
    a.p.g_new = 0.25f;
    a.p.g_old = 0.25f;
    a.p.iterations = 1;
    a.p.grav = 9.81f;
    a.p.thin = 0.01f; /* shallow.thin_film's default */
    a.p.eps = 1e-5f;
    a.p.scale = 1048576.0f; /* small: repeated sums stay far from overflow */
    a.p.correct = 1;
    for (int op = 0; op < B_COUNT && !rc; op++) {
        if (op >= B_ADI_X_PCR && !pcr) break;
        a.which = op;
        if (op == B_REDUCE || op == B_APPLY) { /* labels for the reductions */
            a.which = B_LABEL;
            rc = lq_bench_hf_once(&a);
            a.which = op;
            if (rc) break;
        }
        double ms = lq_bench_time(b, lq_bench_hf_once, &a, 0.3);
        if (ms < 0) {
            rc = LQ_ESIM;
            break;
        }
        lq_bench_row(b, lq_bench_hf_ops[op].name, n, ms, lq_bench_hf_ops[op].bytes,
                     lq_bench_hf_ops[op].note);
        fflush(stdout);
    }
    lq_heightfield_ops_release(&o);
    lq_heightfield_ops_release(&opcr);
    lq_heightfield_state_release(&s);
    if (b->ctx->backend == LQ_BACKEND_CL) b->ctx->cl.reserved = 0;
    free(hb);
    free(h1);
    return rc;
}

/* --- splash operations (O'Brien & Hodgins 1995) ----------------------------------------
 * A pool 1 cm per column, 0.5 m deep over gently varying ground, with two travelling
 * waves whose pipe flows are set from linear theory, so every pipe carries flow and ḣ
 * varies. Rows that change the state are arranged so that repeated calls do the same
 * work: the state is restored before each row; sp_volume alternates r and −r; sp_spray
 * resets the live count before each call; particles fly alternately +Δt and −Δt well
 * above the water, so none land and the same 100 000 stay live; splash_step runs the
 * simulation for a fixed number of steps from the restored pool in every trial. */
typedef struct lq_bench_splash_arg {
    lq_columns_ops *o;
    lq_columns_state *s;
    int which, flip, nparticles, rect[4];
    float keep, ga, gd, ge, r, inv_area, dt;
    lq_columns_spray_params sp;
    lq_columns_flight_params fp;
    double live_sum, emitted_sum, steps; /* splash_step: particle traffic */
} lq_bench_splash_arg;

enum { S_FLOW, S_LIMIT, S_VOLUME, S_SPRAY, S_PARTICLES, S_COMPACT, S_CONTACT, S_STEP, S_COUNT };
#define LQ_BENCH_SPLASH_PASSES    3      /* eq. 9 passes per step (splash.volume_passes default) */
#define LQ_BENCH_SPLASH_PARTICLES 100000 /* particles in flight for sp_particles, sp_compact */
#define LQ_BENCH_SPLASH_EMIT      0.01   /* fraction of corners over the spray threshold */
#define LQ_BENCH_SPLASH_FOOT      64     /* sp_contact footprint, columns per side */
/* Compulsory bytes per cell (per particle, per footprint column) of each kernel:
 * fields read and written once, kernel by kernel; a field two kernels of one operation
 * both touch counts twice, as it must cross memory twice. */
static const double lq_bench_splash_bytes[S_COUNT] = {
    44,  /* flow: read b d e, read + write qx qz qd qa */
    60,  /* limit: read 4 pipes + d, write s; scale: read s + 4 pipes, write 4 pipes */
    36,  /* volume: read 4 pipes + d + ret (8 B), write d ḣ */
    24,  /* spray: count 12 (d ḣ → ccnt), emit 4, take 8; + 32 per particle emitted */
    72,  /* per particle: read + write 32 B, b and d of its column */
    96,  /* per particle: count reads the flags (32 B/particle at that stride), scatter 64 */
    20,  /* per column: mode 0 reads b d; mode 1 reads b d, writes e */
    284, /* flow + 3 limit + volume + spray; particle traffic added per live particle */
};

static int lq_bench_splash_once(void *p)
{
    lq_bench_splash_arg *a = p;
    lq_columns_ops *o = a->o;
    lq_columns_state *s = a->s;
    int rc = LQ_OK;
    switch (a->which) {
    case S_FLOW:
        return lq_columns_flow(o, s, a->keep, a->ga, a->gd, a->ge, 0.0f);
    case S_LIMIT:
        return lq_columns_limit(o, s, a->r, 0);
    case S_VOLUME:
        a->flip = !a->flip;
        return lq_columns_volume(o, s, a->flip ? a->r : -a->r, a->inv_area, a->dt);
    case S_SPRAY:
        rc = lq_field_zero(&s->counters, sizeof(int)); /* live = 0: emit the same again */
        return rc ? rc : lq_columns_spray(o, s, &a->sp);
    case S_PARTICLES:
        a->flip = !a->flip;
        a->fp.n = a->nparticles;
        a->fp.dt = a->flip ? a->dt : -a->dt;
        return lq_columns_particles(o, s, &a->fp);
    case S_COMPACT:
        return lq_columns_compact(o, s, a->nparticles);
    case S_CONTACT:
        rc = lq_columns_contact(o, s, 1, a->sp.dx, a->sp.ox, a->sp.oz, a->sp.inv_fa, 0, a->rect[0],
                                a->rect[1], a->rect[2], a->rect[3]);
        if (!rc)
            rc = lq_columns_contact(o, s, 1, a->sp.dx, a->sp.ox, a->sp.oz, a->sp.inv_fa, 1,
                                    a->rect[0], a->rect[1], a->rect[2], a->rect[3]);
        if (!rc)
            rc = lq_columns_contact(o, s, 1, a->sp.dx, a->sp.ox, a->sp.oz, a->sp.inv_fa, 2,
                                    a->rect[0], a->rect[1], a->rect[2], a->rect[3]);
        return rc;
    default: { /* the device work of lq_splash_step without objects, its counter read included */
        int ctr[LQ_COLUMNS_CNT_COUNT];
        rc = lq_columns_flow(o, s, a->keep, a->ga, a->gd, a->ge, 0.0f);
        for (int q = 0; q < LQ_BENCH_SPLASH_PASSES && !rc; q++)
            rc = lq_columns_limit(o, s, a->r, q == LQ_BENCH_SPLASH_PASSES - 1);
        if (!rc) rc = lq_columns_volume(o, s, a->r, a->inv_area, a->dt);
        a->sp.step++;
        if (!rc) rc = lq_columns_spray(o, s, &a->sp);
        if (!rc) rc = lq_field_download(&s->counters, ctr);
        if (!rc && ctr[LQ_COLUMNS_CNT_LIVE] > 0) {
            a->fp.n = ctr[LQ_COLUMNS_CNT_LIVE];
            a->fp.dt = a->dt;
            rc = lq_columns_particles(o, s, &a->fp);
            if (!rc) rc = lq_columns_compact(o, s, a->fp.n);
        }
        a->live_sum += ctr[LQ_COLUMNS_CNT_LIVE];
        a->emitted_sum += ctr[LQ_COLUMNS_CNT_EMITTED];
        a->steps++;
        return rc;
    }
    }
}

static int lq_bench_cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

/* Host copies of the pool: restored before each row. */
typedef struct lq_bench_splash_pool {
    float *b, *d, *hd, *q[4], *part;
} lq_bench_splash_pool;

static int lq_bench_splash_pool_restore(lq_columns_state *s, const lq_bench_splash_pool *p,
                                        bool particles)
{
    lq_field *q[4] = {&s->qx, &s->qz, &s->qd, &s->qa};
    int ctr[LQ_COLUMNS_CNT_COUNT] = {particles ? LQ_BENCH_SPLASH_PARTICLES : 0, 0, 0, 0};
    int rc = lq_field_upload(&s->d, p->d);
    if (!rc) rc = lq_field_upload(&s->hd, p->hd);
    for (int j = 0; j < 4 && !rc; j++) rc = lq_field_upload(q[j], p->q[j]);
    if (!rc) rc = lq_field_zero(&s->e, 0);
    if (!rc) rc = lq_field_zero(&s->ret, 0);
    if (!rc) rc = lq_field_upload(&s->counters, ctr);
    if (!rc && particles) rc = lq_field_upload(&s->part[s->cur], p->part);
    return rc;
}

static void lq_bench_splash_pool_free(lq_bench_splash_pool *p)
{
    free(p->b);
    free(p->d);
    free(p->hd);
    for (int j = 0; j < 4; j++) free(p->q[j]);
    free(p->part);
}

/* Two waves on 0.5 m of water (1 cm columns, Courant number 0.4); the pipes carry the
 * flows of linear theory, Q = share·k·D̄·g·Σ A (κ·Δ)/ω cos(κ·x_mid) (eq. 5–6 integrated
 * over a travelling wave, Δ the pipe's vector, κ the wave number). */
static int lq_bench_splash_pool_make(lq_bench_splash_pool *p, lq_bench_splash_arg *a, int n,
                                     int capacity)
{
    size_t cells = (size_t)n * n, corners = (size_t)(n + 1) * (n + 1);
    memset(p, 0, sizeof *p);
    p->b = lq_alloc(cells * 4);
    p->d = lq_alloc(cells * 4);
    p->hd = lq_calloc(cells, 4);
    for (int j = 0; j < 4; j++) p->q[j] = lq_calloc(corners, 4);
    p->part = lq_calloc((size_t)capacity * LQ_COLUMNS_PSTRIDE, 4);
    bool ok = p->b && p->d && p->hd && p->part;
    for (int j = 0; j < 4; j++) ok = ok && p->q[j];
    if (!ok) return LQ_ESIM;
    const double dx = 0.01, g = 9.81, sd = 1.0 / 3.0, depth = 0.5, level = 0.52, L = n * dx;
    const double amp[2] = {0.02, 0.006}, len[2] = {48 * dx, 20 * dx};
    const double dir[2][2] = {{0.8, 0.6}, {-0.6, 0.8}};
    double c = sqrt(g * depth), kw[2][2], om[2];
    for (int w = 0; w < 2; w++) {
        for (int x = 0; x < 2; x++) kw[w][x] = 2 * LQ_PI / len[w] * dir[w][x];
        om[w] = c * 2 * LQ_PI / len[w];
    }
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++) {
            double x = (i + 0.5) * dx, z = (k + 0.5) * dx, eta = 0;
            for (int w = 0; w < 2; w++) eta += amp[w] * cos(kw[w][0] * x + kw[w][1] * z);
            double bb = 0.02 + 0.02 * sin(2 * LQ_PI * x / L) * cos(2 * LQ_PI * z / L);
            p->b[i + (size_t)n * k] = (float)bb;
            p->d[i + (size_t)n * k] = (float)(level + eta - bb);
        }
    /* qx, qz, qd, qa: from column (i0, k0) to (i0 + di, k0 + dk), share of k = 1 */
    const struct {
        int stride, di, dk;
        double share;
    } pipes[4] = {
        {n + 1, 1, 0, 1 - sd}, {n, 0, 1, 1 - sd}, {n + 1, 1, 1, sd / 2}, {n + 1, -1, 1, sd / 2}};
    for (int j = 0; j < 4; j++)
        for (int k = pipes[j].dk ? 1 : 0; k < n; k++)
            for (int i = pipes[j].di ? 1 : 0; i < n; i++) {
                int ia = j == 3 ? i : i - pipes[j].di, ka = k - pipes[j].dk;
                int ib = ia + pipes[j].di, kb = ka + pipes[j].dk;
                double xm = 0.5 * (ia + ib + 1) * dx, zm = 0.5 * (ka + kb + 1) * dx, q = 0;
                double dm = 0.5 * (p->d[ia + (size_t)n * ka] + p->d[ib + (size_t)n * kb]);
                for (int w = 0; w < 2; w++)
                    q += amp[w] * (kw[w][0] * pipes[j].di + kw[w][1] * pipes[j].dk) * dx / om[w] *
                         cos(kw[w][0] * xm + kw[w][1] * zm);
                p->q[j][i + (size_t)pipes[j].stride * k] = (float)(pipes[j].share * dm * g * q);
            }
    double dt = 0.4 * dx / c, kg = dt * g * 0.5, area = dx * dx;
    a->keep = 1.0f;
    a->ga = (float)(kg * (1 - sd));
    a->gd = (float)(kg * sd * 0.5);
    a->ge = (float)(kg * (1 - 0.5 * sd));
    a->dt = (float)dt;
    a->r = (float)(dt / area);
    a->inv_area = (float)(1 / area);
    lq_columns_spray_params *sp = &a->sp;
    sp->per_step = 1.0f;                 /* one particle per corner over the threshold */
    sp->volume = (float)ldexp(1.0, -33); /* 1.2e-10 m³: repeated calls barely drain d */
    sp->cap_per_depth = (float)(area / (2.0 * sp->volume));
    sp->dx = (float)dx;
    sp->ox = sp->oz = 0.0f;
    sp->inv_fa = (float)(1.0 / ((1.0 - sd) * dx));
    sp->quarter_depth = (float)(sp->volume / (4.0 * area));
    sp->seed = 1;
    sp->step = 0;
    lq_columns_flight_params *fp = &a->fp;
    fp->nobj = 0;
    fp->dx = sp->dx;
    fp->ox = fp->oz = 0.0f;
    fp->g[0] = fp->g[2] = 0.0f;
    fp->g[1] = (float)-g;
    fp->drag_keep = 1.0f;
    fp->dry = 1e-6f;
    /* particles in corner order (as emission leaves them), 0.1-0.3 m above the water */
    lq_rng rng;
    lq_rng_seed(&rng, 7);
    for (int j = 0; j < LQ_BENCH_SPLASH_PARTICLES && j < capacity; j++) {
        size_t cn = (size_t)((j + 0.5) / LQ_BENCH_SPLASH_PARTICLES * (double)corners);
        int ci = LQ_MIN(LQ_MAX((int)(cn % (size_t)(n + 1)), 1), n - 1);
        int ck = LQ_MIN(LQ_MAX((int)(cn / (size_t)(n + 1)), 1), n - 1);
        double x = (ci + lq_rng_uniform(&rng) - 0.5) * dx,
               z = (ck + lq_rng_uniform(&rng) - 0.5) * dx;
        size_t col =
            (size_t)LQ_MIN((int)(x / dx), n - 1) + (size_t)n * LQ_MIN((int)(z / dx), n - 1);
        float *pp = p->part + (size_t)j * LQ_COLUMNS_PSTRIDE;
        pp[0] = (float)x;
        pp[1] = p->b[col] + p->d[col] + (float)(0.1 + 0.2 * lq_rng_uniform(&rng));
        pp[2] = (float)z;
        pp[3] = (float)(2 * lq_rng_uniform(&rng) - 1);
        pp[4] = (float)(1.5 * lq_rng_uniform(&rng) - 0.5);
        pp[5] = (float)(2 * lq_rng_uniform(&rng) - 1);
        pp[6] = sp->volume;
        pp[7] = 1.0f;
    }
    return LQ_OK;
}

/* The ḣ above which LQ_BENCH_SPLASH_EMIT of the interior corners lie (eq. 13's ż). */
static int lq_bench_splash_threshold(const float *hd, int n, float *threshold)
{
    size_t m = (size_t)(n - 1) * (n - 1), j = 0;
    float *z = lq_alloc(m * 4);
    if (!z) return LQ_ESIM;
    for (int k = 1; k < n; k++)
        for (int i = 1; i < n; i++) {
            size_t c = (size_t)i + (size_t)n * k;
            z[j++] = 0.25f * (hd[c - 1 - n] + hd[c - n] + hd[c - 1] + hd[c]);
        }
    qsort(z, m, 4, lq_bench_cmp_float);
    *threshold = z[(size_t)((1.0 - LQ_BENCH_SPLASH_EMIT) * (double)(m - 1))];
    free(z);
    return LQ_OK;
}

/* splash_step: `steps` steps from the restored pool per trial (after one warm-up trial),
 * best of five, so every device simulates the same steps and carries the same particles
 * (the backends agree bit for bit). Returns ms per step, negative on error. */
static double lq_bench_splash_time_steps(lq_bench_ctx *b, lq_bench_splash_arg *a,
                                         const lq_bench_splash_pool *pool, int steps)
{
    double best = INFINITY;
    for (int trial = -1; trial < 5; trial++) {
        if (lq_bench_splash_pool_restore(a->s, pool, true) || lq_ctx_finish(b->ctx)) return -1;
        a->sp.step = 0;
        a->live_sum = a->emitted_sum = a->steps = 0;
        double t0 = lq_now();
        for (int i = 0; i < steps; i++)
            if (lq_bench_splash_once(a)) return -1;
        if (lq_ctx_finish(b->ctx)) return -1;
        if (trial >= 0) best = fmin(best, (lq_now() - t0) / steps * 1e3);
    }
    return best;
}

static const char *const lq_bench_splash_names[S_COUNT] = {
    "sp_flow",      "sp_limit",   "sp_volume",  "sp_spray",
    "sp_particles", "sp_compact", "sp_contact", "splash_step"};

static int lq_bench_splash(lq_bench_ctx *b, int n)
{
    int rc = LQ_OK, capacity = 1 << 20;
    lq_columns_ops o;
    lq_columns_state s;
    lq_bench_splash_pool pool;
    lq_bench_splash_arg a;
    memset(&o, 0, sizeof o);
    memset(&s, 0, sizeof s);
    memset(&a, 0, sizeof a);
    a.o = &o;
    a.s = &s;
    a.nparticles = LQ_BENCH_SPLASH_PARTICLES;
    rc = lq_bench_splash_pool_make(&pool, &a, n, capacity);
    if (!rc) rc = lq_columns_state_alloc(&s, b->ctx, n, n, capacity);
    if (!rc) rc = lq_columns_ops_init(&o, b->ctx, n, n);
    /* ḣ from the pipes (eq. 12), then the spray threshold from it */
    if (!rc) rc = lq_field_upload(&s.b, pool.b);
    if (!rc) rc = lq_bench_splash_pool_restore(&s, &pool, false);
    if (!rc) rc = lq_columns_volume(&o, &s, a.r, a.inv_area, a.dt);
    if (!rc) rc = lq_field_download(&s.d, pool.d);
    if (!rc) rc = lq_field_download(&s.hd, pool.hd);
    if (!rc) rc = lq_bench_splash_threshold(pool.hd, n, &a.sp.threshold);
    /* one sphere half under water in the middle of a 64 × 64 footprint */
    int foot = LQ_MIN(LQ_BENCH_SPLASH_FOOT, n);
    a.rect[0] = a.rect[1] = (n - foot) / 2;
    a.rect[2] = a.rect[3] = foot;
    float obj[LQ_COLUMNS_MAX_OBJECTS * LQ_COLUMNS_OBJ_STRIDE];
    memset(obj, 0, sizeof obj);
    obj[LQ_COLUMNS_O_SHAPE] = LQ_SHAPE_SPHERE;
    obj[LQ_COLUMNS_O_POS] = obj[LQ_COLUMNS_O_POS + 2] = (a.rect[0] + 0.5f * foot) * a.sp.dx;
    obj[LQ_COLUMNS_O_POS + 1] = 0.52f;
    obj[LQ_COLUMNS_O_ROT] = obj[LQ_COLUMNS_O_ROT + 4] = obj[LQ_COLUMNS_O_ROT + 8] = 1.0f;
    for (int x = 0; x < 3; x++) obj[LQ_COLUMNS_O_HALF + x] = 0.45f * foot * a.sp.dx;
    obj[LQ_COLUMNS_O_KAPPA] = 16.0f;
    obj[LQ_COLUMNS_O_FACTOR] = 1.0f;
    if (!rc) rc = lq_field_upload(&s.obj, obj);
    double cells = (double)n * n;
    for (int op = 0; op < S_COUNT && !rc; op++) {
        char note[160];
        double items = cells, bytes = lq_bench_splash_bytes[op];
        const char *unit = "cell";
        a.which = op;
        a.flip = 0;
        rc = lq_bench_splash_pool_restore(&s, &pool,
                                          op == S_PARTICLES || op == S_COMPACT || op == S_STEP);
        if (rc) break;
        switch (op) {
        case S_FLOW:
            snprintf(note, sizeof note, "read b d e, read+write qx qz qd qa");
            break;
        case S_LIMIT:
            snprintf(note, sizeof note,
                     "one eq. 9 pass: limit (4 pipes d -> s) + scale (s, 4 pipes)");
            break;
        case S_VOLUME:
            snprintf(note, sizeof note, "read 4 pipes d ret(8 B), write d hdot");
            break;
        case S_SPRAY: { /* the same corners emit at every call: count them once */
            int ctr[LQ_COLUMNS_CNT_COUNT];
            rc = lq_columns_spray(&o, &s, &a.sp);
            if (!rc) rc = lq_field_download(&s.counters, ctr);
            if (rc) break;
            double frac = ctr[LQ_COLUMNS_CNT_EMITTED] / ((n + 1.0) * (n + 1.0));
            bytes += 32.0 * ctr[LQ_COLUMNS_CNT_EMITTED] / cells;
            snprintf(note, sizeof note,
                     "count+emit+take, %.2f%% of corners emit (%d particles, 32 B each); "
                     "emit walks 64 corners per work-item",
                     100 * frac, ctr[LQ_COLUMNS_CNT_EMITTED]);
            break;
        }
        case S_PARTICLES:
        case S_COMPACT:
            items = LQ_BENCH_SPLASH_PARTICLES;
            unit = "particle";
            snprintf(note, sizeof note, "per particle (%d live, none land): %s",
                     LQ_BENCH_SPLASH_PARTICLES,
                     op == S_PARTICLES ? "read+write 32 B, b d of its column"
                                       : "count reads flags (32 B at that stride), scatter 64");
            break;
        case S_CONTACT:
            items = (double)foot * foot;
            unit = "column";
            snprintf(note, sizeof note,
                     "per column of a %dx%d footprint, 1 sphere: mode 0 (b d) + mode 1 (b d -> e)",
                     foot, foot);
            break;
        default:
            break;
        }
        if (rc) break;
        double ms = op == S_STEP
                        ? lq_bench_splash_time_steps(b, &a, &pool, b->reps > 0 ? b->reps : 10)
                        : lq_bench_time(b, lq_bench_splash_once, &a, 0.3);
        if (ms < 0) {
            rc = LQ_ESIM;
            break;
        }
        if (op == S_STEP) {
            double live = a.live_sum / fmax(a.steps, 1), made = a.emitted_sum / fmax(a.steps, 1);
            bytes +=
                ((lq_bench_splash_bytes[S_PARTICLES] + lq_bench_splash_bytes[S_COMPACT]) * live +
                 32 * made) /
                cells;
            snprintf(note, sizeof note,
                     "flow+3 limit+volume+spray+particles+compact+counter read; %.0f steps, "
                     "%.0f live, %.0f emitted per step",
                     a.steps, live, made);
        }
        lq_bench_row_items(b, lq_bench_splash_names[op], n, items, unit, ms, bytes, note);
        fflush(stdout);
    }
    lq_columns_ops_release(&o);
    lq_columns_state_release(&s);
    if (b->ctx->backend == LQ_BACKEND_CL) b->ctx->cl.reserved = 0;
    lq_bench_splash_pool_free(&pool);
    return rc;
}

/* --- mac operations (Foster & Metaxas 1996) ---------------------------------------------
 * A closed tank n³ (h = 1/n m): the outer layer SOLID, FULL below the middle, one
 * SURFACE layer, EMPTY above; random face velocities of ±1 cm/s, a hydrostatic p; 8
 * markers per liquid (FULL or SURFACE) cell, one per octant with a jitter. Every row
 * starts from that state (uploaded again). Pressure sweeps change u, v, w and p, but a
 * sweep does the same work whatever the values (no early exit); marker advection flies
 * alternately +δt and −δt so the markers stay where they were seeded.
 *
 * Counted bytes per grid cell, f the FULL fraction, s the liquid (FULL+SURFACE) one:
 * each array a pass must touch read (and written) once; arrays of faces (n+1)n² count as
 * cells. A pressure colour pass reads the flags of every cell (1 B) and, for FULL cells,
 * reads and writes u, v, w (each face of a FULL cell is its own or a neighbour's of the
 * other colour: all of them move in each colour) and p (p's lines hold both colours):
 * 1 + 32 f. The full red-black sweep counts ONE such pass (1 + 32 f): the traffic of an
 * ideal sweep that keeps the colours' shared data in cache; two separate colour passes
 * move twice that, which is why the sweep fuses them (kernels/mac/pressure.cl). */
typedef struct lq_bench_mac_state {
    int n;
    size_t cells, nfull, nliquid;
    lq_field u, v, w, p, flags, bnd, pos;
    float *hu, *hv, *hw, *hp, *hpos;
    unsigned char *hf, *hb;
    lq_momentum_ops mo;
    lq_momentum_state ms;
    lq_momentum_params mp;
    lq_pressure_ops po;
    lq_pressure_state ps;
    lq_pressure_params rb, jc;
    lq_markers_ops ko;
    lq_markers_params kp;
    int npart, which, flip;
} lq_bench_mac_state;

enum { M_MOMENTUM, M_RED, M_BLACK, M_SWEEP, M_SWEEP2, M_JACOBI, M_DIVERGENCE, M_ADVECT, M_COUNT };
static const char *const lq_bench_mac_names[M_COUNT] = {"mac_momentum",  "pr_red",      "pr_black",
                                                        "pr_rb_sweep",   "pr_rb_2pass", "pr_jacobi",
                                                        "pr_divergence", "mk_advect"};

static int lq_bench_mac_once(void *arg)
{
    lq_bench_mac_state *m = arg;
    switch (m->which) {
    case M_MOMENTUM:
        return lq_momentum_step(&m->mo, &m->ms, &m->mp);
    case M_RED:
        return lq_pressure_rb_sweep(&m->po, &m->ps, &m->rb, 0);
    case M_BLACK:
        return lq_pressure_rb_sweep(&m->po, &m->ps, &m->rb, 1);
    case M_SWEEP:
        return lq_pressure_rb_full_sweep(&m->po, &m->ps, &m->rb);
    case M_SWEEP2: {
        int rc = lq_pressure_rb_sweep(&m->po, &m->ps, &m->rb, 0);
        return rc ? rc : lq_pressure_rb_sweep(&m->po, &m->ps, &m->rb, 1);
    }
    case M_JACOBI:
        return lq_pressure_jacobi_sweep(&m->po, &m->ps, &m->jc);
    case M_DIVERGENCE: {
        float md;
        return lq_pressure_divergence(&m->po, &m->ps, &m->rb, &md);
    }
    default: {
        lq_markers_params kp = m->kp;
        m->flip = !m->flip;
        if (!m->flip) kp.dt = -kp.dt;
        return lq_markers_advect(&m->ko, &m->pos, m->npart, &m->u, &m->v, &m->w, &m->flags, &kp);
    }
    }
}

static int lq_bench_mac_restore(lq_bench_mac_state *m)
{
    int rc = lq_field_upload(&m->u, m->hu);
    if (!rc) rc = lq_field_upload(&m->v, m->hv);
    if (!rc) rc = lq_field_upload(&m->w, m->hw);
    if (!rc) rc = lq_field_upload(&m->p, m->hp);
    return rc;
}

static void lq_bench_mac_free(lq_bench_mac_state *m)
{
    lq_momentum_ops_release(&m->mo);
    lq_momentum_state_release(&m->ms);
    lq_pressure_ops_release(&m->po);
    lq_pressure_state_release(&m->ps);
    lq_markers_ops_release(&m->ko);
    lq_field *fs[] = {&m->u, &m->v, &m->w, &m->p, &m->flags, &m->bnd, &m->pos};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    free(m->hu);
    free(m->hv);
    free(m->hw);
    free(m->hp);
    free(m->hpos);
    free(m->hf);
    free(m->hb);
}

static int lq_bench_mac_make(lq_bench_mac_state *m, lq_ctx *ctx, int n)
{
    size_t c = (size_t)n * n * n, faces = (size_t)(n + 1) * n * n;
    m->n = n;
    m->cells = c;
    m->hu = lq_alloc(faces * 4);
    m->hv = lq_alloc(faces * 4);
    m->hw = lq_alloc(faces * 4);
    m->hp = lq_alloc(c * 4);
    m->hf = lq_alloc(c);
    m->hb = lq_calloc(c, 1);
    if (!m->hu || !m->hv || !m->hw || !m->hp || !m->hf || !m->hb) return LQ_ESIM;
    float h = 1.0f / (float)n;
    int top = n / 2;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                size_t q = (size_t)i + (size_t)n * (j + (size_t)n * k);
                bool wall = i == 0 || j == 0 || k == 0 || i == n - 1 || j == n - 1 || k == n - 1;
                unsigned char f = wall       ? LQ_MAC_SOLID
                                  : j < top  ? LQ_MAC_FULL
                                  : j == top ? LQ_MAC_SURFACE
                                             : LQ_MAC_EMPTY;
                m->hf[q] = f;
                m->nfull += f == LQ_MAC_FULL;
                m->nliquid += f == LQ_MAC_FULL || f == LQ_MAC_SURFACE;
                m->hp[q] = f == LQ_MAC_FULL ? 9.81f * (top - j) * h : 0.0f;
            }
    lq_rng rng;
    lq_rng_seed(&rng, 11);
    float *vel[3] = {m->hu, m->hv, m->hw};
    for (int a = 0; a < 3; a++)
        for (size_t q = 0; q < faces; q++) vel[a][q] = (float)(0.02 * lq_rng_uniform(&rng) - 0.01);
    m->npart = (int)(8 * m->nliquid);
    m->hpos = lq_alloc((size_t)m->npart * 12);
    if (!m->hpos) return LQ_ESIM;
    size_t np = 0;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                unsigned char f = m->hf[(size_t)i + (size_t)n * (j + (size_t)n * k)];
                if (f != LQ_MAC_FULL && f != LQ_MAC_SURFACE) continue;
                for (int o = 0; o < 8; o++) {
                    float *pp = m->hpos + 3 * np++;
                    pp[0] =
                        (float)((i + 0.25 + 0.5 * (o & 1) + 0.2 * (lq_rng_uniform(&rng) - 0.5)) *
                                h);
                    pp[1] = (float)((j + 0.25 + 0.5 * (o >> 1 & 1) +
                                     0.2 * (lq_rng_uniform(&rng) - 0.5)) *
                                    h);
                    pp[2] =
                        (float)((k + 0.25 + 0.5 * (o >> 2) + 0.2 * (lq_rng_uniform(&rng) - 0.5)) *
                                h);
                }
            }
    int rc = LQ_OK;
    struct {
        lq_field *f;
        const char *name;
        int a, b, c;
        size_t elem;
    } fs[] = {{&m->u, "u", n + 1, n, n, 4},           {&m->v, "v", n, n + 1, n, 4},
              {&m->w, "w", n, n, n + 1, 4},           {&m->p, "p", n, n, n, 4},
              {&m->flags, "flags", n, n, n, 1},       {&m->bnd, "bnd", n, n, n, 1},
              {&m->pos, "markers", 3, m->npart, 1, 4}};
    for (size_t i = 0; i < LQ_COUNT(fs) && !rc; i++)
        rc = lq_field_alloc(ctx, fs[i].f, fs[i].name, fs[i].a, fs[i].b, fs[i].c, fs[i].elem);
    if (!rc) rc = lq_bench_mac_restore(m);
    if (!rc) rc = lq_field_upload(&m->flags, m->hf);
    if (!rc) rc = lq_field_upload(&m->bnd, m->hb);
    if (!rc) rc = lq_field_upload(&m->pos, m->hpos);
    if (!rc) rc = lq_momentum_ops_init(&m->mo, ctx, n, n, n);
    if (!rc)
        rc = lq_momentum_state_init(&m->ms, ctx, n, n, n, &m->u, &m->v, &m->w, &m->p, &m->flags,
                                    &m->bnd);
    if (!rc) rc = lq_pressure_ops_init(&m->po, ctx, n, n, n);
    if (!rc)
        rc = lq_pressure_state_init(&m->ps, ctx, n, n, n, &m->u, &m->v, &m->w, &m->p, &m->flags);
    if (!rc) rc = lq_markers_ops_init(&m->ko, ctx, n, n, n);
    float dt = 0.2f * h; /* Courant 0.2 at 1 m/s */
    m->mp = (lq_momentum_params){
        .dt = dt, .dx = h, .dy = h, .dz = h, .nu = 1e-6f, .g = {0.0f, -9.81f, 0.0f}, .gamma = 0.0f};
    m->rb = lq_pressure_params_of(LQ_PRESSURE_RED_BLACK, dt, h, h, h, 1e-4f, 1000);
    m->jc = lq_pressure_params_of(LQ_PRESSURE_JACOBI, dt, h, h, h, 1e-4f, 10000);
    m->kp = (lq_markers_params){.dt = dt, .dx = h, .dy = h, .dz = h};
    return rc;
}

/* Which mac rows run: LIQUIDCL_BENCH_OPS, a comma-separated list of row names (default
 * all), for experiments on one kernel. */
static bool lq_bench_op(const char *name)
{
    const char *env = getenv("LIQUIDCL_BENCH_OPS");
    if (!env || !*env) return true;
    size_t len = strlen(name);
    for (const char *q = env; (q = strstr(q, name)) != NULL; q += len)
        if ((q == env || q[-1] == ',') && (q[len] == 0 || q[len] == ',')) return true;
    return false;
}

static int lq_bench_mac(lq_bench_ctx *b, int n)
{
    lq_bench_mac_state m;
    memset(&m, 0, sizeof m);
    int rc = lq_bench_mac_make(&m, b->ctx, n);
    double f = (double)m.nfull / (double)m.cells, s = (double)m.nliquid / (double)m.cells;
    double colour = 1 + 32 * f;
    for (int op = 0; op < M_COUNT && !rc; op++) {
        char note[240];
        double items = (double)m.cells, bytes = 0;
        const char *unit = "cell";
        switch (op) {
        case M_MOMENTUM: /* read u v w p flags, write un vn wn */
            bytes = 29;
            snprintf(note, sizeof note, "eq. 2: read u v w p flags, write un vn wn");
            break;
        case M_RED:
        case M_BLACK:
            bytes = colour;
            snprintf(note, sizeof note, "one colour: flags + FULL cells (%.1f%%) r+w u v w p",
                     100 * f);
            break;
        case M_SWEEP:
            bytes = colour;
            snprintf(note, sizeof note, "both colours, counted as ONE pass (1 + 32 f)");
            break;
        case M_SWEEP2:
            bytes = colour;
            snprintf(note, sizeof note, "red pass then black pass, counted as ONE pass");
            break;
        case M_JACOBI: /* dp: flags + FULL (u v w -> dp); apply: flags, dp, r+w u v w p */
            bytes = 2 + 4 + f * 12 + 4 + f * 32;
            snprintf(note, sizeof note, "dp pass (flags, FULL: u v w -> dp) + apply pass");
            break;
        case M_DIVERGENCE:
            bytes = 1 + 4 + 4 + 12 * f;
            snprintf(note, sizeof note, "flags, FULL: u v w; write D, max pass reads D; read back");
            break;
        default:
            items = m.npart;
            unit = "marker";
            bytes = 24;
            snprintf(note, sizeof note,
                     "per marker (%d, 8 per liquid cell, %.1f%% liquid): r+w 12 B, gathers "
                     "not counted",
                     m.npart, 100 * s);
            break;
        }
        if (!lq_bench_op(lq_bench_mac_names[op])) continue;
        m.which = op;
        m.flip = 0;
        rc = lq_bench_mac_restore(&m);
        if (rc) break;
        /* the yardstick again right before each row, its fields released while the row
         * runs: on a shared machine the bandwidth drifts 2× within a minute, and each row
         * is compared with the copy measured next to it (printed in the row); with
         * --reps (a smoke run) the copy before the size serves */
        b->quiet = true;
        if (b->reps == 0) rc = lq_bench_copy(b); /* --reps N: a smoke run, keep it short */
        b->quiet = false;
        if (!rc) rc = lq_bench_mac_restore(&m);
        if (rc) break;
        double ms = lq_bench_time(b, lq_bench_mac_once, &m, 0.3);
        if (ms < 0) {
            rc = LQ_ESIM;
            break;
        }
        size_t len = strlen(note);
        snprintf(note + len, sizeof note - len, " [copy %.1f GB/s]", b->copy_gbs);
        lq_bench_row_items(b, lq_bench_mac_names[op], n, items, unit, ms, bytes, note);
        fflush(stdout);
    }
    lq_bench_mac_free(&m);
    if (b->ctx->backend == LQ_BACKEND_CL) b->ctx->cl.reserved = 0;
    return rc;
}

/* --- pls operations (Rasmussen et al. 2004; particle level set) ------------------------
 * A closed tank n³ (h = 1/n m, no wall layer: the domain edge is the wall), φ = y − ½ (a
 * signed distance, the lower half liquid), random face velocities of ±1 cm/s; the
 * particles seeded in the band (16 per band cell, the scenes' setting); the Poisson system
 * built from φ with its multigrid hierarchy and b its right-hand side. Every row starts
 * from that state (uploaded again). Particle advection flies alternately +δt and −δt.
 * One PCG iteration is CG's body (apply, d·q, update x and r, r·r, the preconditioner,
 * r·z, the new direction) with α = β = 0, so that repeating it keeps the vectors (the
 * kernels do the same work whatever the values).
 *
 * Counted bytes per grid cell (compulsory traffic: each array read or written once; face
 * arrays (n+1)n² count as cells; gathers by backtraces and neighbours not counted):
 *   sl_velocity   read u v w, write un vn wn                             24
 *   sl_velocity_maccormack, sl_velocity_bfecc  the same with pls.velocity_advection's
 *                 second-order schemes (3 passes: counted once, like sl_phi)   24
 *   sl_phi        BFECC (the default): read φ u v w, write φn           20 (its 3 passes
 *                 and the combination move more: counted once, like the mac sweep)
 *   reinit        read φ, write φ (the FIM sweeps over the band not counted)     8
 *   pt_advect_correct  per particle: r+w 24 B (advect), read 20 B (correct)     44
 *   ps_sor_colour mask 1 + p 4 (neighbours), half the cells: b diag p-write 12    11
 *   ps_jacobi     mask 1, diag 4, b 4, p in 4, p out 4                           17
 *   ps_pcg_jacobi apply 13 (mask diag d → q), d·q 8, update 24, r·r 4, z = r/diag 12,
 *                 r·z 8, direction 12                                            81
 *   ps_pcg_mg     the same with the V-cycle counted as r read + z write 8 (its coarse
 *                 levels and smoothing sweeps not counted)                        77
 *   pls_step      the whole solver step on a dam break (scenes/pls_dam_break.yaml's
 *                 column and block scaled into a 1.28 m cube, CFL 3): its rows above once
 *                 (24 + 20 + 8) plus its PCG-MG iterations × 77; particles not counted
 *   pls_step_maccormack, pls_step_bfecc  the same step with pls.velocity_advection set */
typedef struct lq_bench_pls_state {
    int n, which, flip, npart;
    lq_field u, v, w, un, vn, wn, phi, phin, p, b, pn;
    float *hu, *hv, *hw, *hphi, *hpart;
    lq_sladvect_ops so;
    lq_reinit_ops ro;
    lq_plsparticles_ops ko;
    lq_plsparticles_state ks;
    lq_poisson_ops qo;
    lq_sladvect_params slp;
    lq_reinit_params rp;
    lq_plsparticles_params kp;
    lq_poisson_params pp;
    float omega;
    unsigned ready;
} lq_bench_pls_state;

enum {
    P_SLVEL,
    P_SLVEL_MC,
    P_SLVEL_BF,
    P_SLPHI,
    P_REINIT,
    P_PART,
    P_SOR,
    P_JACOBI,
    P_PCG_MG,
    P_PCG_JAC,
    P_COUNT
};
static const char *const lq_bench_pls_names[P_COUNT] = {
    "sl_velocity",    "sl_velocity_maccormack", "sl_velocity_bfecc", "sl_phi",    "reinit",
    "pt_adv_correct", "ps_sor_colour",          "ps_jacobi",         "ps_pcg_mg", "ps_pcg_jacobi"};
static const double lq_bench_pls_bytes[P_COUNT] = {24, 24, 24, 20, 8, 44, 11, 17, 77, 81};

static int lq_bench_pls_pcg(lq_bench_pls_state *m, bool mg)
{
    lq_poisson_ops *o = &m->qo;
    double dq = 0, rr = 0,
           rz = 0; /* host/ops/pls/poisson.c's CG iteration (list or whole-grid passes) */
    int rc, dense = o->dense;
    rc = dense ? lq_poisson_apply(o, &o->d, &o->q) : lq_poisson_apply_dot(o, &o->d, &o->q, &dq);
    if (!rc && dense) rc = lq_poisson_reduce(o, LQ_POISSON_RED_DOT, &o->d, &o->q, 0.0f, &dq);
    if (!rc && dense) rc = lq_poisson_cg_update(o, &m->p, &o->r, &o->d, &o->q, 0.0f);
    if (!rc && dense) rc = lq_poisson_reduce(o, LQ_POISSON_RED_DOT, &o->r, &o->r, 0.0f, &rr);
    if (!rc && !dense) rc = lq_poisson_update_dot(o, &m->p, &o->r, &o->d, &o->q, 0.0f, &rr);
    if (!rc) rc = mg ? lq_poisson_mg_vcycle(o, &o->r, &o->z) : lq_poisson_precond(o, &o->r, &o->z);
    if (!rc && dense) rc = lq_poisson_reduce(o, LQ_POISSON_RED_DOT, &o->r, &o->z, 0.0f, &rz);
    if (!rc && !dense) rc = lq_poisson_dot_list(o, &o->r, &o->z, &rz);
    if (!rc && dense) rc = lq_poisson_cg_direction(o, &o->z, &o->d, 0.0f);
    if (!rc && !dense) rc = lq_poisson_direction_list(o, &o->z, &o->d, 0.0f);
    return rc;
}

static int lq_bench_pls_once(void *arg)
{
    lq_bench_pls_state *m = arg;
    switch (m->which) {
    case P_SLVEL:
    case P_SLVEL_MC:
    case P_SLVEL_BF: {
        lq_sladvect_params p = m->slp;
        p.velocity_scheme = m->which == P_SLVEL_MC   ? LQ_SLADVECT_MACCORMACK
                            : m->which == P_SLVEL_BF ? LQ_SLADVECT_BFECC
                                                     : LQ_SLADVECT_PLAIN;
        return lq_sladvect_advect_velocity(&m->so, &m->u, &m->v, &m->w, &m->un, &m->vn, &m->wn, &p);
    }
    case P_SLPHI:
        return lq_sladvect_advect_scalar(&m->so, &m->phi, &m->phin, &m->u, &m->v, &m->w, &m->slp);
    case P_REINIT:
        return lq_reinit(&m->ro, &m->phi, &m->phin, &m->rp, NULL);
    case P_PART: {
        lq_plsparticles_params kp = m->kp;
        m->flip = !m->flip;
        if (!m->flip) kp.dt = -kp.dt;
        int rc = lq_plsparticles_advect(&m->ko, &m->ks, &m->u, &m->v, &m->w, &kp);
        return rc ? rc : lq_plsparticles_correct(&m->ko, &m->ks, &m->phi, &kp, NULL);
    }
    case P_SOR:
        m->flip = !m->flip;
        return lq_poisson_sor_pass(&m->qo, &m->b, 0.0f, &m->p, m->flip, m->omega);
    case P_JACOBI:
        return lq_poisson_jacobi_pass(&m->qo, &m->b, 0.0f, &m->p, &m->pn, 0.9f);
    case P_PCG_MG:
        return lq_bench_pls_pcg(m, true);
    default:
        return lq_bench_pls_pcg(m, false);
    }
}

static int lq_bench_pls_restore(lq_bench_pls_state *m)
{
    int rc = lq_field_upload(&m->u, m->hu);
    if (!rc) rc = lq_field_upload(&m->v, m->hv);
    if (!rc) rc = lq_field_upload(&m->w, m->hw);
    if (!rc) rc = lq_field_upload(&m->phi, m->hphi);
    if (!rc) rc = lq_field_zero(&m->p, 0);
    if (!rc && (m->ready & 4)) rc = lq_plsparticles_upload(&m->ks, m->hpart, m->npart);
    if (!rc && (m->ready & 8)) { /* CG's vectors: r = b − A·0, z = M⁻¹ r, d = z */
        lq_poisson_ops *o = &m->qo;
        rc = lq_poisson_residual(o, &m->b, 0.0f, &m->p, &o->r);
        if (!rc) rc = lq_poisson_mg_vcycle(o, &o->r, &o->z);
        if (!rc) rc = lq_field_zero(&o->d, 0);
        if (!rc) rc = lq_poisson_cg_direction(o, &o->z, &o->d, 0.0f);
    }
    return rc;
}

static void lq_bench_pls_free(lq_bench_pls_state *m)
{
    if (m->ready & 1) lq_sladvect_ops_release(&m->so);
    if (m->ready & 2) lq_reinit_ops_release(&m->ro);
    if (m->ready & 4) lq_plsparticles_state_release(&m->ks);
    if (m->ready & 16) lq_plsparticles_ops_release(&m->ko);
    if (m->ready & 8) lq_poisson_ops_release(&m->qo);
    lq_field *fs[] = {&m->u,   &m->v,    &m->w, &m->un, &m->vn, &m->wn,
                      &m->phi, &m->phin, &m->p, &m->b,  &m->pn};
    for (size_t i = 0; i < LQ_COUNT(fs); i++) lq_field_release(fs[i]);
    free(m->hu);
    free(m->hv);
    free(m->hw);
    free(m->hphi);
    free(m->hpart);
}

static int lq_bench_pls_make(lq_bench_pls_state *m, lq_ctx *ctx, int n)
{
    size_t c = (size_t)n * n * n, faces = (size_t)(n + 1) * n * n;
    m->n = n;
    m->hu = lq_alloc(faces * 4);
    m->hv = lq_alloc(faces * 4);
    m->hw = lq_alloc(faces * 4);
    m->hphi = lq_alloc(c * 4);
    if (!m->hu || !m->hv || !m->hw || !m->hphi) return LQ_ESIM;
    float h = 1.0f / (float)n;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                m->hphi[(size_t)i + (size_t)n * (j + (size_t)n * k)] = (j + 0.5f) * h - 0.5f;
    lq_rng rng;
    lq_rng_seed(&rng, 13);
    float *vel[3] = {m->hu, m->hv, m->hw};
    for (int a = 0; a < 3; a++)
        for (size_t q = 0; q < faces; q++) vel[a][q] = (float)(0.02 * lq_rng_uniform(&rng) - 0.01);
    int rc = LQ_OK;
    struct {
        lq_field *f;
        const char *name;
        int a, b, c;
    } fs[] = {{&m->u, "u", n + 1, n, n},   {&m->v, "v", n, n + 1, n},   {&m->w, "w", n, n, n + 1},
              {&m->un, "un", n + 1, n, n}, {&m->vn, "vn", n, n + 1, n}, {&m->wn, "wn", n, n, n + 1},
              {&m->phi, "phi", n, n, n},   {&m->phin, "phin", n, n, n}, {&m->p, "p", n, n, n},
              {&m->b, "b", n, n, n},       {&m->pn, "pn", n, n, n}};
    for (size_t i = 0; i < LQ_COUNT(fs) && !rc; i++)
        rc = lq_field_alloc(ctx, fs[i].f, fs[i].name, fs[i].a, fs[i].b, fs[i].c, 4);
    float dt = 0.2f * h; /* Courant 0.2 at 1 m/s */
    m->slp = (lq_sladvect_params){.dt = dt, .h = h};
    m->rp = lq_reinit_params_default(h);
    m->kp =
        (lq_plsparticles_params){.h = h, .dt = dt, .band = 3 * h, .per_cell = 16, .seed = 0x5eed};
    m->pp = (lq_poisson_params){
        .h = h, .dt = dt, .solver = LQ_POISSON_PCG, .precond = LQ_POISSON_PRECOND_MG};
    m->omega = (float)(2.0 / (1.0 + sin(LQ_PI / n)));
    if (!rc) rc = lq_bench_pls_restore(m);
    if (!rc && !(rc = lq_sladvect_ops_init(&m->so, ctx, n, n, n))) m->ready |= 1;
    if (!rc && !(rc = lq_reinit_ops_init(&m->ro, ctx, n, n, n))) m->ready |= 2;
    if (!rc && !(rc = lq_plsparticles_ops_init(&m->ko, ctx, n, n, n))) m->ready |= 16;
    /* the band: 6 layers of n² cells (|φ| < 3 h), 16 particles each, twice that room */
    int cap = 2 * 16 * 6 * n * n;
    if (!rc && !(rc = lq_plsparticles_state_init(&m->ks, ctx, n, n, n, cap))) m->ready |= 4;
    if (!rc && !(rc = lq_poisson_ops_init(&m->qo, ctx, n, n, n))) m->ready |= 8;
    if (!rc) rc = lq_plsparticles_seed(&m->ko, &m->ks, &m->phi, NULL, &m->kp);
    if (!rc) {
        m->npart = m->ks.live;
        m->hpart = lq_alloc((size_t)LQ_MAX(m->npart, 1) * LQ_PLSPARTICLES_STRIDE * 4);
        int got = 0;
        rc = m->hpart ? lq_plsparticles_download(&m->ks, m->hpart, m->npart, &got) : LQ_ESIM;
    }
    if (!rc) rc = lq_poisson_build(&m->qo, &m->phi, NULL, &m->pp);
    if (!rc) rc = lq_poisson_rhs(&m->qo, &m->u, &m->v, &m->w, &m->b, &m->pp);
    if (!rc) rc = lq_bench_pls_restore(m);
    return rc;
}

/* A whole solver step through the solver's own advance (what `liquidcl run` calls, output
 * aside), on a scene given as text: the first frame is a warm-up, then frames until ≥ 2
 * steps and ≥ 3 s (with --reps: one frame). */
static int lq_bench_scene_step(lq_bench_ctx *b, const char *scene, lq_bench_steps *out)
{
    char path[] = "/tmp/liquidcl_bench_scene_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return lq_error(LQ_ESIM, "bench: cannot make a temporary scene file");
    FILE *f = fdopen(fd, "w");
    fputs(scene, f);
    fclose(f);
    lq_config *cfg = lq_config_load(path, 0, NULL);
    remove(path);
    if (!cfg) return LQ_EINPUT;
    const lq_solver_vt *vt = lq_registry_find(cfg);
    void *state = NULL;
    int rc = vt ? vt->create(b->ctx, cfg, &state) : LQ_EINPUT;
    const double fps = cfg->time.fps;
    lq_frame_stats st;
    int steps = 0, its = 0, frame = 1;
    long long waits = 0, bytes = 0;
    double el = 0;
    memset(&st, 0, sizeof st);
    if (!rc && b->reps == 0) rc = vt->advance(state, frame, frame / fps, &st);
    while (!rc && (b->reps > 0 ? frame < 2 : steps < 2 || el < 3.0) && frame < 1000) {
        frame++;
        long long w0 = b->ctx->waits, b0 = b->ctx->wait_bytes;
        double t0 = lq_now();
        rc = vt->advance(state, frame, frame / fps, &st);
        waits += b->ctx->waits - w0;
        bytes += b->ctx->wait_bytes - b0;
        if (!rc) rc = lq_ctx_sync(b->ctx);
        el += lq_now() - t0;
        steps += st.steps;
        its += st.pressure_iterations;
    }
    memset(out, 0, sizeof *out);
    for (int i = 0; !rc && i < st.nextra; i++)
        if (strcmp(st.extra[i].key, "device_bytes") == 0) out->dev_bytes = st.extra[i].value;
    if (steps) {
        out->ms = el / steps * 1e3;
        out->iters = (double)its / steps;
        out->waits = (double)waits / steps;
        out->bytes = (double)bytes / steps;
    }
    out->steps = steps;
    if (state) vt->destroy(state);
    lq_config_free(cfg);
    if (b->ctx->backend == LQ_BACKEND_CL) b->ctx->cl.reserved = 0;
    return rc;
}

/* --- pls control particles (Rasmussen et al. 2004 §4) -----------------------------------
 * The control stage of a pls step: the particles uploaded and binned on the device
 * (host/ops/pls/plscontrol.h) and velocity control blended into the faces (eq. 4; the
 * gather per cell, then the faces). N velocity particles, one per cell as the paper
 * recommends, fill a ball at the tank's centre (radius (3N/4π)^⅓ cells), each of radius
 * ¾ h with the smooth falloff, strength 0.95 (so the inner cells are hard, α > 0.9) and
 * random velocities; φ = y − ½ (the lower half liquid). Counted bytes per cell: the
 * gather reads φ and writes α, V_p (3) and the solid field (20), the faces read and write
 * u v w (24) and read α, V_p and φ of both cells (about 40): 84. */
typedef struct lq_bench_ctl {
    lq_plscontrol_ops o;
    lq_field u, v, w, phi;
    float *rec;
    int n;
    float h;
} lq_bench_ctl;

static int lq_bench_ctl_once(void *arg)
{
    lq_bench_ctl *m = arg;
    int rc = lq_plscontrol_bin(&m->o, m->rec, m->n, m->h);
    return rc ? rc : lq_plscontrol_velocity(&m->o, &m->u, &m->v, &m->w, &m->phi, NULL, m->h, NULL);
}

/* N particles in a ball at the centre of an n³ grid of cell h, one per cell centre. */
static int lq_bench_ctl_records(lq_bench_ctl *m, int n, int want)
{
    double r = cbrt(3.0 * want / (4.0 * LQ_PI)), c = 0.5 * n;
    m->rec = lq_calloc((size_t)want * LQ_PLSCONTROL_STRIDE, sizeof(float));
    if (!m->rec) return LQ_ESIM;
    lq_rng g;
    lq_rng_seed(&g, 42);
    m->n = 0;
    for (int k = 0; k < n && m->n < want; k++)
        for (int j = 0; j < n && m->n < want; j++)
            for (int i = 0; i < n && m->n < want; i++) {
                double x = i + 0.5 - c, y = j + 0.5 - c, z = k + 0.5 - c;
                if (x * x + y * y + z * z > r * r) continue;
                float *q = m->rec + (size_t)m->n++ * LQ_PLSCONTROL_STRIDE;
                q[LQ_PLSCONTROL_X] = (float)((i + 0.5) * m->h);
                q[LQ_PLSCONTROL_X + 1] = (float)((j + 0.5) * m->h);
                q[LQ_PLSCONTROL_X + 2] = (float)((k + 0.5) * m->h);
                q[LQ_PLSCONTROL_R] = q[LQ_PLSCONTROL_EXTENT] = 0.75f * m->h;
                for (int a = 0; a < 3; a++)
                    q[LQ_PLSCONTROL_V + a] = (float)(lq_rng_uniform(&g) * 0.02 - 0.01);
                q[LQ_PLSCONTROL_AXIS + 1] = 1;
                q[LQ_PLSCONTROL_STRENGTH] = 0.95f;
                q[LQ_PLSCONTROL_CODE] =
                    (float)(LQ_PLSCONTROL_VELOCITY + LQ_PLSCONTROL_FALL_MUL * LQ_PLSCONTROL_SMOOTH);
            }
    return LQ_OK;
}

/* Rows pc_control_10k and pc_control_100k at n³; step_ms > 0: the pls_step row's time,
 * for the control stage's share of a step. */
static int lq_bench_pls_control(lq_bench_ctx *b, int n, double step_ms)
{
    static const int counts[2] = {10000, 100000};
    static const char *const names[2] = {"pc_control_10k", "pc_control_100k"};
    int rc = LQ_OK;
    for (int q = 0; q < 2 && !rc; q++) {
        if (!lq_bench_op(names[q])) continue;
        lq_bench_ctl m;
        memset(&m, 0, sizeof m);
        m.h = 1.0f / (float)n;
        rc = lq_bench_ctl_records(&m, n, counts[q]);
        if (!rc)
            rc = lq_plscontrol_ops_init(&m.o, b->ctx, n, n, n, counts[q],
                                        1u << LQ_PLSCONTROL_VELOCITY);
        lq_field *fs[4] = {&m.u, &m.v, &m.w, &m.phi};
        for (int a = 0; a < 4 && !rc; a++) {
            rc =
                lq_field_alloc(b->ctx, fs[a], "bench", n + (a == 0), n + (a == 1), n + (a == 2), 4);
            if (!rc) rc = lq_field_zero(fs[a], 0);
        }
        float *phi = rc ? NULL : lq_alloc((size_t)n * n * n * sizeof(float));
        for (size_t c = 0; phi && c < (size_t)n * n * n; c++)
            phi[c] = (float)(((double)(c / (size_t)n % (size_t)n) + 0.5) / n - 0.5); /* y − ½ */
        if (!rc) rc = phi ? lq_field_upload(&m.phi, phi) : LQ_ESIM;
        free(phi);
        double ms = rc ? -1 : lq_bench_time(b, lq_bench_ctl_once, &m, 0.3);
        if (!rc && ms < 0) rc = LQ_ESIM;
        if (!rc) {
            char note[240];
            int len = snprintf(note, sizeof note,
                               "bin + velocity blend, %d particles (%d binned), %d hard cells", m.n,
                               m.o.binned, m.o.hard);
            if (step_ms > 0)
                snprintf(note + len, sizeof note - len, "; %.1f %% of pls_step",
                         100 * ms / step_ms);
            lq_bench_row_items(b, names[q], n, (double)n * n * n, "cell", ms, 84, note);
            fflush(stdout);
        }
        lq_plscontrol_ops_release(&m.o);
        for (int a = 0; a < 4; a++) lq_field_release(fs[a]);
        free(m.rec);
    }
    return rc;
}

/* --- pls enslaved pockets (Rasmussen et al. 2004 §5.6) -----------------------------------
 * The pockets stage of a pls step (host/ops/pls/plspocket.h): the connected components
 * of the liquid, the open roots, the solid field with the pockets, and the enslaving
 * passes (4). φ = y − ½ (the lower half liquid); the solid field is a hollow box of solid
 * cells one cell thick, its inside n/4 cells a side, centred in the liquid: one pocket of
 * (n/4)³ cells. Counted bytes per cell: the local pass reads φ and the solid field and
 * writes the labels (12), the hooks and jumps read and write them (8 a round, 2 rounds),
 * the open pass reads φ, the solid field and the labels (12), the mark reads the labels
 * and the solid field and writes its own (12): 52 (row pk_find, the part every step
 * pays); the enslaving reads and writes each component 5 times (40 per component: 120):
 * 172 (row pk_pockets, only while a pocket exists). */
typedef struct lq_bench_pk {
    lq_plspocket_ops o;
    lq_field phi, solid, lab, out, f[3], g[3];
    float h;
    bool enslave;
} lq_bench_pk;

static int lq_bench_pk_once(void *arg)
{
    lq_bench_pk *m = arg;
    int rc = lq_plspocket_find(&m->o, &m->phi, &m->solid, 1, 0, m->h, &m->lab, &m->out);
    return rc || !m->enslave ? rc
                             : lq_plspocket_enslave(&m->o, &m->f[0], &m->f[1], &m->f[2], &m->g[0],
                                                    &m->g[1], &m->g[2], 4);
}

static int lq_bench_pls_pockets(lq_bench_ctx *b, int n, double step_ms)
{
    if (!lq_bench_op("pk_find") && !lq_bench_op("pk_pockets")) return LQ_OK;
    lq_bench_pk m;
    memset(&m, 0, sizeof m);
    m.h = 1.0f / (float)n;
    size_t nc = (size_t)n * n * n;
    int rc = lq_plspocket_ops_init(&m.o, b->ctx, n, n, n);
    lq_field *cells[4] = {&m.phi, &m.solid, &m.lab, &m.out};
    for (int a = 0; a < 4 && !rc; a++) rc = lq_field_alloc(b->ctx, cells[a], "bench", n, n, n, 4);
    for (int a = 0; a < 3 && !rc; a++) {
        rc = lq_field_alloc(b->ctx, &m.f[a], "bench", n + (a == 0), n + (a == 1), n + (a == 2), 4);
        if (!rc)
            rc = lq_field_alloc(b->ctx, &m.g[a], "bench", n + (a == 0), n + (a == 1), n + (a == 2),
                                4);
        if (!rc) rc = lq_field_zero(&m.f[a], 0);
    }
    float *phi = rc ? NULL : lq_alloc(nc * sizeof(float)), *sd = phi ? lq_alloc(nc * 4) : NULL;
    int e = n / 4, lo = n / 2 - e / 2 - 1, hi = lo + e + 1; /* the shell's cells */
    for (size_t c = 0; sd && c < nc; c++) {
        int i = (int)(c % (size_t)n), j = (int)(c / (size_t)n % (size_t)n),
            k = (int)(c / ((size_t)n * n));
        phi[c] = (float)(((double)j + 0.5) / n - 0.5);
        bool in = i >= lo && i <= hi && j >= lo / 2 && j <= lo / 2 + e + 1 && k >= lo && k <= hi;
        bool inner = i > lo && i < hi && j > lo / 2 && j < lo / 2 + e + 1 && k > lo && k < hi;
        sd[c] = in && !inner ? -m.h : m.h;
    }
    if (!rc) rc = sd ? lq_field_upload(&m.phi, phi) : LQ_ESIM;
    if (!rc) rc = lq_field_upload(&m.solid, sd);
    free(phi);
    free(sd);
    static const char *const names[2] = {"pk_find", "pk_pockets"};
    for (int q = 0; q < 2 && !rc; q++) {
        if (!lq_bench_op(names[q])) continue;
        m.enslave = q == 1;
        double ms = lq_bench_time(b, lq_bench_pk_once, &m, 0.3);
        if (ms < 0) {
            rc = LQ_ESIM;
            break;
        }
        char note[240];
        int len = q ? snprintf(note, sizeof note,
                               "components, pockets, enslaving (%d passes): %d pocket cells in %d, "
                               "%d rounds",
                               m.o.passes, m.o.cells, m.o.pockets, m.o.rounds)
                    : snprintf(note, sizeof note,
                               "components and pockets (every step of a scene with objects, "
                               "inlets or velocity control): %d pocket cells, %d rounds",
                               m.o.cells, m.o.rounds);
        if (step_ms > 0)
            snprintf(note + len, sizeof note - len, "; %.1f %% of pls_step", 100 * ms / step_ms);
        lq_bench_row_items(b, names[q], n, (double)nc, "cell", ms, q ? 172 : 52, note);
        fflush(stdout);
    }
    lq_plspocket_ops_release(&m.o);
    for (int a = 0; a < 4; a++) lq_field_release(cells[a]);
    for (int a = 0; a < 3; a++) {
        lq_field_release(&m.f[a]);
        lq_field_release(&m.g[a]);
    }
    return rc;
}

/* The whole pls step on a dam break n³, the velocity advected by `velocity`
 * (pls.velocity_advection). */
static int lq_bench_pls_step(lq_bench_ctx *b, int n, const char *velocity, lq_bench_steps *out)
{
    char scene[512];
    snprintf(scene, sizeof scene,
             "solver: pls\ngrid:\n  size: [%d, %d, %d]\n  cell: %.9g\ntime:\n  frames: 100\n"
             "  fps: 30\nliquid:\n  - box: {min: [0, 0, 0], max: [0.4, 0.5, 0.56]}\n"
             "obstacles:\n  - box: {min: [0.8, 0, 0.2], max: [0.9, 0.25, 0.36]}\npls:\n"
             "  cfl: 3\n  particles_per_cell: 16\n  velocity_advection: %s\n",
             n, n, n, 1.28 / n, velocity);
    return lq_bench_scene_step(b, scene, out);
}

/* shallow_whole, splash_whole (n²), mac_step (n³): a whole step through the solver on a
 * dam break (a raised block of water in a pool over a slope; splash with a floating
 * ball, mac round a block), ms per step and the host waits each step costs. `solve`
 * (shallow): NULL for shallow.line_solve: auto, else the line solve forced, the row
 * then shallow_whole_<solve>; (mac) NULL for mac.pressure's default (mgpcg), else that
 * method, the row mac_step_<solve> (mac_step_red_black). */
static int lq_bench_whole(lq_bench_ctx *b, const char *solver, int n, const char *solve)
{
    char scene[1024], op[32], note[320], line[64] = "";
    const bool mac = strcmp(solver, "mac") == 0;
    snprintf(op, sizeof op, "%s_%s%s%s", solver, mac ? "step" : "whole", solve ? "_" : "",
             solve ? solve : "");
    for (char *q = op; *q; q++) /* mac_step_red_black */
        if (*q == '-') *q = '_';
    if (strcmp(solver, "shallow") == 0)
        snprintf(line, sizeof line, "shallow:\n  line_solve: %s\n", solve ? solve : "auto");
    else if (solve)
        snprintf(line, sizeof line, "mac:\n  pressure: %s\n", solve);
    if (!lq_bench_op(op)) return LQ_OK;
    const double L = mac ? 1.28 : 10.0, h = L / n;
    if (mac)
        snprintf(scene, sizeof scene,
                 "solver: mac\ngrid:\n  size: [%d, %d, %d]\n  cell: %.9g\ntime:\n  frames: 1000\n"
                 "  fps: 30\nliquid:\n  - box: {min: [0, 0, 0], max: [0.4, 0.5, 0.56]}\n"
                 "obstacles:\n  - box: {min: [0.8, 0, 0.2], max: [0.9, 0.25, 0.36]}\n"
                 "output:\n  preview: false\n%s",
                 n, n, n, h, line);
    else
        snprintf(scene, sizeof scene,
                 "solver: %s\ngrid:\n  size: [%d, %d]\n  cell: %.9g\ntime:\n  frames: 1000\n"
                 "  fps: 24\nterrain:\n  - ramp: {from: [0, 0], to: [%g, 0], height: [-1.0, "
                 "0.4]}\nliquid:\n  - level: 0.0\n  - box: {min: [0, -1, 0], max: [%g, 0.6, "
                 "%g]}\n%s%s",
                 solver, n, n, h, L, 0.2 * L, L,
                 strcmp(solver, "splash") == 0
                     ? "objects:\n  - sphere: {center: [5, 0.1, 5], radius: 0.4}\n    "
                       "density: 600\n"
                     : "",
                 line);
    lq_bench_steps r;
    b->quiet = true;
    int rc = b->reps == 0 ? lq_bench_copy(b) : LQ_OK;
    b->quiet = false;
    if (!rc) rc = lq_bench_scene_step(b, scene, &r);
    if (rc) return rc;
    double cells = (double)n * n * (mac ? n : 1);
    line[0] = '\0'; /* now what the note says of the line solve */
    if (strcmp(solver, "shallow") == 0)
        snprintf(line, sizeof line, ", line solve %s",
                 solve ? solve
                 : lq_heightfield_line_solve(b->ctx, n, n, LQ_HEIGHTFIELD_SOLVE_AUTO) ==
                         LQ_HEIGHTFIELD_SOLVE_PCR
                     ? "pcr"
                     : "thomas");
    char its[96] = "";
    if (mac)
        snprintf(its, sizeof its, ", pressure in the time: %.1f %s a step", r.iters,
                 solve ? "red-black sweeps" : "PCG iterations and sweeps");
    snprintf(note, sizeof note,
             "the solver's whole step, dam break, %d steps timed; %.2f host waits a step (%.1f "
             "KiB)%s%s [copy %.1f GB/s]",
             r.steps, r.waits, r.bytes / 1024, its, line, b->copy_gbs);
    lq_bench_row_steps(b, op, n, cells, r.ms, 0, &r, note);
    fflush(stdout);
    return LQ_OK;
}

static int lq_bench_pls(lq_bench_ctx *b, int n, bool step)
{
    lq_bench_pls_state m;
    memset(&m, 0, sizeof m);
    int rc = lq_bench_pls_make(&m, b->ctx, n);
    double cells = (double)n * n * n;
    for (int op = 0; op < P_COUNT && !rc; op++) {
        if (!lq_bench_op(lq_bench_pls_names[op])) continue;
        char note[240];
        double items = op == P_PART ? m.npart : cells;
        snprintf(note, sizeof note, "%s",
                 op == P_PART       ? "per particle (16 per band cell)"
                 : op == P_SLPHI    ? "BFECC, counted as one pass"
                 : op == P_SLVEL_MC ? "limited MacCormack, counted as one pass"
                 : op == P_SLVEL_BF ? "limited BFECC, counted as one pass"
                 : op == P_REINIT   ? "FIM, band 5 cells"
                 : op == P_SOR      ? "one colour"
                 : op == P_PCG_MG   ? "one iteration, V-cycle preconditioner"
                 : op == P_PCG_JAC  ? "one iteration, Jacobi preconditioner"
                                    : "");
        m.which = op;
        m.flip = 0;
        b->quiet = true;
        if (b->reps == 0) rc = lq_bench_copy(b);
        b->quiet = false;
        if (!rc) rc = lq_bench_pls_restore(&m);
        if (rc) break;
        double ms = lq_bench_time(b, lq_bench_pls_once, &m, 0.3);
        if (ms < 0) {
            rc = LQ_ESIM;
            break;
        }
        size_t len = strlen(note);
        snprintf(note + len, sizeof note - len, " [copy %.1f GB/s]", b->copy_gbs);
        lq_bench_row_items(b, lq_bench_pls_names[op], n, items, op == P_PART ? "particle" : "cell",
                           ms, lq_bench_pls_bytes[op], note);
        fflush(stdout);
    }
    lq_bench_pls_free(&m);
    if (b->ctx->backend == LQ_BACKEND_CL) b->ctx->cl.reserved = 0;
    double step_ms = 0;
    static const char *const schemes[3] = {"plain", "maccormack", "bfecc"};
    for (int q = 0; q < 3 && !rc && step; q++) {
        char op[32];
        snprintf(op, sizeof op, "pls_step%s%s", q ? "_" : "", q ? schemes[q] : "");
        if (!lq_bench_op(op)) continue;
        lq_bench_steps r;
        b->quiet = true;
        if (b->reps == 0) rc = lq_bench_copy(b);
        b->quiet = false;
        if (!rc) rc = lq_bench_pls_step(b, n, schemes[q], &r);
        if (rc) return rc;
        char note[360];
        int len = snprintf(note, sizeof note,
                           "dam break, CFL 3, %d steps timed, %.1f PCG-MG iterations a step; %.1f "
                           "host waits a step (%.1f KiB); device %.1f MB = %.1f MB per million "
                           "cells [copy %.1f GB/s]",
                           r.steps, r.iters, r.waits, r.bytes / 1024, r.dev_bytes / 1e6,
                           r.dev_bytes / cells, b->copy_gbs);
        if (q && step_ms > 0)
            snprintf(note + len, sizeof note - len, "; velocity %s: %.2f× pls_step", schemes[q],
                     r.ms / step_ms);
        lq_bench_row_steps(b, op, n, cells, r.ms, 52 + 77 * r.iters, &r, note);
        fflush(stdout);
        if (q == 0) step_ms = r.ms;
    }
    if (!rc) rc = lq_bench_pls_control(b, n, step_ms);
    if (!rc) rc = lq_bench_pls_pockets(b, n, step_ms);
    return rc;
}

/* Which families run: LIQUIDCL_BENCH, a comma-separated list of shallow, splash, mac,
 * pls (default all four; pls not in --reps smoke runs unless named). */
static bool lq_bench_family(const char *name)
{
    const char *env = getenv("LIQUIDCL_BENCH");
    if (!env || !*env) return true;
    size_t len = strlen(name);
    for (const char *q = env; (q = strstr(q, name)) != NULL; q += len)
        if ((q == env || q[-1] == ',') && (q[len] == 0 || q[len] == ',')) return true;
    return false;
}

static int lq_bench_device(lq_bench_ctx *b, const int *sizes, int nsizes, const int *sizes3,
                           int nsizes3)
{
    char what[640];
    lq_ctx_describe(b->ctx, what, sizeof what);
    snprintf(b->device, sizeof b->device, "%.150s", what);
    if (!b->json) printf("\n== %s\n", what);
    int rc = LQ_OK;
    b->dims = 2;
    if (lq_bench_family("shallow")) {
        rc = lq_bench_copy(b);
        if (!rc && !b->json)
            printf("%-18s %7s %10s %11s %8s %7s %6s  %s\n", "op", "size", "ms", "Mcells/s", "GB/s",
                   "%copy", "B/cell", "counted bytes");
        for (int i = 0; i < nsizes && !rc; i++) rc = lq_bench_hf(b, sizes[i]);
        /* the whole step with shallow.line_solve: auto, then with the other line solve (on
         * a GPU Thomas, elsewhere the parallel one where it fits) */
        for (int i = 0; i < nsizes && !rc; i++) {
            int n = sizes[i];
            bool gpu_pcr = lq_heightfield_line_solve(b->ctx, n, n, LQ_HEIGHTFIELD_SOLVE_AUTO) ==
                           LQ_HEIGHTFIELD_SOLVE_PCR;
            rc = lq_bench_whole(b, "shallow", n, NULL);
            if (!rc && (gpu_pcr || lq_heightfield_pcr_fits(b->ctx, n, n, NULL, 0)))
                rc = lq_bench_whole(b, "shallow", n, gpu_pcr ? "thomas" : "pcr");
        }
    }
    if (!rc && lq_bench_family("splash")) {
        if (b->ctx->backend == LQ_BACKEND_CL && !b->ctx->cl.dev.int64_atomics) {
            /* the splash bookkeeping needs 64-bit atomics (lq_columns_ops_init) */
            fprintf(b->json ? stderr : stdout,
                    "splash: skipped, %s lacks cl_khr_int64_base_atomics\n", b->ctx->cl.dev.name);
        } else {
            /* the yardstick again, next to the rows it is compared with (a shared
             * machine's bandwidth drifts over a long run) */
            rc = lq_bench_copy(b);
            if (!rc && !b->json)
                printf("%-18s %7s %10s %11s %8s %7s %6s  %s\n", "op", "size", "ms", "Mcells/s",
                       "GB/s", "%copy", "B/cell",
                       "counted bytes (particle and column rows: per unit)");
            for (int i = 0; i < nsizes && !rc; i++) rc = lq_bench_splash(b, sizes[i]);
            for (int i = 0; i < nsizes && !rc; i++)
                rc = lq_bench_whole(b, "splash", sizes[i], NULL);
        }
    }
    if (!rc && lq_bench_family("mac")) {
        b->dims = 3;
        for (int i = 0; i < nsizes3 && !rc; i++) {
            /* the yardstick before each size: the 256³ rows alone take most of a minute */
            rc = lq_bench_copy(b);
            if (!rc && !b->json)
                printf("%-18s %7s %10s %11s %8s %7s %6s  %s\n", "op", "size", "ms", "Mcells/s",
                       "GB/s", "%copy", "B/cell", "counted bytes (marker rows: per marker)");
            if (!rc) rc = lq_bench_mac(b, sizes3[i]);
            /* the whole step: up to 64³ (minutes a step beyond on a 2-core CPU), or at any
             * size asked for with --size */
            if (!rc && (sizes3[i] <= 64 || nsizes3 == 1))
                rc = lq_bench_whole(b, "mac", sizes3[i], NULL);
            if (!rc && (sizes3[i] <= 64 || nsizes3 == 1))
                rc = lq_bench_whole(b, "mac", sizes3[i], "red-black");
        }
        b->dims = 2;
    }
    /* pls: in a --reps smoke run only when LIQUIDCL_BENCH names it (its rows and the
     * solver's set-up for the whole step take most of a minute at 64³ on 2 CPU cores;
     * tests/cli/cli_pls.sh smoke-tests them at 16³) */
    const char *fam = getenv("LIQUIDCL_BENCH");
    bool pls = lq_bench_family("pls") && (b->reps == 0 || (fam && *fam));
    if (!rc && pls) {
        b->dims = 3;
        for (int i = 0; i < nsizes3 && !rc; i++) {
            rc = lq_bench_copy(b);
            if (!rc && !b->json)
                printf("%-18s %7s %10s %11s %8s %7s %6s  %s\n", "op", "size", "ms", "Mcells/s",
                       "GB/s", "%copy", "B/cell", "counted bytes (particle rows: per particle)");
            /* the whole step at 256³ takes minutes a step on a 2-core CPU: only up to 128³,
             * or at 256³ when asked for with --size */
            if (!rc) rc = lq_bench_pls(b, sizes3[i], sizes3[i] <= 128 || nsizes3 == 1);
        }
        b->dims = 2;
    }
    return rc;
}

int lq_bench(const lq_bench_opts *o)
{
    int rc = LQ_OK;
    int sizes[3] = {512, 1024, 2048}, nsizes = 3;
    int sizes3[3] = {64, 128, 256}, nsizes3 = 3; /* mac: n³ */
    if (o->size > 0) {
        sizes[0] = sizes3[0] = o->size;
        nsizes = nsizes3 = 1;
        if (o->size > 256) nsizes3 = 0; /* mac at 512³: 2.5 GB of fields, 6 GB of markers */
    }
    lq_bench_ctx b;
    memset(&b, 0, sizeof b);
    b.json = o->json;
    b.reps = o->reps;
    const char *spec = o->device && *o->device ? o->device : "all";
    lq_ctx ctx;
    if (strcmp(spec, "all") != 0) {
        rc = lq_ctx_open(&ctx, spec, !o->json);
        if (rc) return rc;
        b.ctx = &ctx;
        rc = lq_bench_device(&b, sizes, nsizes, sizes3, nsizes3);
        lq_ctx_close(&ctx);
    } else {
        lq_cl_device *devs = NULL;
        int n = 0;
        rc = lq_cl_devices(&devs, &n);
        for (int i = 0; i <= n && !rc; i++) {
            char d[32];
            if (i < n)
                snprintf(d, sizeof d, "opencl:%d.%d", devs[i].platform_index, devs[i].device_index);
            else
                snprintf(d, sizeof d, "ref");
            rc = lq_ctx_open(&ctx, d, false);
            if (rc) break;
            b.ctx = &ctx;
            rc = lq_bench_device(&b, sizes, nsizes, sizes3, nsizes3);
            lq_ctx_close(&ctx);
        }
        free(devs);
    }
    if (b.json) printf("%s\n", b.rows ? "]" : "[]");
    return rc;
}
