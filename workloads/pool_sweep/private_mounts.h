// Makes every mount of this process's own mount namespace private (what util-linux's
// `unshare --mount --propagation private` does), so that a mount made afterwards never propagates
// to the namespace this one was copied from. Works in a chroot too, where "/" is not a mount point.
#pragma once

namespace stallbench {

// Call right after unshare(CLONE_NEWNS), single-threaded. Returns false with errno set when the
// mounts could not be made private; throws std::runtime_error when, in a chroot, the process could
// not return to its root and working directory (it then must not go on).
bool make_mounts_private();

}  // namespace stallbench
