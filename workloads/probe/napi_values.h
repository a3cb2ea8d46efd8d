// The few Node-API helpers the probe's addon files share: a status check that throws, and numbers.
#pragma once

#define NAPI_VERSION 8
#include <node_api.h>

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

inline napi_value js_function(napi_env env, const char* name, napi_callback f) {
  napi_value v;
  napi_create_function(env, name, NAPI_AUTO_LENGTH, f, nullptr, &v);
  return v;
}

}  // namespace stallbench
