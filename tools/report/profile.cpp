#include "tools/report/profile.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace pmukit {
namespace {

class Builder {
 public:
  Builder(const SymbolTable& symbols, unsigned address_bytes, bool with_lines)
      : symbols_(symbols),
        address_digits_(2 * address_bytes),
        with_lines_(with_lines),
        by_symbol_(symbols.function_count(), kNoFunction) {
    profile_.symbols = &symbols;
  }

  void add(std::uint64_t pc, std::uint64_t lr, bool has_lr, std::uint64_t weight) {
    if (weight == 0) return;
    const std::uint32_t leaf = function_of(pc);
    profile_.total += weight;
    profile_.functions[leaf].self += weight;
    // LR is a return address: the call is the instruction before it (and may be a function's
    // last one), so the caller and its call-site line are looked up at lr - 1.
    const std::uint64_t call_site = lr - 1;
    const std::uint32_t caller = has_lr ? caller_of(lr, leaf) : kNoFunction;
    profile_.stacks[std::uint64_t{caller} << 32 | leaf] += weight;
    if (!with_lines_) return;
    const std::uint32_t line = line_of(pc);
    profile_.line_self[std::uint64_t{leaf} << 32 | line] += weight;
    Profile::PcCost& at = profile_.pc_self.try_emplace(pc, Profile::PcCost{leaf, line, 0}).first->second;
    at.count += weight;
    if (caller != kNoFunction) profile_.calls[{caller, line_of(call_site), leaf, call_site}] += weight;
  }

  // A STACKS sample already add()ed with its LR guess: that guess undone, its unwound frames kept.
  void replace_stack(std::uint64_t pc, std::uint64_t lr, const UnwoundStack& u) {
    const std::uint32_t leaf = function_of(pc);
    const std::uint32_t caller = caller_of(lr, leaf);
    erase_one(profile_.stacks, std::uint64_t{caller} << 32 | leaf);
    if (with_lines_ && caller != kNoFunction) erase_one(profile_.calls, Profile::Call{caller, line_of(lr - 1), leaf, lr - 1});
    std::vector<std::string> frames;
    std::uint32_t callee = leaf;
    frames.push_back(profile_.functions[leaf].name);
    for (std::size_t k = 1; k < u.pcs.size(); ++k) {
      const std::uint64_t site = u.pcs[k] - 1;  // the call, not the return address after it
      const std::uint32_t f = function_of(site);
      if (with_lines_) profile_.calls[{f, line_of(site), callee, site}] += 1;
      frames.push_back(profile_.functions[f].name);
      callee = f;
    }
    if (!u.stopped.empty()) frames.push_back("[unwind stopped: " + u.stopped + "]");
    std::reverse(frames.begin(), frames.end());
    profile_.deep[frames] += 1;
  }

  Profile take() { return std::move(profile_); }
  // At most this many distinct samples: the per-line and per-instruction maps never rehash.
  void reserve(std::size_t n) {
    if (!with_lines_) return;
    profile_.line_self.reserve(n);
    profile_.pc_self.reserve(n);
    profile_.calls.reserve(n);
  }

 private:
  std::uint32_t caller_of(std::uint64_t lr, std::uint32_t leaf) {
    if (lr == 0 || symbols_.empty()) return kNoFunction;
    const std::uint32_t from = function_of(lr - 1);
    return from != leaf && from != unknown_ ? from : kNoFunction;
  }
  template <class Map, class Key>
  static void erase_one(Map& m, const Key& k) {
    const auto it = m.find(k);
    if (it != m.end() && --it->second == 0) m.erase(it);
  }

  // Binary searches in the sorted symbol table: cheaper than caching millions of distinct
  // addresses, and as fast as a cache for the few hot addresses of a real profile.
  std::uint32_t function_of(std::uint64_t address) {
    if (symbols_.empty()) {  // no ELF: every address is its own entry
      auto [it, fresh] = by_address_.try_emplace(address, 0);
      if (fresh) {
        char name[24];
        std::snprintf(name, sizeof name, "0x%0*" PRIx64, address_digits_, address);
        it->second = add_function(name, address, kNoLine);
      }
      return it->second;
    }
    const std::optional<std::uint32_t> f = symbols_.function_at(address);
    if (!f) {
      if (unknown_ == kNoFunction) profile_.unknown = unknown_ = add_function("[unknown]", 0, kNoLine);
      return unknown_;
    }
    std::uint32_t& id = by_symbol_[*f];
    if (id == kNoFunction) {
      const Function& fn = symbols_.function(*f);
      id = add_function(fn.name, fn.lo, line_of(fn.lo));
    }
    return id;
  }

  std::uint32_t line_of(std::uint64_t address) const {
    return symbols_.line_at(address).value_or(kNoLine);
  }

  std::uint32_t add_function(std::string name, std::uint64_t address, std::uint32_t line) {
    profile_.functions.push_back({std::move(name), address, line, 0});
    return static_cast<std::uint32_t>(profile_.functions.size() - 1);
  }

