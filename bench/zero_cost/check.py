#!/usr/bin/env python3
"""Zero-cost check: the register engine against hand-written accessors, instruction by instruction.

A probe object (a PMU's hal/<pmu>/tests/zero_cost_probe.cpp) holds pairs of extern "C" functions,
ours_<op> (through pmu::Regs<Bus>) and hand_<op> (the minimal inline-asm accessor an expert would
write for the same operation). This script disassembles the object with the target's objdump and,
per pair:

  * counts instructions (the counting rule is below) and gates on ratio = ours / hand <= 1.00;
  * compares the whole instructions, immediates, shifts and offsets included, with only the
    register allocation normalised away (registers are renamed in order of first use). Where the
    two sequences have the same mnemonics, every instruction must then be identical: a mask or an
    offset that differs is a failure, whatever the counts say. Where the compiler chose another
    sequence (reported "differs"), every constant ours uses must appear in hand too (as many
    times), branch targets and stack-frame offsets excepted: ours may need fewer constants, never
    another one (a wrong mask);
  * compares the access signature: the ordered list of register/memory accesses, barriers and
    calls, with their encodings (coprocessor register, PMR number, CP0 register and select, MSR
    number in ECX, MMIO offset). It must be identical on both sides: ours may not drop a barrier,
    touch another register or add a call, whatever the counts say. An empty signature is an error
    too (a probe the compiler optimised away proves nothing).

Pairs named ours_info_<op> / hand_info_<op> are reported but not gated (marked "info").

Windows: a function window_<op>_<N>slot(s) holds one fast region (profiler/fast_region.hpp) on N
counters around an empty body. A counter read is what the probe declares (PMU_ZC_COUNTER_READ in
bench/zero_cost/window.hpp, kept in the object's section .pmu_zc): this script names no PMU. Its
2N counter reads are the middle 2N accesses of its signature (on MIPS the profiler's own state
loads, before the first read and after the last, are memory accesses too, as many on each side):
N begin reads, then N end reads in the same slot order. A counter's window is the number of
counted instructions strictly between its two reads, other counters' reads excepted. The row shows
the largest window as "ours" and the limit (WINDOW_LIMIT, or the probe's PMU_ZC_WINDOW_LIMIT) as
"hand", and is gated on ours <= limit; window_info_<op> rows are reported only.

Branches: a function branches_<op>_<N> holds a sequence promised branch-free but for N tests
(the PMU sampling interrupt's common case, prof::Sampler::on_pmu_interrupt<Slot>). The row shows
its conditional branches as "ours" and N as "hand", gated on ours <= N; branches_info_<op>_<N>
rows are reported only.

Counting rule (the same for both sides of a pair):
  1. Data in the text (ARM literal pools shown as .word) is not an instruction and is skipped.
     objdump runs with -z so runs of zero words (MIPS nops) are shown, not folded into "...".
  2. The LAST return instruction of the function is not counted: ARM `bx lr`, `pop {..., pc}`,
     `ldm sp!, {..., pc}`, `mov pc, lr`; PowerPC `blr`; x86 `ret`; MIPS `jr ra`.
     On MIPS the return's delay slot is not counted when it is a nop; when the compiler filled it
     with real work (`jr ra; addu v0,v0,v1`) that instruction counts.
  3. Padding nops after the return (section alignment) are not counted.
  Everything else counts, including prologue/epilogue register saves, other returns and the
  hazard nops an accessor needs (RM7000: mtc0/ctc0 + PMU_MIPS4_CP0_HAZARD_NOPS nops).

Usage:
  check.py --objdump OBJDUMP --target NAME OBJECT          one probe object
  check.py --probe NAME OBJDUMP OBJECT [--probe ...]       several, one combined table
Options:
  --diff                 print both disassemblies for every pair whose sequences differ
  --expect-regression    self-test of the gate: succeed only if every gated pair fails
Exit status: 0 all gated pairs pass, 1 a gated pair fails, 2 usage or tool error.
"""

from __future__ import annotations

import argparse
import difflib
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field

# ----------------------------------------------------------------------------------------------
# Disassembly parsing


@dataclass
class Insn:
    mnem: str
    ops: str
    literal: int | None = None  # ARM: the word a pc-relative ldr loads (its literal pool entry)

    def text(self) -> str:
        return f"{self.mnem} {self.ops}".strip()


@dataclass
class Function:
    name: str
    insns: list[Insn] = field(default_factory=list)


FUNC_RE = re.compile(r"^[0-9a-fA-F]+ <([^>]+)>:\s*$")
INSN_RE = re.compile(r"^\s*([0-9a-fA-F]+):\s+(\S+)\s*(.*?)\s*$")
# ARM: a pc-relative load's literal, objdump's "@ (<address> <symbol+off>)" comment.
LITERAL_RE = re.compile(r"\[pc, #-?\d+\]\s*@ \(([0-9a-f]+) <")


def detect_arch(fmt: str) -> str:
    if "arm" in fmt:
        return "arm"
    if "mips" in fmt:
        return "mips"
    if "powerpc" in fmt:
        return "ppc"
    if "i386" in fmt or "x86-64" in fmt:
        return "x86"
    raise ValueError(f"unknown object format '{fmt}'")


