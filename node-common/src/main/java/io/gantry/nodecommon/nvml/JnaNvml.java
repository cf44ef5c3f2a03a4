// Over 450 lines on purpose: this file is the whole JNA binding of nvml.h (the calls, the library
// interface and the struct layouts they fill), kept together so that each layout is checked against
// the header next to the calls that read it; split, one C binding would be spread over files.
package io.gantry.nodecommon.nvml;

import static java.util.Objects.requireNonNull;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.IntSupplier;

/**
 * {@link Nvml} over libnvidia-ml.so.1 through JNA (no native build: the driver's library is loaded
 * at run time). Struct layouts follow nvml.h: nvmlMemory_t, nvmlPciInfo_t (the v3 layout with the
 * 32-byte busId), nvmlDeviceAttributes_t, nvmlGpuFabricInfo_t / nvmlGpuFabricInfo_v3_t,
 * nvmlFieldValue_t and nvmlEventData_t. A function the installed driver's library lacks fails with
 * NVML_ERROR_FUNCTION_NOT_FOUND rather than an {@link UnsatisfiedLinkError}.
 */
public final class JnaNvml implements Nvml {
  /** The versioned name the driver installs (the unversioned one comes with development files). */
  public static final String LIBRARY = "libnvidia-ml.so.1";

  private static final int UUID_BUFFER_BYTES = 96; // NVML_DEVICE_UUID_V2_BUFFER_SIZE
  private static final int NAME_BUFFER_BYTES = 96; // NVML_DEVICE_NAME_V2_BUFFER_SIZE
  private static final int DRIVER_VERSION_BUFFER_BYTES = 80;
  private static final int AFFINITY_SCOPE_NODE = 0;
  private static final int FEATURE_ENABLED = 1;

  private final NvmlLibrary library;

  private JnaNvml(NvmlLibrary library) {
    this.library = requireNonNull(library, "library is null");
  }

  /**
   * Loads libnvidia-ml.so.1 (not initialised yet: call {@link #init()}).
   *
   * @throws NvmlException when the library cannot be loaded (no NVIDIA driver on this machine)
   */
  public static JnaNvml load() throws NvmlException {
    return load(LIBRARY);
  }

  /** Loads NVML from {@code library} (a file name the dynamic linker finds, or a path). */
  public static JnaNvml load(String library) throws NvmlException {
    try {
      return new JnaNvml(Native.load(library, NvmlLibrary.class));
    } catch (UnsatisfiedLinkError e) {
      throw NvmlException.unavailable(
          "NVML is not available: " + library + " could not be loaded (" + dlopenError(e) + ")", e);
    }
  }

  /**
   * The dynamic linker's reason from JNA's message, which goes on to list every place it searched
   * (the whole class path).
   */
  static String dlopenError(UnsatisfiedLinkError e) {
    String message = String.valueOf(e.getMessage());
    return message
        .lines()
        .map(String::strip)
        .filter(l -> !l.startsWith("Unable to load library") && !l.startsWith("Native library"))
        .findFirst()
        .orElse(message.lines().findFirst().orElse("unknown reason"));
  }

  @Override
  public void init() throws NvmlException {
    check("nvmlInit_v2", library::nvmlInit_v2);
  }

  @Override
  public void shutdown() throws NvmlException {
    check("nvmlShutdown", library::nvmlShutdown);
  }

  @Override
  public String errorString(int returnCode) {
    try {
      String text = library.nvmlErrorString(returnCode);
      return text == null ? "unknown error" : text;
    } catch (UnsatisfiedLinkError e) {
      return "unknown error";
    }
  }

  @Override
  public String systemGetDriverVersion() throws NvmlException {
    byte[] buffer = new byte[DRIVER_VERSION_BUFFER_BYTES];
    check(
        "nvmlSystemGetDriverVersion",
        () -> library.nvmlSystemGetDriverVersion(buffer, buffer.length));
    return cString(buffer);
  }

