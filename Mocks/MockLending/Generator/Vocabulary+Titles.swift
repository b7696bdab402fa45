/// Title patterns per category, in Swedish and English at once (see `BilingualTemplate`).
extension Vocabulary {
    typealias Pairs = [(sv: String, en: String)]

    /// Title patterns, indexed by `Genre.rawValue`.
    static let titleTemplates: [[BilingualTemplate]] = Genre.allCases.map { genre in
        switch genre {
        case .deckare:
            crimeTitles + [
                BilingualTemplate(
                    sv: "Mordet på {victim}", en: "The Murder of the {victim}",
                    lists: [
                        "victim": [
                            ("fyrvaktaren", "Lighthouse Keeper"), ("prästen", "Vicar"), ("bibliotekarien", "Librarian"),
                            ("urmakaren", "Watchmaker"), ("konstnären", "Painter"), ("domaren", "Judge"),
                            ("rektorn", "Headmistress"), ("färjekaptenen", "Ferry Captain"),
                            ("hotellägaren", "Hotel Owner"),
                        ]
                    ]),
                BilingualTemplate(sv: "Mordet {inPlace}", en: "Murder {inPlace}"),
                BilingualTemplate(sv: "{thing}", en: "{thing}", lists: ["thing": things]),
            ]
        case .thriller:
            crimeTitles + [
                BilingualTemplate(
                    sv: "{person} som {deed}", en: "The {person} Who {deed}",
                    lists: [
                        "person": persons,
                        "deed": [
                            ("visste för mycket", "Knew Too Much"), ("försvann i dimman", "Vanished in the Fog"),
                            ("aldrig glömde", "Never Forgot"), ("gick över isen", "Walked Across the Ice"),
                            ("såg allt", "Saw Everything"), ("ljög", "Lied"), ("kom tillbaka", "Came Back"),
                        ],
                    ]),
                BilingualTemplate(
                    sv: "{number} dagar {inPlace}", en: "{number} Days {inPlace}",
                    lists: [
                        "number": [
                            ("Sju", "Seven"), ("Tre", "Three"), ("Fyra", "Four"), ("Nio", "Nine"), ("Tolv", "Twelve"),
                        ]
                    ]),
            ]
        case .romance:
            [
                BilingualTemplate(
                    sv: "{love} {inPlace}", en: "{love} {inPlace}",
                    lists: [
                        "love": [
                            ("Kärlek", "Love"), ("En kyss", "A Kiss"), ("Hjärtan", "Hearts"), ("Förälskad", "In Love"),
                            ("Bröllop", "A Wedding"),
                        ]
                    ]),
                BilingualTemplate(sv: "{season} {inPlace}", en: "{season} {inPlace}", lists: ["season": seasons]),
                BilingualTemplate(
                    sv: "{phrase}", en: "{phrase}",
                    lists: [
                        "phrase": [
                            ("En sommar med dig", "A Summer with You"), ("Bara du och jag", "Just You and Me"),
                            ("Allt jag vill ha", "All I Want"), ("Andra chansen", "Second Chances"),
                            ("Hjärtat vet", "The Heart Knows"), ("Kyss mig i gryningen", "Kiss Me at Dawn"),
                            ("Om du stannar", "If You Stay"),
                        ]
                    ]),
                BilingualTemplate(sv: "Ett brev från {hero}", en: "A Letter from {hero}"),
            ]
        case .feelgood:
            [
                BilingualTemplate(
                    sv: "{shop} {inPlace}", en: "{shop} {inPlace}",
                    lists: [
                        "shop": [
                            ("Kaféet", "The Café"), ("Bageriet", "The Bakery"), ("Bokhandeln", "The Bookshop"),
                            ("Pensionatet", "The Guesthouse"), ("Blomsterhandeln", "The Flower Shop"),
                            ("Glassbaren", "The Ice Cream Parlour"), ("Syateljén", "The Sewing Room"),
                        ]
                    ]),
                BilingualTemplate(sv: "Sista sommaren {inPlace}", en: "The Last Summer {inPlace}"),
                BilingualTemplate(sv: "Ett år {inPlace}", en: "A Year {inPlace}"),
                BilingualTemplate(
                    sv: "{heroGenitive} {cozy}", en: "{heroGenitive} {cozy}",
                    lists: [
                        "cozy": [
                            ("trädgård", "Garden"), ("kafé", "Café"), ("andra chans", "Second Chance"),
                            ("lilla bokhandel", "Little Bookshop"), ("sommar", "Summer"), ("nya liv", "New Life"),
                        ]
                    ]),
                BilingualTemplate(
                    sv: "{phrase}", en: "{phrase}",
                    lists: [
                        "phrase": [
                            ("Små steg mot lycka", "Small Steps to Happiness"),
                            ("Det ordnar sig", "It Will All Work Out"),
                            ("Kanelbullar och kärlek", "Cinnamon Buns and Love"),
                            ("Allt börjar med te", "It All Starts with Tea"),
                            ("Flickan som räknade stjärnor", "The Girl Who Counted the Stars"),
                        ]
                    ]),
            ]
        case .fantasy:
            [
                BilingualTemplate(
                    sv: "{creature} {legacy}", en: "The {legacy} of {creature}",
                    lists: [
                        "creature": [
                            ("Drakens", "the Dragon"), ("Vargens", "the Wolf"), ("Korpens", "the Raven"),
                            ("Stjärnornas", "the Stars"), ("Nordanvindens", "the North Wind"),
                            ("Skuggornas", "Shadows"),
                        ],
                        "legacy": [
                            ("arv", "Legacy"), ("väktare", "Guardian"), ("sång", "Song"), ("krona", "Crown"),
                            ("öde", "Fate"), ("eld", "Fire"), ("dotter", "Daughter"),
                        ],
                    ]),
                BilingualTemplate(
                    sv: "Kronan av {material}", en: "The Crown of {material}",
                    lists: [
                        "material": [
                            ("is", "Ice"), ("aska", "Ash"), ("glas", "Glass"), ("ben", "Bone"), ("silver", "Silver"),
                            ("törne", "Thorns"),
                        ]
                    ]),
                BilingualTemplate(
                    sv: "{hero} och {magic}", en: "{hero} and {magic}",
                    lists: [
                        "magic": [
                            ("drakägget", "the Dragon Egg"), ("den sista porten", "the Last Gate"),
                            ("stjärnkartan", "the Star Map"),
                            ("skuggornas rike", "the Kingdom of Shadows"), ("järnskogen", "the Iron Forest"),
                        ]
                    ]),
                BilingualTemplate(
                    sv: "Riket bortom {beyond}", en: "The Realm Beyond the {beyond}",
                    lists: [
                        "beyond": [
                            ("dimman", "Mist"), ("bergen", "Mountains"), ("havet", "Sea"),
                            ("norrskenet", "Northern Lights"),
                        ]
                    ]),
            ]
        case .barn:
            [
                BilingualTemplate(
                    sv: "{hero} och {kid}", en: "{hero} and {kid}",
                    lists: [
                        "kid": [
                            ("den stora snön", "the Big Snow"), ("monstret under sängen", "the Monster Under the Bed"),
                            ("cykeln som kunde flyga", "the Bicycle That Could Fly"),
                            ("mormors hemlighet", "Grandma's Secret"),
                            ("den borttappade nallen", "the Lost Teddy"), ("det hemliga trädet", "the Secret Tree"),
                        ]
                    ]),
                BilingualTemplate(
                    sv: "Lilla {animal} {act}", en: "Little {animal} {act}",
                    lists: [
                        "animal": [
                            ("igelkotten", "Hedgehog"), ("räven", "Fox"), ("ugglan", "Owl"), ("myran", "Ant"),
                            ("björnen", "Bear"),
                        ],
                        "act": [
                            ("vågar", "Is Brave"), ("kan inte sova", "Can't Sleep"),
                            ("hittar hem", "Finds the Way Home"),
                            ("får en vän", "Makes a Friend"), ("och regnet", "and the Rain"),
                        ],
                    ]),
                BilingualTemplate(
                    sv: "{hero} {trip}", en: "{hero} {trip}",
                    lists: [
                        "trip": [
                            ("börjar skolan", "Starts School"), ("på bondgården", "at the Farm"),
                            ("i rymden", "in Space"),
                            ("på badhuset", "at the Swimming Pool"), ("och tandfen", "and the Tooth Fairy"),
                        ]
                    ]),
                BilingualTemplate(sv: "Godnatt, {place}", en: "Goodnight, {place}"),
            ]
        case .ungdom:
            [
                BilingualTemplate(
                    sv: "{phrase}", en: "{phrase}",
                    lists: [
                        "phrase": [
                            ("Sommaren vi brann", "The Summer We Burned"),
                            ("Innan allt tog slut", "Before It All Ended"),
                            ("Hon som försvann", "The Girl Who Vanished"), ("Vi mot världen", "Us Against the World"),
                            ("Ljudet av regn", "The Sound of Rain"), ("Noll filter", "Zero Filter"),
                            ("När ljuset slocknar", "When the Lights Go Out"),
                            ("Allt jag aldrig sa", "Everything I Never Said"),
                            ("Hjärtat är en muskel", "The Heart Is a Muscle"),
                        ]
                    ]),
                BilingualTemplate(
                    sv: "{hero} och {friend} mot resten av världen", en: "{hero} and {friend} Against the World"),
                BilingualTemplate(sv: "Sommaren {inPlace}", en: "That Summer {inPlace}"),
            ]
        case .historiska:
            [
                BilingualTemplate(
                    sv: "{trade} från {place}", en: "The {trade} of {place}",
                    lists: [
                        "trade": [
                            ("Barnmorskan", "Midwife"), ("Urmakaren", "Watchmaker"), ("Kartritaren", "Mapmaker"),
                            ("Silversmeden", "Silversmith"), ("Prästdottern", "Vicar's Daughter"),
                            ("Glasblåsaren", "Glassblower"),
                        ]
                    ]),
                BilingualTemplate(sv: "Sommaren {year}", en: "The Summer of {year}"),
                BilingualTemplate(sv: "Vintern {year}", en: "The Winter of {year}"),
                BilingualTemplate(
                    sv: "{craft} {bond}", en: "The {craft} {bond}",
                    lists: [
                        "craft": [
                            ("Urmakarens", "Watchmaker's"), ("Kartritarens", "Mapmaker's"),
                            ("Fyrvaktarens", "Lighthouse Keeper's"),
                            ("Glasblåsarens", "Glassblower's"), ("Smedens", "Blacksmith's"),
                            ("Apotekarens", "Apothecary's"),
                        ],
                        "bond": [
                            ("dotter", "Daughter"), ("hemlighet", "Secret"), ("löfte", "Promise"), ("änka", "Widow"),
                        ],
                    ]),
                BilingualTemplate(
                    sv: "{phrase}", en: "{phrase}",
                    lists: [
                        "phrase": [
                            ("Drottningens spion", "The Queen's Spy"),
                            ("Emigranternas barn", "Children of the Emigrants"),
                            ("Silverkronan", "The Silver Crown"), ("Pestens år", "The Plague Year"),
                            ("Krigets döttrar", "Daughters of War"),
                        ]
                    ]),
            ]
        case .scienceFiction:
            [
                BilingualTemplate(
                    sv: "Signalen från {space}", en: "The Signal from {space}",
                    lists: [
                        "space": [
                            ("Europa", "Europa"), ("Kepler-22", "Kepler-22"), ("andra sidan", "the Other Side"),
                            ("djupet", "the Deep"), ("Titan", "Titan"),
                        ]
                    ]),
                BilingualTemplate(
                    sv: "De sista på {planet}", en: "The Last on {planet}",
                    lists: [
                        "planet": [
                            ("Mars", "Mars"), ("Ceres", "Ceres"), ("Ganymedes", "Ganymede"), ("jorden", "Earth"),
                        ]
                    ]),
                BilingualTemplate(
                    sv: "Station {station}", en: "Station {station}",
                    lists: [
                        "station": [
                            ("Aurora", "Aurora"), ("Nadir", "Nadir"), ("Tellus", "Tellus"), ("Vega", "Vega"),
                        ]
                    ]),
                BilingualTemplate(
                    sv: "{phrase}", en: "{phrase}",
                    lists: [
                        "phrase": [
                            ("Kolonin", "The Colony"), ("Generationsskeppet", "The Generation Ship"),
                            ("Minnesmaskinen", "The Memory Machine"), ("Efter solen", "After the Sun"),
                            ("Tyngdlös", "Weightless"),
                        ]
                    ]),
            ]
        case .biografi:
            [
                BilingualTemplate(sv: "{heroFull}: ett liv", en: "{heroFull}: A Life"),
                BilingualTemplate(
                    sv: "Mitt liv som {role}", en: "My Life as a {role}",
                    lists: [
                        "role": [
                            ("fyrvaktare", "Lighthouse Keeper"), ("barnmorska", "Midwife"), ("skådespelare", "Actor"),
                            ("polis", "Police Officer"), ("fotbollsproffs", "Footballer"), ("kock", "Chef"),
                        ]
                    ]),
                BilingualTemplate(
                    sv: "Ett liv i {scene}", en: "A Life in {scene}",
                    lists: [
                        "scene": [
                            ("musiken", "Music"), ("rampljuset", "the Spotlight"), ("skogen", "the Forest"),
                            ("köket", "the Kitchen"), ("politiken", "Politics"),
                        ]
                    ]),
                BilingualTemplate(sv: "Minnen från {place}", en: "Memories of {place}"),
                BilingualTemplate(sv: "Allt jag minns", en: "All I Remember"),
            ]
        case .fakta:
            [
                BilingualTemplate(
                    sv: "Allt du behöver veta om {topic}", en: "Everything You Need to Know About {topic}",
                    lists: ["topic": topics]),
                BilingualTemplate(
                    sv: "En kort historia om {topic}", en: "A Short History of {topic}", lists: ["topic": topics]),
                BilingualTemplate(
                    sv: "Konsten att {art}", en: "The Art of {art}",
                    lists: [
                        "art": [
                            ("odla", "Growing Things"), ("vila", "Rest"), ("läsa långsamt", "Slow Reading"),
                            ("laga mat för många", "Cooking for Many"), ("vandra", "Walking"),
                            ("säga nej", "Saying No"),
                        ]
                    ]),
                BilingualTemplate(
                    sv: "{phrase}", en: "{phrase}",
                    lists: [
                        "phrase": [
                            ("Nordens fåglar", "Birds of the Nordic Countries"),
                            ("Svampar i Sverige", "Mushrooms of Sweden"),
                            ("Hjärnan och sömnen", "The Brain and Sleep"),
                            ("Vikingarnas vardag", "Everyday Life of the Vikings"),
                        ]
                    ]),
            ]
        case .poesi:
            [
                BilingualTemplate(
                    sv: "Dikter om {poem}", en: "Poems About {poem}",
                    lists: [
                        "poem": [
                            ("havet", "the Sea"), ("ljuset", "Light"), ("sorg", "Grief"), ("kärlek", "Love"),
                            ("vintern", "Winter"), ("tiden", "Time"),
                        ]
                    ]),
                BilingualTemplate(
                    sv: "{image} och andra dikter", en: "{image} and Other Poems",
                    lists: [
                        "image": [
                            ("Nattfjäril", "Moth"), ("Saltvatten", "Salt Water"), ("Björkljus", "Birch Light"),
                            ("Snösmältning", "Thaw"), ("Ekot", "The Echo"),
                        ]
                    ]),
                BilingualTemplate(sv: "Ljus över {place}", en: "Light over {place}"),
                BilingualTemplate(
                    sv: "{phrase}", en: "{phrase}",
                    lists: [
                        "phrase": [
                            ("Ord i mörker", "Words in the Dark"), ("Det som stannar", "What Remains"),
                            ("Andetag", "Breaths"),
                        ]
                    ]),
            ]
        case .klassiker: crimeTitles  // unused: classics come from `classics`
        case .skrack:
            [
                BilingualTemplate(
                    sv: "{phrase}", en: "{phrase}",
                    lists: [
                        "phrase": [
                            ("Det som vaknar", "What Wakes"), ("Huset på kullen", "The House on the Hill"),
                            ("Rösterna i skogen", "The Voices in the Forest"), ("Gengångaren", "The Revenant"),
                            ("Under golvet", "Beneath the Floor"), ("Nattens barn", "Children of the Night"),
                            ("Det tomma rummet", "The Empty Room"),
                        ]
                    ]),
                BilingualTemplate(sv: "Spökena {inPlace}", en: "The Ghosts {inPlace}"),
                BilingualTemplate(sv: "{dark} över {place}", en: "{dark} over {place}", lists: ["dark": darks]),
            ]
        }
    }

