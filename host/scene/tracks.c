/*
 * tracks.c — keyframed control-particle tracks from CSV, and monotone scalar curves (see
 * tracks.h for the format and the interpolation).
 *
 * Reading: every key line becomes a row (id, t, the other columns, its line and t's
 * column); the rows are sorted by (id, line), so a track's keys keep their file order
 * and the tracks come by increasing id; then each track's times are checked to increase
 * strictly and its splines made (Catmull–Rom by scene/path.c, the scalars here).
 */
#include "scene/tracks.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"

/* --- monotone cubic Hermite (Fritsch & Carlson 1980, Fritsch & Butland's tangents) ---- */

int lq_curve_make(lq_curve *c, int n, const double *t, const double *v)
{
    *c = (lq_curve){0};
    if (n < 1) return lq_error(LQ_EINPUT, "a curve needs at least one key");
    for (int i = 0; i < n; i++) {
        if (!isfinite(t[i]) || !isfinite(v[i]))
            return lq_error(LQ_EINPUT, "key %d: a number is not finite", i + 1);
        if (i > 0 && !(t[i] > t[i - 1]))
            return lq_error(LQ_EINPUT,
                            "key %d: t = %.17g is not after the previous key's t = %.17g (times "
                            "must increase strictly)",
                            i + 1, t[i], t[i - 1]);
    }
    c->t = lq_alloc(sizeof(double) * (size_t)n);
    c->v = lq_alloc(sizeof(double) * (size_t)n);
    c->m = lq_alloc(sizeof(double) * (size_t)n);
    if (!c->t || !c->v || !c->m) {
        lq_curve_free(c);
        return LQ_ESIM;
    }
    c->n = n;
    memcpy(c->t, t, sizeof(double) * (size_t)n);
    memcpy(c->v, v, sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++) {
        double d0 = i > 0 ? (v[i] - v[i - 1]) / (t[i] - t[i - 1]) : 0;
        double d1 = i < n - 1 ? (v[i + 1] - v[i]) / (t[i + 1] - t[i]) : 0;
        if (i == 0 || i == n - 1) {
            /* the one secant (0 for a single key): with the inner tangents ≤ 3 times the
             * smaller neighbouring secant (the harmonic mean's bound), Fritsch and
             * Carlson's region α, β ∈ [0, 3] holds in the end segments too */
            c->m[i] = i == 0 ? d1 : d0;
        } else if (d0 * d1 <= 0) {
            c->m[i] = 0; /* a local extremum or a flat side: no overshoot */
        } else {
            double h0 = t[i] - t[i - 1], h1 = t[i + 1] - t[i];
            c->m[i] = 3 * (h0 + h1) / ((2 * h1 + h0) / d0 + (h1 + 2 * h0) / d1);
        }
    }
    return LQ_OK;
}

int lq_curve_from_pairs(lq_curve *c, int nnumbers, const double *pairs)
{
    int n = nnumbers / 2;
    *c = (lq_curve){0};
    if (nnumbers % 2 || n < 1)
        return lq_error(LQ_EINPUT, "keys come in pairs [t, value, ...]: %d numbers", nnumbers);
    double *t = lq_alloc(sizeof(double) * (size_t)n), *v = lq_alloc(sizeof(double) * (size_t)n);
    int rc = t && v ? LQ_OK : LQ_ESIM;
    for (int i = 0; i < n && !rc; i++) {
        t[i] = pairs[2 * i];
        v[i] = pairs[2 * i + 1];
    }
    if (!rc) rc = lq_curve_make(c, n, t, v);
    free(t);
    free(v);
    return rc;
}

