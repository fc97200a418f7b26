import FlybyCore
import FlybyData
import FlybyMaps
import FlybyRender
import Testing

/// The typed layers generated from the property table (Layers+Generated.swift) write each
/// property into its group, and the setters new with the table give layers the style accepts.
@Suite struct GeneratedLayerTests {
    /// The member names of `node[key]`, in order.
    static func members(_ node: JSONNode, _ key: String) -> [String] {
        guard case .object(let inner)? = node[key]?.value else { return [] }
        return inner.map(\.key)
    }

    @Test func aLineLayerWritesNewPaintSettersToPaintAndLayoutToLayout() {
        var line = LineLayer(id: "l", source: "s")
        line.linePattern = .constant(.name("dash"))
        line.lineTranslateAnchor = .constant(.viewport)
        line.lineBlur = .constant(1)
        line.lineCap = .constant(.round)
        line.lineRoundLimit = .constant(1.5)
        #expect(Self.members(line.layerJSON, "paint") == ["line-blur", "line-pattern", "line-translate-anchor"])
        #expect(Self.members(line.layerJSON, "layout") == ["line-cap", "line-round-limit"])
    }

    @Test func rasterAndHillshadeLayersHaveTypedSetters() {
        var raster = RasterLayer(id: "r", source: "imagery")
        raster.rasterOpacity = .constant(0.5)
        raster.rasterResampling = .constant(.nearest)
        #expect(Self.members(raster.layerJSON, "paint") == ["raster-opacity", "raster-resampling"])
        var shade = HillshadeLayer(id: "h", source: "dem")
        shade.hillshadeIlluminationAnchor = .constant(.map)
        #expect(Self.members(shade.layerJSON, "paint") == ["hillshade-illumination-anchor"])
        #expect(shade.layerJSON["type"]?.stringValue == "hillshade")
    }

    @Test func layersSettingTheNewPropertiesAreAcceptedByTheStyle() throws {
        let v = try MapView(frame: ScreenSize(width: 200, height: 100),
                            mapInitOptions: MapInitOptions(cameraOptions: CameraOptions(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 3),
                                                           styleURI: .world))
        var source = GeoJSONSource(id: "points")
        source.data = .geometry(.point(LocationCoordinate2D(latitude: 0, longitude: 0)))
        try v.mapboxMap.addSource(source)
        var fill = FillLayer(id: "fill", source: "points")
        fill.fillTranslate = .constant([2, 3])
        fill.fillTranslateAnchor = .constant(.viewport)
        var circle = CircleLayer(id: "circle", source: "points")
        circle.circlePitchScale = .constant(.viewport)
        circle.circlePitchAlignment = .constant(.map)
        circle.circleTranslate = .constant([1, 1])
        var symbol = SymbolLayer(id: "symbol", source: "points")
        symbol.textField = .constant("x")
        symbol.textRotationAlignment = .constant(.viewportGlyph)
        symbol.textLineHeight = .constant(1.5)
        symbol.iconHaloBlur = .constant(1)
        symbol.iconTextFit = .constant(.both)
        var background = BackgroundLayer(id: "background")
        background.backgroundPattern = .constant(.name("stripes"))
        try v.mapboxMap.addLayer(fill)
        try v.mapboxMap.addLayer(circle)
        try v.mapboxMap.addLayer(symbol)
        try v.mapboxMap.addLayer(background, layerPosition: .at(0))
        for id in ["fill", "circle", "symbol", "background"] { #expect(v.mapboxMap.layerExists(withId: id), "\(id)") }
    }
}
