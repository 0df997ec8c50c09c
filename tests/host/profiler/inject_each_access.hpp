#pragma once
// An interrupt before every register access of one region, on the idealised PMU (fake_backend.hpp):
// each counter just below its overflow and the body (0x20 events of code 1) crossing it; the
// interrupt is a fold (the PMU interrupt, whose acknowledge rewrites the count at width 31), an
// overflow burst (0x30 events on every counter: in counter k's value exactly when it comes after
// k's first read and at or before its second), or a reset (the region is void). A dry run first
// counts the region's accesses and the last one before the body (F).
//
// Case (one per region kind): constructed from the counter count n, a fresh profiler with n
// counters running and the region's object; `profiler()`; `measure(stats, body)`: one region
// around body(); `first(k, F, n)` and `second(k, F, n)`: the accesses of counter k's two reads.
#include <cstdint>

#include <gtest/gtest.h>

#include "fake_backend.hpp"
#include "profiler/region_stats.hpp"

namespace fake {

// `preset`: the counters set just below the boundary (counter k at near_boundary - k).
template <class B, class Case>
void inject_before_each_access(std::uint64_t near_boundary, unsigned n, unsigned preset) {
  for (int what = 0; what < 3; ++what) {
    unsigned total = 0, last_before_body = 0;
    {  // the dry run
      Case c{n};
      prof::RegionStats<B> s{"dry"};
      for (unsigned k = 0; k < preset; ++k) B::set(k, near_boundary - k);
      B::st.accesses = 0;
      c.measure(s, [&] {
        last_before_body = B::st.accesses;
        B::event(1, 0x20);
      });
      total = B::st.accesses;
      for (unsigned k = 0; k < n; ++k) EXPECT_EQ(s.total[k], 0x20u);
    }
    ASSERT_GT(total, last_before_body + n);
    for (unsigned a = 1; a <= total; ++a) {
      Case c{n};
      static prof::Profiler<B>* target;
      target = &c.profiler();
      prof::RegionStats<B> s{"s"};
      for (unsigned k = 0; k < preset; ++k) B::set(k, near_boundary - k);
      B::st.accesses = 0;
      B::st.hook_at = a;
      B::st.hook = what == 0   ? +[] { (void)target->fold(); }
                   : what == 1 ? +[] { B::event(1, 0x30); }
                               : +[] { target->reset(); };
      c.measure(s, [] { B::event(1, 0x20); });
      SCOPED_TRACE(testing::Message() << n << " counters, " << (what == 0 ? "fold" : what == 1 ? "overflow" : "reset")
                                      << " before access " << a << " (the last before the body " << last_before_body
                                      << ")");
      EXPECT_EQ(s.calls, 1u);
      if (what == 2) {
        EXPECT_EQ(s.voided, 1u);
        for (unsigned k = 0; k < n; ++k) EXPECT_EQ(s.total[k], 0u);
        continue;
      }
      EXPECT_EQ(s.voided, 0u);
      EXPECT_EQ(s.clamped, 0u);
      for (unsigned k = 0; k < n; ++k) {
        const bool inside = what == 1 && a > Case::first(k, last_before_body, n) &&
                            a <= Case::second(k, last_before_body, n);
        EXPECT_EQ(s.total[k], 0x20u + (inside ? 0x30u : 0u)) << "counter " << k;
      }
    }
  }
}

}  // namespace fake
