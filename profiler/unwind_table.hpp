#pragma once
// Call stacks walked on the target with an unwind table, on every architecture: ARM without frame
// pointers and MIPS included, where no frame chain exists (profiler/frame_walk.hpp). The table is
// the ELF's own call frame information (DWARF 4, section 6.4 "Call Frame Information") reduced at
// build time to what a walk needs (the idea of the Linux kernel's ORC unwinder): per code address,
// the CFA is SP or FP plus an offset, the return address is in the link register, at CFA + offset,
// or undefined (the outermost frame: every board's _start says so with DW_CFA_undefined), and the
// frame pointer is unchanged or at CFA + offset. The host tool pmukit-unwind-table (tools/elf/unwind_table.hpp) writes it from the linked
// ELF; the firmware links a second time with it (cmake/PmuUnwindTable.cmake), every code address
// unchanged because the table's section comes after everything else.
//
//   static prof::UnwindRing<128, 16> stacks;      // 128 samples of up to 16 return addresses
//   extern "C" const std::uint32_t pmukit_unwind_table[];   // the table (an array: its size varies)
//   stacks.set_table(prof::UnwindTable::from(pmukit_unwind_table));
//   stacks.set_stack(stack_bottom, stack_top);    // every stack read must lie in the stack
//   stacks.record({pc, lr, sp, fp});              // in the sampling interrupt
//
// Per frame: the rule at the pc (one load from a map of a rule number per instruction: the table
// trades size, about a quarter of the code's on ARM, MIPS and PowerPC, for a walk without search),
// the CFA, at most two stack reads. A caller's pc is a return address: its rule is looked up at
// pc - 1 (the call, which may end its function). A read outside [bottom, top), a pc with no rule,
// a return address that repeats with no climb, or a table that is not one ends the walk
// incomplete: a bad table or a corrupt stack costs depth, never a fault or an endless walk.
//
// The common rule (a frame whose CFA is SP plus a positive offset, its return address saved in it,
// its frame pointer kept: every non-leaf function's body on ARM, MIPS and PowerPC built without a
// frame pointer) is walked apart, in about 20 instructions a frame: the tool numbers those rules
// first, so one compare of the rule number selects it, and its offsets are one word.
#include <cstddef>
#include <cstdint>

#include "profiler/frame_walk.hpp"
#include "profiler/stack.hpp"

namespace prof {

// One rule as the tool derives it from a CFI row: how to reach the caller from a pc it covers.
struct UnwindRule {
  std::int16_t cfa_offset;   // CFA = base + cfa_offset
  std::int16_t ra_offset;    // ra_at_cfa: the return address at CFA + ra_offset
  std::int16_t fp_offset;    // fp_at_cfa: the caller's frame pointer at CFA + fp_offset
  std::uint8_t cfa_base;     // UnwindRule::Base
  std::uint8_t rules;        // return address rule | frame pointer rule << 4
  enum Base : std::uint8_t { none = 0, sp = 1, fp = 2 };  // none: no CFI here, the walk ends
  enum Ra : std::uint8_t { ra_at_cfa = 0, ra_in_lr = 1, ra_undefined = 2, ra_unknown = 3 };
  enum Fp : std::uint8_t { fp_same = 0, fp_at_cfa = 1, fp_unknown = 2 };

