/*
 * heightfield.cl — OpenCL kernels of the Kass–Miller height-field water (`shallow`).
 * Each kernel is one launch of a per-line or per-cell function of heightfield_cell.h;
 * host/ref/heightfield.c runs the same functions in plain loops.
 *
 * Build defines: NX, NZ (grid cells). Buffers: h1 = h(n−1), h0 = h(n−2), hn = h(n),
 * b ground, cp Thomas scratch, L labels, u (NX+1)·NZ x-faces, w NX·(NZ+1) z-faces.
 */
#include "heightfield_cell.h"

/* eq. 19: one work-item per row (x direction). */
kernel void hf_adi_x(global const float *h1, global const float *h0, global const float *b,
                     global float *hn, global float *cp, float kappa, float keep)
{
    int k = get_global_id(0);
    if (k >= NZ) return;
    lq_hf_solve_line(h1, h0, b, hn, cp, k * NX, 1, NX, kappa, keep, 1);
}

/* eq. 20: one work-item per column (z direction), in place on hn. */
kernel void hf_adi_z(global const float *h1, global const float *b, global float *hn,
                     global float *cp, float kappa)
{
    int i = get_global_id(0);
    if (i >= NX) return;
    lq_hf_solve_line(h1, h1, b, hn, cp, i, NX, NZ, kappa, 1.0f, 0);
}

/* Sources over a rectangle of cells starting at (i0, k0); (ci, ck) centre in cells. */
kernel void hf_source(global float *h1, global float *h0, global const float *b, global long *acc_l,
                      int i0, int k0, float ci, float ck, float inv_r2, int mode, float amount,
                      float eps, float scale)
{
    int i = i0 + get_global_id(0), k = k0 + get_global_id(1);
    if (i >= NX || k >= NZ) return;
    float dx = (float)i + 0.5f - ci, dz = (float)k + 0.5f - ck;
    lq_hf_source_cell(h1, h0, b, acc_l, i + NX * k, dx * dx + dz * dz, inv_r2, mode, amount, eps,
                      scale);
}

kernel void hf_label_init(global const float *h1, global const float *hn, global const float *b,
                          global int *L)
{
    int idx = get_global_id(0);
    if (idx >= NX * NZ) return;
    lq_hf_label_init_cell(h1, hn, b, L, idx);
}

kernel void hf_label_merge(global volatile int *L)
{
    int i = get_global_id(0), k = get_global_id(1);
    if (i >= NX || k >= NZ) return;
    lq_hf_label_merge_cell(L, i, k, NX, NZ);
}

kernel void hf_label_compress(global volatile int *L, global long *old_sum, global long *new_sum,
                              global int *wet_count)
{
    int idx = get_global_id(0);
    if (idx >= NX * NZ) return;
    lq_hf_label_compress_cell(L, old_sum, new_sum, wet_count, idx);
}

/* One work-item per LQ_HF_SEGMENT cells of a row. */
kernel void hf_volume_reduce(global const float *h1, global const float *hn, global const float *b,
                             global const int *L, global long *old_sum, global long *new_sum,
                             global int *wet_count, float scale, int with_old)
{
    int s = get_global_id(0), k = get_global_id(1);
    int i0 = s * LQ_HF_SEGMENT;
    if (i0 >= NX || k >= NZ) return;
    int count = min(LQ_HF_SEGMENT, NX - i0);
    lq_hf_volume_reduce_segment(h1, hn, b, L, old_sum, new_sum, wet_count, i0 + NX * k, count,
                                scale, with_old);
}

kernel void hf_volume_apply(global float *hn, global const float *b, global const int *L,
                            global const long *old_sum, global const long *new_sum,
                            global const int *wet_count, global long *next_new,
                            global int *next_wet, global long *acc_l, float inv_scale,
                            int last_pass)
{
    int idx = get_global_id(0);
    if (idx >= NX * NZ) return;
    lq_hf_volume_apply_cell(hn, b, L, old_sum, new_sum, wet_count, next_new, next_wet, acc_l, idx,
                            inv_scale, last_pass);
}

kernel void hf_finish(global float *hn, global const float *h1, global const float *b,
                      global float *u, global float *w, global int *acc_i, float gdt_dx, float keep,
                      float eps, int step)
{
    int i = get_global_id(0), k = get_global_id(1);
    if (i >= NX || k >= NZ) return;
    lq_hf_finish_cell(hn, h1, b, u, w, acc_i, i, k, NX, NZ, gdt_dx, keep, eps, step);
}

kernel void hf_stats(global const float *h, global const float *b, global const float *u,
                     global const float *w, global long *acc_l, global int *acc_i, float scale)
{
    int s = get_global_id(0), k = get_global_id(1);
    int i0 = s * LQ_HF_SEGMENT;
    if (i0 >= NX || k >= NZ) return;
    lq_hf_stats_segment(h, b, u, w, acc_l, acc_i, i0, k, min(LQ_HF_SEGMENT, NX - i0), NX, scale);
}
