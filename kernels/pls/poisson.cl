/*
 * poisson.cl — the `pls` pressure projection (Rasmussen et al. 2004 §3; ghost fluid
 * surface after Gibou et al. 2002): system setup, operator, red-black SOR and Jacobi
 * passes, CG vector operations, deterministic reductions, RHS and projection. The math
 * is kernels/pls/poisson_cell.h, shared with the reference twins (host/ops/pls/poisson_ref.c).
 *
 * Built with -DNX, -DNY, -DNZ (cells). Cell kernels: one work-item per cell over
 * NX × NY × NZ (3D range); vector kernels: one per cell index (1D range);
 * poisson_reduce: G groups of LQ_POISSON_LOCAL work-items (fixed local size), one sum per
 * group into `out` by a fixed binary tree; list kernels: one per entry of an unknown list.
 */

#define CELL_IDS                                                                                   \
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);                          \
    if (i >= NX || j >= NY || k >= NZ) return;

kernel void poisson_setup(global const float *phi, global const float *sdf, int has_sdf,
                          int wall_dirichlet, int ghost, float theta_min, global uchar *mask,
                          global float *diag)
{
    CELL_IDS
    lq_poisson_setup_cell(phi, sdf, has_sdf, wall_dirichlet, ghost, theta_min, i, j, k, NX, NY, NZ,
                          mask, diag);
}

kernel void poisson_setup_kinds(global const uchar *flags, global const float *sw, int has_sw,
                                global uchar *mask, global float *diag)
{
    CELL_IDS
    lq_poisson_setup_kind_cell(flags, has_sw ? sw : 0, i, j, k, NX, NY, NZ, mask, diag);
}

kernel void poisson_apply(global const float *x, global const uchar *mask, global const float *diag,
                          global float *y)
{
    CELL_IDS
    lq_poisson_apply_cell(x, mask, diag, y, i, j, k, NX, NY, NZ);
}

kernel void poisson_residual(global const float *b, float shift, global const float *p,
                             global const uchar *mask, global const float *diag, global float *r)
{
    CELL_IDS
    lq_poisson_residual_cell(b, shift, p, mask, diag, r, i, j, k, NX, NY, NZ);
}

kernel void poisson_sor(global const float *b, float shift, global float *p,
                        global const uchar *mask, global const float *diag, int colour, float omega)
{
    CELL_IDS
    lq_poisson_sor_cell(b, shift, p, mask, diag, colour, omega, i, j, k, NX, NY, NZ);
}

kernel void poisson_jacobi(global const float *b, float shift, global const float *pin,
                           global float *pout, global const uchar *mask, global const float *diag,
                           float omega)
{
    CELL_IDS
    lq_poisson_jacobi_cell(b, shift, pin, pout, mask, diag, omega, i, j, k, NX, NY, NZ);
}

kernel void poisson_cg_update(global float *x, global float *r, global const float *d,
                              global const float *q, float alpha)
{
    int c = get_global_id(0);
    if (c >= NX * NY * NZ) return;
    lq_poisson_cg_update_cell(x, r, d, q, alpha, c);
}

kernel void poisson_cg_direction(global const float *z, global float *d, float beta)
{
    int c = get_global_id(0);
    if (c >= NX * NY * NZ) return;
    lq_poisson_cg_direction_cell(z, d, beta, c);
}

kernel void poisson_precond_jacobi(global const float *r, global float *z, global const uchar *mask,
                                   global const float *diag)
{
    int c = get_global_id(0);
    if (c >= NX * NY * NZ) return;
    lq_poisson_precond_jacobi_cell(r, z, mask, diag, c);
}

/* A group's items summed by the fixed binary tree (halving strides), the sum into out[g]. */
#define LQ_POISSON_TREE                                                                            \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    for (int s = LQ_POISSON_LOCAL / 2; s > 0; s >>= 1) {                                           \
        if (l < s) red[l] = red[l] + red[l + s];                                                   \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
    }                                                                                              \
    if (l == 0) out[g] = red[0];

kernel __attribute__((reqd_work_group_size(LQ_POISSON_LOCAL, 1, 1))) void
poisson_reduce(int mode, global const float *a, global const float *b, global const uchar *mask,
               float shift, int span, global float *out)
{
    local float red[LQ_POISSON_LOCAL];
    int g = get_group_id(0), l = get_local_id(0);
    red[l] = lq_poisson_red_item(mode, a, b, mask, shift, g, l, span, NX * NY * NZ);
    LQ_POISSON_TREE
}

