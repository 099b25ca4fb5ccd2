/*
 * test_mac_pockets.c — `mac`'s sealed air pockets (mac.air_pockets, kernels/mac/macpocket_cell.h;
 * quick, reference path; the scene is written here): a diving bell. A closed 2D tank, 1 m
 * square (32² cells), water 0.8 m deep; an inverted cup (a roof and two side walls, solid)
 * stands in it, its mouth 0.25 m above the floor, holding 6 × 9 cells of air under its roof
 * (the water inside it starts at 0.35 m, 0.45 m below the level outside). The air reaches
 * no open air: a pocket.
 *  - `gas`: the pocket is found (one, of about 50 cells) and holds the water out: its air
 *    (the tally, stats air_pocket_volume) stays within ±20 % of the first frame's over 1 s
 *    (measured on the reference path 0.84-1.02: the explicit coupling rings about the
 *    hydrostatic balance, the gauge up to 10.6 m²/s² around ρ g Δh = 4.4; sealed at
 *    atmospheric pressure, the balance itself is 3 % smaller), the cup's EMPTY cells at the
 *    end at least 75 % of the start's (measured 48 of 52), the largest face speed below
 *    3 m/s (measured 2.09);
 *  - `atmospheric` (the paper's): the air has no pressure of its own, the water rises into
 *    the cup until the level inside is the level outside: at most 25 % of the cup's EMPTY
 *    cells are left (measured: none of 52).
 * The kernels' twins are compared in tests/ops/test_macpocket_ops.c.
 */
#include "validation/mac_validation.h"

static const char *const bell = "solver: mac\n"
                                "grid: {size: [32, 32, 1], cell: 0.03125}\n"
                                "gravity: [0, -9.81, 0]\n"
                                "time: {frames: 30, fps: 30}\n"
                                "output: {mesh: false, preview: false}\n"
                                "liquid:\n"
                                "  - box: {min: [0, 0, 0], max: [1, 0.35, 1]}\n"
                                "  - box: {min: [0, 0.35, 0], max: [0.34, 0.8, 1]}\n"
                                "  - box: {min: [0.66, 0.35, 0], max: [1, 0.8, 1]}\n"
                                "  - box: {min: [0.34, 0.69, 0], max: [0.66, 0.8, 1]}\n"
                                "obstacles:\n"
                                "  - box: {min: [0.34, 0.62, 0], max: [0.66, 0.69, 1]}\n"
                                "  - box: {min: [0.34, 0.25, 0], max: [0.41, 0.69, 1]}\n"
                                "  - box: {min: [0.59, 0.25, 0], max: [0.66, 0.69, 1]}\n";

/* EMPTY cells inside the cup (between its walls, from its mouth to its roof). */
static int cup_air(mv_run *r)
{
    lq_field_view v;
    if (r->sv.vt->view(r->sv.state, "flags", &v)) return -1;
    int n = 0;
    for (int j = 8; j < 20; j++)
        for (int i = 13; i <= 18; i++)
            n += v.data[LQ_MAC_CELL(i, j, 0, r->nx, r->ny)] == LQ_MAC_EMPTY;
    return n;
}

static void run(const char *mode)
{
    const char *path = "test_mac_pockets_bell.yaml";
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(bell, f);
    fclose(f);
    char set[64];
    snprintf(set, sizeof set, "mac.air_pockets=%s", mode);
    const char *sets[] = {set};
    mv_run r;
    int rc = mv_open(&r, "ref", path, 1, sets);
    remove(path);
    CHECK(rc == 0);
    if (rc) {
        if (rc == 2) mv_close(&r);
        return;
    }
    bool gas = strcmp(mode, "gas") == 0;
    int air0 = cup_air(&r), fr;
    double v1 = NAN, vlo = INFINITY, vhi = 0, vmax = 0, pmax = 0;
    int pockets = 0;
    lq_frame_stats st;
    for (fr = 1; fr <= r.sv.frames; fr++) {
        if (mv_frame(&r, fr, &st)) break;
        vmax = fmax(vmax, st.max_speed);
        CHECK(mv_extra(&st, "pressure_unconverged") == 0);
        if (!gas) continue;
        double v = mv_extra(&st, "air_pocket_volume");
        if (fr == 1) v1 = v;
        vlo = fmin(vlo, v);
        vhi = fmax(vhi, v);
        pmax = fmax(pmax, mv_extra(&st, "air_pocket_max_pressure"));
        pockets = (int)mv_extra(&st, "air_pockets");
    }
    int air1 = cup_air(&r);
    fprintf(stderr,
            "bell, mac.air_pockets: %s: cup air %d -> %d cells; largest face speed %.3f m/s", mode,
            air0, air1, vmax);
    if (gas)
        fprintf(stderr, "; %d pocket, its air %.2f-%.2f of frame 1's (%.5f m2), gauge up to %.2f",
                pockets, vlo / v1, vhi / v1, v1, pmax);
    fprintf(stderr, "\n");
    CHECK(fr > r.sv.frames);
    CHECK(air0 >= 50);
    if (gas) {
        CHECK(pockets == 1);
        CHECK(vlo >= 0.8 * v1 && vhi <= 1.2 * v1);
        CHECK(air1 >= 0.75 * air0);
        CHECK(vmax < 3.0);
    } else {
        CHECK(air1 <= 0.25 * air0);
    }
    mv_close(&r);
}

int main(void)
{
    run("gas");
    run("atmospheric");
    CHECK_DONE();
}
