/** The node DaemonSets' HTTP endpoint: {@code /metrics}, {@code /healthz}, {@code /readyz}. */
package io.gantry.nodecommon.ops;
