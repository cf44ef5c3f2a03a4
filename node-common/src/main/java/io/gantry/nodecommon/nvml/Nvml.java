package io.gantry.nodecommon.nvml;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The NVML calls the agent makes ({@code nvml.h}), one method per C function, with C's output
 * parameters returned as values. {@link JnaNvml} calls libnvidia-ml.so.1; tests use a fake that
 * answers from recorded nvidia-smi outputs. Every method but {@link #errorString} throws {@link
 * NvmlException} carrying the NVML return code when the call does not return {@code NVML_SUCCESS}.
 * Handles are only valid between {@link #init()} and {@link #shutdown()}. Implementations are
 * thread-safe, as NVML is.
 */
public interface Nvml {
  /** NVML_ERROR_NOT_SUPPORTED: the device or driver does not have the feature. */
  int ERROR_NOT_SUPPORTED = 3;

  /** NVML_ERROR_NOT_FOUND: no such object (for example an empty MIG device slot). */
  int ERROR_NOT_FOUND = 6;

  /** NVML_ERROR_TIMEOUT: {@link #eventSetWait} saw no event in time. */
  int ERROR_TIMEOUT = 10;

  /** NVML_ERROR_FUNCTION_NOT_FOUND: the installed driver's library predates the function. */
  int ERROR_FUNCTION_NOT_FOUND = 13;

  /** NVML_ERROR_GPU_IS_LOST: the GPU fell off the bus or stopped answering. */
  int ERROR_GPU_IS_LOST = 15;

  /** nvmlEventTypeXidCriticalError. */
  long EVENT_TYPE_XID_CRITICAL_ERROR = 0x8L;

  /** NVML_FI_DEV_GET_GPU_RECOVERY_ACTION, read with {@link #deviceFieldValueUnsigned}. */
  int FIELD_GPU_RECOVERY_ACTION = 230;

  /** NVML_NVLINK_MAX_LINKS: links to probe per GPU. */
  int NVLINK_MAX_LINKS = 36;

  /** An nvmlDevice_t: a GPU or a MIG device. */
  record DeviceHandle(long address) {}

  /** An nvmlEventSet_t. */
  record EventSetHandle(long address) {}

  /** nvmlMemory_t. */
  record Memory(long totalBytes, long freeBytes, long usedBytes) {}

  /** nvmlPciInfo_t (v3): {@code busId} as nvidia-smi prints it, {@code 00000000:53:00.0}. */
  record PciInfo(String busId, int domain, int bus, int device, int pciDeviceId) {
    public PciInfo {
      requireNonNull(busId, "busId is null");
    }
  }

  /** nvmlDeviceGetMigMode: NVML_DEVICE_MIG_DISABLE (0) or NVML_DEVICE_MIG_ENABLE (1). */
  record MigMode(int current, int pending) {}

  /** The part of nvmlDeviceAttributes_t the inventory uses. */
  record DeviceAttributes(int multiprocessorCount, long memorySizeMb) {}

  /** nvmlDeviceGetRemappedRows. */
  record RemappedRows(int correctable, int uncorrectable, boolean pending, boolean failed) {}

  /**
   * nvmlGpuFabricInfoV_t (v3) or, on drivers without it, nvmlGpuFabricInfo_t with {@code
   * healthSummary} 0 (NOT_SUPPORTED). {@code state}: NVML_GPU_FABRIC_STATE_NOT_SUPPORTED 0,
   * NOT_STARTED 1, IN_PROGRESS 2, COMPLETED 3; {@code status} is an NVML return code, meaningful
   * once COMPLETED; {@code healthSummary}: NOT_SUPPORTED 0, HEALTHY 1, UNHEALTHY 2,
   * LIMITED_CAPACITY 3.
   */
  record FabricInfo(String clusterUuid, int status, int cliqueId, int state, int healthSummary) {
    public FabricInfo {
      requireNonNull(clusterUuid, "clusterUuid is null");
    }
  }

  /** nvmlEventData_t: {@code eventData} is the XID for an XID event. */
  record EventData(DeviceHandle device, long eventType, long eventData) {
    public EventData {
      requireNonNull(device, "device is null");
    }
  }

  void init() throws NvmlException;

  void shutdown() throws NvmlException;

  /** nvmlErrorString: NVML's text for a return code. */
  String errorString(int returnCode);

  String systemGetDriverVersion() throws NvmlException;

  /** nvmlSystemGetCudaDriverVersion_v2: 1000 × major + 10 × minor, e.g. 13000 for 13.0. */
  int systemGetCudaDriverVersion() throws NvmlException;

  int deviceGetCount() throws NvmlException;

  DeviceHandle deviceGetHandleByIndex(int index) throws NvmlException;

  String deviceGetUuid(DeviceHandle device) throws NvmlException;

  String deviceGetName(DeviceHandle device) throws NvmlException;

  Memory deviceGetMemoryInfo(DeviceHandle device) throws NvmlException;

  PciInfo deviceGetPciInfo(DeviceHandle device) throws NvmlException;

  MigMode deviceGetMigMode(DeviceHandle device) throws NvmlException;

  int deviceGetMaxMigDeviceCount(DeviceHandle device) throws NvmlException;

  DeviceHandle deviceGetMigDeviceHandleByIndex(DeviceHandle device, int index) throws NvmlException;

  int deviceGetGpuInstanceId(DeviceHandle migDevice) throws NvmlException;

  int deviceGetComputeInstanceId(DeviceHandle migDevice) throws NvmlException;

  DeviceAttributes deviceGetAttributes(DeviceHandle device) throws NvmlException;

  /**
   * nvmlDeviceGetMemoryAffinity with NVML_AFFINITY_SCOPE_NODE: bit n of word n/64 is set when NUMA
   * node n is near the GPU.
   */
  long[] deviceGetMemoryAffinity(DeviceHandle device, int nodeSetWords) throws NvmlException;

  RemappedRows deviceGetRemappedRows(DeviceHandle device) throws NvmlException;

  FabricInfo deviceGetGpuFabricInfo(DeviceHandle device) throws NvmlException;

  /** nvmlDeviceGetFieldValues for one field whose value is an unsigned int. */
  long deviceFieldValueUnsigned(DeviceHandle device, int fieldId) throws NvmlException;

  /** nvmlDeviceGetNvLinkState: true when the link is NVML_FEATURE_ENABLED (active). */
  boolean deviceGetNvLinkState(DeviceHandle device, int link) throws NvmlException;

  /** nvmlDeviceGetNvLinkRemotePciInfo_v2: what the link's far end is. */
  PciInfo deviceGetNvLinkRemotePciInfo(DeviceHandle device, int link) throws NvmlException;

  /**
   * nvmlDeviceGetNvLinkRemoteDeviceType: NVML_NVLINK_DEVICE_TYPE_GPU 0, IBMNPU 1, SWITCH 2, UNKNOWN
   * 0xFF.
   */
  int deviceGetNvLinkRemoteDeviceType(DeviceHandle device, int link) throws NvmlException;

  /**
   * nvmlDeviceGetTopologyCommonAncestor: NVML_TOPOLOGY_INTERNAL 0, SINGLE 10, MULTIPLE 20,
   * HOSTBRIDGE 30, NODE 40, SYSTEM 50.
   */
  int deviceGetTopologyCommonAncestor(DeviceHandle a, DeviceHandle b) throws NvmlException;

  EventSetHandle eventSetCreate() throws NvmlException;

  void deviceRegisterEvents(DeviceHandle device, long eventTypes, EventSetHandle set)
      throws NvmlException;

  /**
   * nvmlEventSetWait_v2: the next event, or empty when none came within {@code timeoutMillis}
   * (NVML_ERROR_TIMEOUT).
   */
  Optional<EventData> eventSetWait(EventSetHandle set, int timeoutMillis) throws NvmlException;

  void eventSetFree(EventSetHandle set) throws NvmlException;
}
