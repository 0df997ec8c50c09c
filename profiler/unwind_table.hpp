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
#include <cstddef>
#include <cstdint>

#include "profiler/frame_walk.hpp"
#include "profiler/stack.hpp"

namespace prof {

// One rule of the table (8 bytes, target byte order): how to reach the caller from a pc it covers.
struct UnwindRule {
  std::int16_t cfa_offset;   // CFA = base + cfa_offset
  std::int16_t ra_offset;    // ra_at_cfa: the return address at CFA + ra_offset
  std::int16_t fp_offset;    // fp_at_cfa: the caller's frame pointer at CFA + fp_offset
  std::uint8_t cfa_base;     // UnwindRule::Base
  std::uint8_t rules;        // return address rule | frame pointer rule << 4
  enum Base : std::uint8_t { none = 0, sp = 1, fp = 2 };  // none: no CFI here, the walk ends
  enum Ra : std::uint8_t { ra_at_cfa = 0, ra_in_lr = 1, ra_undefined = 2, ra_unknown = 3 };
  enum Fp : std::uint8_t { fp_same = 0, fp_at_cfa = 1, fp_unknown = 2 };
};
static_assert(sizeof(UnwindRule) == 8, "the table's rules are 8 bytes");

// The table's header as the tool writes it; then the rules, then the map (a rule number per code
// slot of 1 << slot_shift bytes: 4 on ARM, MIPS and PowerPC, 2 for Thumb code, 1 on i386), one
// byte each, or two where there are more than 255 rules. Rule 0 is "no rule".
struct UnwindTableHeader {
  std::uint32_t magic;       // kMagic
  std::uint32_t text_start;  // the map covers [text_start, text_start + (slots << slot_shift))
  std::uint32_t slots;
  std::uint16_t slot_shift;
  std::uint16_t map_bytes;   // 1 or 2
  std::uint32_t rules;       // rule 0 included
  static constexpr std::uint32_t kMagic = 0x554e5754;  // "UNWT"
};
static_assert(sizeof(UnwindTableHeader) == 20, "rules follow the header 4-aligned");

// The table as the walk reads it. An empty one (no slots) ends every walk at the pc.
struct UnwindTable {
  std::uint32_t text_start = 0, slots = 0, slot_shift = 0, count = 0;
  const UnwindRule* rule = nullptr;
  const std::uint8_t* map8 = nullptr;    // one of the two
  const std::uint16_t* map16 = nullptr;

