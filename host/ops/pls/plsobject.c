/*
 * plsobject.c — launchers of the `pls` solver's moving objects (see plsobject.h;
 * Rasmussen et al. 2004 §5.5), the scene reading of their motion keys and the host-side
 * pose (a function of time only: nothing to checkpoint).
 */
#include "ops/pls/plsobject.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "world/voxel.h"

static const char *const lq_plsobject_sources[] = {
    "kernels/common/lq_shared.h",   "kernels/common/hash.h",      "kernels/common/mac_grid.h",
    "kernels/common/scan_cell.h",   "kernels/mac/markers_cell.h", "kernels/pls/plsparticles_cell.h",
    "kernels/pls/plsobject_cell.h", "kernels/pls/plsobject.cl"};

#define IS_REF(o) ((o)->ctx->backend == LQ_BACKEND_REF)

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_plsobject_kernels[] = {
    LQ_KERNEL(lq_plsobject_ops, sdf, "plsobject_sdf"),
    LQ_KERNEL(lq_plsobject_ops, velk, "plsobject_vel"),
    LQ_KERNEL(lq_plsobject_ops, separate, "plsobject_separate"),
    LQ_KERNEL(lq_plsobject_ops, pinit, "plsobject_phi_init"),
    LQ_KERNEL(lq_plsobject_ops, player, "plsobject_phi_layer"),
    LQ_KERNEL(lq_plsobject_ops, close, "plsobject_close"),
    LQ_KERNEL(lq_plsobject_ops, shift, "plsobject_shift"),
    LQ_KERNEL(lq_plsobject_ops, kill, "plsobject_kill_air"),
    LQ_KERNEL(lq_plsobject_ops, slabel, "plsobject_strat_label"),
    LQ_KERNEL(lq_plsobject_ops, sapply, "plsobject_strat_apply"),
};
static const lq_program lq_plsobject_program =
    LQ_PROGRAM("XYZ", lq_plsobject_sources, lq_plsobject_kernels);

size_t lq_plsobject_ops_bytes(int nx, int ny, int nz)
{
    size_t C = (size_t)nx * ny * nz;
    size_t F = (size_t)(nx + 1) * ny * nz + (size_t)nx * (ny + 1) * nz + (size_t)nx * ny * (nz + 1);
    return F * 4 + 2 * C + LQ_PLSOBJECT_MAX * LQ_PLSOBJECT_STRIDE * 4;
}

/* Bound once: the objects' descriptions, their face velocities, the φ extrapolation's
 * first mask, and the sizes (cell, far value, band) fixed at init. */
static int lq_plsobject_bind(lq_plsobject_ops *o)
{
    lq_arg desc = LQ_MEM(&o->desc), h = LQ_VAL(o->h), v0 = LQ_MEM(&o->vel[0]),
           v1 = LQ_MEM(&o->vel[1]), v2 = LQ_MEM(&o->vel[2]);
    lq_binding b[] = {
        {&o->sdf, {[3] = desc, [6] = h, [7] = LQ_VAL(o->far)}},
        {&o->velk, {[3] = desc, [6] = h, [7] = LQ_VAL(o->band)}},
        {&o->separate, {[4] = v0, [5] = v1, [6] = v2}},
        {&o->close, {[4] = v0, [5] = v1, [6] = v2}},
        {&o->slabel, {[7] = v0, [8] = v1, [9] = v2}},
        {&o->sapply, {[6] = v0, [7] = v1, [8] = v2}},
        {&o->pinit, {[0] = LQ_MEM(&o->valid[0])}},
        {&o->player, {[3] = h}},
    };
    return lq_kernels_bind(LQ_ARGS(b));
}

