import CamHubProtocol
import Foundation
import HubCore
import Logging

/// A swift-log handler writing one JSON object per line (to standard error by
/// default): `{"time":"2026-11-23T19:47:13.123Z","level":"info","label":"camhub",
/// "message":"client joined","client":"c1","room":"demo",…}`. Metadata keys sit
/// beside the fixed ones (a key named like one of them gets a leading `_`);
/// integer and floating-point values stay numbers.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let write: @Sendable ([UInt8]) -> Void

    public init(label: String, write: @escaping @Sendable ([UInt8]) -> Void = JSONLogHandler.writeStandardError) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { $1 } }
        if let own = event.metadata { all.merge(own) { $1 } }
        var w = JSONWriter(capacity: 256)
        w.raw("{\"time\":")
        w.string(Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        w.raw(",\"level\":")
        w.string(event.level.rawValue)
        w.raw(",\"label\":")
        w.string(label)
        w.raw(",\"message\":")
        w.string(event.message.description)
        for (key, value) in all.sorted(by: { $0.key < $1.key }) {
            w.raw(",")
            w.string(Self.reserved.contains(key) ? "_" + key : key)
            w.raw(":")
            Self.write(value, into: &w)
        }
        w.raw("}\n")
        write(w.bytes)
    }

    private static let reserved: Set<String> = ["time", "level", "label", "message"]

    private static func write(_ value: Logger.Metadata.Value, into w: inout JSONWriter) {
        switch value {
        case .string(let s):
            w.string(s)
        case .stringConvertible(let c):
            if let i = c as? any BinaryInteger, let u = UInt64(exactly: i) {
                w.integer(u)
            } else if let i = c as? any BinaryInteger, let n = Double(exactly: i) {
                w.number(n)
            } else if let d = c as? Double, d.isFinite {
                w.number(d)
            } else if let b = c as? Bool {
                w.bool(b)
            } else {
                w.string(c.description)
            }
        case .array(let values):
            w.raw("[")
            for (i, v) in values.enumerated() {
                if i > 0 { w.raw(",") }
                write(v, into: &w)
            }
            w.raw("]")
        case .dictionary(let dict):
            w.raw("{")
            for (i, (key, value)) in dict.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { w.raw(",") }
                w.string(key)
                w.raw(":")
                write(value, into: &w)
            }
            w.raw("}")
        }
    }

    /// One `write(2)` per line, so lines from several threads never interleave.
    public static let writeStandardError: @Sendable ([UInt8]) -> Void = { bytes in
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
