#!/usr/bin/env python3
"""The offline benchmarks' input (scripts/bench-render.sh, scripts/bench-render-cpu.sh):
bench-input.py OUT.wav SECONDS writes SECONDS of stereo 48 kHz 16-bit WAV, a 220 Hz tone
with a little noise on the left, a swelling 330 Hz tone on the right (the same samples
every time: the noise is seeded)."""
import math, random, struct, sys, wave

def write(path, seconds, rate=48000):
    random.seed(7)
    with wave.open(path, "wb") as f:
        f.setnchannels(2); f.setsampwidth(2); f.setframerate(rate)
        frames = bytearray()
        for n in range(seconds * rate):
            t = n / rate
            l = 0.3 * math.sin(2 * math.pi * 220 * t) + 0.05 * (random.random() - 0.5)
            r = 0.3 * math.sin(2 * math.pi * 330 * t) * (0.5 + 0.5 * math.sin(2 * math.pi * 0.5 * t))
            frames += struct.pack("<hh", int(l * 32767), int(r * 32767))
        f.writeframes(bytes(frames))

write(sys.argv[1], int(sys.argv[2]))
