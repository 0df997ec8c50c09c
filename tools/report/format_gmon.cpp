// `gmon`: GNU gprof's gmon.out, so the target's own gprof reads a firmware's samples
// (`mips-linux-gnu-gprof -b FIRMWARE.elf gmon.out`). The layout is gprof's (binutils
// gprof/gmon_out.h; the gprof manual, "Details of the gmon.out file format"): a 20-byte header
// ("gmon", version 1, 12 spare bytes), then one histogram record (tag 0) over the sampled PCs.
// Addresses and counts in the target's byte order and address size (the dump's). gprof's
// histogram bins are 16 bits: a bin with more samples is an error, not a silently wrong number.
// No call-graph arcs (tag 1): an arc's count is a number of calls, which gprof prints as such and
// divides a function's time among its callers by; a PMU sample cannot count calls. The call
// graph of samples is in the callgraph, callgrind, folded and pprof outputs.
#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "profiler/dump/format.hpp"
#include "tools/report/formats.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

struct Out {
  std::ostream& os;
  bool big;
  unsigned address_bytes;
  void byte(std::uint8_t b) { os.put(static_cast<char>(b)); }
  void number(std::uint64_t v, unsigned bytes) {
    for (unsigned i = 0; i < bytes; ++i) {
      const unsigned shift = 8 * (big ? bytes - 1 - i : i);
      byte(static_cast<std::uint8_t>(v >> shift));
    }
  }
  void address(std::uint64_t a) { number(a, address_bytes); }
};

}  // namespace

void write_gmon(std::ostream& os, const ReportInput& in) {
  const Dump& d = in.dump;
  Out o{os, d.byte_order == ByteOrder::big, d.target.address_bytes};
  // Samples per PC (raw records and histogram bins alike), sorted by pc: the sample counts come
  // sorted, so a histogram alone needs sorting.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> at;
  at.reserve(d.sample_counts.size() + d.histogram.size());
  for (const SampleCount& s : d.sample_counts) at.emplace_back(s.pc, s.count);
  for (const HistogramBin& b : d.histogram) at.emplace_back(b.pc, b.count);
  if (!d.histogram.empty())
    std::sort(at.begin(), at.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t distinct = 0;
  for (std::size_t i = 0; i < at.size(); ++i) {
    if (distinct != 0 && at[distinct - 1].first == at[i].first) at[distinct - 1].second += at[i].second;
    else at[distinct++] = at[i];
  }
  at.resize(distinct);

  os.write("gmon", 4);
  o.number(1, 4);  // GMON_VERSION
  o.number(0, 4);
  o.number(0, 4);
  o.number(0, 4);

  if (!at.empty()) {
    // Bins of one instruction slot: 4 bytes, 2 where a sampled pc or a function's start is
    // not aligned to that (Thumb, MIPS16, x86's variable lengths), so no bin holds two functions'
    // samples (gprof would split it between them); more only to keep the histogram under 2^22 bins.
    std::uint64_t bin = 4;
    const auto aligned = [&](std::uint64_t a) { return a % bin == 0; };
    const SymbolTable* st = in.profile.symbols;
    while (bin > 2) {  // gprof counts addresses in 2-byte units: a 1-byte bin is misread
      bool all = true;
      for (const auto& [pc, n] : at) all = all && aligned(pc);
      for (std::size_t i = 0; st != nullptr && all && i < st->function_count(); ++i) {
        const Function& f = st->function(static_cast<std::uint32_t>(i));
        if (f.lo >= at.begin()->first && f.lo <= at.rbegin()->first) all = aligned(f.lo);
      }
      if (all) break;
      bin /= 2;
    }
    const std::uint64_t lo = at.begin()->first & ~(bin - 1);
    const std::uint64_t slot = bin;
    while (((at.rbegin()->first - lo) / bin + 1) > (1u << 22)) bin *= 2;
    // Wider bins hold several functions' code, which gprof splits between them by size: said.
    if (bin != slot && in.options.warnings != nullptr)
      in.options.warnings->push_back("gmon: the sampled pcs span " + hex(at.rbegin()->first - lo, 8) +
                                     " bytes, so each histogram bin covers " + std::to_string(bin) +
                                     " bytes and gprof divides a bin's samples among the functions in it "
                                     "(the other formats are exact)");
    const std::uint64_t bins = (at.rbegin()->first - lo) / bin + 1;
    std::vector<std::uint64_t> counts(bins, 0);
    for (const auto& [pc, n] : at) counts[(pc - lo) / bin] += n;
    for (std::size_t i = 0; i < bins; ++i)
      if (counts[i] > 0xFFFF)
        throw ReportRefused("gmon: " + std::to_string(counts[i]) + " samples in one histogram bin at " +
                                 hex(lo + i * bin, 8) + ", more than gmon.out's 16-bit counts hold");
    // The rate: samples per second where the dump says (a timer's period, or a counter whose
    // clock is known); otherwise each sample counts as one "sample".
    std::uint64_t rate = 0;
    if (d.source && d.source->period != 0) {
      if (d.source->kind == static_cast<unsigned>(pmu::dump::SampleSourceKind::timer))
        rate = 1000000000ull / d.source->period;
      else if (d.target.counter_clock_hz != 0) rate = d.target.counter_clock_hz / d.source->period;
    }
    const char* dimen = rate != 0 ? "seconds" : "samples";
    o.byte(0);  // GMON_TAG_TIME_HIST
    o.address(lo);
    o.address(lo + bins * bin);
    o.number(bins, 4);
    o.number(rate != 0 ? rate : 1, 4);
    char text[15] = {};
    std::copy_n(dimen, std::char_traits<char>::length(dimen), text);
    os.write(text, sizeof text);
    o.byte(rate != 0 ? 's' : 'n');
    for (std::uint64_t c : counts) o.number(c, 2);
  }

  // gprof ends each function at the next symbol of its symbol table, so a function with no symbol
  // after it is never credited (binutils gprof, hist.c). Said, not silently lost.
  if (const SymbolTable* st = in.profile.symbols; !at.empty() && st != nullptr && !st->empty() && in.options.warnings != nullptr) {
    const Function& last = st->function(static_cast<std::uint32_t>(st->function_count() - 1));
    std::uint64_t lost = 0;
    for (const auto& [pc, n] : at)
      if (pc >= last.lo && pc < last.hi) lost += n;
    if (lost != 0 && st->last_code_symbol() <= last.lo)
      in.options.warnings->push_back(
          "gmon: gprof will not credit the " + std::to_string(lost) + " samples in '" + last.name +
          "': no symbol follows it in the ELF, and gprof ends a function at the next symbol (a label "
          "after the code, `_etext = .;` at the end of .text in the linker script, fixes it)");
  }
  if (!os) throw std::runtime_error("gmon: write failed");
}

}  // namespace pmukit
