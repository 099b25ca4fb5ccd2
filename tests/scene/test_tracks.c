/*
 * test_tracks.c — tracks.h: keyframed control-particle tracks and monotone curves.
 *  - a track's position is the Catmull–Rom spline: it passes through its keys,
 *    reproduces keys sampled from a quadratic exactly and its motion velocity is that
 *    quadratic's derivative; keyed velocities interpolate the same way; a one-key track
 *    stands still; a track holds its ends outside its keys; tracks come by id whatever
 *    the order of their lines;
 *  - the scalar channels (value, strength, radius, and the scene's *_keys) are monotone
 *    cubics: through the keys, never outside the range of the two keys around them (a
 *    fade 1 → 0 stays in [0, 1], a viscosity 100 → 0.01 stays positive), flat where two
 *    keys are equal, C1 at the keys;
 *  - every malformed file is rejected with one "FILE:LINE:COL: message".
 * CSV files live in a fresh folder under /tmp that the test removes at the end.
 */
#include "lib/check.h"
#include "core/common.h"
#include "scene/tracks.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static const char *tmp_path(const char *name)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return buf;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* x(t) = 1 + 2t − 3t², y = 0.5 t², z = 4 − t */
static void quad(double t, double p[3], double v[3])
{
    p[0] = 1 + 2 * t - 3 * t * t;
    p[1] = 0.5 * t * t;
    p[2] = 4 - t;
    v[0] = 2 - 6 * t;
    v[1] = t;
    v[2] = -1;
}

static void test_tracks(void)
{
    fprintf(stderr, "tracks:\n");
    char text[2048];
    size_t o = 0;
    o += (size_t)snprintf(text + o, sizeof text - o,
                          "# two tracks, interleaved\nt, id, x, y, z, strength, vx, vy, vz\n");
    double ts[4] = {0, 0.5, 1.25, 2};
    for (int i = 0; i < 4; i++) {
        double p[3], v[3];
        quad(ts[i], p, v);
        o += (size_t)snprintf(text + o, sizeof text - o,
                              "%.17g, 7, %.17g, %.17g, %.17g, %g, %g, 0, 0\n", ts[i], p[0], p[1],
                              p[2], i < 2 ? 1.0 : 0.0, (double)i);
        if (i == 1)
            o += (size_t)snprintf(text + o, sizeof text - o, "0.3, 3, 1, 2, 3, 0.5, 9, 9, 9\n");
    }
    write_text(tmp_path("t.csv"), text);
    lq_tracks *ts_ = NULL;
    CHECK_OK(lq_tracks_read_csv(&ts_, tmp_path("t.csv")));
    if (!ts_) return;
    CHECK(ts_->n == 2 && ts_->track[0].id == 3 && ts_->track[1].id == 7);
    CHECK(ts_->has_vel && ts_->has_strength && !ts_->has_value && !ts_->has_radius);
    lq_track_at at;
    double err = 0, verr = 0;
    for (double t = 0; t <= 2; t += 0.05) {
        double p[3], v[3];
        quad(t, p, v);
        lq_tracks_eval(ts_, 1, t, &at);
        for (int k = 0; k < 3; k++) {
            err = fmax(err, fabs(at.pos[k] - p[k]));
            verr = fmax(verr, fabs(at.motion[k] - v[k]));
        }
        CHECK(at.strength >= 0 && at.strength <= 1);
        CHECK(at.vel[0] >= -1e-12 && at.vel[0] <= 3 + 1e-12 && at.vel[1] == 0);
    }
    fprintf(stderr, "  quadratic keys: position error %.3g m, velocity error %.3g m/s\n", err,
            verr);
    CHECK(err < 1e-12 && verr < 1e-12);
    lq_tracks_eval(ts_, 1, 0.5, &at);
    CHECK(at.strength == 1 && at.vel[0] == 1);
    lq_tracks_eval(ts_, 1, 0.25, &at);
    CHECK(at.strength == 1);        /* flat between equal keys */
    lq_tracks_eval(ts_, 1, 9, &at); /* held after the last key */
    double p[3], v[3];
    quad(2, p, v);
    CHECK(at.pos[0] == p[0] && at.motion[0] == 0 && at.strength == 0 && at.vel[0] == 3);
    lq_tracks_eval(ts_, 0, 5, &at); /* one key: still */
    CHECK(at.pos[0] == 1 && at.pos[2] == 3 && at.motion[1] == 0 && at.strength == 0.5 &&
          at.vel[2] == 9);
    lq_tracks_free(ts_);
}