    /// Patterns shared by crime and thrillers.
    static let crimeTitles: [BilingualTemplate] = [
        BilingualTemplate(sv: "{dark} över {place}", en: "{dark} over {place}", lists: ["dark": darks]),
        BilingualTemplate(
            sv: "{death} {inPlace}", en: "{death} {inPlace}",
            lists: [
                "death": [
                    ("Döden", "Death"), ("Ett lik", "A Body"), ("Skuggor", "Shadows"), ("Blod", "Blood"),
                    ("Tystnad", "Silence"),
                ]
            ]),
        BilingualTemplate(
            sv: "{abstract} {face}", en: "The {face} of {abstract}",
            lists: [
                "abstract": [
                    ("Tystnadens", "Silence"), ("Sanningens", "Truth"), ("Skuldens", "Guilt"), ("Hämndens", "Revenge"),
                    ("Glömskans", "Oblivion"), ("Lögnens", "the Lie"),
                ],
                "face": [
                    ("pris", "Price"), ("röst", "Voice"), ("ansikte", "Face"), ("timme", "Hour"), ("eko", "Echo"),
                ],
            ]),
        BilingualTemplate(
            sv: "Huset vid {water}", en: "The House by the {water}",
            lists: [
                "water": [
                    ("sjön", "Lake"), ("havet", "Sea"), ("älven", "River"), ("fyren", "Lighthouse"),
                    ("kanalen", "Canal"),
                    ("mossen", "Bog"), ("stranden", "Shore"),
                ]
            ]),
        BilingualTemplate(
            sv: "{phrase}", en: "{phrase}",
            lists: [
                "phrase": [
                    ("Det sista vittnet", "The Last Witness"), ("Den sjunde dagen", "The Seventh Day"),
                    ("Kallt spår", "Cold Trail"),
                    ("Svart is", "Black Ice"), ("Stilla vatten", "Still Water"), ("Ingen återvändo", "No Way Back"),
                    ("Sista andetaget", "The Last Breath"), ("Utan spår", "Without a Trace"),
                    ("Djupt vatten", "Deep Water"),
                    ("Fritt fall", "Free Fall"), ("Blodmåne", "Blood Moon"), ("Nattvakten", "The Night Watch"),
                ]
            ]),
    ]

