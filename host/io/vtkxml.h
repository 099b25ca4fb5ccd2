/*
 * vtkxml.h — VTK's XML formats for the fields (output.fields_format: vti) and the time
 * series that tell ParaView each frame's simulated time.
 *
 * - lq_vti_write: one scalar field as ImageData (.vti), one named Float32 point array,
 *   little-endian, zlib-compressed in VTK's block layout (vtkZLibDataCompressor, UInt64
 *   header: blocks, block size, last block's size, each block's compressed size) as raw
 *   appended data. Extent 0..n−1 on each axis, Origin = the first sample (as the legacy
 *   files), Spacing per axis.
 * - lq_series_write: a frame series, every `every`-th frame from 0 to `last`, frame f at
 *   time f / fps (the stats' `time`): as a ParaView Data collection (.pvd: XML files
 *   only) or as ParaView's JSON file series (".series": any reader, legacy .vtk and PLY
 *   meshes too). `pattern` is a printf pattern with one %04d for the frame, relative to
 *   the series file's folder. Rewritten whole each frame (atomically), so a resumed run's
 *   series is the same as an uninterrupted one's.
 */
#ifndef LQ_VTKXML_H
#define LQ_VTKXML_H

typedef enum lq_series_kind { LQ_SERIES_PVD, LQ_SERIES_JSON } lq_series_kind;

int lq_vti_write(const char *path, const char *name, const int dims[3], const double origin[3],
                 const double spacing[3], const float *data);
int lq_series_write(const char *path, lq_series_kind kind, const char *pattern, int last, int every,
                    double fps);

#endif
