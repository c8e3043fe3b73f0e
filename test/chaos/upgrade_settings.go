package chaos

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// SettingsUpgrade is what RunSettingsUpgrade saw: each member's
// orderMessageEnable before the upgrade was finalized and after, and the
// warning the member whose values the cluster adopted logged.
type SettingsUpgrade struct {
	Before, After map[string]string
	// Seeder is the member whose values became the cluster's; Warning
	// is its log line about orderMessageEnable.
	Seeder, Warning string
}

// settingsKey is the run-time setting the members disagree on.
const settingsKey = "orderMessageEnable"

// seedWarning matches the warning about settingsKey.
var seedWarning = regexp.MustCompile(`(?m)^.*WARN.*run-time setting differed between members.*key=` + settingsKey + `\b.*$`)

// RunSettingsUpgrade starts three members of the old build, changes
// orderMessageEnable on the first one only (UPDATE_NAMESRV_CONFIG, which
// that build keeps per member, persisted in the member's data directory),
// upgrades every member in turn to the new build, checks that the members
// still answer their own values, finalizes the upgrade and waits until
// every member answers one value. It fails when a step fails; the caller
// checks the result.
func RunSettingsUpgrade(oldBin, newBin, dir string) (*SettingsUpgrade, error) {
	c := newProcCluster(oldBin, dir)
	defer c.stop()
	if err := c.boot(3, -1, 0); err != nil {
		return nil, err
	}
	ms := c.current()
	for _, m := range ms {
		if err := m.WaitReady(context.Background(), 60*time.Second); err != nil {
			return nil, err
		}
	}
	cl := remoting.NewClient(remoting.DefaultClientConfig())
	defer cl.Close()
	if err := updateSetting(cl, ms[0], "true"); err != nil {
		return nil, err
	}
	res := &SettingsUpgrade{Before: map[string]string{}, After: map[string]string{}}
	for _, m := range ms {
		if err := replaceBinary(c, m, newBin); err != nil {
			return nil, fmt.Errorf("upgrade %s: %w", m.ID, err)
		}
	}
	for _, m := range ms {
		v, err := settingOf(cl, m)
		if err != nil {
			return nil, err
		}
		res.Before[m.ID] = v
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// A member just restarted may not answer the leader's status probe
	// yet, and finalizing refuses until every member does: retry.
	var last error
	if err := poll.Until(ctx, 30*time.Second, 200*time.Millisecond, "the upgrade finalized", func() (bool, error) {
		leader := c.leader(ctx)
		if leader == nil {
			return false, nil
		}
		last = finalizeOn(ctx, leader)
		return last == nil, nil
	}); err != nil {
		return res, fmt.Errorf("%w: %w", err, last)
	}
	err := poll.Until(ctx, 30*time.Second, 200*time.Millisecond, "every member answering one "+settingsKey, func() (bool, error) {
		values := map[string]bool{}
		for _, m := range ms {
			v, err := settingOf(cl, m)
			if err != nil {
				return false, nil
			}
			res.After[m.ID] = v
			values[v] = true
		}
		return len(values) == 1, nil
	})
	if err != nil {
		return res, err
	}
	err = poll.Until(ctx, 10*time.Second, 200*time.Millisecond, "the adopting member's warning", func() (bool, error) {
		for _, m := range ms {
			log, err := os.ReadFile(m.log.Name())
			if err != nil {
				return false, err
			}
			if line := seedWarning.Find(log); line != nil {
				res.Seeder, res.Warning = m.ID, string(line)
				return true, nil
			}
		}
		return false, nil
	})
	return res, err
}

// updateSetting sends UPDATE_NAMESRV_CONFIG settingsKey=value to m alone.
func updateSetting(cl *remoting.Client, m *member, value string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := cl.Invoke(ctx, m.ClientAddr, &remoting.Command{Code: remoting.UpdateNamesrvConfig, Language: "JAVA",
		Body: []byte(settingsKey + "=" + value + "\n")})
	if err == nil && resp.Code != remoting.Success {
		err = fmt.Errorf("code %d %s", resp.Code, resp.Remark)
	}
	if err != nil {
		return fmt.Errorf("update %s on %s: %w", settingsKey, m.ID, err)
	}
	return nil
}

// settingOf returns settingsKey as GET_NAMESRV_CONFIG of m answers it.
func settingOf(cl *remoting.Client, m *member) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := cl.Invoke(ctx, m.ClientAddr, &remoting.Command{Code: remoting.GetNamesrvConfig, Language: "JAVA"})
	if err != nil {
		return "", fmt.Errorf("config of %s: %w", m.ID, err)
	}
	props, err := body.ParseProperties(resp.Body)
	if err != nil {
		return "", fmt.Errorf("config of %s: %w", m.ID, err)
	}
	return strings.TrimSpace(props[settingsKey]), nil
}

// finalizeOn raises the cluster version through the leader's admin API.
func finalizeOn(ctx context.Context, leader *member) error {
	resp, err := leader.Do(ctx, http.MethodPost, "/v1/upgrade/finalize")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("finalize on %s: HTTP %d %s", leader.ID, resp.StatusCode, bytes.TrimSpace(b))
	}
	return nil
}
