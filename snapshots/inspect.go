package snapshots

import (
	"errors"
	"io"
)

// Summary describes a snapshot without interpreting its records.
type Summary struct {
	// Version is the format version from the header.
	Version uint16
	// Records counts the records read, per record type.
	Records map[uint8]int
	// TotalRecords is the number of records read.
	TotalRecords int
	// PayloadBytes is the sum of the record payload sizes.
	PayloadBytes int64
	// ChecksumOK is true once the trailer's checksum verified.
	ChecksumOK bool
}

// Inspect reads a whole snapshot and summarises it. On a damaged snapshot it
// returns what it read so far (ChecksumOK false) together with the error.
func Inspect(r io.Reader) (Summary, error) {
	s := Summary{Records: map[uint8]int{}}
	sr, err := NewReader(r)
	if err != nil {
		return s, err
	}
	s.Version = sr.Version()
	for {
		typ, payload, err := sr.Next()
		if errors.Is(err, io.EOF) {
			s.ChecksumOK = true
			return s, nil
		}
		if err != nil {
			return s, err
		}
		s.Records[typ]++
		s.TotalRecords++
		s.PayloadBytes += int64(len(payload))
	}
}
