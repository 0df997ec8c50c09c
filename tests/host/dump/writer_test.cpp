// The firmware-side writer: exact bytes, byte orders, the call-order rules and the sinks.
#include <gtest/gtest.h>

#include <cstring>

#include <string>

#include "fixtures.hpp"
#include "hal/xscale/driver.hpp"
#include "hal/xscale/model.hpp"
#include "profiler/emit.hpp"
#include "profiler/dump/crc32.hpp"
#include "profiler/dump/text_frame_sink.hpp"
#include "profiler/dump/image.hpp"
#include "profiler/dump/writer.hpp"
#include "tools/dumpread/binary_decoder.hpp"
#include "tools/report/describe.hpp"
#include "tools/report/profile.hpp"

namespace {

namespace pd = pmu::dump;
using dumptest::Bytes;
using dumptest::VectorSink;

TEST(DumpCrc32, StandardCheckValues) {
  const std::string check = "123456789";
  EXPECT_EQ(pd::crc32(reinterpret_cast<const std::uint8_t*>(check.data()), check.size()),
            0xCBF43926u);
  EXPECT_EQ(pd::crc32(nullptr, 0), 0u);
  static constexpr std::uint8_t kA[] = {'a'};
  static_assert(pd::crc32(kA, 1) == 0xE8B7BE43u);  // usable at compile time
  pd::Crc32 split;  // feeding in pieces gives the same value
  split.update(reinterpret_cast<const std::uint8_t*>(check.data()), 4);
  split.update(reinterpret_cast<const std::uint8_t*>(check.data()) + 4, 5);
  EXPECT_EQ(split.value(), 0xCBF43926u);
}

Bytes small_dump(pd::ByteOrder order) {
  VectorSink out;
  pd::Writer w(out.sink(), order);
  EXPECT_EQ(w.begin({"ab", "c", 0x0102030405060708ull, 32, 4}), pd::Status::ok);
  EXPECT_EQ(w.finish(), pd::Status::ok);
  EXPECT_EQ(w.bytes_written(), out.bytes.size());
  return out.bytes;
}

TEST(DumpWriter, BigEndianBytesAreExactlyTheSpec) {
  const Bytes b = small_dump(pd::ByteOrder::big);
  Bytes expect = {'P', 'M', 'U', 'D', 1, 2, 3, 4, 0, 1, 0, 5, 0, 16, 0, 0,  // header, version 1.5
                  0, 1, 0, 0, 0, 0, 0, 15,                                 // TARGET, 15 bytes
                  2, 'a', 'b', 1, 'c', 1, 2, 3, 4, 5, 6, 7, 8, 32, 4,
                  0, 0xFF, 0, 0, 0, 0, 0, 4};  // END, 4 bytes
  const std::uint32_t crc = pd::crc32(expect.data(), expect.size());
  for (int shift = 24; shift >= 0; shift -= 8) expect.push_back(static_cast<std::uint8_t>(crc >> shift));
  EXPECT_EQ(b, expect);
}

TEST(DumpWriter, LittleEndianBytesAreExactlyTheSpec) {
  const Bytes b = small_dump(pd::ByteOrder::little);
  Bytes expect = {'P', 'M', 'U', 'D', 4, 3, 2, 1, 1, 0, 5, 0, 16, 0, 0, 0,
                  1, 0, 0, 0, 15, 0, 0, 0,
                  2, 'a', 'b', 1, 'c', 8, 7, 6, 5, 4, 3, 2, 1, 32, 4,
                  0xFF, 0, 0, 0, 4, 0, 0, 0};
  const std::uint32_t crc = pd::crc32(expect.data(), expect.size());
  for (int shift = 0; shift <= 24; shift += 8) expect.push_back(static_cast<std::uint8_t>(crc >> shift));
  EXPECT_EQ(b, expect);
}

TEST(DumpWriter, NativeOrderIsTheDefault) {
  VectorSink out;
  pd::Writer w(out.sink());
  w.begin({"t", "p", 1, 32, 4});
  w.finish();
  const std::uint32_t one = 1;
  const bool little = *reinterpret_cast<const std::uint8_t*>(&one) == 1;
  EXPECT_EQ(out.bytes.at(4), little ? 4 : 1);
  EXPECT_EQ(pd::native_byte_order(), little ? pd::ByteOrder::little : pd::ByteOrder::big);
}

TEST(DumpWriter, BothOrdersHaveTheSameSize) {
  EXPECT_EQ(dumptest::profile_dump(pd::ByteOrder::big).size(),
            dumptest::profile_dump(pd::ByteOrder::little).size());
}

TEST(DumpWriter, CallOrderIsEnforced) {
  VectorSink out;
  pd::Writer w(out.sink());
  EXPECT_EQ(w.finish(), pd::Status::out_of_order);  // before begin()
  EXPECT_EQ(w.begin({"t", "p", 1, 32, 4}), pd::Status::out_of_order);  // the error sticks
  EXPECT_TRUE(out.bytes.empty());
}

TEST(DumpWriter, RegionNeedsCountersFirst) {
  VectorSink out;
  pd::Writer w(out.sink());
  w.begin({"t", "p", 1, 32, 4});
  EXPECT_EQ(w.region({"r", 1, nullptr, 0}), pd::Status::out_of_order);
}

TEST(DumpWriter, RegionStatsMustMatchCounters) {
  VectorSink out;
  pd::Writer w(out.sink());
  w.begin({"t", "p", 1, 32, 4});
  const pd::CounterInfo c[] = {{0, 32, 1, "cycles", "cycles"}};
  ASSERT_EQ(w.counters(c, 1), pd::Status::ok);
  const pd::CounterStats s[] = {{1, 1, 1, 0}, {1, 1, 1, 0}};
  EXPECT_EQ(w.region({"r", 1, s, 2}), pd::Status::stats_mismatch);
}

TEST(DumpWriter, SampleCountsMustMatchTheAnnouncement) {
  VectorSink a;
  pd::Writer few(a.sink());
  few.begin({"t", "p", 1, 32, 4});
  few.begin_samples(2);
  few.sample(1, 2);
  EXPECT_EQ(few.finish(), pd::Status::count_mismatch);

  VectorSink b;
  pd::Writer many(b.sink());
  many.begin({"t", "p", 1, 32, 4});
  many.begin_histogram(1);
  EXPECT_EQ(many.bin(1, 1), pd::Status::ok);
  EXPECT_EQ(many.bin(2, 1), pd::Status::count_mismatch);

  VectorSink c;
  pd::Writer early(c.sink());
  early.begin({"t", "p", 1, 32, 4});
  early.begin_samples(1);
  EXPECT_EQ(early.sample_source({pd::SampleSourceKind::timer, pd::kNoCounter, 1, 0}),
            pd::Status::count_mismatch);
}

TEST(DumpWriter, RejectsBadArguments) {
  VectorSink out;
  const std::string long_name(256, 'x');
  EXPECT_EQ(pd::Writer(out.sink()).begin({long_name.c_str(), "p", 1, 32, 4}),
            pd::Status::string_too_long);
  EXPECT_EQ(pd::Writer(out.sink()).begin({"t", "p", 1, 32, 2}), pd::Status::bad_argument);
  pd::Writer w(out.sink());
  w.begin({"t", "p", 1, 32, 4});
  w.begin_samples(1);
  EXPECT_EQ(w.sample(0x100000000ull, 0), pd::Status::address_too_wide);
  EXPECT_STREQ(pd::status_name(w.status()), "address too wide");
}

TEST(DumpWriter, MaxLengthStringIsAccepted) {
  VectorSink out;
  const std::string name(255, 'x');
  pd::Writer w(out.sink());
  EXPECT_EQ(w.begin({name.c_str(), nullptr, 1, 32, 4}), pd::Status::ok);
  EXPECT_EQ(w.finish(), pd::Status::ok);
}

TEST(DumpWriter, EightByteAddresses) {
  VectorSink out;
  pd::Writer w(out.sink());
  w.begin({"t", "p", 1, 64, 8});
  w.begin_samples(1);
  EXPECT_EQ(w.sample(0x123456789ull, 0xFFFFFFFFFFFFFFFFull), pd::Status::ok);
  EXPECT_EQ(w.finish(), pd::Status::ok);
}

TEST(DumpWriter, BufferSinkStopsWhenFull) {
  std::uint8_t buf[100];
  pd::BufferSink mem{buf, sizeof buf};
  pd::Writer w(mem.sink());
  dumptest::write_profile(w);  // 565 bytes
  EXPECT_EQ(w.finish(), pd::Status::sink_failed);
  EXPECT_EQ(w.status(), pd::Status::sink_failed);
  EXPECT_EQ(mem.size, 64u);  // one 64-byte block fitted, the next did not
  EXPECT_EQ(w.bytes_written(), mem.size);
}

TEST(DumpWriter, SinkGetsBlocksNotFields) {
  struct Counting {
    std::size_t calls = 0, bytes = 0;
  } count;
  pd::Writer w(pd::Sink{[](void* ctx, const std::uint8_t*, std::size_t n) {
                          auto* c = static_cast<Counting*>(ctx);
                          ++c->calls;
                          c->bytes += n;
                          return true;
                        },
                        &count});
  dumptest::write_profile(w);
  ASSERT_EQ(w.status(), pd::Status::ok);
  EXPECT_EQ(count.bytes, 681u);
  EXPECT_EQ(count.calls, 11u);  // 10 full blocks of 64 and the last 41 bytes
}

TEST(DumpWriter, BufferSinkHoldsAWholeDump) {
  std::uint8_t buf[1024];
  pd::BufferSink mem{buf, sizeof buf};
  pd::Writer w(mem.sink(), pd::ByteOrder::big);
  dumptest::write_profile(w);
  ASSERT_EQ(w.status(), pd::Status::ok);
  EXPECT_EQ(Bytes(buf, buf + mem.size), dumptest::profile_dump(pd::ByteOrder::big));
}

// A trace event may only name a REGION already written; the announced count must be met.
TEST(DumpWriter, TraceEventsNameWrittenRegions) {
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::little);
  w.begin({"t", "p", 0, 32, 4});
  const pd::CounterInfo c[] = {{0, 32, 1, "cycles", "cycles"}};
  w.counters(c, 1);
  const pd::CounterStats s[] = {{10, 10, 10, 0}};
  w.region({"r", 1, s, 1});
  ASSERT_EQ(w.begin_trace(2, 0), pd::Status::ok);
  EXPECT_EQ(w.trace_event(0, 5, 15), pd::Status::ok);
  EXPECT_EQ(w.finish(), pd::Status::count_mismatch) << "one event short";
  pd::Writer w2(out.sink(), pd::ByteOrder::little);
  w2.begin({"t", "p", 0, 32, 4});
  w2.counters(c, 1);
  w2.region({"r", 1, s, 1});
  w2.begin_trace(1, 0);
  EXPECT_EQ(w2.trace_event(1, 5, 15), pd::Status::bad_argument) << "region 1 was never written";
}

