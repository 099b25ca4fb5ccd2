/*
 * test_plssource_ops.c — the pls solver's sources and sinks (host/ops/pls/plssource.h):
 *  1. reference twin vs OpenCL (PoCL in CI) on random regions, tables, φ, objects and
 *     particles, 3D and 2D: the cells pass (φ, the solid field, the outlets' fixed-point
 *     removal), the held faces, the killed particles and the inlets' contents must agree
 *     bit for bit ("plssource.*" in host/core/tolerance.c);
 *  2. independent checks of a scene read (reference path): a 2×2×2-cell box inlet has 8
 *     cells, 4 h² of open face on each side, distance −h/2 in its cells, h/2 beside them,
 *     √½ h diagonally, none beyond the band; its flow sets the speed (flow / 4 h²) on the
 *     faces it leaves through and inside it, 0 on the others; it fills its cells, its
 *     content is their volume, and the flux held is what the next step delivers; a box
 *     outlet two rows deep removes exactly those rows' volume (the fixed-point sum equals
 *     the volume measure's difference) and kills the liquid particles in it, not the air
 *     ones; the inlet kills the air particles in it; a level outlet leaves a pool at its
 *     level, removing exactly the liquid above.
 */
#include <unistd.h>

#include "ops/pls/plssource.h"
#include "lib/twin.h"
#include "scene/config.h"

static float frand(lq_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)lq_rng_uniform(r);
}

/* Random regions and a table of 6 items (3 inlets, a shape outlet, a level, an idle
 * outlet) into both objects. */
static void random_items(lq_rng *r, lq_plssource_ops *oa, lq_plssource_ops *ob)
{
    int nx = oa->nx, ny = oa->ny, nz = oa->nz;
    size_t nc = (size_t)nx * ny * nz;
    float h = oa->h;
    int *rid = malloc(nc * sizeof *rid);
    float *ed = malloc(nc * 4), *sd = malloc(nc * 4);
    for (size_t c = 0; c < nc; c++) {
        int e = lq_rng_uniform(r) < 0.5 ? (int)(lq_rng_uniform(r) * 3) + 1 : 0;
        int k = lq_rng_uniform(r) < 0.3 ? (int)(lq_rng_uniform(r) * 2) + 1 : 0;
        rid[c] = e | k << 8;
        ed[c] = frand(r, -2 * h, 3 * h);
        sd[c] = frand(r, -2 * h, 3 * h);
    }
    float *tab = oa->tab_host;
    memset(tab, 0, sizeof oa->tab_host);
    for (int i = 0; i < 6; i++) {
        float *row = tab + i * LQ_PLSSOURCE_STRIDE;
        row[LQ_PLSSOURCE_KIND] = i < 3    ? LQ_PLSSOURCE_INLET
                                 : i == 4 ? LQ_PLSSOURCE_LEVELK
                                          : LQ_PLSSOURCE_OUTLET;
        row[LQ_PLSSOURCE_MODE] = i == 1 || i == 5 ? LQ_PLSSOURCE_IDLE : LQ_PLSSOURCE_ACT;
        for (int a = 0; a < 3; a++) row[LQ_PLSSOURCE_VEL + a] = i < 3 ? frand(r, -2, 2) : 0;
        row[LQ_PLSSOURCE_LEVEL] = i == 4 ? 0.4f * ny * h : 0;
    }
    memcpy(ob->tab_host, tab, sizeof ob->tab_host);
    lq_plssource_ops *os[2] = {oa, ob};
    for (int q = 0; q < 2; q++) {
        os[q]->n = 6;
        CHECK_OK(lq_field_upload(&os[q]->rid, rid));
        CHECK_OK(lq_field_upload(&os[q]->ed, ed));
        CHECK_OK(lq_field_upload(&os[q]->sd, sd));
        CHECK_OK(lq_plssource_table(os[q]));
    }
    free(rid);
    free(ed);
    free(sd);
}