  @Override
  public int systemGetCudaDriverVersion() throws NvmlException {
    IntByReference version = new IntByReference();
    check(
        "nvmlSystemGetCudaDriverVersion_v2",
        () -> library.nvmlSystemGetCudaDriverVersion_v2(version));
    return version.getValue();
  }

  @Override
  public int deviceGetCount() throws NvmlException {
    IntByReference count = new IntByReference();
    check("nvmlDeviceGetCount_v2", () -> library.nvmlDeviceGetCount_v2(count));
    return count.getValue();
  }

  @Override
  public DeviceHandle deviceGetHandleByIndex(int index) throws NvmlException {
    PointerByReference device = new PointerByReference();
    check(
        "nvmlDeviceGetHandleByIndex_v2",
        () -> library.nvmlDeviceGetHandleByIndex_v2(index, device));
    return new DeviceHandle(Pointer.nativeValue(device.getValue()));
  }

  @Override
  public String deviceGetUuid(DeviceHandle device) throws NvmlException {
    byte[] buffer = new byte[UUID_BUFFER_BYTES];
    check(
        "nvmlDeviceGetUUID",
        () -> library.nvmlDeviceGetUUID(pointer(device), buffer, buffer.length));
    return cString(buffer);
  }

  @Override
  public String deviceGetName(DeviceHandle device) throws NvmlException {
    byte[] buffer = new byte[NAME_BUFFER_BYTES];
    check(
        "nvmlDeviceGetName",
        () -> library.nvmlDeviceGetName(pointer(device), buffer, buffer.length));
    return cString(buffer);
  }

  @Override
  public Memory deviceGetMemoryInfo(DeviceHandle device) throws NvmlException {
    MemoryStruct memory = new MemoryStruct();
    check(
        "nvmlDeviceGetMemoryInfo", () -> library.nvmlDeviceGetMemoryInfo(pointer(device), memory));
    return new Memory(memory.total, memory.free, memory.used);
  }

  @Override
  public PciInfo deviceGetPciInfo(DeviceHandle device) throws NvmlException {
    PciInfoStruct pci = new PciInfoStruct();
    check("nvmlDeviceGetPciInfo_v3", () -> library.nvmlDeviceGetPciInfo_v3(pointer(device), pci));
    return pci.toRecord();
  }

  @Override
  public MigMode deviceGetMigMode(DeviceHandle device) throws NvmlException {
    IntByReference current = new IntByReference();
    IntByReference pending = new IntByReference();
    check(
        "nvmlDeviceGetMigMode",
        () -> library.nvmlDeviceGetMigMode(pointer(device), current, pending));
    return new MigMode(current.getValue(), pending.getValue());
  }

  @Override
  public int deviceGetMaxMigDeviceCount(DeviceHandle device) throws NvmlException {
    IntByReference count = new IntByReference();
    check(
        "nvmlDeviceGetMaxMigDeviceCount",
        () -> library.nvmlDeviceGetMaxMigDeviceCount(pointer(device), count));
    return count.getValue();
  }

  @Override
  public DeviceHandle deviceGetMigDeviceHandleByIndex(DeviceHandle device, int index)
      throws NvmlException {
    PointerByReference mig = new PointerByReference();
    check(
        "nvmlDeviceGetMigDeviceHandleByIndex",
        () -> library.nvmlDeviceGetMigDeviceHandleByIndex(pointer(device), index, mig));
    return new DeviceHandle(Pointer.nativeValue(mig.getValue()));
  }

  @Override
  public int deviceGetGpuInstanceId(DeviceHandle migDevice) throws NvmlException {
    IntByReference id = new IntByReference();
    check(
        "nvmlDeviceGetGpuInstanceId",
        () -> library.nvmlDeviceGetGpuInstanceId(pointer(migDevice), id));
    return id.getValue();
  }