def disassemble(objdump: str, obj: str) -> tuple[str, dict[str, Function]]:
    cmd = [objdump, "-d", "-z", "--no-show-raw-insn", obj]
    try:
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    except FileNotFoundError:
        raise RuntimeError(f"objdump not found: {objdump}")
    except subprocess.CalledProcessError as e:
        raise RuntimeError(f"{' '.join(cmd)} failed: {e.stderr.strip()}")
    fmt = re.search(r"file format (\S+)", out)
    if not fmt:
        raise RuntimeError(f"cannot read the object format from {objdump} output for {obj}")
    arch = detect_arch(fmt.group(1))
    funcs: dict[str, Function] = {}
    cur: Function | None = None
    words: dict[tuple[str, int], int] = {}  # (function, address) -> literal pool word
    pending: list[tuple[Insn, str, int]] = []  # pc-relative loads and their literal's address
    for line in out.splitlines():
        m = FUNC_RE.match(line)
        if m:
            cur = funcs.setdefault(m.group(1), Function(m.group(1)))
            continue
        if cur is None or line.strip() in ("", "..."):
            continue
        if line.startswith("Disassembly of section"):
            cur = None
            continue
        m = INSN_RE.match(line)
        if not m:
            continue
        addr, mnem, ops = int(m.group(1), 16), m.group(2), m.group(3)
        lit = LITERAL_RE.search(ops) if arch == "arm" else None
        # objdump's trailing comments: "@ 0xff" on ARM (where "#" starts an immediate), "# ..."
        # elsewhere.
        ops = re.sub(r"\s*@.*$", "", ops) if arch == "arm" else re.sub(r"\s*#.*$", "", ops)
        if mnem.startswith("."):  # .word/.short/.byte: literal pool data, not an instruction
            if mnem == ".word" and re.fullmatch(r"0x[0-9a-f]+", ops.strip()):
                words[(cur.name, addr)] = int(ops.strip(), 16)
            continue
        cur.insns.append(Insn(mnem, ops.strip()))
        if lit:
            pending.append((cur.insns[-1], cur.name, int(lit.group(1), 16)))
    for insn, name, addr in pending:
        insn.literal = words.get((name, addr))
    return arch, funcs


# ----------------------------------------------------------------------------------------------
# Per-architecture rules

NOPS = {
    "arm": {"nop"},
    "ppc": {"nop"},
    "mips": {"nop", "ssnop"},
    "x86": {"nop", "nopw", "nopl", "xchg", "data16", "cs", "lea"},  # lea/xchg only as padding
}


def is_padding(arch: str, i: Insn) -> bool:
    if i.mnem not in NOPS[arch]:
        return False
    if arch == "x86" and i.mnem == "xchg":
        return i.ops == "%ax,%ax"
    if arch == "x86" and i.mnem == "lea":  # lea 0x0(%esi,%eiz,1),%esi and friends
        return re.fullmatch(r"0x0\(%(\w+)(,%eiz,1)?\),%\1", i.ops) is not None or \
            re.fullmatch(r"\(%(\w+)\),%\1", i.ops) is not None
    return True


def is_return(arch: str, i: Insn) -> bool:
    if arch == "arm":
        if i.mnem == "bx" and i.ops == "lr":
            return True
        if i.mnem == "mov" and i.ops.replace(" ", "") == "pc,lr":
            return True
        if i.mnem in ("pop", "ldm", "ldmfd", "ldmia") and re.search(r"\bpc\b", i.ops):
            return True
        return False
    if arch == "ppc":
        return i.mnem == "blr"
    if arch == "mips":
        return i.mnem in ("jr", "jr.hb") and i.ops == "ra"
    if arch == "x86":
        return i.mnem in ("ret", "retl")
    return False


def counted(arch: str, f: Function) -> list[Insn]:
    """The instructions that count under the rule in the module docstring."""
    ins = f.insns
    last = None
    for k in range(len(ins) - 1, -1, -1):
        if is_return(arch, ins[k]):
            last = k
            break
    if last is None:  # no return (tail call or noreturn): drop trailing padding only
        body = list(ins)
        while body and is_padding(arch, body[-1]):
            body.pop()
        return body
    body = ins[:last]
    after = ins[last + 1:]
    if arch == "mips" and after:
        slot, after = after[0], after[1:]
        if not is_padding(arch, slot):
            body.append(slot)
    body.extend(i for i in after if not is_padding(arch, i))
    return body


ARM_GPR = re.compile(r"\b(r\d{1,2}|sp|lr|pc|ip|fp|sl|sb)\b")
MIPS_GPR = re.compile(r"\b(zero|at|v[01]|a[0-3]|t\d|s[0-8]|k[01]|gp|sp|fp|ra)\b")
PPC_GPR = re.compile(r"\br\d{1,2}\b")


REGS = {"arm": ARM_GPR, "mips": MIPS_GPR, "ppc": PPC_GPR, "x86": re.compile(r"%[a-z0-9]+")}
TARGET = re.compile(r"\s*<[^>]*>")  # objdump's "<symbol+off>" after a branch or call target


def is_branch(i: Insn) -> bool:
    """A branch or call with a target address (its address differs between ours and hand)."""
    return TARGET.search(i.ops) is not None


def normalised(arch: str, body: list[Insn]) -> list[str]:
    """Whole instructions, registers renamed R0, R1... in order of first use; branch targets
    replaced by their offset from the function's first branch target seen (the same shape)."""
    names: dict[str, str] = {}

    def rename(m: re.Match) -> str:
        return names.setdefault(m.group(0), f"R{len(names)}")

    out = []
    for i in body:
        ops = i.ops
        if is_branch(i):
            ops = "<target>"
        out.append(f"{i.mnem} {REGS[arch].sub(rename, ops)}".strip())
    return out


NUMBER = re.compile(r"(?<![\w%.])[-$#]?(?:0x[0-9a-fA-F]+|\d+)\b")
STACK = {"arm": re.compile(r"\bsp\b"), "mips": re.compile(r"\bsp\b"), "ppc": re.compile(r"\br1\b"),
         "x86": re.compile(r"%esp\b")}


def constants(arch: str, body: list[Insn]) -> list[int]:
    """The numbers in the operands (32-bit), branch targets and stack-frame accesses excepted."""
    out = []
    for i in body:
        if is_branch(i) or STACK[arch].search(i.ops) or i.mnem in ("push", "pop"):
            continue
        ops = REGS[arch].sub("", i.ops)
        if arch == "arm":
            ops = re.sub(r"\b(cr|c|p)\d+\b|\{\d+\}", "", ops)  # coprocessor operands: in the signature
        out.extend(int(m.group(0).lstrip("$#"), 0) & 0xFFFFFFFF for m in NUMBER.finditer(ops))
    return out


def signature(arch: str, body: list[Insn]) -> list[str]:
    """Ordered accesses, barriers and calls, register allocation normalised away."""
    return [text for _, text in signature_items(arch, body)]


