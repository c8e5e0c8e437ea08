import CamHubProtocol
import CameraCore
import CameraMotion

/// A map that shows a room's camera: the seam between CamHubKit and a native
/// map SDK (MapLibre Native, the Mapbox Maps SDK; docs/NATIVE.md has
/// adapters). `CameraSinkDriver` feeds it at a display rate.
public protocol CameraSink: Sendable {
    /// Draws `camera` for the display frame at `displayTime` (ms on `DisplayClock`).
    /// Called once per display frame in which the camera changed, in order.
    func apply(_ camera: Camera, displayTime: Double) async

    /// The map's own gestures (a person panning or zooming it), as the hub's
    /// gesture inputs in the map view's pixels: a driver sends them to the room.
    var gestures: AsyncStream<GestureInput> { get }
}

/// A headless sink: records every camera it was asked to draw, and plays
/// gestures it is handed as if a person made them on a map. For tests and
/// for apps that want the cameras without a map.
public actor RecordingCameraSink: CameraSink {
    /// Every camera drawn with its display time, oldest first.
    public private(set) var drawn: [(camera: Camera, displayTime: Double)] = []
    public nonisolated let gestures: AsyncStream<GestureInput>
    /// Each camera as it is drawn (one consumer).
    public nonisolated let applied: AsyncStream<Camera>
    private let gestureSink: AsyncStream<GestureInput>.Continuation
    private let appliedSink: AsyncStream<Camera>.Continuation

    public init() {
        (gestures, gestureSink) = AsyncStream.makeStream()
        (applied, appliedSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1024))
    }

    public func apply(_ camera: Camera, displayTime: Double) {
        drawn.append((camera, displayTime))
        appliedSink.yield(camera)
    }

    /// The newest camera drawn.
    public var last: Camera? { drawn.last?.camera }

    /// A gesture as a person would make it on the map.
    public func perform(_ gesture: GestureInput) { gestureSink.yield(gesture) }
}
