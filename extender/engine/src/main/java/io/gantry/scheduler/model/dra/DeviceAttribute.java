package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

/**
 * One attribute value of a device (resource.k8s.io/v1 {@code DeviceAttribute}): exactly one of int,
 * bool, string or version. Two attributes are equal when type and value are, which is what {@code
 * matchAttribute} compares; ints and bools are kept in their canonical spelling so equal values
 * compare equal.
 */
public record DeviceAttribute(Type type, String value) {
  /** The field of the manifest that held the value. */
  public enum Type {
    INT("int"),
    BOOL("bool"),
    STRING("string"),
    VERSION("version");

    private final String fieldName;

    Type(String fieldName) {
      this.fieldName = fieldName;
    }

    public String fieldName() {
      return fieldName;
    }
  }

  public DeviceAttribute {
    requireNonNull(type, "type is null");
    requireNonNull(value, "value is null");
  }

  public static DeviceAttribute ofInt(long value) {
    return new DeviceAttribute(Type.INT, Long.toString(value));
  }

  public static DeviceAttribute ofBool(boolean value) {
    return new DeviceAttribute(Type.BOOL, Boolean.toString(value));
  }

  public static DeviceAttribute ofString(String value) {
    return new DeviceAttribute(Type.STRING, value);
  }

  public static DeviceAttribute ofVersion(String value) {
    return new DeviceAttribute(Type.VERSION, value);
  }

  public long asLong() {
    if (type != Type.INT) {
      throw new IllegalStateException("attribute is a " + type.fieldName() + ", not an int");
    }
    return Long.parseLong(value);
  }

  public boolean asBoolean() {
    if (type != Type.BOOL) {
      throw new IllegalStateException("attribute is a " + type.fieldName() + ", not a bool");
    }
    return Boolean.parseBoolean(value);
  }

  @Override
  public String toString() {
    return type.fieldName() + ":" + value;
  }
}
