// The NetBurst encoder: event strings in libpfm4's syntax to ESCR and CCCR values, checked field
// by field against the SDM's ESCR and CCCR layouts (18.15.2, 18.15.3), and every way a string can
// be wrong.
#include <gtest/gtest.h>

#include "hal/netburst/encode.hpp"

namespace {

using namespace pmu::netburst;

TEST(netburstEncode, GlobalPowerEventsRunningOnBothPrivilegeLevels) {
  const Request r = parse("global_power_events:RUNNING");
  ASSERT_EQ(r.error, EncodeError::none);
  // event select 0x13 at 30:25, mask bit 0 at 9, T0_OS|T0_USR|T1_OS|T1_USR.
  EXPECT_EQ(escr_value(r), 0x2600020Full);
  // ENABLE (12), ESCR select 6 (FSB_ESCRx) at 15:13, ACTIVE_THREAD 11b at 17:16.
  EXPECT_EQ(cccr_value(r), 0x3D000ull);
}

TEST(netburstEncode, NoMaskMeansTheDefaultMaskAndThePrefixIsOptional) {
  EXPECT_EQ(escr_value(parse("netburst::global_power_events")), 0x2600020Full);
  EXPECT_EQ(escr_value(parse("NETBURST_P::GLOBAL_POWER_EVENTS:running")), 0x2600020Full) << "case-insensitive";
}

TEST(netburstEncode, UserAndKernelSetBothThreadsBits) {
  EXPECT_EQ(escr_value(parse("global_power_events:RUNNING:u")) & 0xF, 0x5u) << "T0_USR | T1_USR";
  EXPECT_EQ(escr_value(parse("global_power_events:RUNNING:k")) & 0xF, 0xAu) << "T0_OS | T1_OS";
  EXPECT_EQ(escr_value(parse("global_power_events:RUNNING:u=1:k=0")) & 0xF, 0x5u);
  EXPECT_EQ(escr_value(parse("global_power_events:RUNNING:u:k")) & 0xF, 0xFu);
}

TEST(netburstEncode, CompareFiltersSetCompareToo) {
  const std::size_t row = event_row("instr_retired");
  ASSERT_LT(row, kNumEvents);
  const Request r = parse("instr_retired:NBOGUSNTAG:NBOGUSTAG:thr=3:cmpl");
  ASSERT_EQ(r.error, EncodeError::none);
  EXPECT_EQ(escr_value(r), (0x02ull << 25) | (0x3ull << 9) | 0xF);
  // ENABLE | select 4 (CRU_ESCR0/1) | ACTIVE_THREAD | COMPARE | COMPLEMENT | THRESHOLD 3.
  EXPECT_EQ(cccr_value(r), 0x1000ull | (4ull << 13) | 0x30000ull | (1ull << 18) | (1ull << 19) | (3ull << 20));
  EXPECT_EQ(cccr_value(parse("instr_retired:NBOGUSNTAG:e")), 0x1000ull | (4ull << 13) | 0x30000ull | (1ull << 18) | (1ull << 24));
  EXPECT_EQ(cccr_value(parse("instr_retired:NBOGUSNTAG:thr=0")) & (1ull << 18), 0u) << "thr=0 filters nothing";
}

TEST(netburstEncode, EveryRowEncodesItsOwnSelectAndEveryMask) {
  for (std::size_t i = 0; i < kNumEvents; ++i) {
    const NbEvent& e = kEvents[i];
    SCOPED_TRACE(e.name);
    for (std::size_t m = 0; m < e.num_masks; ++m) {
      char s[96]{};
      std::size_t n = 0;
      for (const char* p = e.name; *p;) s[n++] = *p++;
      s[n++] = ':';
      for (const char* p = e.masks[m].name; *p;) s[n++] = *p++;
      const Request r = parse(s);
      ASSERT_EQ(r.error, EncodeError::none) << s;
      EXPECT_EQ(r.event, i);
      EXPECT_EQ((escr_value(r) >> 25) & 0x3F, e.event_select);
      EXPECT_EQ((escr_value(r) >> 9) & 0xFFFF, 1u << e.masks[m].bit);
      EXPECT_EQ((cccr_value(r) >> 13) & 7, e.escr_select);
    }
  }
}

TEST(netburstEncode, BadStringsSayWhatIsWrongAndWhere) {
  struct Case {
    const char* s;
    EncodeError want;
  };
  const Case cases[] = {
      {"", EncodeError::syntax},
      {"global_power_events::u", EncodeError::syntax},
      {"global_power_events:thr=", EncodeError::syntax},
      {"global_power_events:thr=x", EncodeError::syntax},
      {"no_such_event", EncodeError::unknown_event},
      {"global_power_events:NBOGUS", EncodeError::unknown_mask},
      {"global_power_events:RUNNING:frobnicate", EncodeError::unknown_mask},
      {"global_power_events:thr=16", EncodeError::bad_value},
      {"global_power_events:u=2", EncodeError::bad_value},
      {"instr_retired", EncodeError::no_default_mask},  // as libpfm4: no default, name a mask
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.s);
    const Request r = parse(c.s);
    EXPECT_EQ(r.error, c.want) << encode_error_text(r.error);
  }
  const Request r = parse("global_power_events:RUNNING:bogus");
  EXPECT_EQ(r.error_at, 28u);
  EXPECT_EQ(r.error_len, 5u);
}

TEST(netburstEncode, ConstantStringsAreCheckedAtCompileTime) {
  constexpr Request r = checked("branch_retired:MMTP:MMTM");
  static_assert(escr_value(r) == ((0x06ull << 25) | ((0x4ull | 0x8ull) << 9) | 0xF));
  EXPECT_EQ(r.error, EncodeError::none);
}

}  // namespace
