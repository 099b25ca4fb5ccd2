# tools/blender/liquidcl_blender.py — load a liquidcl run's output folder into Blender (3.x).
#
# As an add-on: Edit > Preferences > Add-ons > Install… this file, enable "Import-Export:
# liquidcl run", then File > Import > liquidcl run (folder). As a script, headless or not:
#   blender -b -P tools/blender/liquidcl_blender.py -- RUN_DIR [--save FILE.blend]
#
# What it makes (each only when the run wrote it):
# - "liquidcl surface": the mesh sequence mesh/NNNN.ply, reloaded at every frame change
#   (a frame_change_pre handler, saved with the .blend when the add-on is enabled), with
#   every PLY vertex property as a mesh attribute of the same name; vx vy vz also as the
#   vector attribute "velocity" (what Cycles' motion blur reads), s t as the UV map "st",
#   rest_x rest_y rest_z as the vector attribute "rest"; `splash`/`shallow` depth, u, w
#   as float attributes;
# - "liquidcl terrain" (mesh/terrain.ply) and "liquidcl objects" (mesh/objects_NNNN.ply);
# - "liquidcl particles": particles/NNNN.ply as a point cloud mesh with its attributes;
# - "liquidcl volume": vdb/NNNN.vdb as a Volume sequence (its "vel" grid set as the
#   velocity grid for motion blur);
# - the scene's frame range 0..last frame and its fps from stats.jsonl.
# liquidcl writes y up; Blender is z up: everything hangs under an empty "liquidcl run"
# turned +90° about x, so the water stands upright and the files stay untouched. A run
# with `output.up: z` wrote its files z up already (stats.jsonl's first line says
# "up": "z"): then the empty is not turned, so nothing is turned twice.
bl_info = {
    "name": "liquidcl run",
    "author": "liquidcl",
    "version": (0, 1),
    "blender": (3, 0, 0),
    "location": "File > Import > liquidcl run",
    "description": "Meshes, particles, objects and VDB volumes of a liquidcl output folder",
    "category": "Import-Export",
}

import json
import math
import os
import struct
import sys

import bpy

PLY_TYPES = {"float": "f", "float32": "f", "double": "d", "int": "i", "int32": "i",
             "uint": "I", "uint32": "I", "uchar": "B", "uint8": "B", "char": "b",
             "int8": "b", "short": "h", "ushort": "H"}


def read_ply(path):
    """A binary little-endian PLY as liquidcl writes it: (names, columns, faces)."""
    with open(path, "rb") as f:
        data = f.read()
    head, body = data.split(b"end_header\n", 1)
    lines = head.decode("ascii").splitlines()
    if lines[0] != "ply" or "format binary_little_endian 1.0" not in lines[1]:
        raise ValueError("%s: not a binary little-endian PLY" % path)
    elems, cur = [], None
    for line in lines[2:]:
        w = line.split()
        if w[0] == "element":
            cur = [w[1], int(w[2]), []]
            elems.append(cur)
        elif w[0] == "property" and w[1] == "list":
            cur[2].append(("list", w[2], w[3], w[4]))
        elif w[0] == "property":
            cur[2].append((w[2], w[1]))
    names, cols, faces, pos = [], [], [], 0
    for name, count, props in elems:
        if name == "vertex":
            fmt = "<" + "".join(PLY_TYPES[t] for _, t in props)
            size = struct.calcsize(fmt)
            rows = list(struct.iter_unpack(fmt, body[pos:pos + size * count])) if count else []
            pos += size * count
            names = [n for n, _ in props]
            cols = [list(c) for c in zip(*rows)] if rows else [[] for _ in props]
        elif name == "face":
            _, ct, it, _ = props[0]
            cfmt, ifmt = "<" + PLY_TYPES[ct], PLY_TYPES[it]
            cs, isz = struct.calcsize(cfmt), struct.calcsize("<" + ifmt)
            for _ in range(count):
                n = struct.unpack_from(cfmt, body, pos)[0]
                pos += cs
                faces.append(struct.unpack_from("<%d%s" % (n, ifmt), body, pos))
                pos += n * isz
    return names, cols, faces


