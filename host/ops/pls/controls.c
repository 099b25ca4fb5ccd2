/*
 * controls.c — a scene's control particles made once and evaluated each step (see
 * controls.h).
 *
 * Generators. Box and ball: the lattice points origin + (i + ½) s (s = `spacing`, one cell
 * by default: the cell centres) inside the shape, in lattice order (x fastest); a 2D grid
 * takes one layer, in its plane. Mesh inside: the lattice points the closed mesh encloses
 * (world/voxel.h's scanline fill on the lattice over the mesh's bounds). Mesh surface:
 * each triangle sampled on a barycentric lattice finer than s/4; each lattice cell the
 * samples fall in gets one particle, at its sample nearest the cell's centre (ties: the
 * earlier triangle and sample), with that triangle's unit normal as axis; cells in
 * increasing index. Records: world positions minus the grid origin; in 2D z = h/2.
 */
#include "ops/pls/controls.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "world/voxel.h"

/* --- generators ----------------------------------------------------------------------- */

/* Lattice indices [lo, hi] along one axis for points o + (i + ½) s within [a, b]. */
static void lq_controls_span(double o, double s, double a, double b, long *lo, long *hi)
{
    *lo = (long)ceil((a - o) / s - 0.5);
    *hi = (long)floor((b - o) / s - 0.5);
}

/* Appends (x, y, z) to the item's points (grown by doubling). */
static int lq_controls_push(lq_controls_item *it, int *cap, const double x[3])
{
    if (it->n >= LQ_CONTROLS_MAX) return LQ_EINPUT;
    if (it->n == *cap) {
        int nc = *cap ? 2 * *cap : 256;
        double *p = realloc(it->x0, sizeof(double) * 3 * (size_t)nc);
        if (!p) return lq_error(LQ_ESIM, "out of host memory making control particles");
        it->x0 = p;
        *cap = nc;
    }
    memcpy(it->x0 + 3 * (size_t)it->n, x, 3 * sizeof(double));
    it->n++;
    return LQ_OK;
}

/* The lattice points inside a box (ball: centre c, radius r > 0), one layer in 2D. */
static int lq_controls_lattice(const lq_controls *c, lq_controls_item *it, const double a[3],
                               const double b[3], const double *ctr, double r, double s)
{
    long lo[3], hi[3];
    int cap = 0, rc = LQ_OK;
    for (int k = 0; k < 3; k++) lq_controls_span(c->origin[k], s, a[k], b[k], &lo[k], &hi[k]);
    if (c->nz == 1) lo[2] = hi[2] = 0;
    for (long k = lo[2]; k <= hi[2] && !rc; k++)
        for (long j = lo[1]; j <= hi[1] && !rc; j++)
            for (long i = lo[0]; i <= hi[0] && !rc; i++) {
                double x[3] = {c->origin[0] + (i + 0.5) * s, c->origin[1] + (j + 0.5) * s,
                               c->origin[2] + (k + 0.5) * s};
                if (c->nz == 1) x[2] = ctr ? ctr[2] : 0.5 * (a[2] + b[2]);
                if (ctr) {
                    double d[3] = {x[0] - ctr[0], x[1] - ctr[1], x[2] - ctr[2]};
                    if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > r * r) continue;
                }
                rc = lq_controls_push(it, &cap, x);
            }
    return rc;
}

/* The mesh read, scaled, rotated (x, then y, then z, world axes) and moved, as
 * world/voxel.c places a mesh obstacle. */
