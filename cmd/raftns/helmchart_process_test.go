package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/raftns/raftns/deploy"
	"github.com/raftns/raftns/internal/poll"
)

// chartDir is the Helm chart, seen from this package.
var chartDir = filepath.Join("..", "..", "deploy", deploy.ChartDir)

// renderedChart is the StatefulSet and the Secrets the Helm chart renders
// for a release named raftns with valuesFile ("" for its defaults).
func renderedChart(t *testing.T, valuesFile string) (*appsv1.StatefulSet, []corev1.Secret) {
	t.Helper()
	streams, err := deploy.RenderChart(chartDir, valuesFile, "raftns", "ns")
	if err != nil {
		t.Fatal(err)
	}
	var sts *appsv1.StatefulSet
	var secrets []corev1.Secret
	for _, s := range streams {
		for _, doc := range strings.Split(s, "\n---") {
			switch {
			case strings.Contains(doc, "\nkind: StatefulSet"):
				sts = &appsv1.StatefulSet{}
				if err := yaml.Unmarshal([]byte(doc), sts); err != nil {
					t.Fatal(err)
				}
			case strings.Contains(doc, "\nkind: Secret"):
				var sec corev1.Secret
				if err := yaml.Unmarshal([]byte(doc), &sec); err != nil {
					t.Fatal(err)
				}
				secrets = append(secrets, sec)
			}
		}
	}
	if sts == nil || sts.Spec.Replicas == nil {
		t.Fatalf("values %q: no StatefulSet with replicas rendered", valuesFile)
	}
	return sts, secrets
}

// TestProcessHelmChartAsLocalProcesses runs the pods the Helm chart renders
// (default values) as local processes, each Secret the chart makes written
// to a file where the pod would see it mounted: the members form a cluster
// with the generated cluster key, every probe passes, the address service
// lists every member, and the admin API refuses a membership change
// without the generated token and takes it with the token.
func TestProcessHelmChartAsLocalProcesses(t *testing.T) {
	sts, secrets := renderedChart(t, "")
	if len(secrets) != 2 {
		t.Fatalf("want the chart's two Secrets with default values, got %d", len(secrets))
	}
	pods := podsOf(t, sts, int(*sts.Spec.Replicas))
	pods.files = map[string]string{}
	byName := map[string]corev1.Secret{}
	for _, s := range secrets {
		byName[s.Name] = s
	}
	dir := t.TempDir()
	var token string
	for _, vol := range sts.Spec.Template.Spec.Volumes {
		if vol.Secret == nil {
			continue
		}
		for _, vm := range pods.c.VolumeMounts {
			if vm.Name != vol.Name {
				continue
			}
			for key, value := range byName[vol.Secret.SecretName].Data {
				local := filepath.Join(dir, vol.Name+"-"+key)
				if err := os.WriteFile(local, value, 0o600); err != nil {
					t.Fatal(err)
				}
				pods.files[filepath.Join(vm.MountPath, key)] = local
				if key == "token" {
					token = string(value)
				}
			}
		}
	}
	if len(pods.files) != 2 || token == "" {
		t.Fatalf("secret files %v, token %q: want the cluster key and the admin token mounted", pods.files, token)
	}

	var procs []*proc
	for i := 0; i < int(*sts.Spec.Replicas); i++ {
		procs = append(procs, pods.start(t, i))
	}
	poll.For(t, 60*time.Second, "the readiness probe of every pod", func() bool {
		for i := range procs {
			if pods.probe(i, pods.c.ReadinessProbe) != http.StatusOK {
				return false
			}
		}
		return true
	})
	for i := range procs {
		if code := pods.probe(i, pods.c.LivenessProbe); code != http.StatusOK {
			t.Fatalf("liveness probe of %s answered %d", pods.podName(i), code)
		}
		if log := procs[i].Log(); !strings.Contains(log, `"cluster_key":true`) || !strings.Contains(log, `"http_token":true`) {
			t.Fatalf("%s started without the cluster key or the admin token:\n%s", pods.podName(i), log)
		}
	}
	leader := leaderOf(t, procs)
	wantVoters(t, leader, len(procs))
	pods.wantAddressService(t, len(procs))

	// A membership change without the token is refused; with it, it is
	// taken (the removal of a member id that does not exist answers 404).
	for _, tc := range []struct {
		token string
		want  int
	}{{"", http.StatusUnauthorized}, {token, http.StatusNotFound}} {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodDelete, "http://"+leader.HTTPAddr+"/v1/peers/nobody", nil)
		if tc.token != "" {
			req.Header.Set("Authorization", "Bearer "+tc.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Fatalf("DELETE /v1/peers/nobody with token %v: HTTP %d, want %d", tc.token != "", resp.StatusCode, tc.want)
		}
	}
}
