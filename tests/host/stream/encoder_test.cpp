// The live stream's firmware side (profiler/stream/, docs/stream-format.md): the frames byte for
// byte against examples worked by hand from the spec, the varint and zigzag edges, and the drainer
// against a ring that overflows and a sampling interrupt that comes at every step of poll().
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "fake_backend.hpp"
#include "profiler/profiler.hpp"
#include "profiler/sampler.hpp"
#include "profiler/stream/drainer.hpp"
#include "profiler/stream/frame.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;
namespace st = pmu::stream;

// The spec's CRC, bit by bit (not the firmware's nibble table): IEEE 802.3, reflected 0xEDB88320.
std::uint32_t crc_bitwise(const std::uint8_t* p, std::size_t n) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
  }
  return c ^ 0xFFFFFFFFu;
}

// A frame as the spec lays it out: sync, type, flags 0, seq, length, payload, CRC of 2..8+L-1.
Bytes frame_by_hand(std::uint8_t type, std::uint16_t seq, const Bytes& payload) {
  Bytes f = {0xA5, 0x5A, type, 0, static_cast<std::uint8_t>(seq), static_cast<std::uint8_t>(seq >> 8),
             static_cast<std::uint8_t>(payload.size()), static_cast<std::uint8_t>(payload.size() >> 8)};
  f.insert(f.end(), payload.begin(), payload.end());
  const std::uint32_t c = crc_bitwise(f.data() + 2, f.size() - 2);
  for (int i = 0; i < 4; ++i) f.push_back(static_cast<std::uint8_t>(c >> (8 * i)));
  return f;
}

// ---- A minimal decoder (the test's, not the host tool's) --------------------------------------------

struct Decoded {
  std::uint8_t type;
  std::uint16_t seq;
  Bytes payload;
};
struct SamplesFrame {
  std::uint64_t dropped;
  std::vector<prof::Sample> samples;
};

std::uint64_t get_varint(const Bytes& b, std::size_t& i) {
  std::uint64_t v = 0;
  for (unsigned shift = 0; shift < 70; shift += 7) {
    const std::uint8_t x = b.at(i++);
    v |= std::uint64_t{x & 0x7Fu} << shift;
    if (!(x & 0x80)) return v;
  }
  ADD_FAILURE() << "varint longer than 10 bytes";
  return v;
}

// Every frame in the stream; any byte outside a frame or a bad CRC fails the test.
std::vector<Decoded> decode_all(const Bytes& s) {
  std::vector<Decoded> out;
  std::size_t i = 0;
  while (i < s.size()) {
    EXPECT_GE(s.size() - i, st::kHeaderSize + st::kCrcSize) << "cut frame at " << i;
    if (s.size() - i < st::kHeaderSize + st::kCrcSize) break;
    EXPECT_EQ(s[i], 0xA5);
    EXPECT_EQ(s[i + 1], 0x5A);
    EXPECT_EQ(s[i + 3], 0) << "flags";
    const std::size_t len = s[i + 6] | (s[i + 7] << 8);
    EXPECT_LE(len, st::kMaxPayload);
    const std::uint32_t want = crc_bitwise(s.data() + i + 2, 6 + len);
    const std::uint8_t* c = s.data() + i + 8 + len;
    EXPECT_EQ(want, std::uint32_t(c[0] | c[1] << 8 | c[2] << 16 | std::uint32_t(c[3]) << 24));
    out.push_back({s[i + 2], static_cast<std::uint16_t>(s[i + 4] | s[i + 5] << 8),
                   Bytes(s.begin() + i + 8, s.begin() + i + 8 + len)});
    i += 8 + len + 4;
  }
  for (std::size_t k = 1; k < out.size(); ++k) EXPECT_EQ(out[k].seq, std::uint16_t(out[k - 1].seq + 1));
  return out;
}

