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
// Per frame: the rule at the pc (one load from a map of a rule per instruction slot: the table
// trades size, about a quarter of the code's on ARM, MIPS and PowerPC, for a walk without search),
// the CFA, at most two stack reads. A caller's pc is a return address: its rule is looked up at
// pc - 1 (the call, which may end its function). A read outside [bottom, top), a pc with no rule,
// a return address that repeats with no climb, or a table that is not one ends the walk
// incomplete: a bad table or a corrupt stack costs depth, never a fault or an endless walk.
//
// The map's value is the offset of the rule's fast word (UnwindRule::fast_word), which is the
// walk's path: the target's common rule (CFA = SP + offset, the return address at CFA - 4 on ARM
// and MIPS, CFA + 4 on PowerPC) gives its CFA offset, walked in about 12 to 16 instructions a
// frame (SP kept relative to the stack's bottom: one unsigned compare bounds the read and turns
// away every other rule, whose word has bit 31 set); i386's frame record has its own loop; the
// sampled leaf, the outermost frame and i386's frameless functions are taken inline from their
// words; any other rule by step_rule. The tool writes the words, from() checks each. The fast
// paths call nothing (their values stay in the registers a call may clobber, none saved and
// restored one by one): the first rule they leave goes, with the walk's state, to walk_rest,
// which takes it by step_rule and goes on. i386's loop asks a memo first (the return addresses
// the map said were the frame record's, by their low byte: one load and one compare instead of
// the map's bounds, load and compare; WalkSetup::memo), and ends at the outermost frame by its
// rule's number (numbered last).
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

  // The rule's word for the walk's fast path (UnwindTableHeader::fast): in a table of kind fast_sp,
  // a simple rule with its return address at CFA + ra_at (ARM and MIPS: -4, PowerPC: +4, the
  // same for every function) gives its CFA offset; in one of kind fast_chain, the standard frame
  // record (CFA = FP + 8, the return address at CFA - 4, the caller's FP at CFA - 8: i386's push
  // ebp / mov ebp, esp) gives 0. Any other rule gives a word with bit 31 set, which no sum in
  // [0, 2^31) keeps below 2^31 (one unsigned compare leaves the fast path), and which says what
  // follows: the outermost frame (kFastOuter), a leaf's (kFastLeaf | its CFA offset: the sampled
  // frame's, taken inline), in a fast_chain table a simple rule with its return address at CFA +
  // ra_at (kFastSp | its CFA offset: i386's frameless leaves and prologues, taken inline), any
  // other (kFastNo: step_rule). In a table where no rule puts the CFA
  // on FP (fp_used false: the frame pointer's value never matters to a walk), the frame pointer's
  // rule is ignored: PowerPC's and MIPS's functions that save r31 or $30 as a callee-saved
  // register take the fast path too.
  static constexpr std::uint32_t kFastNo = 0x80000000u, kFastOuter = 0xc0000000u, kFastLeaf = 0xa0000000u,
                                 kFastSp = 0x90000000u;
  static_assert((kFastLeaf & 0xdfff0000u) == kFastNo, "a leaf's word and kFastNo differ in bit 29 alone (walk_body)");
  enum Fast : std::uint32_t { fast_none = 0, fast_sp = 1, fast_chain = 2 };
  std::uint32_t fast_word(std::uint32_t kind, std::int32_t ra_at, bool fp_used) const {
    if (kind == fast_none) return kFastNo;
    const UnwindRule g = fp_used || cfa_base == fp ? *this
                                                   : UnwindRule{cfa_offset, ra_offset, 0, cfa_base,
                                                                static_cast<std::uint8_t>((rules & 15) | fp_same << 4)};
    if (kind == fast_sp && g.simple() && ra_offset == ra_at) return static_cast<std::uint32_t>(cfa_offset);
    if (kind == fast_chain && chain() && cfa_offset == 8 && ra_offset == -4 && fp_offset == -8) return 0;
    if (outer()) return kFastOuter;
    if (kind == fast_chain && g.simple() && ra_offset == ra_at) return kFastSp | static_cast<std::uint32_t>(cfa_offset);
    if (g.leaf()) return kFastLeaf | static_cast<std::uint32_t>(cfa_offset);
    return kFastNo;
  }
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
// none) among them, leaf .. outer - 1; the outermost frames', outer .. rules - 1), then each rule's
// fast word (UnwindRule::fast_word, 4 bytes), then the map (per code slot of 1 << slot_shift
// bytes: 4 on ARM, MIPS and PowerPC, 2 for Thumb code, 1 on i386, its rule's number times 4: the
// offset of its fast word, so that no target needs a shift to reach it), one byte each, or two
// where there are more than 64 rules.
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
  std::uint32_t fast;        // UnwindRule::Fast: the fast path's kind (fast_chain on i386, else fast_sp)
  std::int32_t ra_at;        // the fast rules' return address at CFA + ra_at: -4 or 4
  static constexpr std::uint32_t kMagic = 0x554e5733;  // "UNW3"
};
static_assert(sizeof(UnwindTableHeader) == 48, "rules follow the header 4-aligned");

