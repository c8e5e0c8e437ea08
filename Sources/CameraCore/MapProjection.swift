/// How a room's map draws the world (MapLibre GL JS 5 `projection`): flat Web
/// Mercator, or a globe at low zoom. A property of the room, not of its camera:
/// the camera means the same in both (MapLibre's globe blends into Mercator as
/// it zooms in). Set by presenters and drivers; every client applies it.
public enum MapProjection: String, Hashable, Sendable, CaseIterable {
    case mercator
    case globe
}
