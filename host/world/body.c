/*
 * body.c — rigid and scripted bodies of the splash solver (O'Brien & Hodgins 1995 §4;
 * see body.h for every formula).
 *
 * Method: semi-implicit (symplectic) Euler for the centre; the angular momentum
 * L = I_w ω is the rotational state that torque changes (so the gyroscopic term of
 * Euler's equations is exact and L is conserved without torque), and the orientation
 * advances by the exponential map at the midpoint angular velocity. Collisions are
 * impulses on the centre: against the domain walls with the exact support function of
 * the shape, between bodies with bounding spheres. Scripted bodies take everything
 * from their path and are kinematic in collisions.
 *
 * Invariants: q unit after every call; ω = I_w⁻¹ L at the body's current orientation.
 */
#include "world/body.h"

#include "core/common.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void lq_body_cross(const double a[3], const double b[3], double out[3])
{
    double x = a[1] * b[2] - a[2] * b[1];
    double y = a[2] * b[0] - a[0] * b[2];
    double z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* out = R diag(d) Rᵀ v (R row-major); out may alias v. */
static void lq_body_sandwich(const double R[9], const double d[3], const double v[3], double out[3])
{
    double w[3];
    for (int j = 0; j < 3; j++) w[j] = d[j] * (R[j] * v[0] + R[3 + j] * v[1] + R[6 + j] * v[2]);
    for (int i = 0; i < 3; i++)
        out[i] = R[3 * i] * w[0] + R[3 * i + 1] * w[1] + R[3 * i + 2] * w[2];
}

static void lq_body_normalize4(double q[4])
{
    double s = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++) q[k] /= s;
}

void lq_body_init(lq_body *b, int shape, const double half[3], double density, const double pos[3],
                  const double vel[3], const double q[4])
{
    assert(shape == LQ_SHAPE_SPHERE || shape == LQ_SHAPE_ELLIPSOID || shape == LQ_SHAPE_BOX);
    assert(half[0] > 0 && density > 0);
    memset(b, 0, sizeof *b);
    b->shape = shape;
    for (int k = 0; k < 3; k++) b->half[k] = shape == LQ_SHAPE_SPHERE ? half[0] : half[k];
    assert(b->half[1] > 0 && b->half[2] > 0);
    b->mass = density * lq_body_volume(b);
    double a2 = b->half[0] * b->half[0], b2 = b->half[1] * b->half[1];
    double c2 = b->half[2] * b->half[2];
    /* solid ellipsoid: m/5 (b² + c²); solid box of edges 2a, 2b, 2c: m/3 (b² + c²) */
    double f = shape == LQ_SHAPE_BOX ? b->mass / 3 : b->mass / 5;
    b->inertia[0] = f * (b2 + c2);
    b->inertia[1] = f * (a2 + c2);
    b->inertia[2] = f * (a2 + b2);
    memcpy(b->pos, pos, sizeof b->pos);
    if (vel) memcpy(b->vel, vel, sizeof b->vel);
    b->q[0] = 1;
    if (q) {
        memcpy(b->q, q, sizeof b->q);
        lq_body_normalize4(b->q);
    }
    b->restitution = 0.5;
    b->friction = 0.3;
    b->q_local[0] = 1;
}

void lq_body_attach(lq_body *b, const struct lq_path *p, const double offset[3],
                    const double q_local[4], double t)
{
    b->path = p;
    memcpy(b->offset, offset, sizeof b->offset);
    b->q_local[0] = 1;
    b->q_local[1] = b->q_local[2] = b->q_local[3] = 0;
    if (q_local) {
        memcpy(b->q_local, q_local, sizeof b->q_local);
        lq_body_normalize4(b->q_local);
    }
    lq_body_follow(b, t);
}

void lq_body_follow(lq_body *b, double t)
{
    double P[3], Q[4], V[3], W[3], Rp[9], r[3], wr[3];
    if (!b->path) return;
    lq_path_eval(b->path, t, P, Q, V, W);
    lq_quat_to_rot(Q, Rp);
    for (int i = 0; i < 3; i++)
        r[i] =
            Rp[3 * i] * b->offset[0] + Rp[3 * i + 1] * b->offset[1] + Rp[3 * i + 2] * b->offset[2];
    lq_body_cross(W, r, wr);
    for (int i = 0; i < 3; i++) {
        b->pos[i] = P[i] + r[i];
        b->vel[i] = V[i] + wr[i];
        b->omega[i] = W[i];
    }
    lq_quat_mul(Q, b->q_local, b->q);
    lq_body_normalize4(b->q);
}

