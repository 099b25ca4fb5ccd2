/*
 * test_pls_window.c — the moving grid window of the `pls` solver (Rasmussen et al. 2004
 * §5.3, pls.window; issue 16 item 5): a drop falling through a tall domain, once on the
 * whole fixed grid and once in a short window that follows it, must fall the same.
 *
 * 2D, h = 0.01 m: the fixed grid 48 × 128 cells (0.48 × 1.28 m); the window 32 × 40 cells
 * inside the same domain, starting at (0.08, 0.88) m, margin 6 cells. A drop of radius
 * 0.06 m at (0.24, 1.10) m thrown at (0.3, −0.5) m/s falls under g = 9.81 m/s² for 0.35 s
 * (7 frames at 20 fps): 0.78 m down (78 cells, twice the window's height) and 0.1 m
 * sideways, so the window moves along y and x, several cells at a time. Each frame:
 *  1. trajectory: the centroids (the smoothed Heaviside's weights, world coordinates)
 *     agree within 0.1 h (measured: 1e-5 m at most), and the fixed run's follows
 *     y0 + v t − g t²/2 within 4 h (measured: it lags by 1.7 h at frame 2, 3 h at 7: the
 *     split step's g·dt reaches the advection a step late, both runs alike);
 *  2. shape: φ on the window's cells near the surface (|φ| < 3 h) equals the fixed grid's
 *     at the same world cell within 0.1 h (measured: 0.002 h; not 0: the particles'
 *     random seeding hashes the cell's index, which the window changes), and the liquid's
 *     extents agree to the cell;
 *  3. volume: liquid_volume agrees within 0.5 % (measured: 1e-4 at most; both runs lose
 *     1.3 % by frame 7, within 2 % of the start);
 *  4. the window's stats: window_origin_* is where the φ view puts the window, it moved
 *     along y by more than its height and along x, and left no liquid behind
 *     (window_out_volume 0).
 * Then the same with a moving obstacle, a plate below the drop sinking at 1 m/s, which
 * enters the window only when it moves (its centre moved with the window's origin, its sdf
 * rebuilt): frames 0-4, until the drop reaches it (then its splash reaches the window's
 * side walls, which the whole grid does not have). This caught the §5.5.3 labels written
 * over the live particles when the window's compaction had swapped their buffers.
 * A shift off by one cell moves the window's drop by h against the fixed one's (1. and
 * 2. fail), and velocities not moved with φ leave the drop outside its own velocity band
 * after the first move of more than the band (3 + 2 layers): it stalls and tears.
 */
#include <string.h>

#include "core/common.h"
#include "lib/check.h"
#include "lib/scene_run.h"

#define H      0.01
#define FRAMES 7
#define FPS    20.0

/* The path case's window origin at t: x 0.08 + 0.2 t (slower than the drop's 0.3 m/s, to
 * stay in the domain), y 0.88 − 0.5 t − g t²/2 (the drop's fall); keys sampled from it,
 * which the path's Catmull-Rom follows exactly (quadratics). */
static double path_x(double t)
{
    return 0.08 + 0.2 * t;
}
static double path_y(double t)
{
    return 0.88 - 0.5 * t - 0.5 * 9.81 * t * t;
}

/* With `plate`, a moving obstacle: a plate under the drop sinking at 1 m/s (keyframed);
 * with `path`, the window follows path_x, path_y (pls.window.follow: path). */
