// The DWT model against the manual's rules (ARMv7-M ARM C1.6.5 DEMCR, C1.8.7 DWT_CTRL, C1.8.8 ..
// C1.8.13 the counters), through raw register accesses: what the driver tests then rely on.
#include <gtest/gtest.h>

#include "fixture.hpp"

namespace {

using namespace pmu::cortex_m_dwt;
using pmu::u32;
struct Tag;
using DwtModel = dwttest::Fixture<Tag>;

TEST_F(DwtModel, C1_6_5_NothingCountsWhileDemcrTrcenaIsClear) {
  put<DWT_CTRL>(kCycCntEna);  // ignored: TRCENA = 0
  model.cycles(10);
  EXPECT_EQ(model.cyccnt(), 0u);
  trace_on();
  EXPECT_EQ(get<DEMCR>(), 1u << 24);
  put<DWT_CTRL>(kCycCntEna);
  model.cycles(10);
  EXPECT_EQ(get<DWT_CYCCNT>(), 10u);
}

TEST_F(DwtModel, C1_8_8_CyccntCountsWhileCyccntenaAndWrapsAt32Bits) {
  trace_on();
  put<DWT_CYCCNT>(0xFFFFFFFEu);
  model.cycles(5);
  EXPECT_EQ(get<DWT_CYCCNT>(), 0xFFFFFFFEu) << "CYCCNTENA = 0: stopped";
  put<DWT_CTRL>(kCycCntEna);
  model.cycles(5);
  EXPECT_EQ(get<DWT_CYCCNT>(), 3u) << "wraps to 0";
  EXPECT_EQ(model.cyccnt_total(), 0xFFFFFFFEull + 5);
}

TEST_F(DwtModel, C1_8_9_EightBitCountersWrapAt256AndInitializeToZeroWhenEvtenaIsSet) {
  trace_on();
  put<DWT_CPICNT>(0xFE);
  model.event(event::CPICNT, 3);
  EXPECT_EQ(get<DWT_CPICNT>(), 1u) << "8 bits: wraps at 256";
  put<DWT_CTRL>(kCpiEvtEna);  // 0 -> 1: initialized to zero
  EXPECT_EQ(get<DWT_CPICNT>(), 0u);
  model.event(event::CPICNT, 7);
  put<DWT_CTRL>(kCpiEvtEna | kCycCntEna);  // stays 1: not initialized again
  EXPECT_EQ(get<DWT_CPICNT>(), 7u);
  model.event(event::LSUCNT, 2);
  EXPECT_EQ(get<DWT_LSUCNT>(), 2u) << "each counter counts its own thing";
  EXPECT_EQ(get<DWT_CPICNT>(), 7u);
}

TEST_F(DwtModel, C1_8_7_NocyccntAndNoprfcntVariantsReadOnlyAndTheirCountersAbsent) {
  model.set_no_cyccnt(true);
  model.set_no_prfcnt(true);
  trace_on();
  EXPECT_EQ(get<DWT_CTRL>() & (kNoCycCnt | kNoPrfCnt), kNoCycCnt | kNoPrfCnt);
  put<DWT_CTRL>(kCycCntEna | kCpiEvtEna);
  model.cycles(9);
  model.event(event::CPICNT, 9);
  EXPECT_EQ(get<DWT_CYCCNT>(), 0u);
  EXPECT_EQ(get<DWT_CPICNT>(), 0u);
  EXPECT_EQ(get<DWT_CTRL>() >> 28, 4u) << "NUMCOMP kept";
}

TEST_F(DwtModel, CoreSightLockIgnoresWritesUntilTheKeyIsWritten) {
  model.set_locked(true);
  trace_on();
  EXPECT_EQ(get<DWT_LSR>(), kLsrSli | kLsrSlk);
  put<DWT_CTRL>(kCycCntEna);
  EXPECT_EQ(get<DWT_CTRL>() & kCycCntEna, 0u) << "locked";
  put<DWT_LAR>(kLarKey);
  EXPECT_EQ(get<DWT_LSR>(), kLsrSli);
  put<DWT_CTRL>(kCycCntEna);
  EXPECT_EQ(get<DWT_CTRL>() & kCycCntEna, kCycCntEna);
}

}  // namespace
