// Sample aggregation: which function and caller each sample counts for.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>

#include "fixtures.hpp"
#include "tools/dumpread/binary_decoder.hpp"
#include "tools/events/events_listing.hpp"
#include "tools/report/profile.hpp"
#include "tools/report/text_util.hpp"

namespace {

namespace pd = pmu::dump;

pmukit::Profile fixture_profile(const pmukit::SymbolTable& symbols) {
  const dumptest::Bytes b = dumptest::profile_dump(pd::ByteOrder::little);
  return pmukit::build_profile(pmukit::decode_dump(b.data(), b.size()), symbols);
}

std::uint64_t self_of(const pmukit::Profile& p, const std::string& name) {
  for (const auto& f : p.functions)
    if (f.name == name) return f.self;
  return 0;
}

TEST(Symbols, LookupsAndZeroSizeSymbols) {
  const pmukit::SymbolTable t = dumptest::synthetic_symbols();
  EXPECT_FALSE(t.function_at(0xFFF).has_value());
  EXPECT_EQ(t.function(*t.function_at(0x1000)).name, "main");
  EXPECT_EQ(t.function(*t.function_at(0x10FF)).name, "main");
  EXPECT_FALSE(t.function_at(0x1100).has_value());
  EXPECT_EQ(t.function(*t.function_at(0x4000)).name, "crc32");  // not the alias
  EXPECT_EQ(t.function(*t.function_at(0x5000)).name, "vectors");
  EXPECT_FALSE(t.function_at(0x5001).has_value());
  const pmukit::SourceLine& l = t.line(*t.line_at(0x4024));
  EXPECT_EQ(t.file(l.file), "lib/crc_table.h");
  EXPECT_EQ(l.line, 3u);
  EXPECT_FALSE(t.line_at(0x4040).has_value());
}

// line_at(pc, hint) is line_at(pc) from any hint: ranges with gaps, equal starts and one inside
// another, addresses in rising, falling and random order, each hint where the last one left it
// and also from an arbitrary one.
TEST(Symbols, LineLookupFromAHintFindsWhatTheFullSearchFinds) {
  pmukit::SymbolTable t;
  std::mt19937_64 rng(5);
  for (unsigned i = 0; i < 500; ++i) {
    const std::uint64_t lo = 0x1000 + 4 * (rng() % 4000);
    t.add_line(lo, lo + 4 * (1 + rng() % 8), "f" + std::to_string(i % 7) + ".c", 1 + i);
  }
  t.finalize();
  std::vector<std::uint64_t> pcs;
  for (std::uint64_t pc = 0xF00; pc < 0x5000; pc += 2) pcs.push_back(pc);
  std::vector<std::uint64_t> order = pcs;
  std::reverse(order.begin(), order.end());
  pcs.insert(pcs.end(), order.begin(), order.end());
  for (unsigned i = 0; i < 4000; ++i) pcs.push_back(0xF00 + rng() % 0x4200);
  std::size_t hint = 0;
  for (const std::uint64_t pc : pcs) {
    const auto full = t.line_at(pc);
    EXPECT_EQ(t.line_at(pc, hint), full) << std::hex << pc;
    std::size_t any = rng() % (t.line_range_count() + 2);
    EXPECT_EQ(t.line_at(pc, any), full) << std::hex << pc;
  }
}

TEST(Profile, SelfSamplesPerFunction) {
  const pmukit::SymbolTable symbols = dumptest::synthetic_symbols();
  const pmukit::Profile p = fixture_profile(symbols);
  EXPECT_EQ(p.total, 16u);
  EXPECT_EQ(self_of(p, "memcpy"), 7u);
  EXPECT_EQ(self_of(p, "dma_copy"), 4u);
  EXPECT_EQ(self_of(p, "crc32"), 3u);
  EXPECT_EQ(self_of(p, "main"), 1u);
  EXPECT_EQ(self_of(p, "[unknown]"), 1u);
  EXPECT_EQ(p.functions[p.by_self().front()].name, "memcpy");
}

TEST(Profile, LrFrameOnlyWhereItCanBeTheCaller) {
  const pmukit::SymbolTable symbols = dumptest::synthetic_symbols();
  std::map<std::string, std::uint64_t> stacks;
  for (const auto& s : fixture_profile(symbols).folded()) {
    std::string key;
    for (const auto& f : s.frames) key += (key.empty() ? "" : ";") + f;
    stacks[key] = s.count;
  }
  const std::map<std::string, std::uint64_t> expect = {
      {"dma_copy;memcpy", 5}, {"main;memcpy", 2}, {"dma_copy", 3}, {"main;dma_copy", 1},
      {"crc32", 2},           {"dma_copy;crc32", 1}, {"main;[unknown]", 1}, {"main", 1}};
  EXPECT_EQ(stacks, expect);
}

TEST(Profile, WithoutSymbolsEveryAddressIsAnEntry) {
  const pmukit::SymbolTable none;
  const pmukit::Profile p = fixture_profile(none);
  EXPECT_EQ(self_of(p, "0x00002010"), 5u);
  EXPECT_EQ(p.folded().size(), p.functions.size());  // no LR frames without symbols
}

// Issue 31: std::hash of an integer is the integer, so pcs that were multiples of a map's bucket
// count all shared one bucket (a crafted 4 MB dump took 56 s to profile). The per-pc costs are a
// sorted array now (issue 39: no hashing per distinct pc), found by binary search whatever the
// addresses: crafted strides are found like any others, and a histogram bin at a sampled pc adds
// to that pc's entry.
TEST(Profile, CraftedAddressesAreFoundInTheSortedPcCosts) {
  const std::uint64_t n = 20000;
  const pmukit::SymbolTable none;
  pmukit::Dump d;
  d.target.address_bytes = 8;
  d.sample_records = n;
  for (std::uint64_t i = 1; i <= n; ++i) d.sample_counts.push_back({i << 20, 0, 1});
  d.histogram.push_back({std::uint64_t{7} << 20, 5});
  d.histogram.push_back({3, 2});
  const pmukit::Profile p = pmukit::build_profile(d, none);
  ASSERT_EQ(p.pc_self.size(), n + 1);
  EXPECT_TRUE(std::is_sorted(p.pc_self.begin(), p.pc_self.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; }));
  for (std::uint64_t i = 1; i <= n; ++i) {
    const auto it = p.pc_self.find(i << 20);
    ASSERT_NE(it, p.pc_self.end()) << i;
    EXPECT_EQ(it->second.count, i == 7 ? 6u : 1u) << i;
  }
  EXPECT_EQ(p.pc_self.find(3)->second.count, 2u);
  EXPECT_EQ(p.pc_self.find(4), p.pc_self.end());
}

