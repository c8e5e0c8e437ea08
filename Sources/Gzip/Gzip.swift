import CZlib
import Foundation

// gzip through zlib, the one wrapper: recordings are written with
// `GzipFileWriter` and read back with `Gzip.decompress`, which also inflates
// PMTiles directories.

/// Appends gzip-compressed bytes to a file (zlib's deflate with the gzip
/// wrapper). Not thread-safe: one owner. `flush` makes everything written so
/// far readable (`Z_SYNC_FLUSH`) without ending the stream; `finish` writes the
/// gzip trailer and closes the file. A file cut short by a crash still reads
/// back up to its last flush (`Gzip.decompress` tolerates the missing trailer).
public final class GzipFileWriter {
    let path: String
    /// Compressed bytes written to the file so far (for rotation by size).
    public private(set) var compressedBytes = 0
    private var stream = z_stream()
    private let file: UnsafeMutablePointer<FILE>
    private var open = true
    private var output = [UInt8](repeating: 0, count: 64 << 10)

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    /// Creates `path` (it must not exist: a recording is never overwritten).
    public init(path: String, level: Int32 = 6) throws {
        self.path = path
        guard let file = fopen(path, "wx") else {
            throw Failure(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        self.file = file
        guard camhub_deflate_gzip(&stream, level) == Z_OK else {
            fclose(file)
            throw Failure(description: "zlib: cannot start a gzip stream")
        }
    }

    deinit { if open { _ = try? finish() } }

    public func write(_ bytes: [UInt8]) throws { try deflate(bytes, mode: Z_NO_FLUSH) }

    /// Everything written so far reaches the file in a form a reader can decompress.
    public func flush() throws {
        try deflate([], mode: Z_SYNC_FLUSH)
        fflush(file)
    }

    /// Ends the gzip stream and closes the file.
    public func finish() throws {
        guard open else { return }
        defer {
            deflateEnd(&stream)
            fclose(file)
            open = false
        }
        try deflate([], mode: Z_FINISH)
    }

    private func deflate(_ bytes: [UInt8], mode: Int32) throws {
        var input = bytes
        let inputCount = input.count
        try input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inputCount)
            while true {
                let produced = try output.withUnsafeMutableBufferPointer { outBuffer -> Int in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = uInt(outBuffer.count)
                    let status = CZlib.deflate(&stream, mode)
                    guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                        throw Failure(description: "zlib: deflate failed (\(status))")
                    }
                    let produced = outBuffer.count - Int(stream.avail_out)
                    if produced > 0, fwrite(outBuffer.baseAddress, 1, produced, file) != produced {
                        throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
                    }
                    return produced
                }
                compressedBytes += produced
                // Done when deflate left room in the output and consumed all input.
                if stream.avail_out != 0 && stream.avail_in == 0 { break }
                if produced == 0 && stream.avail_in == 0 { break }
            }
            stream.next_in = nil
        }
    }
}

/// Whole-buffer decompression: recordings read back, PMTiles directories.
public enum Gzip {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    /// True when `data` starts with the gzip magic bytes.
    public static func isGzip(_ data: [UInt8]) -> Bool { data.count >= 2 && data[0] == 0x1F && data[1] == 0x8B }

    /// The decompressed bytes of one or more gzip members. A stream cut short
    /// (a hub killed mid-recording) yields what it holds up to the cut, with
    /// `truncated` set; corrupt data is a `Failure`, and so is output beyond
    /// `limit` bytes (a bomb).
    public static func decompress(_ data: [UInt8], limit: Int = .max) throws(Failure) -> (bytes: [UInt8], truncated: Bool) {
        var result: [UInt8] = []
        var offset = 0
        var output = [UInt8](repeating: 0, count: 256 << 10)
        while offset < data.count {
            var stream = z_stream()
            guard camhub_inflate_auto(&stream) == Z_OK else { throw Failure(description: "zlib: cannot start inflating") }
            defer { inflateEnd(&stream) }
            var status: Int32 = Z_OK
            var input = Array(data[offset...])
            let consumed: Int = input.withUnsafeMutableBufferPointer { inBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                repeat {
                    output.withUnsafeMutableBufferPointer { outBuffer in
                        stream.next_out = outBuffer.baseAddress
                        stream.avail_out = uInt(outBuffer.count)
                        status = inflate(&stream, Z_NO_FLUSH)
                        result.append(contentsOf: outBuffer[0..<(outBuffer.count - Int(stream.avail_out))])
                    }
                } while status == Z_OK && !(stream.avail_in == 0 && stream.avail_out != 0) && result.count <= limit
                return inBuffer.count - Int(stream.avail_in)
            }
            if result.count > limit { throw Failure(description: "more than \(limit) bytes once inflated") }
            switch status {
            case Z_STREAM_END:
                offset += consumed
            case Z_OK, Z_BUF_ERROR:
                return (result, true)  // input ended inside the stream
            default:
                throw Failure(description: "not a valid gzip stream at byte \(offset + consumed) (zlib \(status))")
            }
        }
        return (result, false)
    }
}
