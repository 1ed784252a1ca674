"""The Beasts gRPC service: the engine behind menagerie.beasts.v1.Beasts and Matches."""

from menagerie.beasts.engine import BeastsEngine
from menagerie.beasts.v1 import beasts_pb2, beasts_pb2_grpc
from menagerie.shared.games.binding import GameBinding

BINDING = GameBinding(engine=BeastsEngine(), pb2=beasts_pb2, pb2_grpc=beasts_pb2_grpc, service="Beasts")

__all__ = ["BINDING"]
