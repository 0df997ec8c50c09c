#include "tools/report/profile.hpp"

#include "tools/report/flat_map.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <tuple>
#include <utility>

namespace pmukit {
namespace {

// a * b / d and its remainder, exactly, in 64-bit arithmetic (the report library also runs on
// 32-bit targets, which have no 128-bit integer): the product in two 64-bit halves, divided bit by
// bit. Needs a, b < 2^64 and a * b / d < 2^64 (here a share is at most the samples).
std::pair<std::uint64_t, std::uint64_t> mul_div(std::uint64_t a, std::uint64_t b, std::uint64_t d) {
  const std::uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32, b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
  const std::uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
  const std::uint64_t mid = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + (lo_hi & 0xFFFFFFFFu);
  const std::uint64_t hi = hi_hi + (hi_lo >> 32) + (lo_hi >> 32) + (mid >> 32);
  const std::uint64_t lo = (mid << 32) | (lo_lo & 0xFFFFFFFFu);
  std::uint64_t q = 0, r = 0;
  for (int bit = 127; bit >= 0; --bit) {
    const bool top = (r >> 63) != 0;
    r = r << 1 | ((bit >= 64 ? hi >> (bit - 64) : lo >> bit) & 1);
    q <<= 1;
    if (top || r >= d) {
      r -= d;
      q |= 1;
    }
  }
  return {q, r};
}

// Largest-remainder shares: n split over weights in proportion, summing to n exactly (ties to
// the earlier weight).
std::vector<std::uint64_t> shares(std::uint64_t n, const std::vector<std::uint64_t>& weights) {
  std::uint64_t total = 0;
  for (std::uint64_t w : weights) total += w;
  std::vector<std::uint64_t> out(weights.size(), 0);
  std::vector<std::pair<std::uint64_t, std::size_t>> rest;
  std::uint64_t given = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const auto [q, r] = mul_div(n, weights[i], total);
    out[i] = q;
    given += q;
    rest.emplace_back(r, i);
  }
  std::stable_sort(rest.begin(), rest.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; given < n; ++k, ++given) ++out[rest[k].second];
  return out;
}

class Builder {
 public:
  using Frame = Profile::Frame;
  using Frames = std::vector<Frame>;

  Builder(const SymbolTable& symbols, unsigned address_bytes, bool with_lines, bool leaf_pcs, bool inlined)
      : symbols_(symbols),
        address_digits_(2 * address_bytes),
        with_lines_(with_lines),
        leaf_pcs_(leaf_pcs),
        sites_(with_lines || leaf_pcs),
        inlined_(inlined && symbols.has_inlined()),
        by_symbol_(symbols.function_count(), kNoFunction),
        by_inlined_(inlined_ ? symbols.inlined_count() : 0, kNoFunction),
        listed_(leaf_pcs || inlined_) {
    profile_.symbols = &symbols;
  }

  void add(std::uint64_t pc, std::uint64_t lr, bool has_lr, std::uint64_t weight) {
    if (weight == 0) return;
    // The samples come sorted by pc, several (one per lr) at each: a pc is looked up once.
    if (!last_.valid || last_.pc != pc) {
      last_.valid = true;
      last_.pc = pc;
      last_.leaf = function_of(pc);
      // Self is the innermost inlined function's; the stacks are placed by the function the code
      // is in, and expanded into the inlined calls at the end (take()).
      last_.self = inlined_ ? innermost_at(pc, last_.leaf) : last_.leaf;
      if (with_lines_) {
        const std::uint32_t line = symbols_.line_at(pc, line_hint_).value_or(kNoLine);  // pcs rise
        last_.line_self = &profile_.line_self[std::uint64_t{last_.self} << 32 | line];
        last_.pc_self = profile_.pc_self.append(pc, Profile::PcCost{last_.self, line, 0});
      }
    }
    const std::uint32_t leaf = last_.leaf;
    profile_.total += weight;
    profile_.functions[last_.self].self += weight;
    // LR is a return address: the call is the instruction before it (and may be a function's
    // last one), so the caller and its call-site line are looked up at lr - 1.
    const std::uint32_t caller = has_lr ? caller_of(lr, leaf) : kNoFunction;
    guess(guess_key(caller, lr, leaf, pc)) += weight;
    if (!with_lines_) return;
    *last_.line_self += weight;  // the map's nodes stay where they are when it grows
    profile_.pc_self.count(last_.pc_self) += weight;
  }

