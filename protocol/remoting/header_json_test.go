package remoting

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestJSONHeader_DecodeRules(t *testing.T) {
	topic := map[string]string{"topic": "TopicTest"}
	tests := []struct {
		name   string
		header string
		want   Command
	}{
		{"java form", `{"code":105,"extFields":{"topic":"TopicTest"},"flag":0,"language":"JAVA","opaque":3,"serializeTypeCurrentRPC":"JSON","version":409}`,
			Command{Code: 105, Language: "JAVA", Version: 409, Opaque: 3, ExtFields: topic}},
		{"any key order", `{"version":409,"opaque":3,"language":"GO","flag":1,"extFields":{"topic":"TopicTest"},"code":105}`,
			Command{Code: 105, Language: "GO", Version: 409, Opaque: 3, Flag: 1, ExtFields: topic}},
		{"missing everything", `{}`, Command{Language: "JAVA"}},
		{"unknown keys of every kind skipped", `{"x":1,"y":{"a":[1,{"b":"}"}]},"z":[],"w":"s","code":7,"v":null,"u":true}`,
			Command{Code: 7, Language: "JAVA"}},
		{"null remark and language", `{"remark":null,"language":null}`, Command{Language: "JAVA"}},
		{"empty remark", `{"remark":""}`, Command{Language: "JAVA"}},
		{"unknown language kept", `{"language":"NODE_JS_NEXT"}`, Command{Language: "NODE_JS_NEXT"}},
		{"negative opaque", `{"opaque":-2147483648}`, Command{Language: "JAVA", Opaque: -2147483648}},
		{"quoted number", `{"code":"105"}`, Command{Code: 105, Language: "JAVA"}},
		{"null number", `{"code":null}`, Command{Language: "JAVA"}},
		{"ext number, boolean and null", `{"extFields":{"a":5,"b":true,"c":false,"d":null,"e":-1.5e3}}`,
			Command{Language: "JAVA", ExtFields: map[string]string{"a": "5", "b": "true", "c": "false", "e": "-1.5e3"}}},
		{"ext later null removes key", `{"extFields":{"a":"x","a":null}}`, Command{Language: "JAVA", ExtFields: map[string]string{}}},
		{"ext nested value kept as text", `{"extFields":{"a":{"b":1}}}`, Command{Language: "JAVA", ExtFields: map[string]string{"a": `{"b":1}`}}},
		{"empty extFields", `{"extFields":{}}`, Command{Language: "JAVA", ExtFields: map[string]string{}}},
		{"null extFields", `{"extFields":null}`, Command{Language: "JAVA"}},
		{"whitespace everywhere", " \n{ \"code\" : 1 ,\t\"extFields\" : { \"k\" : \"v\" } }\r\n",
			Command{Code: 1, Language: "JAVA", ExtFields: map[string]string{"k": "v"}}},
		{"fastjson unquoted keys", `{code:105,extFields:{topic:"TopicTest"}}`, Command{Code: 105, Language: "JAVA", ExtFields: topic}},
		{"fastjson single quotes", `{'code':105,'remark':'it\'s'}`, Command{Code: 105, Language: "JAVA", Remark: "it's"}},
		{"fastjson extra commas", `{,"code":105,,"flag":1,}`, Command{Code: 105, Language: "JAVA", Flag: 1}},
		{"escapes", `{"remark":"a\"b\\c\/d\b\f\n\r\t\u00e9\uD83D\uDE00\u2028\x41\v\'"}`,
			Command{Language: "JAVA", Remark: "a\"b\\c/d\b\f\n\r\t\u00e9\U0001F600\u2028A\v'"}},
		{"lone surrogate becomes U+FFFD", `{"remark":"\uD800x"}`, Command{Language: "JAVA", Remark: "\uFFFDx"}},
		{"invalid UTF-8 becomes U+FFFD", "{\"remark\":\"a\xffb\"}", Command{Language: "JAVA", Remark: "a\uFFFDb"}},
		{"raw control character accepted", "{\"remark\":\"a\x01b\"}", Command{Language: "JAVA", Remark: "a\x01b"}},
		{"serializeTypeCurrentRPC ignored", `{"serializeTypeCurrentRPC":"ROCKETMQ"}`, Command{Language: "JAVA"}},
		{"last duplicate wins", `{"code":1,"code":2}`, Command{Code: 2, Language: "JAVA"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Command
			if err := decodeJSONHeader([]byte(tt.header), &got); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("decode = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestJSONHeader_DecodeErrors(t *testing.T) {
	tests := []struct {
		name, header, text string
	}{
		{"not an object", `[1]`, "expected '{'"},
		{"bare string", `"x"`, "expected '{'"},
		{"empty", ``, "expected '{'"},
		{"missing colon", `{"code" 1}`, "expected ':'"},
		{"missing comma", `{"code":1 "flag":2}`, "expected ',' or '}'"},
		{"missing value", `{"code":}`, "unexpected '}'"},
		{"bad key", `{[:1}`, "expected key"},
		{"unterminated string", `{"remark":"abc`, "unterminated string"},
		{"unterminated escape", `{"remark":"abc\`, "unterminated string"},
		{"unterminated nested", `{"x":{"y":[1,2}`, "unterminated object or array"},
		{"bad unicode escape", `{"remark":"\u12G4"}`, `bad \u escape`},
		{"short unicode escape", `{"remark":"\u12"}`, `bad \u escape`},
		{"bad hex escape", `{"remark":"\xZZ"}`, `bad \x escape`},
		{"fraction code", `{"code":1.5}`, "expected an int32"},
		{"boolean flag", `{"flag":true}`, "expected an int32"},
		{"object opaque", `{"opaque":{}}`, "expected an int32"},
		{"version overflow", `{"version":99999999999}`, "expected an int32"},
		{"extFields string", `{"extFields":"topic"}`, "extFields is not an object"},
		{"extFields unterminated", `{"extFields":{"a":"b"`, "unterminated object"},
		{"trailing object", `{}{}`, "data after the header object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Command
			err := decodeJSONHeader([]byte(tt.header), &c)
			if !errors.Is(err, ErrBadHeader) || !strings.Contains(err.Error(), tt.text) {
				t.Fatalf("decode error = %v, want ErrBadHeader mentioning %q", err, tt.text)
			}
		})
	}
}

func TestJSONHeader_EncodeLikeFastjson(t *testing.T) {
	tests := []struct {
		name string
		c    Command
		want string
	}{
		{"minimal", Command{}, `{"code":0,"flag":0,"language":"JAVA","opaque":0,"serializeTypeCurrentRPC":"JSON","version":0}`},
		{"all fields in alphabetical order", Command{Code: 17, Language: "JAVA", Version: 479, Opaque: -3, Flag: 1, Remark: "no",
			ExtFields: map[string]string{"z": "1", "a": "2", "M": "3"}},
			`{"code":17,"extFields":{"M":"3","a":"2","z":"1"},"flag":1,"language":"JAVA","opaque":-3,"remark":"no","serializeTypeCurrentRPC":"JSON","version":479}`},
		{"empty extFields written as {}", Command{Language: "GO", ExtFields: map[string]string{}},
			`{"code":0,"extFields":{},"flag":0,"language":"GO","opaque":0,"serializeTypeCurrentRPC":"JSON","version":0}`},
		{"escaping", Command{Remark: "q\"b\\s/\b\f\n\r\t\x00\x1f\x7f\u0080\u009f\u00a0é\u2028\u2029\U0001F600"},
			`{"code":0,"flag":0,"language":"JAVA","opaque":0,"remark":"q\"b\\s/\b\f\n\r\t\u0000\u001F\u007F\u0080\u009F` +
				"\u00a0é" + `\u2028\u2029` + "\U0001F600" + `","serializeTypeCurrentRPC":"JSON","version":0}`},
		{"invalid UTF-8 written as U+FFFD", Command{Remark: "a\xffb"},
			`{"code":0,"flag":0,"language":"JAVA","opaque":0,"remark":"a` + "\uFFFD" + `b","serializeTypeCurrentRPC":"JSON","version":0}`},
		{"keys escaped too", Command{ExtFields: map[string]string{"k\n": "v\u0085"}},
			`{"code":0,"extFields":{"k\n":"v\u0085"},"flag":0,"language":"JAVA","opaque":0,"serializeTypeCurrentRPC":"JSON","version":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := appendJSONHeader(nil, &tt.c)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("encode =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestJSONHeader_EncodeSortsManyKeys(t *testing.T) {
	m := map[string]string{}
	for _, k := range strings.Split("q w e r t y u i o p a s d f g h j k l z", " ") {
		m[k] = k
	}
	got, err := appendJSONHeader(nil, &Command{ExtFields: m})
	if err != nil {
		t.Fatal(err)
	}
	want := `"extFields":{"a":"a","d":"d","e":"e","f":"f","g":"g","h":"h","i":"i","j":"j","k":"k","l":"l",` +
		`"o":"o","p":"p","q":"q","r":"r","s":"s","t":"t","u":"u","w":"w","y":"y","z":"z"}`
	if !strings.Contains(string(got), want) {
		t.Fatalf("encode = %s, want it to contain %s", got, want)
	}
}

func TestJSONHeader_ResponseCodeMustFitInt16(t *testing.T) {
	for _, code := range []int32{32767, -32768} {
		if _, err := appendJSONHeader(nil, &Command{Code: code, Flag: FlagResponse}); err != nil {
			t.Fatalf("code %d: %v", code, err)
		}
	}
	for _, code := range []int32{32768, -32769} {
		if _, err := appendJSONHeader(nil, &Command{Code: code, Flag: FlagResponse}); !errors.Is(err, ErrCodeRange) {
			t.Fatalf("code %d: error = %v, want ErrCodeRange", code, err)
		}
	}
}
