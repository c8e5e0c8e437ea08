import Foundation

/// A real HAProxy (Debian `haproxy`) in front of hubs for a test, on a free
/// loopback port, configured from the repository's `deploy/haproxy.cfg` with
/// its `bind` port and `server` lines replaced (and `maxconn` lowered to fit a
/// test's file limit). Stopped by `stop`, at the latest when the value goes away.
public final class HAProxyServer {
    public let port: Int
    private let process = Process()
    private let folder: TempDir

    /// Starts it for hubs on `hubPorts` and waits (up to 20 s: a safety net) until its
    /// health checks see every hub up (it then answers `/healthz` through).
    public init(hubPorts: [Int]) throws {
        port = try RedisServer.freePort()
        folder = try TempDir()
        let config = try Self.config(port: port, hubPorts: hubPorts)
        try folder.write("haproxy.cfg", config)
        process.executableURL = URL(fileURLWithPath: try Self.executable())
        process.arguments = ["-f", folder.path + "/haproxy.cfg", "-db"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if (try? RawHTTP.request(port: port, path: "/healthz"))?.status == 200 { return }
            usleep(20_000)
        }
        stop()
        throw RedisServerError("haproxy on port \(port) did not pass a request to a hub within 20 s")
    }

    /// `deploy/haproxy.cfg` for this run.
    static func config(port: Int, hubPorts: [Int]) throws -> String {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let shipped = try String(contentsOf: repository.appendingPathComponent("deploy/haproxy.cfg"), encoding: .utf8)
        var lines = shipped.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.hasPrefix("    server ") }
        lines = lines.map { line in
            if line.hasPrefix("    bind ") { return "    bind 127.0.0.1:\(port)" }
            if line.hasPrefix("    maxconn ") { return "    maxconn 1000" }
            return line
        }
        lines += hubPorts.enumerated().map { "    server hub\($0.offset + 1) 127.0.0.1:\($0.element) check" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Stops it and waits until it has exited.
    public func stop() { ChildProcess.stop(process) }

    deinit { stop() }

    static func executable() throws -> String {
        try ChildProcess.executable(["/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"], package: "haproxy")
    }
}
