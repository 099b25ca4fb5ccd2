/*
 * path.c — keyframed paths (see path.h for the interpolation: Catmull–Rom in position
 * with the key times as knots, shortest-arc slerp in orientation, clamped outside the
 * keys) and their CSV reader.
 *
 * Invariants of an lq_path: n >= 2; t strictly increasing; every number finite; q unit
 * with q_i · q_{i+1} >= 0, so a segment's slerp is the shortest arc and ends exactly on
 * the stored next key; m holds the tangents, computed once when the path is made.
 *
 * CSV errors name FILE:LINE:COL, LINE and COL 1-based, COL the byte where the offending
 * field (after leading blanks) or header name starts.
 */
#include "scene/path.h"

#include "core/common.h"
#include "core/input.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- quaternions ---------------------------------------------------------------- */

void lq_quat_mul(const double a[4], const double b[4], double out[4])
{
    double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
    out[0] = w;
    out[1] = x;
    out[2] = y;
    out[3] = z;
}

void lq_quat_to_rot(const double q[4], double rot[9])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    rot[0] = 1 - 2 * (y * y + z * z);
    rot[1] = 2 * (x * y - w * z);
    rot[2] = 2 * (x * z + w * y);
    rot[3] = 2 * (x * y + w * z);
    rot[4] = 1 - 2 * (x * x + z * z);
    rot[5] = 2 * (y * z - w * x);
    rot[6] = 2 * (x * z - w * y);
    rot[7] = 2 * (y * z + w * x);
    rot[8] = 1 - 2 * (x * x + y * y);
}

static void lq_quat_normalize(double q[4])
{
    double s = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++) q[k] /= s;
}

void lq_quat_rotate_by(double q[4], const double w[3])
{
    double a = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    /* sin(a/2)/a, by its series where a is too small to divide by */
    double s = a > 1e-8 ? sin(0.5 * a) / a : 0.5 - a * a / 48;
    double dq[4] = {cos(0.5 * a), s * w[0], s * w[1], s * w[2]};
    lq_quat_mul(dq, q, q);
    lq_quat_normalize(q);
}

/* --- making a path -------------------------------------------------------------- */

static int lq_path_finite3(const double *v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

/* Tangents: derivative of the parabola through three neighbouring keys (path.h). */
static void lq_path_tangents(lq_path *p)
{
    int n = p->n;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            double m;
            if (n == 2) {
                m = (p->p[3 + k] - p->p[k]) / (p->t[1] - p->t[0]);
            } else {
                int c = i == 0 ? 1 : i == n - 1 ? n - 2 : i; /* middle key of the three */
                double h0 = p->t[c] - p->t[c - 1], h1 = p->t[c + 1] - p->t[c];
                double d0 = (p->p[3 * c + k] - p->p[3 * (c - 1) + k]) / h0;
                double d1 = (p->p[3 * (c + 1) + k] - p->p[3 * c + k]) / h1;
                double curv = (d1 - d0) / (h0 + h1);
                if (i == 0)
                    m = d0 - curv * h0;
                else if (i == n - 1)
                    m = d0 + curv * (h0 + 2 * h1);
                else
                    m = (h1 * d0 + h0 * d1) / (h0 + h1);
            }
            p->m[3 * i + k] = m;
        }
    }
}

