/// Children's books: short sentences, an animal, a friendship.
extension Phrasebook {
    static let childrenSwedish = Phrasebook(
        pools: [
            "setting": [
                "Det var morgon i skogen.", "Solen sken.", "Det regnade på taket. Dropp, dropp, dropp.",
                "Det var vinter. Allt var vitt.", "I skogen bakom huset bodde {animalIndef}.",
                "Det var sommar och varmt.",
                "Vinden blåste i träden.", "Det var kväll. Månen var rund och gul.",
            ],
            "action": [
                "{hero} tog på sig stövlarna.", "{animal} sprang före.", "De hittade en stor pinne.",
                "{hero} och {animal} byggde en koja.", "{animal} var hungrig.", "De delade på en smörgås.",
                "{friend} kom också.", "Sedan gick de till bäcken.", "Där var det blött och roligt.",
                "{animal} hoppade i en vattenpöl. Plask!", "{hero} skrattade högt.", "De räknade stenar. Det var sju.",
                "En fjäril flög förbi.", "{animal} gömde sig bakom ett träd.", "{hero} letade och letade.",
                "Där! Bakom trädet!", "De gick hem när det blev mörkt.", "Mamma hade kokat kakao.",
                "{animal} hade en liten röd mössa.", "De gungade tills det pirrade i magen.",
            ],
            "thought": [
                "{hero} tyckte om {animal}. Mycket.", "Det är bra att ha en vän, tänkte {hero}.",
                "{animal} var lite rädd. Men bara lite.", "Vänner hjälper varandra.",
            ],
            "closing": [
                "Sedan sov de. God natt, {animal}. God natt, {hero}.", "I morgon skulle de leka igen.",
                "Och {animal} somnade med nosen under svansen.", "Det var en bra dag.",
            ],
            "exchange": [
                "Vill du leka?|Ja!|Vad ska vi leka?|Kurragömma!",
                "Är du rädd?|Lite.|Jag håller dig i handen.|Då är jag inte rädd.",
                "Titta, en mask!|Var?|Där, i gräset!|Vad liten den är.",
                "~Är du hungrig?|Jättehungrig!|Vi delar.|Tack!",
                "Var bor du?|I ett hål under granen.|Får jag hälsa på?|Ja, om du är försiktig.",
            ],
            "title": [
                "{animal}", "Kojan", "Vattenpölen", "Kurragömma", "Kakao", "I skogen", "Regnet", "En ny vän",
                "Stenarna", "Bäcken", "Snön", "Godnatt", "Fjärilen", "Matsäcken", "Gungan",
            ],
            "note": [
                "Kurragömma är en lek där en letar och de andra gömmer sig.",
                "En koja kan man bygga av pinnar, filtar eller stora kartonger.",
            ],
            "caption": ["{hero} och {animal} hemma.", "Huset där {hero} bor.", "Här bor {hero}."],
        ],
        lists: [:])

    static let childrenEnglish = Phrasebook(
        pools: [
            "setting": [
                "It was morning in the woods.", "The sun was shining.", "Rain fell on the roof. Drip, drip, drip.",
                "It was winter. Everything was white.", "In the woods behind the house lived {animalIndef}.",
                "It was summer and warm.",
                "The wind blew in the trees.", "It was evening. The moon was round and yellow.",
            ],
            "action": [
                "{hero} put on her boots.", "{animal} ran ahead.", "They found a big stick.",
                "{hero} and {animal} built a den.", "{animal} was hungry.", "They shared a sandwich.",
                "{friend} came too.", "Then they went down to the stream.", "It was wet there, and fun.",
                "{animal} jumped in a puddle. Splash!", "{hero} laughed out loud.",
                "They counted stones. There were seven.",
                "A butterfly flew past.", "{animal} hid behind a tree.", "{hero} looked and looked.",
                "There! Behind the tree!", "They went home when it got dark.", "Mum had made cocoa.",
                "{animal} had a little red hat.", "They swung until their tummies tickled.",
            ],
            "thought": [
                "{hero} liked {animal}. A lot.", "It is good to have a friend, thought {hero}.",
                "{animal} was a little scared. But only a little.", "Friends help each other.",
            ],
            "closing": [
                "Then they slept. Good night, {animal}. Good night, {hero}.", "Tomorrow they would play again.",
                "And {animal} fell asleep with a nose tucked under a tail.", "It was a good day.",
            ],
            "exchange": [
                "Do you want to play?|Yes!|What shall we play?|Hide and seek!",
                "Are you scared?|A little.|I’ll hold your hand.|Then I’m not scared.",
                "Look, a worm!|Where?|There, in the grass!|How small it is.",
                "~Are you hungry?|Very hungry!|We’ll share.|Thank you!",
                "Where do you live?|In a hole under the fir tree.|May I visit?|Yes, if you are careful.",
            ],
            "title": [
                "{animal}", "The Den", "The Puddle", "Hide and Seek", "Cocoa", "In the Woods", "Rain", "A New Friend",
                "Stones", "The Stream", "Snow", "Good Night", "The Butterfly", "The Picnic", "The Swing",
            ],
            "note": [
                "Hide and seek is a game where one looks and the others hide.",
                "You can build a den from sticks, blankets or big cardboard boxes.",
            ],
            "caption": [
                "{hero} and {animal} at home.", "The house where {hero} lives.", "This is where {hero} lives.",
            ],
        ],
        lists: [:])
}
