// Seed 000's price report: VAT-inclusive revenue and mean unit price over synthetic order rows
// (20,000,000 in the seed). Money is counted in integer cents, each row's VAT rounded half up to
// the cent, so the answer is exact: every mode must produce the same revenue to the cent, and the
// closed form below says what that revenue is without running the report.
#pragma once

#include <cstdint>
#include <string>

namespace stallbench {

inline constexpr int kVatPercent = 20;  // KDV, the seed's VAT

// Row i of the synthetic order table: deterministic and cheap, varied enough (period 12,000) that
// the total is not something the compiler can fold.
inline int row_quantity(std::uint64_t i) { return 1 + static_cast<int>(i % 3); }
inline std::int64_t row_unit_price_cents(std::uint64_t i) { return 1990 + static_cast<std::int64_t>((i * 7919) % 4000); }
inline constexpr std::uint64_t kRowPeriod = 12000;

struct PriceReport {
  std::uint64_t rows = 0;
  std::int64_t revenue_cents = 0;          // VAT included
  std::int64_t unit_price_cents_sum = 0;   // for the mean unit price
  double revenue() const { return static_cast<double>(revenue_cents) / 100.0; }
  double mean_unit_price() const { return rows ? static_cast<double>(unit_price_cents_sum) / 100.0 / rows : 0; }
  bool operator==(const PriceReport&) const = default;
  std::string describe() const;
};

// addRows(acc, from, to) of the seed: accumulates rows [from, to).
void add_rows(PriceReport& report, std::uint64_t from, std::uint64_t to);

// buildPriceReport(rows): all rows at once.
PriceReport build_price_report(std::uint64_t rows);

// The same answer from one period of rows times the number of periods, plus the remainder.
PriceReport expected_price_report(std::uint64_t rows);

}  // namespace stallbench
