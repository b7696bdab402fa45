/// Family novels (and the classics, romances and the rest): a family, a town, the seasons.
extension Phrasebook {
    static let familySwedish = Phrasebook(
        pools: [
            "setting": [
                "{season} kom till {place} det året med {seasonSign}.",
                "På {house} stod äppelträden i blom, och {mother} hade dukat i bersån.",
                "Huset på {house} låg vid sjön, med en brygga som {father} lagade varje vår.",
                "Torget {inPlace} fylldes av folk på lördagarna, och kyrkklockorna hördes över hela staden.",
                "Den vintern var snön så djup att {father} fick skotta en gång ända fram till ladan.",
                "Sommaren var kort och ljus, och ingen ville gå och lägga sig.",
                "I köket på {house} puttrade en gryta på spisen, och fönstren var immiga.",
            ],
            "action": [
                "{mother} bakade bröd varje torsdag, och hela huset luktade av det.",
                "{father} läste tidningen högt vid frukosten, särskilt de delar som ingen ville höra.",
                "{sibling} hade fått plats på kontoret vid järnvägen och var mycket stolt över det.",
                "{hero} hjälpte {neighbour} med syltkokningen och fick med sig tre burkar hem.",
                "{suitor} kom på besök en söndag i sin bästa kavaj, och {mother} bjöd på kaffe i finrummet.",
                "På midsommarafton dansade de kring stången på ängen nedanför {house}.",
                "Breven från {suitor} kom varannan vecka, och {hero} läste dem på bryggan där ingen såg henne.",
                """
                {father} och {sibling} grälade om pengar igen, med låga röster, efter att de andra hade gått och \
                lagt sig.
                """,
                "{hero} tog tåget in till stan och köpte tyg till en ny klänning.",
                "Hela släkten samlades på {house} till jul, och det var trångt vid bordet.",
                "{neighbour} visste allt om alla {inPlace}, och hon delade gärna med sig.",
                "När isen lade sig åkte de skridskor på sjön, {hero} och {sibling}, som när de var barn.",
                "I augusti plockade de lingon i skogen bakom {house}.",
                "{mother} blev sjuk i november, och {hero} satt hos henne om kvällarna och läste högt.",
                "På lördagskvällen var det dans i föreningshuset, och {hero} dansade tre danser med {suitor}.",
            ],
            "thought": [
                "{hero} undrade ibland hur livet skulle ha blivit om hon hade rest därifrån.",
                "Det fanns saker som man inte talade om på {house}, och pengar var en av dem.",
                "Hon tyckte om {suitor}, men hon visste inte om hon tyckte om honom *tillräckligt*.",
                "Familjen är det man har, brukade {mother} säga, vare sig man vill eller inte.",
            ],
            "closing": [
                "Det var den sista sommaren de alla var samlade på {house}.",
                "Brevet kom en måndag, och efter det blev ingenting som förut.",
                "På våren sålde {father} skogen, och ingen frågade varför.",
                "{hero} stod länge vid fönstret den kvällen och såg ut över {place}.",
                "Sedan kom hösten, som den alltid gör.",
            ],
            "exchange": [
                "Ska du verkligen resa?|Jag har inte bestämt mig.|Det har du visst. Det syns på dig.",
                "Vad tycker du om {suitor}?|Han är snäll.|Det var inte det jag frågade.|Jag vet.",
                "Mamma behöver dig här.|Och jag då? Vad behöver jag?|Det är inte så man frågar i den här familjen.",
                """
                Minns du sommaren när bryggan brann?|Hur skulle jag kunna glömma den?|Pappa sa aldrig vem som \
                tände elden.|Han visste nog.
                """,
                """
                Det kommer folk på söndag.|Vilka då?|{neighbour} och hennes syster. Och {suitor}.|Det kunde du ha \
                sagt tidigare.
                """,
                "Du är lik din mormor.|På vilket sätt?|Hon gjorde också alltid som hon ville.",
            ],
            "title": [
                "Våren", "Midsommar", "{house}", "Breven", "Ett besök på söndagen", "Isen", "Lingonskogen", "Julen",
                "Tåget", "{mother}", "Bryggan", "Sista sommaren", "Hösten", "Ett gräl", "Finrummet", "Snön",
                "{suitor}", "Sjön", "Dansen", "Syltkokningen",
            ],
            "note": [
                "Finrummet användes bara när det kom främmande; resten av tiden var möblerna klädda med vita lakan.",
                "{house} hade tillhört släkten sedan 1800-talet.",
                "En berså är ett litet lövvalv, ofta av syren, där man drack kaffe om somrarna.",
            ],
        ],
        lists: [
            "seasonSign": [
                "ljumma regn och tidiga syrener", "frost i gräset redan i september", "storm och tunga moln",
                "en värme som ingen mindes maken till",
            ]
        ])

