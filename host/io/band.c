/*
 * band.c — grid sourcing's band files (band.h): the band's geometry, the files written
 * whole, read back checked, and waited for with backoff.
 */
#include "io/band.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/bandgeom.h"
#include "core/common.h"
#include "io/io.h"

static const char lq_band_magic[8] = {'L', 'Q', 'B', 'A', 'N', 'D', '\0', '\2'};

typedef struct lq_band_header {
    char magic[8];
    uint32_t version, header_bytes;
    uint64_t ident;
    char up[32];
    int64_t step;
    double t;
    int32_t n[4];
    int32_t size[3], off[3], r, outflow, shell;
} lq_band_header;

/* Linear index of node (i, j, k) on a lattice of n[0] × n[1] × n[2] points. */
static int lq_band_lin(const int n[3], int i, int j, int k)
{
    return i + n[0] * (j + n[1] * k);
}

void lq_band_shell_free(lq_band_shell *sh)
{
    for (int q = 0; q < 4; q++) {
        free(sh->src[q]);
        sh->src[q] = NULL;
    }
}

int lq_band_shell_make(lq_band_shell *sh, const lq_bandgeom_grid *u)
{
    memset(sh, 0, sizeof *sh);
    sh->u = *u;
    for (int pass = 0; pass < 2; pass++) { /* count, then fill */
        for (int q = 0; q < 4; q++) {
            int ln[3], m = 0, c[3];
            lq_bandgeom_lattice(u->n, q, ln);
            for (c[2] = 0; c[2] < ln[2]; c[2]++)
                for (c[1] = 0; c[1] < ln[1]; c[1]++)
                    for (c[0] = 0; c[0] < ln[0]; c[0]++) {
                        if (!lq_bandgeom_shell(u, q, c, true)) continue;
                        if (pass == 1) sh->src[q][m] = lq_band_lin(ln, c[0], c[1], c[2]);
                        m++;
                    }
            sh->n[q] = m;
            if (pass == 0 && !(sh->src[q] = lq_calloc((size_t)m + 1, sizeof(int)))) {
                lq_band_shell_free(sh);
                return LQ_ESIM;
            }
        }
    }
    sh->total = sh->n[0] + sh->n[1] + sh->n[2] + sh->n[3];
    return LQ_OK;
}

void lq_band_geom_free(lq_band_geom *g)
{
    for (int q = 0; q < 4; q++) {
        free(g->dst[q]);
        g->dst[q] = NULL;
    }
    free(g->idx);
    free(g->w);
    g->idx = NULL;
    g->w = NULL;
}