def fill_mesh(me, path):
    """me's geometry and attributes become the PLY's (an absent file: empty)."""
    me.clear_geometry()
    for uv in list(me.uv_layers):
        me.uv_layers.remove(uv)
    for name in [a.name for a in me.attributes]:
        try:  # the last frame's own attributes (built-in ones refuse: kept)
            me.attributes.remove(me.attributes[name])
        except (RuntimeError, KeyError):
            pass
    if not os.path.exists(path):
        me.update()
        return 0
    names, cols, faces = read_ply(path)
    nv = len(cols[0]) if cols else 0
    ix, iy, iz = names.index("x"), names.index("y"), names.index("z")
    me.vertices.add(nv)
    co = [0.0] * (3 * nv)
    co[0::3], co[1::3], co[2::3] = cols[ix], cols[iy], cols[iz]
    me.vertices.foreach_set("co", co)
    if faces:
        me.loops.add(3 * len(faces))
        me.polygons.add(len(faces))
        me.loops.foreach_set("vertex_index", [i for f in faces for i in f])
        me.polygons.foreach_set("loop_start", list(range(0, 3 * len(faces), 3)))
        me.polygons.foreach_set("loop_total", [3] * len(faces))
    me.update(calc_edges=True)
    known = {"x", "y", "z", "nx", "ny", "nz"}
    for n, c in zip(names, cols):
        if n in known:
            continue
        a = me.attributes.new(name=n, type="FLOAT", domain="POINT")
        a.data.foreach_set("value", c)

    def vector(attr, parts):
        if all(p in names for p in parts):
            a = me.attributes.new(name=attr, type="FLOAT_VECTOR", domain="POINT")
            v = [0.0] * (3 * nv)
            for k, p in enumerate(parts):
                v[k::3] = cols[names.index(p)]
            a.data.foreach_set("vector", v)

    vector("velocity", ("vx", "vy", "vz"))
    vector("rest", ("rest_x", "rest_y", "rest_z"))
    if "s" in names and "t" in names and faces:
        uv = me.uv_layers.new(name="st")
        s, t = cols[names.index("s")], cols[names.index("t")]
        loops = [i for f in faces for i in f]
        flat = [0.0] * (2 * len(loops))
        flat[0::2] = [s[i] for i in loops]
        flat[1::2] = [t[i] for i in loops]
        uv.data.foreach_set("uv", flat)
    me.update()
    return nv


def run_dir_of(scene):
    return scene.get("liquidcl_run", "")


def update_frame(scene, *args):
    """The frame's files into the sequence objects (the handler, and the import)."""
    d = run_dir_of(scene)
    if not d:
        return
    f = scene.frame_current
    for obj_name, sub, prefix in (("liquidcl surface", "mesh", ""),
                                  ("liquidcl particles", "particles", ""),
                                  ("liquidcl objects", "mesh", "objects_")):
        ob = bpy.data.objects.get(obj_name)
        if ob is not None:
            g = held(d, sub, prefix, f)
            fill_mesh(ob.data, os.path.join(d, sub, "%s%04d.ply" % (prefix, -1 if g is None else g)))
    vol = bpy.data.objects.get("liquidcl volume")
    if vol is not None and not vol.data.is_sequence:  # VDBs every Nth frame: the newest held
        g = held(d, "vdb", "", f)
        if g is not None and vol.data.filepath != os.path.join(d, "vdb", "%04d.vdb" % g):
            vol.data.filepath = os.path.join(d, "vdb", "%04d.vdb" % g)


def held(d, sub, prefix, f):
    """The newest frame at or before f that the run wrote (each kind may be written every
    Nth frame, output.mesh_every etc.: a frame between shows the one before)."""
    fs = [x for x in frames_of(d, sub, prefix) if x <= f]
    return fs[-1] if fs else None


def frames_of(d, sub, prefix=""):
    out = []
    p = os.path.join(d, sub)
    if os.path.isdir(p):
        for n in os.listdir(p):
            stem, ext = os.path.splitext(n)
            digits = stem[len(prefix):]
            if ext in (".ply", ".vdb") and stem.startswith(prefix) and digits.isdigit():
                out.append(int(digits))
    return sorted(out)


