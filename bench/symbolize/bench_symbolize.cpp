// Symbolization speed and memory of `pmukit report`, in one run, against binutils addr2line.
//
// For each ELF (default: the pmukit executable itself, a host ELF with DWARF):
//   1. writes a dump of 1,000,000 samples spread over the ELF's functions: pc anywhere in a random
//      function, lr 0 (a quarter of them) or one of four call sites of that function (a return
//      address is a call site, and a function has few), so the dump has the shape of a profile;
//   2. times `<addr2line> -f -C -e ELF` on the same pcs and `pmukit report --format F` on the dump
//      for every format F of the report (flat: the function of every pc and lr; callgrind, gmon,
//      csv...: also the source line of each), each the median of --repeat runs (3) by CPU time;
//   3. runs the flat report on 10k, 100k, 1M and 10M samples and prints the peak resident memory
//      next to the distinct (pc, lr) pairs: memory follows the distinct pairs, not the samples
//      (a firmware's few kilobytes of code saturate them; a large host ELF takes longer).
// Every command is a fresh exec from a small launcher (this program re-run with --spawn), and its
// peak is wait4()'s ru_maxrss for it alone: a fork of the benchmark would start with the
// benchmark's pages as its high-water mark.
// The addr2line used is the cross one for the ELF's machine (arm-none-eabi-, mips-linux-gnu-,
// powerpc-linux-gnu-, i686-linux-gnu-), else the host's. Ratios are addr2line's CPU time over ours
// (the machine is shared: CPU time varies less than wall time, which is printed too).
//
// usage: bench_symbolize [ELF...] [--samples N] [--repeat N] [--keep DIR] [--no-growth] [--pmukit PATH]
#include <fcntl.h>
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
  double seconds;  // wall clock
  double cpu;      // the command's user + system time
  long peak_kib;   // the command's peak resident set
};

// --spawn mode: bench_symbolize, freshly exec'd and so a few hundred KiB resident, forks and
// execs the command, and prints its wall time, CPU time and ru_maxrss. A child inherits its
// parent's resident set as its high-water mark at fork and keeps it through exec, so a command
// forked straight from the benchmark (hundreds of MB of symbols after a large ELF) reported the
// benchmark's memory, not its own.
int spawn(int argc, char** argv) {
  // argv: --spawn STDIN COMMAND ARGS...
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const int in = open(argv[2], O_RDONLY), out = open("/dev/null", O_WRONLY);
    if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0) _exit(126);
    execvp(argv[3], argv + 3);
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (argc < 4 || pid < 0 || wait4(pid, &status, 0, &usage) != pid) return 1;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                     static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  std::printf("%d %.6f %.6f %ld\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128, wall, cpu, usage.ru_maxrss);
  return 0;
}

// Runs `args` (stdin from `in`, output discarded) as a fresh exec, `repeat` times; the run of
// median CPU time (the machine is shared: wall time varies more).
std::string self;     // this program's path, for --spawn
std::string scratch;  // the temporary folder, removed on failure too

