/*
 * test_pls_texture.c — the `pls` solver's texture particles (Rasmussen et al. 2004 §6;
 * pls.texture) on a rigidly translating liquid: a ball (radius 5 cells) moving at
 * U = 0.9 m/s along x without gravity translates without deforming, so
 *  1. every texture particle keeps its rest coordinate bit for bit, and its position
 *     minus its rest coordinate is the translation U t (9 cells): within 1e-4 h advected
 *     only (pls.texture.project: false; the uniform flow moves each by δt U per step, to
 *     float rounding: measured 1e-6 h), within 0.15 h with the projection (the particles
 *     follow the advected φ = 0, which the semi-Lagrangian steps shrink: 0.11 h);
 *  2. every mesh vertex (marching tetrahedra of φ, as mesh/NNNN.ply) gets the rest
 *     coordinate vertex − U t from the nearest 64 particles (views/texmap.h): along the
 *     surface, what would make a texture swim, within 0.05 h (measured 0.007 h); along
 *     the normal within 0.2 h (0.13 h: the vertex lies on the advected φ = 0, the
 *     particles on the translated ball or on φ = 0 with the rest they had, and the fit
 *     does not extrapolate the offset between them); rms of the whole error under 0.1 h
 *     (0.04-0.06 h);
 * on the reference path and on OpenCL (PoCL), which agree bit for bit.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/check.h"
#include "core/field.h"
#include "scene/config.h"
#include "solvers/registry.h"
#include "views/mcubes.h"
#include "views/texmap.h"

#define H      0.02 /* m, the cell */
#define U      0.9  /* m/s */
#define FRAMES 6
#define FPS    30.0

static const char *write_scene(bool project)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/lq_pls_texture_%d.yaml", (int)getpid());
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return path;
    fprintf(f,
            "solver: pls\n"
            "grid: {size: [36, 24, 24], cell: %g}\n"
            "time: {frames: %d, fps: %g}\n"
            "gravity: [0, 0, 0]\n"
            "liquid:\n"
            "  - sphere: {center: [0.2, 0.24, 0.24], radius: 0.1, velocity: [%g, 0, 0]}\n"
            "pls:\n"
            "  texture: {project: %s}\n",
            H, FRAMES, FPS, U, project ? "true" : "false");
    fclose(f);
    return path;
}

typedef struct snap {
    int n;
    float *c[6];
} snap;

static void snap_take(snap *s, const lq_points_view *pv)
{
    s->n = pv->n;
    for (int i = 0; i < 6; i++) {
        s->c[i] = malloc((size_t)(s->n > 0 ? s->n : 1) * sizeof(float));
        memcpy(s->c[i], pv->columns[i], (size_t)s->n * sizeof(float));
    }
}

static void snap_free(snap *s)
{
    for (int i = 0; i < 6; i++) free(s->c[i]);
}

/* Over the vertices of φ's surface (*nv of them): the error e = rest(v) − (v − T), its
 * largest part along the surface (what would move a texture: err[0]) and along the
 * normal (err[1]), and the rms of |e| (err[2]). */
