/*
 * ref/chains.c — reference twins of the chains' classification passes (§4.2): plain
 * loops over the per-point and per-cell functions of kernels/mac/chains_cell.h. The grow
 * pass runs in place in cell order (Gauss–Seidel); its iterates differ from the
 * kernel's, its fixed point (every region labelled with its smallest cell) does not.
 */
#include "ops/mac/chains_ref.h"

#define I(fld)  ((int *)(fld)->host)
#define CI(fld) ((const int *)(fld)->host)
#define CF(fld) ((const float *)(fld)->host)
#define UC(fld) ((const unsigned char *)(fld)->host)

void lq_chains_ref_clear(lq_field *label, const lq_field *flags)
{
    int cells = (int)flags->count;
    for (int c = 0; c < cells; c++) lq_chains_clear_cell(I(label), UC(flags), c);
}

void lq_chains_ref_mark(lq_field *label, const lq_field *pos, const lq_field *next, int n,
                        const lq_field *flags, float idx, float idy)
{
    for (int p = 0; p < n; p++)
        lq_chains_mark_point(I(label), CF(pos), CI(next), UC(flags), p, flags->nx, flags->ny, idx,
                             idy);
}

void lq_chains_ref_grow(lq_field *label, lq_field *changed)
{
    int nx = label->nx, ny = label->ny;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            if (lq_chains_grow_cell(I(label), i, j, nx, ny)) I(changed)[0] = 1;
}

void lq_chains_ref_side(lq_field *state, const lq_field *label, const lq_field *pos,
                        const lq_field *next, int n, float dx, float dy)
{
    int nx = label->nx, ny = label->ny;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            lq_chains_side_cell(I(state), CI(label), CF(pos), CI(next), n, i, j, nx, dx, dy);
}

void lq_chains_ref_spread(lq_field *state, const lq_field *label)
{
    int cells = (int)label->count;
    for (int c = 0; c < cells; c++) lq_chains_spread_cell(I(state), CI(label), c);
}

void lq_chains_ref_label(lq_field *flags, const lq_field *state)
{
    int nx = flags->nx, ny = flags->ny;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            lq_markers_label_cell((unsigned char *)flags->host, CI(state), i, j, 0, nx, ny, 1, 0);
}