  // A STACKS or FRAMES sample already add()ed with its LR guess: the guess undone, its own
  // stack kept.
  void replace_stack(std::uint64_t pc, std::uint64_t lr, const UnwoundStack& u) {
    const std::uint32_t leaf = function_of(pc);
    std::uint64_t* const guessed = find_guess(guess_key(caller_of(lr, leaf), lr, leaf, pc));
    if (guessed == nullptr || *guessed == 0) return;  // not a sample of this dump: nothing to replace
    --*guessed;
    Frames frames;
    frames.push_back({leaf, kNoLine, leaf_pcs_ || inlined_ ? pc : 0});
    for (std::size_t k = 1; k < u.pcs.size(); ++k) {
      const std::uint64_t site = u.pcs[k] - 1;  // the call, not the return address after it
      frames.push_back({function_of(site), kNoLine, sites_ || inlined_ ? site : 0});
    }
    if (!u.stopped.empty()) frames.push_back({marker("[unwind stopped: " + u.stopped + "]"), kNoLine, 0});
    std::reverse(frames.begin(), frames.end());
    ++(u.stopped.empty() ? complete_ : stopped_)[frames];
    ++profile_.walked;
  }

  // Every sample's stack into profile_.stacks (see Profile::stacks), then the call arcs.
  Profile take() {
    for (const auto& [frames, n] : complete_) placed_[frames] += n;
    // The functions whose contexts are asked for: the outermost frames cut walks reached, and the
    // leaves and LR callers of the samples without a stack (not every function of every walk:
    // that costs the walks' depth squared).
    std::vector<bool> wanted(profile_.functions.size(), false);
    for (const auto& [frames, n] : stopped_)
      if (frames.size() > 1) wanted[frames[1].function] = true;
    for_each_guess([&](const Guess& g, std::uint64_t n) {
      if (n == 0) return;  // all replaced by their own stacks
      wanted[g.leaf] = true;
      if (g.caller != kNoFunction) wanted[g.caller] = true;
    });
    // Cut walks, per outermost frame reached: above the marker, the contexts complete walks saw
    // that frame's function in, shared among them all (one walk alone would always go to the
    // heaviest context).
    const Contexts complete = contexts(wanted);
    for (auto it = stopped_.begin(); it != stopped_.end();) {
      const std::uint32_t outermost = it->first.size() > 1 ? it->first[1].function : kNoFunction;
      std::vector<std::pair<Frames, std::uint64_t>> group;  // the cut walks that reached it
      std::uint64_t n = 0;
      for (; it != stopped_.end() && (it->first.size() > 1 ? it->first[1].function : kNoFunction) == outermost; ++it) {
        group.push_back(*it);
        n += it->second;
      }
      const auto c = outermost == kNoFunction ? complete.end() : complete.find(outermost);
      if (c == complete.end()) {
        for (auto& [frames, k] : group) placed_[frames] += k;
        continue;
      }
      fill(group.begin(), group.end(), n, c->second, [&](const Frames& frames, const Frames& outer, std::uint64_t k) {
        Frames f = outer;
        f.insert(f.end(), frames.begin(), frames.end());
        placed_[f] += k;
        if (!outer.empty()) profile_.inferred += k;
      });
    }
    // Where complete walks saw a function; where they did not, where cut ones did (with their marker).
    const Contexts walked = contexts(wanted);
    std::vector<std::pair<Frames, std::uint64_t>> plain;  // samples that keep their LR guess
    const auto context_of = [&](std::uint32_t f) -> const Paths* {
      if (const auto it = complete.find(f); it != complete.end()) return &it->second;
      const auto it = walked.find(f);
      return it == walked.end() ? nullptr : &it->second;
    };
    // Samples without a stack, per leaf function: the leaf's contexts; else, per LR caller, the
    // caller's; else the LR guess as it is. Sorted, so the split is the same on every run (a
    // vector, not a map: a million-sample profile has as many keys).
    using Key = std::tuple<std::uint32_t, std::uint32_t, std::uint64_t, std::uint64_t>;  // leaf, caller, site, pc
    // Without walks no leaf has a context: all go straight to by_caller.
    const bool walks = !complete.empty() || !walked.empty();
    // pprof's (leaf pcs, no lines) LR guesses are kept compact (Profile::lr_stacks), not a vector each; and
    // without walks, where every guess is one, in by_caller's order, the list is sorted where it
    // is and becomes them: no copy of a key per distinct sample.
    const bool compact = leaf_pcs_ && !inlined_ && !with_lines_;
    if (compact && !walks && listed_) {
      std::erase_if(list_, [](const LrStack& e) { return e.count == 0; });
      sort_by_ids(list_, [](const LrStack& e) { return e.caller; }, [](const LrStack& e) { return e.leaf; },
                  [](const LrStack& a, const LrStack& b) { return a.site != b.site ? a.site < b.site : a.pc < b.pc; });
      profile_.lr_stacks = std::move(list_);
      list_ = {};
    }
    std::vector<std::pair<Key, std::uint64_t>> by_leaf;
    std::vector<std::pair<Key, std::uint64_t>> by_caller;  // leaves no walk saw
    (walks ? by_leaf : by_caller).reserve(listed_ ? list_.size() : guesses_.size());
    for_each_guess([&](const Guess& g, std::uint64_t n) {
      if (n == 0) return;
      if (walks)
        by_leaf.push_back({{g.leaf, g.caller, g.site, g.pc}, n});
      else
        by_caller.push_back({{g.caller, g.leaf, g.site, g.pc}, n});
    });
    // The guesses are all in by_leaf or by_caller now: their memory goes back before the stacks
    // take theirs (a key per distinct sample with leaf pcs).
    std::vector<LrStack>().swap(list_);
    guesses_ = {};
    sort_by_leaf(by_leaf);
    for (auto it = by_leaf.begin(); it != by_leaf.end();) {
      const std::uint32_t leaf = std::get<0>(it->first);
      auto end = it;
      std::uint64_t n = 0;
      for (; end != by_leaf.end() && std::get<0>(end->first) == leaf; ++end) n += end->second;
      if (const Paths* c = context_of(leaf)) {
        fill(it, end, n, *c, [&](const Key& key, const Frames& outer, std::uint64_t k) {
          Frames f = outer;
          f.push_back({leaf, kNoLine, std::get<3>(key)});
          placed_[f] += k;
          if (!outer.empty()) profile_.inferred += k;
        });
      } else {
        for (auto g = it; g != end; ++g)
          by_caller.push_back({{std::get<1>(g->first), std::get<0>(g->first), std::get<2>(g->first), std::get<3>(g->first)},
                               g->second});
      }
      it = end;
    }
    sort_by_leaf(by_caller);  // caller, leaf, site, pc
    if (compact) profile_.lr_stacks.reserve(by_caller.size());
    else plain.reserve(by_caller.size());  // at most one each: no copies as it grows
    for (auto it = by_caller.begin(); it != by_caller.end();) {
      const std::uint32_t caller = std::get<0>(it->first);
      auto end = it;
      std::uint64_t n = 0;
      for (; end != by_caller.end() && std::get<0>(end->first) == caller; ++end) n += end->second;
      const Paths* c = caller == kNoFunction ? nullptr : context_of(caller);
      if (c == nullptr) {
        for (auto g = it; g != end; ++g) {
          if (compact) {
            profile_.lr_stacks.push_back({caller, std::get<1>(g->first), std::get<2>(g->first), std::get<3>(g->first), g->second});
            continue;
          }
          Frames f;  // unique: no other entry has this caller, leaf, site and pc
          f.reserve(2);
          if (caller != kNoFunction) f.push_back({caller, kNoLine, std::get<2>(g->first)});
          f.push_back({std::get<1>(g->first), kNoLine, std::get<3>(g->first)});
          plain.emplace_back(std::move(f), g->second);
        }
      } else {
        fill(it, end, n, *c, [&](const Key& key, const Frames& outer, std::uint64_t k) {
          Frames f = outer;
          f.push_back({caller, kNoLine, std::get<2>(key)});
          f.push_back({std::get<1>(key), kNoLine, std::get<3>(key)});
          placed_[f] += k;
          if (!outer.empty()) profile_.inferred += k;
        });
      }
      it = end;
    }
    if (placed_.empty()) {  // no walks: the LR guesses alone, as they are (no copy)
      profile_.stacks = std::move(plain);
    } else {
      profile_.stacks.reserve(placed_.size() + plain.size());
      for (auto& [frames, n] : placed_) profile_.stacks.emplace_back(frames, n);
      for (auto& e : plain) profile_.stacks.push_back(std::move(e));
    }
    if (inlined_) expand_inlined();
    profile_.pc_self.sort();
    if (with_lines_) arcs();
    return std::move(profile_);
  }

