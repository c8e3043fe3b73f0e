package body

import (
	"strings"
	"testing"
)

// A topic config property of the wrong type is named in the error by its
// full path, whichever property it is.
func TestTopicConfigErrorNamesProperty(t *testing.T) {
	for _, prop := range []string{"topicName", "readQueueNums", "writeQueueNums", "perm", "topicSysFlag"} {
		raw := `{"topicConfigSerializeWrapper":{"topicConfigTable":{"A":{"topicName":"A","` + prop + `":{}}}}}`
		_, err := DecodeRegisterBody([]byte(raw), false, VersionMappingSection)
		want := "topicConfigSerializeWrapper.topicConfigTable.A." + prop + ":"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s of the wrong type: error %v, want one naming %q", prop, err, want)
		}
	}
}
