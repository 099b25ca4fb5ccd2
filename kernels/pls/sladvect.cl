/*
 * sladvect.cl — semi-Lagrangian advection (Rasmussen et al. 2004 §3; Stam 1999) of the
 * MAC velocity and of a cell-centred scalar. The math is kernels/pls/sladvect_cell.h, shared
 * with the reference twins (host/ops/pls/sladvect_ref.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per face (sladvect_velocity and the
 * velocity's error-compensated passes: a 3D range over the component's own lattice, comp an
 * argument) or per cell (sladvect_scalar and the scalar's schemes).
 */

kernel void sladvect_velocity(global float *out, global const float *u, global const float *v,
                              global const float *w, int comp, float h, float ih, float lx,
                              float ly, float lz, float dt, int noslip)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX + (comp == 0) || j >= NY + (comp == 1) || k >= NZ + (comp == 2)) return;
    lq_sladvect_velocity_face(out, u, v, w, comp, i, j, k, NX, NY, NZ, h, ih, lx, ly, lz, dt,
                              noslip);
}

kernel void sladvect_scalar(global float *qn, global const float *q, global const float *u,
                            global const float *v, global const float *w, float h, float ih,
                            float lx, float ly, float lz, float dt)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_sladvect_scalar_cell(qn, q, u, v, w, i, j, k, NX, NY, NZ, h, ih, lx, ly, lz, dt);
}

kernel void sladvect_maccormack(global float *qn, global const float *q, global const float *qt,
                                global const float *u, global const float *v, global const float *w,
                                float h, float ih, float lx, float ly, float lz, float dt)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_sladvect_maccormack_cell(qn, q, qt, u, v, w, i, j, k, NX, NY, NZ, h, ih, lx, ly, lz, dt);
}

kernel void sladvect_bfecc(global float *qn, global const float *q, global const float *qt,
                           global const float *u, global const float *v, global const float *w,
                           float h, float ih, float lx, float ly, float lz, float dt)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_sladvect_bfecc_cell(qn, q, qt, u, v, w, i, j, k, NX, NY, NZ, h, ih, lx, ly, lz, dt);
}

/* The first pass of MacCormack / BFECC, keeping the departure (sladvect_cell.h). */
kernel void sladvect_scalar_keep(global float *qn, global const float *q, global const float *u,
                                 global const float *v, global const float *w, global float *dep,
                                 float h, float ih, float lx, float ly, float lz, float dt)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_sladvect_scalar_cell_keep(qn, q, u, v, w, dep, i, j, k, NX, NY, NZ, h, ih, lx, ly, lz, dt);
}

kernel void sladvect_maccormack_dep(global float *qn, global const float *q, global const float *qt,
                                    global const float *dep, float ih)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_sladvect_maccormack_cell_dep(qn, q, qt, dep, i, j, k, NX, NY, NZ, ih);
}

kernel void sladvect_bfecc_dep(global float *qn, global const float *q, global const float *qt,
                               global const float *dep, float ih)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_sladvect_bfecc_cell_dep(qn, q, qt, dep, i, j, k, NX, NY, NZ, ih);
}

/* The velocity's error-compensated schemes (sladvect_cell.h), per component: the reverse
 * pass of q^ (f) into out over dt = −δt, then the final pass into qn. */
kernel void sladvect_velocity_pass(global float *out, global const float *f, global const float *u,
                                   global const float *v, global const float *w, int comp, float h,
                                   float ih, float lx, float ly, float lz, float dt, int noslip)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX + (comp == 0) || j >= NY + (comp == 1) || k >= NZ + (comp == 2)) return;
    lq_sladvect_face_pass(out, f, u, v, w, comp, i, j, k, NX, NY, NZ, h, ih, lx, ly, lz, dt,
                          noslip);
}

kernel void sladvect_velocity_maccormack(global float *qn, global const float *q,
                                         global const float *qt, global const float *u,
                                         global const float *v, global const float *w, int comp,
                                         float h, float ih, float lx, float ly, float lz, float dt,
                                         int noslip)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX + (comp == 0) || j >= NY + (comp == 1) || k >= NZ + (comp == 2)) return;
    lq_sladvect_velocity_maccormack_face(qn, q, qt, u, v, w, comp, i, j, k, NX, NY, NZ, h, ih, lx,
                                         ly, lz, dt, noslip);
}

kernel void sladvect_velocity_bfecc(global float *qn, global const float *q, global const float *qt,
                                    global const float *u, global const float *v,
                                    global const float *w, int comp, float h, float ih, float lx,
                                    float ly, float lz, float dt, int noslip)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX + (comp == 0) || j >= NY + (comp == 1) || k >= NZ + (comp == 2)) return;
    lq_sladvect_velocity_bfecc_face(qn, q, qt, u, v, w, comp, i, j, k, NX, NY, NZ, h, ih, lx, ly,
                                    lz, dt, noslip);
}