  // The common rule, walked apart: CFA = SP + a positive offset, the return address in the frame
  // (CFA + ra_offset, at or above SP), the frame pointer kept. Both offsets from SP below 32 KiB.
  bool simple() const {
    const int ra_from_sp = cfa_offset + ra_offset;
    return cfa_base == sp && rules == (ra_at_cfa | fp_same << 4) && cfa_offset > 0 && ra_from_sp >= 0 &&
           ra_from_sp <= 0x7fff;
  }
  // The frame chain, walked apart too: CFA = FP + offset, and a frame record (the caller's frame
  // pointer, then the return address, in consecutive words) at or below the CFA: i386's push ebp /
  // mov ebp, esp, ARM's and MIPS's frame pointer prologues. The CFA is within 32 KiB above it.
  bool chain() const {
    return cfa_base == fp && rules == (ra_at_cfa | fp_at_cfa << 4) && ra_offset <= 0 && ra_offset == fp_offset + 4;
  }
  // The common rule with the frame pointer saved in the frame too (a function using it as a
  // callee-saved register: PowerPC's r31, MIPS $30), at or above SP, below 32 KiB.
  bool saves_fp() const {
    const int fp_from_sp = cfa_offset + fp_offset;
    return UnwindRule{cfa_offset, ra_offset, 0, cfa_base, ra_at_cfa}.simple() && rules == (ra_at_cfa | fp_at_cfa << 4) &&
           fp_from_sp >= 0 && fp_from_sp <= 0x7fff;
  }
  // A leaf (or a prologue before it saves the link register): CFA = SP + offset, the return
  // address in the link register, the frame pointer kept: the sampled frame's, walked apart.
  bool leaf() const { return cfa_base == sp && rules == (ra_in_lr | fp_same << 4) && cfa_offset >= 0; }
  // The outermost frame (every board's _start: DW_CFA_undefined on the return address), CFA on SP.
  bool outer() const { return cfa_base == sp && (rules & 15) == ra_undefined; }
  // The rules' order in a table (UnwindTableHeader): simple, chain (i386's common rule: second),
  // saves_fp, leaf, the others ("no rule" among them), outer.
  int order() const { return simple() ? 1 : chain() ? 2 : saves_fp() ? 3 : leaf() ? 4 : outer() ? 6 : 5; }
};

// A rule as the table holds it (8 bytes, target byte order): every offset from the CFA's base
// register, so that the common rule's walk needs one word: CFA = base + offsets >> 16, the return
// address at base + (offsets & 0xffff) (both halves two's complement; non-negative in a simple rule).
struct UnwindTableRule {
  std::uint32_t offsets;     // cfa_offset << 16 | (cfa_offset + ra_offset) & 0xffff
  std::int16_t fp_offset;    // the caller's frame pointer at base + fp_offset (cfa_offset + UnwindRule's)
  std::uint8_t cfa_base;     // UnwindRule::Base
  std::uint8_t rules;        // as UnwindRule's

  static std::int32_t half(std::uint32_t v) { return static_cast<std::int16_t>(static_cast<std::uint16_t>(v)); }
  UnwindRule rule() const {
    const std::int32_t cfa = half(offsets >> 16);
    return UnwindRule{static_cast<std::int16_t>(cfa), static_cast<std::int16_t>(half(offsets) - cfa),
                      static_cast<std::int16_t>(fp_offset - cfa), cfa_base, rules};
  }
};
static_assert(sizeof(UnwindTableRule) == 8, "the table's rules are 8 bytes");

// The table's header as the tool writes it; then the rules in the order of UnwindRule::order()
// (the simple ones, 0 .. simple - 1; the frame chain's, simple .. chain - 1; the simple ones
// saving FP too, chain .. saves - 1; the leaves', saves .. leaf - 1; the others, "no rule" (base
// none) among them, leaf .. outer - 1; the outermost frames', outer .. rules - 1), then the map (a rule number per code slot of 1 << slot_shift
// bytes: 4 on ARM, MIPS and PowerPC, 2 for Thumb code, 1 on i386), one byte each, or two where
// there are more than 256 rules.
struct UnwindTableHeader {
  std::uint32_t magic;       // kMagic
  std::uint32_t text_start;  // the map covers [text_start, text_start + (slots << slot_shift))
  std::uint32_t slots;
  std::uint16_t slot_shift;
  std::uint16_t map_bytes;   // 1 or 2
  std::uint32_t rules;       // "no rule" included
  std::uint32_t simple;      // rules 0 .. simple - 1 are UnwindRule::simple()
  std::uint32_t chain;       // rules simple .. chain - 1 are UnwindRule::chain()
  std::uint32_t saves;       // rules chain .. saves - 1 are UnwindRule::saves_fp()
  std::uint32_t leaf;        // rules saves .. leaf - 1 are UnwindRule::leaf()
  std::uint32_t outer;       // rules outer .. rules - 1 are UnwindRule::outer(); between: the others
  static constexpr std::uint32_t kMagic = 0x554e5732;  // "UNW2"
};
static_assert(sizeof(UnwindTableHeader) == 40, "rules follow the header 4-aligned");

// The table as the walk reads it. An empty one (no slots) ends every walk at the pc.
struct UnwindTable {
  std::uint32_t text_start = 0, slots = 0, slot_shift = 0, count = 0, simple = 0, chain = 0, saves = 0, leaf = 0, outer = 0;
  const UnwindTableRule* rule = nullptr;
  const std::uint8_t* map8 = nullptr;    // one of the two
  const std::uint16_t* map16 = nullptr;