int lq_plsobject_ops_init(lq_plsobject_ops *o, lq_ctx *ctx, int nx, int ny, int nz, float h,
                          float far)
{
    *o = (lq_plsobject_ops){
        .ctx = ctx, .nx = nx, .ny = ny, .nz = nz, .h = h, .far = far, .band = 3.0f * h};
    int rc =
        lq_field_alloc(ctx, &o->desc, "po_desc", LQ_PLSOBJECT_MAX * LQ_PLSOBJECT_STRIDE, 1, 1, 4);
    for (int c = 0; c < 3 && !rc; c++)
        rc = lq_field_alloc(ctx, &o->vel[c], "plsobject_vel", nx + (c == 0), ny + (c == 1),
                            nz + (c == 2), 4);
    for (int c = 0; c < 3 && !rc; c++) rc = lq_field_zero(&o->vel[c], 0);
    for (int s = 0; s < 2 && !rc; s++)
        rc = lq_field_alloc(ctx, &o->valid[s], "po_valid", nx, ny, nz, 1);
    if (rc || IS_REF(o)) return rc;
    rc = lq_program_build(&lq_plsobject_program, o, &o->program, ctx, nx, ny, nz, "");
    return rc ? rc : lq_plsobject_bind(o);
}

void lq_plsobject_ops_release(lq_plsobject_ops *o)
{
    lq_program_release(&lq_plsobject_program, o, &o->program);
    lq_field_release(&o->desc);
    for (int c = 0; c < 3; c++) lq_field_release(&o->vel[c]);
    for (int s = 0; s < 2; s++) lq_field_release(&o->valid[s]);
    lq_field_release(&o->grids);
    for (int q = 0; q < o->n; q++) lq_plsobject_object_free(&o->obj[q]);
    o->n = 0;
}

void lq_plsobject_object_free(lq_plsobject_object *ob)
{
    free(ob->keys);
    free(ob->grid);
    ob->keys = NULL;
    ob->grid = NULL;
}

/* Squared distance from p to triangle abc (Ericson, Real-Time Collision Detection
 * §5.1.5: the closest point by Voronoi regions). */
static double lq_plsobject_tri_d2(const double *p, const double *a, const double *b,
                                  const double *c)
{
    double ab[3], ac[3], ap[3], bp[3], cp[3], q[3];
    for (int i = 0; i < 3; i++) {
        ab[i] = b[i] - a[i], ac[i] = c[i] - a[i], ap[i] = p[i] - a[i];
        bp[i] = p[i] - b[i], cp[i] = p[i] - c[i];
    }
#define DOT(x, y) (x[0] * y[0] + x[1] * y[1] + x[2] * y[2])
    double d1 = DOT(ab, ap), d2 = DOT(ac, ap), d3 = DOT(ab, bp), d4 = DOT(ac, bp);
    double d5 = DOT(ab, cp), d6 = DOT(ac, cp);
#undef DOT
    double va = d3 * d6 - d5 * d4, vb = d5 * d2 - d1 * d6, vc = d1 * d4 - d3 * d2;
    if (d1 <= 0 && d2 <= 0) {
        memcpy(q, a, sizeof q);
    } else if (d3 >= 0 && d4 <= d3) {
        memcpy(q, b, sizeof q);
    } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        double v = d1 / (d1 - d3);
        for (int i = 0; i < 3; i++) q[i] = a[i] + v * ab[i];
    } else if (d6 >= 0 && d5 <= d6) {
        memcpy(q, c, sizeof q);
    } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        double w = d2 / (d2 - d6);
        for (int i = 0; i < 3; i++) q[i] = a[i] + w * ac[i];
    } else if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (int i = 0; i < 3; i++) q[i] = b[i] + w * (c[i] - b[i]);
    } else {
        double den = 1.0 / (va + vb + vc), v = vb * den, w = vc * den;
        for (int i = 0; i < 3; i++) q[i] = a[i] + ab[i] * v + ac[i] * w;
    }
    double e = 0;
    for (int i = 0; i < 3; i++) e += (p[i] - q[i]) * (p[i] - q[i]);
    return e;
}

/* A mesh obstacle: read and placed as host/world/voxel.c places it (scaled, turned x then y
 * then z about the world axes, translated), then its local sdf grid. */
