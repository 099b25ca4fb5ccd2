#!/usr/bin/env python3
"""tests/lib/lqckpt.py — reads and edits liquidcl checkpoints (format 2,
host/io/checkpoint.h) for the fault tests: prints the header, or changes a field and
(with --fix) recomputes both checksums, so that a test reaches the checks that come
after them.

  lqckpt.py info FILE                      the header as JSON
  lqckpt.py frame FILE N [--fix]           sets the frame
  lqckpt.py int32 FILE OFFSET N [--fix]    sets an int32 at OFFSET bytes into the payload
                                           (a negative OFFSET counts back from its end)
  lqckpt.py read32 FILE OFFSET             prints the int32 there
  lqckpt.py flip FILE OFFSET [--fix]       inverts the byte at OFFSET (from the file start)
  lqckpt.py fix FILE                       recomputes both checksums
"""
import json
import struct
import sys
import zlib


def load(path):
    with open(path, 'rb') as f:
        return bytearray(f.read())


def header(b):
    magic, version, hb = b[0:8].decode('latin1'), *struct.unpack_from('<II', b, 8)
    solver = b[16:32].rstrip(b'\0').decode('latin1')
    frame, nassets = struct.unpack_from('<iI', b, 32)
    scene_hash, pb, pcrc, tl = struct.unpack_from('<QQII', b, 40)
    o, assets = 64 + tl, []
    for _ in range(nassets):
        (n,) = struct.unpack_from('<I', b, o)
        path = b[o + 4:o + 4 + n].decode('utf-8', 'replace')
        size, h = struct.unpack_from('<QQ', b, o + 4 + n)
        assets.append({'path': path, 'size': size, 'hash': '%016x' % h})
        o += 4 + n + 16
    return {'magic': magic, 'version': version, 'header_bytes': hb, 'solver': solver,
            'frame': frame, 'scene_hash': '%016x' % scene_hash, 'payload_bytes': pb,
            'payload_crc': pcrc, 'scene_text': b[64:64 + tl].decode('utf-8', 'replace'),
            'assets': assets}


def fix(b):
    (hb,) = struct.unpack_from('<I', b, 12)
    pb = len(b) - hb - 4
    struct.pack_into('<QI', b, 48, pb, zlib.crc32(bytes(b[hb:hb + pb])) & 0xffffffff)
    struct.pack_into('<I', b, hb - 4, zlib.crc32(bytes(b[:hb - 4])) & 0xffffffff)


def main(argv):
    cmd, path = argv[1], argv[2]
    b = load(path)
    rest = [a for a in argv[3:] if a != '--fix']
    if cmd == 'info':
        print(json.dumps(header(b), indent=1))
        return 0
    if cmd == 'frame':
        struct.pack_into('<i', b, 32, int(rest[0]))
    elif cmd in ('int32', 'read32'):
        (hb,) = struct.unpack_from('<I', b, 12)
        o = int(rest[0])
        o = hb + o if o >= 0 else len(b) - 4 + o  # the payload ends before "END!"
        if cmd == 'read32':
            print(struct.unpack_from('<i', b, o)[0])
            return 0
        struct.pack_into('<i', b, o, int(rest[1]))
    elif cmd == 'flip':
        b[int(rest[0])] ^= 0xff
    elif cmd != 'fix':
        print(__doc__, file=sys.stderr)
        return 2
    if cmd == 'fix' or '--fix' in argv:
        fix(b)
    with open(path, 'wb') as f:
        f.write(b)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
