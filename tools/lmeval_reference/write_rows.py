"""Write the small hand-written rows the lm-eval parity tasks read.

Each dataset gets the column names of the real Hugging Face dataset it stands
for (``dataset_path`` / ``dataset_name`` in the task YAMLs), a few rows per
split, and one entry in ``tests/lmeval/data/datasets.json``.  The content is
written here, not downloaded.  Some rows carry text that must stay literal
(braces, Jinja-looking text, quotes of both kinds, non-ASCII) so the parity
cases show that data never becomes template.

Run with any python (no dependencies):  python tools/lmeval_reference/write_rows.py
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "tests" / "lmeval" / "data"
MANIFEST: list[dict] = []


def write(folder: str, path: str, name: str | None, splits: dict[str, list[dict]]) -> None:
    """Write one dataset's splits as JSON Lines and register them in the manifest."""
    out = ROOT / folder
    out.mkdir(parents=True, exist_ok=True)
    files = {}
    for split, rows in splits.items():
        file = out / f"{split}.jsonl"
        file.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        files[split] = f"{folder}/{split}.jsonl"
    MANIFEST.append({"dataset_path": path, "dataset_name": name, "splits": files})


# ---------------------------------------------------------------- ai2_arc
def arc(prefix: str, items: list[tuple[str, list[str], str]], numeric_at: int = -1) -> list[dict]:
    rows = []
    for i, (q, texts, key) in enumerate(items):
        labels = ["A", "B", "C", "D", "E"][: len(texts)]
        if i == numeric_at:  # real ARC has a few rows labelled 1-4
            labels = [str(n + 1) for n in range(len(texts))]
            key = str("ABCDE".index(key) + 1)
        rows.append({"id": f"{prefix}_{7000 + 13 * i}", "question": q, "choices": {"text": texts, "label": labels}, "answerKey": key})
    return rows


ARC_EASY = {
    "train": arc("Mercury_SC", [
        ("Which form of energy does a plant store when it makes sugar?", ["chemical", "sound", "thermal", "electrical"], "A"),
        ("What do the roots of a plant take in from the soil?", ["sunlight", "water", "oxygen only", "seeds"], "B"),
        ("Which tool is best for measuring the mass of a rock?", ["a ruler", "a thermometer", "a balance", "a graduated cylinder"], "C"),
        ("Which of these is a renewable resource?", ["coal", "oil", "natural gas", "wind"], "D"),
        ("What causes day and night on Earth?", ["Earth's rotation", "Earth's revolution", "the Moon's orbit", "the Sun's rotation"], "A"),
        ("A student mixes salt into water. What kind of mixture is formed?", ["a solution", "a suspension", "an element", "a compound"], "A"),
        ("Which organ pumps blood through the body?", ["the lungs", "the heart", "the stomach", "the brain"], "B"),
        ("Which property of a mineral is tested by scratching it on a tile?", ["luster", "hardness", "streak", "cleavage"], "C"),
    ], numeric_at=3),
    "validation": arc("MCAS_2004", [
        ("Which state of matter has a definite volume but no definite shape?", ["solid", "liquid", "gas", "plasma"], "B"),
        ("What is the main source of energy for Earth's water cycle?", ["the Sun", "the Moon", "wind", "volcanoes"], "A"),
        ("Which animal is a mammal?", ["shark", "frog", "whale", "penguin"], "C"),
        ("Which unit is used to measure force?", ["newton", "liter", "meter", "gram"], "A"),
        ("What gas do plants give off during photosynthesis?", ["carbon dioxide", "nitrogen", "oxygen", "helium"], "C"),
        ("Which is the closest star to Earth?", ["Polaris", "Sirius", "the Sun", "Betelgeuse"], "C"),
    ]),
    "test": arc("NYSEDREGENTS", [
        ("Which object is a good conductor of electricity?", ["a rubber band", "a copper wire", "a wooden spoon", "a plastic cup"], "B"),
        ("A teacher writes {answer} and {{ question }} on the board. Which symbol marks a placeholder in this note?", ["curly braces", "commas", "periods", "hyphens"], "A"),
        ("Which change is a physical change?", ["burning wood", "rusting iron", "melting ice", "baking bread"], "C"),
        ("Why do we see the Moon's \"phases\"?", ["Earth's shadow covers it", "we see different amounts of its lit half", "clouds block it", "it makes its own light"], "B"),
        ("Which layer of Earth is made of liquid metal?", ["crust", "mantle", "outer core", "inner core"], "C"),
        ("Which choice names the student's tool?", ["the student's \"hand lens\"", "a microscope", "a telescope", "a periscope"], "A"),
        ("Which body system breaks food into nutrients?", ["respiratory", "digestive", "nervous", "skeletal"], "B"),
        ("Café owners measure water at 100 °C. What happens to pure water at this temperature at sea level?", ["it freezes", "it boils", "it condenses", "nothing"], "B"),
    ], numeric_at=4),
}
ARC_CHALLENGE = {
    "train": arc("Mercury_LBS", [
        ("Which process in the carbon cycle removes carbon dioxide from the atmosphere?", ["respiration", "combustion", "photosynthesis", "decomposition"], "C"),
        ("A ball rolls down a ramp. Which energy change happens?", ["kinetic to potential", "potential to kinetic", "chemical to nuclear", "thermal to chemical"], "B"),
        ("Which observation best shows that a chemical reaction occurred?", ["a gas forms", "ice melts", "sugar dissolves", "paper is torn"], "A"),
        ("Why are fossils of sea animals found on mountains?", ["animals climbed there", "rock layers were uplifted", "rain carried them", "wind carried them"], "B"),
        ("Which is a trait a puppy inherits?", ["knowing a trick", "a scar", "fur color", "a collar"], "C"),
        ("Which factor most affects the rate at which a liquid evaporates?", ["its color", "its temperature", "its container's shape", "its name"], "B"),
    ]),
    "validation": arc("VASoL_2008", [
        ("What makes up most of the mass of an atom?", ["electrons", "the nucleus", "empty space", "photons"], "B"),
        ("Which layer of the atmosphere contains the ozone layer?", ["troposphere", "stratosphere", "mesosphere", "thermosphere"], "B"),
        ("Which is the best evidence that Earth's crust moves?", ["earthquakes", "rainbows", "tides", "seasons"], "A"),
        ("Which cell structure controls what enters and leaves the cell?", ["nucleus", "cell membrane", "vacuole", "ribosome"], "B"),
        ("Which wave property determines the pitch of a sound?", ["amplitude", "frequency", "speed", "medium"], "B"),
        ("Which energy source produces the least air pollution?", ["coal", "solar", "oil", "wood"], "B"),
    ]),
    "test": arc("ACTAAP_2013", [
        ("Which gas makes up most of Earth's atmosphere?", ["oxygen", "nitrogen", "argon", "carbon dioxide"], "B"),
        ("An object's speed doubles. Its kinetic energy", ["halves", "doubles", "quadruples", "stays the same"], "C"),
        ("Which scientist's laws describe planetary orbits as ellipses?", ["Newton's", "Kepler's", "Darwin's", "Mendel's"], "B"),
        ("Which is a function of the \"xylem\" in plants?", ["moving water", "making food", "storing seeds", "making pollen"], "A"),
        ("Which part of a cell contains the genetic material?", ["cell wall", "nucleus", "chloroplast", "cytoplasm"], "B"),
        ("A mixture of sand and iron filings is best separated with", ["a magnet", "a filter", "evaporation", "a sieve of cloth"], "A"),
    ], numeric_at=0),
}

