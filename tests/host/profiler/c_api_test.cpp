#include <gtest/gtest.h>

#include "fake_backend.hpp"
#include "profiler/c_api.h"

extern "C" int c_user_setup(pmukit_counter* cycles);
extern "C" int c_user_region(unsigned id, void (*work)(void));

TEST(CApi, SameProfilerFromC) {
  using B = fake::Pmu<32>;
  B::reset_state();
  pmukit_counter cyc = -1;
  EXPECT_EQ(c_user_setup(&cyc), PMUKIT_UNSUPPORTED_EVENT);
  ASSERT_EQ(cyc, 0);
  EXPECT_STREQ(pmukit_status_name(PMUKIT_NO_FREE_COUNTER), "no free counter");
  pmukit_start();
  B::event(1, 123);
  EXPECT_EQ(pmukit_read(cyc), 123u);
  EXPECT_EQ(pmukit_read(7), 0u);  // bad handle: 0, no crash

  B::st.cost_event = 1;  // measurement costs cycles; calibration removes them
  pmukit_calibrate();
  EXPECT_EQ(pmukit_region_name(3, "work"), PMUKIT_OK);
  EXPECT_EQ(c_user_region(3, [] { B::event(1, 40); }), PMUKIT_OK);
  EXPECT_EQ(pmukit_region_calls(3), 1u);
  EXPECT_EQ(pmukit_region_total(3, cyc), 40u);
  EXPECT_EQ(pmukit_region_end(3), PMUKIT_BAD_ARGUMENT);  // not open
  EXPECT_EQ(pmukit_region_begin(PMUKIT_MAX_REGIONS), PMUKIT_BAD_ARGUMENT);
  B::st.cost_event = 0;

  EXPECT_EQ(pmukit_sample_arm(cyc, 0), PMUKIT_BAD_ARGUMENT);
  pmukit_on_timer_tick(0x100, 0x200);
  std::uint32_t pc = 0, lr = 0;
  ASSERT_EQ(pmukit_sample_pop(&pc, &lr), 1);
  EXPECT_EQ(pc, 0x100u);
  EXPECT_EQ(lr, 0x200u);
  EXPECT_EQ(pmukit_sample_pop(&pc, &lr), 0);
  EXPECT_EQ(pmukit_samples_dropped(), 0u);
  pmukit_stop();
}
