package io.gantry.nodecommon.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Native;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The JNA binding's struct layouts against nvml.h (sizes as a 64-bit C compiler lays them out) and
 * its conversions. The calls themselves need a GPU node.
 */
class JnaNvmlTest {
  @Test
  void structLayoutsMatchNvmlH() {
    assertThat(new JnaNvml.MemoryStruct().size()).isEqualTo(24);
    // busIdLegacy[16] + 5 unsigned ints + busId[32]
    assertThat(new JnaNvml.PciInfoStruct().size()).isEqualTo(68);
    // 8 unsigned ints + unsigned long long
    assertThat(new JnaNvml.AttributesStruct().size()).isEqualTo(40);
    // clusterUuid[16], status, cliqueId, state (unsigned char) padded to 4
    assertThat(new JnaNvml.FabricInfoStruct().size()).isEqualTo(28);
    assertThat(new JnaNvml.FabricInfoV3Struct().size()).isEqualTo(40);
    assertThat(new JnaNvml.FieldValueStruct().size()).isEqualTo(40);
    assertThat(new JnaNvml.EventDataStruct().size()).isEqualTo(Native.POINTER_SIZE + 8 + 8 + 4 + 4);
  }

  @Test
  void theFabricInfoVersionIsNvmlStructVersion() {
    // NVML_STRUCT_VERSION(GpuFabricInfo, 3) = sizeof(nvmlGpuFabricInfo_v3_t) | 3 << 24
    assertThat(new JnaNvml.FabricInfoV3Struct().version).isEqualTo(40 | (3 << 24));
  }

  @Test
  void busIdIsTheNulTerminatedV3Field() {
    JnaNvml.PciInfoStruct pci = new JnaNvml.PciInfoStruct();
    byte[] id = "00000000:53:00.0".getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(id, 0, pci.busId, 0, id.length);
    byte[] legacy = "0000:53:00.0".getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(legacy, 0, pci.busIdLegacy, 0, legacy.length);

    assertThat(pci.toRecord().busId()).isEqualTo("00000000:53:00.0");
  }

  @Test
  void clusterUuidBytesPrintAsAUuid() {
    byte[] bytes = new byte[16];
    bytes[3] = 1;
    bytes[15] = 1;
    assertThat(JnaNvml.uuid(bytes)).isEqualTo("00000001-0000-0000-0000-000000000001");
  }

  @Test
  void anUnsignedIntFieldValueIgnoresTheUnionsHighBytes() {
    JnaNvml.FieldValueStruct value = new JnaNvml.FieldValueStruct();
    value.valueType = 1;
    value.value = 0xDEAD_BEEF_0000_0002L;
    assertThat(value.unsignedValue()).isEqualTo(2);
  }

  @Test
  void aLibraryThatDoesNotLoadFailsNamingIt() {
    assertThatThrownBy(() -> JnaNvml.load("libnvidia-ml-absent.so.1"))
        .isInstanceOf(NvmlException.class)
        .hasMessage(
            "NVML is not available: libnvidia-ml-absent.so.1 could not be loaded"
                + " (libnvidia-ml-absent.so.1: cannot open shared object file: No such file or"
                + " directory)")
        .satisfies(e -> assertThat(((NvmlException) e).unreadable()).isFalse());
  }
}