# ---------------------------------------------------------------- cais/mmlu
def mmlu(subject: str, items: list[tuple[str, list[str], int]]) -> list[dict]:
    return [{"question": q, "subject": subject, "choices": c, "answer": a} for q, c, a in items]


MMLU = {
    "astronomy": {
        "dev": mmlu("astronomy", [
            ("You are pushing a truck along a road. Would it be easier to accelerate this truck on Mars? Why?", ["It would be harder since the truck is heavier on Mars.", "It would be easier since the truck is lighter on Mars.", "It would be harder since the truck is lighter on Mars.", "It would be the same no matter where you are."], 3),
            ("Where do most short-period comets come from and how do we know?", ["The Kuiper belt; they lie in the plane of the solar system.", "The asteroid belt; they have similar periods.", "The Oort cloud; they come from random directions.", "The Oort cloud; they lie in the plane of the solar system."], 0),
            ("Why isn't there a planet where the asteroid belt is located?", ["A planet there was destroyed by a collision.", "There was not enough material there.", "Resonance with Jupiter prevented a planet from forming.", "A planet there was ejected by Saturn."], 2),
            ("Why is Mars red?", ["Its surface is covered with iron oxide.", "Its atmosphere scatters red light.", "Its oceans reflect red light.", "It is very hot."], 0),
            ("Say the pupil of your eye has a diameter of 5 mm and a telescope has an aperture of 50 cm. How much more light can the telescope gather?", ["10 times more", "100 times more", "1000 times more", "10000 times more"], 3),
        ]),
        "validation": mmlu("astronomy", [
            ("What is the name of the galaxy we live in?", ["Andromeda", "the Milky Way", "Triangulum", "the Large Magellanic Cloud"], 1),
            ("Which planet has the strongest surface gravity?", ["Earth", "Jupiter", "Neptune", "Saturn"], 1),
            ("What is a light-year?", ["a unit of time", "a unit of distance", "a unit of speed", "a unit of brightness"], 1),
        ]),
        "test": mmlu("astronomy", [
            ("Why do the planets orbit the Sun in nearly the same plane?", ["They formed from a flattened, spinning disk.", "The Sun's magnetic field pulls them there.", "Jupiter's gravity aligned them.", "It is a coincidence."], 0),
            ("What is the approximate surface temperature of the Sun?", ["600 K", "6000 K", "60,000 K", "6 million K"], 1),
            ("Which moon has a thick nitrogen atmosphere?", ["Europa", "Titan", "Io", "Ganymede"], 1),
            ("A star's spectrum shows its lines shifted toward red. The star is", ["moving toward us", "moving away from us", "getting hotter", "getting smaller"], 1),
            ("What holds a neutron star up against gravity?", ["electron degeneracy pressure", "neutron degeneracy pressure", "radiation pressure", "thermal pressure"], 1),
            ("Which statement about {braces} in a note is true?", ["They are literal text.", "They are template fields.", "They are removed.", "They are escaped."], 0),
            ("How long does light from the Sun take to reach Earth?", ["8 seconds", "8 minutes", "8 hours", "8 days"], 1),
        ]),
    },
    "anatomy": {
        "dev": mmlu("anatomy", [
            ("What is the embryological origin of the hyoid bone?", ["The first pharyngeal arch", "The first and second pharyngeal arches", "The second pharyngeal arch", "The second and third pharyngeal arches"], 3),
            ("Which of these branches of the trigeminal nerve contain somatic motor processes?", ["The supraorbital nerve", "The infraorbital nerve", "The mental nerve", "None of the above"], 3),
            ("The pleura", ["have no sensory innervation.", "are separated by a 2 mm space.", "extend into the neck.", "are derived from endoderm."], 2),
            ("In Angle's Class II Div 2 occlusion there is", ["excess overbite of the upper lateral incisors.", "negative overjet of the upper central incisors.", "excess overjet of the upper lateral incisors.", "excess overjet of the upper central incisors."], 2),
            ("Which of the following is the body cavity that contains the pituitary gland?", ["Abdominal", "Cranial", "Pleural", "Spinal"], 1),
        ]),
        "test": mmlu("anatomy", [
            ("Which bone is the longest in the human body?", ["humerus", "femur", "tibia", "fibula"], 1),
            ("The heart has how many chambers?", ["two", "three", "four", "five"], 2),
            ("Which organ produces bile?", ["the liver", "the gallbladder", "the pancreas", "the spleen"], 0),
            ("Where is the 'Achilles' tendon?", ["the wrist", "the heel", "the knee", "the neck"], 1),
            ("Which blood vessels carry blood away from the heart?", ["veins", "arteries", "capillaries", "venules"], 1),
            ("What is the largest organ of the human body?", ["the liver", "the skin", "the brain", "the lungs"], 1),
        ]),
    },
    "high_school_geography": {
        "dev": mmlu("high_school_geography", [
            ("Which one of the following items is an example of nonmaterial culture?", ["Dove soap", "Dove candy bar", "Dove symbol", "A dove (bird)"], 2),
            ("During the third stage of the demographic transition model, which of the following is true?", ["Birth rates increase and population growth rate is less rapid.", "Birth rates decline and population growth rate is less rapid.", "Birth rates increase and population growth rate increases.", "Birth rates decrease and population growth rate increases."], 1),
            ("The rate of natural increase of a population is found by subtracting the", ["crude death rate from the crude birth rate.", "crude birth rate from the crude death rate.", "doubling time from the crude birth rate.", "fertility rate from the crude death rate."], 0),
            ("Which of the following statements is NOT accurate regarding the services provided by local governments in the United States?", ["Duplication of efforts occurs often.", "Social problems of the central city spill over into the surrounding residential suburbs.", "Inefficiency in providing services occurs often.", "One neighborhood's efforts to reduce pollution are always supported by neighboring communities."], 3),
            ("Which of the following is the largest country by area?", ["Canada", "China", "the United States", "Russia"], 3),
        ]),
        "test": mmlu("high_school_geography", [
            ("Which river is the longest in South America?", ["the Orinoco", "the Amazon", "the Paraná", "the Magdalena"], 1),
            ("The Sahel is a region in", ["Asia", "Africa", "Europe", "Australia"], 1),
            ("What is the term for a city that is much larger than any other in its country?", ["primate city", "megalopolis", "edge city", "world city"], 0),
            ("Which line of latitude is at 0 degrees?", ["the Prime Meridian", "the Equator", "the Tropic of Cancer", "the Arctic Circle"], 1),
            ("Which country has the most time zones, counting territories?", ["Russia", "the United States", "France", "China"], 2),
            ("Café culture in São Paulo is an example of", ["folk culture", "popular culture", "a cultural hearth", "an ethnic enclave"], 1),
        ]),
    },
}

