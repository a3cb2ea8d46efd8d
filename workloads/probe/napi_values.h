// The few Node-API helpers the probe's addon files share: a status check that throws, and numbers.
#pragma once

#define NAPI_VERSION 8
#include <node_api.h>

#include <cstddef>

namespace stallbench {

// true when `status` is napi_ok; otherwise throws `what` (unless an exception is already pending).
inline bool napi_checked(napi_env env, napi_status status, const char* what) {
  if (status == napi_ok) return true;
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (!pending) napi_throw_error(env, "ERR_STALLBENCH_CANARY", what);
  return false;
}

inline napi_value js_number(napi_env env, double value) {
  napi_value v;
  napi_create_double(env, value, &v);
  return v;
}

inline napi_value js_null(napi_env env) {
  napi_value v;
  napi_get_null(env, &v);
  return v;
}

// The first argument as a number in [low, high]; false (a RangeError thrown with `usage`) otherwise.
inline bool number_argument(napi_env env, napi_callback_info info, double low, double high, const char* usage,
                            double& out) {
  std::size_t argc = 1;
  napi_value arg;
  napi_get_cb_info(env, info, &argc, &arg, nullptr, nullptr);
  if (argc >= 1 && napi_get_value_double(env, arg, &out) == napi_ok && out >= low && out <= high) return true;
  napi_throw_range_error(env, "ERR_STALLBENCH_CANARY", usage);
  return false;
}

inline napi_value js_function(napi_env env, const char* name, napi_callback f) {
  napi_value v;
  napi_create_function(env, name, NAPI_AUTO_LENGTH, f, nullptr, &v);
  return v;
}

}  // namespace stallbench
