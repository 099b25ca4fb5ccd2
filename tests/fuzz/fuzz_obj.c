/*
 * fuzz_obj.c — libFuzzer target: the OBJ mesh reader (host/world/voxel.c), then the
 * mesh filled into a small grid as a scene's obstacle would be.
 */
#include "fuzz/fuzz_common.h"
#include "world/voxel.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lq_voxel_mesh m;
    if (lq_voxel_mesh_read(lq_fuzz_file("mesh.obj", data, size), &m) == LQ_OK) {
        unsigned char inside[8 * 8 * 8];
        const double origin[3] = {-1, -1, -1};
        memset(inside, 0, sizeof inside);
        (void)lq_voxel_mesh_volume(&m);
        (void)lq_voxel_mesh_fill(&m, 8, 8, 8, 0.25, origin, 0, inside);
        lq_voxel_mesh_free(&m);
    }
    lq_error_clear();
    return 0;
}