static int lq_plsobject_read_mesh(const lq_config *cfg, const lq_config_obstacle *item,
                                  const double origin[3], bool flat, double h,
                                  lq_plsobject_object *ob)
{
    const char *file = item->mesh.file;
    double s3[3] = {1, 1, 1};
    const double *rot = item->mesh.rotate, *tr = item->mesh.translate;
    int ns = item->mesh.nscale;
    if (ns == 2)
        return lq_config_error(cfg, item->mesh.at_scale,
                               "scale takes 1 number (uniform) or 3 (x, y, z), got 2");
    memcpy(s3, item->mesh.scale, sizeof s3);
    if (ns == 1) s3[1] = s3[2] = s3[0];
    lq_voxel_mesh m;
    int rc = lq_voxel_mesh_read(file, &m);
    if (rc) return rc;
    double R[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int ax = 0; ax < 3; ax++) { /* R = Rz·Ry·Rx, as host/world/voxel.c */
        double a = rot[ax] * LQ_PI / 180, c = cos(a), sn = sin(a), Q[3][3] = {{0}}, N[3][3];
        int u = (ax + 1) % 3, w = (ax + 2) % 3;
        Q[ax][ax] = 1;
        Q[u][u] = c;
        Q[u][w] = -sn;
        Q[w][u] = sn;
        Q[w][w] = c;
        for (int r = 0; r < 3; r++)
            for (int q = 0; q < 3; q++)
                N[r][q] = Q[r][0] * R[0][q] + Q[r][1] * R[1][q] + Q[r][2] * R[2][q];
        memcpy(R, N, sizeof R);
    }
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < m.nverts; i++) {
        double *v = m.v + 3 * i, q[3] = {v[0] * s3[0], v[1] * s3[1], v[2] * s3[2]};
        for (int r = 0; r < 3; r++) {
            v[r] = R[r][0] * q[0] + R[r][1] * q[1] + R[r][2] * q[2] + tr[r];
            lo[r] = fmin(lo[r], v[r]);
            hi[r] = fmax(hi[r], v[r]);
        }
    }
    /* the local grid: the bounds plus 4 cells a side, centred on the bounds' centre */
    size_t cells = 1;
    double wo[3]; /* the grid's lower corner, world */
    for (int a = 0; a < 3; a++) {
        ob->c0[a] = 0.5 * (lo[a] + hi[a]) - origin[a];
        ob->gdim[a] = flat && a == 2 ? 1 : (int)ceil((hi[a] - lo[a]) / h) + 8;
        ob->glo[a] = -0.5 * ob->gdim[a] * h;
        wo[a] = 0.5 * (lo[a] + hi[a]) + ob->glo[a];
        cells *= (size_t)ob->gdim[a];
    }
    if (cells > (size_t)1 << 24) {
        lq_voxel_mesh_free(&m);
        return lq_config_error(cfg, item->at_kind,
                               "a moving mesh's grid of %zu cells is too large (2^24)", cells);
    }
    unsigned char *in = lq_calloc(cells, 1);
    ob->grid = lq_alloc(cells * sizeof(float));
    if (!in || !ob->grid) rc = LQ_ESIM;
    double zmid = 0.5 * (lo[2] + hi[2]);
    if (!rc) rc = lq_voxel_mesh_fill(&m, ob->gdim[0], ob->gdim[1], ob->gdim[2], h, wo, zmid, in);
    double far = 10 * h;
    for (int k = 0; k < ob->gdim[2] && !rc; k++)
        for (int j = 0; j < ob->gdim[1]; j++)
            for (int i = 0; i < ob->gdim[0]; i++) {
                double x[3] = {wo[0] + (i + 0.5) * h, wo[1] + (j + 0.5) * h,
                               flat ? zmid : wo[2] + (k + 0.5) * h};
                double best = far * far;
                for (int t = 0; t < m.ntris; t++) {
                    const double *a = m.v + 3 * m.tri[3 * t], *b = m.v + 3 * m.tri[3 * t + 1],
                                 *c = m.v + 3 * m.tri[3 * t + 2];
                    double bl = 0; /* the triangle's box first */
                    for (int q = 0; q < 3; q++) {
                        double l = fmin(a[q], fmin(b[q], c[q])), u = fmax(a[q], fmax(b[q], c[q]));
                        double o = x[q] < l ? l - x[q] : x[q] > u ? x[q] - u : 0;
                        bl += o * o;
                    }
                    if (bl < best) best = fmin(best, lq_plsobject_tri_d2(x, a, b, c));
                }
                size_t g = (size_t)i + ob->gdim[0] * ((size_t)j + ob->gdim[1] * (size_t)k);
                double d = sqrt(best);
                ob->grid[g] = (float)(in[g] ? -d : d);
            }
    free(in);
    lq_voxel_mesh_free(&m);
    if (rc) {
        free(ob->grid);
        ob->grid = NULL;
    }
    return rc;
}