  // The header's table, checked whole once here so that the walk need not check it per frame: an
  // empty table where it is not one (wrong magic or byte order, sizes that disagree, a rule number
  // beyond the rules, a base or an offset that could make a misaligned read: MIPS faults on one, a
  // rule numbered simple that is not). The map ends below 2^32: a zero return address (the end of
  // a stack) is never in it.
  static UnwindTable from(const void* blob) {
    UnwindTable t;
    const auto* h = static_cast<const UnwindTableHeader*>(blob);
    if (h == nullptr || h->magic != UnwindTableHeader::kMagic || h->rules == 0 || h->rules > 0x10000 ||
        h->simple > h->chain || h->chain > h->saves || h->saves > h->leaf || h->leaf > h->outer || h->outer > h->rules || h->slot_shift > 2 || (h->map_bytes != 1 && h->map_bytes != 2) ||
        (h->map_bytes == 1 && h->rules > 0x100) || h->slots > (std::uint32_t{1} << 28) ||
        (std::uint64_t{h->slots} << h->slot_shift) >= (std::uint64_t{1} << 32) - h->text_start)  // the map wraps
      return t;
    const auto* r = reinterpret_cast<const UnwindTableRule*>(h + 1);
    for (std::uint32_t i = 0; i < h->rules; ++i) {
      const UnwindTableRule& x = r[i];
      if (x.cfa_base > UnwindRule::fp || x.offsets % 4 != 0 || (x.offsets >> 16) % 4 != 0 || x.fp_offset % 4 != 0 ||
          (x.rules & 15) > UnwindRule::ra_unknown || (x.rules >> 4) > UnwindRule::fp_unknown ||
          x.rule().order() != (i < h->simple ? 1 : i < h->chain ? 2 : i < h->saves ? 3 : i < h->leaf ? 4 : i < h->outer ? 5 : 6))
        return t;
    }
    const void* map = r + h->rules;
    for (std::uint32_t i = 0; i < h->slots; ++i)
      if ((h->map_bytes == 1 ? static_cast<const std::uint8_t*>(map)[i] : static_cast<const std::uint16_t*>(map)[i]) >= h->rules)
        return t;
    t.text_start = h->text_start;
    t.slots = h->slots;
    t.slot_shift = h->slot_shift;
    t.count = h->rules;
    t.simple = h->simple;
    t.saves = h->saves;
    t.chain = h->chain;
    t.leaf = h->leaf;
    t.outer = h->outer;
    t.rule = r;
    if (h->map_bytes == 1) t.map8 = static_cast<const std::uint8_t*>(map);
    else t.map16 = static_cast<const std::uint16_t*>(map);
    return t;
  }

