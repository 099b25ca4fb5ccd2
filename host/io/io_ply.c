/*
 * io_ply.c — PLY meshes and point clouds (io.h).
 *
 * Writer: "format binary_little_endian 1.0", one `element vertex` whose properties are
 * float32 columns (x, y, z first), then, when there are triangles, `element face` with
 * `property list uchar uint vertex_indices`. Bytes are assembled explicitly in little-
 * endian order, so the file is the same on any host. Indices are checked against the
 * vertex count before anything is written.
 *
 * Reader: ascii, binary_little_endian or binary_big_endian 1.0 with any elements and
 * property types of the PLY spec (char..double, int8..float64). Scalar properties of
 * `vertex` become float columns (x, y and z must be present); the list property
 * `vertex_indices` (or `vertex_index`) of `face` becomes triangles, polygons fanned
 * from their first corner; every other element and property is read and dropped.
 * Invariants of a successful read: 0 <= index < nverts for every triangle index, and
 * every column holds nverts values. Before any allocation the element counts are
 * checked against the bytes left in the file, so a hostile header cannot make the
 * reader allocate more than the file could describe. Every rejection is one line naming
 * the file and, for header problems and ASCII data, the line.
 */
#include "io/io.h"

#include "core/common.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { PLY_ASCII, PLY_LE, PLY_BE };
enum { T_NONE, T_I8, T_U8, T_I16, T_U16, T_I32, T_U32, T_F32, T_F64 };

#define PLY_MAX_ELEMS 16
#define PLY_MAX_PROPS 64
#define PLY_MAX_LINE  1024
#define PLY_MAX_HEAD  (1 << 20) /* bytes of header accepted */
#define PLY_MAX_POLY  1024      /* corners of one face */

static const struct {
    const char *name;
    int type, size;
} ply_types[] = {
    {"char", T_I8, 1},   {"uchar", T_U8, 1},   {"short", T_I16, 2},   {"ushort", T_U16, 2},
    {"int", T_I32, 4},   {"uint", T_U32, 4},   {"float", T_F32, 4},   {"double", T_F64, 8},
    {"int8", T_I8, 1},   {"uint8", T_U8, 1},   {"int16", T_I16, 2},   {"uint16", T_U16, 2},
    {"int32", T_I32, 4}, {"uint32", T_U32, 4}, {"float32", T_F32, 4}, {"float64", T_F64, 8},
};

static int ply_type_size(int t)
{
    static const int size[] = {0, 1, 1, 2, 2, 4, 4, 4, 8};
    return size[t];
}

static int ply_type_parse(const char *s)
{
    for (size_t i = 0; i < LQ_COUNT(ply_types); i++)
        if (strcmp(s, ply_types[i].name) == 0) return ply_types[i].type;
    return T_NONE;
}

static int ply_word_ok(const char *s)
{
    if (!s || !*s || strlen(s) > 63) return 0;
    for (; *s; s++)
        if (*s <= ' ' || *s > '~') return 0;
    return 1;
}

/* --- writer ----------------------------------------------------------------------- */

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* The column each property is written from, and its sign flip: itself unflipped, or in
 * z up (io.h) each NAMEx NAMEy NAMEz triplet's y from −z and z from y, and a height
 * field's u w (no v) as u v = −w. */
static void ply_frame(bool z_up, int nprops, const char *const *names, int *src, uint32_t *flip,
                      const char **out)
{
    int iu = -1, iv = -1, iw = -1;
    for (int p = 0; p < nprops; p++) {
        src[p] = p;
        flip[p] = 0;
        out[p] = names[p];
        iu = strcmp(names[p], "u") ? iu : p;
        iv = strcmp(names[p], "v") ? iv : p;
        iw = strcmp(names[p], "w") ? iw : p;
    }
    if (!z_up) return;
    for (int p = 0; p < nprops; p++) {
        size_t len = strlen(names[p]);
        if (len == 0 || len > 63 || names[p][len - 1] != 'y') continue;
        int ix = -1, iz = -1;
        char want[64];
        memcpy(want, names[p], len + 1);
        for (int q = 0; q < nprops; q++) {
            want[len - 1] = 'x';
            if (strcmp(names[q], want) == 0) ix = q;
            want[len - 1] = 'z';
            if (strcmp(names[q], want) == 0) iz = q;
        }
        if (ix < 0 || iz < 0) continue;
        src[p] = iz; /* y' = −z */
        flip[p] = 0x80000000u;
        src[iz] = p; /* z' = y */
    }
    if (iu >= 0 && iw >= 0 && iv < 0) {
        out[iw] = "v";
        flip[iw] = 0x80000000u;
    }
}

