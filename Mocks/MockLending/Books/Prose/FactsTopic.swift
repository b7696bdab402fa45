/// Non-fiction: four topics (the garden, nature, food, history), each with its headings,
/// facts, tips, references and one table of real-looking figures.
struct FactsTopic: Sendable {
    let book: Phrasebook
    /// Table caption, header and rows; the last column is a number a bar chart can show.
    let caption: String
    let header: [String]
    let rows: [[String]]

    /// The topic for a book's keywords (`trädgård`, `natur`, …), else one drawn from `rng`.
    static func topic(keywords: [String], english: Bool, _ rng: inout SplitMix64) -> FactsTopic {
        let sets =
            english
            ? [gardenEnglish, natureEnglish, foodEnglish, historyEnglish]
            : [gardenSwedish, natureSwedish, foodSwedish, historySwedish]
        for keyword in keywords {
            switch keyword {
            case "trädgård": return sets[0]
            case "natur", "vetenskap": return sets[1]
            case "mat", "hälsa": return sets[2]
            case "historia", "samhälle": return sets[3]
            default: continue
            }
        }
        return rng.pick(sets)
    }

    static let commonSwedish: [String: [String]] = [
        "reference": [
            "Lindqvist (2004), s. {page}", "Bergström & Holm (2011), kap. 3",
            "Nordiska museets arkiv, uppteckning {page}", "Sandberg (1998), s. {page}", "SMHI:s årsrapport 2019",
        ],
        "note": [
            "Se {reference}.", "Uppgifterna bygger på {reference}.", "För en längre genomgång, se {reference}.",
            "Siffrorna är avrundade; se {reference}.",
        ],
        "recall": ["Som vi såg i {backLink} hänger detta ihop med årstiderna.", "Jämför med {backLink}."],
        "tableRef": [
            "Tabellen nedan sammanfattar de viktigaste uppgifterna.",
            "Siffrorna i tabellen är hämtade från flera källor.",
        ],
    ]
    static let commonEnglish: [String: [String]] = [
        "reference": [
            "Lindqvist (2004), p. {page}", "Bergström & Holm (2011), ch. 3", "the Nordic Museum archive, record {page}",
            "Sandberg (1998), p. {page}", "the Met Office annual report for 2019",
        ],
        "note": [
            "See {reference}.", "The figures follow {reference}.", "For a longer account, see {reference}.",
            "The figures are rounded; see {reference}.",
        ],
        "recall": ["As we saw in {backLink}, this follows the seasons.", "Compare {backLink}."],
        "tableRef": [
            "The table below sums up the main figures.", "The figures in the table come from several sources.",
        ],
    ]
    static let pages = ["12", "37", "58", "104", "112", "213", "240"]

    static func make(
        _ pools: [String: [String]], common: [String: [String]], lists: [String: [String]],
        caption: String, header: [String], rows: [[String]]
    ) -> FactsTopic {
        var all = pools
        for (name, list) in common { all[name, default: []] += list }
        var allLists = lists
        allLists["page"] = pages
        return FactsTopic(book: Phrasebook(pools: all, lists: allLists), caption: caption, header: header, rows: rows)
    }

