#pragma once
// Full call stacks walked on the target with the unwind table (profiler/unwind_table.hpp), through
// a program with large frames: ten levels of 2 KiB frames, sampled from the board's timer
// interrupt. Every sample's walk must end complete in _start (the outermost frame: its return
// address's CFI rule is undefined), through every level. The interrupt's cost is measured in
// instructions on the board's clock, calibrated against a loop of known length: vector to return
// with the walk, and with a callback that does nothing (the board's interrupt path alone).
// The image is linked twice, with the table from the first link's CFI (cmake/PmuUnwindTable.cmake).
//
// A board gives (struct Board): console(), clock() (a free-running counter), spin(n) (exactly 2n
// instructions and a few: the calibration loop), timer_start(tick) / timer_stop(), irq_enable() /
// irq_disable(), interrupted_stack(sp, fp), stack_bottom() / stack_top(); optionally kWalkGoal (the
// walk's instructions per sample it must stay within: checked here).
#include <cstdint>

#include "profiler/dump/image.hpp"
#include "profiler/dump/text_frame_sink.hpp"
#include "profiler/dump/writer.hpp"
#include "profiler/unwind_table.hpp"

extern "C" const std::uint32_t pmukit_unwind_table[];  // <name>.unwind.S: an array of unknown size
extern "C" char _start[];                                      // the board's start-up code

namespace examples::unwind {

inline constexpr unsigned kLevels = 10;
inline constexpr unsigned kFrameWords = 512;  // 2 KiB of locals per level
inline constexpr std::uint32_t kSpin = 300000;

inline prof::UnwindRing<128, 24> stacks;
inline volatile std::uint32_t sink, ticks;
inline std::uint32_t walk_x10, glue_x10;

// PMUKIT_WALK_REGISTERS: on i386 the walk inlined here has EBP too (this frame is no frame a
// walk climbs through: it runs in the interrupt, above the sampled stack).
template <class Board>
PMUKIT_WALK_REGISTERS void on_tick_walk(std::uint32_t pc, std::uint32_t lr) {
  ticks = ticks + 1;
  std::uint32_t sp, fp;  // the board sets both
  Board::interrupted_stack(sp, fp);
  stacks.record(prof::StackContext{pc, lr, sp, fp});
}
inline void on_tick_nothing(std::uint32_t, std::uint32_t) { ticks = ticks + 1; }

// Instructions per interrupt (x10): the loop's clock with the tick minus without, per interrupt
// taken, scaled by the loop's own instructions per clock (2 kSpin instructions in `quiet`).
template <class Board>
std::uint32_t cost_x10(void (*tick)(std::uint32_t, std::uint32_t)) {
  std::uint32_t c0 = Board::clock();
  Board::spin(kSpin);
  const std::uint32_t quiet = Board::clock() - c0;
  Board::timer_start(tick);
  const std::uint32_t t0 = ticks;
  Board::irq_enable();
  c0 = Board::clock();
  Board::spin(kSpin);
  const std::uint32_t busy = Board::clock() - c0;
  Board::irq_disable();
  const std::uint32_t n = ticks - t0;
  Board::timer_stop();
  if (n == 0 || busy <= quiet || quiet == 0) return 0;
  return static_cast<std::uint32_t>(std::uint64_t{busy - quiet} * 2 * kSpin * 10 / (std::uint64_t{quiet} * n));
}

template <class Board>
[[gnu::noinline]] void innermost() {
  glue_x10 = cost_x10<Board>(on_tick_nothing);
  walk_x10 = cost_x10<Board>(on_tick_walk<Board>);
}

// Ten levels, each with a 2 KiB frame it uses after the call (no tail call, no frame folded away).
template <class Board, unsigned N>
[[gnu::noinline]] void level(std::uint32_t seed) {
  volatile std::uint32_t frame[kFrameWords];
  frame[0] = seed;
  frame[kFrameWords - 1] = seed * 3;
  if constexpr (N == 1) innermost<Board>();
  else level<Board, N - 1>(seed + 1);
  sink = frame[0] + frame[kFrameWords - 1];
}

template <class Console>
void put_x10(const Console& out, std::uint32_t x10) {
  out.dec(x10 / 10);
  out.put(".");
  out.dec(x10 % 10);
}

// The walked samples as a dump (docs/dump-format.md: TARGET, IMAGE, FRAMES) in text frames on the
// console, as the profile examples write theirs: `pmukit report LOG --elf ELF` reads the stacks
// with no CFI and no stack copy. A board names its target and PMU (Board::kTarget, Board::kPmu);
// no counters are in it. The ring is consumed.
template <class Board>
[[gnu::noinline]] bool write_dump() {
  pmu::dump::TextFrameSink frames{Board::console().putc};
  pmu::dump::Writer w{frames.sink()};
  w.begin({Board::kTarget, Board::kPmu, 0, 32, 4});
  w.counters(nullptr, 0);
  w.image(pmu::dump::this_image());
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < stacks.size(); ++i) total += stacks.peek(i).count;
  const auto n = static_cast<std::uint32_t>(stacks.size());
  w.begin_frames(n, total, stacks.dropped());
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto& e = stacks.peek(i);
    w.frame_sample(e.pcs, static_cast<std::uint8_t>(e.count), e.complete);
  }
  stacks.consume(n);
  return w.finish() == pmu::dump::Status::ok;
}

