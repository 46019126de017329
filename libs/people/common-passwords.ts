/**
 * Common passwords, lowercased, separated by white space, in the order of how often they occur: the
 * 4,000 most common of six characters or more and every one of twelve or more, of the 49,233 in
 * @zxcvbn-ts/language-common 4.1.3 (src/passwords.json, MIT; itself from the xato.net 10 million
 * passwords set). Generated once and shipped as source so the build carries it; no runtime dependency.
 */
export const COMMON_PASSWORDS_TEXT = `
123456 password 12345678 qwerty 123456789 111111 1234567 dragon 123123 baseball abc123 football monkey letmein
shadow master 696969 michael mustang 666666 qwertyuiop 123321 1234567890 superman 1qaz2wsx 7777777 fuckyou
jordan qazwsx jennifer 123qwe 000000 killer trustno1 hunter harley zxcvbnm asdfgh buster andrew batman soccer
tigger charlie robert sunshine thomas iloveyou fuckme ranger daniel hockey george computer michelle jessica
starwars asshole pepper klaster 112233 zxcvbn freedom princess joshua maggie ginger 11111111 131313 amanda
ashley cheese 159753 nicole summer matthew chelsea dallas biteme matrix william yankees taylor corvette austin
access martin heather thunder merlin secret diamond anthony hammer fucker 1234qwer silver gfhjkm justin
patrick richard bailey internet samantha golfer scooter orange cookie q1w2e3r4t5 maverick jackson sparky
mickey phoenix bigdog snoopy guitar whatever chicken morgan andrea camaro mercedes peanut ferrari cowboy
falcon welcome samsung steelers joseph smokey dakota melissa arsenal boomer eagles tigers marina nascar booboo
gateway porsche yellow monster spider diablo hannah bulldog junior london purple compaq lakers iceman qwer1234
hardcore cowboys banana ncc1701 boston brandon tennis johnny miller q1w2e3r4 coffee scooby 123654 edward
nikita mother yamaha brandy barney chester fuckoff oliver charles player knight forever steven rangers
midnight chicago bigdaddy redsox victoria badboy please fender jasper slayer rabbit natasha rachel bigdick
marine wizard marlboro raiders prince casper fishing flower crystal jasmine panties iwantu adidas winner
winter gandalf password1 ghbdtn 1q2w3e4r angela golden lauren cocacola jordan23 winston madison angels blowme
panther sexsex bigtits spanky shannon sophie johnson asdfasdf thx1138 toyota murphy canada danielle 12344321
blowjob 8675309 jonathan liverpoo muffin cooper apples jackie dennis qwerty123 passw0rd abcd1234 sandra
pokemon 123abc slipknot carlos qazxsw 123456a scorpion qwaszx nathan butter startrek rainbow asdfghjkl
redskins newyork gemini cameron qazwsxedc florida liverpool turtle nicholas viking booger wilson sierra
butthead doctor rocket 159357 victor dolphins captain bandit jaguar packers pookie peaches 789456 dolphin
helpme tucker theman tiffany maxwell jeremy qwertyui shithead debbie albert maddog lovers monica united giants
nirvana metallic hotdog rosebud mountain benjamin warrior stupid elephant suckit success bond007 jackass
bonnie alexis scorpio samson q1w2e3 rush2112 azerty freddy driver willie calvin 1q2w3e4r5t sydney gators
dexter red123 12345a 123456q creative voodoo arthur trouble america nissan gunner rebecca stella garfield
gordon jessie bullshit parker asdfghjk fucking apollo 1qazxsw2 eminem december legend airborne beavis august
brooklyn godzilla skippy 4815162342 kitten shelby beaver phantom nothing asdasd williams xavier braves
darkness blink182 travis copper tomcat platinum qweqwe 01012011 bigboy 102030 animal police 11223344 online
voyager lifehack 12qwaszx sniper 315475 trinity walter blazer heaven snowball playboy bubbles loveme hooters
cricket marvin willow donkey topgun nintendo saturn family november gabriel destiny pakistan pumpkin digital
sergey chance explorer redwings private therock runner 789456123 lasvegas guinness beatles cassie christin
qwerty1 asdf1234 celtic broncos andrey 007007 babygirl nelson donald eclipse cartman fluffy louise michigan
testing carolina little samuel alexande birdie cherry pantera sharon gibson vampire mexico dickhead buffalo
montana genius flyers maximus school minecraft lovely stalker metallica doggie carter kristina kimberly
spencer speedy barbara snickers sabrina carmen marcus bronco yankee friends paradise lol123 dreams magnum
horses caroline 147258369 lacrosse goober member qwertyu enigma scotty pimpin bollocks surfer genesis poohbear
asd123 qweasdzxc racing friend hello1 hawaii eagle1 october vanessa poopoo einstein boobies stanley 12345q
walker bitches drowssap stephen courtney simple alaska badger action denise jester 111222 spitfire drummer
forest patricia maryjane champion diesel svetlana friday gregory pamela hotrod 147258 anderson lucky1 douglas
westside security google badass shorty tester thumper hitman mozart general reddog zaq12wsx 010203 lizard
alexander melanie a123456 ruslan 123456789a vincent 1232323q teresa scarface 147852 qwerty12 a12345 marshall
olivia veronica buddha spirit frankie money1 stargate antonio liberty natalie mercury naruto qwe123 12345qwert
suzuki semperfi popcorn spooky marley system brittany claudia scotland cherokee vikings simpsons leslie rascal
qweasd loveyou hummer michael1 allison patches russia adrian jupiter penguin cumshot howard passion vfhbyf
vladimir franklin sandman 123789 infinity bastard raider passport assman sucker fantasy bulldogs 1234554321
horney domino budlight ironman disney norman usuckballz1 softball bishop francis brutus redrum brooke bigred
jeffrey fktrcfylh karina marines kawasaki digger ireland oksana fireman cougar college alicia russell houston
monday bradley nigger justice wildcats tinker duncan dancer logitech avalon swordfis everton reggie motorola
alexandr timothy hentai pussy1 claire patriots madonna colorado eugene ducati kermit juventus indian connor
galore freeuser smooth titanic boogie simpson warcraft wolverin elizabet arizona saints valentin georgia
test123 accord baxter denver mitchell christ password123 yfnfif stinky zachary roland naughty ncc1701d
spiderma chopper brenda hello123 extreme virginia skyline zombie pearljam froggy pirate fylhtq vision
123qweasd awesome alyssa dreamer predator bullet empire charlie1 kirill 123123a people panthers skipper
nemesis peekaboo rasdzv3 alison rolltide american cardinal arnold chevelle psycho happy1 danger mookie wanker
manutd 9379992 hobbes vegeta goblue 852456 burton fyfcnfcbz picard 159951 windows loverboy lovelove vfrcbv
victory 123654789 bambam turkey serega tweety hiphop galina changeme rooster polina berlin suckme taurus
electric ronald avatar 134679 raptor alpha1 maksim spring brazil bigcock newport kenneth hendrix madmax
england a1b2c3 sublime britney france darkside bigman hercules lawrence wolfpack classic letmein1 lincoln
ronaldo 741852963 spiderman 1q2w3e blizzard cheyenne 123456789q wombat bubba1 tiger1 cjkysirj raymond brother
kristen pandora devils zxc123 simone holiday wildcat kramer 147852369 buddy1 sterling caesar alabama carrie
bondage basketball sports pussycat pickle catch22 leather shaggy a1b2c3d4 chronic flowers qaz123 qqq111 robbie
gracie freepass airplane perfect kodiak billybob katana sunset stingray snowman angel1 chocolat zeppelin
garcia detroit wolves pontiac firebird vagina gundam panzer outlaw pretty fisher connie business trevor
redhead hardon greenday tarheels 01011980 nastya hellfire engineer dragon1 savage service serenity michele
lickme fireball 1029384756 remember darkstar miranda mustang1 124578 harvey strike freddie pavilion beauty
bobafett 01012000 dbrnjhbz bigmac chris1 clinton bowling natali future harrison wallace welcome1 swimming
apache pyramid dodgers whynot fuckit defender morris trooper 135790 cancer precious packard lucifer popeye
weasel 142536 icecream stewart tanner swordfish blonde presario rockstar viktor manager cheryl norton james1
control wutang airforce julian atlanta thailand looking casino 741852 21122112 lennon 456123 bluebird theone
hawkeye hacker dustin elaine nfnmzyf sailor catfish goldfish maxima tattoo barbie design pervert machine
herman wrangler trucks nipples roscoe tornado lights bubble cadillac 666999 madman orlando pegasus target
longhorn philip browns stefan cannon dilbert baller microsoft winnie christia qazwsx123 shooter xfiles qazqaz
lesbian street seattle corona amateur cthutq prelude 246810 malibu freaky assassin integra atlantis
123qweasdzxc pussies dragons iloveu monkey1 unicorn lonewolf regina 753951 stealth kristin peewee openup
bobcat stacey software newton leonardo student srinivas angelina valentina trigger zaqwsx lolita athena
shotgun coyote bruins veronika dollar country rocky1 babydoll lestat wordpass hottie smiley potter random
sweety butterfly chipper samurai maddie devildog valerie mistress flipper freedom1 express powers soso123aljg
cessna teacher goldie polaris piglet cookies montreal hjvfirf ladies wolfgang fatboy scully father single
wicked fetish foobar castle tickle transam dfvgbh 31415926 oicu812 impala sunday hotstuff ronnie jasmin gambit
toshiba basketba lancer birthday stephani jessica1 hooker knicks 314159 roberto stinger testtest fuckyou2
kathleen savannah shamrock benson squirt deftones trucker redneck goldberg alfred blaster siemens shelly
renegade manson subaru ibanez blondie hamilton swinger reaper cristina minnie mylove galaxy lindsay dudley
farmer gloria special blahblah enterpri 1234abcd travel babylon5 bigone sweetpea skeeter fucked indiana ficken
trfnthbyf master1 freeman curtis smitty marino joanne bigfoot escort larisa trumpet tristan spartan babylon
asdfghj sister valera stormy paladin andreas cavalier marathon hamlet aardvark butterfl bigboobs mister
manchester yankees1 napoleon indigo hornet skater jerome pierre wonder toronto indians karate buckeyes
01011990 hesoyam fredfred charger highland sweetie holland 1qaz2wsx3edc chiefs diamonds buckeye aurora hotsex
campbell griffin brandi redman passwor chandler drpepper monika maiden elizabeth leonard bernie pornstar
garden autumn 12345678910 thuglife millie jungle pencil tomtom insane timber jesus1 sherlock mariah audrey
david1 1a2b3c hamster aragorn pioneer techno catdog lollol triumph sidney 141627 321654 fktrctq sophia
morpheus island wetpussy hobbit blabla erotic shadow1 pascal sampson consumer justme marion stones chrissy
nadine goforit burger pitbull kelsey adgjmptw spartak german kissme hunting kaiser martha colors artist harold
italia sammie barcelona nicolas virgin pebbles sundance isabella overlord emerald callie racecar isabelle
germany 1478963 goddess change wesley nipple basket joejoe poison zipper alpine shirley element huskers marcel
christy pussys sakura chichi inside ultimate nicola ncc1701e blackie q12345 watson rommel matthew1 geronimo
caserta trojan 123qwe123 philips sergio nugget sammy1 tarzan bassman warren trixie chicks aleksandr webster
sherry manuel portugal dodger anakin bobbob bomber michel madness superfly q1w2e3r4t5y6 123asd florence yvonne
fatcat global ybrbnf energy desire wrinkle1 soldier bianca sexual warlock martina 951753 11235813 51505150
andrei seminole alejandr westham concrete access14 harris margaret hector christop ladybug letmein2 network
bernard tintin qazxswedc trombone pleasure rhbcnbyf history bluesky sherman january onelove cotton christian
cdtnkfyf archie holden brianna vfvjxrf titans stallion lindsey singer hansolo angelo joanna natalia beagle
phillip panama smiles blue22 qawsed inferno mongoose connect kingkong snatch flatron sex4me bluemoon rocker
personal blessed snakes dominic forget finger beetle jamaica alberto a1234567 mulder fuckyou1 immortal passat
plastic 123454321 dietcoke spunky anthony1 whiskey monitor giovanni cactus ripper spyder markus planet magic1
patton exigen sticky waters nolimit daniela hollywoo abigail apple1 morrison katrina trunks 1234321 assass
always deedee 14789632 clifford mission pickles million sailing holmes bonehead fernando ghbdtnbr 112358
911911 charlott yomama darren rubber newman molly1 1123581321 faster cumming bertha memphis sylvia ilovesex
maurice william1 hongkong jumper unreal geheim rodney nylons sebastia pentium legion shalom kennedy 555666
brooks graham sprite curious pacific loulou funtime philly ferret niners werewolf milton cantona kingdom
africa office boeing gilbert abgrtyu pirates super123 sheila french sweets cooldude palmer eternity lollipop
tottenha green1 stocking monique anything foster jackoff 7895123 biscuit drizzt camera columbia fossil moomoo
makaveli tracey colt45 robinson isabel martini salmon shasta jersey verbatim maniac snapper satan666 solomon
patriot standard shaved blackcat asdzxc punkrock raistlin infantry qwerty12345 dillon gerald twister ricardo
waterloo cjkywt clayton crimson serena 01012010 oxford maxmax flight condor seinfeld silvia biggie maxine
musicman ravens colleen wolfman sharks megadeth cosmos velvet keeper foxtrot garrett black1 damien sesame
skywalke gn56gn56 banshee squirrel wolverine sunrise western grendel roxanne privet legolas marlin herbert
lvbnhbq qazwsxed carrot blades frosty stardust 121314 helena brownie groovy butler coolio twilight daytona
licker peanuts intrepid pikachu trains mollie vanhalen jericho hershey strider lobster punisher zaq123 bottom
1234567a murray kansas shogun goblin search neptune showtime darwin amadeus suzanne fuckfuck seven7 jason1
111222333 oldman showme getsome muscle obiwan support rfrfirf skittles ekaterina whitney maestro tanker
english tarheel fighter thanks blue123 hannibal capital newlife anubis gothic sabine thunder1 preston princes
brendan 123456z evelyn python richie tequila chelsea1 clover delete mirage surfing 1q2w3e4r5t6y bentley
portland potato baggins review porter chubby panasonic sandiego sooners derrick penelope blackdog harmony
fusion mature malcolm buttons 1a2b3c4d californ safety playtime dagger moscow swallow warriors byteme stimpy
gangster christine turner iverson lester chargers liquid asdf123 mushroom cracker dingdong lucky7 nymets
456852 bigguy mobile tazman nimrod newpass crusader bugger stranger dkflbvbh anastasia volume masters monroe
miguel doodle collins powder archer gotcha battle dublin slapshot guardian 147896325 janice charly septembe
photos knights woody1 angelica nookie milano pepsi1 scarlett stuart damian grizzly 123098 123321123 camille
scruffy brasil latino kittycat poopie munchkin lorenzo rammstein 1passwor bananas barcelon santiago thegame
robert1 gerard picasso viper1 walnut kolobok blackman wisdom trance starcraft parrot quality auburn goodluck
eatshit dorothy engine coltrane gorilla wheels katerina tamara postal fuck_inside luther ranger1 pass123
cassidy discover oakland andrew1 spanking osiris dumbass shaney14 192837465 lonestar bridge bender stonecol
dookie meridian megaman heather1 25802580 racerx rjntyjr sirius firefly richard1 alexandra madrid griffey
phoebe zaq1xsw2 weezer beautiful violet ledzep lowrider gangsta ghjcnj paradox tacobell 123698745 loving
catalina vertigo halflife carson sergei shiloh johnjohn sobaka buffett aliens chucky bonjour kangaroo thompson
sinner socrates soccer1 keyboard 0.0.000 stevie trebor finish sprint shazam national celica sarah1 scarlet
formula1 hoover sommer frances hotboy cynthia qwerasdf 12369874 penguins formula rebels fuckface elwood melvin
honda1 vacation ragnarok bollox lexmark asshole1 mailcreated5240 lorraine 258456 claude rockon dodgeram tacoma
wookie prodigy tempest vfhecz flames sebastian colombia kitkat oblivion mystery sithlord server molson
mustangs incubus smoker 123qaz window scoobydo rescue bigballs zxcv1234 carpet titleist richmond director
lawyer magnolia celeste melinda wright jimbob golfing bobbie xanadu tardis blueeyes hearts pussy69 pooper
shaman mersedes 102938 12312312 springer imagine janine patrick1 kenwood 123zxc garbage martinez topper
cowboys1 roberts lizzie ashton elliott oracle sheena nuttertools mallard 123987 1122334455 analsex shemale
gateway1 asterix monkeys imperial cooler grateful gillian peterpan kingston yourmom sleepy gremlin printer
hudson pa55word freckles birdman frank1 aussie esther defiant margarita 445566 deadhead tatyana jackal frogger
bridget research tobias mariners rootbeer blondes donnie katrin weather aspirine frederic parola children
account israel stephanie shaolin noodles celine willis forgot scooter1 thomas1 11112222 rogers palace santos
ohyeah magnus laurie creampie amazon kisses ludwig fatass plymouth justdoit assfuck nellie 1234567q 987456
6751520 putter broken nopass letsgo harley1 tatiana champs lightnin massive camelot deanna gizmodo spidey
caliente aezakmi 456654 goodtime mypass roller catherin active payton lonely redalert brucelee smokin porkchop
astros aquarius raiders1 thankyou kevin1 atomic fletcher shopping a1s2d3f4 rusty1 marian vanilla hunter1
unknown sapphire temple qwert123 marvel beckham qazwsxedcrfv kaktus 753159 myself sooner blacky elvis1
hastings buster1 power1 blackjac aggies scream picture 123321q judith iforgot kasper cxfcnmt bangkok 01012001
shitty spectrum eduard jammer painter primus veritas ernest kristi chevrole amber1 amsterdam slappy valley
horny1 hitler clancy spankme granny avenger sasha1 usa123 diamond1 rosemary husker candyman beatrice scrappy
john316 falcons front242 harder atlantic labrador 123456qwerty smudge syracuse southern melody elijah center
darling throat fatman krishna sanchez pancho pacman commando delta1 vulcan clitoris lemons 8j4ye3uz odessa
barkley monopoly method kelley punkin pineappl celtics lesbians 223344 gangbang bennett area51 flyboy hamburg
aaa111 spartans tricky romashka 123456aa snuggles phoenix1 infiniti anders billie homer1 hermes jeremiah
vivian annette homerun forrest carolyn 1234567890q topcat hayden cosworth vectra grover goodbye charlotte
cuddles bossman horndog doberman telefon qawsedrf ivanov durango peugeot killer1 franco plumber rbhbkk pauline
exigent brandon1 laguna emmanuel webmaster bowler leopard strong theking redbull viktoria porsche9 breeze
topdog starbuck omega1 dalton fuckers oscar1 hungry beefcake reality gjkbyf speaker shelley godsmack clarence
writer loveit kingpin valhalla starfish anarchy herbie blacks content 906090 sailboat desert fitness brando
bohica achilles tractor jordan1 ncc1701a hidden kicker arsenal1 labtec napass pa55w0rd amelia tuesday frontier
swingers jimmy1 caitlin muppet terror legacy farside terminator matilda kentucky jackson1 doughboy ramona
butthole phillies jrcfyf 789654 camels dannyboy oakley daniel1 nebraska double qwertyuio sabbath pinkfloy
homers striker looker fallen maryland luckydog azamat september iguana oklahoma moloko qwerty123456 agent007
vfrcbvrf javier daniil command rhonda studio pistol skiing franky stoner conrad select houses elliot charmed
vladik nathalie whocares 666777 maynard vkontakte ihateyou puppies zidane eileen dilligaf mandingo moneys
tyrone nevada kotenok mystic california 123457 budman church carlton rafael technics golfball rookie laptop
01011991 jennie triton trojans bunghole zvezda 132435 15426378 hurrican central stripper filter jethro gustav
escape gizmo1 aberdeen lespaul rfnthbyf enterprise dthjybrf 963852 1366613 cutter splash handsome oilers
randall nofear cupcake excalibu batman1 momoney gbpltw bigger belinda svetik possum moocow brothers bethany
keystone babyboy flamingo super1 firefox bogdan ccbill passwort soleil lancelot melissa1 vipers marilyn
tdutybq juliet leader madden russian australia sabina coolman babies skinny zaphod raven1 kamikaze verona
noodle doobie designer deadman attack vortex killme dogman pokemon1 gopher somethin danila reagan apollo13
chevy1 cancel torres 000007 freaks azsxdc dracula poncho bearbear engage steve1 deskjet bradford bitch1
hammers deeznuts warhammer rangers1 justine fabian casey1 summer1 blueblue marissa oregon bubbas sinatra
hilton meatball mailman dawson columbus manchest cthulhu macdaddy mighty michaela grandma sterlin cartoon
summit 123456789z sentinel tolkien bicycle peter1 beverly breast lickit crazy1 meghan universe capone julius
bryant truelove 123456k eatpussy hailey kitty1 daisy1 362436 bowser kathryn sexygirl fernand eleven rockets
billyboy military jamesbon iloveyo texas1 traffic daddy1 redhot microsof miracle microlab gofish pantyhos
lifetime mayday aikido star69 01011985 conner cutlass thekid gordon24 theodore titties sweden function polska
73501505 market scotch lansing elvira bloody hustler anfield catman bonita 1234qwe passwor1 irish1 cheers
tinman airbus peters azsxdcfv santana hayley station gabrie scottie orioles jenny1 01011970 charlton fortuna
dfkthbz rustam warlord retard fatima ultima bigmoney 4runner rotten grumpy oranges kelly1 superstar fordf150
asdfjkl boxing xtreme denali selena zxcasd huskies 128500 terminal wilbur kristy wildfire vladislav bikini
hollywood mayhem sultan gretchen figaro sixers sparta saratoga 321654987 running 01011981 cloud9 music1 models
greenbay cancun marlene trinidad chewie number1 billy1 crunch bigbird mellon chicken1 bigtime fashion piccolo
789123 rjirfrgbde rovers meatloaf hyperion sandro rightnow jarhead armani treasure miriam hansen natural
01011986 lisalisa bizkit chester1 jasmine1 maradona sayang charli rfhbyf utopia anaconda japanese camilla
coconut govols emerson memory catherine cruise dragoon woofwoof giorgi packer pass1234 poontang emily1 illini
christopher davids zaqxsw sandy1 sticks revenge exodus reebok chanel albatros cabbage beaner quincy greens
tomato richards turkey50 adriana kenworth happy123 deborah cooter dinosaur holyshit eeyore movies lionking
creamy poodle tsunami happyday 321123 knopka tommy1 bogart corrado volley tyler1 chickens orgasm whisper
flying chocolate walleye hopper katie1 twisted chaser pepper1 memorex ericsson 100000 jensen positive crazybab
science frisco romance sherwood shania rereirf sausage milana vfvekz profit zenith fugazi junebug clemson
polniypizdec0211 tootsie fktrcfylhf comics zxcasdqwe vfczyz 150781 werner aspire hardrock condom rachael
gringo anhyeuem madeline february abc12345 harper justin1 stocks marcos samsung1 clapton roberta coleman
applepie skywalker theresa koshka tundra vitalik gmoney bigsexy ingrid pillow gandalf1 lucky13 fingers samiam
davidson skorpion candle nobody hellyeah better australi rockhard sparkle johanna everest rfrnec hedgehog
13243546 wolfie bobby1 yosemite marisa voyeur baddog jazzman cheetah 1qa2ws3ed slacker steele mikemike
pooppoop america1 barsik valeria deniska br0d3r fright karolina kirsten vfksirf kenshin bootie cyclone
starship balloon maxell rupert 0.0.0.000 milena bonsai salvador greatone vernon 50cent slider lillian admiral
cecilia stolen albion midget fuckin freeporn nikola amanda1 hithere football1 222333 78945612 damnit dinamo
francois calico duchess scratch powell packers1 stefano fortune nyjets artemis robotech roadkill backdoor
rastaman fiesta felicia alliance fletch jerkoff killbill goliath cinnamon rambler malaka tekken sojdlg123aljg
321456 18436572 963852741 carrera bangbang jeanette ramses operator duster wibble alibaba mechanic keywest
amsterda hal9000 bristol pingpong rasputin marianne hooter rctybz sanders faggot krista presto majestic 332211
nguyen fowler passwords buttman snake1 pompey trident viagra qwert1 brian1 kipper kingfish zxcvbnm1 gotohell
garage mattie slutty isaiah steeler wrestlin pooter divine route66 clipper charley macross railroad lineage2
420247 seamus swimmer ne1469 jokers thursday a123456789 solnce kimber guiness pussie mathew nature matador
sparks typhoon secret1 retired subway ivanova ghetto florian love69 vermont ktyjxrf lolipop moose1 spears
yzerman peterson magick phillips cinder nwo4life flash1 shearer pupsik charles1 dfkthf allsop 162534 456321
000001 qwer123 grapes 123123q pippen kcj9wx5n sex123 dammit caveman critter underdog r2d2c3po skydive renault
onlyme george1 murder snoopdog jayhawk hotshot caramel broadway theboss fuckher umbrella feather credit
splinter depeche seeker fuckthis respect crysis direct animals chemical cyclops 122333 135246 789987 123789456
chivas jamesbond blackhaw passpass sinclair megapass beanie translator helloo magicman fishes supersta
giuseppe caligula shannon1 juggalo frozen quattro meredith wassup bullseye saturday pornos cohiba ashley1
floppy alucard deacon tabitha kristine nicole1 tunafish great1 gfhjkm123 dallas1 xbox360 dkflbckfd kickass
p0015123 200000 7753191 12131415 vietnam kendall safari crawford bob123 klingon jacob1 looser goalie damage
maureen tazmania cigars facial cobra1 deepthroat malina silence samara dfktynbyf cruiser vector tommyboy
banker horizon chainsaw button bigbear forfun abraham 123456r astrid carole andres sharky enter1 vh5150 royals
christina misfit yousuck fallout marino13 scania nudist getmoney budweise qazwsx12 believe brighton absolut
kungfu kostya monaco death1 gunners vfhufhbnf mamapapa minime blueboy penthous chrisbln whitey europa bertie
daphne groucho mirror village trader stroke walrus susanne number sabres nipper snowboar undertaker flounder
moneyman bottle love123 kahuna canadian wolf359 viewsonic coolguy downtown wagner strange fabric trisha
italian ybrjkfq cypress 01011989 qwerty1234 eastside sneakers passme topher taylor1 golfgolf barber sinbad
panasoni mybaby skidoo chicago1 massimo jillian cat123 q123456 sparrow senior dalejr thecat fucku2 snapple
mondeo leanne emmitt thanatos z1x2c3 ghjcnjnfr maximum smegma thesims whitesox 778899 2128506 bonkers poseidon
musica johannes gargoyle olivier hambone bluedog intruder sunnyday compute smelly wapbbs answer studly
ferrari1 simona solution madison1 newcastl adonis goodman sexxxx europe goldstar quantum buckshot static
turbo1 dollars 01011988 titanium holly1 danzig sadie1 jabroni library journey beastie chrono 555777 edwards
test1234 gunnar federico custom 1qwerty assholes daewoo briana watcher superman1 albina sunflowe dorian
babyblue premier staples stereo westwood apple123 mouse1 usnavy boomboom florida1 sasuke dharma pisces
motherlode multiplelo sapper scanner marius callaway bayern lamont rivers walmart micheal starfire theend
tigger1 erotica aaliyah doogie paintbal winston1 sexy69 123qwerty joshua1 newbie knickers lokomotiv 112211
192837 hotred ufkbyf panther1 dodge1 laurel 12345z wasser scott1 jessic thirteen rjycnfynby avalanch outkast
truman magpie philippe poetry martin1 havefun michell cubbies losers hotpussy deejay fghtkm droopy blossom
333666 777888 allmine 01011984 zerocool tomorrow godfather greece second reading greene sascha busted bimmer
original cbr600 builder demons nitram pudding bounce donuts 01011987 newyork1 jeanne idontknow audia4 aleksey
vfvfgfgf leonid smokes mylife beerbeer redfish harry1 working rodman beaches 1x2zkg8w contact prissy 123456s
gegcbr tights insert beretta francesc jewels searay padres celeron mittens quartz diehard micron syncmaster
cornell christie stunner hockey1 simon1 rtyuehe hoosier zxasqw12 peyton cheese1 orange1 paintball monalisa
queens terrapin a1s2d3 spongebob attitude backup whisky clevelan cedric barefoot chuckles barrett meathead
bigass ou8122 spike1 gretzky 02071986 kosmos cfitymrf biggles cambiami 12345678q 03082006 thongs blessing
aleksandra ginger1 twinkle gladiator gollum southpark rabota mazafaka 336699 goodboy carbon stoney weaver
footbal pianoman gaston casanova traveler stumpy hawkeyes clarinet looney maggot felipe bucket eduardo freeze
sexyman johnboy snapon deeznutz warthog rooney honey1 futbol filthy carina 10203040 123aaa mustard boricua
meowmeow mellow abc1234 sunshin bengals combat whatsup sauron krystal lover1 monster1 prophet joker1 lovesex
triangle booker reefer nickel venice xander valencia 01011910 rhiannon crystal1 smeghead valeri andromeda
12qwas 12345679 cerberus james007 sputnik groove lambert usarmy tiberius zigzag abcd123 welder gabriell
candice salamander eternal silver1 bunny1 motley resident hayabusa marcia together rainman poochie purdue
redwood ripple buzzard redwing boobie juliette hokies 1q2w3e4r5 crjhgbjy jagger nokia6300 rockford goldwing
brewster bermuda thegreat confused badgirl bacardi sweet1 whiskers spaceman starman rebecca1 claudio 12qw34er
allstar carolin gesperrt swords wildman nikolay slinky wrestling jamie1 mohammed pinhead hacked logan1
sersolution penny1 overkill rhfcjnrf mishka montgom240 123451 banane bulldog1 person public fester something
12345qwe helmet buffy1 ripken frisky changed higgins trapper windsor supreme ib6ub9 kaylee athens norway
runescape hurley lightning dbrnjh 235689 784512 14725836 19411945 edward1 darius midway hoosiers vinnie
recovery cicero napster lionel amazing tracker 01011992 adrienne roadking menace secure stoned thedog sacred
squash smoking illusion 01091989 woohoo rachel1 medicine antoine leavemealone bagira megatron 787898 5551212
orchid reader company doghouse 12345678a buddah jaybird chuckie maria1 morning chuang mortgage heineken saleen
rulezzz fishing1 massage sonics moonlight motherfucker 02071982 pobeda benfica kashmir realmadrid balloons
optimus chunky gsxr750 tinkerbell 135792468 common starter brewer babyface gregor dogfood hardcock deluxe
bigmike 01011975 blackbir bookworm hampton jeffery salomon godfathe meister seahawks eagles1 talisman
blackjack eraser collin pissing hawaiian 7779311 michae berger alphabet tricia beautifu maryann 123456654321
xxx123 really sally1 mortimer tongue gator1 century sancho remote darkman buddie roadrunn pizzas password2
medusa health stalin toledo cubswin beowulf charlene willia christmas handyman pacers unique eleanor digital1
missy1 clouds tiffany1 cgfhnfr breasts chinook just4me 01011993 wedding calgary dutchess gfhjkm1 heckfy max123
ludmila 12301230 because cheater famous delphi wareagle martine gromit sponge ashlee valkyrie teddy1 passwd
idontkno smiths mohamed teddybea killers boxster dragonball beast1 babybaby mermaid qazwsx1 satana dolphin1
bhbirf foryou misty1 nasty1 qazzaq puddin inuyasha stanford peacock assword misery desiree barnes sullivan
beamer diggler medical 1pussy wishbone circle property ripley thedude fisting austin1 alexia beemer jayden
gameover sparky1 redline venera linda1 salsero fuckoff1 adam12 fytxrf kittykat spanish sinister vedder gonavy
manowar 02021987 novell colonel rancid 147369 dragon12 chrome friendly aa123456 destroy titten electra
geoffrey newpass6 bella1 eureka onetime katherine lakota claymore hotbox banner madina 02011985 manuela
bitchass sporting bartman matthews checkers playing 01011977 02041986 carmel gabriela dfcbkbq nimbus wrestle
02081988 jktymrf alexalex preacher gamecube 02051986 mustafa svoboda 123321a circus armagedon alenka
playstation z1x2c3v4 02091987 12011987 magical claudi marine1 rhtdtlrj thumbs camper doitnow goaway subzero
charity hootie pissoff jammin blackout darrell cocaine bcfields skylar rolling loaded milkman davide bigbutt
electron johann devil666 12345t cheeks silverad lighter 02021988 hassan 02031986 pothead oliver1 gobucks
123456qw squall thunderb 02101985 courage pippin ghostrider antoni kaitlyn 654123 794613 reynolds cannabis
xerxes ipswich ninjas farley lucille jimmie dieter annika southpar marika jackson5 dickie jetski finance
tdutybz dianne forward jenkins bright absolute morgan1 musashi ferris iamgod lipstick 1234567890a laurence
02061985 02011987 mandarin baseball1 tottenham adults yfnfkmz kleopatra tulips zhuang dirtbike 111333 369963
1236987 1357924680 pickup dwayne othello katherin 12qw12 a11111 warner northern cinema cameltoe petrov
bluefish pheonix iscool secrets 02021986 modena marsha slippery kissing caravan divorce beatle sanfran
01011983 1qaz2ws cheech 000111 badman 02091986 samtron paloma dolores qweasd123 shadows mollydog annabell
starcraf ghblehjr vasilisa jameson scorpio1 illinois warning jockey deadpool hillary bearcat caprice farscape
bigtit lassie sander sunflower hopeless sheriff carpedie love12 asdfzxcv sherri bingo1 slave1 barton shepherd
02021984 gatorade keegan cameron1 guitar1 toolman barker spectre pussey nuggets borussia mantis 01011982
banzai ariana flexible chloe1 mullet graphics fyutkbyf 123qq123 mancity templar stories yfcntymrf 02081984
02081987 fergie records thedoors 7ugd5hip2j gawker pussyman skyler elizaveta colton 02061986 moritz strength
cowboy1 susana sonoma spinner keller webmaste gfhjkmgfhjkm qazwsxedc123 ghjcnjgfhjkm zxcasdqwe123 sonyericsson
ghhh47hj7649 123456789qwe 1qazxsw23edc masterbating qwerasdfzxcv qweasdzxc123 flvbybcnhfnjh 123456789987654321
112233445566 ghbdtnrfrltkf websolutions finalfantasy 1qaz2wsx3edc4rfv chickenwing101 unbelievable
administrator 123321123321 justinbieber contortionist 123qwe123qwe newproject2004 pornographic masturbation
needforspeed businessbabe 123456789123 masterbaiting maurolarastefy supernatural professional domainlock2005
scandinavian dkflbvbhjdbx momsanaladventure hd764nw5d7e1vb1 qazwsxedcrfvtgb 123456789012 dkflbvbhjdyf
counterstrike zaq1xsw2cde3 vfvfvskfhfve 123456789abc fkmnthyfnbdf intelligence ghjcnjghjcnj admin18533362
23176djivanfros 123456789qwerty qazxswedcvfr qwertyasdfgh whosyourdaddy 1111111111zz fktrcfylhjdbx
fktrcfylhjdyf 541233432442 123456789qaz ghbdtnghbdtn password1234 12345678900987654321 chesterfield
010203040506 lost4815162342 102030405060 vanyarespekt qwerty123456789 89231243658s iseedeadpeople transformers
devilmaycry4 combat123654 qwertyytrewq jamesbond007 123123qweqwe 4815162342lost 123456789qqq asdfghjkl123
1234qwerasdf 123qwe456rty 1234567890qw ghjcnjrdfibyj qwertyuiop123 international saun24865709 q1w2e3r4t5y6u7
ptybnxtvgbjy polniypizdec110211 1qa2ws3ed4rf 123456789zxc 12345678987654321 playstation3 31217221027711
fucktheworld 159753159753 mevefalkcakk 1234567890qwe hedimaptfcor cosmopolitan q1w2e3r4t5y6u7i8
zqjphsyf6ctifgu lhbjkjubz2957704 123456782000 andrewjackie 1qazxsw23edcvfr4 12qw34er56ty christopher1
159753456852 networkingpe philadelphia peanutbutter boy4u2ownnyc ingodwetrust minecraft123 digitalprodu
installdevic an83546921an13 qawsedrftgyh abc123456789 123321qweewq auckland2010 residentevil olcrackmaster
1234567890zzz 32615948worms 012345678910 fuckyoubitch avrillavigne massimiliano nhfdvfnjkju123 742617000027
41d8cd98f00b nemvxyheqdd5oqxyxyzi temppassword punksnotdead fynfyfyfhbde nightcrawler playstation2
gjkysqgbpltw ticketmaster 01telemike01 stratocaster ghjcnjqgfhjkm installsqlst 123456789101 1234567890qaz
frederiksberg 1a2s3d4f5g6h passwordpassword schoolgirlie sanfrancisco 89876065093rax 1234567qwertyu
lytghjgtnhjdcr 111222333000 nhecsyfujkjdt zaqwsxcderfv seemnemaailm qwaszxerdfcv antananarivu greenlantern
qazwsxqazwsx vfrcbvvfrcbv 1234qwerasdfzxcv iloveboobies ghjcnjgbpltw 123321456654 1234567890987654321
1234567890qwerty q1w2e3r4t5y6u7i8o9p0 morganstanley 59382113kevinp qwe123qwe123 gtnhjpfdjlcr zxcvbn123456
bltynbabrfwbz warhammer40k passwordstandard maprchem56458 construction bpgjldsgjldthnf iampurehaha2
qazxswedc123 qwertyuiop10 stinkyfinger cjdthitycndj corperfmonsy weihnachtsbau 1234567892000 1234567887654321
stickdaddy77 123456789000 014702580369 asdfgh123456 necronomicon mortalkombat 123qwerty123 systemofadown
qaz123wsx456 nastyanastya zxcvbnm123456789 satisfaction cheeseburger a1s2d3f4g5h6 minnesota_hp 122333444455555
vladimirovna 111222333444555 ilovemyfamily michaeljackson vfhbyfvfhbyf qwertyuiop12345 1qa2ws3ed4rf5tg
websolutionssu amadeusptfcor specialinsta 123456789asd nhfycajhvths rfnthbyf1988 paraklast1974 webuivalidat
msorcloledbr nondriversig 123456789qwer wazzkaprivet weihnachtsbaum fktrcfylhjdf z1x2c3v4b5n6m7 ghjnbdjcnjzybt
qwertyuiop12 sonnenschein anytimetoday ntktdbpjh1994 nick1234-rem936 thecakeisalie ontheoutside zcfvfzkexifz
xxxp455w0rd5 qwertasdfgzxcvb ghjatccbjyfk aksjdlasdakj89879 23wkoa0fp78dk marinamarina fatima753357
6215mila6215 zaq12wsxcde3 love777321777 123456789aaa 4815162342lf pfqwtd27121988 cnfc35762209 12345677654321
zxcvbnmmnbvcxz civilization findaupair007 alpha135792468 ghtdtlvtldtl edwardcullen gfhfktkjuhfv qazwsx123456
lytdybrbdfvgbhf asd123asd123 passwordassword ronaldinho10 ipo54tj45uy856 89semtsriuty foreveryoung
sdicmt7seytn blacksonblon 420842084208555 ktjynsq40147 1a2a3a4a5a6a bullnuts2003 050605rostik 19960610ilja
123456zxcvbn z1x2c3v4b5n6 entertainment 89063032220m badiman28200 123ewqasdcxz nhbujyjvtnhbz polniypizdec1102
ne_e_pod_chehyl hd764nw5d7e1vbv josephphone7 gthtrfnbgjkt configuratio msoracle32re bhrh0h2oof6xbqjeh
193570356033
`;
