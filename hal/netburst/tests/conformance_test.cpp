// The kit's conformance suite on NetBurst: driver against model, every counter but BPU counter 1.
#include "tests/host/conformance/conformance.hpp"

#include "hal/netburst/driver.hpp"
#include "hal/netburst/model.hpp"

namespace conformance {
namespace {

namespace nb = pmu::netburst;

struct NetburstTraits {
  using Bus = pmu::MockBus<NetburstTraits>;
  using Driver = nb::Driver<Bus>;
  using Model = nb::Model;
  // One event per block: BPU (FSB ESCRs) global_power_events, MS tc_ms_xfer, FLAME x87_FP_uop,
  // IQ instr_retired; each on its default mask (qualifier 0).
  static std::size_t row(unsigned slot) {
    if (slot < 4) return nb::event_row("global_power_events");
    if (slot < 8) return nb::event_row("tc_ms_xfer");
    if (slot < 12) return nb::event_row("x87_FP_uop");
    return nb::event_row("instr_retired");
  }
  static pmu::EventConfig event_for(unsigned slot) { return {static_cast<std::uint32_t>(row(slot)), 0, 0}; }
  static void count(Model& m, unsigned slot, std::uint64_t n) {
    m.event(row(slot), nb::zero_qualifier_mask(row(slot)), n);
  }
  // What a firmware does first: probe (which identifies the model), and own the LVT entry so the
  // driver unmasks it after each PMI.
  static void prepare(Model&) {
    (void)Driver::probe();
    Driver::set_pmi_vector(0xF0);
  }
  static bool usable(unsigned slot) { return slot != 1; }
  static constexpr unsigned kLinkLo = 0, kLinkHi = 2;
};

INSTANTIATE_TYPED_TEST_SUITE_P(netburst, Conformance, ::testing::Types<NetburstTraits>);

}  // namespace
}  // namespace conformance