    static let gardenSwedish = make(
        [
            "title": [
                "Jorden", "Att så", "Grönsakslandet", "Vattna och gödsla", "Skörden", "Växtföljd", "Kryddor",
                "Vintern i trädgården", "Redskap", "Skadedjur",
            ],
            "section": [
                "Förberedelser", "Rätt tid", "Jordens struktur", "Vanliga misstag", "Steg för steg", "Att tänka på",
                "Ekologiska metoder",
            ],
            "intro": [
                "Den som odlar lär sig snart att tålamod är det viktigaste redskapet.",
                "Det här kapitlet handlar om {topicWord}, och om hur man kommer i gång.",
            ],
            "fact": [
                "{crop} trivs bäst i lucker, näringsrik jord med jämn fukt.",
                "De flesta grönsaker behöver minst sex timmar sol om dagen.",
                "En jord som är för kompakt släpper inte igenom vatten, och rötterna kvävs.",
                "Kompost förbättrar jordens struktur och ger näring under hela säsongen.",
                "Så inte för tätt: {crop} behöver plats för att utvecklas.",
                "I norra Sverige kommer frosten ofta redan i slutet av augusti.",
                "Det lönar sig att föra anteckningar om vad man sått, var och när.",
                "Vattna hellre ordentligt en gång i veckan än lite varje dag.",
                "Marktäckning med gräsklipp håller fukten kvar och ogräset borta.",
                "{crop} {cropFact}.", "{crop} {cropFact}.", "{crop} {cropFact}.", "Ett gott råd är att {task}.",
                "Glöm inte att {task}.",
            ],
            "tip": [
                "Gallra plantorna i tid.", "Täck jorden mellan raderna.", "Vattna på morgonen.",
                "Byt plats på grödorna varje år.", "Spara egna fröer.", "Skörda ofta, så växer det mer.",
            ],
        ], common: commonSwedish,
        lists: [
            "crop": ["morötter", "potatis", "rädisor", "sallat", "ärtor", "squash", "dill", "rödbetor"],
            "cropFact": [
                "behöver mycket vatten i juli", "kan sås direkt på friland", "tål en lätt frost",
                "mår bra av att gallras", "blir sötare efter en kall natt",
                "ska skördas innan de blir för stora", "går att förkultivera inomhus", "passar bra i pallkrage",
                "lockar tyvärr till sig sniglar",
            ],
            "task": [
                "täcka sådden med fiberduk", "gräva ner komposten på hösten", "vattna extra under torra veckor",
                "märka raderna med pinnar", "spara fröer från de bästa plantorna", "rensa ogräs medan det är litet",
            ],
            "topicWord": ["jorden", "sådden", "skörden", "odlingen"],
        ], caption: "Sådd och skörd av vanliga grönsaker", header: ["Gröda", "Sådd", "Skörd", "Dagar till skörd"],
        rows: [
            ["Morot", "april–maj", "augusti–oktober", "75"], ["Rädisa", "april–augusti", "maj–september", "25"],
            ["Sallat", "april–juli", "juni–september", "45"], ["Ärta", "april–maj", "juli–augusti", "65"],
            ["Potatis", "maj", "juli–september", "90"], ["Rödbeta", "maj–juni", "augusti–oktober", "70"],
        ])

    static let gardenEnglish = make(
        [
            "title": [
                "The Soil", "Sowing", "The Vegetable Bed", "Watering and Feeding", "The Harvest", "Crop Rotation",
                "Herbs", "The Garden in Winter", "Tools", "Pests",
            ],
            "section": [
                "Preparation", "The Right Time", "The Structure of Soil", "Common Mistakes", "Step by Step",
                "Things to Remember", "Organic Methods",
            ],
            "intro": [
                "Anyone who grows things soon learns that patience is the most important tool.",
                "This chapter is about {topicWord}, and how to make a start.",
            ],
            "fact": [
                "{crop} do best in loose, rich soil that is evenly moist.",
                "Most vegetables need at least six hours of sun a day.",
                "Soil that is too compact will not let water through, and the roots suffocate.",
                "Compost improves the structure of the soil and feeds it all season.",
                "Do not sow too densely: {crop} need room to grow.",
                "In the north the first frost often comes at the end of August.",
                "It pays to keep notes of what you sowed, where and when.",
                "Water well once a week rather than a little every day.",
                "A mulch of grass clippings keeps moisture in and weeds out.",
                "{crop} {cropFact}.", "{crop} {cropFact}.", "{crop} {cropFact}.", "A good rule is to {task}.",
                "Do not forget to {task}.",
            ],
            "tip": [
                "Thin seedlings in good time.", "Cover the soil between rows.", "Water in the morning.",
                "Move crops to a new bed every year.", "Save your own seed.", "Pick often, and more will grow.",
            ],
        ], common: commonEnglish,
        lists: [
            "crop": ["carrots", "potatoes", "radishes", "lettuces", "peas", "courgettes", "dill plants", "beetroots"],
            "cropFact": [
                "need plenty of water in July", "can be sown straight outdoors", "stand a light frost",
                "do better for being thinned", "grow sweeter after a cold night",
                "should be picked before they grow too large", "can be started indoors", "do well in a raised bed",
                "sadly attract slugs",
            ],
            "task": [
                "cover new sowings with fleece", "dig the compost in every autumn", "water more in dry weeks",
                "mark the rows with sticks", "save seed from the best plants", "weed while the weeds are small",
            ],
            "topicWord": ["the soil", "sowing", "the harvest", "growing"],
        ], caption: "Sowing and harvesting common vegetables", header: ["Crop", "Sow", "Harvest", "Days to harvest"],
        rows: [
            ["Carrot", "April–May", "August–October", "75"], ["Radish", "April–August", "May–September", "25"],
            ["Lettuce", "April–July", "June–September", "45"], ["Pea", "April–May", "July–August", "65"],
            ["Potato", "May", "July–September", "90"], ["Beetroot", "May–June", "August–October", "70"],
        ])

