/// Blurb sentences per category: an opening, one or two middles and a closing line, as a
/// publisher's catalogue text reads. Swedish for Swedish-language and foreign-language books (the
/// library describes them in Swedish), English for English-language books.
extension Vocabulary {
    /// The sentence families of one category in one language.
    struct BlurbSet: Sendable {
        let openings: [Template]
        let middles: [Template]
        let closings: [Template]

        init(_ openings: [String], _ middles: [String], _ closings: [String], lists: [String: [String]] = [:]) {
            self.openings = openings.map { Template($0, lists: lists) }
            self.middles = middles.map { Template($0, lists: lists) }
            self.closings = closings.map { Template($0, lists: lists) }
        }
    }

    /// The numbers each blurb template draws, flat, for the index pass that skips writing the
    /// blurb: first the start of each set (the Swedish sets by genre, then the English ones),
    /// then per set the number of openings, middles and closings and each template's draws.
    static let blurbDraws: [Int] = {
        let sets = swedishBlurbs + englishBlurbs
        var table = [Int](repeating: 0, count: sets.count)
        for (number, set) in sets.enumerated() {
            table[number] = table.count
            table += [set.openings.count, set.middles.count, set.closings.count]
            table += (set.openings + set.middles + set.closings).map(\.draws)
        }
        return table
    }()

    /// Draws from `rng` what writing a blurb of `genre` draws, without writing it (nor copying
    /// its templates: `CatalogGenerator.makeBlurb`'s choices, from `blurbDraws`).
    static func skipBlurb(english: Bool, genre: Genre, _ rng: inout SplitMix64) {
        blurbDraws.withUnsafeBufferPointer { table in
            let base = table[(english ? Genre.allCases.count : 0) + genre.rawValue]
            let (openings, middles, closings) = (table[base], table[base + 1], table[base + 2])
            let draws = base + 3
            func skip(_ template: Int) {
                for _ in 0..<table[draws + template] { _ = rng.next() }
            }
            skip(rng.below(openings))
            let first = rng.below(middles)
            skip(openings + first)
            if middles > 1, rng.chance(0.4) { skip(openings + (first + 1) % middles) }
            skip(openings + middles + rng.below(closings))
        }
    }

    static let blurbLists: [String: [String]] = [
        "victim": [
            "en ung kvinna", "en välkänd konstnär", "en pensionerad domare", "en färjekapten", "en lokalpolitiker",
            "en tonårspojke",
        ],
        "found": ["hittas död", "försvinner spårlöst", "hittas drunknad", "hittas mördad"],
        "where": [
            "i hamnen", "i en övergiven stuga", "vid vattnet", "i skogen utanför stan", "på stranden", "i kyrkan",
        ],
        "detective": ["kriminalinspektör", "kommissarie", "polisaspirant", "kriminalreporter", "åklagare"],
        "secret": [
            "en gammal skuld", "ett brott som aldrig klarades upp", "ett svek från förr", "en familjehemlighet",
            "ett försvinnande för trettio år sedan",
        ],
        "theme": ["skuld", "hämnd", "lojalitet", "ensamhet", "makt", "förlåtelse", "svartsjuka"],
        "adj": ["gastkramande", "nervpirrande", "suggestiv", "mörk", "isande", "drivet berättad"],
        "paper": [
            "Norrlandsbladet", "Skånska Posten", "Bokmagasinet", "Dagens Kultur", "Tidningen Boklund",
            "Litteraturradion",
        ],
        "praise": [
            "En bladvändare av rang.", "Omöjlig att lägga ifrån sig.", "Årets mest efterlängtade bok.",
            "Varm, klok och rolig.", "Läs den!", "Magnifikt.",
        ],
        "feeling": ["värme", "humor", "allvar", "ömhet", "stor inlevelse"],
        "quest": [
            "att rädda sitt folk", "att hitta sin försvunna bror", "att bryta förbannelsen",
            "att nå det frusna riket i norr",
        ],
        "creature": ["en drake", "en talande korp", "en ung häxa", "en landsförvisad prins", "ett skuggväsen"],
        "era": [
            "under 1800-talets slut", "strax efter andra världskriget", "under stormaktstiden", "vid sekelskiftet 1900",
            "under nödåren på 1860-talet",
        ],
        "kid": ["modig", "nyfiken", "lite rädd", "busig", "ensam"],
        "love": ["en charmig granne", "en gammal ungdomskärlek", "den nya kollegan", "en tystlåten fiskare"],
        "space": ["generationsskeppet", "kolonin på Mars", "rymdstationen", "den sista staden på jorden"],
        "enVictim": ["a young woman", "a retired judge", "a local fisherman", "a celebrated painter", "a teenage boy"],
        "enTheme": ["guilt", "revenge", "loyalty", "grief", "power", "forgiveness"],
        "enPraise": [
            "A gripping page-turner.", "Impossible to put down.", "Warm, wise and funny.", "Utterly compelling.",
            "The book of the year.",
        ],
        "enPaper": ["The Harbour Review", "Northern Books Weekly", "The Reading Room", "Kestrel Literary Magazine"],
    ]

