#pragma once
// What every pmusim machine shares: options, the console, the verdict.
#include <cstdint>
#include <cstdio>
#include <string>

#include <unicorn/unicorn.h>

#include "hal/core/bus/mock.hpp"
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

// What each machine builds on: the Unicorn engine, 32-bit register access, the stop reason, the
// model's answer to a decoded access, and the loop that resumes after a hook moved the PC.
class Cpu {
 public:
  Cpu(Console& c, const Options& o, Result& r) : console(c), opt(o), result(r) {}
  ~Cpu() {
    if (uc) uc_close(uc);
  }
  Cpu(const Cpu&) = delete;
  Cpu& operator=(const Cpu&) = delete;

  std::uint32_t reg(int id) {
    std::uint32_t v = 0;
    uc_reg_read(uc, id, &v);
    return v;
  }
  void set(int id, std::uint32_t v) { uc_reg_write(uc, id, &v); }
  void stop(const std::string& why) {
    if (result.error.empty()) result.error = why;
    uc_emu_stop(uc);
  }
  // One decoded PMU access; false: the model refuses it (a reserved bit, a register it has not).
  bool model_read(pmu::MockDevice& m, std::uint32_t key, std::uint64_t& v) {
    ++result.pmu_accesses;
    return m.read(key, v) == pmu::MockResult::handled;
  }
  bool model_write(pmu::MockDevice& m, std::uint32_t key, std::uint64_t v) {
    ++result.pmu_accesses;
    return m.write(key, v) == pmu::MockResult::handled;
  }
  // Opens Unicorn's CPU (`what` names it in the error); false with result.error set.
  bool open(uc_arch arch, uc_mode mode, const char* what);
  // Maps `ram` bytes of RAM at physical 0 and copies every segment there, at its address &
  // `phys_mask` (MIPS: kseg0/kseg1 are windows on physical memory); false with result.error set
  // when one does not fit. [code_lo, code_hi) then spans the executable segments' bytes.
  bool load(const ElfImage& image, std::uint64_t ram, std::uint32_t phys_mask);
  // f(physical address, segment) for each executable segment: where the decoder looks.
  template <class F>
  void each_code_segment(const ElfImage& image, F&& f) const {
    for (const Segment& s : image.segments)
      if (s.exec && !s.bytes.empty()) f(s.paddr & phys_mask_, s);
  }
  // Runs from `entry` until the firmware exits or a hook stops the run; a hook that changes the PC
  // stops Unicorn, which resumes here from the new PC (read from `pc_reg`).
  void run(std::uint64_t entry, int pc_reg);

  std::uint32_t code_lo = 0, code_hi = 0;
  uc_engine* uc = nullptr;
  Console& console;
  const Options& opt;
  Result& result;

 private:
  std::uint32_t phys_mask_ = ~0u;
};

Result run_i386(const ElfImage& image, const Options& options);
Result run_rm7000(const ElfImage& image, const Options& options);

}  // namespace pmusim
