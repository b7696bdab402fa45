import Catalog
import Foundation

extension Availability {
    /// The availability as JSON, as `JSONEncoder` writes it (`withoutEscapingSlashes`): the keys
    /// of its `Codable` encoding in their order, the absent ones left out.
    ///
    /// Written as bytes: under load, a `JSONEncoder` for each hit of a search page was a fifth of
    /// the server's CPU (docs/performance.md). A reason word with a character JSON escapes (never
    /// one of the mock's own) goes through the encoder.
    func appendJSON(to body: inout Data) {
        let word = reason?.word ?? ""
        guard word.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
        else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            // Our own Codable model: encoding cannot fail.
            body.append((try? encoder.encode(self)) ?? Data("{}".utf8))
            return
        }
        // Room for every key and four numbers of 20 characters, the date's three, and the word.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 320 + word.utf8.count) { buffer in
            var count = 0
            func put(_ text: StaticString) {
                text.withUTF8Buffer { bytes in
                    for byte in bytes {
                        buffer[count] = byte
                        count += 1
                    }
                }
            }
            func put(_ text: String) {
                for byte in text.utf8 {
                    buffer[count] = byte
                    count += 1
                }
            }
            func put(_ number: Int, width: Int = 1) {
                guard number >= 0 else { return put(String(number)) }
                var digits = 1
                var left = number
                while left >= 10 {
                    left /= 10
                    digits += 1
                }
                for _ in digits..<max(digits, width) {
                    buffer[count] = UInt8(ascii: "0")
                    count += 1
                }
                var rest = number
                for place in (0..<digits).reversed() {
                    buffer[count + place] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                count += digits
            }
            put(available ? #"{"Available":true,"Reason":""# : #"{"Available":false,"Reason":""#)
            put(word)
            put("\"")
            if let copies {
                put(#","Copies":"#)
                put(copies)
            }
            if let waiting {
                put(#","Waiting":"#)
                put(waiting)
            }
            if let estimatedDate {
                // DayDate's description: `YYYY-MM-DD`, zeros in front.
                put(#","EstimatedDate":""#)
                if estimatedDate.year >= 0 {
                    put(estimatedDate.year, width: 4)
                    put("-")
                    put(estimatedDate.month, width: 2)
                    put("-")
                    put(estimatedDate.day, width: 2)
                } else {
                    put(estimatedDate.description)
                }
                put("\"")
            }
            if let pace {
                put(#","Pace":{"Loans":"#)
                put(pace.loans)
                put(#","Days":"#)
                put(pace.days)
                put("}")
            }
            put("}")
            body.append(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
