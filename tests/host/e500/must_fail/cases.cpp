// Must-not-compile cases for the e500 register map (tests/host/e500/CMakeLists.txt builds this
// file once per CASE and expects the compiler's message). CASE=0 must compile.
#include "hal/core/bus/mock.hpp"
#include "hal/core/reg.hpp"
#include "hal/e500/regs.hpp"

namespace e5 = pmu::e500;
using R = pmu::Regs<pmu::MockBus<struct MustFailTag>>;

void misuse() {
  // Always fine: reading a user copy, writing the supervisor register.
  (void)R::read_raw<e5::UPMC0>();
  R::write_raw<e5::PMC0>(1);
  R::write(e5::pmlca_fc<e5::PMLCa0>(1));
#if CASE == 1
  R::write_raw<e5::UPMC0>(1);  // user-mode copy of PMC0: read-only (CRM 7.2.8)
#elif CASE == 2
  R::write(e5::pmlca_fc<e5::UPMLCa0>(1));  // field of a read-only copy (CRM 7.2.4)
#elif CASE == 3
  R::modify(e5::pmgc0_fac<e5::UPMGC0>(0));  // UPMGC0 (CRM 7.2.2)
#elif CASE == 4
  R::write(e5::pmlca_event<e5::PMLCa0>.val<128>());  // EVENT is 7 bits (Table 7-4)
#elif CASE == 5
  R::write_raw<e5::PMC<4>>(0);  // there is no PMC4
#endif
}
