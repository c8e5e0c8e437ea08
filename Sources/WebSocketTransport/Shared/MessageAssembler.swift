/// Reassembles the fragments of one incoming message, enforcing a size cap
/// (the caller's, passed to `append`: a server keeps it once, not per
/// connection). Value type owned by one connection on its loop thread.
struct MessageAssembler {
    enum Outcome {
        case incomplete
        case complete(WebSocketMessage)
        case tooBig
        case invalidUTF8
    }

    private var buffer: [UInt8] = []

    /// Adds one chunk from an lws RECEIVE callback. `isFinal` is
    /// `lws_is_final_fragment` (last chunk of the last fragment); a message
    /// longer than `maxSize` bytes is `tooBig`.
    mutating func append(
        _ chunk: UnsafeRawBufferPointer, isFinal: Bool, kind: MessageKind,
        maxSize: Int, validateUTF8: Bool
    ) -> Outcome {
        if buffer.count + chunk.count > maxSize {
            buffer = []
            return .tooBig
        }
        buffer.append(contentsOf: chunk)
        guard isFinal else { return .incomplete }
        let bytes = buffer
        buffer = []
        switch kind {
        case .binary:
            return .complete(.binary(bytes))
        case .text:
            if validateUTF8 && !UTF8Check.isValid(bytes) { return .invalidUTF8 }
            return .complete(.text(String(decoding: bytes, as: UTF8.self)))
        }
    }
}

/// Strict UTF-8 validation (rejects overlongs, surrogates, > U+10FFFF).
enum UTF8Check {
    static func isValid(_ bytes: some Sequence<UInt8>) -> Bool {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
