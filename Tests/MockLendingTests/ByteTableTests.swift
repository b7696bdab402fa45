import Testing

@testable import MockLending

@Suite("Memo table of byte strings")
struct ByteTableTests {
    @Test("Every key finds its own value, whatever its length; a key never inserted finds none")
    func keysFindTheirValues() {
        // Keys that share their first 16 bytes, differ only in length, are empty, or are Swedish.
        let stems = ["", "a", "sjön", "Åsa Öberg-Ängel", "sixteen bytes!!!", "Huset vid sjön i Visby"]
        var keys: [String] = []
        for number in 0..<3_000 {
            for stem in stems { keys.append(number == 0 ? stem : "\(stem)\(number)") }
        }
        var table = ByteTable(capacity: 4)
        for (value, key) in keys.enumerated() {
            var bytes = key
            bytes.withUTF8 { bytes in
                let probe = table.probe(UnsafeRawBufferPointer(bytes))
                #expect(probe.value == nil, "\(key) is new")
                table.insert(UnsafeRawBufferPointer(bytes), value, at: probe)
            }
        }
        #expect(table.count == keys.count)
        for (value, key) in keys.enumerated() {
            var key = key
            #expect(key.withUTF8 { table.value(UnsafeRawBufferPointer($0)) } == value, "\(key)")
        }
        for absent in ["b", "sjön0", "Åsa Öberg-Ängel ", "sixteen bytes!!!3000", "Huset vid sjön i Visby-1"] {
            var key = absent
            #expect(key.withUTF8 { table.value(UnsafeRawBufferPointer($0)) } == nil, "\(absent)")
        }
    }
}
