// Writer -> decoder round trips in both byte orders, through both carriers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <utility>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "profiler/dump/crc32.hpp"
#include "profiler/dump/text_frame_sink.hpp"
#include "tools/dumpread/crc32_host.hpp"
#include "tools/dumpread/binary_decoder.hpp"
#include "tools/dumpread/decode_error.hpp"
#include "tools/dumpread/load.hpp"
#include "tools/dumpread/pair_counter.hpp"
#include "tools/dumpread/text_frames.hpp"

namespace {

namespace pd = pmu::dump;
using dumptest::Bytes;
using pmukit::ByteOrder;
using pmukit::Dump;

class RoundTrip : public ::testing::TestWithParam<pd::ByteOrder> {};

void expect_profile_fixture(const Dump& d) {
  EXPECT_EQ(d.version_major, 1u);
  EXPECT_EQ(d.version_minor, 5u);
  EXPECT_EQ(d.target.id, "xscale");
  EXPECT_EQ(d.target.pmu, "xscale-xsc2");
  EXPECT_EQ(d.target.counter_clock_hz, 400000000u);
  EXPECT_EQ(d.target.counter_width_bits, 32u);
  EXPECT_EQ(d.target.address_bytes, 4u);
  ASSERT_EQ(d.counters.size(), 2u);
  EXPECT_EQ(d.counters[0].name, "cycles");
  EXPECT_EQ(d.counters[0].preset, "cycles");
  EXPECT_EQ(d.counters[0].event_code, 0xFFu);
  EXPECT_EQ(d.counters[1].slot, 1u);
  EXPECT_EQ(d.counters[1].preset, "");  // raw event
  EXPECT_EQ(d.counters[1].event_code, 0x0Bu);
  ASSERT_EQ(d.regions.size(), 3u);
  EXPECT_EQ(d.regions[0].name, "dma_copy");
  EXPECT_EQ(d.regions[0].calls, 100u);
  ASSERT_EQ(d.regions[0].stats.size(), 2u);
  EXPECT_EQ(d.regions[0].stats[0].total, 123456u);
  EXPECT_EQ(d.regions[0].stats[0].min, 1200u);
  EXPECT_EQ(d.regions[0].stats[0].max, 1300u);
  EXPECT_EQ(d.regions[0].stats[0].overhead, 12u);
  EXPECT_EQ(d.regions[2].name, "parse \"hdr\", v2 <fast>");
  ASSERT_TRUE(d.source.has_value());
  EXPECT_EQ(d.source->kind, 1u);
  EXPECT_EQ(d.source->counter_slot, 0u);
  EXPECT_EQ(d.source->period, 10000u);
  EXPECT_EQ(d.source->dropped, 3u);
  ASSERT_EQ(d.samples.size(), 16u);
  EXPECT_EQ(d.samples[0].pc, 0x2010u);
  EXPECT_EQ(d.samples[0].lr, 0x3020u);
  EXPECT_EQ(d.samples[15].pc, 0x1030u);
  EXPECT_EQ(d.samples[15].lr, 0x8000u);
  EXPECT_TRUE(d.histogram.empty());
  EXPECT_TRUE(d.skipped.empty());
  EXPECT_EQ(d.trailing_bytes, 0u);
  ASSERT_TRUE(d.image);
  EXPECT_EQ(d.image->elf_machine, 40u);
  ASSERT_EQ(d.image->build_id.size(), 20u);
  EXPECT_EQ(d.image->build_id[0], 0x5eu);
  EXPECT_EQ(d.image->build_id[19], 0x0eu);
  EXPECT_TRUE(d.image->has_code);
  EXPECT_EQ(d.image->code_lo, 0x1000u);
  EXPECT_EQ(d.image->code_hi, 0x5000u);
  EXPECT_EQ(d.image->code_crc, 0x1234abcdu);
}

TEST_P(RoundTrip, Binary) {
  const Bytes b = dumptest::profile_dump(GetParam());
  const Dump d = pmukit::decode_dump(b.data(), b.size());
  EXPECT_EQ(d.byte_order, GetParam() == pd::ByteOrder::big ? ByteOrder::big : ByteOrder::little);
  EXPECT_EQ(d.size, b.size());
  expect_profile_fixture(d);
}

// The fixture's 16 records are 8 distinct (pc, lr) pairs: counted per pair, sorted by pc then lr.
void expect_fixture_counts(const Dump& d) {
  EXPECT_EQ(d.sample_records, 16u);
  EXPECT_EQ(d.total_samples(), 16u);
  const std::vector<pmukit::SampleCount> want = {
      {0x1030, 0x8000, 1}, {0x2010, 0x3020, 5}, {0x2020, 0x1010, 2}, {0x3040, 0x3050, 3},
      {0x3044, 0x1020, 1}, {0x4010, 0, 2},      {0x4030, 0x3060, 1}, {0x9000, 0x1004, 1}};
  ASSERT_EQ(d.sample_counts.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(d.sample_counts[i].pc, want[i].pc);
    EXPECT_EQ(d.sample_counts[i].lr, want[i].lr);
    EXPECT_EQ(d.sample_counts[i].count, want[i].count);
  }
}

TEST_P(RoundTrip, SamplesAreCountedPerDistinctPair) {
  const Bytes b = dumptest::profile_dump(GetParam());
  expect_fixture_counts(pmukit::decode_dump(b.data(), b.size()));
  pmukit::DecodeOptions counts_only;
  counts_only.raw_samples = false;
  const Dump d = pmukit::decode_dump(b.data(), b.size(), counts_only);
  EXPECT_TRUE(d.samples.empty());
  expect_fixture_counts(d);
}

// Without raw samples, load_dump_file maps the file and hands back every byte up to the samples'
// end for release; the result is the same as decoding the bytes in memory.
TEST_P(RoundTrip, MappedFileDecodesTheSameAndReleasesWhatItRead) {
  const Bytes b = dumptest::profile_dump(GetParam());
  // One file per byte order: ctest runs the two instances at once, and one would remove the
  // other's file.
  const std::string path = ::testing::TempDir() + "pmukit_mapped_dump_" +
                           std::to_string(static_cast<int>(GetParam())) + ".bin";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()),
                                               static_cast<std::streamsize>(b.size()));
  pmukit::DecodeOptions counts_only;
  counts_only.raw_samples = false;
  const pmukit::LoadedDump l = pmukit::load_dump_file(path, 0, counts_only);
  EXPECT_EQ(l.carrier, "binary");
  EXPECT_EQ(l.dump.size, b.size());
  EXPECT_TRUE(l.dump.samples.empty());
  expect_fixture_counts(l.dump);
  EXPECT_EQ(pmukit::load_dump_file(path).dump.samples.size(), 16u);  // raw samples: kept
  static std::size_t released;
  released = 0;
  counts_only.consumed = [](const std::uint8_t*, std::size_t n) { released += n; };
  const Dump d = pmukit::decode_dump(b.data(), b.size(), counts_only);
  EXPECT_GT(released, b.size() - 16);  // the CRC pass (all but END) and the samples again
  expect_fixture_counts(d);
  std::remove(path.c_str());
}