double lq_body_volume(const lq_body *b)
{
    double abc = b->half[0] * b->half[1] * b->half[2];
    return b->shape == LQ_SHAPE_BOX ? 8 * abc : 4.0 / 3.0 * LQ_PI * abc;
}

void lq_body_rotation(const lq_body *b, double rot[9])
{
    lq_quat_to_rot(b->q, rot);
}

void lq_body_view(const lq_body *b, float r, float g, float bl, lq_view_object *v)
{
    v->shape = b->shape;
    memcpy(v->half, b->half, sizeof v->half);
    memcpy(v->pos, b->pos, sizeof v->pos);
    lq_body_rotation(b, v->rot);
    v->rgb[0] = r;
    v->rgb[1] = g;
    v->rgb[2] = bl;
}

double lq_body_bounding_radius(const lq_body *b)
{
    const double *h = b->half;
    if (b->shape == LQ_SHAPE_BOX) return sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    return LQ_MAX(h[0], LQ_MAX(h[1], h[2]));
}

double lq_body_extent(const lq_body *b, int k)
{
    double R[9], s = 0;
    if (b->shape == LQ_SHAPE_SPHERE) return b->half[0];
    lq_body_rotation(b, R);
    for (int j = 0; j < 3; j++) {
        double e = R[3 * k + j] * b->half[j];
        s += b->shape == LQ_SHAPE_BOX ? fabs(e) : e * e;
    }
    return b->shape == LQ_SHAPE_BOX ? s : sqrt(s);
}

void lq_body_column(const lq_body *b, double x, double z, double *y_bottom, double *y_top)
{
    double R[9], o[3], u[3], s_lo, s_hi;
    const double *a = b->half;
    lq_body_rotation(b, R);
    double dx = x - b->pos[0], dz = z - b->pos[2];
    for (int j = 0; j < 3; j++) {
        u[j] = R[3 + j];
        o[j] = R[j] * dx + R[6 + j] * dz;
    }
    *y_bottom = *y_top = NAN;
    if (b->shape == LQ_SHAPE_BOX) {
        s_lo = -INFINITY;
        s_hi = INFINITY;
        for (int j = 0; j < 3; j++) {
            if (fabs(u[j]) < 1e-12) {
                if (fabs(o[j]) > a[j]) return;
                continue;
            }
            double s1 = (-a[j] - o[j]) / u[j], s2 = (a[j] - o[j]) / u[j];
            s_lo = LQ_MAX(s_lo, LQ_MIN(s1, s2));
            s_hi = LQ_MIN(s_hi, LQ_MAX(s1, s2));
        }
        if (s_lo > s_hi) return;
    } else {
        double A = 0, B = 0, C = -1;
        for (int j = 0; j < 3; j++) {
            double ia2 = 1 / (a[j] * a[j]);
            A += u[j] * u[j] * ia2;
            B += o[j] * u[j] * ia2;
            C += o[j] * o[j] * ia2;
        }
        double D = B * B - A * C;
        if (D < 0) return;
        s_lo = (-B - sqrt(D)) / A;
        s_hi = (-B + sqrt(D)) / A;
    }
    *y_bottom = b->pos[1] + s_lo;
    *y_top = b->pos[1] + s_hi;
}

/* ω = I_w⁻¹ L at orientation q. */
static void lq_body_omega(const lq_body *b, const double q[4], const double L[3], double w[3])
{
    double R[9], inv[3] = {1 / b->inertia[0], 1 / b->inertia[1], 1 / b->inertia[2]};
    lq_quat_to_rot(q, R);
    lq_body_sandwich(R, inv, L, w);
}