SamplesFrame decode_samples(const Bytes& p) {
  SamplesFrame f;
  std::size_t i = 0;
  f.dropped = get_varint(p, i);
  const std::uint64_t n = get_varint(p, i);
  const std::uint8_t flags = p.at(i++);
  std::int64_t pc = 0;
  for (std::uint64_t k = 0; k < n; ++k) {
    pc += st::unzigzag(get_varint(p, i));
    EXPECT_TRUE(pc >= 0 && pc <= 0xFFFFFFFF) << "pc outside 4 bytes";
    std::int64_t lr = 0;
    if (flags & st::kSamplesHaveLr) lr = pc + st::unzigzag(get_varint(p, i));
    f.samples.push_back({static_cast<std::uint32_t>(pc), static_cast<std::uint32_t>(lr)});
  }
  EXPECT_EQ(i, p.size()) << "bytes after the samples";
  return f;
}

// ---- The environment a drainer runs in: a sink that takes `per_call` bytes, a settable clock -------

struct Env {
  Bytes out;
  std::size_t per_call = 1000000;
  std::uint32_t now = 0;
  std::uint64_t counters[2] = {5, 300};
  void (*step)(Env&) = nullptr;  // called at every call the drainer makes (interrupt injection)

  static std::size_t write(void* ctx, const std::uint8_t* p, std::size_t n) {
    auto* e = static_cast<Env*>(ctx);
    std::size_t k = 0;
    for (; k < n && k < e->per_call; ++k) {
      if (e->step) e->step(*e);
      e->out.push_back(p[k]);
    }
    return k;
  }
  static std::uint32_t clock(void* ctx) {
    auto* e = static_cast<Env*>(ctx);
    if (e->step) e->step(*e);
    return e->now;
  }
  static void describe(void*, pmu::dump::Writer& w, std::uint64_t) {
    w.begin({"t", "p", 1000, 32, 4});
    const pmu::dump::CounterInfo c[2] = {{0, 32, 1, "a", ""}, {1, 32, 2, "b", ""}};
    w.counters(c, 2);
  }
  static bool snapshot(void*, std::size_t i, pmu::dump::Writer& w) {
    if (i != 0) return false;
    const pmu::dump::CounterStats s[2] = {{7, 1, 4, 0}, {9, 2, 5, 1}};
    w.region({"r", 2, s, 2});
    return true;
  }
  static std::size_t counts(void* ctx, std::uint64_t* v, std::size_t max) {
    auto* e = static_cast<Env*>(ctx);
    if (e->step) e->step(*e);
    for (std::size_t i = 0; i < 2 && i < max; ++i) v[i] = e->counters[i];
    return 2;
  }
  st::ByteSink sink() { return {&write, this}; }
  st::Source source(bool with_counts, bool with_snapshots) {
    st::Source s;
    s.ctx = this;
    s.describe = &describe;
    s.snapshot = with_snapshots ? &snapshot : nullptr;
    s.counts = with_counts ? &counts : nullptr;
    s.clock = &clock;
    s.clock_hz = 1000;
    return s;
  }
};

// The dump preamble describe() writes, by hand (docs/dump-format.md: header, TARGET, COUNTERS).
Bytes preamble_by_hand(bool big) {
  Bytes b;
  auto u = [&](std::uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * (big ? n - 1 - i : i))));
  };
  b.insert(b.end(), {'P', 'M', 'U', 'D'});
  u(0x01020304, 4);
  u(1, 2);
  u(pmu::dump::kVersionMinor, 2);
  u(16, 2);
  u(0, 2);
  u(0x0001, 2), u(0, 2), u(14, 4);  // TARGET: "t", "p", clock 1000, width 32, 4-byte addresses
  b.insert(b.end(), {1, 't', 1, 'p'});
  u(1000, 8);
  b.insert(b.end(), {32, 4});
  u(0x0002, 2), u(0, 2), u(1 + 2 * 9, 4);  // COUNTERS: two of slot, width, code, "a"/"b", ""
  b.push_back(2);
  for (std::uint8_t k = 0; k < 2; ++k) {
    b.insert(b.end(), {k, 32});
    u(k + 1u, 4);
    b.insert(b.end(), {1, static_cast<std::uint8_t>('a' + k), 0});
  }
  return b;
}

