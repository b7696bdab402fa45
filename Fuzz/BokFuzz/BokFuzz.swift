import Catalog
import Foundation
import Reader

#if FUZZING
import CFuzzDriver
#endif

/// The parsers of untrusted bytes, by the names `make fuzz` and the regression tests use.
///
/// Built two ways: normally, `bok-fuzz` runs files through a target (`bok-fuzz run TARGET FILE…`)
/// and writes the seed corpus (`bok-fuzz seed DIR`); with `-sanitize=fuzzer -D FUZZING`
/// (scripts/fuzz.sh), libFuzzer drives `LLVMFuzzerTestOneInput` and picks the target from
/// `BOK_FUZZ_TARGET`.
enum FuzzTargets {
    static let all: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("zip", ReaderParsers.zip),
        ("markup", ReaderParsers.markup),
        ("package", ReaderParsers.packageDocument),
        ("navigation", ReaderParsers.navigation),
        ("book", ReaderParsers.book),
        ("images", { _ = RasterImage.decode($0) }),
        ("elib-json", elibJSON),
        ("opds", opds),
        ("opds-auth", { _ = try? OPDSAuthentication.parse(Data($0)) }),
    ]

    static func named(_ name: String) -> (@Sendable ([UInt8]) -> Void)? { all.first { $0.name == name }?.run }

    /// Decodes the bytes as every answer of the lending API, both as drawn and verbatim.
    static func elibJSON(_ bytes: [UInt8]) {
        let data = Data(bytes)
        for policy in [TextPolicy.display, .verbatim] {
            let decoder = JSONDecoder()
            decoder.userInfo[TextPolicy.userInfoKey] = policy
            _ = try? decoder.decode(Wire.SearchAnswer.self, from: data)
            _ = try? decoder.decode(Wire.ProductAnswer.self, from: data)
            _ = try? decoder.decode(Wire.AvailabilityAnswer.self, from: data)
            _ = try? decoder.decode(Wire.LicenceAnswer.self, from: data)
            _ = try? decoder.decode(Wire.LibraryAnswer.self, from: data)
            _ = try? decoder.decode(Wire.LoansAnswer.self, from: data)
            _ = try? decoder.decode(Wire.ReservationsAnswer.self, from: data)
            _ = try? decoder.decode(Wire.PatronAnswer.self, from: data)
            _ = try? decoder.decode(Wire.ErrorAnswer.self, from: data)
        }
    }

    /// Reads the bytes as an OPDS feed (Atom or JSON) and as an OpenSearch description.
    static func opds(_ bytes: [UInt8]) {
        let base = URL(string: "http://127.0.0.1:8080/opds/feed")!
        _ = try? OPDSParser.feed(Data(bytes), base: base)
        _ = OPDSParser.openSearchTemplate(Data(bytes), base: base)
    }

    /// Seed inputs the project writes itself, per target (the script adds a generated novel and its pictures).
    static let seeds: [String: [String: String]] = [
        "opds-auth": [
            "basic.json":
                #"""
            {"id":"http://127.0.0.1/auth","title":"Biblioteket","description":"Logga in med ditt lånekort",\#
            "authentication":[{"type":"http://opds-spec.org/auth/basic","labels":{"login":"Lånekort",\#
            "password":"PIN"}}],"links":[{"rel":"logo","href":"/logo.png"}]}
            """#
        ],
        "markup": ["chapter.xhtml": ReaderParsers.Fixture.chapter, "nav.xhtml": ReaderParsers.Fixture.nav],
        "package": ["content.opf": ReaderParsers.Fixture.opf],
        "navigation": ["nav.xhtml": ReaderParsers.Fixture.nav, "toc.ncx": ReaderParsers.Fixture.ncx],
        "elib-json": [
            "search.json":
                #"""
            {"TotalCount":2,"Products":[{"ProductId":"1","Title":"Vintern \#
            1953","Contributors":[{"Role":"Author","FirstName":"Åsa","LastName":"Öberg"}],\#
            "Categories":["Deckare"],"Availability":{"Available":false,"Reason":"library","Copies":3,\#
            "Waiting":2},"Relations":[{"Type":"Series","Name":"Serien","Order":2}],\#
            "PublicIdentifiers":[{"IdType":"ISBN13","Id":"9789100000001"}],\#
            "AvailableFormats":[{"FormatId":"4104","Name":"EPUB","SizeInBytes":1200}],\#
            "Statuses":[{"Name":"Active","ValidFrom":"2020-01-01"}],"PublishedDate":"2020-02-03"},\#
            {"ProductId":2,"Title":"Two","Authors":[{"FullName":"Anna Berg"}]}]}
            """#,
            "availability.json": #"{"Products":[{"ProductID":"1","Available":true,"Reason":""}]}"#,
            "loans.json":
                #"""
            {"Loans":[{"LoanID":"7","ProductID":"1","Title":"Vintern","CreatedDate":"2026-11-20T09:00:00Z",\#
            "ExpiryDate":"2026-12-18","Active":true,"Formats":[{"FormatID":"4104","Contents":[{"Part":1,\#
            "Url":"/c/1.epub"}]}]}]}
            """#,
            "reservations.json":
                #"""
            {"Reservations":[{"ReservationID":9,"ProductID":"1","Title":"Vintern","QueuePosition":2,\#
            "EstimatedDate":"2027-01-10","Ready":false}]}
            """#,
            "library.json":
                #"""
            {"Library":{"Name":"Malmö","Alerts":["Stängt","x"],"Events":[{"Title":"Läsecirkel",\#
            "Date":"2026-12-01","Place":"Rum 2"}],"LoanPeriodDays":28,"MaxLoansPerMonth":5,"Locale":"sv-SE"}}
            """#,
            "error.json": #"{"Reason":"Fel PIN","ResponseStatus":"Unauthorized"}"#,
        ],
        "opds": [
            "navigation.xml":
                #"""
            <?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Bibliotek</title><link \#
            rel="search" type="application/atom+xml" href="/opds/search/{searchTerms}"/><link rel="next" \#
            type="application/atom+xml;profile=opds-catalog" href="?offset=25"/><entry><title>Efter \#
            titel</title><id>t</id><content type="text">Böcker efter titel</content><link \#
            type="application/atom+xml;type=feed;profile=opds-catalog" href="/opds/title"/></entry></feed>
            """#,
            "acquisition.xml":
                #"""
            <?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" \#
            xmlns:dc="http://purl.org/dc/terms/" \#
            xmlns:opds="http://opds-spec.org/2010/catalog"><title>Nytt</title><link \#
            rel="http://opds-spec.org/facet" href="?lang=sv" title="Svenska" opds:facetGroup="Språk" \#
            opds:activeFacet="true"/><entry><title>Vintern 1953</title><author><name>Anna \#
            Åberg</name></author><id>urn:uuid:1</id><dc:language>sv</dc:language><dc:publisher>\#
            Förlaget</dc:publisher><dc:issued>2020</dc:issued><category term="Deckare" \#
            label="Deckare"/><summary>Om vintern.</summary><content type="xhtml"><div \#
            xmlns="http://www.w3.org/1999/xhtml"><p>Längre <b>text</b>.</p></div></content><link \#
            rel="http://opds-spec.org/acquisition" type="application/epub+zip" href="/get/1.epub" \#
            length="1200"/><link rel="http://opds-spec.org/image" type="image/jpeg" \#
            href="/c/1.jpg"/></entry></feed>
            """#,
            "feed.json":
                #"""
            {"metadata":{"title":"Katalog"},"links":[{"rel":"next","href":"p2.json",\#
            "type":"application/opds+json"}],"navigation":[{"href":"new.json","title":"Nytt",\#
            "type":"application/opds+json"}],"publications":[{"metadata":{"title":"Sjön",\#
            "author":{"name":"Eva \#
            Öst"},"belongsTo":{"series":[{"name":"S","position":1}]}},\#
            "links":[{"rel":"http://opds-spec.org/acquisition/open-access","href":"/b.epub",\#
            "type":"application/epub+zip"}]}]}
            """#,
            "opensearch.xml":
                #"""
            <?xml version="1.0"?><OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/"><Url \#
            type="application/atom+xml" template="/search?q={searchTerms}"/></OpenSearchDescription>
            """#,
        ],
    ]
}

#if FUZZING
/// The target libFuzzer drives, named by `BOK_FUZZ_TARGET`.
let fuzzTarget: @Sendable ([UInt8]) -> Void = {
    let name = ProcessInfo.processInfo.environment["BOK_FUZZ_TARGET"] ?? ""
    guard let run = FuzzTargets.named(name) else {
        FileHandle.standardError.write(
            Data("BOK_FUZZ_TARGET must be one of: \(FuzzTargets.all.map(\.name).joined(separator: ", "))\n".utf8))
        exit(2)
    }
    return run
}()

/// libFuzzer's entry, for its own `main` should the linker pick that one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzTarget(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@main
struct BokFuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) })
    }
}
#else
@main
struct BokFuzz {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "run"? where arguments.count >= 2:
            guard let run = FuzzTargets.named(arguments[1]) else { usage() }
            for path in arguments.dropFirst(2) {
                guard let data = FileManager.default.contents(atPath: path) else {
                    FileHandle.standardError.write(Data("bok-fuzz: cannot read \(path)\n".utf8))
                    exit(1)
                }
                run([UInt8](data))
            }
        case "seed"? where arguments.count == 2:
            for (target, files) in FuzzTargets.seeds {
                let directory = URL(fileURLWithPath: arguments[1]).appendingPathComponent(target)
                try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for (name, text) in files { try? Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
            }
        case "targets"?:
            print(FuzzTargets.all.map(\.name).joined(separator: "\n"))
        default:
            usage()
        }
    }

    static func usage() -> Never {
        FileHandle.standardError.write(
            Data(
                """
                usage: bok-fuzz run TARGET FILE...   run files through one parser (a crash is a defect)
                       bok-fuzz seed DIR             write the project's seed corpus, a folder per target
                       bok-fuzz targets              list the targets
                Fuzzing itself: make fuzz (FUZZ_SECONDS=N per target); see docs/security.md.

                """.utf8))
        exit(2)
    }
}
#endif