static int lq_controls_mesh_read(const lq_config_control *q, lq_voxel_mesh *m)
{
    double sc[3], R[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    memcpy(sc, q->mesh.scale, sizeof sc);
    if (q->mesh.nscale != 3) sc[1] = sc[2] = sc[0];
    int rc = lq_voxel_mesh_read(q->mesh.file, m);
    if (rc) return rc;
    for (int ax = 0; ax < 3; ax++) { /* R = Rz·Ry·Rx */
        double an = q->mesh.rotate[ax] * LQ_PI / 180, co = cos(an), si = sin(an), Q[3][3] = {{0}},
               N[3][3];
        int u = (ax + 1) % 3, w = (ax + 2) % 3;
        Q[ax][ax] = 1;
        Q[u][u] = co;
        Q[u][w] = -si;
        Q[w][u] = si;
        Q[w][w] = co;
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++)
                N[r][k] = Q[r][0] * R[0][k] + Q[r][1] * R[1][k] + Q[r][2] * R[2][k];
        memcpy(R, N, sizeof R);
    }
    for (int i = 0; i < m->nverts; i++) {
        double *v = m->v + 3 * i, s3[3] = {v[0] * sc[0], v[1] * sc[1], v[2] * sc[2]};
        for (int r = 0; r < 3; r++)
            v[r] = R[r][0] * s3[0] + R[r][1] * s3[1] + R[r][2] * s3[2] + q->mesh.translate[r];
    }
    return LQ_OK;
}

static void lq_controls_bounds(const lq_voxel_mesh *m, double lo[3], double hi[3])
{
    for (int k = 0; k < 3; k++) lo[k] = INFINITY, hi[k] = -INFINITY;
    for (int i = 0; i < m->nverts; i++)
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], m->v[3 * i + k]);
            hi[k] = fmax(hi[k], m->v[3 * i + k]);
        }
}

/* Mesh inside: the lattice points it encloses (scanline fill on the lattice). */
static int lq_controls_mesh_inside(const lq_controls *c, lq_controls_item *it,
                                   const lq_voxel_mesh *m, double s)
{
    double lo[3], hi[3];
    long a[3], b[3];
    lq_controls_bounds(m, lo, hi);
    for (int k = 0; k < 3; k++) lq_controls_span(c->origin[k], s, lo[k], hi[k], &a[k], &b[k]);
    if (c->nz == 1) a[2] = b[2] = 0;
    long dims[3] = {b[0] - a[0] + 1, b[1] - a[1] + 1, b[2] - a[2] + 1};
    if (dims[0] < 1 || dims[1] < 1 || dims[2] < 1) return LQ_OK;
    if ((double)dims[0] * dims[1] * dims[2] > 4.0 * LQ_CONTROLS_MAX) return LQ_EINPUT;
    double o[3];
    for (int k = 0; k < 3; k++) o[k] = c->origin[k] + a[k] * s;
    size_t n = (size_t)dims[0] * dims[1] * dims[2];
    unsigned char *in = lq_calloc(n, 1);
    if (!in) return LQ_ESIM;
    int rc = lq_voxel_mesh_fill(m, (int)dims[0], (int)dims[1], (int)dims[2], s, o,
                                0.5 * (lo[2] + hi[2]), in);
    int cap = 0;
    for (size_t q = 0; q < n && !rc; q++) {
        if (!in[q]) continue;
        long i = (long)(q % dims[0]), j = (long)(q / dims[0] % dims[1]),
             k = (long)(q / dims[0] / dims[1]);
        double x[3] = {o[0] + (i + 0.5) * s, o[1] + (j + 0.5) * s,
                       c->nz == 1 ? 0.5 * (lo[2] + hi[2]) : o[2] + (k + 0.5) * s};
        rc = lq_controls_push(it, &cap, x);
    }
    free(in);
    return rc;
}

/* One surface sample: its lattice cell, squared distance to the cell's centre, order. */
typedef struct lq_controls_sample {
    long long cell;
    double d2;
    long order;
    float x[3], nrm[3];
} lq_controls_sample;

