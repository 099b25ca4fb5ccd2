/*
 * macbody.c — buoyant rigid bodies of the `mac` solver (Foster & Metaxas 1996 §5; see
 * macbody.h): node lattices at creation, the force launcher, the host-side sums,
 * integration and collisions, records and checkpoints. Nothing here allocates in the
 * step loop.
 */
#include "ops/mac/macbody.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/checkpoint.h"
#include "core/common.h"
#include "scene/path.h"

static const char *const lq_macbody_sources[] = {
    "kernels/common/lq_shared.h", "kernels/common/mac_grid.h", "kernels/mac/markers_cell.h",
    "kernels/mac/macbody_cell.h", "kernels/mac/macbody.cl"};

#define IS_REF(ctx) ((ctx)->backend == LQ_BACKEND_REF)

/* The module's kernels (ops_init builds them, ops_release frees them). */
static const lq_kernel_slot lq_macbody_kernels[] = {
    LQ_KERNEL(lq_macbody_ops, forces, "macbody_forces"),
    LQ_KERNEL(lq_macbody_ops, mark, "macbody_mark"),
    LQ_KERNEL(lq_macbody_ops, face, "macbody_face"),
    LQ_KERNEL(lq_macbody_ops, bpress, "macbody_body_pressure"),
    LQ_KERNEL(lq_macbody_ops, markers, "macbody_markers"),
};
static const lq_program lq_macbody_program =
    LQ_PROGRAM("XYZ", lq_macbody_sources, lq_macbody_kernels);

int lq_macbody_ops_init(lq_macbody_ops *o, lq_ctx *ctx, int nx, int ny, int nz)
{
    *o = (lq_macbody_ops){.ctx = ctx, .nx = nx, .ny = ny, .nz = nz};
    return lq_program_build(&lq_macbody_program, o, &o->program, ctx, nx, ny, nz, "");
}

void lq_macbody_ops_release(lq_macbody_ops *o)
{
    lq_program_release(&lq_macbody_program, o, &o->program);
}

/* --- shapes ---------------------------------------------------------------------- */

static double lq_macbody_volume(int shape, const double a[3])
{
    double abc = a[0] * a[1] * a[2];
    if (shape == LQ_SHAPE_BOX) return 8 * abc;
    if (shape == LQ_MACBODY_CYLINDER) return LQ_PI * a[0] * a[0] * 2 * a[1];
    return 4.0 / 3.0 * LQ_PI * abc;
}

static int lq_macbody_inside(int shape, const double a[3], const double b[3])
{
    if (shape == LQ_SHAPE_BOX) return 1;
    if (shape == LQ_MACBODY_CYLINDER)
        return (b[0] * b[0] + b[2] * b[2]) / (a[0] * a[0]) <= 1.0 && fabs(b[1]) <= a[1];
    double s = 0;
    for (int j = 0; j < 3; j++) s += b[j] * b[j] / (a[j] * a[j]);
    return s <= 1.0;
}

/* The body lattice along one axis: n nodes at −a + (i + ½) 2a/n, spacing ≤ hn. */
static int lq_macbody_count(double a, double hn)
{
    int n = (int)ceil(2 * a / hn - 1e-9);
    return n < 1 ? 1 : n;
}

/* Writes the nodes of shape `a` (NULL: counts only); returns their number. */
static int lq_macbody_lattice(int shape, const double a[3], double hn, float *nodes)
{
    int c[3], m = 0;
    for (int j = 0; j < 3; j++) c[j] = lq_macbody_count(a[j], hn);
    for (int k = 0; k < c[2]; k++)
        for (int j = 0; j < c[1]; j++)
            for (int i = 0; i < c[0]; i++) {
                int ii[3] = {i, j, k};
                double b[3];
                for (int q = 0; q < 3; q++) b[q] = -a[q] + (ii[q] + 0.5) * 2 * a[q] / c[q];
                if (!lq_macbody_inside(shape, a, b)) continue;
                if (nodes)
                    for (int q = 0; q < 3; q++) nodes[4 * m + q] = (float)b[q];
                m++;
            }
    if (m == 0) { /* smaller than the lattice: one node at the centre */
        if (nodes) nodes[0] = nodes[1] = nodes[2] = 0.0f;
        m = 1;
    }
    return m;
}

/* --- creation -------------------------------------------------------------------- */