  // The rule at pc: none (base none) outside the map.
  UnwindRule find(std::uint32_t pc) const {
    const std::uint32_t slot = (pc - text_start) >> slot_shift;
    if (pc < text_start || slot >= slots) return UnwindRule{0, 0, 0, UnwindRule::none, UnwindRule::ra_unknown};
    return rule[map8 != nullptr ? map8[slot] : map16[slot]].rule();
  }
};

namespace detail {

// The walk's state for the rules the loop leaves to step_rule.
struct WalkState {
  std::uint32_t sp, fp, at;  // fp: an odd value once lost; at: the return address found
  std::uint32_t here, lr;    // the frame's pc or return address, and the link register's value there
  std::uint32_t low, span;   // a read at a is in the stack when a - low <= span
};
enum StepResult { step_end, step_next, step_outermost };
// A lost frame pointer (unknown, or read misaligned): 4-aligned, and every read at it plus a
// 16-bit offset lies above any stack walk_table accepts (below 2^32 - 64 KiB), so the bounds
// check that every read has ends a walk that needs it.
inline constexpr std::uint32_t kLostFp = 0xffff8000u;

// One frame by any rule (a CFA on FP without the chain's saves, a return address in the link
// register in a caller, a frame pointer lost or restored alone...): step_next with the caller's
// state in s, or the end of the walk. Out of the loop, so that its registers stay registers.
template <class Read>
[[gnu::noinline]] StepResult step_rule(const UnwindTableRule& e, Read read, WalkState& s) {
  const std::uint32_t how = e.rules, low = s.low, span = s.span;
  std::uint32_t base = s.sp;
  if (e.cfa_base != UnwindRule::sp) {
    if (e.cfa_base != UnwindRule::fp || s.fp == kLostFp) return step_end;  // no rule here (base none), or a lost FP
    base = s.fp;
  }
  const std::uint32_t cfa = base + static_cast<std::uint32_t>(UnwindTableRule::half(e.offsets >> 16));
  // ra_in_lr: a leaf, or a function before its prologue saved it (the return address column is
  // the link register's: ARM r14, MIPS $31, PowerPC LR).
  std::uint32_t ra = s.lr;
  if ((how & 15) == UnwindRule::ra_at_cfa) {
    const std::uint32_t a = base + static_cast<std::uint32_t>(UnwindTableRule::half(e.offsets));
    if (a - low > span) return step_end;
    ra = read(a);
  } else if ((how & 15) != UnwindRule::ra_in_lr) {
    return (how & 15) == UnwindRule::ra_undefined ? step_outermost : step_end;
  }
  if ((how >> 4) != UnwindRule::fp_same) {
    const std::uint32_t a = base + static_cast<std::uint32_t>(static_cast<std::int32_t>(e.fp_offset));
    std::uint32_t fp = kLostFp;
    if ((how >> 4) == UnwindRule::fp_at_cfa && a - low <= span) {
      fp = read(a);
      if (fp % 4 != 0) fp = kLostFp;
    }
    s.fp = fp;
  }
  if (ra == s.here && cfa <= s.sp && ra != 0) return step_end;  // no progress
  // A caller's SP below the stack, or so far above it that a frame on it could read nothing in
  // it: a corrupt stack (and the loop's one compare needs SP in [low, last + 32 KiB]).
  if (cfa - low > span + 0x8000) return step_end;
  s.sp = cfa;  // the CFA is the caller's stack pointer at the call (DWARF 4, 6.4.1)
  s.at = ra;
  return step_next;
}

// The walk over a map of Slot-sized rule numbers with slots of 1 << Shift bytes (one instance per
// map the target's code can have: no choice per frame). One loop serves the sampled frame and its
// callers: the rule of `at - 1` applies (the pc + 1, then each return address: its call is at
// ra - 1). The rule's number picks its path (the tool sorts them, from() checks): the common rule,
// the frame chain's, a leaf's in the sampled frame and the outermost frame's inline, any other by
// step_rule. A zero return address (the end of the stack) is stored like any other, and dropped
// when the walk ends: it is outside the map (from()), so the loop's lookup ends there.
template <class Slot, unsigned Shift, std::size_t Depth, class Read>
[[gnu::noinline]] void walk_map(const UnwindTable& t, const Slot* map, const StackContext& c, std::uint32_t low,
                                std::uint32_t span, Read read, FrameSample<Depth>& out) {
  std::uint32_t* p = out.pcs + 1;
  std::uint32_t* const end = out.pcs + Depth + 1;
  const std::uint32_t start = t.text_start + 1, slots = t.slots, simple = t.simple;
  const UnwindTableRule* const rules = t.rule;
  const std::uint32_t last = low + span, span2 = span - 4;  // the last word; two words at a: a - low <= span2
  std::uint32_t sp = c.sp, at = c.pc + 1;
  std::uint32_t fp = c.fp % 4 != 0 || c.fp == 0 ? kLostFp : c.fp;  // 0: the board keeps none (StackContext)
  bool complete = false;
  for (;;) {
    // Below the map, at - start wraps to 2^32 - x, beyond any slot count from() accepts.
    const std::uint32_t slot = (at - start) >> Shift;
    if (slot >= slots) break;
    const std::uint32_t n = map[slot];
    if (n < simple) [[likely]] {  // the common rule: CFA = SP + offset, the return address in the frame
      // Both offsets below 32 KiB (from()) and sp in [low, last + 32 KiB]: a >= sp >= low, and
      // no sum wraps (walk_table keeps the stack below 2^32 - 64 KiB), so one compare bounds a.
      const std::uint32_t w = rules[n].offsets;
      const std::uint32_t a = sp + static_cast<std::uint32_t>(UnwindTableRule::half(w));
      if (a > last) break;
      at = read(a);
      sp += w >> 16;
    } else if (n < t.chain) {  // the frame chain: CFA = FP + offset, a frame record below it
      const std::uint32_t w = rules[n].offsets;
      const std::uint32_t cfa = fp + static_cast<std::uint32_t>(UnwindTableRule::half(w >> 16));
      const std::uint32_t r = fp + static_cast<std::uint32_t>(UnwindTableRule::half(w)) - 4;  // the record
      if (r - low > span2) break;  // a read outside the stack, or a lost FP (kLostFp)
      // The CFA at most 32 KiB above the record (chain()): in [low, last + 32 KiB], as the loop needs.
      const std::uint32_t ra = read(r + 4);
      if (cfa <= sp && ra == (p != out.pcs + 1 ? at : c.pc) && ra != 0) break;  // no progress, as step_rule
      fp = read(r);
      if (fp % 4 != 0) fp = kLostFp;
      sp = cfa;
      at = ra;
    } else if (n < t.saves) {  // the common rule, the caller's FP saved in the frame too (at or above SP)
      const UnwindTableRule& e = rules[n];
      const std::uint32_t w = e.offsets;
      const std::uint32_t a = sp + static_cast<std::uint32_t>(UnwindTableRule::half(w));
      const std::uint32_t f = sp + static_cast<std::uint32_t>(static_cast<std::int32_t>(e.fp_offset));
      if (a > last) break;
      at = read(a);
      fp = kLostFp;
      if (f <= last) {
        fp = read(f);
        if (fp % 4 != 0) fp = kLostFp;
      }
      sp += w >> 16;
    } else if (n < t.leaf && p == out.pcs + 1) {  // the sampled frame in a leaf: the return address in lr
      // SP is the sampled one, in [low, top] (walk_table): the CFA is in [low, last + 32 KiB].
      const std::uint32_t off = rules[n].offsets >> 16;
      if (off == 0 && c.lr == c.pc && c.lr != 0) break;  // no progress, as step_rule
      sp += off;
      at = c.lr;
    } else if (n >= t.outer) {  // the outermost frame (CFA on SP, the return address undefined)
      complete = true;
      break;
    } else {
      WalkState s;  // field by field: no copy of a zeroed whole
      s.sp = sp;
      s.fp = fp;
      s.here = s.lr = at;
      if (p == out.pcs + 1) {
        s.here = c.pc;
        s.lr = c.lr;
      }
      s.low = low;
      s.span = span;
      const StepResult r = step_rule(rules[n], read, s);
      if (r != step_next) {
        complete = r == step_outermost;
        break;
      }
      sp = s.sp;
      fp = s.fp;
      at = s.at;
    }
    *p++ = at;
    if (p == end) break;
  }
  if (p != out.pcs + 1 && p[-1] == 0) {  // a zero return address ends the stack (start-up code)
    --p;
    complete = true;
  }
  out.count = static_cast<std::uint32_t>(p - out.pcs);
  out.complete = complete;
}

// The slot sizes this target's code can need: 4 bytes (ARM, MIPS, PowerPC), 2 (Thumb), 1 (x86).
template <std::size_t Depth, class Read, class Slot>
void walk_slots(const UnwindTable& t, const Slot* map, const StackContext& c, std::uint32_t low, std::uint32_t span,
                Read read, FrameSample<Depth>& out) {
#if defined(__mips__) || defined(__powerpc__)
  if (t.slot_shift == 2) walk_map<Slot, 2>(t, map, c, low, span, read, out);
#elif defined(__arm__)
  if (t.slot_shift == 2) walk_map<Slot, 2>(t, map, c, low, span, read, out);
  else if (t.slot_shift == 1) walk_map<Slot, 1>(t, map, c, low, span, read, out);
#elif defined(__i386__)
  if (t.slot_shift == 0) walk_map<Slot, 0>(t, map, c, low, span, read, out);
#else  // the host: a test walks any target's table
  if (t.slot_shift == 2) walk_map<Slot, 2>(t, map, c, low, span, read, out);
  else if (t.slot_shift == 1) walk_map<Slot, 1>(t, map, c, low, span, read, out);
  else walk_map<Slot, 0>(t, map, c, low, span, read, out);
#endif
}

}  // namespace detail

// The walk, on any memory reader (the target's memory, or a test's copy of a stack). out gets the
// pc, then return addresses; complete when it ended at the outermost frame (an undefined return
// address) or a zero return address. Every address read is 4-aligned (the stack pointer is checked
// once, a loaded frame pointer when loaded, the table's offsets by from()) and in [bottom, top):
// a read at a is allowed when a - bottom <= top - 4 - bottom, one compare (the common rule's: a <=
// top - 4, its address being above a stack pointer kept at or above bottom).
template <std::size_t Depth, class Read>
void walk_table(const UnwindTable& t, const StackContext& c, std::uintptr_t bottom, std::uintptr_t top, Read read,
                FrameSample<Depth>& out) {
  out.pcs[0] = c.pc;
  out.count = 1;
  out.complete = false;
  // The stack ends below 2^32 - 64 KiB (a stack above is walked in its lower part): the fast
  // path's sums never wrap. A sampled SP outside it is another stack: no walk.
  if (top > std::uintptr_t{0xffff0000u}) top = std::uintptr_t{0xffff0000u};
  if (t.slots == 0 || top < bottom + 8 || c.sp % 4 != 0 || c.sp < bottom || c.sp > top) return;  // two words at least
  const auto low = static_cast<std::uint32_t>(bottom), span = static_cast<std::uint32_t>(top - bottom) - 4;
  if (t.map8 != nullptr) detail::walk_slots(t, t.map8, c, low, span, read, out);
  else detail::walk_slots(t, t.map16, c, low, span, read, out);
}

// Samples walked with the table into FrameSample entries: the same dump records as FrameRing's
// (FRAMES), so `pmukit report` needs no CFI and no stack copy for them.
template <std::size_t N, std::size_t Depth>
class UnwindRing : public CaptureRing<FrameSample<Depth>, N> {
  static_assert(Depth >= 1 && Depth <= 64, "1..64 return addresses per sample");

 public:
  static constexpr std::size_t kDepth = Depth;
  using Entry = FrameSample<Depth>;

  void set_table(const UnwindTable& t) { table_ = t; }
  void set_stack(std::uintptr_t bottom, std::uintptr_t top) {
    bottom_ = bottom;
    top_ = top;
  }
  // Interrupt side.
  bool record(const StackContext& c) {
    std::uint32_t head;
    Entry* slot = this->claim(head);
    if (slot == nullptr) return false;
    walk_table<Depth>(table_, c, bottom_, top_,
                      [](std::uint32_t a) { return *reinterpret_cast<const volatile std::uint32_t*>(std::uintptr_t{a}); },
                      *slot);
    this->publish(head);
    return true;
  }
  // The ring as write_dump reads walked frames (FrameView, profiler/frame_walk.hpp).
  FrameView view() { return FrameView::of(*this); }

 private:
  UnwindTable table_{};
  std::uintptr_t bottom_ = 0, top_ = 0;
};

}  // namespace prof