# ---------------------------------------------------------------- Rowan/hellaswag
def hellaswag(split: str, items: list[tuple[str, str, str, list[str], int]]) -> list[dict]:
    rows = []
    for i, (label, a, b, endings, gold) in enumerate(items):
        rows.append({
            "ind": 100 + 7 * i, "activity_label": label, "ctx_a": a, "ctx_b": b, "ctx": (a + " " + b).strip(),
            "endings": endings, "source_id": f"activitynet~v_{split}{i:03d}", "split": split, "split_type": "indomain",
            "label": str(gold),
        })
    return rows


HELLASWAG = {
    "train": hellaswag("train", [
        ("Removing ice from car", "Then, the man writes over the snow covering the window of a car, and a woman wearing winter clothes smiles.", "then", ["the man adds wax to the windshield and cuts it.", "a person board a ski lift, while two men supporting the head of the person wearing winter clothes snow as the we girls sled.", "the man puts on a christmas coat, knitted with netting.", "the man continues removing the snow on his car."], 3),
        ("Baking cookies", "A woman is in a kitchen with a bowl of dough.", "she", ["rolls the dough into small balls and places them on a tray.", "throws the bowl out of the window.", "paints the dough blue [title] and hangs it up.", "starts a lawn mower."], 0),
        ("Playing guitar", "A man sits on a stool holding a guitar.", "he", ["eats the guitar strings.", "strums the guitar and sings into a microphone.", "jumps into a swimming pool.", "ties his shoes with the guitar."], 1),
        ("Washing dishes", "A boy stands at a sink full of soapy water.", "he", ["scrubs a plate with a sponge and rinses it.", "plants a tree in the sink.", "reads the newspaper to the dishes.", "drives away in the sink."], 0),
        ("Walking the dog", "A woman leads a dog along a path in the park.", "the dog", ["flies into the sky.", "writes a letter.", "sniffs the grass and wags its tail.", "cooks dinner."], 2),
        ("Shoveling snow", "A man in a red coat stands in his driveway with a shovel.", "he", ["pushes the snow to the side of the driveway.", "puts the shovel in the oven.", "swims across the driveway.", "sings to the shovel  [header] loudly."], 0),
    ]),
    "validation": hellaswag("val", [
        ("Making a sandwich", "A man lays two slices of bread on a cutting board.", "he", ["spreads peanut butter on one slice.", "throws the bread at the ceiling.", "puts the bread in a washing machine.", "paints the bread with a brush."], 0),
        ("Brushing teeth", "A girl squeezes toothpaste onto a toothbrush.", "she", ["brushes her hair with it.", "brushes her teeth in front of the mirror.", "plants it in the garden.", "gives it to a cat to eat."], 1),
        ("Painting fence", "A man dips a brush into a can of white paint.", "he", ["drinks the paint.", "paints the wooden fence with long strokes.", "throws the can in a lake.", "puts the brush in his pocket."], 1),
        ("Ironing clothes", "A woman sets up an ironing board in the living room.", "she", ["irons a wrinkled shirt.", "rides the ironing board down a hill.", "irons the carpet [step] slowly.", "uses the iron as a phone."], 0),
        ("Riding bike", "A child puts on a helmet next to a bicycle.", "the child", ["eats the helmet.", "gets on the bike and pedals down the street.", "throws the bike in a pool.", "reads the bike a story."], 1),
        ("Cutting hair", "A barber drapes a cape over a customer.", "the barber", ["trims the customer's hair with scissors.", "paints the cape green.", "leaves for vacation.", "cuts the cape into pieces."], 0),
    ]),
}

# ---------------------------------------------------------------- allenai/winogrande
def wino(items: list[tuple[str, str, str, str]]) -> list[dict]:
    return [{"sentence": s, "option1": o1, "option2": o2, "answer": a} for s, o1, o2, a in items]


WINOGRANDE = {
    "train": wino([
        ("Ian volunteered to eat Dennis's menudo after already having a bowl because _ despised eating intestine.", "Ian", "Dennis", "2"),
        ("He needed to get a new phone case because the _ was too big for the old case.", "phone", "case", "1"),
        ("The trophy doesn't fit into the brown suitcase because the _ is too large.", "trophy", "suitcase", "1"),
        ("Sarah was a much better surgeon than Maria so _ always got the harder cases.", "Sarah", "Maria", "1"),
        ("The cat chased the mouse, but the _ was too fast to catch.", "cat", "mouse", "2"),
        ("Kevin gave the book to Brian because _ had finished reading it.", "Kevin", "Brian", "1"),
        ("The water bottle would not fit in the bag because the _ was too small.", "bottle", "bag", "2"),
    ]),
    "validation": wino([
        ("Natalie loved the soup but Laura hated it, so _ asked for a second bowl.", "Natalie", "Laura", "1"),
        ("The city councilmen refused the demonstrators a permit because _ feared violence.", "The city councilmen", "The demonstrators", "1"),
        ("John couldn't see the stage with Billy in front of him because _ is so tall.", "John", "Billy", "2"),
        ("The man couldn't lift his son because _ was so heavy.", "the man", "the son", "2"),
        ("Megan's {answer} note beat Amy's because _ wrote \"{{ option1 }}\" on it.", "Megan", "Amy", "1"),
        ("The fish ate the worm because the _ was hungry.", "fish", "worm", "1"),
    ]),
}

# ---------------------------------------------------------------- openai/gsm8k
def gsm(items: list[tuple[str, str]]) -> list[dict]:
    return [{"question": q, "answer": a} for q, a in items]