// STACKS: the announced samples and stack bytes must be met exactly, and decode back.
TEST(DumpWriter, StacksRoundTrip) {
  const dumptest::Bytes b = dumptest::stacks_dump(pd::ByteOrder::big);
  const pmukit::Dump d = pmukit::decode_dump(b.data(), b.size());
  ASSERT_EQ(d.stacks.size(), 2u);
  EXPECT_EQ(d.stacks[0].sp, 0xa0ff0000u);
  EXPECT_EQ(d.stacks[0].stack.size(), 12u);
  EXPECT_EQ(d.stacks[1].fp, 0xa0ff0020u);
  EXPECT_EQ(d.stacks[1].stack.size(), 4u);
  EXPECT_EQ(d.total_samples(), 2u) << "stack samples are samples";
  EXPECT_EQ(d.stacks_dropped, std::optional<std::uint64_t>(3)) << "the drops travel with the stacks (1.3)";
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::little);
  w.begin({"t", "p", 0, 32, 4});
  const std::uint8_t stack[12] = {};
  ASSERT_EQ(w.begin_stacks(2, 8, 0), pd::Status::ok);
  EXPECT_EQ(w.stack_sample(1, 2, 3, 4, stack, 4), pd::Status::ok);
  EXPECT_EQ(w.stack_sample(1, 2, 3, 4, stack, 12), pd::Status::count_mismatch) << "more bytes than announced";
  pd::Writer w2(out.sink(), pd::ByteOrder::little);
  w2.begin({"t", "p", 0, 32, 4});
  ASSERT_EQ(w2.begin_stacks(2, 8, 0), pd::Status::ok);
  EXPECT_EQ(w2.stack_sample(1, 2, 3, 4, stack, 8), pd::Status::ok);
  EXPECT_EQ(w2.finish(), pd::Status::count_mismatch) << "one sample short";
}

