/*
 * input.h — opening the files a scene names (heightmaps, masks, meshes, paths), and the
 * list of them that a checkpoint records.
 *
 * Invariants.
 * - lq_input_open never blocks: a FIFO, device, socket or folder is refused (LQ_EINPUT,
 *   the path named) without being read; only regular files are opened.
 * - Every file it opened is on the list (lq_input_count, lq_input_path) in the order
 *   first opened, once each, until lq_input_forget: a run's assets, whose sizes and
 *   hashes its checkpoints carry (io/checkpoint.h).
 */
#ifndef LQ_INPUT_H
#define LQ_INPUT_H

#include <stdio.h>

/* Opens PATH for reading ("rb"): LQ_OK with *f, or LQ_EINPUT recording
 * "PATH: cannot open: REASON" (REASON "a FIFO, not a regular file" and the like, or
 * strerror's), REASON also copied to `why` when not NULL. lq_input_open_asset also puts
 * PATH on the list. */
int lq_input_open(const char *path, FILE **f, char *why, size_t cap);
int lq_input_open_asset(const char *path, FILE **f);
int lq_input_count(void);
const char *lq_input_path(int i);
void lq_input_forget(void);

#endif
