{{/*
The scheduler configuration file's gpuSharing block (docs/gpu-sharing.md), from the values'
gpuSharing; the reservation pods' service account is the one gpu-sharing.yaml creates.
*/}}
{{- define "gantry.gpuSharingConfig" -}}
{{- $g := .Values.gpuSharing -}}
mode: {{ $g.mode }}
reservationNamespace: {{ $g.reservation.namespace }}
reservationTimeout: {{ $g.reservation.timeout }}
reservationImage: {{ include "gantry.image" (dict "root" . "image" $g.reservation.image) }}
reservationServiceAccount: {{ include "gantry.componentName" (dict "root" . "component" "reservation") }}
runtimeClassName: {{ $g.reservation.runtimeClassName | quote }}
scalingPods: {{ $g.scalingPods.enabled }}
scalingNamespace: {{ $g.scalingPods.namespace }}
scalingImage: {{ $g.scalingPods.image }}
{{- end -}}
