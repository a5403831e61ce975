"""Choice shuffling for pk_csqa_shuffled (written for promptkit's lm-eval parity tests)."""

import random

_SHUFFLER = random.Random(2024)


def shuffle_choices(dataset):
    def _one(doc):
        order = list(range(len(doc["choices"]["text"])))
        _SHUFFLER.shuffle(order)
        texts = [doc["choices"]["text"][i] for i in order]
        gold = order.index(doc["choices"]["label"].index(doc["answerKey"]))
        return {"options": texts, "gold": gold}

    return dataset.map(_one)


def shuffle_with_the_random_module(dataset):
    """The same shuffle drawn from Python's global generator, which simple_evaluate seeds with 0 (as gpqa's tasks draw)."""

    def _one(doc):
        order = list(range(len(doc["choices"]["text"])))
        random.shuffle(order)
        texts = [doc["choices"]["text"][i] for i in order]
        gold = order.index(doc["choices"]["label"].index(doc["answerKey"]))
        return {"options": texts, "gold": gold}

    return dataset.map(_one)
