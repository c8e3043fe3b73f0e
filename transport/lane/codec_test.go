package lane

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"
)

// Requests and answers of every error kind come back as they were sent,
// several frames in one stream, each under its own call id; from version
// 2 on with the leader's applied index, which version 1 does not carry.
func TestForwardCodec_RoundTrip(t *testing.T) {
	answers := []LeaderReply{
		{Result: []byte{1, 2, 3}, Index: 41},
		{Index: 1 << 40},
		{},
		{ErrKind: KindNotLeader, Err: "not leader"},
		{ErrKind: KindNotReady, Err: "not ready"},
		{ErrKind: KindOutcomeUnknown, Err: "outcome unknown", Result: []byte("ignored but kept")},
		{ErrKind: KindOther, Err: "refused: ExpireBrokers may not be forwarded"},
	}
	for _, version := range []byte{1, forwardLaneVersion} {
		var stream []byte
		stream = appendForwardRequest(stream, 7, []byte("a command"))
		stream = appendForwardRequest(stream, 8, nil)
		for i := range answers {
			stream = appendForwardAnswer(stream, uint64(100+i), &answers[i], version)
		}
		fr := forwardFrameReader{r: bytes.NewReader(stream)}
		for _, want := range []struct {
			id      uint64
			command string
		}{{7, "a command"}, {8, ""}} {
			id, p, err := fr.next()
			if err != nil || id != want.id || string(p) != want.command {
				t.Fatalf("v%d: request = %d %q %v, want %d %q", version, id, p, err, want.id, want.command)
			}
		}
		for i, want := range answers {
			id, p, err := fr.next()
			if err != nil || id != uint64(100+i) {
				t.Fatalf("v%d: answer %d: id %d, %v", version, i, id, err)
			}
			got, err := decodeForwardAnswer(p, version)
			if err != nil {
				t.Fatalf("v%d: answer %d: %v", version, i, err)
			}
			if version < indexedAnswers {
				want.Index = 0
			}
			if got.ErrKind != want.ErrKind || got.Err != want.Err || !bytes.Equal(got.Result, want.Result) || got.Index != want.Index {
				t.Fatalf("v%d: answer %d = %+v, want %+v", version, i, got, want)
			}
		}
		if _, _, err := fr.next(); !errors.Is(err, io.EOF) {
			t.Fatalf("v%d: after the last frame: %v, want io.EOF", version, err)
		}
	}
}

// An unknown error kind travels as a plain error, and an overlong error
// text is cut to the bound instead of making the frame unreadable.
func TestForwardCodec_UnknownKindAndLongErrors(t *testing.T) {
	long := strings.Repeat("x", 3*maxForwardErrText)
	frame := appendForwardAnswer(nil, 1, &LeaderReply{ErrKind: "from-a-newer-member", Err: long}, forwardLaneVersion)
	got, err := decodeForwardAnswer(frame[forwardFrameHeader:], forwardLaneVersion)
	if err != nil {
		t.Fatal(err)
	}
	if got.ErrKind != KindOther || got.Err != long[:maxForwardErrText] {
		t.Fatalf("got kind %q and %d bytes of text, want %q and %d", got.ErrKind, len(got.Err), KindOther, maxForwardErrText)
	}
}

// Malformed frames, answers and hellos are errors, never panics or
// allocations of what a length word claims.
func TestForwardCodec_RejectsMalformedInput(t *testing.T) {
	frame := func(l uint32, rest ...byte) []byte { return append(binary.BigEndian.AppendUint32(nil, l), rest...) }
	for name, stream := range map[string][]byte{
		"length below the call id": frame(7, 0, 0, 0, 0, 0, 0, 0),
		"length above the bound":   frame(maxForwardFrame+1, make([]byte, 8)...),
		"cut header":               {0, 0, 0},
		"cut payload":              frame(8+10, append(make([]byte, 8), 1, 2, 3)...),
		"huge claim, few bytes":    frame(maxForwardFrame, make([]byte, 8+100)...),
	} {
		_, _, err := (&forwardFrameReader{r: bytes.NewReader(stream)}).next()
		if err == nil {
			t.Errorf("%s: decoded", name)
		}
		if name == "cut payload" || name == "huge claim, few bytes" {
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("%s: %v, want io.ErrUnexpectedEOF", name, err)
			}
		}
	}
	for name, p := range map[string][]byte{
		"empty":                    nil,
		"unknown kind":             {byte(len(forwardErrKinds))},
		"text length beyond frame": {4, 10, 'a'},
		"text length over bound":   binary.AppendUvarint([]byte{4}, maxForwardErrText+1),
		"bad varint":               {4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		"success with error text":  {0, 1, 'x'},
		"error without text":       {1, 0},
	} {
		if r, err := decodeForwardAnswer(p, 1); !errors.Is(err, errForwardFrame) {
			t.Errorf("%s: %+v, %v, want errForwardFrame", name, r, err)
		}
	}
	for name, p := range map[string][]byte{
		"no applied index":           {0, 0},
		"applied index cut":          {0, 0, 0x80},
		"applied index overlong":     {0, 0, 0x81, 0x00},
		"applied index over 64 bits": {0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
	} {
		if r, err := decodeForwardAnswer(p, indexedAnswers); !errors.Is(err, errForwardFrame) {
			t.Errorf("%s: %+v, %v, want errForwardFrame", name, r, err)
		}
	}
	for _, hello := range [][]byte{[]byte("RNSX\x01"), []byte("RNSF\x00"), []byte("RNS")} {
		if _, err := readForwardHello(bytes.NewReader(hello)); err == nil {
			t.Errorf("hello %q accepted", hello)
		}
	}
	if v, err := readForwardHello(bytes.NewReader(forwardHello(9))); err != nil || v != 9 {
		t.Fatalf("hello of version 9 = %d, %v", v, err)
	}
}

// FuzzForwardFrames feeds arbitrary streams to the forward lane's frame
// reader and answer decoder, as both ends of the lane run them: no input
// may panic, and whatever decodes encodes back to the same bytes.
func FuzzForwardFrames(f *testing.F) {
	f.Add(appendForwardRequest(nil, 1, []byte("cmd")))
	f.Add(appendForwardAnswer(nil, 2, &LeaderReply{ErrKind: KindNotLeader, Err: "x", Result: []byte{9}}, 1))
	f.Add(appendForwardAnswer(appendForwardAnswer(nil, 3, &LeaderReply{Result: []byte("ok"), Index: 300}, 2), 4, &LeaderReply{}, 2))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		fr := forwardFrameReader{r: bytes.NewReader(data)}
		for {
			id, p, err := fr.next()
			if err != nil {
				return
			}
			if again := appendForwardRequest(nil, id, p); len(again) != forwardFrameHeader+len(p) {
				t.Fatalf("request frame of %d bytes re-encodes to %d", len(p), len(again))
			}
			for _, version := range []byte{1, forwardLaneVersion} {
				reply, err := decodeForwardAnswer(p, version)
				if err != nil {
					continue
				}
				again := appendForwardAnswer(nil, id, &reply, version)
				if !bytes.Equal(again[forwardFrameHeader:], p) {
					t.Fatalf("v%d answer % x re-encodes to % x", version, p, again[forwardFrameHeader:])
				}
			}
		}
	})
}