static int lq_controls_sample_cmp(const void *pa, const void *pb)
{
    const lq_controls_sample *a = pa, *b = pb;
    if (a->cell != b->cell) return a->cell < b->cell ? -1 : 1;
    if (a->d2 != b->d2) return a->d2 < b->d2 ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

/* Triangle t's samples (barycentric lattice of N steps, N·s/4 ≥ its longest edge). */
static int lq_controls_tri_samples(const lq_controls *c, const lq_voxel_mesh *m, int t, double s,
                                   double zplane, lq_controls_sample **buf, long *n, long *cap)
{
    const double *A = m->v + 3 * m->tri[3 * t], *B = m->v + 3 * m->tri[3 * t + 1],
                 *C = m->v + 3 * m->tri[3 * t + 2];
    double e1[3], e2[3], nr[3], len = 0;
    for (int k = 0; k < 3; k++) e1[k] = B[k] - A[k], e2[k] = C[k] - A[k];
    nr[0] = e1[1] * e2[2] - e1[2] * e2[1];
    nr[1] = e1[2] * e2[0] - e1[0] * e2[2];
    nr[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double nl = sqrt(nr[0] * nr[0] + nr[1] * nr[1] + nr[2] * nr[2]);
    if (!(nl > 0)) return LQ_OK; /* degenerate */
    for (int k = 0; k < 3; k++) len = fmax(len, fmax(fabs(e1[k]), fabs(e2[k])));
    len = fmax(len, fmax(fabs(e1[0] - e2[0]), fmax(fabs(e1[1] - e2[1]), fabs(e1[2] - e2[2]))));
    int N = (int)ceil(len * 1.7320508 / (0.25 * s)) + 1;
    for (int i = 0; i <= N; i++)
        for (int j = 0; i + j <= N; j++) {
            double x[3];
            long l[3];
            for (int k = 0; k < 3; k++) {
                x[k] = A[k] + e1[k] * i / N + e2[k] * j / N;
                l[k] = (long)floor((x[k] - c->origin[k]) / s);
            }
            if (c->nz == 1) {
                if (fabs(x[2] - zplane) > 0.5 * s) continue;
                l[2] = 0;
            }
            if (*n == *cap) {
                long nc = *cap ? 2 * *cap : 4096;
                lq_controls_sample *p = realloc(*buf, sizeof *p * (size_t)nc);
                if (!p) return lq_error(LQ_ESIM, "out of host memory sampling a mesh");
                *buf = p;
                *cap = nc;
            }
            lq_controls_sample *sm = &(*buf)[(*n)++];
            double d2 = 0;
            for (int k = 0; k < 3; k++) {
                double cc = c->origin[k] + (l[k] + 0.5) * s;
                d2 += (x[k] - cc) * (x[k] - cc);
                sm->x[k] = (float)x[k];
                sm->nrm[k] = (float)(nr[k] / nl);
            }
            /* a cell id unique within ±2^20 cells of the origin */
            sm->cell = ((long long)(l[2] + (1 << 20)) << 42) |
                       ((long long)(l[1] + (1 << 20)) << 21) | (long long)(l[0] + (1 << 20));
            sm->d2 = d2;
            sm->order = *n;
        }
    return LQ_OK;
}

/* Mesh surface: one particle per lattice cell the surface crosses. */
static int lq_controls_mesh_surface(const lq_controls *c, lq_controls_item *it,
                                    const lq_voxel_mesh *m, double s)
{
    lq_controls_sample *buf = NULL;
    long n = 0, cap = 0;
    int rc = LQ_OK;
    double lo[3], hi[3]; /* 2D: the mesh cut at the middle of its bounds, as voxel.h does */
    lq_controls_bounds(m, lo, hi);
    for (int t = 0; t < m->ntris && !rc; t++)
        rc = lq_controls_tri_samples(c, m, t, s, 0.5 * (lo[2] + hi[2]), &buf, &n, &cap);
    if (!rc) qsort(buf, (size_t)n, sizeof *buf, lq_controls_sample_cmp);
    long cells = 0;
    for (long q = 0; q < n && !rc; q++) cells += q == 0 || buf[q].cell != buf[q - 1].cell;
    if (!rc && cells > LQ_CONTROLS_MAX) rc = LQ_EINPUT;
    int pcap = 0;
    it->ax0 = rc ? NULL : lq_alloc(sizeof(float) * 3 * (size_t)LQ_MAX(cells, 1));
    if (!rc && !it->ax0) rc = LQ_ESIM;
    for (long q = 0; q < n && !rc; q++) {
        if (q > 0 && buf[q].cell == buf[q - 1].cell) continue;
        double x[3] = {buf[q].x[0], buf[q].x[1], buf[q].x[2]};
        memcpy(it->ax0 + 3 * (size_t)it->n, buf[q].nrm, 3 * sizeof(float));
        rc = lq_controls_push(it, &pcap, x);
    }
    free(buf);
    return rc;
}

/* A keyframed curve (the Catmull–Rom path of its keys): particles at arc lengths 0, s,
 * 2s, ... (the curve walked in 64 steps per key interval and per s of its chord, each
 * step's length measured as its chord), each with the curve's velocity at its time as
 * its own velocity. */
static int lq_controls_curve(lq_controls_item *it, const char *file, double s)
{
    lq_path *p = NULL;
    int rc = lq_path_read_csv(&p, file), cap = 0;
    if (rc) return rc;
    double t0 = p->t[0], t1 = p->t[p->n - 1], chord = 0;
    for (int i = 1; i < p->n; i++) {
        const double *a = p->p + 3 * (i - 1), *b = p->p + 3 * i;
        chord += sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                      (b[2] - a[2]) * (b[2] - a[2]));
    }
    long steps = 64L * (p->n - 1) + (long)ceil(64 * chord / s);
    double prev[3], arc = 0, next = 0, x[3], v[3];
    int vcap = 0;
    lq_path_eval(p, t0, prev, NULL, NULL, NULL);
    for (long q = 0; q <= steps && !rc; q++) {
        double t = t0 + (t1 - t0) * (double)q / (double)steps;
        lq_path_eval(p, t, x, NULL, v, NULL);
        arc += sqrt((x[0] - prev[0]) * (x[0] - prev[0]) + (x[1] - prev[1]) * (x[1] - prev[1]) +
                    (x[2] - prev[2]) * (x[2] - prev[2]));
        memcpy(prev, x, sizeof prev);
        if (arc < next) continue;
        next += s;
        if (it->n == vcap) {
            vcap = vcap ? 2 * vcap : 256;
            float *m = realloc(it->mv0, sizeof(float) * 3 * (size_t)vcap);
            if (!m) rc = LQ_ESIM;
            if (m) it->mv0 = m;
        }
        for (int k = 0; k < 3 && !rc; k++) it->mv0[3 * (size_t)it->n + k] = (float)v[k];
        if (!rc) rc = lq_controls_push(it, &cap, x);
    }
    lq_path_free(p);
    return rc;
}

/* The item's particles from its generator or its tracks. */
static int lq_controls_generate(const lq_controls *c, const lq_config *cfg,
                                const lq_config_control *q, lq_controls_item *it)
{
    double s = q->has_spacing ? q->spacing : c->h;
    int rc = LQ_OK, cap = 0;
    if (q->kind == LQ_CONFIG_CONTROL_BOX) {
        rc = lq_controls_lattice(c, it, q->box.min, q->box.max, NULL, 0, s);
    } else if (q->kind == LQ_CONFIG_CONTROL_SPHERE) {
        const double *ct = q->sphere.center;
        double r = q->sphere.radius, a[3] = {ct[0] - r, ct[1] - r, ct[2] - r},
               b[3] = {ct[0] + r, ct[1] + r, ct[2] + r};
        rc = lq_controls_lattice(c, it, a, b, ct, r, s);
    } else if (q->kind == LQ_CONFIG_CONTROL_POINT) {
        rc = lq_controls_push(it, &cap, q->position);
    } else if (q->kind == LQ_CONFIG_CONTROL_MESH) {
        lq_voxel_mesh m;
        rc = lq_controls_mesh_read(q, &m);
        if (rc) return rc;
        rc = q->mesh.inside ? lq_controls_mesh_inside(c, it, &m, s)
                            : lq_controls_mesh_surface(c, it, &m, s);
        lq_voxel_mesh_free(&m);
    } else if (q->kind == LQ_CONFIG_CONTROL_CURVE) {
        rc = lq_controls_curve(it, q->curve, s);
    } else {
        rc = lq_tracks_read_csv(&it->tracks, q->tracks);
        if (!rc) it->n = it->tracks->n;
    }
    if (rc == LQ_EINPUT && !lq_error_message()[0])
        rc = lq_config_error(cfg, q->at_kind,
                             "control: more than %d particles (make `spacing` larger)",
                             LQ_CONTROLS_MAX);
    return rc;
}

/* --- items ---------------------------------------------------------------------------- */

/* A `*_keys` list as a curve (n = 0 when absent). */
static int lq_controls_keys(const lq_config *cfg, const lq_scene_node *at, const char *what,
                            const double *keys, int n, lq_curve *out)
{
    *out = (lq_curve){0};
    if (!keys) return LQ_OK;
    int rc = lq_curve_from_pairs(out, n, keys);
    if (rc == LQ_EINPUT) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", lq_error_message());
        lq_error_clear(); /* the message again, at the scene position */
        return lq_config_error(cfg, at, "control[].%s: %s", what, msg);
    }
    return rc;
}

