/*
 * test_mac_surface.c — the free-surface operations of the `mac` solver
 * (host/ops/mac/macsurface.h; Gates 2001, Foster & Metaxas 1996 §3.2.3, §7.2):
 *  1. the table (kernels/mac/macsurface_cell.h) against the rule derived again here from the
 *     open faces: one-open axes close an equal share, open pairs take the body force,
 *     corners copy, all six open move by body force only; configuration counts per
 *     class (6, 15, 20, 15, 6, 1);
 *  2. all 63 configurations (VALIDATION.md, `mac`): 64 isolated SURFACE cells in one
 *     grid, one per mask, neighbours EMPTY per the mask and FULL otherwise, for several
 *     random non-uniform δx δy δz and random face velocities: classify finds each mask;
 *     after apply the cell's divergence is zero to 1e-6 relative (mask 63: every face
 *     moved by g δt only), each open face follows its rule (copies, equal shares, pair
 *     means moved by g δt), every other face is untouched;
 *  3. a random 3D state with many SURFACE cells sharing faces and a 2D (nz = 1) one:
 *     masks against a direct count, divergence zero in every SURFACE cell after the
 *     single unordered pass (a cell hanging from a SOLID cell, EMPTY below: x and z
 *     closed by the rule of the mask without −y, the −y face min(its value, continuity,
 *     0); some must occur), faces away from EMPTY cells untouched, the pressure of
 *     eq. 17–19 against the formula in double;
 *  in 2 and 3, reference twin vs OpenCL (PoCL in CI) for classify, apply and pressure
 *  with the tolerances of host/core/tolerance.c ("mac_surface.<op>");
 *  4. bad input: one line and LQ_EINPUT on both backends.
 */
#include "ops/mac/macsurface.h"
#include "lib/twin.h"

#define REL 1e-6 /* VALIDATION.md: divergence zero to 1e-6 relative */

static float frand(lq_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)lq_rng_uniform(r);
}

/* --- a grid state on the host --------------------------------------------------- */

typedef struct grid {
    int nx, ny, nz;
    size_t nc, nu, nv, nw;
    unsigned char *flags, *mask;
    float *u, *v, *w, *p;
} grid;

static void grid_alloc(grid *g, int nx, int ny, int nz)
{
    memset(g, 0, sizeof *g);
    g->nx = nx;
    g->ny = ny;
    g->nz = nz;
    g->nc = (size_t)nx * ny * nz;
    g->nu = (size_t)(nx + 1) * ny * nz;
    g->nv = (size_t)nx * (ny + 1) * nz;
    g->nw = (size_t)nx * ny * (nz + 1);
    g->flags = calloc(g->nc, 1);
    g->mask = calloc(g->nc, 1);
    g->u = calloc(g->nu, sizeof(float));
    g->v = calloc(g->nv, sizeof(float));
    g->w = calloc(g->nw, sizeof(float));
    g->p = calloc(g->nc, sizeof(float));
    if (!g->flags || !g->mask || !g->u || !g->v || !g->w || !g->p) abort();
}

static void grid_free(grid *g)
{
    free(g->flags);
    free(g->mask);
    free(g->u);
    free(g->v);
    free(g->w);
    free(g->p);
}

static void grid_copy(grid *dst, const grid *src)
{
    grid_alloc(dst, src->nx, src->ny, src->nz);
    memcpy(dst->flags, src->flags, src->nc);
    memcpy(dst->mask, src->mask, src->nc);
    memcpy(dst->u, src->u, src->nu * sizeof(float));
    memcpy(dst->v, src->v, src->nv * sizeof(float));
    memcpy(dst->w, src->w, src->nw * sizeof(float));
    memcpy(dst->p, src->p, src->nc * sizeof(float));
}

static void random_faces(grid *g, lq_rng *r, float amp)
{
    for (size_t n = 0; n < g->nu; n++) g->u[n] = frand(r, -amp, amp);
    for (size_t n = 0; n < g->nv; n++) g->v[n] = frand(r, -amp, amp);
    for (size_t n = 0; n < g->nw; n++) g->w[n] = frand(r, -amp, amp);
    for (size_t n = 0; n < g->nc; n++) g->p[n] = frand(r, -5.0f, 5.0f);
}

/* Face n (neighbour order) of cell (i, j, k): its array and index. */
static float *face(const grid *g, int i, int j, int k, int n, size_t *at)
{
    int nx = g->nx, ny = g->ny;
    size_t idx;
    float *a;
    switch (n >> 1) {
    case 0:
        idx = (size_t)LQ_MAC_U(i, j, k, nx, ny) + (n & 1);
        a = g->u;
        break;
    case 1:
        idx = (size_t)LQ_MAC_V(i, j, k, nx, ny) + (size_t)(n & 1) * nx;
        a = g->v;
        break;
    default:
        idx = (size_t)LQ_MAC_W(i, j, k, nx, ny) + (size_t)(n & 1) * nx * ny;
        a = g->w;
        break;
    }
    if (at) *at = idx;
    return a + idx;
}

