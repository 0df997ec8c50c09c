#include "tools/events/events_listing.hpp"

#include <cstdio>
#include <string>

#include "tools/report/json_writer.hpp"
#include "tools/report/metrics.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

std::string flag_text(std::uint32_t flags) {
  std::string s;
  if (flags & pmu::kEventNeedsThreshold) s += " [threshold]";
  if (flags & pmu::kEventQualified) s += " [qualifier: raw value]";
  if (flags & pmu::kEventChainSource) s += " [chain-source]";
  return s;
}

}  // namespace

std::string counter_list(std::uint32_t mask) {
  std::string s;
  for (unsigned i = 0; i < 32;) {
    if (!(mask >> i & 1u)) {
      ++i;
      continue;
    }
    unsigned j = i;
    while (j + 1 < 32 && (mask >> (j + 1) & 1u)) ++j;
    if (!s.empty()) s += ',';
    s += std::to_string(i);
    if (j > i) {
      s += j == i + 1 ? ',' : '-';
      s += std::to_string(j);
    }
    i = j + 1;
  }
  return s.empty() ? "none" : s;
}

void write_events_text(std::ostream& os, std::span<const pmu::PmuCatalog> catalogs) {
  for (std::size_t k = 0; k < catalogs.size(); ++k) {
    const pmu::PmuCatalog& c = catalogs[k];
    if (k != 0) os << '\n';
    os << c.id << ": " << c.description << " (" << c.num_counters << " counters, "
       << c.counter_width << "-bit)\n";
    if (c.num_presets != 0) {
      os << "\n  Presets:\n";
      TextTable t({TextTable::left, TextTable::left, TextTable::left});
      for (std::size_t i = 0; i < c.num_presets; ++i) {
        const pmu::PresetBinding& p = c.presets[i];
        t.row({pmu::preset_name(p.preset),
               std::string("-> ") + pmu::event_name(c, p.code) + " (" + hex(p.code, 2) + ")",
               "[counters " + counter_list(p.counters) + "]"});
      }
      t.print(os, "    ");
    }
    os << "\n  Events:\n";
    TextTable t({TextTable::left, TextTable::right, TextTable::left, TextTable::left});
    for (std::size_t i = 0; i < c.num_events; ++i) {
      const pmu::EventInfo& e = c.events[i];
      t.row({e.name, hex(e.code, 2), "[counters " + counter_list(e.counters) + "]",
             std::string(e.description) + flag_text(e.flags)});
    }
    t.print(os, "    ");
  }
}

void write_events_json(std::ostream& os, std::span<const pmu::PmuCatalog> catalogs) {
  JsonWriter j(os);
  j.begin_array();
  for (const pmu::PmuCatalog& c : catalogs) {
    j.begin_object().field("id", c.id).field("description", c.description);
    j.field("counter_width", c.counter_width).field("num_counters", c.num_counters);
    j.key("presets").begin_array();
    for (std::size_t i = 0; i < c.num_presets; ++i) {
      const pmu::PresetBinding& p = c.presets[i];
      j.begin_object().field("preset", pmu::preset_name(p.preset)).field("event_code", p.code);
      j.field("event", pmu::event_name(c, p.code)).field("counters", counter_list(p.counters)).end_object();
    }
    j.end_array().key("events").begin_array();
    for (std::size_t i = 0; i < c.num_events; ++i) {
      const pmu::EventInfo& e = c.events[i];
      j.begin_object().field("name", e.name).field("code", e.code);
      j.field("description", e.description).field("counters", counter_list(e.counters));
      j.key("flags").begin_array();
      if (e.flags & pmu::kEventNeedsThreshold) j.value("threshold");
      if (e.flags & pmu::kEventQualified) j.value("qualified");
      if (e.flags & pmu::kEventChainSource) j.value("chain-source");
      j.end_array().end_object();
    }
    j.end_array().end_object();
  }
  j.end_array().finish();
}

void write_metrics_text(std::ostream& os, std::span<const MetricListing> listings) {
  for (std::size_t k = 0; k < listings.size(); ++k) {
    const pmu::PmuCatalog& c = *listings[k].catalog;
    const std::vector<const pmu::Metric*>& ms = listings[k].metrics;
    if (k != 0) os << '\n';
    os << c.id << ": " << ms.size() << (ms.size() == 1 ? " metric" : " metrics") << '\n';
    if (ms.empty()) continue;
    os << "\n  Metrics:\n";
    TextTable t({TextTable::left, TextTable::left, TextTable::left, TextTable::left});
    for (const pmu::Metric* m : ms) t.row({m->name, m->group, metric_formula(c, *m), m->unit});
    t.print(os, "    ");
    os << "\n  Sources:\n";
    TextTable s({TextTable::left, TextTable::left});
    for (const pmu::Metric* m : ms) s.row({m->name, m->source});
    s.print(os, "    ");
  }
}

void write_metrics_json(std::ostream& os, std::span<const MetricListing> listings) {
  JsonWriter j(os);
  j.begin_array();
  for (const MetricListing& l : listings) {
    const pmu::PmuCatalog& c = *l.catalog;
    j.begin_object().field("id", c.id).key("metrics").begin_array();
    for (const pmu::Metric* m : l.metrics) {
      j.begin_object().field("name", m->name).field("group", m->group);
      j.field("description", m->description).field("unit", m->unit).field("source", m->source);
      j.field("formula", metric_formula(c, *m));
      char scale[32];
      std::snprintf(scale, sizeof scale, "%.17g", m->scale);
      j.key("scale").number(scale);
      auto terms = [&](const char* name, const pmu::MetricEvent* t, std::size_t n) {
        j.key(name).begin_array();
        for (std::size_t i = 0; i < n; ++i) {
          j.begin_object().field("event", pmu::event_name(c, t[i].code)).field("code", t[i].code);
          j.field("qualifier", t[i].qualifier).field("options", t[i].options).end_object();
        }
        j.end_array();
      };
      terms("numerator", m->num, m->num_count);
      terms("denominator", m->den, m->den_count);
      j.end_object();
    }
    j.end_array().end_object();
  }
  j.end_array().finish();
}

}  // namespace pmukit
