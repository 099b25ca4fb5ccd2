/*
 * test_io.c — io.h: every writer's output is read back and compared (PLY header,
 * values and indices; VTK dims/origin/spacing/values bit for bit; PNG pixels; jsonl
 * text), atomic files leave nothing behind when aborted, and malformed inputs are
 * rejected with one line naming the file, never a crash.
 *
 * Files live in a fresh folder under /tmp that the test removes at the end.
 */
#include "lib/check.h"
#include "core/common.h"
#include "io/io.h"

#include <errno.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static const char *tmp_path(const char *name)
{
    static char buf[8][256];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(data, 1, n, f) == n);
    fclose(f);
}

static void write_text(const char *path, const char *text)
{
    write_bytes(path, text, strlen(text));
}

/* Whole file, NUL-terminated; *n its size. */
static char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long len;
    *n = 0;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)len + 1);
    if (buf && fread(buf, 1, (size_t)len, f) == (size_t)len) {
        buf[len] = '\0';
        *n = (size_t)len;
    }
    fclose(f);
    return buf;
}

/* A call that must fail with `code` and an error line that names `path` and contains
 * `what` ("": anything). */
#define CHECK_REJECT(expr, code, path, what)                                                       \
    do {                                                                                           \
        lq_error_clear();                                                                          \
        int rc_ = (expr);                                                                          \
        const char *m_ = lq_error_message();                                                       \
        CHECK_MSG(rc_ == (code), "rc %d, want %d (%s)", rc_, code, m_);                            \
        CHECK_MSG(strstr(m_, path) != NULL, "message '%s' does not name %s", m_, path);            \
        const char *w_ = (what);                                                                   \
        CHECK_MSG(!*w_ || strstr(m_, w_) != NULL, "message '%s' lacks '%s'", m_, w_);              \
        CHECK_MSG(strchr(m_, '\n') == NULL, "message '%s' is not one line", m_);                   \
    } while (0)

/* --- atomic files ------------------------------------------------------------------ */

static void test_atomic(void)
{
    const char *path = tmp_path("atomic.txt");
    char tmpname[300];
    lq_file w;
    size_t n;
    char *text;

    CHECK_OK(lq_file_open(&w, path));
    snprintf(tmpname, sizeof tmpname, "%s.tmp.%ld", path, (long)getpid());
    CHECK(w.tmp && strcmp(w.tmp, tmpname) == 0);
    CHECK(exists(tmpname));
    CHECK(!exists(path));
    fputs("first\n", w.f);
    CHECK_OK(lq_file_commit(&w));
    CHECK(!exists(tmpname));
    text = read_all(path, &n);
    CHECK(text && strcmp(text, "first\n") == 0);
    free(text);
    CHECK(w.f == NULL && w.path == NULL && w.tmp == NULL);
    lq_file_abort(&w); /* a released struct: no-op */

    /* An aborted rewrite leaves the old file untouched and no temporary. */
    CHECK_OK(lq_file_open(&w, path));
    fputs("second, never committed\n", w.f);
    lq_file_abort(&w);
    CHECK(!exists(tmpname));
    text = read_all(path, &n);
    CHECK(text && strcmp(text, "first\n") == 0);
    free(text);

    /* An aborted new file leaves nothing at all. */
    const char *fresh = tmp_path("never.txt");
    CHECK_OK(lq_file_open(&w, fresh));
    fputs("x", w.f);
    lq_file_abort(&w);
    CHECK(!exists(fresh));
    snprintf(tmpname, sizeof tmpname, "%s.tmp.%ld", fresh, (long)getpid());
    CHECK(!exists(tmpname));

    /* A folder that does not exist: LQ_ESIM naming the temporary and the reason. */
    CHECK_REJECT(lq_file_open(&w, tmp_path("no/such/folder.txt")), LQ_ESIM, "no/such/folder",
                 strerror(ENOENT));
    CHECK(w.f == NULL);
    remove(path);
}

static void test_mkdirs(void)
{
    const char *deep = tmp_path("a/b/c/");
    struct stat st;
    CHECK_OK(lq_mkdirs(deep));
    CHECK(stat(tmp_path("a/b/c"), &st) == 0 && S_ISDIR(st.st_mode));
    CHECK_OK(lq_mkdirs(tmp_path("a/b"))); /* existing: fine */
    write_text(tmp_path("a/file"), "x");
    CHECK_REJECT(lq_mkdirs(tmp_path("a/file/d")), LQ_ESIM, "a/file", "not a folder");
    remove(tmp_path("a/file"));
    rmdir(tmp_path("a/b/c"));
    rmdir(tmp_path("a/b"));
    rmdir(tmp_path("a"));
}

