/*
 * plsobject.c — launchers of the `pls` solver's moving objects (see plsobject.h;
 * Rasmussen et al. 2004 §5.5), the scene reading of their motion keys and the host-side
 * pose (a function of time only: nothing to checkpoint).
 */
#include "plsobject.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static const char *const lq_po_sources[] = {"kernels/lq_shared.h", "kernels/mac_grid.h",
                                            "kernels/plsobject_cell.h", "kernels/plsobject.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

#define LQ_PO_KERNELS(o)                                                                           \
    {                                                                                              \
        {&(o)->sdf, "po_sdf"}, {&(o)->velk, "po_vel"}, {&(o)->separate, "po_separate"},            \
            {&(o)->pinit, "po_phi_init"}, {&(o)->player, "po_phi_layer"},                          \
    }

size_t lq_po_ops_bytes(int nx, int ny, int nz)
{
    size_t C = (size_t)nx * ny * nz;
    size_t F = (size_t)(nx + 1) * ny * nz + (size_t)nx * (ny + 1) * nz + (size_t)nx * ny * (nz + 1);
    return F * 4 + 2 * C + LQ_PO_MAX * LQ_PO_STRIDE * 4;
}

int lq_po_ops_init(lq_po_ops *o, lq_ctx *ctx, int nx, int ny, int nz, float h, float far)
{
    memset(o, 0, sizeof *o);
    o->ctx = ctx;
    o->nx = nx;
    o->ny = ny;
    o->nz = nz;
    o->h = h;
    o->far = far;
    o->band = 3.0f * h;
    int rc = lq_field_alloc(ctx, &o->desc, "po_desc", LQ_PO_MAX * LQ_PO_STRIDE, 1, 1, 4);
    for (int c = 0; c < 3 && !rc; c++)
        rc = lq_field_alloc(ctx, &o->vel[c], "po_vel", nx + (c == 0), ny + (c == 1), nz + (c == 2),
                            4);
    for (int c = 0; c < 3 && !rc; c++) rc = lq_field_zero(&o->vel[c], 0);
    for (int s = 0; s < 2 && !rc; s++)
        rc = lq_field_alloc(ctx, &o->valid[s], "po_valid", nx, ny, nz, 1);
    if (rc || IS_REF(o)) return rc;
    char defines[96];
    snprintf(defines, sizeof defines, "-DNX=%d -DNY=%d -DNZ=%d", nx, ny, nz);
    lq_cl_kernel_name ks[] = LQ_PO_KERNELS(o);
    return lq_cl_build_kernels(&ctx->cl, (int)LQ_COUNT(lq_po_sources), lq_po_sources, defines,
                               &o->program, (int)LQ_COUNT(ks), ks);
}

void lq_po_ops_release(lq_po_ops *o)
{
    if (!IS_REF(o)) {
        lq_cl_kernel_name ks[] = LQ_PO_KERNELS(o);
        lq_cl_release_kernels(&o->program, (int)LQ_COUNT(ks), ks);
    }
    lq_field_release(&o->desc);
    for (int c = 0; c < 3; c++) lq_field_release(&o->vel[c]);
    for (int s = 0; s < 2; s++) lq_field_release(&o->valid[s]);
    for (int q = 0; q < o->n; q++) free(o->obj[q].keys);
    o->n = 0;
}

