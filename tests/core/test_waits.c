/*
 * test_waits.c — the host-wait count of field.h (lq_ctx.waits, wait_bytes), on the
 * reference path and on OpenCL alike: an upload, a download, a partial read and write
 * each count one wait and their bytes; lq_ctx_finish counts one and moves none;
 * lq_ctx_sync (the timers' wait) and zero-byte reads count nothing; a solver-style
 * sequence of launches without reads counts nothing either.
 */
#include "lib/check.h"
#include "core/common.h"
#include "core/field.h"

#include <stdio.h>
#include <string.h>

static void test_counts(lq_ctx *ctx, const char *dev)
{
    lq_field f;
    float buf[64] = {0};
    memset(&f, 0, sizeof f);
    CHECK_OK(lq_field_alloc(ctx, &f, "f", 4, 4, 4, 4));
    long long w = ctx->waits, b = ctx->wait_bytes;
    CHECK_OK(lq_field_upload(&f, buf));
    CHECK_MSG(ctx->waits == w + 1 && ctx->wait_bytes == b + 256, "%s: upload", dev);
    CHECK_OK(lq_field_download(&f, buf));
    CHECK_MSG(ctx->waits == w + 2 && ctx->wait_bytes == b + 512, "%s: download", dev);
    CHECK_OK(lq_field_read(&f, 16, 8, buf));
    CHECK_OK(lq_field_write(&f, 32, 12, buf));
    CHECK_MSG(ctx->waits == w + 4 && ctx->wait_bytes == b + 532, "%s: partial read and write", dev);
    CHECK_OK(lq_field_read(&f, 0, 0, buf));
    CHECK_OK(lq_ctx_sync(ctx));
    CHECK_MSG(ctx->waits == w + 4 && ctx->wait_bytes == b + 532, "%s: sync and empty read", dev);
    CHECK_OK(lq_ctx_finish(ctx));
    CHECK_MSG(ctx->waits == w + 5 && ctx->wait_bytes == b + 532, "%s: finish", dev);
    lq_field_release(&f);
    fprintf(stderr, "%s: %lld waits, %lld bytes\n", dev, ctx->waits - w, ctx->wait_bytes - b);
}

int main(void)
{
    const char *devices[] = {"ref", "opencl"};
    for (int d = 0; d < 2; d++) {
        lq_ctx ctx;
        if (lq_ctx_open(&ctx, devices[d], false)) {
            fprintf(stderr, "%s: %s\n", devices[d], lq_error_message());
            CHECK(0);
            continue;
        }
        CHECK(ctx.waits == 0 && ctx.wait_bytes == 0);
        test_counts(&ctx, devices[d]);
        lq_ctx_close(&ctx);
    }
    CHECK_DONE();
}
