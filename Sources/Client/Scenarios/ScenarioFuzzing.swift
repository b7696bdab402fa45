#if FUZZING
import CFuzzDriver
import Foundation

/// The scenario-file parser under libFuzzer (`make fuzz`, target `scenario`).
///
/// The parser lives in this executable, and a fuzz target cannot link another executable, so a
/// `-D FUZZING` build of `bok` itself hands its main to libFuzzer's driver with this callback.
enum ScenarioFuzzing {
    static func run() -> Int32 {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzScenario(data, size) }
    }
}

/// libFuzzer's entry, for its own `main` should the linker pick that one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // libFuzzer calls back on the thread that started it: bok's main thread.
    MainActor.assumeIsolated { _ = try? ScenarioParser.parse(text, file: "fuzz.scenario") }
    return 0
}
#endif
