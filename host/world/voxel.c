/*
 * voxel.c — obstacles and terrain as solid cells (voxel.h; Foster & Metaxas §3.2.1).
 *
 * Every shape is tested at cell centres, so its surface lands on cell faces as §3.2.1
 * assumes. Analytic shapes (box, sphere, cylinder) test each centre directly; terrain
 * reuses host/world/hfinit.c's ground height b(x, z) over the grid's (x, z) cells; a mask
 * stack samples its images nearest at the centre; a mesh fills rows of centres by ray
 * parity (voxel.h says how ties are broken). Setup-time host code, no kernel.
 */
#include "world/voxel.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "core/input.h"
#include "world/hfinit.h"
#include "io/io.h"

#define LQ_VOXEL_CELL(i, j, k, nx, ny)                                                             \
    ((size_t)(i) + (size_t)(nx) * ((size_t)(j) + (size_t)(ny) * (size_t)(k)))

/* The grid being marked. */
typedef struct lq_voxel_grid {
    int nx, ny, nz;
    double dx, o[3];
    unsigned char *solid, *noslip;
} lq_voxel_grid;

static double lq_voxel_centre(const lq_voxel_grid *g, int axis, int i)
{
    return g->o[axis] + (i + 0.5) * g->dx;
}

/* ---------------------------------------------------------------------------------
 * Analytic shapes: a centre is inside when it lies in the closed shape.
 */

enum { LQ_VOXEL_BOX, LQ_VOXEL_SPHERE, LQ_VOXEL_CYLINDER };

typedef struct lq_voxel_shape {
    int kind;
    double a[3], b[3]; /* box: min, max; sphere, cylinder: centre in a */
    double r, h;       /* radius; cylinder height */
    int axis;          /* cylinder axis 0, 1, 2 */
} lq_voxel_shape;

static bool lq_voxel_inside(const lq_voxel_shape *s, const double x[3])
{
    if (s->kind == LQ_VOXEL_BOX)
        return x[0] >= s->a[0] && x[0] <= s->b[0] && x[1] >= s->a[1] && x[1] <= s->b[1] &&
               x[2] >= s->a[2] && x[2] <= s->b[2];
    double d2 = 0;
    for (int q = 0; q < 3; q++) {
        double d = x[q] - s->a[q];
        if (s->kind == LQ_VOXEL_CYLINDER && q == s->axis) {
            if (fabs(d) > 0.5 * s->h) return false;
            continue;
        }
        d2 += d * d;
    }
    return d2 <= s->r * s->r;
}

static void lq_voxel_fill_shape(const lq_voxel_grid *g, const lq_voxel_shape *s, unsigned char ns)
{
    double zmid = s->kind == LQ_VOXEL_BOX ? 0.5 * (s->a[2] + s->b[2]) : s->a[2];
    for (int k = 0; k < g->nz; k++)
        for (int j = 0; j < g->ny; j++)
            for (int i = 0; i < g->nx; i++) {
                double x[3] = {lq_voxel_centre(g, 0, i), lq_voxel_centre(g, 1, j),
                               g->nz == 1 ? zmid : lq_voxel_centre(g, 2, k)};
                if (!lq_voxel_inside(s, x)) continue;
                size_t c = LQ_VOXEL_CELL(i, j, k, g->nx, g->ny);
                g->solid[c] = 1;
                g->noslip[c] = ns;
            }
}

/* ---------------------------------------------------------------------------------
 * Terrain: cells whose centre is below b(x, z) of hfinit.c.
 */

static int lq_voxel_terrain(const lq_config *cfg, const lq_voxel_grid *g)
{
    if (cfg->nterrain == 0) return LQ_OK;
    unsigned char ns = 0;
    for (int t = 0; t < cfg->nterrain; t++)
        if (cfg->terrain[t].noslip) ns = 1;
    lq_hfinit_grid hg = {
        .nx = g->nx, .nz = g->nz, .dx = g->dx, .origin = {g->o[0], g->o[1], g->o[2]}};
    float *b = lq_alloc((size_t)g->nx * g->nz * sizeof *b);
    if (!b) return LQ_ESIM;
    int rc = lq_hfinit_terrain(cfg, &hg, b);
    if (rc) {
        free(b);
        return rc;
    }
    for (int k = 0; k < g->nz; k++)
        for (int i = 0; i < g->nx; i++) {
            double ground = b[i + (size_t)g->nx * k];
            for (int j = 0; j < g->ny && lq_voxel_centre(g, 1, j) < ground; j++) {
                size_t c = LQ_VOXEL_CELL(i, j, k, g->nx, g->ny);
                g->solid[c] = 1;
                g->noslip[c] = ns;
            }
        }
    free(b);
    return LQ_OK;
}

