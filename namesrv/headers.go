package namesrv

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/remoting"
)

// fields reads typed request header fields from extFields the way Java's
// decodeCommandCustomHeader does; the first problem is kept in err so a
// handler reads all fields, then checks once.
type fields struct {
	ext map[string]string
	err error
}

func headerFields(req *remoting.Command) *fields { return &fields{ext: req.ExtFields} }

// check returns the first problem as the bad-request answer, nil if none.
func (f *fields) check() error {
	if f.err != nil {
		return badRequest(f.err.Error())
	}
	return nil
}

// str returns an optional string field ("" when absent).
func (f *fields) str(name string) string { return f.ext[name] }

// required returns a mandatory string field; a missing or empty one is an
// error worded like Java's @CFNotNull check.
func (f *fields) required(name string) string {
	v, ok := f.ext[name]
	if (!ok || v == "") && f.err == nil {
		f.err = fmt.Errorf("the custom field <%s> is null", name)
	}
	return v
}

// broker returns the mandatory fields that name a broker, read in the
// order of the reference's request headers: brokerName, brokerAddr,
// clusterName.
func (f *fields) broker() (name string, key state.BrokerKey) {
	name = f.required("brokerName")
	key.Addr = f.required("brokerAddr")
	key.Cluster = f.required("clusterName")
	return name, key
}

// int64 returns a mandatory integer field.
func (f *fields) int64(name string) int64 {
	v := f.required(name)
	if f.err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		f.err = fmt.Errorf("header field %s: %q is not an integer", name, v)
	}
	return n
}

// optInt64 returns an optional integer field and whether it was present.
func (f *fields) optInt64(name string) (int64, bool) {
	v, ok := f.ext[name]
	if !ok || v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		if f.err == nil {
			f.err = fmt.Errorf("header field %s: %q is not an integer", name, v)
		}
		return 0, false
	}
	return n, true
}

// boolean parses like Java Boolean.parseBoolean: only "true", in any case,
// is true.
func (f *fields) boolean(name string) bool { return strings.EqualFold(f.ext[name], "true") }

// optBool returns an optional boolean field and whether it was present.
func (f *fields) optBool(name string) (value, present bool) {
	v, ok := f.ext[name]
	if !ok {
		return false, false
	}
	return strings.EqualFold(v, "true"), true
}