  // std::sort of the whole by the key's fields in order (the keys are distinct, one per guess: one
  // order), as two stable counting passes by the function ids (the second field, then the first;
  // fewer ids than keys), then each run of one leaf and caller by site and pc where it is not
  // already so: the guesses come in pc order, and a run mostly has one call site, so a run
  // mostly is. A million keys of a large ELF with leaf pcs took three times as long spread by
  // one id and std::sort'ed, comparing field by field.
  template <class Entry>
  void sort_by_leaf(std::vector<Entry>& v) const {
    sort_by_ids(
        v, [](const Entry& e) { return std::get<0>(e.first); }, [](const Entry& e) { return std::get<1>(e.first); },
        [](const Entry& a, const Entry& b) {
          const auto &x = a.first, &y = b.first;
          if (std::get<2>(x) != std::get<2>(y)) return std::get<2>(x) < std::get<2>(y);
          if (std::get<3>(x) != std::get<3>(y)) return std::get<3>(x) < std::get<3>(y);
          return a.second < b.second;
        });
  }
  // By first(e), then second(e) (function ids, or kNoFunction: last), then rest_less.
  template <class Entry, class First, class Second, class RestLess>
  void sort_by_ids(std::vector<Entry>& v, First first, Second second, RestLess rest_less) const {
    const std::size_t buckets = profile_.functions.size() + 1;  // the last one: kNoFunction
    // v to other and back (other left as new[] makes it: not cleared first where Entry is trivial)
    const std::unique_ptr<Entry[]> other(new Entry[v.size()]);
    std::vector<std::size_t> at(buckets);
    const auto pass = [&](auto id, const Entry* from, const Entry* end, Entry* to) {  // stable, by the id
      std::fill(at.begin(), at.end(), 0);
      for (const Entry* e = from; e != end; ++e) ++at[std::min<std::size_t>(id(*e), buckets - 1)];
      std::size_t sum = 0;
      for (std::size_t& a : at) sum += std::exchange(a, sum);
      for (const Entry* e = from; e != end; ++e) to[at[std::min<std::size_t>(id(*e), buckets - 1)]++] = *e;
    };
    pass(second, v.data(), v.data() + v.size(), other.get());
    pass(first, other.get(), other.get() + v.size(), v.data());
    for (auto run = v.begin(); run != v.end();) {
      auto end = run + 1;
      while (end != v.end() && first(*end) == first(*run) && second(*end) == second(*run)) ++end;
      if (!std::is_sorted(run, end, rest_less)) std::sort(run, end, rest_less);
      run = end;
    }
  }