/* Two ops-owned fields compared byte for byte. */
static void same_field(const char *what, const lq_field *a, const lq_field *b)
{
    size_t n = lq_field_bytes(a);
    unsigned char *x = malloc(n), *y = malloc(n);
    CHECK_OK(lq_field_download(a, x));
    CHECK_OK(lq_field_download(b, y));
    fprintf(stderr, "  %-18s %s\n", what, memcmp(x, y, n) ? "differs" : "same");
    CHECK_MSG(memcmp(x, y, n) == 0, "%s", what);
    free(x);
    free(y);
}

static void test_twins(int nx, int ny, int nz, uint64_t seed)
{
    fprintf(stderr, "twins %dx%dx%d:\n", nx, ny, nz);
    lq_ctx ref, cl;
    if (twin_open(&ref, &cl)) {
        CHECK(0);
        return;
    }
    lq_rng r;
    lq_rng_seed(&r, seed);
    float h = 0.05f;
    size_t nc = (size_t)nx * ny * nz, nu = (size_t)(nx + 1) * ny * nz,
           nv = (size_t)nx * (ny + 1) * nz, nw = (size_t)nx * ny * (nz + 1);
    int np = 3001;
    float *u = malloc(nu * 4), *v = malloc(nv * 4), *w = malloc(nw * 4), *phi = malloc(nc * 4),
          *sdf = malloc(nc * 4), *part = malloc((size_t)np * 4 * 4);
    for (size_t i = 0; i < nu; i++) u[i] = frand(&r, -1, 1);
    for (size_t i = 0; i < nv; i++) v[i] = frand(&r, -1, 1);
    for (size_t i = 0; i < nw; i++) w[i] = frand(&r, -1, 1);
    for (size_t c = 0; c < nc; c++) phi[c] = frand(&r, -3 * h, 3 * h);
    for (size_t c = 0; c < nc; c++) sdf[c] = frand(&r, -h, 5 * h);
    float L[3] = {nx * h, ny * h, nz * h};
    for (int p = 0; p < np; p++) {
        for (int a = 0; a < 3; a++) part[4 * p + a] = frand(&r, 0, L[a]);
        float s = lq_rng_uniform(&r) < 0.5 ? -1.0f : 1.0f;
        part[4 * p + 3] = p % 97 == 0 ? 0.0f : s * frand(&r, 0.1f * h, 0.5f * h);
    }
    twin_pair U, V, W, P, S, Q;
    CHECK_OK(twin_alloc(&U, &ref, &cl, "u", nx + 1, ny, nz, 4, u));
    CHECK_OK(twin_alloc(&V, &ref, &cl, "v", nx, ny + 1, nz, 4, v));
    CHECK_OK(twin_alloc(&W, &ref, &cl, "w", nx, ny, nz + 1, 4, w));
    CHECK_OK(twin_alloc(&P, &ref, &cl, "phi", nx, ny, nz, 4, phi));
    CHECK_OK(twin_alloc(&S, &ref, &cl, "sdf", nx, ny, nz, 4, sdf));
    CHECK_OK(twin_alloc(&Q, &ref, &cl, "part", np * 4, 1, 1, 4, part));
    lq_plssource_ops oa, ob;
    CHECK_OK(lq_plssource_ops_init(&oa, &ref, nx, ny, nz, h, true));
    CHECK_OK(lq_plssource_ops_init(&ob, &cl, nx, ny, nz, h, true));
    random_items(&r, &oa, &ob);
    for (int with = 0; with < 2; with++) {
        CHECK_OK(lq_plssource_cells(&oa, &P.ref, with ? &S.ref : NULL));
        CHECK_OK(lq_plssource_cells(&ob, &P.cl, with ? &S.cl : NULL));
        twin_check_exact("plssource.cells", &P);
        same_field("plssource.cells solid", &oa.solid, &ob.solid);
    }
    double sa, sb;
    CHECK_OK(lq_plssource_sunk(&oa, &sa));
    CHECK_OK(lq_plssource_sunk(&ob, &sb));
    fprintf(stderr, "  plssource.cells    removed %.9g vs %.9g m³\n", sa, sb);
    CHECK(sa == sb && sa > 0);
    CHECK_OK(lq_plssource_faces(&oa, &U.ref, &V.ref, &W.ref));
    CHECK_OK(lq_plssource_faces(&ob, &U.cl, &V.cl, &W.cl));
    twin_check_exact("plssource.faces", &U);
    twin_check_exact("plssource.faces", &V);
    twin_check_exact("plssource.faces", &W);
    CHECK_OK(lq_plssource_kill(&oa, &Q.ref, np));
    CHECK_OK(lq_plssource_kill(&ob, &Q.cl, np));
    twin_check_exact("plssource.kill", &Q);
    double ca[LQ_PLSSOURCE_MAX], cb[LQ_PLSSOURCE_MAX];
    CHECK_OK(lq_plssource_content(&oa, &P.ref, ca));
    CHECK_OK(lq_plssource_content(&ob, &P.cl, cb));
    fprintf(stderr, "  plssource.content  %.9g %.9g %.9g vs %.9g %.9g %.9g m³\n", ca[0], ca[1],
            ca[2], cb[0], cb[1], cb[2]);
    CHECK(memcmp(ca, cb, sizeof ca) == 0 && ca[0] > 0);
    lq_plssource_ops_release(&oa);
    lq_plssource_ops_release(&ob);
    twin_pair *ps[] = {&U, &V, &W, &P, &S, &Q};
    for (int i = 0; i < 6; i++) twin_release(ps[i]);
    free(u);
    free(v);
    free(w);
    free(phi);
    free(sdf);
    free(part);
    lq_ctx_close(&ref);
    lq_ctx_close(&cl);
}

