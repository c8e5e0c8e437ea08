/// Who runs a room's camera, as this hub sees it: the one test the receive,
/// join, leave and tick paths make before they move, publish or forward.
enum RoomAuthority: Hashable {
    /// This hub runs the camera: the only hub, or the cluster's owner of the
    /// room (which may be fenced for a while: `Hub.runsCamera`).
    case owned
    /// Another hub of the cluster owns the room: this hub serves its frames
    /// (`Room.mirror`) and forwards its driving messages there.
    case mirrored
}

extension Room {
    /// Who runs this room's camera, from the cluster state it holds (a
    /// mirror keeps the owner's newest frame). Computed: it costs no bytes.
    var authority: RoomAuthority { isMirror ? .mirrored : .owned }
}