TEST(TextUtil, DecimalRatiosWithoutFloatingPoint) {
  EXPECT_EQ(pmukit::fixed_ratio(123456, 100, 1), "1234.6");
  EXPECT_EQ(pmukit::fixed_ratio(1, 8, 2), "0.13");  // 0.125: half up
  EXPECT_EQ(pmukit::fixed_ratio(19999, 2000, 2), "10.00");  // 9.9995: carries
  EXPECT_EQ(pmukit::fixed_ratio(5, 0, 2), "0.00");
  EXPECT_EQ(pmukit::fixed_ratio(7, 1, 0), "7");
  EXPECT_EQ(pmukit::fixed_ratio(UINT64_MAX, 1, 1), "18446744073709551615.0");
  EXPECT_EQ(pmukit::fixed_ratio(UINT64_MAX, UINT64_MAX, 2), "1.00");
  EXPECT_EQ(pmukit::percent(7, 16), "43.75");
  EXPECT_EQ(pmukit::percent(1, 3), "33.33");
  EXPECT_EQ(pmukit::percent(2, 3), "66.67");
  EXPECT_EQ(pmukit::percent(16, 16), "100.00");
}

TEST(Events, CounterLists) {
  EXPECT_EQ(pmukit::counter_list(0xF), "0-3");
  EXPECT_EQ(pmukit::counter_list(0x3), "0,1");
  EXPECT_EQ(pmukit::counter_list(0x5), "0,2");
  EXPECT_EQ(pmukit::counter_list(0x3B), "0,1,3-5");
  EXPECT_EQ(pmukit::counter_list(0x80000000u), "31");
  EXPECT_EQ(pmukit::counter_list(0), "none");
}

}  // namespace

#include "tools/report/describe.hpp"

// A dump whose firmware did not know its counter clock says "unknown", never "0 Hz".
TEST(ProfileDescribe, UnknownCounterClockIsSaidSo) {
  pmukit::Dump d;
  d.target.id = "xscale";
  d.target.pmu = "xscale-xsc2";
  d.target.counter_width_bits = 32;
  d.target.counter_clock_hz = 0;
  EXPECT_EQ(pmukit::describe_target(d), "xscale, PMU xscale-xsc2, counter clock unknown, 32-bit counters");
  d.target.counter_clock_hz = 400000000;
  EXPECT_EQ(pmukit::describe_target(d), "xscale, PMU xscale-xsc2, counter clock 400000000 Hz, 32-bit counters");
}

