// The long tasks, as jobs that can run whole or a chunk at a time: step() does the next chunk and
// says whether the job is done; answer() is what the bench checks against the C++ closed form, so
// every strategy must compute the same thing.

// Seed 000's price report, row for row the C++ one (workloads/report/price_report.h): integer
// cents, each row's VAT rounded half up. Every intermediate stays below 2^53, so the doubles JS
// computes with are exact and the revenue matches to the cent.
const VAT_PERCENT = 20;

export function reportJob(rows, chunk) {
  const acc = { rows: 0, revenue_cents: 0, unit_price_cents_sum: 0 };
  let next = 0;
  return {
    step() {
      const to = Math.min(rows, next + (chunk || rows));
      let revenue = 0, prices = 0;
      for (let i = next; i < to; i++) {
        const price = 1990 + ((i * 7919) % 4000);
        const net = (1 + (i % 3)) * price;
        revenue += Math.floor((net * (100 + VAT_PERCENT) + 50) / 100);
        prices += price;
      }
      acc.rows += to - next;
      acc.revenue_cents += revenue;
      acc.unit_price_cents_sum += prices;
      next = to;
      return next >= rows;
    },
    answer: () => acc,
  };
}

// The orders payload (a JSON array of flat records, workloads/json/shapes.json `orders`) parsed
// and summed as the json family's record task does: count, sum of orderId, sum of quantity x
// unitPrice in record order, UTF-8 bytes of status. Whole: one TextDecoder.decode and one
// JSON.parse of everything. Chunked: `chunk` records at a time, cut at the `}` that closes a
// record (the records are flat and no string in them holds a brace), each piece decoded and
// parsed as an array of its own.
const CLOSE_BRACE = 0x7d;

function utf8Bytes(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? (i++, 4) : 3;
  }
  return bytes;
}

export function parseJob(bytes, chunk) {
  const acc = { records: 0, id_sum: 0, amount_sum: 0, text_bytes: 0 };
  const decoder = new TextDecoder();
  let next = 1;  // after the opening '['
  const sum = (records) => {
    for (const r of records) {
      acc.records += 1;
      acc.id_sum += r.orderId;
      acc.amount_sum += r.quantity * r.unitPrice;
      acc.text_bytes += utf8Bytes(r.status);
    }
  };
  return {
    step() {
      if (!chunk) {
        sum(JSON.parse(decoder.decode(bytes)));
        return true;
      }
      let end = next, taken = 0;
      for (; taken < chunk; taken++) {
        const brace = bytes.indexOf(CLOSE_BRACE, end);
        if (brace < 0) break;
        end = brace + 1;
      }
      if (taken > 0) sum(JSON.parse(`[${decoder.decode(bytes.subarray(next, end))}]`));
      next = end + 1;  // past the ',' between records
      return taken < chunk || bytes.indexOf(CLOSE_BRACE, next) < 0;
    },
    answer: () => acc,
  };
}

export function makeJob(work, input, chunk) {
  return work === "report" ? reportJob(input, chunk) : parseJob(input, chunk);
}
