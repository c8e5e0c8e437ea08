import CamHubProtocol

/// Turns `PresenterEvent`s into terminal lines: one line per step, a live
/// progress bar (redrawn in place on a terminal, printed once when done
/// otherwise), and a line per animation outcome and hub error.
public final class PresentPrinter {
    private let write: (String) -> Void
    private let live: Bool
    private let total: Int
    private var barShown = false
    private var lastBarText = ""
    /// Animations whose outcome line is printed and whose waitFor has not ended
    /// yet: that waitFor then adds no second line saying the same.
    private var outcomesShown: Set<String> = []

    /// `live`: standard output is a terminal (bars are redrawn with `\r`).
    public init(stepCount: Int, live: Bool, write: @escaping (String) -> Void) {
        self.total = stepCount
        self.live = live
        self.write = write
    }

    private func prefix(_ step: ScriptStep) -> String {
        let width = String(total).count
        var n = String(step.number)
        while n.count < width { n = " " + n }
        return "[\(n)/\(total)]"
    }

    private func line(_ text: String) {
        if barShown {
            write("\r\u{1B}[2K")
            barShown = false
        }
        write(text + "\n")
    }

    public static func bar(_ fraction: Double, width: Int = 24) -> String {
        let f = min(max(fraction.isFinite ? fraction : 0, 0), 1)
        let full = Int((f * Double(width)).rounded(.down))
        return "[" + String(repeating: "█", count: full) + String(repeating: "░", count: width - full) + "]"
    }

    public func handle(_ event: PresenterEvent) {
        switch event {
        case .stepStarted(let step, let iteration):
            if step.number == 1 && iteration > 1 { line("— loop \(iteration) —") }
            switch step.action {
            case .command: break  // printed with its outcome ("sent")
            default: if !live { line("\(prefix(step)) \(step.summary)") }
            }
        case .progress(let step, let elapsed, let total):
            guard live else { return }
            let text: String
            if let total, total > 0 {
                text = "\(prefix(step)) \(step.summary)  \(Self.bar(elapsed / total))  \(fixed(elapsed, 1))/\(fixed(total, 1)) s"
            } else {
                let spin = ["◐", "◓", "◑", "◒"][Int(elapsed * 4) % 4]
                text = "\(prefix(step)) \(step.summary)  \(spin) \(fixed(elapsed, 1)) s"
            }
            if text != lastBarText {
                write("\r\u{1B}[2K" + text)
                barShown = true
                lastBarText = text
            }
        case .stepDone(let step, let note):
            switch step.action {
            case .command:
                line("\(prefix(step)) \(step.summary) · \(note)")
            case .waitFor(let id, _) where outcomesShown.contains(id):
                outcomesShown.remove(id)
                // The outcome line ("✓ id (step n) finished after …") said it; a
                // live bar is closed as done, plain output has the step line already.
                if live { line("\(prefix(step)) \(step.summary)  \(Self.bar(1))") }
            default:
                line(live ? "\(prefix(step)) \(step.summary)  \(Self.bar(1))  \(note)" : "\(String(repeating: " ", count: prefix(step).count)) ↳ \(note)")
            }
        case .animation(let a, let step, let seconds):
            let id = a.id ?? "(no id)"
            // Not started by a step: the hub's own animation for one of our gestures.
            let whose = step.map { " (step \($0))" } ?? " (gesture)"
            let after = seconds.map { " after \(fixed($0, 2)) s" } ?? ""
            if a.status.isEnd, a.id != nil, step != nil { outcomesShown.insert(id) }
            switch a.status {
            case .started:
                return
            case .finished:
                line("    ✓ \(id)\(whose) finished\(after)" + (a.camera.map { " at \($0.summary)" } ?? "") + clampedNote(a))
            case .superseded:
                line(
                    "    ↷ \(id)\(whose) superseded by \(a.by ?? "the hub")"
                        + (a.lost.isEmpty ? "" : " (lost \(a.lost.names.joined(separator: ", ")))"))
            case .cancelled:
                line("    ✗ \(id)\(whose) cancelled by \(a.by ?? "the hub")" + (a.reason.map { ": \($0)" } ?? ""))
            case .interrupted:
                line("    ~ \(id)\(whose) lost \(a.lost.names.joined(separator: ", ")) to \(a.by ?? "the hub"), runs on")
            }
        case .hubError(let e, let step):
            line("    ! error \(e.code.rawValue)" + (step.map { " (step \($0))" } ?? "") + ": \(e.message)")
        case .retrying(let ref, let step, let attempt, let after):
            line(
                "    ~ \(ref)" + (step.map { " (step \($0))" } ?? "")
                    + ": the room has no reachable owner right now (failover?); sending it again in \(fixed(after, 2)) s"
                    + " (attempt \(attempt) of \(UnavailableRetries.maxAttempts))")
        case .waitingForAnimations(let n):
            line("waiting for \(n) running animation\(n == 1 ? "" : "s") to end…")
        }
    }

    private func clampedNote(_ a: AnimationMessage) -> String {
        a.clamped.isEmpty ? "" : " (clamped: \(a.clamped.names.joined(separator: ", ")))"
    }

    /// The closing report.
    public static func summary(_ r: PresentReport) -> String {
        var lines: [String] = []
        let anims = r.completions.count
        var head = "\(r.interrupted ? "Interrupted" : "Done") after \(fixed(r.seconds, 1)) s: \(r.stepsRun) steps"
        if r.iterations > 1 { head += " in \(r.iterations) loops" }
        head +=
            ", \(anims) animation\(anims == 1 ? "" : "s") ended — \(r.count("finished")) finished, \(r.count("superseded")) superseded, \(r.count("cancelled")) cancelled"
        if r.count("refused") > 0 { head += ", \(r.count("refused")) refused" }
        head += "; \(r.errors.count) error\(r.errors.count == 1 ? "" : "s")"
        head += r.retried > 0 ? "; \(r.retried) command\(r.retried == 1 ? "" : "s") sent again after `unavailable`." : "."
        lines.append(head)
        for (step, e) in r.errors {
            lines.append("  error\(step.map { " in step \($0)" } ?? ""): \(e.code): \(e.message)")
        }
        for p in r.problems { lines.append("  problem: \(p)") }
        if let d = r.disconnected { lines.append("  the hub connection ended: \(d)") }
        if r.hubWentAway {
            lines.append(
                "  the hub went away or restarted after step \(r.stepsRun): a script cannot resume where it was "
                    + "(its animations ended with the connection, and waits would lose their timing); run it again")
        }
        if let f = r.lastFrame { lines.append("final camera: \(f.camera)\(f.moving ? " (still moving)" : "")") }
        return lines.joined(separator: "\n")
    }
}
