import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Test hook for the protocol schema check: when `CAMHUB_HUB_MESSAGES` names a
/// file, `record` appends every message text given to it as one line (JSON
/// lines), and scripts/test.sh validates the file against docs/asyncapi.yaml
/// with scripts/validate_messages.py once `swift test` is done. Unset: does
/// nothing. `recordAPI` does the same for the server API (`CAMHUB_API_EXCHANGES`,
/// docs/openapi.yaml, scripts/validate_api.py).
///
/// Any thread may call `record`: each line is one `write(2)` to a file opened
/// with `O_APPEND`, which the kernel appends whole, so no lock is needed.
public enum WireCapture {
    /// The capture files' descriptors, opened once on first use; nil when not capturing.
    static let descriptor = open(variable: "CAMHUB_HUB_MESSAGES")
    static let apiDescriptor = open(variable: "CAMHUB_API_EXCHANGES")

    static func open(variable: String) -> Int32? {
        guard let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty else { return nil }
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            FileHandle.standardError.write(Data("WireCapture: cannot open \(variable)=\(path) (errno \(errno))\n".utf8))
            return nil
        }
        return fd
    }

    /// Appends `text` (one JSON message, which never holds a raw newline) and a newline.
    public static func record(_ text: String) { append(text, to: descriptor) }

    /// The server API's exchanges (`CAMHUB_API_EXCHANGES`), for scripts/validate_api.py:
    /// one JSON object a line with the method, path, query, status, request and response bodies.
    public static func recordAPI(method: String, path: String, query: String, status: Int, request: String, response: String) {
        guard apiDescriptor != nil else { return }
        func quoted(_ s: String) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: [s], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
            return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
        }
        let line =
            "{\"method\":\(quoted(method)),\"path\":\(quoted(path)),\"query\":\(quoted(query)),\"status\":\(status),"
            + "\"request\":\(quoted(request)),\"response\":\(quoted(response))}"
        append(line, to: apiDescriptor)
    }

    private static func append(_ text: String, to descriptor: Int32?) {
        guard let fd = descriptor else { return }
        var line = Array(text.utf8)
        line.append(UInt8(ascii: "\n"))
        line.withUnsafeBytes { bytes in _ = write(fd, bytes.baseAddress, bytes.count) }
    }
}
