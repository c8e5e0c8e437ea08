import ArgumentParser
import HubServer
import Logging
import WebSocketTransport

/// `camhub serve --log-format`.
enum LogFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json
}

/// `--log-level` takes swift-log's own levels (both packages are this CLI's
/// dependencies, neither will add the conformance).
// swift-format-ignore: AvoidRetroactiveConformances
extension Logger.Level: @retroactive ExpressibleByArgument {}

/// Sets up swift-log for `camhub serve`: every logger writes to standard
/// error, as text (swift-log's stream handler) or one JSON object per line;
/// libwebsockets' own lines join them at debug (its errors and warnings) and
/// trace (its notices, info and debug: with the libev loop, a line per socket
/// event) when the level lets them through.
enum LogSetup {
    static func bootstrap(level: Logger.Level, format: LogFormat) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                switch format {
                case .text: StreamLogHandler.standardError(label: label)
                case .json: JSONLogHandler(label: label)
                }
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "camhub")
        if level <= .debug {
            let lws = Logger(label: "libwebsockets")
            let mask: Int32 = level == .trace ? 31 : 3
            WebSocketTransportSettings.routeLibraryLog(mask: mask) { bit, line in
                lws.log(level: bit <= 2 ? .debug : .trace, "\(line)", metadata: ["lws": "\(LibraryLogLevel.name(bit))"])
            }
        }
        return logger
    }

    /// A start-up failure: the one plain line on standard error, or as JSON.
    static func startFailed(_ message: String, format: LogFormat, logger: Logger) {
        switch format {
        case .text: printErr("camhub: \(message)")
        case .json: logger.error("\(message)")
        }
    }
}

/// lws's level bits by name, for the `lws` metadata of its lines.
enum LibraryLogLevel {
    static func name(_ bit: Int32) -> String {
        switch bit {
        case 1: "error"
        case 2: "warn"
        case 4: "notice"
        case 8: "info"
        case 16: "debug"
        default: "level\(bit)"
        }
    }
}
