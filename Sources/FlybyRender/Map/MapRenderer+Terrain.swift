import FlybyCore

extension MapRenderer {
    /// Makes the terrain drape on first use (with this renderer's images); false when the style
    /// has no terrain or the texture renderer cannot be made (the frame is then drawn flat).
    mutating func prepareDrape() -> Bool {
        if !drapes.isEmpty { return true }
        guard let terrainStyle, let elevation = terrainStyle.terrainElevation else { return false }
        guard var drape = try? TerrainDrape(style: terrainStyle, elevation: elevation, width: width, height: height,
                                            pixelRatio: pixelRatio) else { return false }
        drape.texture.images = images
        drape.texture.imageInfo = imageInfo
        drapes = [drape]
        return true
    }

    /// One frame draped on the terrain (``TerrainDrape``): the texture and the relief, then the
    /// labels and icons moved to the relief's height and hidden where it occludes them, the puck
    /// and the ornaments.
    mutating func renderDraped(_ camera: CameraState, _ g: FrameGeometry, puck: PuckState?, into buffer: inout PixelBuffer) {
        if drapes[0].texture.stateGeneration != stateGeneration {
            drapes[0].texture.featureStates = featureStates
            drapes[0].texture.stateGeneration = stateGeneration
        }
        drapes[0].texture.layerRange = layerRange
        drapes[0].texture.mapPlaneLineWidths = mapPlaneLineWidths
        let key = TerrainDrape.DrapeKey(camera: camera, stateGeneration: stateGeneration, layerRange: layerRange,
                                        mapPlaneLineWidths: mapPlaneLineWidths)
        if !reusesTerrainFrame { drapes[0].key = nil }
        let fog = terrainFog(g)
        placeSymbols(g)
        buffer.withView { view in
            drapes[0].draw(camera, key: key, g, fog: fog, threads: threads, pixelRatio: pixelRatio, into: view)
            drawExtrusionsOnRelief(g, view)
            symbolDraws = drapes[0].lift(symbolDraws, g)
            drawSymbolsAndOverlays(camera, g, puck: puck, symbols: symbolDraws, drape: drapes[0], view)
        }
    }

    /// The `fill-extrusion` layers, in style order, standing on the relief and hidden where it
    /// is in front of them (the texture leaves them out: ``drawsExtrusions``).
    mutating func drawExtrusionsOnRelief(_ g: FrameGeometry, _ view: PixelBufferView) {
        buildingDepth.isCleared = false
        for (k, layer) in style.style.layers.enumerated() where layer.type == .fillExtrusion {
            guard layer.isVisible(atZoom: g.zoom), layerRange?.contains(k) ?? true else { continue }
            drawFillExtrusions(k, layer, g, on: drapes[0], view)
        }
    }

    /// The fog over the relief: the sky's `fog-color`, from `fog-ground-blend` of the way between
    /// the map centre's depth and the horizon's (0: from the centre, 1: only at the horizon;
    /// MapLibre's `sky`) to the horizon. No fog on an unpitched map.
    func terrainFog(_ g: FrameGeometry) -> Fog {
        let z = g.zoom
        let sky = style.style.sky
        let color = sky?.color(.fogColor, zoom: z) ?? StyleColor(r8: 0xF4, g8: 0xF7, b8: 0xFB)
        let blend = min(1, max(0, sky?.number(.fogGroundBlend, zoom: z) ?? 0.5))
        guard g.pitched else { return Fog(color: 0, start: 0, end: 0, opacity: 0) }
        let centre = g.transform.cameraDistance
        let horizon = g.far / 1.05
        let opaque = pixelColor(color, 1)
        return Fog(color: opaque.premultipliedARGB, start: Float(centre + (horizon - centre) * blend), end: Float(horizon),
                   opacity: Float(color.rgba8.a) / 255)
    }
}
