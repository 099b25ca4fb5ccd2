/*
 * test_pls_zalesak.c — Zalesak's slotted disk, reduced (VALIDATION.md `pls`;
 * tests/plsparticles_zalesak.h): a quarter revolution (t = 157) on 100² in 78 steps on
 * the reference backend, with and without particles. The particle level set must lose
 * far less area than the plain level set (measured: 3.6% against ~18%), stay under 5%
 * and keep the slot open.
 */
#include "plsparticles_zalesak.h"

int main(int argc, char **argv)
{
    const char *dev = argc > 1 ? argv[1] : "ref";
    zk_result plain = zk_run(dev, 100, 78, 0.25, 0, 20);
    zk_result pls = zk_run(dev, 100, 78, 0.25, 1, 20);
    CHECK_MSG(pls.rel < 0.5 * plain.rel, "area loss %.3f%% with particles vs %.3f%% without",
              100 * pls.rel, 100 * plain.rel);
    CHECK(pls.rel < 0.05);
    CHECK(pls.slot_open);
    CHECK(!plain.slot_open || plain.rel > pls.rel);
    CHECK_DONE();
}