    static let darks: Pairs = [
        ("Mörkret", "Darkness"), ("Skuggan", "The Shadow"), ("Stormen", "The Storm"), ("Tystnaden", "Silence"),
        ("Dimman", "The Fog"), ("Natten", "Night"), ("Kylan", "The Cold"),
    ]

    static let persons: Pairs = [
        ("Flickan", "Girl"), ("Pojken", "Boy"), ("Kvinnan", "Woman"), ("Mannen", "Man"), ("Änkan", "Widow"),
        ("Fyrvaktaren", "Lighthouse Keeper"), ("Systern", "Sister"), ("Bibliotekarien", "Librarian"),
    ]

    /// Noun phrases with the article already agreeing with the noun's gender (den/det).
    static let things: Pairs = [
        ("den tysta hamnen", "the Silent Harbour"), ("det glömda huset", "the Forgotten House"),
        ("den sista sommaren", "the Last Summer"), ("den dolda trädgården", "the Hidden Garden"),
        ("det brinnande fältet", "the Burning Field"), ("den förlorade dottern", "the Lost Daughter"),
        ("den målade bron", "the Painted Bridge"), ("den stilla stranden", "the Quiet Shore"),
        ("det drunknade biblioteket", "the Drowned Library"), ("den tomma fyren", "the Empty Lighthouse"),
        ("det sista brevet", "the Last Letter"), ("den frusna sjön", "the Frozen Lake"),
    ]

