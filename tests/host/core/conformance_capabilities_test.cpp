// The conformance suite follows what a driver declares (hal/core/driver.hpp, kCapabilities): a
// PMU that declares no overflow, no interrupt and no sampling (a counter that only wraps, as the
// Cortex-M DWT's CYCCNT) runs the suite's other parts and has those skipped by name, not failed.
// Here XScale's XSC2 driver and model, declared as a count-only PMU.
#include "tests/host/conformance/conformance.hpp"

#include "hal/xscale/driver.hpp"
#include "hal/xscale/model.hpp"

namespace conformance {
namespace {

template <class Bus>
struct CountOnly : pmu::xscale::Xsc2<Bus> {
  static constexpr pmu::Capabilities kCapabilities{.overflow = false, .interrupt = false, .link = false,
                                                   .sampling = false};
};

struct CountOnlyTraits {
  using Bus = pmu::MockBus<CountOnlyTraits>;
  using Driver = CountOnly<Bus>;
  using Model = pmu::xscale::Xsc2Model;
  static pmu::EventConfig event_for(unsigned slot) {
    return {slot == 0 ? pmu::xscale::kCcntEvent : pmu::xscale::event::INSTR, 0, 0};
  }
  static void count(Model& m, unsigned slot, std::uint64_t n) {
    if (slot == 0)
      m.cycles(n);
    else
      m.event(pmu::xscale::event::INSTR, n);
  }
};
static_assert(pmu::capabilities_sound<CountOnly<CountOnlyTraits::Bus>>());

using Traits = ::testing::Types<CountOnlyTraits>;
INSTANTIATE_TYPED_TEST_SUITE_P(count_only, Conformance, Traits);

}  // namespace
}  // namespace conformance
