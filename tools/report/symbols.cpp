#include "tools/report/symbols.hpp"

#include <algorithm>

namespace pmukit {

void SymbolTable::add_function(std::uint64_t lo, std::uint64_t size, std::string name) {
  functions_.push_back({lo, lo + size, std::move(name)});
}

void SymbolTable::add_line(std::uint64_t lo, std::uint64_t hi, std::string_view file,
                           unsigned line) {
  if (hi <= lo) return;
  auto [f, new_file] = file_ids_.try_emplace(std::string(file), static_cast<std::uint32_t>(files_.size()));
  if (new_file) files_.emplace_back(file);
  const std::uint64_t key = std::uint64_t{f->second} << 32 | line;
  auto [l, new_line] = line_ids_.try_emplace(key, static_cast<std::uint32_t>(lines_.size()));
  if (new_line) lines_.push_back({f->second, line});
  ranges_.push_back({lo, hi, l->second});
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

}  // namespace pmukit