/* ---------------------------------------------------------------------------------
 * Mask stacks: `file` is one PNG or a pattern with one %d (flags 0 and a width only),
 * numbered first, first + 1, ... for `count` slices.
 */

/* Splits a pattern into prefix, width/zero flag and suffix; false when it is not a
 * pattern with exactly one %d (literal %% allowed on either side). */
typedef struct lq_voxel_pattern {
    bool has;         /* holds one %d */
    size_t at, len;   /* position and length of the conversion */
    int width, zeros; /* %0<width>d */
} lq_voxel_pattern;

static const char *lq_voxel_parse_pattern(const char *s, lq_voxel_pattern *pt)
{
    memset(pt, 0, sizeof *pt);
    for (size_t i = 0; s[i]; i++) {
        if (s[i] != '%') continue;
        if (s[i + 1] == '%') {
            i++;
            continue;
        }
        if (pt->has) return "holds more than one % conversion (use %% for a literal %)";
        size_t j = i + 1;
        if (s[j] == '0') {
            pt->zeros = 1;
            j++;
        }
        while (isdigit((unsigned char)s[j]) && pt->width < 100)
            pt->width = pt->width * 10 + (s[j++] - '0');
        if (s[j] != 'd' && s[j] != 'i' && s[j] != 'u')
            return "takes one integer conversion such as %d or %03d (use %% for a literal %)";
        pt->has = true;
        pt->at = i;
        pt->len = j + 1 - i;
        i = j;
    }
    return NULL;
}

/* The file of slice number n, resolved against dir; "%%" becomes "%". */
static void lq_voxel_slice_path(char *out, size_t cap, const char *dir, const char *s,
                                const lq_voxel_pattern *pt, int n)
{
    size_t o = 0;
    if (s[0] != '/') o = (size_t)snprintf(out, cap, "%s", dir);
    for (size_t i = 0; s[i] && o + 1 < cap; i++) {
        if (pt->has && i == pt->at) {
            int w = snprintf(out + o, cap - o, pt->zeros ? "%0*d" : "%*d", pt->width, n);
            if (w > 0) o = LQ_MIN(o + (size_t)w, cap - 1);
            i += pt->len - 1;
            continue;
        }
        if (s[i] == '%' && s[i + 1] == '%') i++;
        out[o++] = s[i];
    }
    out[LQ_MIN(o, cap - 1)] = '\0';
}

