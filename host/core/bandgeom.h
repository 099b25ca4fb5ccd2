/*
 * bandgeom.h — grid sourcing's geometry (Rasmussen et al. 2004 §5.4), shared by the scene's
 * checks (host/scene/config.c) and the band files (host/io/band.c).
 *
 * Every grid lies on the scene's lattice: its lower corner a whole number of scene cells
 * (grid.cell) from grid.origin (off), its own cell the scene's divided by a whole number r
 * (r = 2: twice as fine), n of its own cells per axis. Faces: f = 2a is the min face of
 * axis a, 2a + 1 its max face; an axis of one cell (a 2D scene's z) has none.
 *
 * An upstream grid U stores, once per step, its shell: every cell within `shell` of its own
 * cells of each of its outflow faces, with every face of those cells (φ at the cell
 * centres, u, v, w on the faces). It drains the LQ_BAND_DRAIN cells next to each outflow
 * face (an automatic outlet), so liquid leaves as it would flow on. What U stores depends
 * only on U (and on the scene's physics and U's own upstream grids), never on which
 * downstream grids exist: a grid added later reads the same files.
 *
 * A downstream grid D's band is its cells within LQ_BAND_CELLS of its own cells of each face
 * of D that faces U (U holds D's cells next to that face and reaches past it) whose box U
 * holds. D samples every band value from U's shell: trilinearly, φ on U's cell centres and
 * each velocity component on its own face lattice (clamped to U's box across the other
 * axes); when both grids have one cell size and a whole number of cells apart the weights
 * are 1 and 0, so the values are copies. Every node a band value needs must be in U's shell
 * and outside its drain (lq_bandgeom_check says which band fails).
 */
#ifndef LQ_CORE_BANDGEOM_H
#define LQ_CORE_BANDGEOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LQ_BAND_CELLS      3  /* the band's depth (§5.4: "three grid cell deep bands") */
#define LQ_BAND_DRAIN      2  /* cells an upstream grid drains at each outflow face */
#define LQ_BAND_SHELL      10 /* the shell's default depth, in the upstream grid's cells */
#define LQ_BAND_REFINE_MAX 8

typedef struct lq_bandgeom_grid {
    int n[3];    /* its cells */
    int off[3];  /* its lower corner, in scene cells from grid.origin */
    int r;       /* its cell is the scene's / r */
    int outflow; /* bit f: face f is an outflow face (drained, its shell stored) */
    int shell;   /* the shell's depth in its cells */
} lq_bandgeom_grid;

/* The lattice of quantity q (0: cells, 1..3: faces normal to axis q - 1) of a grid of n
 * cells: ln points per axis. */
static inline void lq_bandgeom_lattice(const int n[3], int q, int ln[3])
{
    for (int a = 0; a < 3; a++) ln[a] = n[a] + (q - 1 == a);
}

/* How many of D's cells deep U holds D across D's face f when it faces U (else 0). */
int lq_bandgeom_depth(const lq_bandgeom_grid *u, const lq_bandgeom_grid *d, int f);

/* Whether D's cell c is in the band D takes from U. */
bool lq_bandgeom_cell(const lq_bandgeom_grid *u, const lq_bandgeom_grid *d, const int c[3]);

/* Whether node c of U's lattice q is in U's shell (and outside its drain: `stored` false;
 * every node of the shell is stored, `stored` true). */
bool lq_bandgeom_shell(const lq_bandgeom_grid *u, int q, const int c[3], bool stored);

/* The nodes of U's lattice q (at most 8, their weights > 0, summing to 1) that D's node c of
 * lattice q is sampled from. */
int lq_bandgeom_stencil(const lq_bandgeom_grid *u, const lq_bandgeom_grid *d, int q, const int c[3],
                        int node[8][3], float w[8]);

/* Whether every node D's band from U needs is in U's shell outside its drain: 0, or the
 * face of D (1 + f) whose band reaches out of U's shell or into its drain (*deep: how many
 * of U's cells deep from U's outflow face the band then needs, *drain: whether it is the
 * drain it reaches). */
int lq_bandgeom_check(const lq_bandgeom_grid *u, const lq_bandgeom_grid *d, int *deep, bool *drain);

/* 64-bit FNV-1a of n bytes, continuing from h (start: LQ_BANDGEOM_HASH0). */
#define LQ_BANDGEOM_HASH0 1469598103934665603ULL
uint64_t lq_bandgeom_hash(uint64_t h, const void *p, size_t n);

#endif
