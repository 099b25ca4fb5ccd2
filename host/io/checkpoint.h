/*
 * checkpoint.h — `DIR/checkpoint.lqc`: everything a solver needs to continue a run bit
 * for bit, written whole or not at all (io.h's atomic files) every output.checkpoint
 * frames and when a run is interrupted; `liquidcl run --resume` reads it.
 *
 * Layout (little-endian): "LQCKPT01", the solver's name (16 bytes, zero padded), the
 * frame (int32), the run hash (uint64: the scene file's bytes and the --set flags, so
 * a checkpoint is never applied to a different scene), the solver's own payload,
 * "END!".
 */
#ifndef LQ_CHECKPOINT_H
#define LQ_CHECKPOINT_H

#include <stdint.h>

#include "core/solver_api.h"

/* FNV-1a of the scene file's bytes and each --set flag; LQ_EINPUT if unreadable. */
int lq_checkpoint_hash(const char *scene, int nsets, const char *const *sets, uint64_t *hash);
int lq_checkpoint_write(const char *path, const lq_solver_vt *vt, void *state, int frame,
                        uint64_t hash);
/* Restores the state and tells the frame it belongs to. A missing, foreign or
 * damaged file is LQ_EINPUT with the reason. */
int lq_checkpoint_read(const char *path, const lq_solver_vt *vt, void *state, uint64_t hash,
                       int *frame);

/* Helpers for the solvers' payloads: LQ_OK, or LQ_ESIM (write) / LQ_EINPUT (read,
 * short file) with the error recorded. */
int lq_checkpoint_put(FILE *f, const void *p, size_t bytes);
int lq_checkpoint_get(FILE *f, void *p, size_t bytes);
/* n whole fields through a host copy: written (save) or read back and uploaded. */
int lq_checkpoint_fields(FILE *f, lq_field *const *fs, int n, bool save);

#endif
