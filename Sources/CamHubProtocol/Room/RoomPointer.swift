/// A presenter's or driver's laser pointer on the room's map
/// (`{"type":"pointer","lat":…,"lon":…}`): one per room, the latest sender's.
public struct RoomPointer: Hashable, Sendable {
    /// Degrees; the longitude as sent (wrapped on the wire).
    public var latitude: Double
    public var longitude: Double
    /// The client pointing.
    public var by: String

    public init(latitude: Double, longitude: Double, by: String) {
        self.latitude = latitude
        self.longitude = longitude
        self.by = by
    }
}

/// What one frame says of the room's pointer. Frames are coalesced like the
/// camera: a frame carries the pointer while it is shown, `null` in the first
/// frame after it was hidden, and nothing otherwise (so that a room where
/// nobody points sends exactly the frames it always did).
public enum FramePointer: Hashable, Sendable {
    /// Nobody points (the frame has no `pointer` field).
    case none
    /// `pointer: {"lat","lon","by"}`.
    case shown(RoomPointer)
    /// `pointer: null`: it was hidden since the last frame.
    case hidden
}