/* --- PLY --------------------------------------------------------------------------- */

static void test_ply_roundtrip(void)
{
    const char *path = tmp_path("mesh.ply");
    const char *names[] = {"x", "y", "z", "depth"};
    float x[5] = {0, 1, 0, 1, 0.5f}, y[5] = {-1.5f, 2.25f, 1e-30f, -0.0f, 3.0e7f},
          z[5] = {0, 0, 1, 1, 0.123456789f}, d[5] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f};
    const float *cols[] = {x, y, z, d};
    const uint32_t tris[] = {0, 2, 1, 1, 2, 3, 4, 3, 2};
    lq_ply m;
    size_t n;
    char *text;

    CHECK_OK(lq_ply_write(path, 5, 4, names, cols, 3, tris));
    text = read_all(path, &n);
    CHECK(text != NULL);
    if (text) {
        const char *head = "ply\n"
                           "format binary_little_endian 1.0\n"
                           "comment liquidcl\n"
                           "element vertex 5\n"
                           "property float x\n"
                           "property float y\n"
                           "property float z\n"
                           "property float depth\n"
                           "element face 3\n"
                           "property list uchar uint vertex_indices\n"
                           "end_header\n";
        size_t hl = strlen(head);
        CHECK(strncmp(text, head, hl) == 0);
        CHECK(n == hl + 5 * 4 * 4 + 3 * 13);
        /* Little-endian bytes regardless of host: y[1] = 2.25f = 0x40100000. */
        const unsigned char *v1y = (const unsigned char *)text + hl + 16 + 4;
        CHECK(v1y[0] == 0x00 && v1y[1] == 0x00 && v1y[2] == 0x10 && v1y[3] == 0x40);
        const unsigned char *f0 = (const unsigned char *)text + hl + 80;
        CHECK(f0[0] == 3 && f0[1] == 0 && f0[5] == 2 && f0[9] == 1);
    }
    free(text);

    CHECK_OK(lq_ply_read(path, &m));
    CHECK(m.nverts == 5 && m.nprops == 4 && m.ntris == 3);
    for (int p = 0; p < 4 && p < m.nprops; p++) {
        CHECK(strcmp(m.names[p], names[p]) == 0);
        CHECK(memcmp(m.columns[p], cols[p], sizeof x) == 0);
    }
    CHECK(m.tris && memcmp(m.tris, tris, sizeof tris) == 0);
    lq_ply_free(&m);
    CHECK(m.names == NULL && m.nprops == 0);

    /* Point cloud: no face element. */
    CHECK_OK(lq_ply_write(path, 5, 3, names, cols, 0, NULL));
    text = read_all(path, &n);
    CHECK(text && strstr(text, "element face") == NULL);
    free(text);
    CHECK_OK(lq_ply_read(path, &m));
    CHECK(m.nverts == 5 && m.nprops == 3 && m.ntris == 0);
    lq_ply_free(&m);

    /* Empty mesh. */
    CHECK_OK(lq_ply_write(path, 0, 3, names, cols, 0, NULL));
    CHECK_OK(lq_ply_read(path, &m));
    CHECK(m.nverts == 0 && m.ntris == 0 && m.nprops == 3);
    lq_ply_free(&m);

    /* The writer refuses bad indices and bad names, and leaves no file. */
    remove(path);
    const uint32_t bad[] = {0, 1, 5};
    CHECK_REJECT(lq_ply_write(path, 5, 3, names, cols, 1, bad), LQ_ESIM, path, "vertex 5");
    CHECK(!exists(path));
    const char *badnames[] = {"x", "y", "z", "two words"};
    CHECK_REJECT(lq_ply_write(path, 5, 4, badnames, cols, 0, NULL), LQ_ESIM, path, "");
    const char *noxyz[] = {"y", "x", "z"};
    CHECK_REJECT(lq_ply_write(path, 5, 3, noxyz, cols, 0, NULL), LQ_ESIM, path, "x, y, z");
    CHECK(!exists(path));
}