  // The header's table, checked whole once here so that the walk need not check it per frame: an
  // empty table where it is not one (wrong magic or byte order, sizes that disagree, a rule number
  // beyond the rules, a base or an offset that could make a misaligned read: MIPS faults on one).
  static UnwindTable from(const void* blob) {
    UnwindTable t;
    const auto* h = static_cast<const UnwindTableHeader*>(blob);
    if (h == nullptr || h->magic != UnwindTableHeader::kMagic || h->rules == 0 || h->rules > 0x10000 ||
        h->slot_shift > 2 || (h->map_bytes != 1 && h->map_bytes != 2) || (h->map_bytes == 1 && h->rules > 0x100) ||
        h->slots > (std::uint32_t{1} << 28) ||
        (std::uint64_t{h->slots} << h->slot_shift) > (std::uint64_t{1} << 32) - h->text_start)  // the map wraps
      return t;
    const auto* r = reinterpret_cast<const UnwindRule*>(h + 1);
    for (std::uint32_t i = 0; i < h->rules; ++i) {
      const UnwindRule& x = r[i];
      if (x.cfa_base > UnwindRule::fp || x.cfa_offset % 4 != 0 || x.ra_offset % 4 != 0 || x.fp_offset % 4 != 0 ||
          (x.rules & 15) > UnwindRule::ra_unknown || (x.rules >> 4) > UnwindRule::fp_unknown || (i == 0 && x.cfa_base != UnwindRule::none))
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
    t.rule = r;
    if (h->map_bytes == 1) t.map8 = static_cast<const std::uint8_t*>(map);
    else t.map16 = static_cast<const std::uint16_t*>(map);
    return t;
  }

  // The rule at pc: rule 0 (no rule) outside the map.
  const UnwindRule& find(std::uint32_t pc) const {
    const std::uint32_t slot = (pc - text_start) >> slot_shift;
    if (pc < text_start || slot >= slots) return rule[0];
    return rule[map8 != nullptr ? map8[slot] : map16[slot]];
  }
};

namespace detail {

// The walk over a map of Slot-sized rule numbers with slots of 1 << Shift bytes (one instance per
// map the target's code can have: no choice per frame). The first frame is walked apart: beyond it
// the link register holds the return address just found, so each frame keeps only the stack
// pointer, the frame pointer (an odd value once lost: a frame pointer is 4-aligned, so one test
// serves both) and that return address.
template <class Slot, unsigned Shift, std::size_t Depth, class Read>
void walk_map(const UnwindTable& t, const Slot* map, const StackContext& c, std::uint32_t low, std::uint32_t span,
              Read read, FrameSample<Depth>& out) {
  std::uint32_t* p = out.pcs + 1;
  std::uint32_t* const end = out.pcs + Depth + 1;
  const std::uint32_t start = t.text_start, slots = t.slots;
  const UnwindRule* const rules = t.rule;
  std::uint32_t sp = c.sp, fp = c.fp;
  if (fp % 4 != 0 || fp == 0) fp = 1;  // 0: the board keeps no frame pointer (StackContext)
  bool complete = false;
  // One frame: the caller's return address and CFA from the rule at `at`, lr being the link
  // register's value there; the frame pointer updated. false: the walk ends (complete says how).
  auto step = [&](std::uint32_t at, std::uint32_t lr, std::uint32_t& ra, std::uint32_t& cfa) [[gnu::always_inline]] {
    // Below the map, at - start wraps to 2^32 - x, beyond any slot count from() accepts.
    const std::uint32_t slot = (at - start) >> Shift;
    if (slot >= slots) return false;
    const UnwindRule& e = rules[map[slot]];
    const std::uint32_t how = e.rules;
    cfa = sp;
    if (e.cfa_base != UnwindRule::sp) {
      if (e.cfa_base != UnwindRule::fp || fp % 4 != 0) return false;  // no rule here (rule 0), or a lost FP
      cfa = fp;
    }
    cfa += static_cast<std::uint32_t>(static_cast<std::int32_t>(e.cfa_offset));
    ra = lr;  // ra_in_lr: a leaf, or a function before its prologue saved it
    if ((how & 15) == UnwindRule::ra_at_cfa) {
      const std::uint32_t a = cfa + static_cast<std::uint32_t>(static_cast<std::int32_t>(e.ra_offset));
      if (a - low > span) return false;
      ra = read(a);
    } else if ((how & 15) != UnwindRule::ra_in_lr) {
      complete = (how & 15) == UnwindRule::ra_undefined;  // the outermost frame
      return false;
    }
    if ((how >> 4) != UnwindRule::fp_same) {
      const std::uint32_t a = cfa + static_cast<std::uint32_t>(static_cast<std::int32_t>(e.fp_offset));
      fp = 1;
      if ((how >> 4) == UnwindRule::fp_at_cfa && a - low <= span) {
        fp = read(a);
        if (fp % 4 != 0) fp = 1;
      }
    }
    if (ra == 0) {  // a zero return address ends the stack (start-up code)
      complete = true;
      return false;
    }
    return true;
  };
  std::uint32_t ra, cfa;
  // The sampled frame: its rule at the pc itself; the return address may still be in lr.
  if (step(c.pc, c.lr, ra, cfa) && !(ra == c.pc && cfa <= sp)) {
    *p++ = ra;
    sp = cfa;  // the CFA is the caller's stack pointer at the call (DWARF 4, 6.4.1)
    // Callers: the rule at ra - 1 (the call, which may end its function); lr is ra (the return
    // address column is the link register's: ARM r14, MIPS $31, PowerPC LR).
    for (std::uint32_t next; p != end; *p++ = ra = next, sp = cfa)
      if (!step(ra - 1, ra, next, cfa) || (next == ra && cfa <= sp)) break;  // the end, or no progress
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
// a read at a is allowed when a - bottom <= top - 4 - bottom, one compare.
template <std::size_t Depth, class Read>
void walk_table(const UnwindTable& t, const StackContext& c, std::uintptr_t bottom, std::uintptr_t top, Read read,
                FrameSample<Depth>& out) {
  out.pcs[0] = c.pc;
  out.count = 1;
  out.complete = false;
  if (t.slots == 0 || top < bottom + 4 || c.sp % 4 != 0) return;
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
  FrameView view() {
    using R = UnwindRing<N, Depth>;
    return {this, this->size(), this->dropped(),
            [](const void* p, std::size_t i, std::uint32_t& count, bool& complete) -> const std::uint32_t* {
              const auto& e = static_cast<const R*>(p)->peek(i);
              count = e.count;
              complete = e.complete;
              return e.pcs;
            },
            [](void* p, std::size_t n) { static_cast<R*>(p)->consume(n); }};
  }

 private:
  UnwindTable table_{};
  std::uintptr_t bottom_ = 0, top_ = 0;
};

}  // namespace prof