    /// Swedish blurbs, indexed by `Genre.rawValue`.
    static let swedishBlurbs: [BlurbSet] = Genre.allCases.map { genre in
        switch genre {
        case .deckare, .thriller:
            BlurbSet(
                [
                    "När {victim} {found} {where} {inPlace} kopplas {detective} {heroFull} in.",
                    "{heroFull} har just flyttat tillbaka till {place} när {victim} {found} {where}.",
                    """
                    En kall morgon {found} {victim} {where} {inPlace}, och {hero} inser snart att det inte var en \
                    olycka.
                    """,
                    "Det har gått tjugo år sedan {friend} försvann {inPlace}. Nu dyker ett nytt spår upp.",
                ],
                [
                    "Snart står det klart att någon vill dölja {secret}.",
                    "Spåren leder tillbaka till {secret}, och {hero} måste välja vem hon kan lita på.",
                    "Samtidigt får {hero} anonyma brev som tyder på att mördaren finns närmare än någon anat.",
                    "Ju djupare {hero} gräver, desto fler i den lilla orten vill att sanningen ska förbli begravd.",
                ],
                [
                    "En {adj} berättelse om {theme} och {theme}.",
                    "{authorGenitive} mest {adj} roman hittills.",
                    "”{praise}” – {paper}",
                    "En {adj} kriminalroman om {theme} och om priset för att tiga.",
                ], lists: blurbLists)
        case .romance, .feelgood:
            BlurbSet(
                [
                    "{heroFull} har förlorat både jobbet och pojkvännen när hon ärver ett förfallet hus {inPlace}.",
                    "Efter tjugo år i storstaden återvänder {hero} till {place} för en enda sommar.",
                    "{hero} har bestämt sig: i år ska hon äntligen förverkliga drömmen om ett eget kafé {inPlace}.",
                ],
                [
                    "Där möter hon {love} – och allt blir mycket mer komplicerat än hon tänkt sig.",
                    "Med hjälp av vännen {friend} och en envis katt börjar hon bygga upp ett nytt liv.",
                    "Men byborna är misstänksamma, och det gamla huset bär på fler hemligheter än hon anat.",
                ],
                [
                    "En berättelse om vänskap, nystart och mod, skriven med {feeling}.",
                    "”{praise}” – {paper}",
                    "Perfekt läsning för hängmattan.",
                    "{authorGenitive} efterlängtade nya roman, full av {feeling}.",
                ], lists: blurbLists)
        case .fantasy, .scienceFiction, .skrack:
            BlurbSet(
                [
                    "I ett rike där vintern aldrig tar slut ger sig {hero} ut på ett farligt uppdrag: {quest}.",
                    "Ombord på {space} växer {hero} upp utan att veta något om världen utanför.",
                    "När {hero} möter {creature} i skogen utanför {place} förändras allt.",
                    "Ingen i {place} pratar om huset vid sjön. Men {hero} har just flyttat in.",
                ],
                [
                    "Tillsammans med {friend} och {creature} måste hon välja mellan plikten och sitt eget hjärta.",
                    "Men gamla krafter har vaknat, och ingen är den de utger sig för att vara.",
                    "Snart upptäcker {hero} att {secret} hänger ihop med hennes egen familj.",
                ],
                [
                    "Första delen i en storslagen berättelse om makt, mod och {theme}.",
                    "”{praise}” – {paper}",
                    "En {adj} roman för alla som älskar att försvinna in i andra världar.",
                ], lists: blurbLists)
        case .barn:
            BlurbSet(
                [
                    "{hero} är sex år och {kid}.",
                    "Det är natt, och {hero} kan inte sova.",
                    "I dag är en alldeles särskild dag för {hero}.",
                ],
                [
                    "Tillsammans med bästa kompisen {friend} upptäcker {hero} att det mesta går, bara man vågar.",
                    "Men så händer något som ingen av dem hade kunnat ana!",
                    "Mormor har lovat en överraskning, och {hero} kan knappt vänta.",
                ],
                [
                    "En varm och rolig bok att läsa högt, med färgstarka bilder.",
                    "Passar för högläsning från 3 år.",
                    "För dig som precis har börjat läsa själv.",
                ], lists: blurbLists)
        case .ungdom:
            BlurbSet(
                [
                    "{hero} är sjutton och har räknat dagarna tills hon får lämna {place}.",
                    "Sista året på gymnasiet skulle bli det bästa någonsin. Sedan försvinner {friend}.",
                    "{hero} har aldrig passat in, varken hemma eller i skolan {inPlace}.",
                ],
                [
                    "När hon träffar {friend} ställs allt hon trott på på ända.",
                    """
                    Ett meddelande på natten förändrar allt, och plötsligt vet {hero} inte längre vem hon kan \
                    lita på.
                    """,
                ],
                [
                    "En stark och angelägen berättelse om att hitta sig själv.",
                    "”{praise}” – {paper}",
                    "En roman om vänskap, första kärleken och att våga ta plats.",
                ], lists: blurbLists)
        case .historiska, .klassiker:
            BlurbSet(
                [
                    "{place}, {year}. {heroFull} är nitton år när hon tar tjänst hos en förmögen änka.",
                    "Vi befinner oss {inPlace} {era}, där {heroFull} kämpar för att hålla ihop sin familj.",
                    "När {hero} föds {inPlace} {year} är framtiden redan bestämd för henne.",
                ],
                [
                    "Men i det stora huset döljer sig {secret}, och snart står hon inför ett omöjligt val.",
                    "Hungern, kriget och kärleken till {friend} driver henne långt bort från allt hon känner.",
                    "Genom brev som bevarats i över hundra år får vi följa hennes öde.",
                ],
                [
                    "En storslagen historisk roman om {theme}, mod och överlevnad.",
                    "”{praise}” – {paper}",
                    "En gripande skildring av kvinnoöden i en tid av förändring.",
                ], lists: blurbLists)
        case .biografi:
            BlurbSet(
                [
                    "{heroFull} växte upp {inPlace} och blev en av landets mest omtalade personer.",
                    "I den här boken berättar {heroFull} för första gången hela historien.",
                ],
                [
                    "Med stor öppenhet skildras framgångarna, motgångarna och priset för ett liv i offentligheten.",
                    "Boken bygger på hundratals timmar av samtal, dagböcker och brev.",
                ],
                [
                    "Ett ärligt och berörande porträtt.",
                    "”{praise}” – {paper}",
                ], lists: blurbLists)
        case .fakta:
            BlurbSet(
                [
                    "Vad vet vi egentligen om det vi tror att vi kan?",
                    "Den här boken tar dig med på en resa från de minsta detaljerna till de stora sammanhangen.",
                    "Allt fler vill veta mer om ämnet, men var ska man börja?",
                ],
                [
                    """
                    Med aktuell forskning, konkreta råd och många illustrationer förklaras det svåra på ett \
                    lättillgängligt sätt.
                    """,
                    "Författaren delar med sig av trettio års erfarenhet och avlivar de vanligaste myterna.",
                ],
                [
                    "En inspirerande och lättläst bok för både nybörjare och kännare.",
                    "”{praise}” – {paper}",
                ], lists: blurbLists)
        case .poesi:
            BlurbSet(
                [
                    "I sin nya diktsamling skriver {author} om ljuset {inPlace} och om det som går förlorat.",
                    "Dikterna rör sig mellan vardag och evighet, mellan {place} och minnet av en barndom.",
                ],
                [
                    "Med ett avskalat och precist språk fångas de små ögonblicken.",
                    "Här finns sorg, men också en stor ömhet.",
                ],
                [
                    "”{praise}” – {paper}",
                    "En samling att läsa långsamt och återvända till.",
                ], lists: blurbLists)
        }
    }