static void test_ply_ascii_and_other_layouts(void)
{
    const char *path = tmp_path("ascii.ply");
    lq_ply m;
    /* A quad (fanned into two triangles), a triangle, an extra element, a vertex list
     * property and integer/double vertex properties, CRLF line ends. */
    write_text(path, "ply\r\n"
                     "format ascii 1.0\r\n"
                     "comment made by hand\r\n"
                     "element vertex 5\r\n"
                     "property double x\r\n"
                     "property float y\r\n"
                     "property int z\r\n"
                     "property list uchar int tags\r\n"
                     "property uchar red\r\n"
                     "element face 2\r\n"
                     "property list uchar int vertex_indices\r\n"
                     "property float quality\r\n"
                     "element edge 1\r\n"
                     "property int vertex1\r\n"
                     "property int vertex2\r\n"
                     "end_header\r\n"
                     "0 0 0 0 255\r\n"
                     "1.5 0 0 2 7 8 10\r\n"
                     "1 1e1 -3 1 9 20\r\n"
                     "0 1 0 0 30\r\n"
                     "  0.25 0.5 1 0 40\r\n"
                     "4 0 1 2 3 0.5\r\n"
                     "3 1 4 2 1\r\n"
                     "0 1\r\n");
    CHECK_OK(lq_ply_read(path, &m));
    CHECK(m.nverts == 5 && m.nprops == 4 && m.ntris == 3);
    if (m.nprops == 4 && m.ntris == 3) {
        CHECK(!strcmp(m.names[0], "x") && !strcmp(m.names[2], "z") && !strcmp(m.names[3], "red"));
        CHECK(m.columns[0][1] == 1.5f && m.columns[1][2] == 10.0f && m.columns[2][2] == -3.0f &&
              m.columns[3][4] == 40.0f);
        const uint32_t want[] = {0, 1, 2, 0, 2, 3, 1, 4, 2};
        CHECK(memcmp(m.tris, want, sizeof want) == 0);
    }
    lq_ply_free(&m);

    /* Big-endian binary with a uint8 count and ushort indices. */
    const char *be = tmp_path("be.ply");
    const char head[] = "ply\n"
                        "format binary_big_endian 1.0\n"
                        "element vertex 3\n"
                        "property float32 x\n"
                        "property float32 y\n"
                        "property float32 z\n"
                        "element face 1\n"
                        "property list uint8 ushort vertex_index\n"
                        "end_header\n";
    unsigned char buf[256];
    size_t hl = strlen(head);
    memcpy(buf, head, hl);
    const float v[9] = {1, 2, 3, 4, 5, 6, -7, 8.5f, 9};
    for (int i = 0; i < 9; i++) {
        uint32_t b;
        memcpy(&b, &v[i], 4);
        for (int k = 0; k < 4; k++) buf[hl + 4 * i + k] = (unsigned char)(b >> (24 - 8 * k));
    }
    const unsigned char face[] = {3, 0, 2, 0, 1, 0, 0};
    memcpy(buf + hl + 36, face, sizeof face);
    write_bytes(be, buf, hl + 36 + sizeof face);
    CHECK_OK(lq_ply_read(be, &m));
    CHECK(m.nverts == 3 && m.ntris == 1);
    if (m.nverts == 3 && m.ntris == 1) {
        CHECK(m.columns[0][2] == -7.0f && m.columns[1][2] == 8.5f && m.columns[2][1] == 6.0f);
        CHECK(m.tris[0] == 2 && m.tris[1] == 1 && m.tris[2] == 0);
    }
    lq_ply_free(&m);
    remove(be);
    remove(path);
}

