#pragma once
// What every pmusim machine shares: options, the console, the verdict.
#include <cstdint>
#include <cstdio>
#include <string>

#include "tools/sim/elf_image.hpp"

namespace pmusim {

struct Options {
  std::string elf;
  std::string log;                              // console copy ("" = none)
  std::uint64_t max_instructions = 4'000'000'000ull;
  bool pmu = true;                              // attach the PMU model (false: measure the bare emulator)
  bool quiet = false;                           // console to the log only
};

struct Result {
  int exit_code = -1;               // the firmware's exit code; -1: it never exited
  std::uint64_t instructions = 0;
  std::uint64_t pmu_accesses = 0;   // PMU instructions the decoder turned into model accesses
  std::uint64_t interrupts = 0;     // PMU interrupts delivered into the firmware
  std::string error;                // why the run stopped early ("" = it exited)
};

// The console: what the firmware's UART transmits, to stdout and the log.
class Console {
 public:
  explicit Console(const Options& o);
  ~Console();
  Console(const Console&) = delete;
  Console& operator=(const Console&) = delete;
  void put(char c);

 private:
  bool quiet_;
  std::FILE* log_ = nullptr;
};

Result run_i386(const ElfImage& image, const Options& options);
Result run_rm7000(const ElfImage& image, const Options& options);

}  // namespace pmusim
