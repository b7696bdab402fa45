/// Crime and thrillers: a detective, a harbour, a missing person, weather and questions.
extension Phrasebook {
    static let crimeSwedish = Phrasebook(
        pools: [
            "setting": [
                "Hamnen {inPlace} var nästan tom. Bara {boat} gungade vid {harbourPlace}.",
                "Blåljuset från bilen studsade mot de våta fasaderna vid {harbourPlace}.",
                "Polishuset {inPlace} var en låg tegelbyggnad med utsikt över hamnen.",
                "Vågorna slog mot kajen med ett dovt, envist ljud.",
                "Det luktade diesel och tång, och någonstans skrek en mås.",
                "Fyren på piren blinkade, två korta och en lång, som den gjort i hundra år.",
            ],
            "action": [
                "{hero} gick längs {harbourPlace} och letade efter något som inte hörde hemma där.",
                "Under en av bänkarna låg {clue}. Hon stoppade fyndet i en påse.",
                "{colleague} ringde tre gånger innan hon svarade.",
                "{hero} satte upp ett fotografi av {missingFull} på tavlan och drog en linje till hamnen.",
                "Ingen hade sett {missing} sedan fredagskvällen, då hon gick hemifrån i regnet.",
                "{witness} hade sett en bil vid {harbourPlace} strax efter midnatt, men han mindes inte färgen.",
                "Hon läste igenom vittnesmålen en gång till, långsamt, med pennan i handen.",
                "{colleague} kom in med två koppar kaffe och en min som sa att han hade nyheter.",
                "Enligt samtalslistan hade {missing} ringt samma nummer elva gånger den sista veckan.",
                "{chief} ville ha en rapport före lunch, och {hero} hade ingenting att skriva.",
                "De knackade dörr längs hela gatan, men de flesta hade inte sett någonting, eller ville inte säga det.",
                "I {missingGen} lägenhet stod en kaffekopp kvar på bordet, halvfull och kall.",
                "Teknikerna hade hittat {clue} i bilen, och ingen kunde förklara varför.",
                "{hero} körde ut till {harbourPlace} igen, som om platsen själv skulle kunna berätta något.",
                "Hon skrev tre namn i blocket och strök sedan under det sista.",
                """
                {colleague} hade grävt fram en gammal utredning från nittiotalet, och namnet {missingFull} fanns \
                med i den.
                """,
                "Bakom sjöboden låg en eka uppdragen på land, och årorna var fortfarande våta.",
                "{hero} ringde {chief} och bad om fler resurser. Svaret blev nej.",
                "Hon gick igenom {missingGen} kalender. Den sista anteckningen var bara en tid: 23.40.",
                "{when} {lead}.", "{when} {lead}.", "{when} {lead}.",
            ],
            "lead": [
                "ringde {hero} upp {witness} igen", "körde {hero} och {colleague} ut till {harbourPlace}",
                "satt {hero} med utredningen i konferensrummet", "knackade {hero} på hos {missingGen} syster",
                "fick {hero} ett sms från {colleague}: Ring mig",
                "gick {hero} igenom övervakningsbilderna från {harbourPlace}",
                "hittade {colleague} {clue} i {missingGen} jackficka", "lämnade {hero} in {clue} till teknikerna",
            ],
            "thought": [
                "Någon ljög. Frågan var bara vem, och varför.",
                "{hero} kunde inte släppa tanken på att {missing} hade *velat* försvinna.",
                "Det var för många tillfälligheter, och {hero} trodde inte på tillfälligheter.",
                "Hon tänkte på {missingGen} mamma, som satt hemma vid telefonen och väntade.",
                "I en så här liten stad vet alla allt, tänkte hon, utom det som räknas.",
            ],
            "closing": [
                "Då ringde telefonen. Det var {colleague}, och han lät andfådd.",
                "När hon släckte lampan såg hon att någon hade stått utanför fönstret.",
                "Längst ner i lådan låg ett fotografi av {missing}, taget samma dag som hon försvann.",
                "I hamnen hade någon lagt ut en båt, trots stormvarningen.",
                "{hero} somnade inte förrän det ljusnade.",
                "På morgonen låg ett kuvert på hennes skrivbord. Det var inte frimärkt.",
                "Hon förstod plötsligt vem som hade ljugit, och det gjorde henne rädd.",
            ],
            "exchange": [
                """
                Var såg grannen {missing} senast?|Vid {harbourPlace}, säger hon. Hon hade bråttom.|Bråttom \
                vart?|Det visste hon inte.
                """,
                """
                Hur länge har hon varit borta?|Sedan i fredags, enligt systern.|Och de väntade till i dag med att \
                ringa?|Hon brukar komma tillbaka, säger de.
                """,
                "Tror du att hon lever?|Jag tror ingenting ännu.|Men du hoppas.|Ja. Jag hoppas.",
                "~Känner du igen den här?|Det är {missingGen}. Var hittade ni den?|I diket vid {harbourPlace}.",
                "~Vi har fått ett tips.|Från vem?|Anonymt. Någon har sett en båt gå ut utan lanternor.|Då åker vi dit.",
                "~Du ser trött ut.|Jag har inte sovit.|Gå hem, {hero}.|Inte förrän vi har hittat henne.",
                """
                Vad vet vi om {missing}?|Trettiofyra år, ogift, jobbar på biblioteket. Inga skulder.|Och inga \
                fiender?|Alla har fiender i en så här liten stad.
                """,
                "Det var inte en olycka.|Hur kan du vara så säker?|Knuten. Ingen som kan båtar knyter så.",
                "Har du pratat med {witness}?|Två gånger. Han ändrar sig varje gång.|Då pratar vi med honom en tredje.",
                """
                ~{chief} vill ha en rapport.|Hon får vänta.|Hon säger att hon har väntat tillräckligt.|Då får hon \
                vänta lite till.
                """,
                "Vem äger båten?|Ett bolag i Göteborg. Ingen svarar där.|Fortsätt ringa.",
                """
                ~Jag har gått igenom hennes konto.|Och?|Hon tog ut tjugotusen kronor dagen innan hon \
                försvann.|Kontant?|Kontant.
                """,
            ],
            "title": [
                "Dimman", "Hamnen", "{missing}", "Fredagskvällen", "Den tredje dagen", "Vittnet", "Nyckeln",
                "Ett namn i blocket", "Tidvatten", "Blåljus", "Det tomma rummet", "Kajen", "Stormvarning",
                "Fotografiet", "Lögner", "Natten mot söndag", "Spåret", "Tystnaden", "Ett samtal", "Färjan",
                "{place} i regn", "Sjöboden", "Kuvertet", "Lanternor",
            ],
            "note": [
                """
                Kommissarie är en titel som inte längre används inom polisen, men som många i {place} fortfarande \
                säger av gammal vana.
                """,
                "Tullhuset vid hamnen byggdes på 1800-talet och är i dag kafé om somrarna.",
                "Färjan går två gånger om dagen vintertid och oftare om sommaren.",
                "Lanternor är de lampor en båt måste visa när det är mörkt: rött åt babord, grönt åt styrbord.",
                "En eka är en liten roddbåt med platt botten.",
            ],
        ],
        lists: [
            "boat": ["fiskebåtarna", "segelbåtarna", "de små ekorna", "en ensam snipa"],
            "harbourPlace": ["kajen", "färjeläget", "sjöboden", "fiskeauktionen", "bryggan vid tullhuset", "piren"],
            "clue": [
                "en blöt tändsticksask", "ett kvitto från bensinstationen", "ett gammalt fotografi",
                "en nyckel utan bricka",
                "en servett med ett telefonnummer", "en röd vante", "en karta med en ring i blyerts",
                "ett brev utan avsändare",
            ],
        ])

