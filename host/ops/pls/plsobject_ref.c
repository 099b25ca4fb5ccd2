/*
 * ref/plsobject.c — reference twins of the moving-object operations: plain loops over the
 * per-cell and per-face functions the kernels call (kernels/pls/plsobject_cell.h). Each pass
 * writes only its own cell or face, except the φ layers, which write only cells their
 * input mask marks invalid and read only valid ones: the serial loops give the kernels'
 * results exactly.
 */
#include "ops/pls/plsobject_ref.h"

#define F(fld)  ((float *)(fld)->host)
#define CF(fld) ((const float *)(fld)->host)
#define B(fld)  ((lq_plsobject_u8 *)(fld)->host)

#define LQ_PLSOBJECT_LOOP(ax, ay, az)                                                              \
    for (int k = 0; k < (az); k++)                                                                 \
        for (int j = 0; j < (ay); j++)                                                             \
            for (int i = 0; i < (ax); i++)

void lq_plsobject_ref_update(lq_plsobject_ops *o, const lq_field *sdf_static, lq_field *sdf)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, hs = sdf_static != NULL;
    const float *st = sdf_static ? CF(sdf_static) : CF(sdf);
    LQ_PLSOBJECT_LOOP(nx, ny, nz)
    lq_plsobject_sdf_cell(F(sdf), st, hs, CF(&o->desc), CF(&o->grids), o->n, o->h, o->far, i, j, k,
                          nx, ny);
    for (int c = 0; c < 3; c++) LQ_PLSOBJECT_LOOP(nx + (c == 0), ny + (c == 1), nz + (c == 2))
    lq_plsobject_vel_face(F(&o->vel[c]), st, hs, CF(&o->desc), CF(&o->grids), o->n, o->h, o->band,
                          c, i, j, k, nx, ny, nz);
}

void lq_plsobject_ref_separate(lq_plsobject_ops *o, lq_field *phi, const lq_field *u,
                               const lq_field *v, const lq_field *w, const lq_field *sdf,
                               const lq_field *p)
{
    int nx = o->nx, ny = o->ny, nz = o->nz;
    LQ_PLSOBJECT_LOOP(nx, ny, nz)
    lq_plsobject_separate_cell(F(phi), CF(u), CF(v), CF(w), CF(&o->vel[0]), CF(&o->vel[1]),
                               CF(&o->vel[2]), CF(sdf), p ? CF(p) : CF(sdf), p != NULL, i, j, k, nx,
                               ny, nz);
}

void lq_plsobject_ref_close(lq_plsobject_ops *o, lq_field *phi, const lq_field *u,
                            const lq_field *v, const lq_field *w, const lq_field *sdf)
{
    int nx = o->nx, ny = o->ny, nz = o->nz;
    LQ_PLSOBJECT_LOOP(nx, ny, nz)
    lq_plsobject_close_cell(F(phi), CF(u), CF(v), CF(w), CF(&o->vel[0]), CF(&o->vel[1]),
                            CF(&o->vel[2]), CF(sdf), i, j, k, nx, ny, nz);
}

void lq_plsobject_ref_kill_air(lq_plsobject_ops *o, lq_field *part, int n, const lq_field *sdf,
                               float d)
{
    float ih = 1.0f / o->h;
    for (int p = 0; p < n; p++)
        lq_plsobject_kill_air_one(F(part) + (size_t)p * LQ_PLSPARTICLES_STRIDE, CF(sdf), d, ih,
                                  o->nx, o->ny, o->nz);
}

void lq_plsobject_ref_strat_label(lq_plsobject_ops *o, const lq_field *part, lq_field *lab, int n,
                                  const lq_field *sdf, const lq_field *phi, float band, float dt)
{
    float hdt = 0.5f * dt, ih = 1.0f / o->h, lx = (float)(o->nx * (double)o->h),
          ly = (float)(o->ny * (double)o->h), lz = (float)(o->nz * (double)o->h);
    for (int p = 0; p < n; p++)
        lq_plsobject_strat_label_one(CF(part) + (size_t)p * LQ_PLSPARTICLES_STRIDE,
                                     F(lab) + (size_t)p * LQ_PLSPARTICLES_STRIDE, CF(sdf), CF(phi),
                                     CF(&o->vel[0]), CF(&o->vel[1]), CF(&o->vel[2]), band, hdt, ih,
                                     lx, ly, lz, o->nx, o->ny, o->nz);
}

void lq_plsobject_ref_strat_apply(lq_plsobject_ops *o, lq_field *part, const lq_field *lab, int n,
                                  const lq_field *sdf, float dt)
{
    float hdt = 0.5f * dt, ih = 1.0f / o->h, lx = (float)(o->nx * (double)o->h),
          ly = (float)(o->ny * (double)o->h), lz = (float)(o->nz * (double)o->h);
    for (int p = 0; p < n; p++)
        lq_plsobject_strat_apply_one(F(part) + (size_t)p * LQ_PLSPARTICLES_STRIDE,
                                     CF(lab) + (size_t)p * LQ_PLSPARTICLES_STRIDE, CF(sdf),
                                     CF(&o->vel[0]), CF(&o->vel[1]), CF(&o->vel[2]), hdt, ih, o->h,
                                     lx, ly, lz, o->nx, o->ny, o->nz);
}

void lq_plsobject_ref_shift(lq_plsobject_ops *o, lq_field *out, const lq_field *sdf, float d)
{
    (void)o;
    for (size_t c = 0; c < sdf->count; c++) lq_plsobject_shift_cell(F(out), CF(sdf), d, (int)c);
}

void lq_plsobject_ref_extrap_phi(lq_plsobject_ops *o, lq_field *phi, const lq_field *sdf,
                                 int layers)
{
    int nx = o->nx, ny = o->ny, nz = o->nz;
    for (size_t c = 0; c < sdf->count; c++) lq_plsobject_phi_init(B(&o->valid[0]), CF(sdf), (int)c);
    for (int l = 0; l < layers; l++) {
        LQ_PLSOBJECT_LOOP(nx, ny, nz)
        lq_plsobject_phi_layer(F(phi), B(&o->valid[l & 1]), B(&o->valid[(l + 1) & 1]), o->h, i, j,
                               k, nx, ny, nz);
    }
}
