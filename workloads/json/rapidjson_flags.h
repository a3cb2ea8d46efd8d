// RapidJSON's parse flags per number mode, shared by its adapter and its reference walk so that
// both parse the same way.
#pragma once

#include <rapidjson/reader.h>

namespace stallbench {

inline constexpr unsigned kRapidJsonFastFlags = rapidjson::kParseValidateEncodingFlag;
inline constexpr unsigned kRapidJsonExactFlags = kRapidJsonFastFlags | rapidjson::kParseFullPrecisionFlag;

}  // namespace stallbench