// The fast path this target's walk has (the tool writes the table's by e_machine): a table of
// another kind is no table here (the host walks any).
#if defined(__i386__)
inline constexpr std::uint32_t kTargetFast = UnwindRule::fast_chain;
#elif defined(__arm__) || defined(__mips__) || defined(__powerpc__)
inline constexpr std::uint32_t kTargetFast = UnwindRule::fast_sp;
#else
inline constexpr std::uint32_t kTargetFast = ~0u;  // any
#endif

// The table as the walk reads it. An empty one (no slots) ends every walk at the pc.
struct UnwindTable {
  std::uint32_t text_start = 0, slots = 0, slot_shift = 0, count = 0, simple = 0, chain = 0, saves = 0, leaf = 0, outer = 0;
  std::uint32_t fast = UnwindRule::fast_none;
  std::int32_t ra_at = 0;
  const UnwindTableRule* rule = nullptr;
  const std::uint32_t* fast_words = nullptr;
  const std::uint8_t* map8 = nullptr;    // one of the two
  const std::uint16_t* map16 = nullptr;

  // The header's table, checked whole once here so that the walk need not check it per frame: an
  // empty table where it is not one (wrong magic or byte order, sizes that disagree, a rule number
  // beyond the rules, a base or an offset that could make a misaligned read: MIPS faults on one, a
  // rule numbered simple that is not, a fast word that is not its rule's). The map ends below
  // 2^32: a zero return address (the end of a stack) is never in it.
  static UnwindTable from(const void* blob) {
    UnwindTable t;
    const auto* h = static_cast<const UnwindTableHeader*>(blob);
    if (h == nullptr || h->magic != UnwindTableHeader::kMagic || h->rules == 0 || h->rules > 0x10000 ||
        h->simple > h->chain || h->chain > h->saves || h->saves > h->leaf || h->leaf > h->outer || h->outer > h->rules || h->slot_shift > 2 || (h->map_bytes != 1 && h->map_bytes != 2) ||
        (h->map_bytes == 1 && h->rules > 0x40) || h->rules > 0x4000 || h->slots > (std::uint32_t{1} << 28) ||
        (std::uint64_t{h->slots} << h->slot_shift) >= (std::uint64_t{1} << 32) - h->text_start ||  // the map wraps
        h->fast > UnwindRule::fast_chain || (h->fast != UnwindRule::fast_none && kTargetFast != ~0u && h->fast != kTargetFast) ||
        (h->ra_at != -4 && h->ra_at != 4))  // one word below or above the CFA: the walk's bound needs |ra_at| <= 4
      return t;
    const auto* r = reinterpret_cast<const UnwindTableRule*>(h + 1);
    const auto* fw = reinterpret_cast<const std::uint32_t*>(r + h->rules);
    bool fp_used = false;  // a rule with the CFA on FP (UnwindRule::fast_word)
    for (std::uint32_t i = 0; i < h->rules; ++i) fp_used = fp_used || r[i].cfa_base == UnwindRule::fp;
    for (std::uint32_t i = 0; i < h->rules; ++i) {
      const UnwindTableRule& x = r[i];
      if (x.cfa_base > UnwindRule::fp || x.offsets % 4 != 0 || (x.offsets >> 16) % 4 != 0 || x.fp_offset % 4 != 0 ||
          (x.rules & 15) > UnwindRule::ra_unknown || (x.rules >> 4) > UnwindRule::fp_unknown ||
          x.rule().order() != (i < h->simple ? 1 : i < h->chain ? 2 : i < h->saves ? 3 : i < h->leaf ? 4 : i < h->outer ? 5 : 6) ||
          fw[i] != x.rule().fast_word(h->fast, h->ra_at, fp_used))
        return t;
    }
    const void* map = fw + h->rules;
    for (std::uint32_t i = 0; i < h->slots; ++i) {
      const std::uint32_t v = h->map_bytes == 1 ? static_cast<const std::uint8_t*>(map)[i] : static_cast<const std::uint16_t*>(map)[i];
      if (v % 4 != 0 || v / 4 >= h->rules) return t;
    }
    t.text_start = h->text_start;
    t.slots = h->slots;
    t.slot_shift = h->slot_shift;
    t.count = h->rules;
    t.simple = h->simple;
    t.saves = h->saves;
    t.chain = h->chain;
    t.leaf = h->leaf;
    t.outer = h->outer;
    t.fast = h->fast;
    t.ra_at = h->ra_at;
    t.rule = r;
    t.fast_words = fw;
    if (h->map_bytes == 1) t.map8 = static_cast<const std::uint8_t*>(map);
    else t.map16 = static_cast<const std::uint16_t*>(map);
    return t;
  }

