import HubRecording
import Testing

/// The names `camhub serve --record` gives its parts, and nothing else, pass as recording names.
struct RecordingNameTests {
    @Test func aPartsNameGivesItsStartAndPart() throws {
        let name = try #require(RecordingName("20261123T220000Z-002.jsonl.gz"))
        #expect(name.stamp == "20261123T220000Z")
        #expect(name.part == 2)
        #expect(name.start == 1)
        #expect(name.started == "2026-11-23T22:00:00Z")
        #expect(RecordingName("20261123T220000Z-001.3.jsonl.gz")?.start == 3, "the third recording begun in that second")
    }

    @Test func otherNamesAreNotRecordings() {
        for file in [
            "", "notes.txt", "20261123T220000Z-001.jsonl", "../20261123T220000Z-001.jsonl.gz", "a/20261123T220000Z-001.jsonl.gz",
            "20261123T220000Z-01.jsonl.gz", "20261123T220000Z-000.jsonl.gz", "20261123X220000Z-001.jsonl.gz",
            "20261123T220000Z-001.0.jsonl.gz", "20261123T220000Z-001..jsonl.gz", "20261123T220000Z-00a.jsonl.gz",
            "20261123T220000Z-001-002.jsonl.gz",
        ] {
            #expect(RecordingName(file) == nil, "\(file)")
        }
    }

    @Test func partsSortByStartThenPart() throws {
        let names = ["20261123T220000Z-002.jsonl.gz", "20261123T220000Z-001.2.jsonl.gz", "20261123T215959Z-001.jsonl.gz", "20261123T220000Z-001.jsonl.gz"]
            .compactMap(RecordingName.init)
        #expect(
            names.sorted(by: RecordingName.inOrder).map(\.file) == [
                "20261123T215959Z-001.jsonl.gz", "20261123T220000Z-001.jsonl.gz", "20261123T220000Z-002.jsonl.gz", "20261123T220000Z-001.2.jsonl.gz",
            ])
    }
}
