import Foundation

/// Test hook for the protocol schema check: when `CAMHUB_HUB_MESSAGES` names a
/// file, `record` appends every message text given to it as one line (JSON
/// lines), and scripts/test.sh validates the file against docs/asyncapi.yaml
/// with scripts/validate_messages.py once `swift test` is done. Unset: does nothing.
///
/// Any thread may call `record`: each line is one `write(2)` to a file opened
/// with `O_APPEND`, which the kernel appends whole, so no lock is needed.
public enum WireCapture {
    /// The capture file's descriptor, opened once on first use; nil when not capturing.
    static let descriptor: Int32? = {
        guard let path = ProcessInfo.processInfo.environment["CAMHUB_HUB_MESSAGES"], !path.isEmpty else { return nil }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            FileHandle.standardError.write(Data("WireCapture: cannot open CAMHUB_HUB_MESSAGES=\(path) (errno \(errno))\n".utf8))
            return nil
        }
        return fd
    }()

    /// Appends `text` (one JSON message, which never holds a raw newline) and a newline.
    public static func record(_ text: String) {
        guard let fd = descriptor else { return }
        var line = Array(text.utf8)
        line.append(UInt8(ascii: "\n"))
        line.withUnsafeBytes { bytes in _ = write(fd, bytes.baseAddress, bytes.count) }
    }
}
