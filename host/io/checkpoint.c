/*
 * checkpoint.c — checkpoint files (see checkpoint.h).
 *
 * Writing: the header goes first with the payload's size and CRC still zero; the solver
 * writes its payload; the payload is read back from the temporary file (it is in the
 * page cache) to take its CRC, then the header is completed in place, its own CRC last,
 * and the file renamed into place. Nothing of the payload is held in memory twice.
 *
 * Reading: checkpoint.h's order. The payload's end is the file's size less the 4-byte
 * trailer, so lq_checkpoint_get and lq_checkpoint_count bound every read by it without
 * any state of their own (fstat of the stream's file).
 */
#include "io/checkpoint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "core/common.h"
#include "core/input.h"
#include "io/io.h"

static const char lq_checkpoint_magic[8] = {'L', 'Q', 'C', 'K', 'P', 'T', '0', '2'};

#define LQ_CKPT_FIXED      64          /* bytes before the scene text */
#define LQ_CKPT_HEADER_MAX (16u << 20) /* scene text and asset table, all told */
#define LQ_CKPT_ASSETS_MAX 65536
#define LQ_CKPT_PATH_MAX   4096

uint32_t lq_checkpoint_crc(uint32_t crc, const void *p, size_t n)
{
    const unsigned char *c = p;
    uLong r = crc;
    while (n > 0) { /* zlib takes uInt lengths */
        uInt part = n > (1u << 30) ? (1u << 30) : (uInt)n;
        r = crc32(r, c, part);
        c += part;
        n -= part;
    }
    return (uint32_t)r;
}

