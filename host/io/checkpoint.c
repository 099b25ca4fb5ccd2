/*
 * checkpoint.c — checkpoint files (see checkpoint.h).
 */
#include "io/checkpoint.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/common.h"
#include "io/io.h"

static const char lq_checkpoint_magic[8] = {'L', 'Q', 'C', 'K', 'P', 'T', '0', '1'};

static uint64_t lq_checkpoint_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        h ^= c[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

int lq_checkpoint_hash(const char *scene, int nsets, const char *const *sets, uint64_t *hash)
{
    uint64_t h = 0xcbf29ce484222325ull;
    FILE *f = fopen(scene, "rb");
    if (!f) return lq_error(LQ_EINPUT, "%s: %s", scene, strerror(errno));
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) h = lq_checkpoint_fnv(h, buf, n);
    fclose(f);
    for (int i = 0; i < nsets; i++) h = lq_checkpoint_fnv(h, sets[i], strlen(sets[i]) + 1);
    *hash = h;
    return LQ_OK;
}

int lq_checkpoint_put(FILE *f, const void *p, size_t bytes)
{
    if (fwrite(p, 1, bytes, f) != bytes)
        return lq_error(LQ_ESIM, "cannot write the checkpoint: %s", strerror(errno));
    return LQ_OK;
}

int lq_checkpoint_get(FILE *f, void *p, size_t bytes)
{
    if (fread(p, 1, bytes, f) != bytes)
        return lq_error(LQ_EINPUT, "the checkpoint is truncated or damaged");
    return LQ_OK;
}

int lq_checkpoint_fields(FILE *f, lq_field *const *fs, int n, bool save)
{
    int rc = LQ_OK;
    for (int i = 0; i < n && !rc; i++) {
        size_t bytes = lq_field_bytes(fs[i]);
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

int lq_checkpoint_write(const char *path, const lq_solver_vt *vt, void *state, int frame,
                        uint64_t hash)
{
    lq_file w;
    char name[16] = {0};
    int32_t fr = frame;
    snprintf(name, sizeof name, "%s", vt->name);
    int rc = lq_file_open(&w, path);
    if (rc) return rc;
    rc = lq_checkpoint_put(w.f, lq_checkpoint_magic, sizeof lq_checkpoint_magic);
    if (!rc) rc = lq_checkpoint_put(w.f, name, sizeof name);
    if (!rc) rc = lq_checkpoint_put(w.f, &fr, sizeof fr);
    if (!rc) rc = lq_checkpoint_put(w.f, &hash, sizeof hash);
    if (!rc) rc = vt->save(state, w.f);
    if (!rc) rc = lq_checkpoint_put(w.f, "END!", 4);
    if (rc) {
        lq_file_abort(&w);
        return rc;
    }
    return lq_file_commit(&w);
}

int lq_checkpoint_read(const char *path, const lq_solver_vt *vt, void *state, uint64_t hash,
                       int *frame)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return lq_error(LQ_EINPUT, "--resume: no checkpoint to resume from (%s: %s)", path,
                        strerror(errno));
    char magic[8], name[16], end[4];
    int32_t fr = 0;
    uint64_t h = 0;
    int rc = lq_checkpoint_get(f, magic, sizeof magic);
    if (!rc) rc = lq_checkpoint_get(f, name, sizeof name);
    if (!rc) rc = lq_checkpoint_get(f, &fr, sizeof fr);
    if (!rc) rc = lq_checkpoint_get(f, &h, sizeof h);
    if (!rc && memcmp(magic, lq_checkpoint_magic, sizeof magic) != 0)
        rc = lq_error(LQ_EINPUT, "%s: not a liquidcl checkpoint", path);
    name[sizeof name - 1] = '\0';
    if (!rc && strcmp(name, vt->name) != 0)
        rc = lq_error(LQ_EINPUT, "%s: written by solver '%s', this scene's solver is '%s'", path,
                      name, vt->name);
    if (!rc && h != hash)
        rc = lq_error(LQ_EINPUT,
                      "%s: written for another scene or other --set flags; run without "
                      "--resume to start again",
                      path);
    if (!rc) rc = vt->load(state, f);
    if (!rc) rc = lq_checkpoint_get(f, end, sizeof end);
    if (!rc && memcmp(end, "END!", 4) != 0)
        rc = lq_error(LQ_EINPUT, "%s: the checkpoint is damaged", path);
    fclose(f);
    if (rc && strncmp(lq_error_message(), path, strlen(path)) != 0 &&
        strncmp(lq_error_message(), "--resume", 8) != 0)
        return lq_error_replace(rc, "%s: %s", path, lq_error_message());
    if (rc) return rc;
    *frame = fr;
    return LQ_OK;
}