static void test_ply_malformed(void)
{
    const char *path = tmp_path("bad.ply");
    lq_ply m;
    static const struct {
        const char *text, *what;
    } cases[] = {
        {"", "not a PLY"},
        {"PLY\n", "not a PLY"},
        {"ply\nformat binary_little_endian 1.0\nelement vertex 1\n", "no end_header"},
        {"ply\nformat binary_middle_endian 1.0\nend_header\n", ":2: unknown PLY format"},
        {"ply\nformat ascii 2.0\nend_header\n", ":2: bad format"},
        {"ply\nend_header\n", "no format"},
        {"ply\nformat ascii 1.0\nproperty float x\nend_header\n", ":3: property before"},
        {"ply\nformat ascii 1.0\nelement vertex -4\nend_header\n", ":3: bad element count"},
        {"ply\n"
         "format ascii 1.0\n"
         "element vertex 99999999999\n"
         "end_header\n",
         ":3:"},
        {"ply\n"
         "format ascii 1.0\n"
         "element vertex 1\n"
         "property quad x\n"
         "end_header\n",
         ":4: unknown property type"},
        {"ply\n"
         "format ascii 1.0\n"
         "element vertex 1\n"
         "property float x\n"
         "property float x\n"
         "end_header\n",
         ":5: property 'x' declared twice"},
        {"ply\n"
         "format ascii 1.0\n"
         "element vertex 1\n"
         "property float x\n"
         "property float y\n"
         "hello\n"
         "end_header\n",
         ":6: unexpected"},
        {"ply\n"
         "format ascii 1.0\n"
         "element vertex 1\n"
         "property float x\n"
         "property float y\n"
         "end_header\n"
         "1 2\n",
         "lacks x, y or z"},
        {"ply\n"
         "format ascii 1.0\n"
         "element face 0\n"
         "property list uchar int vertex_indices\n"
         "end_header\n",
         "no vertex element"},
        {"ply\n"
         "format ascii 1.0\n"
         "element vertex 1\n"
         "property float x\n"
         "property float y\n"
         "property float z\n"
         "element face 1\n"
         "property float area\n"
         "end_header\n"
         "0 0 0\n"
         "1\n",
         "no vertex_indices"},
        {"ply\n"
         "format ascii 1.0\n"
         "element vertex 2\n"
         "property float x\n"
         "property float y\n"
         "property float z\n"
         "end_header\n"
         "0 0 0\n"
         "1 1\n",
         "truncated"},
        {"ply\n"
         "format ascii 1.0\n"
         "element vertex 1\n"
         "property float x\n"
         "property float y\n"
         "property float z\n"
         "end_header\n"
         "0 zero 0\n",
         ":8: bad PLY value 'zero'"},
        {"ply\n"
         "format ascii 1.0\n"
         "element vertex 3\n"
         "property float x\n"
         "property float y\n"
         "property float z\n"
         "element face 1\n"
         "property list uchar int vertex_indices\n"
         "end_header\n"
         "0 0 0\n"
         "1 0 0\n"
         "0 1 0\n"
         "3 0 1 3\n",
         "face 0: vertex index 3 out of range (3 vertices)"},
        {"ply\n"
         "format ascii 1.0\n"
         "element vertex 3\n"
         "property float x\n"
         "property float y\n"
         "property float z\n"
         "element face 1\n"
         "property list uchar int vertex_indices\n"
         "end_header\n"
         "0 0 0\n"
         "1 0 0\n"
         "0 1 0\n"
         "3 0 -1 2\n",
         "vertex index -1 out of range"},
        {"ply\n"
         "format ascii 1.0\n"
         "element vertex 3\n"
         "property float x\n"
         "property float y\n"
         "property float z\n"
         "element face 1\n"
         "property list uchar int vertex_indices\n"
         "end_header\n"
         "0 0 0\n"
         "1 0 0\n"
         "0 1 0\n"
         "2 0 1\n",
         "face 0 has 2 corners"},
        {"ply\n"
         "format ascii 1.0\n"
         "element vertex 3\n"
         "property float x\n"
         "property float y\n"
         "property float z\n"
         "element face 1\n"
         "property list uchar int vertex_indices\n"
         "end_header\n"
         "0 0 0\n"
         "1 0 0\n"
         "0 1 0\n"
         "300 0 1 2\n",
         "bad PLY value '300'"},
        {"ply\n"
         "format ascii 1.0\n"
         "element vertex 1\n"
         "property float x\n"
         "property float y\n"
         "property float z\n"
         "element face 1\n"
         "property list float int vertex_indices\n"
         "end_header\n"
         "0 0 0\n"
         "3 0 0 0\n",
         ":8: list types must be integers"},
        {"ply\n"
         "format binary_little_endian 1.0\n"
         "element vertex 1000000\n"
         "property float x\n"
         "property float y\n"
         "property float z\n"
         "end_header\n"
         "\1\2\3\4",
         ":3: element 'vertex' declares 1000000 items but the file is too short"},
    };
    for (size_t i = 0; i < LQ_COUNT(cases); i++) {
        write_text(path, cases[i].text);
        CHECK_REJECT(lq_ply_read(path, &m), LQ_EINPUT, path, cases[i].what);
        CHECK(m.nverts == 0 && m.names == NULL && m.tris == NULL);
    }

    /* A written mesh truncated at every length fails cleanly, except at full length. */
    const char *good = tmp_path("good.ply");
    const char *names[] = {"x", "y", "z"};
    float x[4] = {0, 1, 0, 1}, y[4] = {0}, z[4] = {0, 0, 1, 1};
    const float *cols[] = {x, y, z};
    const uint32_t tris[] = {0, 2, 1, 1, 2, 3};
    size_t n;
    char *text;
    CHECK_OK(lq_ply_write(good, 4, 3, names, cols, 2, tris));
    text = read_all(good, &n);
    for (size_t cut = 0; text && cut < n; cut++) {
        write_bytes(path, text, cut);
        lq_error_clear();
        int rc = lq_ply_read(path, &m);
        CHECK_MSG(rc == LQ_EINPUT, "cut at %zu of %zu read as %d", cut, n, rc);
        CHECK(strstr(lq_error_message(), path) != NULL);
        lq_ply_free(&m);
    }
    /* Binary face index out of range: patch the last index to 9. */
    if (text) {
        text[n - 4] = 9;
        write_bytes(path, text, n);
        CHECK_REJECT(lq_ply_read(path, &m), LQ_EINPUT, path, "face 1: vertex index 9");
    }
    free(text);
    CHECK_REJECT(lq_ply_read(tmp_path("missing.ply"), &m), LQ_EINPUT, "missing.ply", "cannot open");
    remove(good);
    remove(path);
}

