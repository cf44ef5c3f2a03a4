package io.gantry.kubemodel.read;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;

/**
 * What an {@link IOException} from {@code java.nio.file} means, in the words {@code ls} would use
 * ("permission denied"), without the Java class name or the path the message already starts with.
 */
public final class IoProblem {
  private IoProblem() {}

  public static String describe(IOException e) {
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    if (e instanceof FileSystemException) {
      String reason = ((FileSystemException) e).getReason();
      if (reason != null && !reason.isBlank()) {
        return reason.strip().toLowerCase(Locale.ROOT);
      }
    }
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message.strip();
  }
}
