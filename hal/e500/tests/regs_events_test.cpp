// The e500 register map and event catalog against the manual: PMR numbers (CRM Table 7-2), field
// positions (Tables 7-3..7-6, LSB-0 = 63 - manual bit), threshold/chain flags, preset choices.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "hal/e500/events.hpp"
#include "hal/e500/regs.hpp"

namespace {
namespace e5 = pmu::e500;
using pmu::u32;

template <class R>
constexpr unsigned pmr() {
  return R::location::number;
}

TEST(e500Regs, PmrNumbersAreTheManuals) {
  EXPECT_EQ(pmr<e5::PMGC0>(), 400u);
  EXPECT_EQ(pmr<e5::UPMGC0>(), 384u);
  const unsigned pmc[] = {pmr<e5::PMC<0>>(), pmr<e5::PMC<1>>(), pmr<e5::PMC<2>>(),
                          pmr<e5::PMC<3>>()};
  const unsigned upmc[] = {pmr<e5::UPMC<0>>(), pmr<e5::UPMC<1>>(), pmr<e5::UPMC<2>>(),
                           pmr<e5::UPMC<3>>()};
  const unsigned a[] = {pmr<e5::PMLCa<0>>(), pmr<e5::PMLCa<1>>(), pmr<e5::PMLCa<2>>(),
                        pmr<e5::PMLCa<3>>()};
  const unsigned ua[] = {pmr<e5::UPMLCa<0>>(), pmr<e5::UPMLCa<1>>(), pmr<e5::UPMLCa<2>>(),
                         pmr<e5::UPMLCa<3>>()};
  const unsigned b[] = {pmr<e5::PMLCb<0>>(), pmr<e5::PMLCb<1>>(), pmr<e5::PMLCb<2>>(),
                        pmr<e5::PMLCb<3>>()};
  const unsigned ub[] = {pmr<e5::UPMLCb<0>>(), pmr<e5::UPMLCb<1>>(), pmr<e5::UPMLCb<2>>(),
                         pmr<e5::UPMLCb<3>>()};
  for (unsigned n = 0; n < 4; ++n) {
    EXPECT_EQ(pmc[n], 16 + n);
    EXPECT_EQ(upmc[n], 0 + n);
    EXPECT_EQ(a[n], 144 + n);
    EXPECT_EQ(ua[n], 128 + n);
    EXPECT_EQ(b[n], 272 + n);
    EXPECT_EQ(ub[n], 256 + n);
  }
  EXPECT_STREQ(e5::PMLCa<2>::name, "PMLCa2");
  EXPECT_STREQ(e5::UPMC<3>::name, "UPMC3");
}

TEST(e500Regs, FieldPositionsAreTheManuals) {
  // PMGC0: FAC 32, PMIE 33, FCECE 34, TBSEL 51-52, TBEE 55 (Table 7-3).
  EXPECT_EQ(decltype(e5::pmgc0_fac<>)::mask, 0x80000000u);
  EXPECT_EQ(decltype(e5::pmgc0_pmie<>)::mask, 0x40000000u);
  EXPECT_EQ(decltype(e5::pmgc0_fcece<>)::mask, 0x20000000u);
  EXPECT_EQ(decltype(e5::pmgc0_tbsel<>)::mask, 0x00001800u);
  EXPECT_EQ(decltype(e5::pmgc0_tbee<>)::mask, 0x00000100u);
  // PMLCa: FC 32, FCS 33, FCU 34, FCM1 35, FCM0 36, CE 37, EVENT 41-47 (Table 7-4).
  using A = e5::PMLCa1;
  EXPECT_EQ(decltype(e5::pmlca_fc<A>)::mask, 0x80000000u);
  EXPECT_EQ(decltype(e5::pmlca_fcs<A>)::mask, 0x40000000u);
  EXPECT_EQ(decltype(e5::pmlca_fcu<A>)::mask, 0x20000000u);
  EXPECT_EQ(decltype(e5::pmlca_fcm1<A>)::mask, 0x10000000u);
  EXPECT_EQ(decltype(e5::pmlca_fcm0<A>)::mask, 0x08000000u);
  EXPECT_EQ(decltype(e5::pmlca_ce<A>)::mask, 0x04000000u);
  EXPECT_EQ(decltype(e5::pmlca_event<A>)::mask, 0x007F0000u);
  // PMLCb: THRESHMUL 53-55, THRESHOLD 58-63 (Table 7-5).
  EXPECT_EQ(decltype(e5::pmlcb_threshmul<e5::PMLCb0>)::mask, 0x00000700u);
  EXPECT_EQ(decltype(e5::pmlcb_threshold<e5::PMLCb0>)::mask, 0x0000003Fu);
  // PMC: OV 32, counter value 33-63 (Table 7-6).
  EXPECT_EQ(decltype(e5::pmc_ov<e5::PMC2>)::mask, 0x80000000u);
  EXPECT_EQ(decltype(e5::pmc_count<e5::PMC2>)::mask, 0x7FFFFFFFu);
  // Writable bits = the named fields, nothing else.
  EXPECT_EQ(e5::PMGC0::write_mask, 0xE0001900u);
  EXPECT_EQ(e5::PMLCa3::write_mask, 0xFC7F0000u);
  EXPECT_EQ(e5::PMLCb3::write_mask, 0x0000073Fu);
  EXPECT_EQ(e5::PMC3::write_mask, 0xFFFFFFFFu);
  EXPECT_EQ(e5::PMGC0::reset, 0u);
}

TEST(e500Regs, ThresholdIsThresholdTimesTwoToTheMultiplier) {
  EXPECT_EQ(e5::threshold_value(0x000), 0u);
  EXPECT_EQ(e5::threshold_value(0x005), 5u);
  EXPECT_EQ(e5::threshold_value(0x105), 10u);
  EXPECT_EQ(e5::threshold_value(0x73F), 63u * 128u);
}

TEST(e500Catalog, ThresholdEventsAreExactly76To81OnPmc0AndPmc1) {
  unsigned n = 0;
  for (const auto& e : e5::kEvents) {
    if (!(e.flags & pmu::kEventNeedsThreshold)) continue;
    ++n;
    EXPECT_GE(e.code, 76u);
    EXPECT_LE(e.code, 81u);
    EXPECT_EQ(e.counters, 0x3u) << e.name;
  }
  EXPECT_EQ(n, 6u);
  for (u32 c = 76; c <= 81; ++c) EXPECT_TRUE(e5::takes_threshold(c)) << c;
  EXPECT_FALSE(e5::takes_threshold(75));
  EXPECT_FALSE(e5::takes_threshold(82));
}

TEST(e500Catalog, ChainSourcesAreEvents82To85OnePerCounter) {
  for (unsigned src = 0; src < 4; ++src) {
    const pmu::EventInfo* e = e5::find_event(e5::chain_event(src));
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->code, 82u + src);
    EXPECT_NE(e->flags & pmu::kEventChainSource, 0u);
    EXPECT_EQ(e->counters, 0xFu);
  }
  unsigned n = 0;
  for (const auto& e : e5::kEvents) n += (e.flags & pmu::kEventChainSource) != 0;
  EXPECT_EQ(n, 4u);
}