/* --- VTK --------------------------------------------------------------------------- */

static void test_vtk(void)
{
    const char *path = tmp_path("field.vtk");
    const int nx = 5, ny = 4, nz = 3, nn = nx * ny * nz;
    const double origin[3] = {0.1, -1.0 / 3.0, 2.5e-7}, spacing[3] = {0.01, 0.02, 1.0 / 7.0};
    float data[60], *back = NULL;
    int dims[3];
    double o[3], s[3];
    size_t n;
    char *text;
    for (int i = 0; i < nn; i++) data[i] = (float)(i * 0.37 - 3.0);
    data[7] = -0.0f;
    data[8] = 1e-40f; /* subnormal */
    CHECK_OK(lq_vtk_write(path, "h", nx, ny, nz, origin, spacing, data));
    text = read_all(path, &n);
    CHECK(text != NULL);
    if (text) {
        CHECK(strncmp(text, "# vtk DataFile Version 3.0\n", 27) == 0);
        CHECK(strstr(text, "\nBINARY\nDATASET STRUCTURED_POINTS\nDIMENSIONS 5 4 3\n") != NULL);
        CHECK(strstr(text, "\nPOINT_DATA 60\nSCALARS h float 1\nLOOKUP_TABLE default\n"));
        /* Big-endian: data[0] = -3.0f = 0xC0400000. */
        const char *lut = strstr(text, "LOOKUP_TABLE default\n");
        const unsigned char *d0 = lut ? (const unsigned char *)lut + 21 : NULL;
        CHECK(d0 && d0[0] == 0xC0 && d0[1] == 0x40 && d0[2] == 0 && d0[3] == 0);
    }
    CHECK_OK(lq_vtk_read(path, dims, o, s, &back));
    CHECK(dims[0] == nx && dims[1] == ny && dims[2] == nz);
    for (int a = 0; a < 3; a++) {
        CHECK(o[a] == origin[a]);
        CHECK(s[a] == spacing[a]);
    }
    CHECK(back && memcmp(back, data, sizeof data) == 0);
    free(back);

    /* Malformed: truncated data at a few lengths, inconsistent counts, ASCII. */
    const char *bad = tmp_path("bad.vtk");
    for (size_t cut = 0; text && cut < n - 1; cut += (cut < 300 ? 7 : 40)) {
        write_bytes(bad, text, cut);
        lq_error_clear();
        CHECK_MSG(lq_vtk_read(bad, dims, o, s, &back) == LQ_EINPUT, "cut %zu", cut);
        CHECK(back == NULL && strstr(lq_error_message(), bad));
    }
    free(text);
    write_text(bad, "# vtk DataFile Version 3.0\n"
                    "t\n"
                    "BINARY\n"
                    "DATASET STRUCTURED_POINTS\n"
                    "DIMENSIONS 2 2 2\n"
                    "ORIGIN 0 0 0\n"
                    "SPACING 1 1 1\n"
                    "POINT_DATA 9\n"
                    "SCALARS a float 1\n"
                    "LOOKUP_TABLE default\n");
    CHECK_REJECT(lq_vtk_read(bad, dims, o, s, &back), LQ_EINPUT, bad, "does not match");
    write_text(bad, "# vtk DataFile Version 3.0\nt\nASCII\n");
    CHECK_REJECT(lq_vtk_read(bad, dims, o, s, &back), LQ_EINPUT, bad, ":3: expected BINARY");
    write_text(bad, "# vtk DataFile Version 3.0\n"
                    "t\n"
                    "BINARY\n"
                    "DATASET STRUCTURED_POINTS\n"
                    "DIMENSIONS 2 0 2\n");
    CHECK_REJECT(lq_vtk_read(bad, dims, o, s, &back), LQ_EINPUT, bad, ":5: bad DIMENSIONS");
    write_text(bad, "# vtk DataFile Version 3.0\nt\nBINARY\nDATASET POLYDATA\n");
    CHECK_REJECT(lq_vtk_read(bad, dims, o, s, &back), LQ_EINPUT, bad, ":4:");
    write_text(bad, "# vtk DataFile Version 3.0\n"
                    "t\n"
                    "BINARY\n"
                    "DATASET STRUCTURED_POINTS\n"
                    "DIMENSIONS 2 2 2\n"
                    "POINT_DATA 8\n"
                    "SCALARS a float 1\n"
                    "LOOKUP_TABLE default\n");
    CHECK_REJECT(lq_vtk_read(bad, dims, o, s, &back), LQ_EINPUT, bad, "lacks ORIGIN SPACING");
    write_text(bad, "hello\n");
    CHECK_REJECT(lq_vtk_read(bad, dims, o, s, &back), LQ_EINPUT, bad, ":1: not a legacy VTK");
    write_text(bad, "# vtk DataFile Version 3.0\n"
                    "t\n"
                    "BINARY\n"
                    "DATASET STRUCTURED_POINTS\n"
                    "DIMENSIONS 100000 100000 100000\n"
                    "ORIGIN 0 0 0\n"
                    "SPACING 1 1 1\n"
                    "POINT_DATA 1000000000000000\n"
                    "SCALARS a float 1\n"
                    "LOOKUP_TABLE default\n");
    CHECK_REJECT(lq_vtk_read(bad, dims, o, s, &back), LQ_EINPUT, bad, "truncated");
    /* 2^21 · 2^21 · (2^22 + 1) wraps to 2^42 in 64 bits. */
    write_text(bad, "# vtk DataFile Version 3.0\n"
                    "t\n"
                    "BINARY\n"
                    "DATASET STRUCTURED_POINTS\n"
                    "DIMENSIONS 2097152 2097152 4194305\n"
                    "ORIGIN 0 0 0\n"
                    "SPACING 1 1 1\n"
                    "POINT_DATA 4398046511104\n"
                    "SCALARS a float 1\n"
                    "LOOKUP_TABLE default\n");
    CHECK_REJECT(lq_vtk_read(bad, dims, o, s, &back), LQ_EINPUT, bad, "too large");
    CHECK_REJECT(lq_vtk_write(bad, "two words", 1, 1, 1, origin, spacing, data), LQ_ESIM, bad, "");
    remove(bad);
    remove(path);
}

