package deploy

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

// manifests are the decoded Kubernetes objects of deploy/kubernetes.
type manifests struct {
	statefulSets []*appsv1.StatefulSet
	services     []*corev1.Service
	pdbs         []*policyv1.PodDisruptionBudget
	secrets      []*corev1.Secret
}

// decodeManifests decodes every document of every file in dir strictly
// (an unknown or misspelt field is an error) into its API type.
func decodeManifests(dir string) (*manifests, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no manifest in %s", dir)
	}
	m := &manifests{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := m.decodeStream(f, data); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// decodeStream decodes every document of one YAML stream, named what.
func (m *manifests) decodeStream(what string, data []byte) error {
	for i, doc := range splitDocuments(data) {
		if err := m.decode(doc); err != nil {
			return fmt.Errorf("%s document %d: %w", what, i+1, err)
		}
	}
	return nil
}

func splitDocuments(data []byte) [][]byte {
	var docs [][]byte
	for _, d := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(data), -1) {
		if strings.TrimSpace(stripComments(d)) != "" {
			docs = append(docs, []byte(d))
		}
	}
	return docs
}

func stripComments(s string) string {
	return regexp.MustCompile(`(?m)^\s*#.*$`).ReplaceAllString(s, "")
}

func (m *manifests) decode(doc []byte) error {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := yaml.Unmarshal(doc, &head); err != nil {
		return err
	}
	strict := func(v any) error { return yaml.UnmarshalStrict(doc, v) }
	switch head.APIVersion + " " + head.Kind {
	case "apps/v1 StatefulSet":
		var o appsv1.StatefulSet
		m.statefulSets = append(m.statefulSets, &o)
		return strict(&o)
	case "v1 Service":
		var o corev1.Service
		m.services = append(m.services, &o)
		return strict(&o)
	case "v1 Secret":
		var o corev1.Secret
		m.secrets = append(m.secrets, &o)
		return strict(&o)
	case "policy/v1 PodDisruptionBudget":
		var o policyv1.PodDisruptionBudget
		m.pdbs = append(m.pdbs, &o)
		return strict(&o)
	}
	return fmt.Errorf("unexpected object %s %s", head.APIVersion, head.Kind)
}

func TestKubernetesManifestsDecodeStrictly(t *testing.T) {
	m, err := decodeManifests("kubernetes")
	if err != nil {
		t.Fatal(err)
	}
	c := checkMembers(t, m, 3)
	if !containsArg(c.Args, "--id=$(POD_NAME)") {
		t.Fatalf("the member ID must come from the pod name: %v", c.Args)
	}
}