/* The CG's list passes fused with their reductions (poisson_cell.h, unknown lists): one
 * group sum each into out. */
kernel __attribute__((reqd_work_group_size(LQ_POISSON_LOCAL, 1, 1))) void
poisson_apply_dot(global const float *x, global const uchar *mask, global const float *diag,
                  global float *y, global const int *list, int n, int span, global float *out)
{
    local float red[LQ_POISSON_LOCAL];
    int g = get_group_id(0), l = get_local_id(0);
    red[l] = lq_poisson_apply_dot_item(x, mask, diag, y, list, g, l, span, n, NX, NY, NZ);
    LQ_POISSON_TREE
}

kernel __attribute__((reqd_work_group_size(LQ_POISSON_LOCAL, 1, 1))) void
poisson_update_dot(global float *x, global float *r, global const float *d, global const float *q,
                   float alpha, global const int *list, int n, int span, global float *out)
{
    local float red[LQ_POISSON_LOCAL];
    int g = get_group_id(0), l = get_local_id(0);
    red[l] = lq_poisson_update_dot_item(x, r, d, q, alpha, list, g, l, span, n);
    LQ_POISSON_TREE
}

kernel __attribute__((reqd_work_group_size(LQ_POISSON_LOCAL, 1, 1))) void
poisson_dot_list(global const float *a, global const float *b, global const int *list, int n,
                 int span, global float *out)
{
    local float red[LQ_POISSON_LOCAL];
    int g = get_group_id(0), l = get_local_id(0);
    red[l] = lq_poisson_dot_item(a, b, list, g, l, span, n);
    LQ_POISSON_TREE
}

/* d = z + β d on the listed cells (one work-item per entry, fixed local size). */
kernel void poisson_direction_list(global const float *z, global float *d, float beta,
                                   global const int *list, int n)
{
    int t = get_global_id(0);
    if (t >= n) return;
    lq_poisson_cg_direction_cell(z, d, beta, list[t]);
}

kernel void poisson_rhs(global const float *u, global const float *v, global const float *w,
                        global const uchar *mask, global float *b, float rhs_scale)
{
    CELL_IDS
    lq_poisson_rhs_cell(u, v, w, mask, b, rhs_scale, i, j, k, NX, NY, NZ);
}

/* lq_poisson_project_cell at the n cells of the unknown list (fixed local size). */
kernel void poisson_project_list(global float *u, global float *v, global float *w,
                                 global const uchar *mask, global const int *list, int n,
                                 global const float *p, global const float *phi,
                                 global const float *sdf, int has_sdf, int wall_dirichlet,
                                 int ghost, float theta_min, float dt_h)
{
    int t = get_global_id(0);
    if (t >= n) return;
    int i, j, k;
    lq_poisson_cell_ijk(list[t], NX, NY, &i, &j, &k);
    lq_poisson_project_cell(u, v, w, mask, i, j, k, NX, NY, NZ, p, phi, sdf, has_sdf,
                            wall_dirichlet, ghost, theta_min, dt_h);
}

/* --- multigrid (level dims as arguments: one program serves every level) --------------- */

#define LEVEL_IDS                                                                                  \
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);                          \
    if (i >= nx || j >= ny || k >= nz) return;

kernel void poisson_mg_state(global const float *phi, global const float *sdf, int has_sdf,
                             global const uchar *mask, global uchar *state)
{
    int c = get_global_id(0);
    if (c >= NX * NY * NZ) return;
    lq_poisson_state_cell(phi, sdf, has_sdf, mask, state, c);
}

kernel void poisson_mg_state_kinds(global const uchar *flags, global const uchar *mask,
                                   global uchar *state)
{
    int c = get_global_id(0);
    if (c >= NX * NY * NZ) return;
    lq_poisson_state_kind_cell(flags, mask, state, c);
}

kernel void poisson_mg_coarsen(global const uchar *fine, global const float *fphi, int from_state,
                               int fnx, int fny, int fnz, global uchar *coarse, global float *cphi,
                               int nx, int ny, int nz)
{
    LEVEL_IDS
    lq_poisson_coarsen_cell(fine, fphi, from_state, fnx, fny, fnz, coarse, cphi, i, j, k, nx, ny);
}

