import Dispatch
import Foundation
import HubCore

/// `camhub serve --record DIR`: the hub's accepted commands and animation
/// ends, per room, as gzip-compressed JSON lines (docs/RECORDING.md).
///
/// The loop thread only `append`s (a non-blocking hand-over to an
/// `AsyncStream`); one writer task owns the files, compresses and writes, so
/// the loop never waits on the disk. `flush` (about once a second, from the
/// loop) makes what was written readable, so a killed hub loses at most the
/// last second of its recordings. `finish` ends every file and waits for it.
public final class Recorder: Sendable {
    public let directory: String
    /// A file is rotated (a new part begins) once it holds this many compressed bytes.
    public let maxBytes: Int
    private enum Item: Sendable {
        case entry(RecordEntry)
        case flush
    }
    private let continuation: AsyncStream<Item>.Continuation
    private let done = DispatchSemaphore(value: 0)
    private let writer: Task<Void, Never>

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    /// Default part size: 64 MiB of compressed lines.
    public static let defaultMaxBytes = 64 << 20

    /// Checks that `directory` can be created and written (a clear `Failure`
    /// otherwise) and starts the writer. `report` gets write failures (for the log).
    public init(directory: String, maxBytes: Int = Recorder.defaultMaxBytes, report: @escaping @Sendable (String) -> Void) throws {
        guard maxBytes >= 1024 else { throw Failure(description: "--record-max-bytes must be at least 1024 (got \(maxBytes))") }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "--record \(directory): cannot create the folder (\((error as NSError).localizedDescription))")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw Failure(description: "--record \(directory): the folder is not writable")
        }
        self.directory = directory
        self.maxBytes = maxBytes
        let (stream, continuation) = AsyncStream<Item>.makeStream()
        self.continuation = continuation
        let done = self.done
        writer = Task.detached {
            let files = RecordingFiles(directory: directory, maxBytes: maxBytes, report: report)
            for await item in stream {
                switch item {
                case .entry(let entry): files.append(entry)
                case .flush: files.flush()
                }
            }
            files.finish()
            done.signal()
        }
    }

    /// Any thread (the loop's): queues one entry; never blocks.
    public func append(_ entry: RecordEntry) { continuation.yield(.entry(entry)) }

    /// Any thread: what was appended so far becomes readable from the files.
    public func flush() { continuation.yield(.flush) }

    /// Ends every file and returns once they are written. Call once, after
    /// the last `append`, from an ordinary thread (it blocks: never from a
    /// Swift concurrency task, whose thread the writer may need).
    public func finish() {
        continuation.finish()
        done.wait()
    }

    /// `finish` for async callers: suspends instead of blocking.
    public func finish() async {
        continuation.finish()
        await writer.value
    }
}
