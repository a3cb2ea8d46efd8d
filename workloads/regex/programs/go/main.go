// Go's regexp in stallbench's line protocol (../README.md). Go matches UTF-8 text: without u the
// pattern and inputs are bytes turned into the Latin-1 characters they are (one rune per byte), so
// `.` and classes see one character per byte; with u they are UTF-8 text. The flags become an
// inline group: (?i), (?m), (?s). With g every match is found, as a global replace does
// (FindAllStringIndex); y is refused: Go's regexp cannot anchor a match where the last one ended.
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

type compiled struct {
	regex   *regexp.Regexp
	unicode bool
	global  bool
}

func (c compiled) matches(str string) bool {
	if c.global {
		return len(c.regex.FindAllStringIndex(str, -1)) > 0
	}
	return c.regex.MatchString(str)
}

type server struct {
	regexes []compiled
	inputs  []string
	decoded map[bool][]string
}

func text(encoded string, unicode bool) (string, error) {
	if encoded == "-" {
		return "", nil
	}
	data, err := hex.DecodeString(encoded)
	if err != nil || unicode {
		return string(data), err
	}
	var latin1 strings.Builder
	for _, b := range data {
		latin1.WriteRune(rune(b))
	}
	return latin1.String(), nil
}

func (s *server) compile(letters, anchoring, pattern string) string {
	unicode := strings.Contains(letters, "u")
	if strings.Contains(letters, "y") {
		return "rejected flag y: Go's regexp cannot anchor a match where the last one ended (go cannot honour it)"
	}
	source, err := text(pattern, unicode)
	if err != nil {
		return "error " + err.Error()
	}
	if anchoring == "full" {
		source = `\A(?:` + source + `)\z`
	}
	if inline := strings.Trim(strings.NewReplacer("u", "", "g", "").Replace(letters), "-"); inline != "" {
		source = "(?" + inline + ")" + source
	}
	regex, err := regexp.Compile(source)
	if err != nil {
		return "rejected " + err.Error()
	}
	s.regexes = append(s.regexes, compiled{regex, unicode, strings.Contains(letters, "g")})
	return fmt.Sprintf("ok %d", len(s.regexes)-1)
}

// strings: the current inputs as the compiled regex reads them (decoded once per mode).
func (s *server) strings(c compiled) ([]string, error) {
	strs, ok := s.decoded[c.unicode]
	if !ok {
		for _, h := range s.inputs {
			t, err := text(h, c.unicode)
			if err != nil {
				return nil, err
			}
			strs = append(strs, t)
		}
		s.decoded[c.unicode] = strs
	}
	return strs, nil
}

// timed: the probe's timing protocol in one request (../README.md).
func (s *server) timed(id, rounds, floorMs, belowMs, oneRoundFromMs string) string {
	first := strings.Split(s.batch(id, "1"), " ")
	n, err1 := strconv.Atoi(rounds)
	floor, err2 := strconv.ParseFloat(floorMs, 64)
	below, err3 := strconv.ParseFloat(belowMs, 64)
	oneFrom, err4 := strconv.ParseFloat(oneRoundFromMs, 64)
	if first[0] != "ok" || err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return strings.Join(first, " ")
	}
	best, _ := strconv.ParseFloat(first[2], 64)
	if best >= oneFrom {
		n = 1
	}
	if best < below {
		repeat := int(math.Min(10000, math.Ceil(floor/math.Max(best, 1e-4))))
		for r := 0; r < n; r++ {
			ms, _ := strconv.ParseFloat(strings.Split(s.batch(id, strconv.Itoa(repeat)), " ")[2], 64)
			best = math.Min(best, ms/float64(repeat))
		}
	}
	return fmt.Sprintf("ok %s %g", first[1], best)
}

func (s *server) answers(id string) string {
	index, err := strconv.Atoi(id)
	if err != nil || index < 0 || index >= len(s.regexes) {
		return "error bad answers request"
	}
	strs, err := s.strings(s.regexes[index])
	if err != nil {
		return "error " + err.Error()
	}
	bits := make([]byte, len(strs))
	for i, str := range strs {
		bits[i] = '0'
		if s.regexes[index].matches(str) {
			bits[i] = '1'
		}
	}
	if len(bits) == 0 {
		return "ok -"
	}
	return "ok " + string(bits)
}

func (s *server) batch(id, repeat string) string {
	index, err1 := strconv.Atoi(id)
	times, err2 := strconv.Atoi(repeat)
	if err1 != nil || err2 != nil || index < 0 || index >= len(s.regexes) {
		return "error bad batch request"
	}
	c := s.regexes[index]
	strs, err := s.strings(c)
	if err != nil {
		return "error " + err.Error()
	}
	matched := 0
	started := time.Now()
	for r := 0; r < times; r++ {
		for _, str := range strs {
			if c.matches(str) {
				matched++
			}
		}
	}
	return fmt.Sprintf("ok %d %g", matched, float64(time.Since(started).Nanoseconds())/1e6)
}

func (s *server) handle(words []string) string {
	switch {
	case words[0] == "compile" && len(words) == 4:
		return s.compile(words[1], words[2], words[3])
	case words[0] == "inputs":
		s.inputs = words[1:]
		s.decoded = map[bool][]string{}
		return "ok"
	case words[0] == "batch" && len(words) == 3:
		return s.batch(words[1], words[2])
	case words[0] == "timed" && len(words) == 6:
		return s.timed(words[1], words[2], words[3], words[4], words[5])
	case words[0] == "answers" && len(words) == 2:
		return s.answers(words[1])
	case words[0] == "free":
		return "ok"
	}
	return "error unknown request " + words[0]
}

func main() {
	s := &server{decoded: map[bool][]string{}}
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return
		}
		reply := s.handle(strings.Split(strings.TrimSuffix(line, "\n"), " "))
		out.WriteString(strings.NewReplacer("\n", " ", "\r", " ").Replace(reply) + "\n")
		out.Flush()
	}
}
