package remoting

import (
	"bufio"
	"bytes"
	"reflect"
	"testing"
)

// routeRequest is GET_ROUTEINFO_BY_TOPIC for TopicTest as a Java 4.9.8
// client sends it (docs/contributors/protocol.md, "JSON headers").
func routeRequest(st SerializeType) *Command {
	return &Command{Code: GetRouteInfoByTopic, Language: "JAVA", Version: 409, Opaque: 3,
		ExtFields: map[string]string{"topic": "TopicTest"}, SerializeType: st}
}

func TestGolden_Decode(t *testing.T) {
	tests := []struct {
		file      string
		want      *Command
		canonical bool // our encoder reproduces the file byte for byte
	}{
		{"java_route_request_json.bin", routeRequest(SerializeJSON), true},
		{"java_route_request_binary.bin", routeRequest(SerializeRocketMQ), true},
		{"go_route_request_json.bin", &Command{Code: 105, Language: "GO", Version: 317, Opaque: 1,
			ExtFields: map[string]string{"topic": "TopicTest"}}, false},
		{"ons_route_request_json.bin", &Command{Code: 105, Language: "JAVA", Version: 121, Opaque: 1,
			ExtFields: map[string]string{"topic": "TopicTest"}}, false},
		{"ons_typed_ext_json.bin", &Command{Code: 105, Language: "JAVA", Version: 121, Opaque: 1,
			ExtFields: map[string]string{"topic": "TopicTest", "acceptStandardJsonOnly": "true", "queueNums": "8"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw := readGolden(t, tt.file)
			got, err := DecodeFrame(raw[4:])
			if err != nil {
				t.Fatalf("DecodeFrame: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("DecodeFrame = %+v, want %+v", got, tt.want)
			}
			streamed, err := ReadCommand(bufio.NewReader(bytes.NewReader(raw)))
			if err != nil || !reflect.DeepEqual(streamed, tt.want) {
				t.Fatalf("ReadCommand = %+v, %v; want %+v", streamed, err, tt.want)
			}
			if !tt.canonical {
				return
			}
			enc, err := EncodeFrame(got)
			if err != nil {
				t.Fatalf("EncodeFrame: %v", err)
			}
			if !bytes.Equal(enc, raw) {
				t.Fatalf("EncodeFrame =\n%x\nwant\n%x", enc, raw)
			}
		})
	}
}

// TestGolden_ResponseHeaderText checks a response header against the
// shape rocketmq-client-go decodes with jsoniter (docs/contributors/protocol.md, "JSON headers"): valid
// JSON, string-valued extFields, int16 code.
func TestGolden_ResponseHeaderText(t *testing.T) {
	req, err := DecodeFrame(readGolden(t, "go_route_request_json.bin")[4:])
	if err != nil {
		t.Fatal(err)
	}
	resp := NewResponse(req, TopicNotExist, "No topic route info in name server for the topic: TopicTest")
	resp.ExtFields = map[string]string{"changed": "true", "wipeTopicCount": "3"}
	frame, err := EncodeFrame(resp)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"code":17,"extFields":{"changed":"true","wipeTopicCount":"3"},"flag":1,"language":"JAVA","opaque":1,` +
		`"remark":"No topic route info in name server for the topic: TopicTest","serializeTypeCurrentRPC":"JSON","version":513}`
	if got := string(frame[8:]); got != want {
		t.Fatalf("header =\n%s\nwant\n%s", got, want)
	}
}