int lq_macbody_init(lq_macbody_set *s, lq_ctx *ctx, int n, const lq_macbody_desc *d, int nx, int ny,
                    int nz, double dx, const double origin[3], double rho,
                    const unsigned char *flags)
{
    int rc = LQ_OK;
    float *nodes = NULL;
    int *nb = NULL;
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    s->n = n;
    s->nx = nx;
    s->ny = ny;
    s->nz = nz;
    s->dx = dx;
    s->rho = rho;
    memcpy(s->origin, origin, sizeof s->origin);
    size_t cells = (size_t)nx * ny * nz;
    s->b = lq_calloc((size_t)n + 1, sizeof *s->b);
    s->rec = lq_calloc((size_t)n + 1, sizeof *s->rec);
    s->solid = lq_calloc(cells, 1);
    if (!s->b || !s->rec || !s->solid) goto oom;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                size_t c = LQ_MAC_CELL(i, j, k, nx, ny);
                int wall = i == 0 || j == 0 || i == nx - 1 || j == ny - 1 ||
                           (nz > 1 && (k == 0 || k == nz - 1));
                s->solid[c] = (unsigned char)(wall || (flags && flags[c] == LQ_MAC_SOLID));
            }
    double hn = 0.5 * dx;
    int groups = 0;
    for (int i = 0; i < n; i++) {
        lq_macbody_item *it = &s->b[i];
        const lq_macbody_desc *e = &d[i];
        int box = e->shape == LQ_SHAPE_BOX || e->shape == LQ_MACBODY_CYLINDER;
        lq_body_init(&it->body, box ? LQ_SHAPE_BOX : e->shape, e->half, e->density, e->pos, e->vel,
                     e->q);
        if (e->shape == LQ_MACBODY_CYLINDER) { /* a solid can: m, m r²/2, m (3 r² + h²)/12 */
            double r = e->half[0], h = 2 * e->half[1],
                   m = e->density * lq_macbody_volume(e->shape, e->half);
            it->body.half[2] = r;
            it->body.mass = m;
            it->body.inertia[1] = m * r * r / 2;
            it->body.inertia[0] = it->body.inertia[2] = m * (3 * r * r + h * h) / 12;
        }
        memcpy(it->body.omega, e->omega, sizeof e->omega);
        it->body.restitution = e->restitution;
        it->shape = e->shape;
        it->damping = e->damping;
        it->two_way = e->two_way;
        s->ntwo_way += e->two_way != 0;
        snprintf(it->name, sizeof it->name, "%s", e->name);
        memcpy(it->rgb, e->rgb, sizeof it->rgb);
        it->nnodes = lq_macbody_lattice(e->shape, it->body.half, hn, NULL);
        it->group0 = groups;
        it->ngroups = (it->nnodes + LQ_MACBODY_LOCAL - 1) / LQ_MACBODY_LOCAL;
        groups += it->ngroups;
    }
    s->ngroups = groups;
    size_t slots = (size_t)LQ_MAX(groups, 1) * LQ_MACBODY_LOCAL;
    nodes = lq_calloc(slots * 4, sizeof(float));
    nb = lq_alloc(slots * sizeof(int));
    s->hb = lq_calloc((size_t)LQ_MAX(n, 1) * LQ_MACBODY_B_STRIDE, sizeof(float));
    s->hout = lq_calloc((size_t)LQ_MAX(groups, 1) * LQ_MACBODY_OUT, sizeof(float));
    if (!nodes || !nb || !s->hb || !s->hout) goto oom;
    for (size_t q = 0; q < slots; q++) nb[q] = -1;
    for (int i = 0; i < n; i++) {
        lq_macbody_item *it = &s->b[i];
        size_t at = (size_t)it->group0 * LQ_MACBODY_LOCAL;
        lq_macbody_lattice(it->shape, it->body.half, hn, nodes + 4 * at);
        float dV = (float)(lq_macbody_volume(it->shape, it->body.half) / it->nnodes);
        for (int q = 0; q < it->nnodes; q++) {
            nodes[4 * (at + q) + 3] = dV;
            nb[at + q] = i;
        }
    }
    rc = lq_field_alloc(ctx, &s->nodes, "body_nodes", 4, (int)slots, 1, 4);
    if (!rc) rc = lq_field_alloc(ctx, &s->nbody, "body_of_node", (int)slots, 1, 1, 4);
    if (!rc)
        rc = lq_field_alloc(ctx, &s->bodies, "bodies", LQ_MACBODY_B_STRIDE, LQ_MAX(n, 1), 1, 4);
    if (!rc)
        rc = lq_field_alloc(ctx, &s->out, "body_sums", LQ_MACBODY_OUT, LQ_MAX(groups, 1), 1, 4);
    if (!rc) rc = lq_field_upload(&s->nodes, nodes);
    if (!rc) rc = lq_field_upload(&s->nbody, nb);
    if (!rc) rc = lq_field_zero(&s->bodies, 0);
    if (!rc) rc = lq_field_zero(&s->out, 0);
    if (!rc && s->ntwo_way) rc = lq_field_alloc(ctx, &s->pscratch, "body_p", nx, ny, nz, 4);
    free(nodes);
    free(nb);
    if (rc) lq_macbody_release(s);
    return rc;
