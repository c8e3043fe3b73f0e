package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/yaml"

	"github.com/raftns/raftns/deploy"
)

// TestHelmChartArgsStart renders the Helm chart with its default and its
// production values and checks every pod's command line with raftns's own
// configuration code ($(POD_NAME) replaced by the pod's name): each member
// would start, advertising a distinct client address.
func TestHelmChartArgsStart(t *testing.T) {
	chart := filepath.Join("..", "..", "deploy", deploy.ChartDir)
	for _, values := range []string{"", filepath.Join(chart, "values-production.yaml")} {
		streams, err := deploy.RenderChart(chart, values, "raftns", "ns")
		if err != nil {
			t.Fatal(err)
		}
		var sts *appsv1.StatefulSet
		for _, s := range streams {
			for _, doc := range strings.Split(s, "\n---") {
				if strings.Contains(doc, "kind: StatefulSet") {
					sts = &appsv1.StatefulSet{}
					if err := yaml.Unmarshal([]byte(doc), sts); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if sts == nil || sts.Spec.Replicas == nil {
			t.Fatalf("values %q: no StatefulSet with replicas rendered", values)
		}
		clientAddrs := map[string]bool{}
		for i := 0; i < int(*sts.Spec.Replicas); i++ {
			pod := sts.Name + "-" + strconv.Itoa(i)
			var args []string
			for _, a := range sts.Spec.Template.Spec.Containers[0].Args {
				args = append(args, strings.ReplaceAll(a, "$(POD_NAME)", pod))
			}
			addr, err := startableClientAddr(args)
			if err != nil {
				t.Fatalf("values %q, pod %s: %v\n\t%q", values, pod, err, args)
			}
			if want := pod + "." + sts.Spec.ServiceName + ":9876"; addr != want {
				t.Errorf("values %q, pod %s advertises %s to clients, want %s", values, pod, addr, want)
			}
			clientAddrs[addr] = true
		}
		if len(clientAddrs) != int(*sts.Spec.Replicas) {
			t.Fatalf("values %q: %d distinct client addresses for %d pods", values, len(clientAddrs), *sts.Spec.Replicas)
		}
	}
}