void lq_body_step(lq_body *b, double dt, double t_new, const double force[3],
                  const double torque[3], const double gravity[3])
{
    if (b->path) {
        lq_body_follow(b, t_new);
        return;
    }
    for (int k = 0; k < 3; k++) {
        double acc = (gravity ? gravity[k] : 0) + (force ? force[k] / b->mass : 0);
        b->vel[k] += dt * acc;
        b->pos[k] += dt * b->vel[k];
    }
    double R[9], L[3], w[3], qm[4], half[3];
    lq_body_rotation(b, R);
    lq_body_sandwich(R, b->inertia, b->omega, L);
    if (torque)
        for (int k = 0; k < 3; k++) L[k] += dt * torque[k];
    /* midpoint: ω at the orientation half a step ahead */
    lq_body_omega(b, b->q, L, w);
    memcpy(qm, b->q, sizeof qm);
    for (int k = 0; k < 3; k++) half[k] = 0.5 * dt * w[k];
    lq_quat_rotate_by(qm, half);
    lq_body_omega(b, qm, L, w);
    for (int k = 0; k < 3; k++) w[k] *= dt;
    lq_quat_rotate_by(b->q, w);
    lq_body_omega(b, b->q, L, b->omega);
}

double lq_body_fmax(double m, double z_surface, double s0, double sdot, double g, double t)
{
    assert(t > 0);
    return m * (2 * (z_surface - s0 - sdot * t) / (t * t) - g);
}

/* Contact with a wall of inward normal sign `dir` (+1: lower wall) along axis k. */
static void lq_body_wall(lq_body *b, int k, double dir)
{
    double vn = b->vel[k] * dir; /* < 0: moving into the wall */
    if (vn >= 0) return;
    b->vel[k] = -b->restitution * b->vel[k];
    int i = (k + 1) % 3, j = (k + 2) % 3;
    double vt = sqrt(b->vel[i] * b->vel[i] + b->vel[j] * b->vel[j]);
    double dv = b->friction * (1 + b->restitution) * -vn;
    double scale = vt > dv ? 1 - dv / vt : 0;
    b->vel[i] *= scale;
    b->vel[j] *= scale;
}

void lq_body_collide_box(lq_body *b, const double lo[3], const double hi[3])
{
    if (b->path) return;
    for (int k = 0; k < 3; k++) {
        double e = lq_body_extent(b, k);
        if (b->pos[k] - e < lo[k]) {
            b->pos[k] = lo[k] + e;
            lq_body_wall(b, k, 1);
        } else if (b->pos[k] + e > hi[k]) {
            b->pos[k] = hi[k] - e;
            lq_body_wall(b, k, -1);
        }
    }
}

/* The ground's bilinear surface at (x, z) and its gradient. */
static double lq_body_ground(const float *g, int nx, int nz, double dx, double ox, double oz,
                             double x, double z, double *gx, double *gz)
{
    double fx = (x - ox) / dx - 0.5, fz = (z - oz) / dx - 0.5;
    fx = fmin(fmax(fx, 0.0), nx - 1.0);
    fz = fmin(fmax(fz, 0.0), nz - 1.0);
    int i = (int)floor(fx), k = (int)floor(fz);
    i = i > nx - 2 ? LQ_MAX(nx - 2, 0) : i;
    k = k > nz - 2 ? LQ_MAX(nz - 2, 0) : k;
    int i1 = LQ_MIN(i + 1, nx - 1), k1 = LQ_MIN(k + 1, nz - 1);
    double tx = fx - i, tz = fz - k;
    double g00 = g[i + nx * k], g10 = g[i1 + nx * k], g01 = g[i + nx * k1], g11 = g[i1 + nx * k1];
    *gx = ((g10 - g00) * (1 - tz) + (g11 - g01) * tz) / dx;
    *gz = ((g01 - g00) * (1 - tx) + (g11 - g10) * tx) / dx;
    return (g00 * (1 - tx) + g10 * tx) * (1 - tz) + (g01 * (1 - tx) + g11 * tx) * tz;
}

/* How far below the ground the body's bottom is at (x, z) (≤ 0 above it or off it), and
 * the ground's normal there. */
