import CamHubProtocol
import CameraCore
import CameraMotion
import Foundation
import GRDB
import HubCore

/// The rooms of `camhub serve --data DIR`, in `DIR/rooms.sqlite` (SQLite in
/// WAL mode, through GRDB): one row per room with its camera, limits,
/// tracking mode and `seq`. Numbers are stored as the shortest text that reads
/// back as the same Double, so a restored camera is equal to the bit (and the
/// file stays readable with `sqlite3`). Thread-safe (GRDB's pool serializes writes).
public final class RoomStore: Sendable {
    public static let fileName = "rooms.sqlite"
    public let path: String
    private let pool: DatabasePool

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Opens (creating it if needed) the store in `directory`; a clear `Failure`
    /// when the folder cannot be made or written, or the file is not a CameraHub store.
    public init(directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "--data \(directory): cannot create the folder (\(Self.reason(error)))")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw Failure(description: "--data \(directory): the folder is not writable")
        }
        path = (directory as NSString).appendingPathComponent(Self.fileName)
        do {
            pool = try DatabasePool(path: path)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("rooms-v1") { db in
                try db.create(table: "room") { t in
                    t.primaryKey("name", .text)
                    for column in [
                        "latitude", "longitude", "zoom", "bearing", "tilt", "anchor_x", "anchor_y",
                        "min_zoom", "max_zoom", "min_tilt", "max_tilt",
                    ] {
                        t.column(column, .text).notNull()
                    }
                    t.column("max_tilt_by_zoom", .text).notNull()  // "zoom:tilt zoom:tilt …"
                    t.column("bounds", .text)  // "south west north east", NULL for none
                    t.column("tracking_mode", .text).notNull()
                    t.column("seq", .integer).notNull()
                    t.column("saved_at", .double).notNull()  // Unix seconds
                }
            }
            // The camera in 3D: rooms saved before it read back flat (roll 0, sea level, MapLibre's
            // field of view) with roll unlimited.
            migrator.registerMigration("rooms-v2-3d") { db in
                try db.alter(table: "room") { t in
                    t.add(column: "roll", .text).notNull().defaults(to: "0.0")
                    t.add(column: "elevation", .text).notNull().defaults(to: "0.0")
                    t.add(column: "fov", .text).notNull().defaults(to: Self.text(Camera.defaultFov))
                    t.add(column: "max_roll", .text).notNull().defaults(to: Self.text(CameraLimits.defaultMaxRoll))
                    t.add(column: "projection", .text).notNull().defaults(to: MapProjection.mercator.rawValue)
                }
            }
            // The storyboard: its steps, the step the room is on and whether drivers may step it,
            // as JSON (`StoryState.encoded`); NULL for a room without one.
            migrator.registerMigration("rooms-v3-story") { db in
                try db.alter(table: "room") { t in
                    t.add(column: "story", .text)
                }
            }
            try migrator.migrate(pool)
        } catch {
            throw Failure(
                description: "--data \(directory): \(path) is not a usable CameraHub room store (\(Self.reason(error))); move it away to start afresh")
        }
    }

    /// Every stored room; a row that cannot be read back is an error naming it.
    public func load() throws -> [RoomState] {
        do {
            return try pool.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM room ORDER BY name").map { try Self.state(from: $0) }
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(path): cannot read the rooms (\(Self.reason(error)))")
        }
    }

    /// Writes `changed` rooms and deletes `removed` ones, in one transaction.
    public func save(_ changed: [RoomState], removing removed: [String] = []) throws {
        let now = Date().timeIntervalSince1970
        try pool.write { db in
            for state in changed {
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO room (name, latitude, longitude, zoom, bearing, tilt, anchor_x, anchor_y,
                            min_zoom, max_zoom, min_tilt, max_tilt, max_tilt_by_zoom, bounds, tracking_mode, seq, saved_at,
                            roll, elevation, fov, max_roll, projection, story)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: Self.arguments(state, savedAt: now))
            }
            for name in removed { try db.execute(sql: "DELETE FROM room WHERE name = ?", arguments: [name]) }
        }
    }

    // MARK: rows

    private static func arguments(_ s: RoomState, savedAt: Double) -> StatementArguments {
        let c = s.camera
        let l = s.limits
        let table = l.maxTiltByZoom.map { "\(text($0.zoom)):\(text($0.tilt))" }.joined(separator: " ")
        let bounds = l.bounds.map { [$0.south, $0.west, $0.north, $0.east].map(text).joined(separator: " ") }
        let values: [(any DatabaseValueConvertible)?] = [
            s.name, text(c.latitude), text(c.continuousLongitude), text(c.zoom), text(c.bearing), text(c.tilt),
            text(c.anchor.x), text(c.anchor.y), text(l.minZoom), text(l.maxZoom), text(l.minTilt), text(l.maxTilt),
            table, bounds, s.trackingMode.rawValue, Int64(clamping: s.seq), savedAt,
            text(c.roll), text(c.elevation), text(c.fov), text(l.maxRoll), s.projection.rawValue,
            s.story.map { String(decoding: $0.encoded(), as: UTF8.self) },
        ]
        return StatementArguments(values)
    }

    private static func state(from row: Row) throws -> RoomState {
        let name: String = row["name"] ?? "?"
        func number(_ column: String) throws -> Double {
            guard let text: String = row[column], let value = Double(text) else {
                throw Failure(description: "room \(name): \(column) is not a number")
            }
            return value
        }
        func numbers(_ text: String, _ column: String) throws -> [Double] {
            try text.split(whereSeparator: { $0 == " " || $0 == ":" }).map {
                guard let value = Double($0) else { throw Failure(description: "room \(name): \(column) is not a list of numbers") }
                return value
            }
        }
        let camera = Camera(
            latitude: try number("latitude"), longitude: try number("longitude"), zoom: try number("zoom"),
            tilt: try number("tilt"), bearing: try number("bearing"),
            anchor: Anchor(x: try number("anchor_x"), y: try number("anchor_y")), roll: try number("roll"),
            elevation: try number("elevation"), fov: try number("fov"))
        let pairs = try numbers(row["max_tilt_by_zoom"] ?? "", "max_tilt_by_zoom")
        guard pairs.count % 2 == 0 else { throw Failure(description: "room \(name): max_tilt_by_zoom is not zoom:tilt pairs") }
        let table = stride(from: 0, to: pairs.count, by: 2).map { CameraLimits.TiltStop(zoom: pairs[$0], tilt: pairs[$0 + 1]) }
        var bounds: GeoBounds?
        if let text: String = row["bounds"] {
            let b = try numbers(text, "bounds")
            guard b.count == 4 else { throw Failure(description: "room \(name): bounds is not four numbers") }
            bounds = GeoBounds(south: b[0], west: b[1], north: b[2], east: b[3])
        }
        let limits: CameraLimits
        do {
            limits = try CameraLimits(
                minZoom: try number("min_zoom"), maxZoom: try number("max_zoom"),
                minTilt: try number("min_tilt"), maxTilt: try number("max_tilt"),
                maxTiltByZoom: table, bounds: bounds, maxRoll: try number("max_roll"))
        } catch let error as CameraInputError {
            throw Failure(description: "room \(name): limits: \(error)")
        }
        guard let mode = TrackingMode(rawValue: row["tracking_mode"] ?? "") else {
            throw Failure(description: "room \(name): tracking_mode is not a tracking mode")
        }
        guard let seq: Int64 = row["seq"], seq >= 0 else { throw Failure(description: "room \(name): seq is not a count") }
        guard let projection = MapProjection(rawValue: row["projection"] ?? "") else {
            throw Failure(description: "room \(name): projection is not mercator or globe")
        }
        var state = RoomState(name: name, camera: camera, limits: limits, trackingMode: mode, seq: UInt64(seq), projection: projection)
        if let text: String = row["story"] {
            do {
                state.story = try StoryState.decode(Array(text.utf8))
            } catch {
                throw Failure(description: "room \(name): story: \(error.message)")
            }
        }
        return state
    }

    /// The shortest text that reads back as exactly `value` (Swift's description).
    private static func text(_ value: Double) -> String { value.description }

    private static func reason(_ error: any Error) -> String {
        if let db = error as? DatabaseError { return db.message ?? db.description }
        return (error as NSError).localizedDescription
    }
}