double lq_curve_eval(const lq_curve *c, double t)
{
    int n = c->n;
    if (n == 0) return 0;
    if (!(t > c->t[0])) return c->v[0];
    if (t >= c->t[n - 1]) return c->v[n - 1];
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (c->t[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    double h = c->t[lo + 1] - c->t[lo], u = (t - c->t[lo]) / h, u2 = u * u, u3 = u2 * u;
    return (2 * u3 - 3 * u2 + 1) * c->v[lo] + (u3 - 2 * u2 + u) * h * c->m[lo] +
           (-2 * u3 + 3 * u2) * c->v[lo + 1] + (u3 - u2) * h * c->m[lo + 1];
}

void lq_curve_free(lq_curve *c)
{
    free(c->t);
    free(c->v);
    free(c->m);
    *c = (lq_curve){0};
}

/* --- the CSV ------------------------------------------------------------------------ */

enum {
    LQ_TRK_ID,
    LQ_TRK_T,
    LQ_TRK_X,
    LQ_TRK_Y,
    LQ_TRK_Z,
    LQ_TRK_VX,
    LQ_TRK_VY,
    LQ_TRK_VZ,
    LQ_TRK_VALUE,
    LQ_TRK_STRENGTH,
    LQ_TRK_RADIUS,
    LQ_TRK_NCOL
};
static const char *const lq_tracks_colnames[LQ_TRK_NCOL] = {
    "id", "t", "x", "y", "z", "vx", "vy", "vz", "value", "strength", "radius"};
#define LQ_TRACKS_ALLOWED "id, t, x, y, z, vx, vy, vz, value, strength, radius"

typedef struct lq_tracks_row {
    double v[LQ_TRK_NCOL];
    int line, tcol;
} lq_tracks_row;

typedef struct lq_tracks_reader {
    const char *file;
    int lineno, ncols;
    int which[LQ_TRK_NCOL];
    bool seen[LQ_TRK_NCOL];
    lq_tracks_row *rows;
    int nrows, cap;
} lq_tracks_reader;

/* Splits line at commas (blanks trimmed, NULs written); starts[k] the 1-based column. */
static int lq_tracks_split(char *line, char **f, int *starts, int max)
{
    int count = 0;
    char *c = line;
    for (;;) {
        char *start = c;
        while (*c && *c != ',') c++;
        char *next = *c ? c + 1 : NULL, *e = c;
        while (*start == ' ' || *start == '\t') start++;
        while (e > start && (e[-1] == ' ' || e[-1] == '\t')) e--;
        *e = '\0';
        if (count < max) {
            f[count] = start;
            starts[count] = (int)(start - line) + 1;
        }
        count++;
        if (!next) break;
        c = next;
    }
    return count;
}

static int lq_tracks_header(lq_tracks_reader *r, char **f, const int *col, int count)
{
    const char *file = r->file;
    if (count > LQ_TRK_NCOL)
        return lq_error(LQ_EINPUT, "%s:%d:%d: %d columns in the header; allowed: %s", file,
                        r->lineno, col[LQ_TRK_NCOL], count, LQ_TRACKS_ALLOWED);
    for (int j = 0; j < count; j++) {
        int k = 0;
        while (k < LQ_TRK_NCOL && strcmp(f[j], lq_tracks_colnames[k])) k++;
        if (k == LQ_TRK_NCOL)
            return lq_error(LQ_EINPUT, "%s:%d:%d: unknown column '%s'; allowed: %s", file,
                            r->lineno, col[j], f[j], LQ_TRACKS_ALLOWED);
        if (r->seen[k])
            return lq_error(LQ_EINPUT, "%s:%d:%d: column '%s' named twice", file, r->lineno, col[j],
                            f[j]);
        r->seen[k] = true;
        r->which[j] = k;
    }
    for (int k = LQ_TRK_ID; k <= LQ_TRK_Z; k++)
        if (!r->seen[k])
            return lq_error(LQ_EINPUT,
                            "%s:%d:1: the header lacks column '%s' (id, t, x, y, z are required)",
                            file, r->lineno, lq_tracks_colnames[k]);
    int nv = r->seen[LQ_TRK_VX] + r->seen[LQ_TRK_VY] + r->seen[LQ_TRK_VZ];
    if (nv != 0 && nv != 3)
        return lq_error(LQ_EINPUT,
                        "%s:%d:1: the velocity columns vx, vy, vz come all three or none", file,
                        r->lineno);
    r->ncols = count;
    return LQ_OK;
}

static int lq_tracks_key(lq_tracks_reader *r, char **f, const int *col, int count)
{
    const char *file = r->file;
    if (count != r->ncols) {
        int at = count > r->ncols ? col[r->ncols] : col[count - 1] + (int)strlen(f[count - 1]);
        return lq_error(LQ_EINPUT, "%s:%d:%d: expected %d values (as in the header), found %d",
                        file, r->lineno, at, r->ncols, count);
    }
    lq_tracks_row row = {.line = r->lineno};
    for (int j = 0; j < count; j++) {
        char *end;
        const char *name = lq_tracks_colnames[r->which[j]];
        double x = strtod(f[j], &end);
        if (end == f[j] || *end)
            return lq_error(LQ_EINPUT, "%s:%d:%d: column '%s': '%s' is not a number", file,
                            r->lineno, col[j], name, f[j]);
        if (!isfinite(x) || (r->which[j] == LQ_TRK_ID && (x != floor(x) || fabs(x) > 1e15)))
            return lq_error(LQ_EINPUT, "%s:%d:%d: column '%s': '%s' is not %s", file, r->lineno,
                            col[j], name, f[j], r->which[j] == LQ_TRK_ID ? "an integer" : "finite");
        if ((r->which[j] == LQ_TRK_RADIUS && !(x > 0)) ||
            (r->which[j] == LQ_TRK_STRENGTH && !(x >= 0 && x <= 1)))
            return lq_error(LQ_EINPUT, "%s:%d:%d: column '%s': %s is out of range (%s)", file,
                            r->lineno, col[j], name, f[j],
                            r->which[j] == LQ_TRK_RADIUS ? "above 0" : "0 to 1");
        row.v[r->which[j]] = x;
        if (r->which[j] == LQ_TRK_T) row.tcol = col[j];
    }
    if (r->nrows == r->cap) {
        int cap = r->cap ? 2 * r->cap : 256;
        lq_tracks_row *p = realloc(r->rows, sizeof *p * (size_t)cap);
        if (!p) return lq_error(LQ_ESIM, "out of host memory reading %s", file);
        r->rows = p;
        r->cap = cap;
    }
    r->rows[r->nrows++] = row;
    return LQ_OK;
}

static int lq_tracks_row_cmp(const void *a, const void *b)
{
    const lq_tracks_row *x = a, *y = b;
    if (x->v[LQ_TRK_ID] != y->v[LQ_TRK_ID]) return x->v[LQ_TRK_ID] < y->v[LQ_TRK_ID] ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* Track tr from rows[0 … n) (one id, file order). */
static int lq_tracks_make(const lq_tracks_reader *r, const lq_tracks *ts, const lq_tracks_row *rows,
                          int n, lq_track *tr)
{
    for (int i = 1; i < n; i++)
        if (!(rows[i].v[LQ_TRK_T] > rows[i - 1].v[LQ_TRK_T]))
            return lq_error(LQ_EINPUT,
                            "%s:%d:%d: track %.0f: t = %.17g is not after its previous key's t = "
                            "%.17g (line %d; a track's times must increase strictly)",
                            r->file, rows[i].line, rows[i].tcol, rows[i].v[LQ_TRK_ID],
                            rows[i].v[LQ_TRK_T], rows[i - 1].v[LQ_TRK_T], rows[i - 1].line);
    tr->id = (long)rows[0].v[LQ_TRK_ID];
    tr->n = n;
    tr->t0 = rows[0].v[LQ_TRK_T];
    memcpy(tr->p0, rows[0].v + LQ_TRK_X, sizeof tr->p0);
    memcpy(tr->v0, rows[0].v + LQ_TRK_VX, sizeof tr->v0);
    double *t = lq_alloc(sizeof(double) * (size_t)n), *p = lq_alloc(sizeof(double) * 3 * (size_t)n),
           *q = lq_alloc(sizeof(double) * 3 * (size_t)n), *s = lq_alloc(sizeof(double) * (size_t)n);
    int rc = t && p && q && s ? LQ_OK : LQ_ESIM;
    for (int i = 0; i < n && !rc; i++) {
        t[i] = rows[i].v[LQ_TRK_T];
        memcpy(p + 3 * i, rows[i].v + LQ_TRK_X, 3 * sizeof(double));
        memcpy(q + 3 * i, rows[i].v + LQ_TRK_VX, 3 * sizeof(double));
    }
    if (!rc && n >= 2) rc = lq_path_from_keys(&tr->path, n, t, p, NULL);
    if (!rc && n >= 2 && ts->has_vel) rc = lq_path_from_keys(&tr->vel, n, t, q, NULL);
    static const int cols[3] = {LQ_TRK_VALUE, LQ_TRK_STRENGTH, LQ_TRK_RADIUS};
    const bool has[3] = {ts->has_value, ts->has_strength, ts->has_radius};
    lq_curve *cv[3] = {&tr->value, &tr->strength, &tr->radius};
    for (int k = 0; k < 3 && !rc; k++) {
        if (!has[k]) continue;
        for (int i = 0; i < n; i++) s[i] = rows[i].v[cols[k]];
        rc = lq_curve_make(cv[k], n, t, s);
    }
    free(t);
    free(p);
    free(q);
    free(s);
    return rc;
}

static int lq_tracks_build(lq_tracks_reader *r, lq_tracks *ts)
{
    qsort(r->rows, (size_t)r->nrows, sizeof *r->rows, lq_tracks_row_cmp);
    int ntr = 0;
    for (int i = 0; i < r->nrows; i++)
        ntr += i == 0 || r->rows[i].v[LQ_TRK_ID] != r->rows[i - 1].v[LQ_TRK_ID];
    ts->track = lq_calloc((size_t)LQ_MAX(ntr, 1), sizeof *ts->track);
    if (!ts->track) return LQ_ESIM;
    ts->has_vel = r->seen[LQ_TRK_VX];
    ts->has_value = r->seen[LQ_TRK_VALUE];
    ts->has_strength = r->seen[LQ_TRK_STRENGTH];
    ts->has_radius = r->seen[LQ_TRK_RADIUS];
    int rc = LQ_OK;
    for (int i = 0; i < r->nrows && !rc;) {
        int j = i + 1;
        while (j < r->nrows && r->rows[j].v[LQ_TRK_ID] == r->rows[i].v[LQ_TRK_ID]) j++;
        rc = lq_tracks_make(r, ts, r->rows + i, j - i, &ts->track[ts->n]);
        ts->n++;
        i = j;
    }
    return rc;
}

int lq_tracks_read_csv(lq_tracks **out, const char *file)
{
    lq_tracks_reader r = {.file = file};
    char *line = NULL, *f[LQ_TRK_NCOL + 1];
    int col[LQ_TRK_NCOL + 1], rc = LQ_OK;
    size_t cap = 0;
    *out = NULL;
    FILE *fp = fopen(file, "r");
    if (!fp) return lq_error(LQ_EINPUT, "%s: cannot open: %s", file, strerror(errno));
    while (!rc && getline(&line, &cap, fp) >= 0) {
        r.lineno++;
        line[strcspn(line, "#\r\n")] = '\0';
        char *c = line;
        while (*c == ' ' || *c == '\t') c++;
        if (!*c) continue;
        int count = lq_tracks_split(line, f, col, LQ_TRK_NCOL + 1);
        rc = r.ncols ? lq_tracks_key(&r, f, col, count) : lq_tracks_header(&r, f, col, count);
    }
    if (!rc && ferror(fp))
        rc = lq_error(LQ_EINPUT, "%s:%d:1: read error: %s", file, r.lineno + 1, strerror(errno));
    if (!rc && (!r.ncols || r.nrows == 0))
        rc = lq_error(LQ_EINPUT,
                      "%s:%d:1: no %s; the first line that is not blank or a comment names the "
                      "columns (id,t,x,y,z[,vx,vy,vz][,value][,strength][,radius]), each later "
                      "line is a key",
                      file, LQ_MAX(r.lineno, 1), r.ncols ? "keys" : "header line");
    fclose(fp);
    free(line);
    lq_tracks *ts = rc ? NULL : lq_calloc(1, sizeof *ts);
    if (!rc && !ts) rc = LQ_ESIM;
    if (!rc) rc = lq_tracks_build(&r, ts);
    free(r.rows);
    if (rc) {
        lq_tracks_free(ts);
        return rc;
    }
    *out = ts;
    return LQ_OK;
}

void lq_tracks_free(lq_tracks *ts)
{
    if (!ts) return;
    for (int i = 0; ts->track && i < ts->n; i++) {
        lq_track *tr = &ts->track[i];
        lq_path_free(tr->path);
        lq_path_free(tr->vel);
        lq_curve_free(&tr->value);
        lq_curve_free(&tr->strength);
        lq_curve_free(&tr->radius);
    }
    free(ts->track);
    free(ts);
}

void lq_tracks_eval(const lq_tracks *ts, int i, double time, lq_track_at *at)
{
    const lq_track *tr = &ts->track[i];
    memset(at, 0, sizeof *at);
    if (tr->path) {
        lq_path_eval(tr->path, time, at->pos, NULL, at->motion, NULL);
    } else {
        memcpy(at->pos, tr->p0, sizeof at->pos);
    }
    if (tr->vel)
        lq_path_eval(tr->vel, time, at->vel, NULL, NULL, NULL);
    else
        memcpy(at->vel, tr->v0, sizeof at->vel);
    at->value = lq_curve_eval(&tr->value, time);
    at->strength = lq_curve_eval(&tr->strength, time);
    at->radius = lq_curve_eval(&tr->radius, time);
}
