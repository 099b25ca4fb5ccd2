/*
 * copy.cl — the bandwidth yardstick for `liquidcl bench`: a plain float4 copy, one
 * element per work-item. Bytes moved per element: 16 read + 16 written.
 */
kernel void copy_float4(global const float4 *src, global float4 *dst)
{
    size_t i = get_global_id(0);
    dst[i] = src[i];
}

/* The same copy with 64 floats per work-item (four float16): runtimes that run
 * work-items as loop iterations (PoCL) pay less per element, so this one measures the
 * memory rather than the scheduler. The bench reports the faster of the two. */
kernel void copy_float16x4(global const float16 *src, global float16 *dst)
{
    size_t i = get_global_id(0) * 4;
    dst[i] = src[i];
    dst[i + 1] = src[i + 1];
    dst[i + 2] = src[i + 2];
    dst[i + 3] = src[i + 3];
}