// One frame built and sent whole (a poll offers the sink max_bytes_per_poll bytes at most).
template <class Ring>
void frame(st::Drainer<Ring>& d) {
  d.poll();
  while (d.pending()) d.poll();
}

template <class Ring>
void drain_all(st::Drainer<Ring>& d, int max_polls = 100000) {
  for (int i = 0; i < max_polls; ++i) d.poll();
}

// ---- varint and zigzag --------------------------------------------------------------------------

TEST(StreamVarint, LebEdgesZeroOneByteTwoBytesAndMax64BitTakesTenBytes) {
  std::uint8_t b[st::kMaxVarint];
  EXPECT_EQ(st::put_varint(b, 0), 1u);
  EXPECT_EQ(b[0], 0x00);
  EXPECT_EQ(st::put_varint(b, 127), 1u);
  EXPECT_EQ(b[0], 0x7F);
  EXPECT_EQ(st::put_varint(b, 128), 2u);
  EXPECT_EQ(b[0], 0x80);
  EXPECT_EQ(b[1], 0x01);
  EXPECT_EQ(st::put_varint(b, 300), 2u);
  EXPECT_EQ(b[0], 0xAC);
  EXPECT_EQ(b[1], 0x02);
  ASSERT_EQ(st::put_varint(b, ~std::uint64_t{0}), 10u);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(b[i], 0xFF);
  EXPECT_EQ(b[9], 0x01);
  EXPECT_EQ(st::varint_size(~std::uint64_t{0}), 10u);
  EXPECT_EQ(st::varint_size(0xFFFFFFFFu), 5u);
}

TEST(StreamVarint, ZigzagMapsSmallMagnitudesOfEitherSignToSmallValues) {
  EXPECT_EQ(st::zigzag(0), 0u);
  EXPECT_EQ(st::zigzag(-1), 1u);
  EXPECT_EQ(st::zigzag(1), 2u);
  EXPECT_EQ(st::zigzag(-2), 3u);
  EXPECT_EQ(st::zigzag(-4), 7u);  // a pc delta of one instruction back
  EXPECT_EQ(st::zigzag(INT64_MAX), ~std::uint64_t{0} - 1);
  EXPECT_EQ(st::zigzag(INT64_MIN), ~std::uint64_t{0});
  // A 32-bit pc's delta spans -(2^32 - 1) .. 2^32 - 1: at most 5 bytes zigzagged.
  EXPECT_EQ(st::varint_size(st::zigzag(-0xFFFFFFFFll)), 5u);
  for (std::int64_t v : std::initializer_list<std::int64_t>{0, -1, 1, INT64_MIN, INT64_MAX, -0xFFFFFFFFll})
    EXPECT_EQ(st::unzigzag(st::zigzag(v)), v);
}

// ---- Frames byte for byte -------------------------------------------------------------------------

TEST(StreamFrames, SamplesFrameMatchesTheSpecWorkedByHand) {
  // Two samples, unsorted: pc 0x1000 lr 0x2000, then pc 0x0FFC lr 0x1004; 3 dropped so far.
  // payload: dropped 03, count 02, flags 01 (lr), zz(0x1000) = 80 40, zz(0x1000) = 80 40,
  // zz(-4) = 07, zz(8) = 10. CRC-32 of 02 00 00 00 09 00 + payload: 0x50B14D36 (zlib).
  const Bytes want = {0xA5, 0x5A, 0x02, 0x00, 0x00, 0x00, 0x09, 0x00, 0x03, 0x02, 0x01, 0x80, 0x40,
                      0x80, 0x40, 0x07, 0x10, 0x36, 0x4D, 0xB1, 0x50};
  EXPECT_EQ(frame_by_hand(2, 0, Bytes(want.begin() + 8, want.end() - 4)), want);
  st::Frame f;
  f.begin(st::FrameType::samples);
  f.varint(3);
  f.varint(2);
  f.u8(st::kSamplesHaveLr);
  f.svarint(0x1000);
  f.svarint(0x1000);
  f.svarint(-4);
  f.svarint(8);
  f.seal(0);
  EXPECT_EQ(Bytes(f.bytes(), f.bytes() + f.size()), want);
}

