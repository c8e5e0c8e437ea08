import Foundation

/// Runs a program to completion (killed after `timeout`), reading its output
/// while it runs so a full pipe can never block it.
public enum Subprocess {
    public struct Result: Sendable {
        /// The exit status; -1 when it had to be killed.
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    public static func run(
        _ executable: String, _ arguments: [String], timeout: Duration,
        environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = Captured()
        let stderr = Captured()
        let readers = DispatchGroup()
        for (pipe, sink) in [(out, stdout), (err, stderr)] {
            DispatchQueue.global().async(group: readers) {
                sink.set(pipe.fileHandleForReading.readDataToEndOfFile())
            }
        }
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { usleep(5_000) }
        let finished = !process.isRunning
        if !finished {
            process.terminate()
            let grace = ContinuousClock.now + .seconds(2)
            while process.isRunning && ContinuousClock.now < grace { usleep(5_000) }
        }
        _ = readers.wait(timeout: .now() + 5)
        return Result(
            status: finished ? process.terminationStatus : -1,
            stdout: String(decoding: stdout.get(), as: UTF8.self),
            stderr: String(decoding: stderr.get(), as: UTF8.self))
    }

    private final class Captured: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ d: Data) {
            lock.lock()
            data = d
            lock.unlock()
        }
        func get() -> Data {
            lock.lock()
            defer { lock.unlock() }
            return data
        }
    }
}
