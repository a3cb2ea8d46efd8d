// The C++ side of the seam with the orchestrator (contract/protocol.schema.json, docs/contract.md):
// the protocol version every document carries and the characters the documents' words may not
// contain. The version is read from the schema file by CMake (STALLBENCH_PROTOCOL), so the schema
// is the one place it is written; a change of shape there is a new version.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#ifndef STALLBENCH_PROTOCOL
#error "STALLBENCH_PROTOCOL comes from contract/protocol.schema.json (benches/CMakeLists.txt)"
#endif

namespace stallbench::bench {

inline constexpr int kProtocolVersion = STALLBENCH_PROTOCOL;

// What separates words where the harness joins them: cell names (bench/name:value), rows' params
// (key=value;key=value), grid lists (v1,v2), Google Benchmark counters (metric#index) and command
// lines (whitespace). No parameter value may contain one.
inline constexpr std::string_view kSeparators = "/:;=,# \t";
// A cell whose parameter value names Node (runtime `node`) runs once per chosen Node line, and the
// line is a parameter of its own, this one (node_line=26): results keep the runtime and its version
// as two keys. A benchmark has it when one of its parameters has node_values (Param::node_values).
inline constexpr std::string_view kNodeLineParam = "node_line";
// VALUE@LINE: how a person (or a helper's engine list) names one Node line's value in one word, as in
// `--set runtime=node@26`; the one parser is split_node_value (node_lines.h). A value takes the
// mark only in that form; a word that names something else (a sub-case, a Node line) never does.
inline constexpr char kNodeLineMark = '@';

// Where `word` has a separator (or, for a plain word, the Node-line mark): npos when it has none.
inline std::size_t reserved_in(std::string_view word, bool plain) {
  std::size_t at = word.find_first_of(kSeparators);
  std::size_t mark = plain ? word.find(kNodeLineMark) : std::string_view::npos;
  return std::min(at, mark);
}

// The characters as a message names them: "@ / : ; = , # space tab".
inline std::string reserved_text(bool plain) {
  std::string text = plain ? std::string(1, kNodeLineMark) : "";
  for (char c : kSeparators) {
    if (!text.empty()) text += ' ';
    text += c == ' ' ? "space" : c == '\t' ? "tab" : std::string(1, c);
  }
  return text;
}

// The label of the callgrind dump a repetition makes (`run --instructions`); its record carries it
// so the orchestrator matches a dump to its repetition without spelling the label.
inline std::string callgrind_dump_label(int repetition) { return "stallbench-rep " + std::to_string(repetition); }

}  // namespace stallbench::bench