/* Contribution of axis a to the divergence of cell (i, j, k), in double. */
static double axis_div(const grid *g, int i, int j, int k, int a, const float h[3])
{
    return ((double)*face(g, i, j, k, 2 * a + 1, NULL) - (double)*face(g, i, j, k, 2 * a, NULL)) /
           (double)h[a];
}

/* The scale the divergence is relative to: Σ (|f_lo| + |f_hi|) / δ. */
static double div_scale(const grid *g, int i, int j, int k, const float h[3])
{
    double s = 0.0;
    for (int n = 0; n < 6; n++) s += fabs((double)*face(g, i, j, k, n, NULL)) / (double)h[n >> 1];
    return s;
}

static double cell_div(const grid *g, int i, int j, int k, const float h[3])
{
    return axis_div(g, i, j, k, 0, h) + axis_div(g, i, j, k, 1, h) + axis_div(g, i, j, k, 2, h);
}

/* The mask counted directly (outside the grid: a wall). */
static int direct_mask(const grid *g, int i, int j, int k)
{
    int d[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}}, m = 0;
    for (int n = 0; n < 6; n++) {
        int a = i + d[n][0], b = j + d[n][1], c = k + d[n][2];
        if (a < 0 || b < 0 || c < 0 || a >= g->nx || b >= g->ny || c >= g->nz) continue;
        if (g->flags[LQ_MAC_CELL(a, b, c, g->nx, g->ny)] == LQ_MAC_EMPTY) m |= 1 << n;
    }
    return m;
}

/* Is SURFACE cell (i, j, k) with mask m hanging from a ceiling: EMPTY below it, a SOLID
 * cell or the grid's top above it? */
static int direct_hanging(const grid *g, int i, int j, int k, int m)
{
    if (!(m & (1 << LQ_MAC_NY_MINUS))) return 0;
    return j == g->ny - 1 || g->flags[LQ_MAC_CELL(i, j + 1, k, g->nx, g->ny)] == LQ_MAC_SOLID;
}

/* --- 1. the table against the rule ---------------------------------------------- */

/* The rule, from the open faces alone (the header's derivation, written again). */
static void derive_rule(int m, unsigned char act[6], float *share)
{
    int o1 = 0, o2 = 0;
    for (int a = 0; a < 3; a++) {
        int open = ((m >> (2 * a)) & 1) + ((m >> (2 * a + 1)) & 1);
        o1 += open == 1;
        o2 += open == 2;
    }
    *share = 0.0f;
    for (int n = 0; n < 6; n++) {
        int a = n >> 1, open = (m >> n) & 1;
        int pair = ((m >> (2 * a)) & 3) == 3;
        if (!open)
            act[n] = LQ_MACSURFACE_KEEP;
        else if (o2 == 3)
            act[n] = LQ_MACSURFACE_BODY;
        else if (o1 == 3)
            act[n] = LQ_MACSURFACE_COPY;
        else if (o1 > 0)
            act[n] = pair ? LQ_MACSURFACE_BODY : LQ_MACSURFACE_CLOSE;
        else
            act[n] = LQ_MACSURFACE_BODY_CLOSE;
    }
    if (o1 == 1 || o1 == 2) *share = 1.0f / (float)o1;
    if (o1 == 0 && (o2 == 1 || o2 == 2)) *share = 1.0f / (float)(2 * o2);
}

static void test_table(void)
{
    int per_count[7] = {0};
    int bad = 0;
    for (int m = 0; m < 64; m++) {
        unsigned char act[6];
        float share;
        derive_rule(m, act, &share);
        const lq_macsurface_rule *r = &lq_macsurface_rules[m];
        int same = memcmp(act, r->face, 6) == 0 && share == r->share;
        if (!same) bad++;
        CHECK_MSG(same,
                  "mask %d (NF_%d%d%d%d%d%d): table {%d %d %d %d %d %d} share %g, rule "
                  "{%d %d %d %d %d %d} share %g",
                  m, m & 1, m >> 1 & 1, m >> 2 & 1, m >> 3 & 1, m >> 4 & 1, m >> 5 & 1, r->face[0],
                  r->face[1], r->face[2], r->face[3], r->face[4], r->face[5], (double)r->share,
                  act[0], act[1], act[2], act[3], act[4], act[5], (double)share);
        int open = 0;
        for (int n = 0; n < 6; n++) open += (m >> n) & 1;
        per_count[open]++;
    }
    int gates[7] = {1, 6, 15, 20, 15, 6, 1};
    for (int n = 0; n < 7; n++) CHECK(per_count[n] == gates[n]);
    fprintf(stderr, "  table: %d of 64 rows differ from the rule\n", bad);
}