TEST_P(RoundTrip, Histogram) {
  const Bytes b = dumptest::histogram_dump(GetParam());
  const Dump d = pmukit::decode_dump(b.data(), b.size());
  ASSERT_EQ(d.histogram.size(), 3u);
  EXPECT_EQ(d.histogram[0].pc, 0x2010u);
  EXPECT_EQ(d.histogram[0].count, 7u);
  EXPECT_EQ(d.total_samples(), 10u);
  EXPECT_EQ(d.source->kind, 2u);
  EXPECT_EQ(d.source->counter_slot, 0xFFu);
  EXPECT_TRUE(d.regions.empty());
}

TEST_P(RoundTrip, TextFramesAmongConsoleOutput) {
  const std::string log = dumptest::profile_log(GetParam());
  const pmukit::LoadedDump l = pmukit::load_dump(Bytes(log.begin(), log.end()));
  // 3 console lines, an "irq:" line after every third line, 681 bytes in 22 frame lines.
  EXPECT_EQ(l.carrier, "text frame 1 of 1 (lines 5-35)");
  expect_profile_fixture(l.dump);
  const pmukit::TextFrames frames = pmukit::find_text_frames(log.data(), log.size());
  ASSERT_EQ(frames.count, 1u);
  EXPECT_EQ(Bytes(frames.chosen.bytes.begin(), frames.chosen.bytes.end()), dumptest::profile_dump(GetParam()));
}