  // The rule at pc: none (base none) outside the map.
  UnwindRule find(std::uint32_t pc) const {
    const std::uint32_t slot = (pc - text_start) >> slot_shift;
    if (pc < text_start || slot >= slots) return UnwindRule{0, 0, 0, UnwindRule::none, UnwindRule::ra_unknown};
    return rule[(map8 != nullptr ? map8[slot] : map16[slot]) / 4].rule();
  }
};

namespace detail {

// The walk's state for the rules the fast path leaves to step_rule.
struct WalkState {
  std::uint32_t sp, fp, at;  // fp: kLostFp once lost; at: the return address found
  std::uint32_t here, lr;    // the frame's pc or return address, and the link register's value there
  std::uint32_t low, span;   // a read at a is in the stack when a - low <= span
};
enum StepResult { step_end, step_next, step_outermost };
// A lost frame pointer (unknown, or read misaligned): 4-aligned, and every read at it plus a
// 16-bit offset lies above any stack walk_table accepts (below 2^32 - 64 KiB), so the bounds
// check that every read has ends a walk that needs it.
inline constexpr std::uint32_t kLostFp = 0xffff8000u;

// One frame by any rule (a CFA on FP without the chain's saves, a return address in the link
// register, a frame pointer lost or restored alone, the outermost frame...): step_next with the
// caller's state in s, or the end of the walk. Out of the loop, so that its registers stay registers.
template <class Read>
[[gnu::noinline]] StepResult step_rule(const UnwindTableRule* rules, std::uint32_t n, Read read, WalkState& s) {
  const UnwindTableRule& e = rules[n];
  const std::uint32_t how = e.rules, low = s.low, span = s.span;
  if (s.fp % 4 != 0 || s.fp == 0) s.fp = kLostFp;  // 0: the board keeps none (StackContext)
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
  // it: a corrupt stack (and the fast path needs SP in [low, last + 32 KiB]).
  if (cfa - low > span + 0x8000) return step_end;
  s.sp = cfa;  // the CFA is the caller's stack pointer at the call (DWARF 4, 6.4.1)
  s.at = ra;
  return step_next;
}

// fast_chain (i386, and the host's tests): the memo's entries, 1 KiB (one word where the target's
// walk has no frame-record loop: ARM, MIPS, PowerPC).
inline constexpr std::uint32_t kChainMemo = kTargetFast == UnwindRule::fast_sp ? 1 : 256;

// Everything a walk needs, computed once (UnwindRing: when the table or the stack is set) rather
// than per sample. SP is kept relative to the stack's bottom (s = sp - low): then one unsigned
// compare both bounds a fast rule's read and sends every other rule (kFastNo) to step_rule.
struct WalkSetup {
  std::uint32_t start = 0, bytes = 0;  // text_start + 1 (the rule of `at - 1`), the map's bytes
  const void* map = nullptr;
  const std::uint32_t* fast = nullptr;
  const UnwindTableRule* rule = nullptr;
  std::uint32_t low = 0, span = 0;    // a read at a is in the stack when a - low <= span
  std::uint32_t sp_span = 0;          // span + 4: a sampled SP at sp - low <= sp_span is in the stack (or its top)
  std::uint32_t lowk = 0, spank = 0;  // fast_sp: the return address at lowk + s, s <= spank
  std::uint32_t chain_hi = 0;         // fast_chain: a frame record (two words) at fp <= chain_hi is in the stack
  std::uint32_t chain_n = ~0u;        // fast_chain: the map's value for the frame record's rule (fast word 0)
  std::uint32_t outer_n = ~0u;        // fast_chain: the map's values from here on are the outermost frame's rules
  // fast_chain: a memo of the map's answer for the return addresses whose rule is the frame
  // record's, by their low byte: memo[a % kChainMemo] == a only for such an a (filled by the loop
  // from the map, emptied by set(): it answers for one table). A hit costs a load and a compare
  // against the map's bounds, load and compare of the rule number.
  mutable std::uint32_t memo[kChainMemo];