# Register/memory accesses as signature_items reports them (the rest are barriers and calls).
ACCESS = re.compile(r"^(mrc|mcr|mfpmr|mtpmr|mfspr|mtspr|mfpvr|mfc0|mtc0|dmfc0|dmtc0|cfc0|ctc0|"
                    r"rdmsr|wrmsr|rdpmc|rdtsc|rdtscp|l[whbd]u?|s[whbd]) ")


def signature_items(arch: str, body: list[Insn]) -> list[tuple[int, str]]:
    """(index in body, signature text) for each access, barrier and call."""
    items = ((k, _signature_one(arch, body, k, i)) for k, i in enumerate(body))
    return [(k, text) for k, text in items if text is not None]


def _signature_one(arch: str, body: list[Insn], k: int, i: Insn) -> str | None:
    """The signature text of body[k], or None when it is not an access, barrier or call."""
    if arch == "arm":
        if i.mnem.startswith(("mrc", "mcr")):
            return f"{i.mnem} {ARM_GPR.sub('R', i.ops)}"
        ppb = ppb_access(body, k, i)
        if ppb is not None:
            return ppb
        if i.mnem in ("bl", "blx"):
            return "call"
        if i.mnem in ("dsb", "dmb", "isb"):
            return i.mnem
    elif arch == "ppc":
        if i.mnem in ("mfpmr", "mtpmr", "mfspr", "mtspr", "mfpvr"):
            return f"{i.mnem} {PPC_GPR.sub('R', i.ops)}"
        if i.mnem in ("mfmsr", "mtmsr", "wrtee", "wrteei"):  # interrupt mask: order matters
            return i.mnem if i.mnem != "wrteei" else f"wrteei {i.ops}"
        if i.mnem in ("isync", "sync", "msync", "mbar", "eieio", "lwsync"):
            return i.mnem
        if i.mnem in ("bl", "bctrl", "blrl"):
            return "call"
    elif arch == "mips":
        if i.mnem in ("mfc0", "mtc0", "dmfc0", "dmtc0", "cfc0", "ctc0"):
            s = f"{i.mnem} {MIPS_GPR.sub('R', i.ops)}"
            if i.mnem.endswith(("mtc0", "ctc0")):  # hazard nops that follow the write
                n = 0
                while k + 1 + n < len(body) and body[k + 1 + n].mnem in ("nop", "ssnop") and n < 16:
                    n += 1
                s += f" +{n}nop"
            return s
        if i.mnem in ("ehb", "sync", "jalr.hb", "jr.hb"):
            return i.mnem
        if i.mnem in ("jal", "jalr", "bal"):
            return "call"
        if re.fullmatch(r"(l|s)(w|h|b|hu|bu|d)", i.mnem) and "(sp)" not in i.ops:
            # memory access: keep the offset, drop the registers (MMIO at base + offset)
            off = re.search(r",\s*(-?\w*)\(", i.ops)
            return f"{i.mnem} {off.group(1) if off else '?'}(R)"
    elif arch == "x86":
        if i.mnem in ("rdmsr", "wrmsr"):
            ecx = "?"
            for j in range(k - 1, -1, -1):
                p = body[j]
                if p.ops.endswith(",%ecx") or p.ops == "%ecx":
                    m = re.fullmatch(r"\$(0x[0-9a-f]+|\d+),%ecx", p.ops)
                    ecx = m.group(1) if (m and p.mnem == "mov") else "?"
                    break
            return f"{i.mnem} ecx={ecx}"
        if i.mnem in ("rdpmc", "rdtsc", "rdtscp", "cpuid", "lfence", "mfence", "sfence",
                        "in", "out", "inb", "outb"):
            return i.mnem
        if i.mnem in ("call", "calll"):
            return "call"
    return None


# ARM M-profile: the system components (debug and trace units among them) are memory-mapped in the
# Private Peripheral Bus (0xE0000000-0xE00FFFFF, ARMv7-M ARM B3.1). A load or store there is an
# access: its absolute address, from the base register's literal (the last pc-relative ldr into it)
# plus the offset.
PPB = range(0xE0000000, 0xE0100000)
MMIO_RE = re.compile(r"^(ldr|str)(b|h)?(\.w)?$")
BASE_RE = re.compile(r"^\w+, \[(r\d{1,2}|ip|lr), #(-?\d+)\]$|^\w+, \[(r\d{1,2}|ip|lr)\]$")


def ppb_access(body: list[Insn], k: int, i: Insn) -> str | None:
    m = MMIO_RE.match(i.mnem)
    b = BASE_RE.match(i.ops) if m else None
    if not b:
        return None
    base, off = (b.group(1), int(b.group(2))) if b.group(1) else (b.group(3), 0)
    for j in range(k - 1, -1, -1):  # the last instruction that wrote the base register
        p = body[j]
        if p.ops.split(",")[0].strip() == base and not p.mnem.startswith(("str", "cmp", "tst", "cbz", "cbnz")):
            if p.literal is not None and p.literal + off in PPB:
                return f"{m.group(1)}{m.group(2) or ''} [{p.literal + off:#x}]"
            return None
    return None


WINDOW_LIMIT = 2  # instructions between a counter's two reads (1 would be the physical limit)

# What a probe declares of its PMU (bench/zero_cost/window.hpp: PMU_ZC_COUNTER_READ,
# PMU_ZC_WINDOW_LIMIT), carried in its object as "key=value" strings in section .pmu_zc: this
# script names no PMU.
EXPECT_SECTION = ".pmu_zc"
EXPECT_KEYS = ("counter_read", "window_limit")


@dataclass
class Expect:
    counter_read: re.Pattern | None = None  # a counter read, on signature text
    window_limit: int = WINDOW_LIMIT


