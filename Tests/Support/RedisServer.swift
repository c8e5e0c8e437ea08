import Foundation

/// A real `redis-server` for a test: loopback only, on a free port picked
/// here (Redis does not accept `--port 0`), with no persistence. Stopped (or
/// killed) by `stop`, and at the latest when the value goes away.
public final class RedisServer {
    public let port: Int
    private let process = Process()

    /// Starts it and waits (up to 20 s: a safety net for a loaded machine) until it answers `PING`.
    /// `arguments`: more of `redis-server`'s (`--replicaof 127.0.0.1 6379`).
    public init(port: Int? = nil, arguments: [String] = []) throws {
        self.port = try port ?? Self.freePort()
        process.executableURL = URL(fileURLWithPath: try Self.executable())
        process.arguments =
            [
                "--bind", "127.0.0.1", "--port", "\(self.port)", "--save", "", "--appendonly", "no",
                "--protected-mode", "yes", "--loglevel", "warning", "--daemonize", "no",
            ] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if (try? command("PING")) == "+PONG" { return }
            usleep(10_000)
        }
        stop()
        throw RedisServerError("redis-server on port \(self.port) did not answer PING within 20 s")
    }

    /// `redis://127.0.0.1:PORT`.
    public var url: String { "redis://127.0.0.1:\(port)" }

    /// Stops it (SIGTERM, then SIGKILL after 2 s) and waits until it has exited.
    public func stop() { ChildProcess.stop(process) }

    /// Freezes it (SIGSTOP), returning once it has stopped: connections stay open, nothing is answered.
    public func pause() { ChildProcess.freeze(process.processIdentifier) }

    /// Thaws it after `pause` (SIGCONT).
    public func resume() { kill(process.processIdentifier, SIGCONT) }

    /// Kills it with signal 9 (a crash: nothing is flushed, no client is told) and waits for the exit.
    public func kill9() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }

    /// Sends one inline command over a fresh connection and returns the first
    /// line of the reply (`+PONG`, `:1`, `$5` …), for checks from tests.
    public func command(_ line: String) throws -> String {
        try lines(line)[0]
    }

    /// Sends one inline command over a fresh connection and returns every
    /// line of its whole reply (an array's header and items, in order).
    public func lines(_ line: String) throws -> [String] { try Self.lines(port: port, line) }

    /// `lines` of any Redis (or Sentinel) on a loopback `port`.
    public static func lines(port: Int, _ line: String) throws -> [String] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RedisServerError("socket: errno \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw RedisServerError("connect to \(port): errno \(errno)") }
        let request = Array((line + "\r\n").utf8)
        guard write(fd, request, request.count) == request.count else { throw RedisServerError("write: errno \(errno)") }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let text = String(decoding: reply, as: UTF8.self)
            let received = text.components(separatedBy: "\r\n").dropLast()
            if let needed = Self.linesOfReply(Array(received)), received.count >= needed { return Array(received.prefix(needed)) }
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { throw RedisServerError("no whole reply to \(line)") }
            reply += buffer[0..<n]
        }
    }

    /// How many lines the RESP reply starting at `lines[at]` spans (nil: more lines are needed to tell).
    static func linesOfReply(_ lines: [String], at start: Int = 0) -> Int? {
        guard start < lines.count, let kind = lines[start].first else { return nil }
        let count = Int(lines[start].dropFirst()) ?? 0
        switch kind {
        case "$": return count < 0 ? 1 : 2
        case "*":
            var used = 1
            for _ in 0..<max(count, 0) {
                guard let item = linesOfReply(lines, at: start + used) else { return nil }
                used += item
            }
            return used
        default: return 1
        }
    }

    /// A loopback TCP port nobody listens on right now.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw RedisServerError("bind: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func executable() throws -> String {
        try ChildProcess.executable(["/usr/bin/redis-server", "/usr/local/bin/redis-server"], package: "redis-server")
    }
}

public struct RedisServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