TEST_P(RoundTrip, EightByteAddresses) {
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), GetParam());
  w.begin({"host", "none", 1000, 64, 8});
  w.begin_samples(1);
  w.sample(0xFFFF800012345678ull, 0x7FFF000000000001ull);
  w.begin_histogram(1);
  w.bin(0x123456789ABCull, 0xFFFFFFFFu);
  ASSERT_EQ(w.finish(), pd::Status::ok);
  const Dump d = pmukit::decode_dump(out.bytes.data(), out.bytes.size());
  EXPECT_EQ(d.samples.at(0).pc, 0xFFFF800012345678ull);
  EXPECT_EQ(d.samples.at(0).lr, 0x7FFF000000000001ull);
  EXPECT_EQ(d.histogram.at(0).pc, 0x123456789ABCull);
  EXPECT_EQ(d.histogram.at(0).count, 0xFFFFFFFFu);
  EXPECT_EQ(d.total_samples(), 0x100000000ull);
}

TEST_P(RoundTrip, ManySamplesAcrossSeveralChunks) {
  // A ring buffer that wrapped is written as two SAMPLES chunks; the decoder concatenates them.
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), GetParam());
  w.begin({"t", "p", 1, 32, 4});
  for (std::uint32_t part = 0; part < 2; ++part) {
    w.begin_samples(50000);
    for (std::uint32_t i = 0; i < 50000; ++i) w.sample(part * 50000 + i, i);
  }
  ASSERT_EQ(w.finish(), pd::Status::ok);
  const Dump d = pmukit::decode_dump(out.bytes.data(), out.bytes.size());
  ASSERT_EQ(d.samples.size(), 100000u);
  for (std::uint32_t i = 0; i < 100000; ++i) ASSERT_EQ(d.samples[i].pc, i);
}

// MUX_EVENTS and MUX_REGION (1.4): every field back as written, in both byte orders and through
// text frames.
TEST_P(RoundTrip, Multiplexing) {
  const Bytes b = dumptest::mux_dump(GetParam());
  const Dump d = pmukit::decode_dump(b.data(), b.size());
  EXPECT_EQ(d.version_minor, 5u);
  ASSERT_TRUE(d.mux.has_value());
  EXPECT_EQ(d.mux->clock_hz, 400000000u);
  EXPECT_EQ(d.mux->rotations, 40u);
  ASSERT_EQ(d.mux->events.size(), 4u);
  EXPECT_EQ(d.mux->events[0].event_code, 0x100u);
  EXPECT_EQ(d.mux->events[0].name, "CCNT");
  EXPECT_EQ(d.mux->events[0].preset, "cycles");
  EXPECT_TRUE(d.mux->events[0].pinned());
  EXPECT_EQ(d.mux->events[3].event_code, 0x0Du);
  EXPECT_EQ(d.mux->events[3].preset, "");
  EXPECT_FALSE(d.mux->events[3].pinned());
  ASSERT_EQ(d.mux_regions.size(), 2u);
  EXPECT_EQ(d.mux_regions[0].name, "dma_copy");
  EXPECT_FALSE(d.mux_regions[0].whole_run());
  EXPECT_EQ(d.mux_regions[0].calls, 100u);
  ASSERT_EQ(d.mux_regions[0].values.size(), 4u);
  EXPECT_EQ(d.mux_regions[0].values[1].raw, 300000u);
  EXPECT_EQ(d.mux_regions[0].values[1].enabled, 1000000u);
  EXPECT_EQ(d.mux_regions[0].values[1].running, 500000u);
  EXPECT_EQ(d.mux_regions[1].name, "main");
  EXPECT_TRUE(d.mux_regions[1].whole_run());
  EXPECT_EQ(d.mux_regions[1].values[3].running, 0u);
  EXPECT_EQ(d.mux_regions[1].values[3].enabled, 4000000u);
  ASSERT_EQ(d.regions.size(), 1u);  // the exact counters' REGION beside them
  EXPECT_EQ(d.regions[0].stats[1].total, 200000u);
  EXPECT_TRUE(d.skipped.empty());
  dumptest::TextLog log;
  pd::Writer w(log.frames.sink(), GetParam());
  dumptest::write_mux(w);
  const pmukit::LoadedDump l = pmukit::load_dump(Bytes(log.text.begin(), log.text.end()));
  EXPECT_EQ(l.dump.mux_regions.size(), 2u);
  EXPECT_EQ(l.dump.mux_regions[1].values[1].raw, 1000000u);
}

