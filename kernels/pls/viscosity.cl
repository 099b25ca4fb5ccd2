/*
 * viscosity.cl — variable viscosity kernels of the pls solver (viscosity_cell.h states
 * the math). Face kernels: one work-item per face (i, j, k) of component `axis`'s
 * (nx+(a==0))·(ny+(a==1))·(nz+(a==2)) box; vector kernels: one per element of n;
 * viscosity_reduce: G groups of LQ_VISCOSITY_LOCAL work-items (fixed local size), one sum per
 * group into `out` by a fixed binary tree.
 */

#define FACE_IDS                                                                                   \
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);                          \
    if (i >= nx + (a == 0) || j >= ny + (a == 1) || k >= nz + (a == 2)) return;                    \
    int f = lq_viscosity_fidx(a, i, j, k, nx, ny);

kernel void viscosity_fill(global float *nu, int nx, int ny, int nz, float h, float nu0,
                           global const float *boxes, int nbox)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= nx || j >= ny || k >= nz) return;
    nu[LQ_MAC_CELL(i, j, k, nx, ny)] = lq_viscosity_fill_cell(i, j, k, nz, h, nu0, boxes, nbox);
}

kernel void viscosity_explicit(global float *q, int a, int nx, int ny, int nz,
                               global const float *nu, global const float *phi,
                               global const float *sdf, int has_sdf, int noslip, int cross,
                               global const float *un, global const float *vn,
                               global const float *wn, float kk)
{
    FACE_IDS
    q[f] = q[f] + lq_viscosity_explicit_face(a, i, j, k, nx, ny, nz, nu, phi, sdf, has_sdf, noslip,
                                             cross, un, vn, wn, kk);
}

kernel void viscosity_setup(int a, int nx, int ny, int nz, global const float *nu,
                            global const float *phi, global const float *sdf, int has_sdf,
                            int noslip, global uchar *kind, global float *diag)
{
    FACE_IDS(void) f;
    lq_viscosity_setup_face(a, i, j, k, nx, ny, nz, nu, phi, sdf, has_sdf, noslip, kind, diag);
}

kernel void viscosity_apply(int a, int nx, int ny, int nz, global const float *nu,
                            global const uchar *kind, global const float *diag,
                            global const float *x, float kk, global float *y)
{
    FACE_IDS
    y[f] = lq_viscosity_apply_face(a, i, j, k, nx, ny, nz, nu, kind, diag, x, kk);
}

kernel void viscosity_rhs(int a, int nx, int ny, int nz, global const float *nu,
                          global const uchar *kind, global const float *q, float kk,
                          global float *b)
{
    FACE_IDS
    b[f] = lq_viscosity_rhs_face(a, i, j, k, nx, ny, nz, nu, kind, q, kk);
}

kernel void viscosity_residual(int a, int nx, int ny, int nz, global const float *nu,
                               global const uchar *kind, global const float *diag,
                               global const float *b, global const float *x, float kk,
                               global float *r)
{
    FACE_IDS
    r[f] = lq_viscosity_residual_face(a, i, j, k, nx, ny, nz, nu, kind, diag, b, x, kk);
}

kernel void viscosity_cg_update(global float *x, global float *r, global const float *d,
                                global const float *q, float alpha, int n)
{
    int f = get_global_id(0);
    if (f < n) lq_viscosity_cg_update_elem(x, r, d, q, alpha, f);
}

kernel void viscosity_cg_direction(global const float *z, global float *d, float beta, int n)
{
    int f = get_global_id(0);
    if (f < n) lq_viscosity_cg_direction_elem(z, d, beta, f);
}

kernel void viscosity_precond(global const float *r, global float *z, global const uchar *kind,
                              global const float *diag, float kk, int n)
{
    int f = get_global_id(0);
    if (f < n) lq_viscosity_precond_elem(r, z, kind, diag, kk, f);
}

/* Multigrid preconditioner (viscosity_cell.h): level kernels run one work-item per cell
 * of an (mx, my, mz) level, 1D. */
kernel void viscosity_mg_setup(int a, int nx, int ny, int nz, global const float *nu,
                               global const uchar *kind, int noslip, float kk, global float *B,
                               global float *L)
{
    FACE_IDS(void) f;
    lq_vmg_setup_face(a, i, j, k, nx, ny, nz, nu, kind, noslip, kk, B, L);
}

kernel void viscosity_mg_coarsen(int mx, int my, int mz, int cx, int cy, int cz,
                                 global const float *Bf, global const float *Lf, global float *Bc,
                                 global float *Lc)
{
    int C = get_global_id(0);
    if (C >= cx * cy * cz) return;
    int I, J, K;
    lq_vmg_ijk(C, cx, cy, &I, &J, &K);
    lq_vmg_coarsen_cell(I, J, K, mx, my, mz, cx, cy, Bf, Lf, Bc, Lc);
}

kernel void viscosity_mg_smooth(int mx, int my, int mz, global const float *B,
                                global const float *L, global const float *b, global float *x,
                                int color, int first)
{
    int c = get_global_id(0);
    if (c < mx * my * mz) lq_vmg_smooth_cell(c, mx, my, mz, B, L, b, x, color, first);
}

kernel void viscosity_mg_residual(int mx, int my, int mz, global const float *B,
                                  global const float *L, global const float *b,
                                  global const float *x, global float *t)
{
    int c = get_global_id(0);
    if (c < mx * my * mz) t[c] = lq_vmg_residual_cell(c, mx, my, mz, B, L, b, x);
}

kernel void viscosity_mg_restrict(int mx, int my, int mz, int cx, int cy, int cz,
                                  global const float *t, global float *bc)
{
    int C = get_global_id(0);
    if (C >= cx * cy * cz) return;
    int I, J, K;
    lq_vmg_ijk(C, cx, cy, &I, &J, &K);
    bc[C] = lq_vmg_restrict_cell(I, J, K, mx, my, mz, t);
}

kernel void viscosity_mg_prolong(int mx, int my, int mz, int cx, int cy, global const float *Bf,
                                 global const float *xc, global float *xf)
{
    int c = get_global_id(0);
    if (c < mx * my * mz) lq_vmg_prolong_cell(c, mx, my, cx, cy, Bf, xc, xf);
}

kernel __attribute__((reqd_work_group_size(LQ_VISCOSITY_LOCAL, 1, 1))) void
viscosity_reduce(global const float *a, global const float *b, int span, int n, global float *out)
{
    local float red[LQ_VISCOSITY_LOCAL];
    int g = get_group_id(0), l = get_local_id(0);
    red[l] = lq_viscosity_red_item(a, b, g, l, span, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = LQ_VISCOSITY_LOCAL / 2; s > 0; s >>= 1) {
        if (l < s) red[l] = red[l] + red[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[g] = red[0];
}
