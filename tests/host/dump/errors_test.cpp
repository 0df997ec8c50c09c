// Every decoding error: one message that says what is wrong and where, never a crash.
#include <gtest/gtest.h>

#include <string>

#include "fixtures.hpp"
#include "tools/dumpread/binary_decoder.hpp"
#include "tools/dumpread/decode_error.hpp"
#include "tools/dumpread/load.hpp"

namespace {

namespace pd = pmu::dump;
using dumptest::Bytes;

std::string decode_error(const Bytes& b) {
  try {
    pmukit::decode_dump(b.data(), b.size());
  } catch (const pmukit::DecodeError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string load_error(const std::string& text, std::size_t frame = 0) {
  try {
    pmukit::load_dump(Bytes(text.begin(), text.end()), frame);
  } catch (const pmukit::DecodeError& e) {
    return e.what();
  }
  return "(no error)";
}

// The line (1-based) of the log that holds `text`.
std::size_t line_of(const std::string& log, const std::string& text) {
  const std::size_t at = log.find(text);
  std::size_t line = 1;
  for (std::size_t i = 0; i < at; ++i) line += log[i] == '\n';
  return line;
}

// Replaces line `n` (1-based) of the log.
std::string with_line(const std::string& log, std::size_t n, const std::string& replacement) {
  std::size_t at = 0;
  for (std::size_t i = 1; i < n; ++i) at = log.find('\n', at) + 1;
  const std::size_t end = log.find('\n', at);
  return log.substr(0, at) + replacement + log.substr(end);
}
std::string line_text(const std::string& log, std::size_t n) {
  std::size_t at = 0;
  for (std::size_t i = 1; i < n; ++i) at = log.find('\n', at) + 1;
  return log.substr(at, log.find('\n', at) - at);
}

TEST(DumpErrors, NoMagic) {
  EXPECT_EQ(decode_error({'E', 'L', 'F', 0, 1, 2}), "not a pmukit dump: no 'PMUD' magic at offset 0");
  EXPECT_EQ(load_error("just a console log\n"),
            "no dump found: not a binary dump (no 'PMUD' magic at offset 0) and no '@PMUD BEGIN' "
            "line in the text");
}

TEST(DumpErrors, TruncatedHeader) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::big);
  b.resize(10);
  EXPECT_EQ(decode_error(b), "truncated dump: the 16-byte header is cut off at byte 10");
}

TEST(DumpErrors, TruncatedInsideAChunk) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::little);
  const auto c = dumptest::chunks(b);
  const dumptest::ChunkAt samples = c[c.size() - 2];
  ASSERT_EQ(samples.type, 5u);
  b.resize(samples.offset + 8 + 10);
  EXPECT_EQ(decode_error(b), "truncated dump: SAMPLES chunk at offset " +
                                 std::to_string(samples.offset) + " declares " +
                                 std::to_string(samples.length) + " payload bytes, only 10 left");
}

TEST(DumpErrors, TruncatedBeforeEnd) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::big);
  const std::size_t end = dumptest::chunks(b).back().offset;
  b.resize(end + 3);
  EXPECT_EQ(decode_error(b), "truncated dump: ends at byte " + std::to_string(end + 3) +
                                 " inside the chunk header at offset " + std::to_string(end) +
                                 " (no END chunk)");
}

TEST(DumpErrors, EveryTruncationIsAnErrorNotACrash) {
  for (pd::ByteOrder order : {pd::ByteOrder::little, pd::ByteOrder::big}) {
    for (const Bytes& full : {dumptest::profile_dump(order), dumptest::mux_dump(order)}) {
      for (std::size_t n = 0; n < full.size(); ++n) {
        const std::string e = decode_error(Bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n)));
        if (n < 4)
          EXPECT_EQ(e.rfind("not a pmukit dump", 0), 0u) << n;
        else
          EXPECT_EQ(e.rfind("truncated dump: ", 0), 0u) << n << ": " << e;
      }
    }
  }
}

