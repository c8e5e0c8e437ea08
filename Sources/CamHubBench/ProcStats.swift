import CamHubClient
import Foundation

/// Reading a local process's CPU time and memory from /proc (Linux).
public enum ProcStats {
    /// CPU seconds (user + system) a process has used so far, from /proc/PID/stat.
    public static func cpuSeconds(pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after "pid (comm)": state is field 3; utime, stime are fields 14, 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let utime = Double(fields[11]), let stime = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (utime + stime) / (ticks > 0 ? ticks : 100)
    }

    /// Resident set size in bytes (VmRSS in /proc/PID/status).
    public static func rssBytes(pid: Int32) -> UInt64? {
        status(pid: pid, key: "VmRSS:")
    }

    /// Threads of the process.
    public static func threads(pid: Int32) -> UInt64? {
        status(pid: pid, key: "Threads:")
    }

    private static func status(pid: Int32, key: String) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count >= 2, let v = UInt64(parts[1]) else { return nil }
            return parts.count >= 3 && parts[2] == "kB" ? v * 1024 : v
        }
        return nil
    }

    /// Busy and total jiffies of the whole machine (/proc/stat "cpu" line).
    public static func machineJiffies() -> (busy: UInt64, total: UInt64)? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return nil }
        let v = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        guard v.count >= 5 else { return nil }
        let total = v.prefix(8).reduce(0, +)
        let idle = v[3] + v[4]  // idle + iowait
        return (total - idle, total)
    }

    /// The process listening on TCP `port` (IPv4 or IPv6): the socket's inode
    /// from /proc/net/tcp{,6}, then the process holding it in /proc/*/fd.
    public static func pidListening(onPort port: Int) -> Int32? {
        var inodes: Set<String> = []
        let hexPort = String(format: ":%04X", port)
        for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let f = line.split(separator: " ")
                // sl local_address rem_address st ... inode (field 9)
                guard f.count > 9, f[1].hasSuffix(hexPort), f[3] == "0A" else { continue }
                inodes.insert(String(f[9]))
            }
        }
        guard !inodes.isEmpty else { return nil }
        let targets = Set(inodes.map { "socket:[\($0)]" })
        guard let pids = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for entry in pids {
            guard let pid = Int32(entry) else { continue }
            guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { continue }
            for fd in fds {
                if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
                    targets.contains(link)
                {
                    return pid
                }
            }
        }
        return nil
    }

    /// The CPU model from /proc/cpuinfo ("AMD EPYC …"), and the number of CPUs.
    public static func cpuModel() -> (name: String, count: Int) {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return ("unknown", 0) }
        var name = "unknown"
        var count = 0
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            count += 1
            if let colon = line.firstIndex(of: ":") { name = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) }
        }
        return (name, count)
    }
}

/// CPU use of one process between two readings.
public struct CPUSample: Sendable {
    public let pid: Int32
    public let cpu: Double
    public let wall: Double

    public init?(pid: Int32) {
        guard let cpu = ProcStats.cpuSeconds(pid: pid) else { return nil }
        self.pid = pid
        self.cpu = cpu
        wall = monotonicSeconds()
    }

    /// (CPU seconds used, fraction of one core) since `self`.
    public func until(_ later: CPUSample) -> (seconds: Double, cores: Double) {
        let used = later.cpu - cpu
        let wall = later.wall - self.wall
        return (used, wall > 0 ? used / wall : 0)
    }
}
