"""Write the small media files of the bundled multimodal demo datasets.

Images are drawn with Pillow, sounds written with the standard library's
``wave``, and the video clips encoded by ``ffmpeg`` (needed only to re-make
them) from Pillow frames.  Everything is deterministic and a few KB, so the
files are committed and this script documents where they came from::

    python tools/make_demo_media.py            # rewrites the media under configs/datasets/*/data/
"""

from __future__ import annotations

import math
import shutil
import subprocess
import tempfile
import wave
from pathlib import Path

from PIL import Image, ImageDraw

DATASETS = Path(__file__).parents[1] / "configs" / "datasets"

SHAPES = {  # name -> (shape, colour)
    "red_circle": ("circle", (220, 40, 40)),
    "blue_square": ("square", (40, 80, 220)),
    "green_triangle": ("triangle", (30, 160, 60)),
    "yellow_circle": ("circle", (230, 200, 30)),
    "purple_square": ("square", (140, 60, 170)),
    "orange_triangle": ("triangle", (240, 140, 30)),
}


def draw_shape(shape: str, colour: tuple[int, int, int], size: tuple[int, int] = (64, 48)) -> Image.Image:
    image = Image.new("RGB", size, (255, 255, 255))
    pen = ImageDraw.Draw(image)
    w, h = size
    box = (w // 2 - 16, h // 2 - 16, w // 2 + 16, h // 2 + 16)
    if shape == "circle":
        pen.ellipse(box, fill=colour)
    elif shape == "square":
        pen.rectangle(box, fill=colour)
    else:
        pen.polygon([(w // 2, box[1]), (box[2], box[3]), (box[0], box[3])], fill=colour)
    return image


def write_images(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for number, (name, (shape, colour)) in enumerate(SHAPES.items()):
        image = draw_shape(shape, colour)
        if number % 2:
            image.save(folder / f"{name}.jpg", format="JPEG", quality=85)
        else:
            image.save(folder / f"{name}.png", format="PNG")


def write_beeps(path: Path, count: int, rate: int = 8000) -> None:
    """``count`` short 440 Hz beeps, 8-bit mono."""
    samples = bytearray()
    for _ in range(count):
        samples += bytes(int(128 + 90 * math.sin(2 * math.pi * 440 * i / rate)) for i in range(rate // 10))
        samples += bytes([128]) * (rate // 10)
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(rate)
        out.writeframes(bytes(samples))


def write_clip(path: Path, shape: str, colour: tuple[int, int, int], direction: int) -> None:
    """A 1-second, 8 fps, 32×32 H.264 clip of a shape moving left (-1) or right (+1)."""
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        raise SystemExit("ffmpeg is needed to re-make the video clips (apt-get install ffmpeg)")
    with tempfile.TemporaryDirectory() as tmp:
        for frame in range(8):
            image = Image.new("RGB", (32, 32), (255, 255, 255))
            x = 4 + frame * 2 if direction > 0 else 18 - frame * 2
            pen = ImageDraw.Draw(image)
            if shape == "circle":
                pen.ellipse((x, 10, x + 10, 20), fill=colour)
            else:
                pen.rectangle((x, 10, x + 10, 20), fill=colour)
            image.save(Path(tmp) / f"{frame:02d}.png")
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [ffmpeg, "-loglevel", "error", "-y", "-framerate", "8", "-i", str(Path(tmp) / "%02d.png"),
             "-c:v", "libx264", "-pix_fmt", "yuv420p", "-bitexact", "-fflags", "+bitexact", str(path)],
            check=True,
        )


def main() -> None:
    write_images(DATASETS / "vqa_demo" / "data" / "images")
    for count in (1, 2, 3):
        write_beeps(DATASETS / "audio_demo" / "data" / "audio" / f"beeps_{count}.wav", count)
    write_clip(DATASETS / "video_demo" / "data" / "clips" / "circle_right.mp4", "circle", (220, 40, 40), +1)
    write_clip(DATASETS / "video_demo" / "data" / "clips" / "square_left.mp4", "square", (40, 80, 220), -1)


if __name__ == "__main__":
    main()
