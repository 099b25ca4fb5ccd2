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

static const char lq_band_magic[8] = {'L', 'Q', 'B', 'A', 'N', 'D', '\0', '\1'};

typedef struct lq_band_header {
    char magic[8];
    uint32_t version, header_bytes;
    uint64_t scene;
    char up[32], down[32];
    int64_t step;
    double t;
    int32_t n[4];
    int32_t nu[3], nd[3], off[3];
} lq_band_header;

uint64_t lq_band_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

void lq_band_geom_free(lq_band_geom *g)
{
    for (int q = 0; q < 4; q++) {
        free(g->dst[q]);
        free(g->src[q]);
        g->dst[q] = g->src[q] = NULL;
    }
}

/* Linear index of cell or face (i, j, k) on a lattice of n[0] × n[1] × n[2] points. */
static int lq_band_lin(const int n[3], int i, int j, int k)
{
    return i + n[0] * (j + n[1] * k);
}

int lq_band_geom_make(lq_band_geom *g, const int nu[3], const int nd[3], const int off[3])
{
    memset(g, 0, sizeof *g);
    memcpy(g->nu, nu, sizeof g->nu);
    memcpy(g->nd, nd, sizeof g->nd);
    memcpy(g->off, off, sizeof g->off);
    size_t cells = (size_t)nd[0] * nd[1] * nd[2];
    unsigned char *in = lq_calloc(cells ? cells : 1, 1);
    if (!in) return LQ_ESIM;
    for (int k = 0; k < nd[2]; k++)
        for (int j = 0; j < nd[1]; j++)
            for (int i = 0; i < nd[0]; i++)
                in[lq_band_lin(nd, i, j, k)] = lq_bandgeom_cell(nu, nd, off, i, j, k);
    int rc = LQ_OK;
    for (int pass = 0; pass < 2 && !rc; pass++) { /* count, then fill */
        for (int q = 0; q < 4; q++) g->n[q] = 0;
        for (int q = 0; q < 4; q++) {
            int a = q - 1; /* -1: cells; else the face axis */
            int ln[3] = {nd[0], nd[1], nd[2]}, lu[3] = {nu[0], nu[1], nu[2]};
            if (a >= 0) {
                ln[a]++;
                lu[a]++;
            }
            for (int k = 0; k < ln[2]; k++)
                for (int j = 0; j < ln[1]; j++)
                    for (int i = 0; i < ln[0]; i++) {
                        int c[3] = {i, j, k};
                        bool take;
                        if (a < 0)
                            take = in[lq_band_lin(nd, i, j, k)];
                        else { /* a face of a band cell: the cell above it or below */
                            take = c[a] < nd[a] && in[lq_band_lin(nd, i, j, k)];
                            if (!take && c[a] > 0) {
                                c[a]--;
                                take = in[lq_band_lin(nd, c[0], c[1], c[2])];
                                c[a]++;
                            }
                        }
                        if (!take) continue;
                        if (pass == 1) {
                            g->dst[q][g->n[q]] = lq_band_lin(ln, i, j, k);
                            g->src[q][g->n[q]] =
                                lq_band_lin(lu, i + off[0], j + off[1], k + off[2]);
                        }
                        g->n[q]++;
                    }
        }
        if (pass == 0)
            for (int q = 0; q < 4 && !rc; q++)
                if (!(g->dst[q] = lq_calloc((size_t)g->n[q] + 1, sizeof(int))) ||
                    !(g->src[q] = lq_calloc((size_t)g->n[q] + 1, sizeof(int))))
                    rc = LQ_ESIM;
    }
    free(in);
    g->total = g->n[0] + g->n[1] + g->n[2] + g->n[3];
    if (rc) lq_band_geom_free(g);
    return rc;
}

static void lq_band_file_path(char *p, size_t n, const char *dir, const lq_band_id *id, long step)
{
    snprintf(p, n, "%s/%s-%s/%08ld.band", dir, id->up, id->down, step);
}

static void lq_band_header_of(lq_band_header *h, const lq_band_id *id, const lq_band_geom *g,
                              long step, double t)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, lq_band_magic, sizeof h->magic);
    h->version = LQ_BAND_VERSION;
    h->header_bytes = sizeof *h;
    h->scene = id->scene;
    memcpy(h->up, id->up, sizeof h->up);
    memcpy(h->down, id->down, sizeof h->down);
    h->step = step;
    h->t = t;
    for (int q = 0; q < 4; q++) h->n[q] = g->n[q];
    for (int a = 0; a < 3; a++) {
        h->nu[a] = g->nu[a];
        h->nd[a] = g->nd[a];
        h->off[a] = g->off[a];
    }
}

