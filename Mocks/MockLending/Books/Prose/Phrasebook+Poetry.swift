/// Poems: short lines of nature, love and loss, set in stanzas.
extension Phrasebook {
    static let poetrySwedish = Phrasebook(
        pools: [
            "line": [
                "snön faller över {place}", "och ingen ser", "ljuset dröjer kvar i {thing}",
                "jag bär din röst som en sten i fickan",
                "{season} kommer utan att fråga", "vattnet minns allt", "i natt är himlen nära",
                "vi gick här en gång, du och jag",
                "fåglarna drar söderut", "det finns ett ord för detta, men jag har glömt det", "{hero}, hör du havet?",
                "under isen rör sig något levande", "björkarna står vita som ljus", "allt som var är fortfarande här",
                "din hand i min, och mörkret", "morgonen öppnar sig som en dörr", "i fönstret en lampa, en enda",
                "jag räknar stegen hem", "vinden har ditt namn", "gräset reser sig efter regnet",
                "tystnaden är också ett svar",
                "jag lägger orden i rad som ved", "det är sent, och tranorna ropar", "{thing} glänser i skymningen",
                "vi var unga och trodde på sommaren", "någon går över isen i natt", "ett äpple faller, sedan ett till",
            ],
            "poemTitle": [
                "Vinter", "Till {hero}", "Vid vattnet", "Mars", "Sorgen", "Fåglar", "En kväll {inPlace}", "Ljuset",
                "Natt",
                "Kärlek", "Björkar", "Efteråt", "Tranorna", "Ved", "Oktober", "Isen", "Hemväg",
            ],
            "section": ["Vinter", "Vatten", "Ljus", "Minnen", "Kärlek", "Fåglar", "Sorg", "Sommar", "Hemåt"],
            "note": [
                "Tranorna rastar vid Hornborgasjön varje vår, ofta tiotusentals på en gång.",
                "Dikten skrevs {inPlace} en vinter då isen aldrig lade sig.",
            ],
        ],
        lists: [
            "thing": ["bryggan", "köksfönstret", "gamla fotografier", "glaset", "din hand", "vattnet"]
        ])

    static let poetryEnglish = Phrasebook(
        pools: [
            "line": [
                "snow falls over {place}", "and no one sees", "the light lingers in {thing}",
                "I carry your voice like a stone in my pocket",
                "{season} comes without asking", "the water remembers everything", "tonight the sky is close",
                "we walked here once, you and I",
                "the birds are going south", "there is a word for this, but I have forgotten it",
                "{hero}, can you hear the sea?",
                "under the ice something living moves", "the birches stand white as candles",
                "all that was is still here",
                "your hand in mine, and the dark", "morning opens like a door", "in the window a lamp, just one",
                "I count the steps home", "the wind has your name", "the grass stands up again after rain",
                "silence is an answer too",
                "I stack the words like firewood", "it is late, and the cranes are calling",
                "{thing} shines in the dusk",
                "we were young and believed in summer", "someone is crossing the ice tonight",
                "an apple falls, then another",
            ],
            "poemTitle": [
                "Winter", "For {hero}", "By the Water", "March", "Grief", "Birds", "An Evening in {place}", "Light",
                "Night",
                "Love", "Birches", "Afterwards", "The Cranes", "Firewood", "October", "Ice", "The Way Home",
            ],
            "section": ["Winter", "Water", "Light", "Memories", "Love", "Birds", "Grief", "Summer", "Homeward"],
            "note": [
                "Cranes rest at the same lakes every spring, often tens of thousands at once.",
                "The poem was written in {place} one winter when the ice never came.",
            ],
        ],
        lists: [
            "thing": ["the jetty", "the kitchen window", "old photographs", "the glass", "your hand", "the water"]
        ])
}
