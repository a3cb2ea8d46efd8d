// Resident memory of this process, for "how much memory did that parse take". Linux only: read
// from /proc/self. The peak (VmHWM) can be reset so that one operation's peak is measured alone.
#pragma once

namespace stallbench {

double rss_mb();        // resident set size now
double peak_rss_mb();   // the high-water mark since the process started or the last reset
// Returns freed heap memory to the OS (malloc_trim) and resets the high-water mark to the current
// RSS (/proc/self/clear_refs "5"). Returns false when the kernel refused the reset; the peak then
// still counts everything since the process started.
bool reset_peak_rss();

}  // namespace stallbench
