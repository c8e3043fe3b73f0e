package deploy

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/lint"
	"helm.sh/helm/v3/pkg/lint/support"
)

// chartValues are the values files the chart is checked with: its
// defaults, and the production sample.
var chartValues = []struct {
	name, file string
	replicas   int32
	// ownSecrets: the chart makes the key and token Secrets itself.
	ownSecrets bool
}{
	{"default", "", 3, true},
	{"production", filepath.Join(ChartDir, "values-production.yaml"), 5, false},
}

func renderedManifests(t *testing.T, valuesFile, release string) *manifests {
	t.Helper()
	streams, err := RenderChart(ChartDir, valuesFile, release, "ns")
	if err != nil {
		t.Fatal(err)
	}
	m := &manifests{}
	for i, s := range streams {
		if err := m.decodeStream(fmt.Sprintf("template %d", i), []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func TestHelmChartLints(t *testing.T) {
	for _, v := range chartValues {
		vals := map[string]any{}
		if v.file != "" {
			read, err := chartutil.ReadValuesFile(v.file)
			if err != nil {
				t.Fatal(err)
			}
			vals = read
		}
		for _, msg := range lint.All(ChartDir, vals, "ns", false).Messages {
			if msg.Severity > support.InfoSev {
				t.Errorf("%s values: helm lint: %v", v.name, msg)
			}
		}
	}
}

// TestHelmChartRendersMembers renders the chart with each values file
// and decodes every object strictly into its Kubernetes API type, then
// checks what the raw manifests are checked for and what the chart adds:
// stable member ids and the peers list, the cluster key and admin token
// mounted from Secrets, and the Secrets the chart makes only when none is
// named.
func TestHelmChartRendersMembers(t *testing.T) {
	for _, v := range chartValues {
		t.Run(v.name, func(t *testing.T) {
			m := renderedManifests(t, v.file, "prod")
			c := checkMembers(t, m, v.replicas)
			sts := m.statefulSets[0]
			if sts.Name != "prod-raftns" || !containsArg(c.Args, "--id=$(POD_NAME)") {
				t.Fatalf("StatefulSet %s, args %v: member ids must be the pod names", sts.Name, c.Args)
			}
			var peers []string
			for i := int32(0); i < v.replicas; i++ {
				peers = append(peers, fmt.Sprintf("prod-raftns-%d=prod-raftns-%d.%s:9866", i, i, sts.Spec.ServiceName))
			}
			if want := "--peers=" + strings.Join(peers, ","); !containsArg(c.Args, want) {
				t.Fatalf("want %s in %v", want, c.Args)
			}
			if !containsArg(c.Args, "--advertise-host=$(POD_NAME)."+sts.Spec.ServiceName) {
				t.Fatalf("members must advertise their stable DNS name: %v", c.Args)
			}
			mounted := secretFiles(sts.Spec.Template.Spec, c)
			for _, flag := range []string{"--cluster-key-file=", "--http-token-file="} {
				file := argValue(c.Args, flag)
				secret, ok := mounted[file]
				if !ok {
					t.Fatalf("%s%s is not a file of a mounted Secret (%v)", flag, file, mounted)
				}
				made := false
				for _, s := range m.secrets {
					if s.Name == secret.name && len(s.Data[secret.key]) >= 16 {
						made = true
					}
				}
				if made != v.ownSecrets {
					t.Fatalf("%s: Secret %s made by the chart: %v, want %v", flag, secret.name, made, v.ownSecrets)
				}
			}
			if len(m.secrets) > 0 && m.secrets[0].Annotations["helm.sh/resource-policy"] != "keep" {
				t.Fatal("a generated key must survive helm uninstall (resource-policy keep)")
			}
		})
	}
}

// secretRef is one key of a Secret.
type secretRef struct{ name, key string }

// secretFiles maps each file the container sees from a Secret volume to
// the Secret key it holds.
func secretFiles(pod corev1.PodSpec, c corev1.Container) map[string]secretRef {
	files := map[string]secretRef{}
	for _, vol := range pod.Volumes {
		if vol.Secret == nil {
			continue
		}
		for _, vm := range c.VolumeMounts {
			if vm.Name != vol.Name {
				continue
			}
			// Without items every key of the Secret is a file.
			for _, key := range []string{"cluster.key", "token"} {
				files[filepath.Join(vm.MountPath, key)] = secretRef{vol.Secret.SecretName, key}
			}
		}
	}
	return files
}

func argValue(args []string, prefix string) string {
	for _, a := range args {
		if strings.HasPrefix(a, prefix) {
			return strings.TrimPrefix(a, prefix)
		}
	}
	return ""
}

// TestHelmChartRefusesBadValues shows that values the members could not
// run with fail the rendering, naming the value: by the template's own
// check and by values.schema.json.
func TestHelmChartRefusesBadValues(t *testing.T) {
	for _, tc := range []struct{ values, want string }{
		{"replicas: 2\ninitialMembers: 3\n", "initialMembers"},
		{"antiAffinity: sometimes\n", "antiAffinity"},
		{"ports:\n  namesrv: 70000\n  cluster: 9866\n  admin: 9856\n  nsaddr: 8080\n", "namesrv"},
		{"logLevel: loud\n", "logLevel"},
	} {
		values := filepath.Join(t.TempDir(), "values.yaml")
		if err := writeFile(values, tc.values); err != nil {
			t.Fatal(err)
		}
		if _, err := RenderChart(ChartDir, values, "r", "ns"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("values %q: err = %v, want one naming %s", tc.values, err, tc.want)
		}
	}
}

func writeFile(path, text string) error { return os.WriteFile(path, []byte(text), 0o600) }