// FRAMES: the walked chains decode back, count as samples and give the profile their stacks as
// they are (no ELF, no unwinding); an incomplete walk is marked.
TEST(DumpWriter, FramesRoundTrip) {
  const dumptest::Bytes b = dumptest::frames_dump(pd::ByteOrder::big);
  const pmukit::Dump d = pmukit::decode_dump(b.data(), b.size());
  ASSERT_EQ(d.frames.size(), 2u);
  EXPECT_EQ(d.frames[0].pcs, (std::vector<std::uint64_t>{0x2010, 0x3020, 0x1010}));
  EXPECT_TRUE(d.frames[0].complete);
  EXPECT_FALSE(d.frames[1].complete);
  EXPECT_EQ(d.total_samples(), 2u);
  EXPECT_EQ(d.frames_dropped, std::optional<std::uint64_t>(5));
  const pmukit::Profile p = pmukit::build_profile(d, pmukit::SymbolTable());
  // No ELF: every address is its own function. The cut walk (just 0x2010) is placed where the
  // complete one saw 0x2010, with the marker between.
  const std::vector<pmukit::Profile::Stack> s = p.folded();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].frames, (std::vector<std::string>{"0x0000100f", "0x0000301f", "0x00002010"}));
  EXPECT_EQ(s[1].frames, (std::vector<std::string>{"0x0000100f", "0x0000301f",
                                                   "[unwind stopped: the target's frame walk stopped]", "0x00002010"}));
  EXPECT_EQ(p.walked, 2u);
  EXPECT_EQ(p.inferred, 1u);
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::little);
  w.begin({"t", "p", 0, 32, 4});
  const std::uint32_t pcs[2] = {1, 2};
  ASSERT_EQ(w.begin_frames(1, 2, 0), pd::Status::ok);
  EXPECT_EQ(w.frame_sample(pcs, 1, true), pd::Status::count_mismatch) << "the last must use what is left";
}

// Every capture dropped: an empty STACKS chunk still says how many (1.3), and the report says it;
// a 1.2 STACKS chunk (no count after the samples) decodes with the drops unknown, and says so.
TEST(DumpWriter, DroppedCapturesAreCountedEvenWhenNoneWasKept) {
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::big);
  w.begin({"t", "p", 0, 32, 4});
  w.sample_source({pd::SampleSourceKind::timer, pd::kNoCounter, 1000, 0});
  ASSERT_EQ(w.begin_stacks(0, 0, 7), pd::Status::ok);
  ASSERT_EQ(w.finish(), pd::Status::ok);
  const pmukit::Dump d = pmukit::decode_dump(out.bytes.data(), out.bytes.size());
  EXPECT_EQ(d.stacks_dropped, std::optional<std::uint64_t>(7));
  EXPECT_NE(pmukit::describe_source(d).find("0 with stacks, 7 stacks dropped"), std::string::npos)
      << pmukit::describe_source(d);

  Bytes old = {'P', 'M', 'U', 'D', 1, 2, 3, 4, 0, 1, 0, 2, 0, 16, 0, 0,                       // version 1.2
               0, 1, 0, 0, 0, 0, 0, 14, 1, 't', 1, 'p', 0, 0, 0, 0, 0, 0, 0, 0, 32, 4,  // TARGET
               0, 9, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0,                                      // STACKS, n = 0
               0, 0xFF, 0, 0, 0, 0, 0, 4};                                              // END
  const std::uint32_t crc = pd::crc32(old.data(), old.size());
  for (int shift = 24; shift >= 0; shift -= 8) old.push_back(static_cast<std::uint8_t>(crc >> shift));
  const pmukit::Dump d12 = pmukit::decode_dump(old.data(), old.size());
  EXPECT_FALSE(d12.stacks_dropped.has_value());
}

