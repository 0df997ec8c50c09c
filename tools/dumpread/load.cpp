#include "tools/dumpread/load.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "tools/dumpread/binary_decoder.hpp"
#include "tools/dumpread/decode_error.hpp"
#include "tools/dumpread/text_frames.hpp"

namespace pmukit {

LoadedDump load_dump(const std::vector<unsigned char>& input, std::size_t frame) {
  if (has_dump_magic(input.data(), input.size())) {
    if (frame > 1) throw DecodeError("--frame " + std::to_string(frame) + ": a binary dump has one");
    return {decode_dump(input.data(), input.size()), "binary"};
  }
  const std::vector<TextFrame> frames =
      find_text_frames(reinterpret_cast<const char*>(input.data()), input.size());
  if (frames.empty())
    throw DecodeError("no dump found: not a binary dump (no 'PMUD' magic at offset 0) and no "
                      "'@PMUD BEGIN' line in the text");
  if (frame > frames.size())
    throw DecodeError("--frame " + std::to_string(frame) + ": the log has only " +
                      std::to_string(frames.size()) + " dump frame(s)");
  const std::size_t index = frame == 0 ? frames.size() : frame;
  const TextFrame& f = frames[index - 1];
  std::string name = "text frame " + std::to_string(index) + " of " + std::to_string(frames.size());
  if (!f.error.empty()) throw DecodeError(name + ": " + f.error);
  name += " (lines " + std::to_string(f.begin_line) + "-" + std::to_string(f.end_line) + ")";
  try {
    return {decode_dump(f.bytes.data(), f.bytes.size()), name};
  } catch (const DecodeError& e) {
    throw DecodeError(name + ": " + e.what());
  }
}

std::vector<unsigned char> read_stream(std::FILE* f, const std::string& name) {
  std::vector<unsigned char> data;
  unsigned char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    data.insert(data.end(), buf, buf + n);
    if (data.size() > kMaxInputBytes)
      throw DecodeError(name + ": larger than " + std::to_string(kMaxInputBytes >> 20) +
                        " MiB, the most a dump or UART log is read (a firmware dump is kilobytes; "
                        "this is not one)");
  }
  if (std::ferror(f) != 0) throw DecodeError("cannot read " + name + ": " + std::strerror(errno));
  return data;
}

std::vector<unsigned char> read_file(const std::string& path) {
  if (path == "-") return read_stream(stdin, "<stdin>");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw DecodeError("cannot open '" + path + "': " + std::strerror(errno));
  try {
    std::vector<unsigned char> data = read_stream(f, "'" + path + "'");
    std::fclose(f);
    return data;
  } catch (...) {
    std::fclose(f);
    throw;
  }
}

}  // namespace pmukit
