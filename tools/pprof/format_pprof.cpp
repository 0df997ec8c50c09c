#include "tools/pprof/format_pprof.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "profiler/dump/format.hpp"
#include "tools/report/describe.hpp"
#include "tools/report/text_util.hpp"

namespace pmukit {
namespace {

// The profile is written as it is built, in protobuf's own encoding (the bytes protobuf's
// serializer gives for tools/pprof/profile.proto: fields in number order, proto3 zeros left out,
// repeated scalars packed): a message object per sample and location cost more than the rest of
// the report on a large ELF. The samples go out as they come; only the locations, functions and
// strings (distinct addresses and names) are kept, to follow them (fields 4-6).
class Out {
 public:
  explicit Out(std::ostream& os) : os_(os), buf_(kFlush + 4096) {}
  // Room for n more bytes, written through the pointer returned and ended by done(): a message
  // is sized first, so its bytes need no check each, as std::string's += makes.
  char* room(std::size_t n) {
    if (buf_.size() - used_ < n) {
      flush();
      if (buf_.size() < n) buf_.resize(n);
    }
    return buf_.data() + used_;
  }
  void done(const char* end) { used_ = static_cast<std::size_t>(end - buf_.data()); }
  void append(std::string_view v) {
    char* p = room(v.size());
    std::copy(v.begin(), v.end(), p);
    done(p + v.size());
  }
  // Large bytes straight to the stream, after what is buffered.
  void write(const char* data, std::size_t n) {
    flush();
    if (n != 0 && !os_.write(data, static_cast<std::streamsize>(n))) throw std::runtime_error("pprof: write failed");
  }
  void flush() {
    if (used_ != 0 && !os_.write(buf_.data(), static_cast<std::streamsize>(used_)))
      throw std::runtime_error("pprof: write failed");
    used_ = 0;
  }
  void maybe_flush() {
    if (used_ >= kFlush) flush();
  }