def expectations(objdump: str, obj: str) -> Expect:
    """The probe's declarations, from `objdump -s -j .pmu_zc` (none: an empty Expect)."""
    cmd = [objdump, "-s", "-j", EXPECT_SECTION, obj]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
    except FileNotFoundError:
        raise RuntimeError(f"objdump not found: {objdump}")
    data = bytearray()
    for line in out.splitlines():
        words = line.strip().split(" ")
        if len(words) < 2 or not re.fullmatch(r"[0-9a-f]+", words[0]) or line.startswith("Contents"):
            continue
        for w in words[1:]:  # hex groups, then two spaces and the ASCII column
            if not re.fullmatch(r"(?:[0-9a-f]{2}){1,4}", w):
                break
            data += bytes.fromhex(w)
    reads, e = [], Expect()
    for text in (t.decode() for t in bytes(data).split(b"\0") if t):
        key, sep, value = text.partition("=")
        if not sep or key not in EXPECT_KEYS:
            raise RuntimeError(f"{obj}: unknown declaration '{text}' in {EXPECT_SECTION} "
                               f"(known: {', '.join(EXPECT_KEYS)})")
        if key == "counter_read":
            reads.append(f"(?:{value})")
        else:
            e.window_limit = int(value)
    if reads:
        e.counter_read = re.compile("|".join(reads))
    return e


NO_COUNTER_READ = "the probe declares no counter read (PMU_ZC_COUNTER_READ, bench/zero_cost/window.hpp)"


def window_of(arch: str, body: list[Insn], n: int, counter_read: re.Pattern | None) -> tuple[int, str]:
    """The largest counter window of a window_ function on n counters, or -1 and the problem.
    Not counted: the other counters' reads, and the body's calls (with a MIPS delay slot's nop)."""
    if counter_read is None:
        return -1, NO_COUNTER_READ
    items = signature_items(arch, body)
    reads = [k for k, text in items if counter_read.match(text)]
    if len(reads) != 2 * n:
        return -1, f"{len(reads)} counter reads, expected two per counter ({n})"
    calls = {k for k, text in items if text == "call"}
    if any(k - 1 in calls for k in reads) and arch == "mips":  # it would run after the call's jump
        return -1, "a counter read in a call's delay slot: the call is outside the window"
    if arch == "mips":
        calls |= {k + 1 for k in list(calls) if k + 1 < len(body) and is_padding(arch, body[k + 1])}
    return max(reads[n + c] - reads[c] - 1 - (n - 1) - sum(reads[c] < k < reads[n + c] for k in calls)
               for c in range(n)), ""


# A counter region (profiler/counter_region.hpp): the reads are in per-slot readers called through
# a pointer chosen at run time, so its window is the code between the two indirect calls (the
# second call, with a MIPS delay slot, included; the body's direct calls excluded) plus the
# largest reader's instructions other than its read (what runs before the read, in the second,
# and after it, the return included, in the first).
REGION_WINDOW_LIMIT = 4
INDIRECT_CALL = {
    "arm": re.compile(r"^blx$"),
    "ppc": re.compile(r"^bctrl$"),
    "mips": re.compile(r"^jalr$"),
    "x86": re.compile(r"^call[l]?$"),
}


def is_indirect_call(arch: str, i: Insn) -> bool:
    if not INDIRECT_CALL[arch].match(i.mnem):
        return False
    if arch == "arm":
        return not re.match(r"^[0-9a-f]+ <", i.ops)  # blx <label> is direct
    if arch == "x86":
        return i.ops.startswith("*")
    return True


def reader_cost(arch: str, funcs: dict, counter_read: re.Pattern | None) -> tuple[int, str]:
    """The largest reader's instructions other than its one counter read (return included)."""
    if counter_read is None:
        return -1, NO_COUNTER_READ
    costs = []
    for name, f in funcs.items():
        if "read_slot" not in name:
            continue
        body = counted(arch, f)
        reads = [k for k, text in signature_items(arch, body) if counter_read.match(text)]
        if len(reads) != 1:
            return -1, f"reader {name}: {len(reads)} counter reads, expected 1"
        # Every instruction the reader runs but its read: the return and a MIPS delay slot too.
        ins, last = f.insns, None
        for k in range(len(ins) - 1, -1, -1):
            if is_return(arch, ins[k]):
                last = k
                break
        if last is None:
            return -1, f"reader {name}: no return"
        costs.append(last + (2 if arch == "mips" else 1) - 1)
    if not costs:
        return -1, "no per-slot reader (read_slot) in the object"
    return max(costs), ""


def tail_calls(arch: str, body: list[Insn]) -> list[int]:
    """MIPS `j`: GCC's tail call (its local branches are `b`), e.g. a Region's out-of-line end as the
    last thing a function does; it bounds a region's window as a `jal` would."""
    return [k for k, i in enumerate(body) if arch == "mips" and i.mnem == "j"]


def region_window_of(arch: str, body: list[Insn], funcs: dict,
                     counter_read: re.Pattern | None) -> tuple[int, str]:
    windows, problem = region_windows_of(arch, body, funcs, counter_read, 1)
    return (windows[0] if windows else -1), problem