// Calls that added 0 travel with their region (1.3) and every report flags them with the count.
TEST(DumpWriter, ClampedAndVoidedCallsAreInTheDumpAndFlagged) {
  const dumptest::Bytes b = dumptest::profile_dump(pd::ByteOrder::little);
  const pmukit::Dump d = pmukit::decode_dump(b.data(), b.size());
  ASSERT_EQ(d.regions.size(), 3u);
  EXPECT_EQ(d.regions[0].clamped, std::optional<std::uint64_t>(0));
  EXPECT_EQ(d.regions[1].clamped, std::optional<std::uint64_t>(1));
  EXPECT_EQ(d.regions[1].voided, std::optional<std::uint64_t>(1));
  EXPECT_EQ(pmukit::region_flags(d.regions[0]), "");
  EXPECT_EQ(d.regions[1].interrupts, std::optional<std::uint64_t>(2));
  EXPECT_EQ(pmukit::region_flags(d.regions[1]),
            "1 of 3 calls clamped to 0 (below the calibrated overhead), 1 voided (the counters were reset inside): "
            "they add 0 to its total, min and mean; 2 sampling interrupts fell inside its calls: their handlers' "
            "events are in its counts");
}

TEST(TextFrameSink, WritesBeginDataAndEndLines) {
  dumptest::TextLog log;
  pd::Writer w(log.frames.sink(), pd::ByteOrder::little);
  w.begin({"ab", "c", 0x0102030405060708ull, 32, 4});
  ASSERT_EQ(w.finish(), pd::Status::ok);
  // The example of docs/dump-format.md, computed independently (Python's zlib.crc32).
  EXPECT_EQ(log.text,
            "@PMUD BEGIN 1\n"
            "@PMUD 0000 504d5544040302010100050010000000010000000f0000000261620163080706 bd43\n"
            "@PMUD 0001 05040302012004ff000000040000008cc5c29a fe11\n"
            "@PMUD END 2 51\n");
}

TEST(TextFrameSink, LineCheckIsLow16BitsOfCrc32OfSequenceAndData) {
  dumptest::TextLog log;
  pd::Writer w(log.frames.sink());
  w.begin({"ab", "c", 1, 32, 4});
  w.finish();
  const std::size_t at = log.text.find("@PMUD 0000 ");
  const std::string line = log.text.substr(at, log.text.find('\n', at) - at);
  const std::string hex = line.substr(11, 64);
  Bytes data = {0, 0};
  for (std::size_t i = 0; i < hex.size(); i += 2)
    data.push_back(static_cast<std::uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
  char expect[8];
  std::snprintf(expect, sizeof expect, "%04x", pd::crc32(data.data(), data.size()) & 0xFFFFu);
  EXPECT_EQ(line.substr(76), expect);
}

void plain_putc(char c);
std::string plain_text;
void plain_putc(char c) { plain_text += c; }

TEST(TextFrameSink, PlainPutcAndTwoFramesThroughOneSink) {
  plain_text.clear();
  pd::TextFrameSink frames(&plain_putc);
  for (int i = 0; i < 2; ++i) {
    pd::Writer w(frames.sink());
    w.begin({"t", "p", 1, 32, 4});
    ASSERT_EQ(w.finish(), pd::Status::ok);
  }
  EXPECT_EQ(plain_text.find("@PMUD BEGIN 1\n"), 0u);
  EXPECT_NE(plain_text.find("@PMUD BEGIN 1\n", 1), std::string::npos);
  EXPECT_NE(plain_text.find("@PMUD 0000", 20), std::string::npos);  // sequence restarts
}

TEST(DumpWriter, ImageChunkBytes) {
  VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::big);
  w.begin({"a", "b", 1, 32, 4});
  const std::uint8_t id[] = {0xab, 0xcd};
  ASSERT_EQ(w.image({20, id, 2, 0x100000, 0x100010, 0xdeadbeefu}), pd::Status::ok);
  // After the 16-byte header and TARGET (8 + 1+1 + 1+1 + 8 + 1 + 1 = 22 bytes).
  const Bytes expect = {0, 7, 0, 0, 0, 0, 0, 18,  // IMAGE, 18 bytes
                        0, 20, 2, 0xab, 0xcd, 1,  // PowerPC, build-id, code flag
                        0, 0x10, 0, 0, 0, 0x10, 0, 0x10, 0xde, 0xad, 0xbe, 0xef};
  ASSERT_EQ(w.finish(), pd::Status::ok);
  ASSERT_GE(out.bytes.size(), 38u + expect.size());
  EXPECT_EQ(Bytes(out.bytes.begin() + 38, out.bytes.begin() + 38 + static_cast<std::ptrdiff_t>(expect.size())), expect);
}

