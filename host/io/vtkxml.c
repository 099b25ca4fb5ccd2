/*
 * vtkxml.c — vtkxml.h: the .vti header as text, then "_" and the appended block: the
 * header (UInt64) and the compressed blocks of 32 KiB of float32 each; the series as
 * text. Each file is written to a temporary name and renamed into place (io.h lq_file).
 */
#include "io/vtkxml.h"

#include "core/common.h"
#include "io/io.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define LQ_VTI_BLOCK 32768 /* bytes of raw data per compressed block */

int lq_vti_write(const char *path, const char *name, const int dims[3], const double origin[3],
                 const double spacing[3], const float *data)
{
    const size_t n = (size_t)dims[0] * dims[1] * dims[2], raw = n * sizeof(float);
    const size_t nblocks = raw ? (raw + LQ_VTI_BLOCK - 1) / LQ_VTI_BLOCK : 0;
    uint64_t *head = lq_alloc((3 + nblocks) * sizeof *head);
    uLong bound = compressBound(LQ_VTI_BLOCK);
    unsigned char *packed = lq_alloc(nblocks * bound + 1), *le = lq_alloc(raw + 1);
    lq_file file = {0};
    int rc = LQ_OK;
    if (!head || !packed || !le) {
        rc = lq_error(LQ_ESIM, "%s: out of host memory", path);
        goto done;
    }
    for (size_t i = 0; i < n; i++) { /* little-endian float32, whatever the host */
        uint32_t b;
        memcpy(&b, &data[i], 4);
        le[4 * i] = (unsigned char)b;
        le[4 * i + 1] = (unsigned char)(b >> 8);
        le[4 * i + 2] = (unsigned char)(b >> 16);
        le[4 * i + 3] = (unsigned char)(b >> 24);
    }
    size_t used = 0;
    head[0] = nblocks;
    head[1] = LQ_VTI_BLOCK;
    head[2] = nblocks ? raw - (nblocks - 1) * LQ_VTI_BLOCK : 0;
    for (size_t b = 0; b < nblocks; b++) {
        uLongf out = bound;
        size_t len = b + 1 == nblocks ? (size_t)head[2] : LQ_VTI_BLOCK;
        if (compress2(packed + used, &out, le + b * LQ_VTI_BLOCK, len, 6) != Z_OK) {
            rc = lq_error(LQ_ESIM, "%s: zlib failed", path);
            goto done;
        }
        head[3 + b] = out;
        used += out;
    }
    if (lq_file_open(&file, path)) {
        rc = LQ_ESIM;
        goto done;
    }
    fprintf(file.f,
            "<?xml version=\"1.0\"?>\n"
            "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" "
            "header_type=\"UInt64\" compressor=\"vtkZLibDataCompressor\">\n"
            "  <ImageData WholeExtent=\"0 %d 0 %d 0 %d\" Origin=\"%.17g %.17g %.17g\" "
            "Spacing=\"%.17g %.17g %.17g\">\n"
            "    <Piece Extent=\"0 %d 0 %d 0 %d\">\n"
            "      <PointData Scalars=\"%s\">\n"
            "        <DataArray type=\"Float32\" Name=\"%s\" NumberOfComponents=\"1\" "
            "format=\"appended\" offset=\"0\"/>\n"
            "      </PointData>\n"
            "    </Piece>\n"
            "  </ImageData>\n"
            "  <AppendedData encoding=\"raw\">\n_",
            dims[0] - 1, dims[1] - 1, dims[2] - 1, origin[0], origin[1], origin[2], spacing[0],
            spacing[1], spacing[2], dims[0] - 1, dims[1] - 1, dims[2] - 1, name, name);
    unsigned char hb[8];
    for (size_t i = 0; i < 3 + nblocks; i++) {
        for (int k = 0; k < 8; k++) hb[k] = (unsigned char)(head[i] >> (8 * k));
        fwrite(hb, 1, 8, file.f);
    }
    if (fwrite(packed, 1, used, file.f) != used) {
        rc = lq_error(LQ_ESIM, "%s: write failed: %s", file.tmp, strerror(errno));
        lq_file_abort(&file);
        goto done;
    }
    fputs("\n  </AppendedData>\n</VTKFile>\n", file.f);
    rc = lq_file_commit(&file);
done:
    free(head);
    free(packed);
    free(le);
    return rc;
}

int lq_series_write(const char *path, lq_series_kind kind, const char *pattern, int last, int every,
                    double fps)
{
    lq_file file = {0};
    char name[512];
    if (lq_file_open(&file, path)) return LQ_ESIM;
    if (kind == LQ_SERIES_PVD)
        fputs("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\">\n"
              "  <Collection>\n",
              file.f);
    else
        fputs("{\n  \"file-series-version\": \"1.0\",\n  \"files\": [\n", file.f);
    every = every < 1 ? 1 : every;
    for (int f = 0; f <= last; f += every) {
        snprintf(name, sizeof name, pattern, f);
        if (kind == LQ_SERIES_PVD)
            fprintf(file.f, "    <DataSet timestep=\"%.17g\" part=\"0\" file=\"%s\"/>\n", f / fps,
                    name);
        else
            fprintf(file.f, "    {\"name\": \"%s\", \"time\": %.17g}%s\n", name, f / fps,
                    f + every <= last ? "," : "");
    }
    fputs(kind == LQ_SERIES_PVD ? "  </Collection>\n</VTKFile>\n" : "  ]\n}\n", file.f);
    return lq_file_commit(&file);
}
