import CamHubClient
import Testing

@testable import CamHubBench

/// The bench's follower sockets read a server's frames from whatever pieces
/// `recv` hands over.
@Suite("ServerFrameReader: a server's frames from any split of the bytes")
struct ServerFrameReaderTests {
    enum Seen: Equatable {
        case text(String)
        case binary([UInt8])
        case ping([UInt8])
        case pong
        case close(UInt16?, String)
    }

    /// An unmasked frame as a server writes it.
    static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        var out: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            out.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            out += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            out.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        return out + payload
    }

    static func read(_ pieces: [[UInt8]], reader: inout ServerFrameReader) throws -> [Seen] {
        var seen: [Seen] = []
        for piece in pieces {
            try piece.withUnsafeBufferPointer { bytes in
                try reader.consume(bytes) { frame in
                    switch frame {
                    case .text(let b): seen.append(.text(String(decoding: b, as: UTF8.self)))
                    case .binary(let b): seen.append(.binary(Array(b)))
                    case .ping(let b): seen.append(.ping(Array(b)))
                    case .pong: seen.append(.pong)
                    case .close(let code, let reason): seen.append(.close(code, String(decoding: reason, as: UTF8.self)))
                    }
                }
            }
        }
        return seen
    }

    static func read(_ pieces: [[UInt8]]) throws -> [Seen] {
        var reader = ServerFrameReader()
        return try read(pieces, reader: &reader)
    }

    @Test func messagesSplitAtEveryByteArriveWholeAndInOrder() throws {
        let long = String(repeating: "x", count: 300)  // a 16-bit length
        let stream = Self.frame(1, Array(#"{"type":"frame","seq":1}"#.utf8)) + Self.frame(9, [1, 2]) + Self.frame(1, Array(long.utf8))
        let expected: [Seen] = [.text(#"{"type":"frame","seq":1}"#), .ping([1, 2]), .text(long)]
        #expect(try Self.read([stream]) == expected)
        for cut in 1..<stream.count {
            #expect(try Self.read([Array(stream[..<cut]), Array(stream[cut...])]) == expected, "cut at \(cut)")
        }
        #expect(try Self.read(stream.map { [$0] }) == expected, "one byte per read")
    }

    @Test func aFragmentedMessageIsAssembledAroundAControlFrame() throws {
        let stream =
            Self.frame(1, Array("hel".utf8), fin: false) + Self.frame(9, []) + Self.frame(0, Array("lo ".utf8), fin: false)
            + Self.frame(0, Array("world".utf8))
        #expect(try Self.read([stream]) == [.ping([]), .text("hello world")])
    }

    @Test func aSixtyFourBitLengthIsRead() throws {
        let payload = [UInt8](repeating: 7, count: 70_000)
        #expect(try Self.read([Self.frame(2, payload)]) == [.binary(payload)])
    }

    @Test func theServersCloseCodeAndReasonAreHandedOver() throws {
        #expect(try Self.read([Self.frame(8, [0x03, 0xE9] + Array("bye".utf8))]) == [.close(1001, "bye")])
        #expect(try Self.read([Self.frame(8, [])]) == [.close(nil, "")])
    }

    @Test func bytesThatBreakTheFramingRulesAreRefusedNamingTheRule() {
        let masked: [UInt8] = [0x81, 0x82, 1, 2, 3, 4, 0, 0]
        #expect(throws: ServerFrameError.self) { try Self.read([masked]) }
        let longPing = Self.frame(9, [UInt8](repeating: 0, count: 126))
        #expect(throws: ServerFrameError.self) { try Self.read([longPing]) }
        let stray = Self.frame(0, Array("x".utf8))
        #expect(throws: ServerFrameError.self) { try Self.read([stray]) }
        do {
            _ = try Self.read([[0xC1, 0]])
            Issue.record("RSV1 set without an extension was accepted")
        } catch {
            #expect("\(error)".contains("RSV"))
        }
    }

    @Test func aMessageOverTheLimitIsRefused() {
        var reader = ServerFrameReader(maxMessageSize: 10)
        #expect(throws: ServerFrameError.self) {
            try Self.read([Self.frame(1, Array(String(repeating: "hello", count: 3).utf8))], reader: &reader)
        }
    }
}
