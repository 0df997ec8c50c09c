// pmukit: the host-side reader of profile dumps. See `pmukit --help` and docs/dump-format.md.
#include <exception>
#ifdef __GLIBC__
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#endif
#include <iostream>
#include <string>
#include <vector>

#include "tools/cli/args.hpp"
#include "tools/cli/commands.hpp"
#include "tools/report/text_util.hpp"
#if PMUKIT_WITH_SIM
#include "tools/sim/run.hpp"
#endif

#ifdef __GLIBC__
namespace {

// A run of pmukit is short and its large tables come and go (a hash table doubling, the sorted
// samples, the stacks): a fresh page costs a fault and a clear, and they were a third of a large
// report's CPU time. So freed memory is kept for the next allocation instead of going back to the
// kernel, every table up to 32 MiB comes from that reused heap, not a fresh mapping, and on a
// 64-bit Linux host the heap is grown once by 256 MiB of address space (touched only as used)
// marked for transparent huge pages, where the kernel makes them on request: one fault per 2 MiB
// instead of 512. Growth past that, or a kernel without them, is the ordinary heap. Only for the
// commands that read a whole dump or ELF (loads_big_inputs): --version, help and the rest start
// without it.
void tune_heap() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (sizeof(void*) < 8) return;
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto start = reinterpret_cast<std::uintptr_t>(sbrk(0));
  mallopt(M_TOP_PAD, 256 << 20);
  void* volatile grow = std::malloc(1 << 20);  // the heap grows here, by the pad (volatile: kept)
  std::free(grow);
  mallopt(M_TOP_PAD, 128 << 10);    // glibc's default, for any later growth
  const auto end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  const std::uintptr_t lo = (start + kHuge - 1) & ~(kHuge - 1);
  if (end > lo) madvise(reinterpret_cast<void*>(lo), end - lo, MADV_HUGEPAGE);
#endif
}

// The commands whose input is a whole dump (or several) and an ELF's symbols and lines.
bool loads_big_inputs(const std::string& command) {
  return command == "report" || command == "diff" || command == "stat" || command == "annotate" ||
         command == "decode";
}

}  // namespace
#endif

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    pmukit::print_usage(args.empty() ? std::cerr : std::cout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::cout << "pmukit " PMUKIT_VERSION "\n";
    return 0;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  // COMMAND --help / -h anywhere among its arguments: that command's help.
  for (const std::string& r : rest)
    if (r == "--help" || r == "-h") {
      if (pmukit::print_command_help(std::cout, args[0])) return 0;
      break;  // an unknown command: reported below
    }
#ifdef __GLIBC__
  if (loads_big_inputs(args[0])) tune_heap();
#endif
  // Messages quote names and lines from the input: printable() keeps each one terminal-safe line.
  try {
    if (args[0] == "help") return pmukit::run_help(rest);
    if (args[0] == "diff") return pmukit::run_diff(rest);
    if (args[0] == "stat") return pmukit::run_stat(rest);
    if (args[0] == "annotate") return pmukit::run_annotate(rest);
    if (args[0] == "report") return pmukit::run_report(rest);
    if (args[0] == "decode") return pmukit::run_decode(rest);
    if (args[0] == "events") return pmukit::run_events(rest);
    if (args[0] == "encode") return pmukit::run_encode(rest);
    if (args[0] == "record") return pmukit::run_record(rest);
    if (args[0] == "top") return pmukit::run_top(rest);
    if (args[0] == "conformance") return pmukit::run_conformance(rest);
    if (args[0] == "sim") {
#if PMUKIT_WITH_SIM
      return pmusim::run_command(rest);
#else
      throw pmukit::UsageError("this pmukit was built without Unicorn (libunicorn-dev): no 'sim'");
#endif
    }
    throw pmukit::UsageError("unknown command '" + args[0] + "'");
  } catch (const pmukit::UsageError& e) {
    std::cerr << "pmukit: error: " << pmukit::printable(e.what()) << " (see pmukit --help)\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "pmukit: error: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "pmukit: error: " << pmukit::printable(e.what()) << '\n';
    return 1;
  }
}
