/// Memoirs: a life told in the first person, in dated episodes, by stage of life.
extension Phrasebook {
    /// Stages of a life, in order; each is a pool of the same name and a chapter title.
    static let lifeStages = ["childhood", "school", "youth", "work", "love", "career", "crisis", "later"]

    static let biographySwedish = Phrasebook(
        pools: [
            "birth": [
                """
                Jag föddes {inPlace} en kall morgon i mars, som det tredje barnet i familjen. Mamma {mother} \
                arbetade på posten, och pappa {father} var snickare.
                """
            ],
            "childhood": [
                "Vi bodde i en tvåa med kök, och jag delade säng med {sibling} tills jag var sju.",
                """
                Om somrarna var vi hos mormor på landet. Där fanns kor, en jordkällare och en sjö som var kall \
                ända till midsommar.
                """,
                "Mitt första minne är ljudet av pappas hyvel i verkstaden och doften av kutterspån.",
                "Jag var ett tyst barn som läste allt jag kom över, till och med almanackan.",
                "På vintrarna åkte vi kälke i backen bakom kyrkan tills vantarna var stela av is.",
            ],
            "school": [
                "I skolan hade jag en lärarinna som hette {teacher}. Hon var den första som trodde på mig.",
                "Jag var dålig på matematik och bra på att skriva uppsatser om sådant jag aldrig hade sett.",
                "I sjuan började jag spela {instrument}, mest för att {sibling} hade slutat.",
                "Skolbiblioteket var mitt andra hem. Bibliotekarien lät mig låna fler böcker än reglerna tillät.",
            ],
            "youth": [
                "Sommaren jag fyllde sjutton tog jag tåget till Stockholm med en kartong böcker och tvåhundra kronor.",
                "Jag hyrde ett rum hos en änka på Söder som lagade sill varje fredag.",
                "Det var {mentorName} som gav mig mitt första riktiga arbete, och det har jag aldrig glömt.",
                "Vi satt uppe om nätterna och talade om allt som skulle förändras. En del av det gjorde det.",
            ],
            "work": [
                """
                Jag arbetade på {workplace} i fyra år. Dagarna var långa, och jag lärde mig mer än på något \
                universitet.
                """,
                "Pengarna räckte sällan till hyran, men det gjorde ingenting. Vi var unga.",
                "Min chef sa en gång att jag var den envisaste människa han hade träffat. Jag tog det som beröm.",
            ],
            "love": [
                "Jag träffade {spouse} på en fest där ingen av oss kände någon annan.",
                "Vi gifte oss {inPlace} en regnig lördag, med trettio gäster och för lite tårta.",
                "Det första året bodde vi i en etta där man kunde laga mat och ligga i sängen på samma gång.",
            ],
            "career": [
                "Det verkliga genombrottet kom sent, och det kom när jag nästan hade gett upp.",
                "Jag reste mycket under de åren, kanske för mycket.",
                "Plötsligt ville alla tala med mig, och jag visste inte vad jag skulle säga.",
                "Jag lärde mig att framgång är ett slags buller. Det går över, och sedan hör man sig själv igen.",
            ],
            "crisis": [
                "Det finns år som man inte minns, och år som man inte vill minnas.",
                "När pappa dog satt jag hos honom hela den sista natten. Han höll min hand och talade om verkstaden.",
                "Jag sov dåligt och arbetade för mycket, och {spouse} sa det ingen annan vågade säga.",
            ],
            "later": [
                "I dag bor jag {inPlace} igen, i ett hus med utsikt över vattnet.",
                "Jag skriver på morgnarna och går långa promenader på eftermiddagarna.",
                "Om jag fick säga något till den jag var då skulle det vara: var inte så rädd.",
                "Barnbarnen frågar ibland hur det var förr. Jag försöker svara ärligt.",
            ],
            "memory": [
                "Jag minns det som om det var i går.",
                "Det är lätt att i efterhand se ett mönster, men då såg jag bara nästa dag.",
                "{sibling} påminner mig fortfarande om det, varje jul.",
                "Mamma sparade alla mina brev. Jag har dem i en skokartong på vinden.",
                "Jag har ofta tänkt på det sedan dess.",
                "Kanske var det då allt började, fast jag inte förstod det.",
                "{person} brukade säga att {saying}.", "Jag minns särskilt {detail}.",
            ],
            "episode": [
                "{bioWhen} {lifeEvent}.", "{bioWhen} {lifeEvent}.", "{bioWhen} {lifeEvent}.",
                "{bioWhen} {lifeEvent}. Det hade jag inte väntat mig.",
                "{bioWhen} {lifeEvent}, och ingenting blev riktigt som förut.",
            ],
            "person": ["mamma", "pappa", "{sibling}", "{teacher}", "{spouse}", "mormor"],
            "recall": [
                "Som jag berättade i {backLink} hade jag alltid haft svårt att sitta still.",
                "Det var samma envishet som jag skrev om i {backLink}.",
            ],
            "title": [
                "Barndomen {inPlace}", "Skolåren", "Att resa hemifrån", "Första arbetet", "Kärleken", "Genombrottet",
                "De mörka åren", "Hemkomsten",
            ],
            "note": [
                "{mentorName} (1921–1998) var under många år en av de mest inflytelserika personerna i branschen.",
                "Huset finns kvar än i dag, men verkstaden är riven.",
                "Brevet finns bevarat i familjens arkiv.",
            ],
        ],
        lists: [
            "instrument": ["piano", "fiol", "trumpet", "gitarr"],
            "workplace": ["en tidningsredaktion", "ett tryckeri", "ett sjukhus", "ett bokförlag", "en skola"],
            "seasonName": ["Våren", "Sommaren", "Hösten", "Vintern"],
            "bioWhen": [
                "Den våren", "Samma år", "Några månader senare", "Det året", "Kort därefter", "I september",
                "Strax före jul", "Samma sommar",
            ],
            "lifeEvent": [
                "flyttade vi till en större lägenhet", "reste jag för första gången utomlands",
                "köpte vi en begagnad Volvo",
                "dog vår hund Tussan", "lärde jag mig simma i sjön", "brann grannens lada ner",
                "vann jag en uppsatstävling",
                "började jag skriva dagbok", "gick jag med i en teatergrupp", "var jag nära att ge upp",
                "fick vi telefon",
                "bytte jag arbete", "flyttade {sibling} hemifrån", "blev mamma sjuk",
                "fick jag ett brev som ändrade allt",
            ],
            "saying": [
                "man inte ska ropa hej förrän man är över bäcken", "det ordnar sig alltid till slut",
                "den som väntar på något gott aldrig väntar för länge",
                "man bara ångrar det man inte gjorde", "ett ärligt arbete aldrig är något att skämmas för",
            ],
            "detail": [
                "lukten av nybakat bröd på lördagarna", "ljudet av regn på plåttaket",
                "radions nyhetssändningar klockan sju",
                "den kalla linoleummattan i köket", "doften av tjära och hav",
                "de långa kvällarna med kortspel i köket",
            ],
        ])