  void clear_memo() {
    for (std::uint32_t i = 0; i < kChainMemo; ++i) memo[i] = i + 1;  // i + 1 is never at i: no answer
  }
  // False: no walk (no table, or a stack the walk cannot bound: fewer than two words, above
  // 2^32 - 64 KiB, 2 GiB or more).
  bool set(const UnwindTable& t, std::uintptr_t bottom, std::uintptr_t top) {
    clear_memo();  // the memo answers for one table
    bottom = (bottom + 3) & ~std::uintptr_t{3};  // every read 4-aligned
    if (bottom == 0) bottom = 4;  // no stack word at address 0: a zero FP is none (walk_body)
    if (top > std::uintptr_t{0xffff0000u}) top = std::uintptr_t{0xffff0000u};  // no sum below wraps
    if (t.slots == 0 || top < bottom || top - bottom < 8) return false;
    if (top - bottom > 0x7fff0000u) top = bottom + 0x7fff0000u;  // s + kFastNo never below 2^31
    start = t.text_start + 1;
    bytes = t.slots << t.slot_shift;
    map = t.map8 != nullptr ? static_cast<const void*>(t.map8) : static_cast<const void*>(t.map16);
    fast = t.fast_words;
    rule = t.rule;
    low = static_cast<std::uint32_t>(bottom);
    span = static_cast<std::uint32_t>(top - bottom) - 4;
    sp_span = span + 4;
    // A fast rule's return address is at SP + cfa_offset + ra_at >= SP (UnwindRule::simple()):
    // s + cfa_offset <= spank puts it at or below the last word.
    lowk = low + static_cast<std::uint32_t>(t.ra_at);
    spank = span - static_cast<std::uint32_t>(t.ra_at);
    chain_hi = low + ((span - 4) & ~3u);
    chain_n = ~0u;
    outer_n = 4 * t.outer;  // UnwindTable::from: rules outer .. count - 1 are UnwindRule::outer()
    for (std::uint32_t i = 0; i < t.count; ++i)
      if (t.fast == UnwindRule::fast_chain && t.fast_words[i] == 0) chain_n = 4 * i;  // rules are unique: one
    return true;
  }
};

// The fast word at byte offset n (the map's value).
inline std::uint32_t fast_at(const std::uint32_t* fast, std::uint32_t n) {
  return *reinterpret_cast<const std::uint32_t*>(reinterpret_cast<const unsigned char*>(fast) + n);
}

// Hides x's history from the compiler: the fast path updates SP in place and undoes the update on
// its exit, instead of keeping the old value in a second register and copying it (one instruction a
// frame).
template <class T>
inline void in_place(T& x) {
#if defined(__GNUC__)
  asm("" : "+r"(x));
#else
  (void)x;
#endif
}

// i386 has six registers for the walk's dozen values once EBP is the frame pointer (the PC
// examples keep one): the walk's own function, and the interrupt's function it is inlined into
// (UnwindRing::record), keep none (neither is a frame a walk climbs through: they run in the
// interrupt, above the sampled stack).
#if defined(__i386__) && defined(__GNUC__) && !defined(__clang__)
#define PMUKIT_WALK_REGISTERS __attribute__((optimize("omit-frame-pointer")))
#else
#define PMUKIT_WALK_REGISTERS
#endif

// The walk over a map of Slot-sized rule numbers with slots of 1 << Shift bytes, its fast path
// of kind Fast (one instance per map and kind the target's code can have: no choice per frame).
// One loop serves the sampled frame and its callers: the rule of `at - 1` applies (the pc + 1,
// then each return address: its call is at ra - 1). The fast path takes its rule's fast word,
// any other rule goes to step_rule. A zero return address (the end of the stack) is stored like
// any other, and dropped when the walk ends: it is outside the map (from()), so the lookup ends there.
//
// The loop from a state (p: the next return address's place, s: SP - low, at, fp). Rest false:
// the fast paths only, no call (its values stay in caller-saved registers, none saved one by one
// on entry and restored on exit): the first rule they leave hands the state to the Rest true
// instance (walk_rest), which takes it by step_rule and goes on.
template <class Slot, unsigned Shift, std::uint32_t Fast, bool Rest, std::size_t Depth, class Read>
[[gnu::always_inline]] inline void walk_from(const WalkSetup& w, const StackContext c, Read read, FrameSample<Depth>& out,
                                             std::uint32_t* p, std::uint32_t s, std::uint32_t at, std::uint32_t fp);

// The walk's end: p is past the last address found.
template <std::size_t Depth>
[[gnu::always_inline]] inline void walk_end(FrameSample<Depth>& out, std::uint32_t* p, bool complete) {
  if (p != out.pcs + 1 && p[-1] == 0) {  // a zero return address ends the stack (start-up code)
    --p;
    complete = true;
  }
  out.count = static_cast<std::uint32_t>(p - out.pcs);
  out.complete = complete;
}

template <class Slot, unsigned Shift, std::uint32_t Fast, std::size_t Depth, class Read>
[[gnu::noinline]] PMUKIT_WALK_REGISTERS void walk_rest(const WalkSetup& w, const StackContext c, Read read, FrameSample<Depth>& out,
                                                       std::uint32_t* p, std::uint32_t s, std::uint32_t at, std::uint32_t fp) {
  walk_from<Slot, Shift, Fast, true, Depth, Read>(w, c, read, out, p, s, at, fp);
}

template <class Slot, unsigned Shift, std::uint32_t Fast, bool Rest, std::size_t Depth, class Read>
[[gnu::always_inline]] inline void walk_from(const WalkSetup& w, const StackContext c, Read read, FrameSample<Depth>& out,
                                             std::uint32_t* p, std::uint32_t s, std::uint32_t at, std::uint32_t fp) {
  std::uint32_t* const end = out.pcs + Depth + 1;
  const Slot* const map = static_cast<const Slot*>(w.map);
  const std::uint32_t* const fast = w.fast;
  const std::uint32_t start = w.start, bytes = w.bytes, low = w.low;
  std::uint32_t n = 0;
  bool complete = false;
  for (;;) {
    std::uint32_t f;  // the rule's fast word
    if constexpr (Fast == UnwindRule::fast_sp) {
      // Both offsets below 32 KiB (simple()) and s in [0, span + 32 KiB] (step_rule): no sum
      // wraps, and the return address's address is at or above SP, at or below the last word.
      const std::uint32_t lowk = w.lowk, spank = w.spank;
      for (;;) {
        const std::uint32_t d = at - start;  // below the map: 2^32 - x, beyond its bytes
        if (d >= bytes) goto done;
        n = map[d >> Shift];
        f = fast_at(fast, n);
        s += f;
        if (s > spank) {  // another rule (bit 31), or a read beyond the stack
          in_place(s);  // undone from s, not kept as it was (one register, no copy a frame)
          s -= f;
          break;
        }
        at = read(lowk + s);
        *p++ = at;
        if (p == end) goto done;
      }
    } else if constexpr (Fast == UnwindRule::fast_chain) {
      // The frame records the loop takes: at or above SP (sp: the frame's, then fp + 8, the
      // caller's: a walk that climbs), at or below hi (both words in the stack), 4-aligned; any
      // other goes to step_rule to judge. Its rule is the map's (the memo's, where it answered).
      // i386 (the target of this path) has a register too few for the loop's values: the setup's
      // words are read where used, operands of the compares (the barrier: no copy of them hoisted
      // out of the loop and spilled to the stack before it).
      // The return addresses' places counted from the entry's end (k < 0): one add and its
      // flags end the entry. GCC's registers here are a close fit: the PC's figure (its example,
      // gated at 300) moved by 10 to 30 instructions a sample with the order of two statements
      // or a pointer for k; measure a change there.
      std::uint32_t sp = low + s;
      std::int32_t k = static_cast<std::int32_t>(p - end);
      for (;;) {
        pmu::compiler_barrier();
        if (at != w.memo[at % kChainMemo]) {
          const std::uint32_t d = at - w.start;
          if (d >= w.bytes) {
            p = end + k;
            goto done;
          }
          // The map's entry's address in the register d is in (no second register for the map).
          std::uintptr_t q = (d >> Shift) * sizeof(Slot);
          q += reinterpret_cast<std::uintptr_t>(w.map);
          in_place(q);
          n = *reinterpret_cast<const Slot*>(q);
          if (n != w.chain_n) {  // another rule
            if (n >= w.outer_n) {  // the outermost frame's (rules numbered last): as kFastOuter below
              out.count = static_cast<std::uint32_t>(Depth + 1 + k);  // p[-1] is in the map: not zero
              out.complete = true;
              return;
            }
            f = fast_at(fast, n);
            break;
          }
          std::uint32_t i = at;
          in_place(i);  // its place computed here, on the memo's miss only (no register kept for it)
          w.memo[i % kChainMemo] = at;
        }
        if (fp < sp || fp > w.chain_hi || fp % 4 != 0) {
          n = w.chain_n;
          f = 0;
          break;
        }
        at = read(fp + 4);
        sp = fp + 8;  // the CFA: the caller's SP
        fp = read(fp);
        end[k] = at;
        if (++k == 0) {
          p = end;
          goto done;
        }
      }
      p = end + k;
      s = sp - low;  // s as the frames taken left it
    } else {
      const std::uint32_t d = at - start;
      if (d >= bytes) goto done;
      n = map[d >> Shift];
      f = fast_at(fast, n);
    }
    if (f == UnwindRule::kFastOuter) {  // the outermost frame: CFA on SP, the return address undefined
      out.count = static_cast<std::uint32_t>(p - out.pcs);  // p[-1] is in the map: not zero (walk_end)
      out.complete = true;
      return;
    }
    if (Fast == UnwindRule::fast_chain && (f & 0xffff0000u) == UnwindRule::kFastSp && s + (f & 0xffff) <= w.spank) {
      // A simple rule in a frame-chain table: as the fast_sp path (the return address at or above SP).
      s += f & 0xffff;
      at = read(w.lowk + s);
    } else if constexpr (!Rest) {
      // The same rule again, by step_rule (walk_body: the sample's pc is its lr here, if needed).
      const std::uint32_t pc = out.pcs[0];
      walk_rest<Slot, Shift, Fast, Depth, Read>(w, StackContext{pc, pc, 0, 0}, read, out, p, s, at,
                                                Fast == UnwindRule::fast_sp ? out.count : fp);
      return;
    } else {
      WalkState st;  // field by field: no copy of a zeroed whole
      st.sp = low + s;
      st.fp = fp;
      st.here = st.lr = at;
      if (p == out.pcs + 1) {
        st.here = c.pc;
        st.lr = c.lr;
      }
      st.low = low;
      st.span = w.span;
      const StepResult r = step_rule(w.rule, n / 4, read, st);
      if (r != step_next) {
        complete = r == step_outermost;
        break;
      }
      s = st.sp - low;
      fp = st.fp;
      at = st.at;
    }
    *p++ = at;
    if (p == end) break;
  }
done:
  walk_end(out, p, complete);
}

// The walk from the sample: its checks, the sampled frame's rule (a leaf taken here; a rule that
// may need the link register goes to walk_rest with the whole sample: kFastNo, and on i386, which
// takes no leaf here, a leaf's), then the loop (walk_from). From there on no rule the loop hands
// to walk_rest needs the sample's lr: a leaf's left here is its pc (lr == pc, no progress), the
// others have the return address in the frame.
template <class Slot, unsigned Shift, std::uint32_t Fast, std::size_t Depth, class Read>
[[gnu::always_inline]] inline void walk_body(const WalkSetup& w, const StackContext c, Read read, FrameSample<Depth>& out) {
  std::uint32_t* p = out.pcs + 1;
  out.pcs[0] = c.pc;
  std::uint32_t s = c.sp - w.low, at = c.pc + 1, fp = c.fp;  // fp checked by step_rule, where used
  if (s % 4 != 0 || s > w.sp_span) {  // a sampled SP outside the stack: another stack, no walk
    out.count = 1;
    out.complete = false;
    return;
  }
  // fast_chain: a zero FP (the board keeps none, StackContext) fails the loop's compare with SP
  // (at or above low, which is not 0: WalkSetup::set), as a misaligned one does: step_rule loses it.
  if constexpr (Fast != UnwindRule::fast_none) {
    if (const std::uint32_t d = at - w.start; d < w.bytes) {
      const std::uint32_t f = fast_at(w.fast, static_cast<const Slot*>(w.map)[d >> Shift]);
      // The sampled frame in a leaf (the return address in lr, the CFA SP plus at most 32 KiB:
      // s stays in [0, span + 32 KiB]), before the loop; where both would stay (no progress),
      // the loop's step_rule ends the walk. i386 has no link register.
      if (Fast != UnwindRule::fast_chain && (f & 0xffff0000u) == UnwindRule::kFastLeaf &&
          (c.lr != c.pc || (f & 0xffff) != 0 || c.lr == 0)) {
        s += f & 0xffff;
        at = c.lr;
        *p++ = at;
        if (Depth == 1) {
          walk_end(out, p, false);
          return;
        }
      } else if (Fast == UnwindRule::fast_chain && f - UnwindRule::kFastSp <= 0xffff && s + (f - UnwindRule::kFastSp) <= w.spank) {
        // A frameless function sampled in a frame-chain table (i386's leaves): its step here, as
        // the loop's (walk_from), without the loop's second look at its rule.
        s += f - UnwindRule::kFastSp;
        at = read(w.lowk + s);
        *p++ = at;
        if (Depth == 1) {
          walk_end(out, p, false);
          return;
        }
      } else if (Fast == UnwindRule::fast_chain ? (f & 0xdfff0000u) == UnwindRule::kFastNo  // kFastNo or kFastLeaf
                                                  : f == UnwindRule::kFastNo) {
        walk_rest<Slot, Shift, Fast, Depth, Read>(w, c, read, out, p, s, at, fp);  // a rule that may need lr
        return;
      }
    }
    // fast_sp never changes fp: kept in the entry until the walk ends (walk_end), not in a register.
    if constexpr (Fast == UnwindRule::fast_sp) out.count = fp;
  }
  walk_from<Slot, Shift, Fast, Fast == UnwindRule::fast_none, Depth, Read>(w, c, read, out, p, s, at, fp);
}

template <class Slot, unsigned Shift, std::uint32_t Fast, std::size_t Depth, class Read>
[[gnu::noinline]] PMUKIT_WALK_REGISTERS void walk_map(const WalkSetup& w, const StackContext& c, Read read, FrameSample<Depth>& out) {
  walk_body<Slot, Shift, Fast, Depth, Read>(w, c, read, out);
}

// The walk for a table's map and fast path: one function per kind this target's code can have.
template <std::size_t Depth, class Read>
using WalkFn = void (*)(const WalkSetup&, const StackContext&, Read, FrameSample<Depth>&);

template <class Slot, std::size_t Depth, class Read>
WalkFn<Depth, Read> pick_fast(const UnwindTable& t) {
  constexpr auto none = UnwindRule::fast_none;
#if defined(__mips__) || defined(__powerpc__)
  if (t.slot_shift == 2) return t.fast == none ? walk_map<Slot, 2, none, Depth, Read> : walk_map<Slot, 2, UnwindRule::fast_sp, Depth, Read>;
#elif defined(__arm__)
  if (t.slot_shift == 2) return t.fast == none ? walk_map<Slot, 2, none, Depth, Read> : walk_map<Slot, 2, UnwindRule::fast_sp, Depth, Read>;
  if (t.slot_shift == 1) return t.fast == none ? walk_map<Slot, 1, none, Depth, Read> : walk_map<Slot, 1, UnwindRule::fast_sp, Depth, Read>;
#elif defined(__i386__)
  if (t.slot_shift == 0) return t.fast == none ? walk_map<Slot, 0, none, Depth, Read> : walk_map<Slot, 0, UnwindRule::fast_chain, Depth, Read>;
#else  // the host: a test walks any target's table
  constexpr auto sp = UnwindRule::fast_sp, chain = UnwindRule::fast_chain;
  switch (t.slot_shift * 4 + t.fast) {
    case 8: return walk_map<Slot, 2, none, Depth, Read>;
    case 9: return walk_map<Slot, 2, sp, Depth, Read>;
    case 10: return walk_map<Slot, 2, chain, Depth, Read>;
    case 4: return walk_map<Slot, 1, none, Depth, Read>;
    case 5: return walk_map<Slot, 1, sp, Depth, Read>;
    case 6: return walk_map<Slot, 1, chain, Depth, Read>;
    case 0: return walk_map<Slot, 0, none, Depth, Read>;
    case 1: return walk_map<Slot, 0, sp, Depth, Read>;
    case 2: return walk_map<Slot, 0, chain, Depth, Read>;
    default: break;
  }
#endif
  (void)t;
  return nullptr;
}

template <std::size_t Depth, class Read>
WalkFn<Depth, Read> pick_walk(const UnwindTable& t) {
  if (t.slots == 0) return nullptr;
  return t.map8 != nullptr ? pick_fast<std::uint8_t, Depth, Read>(t) : pick_fast<std::uint16_t, Depth, Read>(t);
}

// The target's memory, a word at a time.
struct TargetRead {
  std::uint32_t operator()(std::uint32_t a) const {
    return *reinterpret_cast<const volatile std::uint32_t*>(std::uintptr_t{a});
  }
};

}  // namespace detail

