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
