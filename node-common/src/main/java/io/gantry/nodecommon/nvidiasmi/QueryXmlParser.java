package io.gantry.nodecommon.nvidiasmi;

import io.gantry.gpusharing.inventory.FabricMembership;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.MigInstance;
import io.gantry.gpusharing.inventory.MigMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import org.w3c.dom.Element;

/**
 * Parses {@code nvidia-smi -q -x}. A GPU's index is its position among the {@code <gpu>} elements
 * (nvidia-smi lists them in index order; {@code minor_number} is not the index). Required per GPU:
 * uuid, PCI bus id (pci/pci_bus_id, else the id attribute), product_name and fb_memory_usage/total;
 * everything else may be missing or N/A. Elements renamed across drivers are not read, so drivers
 * 515 to 595 (DTD v11 to v13) parse alike.
 */
public final class QueryXmlParser {
  static final String SOURCE = "nvidia-smi -q -x";

  private QueryXmlParser() {}

  public static SmiQuery parse(String xml) throws NvidiaSmiException {
    Element root = SmiXmlDocument.root(xml, SOURCE);
    if (!root.getTagName().equals("nvidia_smi_log")) {
      throw NvidiaSmiException.unparseable(
          SOURCE, "root element", "expected <nvidia_smi_log>, got <" + root.getTagName() + ">");
    }
    XmlFields log = new XmlFields(root, SOURCE);
    String driverVersion = log.required("driver_version");
    Optional<String> cudaVersion = log.optional("cuda_version");
    List<GpuDevice> devices = new ArrayList<>();
    for (Element gpu : log.children("", "gpu")) {
      devices.add(device(devices.size(), gpu));
    }
    return new SmiQuery(driverVersion, cudaVersion, devices);
  }

  private static GpuDevice device(int index, Element element) throws NvidiaSmiException {
    String label = element.getAttribute("id").isEmpty() ? "#" + index : element.getAttribute("id");
    XmlFields gpu = new XmlFields(element, SOURCE + ": gpu " + label);
    Optional<String> busId = gpu.optional("pci/pci_bus_id");
    if (busId.isEmpty() && element.getAttribute("id").isEmpty()) {
      throw gpu.failure("pci/pci_bus_id", "missing, and the gpu element has no id attribute");
    }
    MigMode migMode = migMode(gpu);
    return new GpuDevice(
        index,
        gpu.required("uuid"),
        busId.orElse(element.getAttribute("id")),
        gpu.required("product_name"),
        gpu.requiredMib("fb_memory_usage/total"),
        migMode,
        migMode == MigMode.ENABLED ? migInstances(gpu) : List.of(),
        OptionalInt.empty(),
        GpuHealthReader.read(gpu),
        fabric(gpu));
  }

  private static MigMode migMode(XmlFields gpu) throws NvidiaSmiException {
    Optional<String> mode = gpu.optional("mig_mode/current_mig");
    if (mode.isEmpty()) {
      return MigMode.UNSUPPORTED;
    }
    return switch (mode.get().toLowerCase(Locale.ROOT)) {
      case "enabled" -> MigMode.ENABLED;
      case "disabled" -> MigMode.DISABLED;
      default ->
          throw gpu.failure(
              "mig_mode/current_mig",
              "expected Enabled, Disabled or N/A, got '" + mode.get() + "'");
    };
  }

  private static List<MigInstance> migInstances(XmlFields gpu) throws NvidiaSmiException {
    List<MigInstance> instances = new ArrayList<>();
    for (Element element : gpu.children("mig_devices", "mig_device")) {
      XmlFields mig =
          new XmlFields(element, gpu.context() + ": mig_devices/mig_device #" + instances.size());
      instances.add(
          new MigInstance(
              mig.requiredInt("index"),
              mig.requiredInt("gpu_instance_id"),
              mig.requiredInt("compute_instance_id"),
              Optional.empty(),
              Optional.empty(),
              mig.requiredMib("fb_memory_usage/total"),
              mig.optionalInt("device_attributes/shared/multiprocessor_count")));
    }
    instances.sort(Comparator.comparingInt(MigInstance::index));
    return instances;
  }

  /** Present when the GPU completed registration with an NVSwitch fabric. */
  private static Optional<FabricMembership> fabric(XmlFields gpu) throws NvidiaSmiException {
    boolean registered =
        gpu.optional("fabric/state").filter(s -> s.equalsIgnoreCase("Completed")).isPresent()
            && gpu.optional("fabric/status").filter(s -> s.equalsIgnoreCase("Success")).isPresent();
    if (!registered) {
      return Optional.empty();
    }
    return Optional.of(
        new FabricMembership(
            gpu.optional("fabric/clusterUuid"), gpu.optionalInt("fabric/cliqueId")));
  }
}
