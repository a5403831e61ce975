# Short-answer factual QA with a system instruction, generation, zero-shot.
#
# Demonstrates: `begin=[dict(role='SYSTEM', fallback_role='HUMAN', ...)]`.
# Models whose meta template defines SYSTEM (llama3, qwen2.5, glm4, gpt-4o)
# get a system turn; models without one (gemma2, mistral) get the instruction
# as a HUMAN turn instead. The final BOT item's "Answer: " prefix is visible
# to models without a meta template but is cut for chat models, which stop at
# the start of their own turn. The last row has literal braces in the
# question ("len({1, 2, 2, 3})"): they are data, not a placeholder, and must
# reach the model unchanged.
from promptkit import GenInferencer, JsonlDataset, PromptTemplate, ZeroRetriever

system_chat_demo_reader_cfg = dict(input_columns=['question'], output_column='answer')

system_chat_demo_infer_cfg = dict(
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(
            begin=[
                dict(role='SYSTEM', fallback_role='HUMAN',
                     prompt='You are a helpful assistant. Answer each question with a short phrase and no explanation.'),
            ],
            round=[
                dict(role='HUMAN', prompt='Question: {question}'),
                dict(role='BOT', prompt='Answer: {answer}'),
            ],
        ),
    ),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer),
)

datasets = [
    dict(
        abbr='system_chat_demo',
        type=JsonlDataset,
        path='data/test.jsonl',
        reader_cfg=system_chat_demo_reader_cfg,
        infer_cfg=system_chat_demo_infer_cfg,
    )
]
