"""MIDI events at seconds as a Standard MIDI File, the form `auhost render` plays."""

import math
import struct

# 120 BPM (the file's default tempo) at 24000 ticks per quarter note: one tick is 1/48000 s.
TICKS_PER_QUARTER = 24000
TICKS_PER_SECOND = 48000
DATA_BYTES = {0x80: 2, 0x90: 2, 0xA0: 2, 0xB0: 2, 0xC0: 1, 0xD0: 1, 0xE0: 2}


def _variable_length(value):
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(out))


def _message(index, message):
    if isinstance(message, (list, tuple)):
        message = bytes(message)
    if not isinstance(message, (bytes, bytearray)) or not message:
        raise ValueError(f"midi[{index}]: {message!r}; expected the message's bytes, such as bytes([0x90, 60, 100])")
    status = message[0]
    if status == 0xF0:
        if message[-1] != 0xF7:
            raise ValueError(f"midi[{index}]: a system exclusive message that does not end in 0xF7")
        return bytes([0xF0]) + _variable_length(len(message) - 1) + bytes(message[1:])
    expected = DATA_BYTES.get(status & 0xF0)
    if expected is None or len(message) != 1 + expected or any(byte > 0x7F for byte in message[1:]):
        raise ValueError(f"midi[{index}]: {bytes(message).hex(' ')}; expected a channel message (a status byte 0x80...0xEF and its data bytes) or a system exclusive message")
    return bytes(message)


def standard_midi_file(events, duration=None):
    """`events` [(seconds, bytes), ...] as a format-0 SMF whose end is at `duration` seconds
    (else at the last event)."""
    timed = []
    for index, event in enumerate(events):
        try:
            seconds, message = event
        except (TypeError, ValueError):
            raise ValueError(f"midi[{index}]: {event!r}; expected a (seconds, bytes) pair") from None
        if not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"midi[{index}]: time {seconds!r}; expected seconds, 0 or more")
        timed.append((round(seconds * TICKS_PER_SECOND), index, _message(index, message)))
    timed.sort()
    if duration is not None and (not isinstance(duration, (int, float)) or not math.isfinite(duration) or duration <= 0):
        raise ValueError(f"duration {duration!r}: expected seconds, more than 0")
    end = max([tick for tick, _, _ in timed] + [round((duration or 0) * TICKS_PER_SECOND)])
    track = bytearray()
    now = 0
    for tick, _, message in timed:
        track += _variable_length(tick - now) + message
        now = tick
    track += _variable_length(end - now) + b"\xff\x2f\x00"
    header = b"MThd" + struct.pack(">IHHH", 6, 0, 1, TICKS_PER_QUARTER)
    return header + b"MTrk" + struct.pack(">I", len(track)) + bytes(track)
