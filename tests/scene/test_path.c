/*
 * test_path.c — path.h: the position curve passes through its keys, is C1 across them
 * (left and right difference quotients agree) and reproduces sampled quadratics
 * exactly, its velocity is the derivative of its position; slerp keeps |q| = 1, hits
 * the key orientations, takes the shortest arc and its angular velocity matches the
 * orientation's rate of change; the path is clamped outside its keys. Bad keys and
 * every malformed CSV are rejected with the one expected "FILE:LINE:COL: message".
 *
 * CSV files live in a fresh folder under /tmp that the test removes at the end.
 */
#include "lib/check.h"
#include "core/common.h"
#include "scene/path.h"

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

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static double norm4(const double q[4])
{
    return sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
}

/* 1 − |a · b|: zero when a and b are the same rotation. */
static double rot_gap(const double a[4], const double b[4])
{
    return 1 - fabs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
}

static void rand_unit_quat(lq_rng *r, double q[4])
{
    for (int k = 0; k < 4; k++) q[k] = 2 * lq_rng_uniform(r) - 1;
    double s = norm4(q);
    for (int k = 0; k < 4; k++) q[k] /= s;
}

/* --- position ---------------------------------------------------------------------- */

static void test_keys_and_c1(void)
{
    enum { N = 7 };
    lq_rng r;
    double t[N], p[3 * N], q[4 * N];
    lq_rng_seed(&r, 42);
    t[0] = 0.3;
    for (int i = 0; i < N; i++) {
        if (i) t[i] = t[i - 1] + 0.1 + lq_rng_uniform(&r); /* uneven spacing */
        for (int k = 0; k < 3; k++) p[3 * i + k] = 4 * lq_rng_uniform(&r) - 2;
        rand_unit_quat(&r, q + 4 * i);
        if (i == 3)
            for (int k = 0; k < 4; k++) q[4 * i + k] *= 2.5; /* not unit: normalised */
    }
    lq_path *path = NULL;
    CHECK_OK(lq_path_from_keys(&path, N, t, p, q));
    if (!path) return;

    for (int i = 0; i < N; i++) {
        double pos[3], qq[4];
        lq_path_eval(path, t[i], pos, qq, NULL, NULL);
        for (int k = 0; k < 3; k++) CHECK_NEAR(pos[k], p[3 * i + k], 1e-12);
        double qn[4];
        for (int k = 0; k < 4; k++) qn[k] = q[4 * i + k] / norm4(q + 4 * i);
        CHECK_MSG(rot_gap(qq, qn) < 1e-12, "key %d orientation off by %g", i, rot_gap(qq, qn));
    }

    /* C1 across interior keys: one-sided difference quotients agree to O(h) */
    const double h = 1e-6;
    for (int i = 1; i < N - 1; i++) {
        double a[3], b[3], c[3], v[3];
        lq_path_eval(path, t[i] - h, a, NULL, NULL, NULL);
        lq_path_eval(path, t[i], b, NULL, v, NULL);
        lq_path_eval(path, t[i] + h, c, NULL, NULL, NULL);
        for (int k = 0; k < 3; k++) {
            double left = (b[k] - a[k]) / h, right = (c[k] - b[k]) / h;
            CHECK_MSG(fabs(left - right) < 1e-3, "key %d axis %d: left %g right %g", i, k, left,
                      right);
            CHECK_NEAR(v[k], 0.5 * (left + right), 1e-4);
        }
    }

    /* velocity is the derivative of position (symmetric difference) inside segments */
    for (int s = 0; s < 50; s++) {
        double tt = t[0] + (t[N - 1] - t[0]) * (s + 0.5) / 50, a[3], c[3], v[3];
        lq_path_eval(path, tt - h, a, NULL, NULL, NULL);
        lq_path_eval(path, tt + h, c, NULL, NULL, NULL);
        lq_path_eval(path, tt, NULL, NULL, v, NULL);
        for (int k = 0; k < 3; k++) CHECK_NEAR(v[k], (c[k] - a[k]) / (2 * h), 1e-5);
    }

    /* clamped outside: end key, no motion */
    double pos[3], qq[4], v[3], w[3];
    lq_path_eval(path, t[0] - 5, pos, qq, v, w);
    for (int k = 0; k < 3; k++) {
        CHECK(pos[k] == p[k]);
        CHECK(v[k] == 0 && w[k] == 0);
    }
    CHECK(rot_gap(qq, path->q) < 1e-15);
    lq_path_eval(path, t[N - 1] + 5, pos, qq, v, w);
    for (int k = 0; k < 3; k++) {
        CHECK(pos[k] == p[3 * (N - 1) + k]);
        CHECK(v[k] == 0 && w[k] == 0);
    }
    lq_path_free(path);
}