static uint64_t lq_checkpoint_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        h ^= c[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

#define LQ_FNV_START 0xcbf29ce484222325ull

/* --- little-endian fields ------------------------------------------------------------ */

static void lq_put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static void lq_put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t lq_get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t lq_get64(const unsigned char *p)
{
    return (uint64_t)lq_get32(p) | (uint64_t)lq_get32(p + 4) << 32;
}

/* --- the run's identity ---------------------------------------------------------------- */

int lq_checkpoint_id_make(lq_checkpoint_id *id, char *scene_text, size_t len, int n,
                          const char *const *paths)
{
    memset(id, 0, sizeof *id);
    id->scene_text = scene_text;
    id->scene_len = len;
    id->scene_hash = lq_checkpoint_fnv(LQ_FNV_START, scene_text, len);
    id->assets = lq_calloc((size_t)LQ_MAX(n, 1), sizeof *id->assets);
    if (!id->assets) return LQ_ESIM;
    unsigned char *buf = lq_alloc(1 << 16);
    if (!buf) return LQ_ESIM;
    int rc = LQ_OK;
    for (int i = 0; i < n && !rc; i++) {
        lq_checkpoint_asset *a = &id->assets[i];
        FILE *f = NULL;
        a->path = strdup(paths[i]);
        a->hash = LQ_FNV_START;
        if (!a->path) rc = lq_error(LQ_ESIM, "out of host memory");
        if (!rc) rc = lq_input_open(paths[i], &f, NULL, 0);
        size_t got;
        while (!rc && (got = fread(buf, 1, 1 << 16, f)) > 0) {
            a->hash = lq_checkpoint_fnv(a->hash, buf, got);
            a->size += got;
        }
        if (f && ferror(f))
            rc = lq_error(LQ_EINPUT, "%s: cannot read: %s", paths[i], strerror(errno));
        if (f) fclose(f);
        id->nassets = i + 1;
    }
    free(buf);
    return rc;
}

void lq_checkpoint_id_free(lq_checkpoint_id *id)
{
    for (int i = 0; i < id->nassets; i++) free(id->assets[i].path);
    free(id->assets);
    free(id->scene_text);
    memset(id, 0, sizeof *id);
}

/* --- payload helpers ------------------------------------------------------------------- */

/* Bytes left before the payload's end (the trailer), or SIZE_MAX when unknown. */
static size_t lq_checkpoint_left(FILE *f)
{
    struct stat st;
    long pos = ftell(f);
    int fd = fileno(f);
    if (fd < 0 || pos < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return SIZE_MAX;
    if ((long long)st.st_size < (long long)pos + 4) return 0;
    return (size_t)(st.st_size - 4 - pos);
}

int lq_checkpoint_put(FILE *f, const void *p, size_t bytes)
{
    if (fwrite(p, 1, bytes, f) != bytes)
        return lq_error(LQ_ESIM, "cannot write the checkpoint: %s", strerror(errno));
    return LQ_OK;
}

int lq_checkpoint_get(FILE *f, void *p, size_t bytes)
{
    if (bytes > lq_checkpoint_left(f) || fread(p, 1, bytes, f) != bytes)
        return lq_error(LQ_EINPUT, "the checkpoint is truncated or damaged");
    return LQ_OK;
}

int lq_checkpoint_count(FILE *f, const char *what, int64_t n, int64_t lo, int64_t hi, size_t item)
{
    size_t left = lq_checkpoint_left(f);
    if (n < lo || n > hi)
        return lq_error(LQ_EINPUT, "the checkpoint's %s is %lld, outside %lld .. %lld", what,
                        (long long)n, (long long)lo, (long long)hi);
    if (item > 0 && (uint64_t)n > left / item)
        return lq_error(LQ_EINPUT, "the checkpoint's %s is %lld, more than the rest of it holds",
                        what, (long long)n);
    return LQ_OK;
}

int lq_checkpoint_fields(FILE *f, lq_field *const *fs, int n, bool save)
{
    int rc = LQ_OK;
    for (int i = 0; i < n && !rc; i++) {
        size_t bytes = lq_field_bytes(fs[i]);
        if (!save && bytes > lq_checkpoint_left(f))
            return lq_error(LQ_EINPUT, "the checkpoint is truncated or damaged");
        void *buf = lq_alloc(bytes);
        if (!buf) return LQ_ESIM;
        if (save) {
            rc = lq_field_download(fs[i], buf);
            if (!rc) rc = lq_checkpoint_put(f, buf, bytes);
        } else {
            rc = lq_checkpoint_get(f, buf, bytes);
            if (!rc) rc = lq_field_upload(fs[i], buf);
        }
        free(buf);
    }
    return rc;
}

/* --- writing --------------------------------------------------------------------------- */

/* The header of id for solver `name` at `frame` (payload size and CRC zero), malloc'd. */
static unsigned char *lq_checkpoint_header(const char *name, int frame, const lq_checkpoint_id *id,
                                           size_t *bytes)
{
    size_t n = LQ_CKPT_FIXED + id->scene_len + 4;
    for (int i = 0; i < id->nassets; i++) n += 4 + strlen(id->assets[i].path) + 16;
    unsigned char *h = lq_calloc(1, n);
    if (!h) return NULL;
    memcpy(h, lq_checkpoint_magic, 8);
    lq_put32(h + 8, LQ_CHECKPOINT_VERSION);
    lq_put32(h + 12, (uint32_t)n);
    snprintf((char *)h + 16, 16, "%s", name);
    lq_put32(h + 32, (uint32_t)frame);
    lq_put32(h + 36, (uint32_t)id->nassets);
    lq_put64(h + 40, id->scene_hash);
    lq_put32(h + 60, (uint32_t)id->scene_len);
    memcpy(h + LQ_CKPT_FIXED, id->scene_text, id->scene_len);
    size_t o = LQ_CKPT_FIXED + id->scene_len;
    for (int i = 0; i < id->nassets; i++) {
        size_t len = strlen(id->assets[i].path);
        lq_put32(h + o, (uint32_t)len);
        memcpy(h + o + 4, id->assets[i].path, len);
        lq_put64(h + o + 4 + len, id->assets[i].size);
        lq_put64(h + o + 12 + len, id->assets[i].hash);
        o += 4 + len + 16;
    }
    *bytes = n;
    return h;
}

/* CRC of `bytes` bytes of the file at `path` from offset `at`. */
static int lq_checkpoint_crc_file(const char *path, long at, uint64_t bytes, uint32_t *crc)
{
    FILE *f = fopen(path, "rb");
    if (!f) return lq_error(LQ_ESIM, "%s: cannot read back: %s", path, strerror(errno));
    unsigned char *buf = lq_alloc(1 << 20);
    int rc = buf ? LQ_OK : LQ_ESIM;
    uint32_t c = 0;
    if (!rc && fseek(f, at, SEEK_SET) != 0) rc = lq_error(LQ_ESIM, "%s: cannot seek", path);
    while (!rc && bytes > 0) {
        size_t want = bytes > (1u << 20) ? (1u << 20) : (size_t)bytes;
        if (fread(buf, 1, want, f) != want) {
            rc = lq_error(LQ_ESIM, "%s: cannot read back the payload", path);
            break;
        }
        c = lq_checkpoint_crc(c, buf, want);
        bytes -= want;
    }
    free(buf);
    fclose(f);
    *crc = c;
    return rc;
}

int lq_checkpoint_write(const char *path, const lq_solver_vt *vt, void *state, int frame,
                        const lq_checkpoint_id *id)
{
    lq_file w;
    size_t hb = 0;
    unsigned char *h = lq_checkpoint_header(vt->name, frame, id, &hb);
    if (!h) return LQ_ESIM;
    int rc = lq_file_open(&w, path);
    if (rc) {
        free(h);
        return rc;
    }
    rc = lq_checkpoint_put(w.f, h, hb);
    if (!rc) rc = vt->save(state, w.f);
    long end = rc ? -1 : ftell(w.f);
    if (!rc && end < (long)hb) rc = lq_error(LQ_ESIM, "%s: cannot tell the payload's size", path);
    if (!rc) rc = lq_checkpoint_put(w.f, "END!", 4);
    if (!rc && fflush(w.f) != 0)
        rc = lq_error(LQ_ESIM, "cannot write the checkpoint: %s", strerror(errno));
    uint32_t crc = 0;
    uint64_t pb = rc ? 0 : (uint64_t)(end - (long)hb);
    if (!rc) rc = lq_checkpoint_crc_file(w.tmp, (long)hb, pb, &crc);
    if (!rc) {
        lq_put64(h + 48, pb);
        lq_put32(h + 56, crc);
        lq_put32(h + hb - 4, lq_checkpoint_crc(0, h, hb - 4));
        if (fseek(w.f, 0, SEEK_SET) != 0)
            rc = lq_error(LQ_ESIM, "cannot write the checkpoint: %s", strerror(errno));
    }
    if (!rc) rc = lq_checkpoint_put(w.f, h, hb);
    free(h);
    if (rc) {
        lq_file_abort(&w);
        return rc;
    }
    return lq_file_commit(&w);
}

/* --- reading --------------------------------------------------------------------------- */

/* The value of line `key: value` of text (length len) for key, or NULL; *vlen its length. */
static const char *lq_checkpoint_line_of(const char *text, size_t len, const char *key, size_t klen,
                                         size_t *vlen)
{
    for (size_t o = 0; o < len;) {
        const char *line = text + o, *nl = memchr(line, '\n', len - o);
        size_t ll = nl ? (size_t)(nl - line) : len - o;
        if (ll > klen + 1 && memcmp(line, key, klen) == 0 && line[klen] == ':' &&
            line[klen + 1] == ' ') {
            *vlen = ll - klen - 2;
            return line + klen + 2;
        }
        o += ll + 1;
    }
    return NULL;
}

/* One line naming the first key whose value differs between the checkpoint's scene text
 * (then) and this run's (now). */
static void lq_checkpoint_scene_diff(const char *then, size_t tl, const char *now, size_t nl,
                                     char *out, size_t cap)
{
    const char *texts[2] = {now, then};
    size_t lens[2] = {nl, tl};
    for (int side = 0; side < 2; side++) {
        const char *a = texts[side], *b = texts[1 - side];
        size_t al = lens[side], bl = lens[1 - side];
        for (size_t o = 0; o < al;) {
            const char *line = a + o, *end = memchr(line, '\n', al - o);
            size_t ll = end ? (size_t)(end - line) : al - o;
            const char *colon = memchr(line, ':', ll);
            o += ll + 1;
            if (!colon) continue;
            size_t klen = (size_t)(colon - line), vl = 0, wl = ll - klen - 2;
            const char *v = lq_checkpoint_line_of(b, bl, line, klen, &vl), *w = colon + 2;
            if (v && vl == wl && memcmp(v, w, vl) == 0) continue;
            if (!v)
                snprintf(out, cap, "%.*s: %.*s is %s", (int)LQ_MIN(klen, 120), line,
                         (int)LQ_MIN(wl, 60), w,
                         side == 0 ? "set now, not in the checkpoint's scene"
                                   : "in the checkpoint's scene, not now");
            else if (side == 0)
                snprintf(out, cap, "%.*s is %.*s now, %.*s in the checkpoint",
                         (int)LQ_MIN(klen, 120), line, (int)LQ_MIN(wl, 60), w, (int)LQ_MIN(vl, 60),
                         v);
            else
                continue;
            return;
        }
    }
    snprintf(out, cap, "the scene differs");
}

/* The checks of the header (h: hb bytes) against this run; LQ_OK or LQ_EINPUT. */
static int lq_checkpoint_same_run(const char *path, const unsigned char *h, const lq_solver_vt *vt,
                                  const lq_checkpoint_id *id)
{
    char name[17], what[400];
    memcpy(name, h + 16, 16);
    name[16] = '\0';
    if (strcmp(name, vt->name) != 0)
        return lq_error(LQ_EINPUT, "%s: written by solver '%.16s', this scene's solver is '%s'",
                        path, name, vt->name);
    size_t tl = lq_get32(h + 60), o = LQ_CKPT_FIXED + tl;
    const char *then = (const char *)h + LQ_CKPT_FIXED;
    if (lq_get64(h + 40) != id->scene_hash || tl != id->scene_len ||
        memcmp(then, id->scene_text, tl) != 0) {
        lq_checkpoint_scene_diff(then, tl, id->scene_text, id->scene_len, what, sizeof what);
        return lq_error(LQ_EINPUT,
                        "%s: written for another scene or other --set flags (%s); run without "
                        "--resume to start again",
                        path, what);
    }
    int na = (int)lq_get32(h + 36);
    for (int i = 0; i < na || i < id->nassets; i++) {
        const lq_checkpoint_asset *a = i < id->nassets ? &id->assets[i] : NULL;
        size_t len = i < na ? lq_get32(h + o) : 0;
        const char *p = (const char *)h + o + 4;
        uint64_t size = i < na ? lq_get64(h + o + 4 + len) : 0;
        uint64_t hash = i < na ? lq_get64(h + o + 12 + len) : 0;
        if (i < na) o += 4 + len + 16;
        if (!a)
            return lq_error(LQ_EINPUT,
                            "%s: the checkpoint's run read %d files, this one %d (%.*s is not "
                            "read now)",
                            path, na, id->nassets, (int)LQ_MIN(len, 200), p);
        if (i >= na)
            return lq_error(LQ_EINPUT, "%s: the checkpoint's run read %d files, this one %d (%s)",
                            path, na, id->nassets, a->path);
        if (size != a->size)
            return lq_error(LQ_EINPUT,
                            "%s: %s changed since the checkpoint (%llu bytes then, %llu now); run "
                            "without --resume to start again",
                            path, a->path, (unsigned long long)size, (unsigned long long)a->size);
        if (hash != a->hash)
            return lq_error(LQ_EINPUT,
                            "%s: %s changed since the checkpoint (same size, other bytes); run "
                            "without --resume to start again",
                            path, a->path);
    }
    return LQ_OK;
}

/* The header's own sizes, checked against the file's size and the limits before use. */
static int lq_checkpoint_header_ok(const char *path, const unsigned char *h, size_t hb,
                                   uint64_t fsize)
{
    size_t tl = lq_get32(h + 60), o = LQ_CKPT_FIXED;
    uint32_t na = lq_get32(h + 36);
    if (tl > hb - LQ_CKPT_FIXED - 4 || na > LQ_CKPT_ASSETS_MAX)
        return lq_error(LQ_EINPUT, "%s: the header is damaged (sizes out of range)", path);
    o += tl;
    for (uint32_t i = 0; i < na; i++) {
        if (o + 4 > hb - 4) return lq_error(LQ_EINPUT, "%s: the header is damaged", path);
        size_t len = lq_get32(h + o);
        if (len > LQ_CKPT_PATH_MAX || o + 4 + len + 16 > hb - 4)
            return lq_error(LQ_EINPUT, "%s: the header is damaged (asset %u)", path, i + 1);
        o += 4 + len + 16;
    }
    if (o != hb - 4) return lq_error(LQ_EINPUT, "%s: the header is damaged (its length)", path);
    uint64_t pb = lq_get64(h + 48);
    if (pb != fsize - hb - 4)
        return lq_error(LQ_EINPUT,
                        "%s: the file is %llu bytes, its header says %llu (truncated or "
                        "damaged)",
                        path, (unsigned long long)fsize,
                        (unsigned long long)(pb + hb + 4 < pb ? UINT64_MAX : pb + hb + 4));
    int32_t frame = (int32_t)lq_get32(h + 32);
    if (frame < 1 || frame > LQ_CHECKPOINT_FRAME_MAX)
        return lq_error(LQ_EINPUT, "%s: the checkpoint's frame %d is out of range (1 .. %d)", path,
                        frame, LQ_CHECKPOINT_FRAME_MAX);
    return LQ_OK;
}

/* Reads and checks the header: *h (malloc'd, *hb bytes) on LQ_OK. */
static int lq_checkpoint_read_header(const char *path, FILE *f, uint64_t fsize, unsigned char **h,
                                     size_t *hb)
{
    unsigned char fixed[LQ_CKPT_FIXED];
    if (fsize < LQ_CKPT_FIXED + 8 || fread(fixed, 1, sizeof fixed, f) != sizeof fixed)
        return lq_error(LQ_EINPUT, "%s: not a liquidcl checkpoint (too short)", path);
    if (memcmp(fixed, "LQCKPT", 6) != 0)
        return lq_error(LQ_EINPUT, "%s: not a liquidcl checkpoint", path);
    if (memcmp(fixed, lq_checkpoint_magic, 8) != 0 || lq_get32(fixed + 8) != LQ_CHECKPOINT_VERSION)
        return lq_error(LQ_EINPUT,
                        "%s: written in checkpoint format %.2s; this liquidcl reads format %02d "
                        "(run without --resume to start again)",
                        path, (const char *)fixed + 6, LQ_CHECKPOINT_VERSION);
    size_t n = lq_get32(fixed + 12);
    if (n < LQ_CKPT_FIXED + 4 || n > LQ_CKPT_HEADER_MAX || n > fsize - 4)
        return lq_error(LQ_EINPUT, "%s: the header is damaged (its length is %zu)", path, n);
    unsigned char *buf = lq_alloc(n);
    if (!buf) return LQ_ESIM;
    memcpy(buf, fixed, sizeof fixed);
    if (fread(buf + sizeof fixed, 1, n - sizeof fixed, f) != n - sizeof fixed) {
        free(buf);
        return lq_error(LQ_EINPUT, "%s: the checkpoint is truncated", path);
    }
    if (lq_checkpoint_crc(0, buf, n - 4) != lq_get32(buf + n - 4)) {
        free(buf);
        return lq_error(LQ_EINPUT, "%s: the header is damaged (its checksum does not match)", path);
    }
    int rc = lq_checkpoint_header_ok(path, buf, n, fsize);
    if (rc) {
        free(buf);
        return rc;
    }
    *h = buf;
    *hb = n;
    return LQ_OK;
}

/* The payload's CRC over the file from the current position. */
static int lq_checkpoint_payload_ok(const char *path, FILE *f, uint64_t bytes, uint32_t want)
{
    unsigned char *buf = lq_alloc(1 << 20);
    if (!buf) return LQ_ESIM;
    uint32_t c = 0;
    int rc = LQ_OK;
    while (bytes > 0) {
        size_t n = bytes > (1u << 20) ? (1u << 20) : (size_t)bytes;
        if (fread(buf, 1, n, f) != n) {
            rc = lq_error(LQ_EINPUT, "%s: the checkpoint is truncated", path);
            break;
        }
        c = lq_checkpoint_crc(c, buf, n);
        bytes -= n;
    }
    free(buf);
    if (!rc && c != want)
        rc = lq_error(LQ_EINPUT,
                      "%s: the checkpoint is damaged (the payload's checksum does not "
                      "match)",
                      path);
    return rc;
}

int lq_checkpoint_read(const char *path, const lq_solver_vt *vt, void *state,
                       const lq_checkpoint_id *id, int *frame)
{
    FILE *f = NULL;
    char why[128];
    if (lq_input_open(path, &f, why, sizeof why))
        return lq_error_replace(LQ_EINPUT, "--resume: no checkpoint to resume from (%s: %s)", path,
                                why);
    struct stat st;
    unsigned char *h = NULL;
    size_t hb = 0;
    int rc = fstat(fileno(f), &st) == 0 ? LQ_OK : lq_error(LQ_EINPUT, "%s: cannot stat", path);
    if (!rc) rc = lq_checkpoint_read_header(path, f, (uint64_t)st.st_size, &h, &hb);
    if (!rc) rc = lq_checkpoint_same_run(path, h, vt, id);
    uint64_t pb = h ? lq_get64(h + 48) : 0;
    if (!rc) rc = lq_checkpoint_payload_ok(path, f, pb, lq_get32(h + 56));
    if (!rc && fseek(f, (long)hb, SEEK_SET) != 0) rc = lq_error(LQ_EINPUT, "%s: cannot seek", path);
    if (!rc) rc = vt->load(state, f);
    long at = rc ? 0 : ftell(f);
    if (!rc && (at < 0 || (uint64_t)at != hb + pb))
        rc = lq_error(LQ_EINPUT,
                      "%s: the payload does not fit this run's state (%lld of its %llu bytes "
                      "read)",
                      path, (long long)at - (long long)hb, (unsigned long long)pb);
    char end[4];
    if (!rc && (fread(end, 1, 4, f) != 4 || memcmp(end, "END!", 4) != 0))
        rc = lq_error(LQ_EINPUT, "%s: the checkpoint is damaged (no end mark)", path);
    if (!rc) *frame = (int32_t)lq_get32(h + 32);
    free(h);
    fclose(f);
    if (rc && strncmp(lq_error_message(), path, strlen(path)) != 0 &&
        strncmp(lq_error_message(), "--resume", 8) != 0)
        return lq_error_replace(rc, "%s: %s", path, lq_error_message());
    return rc;
}
