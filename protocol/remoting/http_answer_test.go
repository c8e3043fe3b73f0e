package remoting

import (
	"bufio"
	"strings"
	"testing"
)

func TestIsHTTPAnswerTellsAnHTTPResponseFromATooLargeFrame(t *testing.T) {
	_, err := ReadCommand(bufio.NewReader(strings.NewReader("HTTP/1.1 400 Bad Request\r\n\r\n")))
	if !IsHTTPAnswer(err) {
		t.Fatalf("ReadCommand of an HTTP response: %v, want IsHTTPAnswer", err)
	}
	_, err = frameLength([]byte{0x7f, 0, 0, 0})
	if err == nil || IsHTTPAnswer(err) {
		t.Fatalf("a too-large frame that is not HTTP: %v, want an error IsHTTPAnswer rejects", err)
	}
}
