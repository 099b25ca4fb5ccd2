/*
 * fuzz_csv.c — libFuzzer target: the CSV path reader (host/scene/path.c), then the path
 * evaluated at a few times as an object following it would be.
 */
#include "fuzz/fuzz_common.h"
#include "scene/path.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lq_path *p = NULL;
    if (lq_path_read_csv(&p, lq_fuzz_file("path.csv", data, size)) == LQ_OK) {
        const double ts[] = {-1e30, -1, 0, 0.5, 1, 3.7, 1e30};
        for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
            double pos[3], q[4], vel[3], omega[3];
            lq_path_eval(p, ts[i], pos, q, vel, omega);
        }
        lq_path_free(p);
    }
    lq_error_clear();
    return 0;
}