/* The item's settings (not its particles). */
static int lq_controls_settings(const lq_controls *c, const lq_config *cfg,
                                const lq_config_control *q, lq_controls_item *it)
{
    static const int kinds[5] = {LQ_PLSCONTROL_VELOCITY, LQ_PLSCONTROL_VISCOSITY, LQ_PLSCONTROL_PHI,
                                 LQ_PLSCONTROL_DIVERGENCE, LQ_PLSCONTROL_ERASER};
    static const int falls[3] = {LQ_PLSCONTROL_SMOOTH, LQ_PLSCONTROL_HAT, LQ_PLSCONTROL_BOX};
    it->kind = kinds[q->property];
    it->shape = q->shape == LQ_CONFIG_CONTROL_CYLINDER_SHAPE ? LQ_PLSCONTROL_CYLINDER
                                                             : LQ_PLSCONTROL_SPHERE;
    it->falloff = falls[q->falloff];
    it->radius = q->has_radius ? q->radius : c->h;
    it->half = it->shape == LQ_PLSCONTROL_CYLINDER
                   ? 0.5 * (q->has_length ? q->length : 2 * it->radius)
                   : 0;
    double al = sqrt(q->axis[0] * q->axis[0] + q->axis[1] * q->axis[1] + q->axis[2] * q->axis[2]);
    if (!(al > 0)) return lq_config_error(cfg, q->at_axis, "control[].axis must not be zero");
    for (int k = 0; k < 3; k++) it->axis[k] = q->axis[k] / al;
    memcpy(it->velocity, q->velocity, sizeof it->velocity);
    it->follow = q->follow;
    it->value = q->value;
    it->strength = q->strength;
    int rc = lq_controls_keys(cfg, q->at_value_keys, "value_keys", q->value_keys, q->nvalue_keys,
                              &it->value_c);
    if (!rc)
        rc = lq_controls_keys(cfg, q->at_strength_keys, "strength_keys", q->strength_keys,
                              q->nstrength_keys, &it->strength_c);
    if (!rc && q->path_file) {
        if (q->kind == LQ_CONFIG_CONTROL_TRACKS)
            return lq_config_error(cfg, q->at_path_file,
                                   "control[].path_file moves generated particles; tracks move "
                                   "by their own keys");
        rc = lq_path_read_csv(&it->path, q->path_file);
        if (!rc) {
            double q0[4];
            lq_path_eval(it->path, it->path->t[0], it->p0, q0, NULL, NULL);
            it->q0inv[0] = q0[0];
            for (int k = 1; k < 4; k++) it->q0inv[k] = -q0[k];
        }
    }
    return rc;
}

