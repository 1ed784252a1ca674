"""The Fantasy Zoo gRPC service: the engine behind menagerie.zoo.v1.Zoo and Matches."""

from menagerie.shared.games.binding import GameBinding
from menagerie.zoo.engine import ZooEngine
from menagerie.zoo.v1 import zoo_pb2, zoo_pb2_grpc

BINDING = GameBinding(engine=ZooEngine(), pb2=zoo_pb2, pb2_grpc=zoo_pb2_grpc, service="Zoo")

__all__ = ["BINDING"]