// MUX_EVENTS and MUX_REGION (1.4), byte for byte as docs/dump-format.md lays them out.
TEST(DumpWriter, MuxChunkBytes) {
  VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::big);
  w.begin({"a", "b", 1, 32, 4});
  ASSERT_EQ(w.counters(nullptr, 0), pd::Status::ok);  // a firmware whose counters all rotate
  const pd::MuxEventInfo ev[] = {{0x07, 0x10, 0x2, "in", "", pd::kMuxPinned}};
  ASSERT_EQ(w.mux_events({1000, 3, ev, 1}), pd::Status::ok);
  const pd::MuxValue v[] = {{5, 8, 4}};
  ASSERT_EQ(w.mux_region({"r", pd::kMuxWholeRun, 2, v, 1}), pd::Status::ok);
  ASSERT_EQ(w.finish(), pd::Status::ok);
  // After the 16-byte header, TARGET (22 bytes) and COUNTERS (8 + 1).
  const Bytes expect = {
      0, 0x0B, 0, 0, 0, 0, 0, 34,                   // MUX_EVENTS, 34 bytes
      0, 0, 0, 0, 0, 0, 0x03, 0xe8,                 // clock 1000 Hz
      0, 0, 0, 0, 0, 0, 0, 3,                       // 3 rotations
      1,                                            // one event
      0, 0, 0, 7, 0, 0, 0, 0x10, 0, 0, 0, 2,        // code, qualifier, options
      2, 'i', 'n', 0, 1,                            // name, no preset, pinned
      0, 0x0C, 0, 0, 0, 0, 0, 36,                   // MUX_REGION, 36 bytes
      1, 'r', 1, 0, 0, 0, 0, 0, 0, 0, 2, 1,         // name, whole run, 2 calls, one value
      0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 4};  // raw, enabled, running
  ASSERT_GE(out.bytes.size(), 47u + expect.size());
  EXPECT_EQ(Bytes(out.bytes.begin() + 47, out.bytes.begin() + 47 + static_cast<std::ptrdiff_t>(expect.size())), expect);
}

// MUX_EVENTS once and after COUNTERS, MUX_REGION after it with one value per event, never running
// longer than enabled: what the decoder requires, the writer refuses to break.
TEST(DumpWriter, MuxCallOrderAndArguments) {
  const pd::CounterInfo c[] = {{0, 32, 1, "cycles", "cycles"}};
  const pd::MuxEventInfo ev[] = {{1, 0, 0, "cycles", "cycles", pd::kMuxPinned}, {2, 0, 0, "instr", nullptr, 0}};
  const pd::MuxValue good[] = {{1, 10, 10}, {1, 10, 5}}, longer[] = {{1, 10, 10}, {1, 10, 11}};
  const std::string long_name(256, 'x');
  const pd::MuxEventInfo long_ev[] = {{1, 0, 0, long_name.c_str(), nullptr, 0}};
  struct Case {
    const char* what;
    bool counters;
    int mux_events;  // calls before the region
    const pd::MuxEventInfo* events;
    std::size_t num_events;
    const pd::MuxValue* values;
    std::size_t num_values;
    pd::Status events_status, region_status;
  } const cases[] = {
      {"all in order", true, 1, ev, 2, good, 2, pd::Status::ok, pd::Status::ok},
      {"MUX_EVENTS before COUNTERS", false, 1, ev, 2, good, 2, pd::Status::out_of_order, pd::Status::out_of_order},
      {"MUX_EVENTS twice", true, 2, ev, 2, good, 2, pd::Status::out_of_order, pd::Status::out_of_order},
      {"MUX_REGION before MUX_EVENTS", true, 0, ev, 2, good, 2, pd::Status::ok, pd::Status::out_of_order},
      {"one value short", true, 1, ev, 2, good, 1, pd::Status::ok, pd::Status::stats_mismatch},
      {"running longer than enabled", true, 1, ev, 2, longer, 2, pd::Status::ok, pd::Status::bad_argument},
      {"values missing", true, 1, ev, 2, nullptr, 2, pd::Status::ok, pd::Status::bad_argument},
      {"events missing", true, 1, nullptr, 2, good, 2, pd::Status::bad_argument, pd::Status::bad_argument},
      {"256 events", true, 1, ev, 256, good, 2, pd::Status::too_many_counters, pd::Status::too_many_counters},
      {"a 256-byte name", true, 1, long_ev, 1, good, 1, pd::Status::string_too_long, pd::Status::string_too_long},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    VectorSink out;
    pd::Writer w(out.sink(), pd::ByteOrder::little);
    w.begin({"t", "p", 1, 32, 4});
    if (k.counters) w.counters(c, 1);
    pd::Status events = pd::Status::ok;
    for (int i = 0; i < k.mux_events; ++i) events = w.mux_events({1000, 0, k.events, k.num_events});
    EXPECT_EQ(events, k.events_status);
    EXPECT_EQ(w.mux_region({"r", 0, 1, k.values, k.num_values}), k.region_status);
  }
}

