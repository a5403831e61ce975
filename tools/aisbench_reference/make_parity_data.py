"""Write the rows and media of tests/parity_ais/data/ (idempotent).

    $AIS_VENV/bin/python tools/aisbench_reference/make_parity_data.py

Media are tiny and made here: two 8x8 images (Pillow; PNG and JPEG), a 50 ms
8 kHz mono WAV (standard library) and two 4x4 PNG frames that stand for a
video in AISBench's base64 convention (comma-joined base64 PNG frames, as its
``datasets/utils/video.py`` produces).  Rows that carry media inline hold the
base64 of these files, so the expected outputs do not depend on the machine.
The output is byte-identical on every run with the pinned Pillow.
"""
from __future__ import annotations

import base64
import io
import json
import wave
from pathlib import Path

from PIL import Image

DATA = Path(__file__).resolve().parents[2] / 'tests' / 'parity_ais' / 'data'

TEXT, IMAGE, AUDIO, VIDEO, END = ('<AIS_TEXT_START>', '<AIS_IMAGE_START>', '<AIS_AUDIO_START>',
                                  '<AIS_VIDEO_START>', '<AIS_CONTENT_TAG>')


def seg(tag: str, payload: str, close: bool = True) -> str:
    return tag + payload + (END if close else '')


def image_bytes(colour: tuple[int, int, int], fmt: str, size: int = 8) -> bytes:
    buffer = io.BytesIO()
    Image.new('RGB', (size, size), colour).save(buffer, format=fmt)
    return buffer.getvalue()


