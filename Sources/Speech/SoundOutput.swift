internal import CALSA
import Synchronization

/// The machine's sound output, through ALSA's default device (on a desktop that is PulseAudio's
/// or PipeWire's ALSA plugin), for 16-bit mono speech.
///
/// ``open(sampleRate:)`` gives nil when there is no sound device, as on a server or in a
/// container; the reader then follows the text silently and says so in one line.
public final class SoundOutput: @unchecked Sendable {
    // @unchecked: ALSA's handle is a C pointer (not Sendable); it is only used under `lock`.
    private let pcm: OpaquePointer
    private let lock = Mutex(())

    private init(pcm: OpaquePointer) { self.pcm = pcm }

    /// The default playback device at `sampleRate`, or nil when there is none.
    public static func open(sampleRate: Int = SpeechEngine.shared?.sampleRate ?? 22050) -> SoundOutput? {
        guard bok_alsa_load() == 1 else { return nil }
        var handle: OpaquePointer?
        guard bok_snd_pcm_open(&handle, "default", SND_PCM_STREAM_PLAYBACK, 0) == 0, let handle else { return nil }
        // A quarter second of buffer: pausing and stopping take effect about that fast.
        guard
            bok_snd_pcm_set_params(
                handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1,
                UInt32(sampleRate), 1, 250_000) == 0
        else {
            bok_snd_pcm_close(handle)
            return nil
        }
        return SoundOutput(pcm: handle)
    }

    /// Plays samples, returning when the device has taken them (so it paces the caller).
    public func play(_ samples: UnsafeBufferPointer<Int16>) {
        lock.withLock { _ in Self.write(samples, to: pcm) }
    }

    private static func write(_ samples: UnsafeBufferPointer<Int16>, to pcm: OpaquePointer) {
        guard var base = samples.baseAddress else { return }
        var left = samples.count
        while left > 0 {
            let written = bok_snd_pcm_writei(pcm, base, snd_pcm_uframes_t(left))
            if written < 0 {
                // An underrun (the reader paused) or a suspend: recover once, else give up this block.
                guard bok_snd_pcm_recover(pcm, Int32(written), 1) == 0 else { return }
                continue
            }
            left -= Int(written)
            base += Int(written)
        }
    }

    deinit {
        bok_snd_pcm_drain(pcm)
        bok_snd_pcm_close(pcm)
    }
}
