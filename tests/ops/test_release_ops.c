/*
 * test_release_ops.c — every operation's release functions (ops and state) are safe on a
 * zeroed struct and when called twice: after memset(0), after an init on the reference
 * path, and after an init on OpenCL (so a solver can release whatever it had made when
 * its set-up stopped part way, and release again on the way out).
 */
#include "lib/check.h"
#include "ops/hf/columns.h"
#include "ops/hf/heightfield.h"
#include "ops/mac/chains.h"
#include "ops/mac/macbc.h"
#include "ops/mac/macbody.h"
#include "ops/mac/machf.h"
#include "ops/mac/macspray.h"
#include "ops/mac/macsurface.h"
#include "ops/mac/markers.h"
#include "ops/mac/momentum.h"
#include "ops/mac/pressure.h"
#include "ops/pls/extrap.h"
#include "ops/pls/plscontrol.h"
#include "ops/pls/plsforce.h"
#include "ops/pls/plsobject.h"
#include "ops/pls/plsparticles.h"
#include "ops/pls/plssource.h"
#include "ops/pls/plswindow.h"
#include "ops/pls/poisson.h"
#include "ops/pls/reinit.h"
#include "ops/pls/sladvect.h"
#include "ops/pls/texparticles.h"
#include "ops/pls/viscosity.h"

#include <string.h>

/* Zeroed, released twice. */
#define ZEROED(type, release)                                                                      \
    do {                                                                                           \
        type x_;                                                                                   \
        memset(&x_, 0, sizeof x_);                                                                 \
        release(&x_);                                                                              \
        release(&x_);                                                                              \
    } while (0)

/* Made by `init` (arguments after the object), released twice. */
#define MADE(type, release, init, ...)                                                             \
    do {                                                                                           \
        type x_;                                                                                   \
        CHECK_OK(init(&x_, __VA_ARGS__));                                                          \
        release(&x_);                                                                              \
        release(&x_);                                                                              \
    } while (0)

static void test_zeroed(void)
{
    ZEROED(lq_columns_ops, lq_columns_ops_release);
    ZEROED(lq_columns_state, lq_columns_state_release);
    ZEROED(lq_heightfield_ops, lq_heightfield_ops_release);
    ZEROED(lq_heightfield_state, lq_heightfield_state_release);
    ZEROED(lq_chains_ops, lq_chains_ops_release);
    ZEROED(lq_chains_state, lq_chains_state_release);
    ZEROED(lq_macbc_ops, lq_macbc_ops_release);
    ZEROED(lq_macbody_ops, lq_macbody_ops_release);
    ZEROED(lq_macbody_set, lq_macbody_release);
    ZEROED(lq_machf_ops, lq_machf_ops_release);
    ZEROED(lq_machf_state, lq_machf_state_release);
    ZEROED(lq_macspray_ops, lq_macspray_ops_release);
    ZEROED(lq_macspray_state, lq_macspray_state_release);
    ZEROED(lq_macsurface_ops, lq_macsurface_ops_release);
    ZEROED(lq_markers_ops, lq_markers_ops_release);
    ZEROED(lq_momentum_ops, lq_momentum_ops_release);
    ZEROED(lq_momentum_state, lq_momentum_state_release);
    ZEROED(lq_pressure_ops, lq_pressure_ops_release);
    ZEROED(lq_pressure_state, lq_pressure_state_release);
    ZEROED(lq_extrap_ops, lq_extrap_ops_release);
    ZEROED(lq_plscontrol_ops, lq_plscontrol_ops_release);
    ZEROED(lq_plsforce_ops, lq_plsforce_ops_release);
    ZEROED(lq_plsobject_ops, lq_plsobject_ops_release);
    ZEROED(lq_plsparticles_ops, lq_plsparticles_ops_release);
    ZEROED(lq_plsparticles_state, lq_plsparticles_state_release);
    ZEROED(lq_texparticles_ops, lq_texparticles_ops_release);
    ZEROED(lq_texparticles_state, lq_texparticles_state_release);
    ZEROED(lq_plssource_ops, lq_plssource_ops_release);
    ZEROED(lq_plswindow_ops, lq_plswindow_ops_release);
    ZEROED(lq_plssource_set, lq_plssource_set_free);
    ZEROED(lq_poisson_ops, lq_poisson_ops_release);
    ZEROED(lq_reinit_ops, lq_reinit_ops_release);
    ZEROED(lq_sladvect_ops, lq_sladvect_ops_release);
    ZEROED(lq_viscosity_ops, lq_viscosity_ops_release);
}