// Issue 32 item 5: the report says how the stack samples' walks ended and how long a copy would
// have reached what a too-short one missed; a walk off a copy clamped at the stack's top is its end.
TEST(UnwindSummary, SaysHowManyWereCutShortAndByWhat) {
  std::vector<pmukit::StackSampleRecord> stacks(5);
  for (auto& s : stacks) s.stack.resize(512);
  stacks[3].stack.resize(100);  // clamped at the stack's top
  std::vector<pmukit::UnwoundStack> walks(5);
  walks[1].stopped = walks[2].stopped = walks[3].stopped = "its return address is beyond the captured stack";
  walks[1].copy_needed = 600;
  walks[2].copy_needed = 530;
  walks[3].copy_needed = 120;
  walks[4].stopped = "no CFI for its pc";
  const pmukit::UnwindSummary u = pmukit::summarize(walks, stacks);
  EXPECT_EQ(u.complete, 2u);
  EXPECT_EQ(u.copy_needed, 600u);
  EXPECT_EQ(u.text(),
            "5 unwound, 2 to the outermost frame (1 where the copy reached the stack's top), 3 cut short: 2 copy "
            "too small; 1 no CFI for its pc (the copies are 512 bytes; 640 would have held every return address "
            "they missed: size the stack ring's Bytes so)");
  EXPECT_EQ(pmukit::summarize({}, {}).text(), "");
}

namespace {
// Walks through two callers of f (6 by A, 4 by B), and ten walks cut just above f, each into a
// different function h0..h9 below it.
pmukit::Dump cut_walks_dump() {
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::little);
  w.begin({"t", "p", 0, 32, 4});
  const std::uint32_t via_a[] = {0x4004, 0x2009, 0x1009}, via_b[] = {0x4004, 0x3009, 0x1009};
  w.begin_frames(6 + 4 + 10, 6 * 3 + 4 * 3 + 10 * 2, 0);
  for (int i = 0; i < 6; ++i) w.frame_sample(via_a, 3, true);
  for (int i = 0; i < 4; ++i) w.frame_sample(via_b, 3, true);
  for (std::uint32_t i = 0; i < 10; ++i) {
    const std::uint32_t cut[] = {0x5004 + 0x100 * i, 0x4009};
    w.frame_sample(cut, 2, false);
  }
  w.finish();
  return pmukit::decode_dump(out.bytes.data(), out.bytes.size());
}
}  // namespace

// With leaf pcs (pprof) the samples' LR guesses are kept in a list while the pcs come in order,
// a few per pc, and in the hash table otherwise: a pc with many callers, pcs out of order and a
// histogram after the samples give the same stacks, by name, as without leaf pcs.
TEST(Profile, LeafPcStacksAreTheFunctionStacksWhateverTheSampleOrder) {
  pmukit::SymbolTable t;
  t.add_function(0x1000, 0x100, "leaf");
  for (unsigned i = 0; i < 40; ++i) t.add_function(0x2000 + 0x100 * i, 0x100, "caller" + std::to_string(i));
  t.add_function(0x8000, 0x100, "other");
  t.finalize();
  for (const bool sorted : {true, false}) {
    pmukit::Dump d;
    d.target.address_bytes = 4;
    d.sample_counts.push_back({0x1004, 0, 3});
    d.sample_counts.push_back({0x1008, 0x2010, 2});
    for (unsigned i = 0; i < 40; ++i) d.sample_counts.push_back({0x1010, 0x2004 + 0x100 * i, 1 + i % 3});
    d.sample_counts.push_back({0x8004, 0x1020, 5});
    if (!sorted) std::swap(d.sample_counts.front(), d.sample_counts.back());
    d.histogram.push_back({0x1008, 4});
    d.histogram.push_back({0x8008, 1});
    const auto folded = [&](bool leaf_pcs) {
      std::string text;
      for (const auto& st : pmukit::build_profile(d, t, true, nullptr, leaf_pcs).folded()) {
        for (const std::string& f : st.frames) text += f + ";";
        text += " " + std::to_string(st.count) + "\n";
      }
      return text;
    };
    EXPECT_EQ(folded(true), folded(false)) << "sorted " << sorted;
    const pmukit::Profile p = pmukit::build_profile(d, t, true, nullptr, true);
    std::uint64_t at_many = 0;  // the pc with 40 callers: a stack per caller, its samples all there
    for (const auto& [frames, n] : p.stacks)
      if (!frames.empty() && frames.back().at == 0x1010) at_many += n;
    EXPECT_EQ(at_many, 79u) << "sorted " << sorted;
  }
}

