// The document shapes' generators. Each writes one unit (a tweet, a feature, a tree, an integer)
// at a time through JsonWriter, which keeps the answer; the strings they pick from are the shape's
// `settings` in shapes.json.
#include "documents.h"

#include <functional>
#include <map>
#include <stdexcept>

#include "json_writer.h"
#include "payload.h"

namespace stallbench {

namespace {

// splitmix64: a small, fixed generator, so every build writes the same documents.
struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  double unit() { return static_cast<double>(next() >> 11) / 9007199254740992.0; }  // [0, 1)
  const std::string& pick(const std::vector<std::string>& pool) { return pool[below(pool.size())]; }
};

using Pools = std::map<std::string, std::vector<std::string>>;

Pools pools_of(const nlohmann::json& settings) {
  Pools pools;
  const nlohmann::json given = settings.value("pools", nlohmann::json::object());
  for (const auto& [name, values] : given.items())
    pools[name] = values.get<std::vector<std::string>>();
  return pools;
}

void id_pair(JsonWriter& w, const char* id, const char* id_str, std::int64_t value) {
  w.key(id);
  w.integer(value);
  w.key(id_str);
  w.string(std::to_string(value));
}

void indices(JsonWriter& w, std::int64_t from, std::int64_t to) {
  w.key("indices");
  w.begin_array();
  w.integer(from);
  w.integer(to);
  w.end_array();
}

void user(JsonWriter& w, Random& r, Pools& p) {
  w.begin_object();
  id_pair(w, "id", "id_str", static_cast<std::int64_t>(r.below(3'000'000'000)));
  w.key("name");
  w.string(r.pick(p["names"]));
  w.key("screen_name");
  w.string(r.pick(p["screen_names"]));
  w.key("location");
  w.string(r.pick(p["locations"]));
  w.key("description");
  w.string(r.pick(p["descriptions"]));
  w.key("url");
  w.null();
  w.key("protected");
  w.boolean(false);
  for (const char* count : {"followers_count", "friends_count", "listed_count", "favourites_count", "statuses_count"}) {
    w.key(count);
    w.integer(static_cast<std::int64_t>(r.below(50'000)));
  }
  w.key("created_at");
  w.string(r.pick(p["dates"]));
  w.key("utc_offset");
  w.null();
  w.key("verified");
  w.boolean(r.below(20) == 0);
  w.key("lang");
  w.string(r.pick(p["languages"]));
  w.key("profile_image_url_https");
  w.string("https://pbs.twimg.com/profile_images/" + std::to_string(r.below(1'000'000'000)) + "/normal.jpeg");
  w.key("default_profile");
  w.boolean(r.below(2) == 0);
  w.end_object();
}

// One status of a search result, with the fields and the mix of types of twitter.json (the file
// simdjson's own benchmarks use): 64-bit ids beside their strings, nested user and entities,
// nulls, booleans, raw UTF-8 text with escapes.
void tweet(JsonWriter& w, Random& r, Pools& p) {
  w.begin_object();
  w.key("metadata");
  w.begin_object();
  w.key("result_type");
  w.string("recent");
  w.key("iso_language_code");
  w.string(r.pick(p["languages"]));
  w.end_object();
  w.key("created_at");
  w.string(r.pick(p["dates"]));
  id_pair(w, "id", "id_str", 505874924095815681 + static_cast<std::int64_t>(r.below(1'000'000'000)));
  w.key("text");
  w.string(r.pick(p["texts"]));
  w.key("source");
  w.string(r.pick(p["sources"]));
  w.key("truncated");
  w.boolean(false);
  bool reply = r.below(3) == 0;
  w.key("in_reply_to_status_id");
  reply ? w.integer(505874000000000000 + static_cast<std::int64_t>(r.below(1'000'000'000))) : w.null();
  w.key("in_reply_to_screen_name");
  reply ? w.string(r.pick(p["screen_names"])) : w.null();
  w.key("user");
  user(w, r, p);
  for (const char* absent : {"geo", "coordinates", "place", "contributors"}) {
    w.key(absent);
    w.null();
  }
  w.key("retweet_count");
  w.integer(static_cast<std::int64_t>(r.below(1000)));
  w.key("favorite_count");
  w.integer(static_cast<std::int64_t>(r.below(1000)));
  w.key("entities");
  w.begin_object();
  w.key("hashtags");
  w.begin_array();
  for (std::uint64_t i = r.below(3); i > 0; --i) {
    w.begin_object();
    w.key("text");
    w.string(r.pick(p["hashtags"]));
    auto at = static_cast<std::int64_t>(r.below(100));
    indices(w, at, at + 8);
    w.end_object();
  }
  w.end_array();
  w.key("urls");
  w.begin_array();
  w.end_array();
  w.key("user_mentions");
  w.begin_array();
  if (reply) {
    w.begin_object();
    w.key("screen_name");
    w.string(r.pick(p["screen_names"]));
    id_pair(w, "id", "id_str", static_cast<std::int64_t>(r.below(3'000'000'000)));
    indices(w, 0, 12);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.key("favorited");
  w.boolean(false);
  w.key("retweeted");
  w.boolean(false);
  w.key("lang");
  w.string(r.pick(p["languages"]));
  w.end_object();
}

void tweets(JsonWriter& w, const Shape& shape, std::size_t target_bytes) {
  Random r{1};
  Pools p = pools_of(shape.settings);
  w.begin_object();
  w.key("statuses");
  w.begin_array();
  std::int64_t count = 0;
  do {
    tweet(w, r, p);
    ++count;
  } while (w.size() < target_bytes);
  w.end_array();
  w.key("search_metadata");
  w.begin_object();
  w.key("completed_in");
  w.number(0.087);
  w.key("count");
  w.integer(count);
  w.key("query");
  w.string("%E4%B8%80");
  w.end_object();
  w.end_object();
}

// A GeoJSON FeatureCollection of polygons, like canada.json: almost nothing but coordinate pairs,
// each written with the 15-17 significant digits a double needs to read back exactly.
void coordinates(JsonWriter& w, const Shape& shape, std::size_t target_bytes) {
  Random r{2};
  Pools p = pools_of(shape.settings);
  auto points = shape.settings.at("points_per_ring").get<std::size_t>();
  w.begin_object();
  w.key("type");
  w.string("FeatureCollection");
  w.key("features");
  w.begin_array();
  do {
    w.begin_object();
    w.key("type");
    w.string("Feature");
    w.key("properties");
    w.begin_object();
    w.key("name");
    w.string(r.pick(p["names"]));
    w.end_object();
    w.key("geometry");
    w.begin_object();
    w.key("type");
    w.string("Polygon");
    w.key("coordinates");
    w.begin_array();
    w.begin_array();
    double lon = -141 + 88 * r.unit(), lat = 42 + 41 * r.unit();
    for (std::size_t i = 0; i < points; ++i) {
      lon += (r.unit() - 0.5) / 50;
      lat += (r.unit() - 0.5) / 50;
      w.begin_array();
      w.number(lon);
      w.number(lat);
      w.end_array();
    }
    w.end_array();
    w.end_array();
    w.end_object();
    w.end_object();
  } while (w.size() < target_bytes);
  w.end_array();
  w.end_object();
}

// Trees nested `levels` deep (an object and an array per level), every one inside each parser's
// depth limit: recursion and per-container bookkeeping dominate.
void nested(JsonWriter& w, const Shape& shape, std::size_t target_bytes) {
  Random r{3};
  Pools p = pools_of(shape.settings);
  auto levels = shape.settings.at("levels").get<std::size_t>();
  w.begin_array();
  do {
    for (std::size_t level = 0; level < levels; ++level) {
      w.begin_object();
      w.key("level");
      w.integer(static_cast<std::int64_t>(level));
      w.key("tag");
      w.string(r.pick(p["tags"]));
      w.key("children");
      w.begin_array();
    }
    w.boolean(true);
    for (std::size_t level = 0; level < levels; ++level) {
      w.end_array();
      w.end_object();
    }
  } while (w.size() < target_bytes);
  w.end_array();
}

// One large array of integers of 1 to `max_digits` digits, either sign: number parsing alone.
void integers(JsonWriter& w, const Shape& shape, std::size_t target_bytes) {
  Random r{4};
  auto max_digits = shape.settings.at("max_digits").get<int>();
  w.begin_array();
  do {
    std::int64_t bound = 1;
    for (int d = 1 + static_cast<int>(r.below(static_cast<std::uint64_t>(max_digits))); d > 0; --d) bound *= 10;
    auto value = static_cast<std::int64_t>(r.below(static_cast<std::uint64_t>(bound)));
    w.integer(r.below(2) == 0 ? value : -value);
  } while (w.size() < target_bytes);
  w.end_array();
}

using Generator = std::function<void(JsonWriter&, const Shape&, std::size_t)>;

const std::map<std::string, Generator>& generators() {
  static const std::map<std::string, Generator> all = {
      {"tweets", tweets}, {"coordinates", coordinates}, {"nested", nested}, {"integers", integers}};
  return all;
}

Document records_document(const Shape& shape, std::size_t target_bytes) {
  constexpr std::size_t kSample = 1000;
  std::size_t per_record = std::max<std::size_t>(1, generate_payload(shape, kSample, Layout::array).json.size() / kSample);
  Payload p = generate_payload(shape, std::max<std::size_t>(1, (target_bytes + per_record - 1) / per_record), Layout::array);
  return {std::move(p.json), p.walked};
}

}  // namespace

Document generate_document(const Shape& shape, std::size_t target_bytes) {
  if (shape.records()) return records_document(shape, target_bytes);
  auto it = generators().find(shape.generator);
  if (it == generators().end()) throw std::invalid_argument("shape " + shape.name + ": no generator " + shape.generator);
  JsonWriter writer(target_bytes + target_bytes / 8 + 4096);
  it->second(writer, shape, target_bytes);
  WalkAnswer expected = writer.answer();
  return {JsonText(writer.take()), expected};
}

}  // namespace stallbench
