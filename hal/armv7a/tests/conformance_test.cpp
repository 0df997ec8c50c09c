// The kit's conformance suite on the ARMv7-A PMU (6 and 4 event counters): driver against model.
#include "tests/host/conformance/conformance.hpp"

#include "hal/armv7a/driver.hpp"
#include "hal/armv7a/model.hpp"

namespace conformance {
namespace {

using namespace pmu::armv7a;

template <unsigned N>
struct Armv7aTraits {
  using Bus = pmu::MockBus<Armv7aTraits>;
  using Driver = Pmu<Bus, N>;
  struct Model : pmu::armv7a::Model {
    Model() : pmu::armv7a::Model(ModelConfig{.counters = N}) {}
  };
  // Slot 0 is PMCCNTR (cycles only); the event counters count instructions.
  static pmu::EventConfig event_for(unsigned slot) {
    return {slot == 0 ? event::CPU_CYCLES : event::INST_RETIRED, 0, 0};
  }
  static void count(Model& m, unsigned slot, std::uint64_t n) {
    if (slot == 0)
      m.cycles(n);
    else
      m.event(event::INST_RETIRED, n);
  }
};

using Traits = ::testing::Types<Armv7aTraits<6>, Armv7aTraits<4>>;
INSTANTIATE_TYPED_TEST_SUITE_P(armv7a, Conformance, Traits);

}  // namespace
}  // namespace conformance