static double lq_body_ground_pen(const lq_body *b, const float *g, int nx, int nz, double dx,
                                 double ox, double oz, double x, double z, double n[3])
{
    n[0] = 0;
    n[1] = 1;
    n[2] = 0;
    double yb, yt, gx, gz;
    lq_body_column(b, x, z, &yb, &yt);
    if (isnan(yb)) return 0;
    double pen = lq_body_ground(g, nx, nz, dx, ox, oz, x, z, &gx, &gz) - yb;
    double len = sqrt(gx * gx + 1 + gz * gz);
    n[0] = -gx / len;
    n[1] = 1 / len;
    n[2] = -gz / len;
    return pen;
}

/* --- the ground's deepest sample (lq_body_collide_ground) ---------------------------
 *
 * The samples are the centre and quarter points of every cell under the bounding sphere,
 * in order (k, i, then the 9 points); the deepest is the first with the largest
 * penetration (a later one replaces it only when strictly deeper). With an index
 * (lq_body_ground_index) the cells are visited down a max pyramid of the ground instead,
 * and a block is skipped when no sample in it can beat the deepest so far nor reach
 * −dx (shallower ones change nothing: the caller stops there): its samples read the
 * ground at most at the block's pyramid value, and the body lies in its bounding sphere,
 * so its bottom over the block is no lower than that sphere's over the block's nearest
 * point. The samples visited are computed as the plain loop computes them and compared
 * as (penetration, then the earlier position), so the result is the plain loop's bit for
 * bit; only the work differs (a resting box's flat bottom still visits every cell). */
typedef struct lq_body_ground_search {
    const lq_body *b;
    const float *ground;
    int nx, nz, i0, w, k0; /* the cells: i0 .. i0 + w − 1, from row k0 */
    double dx, ox, oz;
    double deepest, x, z, n[3]; /* the deepest sample so far, where, the normal there */
    long long at;               /* its position in the plain loop's order */
} lq_body_ground_search;

static void lq_body_ground_search_start(lq_body_ground_search *g, const lq_body *b,
                                        const float *ground, int nx, int nz, double dx, double ox,
                                        double oz, int i0, int i1, int k0)
{
    memset(g, 0, sizeof *g);
    g->b = b;
    g->ground = ground;
    g->nx = nx;
    g->nz = nz;
    g->i0 = i0;
    g->w = i1 - i0 + 1;
    g->k0 = k0;
    g->dx = dx;
    g->ox = ox;
    g->oz = oz;
    g->deepest = -INFINITY;
    g->n[1] = 1;
    g->at = LLONG_MAX;
}

/* The 9 samples of cell (i, k). */
static void lq_body_ground_cell(lq_body_ground_search *g, int i, int k)
{
    const lq_body *b = g->b;
    double dx = g->dx, ox = g->ox, oz = g->oz, m[3];
    long long at0 = ((long long)(k - g->k0) * g->w + (i - g->i0)) * 9;
    for (int q = 0; q < 9; q++) { /* the cell's centre and quarter points */
        double x = ox + (i + 0.25 * (q % 3) + 0.25) * dx, z = oz + (k + 0.25 * (q / 3) + 0.25) * dx,
               yb, yt;
        lq_body_column(b, x, z, &yb, &yt);
        if (isnan(yb)) continue;
        double pen = lq_body_ground_pen(b, g->ground, g->nx, g->nz, dx, ox, oz, x, z, m);
        if (pen > g->deepest || (pen == g->deepest && at0 + q < g->at)) {
            g->deepest = pen;
            g->at = at0 + q;
            g->x = x;
            g->z = z;
            memcpy(g->n, m, sizeof m);
        }
    }
}

