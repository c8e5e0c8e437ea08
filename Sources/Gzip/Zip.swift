import CZlib

/// Zip archives in memory, through the same zlib: enough for KMZ (a zip with
/// a `doc.kml` and perhaps images). Reads entries stored or deflated (the two
/// methods KMZ writers use), checking each one's CRC-32; writes deflated
/// entries. No ZIP64, encryption or multi-disk archives: those are refused, naming why.
public enum Zip {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    /// One file of an archive.
    public struct Entry: Hashable, Sendable {
        public var name: String
        public var bytes: [UInt8]
        public init(name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
    }

    /// True when `data` starts like a zip archive (a local file header).
    public static func isZip(_ data: [UInt8]) -> Bool { data.count >= 4 && data[0] == 0x50 && data[1] == 0x4B && data[2] == 3 && data[3] == 4 }

    /// Every file of the archive (folders left out), from its central directory;
    /// at most `limit` bytes inflated in all.
    public static func entries(_ data: [UInt8], limit: Int = 64 << 20) throws(Failure) -> [Entry] {
        guard let end = endOfCentralDirectory(data) else { throw Failure(description: "not a zip archive (no end of central directory)") }
        let count = Int(u16(data, end + 10))
        var at = Int(u32(data, end + 16))
        var out: [Entry] = []
        var total = 0
        for _ in 0..<count {
            guard at + 46 <= data.count, u32(data, at) == 0x0201_4B50 else { throw Failure(description: "zip: a damaged central directory") }
            let method = u16(data, at + 10)
            let crc = u32(data, at + 16)
            let compressed = Int(u32(data, at + 20))
            let size = Int(u32(data, at + 24))
            let nameLength = Int(u16(data, at + 28))
            let extraLength = Int(u16(data, at + 30))
            let commentLength = Int(u16(data, at + 32))
            let local = Int(u32(data, at + 42))
            guard at + 46 + nameLength <= data.count else { throw Failure(description: "zip: a damaged central directory") }
            let name = String(decoding: data[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            at += 46 + nameLength + extraLength + commentLength
            if name.hasSuffix("/") { continue }
            guard compressed != 0xFFFF_FFFF, size != 0xFFFF_FFFF else { throw Failure(description: "zip: \(name) is a ZIP64 entry (not supported)") }
            guard local + 30 <= data.count, u32(data, local) == 0x0403_4B50 else { throw Failure(description: "zip: \(name): no local header") }
            let start = local + 30 + Int(u16(data, local + 26)) + Int(u16(data, local + 28))
            guard start + compressed <= data.count else { throw Failure(description: "zip: \(name) is cut short") }
            total += size
            guard total <= limit else { throw Failure(description: "zip: more than \(limit) bytes once inflated") }
            let stored = Array(data[start..<(start + compressed)])
            let bytes: [UInt8]
            switch method {
            case 0: bytes = stored
            case 8: bytes = try inflate(stored, size: size, name: name)
            default: throw Failure(description: "zip: \(name) uses compression method \(method) (stored and deflate only)")
            }
            guard bytes.count == size, crc32(bytes) == crc else { throw Failure(description: "zip: \(name) fails its CRC-32 check") }
            out.append(Entry(name: name, bytes: bytes))
        }
        return out
    }

    /// An archive of `entries`, each deflated, in order.
    public static func archive(_ entries: [Entry]) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        var directory: [UInt8] = []
        for entry in entries {
            let name = Array(entry.name.utf8)
            let data = try deflate(entry.bytes)
            let crc = crc32(entry.bytes)
            let offset = out.count
            var header: [UInt8] = []
            put32(&header, 0x0403_4B50)
            put16(&header, 20)  // version needed: 2.0 (deflate)
            put16(&header, 0x0800)  // names in UTF-8
            put16(&header, 8)
            put32(&header, 0)  // time and date: none
            put32(&header, crc)
            put32(&header, UInt32(data.count))
            put32(&header, UInt32(entry.bytes.count))
            put16(&header, UInt16(name.count))
            put16(&header, 0)
            out += header + name + data
            put32(&directory, 0x0201_4B50)
            put16(&directory, 20)
            directory += header[4..<30]
            put16(&directory, 0)  // comment
            put16(&directory, 0)  // disk
            put16(&directory, 0)  // internal attributes
            put32(&directory, 0)  // external attributes
            put32(&directory, UInt32(offset))
            directory += name
        }
        let start = out.count
        out += directory
        put32(&out, 0x0605_4B50)
        put16(&out, 0)
        put16(&out, 0)
        put16(&out, UInt16(entries.count))
        put16(&out, UInt16(entries.count))
        put32(&out, UInt32(directory.count))
        put32(&out, UInt32(start))
        put16(&out, 0)
        return out
    }

    /// zlib's CRC-32 of `bytes`.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }

    private static func endOfCentralDirectory(_ data: [UInt8]) -> Int? {
        guard data.count >= 22 else { return nil }
        var at = data.count - 22
        let lowest = max(0, data.count - 22 - 0xFFFF)
        while at >= lowest {
            if u32(data, at) == 0x0605_4B50 { return at }
            at -= 1
        }
        return nil
    }

    private static func inflate(_ data: [UInt8], size: Int, name: String) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard camhub_inflate_raw(&stream) == Z_OK else { throw Failure(description: "zlib: cannot start inflating") }
        defer { inflateEnd(&stream) }
        var input = data
        var output = [UInt8](repeating: 0, count: max(size, 1))
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END || (size == 0 && status == Z_BUF_ERROR) else {
            throw Failure(description: "zip: \(name) does not inflate (zlib \(status))")
        }
        return Array(output[0..<Int(stream.total_out)])
    }

    private static func deflate(_ data: [UInt8]) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard camhub_deflate_raw(&stream, 6) == Z_OK else { throw Failure(description: "zlib: cannot start deflating") }
        defer { deflateEnd(&stream) }
        var input = data
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 16)
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(description: "zlib: deflate failed (\(status))") }
        return Array(output[0..<Int(stream.total_out)])
    }

    private static func u16(_ d: [UInt8], _ i: Int) -> UInt16 { i + 2 <= d.count ? UInt16(d[i]) | UInt16(d[i + 1]) << 8 : 0 }
    private static func u32(_ d: [UInt8], _ i: Int) -> UInt32 { UInt32(u16(d, i)) | UInt32(u16(d, i + 2)) << 16 }
    private static func put16(_ out: inout [UInt8], _ v: UInt16) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private static func put32(_ out: inout [UInt8], _ v: UInt32) {
        put16(&out, UInt16(v & 0xFFFF))
        put16(&out, UInt16(v >> 16))
    }
}
