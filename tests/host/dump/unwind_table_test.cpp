// The on-target unwind table (profiler/unwind_table.hpp, written by tools/elf/unwind_table.hpp):
// its encoding, its lookup, and its walks against the host unwinder's (tools/elf/unwind.hpp: libdw,
// LLVM's rules for MIPS) on the test ELFs of every architecture, stack for stack.
#include <gtest/gtest.h>

#include <cstddef>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "elf/nm_listing.hpp"
#include "profiler/unwind_table.hpp"
#include "tools/elf/unwind.hpp"
#include "tools/elf/unwind_table.hpp"

namespace {

using prof::UnwindRule;
using pmukit::UnwindRow;

UnwindRow entry(std::uint32_t pc, std::uint8_t base, std::int16_t cfa, std::uint8_t ra, std::int16_t ra_off = 0,
                std::uint8_t fp = UnwindRule::fp_same, std::int16_t fp_off = 0) {
  UnwindRule e{};
  e.cfa_base = base;
  e.cfa_offset = cfa;
  e.ra_offset = ra_off;
  e.fp_offset = fp_off;
  e.rules = static_cast<std::uint8_t>(ra | fp << 4);
  return UnwindRow{pc, e};
}

bool same(const UnwindRule& a, const UnwindRule& b) {
  return a.cfa_base == b.cfa_base && a.cfa_offset == b.cfa_offset && a.ra_offset == b.ra_offset &&
         a.fp_offset == b.fp_offset && a.rules == b.rules;
}

pmukit::UnwindRules rules_of(std::vector<UnwindRow> v, std::uint32_t start, std::uint32_t end, unsigned machine = 0) {
  pmukit::UnwindRules r;
  r.machine = machine;
  r.text_start = start;
  r.text_end = end;
  v.push_back(entry(end, UnwindRule::none, 0, UnwindRule::ra_unknown));
  r.entries = std::move(v);
  return r;
}

// The map the walk reads (a rule number per code slot) gives every address the rule of the last
// row at or below it, and no rule outside the code; slots of 4, 2 or 1 bytes as the rows' addresses
// allow (ARM, MIPS and PowerPC; Thumb; i386).
TEST(UnwindTable, MapGivesEveryPcTheRuleOfTheLastRowAtOrBelowIt) {
  std::mt19937 rng(5);
  for (std::uint32_t step : {4u, 2u, 1u, 3u}) {  // 3: slots of 1 byte, 300 rules (a 2-byte map)
    std::vector<UnwindRow> v;
    std::uint32_t pc = 0x1000;
    for (int i = 0; i < 300; ++i, pc += step * (1 + rng() % 40))
      v.push_back(entry(pc, UnwindRule::sp, static_cast<std::int16_t>(4 * (step == 3 ? i : rng() % 20)), UnwindRule::ra_at_cfa, -4));
    const auto r = rules_of(v, 0x1000, pc);
    const auto blob = pmukit::encode_unwind_table(r, false);
    const prof::UnwindTable t = prof::UnwindTable::from(blob.data());
    ASSERT_NE(t.slots, 0u);
    EXPECT_EQ(t.slot_shift, step == 4 ? 2u : step == 2 ? 1u : 0u);
    EXPECT_EQ(t.map16 != nullptr, step == 3);
    for (std::uint32_t a = 0xff0; a < pc + 16; ++a) {
      const UnwindRow* want = nullptr;  // the last at or below a; the end marker beyond the code
      for (const UnwindRow& e : r.entries)
        if (e.pc <= a) want = &e;
      const UnwindRule& got = t.find(a);
      if (want == nullptr || want->rule.cfa_base == UnwindRule::none) {
        ASSERT_EQ(got.cfa_base, UnwindRule::none) << std::hex << a << " step " << step;
        continue;
      }
      ASSERT_TRUE(same(got, want->rule)) << std::hex << a << " step " << step;
    }
  }
}

// The same table with no fast path (every rule by the general one, step_rule): what the fast
// paths must agree with. Host byte order.
std::vector<std::uint8_t> without_fast_path(std::vector<std::uint8_t> blob) {
  prof::UnwindTableHeader h;
  std::memcpy(&h, blob.data(), sizeof h);
  h.fast = UnwindRule::fast_none;
  std::memcpy(blob.data(), &h, sizeof h);
  for (std::uint32_t i = 0; i < h.rules; ++i) {
    const std::uint32_t w = UnwindRule::kFastNo;
    std::memcpy(blob.data() + sizeof h + 8 * h.rules + 4 * i, &w, 4);
  }
  return blob;
}

// The fast word of the rule at pc.
std::uint32_t fast_word_of(const prof::UnwindTable& t, std::uint32_t pc) {
  for (std::uint32_t i = 0; i < t.count; ++i)
    if (same(t.rule[i].rule(), t.find(pc))) return t.fast_words[i];
  return ~0u;
}

// The fast path's word per rule (UnwindRule::fast_word): ARM and MIPS (the return address one
// word below the CFA: push {..., lr}, sw $ra at the frame's top), PowerPC (one word above: the LR
// save word of the caller's frame, PowerPC SVR4 ABI "The Stack Frame"), i386 (the frame record
// of push ebp / mov ebp, esp: CFA = EBP + 8, the return address at CFA - 4, the caller's EBP at
// CFA - 8: i386 psABI, "The Stack Frame"); the leaf, the outermost frame; the frame pointer's rule
// ignored only where no rule puts the CFA on it. A table whose fast word is not its rule's is none.
TEST(UnwindTable, FastWordIsTheRulesCfaOffsetOrItsPathAndATableThatLiesAboutItIsRefused_Dwarf4Section6_4) {
  const std::uint32_t no = UnwindRule::kFastNo;
  struct Want {
    std::uint32_t pc, word;
  };
  struct Case {
    unsigned machine;
    bool with_fp_cfa;  // a rule with the CFA on FP in the table
    std::vector<Want> want;
  };
  const std::vector<Case> cases = {
      {40, true, {{0x100, 16}, {0x110, no}, {0x120, no}, {0x130, no}, {0x140, UnwindRule::kFastLeaf | 8}, {0x150, UnwindRule::kFastOuter}, {0x160, no}}},
      {40, false, {{0x100, 16}, {0x110, no}, {0x130, 32}, {0x140, UnwindRule::kFastLeaf | 8}, {0x150, UnwindRule::kFastOuter}}},
      {20, false, {{0x100, no}, {0x110, 2048}, {0x130, no}, {0x140, UnwindRule::kFastLeaf | 8}}},
      {3, true, {{0x100, UnwindRule::kFastSp | 16}, {0x110, no}, {0x120, 0}, {0x130, no}, {0x150, UnwindRule::kFastOuter}, {0x160, no}}},
  };
  for (const Case& k : cases) {
    std::vector<UnwindRow> v = {entry(0x100, UnwindRule::sp, 16, UnwindRule::ra_at_cfa, -4),
                                entry(0x110, UnwindRule::sp, 2048, UnwindRule::ra_at_cfa, 4),
                                entry(0x130, UnwindRule::sp, 32, UnwindRule::ra_at_cfa, -4, UnwindRule::fp_at_cfa, -8),
                                entry(0x140, UnwindRule::sp, 8, UnwindRule::ra_in_lr),
                                entry(0x150, UnwindRule::sp, 0, UnwindRule::ra_undefined)};
    if (k.with_fp_cfa) {
      v.push_back(entry(0x120, UnwindRule::fp, 8, UnwindRule::ra_at_cfa, -4, UnwindRule::fp_at_cfa, -8));  // the frame record
      v.push_back(entry(0x160, UnwindRule::fp, 16, UnwindRule::ra_at_cfa, -4, UnwindRule::fp_at_cfa, -8));  // not the standard one
    }
    std::sort(v.begin(), v.end(), [](const UnwindRow& a, const UnwindRow& b) { return a.pc < b.pc; });
    const auto blob = pmukit::encode_unwind_table(rules_of(v, 0x100, 0x200, k.machine), false);
    const prof::UnwindTable t = prof::UnwindTable::from(blob.data());
    ASSERT_NE(t.slots, 0u) << k.machine;
    EXPECT_EQ(t.fast, k.machine == 3 ? UnwindRule::fast_chain : UnwindRule::fast_sp);
    EXPECT_EQ(t.ra_at, k.machine == 20 ? 4 : -4);
    for (const Want& w : k.want)
      EXPECT_EQ(fast_word_of(t, w.pc), w.word) << "machine " << k.machine << " fp cfa " << k.with_fp_cfa << std::hex << " pc 0x" << w.pc;
    for (std::uint32_t i = 0; i < t.count; ++i)
      for (const std::uint32_t lie : {t.fast_words[i] + 4, t.fast_words[i] - 4, 0u, no, UnwindRule::kFastOuter}) {
        if (lie == t.fast_words[i]) continue;
        auto bad = blob;
        std::memcpy(bad.data() + sizeof(prof::UnwindTableHeader) + 8 * t.count + 4 * i, &lie, 4);
        EXPECT_EQ(prof::UnwindTable::from(bad.data()).count, 0u) << "machine " << k.machine << " rule " << i << std::hex << " word 0x" << lie;
      }
  }
}

// The fast paths (CFA = SP + offset with the return address at CFA + ra_at; i386's frame record;
// the sampled leaf; i386's simple rules) walk every stack as the general rule does, on hostile
// tables and stacks too: the same return addresses, the same verdict, every read in the stack.
TEST(UnwindTable, FastPathsWalkAsTheGeneralRuleDoes_Dwarf4Section6_4) {
  std::mt19937 rng(17);
  const std::uint32_t bottom = 0x8000, top = 0x8400;
  for (const unsigned machine : {40u, 20u, 3u})
    for (int round = 0; round < 150; ++round) {
      std::vector<UnwindRow> v;
      const std::int16_t ra_at = machine == 20 ? 4 : -4;
      for (std::uint32_t pc = 0x1000; pc < 0x1400; pc += 4 * (1 + rng() % 8)) {
        const unsigned pick = rng() % 8;
        const auto off = static_cast<std::int16_t>(4 * (rng() % 64));
        if (pick < 3) v.push_back(entry(pc, UnwindRule::sp, static_cast<std::int16_t>(off + 4), UnwindRule::ra_at_cfa, ra_at));
        else if (pick == 3) v.push_back(entry(pc, UnwindRule::fp, 8, UnwindRule::ra_at_cfa, -4, UnwindRule::fp_at_cfa, -8));
        else if (pick == 4) v.push_back(entry(pc, UnwindRule::sp, off, UnwindRule::ra_in_lr));
        else if (pick == 5) v.push_back(entry(pc, UnwindRule::sp, 0, UnwindRule::ra_undefined));
        else if (pick == 6) v.push_back(entry(pc, UnwindRule::sp, static_cast<std::int16_t>(off + 8), UnwindRule::ra_at_cfa, ra_at, UnwindRule::fp_at_cfa, -8));
        else v.push_back(entry(pc, static_cast<std::uint8_t>(rng() % 3), static_cast<std::int16_t>(4 * (rng() % 512) - 1024),
                               static_cast<std::uint8_t>(rng() % 4), static_cast<std::int16_t>(4 * (rng() % 512) - 1024),
                               static_cast<std::uint8_t>(rng() % 3), static_cast<std::int16_t>(4 * (rng() % 16) - 32)));
      }
      const auto blob = pmukit::encode_unwind_table(rules_of(v, 0x1000, 0x1400, machine), false);
      const auto slow_blob = without_fast_path(blob);
      const prof::UnwindTable fast = prof::UnwindTable::from(blob.data()), slow = prof::UnwindTable::from(slow_blob.data());
      ASSERT_NE(fast.slots, 0u);
      ASSERT_NE(slow.slots, 0u);
      ASSERT_EQ(slow.fast, UnwindRule::fast_none);
      // The fast table's walk set up once for the round's 40 stacks: i386's memo of the map's
      // answers (the frame-record loop) carries from stack to stack.
      std::uint32_t stack[(top - bottom) / 4];
      const auto read = [&](std::uint32_t a) {
        EXPECT_TRUE(a >= bottom && a + 4 <= top && a % 4 == 0) << std::hex << a;
        return a >= bottom && a + 4 <= top ? stack[(a - bottom) / 4] : 0xdeadbeef;
      };
      prof::UnwindWalk<24, decltype(read)> fast_walk;
      ASSERT_TRUE(fast_walk.set(fast, bottom, top));
      for (int i = 0; i < 40; ++i) {
        for (std::uint32_t& w : stack) {
          const unsigned pick = rng() % 8;  // return addresses, frame pointers into the stack (some misaligned), zeros, noise
          w = pick < 4 ? 0x1000 + static_cast<std::uint32_t>(rng() % 0x400) + 1
              : pick < 6 ? bottom + static_cast<std::uint32_t>(rng() % (top - bottom + 64)) / (pick == 5 ? 1 : 4) * (pick == 5 ? 1 : 4)
              : pick == 6 ? 0 : static_cast<std::uint32_t>(rng());
        }
        const std::uint32_t sp = bottom + 4 * static_cast<std::uint32_t>(rng() % 200);
        const prof::StackContext c{0x1000 + static_cast<std::uint32_t>(rng() % 0x400), 0x1000 + static_cast<std::uint32_t>(rng() % 0x400), sp,
                                   rng() % 4 == 0 ? 0 : sp + 4 * static_cast<std::uint32_t>(rng() % 64)};
        prof::FrameSample<24> got{}, want{};
        fast_walk(c, read, got);
        prof::walk_table<24>(slow, c, bottom, top, read, want);
        ASSERT_EQ((std::vector<std::uint32_t>(got.pcs, got.pcs + got.count)), (std::vector<std::uint32_t>(want.pcs, want.pcs + want.count)))
            << "machine " << machine << " round " << round << std::hex << " pc 0x" << c.pc << " sp 0x" << c.sp << " fp 0x" << c.fp;
        ASSERT_EQ(got.complete, want.complete) << "machine " << machine << " round " << round;
      }
    }
}

// The fast paths hand a rule they do not take to the general step with the walk's state (it
// resumes in walk_rest): a sampled frame whose rule needs the link register (a leaf's on i386,
// where the frame-record path takes no leaf itself; any other rule's on ARM) goes there with the
// sample's own lr, a frame record below SP (the general step's to judge) with SP and FP as the walk
// has them: the same walk as the general rule's.
TEST(UnwindTable, ARuleTheFastPathLeavesResumesWithTheWalksStateAsTheGeneralRule_Dwarf4Section6_4) {
  const std::uint32_t bottom = 0x8000;
  std::uint32_t stack[64] = {};
  // A frame record at 0x8010: the caller's (none: 0) and a return address into main (0x1300).
  stack[4] = 0;
  stack[5] = 0x1301;
  const auto read = [&](std::uint32_t a) { return stack[(a - bottom) / 4]; };
  for (const unsigned machine : {3u, 40u}) {
    std::vector<UnwindRow> v{entry(0x1000, UnwindRule::fp, 8, UnwindRule::ra_at_cfa, -4, UnwindRule::fp_at_cfa, -8),
                             entry(0x1100, UnwindRule::sp, 0, UnwindRule::ra_in_lr),
                             entry(0x1200, UnwindRule::fp, 16, UnwindRule::ra_in_lr),  // no fast path takes it
                             entry(0x1300, UnwindRule::sp, 0, UnwindRule::ra_undefined)};
    const auto blob = pmukit::encode_unwind_table(rules_of(v, 0x1000, 0x1400, machine), false);
    const auto slow_blob = without_fast_path(blob);
    const prof::UnwindTable fast = prof::UnwindTable::from(blob.data()), slow = prof::UnwindTable::from(slow_blob.data());
    ASSERT_NE(fast.slots, 0u) << machine;
    ASSERT_NE(slow.slots, 0u) << machine;
    // pc in the leaf, lr into the frame-record function (or the other rule's), then main.
    for (const prof::StackContext c : {prof::StackContext{0x1104, 0x1011, bottom, bottom + 0x10},
                                       prof::StackContext{0x1204, 0x1011, bottom, bottom + 0x10},
                                       prof::StackContext{0x1014, 0x1111, bottom + 0x20, bottom + 0x10}}) {
      prof::FrameSample<16> got{}, want{};
      prof::walk_table<16>(fast, c, bottom, bottom + sizeof stack, read, got);
      prof::walk_table<16>(slow, c, bottom, bottom + sizeof stack, read, want);
      EXPECT_EQ((std::vector<std::uint32_t>(got.pcs, got.pcs + got.count)), (std::vector<std::uint32_t>(want.pcs, want.pcs + want.count)))
          << "machine " << machine << std::hex << " pc 0x" << c.pc;
      EXPECT_EQ(got.complete, want.complete) << "machine " << machine << std::hex << " pc 0x" << c.pc;
      EXPECT_GE(got.count, 2u) << "machine " << machine << std::hex << " pc 0x" << c.pc;
    }
  }
}

// i386's frame-record loop keeps a memo of the map's answer (the return addresses whose rule is
// the frame record's, DWARF 4, 6.4.1: CFA = EBP + 8, the return address at CFA - 4, the caller's
// EBP at CFA - 8): it answers for the table it was filled from only. The same stack walked again
// after the walk is set for a table where that return address has no rule ends there.
TEST(UnwindTable, FrameRecordMemoAnswersOnlyForTheTableItWasFilledFrom_Dwarf4Section6_4_1) {
  const std::uint32_t bottom = 0x8000;
  std::uint32_t stack[64] = {};
  stack[4] = bottom + 0x40;  // the frame record at 0x8010: the caller's EBP, then a return address
  stack[5] = 0x1101;
  stack[16] = 0;  // the caller's record at 0x8040: no caller's EBP, a return address into _start
  stack[17] = 0x1301;
  const auto read = [&](std::uint32_t a) { return stack[(a - bottom) / 4]; };
  const auto chain = [](std::uint32_t pc) { return entry(pc, UnwindRule::fp, 8, UnwindRule::ra_at_cfa, -4, UnwindRule::fp_at_cfa, -8); };
  const auto start = entry(0x1300, UnwindRule::sp, 0, UnwindRule::ra_undefined);
  const auto with = pmukit::encode_unwind_table(rules_of({chain(0x1000), start}, 0x1000, 0x1400, 3), false);
  const auto gap = pmukit::encode_unwind_table(
      rules_of({chain(0x1000), entry(0x1100, UnwindRule::none, 0, UnwindRule::ra_unknown), chain(0x1200), start}, 0x1000, 0x1400, 3), false);
  const prof::UnwindTable a = prof::UnwindTable::from(with.data()), b = prof::UnwindTable::from(gap.data());
  ASSERT_EQ(a.fast, UnwindRule::fast_chain);
  ASSERT_EQ(b.fast, UnwindRule::fast_chain);
  const prof::StackContext c{0x1010, 0, bottom, bottom + 0x10};
  prof::UnwindWalk<16, decltype(read)> walk;
  prof::FrameSample<16> out{};
  ASSERT_TRUE(walk.set(a, bottom, bottom + sizeof stack));
  for (int i = 0; i < 2; ++i) {  // the second walk's answers from the memo
    walk(c, read, out);
    EXPECT_EQ((std::vector<std::uint32_t>(out.pcs, out.pcs + out.count)), (std::vector<std::uint32_t>{0x1010, 0x1101, 0x1301}));
    EXPECT_TRUE(out.complete);
  }
  ASSERT_TRUE(walk.set(b, bottom, bottom + sizeof stack));
  walk(c, read, out);
  EXPECT_EQ((std::vector<std::uint32_t>(out.pcs, out.pcs + out.count)), (std::vector<std::uint32_t>{0x1010, 0x1101}));
  EXPECT_FALSE(out.complete);
}

// Code far from the rest (ARM's vectors at 0, the image at 0xa0008000): the map covers the larger
// cluster only, and stays small; the far code has no rule (its walks end there).
TEST(UnwindTable, CodeFarFromTheRestIsLeftOutOfTheMap) {
  pmukit::UnwindRules r;
  r.text_start = 0xa0008000;
  r.text_end = 0xa0009000;
  r.entries = {entry(0x0, UnwindRule::sp, 0, UnwindRule::ra_in_lr), entry(0x40, UnwindRule::none, 0, UnwindRule::ra_unknown),
               entry(0xa0008000, UnwindRule::sp, 8, UnwindRule::ra_at_cfa, -4),
               entry(0xa0008100, UnwindRule::sp, 16, UnwindRule::ra_at_cfa, -4),
               entry(0xa0009000, UnwindRule::none, 0, UnwindRule::ra_unknown)};
  const auto blob = pmukit::encode_unwind_table(r, false);
  EXPECT_LE(blob.size(), 0x1000u / 4 + sizeof(prof::UnwindTableHeader) + 3 * (sizeof(prof::UnwindTableRule) + 4));
  const prof::UnwindTable t = prof::UnwindTable::from(blob.data());
  ASSERT_EQ(t.count, 3u);
  EXPECT_EQ(t.find(0x20).cfa_base, UnwindRule::none);
  EXPECT_EQ(t.find(0x90000000).cfa_base, UnwindRule::none);
  EXPECT_EQ(t.find(0xa0008104).cfa_offset, 16);
  EXPECT_EQ(t.find(0xa0008000).cfa_offset, 8);
  EXPECT_EQ(t.find(0xa0009000).cfa_base, UnwindRule::none);
  EXPECT_EQ(t.find(0xb0000000).cfa_base, UnwindRule::none);
}

// The blob in the target's byte order: a big-endian target's table is no table to a little-endian
// reader, and a blob that is not a table (the first link's placeholder among them) gives an empty one.
TEST(UnwindTable, BlobIsInTheTargetsByteOrderAndAForeignOneIsEmpty) {
  const auto r = rules_of({entry(0x100, UnwindRule::sp, 8, UnwindRule::ra_at_cfa, -4)}, 0x100, 0x200);
  const auto big = pmukit::encode_unwind_table(r, true);
  const auto little = pmukit::encode_unwind_table(r, false);
  ASSERT_EQ(big.size(), little.size());
  EXPECT_EQ((std::vector<std::uint8_t>(big.begin(), big.begin() + 4)), (std::vector<std::uint8_t>{0x55, 0x4e, 0x57, 0x33}));
  EXPECT_EQ(prof::UnwindTable::from(big.data()).count, 0u);  // wrong byte order: not a table here
  EXPECT_EQ(prof::UnwindTable::from(little.data()).count, 2u);
  std::vector<std::uint8_t> bad = little;
  bad[sizeof(prof::UnwindTableHeader) + 2 * 8 + 2 * 4] = 8;  // the first slot names a rule beyond the rules
  EXPECT_EQ(prof::UnwindTable::from(bad.data()).count, 0u);
  // Checked once, not per frame: an offset that would make a misaligned read (a fault on MIPS),
  // a base the walk does not know: no table.
  for (int k = 0; k < 2; ++k) {
    auto r2 = r;
    if (k == 0) r2.entries[0].rule.ra_offset = -2;
    if (k == 1) r2.entries[0].rule.cfa_base = 7;
    EXPECT_EQ(prof::UnwindTable::from(pmukit::encode_unwind_table(r2, false).data()).count, 0u) << k;
  }
  const std::uint32_t zero = 0;
  EXPECT_EQ(prof::UnwindTable::from(&zero).count, 0u);  // the first link's placeholder
  // A fast path's return address other than one word from the CFA: the walk's one compare bounds
  // its reads only for those (WalkSetup::spank), even in a table whose words do not depend on it
  // (leaves only).
  const auto leaves = pmukit::encode_unwind_table(rules_of({entry(0x100, UnwindRule::sp, 8, UnwindRule::ra_in_lr)}, 0x100, 0x200), false);
  ASSERT_EQ(prof::UnwindTable::from(leaves.data()).count, 2u);
  for (const std::int32_t ra_at : {0, 8, 0x7ffc, -8}) {
    auto bad = leaves;
    std::memcpy(bad.data() + offsetof(prof::UnwindTableHeader, ra_at), &ra_at, 4);
    EXPECT_EQ(prof::UnwindTable::from(bad.data()).count, 0u) << ra_at;
  }
}

// The walk picks a rule's path by its number alone (one compare each): the tool sorts the rules,
// CFA = SP + offset with the return address saved and the frame pointer kept first (the common
// rule), then the frame chain's, the common rule with the frame pointer saved, the leaves', the others
// ("no rule" among them), the outermost frame's; and a table that numbers a rule among others it is not like is no table.
TEST(UnwindTable, RulesAreSortedByTheWalksPathAndATableThatLiesAboutThemIsRefused) {
  const auto r = rules_of({entry(0x100, UnwindRule::fp, 8, UnwindRule::ra_at_cfa, -4),
                           entry(0x110, UnwindRule::sp, 16, UnwindRule::ra_at_cfa, -4),
                           entry(0x120, UnwindRule::sp, 16, UnwindRule::ra_at_cfa, -4, UnwindRule::fp_at_cfa, -8),
                           entry(0x130, UnwindRule::sp, 0, UnwindRule::ra_in_lr),
                           entry(0x140, UnwindRule::sp, 2048, UnwindRule::ra_at_cfa, -4),
                           entry(0x150, UnwindRule::fp, 8, UnwindRule::ra_at_cfa, -4, UnwindRule::fp_at_cfa, -8),
                           entry(0x160, UnwindRule::sp, 0, UnwindRule::ra_undefined)},
                          0x100, 0x200);
  auto blob = pmukit::encode_unwind_table(r, false);
  const prof::UnwindTable t = prof::UnwindTable::from(blob.data());
  ASSERT_EQ(t.count, 8u);  // and "no rule"
  EXPECT_EQ(t.simple, 2u);
  EXPECT_EQ(t.chain, 3u);
  EXPECT_EQ(t.saves, 4u);
  EXPECT_EQ(t.leaf, 5u);
  EXPECT_EQ(t.outer, 7u);
  for (std::uint32_t i = 0; i < t.count; ++i) {
    const UnwindRule x = t.rule[i].rule();
    EXPECT_EQ(x.order(), i < 2 ? 1 : i < 3 ? 2 : i < 4 ? 3 : i < 5 ? 4 : i < 7 ? 5 : 6) << i;
  }
  for (const UnwindRow& e : r.entries) {
    if (e.rule.cfa_base == UnwindRule::none) continue;
    EXPECT_TRUE(same(t.find(e.pc), e.rule)) << std::hex << e.pc;
  }
  EXPECT_EQ(t.find(0x200).cfa_base, UnwindRule::none);
  for (std::size_t field : {offsetof(prof::UnwindTableHeader, simple), offsetof(prof::UnwindTableHeader, saves),
                            offsetof(prof::UnwindTableHeader, chain),
                            offsetof(prof::UnwindTableHeader, leaf), offsetof(prof::UnwindTableHeader, outer)}) {
    for (int d : {-1, 1}) {
      auto bad = blob;
      bad[field] = static_cast<std::uint8_t>(bad[field] + d);  // one rule moved to a neighbouring path
      EXPECT_EQ(prof::UnwindTable::from(bad.data()).count, 0u) << field << " " << d;
    }
  }
}

// "No rule" (a gap between functions) ends the walk even where its number falls among the others:
// the common rule's path never takes it.
TEST(UnwindTable, NoRuleEndsTheWalk) {
  const auto r = rules_of({entry(0x100, UnwindRule::sp, 16, UnwindRule::ra_at_cfa, -4),
                           entry(0x140, UnwindRule::none, 0, UnwindRule::ra_unknown),
                           entry(0x180, UnwindRule::sp, 16, UnwindRule::ra_at_cfa, -4)},
                          0x100, 0x200);
  const auto blob = pmukit::encode_unwind_table(r, false);
  const prof::UnwindTable t = prof::UnwindTable::from(blob.data());
  ASSERT_NE(t.slots, 0u);
  std::uint32_t stack[64] = {};
  stack[3] = 0x184;  // pc 0x100's caller: in code with a rule
  stack[7] = 0x144;  // its caller: in the gap
  stack[11] = 0x104;
  const std::uint32_t bottom = 0x8000;
  prof::FrameSample<16> out{};
  prof::walk_table<16>(t, prof::StackContext{0x100, 0, bottom, 0}, bottom, bottom + sizeof stack,
                       [&](std::uint32_t a) { return stack[(a - bottom) / 4]; }, out);
  EXPECT_EQ((std::vector<std::uint32_t>(out.pcs, out.pcs + out.count)), (std::vector<std::uint32_t>{0x100, 0x184, 0x144}));
  EXPECT_FALSE(out.complete);
}

// A table and a stack that lie (random entries, random words) never make the walk read outside
// [bottom, top) or misaligned, and it ends within its depth.
TEST(UnwindTable, HostileTableAndStackNeverReadOutsideTheStack) {
  std::mt19937 rng(9);
  for (int round = 0; round < 200; ++round) {
    std::vector<UnwindRow> v;
    for (std::uint32_t pc = 0x1000; pc < 0x1400; pc += 4 * (1 + rng() % 8))
      v.push_back(entry(pc, static_cast<std::uint8_t>(rng() % 3), static_cast<std::int16_t>(4 * (rng() % 4096) - 8192),
                        static_cast<std::uint8_t>(rng() % 4), static_cast<std::int16_t>(4 * (rng() % 4096) - 8192),
                        static_cast<std::uint8_t>(rng() % 3), static_cast<std::int16_t>(4 * (rng() % 16) - 32)));
    const auto blob = pmukit::encode_unwind_table(rules_of(v, 0x1000, 0x1400), false);
    const prof::UnwindTable t = prof::UnwindTable::from(blob.data());
    ASSERT_NE(t.slots, 0u);
    const std::uint32_t bottom = 0x8000, top = 0x8200;
    for (int i = 0; i < 50; ++i) {
      prof::FrameSample<16> out{};
      const prof::StackContext c{0x1000 + static_cast<std::uint32_t>(rng() % 0x400), static_cast<std::uint32_t>(0x1000 + rng() % 0x400),
                                 bottom + 4 * static_cast<std::uint32_t>(rng() % 130), static_cast<std::uint32_t>(rng())};
      prof::walk_table<16>(t, c, bottom, top,
                           [&](std::uint32_t a) {
                             EXPECT_TRUE(a >= bottom && a + 4 <= top && a % 4 == 0) << std::hex << a;
                             return a % 3 ? 0x1000 + static_cast<std::uint32_t>(rng() % 0x400) : static_cast<std::uint32_t>(rng());
                           },
                           out);
      ASSERT_GE(out.count, 1u);
      ASSERT_LE(out.count, 17u);
    }
  }
}

const std::string kElfDir = PMUKIT_TEST_ELF_DIR;

class UnwindTableTarget : public ::testing::TestWithParam<std::string> {
 protected:
  std::string elf() const { return kElfDir + "/" + GetParam() + ".elf"; }
  void SetUp() override {
    if (!std::ifstream(elf()).good()) GTEST_SKIP() << "no cross compiler for " << GetParam();
  }
};

// DWARF 4, section 6.4 (Call Frame Information): the table the tool derives from the ELF's own CFI
// walks every stack as the host unwinder walks it from the same CFI: the same return addresses and
// the same verdict (complete at an undefined return address or a zero one, incomplete otherwise).
// The stacks: random words among return addresses into every function of the test ELF, the pc at
// every CFI row of every function (prologue, body, epilogues after DW_CFA_restore_state).
TEST_P(UnwindTableTarget, WalksEveryStackAsTheHostUnwinderDoes_Dwarf4Section6_4) {
  const pmukit::UnwindRules r = pmukit::unwind_rules(elf());
  ASSERT_EQ(r.error, "");
  ASSERT_GT(r.entries.size(), 4u);
  // PowerPC's prologue copies LR to r0 (mflr) a row before saving it: the return address is in a
  // register no sample carries, and both walks stop there.
  EXPECT_EQ(r.unsupported, GetParam() == "ppc" ? 1u : 0u) << "the test ELF's CFI has rules the walk cannot follow";
  const auto blob = pmukit::encode_unwind_table(r, false);  // the host's byte order: read here
  const prof::UnwindTable t = prof::UnwindTable::from(blob.data());
  ASSERT_NE(t.slots, 0u);
  const bool big = r.big_endian;
  const unsigned step = GetParam().rfind("i386", 0) == 0 ? 1 : 4;
  // The fast path is there to take (UnwindRule::fast_word): its common rule has a word below 2^31
  // (i386 without a frame pointer: its simple rules, kFastSp). The general rule's walks (the same
  // table with no fast path) must agree with it below.
  EXPECT_TRUE(std::any_of(t.fast_words, t.fast_words + t.count, [](std::uint32_t w) {
    return w < UnwindRule::kFastNo || (w & 0xffff0000u) == UnwindRule::kFastSp;
  }));
  const auto slow_blob = without_fast_path(blob);
  const prof::UnwindTable slow = prof::UnwindTable::from(slow_blob.data());
  ASSERT_NE(slow.slots, 0u);
  std::vector<std::uint32_t> code;  // addresses inside functions: a return address's candidates
  for (std::size_t i = 0; i + 1 < r.entries.size(); ++i)
    if (r.entries[i].rule.cfa_base != UnwindRule::none)
      for (std::uint32_t a = r.entries[i].pc; a < r.entries[i + 1].pc; a += step) code.push_back(a);
  ASSERT_FALSE(code.empty());
  const pmukit::Unwinder u(elf());
  std::mt19937 rng(21);
  unsigned deep = 0, complete = 0, walks = 0;
  for (int round = 0; round < 40; ++round)
    for (const std::uint32_t pc : code) {
      pmukit::StackSampleRecord s;
      s.pc = pc;
      s.lr = code[rng() % code.size()] + step;
      // The sampled frame's return address rule undefined: the host unwinder takes lr (libdw says
      // "undefined" where a leaf has no rule for it, and cannot tell DW_CFA_undefined apart); the
      // table keeps DWARF's meaning, the outermost frame (every board's _start). No lr: both agree.
      if ((t.find(pc).rules & 15) == UnwindRule::ra_undefined) s.lr = 0;
      s.sp = 0x10000 + 8 * (rng() % 16);
      s.fp = s.sp + 4 * (rng() % 64);
      s.stack.resize(256 + 4 * (rng() % 64));
      for (std::size_t k = 0; k + 4 <= s.stack.size(); k += 4) {
        const unsigned pick = rng() % 8;
        const std::uint32_t w = pick < 5 ? code[rng() % code.size()] + step : pick == 5 ? 0 : s.sp + 4 * (rng() % 96);
        for (unsigned j = 0; j < 4; ++j) s.stack[k + j] = static_cast<std::uint8_t>(w >> (8 * (big ? 3 - j : j)));
      }
      const pmukit::UnwoundStack want = u.unwind(s, big ? pmukit::ByteOrder::big : pmukit::ByteOrder::little, 4);
      constexpr std::size_t kDepth = pmukit::Unwinder::kMaxFrames - 2;
      prof::FrameSample<kDepth> got{};
      const std::uint32_t bottom = static_cast<std::uint32_t>(s.sp);
      prof::walk_table<kDepth>(
          t, prof::StackContext{pc, static_cast<std::uint32_t>(s.lr), bottom, static_cast<std::uint32_t>(s.fp)}, bottom,
          bottom + static_cast<std::uint32_t>(s.stack.size()),
          [&](std::uint32_t a) {
            std::uint32_t v = 0;
            for (unsigned j = 0; j < 4; ++j) v |= std::uint32_t{s.stack[a - bottom + j]} << (8 * (big ? 3 - j : j));
            return v;
          },
          got);
      const std::vector<std::uint64_t> pcs(got.pcs, got.pcs + got.count);
      ++walks;
      prof::FrameSample<kDepth> general{};
      prof::walk_table<kDepth>(
          slow, prof::StackContext{pc, static_cast<std::uint32_t>(s.lr), bottom, static_cast<std::uint32_t>(s.fp)}, bottom,
          bottom + static_cast<std::uint32_t>(s.stack.size()),
          [&](std::uint32_t a) {
            std::uint32_t v = 0;
            for (unsigned j = 0; j < 4; ++j) v |= std::uint32_t{s.stack[a - bottom + j]} << (8 * (big ? 3 - j : j));
            return v;
          },
          general);
      ASSERT_EQ(pcs, (std::vector<std::uint64_t>(general.pcs, general.pcs + general.count))) << std::hex << "pc 0x" << pc << ": the fast path";
      if (want.pcs.size() >= pmukit::Unwinder::kMaxFrames - 1) continue;  // cut by the host's depth
      ASSERT_EQ(pcs, want.pcs) << std::hex << "pc 0x" << pc << " lr 0x" << s.lr << "; host: " << want.stopped;
      ASSERT_EQ(got.complete, want.stopped.empty()) << std::hex << "pc 0x" << pc << "; host: " << want.stopped;
      deep += pcs.size() >= 4;
      complete += got.complete;
    }
  EXPECT_GT(deep, walks / 100) << "few walks went deep: the stacks test little";
  EXPECT_GT(complete, 0u);
  std::printf("%s: %u walks, %u of 4 frames or more, %u complete\n", GetParam().c_str(), walks, deep, complete);
}

INSTANTIATE_TEST_SUITE_P(Targets, UnwindTableTarget, ::testing::Values("arm", "mips", "ppc", "i386", "i386fp"),
                         [](const auto& info) { return info.param; });

}  // namespace
