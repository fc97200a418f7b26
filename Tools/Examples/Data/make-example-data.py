#!/usr/bin/env python3
"""Builds the point sets of examples 5 and 6 from data the package already ships.

Deterministic (same bytes on a rerun); standard library only. Run from the repository root:

    python3 Tools/Examples/Data/make-example-data.py

Outputs (Sources/FlybyData/Resources/):
  world/ne_50m_populated_places_us.geojson  the Natural Earth places in the United States. Example 5
      ("US lighthouses") uses it as a stand-in: no lighthouse list with a clear public-domain or CC0
      licence was found in the stored sources (see DATA-SOURCES.md).
  city/helsinki_pois.geojson    points of interest: the area centroid of every OSM building with a
      name and a public kind of use (museum, church, station, shop, university, ...).
  city/helsinki_places.geojson  place labels: the area centroid of every named OSM city block
      (Helsinki names its blocks: Kotka, Seepra, ...) and named park.
  styles/standard.json  "Flyby Standard": the city style plus the three featuresets of Mapbox
      Standard's interaction example (points of interest, buildings, place labels), each styled by
      feature state, with the city style's light presets extended to the new layers.
Nothing is invented: every name and position comes from the OSM or Natural Earth features.
"""
import json
import os

RES = "Sources/FlybyData/Resources"

# building=* values that make a named building a point of interest, and the POI class they get.
POI_CLASS = {
    "museum": "museum", "cathedral": "religion", "church": "religion", "chapel": "religion",
    "train_station": "transit", "university": "education", "school": "education",
    "retail": "shop", "public": "civic", "tower": "landmark", "kiosk": "food", "ship": "landmark",
}
BLOCK_CLASSES = {"civil", "commercial", "residential"}


def ring_centroid(ring):
    """Area centroid and absolute area (shoelace) of a closed lon/lat ring; planar, fine at city scale."""
    a = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(ring, ring[1:]):
        c = x0 * y1 - x1 * y0
        a += c
        cx += (x0 + x1) * c
        cy += (y0 + y1) * c
    if a == 0:
        xs = [p[0] for p in ring]; ys = [p[1] for p in ring]
        return (sum(xs) / len(xs), sum(ys) / len(ys)), 0.0
    return (cx / (3 * a), cy / (3 * a)), abs(a / 2)


def polygon_centroid(geometry):
    polys = [geometry["coordinates"]] if geometry["type"] == "Polygon" else geometry["coordinates"]
    best = max((ring_centroid(p[0]) for p in polys), key=lambda c: c[1])
    return best


def point(lon, lat, props, fid):
    return {"type": "Feature", "id": fid, "properties": props,
            "geometry": {"type": "Point", "coordinates": [round(lon, 6), round(lat, 6)]}}


def write(path, name, attribution, features):
    xs = [f["geometry"]["coordinates"][0] for f in features]
    ys = [f["geometry"]["coordinates"][1] for f in features]
    bbox = [min(xs), min(ys), max(xs), max(ys)]
    head = {"type": "FeatureCollection", "name": name, "attribution": attribution, "bbox": bbox}
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))[:-1] + ',"features":[\n'
    text += ",\n".join(json.dumps(f, ensure_ascii=False, separators=(",", ":")) for f in features)
    text += "\n]}\n"
    with open(os.path.join(RES, path), "w", encoding="utf-8") as out:
        out.write(text)
    print(f"{path}: {len(features)} features")


def load(path):
    with open(os.path.join(RES, path), encoding="utf-8") as f:
        return json.load(f)["features"]


