import Catalog
import Foundation

/// Cards and PINs: who may borrow and reserve, and the lock after too many wrong PINs.
extension LibraryState {
    /// Checks `card` and `pin`, counting wrong PINs and locking the card after `maxWrongPINs`
    /// in a row for `lockDuration`.
    ///
    /// A locked card is refused even with the right PIN, so guessing on gains nothing; the lock
    /// ends by itself on the virtual clock. The PIN is never part of a reason.
    /// - Throws: `.unauthenticated` for an unknown card, a missing or wrong PIN; `.forbidden`
    ///   while the card is locked (including by this wrong PIN).
    @discardableResult
    mutating func authenticate(card: String, pin: String?) throws(LendingRefusal) -> Patron {
        guard var patron = patrons[card] else {
            throw LendingRefusal(
                .unauthenticated,
                card.isEmpty
                    ? Said("Enter your library card number.")
                    : Said("No patron has card {card}; check the number on your library card.", ["card": .text(card)]))
        }
        defer { patrons[card] = patron }
        if let until = patron.lockedUntil {
            if clock < until { throw LendingRefusal(.forbidden, lockedReason(card: card, until: until)) }
            patron.lockedUntil = nil
            patron.wrongPINs = 0
        }
        guard let pin, !pin.isEmpty else {
            throw LendingRefusal(.unauthenticated, Said("Enter the PIN of card {card}.", ["card": .text(card)]))
        }
        guard pin == patron.pin else {
            patron.wrongPINs += 1
            if patron.wrongPINs >= rules.maxWrongPINs {
                let until = clock.addingTimeInterval(rules.lockDuration)
                patron.lockedUntil = until
                patron.wrongPINs = 0
                throw LendingRefusal(.forbidden, lockedReason(card: card, until: until))
            }
            let left = rules.maxWrongPINs - patron.wrongPINs
            let minutes = Int((rules.lockDuration / 60).rounded())
            // One message for each count: the mock's words are read per request, without plural rules.
            let lock = minutes == 1 ? Said("1 minute") : Said("{count} minutes", ["count": .number(minutes)])
            let values: KeyValuePairs<String, Said.Value> = [
                "card": .text(card), "left": .number(left), "lock": .said(lock),
            ]
            throw LendingRefusal(
                .unauthenticated,
                left == 1
                    ? Said("Wrong PIN for card {card}; 1 try left before the card is locked for {lock}.", values)
                    : Said("Wrong PIN for card {card}; {left} tries left before the card is locked for {lock}.", values)
            )
        }
        patron.wrongPINs = 0
        return patron
    }

    /// "Card 1002 is locked after 5 wrong PINs; try again after 14:32" (with the day when it is
    /// not today), in the library's time zone.
    func lockedReason(card: String, until: Date) -> Said {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = rules.timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: until)
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        let day = DayDate(until, in: rules.timeZone)
        let when =
            day == today ? Said(verbatim: time) : Said("{time} on {day}", ["time": .text(time), "day": .day(day)])
        return Said(
            "Card {card} is locked after {count} wrong PINs; try again after {when}.",
            ["card": .text(card), "count": .number(rules.maxWrongPINs), "when": .said(when)])
    }

    /// The patron with `card`, for calls that name a card without a PIN (lists of loans and reservations).
    /// - Throws: `.notFound` for an unknown card.
    func knownPatron(_ card: String?) throws(LendingRefusal) -> Patron {
        guard let card, !card.isEmpty else {
            throw LendingRefusal(.badRequest, Said("Say whose: add card=<card number>."))
        }
        guard let patron = patrons[card] else {
            throw LendingRefusal(.notFound, Said("No patron has card {card}.", ["card": .text(card)]))
        }
        return patron
    }
}