TEST(StreamFrames, CountsFrameMatchesTheSpecWorkedByHand) {
  // time_hz 1000 = E8 07, time 0x1234 = B4 24, 2 counters: 5, 300 = AC 02; sequence 1.
  // CRC-32 0x2093BA13 (zlib).
  const Bytes want = {0xA5, 0x5A, 0x04, 0x00, 0x01, 0x00, 0x08, 0x00, 0xE8, 0x07,
                      0xB4, 0x24, 0x02, 0x05, 0xAC, 0x02, 0x13, 0xBA, 0x93, 0x20};
  Env e;
  e.now = 0x1234;
  prof::SampleRing<8> ring;
  st::Options o;
  o.hello_per_s = 0;  // a HELLO first all the same (sequence 0), then never again
  st::Drainer<prof::SampleRing<8>> d(ring, e.sink(), e.source(true, false), o);
  frame(d);  // HELLO
  frame(d);  // COUNTS
  const auto frames = decode_all(e.out);
  ASSERT_EQ(frames.size(), 2u);
  const std::size_t hello = 8 + frames[0].payload.size() + 4;
  EXPECT_EQ(Bytes(e.out.begin() + hello, e.out.end()), want);
}

void hello_matches(pmu::dump::ByteOrder order, bool big) {
  Env e;
  prof::SampleRing<8> ring;
  st::Options o;
  o.order = order;
  o.boot_id = 0x11223344;
  st::Drainer<prof::SampleRing<8>> d(ring, e.sink(), e.source(false, false), o);
  frame(d);
  Bytes payload = {1, 0x44, 0x33, 0x22, 0x11};  // version 1, boot id: little-endian whatever the target
  const Bytes pre = preamble_by_hand(big);
  payload.insert(payload.end(), pre.begin(), pre.end());
  EXPECT_EQ(e.out, frame_by_hand(1, 0, payload));
}
TEST(StreamFrames, HelloCarriesTheDumpPreambleInALittleEndianTargetsOrder) {
  hello_matches(pmu::dump::ByteOrder::little, false);
}
TEST(StreamFrames, HelloCarriesTheDumpPreambleInABigEndianTargetsOrderItsFramingStaysLittleEndian) {
  hello_matches(pmu::dump::ByteOrder::big, true);
}

void chunk_matches(pmu::dump::ByteOrder order, bool big) {
  Env e;
  prof::SampleRing<8> ring;
  st::Options o;
  o.order = order;
  st::Drainer<prof::SampleRing<8>> d(ring, e.sink(), e.source(false, true), o);
  frame(d);  // HELLO
  const std::size_t hello = e.out.size();
  e.now = 250;  // the snapshots' round (4 a second of the 1 kHz clock)
  frame(d);  // CHUNK: the REGION snapshot
  Bytes c;
  auto u = [&](std::uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; ++i) c.push_back(static_cast<std::uint8_t>(v >> (8 * (big ? n - 1 - i : i))));
  };
  u(0x0003, 2), u(0, 2), u(1 + 1 + 8 + 1 + 2 * 32 + 24, 4);  // REGION "r", 2 calls, 2 counters
  c.insert(c.end(), {1, 'r'});
  u(2, 8);
  c.push_back(2);
  for (std::uint64_t v : {7, 1, 4, 0, 9, 2, 5, 1}) u(v, 8);
  u(0, 8), u(0, 8), u(0, 8);  // clamped, voided, interrupts
  EXPECT_EQ(Bytes(e.out.begin() + hello, e.out.end()), frame_by_hand(3, 1, c));
}
TEST(StreamFrames, ChunkFrameIsOneWholeDumpChunkLittleEndianTarget) { chunk_matches(pmu::dump::ByteOrder::little, false); }
TEST(StreamFrames, ChunkFrameIsOneWholeDumpChunkBigEndianTarget) { chunk_matches(pmu::dump::ByteOrder::big, true); }