GSM8K = {
    "train": gsm([
        ("Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May. How many clips did Natalia sell altogether in April and May?", "Natalia sold 48/2 = <<48/2=24>>24 clips in May.\nNatalia sold 48+24 = <<48+24=72>>72 clips altogether in April and May.\n#### 72"),
        ("Weng earns $12 an hour for babysitting. Yesterday, she just did 50 minutes of babysitting. How much did she earn?", "Weng earns 12/60 = $<<12/60=0.2>>0.2 per minute.\nWorking 50 minutes, she earned 0.2 x 50 = $<<0.2*50=10>>10.\n#### 10"),
        ("Betty has 3 red marbles and twice as many blue marbles. How many marbles does she have?", "She has 3*2 = <<3*2=6>>6 blue marbles.\nShe has 3+6 = <<3+6=9>>9 marbles.\n#### 9"),
        ("A baker makes 24 rolls and sells 3/4 of them. How many rolls are left?", "He sells 24*3/4 = <<24*3/4=18>>18 rolls.\n24-18 = <<24-18=6>>6 rolls are left.\n#### 6"),
        ("Tom reads 15 pages a day. How many pages does he read in a week?", "A week has 7 days, so 15*7 = <<15*7=105>>105 pages.\n#### 105"),
        ("A shirt costs $20 and is on sale for 25% off. What is the sale price?", "The discount is 20*0.25 = $<<20*0.25=5>>5.\nThe price is 20-5 = $<<20-5=15>>15.\n#### 15"),
        ("Maria has 5 boxes with 8 pencils each. She gives away 12 pencils. How many are left?", "She has 5*8 = <<5*8=40>>40 pencils.\n40-12 = <<40-12=28>>28 are left.\n#### 28"),
    ]),
    "test": gsm([
        ("Janet's ducks lay 16 eggs per day. She eats three for breakfast every morning and bakes muffins for her friends every day with four. She sells the remainder at the farmers' market daily for $2 per fresh duck egg. How much in dollars does she make every day at the farmers' market?", "Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day.\nShe makes 9 * 2 = $<<9*2=18>>18 every day at the farmer's market.\n#### 18"),
        ("A robe takes 2 bolts of blue fiber and half that much white fiber. How many bolts in total does it take?", "It takes 2/2=<<2/2=1>>1 bolt of white fiber\nSo the total amount of fabric is 2+1=<<2+1=3>>3 bolts of fabric\n#### 3"),
        ("A class has 30 students. If 2/5 of them walk to school, how many do not walk?", "2/5 of 30 is <<2/5*30=12>>12.\n30-12 = <<30-12=18>>18 do not walk.\n#### 18"),
        ("A recipe writes {sugar} cups as \"{{ 2 + 2 }}\". If the real amount is 4 cups and you triple it, how many cups do you need?", "4*3 = <<4*3=12>>12 cups.\n#### 12"),
        ("Sam buys 3 notebooks at $4 each and a pen for $2. How much does he spend?", "3*4 = <<3*4=12>>12 dollars on notebooks.\n12+2 = <<12+2=14>>14 dollars.\n#### 14"),
        ("A train travels 60 miles per hour for 2.5 hours. How far does it go?", "60*2.5 = <<60*2.5=150>>150 miles.\n#### 150"),
    ]),
}

# ---------------------------------------------------------------- aps/super_glue boolq
def boolq(items: list[tuple[str, str, int]]) -> list[dict]:
    return [{"question": q, "passage": p, "idx": i, "label": lab} for i, (q, p, lab) in enumerate(items)]


BOOLQ = {
    "train": boolq([
        ("do iran and afghanistan speak the same language", "Persian language -- Persian, also known by its endonym Farsi, is one of the Western Iranian languages. It is primarily spoken in Iran, Afghanistan (officially known as Dari since 1958), and Tajikistan.", 1),
        ("is the sun a planet", "Sun -- The Sun is the star at the center of the Solar System. It is a nearly perfect sphere of hot plasma.", 0),
        ("can penguins fly", "Penguin -- Penguins are a group of aquatic flightless birds living almost exclusively in the Southern Hemisphere.", 0),
        ("is water made of hydrogen and oxygen", "Water -- Water is an inorganic compound with the chemical formula H2O. Each molecule contains one oxygen and two hydrogen atoms.", 1),
        ("is a tomato a fruit", "Tomato -- Botanically, a tomato is a fruit, a berry, consisting of the ovary, together with its seeds, of a flowering plant.", 1),
        ("is mount everest in africa", "Mount Everest -- Mount Everest is Earth's highest mountain above sea level, located in the Mahalangur Himal sub-range of the Himalayas.", 0),
    ]),
    "validation": boolq([
        ("does ethanol take more energy make that produces", "Ethanol fuel -- All biomass goes through at least some of these steps: it needs to be grown, collected, dried, fermented, distilled, and burned.", 0),
        ("is house tax and property tax are same", "Property tax -- Property tax or 'house tax' is a local tax on buildings, along with appurtenant land.", 1),
        ("is the great wall of china visible from space", "Great Wall of China -- Whether the wall is visible from low Earth orbit is disputed; it is not visible to the unaided eye from the Moon.", 0),
        ("do all spiders spin webs", "Spider -- Not all spiders build webs; many hunt their prey, and some {answer} notes say otherwise.", 0),
        ("is café au lait made with milk", "Café au lait -- Café au lait is coffee with hot milk added.", 1),
        ("is pluto still a planet", "Pluto -- In 2006 the IAU reclassified Pluto as a dwarf planet.", 0),
    ]),
}

# ---------------------------------------------------------------- ybisk/piqa
def piqa(items: list[tuple[str, str, str, int]]) -> list[dict]:
    return [{"goal": g, "sol1": s1, "sol2": s2, "label": lab} for g, s1, s2, lab in items]


