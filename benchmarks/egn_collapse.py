"""Why does EGN training for MIS collapse to a uniform heatmap? (issue 43) Small probes, numbers printed.

On a few RB training graphs (FrontierCO's RB_800_1200 recipe, the training seeds of ``solvers/egn/train.py``):
the graph's degrees and the spread of the degree features; the loss -sum p + beta sum_E p_u p_v (per vertex) at
the uniform stationary point p = n / (2 beta m), at the planted set, at the static minimum-degree greedy set, and
its curvature there (beta times the adjacency's smallest eigenvalue: negative means a saddle); then, for a fresh
network (seed 0) and for the shipped checkpoint (or --checkpoint, or --state), the heatmap's mean and spread, the loss,
the gradient norms per parameter group, and how far the logits move when only the random feature column is redrawn.

    python benchmarks/egn_collapse.py --graphs 3
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import torch

from frontierco.solver import load_solver_module

features = load_solver_module("egn", "features")
loss_module = load_solver_module("egn", "loss")
model_module = load_solver_module("egn", "model")
decode = load_solver_module("egn", "decode")
checkpoint = load_solver_module("egn", "checkpoint")
train = load_solver_module("egn", "train")


def indicator(n: int, chosen: np.ndarray) -> torch.Tensor:
    p = torch.zeros(n)
    p[torch.from_numpy(np.asarray(chosen, dtype=np.int64))] = 1.0
    return p


def landscape(graph, beta: float, planted_size: int) -> None:  # type: ignore[no-untyped-def]
    n, m = graph.n, graph.m
    degree = np.bincount(graph.edges.ravel(), minlength=n)
    edges = torch.from_numpy(graph.edges.T.astype(np.int64))
    x = features.vertex_features(graph, np.random.default_rng(0))
    p_star = n / (2 * beta * m)
    uniform = float(loss_module.independent_set_loss(torch.full((n,), p_star), edges, beta))
    greedy = decode.decode(graph, decode.degree_scores(graph) + np.random.default_rng(0).random(n))
    at_greedy = float(loss_module.independent_set_loss(indicator(n, greedy), edges, beta))
    adjacency = np.zeros((n, n))
    adjacency[graph.edges[:, 0], graph.edges[:, 1]] = 1
    adjacency += adjacency.T
    low, high = np.linalg.eigvalsh(adjacency)[[0, -1]]
    print(
        f"  n {n} m {m} mean degree {degree.mean():.1f} (min {degree.min()}, max {degree.max()}, cv {degree.std() / degree.mean():.3f});"
        f" feature std: degree/mean {x[:, 1].std():.3f}, log ratio {x[:, 2].std():.3f}, neighbour mean {x[:, 3].std():.3f}"
    )
    print(
        f"  loss per vertex: uniform p*={p_star:.4f} -> {uniform:.4f} (= -1/(2 beta d) {-1 / (2 * beta * degree.mean()):.4f});"
        f" planted set ({planted_size}) {-planted_size / n:.4f}; static min-degree greedy set ({len(greedy)}) {at_greedy:.4f}"
    )
    print(f"  Hessian at uniform = beta A / n: eigenvalues of beta A in [{beta * low:.1f}, {beta * high:.1f}] (negative: a saddle)")


def network_probe(label: str, model, graph, beta: float) -> None:  # type: ignore[no-untyped-def]
    x = torch.from_numpy(features.vertex_features(graph, np.random.default_rng(1)))
    x2 = x.clone()
    x2[:, 4] = torch.from_numpy(np.random.default_rng(2).random(graph.n).astype(np.float32))
    directed = torch.from_numpy(features.directed_edges(graph))
    edges = torch.from_numpy(graph.edges.T.astype(np.int64))
    model.zero_grad()
    logits = model(x, directed)
    logits.retain_grad()
    p = torch.sigmoid(logits)
    loss = loss_module.independent_set_loss(p, edges, beta)
    loss.backward()
    groups: dict[str, float] = {}
    for name, parameter in model.named_parameters():
        key = name.split(".")[0]
        groups[key] = groups.get(key, 0.0) + float(parameter.grad.norm()) ** 2  # type: ignore[union-attr]
    with torch.no_grad():
        redrawn = model(x2, directed)
        head_bias = float(model.head.bias)
    degree = np.bincount(graph.edges.ravel(), minlength=graph.n)
    correlation = float(np.corrcoef(logits.detach().numpy(), degree)[0, 1])
    print(
        f"  {label}: p mean {float(p.detach().mean()):.4f} std {float(p.detach().std()):.4f}; logit std {float(logits.detach().std()):.3f},"
        f" corr(logit, degree) {correlation:+.2f}, redrawing the random column moves logits by {float((redrawn - logits).std()):.3f} (std);"
        f" head bias {head_bias:+.2f}"
    )
    print(
        f"    loss {float(loss.detach()):.5f}; |dloss/dlogit| {float(logits.grad.norm()):.2e};"  # type: ignore[union-attr]
        " grad norm by group " + ", ".join(f"{k} {v**0.5:.2e}" for k, v in groups.items())
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--graphs", type=int, default=3)
    parser.add_argument("--beta", type=float, default=loss_module.BETA)
    parser.add_argument("--checkpoint", type=Path, default=checkpoint.SHIPPED / "mis.pt")
    parser.add_argument("--state", type=Path, default=None, help="a training state (train.py's mis-state.pt): its last weights")
    parser.add_argument("--offset", action="store_true", help="the fresh network and --state with the logit offset (model.py)")
    args = parser.parse_args()
    torch.manual_seed(0)
    config = model_module.ModelConfig(hidden=32, layers=6, offset=args.beta if args.offset else 0.0)
    fresh = model_module.EGN(config)
    shipped = checkpoint.load(args.checkpoint)
    if args.state is not None:
        shipped = model_module.EGN(config)
        shipped.load_state_dict(torch.load(args.state, weights_only=False)["model"])
    for step in range(args.graphs):
        built = train.generate("mis-rb-frontierco", f"probe-{step}", train.RB_SEED + step, {})
        graph = built.instance
        print(f"RB training graph {step} (seed {train.RB_SEED + step}):")
        landscape(graph, args.beta, int(built.known_optimum))
        network_probe("fresh network", fresh, graph, args.beta)
        network_probe("trained state" if args.state else "checkpoint", shipped, graph, args.beta)


if __name__ == "__main__":
    main()
