import Catalog
import Foundation
import Localization
import MockLending
import Shelf
import Testing

@testable import Client

/// `mock clock` takes what a usability tester types — `+2w`, `tomorrow`, `next monday`,
/// `om 3 dagar` — and says in words which day it now is at the mock library.
@Suite("mock clock in a tester's words", .serialized)
@MainActor
struct MockClockTests {
    /// Wednesday 25 November 2026, 15:00 in Stockholm.
    nonisolated static let wednesday = DayDate(year: 2026, month: 11, day: 25)
    nonisolated static let now = wednesday.startDate(in: MockRules.stockholm).addingTimeInterval(15 * 3600)

    nonisolated static func parse(_ text: String) -> ClockRequest? {
        ClockRequest.parse(text, today: wednesday, now: now, timeZone: MockRules.stockholm)
    }

    nonisolated static func day(_ year: Int, _ month: Int, _ day: Int) -> ClockRequest {
        .day(DayDate(year: year, month: month, day: day))
    }

    nonisolated static let englishCases: [(String, ClockRequest)] = [
        ("next monday", day(2026, 11, 30)), ("monday", day(2026, 11, 30)), ("Next Monday", day(2026, 11, 30)),
        ("on friday", day(2026, 11, 27)), ("wednesday", day(2026, 12, 2)), ("next sunday", day(2026, 11, 29)),
        ("tomorrow", day(2026, 11, 26)), ("yesterday", day(2026, 11, 24)), ("in 3 days", day(2026, 11, 28)),
        ("in 2 weeks", day(2026, 12, 9)), ("in a week", day(2026, 12, 2)), ("2026-12-01", day(2026, 12, 1)),
        ("+1d", .move(seconds: 86_400)), ("+2w", .move(seconds: 14 * 86_400)),
        ("-3d", .move(seconds: -3 * 86_400)), ("+3h", .move(seconds: 3 * 3_600)),
        ("+1d12h", .move(seconds: 36 * 3_600)), ("+30m", .move(seconds: 1_800)),
        ("+3 days", .move(seconds: 3 * 86_400)), ("today", .moment(now)),
    ]

    nonisolated static let swedishCases: [(String, ClockRequest)] = [
        ("i morgon", day(2026, 11, 26)), ("imorgon", day(2026, 11, 26)), ("i går", day(2026, 11, 24)),
        ("igår", day(2026, 11, 24)), ("idag", .moment(now)), ("i dag", .moment(now)),
        ("nästa måndag", day(2026, 11, 30)), ("måndag", day(2026, 11, 30)), ("på fredag", day(2026, 11, 27)),
        ("Nästa Söndag", day(2026, 11, 29)), ("om 3 dagar", day(2026, 11, 28)), ("om 2 veckor", day(2026, 12, 9)),
        ("om en vecka", day(2026, 12, 2)), ("i övermorgon", day(2026, 11, 27)),
    ]

    @Test(
        "Days in English words count from today (a Wednesday); +/- move by weeks, days, hours and minutes",
        arguments: MockClockTests.englishCases)
    func english(text: String, expected: ClockRequest) {
        #expect(Self.parse(text) == expected, "\(text)")
    }

    @Test(
        "The Swedish phrases work too, in either language",
        arguments: MockClockTests.swedishCases)
    func swedish(text: String, expected: ClockRequest) {
        #expect(Self.parse(text) == expected, "\(text)")
    }

    @Test(
        "Anything else is not a day",
        arguments: ["", "someday", "next week", "+", "+3x", "-d", "2026-02-30", "2026-13-01", "in days", "nästa"])
    func notADay(text: String) {
        #expect(Self.parse(text) == nil, "\(text)")
    }

    @Test("A day by name or date is set at 10:00 in the library's time zone")
    func morning() throws {
        let target = try #require(Self.parse("next monday")?.target(timeZone: MockRules.stockholm))
        #expect(Timestamp.format(target) == "2026-11-30T09:00:00Z")
        #expect(ClockRequest.move(seconds: 60).target(timeZone: MockRules.stockholm) == nil)
    }

