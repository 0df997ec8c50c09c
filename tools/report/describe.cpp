#include "tools/report/describe.hpp"

#include "profiler/dump/format.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {

std::string describe_target(const Dump& d) {
  const Target& t = d.target;
  // 0 means the firmware did not know its counter clock (e.g. the core clock): say so, not "0 Hz".
  const std::string clock =
      t.counter_clock_hz == 0 ? "unknown" : std::to_string(t.counter_clock_hz) + " Hz";
  return t.id + ", PMU " + t.pmu + ", counter clock " + clock + ", " +
         std::to_string(t.counter_width_bits) + "-bit counters";
}

std::string describe_counter(const Counter& c) {
  // Appends only: GCC 12 at -O3 warns falsely (-Wrestrict) on "literal" + std::string.
  std::string s = "#";
  s += std::to_string(c.slot);
  s += ' ';
  s += c.name;
  if (c.preset.empty()) {
    s += ": raw event ";
  } else {
    s += ": preset ";
    s += c.preset;
    s += ", event ";
  }
  s += hex(c.event_code, 2);
  s += ", ";
  s += std::to_string(c.width_bits);
  s += " bits";
  return s;
}

std::string counter_label(const Counter& c) {
  if (c.preset.empty() || c.preset == c.name) return c.name;
  std::string s = c.name;
  s += " (";
  s += c.preset;
  s += ')';
  return s;
}

namespace {
// "; 12 with stacks, 36 stack captures dropped": what the capture rings kept and lost.
std::string describe_captures(const char* what, std::size_t kept, const std::optional<std::uint64_t>& dropped) {
  if (kept == 0 && dropped.value_or(0) == 0) return "";
  return "; " + std::to_string(kept) + " with " + what + ", " +
         (dropped ? std::to_string(*dropped) : std::string("unknown (format 1.2)")) + " " + what + " dropped";
}
}  // namespace

std::string describe_source(const Dump& d) {
  const std::string captures = describe_captures("stacks", d.stacks.size(), d.stacks_dropped) +
                               describe_captures("walked chains", d.frames.size(), d.frames_dropped);
  if (!d.source) return "no sample source recorded" + captures;
  const SampleSource& s = *d.source;
  std::string text = source_kind_name(s.kind);
  if (s.kind == static_cast<unsigned>(pmu::dump::SampleSourceKind::pmu_overflow))
    text += " on counter " + std::to_string(s.counter_slot) + " every " +
            std::to_string(s.period) + " events";
  else if (s.kind == static_cast<unsigned>(pmu::dump::SampleSourceKind::timer))
    text += " every " + std::to_string(s.period) + " ns";
  else
    text += " (kind " + std::to_string(s.kind) + ", period " + std::to_string(s.period) + ")";
  return text + ", " + std::to_string(s.dropped) + " dropped" + captures;
}

std::string region_flags(const Region& r) {
  std::string s;
  const std::string of = " of " + std::to_string(r.calls) + " calls ";
  if (r.clamped.value_or(0) != 0)
    s = std::to_string(*r.clamped) + of + "clamped to 0 (below the calibrated overhead)";
  if (r.voided.value_or(0) != 0)
    s += (s.empty() ? std::to_string(*r.voided) + of : ", " + std::to_string(*r.voided) + " ") +
         "voided (the counters were reset inside)";
  if (!s.empty()) s += ": they add 0 to its total, min and mean";
  if (r.interrupts.value_or(0) != 0)
    s += (s.empty() ? "" : "; ") + std::to_string(*r.interrupts) +
         " sampling interrupts fell inside its calls: their handlers' events are in its counts";
  return s;
}

