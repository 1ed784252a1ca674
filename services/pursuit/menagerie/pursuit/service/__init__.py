"""The Pursuit gRPC service: the engine behind menagerie.pursuit.v1.Pursuit and Matches."""

from menagerie.pursuit.engine import PursuitEngine
from menagerie.pursuit.v1 import pursuit_pb2, pursuit_pb2_grpc
from menagerie.shared.games.binding import GameBinding

BINDING = GameBinding(engine=PursuitEngine(), pb2=pursuit_pb2, pb2_grpc=pursuit_pb2_grpc, service="Pursuit")

__all__ = ["BINDING"]