def import_run(d):
    d = os.path.abspath(d)
    scene = bpy.context.scene
    scene["liquidcl_run"] = d
    stats = os.path.join(d, "stats.jsonl")
    up = "y"
    if os.path.exists(stats):
        rows = [json.loads(l) for l in open(stats) if l.strip()]
        if rows:
            up = rows[0].get("up", "y")
            scene.frame_start, scene.frame_end = 0, rows[-1]["frame"]
            if len(rows) > 1 and rows[1]["time"] > 0:
                fps = rows[1]["frame"] / rows[1]["time"]
                scene.render.fps, scene.render.fps_base = round(fps), round(fps) / fps
    root = bpy.data.objects.new("liquidcl run", None)
    if up != "z":
        root.rotation_euler = (math.pi / 2, 0, 0)  # y up (liquidcl) -> z up (Blender)
    scene.collection.objects.link(root)

    def mesh_object(name):
        ob = bpy.data.objects.new(name, bpy.data.meshes.new(name))
        ob.parent = root
        scene.collection.objects.link(ob)
        return ob

    if frames_of(d, "mesh"):
        mesh_object("liquidcl surface")
    if os.path.exists(os.path.join(d, "mesh", "terrain.ply")):
        fill_mesh(mesh_object("liquidcl terrain").data, os.path.join(d, "mesh", "terrain.ply"))
    if frames_of(d, "mesh", "objects_"):
        mesh_object("liquidcl objects")
    if frames_of(d, "particles"):
        mesh_object("liquidcl particles")
    vdbs = frames_of(d, "vdb")
    if vdbs:
        vol = bpy.data.volumes.new("liquidcl volume")
        vol.filepath = os.path.join(d, "vdb", "%04d.vdb" % vdbs[0])
        if vdbs == list(range(vdbs[0], vdbs[0] + len(vdbs))):  # every frame: Blender's sequence
            vol.is_sequence = True
            vol.frame_start, vol.frame_duration = vdbs[0], len(vdbs)
            vol.sequence_mode = "CLIP"
        vol.grids.load()
        if hasattr(vol, "velocity_grid") and "vel" in [g.name for g in vol.grids]:
            vol.velocity_grid = "vel"
        ob = bpy.data.objects.new("liquidcl volume", vol)
        ob.parent = root
        scene.collection.objects.link(ob)
    if update_frame not in bpy.app.handlers.frame_change_pre:
        bpy.app.handlers.frame_change_pre.append(update_frame)
    update_frame(scene)
    return root


class LIQUIDCL_OT_import(bpy.types.Operator):
    """Load a liquidcl output folder (meshes, particles, objects, VDB volumes)"""
    bl_idname = "import_scene.liquidcl_run"
    bl_label = "liquidcl run"
    directory: bpy.props.StringProperty(subtype="DIR_PATH")

    def execute(self, context):
        import_run(self.directory)
        return {"FINISHED"}

    def invoke(self, context, event):
        context.window_manager.fileselect_add(self)
        return {"RUNNING_MODAL"}


def menu(self, context):
    self.layout.operator(LIQUIDCL_OT_import.bl_idname, text="liquidcl run (folder)")


def register():
    bpy.utils.register_class(LIQUIDCL_OT_import)
    bpy.types.TOPBAR_MT_file_import.append(menu)
    if update_frame not in bpy.app.handlers.frame_change_pre:
        bpy.app.handlers.frame_change_pre.append(update_frame)


def unregister():
    bpy.types.TOPBAR_MT_file_import.remove(menu)
    bpy.utils.unregister_class(LIQUIDCL_OT_import)
    if update_frame in bpy.app.handlers.frame_change_pre:
        bpy.app.handlers.frame_change_pre.remove(update_frame)


if __name__ == "__main__":
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if not argv:
        print("usage: blender -b -P liquidcl_blender.py -- RUN_DIR [--save FILE.blend]")
        sys.exit(2)
    import_run(argv[0])
    if "--save" in argv:
        bpy.ops.wm.save_as_mainfile(filepath=os.path.abspath(argv[argv.index("--save") + 1]))