  // At most this many distinct samples: the per-line map never rehashes.
  void reserve(std::size_t n) {
    // With the pc in its key, a guess per distinct sample, or nearly.
    if (listed_) list_.reserve(n);
    if (!with_lines_) return;
    profile_.line_self.reserve(n);
    profile_.pc_self.reserve(n);
  }

 private:
  struct Guess {
    std::uint32_t caller, leaf;
    std::uint64_t site, pc;  // the call instruction (lr - 1) with lines, the sampled pc with leaf pcs
    bool operator==(const Guess&) const = default;
  };
  using LrStack = Profile::LrStack;
  static Guess key(const LrStack& e) { return {e.caller, e.leaf, e.site, e.pc}; }
  struct GuessHash {
    std::size_t operator()(const Guess& g) const {
      return static_cast<std::size_t>(hash_address(hash_address(std::uint64_t{g.caller} << 32 | g.leaf) ^
                                                   hash_address(g.site) ^ g.pc));
    }
  };
  // With the pc in the key (leaf pcs, inlined), the guesses come grouped by pc, as the dump's
  // samples are sorted: a list, each pc's few entries searched, instead of a hash table a key per
  // distinct sample wide (a cache miss each on a large ELF). A pc out of order, or one with many
  // entries, moves them all to the table.
  std::uint64_t& guess(const Guess& g) {
    if (listed_) {
      if (list_.empty() || list_.back().pc < g.pc) {
        run_ = list_.size();
        return list_.push_back({g.caller, g.leaf, g.site, g.pc, 0}), list_.back().count;
      }
      if (list_.back().pc == g.pc && list_.size() - run_ < kRun) {
        for (std::size_t i = run_; i < list_.size(); ++i)
          if (key(list_[i]) == g) return list_[i].count;
        return list_.push_back({g.caller, g.leaf, g.site, g.pc, 0}), list_.back().count;
      }
      listed_ = false;
      for (const LrStack& e : list_) guesses_.try_emplace(key(e), e.count);  // the keys are distinct
      std::vector<LrStack>().swap(list_);
    }
    return *guesses_.try_emplace(g, 0).first;
  }
  std::uint64_t* find_guess(const Guess& g) {
    if (!listed_) return guesses_.find(g);
    auto it = std::lower_bound(list_.begin(), list_.end(), g.pc,
                               [](const LrStack& e, std::uint64_t pc) { return e.pc < pc; });
    for (; it != list_.end() && it->pc == g.pc; ++it)
      if (key(*it) == g) return &it->count;
    return nullptr;
  }
  template <class F>
  void for_each_guess(F f) const {
    if (!listed_) return guesses_.for_each(f);
    for (const LrStack& e : list_) f(key(e), e.count);
  }