/* Keys sampled from a ballistic (quadratic) trajectory at uneven times: the curve and
 * its velocity are exact everywhere between the first and last key. */
static void test_quadratic_exact(void)
{
    const double t[5] = {0, 0.13, 0.5, 0.62, 1.4};
    double p[15];
    for (int i = 0; i < 5; i++) {
        p[3 * i] = 1 + 2 * t[i];
        p[3 * i + 1] = 10 + 3 * t[i] - 4.905 * t[i] * t[i];
        p[3 * i + 2] = -0.5 * t[i] + 0.7 * t[i] * t[i];
    }
    lq_path *path = NULL;
    CHECK_OK(lq_path_from_keys(&path, 5, t, p, NULL));
    if (!path) return;
    for (int s = 0; s <= 140; s++) {
        double tt = 1.4 * s / 140, pos[3], v[3], q[4], w[3];
        lq_path_eval(path, tt, pos, q, v, w);
        CHECK_NEAR(pos[0], 1 + 2 * tt, 1e-12);
        CHECK_NEAR(pos[1], 10 + 3 * tt - 4.905 * tt * tt, 1e-12);
        CHECK_NEAR(pos[2], -0.5 * tt + 0.7 * tt * tt, 1e-12);
        CHECK_NEAR(v[0], 2, 1e-11);
        CHECK_NEAR(v[1], 3 - 9.81 * tt, 1e-11);
        CHECK_NEAR(v[2], -0.5 + 1.4 * tt, 1e-11);
        CHECK(q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0); /* NULL q: identity */
        CHECK(w[0] == 0 && w[1] == 0 && w[2] == 0);
    }
    lq_path_free(path);

    /* two keys: a straight line at constant speed */
    const double t2[2] = {1, 3}, p2[6] = {0, 0, 0, 4, -2, 6};
    CHECK_OK(lq_path_from_keys(&path, 2, t2, p2, NULL));
    if (!path) return;
    double pos[3], v[3];
    lq_path_eval(path, 2.5, pos, NULL, v, NULL);
    CHECK_NEAR(pos[0], 3, 1e-14);
    CHECK_NEAR(pos[1], -1.5, 1e-14);
    CHECK_NEAR(pos[2], 4.5, 1e-14);
    CHECK_NEAR(v[0], 2, 1e-14);
    CHECK_NEAR(v[1], -1, 1e-14);
    CHECK_NEAR(v[2], 3, 1e-14);
    lq_path_free(path);
}

/* --- orientation ------------------------------------------------------------------- */

static void test_slerp(void)
{
    /* 170° about z, given with w < 0 (the same rotation as its negation): the shortest
     * arc turns 170°, not 190° */
    const double a = 170 * LQ_PI / 180;
    const double t[3] = {0, 2, 3}, p[9] = {0};
    const double q[12] = {1, 0, 0, 0, -cos(a / 2), 0, 0, -sin(a / 2), 0, 1, 0, 0};
    lq_path *path = NULL;
    CHECK_OK(lq_path_from_keys(&path, 3, t, p, q));
    if (!path) return;
    double w[3], qq[4];
    lq_path_eval(path, 1, NULL, qq, NULL, w);
    CHECK_NEAR(w[0], 0, 1e-14);
    CHECK_NEAR(w[1], 0, 1e-14);
    CHECK_NEAR(w[2], a / 2, 1e-12);
    /* halfway: 85° about z */
    const double half[4] = {cos(a / 4), 0, 0, sin(a / 4)};
    CHECK_MSG(rot_gap(qq, half) < 1e-14, "halfway orientation off by %g", rot_gap(qq, half));

    const double h = 1e-6;
    for (int s = 0; s <= 300; s++) {
        double tt = 0.01 * s, q0[4], q1[4], d[4], inv[4];
        lq_path_eval(path, tt, NULL, q0, NULL, w);
        CHECK_NEAR(norm4(q0), 1, 1e-14);
        /* ω from the change of q over h: q1 ⊗ q0⁻¹ ≈ (1, ½ ω h) */
        if (s == 300) continue; /* t + h is past the last key */
        lq_path_eval(path, tt + h, NULL, q1, NULL, NULL);
        inv[0] = q0[0];
        for (int k = 1; k < 4; k++) inv[k] = -q0[k];
        lq_quat_mul(q1, inv, d);
        if (d[0] < 0)
            for (int k = 0; k < 4; k++) d[k] = -d[k];
        for (int k = 0; k < 3; k++) CHECK_NEAR(2 * d[k + 1] / h, w[k], 1e-6);
    }
    /* keys hit at the segment ends */
    lq_path_eval(path, 2, NULL, qq, NULL, NULL);
    CHECK(rot_gap(qq, q + 4) < 1e-15);
    lq_path_eval(path, 3, NULL, qq, NULL, NULL);
    CHECK(rot_gap(qq, q + 8) < 1e-15);
    lq_path_free(path);
}

