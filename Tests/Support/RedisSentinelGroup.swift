import Foundation

/// A Redis master, one replica and three real Redis Sentinels on loopback,
/// watching the master as `name` (down after 1 s, quorum 2): a failover
/// promotes the replica within seconds of the master's death. For tests of
/// `--redis redis+sentinel://…`. Stopped when the value goes away.
public final class RedisSentinelGroup {
    public let name = "camhub"
    public let master: RedisServer
    public let replica: RedisServer
    private var sentinels: [Process] = []
    public private(set) var sentinelPorts: [Int] = []
    private let folder: URL

    /// Starts them and waits (up to 30 s) until every sentinel knows the replica and the other two sentinels.
    public init() throws {
        master = try RedisServer()
        replica = try RedisServer(arguments: ["--replicaof", "127.0.0.1", "\(master.port)"])
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("camhub-sentinel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for i in 0..<3 {
            let port = try RedisServer.freePort()
            let config = folder.appendingPathComponent("sentinel\(i).conf")
            try """
            port \(port)
            bind 127.0.0.1
            sentinel monitor \(name) 127.0.0.1 \(master.port) 2
            sentinel down-after-milliseconds \(name) 1000
            sentinel failover-timeout \(name) 5000
            sentinel parallel-syncs \(name) 1

            """.write(to: config, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try ChildProcess.executable(["/usr/bin/redis-sentinel"], package: "redis-sentinel"))
            process.arguments = [config.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            sentinels.append(process)
            sentinelPorts.append(port)
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if sentinelPorts.allSatisfy({ knows(at: $0) }) { return }
            usleep(100_000)
        }
        stop()
        throw RedisServerError("the sentinels did not find the replica and each other within 30 s")
    }

    /// `redis+sentinel://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3/camhub`.
    public var url: String { "redis+sentinel://" + sentinelPorts.map { "127.0.0.1:\($0)" }.joined(separator: ",") + "/\(name)" }

    /// The master's port as the first sentinel that answers says it is.
    public func masterPort() -> Int? {
        for port in sentinelPorts {
            if let lines = try? RedisServer.lines(port: port, "SENTINEL get-master-addr-by-name \(name)"), lines.count == 5 {
                return Int(lines[4])
            }
        }
        return nil
    }

    private func knows(at port: Int) -> Bool {
        guard let replicas = try? RedisServer.lines(port: port, "SENTINEL replicas \(name)"),
            let sentinels = try? RedisServer.lines(port: port, "SENTINEL sentinels \(name)")
        else { return false }
        return replicas.first == "*1" && sentinels.first == "*2"
    }

    public func stop() {
        for process in sentinels { ChildProcess.stop(process) }
        replica.stop()
        master.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }
}
