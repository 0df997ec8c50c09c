#pragma once
// What every pmusim machine shares: options, the console, the verdict.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <unicorn/unicorn.h>

#include "hal/core/bus/mock.hpp"
#include "tools/sim/elf_image.hpp"

namespace pmusim {

struct Options {
  std::string elf;
  std::string log;                              // console copy ("" = none)
  std::uint64_t max_instructions = 4'000'000'000ull;
  unsigned max_seconds = 600;                   // wall time of the run
  bool pmu = true;                              // attach the PMU model (false: measure the bare emulator)
  bool quiet = false;                           // console to the log only
};

struct Result {
  int exit_code = -1;               // the firmware's exit code; -1: it never exited
  std::uint64_t instructions = 0;
  std::uint64_t pmu_accesses = 0;   // PMU instructions the decoder turned into model accesses
  std::uint64_t interrupts = 0;     // PMU interrupts delivered into the firmware
  std::uint64_t timer_interrupts = 0;  // the board's timer interrupts delivered (tools/sim/timers.hpp)
  // A machine with a second core that ran (MIPS CPS): its own counts, apart from core 0's above.
  struct Core {
    std::uint64_t instructions = 0, interrupts = 0, timer_interrupts = 0;
  };
  std::vector<Core> other_cores;
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

// A tag per instruction slot (`grain` bytes: 1 on x86, 4 on the fixed-width ISAs) of each
// executable segment: what the decoder found there. One table per segment, so segments far apart
// (the XScale vectors at 0, the image at 0xa0008000) cost only their own size.
class CodeMap {
 public:
  void add(std::uint32_t lo, std::size_t bytes, unsigned grain) {
    spans_.push_back({lo, static_cast<std::uint32_t>(bytes), grain, std::vector<std::uint8_t>(bytes / grain + 1)});
    last_ = &spans_.front();
  }
  // The tag at physical address `a`; 0 outside every executable segment.
  std::uint8_t tag(std::uint32_t a) {
    if (a - last_->lo >= last_->size) {
      const Span* s = find(a);
      if (!s) return 0;
      last_ = s;
    }
    return last_->tag[(a - last_->lo) / last_->grain];
  }
  void set(std::uint32_t a, std::uint8_t t) {
    if (Span* s = const_cast<Span*>(find(a))) s->tag[(a - s->lo) / s->grain] = t;
  }

 private:
  struct Span {
    std::uint32_t lo, size;
    unsigned grain;
    std::vector<std::uint8_t> tag;
  };
  const Span* find(std::uint32_t a) const {
    for (const Span& s : spans_)
      if (a - s.lo < s.size) return &s;
    return nullptr;
  }
  std::vector<Span> spans_;
  const Span* last_ = &kEmpty;
  static inline const Span kEmpty{0, 0, 1, {}};
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
  // One more instruction at `pc`: false, with the run stopped, past --insns or the wall-time limit
  // (read every 64Ki instructions).
  bool step(std::uint32_t pc) {
    if (++result.instructions > opt.max_instructions || (result.instructions & 0xFFFF) == 0)
      if (!within_limits()) return false;
    if (const std::uint32_t line = (pc & phys_mask_) >> 6; line != last_line_) note_line(line);
    return true;
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
  // Maps `bytes` of RAM at physical `base` (call once per region, before load()); with `host`,
  // that memory (4 KiB-aligned), which another core's engine may map too.
  void map_ram(std::uint32_t base, std::uint64_t bytes, void* host = nullptr);
  // Copies every segment to its address & `phys_mask` (MIPS: kseg0/kseg1 are windows on physical
  // memory); false with result.error set when one does not lie inside a mapped RAM region. `code`
  // then has a table of `grain`-byte slots for each executable segment.
  bool load(const ElfImage& image, std::uint32_t phys_mask, unsigned grain);
  // f(physical address, segment) for each executable segment: where the decoder looks.
  template <class F>
  void each_code_segment(const ElfImage& image, F&& f) const {
    for (const Segment& s : image.segments)
      if (s.exec && !s.bytes.empty()) f(s.paddr & phys_mask_, s);
  }
  // Runs from `entry` until the firmware exits or a hook stops the run; a hook that changes the PC
  // stops Unicorn, which resumes here from the new PC (read from `pc_reg`). Bounded by the limits
  // of step(); a signal from inside Unicorn (it crashes or aborts on some guest states) ends the
  // process with exit status 3 and a message.
  void run(std::uint64_t entry, int pc_reg);

  CodeMap code;
  uc_engine* uc = nullptr;
  // A second core (MIPS CPS): run() alternates between this Cpu and `peer` while the peer is
  // runnable, each for as long as its hooks let it (a hook sets yield_ and moves the PC to end a
  // quantum). The peer's exit or error is the run's. core_id names it in messages.
  Cpu* peer = nullptr;
  bool runnable = true;
  bool yield_ = false;
  unsigned core_id = 0;
  std::uint64_t resume_pc = 0;
  Console& console;
  const Options& opt;
  Result& result;

 private:
  std::uint32_t phys_mask_ = ~0u;
  bool within_limits();
  void note_line(std::uint32_t line);
  std::chrono::steady_clock::time_point deadline_;
  // 64-byte lines of code executed since Unicorn's translations were last flushed (step()): at
  // most ~0.35 GiB of translated code (ARM ldm, the heaviest seen, 21 KiB a line).
  static constexpr unsigned kFreshLines = 16384;
  std::uint32_t last_line_ = ~0u;
  std::vector<std::uint64_t> lines_ = std::vector<std::uint64_t>(std::size_t{1} << 20);  // a bit per line
  unsigned fresh_lines_ = 0;
  bool flush_ = false;
  struct Region {
    std::uint32_t base;
    std::uint64_t bytes;
  };
  std::vector<Region> ram_;
};

Result run_i386(const ElfImage& image, const Options& options);
Result run_rm7000(const ElfImage& image, const Options& options);
Result run_mips_cm(const ElfImage& image, const Options& options);
Result run_xscale(const ElfImage& image, const Options& options);
Result run_e500(const ElfImage& image, const Options& options);

}  // namespace pmusim
