// pmusim: runs a firmware ELF on a CPU emulator (Unicorn) with the project's behavioural PMU model
// attached, so the PMU counts and interrupts while the firmware executes (tools/sim/README.md).
// The command line both `pmusim` and `pmukit sim` take:
//   FIRMWARE.elf [--pmu ID] [--insns N] [--timeout S] [--log FILE] [--no-pmu] [--quiet]
// Exit status: the firmware's exit code; 2 for a usage error; 3 when the run stopped without an
// exit (limit, an unhandled fault, an emulator crash, an unsupported ELF), with the reason on stderr.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tools/sim/elf_image.hpp"
#include "tools/sim/machine.hpp"
#include "tools/sim/run.hpp"

namespace pmusim {

Console::Console(const Options& o) : quiet_(o.quiet) {
  if (!o.log.empty()) log_ = std::fopen(o.log.c_str(), "w");
  if (log_) std::setvbuf(log_, nullptr, _IOLBF, 0);  // whole lines survive a crash of the emulator
}
Console::~Console() {
  if (log_) std::fclose(log_);
}
void Console::put(char c) {
  if (!quiet_) std::fputc(c, stdout);
  if (log_) std::fputc(c, log_);
}

bool Cpu::open(uc_arch arch, uc_mode mode, const char* what) {
  // No exit address: uc_emu_start's `until` would otherwise stop at 0 before executing it, and
  // run() would restart there forever, executing nothing (firmware that jumps to 0).
  if (uc_open(arch, mode, &uc) == UC_ERR_OK && uc_ctl_exits_enable(uc) == UC_ERR_OK) return true;
  if (uc) uc_close(uc);
  uc = nullptr;
  result.error = std::string("Unicorn has no ") + what + " CPU";
  return false;
}

void Cpu::map_ram(std::uint32_t base, std::uint64_t bytes, void* host) {
  if (host) uc_mem_map_ptr(uc, base, bytes, UC_PROT_ALL, host);
  else uc_mem_map(uc, base, bytes, UC_PROT_ALL);
  ram_.push_back({base, bytes});
}

bool Cpu::load(const ElfImage& image, std::uint32_t phys_mask, unsigned grain) {
  phys_mask_ = phys_mask;
  for (const Segment& s : image.segments) {
    const std::uint64_t at = s.paddr & phys_mask;
    bool inside = false;
    for (const Region& r : ram_) inside |= at >= r.base && at + s.memsz <= r.base + r.bytes;
    if (!inside) {
      char b[96];
      std::snprintf(b, sizeof b, "a segment at 0x%08x (%u bytes) lies outside the machine's RAM",
                    static_cast<unsigned>(at), static_cast<unsigned>(s.memsz));
      result.error = b;
      return false;
    }
    uc_mem_write(uc, at, s.bytes.data(), s.bytes.size());
  }
  each_code_segment(image, [&](std::uint32_t at, const Segment& s) { code.add(at, s.bytes.size(), grain); });
  return true;
}

bool Cpu::within_limits() {
  if (result.instructions > opt.max_instructions) {
    stop("instruction limit reached (" + std::to_string(opt.max_instructions) + ")");
    return false;
  }
  if (std::chrono::steady_clock::now() >= deadline_) {
    stop("time limit reached (" + std::to_string(opt.max_seconds) + " s)");
    return false;
  }
  return true;
}

// Unicorn 2.0.1 crashes once its translation buffer (1 GiB) fills: it misses its own flush and
// chains to a freed block (tb_set_jmp_target). A runaway through zeroed RAM, or code of heavy
// instructions (an ARM ldm translates to ~1.3 KiB), fills it; run() flushes it after every
// kFreshLines lines of code first executed since the last flush, long before that.
void Cpu::note_line(std::uint32_t line) {
  last_line_ = line;
  std::uint64_t& word = lines_[line >> 6];
  const std::uint64_t bit = std::uint64_t{1} << (line & 63);
  if (word & bit) return;
  word |= bit;
  if (++fresh_lines_ == kFreshLines) {
    flush_ = true;
    uc_emu_stop(uc);
  }
}

namespace {

// While a run is on: Unicorn crashes (SIGSEGV in its translator) or aborts on some guest states,
// and could spin where no hook sees it. Either ends the process here with exit status 3 and a
// message, never a bare signal or a hang. Async-signal-safe: write() and _exit() only.
const Result* g_running = nullptr;

void say(const char* s) { (void)!::write(2, s, std::strlen(s)); }

extern "C" void on_fatal(int sig) {
  char n[24];
  char* p = n + sizeof n;
  *--p = '\0';
  std::uint64_t v = g_running ? g_running->instructions : 0;
  do *--p = static_cast<char>('0' + v % 10); while ((v /= 10) != 0);
  if (sig == SIGALRM) {
    say("pmusim: the emulator did not stop at the time limit (after ");
  } else {
    say("pmusim: the emulator crashed (");
    say(sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGILL ? "SIGILL"
        : sig == SIGFPE ? "SIGFPE" : "SIGABRT");
    say(" after ");
  }
  say(p);
  say(" instructions): the firmware took a path Unicorn cannot run\n");
  ::_exit(3);
}

class FatalSignals {
 public:
  FatalSignals(const Result& r, unsigned seconds) {
    static char alt[1 << 16];  // a crash on an exhausted stack still gets its message
    stack_t ss{};
    ss.ss_sp = alt;
    ss.ss_size = sizeof alt;
    ::sigaltstack(&ss, &old_stack_);
    struct sigaction sa{};
    sa.sa_handler = on_fatal;
    sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (std::size_t i = 0; i < kCount; ++i) ::sigaction(kSignals[i], &sa, &old_[i]);
    g_running = &r;
    // The time limit is checked between instructions; this is for a stall inside Unicorn.
    ::alarm(seconds + 10);
  }
  ~FatalSignals() {
    ::alarm(0);
    for (std::size_t i = 0; i < kCount; ++i) ::sigaction(kSignals[i], &old_[i], nullptr);
    ::sigaltstack(&old_stack_, nullptr);
    g_running = nullptr;
  }
  FatalSignals(const FatalSignals&) = delete;
  FatalSignals& operator=(const FatalSignals&) = delete;

