/// Fantasy: a journey, a map, an old power.
extension Phrasebook {
    static let fantasySwedish = Phrasebook(
        pools: [
            "setting": [
                "Vägen genom {realm} slingrade sig mellan {landscape}, och {weather}.",
                "Bortom {landscape} reste sig bergen, blå och orörliga som de varit sedan tidernas början.",
                "Lägerelden hade brunnit ner till glöd, och stjärnorna stod tätt över {realm}.",
                "De red genom en by där ingen hade bott på hundra år. Dörrarna stod öppna.",
                "Floden var bred och grå, och på andra stranden väntade skogen.",
                "I gryningen låg dimman i dalen som mjölk i en skål.",
            ],
            "action": [
                "{hero} vecklade ut kartan på en sten och höll ner hörnen med fyra småstenar.",
                "På kartan fanns en väg som inte borde finnas, ritad med rött bläck i en hand hon inte kände igen.",
                "{companion} gick först, med bågen redo, och sa ingenting på hela förmiddagen.",
                "{mentor} hade sagt att {powerLower} sov under berget, och att den inte skulle väckas.",
                "De fyllde vattenflaskorna vid en källa där vattnet smakade järn.",
                "{hero} kände {powerLower} som ett tryck bakom ögonen, svagt men envist.",
                "Korparna följde dem i tre dagar. Sedan försvann de, och det var värre.",
                "De betalade färjkarlen med en silverslant och en sång, och han tog dem över.",
                "I ruinerna hittade {hero} en sten med tecken som liknade dem på kartan.",
                "{companion} lagade kvällsmat av svamp och en hare, och de åt under tystnad.",
                "Ryktet sa att {foe} hade skickat ryttare över passet.",
                "{hero} lärde sig att läsa stjärnorna så som {mentor} hade visat henne, en i taget.",
                "Varje natt drömde hon om en dörr i berget, och varje natt stod den lite mer på glänt.",
                "Vid vägskälet stod en gammal milsten. Någon hade huggit bort alla namn utom ett.",
            ],
            "thought": [
                "{hero} undrade om {mentor} hade vetat hur lång vägen skulle bli.",
                "Det fanns krafter som var äldre än kungar, och {powerLower} var en av dem.",
                "Hon hade aldrig bett om att bli utvald. Ingen ber om det.",
                "Kartan ljög inte, tänkte hon. Men den sa inte heller hela sanningen.",
                "Ibland kände hon sig mycket gammal, och ibland som ett barn som gått vilse.",
            ],
            "closing": [
                "Den natten vaknade berget.",
                "När hon vecklade ut kartan igen hade den röda vägen blivit längre.",
                "Långt borta, i {realm}, tändes ett ljus i ett torn som stått mörkt i tusen år.",
                "{companion} var borta när hon vaknade. Bara kartan låg kvar.",
                "Ryttarna kom i gryningen.",
                "Och någonstans under deras fötter började {powerLower} att röra sig.",
            ],
            "exchange": [
                "Hur långt är det kvar?|Tre dagar, om passet är öppet.|Och om det inte är det?|Då är det längre.",
                "Vem ritade kartan?|Någon som var här före oss.|Och vart tog de vägen?|Det står inte på kartan.",
                """
                Du hör den också, eller hur?|Vad då?|Sången. Under marken.|Jag hör ingenting. Och det borde inte \
                du heller.
                """,
                """
                Vi kan vända.|Nej. Vi har kommit för långt.|Det är aldrig för långt för att vända.|För mig är det \
                det.
                """,
                "Vad vill {foe} med den?|Det som alla vill med makt.|Och vad vill du?|Att den får sova.",
                "Lita på mig.|Det är det jag gör.|Då går vi nu, innan det ljusnar.",
            ],
            "chat": [
                "~Sov du något i natt?|Lite.|Du talade i sömnen.|Vad sa jag?|Ett namn. Jag kände inte igen det.",
                "Sjung något.|Här? Nu?|Det är för tyst. Jag tycker inte om när det är så här tyst.",
                """
                ~Vad ska du göra när det här är över?|Gå hem.|Och om det inte finns något hem kvar?|Då bygger jag \
                ett.
                """,
            ],
            "title": [
                "Kartan", "Vägskälet", "Färjkarlen", "Korparna", "Passet", "Ruinerna", "Den röda vägen",
                "Dörren i berget", "Stjärnorna", "{realm}", "Milstenen", "Ryttarna", "Sången under jorden",
                "Glöd", "Floden", "{mentor}", "Tornet", "Det som sover",
            ],
            "note": [
                "I {realm} räknar man avstånd i dagsmarscher, inte i mil.",
                "Det gamla språket skrivs utan vokaler; den som läser det måste gissa resten.",
                "{power} nämns redan i de äldsta sångerna, men aldrig vid namn i de yngre.",
            ],
        ],
        lists: [
            "landscape": ["låga kullar", "mörka granskogar", "vida myrar", "ljungklädda hedar", "gamla stenmurar"]
        ])

