// Rust's regex crate in stallbench's line protocol (../../README.md). The bytes API: without u,
// Unicode mode off, so the pattern matches bytes (`.` is any byte but \n, \w and \d are ASCII), as
// the C++ byte engines do; with u, Unicode mode on over UTF-8 input (\w and \d are then Unicode
// classes: docs/regex.md lists the difference).
use regex::bytes::{Regex, RegexBuilder};
use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::time::Instant;

fn bytes(hex: &str) -> Result<Vec<u8>, String> {
    if hex == "-" {
        return Ok(Vec::new());
    }
    let digits = hex.as_bytes();
    if digits.len() % 2 != 0 {
        return Err("odd hex length".into());
    }
    digits
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap_or("zz"), 16).map_err(|e| e.to_string()))
        .collect()
}

// With g every match is found, as a global replace does (find_iter); y is refused: the crate cannot
// anchor a match where the last one ended.
struct Compiled {
    regex: Regex,
    global: bool,
}

impl Compiled {
    fn matches(&self, input: &[u8]) -> bool {
        if self.global {
            self.regex.find_iter(input).count() > 0
        } else {
            self.regex.is_match(input)
        }
    }
}

struct Server {
    regexes: HashMap<usize, Compiled>,
    next: usize,
    inputs: Vec<Vec<u8>>,
}

impl Server {
    fn compile(&mut self, flags: &str, anchoring: &str, pattern: &str) -> String {
        let source = match bytes(pattern) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => return format!("error {}", e),
        };
        if flags.contains('y') {
            return "rejected flag y: the regex crate cannot anchor a match where the last one ended (rust cannot honour it)".into();
        }
        let source = if anchoring == "full" { format!(r"\A(?:{})\z", source) } else { source };
        let built = RegexBuilder::new(&source)
            .unicode(flags.contains('u'))
            .case_insensitive(flags.contains('i'))
            .multi_line(flags.contains('m'))
            .dot_matches_new_line(flags.contains('s'))
            .build();
        match built {
            Ok(regex) => {
                self.regexes.insert(self.next, Compiled { regex, global: flags.contains('g') });
                self.next += 1;
                format!("ok {}", self.next - 1)
            }
            Err(e) => format!("rejected {}", e),
        }
    }

    fn batch(&self, id: &str, repeat: &str) -> String {
        let (regex, times) = match (id.parse().ok().and_then(|i: usize| self.regexes.get(&i)), repeat.parse::<usize>()) {
            (Some(regex), Ok(times)) => (regex, times),
            _ => return "error bad batch request".into(),
        };
        let mut matched = 0usize;
        let started = Instant::now();
        for _ in 0..times {
            for input in &self.inputs {
                if regex.matches(input) {
                    matched += 1;
                }
            }
        }
        format!("ok {} {}", matched, started.elapsed().as_secs_f64() * 1e3)
    }

    /// The probe's timing protocol in one request (../README.md).
    fn timed(&self, id: &str, rounds: &str, floor_ms: &str, below_ms: &str, one_round_from_ms: &str) -> String {
        let first = self.batch(id, "1");
        let words: Vec<&str> = first.split(' ').collect();
        let parsed = (words.get(2).and_then(|m| m.parse::<f64>().ok()), rounds.parse::<usize>(),
                      floor_ms.parse::<f64>(), below_ms.parse::<f64>(), one_round_from_ms.parse::<f64>());
        let (mut best, rounds, floor, below, one_from) = match parsed {
            (Some(ms), Ok(r), Ok(f), Ok(b), Ok(o)) if words[0] == "ok" => (ms, r, f, b, o),
            _ => return first,
        };
        if best < below {
            let repeat = (floor / best.max(1e-4)).ceil().min(10000.0) as usize;
            for _ in 0..(if best >= one_from { 1 } else { rounds }) {
                let reply = self.batch(id, &repeat.to_string());
                let ms = reply.split(' ').nth(2).and_then(|m| m.parse::<f64>().ok()).unwrap_or(f64::INFINITY);
                best = best.min(ms / repeat as f64);
            }
        }
        format!("ok {} {}", words[1], best)
    }

    fn answers(&self, id: &str) -> String {
        match id.parse().ok().and_then(|i: usize| self.regexes.get(&i)) {
            Some(regex) => {
                let bits: String = self.inputs.iter().map(|input| if regex.matches(input) { '1' } else { '0' }).collect();
                format!("ok {}", if bits.is_empty() { "-" } else { &bits })
            }
            None => "error bad answers request".into(),
        }
    }

    fn handle(&mut self, words: &[&str]) -> String {
        match words {
            ["compile", flags, anchoring, pattern] => self.compile(flags, anchoring, pattern),
            ["inputs", rest @ ..] => match rest.iter().map(|h| bytes(h)).collect::<Result<Vec<_>, _>>() {
                Ok(inputs) => {
                    self.inputs = inputs;
                    "ok".into()
                }
                Err(e) => format!("error {}", e),
            },
            ["batch", id, repeat] => self.batch(id, repeat),
            ["timed", id, rounds, floor_ms, below_ms, one_from] => self.timed(id, rounds, floor_ms, below_ms, one_from),
            ["answers", id] => self.answers(id),
            ["free", id] => {
                id.parse().ok().and_then(|i: usize| self.regexes.remove(&i));
                "ok".into()
            }
            _ => format!("error unknown request {}", words.first().unwrap_or(&"")),
        }
    }
}

fn main() {
    let mut server = Server { regexes: HashMap::new(), next: 0, inputs: Vec::new() };
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines().map_while(Result::ok) {
        let words: Vec<&str> = line.split(' ').collect();
        let reply = server.handle(&words).replace(['\n', '\r'], " ");
        if writeln!(out, "{}", reply).and_then(|_| out.flush()).is_err() {
            return;
        }
    }
}