oom:
    free(nodes);
    free(nb);
    lq_macbody_release(s);
    return LQ_ESIM;
}

/* Rotation about x, then y, then z (world axes), degrees → quaternion (as splash). */
static void lq_macbody_euler_quat(const double deg[3], double q[4])
{
    double out[4] = {1, 0, 0, 0};
    for (int a = 0; a < 3; a++) {
        double h = deg[a] * LQ_PI / 360.0, r[4] = {cos(h), 0, 0, 0};
        r[1 + a] = sin(h);
        lq_quat_mul(r, out, out);
    }
    memcpy(q, out, sizeof out);
}

int lq_macbody_from_scene(lq_macbody_set *s, lq_ctx *ctx, const lq_config *cfg, int nx, int ny,
                          int nz, double dx, const double origin[3], double rho,
                          const unsigned char *flags)
{
    int n = cfg->nobjects;
    lq_macbody_desc *d = lq_calloc((size_t)n + 1, sizeof *d);
    if (!d) return LQ_ESIM;
    int rc = LQ_OK;
    for (int i = 0; i < n && !rc; i++) {
        const lq_config_object *q = &cfg->objects[i];
        lq_macbody_desc *e = &d[i];
        if (q->path_file) {
            rc = lq_config_error(cfg, q->at_path_file, "solver 'mac' has no scripted objects yet");
            break;
        }
        memcpy(e->pos, q->center, sizeof e->pos);
        if (q->kind == LQ_CONFIG_OBJECT_SPHERE) {
            e->shape = LQ_SHAPE_SPHERE;
            e->half[0] = e->half[1] = e->half[2] = q->radius;
        } else if (q->kind == LQ_CONFIG_OBJECT_ELLIPSOID) {
            e->shape = LQ_SHAPE_ELLIPSOID;
            memcpy(e->half, q->radii, sizeof e->half);
        } else if (q->kind == LQ_CONFIG_OBJECT_BOX) {
            e->shape = LQ_SHAPE_BOX;
            for (int a = 0; a < 3; a++) e->half[a] = q->size[a] * 0.5;
        } else if (q->kind == LQ_CONFIG_OBJECT_CYLINDER) {
            e->shape = LQ_MACBODY_CYLINDER;
            e->half[0] = e->half[2] = q->radius;
            e->half[1] = 0.5 * q->height;
        } else {
            rc = lq_config_error(cfg, q->at_kind, "object '%s' is not supported by solver 'mac'",
                                 q->kind_word);
            break;
        }
        e->density = q->density;
        memcpy(e->vel, q->velocity, sizeof e->vel);
        memcpy(e->omega, q->spin, sizeof e->omega);
        lq_macbody_euler_quat(q->rotation, e->q);
        e->damping = q->drag;
        e->restitution = q->restitution;
        e->two_way = q->two_way;
        for (int a = 0; a < 3; a++) e->rgb[a] = (float)q->color[a];
        if (q->name)
            snprintf(e->name, sizeof e->name, "%s", q->name);
        else
            snprintf(e->name, sizeof e->name, "%s%d", q->kind_word, i);
    }
    if (!rc) rc = lq_macbody_init(s, ctx, n, d, nx, ny, nz, dx, origin, rho, flags);
    free(d);
    return rc;
}

void lq_macbody_release(lq_macbody_set *s)
{
    lq_field *fs[] = {&s->nodes, &s->nbody, &s->bodies, &s->out, &s->pscratch};
    for (size_t i = 0; i < LQ_COUNT(fs); i++)
        if (fs[i]->ctx) lq_field_release(fs[i]);
    free(s->b);
    free(s->rec);
    free(s->solid);
    free(s->hb);
    free(s->hout);
    memset(s, 0, sizeof *s);
}

/* --- forces (eq. 13–16) ------------------------------------------------------------ */

