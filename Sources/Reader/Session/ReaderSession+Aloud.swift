import Localization
internal import Speech

extension ReaderSession {
    /// Whether the book is being read aloud (speaking or paused).
    public var isReadingAloud: Bool { aloud?.isActive ?? false }

    /// `r` on a paragraph chosen in the `v` panel: reads aloud from its start (again if already reading).
    public mutating func readAloud(from target: HighlightTarget) {
        if let player = aloud {
            player.stop()
            aloud = nil
        }
        startReadingAloud(from: Locator(spineIndex: target.spineIndex, offset: target.range.lowerBound))
    }

    /// `r`: starts reading aloud from the top of the page, or pauses and resumes.
    public mutating func toggleReadingAloud() {
        if let player = aloud, player.isActive {
            if player.phase == .speaking {
                player.pause()
                message = tr("Paused; r reads on, Esc stops.")
            } else {
                player.resume()
                message = nil
            }
            return
        }
        startReadingAloud(from: topLocator)
    }

    /// Esc while reading aloud: stops, and keeps the place at the sentence last heard.
    public mutating func stopReadingAloud() {
        guard let player = aloud else { return }
        player.stop()
        if let spoken = player.spoken {
            show(Locator(spineIndex: spoken.spineIndex, offset: spoken.sentence.lowerBound))
        }
        aloud = nil
        message = tr("Stopped reading aloud.")
    }

    /// While reading aloud: turns the page when the voice has gone past it, and ends when the
    /// voice does. Returns whether the screen changed (the highlight moved, a page turned).
    public mutating func followReadingAloud() -> Bool {
        guard let player = aloud else { return false }
        switch player.phase {
        case .failed(let reason):
            aloud = nil
            message = reason
            return true
        case .stopped:
            aloud = nil
            message = player.finishedBook ? tr("Read aloud to the end of the book.") : tr("Stopped reading aloud.")
            return true
        case .speaking, .paused:
            break
        }
        if let ends = loanEnds, now() >= ends {
            // The book goes back to the library: the voice stops with the loan, as the reader would.
            player.stop()
            if let spoken = player.spoken {
                show(Locator(spineIndex: spoken.spineIndex, offset: spoken.sentence.lowerBound))
            }
            aloud = nil
            message = tr("The loan has ended, so reading aloud stopped; borrow the book again to read on.")
            return true
        }
        guard let spoken = player.spoken else { return false }
        if message == nil {
            aloudMessageSentence = nil
        } else if let said = aloudMessageSentence, said != spoken, player.phase == .speaking {
            message = nil
            aloudMessageSentence = nil
        } else if aloudMessageSentence == nil {
            aloudMessageSentence = spoken
        }
        let onScreen = visibleRanges().contains {
            $0.spineIndex == spoken.spineIndex && $0.range.contains(spoken.sentence.lowerBound)
        }
        if !onScreen { show(Locator(spineIndex: spoken.spineIndex, offset: spoken.sentence.lowerBound)) }
        return true
    }

    private mutating func startReadingAloud(from start: Locator) {
        if let ends = loanEnds, now() >= ends {
            message = tr("The loan has ended, so the book cannot be read aloud; borrow it again to read on.")
            return
        }
        guard hasWordsToSay(from: start) else {
            message =
                start.spineIndex == book.readingOrder.first && start.offset == 0
                ? tr("This book has no words to read aloud.")
                : tr("There is nothing to read aloud from here to the end of the book.")
            return
        }
        // The voice the user chose in speech-dispatcher, when one is running (or asked for).
        let dispatcher = speechChoice == .espeak ? nil : SpeechDispatcher.connect()
        if let dispatcher {
            let language = content.document(at: start.spineIndex).language ?? book.metadata.language ?? "en"
            let player = AloudPlayer(
                content: content, readingOrder: book.readingOrder, from: start,
                options: SpeechOptions(voice: language),
                voices: AloudVoices(installed: [], chosen: nil, bookLanguage: nil),
                dispatcher: dispatcher, dispatcherRate: SpeechDispatcher.rate(wordsPerMinute: preferences.speechRate),
                bookLanguage: book.metadata.language ?? "en")
            aloud = player
            message = tr("Reading aloud through speech-dispatcher; r pauses, Esc stops.")
            return
        }
        if speechChoice == .speechd {
            message = LineSpeaker.unavailable(choice: .speechd)
            return
        }
        guard let engine = SpeechEngine.shared else {
            message = SpeechError.unavailable.description
            return
        }
        let voices = AloudVoices(
            installed: engine.voiceNames, chosen: preferences.voice, bookLanguage: book.metadata.language)
        // The voice of the chapter reading starts in (xml:lang), else the book's; passages in
        // other languages get their own voices as they come.
        let language = content.document(at: start.spineIndex).language ?? book.metadata.language ?? "en"
        guard let voice = voices.voice(forChapterLanguage: content.document(at: start.spineIndex).language) else {
            message = tr(
                "No eSpeak NG voice for {language} is installed; choose one with :voice NAME (e.g. :voice en).",
                ["language": language])
            return
        }
        let options = SpeechOptions(
            voice: voice, rate: preferences.speechRate ?? 175, pitch: preferences.speechPitch ?? 50)
        let player = AloudPlayer(
            content: content, readingOrder: book.readingOrder, from: start, options: options, voices: voices)
        aloud = player
        message =
            player.notice
            ?? tr(
                "Reading aloud, voice {voice} at {rate} words a minute; r pauses, Esc stops.",
                ["voice": voice, "rate": options.rate])
    }

    /// Whether reading aloud from `start` to the end of the book has anything to say; it looks
    /// only as far as the first chapter that has.
    private func hasWordsToSay(from start: Locator) -> Bool {
        guard let first = book.readingOrder.firstIndex(of: start.spineIndex) else { return true }
        return book.readingOrder[first...].contains { index in
            content.document(at: index).hasWordsToSay(from: index == start.spineIndex ? start.offset : 0)
        }
    }

    /// Changes a reading-aloud setting (kept per book); speech in progress restarts with it.
    mutating func setSpeech(_ change: (inout ReaderPreferences) -> Void) {
        updatePreferences(change)
        if let player = aloud, player.isActive, let spoken = player.spoken {
            player.stop()
            aloud = nil
            startReadingAloud(from: Locator(spineIndex: spoken.spineIndex, offset: spoken.sentence.lowerBound))
        }
        let rate = preferences.speechRate ?? 175
        let pitch = preferences.speechPitch ?? 50
        message =
            if let voice = preferences.voice {
                tr(
                    "Reading aloud: voice {voice}, {rate} words a minute, pitch {pitch}.",
                    ["voice": voice, "rate": rate, "pitch": pitch])
            } else {
                tr(
                    "Reading aloud: voice of the book's language, {rate} words a minute, pitch {pitch}.",
                    ["rate": rate, "pitch": pitch])
            }
    }
}