  @Override
  public int deviceGetComputeInstanceId(DeviceHandle migDevice) throws NvmlException {
    IntByReference id = new IntByReference();
    check(
        "nvmlDeviceGetComputeInstanceId",
        () -> library.nvmlDeviceGetComputeInstanceId(pointer(migDevice), id));
    return id.getValue();
  }

  @Override
  public DeviceAttributes deviceGetAttributes(DeviceHandle device) throws NvmlException {
    AttributesStruct attributes = new AttributesStruct();
    check(
        "nvmlDeviceGetAttributes_v2",
        () -> library.nvmlDeviceGetAttributes_v2(pointer(device), attributes));
    return new DeviceAttributes(attributes.multiprocessorCount, attributes.memorySizeMB);
  }

  @Override
  public long[] deviceGetMemoryAffinity(DeviceHandle device, int nodeSetWords)
      throws NvmlException {
    long[] nodeSet = new long[nodeSetWords];
    check(
        "nvmlDeviceGetMemoryAffinity",
        () ->
            library.nvmlDeviceGetMemoryAffinity(
                pointer(device), nodeSetWords, nodeSet, AFFINITY_SCOPE_NODE));
    return nodeSet;
  }

  @Override
  public RemappedRows deviceGetRemappedRows(DeviceHandle device) throws NvmlException {
    IntByReference correctable = new IntByReference();
    IntByReference uncorrectable = new IntByReference();
    IntByReference pending = new IntByReference();
    IntByReference failed = new IntByReference();
    check(
        "nvmlDeviceGetRemappedRows",
        () ->
            library.nvmlDeviceGetRemappedRows(
                pointer(device), correctable, uncorrectable, pending, failed));
    return new RemappedRows(
        correctable.getValue(),
        uncorrectable.getValue(),
        pending.getValue() != 0,
        failed.getValue() != 0);
  }

  /** The v3 query (with the health summary), or the v1 one on drivers that predate it. */
  @Override
  public FabricInfo deviceGetGpuFabricInfo(DeviceHandle device) throws NvmlException {
    FabricInfoV3Struct v3 = new FabricInfoV3Struct();
    try {
      check(
          "nvmlDeviceGetGpuFabricInfoV",
          () -> library.nvmlDeviceGetGpuFabricInfoV(pointer(device), v3));
      return new FabricInfo(
          uuid(v3.clusterUuid), v3.status, v3.cliqueId, v3.state & 0xFF, v3.healthSummary & 0xFF);
    } catch (NvmlException e) {
      if (!e.is(ERROR_FUNCTION_NOT_FOUND) && !e.is(ARGUMENT_VERSION_MISMATCH)) {
        throw e;
      }
    }
    FabricInfoStruct v1 = new FabricInfoStruct();
    check(
        "nvmlDeviceGetGpuFabricInfo",
        () -> library.nvmlDeviceGetGpuFabricInfo(pointer(device), v1));
    return new FabricInfo(uuid(v1.clusterUuid), v1.status, v1.cliqueId, v1.state & 0xFF, 0);
  }

  @Override
  public long deviceFieldValueUnsigned(DeviceHandle device, int fieldId) throws NvmlException {
    FieldValueStruct value = new FieldValueStruct();
    value.fieldId = fieldId;
    check(
        "nvmlDeviceGetFieldValues",
        () -> library.nvmlDeviceGetFieldValues(pointer(device), 1, value));
    if (value.nvmlReturn != 0) {
      throw NvmlException.failed(
          "nvmlDeviceGetFieldValues(field " + fieldId + ")",
          value.nvmlReturn,
          errorString(value.nvmlReturn));
    }
    return value.unsignedValue();
  }

  @Override
  public boolean deviceGetNvLinkState(DeviceHandle device, int link) throws NvmlException {
    IntByReference active = new IntByReference();
    check(
        "nvmlDeviceGetNvLinkState",
        () -> library.nvmlDeviceGetNvLinkState(pointer(device), link, active));
    return active.getValue() == FEATURE_ENABLED;
  }

