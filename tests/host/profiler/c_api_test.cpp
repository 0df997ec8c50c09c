#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "fake_backend.hpp"
#include "profiler/c_api.h"
#include "profiler/dump/debugger_capture.hpp"

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

// The dump from C: to a write function, and into the debugger's buffer (the same bytes), with the
// named region and the samples; a refusing sink and a buffer too small are a status, not a crash.
TEST(CApi, DumpToAWriteFunctionAndForTheDebugger) {
  using B = fake::Pmu<32>;
  B::reset_state();
  pmukit_counter cyc = -1;
  ASSERT_EQ(pmukit_add_preset(PMUKIT_CYCLES, &cyc), PMUKIT_OK);
  pmukit_start();
  EXPECT_EQ(pmukit_region_name(0, "work"), PMUKIT_OK);
  EXPECT_EQ(c_user_region(0, [] { B::event(1, 40); }), PMUKIT_OK);
  auto record = [] {
    for (std::uint32_t i = 0; i < 3; ++i) pmukit_on_timer_tick(0x1000 + 4 * i, 0x2000);
  };
  record();
  std::vector<std::uint8_t> bytes;
  auto append = [](void* ctx, const std::uint8_t* b, std::size_t n) -> int {
    static_cast<std::vector<std::uint8_t>*>(ctx)->insert(static_cast<std::vector<std::uint8_t>*>(ctx)->end(), b, b + n);
    return 1;
  };
  ASSERT_EQ(pmukit_write_dump("host", 1000000, 50000, append, &bytes), PMUKIT_OK);
  ASSERT_GT(bytes.size(), 16u);
  EXPECT_EQ(std::memcmp(bytes.data(), "PMUD", 4), 0);
  const std::string text(bytes.begin(), bytes.end());
  EXPECT_NE(text.find("work"), std::string::npos) << "the named region is in the dump";
  EXPECT_EQ(pmukit_sample_pop(nullptr, nullptr), 0) << "the dump consumed the samples";

  record();  // the same samples again, into the debugger's buffer
  EXPECT_EQ(pmukit_dump_to_debugger("host", 1000000, 50000), PMUKIT_OK);
  ASSERT_EQ(pmukit_dump_size, bytes.size());
  EXPECT_EQ(std::memcmp(pmukit_dump_buffer, bytes.data(), bytes.size()), 0);

  auto refuse = [](void*, const std::uint8_t*, std::size_t) -> int { return 0; };
  EXPECT_EQ(pmukit_write_dump("host", 0, 0, refuse, nullptr), PMUKIT_DUMP_FAILED);
  EXPECT_STREQ(pmukit_status_name(PMUKIT_DUMP_FAILED), "dump not written");
  EXPECT_EQ(pmukit_write_dump("host", 0, 0, nullptr, nullptr), PMUKIT_BAD_ARGUMENT);
  for (int i = 0; i < 200; ++i) record();  // 600 samples, 4.8 KB: more than the 4 KiB buffer
  EXPECT_EQ(pmukit_dump_to_debugger("host", 0, 0), PMUKIT_DUMP_FAILED);
  EXPECT_EQ(pmukit_dump_size, 0u) << "an incomplete dump is never offered to the debugger";
  pmukit_stop();
}

namespace {
// The dump's chunk types in order (docs/dump-format.md: a 16-byte header whose bytes 4-7 say the
// byte order, 01 02 03 04 for big-endian, then chunks of type u16, flags u16, payload length u32 and
// the payload). The C API writes the target's own order: big-endian under qemu-mips and qemu-ppc.
std::vector<std::uint16_t> chunk_types(const std::vector<std::uint8_t>& d) {
  std::vector<std::uint16_t> types;
  const bool big = d.size() >= 8 && d[4] == 1;
  auto number = [&](std::size_t at, unsigned n) {
    std::uint32_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= static_cast<std::uint32_t>(d[at + i]) << 8 * (big ? n - 1 - i : i);
    return v;
  };
  for (std::size_t at = 16; at + 8 <= d.size();) {
    const auto type = static_cast<std::uint16_t>(number(at, 2));
    const std::uint32_t len = number(at + 4, 4);
    types.push_back(type);
    at += 8 + len;
  }
  return types;
}
}  // namespace

// C API parity with the C++ profiler's stack capture (profiler/stack.hpp): a ring the user sizes
// (PMUKIT_STACK_RING, PMUKIT_STACK_BYTES, set in c_api_binding.cpp to 4 and 32), which keeps its
// capacity, refuses and counts the samples past it, and which the dump carries as its STACKS chunk
// and consumes.
TEST(CApi, StackRingSizedByTheUserHoldsItsCapacityAndCountsTheRest) {
  using B = fake::Pmu<32>;
  B::reset_state();
  pmukit_stack_set_top(0x100);  // sp at the top: nothing to copy (host addresses are not 32-bit)
  for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(pmukit_stack_record(0x1000 + 4 * i, 0x2000, 0x100, 0), PMUKIT_OK);
  EXPECT_EQ(pmukit_stack_record(0x1010, 0x2000, 0x100, 0), PMUKIT_BUSY) << "a full ring refuses";
  EXPECT_EQ(pmukit_stacks_recorded(), 4u);
  EXPECT_EQ(pmukit_stacks_dropped(), 1u);
}

TEST(CApi, DumpCarriesTheStackRingAsItsStacksChunkAndConsumesIt) {
  using B = fake::Pmu<32>;
  B::reset_state();
  pmukit_counter cyc = -1;
  ASSERT_EQ(pmukit_add_preset(PMUKIT_CYCLES, &cyc), PMUKIT_OK);
  auto discard = [](void*, const std::uint8_t*, std::size_t) -> int { return 1; };
  ASSERT_EQ(pmukit_write_dump("host", 0, 0, discard, nullptr), PMUKIT_OK);  // what earlier tests left
  ASSERT_EQ(pmukit_stacks_recorded(), 0u);
  pmukit_stack_set_top(0x100);
  ASSERT_EQ(pmukit_stack_record(0x1000, 0x2000, 0x100, 0), PMUKIT_OK);
  std::vector<std::uint8_t> bytes;
  auto append = [](void* ctx, const std::uint8_t* b, std::size_t n) -> int {
    static_cast<std::vector<std::uint8_t>*>(ctx)->insert(static_cast<std::vector<std::uint8_t>*>(ctx)->end(), b, b + n);
    return 1;
  };
  ASSERT_EQ(pmukit_write_dump("host", 0, 50000, append, &bytes), PMUKIT_OK);
  const std::vector<std::uint16_t> types = chunk_types(bytes);
  EXPECT_NE(std::find(types.begin(), types.end(), std::uint16_t{0x0009}), types.end()) << "a STACKS chunk";
  EXPECT_EQ(pmukit_stacks_recorded(), 0u) << "the dump consumed the stack ring";
}