static const char *scene_text(bool window, bool plate, bool path, char *buf, size_t cap)
{
    char win[600] = "";
    if (window && path) {
        static const double keys[] = {0, 0.1, 0.2, 0.35};
        int n = snprintf(win, sizeof win, "pls:\n  window:\n    follow: path\n    path: [");
        for (int k = 0; k < 4; k++)
            n += snprintf(win + n, sizeof win - (size_t)n, "%s%g, %.6f, %.6f, 0", k ? ", " : "",
                          keys[k], path_x(keys[k]), path_y(keys[k]));
        snprintf(win + n, sizeof win - (size_t)n,
                 "]\n    domain: {min: [0, 0, 0], max: [0.48, 1.28, 0.01]}\n");
    } else if (window) {
        snprintf(win, sizeof win,
                 "pls:\n  window:\n    margin: 6\n    domain: {min: [0, 0, 0], max: "
                 "[0.48, 1.28, 0.01]}\n");
    }
    snprintf(buf, cap,
             "solver: pls\n"
             "grid: {size: [%s, 1], cell: 0.01, origin: [%s, 0]}\n"
             "time: {frames: %d, fps: %g}\n"
             "gravity: [0, -9.81, 0]\n"
             "liquid: [{sphere: {center: [0.24, 1.10, 0.005], radius: 0.06, "
             "velocity: [0.3, -0.5, 0]}}]\n"
             "%s%s",
             window ? "32, 40" : "48, 128", window ? "0.08, 0.88" : "0, 0", FRAMES, FPS,
             plate ? "obstacles: [{box: {min: [0.14, 0.90, 0], max: [0.40, 0.92, 0.01]}, "
                     "motion: {keys: [0, 0, 0, 0, 0, 0, 0, 1, 0, -1, 0, 0, 0, 0]}}]\n"
                   : "",
             win);
    return buf;
}

typedef struct frame {
    double cx, cy, vol, lo[2], hi[2]; /* centroid, volume, the φ < 0 cells' extent (m) */
    int nx, ny;
    double ox, oy; /* the view's origin: the first cell's centre (m) */
    float *phi;
} frame;

/* φ's view of the run's state into fr (a copy). */
static int grab(run *r, frame *fr)
{
    lq_field_view v;
    int rc = r->vt->view(r->state, "phi", &v);
    if (rc) return rc;
    fr->nx = v.dims[0];
    fr->ny = v.dims[1];
    fr->ox = v.origin[0];
    fr->oy = v.origin[1];
    size_t n = (size_t)fr->nx * fr->ny;
    fr->phi = malloc(n * sizeof(float));
    memcpy(fr->phi, v.data, n * sizeof(float));
    double w = 0, sx = 0, sy = 0;
    fr->lo[0] = fr->lo[1] = 1e9;
    fr->hi[0] = fr->hi[1] = -1e9;
    for (int j = 0; j < fr->ny; j++)
        for (int i = 0; i < fr->nx; i++) {
            double p = fr->phi[i + fr->nx * j], x = fr->ox + i * H, y = fr->oy + j * H;
            double f = fmin(1, fmax(0, 0.5 - p / H));
            w += f;
            sx += f * x;
            sy += f * y;
            if (p < 0) {
                fr->lo[0] = fmin(fr->lo[0], x);
                fr->lo[1] = fmin(fr->lo[1], y);
                fr->hi[0] = fmax(fr->hi[0], x);
                fr->hi[1] = fmax(fr->hi[1], y);
            }
        }
    fr->cx = sx / w;
    fr->cy = sy / w;
    return LQ_OK;
}

/* The largest |φ_window − φ_fixed| over the window's cells near the surface. */
static double phi_gap(const frame *win, const frame *fix)
{
    int di = (int)lround((win->ox - fix->ox) / H), dj = (int)lround((win->oy - fix->oy) / H);
    double gap = 0;
    for (int j = 0; j < win->ny; j++)
        for (int i = 0; i < win->nx; i++) {
            float pw = win->phi[i + win->nx * j];
            int fi = i + di, fj = j + dj;
            if (fabsf(pw) >= 3 * H || fi < 0 || fj < 0 || fi >= fix->nx || fj >= fix->ny) continue;
            gap = fmax(gap, fabs(pw - fix->phi[fi + fix->nx * fj]));
        }
    return gap;
}