TEST(DumpErrors, BadCrc) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::big);
  const dumptest::ChunkAt end = dumptest::chunks(b).back();
  b[40] ^= 0x01;  // one flipped bit in the TARGET chunk
  char stored[16], computed[16];
  std::snprintf(stored, sizeof stored, "0x%08x", pd::crc32(dumptest::profile_dump(pd::ByteOrder::big).data(), end.offset + 8));
  std::snprintf(computed, sizeof computed, "0x%08x", pd::crc32(b.data(), end.offset + 8));
  EXPECT_EQ(decode_error(b), "bad CRC-32: END chunk at offset " + std::to_string(end.offset) +
                                 " says " + stored + ", bytes 0.." +
                                 std::to_string(end.offset + 7) + " give " + computed +
                                 " (the dump is corrupted)");
}

TEST(DumpErrors, EveryFlippedBitIsCaught) {
  const Bytes good = dumptest::histogram_dump(pd::ByteOrder::little);
  for (std::size_t i = 0; i < good.size(); ++i) {
    Bytes b = good;
    b[i] ^= 0x10;
    EXPECT_NE(decode_error(b), "(no error)") << "byte " << i;
  }
}

TEST(DumpErrors, WrongVersion) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::little);
  dumptest::put_u16(b, 8, 2, pd::ByteOrder::little);
  dumptest::put_u16(b, 10, 3, pd::ByteOrder::little);
  dumptest::fix_crc(b, pd::ByteOrder::little);
  EXPECT_EQ(decode_error(b), "unsupported dump version 2.3 at offset 8 (this pmukit reads 1.x)");
}

TEST(DumpErrors, UnknownEndiannessTag) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::big);
  b[4] = 0x02;
  b[5] = 0x01;
  EXPECT_EQ(decode_error(b),
            "unknown endianness tag 02 01 03 04 at offset 4 (expected 01 02 03 04 for big-endian "
            "or 04 03 02 01 for little-endian)");
}

TEST(DumpErrors, BadHeaderSize) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::big);
  dumptest::put_u16(b, 12, 8, pd::ByteOrder::big);
  EXPECT_EQ(decode_error(b), "bad header size 8 at offset 12 (at least 16)");
}

TEST(DumpErrors, UnknownRequiredChunk) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::big);
  const std::size_t at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::big, 0x0456, pd::kChunkRequired, {9});
  EXPECT_EQ(decode_error(b), "chunk type 0x0456 at offset " + std::to_string(at) +
                                 " is marked required but this pmukit does not know it (a "
                                 "newer dump format?)");
}

TEST(DumpErrors, ChunkTooShortForItsFields) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::little);
  const std::size_t at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::little, 3, 0, {1, 'x', 5});  // REGION, 3 bytes
  EXPECT_EQ(decode_error(b), "REGION chunk at offset " + std::to_string(at) +
                                 ": too short for call count at offset " + std::to_string(at + 10) +
                                 " (needs 8 bytes, 1 left)");
}

TEST(DumpErrors, SampleCountLargerThanTheChunk) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::little);
  const std::size_t at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::little, 5, 0, {0xFF, 0xFF, 0xFF, 0xFF});
  EXPECT_EQ(decode_error(b), "SAMPLES chunk at offset " + std::to_string(at) +
                                 ": 4294967295 samples need 34359738360 bytes, only 0 left");
}

TEST(DumpErrors, SecondTargetChunk) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::big);
  const std::size_t at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::big, 1, 0, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 4});
  EXPECT_EQ(decode_error(b), "TARGET chunk at offset " + std::to_string(at) + ": second TARGET chunk");
}

// Multiplexing (1.4): the decoder's rules for MUX_EVENTS and MUX_REGION, each with its message.
namespace {
// The offset of the first chunk of `type`.
std::size_t chunk_of(const Bytes& b, unsigned type) {
  for (const dumptest::ChunkAt& c : dumptest::chunks(b))
    if (c.type == type) return c.offset;
  ADD_FAILURE() << "no chunk of type " << type;
  return 0;
}
void put_u64(Bytes& b, std::size_t at, std::uint64_t v, pd::ByteOrder order) {
  const bool big = order == pd::ByteOrder::big;
  dumptest::put_u32(b, at + (big ? 0 : 4), static_cast<std::uint32_t>(v >> 32), order);
  dumptest::put_u32(b, at + (big ? 4 : 0), static_cast<std::uint32_t>(v), order);
}
}  // namespace

