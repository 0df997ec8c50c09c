#pragma once
// Samples -> per-function, per-line and caller/callee counts: the data every sample report
// (flat, folded, callgrind, JSON, HTML, SVG) is printed from, with binary searches in the sorted
// SymbolTable.
//
// Stacks: a raw sample (pc, lr) gives the frames [function(lr), function(pc)]. The LR frame is
// only the true caller when the sampled function is a leaf (or is still in its prologue): a
// function that has itself called something holds a stale return address in LR. So the LR
// frame is dropped when lr is 0, when it is not inside a known function, or when it is inside the
// sampled function itself. LR is looked up at lr - 1, the call instruction rather than the
// return address after it. Histogram bins give the single frame [function(pc)].
//
// Inlined code (build_profile(..., inlined = true), report --inline): each frame whose address
// lies in inlined calls (DWARF's inlined subroutines) becomes the function it is in, then each
// inlined function down to the innermost, so a sample there is self of the innermost inlined
// function and inclusive of the functions it was inlined into. An inlined function is the same
// entry as its out-of-line copy where the ELF has one (one name, one row).
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tools/dumpread/address_hash.hpp"
#include "tools/dumpread/dump.hpp"
#include "tools/report/symbols.hpp"

namespace pmukit {

inline constexpr std::uint32_t kNoLine = 0xFFFFFFFFu;
inline constexpr std::uint32_t kNoFunction = 0xFFFFFFFFu;
// Frame::call_line of a frame whose inner frame was inlined into it, where the call's line is
// not known (DWARF does not say, or the profile has no lines).
inline constexpr std::uint32_t kInlinedNoLine = 0xFFFFFFFEu;

struct ProfileFunction {
  std::string name;           // symbol, "[unknown]", or the address in hex when there is no ELF
  std::uint64_t address = 0;  // start of the function (or the address itself)
  std::uint32_t line = kNoLine;  // source line of the start, an id into the SymbolTable
  std::uint64_t self = 0;        // samples whose pc is in it
  // Only inlined (no symbol of its own): address is its lowest inlined copy's, an offset from it
  // means nothing.
  bool inlined_only = false;
};

struct Profile {
  const SymbolTable* symbols = nullptr;
  std::uint64_t total = 0;
  std::vector<ProfileFunction> functions;  // id = index
  std::uint32_t unknown = kNoFunction;     // id of "[unknown]" (samples in no function), if any
  std::uint64_t unknown_samples() const { return unknown == kNoFunction ? 0 : functions[unknown].self; }
  // Self samples by (function, line). Only with build_profile(..., with_lines = true).
  std::unordered_map<std::uint64_t, std::uint64_t> line_self;  // function << 32 | line
  // Self samples by instruction address (callgrind's instr positions, annotate's), with the
  // function and line of that address. Only with lines; as many entries as distinct PCs, sorted
  // by pc (the samples come sorted: no hashing, one entry of 24 bytes each).
  struct PcCost {
    std::uint32_t function, line;
    std::uint64_t count;
  };
  class PcCosts {
   public:
    using value_type = std::pair<std::uint64_t, PcCost>;
    using const_iterator = std::vector<value_type>::const_iterator;
    const_iterator begin() const { return v_.begin(); }
    const_iterator end() const { return v_.end(); }
    std::size_t size() const { return v_.size(); }
    bool empty() const { return v_.empty(); }
    const_iterator find(std::uint64_t pc) const {
      const auto it = std::lower_bound(v_.begin(), v_.end(), pc,
                                       [](const value_type& e, std::uint64_t a) { return e.first < a; });
      return it != v_.end() && it->first == pc ? it : v_.end();
    }
    // Building: entries in any order, a pc perhaps several times (the same function and line),
    // then sort() once.
    void reserve(std::size_t n) { v_.reserve(n); }
    std::size_t append(std::uint64_t pc, const PcCost& c) {
      v_.emplace_back(pc, c);
      return v_.size() - 1;
    }
    std::uint64_t& count(std::size_t index) { return v_[index].second.count; }
    void sort();