int lq_controls_make(lq_controls *c, const lq_config *cfg, int nz, double h, const double origin[3])
{
    *c = (lq_controls){.h = h, .nz = nz};
    memcpy(c->origin, origin, sizeof c->origin);
    c->items = lq_calloc((size_t)LQ_MAX(cfg->ncontrol, 1), sizeof *c->items);
    if (!c->items) return LQ_ESIM;
    int rc = LQ_OK;
    long long total = 0;
    for (int i = 0; i < cfg->ncontrol && !rc; i++) {
        const lq_config_control *q = &cfg->control[i];
        lq_controls_item *it = &c->items[i];
        c->nitems = i + 1;
        lq_error_clear();
        rc = lq_controls_settings(c, cfg, q, it);
        if (!rc) rc = lq_controls_generate(c, cfg, q, it);
        total += it->n;
        c->kinds |= 1u << it->kind;
        c->animated =
            c->animated || it->value_c.n > 1 || it->strength_c.n > 1 || it->path || it->tracks;
    }
    if (!rc && total > LQ_CONTROLS_MAX)
        rc = lq_config_error(cfg, cfg->at_control, "control: %lld particles, more than %d", total,
                             LQ_CONTROLS_MAX);
    c->total = (int)total;
    if (!rc) {
        c->rec = lq_calloc((size_t)LQ_MAX(c->total, 1) * LQ_PLSCONTROL_STRIDE, sizeof(float));
        if (!c->rec) rc = LQ_ESIM;
    }
    if (!rc) lq_controls_eval(c, 0.0);
    return rc;
}

