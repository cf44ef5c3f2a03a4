package io.gantry.scheduler.kube.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class DebugServerAddressTest {
  @Test
  void theDefaultIsTheLoopbackOnly() {
    InetSocketAddress address = DebugServer.parseAddress(DebugServer.DEFAULT_ADDRESS);

    assertThat(address.getAddress().isLoopbackAddress()).isTrue();
    assertThat(address.getPort()).isEqualTo(8081);
  }

  @Test
  void anyAddressAndIpv6AreAccepted() {
    assertThat(DebugServer.parseAddress("0.0.0.0:9000").getAddress().isAnyLocalAddress()).isTrue();
    assertThat(DebugServer.parseAddress("[::1]:9000").getAddress().isLoopbackAddress()).isTrue();
  }

  @Test
  void aMalformedAddressIsRefusedSayingWhy() {
    assertThatThrownBy(() -> DebugServer.parseAddress("8081"))
        .hasMessage("expected HOST:PORT, got '8081'");
    assertThatThrownBy(() -> DebugServer.parseAddress("localhost:http"))
        .hasMessage("expected HOST:PORT, got 'localhost:http'");
    assertThatThrownBy(() -> DebugServer.parseAddress("127.0.0.1:70000"))
        .hasMessage("port must be between 0 and 65535, got 70000");
    assertThatThrownBy(() -> DebugServer.parseAddress("no-such-host.invalid:8081"))
        .hasMessage("cannot resolve host 'no-such-host.invalid'");
  }
}