/* --- bad keys ---------------------------------------------------------------------- */

#define CHECK_REJECT(expr, what)                                                                   \
    do {                                                                                           \
        lq_error_clear();                                                                          \
        int rc_ = (expr);                                                                          \
        const char *m_ = lq_error_message();                                                       \
        CHECK_MSG(rc_ == LQ_EINPUT, "rc %d, want %d (%s)", rc_, LQ_EINPUT, m_);                    \
        CHECK_MSG(strstr(m_, what) != NULL, "message '%s' lacks '%s'", m_, what);                  \
        CHECK_MSG(strchr(m_, '\n') == NULL, "message '%s' is not one line", m_);                   \
    } while (0)

static void test_bad_keys(void)
{
    lq_path *path = (lq_path *)&path; /* must come back NULL */
    const double t[3] = {0, 1, 1}, p[9] = {0};
    const double q[12] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
    CHECK_REJECT(lq_path_from_keys(&path, 1, t, p, NULL), "at least 2 keys, found 1");
    CHECK(path == NULL);
    CHECK_REJECT(lq_path_from_keys(&path, 3, t, p, NULL), "path key 3: t = 1 is not after");
    CHECK_REJECT(lq_path_from_keys(&path, 2, t, p, q), "path key 2: the quaternion is zero");
    const double tn[2] = {0, NAN};
    CHECK_REJECT(lq_path_from_keys(&path, 2, tn, p, NULL), "path key 2: a number is not finite");
    CHECK(path == NULL);
}

/* --- CSV --------------------------------------------------------------------------- */

static void test_csv_ok(void)
{
    const char *f = tmp_path("ok.csv");
    /* columns in another order, comments, blanks, CRLF */
    write_text(f, "# a diver\r\n"
                  "\n"
                  " qw, x ,y,z,t,qx,qy,qz   # header\r\n"
                  "1,0,10,0,0,0,0,0\r\n"
                  "   \n"
                  "# in flight\n"
                  "0,1,8,0,0.5,0,0,2\n"
                  "1,2,1,0,1.5,0,0,0\n");
    lq_path *path = NULL;
    CHECK_OK(lq_path_read_csv(&path, f));
    if (path) {
        CHECK(path->n == 3);
        CHECK(path->t[0] == 0 && path->t[1] == 0.5 && path->t[2] == 1.5);
        CHECK(path->p[3] == 1 && path->p[4] == 8 && path->p[5] == 0);
        CHECK(path->q[4] == 0 && path->q[7] == 1); /* (0,0,0,2) normalised */
        lq_path_free(path);
    }
    CHECK(unlink(f) == 0);

    f = tmp_path("noq.csv");
    write_text(f, "t,x,y,z\n0,1,2,3\n1,1,2,4");
    CHECK_OK(lq_path_read_csv(&path, f));
    if (path) {
        double pos[3], q[4];
        lq_path_eval(path, 0.5, pos, q, NULL, NULL);
        CHECK_NEAR(pos[2], 3.5, 1e-14);
        CHECK(q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0);
        lq_path_free(path);
    }
    CHECK(unlink(f) == 0);
}

