// Symbolization speed and memory of `pmukit report`, in one run, against binutils addr2line.
//
// For each ELF (default: the pmukit executable itself, a host ELF with DWARF):
//   1. writes a dump of 1,000,000 samples spread over the ELF's functions: pc anywhere in a random
//      function, lr 0 (a quarter of them) or one of four call sites of that function (a return
//      address is a call site, and a function has few), so the dump has the shape of a profile;
//   2. times `pmukit report --format flat` (function of every pc and lr) and `--format callgrind`
//      (also the source line of each) on it, and `<addr2line> -f -C -e ELF` on the same pcs;
//   3. runs the flat report on 10k, 100k, 1M and 10M samples and prints the peak resident memory
//      next to the distinct (pc, lr) pairs: memory follows the distinct pairs, not the samples
//      (a firmware's few kilobytes of code saturate them; a large host ELF takes longer).
// The addr2line used is the cross one for the ELF's machine (arm-none-eabi-, mips-linux-gnu-,
// powerpc-linux-gnu-, i686-linux-gnu-), else the host's. Ratios are addr2line's time over ours.
//
// usage: bench_symbolize [ELF...] [--samples N] [--keep DIR] [--no-growth]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <unordered_set>
#include <utility>
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

struct Run {
  double seconds;
  long peak_kib;  // the command's peak resident set
};

// Runs `exec <command>` under /bin/sh, so the measured process is the command itself.
Run run(const std::string& command) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::cerr << "bench_symbolize: failed: " << command << '\n';
    std::exit(1);
  }
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), usage.ru_maxrss};
}

// The ELF's e_machine, from its header (EI_DATA gives the byte order); 0 if unreadable. bytes: its
// address size (EI_CLASS), which the dump's must be for pmukit to accept the ELF.
unsigned elf_machine(const std::string& path, unsigned* bytes = nullptr) {
  unsigned char h[20] = {};
  std::ifstream f(path, std::ios::binary);
  if (!f.read(reinterpret_cast<char*>(h), sizeof h) || h[0] != 0x7F || h[1] != 'E') return 0;
  if (bytes) *bytes = h[4] == 2 ? 8 : 4;
  return h[5] == 2 ? (h[18] << 8 | h[19]) : (h[19] << 8 | h[18]);
}

std::string addr2line_for(unsigned machine) {
  switch (machine) {
    case 40: return "arm-none-eabi-addr2line";  // EM_ARM
    case 8: return "mips-linux-gnu-addr2line";  // EM_MIPS
    case 20: return "powerpc-linux-gnu-addr2line";  // EM_PPC
    case 3: return "i686-linux-gnu-addr2line";  // EM_386
    default: return "addr2line";
  }
}

struct Workload {
  std::vector<const pmukit::Function*> functions;
  std::uint64_t highest = 0;
  unsigned align = 1;  // instruction alignment of the pcs: 4 on the fixed-width RISC targets
  unsigned address_bytes = 4;
};

