package state

import (
	"fmt"

	"github.com/hashicorp/go-msgpack/v2/codec"
)

// msgpackHandle encodes commands and snapshot records. Canonical sorts map
// keys, so equal values always give equal bytes (the Digest relies on it).
var msgpackHandle = func() *codec.MsgpackHandle {
	h := &codec.MsgpackHandle{}
	h.Canonical = true
	return h
}()

// DecodeMsgpack decodes exactly one value from buf into out.
func DecodeMsgpack(buf []byte, out any) error {
	n, err := DecodeMsgpackPrefix(buf, out)
	if err != nil {
		return err
	}
	if n != len(buf) {
		return fmt.Errorf("%d trailing bytes", len(buf)-n)
	}
	return nil
}

// DecodeMsgpackPrefix decodes one value from the start of buf into out and
// returns how many bytes it read.
func DecodeMsgpackPrefix(buf []byte, out any) (int, error) {
	dec := codec.NewDecoderBytes(buf, msgpackHandle)
	err := dec.Decode(out)
	return dec.NumBytesRead(), err
}

// EncodeMsgpack returns the canonical msgpack encoding of v.
func EncodeMsgpack(v any) ([]byte, error) {
	var buf []byte
	err := codec.NewEncoderBytes(&buf, msgpackHandle).Encode(v)
	return buf, err
}