TEST(DumpErrors, MuxRunningLongerThanEnabled) {
  for (pd::ByteOrder order : {pd::ByteOrder::little, pd::ByteOrder::big}) {
    Bytes b = dumptest::mux_dump(order);
    const std::size_t at = chunk_of(b, 0x000C);  // 'dma_copy': name 9 bytes, flags, calls, count
    put_u64(b, at + 8 + 19 + 16, 1000001, order);  // the first value's running
    dumptest::fix_crc(b, order);
    EXPECT_EQ(decode_error(b), "MUX_REGION chunk at offset " + std::to_string(at) +
                                   ": region 'dma_copy', event 'CCNT': running 1000001 ticks, more than its "
                                   "1000000 enabled (the dump is inconsistent)");
  }
}

TEST(DumpErrors, MuxValueCountDiffersFromTheEvents) {
  Bytes b = dumptest::mux_dump(pd::ByteOrder::big);
  const std::size_t at = chunk_of(b, 0x000C);
  b.at(at + 8 + 18) = 3;
  dumptest::fix_crc(b, pd::ByteOrder::big);
  EXPECT_EQ(decode_error(b), "MUX_REGION chunk at offset " + std::to_string(at) +
                                 ": region 'dma_copy' has 3 multiplexed values, the MUX_EVENTS chunk has 4 events");
}

TEST(DumpErrors, MuxRegionBeforeMuxEvents) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::little);
  const std::size_t at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::little, 0x000C, 0, {1, 'x', 0, 1, 0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(decode_error(b), "MUX_REGION chunk at offset " + std::to_string(at) +
                                 ": MUX_REGION before the MUX_EVENTS chunk");
}

TEST(DumpErrors, MuxEventsBeforeCountersAndTwice) {
  Bytes b = dumptest::stacks_dump(pd::ByteOrder::big);  // no COUNTERS chunk
  std::size_t at = dumptest::chunks(b).back().offset;
  const Bytes none(17, 0);  // clock, rotations, no event
  dumptest::insert_chunk(b, pd::ByteOrder::big, 0x000B, 0, none);
  EXPECT_EQ(decode_error(b), "MUX_EVENTS chunk at offset " + std::to_string(at) + ": MUX_EVENTS before the COUNTERS chunk");
  b = dumptest::mux_dump(pd::ByteOrder::big);
  at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::big, 0x000B, 0, none);
  EXPECT_EQ(decode_error(b), "MUX_EVENTS chunk at offset " + std::to_string(at) + ": second MUX_EVENTS chunk");
}

TEST(DumpErrors, MuxChunksTooShortForTheirFields) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::little);
  std::size_t at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::little, 0x000B, 0, Bytes(8, 0));  // the clock only
  EXPECT_EQ(decode_error(b), "MUX_EVENTS chunk at offset " + std::to_string(at) +
                                 ": too short for rotations at offset " + std::to_string(at + 16) +
                                 " (needs 8 bytes, 0 left)");
  b = dumptest::mux_dump(pd::ByteOrder::little);
  at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::little, 0x000C, 0, {1, 'x', 0, 1, 0, 0});  // calls cut short
  EXPECT_EQ(decode_error(b), "MUX_REGION chunk at offset " + std::to_string(at) +
                                 ": too short for call count at offset " + std::to_string(at + 11) +
                                 " (needs 8 bytes, 3 left)");
}

TEST(DumpErrors, BinaryDumpHasOneFrame) {
  const Bytes b = dumptest::profile_dump(pd::ByteOrder::big);
  try {
    pmukit::load_dump(b, 2);
    FAIL();
  } catch (const pmukit::DecodeError& e) {
    EXPECT_STREQ(e.what(), "--frame 2: a binary dump has one");
  }
}

class TextErrors : public ::testing::Test {
 protected:
  const std::string log = dumptest::profile_log(pd::ByteOrder::big);
  const std::size_t first = line_of(log, "@PMUD 0000 ");
  const std::size_t begin = line_of(log, "@PMUD BEGIN");
};