    /// English blurbs, indexed by `Genre.rawValue` (fewer families: the library's own texts are Swedish).
    static let englishBlurbs: [BlurbSet] = Genre.allCases.map { genre in
        switch genre {
        case .deckare, .thriller, .skrack:
            BlurbSet(
                [
                    """
                    When {enVictim} is found dead {inPlace}, {heroFull} is called back to the town she swore she \
                    had left for good.
                    """,
                    "Twenty years after {friend} vanished {inPlace}, a letter arrives that changes everything.",
                ],
                [
                    "As the secrets of a small community unravel, {hero} must decide whom she can trust.",
                    "Someone is watching, and they know exactly what happened that night.",
                ],
                [
                    "A gripping novel of {enTheme} and {enTheme}.",
                    "“{enPraise}” – {enPaper}",
                ], lists: blurbLists)
        case .romance, .feelgood, .ungdom:
            BlurbSet(
                [
                    "{heroFull} has lost her job, her flat and her boyfriend in a single week.",
                    "When {hero} inherits a crumbling cottage {inPlace}, she plans to sell it at once.",
                ],
                [
                    "But then she meets {friend}, and her carefully made plans begin to fall apart.",
                    "With the help of new friends and a very stubborn dog, she starts to build a new life.",
                ],
                [
                    "A warm, funny and uplifting story about second chances.",
                    "“{enPraise}” – {enPaper}",
                ], lists: blurbLists)
        case .fakta:
            BlurbSet(
                [
                    "What do we really know about the things we take for granted?",
                    "More and more of us want to know more, but where should we begin?",
                ],
                [
                    """
                    Drawing on the latest research, this clear and practical guide explains the essentials \
                    without jargon.
                    """,
                    "The author shares thirty years of experience and lays the most common myths to rest.",
                ],
                [
                    "An inspiring book for beginners and enthusiasts alike.",
                    "“{enPraise}” – {enPaper}",
                ], lists: blurbLists)
        case .poesi:
            BlurbSet(
                [
                    "In this new collection, {author} writes about the light {inPlace} and about what is lost.",
                    """
                    These poems move between the everyday and the eternal, between {place} and the memory of a \
                    childhood.
                    """,
                ],
                [
                    "In spare, precise language they capture the smallest moments.",
                    "There is grief here, but also great tenderness.",
                ],
                [
                    "A collection to read slowly and return to.",
                    "“{enPraise}” – {enPaper}",
                ], lists: blurbLists)
        case .biografi:
            BlurbSet(
                [
                    "{heroFull} grew up {inPlace} and became one of the most talked-about people of their generation.",
                    "In this book {heroFull} tells the whole story for the first time.",
                ],
                [
                    """
                    Candid and often funny, it describes the triumphs, the setbacks and the price of a life in \
                    public.
                    """,
                    "It draws on hundreds of hours of conversation, diaries and letters.",
                ],
                [
                    "An honest and moving portrait.",
                    "“{enPraise}” – {enPaper}",
                ], lists: blurbLists)
        default:
            BlurbSet(
                [
                    "{place}, {year}. {heroFull} is nineteen when everything she knows is taken from her.",
                    """
                    In a world on the brink of change, {hero} sets out on a journey that will test everything she \
                    believes.
                    """,
                ],
                [
                    "Her only hope lies with {friend}, and with a secret that has been kept for generations.",
                    "What she discovers will change not only her own life but the lives of everyone around her.",
                ],
                [
                    "A sweeping, unforgettable story of courage and {enTheme}.",
                    "“{enPraise}” – {enPaper}",
                ], lists: blurbLists)
        }
    }
}