/* --- twins: one grid on both backends --------------------------------------------- */

typedef struct twins {
    lq_ctx *ref, *cl;
    lq_macsurface_ops ro, co;
    twin_pair flags, mask, u, v, w, p;
} twins;

static int twins_open(twins *t, lq_ctx *ref, lq_ctx *cl, const grid *g)
{
    memset(t, 0, sizeof *t);
    t->ref = ref;
    t->cl = cl;
    int nx = g->nx, ny = g->ny, nz = g->nz;
    int rc = lq_macsurface_ops_init(&t->ro, ref, nx, ny, nz);
    if (!rc) rc = lq_macsurface_ops_init(&t->co, cl, nx, ny, nz);
    if (!rc) rc = twin_alloc(&t->flags, ref, cl, "flags", nx, ny, nz, 1, g->flags);
    if (!rc) rc = twin_alloc(&t->mask, ref, cl, "mask", nx, ny, nz, 1, g->mask);
    if (!rc) rc = twin_alloc(&t->u, ref, cl, "u", nx + 1, ny, nz, 4, g->u);
    if (!rc) rc = twin_alloc(&t->v, ref, cl, "v", nx, ny + 1, nz, 4, g->v);
    if (!rc) rc = twin_alloc(&t->w, ref, cl, "w", nx, ny, nz + 1, 4, g->w);
    if (!rc) rc = twin_alloc(&t->p, ref, cl, "p", nx, ny, nz, 4, g->p);
    CHECK_OK(rc);
    return rc;
}

static void twins_close(twins *t)
{
    twin_pair *ps[] = {&t->flags, &t->mask, &t->u, &t->v, &t->w, &t->p};
    for (size_t n = 0; n < LQ_COUNT(ps); n++) twin_release(ps[n]);
    lq_macsurface_ops_release(&t->ro);
    lq_macsurface_ops_release(&t->co);
}

static int upload_pair(twin_pair *p, const void *src)
{
    int rc = lq_field_upload(&p->ref, src);
    return rc ? rc : lq_field_upload(&p->cl, src);
}

static int twins_upload(twins *t, const grid *g)
{
    int rc = upload_pair(&t->flags, g->flags);
    if (!rc) rc = upload_pair(&t->mask, g->mask);
    if (!rc) rc = upload_pair(&t->u, g->u);
    if (!rc) rc = upload_pair(&t->v, g->v);
    if (!rc) rc = upload_pair(&t->w, g->w);
    if (!rc) rc = upload_pair(&t->p, g->p);
    CHECK_OK(rc);
    return rc;
}

/* classify, apply and pressure on both backends, each compared; the reference result
 * goes to `out`. */
static void twins_run(twins *t, const float h[3], float dt, const float gv[3],
                      const float origin[3], const lq_macsurface_forcing *f, grid *out)
{
    CHECK_OK(lq_macsurface_classify(&t->ro, &t->flags.ref, &t->mask.ref));
    CHECK_OK(lq_macsurface_classify(&t->co, &t->flags.cl, &t->mask.cl));
    CHECK_OK(lq_ctx_finish(t->cl));
    twin_check_exact("mac_surface.classify", &t->mask);
    CHECK_OK(lq_macsurface_apply(&t->ro, &t->flags.ref, &t->mask.ref, &t->u.ref, &t->v.ref,
                                 &t->w.ref, h, dt, gv));
    CHECK_OK(lq_macsurface_apply(&t->co, &t->flags.cl, &t->mask.cl, &t->u.cl, &t->v.cl, &t->w.cl, h,
                                 dt, gv));
    CHECK_OK(lq_ctx_finish(t->cl));
    twin_check_float("mac_surface.apply", &t->u);
    twin_check_float("mac_surface.apply", &t->v);
    twin_check_float("mac_surface.apply", &t->w);
    if (f) {
        CHECK_OK(lq_macsurface_pressure(&t->ro, &t->flags.ref, &t->p.ref, h, origin, f));
        CHECK_OK(lq_macsurface_pressure(&t->co, &t->flags.cl, &t->p.cl, h, origin, f));
        CHECK_OK(lq_ctx_finish(t->cl));
        twin_check_float("mac_surface.pressure", &t->p);
    }
    CHECK_OK(lq_field_download(&t->mask.ref, out->mask));
    CHECK_OK(lq_field_download(&t->u.ref, out->u));
    CHECK_OK(lq_field_download(&t->v.ref, out->v));
    CHECK_OK(lq_field_download(&t->w.ref, out->w));
    CHECK_OK(lq_field_download(&t->p.ref, out->p));
}

/* --- checks after apply ---------------------------------------------------------- */

