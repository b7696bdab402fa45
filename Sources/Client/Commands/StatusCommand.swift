import Foundation
import Localization
import Shelf

/// `status`: the shelf in a line, from this computer alone; `status --prompt` for a shell prompt.
@MainActor
enum StatusCommand {
    nonisolated static let status = Command(
        typedName: TypedWord("typed: command", "status"),
        synopsis: N_("status [--prompt]"),
        summary: N_("Your loans and reservations in a line, from the shelf on this computer, without the library"),
        details: [
            N_(
                "status never asks the library: it reads the shelf as last synced, so it answers at once, also "
                    + "offline. It says how many loans you have and when the next one ends, and the reservations "
                    + "ready to borrow."),
            N_(
                "status --prompt says it in a few words for a shell prompt, and nothing at all when there is "
                    + "nothing to tell: PS1='$(bok status --prompt) \\$ ' in bash."),
        ],
        flags: ["prompt"],
        run: { arguments, session in
            guard session.shelfCard() != nil else {
                // A prompt stays quiet; a person is told how to make it answer.
                if arguments.flag("prompt") {
                    return CommandOutput(json: StatusJSON(loans: 0, nextEndsInDays: nil, ready: 0))
                }
                throw UserError(tr("status knows no library card yet: log in once with login --remember."))
            }
            let shelf = try session.currentShelf()
            let loans = shelf.entries(.loans).compactMap(\.daysLeft)
            let ready = shelf.entries(.ready).count
            let json = StatusJSON(loans: loans.count, nextEndsInDays: loans.min(), ready: ready)
            if arguments.flag("prompt") {
                return CommandOutput(lines: promptSegment(json).map { [$0] } ?? [], json: json)
            }
            return CommandOutput(lines: [sentence(json)], json: json)
        })

    /// `2 loans, 3 days left · 1 ready`; nil when there is nothing to tell.
    static func promptSegment(_ status: StatusJSON) -> String? {
        var parts: [String] = []
        if let days = status.nextEndsInDays {
            parts.append(
                trn("{n} loan", "{n} loans", status.loans) + ", "
                    + (days == 0 ? tr("last day") : trn("{n} day left", "{n} days left", days)))
        }
        if status.ready > 0 { parts.append(trn("{n} ready", "{n} ready", status.ready)) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// `You have 2 loans; the next one ends in 3 days. 1 reservation is ready to borrow.`
    static func sentence(_ status: StatusJSON) -> String {
        var text: String
        if let days = status.nextEndsInDays {
            text =
                trn("You have {n} loan", "You have {n} loans", status.loans) + "; "
                + (days == 0
                    ? tr("the next one ends today.")
                    : trn("the next one ends in {n} day.", "the next one ends in {n} days.", days))
        } else {
            text = tr("You have no loans.")
        }
        if status.ready > 0 {
            text +=
                " "
                + trn(
                    "{n} reservation is ready to borrow.", "{n} reservations are ready to borrow.", status.ready)
        }
        return text
    }
}

/// `status --json`.
struct StatusJSON: Encodable, Sendable {
    let loans: Int
    let nextEndsInDays: Int?
    let ready: Int
}