   private:
    std::vector<value_type> v_;
  };
  PcCosts pc_self;
  struct Call {
    std::uint32_t caller, caller_line, callee;
    std::uint64_t site;  // the call instruction's address (lr - 1: inside the call)
    bool operator==(const Call&) const = default;
  };
  struct CallHash {
    std::size_t operator()(const Call& c) const {
      const std::uint64_t ids = hash_address(std::uint64_t{c.caller} << 32 | c.callee) ^ c.caller_line;
      return static_cast<std::size_t>(hash_address(hash_address(ids) ^ c.site));
    }
  };
  // Samples below each call arc, by caller call site: one per frame pair of every stack in
  // `stacks` (callgrind's inclusive costs). Only with build_profile(..., with_lines = true).
  std::unordered_map<Call, std::uint64_t, CallHash> calls;
  // One frame of a stack: the function, and where in it the frame was: the call instruction
  // toward the next inner frame (with lines), or for the leaf the sampled pc (with leaf pcs); 0
  // where not kept.
  // call_line: kNoLine, or the next inner frame is a call inlined into this one, at the same
  // instruction (the frames of one instruction's inlined calls share `at`, kept with lines or leaf
  // pcs): the line id of that call (kInlinedNoLine: not known, or no lines).
  struct Frame {
    std::uint32_t function;
    std::uint32_t call_line;
    std::uint64_t at;
    auto operator<=>(const Frame&) const = default;
  };
  // A frame's source line: its inlined call's line, else the line of `at` (kNoLine for none).
  std::uint32_t frame_line(const Frame& f) const;
  // Every sample once, with its stack, outermost frame first (the one source of folded, the
  // flame graph, the call graph, callgrind's arcs and pprof's samples): an unwound or walked stack
  // as it was found, except that a walk that stopped early has a "[unwind stopped: ...]" frame
  // above its outermost frame reached and, above that, the stacks complete walks saw that frame's
  // function in; a sample without a stack has the stacks its function (else its LR caller) was
  // seen in by complete walks (else by cut ones), in their proportions, or else its LR frame (see
  // above) and itself. `inferred` counts the samples that got frames from other walks.
  // Unique stacks: the walked and placed ones in order, then those that kept their LR guess.
  std::vector<std::pair<std::vector<Frame>, std::uint64_t>> stacks;
  // With leaf pcs, without lines or inlined calls (pprof's profile): the samples that kept their
  // LR guess, after `stacks` and in the order they would have had there, one entry each instead
  // of a vector of frames: [caller at site, leaf at pc], or [leaf at pc] where the caller is
  // kNoFunction, no call lines. A large ELF has one per distinct (pc, lr): their vectors were
  // most of the profile's memory. Empty otherwise (they are in `stacks`). inclusive(), folded()
  // and the caller view count them; code that walks `stacks` itself must read them too.
  struct LrStack {
    std::uint32_t caller, leaf;
    std::uint64_t site, pc, count;
  };
  std::vector<LrStack> lr_stacks;
  std::uint64_t inferred = 0;  // samples whose outer frames came from other samples' walks
  std::uint64_t walked = 0;    // samples with a stack of their own (STACKS unwound, FRAMES)
  // "" without walks; else how many samples have their own stack and how many were placed.
  std::string placement() const;

  // Ids of the functions with self samples, most first (ties by name, then address). Functions
  // seen only as callers have none.
  std::vector<std::uint32_t> by_self() const;
  // by_self(), then the functions seen only in stacks, most inclusive first (inclusive()'s).
  std::vector<std::uint32_t> by_self_then_inclusive(const std::vector<std::uint64_t>& inclusive) const;
  // Samples with the function anywhere in their stack (once per sample however often it recurs),
  // by function id.
  std::vector<std::uint64_t> inclusive() const;
  // Stacks as names, outermost frame first, sorted by their folded text ("a;b").
  struct Stack {
    std::vector<std::string> frames;
    std::uint64_t count;
  };
  std::vector<Stack> folded() const;
  // "file:line" of a line id, or "" for kNoLine.
  std::string location(std::uint32_t line) const;
};

// A STACKS sample's call stack as an unwinder found it (tools/elf/unwind.hpp): pcs leaf first
// (the sample's pc, then return addresses); stopped: "" for a complete walk, else why it ended.
struct UnwoundStack {
  std::vector<std::uint64_t> pcs;
  std::string stopped;
  std::uint64_t copy_needed = 0;  // stopped at the copy's end: the bytes from sp it needed (0: not that)
};

// How the stack samples' walks ended: the report's "Stacks:" line, so a user sizes the firmware's
// copy from it (prof::StackRing's Bytes) instead of trusting a flame graph of cut-short stacks.
struct UnwindSummary {
  std::uint64_t walks = 0, complete = 0, at_top = 0;  // at_top: complete where the copy reached the stack's top
  std::map<std::string, std::uint64_t> stopped;  // reason -> walks
  std::uint64_t copy = 0;         // the longest copy in the dump (the firmware's Bytes, or less)
  std::uint64_t copy_needed = 0;  // the longest copy a walk cut short by a full copy needed
  std::string text() const;       // "" without walks
};
// unwound[i] is the walk of stacks[i]. A walk that ran off a copy shorter than the longest one
// reached the top of the stack (the firmware clamps its copy there): that is its end, not a cut.
UnwindSummary summarize(const std::vector<UnwoundStack>& unwound, const std::vector<StackSampleRecord>& stacks);

// with_lines: also fill line_self and calls (per source line), which only some formats need
// (format_needs_lines()) and which cost most of the time on large profiles. unwound: one entry per
// dump.stacks sample, in order; they give those samples their own stacks instead of the LR guess.
// leaf_pcs: each stack's leaf frame keeps the sampled pc (pprof's locations), so there are as many
// stacks as distinct (pc, stack) pairs; else one per function stack. Every frame then keeps its
// call site and inlined call lines too, as with lines (a location has its line), but line_self,
// pc_self and calls stay empty unless with_lines: pprof reads none of them. Without lines or
// inlined, the samples that keep their LR guess are in lr_stacks, not stacks. inlined: frames in inlined
// code expanded into the inlined calls (see above; needs a SymbolTable loaded with them).
Profile build_profile(const Dump& dump, const SymbolTable& symbols, bool with_lines = true,
                      const std::vector<UnwoundStack>* unwound = nullptr, bool leaf_pcs = false,
                      bool inlined = false);

}  // namespace pmukit