void lq_controls_free(lq_controls *c)
{
    for (int i = 0; c->items && i < c->nitems; i++) {
        lq_controls_item *it = &c->items[i];
        lq_curve_free(&it->value_c);
        lq_curve_free(&it->strength_c);
        lq_path_free(it->path);
        lq_tracks_free(it->tracks);
        free(it->x0);
        free(it->ax0);
        free(it->mv0);
    }
    free(c->items);
    free(c->rec);
    *c = (lq_controls){0};
}

/* --- evaluation ----------------------------------------------------------------------- */

/* One particle's state before packing. */
typedef struct lq_controls_state {
    double x[3], motion[3], vel[3], axis[3];
    double value, strength, radius;
} lq_controls_state;

static void lq_controls_pack(const lq_controls *c, const lq_controls_item *it,
                             const lq_controls_state *p, float *r)
{
    memset(r, 0, LQ_PLSCONTROL_STRIDE * sizeof(float));
    for (int k = 0; k < 3; k++) {
        r[LQ_PLSCONTROL_X + k] = (float)(p->x[k] - c->origin[k]);
        double v =
            it->kind == LQ_PLSCONTROL_VELOCITY ? p->vel[k] + (it->follow ? p->motion[k] : 0) : 0;
        r[LQ_PLSCONTROL_V + k] = (float)v;
        r[LQ_PLSCONTROL_AXIS + k] = (float)p->axis[k];
    }
    if (c->nz == 1) r[LQ_PLSCONTROL_X + 2] = (float)(0.5 * c->h);
    double value = p->value;
    if (it->kind == LQ_PLSCONTROL_VISCOSITY) value = fmax(value, 0);
    double R = p->radius, L = it->half;
    r[LQ_PLSCONTROL_R] = (float)R;
    r[LQ_PLSCONTROL_VALUE] = (float)value;
    r[LQ_PLSCONTROL_HALF] = (float)L;
    r[LQ_PLSCONTROL_STRENGTH] = (float)fmin(fmax(p->strength, 0), 1);
    r[LQ_PLSCONTROL_CODE] = (float)(it->kind + LQ_PLSCONTROL_SHAPE_MUL * it->shape +
                                    LQ_PLSCONTROL_FALL_MUL * it->falloff);
    double e = it->shape == LQ_PLSCONTROL_CYLINDER ? sqrt(R * R + L * L) : R;
    if (it->kind == LQ_PLSCONTROL_ERASER) e += LQ_PLSCONTROL_ERASE_BAND * c->h;
    r[LQ_PLSCONTROL_EXTENT] = (float)(e * (1 + 1e-6));
}

