// A command's -o file, written without ever replacing what the command does not own.
//   - a new name, or a regular file with no other hard link: written beside it and renamed into
//     place when complete, so a failed run leaves neither half a report nor a temporary file;
//   - a regular file with other hard links: written in place, so every name sees the report
//     (a rename would leave the other names on the old content);
//   - anything else (a device node, a FIFO, a socket): written through, as a shell's `>` does,
//     so `-o /dev/null` stays the device and `/dev/full`'s ENOSPC is an error;
//   - a symbolic link: followed, and the rules above applied to what it names.
// An output that is one of the command's inputs (a path, a link or a hard link to it, or the file
// behind standard input when an input is "-") is refused before anything is opened.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace pmukit {

// Throws OutputError when `path` is one of `inputs` (empty entries are ignored).
void refuse_output_over_inputs(const std::string& path, const std::vector<std::string>& inputs);

// Writes `body`'s output to `path` by the rules above; throws OutputError with the reason.
void write_output_file(const std::string& path, const std::function<void(std::ostream&)>& body);

}  // namespace pmukit
