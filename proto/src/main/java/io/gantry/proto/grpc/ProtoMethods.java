package io.gantry.proto.grpc;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.Descriptors;
import com.google.protobuf.Message;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.ServiceDescriptor;
import io.grpc.protobuf.ProtoFileDescriptorSupplier;
import io.grpc.protobuf.ProtoMethodDescriptorSupplier;
import io.grpc.protobuf.ProtoServiceDescriptorSupplier;
import io.grpc.protobuf.ProtoUtils;

/**
 * Builds gRPC descriptors for a service declared in a {@code .proto} file, from the protobuf
 * descriptor that protoc generated for it. Each method is checked against the proto declaration
 * (name, request and response types, streaming), so a binding cannot drift from its contract: a
 * mismatch fails when the binding class loads.
 */
public final class ProtoMethods {
  private final Descriptors.ServiceDescriptor service;

  private ProtoMethods(Descriptors.ServiceDescriptor service) {
    this.service = requireNonNull(service, "service is null");
  }

  /** The methods of {@code serviceName} (its simple name) in {@code file}. */
  public static ProtoMethods of(Descriptors.FileDescriptor file, String serviceName) {
    Descriptors.ServiceDescriptor service = file.findServiceByName(serviceName);
    if (service == null) {
      throw new IllegalArgumentException(file.getName() + " declares no service " + serviceName);
    }
    return new ProtoMethods(service);
  }

  /** The service's full name on the wire, for example {@code v1beta1.DevicePlugin}. */
  public String serviceName() {
    return service.getFullName();
  }

  /** A unary method: one request, one response. */
  public <ReqT extends Message, RespT extends Message> MethodDescriptor<ReqT, RespT> unary(
      String methodName, ReqT requestPrototype, RespT responsePrototype) {
    return method(methodName, MethodType.UNARY, requestPrototype, responsePrototype);
  }

  /** A server-streaming method: one request, a stream of responses. */
  public <ReqT extends Message, RespT extends Message>
      MethodDescriptor<ReqT, RespT> serverStreaming(
          String methodName, ReqT requestPrototype, RespT responsePrototype) {
    return method(methodName, MethodType.SERVER_STREAMING, requestPrototype, responsePrototype);
  }

  /** The service descriptor holding {@code methods}, with the proto schema attached. */
  public ServiceDescriptor serviceDescriptor(MethodDescriptor<?, ?>... methods) {
    ServiceDescriptor.Builder builder =
        ServiceDescriptor.newBuilder(serviceName()).setSchemaDescriptor(new ServiceSchema(service));
    for (MethodDescriptor<?, ?> m : methods) {
      builder.addMethod(m);
    }
    return builder.build();
  }

  private <ReqT extends Message, RespT extends Message> MethodDescriptor<ReqT, RespT> method(
      String methodName, MethodType type, ReqT requestPrototype, RespT responsePrototype) {
    Descriptors.MethodDescriptor declared = service.findMethodByName(methodName);
    if (declared == null) {
      throw new IllegalArgumentException(serviceName() + " declares no method " + methodName);
    }
    check(declared, "request type", declared.getInputType(), requestPrototype);
    check(declared, "response type", declared.getOutputType(), responsePrototype);
    MethodType declaredType = typeOf(declared);
    if (declaredType != type) {
      throw new IllegalArgumentException(
          declared.getFullName() + " is " + declaredType + " in the proto, bound as " + type);
    }
    return MethodDescriptor.<ReqT, RespT>newBuilder()
        .setType(type)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(serviceName(), methodName))
        .setRequestMarshaller(ProtoUtils.marshaller(requestPrototype))
        .setResponseMarshaller(ProtoUtils.marshaller(responsePrototype))
        .setSchemaDescriptor(new MethodSchema(service, declared))
        .build();
  }

  /** The gRPC method type a proto method declares. */
  public static MethodType typeOf(Descriptors.MethodDescriptor method) {
    if (method.isClientStreaming()) {
      return method.isServerStreaming() ? MethodType.BIDI_STREAMING : MethodType.CLIENT_STREAMING;
    }
    return method.isServerStreaming() ? MethodType.SERVER_STREAMING : MethodType.UNARY;
  }

  private static void check(
      Descriptors.MethodDescriptor method,
      String what,
      Descriptors.Descriptor declared,
      Message prototype) {
    if (!declared.equals(prototype.getDescriptorForType())) {
      throw new IllegalArgumentException(
          method.getFullName()
              + " "
              + what
              + " is "
              + declared.getFullName()
              + " in the proto, bound as "
              + prototype.getDescriptorForType().getFullName());
    }
  }

  private static class ServiceSchema
      implements ProtoFileDescriptorSupplier, ProtoServiceDescriptorSupplier {
    final Descriptors.ServiceDescriptor service;

    ServiceSchema(Descriptors.ServiceDescriptor service) {
      this.service = service;
    }

    @Override
    public Descriptors.FileDescriptor getFileDescriptor() {
      return service.getFile();
    }

    @Override
    public Descriptors.ServiceDescriptor getServiceDescriptor() {
      return service;
    }
  }

  private static final class MethodSchema extends ServiceSchema
      implements ProtoMethodDescriptorSupplier {
    private final Descriptors.MethodDescriptor method;

    MethodSchema(Descriptors.ServiceDescriptor service, Descriptors.MethodDescriptor method) {
      super(service);
      this.method = method;
    }

    @Override
    public Descriptors.MethodDescriptor getMethodDescriptor() {
      return method;
    }
  }
}