    static let seasons: Pairs = [
        ("Sommar", "Summer"), ("Vinter", "Winter"), ("Midsommar", "Midsummer"), ("Jul", "Christmas"),
    ]

    static let topics: Pairs = [
        ("svampar", "Mushrooms"), ("sömn", "Sleep"), ("bin", "Bees"), ("hjärnan", "the Brain"),
        ("vikingatiden", "the Viking Age"), ("klimatet", "the Climate"), ("fåglar", "Birds"), ("surdeg", "Sourdough"),
        ("stjärnhimlen", "the Night Sky"), ("Östersjön", "the Baltic Sea"),
    ]

    /// Titles of books written in the other languages, by language code; `{place}` is bound.
    static let otherLanguageTitles: [String: [Template]] = [
        "da": ["Mørket over {place}", "Den sidste sommer", "Huset ved fjorden", "Døden i {place}", "Stilhedens pris"]
            .map { Template($0) },
        "nb": ["Fyrvokterens datter", "Vinter i {place}", "Stillhet", "Skyggen over {place}", "Det siste vitnet"].map {
            Template($0)
        },
        "fi": ["Hiljainen satama", "Viimeinen kesä", "Talvi saaressa", "Varjojen talo", "Kuolema saaristossa"].map {
            Template($0)
        },
        "de": [
            "Der stille Hafen", "Die Tochter des Uhrmachers", "Das Haus am See", "Winter in {place}",
            "Nacht über {place}",
        ].map { Template($0) },
        "fr": [
            "La maison du silence", "L'été à {place}", "Le dernier témoin", "Les filles de la mer",
            "Une nuit à {place}",
        ].map { Template($0) },
        "es": ["La casa del puerto", "El último verano", "Una noche en {place}", "Las hijas del faro", "El silencio"]
            .map { Template($0) },
    ]

