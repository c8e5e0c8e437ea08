import CamHubProtocol
import CameraCore
import HubCore

/// One line of a recording (docs/RECORDING.md), encoded with the hub's own
/// `JSONWriter`: numbers in shortest round-trip form, so a camera read back is
/// the recorded one to the bit.
enum RecordingLine {
    /// Format version written in every file's first line.
    static let version = 1

    /// `{"type":"recording","version":1,"room":…,"started":…,"part":…}`: a
    /// file's first line. `started` is the wall clock (ms) of the room's first entry.
    static func header(room: String, startedEpochMilliseconds: Double, part: Int) -> [UInt8] {
        var w = JSONWriter(capacity: 128)
        w.raw("{\"type\":\"recording\",\"version\":")
        w.integer(UInt64(version))
        w.raw(",\"room\":")
        w.string(room)
        w.raw(",\"started\":")
        w.number(startedEpochMilliseconds)
        w.raw(",\"part\":")
        w.integer(UInt64(part))
        w.raw("}\n")
        return w.bytes
    }

    /// An entry's line; `t` is seconds since the room's first entry (hub monotonic clock).
    static func encode(_ entry: RecordEntry, t: Double) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        switch entry {
        case .command(let c):
            w.raw("{\"type\":\"command\",\"t\":")
            w.number(t)
            w.raw(",\"time\":")
            w.number(c.time.epochMilliseconds)
            w.raw(",\"client\":")
            w.string(c.client)
            w.raw(",\"role\":")
            w.string(c.role.rawValue)
            if let v = c.viewport {
                w.raw(",\"viewport\":{\"width\":")
                w.number(v.width)
                w.raw(",\"height\":")
                w.number(v.height)
                w.raw("}")
            }
            w.raw(",\"message\":")
            w.string(String(decoding: c.message, as: UTF8.self))
        case .animationEnded(let a):
            w.raw("{\"type\":\"animationEnded\",\"t\":")
            w.number(t)
            w.raw(",\"time\":")
            w.number(a.time.epochMilliseconds)
            w.raw(",\"id\":")
            w.string(a.id)
            w.raw(",\"owner\":")
            w.string(a.owner)
            w.raw(",\"status\":")
            w.string(a.status.rawValue)
            w.raw(",\"camera\":")
            w.camera(a.camera)
        }
        w.raw("}\n")
        return w.bytes
    }
}

extension RecordEntry {
    var room: String {
        switch self {
        case .command(let c): c.room
        case .animationEnded(let a): a.room
        }
    }

    var time: HubTime {
        switch self {
        case .command(let c): c.time
        case .animationEnded(let a): a.time
        }
    }
}
