// The live stream decoder and the incrementally written dump (tools/stream/) against streams made
// from docs/stream-format.md by stream_gen.hpp: every damage counted exactly, nothing misread.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "tests/host/dump/temp_folder.hpp"
#include "tests/host/stream/stream_gen.hpp"
#include "tools/dumpread/binary_decoder.hpp"
#include "tools/dumpread/decode_error.hpp"
#include "tools/stream/live_dump.hpp"
#include "tools/stream/stream_decoder.hpp"

namespace {

using namespace streamtest;
namespace st = pmukit::stream;

struct Collect : st::Decoder::Handler {
  std::vector<st::Hello> hellos;
  std::vector<Sample> got;
  std::vector<std::string> chunk_keys;
  std::vector<std::pair<std::uint64_t, std::vector<std::uint64_t>>> got_counts;
  void hello(const st::Hello& h, bool) override { hellos.push_back(h); }
  void samples_(const std::vector<st::StreamSample>& s) {
    for (const auto& x : s) got.push_back({x.pc, x.lr, x.task == st::kNoTask ? -1 : x.task});
  }
  void samples(const std::vector<st::StreamSample>& s, std::uint8_t, std::uint64_t) override { samples_(s); }
  void chunk(const std::string& k, const std::vector<std::uint8_t>&, std::uint64_t) override { chunk_keys.push_back(k); }
  void counts(std::uint64_t, std::uint64_t t, const std::vector<std::uint64_t>& v, std::uint64_t) override {
    got_counts.push_back({t, v});
  }
};

// Fed in pieces of every size from 1 to 13 bytes, as a UART delivers them.
st::StreamStats decode(const Bytes& stream, Collect& c) {
  st::Decoder d(c);
  std::size_t at = 0, piece = 1;
  while (at < stream.size()) {
    const std::size_t n = std::min(piece, stream.size() - at);
    d.feed(stream.data() + at, n);
    at += n;
    piece = piece % 13 + 1;
  }
  d.finish();
  return d.stats();
}

const DumpBytes kLe{false, 4};

// HELLO then `frames` SAMPLES frames (5 samples each, dropped = frame number): the frames one by one.
std::vector<Bytes> clean_frames(unsigned frames, std::uint16_t first_seq = 0) {
  std::vector<Bytes> f{hello(first_seq, 0x1234, kLe.preamble())};
  for (unsigned k = 0; k < frames; ++k)
    f.push_back(samples(static_cast<std::uint16_t>(first_seq + 1 + k), k, frame_samples(k)));
  for (const Bytes& x : f) EXPECT_EQ(inner_syncs(x), 0u) << "test data with a false sync inside a frame";
  return f;
}
Bytes join(const std::vector<Bytes>& v) {
  Bytes out;
  for (const Bytes& b : v) out.insert(out.end(), b.begin(), b.end());
  return out;
}
std::vector<unsigned> all_but(unsigned n, std::initializer_list<unsigned> missing) {
  std::vector<unsigned> v;
  for (unsigned k = 0; k < n; ++k)
    if (std::find(missing.begin(), missing.end(), k) == missing.end()) v.push_back(k);
  return v;
}
std::vector<Sample> expected_of(const std::vector<unsigned>& frames) {
  std::vector<Sample> s;
  for (unsigned k : frames) {
    auto f = frame_samples(k);
    s.insert(s.end(), f.begin(), f.end());
  }
  return s;
}

TEST(StreamDecoder, CleanStreamEveryByteInAFrame) {
  const auto f = clean_frames(10);
  const Bytes s = join(f);
  Collect c;
  const auto r = decode(s, c);
  EXPECT_EQ(r.samples, 50u);
  EXPECT_EQ(r.frames, 11u);
  EXPECT_EQ(r.frame_bytes, s.size());
  EXPECT_EQ(r.skipped_bytes, 0u);
  EXPECT_EQ(r.corrupt + r.lost + r.late + r.duplicates + r.before_hello + r.unknown, 0u);
  EXPECT_EQ(r.dropped, 9u);
  EXPECT_EQ(c.got, expected_of(all_but(10, {})));
  ASSERT_EQ(c.hellos.size(), 1u);
  EXPECT_EQ(c.hellos[0].info.target.id, "xscale");
}

// Spec "Decoding": a CRC that does not match: the frame is corrupt, its sequence number is a gap.
TEST(StreamDecoder, BitFlipIsOneCorruptFrameAndOneLost) {
  for (std::size_t bit : {3u * 8 + 1, 10u * 8 + 5, 20u * 8 + 7}) {  // in the header, the payload, the CRC
    auto f = clean_frames(10);
    f[4][bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));  // frame 3's samples
    Collect c;
    const auto r = decode(join(f), c);
    EXPECT_EQ(r.corrupt, 1u) << bit;
    EXPECT_EQ(r.lost, 1u) << bit;
    EXPECT_EQ(r.skipped_bytes, f[4].size()) << bit;
    EXPECT_EQ(r.samples, 45u) << bit;
    EXPECT_EQ(c.got, expected_of(all_but(10, {3}))) << bit;
  }
}

