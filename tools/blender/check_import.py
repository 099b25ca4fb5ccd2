# tools/blender/check_import.py — run by tests/cli/blender_import.sh inside Blender:
#   blender -b --factory-startup -P tools/blender/check_import.py -- RUN_DIR
# Imports the run with liquidcl_blender.py and checks, exiting 1 on the first failure:
# the frame range and fps from stats.jsonl; at frames 3 and 1 the surface mesh has the
# PLY's vertex and face counts, a "velocity" vector attribute equal to the PLY's vx vy vz,
# and its vertex positions; the particles mesh the particles PLY's count; the volume
# object loads its VDB grids "surface" and "vel"; the run hangs under a +90° x rotation
# (none where stats.jsonl says "up": "z": output.up z wrote the files z up).
import json
import math
import os
import sys

import bpy

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import liquidcl_blender as lq  # noqa: E402

d = sys.argv[sys.argv.index("--") + 1]
fails = []


def check(ok, what):
    print(("  ok   " if ok else "  FAIL ") + what)
    if not ok:
        fails.append(what)


lq.import_run(d)
scene = bpy.context.scene
rows = [l for l in open(os.path.join(d, "stats.jsonl")) if l.strip()]
check(scene.frame_start == 0 and scene.frame_end == len(rows) - 1,
      "frame range 0..%d" % scene.frame_end)
check(abs(scene.render.fps / scene.render.fps_base - 30) < 1e-6, "fps 30")
root = bpy.data.objects["liquidcl run"]
up = json.loads(rows[0]).get("up", "y")
if up == "z":  # output.up z: the files are z up already, nothing turned twice
    check(abs(root.rotation_euler[0]) < 1e-6, "z-up files: the run not turned")
else:
    check(abs(root.rotation_euler[0] - math.pi / 2) < 1e-6, "y up turned to z up")
for f in (3, 1):
    scene.frame_set(f)
    me = bpy.data.objects["liquidcl surface"].data
    names, cols, faces = lq.read_ply(os.path.join(d, "mesh", "%04d.ply" % f))
    nv = len(cols[0])
    check(len(me.vertices) == nv and len(me.polygons) == len(faces) and nv > 100,
          "frame %d: %d vertices, %d faces" % (f, len(me.vertices), len(me.polygons)))
    vel = me.attributes.get("velocity")
    check(vel is not None and vel.data_type == "FLOAT_VECTOR", "frame %d: velocity attribute" % f)
    if vel is not None:
        got = [0.0] * (3 * nv)
        vel.data.foreach_get("vector", got)
        want = [c for v in range(nv) for c in (cols[names.index("vx")][v],
                                               cols[names.index("vy")][v],
                                               cols[names.index("vz")][v])]
        worst = max(abs(a - b) for a, b in zip(got, want))
        check(worst < 1e-6, "frame %d: velocity = the PLY's vx vy vz (worst %.2g)" % (f, worst))
    co = [0.0] * (3 * nv)
    me.vertices.foreach_get("co", co)
    worst = max(abs(co[3 * v + 1] - cols[names.index("y")][v]) for v in range(nv))
    check(worst < 1e-6, "frame %d: positions as written (worst %.2g)" % (f, worst))
pts = bpy.data.objects.get("liquidcl particles")
if pts is not None:
    _, pc, _ = lq.read_ply(os.path.join(d, "particles", "%04d.ply" % 1))
    check(len(pts.data.vertices) == len(pc[0]), "particles: %d points" % len(pts.data.vertices))
vol = bpy.data.objects.get("liquidcl volume")
check(vol is not None, "volume object")
if vol is not None:
    vol.data.grids.load()
    grids = sorted(g.name for g in vol.data.grids)
    check(grids == ["surface", "vel"], "VDB grids %s" % grids)
print("%d failed" % len(fails))
sys.exit(1 if fails else 0)
