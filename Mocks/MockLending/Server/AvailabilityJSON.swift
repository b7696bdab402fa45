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
        var text = available ? #"{"Available":true,"Reason":""# : #"{"Available":false,"Reason":""#
        text += word
        text += "\""
        if let copies { text += #","Copies":\#(copies)"# }
        if let waiting { text += #","Waiting":\#(waiting)"# }
        if let estimatedDate { text += #","EstimatedDate":"\#(estimatedDate.description)""# }
        if let pace { text += #","Pace":{"Loans":\#(pace.loans),"Days":\#(pace.days)}"# }
        text += "}"
        body.append(contentsOf: text.utf8)
    }
}