def region_windows_of(arch: str, body: list[Insn], funcs: dict, counter_read: re.Pattern | None,
                      regions: int) -> tuple[list[int], str]:
    """The window of each of `regions` counter regions in a row (calibrate(): one per loop)."""
    calls = [k for k, i in enumerate(body) if is_indirect_call(arch, i)]
    if not calls:  # the reads inline: the two accesses between each anchor call and its finish call
        items = signature_items(arch, body)
        direct = sorted([k for k, text in items if text == "call"] + tail_calls(arch, body))
        if len(direct) < 2:
            return [], "no anchor and finish calls around inline reads"
        windows = []
        # One region: from the first call (the anchor) to the last (finish), the body's calls
        # between; several (calibrate()): each pair of calls with two accesses between them.
        spans = [(direct[0], direct[-1])] if regions == 1 else list(zip(direct, direct[1:]))
        for c0, c1 in spans:
            first = c0 + (2 if arch == "mips" else 1)  # a delay slot runs before the call's target
            reads = [k for k, text in items if first <= k < c1 and text != "call"]
            # The counter reads (other accesses, such as finish's arguments copied through a base
            # other than the stack pointer, are not reads; between the reads they count as
            # instructions).
            if len(reads) != 2 and counter_read is not None:
                reads = [k for k in reads if counter_read.match(dict(items)[k])]
            if regions == 1 and len(reads) != 2:
                return [], f"{len(reads)} accesses between the anchor and finish calls, expected the two reads"
            if len(reads) != 2:
                continue  # not a region: no two reads between these calls
            inner = {k for k in direct if reads[0] < k < reads[1]}
            if arch == "mips":
                inner |= {k + 1 for k in list(inner) if k + 1 < len(body) and is_padding(arch, body[k + 1])}
            windows.append(reads[1] - reads[0] - 1 - len(inner))
        if len(windows) != regions:
            return [], f"{len(windows)} regions of two inline reads between calls, expected {regions}"
        return windows, ""
    if len(calls) != 2 * regions:
        return [], f"{len(calls)} indirect calls, expected the two reads' of {regions} region(s)"
    direct = set()
    for k, text in signature_items(arch, body):
        if text == "call" and not is_indirect_call(arch, body[k]):
            direct.add(k)
            if arch == "mips" and k + 1 < len(body) and is_padding(arch, body[k + 1]):
                direct.add(k + 1)
    r, problem = reader_cost(arch, funcs, counter_read)
    if r < 0:
        return [], problem
    windows = []
    for q in range(regions):
        lo, hi = calls[2 * q] + 1, calls[2 * q + 1] + 1  # the second call counts
        if arch == "mips":
            lo, hi = lo + 1, hi + 1  # a delay slot runs before its call's target
        windows.append(sum(1 for k in range(lo, hi) if k not in direct) + r)
    return windows, ""


# CounterRegions::calibrate() (window_region_calibrate_1counter) runs an empty region in each of
# its two loops (the second staggered): both must have one window, the one every region is
# charged. A region around nothing and around a call (window_region_1counter,
# window_region_call_1counter) must have exactly that window, and a loop of regions around a call
# with an argument kept in a register (window_region_call_arg_1counter) that window and the
# argument's one set-up instruction (REGION_ARG_SETUP), which the body's known count holds.
REGION_CALIBRATE_REGIONS = 2
REGION_ARG_SETUP = 1
# An argument loaded through a pointer the caller keeps (window_run_region_call_arg_<N>counters):
# its load, and on i386 (arguments on the stack) its store.
REGION_LOADED_ARG_SETUP = {"arm": 1, "ppc": 1, "mips": 1, "x86": 2}


# A counter region on N counters chosen at run time (CounterRegions<Pmu, N>): the reads nested,
# begin in position order and end in the reverse one, so counter k's window holds the reads of the
# counters after it. Each of the 2N read points is an indirect call of a reader (the reader's
# instructions run there) or an inline load. A nested read, one side, is the caller's code from the
# previous read point (exclusive) to this one (inclusive: the keep of the previous value, the call's
# set-up and the call, or the load), plus the reader's instructions. Gated:
#   window_region_<N>counters      each counter's window less the nested reads in it (that is, the
#                                  window of the innermost counter) <= REGION_WINDOW_LIMIT;
#   window_region_<N>counters_read each nested read <= one read (REGION_NESTED_READ: the reader,
#                                  its call, one instruction to keep the value, and the call's
#                                  set-up: e500 mtctr, a MIPS delay slot, ARM's load of a
#                                  reader called through the object), so no counter's window
#                                  grows by more than the reads of the counters nested inside it;
# and reported (info): window_info_region_<N>counters_outer, the outermost counter's whole window,
# against REGION_WINDOW_LIMIT + the nested reads it holds.
REGION_CALL_SETUP = {"arm": 0, "ppc": 1, "mips": 1, "x86": 0}


def loaded_call(arch: str, body: list[Insn], k: int) -> str | None:
    """ARM: the address an indirect call's register was loaded from by the instruction just before
    it (a reader called through the object: `ldr r3, [r4, #12]; blx r3`), else None."""
    if arch != "arm" or k == 0 or body[k - 1].mnem != "ldr":
        return None
    m = re.fullmatch(r"(\w+),\s*(\[[^\]]*\])", body[k - 1].ops)
    return m.group(2) if m and m.group(1) == body[k].ops.strip() else None


def call_target(arch: str, body: list[Insn], k: int) -> str:
    """Where an indirect call's pointer is: its operand, (e500) the mtctr's register before it, or
    (ARM, through the object) the address it was loaded from just before."""
    if arch == "ppc":
        for j in range(k - 1, -1, -1):
            if body[j].mnem == "mtctr":
                return body[j].ops
        return "?"
    return loaded_call(arch, body, k) or body[k].ops


def call_setup(arch: str, body: list[Insn]) -> int:
    """A reader call's set-up: REGION_CALL_SETUP, and on ARM the pointer's load where every reader
    is called through the object (Region's reads, profiler/counter_region.hpp)."""
    calls = [k for k, i in enumerate(body) if is_indirect_call(arch, i)]
    through = bool(calls) and all(loaded_call(arch, body, k) for k in calls)
    return REGION_CALL_SETUP[arch] + (1 if through else 0)