    static let natureSwedish = make(
        [
            "title": [
                "Skogen", "Fåglarna", "Våtmarker", "Årstidernas växlingar", "Flyttfåglar", "Insekter", "Kusten",
                "Fjällen", "Att iaktta",
            ],
            "section": [
                "Kännetecken", "Var man hittar dem", "Livscykeln", "Hot och skydd", "Att tänka på i fält",
                "Lite historia",
            ],
            "intro": [
                "Naturen förändras hela tiden, men den gör det i en takt som är lätt att missa.",
                "I det här kapitlet ska vi titta närmare på {topicWord}.",
            ],
            "fact": [
                "{bird} är en av de vanligaste fåglarna i svensk skog.",
                "Många fåglar återvänder till samma häckningsplats år efter år.",
                "En vanlig gran kan bli över trehundra år gammal.",
                "Våtmarker binder kol och renar vatten, och de har minskat kraftigt sedan 1800-talet.",
                "{bird} syns bäst tidigt på morgonen, när det är stilla.",
                "Den som vill lära sig fågelsång gör klokt i att börja med några få arter.",
                "Insekterna pollinerar en stor del av de växter vi äter.",
                "Vårens ankomst flyttar sig norrut med ungefär fyra mil om dagen.",
                "{bird} {birdFact}.", "{bird} {birdFact}.", "{bird} {birdFact}.",
            ],
            "tip": [
                "Ta med kikare.", "Gå tyst och stanna ofta.", "Skriv ner datum och plats.",
                "Lämna naturen som du fann den.", "Lär dig några arter i taget.",
            ],
        ], common: commonSwedish,
        lists: [
            "bird": ["koltrasten", "bofinken", "talgoxen", "rödhaken", "gräsanden", "göken", "tranan"],
            "birdFact": [
                "häckar gärna nära människor", "sjunger redan före gryningen", "flyttar söderut i september",
                "bygger sitt bo av mossa och lera", "äter både insekter och bär",
                "känns lättast igen på lätet", "har blivit vanligare de senaste åren",
                "övervintrar ibland i södra Sverige",
            ],
            "topicWord": ["skogen", "fåglarna", "våtmarkerna", "årstiderna"],
        ], caption: "Några vanliga fåglar", header: ["Art", "Miljö", "Kommer åter", "Längd (cm)"],
        rows: [
            ["Koltrast", "skog och trädgård", "mars", "25"], ["Bofink", "skog", "mars–april", "15"],
            ["Rödhake", "skog", "april", "14"], ["Göktyta", "lövskog", "maj", "17"],
            ["Trana", "myr", "april", "115"], ["Gräsand", "sjöar", "stannar", "58"],
        ])

