import Catalog
import Shelf
import Testing

@Suite("Shelf badges")
struct BadgeTests {
    let expiry = DayDate(year: 2026, month: 12, day: 19)

    @Test(
        "Days left around the thresholds",
        arguments: [
            (DayDate(year: 2026, month: 11, day: 21), Badge.daysLeft(28), "28 days"),
            (DayDate(year: 2026, month: 12, day: 15), .daysLeft(4), "4 days"),
            (DayDate(year: 2026, month: 12, day: 16), .fewDaysLeft(3), "3 days"),
            (DayDate(year: 2026, month: 12, day: 18), .fewDaysLeft(1), "1 day"),
            (DayDate(year: 2026, month: 12, day: 19), .lastDay, "today"),
            (DayDate(year: 2026, month: 12, day: 20), .ended, "ended"),
        ])
    func loanBadges(today: DayDate, badge: Badge, text: String) {
        #expect(Badge.loan(expiry: expiry, today: today) == badge)
        #expect(badge.text == text)
    }

    @Test("Across a month and a year boundary")
    func boundaries() {
        #expect(
            Badge.loan(expiry: DayDate(year: 2027, month: 1, day: 2), today: DayDate(year: 2026, month: 12, day: 30))
                == .fewDaysLeft(3))
        #expect(
            Badge.loan(expiry: DayDate(year: 2024, month: 3, day: 1), today: DayDate(year: 2024, month: 2, day: 28))
                == .fewDaysLeft(2))
    }

    @Test("Queue and readiness read as on the shelf")
    func reservations() {
        #expect(Badge.queued(place: 2, estimate: DayDate(year: 2027, month: 1, day: 9)).text == "#2 in queue · ~9 Jan")
        #expect(Badge.ready(until: DayDate(year: 2026, month: 11, day: 23)).text == "Ready · borrow by 23 Nov")
        #expect(Badge.sample.text == "Sample")
    }

    @Test("A queue estimate in another year shows the year: ~13 Jun 2028")
    func estimateInAnotherYear() {
        let estimate = DayDate(year: 2028, month: 6, day: 13)
        #expect(Badge.queued(place: 40, estimate: estimate, thisYear: 2026).text == "#40 in queue · ~13 Jun 2028")
        #expect(Badge.queued(place: 4, estimate: estimate, thisYear: 2028).text == "#4 in queue · ~13 Jun")
    }
}