/* --- PNG --------------------------------------------------------------------------- */

/* Writes an image with libpng directly (the readers must take what others write). */
static void png_direct(const char *path, int w, int h, int type, int depth, const uint8_t *rows,
                       size_t rowbytes, const png_color *palette, int npalette)
{
    FILE *f = fopen(path, "wb");
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    CHECK(f && png && info);
    if (setjmp(png_jmpbuf(png))) {
        CHECK(!"libpng failed writing the test image");
        png_destroy_write_struct(&png, &info);
        fclose(f);
        return;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, depth, type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (palette) png_set_PLTE(png, info, palette, npalette);
    png_write_info(png, info);
    for (int y = 0; y < h; y++) png_write_row(png, rows + (size_t)y * rowbytes);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    fclose(f);
}

static void test_png(void)
{
    const char *path = tmp_path("img.png");
    const int w = 7, h = 5;
    uint8_t rgb[7 * 5 * 3], *back = NULL;
    float *gray = NULL;
    int bw, bh;
    for (int i = 0; i < w * h * 3; i++) rgb[i] = (uint8_t)(i * 37 + 11);
    CHECK_OK(lq_png_write_rgb(path, w, h, rgb));
    CHECK_OK(lq_png_read_rgb(path, &bw, &bh, &back));
    CHECK(bw == w && bh == h && back && memcmp(back, rgb, sizeof rgb) == 0);
    free(back);
    CHECK_OK(lq_png_read_gray(path, &bw, &bh, &gray));
    if (gray) {
        /* Pixel (3, 2): row 2 from the top, Rec. 709 luma. */
        const uint8_t *p = rgb + (2 * w + 3) * 3;
        CHECK_NEAR(gray[2 * w + 3], (0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]) / 255.0, 1e-6);
    }
    free(gray);

    /* A picture of many strips (io_png.c deflates strips of rows on their own threads and
     * joins them): noise beside flat runs, an odd width; libpng reads back every byte,
     * its chunk CRCs and zlib's Adler-32 checked on the way. One row and a tall thin one
     * (fewer rows than strips, one pixel a row) too. */
    const int sizes[3][2] = {{333, 97}, {41, 1}, {1, 19}};
    for (int t = 0; t < 3; t++) {
        const int sw = sizes[t][0], sh = sizes[t][1];
        uint8_t *pic = malloc((size_t)sw * sh * 3), *rd = NULL;
        uint32_t r = 12345u + (uint32_t)t;
        for (int i = 0; i < sw * sh * 3; i++) {
            r = r * 1664525u + 1013904223u;
            pic[i] =
                (i / 3) % sw < sw / 2 ? (uint8_t)(r >> 24) : (uint8_t)(40 + (i / (3 * sw)) % 7);
        }
        CHECK_OK(lq_png_write_rgb(path, sw, sh, pic));
        CHECK_OK(lq_png_read_rgb(path, &bw, &bh, &rd));
        CHECK(bw == sw && bh == sh && rd && memcmp(rd, pic, (size_t)sw * sh * 3) == 0);
        free(rd);
        free(pic);
    }

    /* 16-bit gray heightmap written with libpng: every value back at full precision. */
    const char *hm = tmp_path("height16.png");
    const int hw = 300, hh = 220;
    uint8_t *rows = malloc((size_t)hw * hh * 2);
    for (int y = 0; y < hh; y++)
        for (int x = 0; x < hw; x++) {
            unsigned v = (unsigned)((y * hw + x) * 997u) & 0xffffu;
            rows[2 * (y * hw + x)] = (uint8_t)(v >> 8);
            rows[2 * (y * hw + x) + 1] = (uint8_t)v;
        }
    png_direct(hm, hw, hh, PNG_COLOR_TYPE_GRAY, 16, rows, (size_t)hw * 2, NULL, 0);
    CHECK_OK(lq_png_read_gray(hm, &bw, &bh, &gray));
    CHECK(bw == hw && bh == hh);
    int exact = gray != NULL;
    for (int i = 0; gray && i < hw * hh; i++) {
        unsigned v = (unsigned)rows[2 * i] << 8 | rows[2 * i + 1];
        exact &= gray[i] == (float)(v / 65535.0);
    }
    CHECK(exact);
    /* Distinct 16-bit levels stay distinct: 1/65535 apart, not 1/255. */
    if (gray) CHECK(gray[1] != gray[0] && fabsf(gray[1] - gray[0]) < 0.02f);
    free(gray);
    free(rows);
    CHECK_OK(lq_png_read_rgb(hm, &bw, &bh, &back)); /* 16 → 8 bit */
    free(back);

    /* Palette, 2-bit gray and gray+alpha. */
    const png_color pal[3] = {{0, 0, 0}, {255, 255, 255}, {255, 0, 0}};
    const uint8_t prow[3] = {0, 1, 2};
    png_direct(hm, 3, 1, PNG_COLOR_TYPE_PALETTE, 8, prow, 3, pal, 3);
    CHECK_OK(lq_png_read_gray(hm, &bw, &bh, &gray));
    if (gray && bw == 3) {
        CHECK(gray[0] == 0.0f && gray[1] == 1.0f);
        CHECK_NEAR(gray[2], 0.2126, 1e-6);
    }
    free(gray);
    const uint8_t g2[1] = {0x1b}; /* 0, 1, 2, 3 */
    png_direct(hm, 4, 1, PNG_COLOR_TYPE_GRAY, 2, g2, 1, NULL, 0);
    CHECK_OK(lq_png_read_gray(hm, &bw, &bh, &gray));
    if (gray && bw == 4) {
        CHECK(gray[0] == 0.0f && gray[3] == 1.0f);
        CHECK_NEAR(gray[1], 1.0 / 3.0, 1e-6);
    }
    free(gray);
    const uint8_t ga[4] = {51, 0, 204, 255};
    png_direct(hm, 2, 1, PNG_COLOR_TYPE_GRAY_ALPHA, 8, ga, 4, NULL, 0);
    CHECK_OK(lq_png_read_gray(hm, &bw, &bh, &gray));
    if (gray && bw == 2) CHECK(gray[0] == 0.2f && gray[1] == 0.8f);
    free(gray);
    CHECK_OK(lq_png_read_rgb(hm, &bw, &bh, &back));
    if (back && bw == 2) CHECK(back[0] == 51 && back[2] == 51 && back[5] == 204);
    free(back);

    /* Malformed: not a PNG, truncated, corrupted. */
    const char *bad = tmp_path("bad.png");
    write_text(bad, "this is not a picture\n");
    CHECK_REJECT(lq_png_read_gray(bad, &bw, &bh, &gray), LQ_EINPUT, bad, "not a PNG");
    CHECK(gray == NULL && bw == 0);
    size_t n;
    char *text = read_all(path, &n);
    for (size_t cut = 0; text && cut < n; cut += 9) {
        write_bytes(bad, text, cut);
        lq_error_clear();
        CHECK_MSG(lq_png_read_gray(bad, &bw, &bh, &gray) == LQ_EINPUT, "cut %zu", cut);
        CHECK(gray == NULL && strstr(lq_error_message(), bad));
    }
    if (text && n > 40) {
        write_bytes(bad, text, n / 2);
        CHECK_REJECT(lq_png_read_rgb(bad, &bw, &bh, &back), LQ_EINPUT, bad, "truncated");
        text[n / 2] ^= 0x55; /* inside IDAT: CRC or zlib error */
        write_bytes(bad, text, n);
        CHECK_REJECT(lq_png_read_rgb(bad, &bw, &bh, &back), LQ_EINPUT, bad, "bad PNG");
        CHECK(back == NULL);
    }
    free(text);
    CHECK_REJECT(lq_png_read_gray(tmp_path("none.png"), &bw, &bh, &gray), LQ_EINPUT, "none.png",
                 "cannot open");
    CHECK_REJECT(lq_png_write_rgb(tmp_path("nodir/x.png"), 2, 2, rgb), LQ_ESIM, "nodir/x.png", "");
    remove(bad);
    remove(hm);
    remove(path);
}