int lq_po_read(const lq_scene *sc, int item, const double origin[3], bool flat, lq_po_object *ob)
{
    char p[160], kp[160];
    memset(ob, 0, sizeof *ob);
    const char *kind = lq_scene_kind(sc, "obstacles", item);
    snprintf(kp, sizeof kp, "obstacles.%d.motion.keys", item);
    if (strcmp(kind, "box") == 0) {
        double a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
        snprintf(p, sizeof p, "obstacles.%d.box.min", item);
        lq_scene_floats(sc, p, a, 3);
        snprintf(p, sizeof p, "obstacles.%d.box.max", item);
        lq_scene_floats(sc, p, b, 3);
        ob->kind = 0;
        for (int q = 0; q < 3; q++) {
            ob->c0[q] = 0.5 * (a[q] + b[q]) - origin[q];
            ob->size[q] = 0.5 * (b[q] - a[q]);
        }
    } else if (strcmp(kind, "sphere") == 0 || strcmp(kind, "cylinder") == 0) {
        bool sph = kind[0] == 's';
        snprintf(p, sizeof p, "obstacles.%d.%s.center", item, kind);
        lq_scene_floats(sc, p, ob->c0, 3);
        for (int q = 0; q < 3; q++) ob->c0[q] -= origin[q];
        snprintf(p, sizeof p, "obstacles.%d.%s.radius", item, kind);
        ob->size[0] = lq_scene_float(sc, p);
        ob->kind = sph ? 1 : 3;
        if (!sph) {
            snprintf(p, sizeof p, "obstacles.%d.cylinder.height", item);
            ob->size[1] = lq_scene_float(sc, p);
            snprintf(p, sizeof p, "obstacles.%d.cylinder.axis", item);
            ob->axis = lq_scene_enum(sc, p)[0] - 'x';
        }
    } else {
        return lq_scene_error(sc, kp,
                              "solver 'pls' moves box, sphere and cylinder obstacles only "
                              "(this one is a %s)",
                              kind);
    }
    int n = lq_scene_floats(sc, kp, NULL, 0);
    if (n < 7 || n % 7)
        return lq_scene_error(sc, kp,
                              "motion keys are rows [t, tx, ty, tz, rx, ry, rz]: 7 numbers each "
                              "(%d given)",
                              n);
    ob->keys = lq_alloc((size_t)n * sizeof(double));
    if (!ob->keys) return LQ_ESIM;
    lq_scene_floats(sc, kp, ob->keys, n);
    ob->nkeys = n / 7;
    int rc = LQ_OK;
    for (int r = 0; r < ob->nkeys && !rc; r++) {
        const double *k = ob->keys + 7 * r;
        if (r > 0 && !(k[0] > k[-7]))
            rc = lq_scene_error(sc, kp, "motion key times must increase (row %d: %g after %g)",
                                r + 1, k[0], k[-7]);
        else if (flat && (k[4] != 0 || k[5] != 0))
            rc = lq_scene_error(sc, kp,
                                "a 2D grid (nz = 1) turns objects about z only (row %d has rx "
                                "%g, ry %g)",
                                r + 1, k[4], k[5]);
        for (int q = 0; q < 7 && !rc; q++)
            if (!isfinite(k[q])) rc = lq_scene_error(sc, kp, "motion keys must be finite");
    }
    snprintf(p, sizeof p, "obstacles.%d.motion.interpolate", item);
    ob->smooth = strcmp(lq_scene_enum(sc, p), "smooth") == 0;
    if (rc) {
        free(ob->keys);
        ob->keys = NULL;
    }
    return rc;
}

int lq_po_add(lq_po_ops *o, const lq_po_object *ob)
{
    if (o->n >= LQ_PO_MAX)
        return lq_error(LQ_EINPUT, "solver 'pls' moves at most %d obstacles", LQ_PO_MAX);
    o->obj[o->n++] = *ob;
    return LQ_OK;
}

void lq_po_pose(const lq_po_object *ob, double t, double c[3], double R[9], double v[3],
                double w[3])
{
    double val[6] = {0, 0, 0, 0, 0, 0}, rate[6] = {0, 0, 0, 0, 0, 0};
    const double *K = ob->keys;
    int n = ob->nkeys;
    if (n > 0 && t < K[0]) {
        memcpy(val, K + 1, sizeof val);
    } else if (n > 0 && t >= K[7 * (n - 1)]) {
        memcpy(val, K + 7 * (n - 1) + 1, sizeof val);
    } else if (n > 1) {
        int s = 0;
        while (s + 1 < n - 1 && t >= K[7 * (s + 1)]) s++;
        const double *a = K + 7 * s, *b = a + 7;
        double len = b[0] - a[0], tau = (t - a[0]) / len, f = tau, df = 1.0 / len;
        if (ob->smooth) {
            f = tau * tau * (3 - 2 * tau);
            df = 6 * tau * (1 - tau) / len;
        }
        for (int q = 0; q < 6; q++) {
            val[q] = a[q + 1] + (b[q + 1] - a[q + 1]) * f;
            rate[q] = (b[q + 1] - a[q + 1]) * df;
        }
    }
    double d2r = LQ_PI / 180.0;
    double ax = val[3] * d2r, ay = val[4] * d2r, az = val[5] * d2r;
    double ca = cos(ax), sa = sin(ax), cb = cos(ay), sb = sin(ay), cg = cos(az), sg = sin(az);
    /* R = Rz(γ) Ry(β) Rx(α) */
    double M[9] = {cg * cb,
                   cg * sb * sa - sg * ca,
                   cg * sb * ca + sg * sa,
                   sg * cb,
                   sg * sb * sa + cg * ca,
                   sg * sb * ca - cg * sa,
                   -sb,
                   cb * sa,
                   cb * ca};
    memcpy(R, M, sizeof M);
    double ra = rate[3] * d2r, rb = rate[4] * d2r, rg = rate[5] * d2r;
    /* ω = γ̇ e_z + β̇ Rz e_y + α̇ Rz Ry e_x */
    w[0] = rb * -sg + ra * cg * cb;
    w[1] = rb * cg + ra * sg * cb;
    w[2] = rg - ra * sb;
    for (int q = 0; q < 3; q++) {
        c[q] = ob->c0[q] + val[q];
        v[q] = rate[q];
    }
}