  const SymbolTable& symbols_;
  int address_digits_;
  bool with_lines_;
  Profile profile_;
  std::vector<std::uint32_t> by_symbol_;  // symbol index -> function id
  std::unordered_map<std::uint64_t, std::uint32_t, AddressHash> by_address_;  // keys from the dump
  std::uint32_t unknown_ = kNoFunction;
};

}  // namespace

Profile build_profile(const Dump& dump, const SymbolTable& symbols, bool with_lines,
                      const std::vector<UnwoundStack>* unwound) {
  Builder b(symbols, dump.target.address_bytes, with_lines);
  b.reserve(dump.sample_counts.size() + dump.histogram.size());
  for (const SampleCount& s : dump.sample_counts) b.add(s.pc, s.lr, true, s.count);
  for (const HistogramBin& h : dump.histogram) b.add(h.pc, 0, false, h.count);
  if (unwound != nullptr && unwound->size() == dump.stacks.size())
    for (std::size_t i = 0; i < unwound->size(); ++i)
      b.replace_stack(dump.stacks[i].pc, dump.stacks[i].lr, (*unwound)[i]);
  for (const FrameSampleRecord& f : dump.frames)  // walked on the target: as they are
    b.replace_stack(f.pcs[0], f.pcs.size() > 1 ? f.pcs[1] : 0,
                    UnwoundStack{f.pcs, f.complete ? "" : "the target's frame walk stopped"});
  return b.take();
}

std::vector<std::uint32_t> Profile::by_self() const {
  std::vector<std::uint32_t> ids;
  for (std::uint32_t i = 0; i < functions.size(); ++i)
    if (functions[i].self != 0) ids.push_back(i);
  std::sort(ids.begin(), ids.end(), [this](std::uint32_t a, std::uint32_t b) {
    const ProfileFunction &x = functions[a], &y = functions[b];
    if (x.self != y.self) return x.self > y.self;
    if (x.name != y.name) return x.name < y.name;
    return x.address < y.address;
  });
  return ids;
}

std::vector<Profile::Stack> Profile::folded() const {
  std::vector<std::pair<std::string, Stack>> keyed;
  for (const auto& [key, count] : stacks) {
    const auto caller = static_cast<std::uint32_t>(key >> 32);
    const auto leaf = static_cast<std::uint32_t>(key);
    Stack s{{}, count};
    if (caller != kNoFunction) s.frames.push_back(functions[caller].name);
    s.frames.push_back(functions[leaf].name);
    std::string text = s.frames.front();
    if (s.frames.size() == 2) text += ";" + s.frames.back();
    keyed.emplace_back(std::move(text), std::move(s));
  }
  for (const auto& [frames, count] : deep) {
    std::string text;
    for (const std::string& f : frames) text += (text.empty() ? "" : ";") + f;
    keyed.emplace_back(std::move(text), Stack{frames, count});
  }
  std::sort(keyed.begin(), keyed.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Stack> out;
  out.reserve(keyed.size());
  for (auto& k : keyed) {  // a deep stack may fold to the text of a two-frame one: one line
    if (!out.empty() && out.back().frames == k.second.frames)
      out.back().count += k.second.count;
    else
      out.push_back(std::move(k.second));
  }
  return out;
}

std::string Profile::location(std::uint32_t line) const {
  if (line == kNoLine || symbols == nullptr) return "";
  const SourceLine& l = symbols->line(line);
  return symbols->file(l.file) + ":" + std::to_string(l.line);
}

UnwindSummary summarize(const std::vector<UnwoundStack>& unwound, const std::vector<StackSampleRecord>& stacks) {
  UnwindSummary u;
  for (const StackSampleRecord& s : stacks) u.copy = std::max<std::uint64_t>(u.copy, s.stack.size());
  for (std::size_t i = 0; i < unwound.size(); ++i) {
    const UnwoundStack& w = unwound[i];
    ++u.walks;
    if (w.stopped.empty()) {
      ++u.complete;
    } else if (w.copy_needed == 0) {
      ++u.stopped[w.stopped];
    } else if (i < stacks.size() && stacks[i].stack.size() < u.copy) {
      ++u.complete;
      ++u.at_top;
    } else {
      ++u.stopped["copy too small"];
      u.copy_needed = std::max(u.copy_needed, w.copy_needed);
    }
  }
  return u;
}

std::string UnwindSummary::text() const {
  if (walks == 0) return "";
  std::string t = std::to_string(walks) + " unwound, " + std::to_string(complete) + " to the outermost frame";
  if (at_top != 0) t += " (" + std::to_string(at_top) + " where the copy reached the stack's top)";
  if (walks == complete) return t;
  t += ", " + std::to_string(walks - complete) + " cut short:";
  bool first = true;
  for (const auto& [why, n] : stopped) {
    t += (first ? " " : "; ") + std::to_string(n) + " " + why;
    first = false;
  }
  if (copy_needed != 0)
    t += " (the copies are " + std::to_string(copy) + " bytes; " + std::to_string((copy_needed + 63) / 64 * 64) +
         " would have held every return address they missed: size the stack ring's Bytes so)";
  return t;
}

}  // namespace pmukit