/* Block (bi, bk) of pyramid level l, clipped to the cells up to (i1, k1). */
static void lq_body_ground_visit(lq_body_ground_search *g, const lq_body_ground_index *gi, int l,
                                 int bi, int bk, int i1, int k1)
{
    int lo_i = LQ_MAX(bi << l, g->i0), hi_i = LQ_MIN(((bi + 1) << l) - 1, i1);
    int lo_k = LQ_MAX(bk << l, g->k0), hi_k = LQ_MIN(((bk + 1) << l) - 1, k1);
    if (lo_i > hi_i || lo_k > hi_k) return;
    const lq_body *b = g->b;
    double dx = g->dx;
    /* the sphere's bottom over the block's nearest point to the centre */
    double x0 = g->ox + lo_i * dx, x1 = g->ox + (hi_i + 1) * dx;
    double z0 = g->oz + lo_k * dx, z1 = g->oz + (hi_k + 1) * dx;
    double ex = fmax(fmax(x0 - b->pos[0], b->pos[0] - x1), 0.0);
    double ez = fmax(fmax(z0 - b->pos[2], b->pos[2] - z1), 0.0);
    double r = lq_body_bounding_radius(b), top = gi->max[l][bi + (size_t)gi->w[l] * bk];
    double low = b->pos[1] - sqrt(fmax(r * r - (ex * ex + ez * ez), 0.0));
    /* rounding of the samples (a column's ends near tangency are off by ~√ε r) */
    double slack = 1e-6 * (1.0 + r + fabs(b->pos[1]) + fabs(top));
    double bound = top - low + slack;
    if (bound <= -dx || bound < g->deepest) return;
    if (l == 0) {
        lq_body_ground_cell(g, bi, bk);
        return;
    }
    for (int c = 0; c < 4; c++)
        lq_body_ground_visit(g, gi, l - 1, 2 * bi + (c & 1), 2 * bk + (c >> 1), i1, k1);
}

int lq_body_ground_index_build(lq_body_ground_index *gi, const float *ground, int nx, int nz)
{
    memset(gi, 0, sizeof *gi);
    gi->ground = ground;
    gi->nx = nx;
    gi->nz = nz;
    int levels = 1;
    while ((1 << (levels - 1)) < nx || (1 << (levels - 1)) < nz) levels++;
    assert(levels <= LQ_BODY_GROUND_LEVELS);
    gi->levels = levels;
    for (int l = 0; l < levels; l++) {
        int w = (nx + (1 << l) - 1) >> l, h = (nz + (1 << l) - 1) >> l;
        gi->w[l] = w;
        gi->max[l] = malloc((size_t)w * (size_t)h * sizeof *gi->max[l]);
        if (!gi->max[l]) {
            lq_body_ground_index_free(gi);
            return -1;
        }
        for (int k = 0; k < h; k++)
            for (int i = 0; i < w; i++) {
                float v = -INFINITY;
                if (l == 0) /* a cell's samples read the ground one cell round it */
                    for (int kk = LQ_MAX(k - 1, 0); kk <= LQ_MIN(k + 1, nz - 1); kk++)
                        for (int ii = LQ_MAX(i - 1, 0); ii <= LQ_MIN(i + 1, nx - 1); ii++)
                            v = fmaxf(v, ground[ii + (size_t)nx * kk]);
                else
                    for (int c = 0; c < 4; c++) {
                        int ii = 2 * i + (c & 1), kk = 2 * k + (c >> 1);
                        if (ii < gi->w[l - 1] && kk < ((nz + (1 << (l - 1)) - 1) >> (l - 1)))
                            v = fmaxf(v, gi->max[l - 1][ii + (size_t)gi->w[l - 1] * kk]);
                    }
                gi->max[l][i + (size_t)w * k] = v;
            }
    }
    return 0;
}

void lq_body_ground_index_free(lq_body_ground_index *gi)
{
    for (int l = 0; l < LQ_BODY_GROUND_LEVELS; l++) free(gi->max[l]);
    memset(gi, 0, sizeof *gi);
}

