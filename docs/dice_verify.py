#!/usr/bin/env python3
"""Re-create the dice of one action of a Stationmaster game from the key its turn report reveals.

Usage: dice_verify.py KEY_HEX SIDES COUNT
prints COUNT rolls of a SIDES-sided die, in the order the engine rolled them (docs/DICE.md).
Needs the `cryptography` package (pip install cryptography) for ChaCha20.
"""
import struct
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms


def u64_stream(key: bytes):
    # rand_chacha's ChaCha20Rng: 20 rounds, block counter from 0, nonce 0; the keystream read as
    # little-endian u32 words, a u64 being two consecutive words (low first).
    enc = Cipher(algorithms.ChaCha20(key, b"\0" * 16), mode=None).encryptor()
    while True:
        block = enc.update(b"\0" * 64)
        for i in range(0, 64, 8):
            yield struct.unpack("<Q", block[i:i + 8])[0]


def rolls(key: bytes, sides: int, count: int):
    zone = (2**64 - 1) - ((2**64 - 1) % sides)
    stream = u64_stream(key)
    out = []
    while len(out) < count:
        x = next(stream)
        if x < zone:
            out.append(x % sides + 1)
    return out


if __name__ == "__main__":
    key_hex, sides, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    print(" ".join(str(r) for r in rolls(bytes.fromhex(key_hex), sides, count)))