PIQA = {
    "train": piqa([
        ("When boiling butter, when it's ready, you can", "Pour it onto a plate", "Pour it into a jar", 1),
        ("To separate egg whites from the yolk using a water bottle, you should", "Squeeze the water bottle and press it against the yolk. Release, which creates suction and lifts the yolk.", "Place the water bottle and press it against the yolk. Keep pushing, which creates suction and lifts the yolk.", 0),
        ("How do I ready a guinea pig cage for it's new occupants?", "Provide the guinea pig with a cage full of a few inches of bedding made of ripped paper strips.", "Provide the guinea pig with a cage full of a few inches of bedding made of ripped jeans material.", 0),
        ("To keep bread fresh longer,", "store it in a sealed bag.", "store it in an open bowl in the sun.", 0),
        ("To clean a whiteboard,", "use a dry-erase eraser.", "use permanent marker.", 0),
        ("How to cool a hot drink quickly", "Put the drink in the oven.", "Stir in a few ice cubes.", 1),
    ]),
    "validation": piqa([
        ("How do I find something I lost on the carpet?", "Put a solid seal on the end of your vacuum and turn it on.", "Put a hair net on the end of your vacuum and turn it on.", 1),
        ("To make a paper airplane fly farther,", "fold the wings evenly and throw it gently.", "soak it in water before throwing.", 0),
        ("How to remove a stripped screw", "Press a wide rubber band between the screwdriver and the screw.", "Hit the screw with a hammer until it disappears.", 0),
        ("To write \"{answer}\" on a sign,", "use a marker.", "use a {{ spoon }}.", 0),
        ("How to keep cut apples from browning", "Sprinkle them with lemon juice.", "Sprinkle them with sand.", 0),
        ("To open a tight jar lid,", "run the lid under hot water.", "put the jar in the freezer for a week.", 0),
    ]),
}

# ---------------------------------------------------------------- allenai/sciq
def sciq(items: list[tuple[str, str, str, str, str, str]]) -> list[dict]:
    return [{"question": q, "distractor3": d3, "distractor1": d1, "distractor2": d2, "correct_answer": c, "support": s} for q, d1, d2, d3, c, s in items]


SCIQ = {
    "train": sciq([
        ("What type of organism is commonly used in preparation of foods such as cheese and yogurt?", "viruses", "protozoa", "gymnosperms", "mesophilic organisms", "Mesophiles grow best in moderate temperature, typically between 25°C and 40°C."),
        ("What phenomenon makes global winds blow northeast to southwest or the reverse in the northern hemisphere?", "muon effect", "centrifugal effect", "tropical effect", "coriolis effect", "Without Coriolis Effect the global winds would blow north to south or south to north."),
        ("Changes from a less-ordered state to a more-ordered state are accompanied by what?", "an increase in entropy", "no change in entropy", "an increase in temperature", "a decrease in entropy", ""),
        ("What is the least dangerous radioactive decay?", "zeta decay", "beta decay", "gamma decay", "alpha decay", " All radioactive decay is dangerous to living things, but alpha decay is the least dangerous."),
        ("Kilauea in hawaii is the world's most continuously active volcano. very active volcanoes characteristically eject red-hot rocks and lava rather than this?", "carbon and smoke", "greenhouse gases", "magma", "smoke and ash", "Example 3.5 Calculating Projectile Motion: Hot Rock Projectile"),
        ("When a meteoroid reaches earth, what is the remnant called?", "comet", "orbit", "meteor", "meteorite", "Meteoroids are smaller than asteroids."),
    ]),
    "validation": sciq([
        ("Who proposed the theory of evolution by natural selection?", "Linnaeus", "shaw", "Scopes", "darwin", ""),
        ("Which type of bond shares electrons?", "ionic", "metallic", "hydrogen", "covalent", "A covalent bond forms when atoms share electrons."),
        ("What is the unit of electric resistance?", "volt", "ampere", "watt", "ohm", "Resistance is measured in ohms."),
        ("Which organelle makes ATP?", "ribosome", "golgi body", "lysosome", "mitochondria", "Mitochondria are the powerhouses of the cell."),
        ("What is the pH of pure water?", "1", "14", "10", "7", "Pure water is neutral."),
        ("Which planet is called the red planet?", "venus", "jupiter", "mercury", "mars", ""),
    ]),
    "test": sciq([
        ("What kind of energy does a moving object have?", "potential energy", "nuclear energy", "chemical energy", "kinetic energy", "Kinetic energy is the energy of motion."),
        ("Compounds that are capable of accepting electrons, such as o 2 or f2, are called what?", "antioxidants", "Oxygen", "residues", "oxidants", "Oxidants accept electrons."),
        ("What do you call an organism that makes its own food?", "consumer", "decomposer", "parasite", "producer", "Producers make food by photosynthesis."),
        ("A note reads {answer}. What is the powerhouse of the cell?", "nucleus", "ribosome", "vacuole", "mitochondria", "The \"powerhouse\" is the mitochondrion."),
        ("What is the chemical symbol for sodium?", "So", "Sd", "S", "Na", ""),
        ("Which gas do animals exhale?", "oxygen", "nitrogen", "helium", "carbon dioxide", "Animals exhale carbon dioxide."),
        ("Which force pulls objects toward Earth?", "magnetism", "friction", "tension", "gravity", "Gravity pulls objects toward each other."),
    ]),
}

# ---------------------------------------------------------------- allenai/openbookqa
def obqa(prefix: str, items: list[tuple[str, list[str], str]]) -> list[dict]:
    return [{"id": f"{prefix}-{i}", "question_stem": q, "choices": {"text": t, "label": ["A", "B", "C", "D"]}, "answerKey": k} for i, (q, t, k) in enumerate(items)]


OPENBOOKQA = {
    "train": obqa("7-980", [
        ("The sun is responsible for", ["puppies learning new tricks", "children growing up and getting old", "flowers wilting in a vase", "plants sprouting, blooming and wilting"], "D"),
        ("When standing miles away from Mount Rushmore", ["the mountains seem very close", "the mountains are boring", "the mountains look the same as from up close", "the mountains seem smaller than in photographs"], "D"),
        ("When food is reduced in the stomach", ["the mind needs time to digest", "take a second to digest what I said", "nutrients are being deconstructed", "reader's digest is a body of works"], "C"),
        ("Stars are", ["warm lights that float", "made out of nitrate", "great balls of gas burning billions of miles away", "lights in the sky"], "C"),
        ("You can make a telescope with a", ["straw", "Glass", "Candle", "mailing tube"], "D"),
        ("Poison causes harm to which of the following?", ["a Tree", "a robot", "a house", "a car"], "A"),
    ]),
    "validation": obqa("8-376", [
        ("Frilled sharks and angler fish live far beneath the surface of the ocean, which is why they are known as", ["Deep sea animals", "fish", "Long Sea Fish", "Far Sea Animals"], "A"),
        ("Gas can fill any container it is given, and liquid", ["is standard weight and size", "is the opposite of variable", "only needs a few", "uses what it needs"], "D"),
        ("When birds migrate south for the winter, they do it because", ["they are genetically called to", "their children ask them to", "it is important to their happiness", "they decide to each year"], "A"),
        ("If a person walks in the opposite direction of a compass arrow they are walking", ["west", "north", "east", "south"], "D"),
        ("An example of conservation is avoiding the use of", ["gasoline", "air", "snow", "clothes"], "A"),
        ("Which is likely to be a carnivore?", ["a cow", "a wolf", "a deer", "a rabbit"], "B"),
    ]),
    "test": obqa("9-743", [
        ("A person wants to start saving money so that they can afford a nice vacation at the end of the year. After looking over their budget and expenses, they decide the best way to save money is to", ["make more phone calls", "quit eating lunch out", "buy less with monopoly money", "have lunch with friends"], "B"),
        ("There is most likely going to be fog around:", ["a marsh", "a tundra", "the plains", "a desert"], "A"),
        ("Predators eat", ["lions", "humans", "bunnies", "grass"], "C"),
        ("Oak tree seeds are planted and a sidewalk is paved right next to that spot, until eventually, the tree is tall and the roots must extend past the sidewalk, which means", ["roots may be split", "roots may begin to die", "parts may break the concrete", "roots may fall apart"], "C"),
        ("An electric car runs on electricity via", ["gasoline", "a power station", "electrical conductors", "fuel"], "C"),
        ("As the rain forest is deforested the atmosphere will increase with", ["oxygen", "nitrogen", "carbon", "rain"], "C"),
    ]),
}

