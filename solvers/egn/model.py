"""The vertex-scoring GNN of Erdos Goes Neural (Karalias and Loukas, NeurIPS 2020), written here from the paper:
``frontierco.kit.vertex_gnn``'s network (shared with egn-mds), named EGN here."""

from frontierco.kit.vertex_gnn import Layer, ModelConfig, uniform_logit
from frontierco.kit.vertex_gnn import VertexGNN as EGN

__all__ = ["EGN", "Layer", "ModelConfig", "uniform_logit"]