    /// A classic with the facts that must be right, rather than generated.
    struct Classic: Sendable {
        let title: String
        let originalTitle: String?
        let first: String
        let last: String
        let language: String
        let genre: Genre
        let year: Int
    }

    /// Public-domain classics; a large catalogue holds several editions of each, as real libraries do.
    static let classics: [Classic] = [
        Classic(
            title: "Röda rummet", originalTitle: nil, first: "August", last: "Strindberg", language: "sv",
            genre: .klassiker, year: 1879),
        Classic(
            title: "Hemsöborna", originalTitle: nil, first: "August", last: "Strindberg", language: "sv",
            genre: .klassiker, year: 1887),
        Classic(
            title: "Gösta Berlings saga", originalTitle: nil, first: "Selma", last: "Lagerlöf", language: "sv",
            genre: .klassiker, year: 1891),
        Classic(
            title: "Nils Holgerssons underbara resa genom Sverige", originalTitle: nil, first: "Selma",
            last: "Lagerlöf", language: "sv", genre: .barn, year: 1906),
        Classic(
            title: "Doktor Glas", originalTitle: nil, first: "Hjalmar", last: "Söderberg", language: "sv",
            genre: .klassiker, year: 1905),
        Classic(
            title: "Den allvarsamma leken", originalTitle: nil, first: "Hjalmar", last: "Söderberg", language: "sv",
            genre: .klassiker, year: 1912),
        Classic(
            title: "Kallocain", originalTitle: nil, first: "Karin", last: "Boye", language: "sv",
            genre: .scienceFiction, year: 1940),
        Classic(
            title: "Drottningens juvelsmycke", originalTitle: nil, first: "Carl Jonas Love", last: "Almqvist",
            language: "sv", genre: .klassiker, year: 1834),
        Classic(
            title: "Fänrik Ståls sägner", originalTitle: nil, first: "Johan Ludvig", last: "Runeberg", language: "sv",
            genre: .poesi, year: 1848),
        Classic(
            title: "Stolthet och fördom", originalTitle: "Pride and Prejudice", first: "Jane", last: "Austen",
            language: "sv", genre: .klassiker, year: 1813),
        Classic(
            title: "Jane Eyre", originalTitle: "Jane Eyre", first: "Charlotte", last: "Brontë", language: "sv",
            genre: .klassiker, year: 1847),
        Classic(
            title: "Svindlande höjder", originalTitle: "Wuthering Heights", first: "Emily", last: "Brontë",
            language: "sv", genre: .klassiker, year: 1847),
        Classic(
            title: "Anna Karenina", originalTitle: "Анна Каренина", first: "Lev", last: "Tolstoj", language: "sv",
            genre: .klassiker, year: 1878),
        Classic(
            title: "Brott och straff", originalTitle: "Преступление и наказание", first: "Fjodor", last: "Dostojevskij",
            language: "sv", genre: .klassiker, year: 1866),
        Classic(
            title: "Förvandlingen", originalTitle: "Die Verwandlung", first: "Franz", last: "Kafka", language: "sv",
            genre: .klassiker, year: 1915),
        Classic(
            title: "Ett dockhem", originalTitle: "Et dukkehjem", first: "Henrik", last: "Ibsen", language: "sv",
            genre: .klassiker, year: 1879),
        Classic(
            title: "Pride and Prejudice", originalTitle: nil, first: "Jane", last: "Austen", language: "en",
            genre: .klassiker, year: 1813),
        Classic(
            title: "Great Expectations", originalTitle: nil, first: "Charles", last: "Dickens", language: "en",
            genre: .klassiker, year: 1861),
        Classic(
            title: "Madame Bovary", originalTitle: nil, first: "Gustave", last: "Flaubert", language: "fr",
            genre: .klassiker, year: 1857),
    ]
}
