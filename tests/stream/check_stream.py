#!/usr/bin/env python3
"""A minimal check of a live stream capture (docs/stream-format.md), for the QEMU stream tests:
every frame's CRC, the sequence numbers, each SAMPLES frame decoded whole. Not the recorder
(`pmukit record` is): it reports what it found and fails on anything a correct firmware and a
lossless link cannot produce.

usage: check_stream.py FILE [--min-samples N] [--expect-dropped 0]
Exit 0: at least one HELLO, at least N samples, no corrupt frame, no sequence gap; the capture
may end in a frame cut short (the board was killed) and begin with console text."""
import argparse
import signal
import struct
import sys
import zlib


def varint(b, i):
    v = shift = 0
    while True:
        if i >= len(b) or shift > 63:
            raise ValueError("varint runs past the payload")
        x = b[i]
        i += 1
        v |= (x & 0x7F) << shift
        shift += 7
        if not x & 0x80:
            return v, i


def unzigzag(u):
    return (u >> 1) ^ -(u & 1)


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # | head: no traceback
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--min-samples", type=int, default=1)
    ap.add_argument("--expect-dropped", type=int, default=None)
    a = ap.parse_args()
    s = open(a.file, "rb").read()
    i = skipped = corrupt = gaps = 0
    types = {}
    samples = dropped = 0
    prev_seq = None
    hello_seen = False
    sample_bytes = 0
    cut = 0
    type_bytes = {}
    clock_hz = 0
    times = []
    while i < len(s):
        j = s.find(b"\xa5\x5a", i)
        if j < 0:
            skipped += len(s) - i
            break
        skipped += j - i
        i = j
        if len(s) - i < 12:
            cut = len(s) - i
            break
        typ, flags, seq, ln = struct.unpack_from("<BBHH", s, i + 2)
        if ln > 1024:
            corrupt += 1
            i += 1
            continue
        if len(s) - i < 12 + ln:
            cut = len(s) - i
            break
        (crc,) = struct.unpack_from("<I", s, i + 8 + ln)
        if zlib.crc32(s[i + 2:i + 8 + ln]) != crc:
            corrupt += 1
            i += 1
            continue
        p = s[i + 8:i + 8 + ln]
        i += 12 + ln
        if prev_seq is not None and seq != (prev_seq + 1) & 0xFFFF:
            gaps += (seq - prev_seq - 1) & 0xFFFF
        prev_seq = seq
        types[typ] = types.get(typ, 0) + 1
        type_bytes[typ] = type_bytes.get(typ, 0) + ln + 12
        if typ == 4 and hello_seen:
            t, _ = varint(p, 0)
            times.append((t, samples, dict(type_bytes)))
        if typ == 1:
            if p[0] != 1:
                sys.exit(f"check_stream: HELLO of stream version {p[0]}")
            if p[5:9] != b"PMUD":
                sys.exit("check_stream: HELLO without a dump header")
            hello_seen = True
            order = "<" if p[9:13] == b"\x04\x03\x02\x01" else ">"
            k = 5 + 16 + 8  # the TARGET chunk's payload: target id, PMU id, counter clock
            k += 1 + p[k]
            k += 1 + p[k]
            (clock_hz,) = struct.unpack_from(order + "Q", p, k)
        elif typ == 2 and hello_seen:
            d, k = varint(p, 0)
            n, k = varint(p, k)
            fl = p[k]
            k += 1
            pc = 0
            for _ in range(n):
                u, k = varint(p, k)
                pc += unzigzag(u)
                if not 0 <= pc <= 0xFFFFFFFF:
                    sys.exit("check_stream: a pc outside 32 bits")
                if fl & 1:
                    _, k = varint(p, k)
                if fl & 2:
                    _, k = varint(p, k)
            if k != len(p):
                sys.exit("check_stream: bytes after a SAMPLES frame's samples")
            if d < dropped:
                sys.exit("check_stream: the dropped count went down")
            dropped = d
            samples += n
            sample_bytes += ln + 12
    names = {1: "HELLO", 2: "SAMPLES", 3: "CHUNK", 4: "COUNTS"}
    print("check_stream: " + ", ".join(f"{names.get(t, t)} {c}" for t, c in sorted(types.items())) +
          f"; {samples} samples, {dropped} dropped by the firmware, "
          f"{sample_bytes / samples if samples else 0:.2f} bytes per sample in SAMPLES frames (framing included); "
          f"{corrupt} corrupt, {gaps} frames missing, {skipped} bytes outside frames, {cut} bytes of a cut last frame")
    if clock_hz and len(times) >= 2:
        (t0, s0, b0), (t1, s1, b1) = times[0], times[-1]
        span = (t1 - t0) / clock_hz
        print(f"check_stream: {span:.3f} s of the board's clock between the first and last COUNTS; per second: " +
              ", ".join(f"{names.get(t, t)} {(b - b0.get(t, 0)) / span:.0f} bytes" for t, b in sorted(b1.items())) +
              f"; {(s1 - s0) / span:.0f} samples")
    ok = hello_seen and samples >= a.min_samples and corrupt == 0 and gaps == 0
    if a.expect_dropped is not None and dropped != a.expect_dropped:
        ok = False
    print("check_stream: " + ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