    static let crimeEnglish = Phrasebook(
        pools: [
            "setting": [
                "The harbour at {place} was almost empty. Only {boat} rocked beside {harbourPlace}.",
                "The blue light from the car bounced off the wet fronts of the houses by {harbourPlace}.",
                "The police station in {place} was a low brick building looking out over the harbour.",
                "The waves slapped against the quay with a dull, stubborn sound.",
                "It smelled of diesel and seaweed, and somewhere a gull screamed.",
                "The lighthouse on the pier blinked, two short and one long, as it had for a hundred years.",
            ],
            "action": [
                "{hero} walked along {harbourPlace}, looking for something that did not belong there.",
                "Under one of the benches lay {clue}. She slipped it into a bag.",
                "{colleague} rang three times before she answered.",
                "{hero} pinned a photograph of {missingFull} to the board and drew a line to the harbour.",
                "No one had seen {missing} since Friday night, when she left home in the rain.",
                "{witness} had seen a car by {harbourPlace} just after midnight, but he could not remember the colour.",
                "She read the statements once more, slowly, pencil in hand.",
                "{colleague} came in with two coffees and a look that said he had news.",
                "According to the phone records, {missing} had called the same number eleven times in her last week.",
                "{chief} wanted a report before lunch, and {hero} had nothing to write.",
                "They knocked on every door in the street, but most people had seen nothing, or would not say.",
                "In {missingGen} flat a cup of coffee still stood on the table, half full and cold.",
                "Forensics had found {clue} in the car, and no one could explain why.",
                "{hero} drove out to {harbourPlace} again, as if the place itself might tell her something.",
                "She wrote three names in her notebook and underlined the last.",
                "{colleague} had dug out an old case from the nineties, and the name {missingFull} was in it.",
                "Behind the boathouse a dinghy had been pulled up on the shingle, and its oars were still wet.",
                "{hero} rang {chief} and asked for more officers. The answer was no.",
                "She went through {missingGen} diary. The last entry was only a time: 23.40.",
                "{when} {lead}.", "{when} {lead}.", "{when} {lead}.",
            ],
            "lead": [
                "{hero} rang {witness} again", "{hero} and {colleague} drove out to {harbourPlace}",
                "{hero} sat with the case files in the conference room",
                "{hero} knocked on the door of {missingGen} sister",
                "{hero} got a text from {colleague}: Call me",
                "{hero} went through the camera footage from {harbourPlace}",
                "{colleague} found {clue} in {missingGen} coat pocket", "{hero} handed {clue} in to forensics",
            ],
            "thought": [
                "Someone was lying. The only question was who, and why.",
                "{hero} could not shake the thought that {missing} had *wanted* to disappear.",
                "There were too many coincidences, and {hero} did not believe in coincidences.",
                "She thought of {missingGen} mother, sitting at home by the phone, waiting.",
                "In a town this small everyone knows everything, she thought, except what matters.",
            ],
            "closing": [
                "Then the phone rang. It was {colleague}, and he sounded out of breath.",
                "When she switched off the lamp she saw that someone had been standing outside the window.",
                "At the bottom of the drawer lay a photograph of {missing}, taken the day she vanished.",
                "In the harbour someone had taken a boat out, gale warning or not.",
                "{hero} did not sleep until it grew light.",
                "In the morning there was an envelope on her desk. It had no stamp.",
                "She understood all at once who had lied, and it frightened her.",
            ],
            "exchange": [
                """
                Where did the neighbour last see {missing}?|By {harbourPlace}, she says. She was in a hurry.|In a \
                hurry to go where?|She didn’t know.
                """,
                """
                How long has she been gone?|Since Friday, her sister says.|And they waited until today to \
                call?|She usually comes back, they say.
                """,
                "Do you think she’s alive?|I don’t think anything yet.|But you hope.|Yes. I hope.",
                "~Do you recognise this?|It’s {missingGen}. Where did you find it?|In the ditch by {harbourPlace}.",
                "~We’ve had a tip.|From whom?|Anonymous. Someone saw a boat go out without lights.|Then we go there.",
                "~You look tired.|I haven’t slept.|Go home, {hero}.|Not until we’ve found her.",
                """
                What do we know about {missing}?|Thirty-four, single, works at the library. No debts.|And no \
                enemies?|Everyone has enemies in a town this size.
                """,
                """
                It wasn’t an accident.|How can you be so sure?|The knot. Nobody who knows boats ties a knot like \
                that.
                """,
                "Have you talked to {witness}?|Twice. His story changes every time.|Then we talk to him a third time.",
                """
                ~{chief} wants a report.|She can wait.|She says she’s waited long enough.|Then she can wait a \
                little longer.
                """,
                "Who owns the boat?|A company in Glasgow. Nobody answers the phone.|Keep calling.",
                """
                ~I’ve been through her bank account.|And?|She took out two thousand pounds the day before she \
                vanished.|In cash?|In cash.
                """,
            ],
            "title": [
                "Fog", "The Harbour", "{missing}", "Friday Night", "The Third Day", "The Witness", "The Key",
                "A Name in the Notebook", "Tide", "Blue Lights", "The Empty Room", "The Quay", "Gale Warning",
                "The Photograph", "Lies", "Saturday Night", "The Trail", "Silence", "A Phone Call", "The Ferry",
                "Rain over {place}", "The Boathouse", "The Envelope", "Running Lights",
            ],
            "note": [
                "Detective Inspector is the rank; in {place} most people still say simply “the inspector”.",
                "The old customs house by the harbour was built in the nineteenth century and is a café in summer.",
                "In winter the ferry runs twice a day, more often in summer.",
                "Running lights are the lamps a boat must show after dark: red to port, green to starboard.",
                "A dinghy is a small rowing boat, often kept tied behind a larger one.",
            ],
        ],
        lists: [
            "boat": ["the fishing boats", "the yachts", "the little dinghies", "a single rowing boat"],
            "harbourPlace": [
                "the quay", "the ferry slip", "the boathouse", "the fish market", "the jetty by the customs house",
                "the pier",
            ],
            "clue": [
                "a damp box of matches", "a receipt from the petrol station", "an old photograph",
                "a key without a tag",
                "a napkin with a phone number", "a red mitten", "a map with a pencilled ring",
                "a letter with no sender",
            ],
        ])
}