int lq_plsobject_read(const lq_config *cfg, const lq_config_obstacle *q, const double origin[3],
                      bool flat, double h, lq_plsobject_object *ob)
{
    const lq_scene_node *kp = q->motion.at_keys;
    memset(ob, 0, sizeof *ob);
    if (q->kind == LQ_CONFIG_OBSTACLE_BOX) {
        const double *a = q->box.min, *b = q->box.max;
        ob->kind = 0;
        for (int d = 0; d < 3; d++) {
            ob->c0[d] = 0.5 * (a[d] + b[d]) - origin[d];
            ob->size[d] = 0.5 * (b[d] - a[d]);
        }
    } else if (q->kind == LQ_CONFIG_OBSTACLE_SPHERE || q->kind == LQ_CONFIG_OBSTACLE_CYLINDER) {
        bool sph = q->kind == LQ_CONFIG_OBSTACLE_SPHERE;
        memcpy(ob->c0, sph ? q->sphere.center : q->cylinder.center, sizeof ob->c0);
        for (int d = 0; d < 3; d++) ob->c0[d] -= origin[d];
        ob->size[0] = sph ? q->sphere.radius : q->cylinder.radius;
        ob->kind = sph ? 1 : 3;
        if (!sph) {
            ob->size[1] = q->cylinder.height;
            ob->axis = q->cylinder.axis;
        }
    } else if (q->kind == LQ_CONFIG_OBSTACLE_MESH) {
        ob->kind = 4;
        int rc = lq_plsobject_read_mesh(cfg, q, origin, flat, h, ob);
        if (rc) return rc;
    } else {
        return lq_config_error(cfg, kp,
                               "solver 'pls' moves box, sphere, cylinder and mesh obstacles only "
                               "(this one is a %s)",
                               q->kind_word);
    }
    int n = q->motion.nkeys;
    if (n < 7 || n % 7)
        return lq_config_error(cfg, kp,
                               "motion keys are rows [t, tx, ty, tz, rx, ry, rz]: 7 numbers each "
                               "(%d given)",
                               n);
    ob->keys = lq_alloc((size_t)n * sizeof(double));
    if (!ob->keys) {
        lq_plsobject_object_free(ob);
        return LQ_ESIM;
    }
    memcpy(ob->keys, q->motion.keys, (size_t)n * sizeof(double));
    ob->nkeys = n / 7;
    int rc = LQ_OK;
    for (int r = 0; r < ob->nkeys && !rc; r++) {
        const double *k = ob->keys + 7 * r;
        if (r > 0 && !(k[0] > k[-7]))
            rc = lq_config_error(cfg, kp, "motion key times must increase (row %d: %g after %g)",
                                 r + 1, k[0], k[-7]);
        else if (flat && (k[4] != 0 || k[5] != 0))
            rc = lq_config_error(cfg, kp,
                                 "a 2D grid (nz = 1) turns objects about z only (row %d has rx "
                                 "%g, ry %g)",
                                 r + 1, k[4], k[5]);
        for (int d = 0; d < 7 && !rc; d++)
            if (!isfinite(k[d])) rc = lq_config_error(cfg, kp, "motion keys must be finite");
    }
    ob->smooth = q->motion.smooth;
    if (rc) lq_plsobject_object_free(ob);
    return rc;
}