    static let fantasyEnglish = Phrasebook(
        pools: [
            "setting": [
                "The road through {realm} wound between {landscape}, and {weather}.",
                """
                Beyond {landscape} rose the mountains, blue and unmoving, as they had been since the beginning of \
                things.
                """,
                "The campfire had burned down to embers, and the stars stood thick over {realm}.",
                "They rode through a village where no one had lived for a hundred years. The doors stood open.",
                "The river was wide and grey, and on the far bank the forest waited.",
                "At dawn the mist lay in the valley like milk in a bowl.",
            ],
            "action": [
                "{hero} spread the map on a rock and weighted its corners with four pebbles.",
                "On the map was a road that should not exist, drawn in red ink in a hand she did not know.",
                "{companion} went first, bow ready, and said nothing all morning.",
                "{mentor} had said that {powerLower} slept beneath the mountain, and must not be woken.",
                "They filled their flasks at a spring where the water tasted of iron.",
                "{hero} felt {powerLower} as a pressure behind her eyes, faint but stubborn.",
                "The ravens followed them for three days. Then they were gone, and that was worse.",
                "They paid the ferryman with a silver coin and a song, and he took them across.",
                "In the ruins {hero} found a stone carved with signs like those on the map.",
                "{companion} cooked mushrooms and a hare for supper, and they ate in silence.",
                "Rumour said that {foe} had sent riders over the pass.",
                "{hero} learned to read the stars as {mentor} had shown her, one at a time.",
                "Every night she dreamed of a door in the mountain, and every night it stood a little further ajar.",
                "At the crossroads stood an old milestone. Someone had chiselled away every name but one.",
            ],
            "thought": [
                "{hero} wondered whether {mentor} had known how long the road would be.",
                "There were powers older than kings, and {powerLower} was one of them.",
                "She had never asked to be chosen. No one ever does.",
                "The map did not lie, she thought. But it did not tell the whole truth either.",
                "Sometimes she felt very old, and sometimes like a child who had lost her way.",
            ],
            "closing": [
                "That night the mountain woke.",
                "When she unfolded the map again, the red road had grown longer.",
                "Far away in {realm} a light was lit in a tower that had stood dark for a thousand years.",
                "{companion} was gone when she woke. Only the map remained.",
                "The riders came at dawn.",
                "And somewhere beneath their feet {powerLower} began to stir.",
            ],
            "exchange": [
                "How much further?|Three days, if the pass is open.|And if it isn’t?|Then longer.",
                "Who drew the map?|Someone who came this way before us.|And where did they go?|The map doesn’t say.",
                """
                You hear it too, don’t you?|Hear what?|The singing. Under the ground.|I hear nothing. And neither \
                should you.
                """,
                "We could turn back.|No. We’ve come too far.|It’s never too far to turn back.|For me it is.",
                "What does {foe} want with it?|What everyone wants with power.|And what do you want?|For it to sleep.",
                "Trust me.|I do.|Then we go now, before it grows light.",
            ],
            "chat": [
                "~Did you sleep at all?|A little.|You talked in your sleep.|What did I say?|A name. I didn’t know it.",
                "Sing something.|Here? Now?|It’s too quiet. I don’t like it when it’s this quiet.",
                "~What will you do when this is over?|Go home.|And if there’s no home left?|Then I’ll build one.",
            ],
            "title": [
                "The Map", "The Crossroads", "The Ferryman", "Ravens", "The Pass", "The Ruins", "The Red Road",
                "The Door in the Mountain", "Stars", "{realm}", "The Milestone", "Riders", "The Song Underground",
                "Embers", "The River", "{mentor}", "The Tower", "What Sleeps",
            ],
            "note": [
                "In {realm} distances are counted in days’ marches, not in miles.",
                "The old tongue is written without vowels; whoever reads it must guess the rest.",
                "{power} appears in the oldest songs, but is never named in the younger ones.",
            ],
        ],
        lists: [
            "landscape": ["low hills", "dark pine forests", "wide bogs", "heather moors", "old stone walls"]
        ])
}
