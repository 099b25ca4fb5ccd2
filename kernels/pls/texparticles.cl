/*
 * texparticles.cl — texture particles (Rasmussen et al. 2004 §6): settling new particles
 * on φ = 0 (their rest coordinate), advection, projection onto the surface. The math is
 * kernels/pls/texparticles_cell.h, shared with the reference twins
 * (host/ops/pls/texparticles_ref.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). One work-item per particle; the scalars of
 * lq_texparticles_coef come as arguments (ih, h, lx, ly, lz, dt, reach, iters).
 */

#define TPART(buf, p) ((buf) + (size_t)(p)*LQ_TEXPARTICLES_STRIDE)

kernel void texparticles_settle(global float *part, int n, global const float *phi, float ih,
                                float h, float lx, float ly, float lz, float reach, int iters)
{
    int p = get_global_id(0);
    if (p >= n) return;
    lq_texparticles_coef c = lq_texparticles_coef_make(ih, h, lx, ly, lz, 0.0f, reach, iters);
    lq_texparticles_settle_one(TPART(part, p), phi, NX, NY, NZ, c);
}

kernel void texparticles_project(global float *part, int n, global const float *phi, float ih,
                                 float h, float lx, float ly, float lz, float reach, int iters)
{
    int p = get_global_id(0);
    if (p >= n) return;
    lq_texparticles_coef c = lq_texparticles_coef_make(ih, h, lx, ly, lz, 0.0f, reach, iters);
    lq_texparticles_project_one(TPART(part, p), phi, NX, NY, NZ, c);
}

kernel void texparticles_advect(global float *part, int n, global const float *u,
                                global const float *v, global const float *w, float ih, float lx,
                                float ly, float lz, float dt)
{
    int p = get_global_id(0);
    if (p >= n) return;
    lq_texparticles_coef c = lq_texparticles_coef_make(ih, 0.0f, lx, ly, lz, dt, 0.0f, 0);
    lq_texparticles_advect_one(TPART(part, p), u, v, w, NX, NY, NZ, c);
}