static int lq_body_collide_ground_at(lq_body *b, const lq_body_ground_index *gi,
                                     const float *ground, int nx, int nz, double dx, double ox,
                                     double oz, double rest)
{
    if (b->path) return 0;
    int touched = 0;
    for (int pass = 0; pass < 3; pass++) {
        double rad = lq_body_bounding_radius(b) + dx, deepest, n[3], bx, bz, m[3];
        /* clamped as doubles before the casts (a body 1e38 m wide or far off stays defined) */
        int i0 = (int)fmin(fmax(floor((b->pos[0] - rad - ox) / dx), 0), nx);
        int i1 = (int)fmin(fmax(floor((b->pos[0] + rad - ox) / dx), -1), nx - 1);
        int k0 = (int)fmin(fmax(floor((b->pos[2] - rad - oz) / dx), 0), nz);
        int k1 = (int)fmin(fmax(floor((b->pos[2] + rad - oz) / dx), -1), nz - 1);
        lq_body_ground_search g;
        lq_body_ground_search_start(&g, b, ground, nx, nz, dx, ox, oz, i0, i1, k0);
        if (gi && i0 <= i1 && k0 <= k1)
            lq_body_ground_visit(&g, gi, gi->levels - 1, 0, 0, i1, k1);
        else
            for (int k = k0; k <= k1; k++)
                for (int i = i0; i <= i1; i++) lq_body_ground_cell(&g, i, k);
        deepest = g.deepest;
        bx = g.x;
        bz = g.z;
        memcpy(n, g.n, sizeof n);
        /* Near the ground (within a cell), the deepest point between the samples: a
         * pattern search down to dx/1024. Between quarter points a ball's bottom dips
         * up to (dx/8)²/r below them: found only by the samples, it sank that far and
         * bounced before the ground stopped it. */
        if (!(deepest > -dx)) break;
        for (double h = 0.125 * dx; h > dx / 1024; h *= 0.5)
            for (int moved = 1; moved;) {
                moved = 0;
                for (int q = 0; q < 8; q++) {
                    static const int ox8[8] = {1, -1, 0, 0, 1, 1, -1, -1},
                                     oz8[8] = {0, 0, 1, -1, 1, -1, 1, -1};
                    double x = bx + h * ox8[q], z = bz + h * oz8[q], yb, yt;
                    lq_body_column(b, x, z, &yb, &yt);
                    if (isnan(yb)) continue;
                    double pen = lq_body_ground_pen(b, ground, nx, nz, dx, ox, oz, x, z, m);
                    if (pen > deepest) {
                        deepest = pen;
                        bx = x;
                        bz = z;
                        memcpy(n, m, sizeof n);
                        moved = 1;
                    }
                }
            }
        if (!(deepest > 0)) break;
        touched = 1;
        /* out along the normal on steep ground; straight up where it is gentler than 45°,
         * which resolves the same penetration of a plane and does not walk a body resting
         * on a slope downhill by g Δt² sin θ cos θ a step (gravity sinks it vertically) */
        if (n[1] >= sqrt(0.5))
            b->pos[1] += deepest;
        else
            for (int a = 0; a < 3; a++) b->pos[a] += n[a] * deepest * n[1];
        double vn = b->vel[0] * n[0] + b->vel[1] * n[1] + b->vel[2] * n[2];
        if (vn >= 0) continue;
        double e = -vn < rest ? 0.0 : b->restitution, vt[3], vtn = 0;
        for (int a = 0; a < 3; a++) {
            vt[a] = b->vel[a] - vn * n[a];
            vtn += vt[a] * vt[a];
        }
        vtn = sqrt(vtn);
        double dv = b->friction * (1 + e) * -vn, scale = vtn > dv ? 1 - dv / vtn : 0;
        for (int a = 0; a < 3; a++) b->vel[a] = vt[a] * scale - e * vn * n[a];
    }
    return touched;
}

void lq_body_collide_pair(lq_body *a, lq_body *b)
{
    double wa = a->path ? 0 : 1 / a->mass, wb = b->path ? 0 : 1 / b->mass;
    if (wa + wb == 0) return;
    double d[3], n[3] = {0, 1, 0};
    for (int k = 0; k < 3; k++) d[k] = b->pos[k] - a->pos[k];
    double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double pen = lq_body_bounding_radius(a) + lq_body_bounding_radius(b) - dist;
    if (pen <= 0) return;
    if (dist > 0)
        for (int k = 0; k < 3; k++) n[k] = d[k] / dist; /* coincident centres: push along y */
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

int lq_body_collide_ground(lq_body *b, const float *ground, int nx, int nz, double dx, double ox,
                           double oz, double rest)
{
    return lq_body_collide_ground_at(b, NULL, ground, nx, nz, dx, ox, oz, rest);
}

int lq_body_collide_ground_indexed(lq_body *b, const lq_body_ground_index *gi, double dx, double ox,
                                   double oz, double rest)
{
    return lq_body_collide_ground_at(b, gi, gi->ground, gi->nx, gi->nz, dx, ox, oz, rest);
}
