import CamHubKit
import CamHubProtocol
import Dispatch
import Synchronization

extension HelloOptions {
    /// Joins `url`'s hub with this hello through CamHubKit (`CamHub.connect`), with
    /// `url`'s TLS settings; `reconnect` nil: the room ends with its connection.
    /// Events not chosen are the role's default, without the extra ones a `Room`
    /// asks for by itself (a script or a follower hears what a plain client hears).
    public func join(_ url: HubURL, reconnect: Backoff?, joinTimeout: Double = 10) async throws(CamHubError) -> Room {
        let hello: Hello
        do { hello = try message() } catch { throw CamHubError(.badArgument, error.message) }
        return try await CamHub.connect(
            url: url.description, room: hello.room.value, role: hello.role, name: hello.name, token: hello.token,
            rate: hello.rate, encoding: hello.encoding, viewport: hello.viewport,
            events: hello.events ?? .defaults(for: hello.role), fit: hello.fit, joinTimeout: joinTimeout, reconnect: reconnect,
            tls: HubTLS(caFile: url.tls.caFile, verifiesCertificate: !url.tls.insecure))
    }
}

/// Runs `body` on Swift's concurrency pool and waits for it on this thread:
/// the synchronous command line (and the bench's presenter thread) on an async library.
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}