// TASKS, SAMPLE_TAGS, TASK_COUNTS and CORE (1.5), byte for byte as docs/dump-format.md lays them
// out. A tag the flags leave out is written as the spec says: task 0xFFFF, core 0.
TEST(DumpWriter, TaskAndCoreChunkBytes) {
  VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::big);
  w.begin({"a", "b", 1, 32, 4});
  const pd::CounterInfo c[] = {{0, 32, 1, "", ""}};
  ASSERT_EQ(w.counters(c, 1), pd::Status::ok);  // 8 + 1 + 8 bytes
  const pd::TaskInfo t[] = {{7, "idle"}, {0x0102, "net"}};
  ASSERT_EQ(w.tasks(t, 2), pd::Status::ok);
  ASSERT_EQ(w.core(1, 2), pd::Status::ok);
  ASSERT_EQ(w.begin_samples(2), pd::Status::ok);
  w.sample(0x10, 0);
  ASSERT_EQ(w.sample(0x20, 0), pd::Status::ok);
  ASSERT_EQ(w.begin_sample_tags(2, pd::kTagTask), pd::Status::ok);
  w.sample_tag(7, 1);
  ASSERT_EQ(w.sample_tag(pd::kNoTask, 1), pd::Status::ok);
  const std::uint64_t counts[] = {0x0A0B};
  ASSERT_EQ(w.task_counts(7, 3, counts, 1), pd::Status::ok);
  ASSERT_EQ(w.finish(), pd::Status::ok);
  // After the 16-byte header, TARGET (8 + 14) and COUNTERS (8 + 9).
  const Bytes expect = {
      0, 0x0D, 0, 0, 0, 0, 0, 15,                    // TASKS, 15 bytes
      0, 2, 0, 7, 4, 'i', 'd', 'l', 'e', 1, 2, 3, 'n', 'e', 't',
      0, 0x10, 0, 0, 0, 0, 0, 2, 1, 2,               // CORE 1 of 2
      0, 0x05, 0, 0, 0, 0, 0, 20,                    // SAMPLES, 2 samples
      0, 0, 0, 2, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0,
      0, 0x0E, 0, 0, 0, 0, 0, 11,                    // SAMPLE_TAGS, 11 bytes
      0, 0, 0, 2, 1, 0, 7, 0, 0xFF, 0xFF, 0,         // 2 tags, tasks only: core written 0
      0, 0x0F, 0, 0, 0, 0, 0, 19,                    // TASK_COUNTS, 19 bytes
      0, 7, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 0x0A, 0x0B};
  ASSERT_GE(out.bytes.size(), 55u + expect.size());
  EXPECT_EQ(Bytes(out.bytes.begin() + 55, out.bytes.begin() + 55 + static_cast<std::ptrdiff_t>(expect.size())), expect);
}

// SAMPLE_TAGS only right after a SAMPLES, STACKS or FRAMES chunk and with its count, exactly that
// many tags, no reserved flag: what the decoder requires (docs/dump-format.md, SAMPLE_TAGS), the
// writer refuses to break, and the first error sticks.
TEST(DumpWriter, SampleTagsOnlyRightAfterASampleChunkWithItsCount) {
  enum class Before { nothing, samples, histogram, samples_then_source, stacks, frames, tags };
  struct Case {
    const char* what;
    Before before;
    std::uint32_t count;
    std::uint8_t flags;
    int tags;
    pd::Status begin_status, end_status;
  } const cases[] = {
      {"after SAMPLES", Before::samples, 1, pd::kTagTask | pd::kTagCore, 1, pd::Status::ok, pd::Status::ok},
      {"after STACKS", Before::stacks, 1, pd::kTagCore, 1, pd::Status::ok, pd::Status::ok},
      {"after FRAMES", Before::frames, 1, pd::kTagTask, 1, pd::Status::ok, pd::Status::ok},
      {"first chunk after TARGET", Before::nothing, 1, pd::kTagTask, 1, pd::Status::out_of_order, pd::Status::out_of_order},
      {"after HISTOGRAM", Before::histogram, 1, pd::kTagTask, 1, pd::Status::out_of_order, pd::Status::out_of_order},
      {"a chunk in between", Before::samples_then_source, 1, pd::kTagTask, 1, pd::Status::out_of_order,
       pd::Status::out_of_order},
      {"a second SAMPLE_TAGS", Before::tags, 1, pd::kTagTask, 1, pd::Status::out_of_order, pd::Status::out_of_order},
      {"count differs", Before::samples, 2, pd::kTagTask, 2, pd::Status::count_mismatch, pd::Status::count_mismatch},
      {"reserved flag", Before::samples, 1, 0x04, 1, pd::Status::bad_argument, pd::Status::bad_argument},
      {"one tag short", Before::samples, 1, pd::kTagTask, 0, pd::Status::ok, pd::Status::count_mismatch},
      {"one tag more", Before::samples, 1, pd::kTagTask, 2, pd::Status::ok, pd::Status::count_mismatch},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    VectorSink out;
    pd::Writer w(out.sink(), pd::ByteOrder::little);
    w.begin({"t", "p", 1, 32, 4});
    const std::uint32_t pcs[] = {0x10};
    if (k.before == Before::samples || k.before == Before::samples_then_source || k.before == Before::tags) {
      w.begin_samples(1);
      w.sample(0x10, 0);
    }
    if (k.before == Before::samples_then_source) w.sample_source({pd::SampleSourceKind::timer, pd::kNoCounter, 1, 0});
    if (k.before == Before::tags) {
      w.begin_sample_tags(1, pd::kTagTask);
      w.sample_tag(1, 0);
    }
    if (k.before == Before::histogram) {
      w.begin_histogram(1);
      w.bin(0x10, 1);
    }
    if (k.before == Before::stacks) {
      w.begin_stacks(1, 0, 0);
      w.stack_sample(0x10, 0, 0x100, 0, nullptr, 0);
    }
    if (k.before == Before::frames) {
      w.begin_frames(1, 1, 0);
      w.frame_sample(pcs, 1, true);
    }
    ASSERT_EQ(w.status(), pd::Status::ok);
    EXPECT_EQ(w.begin_sample_tags(k.count, k.flags), k.begin_status);
    for (int i = 0; i < k.tags; ++i) w.sample_tag(1, 0);
    EXPECT_EQ(w.finish(), k.end_status);
  }
}