  @Override
  public PciInfo deviceGetNvLinkRemotePciInfo(DeviceHandle device, int link) throws NvmlException {
    PciInfoStruct pci = new PciInfoStruct();
    check(
        "nvmlDeviceGetNvLinkRemotePciInfo_v2",
        () -> library.nvmlDeviceGetNvLinkRemotePciInfo_v2(pointer(device), link, pci));
    return pci.toRecord();
  }

  @Override
  public int deviceGetNvLinkRemoteDeviceType(DeviceHandle device, int link) throws NvmlException {
    IntByReference type = new IntByReference();
    check(
        "nvmlDeviceGetNvLinkRemoteDeviceType",
        () -> library.nvmlDeviceGetNvLinkRemoteDeviceType(pointer(device), link, type));
    return type.getValue();
  }

  @Override
  public int deviceGetTopologyCommonAncestor(DeviceHandle a, DeviceHandle b) throws NvmlException {
    IntByReference level = new IntByReference();
    check(
        "nvmlDeviceGetTopologyCommonAncestor",
        () -> library.nvmlDeviceGetTopologyCommonAncestor(pointer(a), pointer(b), level));
    return level.getValue();
  }

  @Override
  public EventSetHandle eventSetCreate() throws NvmlException {
    PointerByReference set = new PointerByReference();
    check("nvmlEventSetCreate", () -> library.nvmlEventSetCreate(set));
    return new EventSetHandle(Pointer.nativeValue(set.getValue()));
  }

  @Override
  public void deviceRegisterEvents(DeviceHandle device, long eventTypes, EventSetHandle set)
      throws NvmlException {
    check(
        "nvmlDeviceRegisterEvents",
        () -> library.nvmlDeviceRegisterEvents(pointer(device), eventTypes, pointer(set)));
  }

  @Override
  public Optional<EventData> eventSetWait(EventSetHandle set, int timeoutMillis)
      throws NvmlException {
    EventDataStruct data = new EventDataStruct();
    int result = call(() -> library.nvmlEventSetWait_v2(pointer(set), data, timeoutMillis));
    if (result == ERROR_TIMEOUT) {
      return Optional.empty();
    }
    if (result != 0) {
      throw NvmlException.failed("nvmlEventSetWait_v2", result, errorString(result));
    }
    return Optional.of(
        new EventData(
            new DeviceHandle(Pointer.nativeValue(data.device)), data.eventType, data.eventData));
  }

  @Override
  public void eventSetFree(EventSetHandle set) throws NvmlException {
    check("nvmlEventSetFree", () -> library.nvmlEventSetFree(pointer(set)));
  }

  /** NVML_ERROR_ARGUMENT_VERSION_MISMATCH: a versioned struct the library does not know. */
  private static final int ARGUMENT_VERSION_MISMATCH = 25;

  private void check(String function, IntSupplier call) throws NvmlException {
    int result = call(call);
    if (result != 0) {
      throw NvmlException.failed(function, result, errorString(result));
    }
  }

  /** Runs {@code call}; a symbol missing from the library reads as FUNCTION_NOT_FOUND. */
  private static int call(IntSupplier call) {
    try {
      return call.getAsInt();
    } catch (UnsatisfiedLinkError e) {
      return ERROR_FUNCTION_NOT_FOUND;
    }
  }

  private static Pointer pointer(DeviceHandle device) {
    return new Pointer(device.address());
  }

  private static Pointer pointer(EventSetHandle set) {
    return new Pointer(set.address());
  }

  /** A NUL-terminated C string in {@code buffer} (NVML writes ASCII). */
  static String cString(byte[] buffer) {
    int length = 0;
    while (length < buffer.length && buffer[length] != 0) {
      length++;
    }
    return new String(buffer, 0, length, StandardCharsets.US_ASCII);
  }