INSTANTIATE_TEST_SUITE_P(ByteOrders, RoundTrip,
                         ::testing::Values(pd::ByteOrder::little, pd::ByteOrder::big),
                         [](const auto& info) {
                           return info.param == pd::ByteOrder::big ? "Big" : "Little";
                         });

TEST(TextFrames, SequenceWrapsAfter65536Lines) {
  dumptest::TextLog log;
  pd::Writer w(log.frames.sink());
  w.begin({"t", "p", 1, 32, 4});
  const std::uint32_t n = 70000 * 4;  // 8 bytes each: 70000 lines of 32 bytes
  w.begin_samples(n);
  for (std::uint32_t i = 0; i < n; ++i) w.sample(i, ~i);
  ASSERT_EQ(w.finish(), pd::Status::ok);
  EXPECT_NE(log.text.find("\n@PMUD ffff "), std::string::npos);
  const pmukit::LoadedDump l = pmukit::load_dump(Bytes(log.text.begin(), log.text.end()));
  ASSERT_EQ(l.dump.samples.size(), n);
  EXPECT_EQ(l.dump.samples[n - 1].lr, ~(n - 1));
}

TEST(TextFrames, CrLfTimestampsAndSeveralFrames) {
  std::string log;
  for (int i = 0; i < 3; ++i) {
    dumptest::TextLog one;
    pd::Writer w(one.frames.sink());
    w.begin({i == 1 ? "second" : "other", "p", 1, 32, 4});
    w.finish();
    for (char c : one.text) log += c == '\n' ? std::string("\r\n") : std::string(1, c);
    log += "12:00:0" + std::to_string(i) + " console line\r\n";
  }
  const Bytes bytes(log.begin(), log.end());
  EXPECT_EQ(pmukit::load_dump(bytes, 2).dump.target.id, "second");
  const pmukit::LoadedDump last = pmukit::load_dump(bytes);
  EXPECT_EQ(last.dump.target.id, "other");
  EXPECT_EQ(last.carrier.rfind("text frame 3 of 3", 0), 0u);
}

TEST(TextFrames, UppercaseHexIsAccepted) {
  std::string log = dumptest::profile_log(pd::ByteOrder::big);
  for (char& c : log)
    if (c >= 'a' && c <= 'f') c = static_cast<char>(c - 'a' + 'A');
  // Console text changed too, but only frame lines matter.
  EXPECT_EQ(pmukit::load_dump(Bytes(log.begin(), log.end())).dump.regions.size(), 3u);
}

TEST(BinaryDump, TrailingBytesAfterEndAreIgnored) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::little);
  b.resize(b.size() + 100, 0xFF);  // a debugger dumped the whole buffer
  const Dump d = pmukit::decode_dump(b.data(), b.size());
  EXPECT_EQ(d.trailing_bytes, 100u);
  EXPECT_EQ(d.regions.size(), 3u);
}

TEST(BinaryDump, UnknownOptionalChunksAreSkipped) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::big);
  dumptest::insert_chunk(b, pd::ByteOrder::big, 0x0123, 0, {1, 2, 3});
  const Dump d = pmukit::decode_dump(b.data(), b.size());
  ASSERT_EQ(d.skipped.size(), 1u);
  EXPECT_EQ(d.skipped[0].type, 0x0123u);
  EXPECT_EQ(d.skipped[0].length, 3u);
  EXPECT_EQ(d.samples.size(), 16u);
}

