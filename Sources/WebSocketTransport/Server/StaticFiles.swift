#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Maps request paths to files under one web root, refusing anything that
/// could escape it. Immutable; safe anywhere (it only reads the filesystem).
///
/// Rules: `/` and directories map to their `index.html`; no listings;
/// `..` segments, backslashes, NULs, and dot-files are refused; the final
/// path is resolved with `realpath` (following symlinks) and must lie
/// inside the resolved root, so symlinks pointing outside are refused.
struct StaticFiles: Sendable {
    enum Resolution: Equatable {
        case file(path: String, contentType: String)
        case notFound
        case forbidden
    }

    /// The root after `realpath`, without a trailing slash.
    let root: String

    init?(root: String) {
        guard let resolved = Self.realPath(root), Self.isDirectory(resolved) else { return nil }
        self.root = resolved
    }

    func resolve(_ requestPath: String) -> Resolution {
        guard requestPath.hasPrefix("/") else { return .forbidden }
        if requestPath.contains("\\") || requestPath.contains("\0") { return .forbidden }
        let segments = requestPath.split(separator: "/", omittingEmptySubsequences: true)
        for segment in segments {
            if segment == ".." || segment == "." { return .forbidden }
            if segment.hasPrefix(".") { return .notFound }  // no dot-files (.git, .env)
        }
        var candidate = root + "/" + segments.joined(separator: "/")
        if requestPath.hasSuffix("/") || segments.isEmpty { candidate += "/index.html" }
        guard let resolved = Self.realPath(candidate) else { return .notFound }
        guard isInsideRoot(resolved) else { return .forbidden }
        var file = resolved
        if Self.isDirectory(file) {
            guard let index = Self.realPath(file + "/index.html") else { return .notFound }
            guard isInsideRoot(index) else { return .forbidden }
            file = index
        }
        guard Self.isRegularFile(file) else { return .notFound }
        let type = ContentTypes.forPath(candidate.hasSuffix("/index.html") ? file : candidate)
        return .file(path: file, contentType: type)
    }

    private func isInsideRoot(_ path: String) -> Bool {
        root == "/" ? path.hasPrefix("/") : (path == root || path.hasPrefix(root + "/"))
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode
    }

    static func isDirectory(_ path: String) -> Bool {
        guard let m = mode(path) else { return false }
        return m & S_IFMT == S_IFDIR
    }

    static func isRegularFile(_ path: String) -> Bool {
        guard let m = mode(path) else { return false }
        return m & S_IFMT == S_IFREG
    }
}
