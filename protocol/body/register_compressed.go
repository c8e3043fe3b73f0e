package body

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/fastjson"
)

// DefaultMaxInflated bounds the decompressed size of a compressed
// REGISTER_BROKER body when the caller sets no limit. A broker with 100,000
// topics inflates to about 7 MiB (docs/contributors/benchmarks-scale.md), so 32 MiB leaves room
// for long topic names while keeping zip bombs small.
const DefaultMaxInflated = 32 << 20

// Inflation limits the inflating of one compressed body.
type Inflation struct {
	// Max bounds the decompressed bytes read; 0 means DefaultMaxInflated.
	Max int
	// Charge, when set, is asked for every decompressed chunk before it is
	// read; false stops decoding with ErrNoMemory.
	Charge func(n int) bool
}

// encodeCompressed writes the layout of Java RegisterBrokerBody.encode(true):
// the DataVersion JSON, the topic configs in their space-separated string
// form (5.x appends the attributes JSON "{}"), the filter-server list JSON
// and, for 5.x, the mapping-info section; all deflated at BEST_COMPRESSION
// into a zlib stream.
func encodeCompressed(b *RegisterBody, v5 bool) ([]byte, error) {
	raw := appendChunk(nil, appendDataVersion(nil, b.DataVersion, v5))
	raw = binary.BigEndian.AppendUint32(raw, uint32(len(b.TopicConfigs)))
	var line []byte
	for i := range b.TopicConfigs {
		line = appendTopicConfigString(line[:0], &b.TopicConfigs[i], v5)
		raw = appendChunk(raw, line)
	}
	if b.HasFilterServerList {
		raw = appendChunk(raw, appendStringList(nil, b.FilterServerList, Default))
	} else {
		raw = appendChunk(raw, []byte("null")) // Java JSON.toJSONString(null)
	}
	if v5 {
		raw = binary.BigEndian.AppendUint32(raw, uint32(len(b.MappingInfos)))
		for i := range b.MappingInfos {
			raw = appendChunk(raw, appendMappingInfo(nil, &b.MappingInfos[i], Default))
		}
	}
	var out bytes.Buffer
	zw, err := zlib.NewWriterLevel(&out, zlib.BestCompression)
	if err != nil {
		return nil, fmt.Errorf("body: encode RegisterBrokerBody: %w", err)
	}
	if _, err := zw.Write(raw); err != nil {
		return nil, fmt.Errorf("body: encode RegisterBrokerBody: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("body: encode RegisterBrokerBody: %w", err)
	}
	return out.Bytes(), nil
}

// appendChunk writes a big-endian int32 length and the bytes.
func appendChunk(dst, chunk []byte) []byte {
	return append(binary.BigEndian.AppendUint32(dst, uint32(len(chunk))), chunk...)
}

// appendTopicConfigString writes Java TopicConfig.encode():
// "name read write perm SINGLE_TAG", plus " {}" in 5.x.
func appendTopicConfigString(dst []byte, tc *state.TopicConfig, v5 bool) []byte {
	dst = append(dst, tc.TopicName...)
	dst = append(dst, ' ')
	dst = append(fastjson.AppendInt(dst, tc.ReadQueueNums), ' ')
	dst = append(fastjson.AppendInt(dst, tc.WriteQueueNums), ' ')
	dst = append(fastjson.AppendInt(dst, tc.Perm), ' ')
	dst = append(dst, topicFilterSingleTag...)
	if v5 {
		dst = append(dst, " {}"...)
	}
	return dst
}

// decodeCompressed reads Java RegisterBrokerBody.decode(bytes, true, version)
// with the R5 rules: at least 5 tokens per topic config, the mapping section
// read only for version ≥ 413. Unlike R5, a stream that ends after the
// filter-server list is accepted at version ≥ 413 as having no mappings
// (5.x brokers always write the section; 4.x brokers never do). Bytes after
// the parts read are ignored, as in Java.
//
// The stream is decoded as it inflates, never held whole: at most lim.Max
// decompressed bytes are read, each chunk is charged to lim.Charge first,
// and bytes after the parts read are never inflated.
func decodeCompressed(b []byte, requestVersion int32, lim Inflation) (*RegisterBody, error) {
	zr, err := zlib.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%w: zlib: %v", ErrCompressed, err)
	}
	defer zr.Close()
	if lim.Max <= 0 {
		lim.Max = DefaultMaxInflated
	}
	r := &chunkReader{r: bufio.NewReaderSize(zr, 4<<10), limit: lim.Max, charge: lim.Charge}
	body := &RegisterBody{}
	dvJSON, err := r.chunk("dataVersion")
	if err != nil {
		return nil, err
	}
	if err := decodeTop(dvJSON, func(l *lexer) (err error) {
		body.DataVersion, err = readDataVersion(l, 0)
		return err
	}); err != nil {
		return nil, atPath("dataVersion", err)
	}
	if body.TopicConfigs, err = r.topicConfigs(); err != nil {
		return nil, err
	}
	fsJSON, err := r.chunk("filterServerList")
	if err != nil {
		return nil, err
	}
	if body.FilterServerList, body.HasFilterServerList, err = decodeFilterList(fsJSON); err != nil {
		return nil, atPath("filterServerList", err)
	}
	if requestVersion >= VersionMappingSection && r.more() {
		if body.MappingInfos, err = r.mappingInfos(); err != nil {
			return nil, err
		}
	}
	return body, r.drain()
}

