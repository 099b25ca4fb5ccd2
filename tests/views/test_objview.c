/*
 * test_objview.c — objview.h: a sphere, a rotated ellipsoid and a rotated box written
 * as one mesh and read back: vertex and triangle counts, ids, every vertex on its
 * object's surface, unit normals along the surface's gradient and pointing outward,
 * every triangle wound outward, the ellipsoids closed (each edge met once each way)
 * and the enclosed volumes; an empty list gives an empty mesh; bad objects are refused.
 *
 * Files live in a fresh folder under /tmp that the test removes at the end.
 */
#include "lib/check.h"
#include "core/common.h"
#include "io/io.h"
#include "views/objview.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static const char *tmp_path(const char *name)
{
    static char buf[4][256];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

/* Rotation by angle (rad) about the axis (any length), row-major. */
static void rotation(double ax, double ay, double az, double angle, double R[9])
{
    double l = sqrt(ax * ax + ay * ay + az * az), u[3] = {ax / l, ay / l, az / l};
    double c = cos(angle), s = sin(angle);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) R[3 * i + j] = (1 - c) * u[i] * u[j] + (i == j ? c : 0);
    R[1] -= s * u[2];
    R[2] += s * u[1];
    R[3] += s * u[2];
    R[5] -= s * u[0];
    R[6] -= s * u[1];
    R[7] += s * u[0];
}

static lq_view_object object(int shape, double a, double b, double c, double x, double y, double z)
{
    lq_view_object o;
    memset(&o, 0, sizeof o);
    o.shape = shape;
    o.half[0] = a;
    o.half[1] = b;
    o.half[2] = c;
    o.pos[0] = x;
    o.pos[1] = y;
    o.pos[2] = z;
    o.rot[0] = o.rot[4] = o.rot[8] = 1;
    return o;
}

/* Rᵀ v: a world vector in the body frame. */
static void to_body(const double R[9], const double v[3], double out[3])
{
    for (int a = 0; a < 3; a++) out[a] = R[a] * v[0] + R[3 + a] * v[1] + R[6 + a] * v[2];
}