  // Inlined code is found by address: then the call and the pc are kept until take() expands them.
  Guess guess_key(std::uint32_t caller, std::uint64_t lr, std::uint32_t leaf, std::uint64_t pc) const {
    return {caller, leaf, (sites_ || inlined_) && caller != kNoFunction ? lr - 1 : 0,
            leaf_pcs_ || inlined_ ? pc : 0};
  }

  // Where each function of `wanted` was seen in the stacks so far (the walks): the functions
  // outside its outermost occurrence, weighted by samples. Keyed by those function ids alone, so
  // the shares are the same in every format (with or without call-site addresses); each path keeps
  // the call sites of the first walk that had it, which placed samples take.
  struct Context {
    std::uint64_t weight = 0;
    Frames outer;  // the representative's frames
  };
  // Element by element: Debian 12's libstdc++ (GCC 12) compares vectors of 32-bit integers with
  // memcmp on big-endian targets and, under qemu-mips, found [13, 1] equal to [13, 2] (too few
  // bytes compared); a comparison of our own keeps it off that path.
  struct PathLess {
    bool operator()(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) const {
      return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                          [](std::uint32_t x, std::uint32_t y) { return x < y; });
    }
  };
  using Contexts = std::map<std::uint32_t, std::map<std::vector<std::uint32_t>, Context, PathLess>>;
  Contexts contexts(const std::vector<bool>& wanted) const {
    Contexts c;
    std::vector<bool> seen;
    std::vector<std::uint32_t> path;
    for (const auto& [frames, n] : placed_) {
      seen.assign(profile_.functions.size(), false);
      path.clear();
      for (std::size_t i = 0; i < frames.size(); path.push_back(frames[i++].function)) {
        const std::uint32_t f = frames[i].function;
        if (seen[f] || !wanted[f]) continue;
        seen[f] = true;
        Context& x = c[f][path];
        if (x.weight == 0) x.outer.assign(frames.begin(), frames.begin() + static_cast<std::ptrdiff_t>(i));
        x.weight += n;
      }
    }
    return c;
  }
  using Paths = std::map<std::vector<std::uint32_t>, Context, PathLess>;

