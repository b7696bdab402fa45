import Foundation
import Testing

@testable import Terminal

/// `screen-reader = auto` turns the mode on by what docs/accessibility.md lists, and by nothing else.
@Suite struct ScreenReaderDetectionTests {
    /// Detection on a computer with `paths` present and `programs` running.
    func detect(
        _ environment: [String: String] = [:], paths: Set<String> = [], programs: Set<String> = []
    ) -> ScreenReaderDetection {
        ScreenReaderDetection.detect(
            environment: environment, exists: { paths.contains($0) }, runningPrograms: { programs })
    }

    @Test("Nothing found on a computer with no screen reader, a desktop's usual variables included")
    func nothing() {
        let desktop = ["QT_ACCESSIBILITY": "1", "GTK_MODULES": "gail:atk-bridge", "TERM": "xterm-256color"]
        #expect(!detect(desktop, programs: ["bash", "gnome-shell", "at-spi-bus-launcher"]).found)
        #expect(!detect(["ACCESSIBILITY_ENABLED": "0"]).found, "only =1 counts")
    }

    @Test(
        "BRLTTY, Speakup and Orca are each found by what shows them",
        arguments: [
            (["BRLAPI_HOST": ":0"], [], [], "BRLTTY (BRLAPI_HOST=:0)"),
            (["BRLAPI_AUTH": "/etc/brlapi.key"], [], [], "BRLTTY (BRLAPI_AUTH=/etc/brlapi.key)"),
            ([:], ["/var/lib/BrlAPI/0"], [], "BRLTTY (/var/lib/BrlAPI/0)"),
            ([:], ["/run/brltty.pid"], [], "BRLTTY (/run/brltty.pid)"),
            ([:], [], ["brltty"], "BRLTTY (brltty is running)"),
            ([:], ["/sys/accessibility/speakup"], [], "Speakup (/sys/accessibility/speakup)"),
            ([:], ["/proc/speakup"], [], "Speakup (/proc/speakup)"),
            ([:], [], ["espeakup"], "Speakup (espeakup is running)"),
            (["ACCESSIBILITY_ENABLED": "1"], [], [], "a screen reader (ACCESSIBILITY_ENABLED=1)"),
            (["GNOME_ACCESSIBILITY": "1"], [], [], "Orca (GNOME_ACCESSIBILITY=1)"),
            ([:], [], ["orca"], "Orca (orca is running)"),
        ] as [([String: String], Set<String>, Set<String>, String)])
    func found(environment: [String: String], paths: Set<String>, programs: Set<String>, evidence: String) {
        let detection = detect(environment, paths: paths, programs: programs)
        #expect(detection.found)
        #expect(detection.evidence == [evidence])
    }

    @Test("The setting: on and off whatever is found, auto by what is found")
    func setting() {
        let found = ScreenReaderDetection(evidence: ["Orca (orca is running)"])
        let none = ScreenReaderDetection(evidence: [])
        #expect(ScreenReaderSetting.on.isOn { none })
        #expect(!ScreenReaderSetting.off.isOn { found })
        #expect(ScreenReaderSetting.auto.isOn { found })
        #expect(!ScreenReaderSetting.auto.isOn { none })
        #expect(ScreenReaderSetting(configValue: "Yes") == .on)
        #expect(ScreenReaderSetting(configValue: "maybe") == nil)
    }
}

extension ScreenReaderDetectionTests {
    @Test("The running programs are read from /proc, this test's own among them")
    func runningProgramsIncludeThisOne() throws {
        let own = try String(contentsOfFile: "/proc/self/comm", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(ScreenReaderDetection.runningPrograms().contains(own), "\(own)")
    }
}
