import ArgumentParser
import CamHubClient
import CamHubProtocol
import Foundation
import HubRecording
import StoryFormats

/// `camhub story import|export|convert`: a room's storyboard from and to files.
struct Story: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import a storyboard into a room, export a room's, or convert between formats.",
        discussion: """
            Formats: a Google Earth tour (.kml, or .kmz), a Mapbox storytelling config
            (config.js, or its object as JSON), the hub's own steps (JSON), and, to read
            only, a recording (camhub serve --record; a step per finished animation).
            docs/PROTOCOL.md ("Storyboards from files") has the rules of each.

            Examples:
              camhub story import examples/stories/iberia-tour.kml --room demo --hub ws://127.0.0.1:8080/hub
              camhub story export --room demo --hub http://127.0.0.1:8080 --api-key-file keys --format kml -o demo.kml
              camhub story convert examples/stories/config.js --to kml -o rivers.kml
              camhub story convert recordings/demo/20261123T220000Z-001.jsonl.gz -o demo-steps.json
            """,
        subcommands: [Import.self, Export.self, Convert.self])

    /// The steps of `path`: a recording by its name, else whatever `StoryFile` finds in it.
    static func steps(of path: String) throws -> [StoryStep] {
        if path.hasSuffix(".jsonl.gz") || path.hasSuffix(".jsonl") {
            return try RecordingStory.steps(of: try Recording.read([path]))
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw StoryFormatError("\(path): cannot read the file") }
        return try StoryFile.read(Array(data))
    }

    static func fail(_ command: String, _ error: any Error) -> ExitCode {
        printErr("camhub story \(command): \(error)")
        return ExitCode(error is StoryFormatError || error is Recording.Failure ? 2 : 1)
    }

    /// A failure of the hub or the connection (exit 1).
    static func fail(_ command: String, _ message: String) -> ExitCode {
        printErr("camhub story \(command): \(message)")
        return ExitCode(1)
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a file's storyboard a room's (as its presenter, over the hub's WebSocket).",
            discussion:
                "Exit status: 0 when the room has the storyboard; 1 when the hub refused it or the connection failed; 2 for a file that is not a storyboard.")

        @Argument(help: ArgumentHelp("A .kml or .kmz tour, a storytelling config.js or JSON, the hub's steps, or a recording.", valueName: "file"))
        var file: String

        @Option(help: "The room.")
        var room: String

        @Option(help: "Hub WebSocket URL: ws://HOST:PORT/hub.")
        var hub = "ws://127.0.0.1:8080/hub"

        @Option(help: "Presenter token, when the hub requires one.")
        var token: String?

        @Option(help: "Display name.")
        var name = "camhub-story"

        func run() throws {
            let steps: [StoryStep]
            do { steps = try Story.steps(of: file) } catch { throw Story.fail("import", error) }
            let hello = HelloOptions(room: room, role: "presenter", name: name, token: token, rate: 1, events: ["storyChanged"])
            let connection: HubConnection
            do { connection = try HubConnection.join(try HubURL(parsing: hub), hello: hello) } catch { throw Story.fail("import", error) }
            defer { connection.shutdown() }
            for message in StoryFile.messages(steps) { connection.send(String(decoding: message, as: UTF8.self)) }
            let deadline = monotonicSeconds() + 10
            while monotonicSeconds() < deadline {
                guard case .message(let r)? = connection.next(timeout: deadline - monotonicSeconds()) else { break }
                switch r.message {
                case .error(let e):
                    throw Story.fail("import", "the hub refused the storyboard: \(e.code.rawValue): \(e.message)")
                case .event(.storyChanged(let change), _) where change.count == steps.count && change.by == connection.welcome?.client:
                    say("camhub story import: \(steps.count) step\(steps.count == 1 ? "" : "s") of \(file) are room \(room)'s storyboard")
                    return
                default:
                    continue
                }
            }
            throw Story.fail("import", "the hub did not confirm the storyboard within 10 s")
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a room's storyboard to a file (through the server API: GET /api/v1/rooms/{room}/story).")

        @Option(help: "The room.")
        var room: String

        @Option(help: "The hub: http://HOST:PORT (or its ws://HOST:PORT/hub URL).")
        var hub = "http://127.0.0.1:8080"

        @Option(help: ArgumentHelp("A file whose first line is a server API key (camhub serve --api-key-file).", valueName: "file"))
        var apiKeyFile: String

        @Option(help: "json, kml, kmz or storytelling.")
        var format = "json"

        @Option(name: .shortAndLong, help: "Output file (default: standard output).")
        var output: String?

        func validate() throws {
            guard StoryFile.Format(rawValue: format) != nil else { throw ValidationError("--format: json, kml, kmz or storytelling (got \(format))") }
        }

        func run() throws {
            let key: String
            do { key = try String(contentsOfFile: apiKeyFile, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? "" } catch {
                throw Story.fail("export", "--api-key-file \(apiKeyFile): cannot read it")
            }
            let address = hub.replacingOccurrences(of: "ws://", with: "").replacingOccurrences(of: "http://", with: "")
            let hostPort = address.split(separator: "/").first.map(String.init) ?? ""
            let parts = hostPort.split(separator: ":")
            guard parts.count == 2, let port = Int(parts[1]) else { throw Story.fail("export", "--hub \(hub): give http://HOST:PORT") }
            let response: RawHTTP.Response
            do {
                response = try RawHTTP.request(
                    host: String(parts[0]), port: port, path: "/api/v1/rooms/\(room)/story?format=\(format)",
                    extraHeaders: ["Authorization: Bearer \(key.trimmingCharacters(in: .whitespaces))"], timeoutSeconds: 10)
            } catch {
                throw Story.fail("export", error)
            }
            guard response.status == 200 else {
                throw Story.fail("export", "the hub answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
            }
            try Story.write(response.body, to: output)
        }
    }

    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Convert a storyboard file (or a recording) to another format.")

        @Argument(help: ArgumentHelp("A .kml or .kmz tour, a storytelling config.js or JSON, the hub's steps, or a recording.", valueName: "file"))
        var file: String

        @Option(help: "json, kml, kmz or storytelling.")
        var to = "json"

        @Option(name: .shortAndLong, help: "Output file (default: standard output).")
        var output: String?

        @Option(help: "The story's name in the file.")
        var name = "CameraHub storyboard"

        func validate() throws {
            guard StoryFile.Format(rawValue: to) != nil else { throw ValidationError("--to: json, kml, kmz or storytelling (got \(to))") }
        }

        func run() throws {
            do {
                let steps = try Story.steps(of: file)
                try Story.write(try StoryFile.write(steps, as: StoryFile.Format(rawValue: to)!, name: name), to: output)
            } catch {
                throw Story.fail("convert", error)
            }
        }
    }

    static func write(_ bytes: [UInt8], to path: String?) throws {
        guard let path else { return FileHandle.standardOutput.write(Data(bytes)) }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw StoryFormatError("cannot write \(path)") }
    }
}