  // n samples over the contexts in proportion to their weights.
  template <class Emit>
  static void spread(std::uint64_t n, const Paths& contexts, Emit emit) {
    std::vector<std::uint64_t> weights;
    for (const auto& [path, c] : contexts) weights.push_back(c.weight);
    const std::vector<std::uint64_t> k = shares(n, weights);
    std::size_t i = 0;
    for (const auto& [path, c] : contexts)
      if (const std::uint64_t share = k[i++]; share != 0) emit(c.outer, share);
  }
  // The entries [first, last) (n samples in all) over the contexts: each context's share is
  // filled with entries in order, an entry split where a share ends, so every entry keeps its
  // count and every context its share.
  template <class It, class Emit>
  static void fill(It first, It last, std::uint64_t n, const Paths& contexts, Emit emit) {
    std::vector<std::uint64_t> weights;
    for (const auto& [path, c] : contexts) weights.push_back(c.weight);
    const std::vector<std::uint64_t> k = shares(n, weights);
    auto c = contexts.begin();
    std::size_t ci = 0;
    std::uint64_t room = k[0];
    for (It e = first; e != last; ++e) {
      std::uint64_t left = e->second;
      while (left != 0) {
        while (room == 0) room = k[++ci], ++c;
        const std::uint64_t take = std::min(left, room);
        emit(e->first, c->second.outer, take);
        left -= take;
        room -= take;
      }
    }
  }

  // The call arcs of every stack (callgrind's), skipping markers: an arc per frame pair at the
  // outer frame's call site, except out of a function that recurs further in. A reader adds a
  // function's self cost and its calls' costs into its inclusive cost, so this counts each
  // sample once per function however deep the recursion (as the flame graph does).
  void arcs() {
    std::vector<std::size_t> last(profile_.functions.size());
    for (const auto& [frames, n] : profile_.stacks) {
      for (std::size_t i = 0; i < frames.size(); ++i) last[frames[i].function] = i;
      const Frame* outer = nullptr;
      std::size_t outer_index = 0;
      for (std::size_t i = 0; i < frames.size(); ++i) {
        const Frame& f = frames[i];
        if (is_marker(f.function)) continue;
        if (outer != nullptr && outer->at != 0 && last[outer->function] == outer_index)
          profile_.calls[{outer->function, frame_line(*outer), f.function, outer->at}] += n;
        outer = &f;
        outer_index = i;
      }
    }
  }

  std::uint32_t frame_line(const Frame& f) const {
    if (f.call_line != kNoLine) return f.call_line == kInlinedNoLine ? kNoLine : f.call_line;
    return line_of(f.at);
  }

  // Each frame in inlined code: its function, then the inlined calls there down to the innermost
  // (whose `at` and call lines the profile keeps only with lines or leaf pcs, as for any frame).
  // Stacks that become equal once addresses are dropped are merged, in first-seen order.
  void expand_inlined() {
    std::vector<std::pair<Frames, std::uint64_t>> out;
    out.reserve(profile_.stacks.size());
    struct FramesHash {
      std::size_t operator()(const Frames& fs) const {
        std::uint64_t h = fs.size();
        for (const Frame& f : fs) h = hash_address(h ^ hash_address(std::uint64_t{f.function} << 32 | f.call_line) ^ f.at);
        return static_cast<std::size_t>(h);
      }
    };
    std::unordered_map<Frames, std::size_t, FramesHash> index;
    index.reserve(profile_.stacks.size());
    Frames s;
    for (const auto& [frames, n] : profile_.stacks) {
      s.clear();
      for (std::size_t i = 0; i < frames.size(); ++i) {
        const Frame& f = frames[i];
        const bool leaf = i + 1 == frames.size();
        const std::uint64_t kept = (leaf ? leaf_pcs_ : sites_) ? f.at : 0;
        if (f.at != 0 && f.function != unknown_ && !is_marker(f.function)) symbols_.inlined_at(f.at, chain_);
        else chain_.clear();
        if (chain_.empty()) {
          s.push_back({f.function, kNoLine, kept});
          continue;
        }
        // The inlined calls' arcs (callgrind) sit at the instruction: kept with lines.
        const std::uint64_t at = sites_ ? f.at : 0;
        s.push_back({f.function, call_line(chain_[0]), at});
        for (std::size_t k = 0; k < chain_.size(); ++k)
          s.push_back({inlined_function(chain_[k].function),
                       k + 1 < chain_.size() ? call_line(chain_[k + 1]) : kNoLine, at});
      }
      const auto [it, fresh] = index.try_emplace(s, out.size());
      if (fresh) out.emplace_back(s, n);
      else out[it->second].second += n;
    }
    profile_.stacks = std::move(out);
  }
  std::uint32_t call_line(const InlineFrame& f) const {
    return sites_ && f.call_line != 0xFFFFFFFFu ? f.call_line : kInlinedNoLine;
  }