static int lq_voxel_mask(const lq_config *cfg, const lq_config_obstacle *ob, const lq_voxel_grid *g,
                         unsigned char ns)
{
    char dir[4096], path[4096 + 256], first_path[4096 + 256];
    const char *file = ob->mask.file;
    lq_voxel_pattern pt;
    const char *bad = lq_voxel_parse_pattern(file, &pt);
    if (bad) return lq_config_error(cfg, ob->mask.at_file, "the pattern '%s' %s", file, bad);
    int count = ob->mask.has_count ? ob->mask.count : 1;
    if (pt.has && !ob->mask.has_count)
        return lq_config_error(cfg, ob->mask.at_file,
                               "a file pattern needs `count` (the number of slices)");
    if (!pt.has && count != 1)
        return lq_config_error(cfg, ob->mask.at_count,
                               "count %d needs a file pattern with %%d (one file is one slice)",
                               count);
    int first = ob->mask.first;
    const double *mn = ob->mask.min, *mx = ob->mask.max;
    for (int q = 0; q < 3; q++)
        if (!(mn[q] < mx[q]))
            return lq_config_error(cfg, ob->mask.at_max, "max must exceed min on every axis");

    /* the scene's folder, as FILE keys are resolved */
    const char *scene = cfg->file;
    const char *slash = scene ? strrchr(scene, '/') : NULL;
    size_t dlen = slash ? LQ_MIN((size_t)(slash + 1 - scene), sizeof dir - 1) : 0;
    memcpy(dir, scene ? scene : "", dlen);
    dir[dlen] = '\0';

    int w = 0, h = 0, rc = LQ_OK;
    unsigned char *bits = NULL; /* count·w·h, 1 where the texel is solid */
    for (int s = 0; s < count; s++) {
        lq_voxel_slice_path(path, sizeof path, dir, file, &pt, first + s);
        int sw = 0, sh = 0;
        float *gray = NULL;
        rc = lq_png_read_gray(path, &sw, &sh, &gray);
        if (rc) { /* the reader names the file; a bad file is bad input */
            free(bits);
            return LQ_EINPUT;
        }
        if (s == 0) {
            w = sw;
            h = sh;
            snprintf(first_path, sizeof first_path, "%s", path);
            bits = lq_alloc((size_t)count * w * h);
            if (!bits) {
                free(gray);
                return LQ_ESIM;
            }
        } else if (sw != w || sh != h) {
            free(gray);
            free(bits);
            return lq_error_replace(LQ_EINPUT,
                                    "%s: the slice is %d x %d pixels, but the first slice (%s) "
                                    "is %d x %d",
                                    path, sw, sh, first_path, w, h);
        }
        /* texel >= 128 of 255 is solid: gray in [0, 1], 127/255 < 0.5 <= 128/255 */
        for (size_t t = 0; t < (size_t)w * h; t++) bits[(size_t)s * w * h + t] = gray[t] >= 0.5f;
        free(gray);
    }
    for (int k = 0; k < g->nz; k++)
        for (int j = 0; j < g->ny; j++)
            for (int i = 0; i < g->nx; i++) {
                double x = lq_voxel_centre(g, 0, i), y = lq_voxel_centre(g, 1, j);
                double z = g->nz == 1 ? 0.5 * (mn[2] + mx[2]) : lq_voxel_centre(g, 2, k);
                if (x < mn[0] || x > mx[0] || y < mn[1] || y > mx[1] || z < mn[2] || z > mx[2])
                    continue;
                /* nearest texel; image row 0 is the top (max y), slice 0 at min z */
                /* a box flat along an axis (0/0) reads texel 0 of it */
                int px = lq_int_clamp(floor((x - mn[0]) / (mx[0] - mn[0]) * w), 0, w - 1);
                int py = lq_int_clamp(floor((mx[1] - y) / (mx[1] - mn[1]) * h), 0, h - 1);
                int pz = lq_int_clamp(floor((z - mn[2]) / (mx[2] - mn[2]) * count), 0, count - 1);
                if (!bits[((size_t)pz * h + py) * w + px]) continue;
                size_t c = LQ_VOXEL_CELL(i, j, k, g->nx, g->ny);
                g->solid[c] = 1;
                g->noslip[c] = ns;
            }
    free(bits);
    return LQ_OK;
}

/* ---------------------------------------------------------------------------------
 * OBJ meshes.
 */

typedef struct lq_voxel_builder {
    double *v;
    int nv, cv;
    int *t;
    int nt, ct;
} lq_voxel_builder;

static bool lq_voxel_grow(void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap) return true;
    int nc = *cap ? *cap : 256;
    while (nc < need) {
        if (nc > INT32_MAX / 2) return false;
        nc *= 2;
    }
    void *q = realloc(*p, (size_t)nc * elem);
    if (!q) return false;
    *p = q;
    *cap = nc;
    return true;
}

/* The token at s: its end (first blank or NUL). */
static char *lq_voxel_token_end(char *s)
{
    while (*s && !isspace((unsigned char)*s)) s++;
    return s;
}

static char *lq_voxel_skip(char *s)
{
    while (*s && isspace((unsigned char)*s)) s++;
    return s;
}

typedef struct lq_voxel_vkey {
    double x, y, z;
    int idx;
} lq_voxel_vkey;

static int lq_voxel_vkey_cmp(const void *pa, const void *pb)
{
    const lq_voxel_vkey *a = pa, *b = pb;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    if (a->z != b->z) return a->z < b->z ? -1 : 1;
    return a->idx - b->idx;
}

