package io.gantry.proto.testing;

import com.google.protobuf.Descriptors;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Renders proto declarations the way protocols.md writes them, so tests compare text. */
public final class ProtoContract {
  private ProtoContract() {}

  /**
   * Every field of every message in {@code file}, one line each: {@code Message: name = number :
   * type}, in declaration order.
   */
  public static List<String> fields(Descriptors.FileDescriptor file) {
    List<String> lines = new ArrayList<>();
    for (Descriptors.Descriptor message : file.getMessageTypes()) {
      for (FieldDescriptor f : message.getFields()) {
        lines.add(message.getName() + ": " + f.getName() + " = " + f.getNumber() + " : " + type(f));
      }
    }
    return lines;
  }

  /** Every method of {@code service}: {@code /full.Service/Method Request -> [stream] Response}. */
  public static List<String> methods(Descriptors.ServiceDescriptor service) {
    List<String> lines = new ArrayList<>();
    for (Descriptors.MethodDescriptor m : service.getMethods()) {
      lines.add(
          "/"
              + service.getFullName()
              + "/"
              + m.getName()
              + " "
              + m.getInputType().getName()
              + " -> "
              + (m.isServerStreaming() ? "stream " : "")
              + m.getOutputType().getName());
    }
    return lines;
  }

  private static String type(FieldDescriptor f) {
    if (f.isMapField()) {
      Descriptors.Descriptor entry = f.getMessageType();
      return "map<"
          + scalar(entry.findFieldByName("key"))
          + ","
          + scalar(entry.findFieldByName("value"))
          + ">";
    }
    String base = scalar(f);
    if (f.isRepeated()) {
      return "repeated " + base;
    }
    return f.toProto().getProto3Optional() ? "optional " + base : base;
  }

  private static String scalar(FieldDescriptor f) {
    return switch (f.getType()) {
      case MESSAGE -> f.getMessageType().getName();
      case ENUM -> f.getEnumType().getName();
      default -> f.getType().name().toLowerCase(Locale.ROOT);
    };
  }
}
