{{/* The name of every object: the release name, with "-raftns" unless it already says raftns. */}}
{{- define "raftns.fullname" -}}
{{- if contains "raftns" .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-raftns" .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels that select this release's members. */}}
{{- define "raftns.selectorLabels" -}}
app.kubernetes.io/name: raftns
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "raftns.labels" -}}
{{ include "raftns.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* The headless Service giving each member its DNS name. */}}
{{- define "raftns.headless" -}}
{{ include "raftns.fullname" . }}-members
{{- end -}}

{{/* The Secret holding the cluster key, and the one holding the admin token. */}}
{{- define "raftns.clusterKeySecret" -}}
{{- .Values.clusterKey.existingSecret | default (printf "%s-cluster-key" (include "raftns.fullname" .)) -}}
{{- end -}}
{{- define "raftns.adminTokenSecret" -}}
{{- .Values.adminToken.existingSecret | default (printf "%s-admin-token" (include "raftns.fullname" .)) -}}
{{- end -}}

{{/* The --peers list: the first initialMembers pods at their stable DNS names. */}}
{{- define "raftns.peers" -}}
{{- $name := include "raftns.fullname" . -}}
{{- $svc := include "raftns.headless" . -}}
{{- $port := .Values.ports.cluster -}}
{{- $peers := list -}}
{{- range $i := until (int .Values.initialMembers) -}}
{{- $peers = append $peers (printf "%s-%d=%s-%d.%s:%d" $name $i $name $i $svc (int $port)) -}}
{{- end -}}
{{- join "," $peers -}}
{{- end -}}

{{/* A secret value kept across upgrades: the one in the cluster, else a new random one. */}}
{{- define "raftns.keptSecret" -}}
{{- $old := lookup "v1" "Secret" .namespace .name -}}
{{- if and $old (index $old.data .key) -}}
{{- index $old.data .key -}}
{{- else -}}
{{- randAlphaNum 48 | b64enc -}}
{{- end -}}
{{- end -}}
