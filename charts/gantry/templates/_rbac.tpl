{{/*
The cluster-wide rules of the scheduling core, shared by `gantry scheduler` and `gantry extender`
(both run the same informers and writers). Kept in step with io.gantry.scheduler.kube.SchedulerApiAccess
by ChartRbacTest.
*/}}
{{- define "gantry.schedulerClusterRules" -}}
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list, watch, patch, delete]
- apiGroups: [""]
  resources: [pods/binding]
  verbs: [create]
- apiGroups: [""]
  resources: [pods/status]
  verbs: [patch]
- apiGroups: [""]
  resources: [nodes]
  verbs: [get, list, watch]
- apiGroups: [""]
  resources: [events]
  verbs: [create, patch]
- apiGroups: [scheduling.k8s.io]
  resources: [priorityclasses]
  verbs: [get, list, watch]
- apiGroups: [batch]
  resources: [jobs]
  verbs: [get, list, watch]
- apiGroups: [scheduling.run.ai]
  resources: [podgroups]
  verbs: [get, list, watch, create, patch, update]
- apiGroups: [scheduling.run.ai]
  resources: [podgroups/status]
  verbs: [patch, update]
- apiGroups: [scheduling.run.ai]
  resources: [queues]
  verbs: [get, list, watch]
- apiGroups: [scheduling.run.ai]
  resources: [queues/status]
  verbs: [patch, update]
- apiGroups: [kai.scheduler]
  resources: [topologies]
  verbs: [get, list, watch]
{{- end -}}

{{- define "gantry.leaseRules" -}}
- apiGroups: [coordination.k8s.io]
  resources: [leases]
  verbs: [get, create, update]
{{- end -}}