static void check_csv_error(const char *name, const char *text, const char *want)
{
    char expect[512];
    const char *f = tmp_path(name);
    lq_path *path = (lq_path *)&path;
    write_text(f, text);
    snprintf(expect, sizeof expect, "%s:%s", f, want);
    lq_error_clear();
    int rc = lq_path_read_csv(&path, f);
    const char *m = lq_error_message();
    CHECK_MSG(rc == LQ_EINPUT, "%s: rc %d (%s)", name, rc, m);
    CHECK_MSG(path == NULL, "%s: path not NULL", name);
    CHECK_MSG(strncmp(m, expect, strlen(expect)) == 0, "%s: got '%s', want '%s'", name, m, expect);
    CHECK_MSG(strchr(m, '\n') == NULL, "%s: '%s' is not one line", name, m);
    CHECK(unlink(f) == 0);
}

static void test_csv_errors(void)
{
    lq_path *path = NULL;
    const char *missing = tmp_path("missing.csv");
    char expect[300];
    snprintf(expect, sizeof expect, "%s: cannot open: No such file or directory", missing);
    lq_error_clear();
    CHECK(lq_path_read_csv(&path, missing) == LQ_EINPUT);
    CHECK_MSG(strcmp(lq_error_message(), expect) == 0, "got '%s'", lq_error_message());

    check_csv_error("empty.csv", "# nothing\n\n", "2:1: no header line");
    check_csv_error("unknown.csv", "t,x,y,z, speed\n",
                    "1:10: unknown column 'speed'; allowed: t, x, y, z, qw, qx, qy, qz");
    check_csv_error("toomany.csv", "t,x,y,z,qw,qx,qy,qz,t\n", "1:21: 9 columns in the header");
    check_csv_error("twice.csv", "t,x,y,x\n", "1:7: column 'x' named twice");
    check_csv_error("lacks.csv", "#\nt,x,y\n", "2:1: the header lacks column 'z'");
    check_csv_error("partq.csv", "t,x,y,z,qw,qy\n", "1:1: the header lacks column 'qx'");
    check_csv_error("short.csv", "t,x,y,z\n0,1,2\n",
                    "2:6: expected 4 values (as in the header), found 3");
    check_csv_error("long.csv", "t,x,y,z\n0,1,2,3\n1, 1,2,3,4\n",
                    "3:10: expected 4 values (as in the header), found 5");
    check_csv_error("nan.csv", "t,x,y,z\n0,1,abc,3\n", "2:5: column 'y': 'abc' is not a number");
    check_csv_error("trail.csv", "t,x,y,z\n0,1,2,3x\n", "2:7: column 'z': '3x' is not a number");
    check_csv_error("blank.csv", "t,x,y,z\n0,,2,3\n", "2:3: column 'x': '' is not a number");
    check_csv_error("inf.csv", "t,x,y,z\n0,1,2,3\n1,inf,2,3\n",
                    "3:3: column 'x': 'inf' is not finite");
    check_csv_error("nanval.csv", "t,x,y,z\nnan,1,2,3\n", "2:1: column 't': 'nan' is not finite");
    check_csv_error("huge.csv", "t,x,y,z\n0,1e999,2,3\n", "2:3: column 'x': '1e999' is not finite");
    check_csv_error("order.csv", "t,x,y,z\n0,1,2,3\n1,1,2,3\n  1,1,2,3\n",
                    "4:3: t = 1 is not after the previous key's t = 1 (times must increase "
                    "strictly)");
    check_csv_error("one.csv", "# x\nt,x,y,z\n0,1,2,3\n",
                    "3:1: a path needs at least 2 keys, found 1");
    check_csv_error("none.csv", "t,x,y,z\n", "1:1: a path needs at least 2 keys, found 0");
    check_csv_error("zeroq.csv", "x,y,z,t,qx,qy,qz,qw\n0,0,0,0,0,0,0,1\n0,0,0,1,0,0,0,0\n",
                    "3:15: the quaternion (qw, qx, qy, qz) is zero");
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/lq_test_path.XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_keys_and_c1();
    test_quadratic_exact();
    test_slerp();
    test_bad_keys();
    test_csv_ok();
    test_csv_errors();
    CHECK(rmdir(dir) == 0); /* every test removed its files */
    CHECK_DONE();
}