def region_windows_n(arch: str, body: list[Insn], funcs: dict, n: int,
                     counter_read: re.Pattern | None) -> tuple[list[int], list[int], str]:
    """(each counter's whole window, each nested read's length, problem)."""
    calls = [k for k, i in enumerate(body) if is_indirect_call(arch, i)]
    items = signature_items(arch, body)
    direct = set()
    for k, text in items:
        if text == "call" and not is_indirect_call(arch, body[k]):
            direct.add(k)
            if arch == "mips" and k + 1 < len(body) and is_padding(arch, body[k + 1]):
                direct.add(k + 1)
    if calls:
        if len(calls) != 2 * n:
            return [], [], f"{len(calls)} indirect calls, expected two per counter ({n})"
        # Nested: the k-th call from the end reads through the k-th call's pointer.
        targets = [call_target(arch, body, c) for c in calls]
        if len(set(targets[:n])) != n or targets[n:] != targets[:n][::-1]:
            return [], [], f"the readers called are not nested: {targets}"
        d = 1 if arch == "mips" else 0  # a delay slot runs before its call's target
        pts = [c + d for c in calls]
        r, problem = reader_cost(arch, funcs, counter_read)
        if r < 0:
            return [], [], problem
        reader, end_extra = r + 1, r  # a whole reader; the first's tail and the second's head
        limit_read = reader + 2 + call_setup(arch, body)
    else:
        calls_d = sorted([k for k, text in items if text == "call"] + tail_calls(arch, body))
        if len(calls_d) < 2:
            return [], [], "no anchor and finish calls around inline reads"
        first = calls_d[0] + (2 if arch == "mips" else 1)
        # The reads are loads from addresses chosen at select(), kept in registers: 2N loads at
        # offset 0, in a row among the accesses, whose bases are N registers and then the same N
        # in the reverse order (the Mark's copies, before and after, are accesses too).
        loads = []
        for k, text in items:
            m = re.fullmatch(r"[\$\w]+,\s*0\(([\$\w]+)\)", body[k].ops)
            if first <= k < calls_d[-1] and text != "call" and body[k].mnem == "lw" and m:
                loads.append((k, m.group(1)))
        pts = []
        for s0 in range(len(loads) - 2 * n + 1):
            bases = [b for _, b in loads[s0:s0 + 2 * n]]
            if len(set(bases[:n])) == n and bases[n:] == bases[:n][::-1]:
                pts = [k for k, _ in loads[s0:s0 + 2 * n]]
                break
        if not pts:
            return [], [], f"no {2 * n} nested loads from the counters' addresses between the anchor and finish calls"
        reader, end_extra = 0, -1  # the end point is the read itself
        limit_read = 2

    def caller(lo: int, hi: int) -> int:  # counted caller instructions in (lo, hi]
        return sum(1 for i in range(lo + 1, hi + 1) if i not in direct)

    windows = [caller(pts[k], pts[2 * n - 1 - k]) + end_extra + (2 * (n - 1 - k)) * reader for k in range(n)]
    nested = [caller(pts[q - 1], pts[q]) + reader for q in range(1, n)]
    nested += [caller(pts[q], pts[q + 1]) + reader for q in range(n, 2 * n - 1)]
    if any(x > limit_read for x in nested):
        return windows, nested, f"a nested read of {max(nested)} instructions, one read is {limit_read}"
    return windows, nested, ""


def region_nested_limit(arch: str, funcs: dict, body: list[Insn], counter_read: re.Pattern | None) -> int:
    if any(is_indirect_call(arch, i) for i in body):
        r, _ = reader_cost(arch, funcs, counter_read)
        return r + 1 + 2 + call_setup(arch, body)
    return 2


# Conditional branches with a target, per architecture (calls and unconditional jumps excluded).
COND_BRANCH = {
    "arm": re.compile(r"^(b(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)(\.[nw])?|cbn?z)$"),
    "ppc": re.compile(r"^b(eq|ne|lt|le|gt|ge|so|ns|un|nu|dnz|dz|c)[+-]?$"),
    "mips": re.compile(r"^b(eq|ne|gez|gtz|lez|ltz|eqz|nez|c1[tf])l?$"),
    "x86": re.compile(r"^j(?!mp)[a-z]+$"),
}


def conditional_branches(arch: str, body: list[Insn]) -> int:
    return sum(1 for i in body if is_branch(i) and COND_BRANCH[arch].match(i.mnem))


# ----------------------------------------------------------------------------------------------
# Comparison and report


@dataclass
class Row:
    target: str
    op: str
    ours: int
    hand: int
    same_seq: bool
    info: bool
    problem: str = ""
    ours_text: list[str] = field(default_factory=list)
    hand_text: list[str] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        if self.hand == 0:
            return 1.0 if self.ours == 0 else float("inf")
        return self.ours / self.hand

    @property
    def failed(self) -> bool:
        return not self.info and (self.ratio > 1.0 or bool(self.problem))


# Stack frames (frame_<op>_with / frame_<op>_without: the same function with and without a region):
# what a region adds to its caller's frame, in bytes, at most FRAME_LIMIT. A Region keeps its state
# in Regions' slots, not in the caller's frame (profiler/region.hpp): a few words (the slot, the
# first values) where the caller has no register for them. Before, the state and a sweep's
# snapshot were locals of every caller (XScale's example: 268 -> 764 bytes with a prepared sequence).
FRAME_LIMIT = 64
FRAME_PATTERNS = {
    "arm": [(re.compile(r"^(push|stmdb|stmfd)$"), re.compile(r"^(?:sp!, )?\{([^}]*)\}$"), "regs"),
            (re.compile(r"^vpush$"), re.compile(r"^\{([^}]*)\}$"), "dregs"),
            (re.compile(r"^sub(\.w)?$"), re.compile(r"^sp, sp, #(\d+)"), "imm")],
    "mips": [(re.compile(r"^addiu$"), re.compile(r"^sp,sp,-(\d+)$"), "imm")],
    "ppc": [(re.compile(r"^stwu$"), re.compile(r"^r1,-(\d+)\(r1\)$"), "imm")],
    "x86": [(re.compile(r"^push$"), re.compile(r"^%e(ax|bx|cx|dx|si|di|bp)$"), "one"),
            (re.compile(r"^sub$"), re.compile(r"^\$0x([0-9a-f]+),%esp$"), "hex")],
}


def frame_of(arch: str, f: Function) -> int:
    """Bytes the function's prologue takes from the stack (saved registers and locals)."""
    total = 0
    for i in f.insns:
        for mnem, ops, kind in FRAME_PATTERNS[arch]:
            if not mnem.match(i.mnem):
                continue
            m = ops.match(i.ops)
            if not m:
                continue
            if kind == "regs":
                total += 4 * len([r for r in m.group(1).split(",") if r.strip()])
            elif kind == "dregs":
                total += 8 * len([r for r in m.group(1).split(",") if r.strip()])
            elif kind == "one":
                total += 4
            elif kind == "hex":
                total += int(m.group(1), 16)
            else:
                total += int(m.group(1))
    return total