  // The innermost inlined function at pc in `in` (the function of pc), or `in` itself.
  std::uint32_t innermost_at(std::uint64_t pc, std::uint32_t in) {
    if (in == unknown_) return in;
    symbols_.inlined_at(pc, chain_);
    return chain_.empty() ? in : inlined_function(chain_.back().function);
  }
  // An inlined function's id: its out-of-line copy's where the symbol table has one.
  std::uint32_t inlined_function(std::uint32_t index) {
    std::uint32_t& id = by_inlined_[index];
    if (id != kNoFunction) return id;
    const InlinedFunction& fn = symbols_.inlined(index);
    if (const std::optional<std::uint32_t> f = symbols_.function_named(fn.name)) return id = symbol_function(*f);
    id = add_function(fn.name, fn.lowest, fn.decl_line);
    profile_.functions[id].inlined_only = true;
    return id;
  }

  std::uint32_t marker(const std::string& name) {
    auto [it, fresh] = markers_.try_emplace(name, 0);
    if (fresh) it->second = add_function(name, 0, kNoLine);
    return it->second;
  }
  bool is_marker(std::uint32_t f) const {  // a few reasons at most
    for (const auto& [name, id] : markers_)
      if (id == f) return true;
    return false;
  }

  std::uint32_t caller_of(std::uint64_t lr, std::uint32_t leaf) {
    if (lr == 0 || symbols_.empty()) return kNoFunction;
    const std::uint32_t from = function_of(lr - 1);
    return from != leaf && from != unknown_ ? from : kNoFunction;
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
    return symbol_function(*f);
  }
  std::uint32_t symbol_function(std::uint32_t index) {
    std::uint32_t& id = by_symbol_[index];
    if (id == kNoFunction) {
      const Function& fn = symbols_.function(index);
      id = add_function(fn.name, fn.lo, line_of(fn.lo));
    }
    return id;
  }

  std::uint32_t line_of(std::uint64_t address) const {
    return symbols_.line_at(address).value_or(kNoLine);
  }

  std::uint32_t add_function(std::string name, std::uint64_t address, std::uint32_t line) {
    profile_.functions.push_back({std::move(name), address, line, 0, false});
    return static_cast<std::uint32_t>(profile_.functions.size() - 1);
  }

  struct LastPc {  // add()'s lookups for the pc it saw last
    bool valid = false;
    std::uint64_t pc = 0;
    std::uint32_t leaf = 0, self = 0;
    std::uint64_t* line_self = nullptr;
    std::size_t pc_self = 0;  // index in profile_.pc_self
  } last_;
  const SymbolTable& symbols_;
  std::size_t line_hint_ = 0;  // add()'s line look-ups, from the last one's range
  int address_digits_;
  bool with_lines_;  // line_self, pc_self and calls
  bool leaf_pcs_;
  // Frames keep their call sites and inlined calls' lines: with lines, and for leaf pcs (pprof's
  // locations carry their lines) without the per-line maps.
  bool sites_;
  bool inlined_;
  Profile profile_;
  std::vector<std::uint32_t> by_symbol_;  // symbol index -> function id
  std::vector<std::uint32_t> by_inlined_;  // inlined function index -> function id
  std::vector<InlineFrame> chain_;         // inlined_at()'s, reused
  std::unordered_map<std::uint64_t, std::uint32_t, AddressHash> by_address_;  // keys from the dump
  std::uint32_t unknown_ = kNoFunction;
  // Samples without a stack of their own (an entry back at 0 had all its samples replaced).
  FlatMap<Guess, std::uint64_t, GuessHash> guesses_;
  static constexpr std::size_t kRun = 16;  // at most this many entries per pc in list_
  bool listed_;                            // in list_ (sorted by pc), not in guesses_ (see guess())
  std::vector<LrStack> list_;  // a guess and its count each: the layout of pprof's lr_stacks
  std::size_t run_ = 0;  // where the last pc's entries start in list_
  std::map<Frames, std::uint64_t> complete_, stopped_;          // walked stacks, outermost first
  std::map<Frames, std::uint64_t> placed_;                       // the walks, and samples placed in them
  std::map<std::string, std::uint32_t> markers_;                // "[unwind stopped: ...]" -> function id
};

}  // namespace