static void vertex_error(const lq_solver_vt *vt, void *state, const snap *tp, double T,
                         double err[3], int *nv)
{
    lq_field_view vp;
    CHECK_OK(vt->view(state, "phi", &vp));
    double origin[3], hi[3];
    for (int a = 0; a < 3; a++) {
        origin[a] = vp.origin[a] - 0.5 * vp.spacing[a];
        hi[a] = origin[a] + vp.dims[a] * vp.spacing[a];
    }
    lq_mcubes_mesh m;
    CHECK_OK(lq_mcubes_extract(vp.dims[0], vp.dims[1], vp.dims[2], origin, vp.spacing, vp.data,
                               0.0f, true, &m));
    lq_texmap t;
    CHECK_OK(lq_texmap_build(&t, tp->n, (const float *const *)tp->c, origin, hi, H, 64,
                             4 * H)); /* as run.c */
    double sum = 0;
    err[0] = err[1] = 0;
    for (int v = 0; v < m.nverts; v++) {
        double q[3] = {m.pos[3 * v], m.pos[3 * v + 1], m.pos[3 * v + 2]}, rest[3], d[3];
        const float *n = m.normal + 3 * v;
        lq_texmap_rest(&t, q, rest);
        double e2 = 0, dn = 0, dt2 = 0;
        for (int a = 0; a < 3; a++) {
            d[a] = rest[a] - (q[a] - (a == 0 ? T : 0));
            e2 += d[a] * d[a];
            dn += d[a] * n[a];
        }
        for (int a = 0; a < 3; a++) dt2 += (d[a] - dn * n[a]) * (d[a] - dn * n[a]);
        sum += e2;
        err[0] = fmax(err[0], sqrt(dt2));
        err[1] = fmax(err[1], fabs(dn));
    }
    *nv = m.nverts;
    err[2] = m.nverts ? sqrt(sum / m.nverts) : 0;
    lq_texmap_free(&t);
    lq_mcubes_free(&m);
}

/* Runs the ball FRAMES frames on `device`; *out gets the last frame's particles. */
static void run(const char *device, bool project, snap *out)
{
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, device, false));
    const char *path = write_scene(project);
    lq_config *cfg = lq_config_load(path, 0, NULL);
    unlink(path);
    CHECK(cfg != NULL);
    if (!cfg) return;
    const lq_solver_vt *vt = lq_registry_find(cfg);
    void *state = NULL;
    CHECK_OK(vt->create(&ctx, cfg, &state));
    CHECK(vt->texture != NULL);
    lq_points_view pv;
    snap s0;
    CHECK_OK(vt->texture(state, &pv));
    snap_take(&s0, &pv);
    CHECK(s0.n > 5000);
    lq_frame_stats st;
    for (int f = 1; f <= FRAMES; f++) CHECK_OK(vt->advance(state, f, f / FPS, &st));
    CHECK_OK(vt->texture(state, &pv));
    snap_take(out, &pv);
    CHECK(out->n == s0.n);
    const double T = U * FRAMES / FPS;
    int rest_changed = 0;
    double worst = 0;
    for (int p = 0; p < s0.n && p < out->n; p++) {
        for (int a = 0; a < 3; a++) rest_changed += s0.c[3 + a][p] != out->c[3 + a][p];
        for (int a = 0; a < 3; a++) {
            double d = (double)out->c[a][p] - out->c[3 + a][p] - (a == 0 ? T : 0);
            worst = fmax(worst, fabs(d));
        }
    }
    double ve[3];
    int nv;
    vertex_error(vt, state, out, T, ve, &nv);
    fprintf(stderr,
            "%s, project %s: %d particles after %d frames (T = %.3f m = %.1f h): rest changed "
            "in %d; max |x - rest - T| = %.2g h; %d mesh vertices, rest(v) - (v - T): along "
            "the surface max %.3f h, along the normal max %.3f h, rms %.3f h\n",
            device, project ? "on" : "off", out->n, FRAMES, T, T / H, rest_changed, worst / H, nv,
            ve[0] / H, ve[1] / H, ve[2] / H);
    CHECK(rest_changed == 0);
    CHECK(worst < (project ? 0.15 : 1e-4) * H);
    CHECK(nv > 500);
    CHECK(ve[0] < 0.05 * H && ve[1] < 0.2 * H && ve[2] < 0.1 * H);
    snap_free(&s0);
    vt->destroy(state);
    lq_config_free(cfg);
    lq_ctx_close(&ctx);
}

int main(void)
{
    for (int project = 0; project < 2; project++) {
        snap a, b;
        run("ref", project, &a);
        run("opencl", project, &b);
        int differ = a.n != b.n;
        for (int i = 0; i < 6 && !differ; i++)
            differ = memcmp(a.c[i], b.c[i], (size_t)a.n * sizeof(float)) != 0;
        CHECK_MSG(!differ, "the reference path and OpenCL differ (project %d)", project);
        snap_free(&a);
        snap_free(&b);
    }
    CHECK_DONE();
}
