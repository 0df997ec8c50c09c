// The PMU kit's core pieces, each against values worked out by hand: register families and their
// names, per-slot field arrays, MSB-0 fields, multi-register apply, slot dispatch, the narrowing
// policy, the composite bus, catalog soundness, the driver base, the model harness's counters.
#include <gtest/gtest.h>

#include <cstring>

#include "hal/core/bus/composite.hpp"
#include "hal/core/bus/mock.hpp"
#include "hal/core/driver.hpp"
#include "hal/core/event.hpp"
#include "hal/core/model/harness.hpp"
#include "hal/core/reg.hpp"
#include "hal/core/slots.hpp"

namespace {

using namespace pmu;
struct KitTag;
using Bus = MockBus<KitTag>;
using R = Regs<Bus>;

template <unsigned N>
using CntAt = Pmr<16 + N>;
using CNT = Family<"CNT", 12, CntAt, u32>;

// SEL: four 8-bit selects; ENA: one enable per slot at bits 4..7; OVF: W1C flags at 0..3, plus a
// RW bit 8 in the same register; IRREG: three 1-bit elements at scattered positions.
using SEL = Reg<"SEL", Pmr<100>, u32>;
using ENA = Reg<"ENA", Pmr<101>, u32, pmu::Layout<u32>{.write_mask = 0xF0}>;
using OVF = Reg<"OVF", Pmr<102>, u32, pmu::Layout<u32>{.write_mask = 0x10F, .w1c = 0x00F}>;
using IRREG = Reg<"IRREG", Pmr<103>, u32>;
inline constexpr FieldArrayStrided<SEL, 0, 8, 8, 4, Access::RW, "sel"> sel{};
inline constexpr FieldArrayStrided<ENA, 4, 1, 1, 4, Access::RW, "ena"> ena{};
inline constexpr FieldArrayStrided<OVF, 0, 1, 1, 4, Access::W1C, "ovf"> ovf{};
inline constexpr Field<OVF, 8, 1, Access::RW, "run"> ovf_run{};
inline constexpr FieldArray<IRREG, 1, Access::RW, "irr", 6, 4, 5> irr{};
// PowerPC numbering: bits 41..47 of a 32-bit register numbered 32..63.
inline constexpr FieldMsb0<SEL, 41, 47, Access::RW, "EVENT"> msb_event{};

struct Hook {
  static inline int calls = 0;
  static inline std::string field;
  static void on(const char*, const char* f, u64) {
    ++calls;
    field = f;
  }
};

class coreKit : public ::testing::Test {
 protected:
  void SetUp() override {
    Bus::reset();
    Hook::calls = 0;
    field_error_hook = &Hook::on;
  }
  void TearDown() override { field_error_hook = nullptr; }
};

TEST_F(coreKit, FamilyMembersNameThemselves) {
  EXPECT_STREQ(CNT::reg<0>::name, "CNT0");
  EXPECT_STREQ(CNT::reg<3>::name, "CNT3");
  EXPECT_STREQ(CNT::reg<11>::name, "CNT11");
  EXPECT_EQ(CNT::reg<11>::location::number, 27u);
  using List = FamilyRegs<CNT>;
  static_assert(List::count == 12);
  static_assert(std::is_same_v<List::at<5>, CNT::reg<5>>);
}

TEST_F(coreKit, Msb0FieldsUseTheManualsNumbers) {
  EXPECT_EQ(msb_event.offset, 16u);  // 63 - 47
  EXPECT_EQ(msb_event.width, 7u);    // 41..47
  EXPECT_EQ(msb_event.mask, 0x007F0000u);
}

TEST_F(coreKit, FieldArrayElementsAreTypedAndChecked) {
  EXPECT_EQ(sel.mask(2), 0x00FF0000u);
  EXPECT_EQ(sel.mask(4), 0u) << "no element 4";
  EXPECT_EQ(ena.mask_of(0b1010), 0xA0u);
  EXPECT_EQ(ena.slots_set(0x50), 0b0101u);
  EXPECT_EQ(irr.mask_of(0b011), 0x50u);  // element 0 at bit 6, element 1 at bit 4
  EXPECT_EQ(irr.slots_set(0x20), 0b100u);
  R::modify(sel.at(1, 0x2A));
  EXPECT_EQ(Bus::peek<SEL>(), 0x00002A00u);
  volatile unsigned wide = 0x1FF;
  R::modify(sel.at(3, wide));
  EXPECT_EQ(Bus::peek<SEL>(), 0xFF002A00u) << "masked to the element";
  EXPECT_EQ(Hook::calls, 1);
  EXPECT_EQ(Hook::field, "sel");
  R::modify(sel.at(7, 1));  // no element 7: nothing written where it does not belong
  EXPECT_EQ(Bus::peek<SEL>(), 0xFF002A00u);
  EXPECT_EQ(Hook::calls, 2);
  EXPECT_EQ(R::read<SEL>().get(sel, 1), 0x2Au);
}

TEST_F(coreKit, W1CArrayClearsOnlyTheNamedFlags) {
  Bus::poke<OVF>(0x10F);  // run bit set, all four flags set
  R::modify(ovf.each(0b0100, 1), ovf_run(1));
  // One read, one write: the named flag written 1, the other flags 0 (no change), run kept.
  ASSERT_EQ(Bus::log_size, 2u);
  EXPECT_EQ(Bus::log[1].value, 0x104u);
}

TEST_F(coreKit, ApplyIsOneReadModifyWritePerRegister) {
  Bus::poke<SEL>(0x11223344);
  Bus::poke<ENA>(0x30);
  R::apply(sel.at(0, 0xAA), ena.each(0b1000, 1), sel.at(2, 0xBB), ena.each(0b0001, 0));
  ASSERT_EQ(Bus::log_size, 4u) << "SEL read+write, ENA read+write";
  EXPECT_EQ(Bus::log[0].key, SEL::location::key);
  EXPECT_EQ(Bus::log[1].value, 0x11BB33AAu);
  EXPECT_EQ(Bus::log[2].key, ENA::location::key);
  EXPECT_EQ(Bus::log[3].value, 0xA0u) << "bit 7 set, bit 4 cleared, bit 5 kept";
  // Later values of the same register win, left to right.
  Bus::clear_log();
  R::apply(sel.at(0, 1), sel.at(0, 2));
  EXPECT_EQ(Bus::peek<SEL>() & 0xFF, 2u);
}

TEST_F(coreKit, SlotDispatchAndLoops) {
  unsigned seen = 99;
  EXPECT_TRUE(for_slot<4>(2, [&](auto s) { seen = decltype(s)::value; }));
  EXPECT_EQ(seen, 2u);
  EXPECT_FALSE(for_slot<4>(4, [&](auto) { seen = 77; }));
  EXPECT_EQ(seen, 2u);
  unsigned order = 0;
  for_each_slot<8>(0b10100101u, [&](auto s) { order = order * 10 + decltype(s)::value; });
  EXPECT_EQ(order, 257u * 1 + 0u) << "0, 2, 5, 7 in order";
}

struct OtherBus {
  static constexpr BusKind kind = BusKind::msr;
  static inline int reads = 0;
  template <class Loc, class T>
  static T read() {
    ++reads;
    return T{0x77};
  }
  template <class Loc, class T>
  static void write(T) {}
};

struct PmrOnly {
  static constexpr BusKind kind = BusKind::pmr;
  template <class Loc, class T>
  static T read() {
    return Bus::read<Loc, T>();
  }
  template <class Loc, class T>
  static void write(T v) {
    Bus::write<Loc, T>(v);
  }
};

TEST_F(coreKit, CompositeBusRoutesEachLocationKind) {
  using Both = CompositeBus<PmrOnly, OtherBus>;
  using MSRREG = Reg<"M", Msr<0x300>, u64>;
  Bus::poke<SEL>(0x5);
  OtherBus::reads = 0;
  EXPECT_EQ(Regs<Both>::read_raw<SEL>(), 0x5u);
  EXPECT_EQ(Regs<Both>::read_raw<MSRREG>(), 0x77u);
  EXPECT_EQ(OtherBus::reads, 1);
}

TEST_F(coreKit, CounterDriverNarrowsOnePolicy) {
  using D = CounterDriver<Bus, FamilyRegs<CNT>, 31>;
  const u32 before = field_errors;
  D::write(3, 0x1'0000'0001ull);  // 33 bits into a 32-bit counter
  EXPECT_EQ(Bus::peek<CNT::reg<3>>(), 1u);
  EXPECT_EQ(field_errors, before + 1);
  EXPECT_EQ(Hook::calls, 1);
  D::write(12, 5);  // no slot 12
  EXPECT_EQ(field_errors, before + 2);
  EXPECT_EQ(D::read(3), 1u);
  EXPECT_EQ(D::read(12), 0u);
  EXPECT_EQ(D::width(11), 31u);
  EXPECT_EQ(D::width(12), 0u);
}

TEST_F(coreKit, CounterBankWrapsAtItsWidth) {
  model::CounterBank<2> b40{40};
  b40.set(0, 0xFF'FFFF'FFFEull);
  EXPECT_EQ(b40.add(0, 3), 1u);
  EXPECT_EQ(b40.get(0), 1u);
  EXPECT_EQ(b40.add(0, (3ull << 40) + 1), 3u);
  EXPECT_EQ(b40.get(0), 2u);
  EXPECT_EQ(b40.wraps(0), 4u);
  model::CounterBank<1> b32{32};
  b32.set(0, 0x1'2345'6789ull);
  EXPECT_EQ(b32.get(0), 0x2345'6789u) << "set masks to the width";
}

constexpr EventInfo kGood[] = {{1, "A", "", 0x3, 0}, {2, "B", "", 0x1, 0}, {0x100, "D", "", 0, 0}};
constexpr PresetBinding kGoodP[] = {{Preset::cycles, 0x100, 0}, {Preset::instructions, 1, 0x2}};
constexpr PmuCatalog good{"g", "", 32, 2, kGood, 3, kGoodP, 2, 8};
static_assert(catalog_sound(good));
constexpr EventInfo kDup[] = {{1, "A", "", 0x1, 0}, {1, "B", "", 0x1, 0}};
constexpr EventInfo kWide[] = {{0x100, "A", "", 0x1, 0}};
constexpr EventInfo kBeyond[] = {{1, "A", "", 0x4, 0}};
constexpr PresetBinding kBadP[] = {{Preset::cycles, 9, 0x1}};
constexpr PresetBinding kWiderP[] = {{Preset::cycles, 2, 0x3}};
static_assert(catalog_fault({"d", "", 32, 2, kDup, 2, nullptr, 0, 8}) == CatalogFault::duplicate_code);
static_assert(catalog_fault({"w", "", 32, 2, kWide, 1, nullptr, 0, 8}) == CatalogFault::code_too_wide);
static_assert(catalog_fault({"b", "", 32, 2, kBeyond, 1, nullptr, 0, 8}) ==
              CatalogFault::counter_outside_pmu);
static_assert(catalog_fault({"p", "", 32, 2, kGood, 3, kBadP, 1, 8}) ==
              CatalogFault::preset_without_event);
static_assert(catalog_fault({"q", "", 32, 2, kGood, 3, kWiderP, 1, 8}) ==
              CatalogFault::preset_counters_not_subset);

TEST_F(coreKit, CatalogLookups) {
  EXPECT_EQ(event_index(good, 2), 1u);
  EXPECT_EQ(event_index(good, 3), 3u) << "a miss is the table's size";
  EXPECT_STREQ(event_name(good, 0x100), "D");
  EXPECT_STREQ(event_name(good, 7), "?");
  EXPECT_EQ(event_counters(good, 1), 0x3u);
  EXPECT_TRUE(has_preset(good, Preset::instructions));
  EXPECT_FALSE(has_preset(good, Preset::branches));
  EXPECT_EQ(event_index_by_name(good, "B"), 1u);
  EXPECT_EQ(event_index_by_name(good, "BB"), 3u);
}

}  // namespace

// Select-then-access (location.hpp, Selected<>): a register behind a select register is reached as
// the select write, the bus's select_barrier(), then the access, in that order; each selected
// register is its own register (the mock files it under the select's value).
namespace {
using SELR = Reg<"SELR", Pmr<200>, u32>;
using BankedData = Banked<Pmr<201>>;
template <unsigned N>
using DataAt = Selected<Pmr<200>, N, BankedData>;
using DATA = Family<"DATA", 4, DataAt, u32>;
}  // namespace

TEST_F(coreKit, SelectedRegisterIsSelectBarrierAccess) {
  R::write_raw<DATA::reg<1>>(11);
  R::write_raw<DATA::reg<3>>(33);
  ASSERT_EQ(Bus::log_size, 6u);
  EXPECT_EQ(Bus::log[0].key, SELR::location::key);
  EXPECT_EQ(Bus::log[0].value, 1u);
  EXPECT_EQ(Bus::log[1].op, MockOp::barrier);
  EXPECT_EQ(Bus::log[2].key, BankedData::key);
  EXPECT_EQ(Bus::log[2].op, MockOp::write);
  Bus::clear_log();
  EXPECT_EQ(R::read_raw<DATA::reg<1>>(), 11u);
  EXPECT_EQ(R::read_raw<DATA::reg<3>>(), 33u);
  EXPECT_EQ(Bus::peek<DATA::reg<3>>(), 33u) << "filed under select value 3";
  EXPECT_EQ(Bus::count<SELR>(MockOp::write), 2u);
  EXPECT_EQ(Bus::log[2].op, MockOp::read);
  // A read of a counter behind a select costs three instructions, a direct one one.
  static_assert(CounterDriver<Bus, FamilyRegs<DATA>, 32>::read_instructions<0>() == 3);
  static_assert(CounterDriver<Bus, FamilyRegs<CNT>, 32>::read_instructions<0>() == 1);
}
