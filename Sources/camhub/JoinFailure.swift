import CamHubClient
import CamHubKit
import CamHubProtocol

/// Why `present` or `follow` could not join, for people: a refused `hello`
/// names the flag and keeps the hub's words ("the hub refused --rate 100:
/// rate: must be within 1…60 frames per second (got 100.0)"); a refused
/// upgrade the server's answer (`UpgradeRefusal`); anything else as CamHubKit says it.
func joinFailure(_ error: CamHubError, _ hello: HelloOptions, url: HubURL) -> String {
    if let code = error.code { return joinFailure(ProtocolError(code, error.message, ref: error.ref), hello) }
    if error.kind == .upgradeRefused, let answer = UpgradeRefusal.answer(url, room: hello.room) {
        return "could not connect to \(url): \(answer)"
    }
    return error.message
}
