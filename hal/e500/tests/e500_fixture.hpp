#pragma once
// Shared set-up for the e500 host tests: one MockBus per test binary (Tag), the behavioural model
// behind it (Readings: its switches, the manual's readings by default), and raw PMR access for
// tests that check the model itself.
#include <gtest/gtest.h>

#include "tests/host/conformance/bus_checks.hpp"

#include <cstdint>

#include "hal/core/bus/mock.hpp"
#include "hal/core/fault.hpp"
#include "hal/core/reg.hpp"
#include "hal/e500/driver.hpp"
#include "hal/e500/model.hpp"

namespace e500test {

using pmu::u32;
using pmu::u64;

template <class Tag, pmu::e500::Readings Readings = pmu::e500::Readings{}>
struct Fixture : ::testing::Test {
  using Bus = pmu::MockBus<Tag>;
  using R = pmu::Regs<Bus>;
  using D = pmu::e500::Driver<Bus>;
  static constexpr pmu::e500::Readings kReadings = Readings;

  pmu::e500::Model model{Readings};

  void SetUp() override {
    Bus::reset();
    Bus::device = &model;
    D::force_core(pmu::e500::Core::unknown);  // each test starts undetected: probe() reads PVR
  }
  void TearDown() override {
    conformance::expect_bus_clean<Bus>(conformance::Traps::allowed);
    Bus::reset();
  }

  // Raw mfpmr / mtpmr of PMR number N, as an instruction would do it.
  template <unsigned N>
  static u32 mfpmr() {
    return Bus::template read<pmu::Pmr<N>, u32>();
  }
  template <unsigned N>
  static void mtpmr(u32 v) {
    Bus::template write<pmu::Pmr<N>, u32>(v);
  }
  // True when the access trapped (caught as a probe would catch it).
  template <unsigned N>
  static bool mfpmr_traps() {
    return pmu::fault::traps([] { (void)mfpmr<N>(); });
  }
  template <unsigned N>
  static bool mtpmr_traps(u32 v) {
    return pmu::fault::traps([v] { mtpmr<N>(v); });
  }

  // Index of the first log entry for this PMR and operation at or after `from`, or log_size.
  static std::size_t find_in_log(unsigned pmr, pmu::MockOp op, std::size_t from = 0) {
    const u32 key = pmu::detail::make_key(pmu::BusKind::pmr, pmr);
    for (std::size_t i = from; i < Bus::log_size; ++i)
      if (Bus::log[i].key == key && Bus::log[i].op == op) return i;
    return Bus::log_size;
  }
  static std::size_t count_ops(pmu::MockOp op) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < Bus::log_size; ++i) n += Bus::log[i].op == op;
    return n;
  }
};

inline constexpr pmu::e500::Context kSup{false, false};
inline constexpr pmu::e500::Context kSupMarked{false, true};
inline constexpr pmu::e500::Context kUser{true, false};
inline constexpr pmu::e500::Context kUserMarked{true, true};

// PMLCa values built by hand from CRM Table 7-4 (independent of the driver's field objects).
inline constexpr u32 FC = 0x80000000u, FCS = 0x40000000u, FCU = 0x20000000u, FCM1 = 0x10000000u,
                     FCM0 = 0x08000000u, CE = 0x04000000u;
constexpr u32 EV(u32 code) { return code << 16; }
// PMGC0 (Table 7-3).
inline constexpr u32 FAC = 0x80000000u, PMIE = 0x40000000u, FCECE = 0x20000000u;

}  // namespace e500test
