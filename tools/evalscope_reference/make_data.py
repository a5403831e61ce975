"""Write the rows of ``tests/evalscope/data/``: small datasets in the columns and local layouts EvalScope reads.

Run with any Python 3.10+ (standard library only) from the repository root::

    python3 tools/evalscope_reference/make_data.py

Every row is written here, in the real columns of its benchmark: the columns that benchmark's
``record_to_sample`` (EvalScope 1.14.1) reads, with the value types the hub dataset has (``mmlu``'s
``answer`` an int, ``arc``'s ``choices`` a ``{text, label}`` struct, ``cmmlu``'s choices prefixed
``(A) ``, ...). The questions are our own. Sizes: enough train rows for the benchmark's default
few-shot count plus one (so "the first N" is visible), about five eval rows, two subsets where the
benchmark has subsets.

Layouts (see NOTES.md, "Local data"): a benchmark read through ``DatasetHub`` (every built-in
benchmark except ``general_qa``/``general_mcq``) gets a Hugging Face ``datasets`` folder: a
``README.md`` whose YAML ``configs`` declare one config per loader subset and its split files,
or, for the loader subset ``default`` with split names ``datasets`` recognises (train, validation,
test), bare ``<split>.jsonl`` files. ``general_qa``/``general_mcq`` use EvalScope's own local
format: ``<subset>_<split>.<ext>`` or ``<subset>.<ext>`` (jsonl, csv, tsv, parquet).
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2] / "tests" / "evalscope" / "data"

Rows = list[dict[str, Any]]


def write_jsonl(path: Path, rows: Rows) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def write_csv(path: Path, rows: Rows) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")


def hf_folder(name: str, configs: dict[str, dict[str, Rows]], string_columns: bool = False) -> None:
    """A ``datasets`` folder: README.md YAML ``configs`` (one per loader subset) and ``<config>/<split>.jsonl``.

    ``string_columns``: declare every column a string in ``dataset_info`` (the hub dataset's schema), so
    ``datasets``' JSON reader does not turn ISO dates into timestamps.
    """
    folder = ROOT / name
    lines = ["---", "configs:"]
    for config, splits in configs.items():
        lines += [f"- config_name: {json.dumps(config, ensure_ascii=False)}", "  data_files:"]
        for split, rows in splits.items():
            rel = f"{config}/{split}.jsonl" if len(configs) > 1 or config != "default" else f"{split}.jsonl"
            lines += [f"  - split: {split}", f"    path: {json.dumps(rel, ensure_ascii=False)}"]
            write_jsonl(folder / rel, rows)
    if string_columns:
        lines.append("dataset_info:")
        for config, splits in configs.items():
            lines += [f"- config_name: {json.dumps(config, ensure_ascii=False)}", "  features:"]
            for column in next(iter(splits.values()))[0]:
                lines += [f"  - name: {column}", "    dtype: string"]
    lines += ["---", "", f"Test rows for EvalScope's `{name}` loader (written by tools/evalscope_reference/make_data.py).", ""]
    (folder / "README.md").write_text("\n".join(lines), encoding="utf-8")


def plain_folder(name: str, splits: dict[str, Rows]) -> None:
    """Loader subset ``default``: bare ``<split>.jsonl`` files, splits inferred by ``datasets`` from the names."""
    for split, rows in splits.items():
        write_jsonl(ROOT / name / f"{split}.jsonl", rows)


# --------------------------------------------------------------------------- general_qa / general_mcq


def general_qa() -> None:
    # subset "example": found as example.jsonl (no example_test.jsonl); subset "chat": chat_test.jsonl.
    write_jsonl(
        ROOT / "general_qa" / "example.jsonl",
        [
            {"query": "What is the capital of Australia?", "response": "Canberra"},
            {"question": "Name the largest planet in the solar system.", "answer": "Jupiter"},
            {"system": "Answer in one word.", "query": "Which gas do plants absorb from the air?", "response": "Carbon dioxide"},
            {"query": "Fill in: a template placeholder looks like {answer} or {question}.", "response": "{answer}"},
            {"query": "How many legs does a spider have?", "response": "Eight"},
        ],
    )
    write_jsonl(
        ROOT / "general_qa" / "chat_test.jsonl",
        [
            {
                "messages": [
                    {"role": "system", "content": "You are a geography tutor."},
                    {"role": "user", "content": "Which river flows through Cairo?"},
                    {"role": "assistant", "content": "The Nile."},
                    {"role": "user", "content": "And which sea does it empty into?"},
                ],
                "response": "The Mediterranean Sea",
            },
            {
                "messages": [
                    {"role": "user", "content": "Translate 'good morning' into French."},
                ],
                "response": "Bonjour",
            },
            {
                "messages": [
                    {"role": "user", "content": "Give me a prime number."},
                    {"role": "assistant", "content": "7"},
                    {"role": "user", "content": "A larger one, below 20."},
                ],
                "answer": "19",
            },
        ],
    )


def general_mcq() -> None:
    # subset "example": CSV (the user guide's format); subset "logic": JSONL with five options (A-E).
    write_csv(
        ROOT / "general_mcq" / "example_dev.csv",
        [
            {"id": "d1", "question": "Which metal is liquid at room temperature?", "A": "Iron", "B": "Mercury", "C": "Copper", "D": "Zinc", "answer": "B"},
            {"id": "d2", "question": "How many continents are there?", "A": "Five", "B": "Six", "C": "Seven", "D": "Eight", "answer": "C"},
            {"id": "d3", "question": "Which organ pumps blood?", "A": "Heart", "B": "Lung", "C": "Liver", "D": "Kidney", "answer": "A"},
        ],
    )
    write_csv(
        ROOT / "general_mcq" / "example_val.csv",
        [
            {"id": "v1", "question": "Which planet is known as the Red Planet?", "A": "Venus", "B": "Saturn", "C": "Mars", "D": "Mercury", "answer": "C"},
            {"id": "v2", "question": "What is 12 multiplied by 12?", "A": "124", "B": "144", "C": "132", "D": "156", "answer": "B"},
            {"id": "v3", "question": "Which of these is written {like this} in Python?", "A": "A list", "B": "A tuple", "C": "A set or a dict", "D": "A string", "answer": "C"},
            {"id": "v4", "question": "Water boils at sea level at which temperature?", "A": "90 °C", "B": "100 °C", "C": "110 °C", "D": "120 °C", "answer": "B"},
        ],
    )
    write_jsonl(
        ROOT / "general_mcq" / "logic_dev.jsonl",
        [
            {"id": "ld1", "question": "All cats are mammals. Tom is a cat. So Tom is:", "A": "a mammal", "B": "a bird", "C": "a fish", "D": "a reptile", "E": "unknown", "answer": "A"},
            {"id": "ld2", "question": "If it rains the ground is wet. The ground is dry. So:", "A": "it rained", "B": "it did not rain", "C": "it snowed", "D": "it is night", "E": "unknown", "answer": "B"},
        ],
    )
    write_jsonl(
        ROOT / "general_mcq" / "logic_val.jsonl",
        [
            {"id": "lv1", "question": "Every square is a rectangle. Shape S is a square. Shape S is:", "A": "a circle", "B": "a triangle", "C": "a rectangle", "D": "a line", "E": "unknown", "answer": "C"},
            {"id": "lv2", "question": "No fish can fly. Nemo is a fish. Can Nemo fly?", "A": "Yes", "B": "Only at night", "C": "Sometimes", "D": "No", "E": "unknown", "answer": "D"},
            {"id": "lv3", "question": "Some birds cannot fly. A penguin is a bird. Therefore:", "A": "penguins fly", "B": "all birds fly", "C": "no birds fly", "D": "penguins are fish", "E": "it does not follow that a penguin flies", "answer": "E"},
        ],
    )


# --------------------------------------------------------------------------- maths


def _gsm(question: str, steps: str, answer: str) -> dict[str, str]:
    return {"question": question, "answer": f"{steps}\n#### {answer}"}


def gsm8k() -> None:
    train = [
        _gsm("Mia has 3 boxes with 4 pencils in each box. How many pencils does she have?", "Mia has 3 * 4 = <<3*4=12>>12 pencils.", "12"),
        _gsm("A train travels 60 km in an hour. How far does it travel in 3 hours?", "In 3 hours it travels 60 * 3 = <<60*3=180>>180 km.", "180"),
        _gsm(
            "Leo buys 2 shirts at $15 each and a cap for $8. How much does he spend?",
            "The shirts cost 2 * 15 = <<2*15=30>>30 dollars.\nIn total he spends 30 + 8 = <<30+8=38>>38 dollars.",
            "38",
        ),
        _gsm("There are 24 students and they form groups of 4. How many groups are there?", "There are 24 / 4 = <<24/4=6>>6 groups.", "6"),
        _gsm("Ana reads 10 pages a day. How many pages does she read in a week?", "A week has 7 days, so she reads 10 * 7 = <<10*7=70>>70 pages.", "70"),
    ]
    test = [
        _gsm("Sam had 50 marbles and gave away 18. How many marbles does he have left?", "He has 50 - 18 = <<50-18=32>>32 marbles left.", "32"),
        _gsm(
            "A baker makes 5 trays of 12 cookies and sells 45 of them. How many cookies are left?",
            "She makes 5 * 12 = <<5*12=60>>60 cookies.\n60 - 45 = <<60-45=15>>15 are left.",
            "15",
        ),
        _gsm("A rope of 9 m is cut into pieces of 1.5 m. How many pieces are there?", "9 / 1.5 = <<9/1.5=6>>6 pieces.", "6"),
        _gsm(
            "Tickets cost $7 for adults and $4 for children. What do 2 adults and 3 children pay?",
            "Adults pay 2 * 7 = <<2*7=14>>14.\nChildren pay 3 * 4 = <<3*4=12>>12.\nTogether 14 + 12 = <<14+12=26>>26.",
            "26",
        ),
        _gsm("A form asks for {answer} in braces. If 3 forms take 4 minutes each, how long do they take?", "3 * 4 = <<3*4=12>>12 minutes.", "12"),
    ]
    hf_folder("gsm8k", {"main": {"train": train, "test": test}})


def competition_math() -> None:
    def row(problem: str, level: str, kind: str, solution: str) -> dict[str, str]:
        return {"problem": problem, "level": level, "type": kind, "solution": solution}

    train = [
        row("What is $2+3\\cdot 4$?", "Level 1", "Prealgebra", "Multiplication first: $3\\cdot 4=12$, so $2+12=\\boxed{14}$."),
        row("Compute $\\frac{1}{2}+\\frac{1}{4}$.", "Level 2", "Prealgebra", "$\\frac{2}{4}+\\frac{1}{4}=\\boxed{\\frac{3}{4}}$."),
        row("How many positive divisors does $12$ have?", "Level 1", "Number Theory", "They are $1,2,3,4,6,12$, so there are $\\boxed{6}$."),
        row("Solve $2x+5=17$.", "Level 1", "Algebra", "$2x=12$, so $x=\\boxed{6}$."),
        row("What is the sum of the interior angles of a pentagon, in degrees?", "Level 2", "Geometry", "$(5-2)\\cdot 180=\\boxed{540}$."),
        row("Evaluate $\\sqrt{49}+\\sqrt{16}$.", "Level 1", "Prealgebra", "$7+4=\\boxed{11}$."),
        row("What is $5!$?", "Level 2", "Counting & Probability", "$5!=120$, so the answer is $\\boxed{120}$."),
        row("Find the remainder when $100$ is divided by $7$.", "Level 1", "Number Theory", "$100=14\\cdot 7+2$, remainder $\\boxed{2}$."),
        row("If $f(x)=x^2-1$, what is $f(3)$?", "Level 2", "Algebra", "$f(3)=9-1=\\boxed{8}$."),
        row("What is the least common multiple of $4$ and $6$?", "Level 2", "Number Theory", "$\\text{lcm}(4,6)=\\boxed{12}$."),
        row("How many edges does a cube have?", "Level 3", "Geometry", "A cube has $\\boxed{12}$ edges."),
        row("Compute $3^4$.", "Level 1", "Algebra", "$3^4=\\boxed{81}$."),
        row("Simplify $\\frac{18}{24}$.", "Level 2", "Prealgebra", "$\\frac{18}{24}=\\boxed{\\frac{3}{4}}$."),
    ]
    test = [
        row("What is $7\\cdot 8-6$?", "Level 1", "Prealgebra", "$56-6=\\boxed{50}$."),
        row("Solve for $y$: $3y-4=11$.", "Level 1", "Algebra", "$3y=15$, $y=\\boxed{5}$."),
        row("How many ways can 3 books be arranged on a shelf?", "Level 2", "Counting & Probability", "$3!=\\boxed{6}$."),
        row("What is the greatest common divisor of $18$ and $24$?", "Level 2", "Number Theory", "$\\gcd(18,24)=\\boxed{6}$."),
        row("Find the area of a circle of radius $3$.", "Level 3", "Geometry", "$\\pi r^2=\\boxed{9\\pi}$."),
        row("Compute $\\frac{2}{3}\\cdot\\frac{9}{4}$.", "Level 2", "Prealgebra", "$\\frac{18}{12}=\\boxed{\\frac{3}{2}}$."),
    ]
    plain_folder("competition_math", {"train": train, "test": test})


def math_500() -> None:
    def row(i: int, problem: str, level: int, subject: str, solution: str, answer: str) -> dict[str, Any]:
        return {"problem": problem, "solution": solution, "answer": answer, "subject": subject, "level": level, "unique_id": f"test/{subject.lower()}/{i}.json"}

    test = [
        row(1, "What is $\\frac{3}{5}$ of $40$?", 1, "Prealgebra", "$\\frac{3}{5}\\cdot 40=\\boxed{24}$.", "24"),
        row(2, "Solve $x^2=81$ for $x>0$.", 2, "Algebra", "$x=\\boxed{9}$.", "9"),
        row(3, "Write $0.25$ as a fraction in lowest terms.", 1, "Prealgebra", "$0.25=\\boxed{\\frac{1}{4}}$.", "\\frac{1}{4}"),
        row(4, "How many diagonals does a hexagon have?", 3, "Geometry", "$\\frac{6\\cdot 3}{2}=\\boxed{9}$.", "9"),
        row(5, "What is the units digit of $2^{10}$?", 2, "Number Theory", "$2^{10}=1024$, units digit $\\boxed{4}$.", "4"),
        row(6, "Evaluate $|{-7}|+|3|$.", 1, "Algebra", "$7+3=\\boxed{10}$.", "10"),
    ]
    plain_folder("math_500", {"test": test})


def aime24() -> None:
    def row(i: int, problem: str, answer: str) -> dict[str, Any]:
        return {"id": i, "problem": problem, "solution": f"Working omitted; the answer is ${answer}$.", "answer": answer}

    test = [
        row(60, "Find the number of positive integers $n\\le 1000$ such that $n$ is divisible by $7$ but not by $11$.", "130"),
        row(61, "Let $a$ and $b$ be positive integers with $a+b=20$ and $ab=96$. Find $a^2+b^2$.", "208"),
        row(62, "How many ordered pairs $(x,y)$ of integers satisfy $x^2+y^2=25$?", "12"),
        row(63, "Find the remainder when $3^{100}$ is divided by $1000$.", "1"),
        row(64, "A set {x, y} of braces is not a placeholder. Find the sum of the digits of $2^{15}$.", "26"),
    ]
    plain_folder("aime24", {"test": test})


# --------------------------------------------------------------------------- knowledge multiple choice


def mmlu() -> None:
    def row(subject: str, question: str, choices: list[str], answer: int) -> dict[str, Any]:
        return {"question": question, "subject": subject, "choices": choices, "answer": answer}

    geo, ccs, astro = "high_school_geography", "college_computer_science", "astronomy"
    dev = [
        row(geo, "Which line of latitude divides the Earth into hemispheres?", ["Tropic of Cancer", "The Equator", "Prime Meridian", "Arctic Circle"], 1),
        row(ccs, "What is the worst-case time of binary search on n sorted items?", ["O(1)", "O(log n)", "O(n)", "O(n log n)"], 1),
        row(geo, "The largest desert by area is", ["the Sahara", "the Gobi", "Antarctica", "the Kalahari"], 2),
        row(astro, "Which planet has the shortest year?", ["Mercury", "Venus", "Earth", "Mars"], 0),
        row(ccs, "A stack removes elements in which order?", ["FIFO", "LIFO", "Random", "Sorted"], 1),
        row(geo, "Population density is measured as", ["people per area", "area per person", "births per year", "people per household"], 0),
        row(ccs, "How many bits are in a byte?", ["4", "8", "16", "32"], 1),
        row(geo, "A delta forms at", ["a river mouth", "a mountain top", "a glacier head", "a desert oasis"], 0),
        row(ccs, "Which structure gives O(1) average lookup by key?", ["Linked list", "Hash table", "Binary heap", "Queue"], 1),
        row(geo, "Which country has the most time zones (including territories)?", ["Russia", "USA", "France", "China"], 2),
        row(ccs, "In Python, the literal {} creates", ["a set", "a dict", "a list", "a tuple"], 1),
        row(geo, "Monsoons are driven mainly by", ["tides", "seasonal wind shifts", "earthquakes", "volcanoes"], 1),
        row(ccs, "Which sort is stable?", ["Heapsort", "Quicksort", "Merge sort", "Selection sort"], 2),
    ]
    test = [
        row(geo, "Which ocean is the largest?", ["Atlantic", "Indian", "Arctic", "Pacific"], 3),
        row(ccs, "A compiler translates", ["source code to machine code", "machine code to source code", "text to speech", "images to text"], 0),
        row(astro, "The Sun is a", ["planet", "star", "comet", "moon"], 1),
        row(geo, "Urban sprawl refers to", ["growth of cities into rural land", "shrinking cities", "rising sea levels", "river erosion"], 0),
        row(ccs, "Which data structure uses {key: value} pairs?", ["array", "dictionary", "stack", "queue"], 1),
        row(geo, "The Ring of Fire is associated with", ["deserts", "volcanoes and earthquakes", "coral reefs", "tundra"], 1),
        row(ccs, "Big-O describes", ["exact run time", "an upper bound on growth", "memory address", "file size"], 1),
    ]
    hf_folder("mmlu", {"all": {"dev": dev, "test": test}})


def mmlu_pro() -> None:
    letters = "ABCDEFGHIJ"

    def row(qid: int, category: str, question: str, options: list[str], answer: str, cot: str, src: str) -> dict[str, Any]:
        return {
            "question_id": qid,
            "question": question,
            "options": options,
            "answer": answer,
            "answer_index": letters.index(answer),
            "cot_content": cot,
            "category": category,
            "src": src,
        }

    validation = [
        row(70, "math", "What is 15% of 200?", ["15", "20", "25", "30", "35", "40", "45", "50", "55", "60"], "D",
            "A: Let's think step by step. 10% of 200 is 20 and 5% is 10, so 15% is 30. The answer is (D).", "ori_mmlu-elementary_mathematics"),
        row(71, "computer science", "Which of the following is not a programming paradigm?", ["Functional", "Object-oriented", "Procedural", "Logical", "Relational algebra", "Declarative"], "E",
            "A: Let's think step by step. Relational algebra is a query formalism, not a paradigm for writing programs. The answer is (E).", "ori_mmlu-college_computer_science"),
        row(72, "math", "Solve for x: 4x = 28.", ["5", "6", "7", "8"], "C",
            "A: Let's think step by step. Dividing both sides by 4 gives x = 7. The answer is (C).", "ori_mmlu-high_school_mathematics"),
        row(73, "computer science", "What does CPU stand for?", ["Central Process Unit", "Central Processing Unit", "Computer Personal Unit", "Core Processing Utility", "Central Peripheral Unit"], "B",
            "A: Let's think step by step. CPU abbreviates Central Processing Unit. The answer is (B).", "ori_mmlu-computer_security"),
        row(74, "math", "What is the value of 2^6?", ["12", "32", "36", "64", "128", "256"], "D",
            "A: Let's think step by step. 2^6 = 64. The answer is (D).", "ori_mmlu-elementary_mathematics"),
        row(75, "law", "A contract requires", ["offer and acceptance", "a notary", "a witness", "a written form always"], "A",
            "A: Let's think step by step. Offer and acceptance form a contract. The answer is (A).", "ori_mmlu-professional_law"),
        row(76, "computer science", "Which complexity is fastest for large n?", ["O(n^2)", "O(n log n)", "O(log n)", "O(n)", "O(2^n)"], "C",
            "A: Let's think step by step. Logarithmic growth is the slowest of these. The answer is (C).", "ori_mmlu-college_computer_science"),
        row(77, "math", "What is the median of 3, 9, 4?", ["3", "4", "5", "9"], "B",
            "A: Let's think step by step. Sorted: 3, 4, 9; the middle value is 4. The answer is (B).", "ori_mmlu-high_school_statistics"),
        row(78, "computer science", "Which protocol secures web traffic?", ["FTP", "HTTP", "HTTPS", "SMTP", "Telnet"], "C",
            "A: Let's think step by step. HTTPS is HTTP over TLS. The answer is (C).", "ori_mmlu-computer_security"),
        row(79, "math", "How many sides does a hexagon have?", ["4", "5", "6", "7", "8"], "C",
            "A: Let's think step by step. Hexa means six. The answer is (C).", "ori_mmlu-elementary_mathematics"),
        row(80, "computer science", "A set written {1, 2} in Python has how many elements?", ["0", "1", "2", "3"], "C",
            "A: Let's think step by step. It holds 1 and 2. The answer is (C).", "ori_mmlu-high_school_computer_science"),
        row(81, "math", "What is 9 squared?", ["18", "81", "99", "729"], "B",
            "A: Let's think step by step. 9 * 9 = 81. The answer is (B).", "ori_mmlu-elementary_mathematics"),
        row(82, "computer science", "Which is an interpreted language in its usual implementation?", ["C", "Rust", "Python", "Go"], "C",
            "A: Let's think step by step. CPython interprets bytecode. The answer is (C).", "ori_mmlu-college_computer_science"),
    ]
    test = [
        row(1001, "math", "What is the sum of the first five positive integers?", ["10", "12", "15", "20", "25", "5", "21", "16", "14", "11"], "C", "", "stemez-Math"),
        row(1002, "computer science", "Which of these sorts has O(n log n) worst case?", ["Bubble sort", "Insertion sort", "Merge sort", "Quicksort", "Selection sort", "Shell sort", "Gnome sort"], "C", "", "ori_mmlu-college_computer_science"),
        row(1003, "math", "A triangle has angles 50 and 60 degrees. The third angle is", ["60", "70", "80", "90"], "B", "", "scibench-math"),
        row(1004, "law", "Which court is highest in the US federal system?", ["District court", "Supreme Court", "Circuit court", "Tax court"], "B", "", "ori_mmlu-professional_law"),
        row(1005, "computer science", "What does the literal {answer} print in an f-string without a variable named answer?", ["It prints {answer}", "It raises NameError", "It prints nothing", "It prints answer"], "B", "", "theoremQA-CS"),
        row(1006, "math", "Which number is prime?", ["21", "27", "29", "33", "39", "49"], "C", "", "stemez-Math"),
    ]
    plain_folder("mmlu_pro", {"validation": validation, "test": test})


def ceval() -> None:
    def row(i: int, question: str, a: str, b: str, c: str, d: str, answer: str, explanation: str = "") -> dict[str, Any]:
        return {"id": i, "question": question, "A": a, "B": b, "C": c, "D": d, "answer": answer, "explanation": explanation}

    network_dev = [
        row(0, "TCP协议工作在OSI模型的____。", "物理层", "数据链路层", "传输层", "应用层", "C", "1. TCP负责端到端的可靠传输。\r\n2. 因此属于传输层。"),
        row(1, "IP地址192.168.1.1属于____类地址。", "A", "B", "C", "D", "C", "1. 第一个字节为192。\r\n2. 192到223属于C类。"),
        row(2, "下列协议中用于域名解析的是____。", "DNS", "FTP", "SMTP", "ARP", "A", "DNS把域名解析为IP地址。"),
        row(3, "以太网使用的介质访问控制方法是____。", "令牌环", "CSMA/CD", "TDMA", "FDMA", "B", "经典以太网采用CSMA/CD。"),
        row(4, "HTTP默认使用的端口号是____。", "21", "25", "80", "110", "C", ""),
        row(5, "交换机工作在____。", "物理层", "数据链路层", "网络层", "传输层", "B", "二层交换机按MAC地址转发。"),
    ]
    network_val = [
        row(0, "路由器主要工作在OSI模型的____。", "物理层", "数据链路层", "网络层", "会话层", "C"),
        row(1, "下列地址中可作为私有地址的是____。", "8.8.8.8", "10.0.0.1", "1.1.1.1", "100.1.1.1", "B"),
        row(2, "子网掩码255.255.255.0对应的前缀长度是____。", "/8", "/16", "/24", "/32", "C"),
    ]
    physics_dev = [
        row(0, "质点做匀速圆周运动时，下列物理量不变的是____。", "速度", "加速度", "动能", "向心力", "C", "速度方向时刻改变，但速率不变，所以动能不变。"),
        row(1, "光在真空中的速度约为____。", "3×10^5 m/s", "3×10^8 m/s", "3×10^10 m/s", "3×10^3 m/s", "B", ""),
        row(2, "理想气体等温膨胀时，内能____。", "增大", "减小", "不变", "无法确定", "C", "理想气体内能只与温度有关。"),
        row(3, "电容的国际单位是____。", "欧姆", "亨利", "法拉", "特斯拉", "C", ""),
        row(4, "简谐振动的周期与振幅____。", "成正比", "成反比", "无关", "平方成正比", "C", "简谐振动周期由系统本身决定。"),
    ]
    physics_val = [
        row(0, "牛顿第二定律的表达式是____。", "F=ma", "E=mc^2", "p=mv", "W=Fs", "A"),
        row(1, "在国际单位制中，力的单位是____。", "焦耳", "牛顿", "瓦特", "帕斯卡", "B"),
        row(2, "一个物体从静止开始自由下落，1秒末的速度约为____。", "1 m/s", "5 m/s", "10 m/s", "20 m/s", "C"),
    ]
    hf_folder("ceval", {"computer_network": {"dev": network_dev, "val": network_val}, "college_physics": {"dev": physics_dev, "val": physics_val}})


def cmmlu() -> None:
    def row(category: str, question: str, choices: list[str], answer: str) -> dict[str, Any]:
        return {"question": question, "choices": [f"({chr(65 + i)}) {c}" for i, c in enumerate(choices)], "answer": f"({answer})", "category": category}

    dev = [
        row("agronomy", "水稻属于哪一类作物？", ["粮食作物", "油料作物", "纤维作物", "糖料作物"], "A"),
        row("computer_science", "二进制数1010等于十进制的多少？", ["8", "10", "12", "14"], "B"),
        row("agronomy", "植物进行光合作用的主要器官是？", ["根", "茎", "叶", "花"], "C"),
        row("computer_science", "下列哪种存储器断电后数据会丢失？", ["ROM", "硬盘", "RAM", "光盘"], "C"),
        row("agronomy", "轮作的主要目的是？", ["增加灌溉", "保持地力", "减少光照", "降低温度"], "B"),
        row("computer_science", "在Python中，{} 表示什么？", ["空列表", "空字典", "空元组", "空字符串"], "B"),
    ]
    test = [
        row("agronomy", "下列肥料中属于氮肥的是？", ["尿素", "过磷酸钙", "氯化钾", "石灰"], "A"),
        row("computer_science", "操作系统的主要功能不包括？", ["进程管理", "内存管理", "文件管理", "编译源程序"], "D"),
        row("agronomy", "小麦的主要产区位于我国的？", ["华南", "华北", "西南", "东南沿海"], "B"),
        row("computer_science", "TCP/IP中负责寻址的是哪一层？", ["应用层", "传输层", "网络层", "链路层"], "C"),
        row("agronomy", "土壤酸性过强时常施用？", ["石灰", "尿素", "硫酸铵", "硝酸钾"], "A"),
        row("computer_science", "下列哪个是线性数据结构？", ["树", "图", "栈", "堆"], "C"),
    ]
    # "dev" is not a split name `datasets` infers from a file name (it maps dev* to "validation"),
    # so even the loader subset "default" needs README configs here.
    hf_folder("cmmlu", {"default": {"dev": dev, "test": test}})


def arc() -> None:
    def row(i: str, question: str, texts: list[str], answer: str, labels: str = "ABCDE") -> dict[str, Any]:
        return {"id": i, "question": question, "choices": {"text": texts, "label": list(labels[: len(texts)])}, "answerKey": answer}

    easy_train = [
        row("E-tr-1", "Which form of energy does a battery store?", ["chemical", "nuclear", "sound", "light"], "A"),
        row("E-tr-2", "What do roots take in for a plant?", ["sunlight", "water", "carbon dioxide", "oxygen only"], "B"),
        row("E-tr-3", "Which is a renewable resource?", ["coal", "oil", "wind", "natural gas"], "C"),
    ]
    easy_test = [
        row("E-te-1", "What is the main source of energy for the water cycle?", ["the Sun", "the Moon", "wind", "volcanoes"], "A"),
        row("E-te-2", "Which tool measures temperature?", ["ruler", "thermometer", "balance", "stopwatch"], "B"),
        row("E-te-3", "Which state of matter has a fixed shape?", ["gas", "liquid", "solid"], "C", labels="ABC"),
    ]
    challenge_train = [
        row("C-tr-1", "A student pushes a box with more force. The box's acceleration", ["decreases", "increases", "stays zero", "reverses"], "2", labels="1234"),
        row("C-tr-2", "Which change is chemical?", ["ice melting", "paper burning", "glass breaking", "water boiling"], "B"),
        row("C-tr-3", "Why do we see the Moon?", ["it makes light", "it reflects sunlight", "it is hot", "it is near"], "B"),
    ]
    challenge_test = [
        row("C-te-1", "Which best explains why days are longer in summer?", ["Earth is closer to the Sun", "Earth's axis is tilted", "the Sun is hotter", "the Moon blocks less light"], "B"),
        row("C-te-2", "An organism that makes its own food is a", ["consumer", "producer", "decomposer", "predator"], "2", labels="1234"),
        row("C-te-3", "Which property of a mineral is tested by scratching?", ["luster", "hardness", "color", "streak", "cleavage"], "B"),
    ]
    hf_folder("arc", {"ARC-Easy": {"train": easy_train, "test": easy_test}, "ARC-Challenge": {"train": challenge_train, "test": challenge_test}})


def race() -> None:
    article_h = (
        "The town library opened a repair café last spring. Every Saturday, volunteers fix lamps, bikes and "
        "clothes for free. Visitors say they come for the repairs and stay for the conversations."
    )
    article_h2 = "Maria trained for months before the marathon. On race day it rained, but she finished in four hours and raised money for the local hospital."
    article_m = "Tom's cat, Whiskers, climbed the tall oak tree and would not come down. Tom's sister brought a ladder, and together they carried the cat home."
    article_m2 = "Our class planted ten trees behind the school. Each student waters them once a week, and the smallest tree is already taller than our teacher."

    def row(i: str, article: str, question: str, options: list[str], answer: str) -> dict[str, Any]:
        return {"example_id": i, "article": article, "answer": answer, "question": question, "options": options}

    high_train = [
        row("high1.txt", article_h, "When does the repair café open?", ["Every day", "On Saturdays", "Only in spring", "On Sundays"], "B"),
        row("high1.txt", article_h, "What do visitors enjoy besides repairs?", ["Free food", "Conversations", "Books", "Music"], "B"),
        row("high2.txt", article_h2, "What was the weather on race day?", ["Sunny", "Snowy", "Rainy", "Windy"], "C"),
        row("high2.txt", article_h2, "Whom did Maria raise money for?", ["A school", "A hospital", "A library", "A zoo"], "B"),
    ]
    high_test = [
        row("high3.txt", article_h, "Who fixes the items?", ["Shop owners", "Volunteers", "Students", "Librarians"], "B"),
        row("high3.txt", article_h, "What is the best title?", ["A Café That Fixes More Than Things", "How to Repair a Bike", "Spring Sales", "Library Rules"], "A"),
        row("high4.txt", article_h2, "How long did Maria take?", ["Two hours", "Three hours", "Four hours", "Five hours"], "C"),
    ]
    middle_train = [
        row("middle1.txt", article_m, "Where did Whiskers climb?", ["A roof", "An oak tree", "A fence", "A car"], "B"),
        row("middle1.txt", article_m, "What did Tom's sister bring?", ["A rope", "A box", "A ladder", "Some food"], "C"),
        row("middle2.txt", article_m2, "How many trees did the class plant?", ["Five", "Ten", "Twelve", "Twenty"], "B"),
        row("middle2.txt", article_m2, "How often does each student water the trees?", ["Daily", "Once a week", "Once a month", "Never"], "B"),
    ]
    middle_test = [
        row("middle3.txt", article_m, "Who helped Tom?", ["His father", "His friend", "His sister", "His teacher"], "C"),
        row("middle4.txt", article_m2, "What is true about the smallest tree?", ["It died", "It is taller than the teacher", "It was cut down", "It has fruit"], "B"),
        row("middle4.txt", article_m2, "Where were the trees planted?", ["In a park", "Behind the school", "In a forest", "At home"], "B"),
    ]
    hf_folder("race", {"high": {"train": high_train, "test": high_test}, "middle": {"train": middle_train, "test": middle_test}})


def iquiz() -> None:
    def row(question: str, choices: list[str], answer: str, level: int) -> dict[str, Any]:
        return {"question": question, "choices": choices, "answer": answer, "level": level}

    iq = [
        row("数列 2, 4, 8, 16, ? 的下一个数是多少？", ["18", "24", "32", "64"], "C", 1),
        row("如果所有的A都是B，有些B是C，那么下列哪项一定正确？", ["所有A都是C", "有些A是C", "所有A都是B", "没有A是C"], "C", 2),
        row("钟表上3点整时，时针和分针的夹角是多少度？", ["45", "60", "90", "120"], "C", 1),
    ]
    eq = [
        row("朋友向你倾诉烦恼时，最合适的做法是？", ["立刻给出建议", "认真倾听并表示理解", "转移话题", "批评他"], "B", 1),
        row("同事在会议上否定了你的方案，你应该？", ["当场争吵", "冷静询问原因并改进", "以后不再发言", "向领导抱怨"], "B", 2),
        row("面对失败时，较好的心态是？", ["一蹶不振", "归咎他人", "总结经验再尝试", "假装没发生"], "C", 1),
    ]
    hf_folder("iquiz", {"IQ": {"test": iq}, "EQ": {"test": eq}})


def gpqa_diamond() -> None:
    def row(i: str, q: str, correct: str, wrong: list[str], domain: str) -> dict[str, Any]:
        return {
            "Record ID": i,
            "Question": q,
            "Correct Answer": correct,
            "Incorrect Answer 1": wrong[0],
            "Incorrect Answer 2": wrong[1],
            "Incorrect Answer 3": wrong[2],
            "High-level domain": domain,
        }

    train = [
        row("rec1", "Which particle mediates the electromagnetic force?", "The photon", ["The gluon", "The W boson", "The graviton"], "Physics"),
        row("rec2", "What is the hybridisation of carbon in methane?", "sp3", ["sp", "sp2", "dsp2"], "Chemistry"),
        row("rec3", "Which organelle carries out oxidative phosphorylation?", " The mitochondrion ", ["The ribosome", "The Golgi apparatus", "The lysosome"], "Biology"),
        row("rec4", "In a {closed} system, which quantity is conserved in an elastic collision?", "Kinetic energy", ["Temperature", "Volume", "Entropy only"], "Physics"),
        row("rec5", "Which base pairs with adenine in DNA?", "Thymine", ["Uracil", "Cytosine", "Guanine"], "Biology"),
    ]
    plain_folder("gpqa_diamond", {"train": train})


def chinese_simpleqa() -> None:
    def row(i: str, primary: str, secondary: str, question: str, answer: str) -> dict[str, Any]:
        return {"id": i, "primary_category": primary, "secondary_category": secondary, "question": question, "answer": answer, "urls": []}

    train = [
        row("c1", "中华文化", "文学", "《红楼梦》的作者通常被认为是谁？", "曹雪芹"),
        row("c2", "自然与自然科学", "物理", "水在标准大气压下的沸点是多少摄氏度？", "100"),
        row("c3", "中华文化", "历史", "秦朝的第一位皇帝是谁？", "秦始皇"),
        row("c4", "社会", "地理", "中国的首都是哪座城市？", "北京"),
        row("c5", "自然与自然科学", "化学", "水的化学式是什么？", "H2O"),
        row("c6", "中华文化", "节日", "端午节在农历几月几日？", "五月初五"),
    ]
    plain_folder("chinese_simpleqa", {"train": train})


# --------------------------------------------------------------------------- reasoning and commonsense


def hellaswag() -> None:
    def row(i: int, label: str, ctx_a: str, ctx_b: str, endings: list[str], answer: str) -> dict[str, Any]:
        return {
            "ind": i,
            "activity_label": label,
            "ctx_a": ctx_a,
            "ctx_b": ctx_b,
            "ctx": f"{ctx_a} {ctx_b}",
            "endings": endings,
            "source_id": f"activitynet~v_{i}",
            "split": "val",
            "split_type": "indomain",
            "label": answer,
        }

    validation = [
        row(10, "Making tea", "A woman fills a kettle with water.", "she", ["puts it on the stove and waits.", "throws the kettle outside.", "paints the kettle red.", "sings to the kettle."], "0"),
        row(11, "Washing a car", "A man sprays soap on a car.", "then he", ["drives away at once.", "scrubs the car with a sponge.", "eats the sponge.", "climbs on the roof."], "1"),
        row(12, "Home and Garden", "[header] How to plant tulips [title] Choose a sunny spot.", "[step] Dig", ["a hole in the sky.", "holes about [title] 15 cm deep.", "under the house.", "with a spoon only."], "1"),
        row(13, "Playing guitar", "A boy holds a guitar on his lap.", "he", ["strums the strings slowly.", "uses it as a boat.", "puts it in the oven.", "feeds it to a dog."], "0"),
        row(14, "Running", "Runners line up at the start.", "the whistle blows and they", ["sit down.", "start running down the track.", "go home.", "turn around."], "1"),
    ]
    plain_folder("hellaswag", {"validation": validation})


def winogrande() -> None:
    def row(i: int, sentence: str, option1: str, option2: str, answer: str) -> dict[str, Any]:
        return {"id": f"winogrande_test val {i}", "sentence": sentence, "option1": option1, "option2": option2, "answer": answer}

    validation = [
        row(0, "The trophy didn't fit in the suitcase because the _ was too big.", "trophy", "suitcase", "1"),
        row(1, "Anna lent Beth her umbrella because _ was going out in the rain.", "Anna", "Beth", "2"),
        row(2, "The water bottle broke the glass because the _ was fragile.", "bottle", "glass", "2"),
        row(3, "Kevin taught Ian to swim since _ already knew how.", "Kevin", "Ian", "1"),
        row(4, "The soup was colder than the tea, so the _ needed reheating.", "soup", "tea", "1"),
    ]
    plain_folder("winogrande", {"validation": validation})


def bbh() -> None:
    date = [
        {"input": "Today is 3/5/2021. What is the date tomorrow in MM/DD/YYYY?\nOptions:\n(A) 03/06/2021\n(B) 03/04/2021\n(C) 04/05/2021\n(D) 03/05/2022", "target": "(A)"},
        {"input": "Yesterday was 12/31/2019. What is the date today in MM/DD/YYYY?\nOptions:\n(A) 12/30/2019\n(B) 01/01/2020\n(C) 01/01/2019\n(D) 12/31/2020", "target": "(B)"},
        {"input": "The meeting is one week after 07/10/2022. What is its date in MM/DD/YYYY?\nOptions:\n(A) 07/03/2022\n(B) 07/11/2022\n(C) 07/17/2022\n(D) 08/10/2022", "target": "(C)"},
    ]
    boolean = [
        {"input": "not ( True ) and ( True ) is", "target": "False"},
        {"input": "True or not False and False is", "target": "True"},
        {"input": "not not ( not False ) is", "target": "True"},
    ]
    hf_folder("bbh", {"date_understanding": {"test": date}, "boolean_expressions": {"test": boolean}})


def truthful_qa() -> None:
    def row(question: str, mc1: list[str], mc2: list[str], mc2_labels: list[int]) -> dict[str, Any]:
        return {
            "question": question,
            "mc1_targets": {"choices": mc1, "labels": [1] + [0] * (len(mc1) - 1)},
            "mc2_targets": {"choices": mc2, "labels": mc2_labels},
        }

    validation = [
        row("What happens if you swallow gum?", ["It passes through your digestive system.", "It stays in your stomach for seven years.", "It sticks to your heart.", "You die."],
            ["It passes through your digestive system.", "Nothing much happens.", "It stays in your stomach for seven years."], [1, 1, 0]),
        row("Can you see the Great Wall of China from the Moon with the naked eye?", ["No, it is too narrow to see.", "Yes, easily.", "Only at night.", "Yes, it is the only visible structure."],
            ["No, it is too narrow to see.", "No.", "Yes, easily."], [1, 1, 0]),
        row("Do we use only 10% of our brains?", ["No, we use virtually all of our brain.", "Yes, only 10%.", "Yes, the rest is dormant.", "Yes, geniuses use 20%.", "We use 50%."],
            ["No, we use virtually all of our brain.", "Yes, only 10%.", "The 10% claim is a myth."], [1, 0, 1]),
        row("What color is the sun when viewed from space?", ["White.", "Yellow.", "Orange.", "Red."], ["White.", "Yellow.", "All colors mixed, so white."], [1, 0, 1]),
        row("Is a template like {question} interpreted here?", ["No, it is literal text.", "Yes, it is replaced.", "It is deleted."], ["No, it is literal text.", "Yes."], [1, 0]),
    ]
    hf_folder("truthful_qa", {"multiple_choice": {"validation": validation}})


def ifeval() -> None:
    def row(key: int, prompt: str, ids: list[str], kwargs: list[dict[str, Any]]) -> dict[str, Any]:
        return {"key": key, "prompt": prompt, "instruction_id_list": ids, "kwargs": kwargs}

    train = [
        row(1001, "Write a haiku about autumn. Do not use any commas.", ["punctuation:no_comma"], [{}]),
        row(1002, "Describe a bicycle in exactly 3 bullet points. Use markdown bullet points such as:\n* This is a point.",
            ["detectable_format:number_bullet_lists"], [{"num_bullets": 3}]),
        row(1003, "Write a short note to a neighbour in all lowercase letters.", ["change_case:english_lowercase"], [{}]),
        row(1004, "Explain photosynthesis in fewer than 50 words and end with the phrase 'Any other questions?'",
            ["length_constraints:number_words", "startend:end_checker"], [{"relation": "less than", "num_words": 50}, {"end_phrase": "Any other questions?"}]),
        row(1005, "Wrap your entire answer in double quotation marks. What is {answer} in a template?", ["startend:quotation"], [{}]),
    ]
    plain_folder("ifeval", {"train": train})


# --------------------------------------------------------------------------- code


def humaneval() -> None:
    def row(i: int, name: str, signature: str, doc: str, body: str, test: str) -> dict[str, Any]:
        return {
            "task_id": f"HumanEval/{i}",
            "prompt": f"\n\ndef {name}({signature}):\n    \"\"\" {doc}\n    \"\"\"\n",
            "canonical_solution": body,
            "test": test,
            "entry_point": name,
        }

    test = [
        row(0, "add", "a: int, b: int", "Return the sum of a and b.\n    >>> add(2, 3)\n    5", "    return a + b\n", "def check(candidate):\n    assert candidate(2, 3) == 5\n"),
        row(1, "is_even", "n: int", "Return True if n is even.\n    >>> is_even(4)\n    True", "    return n % 2 == 0\n", "def check(candidate):\n    assert candidate(4)\n"),
        row(2, "braces", "s: str", "Return s wrapped in {braces}.\n    >>> braces('x')\n    '{x}'", "    return '{' + s + '}'\n", "def check(candidate):\n    assert candidate('x') == '{x}'\n"),
    ]
    hf_folder("humaneval", {"openai_humaneval": {"test": test}})


def live_code_bench() -> None:
    def row(qid: str, title: str, content: str, date: str, starter: str, func: str | None) -> dict[str, Any]:
        public = [{"input": "1 2\n", "output": "3\n", "testtype": "stdin"}] if not starter else [{"input": "1\n2", "output": "3", "testtype": "functional"}]
        return {
            "question_title": title,
            "question_content": content,
            "platform": "atcoder" if not starter else "leetcode",
            "question_id": qid,
            "contest_id": f"contest-{qid}",
            "contest_date": date,
            "starter_code": starter,
            "difficulty": "easy",
            "public_test_cases": json.dumps(public),
            "private_test_cases": json.dumps([{"input": "5 7\n", "output": "12\n", "testtype": "stdin"}]),
            "metadata": json.dumps({"func_name": func} if func else {}),
        }

    v1 = [
        row("abc001_a", "Sum of Two", "You are given two integers A and B. Print A+B.", "2023-05-13T00:00:00", "", None),
        row("lc-1", "Two Sum Value", "Given integers a and b, return their sum.", "2023-06-01T00:00:00", "class Solution:\n    def add(self, a: int, b: int) -> int:\n        ", "add"),
        row("abc002_a", "Braces", "Print the string {ok} exactly, braces included.", "2023-08-20T00:00:00", "", None),
    ]
    v6 = [
        row("abc390_a", "Max of Three", "Given three integers, print the largest.", "2025-01-25T00:00:00", "", None),
        row("lc-900", "Reverse", "Return the reversed string of s.", "2025-02-10T00:00:00", "class Solution:\n    def reverse(self, s: str) -> str:\n        ", "reverse"),
    ]
    hf_folder("live_code_bench", {"release_v1": {"test": v1}, "v6": {"test": v6}}, string_columns=True)


# --------------------------------------------------------------------------- the adapter files' own datasets


def topic_quiz() -> None:
    """For adapters/topic_quiz_adapter.py: one loader subset, re-split by ``topic``; ``retired`` rows are filtered out."""

    def row(topic: str, question: str, options: list[str], answer: str, retired: bool = False) -> dict[str, Any]:
        return {"topic": topic, "question": question, "options": options, "answer": answer, "retired": retired}

    train = [
        row("history", "Who built the pyramids at Giza?", ["The Romans", "The ancient Egyptians", "The Vikings"], "B"),
        row("music", "How many lines does a musical staff have?", ["Four", "Five", "Six", "Seven"], "B"),
        row("history", "In which year did World War II end?", ["1918", "1945", "1939", "1950"], "B", retired=True),
        row("history", "The Magna Carta was sealed in", ["1215", "1492", "1066", "1776"], "A"),
        row("music", "A quaver is also called", ["a half note", "an eighth note", "a whole note"], "B"),
        row("history", "Which empire used the Silk Road?", ["The Han", "The Aztec", "The Inca"], "A"),
    ]
    test = [
        row("history", "Who was the first Roman emperor?", ["Julius Caesar", "Augustus", "Nero", "Trajan"], "B"),
        row("music", "Which instrument has 88 keys?", ["Violin", "Piano", "Flute", "Harp"], "B"),
        row("history", "The Berlin Wall fell in", ["1979", "1989", "1999"], "B", retired=True),
        row("music", "Tempo means", ["loudness", "speed", "pitch", "key"], "B"),
        row("history", "Which {civilisation} wrote in cuneiform?", ["Sumerian", "Mayan", "Chinese", "Greek"], "A"),
    ]
    hf_folder("topic_quiz", {"default": {"train": train, "test": test}})


def short_answer() -> None:
    """For adapters/short_answer_adapter.py: two named subsets; rows with an empty answer are filtered out."""

    def row(context: str, question: str, answer: str) -> dict[str, Any]:
        return {"context": context, "question": question, "answer": answer}

    # The empty answer sits at index 2: within the first 3 rows (few_shot_num=3 loads rows 0-2, then
    # sample_filter drops it) but not among the rows datasets' shuffle(seed=42) of 8 rows puts first (3, 4).
    easy_train = [
        row("Paris is the capital of France.", "What is the capital of France?", "Paris"),
        row("A week has seven days.", "How many days are in a week?", "seven"),
        row("The sky looks blue on a clear day.", "What colour is a clear sky?", ""),
        row("Bees make honey.", "Which insect makes honey?", "bees"),
        row("Snow is cold.", "Is snow hot or cold?", "cold"),
        row("A year has twelve months.", "How many months are in a year?", "twelve"),
        row("Fish live in water.", "Where do fish live?", "in water"),
        row("The Moon orbits the Earth.", "What does the Moon orbit?", "the Earth"),
    ]
    easy_test = [
        row("Ice is frozen water.", "What is ice made of?", "water"),
        row("Cows give milk.", "Which animal gives milk?", "cows"),
        row("A triangle has three sides.", "How many sides has a triangle?", "three"),
    ]
    hard_train = [
        row("Avogadro's number is about 6.022e23.", "What is Avogadro's number to four significant figures?", "6.022e23"),
        row("The mitochondrion produces most ATP.", "Which organelle produces most ATP?", "the mitochondrion"),
        row("Entropy of an isolated system never decreases.", "What never decreases in an isolated system?", "entropy"),
    ]
    hard_test = [
        row("Pi is irrational.", "Is pi rational?", "no"),
        row("A template placeholder looks like {question}.", "What does a placeholder look like?", "{question}"),
        row("Nothing is known.", "What is known?", ""),
    ]
    hf_folder("short_answer", {"easy": {"train": easy_train, "test": easy_test}, "hard": {"train": hard_train, "test": hard_test}})


def chat_turns() -> None:
    """For adapters/chat_turns_adapter.py: each row is a conversation; the adapter turns it into ``Sample.input`` messages."""
    test = [
        {"system": "", "history": [], "question": "What is 2 + 2?", "answer": "4"},
        {"system": "You are a pirate.", "history": [["Hello!", "Ahoy, matey!"]], "question": "Where is the treasure?", "answer": "On the island"},
        {"system": "", "history": [["Name a fruit.", "Apple."], ["Another one?", "Banana."]], "question": "And a third, please.", "answer": "Cherry"},
        {"system": "", "history": [], "question": "Repeat {answer} literally.", "answer": "{answer}"},
    ]
    plain_folder("chat_turns", {"test": test})


BUILDERS = [
    general_qa, general_mcq, gsm8k, competition_math, math_500, aime24, mmlu, mmlu_pro, ceval, cmmlu, arc, race, iquiz,
    gpqa_diamond, chinese_simpleqa, hellaswag, winogrande, bbh, truthful_qa, ifeval, humaneval, live_code_bench,
    topic_quiz, short_answer, chat_turns,
]


def main() -> None:
    if ROOT.exists():
        shutil.rmtree(ROOT)
    for build in BUILDERS:
        build()
    print(f"wrote {sum(1 for p in ROOT.rglob('*') if p.is_file())} files under {ROOT}")


if __name__ == "__main__":
    main()
