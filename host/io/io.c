/*
 * io.c — atomic output files, legacy VTK fields and stats.jsonl (io.h). PLY lives in
 * io_ply.c, PNG in io_png.c.
 *
 * Atomic files: lq_file_open creates "PATH.tmp.PID" in the target's folder (same file
 * system, so rename(2) is atomic); lq_file_commit flushes, closes and renames it over
 * PATH; lq_file_abort closes and removes it. Either call leaves the struct released
 * (both are no-ops on a released or zeroed struct), so a writer's `fail:` label may
 * always call lq_file_abort. A reader therefore sees the old file or the whole new one.
 *
 * VTK: "# vtk DataFile Version 3.0", BINARY, DATASET STRUCTURED_POINTS with DIMENSIONS,
 * ORIGIN, SPACING (printed with 17 significant digits, so they read back exactly), then
 * POINT_DATA n, SCALARS name float 1, LOOKUP_TABLE default and n big-endian float32
 * values, x fastest. The reader takes the same layout (keywords in any case, float or
 * double scalars, ASPECT_RATIO for SPACING) and rejects anything else with one line
 * naming the file and header line.
 *
 * jsonl: a line is assembled in the struct's buffer and written with one fwrite and an
 * fflush, so a reader tailing the file never sees half a line. Numbers use the
 * shortest of %.15g/%.16g/%.17g that reads back to the same double; non-finite numbers
 * become null. A line that would overflow the buffer is dropped with an error at
 * lq_jsonl_end.
 */
#include "io/io.h"

#include "core/common.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- atomic files ------------------------------------------------------------- */

static int io_z_up; /* set once by the run before its first file (io.h) */

void lq_io_set_z_up(int z_up)
{
    io_z_up = z_up != 0;
}

int lq_io_z_up(void)
{
    return io_z_up;
}

void lq_io_to_z_up(double v[3])
{
    const double y = v[1];
    v[1] = -v[2];
    v[2] = y;
}

int lq_file_open(lq_file *w, const char *path)
{
    size_t n = strlen(path);
    memset(w, 0, sizeof *w);
    w->path = lq_alloc(n + 1);
    w->tmp = lq_alloc(n + 32);
    if (!w->path || !w->tmp) goto fail;
    memcpy(w->path, path, n + 1);
    snprintf(w->tmp, n + 32, "%s.tmp.%ld", path, (long)getpid());
    w->f = fopen(w->tmp, "wb");
    if (!w->f) {
        lq_error(LQ_ESIM, "%s: cannot create: %s", w->tmp, strerror(errno));
        goto fail;
    }
    return LQ_OK;
fail:
    free(w->path);
    free(w->tmp);
    memset(w, 0, sizeof *w);
    return LQ_ESIM;
}

int lq_file_commit(lq_file *w)
{
    int rc = LQ_OK;
    if (!w->f)
        return lq_error(LQ_ESIM, "%s: commit of a file that is not open",
                        w->path ? w->path : "(null)");
    if (fflush(w->f) != 0 || ferror(w->f)) {
        rc = lq_error(LQ_ESIM, "%s: write failed: %s", w->tmp, strerror(errno));
        goto fail;
    }
    {
        FILE *f = w->f;
        w->f = NULL;
        if (fclose(f) != 0) {
            rc = lq_error(LQ_ESIM, "%s: close failed: %s", w->tmp, strerror(errno));
            goto fail;
        }
    }
    if (rename(w->tmp, w->path) != 0) {
        rc = lq_error(LQ_ESIM, "%s: cannot rename %s into place: %s", w->path, w->tmp,
                      strerror(errno));
        goto fail;
    }
    free(w->path);
    free(w->tmp);
    memset(w, 0, sizeof *w);
    return LQ_OK;
fail:
    lq_file_abort(w);
    return rc;
}

void lq_file_abort(lq_file *w)
{
    if (w->f) fclose(w->f);
    if (w->tmp) remove(w->tmp);
    free(w->path);
    free(w->tmp);
    memset(w, 0, sizeof *w);
}