kernel void poisson_mg_system(global const uchar *state, global const float *phi, float theta_min,
                              int wall_dirichlet, int dim3, global uchar *mask, global float *diag,
                              int nx, int ny, int nz)
{
    LEVEL_IDS
    lq_poisson_coarse_system_cell(state, phi, theta_min, wall_dirichlet, dim3, i, j, k, nx, ny, nz,
                                  mask, diag);
}

/* The same passes over a whole level (levels where most cells are unknowns: a list pass
 * there costs more than the idle cells it skips). */
kernel void poisson_mg_smooth_half(global const float *b, global float *x, global const uchar *mask,
                                   global const float *diag, int colour, int nx, int ny, int nz)
{
    /* work-item g0 of row (j, k) is the cell i = 2 g0 + ((j + k + colour) & 1) */
    int j = get_global_id(1), k = get_global_id(2);
    int i = 2 * (int)get_global_id(0) + ((j + k + colour) & 1);
    if (i >= nx || j >= ny || k >= nz) return;
    lq_poisson_sor_cell(b, 0.0f, x, mask, diag, colour, 1.0f, i, j, k, nx, ny, nz);
}

kernel void poisson_mg_residual(global const float *b, global const float *x,
                                global const uchar *mask, global const float *diag, global float *r,
                                int nx, int ny, int nz)
{
    LEVEL_IDS
    lq_poisson_residual_cell(b, 0.0f, x, mask, diag, r, i, j, k, nx, ny, nz);
}

kernel void poisson_mg_restrict(global const float *r, int fnx, int fny, int fnz,
                                global const uchar *cmask, global float *b, float scale, int dim3,
                                int nx, int ny, int nz)
{
    LEVEL_IDS
    lq_poisson_restrict_cell(r, fnx, fny, fnz, cmask, b, scale, dim3, i, j, k, nx, ny, nz);
}

kernel void poisson_mg_prolong(global const float *e, int cnx, int cny, int cnz,
                               global const uchar *fmask, global float *x, int dim3, int nx, int ny,
                               int nz)
{
    LEVEL_IDS
    lq_poisson_prolong_cell(e, cnx, cny, cnz, fmask, x, dim3, i, j, k, nx, ny);
}

/* The V-cycle's passes over a level's unknown list (poisson_cell.h): work-item t is the
 * cell list[off + t], t < n (one colour's part of the list, or all of it); fixed local
 * size. */
#define LIST_IDS                                                                                   \
    int t = get_global_id(0);                                                                      \
    if (t >= n) return;                                                                            \
    int c = list[off + t], i, j, k;                                                                \
    lq_poisson_cell_ijk(c, nx, ny, &i, &j, &k);

kernel void poisson_mg_smooth_list(global const float *b, global float *x, global const uchar *mask,
                                   global const float *diag, int colour, global const int *list,
                                   int off, int n, int nx, int ny, int nz)
{
    int t = get_global_id(0);
    if (t >= n) return;
    (void)colour, (void)nz; /* the list part is the colour's */
    lq_poisson_sor_c(b, 0.0f, x, mask, diag, 1.0f, list[off + t], nx, ny);
}

kernel void poisson_mg_residual_list(global const float *b, float shift, global const float *x,
                                     global const uchar *mask, global const float *diag,
                                     global float *r, global const int *list, int off, int n,
                                     int nx, int ny, int nz)
{
    int t = get_global_id(0);
    if (t >= n) return;
    (void)nz;
    lq_poisson_residual_c(b, shift, x, mask, diag, r, list[off + t], nx, ny);
}

kernel void poisson_mg_restrict_list(global const float *r, int fnx, int fny, int fnz,
                                     global const uchar *cmask, global float *b, float scale,
                                     int dim3, global const int *list, int off, int n, int nx,
                                     int ny, int nz)
{
    LIST_IDS
    lq_poisson_restrict_cell(r, fnx, fny, fnz, cmask, b, scale, dim3, i, j, k, nx, ny, nz);
}

kernel void poisson_mg_prolong_list(global const float *e, int cnx, int cny, int cnz,
                                    global const uchar *fmask, global float *x, int dim3,
                                    global const int *list, int off, int n, int nx, int ny, int nz)
{
    LIST_IDS(void) nz;
    lq_poisson_prolong_cell(e, cnx, cny, cnz, fmask, x, dim3, i, j, k, nx, ny);
}

/* The coarsest level's part of the V-cycle in one work-group of get_local_size(0) items:
 * x = 0, then `sweeps` red-black Gauss–Seidel sweeps (red, black) and as many mirrored
 * (black, red), a barrier after each colour: the same updates in the same order as the
 * launches of poisson_mg_smooth it replaces (one colour's cells share no face). */