/* Binds n arguments and runs over g (3D). */
static int lq_po_run(lq_po_ops *o, cl_kernel k, const char *name, int n, const lq_argv *a,
                     const size_t *g)
{
    for (int i = 0; i < n; i++) {
        int rc = lq_cl_arg(k, name, (cl_uint)i, a[i].size, a[i].p);
        if (rc) return rc;
    }
    return lq_cl_run(o->ctx, k, name, 3, g, NULL);
}

int lq_po_update(lq_po_ops *o, double t, const lq_field *sdf_static, lq_field *sdf)
{
    assert(sdf->count == (size_t)o->nx * o->ny * o->nz);
    memset(o->desc_host, 0, sizeof o->desc_host);
    for (int q = 0; q < o->n; q++) {
        const lq_po_object *ob = &o->obj[q];
        float *d = o->desc_host + q * LQ_PO_STRIDE;
        double c[3], R[9], v[3], w[3];
        lq_po_pose(ob, t, c, R, v, w);
        d[LQ_PO_KIND] = (float)ob->kind;
        d[LQ_PO_AXIS] = (float)ob->axis;
        d[LQ_PO_FLAT] = o->nz == 1 ? 1.0f : 0.0f;
        for (int a = 0; a < 3; a++) {
            d[LQ_PO_SIZE + a] = (float)ob->size[a];
            d[LQ_PO_C + a] = (float)c[a];
            d[LQ_PO_V + a] = (float)v[a];
            d[LQ_PO_W + a] = (float)w[a];
            for (int b = 0; b < 3; b++) d[LQ_PO_RT + 3 * a + b] = (float)R[3 * b + a]; /* Rᵀ */
        }
    }
    int rc = lq_field_upload(&o->desc, o->desc_host);
    if (rc) return rc;
    if (IS_REF(o)) {
        lq_po_ref_update(o, sdf_static, sdf);
        return LQ_OK;
    }
    int has_static = sdf_static != NULL, n = o->n;
    const lq_field *st = sdf_static ? sdf_static : sdf;
    size_t g[3] = {(size_t)o->nx, (size_t)o->ny, (size_t)o->nz};
    lq_argv a[] = {MEM(sdf), MEM(st),   VAL(has_static), MEM(&o->desc),
                   VAL(n),   VAL(o->h), VAL(o->far)};
    rc = lq_po_run(o, o->sdf, "po_sdf", (int)LQ_COUNT(a), a, g);
    for (int c = 0; c < 3 && !rc; c++) {
        size_t gf[3] = {g[0] + (c == 0), g[1] + (c == 1), g[2] + (c == 2)};
        lq_argv b[] = {MEM(&o->vel[c]), MEM(st),   VAL(has_static), MEM(&o->desc),
                       VAL(n),          VAL(o->h), VAL(o->band),    VAL(c)};
        rc = lq_po_run(o, o->velk, "po_vel", (int)LQ_COUNT(b), b, gf);
    }
    return rc;
}

int lq_po_separate(lq_po_ops *o, lq_field *phi, const lq_field *u, const lq_field *v,
                   const lq_field *w, const lq_field *sdf)
{
    if (IS_REF(o)) {
        lq_po_ref_separate(o, phi, u, v, w, sdf);
        return LQ_OK;
    }
    size_t g[3] = {(size_t)o->nx, (size_t)o->ny, (size_t)o->nz};
    lq_argv a[] = {MEM(phi),        MEM(u),          MEM(v),          MEM(w),
                   MEM(&o->vel[0]), MEM(&o->vel[1]), MEM(&o->vel[2]), MEM(sdf)};
    return lq_po_run(o, o->separate, "po_separate", (int)LQ_COUNT(a), a, g);
}

int lq_po_extrap_phi(lq_po_ops *o, lq_field *phi, const lq_field *sdf, int layers)
{
    if (IS_REF(o)) {
        lq_po_ref_extrap_phi(o, phi, sdf, layers);
        return LQ_OK;
    }
    size_t g[3] = {(size_t)o->nx, (size_t)o->ny, (size_t)o->nz};
    lq_argv a[] = {MEM(&o->valid[0]), MEM(sdf)};
    int rc = lq_po_run(o, o->pinit, "po_phi_init", (int)LQ_COUNT(a), a, g);
    for (int l = 0; l < layers && !rc; l++) {
        lq_argv b[] = {MEM(phi), MEM(&o->valid[l & 1]), MEM(&o->valid[(l + 1) & 1])};
        rc = lq_po_run(o, o->player, "po_phi_layer", (int)LQ_COUNT(b), b, g);
    }
    return rc;
}
