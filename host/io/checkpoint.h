/*
 * checkpoint.h — `DIR/checkpoint.lqc`: everything a solver needs to continue a run bit
 * for bit, written whole or not at all (io.h's atomic files) every output.checkpoint
 * frames and when a run is interrupted; `liquidcl run --resume` reads it.
 *
 * Layout (format 2, little-endian; docs/RELIABILITY.md):
 *
 *   offset  size  what
 *   0       8     "LQCKPT02"
 *   8       4     format version (3)
 *   12      4     header bytes H (everything before the payload)
 *   16      16    the solver's name, zero padded
 *   32      4     the frame the state is at the end of (int32, 1 .. LQ_CHECKPOINT_FRAME_MAX)
 *   36      4     assets A
 *   40      8     the scene hash (FNV-1a 64 of the scene text below)
 *   48      8     payload bytes P
 *   56      4     CRC-32 (zlib) of the payload
 *   60      4     scene text bytes T
 *   64      T     the scene after --set as text (scene.h: lq_scene_text_of)
 *   ...           A assets: path bytes (uint32), path, size (uint64), FNV-1a 64 of the bytes
 *   H − 4   4     CRC-32 of bytes 0 .. H − 4
 *   H       P     the solver's payload (its save/load)
 *   H + P   4     "END!"
 *
 * Reading trusts nothing before it is checked: the file is a regular file; sizes fit
 * the file and their limits before anything is allocated; the header's CRC holds; the
 * run is the same (solver, scene text, each asset's size and hash: a difference is named
 * in the one-line message); the frame is in range; the payload's CRC holds over every
 * byte; only then does the solver load it, through lq_checkpoint_get and
 * lq_checkpoint_count, which refuse to read past the payload; and the solver must end
 * exactly at its end. Every refusal is LQ_EINPUT, "PATH: reason".
 */
#ifndef LQ_CHECKPOINT_H
#define LQ_CHECKPOINT_H

#include <stdint.h>

#include "core/solver_api.h"

#define LQ_CHECKPOINT_VERSION   3
#define LQ_CHECKPOINT_FRAME_MAX 1000000000 /* --frames' own limit */

/* What a checkpoint must match: the run's scene text and its assets (the files the scene
 * had read, core/input.h), with their sizes and hashes. */
typedef struct lq_checkpoint_asset {
    char *path;
    uint64_t size, hash;
} lq_checkpoint_asset;

typedef struct lq_checkpoint_id {
    char *scene_text; /* malloc'd */
    size_t scene_len;
    uint64_t scene_hash;
    int nassets;
    lq_checkpoint_asset *assets;
} lq_checkpoint_id;

/* Takes ownership of scene_text (malloc'd); hashes each of the n files. LQ_EINPUT when
 * one cannot be read. */
int lq_checkpoint_id_make(lq_checkpoint_id *id, char *scene_text, size_t len, int n,
                          const char *const *paths);
void lq_checkpoint_id_free(lq_checkpoint_id *id);

int lq_checkpoint_write(const char *path, const lq_solver_vt *vt, void *state, int frame,
                        const lq_checkpoint_id *id);
/* Checks the file as the header says, restores the state and tells its frame. */
int lq_checkpoint_read(const char *path, const lq_solver_vt *vt, void *state,
                       const lq_checkpoint_id *id, int *frame);

/* Helpers for the solvers' payloads: LQ_OK, or LQ_ESIM (write) / LQ_EINPUT (read past
 * the payload's end) with the error recorded. */
int lq_checkpoint_put(FILE *f, const void *p, size_t bytes);
int lq_checkpoint_get(FILE *f, void *p, size_t bytes);
/* A count read from a checkpoint, checked before use: lo <= n <= hi, and n items of
 * `item` bytes each fit in what is left of the payload. LQ_EINPUT naming `what`. */
int lq_checkpoint_count(FILE *f, const char *what, int64_t n, int64_t lo, int64_t hi, size_t item);
/* n whole fields through a host copy: written (save) or read back and uploaded. */
int lq_checkpoint_fields(FILE *f, lq_field *const *fs, int n, bool save);

/* CRC-32 (zlib's) of n bytes, continuing crc (0 to start): what the checkpoint's
 * checksums are (for tests and tools that repair or forge them). */
uint32_t lq_checkpoint_crc(uint32_t crc, const void *p, size_t n);

#endif
