/*
 * vdb_openvdb.cpp — vdb.h with the OpenVDB library (Debian's libopenvdb-dev): each
 * lq_vdb_grid becomes a FloatGrid or Vec3SGrid with the cell grid's transform, filled
 * voxel by voxel through a value accessor (active or inactive as vdb.h says), pruned,
 * and all are written in one io::File to a temporary name that is renamed into place.
 * C++ exceptions stop here: each becomes LQ_ESIM with its message (lq_error).
 */
extern "C" {
#include "io/vdb.h"

#include "core/common.h"
}

#include <openvdb/openvdb.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

bool lq_vdb_available(void)
{
    return true;
}

namespace
{

openvdb::math::Transform::Ptr cell_transform(const lq_vdb_grid &g)
{
    auto xf = openvdb::math::Transform::createLinearTransform(g.voxel);
    xf->postTranslate(openvdb::Vec3d(g.origin[0], g.origin[1], g.origin[2]));
    /* output.up z: (x, y, z) → (x, −z, y), +90° about x */
    if (g.z_up) xf->postRotate(openvdb::math::pi<double>() / 2, openvdb::math::X_AXIS);
    return xf;
}

size_t cell_index(const lq_vdb_grid &g, int i, int j, int k)
{
    return (size_t)i + (size_t)g.dims[0] * ((size_t)j + (size_t)g.dims[1] * (size_t)k);
}

openvdb::GridBase::Ptr make_scalar(const lq_vdb_grid &g)
{
    const bool ls = g.kind == LQ_VDB_LEVEL_SET;
    const float width = (float)(g.band * g.voxel), background = ls ? width : 0.0f;
    auto grid = openvdb::FloatGrid::create(background);
    auto acc = grid->getAccessor();
    for (int k = 0; k < g.dims[2]; k++)
        for (int j = 0; j < g.dims[1]; j++)
            for (int i = 0; i < g.dims[0]; i++) {
                const size_t c = cell_index(g, i, j, k);
                const float v = g.data[c];
                const openvdb::Coord ijk(i, j, k);
                if (ls) {
                    if (!std::isfinite(v)) continue;
                    if (std::fabs(v) < width)
                        acc.setValue(ijk, v);
                    else if (v < 0)
                        acc.setValueOff(ijk, -width); /* inside: the tools flood-fill by sign */
                } else if ((!g.mask || g.mask[c]) && std::isfinite(v)) {
                    acc.setValue(ijk, v);
                }
            }
    if (ls) {
        grid->setGridClass(openvdb::GRID_LEVEL_SET);
        grid->pruneGrid(0.0f);
    } else {
        grid->setGridClass(openvdb::GRID_FOG_VOLUME);
        grid->pruneGrid(0.0f);
    }
    return grid;
}

openvdb::GridBase::Ptr make_vector(const lq_vdb_grid &g)
{
    auto grid = openvdb::Vec3SGrid::create(openvdb::Vec3s(0.0f));
    auto acc = grid->getAccessor();
    for (int k = 0; k < g.dims[2]; k++)
        for (int j = 0; j < g.dims[1]; j++)
            for (int i = 0; i < g.dims[0]; i++) {
                const size_t c = cell_index(g, i, j, k);
                const float *v = g.data + 3 * c;
                if (g.mask && !g.mask[c]) continue;
                if (!std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2])) continue;
                acc.setValue(openvdb::Coord(i, j, k), g.z_up ? openvdb::Vec3s(v[0], -v[2], v[1])
                                                             : openvdb::Vec3s(v[0], v[1], v[2]));
            }
    grid->setVectorType(openvdb::VEC_CONTRAVARIANT_RELATIVE);
    grid->pruneGrid();
    return grid;
}

} // namespace

int lq_vdb_write(const char *path, const lq_vdb_grid *grids, int n, const char *creator)
{
    const std::string tmp = std::string(path) + ".tmp." + std::to_string((long)getpid());
    try {
        openvdb::initialize();
        openvdb::GridPtrVec out;
        for (int q = 0; q < n; q++) {
            const lq_vdb_grid &g = grids[q];
            if (!g.data || g.dims[0] < 1 || g.dims[1] < 1 || g.dims[2] < 1 || !(g.voxel > 0) ||
                (g.kind == LQ_VDB_LEVEL_SET && !(g.band >= 1)))
                return lq_error(LQ_ESIM, "%s: bad VDB grid '%s'", path, g.name ? g.name : "");
            openvdb::GridBase::Ptr grid = g.kind == LQ_VDB_VECTOR ? make_vector(g) : make_scalar(g);
            grid->setName(g.name);
            grid->setTransform(cell_transform(g));
            grid->setSaveFloatAsHalf(false);
            out.push_back(grid);
        }
        openvdb::io::File file(tmp);
        openvdb::MetaMap meta;
        meta.insertMeta("creator", openvdb::StringMetadata(creator ? creator : "liquidcl"));
        file.write(out, meta);
        file.close();
    } catch (const std::exception &e) {
        std::remove(tmp.c_str());
        return lq_error(LQ_ESIM, "%s: OpenVDB: %s", path, e.what());
    }
    if (std::rename(tmp.c_str(), path) != 0) {
        int err = errno;
        std::remove(tmp.c_str());
        return lq_error(LQ_ESIM, "%s: cannot rename %s into place: %s", path, tmp.c_str(),
                        std::strerror(err));
    }
    return LQ_OK;
}