// TASKS and CORE at most once, TASK_COUNTS after COUNTERS with one count per counter and at most
// once per task id (docs/dump-format.md, TASKS, TASK_COUNTS, CORE).
TEST(DumpWriter, TasksCoreAndTaskCountsCallOrderAndArguments) {
  const pd::CounterInfo c[] = {{0, 32, 1, "cycles", "cycles"}, {1, 32, 2, "instr", ""}};
  const std::uint64_t two[] = {10, 20};
  const pd::TaskInfo good[] = {{1, "a"}, {2, "b"}}, twice[] = {{1, "a"}, {1, "b"}},
                     no_task[] = {{pd::kNoTask, "none"}};
  const std::string long_name(256, 'x');
  const pd::TaskInfo long_task[] = {{1, long_name.c_str()}};
  auto fresh = [](VectorSink& out) {
    pd::Writer w(out.sink(), pd::ByteOrder::little);
    w.begin({"t", "p", 1, 32, 4});
    return w;
  };
  {
    VectorSink out;
    pd::Writer w = fresh(out);
    EXPECT_EQ(w.tasks(good, 2), pd::Status::ok);
    EXPECT_EQ(w.tasks(good, 2), pd::Status::out_of_order) << "TASKS twice";
    EXPECT_EQ(w.core(0, 1), pd::Status::out_of_order) << "the first error sticks";
  }
  const struct {
    const char* what;
    const pd::TaskInfo* list;
    std::size_t n;
    pd::Status want;
  } task_cases[] = {{"ids repeated", twice, 2, pd::Status::bad_argument},
                    {"the no-task id listed", no_task, 1, pd::Status::bad_argument},
                    {"list missing", nullptr, 1, pd::Status::bad_argument},
                    {"a 256-byte name", long_task, 1, pd::Status::string_too_long},
                    {"no task", nullptr, 0, pd::Status::ok}};
  for (const auto& k : task_cases) {
    VectorSink out;
    pd::Writer w = fresh(out);
    EXPECT_EQ(w.tasks(k.list, k.n), k.want) << k.what;
  }
  {
    VectorSink out;
    pd::Writer w = fresh(out);
    EXPECT_EQ(w.core(1, 2), pd::Status::ok);
    EXPECT_EQ(w.core(1, 2), pd::Status::out_of_order) << "CORE twice";
  }
  for (const auto& [number, cores] : {std::pair{2, 2}, std::pair{0, 0}}) {
    VectorSink out;
    pd::Writer w = fresh(out);
    EXPECT_EQ(w.core(static_cast<std::uint8_t>(number), static_cast<std::uint8_t>(cores)), pd::Status::bad_argument)
        << "core " << number << " of " << cores;
  }
  {
    VectorSink out;
    pd::Writer w = fresh(out);
    EXPECT_EQ(w.task_counts(1, 1, two, 2), pd::Status::out_of_order) << "TASK_COUNTS before COUNTERS";
  }
  {
    VectorSink out;
    pd::Writer w = fresh(out);
    w.counters(c, 2);
    EXPECT_EQ(w.task_counts(1, 1, two, 1), pd::Status::stats_mismatch) << "one count short";
  }
  {
    VectorSink out;
    pd::Writer w = fresh(out);
    w.counters(c, 2);
    EXPECT_EQ(w.task_counts(1, 1, nullptr, 2), pd::Status::bad_argument) << "counts missing";
  }
  {
    VectorSink out;
    pd::Writer w = fresh(out);
    w.counters(c, 2);
    EXPECT_EQ(w.task_counts(1, 1, two, 2), pd::Status::ok);
    EXPECT_EQ(w.task_counts(pd::kNoTask, 0, two, 2), pd::Status::ok) << "the time no task was current";
    EXPECT_EQ(w.task_counts(1, 1, two, 2), pd::Status::out_of_order) << "the same task twice";
    EXPECT_EQ(w.finish(), pd::Status::out_of_order);
  }
}

TEST(DumpWriter, ImageArgumentsAreChecked) {
  const std::uint8_t id[65] = {};
  struct Case {
    pd::ImageInfo im;
    pd::Status want;
  } const cases[] = {
      {{3, id, 65, 0, 0, 0}, pd::Status::bad_argument},          // longer than kMaxBuildId
      {{3, nullptr, 4, 0, 0, 0}, pd::Status::bad_argument},      // bytes missing
      {{3, nullptr, 0, 0x20, 0x10, 0}, pd::Status::bad_argument},  // inverted range
      {{3, nullptr, 0, 0x10, 0x100000000ull, 0}, pd::Status::address_too_wide},
  };
  for (const Case& c : cases) {
    VectorSink out;
    pd::Writer w(out.sink(), pd::ByteOrder::little);
    w.begin({"a", "b", 1, 32, 4});
    EXPECT_EQ(w.image(c.im), c.want);
  }
}