TEST(StreamFrames, SequenceWrapsFrom0xFFFFTo0) {
  st::Frame f;
  f.begin(st::FrameType::counts);
  f.seal(0xFFFF);
  EXPECT_EQ(f.bytes()[4], 0xFF);
  EXPECT_EQ(f.bytes()[5], 0xFF);
  Env e;
  prof::SampleRing<8> ring;
  st::Options o;
  o.hello_per_s = 1000;  // a HELLO at every tick
  st::Drainer<prof::SampleRing<8>> d(ring, e.sink(), e.source(false, false), o);
  for (int i = 0; i < 0x10002; ++i) {
    frame(d);
    ++e.now;
  }
  const auto frames = decode_all(e.out);  // checks +1 modulo 2^16 between neighbours
  ASSERT_EQ(frames.size(), 0x10002u);
  EXPECT_EQ(frames[0x10000].seq, 0);
}

TEST(StreamFrames, PayloadNeverExceeds1024Bytes) {
  st::Frame f;
  f.begin(st::FrameType::samples);
  std::size_t n = 0;
  while (f.varint(~std::uint64_t{0})) ++n;
  EXPECT_EQ(n, st::kMaxPayload / 10);
  EXPECT_LE(f.payload_size(), st::kMaxPayload);
  // The drainer's worst case: kMaxBatch samples of 5 + 5 bytes after a 10-byte dropped count.
  EXPECT_LE(10 + 2 + 1 + st::kMaxBatch * 10, st::kMaxPayload);
}

// ---- The drainer --------------------------------------------------------------------------------

std::vector<SamplesFrame> samples_frames(const Bytes& s) {
  std::vector<SamplesFrame> out;
  for (const auto& f : decode_all(s))
    if (f.type == 2) out.push_back(decode_samples(f.payload));
  return out;
}

TEST(StreamDrain, FirstFrameIsHelloAndHelloRepeatsAtLeastOnceASecond) {
  Env e;
  prof::SampleRing<64> ring;
  st::Drainer<prof::SampleRing<64>> d(ring, e.sink(), e.source(true, true));
  std::vector<std::uint32_t> hello_at;
  for (e.now = 0; e.now < 5000; ++e.now) {  // 5 s of a 1 kHz clock
    const std::size_t before = e.out.size();
    d.poll();
    if (e.out.size() != before && e.out[before + 2] == 1) hello_at.push_back(e.now);
  }
  ASSERT_FALSE(hello_at.empty());
  EXPECT_EQ(hello_at[0], 0u);
  EXPECT_EQ(decode_all(e.out)[0].type, 1);
  for (std::size_t i = 1; i < hello_at.size(); ++i) EXPECT_LE(hello_at[i] - hello_at[i - 1], 1000u);
  EXPECT_GE(hello_at.size(), 5u);
}

template <prof::RingFull Policy>
void overflow_counts_exactly() {
  Env e;
  prof::SampleRing<8, Policy> ring;
  st::Options o;
  o.sort = false;
  st::Drainer<prof::SampleRing<8, Policy>> d(ring, e.sink(), e.source(false, false), o);
  frame(d);  // HELLO
  for (std::uint32_t i = 0; i < 20; ++i) ring.record(0x1000 + 4 * i, 0x2000);
  e.now = 100;
  frame(d);
  for (std::uint32_t i = 20; i < 25; ++i) ring.record(0x1000 + 4 * i, 0x2000);
  e.now = 200;
  frame(d);
  frame(d);
  auto fs = samples_frames(e.out);
  ASSERT_EQ(fs.size(), 2u);
  EXPECT_EQ(fs[0].samples.size(), 8u);
  EXPECT_EQ(fs[0].dropped, 12u);  // 20 recorded into 8 places
  EXPECT_EQ(fs[1].samples.size(), 5u);
  EXPECT_EQ(fs[1].dropped, 12u);  // cumulative: nothing lost since
  // Which 8 survived is the policy's: the first 8 (keep_oldest) or the last 8 (keep_newest).
  const std::uint32_t first = Policy == prof::RingFull::keep_oldest ? 0 : 12;
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(fs[0].samples[i].pc, 0x1000 + 4 * (first + i));
  EXPECT_EQ(fs[0].samples[0].lr, 0x2000u);
}
TEST(StreamDrain, RingOverflowKeepOldestIsSentAsCumulativeDroppedExactly) {
  overflow_counts_exactly<prof::RingFull::keep_oldest>();
}
TEST(StreamDrain, RingOverflowKeepNewestIsSentAsCumulativeDroppedExactly) {
  overflow_counts_exactly<prof::RingFull::keep_newest>();
}

