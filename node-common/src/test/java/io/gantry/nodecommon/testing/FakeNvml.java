package io.gantry.nodecommon.testing;

import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.LinkType;
import io.gantry.nodecommon.nvidiasmi.GpuListParser;
import io.gantry.nodecommon.nvidiasmi.MigListing;
import io.gantry.nodecommon.nvidiasmi.MigListing.MigIdentity;
import io.gantry.nodecommon.nvidiasmi.TopologyMatrix;
import io.gantry.nodecommon.nvidiasmi.TopologyMatrixParser;
import io.gantry.nodecommon.nvml.Nvml;
import io.gantry.nodecommon.nvml.NvmlException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathExpressionException;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * An {@link Nvml} that answers from recorded nvidia-smi outputs, as the real library would on the
 * machine they were taken on: {@code -q -x} gives the GPUs (raw values: bytes, codes, C strings),
 * {@code topo -m} (optional) the NVLinks, PCIe levels and NUMA affinity, and {@code -L} (optional)
 * the MIG devices' names and UUIDs. What the recording lacks answers NVML_ERROR_NOT_SUPPORTED, as a
 * driver without the feature does. Tests inject XID events with {@link #raiseXid}.
 */
public final class FakeNvml implements Nvml {
  private static final long GPU_HANDLE_BASE = 0x1000;
  private static final long MIG_HANDLE_BASE = 0x100000;
  private static final int INVALID_ARGUMENT = 2;

  private final Document xml;
  private final XPath xpath = XPathFactory.newInstance().newXPath();
  private final Optional<TopologyMatrix> topology;
  private final Optional<MigListing> migListing;
  private final BlockingQueue<EventData> events = new LinkedBlockingQueue<>();
  private final List<Long> registeredForXid = new CopyOnWriteArrayList<>();
  private final AtomicInteger inits = new AtomicInteger();
  private final AtomicInteger shutdowns = new AtomicInteger();
  private final AtomicInteger eventSetsFreed = new AtomicInteger();
  private final AtomicInteger deviceCounts = new AtomicInteger();

  private FakeNvml(String xml, Optional<String> topo, Optional<String> list) {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
      factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
      this.xml =
          factory
              .newDocumentBuilder()
              .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
      this.topology =
          topo.isPresent() ? Optional.of(TopologyMatrixParser.parse(topo.get())) : Optional.empty();
      this.migListing =
          list.isPresent() ? Optional.of(GpuListParser.parse(list.get())) : Optional.empty();
    } catch (Exception e) {
      throw new IllegalArgumentException("unusable recording: " + e.getMessage(), e);
    }
  }

  /** NVML on the machine of the {@code -q -x} fixture {@code xmlFixture}, with no matrix. */
  public static FakeNvml replaying(String xmlFixture) {
    return new FakeNvml(Fixtures.read(xmlFixture), Optional.empty(), Optional.empty());
  }

  /** NVML answering from the given outputs of -q -x, topo -m and -L. */
  public static FakeNvml of(String qx, Optional<String> topo, Optional<String> list) {
    return new FakeNvml(qx, topo, list);
  }

  public int inits() {
    return inits.get();
  }

  public int shutdowns() {
    return shutdowns.get();
  }

  public int eventSetsFreed() {
    return eventSetsFreed.get();
  }

  /** How often nvmlDeviceGetCount_v2 was called: once per discovery (and per event watch). */
  public int deviceCounts() {
    return deviceCounts.get();
  }

  /** GPU indices registered for XID events, in registration order. */
  public List<Integer> registeredForXid() {
    return registeredForXid.stream().map(h -> (int) (h - GPU_HANDLE_BASE)).toList();
  }

  /** The driver reports XID {@code xid} on GPU {@code gpuIndex}. */
  public void raiseXid(int gpuIndex, long xid) {
    events.add(
        new EventData(
            new DeviceHandle(GPU_HANDLE_BASE + gpuIndex), EVENT_TYPE_XID_CRITICAL_ERROR, xid));
  }

  @Override
  public void init() {
    inits.incrementAndGet();
  }

  @Override
  public void shutdown() {
    shutdowns.incrementAndGet();
  }

  @Override
  public String errorString(int returnCode) {
    return switch (returnCode) {
      case 0 -> "Success";
      case INVALID_ARGUMENT -> "Invalid Argument";
      case ERROR_NOT_SUPPORTED -> "Not Supported";
      case ERROR_NOT_FOUND -> "Not Found";
      case ERROR_TIMEOUT -> "Timeout";
      case ERROR_GPU_IS_LOST -> "GPU is lost";
      default -> "Unknown Error";
    };
  }

  @Override
  public String systemGetDriverVersion() throws NvmlException {
    return text("/nvidia_smi_log/driver_version").orElseThrow(() -> notSupported("driver"));
  }

  @Override
  public int systemGetCudaDriverVersion() throws NvmlException {
    String version = text("/nvidia_smi_log/cuda_version").orElseThrow(() -> notSupported("cuda"));
    int dot = version.indexOf('.');
    return Integer.parseInt(version.substring(0, dot)) * 1000
        + Integer.parseInt(version.substring(dot + 1)) * 10;
  }

  @Override
  public int deviceGetCount() {
    deviceCounts.incrementAndGet();
    return gpus().getLength();
  }

  @Override
  public DeviceHandle deviceGetHandleByIndex(int index) throws NvmlException {
    if (index < 0 || index >= deviceGetCount()) {
      throw NvmlException.failed(
          "nvmlDeviceGetHandleByIndex_v2", INVALID_ARGUMENT, "Invalid Argument");
    }
    return new DeviceHandle(GPU_HANDLE_BASE + index);
  }

  @Override
  public String deviceGetUuid(DeviceHandle device) throws NvmlException {
    if (isMig(device)) {
      return migIdentity(device).orElseThrow(() -> notSupported("MIG uuid")).uuid();
    }
    return gpuText(device, "uuid").orElseThrow(() -> notSupported("uuid"));
  }

  @Override
  public String deviceGetName(DeviceHandle device) throws NvmlException {
    String product = gpuText(gpuOf(device), "product_name").orElseThrow(() -> notSupported("name"));
    if (isMig(device)) {
      return migIdentity(device).map(i -> product + " MIG " + i.profile()).orElse(product);
    }
    return product;
  }

  @Override
  public Memory deviceGetMemoryInfo(DeviceHandle device) throws NvmlException {
    String path =
        isMig(device) ? migPath(device) + "/fb_memory_usage/total" : "fb_memory_usage/total";
    long mib = mib(gpuText(gpuOf(device), path).orElseThrow(() -> notSupported(path)));
    return new Memory(mib * 1024 * 1024, 0, 0);
  }

  @Override
  public PciInfo deviceGetPciInfo(DeviceHandle device) throws NvmlException {
    return new PciInfo(busId(gpuIndex(device)), 0, 0, 0, 0);
  }

  @Override
  public MigMode deviceGetMigMode(DeviceHandle device) throws NvmlException {
    String mode = gpuText(device, "mig_mode/current_mig").orElseThrow(() -> notSupported("mig"));
    return new MigMode(mode.equalsIgnoreCase("Enabled") ? 1 : 0, 0);
  }

  @Override
  public int deviceGetMaxMigDeviceCount(DeviceHandle device) {
    return 7;
  }

  @Override
  public DeviceHandle deviceGetMigDeviceHandleByIndex(DeviceHandle device, int index)
      throws NvmlException {
    int gpu = gpuIndex(device);
    if (migElement(gpu, index) == null) {
      throw NvmlException.failed(
          "nvmlDeviceGetMigDeviceHandleByIndex", ERROR_NOT_FOUND, "Not Found");
    }
    return new DeviceHandle(MIG_HANDLE_BASE + gpu * 256L + index);
  }

  @Override
  public int deviceGetGpuInstanceId(DeviceHandle migDevice) throws NvmlException {
    return Integer.parseInt(
        gpuText(gpuOf(migDevice), migPath(migDevice) + "/gpu_instance_id").orElseThrow());
  }

  @Override
  public int deviceGetComputeInstanceId(DeviceHandle migDevice) throws NvmlException {
    return Integer.parseInt(
        gpuText(gpuOf(migDevice), migPath(migDevice) + "/compute_instance_id").orElseThrow());
  }

  @Override
  public DeviceAttributes deviceGetAttributes(DeviceHandle device) throws NvmlException {
    String sms =
        gpuText(gpuOf(device), migPath(device) + "/device_attributes/shared/multiprocessor_count")
            .orElseThrow(() -> notSupported("attributes"));
    return new DeviceAttributes(Integer.parseInt(sms), 0);
  }

  @Override
  public long[] deviceGetMemoryAffinity(DeviceHandle device, int nodeSetWords)
      throws NvmlException {
    Integer numa = topology.map(t -> t.numaNodes().get(gpuIndex(device))).orElse(null);
    if (numa == null) {
      throw notSupported("memory affinity");
    }
    long[] nodeSet = new long[nodeSetWords];
    nodeSet[numa / Long.SIZE] = 1L << (numa % Long.SIZE);
    return nodeSet;
  }

  @Override
  public RemappedRows deviceGetRemappedRows(DeviceHandle device) throws NvmlException {
    String failure =
        gpuText(device, "remapped_rows/remapped_row_failure")
            .orElseThrow(() -> notSupported("remapped rows"));
    return new RemappedRows(0, 0, false, failure.equalsIgnoreCase("Yes"));
  }

  @Override
  public FabricInfo deviceGetGpuFabricInfo(DeviceHandle device) throws NvmlException {
    String state = gpuText(device, "fabric/state").orElseThrow(() -> notSupported("fabric"));
    int stateCode =
        switch (state) {
          case "Not Started" -> 1;
          case "In Progress" -> 2;
          case "Completed" -> 3;
          default -> 0;
        };
    int status =
        gpuText(device, "fabric/status").filter(s -> !s.equals("Success")).isPresent() ? 999 : 0;
    int summary =
        switch (gpuText(device, "fabric/health/summary").orElse("N/A")) {
          case "Healthy" -> 1;
          case "Unhealthy" -> 2;
          case "Limited Capacity" -> 3;
          default -> 0;
        };
    return new FabricInfo(
        gpuText(device, "fabric/clusterUuid").orElse("00000000-0000-0000-0000-000000000000"),
        status,
        gpuText(device, "fabric/cliqueId").map(Integer::parseInt).orElse(0),
        stateCode,
        summary);
  }

  @Override
  public long deviceFieldValueUnsigned(DeviceHandle device, int fieldId) throws NvmlException {
    if (fieldId != FIELD_GPU_RECOVERY_ACTION) {
      throw notSupported("field " + fieldId);
    }
    String action =
        gpuText(device, "gpu_recovery_action").orElseThrow(() -> notSupported("recovery action"));
    return switch (action) {
      case "None" -> 0;
      case "Reset" -> 1;
      case "Reboot" -> 2;
      case "Drain P2P" -> 3;
      case "Drain and Reset" -> 4;
      default -> throw new IllegalStateException("no NVML code for recovery action " + action);
    };
  }

  @Override
  public boolean deviceGetNvLinkState(DeviceHandle device, int link) throws NvmlException {
    if (nvlinkPeers(gpuIndex(device)).isEmpty()) {
      throw notSupported("nvlink");
    }
    if (link >= nvlinkPeers(gpuIndex(device)).size()) {
      throw NvmlException.failed("nvmlDeviceGetNvLinkState", INVALID_ARGUMENT, "Invalid Argument");
    }
    return true;
  }

  @Override
  public PciInfo deviceGetNvLinkRemotePciInfo(DeviceHandle device, int link) throws NvmlException {
    return new PciInfo(busId(nvlinkPeers(gpuIndex(device)).get(link)), 0, 0, 0, 0);
  }

  @Override
  public int deviceGetNvLinkRemoteDeviceType(DeviceHandle device, int link) {
    return 0;
  }

  @Override
  public int deviceGetTopologyCommonAncestor(DeviceHandle a, DeviceHandle b) throws NvmlException {
    int first = Math.min(gpuIndex(a), gpuIndex(b));
    int second = Math.max(gpuIndex(a), gpuIndex(b));
    GpuLink link =
        topology
            .flatMap(
                t ->
                    t.links().stream()
                        .filter(l -> l.gpuIndexA() == first && l.gpuIndexB() == second)
                        .findFirst())
            .orElseThrow(() -> notSupported("topology"));
    return switch (link.type()) {
      case PIX -> 10;
      case PXB -> 20;
      case PHB -> 30;
      case NODE -> 40;
      case SYS, NVLINK -> 50;
    };
  }

  @Override
  public EventSetHandle eventSetCreate() {
    return new EventSetHandle(0xE000);
  }

  @Override
  public void deviceRegisterEvents(DeviceHandle device, long eventTypes, EventSetHandle set) {
    if ((eventTypes & EVENT_TYPE_XID_CRITICAL_ERROR) != 0) {
      registeredForXid.add(device.address());
    }
  }

  @Override
  public Optional<EventData> eventSetWait(EventSetHandle set, int timeoutMillis)
      throws NvmlException {
    try {
      EventData event = events.poll(timeoutMillis, TimeUnit.MILLISECONDS);
      if (event != null && !registeredForXid.contains(event.device().address())) {
        return Optional.empty();
      }
      return Optional.ofNullable(event);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw NvmlException.failed("nvmlEventSetWait_v2", 999, "interrupted");
    }
  }

  @Override
  public void eventSetFree(EventSetHandle set) {
    eventSetsFreed.incrementAndGet();
  }

  /** The peers of each active NVLink of GPU {@code gpu}, one entry per link (NV2: two). */
  private List<Integer> nvlinkPeers(int gpu) {
    List<Integer> peers = new ArrayList<>();
    for (GpuLink link : topology.map(TopologyMatrix::links).orElse(List.of())) {
      if (link.type() != LinkType.NVLINK || (link.gpuIndexA() != gpu && link.gpuIndexB() != gpu)) {
        continue;
      }
      int peer = link.gpuIndexA() == gpu ? link.gpuIndexB() : link.gpuIndexA();
      for (int i = 0; i < link.nvlinkCount(); i++) {
        peers.add(peer);
      }
    }
    return peers;
  }

  private NodeList gpus() {
    try {
      return (NodeList) xpath.evaluate("/nvidia_smi_log/gpu", xml, XPathConstants.NODESET);
    } catch (XPathExpressionException e) {
      throw new IllegalStateException(e);
    }
  }

  private Element gpu(int index) {
    return (Element) gpus().item(index);
  }

  private String busId(int gpu) {
    return text(gpu(gpu), "pci/pci_bus_id").orElse(gpu(gpu).getAttribute("id"));
  }

  private static boolean isMig(DeviceHandle device) {
    return device.address() >= MIG_HANDLE_BASE;
  }

  private static int gpuIndex(DeviceHandle device) {
    return (int)
        (isMig(device)
            ? (device.address() - MIG_HANDLE_BASE) / 256
            : device.address() - GPU_HANDLE_BASE);
  }

  private static DeviceHandle gpuOf(DeviceHandle device) {
    return new DeviceHandle(GPU_HANDLE_BASE + gpuIndex(device));
  }

  private static int migIndex(DeviceHandle mig) {
    return (int) ((mig.address() - MIG_HANDLE_BASE) % 256);
  }

  private String migPath(DeviceHandle device) {
    return "mig_devices/mig_device[normalize-space(index)='" + migIndex(device) + "']";
  }

  private Element migElement(int gpu, int index) {
    try {
      return (Element)
          xpath.evaluate(
              "mig_devices/mig_device[normalize-space(index)='" + index + "']",
              gpu(gpu),
              XPathConstants.NODE);
    } catch (XPathExpressionException e) {
      throw new IllegalStateException(e);
    }
  }

  private Optional<MigIdentity> migIdentity(DeviceHandle mig) throws NvmlException {
    String uuid = deviceGetUuid(gpuOf(mig));
    return migListing.flatMap(
        l -> l.of(uuid).stream().filter(i -> i.index() == migIndex(mig)).findFirst());
  }

  private Optional<String> gpuText(DeviceHandle device, String path) {
    return text(gpu(gpuIndex(device)), path);
  }

  private Optional<String> text(String absolutePath) {
    return text(xml, absolutePath);
  }

  /** The trimmed text at {@code path}, empty when missing or N/A. */
  private Optional<String> text(Object context, String path) {
    try {
      if (context == null) {
        return Optional.empty();
      }
      Object node = xpath.evaluate(path, context, XPathConstants.NODE);
      if (node == null) {
        return Optional.empty();
      }
      String value = ((org.w3c.dom.Node) node).getTextContent().strip();
      return value.isEmpty() || value.equalsIgnoreCase("N/A")
          ? Optional.empty()
          : Optional.of(value);
    } catch (XPathExpressionException e) {
      throw new IllegalStateException(e);
    }
  }

  private static long mib(String value) {
    return Long.parseLong(value.toUpperCase(Locale.ROOT).replace("MIB", "").strip());
  }

  private static NvmlException notSupported(String what) {
    return NvmlException.failed("fake NVML: " + what, ERROR_NOT_SUPPORTED, "Not Supported");
  }
}
