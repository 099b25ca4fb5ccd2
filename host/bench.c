/*
 * bench.c — `liquidcl bench`: each operation on each device at several sizes, as a
 * table of ms, Mcells/s, effective GB/s and the fraction of the copy bandwidth the
 * same device reaches in the same run (a float4 copy kernel; memcpy on the reference
 * path). The bytes per cell are the compulsory traffic of each operation (fields it
 * must read and write once), stated in the table; scratch traffic is not counted, so
 * GB/s is a lower bound on what the memory system moved.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "field.h"
#include "heightfield.h"
#include "run.h"

typedef struct lq_bench_ctx {
    lq_ctx *ctx;
    char device[160];
    double copy_gbs;
    bool json;
    int reps;
    int rows;
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

static void lq_bench_row(lq_bench_ctx *b, const char *op, int n, double ms, double bytes_cell,
                         const char *note)
{
    double cells = (double)n * (double)n;
    double mcells = cells / (ms * 1e-3) / 1e6;
    double gbs = cells * bytes_cell / (ms * 1e-3) / 1e9;
    double frac = b->copy_gbs > 0 ? gbs / b->copy_gbs : NAN;
    if (b->json) {
        printf("%s{\"device\": \"%s\", \"op\": \"%s\", \"size\": %d, \"ms\": %.6g, "
               "\"mcells_per_s\": %.6g, \"gb_per_s\": %.6g, \"bytes_per_cell\": %g, "
               "\"copy_fraction\": %.4g, \"copy_gb_per_s\": %.6g}",
               b->rows ? ",\n " : "[", b->device, op, n, ms, mcells, gbs, bytes_cell, frac,
               b->copy_gbs);
    } else {
        printf("%-14s %6d² %10.3f %11.1f %8.2f %6.0f%% %6g  %s\n", op, n, ms, mcells, gbs,
               100 * frac, bytes_cell, note ? note : "");
    }
    b->rows++;
}

/* --- copy bandwidth ----------------------------------------------------------------- */
typedef struct lq_copy_arg {
    lq_ctx *ctx;
    lq_field *src, *dst;
    cl_kernel k;
    size_t floats_per_item;
    const char *name;
} lq_copy_arg;

static int lq_copy_once(void *p)
{
    lq_copy_arg *a = p;
    if (a->ctx->backend == LQ_BACKEND_REF) {
        memcpy(a->dst->host, a->src->host, lq_field_bytes(a->src));
        return LQ_OK;
    }
    size_t g = a->src->count / a->floats_per_item;
    return lq_cl_run(a->ctx, a->k, a->name, 1, &g, NULL);
}

/* Copy bandwidth: read + written bytes per second of the fastest copy (a float4 copy
 * kernel and a 64-floats-per-work-item one on OpenCL, memcpy on the reference path). */
static int lq_bench_copy(lq_bench_ctx *b)
{
    int rc = LQ_OK;
    lq_field src, dst;
    cl_program prog = NULL;
    cl_kernel ks[2] = {NULL, NULL};
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
    const char *names[2] = {"copy_float4", "copy_float16x4"};
    size_t per_item[2] = {4, 64};
    int variants = b->ctx->backend == LQ_BACKEND_CL ? 2 : 1;
    if (!rc && b->ctx->backend == LQ_BACKEND_CL) {
        const char *srcs[] = {"kernels/copy.cl"};
        rc = lq_cl_build(&b->ctx->cl, 1, srcs, "", &prog);
        for (int v = 0; v < 2 && !rc; v++) {
            rc = lq_cl_kernel(prog, names[v], &ks[v]);
            if (!rc) rc = LQ_ARG_MEM(ks[v], names[v], 0, &src);
            if (!rc) rc = LQ_ARG_MEM(ks[v], names[v], 1, &dst);
        }
    }
    double best = 0;
    for (int v = 0; v < variants && !rc; v++) {
        lq_copy_arg a = {b->ctx, &src, &dst, ks[v], per_item[v], names[v]};
        double ms = lq_bench_time(b, lq_copy_once, &a, 0.5);
        if (ms < 0) {
            rc = LQ_ESIM;
            break;
        }
        double gbs = 2.0 * (double)floats * 4 / (ms * 1e-3) / 1e9;
        if (!b->json)
            printf("copy bandwidth: %.2f GB/s (%s, %.0f MiB read + written, %.3f ms)\n", gbs,
                   b->ctx->backend == LQ_BACKEND_CL ? names[v] : "memcpy",
                   (double)floats * 8 / 1048576.0, ms);
        best = fmax(best, gbs);
    }
    b->copy_gbs = best;
    for (int v = 0; v < 2; v++)
        if (ks[v]) clReleaseKernel(ks[v]);
    if (prog) clReleaseProgram(prog);
    lq_field_release(&src);
    lq_field_release(&dst);
    if (b->ctx->backend == LQ_BACKEND_CL) b->ctx->cl.reserved = 0;
    return rc;
}

