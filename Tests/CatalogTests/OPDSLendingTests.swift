import Catalog
import Foundation
import TestSupport
import Testing

/// The Library Simplified (Palace) lending extensions to OPDS, as the parser reads them: availability,
/// holds and copies on acquisition links in Atom and OPDS 2, the answer to a borrow link, and odd values.
struct OPDSLendingParserTests {
    static let base = URL(string: "http://127.0.0.1:8000/catalog/root.xml")!

    @Test func atomAvailabilityHoldsAndCopiesOnTheBorrowLink() throws {
        let atom = """
            <?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" \
            xmlns:opds="http://opds-spec.org/2010/catalog">
            <title>T</title>
            <entry><id>urn:1</id><title>Out</title>
            <link rel="http://opds-spec.org/acquisition/borrow" href="/borrow/1" \
            type="application/atom+xml;type=entry;profile=opds-catalog">
            <opds:indirectAcquisition type="application/vnd.adobe.adept+xml">\
            <opds:indirectAcquisition type="application/epub+zip"/></opds:indirectAcquisition>
            <opds:availability status="unavailable"/><opds:holds total="4"/><opds:copies total="2" available="0"/>
            </link></entry>
            <entry><id>urn:2</id><title>Held</title>
            <link rel="http://opds-spec.org/acquisition/borrow" href="/borrow/2" type="application/atom+xml">
            <opds:holds total="5" position="2"/><opds:availability status="Reserved" since="2026-11-01T10:00:00Z"/>
            </link></entry>
            <entry><id>urn:3</id><title>Ready</title>
            <link rel="http://opds-spec.org/acquisition/borrow" href="/borrow/3" type="application/atom+xml">
            <opds:availability state="ready" until="2026-12-04T23:59:59Z"/></link></entry>
            <entry><id>urn:4</id><title>Odd</title>
            <link rel="http://opds-spec.org/acquisition/borrow" href="/borrow/4" type="application/atom+xml">
            <opds:availability status="lost" until="soon"/><opds:copies total="many" available="-3"/></link></entry>
            <entry><id>urn:5</id><title>Free</title>
            <link rel="http://opds-spec.org/acquisition/open-access" href="/5.epub" type="application/epub+zip"/>
            </entry></feed>
            """
        let entries = try OPDSParser.feed(Data(atom.utf8), base: Self.base).entries
        #expect(entries.count == 5)
        let out = try #require(entries[0].lending)
        #expect(out == OPDSLending(state: .unavailable, holds: 4, copies: 2, copiesAvailable: 0))
        #expect(out.availability == Availability(available: false, reason: .product, copies: 2, waiting: 4))
        #expect(entries[0].borrowLink?.href.absoluteString == "http://127.0.0.1:8000/borrow/1")
        #expect(entries[0].formats == ["EPUB (Adobe DRM)"] && entries[0].epub == nil && entries[0].navigation == nil)

        // The counts before the state are kept; the state's word is read in any case.
        #expect(
            entries[1].lending
                == OPDSLending(state: .reserved, since: DayDate(year: 2026, month: 11, day: 1), holds: 5, position: 2))
        #expect(entries[2].lending?.state == .ready)
        #expect(entries[2].lending?.until == DayDate(year: 2026, month: 12, day: 4))
        // An unknown state is no lending at all; numbers and days that are not are left out.
        #expect(entries[3].lending?.state == .unavailable && entries[3].lending?.copies == nil)
        #expect(entries[3].lending?.copiesAvailable == 0 && entries[3].lending?.until == nil)
        #expect(entries[4].lending == nil && entries[4].borrowLink == nil)
        #expect(entries[1].formats.isEmpty, "a borrow link's own type is not a format")
    }

    @Test func opds2AvailabilityHoldsAndCopiesInLinkProperties() throws {
        let json = #"""
            {"metadata": {"title": "Palace"}, "publications": [
             {"metadata": {"title": "Out", "identifier": "urn:1"}, "links": [{"rel": \#
            "http://opds-spec.org/acquisition/borrow", "href": "/borrow/1", \#
            "type": "application/opds-publication+json", \#
            "properties": {"availability": {"state": "unavailable"}, "holds": {"total": 3}, \#
            "copies": {"total": 1, "available": 0}, "indirectAcquisition": [{"type": \#
            "application/vnd.readium.lcp.license.v1.0+json", "child": [{"type": "application/epub+zip"}]}]}}]},
             {"metadata": {"title": "Lent", "identifier": "urn:2"}, "links": [{"rel": \#
            "http://opds-spec.org/acquisition", "href": "/2.epub", "type": "application/epub+zip", \#
            "properties": {"availability": {"state": "available", "since": "2026-11-20", "until": "2026-12-11"}}}]},
             {"metadata": {"title": "Queue", "identifier": "urn:3"}, "links": [{"rel": \#
            "http://opds-spec.org/acquisition/borrow", "href": "/borrow/3", "properties": \#
            {"availability": {"state": "reserved"}, "holds": {"total": "x", "position": 7}, "copies": [1]}}]},
             {"metadata": {"title": "Counts only", "identifier": "urn:4"}, "links": [{"rel": \#
            "http://opds-spec.org/acquisition/borrow", "href": "/borrow/4", "properties": {"availability": 5, \#
            "copies": {"total": 2, "available": 0}}}]}]}
            """#
        let entries = try OPDSParser.feed(Data(json.utf8), base: Self.base).entries
        #expect(entries.count == 4)
        #expect(entries[0].lending == OPDSLending(state: .unavailable, holds: 3, copies: 1, copiesAvailable: 0))
        #expect(entries[0].formats == ["EPUB (LCP)"])
        #expect(
            entries[1].lending
                == OPDSLending(
                    state: .available, since: DayDate(year: 2026, month: 11, day: 20),
                    until: DayDate(year: 2026, month: 12, day: 11)))
        #expect(entries[1].epub != nil && entries[1].borrowLink == nil)
        // Values of the wrong type are skipped, the rest kept.
        #expect(entries[2].lending == OPDSLending(state: .reserved, position: 7))
        // No readable state: no copy on the shelf means the book is out.
        #expect(entries[3].lending?.state == .unavailable && entries[3].lending?.copies == 2)
    }

    @Test func theAnswerToABorrowLinkIsOneEntryInAtomOrJSON() throws {
        let atom = """
            <entry xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog">
            <id>urn:1</id><title>Lånad\u{9B}2J</title>
            <link rel="http://opds-spec.org/acquisition" href="/files/1.epub" type="application/epub+zip">
            <opds:availability status="available" until="2026-12-16T12:00:00Z"/></link></entry>
            """
        let loan = try OPDSParser.entry(Data(atom.utf8), base: Self.base)
        #expect(loan.title.hasPrefix("Lånad") && !loan.title.contains("\u{9B}"))
        #expect(loan.epub?.href.absoluteString == "http://127.0.0.1:8000/files/1.epub")
        #expect(loan.lending?.until == DayDate(year: 2026, month: 12, day: 16))

        let json = #"""
            {"metadata": {"title": "Kön", "identifier": "urn:2"}, "links": [{"rel": \#
            "http://opds-spec.org/acquisition/borrow", "href": "/borrow/2", "properties": \#
            {"availability": {"state": "reserved"}, "holds": {"total": 4, "position": 4}}}]}
            """#
        let hold = try OPDSParser.entry(Data(json.utf8), base: Self.base)
        #expect(hold.title == "Kön" && hold.lending?.state == .reserved && hold.lending?.position == 4)

        for body in [
            "{\"hello\": 1}", "<html/>", "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>x</title></feed>",
        ] {
            #expect(throws: OPDSParser.Failure.self) { try OPDSParser.entry(Data(body.utf8), base: Self.base) }
        }
    }

    @Test("Why a title is out: the mock's bok:reason, else all copies on loan; a hold's until is its expected day")
    func reasonAndExpectedDay() throws {
        let atom = """
            <?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" \
            xmlns:opds="http://opds-spec.org/2010/catalog" xmlns:bok="urn:x-bok:opds"><title>T</title>
            <entry><id>urn:1</id><title>Limit</title>
            <link rel="http://opds-spec.org/acquisition/borrow" href="/b/1" type="application/atom+xml">
            <opds:availability status="unavailable" bok:reason="borrower"/></link></entry>
            <entry><id>urn:2</id><title>Out</title>
            <link rel="http://opds-spec.org/acquisition/borrow" href="/b/2" type="application/atom+xml">
            <opds:availability status="unavailable"/><opds:holds total="2"/></link></entry>
            <entry><id>urn:3</id><title>Held</title>
            <link rel="http://opds-spec.org/acquisition/borrow" href="/b/3" type="application/atom+xml">
            <opds:availability status="reserved" until="2026-12-09T22:59:59Z"/><opds:holds total="4" position="3"/>
            </link></entry></feed>
            """
        let entries = try OPDSParser.feed(Data(atom.utf8), base: Self.base).entries
        #expect(entries[0].lending?.availability.reason == .borrower)
        #expect(entries[1].lending?.availability == Availability(available: false, reason: .product, waiting: 2))
        #expect(entries[2].lending?.until == DayDate(year: 2026, month: 12, day: 9))
    }
}

/// What the patron hears when a borrow link is refused or answered with something else: one line,
/// the library's own reason, never the status or the body. Against ``HostileServer`` on 127.0.0.1.
struct OPDSBorrowRefusalTests {
    @Test func aRefusedLoanSaysTheLibrarysReasonAndAnUnreadableAnswerSaysSo() async throws {
        let server = try HostileServer.start { request in
            request.path == "/borrow/1"
                ? HostileServer.answer(
                    403,
                    json: #"{"type": "http://librarysimplified.org/terms/problem/loan-limit-reached", "#
                        + #""title": "Loan limit reached.", "detail": "You have 5 loans\u001b[2J; return one first."}"#)
                : [
                    .send(
                        HostileServer.head(200, [("Content-Type", "text/html"), ("Content-Length", "6")])
                            + Data("<html>".utf8))
                ]
        }
        defer { server.stop() }
        let client = OPDSClient(root: server.baseURL, user: "12345", password: "4321", timeout: 5)
        let link = OPDSLink(href: server.baseURL.appendingPathComponent("borrow/1"))
        do {
            _ = try await client.borrow(link)
            Issue.record("a refused loan was taken for one")
        } catch let error as LendingError {
            #expect(
                error.message == "The library did not lend it: You have 5 loans␛[2J; return one first.",
                "\(error.message)")
            #expect(!error.message.contains("403") && !error.message.contains("\u{1B}"))
        }
        do {
            _ = try await client.borrow(OPDSLink(href: server.baseURL.appendingPathComponent("borrow/2")))
            Issue.record("an HTML page was taken for a loan")
        } catch let error as LendingError {
            #expect(error.message.contains("answered the loan in a way bok cannot read"), "\(error.message)")
        }
    }
}