int lq_plsobject_add(lq_plsobject_ops *o, const lq_plsobject_object *ob)
{
    if (o->n >= LQ_PLSOBJECT_MAX)
        return lq_error(LQ_EINPUT, "solver 'pls' moves at most %d obstacles", LQ_PLSOBJECT_MAX);
    lq_plsobject_object *q = &o->obj[o->n++];
    *q = *ob;
    if (q->kind == 4) {
        q->goff = o->grid_floats;
        o->grid_floats += (size_t)q->gdim[0] * q->gdim[1] * q->gdim[2];
        if (o->grid_floats >= (size_t)1 << 24)
            return lq_error(LQ_EINPUT, "the moving meshes' grids hold more than 2^24 cells");
    }
    return LQ_OK;
}

void lq_plsobject_pose(const lq_plsobject_object *ob, double t, double c[3], double R[9],
                       double v[3], double w[3])
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

static lq_range lq_plsobject_cells(const lq_plsobject_ops *o)
{
    return lq_range_3d((size_t)o->nx, (size_t)o->ny, (size_t)o->nz);
}

int lq_plsobject_update(lq_plsobject_ops *o, double t, const lq_field *sdf_static, lq_field *sdf)
{
    assert(sdf->count == (size_t)o->nx * o->ny * o->nz);
    if (!o->grids.count) { /* the meshes' grids, once (one float when there are none) */
        size_t nf = o->grid_floats ? o->grid_floats : 1;
        int rc = lq_field_alloc(o->ctx, &o->grids, "po_grids", (int)nf, 1, 1, 4);
        float *buf = rc ? NULL : lq_calloc(nf, sizeof(float));
        if (!rc && !buf) rc = LQ_ESIM;
        for (int q = 0; q < o->n && !rc; q++)
            if (o->obj[q].kind == 4)
                memcpy(buf + o->obj[q].goff, o->obj[q].grid,
                       (size_t)o->obj[q].gdim[0] * o->obj[q].gdim[1] * o->obj[q].gdim[2] *
                           sizeof(float));
        if (!rc) rc = lq_field_upload(&o->grids, buf);
        free(buf);
        if (rc) return rc;
    }
    memset(o->desc_host, 0, sizeof o->desc_host);
    for (int q = 0; q < o->n; q++) {
        const lq_plsobject_object *ob = &o->obj[q];
        float *d = o->desc_host + q * LQ_PLSOBJECT_STRIDE;
        double c[3], R[9], v[3], w[3];
        lq_plsobject_pose(ob, t, c, R, v, w);
        d[LQ_PLSOBJECT_KIND] = (float)ob->kind;
        d[LQ_PLSOBJECT_AXIS] = (float)ob->axis;
        d[LQ_PLSOBJECT_FLAT] = o->nz == 1 ? 1.0f : 0.0f;
        if (ob->kind == 4) {
            d[LQ_PLSOBJECT_GOFF] = (float)ob->goff;
            d[LQ_PLSOBJECT_GIH] = 1.0f / o->h;
            for (int a = 0; a < 3; a++) {
                d[LQ_PLSOBJECT_GDIM + a] = (float)ob->gdim[a];
                d[LQ_PLSOBJECT_GLO + a] = (float)ob->glo[a];
            }
        }
        for (int a = 0; a < 3; a++) {
            d[LQ_PLSOBJECT_SIZE + a] = (float)ob->size[a];
            d[LQ_PLSOBJECT_C + a] = (float)c[a];
            d[LQ_PLSOBJECT_V + a] = (float)v[a];
            d[LQ_PLSOBJECT_W + a] = (float)w[a];
            for (int b = 0; b < 3; b++)
                d[LQ_PLSOBJECT_RT + 3 * a + b] = (float)R[3 * b + a]; /* Rᵀ */
        }
    }
    int rc = lq_field_upload(&o->desc, o->desc_host);
    if (rc) return rc;
    if (IS_REF(o)) {
        lq_plsobject_ref_update(o, sdf_static, sdf);
        return LQ_OK;
    }
    int has_static = sdf_static != NULL, n = o->n;
    const lq_field *st = sdf_static ? sdf_static : sdf;
    lq_arg a[] = {LQ_MEM(sdf), LQ_MEM(st),        LQ_VAL(has_static),
                  LQ_KEEP,     LQ_MEM(&o->grids), LQ_VAL(n)};
    rc = lq_kernel_launch(&o->sdf, lq_plsobject_cells(o), LQ_ARGS(a));
    for (int c = 0; c < 3 && !rc; c++) {
        lq_arg b[] = {LQ_MEM(&o->vel[c]),
                      LQ_MEM(st),
                      LQ_VAL(has_static),
                      LQ_KEEP,
                      LQ_MEM(&o->grids),
                      LQ_VAL(n),
                      LQ_KEEP,
                      LQ_KEEP,
                      LQ_VAL(c)};
        rc = lq_kernel_launch(&o->velk, lq_range_faces(o->nx, o->ny, o->nz, c), LQ_ARGS(b));
    }
    return rc;
}