    static let natureEnglish = make(
        [
            "title": [
                "The Forest", "Birds", "Wetlands", "The Turning Seasons", "Migrants", "Insects", "The Coast",
                "The Mountains", "Watching",
            ],
            "section": [
                "How to Know Them", "Where to Find Them", "The Life Cycle", "Threats and Protection", "In the Field",
                "A Little History",
            ],
            "intro": [
                "Nature changes all the time, but at a pace that is easy to miss.",
                "In this chapter we look more closely at {topicWord}.",
            ],
            "fact": [
                "The {bird} is one of the commonest birds of the northern forest.",
                "Many birds return to the same nesting site year after year.",
                "A Norway spruce can live for more than three hundred years.",
                "Wetlands store carbon and clean water, and they have shrunk sharply since the nineteenth century.",
                "The {bird} is easiest to see early in the morning, when it is still.",
                "Anyone who wants to learn birdsong would do well to begin with a few species.",
                "Insects pollinate a large share of the plants we eat.",
                "Spring moves north at about forty kilometres a day.",
                "The {bird} {birdFact}.", "The {bird} {birdFact}.", "The {bird} {birdFact}.",
            ],
            "tip": [
                "Bring binoculars.", "Walk quietly and stop often.", "Write down the date and the place.",
                "Leave nature as you found it.", "Learn a few species at a time.",
            ],
        ], common: commonEnglish,
        lists: [
            "bird": ["blackbird", "chaffinch", "great tit", "robin", "mallard", "cuckoo", "crane"],
            "birdFact": [
                "often nests close to people", "sings before dawn", "flies south in September",
                "builds its nest of moss and mud", "eats both insects and berries",
                "is easiest to know by its call", "has grown commoner in recent years",
                "sometimes winters in the far south",
            ],
            "topicWord": ["the forest", "birds", "wetlands", "the seasons"],
        ], caption: "Some common birds", header: ["Species", "Habitat", "Returns", "Length (cm)"],
        rows: [
            ["Blackbird", "woods and gardens", "March", "25"], ["Chaffinch", "woods", "March–April", "15"],
            ["Robin", "woods", "April", "14"], ["Wryneck", "broadleaf woods", "May", "17"],
            ["Crane", "bogs", "April", "115"], ["Mallard", "lakes", "stays", "58"],
        ])

    static let foodSwedish = make(
        [
            "title": [
                "Frukosten", "Bröd", "Grönsaker året runt", "Fisk", "Att laga mat för många", "Baljväxter", "Kryddor",
                "Att förvara mat",
            ],
            "section": ["Näringen", "Så gör du", "Historia", "Variationer", "Vanliga frågor", "Att handla"],
            "intro": [
                "Mat är mer än näring: den är vanor, minnen och gemenskap.", "Det här kapitlet handlar om {topicWord}.",
            ],
            "fact": [
                "{food} innehåller mycket fibrer och mättar länge.",
                "En varierad kost ger i regel alla vitaminer kroppen behöver.",
                "Råg har odlats i Sverige sedan järnåldern.",
                "Surdeg är en blandning av mjöl och vatten där vilda jästsvampar och mjölksyrabakterier trivs.",
                "{food} kan förvaras svalt och mörkt i flera månader.",
                "Salt och rök var länge de viktigaste sätten att göra maten hållbar.",
                "Baljväxter är ett billigt sätt att få protein.",
                "{food} {foodFact}.", "{food} {foodFact}.", "{food} {foodFact}.",
            ],
            "tip": [
                "Planera veckans middagar.", "Frys in rester i portioner.", "Använd säsongens grönsaker.",
                "Smaka av innan du saltar.", "Läs innehållsförteckningen.",
            ],
        ], common: commonSwedish,
        lists: [
            "food": ["havregryn", "rågbröd", "gula ärtor", "potatis", "kål", "äpplen"],
            "foodFact": [
                "passar bra till frukost", "kan tillagas i förväg och frysas", "innehåller mycket järn",
                "blir godare med en nypa salt", "var länge vardagsmat på landet",
                "går att odla eller baka själv", "håller länge i kylskåpet", "ger mycket mat för lite pengar",
            ],
            "topicWord": ["frukosten", "brödet", "vardagsmaten", "förrådet"],
        ], caption: "Energi och protein i några livsmedel",
        header: ["Livsmedel", "Energi (kcal/100 g)", "Protein (g/100 g)"],
        rows: [
            ["Havregryn", "370", "13"], ["Rågbröd", "240", "7"], ["Gula ärtor, kokta", "120", "8"],
            ["Potatis, kokt", "80", "2"], ["Sill, inlagd", "200", "9"], ["Ost, hård", "350", "27"],
        ])