/* A generated particle q of the item at time t (moved rigidly by its path). */
static void lq_controls_generated(const lq_controls_item *it, int q, const double M[9],
                                  const double P[3], const double V[3], const double W[3],
                                  lq_controls_state *p)
{
    const double *x0 = it->x0 + 3 * (size_t)q;
    double a0[3] = {it->axis[0], it->axis[1], it->axis[2]};
    if (it->ax0)
        for (int k = 0; k < 3; k++) a0[k] = it->ax0[3 * (size_t)q + k];
    double m0[3] = {0, 0, 0}; /* its own velocity at rest (a curve's) */
    if (it->mv0)
        for (int k = 0; k < 3; k++) m0[k] = it->mv0[3 * (size_t)q + k];
    if (!it->path) {
        memcpy(p->x, x0, sizeof p->x);
        memcpy(p->axis, a0, sizeof p->axis);
        memcpy(p->motion, m0, sizeof p->motion);
        return;
    }
    double d[3] = {x0[0] - it->p0[0], x0[1] - it->p0[1], x0[2] - it->p0[2]}, rd[3];
    for (int k = 0; k < 3; k++) {
        rd[k] = M[3 * k] * d[0] + M[3 * k + 1] * d[1] + M[3 * k + 2] * d[2];
        p->x[k] = P[k] + rd[k];
        p->axis[k] = M[3 * k] * a0[0] + M[3 * k + 1] * a0[1] + M[3 * k + 2] * a0[2];
    }
    /* v = V + ω × (x − P), plus its own velocity turned with the set */
    p->motion[0] = V[0] + W[1] * rd[2] - W[2] * rd[1];
    p->motion[1] = V[1] + W[2] * rd[0] - W[0] * rd[2];
    p->motion[2] = V[2] + W[0] * rd[1] - W[1] * rd[0];
    for (int k = 0; k < 3; k++)
        p->motion[k] += M[3 * k] * m0[0] + M[3 * k + 1] * m0[1] + M[3 * k + 2] * m0[2];
}

/* The item's particles at t into rec (it->n records). */
static void lq_controls_eval_item(const lq_controls *c, const lq_controls_item *it, double t,
                                  float *rec)
{
    double value = it->value_c.n ? lq_curve_eval(&it->value_c, t) : it->value;
    double strength = it->strength_c.n ? lq_curve_eval(&it->strength_c, t) : it->strength;
    double M[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, P[3] = {0}, V[3] = {0}, W[3] = {0};
    if (it->path) {
        double qt[4], rel[4];
        lq_path_eval(it->path, t, P, qt, V, W);
        lq_quat_mul(qt, it->q0inv, rel);
        lq_quat_to_rot(rel, M);
    }
    for (int q = 0; q < it->n; q++) {
        lq_controls_state p = {.value = value, .strength = strength, .radius = it->radius};
        memcpy(p.vel, it->velocity, sizeof p.vel);
        if (it->tracks) {
            const lq_tracks *ts = it->tracks;
            lq_track_at at;
            lq_tracks_eval(ts, q, t, &at);
            memcpy(p.x, at.pos, sizeof p.x);
            memcpy(p.motion, at.motion, sizeof p.motion);
            memcpy(p.axis, it->axis, sizeof p.axis);
            if (ts->has_vel) memcpy(p.vel, at.vel, sizeof p.vel);
            if (ts->has_value) p.value = at.value;
            if (ts->has_strength) p.strength = strength * at.strength;
            if (ts->has_radius) p.radius = at.radius;
        } else {
            lq_controls_generated(it, q, M, P, V, W, &p);
        }
        lq_controls_pack(c, it, &p, rec + (size_t)q * LQ_PLSCONTROL_STRIDE);
    }
}

void lq_controls_eval(lq_controls *c, double t)
{
    size_t at = 0;
    for (int i = 0; i < c->nitems; i++) {
        lq_controls_eval_item(c, &c->items[i], t, c->rec + at * LQ_PLSCONTROL_STRIDE);
        at += (size_t)c->items[i].n;
    }
}
