internal import CSpeechd

/// Reading aloud through speech-dispatcher: the voice, rate and synthesizer a screen-reader user
/// has already chosen (Orca and Speakup speak through it), one sentence a message, so the view
/// can mark the sentence being said.
///
/// bok connects to a server that is running (`SPEECHD_ADDRESS`, else the user's socket) and never
/// starts one; the library is loaded at first use.
public final class SpeechDispatcher: @unchecked Sendable {
    // @unchecked: the connection's calls are made by one reading thread; cancel, from the view's
    // thread, is libspeechd's own thread-safe call.
    private let connection: OpaquePointer

    /// How a message ended.
    public enum Outcome: Sendable, Equatable {
        case spoken
        /// Cancelled (pause, stop, or another client's message took over).
        case cancelled
        /// The server did not answer in time, or refused the message.
        case failed
    }

    /// The running server, or nil when there is none or libspeechd is not installed.
    public static func connect() -> SpeechDispatcher? {
        guard let connection = bok_spd_open("bok") else { return nil }
        return SpeechDispatcher(connection: connection)
    }

    private init(connection: OpaquePointer) {
        self.connection = connection
    }

    deinit { bok_spd_close(connection) }

    /// Says `text` in `language` (`sv`, `en-GB`) at `rate` (-100 … 100; 0 is the user's own) and
    /// waits until it has been said, for at most `timeout` seconds.
    public func say(_ text: String, language: String, rate: Int, timeout: Double = 120) -> Outcome {
        _ = bok_spd_set_language(connection, language)
        _ = bok_spd_set_rate(connection, Int32(max(-100, min(100, rate))))
        switch bok_spd_say_and_wait(connection, text, Int32(timeout * 1000)) {
        case 0: return .spoken
        case 1: return .cancelled
        default: return .failed
        }
    }

    /// Stops the message being said; a waiting ``say(_:language:rate:timeout:)`` returns `.cancelled`.
    public func cancel() { bok_spd_cancel(connection) }

    /// speech-dispatcher's rate (-100 … 100) for a rate in words a minute: 0 for none chosen (the
    /// user's own, set in speech-dispatcher), else eSpeak NG's 80 … 450 around its 175.
    public static func rate(wordsPerMinute: Int?) -> Int {
        guard let wordsPerMinute else { return 0 }
        let words = Double(max(80, min(450, wordsPerMinute)))
        return Int(((words < 175 ? (words - 175) / 95 : (words - 175) / 275) * 100).rounded())
    }
}

/// Which voice reads a book aloud: speech-dispatcher when one is running (`auto`), or eSpeak NG
/// (`espeak`), or speech-dispatcher only (`speechd`). `BOK_SPEECH`, or `speech =` in the config file.
public enum SpeechChoice: String, Sendable, CaseIterable {
    case auto, espeak, speechd

    /// The choice an environment makes (`BOK_SPEECH`); `auto` when it makes none.
    public init(environment: [String: String]) {
        self = environment["BOK_SPEECH"].flatMap { SpeechChoice(rawValue: $0.lowercased()) } ?? .auto
    }
}