    static let foodEnglish = make(
        [
            "title": [
                "Breakfast", "Bread", "Vegetables All Year", "Fish", "Cooking for Many", "Pulses", "Herbs and Spices",
                "Keeping Food",
            ],
            "section": ["Nutrition", "How to Do It", "History", "Variations", "Common Questions", "Shopping"],
            "intro": [
                "Food is more than nourishment: it is habit, memory and company.", "This chapter is about {topicWord}.",
            ],
            "fact": [
                "{food} are rich in fibre and keep you full for a long time.",
                "A varied diet usually provides every vitamin the body needs.",
                "Rye has been grown in Scandinavia since the Iron Age.",
                "Sourdough is a mixture of flour and water in which wild yeasts and lactic bacteria thrive.",
                "{food} keep for months in a cool, dark place.",
                "For centuries salt and smoke were the main ways of making food keep.",
                "Pulses are a cheap source of protein.",
                "{food} {foodFact}.", "{food} {foodFact}.", "{food} {foodFact}.",
            ],
            "tip": [
                "Plan the week’s dinners.", "Freeze leftovers in portions.", "Use vegetables in season.",
                "Taste before you salt.", "Read the list of ingredients.",
            ],
        ], common: commonEnglish,
        lists: [
            "food": ["oats", "rye loaves", "split peas", "potatoes", "cabbages", "apples"],
            "foodFact": [
                "make a good breakfast", "can be cooked ahead and frozen", "are rich in iron",
                "taste better with a pinch of salt", "were everyday food in the country for centuries",
                "are easy to grow or bake yourself", "keep well in the fridge", "give a lot of food for little money",
            ],
            "topicWord": ["breakfast", "bread", "everyday cooking", "the larder"],
        ], caption: "Energy and protein in some foods", header: ["Food", "Energy (kcal/100 g)", "Protein (g/100 g)"],
        rows: [
            ["Rolled oats", "370", "13"], ["Rye bread", "240", "7"], ["Split peas, boiled", "120", "8"],
            ["Potatoes, boiled", "80", "2"], ["Pickled herring", "200", "9"], ["Hard cheese", "350", "27"],
        ])