/* --- height-field operations ---------------------------------------------------------- */
typedef struct lq_hf_arg {
    lq_hf_ops *o;
    lq_hf_state *s;
    lq_hf_step_params p;
    int which;
} lq_hf_arg;

enum {
    B_RESIDUAL,
    B_ADI_X,
    B_ADI_Z,
    B_ADI,
    B_LABEL,
    B_REDUCE,
    B_APPLY,
    B_FINISH,
    B_STATS,
    B_STEP,
    B_COUNT
};
static const struct {
    const char *name;
    double bytes; /* compulsory bytes per cell */
    const char *note;
} lq_hf_bench_ops[B_COUNT] = {
    {"hf_residual", 20, "read h1 b u w, write R"},
    {"hf_adi_x", 16, "read h1 b R, write R (in place)"},
    {"hf_adi_z", 16, "read h1 b R, write h (in place)"},
    {"adi_step", 52, "residual + adi_x + adi_z: the implicit solve of one step"},
    {"hf_label", 28, "init 16 + merge 4 + compress 8"},
    {"hf_vol_reduce", 20, "read h1 hn b L, 8-byte sums at roots"},
    {"hf_vol_apply", 16, "read hn b L, write hn"},
    {"hf_finish", 32, "read hn h1 b u w, write hn u w"},
    {"hf_stats", 16, "read h b u w"},
    {"shallow_step", 176, "residual+adi_x+adi_z+label+2x(reduce+apply)+finish"},
};