static void test_curves(void)
{
    fprintf(stderr, "monotone curves:\n");
    lq_curve c;
    double fade[] = {0, 1, 1.5, 1, 1.6, 0, 3, 0};
    CHECK_OK(lq_curve_from_pairs(&c, 8, fade));
    double lo = 1, hi = 0;
    for (double t = -1; t < 4; t += 0.001) {
        double s = lq_curve_eval(&c, t);
        lo = fmin(lo, s);
        hi = fmax(hi, s);
        if (t <= 1.5) CHECK(s == 1);
        if (t >= 1.6) CHECK(s == 0);
    }
    CHECK(lo == 0 && hi == 1);
    CHECK(lq_curve_eval(&c, 1.55) > 0 && lq_curve_eval(&c, 1.55) < 1);
    lq_curve_free(&c);
    double nu[] = {0, 100, 1, 100, 1.5, 0.01, 2, 0.005, 2.5, 3};
    CHECK_OK(lq_curve_from_pairs(&c, 10, nu));
    double bad = 0, cjump = 0;
    for (int i = 0; i < 4; i++) {
        double a = nu[2 * i + 1], b = nu[2 * i + 3], l = fmin(a, b), u = fmax(a, b);
        for (double t = nu[2 * i]; t <= nu[2 * i + 2]; t += 1e-3) {
            double s = lq_curve_eval(&c, t);
            bad = fmax(bad, fmax(l - s, s - u));
        }
        /* C1: the slopes either side of a key agree */
        double tk = nu[2 * i + 2], e = 1e-7;
        double sl = (lq_curve_eval(&c, tk) - lq_curve_eval(&c, tk - e)) / e,
               sr = (lq_curve_eval(&c, tk + e) - lq_curve_eval(&c, tk)) / e;
        if (i < 3) cjump = fmax(cjump, fabs(sl - sr) / fmax(1, fabs(sl)));
        CHECK(lq_curve_eval(&c, tk) == nu[2 * i + 3]);
    }
    fprintf(stderr, "  largest excursion beyond neighbouring keys %.3g; slope jump at keys %.3g\n",
            bad, cjump);
    CHECK(bad <= 1e-12 && cjump < 1e-2);
    lq_curve_free(&c);
    double odd[] = {0, 1, 2};
    CHECK(lq_curve_from_pairs(&c, 3, odd) == LQ_EINPUT);
    lq_error_clear();
    double back[] = {0, 1, 0, 2};
    CHECK(lq_curve_from_pairs(&c, 4, back) == LQ_EINPUT);
    CHECK(strstr(lq_error_message(), "key 2") != NULL);
    lq_error_clear();
}

static void expect_error(const char *text, const char *want)
{
    const char *path = tmp_path("bad.csv");
    write_text(path, text);
    lq_tracks *t = NULL;
    lq_error_clear();
    int rc = lq_tracks_read_csv(&t, path);
    char full[512];
    snprintf(full, sizeof full, "%s:%s", path, want);
    CHECK_MSG(rc == LQ_EINPUT && t == NULL && strncmp(lq_error_message(), full, strlen(full)) == 0,
              "want '%s...', got '%s'", full, lq_error_message());
    lq_tracks_free(t);
}

static void test_errors(void)
{
    fprintf(stderr, "malformed files:\n");
    expect_error("id,t,x,y\n", "1:1: the header lacks column 'z'");
    expect_error("id,t,x,y,z,w\n", "1:12: unknown column 'w'");
    expect_error("id,t,x,y,z,x\n", "1:12: column 'x' named twice");
    expect_error("id,t,x,y,z,vx,vz\n", "1:1: the velocity columns");
    expect_error("id,t,x,y,z\n1,0,0,0\n", "2:8: expected 5 values");
    expect_error("id,t,x,y,z\n1,0,0,a,0\n", "2:7: column 'y': 'a' is not a number");
    expect_error("id,t,x,y,z\n1.5,0,0,0,0\n", "2:1: column 'id': '1.5' is not an integer");
    expect_error("id,t,x,y,z,strength\n1,0,0,0,0,2\n", "2:11: column 'strength'");
    expect_error("id,t,x,y,z,radius\n1,0,0,0,0,0\n", "2:11: column 'radius'");
    expect_error("id,t,x,y,z\n1,0,0,0,0\n2,0,0,0,0\n1, 0.5,0,0,0\n1,0.25,0,0,0\n",
                 "5:3: track 1: t = 0.25 is not after");
    expect_error("# nothing\n\n", "2:1: no header line");
    expect_error("id,t,x,y,z\n", "1:1: no keys");
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/lq_test_tracks_XXXXXX");
    if (!mkdtemp(dir)) return 1;
    test_tracks();
    test_curves();
    test_errors();
    remove(tmp_path("t.csv"));
    remove(tmp_path("bad.csv"));
    rmdir(dir);
    CHECK_DONE();
}