    static let biographyEnglish = Phrasebook(
        pools: [
            "birth": [
                """
                I was born in {place} on a cold March morning, the third child of the family. My mother, \
                {mother}, worked at the post office, and my father, {father}, was a carpenter.
                """
            ],
            "childhood": [
                "We lived in two rooms and a kitchen, and I shared a bed with {sibling} until I was seven.",
                """
                In summer we stayed with my grandmother in the country. There were cows, a root cellar and a lake \
                that was cold until midsummer.
                """,
                "My first memory is the sound of my father’s plane in the workshop and the smell of wood shavings.",
                "I was a quiet child who read everything I could find, even the almanac.",
                "In winter we sledged on the hill behind the church until our mittens were stiff with ice.",
            ],
            "school": [
                "At school I had a teacher called {teacher}. She was the first person who believed in me.",
                "I was bad at arithmetic and good at writing essays about things I had never seen.",
                "At thirteen I took up the {instrument}, mostly because {sibling} had given it up.",
                "The school library was my second home. The librarian let me borrow more books than the rules allowed.",
            ],
            "youth": [
                "The summer I turned seventeen I took the train to the city with a box of books and very little money.",
                "I rented a room from a widow who cooked herring every Friday.",
                "It was {mentorName} who gave me my first real job, and I have never forgotten it.",
                "We sat up at night talking about everything that was going to change. Some of it did.",
            ],
            "work": [
                """
                I worked at {workplace} for four years. The days were long, and I learned more than any \
                university could have taught me.
                """,
                "The money seldom covered the rent, but it did not matter. We were young.",
                "My employer once said I was the most stubborn person he had ever met. I took it as praise.",
            ],
            "love": [
                "I met {spouse} at a party where neither of us knew anyone else.",
                "We were married in {place} on a rainy Saturday, with thirty guests and too little cake.",
                "The first year we lived in a single room where you could cook and lie in bed at the same time.",
            ],
            "career": [
                "The real breakthrough came late, and it came when I had almost given up.",
                "I travelled a great deal in those years, perhaps too much.",
                "Suddenly everyone wanted to talk to me, and I did not know what to say.",
                "I learned that success is a kind of noise. It passes, and then you can hear yourself again.",
            ],
            "crisis": [
                "There are years one does not remember, and years one would rather not.",
                """
                When my father died I sat with him through the last night. He held my hand and talked about the \
                workshop.
                """,
                "I slept badly and worked too hard, and {spouse} said what no one else dared to say.",
            ],
            "later": [
                "Today I live in {place} again, in a house that looks out over the water.",
                "I write in the mornings and take long walks in the afternoons.",
                "If I could say one thing to the person I was then, it would be: do not be so afraid.",
                "My grandchildren sometimes ask what it was like before. I try to answer honestly.",
            ],
            "memory": [
                "I remember it as if it were yesterday.",
                "It is easy to see a pattern afterwards, but at the time I saw only the next day.",
                "{sibling} still reminds me of it, every Christmas.",
                "My mother kept all my letters. I have them in a shoebox in the attic.",
                "I have often thought about it since.",
                "Perhaps that was where it all began, though I did not know it.",
                "{person} used to say that {saying}.", "I remember especially {detail}.",
            ],
            "episode": [
                "{bioWhen} {lifeEvent}.", "{bioWhen} {lifeEvent}.", "{bioWhen} {lifeEvent}.",
                "{bioWhen} {lifeEvent}. I had not expected that.",
                "{bioWhen} {lifeEvent}, and nothing was quite the same again.",
            ],
            "person": ["My mother", "My father", "{sibling}", "{teacher}", "{spouse}", "My grandmother"],
            "recall": [
                "As I told in {backLink}, I had always found it hard to sit still.",
                "It was the same stubbornness I wrote about in {backLink}.",
            ],
            "title": [
                "A Childhood in {place}", "School Years", "Leaving Home", "First Work", "Love", "The Breakthrough",
                "The Dark Years", "Coming Home",
            ],
            "note": [
                "{mentorName} (1921–1998) was for many years one of the most influential figures in the trade.",
                "The house still stands, but the workshop has been pulled down.",
                "The letter survives in the family papers.",
            ],
        ],
        lists: [
            "instrument": ["piano", "violin", "trumpet", "guitar"],
            "workplace": ["a newspaper", "a printing works", "a hospital", "a publishing house", "a school"],
            "seasonName": ["Spring", "Summer", "Autumn", "Winter"],
            "bioWhen": [
                "That spring", "The same year", "A few months later", "That year", "Soon afterwards", "In September",
                "Just before Christmas", "That summer",
            ],
            "lifeEvent": [
                "we moved to a bigger flat", "I went abroad for the first time", "we bought a second-hand car",
                "our dog died", "I learned to swim in the lake", "the neighbours’ barn burned down",
                "I won an essay prize",
                "I began to keep a diary", "I joined a theatre group", "I came close to giving up",
                "we had a telephone put in",
                "I changed jobs", "{sibling} left home", "my mother fell ill",
                "I received a letter that changed everything",
            ],
            "saying": [
                "you should not count your chickens before they hatch", "things always work out in the end",
                "good things come to those who wait",
                "you only regret what you did not do", "honest work is nothing to be ashamed of",
            ],
            "detail": [
                "the smell of fresh bread on Saturdays", "the sound of rain on the tin roof",
                "the seven o’clock news on the wireless",
                "the cold linoleum in the kitchen", "the smell of tar and the sea",
                "the long evenings of cards in the kitchen",
            ],
        ])
}