TEST(StreamDrain, PartialBatchGoesOutAtTheLatencyTickNothingWhenIdle) {
  Env e;
  prof::SampleRing<2> ring;
  st::Drainer<prof::SampleRing<2>> d(ring, e.sink(), e.source(false, false));
  frame(d);
  for (int i = 0; i < 5; ++i) ring.record(0x100, 0);
  e.now = 100;
  frame(d);
  e.now = 200;
  frame(d);  // no sample waiting: nothing to say
  EXPECT_EQ(samples_frames(e.out).size(), 1u);
  EXPECT_EQ(samples_frames(e.out)[0].dropped, 3u);
}

TEST(StreamDrain, SortedAndUnsortedFramesCarryTheSameSamples) {
  for (bool sort : {false, true}) {
    Env e;
    prof::SampleRing<128> ring;
    st::Options o;
    o.sort = sort;
    st::Drainer<prof::SampleRing<128>> d(ring, e.sink(), e.source(false, false), o);
    std::multiset<std::pair<std::uint32_t, std::uint32_t>> want, got;
    for (std::uint32_t i = 0; i < 96; ++i) {
      const std::uint32_t pc = 0x80000000u + ((i * 2654435761u) % 4096) * 4, lr = pc ^ 0x10;
      ring.record(pc, lr);
      want.insert({pc, lr});
    }
    drain_all(d, 100);
    for (const auto& f : samples_frames(e.out))
      for (const auto& s : f.samples) got.insert({s.pc, s.lr});
    EXPECT_EQ(got, want) << "sort " << sort;
  }
}

TEST(StreamDrain, BoundedWorkPerPollABusySinkNeverBlocks) {
  Env e;
  e.per_call = 0;  // the UART's transmitter never ready
  prof::SampleRing<8> ring;
  st::Drainer<prof::SampleRing<8>> d(ring, e.sink(), e.source(true, true));
  for (int i = 0; i < 100; ++i) d.poll();  // returns every time
  EXPECT_TRUE(e.out.empty());
  EXPECT_EQ(d.stats().busy_polls, 100u);
  e.per_call = 1;  // one byte per poll: a frame goes out over many polls, whole
  drain_all(d, 2000);
  EXPECT_FALSE(decode_all(e.out).empty());
}

TEST(StreamDrain, WithoutAClockOneHelloThenOnlyFullBatches) {
  Env e;
  prof::SampleRing<256> ring;
  st::Source src = e.source(true, true);
  src.clock = nullptr;
  src.clock_hz = 0;
  st::Drainer<prof::SampleRing<256>> d(ring, e.sink(), src);
  for (std::uint32_t i = 0; i < 100; ++i) ring.record(0x1000 + 4 * i, 0);
  drain_all(d, 500);
  const auto frames = decode_all(e.out);
  ASSERT_EQ(frames.size(), 2u);  // HELLO, then one SAMPLES frame of 96; 4 wait for a full batch
  EXPECT_EQ(frames[0].type, 1);
  EXPECT_EQ(decode_samples(frames[1].payload).samples.size(), st::kMaxBatch);
}

// ---- The sampling interrupt at every step of poll() -----------------------------------------------
// The sampler's interrupt (Sampler::on_timer_tick, the fake backend's profiler) injected at every
// call poll() makes outside itself (the ring's pop, size and dropped, each byte the sink takes,
// the clock, the counters), first once at step k for every k, then at every step (the ring
// overflows): every recorded sample is sent exactly once or counted in the last dropped.

