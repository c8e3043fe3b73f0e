package chaos

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// addNonVoters starts n members, v1…vn, that wait to be added
// (--bootstrap=false), and has the leader add each as a non-voter kept so
// (POST /v1/peers with nonVoter): they serve reads and forward writes but
// must never vote or lead.
func (c *procCluster) addNonVoters(n int) ([]*member, error) {
	var out []*member
	for i := range n {
		m, err := c.prepare(fmt.Sprintf("v%d", i+1), 0)
		if err != nil {
			return out, err
		}
		if err := c.start(m, "--bootstrap=false"); err != nil {
			return out, err
		}
		body, _ := json.Marshal(map[string]any{"id": m.ID, "address": m.proxy.addr(), "nonVoter": true})
		var last string
		// The leader asks a new member its release first: it answers once
		// it has started.
		err = poll.Until(context.Background(), 60*time.Second, 200*time.Millisecond, "adding "+m.ID, func() (bool, error) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			leader := c.leader(ctx)
			if leader == nil {
				return false, nil
			}
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+leader.HTTPAddr+"/v1/peers", bytes.NewReader(body))
			if err != nil {
				return false, err
			}
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				last = err.Error()
				return false, nil
			}
			answer, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			last = resp.Status + " " + string(answer)
			return resp.StatusCode/100 == 2, nil
		})
		if err != nil {
			return out, fmt.Errorf("%w (last answer: %s)", err, last)
		}
		out = append(out, m)
	}
	return out, nil
}

// leaderWatch asks each non-voter for its status every 100 ms until stop
// and counts the answers in which it says it leads, or holds an election.
type leaderWatch struct {
	led  atomic.Int64
	seen atomic.Int64
	done chan struct{}
}

func watchNonVoters(ms []*member, stop <-chan struct{}) *leaderWatch {
	w := &leaderWatch{done: make(chan struct{})}
	go func() {
		defer close(w.done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			for _, m := range ms {
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				st, err := m.Status(ctx)
				cancel()
				if err != nil {
					continue
				}
				w.seen.Add(1)
				if st.State == "Leader" || st.State == "Candidate" {
					w.led.Add(1)
				}
			}
		}
	}()
	return w
}
