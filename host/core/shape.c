/*
 * shape.c — the geometry of the shapes objects are drawn as (shape.h), shared by the
 * height-field and 3D previews: which objects are drawable, their world boxes, and
 * exact ray hits (a sphere or ellipsoid is a scaled ball in the body frame, a box is
 * three slabs).
 */
#include "core/shape.h"

#include <math.h>

static double sh_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* 1 when the object has a finite placement and a positive finite size. */
int lq_shape_ok(const lq_view_object *ob)
{
    for (int a = 0; a < 3; a++)
        if (!(ob->half[a] > 0) || !isfinite(ob->half[a]) || !isfinite(ob->pos[a])) return 0;
    for (int a = 0; a < 9; a++)
        if (!isfinite(ob->rot[a])) return 0;
    return 1;
}

/* Grows lo..hi by the world box of a drawable object. */
void lq_shape_grow(const lq_view_object *ob, double lo[3], double hi[3])
{
    if (!lq_shape_ok(ob)) return;
    for (int a = 0; a < 3; a++) {
        double e = 0; /* half extent along world axis a */
        for (int k = 0; k < 3; k++) {
            double r = ob->rot[3 * a + k] * ob->half[k];
            e += ob->shape == LQ_SHAPE_BOX ? fabs(r) : r * r;
        }
        if (ob->shape != LQ_SHAPE_BOX) e = sqrt(e);
        lo[a] = fmin(lo[a], ob->pos[a] - e);
        hi[a] = fmax(hi[a], ob->pos[a] + e);
    }
}

/* Where the ray o + t d (d unit) enters the object with tmin < t < tmax, or -1; the
 * outward unit normal there into n. A ray that starts inside sees nothing, and so does
 * every ray when the object is not drawable (the comparisons fail on NaN). */
double lq_shape_hit(const lq_view_object *ob, const double o[3], const double d[3], double tmin,
                    double tmax, double n[3])
{
    const double *R = ob->rot, *hs = ob->half;
    const int box = ob->shape == LQ_SHAPE_BOX;
    double rel[3], ob_[3], db[3], nb[3], t, miss2 = 0;
    double rad = box ? sqrt(sh_dot3(hs, hs)) : fmax(fmax(hs[0], hs[1]), hs[2]);
    if (!(fmin(fmin(hs[0], hs[1]), hs[2]) > 0) || !(rad < INFINITY)) return -1;
    for (int a = 0; a < 3; a++) rel[a] = ob->pos[a] - o[a];
    double tc = sh_dot3(rel, d);
    for (int a = 0; a < 3; a++) miss2 += (rel[a] - tc * d[a]) * (rel[a] - tc * d[a]);
    if (!(miss2 <= rad * rad) || !(tc + rad > tmin) || !(tc - rad < tmax)) return -1;
    /* Body frame: world = R body + pos, so body = Rᵀ (world − pos). */
    for (int a = 0; a < 3; a++) {
        ob_[a] = -(R[a] * rel[0] + R[3 + a] * rel[1] + R[6 + a] * rel[2]);
        db[a] = R[a] * d[0] + R[3 + a] * d[1] + R[6 + a] * d[2];
    }
    if (box) {
        double t0 = -INFINITY, t1 = INFINITY;
        int axis = -1;
        for (int a = 0; a < 3; a++) {
            if (fabs(db[a]) < 1e-300) {
                if (!(fabs(ob_[a]) <= hs[a])) return -1;
                continue;
            }
            double ta = (-hs[a] - ob_[a]) / db[a], tb = (hs[a] - ob_[a]) / db[a];
            if (ta > tb) {
                double sw = ta;
                ta = tb;
                tb = sw;
            }
            if (ta > t0) {
                t0 = ta;
                axis = a;
            }
            if (tb < t1) t1 = tb;
        }
        if (axis < 0 || !(t0 <= t1)) return -1;
        t = t0;
        nb[0] = nb[1] = nb[2] = 0;
        nb[axis] = db[axis] > 0 ? -1 : 1;
    } else {
        double os[3], ds[3], m2 = 0;
        for (int a = 0; a < 3; a++) {
            os[a] = ob_[a] / hs[a];
            ds[a] = db[a] / hs[a];
        }
        double dl = sqrt(sh_dot3(ds, ds));
        for (int a = 0; a < 3; a++) ds[a] /= dl;
        double tcs = -sh_dot3(os, ds);
        for (int a = 0; a < 3; a++) m2 += (os[a] + tcs * ds[a]) * (os[a] + tcs * ds[a]);
        if (!(m2 <= 1)) return -1;
        t = (tcs - sqrt(1 - m2)) / dl;
        /* Gradient of |body / half|²: the inverse-transpose of the scaling. */
        for (int a = 0; a < 3; a++) nb[a] = (ob_[a] + t * db[a]) / (hs[a] * hs[a]);
    }
    if (!(t > tmin && t < tmax)) return -1;
    for (int a = 0; a < 3; a++)
        n[a] = R[3 * a] * nb[0] + R[3 * a + 1] * nb[1] + R[3 * a + 2] * nb[2];
    double len = sqrt(sh_dot3(n, n));
    if (len > 0)
        for (int a = 0; a < 3; a++) n[a] /= len;
    return t;
}