int lq_ply_write(const char *path, int nverts, int nprops, const char *const *names,
                 const float *const *columns, int ntris, const uint32_t *tris)
{
    lq_file file = {0};
    uint8_t *buf = NULL;
    const size_t cap = 1 << 16;
    size_t fill = 0, rec = 4 * (size_t)(nprops > 0 ? nprops : 1);
    if (nverts < 0 || ntris < 0 || nprops < 3 || nprops > PLY_MAX_PROPS || !names || !columns ||
        (ntris > 0 && !tris))
        return lq_error(LQ_ESIM, "%s: bad PLY arguments (%d vertices, %d properties, %d triangles)",
                        path, nverts, nprops, ntris);
    if (strcmp(names[0], "x") || strcmp(names[1], "y") || strcmp(names[2], "z"))
        return lq_error(LQ_ESIM, "%s: PLY vertex properties must begin with x, y, z", path);
    for (int p = 0; p < nprops; p++)
        if (!ply_word_ok(names[p]) || !columns[p])
            return lq_error(LQ_ESIM, "%s: PLY property %d is unnamed, badly named or has no column",
                            path, p);
    for (size_t t = 0; t < 3 * (size_t)ntris; t++)
        if (tris[t] >= (uint32_t)nverts)
            return lq_error(LQ_ESIM, "%s: triangle %zu uses vertex %u of %d", path, t / 3, tris[t],
                            nverts);

    /* each written property p: column src[p], its sign bit flipped by flip[p] (io.h, z up) */
    int src[PLY_MAX_PROPS];
    uint32_t flip[PLY_MAX_PROPS];
    const char *out[PLY_MAX_PROPS];
    const bool z_up = lq_io_z_up();
    ply_frame(z_up, nprops, names, src, flip, out);
    buf = lq_alloc(cap);
    if (!buf) return LQ_ESIM;
    if (lq_file_open(&file, path)) goto fail;
    fprintf(file.f, "ply\nformat binary_little_endian 1.0\ncomment liquidcl\n%s",
            z_up ? "comment up z\n" : "");
    fprintf(file.f, "element vertex %d\n", nverts);
    for (int p = 0; p < nprops; p++) fprintf(file.f, "property float %s\n", out[p]);
    if (ntris > 0)
        fprintf(file.f, "element face %d\nproperty list uchar uint vertex_indices\n", ntris);
    fprintf(file.f, "end_header\n");

    for (int v = 0; v < nverts; v++) {
        for (int p = 0; p < nprops; p++) {
            uint32_t bits;
            memcpy(&bits, &columns[src[p]][v], 4);
            put_le32(buf + fill + 4 * (size_t)p, bits ^ flip[p]);
        }
        fill += rec;
        if (fill + rec > cap || v + 1 == nverts) {
            if (fwrite(buf, 1, fill, file.f) != fill) goto write_error;
            fill = 0;
        }
    }
    for (int t = 0; t < ntris; t++) {
        buf[fill] = 3;
        for (int c = 0; c < 3; c++) put_le32(buf + fill + 1 + 4 * c, tris[3 * (size_t)t + c]);
        fill += 13;
        if (fill + 13 > cap || t + 1 == ntris) {
            if (fwrite(buf, 1, fill, file.f) != fill) goto write_error;
            fill = 0;
        }
    }
    free(buf);
    return lq_file_commit(&file);
write_error:
    lq_error(LQ_ESIM, "%s: write failed: %s", file.tmp, strerror(errno));
fail:
    free(buf);
    lq_file_abort(&file);
    return LQ_ESIM;
}

/* --- reader ----------------------------------------------------------------------- */

typedef struct ply_prop {
    char name[64];
    int type;       /* item type */
    int count_type; /* list length type; T_NONE for a scalar */
} ply_prop;

typedef struct ply_elem {
    char name[64];
    long long count;
    int line; /* header line that declared it */
    int nprops;
    ply_prop props[PLY_MAX_PROPS];
} ply_elem;