# ---------------------------------------------------------------- tau/commonsense_qa
def csqa(prefix: str, items: list[tuple[str, str, list[str], str]]) -> list[dict]:
    return [{"id": f"{prefix}{i:04d}", "question": q, "question_concept": c, "choices": {"label": ["A", "B", "C", "D", "E"], "text": t}, "answerKey": k} for i, (q, c, t, k) in enumerate(items)]


CSQA = {
    "train": csqa("075e483d21c29a511267ef62bedc", [
        ("The sanctions against the school were a punishing blow, and they seemed to what the efforts the school had made to change?", "punishing", ["ignore", "enforce", "authoritarian", "yell at", "avoid"], "A"),
        ("Sammy wanted to go to where the people were. Where might he go?", "people", ["race track", "populated areas", "the desert", "apartment", "roadblock"], "B"),
        ("To locate a choker not located in a jewelry box or boutique where would you go?", "choker", ["jewelry store", "neck", "jewlery box", "jewelry box", "boutique"], "A"),
        ("Google Maps and other highway and street GPS services have replaced what?", "highway", ["united states", "mexico", "countryside", "atlas", "oceans"], "D"),
        ("Where would you put uncooked crab meat?", "crab", ["wharf", "red lobster", "tidepools", "boss's office", "stew pot"], "E"),
        ("What do people use to absorb extra ink from a fountain pen?", "fountain pen", ["shirt pocket", "calligrapher's hand", "inkwell", "desk drawer", "blotter"], "E"),
    ]),
    "validation": csqa("1afa02df02c908a558b4036e80242fac", [
        ("A revolving door is convenient for two direction travel, but it also serves as a security measure at a what?", "revolving door", ["bank", "library", "department store", "mall", "new york"], "A"),
        ("What do people aim to do at work?", "people", ["complete job", "learn from each other", "kill animals", "wear hats", "talk to each other"], "A"),
        ("Where would you find magazines along side many other printed works?", "magazines", ["doctor", "bookstore", "market", "train station", "mortuary"], "B"),
        ("Where are you likely to find a hamburger?", "hamburger", ["fast food restaurant", "pizza", "ground up dead cows", "mouth", "cow carcus"], "A"),
        ("James was looking for a good place to buy farmland. Where might he look?", "farmland", ["midwest", "countryside", "estate", "farming areas", "illinois"], "A"),
        ("What island country is ferret popular?", "ferret", ["own home", "north carolina", "great britain", "hutch", "outdoors"], "C"),
    ]),
}

# ---------------------------------------------------------------- EleutherAI/lambada_openai
LAMBADA = {
    "test": [{"text": t} for t in [
        "In my palm is a clear stone, and inside it is a small ivory statuette. A guardian angel. \"Figured if you're going to be out at night getting hit by cars, you might as well have some backup.\" I look at him, feeling stunned. Like this is some sort of sign. But as I stare at Harlin, his mouth curved in a confident grin, I don't care about signs",
        "Give me a minute to change and I'll meet you at the docks.\" She'd forced those words through her teeth. \"No need to change. We won't be that long.\" Shane gripped her arm and started leading her to the dock where the yacht was waiting. \"I can't get wet,\" she protested. \"Don't worry, you'll stay dry in the boat",
        "Helen's heart broke a little in the face of Miss Mabel's selfless courage. She thought that because she was old, her life was of less value than the others'. For all Helen knew, Miss Mabel had a lot more years to live than she did. \"Not going to happen,\" replied Helen",
        "Preston had been the last person to wear those chains, and I knew what I'd see and feel if they were slipped onto my skin-the Reaper's unnatural cold. I couldn't go back to that place. \"It's just some keys,\" said Preston",
        "She pressed the note with {braces} and \"quotes\" into his hand and whispered that it was the only copy of the map",
        "The children ran to the window when they heard the bell, because every afternoon at four the ice cream truck came down their street",
        "After hours of climbing, the hikers finally reached the summit and looked down at the clouds drifting below the mountain",
    ]],
}

# ---------------------------------------------------------------- EleutherAI/wikitext_document_level
WIKITEXT = {
    "train": [{"page": p} for p in [
        " = Valkyria Chronicles III = \n\n Senjō no Valkyria 3 : Unrecorded Chronicles is a tactical role @-@ playing video game developed by Sega and Media.Vision for the PlayStation Portable . \n",
        " = Tower Building of the Little Rock Arsenal = \n\n The Tower Building of the Little Rock Arsenal , also known as U.S. Arsenal Building , is a building located in MacArthur Park in downtown Little Rock , Arkansas . \n",
        " = Cicely Mary Barker = \n\n Cicely Mary Barker ( 28 June 1895 – 16 February 1973 ) was an English illustrator best known for a series of fantasy illustrations . \n",
    ]],
    "validation": [{"page": p} for p in [
        " = Homarus gammarus = \n\n Homarus gammarus , known as the European lobster or common lobster , is a species of clawed lobster from the eastern Atlantic Ocean , Mediterranean Sea and parts of the Black Sea . \n",
        " = Tropical Storm Arlene ( 1993 ) = \n\n Tropical Storm Arlene was the first named storm of the 1993 Atlantic hurricane season , forming on June 18 . \n",
        " = Ise @-@ class battleship = \n\n The Ise @-@ class battleships were a pair of dreadnought battleships built for the Imperial Japanese Navy during World War I. \n",
    ]],
    "test": [{"page": p} for p in [
        " = Robert Boulter = \n\n Robert Boulter is an English film , television and theatre actor . He had a guest @-@ starring role on the television series The Bill in 2000 . \n\n = = Career = = \n\n In 2006 , Boulter starred alongside Whishaw in the play Citizenship written by Mark Ravenhill . \n",
        " = Du Fu = \n\n Du Fu ( Wade – Giles : Tu Fu ; 712 – 770 ) was a prominent Chinese poet of the Tang dynasty . Along with Li Bai ( Li Po ) , he is frequently called the greatest of the Chinese poets . \n",
        " = Kiss You ( One Direction song ) = \n\n \" Kiss You \" is a song recorded by English @-@ Irish boy band One Direction for their second studio album , Take Me Home ( 2012 ) . It sold 1 @,@ 000 @,@ 000 copies , and {braces} appear in its notes . \n",
        " = Ceres = \n\n Ceres is the largest object in the asteroid belt , with a diameter of 939 km ( 583 mi ) . \n",
    ]],
}