/* Everything that can be made from a grid alone, on ctx. */
static void test_made(lq_ctx *ctx)
{
    int n = 8;
    MADE(lq_columns_ops, lq_columns_ops_release, lq_columns_ops_init, ctx, n, n);
    MADE(lq_columns_state, lq_columns_state_release, lq_columns_state_alloc, ctx, n, n, 100);
    MADE(lq_heightfield_ops, lq_heightfield_ops_release, lq_heightfield_ops_init, ctx, n, n,
         LQ_HEIGHTFIELD_SOLVE_AUTO);
    MADE(lq_heightfield_ops, lq_heightfield_ops_release, lq_heightfield_ops_init, ctx, n, n,
         LQ_HEIGHTFIELD_SOLVE_PCR);
    MADE(lq_heightfield_state, lq_heightfield_state_release, lq_heightfield_state_alloc, ctx, n, n);
    MADE(lq_chains_ops, lq_chains_ops_release, lq_chains_ops_init, ctx, n, n, 1);
    MADE(lq_chains_state, lq_chains_state_release, lq_chains_state_init, ctx, n, n, 1, 0.1f);
    MADE(lq_macbc_ops, lq_macbc_ops_release, lq_macbc_ops_init, ctx, n, n, n);
    MADE(lq_macbody_ops, lq_macbody_ops_release, lq_macbody_ops_init, ctx, n, n, n);
    MADE(lq_machf_ops, lq_machf_ops_release, lq_machf_ops_init, ctx, n, n, n);
    MADE(lq_machf_state, lq_machf_state_release, lq_machf_state_init, ctx, n, n, n);
    MADE(lq_macspray_ops, lq_macspray_ops_release, lq_macspray_ops_init, ctx, n, n, n);
    MADE(lq_macspray_state, lq_macspray_state_release, lq_macspray_state_init, ctx, n, n, n, 100);
    MADE(lq_macsurface_ops, lq_macsurface_ops_release, lq_macsurface_ops_init, ctx, n, n, n);
    MADE(lq_markers_ops, lq_markers_ops_release, lq_markers_ops_init, ctx, n, n, n);
    MADE(lq_momentum_ops, lq_momentum_ops_release, lq_momentum_ops_init, ctx, n, n, n);
    MADE(lq_pressure_ops, lq_pressure_ops_release, lq_pressure_ops_init, ctx, n, n, n);
    MADE(lq_extrap_ops, lq_extrap_ops_release, lq_extrap_ops_init, ctx, n, n, n);
    MADE(lq_plscontrol_ops, lq_plscontrol_ops_release, lq_plscontrol_ops_init, ctx, n, n, n, 64,
         31u);
    MADE(lq_plsforce_ops, lq_plsforce_ops_release, lq_plsforce_ops_init, ctx, n, n, n);
    MADE(lq_plswindow_ops, lq_plswindow_ops_release, lq_plswindow_ops_init, ctx, n, n, n);
    MADE(lq_plsobject_ops, lq_plsobject_ops_release, lq_plsobject_ops_init, ctx, n, n, n, 0.1f,
         1.0f);
    MADE(lq_plsparticles_ops, lq_plsparticles_ops_release, lq_plsparticles_ops_init, ctx, n, n, n);
    MADE(lq_plsparticles_state, lq_plsparticles_state_release, lq_plsparticles_state_init, ctx, n,
         n, n, 100);
    MADE(lq_plssource_ops, lq_plssource_ops_release, lq_plssource_ops_init, ctx, n, n, n, 0.1f,
         true);
    MADE(lq_poisson_ops, lq_poisson_ops_release, lq_poisson_ops_init, ctx, n, n, n);
    MADE(lq_reinit_ops, lq_reinit_ops_release, lq_reinit_ops_init, ctx, n, n, n);
    MADE(lq_sladvect_ops, lq_sladvect_ops_release, lq_sladvect_ops_init, ctx, n, n, n);
    MADE(lq_texparticles_ops, lq_texparticles_ops_release, lq_texparticles_ops_init, ctx, n, n, n);
    MADE(lq_texparticles_state, lq_texparticles_state_release, lq_texparticles_state_init, ctx, n,
         n, n, 100);
    MADE(lq_viscosity_ops, lq_viscosity_ops_release, lq_viscosity_ops_init, ctx, n, n, n);
}

int main(void)
{
    test_zeroed();
    const char *devices[] = {"ref", "opencl"};
    for (int d = 0; d < 2; d++) {
        lq_ctx ctx;
        if (lq_ctx_open(&ctx, devices[d], false)) {
            fprintf(stderr, "%s: %s\n", devices[d], lq_error_message());
            CHECK(0);
            continue;
        }
        test_made(&ctx);
        lq_ctx_close(&ctx);
        fprintf(stderr, "%s: every release twice after an init\n", devices[d]);
    }
    CHECK_DONE();
}