def frame_rows(target: str, arch: str, funcs: dict) -> list[Row]:
    rows = []
    for name, f in funcs.items():
        m = re.fullmatch(r"frame_(\w+)_with", name)
        if not m:
            continue
        without = funcs.get(f"frame_{m.group(1)}_without")
        op = f"frame_{m.group(1)}"
        if without is None:
            rows.append(Row(target, op, 0, FRAME_LIMIT, False, False, f"no frame_{m.group(1)}_without"))
            continue
        a, b = frame_of(arch, f), frame_of(arch, without)
        problem = "" if a - b <= FRAME_LIMIT else (
            f"the region adds {a - b} bytes to its caller's frame ({b} -> {a}), more than {FRAME_LIMIT}")
        rows.append(Row(target, op, max(a - b, 0), FRAME_LIMIT, True, False, problem,
                        [f"frame with the region: {a} bytes, without: {b}"], []))
    return rows


def check_object(target: str, objdump: str, obj: str) -> list[Row]:
    arch, funcs = disassemble(objdump, obj)
    expect = expectations(objdump, obj)
    ours = {n[len("ours_"):]: f for n, f in funcs.items() if n.startswith("ours_")}
    hand = {n[len("hand_"):]: f for n, f in funcs.items() if n.startswith("hand_")}
    if not ours and not hand:
        raise RuntimeError(f"{obj}: no ours_*/hand_* functions found")
    rows: list[Row] = []
    for name, f in funcs.items():
        m = re.fullmatch(r"branches_(\w+)_(\d+)", name)
        if m:
            body = counted(arch, f)
            rows.append(Row(target, f"branches_{m.group(1)}", conditional_branches(arch, body), int(m.group(2)),
                            True, m.group(1).startswith("info_"), "", [i.text() for i in body], []))
            continue
        if not name.startswith("window_"):
            continue
        op = name[len("window_"):]
        # Region's prepared sequence (window_run_region_<N>counters) is gated as a counter region's.
        m_n = re.fullmatch(r"(run_)?region(_call(?:_arg)?)?_(\d+)counters", op)
        if m_n and int(m_n.group(3)) == 1:  # one position: as window_region_1counter
            w, problem = region_window_of(arch, counted(arch, f), funcs, expect.counter_read)
            rows.append(Row(target, f"window_{op}", max(w, 0), REGION_WINDOW_LIMIT, True, False, problem,
                            [i.text() for i in counted(arch, f)], []))
            continue
        if m_n:
            body = counted(arch, f)
            n = int(m_n.group(3))
            windows, nested, problem = region_windows_n(arch, body, funcs, n, expect.counter_read)
            text = [i.text() for i in body]
            own = [w - sum(nested[j - 1] + nested[2 * n - 2 - j] for j in range(k + 1, n))
                   for k, w in enumerate(windows)]
            rows.append(Row(target, f"window_{op}", max(own, default=0), REGION_WINDOW_LIMIT, True, False,
                            problem, text, []))
            rows.append(Row(target, f"window_{op}_read", max(nested, default=0),
                            region_nested_limit(arch, funcs, body, expect.counter_read), True, False, problem,
                            text, []))
            if windows:
                rows.append(Row(target, f"window_info_{op}_outer", windows[0],
                                REGION_WINDOW_LIMIT + sum(nested), True, True, "", text, []))
            continue
        if op == "region_calibrate_1counter":
            ws, problem = region_windows_of(arch, counted(arch, f), funcs, expect.counter_read,
                                            REGION_CALIBRATE_REGIONS)
            if ws and len(set(ws)) != 1:
                problem = f"calibrate()'s regions have different windows: {ws}"
            rows.append(Row(target, f"window_{op}", max(ws, default=0), REGION_WINDOW_LIMIT, True, False,
                            problem, [i.text() for i in counted(arch, f)], []))
            continue
        if re.fullmatch(r"(\w+_)?region(_\w+)?_1counter", op):
            w, problem = region_window_of(arch, counted(arch, f), funcs, expect.counter_read)
            rows.append(Row(target, f"window_{op}", max(w, 0), REGION_WINDOW_LIMIT, True,
                            op.startswith("info_"), problem, [i.text() for i in counted(arch, f)], []))
            continue
        slots = re.search(r"(?:^|_)(\d+)slots?$", op)
        body = counted(arch, f)
        w, problem = (window_of(arch, body, int(slots.group(1)), expect.counter_read) if slots
                      else (-1, "name ends in _<N>slot(s)"))
        rows.append(Row(target, f"window_{op}", max(w, 0), expect.window_limit,
                        True, op.startswith("info_"), problem, [i.text() for i in body], []))
    # Calibration (window_calibrate_<N>slot: FastRegions::calibrate() itself) measures the window
    # every region is charged; a region around nothing (window_<N>slot) and around a call
    # (window_call_<N>slot) must have exactly that window: more is counted in every region, less
    # makes a region read less than its body.
    by_op = {r.op: r for r in rows}
    for r in rows:
        # The same for standalone regions (prof::StandaloneFastRegions): window_standalone_...
        m = re.fullmatch(r"window_(standalone_)?(call_)?(\d+slots?)", r.op)
        if not m:
            continue
        cal_op = f"window_{m.group(1) or ''}calibrate_{m.group(3)}"
        cal = by_op.get(cal_op)
        if cal is None:
            if m.group(2):
                r.problem = r.problem or f"no {cal_op} to compare with"
            continue
        if m.group(2):
            r.hand = cal.ours
        if r.ours != cal.ours and not r.problem and not cal.problem:
            r.problem = (f"{r.ours} instructions between the reads, calibrate() measures {cal.ours}: "
                         "the difference is in every such region")
    cal = by_op.get("window_region_calibrate_1counter")
    for r in rows:
        m = re.fullmatch(r"window_region_(call_)?(arg_)?1counter", r.op)
        if not m:
            continue
        if cal is None:
            if m.group(1):
                r.problem = r.problem or "no window_region_calibrate_1counter to compare with"
            continue
        want = cal.ours + (REGION_ARG_SETUP if m.group(2) else 0)
        if m.group(1):
            r.hand = want
        if r.ours != want and not r.problem and not cal.problem:
            r.problem = (f"{r.ours} instructions between the reads, calibrate() measures {cal.ours}"
                         + (f" (+{REGION_ARG_SETUP}, the body's argument)" if m.group(2) else "")
                         + ": the difference is in every such region")
    # Region around a call whose argument is loaded through a pointer kept in a register
    # (window_run_region_call_arg_<N>counters): the empty region's window (window_run_region_<N>counters:
    # calibrate()'s code, an empty Region) and the argument's set-up (REGION_LOADED_ARG_SETUP).
    for r in rows:
        m = re.fullmatch(r"window_run_region_call_arg_(\d+counters)", r.op)
        if not m:
            continue
        empty = by_op.get(f"window_run_region_{m.group(1)}")
        if empty is None:
            r.problem = r.problem or f"no window_run_region_{m.group(1)} to compare with"
            continue
        arg = REGION_LOADED_ARG_SETUP[arch]
        r.hand = empty.ours + arg
        if r.ours != r.hand and not r.problem and not empty.problem:
            r.problem = (f"{r.ours} instructions between the reads, the empty region has {empty.ours} "
                         f"(+{arg}, the body's argument): the difference is in every such region")
    rows += frame_rows(target, arch, funcs)
    # Source order (objdump lists functions in the order of the object), info pairs last.
    order = list(ours) + [o for o in hand if o not in ours]
    for op in sorted(order, key=lambda o: o.startswith("info_")):
        info = op.startswith("info_")
        if op not in ours or op not in hand:
            missing = "ours" if op not in ours else "hand"
            rows.append(Row(target, op, 0, 0, False, info, f"{missing}_{op} is missing"))
            continue
        bo, bh = counted(arch, ours[op]), counted(arch, hand[op])
        so, sh = signature(arch, bo), signature(arch, bh)
        problem = ""
        same_mnem = [i.mnem for i in bo] == [i.mnem for i in bh]
        no, nh = normalised(arch, bo), normalised(arch, bh)
        if not sh:
            problem = f"hand_{op} performs no access (optimised away?)"
        elif so != sh:
            problem = f"access signature differs: ours {so} vs hand {sh}"
        elif same_mnem and no != nh:
            k = next(k for k in range(len(no)) if no[k] != nh[k])
            problem = f"instruction {k} differs: ours '{no[k]}' vs hand '{nh[k]}'"
        elif not same_mnem:
            extra = Counter(constants(arch, bo)) - Counter(constants(arch, bh))
            if extra:
                problem = ("ours uses constants hand does not: " +
                           ", ".join(f"{v:#x}" for v in sorted(extra.elements())))
        rows.append(Row(target, op, len(bo), len(bh), same_mnem and no == nh,
                        info, problem, [i.text() for i in bo], [i.text() for i in bh]))
    return rows