// The walk, on any memory reader (the target's memory, or a test's copy of a stack), set up once
// for a table and a stack (as UnwindRing sets up its own): its memo of the map's answers (i386's
// frame-record loop) lasts from walk to walk until set() again. out gets the pc, then return
// addresses; complete when it ended at the outermost frame (an undefined return address) or a
// zero return address. Every address read is 4-aligned (the stack pointer is checked once, a
// loaded frame pointer when used, the table's offsets by from()) and in [bottom, top).
template <std::size_t Depth, class Read>
class UnwindWalk {
 public:
  // False: no walk (no table, or a stack the walk cannot bound); every walk then ends at the pc.
  bool set(const UnwindTable& t, std::uintptr_t bottom, std::uintptr_t top) {
    walk_ = detail::pick_walk<Depth, Read>(t);
    if (!setup_.set(t, bottom, top)) walk_ = nullptr;
    return walk_ != nullptr;
  }
  void operator()(const StackContext& c, Read read, FrameSample<Depth>& out) const {
    out.pcs[0] = c.pc;
    out.count = 1;
    out.complete = false;
    if (walk_ != nullptr) walk_(setup_, c, read, out);
  }

 private:
  detail::WalkSetup setup_{};
  detail::WalkFn<Depth, Read> walk_ = nullptr;
};

