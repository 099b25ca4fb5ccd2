/*
 * band.h — grid sourcing's band files (Rasmussen et al. 2004 §5.4): what an upstream grid
 * U hands a downstream grid D each step, and how D reads it back.
 *
 * The band is D's cells that U holds within LQ_BAND_CELLS cells of a face of D facing U
 * (core/bandgeom.h), with every face of those cells: φ at their centres and u, v, w on
 * their faces, sampled from U's cells and faces on the shared lattice (one cell size: the
 * values are copies). One file per grid pair per step, `DIR/UP-DOWN/NNNNNNNN.band` (the
 * step U completed, 0 its initial state), written whole (a temporary renamed into place),
 * little-endian:
 *
 *   "LQBAND\0\1"  u32 version (1)  u32 header bytes  u64 scene hash (the scene text and its
 *   --set overrides)  char up[32]  char down[32]  i64 step  f64 t (s)  i32 counts: cells,
 *   u, v, w faces  i32 nu[3], nd[3], off[3]  then the floats: φ per cell, u, v, w per face
 *   in the band's order (D's linear index order).
 *
 * When U's run ends it writes `DIR/UP.done` (its last step and time). A reader refuses,
 * with one line naming the file and exit 2 (LQ_EINPUT): a file of another scene or grid
 * pair or band, a truncated one, a step missing when a later one exists or U is done,
 * and a time past U's last. Files of a finished U stay valid: a grid may be (re)run
 * from them later without U.
 */
#ifndef LQ_IO_BAND_H
#define LQ_IO_BAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LQ_BAND_VERSION 1

typedef struct lq_band_geom {
    int nu[3], nd[3], off[3]; /* U's and D's cells, D's cell 0 in U's cells */
    int n[4];                 /* the band's cells, u, v, w faces */
    int total;                /* their sum: floats per band */
    int *dst[4];              /* their linear indices in D's fields */
    int *src[4];              /* and in U's */
} lq_band_geom;

/* The band of D (nd cells) in U (nu cells), D's cell 0 at U's cell off. LQ_ESIM when out
 * of memory. An empty band is no error here (the scene's checks refuse it). */
int lq_band_geom_make(lq_band_geom *g, const int nu[3], const int nd[3], const int off[3]);
void lq_band_geom_free(lq_band_geom *g);

typedef struct lq_band_id {
    uint64_t scene;
    char up[32], down[32];
} lq_band_id;

/* U's side: the band gathered from U's whole fields and written as step `step` at time t. */
int lq_band_write(const char *dir, const lq_band_id *id, const lq_band_geom *g, long step, double t,
                  const float *phi, const float *u, const float *v, const float *w, float *scratch);
/* U's run ended after `steps` steps at t: DIR/UP.done. */
int lq_band_done(const char *dir, const char *up, long steps, double t);
/* The last band file U wrote for D (scanning from step 0): its step and time. */
int lq_band_last(const char *dir, const lq_band_id *id, long *step, double *t);
/* Removes U's band files for D and U's done mark (a fresh run of U). */
void lq_band_clear(const char *dir, const lq_band_id *id);

/* D's side. */
typedef struct lq_band_reader {
    char dir[3072];
    lq_band_id id;
    lq_band_geom g;
    float *s[2]; /* the two slices that bracket the last time asked */
    double t[2];
    bool have[2];
    long next;     /* the step the next slice loads */
    double wait_s; /* seconds spent waiting, all told */
} lq_band_reader;

int lq_band_reader_open(lq_band_reader *r, const char *dir, const lq_band_id *id, const int nu[3],
                        const int nd[3], const int off[3]);
void lq_band_reader_close(lq_band_reader *r);
/* The band at time t into out (g.total floats), linear in time between the two files whose
 * times bracket t; waits (sleeping, backing off to 0.5 s, a progress line on stderr every
 * 10 s) for files U has not written yet. */
int lq_band_reader_at(lq_band_reader *r, double t, float *out);
/* One file read and checked against id and g (its floats into vals, its time and step). */
int lq_band_read_file(const char *path, const lq_band_id *id, const lq_band_geom *g, float *vals,
                      double *t, long *step);
/* vals (the band's order) into D's whole fields. */
void lq_band_scatter(const lq_band_geom *g, const float *vals, float *phi, float *u, float *v,
                     float *w);
/* 64-bit FNV-1a of n bytes, continuing from h (start: LQ_BAND_HASH0). */
#define LQ_BAND_HASH0 1469598103934665603ULL
uint64_t lq_band_hash(uint64_t h, const void *p, size_t n);

#endif
