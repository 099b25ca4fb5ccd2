/*
 * objview.c — rigid objects as one PLY triangle mesh (objview.h).
 *
 * Each object is built in its body frame (shape.h) and placed by world = rot · body +
 * pos. Ellipsoid (sphere): the unit sphere s(θ, φ) = (sin θ cos φ, cos θ, sin θ sin φ)
 * scaled by half, with a vertex at each pole and LQ_OBJVIEW_RINGS − 1 rings of
 * LQ_OBJVIEW_SEGMENTS vertices between; the normal is the gradient of |body / half|²,
 * s / half (the inverse-transpose of the scaling), turned by rot and normalised. A
 * quad of the (θ, φ) grid with corners v00, v01 (φ + 1), v10 (θ + 1), v11 becomes
 * (v00, v01, v10) and (v01, v11, v10): ∂φ × ∂θ points outward, so these wind
 * counter-clockwise seen from outside; at a pole the quad collapses to the one triangle
 * that is not degenerate. Box: for face axis a and side s = ±1, with u = a + 1 and
 * v = a + 2 (mod 3), the corners (−,−), (+,−), (+,+), (−,+) in (u, v) run
 * counter-clockwise about e_u × e_v = e_a, so s = +1 takes them in that order and
 * s = −1 in reverse; the normal is rot · s e_a.
 *
 * Invariants: a proper rotation keeps the winding (a reflection would flip it); every
 * index written is below the vertex count.
 */
#include "views/objview.h"

#include "core/common.h"
#include "io/io.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

enum { OV_NCOLS = 7 };

/* The mesh being filled: columns x y z nx ny nz id, triangles, and counts so far. */
typedef struct ov_mesh {
    float *col[OV_NCOLS];
    uint32_t *tris;
    uint32_t nv, nt;
} ov_mesh;

/* Appends a vertex at body point pb with body normal nb (any length) of object ob. */
static void ov_vertex(ov_mesh *m, const lq_view_object *ob, int id, const double pb[3],
                      const double nb[3])
{
    const double *R = ob->rot;
    double n[3], len = 0;
    for (int a = 0; a < 3; a++) {
        m->col[a][m->nv] =
            (float)(ob->pos[a] + R[3 * a] * pb[0] + R[3 * a + 1] * pb[1] + R[3 * a + 2] * pb[2]);
        n[a] = R[3 * a] * nb[0] + R[3 * a + 1] * nb[1] + R[3 * a + 2] * nb[2];
        len += n[a] * n[a];
    }
    len = sqrt(len);
    for (int a = 0; a < 3; a++) m->col[3 + a][m->nv] = (float)(n[a] / len);
    m->col[6][m->nv] = (float)id;
    m->nv++;
}

static void ov_tri(ov_mesh *m, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t *t = m->tris + 3 * (size_t)m->nt++;
    t[0] = a;
    t[1] = b;
    t[2] = c;
}

/* Index of vertex j (mod the segments) of ring r (1..rings − 1) of the ellipsoid whose
 * north pole is vertex `first`. */
static uint32_t ov_ring(uint32_t first, int r, int j)
{
    return first + 1 + (uint32_t)((r - 1) * LQ_OBJVIEW_SEGMENTS + j % LQ_OBJVIEW_SEGMENTS);
}

static void ov_ellipsoid(ov_mesh *m, const lq_view_object *ob, int id)
{
    const int S = LQ_OBJVIEW_SEGMENTS, NR = LQ_OBJVIEW_RINGS;
    const uint32_t first = m->nv, north = first, south = first + 1 + (uint32_t)((NR - 1) * S);
    for (int r = 0; r <= NR; r++) {
        double th = LQ_PI * r / NR;
        for (int j = 0; j < (r == 0 || r == NR ? 1 : S); j++) {
            double ph = 2 * LQ_PI * j / S, s[3], pb[3], nb[3];
            s[0] = r == 0 || r == NR ? 0 : sin(th) * cos(ph);
            s[1] = r == 0 ? 1 : r == NR ? -1 : cos(th);
            s[2] = r == 0 || r == NR ? 0 : sin(th) * sin(ph);
            for (int a = 0; a < 3; a++) {
                pb[a] = ob->half[a] * s[a];
                nb[a] = s[a] / ob->half[a];
            }
            ov_vertex(m, ob, id, pb, nb);
        }
    }
    for (int j = 0; j < S; j++) {
        ov_tri(m, north, ov_ring(first, 1, j + 1), ov_ring(first, 1, j));
        for (int r = 1; r + 1 < NR; r++) {
            uint32_t v00 = ov_ring(first, r, j), v01 = ov_ring(first, r, j + 1);
            uint32_t v10 = ov_ring(first, r + 1, j), v11 = ov_ring(first, r + 1, j + 1);
            ov_tri(m, v00, v01, v10);
            ov_tri(m, v01, v11, v10);
        }
        ov_tri(m, ov_ring(first, NR - 1, j), ov_ring(first, NR - 1, j + 1), south);
    }
}

