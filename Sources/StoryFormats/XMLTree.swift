import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A whole XML document as a tree of elements (local names, namespaces
/// dropped: KML files spell the gx prefix in several ways), each with the line
/// it starts on, for errors that say where. Read with Foundation's `XMLParser`.
final class TreeElement {
    let name: String
    let attributes: [String: String]
    let line: Int
    var children: [TreeElement] = []
    var text = ""

    init(name: String, attributes: [String: String], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    /// The first child named `name`.
    func child(_ name: String) -> TreeElement? { children.first { $0.name == name } }

    /// The trimmed text of the child named `name`.
    func value(_ name: String) -> String? { child(name).map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) } }

    /// Every element below this one, depth first, in document order.
    func descendants(_ name: String) -> [TreeElement] {
        var out: [TreeElement] = []
        for c in children {
            if c.name == name { out.append(c) }
            out += c.descendants(name)
        }
        return out
    }

    /// `Name (line N)`, for errors.
    var place: String { "\(name) (line \(line))" }

    /// The number in child `name`, nil when absent; an error naming it when it is not a finite number.
    func number(_ name: String) throws(StoryFormatError) -> Double? {
        guard let text = value(name), !text.isEmpty else { return nil }
        guard let v = Double(text), v.isFinite else { throw StoryFormatError("\(place): \(name) '\(text)' is not a number") }
        return v
    }

    static func parse(_ data: [UInt8]) throws(StoryFormatError) -> TreeElement {
        let builder = Builder()
        let parser = XMLParser(data: Data(data))
        parser.shouldProcessNamespaces = true
        parser.delegate = builder
        let ok = parser.parse()
        guard ok, builder.errorLine == nil, let root = builder.root else {
            let line = builder.errorLine ?? parser.lineNumber
            let why = builder.errorText ?? parser.parserError.map { "\($0.localizedDescription)" } ?? "no root element"
            throw StoryFormatError("line \(line): not well-formed XML (\(why))")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: TreeElement?
        var stack: [TreeElement] = []
        var errorLine: Int?
        var errorText: String?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
            attributes attributeDict: [String: String] = [:]
        ) {
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            let element = TreeElement(name: local, attributes: attributeDict, line: parser.lineNumber)
            if let parent = stack.last { parent.children.append(element) } else { root = element }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            guard let open = stack.popLast() else { return }
            if open.name != local, errorLine == nil {  // a parser that recovers from a mismatched end tag
                errorLine = parser.lineNumber
                errorText = "</\(local)> ends \(open.name), opened on line \(open.line)"
            }
        }

        func parserDidEndDocument(_ parser: XMLParser) {
            if let open = stack.last, errorLine == nil {
                errorLine = parser.lineNumber
                errorText = "\(open.name), opened on line \(open.line), is not closed"
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { stack.last?.text += string }

        func parser(_ parser: XMLParser, foundCDATA cdata: Data) { stack.last?.text += String(decoding: cdata, as: UTF8.self) }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if errorLine == nil {
                errorLine = parser.lineNumber
                errorText = (parseError as NSError).localizedDescription
            }
        }
    }
}

/// Plain text from a description that may hold HTML (KML balloons, storytelling
/// chapters): tags dropped (`<br>` and the end of a paragraph become new lines),
/// the common entities decoded, runs of blank lines and spaces folded.
func plainText(_ html: String) -> String {
    var text = html.replacingOccurrences(of: "<br>", with: "\n", options: .caseInsensitive)
    text = text.replacingOccurrences(of: "<br/>", with: "\n", options: .caseInsensitive)
    text = text.replacingOccurrences(of: "<br />", with: "\n", options: .caseInsensitive)
    text = text.replacingOccurrences(of: "</p>", with: "\n", options: .caseInsensitive)
    text = text.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
    for (entity, character) in [("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&apos;", "'"), ("&amp;", "&")] {
        text = text.replacingOccurrences(of: entity, with: character)
    }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
    var out: [String] = []
    for line in lines where !(line.isEmpty && (out.last?.isEmpty ?? true)) { out.append(line) }
    while out.last?.isEmpty == true { out.removeLast() }
    return out.joined(separator: "\n")
}
