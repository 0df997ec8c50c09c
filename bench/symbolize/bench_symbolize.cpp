// Generates 1,000,000 samples spread over a real ELF's functions, then times, in one run:
//   1. `pmukit report --elf ELF --format flat` on a dump of those samples (decode, find the
//      function of every pc and lr, aggregate, print),
//   2. the same with `--format callgrind` (also the source line of every pc and lr), and
//   3. `addr2line -f -e ELF` symbolizing the same 1,000,000 pcs (function and line), fed through
//      standard input.
// Prints the wall-clock times and the ratios.
//
// usage: bench_symbolize [ELF] [--samples N] [--addr2line PROGRAM] [--keep DIR]
//   ELF defaults to the pmukit executable itself (a host ELF with DWARF in RelWithDebInfo).
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "profiler/dump/writer.hpp"
#include "tools/elf/elf_symbols.hpp"

namespace {

struct FileSink {
  std::FILE* f;
  pmu::dump::Sink sink() {
    return {[](void* ctx, const std::uint8_t* data, std::size_t n) {
              return std::fwrite(data, 1, n, static_cast<FileSink*>(ctx)->f) == n;
            },
            this};
  }
};

double run_seconds(const std::string& command) {
  const auto start = std::chrono::steady_clock::now();
  const int status = std::system(command.c_str());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::cerr << "bench_symbolize: failed: " << command << '\n';
    std::exit(1);
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::string elf = PMUKIT_CLI, addr2line = "addr2line", keep;
  std::uint32_t count = 1000000;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--samples" && i + 1 < argc) count = static_cast<std::uint32_t>(std::stoul(argv[++i]));
    else if (a == "--addr2line" && i + 1 < argc) addr2line = argv[++i];
    else if (a == "--keep" && i + 1 < argc) keep = argv[++i];
    else elf = a;
  }

  const pmukit::SymbolTable symbols = pmukit::load_elf_symbols(elf);
  std::vector<const pmukit::Function*> functions;
  for (std::uint32_t i = 0; i < symbols.function_count(); ++i)
    if (symbols.function(i).hi > symbols.function(i).lo) functions.push_back(&symbols.function(i));
  std::uint64_t highest = 0;
  for (const auto* f : functions) highest = std::max(highest, f->hi);

  const std::string dir = keep.empty() ? "/tmp/pmukit_bench_" + std::to_string(getpid()) : keep;
  run_seconds("mkdir -p " + dir);
  const std::string dump = dir + "/samples.bin", addresses = dir + "/addresses.txt";

  // Random functions, random offsets inside them; LR in another random function or 0.
  std::mt19937_64 rng(12345);
  std::FILE* dump_file = std::fopen(dump.c_str(), "wb");
  std::FILE* address_file = std::fopen(addresses.c_str(), "w");
  if (dump_file == nullptr || address_file == nullptr) {
    std::cerr << "bench_symbolize: cannot write to " << dir << '\n';
    return 1;
  }
  FileSink sink{dump_file};
  pmu::dump::Writer w(sink.sink());
  const std::uint8_t address_bytes = highest > 0xFFFFFFFFu ? 8 : 4;
  w.begin({"host", "bench", 1000000000u, 64, address_bytes});
  w.sample_source({pmu::dump::SampleSourceKind::timer, pmu::dump::kNoCounter, 1000, 0});
  w.begin_samples(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const pmukit::Function* f = functions[rng() % functions.size()];
    const pmukit::Function* caller = functions[rng() % functions.size()];
    const std::uint64_t pc = f->lo + rng() % (f->hi - f->lo);
    const std::uint64_t lr = rng() % 4 == 0 ? 0 : caller->lo + rng() % (caller->hi - caller->lo);
    w.sample(pc, lr);
    std::fprintf(address_file, "0x%llx\n", static_cast<unsigned long long>(pc));
  }
  const bool ok = w.finish() == pmu::dump::Status::ok;
  std::fclose(dump_file);
  std::fclose(address_file);
  if (!ok) {
    std::cerr << "bench_symbolize: writing the dump failed\n";
    return 1;
  }

  std::cout << "ELF:        " << elf << " (" << functions.size() << " functions, "
            << symbols.line_range_count() << " line ranges)\n"
            << "samples:    " << count << " (pc and lr each)\n";
  const std::string report = std::string(PMUKIT_CLI) + " report --elf " + elf + " -o /dev/null ";
  const double ours = run_seconds(report + "--format flat " + dump);
  std::cout << "pmukit report --format flat:   " << ours << " s (function of every pc and lr)\n"
            << std::flush;
  const double lines = run_seconds(report + "--format callgrind " + dump);
  std::cout << "pmukit report --format callgrind: " << lines
            << " s (also the source line of every pc and lr)\n" << std::flush;
  const double theirs = run_seconds(addr2line + " -f -e " + elf + " <" + addresses + " >/dev/null");
  std::cout << addr2line << " -f (pc only): " << theirs << " s\n"
            << "ratio addr2line / pmukit flat:      " << theirs / ours << "x\n"
            << "ratio addr2line / pmukit callgrind: " << theirs / lines << "x\n";
  if (keep.empty()) run_seconds("rm -rf " + dir);
  return 0;
}