/* Node lin of lattice q in the shell's floats, or -1. */
static int lq_band_shell_find(const lq_band_shell *sh, int q, int lin)
{
    int lo = 0, hi = sh->n[q] - 1, base = 0;
    for (int p = 0; p < q; p++) base += sh->n[p];
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (sh->src[q][mid] == lin) return base + mid;
        if (sh->src[q][mid] < lin)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int lq_band_geom_make(lq_band_geom *g, const lq_band_shell *sh, const lq_bandgeom_grid *d,
                      const char *up, const char *down)
{
    memset(g, 0, sizeof *g);
    const lq_bandgeom_grid *u = &sh->u;
    size_t cells = (size_t)d->n[0] * d->n[1] * d->n[2];
    unsigned char *in = lq_calloc(cells ? cells : 1, 1);
    if (!in) return LQ_ESIM;
    int c[3];
    for (c[2] = 0; c[2] < d->n[2]; c[2]++)
        for (c[1] = 0; c[1] < d->n[1]; c[1]++)
            for (c[0] = 0; c[0] < d->n[0]; c[0]++)
                in[lq_band_lin(d->n, c[0], c[1], c[2])] = lq_bandgeom_cell(u, d, c);
    int rc = LQ_OK, o = 0;
    for (int pass = 0; pass < 2 && !rc; pass++) { /* count, then fill */
        o = 0;
        for (int q = 0; q < 4 && !rc; q++) {
            int a = q - 1, ln[3], m = 0; /* a: -1 cells; else the face axis */
            lq_bandgeom_lattice(d->n, q, ln);
            for (c[2] = 0; c[2] < ln[2] && !rc; c[2]++)
                for (c[1] = 0; c[1] < ln[1] && !rc; c[1]++)
                    for (c[0] = 0; c[0] < ln[0] && !rc; c[0]++) {
                        bool take;
                        if (a < 0)
                            take = in[lq_band_lin(d->n, c[0], c[1], c[2])];
                        else { /* a face of a band cell: the cell above it or below */
                            take = c[a] < d->n[a] && in[lq_band_lin(d->n, c[0], c[1], c[2])];
                            if (!take && c[a] > 0) {
                                c[a]--;
                                take = in[lq_band_lin(d->n, c[0], c[1], c[2])];
                                c[a]++;
                            }
                        }
                        if (!take) continue;
                        if (pass == 1) {
                            int node[8][3], ul[3];
                            float w[8];
                            int ns = lq_bandgeom_stencil(u, d, q, c, node, w);
                            lq_bandgeom_lattice(u->n, q, ul);
                            g->dst[q][m] = lq_band_lin(ln, c[0], c[1], c[2]);
                            for (int e = 0; e < ns && !rc; e++) {
                                int at = lq_band_shell_find(
                                    sh, q, lq_band_lin(ul, node[e][0], node[e][1], node[e][2]));
                                if (at < 0)
                                    rc = lq_error(LQ_EINPUT,
                                                  "grid %s's band needs %s's %s (%d, %d, %d), "
                                                  "which %s does not store (its shell: "
                                                  "grids[].grid.outflow, shell)",
                                                  down, up, q ? "face" : "cell", node[e][0],
                                                  node[e][1], node[e][2], up);
                                g->idx[8 * (o + m) + e] = at;
                                g->w[8 * (o + m) + e] = w[e];
                            }
                        }
                        m++;
                    }
            g->n[q] = m;
            o += m;
            if (pass == 0 && !(g->dst[q] = lq_calloc((size_t)m + 1, sizeof(int)))) rc = LQ_ESIM;
        }
        if (pass == 0 && !rc &&
            (!(g->idx = lq_calloc(8 * (size_t)o + 1, sizeof(int))) ||
             !(g->w = lq_calloc(8 * (size_t)o + 1, sizeof(float)))))
            rc = LQ_ESIM;
    }
    free(in);
    g->total = o;
    if (rc) lq_band_geom_free(g);
    return rc;
}

/* The band from one file's shell floats. */
static void lq_band_resample(const lq_band_geom *g, const float *shell, float *out)
{
    for (int e = 0; e < g->total; e++) {
        const int *ix = g->idx + 8 * e;
        const float *w = g->w + 8 * e;
        float v = w[0] * shell[ix[0]]; /* one term: a copy, exactly */
        for (int m = 1; m < 8 && w[m] > 0; m++) v += w[m] * shell[ix[m]];
        out[e] = v;
    }
}

static void lq_band_file_path(char *p, size_t n, const char *dir, const char *up, long step)
{
    snprintf(p, n, "%s/%s/%08ld.band", dir, up, step);
}

static void lq_band_header_of(lq_band_header *h, const lq_band_id *id, const lq_band_shell *sh,
                              long step, double t)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, lq_band_magic, sizeof h->magic);
    h->version = LQ_BAND_VERSION;
    h->header_bytes = sizeof *h;
    h->ident = id->ident;
    memcpy(h->up, id->up, sizeof h->up);
    h->step = step;
    h->t = t;
    for (int q = 0; q < 4; q++) h->n[q] = sh->n[q];
    for (int a = 0; a < 3; a++) {
        h->size[a] = sh->u.n[a];
        h->off[a] = sh->u.off[a];
    }
    h->r = sh->u.r;
    h->outflow = sh->u.outflow;
    h->shell = sh->u.shell;
}

