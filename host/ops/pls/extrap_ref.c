/*
 * ref/extrap.c — reference twins of velocity extrapolation: plain loops over the
 * per-face and per-cell functions the kernels call (kernels/pls/extrap_cell.h), pass for
 * pass. A layer writes only faces its mask marks invalid, which no face of the layer
 * reads; a red-black colour's cells share no face; the other passes write fields they
 * do not read across faces. So the serial loops give the kernels' results exactly.
 */
#include "ops/pls/extrap_ref.h"

#define F(fld)  ((float *)(fld)->host)
#define CF(fld) ((const float *)(fld)->host)
#define B(fld)  ((lq_extrap_u8 *)(fld)->host)

#define LQ_EXTRAP_LOOP(ax, ay, az)                                                                 \
    for (int k = 0; k < (az); k++)                                                                 \
        for (int j = 0; j < (ay); j++)                                                             \
            for (int i = 0; i < (ax); i++)

void lq_extrap_ref_velocity(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w,
                            const lq_field *phi, const lq_field *sdf, const lq_extrap_params *prm)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, use_sdf = sdf != NULL ? 1 + (prm->closed != 0) : 0;
    const float *sd = sdf ? CF(sdf) : CF(phi);
    lq_field *vel[3] = {u, v, w};
    for (int c = 0; c < 3; c++) {
        int ax, ay, az;
        lq_extrap_dims(c, nx, ny, nz, &ax, &ay, &az);
        LQ_EXTRAP_LOOP(ax, ay, az)
        lq_extrap_init_face(B(&o->valid[0][c]), CF(phi), sd, use_sdf, c, i, j, k, nx, ny, nz);
    }
    for (int l = 0; l < prm->layers; l++) /* the kernels: only the faces of each front */
        for (int c = 0; c < 3; c++) {
            int ax, ay, az;
            lq_extrap_dims(c, nx, ny, nz, &ax, &ay, &az);
            LQ_EXTRAP_LOOP(ax, ay, az)
            lq_extrap_layer_lev(F(vel[c]), B(&o->valid[0][c]), c, i, j, k, nx, ny, nz, l);
        }
    o->final = 0;
}

void lq_extrap_ref_object_bc(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w,
                             const lq_field *phi, const lq_field *sdf, const lq_field *ob,
                             const lq_extrap_params *prm)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, use_ob = ob != NULL, use_phi = phi != NULL;
    const float *ph = phi ? CF(phi) : CF(sdf);
    const float *oo[3] = {ob ? CF(&ob[0]) : CF(u), ob ? CF(&ob[1]) : CF(v),
                          ob ? CF(&ob[2]) : CF(w)};
    lq_field *vel[3] = {u, v, w};
    for (int c = 0; c < 3; c++) {
        int ax, ay, az;
        lq_extrap_dims(c, nx, ny, nz, &ax, &ay, &az);
        LQ_EXTRAP_LOOP(ax, ay, az)
        lq_extrap_object_face(F(&o->tmp[c]), CF(u), CF(v), CF(w), CF(sdf), ph, use_phi,
                              prm->obj_vel[0], prm->obj_vel[1], prm->obj_vel[2], oo[0], oo[1],
                              oo[2], use_ob, prm->hold_normal, prm->friction, c, i, j, k, nx, ny,
                              nz);
    }
    for (int c = 0; c < 3; c++)
        for (size_t f = 0; f < vel[c]->count; f++) F(vel[c])[f] = CF(&o->tmp[c])[f];
}

void lq_extrap_ref_object_restore(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w,
                                  const lq_field *phi, const lq_field *sdf)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, use_phi = phi != NULL;
    const float *ph = phi ? CF(phi) : CF(sdf);
    lq_field *vel[3] = {u, v, w};
    for (int c = 0; c < 3; c++) {
        int ax, ay, az;
        lq_extrap_dims(c, nx, ny, nz, &ax, &ay, &az);
        LQ_EXTRAP_LOOP(ax, ay, az)
        lq_extrap_restore_face(F(vel[c]), CF(&o->tmp[c]), CF(sdf), ph, use_phi, c, i, j, k, nx, ny,
                               nz);
    }
}

void lq_extrap_ref_divfree(lq_extrap_ops *o, lq_field *u, lq_field *v, lq_field *w,
                           const lq_field *phi, const lq_field *sdf, const lq_extrap_params *prm)
{
    int nx = o->nx, ny = o->ny, nz = o->nz, use_sdf = sdf != NULL ? 1 + (prm->closed != 0) : 0;
    const float *sd = sdf ? CF(sdf) : CF(phi);
    lq_field *vm = o->valid[o->final];
    LQ_EXTRAP_LOOP(nx, ny, nz)
    lq_extrap_band_cell(B(&o->band), F(&o->rhs), F(&o->p), CF(u), CF(v), CF(w), B(&vm[0]),
                        B(&vm[1]), B(&vm[2]), CF(phi), sd, use_sdf, i, j, k, nx, ny, nz);
    /* bit 7 by colour rounds until one sets none, as the kernels do over their lists */
    for (int set = 1; set;) {
        set = 0;
        for (int colour = 0; colour < 2; colour++) {
            LQ_EXTRAP_LOOP(nx, ny, nz)
            if (((i + j + k) & 1) == colour)
                set += lq_extrap_reach_bits(B(&o->band), LQ_MAC_CELL(i, j, k, nx, ny), nx, ny);
        }
    }
    for (int it = 0; it < prm->iterations; it++)
        for (int colour = 0; colour < 2; colour++) {
            LQ_EXTRAP_LOOP(nx, ny, nz)
            lq_extrap_sor_cell(F(&o->p), B(&o->band), CF(&o->rhs), CF(phi), sd, use_sdf, colour,
                               prm->omega, i, j, k, nx, ny, nz);
        }
    lq_field *vel[3] = {u, v, w};
    for (int c = 0; c < 3; c++) {
        int ax, ay, az;
        lq_extrap_dims(c, nx, ny, nz, &ax, &ay, &az);
        LQ_EXTRAP_LOOP(ax, ay, az)
        lq_extrap_correct_face(F(vel[c]), CF(&o->p), B(&o->band), CF(phi), sd, use_sdf, c, i, j, k,
                               nx, ny, nz);
    }
}
