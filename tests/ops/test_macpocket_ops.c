/*
 * test_macpocket_ops.c — `mac`'s sealed air pockets (host/ops/mac/macpocket.h,
 * kernels/mac/macpocket_cell.h): reference twin vs OpenCL (PoCL in CI) on random cell
 * kinds (air dense enough to form many components, solids to wall them in, outflow cells,
 * surface cells with random marker counts), 3D and 2D, sizes that are no multiple of the
 * block, each `up` direction: the labels, the open roots, the tallies, the counts and the
 * pressures the apply pass writes (random gauges, prep flags, table and p) must agree bit
 * for bit ("macpocket.*" in host/core/tolerance.c); and the pocket cells must equal an
 * independent breadth-first flood fill on the host (a component is open when one of its
 * cells lies in the top layer toward `up` or borders an OUTFLOW cell).
 */
#include "ops/mac/macpocket.h"
#include "lib/twin.h"

/* The host's flood fill: per cell 1 when it is a pocket's EMPTY cell; returns their number,
 * *npk the pockets. */
static int flood(const unsigned char *fl, int up, int nx, int ny, int nz, int *pocket, int *npk)
{
    int nc = nx * ny * nz, *queue = malloc((size_t)nc * sizeof *queue), cells = 0;
    int *seen = calloc((size_t)nc, sizeof *seen);
    *npk = 0;
    for (int c = 0; c < nc; c++) pocket[c] = 0;
    for (int c0 = 0; c0 < nc; c0++) {
        if (fl[c0] != LQ_MAC_EMPTY || seen[c0]) continue;
        int head = 0, tail = 0, open = 0;
        queue[tail++] = c0;
        seen[c0] = 1;
        while (head < tail) {
            int c = queue[head++], i = c % nx, j = (c / nx) % ny, k = c / (nx * ny);
            open |= lq_macpocket_open(fl, up, i, j, k, nx, ny, nz);
            for (int d = 0; d < (nz > 1 ? 6 : 4); d++) {
                int q = lq_macpocket_neighbour(i, j, k, d, nx, ny, nz);
                if (q >= 0 && !seen[q] && fl[q] == LQ_MAC_EMPTY) {
                    seen[q] = 1;
                    queue[tail++] = q;
                }
            }
        }
        if (open) continue;
        for (int t = 0; t < tail; t++) pocket[queue[t]] = 1;
        cells += tail;
        ++*npk;
    }
    free(queue);
    free(seen);
    return cells;
}

static void same_fields(const char *op, const lq_field *a, const lq_field *b)
{
    size_t bytes = lq_field_bytes(a), bad = 0;
    unsigned char *x = malloc(bytes), *y = malloc(bytes);
    CHECK_OK(lq_field_download(a, x));
    CHECK_OK(lq_field_download(b, y));
    for (size_t i = 0; i < bytes; i += a->elem) bad += memcmp(x + i, y + i, a->elem) != 0;
    fprintf(stderr, "  %-18s %-8s %zu of %zu elements differ\n", op, a->name, bad, a->count);
    CHECK_MSG(bad == 0 && lq_tolerance_get(op) != NULL, "%s field %s: %zu differ", op, a->name,
              bad);
    free(x);
    free(y);
}