int lq_band_write(const char *dir, const lq_band_id *id, const lq_band_shell *sh, long step,
                  double t, const float *phi, const float *u, const float *v, const float *w,
                  float *scratch)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, id->up);
    int rc = lq_mkdirs(path);
    if (rc) return rc;
    lq_band_file_path(path, sizeof path, dir, id->up, step);
    const float *f[4] = {phi, u, v, w};
    int o = 0;
    for (int q = 0; q < 4; q++)
        for (int e = 0; e < sh->n[q]; e++) scratch[o++] = f[q][sh->src[q][e]];
    lq_band_header h;
    lq_band_header_of(&h, id, sh, step, t);
    lq_file fw;
    rc = lq_file_open(&fw, path);
    if (rc) return rc;
    if (fwrite(&h, sizeof h, 1, fw.f) != 1 ||
        fwrite(scratch, sizeof(float), (size_t)sh->total, fw.f) != (size_t)sh->total) {
        lq_file_abort(&fw);
        return lq_error(LQ_ESIM, "%s: write failed", path);
    }
    return lq_file_commit(&fw);
}

int lq_band_done(const char *dir, const lq_band_id *id, long steps, double t)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.done", dir, id->up);
    lq_file fw;
    int rc = lq_file_open(&fw, path);
    if (rc) return rc;
    fprintf(fw.f, "%ld %.17g %016llx\n", steps, t, (unsigned long long)id->ident);
    return lq_file_commit(&fw);
}

void lq_band_clear(const char *dir, const char *up)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.done", dir, up);
    unlink(path);
    for (long s = 0;; s++) {
        lq_band_file_path(path, sizeof path, dir, up, s);
        if (unlink(path) != 0) break;
    }
}

void lq_band_undone(const char *dir, const char *up)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.done", dir, up);
    unlink(path);
}

/* A resumed U (its checkpoint of step `step`): its files after that step and its done mark
 * go, the last first, so a reader never sees a gap with a later file beyond it; the files
 * up to `step` stay (a reader may be reading them, and they are what U would write again). */
void lq_band_clear_after(const char *dir, const char *up, long step)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.done", dir, up);
    unlink(path);
    long last = step;
    for (;; last++) {
        lq_band_file_path(path, sizeof path, dir, up, last + 1);
        struct stat st;
        if (stat(path, &st) != 0) break;
    }
    for (long k = last; k > step; k--) {
        lq_band_file_path(path, sizeof path, dir, up, k);
        unlink(path);
    }
}

int lq_band_read_file(const char *path, const lq_band_id *id, const lq_band_shell *sh, float *vals,
                      double *t, long *step)
{
    FILE *f = fopen(path, "rb");
    if (!f) return lq_error(LQ_EINPUT, "band file %s: %s", path, strerror(errno));
    lq_band_header h, want;
    struct stat st;
    int rc = LQ_OK;
    lq_band_header_of(&want, id, sh, 0, 0);
    if (fstat(fileno(f), &st) != 0 || fread(&h, sizeof h, 1, f) != 1)
        rc = lq_error(LQ_EINPUT, "band file %s is truncated (%lld bytes, shorter than its header)",
                      path, (long long)st.st_size);
    else if (memcmp(h.magic, lq_band_magic, 6) != 0)
        rc = lq_error(LQ_EINPUT, "band file %s is not a liquidcl band file (bad magic)", path);
    else if (h.version != LQ_BAND_VERSION || h.header_bytes != sizeof h)
        rc = lq_error(LQ_EINPUT, "band file %s has version %u, this liquidcl reads %d", path,
                      h.version, LQ_BAND_VERSION);
    else if (memcmp(h.up, id->up, sizeof h.up) != 0)
        rc = lq_error(LQ_EINPUT, "band file %s is grid %.31s's, not %s's", path, h.up, id->up);
    else if (h.ident != id->ident)
        rc = lq_error(LQ_EINPUT,
                      "band file %s is from another scene or another grid %s (identity %016llx, "
                      "this scene's %016llx: its physics, %s's grid block or its upstream grids "
                      "changed): rerun grid %s",
                      path, id->up, (unsigned long long)h.ident, (unsigned long long)id->ident,
                      id->up, id->up);
    else if (memcmp(h.n, want.n, sizeof h.n) != 0 || memcmp(h.size, want.size, sizeof h.size) ||
             memcmp(h.off, want.off, sizeof h.off) || h.r != want.r || h.outflow != want.outflow ||
             h.shell != want.shell)
        rc = lq_error(LQ_EINPUT,
                      "band file %s holds another shell (%d cells, %d %d %d faces; this run's "
                      "grid %s gives %d, %d %d %d)",
                      path, h.n[0], h.n[1], h.n[2], h.n[3], id->up, sh->n[0], sh->n[1], sh->n[2],
                      sh->n[3]);
    else if ((long long)st.st_size != (long long)sizeof h + 4LL * sh->total)
        rc = lq_error(LQ_EINPUT, "band file %s is truncated (%lld bytes, its header says %lld)",
                      path, (long long)st.st_size, (long long)sizeof h + 4LL * sh->total);
    else if (fread(vals, sizeof(float), (size_t)sh->total, f) != (size_t)sh->total)
        rc = lq_error(LQ_EINPUT, "band file %s: read failed", path);
    fclose(f);
    if (!rc) {
        *t = h.t;
        *step = (long)h.step;
    }
    return rc;
}