TEST(BinaryDump, NewerMinorVersionIsRead) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::little);
  dumptest::put_u16(b, 10, 7, pd::ByteOrder::little);
  dumptest::fix_crc(b, pd::ByteOrder::little);
  const Dump d = pmukit::decode_dump(b.data(), b.size());
  EXPECT_EQ(d.version_minor, 7u);
}

// A dump written before IMAGE existed (format 1.0, kept byte for byte) still decodes.
TEST(BinaryDump, Format10HasNoImage) {
  std::ifstream in(std::string(PMUKIT_DUMP_TEST_DIR) + "/corpus/v1_0_profile_le.bin", std::ios::binary);
  const Bytes b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(b.empty());
  const Dump d = pmukit::decode_dump(b.data(), b.size());
  EXPECT_EQ(d.version_minor, 0u);
  EXPECT_FALSE(d.image);
  EXPECT_EQ(d.regions.size(), 3u);
}

// A dump written before multiplexing existed (format 1.3, kept byte for byte) still decodes, with
// none of it.
TEST(BinaryDump, Format13HasNoMultiplexing) {
  std::ifstream in(std::string(PMUKIT_DUMP_TEST_DIR) + "/corpus/v1_3_profile_be.bin", std::ios::binary);
  const Bytes b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(b.empty());
  const Dump d = pmukit::decode_dump(b.data(), b.size());
  EXPECT_EQ(d.version_minor, 3u);
  EXPECT_FALSE(d.mux.has_value());
  EXPECT_TRUE(d.mux_regions.empty());
  ASSERT_EQ(d.regions.size(), 3u);
  EXPECT_EQ(d.regions[1].clamped, std::optional<std::uint64_t>(1));
  EXPECT_EQ(d.samples.size(), 16u);
  EXPECT_TRUE(d.image.has_value());
}

// A dump written before tasks and cores existed (format 1.4, kept byte for byte) still decodes:
// its samples untagged (no task, core 0), no TASKS, TASK_COUNTS or CORE.
TEST(BinaryDump, Format14HasNoTasks) {
  std::ifstream in(std::string(PMUKIT_DUMP_TEST_DIR) + "/corpus/v1_4_mux_be.bin", std::ios::binary);
  const Bytes b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(b.empty());
  const Dump d = pmukit::decode_dump(b.data(), b.size());
  EXPECT_EQ(d.version_minor, 4u);
  ASSERT_TRUE(d.mux.has_value());
  EXPECT_EQ(d.mux->events.size(), 4u);
  EXPECT_FALSE(d.tasks.has_value());
  EXPECT_TRUE(d.task_counts.empty());
  EXPECT_FALSE(d.core.has_value());
  EXPECT_EQ(d.tag_flags, 0u);
}