def main():
    osm = "© OpenStreetMap contributors, ODbL 1.0 (openstreetmap.org/copyright)"

    places = [f for f in load("world/ne_50m_populated_places.geojson") if f["properties"].get("iso_a2") == "US"]
    us = []
    for k, f in enumerate(places):
        p = f["properties"]
        lon, lat = f["geometry"]["coordinates"]
        us.append(point(lon, lat, {"name": p["name"], "population": p["population"], "scalerank": p["scalerank"]}, k))
    write("world/ne_50m_populated_places_us.geojson", "ne_50m_populated_places_us",
          "Natural Earth (public domain)", us)

    pois = {}
    for f in load("city/helsinki_buildings.geojson"):
        p = f["properties"]
        kind = POI_CLASS.get(p.get("building"))
        if not kind or "name" not in p:
            continue
        (lon, lat), area = polygon_centroid(f["geometry"])
        if p["name"] not in pois or area > pois[p["name"]][1]:
            pois[p["name"]] = ((lon, lat, kind, p["building"]), area)
    poi_features = []
    for k, name in enumerate(sorted(pois)):
        lon, lat, kind, building = pois[name][0]
        poi_features.append(point(lon, lat, {"name": name, "class": kind, "building": building}, k))
    write("city/helsinki_pois.geojson", "helsinki_pois", osm, poi_features)

    labels = {}
    for f in load("city/helsinki_landuse.geojson"):
        p = f["properties"]
        if "name" not in p:
            continue
        if p.get("class") in BLOCK_CLASSES:
            kind = "block"
        elif p.get("class") == "park":
            kind = "park"
        else:
            continue
        (lon, lat), area = polygon_centroid(f["geometry"])
        if p["name"] not in labels or area > labels[p["name"]][1]:
            labels[p["name"]] = ((lon, lat, kind), area)
    label_features = []
    for k, name in enumerate(sorted(labels)):
        lon, lat, kind = labels[name][0]
        label_features.append(point(lon, lat, {"name": name, "class": kind}, k))
    write("city/helsinki_places.geojson", "helsinki_places", osm, label_features)
    standard_style()


def standard_style():
    """The city style with POI and place-label layers whose look follows feature state."""
    with open(os.path.join(RES, "styles/city.json"), encoding="utf-8") as f:
        style = json.load(f)
    style["name"] = "Flyby Standard (Helsinki)"
    style["sources"]["pois"] = {"type": "geojson", "data": "builtin:city/helsinki_pois.geojson",
                                "attribution": "© OpenStreetMap contributors"}
    style["sources"]["places"] = {"type": "geojson", "data": "builtin:city/helsinki_places.geojson",
                                  "attribution": "© OpenStreetMap contributors"}
    hidden = ["case", ["==", ["feature-state", "hide"], True], 0, 1]
    selected = ["==", ["feature-state", "select"], True]
    style["layers"] += [
        {"id": "place-labels", "type": "symbol", "source": "places",
         "layout": {"text-field": ["get", "name"], "text-font": ["DejaVu Sans Bold"],
                    "text-size": ["case", selected, 15, ["match", ["get", "class"], "block", 12, 13]],
                    "text-transform": ["match", ["get", "class"], "block", "uppercase", "none"],
                    "text-letter-spacing": 0.08, "text-max-width": 8, "text-padding": 4},
         "paint": {"text-color": ["case", selected, "#d2410f", ["match", ["get", "class"], "park", "#3f7a3a", "#6b6259"]],
                   "text-halo-color": "#ffffff", "text-halo-width": 1.5}},
        {"id": "poi", "type": "circle", "source": "pois",
         "paint": {"circle-radius": 6,
                   "circle-color": ["match", ["get", "class"], "museum", "#c2548a", "religion", "#8b6d4f",
                                    "transit", "#3d6fd0", "education", "#7a5ac2", "shop", "#e0822c",
                                    "food", "#d1503e", "#3f8f7e"],
                   "circle-stroke-color": "#ffffff", "circle-stroke-width": 1.5,
                   "circle-opacity": hidden, "circle-stroke-opacity": hidden}},
        {"id": "poi-labels", "type": "symbol", "source": "pois",
         "layout": {"text-field": ["get", "name"], "text-font": ["DejaVu Sans"], "text-size": 11,
                    "text-anchor": "top", "text-offset": [0, 0.8], "text-max-width": 9, "text-optional": True},
         "paint": {"text-color": "#4a4037", "text-halo-color": "#ffffff", "text-halo-width": 1.2,
                   "text-opacity": hidden}},
    ]
    night = {"place-labels": {"paint": {"text-color": ["case", selected, "#ffb380",
                                                       ["match", ["get", "class"], "park", "#9fd39a", "#c9c2d6"]],
                                        "text-halo-color": "#12161c"}},
             "poi-labels": {"paint": {"text-color": "#d9d2c8", "text-halo-color": "#12161c"}},
             "poi": {"paint": {"circle-stroke-color": "#12161c"}}}
    for name in ("dusk", "night"):
        style["metadata"]["flyby:presets"][name]["layers"].update(night)
    with open(os.path.join(RES, "styles/standard.json"), "w", encoding="utf-8") as out:
        json.dump(style, out, ensure_ascii=False, indent=1)
        out.write("\n")
    print("styles/standard.json")


if __name__ == "__main__":
    main()