int lq_plsobject_separate(lq_plsobject_ops *o, lq_field *phi, const lq_field *u, const lq_field *v,
                          const lq_field *w, const lq_field *sdf, const lq_field *p)
{
    if (IS_REF(o)) {
        lq_plsobject_ref_separate(o, phi, u, v, w, sdf, p);
        return LQ_OK;
    }
    int use_p = p != NULL;
    lq_arg a[] = {LQ_MEM(phi), LQ_MEM(u), LQ_MEM(v),   LQ_MEM(w),           LQ_KEEP,
                  LQ_KEEP,     LQ_KEEP,   LQ_MEM(sdf), LQ_MEM(p ? p : sdf), LQ_VAL(use_p)};
    return lq_kernel_launch(&o->separate, lq_plsobject_cells(o), LQ_ARGS(a));
}

int lq_plsobject_close(lq_plsobject_ops *o, lq_field *phi, const lq_field *u, const lq_field *v,
                       const lq_field *w, const lq_field *sdf)
{
    if (IS_REF(o)) {
        lq_plsobject_ref_close(o, phi, u, v, w, sdf);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(phi), LQ_MEM(u), LQ_MEM(v), LQ_MEM(w),
                  LQ_KEEP,     LQ_KEEP,   LQ_KEEP,   LQ_MEM(sdf)};
    return lq_kernel_launch(&o->close, lq_plsobject_cells(o), LQ_ARGS(a));
}

int lq_plsobject_shift(lq_plsobject_ops *o, lq_field *out, const lq_field *sdf, float d)
{
    if (IS_REF(o)) {
        lq_plsobject_ref_shift(o, out, sdf, d);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(out), LQ_MEM(sdf), LQ_VAL(d)};
    return lq_kernel_launch(&o->shift, lq_plsobject_cells(o), LQ_ARGS(a));
}

int lq_plsobject_kill_air(lq_plsobject_ops *o, lq_field *part, int n, const lq_field *sdf, float d)
{
    if (n <= 0) return LQ_OK;
    if (IS_REF(o)) {
        lq_plsobject_ref_kill_air(o, part, n, sdf, d);
        return LQ_OK;
    }
    float ih = 1.0f / o->h;
    int use = o->count != NULL;
    lq_arg a[] = {LQ_MEM(part), LQ_VAL(n), LQ_MEM(use ? o->count : sdf), LQ_VAL(use), LQ_MEM(sdf),
                  LQ_VAL(d),    LQ_VAL(ih)};
    return lq_kernel_launch(&o->kill, lq_range_var(&o->kill, n), LQ_ARGS(a));
}

