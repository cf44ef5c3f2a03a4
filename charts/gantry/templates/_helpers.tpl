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

{{/* A Gantry container's securityContext: non-root on a read-only root, global.securityContext over it. */}}
{{- define "gantry.securityContext" -}}
{{- $default := dict "allowPrivilegeEscalation" false "readOnlyRootFilesystem" true "runAsNonRoot" true "runAsUser" 65532 "runAsGroup" 65532 "capabilities" (dict "drop" (list "ALL")) "seccompProfile" (dict "type" "RuntimeDefault") -}}
{{- toYaml (mustMergeOverwrite $default (deepCopy (.Values.global.securityContext | default dict))) -}}
{{- end -}}

{{/*
A node agent's container securityContext: root for the kubelet's root-only directories. The
global.securityContext applies, but these keys stay, or the agent could not serve the kubelet.
*/}}
{{- define "gantry.nodeAgentSecurityContext" -}}
{{- $root := dict "runAsUser" 0 "runAsNonRoot" false "privileged" false "allowPrivilegeEscalation" false "readOnlyRootFilesystem" true "capabilities" (dict "drop" (list "ALL")) -}}
{{- toYaml (mustMergeOverwrite (deepCopy (.Values.global.securityContext | default dict)) $root) -}}
{{- end -}}

{{/*
The pod settings every component's pods share (global.* and imagePullSecrets), with the component's
own: .podSecurityContext the component's default securityContext (global.podSecurityContext over
it), .nodeSelector merged over global.nodeSelector, .tolerations after global.tolerations,
.priorityClassName instead of global.priorityClassName, .affinity as is.
*/}}
{{- define "gantry.podSettings" -}}
{{- $g := .root.Values.global -}}
{{- with (.priorityClassName | default $g.priorityClassName) }}
priorityClassName: {{ . }}
{{- end }}
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with (mustMergeOverwrite (deepCopy (.podSecurityContext | default dict)) (deepCopy ($g.podSecurityContext | default dict))) }}
securityContext:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with (mustMergeOverwrite (deepCopy ($g.nodeSelector | default dict)) (deepCopy (.nodeSelector | default dict))) }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with (concat ($g.tolerations | default list) (.tolerations | default list)) }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* The pod securityContext of Gantry's own non-root images. */}}
{{- define "gantry.nonRootPod" -}}
{{- toYaml (dict "runAsNonRoot" true "fsGroup" 65532) -}}
{{- end -}}

{{/*
A PodDisruptionBudget for a component's pods: at most one evicted at a time, so a drain never takes
every replica at once (and never blocks on a single one).
*/}}
{{- define "gantry.pdb" -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "gantry.componentName" . }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "gantry.labels" . | nindent 4 }}
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
      {{- include "gantry.selectorLabels" . | nindent 6 }}
{{- end -}}

{{/* `--log-format` of every Gantry command. */}}
{{- define "gantry.logFormatArg" -}}
- --log-format={{ .Values.logFormat }}
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
{{ include "gantry.logFormatArg" . }}
- --webhook-failure-policy={{ .Values.webhook.failurePolicy }}
- --webhook-skip-namespace={{ include "gantry.webhookSkipNamespaces" . }}
- --tls-cert-file=/etc/gantry/tls/tls.crt
- --tls-key-file=/etc/gantry/tls/tls.key
{{- end -}}

{{/* The namespaces the webhook never sees: kube-system, the release's, webhook.skipNamespaces. */}}
{{- define "gantry.webhookSkipNamespaces" -}}
{{- join "," (concat (list .Release.Namespace "kube-system") .Values.webhook.skipNamespaces | uniq) -}}
{{- end -}}