using P = fake::Pmu<32>;
struct Rig {
  prof::Profiler<P> prof;
  prof::SampleRing<16> raw;
  struct Counted {  // the ring, with a step before each consumer call
    prof::SampleRing<16>& r;
    Env* env;
    std::size_t size() {
      env->step(*env);
      return r.size();
    }
    bool pop(prof::Sample& s) {
      env->step(*env);
      return r.pop(s);
    }
    std::uint64_t dropped() {
      env->step(*env);
      return r.dropped();
    }
  };
  prof::Sampler<P, prof::SampleRing<16>> sampler{prof, raw};
};
Rig* g_rig = nullptr;
std::uint64_t g_steps = 0, g_inject_from = 0, g_inject_to = 0;
std::uint32_t g_next_pc = 0;
void step(Env&) {
  ++g_steps;
  if (g_steps >= g_inject_from && g_steps <= g_inject_to) g_rig->sampler.on_timer_tick(g_next_pc++ * 4, 1);
}

struct InjectionResult {
  std::uint64_t recorded, sent, dropped, steps;
};
InjectionResult run_injected(std::uint64_t from, std::uint64_t to) {
  P::reset_state();
  Rig rig;
  g_rig = &rig;
  g_steps = 0;
  g_inject_from = from;
  g_inject_to = to;
  g_next_pc = 0x100;
  Env e;
  e.step = &step;
  e.per_call = 7;
  Rig::Counted ring{rig.raw, &e};
  st::Options o;
  o.max_bytes_per_poll = 7;
  st::Drainer<Rig::Counted> d(ring, e.sink(), e.source(true, true), o);
  for (int i = 0; i < 10; ++i) rig.sampler.on_timer_tick(g_next_pc++ * 4, 1);
  for (int i = 0; i < 400; ++i) {
    d.poll();
    e.now += 10;
  }
  const std::uint64_t steps = g_steps;
  g_inject_to = 0;  // no more interrupts: drain what is left
  for (int i = 0; i < 2000; ++i) {
    d.poll();
    e.now += 10;
  }
  while (d.pending()) d.poll();
  std::set<std::uint32_t> seen;
  std::uint64_t sent = 0, dropped = 0;
  for (const auto& f : samples_frames(e.out)) {
    EXPECT_GE(f.dropped, dropped) << "dropped never decreases";
    dropped = f.dropped;
    for (const auto& s : f.samples) {
      EXPECT_TRUE(seen.insert(s.pc).second) << "sample sent twice";
      EXPECT_TRUE(s.pc >= 0x400 && s.pc < g_next_pc * 4) << "a sample never recorded";
      ++sent;
    }
  }
  const std::uint64_t recorded = g_next_pc - 0x100;
  EXPECT_EQ(rig.prof.interrupts(), recorded);
  EXPECT_EQ(rig.raw.size(), 0u);
  g_rig = nullptr;
  return {recorded, sent, dropped, steps};
}

TEST(StreamDrain, SamplerInterruptAtEveryStepOfPollLosesNothingUnaccounted) {
  const InjectionResult none = run_injected(1, 0);
  ASSERT_GT(none.steps, 100u);
  EXPECT_EQ(none.sent, 10u);
  for (std::uint64_t k = 1; k <= none.steps; ++k) {
    const InjectionResult r = run_injected(k, k);
    ASSERT_EQ(r.recorded, 11u) << "step " << k;
    ASSERT_EQ(r.sent + r.dropped, r.recorded) << "step " << k;
    ASSERT_EQ(r.dropped, 0u) << "step " << k;
  }
}

TEST(StreamDrain, SamplerInterruptAtEveryStepOverflowsTheRingAndEveryLossIsCounted) {
  const InjectionResult r = run_injected(1, ~std::uint64_t{0});
  EXPECT_GT(r.dropped, 0u);
  EXPECT_GT(r.sent, 0u);
  EXPECT_EQ(r.sent + r.dropped, r.recorded);
}

}  // namespace