int lq_plsobject_strat_label(lq_plsobject_ops *o, const lq_field *part, lq_field *lab, int n,
                             const lq_field *sdf, const lq_field *phi, float band, float dt)
{
    assert(lab->count >= (size_t)n * LQ_PLSPARTICLES_STRIDE &&
           part->count >= (size_t)n * LQ_PLSPARTICLES_STRIDE);
    if (n <= 0) return LQ_OK;
    if (IS_REF(o)) {
        lq_plsobject_ref_strat_label(o, part, lab, n, sdf, phi, band, dt);
        return LQ_OK;
    }
    /* the domain as lq_plsparticles_coef_of has it (the advection's clamp) */
    float hdt = 0.5f * dt, ih = 1.0f / o->h, lx = (float)(o->nx * (double)o->h),
          ly = (float)(o->ny * (double)o->h), lz = (float)(o->nz * (double)o->h);
    int use = o->count != NULL;
    lq_arg a[] = {LQ_MEM(part), LQ_MEM(lab), LQ_VAL(n),    LQ_MEM(use ? o->count : sdf),
                  LQ_VAL(use),  LQ_MEM(sdf), LQ_MEM(phi),  LQ_KEEP,
                  LQ_KEEP,      LQ_KEEP,     LQ_VAL(band), LQ_VAL(hdt),
                  LQ_VAL(ih),   LQ_VAL(lx),  LQ_VAL(ly),   LQ_VAL(lz)};
    return lq_kernel_launch(&o->slabel, lq_range_var(&o->slabel, n), LQ_ARGS(a));
}

int lq_plsobject_strat_apply(lq_plsobject_ops *o, lq_field *part, const lq_field *lab, int n,
                             const lq_field *sdf, float dt)
{
    assert(lab->count >= (size_t)n * LQ_PLSPARTICLES_STRIDE &&
           part->count >= (size_t)n * LQ_PLSPARTICLES_STRIDE);
    if (n <= 0) return LQ_OK;
    if (IS_REF(o)) {
        lq_plsobject_ref_strat_apply(o, part, lab, n, sdf, dt);
        return LQ_OK;
    }
    float hdt = 0.5f * dt, ih = 1.0f / o->h, h = o->h, lx = (float)(o->nx * (double)o->h),
          ly = (float)(o->ny * (double)o->h), lz = (float)(o->nz * (double)o->h);
    int use = o->count != NULL;
    lq_arg a[] = {LQ_MEM(part), LQ_MEM(lab), LQ_VAL(n),  LQ_MEM(use ? o->count : sdf),
                  LQ_VAL(use),  LQ_MEM(sdf), LQ_KEEP,    LQ_KEEP,
                  LQ_KEEP,      LQ_VAL(hdt), LQ_VAL(ih), LQ_VAL(h),
                  LQ_VAL(lx),   LQ_VAL(ly),  LQ_VAL(lz)};
    return lq_kernel_launch(&o->sapply, lq_range_var(&o->sapply, n), LQ_ARGS(a));
}

int lq_plsobject_extrap_phi(lq_plsobject_ops *o, lq_field *phi, const lq_field *sdf, int layers)
{
    if (IS_REF(o)) {
        lq_plsobject_ref_extrap_phi(o, phi, sdf, layers);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_KEEP, LQ_MEM(sdf)};
    int rc = lq_kernel_launch(&o->pinit, lq_plsobject_cells(o), LQ_ARGS(a));
    for (int l = 0; l < layers && !rc; l++) {
        lq_arg b[] = {LQ_MEM(phi), LQ_MEM(&o->valid[l & 1]), LQ_MEM(&o->valid[(l + 1) & 1]),
                      LQ_KEEP};
        rc = lq_kernel_launch(&o->player, lq_plsobject_cells(o), LQ_ARGS(b));
    }
    return rc;
}
