import CamHubKit
import Foundation

/// A real `camhub serve` on an ephemeral loopback port (this target stays
/// free of the hub's own modules: it starts the hub binary the package builds).
final class LocalHub: Sendable {
    let process: Process
    let port: Int

    /// `port` 0: a free one (the hub prints it); another hub's port to take over from it.
    init(_ arguments: [String] = [], port: Int = 0) throws {
        // The hub this package builds (beside the test bundle), or $CAMHUB.
        let binary = Self.binary
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "\(port)"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line names the port: "camhub: listening on http://127.0.0.1:PORT/ …".
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while !text.contains("listening on"), Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression),
            let port = Int(text[range].dropFirst("127.0.0.1:".count).dropLast())
        else {
            process.terminate()
            throw CamHubError(.connection, "the hub did not start: \(text)")
        }
        self.process = process
        self.port = port
    }

    var url: String { "ws://127.0.0.1:\(port)/hub" }

    /// The hub's own binary (for `camhub token`).
    static var binary: URL {
        ProcessInfo.processInfo.environment["CAMHUB"].map(URL.init(fileURLWithPath:))
            ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("camhub")
    }

    /// SIGTERM: the hub closes its clients with 1012 "service restart" and exits.
    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

/// The first element of `stream` that `matches`, or nil when none came within
/// `seconds` (a deadline, not a pause: it returns as soon as one comes). After
/// a nil the stream is finished (its consumer was cancelled).
func first<T: Sendable>(
    _ stream: AsyncStream<T>, within seconds: Double, where matches: @escaping @Sendable (T) -> Bool
) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask {
            for await element in stream where matches(element) { return element }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let found = await group.next() ?? nil
        group.cancelAll()
        return found
    }
}

extension RoomChange {
    var isOpen: Bool { self == .connection(.open) }
    var isReconnecting: Bool { if case .connection(.reconnecting) = self { true } else { false } }
}