static void test_mesh(void)
{
    lq_view_object obj[3];
    const char *path = tmp_path("objects.ply");
    lq_ply m;
    obj[0] = object(LQ_SHAPE_SPHERE, 0.7, 0.7, 0.7, 1, 2, 3);
    obj[1] = object(LQ_SHAPE_ELLIPSOID, 0.5, 0.2, 0.3, -2, 0.5, 1);
    rotation(1, 2, 0.5, 0.9, obj[1].rot);
    obj[2] = object(LQ_SHAPE_BOX, 0.4, 0.2, 0.1, -1, 0.5, 2);
    rotation(-0.3, 1, 2, 2.2, obj[2].rot);
    CHECK_OK(lq_objview_write_mesh(path, obj, 3));
    CHECK_OK(lq_ply_read(path, &m));
    CHECK(m.nverts == 2 * LQ_OBJVIEW_SPHERE_VERTS + 24);
    CHECK(m.ntris == 2 * LQ_OBJVIEW_SPHERE_TRIS + 12);
    CHECK(m.nprops == 7);
    const char *want[] = {"x", "y", "z", "nx", "ny", "nz", "id"};
    for (int c = 0; c < 7 && c < m.nprops; c++) CHECK(strcmp(m.names[c], want[c]) == 0);
    if (m.nprops != 7 || m.nverts != 2 * LQ_OBJVIEW_SPHERE_VERTS + 24) {
        lq_ply_free(&m);
        return;
    }
    /* Vertices: on the surface, normal unit, outward, along the surface's gradient. */
    int count[3] = {0, 0, 0}, on = 1, unit = 1, out = 1, grad = 1;
    for (int v = 0; v < m.nverts; v++) {
        int id = (int)m.columns[6][v];
        CHECK(id >= 0 && id < 3 && m.columns[6][v] == (float)id);
        if (id < 0 || id > 2) continue;
        const lq_view_object *o = &obj[id];
        double rel[3], n[3], body[3], nb[3], g[3], e = 0, gl = 0, nn = 0, dn = 0, gn = 0;
        for (int a = 0; a < 3; a++) {
            rel[a] = m.columns[a][v] - o->pos[a];
            n[a] = m.columns[3 + a][v];
        }
        to_body(o->rot, rel, body);
        to_body(o->rot, n, nb);
        count[id]++;
        if (o->shape == LQ_SHAPE_BOX) {
            /* On the box: max |body / half| = 1; the flat normal is ±e_a in the body
             * frame for a face (|body_a / half_a| = 1, same sign) the vertex lies on. */
            int face = 0;
            for (int a = 0; a < 3; a++) {
                double r = body[a] / o->half[a];
                e = fmax(e, fabs(r));
                face |= fabs(fabs(r) - 1) < 1e-5 && fabs(nb[a] - (r > 0 ? 1 : -1)) < 1e-5;
            }
            on &= fabs(e - 1) < 1e-5;
            grad &= face;
        } else {
            for (int a = 0; a < 3; a++) {
                e += body[a] * body[a] / (o->half[a] * o->half[a]);
                g[a] = body[a] / (o->half[a] * o->half[a]);
                gl += g[a] * g[a];
            }
            on &= fabs(e - 1) < 1e-5;
            for (int a = 0; a < 3; a++) gn += nb[a] * g[a] / sqrt(gl);
            grad &= gn > 1 - 1e-5;
        }
        for (int a = 0; a < 3; a++) {
            nn += n[a] * n[a];
            dn += n[a] * rel[a];
        }
        unit &= fabs(nn - 1) < 1e-5;
        out &= dn > 0;
    }
    CHECK(count[0] == LQ_OBJVIEW_SPHERE_VERTS && count[1] == LQ_OBJVIEW_SPHERE_VERTS &&
          count[2] == 24);
    CHECK_MSG(on, "a vertex is off its object's surface");
    CHECK_MSG(unit, "a normal is not a unit vector");
    CHECK_MSG(out, "a normal points inward");
    CHECK_MSG(grad, "a normal is not the surface's gradient direction");

    /* Triangles: one object each, wound outward (geometric normal · (centroid − centre)
     * > 0), not degenerate; volume by the divergence theorem. */
    double vol[3] = {0, 0, 0};
    int same = 1, wound = 1, area = 1;
    for (int t = 0; t < m.ntris; t++) {
        const uint32_t *v = m.tris + 3 * t;
        int id = (int)m.columns[6][v[0]];
        double p[3][3], e1[3], e2[3], cr[3], c[3], d = 0, l2 = 0;
        same &= (int)m.columns[6][v[1]] == id && (int)m.columns[6][v[2]] == id;
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < 3; a++) p[k][a] = m.columns[a][v[k]];
        for (int a = 0; a < 3; a++) {
            e1[a] = p[1][a] - p[0][a];
            e2[a] = p[2][a] - p[0][a];
            c[a] = (p[0][a] + p[1][a] + p[2][a]) / 3 - obj[id].pos[a];
        }
        cr[0] = e1[1] * e2[2] - e1[2] * e2[1];
        cr[1] = e1[2] * e2[0] - e1[0] * e2[2];
        cr[2] = e1[0] * e2[1] - e1[1] * e2[0];
        for (int a = 0; a < 3; a++) {
            d += cr[a] * c[a];
            l2 += cr[a] * cr[a];
            vol[id] += cr[a] * c[a] / 6; /* cone from the centre: (cr/2 · c) / 3 */
        }
        wound &= d > 0;
        area &= l2 > 1e-12;
    }
    CHECK_MSG(same, "a triangle joins two objects");
    CHECK_MSG(wound, "a triangle is wound inward");
    CHECK_MSG(area, "a triangle is degenerate");
    /* A 24 x 12 UV sphere holds about 97 % of the ellipsoid; the box is exact. */
    CHECK_NEAR(vol[0] / (4.0 / 3 * LQ_PI * 0.7 * 0.7 * 0.7), 0.97, 0.02);
    CHECK_NEAR(vol[1] / (4.0 / 3 * LQ_PI * 0.5 * 0.2 * 0.3), 0.97, 0.02);
    CHECK_NEAR(vol[2], 8 * 0.4 * 0.2 * 0.1, 1e-5);

    /* The ellipsoids are closed: every directed edge has its reverse exactly once. */
    int closed = 1;
    for (int t = 0; t < 2 * LQ_OBJVIEW_SPHERE_TRIS && t < m.ntris; t++)
        for (int k = 0; k < 3; k++) {
            uint32_t a = m.tris[3 * t + k], b = m.tris[3 * t + (k + 1) % 3];
            int rev = 0, fwd = 0;
            for (int s = 0; s < 2 * LQ_OBJVIEW_SPHERE_TRIS && s < m.ntris; s++)
                for (int j = 0; j < 3; j++) {
                    uint32_t c = m.tris[3 * s + j], d = m.tris[3 * s + (j + 1) % 3];
                    rev += c == b && d == a;
                    fwd += c == a && d == b;
                }
            closed &= rev == 1 && fwd == 1;
        }
    CHECK_MSG(closed, "an ellipsoid mesh has a hole or a flipped triangle");
    lq_ply_free(&m);

    /* No objects: a valid empty mesh. */
    CHECK_OK(lq_objview_write_mesh(path, NULL, 0));
    CHECK_OK(lq_ply_read(path, &m));
    CHECK(m.nverts == 0 && m.ntris == 0 && m.nprops == 7);
    lq_ply_free(&m);
    remove(path);

    /* Refused: bad lists, unknown shapes, non-finite or flat objects, unwritable paths. */
    lq_view_object bad = obj[0];
    CHECK(lq_objview_write_mesh(path, obj, -1) == LQ_ESIM);
    CHECK(lq_objview_write_mesh(path, NULL, 2) == LQ_ESIM);
    bad.shape = 7;
    CHECK(lq_objview_write_mesh(path, &bad, 1) == LQ_ESIM);
    bad = obj[0];
    bad.pos[1] = NAN;
    CHECK(lq_objview_write_mesh(path, &bad, 1) == LQ_ESIM);
    bad = obj[2];
    bad.half[2] = 0;
    lq_error_clear();
    CHECK(lq_objview_write_mesh(path, &bad, 1) == LQ_ESIM);
    CHECK(strstr(lq_error_message(), "object 0") != NULL);
    CHECK(lq_objview_write_mesh(tmp_path("no/dir.ply"), obj, 3) == LQ_ESIM);
    CHECK(access(path, F_OK) != 0);
    lq_error_clear();
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/lq_test_objview_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_mesh();
    CHECK(rmdir(dir) == 0);
    CHECK_DONE();
}
