#!/usr/bin/env python3
"""Independent check of generated-tree leaf values.

gametrace draws a generated tree's leaves, in preorder, from ChaCha8 keyed with the seed's
8 little-endian bytes followed by 24 zero bytes (nonce 0, 64-bit block counter from 0), taking
64-bit words low half first, and reducing each into [min, max] by rejection sampling. This
script does the same from the ChaCha definition alone, so the pinned values in
crates/gametrace-core/src/game/tree.rs are checked against the algorithm, not against the crate that implements it.

    python3 scripts/chacha8_leaves.py SEED COUNT MIN MAX
"""
import struct
import sys


def rotl(v, c):
    return ((v << c) | (v >> (32 - c))) & 0xFFFFFFFF


def quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF; s[d] = rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF; s[b] = rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF; s[d] = rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF; s[b] = rotl(s[b] ^ s[c], 7)


def block(key, counter, rounds=8):
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    state += list(struct.unpack("<8I", key))
    state += [counter & 0xFFFFFFFF, counter >> 32, 0, 0]
    w = state[:]
    for _ in range(rounds // 2):
        quarter(w, 0, 4, 8, 12); quarter(w, 1, 5, 9, 13)
        quarter(w, 2, 6, 10, 14); quarter(w, 3, 7, 11, 15)
        quarter(w, 0, 5, 10, 15); quarter(w, 1, 6, 11, 12)
        quarter(w, 2, 7, 8, 13); quarter(w, 3, 4, 9, 14)
    return [(w[i] + state[i]) & 0xFFFFFFFF for i in range(16)]


def u64s(seed):
    key = struct.pack("<Q", seed) + bytes(24)
    counter = 0
    while True:
        words = block(key, counter)
        for i in range(0, 16, 2):
            yield words[i] | (words[i + 1] << 32)
        counter += 1


def leaves(seed, count, lo, hi):
    span = hi - lo + 1
    top = 2**64 - 1
    zone = top - (top % span) - 1
    out = []
    for x in u64s(seed):
        if len(out) == count:
            break
        if x <= zone:
            out.append(lo + x % span)
    return out


if __name__ == "__main__":
    seed, count, lo, hi = (int(a) for a in sys.argv[1:5])
    print(leaves(seed, count, lo, hi))