def wav_bytes() -> bytes:
    buffer = io.BytesIO()
    with wave.open(buffer, 'wb') as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(8000)
        out.writeframes(bytes((128 + (40 if (i // 8) % 2 else -40)) for i in range(400)))
    return buffer.getvalue()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode('ascii')


def write_jsonl(name: str, rows: list[dict]) -> None:
    text = ''.join(json.dumps(row, ensure_ascii=False) + '\n' for row in rows)
    (DATA / name).write_text(text, encoding='utf-8')


def main() -> None:
    (DATA / 'images').mkdir(parents=True, exist_ok=True)
    (DATA / 'audio').mkdir(exist_ok=True)
    red_png = image_bytes((220, 30, 30), 'PNG')
    blue_jpg = image_bytes((30, 30, 220), 'JPEG')
    tone = wav_bytes()
    (DATA / 'images' / 'red.png').write_bytes(red_png)
    (DATA / 'images' / 'blue.jpg').write_bytes(blue_jpg)
    (DATA / 'audio' / 'tone.wav').write_bytes(tone)
    frames = ','.join(b64(image_bytes(c, 'PNG', 4)) for c in [(0, 0, 0), (255, 255, 255)])

    # ---- multi-turn dialogues (list columns) ----
    write_jsonl('dialogs.jsonl', [
        {'topic': 'arithmetic', 'question': ['1+1=?', '2+2=?', '3+3=?'], 'answer': ['2', '4', '6']},
        {'topic': 'geography', 'question': ['Capital of France?', 'And of Italy? Reply as {"city": ...}'],
         'answer': ['Paris', '{"city": "Rome"}']},
    ])
    # Replies that feed a later turn's history; the last turn's reply never
    # reaches a prompt, so the file leaves it out (promptkit rejects it).
    write_jsonl('replies.jsonl', [
        {'index': 0, 'turn': 0, 'reply': 'It is 2.'},
        {'index': 0, 'turn': 1, 'reply': 'Four, I think {answer}.'},
        {'index': 1, 'turn': 0, 'reply': '{"city": "Paris"}'},
    ])
    write_jsonl('dialogs_columns.jsonl', [
        {'query': ['Hi!', 'How are you?'], 'response': ['Hello.', 'Fine.']},
    ])
    write_jsonl('dialogs_string.jsonl', [
        {'question': 'Hi?', 'answer': 'Yo'},
    ])
    write_jsonl('dialogs_unequal.jsonl', [
        {'question': ['1+1=?', '2+2=?', '3+3=?'], 'answer': ['2', '4']},
    ])

    # ---- multimodal rows in AISBench's content convention ----
    write_jsonl('vqa.jsonl', [
        {'subject': 'colours', 'content': seg(TEXT, 'What colour is the square?') + seg(IMAGE, 'images/red.png'),
         'answer': 'red'},
        {'subject': 'colours', 'content': seg(IMAGE, 'images/blue.jpg') + seg(TEXT, 'Which colour dominates?'),
         'answer': 'blue'},
        {'subject': 'shapes', 'content': seg(TEXT, 'Is it a square? Say {answer} or {question}.')
         + seg(IMAGE, 'images/red.png', close=False), 'answer': 'yes'},
    ])
    write_jsonl('vqa_base64.jsonl', [
        {'content': seg(TEXT, 'What colour is it?') + seg(IMAGE, b64(red_png)), 'answer': 'red'},
        {'content': seg(IMAGE, b64(blue_jpg)) + seg(TEXT, 'And this one?'), 'answer': 'blue'},
    ])
    write_jsonl('vqa_urls.jsonl', [
        {'content': seg(TEXT, 'What is shown?') + seg(IMAGE, 'https://example.com/cat.png'), 'answer': 'a cat'},
        {'content': seg(TEXT, 'What colour?') + seg(IMAGE, 'data:image/png;base64,' + b64(red_png)), 'answer': 'red'},
        {'content': seg(TEXT, 'Which file?') + seg(IMAGE, 'file:///srv/images/dog.jpg'), 'answer': 'a dog'},
    ])
    write_jsonl('vqa_multi.jsonl', [
        {'content': seg(TEXT, 'Compare the two squares.') + seg(IMAGE, 'images/red.png') + seg(IMAGE, 'images/blue.jpg'),
         'answer': 'red vs blue'},
        {'content': seg(TEXT, 'First:') + seg(IMAGE, 'images/red.png') + seg(TEXT, 'Second:') + seg(IMAGE, 'images/blue.jpg')
         + seg(TEXT, 'Same colour?'), 'answer': 'no'},
    ])
    write_jsonl('audio.jsonl', [
        {'content': seg(TEXT, 'What do you hear?') + seg(AUDIO, 'audio/tone.wav'), 'answer': 'a tone'},
        {'content': seg(AUDIO, 'audio/tone.wav') + seg(AUDIO, 'audio/tone.wav') + seg(TEXT, 'Are the two clips equal?'),
         'answer': 'yes'},
    ])
    write_jsonl('video.jsonl', [
        {'content': seg(VIDEO, frames) + seg(TEXT, 'Does the clip flash?'), 'answer': 'yes'},
    ])
    write_jsonl('vqa_empty_text.jsonl', [
        {'content': seg(TEXT, '') + seg(IMAGE, 'images/red.png'), 'answer': 'red'},
        {'content': seg(IMAGE, 'images/blue.jpg'), 'answer': 'blue'},
    ])
    write_jsonl('vqa_malformed.jsonl', [
        {'content': seg(TEXT, 'Fine row.') + seg(IMAGE, 'images/red.png'), 'answer': 'red'},
        {'content': 'stray text' + END + seg(TEXT, 'Kept?') + 'pre' + seg(IMAGE, 'images/blue.jpg'), 'answer': 'blue'},
        {'content': seg('<AIS_SOUND_START>', 'audio/tone.wav') + seg(TEXT, 'Unknown tag.'), 'answer': 'n/a'},
    ])
    write_jsonl('vqa_video_extra.jsonl', [
        {'content': seg(TEXT, 'What happens?') + seg(IMAGE, 'images/red.png') + seg(VIDEO, frames), 'answer': 'nothing'},
    ])


if __name__ == '__main__':
    main()