typedef struct ply_reader {
    const char *path;
    FILE *f;
    int format;
    int line; /* current line (header, then ASCII data) */
    int nelems;
    ply_elem elems[PLY_MAX_ELEMS];
    uint32_t *tris; /* growing triangle list */
    size_t ntris, cap;
} ply_reader;

/* One header line without its newline; 1 read, 0 end of file, -1 too long. */
static int ply_line(ply_reader *r, char *buf)
{
    size_t len = 0;
    int c;
    r->line++;
    while ((c = getc(r->f)) != EOF && c != '\n') {
        if (len + 1 >= PLY_MAX_LINE) return -1;
        buf[len++] = (char)c;
    }
    if (len > 0 && buf[len - 1] == '\r') len--;
    buf[len] = '\0';
    return c == EOF && len == 0 ? 0 : 1;
}

static int ply_header(ply_reader *r)
{
    char line[PLY_MAX_LINE], w[4][64];
    int have_format = 0;
    long head = 0;
    ply_elem *e = NULL;
    int st = ply_line(r, line);
    if (st <= 0 || strcmp(line, "ply") != 0)
        return lq_error(LQ_EINPUT, "%s:1: not a PLY file (first line is not 'ply')", r->path);
    for (;;) {
        int n;
        st = ply_line(r, line);
        head += (long)strlen(line) + 1;
        if (st == 0)
            return lq_error(LQ_EINPUT, "%s:%d: truncated PLY header (no end_header)", r->path,
                            r->line);
        if (st < 0 || head > PLY_MAX_HEAD)
            return lq_error(LQ_EINPUT, "%s:%d: PLY header line too long", r->path, r->line);
        n = sscanf(line, "%63s %63s %63s %63s", w[0], w[1], w[2], w[3]);
        if (n <= 0) continue;
        if (!strcmp(w[0], "comment") || !strcmp(w[0], "obj_info")) continue;
        if (!strcmp(w[0], "end_header")) break;
        if (!strcmp(w[0], "format")) {
            if (n != 3 || strcmp(w[2], "1.0") != 0)
                return lq_error(LQ_EINPUT, "%s:%d: bad format line (want 'format <type> 1.0')",
                                r->path, r->line);
            if (!strcmp(w[1], "ascii"))
                r->format = PLY_ASCII;
            else if (!strcmp(w[1], "binary_little_endian"))
                r->format = PLY_LE;
            else if (!strcmp(w[1], "binary_big_endian"))
                r->format = PLY_BE;
            else
                return lq_error(LQ_EINPUT, "%s:%d: unknown PLY format '%s'", r->path, r->line,
                                w[1]);
            have_format = 1;
        } else if (!strcmp(w[0], "element")) {
            char *end;
            long long count;
            if (n != 3)
                return lq_error(LQ_EINPUT,
                                "%s:%d: bad element line (want 'element NAME "
                                "COUNT')",
                                r->path, r->line);
            errno = 0;
            count = strtoll(w[2], &end, 10);
            if (*end || errno || count < 0 || count > INT_MAX)
                return lq_error(LQ_EINPUT, "%s:%d: bad element count '%s'", r->path, r->line, w[2]);
            if (r->nelems == PLY_MAX_ELEMS)
                return lq_error(LQ_EINPUT, "%s:%d: more than %d elements", r->path, r->line,
                                PLY_MAX_ELEMS);
            for (int i = 0; i < r->nelems; i++)
                if (!strcmp(r->elems[i].name, w[1]))
                    return lq_error(LQ_EINPUT, "%s:%d: element '%s' declared twice", r->path,
                                    r->line, w[1]);
            e = &r->elems[r->nelems++];
            snprintf(e->name, sizeof e->name, "%s", w[1]);
            e->count = count;
            e->line = r->line;
        } else if (!strcmp(w[0], "property")) {
            ply_prop *p;
            int list = n >= 2 && !strcmp(w[1], "list");
            if (!e)
                return lq_error(LQ_EINPUT, "%s:%d: property before any element", r->path, r->line);
            if (n != (list ? 4 : 3))
                return lq_error(LQ_EINPUT, "%s:%d: bad property line", r->path, r->line);
            if (e->nprops == PLY_MAX_PROPS)
                return lq_error(LQ_EINPUT, "%s:%d: more than %d properties in '%s'", r->path,
                                r->line, PLY_MAX_PROPS, e->name);
            p = &e->props[e->nprops];
            if (list) {
                /* sscanf took only four words: "property list COUNT ITEM"; the name is
                 * the fifth. */
                char name[64];
                if (sscanf(line, "%*s %*s %*s %*s %63s", name) != 1)
                    return lq_error(
                        LQ_EINPUT,
                        "%s:%d: bad list property (want 'property list COUNT_TYPE ITEM_TYPE NAME')",
                        r->path, r->line);
                p->count_type = ply_type_parse(w[2]);
                p->type = ply_type_parse(w[3]);
                snprintf(p->name, sizeof p->name, "%s", name);
                if (p->count_type == T_NONE || p->type == T_NONE || p->count_type == T_F32 ||
                    p->count_type == T_F64 || p->type == T_F32 || p->type == T_F64)
                    return lq_error(LQ_EINPUT, "%s:%d: list types must be integers ('%s %s')",
                                    r->path, r->line, w[2], w[3]);
            } else {
                p->count_type = T_NONE;
                p->type = ply_type_parse(w[1]);
                snprintf(p->name, sizeof p->name, "%s", w[2]);
                if (p->type == T_NONE)
                    return lq_error(LQ_EINPUT, "%s:%d: unknown property type '%s'", r->path,
                                    r->line, w[1]);
            }
            for (int i = 0; i < e->nprops; i++)
                if (!strcmp(e->props[i].name, p->name))
                    return lq_error(LQ_EINPUT, "%s:%d: property '%s' declared twice", r->path,
                                    r->line, p->name);
            e->nprops++;
        } else {
            return lq_error(LQ_EINPUT, "%s:%d: unexpected PLY header keyword '%s'", r->path,
                            r->line, w[0]);
        }
    }
    if (!have_format) return lq_error(LQ_EINPUT, "%s: PLY header has no format line", r->path);
    for (int i = 0; i < r->nelems; i++)
        if (r->elems[i].nprops == 0)
            return lq_error(LQ_EINPUT, "%s:%d: element '%s' has no properties", r->path,
                            r->elems[i].line, r->elems[i].name);
    return LQ_OK;
}

