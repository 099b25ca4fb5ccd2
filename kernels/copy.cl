/*
 * copy.cl — the bandwidth yardstick for `liquidcl bench`: a plain float4 copy, one
 * element per work-item. Bytes moved per element: 16 read + 16 written.
 */
kernel void copy_float4(global const float4 *src, global float4 *dst)
{
    size_t i = get_global_id(0);
    dst[i] = src[i];
}
