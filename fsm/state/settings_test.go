package state

import (
	"errors"
	"testing"
)

func TestSettings_RestoreRefusesBadRecords(t *testing.T) {
	for name, rec := range map[string]settingsRecord{
		"no scope": {Values: map[string]string{"a": "1"}},
		"no key":   {Scope: SettingsNamesrv, Values: map[string]string{"": "1"}},
	} {
		rs := &restorer{s: New()}
		if err := restoreSettings(t, rs, &rec); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	rs := &restorer{s: New()}
	ok := settingsRecord{Scope: SettingsNamesrv}
	if err := restoreSettings(t, rs, &ok); err != nil {
		t.Fatal(err)
	}
	if err := restoreSettings(t, rs, &ok); err == nil {
		t.Error("a duplicate scope was accepted")
	}
	if !errors.Is(restoreSettings(t, rs, &settingsRecord{}), errSettingsScope) {
		t.Error("scope-less record not refused as such")
	}
}

func TestSettings_AuditDetailHidesSecrets(t *testing.T) {
	rec := settingsSubject(&SetSettings{Scope: SettingsNamesrv, Values: map[string]string{"secretKey": "s3", "orderMessageEnable": "true"}})
	if rec.Kind != AuditConfigUpdate || rec.Detail != "name server: orderMessageEnable=true secretKey=(hidden)" {
		t.Fatalf("record = %+v", rec)
	}
}

// restoreSettings restores r as a snapshot record.
func restoreSettings(t *testing.T, rs *restorer, r *settingsRecord) error {
	t.Helper()
	payload, err := EncodeMsgpack(r)
	if err != nil {
		t.Fatal(err)
	}
	return rs.record(recSettings, payload)
}