/* --- a scene read --------------------------------------------------------------------- */

#define N 8
#define H 0.125

/* A box inlet of cells (3-4, 5-6, 3-4) pouring down at flow 0.01 m³/s, a box outlet of
 * rows 0-1; 8³ cells of 1/8 m. */
static const char *const scene_text =
    "solver: pls\n"
    "grid: {size: [8, 8, 8], cell: 0.125}\n"
    "liquid: [{level: 0.5}]\n"
    "sources:\n"
    "  - inlet: {min: [0.4, 0.65, 0.4], max: [0.6, 0.85, 0.6], velocity: [0, -2, 0],\n"
    "            flow: 0.01, start: 0, stop: 1}\n"
    "  - outlet: {min: [0, 0, 0], max: [1, 0.2, 1]}\n";

static lq_config *load_scene(const char *text)
{
    char path[] = "/tmp/lq_plssource_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    lq_config *cfg = lq_config_load(path, 0, NULL);
    CHECK_MSG(cfg != NULL, "%s", lq_error_message());
    unlink(path);
    return cfg;
}

static double frac_sum(const float *phi, size_t n)
{
    double s = 0;
    for (size_t c = 0; c < n; c++) s += fmin(fmax(0.5 - phi[c] / H, 0.0), 1.0);
    return s;
}

/* The read regions: counts, open faces, distances. */
static void check_read(const lq_plssource_set *set)
{
    const lq_plssource_item *in = &set->item[0];
    double f = H * H;
    fprintf(stderr, "read: inlet %d cells, open %g %g %g %g %g %g (h² %g), area %g\n", in->cells,
            in->open[0], in->open[1], in->open[2], in->open[3], in->open[4], in->open[5], f,
            in->area);
    CHECK(set->n == 2 && set->inlets && in->kind == LQ_PLSSOURCE_ITEM_INLET && in->cells == 8);
    for (int s = 0; s < 6; s++) CHECK_NEAR(in->open[s], 4 * f, 1e-15);
    CHECK_NEAR(in->area, 4 * f, 1e-15);
    CHECK(set->item[1].kind == LQ_PLSSOURCE_ITEM_OUTLET && set->item[1].cells == 2 * N * N);
    int c_in = LQ_MAC_CELL(3, 5, 3, N, N), c_below = LQ_MAC_CELL(3, 4, 3, N, N),
        c_diag = LQ_MAC_CELL(2, 4, 3, N, N), c_band = LQ_MAC_CELL(3, 2, 3, N, N),
        c_far = LQ_MAC_CELL(3, 1, 3, N, N);
    CHECK((set->rid[c_in] & 0xff) == 1 && set->ed[c_in] == (float)(-0.5 * H));
    CHECK((set->rid[c_below] & 0xff) == 1 && set->ed[c_below] == (float)(0.5 * H));
    CHECK_NEAR(set->ed[c_diag], sqrt(0.5) * H, 1e-7);
    CHECK((set->rid[c_band] & 0xff) == 1 && set->ed[c_band] == (float)(2.5 * H));
    CHECK((set->rid[c_far] & 0xff) == 0 && ((set->rid[c_far] >> 8) & 0xff) == 2);
    CHECK(set->sd[c_far] == (float)(-0.5 * H) && set->sd[LQ_MAC_CELL(0, 0, 0, N, N)] < 0);
}

