// Generated documents of every shape, about `target_bytes` long, with the walk answer every parser
// must give: record shapes through the record generator (payload.h), document shapes through
// their generator in documents.cc, all deterministic (the same bytes every time).
#pragma once

#include <cstddef>

#include "answer.h"
#include "json_text.h"
#include "shapes.h"

namespace stallbench {

struct Document {
  JsonText json;
  WalkAnswer expected;
};

// At least one unit (record, tweet, feature, tree, integer); then units until the text reaches
// `target_bytes`. Throws std::invalid_argument for a generator that does not exist.
Document generate_document(const Shape& shape, std::size_t target_bytes);

}  // namespace stallbench
