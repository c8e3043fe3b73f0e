package deploy

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
)

// ChartDir is the RaftNS Helm chart, relative to this directory.
const ChartDir = "helm/raftns"

// RenderChart renders the chart in chartDir as `helm template` would for a
// first install of release name in namespace, with the chart's values
// overridden by valuesFile when it is not empty. A value a template names
// but nobody sets is an error. It returns the manifests, one YAML stream
// per template in template order, NOTES.txt and helpers left out.
func RenderChart(chartDir, valuesFile, name, namespace string) ([]string, error) {
	ch, err := loader.Load(chartDir)
	if err != nil {
		return nil, err
	}
	vals := chartutil.Values{}
	if valuesFile != "" {
		if vals, err = chartutil.ReadValuesFile(valuesFile); err != nil {
			return nil, err
		}
	}
	top, err := chartutil.ToRenderValues(ch, vals, chartutil.ReleaseOptions{Name: name, Namespace: namespace, IsInstall: true, Revision: 1}, chartutil.DefaultCapabilities)
	if err != nil {
		return nil, err
	}
	rendered, err := engine.Engine{Strict: true}.Render(ch, top)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", chartDir, err)
	}
	var names []string
	for n := range rendered {
		base := path.Base(n)
		if !strings.HasPrefix(base, "_") && base != "NOTES.txt" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, rendered[n])
	}
	return out, nil
}
