#!/usr/bin/env bash
# Writes SECONDS of 16-bit stereo 48 kHz silence as a WAV file to standard output, byte by
# byte (no tools beyond bash and head). Usage: scripts/silence-wav.sh SECONDS > FILE.wav
set -euo pipefail
rate=48000 channels=2 seconds=${1:?usage: silence-wav.sh SECONDS}
bytes=$((rate * channels * 2 * seconds))
le16() { printf "\\x$(printf %02x $(($1 & 255)))\\x$(printf %02x $((($1 >> 8) & 255)))"; }
le32() { le16 $(($1 & 65535)); le16 $((($1 >> 16) & 65535)); }
printf 'RIFF'; le32 $((36 + bytes)); printf 'WAVEfmt '; le32 16; le16 1; le16 "$channels"
le32 "$rate"; le32 $((rate * channels * 2)); le16 $((channels * 2)); le16 16
printf 'data'; le32 "$bytes"; head -c "$bytes" /dev/zero
