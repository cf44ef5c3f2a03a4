{{/* The release's name prefix, cut to what Kubernetes names allow. */}}
{{- define "gantry.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* A component's object name: <fullname>-<component>. */}}
{{- define "gantry.componentName" -}}
{{- printf "%s-%s" (include "gantry.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "gantry.labels" -}}
app.kubernetes.io/name: gantry
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/component: {{ .component }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "gantry.selectorLabels" -}}
app.kubernetes.io/name: gantry
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "gantry.image" -}}
{{- $tag := default .root.Chart.AppVersion .image.tag -}}
{{- printf "%s/%s:%s" .image.registry .image.repository $tag -}}
{{- end -}}

{{/* Whether the scheduler elects a leader: the value when set, else when it runs more than once. */}}
{{- define "gantry.leaderElection" -}}
{{- $set := .Values.scheduler.config.leaderElection.enabled -}}
{{- if eq .Values.mode "extender" -}}
false
{{- else if kindIs "bool" $set -}}
{{- $set -}}
{{- else -}}
{{- gt (int .Values.scheduler.replicas) 1 -}}
{{- end -}}
{{- end -}}

{{/* The scheduler configuration file: the values' keys, without the empty ones. */}}
{{- define "gantry.schedulerConfig" -}}
{{- $out := dict -}}
{{- range $key, $value := .Values.scheduler.config -}}
{{- if and (ne $key "leaderElection") (or (kindIs "bool" $value) (kindIs "float64" $value) (kindIs "int64" $value) (kindIs "int" $value) $value) -}}
{{- $_ := set $out $key $value -}}
{{- end -}}
{{- end -}}
{{- $le := .Values.scheduler.config.leaderElection -}}
{{- $_ := set $out "leaderElection" (dict "enabled" (eq (include "gantry.leaderElection" .) "true") "namespace" .Release.Namespace "leaseName" .Values.scheduler.config.schedulerName "leaseDuration" $le.leaseDuration "renewDeadline" $le.renewDeadline "retryPeriod" $le.retryPeriod) -}}
{{- $_ := set $out "gpuSharing" (include "gantry.gpuSharingConfig" . | fromYaml) -}}
{{- toYaml $out -}}
{{- end -}}

{{- define "gantry.securityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
runAsUser: 65532
runAsGroup: 65532
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* The port of the mode's HTTP server: the scheduler's ops port, or the extender's. */}}
{{- define "gantry.httpPort" -}}
{{- if eq .Values.mode "extender" -}}
{{- .Values.extender.port -}}
{{- else -}}
{{- .Values.scheduler.httpPort -}}
{{- end -}}
{{- end -}}

{{/* The component serving the admission webhook: the extender, or in scheduler mode its own. */}}
{{- define "gantry.webhookServer" -}}
{{- ternary "extender" "admission" (eq .Values.mode "extender") -}}
{{- end -}}

{{- define "gantry.webhookPort" -}}
{{- .Values.extender.port -}}
{{- end -}}

{{/* `gantry extender`'s webhook and TLS flags. */}}
{{- define "gantry.webhookArgs" -}}
- extender
- --port={{ .Values.extender.port }}
- --webhook-failure-policy={{ .Values.webhook.failurePolicy }}
- --webhook-skip-namespace={{ join "," (concat (list .Release.Namespace) .Values.webhook.skipNamespaces | uniq) }}
- --tls-cert-file=/etc/gantry/tls/tls.crt
- --tls-key-file=/etc/gantry/tls/tls.key
{{- end -}}