/* --- jsonl ------------------------------------------------------------------------- */

static void test_jsonl(void)
{
    const char *path = tmp_path("stats.jsonl");
    lq_jsonl j;
    size_t n;
    char *text;
    CHECK_OK(lq_jsonl_open(&j, path));
    lq_jsonl_begin(&j);
    lq_jsonl_int(&j, "frame", 3);
    lq_jsonl_num(&j, "time", 0.1);
    lq_jsonl_num(&j, "third", 1.0 / 3.0);
    lq_jsonl_num(&j, "big", -1.5e300);
    lq_jsonl_num(&j, "nan", NAN);
    lq_jsonl_num(&j, "inf", -INFINITY);
    lq_jsonl_null(&j, "none");
    lq_jsonl_str(&j, "s", "a\"b\\c\nd\te\x01");
    CHECK_OK(lq_jsonl_end(&j));
    /* The line is on disk before close (flushed). */
    text = read_all(path, &n);
    const char *want1 = "{\"frame\":3,\"time\":0.1,\"third\":0.3333333333333333,\"big\":-1.5e+300,"
                        "\"nan\":null,\"inf\":null,\"none\":null,\"s\":\"a\\\"b\\\\c\\n"
                        "d\\te\\u0001\"}\n";
    CHECK_MSG(text && strcmp(text, want1) == 0, "got %s", text ? text : "(null)");
    free(text);
    CHECK(strtod("0.3333333333333333", NULL) == 1.0 / 3.0);

    lq_jsonl_begin(&j);
    lq_jsonl_int(&j, "frame", 4);
    lq_jsonl_num(&j, "x", 2.0);
    CHECK_OK(lq_jsonl_end(&j));
    /* An overlong line is dropped whole, with an error; the next line is fine. */
    char big[5000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    lq_jsonl_begin(&j);
    lq_jsonl_str(&j, "long", big);
    lq_error_clear();
    CHECK(lq_jsonl_end(&j) == LQ_ESIM);
    lq_jsonl_begin(&j);
    lq_jsonl_int(&j, "frame", 5);
    CHECK_OK(lq_jsonl_end(&j));
    lq_jsonl_close(&j);
    text = read_all(path, &n);
    CHECK_MSG(text && strncmp(text, want1, strlen(want1)) == 0 &&
                  strcmp(text + strlen(want1), "{\"frame\":4,\"x\":2}\n{\"frame\":5}\n") == 0,
              "got %s", text ? text : "(null)");
    free(text);

    /* Reopening truncates. */
    CHECK_OK(lq_jsonl_open(&j, path));
    lq_jsonl_close(&j);
    text = read_all(path, &n);
    CHECK(text && n == 0);
    free(text);
    CHECK_REJECT(lq_jsonl_open(&j, tmp_path("nodir/stats.jsonl")), LQ_ESIM, "nodir", "");
    remove(path);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/lq_test_io_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_atomic();
    test_mkdirs();
    test_ply_roundtrip();
    test_ply_ascii_and_other_layouts();
    test_ply_malformed();
    test_vtk();
    test_png();
    test_jsonl();
    CHECK(rmdir(dir) == 0); /* every test removed its files */
    CHECK_DONE();
}
