package remoting

import (
	"encoding/binary"
	"fmt"
	"math"
)

// binaryFixedLen is the size of the fixed part of a binary header: code,
// language, version, opaque, flag, remark length and ext length.
const binaryFixedLen = 2 + 1 + 2 + 4 + 4 + 4 + 4

func badBinary(format string, args ...any) error {
	return fmt.Errorf("%w: binary: %s", ErrBadHeader, fmt.Sprintf(format, args...))
}

// decodeBinaryHeader parses a ROCKETMQ binary header (docs/contributors/protocol.md, "Binary headers";
// Java RocketMQSerializable.rocketMQProtocolDecode). Zero-length remarks,
// keys and values decode as absent, and an ext section with no entry left
// decodes as nil ExtFields. Bytes after the ext section are ignored, as Java
// does.
func decodeBinaryHeader(b []byte, c *Command) error {
	if len(b) < binaryFixedLen {
		return badBinary("header of %d bytes is shorter than the %d fixed bytes", len(b), binaryFixedLen)
	}
	be := binary.BigEndian
	c.Code = int32(int16(be.Uint16(b[0:])))
	c.Language = LanguageName(b[2])
	c.Version = int32(int16(be.Uint16(b[3:])))
	c.Opaque = int32(be.Uint32(b[5:]))
	c.Flag = int32(be.Uint32(b[9:]))
	remark, rest, err := binaryField(b[13:], len(b), "remark", 4)
	if err != nil {
		return err
	}
	if len(remark) > 0 {
		c.Remark = toValidString(remark)
	}
	ext, _, err := binaryField(rest, len(b), "ext", 0)
	if err != nil {
		return err
	}
	c.ExtFields, err = decodeBinaryExt(ext, len(b))
	return err
}

// binaryField reads an int32 length and that many bytes from b, leaving at
// least after bytes behind. Lengths that are negative or larger than the
// header (h) are rejected first, as Java does.
func binaryField(b []byte, h int, what string, after int) (field, rest []byte, err error) {
	if len(b) < 4 {
		return nil, nil, badBinary("%s length truncated", what)
	}
	n := int64(int32(binary.BigEndian.Uint32(b)))
	switch {
	case n < 0:
		return nil, nil, badBinary("negative %s length %d", what, n)
	case n > int64(h):
		return nil, nil, badBinary("%s length %d exceeds header length %d", what, n, h)
	case n > int64(len(b)-4-after):
		return nil, nil, badBinary("%s length %d exceeds the %d bytes left", what, n, len(b)-4-after)
	}
	return b[4 : 4+n], b[4+n:], nil
}

// decodeBinaryExt parses the ext entries: int16 key length, key, int32 value
// length, value. h is the whole header's length.
func decodeBinaryExt(b []byte, h int) (map[string]string, error) {
	var m map[string]string
	for len(b) > 0 {
		if len(b) < 2 {
			return nil, badBinary("ext key length truncated")
		}
		kl := int(int16(binary.BigEndian.Uint16(b)))
		if kl < 0 || kl > len(b)-2 {
			return nil, badBinary("ext key length %d exceeds the %d bytes left", kl, len(b)-2)
		}
		key := b[2 : 2+kl]
		val, rest, err := binaryField(b[2+kl:], h, "ext value", 0)
		if err != nil {
			return nil, err
		}
		if len(key) > 0 && len(val) > 0 {
			if m == nil {
				m = make(map[string]string, 4)
			}
			m[internExtKey(key)] = toValidString(val)
		}
		b = rest
	}
	return m, nil
}

// appendBinaryHeader appends c's header in the ROCKETMQ binary form
// (Java RocketMQSerializable.rocketMQProtocolEncode). Entries with an empty
// key or value are skipped, since they would decode as absent; keys are
// written sorted so the output is deterministic.
func appendBinaryHeader(dst []byte, c *Command) ([]byte, error) {
	if c.Code < math.MinInt16 || c.Code > math.MaxInt16 {
		return dst, ErrCodeRange
	}
	if c.Version < math.MinInt16 || c.Version > math.MaxInt16 {
		return dst, ErrVersionRange
	}
	lang, ok := LanguageCode(c.Language)
	if !ok {
		return dst, fmt.Errorf("%w: %q", ErrUnknownLanguage, c.Language)
	}
	be := binary.BigEndian
	dst = be.AppendUint16(dst, uint16(c.Code))
	dst = append(dst, lang)
	dst = be.AppendUint16(dst, uint16(c.Version))
	dst = be.AppendUint32(dst, uint32(c.Opaque))
	dst = be.AppendUint32(dst, uint32(c.Flag))
	dst = be.AppendUint32(dst, uint32(len(c.Remark)))
	dst = append(dst, c.Remark...)
	extAt := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	var small [16]string
	for _, k := range sortedKeys(c.ExtFields, small[:0]) {
		v := c.ExtFields[k]
		if k == "" || v == "" {
			continue
		}
		if len(k) > math.MaxInt16 {
			return dst, fmt.Errorf("%w: ext key of %d bytes", ErrHeaderTooLarge, len(k))
		}
		dst = be.AppendUint16(dst, uint16(len(k)))
		dst = append(dst, k...)
		dst = be.AppendUint32(dst, uint32(len(v)))
		dst = append(dst, v...)
	}
	be.PutUint32(dst[extAt:], uint32(len(dst)-extAt-4))
	return dst, nil
}
