package io.gantry.kubemodel.read;

/** Kubernetes' namespace names that reading an object needs. */
public final class Namespaces {
  /** The namespace of an object whose manifest names none, as {@code kubectl apply} puts it. */
  public static final String DEFAULT = "default";

  private Namespaces() {}
}