// decodeFilterList reads the filter-server JSON array. Java
// JSON.parseArray gives null for empty text and for null, which leaves the
// filter table untouched.
func decodeFilterList(b []byte) ([]string, bool, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, false, nil
	}
	var list []string
	err := decodeTop(b, func(l *lexer) (err error) {
		list, err = l.stringList()
		return err
	})
	if err == ErrEmptyBody {
		return nil, false, nil
	}
	return nilIfEmpty(list), err == nil, err
}

// topicConfigOverhead approximates, in bytes, what one decoded topic config
// keeps beyond its text: the TopicConfig in a slice that grows by
// doubling, and its entry in the name index.
const topicConfigOverhead = 128

// chunkReader walks the decompressed binary layout as it inflates.
type chunkReader struct {
	r      *bufio.Reader
	pos    int // decompressed bytes consumed
	limit  int
	charge func(n int) bool
}

// drain inflates what follows the parts read, without keeping it, so that a
// truncated stream or a bad checksum is still an error, and trailing bytes
// count against the limit.
func (r *chunkReader) drain() error {
	n, err := io.Copy(io.Discard, io.LimitReader(r.r, int64(r.limit-r.pos)+1))
	switch {
	case err != nil:
		return fmt.Errorf("%w: zlib: %v", ErrCompressed, err)
	case n > int64(r.limit-r.pos):
		return fmt.Errorf("%w: decompresses to more than %d bytes", ErrTooLarge, r.limit)
	}
	return nil
}

// more reports whether the stream has another byte.
func (r *chunkReader) more() bool {
	_, err := r.r.Peek(1)
	return err == nil
}

// take reads exactly len(buf) decompressed bytes within the limit.
func (r *chunkReader) take(buf []byte, what string) error {
	if len(buf) > r.limit-r.pos {
		return fmt.Errorf("%w: decompresses to more than %d bytes (at the %s)", ErrTooLarge, r.limit, what)
	}
	if r.charge != nil && !r.charge(len(buf)) {
		return fmt.Errorf("%w: %d more bytes for the %s", ErrNoMemory, len(buf), what)
	}
	n, err := io.ReadFull(r.r, buf)
	r.pos += n
	switch {
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w: truncated in the %s at byte %d", ErrCompressed, what, r.pos)
	case err != nil:
		return fmt.Errorf("%w: zlib: %v", ErrCompressed, err)
	}
	return nil
}

func (r *chunkReader) int32(what string) (int32, error) {
	var b [4]byte
	if err := r.take(b[:], what+" length"); err != nil {
		return 0, err
	}
	return int32(binary.BigEndian.Uint32(b[:])), nil
}

// count reads a number of entries that each need at least 4 more bytes.
func (r *chunkReader) count(what string) (int, error) {
	n, err := r.int32(what + " count")
	switch {
	case err != nil:
		return 0, err
	case n < 0:
		return 0, fmt.Errorf("%w: negative %s count %d", ErrCompressed, what, n)
	case int(n) > (r.limit-r.pos)/4:
		return 0, fmt.Errorf("%w: %s count %d cannot fit in the %d bytes allowed", ErrCompressed, what, n, r.limit)
	}
	return int(n), nil
}