Run run(const std::vector<std::string>& args, const std::string& in = "/dev/null", int repeat = 1) {
  std::string command = "'" + self + "' --spawn '" + in + "'";
  for (const std::string& a : args) command += " '" + a + "'";
  std::vector<Run> runs;
  for (int i = 0; i < repeat; ++i) {
    std::FILE* p = popen(command.c_str(), "r");
    int status = -1;
    Run r{};
    if (p == nullptr || std::fscanf(p, "%d %lf %lf %ld", &status, &r.seconds, &r.cpu, &r.peak_kib) != 4 ||
        pclose(p) != 0 || status != 0) {
      std::cerr << "bench_symbolize: failed: " << command << '\n';
      if (!scratch.empty()) std::system(("rm -rf '" + scratch + "'").c_str());
      std::exit(1);
    }
    runs.push_back(r);
  }
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.cpu < b.cpu; });
  return runs[runs.size() / 2];
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
  if (argc > 1 && std::string(argv[1]) == "--spawn") return spawn(argc, argv);
  std::vector<std::string> elfs;
  std::string keep;
  std::uint32_t count = 1000000;
  int repeat = 3;
  bool growth = true;
  std::string pmukit = PMUKIT_CLI;  // --pmukit: another build's, to compare in one run
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--samples" && i + 1 < argc) count = static_cast<std::uint32_t>(std::stoul(argv[++i]));
    else if (a == "--keep" && i + 1 < argc) keep = argv[++i];
    else if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::stoi(argv[++i]));
    else if (a == "--no-growth") growth = false;
    else if (a == "--pmukit" && i + 1 < argc) pmukit = argv[++i];
    else elfs.push_back(a);
  }
  if (elfs.empty()) elfs.push_back(PMUKIT_CLI);
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) {
    std::cerr << "bench_symbolize: cannot find its own path\n";
    return 1;
  }
  self.assign(path, static_cast<std::size_t>(n));

  std::string fresh = "/tmp/pmukit_bench_XXXXXX";
  if (keep.empty() && mkdtemp(fresh.data()) == nullptr) {
    std::cerr << "bench_symbolize: cannot make a temporary folder\n";
    return 1;
  }
  const std::string dir = keep.empty() ? fresh : keep;
  if (keep.empty()) scratch = dir;
  if (!keep.empty()) run({"mkdir", "-p", dir});
  const std::string dump = dir + "/samples.bin", addresses = dir + "/addresses.txt";
  // Every format `pmukit report` has that shows samples (trace shows region timings, which these
  // dumps have none of). The generated dumps carry no build-id, which the report warns about on
  // stderr; the report goes to standard output, discarded: no file outside the folder.
  const std::vector<std::string> formats = {"table", "flat", "folded", "callgrind", "json",      "csv",
                                            "html",  "svg",  "gmon",   "callgraph", "pprof"};
  const auto report = [&](const std::string& elf, const std::string& format) {
    return std::vector<std::string>{pmukit, "report", "--elf", elf, "--format", format, dump};
  };
  const Run floor = run({"true"});
  std::printf("fresh exec of `true` through the launcher: %ld KiB peak (the floor of every peak below)\n",
              floor.peak_kib);
  double worst = 1e30;
  std::string worst_what;
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
              << "  samples: " << count << " (pc and lr each), " << distinct << " distinct (pc, lr); "
              << "median of " << repeat << " runs, CPU time (user + system) and wall time\n";
    const Run theirs = run({addr2line, "-f", "-C", "-e", elf}, addresses, repeat);
    std::printf("  %-34s %7.3f s CPU %7.3f s wall %8ld KiB peak\n", (addr2line + " -f -C (pc only)").c_str(),
                theirs.cpu, theirs.seconds, theirs.peak_kib);
    for (const std::string& format : formats) {
      const Run r = run(report(elf, format), "/dev/null", repeat);
      const double ratio = theirs.cpu / r.cpu;
      std::printf("  pmukit report --format %-11s %7.3f s CPU %7.3f s wall %8ld KiB peak  ratio %6.1fx\n",
                  format.c_str(), r.cpu, r.seconds, r.peak_kib, ratio);
      if (ratio < worst) {
        worst = ratio;
        worst_what = format + " on " + elf;
      }
    }

    if (growth) {
      std::cout << "  memory growth, flat report on the same ELF (fresh exec's peak):\n";
      std::printf("  %10s %12s %10s %10s\n", "samples", "distinct", "CPU s", "peak KiB");
      for (std::uint32_t k : {10000u, 100000u, 1000000u, 10000000u}) {
        const std::size_t d = write_samples(w, k, dump, "");
        const Run r = run(report(elf, "flat"));
        std::printf("  %10u %12zu %10.3f %10ld\n", k, d, r.cpu, r.peak_kib);
      }
    }
    std::cout << std::flush;
  }
  std::printf("slowest ratio (addr2line / pmukit, CPU time) over %zu ELF(s) and %zu formats: %.1fx, %s (goal >= 30x)\n",
              elfs.size(), formats.size(), worst, worst_what.c_str());
  if (keep.empty()) run({"rm", "-rf", dir});
  return 0;
}
