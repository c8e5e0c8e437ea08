import CameraCore
import Testing

@testable import CamHubProtocol
@testable import HubCore

@Suite("Hub: bad input")
struct HubInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var text: String
        var code: String
        /// The start of the error message: the offending field's path.
        var prefix: String
        var ref: String?
        var testDescription: String { text }
    }

    static let cases: [Case] = [
        Case(text: "not json", code: "bad_message", prefix: "invalid JSON", ref: nil),
        Case(text: #"{"type":"set","camera":{"zoom":5},}"#, code: "bad_message", prefix: "invalid JSON", ref: nil),
        Case(text: #"{"type":"set","camera":{"zoom":NaN}}"#, code: "bad_message", prefix: "invalid JSON", ref: nil),
        Case(text: "[1,2]", code: "bad_message", prefix: "message must be a JSON object", ref: nil),
        Case(text: "{}", code: "bad_message", prefix: "type: missing", ref: nil),
        Case(text: #"{"type":7}"#, code: "bad_message", prefix: "type: must be a string", ref: nil),
        Case(text: #"{"type":"jump"}"#, code: "unknown_type", prefix: "type: unknown type 'jump'", ref: "jump"),
        Case(text: #"{"type":"set"}"#, code: "bad_message", prefix: "camera: missing", ref: "set"),
        Case(text: #"{"type":"set","camera":{}}"#, code: "bad_message", prefix: "camera:", ref: "set"),
        Case(text: #"{"type":"set","camera":{"zoom":"3"}}"#, code: "bad_message", prefix: "camera.zoom: must be a finite number", ref: "set"),
        Case(text: #"{"type":"set","camera":{"zoom":true}}"#, code: "bad_message", prefix: "camera.zoom:", ref: "set"),
        Case(text: #"{"type":"set","camera":{"zoom":null}}"#, code: "bad_message", prefix: "camera.zoom:", ref: "set"),
        Case(text: #"{"type":"set","camera":{"zoom":"NaN"}}"#, code: "bad_message", prefix: "camera.zoom:", ref: "set"),
        Case(text: #"{"type":"set","camera":{"zoom":1e999}}"#, code: "bad_message", prefix: "camera.zoom: must be a finite number (got inf)", ref: "set"),
        Case(text: #"{"type":"set","camera":{"lat":91}}"#, code: "bad_message", prefix: "camera.lat:", ref: "set"),
        Case(text: #"{"type":"set","camera":{"lng":3}}"#, code: "bad_message", prefix: "camera.lng: unknown field", ref: "set"),
        Case(text: #"{"type":"ease","id":"e1","camera":{"zoom":3},"duration":61}"#, code: "bad_message", prefix: "duration:", ref: "e1"),
        Case(text: #"{"type":"ease","camera":{"zoom":3},"curve":"bouncy"}"#, code: "bad_message", prefix: "curve:", ref: "ease"),
        Case(text: #"{"type":"animate","to":{"zoom":3}}"#, code: "bad_message", prefix: "duration: missing", ref: "animate"),
        Case(text: #"{"type":"fly","camera":{"zoom":3},"speed":0}"#, code: "bad_message", prefix: "speed:", ref: "fly"),
        Case(text: #"{"type":"viewport","width":0,"height":100}"#, code: "bad_message", prefix: "width:", ref: "viewport"),
        Case(text: #"{"type":"query","what":"bounds"}"#, code: "bad_message", prefix: "id: missing", ref: "query"),
        Case(text: #"{"type":"query","id":"q","what":"project","points":[{"lat":1,"lon":2,"h":3}]}"#, code: "bad_message", prefix: "points[0].h:", ref: "q"),
        Case(text: #"{"type":"ping","t":"now"}"#, code: "bad_message", prefix: "t:", ref: "ping"),
    ]

    @Test(arguments: cases)
    func badInputIsAnsweredWithAnErrorAndChangesNothing(_ c: Case) throws {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.send(#"{"type":"set","camera":{"lat":10,"lon":20,"zoom":4}}"#, from: d.key)
        bench.runTicks(3)
        let before = try #require(bench.room())
        bench.send(c.text, from: d.key)
        let errors = bench.errors(d.key)
        #expect(errors.count == 1)
        #expect(errors.first?["code"]?.stringValue == c.code)
        let message = errors.first?["message"]?.stringValue ?? ""
        #expect(message.hasPrefix(c.prefix), "\(message)")
        #expect(errors.first?["ref"] == (c.ref.map { .string($0) } ?? .null))
        bench.runTicks(3)
        #expect(bench.room()?.camera == before.camera && bench.room()?.seq == before.seq)
        #expect(!bench.isClosed(d.key))
        #expect(bench.answersPing(d.key), "the connection stays usable")
        bench.send(#"{"type":"set","camera":{"zoom":6}}"#, from: d.key)
        #expect(bench.room()?.camera.zoom == 6)
    }

    @Test func oversizedMessageIsClosedWith1009() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        let padding = String(repeating: " ", count: HubProtocol.maxMessageBytes)
        bench.send(#"{"type":"ping"}"# + padding, from: d.key)
        #expect(bench.lastError(d.key)?["code"]?.stringValue == "bad_message")
        #expect(bench.closes(d.key).map(\.code) == [1009])
        #expect(bench.hub.counts.clients == 0, "the client left its room")
    }

    @Test func invalidUTF8IsClosedWith1007() {
        let bench = HubBench()
        let d = bench.join(role: "driver")
        bench.sendBytes(Array(#"{"type":"ping","x":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8), from: d.key)
        #expect(bench.closes(d.key).map(\.code) == [1007])
        #expect(bench.hub.counts.clients == 0)
    }
}
