import Testing

@testable import WebSocketTransport

extension TransportTests {
    static func target(_ text: String) -> String? {
        Array(text.utf8).withUnsafeBufferPointer { PendingAccepts.requestTarget(in: $0) }
    }

    @Test func theRequestTargetIsReadOffTheRequestLinesFirstBytes() {
        #expect(Self.target("GET /hub?room=demo HTTP/1.1\r\nHost: h\r\n") == "/hub?room=demo")
        #expect(Self.target("GET /hub HTTP/1.1") == "/hub")
    }

    @Test func bytesThatHoldNoWholeRequestTargetGiveNone() {
        #expect(Self.target("GET /hub?ro") == nil, "the target's end has not arrived")
        #expect(Self.target("\u{16}\u{03}\u{01}\u{02}\u{00} TLS") == nil, "a TLS ClientHello")
        #expect(Self.target("get /hub HTTP/1.1") == nil, "not an HTTP method")
        #expect(Self.target("GET  /hub HTTP/1.1") == nil)
        #expect(Self.target("") == nil)
    }
}
