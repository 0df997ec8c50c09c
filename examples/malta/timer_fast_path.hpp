#pragma once
// The board's fast timer path (board.hpp, fast_sampling_start; start.S, malta_fast_vector) and its
// hand-written baseline (handwritten_count.S) measured whole on CP0 Count under pmusim, where an
// interrupt can land on a branch's delay slot: malta-only. A MIPS interrupt taken on a delay slot
// returns to the branch (EPC is the branch, Cause.BD set: MIPS32 PRA, Cause and EPC registers),
// which then runs once more; pmusim takes an interrupt on the instruction where it falls, delay
// slots included, and the clock counts that re-run. The Count/Compare re-arm from Count settles the
// spin loop's interrupts on the branch or on its slot by each handler's own length, whatever the
// period, so both are printed with their path lengths and the ratio is taken on the paths with the
// re-run spread evenly (half an instruction each). QEMU takes interrupts only between its
// translation blocks (examples/common/profile_run.hpp measures the path there). The PMU's fast
// vector is measured by examples/common/pmu_fast_vector.hpp, at two periods (Board::kPmuPeriods).
// Call it from main() after examples::profile(); returns the failed checks.
#include <cstdint>

#include "board/board.hpp"
#include "examples/common/profile_run.hpp"
#include "malta_profile.hpp"

namespace malta {

// Every handler image here ends in its path's eret, then `la $k0, malta_exception; jr $k0; nop`
// (four words) for any other exception: the path from the vector to eret is the rest.
inline std::uint32_t path_instructions(const std::uint32_t* image, const std::uint32_t* end) {
  return static_cast<std::uint32_t>(end - image) - 4;
}

template <class Board>
[[gnu::noinline]] int timer_fast_path_rerun() {
  const examples::Console& out = Board::console();
  examples::Checks checks{out};
  if (!board::under_pmusim()) return 0;
  constexpr std::uint32_t kIters = 1'000'000;
  examples::FastRing& ring = examples::fast_ring;
  std::uint32_t none = 0;
  const std::uint64_t quiet = examples::clock_run_ticks<Board>(kIters, [] { return 0u; }, none);
  checks.check(Board::fast_sampling_start(false), "fast timer sampling started");
  const std::uint32_t ring0 = ring.recorded();
  const std::uint64_t tf_x10 = examples::clock_cost_x10<Board>(kIters, quiet, [&] { return ring.recorded() - ring0; });
  Board::fast_sampling_stop();
  checks.check(Board::fast_sampling_start(true), "hand-written timer sampling started");
  const std::uint64_t th_x10 = examples::clock_cost_x10<Board>(kIters, quiet, [] { return Board::handwritten_samples(); });
  Board::fast_sampling_stop();
  ring.reset();
  if (tf_x10 == examples::kNoCost || th_x10 == examples::kNoCost) return checks.failures;
  const std::uint32_t tf_path = path_instructions(malta_fast_vector, malta_fast_vector_end),
                      th_path = path_instructions(handwritten_count_vector, handwritten_count_vector_end);
  auto rerun = [&](std::uint64_t x10, std::uint32_t path) {
    examples::put_tenths(out, x10 > path * 10u ? x10 - path * 10u : 0);
  };
  out.put("timer fast path under pmusim: ");
  out.dec(tf_path);
  out.put(" instructions from the vector to eret, ");
  examples::put_tenths(out, tf_x10);
  out.put(" per interrupt (branch re-runs: ");
  rerun(tf_x10, tf_path);
  out.put("); hand-written: ");
  out.dec(th_path);
  out.put(", ");
  examples::put_tenths(out, th_x10);
  out.put(" (");
  rerun(th_x10, th_path);
  out.put("); with interrupts spread evenly over the branch and its delay slot: ");
  examples::put_tenths(out, tf_path * 10u + 5);
  out.put(" and ");
  examples::put_tenths(out, th_path * 10u + 5);
  out.put(", ");
  examples::put_ratio(out, tf_path * 10u + 5, th_path * 10u + 5);
  out.line(" (goal: at most 1.50)");
  checks.check(tf_x10 >= tf_path * 10u && tf_x10 <= tf_path * 10u + 10 && th_x10 >= th_path * 10u &&
                   th_x10 <= th_path * 10u + 10,
               "timer fast path and hand-written: their path plus at most one branch re-run per interrupt");
  return checks.failures;
}

}  // namespace malta
