// Per-core catalogs: each core's driver takes the events its Technical Reference Manual lists and
// refuses the others (run time: unsupported_event; compile time: tests/compile_fail/). Each test
// names the TRM table that states the rule.
#include <gtest/gtest.h>

#include "hal/armv7a/driver.hpp"
#include "hal/armv7a/model.hpp"
#include "hal/core/bus/mock.hpp"

namespace {

namespace a = pmu::armv7a;
namespace ev = pmu::armv7a::event;
using pmu::EventConfig;
using pmu::Status;

struct Tag {};
using Bus = pmu::MockBus<Tag>;
using A15 = a::CortexA15<Bus>;
using A7 = a::CortexA7<Bus>;
using A9 = a::CortexA9<Bus>;

// The Cortex-A15's table has no PC_WRITE_RETIRED (0x0C): its branches are counted speculatively.
TEST(Armv7aCoreEvents, CortexA15HasNoPcWriteRetiredButPcWriteSpec_A15TRM_11_6_Table11_7) {
  EXPECT_EQ(A15::check_event(1, EventConfig{ev::PC_WRITE_RETIRED, 0, 0}), Status::unsupported_event);
  EXPECT_EQ(A15::check_event(1, EventConfig{ev::LD_RETIRED, 0, 0}), Status::unsupported_event);
  EXPECT_EQ(A15::check_event(1, EventConfig{ev::a15::PC_WRITE_SPEC, 0, 0}), Status::ok);
  EXPECT_EQ(A15::check_event(6, EventConfig{ev::a15::L2D_CACHE_REFILL_ST, 0, 0}), Status::ok);
  EXPECT_EQ(A15::check_event(1, EventConfig{ev::INST_RETIRED, 0, 0}), Status::ok);
  static_assert(A15::check_event(1, EventConfig{ev::PC_WRITE_RETIRED, 0, 0}) == Status::unsupported_event);
}

// The Cortex-A9 implements neither 0x08 nor 0x0E (Table 11-5), and has its own 0x40-0xA5.
TEST(Armv7aCoreEvents, CortexA9HasNoInstRetiredButRenamedInstructions_A9TRM_11_4_Table11_5) {
  EXPECT_EQ(A9::check_event(1, EventConfig{ev::INST_RETIRED, 0, 0}), Status::unsupported_event);
  EXPECT_EQ(A9::check_event(1, EventConfig{ev::BR_RETURN_RETIRED, 0, 0}), Status::unsupported_event);
  EXPECT_EQ(A9::check_event(1, EventConfig{ev::L1I_CACHE, 0, 0}), Status::unsupported_event);
  EXPECT_EQ(A9::check_event(1, EventConfig{ev::a9::INST_RENAMED, 0, 0}), Status::ok);
  EXPECT_EQ(A9::check_event(1, EventConfig{ev::a9::PLE_REQUESTS_PROGRAMMED, 0, 0}), Status::ok);
  EXPECT_EQ(A9::check_event(6, EventConfig{ev::PC_WRITE_RETIRED, 0, 0}), Status::ok);
  // The instructions preset of the Cortex-A9 is the renaming stage's count.
  EXPECT_EQ(pmu::find_preset(A9::catalog, pmu::Preset::instructions)->code, ev::a9::INST_RENAMED);
}

// The Cortex-A7 has 4 event counters and its own 0x60-0xCA; not the A15's speculative events.
TEST(Armv7aCoreEvents, CortexA7HasFourCountersAndItsOwnEvents_A7TRM_11_5_Table11_5) {
  EXPECT_EQ(A7::kSlots, 5u);
  EXPECT_EQ(A7::check_event(5, EventConfig{ev::INST_RETIRED, 0, 0}), Status::bad_argument);
  EXPECT_EQ(A7::check_event(4, EventConfig{ev::a7::STALL_SB_FULL, 0, 0}), Status::ok);
  EXPECT_EQ(A7::check_event(1, EventConfig{ev::a7::BUS_ACCESS_LD, 0, 0}), Status::ok);
  EXPECT_EQ(A7::check_event(1, EventConfig{ev::a15::PC_WRITE_SPEC, 0, 0}), Status::unsupported_event);
  EXPECT_EQ(A7::check_event(1, EventConfig{ev::TTBR_WRITE_RETIRED, 0, 0}), Status::unsupported_event);
}

// Run time: configure() on the part refuses what the core lacks and leaves PMXEVTYPER alone.
TEST(Armv7aCoreEvents, ConfigureRefusesAnEventTheCoreLacksAndWritesNothing_A15TRM_11_6_Table11_7) {
  Bus::reset();
  a::Model model{};
  Bus::device = &model;
  A15::forget_probe();
  ASSERT_EQ(A15::configure(1, EventConfig{ev::L1D_CACHE_REFILL, 0, 0}), Status::ok);
  EXPECT_EQ(model.evtype(0), ev::L1D_CACHE_REFILL);
  EXPECT_EQ(A15::configure(1, EventConfig{ev::BR_IMMED_RETIRED, 0, 0}), Status::unsupported_event);
  EXPECT_EQ(model.evtype(0), ev::L1D_CACHE_REFILL);
  Bus::device = nullptr;
}

// Every preset of a core's catalog names an event of that core (catalog_sound checks the rest).
TEST(Armv7aCoreEvents, EveryPresetIsAnEventOfItsCore_ARMv7ARM_C12) {
  for (const pmu::PmuCatalog* c : {&a::kCortexA15Catalog, &a::kCortexA7Catalog, &a::kCortexA9Catalog}) {
    EXPECT_TRUE(pmu::catalog_sound(*c)) << c->id;
    for (std::size_t i = 0; i < c->num_presets; ++i)
      EXPECT_TRUE(pmu::has_event(*c, c->presets[i].code)) << c->id << " preset " << i;
    EXPECT_TRUE(pmu::has_preset(*c, pmu::Preset::cycles)) << c->id;
    EXPECT_TRUE(pmu::has_preset(*c, pmu::Preset::instructions)) << c->id;
  }
  EXPECT_EQ(a::kCortexA15Catalog.num_counters, 6u);
  EXPECT_EQ(a::kCortexA9Catalog.num_counters, 6u);
  EXPECT_EQ(a::kCortexA7Catalog.num_counters, 4u);
}

}  // namespace