Profile build_profile(const Dump& dump, const SymbolTable& symbols, bool with_lines,
                      const std::vector<UnwoundStack>* unwound, bool leaf_pcs, bool inlined) {
  Builder b(symbols, dump.target.address_bytes, with_lines, leaf_pcs, inlined);
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

void Profile::PcCosts::sort() {
  if (std::adjacent_find(v_.begin(), v_.end(), [](const value_type& a, const value_type& b) { return a.first >= b.first; }) ==
      v_.end())
    return;  // the samples alone: sorted, each pc once
  std::stable_sort(v_.begin(), v_.end(), [](const value_type& a, const value_type& b) { return a.first < b.first; });
  std::size_t out = 0;
  for (std::size_t i = 0; i < v_.size(); ++i) {
    if (out != 0 && v_[out - 1].first == v_[i].first) v_[out - 1].second.count += v_[i].second.count;
    else v_[out++] = v_[i];
  }
  v_.resize(out);
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

std::string Profile::placement() const {
  if (walked == 0) return "";
  std::string t = std::to_string(walked) + " of " + std::to_string(total) + " samples have a stack of their own";
  if (inferred != 0)
    t += "; " + std::to_string(inferred) +
         " (without a stack, or cut short) placed in the stacks the walks saw their function in";
  return t;
}

std::vector<std::uint64_t> Profile::inclusive() const {
  std::vector<std::uint64_t> out(functions.size(), 0);
  std::vector<std::uint32_t> seen;
  for (const auto& [frames, count] : stacks) {
    seen.clear();
    for (const Frame& f : frames) {
      if (std::find(seen.begin(), seen.end(), f.function) != seen.end()) continue;
      seen.push_back(f.function);
      out[f.function] += count;
    }
  }
  for (const LrStack& s : lr_stacks) {  // [caller, leaf] or [leaf]
    out[s.leaf] += s.count;
    if (s.caller != kNoFunction && s.caller != s.leaf) out[s.caller] += s.count;
  }
  return out;
}

std::vector<std::uint32_t> Profile::by_self_then_inclusive(const std::vector<std::uint64_t>& inclusive) const {
  std::vector<std::uint32_t> ids = by_self(), more;
  for (std::uint32_t i = 0; i < functions.size(); ++i)
    if (functions[i].self == 0 && inclusive[i] != 0) more.push_back(i);
  std::sort(more.begin(), more.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (inclusive[a] != inclusive[b]) return inclusive[a] > inclusive[b];
    return std::tie(functions[a].name, functions[a].address) < std::tie(functions[b].name, functions[b].address);
  });
  ids.insert(ids.end(), more.begin(), more.end());
  return ids;
}

std::vector<Profile::Stack> Profile::folded() const {
  std::map<std::vector<std::string>, std::uint64_t> named;  // frames at other places fold together
  for (const auto& [frames, count] : stacks) {
    std::vector<std::string> names;
    names.reserve(frames.size());
    for (const Frame& f : frames) names.push_back(functions[f.function].name);
    named[std::move(names)] += count;
  }
  for (const LrStack& s : lr_stacks) {
    std::vector<std::string> names;
    if (s.caller != kNoFunction) names.push_back(functions[s.caller].name);
    names.push_back(functions[s.leaf].name);
    named[std::move(names)] += s.count;
  }
  std::vector<std::pair<std::string, Stack>> keyed;
  keyed.reserve(named.size());
  for (auto& [names, count] : named) {
    std::string text;
    for (const std::string& f : names) text += (text.empty() ? "" : ";") + f;
    keyed.emplace_back(std::move(text), Stack{names, count});
  }
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Stack> out;
  out.reserve(keyed.size());
  for (auto& k : keyed) out.push_back(std::move(k.second));
  return out;
}

std::uint32_t Profile::frame_line(const Frame& f) const {
  if (f.call_line != kNoLine) return f.call_line == kInlinedNoLine ? kNoLine : f.call_line;
  if (f.at == 0 || symbols == nullptr) return kNoLine;
  return symbols->line_at(f.at).value_or(kNoLine);
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