 private:
  static constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGALRM};
  static constexpr std::size_t kCount = sizeof kSignals / sizeof kSignals[0];
  struct sigaction old_[kCount];
  stack_t old_stack_{};
};

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
// Unicorn 2.0.1 keeps a block of its own (tb_invalidate_phys_page_fast, code written to) past
// uc_close: not pmusim's leak to report, in the sanitizer preset's runs of it.
extern "C" const char* __lsan_default_suppressions() { return "leak:libunicorn.so\n"; }
#endif

void Cpu::run(std::uint64_t entry, int pc_reg) {
  deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(opt.max_seconds);
  if (peer) peer->deadline_ = deadline_;
  const FatalSignals guard(result, opt.max_seconds);
  resume_pc = entry;
  Cpu* c = this;  // the core running now
  unsigned idle = 0;  // restarts in a row that executed nothing
  while (result.exit_code < 0 && result.error.empty()) {
    const std::uint64_t before = c->result.instructions;
    if (c->flush_) {
      uc_ctl_flush_tlb(c->uc);  // UC_CTL_TB_FLUSH: every translated block, between runs (safe here)
      std::fill(c->lines_.begin(), c->lines_.end(), 0);
      c->fresh_lines_ = 0;
      c->last_line_ = ~0u;
      c->flush_ = false;
    }
    const uc_err e = uc_emu_start(c->uc, c->resume_pc, 0, 0, 0);
    if (e != UC_ERR_OK) {
      char b[128];
      std::snprintf(b, sizeof b, "emulation stopped: %s at PC 0x%08x", uc_strerror(e), c->reg(pc_reg));
      result.error = c == this ? b : "core " + std::to_string(c->core_id) + ": " + b;
      return;
    }
    const std::uint64_t next = c->reg(pc_reg);
    if (c != this) {  // another core's exit or error ends the run
      if (c->result.exit_code >= 0 && result.exit_code < 0) result.exit_code = c->result.exit_code;
      if (!c->result.error.empty() && result.error.empty())
        result.error = "core " + std::to_string(c->core_id) + ": " + c->result.error;
    }
    // An interrupt entry restarts once without an instruction; a thousand in a row is a spin.
    if (c->result.instructions != before || c->yield_) idle = 0;
    else if (++idle == 1000 && result.error.empty() && result.exit_code < 0) {
      char b[96];
      std::snprintf(b, sizeof b, "the emulator makes no progress at PC 0x%08x", static_cast<unsigned>(c->resume_pc));
      result.error = b;
    }
    if (std::chrono::steady_clock::now() >= deadline_ && result.error.empty() && result.exit_code < 0)
      result.error = "time limit reached (" + std::to_string(opt.max_seconds) + " s)";
    c->resume_pc = next;
    if (c->yield_) {
      c->yield_ = false;
      if (c->peer && c->peer->runnable) c = c->peer;
    }
  }
}

namespace {
constexpr const char* kUsage =
    "usage: pmusim FIRMWARE.elf [--pmu ID] [--insns N] [--timeout S] [--log FILE] [--no-pmu] [--quiet]\n";
}  // namespace

int run_command(const std::vector<std::string>& args) {
  Options o;
  std::string pmu;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--insns" && i + 1 < args.size()) {
      char* end = nullptr;
      o.max_instructions = std::strtoull(args[++i].c_str(), &end, 0);
      if (!end || *end || o.max_instructions == 0) {
        std::fprintf(stderr, "pmusim: --insns needs a positive number\n");
        return 2;
      }
    } else if (a == "--timeout" && i + 1 < args.size()) {
      char* end = nullptr;
      const unsigned long v = std::strtoul(args[++i].c_str(), &end, 10);
      if (!end || *end || v == 0 || v > 86400) {
        std::fprintf(stderr, "pmusim: --timeout needs a number of seconds (1 to 86400)\n");
        return 2;
      }
      o.max_seconds = static_cast<unsigned>(v);
    } else if (a == "--log" && i + 1 < args.size()) {
      o.log = args[++i];
    } else if (a == "--pmu" && i + 1 < args.size()) {
      pmu = args[++i];
    } else if (a == "--no-pmu") {
      o.pmu = false;
    } else if (a == "--quiet") {
      o.quiet = true;
    } else if (!a.empty() && a[0] != '-' && o.elf.empty()) {
      o.elf = a;
    } else {
      std::fputs(kUsage, stderr);
      return 2;
    }
  }
  if (o.elf.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  if (!o.log.empty()) {
    // The log is opened for writing (truncated) before the ELF is read: never the ELF itself.
    struct stat log{}, elf{};
    if (::stat(o.log.c_str(), &log) == 0 && ::stat(o.elf.c_str(), &elf) == 0 && log.st_dev == elf.st_dev &&
        log.st_ino == elf.st_ino) {
      std::fprintf(stderr, "pmusim: --log '%s' is the firmware '%s': refusing to overwrite it\n", o.log.c_str(),
                   o.elf.c_str());
      return 2;
    }
    std::FILE* f = std::fopen(o.log.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "pmusim: cannot write the log '%s'\n", o.log.c_str());
      return 2;
    }
    std::fclose(f);
  }
  ElfImage image;
  std::string error;
  if (!load_elf(o.elf, image, error)) {
    std::fprintf(stderr, "pmusim: %s\n", error.c_str());
    return 3;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // the console's whole lines survive an emulator crash
  const auto t0 = std::chrono::steady_clock::now();
  Result r;
  switch (image.machine) {
    case 3:
      if (!pmu.empty() && pmu != "netburst") {
        std::fprintf(stderr, "pmusim: an i386 image runs with the netburst PMU, not '%s'\n", pmu.c_str());
        return 2;
      }
      r = run_i386(image, o);
      break;
    case 8: {
      // e_flags bits 31:28: the ISA level; MIPS IV (3) is RM7000 code (-march=rm7000), MIPS32r2
      // (7) is CPS code with the Coherence Manager.
      const std::uint32_t isa = image.flags >> 28;
      const bool rm7000 = isa == 3 && (pmu.empty() || pmu == "rm7000");
      const bool cm = isa == 7 && (pmu.empty() || pmu == "mips-cm");
      if (!image.big_endian || (!rm7000 && !cm)) {
        std::fprintf(stderr, "pmusim: MIPS: big-endian MIPS IV images with the rm7000 PMU, or MIPS32r2 images "
                             "with the mips-cm PMU\n");
        return pmu.empty() || pmu == "rm7000" || pmu == "mips-cm" ? 3 : 2;
      }
      r = rm7000 ? run_rm7000(image, o) : run_mips_cm(image, o);
      break;
    }
    case 40:
      if (image.big_endian || (!pmu.empty() && pmu != "xscale")) {
        std::fprintf(stderr, "pmusim: ARM: only little-endian images with the xscale PMU\n");
        return pmu.empty() || pmu == "xscale" ? 3 : 2;
      }
      r = run_xscale(image, o);
      break;
    case 20:
      if (!image.big_endian || (!pmu.empty() && pmu != "e500")) {
        std::fprintf(stderr, "pmusim: PowerPC: only big-endian images with the e500 PMU\n");
        return pmu.empty() || pmu == "e500" ? 3 : 2;
      }
      r = run_e500(image, o);
      break;
    default:
      std::fprintf(stderr, "pmusim: e_machine %u: no machine for it yet (i386, MIPS IV, ARM, PowerPC)\n",
                   image.machine);
      return 3;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fflush(stdout);
  std::fprintf(stderr,
               "pmusim: %llu instructions in %.2f s (%.1f M/s), %llu PMU accesses, %llu PMU interrupts, %llu timer "
               "interrupts\n",
               static_cast<unsigned long long>(r.instructions), s, s > 0 ? r.instructions / s / 1e6 : 0.0,
               static_cast<unsigned long long>(r.pmu_accesses), static_cast<unsigned long long>(r.interrupts),
               static_cast<unsigned long long>(r.timer_interrupts));
  for (std::size_t i = 0; i < r.other_cores.size(); ++i)
    std::fprintf(stderr, "pmusim: core %zu: %llu instructions, %llu PMU interrupts, %llu timer interrupts\n", i + 1,
                 static_cast<unsigned long long>(r.other_cores[i].instructions),
                 static_cast<unsigned long long>(r.other_cores[i].interrupts),
                 static_cast<unsigned long long>(r.other_cores[i].timer_interrupts));
  if (!r.error.empty()) {
    std::fprintf(stderr, "pmusim: %s\n", r.error.c_str());
    return 3;
  }
  return r.exit_code;
}

}  // namespace pmusim
