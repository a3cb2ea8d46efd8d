// The deterministic payload generator: `count` records of a shape, as one JSON array (what
// JSON.stringify of an array writes) or as NDJSON (one record per line), with the answer every
// parser must give, computed from the shape's values rather than by parsing.
#pragma once

#include <cstddef>

#include "answer.h"
#include "json_text.h"
#include "shapes.h"

namespace stallbench {

enum class Layout { array, ndjson };

struct Payload {
  JsonText json;
  RecordAnswer expected;
  WalkAnswer walked;  // what a walk of every value finds (the array layout's: one document)
};

Payload generate_payload(const Shape& shape, std::size_t count, Layout layout);

}  // namespace stallbench
