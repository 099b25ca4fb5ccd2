/*
 * macbc.cl — the `mac` solver's inflow, outflow and air-band face rules
 * (kernels/mac/macbc_cell.h states them). Built with -DNX, -DNY, -DNZ; one work-item per
 * face of one component array (axis a, an argument), a 3D range of the array's dims.
 */

kernel void macbc_inflow(global float *q, global const uchar *flags, global const uchar *region,
                         global const float *vel, int a)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX + (a == 0) || j >= NY + (a == 1) || k >= NZ + (a == 2)) return;
    lq_macbc_inflow_face(q, flags, region, vel, a, i, j, k, NX, NY, NZ);
}

kernel void macbc_outflow(global float *q, global const uchar *flags, int a)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX + (a == 0) || j >= NY + (a == 1) || k >= NZ + (a == 2)) return;
    lq_macbc_outflow_face(q, flags, a, i, j, k, NX, NY, NZ);
}

kernel void macbc_outflow_pressure(global float *p, global const uchar *flags)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX || j >= NY || k >= NZ) return;
    lq_macbc_outflow_pressure_cell(p, flags, i, j, k, NX, NY, NZ);
}

kernel void macbc_extrapolate(global float *q, global const uchar *flags, global uchar *cls, int a,
                              int pass)
{
    int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
    if (i >= NX + (a == 0) || j >= NY + (a == 1) || k >= NZ + (a == 2)) return;
    if (pass == 0)
        lq_macbc_class_face(cls, flags, a, i, j, k, NX, NY, NZ);
    else
        lq_macbc_band_face(q, cls, a, i, j, k, NX, NY, NZ,
                           pass == 1 ? LQ_MACBC_KNOWN : LQ_MACBC_BAND1);
}