/* Every face that is not an open face of a SURFACE cell is untouched, bit for bit. */
static int untouched_faces(const grid *before, const grid *after)
{
    grid own;
    grid_alloc(&own, before->nx, before->ny, before->nz); /* u v w: 1 where owned */
    for (int k = 0; k < before->nz; k++)
        for (int j = 0; j < before->ny; j++)
            for (int i = 0; i < before->nx; i++) {
                int c = LQ_MAC_CELL(i, j, k, before->nx, before->ny);
                if (before->flags[c] != LQ_MAC_SURFACE) continue;
                int m = direct_mask(before, i, j, k);
                for (int n = 0; n < 6; n++)
                    if (m >> n & 1) *face(&own, i, j, k, n, NULL) = 1.0f;
            }
    int bad = 0;
    const float *arrs[3][3] = {
        {before->u, after->u, own.u}, {before->v, after->v, own.v}, {before->w, after->w, own.w}};
    size_t counts[3] = {before->nu, before->nv, before->nw};
    for (int a = 0; a < 3; a++)
        for (size_t n = 0; n < counts[a]; n++)
            if (arrs[a][2][n] == 0.0f && memcmp(&arrs[a][0][n], &arrs[a][1][n], 4) != 0) bad++;
    grid_free(&own);
    return bad;
}

/* The rule at SURFACE cell (i, j, k) with mask m, numerically: returns the number of
 * violations (printed). gdt: g δt per axis as the operation computes it. */