/* The held faces after the first stage: speed flow / 4 h² out of the bottom and inside. */
static void check_faces(const lq_field *u, const lq_field *v, double speed)
{
    const float *V = v->host, *U = u->host;
    int bad = 0;
    for (int k = 0; k < N; k++)
        for (int j = 0; j <= N; j++)
            for (int i = 0; i < N; i++) {
                bool col = i >= 3 && i <= 4 && k >= 3 && k <= 4;
                float want = col && (j == 5 || j == 6) ? (float)-speed : 0.0f;
                bad += V[LQ_MAC_V(i, j, k, N, N)] != want;
            }
    for (size_t f = 0; f < u->count; f++) bad += U[f] != 0.0f;
    CHECK_MSG(bad == 0, "%d faces wrong", bad);
}

static void test_read(void)
{
    fprintf(stderr, "scene read and stage (reference):\n");
    lq_config *cfg = load_scene(scene_text);
    if (!cfg) return;
    lq_plssource_set set;
    double origin[3] = {0, 0, 0};
    CHECK_OK(lq_plssource_read(cfg, N, N, N, (float)H, origin, NULL, &set));
    check_read(&set);
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    lq_plssource_ops o;
    CHECK_OK(lq_plssource_ops_init(&o, &ctx, N, N, N, (float)H, true));
    CHECK_OK(lq_plssource_add(&o, &set));
    lq_plssource_set_free(&set);
    lq_field u, v, w, phi, part;
    CHECK_OK(lq_field_alloc(&ctx, &u, "u", N + 1, N, N, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v, "v", N, N + 1, N, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w, "w", N, N, N + 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &phi, "phi", N, N, N, 4));
    CHECK_OK(lq_field_alloc(&ctx, &part, "part", 4 * 4, 1, 1, 4));
    float *P = phi.host, *Q = part.host;
    size_t nc = (size_t)N * N * N;
    for (int k = 0; k < N; k++) /* liquid up to 4 rows (0.5 m) */
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++)
                P[LQ_MAC_CELL(i, j, k, N, N)] = (float)((j + 0.5) * H - 0.5);
    /* particles: liquid and air in the outlet, air and liquid in the inlet */
    float pp[4][4] = {{0.5f, 0.1f, 0.5f, -0.02f},
                      {0.5f, 0.15f, 0.5f, 0.02f},
                      {0.45f, 0.7f, 0.45f, 0.02f},
                      {0.45f, 0.7f, 0.55f, -0.02f}};
    memcpy(Q, pp, sizeof pp);
    double before = frac_sum(P, nc);
    CHECK_OK(lq_plssource_step(&o, 0, 0, &phi, &u, &v, &w, &part, 4, NULL));
    double speed = 0.01 / (4 * H * H), sunk;
    check_faces(&u, &v, speed);
    CHECK(P[LQ_MAC_CELL(3, 5, 3, N, N)] == (float)(-0.5 * H));
    CHECK_OK(lq_plssource_sunk(&o, &sunk));
    double want = 2 * N * N * H * H * H, after = frac_sum(P, nc);
    fprintf(stderr, "  outlet removed %.9g m³ (2 rows: %.9g), volume measure %.9g\n", sunk, want,
            (before + 8 - after) * H * H * H);
    CHECK(sunk == want);
    CHECK_NEAR((before + 8 - after) * H * H * H, sunk, 1e-12); /* +8: the inlet's cells filled */
    CHECK(Q[3] == 0.0f && Q[7] != 0.0f && Q[11] == 0.0f && Q[15] != 0.0f);
    CHECK(o.item[0].state == LQ_PLSSOURCE_OPEN && o.item[0].c_on == 0 && o.item[0].flux == 0.01);
    /* the next step delivers what the faces held */
    CHECK_OK(lq_plssource_step(&o, 0, 0.1, &phi, &u, &v, &w, &part, 4, NULL));
    double src, snk;
    CHECK_OK(lq_plssource_totals(&o, &phi, &src, &snk));
    fprintf(stderr, "  source %.9g m³ (content 8 h³ + 0.01 × 0.1), sink %.9g\n", src, snk);
    CHECK_NEAR(src, 8 * H * H * H + 0.001, 1e-12);
    CHECK(snk == want); /* nothing moved into the outlet since */
    lq_field *fs[] = {&u, &v, &w, &phi, &part};
    for (int i = 0; i < 5; i++) lq_field_release(fs[i]);
    lq_plssource_ops_release(&o);
    lq_ctx_close(&ctx);
    lq_config_free(cfg);
}

