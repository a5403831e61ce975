"""Wikitext detokenization for pk_wikitext (written for promptkit's lm-eval parity tests)."""

import re


def detokenize(doc):
    text = doc["page"]
    text = text.replace(" @-@ ", "-").replace(" @,@ ", ",").replace(" @.@ ", ".")
    text = re.sub(r" ([.,;:)])", r"\1", text)
    text = re.sub(r"\( ", "(", text)
    text = text.replace("= = ", "== ").replace(" = =", " ==")
    return text.replace(" \n", "\n").replace("\n ", "\n")


def process_results(doc, results):
    (loglikelihood,) = results
    text = detokenize(doc)
    words = len(re.split(r"\s+", text))
    size = len(text.encode("utf-8"))
    return {"word_perplexity": (loglikelihood, words), "byte_perplexity": (loglikelihood, size), "bits_per_byte": (loglikelihood, size)}
