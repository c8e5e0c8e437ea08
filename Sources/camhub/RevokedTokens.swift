import Foundation

/// `--revoked-file`: revoked signed-token ids (`jti`), one per line; blank
/// lines and lines starting with `#` are skipped, spaces around an id trimmed.
enum RevokedTokens {
    static func load(_ path: String) throws -> Set<String> {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var ids: Set<String> = []
        for line in text.split(whereSeparator: \.isNewline) {
            let id = line.trimmingCharacters(in: .whitespaces)
            if !id.isEmpty && !id.hasPrefix("#") { ids.insert(id) }
        }
        return ids
    }
}
