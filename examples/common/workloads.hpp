#pragma once
// The code the example firmware profiles, the same on every board: three workloads of clearly
// different length, each in its own linker section so a firmware can tell where a sampled PC
// landed (__start_<section> / __stop_<section>). The known-length loop is per architecture and
// lives in each example (it is asm).
#include <cstdint>

// Not inlined, and not known to be pure either (a pure call could be hoisted out of the sampling
// loop, as GCC did with fib on e500): GCC's noipa; clang has no such attribute, noinline is its
// nearest.
#if defined(__clang__)
#define EXAMPLES_NOIPA noinline
#else
#define EXAMPLES_NOIPA noipa
#endif

namespace examples::work {

inline constexpr std::uint32_t kBufferBytes = 4096;
inline constexpr std::uint32_t kTableWords = 256;
extern std::uint8_t buffer[kBufferBytes];
extern std::uint32_t table[kTableWords];
extern volatile std::uint32_t sink;  // results go here so no workload is optimised away

void fill();                                                   // pseudo-random buffer and table
std::uint32_t crc32(const std::uint8_t* p, std::uint32_t n);   // longest-running, by design
void insertion_sort(std::uint32_t* a, std::uint32_t n);
std::uint32_t fib(std::uint32_t n);
// A short loop body (a load, a data-dependent branch, a store) repeated n times: the same event
// rates at every scale above a few iterations, the workload multiplexing is checked on.
void steady(std::uint32_t n);

}  // namespace examples::work

extern "C" const char __start_work_crc[], __stop_work_crc[], __start_work_sort[], __stop_work_sort[],
    __start_work_fib[], __stop_work_fib[];

namespace examples::work {
inline bool in_section(std::uint32_t pc, const char* start, const char* stop) {
  const auto p = reinterpret_cast<const char*>(pc);
  return p >= start && p < stop;
}
inline bool in_crc32(std::uint32_t pc) { return in_section(pc, __start_work_crc, __stop_work_crc); }
inline bool in_sort(std::uint32_t pc) { return in_section(pc, __start_work_sort, __stop_work_sort); }
inline bool in_fib(std::uint32_t pc) { return in_section(pc, __start_work_fib, __stop_work_fib); }
}  // namespace examples::work