    @Test("The answer says the day in words and how far it is from today, in English and Swedish")
    func distanceInWords() {
        #expect(MockCommand.distance(0) == "today")
        #expect(MockCommand.distance(6) == "6 days from today")
        #expect(MockCommand.distance(-1) == "1 day before today")
        Localization.use("sv", environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        #expect(MockCommand.distance(0) == "i dag")
        #expect(MockCommand.distance(6) == "6 dagar från i dag")
        #expect(MockCommand.distance(-3) == "3 dagar före i dag")
    }

    @Test("At the prompt: +2w and -3d move the clock from where it stands, next monday sets the coming Monday")
    func atThePrompt() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let start = DayDate(await h.server.now(), in: MockRules.stockholm)
        let on = await h.run("mock clock +2w")
        #expect(DayDate(await h.server.now(), in: MockRules.stockholm) == start.adding(days: 14))
        #expect(on.count == 1 && on[0].hasPrefix("The mock library's clock is now "), "\(on)")
        let weekday = Words.weekday(start.adding(days: 14))
        #expect(on[0].contains("\(weekday) \(start.adding(days: 14).day) "), "\(on)")
        #expect(on[0].contains("from today") || on[0].contains("before today") || on[0].contains("(today)"), "\(on)")

        await h.run("mock clock -3d")
        #expect(DayDate(await h.server.now(), in: MockRules.stockholm) == start.adding(days: 11))

        let monday = await h.text("mock clock next monday")
        let set = DayDate(await h.server.now(), in: MockRules.stockholm)
        let today = DayDate(Date(), in: MockRules.stockholm)
        #expect(Words.weekday(set) == "Monday" && (1...7).contains(today.days(until: set)), "\(set)")
        #expect(monday.contains("is now Monday \(set.day) "), "\(monday)")
        #expect(monday.contains(", 10:00 ("), "\(monday)")
    }

    @Test("A value that is no day gets one line naming the forms, and the clock stays")
    func badValue() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let before = await h.server.now()
        let screen = await h.run("mock clock someday")
        #expect(
            screen == [
                "bok cannot tell which day \"someday\" means. mock clock takes +1d, +2w, -3d, +3h, tomorrow, "
                    + "yesterday, today, next monday, in 3 days or 2026-12-01."
            ], "\(screen)")
        #expect(await h.server.now() == before)
    }

    @Test("In Swedish: i morgon moves the clock, and the answer and the error are in Swedish")
    func inSwedish() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        Localization.use("sv", environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        let screen = await h.text("mock clock i morgon")
        let set = DayDate(await h.server.now(), in: MockRules.stockholm)
        #expect(set == DayDate(Date(), in: MockRules.stockholm).adding(days: 1))
        #expect(
            screen == "Testbibliotekets klocka står nu på \(Words.dayWithWeekday(set)) \(set.year), 10:00 "
                + "(1 dag från i dag).", "\(screen)")
        let bad = await h.text("mock clock nångång")
        #expect(
            bad == "bok förstår inte vilken dag ”nångång” är. mock clock tar +1d, +2w, -3d, +3h, i morgon, i går, "
                + "i dag, nästa måndag, om 3 dagar eller 2026-12-01.", "\(bad)")
        let faults = await h.text("mock fault drop")
        #expect(faults == "Biblioteket bryter nu förbindelsen utan att svara.", "\(faults)")
        await h.run("mock fault off")
    }
}

extension MockClockTests {
    @Test(
        "mock reset takes the shelf back with the library: no loan ended in the future the clock left, no notice of it")
    func resetUndoesTheFuture() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        await h.run("top 1")
        #expect(await h.text("borrow 1").hasPrefix("Borrowed"))
        let moved = await h.run("mock clock +5w")
        #expect(moved.contains { $0.hasPrefix("Notice: The loan of ") && $0.hasSuffix("has ended.") }, "\(moved)")
        #expect(await h.run("shelf").contains("Ended (1)"))
        await h.run("mock reset")
        let shelf = await h.run("shelf")
        #expect(shelf.first?.hasPrefix("Shelf · card 1001 · ") == true, "\(shelf)")
        #expect(!shelf.contains { $0.hasPrefix("Ended") || $0.contains("Everything You Need") }, "\(shelf)")
        #expect(!(await h.text("notices")).contains("has ended"))
        // The book can be borrowed again, as at the seed.
        await h.run("top 1")
        #expect(await h.text("borrow 1").hasPrefix("Borrowed"))
    }
}