    static let familyEnglish = Phrasebook(
        pools: [
            "setting": [
                "{season} came to {place} that year with {seasonSign}.",
                "At {house} the apple trees were in blossom, and {mother} had laid the table in the arbour.",
                "The house at {house} stood by the lake, with a jetty that {father} mended every spring.",
                """
                On Saturdays the square in {place} filled with people, and the church bells could be heard all \
                over town.
                """,
                "That winter the snow lay so deep that {father} had to dig a path all the way to the barn.",
                "The summer was short and light, and no one wanted to go to bed.",
                "In the kitchen at {house} a stew simmered on the range, and the windows were misted.",
            ],
            "action": [
                "{mother} baked bread every Thursday, and the whole house smelled of it.",
                "{father} read the newspaper aloud at breakfast, especially the parts nobody wanted to hear.",
                "{sibling} had found a place in the railway office and was very proud of it.",
                "{hero} helped {neighbour} with the jam-making and went home with three jars.",
                "{suitor} called one Sunday in his best jacket, and {mother} served coffee in the parlour.",
                "On Midsummer Eve they danced round the maypole in the meadow below {house}.",
                """
                Letters from {suitor} came every other week, and {hero} read them on the jetty where no one could \
                see her.
                """,
                "{father} and {sibling} quarrelled about money again, in low voices, after the others had gone to bed.",
                "{hero} took the train into town and bought cloth for a new dress.",
                "The whole family gathered at {house} for Christmas, and there was hardly room at the table.",
                "{neighbour} knew everything about everyone in {place}, and she was generous with it.",
                "When the ice came they skated on the lake, {hero} and {sibling}, as they had when they were children.",
                "In August they picked lingonberries in the woods behind {house}.",
                "{mother} fell ill in November, and {hero} sat with her in the evenings and read aloud.",
                """
                On Saturday night there was a dance at the village hall, and {hero} danced three dances with \
                {suitor}.
                """,
            ],
            "thought": [
                "{hero} sometimes wondered what her life would have been if she had gone away.",
                "There were things one did not speak of at {house}, and money was one of them.",
                "She liked {suitor}, but she did not know whether she liked him *enough*.",
                "Family is what you have, {mother} used to say, whether you want it or not.",
            ],
            "closing": [
                "It was the last summer they were all together at {house}.",
                "The letter came on a Monday, and after that nothing was the same.",
                "In the spring {father} sold the woods, and no one asked why.",
                "{hero} stood at the window a long time that evening, looking out over {place}.",
                "Then autumn came, as it always does.",
            ],
            "exchange": [
                "Are you really going?|I haven’t decided.|Yes, you have. I can see it in your face.",
                "What do you think of {suitor}?|He’s kind.|That isn’t what I asked.|I know.",
                """
                Mother needs you here.|And what about me? What do I need?|That isn’t a question we ask in this \
                family.
                """,
                """
                Do you remember the summer the jetty burned?|How could I forget?|Father never said who lit the \
                fire.|He knew, though.
                """,
                """
                We have guests on Sunday.|Who?|{neighbour} and her sister. And {suitor}.|You might have told me \
                sooner.
                """,
                "You’re like your grandmother.|In what way?|She always did as she pleased, too.",
            ],
            "title": [
                "Spring", "Midsummer", "{house}", "Letters", "A Sunday Visit", "Ice", "Lingonberries", "Christmas",
                "The Train", "{mother}", "The Jetty", "The Last Summer", "Autumn", "A Quarrel", "The Parlour", "Snow",
                "{suitor}", "The Lake", "The Dance", "Jam",
            ],
            "note": [
                """
                The parlour was used only when there were visitors; the rest of the time its furniture wore white \
                dust sheets.
                """,
                "{house} had belonged to the family since the nineteenth century.",
                "An arbour of lilac, where coffee was drunk in summer, stood at the bottom of every garden in {place}.",
            ],
        ],
        lists: [
            "seasonSign": [
                "warm rain and early lilac", "frost on the grass as early as September", "storms and heavy cloud",
                "a heat no one could remember the like of",
            ]
        ])
}