kernel void poisson_mg_coarse(global const float *b, global float *x, global const uchar *mask,
                              global const float *diag, int sweeps, int nx, int ny, int nz)
{
    int n = nx * ny * nz, lid = get_local_id(0), ls = get_local_size(0);
    for (int c = lid; c < n; c += ls) x[c] = 0.0f;
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int s = 0; s < 4 * sweeps; s++) {
        /* s < 2 sweeps: 0, 1, 0, 1, ...; then 1, 0, 1, 0, ... */
        int colour = s < 2 * sweeps ? (s & 1) : 1 - (s & 1);
        for (int c = lid; c < n; c += ls) {
            int i = c % nx, j = (c / nx) % ny, k = c / (nx * ny);
            lq_poisson_sor_cell(b, 0.0f, x, mask, diag, colour, 1.0f, i, j, k, nx, ny, nz);
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
}

/* The V-cycle from tail level 0 (the hierarchy's level l0, its RHS in b0) down to the
 * coarsest and back up to it, in one work-group (barriers between the passes): the same
 * passes in the same order as the launches of host/ops/pls/poisson.c (lq_poisson_mg_vcycle), each
 * over its level's unknown list, for the coarse levels whose few unknowns would cost a
 * launch per pass. Tail level t's buffers are the arguments ending in t; info[5 t ..] its
 * nx, ny, nz and its colours' list lengths. */
#define TAIL_LEVEL(t)                                                                              \
    global const uchar *m##t, global const float *d##t, global float *x##t, global float *b##t,    \
        global float *r##t, global const int *l##t
#define TAIL_SEL(p, t)                                                                             \
    ((t) == 0 ? p##0 : (t) == 1 ? p##1 : (t) == 2 ? p##2 : (t) == 3 ? p##3 : (t) == 4 ? p##4 : p##5)
#define TAIL_BIND(t)                                                                               \
    global const uchar *m = TAIL_SEL(m, t);                                                        \
    global const float *d = TAIL_SEL(d, t);                                                        \
    global float *x = TAIL_SEL(x, t), *b = TAIL_SEL(b, t), *r = TAIL_SEL(r, t);                    \
    global const int *li = TAIL_SEL(l, t);                                                         \
    int nx = info[5 * (t)], ny = info[5 * (t) + 1], nz = info[5 * (t) + 2];                        \
    int n0 = info[5 * (t) + 3], n = n0 + info[5 * (t) + 4];
/* one colour's red-black Gauss–Seidel pass over the list, then the barrier */
#define TAIL_PASS(colour)                                                                          \
    {                                                                                              \
        int lo = (colour) ? n0 : 0, hi = (colour) ? n : n0;                                        \
        for (int e = lo + lid; e < hi; e += ls)                                                    \
            lq_poisson_sor_c(b, 0.0f, x, m, d, 1.0f, li[e], nx, ny);                               \
        barrier(CLK_GLOBAL_MEM_FENCE);                                                             \
    }

kernel __attribute__((reqd_work_group_size(LQ_POISSON_TAIL_GROUP, 1, 1))) void
poisson_mg_tail(int nl, int dim3, global const int *info, TAIL_LEVEL(0), TAIL_LEVEL(1),
                TAIL_LEVEL(2), TAIL_LEVEL(3), TAIL_LEVEL(4), TAIL_LEVEL(5))
{
    int lid = get_local_id(0), ls = LQ_POISSON_TAIL_GROUP;
    float scale = dim3 ? 0.5f : 1.0f;
    for (int t = 0; t < nl; t++) {
        TAIL_BIND(t)
        (void)r;
        for (int e = lid; e < n; e += ls) x[li[e]] = 0.0f; /* 0 off the list already */
        barrier(CLK_GLOBAL_MEM_FENCE);
        if (t == nl - 1) { /* the coarsest: sweeps, then as many mirrored */
            for (int s = 0; s < LQ_POISSON_MG_COARSE; s++) {
                TAIL_PASS(0)
                TAIL_PASS(1)
            }
            for (int s = 0; s < LQ_POISSON_MG_COARSE; s++) {
                TAIL_PASS(1)
                TAIL_PASS(0)
            }
            break;
        }
        for (int s = 0; s < LQ_POISSON_MG_SMOOTH; s++) {
            TAIL_PASS(0)
            TAIL_PASS(1)
        }
        for (int e = lid; e < n; e += ls) lq_poisson_residual_c(b, 0.0f, x, m, d, r, li[e], nx, ny);
        barrier(CLK_GLOBAL_MEM_FENCE);
        global const uchar *cm = TAIL_SEL(m, t + 1);
        global float *cb = TAIL_SEL(b, t + 1);
        global const int *cl = TAIL_SEL(l, t + 1);
        int cnx = info[5 * (t + 1)], cny = info[5 * (t + 1) + 1], cnz = info[5 * (t + 1) + 2];
        int cn = info[5 * (t + 1) + 3] + info[5 * (t + 1) + 4];
        for (int e = lid; e < cn; e += ls) {
            int c = cl[e], i, j, k;
            lq_poisson_cell_ijk(c, cnx, cny, &i, &j, &k);
            lq_poisson_restrict_cell(r, nx, ny, nz, cm, cb, scale, dim3, i, j, k, cnx, cny, cnz);
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    for (int t = nl - 2; t >= 0; t--) {
        TAIL_BIND(t)
        (void)r;
        global const float *ce = TAIL_SEL(x, t + 1);
        int cnx = info[5 * (t + 1)], cny = info[5 * (t + 1) + 1], cnz = info[5 * (t + 1) + 2];
        for (int e = lid; e < n; e += ls) {
            int c = li[e], i, j, k;
            lq_poisson_cell_ijk(c, nx, ny, &i, &j, &k);
            lq_poisson_prolong_cell(ce, cnx, cny, cnz, m, x, dim3, i, j, k, nx, ny);
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
        for (int s = 0; s < LQ_POISSON_MG_SMOOTH; s++) {
            TAIL_PASS(1)
            TAIL_PASS(0)
        }
    }
}

/* The unknown lists by stream compaction (lq_poisson_list_block, core/scan.h): one
 * work-item per virtual block q of 3 nb counts into bsum; after the scan, one per block
 * writes its entries from boff[q] (kinds 0 and 1) and work-item 0 keeps n[0] and
 * n[0] + n[1] in cnt[at + 1], cnt[at + 2] (the scan set cnt[at], the total). */
kernel void poisson_list_count(global const uchar *mask, int nb, int nx, int ny, int ncell,
                               global int *bsum)
{
    int q = get_global_id(0);
    if (q >= 3 * nb) return;
    bsum[q] = lq_poisson_list_block(mask, q, nb, nx, ny, ncell, 0, bsum, 0);
}

kernel void poisson_list_scatter(global const uchar *mask, int nb, int nx, int ny, int ncell,
                                 global const int *boff, global int *list, global int *cnt, int at)
{
    int q = get_global_id(0);
    if (q == 0) {
        cnt[at + 1] = boff[nb];
        cnt[at + 2] = boff[2 * nb];
    }
    if (q >= 2 * nb) return;
    lq_poisson_list_block(mask, q, nb, nx, ny, ncell, 1, list, boff[q]);
}

/* CG with its scalars on the device (poisson_cell.h): one work-item adds the group sums
 * and updates the scalars; the update and the direction read α and β there and do
 * nothing once the solve has stopped. */
kernel void poisson_cg_stage(global const float *partial, int groups, global lq_cg_real *s,
                             int stage, int pre)
{
    if (get_global_id(0) == 0) lq_poisson_cg_stage(partial, groups, s, stage, pre);
}

kernel __attribute__((reqd_work_group_size(LQ_POISSON_LOCAL, 1, 1))) void
poisson_update_dot_s(global float *x, global float *r, global const float *d, global const float *q,
                     global const lq_cg_real *s, global const int *list, int n, int span,
                     global float *out)
{
    if (s[LQ_CG_STATE] != LQ_CG_RUN) return; /* the whole group alike */
    local float red[LQ_POISSON_LOCAL];
    int g = get_group_id(0), l = get_local_id(0);
    float alpha = (float)s[LQ_CG_ALPHA];
    red[l] = lq_poisson_update_dot_item(x, r, d, q, alpha, list, g, l, span, n);
    LQ_POISSON_TREE
}

kernel void poisson_direction_list_s(global const float *z, global float *d,
                                     global const lq_cg_real *s, global const int *list, int n)
{
    int t = get_global_id(0);
    if (t >= n || s[LQ_CG_STATE] != LQ_CG_RUN) return;
    lq_poisson_cg_direction_cell(z, d, (float)s[LQ_CG_BETA], list[t]);
}
