// The register engine (hal/core/reg.hpp) against MockBus: what goes on the bus, in what order,
// with which value. Suites are named core* so `ctest -R core` selects them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "test_regs.hpp"

namespace coretest {
namespace {

struct EngineTag {};
using Bus = pmu::MockBus<EngineTag>;
using R = pmu::Regs<Bus>;
using pmu::MockOp;

// What field_error_hook received.
struct HookLog {
  int calls = 0;
  std::string reg, field;  // of the last call
  u64 value = 0;
  std::string fields;  // every field reported, space-separated, in call order
};
HookLog hook_log;
void record_hook(const char* reg, const char* field, u64 value) {
  ++hook_log.calls;
  hook_log.reg = reg;
  hook_log.field = field;
  hook_log.value = value;
  hook_log.fields += std::string(hook_log.fields.empty() ? "" : " ") + field;
}

class coreEngine : public ::testing::Test {
 protected:
  void SetUp() override {
    Bus::reset();
    hook_log = HookLog{};
    pmu::field_error_hook = record_hook;
  }
  void TearDown() override {
    pmu::field_error_hook = nullptr;
    EXPECT_FALSE(Bus::register_file_full);
    EXPECT_EQ(Bus::log_dropped, 0u);
    EXPECT_EQ(Bus::unexpected_traps, 0u);
  }
  // The i-th logged access, checked in one go.
  static void expect_access(std::size_t i, std::uint32_t key, MockOp op, u64 value) {
    ASSERT_LT(i, Bus::log_size);
    EXPECT_EQ(Bus::log[i].key, key) << "access " << i;
    EXPECT_EQ(Bus::log[i].op, op) << "access " << i;
    EXPECT_EQ(Bus::log[i].value, value) << "access " << i;
    EXPECT_FALSE(Bus::log[i].trapped) << "access " << i;
  }
};

constexpr std::uint32_t kCtrl = CTRL::location::key;

// ---------------------------------------------------------------------------------------------
// modify(): exactly one read and one write

TEST_F(coreEngine, ModifyIsExactlyOneReadThenOneWrite) {
  Bus::poke<CTRL>(0x00055001);  // E=1, EVT0=0x55
  R::modify(ctrl_d(1), ctrl_evt1(0x2A));
  ASSERT_EQ(Bus::log_size, 2u);
  expect_access(0, kCtrl, MockOp::read, 0x00055001);
  expect_access(1, kCtrl, MockOp::write, 0x02A55009);  // D and EVT1 set, E and EVT0 kept
  EXPECT_EQ(Bus::count<CTRL>(MockOp::read), 1u);
  EXPECT_EQ(Bus::count<CTRL>(MockOp::write), 1u);
  EXPECT_EQ(Bus::peek<CTRL>(), 0x02A55009u);
}

TEST_F(coreEngine, ModifyReplacesTheWholeFieldNotJustSetsBits) {
  Bus::poke<CTRL>(0x000FF000);  // EVT0 = 0xFF
  R::modify(ctrl_evt0(0x12));
  EXPECT_EQ(Bus::peek<CTRL>(), 0x00012000u);
  R::modify(ctrl_evt0(0));
  EXPECT_EQ(Bus::peek<CTRL>(), 0x00000000u);
}

TEST_F(coreEngine, ModifyLaterFieldOfSameNameWins) {
  // Naming a field twice is legal; the last value is the one written (left-to-right fold).
  Bus::poke<CTRL>(0);
  R::modify(ctrl_evt0(1), ctrl_evt0(2));
  EXPECT_EQ(Bus::peek<CTRL>(), 0x00002000u);
}

// ---------------------------------------------------------------------------------------------
// W1C: never cleared by accident

TEST_F(coreEngine, ModifyNeverClearsUnnamedW1CFlags) {
  Bus::poke<CTRL>(0x00000701);  // all three flags pending, E=1
  R::modify(ctrl_d(1));
  // Writing the flags back as 1 would clear them: they must be written as 0.
  expect_access(1, kCtrl, MockOp::write, 0x00000009);
}

TEST_F(coreEngine, ModifyClearsOnlyTheNamedW1CFlag) {
  Bus::poke<CTRL>(0x00000701);
  R::modify(ctrl_ovf1(1));
  expect_access(1, kCtrl, MockOp::write, 0x00000201);
}

TEST_F(coreEngine, ModifyW1CNamedAsZeroClearsNothing) {
  Bus::poke<CTRL>(0x00000700);
  R::modify(ctrl_ovfc(0), ctrl_e(1));
  expect_access(1, kCtrl, MockOp::write, 0x00000001);
}

// ---------------------------------------------------------------------------------------------
// Action bits and modify_raw

TEST_F(coreEngine, ModifyNeverWritesBackAnActionBitThatReadsAsOne) {
  Bus::poke<ACT>(0x13);  // RST reads back 1 (unpredictable), a flag is pending, EN=1
  R::modify(act_en(0));
  EXPECT_EQ(Bus::count<ACT>(MockOp::write), 1u);
  EXPECT_EQ(Bus::log[1].value, 0x00u);  // neither the action nor the flag sent back
}

TEST_F(coreEngine, ModifyStillSendsANamedAction) {
  Bus::poke<ACT>(0x01);
  R::modify(act_rst(1));
  EXPECT_EQ(Bus::log[1].value, 0x03u);  // EN kept, RST requested
}

TEST_F(coreEngine, ModifyRawClearsThenSetsInOneReadAndOneWrite) {
  Bus::poke<CTRL>(0x00003701);  // E=1, EVT0=3, all flags pending
  R::modify_raw<CTRL>(0x000FF000, 0x00005008);  // EVT0 := 5, D := 1
  EXPECT_EQ(Bus::log_size, 2u);
  EXPECT_EQ(Bus::log[0].op, MockOp::read);
  // Flags written as 0 (not cleared) because they were not in `set`.
  EXPECT_EQ(Bus::log[1].value, 0x00005009u);
}

TEST_F(coreEngine, ModifyRawClearsOnlyTheFlagsItSets) {
  Bus::poke<ACT>(0x13);
  R::modify_raw<ACT>(0, 0x10);  // clear the pending flag; RST must not go back as read
  EXPECT_EQ(Bus::log[1].value, 0x11u);
}

TEST_F(coreEngine, WriteToW1CRegisterSendsOnlyTheNamedFlags) {
  Bus::poke<FLAG>(0x1F);  // every flag pending
  R::write(flag_ccnt(1), flag_pmn3(1));
  ASSERT_EQ(Bus::log_size, 1u);  // write() never reads
  expect_access(0, FLAG::location::key, MockOp::write, 0x11);
}

// ---------------------------------------------------------------------------------------------
// write(): unnamed fields take their reset value, W1C bits 0, write-as-zero bits masked

TEST_F(coreEngine, WriteSendsResetValueForUnnamedFields) {
  Bus::poke<CTRL>(0x0FFFF709);  // whatever the register holds must not matter to write()
  R::write(ctrl_e(1));
  ASSERT_EQ(Bus::log_size, 1u);
  expect_access(0, kCtrl, MockOp::write, 0x00003001);  // EVT0 keeps its reset value 0x03
}

TEST_F(coreEngine, WriteNamedFieldOverridesItsResetValue) {
  R::write(ctrl_evt0(0xA5), ctrl_evt1(0x5A));
  expect_access(0, kCtrl, MockOp::write, 0x05AA5000);
}

TEST_F(coreEngine, WriteSendsZeroForW1CBitsEvenWhenResetHasThem) {
  // CTRL2 resets to 0x181, bit 8 is W1C: the write must carry 0x81 | A.
  R::write(ctrl2_a(0));
  expect_access(0, CTRL2::location::key, MockOp::write, 0x00000080);
  R::write(ctrl2_b(1), ctrl2_f(1));
  expect_access(1, CTRL2::location::key, MockOp::write, 0x00000183);
}

TEST_F(coreEngine, WriteToWriteOnlyRegisterUsesItsResetValue) {
  R::write(cmd_op(0x7));
  ASSERT_EQ(Bus::log_size, 1u);
  expect_access(0, CMD::location::key, MockOp::write, 0x00000017);
}

TEST_F(coreEngine, WriteRawMasksWriteAsZeroBits) {
  R::write_raw<CTRL>(0xFFFFFFFF);
  expect_access(0, kCtrl, MockOp::write, 0x0FFFF709);
  R::write_raw<FLAG>(0xFFFFFFE1);
  expect_access(1, FLAG::location::key, MockOp::write, 0x00000001);
}

TEST_F(coreEngine, ModifyDropsReadOnlyAndWriteAsZeroBitsItRead) {
  // REV (RO, bits 31:28) and the reserved bits 1, 2, 4-7, 11 read as 1 but are written as 0.
  Bus::poke<CTRL>(0xF00008F6);
  R::modify(ctrl_e(1));
  expect_access(1, kCtrl, MockOp::write, 0x00000001);
}

// ---------------------------------------------------------------------------------------------
// Run-time values: masked, and reported to field_error_hook with register and field names

TEST_F(coreEngine, RuntimeValueInRangeIsNotReported) {
  volatile unsigned ev = 0xFF;  // volatile: really a run-time value
  R::write(ctrl_evt1.runtime(ev));
  EXPECT_EQ(hook_log.calls, 0);
  expect_access(0, kCtrl, MockOp::write, 0x0FF03000);
}

TEST_F(coreEngine, RuntimeOverflowInWriteIsMaskedAndReported) {
  volatile unsigned ev = 0x1AB;
  R::write(ctrl_evt0.runtime(ev));
  EXPECT_EQ(hook_log.calls, 1);
  EXPECT_EQ(hook_log.reg, "CTRL");
  EXPECT_EQ(hook_log.field, "EVT0");
  EXPECT_EQ(hook_log.value, 0x1ABu);
  expect_access(0, kCtrl, MockOp::write, 0x000AB000);  // masked to 0xAB, EVT1 untouched
}

TEST_F(coreEngine, RuntimeOverflowInModifyIsMaskedAndReported) {
  Bus::poke<CTRL>(0x00000001);
  volatile unsigned d = 2;  // 1-bit field
  R::modify(ctrl_d.runtime(d));
  EXPECT_EQ(hook_log.calls, 1);
  EXPECT_EQ(hook_log.reg, "CTRL");
  EXPECT_EQ(hook_log.field, "D");
  EXPECT_EQ(hook_log.value, 2u);
  expect_access(1, kCtrl, MockOp::write, 0x00000001);  // D = 2 & 1 = 0; no carry into bit 4
}

TEST_F(coreEngine, NegativeRuntimeValueIsReportedNotWrapped) {
  volatile int ev = -1;
  R::write(ctrl_evt1.runtime(ev));
  EXPECT_EQ(hook_log.calls, 1);
  EXPECT_EQ(hook_log.field, "EVT1");
  EXPECT_EQ(hook_log.value, 0xFFFFFFFFFFFFFFFFull);
  expect_access(0, kCtrl, MockOp::write, 0x0FF03000);
}

TEST_F(coreEngine, EachOverflowingFieldIsReportedOnce) {
  volatile unsigned a = 0x100, b = 0x200;
  R::write(ctrl_evt0.runtime(a), ctrl_evt1.runtime(b));
  EXPECT_EQ(hook_log.calls, 2);
  // Function arguments are evaluated in an unspecified order: accept either.
  EXPECT_TRUE(hook_log.fields == "EVT0 EVT1" || hook_log.fields == "EVT1 EVT0") << hook_log.fields;
  expect_access(0, kCtrl, MockOp::write, 0x00000000);
}

TEST_F(coreEngine, OverflowWithoutHookIsMaskedSilently) {
  pmu::field_error_hook = nullptr;
  volatile unsigned ev = 0x123;
  R::write(ctrl_evt0.runtime(ev));
  EXPECT_EQ(hook_log.calls, 0);
  expect_access(0, kCtrl, MockOp::write, 0x00023000);
}

TEST_F(coreEngine, EnumValuesAreAccepted) {
  enum class Event : std::uint8_t { icache_miss = 0x00, dcache_miss = 0x0B };
  R::write(ctrl_evt0(Event::dcache_miss));
  EXPECT_EQ(hook_log.calls, 0);
  expect_access(0, kCtrl, MockOp::write, 0x0000B000);
}

TEST_F(coreEngine, CompileTimeValueIsNotReported) {
  R::write(ctrl_evt0.val<0xFF>(), ctrl_e.val<1>());
  EXPECT_EQ(hook_log.calls, 0);
  expect_access(0, kCtrl, MockOp::write, 0x000FF001);
}

// ---------------------------------------------------------------------------------------------
// Reads and snapshots

TEST_F(coreEngine, ReadFieldIsOneReadAndExtractsTheField) {
  Bus::poke<CTRL>(0xA2B5C701);
  EXPECT_EQ(R::read(ctrl_evt0), 0x5Cu);
  EXPECT_EQ(R::read(ctrl_evt1), 0x2Bu);
  EXPECT_EQ(R::read(ctrl_rev), 0xAu);
  EXPECT_EQ(R::read(ctrl_ovf1), 1u);
  EXPECT_EQ(R::read(status_gen), 0u);
  EXPECT_EQ(Bus::count<CTRL>(MockOp::read), 4u);
  EXPECT_EQ(Bus::count<CTRL>(MockOp::write), 0u);
}

TEST_F(coreEngine, SnapshotIsOneReadAndDecodesWithoutTouchingTheBus) {
  Bus::poke<CTRL>(0xA2B5C309);
  const auto s = R::read<CTRL>();
  ASSERT_EQ(Bus::log_size, 1u);
  EXPECT_EQ(s.raw, 0xA2B5C309u);
  EXPECT_EQ(s.get(ctrl_e), 1u);
  EXPECT_EQ(s.get(ctrl_d), 1u);
  EXPECT_TRUE(s.test(ctrl_ovf0));
  EXPECT_TRUE(s.test(ctrl_ovf1));
  EXPECT_FALSE(s.test(ctrl_ovfc));
  EXPECT_EQ(s.get(ctrl_evt0), 0x5Cu);
  EXPECT_EQ(s.get(ctrl_evt1), 0x2Bu);
  EXPECT_EQ(s.get(ctrl_rev), 0xAu);
  Bus::poke<CTRL>(0);  // the hardware changes; the copy does not
  EXPECT_EQ(s.get(ctrl_evt0), 0x5Cu);
  EXPECT_EQ(Bus::log_size, 1u);  // decoding did not read again
}

TEST_F(coreEngine, SnapshotOfAValueNeedsNoBusAtAll) {
  constexpr pmu::Snapshot<CTRL> s{0x00000400};
  static_assert(s.test(ctrl_ovfc) && !s.test(ctrl_e));  // usable at compile time
  EXPECT_EQ(s.get(ctrl_ovfc), 1u);
  EXPECT_EQ(Bus::log_size, 0u);
}

TEST_F(coreEngine, ReadOnlyRegisterReads) {
  Bus::poke<STATUS>(0x69054117);  // PXA270 MIDR: bits 15:13 = 2 (XSC2)
  EXPECT_EQ(R::read_raw<STATUS>(), 0x69054117u);
  EXPECT_EQ(R::read(status_gen), 2u);
}

// ---------------------------------------------------------------------------------------------
// 64-bit registers

TEST_F(coreEngine, FortyBitFieldOfA64BitMsrReads) {
  Bus::poke<CNT40>(0xABCD'0012'3456'789Aull);
  EXPECT_EQ(R::read(cnt40_count), 0x12'3456'789Aull);
  EXPECT_EQ(R::read(cnt40_high8), 0x12u);
  EXPECT_EQ(R::read(cnt40_bit39), 0u);
  EXPECT_EQ(R::read_raw<CNT40>(), 0xABCD'0012'3456'789Aull);
  Bus::poke<CNT40>(0x0000'0080'0000'0000ull);
  EXPECT_EQ(R::read(cnt40_bit39), 1u);
}

TEST_F(coreEngine, FortyBitFieldWritesAllFortyBits) {
  R::write(cnt40_count(0xFF'FFFF'FFFEull));  // -2 as a 40-bit preset
  EXPECT_EQ(hook_log.calls, 0);
  expect_access(0, CNT40::location::key, MockOp::write, 0xFF'FFFF'FFFEull);
}

TEST_F(coreEngine, FortyBitOverflowIsMaskedAndReported) {
  volatile std::uint64_t v = 0x1'23'4567'89ABull;  // bit 40 set, known only at run time
  R::write(cnt40_count.runtime(v));
  EXPECT_EQ(hook_log.calls, 1);
  EXPECT_EQ(hook_log.reg, "CNT40");
  EXPECT_EQ(hook_log.field, "count");
  EXPECT_EQ(hook_log.value, 0x1'23'4567'89ABull);
  expect_access(0, CNT40::location::key, MockOp::write, 0x23'4567'89ABull);
}

TEST_F(coreEngine, SixtyFourBitWriteRawMasksReservedHighBits) {
  R::write_raw<CNT40>(0xFFFF'FFFF'FFFF'FFFFull);
  expect_access(0, CNT40::location::key, MockOp::write, 0xFF'FFFF'FFFFull);
}

TEST_F(coreEngine, SixtyFourBitModifyKeepsTheHighHalf) {
  Bus::poke<WIDE>(0x8000'0002'0000'0FFFull);  // top=1, mid bit 0 (bit 33) = 1, lo=0xFFF
  R::modify(wide_lo(0x123), wide_mid(0x3FFF'FFFF));
  expect_access(1, WIDE::location::key, MockOp::write, 0xFFFF'FFFE'0000'0123ull);
  R::modify(wide_top(0));
  expect_access(3, WIDE::location::key, MockOp::write, 0x7FFF'FFFE'0000'0123ull);
  EXPECT_EQ(R::read(wide_mid), 0x3FFF'FFFFull);
}

// ---------------------------------------------------------------------------------------------
// Descriptors: what the types say (compile-time facts, checked so a change shows up here)

TEST_F(coreEngine, DescriptorsCarryNamesMasksAndAccess) {
  EXPECT_STREQ(CTRL::name, "CTRL");
  EXPECT_STREQ(decltype(ctrl_evt0)::name, "EVT0");
  EXPECT_EQ(decltype(ctrl_evt0)::mask, 0x000FF000u);
  EXPECT_EQ(decltype(ctrl_evt0)::max, 0xFFu);
  EXPECT_EQ(decltype(cnt40_count)::mask, 0xFF'FFFF'FFFFull);
  EXPECT_EQ(decltype(wide_top)::mask, 0x8000'0000'0000'0000ull);
  EXPECT_EQ(CTRL::w1c_mask, 0x700u);
  EXPECT_EQ(CMD::access, Access::WO);
  static_assert(std::is_same_v<decltype(R::read(cnt40_count)), u64>);
  static_assert(std::is_same_v<decltype(R::read(ctrl_e)), u32>);
  // Same encoding, different bus kinds: different mock registers.
  EXPECT_NE(CTRL::location::key, GCR_CTL::location::key);
  EXPECT_NE(CCNT::location::key, PMN0::location::key);
}

}  // namespace
}  // namespace coretest
