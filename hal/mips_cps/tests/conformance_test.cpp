// The kit's conformance suite on the MIPS CM counters: driver against model.
#include "tests/host/conformance/conformance.hpp"

#include "hal/mips_cps/driver.hpp"
#include "hal/mips_cps/model.hpp"

namespace conformance {
namespace {

struct MipsCmTraits {
  using Bus = pmu::MockBus<MipsCmTraits>;
  using Driver = pmu::mips_cps::Driver<Bus>;
  using Model = pmu::mips_cps::Model;
  // Slot 0: CM cycles. Slots 1 and 2: event 9 (L2 hits/misses) with MediaTek's qualifier value.
  static pmu::EventConfig event_for(unsigned slot) {
    if (slot == 0) return {pmu::mips_cps::kCycleEvent, 0, 0};
    return {pmu::mips_cps::event::L2_HIT_MISS, 0x000C79FFu, 0};
  }
  static void count(Model& m, unsigned slot, std::uint64_t n) {
    if (slot == 0)
      m.cycles(n);
    else
      m.event(pmu::mips_cps::event::L2_HIT_MISS, n);
  }
  // The counters are shared by every VP: this one claims them first, as a firmware must.
  static void prepare(Model&) {
    Driver::force_release();
    (void)Driver::claim();
  }
};

INSTANTIATE_TYPED_TEST_SUITE_P(mips_cm, Conformance, ::testing::Types<MipsCmTraits>);

}  // namespace
}  // namespace conformance
