import ArgumentParser

@main
struct CamHub: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "camhub",
        abstract: "One authoritative map camera per room, synced to many clients over WebSocket.",
        discussion: """
        Start a hub and open the viewer:
          camhub serve                      # http://localhost:8080/?room=demo
        Drive it and watch it from the command line:
          camhub present --room demo --script examples/world-tour.json
          camhub follow --room demo
        Load-test it:
          camhub bench --followers 1000 --duration 10
        """,
        subcommands: [Serve.self, Present.self, Follow.self, Bench.self]
    )
}
