package io.gantry.gpusharing.inventory.json;

/**
 * A published inventory could not be read: the message names the field (a JSON path such as {@code
 * devices[2].memoryMib}) and says what was expected.
 */
public final class InventoryFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  public InventoryFormatException(String message) {
    super(message);
  }

  public InventoryFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