// One walk, set up for it alone.
template <std::size_t Depth, class Read>
void walk_table(const UnwindTable& t, const StackContext& c, std::uintptr_t bottom, std::uintptr_t top, Read read,
                FrameSample<Depth>& out) {
  UnwindWalk<Depth, Read> w;
  w.set(t, bottom, top);
  w(c, read, out);
}

// Samples walked with the table into FrameSample entries: the same dump records as FrameRing's
// (FRAMES), so `pmukit report` needs no CFI and no stack copy for them.
template <std::size_t N, std::size_t Depth>
class UnwindRing : public CaptureRing<FrameSample<Depth>, N> {
  static_assert(Depth >= 1 && Depth <= 64, "1..64 return addresses per sample");

 public:
  static constexpr std::size_t kDepth = Depth;
  using Entry = FrameSample<Depth>;

  void set_table(const UnwindTable& t) {
    table_ = t;
    prepare();
  }
  void set_stack(std::uintptr_t bottom, std::uintptr_t top) {
    bottom_ = bottom;
    top_ = top;
    prepare();
  }
  // Interrupt side: the walk chosen and set up beforehand (prepare()), one call.
  PMUKIT_WALK_REGISTERS bool record(const StackContext& c) {
    std::uint32_t head;
    Entry* slot = this->claim(head);
    if (slot == nullptr) return false;
#if defined(__i386__)
    // The entry's address by one multiply (the compiler's shifts and adds for the constant are
    // eight instructions tuned for NetBurst, whose multiplier is slow; the walk's cost is counted
    // in instructions).
    std::uint32_t size = sizeof(Entry);
    detail::in_place(size);
    slot = reinterpret_cast<Entry*>(reinterpret_cast<char*>(this->entries()) + head % N * size);
#endif
    if (kInlineWalk && common_ != 0) {  // the target's usual table, walked in the interrupt's own frame
      detail::in_place(slot);  // one register for the entry, not its index and offset too
      detail::walk_body<std::uint8_t, kCommonShift, kTargetFast, Depth>(setup_, c, detail::TargetRead{}, *slot);
    } else if (walk_ != nullptr) {
      const StackContext copy = c;  // in memory on this path only
      walk_(setup_, copy, detail::TargetRead{}, *slot);
    } else {
      slot->pcs[0] = c.pc;
      slot->count = 1;
      slot->complete = false;
    }
    this->publish(head);
    return true;
  }
  // The ring as write_dump reads walked frames (FrameView, profiler/frame_walk.hpp).
  FrameView view() { return FrameView::of(*this); }