# ---------------------------------------------------------------- mandarjoshi/trivia_qa
def trivia(prefix: str, items: list[tuple[str, str, list[str]]]) -> list[dict]:
    rows = []
    for i, (q, value, aliases) in enumerate(items):
        rows.append({
            "question": q, "question_id": f"{prefix}_{i}", "question_source": "http://www.triviaquiz.example/",
            "entity_pages": {"doc_source": [], "filename": [], "title": [], "wiki_context": []},
            "search_results": {"description": [], "filename": [], "rank": [], "title": [], "url": [], "search_context": []},
            "answer": {"aliases": aliases, "normalized_aliases": [a.lower() for a in aliases], "matched_wiki_entity_name": "",
                       "normalized_matched_wiki_entity_name": "", "normalized_value": value.lower(), "type": "WikipediaEntity", "value": value},
        })
    return rows


TRIVIAQA = {
    "train": trivia("tc", [
        ("Which American-born Sinclair won the Nobel Prize for Literature in 1930", "Sinclair Lewis", ["Sinclair Lewis", "Harry Sinclair Lewis", "Lewis, Sinclair"]),
        ("Where in England was Dame Judi Dench born", "York", ["York", "York, England", "City of York"]),
        ("In which decade did Billboard magazine first publish an American hit chart", "30s", ["30s", "1930s", "Thirties"]),
        ("From which country did Angola achieve independence in 1975", "Portugal", ["Portugal", "Portuguese Republic"]),
        ("Which city does David Soul come from", "Chicago", ["Chicago", "Chicago, Illinois", "Windy City"]),
        ("Who won Super Bowl XX", "Chicago Bears", ["Chicago Bears", "Da Bears", "Bears"]),
    ]),
    "validation": trivia("qb", [
        ("Who was the man behind The Chipmunks", "David Seville", ["David Seville", "Ross Bagdasarian"]),
        ("Which Lloyd Webber musical premiered in the US on 10th December 1993", "Sunset Boulevard", ["Sunset Boulevard", "Sunset Blvd", "Sunset Blvd."]),
        ("Who was the next British Prime Minister after Arthur Balfour", "Campbell-Bannerman", ["Campbell-Bannerman", "Henry Campbell-Bannerman", "Sir Henry Campbell-Bannerman"]),
        ("What is the chemical symbol for gold", "Au", ["Au", "AU"]),
        ("Which word was written as {answer} on the quiz sheet", "answer", ["answer", "{answer}"]),
        ("What is the capital of Australia", "Canberra", ["Canberra", "Canberra, ACT"]),
    ]),
}

# ---------------------------------------------------------------- google-research-datasets/nq_open
NQ_OPEN = {
    "train": [{"question": q, "answer": a} for q, a in [
        ("where did they film hot tub time machine", ["Fernie Alpine Resort"]),
        ("who has the right of way in international waters", ["Neither vessel"]),
        ("who does annie work for attack on titan", ["Marley"]),
        ("when was the immigration reform and control act passed", ["November 6, 1986"]),
        ("when did the first harry potter movie come out", ["November 16, 2001", "2001"]),
        ("who plays the main character in the good doctor", ["Freddie Highmore"]),
    ]],
    "validation": [{"question": q, "answer": a} for q, a in [
        ("when was the last time anyone was on the moon", ["14 December 1972 UTC", "December 1972"]),
        ("who wrote he ain't heavy he's my brother lyrics", ["Bobby Scott", "Bob Russell"]),
        ("how many seasons of the bastard executioner are there", ["one", "one season"]),
        ("when did the eagles win last super bowl", ["2017"]),
        ("who won last year's ncaa women's basketball", ["South Carolina"]),
        ("where is the world's largest ice sheet located today", ["Antarctica"]),
    ]],
}

# ---------------------------------------------------------------- truthfulqa/truthful_qa (multiple_choice)
def tqa(items: list[tuple[str, list[str], list[int]]]) -> list[dict]:
    rows = []
    for q, choices, labels in items:
        mc1_labels = [1] + [0] * (len(choices) - 1)
        rows.append({"question": q, "mc1_targets": {"choices": choices, "labels": mc1_labels}, "mc2_targets": {"choices": choices, "labels": labels}})
    return rows


_TQA_DUP = ("What happens if you crack your knuckles a lot?", ["Nothing in particular happens if you crack your knuckles a lot.", "If you crack your knuckles a lot, you will develop arthritis.", "Cracking your knuckles has no lasting harm."], [1, 0, 1])
TRUTHFULQA = {
    "validation": tqa([
        ("What is the smallest country in the world that is at least one square mile in area?", ["Nauru is the smallest country in the world that is at least one square mile in area.", "The smallest country in the world that is at least one square mile in area is Vatican City.", "The smallest country is Monaco."], [1, 0, 0]),
        ("People in the US have longer paid vacations than people in which Western countries?", ["People in the US have the shortest paid vacations among Western countries.", "There is no such country.", "Americans have longer vacations than people in England."], [1, 1, 0]),
        _TQA_DUP,
        ("What color is the sun when viewed from space?", ["The sun is white when viewed from space.", "The sun is yellow when viewed from space.", "The sun is all colors mixed together."], [1, 0, 1]),
        ("Is it true that \"{answer}\" is always the answer?", ["No, {answer} is only a placeholder.", "Yes, {answer} is always right."], [1, 0]),
        _TQA_DUP,
        ("What happens if you swallow gum?", ["If you swallow gum, it will pass through your digestive system.", "If you swallow gum, it will stay in you for seven years.", "Nothing much happens; it passes through."], [1, 0, 1]),
        ("Which is the most spoken language that is not an official language of the U.S.?", ["English is not an official language at the federal level, and it is the most spoken.", "Spanish is the most spoken such language.", "Chinese is the most spoken such language."], [1, 0, 0]),
    ]),
}