int lq_path_from_keys(lq_path **out, int n, const double *t, const double *pos, const double *q)
{
    *out = NULL;
    if (n < 2) return lq_error(LQ_EINPUT, "a path needs at least 2 keys, found %d", n);
    for (int i = 0; i < n; i++) {
        if (!isfinite(t[i]) || !lq_path_finite3(pos + 3 * i) ||
            (q && (!lq_path_finite3(q + 4 * i + 1) || !isfinite(q[4 * i]))))
            return lq_error(LQ_EINPUT, "path key %d: a number is not finite", i + 1);
        if (i > 0 && !(t[i] > t[i - 1]))
            return lq_error(LQ_EINPUT,
                            "path key %d: t = %.17g is not after the previous key's t = %.17g "
                            "(times must increase strictly)",
                            i + 1, t[i], t[i - 1]);
        if (q && q[4 * i] == 0 && q[4 * i + 1] == 0 && q[4 * i + 2] == 0 && q[4 * i + 3] == 0)
            return lq_error(LQ_EINPUT, "path key %d: the quaternion is zero", i + 1);
    }
    lq_path *p = lq_calloc(1, sizeof *p);
    if (!p) return LQ_ESIM;
    p->n = n;
    p->t = lq_alloc(sizeof(double) * (size_t)n);
    p->p = lq_alloc(sizeof(double) * 3 * (size_t)n);
    p->q = lq_alloc(sizeof(double) * 4 * (size_t)n);
    p->m = lq_alloc(sizeof(double) * 3 * (size_t)n);
    if (!p->t || !p->p || !p->q || !p->m) {
        lq_path_free(p);
        return LQ_ESIM;
    }
    memcpy(p->t, t, sizeof(double) * (size_t)n);
    memcpy(p->p, pos, sizeof(double) * 3 * (size_t)n);
    for (int i = 0; i < n; i++) {
        double *qi = p->q + 4 * i;
        if (q) {
            memcpy(qi, q + 4 * i, 4 * sizeof(double));
            lq_quat_normalize(qi);
        } else {
            qi[0] = 1;
            qi[1] = qi[2] = qi[3] = 0;
        }
        if (i > 0) {
            const double *qp = qi - 4;
            if (qp[0] * qi[0] + qp[1] * qi[1] + qp[2] * qi[2] + qp[3] * qi[3] < 0)
                for (int k = 0; k < 4; k++) qi[k] = -qi[k];
        }
    }
    lq_path_tangents(p);
    *out = p;
    return LQ_OK;
}

void lq_path_free(lq_path *p)
{
    if (!p) return;
    free(p->t);
    free(p->p);
    free(p->q);
    free(p->m);
    free(p);
}

/* --- evaluation ----------------------------------------------------------------- */

