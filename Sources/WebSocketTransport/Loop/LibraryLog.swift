import CLWS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// libwebsockets' own log lines ("E: ERROR on binding fd 6 to port 8080",
/// "N: LWS: 4.1.6-, …"), routed through one emit callback instead of lws's
/// timestamped stderr writer.
///
/// By default lws logs errors only and none is shown: they are kept (the last
/// few) so a failure can be explained in one line of our own (see
/// `WebSocketServer.start`). `CAMHUB_LWS_LOG` in the environment shows them on
/// stderr as "lws E: …": `error`, `warn`, `notice`, `info`, `debug` (each
/// includes the levels before it) or a bit mask (LLL_ERR=1, LLL_WARN=2,
/// LLL_NOTICE=4, LLL_INFO=8, LLL_DEBUG=16, …). `setLogLevel` does the same
/// from code.
enum LibraryLog {
    struct Choice: Equatable {
        var mask: Int32
        var show: Bool
    }

    private struct State {
        var choice: Choice?
        /// Where shown lines go instead of stderr (`routeLibraryLog`).
        var handler: (@Sendable (Int32, String) -> Void)?
        var recent: [String] = []
        var count = 0
    }

    private static let state = Locked(State())
    private static let keep = 8

    /// What `CAMHUB_LWS_LOG` asks for; nil when unset or empty. A value that
    /// is neither a level name nor a number shows errors and says so once.
    static func choice(fromEnvironment value: String?) -> (choice: Choice, warning: String?)? {
        guard let raw = value?.trimmingCharacters(in: " \t"), !raw.isEmpty else { return nil }
        let names: [String: Int32] = [
            "error": 1, "err": 1, "warn": 3, "warning": 3,
            "notice": 7, "info": 15, "debug": 31, "all": 0x3FF,
        ]
        if let mask = names[raw.lowercased()] { return (Choice(mask: mask, show: true), nil) }
        if let mask = Int32(raw), mask >= 0 { return (Choice(mask: mask, show: true), nil) }
        return (
            Choice(mask: 1, show: true),
            "CAMHUB_LWS_LOG=\(raw): expected error, warn, notice, info, debug or a bit mask; showing errors"
        )
    }

    /// Sets the mask lws logs at and whether lines are shown (any thread).
    static func apply(_ choice: Choice) {
        state.withLock { s in
            s.choice = choice
            lws_set_log_level(choice.mask, emit)
        }
    }

    /// Shows every line at `mask` through `handler` (any thread).
    static func route(mask: Int32, to handler: @escaping @Sendable (Int32, String) -> Void) {
        state.withLock { s in
            s.choice = Choice(mask: mask, show: true)
            s.handler = handler
            lws_set_log_level(mask, emit)
        }
    }

    /// Once, before the first context: `CAMHUB_LWS_LOG`, else errors kept but not shown.
    static func applyDefault() {
        let fromEnvironment = choice(fromEnvironment: getenv("CAMHUB_LWS_LOG").map { String(cString: $0) })
        let applied = state.withLock { s -> Bool in
            guard s.choice == nil else { return false }
            let choice = fromEnvironment?.choice ?? Choice(mask: 1, show: false)
            s.choice = choice
            lws_set_log_level(choice.mask, emit)
            return true
        }
        if applied, let warning = fromEnvironment?.warning { writeStderr(warning + "\n") }
    }

    /// How many lines lws has logged so far (a mark for `lines(since:)`).
    static var lineCount: Int { state.withLock { $0.count } }

    /// The lines logged after `mark` (at most the last few), without level or newline.
    static func lines(since mark: Int) -> [String] {
        state.withLock { s in
            let available = min(s.recent.count, max(0, s.count - mark))
            return Array(s.recent.suffix(available))
        }
    }

    /// lws's emit callback (any lws thread).
    private static let emit: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, line in
        guard let line else { return }
        var text = String(cString: line)
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        let (show, handler) = state.withLock { s -> (Bool, (@Sendable (Int32, String) -> Void)?) in
            s.count += 1
            s.recent.append(text)
            if s.recent.count > keep { s.recent.removeFirst(s.recent.count - keep) }
            return (s.choice?.show ?? false, s.handler)
        }
        if let handler {
            handler(level, text)
        } else if show {
            writeStderr("lws \(letter(level)): \(text)\n")
        }
    }

    static func letter(_ level: Int32) -> String {
        switch level {
        case 1: "E"
        case 2: "W"
        case 4: "N"
        case 8: "I"
        case 16: "D"
        default: "L\(level)"
        }
    }

    private static func writeStderr(_ text: String) {
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}
