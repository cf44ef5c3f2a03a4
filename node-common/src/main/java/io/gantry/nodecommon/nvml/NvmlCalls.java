package io.gantry.nodecommon.nvml;

import java.util.Optional;

/**
 * Reads a value a GPU or driver may not have: the NVML return codes that mean "not here"
 * (NOT_SUPPORTED, FUNCTION_NOT_FOUND on an older driver, NOT_FOUND) give empty, as nvidia-smi
 * prints N/A; any other failure is thrown.
 */
final class NvmlCalls {
  private NvmlCalls() {}

  /** One NVML call returning a value. */
  @FunctionalInterface
  interface Call<T> {
    T get() throws NvmlException;
  }

  static <T> Optional<T> optional(Call<T> call) throws NvmlException {
    try {
      return Optional.of(call.get());
    } catch (NvmlException e) {
      if (absent(e)) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** True for the return codes that mean the value does not exist here. */
  static boolean absent(NvmlException e) {
    return e.is(Nvml.ERROR_NOT_SUPPORTED)
        || e.is(Nvml.ERROR_FUNCTION_NOT_FOUND)
        || e.is(Nvml.ERROR_NOT_FOUND);
  }
}
