import Foundation

/// A temporary directory tree, removed at deinit.
public final class TempDir {
    public let path: String
    public init() throws {
        path = NSTemporaryDirectory() + "camerahub-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    /// Writes `contents` at `relative`, creating folders on the way.
    public func write(_ relative: String, _ contents: String) throws {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try contents.write(toFile: full, atomically: true, encoding: .utf8)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
