import Catalog
import Foundation

/// The simulated library's own page: its name, notices and events, as `GET library` serves them.
enum MockLibraryPage {
    /// The library's name; "(simulerat)" so nobody mistakes the mock for the real library.
    static let name = "Malmö stadsbibliotek (simulerat)"
    /// The library's locale: text sorts in Swedish order.
    static let locale = "sv-SE"

    /// The page on the day `today` (events are a few days ahead of the virtual clock).
    static func page(today: DayDate, now: Date, payPerLoanSpent: Bool, rules: MockRules) -> LibraryPage {
        var alerts: [LibraryPage.Notice] = []
        if payPerLoanSpent {
            alerts.append(
                LibraryPage.Notice(
                    title: "Månadens e-bokskvot är slut",
                    message: "Titlar som lånas via pay-per-loan kan lånas igen från den 1:a nästa månad. "
                        + """
                        E-böcker som biblioteket äger egna exemplar av går att låna som vanligt, och du kan \
                        reservera.
                        """
                ))
        }
        alerts.append(
            LibraryPage.Notice(
                title: "Planerat underhåll söndag kl. 06–08",
                message: "E-bokstjänsten uppdateras. Lån och nedladdningar kan vara otillgängliga en kort stund."))
        alerts.append(
            LibraryPage.Notice(
                title: "Nya e-böcker varje vecka",
                message:
                    "Saknar du en titel? Lämna ett inköpsförslag i informationsdisken eller på bibliotekets webbplats.")
        )
        let events = [
            LibraryPage.Event(
                title: "Digital drop-in: kom igång med e-böcker och ljudböcker",
                date: today.adding(days: 2), place: "Stadsbiblioteket, Ljusets kalender"),
            LibraryPage.Event(
                title: "Författarsamtal: Karin Åkesson om sin nya thriller",
                date: today.adding(days: 6), place: "Stadsbiblioteket, Hörsalen"),
            LibraryPage.Event(
                title: "Bokcirkel: höstens deckare", date: today.adding(days: 13), place: "Bibliotek Garaget"),
            LibraryPage.Event(
                title: "Sagostund för barn 3–6 år", date: today.adding(days: 3), place: "Kirsebergs bibliotek"),
        ].sorted { ($0.date ?? today) < ($1.date ?? today) }
        return LibraryPage(
            name: name, alerts: alerts, events: events, loanPeriodDays: rules.loanPeriodDays,
            maxLoansPerMonth: rules.maxLoansPerMonth, loanPace: rules.loanPace, locale: locale,
            timeZone: rules.timeZone.identifier, now: now)
    }
}