// A frame cut short (the link lost its end) never hides the next: the search restarts from the byte
// after its sync.
TEST(StreamDecoder, TruncatedFrameDoesNotHideTheNext) {
  auto f = clean_frames(10);
  const std::size_t cut = f[6].size() / 2;
  f[6].resize(cut);
  Collect c;
  const auto r = decode(join(f), c);
  EXPECT_EQ(r.corrupt, 1u);
  EXPECT_EQ(r.lost, 1u);
  EXPECT_EQ(r.skipped_bytes, cut);
  EXPECT_EQ(c.got, expected_of(all_but(10, {5})));
}

TEST(StreamDecoder, DroppedFramesAreSequenceGaps) {
  auto f = clean_frames(10);
  f.erase(f.begin() + 6);  // frame 5
  f.erase(f.begin() + 2);  // frame 1
  Collect c;
  const auto r = decode(join(f), c);
  EXPECT_EQ(r.lost, 2u);
  EXPECT_EQ(r.corrupt, 0u);
  EXPECT_EQ(r.skipped_bytes, 0u);
  EXPECT_EQ(c.got, expected_of(all_but(10, {1, 5})));
}

// Reordered frames: the late one was counted lost when the gap appeared; its arrival takes it back.
TEST(StreamDecoder, ReorderedFramesAreKeptAndNotLost) {
  auto f = clean_frames(10);
  std::swap(f[3], f[4]);
  std::swap(f[7], f[9]);
  Collect c;
  const auto r = decode(join(f), c);
  EXPECT_EQ(r.lost, 0u);
  EXPECT_EQ(r.late, 3u);  // 2 after 3; 7 and 6 after 8
  EXPECT_EQ(r.duplicates, 0u);
  EXPECT_EQ(r.samples, 50u);
  EXPECT_EQ(c.got, expected_of({0, 1, 3, 2, 4, 5, 8, 7, 6, 9}));
}

TEST(StreamDecoder, RepeatedFrameIsADuplicateNeverKeptTwice) {
  auto f = clean_frames(4);
  f.insert(f.begin() + 3, f[2]);
  Collect c;
  const auto r = decode(join(f), c);
  EXPECT_EQ(r.duplicates, 1u);
  EXPECT_EQ(r.lost, 0u);
  EXPECT_EQ(c.got, expected_of(all_but(4, {})));
}

// "Bytes outside frames are console output and are skipped (counted)."
TEST(StreamDecoder, GarbageBetweenFramesIsSkippedAndCounted) {
  auto f = clean_frames(6);
  const std::string text = "boot: hello from the console\r\n";
  Bytes noise(text.begin(), text.end());
  const Bytes binary{0x00, 0xFF, 0xA5, 0x00, 0x5A, 0xA5, 0xA5, 0x12};  // A5s, but no A5 5A pair
  f.insert(f.begin() + 3, noise);
  f.insert(f.begin() + 6, binary);
  f.insert(f.begin(), noise);
  Collect c;
  const auto r = decode(join(f), c);
  EXPECT_EQ(r.skipped_bytes, 2 * noise.size() + binary.size());
  EXPECT_EQ(r.corrupt, 0u);
  EXPECT_EQ(r.lost, 0u);
  EXPECT_EQ(c.got, expected_of(all_but(6, {})));
}

// A false sync in the noise: one corrupt "frame", then the real ones.
TEST(StreamDecoder, FalseSyncInNoiseIsOneCorrupt) {
  auto f = clean_frames(4);
  const Bytes noise{'x', 0xA5, 0x5A, 0x02, 0x00, 0x07, 0x00, 0x03, 0x00, 'y'};
  f.insert(f.begin() + 2, noise);
  Collect c;
  const auto r = decode(join(f), c);
  EXPECT_EQ(r.corrupt, 1u);
  EXPECT_EQ(r.lost, 0u);
  EXPECT_EQ(r.skipped_bytes, noise.size());
  EXPECT_EQ(c.got, expected_of(all_but(4, {})));
}

