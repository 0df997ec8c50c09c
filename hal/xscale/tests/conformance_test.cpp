// The kit's conformance suite on both XScale variants: driver against model.
#include "tests/host/conformance/conformance.hpp"

#include "hal/xscale/driver.hpp"
#include "hal/xscale/model.hpp"

namespace conformance {
namespace {

using namespace pmu::xscale;

template <class ModelT, template <class> class DriverT>
struct XscaleTraits {
  using Bus = pmu::MockBus<XscaleTraits>;
  using Driver = DriverT<Bus>;
  using Model = ModelT;
  // Slot 0 is CCNT (cycles only); the PMNs count instructions executed.
  static pmu::EventConfig event_for(unsigned slot) {
    return {slot == 0 ? kCcntEvent : event::INSTR, 0, 0};
  }
  static void count(Model& m, unsigned slot, std::uint64_t n) {
    if (slot == 0)
      m.cycles(n);
    else
      m.event(event::INSTR, n);
  }
};

using Traits = ::testing::Types<XscaleTraits<Xsc2Model, Xsc2>, XscaleTraits<Xsc1Model, Xsc1>>;
INSTANTIATE_TYPED_TEST_SUITE_P(xscale, Conformance, Traits);

}  // namespace
}  // namespace conformance
