#pragma once
// A dump from whatever carried it: a binary blob (semihosting file, debugger memory dump) or a
// UART log with text frames. Throws DecodeError; the message names the frame/line/offset.
#include <cstddef>
#include <string>
#include <vector>

#include "tools/dumpread/binary_decoder.hpp"
#include "tools/dumpread/dump.hpp"

namespace pmukit {

struct LoadedDump {
  Dump dump;
  std::string carrier;  // "binary" or "text frame 2 of 3 (lines 10-52)"
};

// frame: 1-based index of the text frame to use; 0 = the last one in the log.
LoadedDump load_dump(const std::vector<unsigned char>& input, std::size_t frame = 0,
                     const DecodeOptions& options = {});
LoadedDump load_dump(const unsigned char* input, std::size_t size, std::size_t frame = 0,
                     const DecodeOptions& options = {});

// load_dump() of a file ("-": standard input). A file is mapped, not copied, and a binary dump's
// pages are dropped as the decoder passes them (without options.raw_samples), so memory stays
// proportional to the distinct samples however long the dump. Same size limit as read_file().
LoadedDump load_dump_file(const std::string& path, std::size_t frame = 0, DecodeOptions options = {});

// The whole file; throws DecodeError if it cannot be read.
// Reads a whole input ("-": standard input), refusing one larger than kMaxInputBytes: a dump is
// kilobytes and a UART log megabytes, so a bigger input (a device, /dev/zero) is an error, not
// an exhausted memory.
inline constexpr std::size_t kMaxInputBytes = std::size_t{256} << 20;
std::vector<unsigned char> read_file(const std::string& path);

}  // namespace pmukit