static int lq_voxel_u64_cmp(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* Welds vertices at identical positions, drops triangles that become degenerate and
 * checks every edge is shared by an even number of triangles. */
static int lq_voxel_weld_check(const char *path, lq_voxel_mesh *m)
{
    int rc = LQ_OK;
    lq_voxel_vkey *keys = lq_alloc((size_t)m->nverts * sizeof *keys);
    int *rep = lq_alloc((size_t)m->nverts * sizeof *rep);
    uint64_t *edges = lq_alloc((size_t)m->ntris * 3 * sizeof *edges);
    if (!keys || !rep || !edges) {
        rc = LQ_ESIM;
        goto done;
    }
    for (int i = 0; i < m->nverts; i++)
        keys[i] = (lq_voxel_vkey){m->v[3 * i], m->v[3 * i + 1], m->v[3 * i + 2], i};
    qsort(keys, (size_t)m->nverts, sizeof *keys, lq_voxel_vkey_cmp);
    for (int i = 0; i < m->nverts; i++) {
        bool same = i > 0 && keys[i].x == keys[i - 1].x && keys[i].y == keys[i - 1].y &&
                    keys[i].z == keys[i - 1].z;
        rep[keys[i].idx] = same ? rep[keys[i - 1].idx] : keys[i].idx;
    }
    int nt = 0;
    for (int t = 0; t < m->ntris; t++) {
        int a = rep[m->tri[3 * t]], b = rep[m->tri[3 * t + 1]], c = rep[m->tri[3 * t + 2]];
        if (a == b || b == c || c == a) continue;
        m->tri[3 * nt] = a;
        m->tri[3 * nt + 1] = b;
        m->tri[3 * nt + 2] = c;
        nt++;
    }
    m->ntris = nt;
    if (nt == 0) {
        rc = lq_error(LQ_EINPUT, "%s: the mesh is empty (no faces with 3 distinct vertices)", path);
        goto done;
    }
    for (int t = 0; t < nt; t++)
        for (int e = 0; e < 3; e++) {
            uint64_t a = (uint64_t)m->tri[3 * t + e], b = (uint64_t)m->tri[3 * t + (e + 1) % 3];
            edges[3 * t + e] = a < b ? a << 32 | b : b << 32 | a;
        }
    size_t ne = (size_t)nt * 3, open = 0;
    uint64_t example = 0;
    qsort(edges, ne, sizeof *edges, lq_voxel_u64_cmp);
    for (size_t i = 0; i < ne;) {
        size_t j = i;
        while (j < ne && edges[j] == edges[i]) j++;
        if ((j - i) % 2) {
            if (!open) example = edges[i];
            open++;
        }
        i = j;
    }
    if (open)
        rc = lq_error(LQ_EINPUT,
                      "%s: the mesh is not closed (%zu boundary edge%s, each used by an odd "
                      "number of faces, e.g. between vertices %d and %d)",
                      path, open, open == 1 ? "" : "s", (int)(example >> 32) + 1,
                      (int)(example & 0xffffffffu) + 1);
done:
    free(keys);
    free(rep);
    free(edges);
    return rc;
}

/* One statement of an OBJ line; returns LQ_OK or the error. */
static int lq_voxel_obj_line(const char *path, int ln, char *line, lq_voxel_builder *b, int **face,
                             int *fcap)
{
    char *s = lq_voxel_skip(line);
    if (!*s || *s == '#') return LQ_OK;
    char *kend = lq_voxel_token_end(s);
    size_t klen = (size_t)(kend - s);
#define LQ_VOXEL_KW(w) (klen == sizeof(w) - 1 && strncmp(s, w, klen) == 0)
    if (LQ_VOXEL_KW("v")) {
        double xyz[3];
        int n = 0;
        char *tok = lq_voxel_skip(kend);
        while (*tok) {
            char *end = lq_voxel_token_end(tok), *stop;
            errno = 0;
            double val = strtod(tok, &stop);
            if (stop != end || !isfinite(val) || tok == end)
                return lq_error(LQ_EINPUT, "%s:%d:%d: malformed number '%.*s'", path, ln,
                                (int)(tok - line) + 1, (int)LQ_MIN(end - tok, 40), tok);
            if (n < 3) xyz[n] = val;
            n++;
            tok = lq_voxel_skip(end);
        }
        if (n < 3)
            return lq_error(LQ_EINPUT, "%s:%d:%d: a vertex needs 3 coordinates, got %d", path, ln,
                            (int)(s - line) + 1, n);
        if (!lq_voxel_grow((void **)&b->v, &b->cv, 3 * (b->nv + 1), sizeof *b->v))
            return lq_error(LQ_ESIM, "%s: out of memory reading the mesh", path);
        memcpy(b->v + 3 * b->nv, xyz, sizeof xyz);
        b->nv++;
        return LQ_OK;
    }
    if (LQ_VOXEL_KW("f")) {
        int n = 0;
        char *tok = lq_voxel_skip(kend);
        while (*tok) {
            char *end = lq_voxel_token_end(tok), *stop;
            int col = (int)(tok - line) + 1;
            errno = 0;
            long idx = strtol(tok, &stop, 10);
            bool ok = stop != tok && errno == 0 && (stop == end || *stop == '/');
            for (char *q = stop; ok && q < end; q++)
                ok = *q == '/' || *q == '-' || isdigit((unsigned char)*q);
            if (!ok)
                return lq_error(LQ_EINPUT, "%s:%d:%d: malformed vertex reference '%.*s'", path, ln,
                                col, (int)LQ_MIN(end - tok, 40), tok);
            long abs_idx = idx < 0 ? b->nv + idx + 1 : idx;
            if (idx == 0 || abs_idx < 1 || abs_idx > b->nv)
                return lq_error(LQ_EINPUT,
                                "%s:%d:%d: vertex index %ld is out of range (%d vertices so far)",
                                path, ln, col, idx, b->nv);
            if (!lq_voxel_grow((void **)face, fcap, n + 1, sizeof **face))
                return lq_error(LQ_ESIM, "%s: out of memory reading the mesh", path);
            (*face)[n++] = (int)abs_idx - 1;
            tok = lq_voxel_skip(end);
        }
        if (n < 3)
            return lq_error(LQ_EINPUT, "%s:%d:%d: a face needs at least 3 vertices, got %d", path,
                            ln, (int)(s - line) + 1, n);
        if (!lq_voxel_grow((void **)&b->t, &b->ct, 3 * (b->nt + n - 2), sizeof *b->t))
            return lq_error(LQ_ESIM, "%s: out of memory reading the mesh", path);
        for (int q = 1; q + 1 < n; q++) { /* fan */
            b->t[3 * b->nt] = (*face)[0];
            b->t[3 * b->nt + 1] = (*face)[q];
            b->t[3 * b->nt + 2] = (*face)[q + 1];
            b->nt++;
        }
        return LQ_OK;
    }
    if (LQ_VOXEL_KW("vn") || LQ_VOXEL_KW("vt") || LQ_VOXEL_KW("vp") || LQ_VOXEL_KW("o") ||
        LQ_VOXEL_KW("g") || LQ_VOXEL_KW("s") || LQ_VOXEL_KW("l") || LQ_VOXEL_KW("p") ||
        LQ_VOXEL_KW("usemtl") || LQ_VOXEL_KW("mtllib"))
        return LQ_OK;
#undef LQ_VOXEL_KW
    return lq_error(LQ_EINPUT, "%s:%d:%d: unknown OBJ statement '%.*s' (read: v, f)", path, ln,
                    (int)(s - line) + 1, (int)LQ_MIN(klen, 40), s);
}

int lq_voxel_mesh_read(const char *path, lq_voxel_mesh *m)
{
    memset(m, 0, sizeof *m);
    FILE *f = NULL;
    int open_rc = lq_input_open_asset(path, &f);
    if (open_rc) return open_rc;
    lq_voxel_builder b = {0};
    int *face = NULL, fcap = 0, rc = LQ_OK, ln = 0;
    char *line = NULL;
    size_t lcap = 0;
    ssize_t len;
    while ((len = getline(&line, &lcap, f)) >= 0) {
        ln++;
        if ((size_t)len != strlen(line)) {
            rc = lq_error(LQ_EINPUT, "%s:%d: a NUL byte in the line (not a text OBJ file?)", path,
                          ln);
            break;
        }
        rc = lq_voxel_obj_line(path, ln, line, &b, &face, &fcap);
        if (rc) break;
    }
    if (!rc && ferror(f)) rc = lq_error(LQ_EINPUT, "%s: read error", path);
    fclose(f);
    free(line);
    free(face);
    m->v = b.v;
    m->nverts = b.nv;
    m->tri = b.t;
    m->ntris = b.nt;
    if (!rc && m->ntris == 0) rc = lq_error(LQ_EINPUT, "%s: the mesh is empty (no faces)", path);
    if (!rc) rc = lq_voxel_weld_check(path, m);
    if (rc) lq_voxel_mesh_free(m);
    return rc;
}

void lq_voxel_mesh_free(lq_voxel_mesh *m)
{
    free(m->v);
    free(m->tri);
    memset(m, 0, sizeof *m);
}

double lq_voxel_mesh_volume(const lq_voxel_mesh *m)
{
    double vol = 0;
    for (int t = 0; t < m->ntris; t++) {
        const double *a = m->v + 3 * m->tri[3 * t], *b = m->v + 3 * m->tri[3 * t + 1],
                     *c = m->v + 3 * m->tri[3 * t + 2];
        vol += a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
               a[2] * (b[0] * c[1] - b[1] * c[0]);
    }
    return fabs(vol) / 6;
}

/* --- scanline parity -------------------------------------------------------------- */

#define LQ_VOXEL_F    20 /* fraction bits of snapped (y, z): 2^-20 of a cell */
#define LQ_VOXEL_ONE  ((int64_t)1 << LQ_VOXEL_F)
#define LQ_VOXEL_HALF ((int64_t)1 << (LQ_VOXEL_F - 1))
#define LQ_VOXEL_LIM  ((double)((int64_t)1 << 60)) /* |snapped| < 2^60: 2^40 cells */

__extension__ typedef __int128 lq_voxel_i128;

typedef struct lq_voxel_pt {
    int64_t u, v; /* snapped y, z */
} lq_voxel_pt;

typedef struct lq_voxel_hit {
    int64_t row; /* j + ny·k */
    double x;
} lq_voxel_hit;

static int lq_voxel_hit_cmp(const void *pa, const void *pb)
{
    const lq_voxel_hit *a = pa, *b = pb;
    if (a->row != b->row) return a->row < b->row ? -1 : 1;
    return a->x < b->x ? -1 : a->x > b->x;
}

/* Twice the signed area of (a, b, p), exact. */
static lq_voxel_i128 lq_voxel_orient(lq_voxel_pt a, lq_voxel_pt b, lq_voxel_pt p)
{
    return (lq_voxel_i128)(b.u - a.u) * (p.v - a.v) - (lq_voxel_i128)(b.v - a.v) * (p.u - a.u);
}

/* p strictly left of a→b after shifting p by (ε, ε²): the top-left rule. A point on a
 * shared edge or vertex then lies in exactly one of the triangles around it. */
static bool lq_voxel_left(lq_voxel_i128 e, lq_voxel_pt a, lq_voxel_pt b)
{
    if (e != 0) return e > 0;
    if (b.v != a.v) return b.v < a.v;
    return b.u > a.u;
}

static int64_t lq_voxel_floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int lq_voxel_snap(double y, double o, double dx, int64_t *out)
{
    double s = (y - o) / dx * (double)LQ_VOXEL_ONE;
    if (!(fabs(s) < LQ_VOXEL_LIM)) return LQ_EINPUT;
    *out = llround(s);
    return LQ_OK;
}

int lq_voxel_mesh_fill(const lq_voxel_mesh *m, int nx, int ny, int nz, double dx,
                       const double origin[3], double zmid, unsigned char *inside)
{
    size_t nh = 0, ch = 0;
    lq_voxel_hit *hits = NULL;
    int64_t vray = 0;
    if (nz == 1 && lq_voxel_snap(zmid, origin[2], dx, &vray))
        return lq_error(LQ_EINPUT, "mesh: z = %g lies too far from the grid", zmid);
    for (int t = 0; t < m->ntris; t++) {
        lq_voxel_pt p[3];
        double x[3];
        for (int q = 0; q < 3; q++) {
            const double *v = m->v + 3 * m->tri[3 * t + q];
            x[q] = v[0];
            if (lq_voxel_snap(v[1], origin[1], dx, &p[q].u) ||
                lq_voxel_snap(v[2], origin[2], dx, &p[q].v)) {
                free(hits);
                return lq_error(LQ_EINPUT,
                                "mesh: vertex %d (%g, %g, %g) lies too far from the grid",
                                m->tri[3 * t + q] + 1, v[0], v[1], v[2]);
            }
        }
        lq_voxel_i128 area = lq_voxel_orient(p[0], p[1], p[2]);
        if (area == 0) continue; /* edge-on to the rays: crosses none */
        if (area < 0) {          /* make it counter-clockwise in (y, z) */
            lq_voxel_pt tp = p[1];
            p[1] = p[2];
            p[2] = tp;
            double tx = x[1];
            x[1] = x[2];
            x[2] = tx;
            area = -area;
        }
        int64_t umin = LQ_MIN(LQ_MIN(p[0].u, p[1].u), p[2].u);
        int64_t umax = LQ_MAX(LQ_MAX(p[0].u, p[1].u), p[2].u);
        int64_t vmin = LQ_MIN(LQ_MIN(p[0].v, p[1].v), p[2].v);
        int64_t vmax = LQ_MAX(LQ_MAX(p[0].v, p[1].v), p[2].v);
        /* rows j with (j + ½)·ONE in [umin, umax] */
        int64_t j0 = -lq_voxel_floordiv(-(umin - LQ_VOXEL_HALF), LQ_VOXEL_ONE);
        int64_t j1 = lq_voxel_floordiv(umax - LQ_VOXEL_HALF, LQ_VOXEL_ONE);
        int64_t k0 = 0, k1 = 0;
        if (nz > 1) {
            k0 = -lq_voxel_floordiv(-(vmin - LQ_VOXEL_HALF), LQ_VOXEL_ONE);
            k1 = lq_voxel_floordiv(vmax - LQ_VOXEL_HALF, LQ_VOXEL_ONE);
        } else if (vray < vmin || vray > vmax) {
            continue;
        }
        j0 = LQ_MAX(j0, 0);
        j1 = LQ_MIN(j1, ny - 1);
        k0 = LQ_MAX(k0, 0);
        k1 = LQ_MIN(k1, nz - 1);
        for (int64_t k = k0; k <= k1; k++)
            for (int64_t j = j0; j <= j1; j++) {
                lq_voxel_pt r = {(2 * j + 1) * LQ_VOXEL_HALF,
                                 nz > 1 ? (2 * k + 1) * LQ_VOXEL_HALF : vray};
                lq_voxel_i128 e0 = lq_voxel_orient(p[1], p[2], r),
                              e1 = lq_voxel_orient(p[2], p[0], r),
                              e2 = lq_voxel_orient(p[0], p[1], r);
                if (!lq_voxel_left(e0, p[1], p[2]) || !lq_voxel_left(e1, p[2], p[0]) ||
                    !lq_voxel_left(e2, p[0], p[1]))
                    continue;
                if (nh == ch) {
                    size_t nc = ch ? 2 * ch : 4096;
                    lq_voxel_hit *q = realloc(hits, nc * sizeof *q);
                    if (!q) {
                        free(hits);
                        return lq_error(LQ_ESIM, "out of memory voxelising a mesh");
                    }
                    hits = q;
                    ch = nc;
                }
                /* barycentric weights e0..e2 (sum = area) give the crossing's x */
                double xc =
                    ((double)e0 * x[0] + (double)e1 * x[1] + (double)e2 * x[2]) / (double)area;
                hits[nh++] = (lq_voxel_hit){j + (int64_t)ny * k, xc};
            }
    }
    if (nh > 0) qsort(hits, nh, sizeof *hits, lq_voxel_hit_cmp); /* hits is NULL without any */
    for (size_t a = 0; a < nh;) {
        size_t b = a;
        while (b < nh && hits[b].row == hits[a].row) b++;
        int j = (int)(hits[a].row % ny), k = (int)(hits[a].row / ny);
        for (size_t q = a; q + 1 < b; q += 2) { /* inside between crossings 2m and 2m+1 */
            double i0 = ceil((hits[q].x - origin[0]) / dx - 0.5);
            double i1 = floor((hits[q + 1].x - origin[0]) / dx - 0.5);
            i0 = fmax(i0, 0);
            i1 = fmin(i1, nx - 1);
            for (int i = (int)i0; i <= (int)i1 && i0 <= i1; i++)
                inside[LQ_VOXEL_CELL(i, j, k, nx, ny)] = 1;
        }
        a = b;
    }
    free(hits);
    return LQ_OK;
}

/* A scene's mesh obstacle: read, scaled, rotated (x, then y, then z, world axes),
 * translated, filled. */
static int lq_voxel_obstacle_mesh(const lq_config *cfg, const lq_config_obstacle *ob,
                                  const lq_voxel_grid *g, unsigned char ns, unsigned char *scratch)
{
    const char *file = ob->mesh.file;
    double sc3[3] = {1, 1, 1};
    const double *rot = ob->mesh.rotate, *tr = ob->mesh.translate;
    int ns3 = ob->mesh.nscale;
    if (ns3 == 2)
        return lq_config_error(cfg, ob->mesh.at_scale,
                               "scale takes 1 number (uniform) or 3 (x, y, z), got 2");
    memcpy(sc3, ob->mesh.scale, sizeof sc3);
    if (ns3 == 1) sc3[1] = sc3[2] = sc3[0];
    lq_voxel_mesh m;
    int rc = lq_voxel_mesh_read(file, &m);
    if (rc) return rc;
    double R[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int ax = 0; ax < 3; ax++) { /* R = Rz·Ry·Rx */
        double a = rot[ax] * LQ_PI / 180, c = cos(a), s = sin(a), Q[3][3] = {{0}}, N[3][3];
        int u = (ax + 1) % 3, w = (ax + 2) % 3;
        Q[ax][ax] = 1;
        Q[u][u] = c;
        Q[u][w] = -s;
        Q[w][u] = s;
        Q[w][w] = c;
        for (int r = 0; r < 3; r++)
            for (int q = 0; q < 3; q++)
                N[r][q] = Q[r][0] * R[0][q] + Q[r][1] * R[1][q] + Q[r][2] * R[2][q];
        memcpy(R, N, sizeof R);
    }
    double zlo = INFINITY, zhi = -INFINITY;
    for (int i = 0; i < m.nverts; i++) {
        double *v = m.v + 3 * i, s[3] = {v[0] * sc3[0], v[1] * sc3[1], v[2] * sc3[2]};
        for (int r = 0; r < 3; r++) v[r] = R[r][0] * s[0] + R[r][1] * s[1] + R[r][2] * s[2] + tr[r];
    }
    for (int t = 0; t < 3 * m.ntris; t++) {
        zlo = fmin(zlo, m.v[3 * m.tri[t] + 2]);
        zhi = fmax(zhi, m.v[3 * m.tri[t] + 2]);
    }
    size_t n = (size_t)g->nx * g->ny * g->nz;
    memset(scratch, 0, n);
    rc = lq_voxel_mesh_fill(&m, g->nx, g->ny, g->nz, g->dx, g->o, 0.5 * (zlo + zhi), scratch);
    if (rc) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", lq_error_message());
        lq_error_replace(rc, "%s: %s", file, msg);
    } else {
        for (size_t c = 0; c < n; c++)
            if (scratch[c]) {
                g->solid[c] = 1;
                g->noslip[c] = ns;
            }
    }
    lq_voxel_mesh_free(&m);
    return rc;
}