// checkMembers checks what every way of running members on Kubernetes
// must hold: one StatefulSet of replicas pods behind a headless Service
// (stable DNS names), a client Service of ready members, a disruption
// budget of one, probes on named ports, the data dir on a volume claim,
// and arguments that only refer to the pod's name. It returns the member
// container.
func checkMembers(t *testing.T, m *manifests, replicas int32) corev1.Container {
	t.Helper()
	if len(m.statefulSets) != 1 || len(m.services) != 2 || len(m.pdbs) != 1 {
		t.Fatalf("want one StatefulSet, two Services and one PodDisruptionBudget; got %d, %d, %d", len(m.statefulSets), len(m.services), len(m.pdbs))
	}
	sts, svc, client, pdb := m.statefulSets[0], m.services[0], m.services[1], m.pdbs[0]
	if svc.Spec.ClusterIP != corev1.ClusterIPNone {
		svc, client = client, svc
	}

	if svc.Spec.ClusterIP != corev1.ClusterIPNone || !svc.Spec.PublishNotReadyAddresses {
		t.Fatalf("service %s must be headless and publish not-ready members", svc.Name)
	}
	if sts.Spec.ServiceName != svc.Name {
		t.Fatalf("StatefulSet serviceName %q is not the headless service %q", sts.Spec.ServiceName, svc.Name)
	}
	if sts.Spec.Replicas == nil || *sts.Spec.Replicas != replicas {
		t.Fatalf("want %d replicas, got %v", replicas, sts.Spec.Replicas)
	}
	if sts.Spec.PodManagementPolicy != appsv1.ParallelPodManagement {
		t.Fatalf("pods must start in parallel so the initial members can meet")
	}
	labels := sts.Spec.Template.Labels
	for what, sel := range map[string]map[string]string{
		"StatefulSet selector":    sts.Spec.Selector.MatchLabels,
		"Service selector":        svc.Spec.Selector,
		"client Service selector": client.Spec.Selector,
		"PDB selector":            pdb.Spec.Selector.MatchLabels,
	} {
		if len(sel) == 0 {
			t.Fatalf("%s is empty", what)
		}
		for k, v := range sel {
			if labels[k] != v {
				t.Fatalf("%s %s=%s does not match the pod labels %v", what, k, v, labels)
			}
		}
	}
	if pdb.Spec.MaxUnavailable == nil || pdb.Spec.MaxUnavailable.IntValue() != 1 {
		t.Fatalf("PDB must allow at most one member down, got %v", pdb.Spec.MaxUnavailable)
	}

	pod := sts.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("want one container, got %d", len(pod.Containers))
	}
	c := pod.Containers[0]
	if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot {
		t.Fatal("pods must run as non-root")
	}
	ports := map[string]int32{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	for _, probe := range []struct {
		name  string
		probe *corev1.Probe
		path  string
	}{{"readiness", c.ReadinessProbe, "/readyz"}, {"liveness", c.LivenessProbe, "/livez"}} {
		if probe.probe == nil || probe.probe.HTTPGet == nil || probe.probe.HTTPGet.Path != probe.path {
			t.Fatalf("%s probe must GET %s", probe.name, probe.path)
		}
		if _, ok := ports[probe.probe.HTTPGet.Port.String()]; !ok {
			t.Fatalf("%s probe port %s is not a container port (%v)", probe.name, probe.probe.HTTPGet.Port.String(), ports)
		}
	}
	for _, sp := range append(svc.Spec.Ports, client.Spec.Ports...) {
		if _, ok := ports[sp.TargetPort.String()]; !ok {
			t.Fatalf("service port %s targets %s, which the container does not name", sp.Name, sp.TargetPort.String())
		}
	}
	checkClientService(t, client, c, ports)
	if len(sts.Spec.VolumeClaimTemplates) != 1 {
		t.Fatal("want one volume claim template for the data dir")
	}
	claim := sts.Spec.VolumeClaimTemplates[0].Name
	mounted := ""
	for _, vm := range c.VolumeMounts {
		if vm.Name == claim {
			mounted = vm.MountPath
		}
	}
	if mounted == "" || !containsArg(c.Args, "--data-dir="+mounted) {
		t.Fatalf("the claim %q must be mounted at the --data-dir (mounted at %q, args %v)", claim, mounted, c.Args)
	}
	envs := map[string]bool{}
	for _, e := range c.Env {
		envs[e.Name] = e.ValueFrom != nil && e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.name"
	}
	for _, ref := range regexp.MustCompile(`\$\((\w+)\)`).FindAllStringSubmatch(strings.Join(c.Args, " "), -1) {
		if !envs[ref[1]] {
			t.Fatalf("argument refers to $(%s), which is not the pod name from the downward API", ref[1])
		}
	}
	return c
}

// checkClientService checks the Service brokers and clients use: a
// load-balanced one (not headless) that sends traffic to ready members
// only, with the RocketMQ port and the address-service port the members
// serve (--address-service-addr).
func checkClientService(t *testing.T, client *corev1.Service, c corev1.Container, ports map[string]int32) {
	t.Helper()
	if client.Spec.ClusterIP == corev1.ClusterIPNone || client.Spec.PublishNotReadyAddresses {
		t.Fatalf("client service %s must balance over ready members only", client.Name)
	}
	served := map[string]bool{}
	for _, sp := range client.Spec.Ports {
		served[sp.TargetPort.String()] = true
	}
	if !served["namesrv"] || !served["nsaddr"] {
		t.Fatalf("client service %s must serve the namesrv and nsaddr ports, serves %v", client.Name, served)
	}
	if want := fmt.Sprintf("--address-service-addr=:%d", ports["nsaddr"]); !containsArg(c.Args, want) {
		t.Fatalf("the nsaddr port is not where the members serve the address service (%s): %v", want, c.Args)
	}
}

func containsArg(args []string, want string) bool {
	for _, a := range args {
		if a == want {
			return true
		}
	}
	return false
}

// TestStrictDecodingRejectsUnknownFields shows that a misspelt field fails
// the decoding above instead of being dropped.
func TestStrictDecodingRejectsUnknownFields(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("kubernetes", "statefulset.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(data, []byte("serviceName:"), []byte("serviceNme:"), 1)
	if bytes.Equal(bad, data) {
		t.Fatal("statefulset.yaml has no serviceName to misspell")
	}
	m := &manifests{}
	if err := m.decode(bad); err == nil || !strings.Contains(err.Error(), "serviceNme") {
		t.Fatalf("misspelt field accepted: %v", err)
	}
}
