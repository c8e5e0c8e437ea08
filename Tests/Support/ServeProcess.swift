import Foundation

/// `camhub serve` running as a subprocess: started with `--port 0`, its port
/// read off the "listening on" line of its standard output; stopped with a
/// signal (SIGTERM, or SIGKILL for a crash), after which its whole output can
/// be read. Bounded: waits at most 20 s for the port and for the exit (safety nets for a
/// loaded machine: both waits end as soon as what they wait for happens).
public final class ServeProcess {
    public let process = Process()
    public private(set) var port = 0
    private let out = Pipe(), err = Pipe()
    private let stdoutData = Buffer(), stderrData = Buffer()
    /// Set when each pipe has reached its end (the process and its output are done).
    private let stdoutEnded = Buffer(), stderrEnded = Buffer()

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve", "--port", "0"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        for (pipe, buffer, ended) in [(out, stdoutData, stdoutEnded), (err, stderrData, stderrEnded)] {
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                if data.isEmpty {  // the end of the output: nothing more will come
                    handle.readabilityHandler = nil
                    ended.append(Data([1]))
                } else {
                    buffer.append(data)
                }
            }
        }
        try process.run()
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline, process.isRunning {
            if let port = Self.port(in: stdout) {
                self.port = port
                return
            }
            usleep(5_000)
        }
        usleep(50_000)
        throw Failure(description: "camhub serve did not say its port; stdout: \(stdout) stderr: \(stderr)")
    }

    public var stdout: String { String(decoding: stdoutData.get(), as: UTF8.self) }
    public var stderr: String { String(decoding: stderrData.get(), as: UTF8.self) }

    /// Sends `signal` and waits for the exit; returns the exit status (-1 if it did not exit).
    @discardableResult
    public func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = ContinuousClock.now + .seconds(20)
        while process.isRunning && ContinuousClock.now < deadline { usleep(5_000) }
        guard !process.isRunning else { return -1 }
        // The last output: read by the handlers up to the end of each pipe, in order.
        waitUntil(.seconds(20)) { !stdoutEnded.get().isEmpty && !stderrEnded.get().isEmpty }
        return process.terminationStatus
    }

    /// Freezes the hub (`ChildProcess.freeze`) and returns the wall-clock time, in
    /// epoch milliseconds (the unit of a frame's `time`), by which every one of its
    /// threads had stopped: no frame it stamps later can be from before the freeze.
    public func freeze() -> Double {
        ChildProcess.freeze(process.processIdentifier)
        return Date().timeIntervalSince1970 * 1000
    }

    /// The port of "camhub: listening on http://127.0.0.1:PORT/".
    static func port(in text: String) -> Int? {
        guard let range = text.range(of: "listening on http://") else { return nil }
        let rest = text[range.upperBound...]
        guard let colon = rest.lastIndex(of: ":", before: "/"), let slash = rest[colon...].firstIndex(of: "/") else { return nil }
        return Int(rest[rest.index(after: colon)..<slash])
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    private final class Buffer: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ d: Data) {
            lock.lock()
            data.append(d)
            lock.unlock()
        }
        func get() -> Data {
            lock.lock()
            defer { lock.unlock() }
            return data
        }
    }
}

extension Substring {
    /// The last `character` before the first `stop`.
    fileprivate func lastIndex(of character: Character, before stop: Character) -> Index? {
        let end = firstIndex(of: stop) ?? endIndex
        return self[..<end].lastIndex(of: character)
    }
}