/* The per-body rows (LQ_MB_B_*) from the bodies' state now, uploaded. */
static int lq_macbody_upload(lq_macbody_set *s)
{
    for (int i = 0; i < s->n; i++) {
        const lq_body *b = &s->b[i].body;
        float *B = s->hb + (size_t)i * LQ_MACBODY_B_STRIDE;
        double R[9];
        lq_body_rotation(b, R);
        for (int a = 0; a < 3; a++) {
            B[LQ_MACBODY_B_POS + a] = (float)(b->pos[a] - s->origin[a]);
            B[LQ_MACBODY_B_VEL + a] = (float)b->vel[a];
            B[LQ_MACBODY_B_OMEGA + a] = (float)b->omega[a];
            B[LQ_MACBODY_B_IHALF + a] = (float)(1.0 / b->half[a]);
        }
        for (int a = 0; a < 9; a++) B[LQ_MACBODY_B_ROT + a] = (float)R[a];
        B[LQ_MACBODY_B_RHO] = (float)s->rho;
        B[LQ_MACBODY_B_DAMP] = (float)s->b[i].damping;
        B[LQ_MACBODY_B_SHAPE] = (float)s->b[i].shape;
        B[LQ_MACBODY_B_TWOWAY] = s->b[i].two_way ? 1.0f : 0.0f;
        float vv = B[LQ_MACBODY_B_VEL] * B[LQ_MACBODY_B_VEL] +
                   B[LQ_MACBODY_B_VEL + 1] * B[LQ_MACBODY_B_VEL + 1] +
                   B[LQ_MACBODY_B_VEL + 2] * B[LQ_MACBODY_B_VEL + 2];
        B[LQ_MACBODY_B_IVV] = vv > 1e-12f ? 1.0f / vv : 0.0f; /* at rest: no mirroring */
    }
    return lq_field_upload(&s->bodies, s->hb);
}

int lq_macbody_forces(lq_macbody_ops *o, lq_macbody_set *s, const lq_field *p, const lq_field *u,
                      const lq_field *v, const lq_field *w, const lq_field *flags)
{
    return lq_macbody_forces_owned(o, s, p, u, v, w, flags, NULL);
}

int lq_macbody_forces_owned(lq_macbody_ops *o, lq_macbody_set *s, const lq_field *p,
                            const lq_field *u, const lq_field *v, const lq_field *w,
                            const lq_field *flags, const lq_field *owner)
{
    assert(o->nx == s->nx && o->ny == s->ny && o->nz == s->nz);
    assert(p->count == (size_t)s->nx * s->ny * s->nz && flags->count == p->count);
    assert(!owner || owner->count == p->count);
    if (s->n == 0) return LQ_OK;
    int rc = lq_macbody_upload(s);
    if (rc) return rc;
    float idx = (float)(1.0 / s->dx), idy = idx, idz = idx;
    if (IS_REF(o->ctx)) {
        lq_macbody_ref_forces(&s->nodes, &s->nbody, &s->bodies, s->ngroups, p, u, v, w, flags,
                              owner, idx, idy, idz, &s->out);
    } else {
        int use = owner != NULL;
        const lq_field *ow = owner ? owner : &s->nbody; /* an int buffer the kernel ignores */
        lq_arg a[] = {LQ_MEM(&s->nodes), LQ_MEM(&s->nbody), LQ_MEM(&s->bodies), LQ_MEM(p),
                      LQ_MEM(u),         LQ_MEM(v),         LQ_MEM(w),          LQ_MEM(flags),
                      LQ_MEM(ow),        LQ_VAL(use),       LQ_VAL(idx),        LQ_VAL(idy),
                      LQ_VAL(idz),       LQ_MEM(&s->out)};
        lq_range groups = lq_range_1d((size_t)s->ngroups * LQ_MACBODY_LOCAL, LQ_MACBODY_LOCAL);
        rc = lq_kernel_launch(&o->forces, groups, LQ_ARGS(a));
        if (rc) return rc;
    }
    rc = lq_field_download(&s->out, s->hout);
    if (rc) return rc;
    for (int i = 0; i < s->n; i++) {
        lq_macbody_item *it = &s->b[i];
        double sum[LQ_MACBODY_OUT] = {0};
        for (int g = it->group0; g < it->group0 + it->ngroups; g++)
            for (int q = 0; q < LQ_MACBODY_OUT; q++)
                sum[q] += s->hout[(size_t)g * LQ_MACBODY_OUT + q];
        for (int a = 0; a < 3; a++) {
            it->force[a] = sum[a];
            it->torque[a] = sum[3 + a];
        }
        it->vsub = sum[6];
    }
    return LQ_OK;
}

