from typing import Any, Dict, List

from evalscope.api.benchmark import BenchmarkMeta, DefaultDataAdapter
from evalscope.api.dataset import Sample
from evalscope.api.messages import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser
from evalscope.api.registry import register_benchmark
from evalscope.constants import Tags


@register_benchmark(
    BenchmarkMeta(
        name='chat_turns',
        pretty_name='Chat-Turns',
        tags=[Tags.QA],
        description='The last turn of a conversation, with the earlier turns as history.',
        dataset_id='my-org/chat-turns',
        metric_list=['acc'],
        few_shot_num=0,
        eval_split='test',
        system_prompt='Answer briefly.',
    )
)
class ChatTurnsAdapter(DefaultDataAdapter):

    def record_to_sample(self, record: Dict[str, Any]) -> Sample:
        messages: List[ChatMessage] = []
        if record['system']:
            messages.append(ChatMessageSystem(content=record['system']))
        for user_turn, assistant_turn in record['history']:
            messages.append(ChatMessageUser(content=user_turn))
            messages.append(ChatMessageAssistant(content=assistant_turn))
        messages.append(ChatMessageUser(content=record['question']))
        return Sample(input=messages, target=record['answer'])
