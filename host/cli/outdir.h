/*
 * outdir.h — the output folder of a run: refused when unsafe, made, locked against a
 * second run, and cleared of what a killed run left, before anything is written in it.
 *
 * Invariants.
 * - lq_outdir_check writes nothing: an empty `--out`, one too long for the file names a
 *   run writes, the file system's root, a home folder (or one holding it) and an
 *   existing folder holding other things than a liquidcl run are refused (LQ_EINPUT).
 * - While lq_outdir_open's lock is held (DIR/liquidcl.lock, an fcntl write lock the
 *   kernel drops when the process dies, even by kill -9), no other liquidcl run writes
 *   in DIR: a second one is refused at once, naming the process that holds it.
 * - A temporary file ("NAME.tmp.PID", io.h) found under DIR by the run holding the lock
 *   belongs to a run that died before renaming it: it is removed and reported.
 */
#ifndef LQ_OUTDIR_H
#define LQ_OUTDIR_H

#include <stdbool.h>

/* Longest --out accepted: a run appends at most "/fields/NAME_NNNN.vtk.tmp.PID". */
#define LQ_OUTDIR_MAX 3840

typedef struct lq_outdir {
    int lock_fd; /* -1: not held */
    char lock_path[LQ_OUTDIR_MAX + 32];
} lq_outdir;

/* Refuses an unsafe output folder (see above) with one line beginning "--out DIR: "
 * (`flag` false: the default out/NAME, named as the folder). Writes nothing. */
int lq_outdir_check(const char *dir, bool flag);
/* Makes DIR (mkdir -p), takes its lock and removes what killed runs left (temporary
 * files), reporting them on stderr (even with --quiet: files were lost). LQ_EINPUT when
 * DIR cannot be made or another run holds it. */
int lq_outdir_open(lq_outdir *o, const char *dir, const char *scene);
/* Releases the lock and removes the lock file (a no-op when not held). */
void lq_outdir_close(lq_outdir *o);

#endif
