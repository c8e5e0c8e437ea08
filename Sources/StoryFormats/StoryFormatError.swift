/// A file that is not a storyboard this hub reads, naming where (an element
/// and its line, a chapter, a field) and what is wrong.
public struct StoryFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