static int check_cell(const grid *before, const grid *after, int i, int j, int k, int m,
                      const float h[3], const float gdt[3], int verbose)
{
    int bad = 0, m0 = m;
    /* a hanging cell: the others follow the rule of the mask without −y, the y axis out
     * of the divergence they close; its −y face is checked at the end */
    int hang = direct_hanging(before, i, j, k, m);
    if (hang) m &= ~(1 << LQ_MAC_NY_MINUS);
    double scale = div_scale(after, i, j, k, h) + div_scale(before, i, j, k, h);
    double div = cell_div(after, i, j, k, h) - (hang ? axis_div(after, i, j, k, 1, h) : 0.0);
    int o1 = 0, o2 = 0;
    for (int a = 0; a < 3; a++) {
        int open = ((m >> (2 * a)) & 1) + ((m >> (2 * a + 1)) & 1);
        o1 += open == 1;
        o2 += open == 2;
    }
#define BAD(...)                                                                                   \
    do {                                                                                           \
        bad++;                                                                                     \
        if (verbose) {                                                                             \
            fprintf(stderr, "  cell (%d,%d,%d) mask %d: ", i, j, k, m0);                           \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)
    /* the validation: zero divergence, or body force only when all six are open */
    if (m != 0 && m != 63 && !(fabs(div) <= REL * scale))
        BAD("divergence %.3g, scale %.3g (relative %.3g)", div, scale, fabs(div) / scale);
    for (int n = 0; n < 6; n++) {
        float old = *face(before, i, j, k, n, NULL), now = *face(after, i, j, k, n, NULL);
        int open = (m >> n) & 1, a = n >> 1, pair = ((m >> (2 * a)) & 3) == 3;
        if (hang && n == 2) continue;
        if (!open && memcmp(&old, &now, 4) != 0)
            BAD("face %d toward a non-empty cell changed: %.9g -> %.9g", n, (double)old,
                (double)now);
        if (open && pair && (o1 > 0 || o2 == 3)) {
            float want = old + gdt[a]; /* body force only, as the operation rounds it */
            if (memcmp(&want, &now, 4) != 0)
                BAD("face %d: %.9g, body force only gives %.9g", n, (double)now, (double)want);
            if (!(fabs((double)now - ((double)old + (double)gdt[a])) <= REL * (fabs(old) + 1.0)))
                BAD("face %d moved by %.9g, g dt = %.9g", n, (double)now - old, (double)gdt[a]);
        }
    }
    /* the one-open axes: corner copies; else equal shares of what the others leave */
    double rest = 0.0;
    for (int a = 0; a < 3; a++)
        if (((m >> (2 * a)) & 1) + ((m >> (2 * a + 1)) & 1) != 1 && !(hang && a == 1))
            rest += axis_div(after, i, j, k, a, h);
    for (int a = 0; a < 3; a++) {
        int open = ((m >> (2 * a)) & 1) + ((m >> (2 * a + 1)) & 1);
        if (open == 1 && o1 == 3) {
            float lo = *face(after, i, j, k, 2 * a, NULL),
                  hi = *face(after, i, j, k, 2 * a + 1, NULL);
            if (memcmp(&lo, &hi, 4) != 0)
                BAD("corner axis %d: %.9g != %.9g", a, (double)lo, (double)hi);
        } else if (open == 1) {
            double want = -rest / o1, got = axis_div(after, i, j, k, a, h);
            if (!(fabs(got - want) <= REL * scale))
                BAD("axis %d closes %.9g, its share is %.9g", a, got, want);
        }
    }
    /* open pairs with nothing else open: mean moved by g δt, equal shares of D */
    if (o1 == 0 && (o2 == 1 || o2 == 2)) {
        double d_old =
            cell_div(before, i, j, k, h) - (hang ? axis_div(before, i, j, k, 1, h) : 0.0);
        for (int a = 0; a < 3; a++) {
            if (((m >> (2 * a)) & 3) != 3) continue;
            double lo0 = *face(before, i, j, k, 2 * a, NULL),
                   hi0 = *face(before, i, j, k, 2 * a + 1, NULL);
            double lo1 = *face(after, i, j, k, 2 * a, NULL),
                   hi1 = *face(after, i, j, k, 2 * a + 1, NULL);
            double mean_shift = 0.5 * (lo1 + hi1) - 0.5 * (lo0 + hi0);
            if (!(fabs(mean_shift - gdt[a]) <=
                  REL * (fabs(lo0) + fabs(hi0) + fabs(lo1) + fabs(hi1) + 1.0)))
                BAD("pair %d: mean moved by %.9g, g dt = %.9g", a, mean_shift, (double)gdt[a]);
            double change = axis_div(after, i, j, k, a, h) - axis_div(before, i, j, k, a, h);
            if (!(fabs(change + d_old / o2) <= REL * scale))
                BAD("pair %d took %.9g of D = %.9g (share 1/%d)", a, -change, d_old, o2);
        }
    }
    /* the hanging cell's −y face: min(its own value, continuity's with the others as set,
     * 0): never drawn up from the air, falling by the body force (eq. 2) unless the
     * liquid beside it pushes it down faster */
    if (hang) {
        double cont =
            (double)*face(after, i, j, k, 3, NULL) +
            (double)h[1] * (axis_div(after, i, j, k, 0, h) + axis_div(after, i, j, k, 2, h));
        double old = *face(before, i, j, k, 2, NULL), now = *face(after, i, j, k, 2, NULL);
        double want = fmin(fmin(old, cont), 0.0);
        if (!(fabs(now - want) <= REL * (h[1] * scale + fabs(old) + 1.0)))
            BAD("hanging -y face %.9g, want min(%.9g, %.9g, 0)", now, old, cont);
    }
#undef BAD
    return bad;
}

/* --- 2. all 63 configurations ------------------------------------------------------- */

/* 4 × 4 × 4 blocks of 3³ cells; block b's centre is a SURFACE cell whose neighbours
 * are EMPTY where bit n of b is set, FULL elsewhere (mask 0: a SURFACE cell with no
 * empty neighbour, nothing to do). Blocks share no face of their centres. */
static void make_configs(grid *g)
{
    grid_alloc(g, 12, 12, 12);
    memset(g->flags, LQ_MAC_FULL, g->nc);
    int d[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
    for (int b = 0; b < 64; b++) {
        int ci = 3 * (b & 3) + 1, cj = 3 * (b >> 2 & 3) + 1, ck = 3 * (b >> 4) + 1;
        g->flags[LQ_MAC_CELL(ci, cj, ck, 12, 12)] = LQ_MAC_SURFACE;
        for (int n = 0; n < 6; n++)
            if (b >> n & 1)
                g->flags[LQ_MAC_CELL(ci + d[n][0], cj + d[n][1], ck + d[n][2], 12, 12)] =
                    LQ_MAC_EMPTY;
    }
}

static void test_configs(lq_ctx *ref, lq_ctx *cl)
{
    grid g, out;
    make_configs(&g);
    grid_copy(&out, &g);
    twins t;
    if (twins_open(&t, ref, cl, &g)) goto done;
    lq_rng r;
    lq_rng_seed(&r, 20011217);
    int worst_bad = 0;
    double worst_rel = 0.0;
    for (int trial = 0; trial < 8; trial++) {
        /* spacings from 0.25 to 4 times a base of 1 cm or 1 m, independent per axis */
        float base = trial & 1 ? 1.0f : 0.01f;
        float h[3], gv[3] = {frand(&r, -2, 2), -9.81f, frand(&r, -2, 2)};
        for (int a = 0; a < 3; a++) h[a] = base * powf(2.0f, frand(&r, -2, 2));
        float dt = frand(&r, 0.001f, 0.05f);
        random_faces(&g, &r, trial < 4 ? 3.0f : 0.2f);
        memset(g.mask, 0, g.nc);
        if (twins_upload(&t, &g)) break;
        twins_run(&t, h, dt, gv, NULL, NULL, &out);
        lq_macsurface_apply_k k;
        CHECK_OK(lq_macsurface_apply_prepare(h, dt, gv, &k));
        int bad = 0;
        for (int b = 0; b < 64; b++) {
            int ci = 3 * (b & 3) + 1, cj = 3 * (b >> 2 & 3) + 1, ck = 3 * (b >> 4) + 1;
            int c = LQ_MAC_CELL(ci, cj, ck, 12, 12);
            CHECK_MSG(out.mask[c] == b, "classify: block %d found mask %d", b, out.mask[c]);
            bad += check_cell(&g, &out, ci, cj, ck, b, h, k.gdt, bad < 20);
            if (b != 0 && b != 63) {
                double rel = fabs(cell_div(&out, ci, cj, ck, h)) /
                             (div_scale(&out, ci, cj, ck, h) + div_scale(&g, ci, cj, ck, h));
                worst_rel = fmax(worst_rel, rel);
            }
        }
        size_t masked = 0;
        for (size_t c = 0; c < g.nc; c++) masked += g.flags[c] != LQ_MAC_SURFACE && out.mask[c];
        CHECK_MSG(masked == 0, "classify: %zu non-surface cells got a mask", masked);
        int moved = untouched_faces(&g, &out);
        CHECK_MSG(moved == 0, "%d faces away from the surface cells' open faces changed", moved);
        CHECK_MSG(bad == 0, "trial %d (h = %g %g %g): %d rule violations", trial, (double)h[0],
                  (double)h[1], (double)h[2], bad);
        worst_bad = LQ_MAX(worst_bad, bad);
    }
    fprintf(stderr, "  63 configurations x 8 spacings: worst relative divergence %.3g\n",
            worst_rel);
    twins_close(&t);
done:
    grid_free(&g);
    grid_free(&out);
}

/* --- 3. random states with many surface cells ------------------------------------- */

/* Cells EMPTY with probability pe, SOLID with ps, liquid otherwise; a liquid cell with
 * an EMPTY neighbour is SURFACE, else FULL. In 2D (nz = 1) the z-faces are walls (0). */
static void make_random(grid *g, int nx, int ny, int nz, lq_rng *r, float pe, float ps)
{
    grid_alloc(g, nx, ny, nz);
    for (size_t c = 0; c < g->nc; c++) {
        float x = frand(r, 0, 1);
        g->flags[c] = x < pe ? LQ_MAC_EMPTY : (x < pe + ps ? LQ_MAC_SOLID : LQ_MAC_FULL);
    }
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int c = LQ_MAC_CELL(i, j, k, nx, ny);
                if (g->flags[c] == LQ_MAC_FULL && direct_mask(g, i, j, k))
                    g->flags[c] = LQ_MAC_SURFACE;
            }
    random_faces(g, r, 2.0f);
    if (nz == 1) memset(g->w, 0, g->nw * sizeof(float));
    for (size_t c = 0; c < g->nc; c++) g->mask[c] = (unsigned char)(c * 37); /* stale */
}

static void test_random(lq_ctx *ref, lq_ctx *cl, int nx, int ny, int nz, uint64_t seed)
{
    lq_rng r;
    lq_rng_seed(&r, seed);
    grid g, out;
    make_random(&g, nx, ny, nz, &r, 0.35f, 0.05f);
    grid_copy(&out, &g);
    twins t;
    if (twins_open(&t, ref, cl, &g)) goto done;
    float h[3] = {0.013f, 0.021f, nz == 1 ? 1.0f : 0.0087f};
    float gv[3] = {0.4f, -9.81f, -0.3f}, dt = 0.0125f;
    float origin[3] = {-0.3f, 0.2f, 1.7f};
    lq_macsurface_forcing f = {.p_atm = 101.325f,
                               .A = 0.02f,
                               .a = 0.01f,
                               .depth = 0.25f,
                               .L = 0.17f,
                               .omega = 7.3f,
                               .g = -9.81f,
                               .t = 12.345,
                               .dt = dt,
                               .axis = nz == 1 ? 0 : 2};
    twins_run(&t, h, dt, gv, origin, &f, &out);
    lq_macsurface_apply_k k;
    CHECK_OK(lq_macsurface_apply_prepare(h, dt, gv, &k));

    int seen[64] = {0}, kinds = 0, surface = 0, bad = 0, zbits = 0, hanging = 0;
    double C = LQ_PI / f.L, B = f.a * sqrt(-(double)f.g * f.depth / C);
    double perr = 0.0;
    for (int kk = 0; kk < nz; kk++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int c = LQ_MAC_CELL(i, j, kk, nx, ny);
                if (g.flags[c] != LQ_MAC_SURFACE) {
                    CHECK_MSG(out.mask[c] == 0, "cell %d: mask %d, kind %d", c, out.mask[c],
                              g.flags[c]);
                    CHECK_MSG(memcmp(&out.p[c], &g.p[c], 4) == 0, "cell %d: p of a kind %d cell", c,
                              g.flags[c]);
                    continue;
                }
                surface++;
                int m = direct_mask(&g, i, j, kk);
                CHECK_MSG(out.mask[c] == m, "cell (%d,%d,%d): mask %d, counted %d", i, j, kk,
                          out.mask[c], m);
                if (!seen[m]) kinds++;
                seen[m] = 1;
                zbits += (m & 0x30) != 0;
                hanging += direct_hanging(&g, i, j, kk, m);
                bad += check_cell(&g, &out, i, j, kk, m, h, k.gdt, bad < 20);
                /* eq. 17–19 in double */
                int n = f.axis == 0 ? i : (f.axis == 1 ? j : kk);
                double s = origin[f.axis] + (n + 0.5) * h[f.axis];
                double want = f.p_atm + (f.A + B * cos(C * s - f.omega * f.t)) / f.dt;
                double sc = fabs(f.p_atm) + (fabs(f.A) + fabs(B)) / f.dt;
                perr = fmax(perr, fabs(out.p[c] - want) / sc);
            }
    int moved = untouched_faces(&g, &out);
    fprintf(stderr,
            "  random %dx%dx%d: %d surface cells (%d hanging), %d masks seen, %d rule "
            "violations, pressure rel err %.3g\n",
            nx, ny, nz, surface, hanging, kinds, bad, perr);
    CHECK_MSG(hanging > 0, "no hanging cell in the random state: make it richer");
    CHECK_MSG(moved == 0, "%d faces away from the surface cells' open faces changed", moved);
    CHECK_MSG(bad == 0, "%d rule violations after one unordered pass", bad);
    CHECK_MSG(perr <= 1e-5, "surface pressure off eq. 17-19 by %.3g relative", perr);
    if (nz == 1)
        CHECK_MSG(zbits == 0 && kinds == 15, "2D: %d masks with z bits, %d of 15 masks seen", zbits,
                  kinds);
    else
        CHECK_MSG(kinds >= 50, "only %d masks seen: make the state richer", kinds);
    twins_close(&t);
done:
    grid_free(&g);
    grid_free(&out);
}

/* --- 4. bad input ------------------------------------------------------------------- */

static void test_bad_input(lq_ctx *ctx)
{
    grid g;
    make_configs(&g);
    lq_macsurface_ops o;
    lq_field flags, mask, u, v, w, p;
    CHECK_OK(lq_macsurface_ops_init(&o, ctx, 12, 12, 12));
    CHECK_OK(lq_field_alloc(ctx, &flags, "flags", 12, 12, 12, 1));
    CHECK_OK(lq_field_alloc(ctx, &mask, "mask", 12, 12, 12, 1));
    CHECK_OK(lq_field_alloc(ctx, &u, "u", 13, 12, 12, 4));
    CHECK_OK(lq_field_alloc(ctx, &v, "v", 12, 13, 12, 4));
    CHECK_OK(lq_field_alloc(ctx, &w, "w", 12, 12, 13, 4));
    CHECK_OK(lq_field_alloc(ctx, &p, "p", 12, 12, 12, 4));
    CHECK_OK(lq_field_upload(&flags, g.flags));
    float h[3] = {0.1f, 0.0f, 0.1f}, gv[3] = {0, -9.81f, 0}, origin[3] = {0, 0, 0};
    lq_error_clear();
    CHECK(lq_macsurface_apply(&o, &flags, &mask, &u, &v, &w, h, 0.01f, gv) == LQ_EINPUT);
    fprintf(stderr, "  bad spacing: %s\n", lq_error_message());
    h[1] = 0.1f;
    lq_macsurface_forcing f = {
        .a = 0.01f, .depth = 0.5f, .L = 1.0f, .g = 9.81f, .dt = 0.01f, .axis = 0};
    lq_error_clear();
    CHECK(lq_macsurface_pressure(&o, &flags, &p, h, origin, &f) == LQ_EINPUT);
    fprintf(stderr, "  g > 0: %s\n", lq_error_message());
    f.g = -9.81f;
    f.L = 0.0f;
    lq_error_clear();
    CHECK(lq_macsurface_pressure(&o, &flags, &p, h, origin, &f) == LQ_EINPUT);
    f.L = 1.0f;
    f.axis = 3;
    lq_error_clear();
    CHECK(lq_macsurface_pressure(&o, &flags, &p, h, origin, &f) == LQ_EINPUT);
    f.axis = 1;
    lq_error_clear();
    CHECK_OK(lq_macsurface_pressure(&o, &flags, &p, h, origin, &f));
    lq_field *fs[] = {&flags, &mask, &u, &v, &w, &p};
    for (size_t n = 0; n < LQ_COUNT(fs); n++) lq_field_release(fs[n]);
    lq_macsurface_ops_release(&o);
    grid_free(&g);
}

/* The fill-placed surface pressure: both backends bit for bit on random kinds, counts
 * and pressures; an up-facing SURFACE cell over a FULL one gets P + (p_below − P) r(m),
 * r(m) = (f − ½)/(f + ½), f = m/per_cell held at ≥ 0.1; every other cell is untouched. */
static void test_fill_pressure(lq_ctx *ref, lq_ctx *cl)
{
    enum { NX = 13, NY = 11, NZ = 7, N = NX * NY * NZ, PC = 8 };
    unsigned char fl[N], mk[N];
    int cnt[N];
    float p0[N], pr[N], ratio[2 * (PC + 1)];
    lq_rng r;
    lq_rng_seed(&r, 99);
    for (int c = 0; c < N; c++) {
        int j = (c / NX) % NY;
        /* mostly layered (liquid low, air high) so up-facing surface cells occur */
        int kind = (int)(lq_rng_u32(&r) % 30);
        fl[c] = kind < 6      ? (unsigned char)kind
                : j < NY / 2  ? LQ_MAC_FULL
                : j == NY / 2 ? LQ_MAC_SURFACE
                              : LQ_MAC_EMPTY;
        cnt[c] = (int)(lq_rng_u32(&r) % 12) - 1;
        p0[c] = (float)(lq_rng_uniform(&r) * 4 - 2);
    }
    const float G = 9.81f, DY = 0.2f; /* caps of 0.74-2.9: some random heads exceed them */
    lq_macsurface_fill_ratio(PC, G, DY, ratio);
    CHECK_NEAR(ratio[0], -0.4 / 0.6, 1e-7); /* fills below 0.1 count as 0.1 */
    CHECK_NEAR(ratio[PC / 2], 0.0, 0);
    CHECK_NEAR(ratio[PC], 1.0 / 3.0, 1e-7);
    lq_macsurface_ops oref, ocl;
    CHECK_OK(lq_macsurface_ops_init(&oref, ref, NX, NY, NZ));
    CHECK_OK(lq_macsurface_ops_init(&ocl, cl, NX, NY, NZ));
    twin_pair f, m, pp, cc, rt;
    CHECK_OK(twin_alloc(&f, ref, cl, "flags", NX, NY, NZ, 1, fl));
    CHECK_OK(twin_alloc(&m, ref, cl, "mask", NX, NY, NZ, 1, NULL));
    CHECK_OK(twin_alloc(&pp, ref, cl, "p", NX, NY, NZ, 4, p0));
    CHECK_OK(twin_alloc(&cc, ref, cl, "count", NX, NY, NZ, 4, cnt));
    CHECK_OK(twin_alloc(&rt, ref, cl, "ratio", 2 * (PC + 1), 1, 1, 4, ratio));
    CHECK_OK(lq_macsurface_classify(&oref, &f.ref, &m.ref));
    CHECK_OK(lq_macsurface_classify(&ocl, &f.cl, &m.cl));
    CHECK_OK(lq_field_download(&m.ref, mk));
    CHECK_OK(lq_macsurface_fill_pressure(&oref, &f.ref, &m.ref, &pp.ref, &cc.ref, &rt.ref, PC));
    CHECK_OK(lq_macsurface_fill_pressure(&ocl, &f.cl, &m.cl, &pp.cl, &cc.cl, &rt.cl, PC));
    twin_check_exact("mac_surface.fill_pressure", &pp);
    CHECK_OK(lq_field_download(&pp.ref, pr));
    int moved = 0;
    for (int c = 0; c < N; c++) {
        bool up = fl[c] == LQ_MAC_SURFACE && (mk[c] & (1 << LQ_MAC_NY_PLUS)) &&
                  !(mk[c] & (1 << LQ_MAC_NY_MINUS)) && c >= NX && fl[c - NX] == LQ_MAC_FULL;
        int mm = cnt[c] < 0 ? 0 : cnt[c] > PC ? PC : cnt[c];
        double fm = mm < 0.1 * PC ? 0.1 : (double)mm / PC, rr = (fm - 0.5) / (fm + 0.5);
        double head = up ? fmin(p0[c - NX] - p0[c], G * (fm + 0.5) * DY) : 0;
        double want = up ? p0[c] + head * rr : p0[c];
        moved += up;
        CHECK_NEAR(pr[c], want, 2e-6);
    }
    CHECK(moved > 20);
    fprintf(stderr, "  fill pressure: %d up-facing surface cells moved\n", moved);
    twin_release(&f);
    twin_release(&m);
    twin_release(&pp);
    twin_release(&cc);
    twin_release(&rt);
    lq_macsurface_ops_release(&ocl);
    lq_macsurface_ops_release(&oref);
}

int main(void)
{
    lq_ctx ref, cl;
    test_table();
    if (twin_open(&ref, &cl)) {
        CHECK(!"an OpenCL device (PoCL in CI) is needed for the twin tests");
        CHECK_DONE();
    }
    test_configs(&ref, &cl);
    test_random(&ref, &cl, 29, 23, 19, 7);
    test_random(&ref, &cl, 41, 27, 1, 11);
    test_fill_pressure(&ref, &cl);
    test_bad_input(&ref);
    test_bad_input(&cl);
    lq_ctx_close(&cl);
    lq_ctx_close(&ref);
    CHECK_DONE();
}
