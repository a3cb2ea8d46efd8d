#include "price_report.h"

#include <cstdio>

namespace stallbench {

void add_rows(PriceReport& report, std::uint64_t from, std::uint64_t to) {
  std::int64_t revenue = 0, prices = 0;
  for (std::uint64_t i = from; i < to; ++i) {
    std::int64_t price = row_unit_price_cents(i);
    std::int64_t net = row_quantity(i) * price;
    revenue += (net * (100 + kVatPercent) + 50) / 100;  // VAT, rounded half up to the cent
    prices += price;
  }
  report.rows += to - from;
  report.revenue_cents += revenue;
  report.unit_price_cents_sum += prices;
}

PriceReport build_price_report(std::uint64_t rows) {
  PriceReport report;
  add_rows(report, 0, rows);
  return report;
}

PriceReport expected_price_report(std::uint64_t rows) {
  PriceReport period, rest;
  add_rows(period, 0, kRowPeriod);
  std::uint64_t periods = rows / kRowPeriod;
  add_rows(rest, 0, rows % kRowPeriod);  // row i and row i + kRowPeriod are the same row
  return {rows, period.revenue_cents * static_cast<std::int64_t>(periods) + rest.revenue_cents,
          period.unit_price_cents_sum * static_cast<std::int64_t>(periods) + rest.unit_price_cents_sum};
}

std::string PriceReport::describe() const {
  char text[160];
  std::snprintf(text, sizeof text, "%llu rows, revenue %.2f, mean unit price %.4f",
                static_cast<unsigned long long>(rows), revenue(), mean_unit_price());
  return text;
}

}  // namespace stallbench