// chunk reads a length-prefixed byte string.
func (r *chunkReader) chunk(what string) ([]byte, error) {
	n, err := r.int32(what)
	switch {
	case err != nil:
		return nil, err
	case n < 0:
		return nil, fmt.Errorf("%w: negative %s length %d", ErrCompressed, what, n)
	case int(n) > r.limit-r.pos:
		return nil, fmt.Errorf("%w: %s length %d: decompresses to more than %d bytes", ErrTooLarge, what, n, r.limit)
	}
	c := make([]byte, n)
	if err := r.take(c, what); err != nil {
		return nil, err
	}
	return c, nil
}

// keyedChunks reads a count, then that many chunks, each read by parse into
// a value and the key Java's map keeps it under: a value whose key came
// before replaces that one in its place. what names the chunks in errors.
func keyedChunks[T any](r *chunkReader, what string, parse func(i int, c []byte) (v T, key string, err error)) ([]T, error) {
	n, err := r.count(what)
	if err != nil {
		return nil, err
	}
	var out []T
	index := map[string]int{}
	for i := range n {
		c, err := r.chunk(what)
		if err != nil {
			return nil, err
		}
		v, key, err := parse(i, c)
		if err != nil {
			return nil, err
		}
		out = putAt(out, index, key, v)
	}
	return out, nil
}

// topicConfigs reads the topic configs: a count, then TopicConfig string
// chunks, each stored under its topicName.
func (r *chunkReader) topicConfigs() ([]state.TopicConfig, error) {
	return keyedChunks(r, "topic config", func(i int, c []byte) (state.TopicConfig, string, error) {
		// What the parsed config holds besides the chunk: its name, its
		// slot in the table and the index.
		if r.charge != nil && !r.charge(len(c)+topicConfigOverhead) {
			return state.TopicConfig{}, "", fmt.Errorf("%w: topic config %d", ErrNoMemory, i)
		}
		tc, err := parseTopicConfigString(fastjson.ValidString(c))
		if err != nil {
			return state.TopicConfig{}, "", atPath("topicConfig["+strconv.Itoa(i)+"]", err)
		}
		return tc, tc.TopicName, nil
	})
}

// parseTopicConfigString reads Java TopicConfig.decode (R5): String.split on
// single spaces, which drops trailing empty tokens; at least 5 tokens;
// Integer.parseInt for the numbers; a known TopicFilterType; the attributes
// token is ignored. topicSysFlag is not in this form and reads as 0.
func parseTopicConfigString(s string) (state.TopicConfig, error) {
	tokens := strings.Split(s, " ")
	for len(tokens) > 0 && tokens[len(tokens)-1] == "" {
		tokens = tokens[:len(tokens)-1]
	}
	if len(tokens) < 5 {
		return state.TopicConfig{}, fmt.Errorf("%w: topic config %.60q has %d fields, want at least 5", ErrCompressed, s, len(tokens))
	}
	tc := state.TopicConfig{TopicName: tokens[0]}
	if tc.TopicName == "" {
		return state.TopicConfig{}, fmt.Errorf("%w: topic config %.60q without topicName", ErrInvalid, s)
	}
	for i, p := range []*int32{&tc.ReadQueueNums, &tc.WriteQueueNums, &tc.Perm} {
		v, err := strconv.ParseInt(tokens[i+1], 10, 32)
		if err != nil {
			return state.TopicConfig{}, fmt.Errorf("%w: topic config %.60q: field %d is not an int", ErrCompressed, s, i+2)
		}
		*p = int32(v)
	}
	if tokens[4] != topicFilterSingleTag && tokens[4] != "MULTI_TAG" {
		return state.TopicConfig{}, fmt.Errorf("%w: topic config %.60q: unknown topicFilterType", ErrCompressed, s)
	}
	return tc, nil
}

// mappingInfos reads part 5: a count, then TopicQueueMappingInfo JSON
// chunks, each stored under its topic property.
func (r *chunkReader) mappingInfos() ([]state.TopicQueueMappingInfo, error) {
	return keyedChunks(r, "mapping info", func(i int, c []byte) (state.TopicQueueMappingInfo, string, error) {
		var info state.TopicQueueMappingInfo
		err := decodeTop(c, func(l *lexer) (err error) {
			info, err = readMappingInfo(l)
			return err
		})
		if err == nil && info.Topic == "" {
			err = fmt.Errorf("%w: mapping info without topic", ErrInvalid)
		}
		if err != nil {
			return info, "", atPath("mappingInfo["+strconv.Itoa(i)+"]", err)
		}
		return info, info.Topic, nil
	})
}
