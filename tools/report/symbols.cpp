#include "tools/report/symbols.hpp"

#include <algorithm>

namespace pmukit {

void SymbolTable::add_function(std::uint64_t lo, std::uint64_t size, std::string name) {
  functions_.push_back({lo, lo + size, std::move(name)});
}

std::uint32_t SymbolTable::line_id(std::string_view file, unsigned line) {
  // A line table names one file for many rows in a row: those skip the string's hash.
  if (last_file_ == kNoFile || files_[last_file_] != file) {
    auto [f, new_file] = file_ids_.try_emplace(std::string(file), static_cast<std::uint32_t>(files_.size()));
    if (new_file) files_.emplace_back(file);
    last_file_ = f->second;
  }
  const std::uint64_t key = std::uint64_t{last_file_} << 32 | line;
  auto [l, new_line] = line_ids_.try_emplace(key, static_cast<std::uint32_t>(lines_.size()));
  if (new_line) lines_.push_back({last_file_, line});
  return l->second;
}

void SymbolTable::add_line(std::uint64_t lo, std::uint64_t hi, std::string_view file,
                           unsigned line) {
  if (hi <= lo) return;
  ranges_.push_back({lo, hi, line_id(file, line)});
}

std::uint32_t SymbolTable::add_inlined_function(const std::string& name, std::string_view decl_file,
                                                unsigned decl_line) {
  auto [it, fresh] = inlined_ids_.try_emplace(name, static_cast<std::uint32_t>(inlined_.size()));
  if (fresh) inlined_.push_back({name, decl_line != 0 && !decl_file.empty() ? line_id(decl_file, decl_line) : 0xFFFFFFFFu});
  return it->second;
}

void SymbolTable::add_inlined(unsigned depth, std::uint64_t lo, std::uint64_t hi, std::uint32_t function,
                              std::string_view call_file, unsigned call_line) {
  if (hi <= lo || depth == 0 || function >= inlined_.size()) return;
  if (inline_levels_.size() < depth) inline_levels_.resize(depth);
  const std::uint32_t line = call_line != 0 && !call_file.empty() ? line_id(call_file, call_line) : 0xFFFFFFFFu;
  inline_levels_[depth - 1].push_back({lo, hi, {function, line}});
  inlined_[function].lowest = std::min(inlined_[function].lowest, lo);
}

void SymbolTable::finalize() {
  // Sorted by start; of several symbols at one address (aliases) the first added wins, so a
  // loader adds its preferred names first.
  std::stable_sort(functions_.begin(), functions_.end(),
                   [](const Function& a, const Function& b) { return a.lo < b.lo; });
  functions_.erase(std::unique(functions_.begin(), functions_.end(),
                               [](const Function& a, const Function& b) { return a.lo == b.lo; }),
                   functions_.end());
  for (std::size_t i = 0; i < functions_.size(); ++i) {
    Function& f = functions_[i];
    if (f.hi == f.lo) f.hi = i + 1 < functions_.size() ? functions_[i + 1].lo : f.lo + 1;
  }
  std::stable_sort(ranges_.begin(), ranges_.end(),
                   [](const Range& a, const Range& b) { return a.lo < b.lo; });
  for (auto& level : inline_levels_)
    std::stable_sort(level.begin(), level.end(),
                     [](const InlineRange& a, const InlineRange& b) { return a.lo < b.lo; });
  if (!inline_levels_.empty())
    for (std::size_t i = 0; i < functions_.size(); ++i)
      by_name_.try_emplace(functions_[i].name, static_cast<std::uint32_t>(i));
}

void SymbolTable::inlined_at(std::uint64_t pc, std::vector<InlineFrame>& out) const {
  out.clear();
  for (const auto& level : inline_levels_) {
    auto it = std::upper_bound(level.begin(), level.end(), pc,
                               [](std::uint64_t v, const InlineRange& r) { return v < r.lo; });
    if (it == level.begin() || pc >= (--it)->hi) return;  // no deeper call inlined here
    out.push_back(it->frame);
  }
}

std::optional<std::uint32_t> SymbolTable::function_named(const std::string& name) const {
  const auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::uint32_t> SymbolTable::function_at(std::uint64_t pc) const {
  auto it = std::upper_bound(functions_.begin(), functions_.end(), pc,
                             [](std::uint64_t v, const Function& f) { return v < f.lo; });
  if (it == functions_.begin()) return std::nullopt;
  --it;
  if (pc >= it->hi) return std::nullopt;
  return static_cast<std::uint32_t>(it - functions_.begin());
}

std::optional<std::uint32_t> SymbolTable::line_at(std::uint64_t pc) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), pc,
                             [](std::uint64_t v, const Range& r) { return v < r.lo; });
  if (it == ranges_.begin()) return std::nullopt;
  --it;
  if (pc >= it->hi) return std::nullopt;
  return it->line_id;
}

std::optional<std::uint32_t> SymbolTable::line_at(std::uint64_t pc, std::size_t& hint) const {
  // The ranges before `lo` start at or below pc and those from `hi` on above it, as the full
  // search's upper_bound needs: galloping from the hint, doubling the step.
  const std::size_t n = ranges_.size();
  std::size_t lo = 0, hi = n;
  if (hint < n && ranges_[hint].lo <= pc) {
    std::size_t a = hint, step = 1;
    while (a + step < n && ranges_[a + step].lo <= pc) {
      a += step;
      step *= 2;
    }
    lo = a + 1;
    hi = std::min(a + step, n);
  } else if (hint < n) {
    std::size_t b = hint, step = 1;
    while (b >= step && ranges_[b - step].lo > pc) {
      b -= step;
      step *= 2;
    }
    lo = b >= step ? b - step + 1 : 0;
    hi = b;
  }
  auto it = std::upper_bound(ranges_.begin() + static_cast<std::ptrdiff_t>(lo),
                             ranges_.begin() + static_cast<std::ptrdiff_t>(hi), pc,
                             [](std::uint64_t v, const Range& r) { return v < r.lo; });
  if (it == ranges_.begin()) return std::nullopt;
  --it;
  hint = static_cast<std::size_t>(it - ranges_.begin());
  if (pc >= it->hi) return std::nullopt;
  return it->line_id;
}

}  // namespace pmukit
