// The RM7000 model against the datasheet's rules (Table 10 and the interrupt section), through raw
// register accesses: what the driver tests then rely on.
#include <gtest/gtest.h>

#include "fixture.hpp"

namespace {

using namespace pmu::rm7000;
using pmu::Cp0;
using pmu::Cp0Control;
using pmu::u32;
struct Tag;
using rm7000Model = rm7000test::Fixture<Tag>;

TEST_F(rm7000Model, ReservedBitsOfPerfControlReadZeroAndAreNoticed) {
  Bus::template write<Cp0<22>, u32>(0xFFFFFFFFu);  // a raw mtc0: the register engine would mask it
  EXPECT_EQ(get<PerfControl>(), kPerfControlWritable);  // 7..5 and 31..11 reserved (Table 10)
  EXPECT_EQ(model.reserved_writes(), 1u);
  put<PerfControl>(0);
  model = Model{};  // the fixture checks the count stays 0 for the driver's own writes
  Bus::device = &model;
}

TEST_F(rm7000Model, CountsOnlyTheSelectedEventWhileEnabledAndInAnEnabledMode) {
  put<PerfControl>(0x0B | kKernelMode | kCountEnable);  // I-cache misses, kernel only
  model.event(0x0B, 5, Mode::kernel);
  model.event(0x0B, 7, Mode::user);  // UM = 0
  model.event(0x0C, 11, Mode::kernel);  // another event
  EXPECT_EQ(get<PerfCount>(), 5u);
  put<PerfControl>(0x0B | kUserMode | kCountEnable);
  model.event(0x0B, 7, Mode::user);
  model.event(0x0B, 5, Mode::kernel);
  EXPECT_EQ(get<PerfCount>(), 12u);
  put<PerfControl>(0x0B | kUserMode | kKernelMode);  // CE = 0
  model.event(0x0B, 100, Mode::user);
  EXPECT_EQ(get<PerfCount>(), 12u);
}

TEST_F(rm7000Model, Bit31RequestsInterrupt13AsALevelAndCountingGoesOn) {
  put<PerfControl>(0x00 | kKernelMode | kCountEnable);
  put<PerfCount>(0x7FFFFFFEu);
  model.cycles(1);
  EXPECT_EQ(get<Cause>() & Model::kCauseIp13, 0u);
  model.cycles(1);
  EXPECT_EQ(get<Cause>() & Model::kCauseIp13, Model::kCauseIp13);  // IP13 = Cause bit 21
  model.cycles(3);
  EXPECT_EQ(get<PerfCount>(), 0x80000003u) << "the count keeps running past bit 31";
  EXPECT_EQ(model.interrupts(), 0u) << "IM13 = 0: requested, not taken";
  put<PerfCount>(0x00000003u);
  EXPECT_EQ(get<Cause>() & Model::kCauseIp13, 0u) << "clearing bit 31 removes the request";
}

TEST_F(rm7000Model, WrapsAt32Bits) {
  put<PerfControl>(0x00 | kKernelMode | kCountEnable);
  put<PerfCount>(0xFFFFFFFFu);
  model.cycles(2);
  EXPECT_EQ(get<PerfCount>(), 1u);
}

struct LevelHandler {
  static inline unsigned calls = 0;
  static inline bool clear = true;
  static void irq(void* m) {
    ++calls;
    if (clear) static_cast<Model*>(m)->set_perfcount(0);
  }
};

TEST_F(rm7000Model, InterruptTakenOnlyWithIm13AndIe) {
  LevelHandler::calls = 0;
  LevelHandler::clear = true;
  model.on_interrupt(&LevelHandler::irq, &model);
  put<PerfControl>(0x00 | kKernelMode | kCountEnable);
  put<PerfCount>(0x7FFFFFFFu);
  model.cycles(1);
  EXPECT_EQ(LevelHandler::calls, 0u) << "IM13 = 0";
  model.set_ie(false);
  put<InterruptControl>(Model::kIm13);
  EXPECT_EQ(LevelHandler::calls, 0u) << "IE = 0";
  model.set_ie(true);
  EXPECT_EQ(LevelHandler::calls, 1u) << "pending, taken when IE is set";
  EXPECT_EQ(get<PerfCount>(), 0u);
}

TEST_F(rm7000Model, AHandlerThatLeavesBit31SetIsInterruptedAgain) {
  LevelHandler::calls = 0;
  LevelHandler::clear = false;
  model.on_interrupt(&LevelHandler::irq, &model);
  put<InterruptControl>(Model::kIm13);
  model.set_perfcount(0x80000000u);
  EXPECT_TRUE(model.interrupt_storm());
  EXPECT_GT(LevelHandler::calls, 1u);
  model.on_interrupt(nullptr, nullptr);
  model = Model{};  // the fixture's storm check is for the driver's tests
  Bus::device = &model;
}

TEST_F(rm7000Model, InterruptControlKeepsOnlyItsWritableBits) {
  Bus::template write<Cp0Control<20>, u32>(0xFFFFFFFFu);  // a raw ctc0
  EXPECT_EQ(get<InterruptControl>(), 0x0000FF9Fu);  // IM15..8, TE, Spacing
  EXPECT_EQ(model.reserved_writes(), 1u);
  model = Model{};
  Bus::device = &model;
}

TEST_F(rm7000Model, InertModeIsWhatQemuDoes) {
  model.set_inert(true);
  put<PerfControl>(0x70Au);
  EXPECT_EQ(get<PerfControl>(), 0u);
  put<PerfCount>(0x7FFFFFF0u);
  EXPECT_EQ(get<PerfCount>(), 0x7F0u);
  model.cycles(100);
  EXPECT_EQ(get<PerfCount>(), 0x7F0u);
  EXPECT_TRUE(pmu::fault::traps([] { (void)get<InterruptControl>(); })) << "cfc0: reserved instruction";
}

TEST_F(rm7000Model, PridIsAnsweredWithoutCountingAsAnAccess) {
  model.set_prid(0x2731u);
  model.reset_access_count();
  EXPECT_EQ(get<PRId>(), 0x2731u);
  EXPECT_EQ(model.accesses(), 0u);
  model.set_absent(true);
  EXPECT_EQ(get<PRId>(), 0x2731u) << "PRId exists on every MIPS core";
}

}  // namespace
