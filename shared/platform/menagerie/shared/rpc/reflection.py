"""Server reflection in both versions tools ask for: grpc.reflection.v1 and grpc.reflection.v1alpha.

grpcio-reflection 1.85 serves only v1alpha (v1 for Python is grpc/grpc#38576). v1's
schema is v1alpha's under another package — the same messages with the same field
numbers — so one servicer of the library answers both: v1 calls are decoded and
encoded with v1alpha's message types, which read and write the same bytes. The v1 file
descriptor, derived from the library's v1alpha one by renaming its package, joins the
descriptor pool so that reflection can describe the v1 service itself (`grpcurl
describe grpc.reflection.v1.ServerReflection`).
"""

from __future__ import annotations

from collections.abc import Iterable

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import FileDescriptor
from grpc_reflection.v1alpha import reflection as v1alpha
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

V1_PACKAGE = "grpc.reflection.v1"
V1_FILE = "grpc/reflection/v1/reflection.proto"
V1_SERVICE = f"{V1_PACKAGE}.ServerReflection"
V1ALPHA_SERVICE: str = v1alpha.SERVICE_NAME
_V1ALPHA_PACKAGE = reflection_pb2.DESCRIPTOR.package


def v1_file(pool: descriptor_pool.DescriptorPool | None = None) -> FileDescriptor:
    """grpc/reflection/v1/reflection.proto in `pool` (the default one), added on first use."""
    pool = pool or descriptor_pool.Default()
    try:
        return pool.FindFileByName(V1_FILE)
    except KeyError:
        pass
    proto = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(proto)
    old, new = f".{_V1ALPHA_PACKAGE}.", f".{V1_PACKAGE}."
    proto.name, proto.package = V1_FILE, V1_PACKAGE
    for message in proto.message_type:
        for message_field in message.field:
            if message_field.type_name.startswith(old):
                message_field.type_name = new + message_field.type_name.removeprefix(old)
    for service in proto.service:
        for method in service.method:
            method.input_type = new + method.input_type.removeprefix(old)
            method.output_type = new + method.output_type.removeprefix(old)
    # The options v1's own reflection.proto declares (v1alpha's name the old package).
    proto.options.Clear()
    proto.options.go_package = "google.golang.org/grpc/reflection/grpc_reflection_v1"
    proto.options.java_multiple_files = True
    proto.options.java_package = "io.grpc.reflection.v1"
    proto.options.java_outer_classname = "ServerReflectionProto"
    pool.Add(proto)
    return pool.FindFileByName(V1_FILE)


def enable_reflection(service_names: Iterable[str], server: grpc.aio.Server) -> list[str]:
    """Serves reflection v1 and v1alpha for `service_names` (and themselves); returns every name listed."""
    v1_file()
    names = sorted({*service_names, V1_SERVICE, V1ALPHA_SERVICE})
    servicer = v1alpha.aio.ReflectionServicer(names)
    # The library's own registration, for v1alpha.
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)  # type: ignore[no-untyped-call]
    method = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    v1 = grpc.method_handlers_generic_handler(V1_SERVICE, {"ServerReflectionInfo": method})
    server.add_generic_rpc_handlers((v1,))
    return names