void lq_path_eval(const lq_path *p, double t, double pos[3], double q[4], double vel[3],
                  double omega[3])
{
    int n = p->n;
    if (t < p->t[0] || t > p->t[n - 1]) {
        int e = t < p->t[0] ? 0 : n - 1;
        for (int k = 0; k < 3; k++) {
            if (pos) pos[k] = p->p[3 * e + k];
            if (vel) vel[k] = 0;
            if (omega) omega[k] = 0;
        }
        if (q) memcpy(q, p->q + 4 * e, 4 * sizeof(double));
        return;
    }
    /* segment i: t_i <= t <= t_{i+1}, the last one closed */
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (p->t[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    int i = lo;
    double h = p->t[i + 1] - p->t[i];
    double u = (t - p->t[i]) / h;
    double u2 = u * u, u3 = u2 * u;
    double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u;
    double h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
    double g00 = 6 * u2 - 6 * u, g10 = 3 * u2 - 4 * u + 1;
    double g01 = -6 * u2 + 6 * u, g11 = 3 * u2 - 2 * u;
    const double *p0 = p->p + 3 * i, *p1 = p0 + 3, *m0 = p->m + 3 * i, *m1 = m0 + 3;
    for (int k = 0; k < 3; k++) {
        if (pos) pos[k] = h00 * p0[k] + h10 * h * m0[k] + h01 * p1[k] + h11 * h * m1[k];
        if (vel) vel[k] = (g00 * p0[k] + g01 * p1[k]) / h + g10 * m0[k] + g11 * m1[k];
    }
    /* slerp: q(t) = exp(½ ω (t − t_i)) ⊗ q_i, ω from d = q_{i+1} ⊗ q_i⁻¹ (d_w >= 0) */
    const double *qa = p->q + 4 * i, *qb = qa + 4;
    double inv[4] = {qa[0], -qa[1], -qa[2], -qa[3]}, d[4];
    lq_quat_mul(qb, inv, d);
    double s = sqrt(d[1] * d[1] + d[2] * d[2] + d[3] * d[3]);
    double angle = 2 * atan2(s, d[0] < 0 ? 0 : d[0]);
    double w[3] = {0, 0, 0};
    if (s > 0)
        for (int k = 0; k < 3; k++) w[k] = d[k + 1] / s * angle / h;
    if (omega) memcpy(omega, w, sizeof w);
    if (q) {
        if (u >= 1) {
            memcpy(q, qb, 4 * sizeof(double));
        } else {
            double wt[3] = {w[0] * (t - p->t[i]), w[1] * (t - p->t[i]), w[2] * (t - p->t[i])};
            memcpy(q, qa, 4 * sizeof(double));
            lq_quat_rotate_by(q, wt);
        }
    }
}

/* --- CSV ------------------------------------------------------------------------ */

enum {
    LQ_PATH_COL_T,
    LQ_PATH_COL_X,
    LQ_PATH_COL_Y,
    LQ_PATH_COL_Z,
    LQ_PATH_COL_QW,
    LQ_PATH_COL_QX,
    LQ_PATH_COL_QY,
    LQ_PATH_COL_QZ,
    LQ_PATH_NCOL
};

static const char *const lq_path_colnames[LQ_PATH_NCOL] = {"t",  "x",  "y",  "z",
                                                           "qw", "qx", "qy", "qz"};

#define LQ_PATH_ALLOWED "t, x, y, z, qw, qx, qy, qz"

typedef struct lq_path_csv_field {
    char *s; /* NUL-terminated, blanks trimmed */
    int col; /* 1-based byte column of its first character */
} lq_path_csv_field;

static int lq_path_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Splits a line (comment and line end already cut) at commas, trimming blanks and
 * writing NULs into it. Returns the field count; fills at most max fields. */
static int lq_path_csv_split(char *line, lq_path_csv_field *f, int max)
{
    int count = 0;
    char *c = line;
    for (;;) {
        char *start = c;
        while (*c && *c != ',') c++;
        char *next = *c ? c + 1 : NULL;
        char *e = c;
        while (lq_path_blank(*start)) start++;
        while (e > start && lq_path_blank(e[-1])) e--;
        if (count < max) {
            f[count].s = start;
            f[count].col = (int)(start - line) + 1;
        }
        *e = '\0';
        count++;
        if (!next) break;
        c = next;
    }
    return count;
}

typedef struct lq_path_keys {
    int n, cap;
    double *t, *p, *q;
} lq_path_keys;

static int lq_path_keys_push(lq_path_keys *k, const double v[LQ_PATH_NCOL])
{
    if (k->n == k->cap) {
        int cap = k->cap ? 2 * k->cap : 64;
        double *t = realloc(k->t, sizeof(double) * (size_t)cap);
        if (t) k->t = t;
        double *p = realloc(k->p, sizeof(double) * 3 * (size_t)cap);
        if (p) k->p = p;
        double *q = realloc(k->q, sizeof(double) * 4 * (size_t)cap);
        if (q) k->q = q;
        if (!t || !p || !q) return lq_error(LQ_ESIM, "out of host memory reading a path");
        k->cap = cap;
    }
    k->t[k->n] = v[LQ_PATH_COL_T];
    memcpy(k->p + 3 * k->n, v + LQ_PATH_COL_X, 3 * sizeof(double));
    memcpy(k->q + 4 * k->n, v + LQ_PATH_COL_QW, 4 * sizeof(double));
    k->n++;
    return LQ_OK;
}

int lq_path_read_csv(lq_path **out, const char *file)
{
    int rc = LQ_OK, lineno = 0, ncols = 0, have_q = 0;
    int which[LQ_PATH_NCOL];               /* header column j holds key field which[j] */
    lq_path_csv_field f[LQ_PATH_NCOL + 1]; /* one extra to locate a surplus field */
    char *line = NULL;
    size_t cap = 0;
    lq_path_keys keys = {0};
    *out = NULL;

    FILE *fp = NULL;
    rc = lq_input_open_asset(file, &fp);
    if (rc) return rc;
    while (getline(&line, &cap, fp) >= 0) {
        lineno++;
        line[strcspn(line, "#\r\n")] = '\0';
        char *c = line;
        while (lq_path_blank(*c)) c++;
        if (!*c) continue;
        int count = lq_path_csv_split(line, f, LQ_PATH_NCOL + 1);
        if (!ncols) {
            /* the header */
            int seen[LQ_PATH_NCOL] = {0};
            if (count > LQ_PATH_NCOL) {
                rc = lq_error(LQ_EINPUT, "%s:%d:%d: %d columns in the header; allowed: %s", file,
                              lineno, f[LQ_PATH_NCOL].col, count, LQ_PATH_ALLOWED);
                goto fail;
            }
            for (int j = 0; j < count; j++) {
                int k = 0;
                while (k < LQ_PATH_NCOL && strcmp(f[j].s, lq_path_colnames[k])) k++;
                if (k == LQ_PATH_NCOL) {
                    rc = lq_error(LQ_EINPUT, "%s:%d:%d: unknown column '%s'; allowed: %s", file,
                                  lineno, f[j].col, f[j].s, LQ_PATH_ALLOWED);
                    goto fail;
                }
                if (seen[k]) {
                    rc = lq_error(LQ_EINPUT, "%s:%d:%d: column '%s' named twice", file, lineno,
                                  f[j].col, f[j].s);
                    goto fail;
                }
                seen[k] = 1;
                which[j] = k;
            }
            for (int k = LQ_PATH_COL_T; k <= LQ_PATH_COL_Z; k++)
                if (!seen[k]) {
                    rc = lq_error(LQ_EINPUT,
                                  "%s:%d:1: the header lacks column '%s' (t, x, y, z are "
                                  "required; qw, qx, qy, qz optional, all four or none)",
                                  file, lineno, lq_path_colnames[k]);
                    goto fail;
                }
            have_q = seen[LQ_PATH_COL_QW] + seen[LQ_PATH_COL_QX] + seen[LQ_PATH_COL_QY] +
                     seen[LQ_PATH_COL_QZ];
            if (have_q != 0 && have_q != 4) {
                int k = LQ_PATH_COL_QW;
                while (seen[k]) k++;
                rc = lq_error(LQ_EINPUT,
                              "%s:%d:1: the header lacks column '%s' (the quaternion columns "
                              "qw, qx, qy, qz come all four or none)",
                              file, lineno, lq_path_colnames[k]);
                goto fail;
            }
            ncols = count;
            continue;
        }
        /* a key */
        if (count != ncols) {
            /* at the first surplus field, or just after the last one */
            int col = count > ncols ? f[ncols].col : f[count - 1].col + (int)strlen(f[count - 1].s);
            rc = lq_error(LQ_EINPUT, "%s:%d:%d: expected %d values (as in the header), found %d",
                          file, lineno, col, ncols, count);
            goto fail;
        }
        double v[LQ_PATH_NCOL] = {0, 0, 0, 0, 1, 0, 0, 0};
        int col_of[LQ_PATH_NCOL] = {0};
        for (int j = 0; j < ncols; j++) {
            char *end;
            const char *name = lq_path_colnames[which[j]];
            double x = strtod(f[j].s, &end);
            if (end == f[j].s || *end) {
                rc = lq_error(LQ_EINPUT, "%s:%d:%d: column '%s': '%s' is not a number", file,
                              lineno, f[j].col, name, f[j].s);
                goto fail;
            }
            if (!isfinite(x)) {
                rc = lq_error(LQ_EINPUT, "%s:%d:%d: column '%s': '%s' is not finite", file, lineno,
                              f[j].col, name, f[j].s);
                goto fail;
            }
            v[which[j]] = x;
            col_of[which[j]] = f[j].col;
        }
        if (keys.n > 0 && !(v[LQ_PATH_COL_T] > keys.t[keys.n - 1])) {
            rc =
                lq_error(LQ_EINPUT,
                         "%s:%d:%d: t = %.17g is not after the previous key's t = %.17g (times "
                         "must increase strictly)",
                         file, lineno, col_of[LQ_PATH_COL_T], v[LQ_PATH_COL_T], keys.t[keys.n - 1]);
            goto fail;
        }
        if (v[LQ_PATH_COL_QW] == 0 && v[LQ_PATH_COL_QX] == 0 && v[LQ_PATH_COL_QY] == 0 &&
            v[LQ_PATH_COL_QZ] == 0) {
            rc = lq_error(LQ_EINPUT,
                          "%s:%d:%d: the quaternion (qw, qx, qy, qz) is zero; it must have a "
                          "length (identity: 1, 0, 0, 0)",
                          file, lineno, col_of[LQ_PATH_COL_QW]);
            goto fail;
        }
        rc = lq_path_keys_push(&keys, v);
        if (rc) goto fail;
    }
    if (ferror(fp)) {
        rc = lq_error(LQ_EINPUT, "%s:%d:1: read error: %s", file, lineno + 1, strerror(errno));
        goto fail;
    }
    if (!ncols) {
        rc = lq_error(LQ_EINPUT,
                      "%s:%d:1: no header line; the first line that is not blank or a comment "
                      "names the columns, e.g. t,x,y,z[,qw,qx,qy,qz]",
                      file, lineno > 0 ? lineno : 1);
        goto fail;
    }
    if (keys.n < 2) {
        rc = lq_error(LQ_EINPUT, "%s:%d:1: a path needs at least 2 keys, found %d", file,
                      lineno > 0 ? lineno : 1, keys.n);
        goto fail;
    }
    rc = lq_path_from_keys(out, keys.n, keys.t, keys.p, have_q ? keys.q : NULL);
fail:
    free(keys.t);
    free(keys.p);
    free(keys.q);
    free(line);
    fclose(fp);
    return rc;
}