TEST(e500Catalog, PresetsAreTheDocumentedChoices) {
  const struct {
    pmu::Preset p;
    u32 code;
  } want[] = {
      {pmu::Preset::cycles, 1},
      {pmu::Preset::instructions, 2},
      {pmu::Preset::dcache_misses, 41},
      {pmu::Preset::icache_misses, 60},
      {pmu::Preset::branch_mispredicts, 15},
      {pmu::Preset::branches, 12},
      {pmu::Preset::tlb_misses, 66},
      {pmu::Preset::stall_cycles, 19},
  };
  ASSERT_EQ(e5::catalog.num_presets, pmu::kPresetCount);
  for (const auto& w : want) {
    bool found = false;
    for (std::size_t i = 0; i < e5::catalog.num_presets; ++i) {
      if (e5::catalog.presets[i].preset != w.p) continue;
      found = true;
      EXPECT_EQ(e5::catalog.presets[i].code, w.code) << pmu::preset_name(w.p);
      EXPECT_EQ(e5::catalog.presets[i].counters, 0xFu);
    }
    EXPECT_TRUE(found) << pmu::preset_name(w.p);
  }
}

TEST(e500Catalog, DescribesFourCountersAndEveryEventNamed) {
  EXPECT_STREQ(e5::catalog.id, "e500");
  EXPECT_EQ(e5::catalog.num_counters, 4u);
  EXPECT_EQ(e5::catalog.counter_width, 32u);
  EXPECT_EQ(e5::catalog.num_events, 91u);  // 0..90
  for (std::size_t i = 0; i < e5::catalog.num_events; ++i) {
    const auto& e = e5::catalog.events[i];
    EXPECT_EQ(e.code, i) << "codes 0..90 with no gap";
    EXPECT_GT(std::strlen(e.name), 0u);
    EXPECT_GT(std::strlen(e.description), 0u);
    EXPECT_NE(e.counters, 0u);
  }
  EXPECT_EQ(e5::counters_for(128), 0u);
  EXPECT_EQ(e5::find_event(91), nullptr);
  EXPECT_STREQ(e5::find_event(90)->name, "TBL_BIT_TRANSITIONS");
}

}  // namespace
