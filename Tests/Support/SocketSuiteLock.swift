import Testing

/// Runs a whole suite while holding one process-wide gate, so that the suites
/// that start real sockets and loop threads (the transport's, the hub
/// server's, the live client tests) never overlap: Swift Testing runs suites in
/// parallel, and these count the process's fds and threads and share two cores.
public struct SocketSuiteLock: SuiteTrait, TestScoping {
    public init() {}

    public var isRecursive: Bool { false }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> SocketSuiteLock? { test.isSuite ? self : nil }

    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        await SuiteGate.shared.enter()
        do {
            try await function()
        } catch {
            await SuiteGate.shared.leave()
            throw error
        }
        await SuiteGate.shared.leave()
    }
}

/// A first-come, first-served async mutex.
actor SuiteGate {
    static let shared = SuiteGate()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func enter() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