 private:
  static constexpr std::size_t kFlush = 1 << 20;
  std::ostream& os_;
  std::vector<char> buf_;
  std::size_t used_ = 0;
};

// A varint at p (room for 10 bytes): the end.
inline char* put_varint(char* p, std::uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

inline void varint(std::string& b, std::uint64_t v) {
  if (v < 0x80) {  // most ids, lines and counts of a small profile
    b += static_cast<char>(v);
    return;
  }
  char tmp[10];
  std::size_t n = 0;
  while (v >= 0x80) {
    tmp[n++] = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  tmp[n++] = static_cast<char>(v);
  b.append(tmp, n);
}
std::size_t varint_size(std::uint64_t v) {
  std::size_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}
// A scalar field (wire type 0), left out at zero as proto3 does.
void field(std::string& b, unsigned number, std::uint64_t v) {
  if (v == 0) return;
  varint(b, number << 3);
  varint(b, v);
}
// A length-delimited field (wire type 2): a message, string or packed scalars.
void bytes_field(std::string& b, unsigned number, std::string_view v) {
  varint(b, number << 3 | 2);
  varint(b, v.size());
  b.append(v);
}
// Packed scalars, left out when empty.
void packed(std::string& b, unsigned number, const std::vector<std::uint64_t>& v) {
  if (v.empty()) return;
  std::size_t n = 0;
  for (const std::uint64_t x : v) n += varint_size(x);
  varint(b, number << 3 | 2);
  varint(b, n);
  for (const std::uint64_t x : v) varint(b, x);
}

// ValueType {type = 1, unit = 2}.
std::string value_type(std::int64_t type, std::int64_t unit) {
  std::string m;
  field(m, 1, static_cast<std::uint64_t>(type));
  field(m, 2, static_cast<std::uint64_t>(unit));
  return m;
}

// Location ids by (address, innermost function): a table a slot per location wide (16 bytes: no
// flag, id 0 is empty), open addressing with linear probing at most 3/4 full, hashed as every table
// keyed by the dump's addresses is (address_hash.hpp). A large ELF has a location per distinct pc.
class Locations {
 public:
  // The key's id, and whether it is new (the next id, from 1).
  std::pair<std::uint32_t, bool> id(std::uint64_t at, std::uint32_t function) {
    if (4 * (count_ + 1) > 3 * slots_.size()) grow();
    Slot& s = probe(slots_, at, function);
    if (s.id != 0) return {s.id, false};
    s = {at, function, ++count_};
    return {s.id, true};
  }
  // Room for `n` locations without growing.
  void reserve(std::size_t n) {
    std::size_t size = slots_.size();
    while (4 * n > 3 * size) size *= 2;
    if (size > slots_.size()) resize(size);
  }
  // Where the key's probe starts, for the caller to prefetch (valid until the next grow).
  const void* first_slot(std::uint64_t at, std::uint32_t function) const {
    return slots_.data() + (hash(at, function) & (slots_.size() - 1));
  }

 private:
  struct Slot {
    std::uint64_t at = 0;
    std::uint32_t function = 0, id = 0;
  };
  static std::size_t hash(std::uint64_t at, std::uint32_t function) {
    return static_cast<std::size_t>(hash_address(at ^ std::uint64_t{function} << 48));
  }
  static Slot& probe(std::vector<Slot>& slots, std::uint64_t at, std::uint32_t function) {
    const std::size_t mask = slots.size() - 1;
    for (std::size_t i = hash(at, function);; ++i) {
      Slot& s = slots[i & mask];
      if (s.id == 0 || (s.at == at && s.function == function)) return s;
    }
  }
  void grow() { resize(2 * slots_.size()); }
  void resize(std::size_t size) {
    std::vector<Slot> bigger(size);
    for (const Slot& s : slots_)
      if (s.id != 0) probe(bigger, s.at, s.function) = s;
    slots_.swap(bigger);
  }
  std::vector<Slot> slots_ = std::vector<Slot>(1024);  // never empty: first_slot() needs no test
  std::uint32_t count_ = 0;
};

class Builder {
 public:
  Builder(const ReportInput& in) : in_(in), p_(in.profile), function_ids_(p_.functions.size(), 0) {
    strings_out_.push_back("");
  }

  // proto3 strings must be UTF-8: a reader rejects the whole profile over one bad name.
  std::int64_t str(const std::string& s) {
    auto [it, fresh] = strings_.try_emplace(s, static_cast<std::int64_t>(strings_out_.size()));
    if (fresh) strings_out_.push_back(to_valid_utf8(s));
    return it->second;
  }
  std::uint64_t function(const std::string& name, std::uint32_t line_id) {
    auto [it, fresh] = functions_.try_emplace(name, functions_out_.size() + 1);
    if (fresh) {
      // Function {id = 1, name = 2, system_name = 3, filename = 4, start_line = 5}.
      const auto n = static_cast<std::uint64_t>(str(name));
      std::string f;
      field(f, 1, it->second);
      field(f, 2, n);
      field(f, 3, n);
      if (line_id != kNoLine) {
        field(f, 4, static_cast<std::uint64_t>(str(p_.symbols->file(p_.symbols->line(line_id).file))));
        field(f, 5, static_cast<std::uint64_t>(std::int64_t{p_.symbols->line(line_id).line}));
      }
      functions_out_.push_back(std::move(f));
    }
    return it->second;
  }
  // One location per address and innermost function (a "[unwind stopped: ...]" frame has no
  // address): the frames [first, last] of one instruction, outermost first, the outer ones
  // inlining the next (Profile::Frame::call_line). Its lines are pprof's inlined frames, the
  // innermost first, each function with its line there.
  std::uint64_t location(const Profile::Frame* first, const Profile::Frame* last) {
    const auto [id, fresh] = locations_.id(last->at, last->function);
    if (!fresh) return id;
    // Location {id = 1, mapping_id = 2, address = 3, line = 4 (Line {function_id = 1, line = 2})}:
    // the lines (function ids from 1, never left out) first, to size the message.
    lines_.clear();
    std::size_t lines_bytes = 0;
    for (const Profile::Frame* f = last;; --f) {
      const ProfileFunction& fn = p_.functions[f->function];
      // By the profile's function id: a name is hashed once, not once per location.
      std::uint64_t& fid = function_ids_[f->function];
      if (fid == 0) fid = function(fn.name, fn.line);
      const std::uint32_t line_id = symbols_ ? frame_line(*f) : kNoLine;
      const std::uint64_t line =
          line_id != kNoLine ? static_cast<std::uint64_t>(std::int64_t{p_.symbols->line(line_id).line}) : 0;
      const std::size_t body = varint_size(fid) + 1 + (line != 0 ? 1 + varint_size(line) : 0);
      lines_.push_back({fid, line, body});
      lines_bytes += 1 + varint_size(body) + body;
      if (f == first) break;
    }
    const std::uint64_t at = last->at;
    const std::size_t size = 1 + varint_size(id) + 2 + (at != 0 ? 1 + varint_size(at) : 0) + lines_bytes;
    // Into blocks of about kBlock bytes: one string doubling as it grew copied and touched
    // twice what it held.
    const std::size_t need = 1 + varint_size(size) + size;
    if (locations_out_.empty() || locations_out_.back().size - locations_out_.back().used < need) {
      const std::size_t cap = std::max(kBlock, need);
      locations_out_.push_back({std::make_unique<char[]>(cap), cap, 0});
    }
    Block& block = locations_out_.back();
    char* p = block.data.get() + block.used;
    *p++ = '\x22';  // Profile.location, field 4
    p = put_varint(p, size);
    *p++ = '\x08';  // Location.id
    p = put_varint(p, id);
    *p++ = '\x10';  // Location.mapping_id = 1
    *p++ = '\x01';
    if (at != 0) {
      *p++ = '\x18';  // Location.address
      p = put_varint(p, at);
    }
    for (const Line& l : lines_) {
      *p++ = '\x22';  // Location.line
      p = put_varint(p, l.body);
      *p++ = '\x08';  // Line.function_id
      p = put_varint(p, l.function);
      if (l.line != 0) {
        *p++ = '\x10';  // Line.line
        p = put_varint(p, l.line);
      }
    }
    block.used = static_cast<std::size_t>(p - block.data.get());
    return id;
  }

  // Profile::frame_line(), its line table search starting where the last one ended: the stacks
  // come with their leaf pcs in rising order under each caller and leaf.
  std::uint32_t frame_line(const Profile::Frame& f) {
    if (f.call_line != kNoLine) return f.call_line == kInlinedNoLine ? kNoLine : f.call_line;
    if (f.at == 0) return kNoLine;
    return p_.symbols->line_at(f.at, line_hint_).value_or(kNoLine);
  }

  void write(std::ostream& os) {
    const Dump& d = in_.dump;
    const bool timer = d.source && d.source->kind == static_cast<unsigned>(pmu::dump::SampleSourceKind::timer);
    const std::uint64_t period = d.source ? d.source->period : 0;
    std::string event = "events";
    if (d.source && !timer)
      for (const Counter& c : d.counters)
        if (c.slot == d.source->counter_slot) event = counter_label(c);
    Out out(os);
    std::string b;  // the fields around the samples and locations, each appended to out in turn
    // Two values per sample: the count, and what it stands for (nanoseconds of a timer, events
    // of the sampled counter) where the period is known.
    {
      const std::int64_t type = str("samples");
      bytes_field(b, 1, value_type(type, str("count")));
    }
    const bool weighted = period != 0;
    std::string period_type;
    if (weighted) {
      const std::int64_t type = str(timer ? "cpu" : event);
      period_type = value_type(type, str(timer ? "nanoseconds" : "events"));
      bytes_field(b, 1, period_type);
    }
    // The code the samples are in, named by the ELF and its build-id where known.
    // Mapping {id = 1, memory_start = 2, memory_limit = 3, filename = 5, build_id = 6,
    // has_functions = 7, has_filenames = 8, has_line_numbers = 9}.
    std::string mapping;
    field(mapping, 1, 1);
    std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
    // The sampled pcs' span (the profile keeps no per-pc map for pprof: build_profile's leaf_pcs).
    const auto span = [&](std::uint64_t pc, std::uint64_t count) {
      if (count == 0) return;
      lo = std::min(lo, pc);
      hi = std::max(hi, pc + 1);
    };
    for (const SampleCount& s : d.sample_counts) span(s.pc, s.count);
    for (const HistogramBin& h : d.histogram) span(h.pc, h.count);
    if (d.image && d.image->has_code) {
      lo = d.image->code_lo;
      hi = d.image->code_hi;
    }
    if (hi > lo) {
      field(mapping, 2, lo);
      field(mapping, 3, hi);
    }
    if (!in_.options.elf.empty()) field(mapping, 5, static_cast<std::uint64_t>(str(in_.options.elf)));
    if (d.image && !d.image->build_id.empty())
      field(mapping, 6, static_cast<std::uint64_t>(str(hex_bytes(d.image->build_id))));
    const bool symbols = symbols_ = p_.symbols != nullptr && !p_.symbols->empty();
    field(mapping, 7, symbols);
    field(mapping, 8, symbols);
    field(mapping, 9, symbols);

    // One sample per stack of the profile (Profile::stacks, then the LR guesses kept compact in
    // Profile::lr_stacks: unwound, walked, placed or the LR guess), its locations leaf first: the
    // sampled pc, then each caller's call instruction; the frames inlined at one instruction
    // (report --inline) are one location.
    // Sample {location_id = 1, value = 2}, both packed.
    const auto& stacks = p_.stacks;
    const auto& lr_stacks = p_.lr_stacks;
    // A location per distinct leaf pc, or nearly: the table sized once, not doubled up to it.
    locations_.reserve(stacks.size() + lr_stacks.size());
    out.append(b);  // the sample types
    b.clear();
    std::vector<std::uint64_t> ids;
    const auto sample = [&](const Profile::Frame* frames, std::size_t size, std::uint64_t count) {
      if (count == 0) return;
      ids.clear();
      for (std::size_t end = size; end != 0;) {
        std::size_t first = end - 1;
        while (first != 0 && frames[first - 1].call_line != kNoLine) --first;
        ids.push_back(location(&frames[first], &frames[end - 1]));
        end = first;
      }
      std::size_t id_bytes = 0;
      for (const std::uint64_t id : ids) id_bytes += varint_size(id);
      const std::size_t value_bytes = varint_size(count) + (weighted ? varint_size(count * period) : 0);
      const std::size_t body =
          (ids.empty() ? 0 : 1 + varint_size(id_bytes) + id_bytes) + 1 + varint_size(value_bytes) + value_bytes;
      char* o = out.room(1 + varint_size(body) + body);
      *o++ = '\x12';  // Profile.sample, field 2
      o = put_varint(o, body);
      if (!ids.empty()) {
        *o++ = '\x0a';  // Sample.location_id
        o = put_varint(o, id_bytes);
        for (const std::uint64_t id : ids) o = put_varint(o, id);
      }
      *o++ = '\x12';  // Sample.value
      o = put_varint(o, value_bytes);
      o = put_varint(o, count);
      if (weighted) o = put_varint(o, count * period);
      out.done(o);
      out.maybe_flush();
    };
    // The locations of a stack a few ahead are fetched now: their look-ups miss the cache on a
    // large ELF (a location per distinct pc), and so overlap.
    constexpr std::size_t kAhead = 8;  // stacks
    for (std::size_t i = 0; i < stacks.size(); ++i) {
      if (i + kAhead < stacks.size()) {
        const auto& ahead = stacks[i + kAhead].first;
        for (std::size_t end = ahead.size(); end != 0;) {
          std::size_t first = end - 1;
          while (first != 0 && ahead[first - 1].call_line != kNoLine) --first;
          __builtin_prefetch(locations_.first_slot(ahead[end - 1].at, ahead[end - 1].function));
          end = first;
        }
      }
      sample(stacks[i].first.data(), stacks[i].first.size(), stacks[i].second);
    }
    // Their entries are fewer bytes, and done sooner: fetched further ahead.
    constexpr std::size_t kLrAhead = 16;
    for (std::size_t i = 0; i < lr_stacks.size(); ++i) {
      if (i + kLrAhead < lr_stacks.size()) {
        const Profile::LrStack& ahead = lr_stacks[i + kLrAhead];
        __builtin_prefetch(locations_.first_slot(ahead.pc, ahead.leaf));
        if (ahead.caller != kNoFunction) __builtin_prefetch(locations_.first_slot(ahead.site, ahead.caller));
      }
      const Profile::LrStack& e = lr_stacks[i];
      Profile::Frame frames[2];  // outermost first, as in Profile::stacks
      std::size_t size = 0;
      if (e.caller != kNoFunction) frames[size++] = {e.caller, kNoLine, e.site};
      frames[size++] = {e.leaf, kNoLine, e.pc};
      sample(frames, size, e.count);
    }
    std::vector<std::uint64_t> comments;
    if (d.source && d.source->dropped != 0)
      comments.push_back(static_cast<std::uint64_t>(str(std::to_string(d.source->dropped) + " samples dropped on the target")));
    comments.push_back(static_cast<std::uint64_t>(str("pmukit: " + describe_target(d))));

    bytes_field(b, 3, mapping);
    out.append(b);
    b.clear();
    for (Block& block : locations_out_) {
      out.write(block.data.get(), block.used);
      block.data.reset();
    }
    for (const std::string& f : functions_out_) bytes_field(b, 5, f);
    for (const std::string& s : strings_out_) {
      bytes_field(b, 6, s);
      if (b.size() >= kBlock) {
        out.append(b);
        b.clear();
      }
    }
    if (weighted) {
      bytes_field(b, 11, period_type);
      field(b, 12, period);
    }
    packed(b, 13, comments);
    out.append(b);
    out.flush();
  }

 private:
  const ReportInput& in_;
  const Profile& p_;
  bool symbols_ = false;
  std::size_t line_hint_ = 0;  // frame_line()'s
  std::vector<std::string> strings_out_;    // the string table, in order
  std::vector<std::string> functions_out_;  // each Function message, in id order
  static constexpr std::size_t kBlock = 1 << 20;
  struct Block {
    std::unique_ptr<char[]> data;
    std::size_t size, used;
  };
  std::vector<Block> locations_out_;  // the Location fields (4) of the profile, in id order
  struct Line {
    std::uint64_t function, line;
    std::size_t body;  // the Line message's bytes
  };
  std::vector<Line> lines_;  // location()'s, reused
  std::unordered_map<std::string, std::int64_t> strings_;
  std::unordered_map<std::string, std::uint64_t> functions_;
  std::vector<std::uint64_t> function_ids_;  // profile function id -> function(), 0 before its first
  Locations locations_;
};

}  // namespace

void write_pprof(std::ostream& os, const ReportInput& in) { Builder(in).write(os); }

}  // namespace pmukit