TEST(StreamDecoder, LengthAboveTheLimitIsCorrupt) {
  auto f = clean_frames(3);
  Bytes bad = f[2];
  bad[6] = 0x01, bad[7] = 0x04;  // 1025
  f.insert(f.begin() + 2, bad);
  Collect c;
  const auto r = decode(join(f), c);
  EXPECT_EQ(r.corrupt, 1u);
  EXPECT_EQ(r.duplicates, 0u);
  EXPECT_EQ(r.lost, 0u);
  EXPECT_EQ(c.got, expected_of(all_but(3, {})));
}

TEST(StreamDecoder, FrameCutAtTheEndIsCorrupt) {
  auto f = clean_frames(5);
  f.back().resize(9);
  Collect c;
  const auto r = decode(join(f), c);
  EXPECT_EQ(r.corrupt, 1u);
  EXPECT_EQ(r.skipped_bytes, 9u);
  EXPECT_EQ(c.got, expected_of(all_but(4, {})));
}

// Started mid-stream: the frames before the first HELLO are counted and skipped.
TEST(StreamDecoder, MidStreamStartWaitsForHello) {
  std::vector<Bytes> f;
  Bytes tail_of_frame = samples(7, 0, frame_samples(40));
  tail_of_frame.erase(tail_of_frame.begin(), tail_of_frame.begin() + 5);
  f.push_back(tail_of_frame);
  for (unsigned k = 0; k < 3; ++k) f.push_back(samples(static_cast<std::uint16_t>(8 + k), 0, frame_samples(50 + k)));
  f.push_back(counts(11, 5, {1, 2}));
  f.push_back(hello(12, 0x77, kLe.preamble()));
  for (unsigned k = 0; k < 3; ++k) f.push_back(samples(static_cast<std::uint16_t>(13 + k), 0, frame_samples(k)));
  Collect c;
  const auto r = decode(join(f), c);
  EXPECT_EQ(r.before_hello, 4u);
  EXPECT_EQ(r.skipped_bytes, tail_of_frame.size());
  EXPECT_EQ(r.lost, 0u);
  EXPECT_EQ(r.corrupt, 0u);
  EXPECT_EQ(c.got, expected_of({0, 1, 2}));
}

// "A different one means the board restarted": the sequence starts again, nothing counted lost.
TEST(StreamDecoder, BootIdChange) {
  std::vector<Bytes> f{hello(100, 1, kLe.preamble()), samples(101, 3, frame_samples(0)), hello(102, 1, kLe.preamble()),
                       samples(103, 4, frame_samples(1)), hello(0, 2, kLe.preamble()), samples(1, 0, frame_samples(2))};
  Collect c;
  const auto r = decode(join(f), c);
  EXPECT_EQ(r.boot_changes, 1u);
  EXPECT_EQ(r.hellos, 3u);
  EXPECT_EQ(r.lost, 0u);
  EXPECT_EQ(r.dropped, 0u);  // the new boot's count
  ASSERT_EQ(c.hellos.size(), 2u);
  EXPECT_EQ(c.hellos[1].boot_id, 2u);
}

TEST(StreamDecoder, SequenceWrapsWithoutLoss) {
  auto f = clean_frames(4, 0xFFFD);
  Collect c;
  const auto r = decode(join(f), c);
  EXPECT_EQ(r.lost, 0u);
  EXPECT_EQ(r.samples, 20u);
}

// "A pc decoded outside that width is an error in the frame (counted corrupt, never kept)".
TEST(StreamDecoder, PcOutsideTheAddressWidthIsRejected) {
  std::vector<Bytes> f{hello(0, 1, kLe.preamble()), samples(1, 0, frame_samples(0)),
                       samples(2, 0, {{0x8000, 0x8000, -1}, {0x100000000ull, 0x8000, -1}}),
                       samples(3, 0, frame_samples(1))};
  Bytes neg;  // a first delta of -4: pc below 0
  varint(neg, 0), varint(neg, 1), neg.push_back(0), svarint(neg, -4);
  f.push_back(frame(0x02, 4, neg));
  Collect c;
  const auto r = decode(join(f), c);
  EXPECT_EQ(r.malformed, 2u);
  EXPECT_EQ(r.corrupt, 2u);
  EXPECT_EQ(r.lost, 0u);
  EXPECT_EQ(c.got, expected_of({0, 1}));
}

