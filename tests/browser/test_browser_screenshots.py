"""The screenshots' PNG writer (scripts/screenshots.py): a picture of few colours comes back
exactly, one of many comes back in at most the palette's colours and close to the original,
and the file is a PNG any reader takes (its chunks' checksums hold)."""

from __future__ import annotations

import importlib.util
import zlib
from pathlib import Path
from types import ModuleType

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "screenshots.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("screenshots", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


shots = load_script()


def read_png(data: bytes) -> np.ndarray:
    """The RGB pixels of an 8-bit palette PNG with no filters (what palette_png writes),
    checking every chunk's CRC on the way."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks, idat = 8, {}, b""
    while at < len(data):
        size = int.from_bytes(data[at : at + 4], "big")
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + size]
        crc = int.from_bytes(data[at + 8 + size : at + 12 + size], "big")
        assert zlib.crc32(kind + body) == crc, kind
        if kind == b"IDAT":
            idat += body
        else:
            chunks[kind] = body
        at += 12 + size
    header = chunks[b"IHDR"]
    width, height = int.from_bytes(header[:4], "big"), int.from_bytes(header[4:8], "big")
    assert header[8:] == bytes([8, 3, 0, 0, 0]) and b"IEND" in chunks
    palette = np.frombuffer(chunks[b"PLTE"], dtype=np.uint8).reshape(-1, 3)
    rows = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, width + 1)
    assert not rows[:, 0].any()  # filter "none" on every row
    return palette[rows[:, 1:]]


def rgba(pixels: np.ndarray) -> bytes:
    height, width, _ = pixels.shape
    alpha = np.full((height, width, 1), 255, dtype=np.uint8)
    return np.concatenate([pixels, alpha], axis=2).tobytes()


def test_a_picture_of_few_colours_comes_back_exactly() -> None:
    # Colours on the 6-bit grid the writer works on (a multiple of 4, plus 2).
    grid = np.array([[2, 2, 2], [254, 254, 254], [194, 22, 46], [18, 98, 58]], dtype=np.uint8)
    index = np.arange(30 * 20).reshape(20, 30) % 4
    pixels = grid[index]
    back = read_png(shots.palette_png(rgba(pixels), 30, 20, colours=8))
    assert back.shape == (20, 30, 3) and (back == pixels).all()


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    colours=st.sampled_from([2, 16, 64]),
    width=st.integers(1, 40),
    height=st.integers(1, 30),
)
def test_many_colours_come_back_in_the_palette_and_close(
    seed: int, colours: int, width: int, height: int
) -> None:
    rng = np.random.default_rng(seed)
    # A smooth gradient (as the felt is) with a little noise on it.
    y, x = np.mgrid[0:height, 0:width]
    base = np.stack([x * 255 / max(width, 1), y * 255 / max(height, 1), (x + y) % 256], axis=2)
    pixels = np.clip(base + rng.integers(-6, 7, base.shape), 0, 255).astype(np.uint8)
    back = read_png(shots.palette_png(rgba(pixels), width, height, colours=colours))
    assert back.shape == pixels.shape
    assert len(np.unique(back.reshape(-1, 3), axis=0)) <= colours
    error = np.abs(back.astype(int) - pixels.astype(int)).mean()
    assert error <= {2: 50, 16: 18, 64: 9}[colours], error
