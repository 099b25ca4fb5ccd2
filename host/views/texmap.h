/*
 * texmap.h — the rest coordinate of the texture particles (Rasmussen et al. 2004 §6;
 * host/ops/pls/texparticles.h) at any point of the liquid's surface, for the mesh's
 * per-vertex attributes and the preview's texture: "the initial positions of the closest
 * 64 particles are interpolated to determine which coordinate to perform the texture
 * lookup on".
 *
 * Input: n particles as columns x y z rest_x rest_y rest_z (world, m), binned once per
 * frame (lq_texmap_build) in cubes of edge `bin` over a box (the domain); positions
 * outside it count in the nearest bin.
 *
 * Nearest: the k + 1 nearest particles of q within `reach` (run.c: 4 cells) by a search
 * over rings of bins around q's bin (Chebyshev distance r = 0, 1, ...): after each ring
 * the k + 1 nearest candidates are selected (quickselect) and the rest dropped, and the
 * search stops once the farthest of them is no farther than the nearest face of the
 * searched block with bins beyond it (everything unseen lies beyond). Ties are broken by
 * the particle's binned index, so the set is deterministic. The reach keeps lookups far
 * from every particle cheap: the liquid's faces on the domain's walls and floor (the mesh
 * is closed there) are many cells from the particles on the free surface, and without a
 * reach each such vertex searched most of the grid (2300 candidates a lookup on
 * scenes/pls_textured_dam_break.yaml, half of its run's time).
 *
 * Interpolation: a weighted linear fit (first-order moving least squares) of the rest
 * coordinate over the k nearest. Weights w_i = (1 − d_i² / R²)³ with R the distance of
 * the (k + 1)-th nearest (1.5 times the farthest when there are only k or fewer), so a
 * particle's weight falls to 0 as it leaves the k nearest and the result is continuous
 * as the set changes (an inverse-distance weight would jump). With x̄, r̄ the weighted
 * means of position and rest and C, D the weighted covariances of position with itself
 * and of rest with position, rest(q) = r̄ + D (C + λI)⁻¹ (q − x̄), λ = 0.01 tr C (the
 * particles lie on a surface: C has no extent along its normal, and λ keeps the fit from
 * amplifying noise along it: it bounds the fit's gain there by 1/(2 √0.01) = 5 times the
 * rest coordinate's spread over the particles' extent), and |q − x̄| limited to R. An
 * affine rest field (a rigid translation or rotation, a uniform stretch) is reproduced
 * but for what the λ term leaves out: 1 % of the step along the surface, and along the
 * normal the offset a curved surface puts between q and the particles' plane (on a
 * sphere of radius 6 h with 16 particles per h², 0.02-0.03 h: tests/views/
 * test_texmap.c). Where the particles thin out (a new sheet) the fit extrapolates their
 * local gradient at most R. With no particle within reach, rest(q) = q (the texture is
 * then fixed in space there).
 *
 * Texture coordinate (s, t) and colour of a rest coordinate: the style (pls.texture):
 * s, t the rest coordinate along the plane's two axes, each 0 to 1 across the domain box;
 * the colour a 3D checker of `checker`-metre cells in rest space (orange and cream; its
 * lattice offset by 0.37 of a cell, so a flat surface at a round height does not lie on a
 * cell boundary where the colour would flip from pixel to pixel), or
 * the image at (s, t) (bilinear, repeated, t = 1 the top row).
 */
#ifndef LQ_TEXMAP_H
#define LQ_TEXMAP_H

#include <stdint.h>

#include "scene/config.h"

#define LQ_TEXMAP_MAX_K 256

typedef struct lq_texmap {
    int n, k;
    double reach; /* m: particles farther than this from a lookup are not used */
    float *p;     /* 6 floats per particle (x y z rest), in bin order */
    int *start;   /* bins + 1: bin b's particles are p[start[b] .. start[b + 1]) */
    int nb[3];
    double lo[3], bin;
} lq_texmap;

/* Bins n particles (cols: x y z rest_x rest_y rest_z, world m) in cubes of edge bin over
 * [lo, hi]; k neighbours per lookup (1 .. LQ_TEXMAP_MAX_K), none farther than reach (m;
 * INFINITY: any). LQ_OK or LQ_ESIM. Free with lq_texmap_free (safe on a zeroed struct,
 * and twice). */
int lq_texmap_build(lq_texmap *t, int n, const float *const cols[6], const double lo[3],
                    const double hi[3], double bin, int k, double reach);
void lq_texmap_free(lq_texmap *t);
/* The m nearest particles of q within reach (m ≤ LQ_TEXMAP_MAX_K + 1), nearest first:
 * their binned indices (t->p + 6 idx) and squared distances; returns how many. */
int lq_texmap_nearest(const lq_texmap *t, const double q[3], int m, int *idx, double *d2);
/* The rest coordinate at q (the header's interpolation); returns the particles used. */
int lq_texmap_rest(const lq_texmap *t, const double q[3], double rest[3]);

typedef struct lq_texmap_style {
    double lo[3], hi[3]; /* m, the domain box s, t span */
    int sa, ta;          /* the rest axes of s and t */
    double checker;      /* m */
    double a[3], b[3];   /* linear RGB of the checker's two colours */
    int iw, ih;          /* the image, when there is one */
    uint8_t *image;      /* RGB rows, row 0 the top; NULL: the checker */
} lq_texmap_style;

/* The style of cfg->pls.texture over the domain box [lo, hi] (the image read: LQ_EINPUT
 * when it cannot be). Free with lq_texmap_style_free. */
int lq_texmap_style_init(lq_texmap_style *s, const lq_config *cfg, const double lo[3],
                         const double hi[3]);
void lq_texmap_style_free(lq_texmap_style *s);
void lq_texmap_st(const lq_texmap_style *s, const double rest[3], double st[2]);
/* The surface colour (linear RGB) the style gives rest. */
void lq_texmap_albedo(const lq_texmap_style *s, const double rest[3], double rgb[3]);

/* The liquid surface as mcubes.h extracts it (phi < 0 inside), with per-vertex x y z
 * nx ny nz, the rest coordinate rest_x rest_y rest_z (m) and s t, as a binary PLY. */
int lq_texmap_write_mesh(const char *path, int nx, int ny, int nz, const double origin[3],
                         const double spacing[3], const float *phi, const lq_texmap *t,
                         const lq_texmap_style *s);

#endif
