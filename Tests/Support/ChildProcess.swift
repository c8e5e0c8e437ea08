import Foundation

/// What the tests' real servers (`RedisServer`, `HAProxyServer`) share about
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

    /// The first of `paths` that is an executable file, or an error naming the
    /// Debian package that provides it.
    static func executable(_ paths: [String], package: String) throws -> String {
        for path in paths where FileManager.default.isExecutableFile(atPath: path) { return path }
        throw RedisServerError("\(package) is not installed (scripts/setup.sh installs Debian's \(package))")
    }
}
