package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHelmChartArgsStart renders the Helm chart with its default and its
// production values and checks every pod's command line with raftns's own
// configuration code ($(POD_NAME) replaced by the pod's name): each member
// would start, advertising a distinct client address.
func TestHelmChartArgsStart(t *testing.T) {
	for _, values := range []string{"", filepath.Join(chartDir, "values-production.yaml")} {
		sts, _ := renderedChart(t, values)
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