// Writes `count` samples to `dump` (and their pcs to `addresses` when not empty); returns the
// number of distinct (pc, lr) pairs written.
std::size_t write_samples(const Workload& w, std::uint32_t count, const std::string& dump,
                          const std::string& addresses) {
  std::mt19937_64 rng(12345);
  std::vector<std::uint64_t> sites;  // four call sites per function, in random other functions
  for (std::size_t i = 0; i < 4 * w.functions.size(); ++i) {
    const pmukit::Function* c = w.functions[rng() % w.functions.size()];
    sites.push_back(c->lo + (rng() % (c->hi - c->lo)) / w.align * w.align + w.align);
  }
  std::FILE* dump_file = std::fopen(dump.c_str(), "wb");
  std::FILE* address_file = addresses.empty() ? nullptr : std::fopen(addresses.c_str(), "w");
  if (dump_file == nullptr || (!addresses.empty() && address_file == nullptr)) {
    std::cerr << "bench_symbolize: cannot write " << dump << '\n';
    std::exit(1);
  }
  FileSink sink{dump_file};
  pmu::dump::Writer writer(sink.sink());
  writer.begin({"host", "bench", 1000000000u, 64, static_cast<std::uint8_t>(w.address_bytes)});
  writer.sample_source({pmu::dump::SampleSourceKind::timer, pmu::dump::kNoCounter, 1000, 0});
  writer.begin_samples(count);
  struct PairHash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& p) const {
      return std::hash<std::uint64_t>()(p.first * 0x9E3779B97F4A7C15ull ^ p.second);
    }
  };
  std::unordered_set<std::pair<std::uint64_t, std::uint64_t>, PairHash> distinct;
  const bool count_distinct = count <= 20000000;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t k = rng() % w.functions.size();
    const pmukit::Function* f = w.functions[k];
    const std::uint64_t pc = f->lo + (rng() % (f->hi - f->lo)) / w.align * w.align;
    const std::uint64_t lr = rng() % 4 == 0 ? 0 : sites[4 * k + rng() % 4];
    writer.sample(pc, lr);
    if (count_distinct) distinct.insert({pc, lr});
    if (address_file != nullptr) std::fprintf(address_file, "0x%llx\n", static_cast<unsigned long long>(pc));
  }
  const bool ok = writer.finish() == pmu::dump::Status::ok;
  std::fclose(dump_file);
  if (address_file != nullptr) std::fclose(address_file);
  if (!ok) {
    std::cerr << "bench_symbolize: writing the dump failed\n";
    std::exit(1);
  }
  return distinct.size();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> elfs;
  std::string keep;
  std::uint32_t count = 1000000;
  bool growth = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--samples" && i + 1 < argc) count = static_cast<std::uint32_t>(std::stoul(argv[++i]));
    else if (a == "--keep" && i + 1 < argc) keep = argv[++i];
    else if (a == "--no-growth") growth = false;
    else elfs.push_back(a);
  }
  if (elfs.empty()) elfs.push_back(PMUKIT_CLI);

  std::string fresh = "/tmp/pmukit_bench_XXXXXX";
  if (keep.empty() && mkdtemp(fresh.data()) == nullptr) {
    std::cerr << "bench_symbolize: cannot make a temporary folder\n";
    return 1;
  }
  const std::string dir = keep.empty() ? fresh : keep;
  if (!keep.empty()) run("mkdir -p " + dir);
  const std::string dump = dir + "/samples.bin", addresses = dir + "/addresses.txt";
  // The generated dumps carry no build-id, which the report warns about on stderr.
  // The report goes to standard output, which the shell discards: no file outside the folder.
  const std::string report = std::string(PMUKIT_CLI) + " report >/dev/null 2>/dev/null --elf ";
  double worst = 1e30;
  for (std::size_t e = 0; e < elfs.size(); ++e) {
    const std::string& elf = elfs[e];
    const pmukit::SymbolTable symbols = pmukit::load_elf_symbols(elf);
    unsigned bytes = 4;
    const unsigned machine = elf_machine(elf, &bytes);
    Workload w;
    w.align = machine == 40 || machine == 8 || machine == 20 ? 4 : 1;
    w.address_bytes = bytes;
    for (std::uint32_t i = 0; i < symbols.function_count(); ++i)
      if (symbols.function(i).hi >= symbols.function(i).lo + 2 * w.align) w.functions.push_back(&symbols.function(i));
    if (w.functions.empty()) {
      std::cerr << "bench_symbolize: " << elf << " has no sized functions\n";
      return 1;
    }
    for (const auto* f : w.functions) w.highest = std::max(w.highest, f->hi);

    const std::size_t distinct = write_samples(w, count, dump, addresses);
    const std::string addr2line = addr2line_for(machine);
    std::cout << "ELF: " << elf << " (machine " << machine << ", " << w.functions.size()
              << " functions, " << symbols.line_range_count() << " line ranges)\n"
              << "  samples: " << count << " (pc and lr each), " << distinct << " distinct (pc, lr)\n";
    const Run flat = run(report + elf + " --format flat " + dump);
    const Run lines = run(report + elf + " --format callgrind " + dump);
    const Run theirs = run(addr2line + " -f -C -e " + elf + " <" + addresses + " >/dev/null");
    std::printf("  pmukit report --format flat:      %7.3f s  %7ld KiB peak\n", flat.seconds, flat.peak_kib);
    std::printf("  pmukit report --format callgrind: %7.3f s  %7ld KiB peak (and the line of each)\n",
                lines.seconds, lines.peak_kib);
    std::printf("  %s -f -C (pc only):  %7.3f s\n", addr2line.c_str(), theirs.seconds);
    std::printf("  ratio addr2line / pmukit flat:      %6.1fx\n", theirs.seconds / flat.seconds);
    std::printf("  ratio addr2line / pmukit callgrind: %6.1fx\n", theirs.seconds / lines.seconds);
    worst = std::min(worst, theirs.seconds / lines.seconds);

    if (growth) {
      std::cout << "  memory growth, flat report on the same ELF:\n";
      std::printf("  %10s %12s %10s %10s\n", "samples", "distinct", "seconds", "peak KiB");
      for (std::uint32_t n : {10000u, 100000u, 1000000u, 10000000u}) {
        const std::size_t d = write_samples(w, n, dump, "");
        const Run r = run(report + elf + " --format flat " + dump);
        std::printf("  %10u %12zu %10.3f %10ld\n", n, d, r.seconds, r.peak_kib);
      }
    }
    std::cout << std::flush;
  }
  std::printf("slowest ratio (addr2line / pmukit callgrind) over %zu ELF(s): %.1fx (goal >= 20x)\n",
              elfs.size(), worst);
  if (keep.empty()) run("rm -rf " + dir);
  return 0;
}