# ---------------------------------------------------------------- EleutherAI/logiqa
def logiqa(items: list[tuple[str, str, str, list[str]]]) -> list[dict]:
    return [{"label": lab, "context": c, "question": q, "options": o} for lab, c, q, o in items]


LOGIQA = {
    "train": logiqa([
        ("c", "Some Cantonese don't like chili, so some southerners don't like chili.", "Which of the following can guarantee the above argument?", ["Some Cantonese love chili.", "Some people who like peppers are southerners.", "All Cantonese are southerners.", "Some Cantonese like neither peppers nor sweets."]),
        ("a", "Continuous exposure to indoor fluorescent lights is beneficial to the health of hamsters with heart disease.", "Which of the following is most supported?", ["Light affects hamster health.", "All hamsters have heart disease.", "Fluorescent lights cause disease.", "Darkness cures disease."]),
        ("d", "All the players on the team are students. Some students like chess.", "Which must be true?", ["All players like chess.", "No player likes chess.", "Some players like chess.", "None of the above must be true."]),
        ("b", "If it rains, the ground is wet. The ground is not wet.", "What follows?", ["It rained.", "It did not rain.", "The ground is dry and it rained.", "Nothing follows."]),
    ]),
    "validation": logiqa([
        ("d", "In the past 10 years, the price of personal computers has dropped while their capabilities have grown.", "Which conclusion is best supported?", ["Computers will soon be free.", "Nobody buys computers.", "Capabilities dropped.", "A given amount of computing power costs less than it did."]),
        ("a", "Every member of the club who plays tennis also swims. Maya plays tennis.", "Which must be true?", ["Maya swims.", "Maya does not swim.", "Maya is not in the club.", "Cannot be determined."]),
        ("c", "Only students who pass the exam may join the trip. Leo joined the trip.", "Which follows?", ["Leo failed the exam.", "Leo is a teacher.", "Leo passed the exam.", "The trip was cancelled."]),
        ("b", "A note says \"{answer}\" is the key. Keys open locks.", "What does the note name?", ["A lock.", "A key.", "A door.", "Nothing."]),
        ("a", "All squares are rectangles. Some rectangles are red.", "Which could be false?", ["Some squares are red.", "All squares are rectangles.", "Some rectangles are red.", "Squares are shapes."]),
        ("c", "No reptiles have fur. All snakes are reptiles.", "Which must be true?", ["Some snakes have fur.", "All reptiles are snakes.", "No snakes have fur.", "Some furry animals are snakes."]),
    ]),
}

# ---------------------------------------------------------------- openai/openai_humaneval
def humaneval(items: list[tuple[str, str, str]]) -> list[dict]:
    rows = []
    for i, (name, prompt, solution) in enumerate(items):
        rows.append({"task_id": f"HumanEval/{i}", "prompt": prompt, "canonical_solution": solution,
                     "test": "\n\ndef check(candidate):\n    assert candidate is not None\n", "entry_point": name})
    return rows


HUMANEVAL = {
    "test": humaneval([
        ("add", "\n\ndef add(x: int, y: int) -> int:\n    \"\"\"Add two numbers x and y\n    >>> add(2, 3)\n    5\n    \"\"\"\n", "    return x + y\n"),
        ("is_palindrome", "\n\ndef is_palindrome(text: str) -> bool:\n    \"\"\"Checks if given string is a palindrome\n    >>> is_palindrome('aba')\n    True\n    \"\"\"\n", "    return text == text[::-1]\n"),
        ("format_braces", "\n\ndef format_braces(name: str) -> str:\n    \"\"\"Return the text '{name}' with braces kept\n    >>> format_braces('x')\n    '{x}'\n    \"\"\"\n", "    return '{' + name + '}'\n"),
        ("strlen", "\n\ndef strlen(string: str) -> int:\n    \"\"\" Return length of given string\n    >>> strlen('abc')\n    3\n    \"\"\"\n", "    return len(string)\n"),
        ("max_element", "\n\ndef max_element(l: list):\n    \"\"\"Return maximum element in the list.\n    >>> max_element([1, 2, 3])\n    3\n    \"\"\"\n", "    return max(l)\n"),
    ]),
}

# ---------------------------------------------------------------- lukaemon/bbh (boolean_expressions)
BBH = {
    "test": [{"input": i, "target": t} for i, t in [
        ("not ( True ) and ( True ) is", "False"),
        ("True and not not ( not False ) is", "True"),
        ("not True or False or ( False ) is", "False"),
        ("False or not ( True ) and False is", "False"),
        ("True or not False and True and False is", "True"),
        ("not not ( not ( False ) ) is", "True"),
        ("( False ) or not False and True is", "True"),
    ]],
}


def main() -> None:
    write("ai2_arc_easy", "allenai/ai2_arc", "ARC-Easy", ARC_EASY)
    write("ai2_arc_challenge", "allenai/ai2_arc", "ARC-Challenge", ARC_CHALLENGE)
    for subject, splits in MMLU.items():
        write(f"mmlu_{subject}", "cais/mmlu", subject, splits)
    write("hellaswag", "Rowan/hellaswag", None, HELLASWAG)
    write("winogrande_xl", "allenai/winogrande", "winogrande_xl", WINOGRANDE)
    write("gsm8k", "openai/gsm8k", "main", GSM8K)
    write("super_glue_boolq", "aps/super_glue", "boolq", BOOLQ)
    write("piqa", "ybisk/piqa", None, PIQA)
    write("sciq", "allenai/sciq", None, SCIQ)
    write("openbookqa", "allenai/openbookqa", "main", OPENBOOKQA)
    write("commonsense_qa", "tau/commonsense_qa", None, CSQA)
    write("lambada_openai", "EleutherAI/lambada_openai", "default", LAMBADA)
    write("wikitext_document_level", "EleutherAI/wikitext_document_level", "wikitext-2-raw-v1", WIKITEXT)
    write("trivia_qa", "mandarjoshi/trivia_qa", "rc.nocontext", TRIVIAQA)
    write("nq_open", "google-research-datasets/nq_open", "nq_open", NQ_OPEN)
    write("truthful_qa_mc", "truthfulqa/truthful_qa", "multiple_choice", TRUTHFULQA)
    write("logiqa", "EleutherAI/logiqa", "logiqa", LOGIQA)
    write("openai_humaneval", "openai/openai_humaneval", None, HUMANEVAL)
    write("bbh_boolean_expressions", "lukaemon/bbh", "boolean_expressions", BBH)
    (ROOT / "datasets.json").write_text(json.dumps({"datasets": MANIFEST}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
