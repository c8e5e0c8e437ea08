import HubCore

/// `GET /healthz`: `{"status":"ok","connections":…,"clients":…,"rooms":[{"name":…,"clients":…,"seq":…}]}`.
enum HealthReport {
    static func json(_ hub: Hub) -> String {
        var w = JSONWriter(capacity: 256)
        let counts = hub.counts
        w.raw("{\"status\":\"ok\",\"connections\":"); w.integer(UInt64(counts.connections))
        w.raw(",\"clients\":"); w.integer(UInt64(counts.clients))
        w.raw(",\"rooms\":[")
        for (i, room) in hub.roomSummaries.enumerated() {
            if i > 0 { w.raw(",") }
            w.raw("{\"name\":"); w.string(room.name)
            w.raw(",\"clients\":"); w.integer(UInt64(room.clients))
            w.raw(",\"seq\":"); w.integer(room.seq)
            w.raw(",\"camera\":"); w.camera(room.camera)
            w.raw("}")
        }
        w.raw("]}")
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
