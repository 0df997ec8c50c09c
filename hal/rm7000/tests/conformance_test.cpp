// The kit's conformance suite on the RM7000: driver against model.
#include "tests/host/conformance/conformance.hpp"

#include "hal/rm7000/driver.hpp"
#include "hal/rm7000/model.hpp"

namespace conformance {
namespace {

struct Rm7000Traits {
  using Bus = pmu::MockBus<Rm7000Traits>;
  using Driver = pmu::rm7000::Driver<Bus>;
  using Model = pmu::rm7000::Model;
  // The one counter counts event 0x01, total instructions issued (Table 10), in every mode.
  static pmu::EventConfig event_for(unsigned) { return {pmu::rm7000::event::INSTR_ISSUED, 0, 0}; }
  static void count(Model& m, unsigned, std::uint64_t n) { m.event(pmu::rm7000::event::INSTR_ISSUED, n); }
};

INSTANTIATE_TYPED_TEST_SUITE_P(rm7000, Conformance, ::testing::Types<Rm7000Traits>);

}  // namespace
}  // namespace conformance
