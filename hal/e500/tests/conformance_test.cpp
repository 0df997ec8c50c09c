// The kit's conformance suite on the e500: driver against model.
#include "tests/host/conformance/conformance.hpp"

#include "hal/e500/driver.hpp"
#include "hal/e500/model.hpp"

namespace conformance {
namespace {

struct E500Traits {
  using Bus = pmu::MockBus<E500Traits>;
  using Driver = pmu::e500::Driver<Bus>;
  using Model = pmu::e500::Model;
  // Every PMC counts event 2, instructions completed (CRM Table 7-10).
  static pmu::EventConfig event_for(unsigned) { return {2, 0, 0}; }
  static void count(Model& m, unsigned, std::uint64_t n) { m.event(2, n); }
};

INSTANTIATE_TYPED_TEST_SUITE_P(e500, Conformance, ::testing::Types<E500Traits>);

}  // namespace
}  // namespace conformance