static int lq_hf_once(void *p)
{
    lq_hf_arg *a = p;
    lq_hf_ops *o = a->o;
    lq_hf_state *s = a->s;
    lq_field *h1 = &s->h[s->i1], *hn = &s->h[s->in];
    switch (a->which) {
    case B_RESIDUAL:
        return lq_hf_residual(o, h1, &s->u, &s->w, &s->b, hn, a->p.kappa, a->p.cdt);
    case B_ADI_X:
        return lq_hf_adi_x(o, h1, &s->b, hn, &s->cp, a->p.kappa);
    case B_ADI_Z:
        return lq_hf_adi_z(o, h1, &s->b, hn, &s->cp, a->p.kappa);
    case B_ADI: {
        int rc = lq_hf_residual(o, h1, &s->u, &s->w, &s->b, hn, a->p.kappa, a->p.cdt);
        if (!rc) rc = lq_hf_adi_x(o, h1, &s->b, hn, &s->cp, a->p.kappa);
        if (!rc) rc = lq_hf_adi_z(o, h1, &s->b, hn, &s->cp, a->p.kappa);
        return rc;
    }
    case B_LABEL:
        return lq_hf_label(o, h1, hn, &s->b, &s->L, &s->old_sum, &s->new_sum[0], &s->wet[0]);
    case B_REDUCE:
        return lq_hf_volume_reduce(o, h1, hn, &s->b, &s->L, &s->old_sum, &s->new_sum[0], &s->wet[0],
                                   a->p.scale, 1);
    case B_APPLY:
        return lq_hf_volume_apply(o, hn, &s->b, &s->L, &s->old_sum, &s->new_sum[0], &s->wet[0],
                                  &s->new_sum[1], &s->wet[1], &s->acc_l, 1.0f / a->p.scale, 0);
    case B_FINISH:
        return lq_hf_finish(o, hn, h1, &s->b, &s->u, &s->w, &s->acc_i, a->p.gdt_dx, a->p.keep,
                            a->p.fric, a->p.eps, 0);
    case B_STATS:
        return lq_hf_stats(o, h1, &s->b, &s->u, &s->w, &s->st_l, &s->st_i, a->p.scale);
    default:
        return lq_hf_step(o, s, &a->p);
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
    lq_hf_ops o;
    lq_hf_state s;
    memset(&o, 0, sizeof o);
    memset(&s, 0, sizeof s);
    size_t cells = (size_t)n * (size_t)n;
    float *hb = lq_alloc(cells * 4), *h1 = lq_alloc(cells * 4);
    if (!hb || !h1) rc = LQ_ESIM;
    if (!rc) rc = lq_hf_state_alloc(&s, b->ctx, n, n);
    if (!rc) rc = lq_hf_ops_init(&o, b->ctx, n, n);
    if (!rc) {
        lq_bench_lake(n, hb, h1);
        rc = lq_field_upload(&s.b, hb);
        if (!rc) rc = lq_field_upload(&s.h[s.i1], h1);

        if (!rc) rc = lq_field_upload(&s.h[s.in], h1);
    }
    lq_hf_arg a;
    memset(&a, 0, sizeof a);
    a.o = &o;
    a.s = &s;
    /* Courant number about 1 at the deepest water (0.6 m): κ = C² / d. */
    a.p.kappa = 1.0f / 0.6f;
    a.p.keep = 1.0f;
    a.p.cdt = 0.05f;
    a.p.gdt_dx = 0.5f;
    a.p.eps = 1e-5f;
    a.p.scale = 1048576.0f; /* small: repeated sums stay far from overflow */
    a.p.correct = 1;
    for (int op = 0; op < B_COUNT && !rc; op++) {
        a.which = op;
        if (op == B_REDUCE || op == B_APPLY) { /* labels for the reductions */
            a.which = B_LABEL;
            rc = lq_hf_once(&a);
            a.which = op;
            if (rc) break;
        }
        double ms = lq_bench_time(b, lq_hf_once, &a, 0.3);
        if (ms < 0) {
            rc = LQ_ESIM;
            break;
        }
        lq_bench_row(b, lq_hf_bench_ops[op].name, n, ms, lq_hf_bench_ops[op].bytes,
                     lq_hf_bench_ops[op].note);
        fflush(stdout);
    }
    lq_hf_ops_release(&o);
    lq_hf_state_release(&s);
    if (b->ctx->backend == LQ_BACKEND_CL) b->ctx->cl.reserved = 0;
    free(hb);
    free(h1);
    return rc;
}

static int lq_bench_device(lq_bench_ctx *b, const int *sizes, int nsizes)
{
    char what[640];
    lq_ctx_describe(b->ctx, what, sizeof what);
    snprintf(b->device, sizeof b->device, "%.150s", what);
    if (!b->json) printf("\n== %s\n", what);
    int rc = lq_bench_copy(b);
    if (!rc && !b->json)
        printf("%-14s %7s %10s %11s %8s %7s %6s  %s\n", "op", "size", "ms", "Mcells/s", "GB/s",
               "%copy", "B/cell", "counted bytes");
    for (int i = 0; i < nsizes && !rc; i++) rc = lq_bench_hf(b, sizes[i]);
    return rc;
}

int lq_bench(const lq_bench_opts *o)
{
    int rc = LQ_OK;
    int sizes[3] = {512, 1024, 2048}, nsizes = 3;
    if (o->size > 0) {
        sizes[0] = o->size;
        nsizes = 1;
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
        rc = lq_bench_device(&b, sizes, nsizes);
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
            rc = lq_bench_device(&b, sizes, nsizes);
            lq_ctx_close(&ctx);
        }
        free(devs);
    }
    if (b.json) printf("%s\n", b.rows ? "]" : "[]");
    return rc;
}