int lq_mkdirs(const char *path)
{
    size_t n = strlen(path);
    char *buf = lq_alloc(n + 1);
    struct stat st;
    if (!buf) return LQ_ESIM;
    memcpy(buf, path, n + 1);
    while (n > 1 && buf[n - 1] == '/') buf[--n] = '\0';
    /* Create each prefix that ends before a '/', then the whole path. */
    for (size_t i = 1; i <= n; i++) {
        if (i < n && buf[i] != '/') continue;
        char keep = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
            lq_error(LQ_ESIM, "%s: cannot create folder: %s", buf, strerror(errno));
            goto fail;
        }
        if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
            lq_error(LQ_ESIM, "%s: exists and is not a folder", buf);
            goto fail;
        }
        buf[i] = keep;
    }
    free(buf);
    return LQ_OK;
fail:
    free(buf);
    return LQ_ESIM;
}

/* --- legacy VTK ------------------------------------------------------------------- */

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static uint32_t get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get_be64(const uint8_t *p)
{
    return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

/* A VTK/PLY token: one word of printable ASCII without spaces. */
static int io_word_ok(const char *s)
{
    if (!s || !*s) return 0;
    for (; *s; s++)
        if (*s <= ' ' || *s > '~') return 0;
    return 1;
}

int lq_vtk_write(const char *path, const char *name, int nx, int ny, int nz, const double origin[3],
                 const double spacing[3], const float *data)
{
    lq_file file = {0};
    uint8_t buf[4096];
    size_t n, i, fill = 0;
    if (nx < 1 || ny < 1 || nz < 1 || !io_word_ok(name))
        return lq_error(LQ_ESIM, "%s: bad VTK field (dims %dx%dx%d, name '%s')", path, nx, ny, nz,
                        name ? name : "(null)");
    n = (size_t)nx * (size_t)ny * (size_t)nz;
    if (lq_file_open(&file, path)) return LQ_ESIM;
    fprintf(file.f,
            "# vtk DataFile Version 3.0\nliquidcl %s\nBINARY\nDATASET STRUCTURED_POINTS\n"
            "DIMENSIONS %d %d %d\nORIGIN %.17g %.17g %.17g\nSPACING %.17g %.17g %.17g\n"
            "POINT_DATA %zu\nSCALARS %s float 1\nLOOKUP_TABLE default\n",
            name, nx, ny, nz, origin[0], origin[1], origin[2], spacing[0], spacing[1], spacing[2],
            n, name);
    for (i = 0; i < n; i++) {
        uint32_t bits;
        memcpy(&bits, &data[i], 4);
        put_be32(buf + fill, bits);
        fill += 4;
        if (fill == sizeof buf || i + 1 == n) {
            if (fwrite(buf, 1, fill, file.f) != fill) {
                lq_error(LQ_ESIM, "%s: write failed: %s", file.tmp, strerror(errno));
                goto fail;
            }
            fill = 0;
        }
    }
    fputc('\n', file.f);
    return lq_file_commit(&file);
fail:
    lq_file_abort(&file);
    return LQ_ESIM;
}

/* Reads one header line (without the newline) into buf; returns 0 at EOF, -1 when the
 * line does not fit. Blank lines are skipped and counted. */
static int vtk_line(FILE *f, char *buf, size_t cap, int *lineno)
{
    for (;;) {
        size_t len = 0;
        int c;
        (*lineno)++;
        while ((c = getc(f)) != EOF && c != '\n') {
            if (len + 1 >= cap) return -1;
            buf[len++] = (char)c;
        }
        if (len > 0 && buf[len - 1] == '\r') len--;
        buf[len] = '\0';
        if (len == 0 && c == EOF) return 0;
        if (strspn(buf, " \t") < len) return 1;
        if (c == EOF) return 0;
    }
}

/* The header's first three lines: the version line, a free title, BINARY. */
static int vtk_preamble(FILE *f, const char *path, int *lineno)
{
    char line[512], word[64];
    int r = vtk_line(f, line, sizeof line, lineno);
    if (r <= 0 || strncmp(line, "# vtk DataFile Version", 22) != 0)
        return lq_error(LQ_EINPUT, "%s:1: not a legacy VTK file (no '# vtk DataFile Version')",
                        path);
    /* The title may be blank, so it is read raw rather than with vtk_line. */
    int c;
    (*lineno)++;
    while ((c = getc(f)) != EOF && c != '\n') {
    }
    if (c == EOF) return lq_error(LQ_EINPUT, "%s:%d: truncated VTK header", path, *lineno);
    if (vtk_line(f, line, sizeof line, lineno) <= 0 || sscanf(line, "%63s", word) != 1)
        return lq_error(LQ_EINPUT, "%s:%d: truncated VTK header", path, *lineno);
    if (strcasecmp(word, "BINARY") != 0)
        return lq_error(LQ_EINPUT, "%s:%d: expected BINARY, found '%s' (only binary VTK is read)",
                        path, *lineno, word);
    return LQ_OK;
}

/* The keyword lines up to LOOKUP_TABLE, which ends the header: the grid, the point count
 * and the scalars' element size (4: float, 8: double). */
static int vtk_keywords(FILE *f, const char *path, int *lineno, int dims[3], double origin[3],
                        double spacing[3], long long *npoints, size_t *esize)
{
    char line[512], word[64], type[64], name[256];
    int have = 0, ncomp = 1;
    for (;;) {
        int used = 0, r = vtk_line(f, line, sizeof line, lineno);
        if (r == 0)
            return lq_error(LQ_EINPUT, "%s:%d: truncated VTK header (no LOOKUP_TABLE)", path,
                            *lineno);
        if (r < 0) return lq_error(LQ_EINPUT, "%s:%d: header line too long", path, *lineno);
        if (sscanf(line, "%63s%n", word, &used) != 1) continue;
        const char *rest = line + used;
        if (strcasecmp(word, "DATASET") == 0) {
            if (sscanf(rest, "%63s", type) != 1 || strcasecmp(type, "STRUCTURED_POINTS") != 0)
                return lq_error(LQ_EINPUT, "%s:%d: dataset must be STRUCTURED_POINTS", path,
                                *lineno);
            have |= 1;
        } else if (strcasecmp(word, "DIMENSIONS") == 0) {
            char tail[2];
            if (sscanf(rest, "%d %d %d %1s", &dims[0], &dims[1], &dims[2], tail) != 3 ||
                dims[0] < 1 || dims[1] < 1 || dims[2] < 1)
                return lq_error(LQ_EINPUT, "%s:%d: bad DIMENSIONS (want three positive integers)",
                                path, *lineno);
            have |= 2;
        } else if (strcasecmp(word, "ORIGIN") == 0 || strcasecmp(word, "SPACING") == 0 ||
                   strcasecmp(word, "ASPECT_RATIO") == 0) {
            double *v = strcasecmp(word, "ORIGIN") == 0 ? origin : spacing;
            char tail[2];
            if (sscanf(rest, "%lf %lf %lf %1s", &v[0], &v[1], &v[2], tail) != 3 ||
                !isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
                return lq_error(LQ_EINPUT, "%s:%d: bad %s (want three finite numbers)", path,
                                *lineno, word);
            have |= v == origin ? 4 : 8;
        } else if (strcasecmp(word, "POINT_DATA") == 0) {
            if (sscanf(rest, "%lld", npoints) != 1 || *npoints < 1)
                return lq_error(LQ_EINPUT, "%s:%d: bad POINT_DATA count", path, *lineno);
            have |= 16;
        } else if (strcasecmp(word, "SCALARS") == 0) {
            int k = sscanf(rest, "%255s %63s %d", name, type, &ncomp);
            if (k < 2 || (k == 3 && ncomp != 1))
                return lq_error(LQ_EINPUT, "%s:%d: bad SCALARS line (want 'SCALARS name float 1')",
                                path, *lineno);
            if (strcasecmp(type, "float") == 0)
                *esize = 4;
            else if (strcasecmp(type, "double") == 0)
                *esize = 8;
            else
                return lq_error(LQ_EINPUT, "%s:%d: scalar type '%s' not supported (float, double)",
                                path, *lineno, type);
            have |= 32;
        } else if (strcasecmp(word, "LOOKUP_TABLE") == 0) {
            break;
        } else {
            return lq_error(LQ_EINPUT, "%s:%d: unexpected VTK keyword '%s'", path, *lineno, word);
        }
    }
    if ((have & 63) != 63)
        return lq_error(LQ_EINPUT, "%s:%d: VTK header lacks%s%s%s%s%s%s before LOOKUP_TABLE", path,
                        *lineno, have & 1 ? "" : " DATASET", have & 2 ? "" : " DIMENSIONS",
                        have & 4 ? "" : " ORIGIN", have & 8 ? "" : " SPACING",
                        have & 16 ? "" : " POINT_DATA", have & 32 ? "" : " SCALARS");
    return LQ_OK;
}

/* The n big-endian values after the header, as floats, into *data; the file's size is
 * checked first, so a header that lies allocates nothing. */
static int vtk_values(FILE *f, const char *path, size_t n, size_t esize, float **data)
{
    uint8_t *raw = NULL;
    float *out = NULL;
    long here = ftell(f), end;
    if (here < 0 || fseek(f, 0, SEEK_END) != 0 || (end = ftell(f)) < 0 ||
        fseek(f, here, SEEK_SET) != 0)
        return lq_error(LQ_EINPUT, "%s: cannot seek: %s", path, strerror(errno));
    if ((unsigned long long)(end - here) / esize < n)
        return lq_error(LQ_EINPUT, "%s: truncated VTK data (%zu values declared, %lld found)", path,
                        n, (long long)((end - here) / (long)esize));
    raw = lq_alloc(n * esize);
    out = lq_alloc(n * sizeof *out);
    if (!raw || !out) goto fail;
    if (fread(raw, esize, n, f) != n) {
        lq_error(LQ_EINPUT, "%s: truncated VTK data", path);
        goto fail;
    }
    for (size_t i = 0; i < n; i++) {
        if (esize == 4) {
            uint32_t bits = get_be32(raw + 4 * i);
            memcpy(&out[i], &bits, 4);
        } else {
            uint64_t bits = get_be64(raw + 8 * i);
            double d;
            memcpy(&d, &bits, 8);
            out[i] = (float)d;
        }
    }
    free(raw);
    *data = out;
    return LQ_OK;
fail:
    free(raw);
    free(out);
    return LQ_EINPUT;
}

int lq_vtk_read(const char *path, int dims[3], double origin[3], double spacing[3], float **data)
{
    int lineno = 0;
    long long npoints = -1;
    size_t n = 0, esize = 4;
    *data = NULL;
    dims[0] = dims[1] = dims[2] = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return lq_error(LQ_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    int rc = vtk_preamble(f, path, &lineno);
    if (!rc) rc = vtk_keywords(f, path, &lineno, dims, origin, spacing, &npoints, &esize);
    if (!rc && (double)dims[0] * dims[1] * dims[2] > 1e15)
        rc = lq_error(LQ_EINPUT, "%s: DIMENSIONS %d %d %d are too large", path, dims[0], dims[1],
                      dims[2]);
    if (!rc) {
        n = (size_t)dims[0] * (size_t)dims[1] * (size_t)dims[2];
        if ((unsigned long long)npoints != n)
            rc = lq_error(LQ_EINPUT, "%s: POINT_DATA %lld does not match DIMENSIONS %d %d %d", path,
                          npoints, dims[0], dims[1], dims[2]);
    }
    if (!rc) rc = vtk_values(f, path, n, esize, data);
    fclose(f);
    if (rc) {
        dims[0] = dims[1] = dims[2] = 0;
        return LQ_EINPUT;
    }
    return LQ_OK;
}

/* --- stats.jsonl ------------------------------------------------------------------ */

/* Appends text to the line; on overflow marks the line as lost (len = capacity). */
static void jsonl_put(lq_jsonl *j, const char *s, size_t n)
{
    if (j->len >= sizeof j->line || n >= sizeof j->line - j->len) {
        j->len = sizeof j->line;
        return;
    }
    memcpy(j->line + j->len, s, n);
    j->len += n;
}

static void jsonl_string(lq_jsonl *j, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    jsonl_put(j, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[7] = {'\\', 0, 0, 0, 0, 0, 0};
        switch (c) {
        case '"':
            esc[1] = '"';
            break;
        case '\\':
            esc[1] = '\\';
            break;
        case '\n':
            esc[1] = 'n';
            break;
        case '\r':
            esc[1] = 'r';
            break;
        case '\t':
            esc[1] = 't';
            break;
        case '\b':
            esc[1] = 'b';
            break;
        case '\f':
            esc[1] = 'f';
            break;
        default:
            if (c < 0x20 || c == 0x7f) {
                memcpy(esc + 1, "u00", 3);
                esc[4] = hex[c >> 4];
                esc[5] = hex[c & 15];
                jsonl_put(j, esc, 6);
            } else {
                jsonl_put(j, s, 1);
            }
            continue;
        }
        jsonl_put(j, esc, 2);
    }
    jsonl_put(j, "\"", 1);
}

static void jsonl_key(lq_jsonl *j, const char *key)
{
    if (!j->first) jsonl_put(j, ",", 1);
    j->first = 0;
    jsonl_string(j, key);
    jsonl_put(j, ":", 1);
}

int lq_jsonl_open(lq_jsonl *j, const char *path)
{
    memset(j, 0, sizeof *j);
    j->f = fopen(path, "w");
    if (!j->f) return lq_error(LQ_ESIM, "%s: cannot create: %s", path, strerror(errno));
    return LQ_OK;
}

int lq_jsonl_append(lq_jsonl *j, const char *path)
{
    memset(j, 0, sizeof *j);
    j->f = fopen(path, "a");
    if (!j->f) return lq_error(LQ_ESIM, "%s: cannot open: %s", path, strerror(errno));
    return LQ_OK;
}

void lq_jsonl_begin(lq_jsonl *j)
{
    j->len = 0;
    j->first = 1;
    jsonl_put(j, "{", 1);
}

void lq_jsonl_int(lq_jsonl *j, const char *key, long long v)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%lld", v);
    jsonl_key(j, key);
    jsonl_put(j, buf, (size_t)n);
}

void lq_jsonl_num(lq_jsonl *j, const char *key, double v)
{
    char buf[40];
    int n = 0;
    if (!isfinite(v)) {
        lq_jsonl_null(j, key);
        return;
    }
    /* Shortest of 15..17 significant digits that reads back to the same double. */
    for (int digits = 15; digits <= 17; digits++) {
        n = snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) break;
    }
    jsonl_key(j, key);
    jsonl_put(j, buf, (size_t)n);
}

void lq_jsonl_null(lq_jsonl *j, const char *key)
{
    jsonl_key(j, key);
    jsonl_put(j, "null", 4);
}

void lq_jsonl_str(lq_jsonl *j, const char *key, const char *v)
{
    jsonl_key(j, key);
    if (v)
        jsonl_string(j, v);
    else
        jsonl_put(j, "null", 4);
}

int lq_jsonl_end(lq_jsonl *j)
{
    jsonl_put(j, "}\n", 2);
    if (j->len >= sizeof j->line) {
        j->len = 0;
        return lq_error(LQ_ESIM, "stats line longer than %zu bytes; line dropped", sizeof j->line);
    }
    if (!j->f) return lq_error(LQ_ESIM, "stats line written to a closed jsonl file");
    if (fwrite(j->line, 1, j->len, j->f) != j->len || fflush(j->f) != 0) {
        j->len = 0;
        return lq_error(LQ_ESIM, "cannot write stats line: %s", strerror(errno));
    }
    j->len = 0;
    return LQ_OK;
}

void lq_jsonl_close(lq_jsonl *j)
{
    if (j->f) fclose(j->f);
    j->f = NULL;
}
