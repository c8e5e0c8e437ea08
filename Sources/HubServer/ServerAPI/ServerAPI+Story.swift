import CamHubProtocol
import HubCore
import StoryFormats
import WebSocketTransport

/// `PUT /api/v1/rooms/{room}/story` (the body a file `StoryFile` reads, by its
/// Content-Type) and `GET` (`?format=json|kml|kmz|storytelling`, JSON by default).
extension ServerAPI {
    /// `GET` or `PUT …/story` for `room`.
    static func storyFile(_ request: HTTPRequest, in room: RoomName) throws(APIFailure) -> Work {
        switch request.method {
        case .get, .head:
            let name = request.query["format"] ?? "json"
            guard let format = StoryFile.Format(rawValue: name) else {
                throw APIFailure(status: 400, code: "bad_message", "format: json, kml, kmz or storytelling (got '\(name)')")
            }
            return .room(room) { s, r in getStory(format: format, in: room, s, r) }
        case .put:
            let (body, type) = (request.body, request.contentType)
            return .room(room) { s, r in
                // In a cluster, a room this hub does not run gets its story from the hub that does.
                guard s.cluster == nil || s.hub.owns(room) == true else {
                    return askOwner(.story(room, body: body, contentType: type), of: room, s, r)
                }
                putStory(body, contentType: type, in: room, s, r)
            }
        default:
            throw methodNotAllowed("GET, PUT")
        }
    }

    /// The file's steps become the room's storyboard, sent as the room's
    /// presenter would send them: a `story` `set` and, for a storyboard larger
    /// than one message, `insert`s. Answers `{"type":"done","count":N}`, or the
    /// file's problem (400, naming the element, line or field) or the hub's refusal.
    static func putStory(_ body: [UInt8], contentType: String?, in room: RoomName, _ s: HubServer.State, _ r: HTTPResponder) {
        let steps: [StoryStep]
        do {
            steps = try StoryFile.read(body, mediaType: contentType)
        } catch {
            return r.respond(response(APIFailure(status: 400, code: "bad_message", "story: \(error.description)")))
        }
        let now = s.now()
        for message in StoryFile.messages(steps) {
            var ran: (key: ConnectionKey, client: String, message: ClientMessage)?
            do throws(APIFailure) {
                let collected = try s.api.collect { () throws(APIFailure) in ran = try s.hub.apiCommand(message, in: room, at: now, sink: s.sink) }
                let answers = ran.map { collected[$0.key] ?? [] } ?? []
                if let error = answers.first(where: { $0.starts(with: Array(#"{"type":"error""#.utf8)) }) {
                    s.sink.flush()
                    return r.respond(response(failure(from: error) ?? APIFailure(status: 400, code: "bad_message", "the hub refused the story")))
                }
            } catch {
                s.sink.flush()
                return r.respond(response(error))
            }
        }
        s.sink.flush()
        r.respond(.json(#"{"type":"done","count":\#(steps.count)}"#))
    }

    /// The room's storyboard as a file of `format` (`json`: `{"steps":[…],"index":…}`).
    static func getStory(format: StoryFile.Format, in room: RoomName, _ s: HubServer.State, _ r: HTTPResponder) {
        guard let story = s.hub.story(of: room) else {
            return r.respond(response(APIFailure(status: 404, code: "not_found", "room: no room '\(room.value)' on this hub")))
        }
        if format == .steps { return r.respond(HTTPResponse(contentType: "application/json", body: story.encoded())) }
        do {
            r.respond(HTTPResponse(contentType: format.mediaType, body: try StoryFile.write(story.steps, as: format, name: room.value)))
        } catch {
            r.respond(response(APIFailure(status: 500, code: "internal", error.description)))
        }
    }
}
