# XpertFormat (seed 003) with the format's defaults: `history` as earlier
# turns, the query as the last user turn with its `choices` listed after it.
# Rows 10-12 reference image/audio/video `files`: media parts before the
# query text (the files are not bundled: paths are kept as written).
# data/xpert_bad.jsonl breaks each validation rule once.
from promptkit import XpertFormatDataset

datasets = [
    dict(
        abbr='xpert_demo',
        type=XpertFormatDataset,
        path='data/xpert.jsonl',
    )
]