static void test_twins(int nx, int ny, int nz, int up, double air, uint64_t seed)
{
    fprintf(stderr, "twins %dx%dx%d, up %d, %.0f %% air:\n", nx, ny, nz, up, 100 * air);
    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) {
        CHECK(0);
        return;
    }
    lq_rng r;
    lq_rng_seed(&r, seed);
    int per_cell = nz > 1 ? 8 : 4;
    size_t nc = (size_t)nx * ny * nz, nt = (size_t)LQ_PRESSURE_ST * (per_cell + 1);
    unsigned char *fl = malloc(nc), *pf = malloc(nc);
    int *cnt = malloc(nc * 4), *pocket = malloc(nc * sizeof *pocket), npk;
    float *p = malloc(nc * 4), *gauge = malloc(nc * 4), *table = malloc(nt * 4);
    for (size_t c = 0; c < nc; c++) {
        double u = lq_rng_uniform(&r);
        fl[c] = u < air          ? LQ_MAC_EMPTY
                : u < air + 0.15 ? LQ_MAC_SOLID
                : u < air + 0.17 ? LQ_MAC_OUTFLOW
                : u < air + 0.40 ? LQ_MAC_SURFACE
                                 : LQ_MAC_FULL;
        pf[c] = fl[c] == LQ_MAC_SURFACE && lq_rng_uniform(&r) < 0.5 ? LQ_MAC_FULL : fl[c];
        cnt[c] = (int)(lq_rng_u32(&r) % (uint32_t)(per_cell + 3)) - 1;
        p[c] = (float)(lq_rng_uniform(&r) * 8 - 4);
        gauge[c] = (float)(lq_rng_uniform(&r) * 20 - 5);
    }
    for (size_t q = 0; q < nt; q++) table[q] = (float)(lq_rng_uniform(&r) * 4 - 2);
    for (int m = 0; m <= per_cell; m++) { /* relaxed and line-from-F switches: 0 or 1 */
        table[LQ_PRESSURE_ST * m + 2] = (float)(lq_rng_u32(&r) & 1);
        table[LQ_PRESSURE_ST * m + 3] = (float)(lq_rng_u32(&r) & 1);
        table[LQ_PRESSURE_ST * m + 5] = fabsf(table[LQ_PRESSURE_ST * m + 5]);
    }
    int cells = flood(fl, up, nx, ny, nz, pocket, &npk);
    twin_pair F, PF, C, P, T;
    CHECK_OK(twin_alloc(&F, &ref, &cl, "flags", nx, ny, nz, 1, fl));
    CHECK_OK(twin_alloc(&PF, &ref, &cl, "pflags", nx, ny, nz, 1, pf));
    CHECK_OK(twin_alloc(&C, &ref, &cl, "count", nx, ny, nz, 4, cnt));
    CHECK_OK(twin_alloc(&P, &ref, &cl, "p", nx, ny, nz, 4, p));
    CHECK_OK(twin_alloc(&T, &ref, &cl, "table", (int)nt, 1, 1, 4, table));
    lq_macpocket_ops oa, ob;
    CHECK_OK(lq_macpocket_ops_init(&oa, &ref, nx, ny, nz));
    CHECK_OK(lq_macpocket_ops_init(&ob, &cl, nx, ny, nz));
    CHECK_OK(lq_macpocket_find(&oa, &F.ref, &C.ref, per_cell, up));
    CHECK_OK(lq_macpocket_find(&ob, &F.cl, &C.cl, per_cell, up));
    fprintf(stderr,
            "  flood fill: %d pocket cells in %d pockets; ref %d in %d (%d rounds), OpenCL %d in "
            "%d (%d rounds), %d open cells\n",
            cells, npk, oa.sealed, oa.pockets, oa.rounds, ob.sealed, ob.pockets, ob.rounds,
            ob.open);
    CHECK(cells > 0 && npk > 1);
    CHECK(oa.sealed == cells && ob.sealed == cells && oa.pockets == npk && ob.pockets == npk);
    CHECK(oa.open == ob.open && oa.open > 0);
    same_fields("macpocket.find", &oa.lab, &ob.lab);
    same_fields("macpocket.find", &oa.vol, &ob.vol);
    /* the labels' pocket cells against the flood fill */
    int *lab = malloc(nc * 4), bad = 0;
    CHECK_OK(lq_field_download(&oa.lab, lab));
    for (size_t c = 0; c < nc; c++)
        bad += (fl[c] == LQ_MAC_EMPTY && lq_plspocket_in(lab, (int)c)) != pocket[c];
    CHECK_MSG(bad == 0, "%d cells differ from the flood fill", bad);
    CHECK_OK(lq_field_upload(&oa.gauge, gauge));
    CHECK_OK(lq_field_upload(&ob.gauge, gauge));
    CHECK_OK(lq_macpocket_apply(&oa, &F.ref, &PF.ref, &C.ref, &T.ref, per_cell, &P.ref));
    CHECK_OK(lq_macpocket_apply(&ob, &F.cl, &PF.cl, &C.cl, &T.cl, per_cell, &P.cl));
    twin_check_exact("macpocket.apply", &P);
    twin_check_float("macpocket.apply", &P);
    float *pa = malloc(nc * 4);
    CHECK_OK(lq_field_download(&P.ref, pa));
    int changed = 0;
    for (size_t c = 0; c < nc; c++) changed += memcmp(&pa[c], &p[c], 4) != 0;
    fprintf(stderr, "  apply changed %d cells\n", changed);
    CHECK(changed > 0);
    free(pa);
    free(lab);
    lq_macpocket_ops_release(&oa);
    lq_macpocket_ops_release(&ob);
    twin_pair *ps[] = {&F, &PF, &C, &P, &T};
    for (size_t i = 0; i < 5; i++) twin_release(ps[i]);
    free(fl);
    free(pf);
    free(cnt);
    free(pocket);
    free(p);
    free(gauge);
    free(table);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
}

int main(void)
{
    test_twins(21, 19, 17, LQ_MAC_NY_PLUS, 0.35, 1);
    test_twins(37, 29, 1, LQ_MAC_NY_PLUS, 0.4, 2);
    test_twins(13, 22, 18, LQ_MAC_NX_MINUS, 0.35, 3);
    test_twins(18, 12, 25, LQ_MAC_NZ_PLUS, 0.3, 4);
    CHECK_DONE();
}