TEST_F(TextErrors, CorruptedHexDigitIsReportedByLineNumber) {
  std::string line = line_text(log, first + 1);
  ASSERT_EQ(line.rfind("@PMUD 0001 ", 0), 0u) << line;
  line[20] = line[20] == '0' ? '1' : '0';
  const std::string e = load_error(with_line(log, first + 1, line));
  EXPECT_EQ(e.rfind("text frame 1 of 1: line " + std::to_string(first + 1) + ": frame line check ", 0), 0u) << e;
  EXPECT_NE(e.find("does not match its content"), std::string::npos) << e;
}

TEST_F(TextErrors, NonHexCharacter) {
  std::string line = line_text(log, first);
  line[15] = 'g';
  EXPECT_EQ(load_error(with_line(log, first, line)),
            "text frame 1 of 1: line " + std::to_string(first) +
                ": frame line has a non-hex character in its data");
}

TEST_F(TextErrors, LostLine) {
  const std::string e = load_error(with_line(log, first + 1, "(line lost)"));
  EXPECT_EQ(e, "text frame 1 of 1: line " + std::to_string(line_of(log, "@PMUD 0002")) +
                   ": frame line has sequence 0002, expected 0001 (lines lost)");
}

TEST_F(TextErrors, OutputInsideAFrameLine) {
  const std::string line = line_text(log, first) + " hello";
  EXPECT_EQ(load_error(with_line(log, first, line)),
            "text frame 1 of 1: line " + std::to_string(first) +
                ": frame line does not have 3 fields (seq data check)");
}

TEST_F(TextErrors, OddHexDigits) {
  std::string line = line_text(log, first);
  line.erase(20, 1);
  EXPECT_EQ(load_error(with_line(log, first, line)),
            "text frame 1 of 1: line " + std::to_string(first) +
                ": frame line has 63 hex digits (an even number up to 64)");
}

TEST_F(TextErrors, BadSequenceField) {
  std::string line = line_text(log, first);
  line[6] = 'x';
  EXPECT_EQ(load_error(with_line(log, first, line)),
            "text frame 1 of 1: line " + std::to_string(first) +
                ": frame line has a bad sequence field 'x000'");
}

TEST_F(TextErrors, MissingEnd) {
  const std::string cut = log.substr(0, log.find("@PMUD END"));
  EXPECT_EQ(load_error(cut), "text frame 1 of 1: line " + std::to_string(begin) +
                                 ": has no END line (the log ends inside the frame)");
}

TEST_F(TextErrors, EndCountsDisagree) {
  const std::size_t end = line_of(log, "@PMUD END");
  EXPECT_EQ(load_error(with_line(log, end, "@PMUD END 1 32")),
            "text frame 1 of 1: line " + std::to_string(end) +
                ": END line says 1 lines and 32 bytes, the frame has " +
                line_text(log, end).substr(10, line_text(log, end).find(' ', 10) - 10) +
                " lines and " + line_text(log, end).substr(line_text(log, end).rfind(' ') + 1) +
                " bytes");
}

TEST_F(TextErrors, RestartMidDump) {
  const std::string cut = log.substr(0, log.find("@PMUD 0003")) + log.substr(log.find("@PMUD BEGIN"));
  // The interrupted first frame is broken; the complete second one is the default (last).
  EXPECT_EQ(load_error(cut, 0), "(no error)");
  EXPECT_EQ(load_error(cut, 1).rfind("text frame 1 of 2: line ", 0), 0u);
  EXPECT_NE(load_error(cut, 1).find(": is interrupted by a new BEGIN line (the target restarted mid-dump?)"),
            std::string::npos);
  EXPECT_EQ(load_error(cut, 3), "--frame 3: the log has only 2 dump frame(s)");
}

TEST_F(TextErrors, UnknownFrameVersion) {
  EXPECT_EQ(load_error(with_line(log, begin, "@PMUD BEGIN 9")),
            "text frame 1 of 1: line " + std::to_string(begin) +
                ": uses text frame version 9 (this pmukit reads version 1)");
}

