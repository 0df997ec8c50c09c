// Register descriptors, variant detection and the event catalog, checked against the core manual.
#include <gtest/gtest.h>

#include <cstring>

#include "fixture.hpp"
#include "hal/core/reg.hpp"
#include "hal/xscale/events.hpp"
#include "hal/xscale/regs.hpp"

namespace {

using namespace pmu;
using namespace pmu::xscale;

// Table 8-5 (XSC2) and Table 8-1 (XSC1): MRC/MCR p14, 0, Rd, CRn, CRm, 0.
template <class R>
constexpr bool at(unsigned crn, unsigned crm) {
  using L = typename R::location;
  return L::coproc == 14 && L::crn == crn && L::crm == crm && L::opc1 == 0 && L::opc2 == 0;
}
static_assert(at<xsc2::PMNC>(0, 1) && at<xsc2::CCNT>(1, 1) && at<xsc2::INTEN>(4, 1) &&
              at<xsc2::FLAG>(5, 1) && at<xsc2::EVTSEL>(8, 1));
static_assert(at<xsc2::PMN0>(0, 2) && at<xsc2::PMN1>(1, 2) && at<xsc2::PMN2>(2, 2) &&
              at<xsc2::PMN3>(3, 2));
static_assert(at<xsc1::PMNC>(0, 0) && at<xsc1::CCNT>(1, 0) && at<xsc1::PMN0>(2, 0) &&
              at<xsc1::PMN1>(3, 0));
static_assert(MIDR::location::coproc == 15 && MIDR::location::crn == 0 &&
              MIDR::location::crm == 0 && MIDR::access == Access::RO);

TEST(xscaleRegs, VariantFromMidr) {
  EXPECT_EQ(variant_from_midr(0x69054117), Variant::xsc2);  // PXA27x: generation 2
  EXPECT_EQ(variant_from_midr(0x69052000), Variant::xsc1);  // generation 1
  EXPECT_EQ(variant_from_midr(0x69056000), Variant::xsc3);  // generation 3: XSC2 map, more events
  EXPECT_EQ(variant_from_midr(0x69050000), Variant::unknown);  // generation 0
  for (std::uint32_t gen = 4; gen < 8; ++gen)
    EXPECT_EQ(variant_from_midr(0x69050000 | gen << 13), Variant::unknown) << gen;
  // Not Intel: bits 15:13 mean something else there (ARM926EJ-S; an ARM part with "gen 2" bits).
  EXPECT_EQ(variant_from_midr(0x41069265), Variant::unknown);
  EXPECT_EQ(variant_from_midr(0x41004000), Variant::unknown);
  EXPECT_STREQ(variant_name(Variant::xsc1), "xsc1");
  EXPECT_STREQ(variant_name(Variant::xsc2), "xsc2");
  EXPECT_STREQ(variant_name(Variant::xsc3), "xsc3");
  EXPECT_STREQ(variant_name(Variant::unknown), "unknown");
}

// MIDR bits 15:4 0x603 is a PXA320 and 0x683 the PXA930 (Linux's cpu_is_pxa320/pxa930); they differ
// only in the core revision bits the part mask drops, so their entry names both, never PXA930 alone.
TEST(xscaleRegs, MidrId0x603IsAPxa320And0x683APxa930SoTheirEntryNamesBoth) {
  for (u32 midr : {0x69056030u, 0x69056031u, 0x69056830u}) {
    const Identity id = identify(midr);
    EXPECT_EQ(id.variant, Variant::xsc3) << std::hex << midr;
    ASSERT_NE(id.part, nullptr) << std::hex << midr;
    EXPECT_STREQ(id.part, "PXA320/PXA930") << std::hex << midr;
  }
}

// Parts by MIDR (values as Linux and FreeBSD list them), in every revision the mask ignores.
TEST(xscaleRegs, KnownPartsAndTheGenerationRule) {
  struct Want {
    u32 midr;
    Variant v;
    const char* part;
  } const want[] = {
      {0x69052000, Variant::xsc1, "80200"},          {0x69052001, Variant::xsc1, "80200"},
      {0x69052C20, Variant::xsc1, "80321"},          {0x69052E30, Variant::xsc1, "80219"},
      {0x69052D06, Variant::xsc1, "PXA25x/PXA26x"},  {0x69054117, Variant::xsc2, "PXA27x"},
      {0x690541F1, Variant::xsc2, "IXP42x"},         {0x69054200, Variant::xsc2, "IXP45x/IXP46x"},
      {0x69054190, Variant::xsc1, "IXP2400"},        {0x690541A3, Variant::xsc1, "IXP2800"},
      {0x69056881, Variant::xsc3, "PXA30x"},         {0x69056810, Variant::xsc3, "IOP13xx"},
      {0x56056936, Variant::xsc3, "PXA935"},
  };
  for (const Want& w : want) {
    const Identity id = identify(w.midr);
    EXPECT_EQ(id.variant, w.v) << std::hex << w.midr;
    ASSERT_NE(id.part, nullptr) << std::hex << w.midr;
    EXPECT_STREQ(id.part, w.part);
  }
  // Generation 2 parts this table does not list keep the generation rule (and no name).
  EXPECT_EQ(identify(0x69054350).variant, Variant::xsc2);
  EXPECT_EQ(identify(0x69054350).part, nullptr);
  // A Marvell core that is not the PXA935 is not guessed at.
  EXPECT_EQ(identify(0x56054110).variant, Variant::unknown);
}


struct MidrTag {};
using MidrBus = MockBus<MidrTag>;

TEST(xscaleRegs, ReadVariantIsOneCp15Read) {
  MidrBus::reset();
  Xsc2Model m2;
  MidrBus::device = &m2;
  EXPECT_EQ(read_variant<MidrBus>(), Variant::xsc2);
  ASSERT_EQ(MidrBus::log_size, 1u);
  EXPECT_EQ(MidrBus::log[0].key, MIDR::location::key);
  EXPECT_EQ(MidrBus::log[0].op, MockOp::read);

  Xsc1Model m1;
  MidrBus::device = &m1;
  EXPECT_EQ(read_variant<MidrBus>(), Variant::xsc1);

  MidrBus::device = nullptr;  // the plain register file: whatever the test pokes
  MidrBus::poke<MIDR>(0x41069265);
  EXPECT_EQ(read_variant<MidrBus>(), Variant::unknown);
  MidrBus::poke<MIDR>(0x69054190);  // IXP2400: generation 2, but the XSC1 PMU
  EXPECT_EQ(read_variant<MidrBus>(), Variant::xsc1);
  // A variant the firmware forces wins, without reading MIDR.
  MidrBus::clear_log();
  EXPECT_EQ(read_variant<MidrBus>(Variant::xsc2), Variant::xsc2);
  EXPECT_EQ(MidrBus::log_size, 0u);
  MidrBus::reset();
}

// Fields of a register, OR-ed: checks that they do not overlap and cover the writable bits.
template <class... F>
constexpr u32 union_of(F...) {
  return (F::mask | ...);
}
template <class... F>
constexpr u32 sum_of(F...) {
  return (F::mask + ...);
}

TEST(xscaleRegs, Xsc1PmncLayout) {
  using namespace xsc1::pmnc;
  // §8.2.4: 31:28, 11 and 7 write-as-zero; flags 10:8 W1C.
  EXPECT_EQ(xsc1::PMNC::write_mask, 0x0FFFF77Fu);
  EXPECT_EQ(xsc1::PMNC::w1c_mask, 0x00000700u);
  constexpr u32 all = union_of(E, P, C, D, inten_pmn0, inten_pmn1, inten_ccnt, flag_pmn0, flag_pmn1,
                               flag_ccnt, evtCount0, evtCount1);
  constexpr u32 sum = sum_of(E, P, C, D, inten_pmn0, inten_pmn1, inten_ccnt, flag_pmn0, flag_pmn1,
                             flag_ccnt, evtCount0, evtCount1);
  EXPECT_EQ(all, sum) << "fields overlap";
  EXPECT_EQ(all, xsc1::PMNC::write_mask) << "fields must cover exactly the writable bits";
  EXPECT_EQ(evtCount0.mask, 0x000FF000u);
  EXPECT_EQ(evtCount1.mask, 0x0FF00000u);
  EXPECT_EQ(inten_ccnt.mask, 0x40u);
  EXPECT_EQ(flag_ccnt.mask, 0x400u);
  EXPECT_EQ(flag_pmn0.mask, 0x100u);
  EXPECT_EQ(flag_pmn1.mask, 0x200u);
  EXPECT_EQ(xsc1::flag_slot.mask(0), 0x400u);  // slot 0 = CCNT
  EXPECT_EQ(xsc1::inten_slot.mask(1), 0x10u);  // slot 1 = PMN0
  EXPECT_EQ(xsc1::flag_slot.mask_of(0b111), 0x700u);
  EXPECT_EQ(xsc1::inten_slot.slots_set(0x40u), 0b001u);
}

TEST(xscaleRegs, Xsc2Layouts) {
  EXPECT_EQ(xsc2::PMNC::write_mask, 0xFu);  // 23:4 write-as-zero, ID read-only
  EXPECT_EQ(xsc2::pmnc::ID.mask, 0xFF000000u);
  EXPECT_EQ(xsc2::pmnc::ID.access, Access::RO);
  EXPECT_EQ(xsc2::pmnc::P.access, Access::WO);  // read unpredictable
  EXPECT_EQ(xsc2::pmnc::C.access, Access::WO);
  EXPECT_EQ(xsc2::FLAG::w1c_mask, 0x1Fu);
  EXPECT_EQ(xsc2::INTEN::write_mask, 0x1Fu);
  EXPECT_EQ(xsc2::INTEN::w1c_mask, 0u);
  using namespace xsc2::evtsel;
  EXPECT_EQ(union_of(evtCount0, evtCount1, evtCount2, evtCount3), 0xFFFFFFFFu);
  EXPECT_EQ(evtCount3.offset, 24u);
}

struct RegsTag {};
using RegsBus = MockBus<RegsTag>;

// Through the engine, with the register file only: descriptors mask what they must.
TEST(xscaleRegs, EngineMasksWriteAsZeroAndKeepsFlags) {
  RegsBus::reset();
  Regs<RegsBus>::write_raw<xsc1::PMNC>(0xFFFFFFFF);
  EXPECT_EQ(RegsBus::peek<xsc1::PMNC>(), 0x0FFFF77Fu);
  // modify() writes a set flag back as 0 (no change) unless it is named.
  RegsBus::poke<xsc1::PMNC>(0x00000701);
  Regs<RegsBus>::modify(xsc1::pmnc::inten_pmn1(1));
  EXPECT_EQ(RegsBus::peek<xsc1::PMNC>(), 0x00000021u);
  RegsBus::poke<xsc1::PMNC>(0x00000700);
  Regs<RegsBus>::modify(xsc1::pmnc::flag_pmn1.val<1>());
  EXPECT_EQ(RegsBus::peek<xsc1::PMNC>(), 0x00000200u);
  Regs<RegsBus>::write_raw<xsc2::PMNC>(0xFFFFFFFF);
  EXPECT_EQ(RegsBus::peek<xsc2::PMNC>(), 0xFu);
  RegsBus::reset();
}

// ---- catalog ----
TEST(xscaleEvents, TableMatchesManual) {
  for (const PmuCatalog* c : {&kXsc1Catalog, &kXsc2Catalog}) {
    SCOPED_TRACE(c->id);
    EXPECT_EQ(c->counter_width, 32u);
    ASSERT_EQ(c->num_events, 16u);  // 0x00-0x0D, 0xFF (power saving), CCNT
    for (std::size_t i = 0; i < c->num_events; ++i) {
      const EventInfo& e = c->events[i];
      for (std::size_t j = i + 1; j < c->num_events; ++j) EXPECT_NE(e.code, c->events[j].code);
      if (e.code == kCcntEvent) {
        EXPECT_EQ(e.counters, 0u) << "cycles are CCNT's, not a PMN's";
        continue;
      }
      EXPECT_LE(e.code, kMaxEventCode);
      EXPECT_TRUE(e.code <= 0x0D || e.code == 0xFF) << "Table 8-12 core events only";
      EXPECT_EQ(e.counters, (1u << c->num_counters) - 1);
    }
    EXPECT_STREQ(find_event(*c, 0x07)->name, "INSTR");
    EXPECT_STREQ(find_event(*c, 0x0B)->name, "DC_MISS");
    EXPECT_STREQ(find_event(*c, 0x00)->name, "IC_MISS");
    EXPECT_EQ(find_event(*c, 0x0E), nullptr);
    EXPECT_EQ(find_event(*c, 0x18), nullptr);
    for (std::uint32_t assp = 0x10; assp <= 0x17; ++assp)
      EXPECT_EQ(find_event(*c, assp), nullptr) << "0x10-0x17 are the product's, not the core's";
  }
  EXPECT_STREQ(kXsc1Catalog.id, "xscale-xsc1");
  EXPECT_STREQ(kXsc2Catalog.id, "xscale-xsc2");
  EXPECT_EQ(kXsc1Catalog.num_counters, 2u);
  EXPECT_EQ(kXsc2Catalog.num_counters, 4u);
}

TEST(xscaleEvents, The80200ListsItsBusAndEccEvents) {
  const PmuCatalog& c = k80200Catalog;
  EXPECT_STREQ(c.id, "xscale-80200");
  EXPECT_EQ(c.num_counters, 2u);
  EXPECT_EQ(c.num_events, 16u + 6u);
  for (std::uint32_t code : {0x10u, 0x11u, 0x12u, 0x14u, 0x15u, 0x16u}) {
    ASSERT_NE(find_event(c, code), nullptr) << code;
    EXPECT_EQ(find_event(c, code)->counters, 0x3u);
  }
  EXPECT_STREQ(find_event(c, 0x10)->name, "BCU_REQUEST");
  EXPECT_STREQ(find_event(c, 0x16)->name, "RMW");
  EXPECT_EQ(find_event(c, 0x13), nullptr) << "undefined on the 80200";
  EXPECT_EQ(find_event(c, 0x17), nullptr) << "undefined on the 80200";
  EXPECT_STREQ(find_event(c, 0x07)->name, "INSTR");
}

TEST(xscaleEvents, Xsc3AddsL2BusAndPipelineEvents) {
  const PmuCatalog& c = kXsc3Catalog;
  EXPECT_STREQ(c.id, "xscale-xsc3");
  EXPECT_EQ(c.num_counters, 4u);
  EXPECT_EQ(c.num_events, 16u + 24u);
  struct Want {
    std::uint32_t code;
    const char* name;
  } const want[] = {{0x0E, "BRANCH_RETIRED"}, {0x0F, "ISSUE_CYCLES"}, {0x18, "PC_CHANGE_ALL"},
                    {0x19, "PIPE_FLUSH"},     {0x1A, "BACKEND_STALL"}, {0x1B, "MULTIPLIER_USE"},
                    {0x1C, "MULTIPLIER_STALL"}, {0x1D, "COPROC_STALL"}, {0x1E, "DC_STALL"},
                    {0x20, "L2_REQUEST"},     {0x23, "L2_MISS"},      {0x40, "ADDR_BUS_TRANS"},
                    {0x41, "SELF_ADDR_BUS_TRANS"}, {0x43, "BUS_CLOCK"}, {0x47, "SELF_DATA_BUS_TRANS"},
                    {0x48, "DATA_BUS_TRANS"}, {0x80, "ASSP_0"},       {0x87, "ASSP_7"}};
  for (const Want& w : want) {
    ASSERT_NE(find_event(c, w.code), nullptr) << w.name;
    EXPECT_STREQ(find_event(c, w.code)->name, w.name);
    EXPECT_EQ(find_event(c, w.code)->counters, 0xFu);
  }
  for (std::uint32_t assp = 0x10; assp <= 0x17; ++assp) EXPECT_EQ(find_event(c, assp), nullptr);
  EXPECT_STREQ(find_event(c, 0x0B)->name, "DC_MISS");
}

TEST(xscaleEvents, PresetsBindDocumentedEvents) {
  struct Want {
    Preset p;
    std::uint32_t code;
  };
  constexpr Want want[] = {
      {Preset::cycles, kCcntEvent},        {Preset::instructions, 0x07},
      {Preset::dcache_misses, 0x0B},       {Preset::icache_misses, 0x00},
      {Preset::branch_mispredicts, 0x06},  {Preset::branches, 0x05},
      {Preset::tlb_misses, 0x04},          {Preset::stall_cycles, 0x02},
  };
  for (const PmuCatalog* c : {&kXsc1Catalog, &kXsc2Catalog, &k80200Catalog, &kXsc3Catalog}) {
    ASSERT_EQ(c->num_presets, kPresetCount);
    for (const Want& w : want) {
      const PresetBinding* b = find_preset(*c, w.p);
      ASSERT_NE(b, nullptr) << preset_name(w.p);
      EXPECT_EQ(b->code, w.code) << preset_name(w.p);
      const EventInfo* e = find_event(*c, b->code);
      ASSERT_NE(e, nullptr) << "preset bound to an event missing from the table";
      EXPECT_EQ(b->counters, e->counters);
    }
  }
}

TEST(xscaleEvents, SlotsForEachCode) {
  using P2 = Xsc2<MockBus<RegsTag>>;
  using P1 = Xsc1<MockBus<RegsTag>>;
  static_assert(P2::slots_for(kCcntEvent) == 0x1);
  static_assert(P2::slots_for(0x07) == 0x1E);
  static_assert(P1::slots_for(0x07) == 0x6);
  EXPECT_EQ(P2::slots_for(0x17), 0u);  // product events: not the core's
  EXPECT_EQ(P2::slots_for(0x0E), 0u);
  using P3 = Xsc3<MockBus<RegsTag>>;
  using P0 = X80200<MockBus<RegsTag>>;
  static_assert(P3::slots_for(0x20) == 0x1E && P3::slots_for(0x0E) == 0x1E);
  static_assert(P0::slots_for(0x10) == 0x6 && P0::slots_for(0x13) == 0);
  EXPECT_EQ(P1::slots_for(0x10), 0u);
  EXPECT_EQ(P2::slots_for(0xFF), 0x1Eu);  // power saving: any PMN may be parked on it
  EXPECT_EQ(P2::slots_for(0xFE), 0u);
  EXPECT_EQ(P2::slots_for(0x1000), 0u);
  EXPECT_EQ(P1::slots_for(kCcntEvent), 1u);
}

}  // namespace
