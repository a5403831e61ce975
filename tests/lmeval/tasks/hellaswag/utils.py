"""Document preparation for pk_hellaswag (written for promptkit's lm-eval parity tests)."""

import re

import datasets


def clean(text):
    """Drop WikiHow bracket markers such as "[title]" and squeeze repeated spaces."""
    text = text.strip()
    text = text.replace(" [title]", ". ")
    text = re.sub(r"\[.*?\]", "", text)
    return text.replace("  ", " ")


def process_docs(dataset: datasets.Dataset) -> datasets.Dataset:
    def _one(doc):
        context = doc["ctx_a"] + " " + doc["ctx_b"].capitalize()
        return {
            "query": clean(doc["activity_label"] + ": " + context),
            "choices": [clean(ending) for ending in doc["endings"]],
            "gold": int(doc["label"]),
        }

    return dataset.map(_one)
