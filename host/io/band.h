/*
 * band.h — grid sourcing's band files (Rasmussen et al. 2004 §5.4): what an upstream grid
 * U stores each step, and how a downstream grid D reads its band from it.
 *
 * U stores its shell (core/bandgeom.h): every cell within `shell` of its cells of each of
 * its outflow faces, φ at their centres and u, v, w on their faces, once per step, for any
 * downstream grid, named now or added later. D resamples its band from U's shell
 * (trilinear; copies on one lattice). One file per step, `DIR/UP/NNNNNNNN.band` (the step U
 * completed, 0 its initial state), written whole (a temporary renamed into place),
 * little-endian:
 *
 *   "LQBAND\0\2"  u32 version (2)  u32 header bytes  u64 U's identity (the scene's physics,
 *   U's own grid block and its upstream grids' identities: lq_config_gridspec.ident)
 *   char up[32]  i64 step  f64 t (s)  i32 counts: cells, u, v, w faces  i32 n[3], off[3],
 *   r, outflow, shell  then the floats: φ per shell cell, u, v, w per face, in U's linear
 *   index order.
 *
 * When U's run ends it writes `DIR/UP.done` (its last step and time). A reader refuses,
 * with one line naming the file and exit 2 (LQ_EINPUT): a file of another scene or another
 * U (its identity differs), a truncated one, a step missing when a later one exists or U is
 * done, and a time past U's last. Files of a finished U stay valid: a downstream grid may
 * be (re)run, or added, later without rerunning U.
 */
#ifndef LQ_IO_BAND_H
#define LQ_IO_BAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bandgeom.h"

#define LQ_BAND_VERSION 2

/* U's shell: the nodes it stores, by lattice (0 cells, 1..3 u, v, w faces). */
typedef struct lq_band_shell {
    lq_bandgeom_grid u;
    int n[4];    /* nodes per lattice */
    int total;   /* their sum: floats per file */
    int *src[4]; /* their linear indices in U's fields, ascending */
} lq_band_shell;

/* LQ_ESIM when out of memory; a grid without outflow faces has an empty shell. */
int lq_band_shell_make(lq_band_shell *sh, const lq_bandgeom_grid *u);
void lq_band_shell_free(lq_band_shell *sh);

/* D's band from U: its nodes in D's fields and, per node, 8 (shell index, weight) pairs
 * (weight 0: unused). */
typedef struct lq_band_geom {
    int n[4];    /* band cells, u, v, w faces */
    int total;   /* their sum */
    int *dst[4]; /* their linear indices in D's fields */
    int *idx;    /* total × 8: indices into the shell's floats */
    float *w;    /* total × 8 */
} lq_band_geom;

/* LQ_EINPUT naming the grids when a node the band needs is not in U's shell (the scene's
 * checks refuse that first); LQ_ESIM when out of memory. */
int lq_band_geom_make(lq_band_geom *g, const lq_band_shell *sh, const lq_bandgeom_grid *d,
                      const char *up, const char *down);
void lq_band_geom_free(lq_band_geom *g);

typedef struct lq_band_id {
    uint64_t ident; /* U's identity */
    char up[32];
} lq_band_id;

/* U's side: its shell gathered from its whole fields, written as step `step` at time t
 * (scratch: sh->total floats). */
int lq_band_write(const char *dir, const lq_band_id *id, const lq_band_shell *sh, long step,
                  double t, const float *phi, const float *u, const float *v, const float *w,
                  float *scratch);
/* U's run ended after `steps` steps at t (-1: it stored no shell): DIR/UP.done, with U's
 * identity. */
int lq_band_done(const char *dir, const lq_band_id *id, long steps, double t);
/* The last band file U wrote (scanning from step 0): its step and time. */
int lq_band_last(const char *dir, const char *up, long *step, double *t);
/* Removes U's done mark only (a run of every grid resumed: before any grid starts). */
void lq_band_undone(const char *dir, const char *up);
/* Removes U's band files and its done mark (a fresh run of U). */
void lq_band_clear(const char *dir, const char *up);
/* U resumed from its checkpoint of step `step`: its done mark and its files after `step`
 * removed (the last first: a reader never sees a gap below a file that exists); the files
 * up to `step` stay, so a downstream grid reading them goes on without a gap. */
void lq_band_clear_after(const char *dir, const char *up, long step);

/* D's side. */
typedef struct lq_band_reader {
    char dir[3072];
    lq_band_id id;
    char down[32];
    lq_band_shell sh;
    lq_band_geom g;
    float *shell; /* one file's floats */
    float *s[2];  /* the band at the two times that bracket the last time asked */
    double t[2];
    bool have[2];
    long next;     /* the step the next slice loads */
    double wait_s; /* seconds spent waiting, all told */
} lq_band_reader;

int lq_band_reader_open(lq_band_reader *r, const char *dir, const lq_band_id *id,
                        const lq_bandgeom_grid *u, const lq_bandgeom_grid *d, const char *down);
void lq_band_reader_close(lq_band_reader *r);
/* D resumed at its time t: the next slice read is the last stored step whose time is
 * before t (0 when none is stored yet), so the two slices that bracket D's next time are
 * the ones an uninterrupted reader holds there (the header of each earlier file read). */
void lq_band_reader_seek(lq_band_reader *r, double t);
/* The band at time t into out (g.total floats), linear in time between the two files whose
 * times bracket t; waits (sleeping, backing off to 0.5 s, a progress line on stderr every
 * 10 s) for files U has not written yet. */
int lq_band_reader_at(lq_band_reader *r, double t, float *out);
/* One file read and checked against id and the shell (its floats into vals, its time and
 * step). */
int lq_band_read_file(const char *path, const lq_band_id *id, const lq_band_shell *sh, float *vals,
                      double *t, long *step);
/* vals (the band's order) into D's whole fields. */
void lq_band_scatter(const lq_band_geom *g, const float *vals, float *phi, float *u, float *v,
                     float *w);

#endif