def print_table(rows: list[Row], show_diff: bool) -> None:
    headers = ["target", "operation", "ours", "hand", "ratio", "sequence"]
    table = []
    for r in rows:
        ratio = "inf" if r.ratio == float("inf") else f"{r.ratio:.2f}"
        seq = "same" if r.same_seq else "differs"
        if r.info:
            seq += " (info, not gated)"
        elif r.failed:
            seq += "  <-- FAIL"
        table.append([r.target, r.op, str(r.ours), str(r.hand), ratio, seq])
    widths = [max(len(h), *(len(t[c]) for t in table)) for c, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        out = []
        for c, cell in enumerate(cells):
            out.append(cell.rjust(widths[c]) if c in (2, 3, 4) else cell.ljust(widths[c]))
        return "| " + " | ".join(out) + " |"

    print(line(headers))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for t in table:
        print(line(t))
    for r in rows:
        if r.problem and not r.info:
            print(f"{r.target}/{r.op}: {r.problem}")
        if (show_diff and not r.same_seq) or r.failed:
            print(f"--- {r.target}: hand_{r.op} / ours_{r.op} (counted instructions)")
            for d in difflib.unified_diff(r.hand_text, r.ours_text, f"hand_{r.op}", f"ours_{r.op}",
                                          lineterm="", n=20):
                print("    " + d)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("object", nargs="?", help="probe object file (single-target form)")
    ap.add_argument("--objdump", help="objdump for the single-target form")
    ap.add_argument("--target", help="target name for the single-target form")
    ap.add_argument("--probe", nargs=3, action="append", default=[],
                    metavar=("NAME", "OBJDUMP", "OBJECT"), help="one target of a combined table")
    ap.add_argument("--diff", action="store_true", help="show disassembly diffs")
    ap.add_argument("--expect-regression", action="store_true",
                    help="gate self-test: exit 0 only if every gated pair fails")
    a = ap.parse_args(argv)
    probes = [tuple(p) for p in a.probe]
    if a.object:
        if not a.objdump or not a.target:
            ap.error("the single-target form needs --objdump and --target")
        probes.insert(0, (a.target, a.objdump, a.object))
    if not probes:
        ap.error("give an object (with --objdump and --target) or at least one --probe")
    rows: list[Row] = []
    try:
        for name, objdump, obj in probes:
            rows.extend(check_object(name, objdump, obj))
    except (RuntimeError, ValueError, OSError) as e:
        print(f"check.py: error: {e}", file=sys.stderr)
        return 2
    print_table(rows, a.diff)
    failed = [r for r in rows if r.failed]
    gated = [r for r in rows if not r.info]
    if a.expect_regression:
        passed = [r.op for r in gated if not r.failed]
        if gated and not passed:
            print(f"gate self-test: the gate caught all {len(failed)} regression(s), as it must")
            return 0
        print(f"gate self-test: FAILED, these regressions passed the gate: {passed}", file=sys.stderr)
        return 1
    if failed:
        print(f"zero-cost check FAILED: {len(failed)} of {len(gated)} gated operations "
              "cost more than the hand-written accessor or access the hardware differently")
        return 1
    print(f"zero-cost check passed: {len(gated)} gated operations, every ratio <= 1.00, "
          "same accesses, barriers and constants as the hand-written accessors")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