int lq_band_write(const char *dir, const lq_band_id *id, const lq_band_geom *g, long step, double t,
                  const float *phi, const float *u, const float *v, const float *w, float *scratch)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%s", dir, id->up, id->down);
    int rc = lq_mkdirs(path);
    if (rc) return rc;
    lq_band_file_path(path, sizeof path, dir, id, step);
    const float *f[4] = {phi, u, v, w};
    int o = 0;
    for (int q = 0; q < 4; q++)
        for (int e = 0; e < g->n[q]; e++) scratch[o++] = f[q][g->src[q][e]];
    lq_band_header h;
    lq_band_header_of(&h, id, g, step, t);
    lq_file fw;
    rc = lq_file_open(&fw, path);
    if (rc) return rc;
    if (fwrite(&h, sizeof h, 1, fw.f) != 1 ||
        fwrite(scratch, sizeof(float), (size_t)g->total, fw.f) != (size_t)g->total) {
        lq_file_abort(&fw);
        return lq_error(LQ_ESIM, "%s: write failed", path);
    }
    return lq_file_commit(&fw);
}

int lq_band_done(const char *dir, const char *up, long steps, double t)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.done", dir, up);
    lq_file fw;
    int rc = lq_file_open(&fw, path);
    if (rc) return rc;
    fprintf(fw.f, "%ld %.17g\n", steps, t);
    return lq_file_commit(&fw);
}

void lq_band_clear(const char *dir, const lq_band_id *id)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.done", dir, id->up);
    unlink(path);
    for (long s = 0;; s++) {
        lq_band_file_path(path, sizeof path, dir, id, s);
        if (unlink(path) != 0) break;
    }
}

int lq_band_read_file(const char *path, const lq_band_id *id, const lq_band_geom *g, float *vals,
                      double *t, long *step)
{
    FILE *f = fopen(path, "rb");
    if (!f) return lq_error(LQ_EINPUT, "band file %s: %s", path, strerror(errno));
    lq_band_header h, want;
    struct stat st;
    int rc = LQ_OK;
    lq_band_header_of(&want, id, g, 0, 0);
    if (fstat(fileno(f), &st) != 0 || fread(&h, sizeof h, 1, f) != 1)
        rc = lq_error(LQ_EINPUT, "band file %s is truncated (%lld bytes, shorter than its header)",
                      path, (long long)st.st_size);
    else if (memcmp(h.magic, lq_band_magic, sizeof h.magic) != 0)
        rc = lq_error(LQ_EINPUT, "band file %s is not a liquidcl band file (bad magic)", path);
    else if (h.version != LQ_BAND_VERSION || h.header_bytes != sizeof h)
        rc = lq_error(LQ_EINPUT, "band file %s has version %u, this liquidcl reads %d", path,
                      h.version, LQ_BAND_VERSION);
    else if (h.scene != id->scene)
        rc = lq_error(LQ_EINPUT,
                      "band file %s is from another scene (scene hash %016llx, this run's "
                      "%016llx): remove OUT/bands or rerun the upstream grid",
                      path, (unsigned long long)h.scene, (unsigned long long)id->scene);
    else if (memcmp(h.up, id->up, sizeof h.up) != 0 || memcmp(h.down, id->down, sizeof h.down))
        rc = lq_error(LQ_EINPUT, "band file %s is for grids %.31s -> %.31s, not %s -> %s", path,
                      h.up, h.down, id->up, id->down);
    else if (memcmp(h.n, want.n, sizeof h.n) != 0 || memcmp(h.nu, want.nu, sizeof h.nu) ||
             memcmp(h.nd, want.nd, sizeof h.nd) || memcmp(h.off, want.off, sizeof h.off))
        rc = lq_error(LQ_EINPUT,
                      "band file %s holds another band (%d cells, %d %d %d faces; this run's "
                      "grids give %d, %d %d %d)",
                      path, h.n[0], h.n[1], h.n[2], h.n[3], g->n[0], g->n[1], g->n[2], g->n[3]);
    else if ((long long)st.st_size != (long long)sizeof h + 4LL * g->total)
        rc = lq_error(LQ_EINPUT, "band file %s is truncated (%lld bytes, its header says %lld)",
                      path, (long long)st.st_size, (long long)sizeof h + 4LL * g->total);
    else if (fread(vals, sizeof(float), (size_t)g->total, f) != (size_t)g->total)
        rc = lq_error(LQ_EINPUT, "band file %s: read failed", path);
    fclose(f);
    if (!rc) {
        *t = h.t;
        *step = (long)h.step;
    }
    return rc;
}