/* Decodes one binary value. */
static double ply_decode(const uint8_t *b, int type, int big)
{
    uint8_t s[8];
    int n = ply_type_size(type);
    for (int i = 0; i < n; i++) s[i] = big ? b[n - 1 - i] : b[i];
    switch (type) {
    case T_I8:
        return (int8_t)s[0];
    case T_U8:
        return s[0];
    case T_I16:
        return (int16_t)(uint16_t)(s[0] | s[1] << 8);
    case T_U16:
        return (uint16_t)(s[0] | s[1] << 8);
    case T_I32:
    case T_U32:
    case T_F32: {
        uint32_t u =
            (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24;
        float f;
        if (type == T_I32) return (int32_t)u;
        if (type == T_U32) return u;
        memcpy(&f, &u, 4);
        return f;
    }
    default: {
        uint64_t u = 0;
        double d;
        for (int i = 7; i >= 0; i--) u = u << 8 | s[i];
        memcpy(&d, &u, 8);
        return d;
    }
    }
}

/* Reads one value; LQ_OK or an error naming what was being read. */
static int ply_value(ply_reader *r, int type, const ply_elem *e, long long item, double *v)
{
    if (r->format != PLY_ASCII) {
        uint8_t b[8];
        if (fread(b, (size_t)ply_type_size(type), 1, r->f) != 1)
            return lq_error(LQ_EINPUT, "%s: truncated PLY data in element '%s' (item %lld of %lld)",
                            r->path, e->name, item, e->count);
        *v = ply_decode(b, type, r->format == PLY_BE);
        return LQ_OK;
    }
    char tok[64], *end;
    size_t len = 0;
    int c;
    while ((c = getc(r->f)) != EOF && (c == ' ' || c == '\t' || c == '\r' || c == '\n'))
        if (c == '\n') r->line++;
    if (c == EOF)
        return lq_error(LQ_EINPUT, "%s:%d: truncated PLY data in element '%s' (item %lld of %lld)",
                        r->path, r->line, e->name, item, e->count);
    do {
        if (len + 1 >= sizeof tok)
            return lq_error(LQ_EINPUT, "%s:%d: PLY value too long", r->path, r->line);
        tok[len++] = (char)c;
    } while ((c = getc(r->f)) != EOF && !(c == ' ' || c == '\t' || c == '\r' || c == '\n'));
    if (c == '\n') ungetc(c, r->f);
    tok[len] = '\0';
    errno = 0;
    if (type == T_F32 || type == T_F64) {
        *v = strtod(tok, &end);
    } else {
        static const double lo[] = {0, -128, 0, -32768, 0, -2147483648.0, 0};
        static const double hi[] = {0, 127, 255, 32767, 65535, 2147483647.0, 4294967295.0};
        long long k = strtoll(tok, &end, 10);
        *v = (double)k;
        if (!*end && !errno && (*v < lo[type] || *v > hi[type])) errno = ERANGE;
    }
    if (*end || errno || end == tok)
        return lq_error(LQ_EINPUT, "%s:%d: bad PLY value '%s' in element '%s'", r->path, r->line,
                        tok, e->name);
    return LQ_OK;
}

/* Appends the polygon's fan triangles, checking its indices. */
static int ply_polygon(ply_reader *r, const double *idx, int n, int nverts, long long face)
{
    if (n < 3)
        return lq_error(LQ_EINPUT, "%s: face %lld has %d corners (need at least 3)", r->path, face,
                        n);
    for (int c = 0; c < n; c++)
        if (!(idx[c] >= 0 && idx[c] < nverts))
            return lq_error(LQ_EINPUT,
                            "%s: face %lld: vertex index %.0f out of range (%d vertices)", r->path,
                            face, idx[c], nverts);
    if (r->ntris + (size_t)(n - 2) > r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 1024;
        while (cap < r->ntris + (size_t)(n - 2)) cap *= 2;
        uint32_t *t = realloc(r->tris, 3 * cap * sizeof *t);
        if (!t) return lq_error(LQ_ESIM, "out of host memory reading %s", r->path);
        r->tris = t;
        r->cap = cap;
    }
    for (int c = 1; c + 1 < n; c++) {
        uint32_t *t = r->tris + 3 * r->ntris++;
        t[0] = (uint32_t)idx[0];
        t[1] = (uint32_t)idx[c];
        t[2] = (uint32_t)idx[c + 1];
    }
    return LQ_OK;
}

/* Fewest bytes one item of e can take (lists may be empty; an ASCII value is at least
 * one character and a separator): the guard against counts the file cannot hold. */
static long long ply_min_bytes(const ply_reader *r, const ply_elem *e)
{
    long long n = 0;
    for (int p = 0; p < e->nprops; p++) {
        const ply_prop *q = &e->props[p];
        if (r->format == PLY_ASCII)
            n += 2;
        else
            n += ply_type_size(q->count_type != T_NONE ? q->count_type : q->type);
    }
    return n;
}

static int ply_is_face_list(const ply_elem *e, const ply_prop *p)
{
    return !strcmp(e->name, "face") && p->count_type != T_NONE &&
           (!strcmp(p->name, "vertex_indices") || !strcmp(p->name, "vertex_index"));
}

int lq_ply_read(const char *path, lq_ply *out)
{
    ply_reader *r = NULL;
    ply_elem *ve = NULL;
    double idx[PLY_MAX_POLY];
    int col_of[PLY_MAX_PROPS], have_faces = 0, rc = LQ_EINPUT;
    memset(out, 0, sizeof *out);
    r = lq_calloc(1, sizeof *r);
    if (!r) return LQ_ESIM;
    r->path = path;
    r->f = fopen(path, "rb");
    if (!r->f) {
        lq_error(LQ_EINPUT, "%s: cannot open: %s", path, strerror(errno));
        goto fail;
    }
    if (ply_header(r)) goto fail;
    r->line++; /* ASCII data starts on the line after end_header */

    for (int i = 0; i < r->nelems; i++)
        if (!strcmp(r->elems[i].name, "vertex")) ve = &r->elems[i];
    if (!ve) {
        lq_error(LQ_EINPUT, "%s: PLY file has no vertex element", path);
        goto fail;
    }
    {
        /* Columns: the vertex element's scalar properties, in file order. */
        static const char *const xyz[3] = {"x", "y", "z"};
        int has[3] = {0, 0, 0};
        for (int p = 0; p < ve->nprops; p++) {
            col_of[p] = -1;
            if (ve->props[p].count_type != T_NONE) continue;
            col_of[p] = out->nprops++;
            for (int a = 0; a < 3; a++) has[a] |= !strcmp(ve->props[p].name, xyz[a]);
        }
        if (!has[0] || !has[1] || !has[2]) {
            lq_error(LQ_EINPUT, "%s:%d: vertex element lacks x, y or z", path, ve->line);
            goto fail;
        }
    }
    for (int i = 0; i < r->nelems; i++) {
        const ply_elem *e = &r->elems[i];
        if (strcmp(e->name, "face") != 0) continue;
        for (int p = 0; p < e->nprops; p++) have_faces |= ply_is_face_list(e, &e->props[p]);
        if (!have_faces) {
            lq_error(LQ_EINPUT, "%s:%d: face element has no vertex_indices list", path, e->line);
            goto fail;
        }
    }
    {
        /* Every item takes some bytes: counts beyond the file's size are lies. */
        long here = ftell(r->f), end;
        long long need = 0;
        if (here < 0 || fseek(r->f, 0, SEEK_END) != 0 || (end = ftell(r->f)) < 0 ||
            fseek(r->f, here, SEEK_SET) != 0) {
            lq_error(LQ_EINPUT, "%s: cannot seek: %s", path, strerror(errno));
            goto fail;
        }
        for (int i = 0; i < r->nelems; i++) {
            const ply_elem *e = &r->elems[i];
            need += e->count * ply_min_bytes(r, e);
            if (need > (long long)(end - here) + 1) {
                lq_error(LQ_EINPUT,
                         "%s:%d: element '%s' declares %lld items but the file is too short for "
                         "them (truncated?)",
                         path, e->line, e->name, e->count);
                goto fail;
            }
        }
    }

    out->nverts = (int)ve->count;
    out->names = lq_calloc((size_t)out->nprops, sizeof *out->names);
    out->columns = lq_calloc((size_t)out->nprops, sizeof *out->columns);
    if (!out->names || !out->columns) goto oom;
    for (int p = 0; p < ve->nprops; p++) {
        int c = col_of[p];
        if (c < 0) continue;
        out->names[c] = lq_alloc(strlen(ve->props[p].name) + 1);
        out->columns[c] = lq_alloc((size_t)out->nverts * sizeof(float));
        if (!out->names[c] || !out->columns[c]) goto oom;
        strcpy(out->names[c], ve->props[p].name);
    }

    for (int i = 0; i < r->nelems; i++) {
        const ply_elem *e = &r->elems[i];
        int is_vertex = e == ve;
        for (long long item = 0; item < e->count; item++) {
            for (int p = 0; p < e->nprops; p++) {
                const ply_prop *q = &e->props[p];
                double v, cnt;
                if (q->count_type == T_NONE) {
                    if (ply_value(r, q->type, e, item, &v)) goto fail;
                    if (is_vertex) out->columns[col_of[p]][item] = (float)v;
                    continue;
                }
                if (ply_value(r, q->count_type, e, item, &cnt)) goto fail;
                if (cnt < 0 || cnt > PLY_MAX_POLY) {
                    lq_error(LQ_EINPUT, "%s: element '%s' item %lld: list length %.0f out of range",
                             path, e->name, item, cnt);
                    goto fail;
                }
                for (int k = 0; k < (int)cnt; k++)
                    if (ply_value(r, q->type, e, item, &idx[k])) goto fail;
                if (ply_is_face_list(e, q)) {
                    int prc = ply_polygon(r, idx, (int)cnt, out->nverts, item);
                    if (prc) {
                        rc = prc;
                        goto fail;
                    }
                }
            }
        }
    }
    if (r->ntris > INT_MAX) {
        lq_error(LQ_EINPUT, "%s: too many triangles", path);
        goto fail;
    }
    out->ntris = (int)r->ntris;
    out->tris = r->tris ? r->tris : lq_alloc(sizeof(uint32_t));
    if (!out->tris) goto oom;
    fclose(r->f);
    free(r);
    return LQ_OK;
oom:
    rc = LQ_ESIM;
fail:
    if (r->f) fclose(r->f);
    free(r->tris);
    free(r);
    lq_ply_free(out);
    return rc;
}

void lq_ply_free(lq_ply *p)
{
    for (int i = 0; i < p->nprops; i++) {
        if (p->names) free(p->names[i]);
        if (p->columns) free(p->columns[i]);
    }
    free(p->names);
    free(p->columns);
    free(p->tris);
    memset(p, 0, sizeof *p);
}
