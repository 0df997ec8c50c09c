#include "tools/report/view.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "tools/report/text_util.hpp"

namespace pmukit {

std::optional<SortKey> parse_sort_key(std::string_view name) {
  if (name == "function" || name == "sym" || name == "symbol") return SortKey::function;
  if (name == "line" || name == "srcline" || name == "file:line") return SortKey::line;
  if (name == "address" || name == "addr" || name == "symoff") return SortKey::address;
  if (name == "caller") return SortKey::caller;
  return std::nullopt;
}

const char* sort_key_name(SortKey key) {
  switch (key) {
    case SortKey::function: return "function";
    case SortKey::line: return "line";
    case SortKey::address: return "address";
    case SortKey::caller: return "caller";
  }
  return "function";
}

bool sort_needs_lines(SortKey key) { return key == SortKey::line || key == SortKey::address; }

const char* row_unit(SortKey key) {
  switch (key) {
    case SortKey::function: return "functions";
    case SortKey::line: return "lines";
    case SortKey::address: return "addresses";
    case SortKey::caller: return "caller/function pairs";
  }
  return "rows";
}

std::optional<std::uint32_t> parse_percent(std::string_view t) {
  if (!t.empty() && t.back() == '%') t.remove_suffix(1);
  const std::size_t dot = t.find('.');
  const std::string_view whole = t.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? std::string_view() : t.substr(dot + 1);
  const auto digits = [](std::string_view s) { return s.find_first_not_of("0123456789") == std::string_view::npos; };
  if (whole.empty() || whole.size() > 3 || !digits(whole) || frac.size() > 2 || !digits(frac) ||
      (dot != std::string_view::npos && frac.empty()))
    return std::nullopt;
  std::uint32_t v = 0;
  for (char c : whole) v = v * 10 + static_cast<std::uint32_t>(c - '0');
  v *= 100;
  if (frac.size() >= 1) v += 10 * static_cast<std::uint32_t>(frac[0] - '0');
  if (frac.size() == 2) v += static_cast<std::uint32_t>(frac[1] - '0');
  if (v > 10000) return std::nullopt;
  return v;
}

namespace {

// The fewest samples a row needs to reach `hundredths` of a percent of `total`:
// ceil(total * hundredths / 10000), without overflow (hundredths <= 10000).
std::uint64_t samples_for(std::uint64_t total, std::uint32_t hundredths) {
  const std::uint64_t q = total / 10000, r = total % 10000;
  const std::uint64_t rest = r * hundredths;
  return q * hundredths + rest / 10000 + (rest % 10000 != 0);
}

std::string percent_text(std::uint32_t hundredths) {
  return fixed_ratio(hundredths, 100, 2);
}

}  // namespace

std::string ProfileRows::note(const Profile& p, std::string_view unit) const {
  if (left_rows == 0) return "";
  std::string reasons;
  for (const std::string& w : why) reasons += (reasons.empty() ? "" : ", ") + w;
  // One row: the singular (addresses, lines, functions, call pairs), by a view, not a resize (GCC 12
  // for 32-bit MIPS warns about the resize's copy).
  const std::size_t cut = left_rows != 1 || unit.size() < 3 ? 0 : unit.ends_with("sses") ? 2 : 1;
  const std::string what(unit.substr(0, unit.size() - cut));
  return std::to_string(left_rows) + " " + what + " with " + std::to_string(left_samples) +
         " samples (" + percent(left_samples, p.total) + "%) not shown: " + reasons;
}

ProfileRows choose_rows(const Profile& p, std::vector<ProfileRow> candidates, const ViewOptions& view,
                        std::size_t default_top) {
  ProfileRows out;
  bool by_symbol = false, by_percent = false, by_top = false;
  const std::uint64_t least = samples_for(p.total, view.percent_limit);
  const std::size_t top = view.top.value_or(default_top);
  for (const ProfileRow& r : candidates) {
    const std::string& name = r.function == kNoFunction ? std::string() : p.functions[r.function].name;
    bool keep = true;
    if (!view.symbols.empty() && std::find(view.symbols.begin(), view.symbols.end(), name) == view.symbols.end())
      keep = false, by_symbol = true;
    else if (!view.symbol_filter.empty() && name.find(view.symbol_filter) == std::string::npos)
      keep = false, by_symbol = true;
    else if (view.percent_limit != 0 && r.samples < least)
      keep = false, by_percent = true;
    else if (top != 0 && out.rows.size() >= top)
      keep = false, by_top = true;
    if (keep) {
      out.rows.push_back(r);
    } else {
      ++out.left_rows;
      out.left_samples += r.samples;
    }
  }
  if (by_symbol)
    out.why.push_back(!view.symbols.empty() ? "not in --symbols" : "not matching --symbol-filter");
  if (by_percent) out.why.push_back("under " + percent_text(view.percent_limit) + "% (--percent-limit)");
  if (by_top) out.why.push_back("past the first " + std::to_string(top) + " (--top)");
  return out;
}

ProfileRows profile_rows(const Profile& p, const ViewOptions& view, std::size_t default_top) {
  std::vector<ProfileRow> rows;
  const auto name = [&](std::uint32_t f) -> const std::string& {
    static const std::string none;
    return f == kNoFunction ? none : p.functions[f].name;
  };
  switch (view.sort) {
    case SortKey::function:
      for (std::uint32_t id : p.by_self()) rows.push_back({p.functions[id].self, id, kNoFunction, kNoLine, 0});
      break;
    case SortKey::line:
      for (const auto& [key, n] : p.line_self)
        if (n != 0)
          rows.push_back({n, static_cast<std::uint32_t>(key >> 32), kNoFunction,
                          static_cast<std::uint32_t>(key & 0xFFFFFFFFu), 0});
      std::sort(rows.begin(), rows.end(), [&](const ProfileRow& a, const ProfileRow& b) {
        if (a.samples != b.samples) return a.samples > b.samples;
        const std::string la = p.location(a.line), lb = p.location(b.line);
        return std::tie(la, name(a.function), a.function) < std::tie(lb, name(b.function), b.function);
      });
      break;
    case SortKey::address:
      for (const auto& [pc, cost] : p.pc_self)
        if (cost.count != 0) rows.push_back({cost.count, cost.function, kNoFunction, cost.line, pc});
      std::sort(rows.begin(), rows.end(), [](const ProfileRow& a, const ProfileRow& b) {
        if (a.samples != b.samples) return a.samples > b.samples;
        return a.address < b.address;
      });
      break;
    case SortKey::caller: {
      std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> pairs;  // (caller, function)
      for (const auto& [frames, n] : p.stacks) {
        if (frames.empty() || n == 0) continue;
        const std::uint32_t caller = frames.size() > 1 ? frames[frames.size() - 2].function : kNoFunction;
        pairs[{caller, frames.back().function}] += n;
      }
      for (const Profile::LrStack& s : p.lr_stacks) pairs[{s.caller, s.leaf}] += s.count;
      for (const auto& [key, n] : pairs) rows.push_back({n, key.second, key.first, kNoLine, 0});
      std::sort(rows.begin(), rows.end(), [&](const ProfileRow& a, const ProfileRow& b) {
        if (a.samples != b.samples) return a.samples > b.samples;
        return std::tie(name(a.function), name(a.caller), a.function, a.caller) <
               std::tie(name(b.function), name(b.caller), b.function, b.caller);
      });
      break;
    }
  }
  return choose_rows(p, std::move(rows), view, default_top);
}

std::vector<std::string> key_headers(SortKey key, bool with_address) {
  switch (key) {
    case SortKey::function:
      if (with_address) return {"address", "function", "location"};
      return {"function", "location"};
    case SortKey::line: return {"location", "function"};
    case SortKey::address: return {"address", "function", "location"};
    case SortKey::caller: return {"caller", "function"};
  }
  return {};
}

std::vector<std::string> key_cells(const Profile& p, const ProfileRow& row, SortKey key, bool with_address,
                                   unsigned digits) {
  const ProfileFunction& f = p.functions[row.function];
  const bool unknown = row.function == p.unknown;
  switch (key) {
    case SortKey::function:
      if (with_address) return {unknown ? "" : hex(f.address, digits), f.name, p.location(f.line)};
      return {f.name, p.location(f.line)};
    case SortKey::line:
      return {row.line == kNoLine ? "[no line]" : p.location(row.line), f.name};
    case SortKey::address: {
      // function+offset like perf's symoff; a name that is the address itself (no ELF), or an
      // inlined function's (no start of its own), stays alone.
      std::string at = f.name;
      if (!unknown && !f.inlined_only && row.address >= f.address && f.name != hex(f.address, digits) && p.symbols &&
          !p.symbols->empty())
        at += "+" + hex(row.address - f.address);
      return {hex(row.address, digits), at, p.location(row.line)};
    }
    case SortKey::caller:
      return {row.caller == kNoFunction ? "[no caller]" : p.functions[row.caller].name, f.name};
  }
  return {};
}

}  // namespace pmukit