/* A level outlet at 0.3 m on a pool 0.5 m deep: the pool ends at 0.3 m. */
static void test_level(void)
{
    lq_config *cfg = load_scene("solver: pls\n"
                                "grid: {size: [8, 8, 1], cell: 0.125}\n"
                                "liquid: [{level: 0.5}]\n"
                                "sources: [{outlet: {level: 0.3}}]\n");
    if (!cfg) return;
    lq_plssource_set set;
    double origin[3] = {0, 0, 0};
    CHECK_OK(lq_plssource_read(cfg, N, N, 1, (float)H, origin, NULL, &set));
    lq_ctx ctx;
    CHECK_OK(lq_ctx_open(&ctx, "ref", false));
    lq_plssource_ops o;
    CHECK_OK(lq_plssource_ops_init(&o, &ctx, N, N, 1, (float)H, false));
    CHECK_OK(lq_plssource_add(&o, &set));
    lq_plssource_set_free(&set);
    lq_field phi, u, v, w, part;
    CHECK_OK(lq_field_alloc(&ctx, &u, "u", N + 1, N, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &v, "v", N, N + 1, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &w, "w", N, N, 2, 4));
    CHECK_OK(lq_field_alloc(&ctx, &phi, "phi", N, N, 1, 4));
    CHECK_OK(lq_field_alloc(&ctx, &part, "part", 4, 1, 1, 4));
    float *P = phi.host;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) P[LQ_MAC_CELL(i, j, 0, N, N)] = (float)((j + 0.5) * H - 0.5);
    double before = frac_sum(P, N * N), sunk;
    CHECK_OK(lq_plssource_step(&o, 0, 0, &phi, &u, &v, &w, &part, 0, NULL));
    CHECK_OK(lq_plssource_sunk(&o, &sunk));
    double after = frac_sum(P, N * N);
    fprintf(stderr, "level outlet: pool %.6f m deep (want 0.3), removed %.9g m² (want %.9g)\n",
            after * H / N, sunk, 0.2 * N * H);
    CHECK_NEAR(after * H / N, 0.3, 1e-6);
    CHECK_NEAR(sunk, (before - after) * H * H, 1e-12);
    lq_field *fs[] = {&u, &v, &w, &phi, &part};
    for (int i = 0; i < 5; i++) lq_field_release(fs[i]);
    lq_plssource_ops_release(&o);
    lq_ctx_close(&ctx);
    lq_config_free(cfg);
}

int main(void)
{
    (void)twin_check_float;
    test_twins(19, 13, 11, 2026);
    test_twins(23, 17, 1, 11);
    test_read();
    test_level();
    CHECK_DONE();
}
