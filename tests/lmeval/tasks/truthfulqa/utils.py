"""Gold indices for pk_truthfulqa_mc2: every true answer (a list, so lm-eval treats it as multiple targets)."""


def true_indices(doc):
    return [i for i, label in enumerate(doc["mc2_targets"]["labels"]) if label == 1]
