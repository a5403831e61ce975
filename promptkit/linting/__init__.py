"""``lint``: what in a dataset config makes prompts other than its author meant, found before anything runs.

Static checks read the templates as the config writes them (placeholders,
label keys, the ice token, roles, the answer's turn); row checks render a
sample of test rows (``rows``) through the model.  Each finding names the
file and line where the template text or key is written, the dataset, the
row when it came from one, and a fix.  The checks are listed in
:data:`CHECKS` and docs/lint.md.

>>> from promptkit.frontends.opencompass import build_dataset
>>> spec = build_dataset(dict(abbr='qa', type='RowsDataset', rows=[{'question': '1+1?', 'answer': '2'}],
...     reader_cfg=dict(input_columns=['question'], output_column='answer'),
...     infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template='Q: {qestion}\\nA: {answer}'),
...                    retriever=dict(type='ZeroRetriever'), inferencer=dict(type='GenInferencer'))))
>>> [finding.check for finding in lint(spec)]
['unknown-placeholder', 'unused-column']
"""

from __future__ import annotations

from promptkit.frontends.opencompass.loader import DatasetSpec
from promptkit.linting.checks import CHECKS, DEFAULT_ROWS, Lint
from promptkit.linting.finding import SEVERITIES, Finding
from promptkit.meta_templates import Model

__all__ = ["CHECKS", "DEFAULT_ROWS", "SEVERITIES", "Finding", "lint"]


def lint(dataset: DatasetSpec, model: Model | None = None, rows: int = DEFAULT_ROWS) -> list[Finding]:
    """The findings for ``dataset`` rendered for ``model`` (``None``: a completion model with no meta template),
    its first ``rows`` test rows (and pool rows, for the shots) rendered; in the order of :data:`CHECKS`."""
    if rows < 0:
        raise ValueError(f"rows must be 0 or more (got {rows})")
    return Lint(dataset, model, rows).run()
