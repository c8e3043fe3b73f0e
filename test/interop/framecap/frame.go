package main

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// maxFrame is the largest frame the RocketMQ remoting codec accepts, length prefix included.
const maxFrame = 16 << 20

// Header serialization types: the top byte of the header-length word.
const (
	serializeJSON     = 0
	serializeRocketMQ = 1
)

// Flag bits of a remoting command.
const (
	flagResponse = 1
	flagOneway   = 2
)

var (
	errFrameTooLarge = errors.New("framecap: frame length over 16 MiB")
	errFrameTooShort = errors.New("framecap: frame shorter than its header")
	errBadHeader     = errors.New("framecap: undecodable header")
)

// header is the part of a remoting command header that names a captured frame.
type header struct {
	Code      int
	Flag      int
	Opaque    int
	Version   int
	Language  string
	Serialize int
}

// isResponse reports whether the frame is a response (flag bit 0).
func (h header) isResponse() bool { return h.Flag&flagResponse != 0 }

// isOneway reports whether the request expects no answer (flag bit 1).
func (h header) isOneway() bool { return h.Flag&flagOneway != 0 }

// kind classifies a frame as "resp", "oneway" or "req" from its flag bits.
func (h header) kind() string {
	switch {
	case h.isResponse():
		return "resp"
	case h.isOneway():
		return "oneway"
	default:
		return "req"
	}
}

// readFrame reads one whole frame (4-byte length prefix included) from r.
func readFrame(r io.Reader) ([]byte, error) {
	var prefix [4]byte
	if _, err := io.ReadFull(r, prefix[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(prefix[:])
	if uint64(n)+4 > maxFrame {
		return nil, fmt.Errorf("%w: %d", errFrameTooLarge, n)
	}
	frame := make([]byte, 4+int(n))
	copy(frame, prefix[:])
	if _, err := io.ReadFull(r, frame[4:]); err != nil {
		return nil, fmt.Errorf("read frame body of %d bytes: %w", n, err)
	}
	return frame, nil
}

// parseHeader decodes the header of a whole frame in either serialization.
func parseHeader(frame []byte) (header, error) {
	if len(frame) < 8 {
		return header{}, errFrameTooShort
	}
	word := binary.BigEndian.Uint32(frame[4:8])
	typ := int(word >> 24)
	hlen := int(word & 0xFFFFFF)
	if 8+hlen > len(frame) {
		return header{}, fmt.Errorf("%w: header length %d, frame %d", errFrameTooShort, hlen, len(frame))
	}
	raw := frame[8 : 8+hlen]
	switch typ {
	case serializeJSON:
		return parseJSONHeader(raw)
	case serializeRocketMQ:
		return parseBinaryHeader(raw)
	default:
		return header{}, fmt.Errorf("%w: serialize type %d", errBadHeader, typ)
	}
}

func parseJSONHeader(raw []byte) (header, error) {
	var h struct {
		Code     int    `json:"code"`
		Flag     int    `json:"flag"`
		Opaque   int    `json:"opaque"`
		Version  int    `json:"version"`
		Language string `json:"language"`
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return header{}, fmt.Errorf("%w: %v", errBadHeader, err)
	}
	return header{Code: h.Code, Flag: h.Flag, Opaque: h.Opaque, Version: h.Version, Language: h.Language,
		Serialize: serializeJSON}, nil
}

// parseBinaryHeader decodes the fixed part of a ROCKETMQ header: code int16, language byte,
// version int16, opaque int32, flag int32 (remark and extFields follow and are not needed here).
func parseBinaryHeader(raw []byte) (header, error) {
	if len(raw) < 13 {
		return header{}, fmt.Errorf("%w: binary header of %d bytes", errBadHeader, len(raw))
	}
	return header{
		Code:      int(int16(binary.BigEndian.Uint16(raw[0:2]))),
		Language:  fmt.Sprintf("lang%d", raw[2]),
		Version:   int(int16(binary.BigEndian.Uint16(raw[3:5]))),
		Opaque:    int(int32(binary.BigEndian.Uint32(raw[5:9]))),
		Flag:      int(int32(binary.BigEndian.Uint32(raw[9:13]))),
		Serialize: serializeRocketMQ,
	}, nil
}

// codeNames names the request codes a name server sees (and the one it sends, 905).
var codeNames = map[int]string{
	100: "PUT_KV_CONFIG", 101: "GET_KV_CONFIG", 102: "DELETE_KV_CONFIG",
	103: "REGISTER_BROKER", 104: "UNREGISTER_BROKER", 105: "GET_ROUTEINFO_BY_TOPIC",
	106: "GET_BROKER_CLUSTER_INFO", 205: "WIPE_WRITE_PERM_OF_BROKER",
	206: "GET_ALL_TOPIC_LIST_FROM_NAMESERVER", 216: "DELETE_TOPIC_IN_NAMESRV",
	217: "REGISTER_TOPIC_IN_NAMESRV", 219: "GET_KVLIST_BY_NAMESPACE", 224: "GET_TOPICS_BY_CLUSTER",
	304: "GET_SYSTEM_TOPIC_LIST_FROM_NS", 311: "GET_UNIT_TOPIC_LIST", 312: "GET_HAS_UNIT_SUB_TOPIC_LIST",
	313: "GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST", 318: "UPDATE_NAMESRV_CONFIG", 319: "GET_NAMESRV_CONFIG",
	322: "QUERY_DATA_VERSION", 327: "ADD_WRITE_PERM_OF_BROKER", 901: "GET_BROKER_MEMBER_GROUP",
	904: "BROKER_HEARTBEAT", 905: "NOTIFY_MIN_BROKER_ID_CHANGE",
}

// codeName returns the name of a request code, or CODE<n> when it is not a name-server code.
func codeName(code int) string {
	if n, ok := codeNames[code]; ok {
		return n
	}
	return fmt.Sprintf("CODE%d", code)
}