int lq_band_reader_open(lq_band_reader *r, const char *dir, const lq_band_id *id,
                        const lq_bandgeom_grid *u, const lq_bandgeom_grid *d, const char *down)
{
    memset(r, 0, sizeof *r);
    snprintf(r->dir, sizeof r->dir, "%s", dir);
    snprintf(r->down, sizeof r->down, "%s", down);
    r->id = *id;
    int rc = lq_band_shell_make(&r->sh, u);
    if (!rc) rc = lq_band_geom_make(&r->g, &r->sh, d, id->up, down);
    if (!rc && !(r->shell = lq_calloc((size_t)r->sh.total + 1, sizeof(float)))) rc = LQ_ESIM;
    for (int q = 0; q < 2 && !rc; q++)
        if (!(r->s[q] = lq_calloc((size_t)r->g.total + 1, sizeof(float)))) rc = LQ_ESIM;
    if (rc) lq_band_reader_close(r);
    return rc;
}

void lq_band_reader_seek(lq_band_reader *r, double t)
{
    double eps = 1e-9 * (t > 1 ? t : 1);
    long k = 0, best = 0;
    for (;; k++) {
        char path[4096];
        lq_band_file_path(path, sizeof path, r->dir, r->id.up, k);
        FILE *f = fopen(path, "rb");
        lq_band_header h;
        int ok = f && fread(&h, sizeof h, 1, f) == 1;
        if (f) fclose(f);
        if (!ok || !(h.t + eps < t)) break;
        best = k;
    }
    r->next = best;
    r->have[0] = r->have[1] = false;
}

void lq_band_reader_close(lq_band_reader *r)
{
    lq_band_geom_free(&r->g);
    lq_band_shell_free(&r->sh);
    free(r->shell);
    free(r->s[0]);
    free(r->s[1]);
    r->shell = r->s[0] = r->s[1] = NULL;
}

static double lq_band_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static bool lq_band_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Step r->next into slice q, waiting for U to write it (t: the time D needs, for
 * messages). */