TEST_F(TextErrors, GoodLinesWithABadDumpInside) {
  // Well-formed lines whose payload is not a dump: the binary decoder's error, with the frame.
  const std::string text = "@PMUD BEGIN 1\n@PMUD 0000 504d5544 " + [] {
    const std::uint8_t d[] = {0, 0, 'P', 'M', 'U', 'D'};
    char buf[8];
    std::snprintf(buf, sizeof buf, "%04x", pd::crc32(d, sizeof d) & 0xFFFF);
    return std::string(buf);
  }() + "\n@PMUD END 1 4\n";
  EXPECT_EQ(load_error(text), "text frame 1 of 1 (lines 1-3): truncated dump: the 16-byte header is cut off at byte 4");
}

}  // namespace

// Tasks and cores (1.5): each rule of docs/dump-format.md's TASKS, SAMPLE_TAGS, TASK_COUNTS and
// CORE rows, with its message naming the chunk's offset. Each test breaks one rule of a dump that
// decodes (dumptest::tasks_dump), so it fails where the rule is not checked.
TEST(DumpErrors, SampleTagsOnlyRightAfterASampleChunk) {
  Bytes b = dumptest::tasks_dump(pd::ByteOrder::big);
  std::size_t at = dumptest::chunks(b).back().offset;  // after the last TASK_COUNTS
  dumptest::insert_chunk(b, pd::ByteOrder::big, 0x000E, 0, {0, 0, 0, 0, 0});
  EXPECT_EQ(decode_error(b), "SAMPLE_TAGS chunk at offset " + std::to_string(at) +
                                 ": must come right after a SAMPLES, STACKS or FRAMES chunk (it follows TASK_COUNTS)");
  b = dumptest::histogram_dump(pd::ByteOrder::big);  // after HISTOGRAM: its bins are not tagged
  at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::big, 0x000E, 0, {0, 0, 0, 3, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0});
  EXPECT_EQ(decode_error(b), "SAMPLE_TAGS chunk at offset " + std::to_string(at) +
                                 ": must come right after a SAMPLES, STACKS or FRAMES chunk (it follows HISTOGRAM)");
}

TEST(DumpErrors, SampleTagsCountIsTheSampleChunksCount) {
  for (pd::ByteOrder order : {pd::ByteOrder::little, pd::ByteOrder::big}) {
    Bytes b = dumptest::tasks_dump(order);
    const std::size_t at = chunk_of(b, 0x000E);  // the SAMPLES' tags
    dumptest::put_u32(b, at + 8, 13, order);
    dumptest::fix_crc(b, order);
    EXPECT_EQ(decode_error(b), "SAMPLE_TAGS chunk at offset " + std::to_string(at) +
                                   ": 13 tags, the SAMPLES chunk before it has 14 samples");
  }
}

TEST(DumpErrors, SampleTagsReservedFlagBits) {
  Bytes b = dumptest::tasks_dump(pd::ByteOrder::little);
  const std::size_t at = chunk_of(b, 0x000E);
  b.at(at + 12) = 0x07;
  dumptest::fix_crc(b, pd::ByteOrder::little);
  EXPECT_EQ(decode_error(b), "SAMPLE_TAGS chunk at offset " + std::to_string(at) + ": reserved flag bits 0x04 set");
}

// "task id (0xFFFF: no task; written as 0xFFFF when bit 0 is clear) and core (0 when bit 1 is clear)".
TEST(DumpErrors, SampleTagsAbsentTagsAreNoTaskAndCoreZero) {
  Bytes b = dumptest::tasks_dump(pd::ByteOrder::little);
  const std::size_t at = chunk_of(b, 0x000E);
  b.at(at + 12) = pd::kTagCore;  // the tasks are written (net: 1)
  dumptest::fix_crc(b, pd::ByteOrder::little);
  EXPECT_EQ(decode_error(b), "SAMPLE_TAGS chunk at offset " + std::to_string(at) +
                                 ": tag 0 has task 1 but the flags say no task ids (must be 0xFFFF)");
  b = dumptest::tasks_dump(pd::ByteOrder::little);
  b.at(at + 12) = pd::kTagTask;  // the 6th sample is on core 1
  dumptest::fix_crc(b, pd::ByteOrder::little);
  EXPECT_EQ(decode_error(b), "SAMPLE_TAGS chunk at offset " + std::to_string(at) +
                                 ": tag 5 has core 1 but the flags say no core numbers (must be 0)");
}