static void ov_box(ov_mesh *m, const lq_view_object *ob, int id)
{
    static const int corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int a = 0; a < 3; a++)
        for (int s = -1; s <= 1; s += 2) {
            const int u = (a + 1) % 3, v = (a + 2) % 3;
            const uint32_t v0 = m->nv;
            for (int c = 0; c < 4; c++) {
                int k = s > 0 ? c : 3 - c;
                double pb[3], nb[3] = {0, 0, 0};
                pb[a] = s * ob->half[a];
                pb[u] = corner[k][0] * ob->half[u];
                pb[v] = corner[k][1] * ob->half[v];
                nb[a] = s;
                ov_vertex(m, ob, id, pb, nb);
            }
            ov_tri(m, v0, v0 + 1, v0 + 2);
            ov_tri(m, v0, v0 + 2, v0 + 3);
        }
}

int lq_objview_write_mesh(const char *path, const lq_view_object *obj, int nobj)
{
    static const char *const names[OV_NCOLS] = {"x", "y", "z", "nx", "ny", "nz", "id"};
    ov_mesh m = {{NULL}, NULL, 0, 0};
    size_t nv = 0, nt = 0;
    int rc = LQ_ESIM;
    if (nobj < 0 || (nobj > 0 && !obj))
        return lq_error(LQ_ESIM, "%s: bad object list (%d objects)", path, nobj);
    for (int j = 0; j < nobj; j++) {
        const lq_view_object *ob = &obj[j];
        int ok = 1;
        for (int a = 0; a < 3; a++)
            ok &= ob->half[a] > 0 && isfinite(ob->half[a]) && isfinite(ob->pos[a]);
        for (int a = 0; a < 9; a++) ok &= isfinite(ob->rot[a]);
        if (ob->shape == LQ_SHAPE_BOX) {
            nv += 24;
            nt += 12;
        } else if (ob->shape == LQ_SHAPE_SPHERE || ob->shape == LQ_SHAPE_ELLIPSOID) {
            nv += LQ_OBJVIEW_SPHERE_VERTS;
            nt += LQ_OBJVIEW_SPHERE_TRIS;
        } else {
            return lq_error(LQ_ESIM, "%s: object %d has unknown shape %d", path, j, ob->shape);
        }
        if (!ok)
            return lq_error(LQ_ESIM, "%s: object %d has a non-finite placement or a size <= 0",
                            path, j);
        if (nt > (size_t)INT32_MAX / 3)
            return lq_error(LQ_ESIM, "%s: %d objects make too large a mesh", path, nobj);
    }
    for (int c = 0; c < OV_NCOLS; c++)
        if (!(m.col[c] = lq_alloc(nv * sizeof(float)))) goto fail;
    if (!(m.tris = lq_alloc(nt * 3 * sizeof *m.tris))) goto fail;
    for (int j = 0; j < nobj; j++) {
        if (obj[j].shape == LQ_SHAPE_BOX)
            ov_box(&m, &obj[j], j);
        else
            ov_ellipsoid(&m, &obj[j], j);
    }
    rc = lq_ply_write(path, (int)m.nv, OV_NCOLS, names, (const float *const *)m.col, (int)m.nt,
                      m.tris);
fail:
    for (int c = 0; c < OV_NCOLS; c++) free(m.col[c]);
    free(m.tris);
    return rc;
}
