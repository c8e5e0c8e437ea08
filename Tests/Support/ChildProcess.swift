import Foundation

/// What the tests' real servers (`RedisServer`, `HAProxyServer`, `ServeProcess`) share about
/// the process they run.
enum ChildProcess {
    /// Stops `process` (SIGTERM, then SIGKILL after 2 s) and waits until it has exited.
    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(2)
        while process.isRunning && ContinuousClock.now < deadline { usleep(5_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Sends SIGSTOP to `pid` and waits (at most 20 s) until every one of its
    /// threads is stopped. `kill` returns before that: a loaded machine may not
    /// yet have scheduled the thread that stops the others, and they run on meanwhile.
    static func freeze(_ pid: Int32) {
        kill(pid, SIGSTOP)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline && !allThreadsStopped(pid) { usleep(1_000) }
    }

    /// Whether every thread of `pid` is in state `T` (stopped), read from `/proc`.
    static func allThreadsStopped(_ pid: Int32) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return !tasks.isEmpty
            && tasks.allSatisfy { task in
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
                    let close = stat.lastIndex(of: ")")
                else { return false }
                return stat[close...].dropFirst(2).first == "T"
            }
    }

    /// The first of `paths` that is an executable file, or an error naming the
    /// Debian package that provides it.
    static func executable(_ paths: [String], package: String) throws -> String {
        for path in paths where FileManager.default.isExecutableFile(atPath: path) { return path }
        throw RedisServerError("\(package) is not installed (scripts/setup.sh installs Debian's \(package))")
    }
}