TEST(DumpErrors, TaskCountsOnePerCounterAfterCountersOncePerTask) {
  Bytes b = dumptest::tasks_dump(pd::ByteOrder::big);
  std::size_t at = chunk_of(b, 0x000F);
  b.at(at + 8 + 10) = 1;  // one count, COUNTERS has two
  dumptest::fix_crc(b, pd::ByteOrder::big);
  EXPECT_EQ(decode_error(b), "TASK_COUNTS chunk at offset " + std::to_string(at) +
                                 ": task 1 has 1 counts, the COUNTERS chunk has 2 counters");
  b = dumptest::tasks_dump(pd::ByteOrder::big);
  at = dumptest::chunks(b).back().offset;
  Bytes again = {0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 2};  // crc again, one switch in, two counts
  again.resize(again.size() + 16, 0);
  dumptest::insert_chunk(b, pd::ByteOrder::big, 0x000F, 0, again);
  EXPECT_EQ(decode_error(b), "TASK_COUNTS chunk at offset " + std::to_string(at) + ": second TASK_COUNTS chunk for task 2");
  b = dumptest::stacks_dump(pd::ByteOrder::big);  // no COUNTERS chunk
  at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::big, 0x000F, 0, {0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0});
  EXPECT_EQ(decode_error(b), "TASK_COUNTS chunk at offset " + std::to_string(at) + ": TASK_COUNTS before the COUNTERS chunk");
}

TEST(DumpErrors, TasksOnceWithUniqueIdsNeverNoTask) {
  Bytes b = dumptest::tasks_dump(pd::ByteOrder::big);
  std::size_t at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::big, 0x000D, 0, {0, 0});
  EXPECT_EQ(decode_error(b), "TASKS chunk at offset " + std::to_string(at) + ": second TASKS chunk");
  b = dumptest::profile_dump(pd::ByteOrder::big);
  at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::big, 0x000D, 0, {0, 2, 0, 5, 1, 'a', 0, 5, 1, 'b'});
  EXPECT_EQ(decode_error(b), "TASKS chunk at offset " + std::to_string(at) + ": task id 5 listed twice ('a' and 'b')");
  b = dumptest::profile_dump(pd::ByteOrder::big);
  dumptest::insert_chunk(b, pd::ByteOrder::big, 0x000D, 0, {0, 1, 0xFF, 0xFF, 1, 'a'});
  EXPECT_EQ(decode_error(b), "TASKS chunk at offset " + std::to_string(at) +
                                 ": task 'a' has the id 0xFFFF, reserved for no task");
}

TEST(DumpErrors, CoreOnceAndOneOfTheCores) {
  Bytes b = dumptest::tasks_dump(pd::ByteOrder::little);
  std::size_t at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::little, 0x0010, 0, {1, 2});
  EXPECT_EQ(decode_error(b), "CORE chunk at offset " + std::to_string(at) + ": second CORE chunk");
  b = dumptest::profile_dump(pd::ByteOrder::little);
  at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::little, 0x0010, 0, {2, 2});
  EXPECT_EQ(decode_error(b), "CORE chunk at offset " + std::to_string(at) +
                                 ": core 2 of 2 cores (the number must be below the count)");
}

TEST(DumpErrors, TaskChunksTooShortForTheirFields) {
  Bytes b = dumptest::profile_dump(pd::ByteOrder::little);
  const std::size_t at = dumptest::chunks(b).back().offset;
  dumptest::insert_chunk(b, pd::ByteOrder::little, 0x0010, 0, {0});
  EXPECT_EQ(decode_error(b), "CORE chunk at offset " + std::to_string(at) + ": too short for cores at offset " +
                                 std::to_string(at + 9) + " (needs 1 bytes, 0 left)");
}
