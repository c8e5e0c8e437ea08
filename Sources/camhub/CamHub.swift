import ArgumentParser

@main
struct CamHub: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "camhub",
        abstract: "One authoritative map camera per room, synced to many clients over WebSocket.",
        discussion: """
        Start a hub and open the viewer:
          camhub serve                      # http://localhost:8080/?room=demo
        """,
        subcommands: [Serve.self]
    )
}
