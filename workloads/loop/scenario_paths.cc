// The path readers of a scenario file (scenario_fields.h): what an fs call, a writeFile and a
// lookup may name. A relative fs path starts at the scenario's folder; a writeFile writes into the
// run's temporary folder; a lookup names only what /etc/hosts has.
#include <algorithm>
#include <filesystem>

#include "../pool/lookup.h"
#include "scenario_fields.h"

namespace stallbench::loop {

using nlohmann::json;
namespace fs = std::filesystem;

std::string ScenarioFields::fs_path(const json& op, const std::string& where, const std::string& error) const {
  if (!op.contains("path")) {
    if (!error.empty()) fail(where + ".error", "needs a `path` that does not exist");
    return file();
  }
  std::string given = text(op["path"], where + ".path");
  fs::path path = fs::path(given).is_absolute() ? fs::path(given) : fs::path(file()).parent_path() / given;
  path = path.lexically_normal();
  std::error_code ec;
  bool exists = fs::exists(path, ec);
  if (error.empty() && !exists)
    fail(where + ".path", "no such file: " + path.string() + " (relative paths start at the scenario's folder; "
                          "a missing file on purpose says \"error\": \"ENOENT\")");
  if (!error.empty() && exists) fail(where + ".path", path.string() + " exists, but the op expects ENOENT");
  return path.string();
}

std::string ScenarioFields::temporary_name(const json& value, const std::string& where, const std::string& error) const {
  std::string given = text(value, where);
  fs::path path(given);
  bool plain = !given.empty() && path.is_relative() && path.lexically_normal() == path &&
               std::none_of(path.begin(), path.end(), [](const fs::path& p) { return p == ".." || p == "."; });
  bool nested = path.has_parent_path();
  if (!plain || nested != !error.empty())
    fail(where, "must be a file name in the run's temporary folder (like \"out.txt\"; with \"error\": \"ENOENT\", "
                "one under a missing folder, like \"missing/out.txt\") (got " + shown(value) + ")");
  return given;
}

std::string ScenarioFields::hosts_file_name(const json& op, const std::string& where) const {
  if (!op.contains("host")) return "localhost";
  std::string host = text(op["host"], where + ".host");
  try {
    require_hosts_file_name(host);
  } catch (const std::invalid_argument& e) {
    fail(where + ".host", e.what());
  }
  return host;
}

}  // namespace stallbench::loop