static void compare(bool plate, bool path)
{
    char ta[1500], tb[1500];
    run a, b;
    fprintf(stderr, "%s:\n",
            plate  ? "the drop onto a sinking plate"
            : path ? "the drop, the window on a keyframed path"
                   : "the drop");
    if (open_scene(&a, scene_text(false, plate, false, ta, sizeof ta)) ||
        open_scene(&b, scene_text(true, plate, path, tb, sizeof tb)))
        return;
    lq_frame_stats sa, sb;
    double vol0 = 0, moved_x = 0, wy0 = 0.88, wy = wy0;
    int frames = plate ? 4 : FRAMES; /* the plate: until the drop reaches it */
    for (int f = 0; f <= frames; f++) {
        double t = f / FPS;
        if (f > 0) {
            CHECK_OK(a.vt->advance(a.state, f, t, &sa));
            CHECK_OK(b.vt->advance(b.state, f, t, &sb));
        } else {
            CHECK_OK(a.vt->measure(a.state, &sa));
            CHECK_OK(b.vt->measure(b.state, &sb));
            vol0 = sa.liquid_volume;
        }
        frame fa, fb;
        CHECK_OK(grab(&a, &fa));
        CHECK_OK(grab(&b, &fb));
        double gap = phi_gap(&fb, &fa), want = 1.10 - 0.5 * t - 0.5 * 9.81 * t * t;
        wy = extra(&sb, "window_origin_y");
        moved_x = fmax(moved_x, fabs(extra(&sb, "window_origin_x") - 0.08));
        fprintf(stderr,
                "frame %d: centroid fixed (%.4f, %.4f) window (%.4f, %.4f) [y %.4f wanted]; "
                "phi gap %.2g h; volume %.5g vs %.5g; window at (%.2f, %.2f)\n",
                f, fa.cx, fa.cy, fb.cx, fb.cy, want, gap / H, sa.liquid_volume, sb.liquid_volume,
                extra(&sb, "window_origin_x"), wy);
        CHECK_MSG(fabs(fa.cx - fb.cx) < 0.1 * H && fabs(fa.cy - fb.cy) < 0.1 * H,
                  "frame %d: centroids differ by (%.3g, %.3g) h", f, (fb.cx - fa.cx) / H,
                  (fb.cy - fa.cy) / H);
        CHECK_MSG(fabs(fa.cy - want) < 4 * H, "frame %d: fixed centroid %.4f, wanted %.4f", f,
                  fa.cy, want);
        CHECK_MSG(gap < 0.1 * H, "frame %d: phi differs by %.3g h near the surface", f, gap / H);
        for (int q = 0; q < 2; q++)
            CHECK_MSG(fabs(fa.lo[q] - fb.lo[q]) < 0.5 * H && fabs(fa.hi[q] - fb.hi[q]) < 0.5 * H,
                      "frame %d: extents differ along %c", f, "xy"[q]);
        CHECK_MSG(fabs(sa.liquid_volume - sb.liquid_volume) < 0.005 * vol0,
                  "frame %d: volumes %.6g vs %.6g", f, sa.liquid_volume, sb.liquid_volume);
        CHECK(fabs(sb.liquid_volume - vol0) < 0.02 * vol0);
        CHECK_MSG(fabs(fb.ox - 0.5 * H - extra(&sb, "window_origin_x")) < 1e-9 &&
                      fabs(fb.oy - 0.5 * H - wy) < 1e-9,
                  "frame %d: the view's origin is not the window's", f);
        CHECK(extra(&sb, "window_out_volume") == 0);
        if (path) /* moved to the path at t, rounded to the cell */
            CHECK_MSG(fabs(extra(&sb, "window_origin_x") - path_x(t)) <= H * (1 + 1e-6) &&
                          fabs(wy - path_y(t)) <= H * (1 + 1e-6),
                      "frame %d: the window at (%.4f, %.4f), the path at (%.4f, %.4f)", f,
                      extra(&sb, "window_origin_x"), wy, path_x(t), path_y(t));
        free(fa.phi);
        free(fb.phi);
    }
    CHECK_MSG(wy0 - wy > (plate ? 0.15 : 0.40) && moved_x > 0,
              "the window moved %.2f m down, %.2f m sideways", wy0 - wy, moved_x);
    close_scene(&a);
    close_scene(&b);
}

int main(void)
{
    compare(false, false);
    compare(true, false);
    compare(false, true);
    CHECK_DONE();
}