/* --- two-way coupling ---------------------------------------------------------------- */

/* One work-item per cell. */
static lq_range lq_macbody_cells(const lq_macbody_ops *o)
{
    return lq_range_3d((size_t)o->nx, (size_t)o->ny, (size_t)o->nz);
}

int lq_macbody_mark(lq_macbody_ops *o, lq_macbody_set *s, lq_field *flags,
                    const lq_field *static_flags, lq_field *owner)
{
    assert(flags->count == (size_t)s->nx * s->ny * s->nz && owner->count == flags->count &&
           owner->elem == 4 && static_flags->count == flags->count);
    if (s->ntwo_way == 0) return LQ_OK;
    int rc = lq_macbody_upload(s);
    if (rc) return rc;
    float h = (float)s->dx;
    int nb = s->n;
    if (IS_REF(o->ctx)) {
        lq_macbody_ref_mark(flags, static_flags, owner, &s->bodies, nb, h);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(flags),      LQ_MEM(static_flags), LQ_MEM(owner),
                  LQ_MEM(&s->bodies), LQ_VAL(nb),           LQ_VAL(h)};
    return lq_kernel_launch(&o->mark, lq_macbody_cells(o), LQ_ARGS(a));
}

int lq_macbody_markers(lq_macbody_ops *o, lq_macbody_set *s, lq_field *pos, int n,
                       const lq_field *owner)
{
    assert(owner->count == (size_t)s->nx * s->ny * s->nz && owner->elem == 4);
    if (s->ntwo_way == 0 || n == 0) return LQ_OK;
    int rc = lq_macbody_upload(s);
    if (rc) return rc;
    float idx = (float)(1.0 / s->dx);
    if (IS_REF(o->ctx)) {
        lq_macbody_ref_markers(pos, n, owner, &s->bodies, idx, idx, idx);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(pos), LQ_VAL(n),   LQ_MEM(owner), LQ_MEM(&s->bodies),
                  LQ_VAL(idx), LQ_VAL(idx), LQ_VAL(idx)};
    return lq_kernel_launch(&o->markers, lq_range_1d((size_t)n, LQ_MACBODY_LOCAL), LQ_ARGS(a));
}

int lq_macbody_face_velocity(lq_macbody_ops *o, lq_macbody_set *s, lq_field *u, lq_field *v,
                             lq_field *w, const lq_field *flags, const lq_field *owner)
{
    assert(owner->count == (size_t)s->nx * s->ny * s->nz && owner->elem == 4);
    if (s->ntwo_way == 0) return LQ_OK;
    int rc = lq_macbody_upload(s);
    if (rc) return rc;
    float h = (float)s->dx;
    if (IS_REF(o->ctx)) {
        lq_macbody_ref_face(u, v, w, flags, owner, &s->bodies, h);
        return LQ_OK;
    }
    lq_arg a[] = {LQ_MEM(u),     LQ_MEM(v),          LQ_MEM(w), LQ_MEM(flags),
                  LQ_MEM(owner), LQ_MEM(&s->bodies), LQ_VAL(h)};
    return lq_kernel_launch(&o->face, lq_macbody_cells(o), LQ_ARGS(a));
}

int lq_macbody_body_pressure(lq_macbody_ops *o, lq_macbody_set *s, lq_field *p,
                             const lq_field *flags, const lq_field *owner, int passes)
{
    assert(p->count == (size_t)s->nx * s->ny * s->nz && owner->count == p->count);
    if (s->ntwo_way == 0) return LQ_OK;
    passes = passes < 2 ? 2 : passes + (passes & 1); /* even: the result lands in p */
    int rc = LQ_OK;
    for (int q = 0; q < passes && !rc; q++) {
        lq_field *src = q & 1 ? &s->pscratch : p, *dst = q & 1 ? p : &s->pscratch;
        int first = q == 0, last = q == passes - 1;
        if (IS_REF(o->ctx)) {
            lq_macbody_ref_body_pressure(src, dst, flags, owner, first, last);
        } else {
            lq_arg a[] = {LQ_MEM(src),   LQ_MEM(dst),   LQ_MEM(flags),
                          LQ_MEM(owner), LQ_VAL(first), LQ_VAL(last)};
            rc = lq_kernel_launch(&o->bpress, lq_macbody_cells(o), LQ_ARGS(a));
        }
    }
    return rc;
}

/* --- motion and collisions ---------------------------------------------------------- */

