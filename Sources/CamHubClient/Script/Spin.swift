import CamHubProtocol
import Foundation

/// The built-in presenter of `camhub bench --presenter spin`: a never-ending
/// chain of linear `animate` segments (bearing +90°, longitude +30°, tilt
/// between 20° and 40° every `segment` seconds), each chained `after` the
/// previous one so the camera never stops between them. Two segments are
/// always queued ahead.
public enum Spin {
    public static let segmentSeconds = 2.0

    /// The `animate` message of segment `k` (1-based).
    public static func segment(_ k: Int, chained: Bool = true, seconds: Double = segmentSeconds) -> String {
        let bearing = Double((k * 90) % 360)
        let lon = Double(((k * 30 + 180) % 360) - 180)
        let tilt = k % 2 == 0 ? 20.0 : 40.0
        var s = "{\"type\":\"animate\",\"id\":\"spin-\(k)\",\"to\":{\"lon\":\(JSONWriter.plain(lon)),\"bearing\":\(JSONWriter.plain(bearing)),"
        s += "\"tilt\":\(JSONWriter.plain(tilt)),\"zoom\":3},\"duration\":\(JSONWriter.plain(seconds)),\"curve\":\"linear\""
        if k > 1 && chained { s += ",\"after\":\"spin-\(k - 1)\"" }
        return s + "}"
    }

    /// Drives the room until `shouldStop` or `deadline` (monotonic seconds).
    /// `onFrame` sees every frame the presenter receives; returns the hub's error messages.
    public static func run(
        _ connection: HubConnection, deadline: Double, shouldStop: () -> Bool,
        onFrame: (HubFrame, Double) -> Void = { _, _ in }
    ) -> [String] {
        var errors: [String] = []
        var queued = 0
        for _ in 0..<3 {
            queued += 1
            connection.send(segment(queued))
        }
        while !shouldStop(), monotonicSeconds() < deadline {
            guard let item = connection.next(timeout: 0.1) else { continue }
            switch item {
            case .closed(let event):
                errors.append("presenter connection ended: \(describe(event))")
                return errors
            case .message(let r):
                switch r.message {
                case .frame(let f):
                    onFrame(f, r.localTime)
                case .animation(let a, _) where a.status.isEnd:
                    if a.status == .finished {
                        queued += 1
                        connection.send(segment(queued))
                    } else if a.reason != "predecessorEnded" {
                        // Someone else took the camera: the queued successors are cancelled too; start a new chain.
                        errors.append("spin segment \(a.id ?? "?") \(a.status.rawValue) by \(a.by ?? "the hub")")
                        for i in 0..<3 {
                            queued += 1
                            connection.send(segment(queued, chained: i > 0))
                        }
                    }
                case .error(let e):
                    errors.append("\(e.code.rawValue): \(e.message)")
                default:
                    break
                }
            }
        }
        connection.send("{\"type\":\"cancel\"}")
        return errors
    }
}