 private:
  void prepare() {
    walk_ = detail::pick_walk<Depth, detail::TargetRead>(table_);
    if (!setup_.set(table_, bottom_, top_)) walk_ = nullptr;
    common_ = 0u - (kTargetFast != ~0u && walk_ != nullptr && table_.map8 != nullptr && table_.slot_shift == kCommonShift &&
              table_.fast == kTargetFast);
  }
  // MIPS, PowerPC and i386 save fewer registers one by one with the walk in the interrupt's frame
  // (ARM saves them in one instruction either way, and its walk keeps more in registers apart).
#if defined(__i386__)
  static constexpr unsigned kCommonShift = 0;
#else
  static constexpr unsigned kCommonShift = 2;
#endif
#if defined(__mips__) || defined(__powerpc__) || defined(__i386__)
  static constexpr bool kInlineWalk = true;
#else
  static constexpr bool kInlineWalk = false;
#endif
  // Not 0: the table is the target's usual kind, a map of bytes, kCommonShift (a word, ~0: no
  // register kept as the constant 1 for the walk's verdict).
  std::uint32_t common_ = 0;
  UnwindTable table_{};
  detail::WalkSetup setup_{};
  detail::WalkFn<Depth, detail::TargetRead> walk_ = nullptr;
  std::uintptr_t bottom_ = 0, top_ = 0;
};

}  // namespace prof
