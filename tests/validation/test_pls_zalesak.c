/*
 * test_pls_zalesak.c — Zalesak's slotted disk, reduced (VALIDATION.md `pls`;
 * tests/validation/plsparticles_zalesak.h): a quarter revolution (t = 157) on 100² in 78 steps on
 * the reference backend, with and without particles, φ advected by the default scheme
 * (BFECC, host/ops/pls/sladvect.h) and reinitialised every 25 steps (see the header for why).
 * Measured: 0.87% lost with particles (slot open, both upper corners kept), 1.50%
 * without; with the plain trilinear pass and reinitialisation every step it was 3.6%
 * with particles and 11% without.
 */
#include "validation/plsparticles_zalesak.h"

int main(int argc, char **argv)
{
    const char *dev = argc > 1 ? argv[1] : "ref";
    zk_reinit_every = 25;
    zk_result plain = zk_run(dev, 100, 78, 0.25, 0, 20);
    zk_result pls = zk_run(dev, 100, 78, 0.25, 1, 20);
    CHECK_MSG(pls.rel < plain.rel, "area loss %.3f%% with particles vs %.3f%% without",
              100 * pls.rel, 100 * plain.rel);
    CHECK(pls.rel < 0.015);
    CHECK(pls.slot_open && pls.corners);
    CHECK_DONE();
}