/* ---------------------------------------------------------------------------------
 * The scene's solids.
 */

int lq_voxel_obstacles(const lq_config *cfg, int nx, int ny, int nz, double dx,
                       const double origin[3], unsigned char *solid, unsigned char *noslip)
{
    lq_voxel_grid g = {nx, ny, nz, dx, {origin[0], origin[1], origin[2]}, solid, noslip};
    int rc = lq_voxel_terrain(cfg, &g);
    if (rc) return rc;
    unsigned char *scratch = NULL;
    for (int o = 0; o < cfg->nobstacles && !rc; o++) {
        const lq_config_obstacle *ob = &cfg->obstacles[o];
        unsigned char ns = ob->noslip;
        lq_voxel_shape s = {0};
        if (ob->kind == LQ_CONFIG_OBSTACLE_BOX) {
            s.kind = LQ_VOXEL_BOX;
            memcpy(s.a, ob->box.min, sizeof s.a);
            memcpy(s.b, ob->box.max, sizeof s.b);
            for (int q = 0; q < (nz == 1 ? 2 : 3); q++)
                if (s.a[q] > s.b[q] && !rc)
                    rc = lq_config_error(cfg, ob->box.at_max, "max lies below min on axis %c",
                                         "xyz"[q]);
            if (rc) break;
        } else if (ob->kind == LQ_CONFIG_OBSTACLE_SPHERE) {
            s.kind = LQ_VOXEL_SPHERE;
            memcpy(s.a, ob->sphere.center, sizeof s.a);
            s.r = ob->sphere.radius;
        } else if (ob->kind == LQ_CONFIG_OBSTACLE_CYLINDER) {
            s.kind = LQ_VOXEL_CYLINDER;
            memcpy(s.a, ob->cylinder.center, sizeof s.a);
            s.r = ob->cylinder.radius;
            s.h = ob->cylinder.height;
            s.axis = ob->cylinder.axis;
        } else if (ob->kind == LQ_CONFIG_OBSTACLE_MASK) {
            rc = lq_voxel_mask(cfg, ob, &g, ns);
            continue;
        } else if (ob->kind == LQ_CONFIG_OBSTACLE_MESH) {
            if (!scratch) scratch = lq_alloc((size_t)nx * ny * nz);
            rc = scratch ? lq_voxel_obstacle_mesh(cfg, ob, &g, ns, scratch) : LQ_ESIM;
            continue;
        } else {
            rc = lq_error(LQ_EINPUT, "%s: obstacle kind '%s' is not voxelised", cfg->file,
                          ob->kind_word);
            continue;
        }
        if (nz == 1 && s.kind == LQ_VOXEL_BOX) s.a[2] = s.b[2] = 0.5 * (s.a[2] + s.b[2]);
        lq_voxel_fill_shape(&g, &s, ns);
    }
    free(scratch);
    return rc;
}