    static let historySwedish = make(
        [
            "title": [
                "Städerna växer", "Järnvägen", "Emigrationen", "Industrin", "Skolan för alla", "Kvinnornas rösträtt",
                "Folkhemmet", "Landsbygden",
            ],
            "section": ["Bakgrund", "Förloppet", "Människorna", "Följderna", "Källorna", "En tidslinje"],
            "intro": [
                "Historien handlar inte bara om kungar och krig, utan om hur vanliga människor levde.",
                "I det här kapitlet följer vi {topicWord}.",
            ],
            "fact": [
                "Mellan 1850 och 1930 emigrerade omkring 1,3 miljoner svenskar, de flesta till Nordamerika.",
                "Stambanan genom övre Norrland stod klar 1894.",
                "Folkskolan infördes 1842, och alla socknar skulle ha minst en skola.",
                "{town} växte snabbt när sågverken kom.",
                "Kvinnor fick rösta i riksdagsvalet första gången 1921.",
                "Många familjer bodde i ett rum och kök långt in på 1900-talet.",
                "{town} fick sin järnvägsstation under 1870-talet.",
                "{town} {townFact}.", "{town} {townFact}.", "Under {decade} {change}.", "Under {decade} {change}.",
            ],
            "tip": [
                "Läs gamla husförhörslängder.", "Fråga de äldsta i släkten.", "Besök hembygdsföreningen.",
                "Jämför kartor från olika tider.",
            ],
        ], common: commonSwedish,
        lists: [
            "town": ["Sundsvall", "Norrköping", "Gävle", "Borås", "Luleå", "Eskilstuna"],
            "townFact": [
                "fick stadsrättigheter redan på medeltiden", "förstördes delvis av en brand på 1880-talet",
                "hade ett av landets största sågverk", "fick elektriskt gatuljus tidigt",
                "var länge en viktig hamnstad", "växte kraftigt under efterkrigstiden",
            ],
            "decade": ["1870-talet", "1890-talet", "1920-talet", "1950-talet"],
            "change": [
                "växte städerna snabbt", "flyttade många från landsbygden", "byggdes nya skolor i nästan varje socken",
                "kom de första bilarna till landsorten", "fick de flesta hem elektricitet", "bildades många föreningar",
            ],
            "topicWord": ["städernas tillväxt", "järnvägens betydelse", "emigrationen", "vardagen"],
        ], caption: "Invånare i några städer", header: ["Stad", "Invånare 1800", "Invånare 1900"],
        rows: [
            ["Sundsvall", "1 900", "14 900"], ["Norrköping", "9 000", "41 000"], ["Gävle", "6 800", "29 500"],
            ["Borås", "2 000", "13 200"], ["Luleå", "800", "9 500"], ["Eskilstuna", "2 100", "13 700"],
        ])

    static let historyEnglish = make(
        [
            "title": [
                "The Towns Grow", "The Railway", "Emigration", "Industry", "School for All", "Votes for Women",
                "The Welfare State", "The Countryside",
            ],
            "section": ["Background", "Events", "The People", "Consequences", "The Sources", "A Timeline"],
            "intro": [
                "History is not only kings and wars, but how ordinary people lived.",
                "In this chapter we follow {topicWord}.",
            ],
            "fact": [
                "Between 1850 and 1930 about 1.3 million Swedes emigrated, most of them to North America.",
                "The main line through upper Norrland was finished in 1894.",
                "Elementary schooling became law in 1842, and every parish had to keep at least one school.",
                "{town} grew fast when the sawmills came.",
                "Women voted in a general election for the first time in 1921.",
                "Many families lived in one room and a kitchen well into the twentieth century.",
                "{town} got its railway station in the 1870s.",
                "{town} {townFact}.", "{town} {townFact}.", "In {decade} {change}.", "In {decade} {change}.",
            ],
            "tip": [
                "Read old parish registers.", "Ask the oldest people in the family.",
                "Visit the local history society.", "Compare maps from different times.",
            ],
        ], common: commonEnglish,
        lists: [
            "town": ["Sundsvall", "Norrköping", "Gävle", "Borås", "Luleå", "Eskilstuna"],
            "townFact": [
                "received its town charter in the Middle Ages", "was partly destroyed by fire in the 1880s",
                "had one of the largest sawmills in the country", "had electric street lighting early",
                "was long an important port", "grew fast after the war",
            ],
            "decade": ["the 1870s", "the 1890s", "the 1920s", "the 1950s"],
            "change": [
                "the towns grew fast", "many people left the countryside",
                "new schools were built in almost every parish", "the first cars reached the provinces",
                "most homes got electricity", "many societies were founded",
            ],
            "topicWord": ["the growth of the towns", "the railway", "emigration", "everyday life"],
        ], caption: "Population of some towns", header: ["Town", "Population 1800", "Population 1900"],
        rows: [
            ["Sundsvall", "1,900", "14,900"], ["Norrköping", "9,000", "41,000"], ["Gävle", "6,800", "29,500"],
            ["Borås", "2,000", "13,200"], ["Luleå", "800", "9,500"], ["Eskilstuna", "2,100", "13,700"],
        ])
}
