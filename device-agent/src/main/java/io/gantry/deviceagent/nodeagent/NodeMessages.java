package io.gantry.deviceagent.nodeagent;

import io.gantry.deviceagent.deviceplugin.GpuHealthChange;
import io.gantry.gpusharing.inventory.DomainSource;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.HealthStatus;
import io.gantry.gpusharing.inventory.LinkType;
import io.gantry.gpusharing.inventory.MigInstance;
import io.gantry.gpusharing.inventory.MigMode;
import io.gantry.gpusharing.inventory.NvlinkDomain;
import io.gantry.proto.nodeagent.v1.NodeAgentProto;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.Gpu;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.HealthEvent;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.Node;
import java.time.Instant;

/**
 * The inventory model as the node-agent v1 messages: every field of {@code Node} from the model, in
 * the model's order (GPUs by index, domains by lowest GPU, links by GPU pair, as the proto asks).
 * Absent optional values stay absent (an unknown NUMA node, an unknown SM count) or empty (an
 * unknown MIG profile or UUID, a domain that does not leave the node), as the proto documents.
 */
public final class NodeMessages {
  private NodeMessages() {}

  /** {@code inventory} of node {@code nodeName}, taken at {@code discoveredAt}. */
  public static Node node(String nodeName, GpuInventory inventory, Instant discoveredAt) {
    Node.Builder node =
        Node.newBuilder()
            .setNodeName(nodeName)
            .setDriverVersion(inventory.driverVersion())
            .setCudaVersion(inventory.cudaVersion().orElse(""))
            .setLinkMatrixAvailable(inventory.linkMatrixAvailable())
            .setDiscoveredAtUnixMillis(discoveredAt.toEpochMilli());
    inventory.devices().forEach(d -> node.addGpus(gpu(d)));
    inventory.nvlinkDomains().forEach(d -> node.addNvlinkDomains(domain(d)));
    inventory.gpuLinks().forEach(l -> node.addGpuLinks(link(l)));
    return node.build();
  }

  /** The health event of {@code change}. */
  public static HealthEvent healthEvent(GpuHealthChange change) {
    return HealthEvent.newBuilder()
        .setGpuIndex(change.gpuIndex())
        .setGpuUuid(change.gpuUuid())
        .setPreviousStatus(status(change.previousStatus()))
        .setHealth(health(change.health()))
        .build();
  }

  private static Gpu gpu(GpuDevice device) {
    Gpu.Builder gpu =
        Gpu.newBuilder()
            .setIndex(device.index())
            .setUuid(device.uuid())
            .setPciBusId(device.pciBusId())
            .setProductName(device.productName())
            .setMemoryMib(device.memoryMib())
            .setMigMode(migMode(device.migMode()))
            .setHealth(health(device.health()));
    device.migInstances().forEach(m -> gpu.addMigInstances(mig(m)));
    device.numaNode().ifPresent(gpu::setNumaNode);
    return gpu.build();
  }

  private static NodeAgentProto.MigInstance mig(MigInstance instance) {
    NodeAgentProto.MigInstance.Builder mig =
        NodeAgentProto.MigInstance.newBuilder()
            .setIndex(instance.index())
            .setGpuInstanceId(instance.gpuInstanceId())
            .setComputeInstanceId(instance.computeInstanceId())
            .setProfile(instance.profile().orElse(""))
            .setUuid(instance.uuid().orElse(""))
            .setMemoryMib(instance.memoryMib());
    instance.multiprocessorCount().ifPresent(mig::setMultiprocessorCount);
    return mig.build();
  }

  private static NodeAgentProto.GpuHealth health(GpuHealth health) {
    return NodeAgentProto.GpuHealth.newBuilder()
        .setStatus(status(health.status()))
        .addAllReasons(health.reasons())
        .build();
  }

  private static NodeAgentProto.NvlinkDomain domain(NvlinkDomain domain) {
    NodeAgentProto.NvlinkDomain.Builder proto =
        NodeAgentProto.NvlinkDomain.newBuilder()
            .setId(domain.id())
            .addAllGpuIndices(domain.gpuIndices())
            .setAllToAll(domain.allToAll())
            .setClique(domain.clique().orElse(""));
    domain.sources().forEach(s -> proto.addSources(source(s)));
    return proto.build();
  }

  private static NodeAgentProto.GpuLink link(GpuLink link) {
    return NodeAgentProto.GpuLink.newBuilder()
        .setGpuIndexA(link.gpuIndexA())
        .setGpuIndexB(link.gpuIndexB())
        .setType(linkType(link.type()))
        .setNvlinkCount(link.nvlinkCount())
        .build();
  }

  private static NodeAgentProto.HealthStatus status(HealthStatus status) {
    return switch (status) {
      case HEALTHY -> NodeAgentProto.HealthStatus.HEALTH_STATUS_HEALTHY;
      case UNHEALTHY -> NodeAgentProto.HealthStatus.HEALTH_STATUS_UNHEALTHY;
    };
  }

  private static NodeAgentProto.MigMode migMode(MigMode mode) {
    return switch (mode) {
      case UNSUPPORTED -> NodeAgentProto.MigMode.MIG_MODE_UNSUPPORTED;
      case DISABLED -> NodeAgentProto.MigMode.MIG_MODE_DISABLED;
      case ENABLED -> NodeAgentProto.MigMode.MIG_MODE_ENABLED;
    };
  }

  private static NodeAgentProto.DomainSource source(DomainSource source) {
    return switch (source) {
      case LINK_MATRIX -> NodeAgentProto.DomainSource.DOMAIN_SOURCE_LINK_MATRIX;
      case FABRIC -> NodeAgentProto.DomainSource.DOMAIN_SOURCE_FABRIC;
    };
  }

  private static NodeAgentProto.LinkType linkType(LinkType type) {
    return switch (type) {
      case NVLINK -> NodeAgentProto.LinkType.LINK_TYPE_NVLINK;
      case PIX -> NodeAgentProto.LinkType.LINK_TYPE_PIX;
      case PXB -> NodeAgentProto.LinkType.LINK_TYPE_PXB;
      case PHB -> NodeAgentProto.LinkType.LINK_TYPE_PHB;
      case NODE -> NodeAgentProto.LinkType.LINK_TYPE_NODE;
      case SYS -> NodeAgentProto.LinkType.LINK_TYPE_SYS;
    };
  }
}