TEST(StreamDecoder, PayloadAgainstTheSpecIsMalformed) {
  Bytes trailing = samples_payload(0, frame_samples(3), true, false);
  trailing.push_back(0);
  Bytes reserved = samples_payload(0, frame_samples(3), true, false);
  reserved[2] = 0x05;  // flags bit 2
  Bytes long_varint{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00, 0x00};
  std::vector<Bytes> f{hello(0, 1, kLe.preamble()), frame(0x02, 1, trailing), frame(0x02, 2, reserved),
                       frame(0x02, 3, long_varint), counts(4, 10, {1, 2, 3}) /* COUNTERS has 2 */,
                       frame(0x09, 5, {1, 2, 3}) /* unknown type */};
  Collect c;
  const auto r = decode(join(f), c);
  EXPECT_EQ(r.malformed, 4u);
  EXPECT_EQ(r.unknown, 1u);
  EXPECT_EQ(r.lost, 0u);
  EXPECT_TRUE(c.got.empty());
}

// Random damage (fixed seeds: the same cases every run): flipped bits, cut frames, dropped frames,
// noise. Whatever it does, every byte is accounted for, every sample kept is one a kept frame
// carried (nothing misread), and every frame after the HELLO is kept or counted lost.
TEST(StreamDecoder, RandomDamageIsAlwaysAccountedFor) {
  for (unsigned seed = 1; seed <= 300; ++seed) {
    std::mt19937 rng(seed);
    const unsigned n = 30;
    auto f = clean_frames(n);
    std::vector<bool> intact(n, true);
    Bytes stream = f[0];
    for (unsigned k = 0; k < n; ++k) {
      Bytes b = f[k + 1];
      switch (rng() % 6) {
        case 0: b[rng() % b.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8)), intact[k] = false; break;
        case 1: b.resize(rng() % b.size()), intact[k] = false; break;
        case 2: b.clear(), intact[k] = false; break;
        case 3:
          for (unsigned i = rng() % 20; i != 0; --i) stream.push_back(static_cast<std::uint8_t>(rng()));
          break;
        default: break;
      }
      stream.insert(stream.end(), b.begin(), b.end());
    }
    Collect c;
    const auto r = decode(stream, c);
    ASSERT_EQ(r.bytes, r.frame_bytes + r.skipped_bytes) << "seed " << seed;
    std::vector<unsigned> kept;
    for (unsigned k = 0; k < n; ++k)
      if (intact[k]) kept.push_back(k);
    EXPECT_EQ(c.got, expected_of(kept)) << "seed " << seed;
    EXPECT_EQ(r.samples_frames, kept.size()) << "seed " << seed;
    const unsigned last = kept.empty() ? 0 : kept.back() + 1;  // frames up to the last kept
    EXPECT_EQ(r.lost, last - kept.size()) << "seed " << seed;
    EXPECT_EQ(r.malformed + r.duplicates + r.late, 0u) << "seed " << seed;
  }
}

TEST(StreamDecoder, OtherStreamVersionStops) {
  Collect c;
  st::Decoder d(c);
  const Bytes h = hello(0, 1, kLe.preamble(), 2);
  EXPECT_THROW(d.feed(h.data(), h.size()), st::StreamError);
}

TEST(StreamDecoder, EightByteAddressesAndTasks) {
  const DumpBytes be8{true, 8};
  std::vector<Sample> s{{0xFFFFFFFF00001000ull, 0xFFFFFFFF00000F00ull, 3}, {0x10, 0, 0xFFFF}, {0xFFFFFFFFFFFFFFF0ull, 0x10, 0}};
  std::vector<Bytes> f{hello(0, 9, be8.preamble()), samples(1, 0, s, true, true)};
  Collect c;
  const auto r = decode(join(f), c);
  EXPECT_EQ(r.malformed, 0u);
  s[1].task = -1;  // 0xFFFF: no task
  EXPECT_EQ(c.got, s);
}

