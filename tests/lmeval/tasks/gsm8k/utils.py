"""Worked examples for pk_gsm8k_cot (written for promptkit's lm-eval parity tests)."""


def worked_examples():
    return [
        {"question": "There are 15 trees in the grove. Workers plant more trees until there are 21. How many trees did they plant?",
         "reasoning": "There were 15 trees and now there are 21, so 21 - 15 = 6 were planted.", "result": "6"},
        {"question": "Leah had 32 chocolates and her sister had 42. If they ate 35, how many pieces do they have left?",
         "reasoning": "Together they had 32 + 42 = 74. After eating 35 they have 74 - 35 = 39.", "result": "39"},
        {"question": "Shawn has five toys. For Christmas he got two toys each from his mom and dad. How many toys does he have now?",
         "reasoning": "He got 2 + 2 = 4 more toys, so he has 5 + 4 = 9.", "result": "9"},
        {"question": "A note says {total} apples. There are 3 baskets of 4 apples. How many apples are there?",
         "reasoning": "3 baskets of 4 apples is 3 * 4 = 12 apples.", "result": "12"},
    ]