/* Pushes the body out of the static SOLID cells inside the domain (not the wall layer,
 * which lq_body_collide_box handles), a few rounds, the deepest contact first. A ball
 * (sphere) meets each cell at the cell's nearest point to its centre (exact); other
 * shapes meet it with their world bounding box (exact extents, lq_body_extent; a tilted
 * box or can is held off a little early), separated along the cell axis of least
 * overlap whose face is open (the neighbour that way is not SOLID), so a body resting
 * on a flat floor of cells is pushed up, not sideways off the cells' edges. */
static void lq_macbody_collide_solids(lq_macbody_set *s, lq_macbody_item *it)
{
    lq_body *b = &it->body;
    int nx = s->nx, ny = s->ny, nz = s->nz, nn[3] = {nx, ny, nz};
    int stride[3] = {1, nx, nx * ny};
    for (int round = 0; round < 4; round++) {
        double e[3], best = 0, bn[3] = {0, 0, 0};
        int lo[3], hi[3];
        for (int a = 0; a < 3; a++) {
            e[a] = lq_body_extent(b, a);
            lo[a] = (int)floor((b->pos[a] - e[a] - s->origin[a]) / s->dx);
            hi[a] = (int)floor((b->pos[a] + e[a] - s->origin[a]) / s->dx);
            lo[a] = LQ_MAX(lo[a], 1);
            hi[a] = LQ_MIN(hi[a], nn[a] - 2);
        }
        if (nz == 1) lo[2] = hi[2] = 0;
        for (int k = lo[2]; k <= hi[2]; k++)
            for (int j = lo[1]; j <= hi[1]; j++)
                for (int i = lo[0]; i <= hi[0]; i++) {
                    int c = LQ_MAC_CELL(i, j, k, nx, ny), ijk[3] = {i, j, k};
                    if (!s->solid[c]) continue;
                    double c0[3], c1[3], pen = 0, n[3] = {0, 0, 0};
                    for (int a = 0; a < 3; a++) {
                        c0[a] = s->origin[a] + ijk[a] * s->dx;
                        c1[a] = c0[a] + s->dx;
                    }
                    if (it->shape == LQ_SHAPE_SPHERE) {
                        double d[3], dist = 0;
                        for (int a = 0; a < 3; a++) {
                            double cp = b->pos[a] < c0[a]   ? c0[a]
                                        : b->pos[a] > c1[a] ? c1[a]
                                                            : b->pos[a];
                            d[a] = (nz == 1 && a == 2) ? 0 : b->pos[a] - cp;
                            dist += d[a] * d[a];
                        }
                        dist = sqrt(dist);
                        if (dist <= 1e-12) continue; /* centre inside an obstacle: leave it */
                        pen = b->half[0] - dist;
                        for (int a = 0; a < 3; a++) n[a] = d[a] / dist;
                    } else {
                        pen = INFINITY;
                        for (int a = 0; a < (nz == 1 ? 2 : 3); a++)
                            for (int sg = -1; sg <= 1; sg += 2) {
                                int nb = ijk[a] + sg;
                                if (nb >= 0 && nb < nn[a] && s->solid[c + sg * stride[a]])
                                    continue; /* an inner face */
                                double o = sg > 0 ? c1[a] - (b->pos[a] - e[a])
                                                  : (b->pos[a] + e[a]) - c0[a];
                                if (o < pen) {
                                    pen = o;
                                    n[0] = n[1] = n[2] = 0;
                                    n[a] = sg;
                                }
                            }
                        /* overlap needs every axis to overlap */
                        for (int a = 0; a < (nz == 1 ? 2 : 3); a++)
                            if (b->pos[a] + e[a] <= c0[a] || b->pos[a] - e[a] >= c1[a]) pen = 0;
                        if (!isfinite(pen)) pen = 0;
                    }
                    if (pen > best) {
                        best = pen;
                        memcpy(bn, n, sizeof bn);
                    }
                }
        if (best <= 0) return;
        double vn = 0;
        for (int a = 0; a < 3; a++) {
            b->pos[a] += best * bn[a];
            vn += b->vel[a] * bn[a];
        }
        if (vn < 0) /* moving into it: reflect the normal part with the restitution */
            for (int a = 0; a < 3; a++) b->vel[a] -= (1 + b->restitution) * vn * bn[a];
    }
}

