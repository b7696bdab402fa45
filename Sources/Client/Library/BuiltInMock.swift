import Foundation
import Localization
import MockLending
import Synchronization

/// The built-in mock library as a session holds it: the in-process server (started on demand,
/// see ``StartOnDemand``), and what it found wrong with its shared state, waiting to be told.
///
/// A file that cannot be used is said in one line on stderr, once, and a mock lending from a
/// private state is not taken at its word that a loan has ended.
final class BuiltInMock: Sendable {
    /// The server, starting or started.
    let server: StartOnDemand<MockLendingServer>
    /// What the mock found wrong with its shared state, waiting to be told.
    let stateInbox: MockStateInbox

    init(server: StartOnDemand<MockLendingServer>, stateInbox: MockStateInbox = MockStateInbox()) {
        self.server = server
        self.stateInbox = stateInbox
    }

    /// The server's address (starting it if it was not).
    func baseURL() async throws -> URL { try await server.value.baseURL }

    /// The mock's clock (starting it if it was not).
    func now() async throws -> Date { try await server.value.now() }

    /// Stops the server if it was started; waits for its port to close.
    func stop() async { await server.valueIfStarted()?.stop() }

    /// The line saying why the mock library lends from a private state, the first time it is
    /// asked after the mock found out; nil otherwise.
    func stateWarning() -> String? { stateInbox.take().map(MockStateWords.warning) }

    /// Why the mock lends from a private state; nil when it does not (or is not started).
    func stateProblem() async -> SharedStateProblem? { await server.valueIfStarted()?.sharedStateProblem }

    /// Asked by a sync once it has the library's lists: false while the mock lends from a private
    /// state, whose lists leave out the loans of the library every `bok --mock` shares.
    var listsAreWhole: @Sendable () async -> Bool {
        let server = server
        return { await server.valueIfStarted()?.sharedStateProblem == nil }
    }
}

/// What the mock found wrong with its shared state and the patron has not been told yet. The mock
/// posts from whichever thread found it; the REPL and a one-shot command take it on the main actor.
final class MockStateInbox: Sendable {
    private let waiting = Mutex<SharedStateProblem?>(nil)

    func post(_ problem: SharedStateProblem) {
        waiting.withLock { $0 = problem }
    }

    /// The problem not told yet; afterwards none.
    func take() -> SharedStateProblem? {
        waiting.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }
    }
}

/// The patron's words for a shared mock state that cannot be used.
enum MockStateWords {
    /// `The mock library's shared state FILE cannot be used (it is damaged); this bok lends from a
    /// private mock library until it quits, … Run mock reset to rebuild it.`
    static func warning(_ problem: SharedStateProblem) -> String {
        tr(
            "The mock library's shared state {file} cannot be used ({why}); this bok lends from a private mock "
                + "library until it quits, and other bok --mock do not see its loans. {todo}",
            ["file": problem.file.path, "why": why(problem), "todo": todo(problem)])
    }

    /// `mock reset` could not rebuild the file: the reset holds for this bok only.
    static func notRebuilt(_ problem: SharedStateProblem) -> String {
        tr(
            "The mock library is back at its seed for this bok only: the mock library's shared state {file} "
                + "cannot be rebuilt ({why}). {todo}",
            ["file": problem.file.path, "why": why(problem), "todo": todo(problem)])
    }

    /// What is wrong, in a few words.
    static func why(_ problem: SharedStateProblem) -> String {
        switch problem.kind {
        case .damaged: return tr("it is damaged")
        case .readOnly:
            guard let culprit = problem.culprit, culprit.path != problem.file.path else {
                return tr("it is read-only")
            }
            return tr("{name} beside it is read-only", ["name": culprit.lastPathComponent])
        case .folderReadOnly: return tr("its folder is read-only")
        case .removed: return tr("it was removed or replaced while bok was running")
        case .diskFull: return tr("the disk is full")
        case .busy: return tr("another bok has kept it locked for over 10 seconds")
        default: return tr("it cannot be opened")
        }
    }

    /// What to do about it.
    static func todo(_ problem: SharedStateProblem) -> String {
        switch problem.kind {
        case .folderReadOnly:
            return tr(
                "Make {folder} writable, then run mock reset.",
                ["folder": (problem.culprit ?? problem.file.deletingLastPathComponent()).path])
        case .diskFull: return tr("Make room on the disk, then run mock reset.")
        case .busy: return tr("Quit the other bok, then run mock reset.")
        default: return tr("Run mock reset to rebuild it.")
        }
    }
}
