import Dispatch
import Foundation
import HubCore
import Synchronization

/// `camhub serve --record DIR`: the hub's accepted commands and animation
/// ends, per room, as gzip-compressed JSON lines (docs/RECORDING.md).
///
/// The loop thread only `append`s (a non-blocking hand-over to an
/// `AsyncStream`); one writer task owns the files, compresses and writes, so
/// the loop never waits on the disk. The hand-over holds at most `queueLimit`
/// entries: when the writer falls that far behind (a stalled or full disk),
/// further entries are dropped whole and counted (`dropped`), and the loop
/// still never waits. `flush` (about once a second, from the
/// loop) makes what was written readable, so a killed hub loses at most the
/// last second of its recordings. `finish` ends every file and waits for it.
public final class Recorder: Sendable {
    public let directory: String
    /// A file is rotated (a new part begins) once it holds this many compressed bytes.
    public let maxBytes: Int
    /// The most entries waiting for the writer; more are dropped.
    public let queueLimit: Int
    enum Item: Sendable {
        case entry(RecordEntry)
        case flush
    }
    private let continuation: AsyncStream<Item>.Continuation
    private let done = DispatchSemaphore(value: 0)
    private let writer: Task<Void, Never>
    private let counts = Mutex(QueueCounts())

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    /// Default part size: 64 MiB of compressed lines.
    public static let defaultMaxBytes = 64 << 20
    /// Default `queueLimit`: 65,536 entries (a command entry is ~300 bytes: ~20 MB at most).
    public static let defaultQueueLimit = 1 << 16

    /// Checks that `directory` can be created and written (a clear `Failure`
    /// otherwise) and starts the writer. `report` gets write failures (for the log).
    public convenience init(
        directory: String, maxBytes: Int = Recorder.defaultMaxBytes, queueLimit: Int = Recorder.defaultQueueLimit,
        report: @escaping @Sendable (String) -> Void
    ) throws {
        guard maxBytes >= 1024 else { throw Failure(description: "--record-max-bytes must be at least 1024 (got \(maxBytes))") }
        guard queueLimit >= 1 else { throw Failure(description: "--record-queue must be at least 1 (got \(queueLimit))") }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "--record \(directory): cannot create the folder (\((error as NSError).localizedDescription))")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw Failure(description: "--record \(directory): the folder is not writable")
        }
        self.init(directory: directory, maxBytes: maxBytes, queueLimit: queueLimit) {
            RecordingFiles(directory: directory, maxBytes: maxBytes, report: report)
        }
    }

    /// A recorder whose writer hands its entries to the sink `makeSink` makes
    /// (on the writer's task).
    init(directory: String, maxBytes: Int, queueLimit: Int, makeSink: @escaping @Sendable () -> any RecordSink) {
        self.directory = directory
        self.maxBytes = maxBytes
        self.queueLimit = queueLimit
        let (stream, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .bufferingOldest(queueLimit))
        self.continuation = continuation
        let done = self.done
        writer = Task.detached {
            let sink = makeSink()
            for await item in stream {
                switch item {
                case .entry(let entry): sink.append(entry)
                case .flush: sink.flush()
                }
            }
            sink.finish()
            done.signal()
        }
    }

    /// Any thread (the loop's): queues one entry; never blocks. Dropped (and
    /// counted) when `queueLimit` entries already wait for the writer.
    public func append(_ entry: RecordEntry) {
        let result = continuation.yield(.entry(entry))
        counts.withLock { counts in
            switch result {
            case .enqueued(let remaining): counts.depth = queueLimit - remaining
            case .dropped: counts.dropped += 1
            case .terminated: break
            @unknown default: break
            }
        }
    }

    /// Any thread: entries dropped so far because the writer was `queueLimit` behind.
    public var dropped: Int { counts.withLock { $0.dropped } }

    /// Any thread: entries waiting for the writer at the last `append` or `flush`.
    public var depth: Int { counts.withLock { $0.depth } }

    /// Any thread: what was appended so far becomes readable from the files.
    public func flush() {
        if case .enqueued(let remaining) = continuation.yield(.flush) {
            counts.withLock { $0.depth = queueLimit - remaining }
        }
    }

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

/// What `Recorder` counts of its hand-over.
struct QueueCounts {
    var depth = 0
    var dropped = 0
}

/// Where a recorder's writer puts what it takes from the hand-over: the
/// files (`RecordingFiles`), or in tests a sink that can be held up. Used
/// only on the writer's task.
protocol RecordSink {
    func append(_ entry: RecordEntry)
    func flush()
    func finish()
}

extension RecordingFiles: RecordSink {}