static double lq_macbody_clamp1(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The closest points of the segments p0 + s d0 and p1 + t d1 (s, t in [-1, 1]; d: half
 * the segment), as parameters (Ericson, Real-Time Collision Detection, §5.1.9). */
static void lq_macbody_segments(const double p0[3], const double d0[3], const double p1[3],
                                const double d1[3], double *s_out, double *t_out)
{
    double r[3], a = 0, e = 0, b = 0, c = 0, f = 0;
    for (int k = 0; k < 3; k++) {
        r[k] = p0[k] - p1[k];
        a += d0[k] * d0[k];
        e += d1[k] * d1[k];
        b += d0[k] * d1[k];
        c += d0[k] * r[k];
        f += d1[k] * r[k];
    }
    double s = 0, t = 0, den = a * e - b * b;
    if (a <= 1e-18 && e <= 1e-18) {
        *s_out = *t_out = 0;
        return;
    }
    if (a <= 1e-18) {
        t = lq_macbody_clamp1(f / e, -1.0, 1.0);
    } else if (e <= 1e-18) {
        s = lq_macbody_clamp1(-c / a, -1.0, 1.0);
    } else {
        /* parallel segments (den 0): any s; the middle of the overlap is taken below */
        s = den > 1e-12 * a * e ? lq_macbody_clamp1((b * f - c * e) / den, -1.0, 1.0) : 0;
        t = (b * s + f) / e;
        if (t < -1 || t > 1) {
            t = lq_macbody_clamp1(t, -1.0, 1.0);
            s = lq_macbody_clamp1((b * t - c) / a, -1.0, 1.0);
        }
    }
    *s_out = s;
    *t_out = t;
}

/* Two cans: each is taken as a capsule, the segment of its axis shortened by its radius
 * at both ends, swollen by the radius (exact side to side and end to end, the rims
 * rounded), instead of the bounding spheres of their boxes, which held lying cans
 * 0.15 m apart where they touch at 0.066 m (the soda cans scene). Position correction
 * and impulse on the centres, as lq_body_collide_pair (no spin exchanged). */
static void lq_macbody_collide_cans(lq_body *a, lq_body *b)
{
    double wa = 1 / a->mass, wb = 1 / b->mass, ra = a->half[0], rb = b->half[0];
    double rot_a[9], rot_b[9], da[3], db[3], sa, sb, ca[3], cb[3], d[3], n[3] = {0, 1, 0};
    double la = LQ_MAX(a->half[1] - ra, 0), lb = LQ_MAX(b->half[1] - rb, 0);
    lq_body_rotation(a, rot_a);
    lq_body_rotation(b, rot_b);
    for (int k = 0; k < 3; k++) { /* the body's y axis in world coordinates */
        da[k] = rot_a[3 * k + 1] * la;
        db[k] = rot_b[3 * k + 1] * lb;
    }
    lq_macbody_segments(a->pos, da, b->pos, db, &sa, &sb);
    double dist = 0;
    for (int k = 0; k < 3; k++) {
        ca[k] = a->pos[k] + sa * da[k];
        cb[k] = b->pos[k] + sb * db[k];
        d[k] = cb[k] - ca[k];
        dist += d[k] * d[k];
    }
    dist = sqrt(dist);
    double pen = ra + rb - dist;
    if (pen <= 0) return;
    if (dist > 1e-12)
        for (int k = 0; k < 3; k++) n[k] = d[k] / dist; /* crossing axes: push along y */
    double vrel = 0;
    for (int k = 0; k < 3; k++) {
        a->pos[k] -= n[k] * pen * wa / (wa + wb);
        b->pos[k] += n[k] * pen * wb / (wa + wb);
        vrel += (b->vel[k] - a->vel[k]) * n[k];
    }
    if (vrel >= 0) return; /* already separating */
    double e = LQ_MIN(a->restitution, b->restitution);
    double j = -(1 + e) * vrel / (wa + wb);
    for (int k = 0; k < 3; k++) {
        a->vel[k] -= j * wa * n[k];
        b->vel[k] += j * wb * n[k];
    }
}

void lq_macbody_integrate(lq_macbody_set *s, double dt, double t_new, const double g[3])
{
    double lo[3], hi[3], n3[3] = {s->nx, s->ny, s->nz};
    for (int a = 0; a < 3; a++) {
        lo[a] = s->origin[a] + s->dx;
        hi[a] = s->origin[a] + (n3[a] - 1) * s->dx;
    }
    if (s->nz == 1) {
        lo[2] = -INFINITY;
        hi[2] = INFINITY;
    }
    for (int i = 0; i < s->n; i++) {
        lq_macbody_item *it = &s->b[i];
        lq_body_step(&it->body, dt, t_new, it->force, it->torque, g); /* eq. 16 */
        it->frame_fy += it->force[1] * dt;
        it->frame_t += dt;
        lq_body_collide_box(&it->body, lo, hi);
        lq_macbody_collide_solids(s, it);
    }
    for (int i = 0; i < s->n; i++)
        for (int j = i + 1; j < s->n; j++) {
            if (s->b[i].shape == LQ_MACBODY_CYLINDER && s->b[j].shape == LQ_MACBODY_CYLINDER)
                lq_macbody_collide_cans(&s->b[i].body, &s->b[j].body);
            else
                lq_body_collide_pair(&s->b[i].body, &s->b[j].body);
        }
}

double lq_macbody_dt_limit(const lq_macbody_set *s, double g)
{
    double lim = INFINITY;
    for (int i = 0; i < s->n; i++) {
        const lq_macbody_item *it = &s->b[i];
        double vol = lq_macbody_volume(it->shape, it->body.half), rb = it->body.mass / vol;
        double rate = it->damping * s->rho / rb;
        double draft = fmax(0.5 * s->dx, (rb / s->rho) * 2 * it->body.half[1]);
        rate = fmax(rate, sqrt(fabs(g) / draft));
        if (rate > 0) lim = fmin(lim, 0.5 / rate);
    }
    return lim;
}

/* --- records and checkpoints --------------------------------------------------------- */

int lq_macbody_records(lq_macbody_set *s, const lq_object_record **rec, int *n)
{
    for (int i = 0; i < s->n; i++) {
        lq_macbody_item *it = &s->b[i];
        lq_object_record *r = &s->rec[i];
        r->name = it->name;
        memcpy(r->pos, it->body.pos, sizeof r->pos);
        memcpy(r->q, it->body.q, sizeof r->q);
        memcpy(r->vel, it->body.vel, sizeof r->vel);
        memcpy(r->omega, it->body.omega, sizeof r->omega);
        r->force = it->frame_t > 0 ? it->frame_fy / it->frame_t : it->force[1];
        it->frame_fy = it->frame_t = 0;
        /* a can is drawn as its box (shape.h has no cylinder) */
        lq_body_view(&it->body, it->rgb[0], it->rgb[1], it->rgb[2], &r->view);
    }
    *rec = s->rec;
    *n = s->n;
    return LQ_OK;
}

typedef struct lq_macbody_ckpt {
    double pos[3], vel[3], q[4], omega[3], force[3], torque[3], vsub, frame_fy, frame_t;
} lq_macbody_ckpt;

int lq_macbody_save(const lq_macbody_set *s, FILE *f)
{
    int32_t n = s->n;
    int rc = lq_checkpoint_put(f, &n, sizeof n);
    for (int i = 0; i < s->n && !rc; i++) {
        const lq_macbody_item *it = &s->b[i];
        lq_macbody_ckpt c;
        memcpy(c.pos, it->body.pos, sizeof c.pos);
        memcpy(c.vel, it->body.vel, sizeof c.vel);
        memcpy(c.q, it->body.q, sizeof c.q);
        memcpy(c.omega, it->body.omega, sizeof c.omega);
        memcpy(c.force, it->force, sizeof c.force);
        memcpy(c.torque, it->torque, sizeof c.torque);
        c.vsub = it->vsub;
        c.frame_fy = it->frame_fy;
        c.frame_t = it->frame_t;
        rc = lq_checkpoint_put(f, &c, sizeof c);
    }
    return rc;
}

int lq_macbody_load(lq_macbody_set *s, FILE *f)
{
    int32_t n = 0;
    int rc = lq_checkpoint_get(f, &n, sizeof n);
    if (rc) return rc;
    if (n != s->n)
        return lq_error(LQ_EINPUT, "the checkpoint has %d bodies, the scene %d", n, s->n);
    for (int i = 0; i < s->n && !rc; i++) {
        lq_macbody_item *it = &s->b[i];
        lq_macbody_ckpt c;
        rc = lq_checkpoint_get(f, &c, sizeof c);
        if (rc) break;
        memcpy(it->body.pos, c.pos, sizeof c.pos);
        memcpy(it->body.vel, c.vel, sizeof c.vel);
        memcpy(it->body.q, c.q, sizeof c.q);
        memcpy(it->body.omega, c.omega, sizeof c.omega);
        memcpy(it->force, c.force, sizeof c.force);
        memcpy(it->torque, c.torque, sizeof c.torque);
        it->vsub = c.vsub;
        it->frame_fy = c.frame_fy;
        it->frame_t = c.frame_t;
    }
    return rc;
}
