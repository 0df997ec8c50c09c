#pragma once
// Text frames in a UART log -> the dump bytes they carry (docs/dump-format.md, "Text frames").
// Lines that are not frame lines (console output) are ignored; a frame line may have anything
// before its "@PMUD" tag (timestamps added by a terminal program).
#include <cstddef>
#include <string>
#include <vector>

namespace pmukit {

struct TextFrame {
  std::size_t begin_line = 0;  // 1-based line numbers in the log
  std::size_t end_line = 0;    // 0 while the frame has no END line
  std::vector<unsigned char> bytes;
  std::string error;  // non-empty: the frame is unusable, and this says why and on which line
};

struct TextFrames {
  std::size_t count = 0;  // frames in the log (BEGIN lines)
  TextFrame chosen;       // the one asked for; empty when the log has fewer
};

// The number of frames in the log and frame `want` (1-based; 0: the last). Only that frame is
// kept, so memory is one frame's however many BEGIN lines the log holds. Never throws for bad
// frame content: a broken frame carries its error, so a log with one broken and one good dump
// still yields the good one.
TextFrames find_text_frames(const char* text, std::size_t size, std::size_t want = 0);

}  // namespace pmukit
