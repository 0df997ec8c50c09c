// The kit's conformance suite on the DWT: driver against model. The DWT declares no overflow,
// interrupt, link or sampling (kCapabilities): those parts are skipped by name; slots and widths,
// read-back, the wrap at each register's width (32 and 8 bits), narrowing and probe are checked.
#include "tests/host/conformance/conformance.hpp"

#include "hal/cortex_m_dwt/driver.hpp"
#include "hal/cortex_m_dwt/model.hpp"

namespace conformance {
namespace {

struct DwtTraits {
  using Bus = pmu::MockBus<DwtTraits>;
  using Driver = pmu::cortex_m_dwt::Driver<Bus>;
  using Model = pmu::cortex_m_dwt::Model;
  // Each slot counts its own thing: CYCCNT, then the events 1..5 (events.hpp).
  static pmu::EventConfig event_for(unsigned slot) {
    return {slot == 0 ? pmu::cortex_m_dwt::kCycCntEvent : slot, 0, 0};
  }
  static void count(Model& m, unsigned slot, std::uint64_t n) {
    if (slot == 0)
      m.cycles(n);
    else
      m.event(slot, n);
  }
  // A firmware's probe() sets DEMCR.TRCENA first: without it the DWT counts nothing.
  static void prepare(Model&) { pmu::Regs<Bus>::modify(pmu::cortex_m_dwt::demcr_trcena(1)); }
};

INSTANTIATE_TYPED_TEST_SUITE_P(cortex_m_dwt, Conformance, ::testing::Types<DwtTraits>);

}  // namespace
}  // namespace conformance