// The GNU note the linker writes, parsed in target byte order; anything else gives no build-id.
TEST(DumpImage, BuildIdNote) {
  auto note = [](std::uint32_t namesz, std::uint32_t descsz, std::uint32_t type, const char* name, unsigned extra) {
    Bytes b(16 + extra);
    std::memcpy(b.data(), &namesz, 4);
    std::memcpy(b.data() + 4, &descsz, 4);
    std::memcpy(b.data() + 8, &type, 4);
    std::memcpy(b.data() + 12, name, 4);
    for (unsigned i = 0; i < extra; ++i) b[16 + i] = static_cast<std::uint8_t>(0xa0 + i);
    return b;
  };
  pd::ImageInfo im{};
  const Bytes good = note(4, 20, 3, "GNU", 20);
  ASSERT_TRUE(pd::parse_build_id_note(good.data(), good.data() + good.size(), im));
  EXPECT_EQ(im.build_id_len, 20u);
  EXPECT_EQ(im.build_id, good.data() + 16);
  const Bytes wrong_type = note(4, 20, 1, "GNU", 20), wrong_name = note(4, 20, 3, "GNX", 20),
              torn = note(4, 20, 3, "GNU", 19), empty = note(4, 0, 3, "GNU", 0),
              too_long = note(4, 65, 3, "GNU", 65);
  for (const Bytes* b : {&wrong_type, &wrong_name, &torn, &empty, &too_long}) {
    pd::ImageInfo none{};
    EXPECT_FALSE(pd::parse_build_id_note(b->data(), b->data() + b->size(), none));
    EXPECT_EQ(none.build_id_len, 0u);
  }
  EXPECT_FALSE(pd::parse_build_id_note(nullptr, nullptr, im));
}

// A host program has no __pmukit_* symbols: machine only, no build-id, no code range.
TEST(DumpImage, WithoutLinkerSymbolsOnlyTheMachine) {
  const pd::ImageInfo im = pd::this_image();
  EXPECT_EQ(im.elf_machine, pd::elf_machine());
  EXPECT_NE(im.elf_machine, 0u);
  EXPECT_EQ(im.build_id_len, 0u);
  EXPECT_EQ(im.code_lo, im.code_hi);
}

TEST(DumpImage, CrcOfMemory) {
  const char check[] = "123456789";
  const auto* p = reinterpret_cast<const std::uint8_t*>(check);
  EXPECT_EQ(pd::crc_of_memory(p, p + 9), 0xCBF43926u);
}

}  // namespace

// One sample per interrupt (issue 32 item 3): a Sampler fed the interrupted context into a
// StackRing records each interrupt once, with its stack, and write_dump writes that ring as the
// dump's samples: STACKS entries, no SAMPLES records, the ring's drops in the sample source.
// Giving the same stacks again as extras is refused.
namespace {
struct StackSamplerTag;
}  // namespace

TEST(DumpWriter, AStackRingSamplerWritesOneSamplePerInterrupt) {
  using Bus = pmu::MockBus<StackSamplerTag>;
  using Xs = pmu::xscale::Xsc2<Bus>;
  pmu::xscale::Xsc2Model model;
  Bus::reset();
  Bus::device = &model;
  prof::Profiler<Xs> p;
  prof::Counter cycles;
  ASSERT_EQ(p.add(pmu::Preset::cycles, cycles), pmu::Status::ok);
  p.start();
  prof::Regions<Xs> regions{p};
  prof::RegionStats<Xs>* const* no_regions = nullptr;
  using Ring = prof::StackRing<4, 16>;
  static Ring ring;
  ring.reset();
  ring.set_stack_top(1);  // sp 0, top 1: nothing to copy (the host's stack is no 32-bit address)
  prof::Sampler<Xs, Ring> sampler{p, ring};
  for (std::uint32_t i = 0; i < 6; ++i) sampler.on_timer_tick(prof::StackContext{0x100 + 4 * i, 0x200, 0, 0});
  EXPECT_EQ(sampler.interrupts(), 6u);
  EXPECT_EQ(ring.size(), 4u);
  dumptest::VectorSink out;
  pd::Writer w(out.sink(), pd::ByteOrder::little);
  const prof::DumpSamples source{pd::SampleSourceKind::timer, pd::kNoCounter, 1000};
  ASSERT_EQ(prof::write_dump(w, {"xscale", 0}, p, regions, no_regions, 0, &source, &ring), pd::Status::ok);
  const pmukit::Dump d = pmukit::decode_dump(out.bytes.data(), out.bytes.size());
  EXPECT_EQ(d.stacks.size(), 4u);
  EXPECT_EQ(d.total_samples(), 4u) << "each interrupt once, not once per ring";
  EXPECT_EQ(d.stacks_dropped, std::optional<std::uint64_t>(2));
  ASSERT_TRUE(d.source.has_value());
  EXPECT_EQ(d.source->dropped, 2u);
  EXPECT_EQ(d.stacks[0].pc, 0x100u);
  const prof::StackView view = prof::StackView::of(ring);
  dumptest::VectorSink out2;
  pd::Writer w2(out2.sink(), pd::ByteOrder::little);
  EXPECT_EQ(prof::write_dump(w2, {"xscale", 0}, p, regions, no_regions, 0, &source, &ring, {.stacks = &view}),
            pd::Status::bad_argument);
  Bus::device = nullptr;
}