int lq_band_reader_open(lq_band_reader *r, const char *dir, const lq_band_id *id, const int nu[3],
                        const int nd[3], const int off[3])
{
    memset(r, 0, sizeof *r);
    snprintf(r->dir, sizeof r->dir, "%s", dir);
    r->id = *id;
    int rc = lq_band_geom_make(&r->g, nu, nd, off);
    for (int q = 0; q < 2 && !rc; q++)
        if (!(r->s[q] = lq_calloc((size_t)r->g.total + 1, sizeof(float)))) rc = LQ_ESIM;
    if (rc) lq_band_reader_close(r);
    return rc;
}

void lq_band_reader_close(lq_band_reader *r)
{
    lq_band_geom_free(&r->g);
    free(r->s[0]);
    free(r->s[1]);
    r->s[0] = r->s[1] = NULL;
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
    lq_band_file_path(path, sizeof path, r->dir, &r->id, r->next);
    lq_band_file_path(next, sizeof next, r->dir, &r->id, r->next + 1);
    snprintf(done, sizeof done, "%s/%s.done", r->dir, r->id.up);
    double start = lq_band_now(), report = start + 10.0, sleep_s = 0.005;
    for (;;) {
        if (lq_band_exists(path)) {
            long step;
            int rc = lq_band_read_file(path, &r->id, &r->g, r->s[q], &r->t[q], &step);
            if (rc) return rc;
            r->have[q] = true;
            r->next++;
            r->wait_s += lq_band_now() - start;
            return LQ_OK;
        }
        if (lq_band_exists(next))
            return lq_error(LQ_EINPUT,
                            "band file %s is missing (the next step's exists): grid %s cannot "
                            "source from %s without a gap",
                            path, r->id.down, r->id.up);
        FILE *f = fopen(done, "r");
        if (f && lq_band_exists(path)) { /* written just before the mark: read it */
            fclose(f);
            continue;
        }
        if (f) {
            long steps = -1;
            double tl = 0;
            int n = fscanf(f, "%ld %lf", &steps, &tl);
            fclose(f);
            if (n == 2 && r->next <= steps)
                return lq_error(LQ_EINPUT,
                                "band file %s is missing (upstream grid %s ran %ld steps)", path,
                                r->id.up, steps);
            if (n == 2)
                return lq_error(LQ_EINPUT,
                                "grid %s needs its upstream %s at t = %.9g s, but %s ended at "
                                "t = %.9g s (%s)",
                                r->id.down, r->id.up, t, r->id.up, tl, done);
        }
        double now = lq_band_now();
        if (now >= report) {
            fprintf(stderr,
                    "liquidcl: grid %s: waiting %.0f s for upstream grid %s's step %ld (t = %.6g "
                    "s needed, it has reached t = %.6g s)\n",
                    r->id.down, now - start, r->id.up, r->next, t, r->have[0] ? r->t[0] : 0.0);
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

int lq_band_last(const char *dir, const lq_band_id *id, long *step, double *t)
{
    char path[4096];
    long k = 0;
    for (;; k++) {
        lq_band_file_path(path, sizeof path, dir, id, k);
        if (!lq_band_exists(path)) break;
    }
    if (k == 0) return lq_error(LQ_ESIM, "no band files for %s -> %s in %s", id->up, id->down, dir);
    lq_band_file_path(path, sizeof path, dir, id, k - 1);
    FILE *f = fopen(path, "rb");
    lq_band_header h;
    int ok = f && fread(&h, sizeof h, 1, f) == 1;
    if (f) fclose(f);
    if (!ok) return lq_error(LQ_ESIM, "band file %s: read failed", path);
    *step = (long)h.step;
    *t = h.t;
    return LQ_OK;
}