// pprof's profile (leaf pcs, no lines) keeps each sample's LR guess as one compact entry
// (Profile::lr_stacks), not a vector of frames a distinct (pc, lr) pair: the same stacks, in
// the order stacks would have held them (by caller, leaf, call site, pc), the same counts.
TEST(Profile, LeafPcProfileKeepsItsLrGuessesCompactInTheOrderOfTheStacks) {
  pmukit::SymbolTable t;
  t.add_function(0x1000, 0x100, "leaf");
  for (unsigned i = 0; i < 40; ++i) t.add_function(0x2000 + 0x100 * i, 0x100, "caller" + std::to_string(i));
  t.add_function(0x8000, 0x100, "other");
  t.finalize();
  pmukit::Dump d;
  d.target.address_bytes = 4;
  d.sample_counts.push_back({0x1004, 0, 3});
  d.sample_counts.push_back({0x1008, 0x2010, 2});
  for (unsigned i = 0; i < 40; ++i) d.sample_counts.push_back({0x1010, 0x2004 + 0x100 * (39 - i), 1 + i % 3});
  d.sample_counts.push_back({0x1014, 0x2010, 1});
  d.sample_counts.push_back({0x1018, 0x2014, 1});
  d.sample_counts.push_back({0x8004, 0x1020, 5});
  d.histogram.push_back({0x1008, 4});
  const pmukit::Profile compact = pmukit::build_profile(d, t, false, nullptr, true);
  const pmukit::Profile frames = pmukit::build_profile(d, t, true, nullptr, true);  // with lines: all in stacks
  EXPECT_TRUE(compact.stacks.empty());
  ASSERT_TRUE(frames.lr_stacks.empty());
  ASSERT_EQ(compact.lr_stacks.size(), frames.stacks.size());
  for (std::size_t i = 0; i < frames.stacks.size(); ++i) {
    SCOPED_TRACE(i);
    const auto& [f, n] = frames.stacks[i];
    const pmukit::Profile::LrStack& e = compact.lr_stacks[i];
    ASSERT_EQ(f.size(), e.caller == pmukit::kNoFunction ? 1u : 2u);
    EXPECT_EQ(compact.functions[e.leaf].name, frames.functions[f.back().function].name);
    EXPECT_EQ(e.pc, f.back().at);
    if (f.size() == 2) {
      EXPECT_EQ(compact.functions[e.caller].name, frames.functions[f[0].function].name);
      EXPECT_EQ(e.site, f[0].at);
    }
    EXPECT_EQ(e.count, n);
  }
  const auto text = [](const pmukit::Profile& p) {
    std::string s;
    for (const auto& st : p.folded()) {
      for (const std::string& f : st.frames) s += f + ";";
      s += " " + std::to_string(st.count) + "\n";
    }
    const std::vector<std::uint64_t> inclusive = p.inclusive();
    for (std::uint32_t i = 0; i < p.functions.size(); ++i) s += p.functions[i].name + " " + std::to_string(inclusive[i]) + "\n";
    return s;
  };
  EXPECT_EQ(text(compact), text(frames));
}

// Cut walks that reached f are shared among the callers complete walks saw f under, in their
// proportions, however many distinct walks there are: a walk alone would always go to the heavier
// caller (16 and 4 here, not 12 and 8), and with or without call-site addresses the split is the
// same (the formats that keep them must agree with those that do not).
TEST(Profile, CutWalksAreSharedAmongTheirFramesContextsInProportion) {
  pmukit::SymbolTable t;
  t.add_function(0x1000, 0x100, "main");
  t.add_function(0x2000, 0x100, "A");
  t.add_function(0x3000, 0x100, "B");
  t.add_function(0x4000, 0x100, "f");
  for (unsigned i = 0; i < 10; ++i) t.add_function(0x5000 + 0x100 * i, 0x100, "h" + std::to_string(i));
  t.finalize();
  const pmukit::Dump d = cut_walks_dump();
  for (const auto& [lines, leaf_pcs] : {std::pair{false, false}, {true, false}, {true, true}}) {
    const pmukit::Profile p = pmukit::build_profile(d, t, lines, nullptr, leaf_pcs);
    const std::vector<std::uint64_t> inclusive = p.inclusive();
    std::map<std::string, std::uint64_t> by_name;
    for (std::uint32_t i = 0; i < p.functions.size(); ++i) by_name[p.functions[i].name] += inclusive[i];
    std::string folded;
    for (const auto& st : p.folded()) {
      for (const std::string& f : st.frames) folded += f + ";";
      folded += " " + std::to_string(st.count) + "\n";
    }
    EXPECT_EQ(by_name["A"], 12u) << "lines " << lines << ", leaf pcs " << leaf_pcs << "\n" << folded;
    EXPECT_EQ(by_name["B"], 8u) << "lines " << lines << ", leaf pcs " << leaf_pcs;
    EXPECT_EQ(by_name["main"], 20u);
    EXPECT_EQ(p.inferred, 10u);
  }
}
