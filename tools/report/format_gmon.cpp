// `gmon`: GNU gprof's gmon.out, so the target's own gprof reads a firmware's samples
// (`mips-linux-gnu-gprof -b FIRMWARE.elf gmon.out`). The layout is gprof's (binutils
// gprof/gmon_out.h; the gprof manual, "Details of the gmon.out file format"): a 20-byte header
// ("gmon", version 1, 12 spare bytes), then tagged records: one histogram (tag 0) over the sampled
// PCs and one call-graph arc (tag 1) per caller -> callee pair that profile.hpp keeps. Addresses
// and counts in the target's byte order and address size (the dump's). gprof's histogram bins are
// 16 bits: a bin with more samples is an error, not a silently wrong number. Arc counts are
// samples with that caller (a PMU cannot count calls), as in the callgrind output.
#include <algorithm>
#include <map>
#include <stdexcept>

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
  const Profile& p = in.profile;
  Out o{os, d.byte_order == ByteOrder::big, d.target.address_bytes};
  // Samples per PC (raw records and histogram bins alike).
  std::map<std::uint64_t, std::uint64_t> at;
  for (const SampleCount& s : d.sample_counts) at[s.pc] += s.count;
  for (const HistogramBin& b : d.histogram) at[b.pc] += b.count;

  os.write("gmon", 4);
  o.number(1, 4);  // GMON_VERSION
  o.number(0, 4);
  o.number(0, 4);
  o.number(0, 4);

  if (!at.empty()) {
    // Bins of one instruction slot: 4 bytes, 2 on x86 (variable-length; e_machine 3), more only
    // to keep the histogram under 2^22 bins.
    const bool x86 = d.image && (d.image->elf_machine == 3 || d.image->elf_machine == 62);
    std::uint64_t bin = x86 ? 2 : 4;
    const std::uint64_t lo = at.begin()->first & ~(bin - 1);
    while (((at.rbegin()->first - lo) / bin + 1) > (1u << 22)) bin *= 2;
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

  // Arcs: the call instruction (inside the caller's body) to the callee's start.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> arcs;
  for (const auto& [c, n] : p.calls) arcs[{c.site, p.functions[c.callee].address}] += n;
  for (const auto& [pair, n] : arcs) {
    o.byte(1);  // GMON_TAG_CG_ARC
    o.address(pair.first);
    o.address(pair.second);
    o.number(std::min<std::uint64_t>(n, 0xFFFFFFFFu), 4);
  }
  if (!os) throw std::runtime_error("gmon: write failed");
}

}  // namespace pmukit