// Runs it all; true when every check passed (prints UNWIND PASS or UNWIND FAIL). Inlined into
// main: the walks' depth (15 frames) does not depend on how large it is.
template <class Board>
[[gnu::always_inline]] inline bool run() {
  const auto& out = Board::console();
  const prof::UnwindTable table = prof::UnwindTable::from(pmukit_unwind_table);
  out.put("unwind table: ");
  out.dec(table.count);
  out.put(" rules, ");
  out.dec(table.slots);
  out.line(table.slots != 0 ? " code slots" : " code slots: not a table");
  stacks.set_table(table);
  stacks.set_stack(Board::stack_bottom(), Board::stack_top());
  level<Board, kLevels>(1);

  std::uint32_t complete = 0, reach = 0, min_depth = ~0u, max_depth = 0;
  const auto start = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(_start));
  for (std::size_t i = 0; i < stacks.size(); ++i) {
    const auto& s = stacks.peek(i);
    complete += s.complete;
    if (s.complete && s.pcs[s.count - 1] - start < 0x200) ++reach;  // a return address in _start
    if (s.count < min_depth) min_depth = s.count;
    if (s.count > max_depth) max_depth = s.count;
  }
  out.put("unwind table walks: ");
  out.dec(static_cast<std::uint32_t>(stacks.size()));
  out.put(" samples, ");
  out.dec(complete);
  out.put(" complete, ");
  out.dec(reach);
  out.put(" reach _start, ");
  out.dec(min_depth);
  out.put("..");
  out.dec(max_depth);
  out.put(" frames (");
  out.dec(kLevels);
  out.put(" levels of ");
  out.dec(kFrameWords * 4);
  out.line("-byte frames)");
  out.put("sampling interrupt cost with the unwind table walk: ");
  put_x10(out, walk_x10);
  out.put(" instructions per interrupt (vector to return); the board's interrupt path alone: ");
  put_x10(out, glue_x10);
  out.put("; the walk: ");
  put_x10(out, walk_x10 > glue_x10 ? walk_x10 - glue_x10 : 0);
  out.line("");
  // pc, the loop, cost_x10, innermost, ten levels, main, _start: at least 14 (15 in the loop).
  bool ok = stacks.size() != 0 && stacks.dropped() == 0 && reach == stacks.size() && min_depth >= kLevels + 4 &&
            walk_x10 != 0 && glue_x10 != 0;
  // Issue 39's goal, about 300 instructions for this depth, gated where a board meets it
  // (Board::kWalkGoal, instructions per sample for the walk): a walk above it fails the run.
  if constexpr (requires { Board::kWalkGoal; }) {
    const bool within = walk_x10 <= glue_x10 + 10 * Board::kWalkGoal;
    if (!within) {
      out.put("the walk is above its goal of ");
      out.dec(Board::kWalkGoal);
      out.line(" instructions per sample");
    }
    ok = ok && within;
  }
  if constexpr (requires { Board::kTarget; }) ok = write_dump<Board>() && ok;
  out.line(ok ? "UNWIND PASS" : "UNWIND FAIL");
  return ok;
}

}  // namespace examples::unwind