// TASKS, SAMPLE_TAGS, TASK_COUNTS and CORE (1.5): every field back as written, each sample with its
// task and core (SAMPLES and FRAMES), in both byte orders.
TEST(BinaryDump, TasksAndCoresRoundTrip) {
  for (auto order : {pd::ByteOrder::little, pd::ByteOrder::big}) {
    const Bytes b = dumptest::tasks_dump(order);
    const Dump d = pmukit::decode_dump(b.data(), b.size());
    EXPECT_EQ(d.version_minor, 5u);
    ASSERT_TRUE(d.tasks.has_value());
    ASSERT_EQ(d.tasks->size(), 3u);
    EXPECT_EQ((*d.tasks)[0].id, 1u);
    EXPECT_EQ((*d.tasks)[0].name, "net");
    EXPECT_EQ((*d.tasks)[2].name, "idle");
    EXPECT_EQ(d.task_name(2), "crc");
    EXPECT_EQ(d.task_name(9), "task 9");
    EXPECT_EQ(d.task_name(pmukit::kNoTask), "[no task]");
    ASSERT_TRUE(d.core.has_value());
    EXPECT_EQ(d.core->number, 0u);
    EXPECT_EQ(d.core->cores, 2u);
    EXPECT_EQ(d.tag_flags, 3u);
    ASSERT_EQ(d.samples.size(), 14u);
    EXPECT_EQ(d.samples[0].tag, (pmukit::Tag{1, 0}));
    EXPECT_EQ(d.samples[5].tag, (pmukit::Tag{1, 1}));
    EXPECT_EQ(d.samples[8].tag, (pmukit::Tag{2, 1}));
    EXPECT_EQ(d.samples[13].tag, (pmukit::Tag{pmukit::kNoTask, 0}));
    ASSERT_EQ(d.frames.size(), 2u);
    EXPECT_EQ(d.frames[0].tag, (pmukit::Tag{2, 0}));
    EXPECT_EQ(d.frames[1].tag, (pmukit::Tag{1, 0}));
    // The distinct (pc, lr, tag): a pair seen under two tags is two entries.
    std::uint64_t net = 0, crc = 0, none = 0;
    for (const pmukit::SampleCount& s : d.sample_counts)
      (s.tag.task == 1 ? net : s.tag.task == 2 ? crc : none) += s.count;
    EXPECT_EQ(net, 9u);
    EXPECT_EQ(crc, 5u);
    EXPECT_EQ(none, 2u);
    ASSERT_EQ(d.task_counts.size(), 3u);
    EXPECT_EQ(d.task_counts[0].task, 1u);
    EXPECT_EQ(d.task_counts[0].switches_in, 4u);
    EXPECT_EQ(d.task_counts[0].counts, (std::vector<std::uint64_t>{600000, 40}));
    EXPECT_EQ(d.task_counts[2].task, pmukit::kNoTask);
    EXPECT_EQ(d.task_counts[2].counts, (std::vector<std::uint64_t>{100000, 0}));
  }
}

// Untagged samples (no SAMPLE_TAGS after their chunk) are no task, core 0, as the spec says.
TEST(BinaryDump, SamplesWithoutTagsAreNoTaskOnCoreZero) {
  const Bytes b = dumptest::profile_dump(pd::ByteOrder::big);
  const Dump d = pmukit::decode_dump(b.data(), b.size());
  EXPECT_EQ(d.tag_flags, 0u);
  for (const pmukit::SampleCount& s : d.sample_counts) EXPECT_EQ(s.tag, pmukit::Tag{});
}

TEST(BinaryDump, ImageWithoutBuildIdOrCode) {
  for (auto order : {pd::ByteOrder::little, pd::ByteOrder::big}) {
    dumptest::VectorSink out;
    pd::Writer w(out.sink(), order);
    w.begin({"t", "p", 1, 32, 8});
    EXPECT_EQ(w.image({62, nullptr, 0, 0, 0, 0}), pd::Status::ok);
    ASSERT_EQ(w.finish(), pd::Status::ok);
    const Dump d = pmukit::decode_dump(out.bytes.data(), out.bytes.size());
    ASSERT_TRUE(d.image);
    EXPECT_EQ(d.image->elf_machine, 62u);
    EXPECT_TRUE(d.image->build_id.empty());
    EXPECT_FALSE(d.image->has_code);
  }
}

TEST(BinaryDump, SecondImageAndEmptyCodeRangeAreErrors) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::big);
  dumptest::insert_chunk(b, pd::ByteOrder::big, 0x0007, 0, {0, 8, 0, 0});
  EXPECT_THROW(pmukit::decode_dump(b.data(), b.size()), pmukit::DecodeError);
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::big);
  w.begin({"t", "p", 1, 32, 4});
  w.finish();
  // machine 8, no build-id, code range [0x10, 0x10): a writer would have left the range out.
  dumptest::insert_chunk(out.bytes, pd::ByteOrder::big, 0x0007, 0,
                         {0, 8, 0, 1, 0, 0, 0, 0x10, 0, 0, 0, 0x10, 1, 2, 3, 4});
  try {
    pmukit::decode_dump(out.bytes.data(), out.bytes.size());
    ADD_FAILURE() << "empty code range accepted";
  } catch (const pmukit::DecodeError& e) {
    EXPECT_NE(std::string(e.what()).find("IMAGE chunk at offset"), std::string::npos) << e.what();
  }
}

}  // namespace