TEST(StreamDecoder, CountsAndChunks) {
  std::vector<Bytes> f{hello(0, 1, kLe.preamble()), counts(1, 400, {1000, 20}),
                       frame(0x03, 2, kLe.region("loop", 3, 900)),
                       frame(0x03, 3, Bytes{1, 2, 3}) /* shorter than a chunk header */};
  Collect c;
  const auto r = decode(join(f), c);
  ASSERT_EQ(c.got_counts.size(), 1u);
  EXPECT_EQ(c.got_counts[0].first, 400u);
  EXPECT_EQ(c.got_counts[0].second, (std::vector<std::uint64_t>{1000, 20}));
  EXPECT_EQ(c.chunk_keys, std::vector<std::string>{"REGION loop"});
  EXPECT_EQ(r.malformed, 1u);
}

// --- The dump written as the stream arrives -------------------------------------------------

pmukit::Dump read_dump(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string s = ss.str();
  return pmukit::decode_dump(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}
std::uintmax_t file_size(const std::string& p) { return std::filesystem::file_size(p); }

struct ToDump : st::Decoder::Handler {
  st::LiveDump* out;
  void hello(const st::Hello& h, bool) override { out->begin(h.preamble); }
  void samples(const std::vector<st::StreamSample>& s, std::uint8_t flags, std::uint64_t) override {
    out->add_samples(s, (flags & st::kSamplesHaveTask) != 0);
  }
  void chunk(const std::string& k, const std::vector<std::uint8_t>& b, std::uint64_t o) override { out->snapshot(k, b, o); }
  void counts(std::uint64_t, std::uint64_t, const std::vector<std::uint64_t>&, std::uint64_t) override {}
};

std::vector<Sample> dump_samples(const pmukit::Dump& d) {
  std::vector<Sample> s;
  for (const auto& x : d.samples) s.push_back({x.pc, x.lr, -1});
  return s;
}

// "What a recorder keeps": after every checkpoint the file is a dump of everything so far.
TEST(LiveDump, EveryCheckpointIsAValidDump) {
  dumptest::TempFolder dir("livedump");
  const std::string path = dir / "out.pmud";
  st::LiveDump out(path, st::LiveDump::Mode::replace);
  ToDump h;
  h.out = &out;
  st::Decoder d(h);
  const auto feed = [&](const Bytes& b) {
    d.feed(b.data(), b.size());
    out.set_dropped(d.stats().dropped);
  };
  feed(hello(0, 5, kLe.preamble(7)));
  EXPECT_EQ(read_dump(path).sample_records, 0u);
  std::vector<unsigned> sent;
  for (unsigned k = 0; k < 12; ++k) {
    feed(samples(static_cast<std::uint16_t>(1 + 2 * k), 100 + k, frame_samples(k)));
    feed(frame(0x03, static_cast<std::uint16_t>(2 + 2 * k), kLe.region("loop", k + 1, 1000 * (k + 1))));
    sent.push_back(k);
    EXPECT_TRUE(out.checkpoint());
    const pmukit::Dump dump = read_dump(path);
    EXPECT_EQ(dump_samples(dump), expected_of(sent));
    ASSERT_TRUE(dump.source.has_value());
    EXPECT_EQ(dump.source->dropped, 100u + k);  // the firmware's latest, not the preamble's 7
    ASSERT_EQ(dump.regions.size(), 1u);  // the latest snapshot only
    EXPECT_EQ(dump.regions[0].calls, k + 1);
  }
  EXPECT_FALSE(out.checkpoint());  // nothing new
  const auto padded = file_size(path);
  out.finish();
  const pmukit::Dump final_dump = read_dump(path);
  EXPECT_EQ(dump_samples(final_dump), expected_of(sent));
  EXPECT_EQ(final_dump.regions[0].calls, 12u);
  EXPECT_LT(file_size(path), padded);  // the checkpoints' old tails are gone
  EXPECT_EQ(final_dump.trailing_bytes, 0u);
}

// The dump keeps the target's byte order and address size (big-endian, 8-byte addresses here).
TEST(LiveDump, BigEndianEightByteTarget) {
  dumptest::TempFolder dir("livedump");
  const std::string path = dir / "be.pmud";
  st::LiveDump out(path, st::LiveDump::Mode::replace);
  ToDump h;
  h.out = &out;
  st::Decoder d(h);
  const DumpBytes be8{true, 8};
  const std::vector<Sample> s{{0xFFFFFFFF80001000ull, 0xFFFFFFFF80000F00ull, -1}, {0x10, 0x20, -1}};
  const Bytes b = join({hello(0, 5, be8.preamble(3)), samples(1, 4, s)});
  d.feed(b.data(), b.size());
  out.set_dropped(d.stats().dropped);
  out.finish();
  const pmukit::Dump dump = read_dump(path);
  EXPECT_EQ(dump.byte_order, pmukit::ByteOrder::big);
  EXPECT_EQ(dump.target.address_bytes, 8u);
  EXPECT_EQ(dump_samples(dump), s);
  EXPECT_EQ(dump.source->dropped, 4u);
}

// A long recording's padding is dropped by a rewrite beside the file (renamed into place), and the
// checkpoints go on in the new file.
TEST(LiveDump, PaddingIsCompactedAway) {
  dumptest::TempFolder dir("livedump");
  const std::string path = dir / "c.pmud";
  st::LiveDump out(path, st::LiveDump::Mode::replace);
  out.set_compact_after(200);
  ToDump h;
  h.out = &out;
  st::Decoder d(h);
  const Bytes first = hello(0, 5, kLe.preamble());
  d.feed(first.data(), first.size());
  std::vector<unsigned> sent;
  std::uint16_t seq = 1;
  unsigned compactions = 0;
  for (unsigned k = 0; k < 200; ++k) {
    const Bytes b = join({samples(seq, k, frame_samples(k)), frame(0x03, static_cast<std::uint16_t>(seq + 1), kLe.region("r", k, k))});
    seq = static_cast<std::uint16_t>(seq + 2);
    d.feed(b.data(), b.size());
    out.set_dropped(d.stats().dropped);
    sent.push_back(k);
    ASSERT_TRUE(out.checkpoint());
    EXPECT_LE(out.padding(), file_size(path) / 2 + 200);  // at most about half the file
    compactions += out.padding() == 0;
    if (k % 50 == 0) {
      EXPECT_EQ(dump_samples(read_dump(path)), expected_of(sent));
    }
  }
  const pmukit::Dump dump = read_dump(path);
  EXPECT_EQ(dump_samples(dump), expected_of(sent));
  EXPECT_EQ(dump.regions.at(0).calls, 199u);
  EXPECT_GT(compactions, 3u);
  EXPECT_LT(file_size(path), 2 * (200u * (5 * 8 + 12)) + 1000);  // samples and chunk headers, padding at most as much
}

// SAMPLE_TAGS (dump 1.5) right after each SAMPLES chunk when the frames carry task ids.
TEST(LiveDump, TaskIdsBecomeSampleTags) {
  dumptest::TempFolder dir("livedump");
  const std::string path = dir / "tags.pmud";
  st::LiveDump out(path, st::LiveDump::Mode::replace);
  ToDump h;
  h.out = &out;
  st::Decoder d(h);
  const std::vector<Sample> s{{0x8000, 0x8100, 2}, {0x8004, 0x8100, 0xFFFF}, {0x8008, 0x8104, 7}};
  const Bytes b = join({hello(0, 5, kLe.preamble()), samples(1, 0, s, true, true)});
  d.feed(b.data(), b.size());
  out.finish();
  const pmukit::Dump dump = read_dump(path);
  EXPECT_EQ(dump.sample_records, 3u);
  // Walk the chunks: SAMPLES, then SAMPLE_TAGS with flags 1 and the three (task, core).
  std::ifstream in(path, std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto* p = reinterpret_cast<const std::uint8_t*>(raw.data());
  std::size_t at = 16;
  unsigned prev = 0;
  bool seen = false;
  while (at + 8 <= raw.size()) {
    const unsigned type = p[at] | p[at + 1] << 8;
    const std::uint32_t len = p[at + 4] | p[at + 5] << 8 | p[at + 6] << 16 | static_cast<std::uint32_t>(p[at + 7]) << 24;
    if (type == 0x000E) {
      seen = true;
      EXPECT_EQ(prev, 0x0005u);
      ASSERT_EQ(len, 4u + 1 + 3 * 3);
      EXPECT_EQ(p[at + 8], 3);
      EXPECT_EQ(p[at + 12], 1);  // task ids present
      EXPECT_EQ(p[at + 13] | p[at + 14] << 8, 2);
      EXPECT_EQ(p[at + 16] | p[at + 17] << 8, 0xFFFF);
      EXPECT_EQ(p[at + 19] | p[at + 20] << 8, 7);
    }
    if (type == 0x00FF) break;
    prev = type;
    at += 8 + len;
  }
  EXPECT_TRUE(seen);
}

}  // namespace
