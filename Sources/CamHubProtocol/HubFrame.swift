import CameraCore
import CameraMotion

/// One room frame as a client reads it, from a JSON `frame` or a binary
/// frame alike: the arguments of `HubMessage.frame` and `BinaryFrame.encode`,
/// as they come through the wire.
///
/// What the wire does to them, so what a decoded frame holds:
/// - `camera`: its longitude wrapped to [-180, 180) (`JSONWriter.wireLongitude`)
///   and its bearing to [0, 360) (`normalizeBearing`); a centred anchor and
///   zero padding are left out and come back as `.center` and `.zero`.
/// - `velocity`: each rate rounded to 1e-7 (JSON), then to a float32 (binary),
///   so a JSON and a binary frame of the same arguments differ here, and only
///   here, unless the rounded rates are float32s already.
/// - `pointer`: its longitude wrapped like the camera's.
/// - `seq` and `epoch` travel as JSON numbers, which the parser holds as
///   doubles: exact up to 2^53 (binary frames carry all 64 bits).
public struct HubFrame: Hashable, Sendable {
    /// Increases by one each time the room's frame changes.
    public var seq: UInt64
    /// Hub wall clock, ms since the Unix epoch.
    public var time: Double
    public var camera: Camera
    /// False on the frame where the camera came to rest (and later ones).
    public var moving: Bool
    /// Who moved the camera last (nil: nobody yet).
    public var by: String?
    /// The first frame after a change of course.
    public var corner: Bool
    /// The planned path's slope at this frame, per second (nil: none).
    public var velocity: CameraVelocity?
    /// The room's pointer: shown, hidden since the last frame, or neither.
    public var pointer: FramePointer
    /// The lease epoch of the hub that ran the camera (0: none, the in-memory engine).
    public var epoch: UInt64

    public init(
        seq: UInt64, time: Double, camera: Camera, moving: Bool, by: String?, corner: Bool = false, velocity: CameraVelocity? = nil,
        pointer: FramePointer = .none, epoch: UInt64 = 0
    ) {
        self.seq = seq
        self.time = time
        self.camera = camera
        self.moving = moving
        self.by = by
        self.corner = corner
        self.velocity = velocity
        self.pointer = pointer
        self.epoch = epoch
    }

    /// The frame a binary frame message says (see `BinaryFrame.decode`).
    public init(_ binary: BinaryFrame.Decoded) {
        let camera = Camera(
            latitude: binary.latitude, longitude: binary.longitude, zoom: binary.zoom, tilt: binary.tilt, bearing: binary.bearing,
            anchor: binary.anchor ?? .center, padding: binary.padding ?? .zero, roll: binary.roll, elevation: binary.elevation,
            fov: binary.fov)
        var velocity: CameraVelocity?
        if let v = binary.velocity, v.count >= 5 {
            velocity = CameraVelocity(latitude: v[0], longitude: v[1], zoom: v[2], bearing: v[3], tilt: v[4])
            if v.count == 8 { (velocity!.roll, velocity!.elevation, velocity!.fov) = (v[5], v[6], v[7]) }
        }
        let pointer: FramePointer
        switch binary.pointer {
        case .none: pointer = .none
        case .hidden: pointer = .hidden
        case .shown(let latitude, let longitude, let by): pointer = .shown(RoomPointer(latitude: latitude, longitude: longitude, by: by))
        }
        self.init(
            seq: binary.seq, time: binary.time, camera: camera, moving: binary.moving, by: binary.by, corner: binary.corner,
            velocity: velocity, pointer: pointer, epoch: binary.epoch)
    }

    /// This frame as the hub writes it in JSON (`HubMessage.frame`).
    public var json: [UInt8] {
        HubMessage.frame(
            seq: seq, time: time, camera: camera, moving: moving, by: by, corner: corner, velocity: velocity, pointer: pointer, epoch: epoch)
    }

    /// This frame as the hub writes it in binary (`BinaryFrame.encode`).
    public var binary: [UInt8] {
        BinaryFrame.encode(
            seq: seq, time: time, camera: camera, moving: moving, by: by, corner: corner, velocity: velocity, pointer: pointer, epoch: epoch)
    }
}