namespace {
// "3 samples, 2 stack captures": what the firmware's rings lost, or "" when nothing.
std::string drops(const Dump& d) {
  std::string s;
  auto add = [&](std::uint64_t n, const char* what) {
    if (n != 0) s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  add(d.source ? d.source->dropped : 0, "samples");
  add(d.stacks_dropped.value_or(0), "stack captures");
  add(d.frames_dropped.value_or(0), "walked chains");
  return s;
}

// What the sampled counter counted inside the regions (the armed counter still counts: its
// events are in the regions' totals): the largest region total, and its region.
struct Counted {
  bool known = false;
  std::uint64_t most = 0;
  std::string region;
};
Counted counted_by(const Dump& d, unsigned slot) {
  Counted c;
  for (std::size_t i = 0; i < d.counters.size(); ++i) {
    if (d.counters[i].slot != slot) continue;
    for (const Region& r : d.regions) {
      if (i >= r.stats.size()) continue;
      if (!c.known || r.stats[i].total > c.most) c.most = r.stats[i].total, c.region = r.name;
      c.known = true;
    }
  }
  return c;
}
}  // namespace

NoSamples why_no_samples(const Dump& d, const Profile& p, bool with_symbols) {
  if (p.total != 0) {
    if (!with_symbols || p.unknown_samples() != p.total) return {};
    return {"no sample in a function", "all " + std::to_string(p.total) + " samples are in no function of the ELF: it is not the "
            "program that ran (another build), or the code they hit has no symbol (a stripped ELF, "
            "code loaded from elsewhere)",
            "give --elf the ELF that ran, with its symbol table"};
  }
  if (const std::string lost = drops(d); !lost.empty())
    return {"no samples", "every sample taken was dropped, none kept (" + lost + " dropped): the firmware could not "
            "keep them (a full ring, or its samples drained before the dump was written)",
            "a bigger ring (SampleRing<N>, StackRing<N>), a longer period (fewer samples), and the dump "
            "written before anything else empties the ring"};
  if (!d.source)
    return {"no samples", "the dump has no sample source: no sampler was armed for it (the firmware wrote it "
            "without a SAMPLE_SOURCE)",
            "arm a Sampler (profiler/sampler.hpp) on a counter or a timer and give write_dump its "
            "ring (profiler/emit.hpp)"};
  const SampleSource& s = *d.source;
  std::uint64_t interrupts = 0;
  bool interrupts_known = !d.regions.empty();
  for (const Region& r : d.regions) {
    interrupts += r.interrupts.value_or(0);
    interrupts_known &= r.interrupts.has_value();
  }
  if (interrupts != 0)
    return {"no samples", std::to_string(interrupts) + " sampling interrupts were taken inside the regions, but the "
            "ring was empty when the dump was written (drained or reset before it, or not the ring "
            "the Sampler records into)",
            "write the dump from the Sampler's own ring before anything drains it (an earlier dump "
            "in the same log took them: --frame N picks it)"};
  const bool pmu = s.kind == static_cast<unsigned>(pmu::dump::SampleSourceKind::pmu_overflow);
  const bool timer = s.kind == static_cast<unsigned>(pmu::dump::SampleSourceKind::timer);
  std::string why = std::string("no sampling interrupt was taken") +
                    (interrupts_known ? " (none inside the regions either)" : "") + ": ";
  std::string todo;
  if (pmu) {
    const Counted c = counted_by(d, s.counter_slot);
    const std::string counter = "counter " + std::to_string(s.counter_slot);
    const std::string period = std::to_string(s.period) + " events";
    const std::string route = "unmask interrupts, enable the PMU's overflow interrupt and route it (the board's "
                              "interrupt controller) to the Sampler's on_pmu_interrupt";
    if (c.known && c.most == 0) {
      why += counter + " counted 0 events in every region: the PMU does not count (an emulator's PMU that "
             "counts nothing, or a counter never started)";
      todo = "run where the PMU counts (pmusim: scripts/profile.sh --sim), or sample from a timer";
    } else if (c.known && c.most >= s.period) {
      why += counter + " counted " + std::to_string(c.most) + " events in region '" + c.region +
             "', more than one period (" + period + "): it overflowed and its interrupt was not taken "
             "(interrupts masked, or the overflow interrupt not enabled or not routed to the core)";
      todo = route + "; where the emulator raises none, run under pmusim (scripts/profile.sh --sim) or "
             "sample from a timer";
    } else {
      if (c.known)
        why += counter + " counted at most " + std::to_string(c.most) + " events in a region, less than one "
               "period (" + period + "): a run shorter than one period, or ";
      why += "interrupts masked, the PMU's overflow interrupt not enabled or not routed to the core, or a "
             "PMU that does not count";
      if (!c.known) why += ", or a run shorter than one period (" + period + ")";
      todo = "a shorter period; " + route + "; on an emulator whose PMU counts nothing, run under pmusim "
             "(scripts/profile.sh --sim)";
    }
  } else if (timer) {
    why += "interrupts masked, the timer's interrupt not enabled or not routed to the core, or a run "
           "shorter than one period (" + std::to_string(s.period) + " ns)";
    todo = "unmask interrupts, enable the timer and route its interrupt to the Sampler's "
           "on_timer_tick; a shorter period";
  } else {
    why += "a sample source of unknown kind " + std::to_string(s.kind);
    todo = "check the sampling interrupt of the firmware that wrote it";
  }
  return {"no samples", why, todo};
}

std::string byte_order_name(ByteOrder o) {
  return o == ByteOrder::big ? "big-endian" : "little-endian";
}

std::string mean(const CounterStats& s, std::uint64_t calls, unsigned decimals) {
  return fixed_ratio(s.total, calls, decimals);
}

}  // namespace pmukit
