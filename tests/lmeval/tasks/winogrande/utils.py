"""Winogrande-style partial scoring for pk_winogrande: one context per option, one shared continuation."""


def partial_context_index(doc):
    # The correct option's index; lm-eval reads an int from doc_to_text as "multiple inputs".
    return {"1": 0, "2": 1}[doc["answer"]]


def partial_target(doc):
    blank = doc["sentence"].index("_") + 1
    return doc["sentence"][blank:].strip()


def partial_contexts(doc):
    blank = doc["sentence"].index("_")
    return [doc["sentence"][:blank] + option for option in (doc["option1"], doc["option2"])]