namespace {

// Slots looked at per record for n distinct pairs made by `pair`, each added twice.
template <typename Pair>
double probes_per_record(std::uint32_t n, Pair pair) {
  pmukit::PairCounter c;
  for (int round = 0; round < 2; ++round)
    for (std::uint32_t i = 0; i < n; ++i) {
      const auto [pc, lr] = pair(i);
      c.add(pc, lr);
    }
  const std::vector<pmukit::SampleCount> counts = c.take();
  EXPECT_EQ(counts.size(), n);
  for (const pmukit::SampleCount& s : counts) EXPECT_EQ(s.count, 2u);
  return static_cast<double>(c.probes()) / (2.0 * n);
}

}  // namespace

// Issue 31: pairs whose low bits are all zero went to one run of slots (a 4 MB dump took 50 s).
// Every bit of pc and lr must reach the slot index: crafted pairs cost what random ones do.
TEST(PairCounter, AddressesWithZeroLowBitsDoNotCollide) {
  const std::uint32_t n = 1u << 15;
  std::mt19937_64 rng(31);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> drawn(n);
  for (auto& p : drawn) p = {rng(), rng()};
  const double random = probes_per_record(n, [&](std::uint32_t i) { return drawn[i]; });
  const double high_bits = probes_per_record(n, [](std::uint32_t i) {
    return std::pair{std::uint64_t{i % 4096} << 20, std::uint64_t{i / 4096} << 20};
  });
  const double wide = probes_per_record(n, [](std::uint32_t i) {
    return std::pair{std::uint64_t{i} << 32, std::uint64_t{0xFFFF8000} << 32};
  });
  const double lr_only = probes_per_record(n, [](std::uint32_t i) {
    return std::pair{std::uint64_t{0x1000}, std::uint64_t{i} << 40};
  });
  // About 2.4 each here; the old hash took 3,000 to 16,000 on the crafted ones.
  EXPECT_LT(random, 4.0);
  EXPECT_LT(high_bits, 4.0);
  EXPECT_LT(wide, 4.0);
  EXPECT_LT(lr_only, 4.0);
}

// The host's slicing-by-8 CRC-32 is the firmware's nibble-table one (profiler/dump/crc32.hpp)
// for every length and alignment: the dump's END chunk is checked with it.
TEST(HostCrc32, EqualsTheFirmwaresCrcOnRandomBuffers) {
  std::mt19937_64 rng(39);
  std::vector<std::uint8_t> buffer(4096 + 16);
  for (auto& b : buffer) b = static_cast<std::uint8_t>(rng());
  EXPECT_EQ(pmukit::host_crc32(reinterpret_cast<const std::uint8_t*>("123456789"), 9), 0xCBF43926u);
  for (int round = 0; round < 2000; ++round) {
    const std::size_t offset = rng() % 16, size = rng() % 4097;
    const std::uint8_t* p = buffer.data() + offset;
    pmukit::HostCrc32 pieces;  // in two updates split anywhere, as the decoder's blocks are
    const std::size_t cut = size == 0 ? 0 : rng() % size;
    pieces.update(p, cut);
    pieces.update(p + cut, size - cut);
    ASSERT_EQ(pmukit::host_crc32(p, size), pd::crc32(p, size)) << "offset " << offset << ", " << size << " bytes";
    ASSERT_EQ(pieces.value(), pd::crc32(p, size)) << "cut at " << cut << " of " << size;
  }
}

TEST(HostCrc32, EqualsTheFirmwaresCrcOnTheDumpCorpus) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(PMUKIT_DUMP_TEST_DIR) + "/corpus")) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::vector<std::uint8_t> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_GT(b.size(), 0u) << entry.path();
    EXPECT_EQ(pmukit::host_crc32(b.data(), b.size()), pd::crc32(b.data(), b.size())) << entry.path();
    ++files;
  }
  EXPECT_GE(files, 13);  // every dump (and the console log) in tests/host/dump/corpus
}