  /** A fabric's 16-byte cluster UUID in its usual 8-4-4-4-12 form. */
  static String uuid(byte[] bytes) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < bytes.length; i++) {
      if (i == 4 || i == 6 || i == 8 || i == 10) {
        text.append('-');
      }
      text.append(String.format("%02x", bytes[i] & 0xFF));
    }
    return text.toString();
  }

  /** The C functions called, as nvml.h declares them (every one returns an nvmlReturn_t). */
  interface NvmlLibrary extends Library {
    int nvmlInit_v2();

    int nvmlShutdown();

    String nvmlErrorString(int result);

    int nvmlSystemGetDriverVersion(byte[] version, int length);

    int nvmlSystemGetCudaDriverVersion_v2(IntByReference version);

    int nvmlDeviceGetCount_v2(IntByReference count);

    int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device);

    int nvmlDeviceGetUUID(Pointer device, byte[] uuid, int length);

    int nvmlDeviceGetName(Pointer device, byte[] name, int length);

    int nvmlDeviceGetMemoryInfo(Pointer device, MemoryStruct memory);

    int nvmlDeviceGetPciInfo_v3(Pointer device, PciInfoStruct pci);

    int nvmlDeviceGetMigMode(Pointer device, IntByReference current, IntByReference pending);

    int nvmlDeviceGetMaxMigDeviceCount(Pointer device, IntByReference count);

    int nvmlDeviceGetMigDeviceHandleByIndex(Pointer device, int index, PointerByReference mig);

    int nvmlDeviceGetGpuInstanceId(Pointer device, IntByReference id);

    int nvmlDeviceGetComputeInstanceId(Pointer device, IntByReference id);

    int nvmlDeviceGetAttributes_v2(Pointer device, AttributesStruct attributes);

    // unsigned long *nodeSet: 64 bits on the Linux targets (x86_64, aarch64)
    int nvmlDeviceGetMemoryAffinity(Pointer device, int nodeSetSize, long[] nodeSet, int scope);

    int nvmlDeviceGetRemappedRows(
        Pointer device,
        IntByReference correctable,
        IntByReference uncorrectable,
        IntByReference pending,
        IntByReference failed);

    int nvmlDeviceGetGpuFabricInfoV(Pointer device, FabricInfoV3Struct info);

    int nvmlDeviceGetGpuFabricInfo(Pointer device, FabricInfoStruct info);

    int nvmlDeviceGetFieldValues(Pointer device, int valuesCount, FieldValueStruct values);

    int nvmlDeviceGetNvLinkState(Pointer device, int link, IntByReference isActive);

    int nvmlDeviceGetNvLinkRemotePciInfo_v2(Pointer device, int link, PciInfoStruct pci);

    int nvmlDeviceGetNvLinkRemoteDeviceType(Pointer device, int link, IntByReference type);

    int nvmlDeviceGetTopologyCommonAncestor(Pointer a, Pointer b, IntByReference level);

    int nvmlEventSetCreate(PointerByReference set);

    int nvmlDeviceRegisterEvents(Pointer device, long eventTypes, Pointer set);

    int nvmlEventSetWait_v2(Pointer set, EventDataStruct data, int timeoutMillis);

    int nvmlEventSetFree(Pointer set);
  }

  /** nvmlMemory_t: bytes. */
  @Structure.FieldOrder({"total", "free", "used"})
  public static final class MemoryStruct extends Structure {
    public long total;
    public long free;
    public long used;
  }

  /** nvmlPciInfo_t: busIdLegacy[16], five unsigned ints, busId[32] (68 bytes). */
  @Structure.FieldOrder({
    "busIdLegacy",
    "domain",
    "bus",
    "device",
    "pciDeviceId",
    "pciSubSystemId",
    "busId"
  })
  public static final class PciInfoStruct extends Structure {
    public byte[] busIdLegacy = new byte[16];
    public int domain;
    public int bus;
    public int device;
    public int pciDeviceId;
    public int pciSubSystemId;
    public byte[] busId = new byte[32];

    PciInfo toRecord() {
      return new PciInfo(cString(busId), domain, bus, device, pciDeviceId);
    }
  }

  /** nvmlDeviceAttributes_t: eight unsigned ints, then memorySizeMB (unsigned long long). */
  @Structure.FieldOrder({
    "multiprocessorCount",
    "sharedCopyEngineCount",
    "sharedDecoderCount",
    "sharedEncoderCount",
    "sharedJpegCount",
    "sharedOfaCount",
    "gpuInstanceSliceCount",
    "computeInstanceSliceCount",
    "memorySizeMB"
  })
  public static final class AttributesStruct extends Structure {
    public int multiprocessorCount;
    public int sharedCopyEngineCount;
    public int sharedDecoderCount;
    public int sharedEncoderCount;
    public int sharedJpegCount;
    public int sharedOfaCount;
    public int gpuInstanceSliceCount;
    public int computeInstanceSliceCount;
    public long memorySizeMB;
  }

  /** nvmlGpuFabricInfo_t: clusterUuid[16], status, cliqueId, state (unsigned char). */
  @Structure.FieldOrder({"clusterUuid", "status", "cliqueId", "state"})
  public static final class FabricInfoStruct extends Structure {
    public byte[] clusterUuid = new byte[16];
    public int status;
    public int cliqueId;
    public byte state;
  }

  /**
   * nvmlGpuFabricInfo_v3_t: version first ({@code sizeof | 3 << 24}, NVML_STRUCT_VERSION), then the
   * v1 fields, healthMask and healthSummary (unsigned char).
   */
  @Structure.FieldOrder({
    "version",
    "clusterUuid",
    "status",
    "cliqueId",
    "state",
    "healthMask",
    "healthSummary"
  })
  public static final class FabricInfoV3Struct extends Structure {
    public int version;
    public byte[] clusterUuid = new byte[16];
    public int status;
    public int cliqueId;
    public byte state;
    public int healthMask;
    public byte healthSummary;

    public FabricInfoV3Struct() {
      version = size() | (3 << 24);
    }
  }

  /**
   * nvmlFieldValue_t: fieldId, scopeId, timestamp, latencyUsec, valueType, nvmlReturn, then the
   * 8-byte nvmlValue_t union (read here as its widest member).
   */
  @Structure.FieldOrder({
    "fieldId",
    "scopeId",
    "timestamp",
    "latencyUsec",
    "valueType",
    "nvmlReturn",
    "value"
  })
  public static final class FieldValueStruct extends Structure {
    private static final int VALUE_TYPE_UNSIGNED_INT = 1;
    private static final int VALUE_TYPE_SIGNED_INT = 5;
    private static final int VALUE_TYPE_UNSIGNED_SHORT = 6;

    public int fieldId;
    public int scopeId;
    public long timestamp;
    public long latencyUsec;
    public int valueType;
    public int nvmlReturn;
    public long value;

    /** The union read as {@code valueType} says (little-endian: narrow members sit low). */
    long unsignedValue() {
      return switch (valueType) {
        case VALUE_TYPE_UNSIGNED_INT, VALUE_TYPE_SIGNED_INT -> value & 0xFFFF_FFFFL;
        case VALUE_TYPE_UNSIGNED_SHORT -> value & 0xFFFFL;
        default -> value;
      };
    }
  }

  /**
   * nvmlEventData_t: device, eventType, eventData (the XID), gpuInstanceId and computeInstanceId
   * (the last two only on drivers from 450 on; older ones write 24 bytes of this 40).
   */
  @Structure.FieldOrder({"device", "eventType", "eventData", "gpuInstanceId", "computeInstanceId"})
  public static final class EventDataStruct extends Structure {
    public Pointer device;
    public long eventType;
    public long eventData;
    public int gpuInstanceId;
    public int computeInstanceId;
  }
}
