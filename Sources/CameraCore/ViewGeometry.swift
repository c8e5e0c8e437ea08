/// A point in a client's view, in pixels from the top-left corner (y grows downward).
public struct ViewPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public var description: String { "(\(x), \(y))" }
}

/// A client's viewport size in pixels. Every client has its own; the room's
/// camera does not depend on any of them.
public struct Viewport: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Smallest and largest accepted side, in pixels.
    public static let sideRange: ClosedRange<Double> = 1...16384

    /// A viewport with both sides finite and within `sideRange`.
    public static func validated(width: Double, height: Double) throws(CameraInputError) -> Viewport {
        for (field, value) in [("width", width), ("height", height)] {
            guard value.isFinite else { throw .notFinite(field: field, value: value) }
            guard sideRange.contains(value) else {
                throw CameraInputError(field: field, message: "must be between \(Int(sideRange.lowerBound)) and \(Int(sideRange.upperBound)) px (got \(value))")
            }
        }
        return Viewport(width: width, height: height)
    }
}

/// Where the camera target sits in the view, as a fraction of the viewport
/// (x: 0 left … 1 right, y: 0 top … 1 bottom). It is also the perspective's
/// principal point, as MapLibre's padding offset is. Default: the centre.
public struct Anchor: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public static let center = Anchor(x: 0.5, y: 0.5)
}

/// Padding inside a viewport, in pixels: a camera's padding (MapLibre /
/// Mapbox `padding`) and the extra padding of `fit`.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
    public init(all: Double) { self.init(top: all, left: all, bottom: all, right: all) }

    public static let zero = EdgeInsets()

    /// Side by side sums.
    public static func + (a: EdgeInsets, b: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: a.top + b.top, left: a.left + b.left, bottom: a.bottom + b.bottom, right: a.right + b.right)
    }
}

/// A partial padding (a camera update's `padding`): the sides given replace
/// the camera's, the others keep their value (MapLibre's `PaddingOptions`).
public struct PaddingUpdate: Hashable, Sendable {
    public var top: Double?
    public var left: Double?
    public var bottom: Double?
    public var right: Double?
    public init(top: Double? = nil, left: Double? = nil, bottom: Double? = nil, right: Double? = nil) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
    /// Every side set.
    public init(_ insets: EdgeInsets) { self.init(top: insets.top, left: insets.left, bottom: insets.bottom, right: insets.right) }

    public var isEmpty: Bool { top == nil && left == nil && bottom == nil && right == nil }

    /// `insets` with the given sides replaced.
    public func applied(to insets: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: top ?? insets.top, left: left ?? insets.left, bottom: bottom ?? insets.bottom, right: right ?? insets.right)
    }

    /// Each side given must be finite and not negative (errors name `padding.<side>`).
    public func validate() throws(CameraInputError) {
        for (name, value) in [("top", top), ("left", left), ("bottom", bottom), ("right", right)] {
            guard let value else { continue }
            try requireFinite(value, "padding." + name)
            guard value >= 0 else { throw CameraInputError(field: "padding." + name, message: "must not be negative (got \(value))") }
        }
    }
}