static int lq_band_load(lq_band_reader *r, int q, double t)
{
    char path[4096], next[4096], done[4096];
    lq_band_file_path(path, sizeof path, r->dir, r->id.up, r->next);
    lq_band_file_path(next, sizeof next, r->dir, r->id.up, r->next + 1);
    snprintf(done, sizeof done, "%s/%s.done", r->dir, r->id.up);
    double start = lq_band_now(), report = start + 10.0, sleep_s = 0.005;
    for (;;) {
        if (lq_band_exists(path)) {
            long step;
            int rc = lq_band_read_file(path, &r->id, &r->sh, r->shell, &r->t[q], &step);
            if (rc) return rc;
            lq_band_resample(&r->g, r->shell, r->s[q]);
            r->have[q] = true;
            r->next++;
            r->wait_s += lq_band_now() - start;
            return LQ_OK;
        }
        /* U writes its steps in order, each by a rename: once the next step's file is
         * there, this one is too unless it is really missing — look again before saying
         * so (U may have written both since the look above) */
        if (lq_band_exists(next) && lq_band_exists(path)) continue;
        if (lq_band_exists(next))
            return lq_error(LQ_EINPUT,
                            "band file %s is missing (the next step's exists): grid %s cannot "
                            "source from %s without a gap",
                            path, r->down, r->id.up);
        FILE *f = fopen(done, "r");
        if (f && lq_band_exists(path)) { /* written just before the mark: read it */
            fclose(f);
            continue;
        }
        if (f) {
            long steps = -1;
            double tl = 0;
            unsigned long long ident = 0;
            int n = fscanf(f, "%ld %lf %llx", &steps, &tl, &ident);
            fclose(f);
            if (n == 3 && ident != r->id.ident)
                return lq_error(LQ_EINPUT,
                                "%s: grid %s ran as another grid %s (identity %016llx, this "
                                "scene's %016llx: its physics, %s's grid block, outflow included, "
                                "or its upstream grids changed): rerun grid %s",
                                done, r->id.up, r->id.up, ident, (unsigned long long)r->id.ident,
                                r->id.up, r->id.up);
            if (n == 3 && steps < 0)
                return lq_error(LQ_EINPUT,
                                "grid %s stored no bands for %s (it ran without outflow faces; "
                                "name them in its grids[].grid.outflow and rerun it)",
                                r->id.up, r->down);
            if (n >= 2 && r->next <= steps)
                return lq_error(LQ_EINPUT,
                                "band file %s is missing (upstream grid %s ran %ld steps)", path,
                                r->id.up, steps);
            if (n >= 2)
                return lq_error(LQ_EINPUT,
                                "grid %s needs its upstream %s at t = %.9g s, but %s ended at "
                                "t = %.9g s (%s)",
                                r->down, r->id.up, t, r->id.up, tl, done);
        }
        double now = lq_band_now();
        if (now >= report) {
            fprintf(stderr,
                    "liquidcl: grid %s: waiting %.0f s for upstream grid %s's step %ld (t = %.6g "
                    "s needed, it has reached t = %.6g s)\n",
                    r->down, now - start, r->id.up, r->next, t, r->have[0] ? r->t[0] : 0.0);
            report = now + 10.0;
        }
        struct timespec ts = {(time_t)sleep_s, (long)((sleep_s - (time_t)sleep_s) * 1e9)};
        nanosleep(&ts, NULL);
        sleep_s = sleep_s * 2 < 0.5 ? sleep_s * 2 : 0.5;
    }
}

int lq_band_reader_at(lq_band_reader *r, double t, float *out)
{
    double eps = 1e-9 * (t > 1 ? t : 1);
    int rc = LQ_OK;
    if (!r->have[0] && (rc = lq_band_load(r, 0, t))) return rc;
    for (;;) {
        if (t <= r->t[0] + eps) { /* at (or before) the first time kept */
            memcpy(out, r->s[0], (size_t)r->g.total * sizeof(float));
            return LQ_OK;
        }
        if (!r->have[1] && (rc = lq_band_load(r, 1, t))) return rc;
        if (t <= r->t[1] + eps) {
            double dtb = r->t[1] - r->t[0];
            float a = dtb > 0 ? (float)((t - r->t[0]) / dtb) : 1.0f;
            a = a < 0 ? 0 : a > 1 ? 1 : a;
            for (int e = 0; e < r->g.total; e++) out[e] = (1.0f - a) * r->s[0][e] + a * r->s[1][e];
            return LQ_OK;
        }
        float *tmp = r->s[0];
        r->s[0] = r->s[1];
        r->s[1] = tmp;
        r->t[0] = r->t[1];
        r->have[1] = false;
    }
}

void lq_band_scatter(const lq_band_geom *g, const float *vals, float *phi, float *u, float *v,
                     float *w)
{
    float *f[4] = {phi, u, v, w};
    int o = 0;
    for (int q = 0; q < 4; q++)
        for (int e = 0; e < g->n[q]; e++) f[q][g->dst[q][e]] = vals[o++];
}

int lq_band_last(const char *dir, const char *up, long *step, double *t)
{
    char path[4096];
    long k = 0;
    for (;; k++) {
        lq_band_file_path(path, sizeof path, dir, up, k);
        if (!lq_band_exists(path)) break;
    }
    if (k == 0) return lq_error(LQ_ESIM, "no band files of grid %s in %s", up, dir);
    lq_band_file_path(path, sizeof path, dir, up, k - 1);
    FILE *f = fopen(path, "rb");
    lq_band_header h;
    int ok = f && fread(&h, sizeof h, 1, f) == 1;
    if (f) fclose(f);
    if (!ok) return lq_error(LQ_ESIM, "band file %s: read failed", path);
    *step = (long)h.step;
    *t = h.t;
    return LQ_OK;
}
