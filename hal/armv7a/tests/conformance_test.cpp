// The kit's conformance suite on the ARMv7-A PMU: driver against model, for the common-event
// catalogs (6 and 4 event counters) and each core's catalog (Cortex-A15 6, Cortex-A7 4, Cortex-A9 6).
#include "tests/host/conformance/conformance.hpp"

#include "hal/armv7a/driver.hpp"
#include "hal/armv7a/model.hpp"

namespace conformance {
namespace {

using namespace pmu::armv7a;

// Ev: what the event counters count (the Cortex-A9 has no INST_RETIRED: its renaming-stage count).
template <unsigned N, const pmu::PmuCatalog& Catalog = kCatalog<N>, std::uint32_t Ev = event::INST_RETIRED>
struct Armv7aTraits {
  using Bus = pmu::MockBus<Armv7aTraits>;
  using Driver = Pmu<Bus, N, Catalog>;
  struct Model : pmu::armv7a::Model {
    Model() : pmu::armv7a::Model(ModelConfig{.counters = N}) {}
  };
  // Slot 0 is PMCCNTR (cycles only); the event counters count instructions.
  static pmu::EventConfig event_for(unsigned slot) { return {slot == 0 ? event::CPU_CYCLES : Ev, 0, 0}; }
  static void count(Model& m, unsigned slot, std::uint64_t n) {
    if (slot == 0)
      m.cycles(n);
    else
      m.event(Ev, n);
  }
};

using Traits = ::testing::Types<Armv7aTraits<6>, Armv7aTraits<4>, Armv7aTraits<6, kCortexA15Catalog>,
                                Armv7aTraits<4, kCortexA7Catalog>,
                                Armv7aTraits<6, kCortexA9Catalog, event::a9::INST_RENAMED>>;
INSTANTIATE_TYPED_TEST_SUITE_P(armv7a, Conformance, Traits);

}  // namespace
}  // namespace conformance
